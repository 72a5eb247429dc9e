/*
 * pbcheck fuzz: runs a fuzz target that a fuzz build made (it builds
 * nothing) with the right corpus, dictionary, options and artifact folder,
 * shows progress, and on exit lists what it found with the command that
 * replays each finding. libFuzzer or AFL++; several jobs per machine.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/fs.h"
#include "base/util.h"
#include "cli.h"
#include "coverage.h"
#include "exec/child.h"
#include "exec/target.h"
#include "ref_isa.h"
#include "registry.h"
#include "report/text.h"

typedef struct fuzz_args {
    const char *target, *engine, *out, *bin_dir, *seeds;
    uint32_t jobs;
    uint64_t time_s, runs;
    int no_mutator, prepare, dry_run, stop_at_crash;
    int vendor_binary; /* the library's own, with the builder linked in */
    int coverage;
    char binary[PATH_MAX], dir[PATH_MAX];
} fuzz_args;

/* ---- Files ---- */

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The set of names in a directory before a run, to tell new findings. */
typedef struct name_set {
    char **names;
    uint32_t count, cap;
} name_set;

static void name_set_load(name_set *s, const char *dir)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));)
        if (e->d_name[0] != '.') {
            char *n = pbc_xstrdup(e->d_name);
            PBC_PUSH(s->names, s->count, s->cap, n);
        }
    if (d)
        closedir(d);
}

static int name_set_has(const name_set *s, const char *name)
{
    for (uint32_t i = 0; i < s->count; i++)
        if (!strcmp(s->names[i], name))
            return 1;
    return 0;
}

static void name_set_fini(name_set *s)
{
    for (uint32_t i = 0; i < s->count; i++)
        free(s->names[i]);
    free(s->names);
}

/* ---- Targets and binaries ---- */

static int is_builder(const char *target)
{
    return pbc_target_find(target) != NULL || pbc_exec_target_is_path(target);
}

static void binary_name(const char *target, char *out, size_t n)
{
    if (!strcmp(target, "parse") || !strcmp(target, "isa")) {
        snprintf(out, n, "fuzz_%s", target);
        return;
    }
    if (pbc_exec_target_is_path(target)) { /* a builder library: named to the binary by PBCHECK_TARGET */
        snprintf(out, n, "fuzz_diff_external");
        return;
    }
    snprintf(out, n, "fuzz_diff_%s", target);
    for (char *p = out; *p; p++)
        if (*p == '-')
            *p = '_';
}

/* A builder library DIR/libNAME.so made by pbcheck_add_target has its own
 * fuzz binaries with the builder linked in: DIR/NAME_fuzzer (libFuzzer)
 * and DIR/NAME_afl_fuzz (AFL++), or the same names in --bin-dir. */
static int find_vendor_binary(fuzz_args *a)
{
    if (!pbc_exec_target_is_path(a->target))
        return -1;
    const char *slash = strrchr(a->target, '/');
    const char *base = slash ? slash + 1 : a->target;
    size_t len = strlen(base);
    if (strncmp(base, "lib", 3) || len < 7 || strcmp(base + len - 3, ".so"))
        return -1;
    const char *suffix = !strcmp(a->engine, "afl") ? "_afl_fuzz" : "_fuzzer";
    int dir_len = slash ? (int)(slash - a->target) : 1;
    const char *dir = slash ? a->target : ".";
    for (int i = 0; i < 2; i++) {
        if (i == 0)
            snprintf(a->binary, sizeof(a->binary), "%.*s/%.*s%s", dir_len, dir, (int)(len - 6), base + 3, suffix);
        else if (a->bin_dir)
            snprintf(a->binary, sizeof(a->binary), "%.4000s/%.*s%s", a->bin_dir, (int)(len - 6), base + 3, suffix);
        else
            break;
        if (is_file(a->binary) && access(a->binary, X_OK) == 0) {
            a->vendor_binary = 1;
            return 0;
        }
    }
    return -1;
}

/* Finds the binary: the library's own (above), else --bin-dir, else next
 * to pbcheck, else the engine's preset folder beside pbcheck's build folder. */
