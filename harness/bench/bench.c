/*
 * pbcheck bench: the speed and memory goals of continuous fuzzing, measured
 * in one run so that ratios compare like with like on a noisy machine:
 *   (a) differential execs/s on the default input mix, this build and the
 *       ASan+UBSan build, one core each;
 *   (a') the same on a fuzzer-evolved corpus (corpus/bench), and that
 *       corpus in the libFuzzer target itself;
 *   (b) the same mix with 16 MiB and with 4 GiB of modeled video memory,
 *       measured in alternating slices;
 *   (c) peak RSS;
 *   (d) per planted mutant, libFuzzer's time to find it with the
 *       structure-aware mutator and with byte mutations only;
 *   (e) the parser and ISA-decoder targets for 10^6 inputs each, and
 *   (t) pbcheck triage on 1,000 inputs;
 *   (f) the per-page cost of a differential exec: one transfer of N pages
 *       beside a memcpy of the same bytes;
 *   (g) fuzzing from the seed corpus as `pbcheck fuzz` runs it: libFuzzer
 *       with one process and with --jobs 2 (and, for the record, the
 *       -jobs alternative --jobs does not use), AFL++ with -M and -S;
 *   (h) the cost of one mutation, structure-aware against libFuzzer's own;
 *   (z) scenarios with allocations and no operations, up to 4 GiB;
 *   (p) the cost per DDI call on call-heavy inputs, (q) replay of the
 *       call-heavy corpus, (x) one process crossing;
 *   (l) where an exec of libFuzzer under ASan+UBSan goes;
 * and the regression guard's ratios: (a), (a') and (p) per unit of a fixed
 * workload run in the same process, which --guard checks against those
 * a report recorded. It makes a Markdown report (docs/benchmarks.md keeps
 * the last one). cli/cmd_bench.c parses the options and calls this room.
 */
#define _GNU_SOURCE
#include "bench/bench.h"

#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <xxhash.h>

#include "base/fs.h"
#include "base/util.h"
#include "exec/child.h"
#include "exec/runner.h"
#include "exec/target.h"
#include "registry.h"
#include "scenario/gen.h"

#ifndef PBC_SOURCE_DIR
#define PBC_SOURCE_DIR "."
#endif

/* This pbcheck, to run again as a child: the running image itself, which
 * a child reaches even when a rebuild has since replaced the file. */
#define SELF_EXE "/proc/self/exe"

/* Seconds on a monotonic clock. */
static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The text scenario at path, as DIR/NAME.bin (NAME: its base name
 * without .pbs), for a fuzzer's seed folder; says why on stderr when it
 * cannot. */
static void encode_seed(const char *path, const char *dir)
{
    pbc_scenario s;
    char err[PATH_MAX + 512];
    if (pbc_scenario_load(path, &s, err, sizeof(err))) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    uint8_t *bytes;
    size_t n = pbc_scenario_encode(&s, &bytes);
    pbc_scenario_fini(&s);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strlen(base);
    if (len > 4 && !strcmp(base + len - 4, ".pbs"))
        len -= 4;
    char *out = pbc_xprintf("%s/%.*s.bin", dir, (int)len, base);
    if (pbc_fs_write_atomic(out, bytes, n, err, sizeof(err)))
        fprintf(stderr, "pbcheck: %s\n", err);
    free(out);
    free(bytes);
}


/* ---- The default input mix ---- */

typedef struct mix {
    uint8_t **in;
    size_t *len;
    uint32_t count;
} mix;

static void mix_add(mix *m, uint8_t *bytes, size_t n)
{
    m->in = pbc_xrealloc(m->in, (m->count + 1) * sizeof(*m->in));
    m->len = pbc_xrealloc(m->len, (m->count + 1) * sizeof(*m->len));
    m->in[m->count] = bytes;
    m->len[m->count++] = n;
}

static void mix_fini(mix *m)
{
    for (uint32_t i = 0; i < m->count; i++)
        free(m->in[i]);
    free(m->in);
    free(m->len);
}

/* The largest allocation of the default mix: the mix the speed goal was
 * set on. The generator's large allocations (one in 24, up to 256 MiB)
 * are measured per page by (f) and, as fuzzing reaches them, by (a'). */
#define MIX_MAX_ALLOC (64u << 10)

static int mix_small(const pbc_scenario *s)
{
    for (uint32_t i = 0; i < s->alloc_count; i++)
        if (s->allocs[i].size > MIX_MAX_ALLOC)
            return 0;
    return 1;
}

/* Binary scenarios from generated ones: 400 scenarios of up to 24 ops
 * with allocations of at most MIX_MAX_ALLOC, re-laid out on two memory
 * segments of seg_size bytes each. */
static void mix_generated(mix *m, uint64_t seg_size)
{
    pbc_rng rng = {20261121};
    for (int i = 0; i < 400; i++) {
        pbc_scenario s, t;
        pbc_scenario_init(&s);
        pbc_gen_scenario(&s, 24, pbc_rng_choose, &rng);
        if (!mix_small(&s)) {
            pbc_scenario_fini(&s);
            i--;
            continue;
        }
        static const pbc_segment_info layout[] = {
            {1, PBC_SEGMENT_MEMORY, 0x1000000000ull, 0},
            {2, PBC_SEGMENT_MEMORY, 0x2000000000ull, 0},
            {3, PBC_SEGMENT_APERTURE, 0x800000000ull, 256ull << 20},
        };
        memcpy(s.segments, layout, sizeof(layout));
        s.segments[0].size = s.segments[1].size = 16ull << 20;
        /* Encoding, then decoding under the new layout, folds every place
         * into it and keeps only what is legal there. */
        uint8_t *bytes;
        size_t n = pbc_scenario_encode(&s, &bytes);
        pbc_scenario_decode(bytes, n, &t);
        free(bytes);
        t.segments[0].size = t.segments[1].size = seg_size;
        n = pbc_scenario_encode(&t, &bytes);
        mix_add(m, bytes, n);
        pbc_scenario_fini(&s);
        pbc_scenario_fini(&t);
    }
}

/* This thread's CPU time: what a slice of work costs whatever else the
 * machine runs (on a loaded machine wall time mostly measures waiting). */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* How often the determinism re-run runs: as the fuzz targets run it (one
 * input in PBC_FUZZ_RERUN_EVERY), on every input, or never. */
typedef enum rerun_mode { RERUN_AS_FUZZING, RERUN_ALWAYS, RERUN_NEVER } rerun_mode;

/* Runs the mix (decode + differential run, as the fuzz target does) until
 * `seconds` pass by the clock `now` (wall or CPU time); returns inputs per
 * second of it. */
static double mix_run_on(const mix *m, pbc_runner *runner, double seconds, uint32_t *cursor, rerun_mode rerun,
                         double (*now)(void))
{
    const pbc_target *t = pbc_target_find("reference");
    double start = now(), elapsed;
    uint64_t done = 0;
    do {
        for (int k = 0; k < 16; k++, done++) {
            uint32_t i = (*cursor)++ % m->count;
            pbc_scenario s;
            pbc_outcome out;
            pbc_scenario_decode(m->in[i], m->len[i], &s);
            pbc_run_options o = pbc_run_options_fuzz(m->in[i], m->len[i]);
            if (rerun != RERUN_AS_FUZZING)
                o.check_determinism = rerun == RERUN_ALWAYS;
            pbc_runner_run(runner, &s, t, &o, &out);
            if (out.verdict != PBC_VERDICT_PASS && out.verdict != PBC_VERDICT_SKIP) {
                fprintf(stderr, "pbcheck: bench input %u: %s %s: %s\n", i, pbc_verdict_name(out.verdict),
                        out.rule, out.message);
                exit(1);
            }
            pbc_scenario_fini(&s);
        }
        elapsed = now() - start;
    } while (elapsed < seconds);
    return (double)done / elapsed;
}

static double mix_run_as(const mix *m, pbc_runner *runner, double seconds, uint32_t *cursor, rerun_mode rerun)
{
    return mix_run_on(m, runner, seconds, cursor, rerun, wall_now);
}

static double mix_run(const mix *m, pbc_runner *runner, double seconds, uint32_t *cursor)
{
    return mix_run_as(m, runner, seconds, cursor, RERUN_AS_FUZZING);
}

/* The determinism re-run's share of an exec on the default mix, as the
 * fuzz targets run it (*sampled) and on every input (*every): execs/s
 * with and without it, in alternating slices. */
static void determinism_share(double seconds, double *sampled, double *every)
{
    mix m = {0};
    mix_generated(&m, 16ull << 20);
    pbc_runner r;
    pbc_runner_init(&r);
    uint32_t cursor = 0;
    mix_run(&m, &r, 0.3, &cursor); /* warm up */
    double rate[3] = {0, 0, 0}; /* by rerun_mode */
    uint32_t slices = (uint32_t)(seconds * 3) + 1;
    for (uint32_t k = 0; k < slices; k++) {
        uint32_t at = cursor; /* the same inputs every way */
        for (int mode = 0; mode < 3; mode++) {
            cursor = at;
            rate[mode] += mix_run_as(&m, &r, 0.1, &cursor, (rerun_mode)mode);
        }
    }
    pbc_runner_fini(&r);
    mix_fini(&m);
    *sampled = 1.0 - rate[RERUN_AS_FUZZING] / rate[RERUN_NEVER];
    *every = 1.0 - rate[RERUN_ALWAYS] / rate[RERUN_NEVER];
}

/* Execs/s of a mix on a fresh runner, after a warm-up. */
static double mix_speed(const mix *m, double seconds, double (*now)(void))
{
    pbc_runner r;
    pbc_runner_init(&r);
    uint32_t cursor = 0;
    mix_run(m, &r, 0.3, &cursor); /* warm up */
    double v = mix_run_on(m, &r, seconds, &cursor, RERUN_AS_FUZZING, now);
    pbc_runner_fini(&r);
    return v;
}

/* Execs per second of the default mix; per second of this thread's CPU
 * time with now = cpu_now (what a loaded machine does not inflate). */
static double default_mix_speed(double seconds, double (*now)(void))
{
    mix m = {0};
    mix_generated(&m, 16ull << 20);
    double v = mix_speed(&m, seconds, now);
    mix_fini(&m);
    return v;
}

/* ---- (a') A fuzzer-evolved corpus ---- */

/* The inputs of a corpus folder (one binary scenario a file) that the fuzz
 * target runs. It only decodes those over the limits or the fuzz budget
 * (pbc_scenario_fuzz_runs): they are left out, and counted in *over. */
static void mix_folder(mix *m, const char *dir, uint32_t *over)
{
    *over = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char *path = pbc_xprintf("%s/%s", dir, e->d_name), *data;
        size_t n;
        if (pbc_fs_read(path, 1u << 20, &data, &n, NULL, 0) == 0) {
            pbc_scenario s;
            pbc_scenario_decode((const uint8_t *)data, n, &s);
            if (pbc_scenario_fuzz_runs(&s)) {
                mix_add(m, (uint8_t *)data, n);
            } else {
                free(data);
                (*over)++;
            }
            pbc_scenario_fini(&s);
        }
        free(path);
    }
    if (d)
        closedir(d);
}

/* The corpus run as mix_run runs (a); 0 when it holds nothing to run.
 * *count gets the inputs run, *over those left out. */
static double corpus_speed(const char *dir, double seconds, uint32_t *count, uint32_t *over)
{
    mix m = {0};
    mix_folder(&m, dir, over);
    *count = m.count;
    double v = m.count ? mix_speed(&m, seconds, wall_now) : 0;
    mix_fini(&m);
    return v;
}

/* ---- The regression guard: (a) and (a') against a fixed workload ---- */

static int cmp_double_f(const void *x, const void *y);

/* A unit of work whose cost no pbcheck code sets: a hash and a copy of
 * 64 KiB, and 4,096 dependent loads across 4 MiB. Run beside (a) and (a')
 * in the same process, its rate moves with the machine (its clock, what
 * else runs on it, its caches) as theirs do, so their ratio to it does
 * not. */
#define REF_WORK_BYTES (64u << 10)
#define REF_WORK_CHASE (4u << 20)

typedef struct ref_work {
    uint8_t *src, *dst;
    uint32_t *chase;
    uint64_t sink;
} ref_work;

static void ref_work_init(ref_work *w)
{
    w->src = pbc_xmalloc(REF_WORK_BYTES);
    w->dst = pbc_xmalloc(REF_WORK_BYTES);
    w->chase = pbc_xmalloc(REF_WORK_CHASE);
    pbc_rng rng = {27};
    for (uint32_t i = 0; i < REF_WORK_BYTES; i++)
        w->src[i] = (uint8_t)pbc_rng_choose(&rng, 256);
    uint32_t n = REF_WORK_CHASE / sizeof(uint32_t);
    for (uint32_t i = 0; i < n; i++)
        w->chase[i] = pbc_rng_choose(&rng, n);
    w->sink = 0;
}

static void ref_work_fini(ref_work *w)
{
    free(w->src);
    free(w->dst);
    free(w->chase);
}

