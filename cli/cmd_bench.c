/*
 * pbcheck bench: the options, into a plan for the bench (harness/bench/,
 * docs/benchmarks.md), and where its results go.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fs.h"
#include "bench/bench.h"
#include "cli.h"

#ifndef PBC_SOURCE_DIR
#define PBC_SOURCE_DIR "."
#endif

typedef struct bench_args {
    double time_s, cap_s, fuzz_time_s;
    uint32_t seeds;
    const char *mutants, *bin_dir, *afl_bin_dir, *out, *corpus, *guard, *calls_seeds, *calls_corpus;
    int skip_find, skip_long, skip_fuzz, execs_only, calls_only, libfuzzer_only, split_only;
} bench_args;

static int parse_bench_args(int argc, char **argv, bench_args *a)
{
    memset(a, 0, sizeof(*a));
    a->time_s = 5;
    a->cap_s = 60;
    a->fuzz_time_s = 60;
    uint64_t seeds = 3;
    const pbc_opt opts[] = {
        {"time", PBC_OPT_SECONDS, &a->time_s, "S", "seconds", 1, 3600, "5", "seconds per speed measurement"},
        {"cap", PBC_OPT_SECONDS, &a->cap_s, "S", "seconds", 1, 3600, "60",
         "time limit of one time-to-find run"},
        {"seeds", PBC_OPT_NUMBER, &seeds, "N", "a number", 1, 9, "3", "runs per mutant and mode"},
        {"mutants", PBC_OPT_STRING, &a->mutants, "LIST", "a comma-separated list", 0, 0, "every mutant",
         "only these mutants (comma-separated)"},
        {"fuzz-time", PBC_OPT_SECONDS, &a->fuzz_time_s, "S", "seconds", 1, 3600, "60",
         "seconds of each fuzzing run of (g)"},
        {"corpus", PBC_OPT_STRING, &a->corpus, "DIR", "a folder", 0, 0, "corpus/bench of the source tree",
         "the fuzzer-evolved corpus of (a') and (h)\n(scripts/make-bench-corpus makes it)"},
        {"calls-corpus", PBC_OPT_STRING, &a->calls_corpus, "DIR", "a folder", 0, 0,
         "corpus/bench-calls of the source tree", "the call-heavy corpus (q) replays\n(scripts/make-bench-corpus --calls makes it)"},
        {"skip-find", PBC_OPT_FLAG, &a->skip_find, NULL, NULL, 0, 0, "off", "skip (c)'s fuzzer run and (d)"},
        {"skip-long", PBC_OPT_FLAG, &a->skip_long, NULL, NULL, 0, 0, "off", "skip (e) and (t)"},
        {"skip-fuzz", PBC_OPT_FLAG, &a->skip_fuzz, NULL, NULL, 0, 0, "off",
         "skip (g), four fuzzing runs of --fuzz-time each"},
        {"bin-dir", PBC_OPT_STRING, &a->bin_dir, "DIR", "a folder", 0, 0, "build/fuzz/fuzz",
         "libFuzzer binaries for (a'), (c), (d), (e), (g), (h)"},
        {"afl-bin-dir", PBC_OPT_STRING, &a->afl_bin_dir, "DIR", "a folder", 0, 0, "build/afl/fuzz",
         "AFL++ binaries for (g); without them (g) says so"},
        {"out", PBC_OPT_STRING, &a->out, "FILE", "a file", 0, 0, "none: standard output only",
         "also write the report into FILE, replacing its\n'## Results' section (docs/benchmarks.md)"},
        /* (a) and (a') run the ASan build of pbcheck with this to measure
         * itself: (a)'s execs/s, or (a')'s given --corpus. */
        {"execs-only", PBC_OPT_FLAG, &a->execs_only, NULL, NULL, 0, 0, "off",
         "print only (a)'s execs/s, or with --corpus (a')'s", .hidden = 1},
        {"libfuzzer-only", PBC_OPT_FLAG, &a->libfuzzer_only, NULL, NULL, 0, 0, "off",
         "measure only (l), libFuzzer's levers under ASan+UBSan, and print it"},
        {"split-only", PBC_OPT_FLAG, &a->split_only, NULL, NULL, 0, 0, "off",
         "measure only (s), certify in process (PBCHECK_SPLIT=0) against\nthe judge across the DDI (the default), and print it"},
        {"calls-only", PBC_OPT_FLAG, &a->calls_only, NULL, NULL, 0, 0, "off",
         "measure only (p), (q) and (x), the cost per DDI call, and print them"},
        /* scripts/make-bench-corpus grows corpus/bench-calls from these. */
        {"calls-seeds", PBC_OPT_STRING, &a->calls_seeds, "DIR", "a folder", 0, 0, "off",
         "write (p)'s inputs as DIR/calls-N.pbs and exit", .hidden = 1},
        {"guard", PBC_OPT_STRING, &a->guard, "FILE", "a file", 0, 0, "off",
         "measure only (a), (a') and (p) per unit of a fixed workload,\n"
         "and exit 1 when one fell by more than 2x against the\n"
         "ratios FILE records (docs/benchmarks.md)"},
        {NULL},
    };
    const pbc_verb_spec spec = {
        .name = "bench",
        .synopsis = "[OPTIONS]",
        .about = "Measures, in one run, what continuous fuzzing needs and prints a Markdown\n"
                 "report (see docs/benchmarks.md for the goals and the last results):\n"
                 "  (a) differential execs/s on the default input mix, this build and the\n"
                 "      ASan+UBSan build (build/fuzz/pbcheck, else build/asan/pbcheck), one\n"
                 "      core each;\n"
                 "  (a') the same on a fuzzer-evolved corpus (--corpus), and libFuzzer's\n"
                 "      execs/s in fuzz_diff_reference started from it;\n"
                 "  (b) execs/s with 16 MiB and with 4 GiB of modeled video memory;\n"
                 "  (c) peak RSS;\n"
                 "  (d) for each planted mutant, the time libFuzzer needs to find it with the\n"
                 "      structure-aware mutator and with byte mutations only (median of\n"
                 "      --seeds runs, each capped at --cap seconds);\n"
                 "  (e) the parser and ISA-decoder targets for 10^6 inputs each, and\n"
                 "  (t) pbcheck triage --jobs 2 on 1,000 inputs made from --corpus;\n"
                 "  (f) the per-page cost of a differential exec (one transfer of 1 to\n"
                 "      65,536 pages, and 4 GiB) against a memcpy of the same bytes;\n"
                 "  (g) fuzzing from the seed corpus for --fuzz-time seconds as 'pbcheck\n"
                 "      fuzz' runs it: libFuzzer with one process, with --jobs 2 (-fork=2)\n"
                 "      and with -jobs=2 -workers=2; AFL++ with -M and -S (execs/s and\n"
                 "      stability);\n"
                 "  (h) the cost of one mutation, structure-aware against libFuzzer's own;\n"
                 "  (l) where an exec of libFuzzer under ASan+UBSan goes: the sanitized\n"
                 "      model alone, the corpus run once, and libFuzzer's levers one at a\n"
                 "      time (--libfuzzer-only: it alone);\n"
                 "  (i) certify's cases per second in confined workers and with --no-fork;\n"
                 "  (r) certify's random phase, cases per CPU second;\n"
                 "  (s) certify in process (PBCHECK_SPLIT=0) and split (the default), cases per CPU\n"
                 "      second, the driver process's CPU counted, and (p)'s inputs replayed both\n"
                 "      ways, CPU us per DDI call (--split-only: it alone);\n"
                 "  (p) the cost per DDI call on call-heavy inputs, (q) replay of the\n"
                 "      call-heavy corpus (--calls-corpus) and (x) one process crossing\n"
                 "      (--calls-only: these alone);\n"
                 "  (z) a scenario with allocations and no operations, up to 4 GiB;\n"
                 "and the regression guard's ratios: (a), (a') and (p) per unit of a fixed\n"
                 "workload run in the same process (--guard checks them).\n"
                 "The fuzz preset's binaries (cmake --preset fuzz) serve (a'), (c)-(e), (g)\n"
                 "and (h), the afl preset's (g). A quick run: --skip-find --skip-long\n"
                 "--skip-fuzz --time 2. Run it from a release build for (a) and (a') to\n"
                 "mean what the goals say.",
        .example = "pbcheck bench --time 10 --mutants mutant-trunc32,mutant-fill-tail --out docs/benchmarks.md",
        .opts = opts,
    };
    int rc = pbc_cli_parse_options_only(&spec, argc, argv);
    if (rc != PBC_CLI_GO)
        return rc;
    a->seeds = (uint32_t)seeds;
    return PBC_CLI_GO;
}

