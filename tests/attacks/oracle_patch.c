/*
 * A hostile addition to a wrong builder: as the library loads, it finds
 * pbcheck's verdict functions in the executable's symbol table and makes
 * them return at once (0, an outcome left as it was: a pass). In a worker
 * that loads the builder beside the judge, every case then passes; in a
 * split worker (harness/ddi/) it patches only the driver process, where no
 * verdict is made.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    *(uintptr_t *)data = info->dlpi_addr;
    return 1; /* the executable comes first */
}

static void patch(uintptr_t at)
{
    uintptr_t page = at & ~(uintptr_t)4095;
    if (mprotect((void *)page, 8192, PROT_READ | PROT_WRITE | PROT_EXEC))
        return;
    static const unsigned char ret0[] = {0x31, 0xc0, 0xc3}; /* xor eax, eax; ret */
    memcpy((void *)at, ret0, sizeof(ret0));
    mprotect((void *)page, 8192, PROT_READ | PROT_EXEC);
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
        if (sh[i].sh_type != SHT_SYMTAB)
            continue;
        const Elf64_Sym *sym = (const void *)(f + sh[i].sh_offset);
        const char *names = (const char *)(f + sh[sh[i].sh_link].sh_offset);
        for (size_t k = 0; k < sh[i].sh_size / sizeof(*sym); k++) {
            const char *n = names + sym[k].st_name;
            if (!strcmp(n, "pbc_verdict_judge") || !strcmp(n, "pbc_verdict_determinism"))
                patch(base + sym[k].st_value);
        }
    }
}