/* Units per CPU second until `seconds` of CPU time pass. */
static double ref_work_run(ref_work *w, double seconds)
{
    double start = cpu_now(), elapsed;
    uint64_t done = 0;
    uint32_t at = (uint32_t)w->sink;
    do {
        for (int k = 0; k < 16; k++, done++) {
            memcpy(w->dst, w->src, REF_WORK_BYTES);
            w->sink += XXH3_64bits(w->dst, REF_WORK_BYTES);
            for (uint32_t i = 0; i < 4096; i++)
                at = w->chase[(at + i) % (REF_WORK_CHASE / sizeof(uint32_t))];
            w->src[done % REF_WORK_BYTES] ^= (uint8_t)at;
        }
        elapsed = cpu_now() - start;
    } while (elapsed < seconds);
    w->sink += at;
    return (double)done / elapsed;
}

#define GUARD_SLICES 64

/* (a) and (a') per unit of the fixed workload: the median, over slices
 * of a fixed workload's run followed by the mix's and the corpus's, of
 * each one's ratio, all in CPU time; -1 for (a') when the corpus holds
 * nothing to run. A median of neighbours' ratios leaves out the slices
 * that something else (a page-cache flush, a migration) hit. */
/* (p)'s inputs, made once for the guard. */
typedef struct calls_set {
    pbc_scenario s[PBC_BENCH_CALLS_ROWS];
    int ok;
} calls_set;

static void calls_set_init(calls_set *c)
{
    char err[512];
    c->ok = 1;
    for (int i = 0; i < PBC_BENCH_CALLS_ROWS; i++)
        if (pbc_bench_calls_scenario(i, &c->s[i], err, sizeof(err))) {
            fprintf(stderr, "pbcheck: bench (p): %s\n", err);
            while (i-- > 0)
                pbc_scenario_fini(&c->s[i]);
            c->ok = 0;
            return;
        }
}

static void calls_set_fini(calls_set *c)
{
    for (int i = 0; c->ok && i < PBC_BENCH_CALLS_ROWS; i++)
        pbc_scenario_fini(&c->s[i]);
}

/* (p)'s inputs in turn, through the reference, until `seconds` of CPU
 * time pass (at least one exec): DDI calls per CPU second. */
static double calls_run_on(const calls_set *c, pbc_runner *r, double seconds, uint32_t *cursor)
{
    const pbc_target *t = pbc_target_find("reference");
    pbc_run_options o = {0};
    double start = cpu_now(), elapsed;
    uint64_t calls = 0;
    do {
        pbc_outcome out;
        pbc_runner_run(r, &c->s[(*cursor)++ % PBC_BENCH_CALLS_ROWS], t, &o, &out);
        calls += r->target.res.calls + 2ull * r->target.res.sub_count;
    } while ((elapsed = cpu_now() - start) < seconds);
    return (double)calls / elapsed;
}

static void guard_ratios(const char *corpus, double seconds, double *ra, double *rc, double *rp)
{
    mix m = {0}, c = {0};
    uint32_t over;
    mix_generated(&m, 16ull << 20);
    mix_folder(&c, corpus, &over);
    pbc_runner r_m, r_c;
    pbc_runner_init(&r_m);
    pbc_runner_init(&r_c);
    ref_work w;
    ref_work_init(&w);
    calls_set cs;
    calls_set_init(&cs);
    pbc_runner r_p;
    pbc_runner_init(&r_p);
    uint32_t cm = 0, cc = 0, cp = 0;
    mix_run_on(&m, &r_m, 0.2, &cm, RERUN_AS_FUZZING, cpu_now); /* warm up */
    if (cs.ok)
        calls_run_on(&cs, &r_p, 0.2, &cp);
    if (c.count)
        mix_run_on(&c, &r_c, 0.2, &cc, RERUN_AS_FUZZING, cpu_now);
    ref_work_run(&w, 0.2);
    double qa[GUARD_SLICES], qc[GUARD_SLICES], qp[GUARD_SLICES], slice = seconds / GUARD_SLICES;
    for (int i = 0; i < GUARD_SLICES; i++) {
        double unit = ref_work_run(&w, slice / 2);
        qa[i] = mix_run_on(&m, &r_m, slice, &cm, RERUN_AS_FUZZING, cpu_now) / unit;
        qc[i] = c.count ? mix_run_on(&c, &r_c, slice, &cc, RERUN_AS_FUZZING, cpu_now) / unit : -1;
        qp[i] = cs.ok ? calls_run_on(&cs, &r_p, slice, &cp) / unit : -1;
    }
    qsort(qa, GUARD_SLICES, sizeof(qa[0]), cmp_double_f);
    qsort(qc, GUARD_SLICES, sizeof(qc[0]), cmp_double_f);
    qsort(qp, GUARD_SLICES, sizeof(qp[0]), cmp_double_f);
    *ra = qa[GUARD_SLICES / 2];
    *rc = qc[GUARD_SLICES / 2];
    *rp = qp[GUARD_SLICES / 2];
    calls_set_fini(&cs);
    pbc_runner_fini(&r_p);
    ref_work_fini(&w);
    pbc_runner_fini(&r_m);
    pbc_runner_fini(&r_c);
    mix_fini(&m);
    mix_fini(&c);
}

#define GUARD_LINE "Regression guard (execs per unit of bench's fixed workload, same process, CPU time): "

static void guard_section(FILE *o, const char *corpus, double seconds)
{
    double ra, rc, rp;
    guard_ratios(corpus, seconds, &ra, &rc, &rp);
    fprintf(o, "### Regression guard\n\n");
    fprintf(o, GUARD_LINE "(a) %.4f, (a') %.4f, (p) %.4f.\n\n", ra, rc, rp);
    fprintf(o, "Each the median over %d slices of the fixed workload, the mix, the corpus and (p)'s inputs "
               "(DDI calls, not execs), in this thread's "
               "CPU time. `pbcheck bench --guard docs/benchmarks.md` (CTest `bench_guard`, label `bench`) measures "
               "the same ratios and fails when either falls below half the figure above.\n\n", GUARD_SLICES);
}

int pbc_bench_guard_check(const char *doc, const char *corpus, double seconds, pbc_bench_guard *g, char *err,
                          size_t err_size)
{
    char *text = NULL;
    size_t len;
    memset(g, 0, sizeof(*g));
    if (pbc_fs_read(doc, 16u << 20, &text, &len, err, err_size))
        return -1;
    const char *at = strstr(text, GUARD_LINE);
    int got = at ? sscanf(at + strlen(GUARD_LINE), "(a) %lf, (a') %lf, (p) %lf", &g->want_a, &g->want_c,
                          &g->want_p) : 0;
    free(text);
    if (got < 2 || g->want_a <= 0) { /* a record from before (p) guards (a) and (a') */
        snprintf(err, err_size, "%s records no guard ratios (a line '%s(a) X, (a') Y.')", doc, GUARD_LINE);
        return -1;
    }
    guard_ratios(corpus, seconds, &g->a, &g->c, &g->p);
    g->fell_a = g->a < g->want_a / 2;
    g->fell_c = g->want_c > 0 && g->c < g->want_c / 2;
    g->fell_p = g->want_p > 0 && g->p < g->want_p / 2;
    return 0;
}

/* ---- (f) Per-page cost ---- */

static int cmp_double_f(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* One differential exec of a scenario moving `pages` pages from system
 * memory into the default layout's 4 GiB segment, in seconds (the median
 * of a few). */
static double transfer_exec_seconds(pbc_runner *r, uint64_t pages)
{
    char *text = pbc_xprintf("pbs 1\nalloc A size=%llu\ntransfer A to=2:0x0\nend\n",
                             (unsigned long long)(pages * 4096));
    pbc_scenario s;
    char err[512];
    if (pbc_scenario_parse(text, strlen(text), "bench-f", &s, err, sizeof(err))) {
        fprintf(stderr, "pbcheck: bench (f): %s\n", err);
        free(text);
        return -1;
    }
    free(text);
    const pbc_target *t = pbc_target_find("reference");
    pbc_run_options o = {.check_determinism = 1};
    double best[5];
    uint32_t reps = pages >= (1u << 20) ? 1 : pages >= 4096 ? 3 : 5;
    for (uint32_t k = 0; k < reps; k++) {
        pbc_outcome out;
        double t0 = wall_now();
        pbc_runner_run(r, &s, t, &o, &out);
        best[k] = wall_now() - t0;
        if (out.verdict != PBC_VERDICT_PASS) {
            fprintf(stderr, "pbcheck: bench (f): %llu pages: %s %s\n", (unsigned long long)pages,
                    pbc_verdict_name(out.verdict), out.message);
            pbc_scenario_fini(&s);
            return -1;
        }
    }
    pbc_scenario_fini(&s);
    qsort(best, reps, sizeof(best[0]), cmp_double_f);
    return best[reps / 2];
}

/* memcpy of `pages` pages between two buffers already touched, seconds. */
static double memcpy_seconds(uint64_t pages)
{
    size_t n = (size_t)pages * 4096;
    uint8_t *a = pbc_xmalloc(n), *b = pbc_xmalloc(n);
    memset(a, 1, n);
    memset(b, 2, n);
    uint32_t reps = (uint32_t)((256ull << 20) / n); /* about 256 MiB copied, whatever the size */
    if (reps < 5)
        reps = 5;
    memcpy(b, a, n); /* warm */
    double t0 = wall_now();
    for (uint32_t k = 0; k < reps; k++) {
        memcpy(b, a, n);
        a[k % n] = b[(k * 7) % n]; /* keeps the copies */
    }
    double secs = (wall_now() - t0) / reps;
    free(a);
    free(b);
    return secs;
}

static void per_page_cost(FILE *o)
{
    static const uint64_t sizes[] = {1, 16, 256, 4096, 65536, 1u << 20};
    pbc_runner r;
    pbc_runner_init(&r);
    transfer_exec_seconds(&r, 16); /* warm up */
    double base = transfer_exec_seconds(&r, 1);
    fprintf(o, "### (f) Per-page cost of a differential exec\n\n");
    fprintf(o, "One transfer of N pages from system memory into the 4 GiB segment, through the reference as target "
               "(every input run twice, for PB-NONDET), against a `memcpy` of the same bytes. "
               "Marginal: (exec(N) - exec(1)) / (N - 1) per page. Goal: <= 10x memcpy from 4,096 pages "
               "up.\n\n");
    fprintf(o, "| pages | exec | per page (marginal) | memcpy per page | ratio |\n|---|---|---|---|---|\n");
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        double t = transfer_exec_seconds(&r, sizes[i]);
        double m = memcpy_seconds(sizes[i] < 65536 ? sizes[i] : 65536) / (double)(sizes[i] < 65536 ? sizes[i] : 65536);
        if (t < 0 || base < 0) {
            fprintf(o, "| %llu | failed | - | - | - |\n", (unsigned long long)sizes[i]);
            continue;
        }
        if (sizes[i] == 1) {
            fprintf(o, "| 1 | %.1f us | - | %.2f us | - |\n", t * 1e6, m * 1e6);
            continue;
        }
        double per = (t - base) / (double)(sizes[i] - 1);
        fprintf(o, "| %llu%s | %.2f ms | %.2f us | %.3f us | %.1fx |\n", (unsigned long long)sizes[i],
                sizes[i] == 1u << 20 ? " (4 GiB)" : "", t * 1e3, per * 1e6, m * 1e6, per / m);
        fflush(o);
    }
    fprintf(o, "\nThe memcpy beside 4 GiB is that of 256 MiB, per page. Goal for the 4 GiB transfer: one differential "
               "exec in <= 2 s.\n\n");
    pbc_runner_fini(&r);
}

/* ---- Child processes ---- */

static int run_child(char *const argv[], const char *log, double *secs, char *const env[], double limit);
static void remove_scratch(const char *dir);

/* Runs argv with its output in log (NULL: discarded), extra environment
 * in env; returns the exit status (-1 if it could not start) and the wall
 * time in *secs. A run still going at `limit` seconds is killed: a hung
 * fuzz target must not stall the whole benchmark. */
static int run_child(char *const argv[], const char *log, double *secs, char *const env[], double limit)
{
    pbc_child_spec spec = {.argv = argv, .output = log ? log : "/dev/null", .env = env};
    pbc_child c;
    char err[256];
    if (pbc_child_start(&c, &spec, err, sizeof(err))) {
        fprintf(stderr, "pbcheck: bench: %s\n", err);
        return -1;
    }
    while (!pbc_child_poll(&c)) {
        if (pbc_child_elapsed(&c) > limit) {
            fprintf(stderr, "pbcheck: bench: %s still running after %.0f s, stopped\n", argv[0], limit);
            pbc_child_kill(&c, SIGKILL);
            pbc_child_wait(&c);
            break;
        }
        nanosleep(&(struct timespec){0, 50 * 1000 * 1000}, NULL);
    }
    if (secs)
        *secs = pbc_child_elapsed(&c);
    return c.status;
}

