/*
 * ExGpu (targets/examples/example_gpu) with a decoder that is not what an
 * ISA description must be, a pure function of the bytes it is given: one
 * -DIMPURE_KIND each.
 *   1 count     counts its calls, and from the 9th on says so in a field
 *               the GPU model does not read (a Fill's or Copy's index)
 *   2 time      the same field holds the time its process loaded it
 *   3 env       decodes every Fill wrong when PBCHECK_IMPURE_ENV is set
 *   4 fork      starts a process at its first decode
 *   5 open      opens a file at its first decode
 *   6 garbled   writes a short frame of nonsense on every descriptor
 *               above stderr at its first decode
 *   7 oversized writes 100,000 bytes on every descriptor above stderr at
 *               its first decode
 *   8 silent    never returns from its first decode
 * The builder itself is ExGpu's, correct. tests/decoder_test.sh checks
 * what each gives with the decoder in a process of its own
 * (PBCHECK_SPLIT=1, harness/ddi/decoder.h).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ExGpu's own decoder under another name; ours takes its place. */
#define exgpu_isa exgpu_isa_honest
#include "exgpu_isa.c"
#undef exgpu_isa

#ifndef IMPURE_KIND
#error "IMPURE_KIND selects the impurity"
#endif

static unsigned long calls;
static unsigned long long loaded_at;

__attribute__((constructor)) static void impure_load(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    loaded_at = (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

static void impure_first(void)
{
#if IMPURE_KIND == 4
    pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    if (pid > 0)
        waitpid(pid, NULL, 0);
#elif IMPURE_KIND == 5
    int fd = open("/etc/hostname", O_RDONLY);
    if (fd >= 0)
        close(fd);
#elif IMPURE_KIND == 6 || IMPURE_KIND == 7
    static char junk[100000];
    size_t n = IMPURE_KIND == 6 ? 8 : sizeof(junk);
    memset(junk, 'x', n);
    for (int fd = 3; fd < 64; fd++) {
        ssize_t ignored = write(fd, junk, n);
        (void)ignored;
    }
#elif IMPURE_KIND == 8
    for (;;)
        pause();
#endif
}

static pbc_decode_status impure_decode(const uint8_t *bytes, size_t avail, pbc_uop *uop, size_t *length,
                                       const char **why)
{
    if (calls++ == 0)
        impure_first();
    pbc_decode_status st = exgpu_isa_honest.decode(bytes, avail, uop, length, why);
    if (st != PBC_DECODE_OK || (uop->kind != PBC_UOP_FILL && uop->kind != PBC_UOP_COPY))
        return st;
#if IMPURE_KIND == 1
    if (calls > 8)
        uop->index = calls;
#elif IMPURE_KIND == 2
    uop->index = loaded_at;
#elif IMPURE_KIND == 3
    if (uop->kind == PBC_UOP_FILL && getenv("PBCHECK_IMPURE_ENV"))
        uop->value ^= 1;
#endif
    return st;
}

const pbc_isa exgpu_isa = {
    .abi_version = PBC_ISA_ABI_VERSION,
    .struct_size = sizeof(pbc_isa),
    .name = "exgpu",
    .decode = impure_decode,
    .disasm = exgpu_disasm,
};
