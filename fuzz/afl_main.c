/*
 * The AFL++ driver for the LLVMFuzzerTestOneInput targets: persistent mode
 * (many inputs per process) with the input in shared memory. Outside
 * afl-fuzz, the same macros read one input from stdin, and file arguments
 * are run one by one, so a saved crash replays with `target FILE`.
 * Built by pbcheck_add_target for a builder library, PBC_AFL_TARGET_LIB
 * names that library (PBCHECK_TARGET, when set, still wins).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak)); /* as libFuzzer: if the target has one */

__AFL_FUZZ_INIT();

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 2;
    }
    static uint8_t buf[1 << 20];
    size_t n = fread(buf, 1, sizeof(buf), f);
    fclose(f);
    LLVMFuzzerTestOneInput(buf, n);
    return 0;
}

int main(int argc, char **argv)
{
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
#ifdef PBC_AFL_TARGET_LIB
    setenv("PBCHECK_TARGET", PBC_AFL_TARGET_LIB, 0);
#endif
    if (argc > 1 && !getenv("__AFL_SHM_ID")) {
        for (int i = 1; i < argc; i++)
            if (run_file(argv[i]))
                return 2;
        return 0;
    }
#ifdef __AFL_HAVE_MANUAL_CONTROL
    __AFL_INIT();
#endif
    const uint8_t *buf = __AFL_FUZZ_TESTCASE_BUF;
    while (__AFL_LOOP(10000))
        LLVMFuzzerTestOneInput(buf, (size_t)__AFL_FUZZ_TESTCASE_LEN);
    return 0;
}