/* Removes a scratch folder of ours, saying so when it cannot. */
static void remove_scratch(const char *dir)
{
    char err[PATH_MAX + 64];
    if (pbc_fs_remove_tree(dir, err, sizeof(err)))
        fprintf(stderr, "pbcheck: bench: %s\n", err);
}

/* (a), or (a') with a corpus, under ASan+UBSan: the sanitizer build's
 * pbcheck in its execs-only mode. */
static double asan_speed(const char *dir, double seconds, const char *corpus, char *note, size_t n)
{
    char exe[PATH_MAX], secs[32], log[] = "/tmp/pbcheck-bench-asan.XXXXXX";
    /* The optimised sanitizer build (what long fuzzing runs use), else the
     * debug one CI tests with. */
    snprintf(exe, sizeof(exe), "%.4000s/../fuzz/pbcheck", dir);
    if (access(exe, X_OK))
        snprintf(exe, sizeof(exe), "%.4000s/../asan/pbcheck", dir);
    if (access(exe, X_OK)) {
        snprintf(note, n, "not measured: no build/fuzz/pbcheck or build/asan/pbcheck "
                          "(cmake --preset fuzz && cmake --build --preset fuzz)");
        return 0;
    }
    snprintf(note, n, "%s", strstr(exe, "/../fuzz/") ? "fuzz preset, optimised" : "asan preset, -O0");
    int fd = mkstemp(log);
    if (fd < 0)
        return 0;
    close(fd);
    snprintf(secs, sizeof(secs), "%g", seconds);
    char *argv[] = {exe, "bench", "--execs-only", "--time", secs, corpus ? "--corpus" : NULL, (char *)corpus, NULL};
    int rc = run_child(argv, log, NULL, NULL, seconds * 3 + 120);
    double v = 0;
    FILE *f = fopen(log, "r");
    if (!f || fscanf(f, "%lf", &v) != 1 || rc)
        snprintf(note, n, "the ASan+UBSan run failed (exit %d)", rc);
    if (f)
        fclose(f);
    unlink(log);
    return v;
}

/* ---- (z) Scenarios with no operations ---- */

/* One differential exec of a scenario with allocations and no operations
 * (reference as target, with the determinism re-run), in milliseconds:
 * the median of three; -1 when it does not pass. */
static double empty_exec_ms(const char *text)
{
    pbc_scenario s;
    char err[512];
    if (pbc_scenario_parse(text, strlen(text), "bench-z", &s, err, sizeof(err))) {
        fprintf(stderr, "pbcheck: bench (z): %s\n", err);
        return -1;
    }
    pbc_runner r;
    pbc_runner_init(&r);
    pbc_run_options o = {.check_determinism = 1};
    double t[3];
    int ok = 1;
    for (int k = 0; k < 3; k++) {
        pbc_outcome out;
        double t0 = wall_now();
        pbc_runner_run(&r, &s, pbc_target_find("reference"), &o, &out);
        t[k] = (wall_now() - t0) * 1e3;
        ok &= out.verdict == PBC_VERDICT_PASS;
    }
    pbc_runner_fini(&r);
    pbc_scenario_fini(&s);
    qsort(t, 3, sizeof(t[0]), cmp_double_f);
    return ok ? t[1] : -1;
}

static void empty_scenarios(FILE *o)
{
    static const struct {
        const char *what, *text;
    } rows[] = {
        {"16 KiB in system memory", "pbs 1\nalloc B size=16K\nend\n"},
        {"1 GiB and 16 KiB in system memory (a fuzzer-evolved input's shape)",
         "pbs 1\nalloc A size=1G\nalloc B size=16K\nend\n"},
        {"1 GiB in the 4 GiB segment, 16 KiB in system memory", "pbs 1\nalloc A size=1G at=2:0x0\nalloc B size=16K\nend\n"},
        {"4 GiB: 2 GiB in system memory, 2 GiB in the 4 GiB segment",
         "pbs 1\nalloc A size=2G\nalloc B size=2G at=2:0x0\nend\n"},
    };
    fprintf(o, "### (z) Scenarios with no operations\n\n");
    fprintf(o, "One differential exec (reference as target, with the determinism re-run) of allocations and no "
               "operations, on the default layout: the median of three. Goal: <= 1 ms whatever the allocations' "
               "sizes, as nothing moves.\n\n| allocations | exec | goal |\n|---|---|---|\n");
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        fprintf(stderr, "bench: (z) %s...\n", rows[i].what);
        double ms = empty_exec_ms(rows[i].text);
        if (ms < 0)
            fprintf(o, "| %s | failed | <= 1 ms |\n", rows[i].what);
        else
            fprintf(o, "| %s | %.2f ms | <= 1 ms |\n", rows[i].what, ms);
    }
    fprintf(o, "\n");
}

/* ---- (p) Cost per DDI call ---- */

/* The call-heavy inputs drivers on real hardware make: paging buffers
 * too small for the job, thousands of calls per operation. Made as text,
 * so the rows say exactly what ran. */
char *pbc_bench_calls_text(int which)
{
    size_t cap = 256 * 1024, at = 0;
    char *t = pbc_xmalloc(cap);
#define CALLS_PUT(...) (at += (size_t)snprintf(t + at, cap - at, __VA_ARGS__))
    CALLS_PUT("pbs 1\n");
    switch (which) {
    case 0:
        CALLS_PUT("dma size=min\nalloc A size=2M at=1:0x0\ntransfer A to=system\ntransfer A to=1:0x200000\n");
        break;
    case 1:
        CALLS_PUT("dma size=min\nalloc A size=4K at=none\n");
        for (uint32_t i = 0; i < PBC_MAX_OPS / 2 - 1; i++) /* and the dma line */
            CALLS_PUT("fill A to=1:0x%x pattern=0x%x\ndiscard A\n", (i % 1024) * 4096u, 0x10000u + i);
        break;
    case 2:
        CALLS_PUT("alloc A size=4K at=1:0x0\n");
        for (uint32_t i = 0; i < 1000; i++)
            CALLS_PUT("va-map A va=0x%x\nva-unmap A\n", 0x800000u + i * 0x1000u);
        break;
    default:
        CALLS_PUT("alloc A size=4K at=1:0x0 needs-idle\n");
        for (uint32_t i = 0; i < 1000; i++)
            CALLS_PUT("render-write A pattern=0x%x\ntransfer A to=system\nrender-write A pattern=0x%x\n"
                      "transfer A to=1:0x0\n", i, ~i);
        break;
    }
    CALLS_PUT("end\n");
#undef CALLS_PUT
    return t;
}

const char *const pbc_bench_calls_rows[PBC_BENCH_CALLS_ROWS] = {
    "a 2 MiB transfer there and back through minimum-size paging buffers",
    "2,047 fills of 4 KiB, each discarded, minimum-size paging buffers (the 4,096-operation limit)",
    "1,000 single-page va-maps, each unmapped",
    "2,000 ALLOCATION_BUSY retries (render work before every transfer)",
};

int pbc_bench_calls_scenario(int which, pbc_scenario *s, char *err, size_t err_size)
{
    char *text = pbc_bench_calls_text(which);
    int rc = pbc_scenario_parse(text, strlen(text), "bench-p", s, err, err_size);
    free(text);
    return rc;
}

/* One call-heavy input run in this process (reference as target, no
 * determinism re-run) until `seconds` of CPU time pass: microseconds of
 * a differential exec per DDI call of the target, and the calls of one
 * exec; -1 when it does not pass. */
static double calls_us_per_call(int which, double seconds, uint32_t *calls)
{
    pbc_scenario s;
    char err[512];
    if (pbc_bench_calls_scenario(which, &s, err, sizeof(err))) {
        fprintf(stderr, "pbcheck: bench (p): %s\n", err);
        return -1;
    }
    pbc_runner r;
    pbc_runner_init(&r);
    pbc_run_options o = {0};
    const pbc_target *t = pbc_target_find("reference");
    uint64_t total = 0;
    int ok = 1;
    double start = cpu_now(), elapsed;
    do {
        pbc_outcome out;
        pbc_runner_run(&r, &s, t, &o, &out);
        ok &= out.verdict == PBC_VERDICT_PASS;
        *calls = r.target.res.calls + 2 * r.target.res.sub_count; /* each submission: Patch, SubmitCommand */
        total += *calls;
    } while (ok && (elapsed = cpu_now() - start) < seconds);
    pbc_runner_fini(&r);
    pbc_scenario_fini(&s);
    return ok && total ? elapsed * 1e6 / (double)total : -1;
}

static double children_cpu(void);
static void remove_scratch(const char *dir);
static void crossing_section(FILE *o);

/* `pbcheck replay` of every input in `dir` (in workers, or --no-fork) as a
 * child: the inputs it judged, per CPU second of it and its workers and
 * per second of its wall time, and the DDI calls of an input on average
 * (BuildPagingBuffer calls and two per submission, from its pass lines);
 * 0 when it judged none. */
static uint32_t replay_rate_as(const char *dir, const char *target, char *const env[], int no_fork,
                               double *per_cpu, double *per_wall, double *calls);

static uint32_t replay_rate(const char *dir, int no_fork, double *per_cpu, double *per_wall, double *calls)
{
    return replay_rate_as(dir, NULL, NULL, no_fork, per_cpu, per_wall, calls);
}

/* replay_rate with --target `target` (NULL: the default) and extra
 * environment `env`. */
static uint32_t replay_rate_as(const char *dir, const char *target, char *const env[], int no_fork,
                               double *per_cpu, double *per_wall, double *calls)
{
    *per_cpu = *per_wall = *calls = 0;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    char **argv = NULL;
    uint32_t n = 0, cap = 0;
    char *head[] = {SELF_EXE, "replay"};
    for (int k = 0; k < 2; k++)
        PBC_PUSH(argv, n, cap, pbc_xstrdup(head[k]));
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char path[PATH_MAX];
        snprintf(path, sizeof(path), "%.2000s/%.1000s", dir, e->d_name);
        PBC_PUSH(argv, n, cap, pbc_xstrdup(path));
    }
    closedir(d);
    if (no_fork)
        PBC_PUSH(argv, n, cap, pbc_xstrdup("--no-fork"));
    if (target) {
        PBC_PUSH(argv, n, cap, pbc_xstrdup("--target"));
        PBC_PUSH(argv, n, cap, pbc_xstrdup(target));
    }
    PBC_PUSH(argv, n, cap, NULL);
    char scratch[] = "/tmp/pbcheck-bench-replay.XXXXXX", log[PATH_MAX];
    double before = children_cpu(), wall = 0;
    unsigned judged = 0;
    uint64_t total = 0;
    if (n > 3 && mkdtemp(scratch)) {
        snprintf(log, sizeof(log), "%s/log", scratch);
        run_child(argv, log, &wall, env, 1800); /* an input over the limits is not read: exit 2, the rest count */
        FILE *f = fopen(log, "r");
        char line[4096];
        unsigned passed, failed, skipped, c, sub;
        while (f && fgets(line, sizeof(line), f)) {
            const char *at = strstr(line, " ops, ");
            if (!strncmp(line, "pass ", 5) && at && sscanf(at, " ops, %u calls, %*u buffers, %u submissions", &c, &sub) == 2)
                total += c + 2ull * sub;
            if (sscanf(line, "replay: %u passed, %u failed, %u skipped", &passed, &failed, &skipped) == 3)
                judged = passed + failed + skipped;
        }
        if (f)
            fclose(f);
        remove_scratch(scratch);
    }
    double cpu = children_cpu() - before;
    for (uint32_t i = 0; i + 1 < n; i++)
        free(argv[i]);
    free(argv);
    if (!judged || cpu <= 0 || wall <= 0)
        return 0;
    *per_cpu = judged / cpu;
    *per_wall = judged / wall;
    *calls = (double)total / judged;
    return judged;
}

void pbc_bench_calls(FILE *o, double seconds, const char *calls_corpus)
{
    fprintf(o, "### (p) Cost per DDI call\n\n");
    fprintf(o, "Call-heavy inputs run in this process (reference as target, no determinism re-run), each for "
               "%.0f s of CPU time: a whole differential exec's CPU time divided by the target's "
               "BuildPagingBuffer, Patch and SubmitCommand calls. Goal: <= 1 us per call in process.\n\n",
            seconds);
    fprintf(o, "| input | calls per exec | us per call | goal |\n|---|---|---|---|\n");
    for (int i = 0; i < PBC_BENCH_CALLS_ROWS; i++) {
        fprintf(stderr, "bench: (p) %s...\n", pbc_bench_calls_rows[i]);
        uint32_t calls = 0;
        double us = calls_us_per_call(i, seconds, &calls);
        if (us < 0)
            fprintf(o, "| %s | - | failed | <= 1 |\n", pbc_bench_calls_rows[i]);
        else
            fprintf(o, "| %s | %u | %.2f | <= 1 |\n", pbc_bench_calls_rows[i], calls, us);
    }
    fprintf(o, "\n### (q) Replay of the call-heavy corpus\n\n");
    fprintf(o, "`pbcheck replay` of every input of %s (scripts/make-bench-corpus --calls), as it judges them "
               "(the determinism re-run included), in confined workers and with --no-fork: inputs per CPU "
               "second of replay and its workers, and per second of wall time. Goal: >= 2,000 inputs a "
               "second on one core, in workers.\n\n", calls_corpus);
    fprintf(o, "| mode | inputs judged | DDI calls an input | per CPU second | per wall second | us per DDI call "
               "(CPU) | goal |\n|---|---|---|---|---|---|---|\n");
    for (int no_fork = 0; no_fork < 2; no_fork++) {
        fprintf(stderr, "bench: (q) replay of %s%s...\n", calls_corpus, no_fork ? " --no-fork" : "");
        double cpu, wall, calls;
        uint32_t n = replay_rate(calls_corpus, no_fork, &cpu, &wall, &calls);
        const char *mode = no_fork ? "--no-fork" : "workers", *goal = no_fork ? "-" : ">= 2000 inputs/s";
        if (!n)
            fprintf(o, "| %s | - | - | failed | - | - | %s |\n", mode, goal);
        else
            fprintf(o, "| %s | %u | %.0f | %.1f | %.1f | %.2f | %s |\n", mode, n, calls, cpu, wall,
                    calls > 0 ? 1e6 / (cpu * calls) : 0, goal);
    }
    fprintf(o, "\n");
    crossing_section(o);
}