static int find_binary(fuzz_args *a)
{
    if (find_vendor_binary(a) == 0)
        return 0;
    char name[128], self[PATH_MAX];
    binary_name(a->target, name, sizeof(name));
    pbc_cli_self_dir(self, sizeof(self));
    const char *preset = !strcmp(a->engine, "afl") ? "afl" : "fuzz";
    char candidates[3][PATH_MAX];
    int n = 0;
    if (a->bin_dir) {
        snprintf(candidates[n++], PATH_MAX, "%s", a->bin_dir);
    } else {
        snprintf(candidates[n++], PATH_MAX, "%.4000s/../%s/fuzz", self, preset);
        if (strcmp(a->engine, "afl")) /* a libFuzzer build of pbcheck has its own */
            snprintf(candidates[n++], PATH_MAX, "%.4000s/fuzz", self);
    }
    for (int i = 0; i < n; i++) {
        snprintf(a->binary, sizeof(a->binary), "%.4000s/%s", candidates[i], name);
        if (is_file(a->binary))
            return 0;
    }
    fprintf(stderr, "pbcheck: no %s build of %s in %s%s; build it with: cmake --preset %s && "
                    "cmake --build --preset %s (or give --bin-dir)\n",
            a->engine, name, candidates[0], n > 1 ? " or next to pbcheck" : "", preset, preset);
    return -1;
}

/* ---- The corpus ---- */

/* Reference ISA seeds: one stream with every packet kind. */
static int seed_isa(const char *dir)
{
    uint8_t b[256];
    size_t n = 0;
    n += ref_encode_nop(b + n, 2);
    n += ref_encode_copy(b + n, 0x1000, 0x100002000ull, 4096);
    n += ref_encode_fill(b + n, 0x1000000000ull, 4096, 0xA5A5A5A5u);
    n += ref_encode_write(b + n, 0x2000, 8, 0x1122334455667788ull);
    n += ref_encode_read(b + n, 0x2000, 4);
    n += ref_encode_gart(b + n, 3, 5, 3, 0x80000000ull);
    n += ref_encode_pte(b + n, 0x3000, 0x1ull, 0x80000ull);
    size_t at = n;
    n += ref_encode_copy(b + n, 0x200000, 0x201000, 64);
    ref_set_space(b + at, REF_SPACE_DST_VIRTUAL | REF_SPACE_SRC_VIRTUAL);
    n += ref_encode_tlb_flush(b + n, 0x3000, 0x200000, 0x2000);
    n += ref_encode_fence(b + n, 7);
    char *path = pbc_xprintf("%s/every-packet.bin", dir), err[PATH_MAX + 128];
    int rc = pbc_fs_write_atomic(path, b, n, err, sizeof(err));
    if (rc)
        fprintf(stderr, "pbcheck: fuzz: %s\n", err);
    free(path);
    return rc;
}

/* Copies a text seed unchanged (the parser target reads text). */
static int copy_file(const char *from, const char *dir, const char *name)
{
    char *data, err[PATH_MAX + 128];
    size_t n;
    int rc = pbc_fs_read(from, 1u << 20, &data, &n, err, sizeof(err));
    if (rc == 0) {
        char *to = pbc_xprintf("%s/%s", dir, name);
        rc = pbc_fs_write_atomic(to, data, n, err, sizeof(err));
        free(to);
        free(data);
    }
    if (rc)
        fprintf(stderr, "pbcheck: fuzz: %s\n", err);
    return rc;
}

/* Fills an empty corpus folder from the seeds; a grown one is kept. */
static int prepare_corpus(const fuzz_args *a, const char *corpus)
{
    char err[PATH_MAX + 128];
    if (pbc_fs_mkdirs(corpus, err, sizeof(err)))
        return pbc_usage_error("fuzz: %s", err);
    if (pbc_fs_count_entries(corpus))
        return 0;
    if (!strcmp(a->target, "isa"))
        return seed_isa(corpus) ? pbc_usage_error("fuzz: cannot write seeds into %s", corpus) : 0;
    DIR *d = opendir(a->seeds);
    if (!d)
        return pbc_usage_error("fuzz: cannot open seeds %s: %s", a->seeds, strerror(errno));
    int bad = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".pbs"))
            continue;
        char *path = pbc_xprintf("%s/%s", a->seeds, e->d_name);
        bad |= !strcmp(a->target, "parse") ? copy_file(path, corpus, e->d_name)
                                           : pbc_cli_encode_file(path, corpus);
        free(path);
    }
    closedir(d);
    return bad ? pbc_usage_error("fuzz: some seeds could not be prepared (see above)") : 0;
}

/* ---- Engine command lines ---- */

typedef struct argv_list {
    char *v[64];
    int n;
} argv_list;

