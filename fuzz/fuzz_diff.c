/*
 * The differential fuzz target: the input is a binary scenario (any bytes
 * decode into a valid one); it runs through the builder named by
 * PBC_FUZZ_TARGET (built in), or the builder linked into the binary (a
 * vendor's NAME_fuzzer from pbcheck_add_target, the examples in the
 * ClusterFuzzLite build: its own pbc_target_get, so the binary needs no
 * environment), or for fuzz_diff_external the builder library named by
 * the environment variable PBCHECK_TARGET, the reference
 * builder and the spec model, and a broken
 * rule or a memory divergence aborts, which the engine saves as a crash.
 * `pbcheck replay --target NAME FILE` replays a saved input.
 *
 * The runner's worlds are kept between inputs only to save allocations:
 * every run resets them first, and one input in PBC_FUZZ_RERUN_EVERY is
 * run twice against the target (rule PB-NONDET), which catches state a
 * builder keeps between runs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/runner.h"
#include "exec/target.h"

#ifndef PBC_FUZZ_TARGET
#error "PBC_FUZZ_TARGET names the builder under test (\"\" for a library named by PBCHECK_TARGET)"
#endif

/* Defined when a builder's sources are linked into the binary. */
const pbc_target *pbc_target_get(void) __attribute__((weak));

static pbc_target embedded; /* that builder's table, checked as a loaded library's is */

/* The builder under test: built in, linked in, or a library named at run time. */
static const char *target_name(void)
{
    const char *lib = getenv("PBCHECK_TARGET");
    if (PBC_FUZZ_TARGET[0])
        return PBC_FUZZ_TARGET;
    if (pbc_target_get)
        return embedded.name ? embedded.name : "(linked in)";
    return lib ? lib : "";
}

static const pbc_target *open_embedded(char *why, size_t n)
{
    const pbc_target *t = pbc_target_get();
    if (!t || t->abi_version != PBC_TARGET_ABI_VERSION || t->struct_size < PBC_TARGET_SIZE_1_0) {
        snprintf(why, n, "the linked-in builder's pbc_target_get gave %s", t ? "a table of another ABI" : "NULL");
        return NULL;
    }
    memcpy(&embedded, t, t->struct_size < sizeof(embedded) ? t->struct_size : sizeof(embedded));
    embedded.struct_size = sizeof(embedded);
    const char *bad = pbc_exec_target_check(&embedded);
    if (bad) {
        snprintf(why, n, "the linked-in builder is unusable: %s", bad);
        return NULL;
    }
    return &embedded;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);
const char *__asan_default_options(void);

/* Under ASan, freed memory waits in a quarantine (256 MiB by default)
 * before it is reused, so a use after free is caught. A fuzzing process
 * frees a few dozen small blocks per input, so 32 MiB still holds the
 * frees of thousands of inputs, and keeps the process within its memory
 * goal (docs/benchmarks.md, (c)). ASAN_OPTIONS set by the user or the
 * fuzzing infrastructure overrides it. */
const char *__asan_default_options(void)
{
    return "quarantine_size_mb=32";
}

static void report_and_abort(const pbc_scenario *s, const pbc_outcome *out)
{
    char *text = pbc_scenario_print(s);
    fprintf(stderr, "pbcheck: %s on target %s: %s\n%s\n--- scenario ---\n%s---\n"
                    "replay: pbcheck replay --target %s <this input>\n",
            pbc_verdict_name(out->verdict), target_name(), out->rule, out->message, text,
            !PBC_FUZZ_TARGET[0] && pbc_target_get ? "<its library, libNAME.so>" : target_name());
    free(text);
    abort();
}

/* PBCHECK_ENCODE_SEEDS=DIR BINARY SEED.pbs...: writes each text seed to
 * DIR/SEED.bin laid onto the builder's declared adapter, and exits (how
 * pbcheck_add_target makes a linked-in builder's seed corpus: the binary
 * knows the adapter, and runs no DDI to tell it). */
static int encode_seeds(const char *dir, int argc, char **argv)
{
    char why[512];
    const pbc_target *t = !PBC_FUZZ_TARGET[0] && pbc_target_get ? open_embedded(why, sizeof(why))
                                                                : pbc_exec_target_open_here(target_name(), why, sizeof(why));
    if (!t) {
        fprintf(stderr, "pbcheck: %s\n", why);
        return 2;
    }
    pbc_segment_info layout[PBC_MAX_SEGMENTS];
    uint32_t count = pbc_exec_target_layout(t, layout);
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        pbc_scenario s;
        char err[1024];
        if (pbc_scenario_load(argv[i], &s, err, sizeof(err))) {
            fprintf(stderr, "%s\n", err);
            bad = 1;
            continue;
        }
        uint8_t *bytes;
        size_t n = pbc_scenario_encode(&s, &bytes);
        pbc_scenario_fini(&s);
        if (count) {
            pbc_scenario_decode_in(bytes, n, layout, count, &s);
            free(bytes);
            n = pbc_scenario_encode(&s, &bytes);
            pbc_scenario_fini(&s);
        }
        const char *base = strrchr(argv[i], '/');
        base = base ? base + 1 : argv[i];
        size_t len = strlen(base);
        if (len > 4 && !strcmp(base + len - 4, ".pbs"))
            len -= 4;
        char path[4096];
        snprintf(path, sizeof(path), "%s/%.*s.bin", dir, (int)len, base);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(bytes, 1, n, f) != n || fclose(f)) {
            perror(path);
            bad = 1;
        }
        free(bytes);
    }
    printf("pbcheck: %d seeds in %s%s\n", argc - 1, dir, count ? ", laid onto the declared adapter" : "");
    return bad;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *dir = getenv("PBCHECK_ENCODE_SEEDS");
    if (dir && *dir)
        exit(encode_seeds(dir, *argc, *argv));
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static pbc_runner runner; /* worlds only; reset by every run */
    static const pbc_target *target;
    static pbc_segment_info layout[PBC_MAX_SEGMENTS];
    static uint32_t layout_count;
    if (!target) {
        char why[512];
        target = !PBC_FUZZ_TARGET[0] && pbc_target_get ? open_embedded(why, sizeof(why))
                                                       : pbc_exec_target_open_here(target_name(), why, sizeof(why));
        if (!target) {
            fprintf(stderr, "pbcheck: %s%s\n", why,
                    PBC_FUZZ_TARGET[0] || pbc_target_get ? "" : " (set PBCHECK_TARGET to the builder library's path)");
            abort();
        }
        pbc_runner_init(&runner);
        layout_count = pbc_exec_target_layout(target, layout); /* a declared adapter: inputs decode within it */
    }
    pbc_scenario s;
    pbc_scenario_decode_in(data, size, layout, layout_count, &s);
    pbc_scenario_keep_supported(&s, target); /* what VidMm issues to an adapter like this one */
    /* Over the limits or the fuzz budget: decoded, not run (scenario.h). */
    if (!pbc_scenario_fuzz_runs(&s)) {
        pbc_scenario_fini(&s);
        return 0;
    }
    pbc_run_options o = pbc_run_options_fuzz(data, size);
    pbc_outcome out;
    pbc_runner_run(&runner, &s, target, &o, &out);
    if (out.verdict == PBC_VERDICT_FAIL || out.verdict == PBC_VERDICT_HARNESS_BUG)
        report_and_abort(&s, &out);
    pbc_scenario_fini(&s);
    /* Over the budget of pages written as bytes: stopped, not judged, and
     * kept out of the corpus (-1: libFuzzer adds no such input, however
     * new its coverage), so mutations do not breed more of it. */
    return runner.over_budget ? -1 : 0;
}