/* ---- (x) One process crossing ---- */

/* What a DDI call costs when the driver runs in a process of its own
 * (issue: the judge on the other side of the DDI): a request and its
 * answer between two processes, by pipe, and through a shared page with
 * a futex to wake the other side (spinning a little first). Measured
 * with a child that echoes; per round trip. */
typedef struct xring {
    _Atomic uint32_t seq, ack; /* the request's number, the answer's */
    _Atomic uint32_t seq_sleeps, ack_sleeps; /* with yields: its waiter sleeps on the futex */
} xring;

static void futex_wait(_Atomic uint32_t *at, uint32_t old)
{
    syscall(SYS_futex, at, FUTEX_WAIT, old, NULL, NULL, 0);
}

static void futex_wake(_Atomic uint32_t *at) { syscall(SYS_futex, at, FUTEX_WAKE, 1, NULL, NULL, 0); }

/* Waits until *at differs from old: `spins` looks first, then the futex. */
static void xring_await(_Atomic uint32_t *at, uint32_t old, uint32_t spins)
{
    for (uint32_t i = 0; i < spins; i++)
        if (atomic_load_explicit(at, memory_order_acquire) != old)
            return;
    while (atomic_load_explicit(at, memory_order_acquire) == old)
        futex_wait(at, old);
}

/* As the split's channel waits on one CPU (ddi/link.c, chan_wait): a few
 * yields, then the futex with its sleeping flag up. */
static void xring_await_yielding(_Atomic uint32_t *at, _Atomic uint32_t *sleeps, uint32_t old)
{
    for (int i = 0; i < 16 && atomic_load(at) == old; i++)
        sched_yield();
    while (atomic_load(at) == old) {
        atomic_store(sleeps, 1);
        if (atomic_load(at) == old)
            futex_wait(at, old);
    }
    atomic_store(sleeps, 0);
}

/* Publishes v at *at, and wakes its waiter only when it sleeps. */
static void xring_post(_Atomic uint32_t *at, _Atomic uint32_t *sleeps, uint32_t v)
{
    atomic_store(at, v);
    if (atomic_load(sleeps))
        futex_wake(at);
}

/* Microseconds of CPU this process and its waited-for children used. */
static double cpu_us_all(void)
{
    struct rusage self, kids;
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &kids);
    return (double)(self.ru_utime.tv_sec + self.ru_stime.tv_sec + kids.ru_utime.tv_sec + kids.ru_stime.tv_sec) *
               1e6 +
           (double)(self.ru_utime.tv_usec + self.ru_stime.tv_usec + kids.ru_utime.tv_usec + kids.ru_stime.tv_usec);
}

/* A round trip's wall time in microseconds (its CPU time, both sides,
 * in *cpu); with `one_cpu`, both processes on the CPU this one is on.
 * ring 2: the shared page with yields before the futex. */
static double crossing_us(int ring, uint32_t spins, uint32_t trips, int one_cpu, double *cpu)
{
    int to[2], from[2];
    cpu_set_t before;
    int pinned = 0;
    if (one_cpu && sched_getaffinity(0, sizeof(before), &before) == 0 && sched_getcpu() >= 0) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(sched_getcpu(), &one);
        pinned = sched_setaffinity(0, sizeof(one), &one) == 0;
    }
    double cpu_start = cpu_us_all();
    xring *x = mmap(NULL, sizeof(*x), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (x == MAP_FAILED || pipe(to) || pipe(from))
        return -1;
    atomic_store(&x->seq, 0);
    atomic_store(&x->ack, 0);
    atomic_store(&x->seq_sleeps, 0);
    atomic_store(&x->ack_sleeps, 0);
    pid_t pid = fork();
    if (pid == 0) {
        char b;
        for (uint32_t i = 1; i <= trips; i++) {
            if (ring == 2) {
                xring_await_yielding(&x->seq, &x->seq_sleeps, i - 1);
                xring_post(&x->ack, &x->ack_sleeps, i);
            } else if (ring) {
                xring_await(&x->seq, i - 1, spins);
                atomic_store_explicit(&x->ack, i, memory_order_release);
                futex_wake(&x->ack);
            } else if (read(to[0], &b, 1) != 1 || write(from[1], &b, 1) != 1) {
                _exit(1);
            }
        }
        _exit(0);
    }
    double start = wall_now();
    char b = 0;
    for (uint32_t i = 1; pid > 0 && i <= trips; i++) {
        if (ring == 2) {
            xring_post(&x->seq, &x->seq_sleeps, i);
            xring_await_yielding(&x->ack, &x->ack_sleeps, i - 1);
        } else if (ring) {
            atomic_store_explicit(&x->seq, i, memory_order_release);
            futex_wake(&x->seq);
            xring_await(&x->ack, i - 1, spins);
        } else if (write(to[1], &b, 1) != 1 || read(from[0], &b, 1) != 1) {
            break;
        }
    }
    double us = (wall_now() - start) * 1e6 / trips;
    int st = 0;
    if (pid > 0)
        waitpid(pid, &st, 0);
    *cpu = (cpu_us_all() - cpu_start) / trips;
    if (pinned)
        sched_setaffinity(0, sizeof(before), &before);
    close(to[0]), close(to[1]), close(from[0]), close(from[1]);
    munmap(x, sizeof(*x));
    return pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? us : -1;
}

static void crossing_section(FILE *o)
{
    static const struct {
        const char *what;
        int ring;
        uint32_t spins;
        int one_cpu;
    } rows[] = {
        {"a pipe each way", 0, 0, 0},
        {"a shared page, a futex each way", 1, 0, 0},
        {"a shared page, a futex each way, both on one CPU (ddi_pin)", 1, 0, 1},
        {"a shared page, both on one CPU, 16 yields before the futex (the split's chan_wait)", 2, 0, 1},
        {"a shared page, 2,000 looks before the futex", 1, 2000, 0},
    };
    fprintf(o, "### (x) One process crossing\n\n");
    fprintf(o, "A request and its answer between pbcheck and a child that echoes, 20,000 round trips each: what "
               "each DDI call adds when the driver runs in a process of its own. The median of three, in "
               "microseconds of wall time (the two sides must both run: a loaded machine makes them "
               "wait) and of CPU time, both processes'.\n\n| crossing | us per round trip | CPU us per round trip "
               "|\n|---|---|---|\n");
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        fprintf(stderr, "bench: (x) %s...\n", rows[i].what);
        double t[3], c[3];
        for (int k = 0; k < 3; k++)
            t[k] = crossing_us(rows[i].ring, rows[i].spins, 20000, rows[i].one_cpu, &c[k]);
        int failed = t[0] < 0 || t[1] < 0 || t[2] < 0;
        qsort(t, 3, sizeof(t[0]), cmp_double_f);
        qsort(c, 3, sizeof(c[0]), cmp_double_f);
        if (failed)
            fprintf(o, "| %s | failed | failed |\n", rows[i].what);
        else
            fprintf(o, "| %s | %.2f | %.2f |\n", rows[i].what, t[1], c[1]);
    }
    fprintf(o, "\n");
}

/* ---- (b) modeled memory size ---- */

static void memory_ratio(double seconds, double *small, double *big)
{
    mix a = {0}, b = {0};
    mix_generated(&a, 16ull << 20);
    mix_generated(&b, 4ull << 30);
    pbc_runner ra, rb;
    pbc_runner_init(&ra);
    pbc_runner_init(&rb);
    uint32_t ca = 0, cb = 0;
    double sa = 0, sb = 0;
    int slices = (int)(seconds / 0.25) + 1;
    mix_run(&a, &ra, 0.2, &ca);
    mix_run(&b, &rb, 0.2, &cb);
    for (int i = 0; i < slices; i++) { /* alternate, so drift hits both */
        sa += mix_run(&a, &ra, 0.25, &ca);
        sb += mix_run(&b, &rb, 0.25, &cb);
    }
    *small = sa / slices;
    *big = sb / slices;
    pbc_runner_fini(&ra);
    pbc_runner_fini(&rb);
    mix_fini(&a);
    mix_fini(&b);
}

/* (c) for a fuzzing process: fuzz_diff_reference for 20,000 inputs from
 * the seed corpus; libFuzzer's own peak_rss_mb, or -1. */
/* Peak RSS in MiB of fuzz_diff_reference fuzzing from the seeds for up to
 * 1,000,000 inputs or 15 minutes, whichever comes first; *runs: how many
 * it ran. */
static long fuzzer_peak_rss(const char *bin, long *runs)
{
    char exe[PATH_MAX], dir[] = "/tmp/pbcheck-bench-rss.XXXXXX", log[PATH_MAX + 16], seeds[PATH_MAX];
    if (!mkdtemp(dir))
        return -1;
    snprintf(exe, sizeof(exe), "%.4000s/fuzz_diff_reference", bin);
    snprintf(log, sizeof(log), "%s/log", dir);
    snprintf(seeds, sizeof(seeds), "%s/corpus", dir);
    if (pbc_fs_mkdirs(seeds, NULL, 0)) {
        remove_scratch(dir);
        return -1;
    }
    DIR *d = opendir(PBC_SOURCE_DIR "/corpus/seeds");
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len > 4 && !strcmp(e->d_name + len - 4, ".pbs")) {
            char path[PATH_MAX];
            snprintf(path, sizeof(path), "%s/corpus/seeds/%.1000s", PBC_SOURCE_DIR, e->d_name);
            encode_seed(path, seeds);
        }
    }
    if (d)
        closedir(d);
    char a_art[PATH_MAX + 32];
    snprintf(a_art, sizeof(a_art), "-artifact_prefix=%s/", dir);
    char *argv[] = {exe, "-runs=1000000", "-max_total_time=900", "-max_len=4096", "-print_final_stats=1",
                    a_art, seeds, NULL};
    run_child(argv, log, NULL, NULL, 960);
    long rss = -1;
    char line[256];
    FILE *f = fopen(log, "r");
    *runs = 0;
    while (f && fgets(line, sizeof(line), f)) {
        sscanf(line, "stat::peak_rss_mb: %ld", &rss);
        sscanf(line, "stat::number_of_executed_units: %ld", runs);
    }
    if (f)
        fclose(f);
    remove_scratch(dir);
    return rss;
}

/* ---- libFuzzer and AFL++ logs ---- */

/* The number after `key` on the last line of a file that starts with it,
 * or -1: libFuzzer's final statistics ("stat::average_exec_per_sec:"),
 * AFL++'s fuzzer_stats ("execs_done"). */
static double file_value(const char *path, const char *key)
{
    char line[1024];
    double v = -1;
    size_t n = strlen(key);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof(line), f))
        if (!strncmp(line, key, n))
            v = strtod(line + n + strspn(line + n, " \t:"), NULL);
    if (f)
        fclose(f);
    return v;
}

/* Runs the libFuzzer binary `name` of bin from the corpus for `seconds`,
 * with extra flags and environment (NULL-terminated, may be NULL); returns
 * the final statistic `stat`, or -1. The corpus is only read: libFuzzer
 * writes new inputs into the first folder it is given, a scratch one. */
