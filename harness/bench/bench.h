/*
 * bench.h — `pbcheck bench`: the speed and memory goals of continuous
 * fuzzing (docs/benchmarks.md), measured in one run, and the regression
 * guard that CI runs. The command line (cli/cmd_bench.c) only parses
 * options into a plan.
 */
#ifndef PBCHECK_BENCH_H
#define PBCHECK_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct pbc_bench_plan {
    double time_s;           /* seconds per speed measurement */
    double cap_s;            /* time limit of one time-to-find run of (d) */
    double fuzz_time_s;      /* seconds of each fuzzing run of (g) */
    uint32_t seeds;          /* runs per mutant and mode in (d), at most 9 */
    const char *mutants;     /* (d)'s mutants, comma-separated; NULL: every one */
    const char *corpus;      /* the fuzzer-evolved corpus of (a'), (h) and (t) */
    const char *corpus_name; /* how the report names it */
    const char *calls_corpus; /* (q)'s call-heavy corpus (corpus/bench-calls) */
    const char *bin_dir;     /* the libFuzzer binaries */
    const char *afl_bin_dir; /* the AFL++ binaries; (g) says when they are not there */
    const char *self_dir;    /* the folder of the running pbcheck: its sibling builds (build/asan, build/fuzz) */
    int skip_find, skip_long, skip_fuzz;
} pbc_bench_plan;

/* The whole report as Markdown, from "## Results" on (owned); progress
 * goes to stderr as each measurement starts. */
char *pbc_bench_report(const pbc_bench_plan *p);

/* (a)'s differential execs/s on the default input mix, or with a corpus
 * (a')'s, measured for `seconds` in this process. */
double pbc_bench_execs(const char *corpus, double seconds);

/* (p)'s call-heavy inputs: how many, what each is, and each as a
 * scenario (0, or -1 with why in err). */
#define PBC_BENCH_CALLS_ROWS 4
extern const char *const pbc_bench_calls_rows[PBC_BENCH_CALLS_ROWS];
struct pbc_scenario;
int pbc_bench_calls_scenario(int which, struct pbc_scenario *s, char *err, size_t err_size);
/* The same as text (owned): scripts/make-bench-corpus grows corpus/bench-calls from them. */
char *pbc_bench_calls_text(int which);
/* (p) and (q) alone, as Markdown: each input measured for `seconds` of
 * CPU time, then replay of the call-heavy corpus. */
void pbc_bench_calls(FILE *o, double seconds, const char *calls_corpus);

/* (s) alone, as Markdown: certify's quick suite of the reference (as a
 * library) and the three examples in process and split (PBCHECK_SPLIT=1),
 * cases per CPU second with the driver processes' CPU; the builders are
 * found in the build folder `self_dir`; the random phase runs `seconds`. */
void pbc_bench_split(FILE *o, const char *self_dir, double seconds);

/* (l) alone, as Markdown: libFuzzer under ASan+UBSan (fuzz_diff_reference
 * in bin) on corpus, its levers one at a time, `seconds` each. */
void pbc_bench_libfuzzer(FILE *o, const char *self_dir, const char *bin, const char *corpus, double seconds);

/* The regression guard: (a) and (a') per unit of a fixed workload run in
 * the same process, against the ratios the report at `doc` records. */
typedef struct pbc_bench_guard {
    double a, want_a; /* (a): measured now, recorded */
    double c, want_c; /* (a'): measured now, recorded (0: none recorded) */
    double p, want_p; /* (p): DDI calls per unit, measured now, recorded (0: none recorded) */
    int fell_a, fell_c, fell_p; /* fell by more than 2x */
} pbc_bench_guard;
/* 0 with *g filled, or -1 with why in err (doc unreadable or recording no
 * ratios). */
int pbc_bench_guard_check(const char *doc, const char *corpus, double seconds, pbc_bench_guard *g, char *err,
                          size_t err_size);

/* Writes report over the file's "## Results" section (and everything
 * after it), keeping the text before; a new file is just the report.
 * 0, or -1 with why in err. */
int pbc_bench_write_results(const char *path, const char *report, char *err, size_t err_size);

#endif