int pbc_cmd_bench(int argc, char **argv)
{
    bench_args a;
    int rc = parse_bench_args(argc, argv, &a);
    if (rc != PBC_CLI_GO)
        return rc;
    const char *corpus = a.corpus ? a.corpus : PBC_SOURCE_DIR "/corpus/bench";
    const char *calls_corpus = a.calls_corpus ? a.calls_corpus : PBC_SOURCE_DIR "/corpus/bench-calls";
    char err[PBC_CLI_ERR_SIZE];
    if (a.guard) {
        pbc_bench_guard g;
        if (pbc_bench_guard_check(a.guard, corpus, a.time_s, &g, err, sizeof(err)))
            return pbc_usage_error("bench --guard: %s", err);
        printf("bench guard: (a) %.4f per unit (recorded %.4f, %.2fx)%s\n", g.a, g.want_a, g.a / g.want_a,
               g.fell_a ? ": FELL more than 2x" : "");
        printf("bench guard: (a') %.4f per unit (recorded %.4f, %.2fx)%s\n", g.c, g.want_c,
               g.want_c > 0 ? g.c / g.want_c : 0, g.fell_c ? ": FELL more than 2x" : "");
        printf("bench guard: (p) %.4f per unit (recorded %.4f, %.2fx)%s\n", g.p, g.want_p,
               g.want_p > 0 ? g.p / g.want_p : 0, g.fell_p ? ": FELL more than 2x" : "");
        return g.fell_a || g.fell_c || g.fell_p ? PBC_EXIT_FAIL : PBC_EXIT_PASS;
    }
    if (a.calls_seeds) {
        if (pbc_fs_mkdirs(a.calls_seeds, err, sizeof(err)))
            return pbc_usage_error("bench: %s", err);
        for (int i = 0; i < PBC_BENCH_CALLS_ROWS; i++) {
            char path[PATH_MAX], *text = pbc_bench_calls_text(i);
            snprintf(path, sizeof(path), "%.4000s/calls-%d.pbs", a.calls_seeds, i + 1);
            int bad = pbc_fs_write_atomic(path, text, strlen(text), err, sizeof(err));
            free(text);
            if (bad)
                return pbc_usage_error("bench: %s", err);
        }
        return PBC_EXIT_PASS;
    }
    if (a.calls_only) {
        pbc_bench_calls(stdout, a.time_s, calls_corpus);
        return PBC_EXIT_PASS;
    }
    if (a.execs_only) {
        printf("%.1f\n", pbc_bench_execs(a.corpus, a.time_s));
        return PBC_EXIT_PASS;
    }
    char bin[PATH_MAX], dir[PATH_MAX];
    pbc_cli_self_dir(dir, sizeof(dir));
    snprintf(bin, sizeof(bin), "%.4000s", a.bin_dir ? a.bin_dir : dir);
    if (!a.bin_dir)
        strcat(bin, "/../fuzz/fuzz");
    if (a.split_only) {
        pbc_bench_split(stdout, dir, a.time_s);
        return PBC_EXIT_PASS;
    }
    if (a.libfuzzer_only) {
        pbc_bench_libfuzzer(stdout, dir, bin, corpus, a.time_s);
        return PBC_EXIT_PASS;
    }
    if ((!a.skip_find || !a.skip_long) && access(bin, X_OK))
        return pbc_usage_error("bench: no libFuzzer build in %s for (d) and (e): cmake --preset fuzz && "
                               "cmake --build --preset fuzz, or --skip-find --skip-long", bin);
    char afl_bin[PATH_MAX];
    snprintf(afl_bin, sizeof(afl_bin), "%.4000s%s", a.afl_bin_dir ? a.afl_bin_dir : dir,
             a.afl_bin_dir ? "" : "/../afl/fuzz");
    const pbc_bench_plan plan = {
        .time_s = a.time_s,
        .cap_s = a.cap_s,
        .fuzz_time_s = a.fuzz_time_s,
        .seeds = a.seeds,
        .mutants = a.mutants,
        .corpus = corpus,
        .corpus_name = a.corpus ? a.corpus : "corpus/bench",
        .calls_corpus = calls_corpus,
        .bin_dir = bin,
        .afl_bin_dir = afl_bin,
        .self_dir = dir,
        .skip_find = a.skip_find,
        .skip_long = a.skip_long,
        .skip_fuzz = a.skip_fuzz,
    };
    char *report = pbc_bench_report(&plan);
    fputs(report, stdout);
    rc = PBC_EXIT_PASS;
    if (a.out && pbc_bench_write_results(a.out, report, err, sizeof(err)))
        rc = pbc_usage_error("bench: %s", err);
    free(report);
    return rc;
}