static double libfuzzer_on_corpus(const char *bin, const char *name, const char *corpus, double seconds,
                                  char *const extra[], char *const env[], const char *stat)
{
    char exe[PATH_MAX], dir[] = "/tmp/pbcheck-bench-lf.XXXXXX", log[64], fresh[64];
    char a_time[48], a_dict[PATH_MAX + 16], a_art[64];
    snprintf(exe, sizeof(exe), "%.4000s/%s", bin, name);
    if (access(exe, X_OK) || !mkdtemp(dir))
        return -1;
    snprintf(log, sizeof(log), "%s/log", dir);
    snprintf(fresh, sizeof(fresh), "%s/new", dir);
    if (pbc_fs_mkdirs(fresh, NULL, 0)) {
        remove_scratch(dir);
        return -1;
    }
    snprintf(a_time, sizeof(a_time), "-max_total_time=%.0f", seconds < 1 ? 1 : seconds);
    snprintf(a_dict, sizeof(a_dict), "-dict=%s.dict", exe);
    snprintf(a_art, sizeof(a_art), "-artifact_prefix=%s/", dir);
    char *argv[24] = {exe, a_time, "-max_len=4096", "-timeout=10", "-print_final_stats=1", a_dict, a_art};
    int k = 7;
    for (int i = 0; extra && extra[i] && k < 21; i++)
        argv[k++] = extra[i];
    argv[k++] = fresh;
    argv[k++] = (char *)corpus;
    run_child(argv, log, NULL, env, seconds + 120);
    double v = file_value(log, stat);
    remove_scratch(dir);
    return v;
}

/* Bytes the operations of s move or fill: the size of the allocation of
 * every transfer, special-lock transfer and fill. */
static uint64_t moved_bytes(const pbc_scenario *s)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < s->op_count; i++) {
        uint32_t k = s->ops[i].kind;
        if (k == PBC_SOP_TRANSFER || k == PBC_SOP_SPECIAL_LOCK || k == PBC_SOP_FILL)
            n += s->allocs[s->ops[i].alloc].size;
    }
    return n;
}

/* Where (a')'s time goes: every input of the corpus run once (as the fuzz
 * target runs it), split by whether it moves or fills at least 16 MiB. */
typedef struct corpus_split {
    uint32_t big, all;          /* inputs */
    double big_secs, all_secs;  /* their run time */
} corpus_split;

static corpus_split corpus_breakdown(const char *dir)
{
    corpus_split cs = {0};
    uint32_t over;
    mix m = {0};
    mix_folder(&m, dir, &over);
    pbc_runner r;
    pbc_runner_init(&r);
    uint32_t cursor = 0;
    if (m.count)
        mix_run(&m, &r, 0.3, &cursor); /* warm up */
    const pbc_target *t = pbc_target_find("reference");
    for (uint32_t i = 0; i < m.count; i++) {
        pbc_scenario s;
        pbc_outcome out;
        pbc_scenario_decode(m.in[i], m.len[i], &s);
        pbc_run_options o = pbc_run_options_fuzz(m.in[i], m.len[i]);
        double t0 = wall_now();
        pbc_runner_run(&r, &s, t, &o, &out);
        double dt = wall_now() - t0;
        cs.all++;
        cs.all_secs += dt;
        if (moved_bytes(&s) >= (16ull << 20)) {
            cs.big++;
            cs.big_secs += dt;
        }
        pbc_scenario_fini(&s);
    }
    pbc_runner_fini(&r);
    mix_fini(&m);
    return cs;
}

/* (a') on the corpus: replayed in this build and in the sanitizer build,
 * and fuzz_diff_reference fuzzing from it (libFuzzer's own average, the
 * corpus's inputs first, then their mutations). `name` is how the report
 * names the corpus. */
/* The exec/s of libFuzzer's INITED line in log (every corpus input run
 * once, no mutation yet), or -1. */
static double inited_rate(const char *path)
{
    char line[1024];
    double v = -1;
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof(line), f)) {
        const char *at = strstr(line, "INITED");
        at = at ? strstr(at, "exec/s:") : NULL;
        if (at)
            v = strtod(at + 7, NULL);
    }
    if (f)
        fclose(f);
    return v;
}

/* fuzz_diff_reference running every input of corpus once (-runs=0): the
 * INITED line's exec/s, or -1. */
static double libfuzzer_corpus_once(const char *bin, const char *corpus)
{
    char exe[PATH_MAX], dir[] = "/tmp/pbcheck-bench-lf.XXXXXX", log[64];
    snprintf(exe, sizeof(exe), "%.4000s/fuzz_diff_reference", bin);
    if (access(exe, X_OK) || !mkdtemp(dir))
        return -1;
    snprintf(log, sizeof(log), "%s/log", dir);
    char *argv[] = {exe, "-runs=0", "-max_len=4096", "-timeout=10", (char *)corpus, NULL};
    run_child(argv, log, NULL, NULL, 600);
    double v = inited_rate(log);
    remove_scratch(dir);
    return v;
}

/* (l): where an exec of libFuzzer under ASan+UBSan goes, on corpus/bench:
 * the sanitized model alone, then the instrumented target running every
 * input once, then fuzzing with libFuzzer's levers one at a time. */
void pbc_bench_libfuzzer(FILE *o, const char *self_dir, const char *bin, const char *corpus, double seconds)
{
    static const struct {
        const char *what;
        char *flags[4];
    } rows[] = {
        {"fuzzing, libFuzzer's defaults (as (a'))", {NULL}},
        {"`-entropic=0`: no entropic power schedule", {"-entropic=0", NULL}},
        {"`-use_cmp=0`: comparison tracing not used for mutations", {"-use_cmp=0", NULL}},
        {"`-use_value_profile=1`: value profiles as features", {"-use_value_profile=1", NULL}},
        {"`-reduce_inputs=0`: no corpus reduction", {"-reduce_inputs=0", NULL}},
        {"`-entropic=0 -use_cmp=0 -reduce_inputs=0` together", {"-entropic=0", "-use_cmp=0", "-reduce_inputs=0"}},
    };
    fprintf(o, "### (l) libFuzzer under ASan+UBSan: where an exec goes\n\n");
    char exe[PATH_MAX];
    snprintf(exe, sizeof(exe), "%.4000s/fuzz_diff_reference", bin);
    if (access(exe, X_OK)) {
        fprintf(o, "Not measured: no fuzz_diff_reference in %s (cmake --preset fuzz).\n\n", bin);
        return;
    }
    fprintf(o, "On `corpus/bench`, one process each, %.0f s per fuzzing row. The first rows take libFuzzer's "
               "loop apart: the sanitized model in pbcheck's own loop, then the instrumented target running "
               "every input once with no mutation (its coverage callbacks and libFuzzer's per-input "
               "bookkeeping); the others change one lever of the fuzzing loop at a time.\n\n", seconds);
    fprintf(o, "| run | execs/s | against the defaults |\n|---|---|---|\n");
    char note[PATH_MAX + 128] = "";
    fprintf(stderr, "bench: (l) the sanitized model alone...\n");
    double model = asan_speed(self_dir, seconds, corpus, note, sizeof(note));
    fprintf(stderr, "bench: (l) every input once...\n");
    double once = libfuzzer_corpus_once(bin, corpus);
    double base = -1;
    double v[sizeof(rows) / sizeof(rows[0])];
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        fprintf(stderr, "bench: (l) %s...\n", rows[i].what);
        v[i] = libfuzzer_on_corpus(bin, "fuzz_diff_reference", corpus, seconds, rows[i].flags, NULL,
                                   "stat::average_exec_per_sec:");
        if (i == 0)
            base = v[i];
    }
    if (model > 0)
        fprintf(o, "| the sanitized model in pbcheck's loop (%s) | %.0f | %.2fx |\n", note, model,
                base > 0 ? model / base : 0);
    else
        fprintf(o, "| the sanitized model in pbcheck's loop | %s | - |\n", note);
    if (once > 0)
        fprintf(o, "| fuzz_diff_reference, every input once (`-runs=0`, INITED) | %.0f | %.2fx |\n", once,
                base > 0 ? once / base : 0);
    else
        fprintf(o, "| fuzz_diff_reference, every input once | failed | - |\n");
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        if (v[i] > 0)
            fprintf(o, "| %s | %.0f | %.2fx |\n", rows[i].what, v[i], base > 0 ? v[i] / base : 0);
        else
            fprintf(o, "| %s | failed | - |\n", rows[i].what);
    fprintf(o, "\n");
}

static void corpus_section(FILE *o, const char *self_dir, const char *corpus, const char *name, const char *bin, const char *build,
                           double seconds)
{
    uint32_t count, over;
    fprintf(stderr, "bench: (a') fuzzer-evolved corpus, %s build...\n", build);
    double rel = corpus_speed(corpus, seconds, &count, &over);
    fprintf(o, "### (a') Differential execs/s, fuzzer-evolved corpus, one core\n\n");
    if (!count) {
        fprintf(o, "Not measured: no inputs in %s (scripts/make-bench-corpus makes them).\n\n", name);
        return;
    }
    fprintf(stderr, "bench: (a') under ASan+UBSan...\n");
    char note[PATH_MAX + 128] = "";
    double asan = asan_speed(self_dir, seconds, corpus, note, sizeof(note));
    fprintf(stderr, "bench: (a') in fuzz_diff_reference...\n");
    double lf = libfuzzer_on_corpus(bin, "fuzz_diff_reference", corpus, seconds, NULL, NULL,
                                    "stat::average_exec_per_sec:");
    fprintf(o, "The %u inputs of `%s`", count, name);
    if (over)
        fprintf(o, " that the fuzz target runs (%u more are over the fuzz budget: it only decodes them)", over);
    fprintf(o, ", each decoded and run as the fuzz target runs it; and `fuzz_diff_reference` fuzzing from them "
               "for %.0f s, libFuzzer's own average (every input once, then their mutations).\n\n", seconds);
    fprintf(o, "| build | execs/s | goal |\n|---|---|---|\n");
    fprintf(o, "| this pbcheck (%s) | %.0f | >= 10000 |\n", build, rel);
    if (asan > 0)
        fprintf(o, "| ASan+UBSan (%s) | %.0f | - |\n", note, asan);
    else
        fprintf(o, "| ASan+UBSan | %s | - |\n", note);
    if (lf > 0)
        fprintf(o, "| fuzz_diff_reference (libFuzzer, ASan+UBSan) | %.0f | >= 3000 |\n\n", lf);
    else
        fprintf(o, "| fuzz_diff_reference (libFuzzer, ASan+UBSan) | not measured: none in %s, or it failed | "
                   ">= 3000 |\n\n", bin);
    fprintf(stderr, "bench: (a') where the time goes...\n");
    corpus_split cs = corpus_breakdown(corpus);
    if (cs.all && cs.all_secs > 0 && cs.all > cs.big)
        fprintf(o, "Where the time goes (every input run once, this build): the %u inputs (%.0f%%) whose "
                   "operations move or fill at least 16 MiB take %.0f%% of it; the other %u run at %.0f "
                   "execs/s.\n\n",
                cs.big, 100.0 * cs.big / cs.all, 100.0 * cs.big_secs / cs.all_secs, cs.all - cs.big,
                (cs.all - cs.big) / (cs.all_secs - cs.big_secs));
}

/* ---- (g) Fuzzing as pbcheck fuzz runs it ---- */

typedef struct fuzz_row {
    double execs, secs; /* inputs run, over seconds; execs < 0: not measured */
    uint32_t corpus;    /* inputs in the corpus at the end */
    char stability[32]; /* AFL++ only */
} fuzz_row;

/* Runs `pbcheck fuzz` (this pbcheck) on the reference builder for
 * `seconds` from the seed corpus into out: the engine command line is
 * exactly the one users get. Returns its exit status. */
static int pbcheck_fuzz(const char *engine, const char *bin, uint32_t jobs, double seconds, const char *out)
{
    char self[] = SELF_EXE, a_time[32], a_jobs[16];
    snprintf(a_time, sizeof(a_time), "%.0f", seconds);
    snprintf(a_jobs, sizeof(a_jobs), "%u", jobs);
    char *argv[] = {self,    "fuzz",  "--target", "reference", "--engine", (char *)engine, "--jobs",
                    a_jobs,  "--time", a_time,    "--out",     (char *)out, "--bin-dir", (char *)bin,
                    NULL};
    return run_child(argv, NULL, NULL, NULL, seconds + 300);
}

/* libFuzzer from `pbcheck fuzz`, which runs it in fork mode whatever
 * --jobs is (-fork=N, so that a crash does not end the run): the last
 * progress line, "#RUNS: cov: ... time: Ts"; without fork mode, the final
 * statistics. */
static fuzz_row libfuzzer_row(const char *bin, uint32_t jobs, double seconds)
{
    fuzz_row row = {.execs = -1};
    char dir[] = "/tmp/pbcheck-bench-fuzz.XXXXXX", log[64], corpus[64], line[1024];
    if (!mkdtemp(dir))
        return row;
    snprintf(log, sizeof(log), "%s/fuzz-0.log", dir);
    snprintf(corpus, sizeof(corpus), "%s/corpus", dir);
    if (pbcheck_fuzz("libfuzzer", bin, jobs, seconds, dir) == 0) {
        row.secs = seconds;
        row.execs = file_value(log, "stat::number_of_executed_units:");
        FILE *f = fopen(log, "r");
        while (f && fgets(line, sizeof(line), f)) {
            unsigned long long runs, t;
            const char *at = strstr(line, " time: ");
            if (line[0] == '#' && at && sscanf(line, "#%llu: cov:", &runs) == 1 && sscanf(at, " time: %llus", &t) == 1 &&
                t > 0) {
                row.execs = (double)runs;
                row.secs = (double)t;
            }
        }
        if (f)
            fclose(f);
        row.corpus = pbc_fs_count_entries(corpus);
    }
    remove_scratch(dir);
    return row;
}