static void arg_add(argv_list *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void arg_add(argv_list *l, const char *fmt, ...)
{
    char buf[PATH_MAX + 64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    if (l->n < (int)PBC_ARRAY_LEN(l->v) - 1)
        l->v[l->n++] = pbc_xstrdup(buf);
    l->v[l->n] = NULL;
}

static void arg_free(argv_list *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->v[i]);
    l->n = 0;
}

/* libFuzzer flags from BINARY.options ([libfuzzer] key = value). */
static void options_to_flags(const char *binary, argv_list *l)
{
    char path[PATH_MAX], line[512];
    snprintf(path, sizeof(path), "%.4000s.options", binary);
    FILE *f = fopen(path, "r");
    int in_section = 0;
    while (f && fgets(line, sizeof(line), f)) {
        char key[128], value[256];
        if (line[0] == '[')
            in_section = !strncmp(line, "[libfuzzer]", 11);
        else if (in_section && sscanf(line, " %127[a-z_] = %255s", key, value) == 2)
            arg_add(l, "-%s=%s", key, value);
    }
    if (f)
        fclose(f);
}

static void libfuzzer_command(const fuzz_args *a, argv_list *l)
{
    arg_add(l, "%s", a->binary);
    options_to_flags(a->binary, l);
    arg_add(l, "-dict=%s.dict", a->binary);
    arg_add(l, "-artifact_prefix=%s/artifacts/", a->dir);
    arg_add(l, "-print_final_stats=1");
    if (a->no_mutator) /* the custom cross-over works on operations too */
        arg_add(l, "-cross_over=0");
    if (a->time_s)
        arg_add(l, "-max_total_time=%llu", (unsigned long long)a->time_s);
    if (a->runs)
        arg_add(l, "-runs=%llu", (unsigned long long)a->runs);
    /* Only fork mode survives a crash (the target aborts its process), so
     * it is the mode whatever --jobs is; -fork=1 is one job at a time. */
    if (!a->stop_at_crash || a->jobs > 1)
        arg_add(l, "-fork=%u", a->jobs);
    if (!a->stop_at_crash)
        arg_add(l, "-ignore_crashes=1");
    arg_add(l, "%s/corpus", a->dir);
}

static void afl_command(const fuzz_args *a, uint32_t job, argv_list *l)
{
    arg_add(l, "afl-fuzz");
    arg_add(l, "-i");
    arg_add(l, "%s/corpus", a->dir);
    arg_add(l, "-o");
    arg_add(l, "%s/afl", a->dir);
    arg_add(l, "-x");
    arg_add(l, "%s.dict", a->binary);
    /* The .options file's timeout (seconds) as AFL++'s, and a seed that
     * runs longer is skipped ('+') rather than ending the run. */
    argv_list opts = {0};
    options_to_flags(a->binary, &opts);
    unsigned timeout = 0;
    for (int i = 0; i < opts.n; i++)
        sscanf(opts.v[i], "-timeout=%u", &timeout);
    arg_free(&opts);
    if (timeout) {
        arg_add(l, "-t");
        arg_add(l, "%u+", timeout * 1000);
    }
    if (a->time_s) {
        arg_add(l, "-V");
        arg_add(l, "%llu", (unsigned long long)a->time_s);
    }
    arg_add(l, job == 0 ? "-M" : "-S");
    arg_add(l, job == 0 ? "main" : "secondary%u", job);
    arg_add(l, "--");
    arg_add(l, "%s", a->binary);
}

static void print_command(const argv_list *l)
{
    for (int i = 0; i < l->n; i++)
        printf("%s%s", i ? " " : "", l->v[i]);
    printf("\n");
}

/* ---- Running and progress ---- */

static int spawn(const fuzz_args *a, const argv_list *l, uint32_t job, pbc_child *child)
{
    char log[PATH_MAX], err[PATH_MAX + 64];
    snprintf(log, sizeof(log), "%.4000s/fuzz-%u.log", a->dir, job);
    pbc_child_spec spec = {.argv = l->v, .output = log};
    if (pbc_child_start(child, &spec, err, sizeof(err)) == 0)
        return 0;
    fprintf(stderr, "pbcheck: fuzz: %s\n", err);
    return -1;
}

/* The newest libFuzzer status line ("#123 NEW cov: ... exec/s: ...") of a log. */
static void libfuzzer_status(const char *log, char *out, size_t n)
{
    FILE *f = fopen(log, "r");
    char line[1024];
    while (f && fgets(line, sizeof(line), f))
        if (line[0] == '#' && strstr(line, "exec/s")) {
            line[strcspn(line, "\n")] = 0;
            snprintf(out, n, "%s", line);
        }
    if (f)
        fclose(f);
}

/* What one afl-fuzz instance says of itself in OUT/NAME/fuzzer_stats, by
 * the fields AFL++ documents (docs/afl-fuzz_approach.md, "Addendum: status
 * and plot files"): execs_done, run_time (seconds to the last update),
 * corpus_count (paths_total before AFL++ 4.0) and saved_crashes
 * (unique_crashes before 4.0). afl-fuzz rewrites the file every few
 * seconds and when it stops. */
typedef struct afl_stats {
    int found;
    unsigned long long execs, run_time, corpus, crashes;
} afl_stats;

static void afl_stats_read(const char *dir, const char *instance, afl_stats *st)
{
    char path[PATH_MAX], line[512], key[64];
    memset(st, 0, sizeof(*st));
    snprintf(path, sizeof(path), "%.4000s/afl/%s/fuzzer_stats", dir, instance);
    FILE *f = fopen(path, "r");
    unsigned long long v;
    while (f && fgets(line, sizeof(line), f)) {
        if (sscanf(line, "%63s : %llu", key, &v) != 2)
            continue;
        st->found = 1;
        if (!strcmp(key, "execs_done"))
            st->execs = v;
        else if (!strcmp(key, "run_time"))
            st->run_time = v;
        else if (!strcmp(key, "corpus_count") || !strcmp(key, "paths_total"))
            st->corpus = v;
        else if (!strcmp(key, "saved_crashes") || !strcmp(key, "unique_crashes"))
            st->crashes = v;
    }
    if (f)
        fclose(f);
}

/* Every instance of the run (main, secondary1...), added up: execs and
 * crashes summed, the rate over the longest run time; the corpus is the
 * main instance's queue (the others sync from it). */
static void afl_stats_total(const char *dir, uint32_t jobs, afl_stats *sum)
{
    afl_stats_read(dir, "main", sum);
    for (uint32_t j = 1; j < jobs; j++) {
        char name[32];
        afl_stats one;
        snprintf(name, sizeof(name), "secondary%u", j);
        afl_stats_read(dir, name, &one);
        sum->found |= one.found;
        sum->execs += one.execs;
        sum->crashes += one.crashes;
        sum->run_time = one.run_time > sum->run_time ? one.run_time : sum->run_time;
    }
}

/* "N execs/s", or "?" before the first whole second of stats: a rate over
 * less than that says nothing. */
static void afl_rate(const afl_stats *st, char *out, size_t n)
{
    if (st->run_time)
        snprintf(out, n, "%.1f execs/s", (double)st->execs / (double)st->run_time);
    else
        snprintf(out, n, "? execs/s");
}

static void afl_status(const fuzz_args *a, char *out, size_t n)
{
    afl_stats st;
    afl_stats_total(a->dir, a->jobs, &st);
    if (!st.found) {
        snprintf(out, n, "starting (calibrating the corpus; no fuzzer_stats yet)");
        return;
    }
    char rate[64];
    afl_rate(&st, rate, sizeof(rate));
    snprintf(out, n, "%llu execs in %llu s, %s, queue %llu inputs, %llu crashes (afl/*/fuzzer_stats)", st.execs,
             st.run_time, rate, st.corpus, st.crashes);
}

/* Waits for the engine processes, printing a status line: rewritten in
 * place on a terminal, a plain line every 10 seconds otherwise. AFL++'s
 * -V counts from its own start and is checked only between queue entries,
 * so with --time the instances are also asked to stop (SIGINT: they write
 * their stats and exit) a second past it. */
static void wait_with_progress(const fuzz_args *a, pbc_child *children, uint32_t n, int *engine_rc)
{
    int tty = isatty(1), stopping = 0;
    double start = pbc_cli_now(), last = 0;
    uint32_t alive = 0;
    *engine_rc = 0;
    for (uint32_t i = 0; i < n; i++)
        alive += children[i].pid != 0;
    while (alive) {
        for (uint32_t i = 0; i < n; i++) {
            if (children[i].pid && pbc_child_poll(&children[i])) {
                alive--;
                *engine_rc = *engine_rc ? *engine_rc : children[i].status;
            }
        }
        double t = pbc_cli_now() - start;
        if (alive && !stopping && a->time_s && !strcmp(a->engine, "afl") && t >= (double)a->time_s + 1) {
            for (uint32_t i = 0; i < n; i++)
                pbc_child_kill(&children[i], SIGINT);
            stopping = 1;
        }
        if (alive && (tty ? t - last >= 1 : t - last >= 10)) {
            char status[1100] = "starting", log[PATH_MAX];
            if (!strcmp(a->engine, "afl")) {
                afl_status(a, status, sizeof(status));
            } else {
                snprintf(log, sizeof(log), "%.4000s/fuzz-0.log", a->dir);
                libfuzzer_status(log, status, sizeof(status));
            }
            printf(tty ? "\r\033[K[%5.0fs] %.150s" : "[%5.0fs] %.150s\n", t, status);
            fflush(stdout);
            last = t;
        }
        if (alive)
            nanosleep(&(struct timespec){0, 200 * 1000 * 1000}, NULL);
    }
    if (tty)
        printf("\n");
}

#define LIST_MAX 10 /* findings listed one by one; the rest are counted */

/* Lists findings that were not there before, each with its replay line. */
static uint32_t list_findings(const fuzz_args *a, const char *dir, const name_set *before,
                              uint32_t listed)
{
    uint32_t found = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.' || name_set_has(before, e->d_name) || !strcmp(e->d_name, "README.txt"))
            continue;
        if (listed + found++ >= LIST_MAX)
            continue;
        if (listed + found == 1)
            printf("new findings:\n");
        char *path = pbc_xprintf("%s/%s", dir, e->d_name);
        const char *argv[] = {pbc_child_self_command(), "replay", "--target", is_builder(a->target) ? a->target : "reference",
                              path, NULL};
        char *cmd = pbc_report_shell_command(argv);
        printf("  %s\n    replay: %s\n", path, cmd);
        free(cmd);
        free(path);
    }
    if (d)
        closedir(d);
    if (listed + found > LIST_MAX && listed < LIST_MAX)
        printf("  ... and more in %s\n", dir);
    return found;
}

