/*
 * Hostile builders against the link itself (harness/ddi/), each
 * example-gpu with one thing added to its BuildPagingBuffer:
 * - by default, it logs a line, which a split driver process keeps as a
 *   notice to send with its next frame, and then turns that kept notice
 *   into a register read, a callback that needs a reply;
 * - with FORGE_CHANNEL, it finds the channel's rings (the shared mapping
 *   of their size) and adds 2^30 to the count of bytes read that it
 *   publishes in the ring from the judge, so the judge's next frame finds
 *   the ring holding more than it can.
 * The judge must refuse either as the builder's failure. In process there
 * is no kept notice and no channel, and each is example-gpu.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pbcheck/target.h>

/* The build renames example-gpu's pbc_target_get to this (for its file
 * only: this one defines the library's own). */
#undef pbc_target_get
const pbc_target *exgpu_target_get_real(void);

enum { LOG_KIND = 68, MMIO_READ_KIND = 66, HEAD_BYTES = 16, PENDING_BYTES = 64 << 10 };

static pbc_target table;
static const pbc_host *host;
static uint8_t *pending; /* the driver process's kept notices, when found */
/* The channel's rings (harness/ddi/link.c, chan_ring): two of a 128-byte
 * head and 256 KiB of data; the count read of the first at byte 64. */
#define RINGS_BYTES ((2u * (128u + (256u << 10)) + 4095u) & ~4095u)
#define RING_TAIL 64u

#ifdef FORGE_CHANNEL
static uint8_t *rings(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    uint8_t *found = NULL;
    while (f && !found && fgets(line, sizeof(line), f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && hi - lo == RINGS_BYTES && strstr(line, "/dev/zero"))
            found = (uint8_t *)lo;
    }
    if (f)
        fclose(f);
    return found;
}
#endif

static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    *(uintptr_t *)data = info->dlpi_addr;
    return 1; /* the executable comes first */
}

/* The address of pbcheck's local object `name`, from its symbol table. */
static uint8_t *local_object(const char *name)
{
    int fd = open("/proc/self/exe", O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st))
        return NULL;
    const uint8_t *f = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (f == MAP_FAILED)
        return NULL;
    uintptr_t base = 0;
    dl_iterate_phdr(first_object, &base);
    const Elf64_Ehdr *eh = (const void *)f;
    const Elf64_Shdr *sh = (const void *)(f + eh->e_shoff);
    for (int i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_SYMTAB)
            continue;
        const Elf64_Sym *sym = (const void *)(f + sh[i].sh_offset);
        const char *names = (const char *)(f + sh[sh[i].sh_link].sh_offset);
        for (size_t k = 0; k < sh[i].sh_size / sizeof(*sym); k++)
            if (ELF64_ST_TYPE(sym[k].st_info) == STT_OBJECT && !strcmp(names + sym[k].st_name, name))
                return (uint8_t *)(base + sym[k].st_value);
    }
    return NULL;
}

static NTSTATUS APIENTRY forge_create_adapter(const pbc_adapter_info *info, HANDLE *adapter)
{
    host = info->host;
    return exgpu_target_get_real()->create_adapter(info, adapter);
}

static NTSTATUS APIENTRY forge_build(IN_CONST_HANDLE adapter, DXGKARG_BUILDPAGINGBUFFER *args)
{
#ifdef FORGE_CHANNEL
    uint8_t *r = rings();
    if (r) {
        uint32_t tail;
        memcpy(&tail, r + RING_TAIL, 4);
        tail += 1u << 30;
        memcpy(r + RING_TAIL, &tail, 4);
    }
    return exgpu_target_get_real()->build_paging_buffer(adapter, args);
#endif
    if (host)
        host->log(host->ctx, "a line about to become a register read");
    size_t n = 0;
    if (pending)
        memcpy(&n, pending + PENDING_BYTES, sizeof(n));
    for (size_t at = 0; n <= PENDING_BYTES && at + HEAD_BYTES + 4 <= n;) {
        uint32_t len, kind;
        memcpy(&len, pending + at, 4);
        memcpy(&kind, pending + at + HEAD_BYTES, 4);
        if (kind == LOG_KIND) {
            kind = MMIO_READ_KIND;
            memcpy(pending + at + HEAD_BYTES, &kind, 4);
        }
        at += HEAD_BYTES + len;
    }
    return exgpu_target_get_real()->build_paging_buffer(adapter, args);
}

__attribute__((visibility("default"))) const pbc_target *pbc_target_get(void)
{
    table = *exgpu_target_get_real();
    table.create_adapter = forge_create_adapter;
    table.build_paging_buffer = forge_build;
    pending = local_object("drv_pending");
    return &table;
}