/* libFuzzer's -jobs=N -workers=N, the alternative --jobs does not use:
 * independent processes sharing the corpus (-reload), each writing its
 * own fuzz-J.log with its final statistics into the current folder,
 * hence run from the scratch folder. */
static fuzz_row libfuzzer_jobs_row(const char *bin, uint32_t jobs, double seconds)
{
    fuzz_row row = {.execs = -1};
    char dir[] = "/tmp/pbcheck-bench-jobs.XXXXXX", self[] = SELF_EXE, exe[PATH_MAX], corpus[64], log[64];
    char a_jobs[32], a_workers[32], a_time[48], a_dict[PATH_MAX + 16], a_art[64];
    snprintf(exe, sizeof(exe), "%.4000s/fuzz_diff_reference", bin);
    if (access(exe, X_OK) || !mkdtemp(dir))
        return row;
    snprintf(corpus, sizeof(corpus), "%s/corpus", dir);
    snprintf(log, sizeof(log), "%s/jobs.log", dir);
    char *prepare[] = {self, "fuzz", "--target", "reference", "--prepare", "--out", dir, NULL};
    snprintf(a_jobs, sizeof(a_jobs), "-jobs=%u", jobs);
    snprintf(a_workers, sizeof(a_workers), "-workers=%u", jobs);
    snprintf(a_time, sizeof(a_time), "-max_total_time=%.0f", seconds);
    snprintf(a_dict, sizeof(a_dict), "-dict=%s.dict", exe);
    snprintf(a_art, sizeof(a_art), "-artifact_prefix=%s/", dir);
    char *argv[] = {exe,        a_jobs, a_workers, a_time, "-max_len=4096", "-timeout=10", "-print_final_stats=1",
                    a_dict, a_art,  corpus,    NULL};
    int here = open(".", O_RDONLY | O_DIRECTORY);
    if (run_child(prepare, NULL, NULL, NULL, 120) == 0 && here >= 0 && chdir(dir) == 0) {
        int rc = run_child(argv, log, NULL, NULL, seconds + 300);
        if (fchdir(here))
            fprintf(stderr, "pbcheck: bench: cannot return to the working folder\n");
        row.secs = seconds;
        for (uint32_t j = 0; rc == 0 && j < jobs; j++) {
            char job_log[64];
            snprintf(job_log, sizeof(job_log), "%s/fuzz-%u.log", dir, j);
            double v = file_value(job_log, "stat::number_of_executed_units:");
            row.execs = v < 0 ? -1 : (row.execs < 0 ? 0 : row.execs) + v;
            if (v < 0)
                break;
        }
        row.corpus = pbc_fs_count_entries(corpus);
    }
    if (here >= 0)
        close(here);
    remove_scratch(dir);
    return row;
}

/* AFL++ from `pbcheck fuzz --engine afl --jobs N`: rows[0] is -M main,
 * rows[1..N-1] the -S secondaries, each from its fuzzer_stats. Returns 0,
 * or -1 with why in note. */
static int afl_rows(const char *afl_bin, uint32_t jobs, double seconds, fuzz_row *rows, char *note, size_t n)
{
    char exe[PATH_MAX], dir[] = "/tmp/pbcheck-bench-afl.XXXXXX";
    snprintf(exe, sizeof(exe), "%.4000s/fuzz_diff_reference", afl_bin);
    if (access(exe, X_OK)) {
        snprintf(note, n, "not measured: no AFL++ build in %.3000s (cmake --preset afl && cmake --build --preset afl)",
                 afl_bin);
        return -1;
    }
    if (!mkdtemp(dir))
        return -1;
    int rc = pbcheck_fuzz("afl", afl_bin, jobs, seconds, dir);
    for (uint32_t j = 0; j < jobs; j++) {
        char stats[128], queue[128], name[32];
        snprintf(name, sizeof(name), j ? "secondary%u" : "main", j);
        snprintf(stats, sizeof(stats), "%s/afl/%s/fuzzer_stats", dir, name);
        snprintf(queue, sizeof(queue), "%s/afl/%s/queue", dir, name);
        rows[j] = (fuzz_row){.execs = file_value(stats, "execs_done"), .secs = seconds, .corpus = pbc_fs_count_entries(queue)};
        double st = file_value(stats, "stability");
        snprintf(rows[j].stability, sizeof(rows[j].stability), st < 0 ? "-" : "%.2f%%", st);
    }
    remove_scratch(dir);
    if (rc != 0 || rows[0].execs < 0) {
        snprintf(note, n, "afl-fuzz failed (pbcheck fuzz --engine afl exited %d); run it by hand to see why", rc);
        return -1;
    }
    return 0;
}

static void fuzz_row_print(FILE *o, const char *what, uint32_t procs, const fuzz_row *r)
{
    if (r->execs < 0) {
        fprintf(o, "| %s | %u | failed | - | - | - |\n", what, procs);
        return;
    }
    fprintf(o, "| %s | %u | %.0f | %.0f | %u | %s |\n", what, procs, r->execs, r->execs / r->secs, r->corpus,
            r->stability[0] ? r->stability : "-");
}

static void fuzzing_speed(FILE *o, const char *bin, const char *afl_bin, double seconds)
{
    fprintf(o, "### (g) Fuzzing from the seed corpus, %.0f s each\n\n", seconds);
    fprintf(o, "The reference builder's differential target (ASan+UBSan) from `corpus/seeds`, run by `pbcheck fuzz` "
               "(the engine command line users get); inputs run over the seconds they took, and the corpus at the "
               "end. `--jobs 2` is libFuzzer's `-fork=2`; `-jobs=2 -workers=2` (two processes sharing the corpus) "
               "is the alternative it was measured against (docs/fuzzing.md).\n\n");
    fprintf(o, "| engine | processes | inputs run | execs/s | corpus | stability |\n|---|---|---|---|---|---|\n");
    fprintf(stderr, "bench: (g) libFuzzer, one process...\n");
    fuzz_row one = libfuzzer_row(bin, 1, seconds);
    fuzz_row_print(o, "libFuzzer, one process", 1, &one);
    fflush(o);
    fprintf(stderr, "bench: (g) libFuzzer, --jobs 2...\n");
    fuzz_row fork = libfuzzer_row(bin, 2, seconds);
    fuzz_row_print(o, "libFuzzer, `pbcheck fuzz --jobs 2` (-fork=2)", 2, &fork);
    fflush(o);
    fprintf(stderr, "bench: (g) libFuzzer, -jobs=2 -workers=2...\n");
    fuzz_row jobs = libfuzzer_jobs_row(bin, 2, seconds);
    fuzz_row_print(o, "libFuzzer, -jobs=2 -workers=2", 2, &jobs);
    fflush(o);
    fprintf(stderr, "bench: (g) AFL++, -M and -S...\n");
    fuzz_row afl[2] = {{0}};
    char note[PATH_MAX + 128] = "";
    if (afl_rows(afl_bin, 2, seconds, afl, note, sizeof(note)) == 0) {
        double total = afl[0].execs + (afl[1].execs > 0 ? afl[1].execs : 0);
        fuzz_row_print(o, "AFL++, `pbcheck fuzz --engine afl --jobs 2`: -M main", 1, &afl[0]);
        fuzz_row_print(o, "AFL++: -S secondary1", 1, &afl[1]);
        fprintf(o, "| AFL++, both | 2 | %.0f | %.0f | - | - |\n", total, total / seconds);
    } else {
        fprintf(o, "| AFL++ -M/-S | 2 | %s | - | - | - |\n", note);
    }
    if (fork.execs > 0 && jobs.execs > 0)
        fprintf(o, "\n`--jobs 2` (-fork=2) against -jobs=2: **%.2fx** the execs/s (`pbcheck fuzz --jobs` uses "
                   "-fork while this stays above 1).\n",
                (fork.execs / fork.secs) / (jobs.execs / jobs.secs));
    fprintf(o, "\n");
}

/* ---- (h) The cost of one mutation ---- */

/* fuzz_mutator_cost is a target that does nothing, so an exec is
 * libFuzzer's loop and one mutation; -keep_seed=1 keeps the whole corpus
 * although no input adds coverage. With the structure-aware mutator and
 * with libFuzzer's own mutations (PBC_MUTATOR=bytes and -cross_over=0, as
 * (d)'s "bytes only"), same corpus, flags and seed, in the order own,
 * ours, ours, own: a machine getting busier or quieter meanwhile weighs
 * on both alike. */
static void mutation_cost(FILE *o, const char *bin, const char *corpus, double seconds)
{
    char *flags[2][4] = {{"-keep_seed=1", "-seed=1", "-cross_over=0", NULL}, {"-keep_seed=1", "-seed=1", NULL}};
    char *env[2][2] = {{"PBC_MUTATOR=bytes", NULL}, {"PBC_MUTATOR=ops", NULL}};
    double speed[2] = {0, 0};
    int failed = 0;
    fprintf(stderr, "bench: (h) cost of one mutation...\n");
    for (int round = 0; round < 4; round++) {
        int ours = round == 1 || round == 2;
        double v = libfuzzer_on_corpus(bin, "fuzz_mutator_cost", corpus, seconds, flags[ours], env[ours],
                                       "stat::average_exec_per_sec:");
        failed |= v <= 0;
        speed[ours] += v / 2;
    }
    fprintf(o, "### (h) Cost of one mutation\n\n");
    fprintf(o, "`fuzz_mutator_cost` (a target that does nothing: an exec is libFuzzer's loop and one mutation) on "
               "the corpus of (a'), same flags and seed; the mean of two runs of %.0f s each, in the order own, "
               "structure-aware, structure-aware, own.\n\n", seconds);
    if (failed) {
        fprintf(o, "Not measured: no fuzz_mutator_cost in %s, or it failed.\n\n", bin);
        return;
    }
    fprintf(o, "| mutations | execs/s | per input |\n|---|---|---|\n");
    fprintf(o, "| libFuzzer's own (PBC_MUTATOR=bytes, -cross_over=0) | %.0f | %.2f us |\n", speed[0], 1e6 / speed[0]);
    fprintf(o, "| structure-aware (fuzz/mutate.c) | %.0f | %.2f us |\n\n", speed[1], 1e6 / speed[1]);
    fprintf(o, "Structure-aware / libFuzzer's own, per input: **%.2fx** (goal <= 2).\n\n", speed[0] / speed[1]);
}

/* ---- (d) time to find ---- */

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* One libFuzzer run from an empty corpus; seconds until the crash, or a
 * negative number when it hit the cap. */
static double find_once(const char *bin, const char *mutant, uint32_t seed, int bytes_only,
                        double cap)
{
    char exe[PATH_MAX], corpus[] = "/tmp/pbcheck-bench-corpus.XXXXXX", art[PATH_MAX + 32];
    char a_seed[32], a_time[48], a_art[PATH_MAX + 64], a_dict[PATH_MAX + 16];
    snprintf(exe, sizeof(exe), "%.3000s/fuzz_diff_%s", bin, mutant);
    for (char *p = exe + strlen(bin); *p; p++)
        *p = *p == '-' ? '_' : *p;
    if (!mkdtemp(corpus))
        return -1;
    snprintf(art, sizeof(art), "%s/crash-", corpus);
    snprintf(a_seed, sizeof(a_seed), "-seed=%u", seed);
    snprintf(a_time, sizeof(a_time), "-max_total_time=%.0f", cap);
    snprintf(a_art, sizeof(a_art), "-artifact_prefix=%s", art);
    snprintf(a_dict, sizeof(a_dict), "-dict=%s.dict", exe);
    char *argv[] = {exe, a_seed, a_time, a_art, a_dict, "-max_len=4096", "-timeout=10",
                    bytes_only ? "-cross_over=0" : "-cross_over=1", corpus, NULL};
    char *env[] = {bytes_only ? "PBC_MUTATOR=bytes" : "PBC_MUTATOR=ops", NULL};
    double secs = 0;
    /* libFuzzer stops itself at the cap; the margin only catches a hang. */
    int rc = run_child(argv, NULL, &secs, env, cap + 60);
    remove_scratch(corpus);
    return rc == 0 ? -1 : secs; /* libFuzzer exits non-zero on a crash */
}

typedef struct find_row {
    const char *mutant;
    double with[9], without[9];
} find_row;

static void fmt_median(double *v, uint32_t n, double cap, char *out, size_t len)
{
    uint32_t capped = 0;
    for (uint32_t i = 0; i < n; i++)
        if (v[i] < 0) {
            v[i] = cap;
            capped++;
        }
    qsort(v, n, sizeof(*v), cmp_double);
    double med = v[n / 2];
    if (capped > n / 2)
        snprintf(out, len, "> %.0f s (%u/%u capped)", cap, capped, n);
    else
        snprintf(out, len, "%.1f s%s", med, capped ? " (some capped)" : "");
}

/* ---- (e) long runs ---- */