/* --coverage: the corpus the run left (AFL++: every instance's queue and
 * crashes too) replayed through the builder's coverage build; each replay
 * worker writes its profile, and they are merged into DIR/coverage. */
static int fuzz_coverage(const fuzz_args *a, int afl)
{
    pbc_coverage cov;
    const char *target = a->target;
    if (pbc_coverage_begin("fuzz", &target, &cov))
        return -1;
    char self[PATH_MAX];
    pbc_cli_self_dir(self, sizeof(self));
    char **argv = NULL;
    uint32_t n = 0, cap = 0;
    char *exe = pbc_xprintf("%s/pbcheck", self);
    PBC_PUSH(argv, n, cap, exe);
    const char *fixed[] = {"replay", "--target", target};
    for (size_t i = 0; i < PBC_ARRAY_LEN(fixed); i++) {
        char *v = pbc_xstrdup(fixed[i]);
        PBC_PUSH(argv, n, cap, v);
    }
    char dirs[3][PATH_MAX];
    int ndirs = 0;
    snprintf(dirs[ndirs++], PATH_MAX, "%.4000s/corpus", a->dir);
    if (afl)
        snprintf(dirs[ndirs++], PATH_MAX, "%.4000s/afl/main/queue", a->dir);
    else
        snprintf(dirs[ndirs++], PATH_MAX, "%.4000s/artifacts", a->dir);
    uint32_t inputs = 0;
    for (int k = 0; k < ndirs; k++) {
        DIR *d = opendir(dirs[k]);
        for (struct dirent *e; d && (e = readdir(d));) {
            char *path = pbc_xprintf("%s/%s", dirs[k], e->d_name);
            if (e->d_name[0] != '.' && is_file(path) && strcmp(e->d_name, "README.txt")) {
                PBC_PUSH(argv, n, cap, path);
                inputs++;
            } else {
                free(path);
            }
        }
        if (d)
            closedir(d);
    }
    char *end = NULL;
    PBC_PUSH(argv, n, cap, end);
    char log[PATH_MAX], err[PATH_MAX + 64];
    snprintf(log, sizeof(log), "%.4000s/coverage-replay.log", a->dir);
    printf("fuzz: coverage: replaying %u inputs through %s (log %s)\n", inputs, target, log);
    fflush(stdout);
    pbc_child child;
    pbc_child_spec spec = {.argv = argv, .output = log};
    int rc = pbc_child_start(&child, &spec, err, sizeof(err));
    if (rc)
        fprintf(stderr, "pbcheck: fuzz: %s\n", err);
    else
        pbc_child_wait(&child); /* replay exits 1 on a failing input: still measured */
    for (uint32_t i = 0; i < n; i++)
        free(argv[i]);
    free(argv);
    if (rc)
        return -1;
    return pbc_coverage_end(&cov, a->dir);
}