static void long_run(FILE *o, const char *bin, const char *name)
{
    char exe[PATH_MAX], log[] = "/tmp/pbcheck-bench-long.XXXXXX";
    snprintf(exe, sizeof(exe), "%.4000s/%s", bin, name);
    int fd = mkstemp(log);
    if (fd < 0)
        return;
    close(fd);
    char a_dict[PATH_MAX + 16];
    snprintf(a_dict, sizeof(a_dict), "-dict=%s.dict", exe);
    char *argv[] = {exe, "-runs=1000000", "-max_len=4096", "-timeout=10", a_dict, NULL};
    char *env[] = {"ASAN_OPTIONS=detect_leaks=1", NULL};
    double secs = 0;
    int rc = run_child(argv, log, &secs, env, 3600);
    char line[512], done[256] = "";
    FILE *f = fopen(log, "r");
    while (f && fgets(line, sizeof(line), f))
        if (strstr(line, "Done ") == line)
            snprintf(done, sizeof(done), "%.*s", (int)strcspn(line, "\n"), line);
    if (f)
        fclose(f);
    unlink(log);
    fprintf(o, "| %s | %s | %.0f s | %s |\n", name, rc == 0 ? "no crash, leak or hang" : "FAILED",
            secs, done[0] ? done : "(no summary)");
}

/* ---- The report ---- */

static void machine(FILE *o)
{
    char line[512], model[256] = "unknown CPU";
    FILE *f = fopen("/proc/cpuinfo", "r");
    while (f && fgets(line, sizeof(line), f))
        if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
            snprintf(model, sizeof(model), "%s", strchr(line, ':') + 2);
            model[strcspn(model, "\n")] = 0;
            break;
        }
    if (f)
        fclose(f);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    long long mem = (long long)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE) >> 30;
    char date[32];
    time_t t = time(NULL);
    strftime(date, sizeof(date), "%Y-%m-%d", gmtime(&t));
    fprintf(o, "Measured %s on %s, %ld cores, %lld GiB RAM.\n\n", date, model, cores, mem);
}

int pbc_bench_write_results(const char *path, const char *report, char *err, size_t err_size)
{
    char *old = NULL;
    size_t len = 0, keep = 0;
    if (pbc_fs_read(path, 16u << 20, &old, &len, NULL, 0) == 0) {
        char *at = strstr(old, "\n## Results");
        keep = at ? (size_t)(at - old) + 1 : len;
    }
    char *doc = pbc_xprintf("%.*s%s", (int)keep, old ? old : "", report);
    int rc = pbc_fs_write_atomic(path, doc, strlen(doc), err, err_size);
    free(doc);
    free(old);
    return rc ? -1 : 0;
}

static int wanted(const char *list, const char *name)
{
    if (!list)
        return 1;
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)); p += n)
        if ((p == list || p[-1] == ',') && (p[n] == 0 || p[n] == ','))
            return 1;
    return 0;
}

/* (t) Triage of 1,000 inputs as a campaign leaves them: the fuzzer-evolved
 * corpus, cycled (duplicates included) to 1,000 files named like
 * libFuzzer's artifacts, triaged against a planted bug with --jobs 2, as
 * 'pbcheck triage' runs it. */
static void triage_speed(FILE *o, const char *corpus)
{
    char dir[] = "/tmp/pbcheck-bench-triage.XXXXXX", self[] = SELF_EXE, in[PATH_MAX + 8],
         out[PATH_MAX + 8], log[PATH_MAX + 8], err[256];
    if (!mkdtemp(dir))
        return;
    snprintf(in, sizeof(in), "%s/in", dir);
    snprintf(out, sizeof(out), "%s/out", dir);
    snprintf(log, sizeof(log), "%s/log", dir);
    pbc_fs_mkdirs(in, NULL, 0);
    struct dirent **names;
    int n = scandir(corpus, &names, NULL, alphasort);
    uint32_t made = 0;
    for (int pass = 0; n > 0 && made < 1000 && pass < 1000; pass++)
        for (int i = 0; i < n && made < 1000; i++) {
            if (names[i]->d_name[0] == '.')
                continue;
            char src[PATH_MAX + 256], dst[PATH_MAX + 64], *data;
            size_t size;
            snprintf(src, sizeof(src), "%s/%s", corpus, names[i]->d_name);
            snprintf(dst, sizeof(dst), "%s/crash-%04u", in, made);
            if (pbc_fs_read(src, 1u << 20, &data, &size, err, sizeof(err)))
                continue;
            if (!pbc_fs_write_atomic(dst, data, size, err, sizeof(err)))
                made++;
            free(data);
        }
    for (int i = 0; i < n; i++)
        free(names[i]);
    if (n > 0)
        free(names);
    char *const argv[] = {self, "triage", in, "--target", "mutant-trunc32", "--jobs", "2", "--out", out, NULL};
    double secs = 0;
    int rc = made ? run_child(argv, log, &secs, NULL, 1800) : -1;
    char path[PATH_MAX + 32];
    snprintf(path, sizeof(path), "%s/triage.json", out);
    json_error_t jerr;
    json_t *root = (rc == 0 || rc == 1) ? json_load_file(path, 0, &jerr) : NULL;
    fprintf(o, "### (t) Triage of 1,000 inputs\n\n");
    fprintf(o, "`pbcheck triage --jobs 2 --target mutant-trunc32` on %u files made from the corpus of (a') (every "
               "input, then again as duplicates), three replays each in isolated workers, then minimization of "
               "every failing bucket.\n\n", made);
    fprintf(o, "| inputs | distinct | buckets | time | goal |\n|---|---|---|---|---|\n");
    if (root) {
        size_t distinct = 0, k;
        json_t *x;
        json_array_foreach(json_object_get(root, "inputs"), k, x) distinct += !json_object_get(x, "duplicate_of");
        fprintf(o, "| %u | %zu | %zu | %.1f s | <= 300 s |\n\n", made, distinct,
                json_array_size(json_object_get(root, "buckets")), secs);
    } else {
        fprintf(o, "| %u | - | - | failed (exit %d; log %s) | <= 300 s |\n\n", made, rc, log);
    }
    json_decref(root);
    if (root)
        remove_scratch(dir);
}

/* CPU seconds (user and system) of every child reaped so far. */
static double children_cpu(void)
{
    struct rusage u;
    getrusage(RUSAGE_CHILDREN, &u);
    return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec / 1e6 + (double)u.ru_stime.tv_sec +
           (double)u.ru_stime.tv_usec / 1e6;
}

/* One `certify --target reference` (isolated, or --no-fork): its cases,
 * and in *cpu the CPU seconds it and its workers took (workers are
 * reaped by certify, so they count), 0 when it did not run. CPU time, not
 * wall time: another job on the machine does not move it. */
/* certify --target reference with `extra` arguments (NULL-terminated, at
 * most 6): the cases it judged (0 when it failed), its CPU time with its
 * workers', and with --time the random phase's cases and seconds. */
static uint32_t certify_target(const char *target, char *const *env, char *const *extra, double *cpu,
                               uint32_t *random_cases, double *random_seconds);

static uint32_t certify_with(char *const *extra, double *cpu, uint32_t *random_cases, double *random_seconds)
{
    return certify_target("reference", NULL, extra, cpu, random_cases, random_seconds);
}

/* certify_with for any target (a name or a library's path), with extra
 * environment `env` (NULL-terminated, or NULL). */
static uint32_t certify_target(const char *target, char *const *env, char *const *extra, double *cpu,
                               uint32_t *random_cases, double *random_seconds)
{
    char dir[] = "/tmp/pbcheck-bench-certify.XXXXXX", self[] = SELF_EXE, out[PATH_MAX + 8],
         log[PATH_MAX + 8];
    if (!mkdtemp(dir))
        return 0;
    snprintf(out, sizeof(out), "%s/out", dir);
    snprintf(log, sizeof(log), "%s/log", dir);
    char *argv[16] = {self, "certify", "--target", (char *)target, "--out", out};
    for (int i = 0; extra[i] && i < 6; i++)
        argv[6 + i] = extra[i];
    double before = children_cpu();
    int rc = run_child(argv, log, NULL, env, 600);
    *cpu = children_cpu() - before;
    unsigned cases = 0, random = 0;
    double seconds, random_s = 0;
    FILE *f = rc == 0 ? fopen(log, "r") : NULL;
    char line[512];
    while (f && fgets(line, sizeof(line), f)) {
        sscanf(line, "certify %*[^:]: %u cases in %lf s", &cases, &seconds);
        sscanf(line, "random phase: %u cases in %lf s", &random, &random_s);
    }
    if (f)
        fclose(f);
    remove_scratch(dir);
    if (random_cases)
        *random_cases = random, *random_seconds = random_s;
    return rc == 0 ? cases : 0;
}

static uint32_t certify_once(int no_fork, double *cpu)
{
    /* The suite alone: plain certify's random phase is (r)'s business. */
    char *const extra[] = {"--no-random", no_fork ? "--no-fork" : NULL, NULL};
    return certify_with(extra, cpu, NULL, NULL);
}

/* (r): certify's random phase in confined workers, the quick suite's CPU
 * taken out (measured alone, before and after). */
static void certify_random_speed(FILE *o, double seconds)
{
    char secs[32];
    snprintf(secs, sizeof(secs), "%.0f", seconds < 1 ? 1 : seconds);
    char *const suite[] = {"--quick", NULL}, *const timed[] = {"--quick", "--time", secs, "--seed", "1", NULL};
    double s1 = 0, s2 = 0, all = 0, wall = 0;
    uint32_t n = 0;
    int ok = certify_with(suite, &s1, NULL, NULL) && certify_with(timed, &all, &n, &wall) &&
             certify_with(suite, &s2, NULL, NULL);
    double cpu = all - (s1 + s2) / 2;
    fprintf(o, "### (r) certify: the random phase\n\n");
    fprintf(o, "`certify --target reference --quick --time %s --seed 1` in confined workers (the fuzzing mix: "
               "docs/fuzzing.md, \"The random phase\"): random cases per CPU second of certify and its workers, "
               "the CPU of the quick suite alone (run before and after) taken out; and per second of the "
               "phase's wall time. Goal: >= 5,000 a core.\n\n", secs);
    fprintf(o, "| random cases | per CPU second | per second (wall) | goal |\n|---|---|---|---|\n");
    if (!ok || !n || cpu <= 0 || wall <= 0)
        fprintf(o, "| - | failed | - | >= 5,000 |\n\n");
    else
        fprintf(o, "| %u | %.0f | %.0f | >= 5,000 |\n\n", n, n / cpu, n / wall);
}

/* (i): what confining each case in a worker costs, against --no-fork. */
static void certify_isolation_cost(FILE *o)
{
    double iso_s = 0, here_s = 0, s;
    uint32_t iso_n = 0, here_n = 0, n;
    for (int round = 0; round < 4; round++) { /* isolated, here, here, isolated: drift cancels */
        int here = round == 1 || round == 2;
        if (!(n = certify_once(here, &s)))
            break;
        *(here ? &here_n : &iso_n) += n;
        *(here ? &here_s : &iso_s) += s;
    }
    fprintf(o, "### (i) certify: cost of isolating cases\n\n");
    fprintf(o, "`certify --target reference --no-random` (the whole suite) in confined worker processes (a fork every 256 "
               "cases, the seccomp filter, the escape check after every case; docs/architecture.md, \"Trust "
               "boundary\") and with `--no-fork` (every case in pbcheck's own process), twice each in the order "
               "isolated, here, here, isolated: cases per CPU second of certify and its workers (user and "
               "system, reports included), which another job on the machine does not move.\n\n");
    fprintf(o, "| mode | cases per CPU second | CPU per case |\n|---|---|---|\n");
    if (!iso_n || !here_n || iso_s <= 0 || here_s <= 0) {
        fprintf(o, "| - | failed | - |\n\n");
        return;
    }
    double iso_rate = iso_n / iso_s, here_rate = here_n / here_s;
    fprintf(o, "| isolated | %.0f | %.1f us |\n| --no-fork | %.0f | %.1f us |\n\n", iso_rate, 1e6 / iso_rate,
            here_rate, 1e6 / here_rate);
    fprintf(o, "Isolation costs %.1f us of CPU a case (%.0f%%).\n\n", 1e6 / iso_rate - 1e6 / here_rate,
            100.0 * (here_rate / iso_rate - 1.0));
}

/* (s)'s cost per DDI call: (p)'s call-heavy inputs, each written
 * SPLIT_CALL_COPIES times, replayed on the reference built as a library
 * in process and split: CPU of replay, its workers and driver processes
 * per DDI call of the two runs of each input (the determinism re-run
 * makes the same calls). */
#define SPLIT_CALL_COPIES 8
static char *const split_env[] = {"PBCHECK_SPLIT=1", NULL}, *const here_env[] = {"PBCHECK_SPLIT=0", NULL};

static void split_per_call(FILE *o, const char *lib)
{
    fprintf(o, "(p)'s call-heavy inputs, %d copies of each replayed (`replay --target` the reference as a library) "
               "in process and split: CPU of replay, its workers and their driver processes per DDI call of "
               "both runs of an input (the determinism re-run makes the same calls).\n\n"
               "| input | DDI calls an input | in process, us per call | split, us per call | split - in process |\n"
               "|---|---|---|---|---|\n", SPLIT_CALL_COPIES);
    for (int i = 0; i < PBC_BENCH_CALLS_ROWS; i++) {
        char dir[] = "/tmp/pbcheck-bench-calls.XXXXXX";
        if (!mkdtemp(dir))
            continue;
        char *text = pbc_bench_calls_text(i);
        for (int k = 0; k < SPLIT_CALL_COPIES; k++) {
            char path[PATH_MAX];
            snprintf(path, sizeof(path), "%s/%d.pbs", dir, k);
            FILE *f = fopen(path, "w");
            if (f) {
                fputs(text, f);
                fclose(f);
            }
        }
        free(text);
        fprintf(stderr, "bench: (s) %s, replayed in process and split...\n", pbc_bench_calls_rows[i]);
        double us[2] = {0, 0}, calls = 0;
        for (int split = 0; split < 2; split++) {
            double cpu, wall;
            uint32_t n = replay_rate_as(dir, lib, split ? split_env : here_env, 0, &cpu, &wall, &calls);
            us[split] = n && cpu > 0 && calls > 0 ? 1e6 / (cpu * calls * 2) : 0;
        }
        remove_scratch(dir);
        if (us[0] > 0 && us[1] > 0)
            fprintf(o, "| %s | %.0f | %.2f | %.2f | %.2f |\n", pbc_bench_calls_rows[i], calls, us[0], us[1],
                    us[1] - us[0]);
        else
            fprintf(o, "| %s | - | failed | failed | - |\n", pbc_bench_calls_rows[i]);
        fflush(o);
    }
    fprintf(o, "\n");
}

/* (s): the judge across the DDI (the default) against the builder
 * in its worker, for the reference built as a library and the three
 * examples. Each worker reaps its driver process before it exits, so the
 * driver's CPU is in certify's children's. */
void pbc_bench_split(FILE *o, const char *self_dir, double seconds)
{
    static const struct {
        const char *name, *path;
    } libs[] = {
        {"reference (as a library)", "tests/libext_reference_1.so"},
        {"example-cpu", "targets/examples/libexample_cpu.so"},
        {"example-gpu", "targets/examples/libexample_gpu.so"},
        {"example-worker", "targets/examples/libexample_worker.so"},
    };
    char secs[32], reference[PATH_MAX] = "";
    snprintf(secs, sizeof(secs), "%.0f", seconds < 1 ? 1 : seconds);
    fprintf(o, "### (s) certify: the judge across the DDI\n\n");
    fprintf(o, "`certify --target LIB --quick --no-random` (the quick suite) in confined workers with the builder in "
               "the worker (in process, `PBCHECK_SPLIT=0`) and split (the default: the builder in a driver process of its own, "
               "docs/architecture.md): cases per CPU second of certify, its workers and their driver processes, "
               "in the order in process, split, split, in process; and the reference's random phase "
               "(`--quick --time %s --seed 1`, the suite's CPU taken out) the same way. Goal: split >= 0.5 of "
               "in process.\n\n", secs);
    fprintf(o, "| builder | cases | in process, per CPU s | split, per CPU s | split / in process | goal |\n"
               "|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < PBC_ARRAY_LEN(libs); i++) {
        char lib[PATH_MAX];
        snprintf(lib, sizeof(lib), "%.3000s/%s", self_dir, libs[i].path);
        if (access(lib, R_OK)) {
            fprintf(o, "| %s | - | not built (%s) | - | - | >= 0.5 |\n", libs[i].name, libs[i].path);
            continue;
        }
        if (!i)
            snprintf(reference, sizeof(reference), "%s", lib);
        fprintf(stderr, "bench: (s) %s in process and split...\n", libs[i].name);
        char *const suite[] = {"--quick", "--no-random", NULL};
        double cpu[2] = {0, 0}, s;
        uint32_t cases[2] = {0, 0}, n;
        int ok = 1;
        for (int round = 0; round < 4 && ok; round++) {
            int split = round == 1 || round == 2;
            n = certify_target(lib, split ? split_env : here_env, suite, &s, NULL, NULL);
            ok = n > 0;
            cases[split] += n;
            cpu[split] += s;
        }
        if (!ok || cpu[0] <= 0 || cpu[1] <= 0) {
            fprintf(o, "| %s | - | failed | failed | - | >= 0.5 |\n", libs[i].name);
            continue;
        }
        double here = cases[0] / cpu[0], split = cases[1] / cpu[1];
        fprintf(o, "| %s | %u | %.0f | %.0f | **%.2f** | >= 0.5 |\n", libs[i].name, cases[0] / 2, here, split,
                split / here);
        fflush(o);
        if (i)
            continue;
        /* The random phase, the reference's only: (r)'s measure, both ways. */
        fprintf(stderr, "bench: (s) the reference's random phase in process and split...\n");
        char *const timed[] = {"--quick", "--time", secs, "--seed", "1", NULL};
        double rate[2] = {0, 0};
        uint32_t random[2] = {0, 0};
        for (int side = 0; side < 2 && ok; side++) {
            double all = 0, wall = 0;
            ok = certify_target(lib, side ? split_env : here_env, timed, &all, &random[side], &wall) > 0;
            double phase = all - cpu[side] / 2; /* the suite's CPU, measured above, out */
            rate[side] = ok && phase > 0 ? random[side] / phase : 0;
        }
        if (rate[0] > 0 && rate[1] > 0)
            fprintf(o, "| %s, random phase | %u / %u | %.0f | %.0f | **%.2f** | >= 0.5 |\n", libs[i].name,
                    random[0], random[1], rate[0], rate[1], rate[1] / rate[0]);
        else
            fprintf(o, "| %s, random phase | - | failed | failed | - | >= 0.5 |\n", libs[i].name);
    }
    fprintf(o, "\n");
    if (*reference) /* libs[0], the reference as a library, is built */
        split_per_call(o, reference);
}

double pbc_bench_execs(const char *corpus, double seconds)
{
    uint32_t count, over;
    return corpus ? corpus_speed(corpus, seconds, &count, &over) : default_mix_speed(seconds, wall_now);
}

char *pbc_bench_report(const pbc_bench_plan *p)
{
    char *report = NULL;
    size_t report_len = 0;
    FILE *o = open_memstream(&report, &report_len);
    fprintf(o, "## Results\n\n");
    machine(o);
#ifdef __OPTIMIZE__
    const char *build = "optimised";
#else
    const char *build = "unoptimised (use the release preset)";
#endif
    fprintf(stderr, "bench: (a) execs/s, %s build...\n", build);
    double rel = default_mix_speed(p->time_s, wall_now);
    double rel_cpu = default_mix_speed(p->time_s, cpu_now);
    fprintf(stderr, "bench: (a) execs/s under ASan+UBSan...\n");
    char note[PATH_MAX + 128] = "";
    double asan = asan_speed(p->self_dir, p->time_s, NULL, note, sizeof(note));
    fprintf(o, "### (a) Differential execs/s, default input mix, one core\n\n");
    fprintf(o, "| build | execs/s | goal |\n|---|---|---|\n");
    fprintf(o, "| this pbcheck (%s) | %.0f | >= 30000 |\n", build, rel);
    fprintf(o, "| this pbcheck (%s), per second of its CPU time (what others' load leaves out) | %.0f | - |\n",
            build, rel_cpu);
    fprintf(stderr, "bench: (a) the determinism re-run's share...\n");
    double sampled, every;
    determinism_share(p->time_s, &sampled, &every);
    if (asan > 0)
        fprintf(o, "| ASan+UBSan (%s) | %.0f | - |\n\n", note, asan);
    else
        fprintf(o, "| ASan+UBSan | %s | - |\n\n", note);
    fprintf(o, "The determinism re-run (PB-NONDET) is **%.0f%%** of an exec as the fuzz targets run it, one input in "
               "%u (goal <= 25%%), and %.0f%% when every input runs twice: execs/s on the same inputs with and "
               "without it, in alternating slices.\n\n", sampled * 100, PBC_FUZZ_RERUN_EVERY, every * 100);
    corpus_section(o, p->self_dir, p->corpus, p->corpus_name, p->bin_dir, build, p->time_s);

    fprintf(stderr, "bench: the regression guard's ratios...\n");
    guard_section(o, p->corpus, p->time_s);

    fprintf(stderr, "bench: (b) 16 MiB vs 4 GiB of video memory...\n");
    double small, big;
    memory_ratio(p->time_s * 2, &small, &big);
    fprintf(o, "### (b) Modeled video memory size\n\n");
    fprintf(o, "| video memory | execs/s |\n|---|---|\n| 2 x 16 MiB | %.0f |\n| 2 x 4 GiB | %.0f |\n\n",
            small, big);
    fprintf(o, "Ratio 4 GiB / 16 MiB: **%.2f** (goal >= 0.9).\n\n", big / small);

    struct rusage ru; /* before (f) and (z), whose 4 GiB are no fuzzing input */
    getrusage(RUSAGE_SELF, &ru);
    fprintf(stderr, "bench: (f) per-page cost...\n");
    per_page_cost(o);
    pbc_bench_calls(o, p->time_s, p->calls_corpus);
    empty_scenarios(o);

    fprintf(o, "### (c) Peak RSS (goal for a fuzzing process: <= 512 MiB after 1,000,000 execs)\n\n| process | peak RSS |\n|---|---|\n");
    fprintf(o, "| this pbcheck, after (a), (a') and (b) (4 GiB segments included) | %ld MiB |\n",
            ru.ru_maxrss / 1024);
    if (!p->skip_find) {
        fprintf(stderr, "bench: (c) peak RSS of a fuzzing process...\n");
        long runs;
        long rss = fuzzer_peak_rss(p->bin_dir, &runs);
        if (rss >= 0)
            fprintf(o, "| fuzz_diff_reference (ASan+UBSan), %ld inputs from the seeds (at most 1,000,000 or 15 "
                       "minutes) | %ld MiB |\n", runs, rss);
        else
            fprintf(o, "| fuzz_diff_reference | not measured (run failed) |\n");
    }
    fprintf(o, "\n");

    mutation_cost(o, p->bin_dir, p->corpus, p->time_s);
    if (!p->skip_find)
        pbc_bench_libfuzzer(o, p->self_dir, p->bin_dir, p->corpus, p->time_s);
    if (!p->skip_find) {
        fprintf(o, "### (d) libFuzzer time to find each planted mutant\n\n");
        fprintf(o, "From an empty corpus; median of %u seeds; each run capped at %.0f s. "
                   "\"Bytes only\" is libFuzzer's own mutations (PBC_MUTATOR=bytes, "
                   "-cross_over=0).\n\n", p->seeds, p->cap_s);
        fprintf(o, "| mutant | structure-aware mutator | bytes only |\n|---|---|---|\n");
        uint32_t n;
        const pbc_target_entry *e = pbc_target_list(&n);
        for (uint32_t i = 0; i < n; i++) {
            if (!e[i].expected_rule || !wanted(p->mutants, e[i].target->name))
                continue;
            find_row row = {e[i].target->name, {0}, {0}};
            for (uint32_t k = 0; k < p->seeds; k++) {
                fprintf(stderr, "bench: (d) %s seed %u...\n", row.mutant, k + 1);
                row.with[k] = find_once(p->bin_dir, row.mutant, k + 1, 0, p->cap_s);
                row.without[k] = find_once(p->bin_dir, row.mutant, k + 1, 1, p->cap_s);
            }
            char w[64], wo[64];
            fmt_median(row.with, p->seeds, p->cap_s, w, sizeof(w));
            fmt_median(row.without, p->seeds, p->cap_s, wo, sizeof(wo));
            fprintf(o, "| %s | %s | %s |\n", row.mutant, w, wo);
            fflush(o);
        }
        fprintf(o, "\n");
    }
    if (!p->skip_long) {
        fprintf(stderr, "bench: (e) 10^6 inputs through the parser and the ISA decoder...\n");
        fprintf(o, "### (e) Parser and ISA decoder, 10^6 inputs each\n\n");
        fprintf(o, "| target | result | time | libFuzzer summary |\n|---|---|---|---|\n");
        long_run(o, p->bin_dir, "fuzz_parse");
        long_run(o, p->bin_dir, "fuzz_isa");
        fprintf(o, "\n");
        fprintf(stderr, "bench: (t) triage of 1,000 inputs...\n");
        triage_speed(o, p->corpus);
    }
    fprintf(stderr, "bench: (i) certify with and without isolation...\n");
    certify_isolation_cost(o);
    fprintf(stderr, "bench: (r) certify's random phase...\n");
    certify_random_speed(o, p->time_s);
    pbc_bench_split(o, p->self_dir, p->time_s);
    if (!p->skip_fuzz)
        fuzzing_speed(o, p->bin_dir, p->afl_bin_dir, p->fuzz_time_s);
    fclose(o);
    return report;
}