static const char fuzz_about[] =
    "Fuzzes one target with an already built fuzz binary (see docs/fuzzing.md):\n"
    "  a builder name ('pbcheck list targets'): the differential target, that\n"
    "      builder against the reference and the spec model;\n"
    "  parse: the text scenario parser;  isa: the reference ISA decoder.\n"
    "The corpus grows across runs. Findings land in DIR/artifacts (libFuzzer)\n"
    "or DIR/afl/*/crashes (AFL++); each is listed with its replay command.\n"
    "A crash does not stop fuzzing, whatever --jobs is (libFuzzer runs in fork\n"
    "mode, -fork=N -ignore_crashes=1): it goes on until --time, --runs or\n"
    "Ctrl-C. --stop-at-crash stops at the first crash instead.";

static int parse_fuzz_args(int argc, char **argv, fuzz_args *a)
{
    memset(a, 0, sizeof(*a));
    a->engine = "libfuzzer";
    a->seeds = pbc_cli_seeds_dir();
    uint64_t jobs = 1;
    const pbc_opt opts[] = {
        {"target", PBC_OPT_STRING, &a->target, "NAME", "a builder, parse or isa", 0, 0,
         "none: it must be given", "a builder, parse or isa"},
        {"engine", PBC_OPT_STRING, &a->engine, "E", "libfuzzer or afl", 0, 0, "libfuzzer",
         "libfuzzer (build: cmake --preset fuzz && cmake --build\n--preset fuzz) or afl (cmake --preset afl ...)"},
        {"jobs", PBC_OPT_NUMBER, &jobs, "N", "a number", 1, 64, "1",
         "processes (libFuzzer -fork=N; AFL++ one -M and N-1 -S)"},
        {"time", PBC_OPT_NUMBER, &a->time_s, "S", "seconds", 1, 30 * 86400, "none: until interrupted",
         "stop after S seconds"},
        {"runs", PBC_OPT_NUMBER, &a->runs, "N", "a number", 1, UINT32_MAX, "none: no limit",
         "libFuzzer only: stop after N inputs"},
        {"out", PBC_OPT_STRING, &a->out, "DIR", "a folder", 0, 0, "fuzz-out/NAME",
         "corpus, findings and logs"},
        {"bin-dir", PBC_OPT_STRING, &a->bin_dir, "DIR", "a folder", 0, 0,
         "next to pbcheck, or build/fuzz/fuzz or build/afl/fuzz", "where the fuzz binaries are"},
        {"seeds", PBC_OPT_STRING, &a->seeds, "DIR", "a folder", 0, 0, "the seed corpus (as run's)",
         "text scenarios to start an empty corpus from"},
        {"no-mutator", PBC_OPT_FLAG, &a->no_mutator, NULL, NULL, 0, 0, "off",
         "the engine's byte-level mutations only"},
        {"prepare", PBC_OPT_FLAG, &a->prepare, NULL, NULL, 0, 0, "off",
         "create the seeded corpus in DIR/corpus and stop"},
        {"dry-run", PBC_OPT_FLAG, &a->dry_run, NULL, NULL, 0, 0, "off",
         "print the engine command instead of running it"},
        {"coverage", PBC_OPT_FLAG, &a->coverage, NULL, NULL, 0, 0, "off",
         "then run the corpus through libNAME_cov.so and report line,\nbranch and function coverage of the "
         "builder's sources in DIR/coverage"},
        {"stop-at-crash", PBC_OPT_FLAG, &a->stop_at_crash, NULL, NULL, 0, 0,
         "off: fuzzing goes on after a crash, whatever --jobs",
         "stop at the first crash (libFuzzer without -fork for one job;\nAFL++ AFL_BENCH_UNTIL_CRASH)"},
        {NULL},
    };
    const pbc_verb_spec spec = {
        .name = "fuzz",
        .synopsis = "--target NAME [OPTIONS]",
        .about = fuzz_about,
        .example = "pbcheck fuzz --target mutant-trunc32 --time 60 --jobs 2",
        .footer = "exit: 0 nothing found, 1 findings, 2 bad usage or no fuzz binary",
        .opts = opts,
    };
    int rc = pbc_cli_parse_options_only(&spec, argc, argv);
    if (rc != PBC_CLI_GO)
        return rc;
    a->jobs = (uint32_t)jobs;
    if (!a->target || (!is_builder(a->target) && strcmp(a->target, "parse") && strcmp(a->target, "isa")))
        return pbc_cli_bad_value("fuzz", "target", "a builder from 'pbcheck list targets', parse or isa",
                                 a->target);
    if (strcmp(a->engine, "libfuzzer") && strcmp(a->engine, "afl"))
        return pbc_cli_bad_value("fuzz", "engine", "libfuzzer or afl", a->engine);
    if (a->coverage && !pbc_exec_target_is_path(a->target))
        return pbc_usage_error("fuzz: --coverage measures a builder library (--target path/libNAME.so)");
    if (a->runs && !strcmp(a->engine, "afl"))
        return pbc_usage_error("fuzz: --runs is for libFuzzer; give AFL++ --time");
    /* What is made under these must fit the fixed buffers below, never
     * cut short: the longest are DIR/afl/secondaryN/crashes/README.txt and
     * BIN_DIR/libpbc_afl_mutator.so or BIN_DIR/fuzz_diff_NAME.options. */
    const size_t dir_room = 64, bin_room = 160;
    if (a->out ? pbc_cli_path_fits("fuzz", "out", a->out, dir_room)
               : pbc_cli_path_fits("fuzz", "target", a->target, dir_room + sizeof("fuzz-out/")))
        return PBC_EXIT_USAGE;
    if (a->bin_dir && pbc_cli_path_fits("fuzz", "bin-dir", a->bin_dir, bin_room))
        return PBC_EXIT_USAGE;
    snprintf(a->dir, sizeof(a->dir), "%s", a->out ? a->out : "fuzz-out");
    if (!a->out)
        snprintf(a->dir + strlen(a->dir), sizeof(a->dir) - strlen(a->dir), "/%s", a->target);
    return PBC_CLI_GO;
}

int pbc_cmd_fuzz(int argc, char **argv)
{
    fuzz_args a;
    int rc = parse_fuzz_args(argc, argv, &a);
    if (rc != PBC_CLI_GO)
        return rc;
    char corpus[PATH_MAX], findings[PATH_MAX];
    snprintf(corpus, sizeof(corpus), "%.4000s/corpus", a.dir);
    if (prepare_corpus(&a, corpus))
        return PBC_EXIT_USAGE;
    if (a.prepare) {
        printf("fuzz: corpus %s (%u inputs)\n", corpus, pbc_fs_count_entries(corpus));
        return PBC_EXIT_PASS;
    }
    if (find_binary(&a))
        return PBC_EXIT_USAGE;
    if (pbc_exec_target_is_path(a.target) && !a.vendor_binary) { /* fuzz_diff_external loads it by this name */
        char cwd[PATH_MAX];
        char *abs = a.target[0] == '/' || !getcwd(cwd, sizeof(cwd)) ? pbc_xstrdup(a.target)
                                                                   : pbc_xprintf("%s/%s", cwd, a.target);
        setenv("PBCHECK_TARGET", abs, 1);
        free(abs);
    }
    int afl = !strcmp(a.engine, "afl");
    if (afl) {
        char lib[PATH_MAX];
        snprintf(lib, sizeof(lib), "%.4000s", a.binary);
        *strrchr(lib, '/') = 0;
        strcat(lib, "/libpbc_afl_mutator.so");
        if (!a.no_mutator && is_builder(a.target) && is_file(lib)) /* a preset build has it beside the binaries */
            setenv("AFL_CUSTOM_MUTATOR_LIBRARY", lib, 1);
        setenv("AFL_NO_UI", "1", 1);
        setenv("AFL_SKIP_CPUFREQ", "1", 1);
        /* Split certify runs bind a worker and its driver to one CPU while
         * a case runs (ddi/link.c): afl-fuzz would take that CPU as used,
         * and not start when every CPU is. */
        setenv("AFL_NO_AFFINITY", "1", 0);
        setenv("AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES", "1", 1);
        setenv("AFL_AUTORESUME", "1", 1); /* a second run continues the first */
        if (a.stop_at_crash)
            setenv("AFL_BENCH_UNTIL_CRASH", "1", 1);
        /* afl-fuzz refuses sanitizer options that would hide a crash from it. */
        const char *asan = getenv("ASAN_OPTIONS");
        if (asan && *asan) {
            char opts[1024];
            snprintf(opts, sizeof(opts), "%.900s:abort_on_error=1:symbolize=0", asan);
            setenv("ASAN_OPTIONS", opts, 1);
        }
        const char *ubsan = getenv("UBSAN_OPTIONS");
        if (ubsan && *ubsan) {
            char opts[1024];
            snprintf(opts, sizeof(opts), "%.900s:halt_on_error=1:abort_on_error=1:symbolize=0", ubsan);
            setenv("UBSAN_OPTIONS", opts, 1);
        }
        snprintf(findings, sizeof(findings), "%.4000s/afl/main/crashes", a.dir);
    } else {
        if (a.no_mutator)
            setenv("PBC_MUTATOR", "bytes", 1);
        snprintf(findings, sizeof(findings), "%.4000s/artifacts", a.dir);
        char err[PATH_MAX + 128];
        if (pbc_fs_mkdirs(findings, err, sizeof(err)))
            return pbc_usage_error("fuzz: %s", err);
    }
    uint32_t procs = afl ? a.jobs : 1;
    argv_list cmd[64];
    memset(cmd, 0, sizeof(cmd));
    for (uint32_t j = 0; j < procs; j++) {
        if (afl)
            afl_command(&a, j, &cmd[j]);
        else
            libfuzzer_command(&a, &cmd[j]);
    }
    if (a.dry_run) {
        for (uint32_t j = 0; j < procs; j++) {
            print_command(&cmd[j]);
            arg_free(&cmd[j]);
        }
        return PBC_EXIT_PASS;
    }
    name_set before = {0};
    name_set_load(&before, findings);
    printf("fuzz: %s with %s (%s), %u job%s, %s, corpus %s (%u inputs), log %s/fuzz-*.log\n", a.target,
           a.engine, a.binary, a.jobs, a.jobs > 1 ? "s" : "",
           a.stop_at_crash ? "stops at the first crash" : "keeps fuzzing after a crash (--stop-at-crash to stop)",
           corpus, pbc_fs_count_entries(corpus), a.dir);
    fflush(stdout);
    pbc_child children[64];
    void (*old_int)(int) = signal(SIGINT, SIG_IGN); /* the engines stop; we report */
    int spawn_failed = 0;
    for (uint32_t j = 0; j < procs; j++)
        spawn_failed |= spawn(&a, &cmd[j], j, &children[j]);
    int engine_rc;
    wait_with_progress(&a, children, procs, &engine_rc);
    if (spawn_failed && !engine_rc)
        engine_rc = 127;
    signal(SIGINT, old_int);
    uint32_t found = 0;
    for (uint32_t j = 0; j < procs; j++) {
        if (afl && j) {
            char sec[PATH_MAX];
            snprintf(sec, sizeof(sec), "%.4000s/afl/secondary%u/crashes", a.dir, j);
            found += list_findings(&a, sec, &before, found);
        }
        arg_free(&cmd[j]);
    }
    found += list_findings(&a, findings, &before, found);
    uint32_t known = before.count - name_set_has(&before, "README.txt");
    name_set_fini(&before);
    if (afl) { /* AFL++'s own account of the run, and its queue: the corpus it grew */
        afl_stats st;
        afl_stats_total(a.dir, procs, &st);
        char rate[64], queue[PATH_MAX];
        afl_rate(&st, rate, sizeof(rate));
        snprintf(queue, sizeof(queue), "%.4000s/afl/main/queue", a.dir);
        if (st.found)
            printf("afl: %llu execs in %llu s, %s (afl/*/fuzzer_stats)\n", st.execs, st.run_time, rate);
        printf("fuzz: %u new finding%s; corpus now %u inputs (%s)\n", found, found == 1 ? "" : "s",
               pbc_fs_count_entries(queue), queue);
    } else {
        printf("fuzz: %u new finding%s; corpus now %u inputs\n", found, found == 1 ? "" : "s",
               pbc_fs_count_entries(corpus));
    }
    if (a.coverage && engine_rc != 127 && fuzz_coverage(&a, afl))
        return PBC_EXIT_USAGE;
    if (engine_rc == 127)
        return pbc_usage_error("fuzz: the engine did not start: see %s/fuzz-0.log", a.dir);
    if (engine_rc && !found && known) { /* crashed again on inputs it had found before */
        printf("fuzz: the engine stopped on crashes already in %s\n", findings);
        return PBC_EXIT_FAIL;
    }
    if (engine_rc && !found)
        return pbc_usage_error("fuzz: the engine stopped with exit code %d and no finding: see %s/fuzz-*.log",
                               engine_rc, a.dir);
    return found ? PBC_EXIT_FAIL : PBC_EXIT_PASS;
}
