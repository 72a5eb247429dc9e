/*
 * pbcheck fuzz: runs a fuzz target that a fuzz build made (it builds
 * nothing) with the right corpus, dictionary, options and artifact folder,
 * shows progress, and on exit lists what it found with the command that
 * replays each finding. libFuzzer or AFL++; several jobs per machine.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "ref_isa.h"
#include "registry.h"
#include "base/util.h"

#ifndef PBC_SOURCE_DIR
#define PBC_SOURCE_DIR "."
#endif

static const char fuzz_usage[] =
    "usage: pbcheck fuzz --target NAME [--engine libfuzzer|afl] [--jobs N] [--time S]\n"
    "                    [--runs N] [--out DIR] [--bin-dir DIR] [--seeds DIR]\n"
    "                    [--no-mutator] [--prepare] [--dry-run]\n"
    "\n"
    "Fuzzes one target with an already built fuzz binary (see docs/fuzzing.md):\n"
    "  a builder name ('pbcheck list targets'): the differential target, that\n"
    "      builder against the reference and the spec model;\n"
    "  parse: the text scenario parser;  isa: the reference ISA decoder.\n"
    "\n"
    "  --engine E      libfuzzer (default; build: cmake --preset fuzz && cmake\n"
    "                  --build --preset fuzz) or afl (cmake --preset afl ...)\n"
    "  --jobs N        processes (libFuzzer -fork=N; AFL++ one -M and N-1 -S)\n"
    "  --time S        stop after S seconds (default: until interrupted)\n"
    "  --runs N        libFuzzer only: stop after N inputs\n"
    "  --out DIR       corpus, findings and logs (default: fuzz-out/NAME)\n"
    "  --bin-dir DIR   where the fuzz binaries are (default: found next to\n"
    "                  pbcheck, or in build/fuzz/fuzz or build/afl/fuzz)\n"
    "  --seeds DIR     text scenarios to start from (default: corpus/seeds)\n"
    "  --no-mutator    the engine's byte-level mutations only\n"
    "  --prepare       create the seeded corpus in DIR/corpus and stop\n"
    "  --dry-run       print the engine command instead of running it\n"
    "\n"
    "The corpus grows across runs. Findings land in DIR/artifacts (libFuzzer)\n"
    "or DIR/afl/*/crashes (AFL++); each is listed with its replay command.\n"
    "exit: 0 nothing found, 1 findings, 2 bad usage or no fuzz binary\n";

typedef struct fuzz_args {
    const char *target, *engine, *out, *bin_dir, *seeds;
    uint32_t jobs;
    uint64_t time_s, runs;
    int no_mutator, prepare, dry_run;
    char binary[PATH_MAX], dir[PATH_MAX];
} fuzz_args;

/* ---- Files ---- */

static int make_dirs(const char *path)
{
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof(tmp), "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(tmp, 0777) && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(tmp, 0777) && errno != EEXIST ? -1 : 0;
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static uint32_t count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    uint32_t n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
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

static int is_builder(const char *target) { return pbc_target_find(target) != NULL; }

static void binary_name(const char *target, char *out, size_t n)
{
    if (!strcmp(target, "parse") || !strcmp(target, "isa")) {
        snprintf(out, n, "fuzz_%s", target);
        return;
    }
    snprintf(out, n, "fuzz_diff_%s", target);
    for (char *p = out; *p; p++)
        if (*p == '-')
            *p = '_';
}

/* Finds the binary: --bin-dir, else next to pbcheck, else the engine's
 * preset folder beside pbcheck's build folder. */
static int find_binary(fuzz_args *a)
{
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
    n += ref_encode_pte(b + n, 0x3000, 0x80000001ull);
    n += ref_encode_tlb_flush(b + n);
    n += ref_encode_fence(b + n, 7);
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%.4000s/every-packet.bin", dir);
    FILE *f = fopen(path, "wb");
    int rc = f && fwrite(b, 1, n, f) == n ? 0 : -1;
    if (f && fclose(f))
        rc = -1;
    return rc;
}

/* Copies a text seed unchanged (the parser target reads text). */
static int copy_file(const char *from, const char *dir, const char *name)
{
    char to[PATH_MAX];
    snprintf(to, sizeof(to), "%.3000s/%.1000s", dir, name);
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    char buf[8192];
    size_t n;
    int rc = in && out ? 0 : -1;
    while (rc == 0 && (n = fread(buf, 1, sizeof(buf), in)) > 0)
        rc = fwrite(buf, 1, n, out) == n ? 0 : -1;
    if (in)
        fclose(in);
    if (out && fclose(out))
        rc = -1;
    return rc;
}

/* Fills an empty corpus folder from the seeds; a grown one is kept. */
static int prepare_corpus(const fuzz_args *a, const char *corpus)
{
    if (make_dirs(corpus))
        return pbc_usage_error("cannot create %s: %s", corpus, strerror(errno));
    if (count_entries(corpus))
        return 0;
    if (!strcmp(a->target, "isa"))
        return seed_isa(corpus) ? pbc_usage_error("cannot write seeds into %s", corpus) : 0;
    DIR *d = opendir(a->seeds);
    if (!d)
        return pbc_usage_error("cannot open seeds %s: %s", a->seeds, strerror(errno));
    int bad = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".pbs"))
            continue;
        char path[PATH_MAX];
        snprintf(path, sizeof(path), "%.3000s/%.1000s", a->seeds, e->d_name);
        bad |= !strcmp(a->target, "parse") ? copy_file(path, corpus, e->d_name)
                                           : pbc_cli_encode_file(path, corpus);
    }
    closedir(d);
    return bad ? pbc_usage_error("some seeds could not be prepared (see above)") : 0;
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
    if (a->jobs > 1) {
        arg_add(l, "-fork=%u", a->jobs);
        arg_add(l, "-ignore_crashes=1");
    }
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

static pid_t spawn(const fuzz_args *a, const argv_list *l, uint32_t job)
{
    char log[PATH_MAX];
    snprintf(log, sizeof(log), "%.4000s/fuzz-%u.log", a->dir, job);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        signal(SIGINT, SIG_DFL);
        execvp(l->v[0], l->v);
        fprintf(stderr, "pbcheck: cannot run %s: %s\n", l->v[0], strerror(errno));
        _exit(127);
    }
    return pid;
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

/* Live counts from the main instance's folders (afl-fuzz without its UI
 * writes fuzzer_stats only now and then), plus its last execs/s there. */
static void afl_status(const char *dir, char *out, size_t n)
{
    char path[PATH_MAX], line[256], speed[64] = "?";
    snprintf(path, sizeof(path), "%.4000s/afl/main/fuzzer_stats", dir);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof(line), f))
        sscanf(line, "execs_per_sec : %63s", speed);
    if (f)
        fclose(f);
    char queue[PATH_MAX], crashes[PATH_MAX];
    snprintf(queue, sizeof(queue), "%.4000s/afl/main/queue", dir);
    snprintf(crashes, sizeof(crashes), "%.4000s/afl/main/crashes", dir);
    uint32_t nc = count_entries(crashes);
    nc -= nc && is_file(strcat(crashes, "/README.txt")); /* AFL++'s own note */
    snprintf(out, n, "main: corpus %u, crashes %u, last reported %s execs/s", count_entries(queue), nc, speed);
}

/* Waits for the engine processes, printing a status line: rewritten in
 * place on a terminal, a plain line every 10 seconds otherwise. */
static void wait_with_progress(const fuzz_args *a, pid_t *pids, uint32_t n, int *engine_rc)
{
    int tty = isatty(1);
    double start = pbc_cli_now(), last = 0;
    uint32_t alive = n;
    *engine_rc = 0;
    while (alive) {
        for (uint32_t i = 0; i < n; i++) {
            int st;
            if (pids[i] > 0 && waitpid(pids[i], &st, WNOHANG) == pids[i]) {
                pids[i] = 0;
                alive--;
                int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
                *engine_rc = *engine_rc ? *engine_rc : rc;
            }
        }
        double t = pbc_cli_now() - start;
        if (alive && (tty ? t - last >= 1 : t - last >= 10)) {
            char status[1100] = "starting", log[PATH_MAX];
            if (!strcmp(a->engine, "afl")) {
                afl_status(a->dir, status, sizeof(status));
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
        printf("  %s/%s\n    replay: pbcheck replay --target %s %s/%s\n", dir, e->d_name,
               is_builder(a->target) ? a->target : "reference", dir, e->d_name);
    }
    if (d)
        closedir(d);
    if (listed + found > LIST_MAX && listed < LIST_MAX)
        printf("  ... and more in %s\n", dir);
    return found;
}

static int parse_fuzz_args(int argc, char **argv, fuzz_args *a)
{
    memset(a, 0, sizeof(*a));
    a->engine = "libfuzzer";
    a->jobs = 1;
    a->seeds = PBC_SOURCE_DIR "/corpus/seeds";
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t num;
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            fputs(fuzz_usage, stdout);
            return 1;
        } else if (!strcmp(o, "--no-mutator")) {
            a->no_mutator = 1;
        } else if (!strcmp(o, "--prepare")) {
            a->prepare = 1;
        } else if (!strcmp(o, "--dry-run")) {
            a->dry_run = 1;
        } else if (!v) {
            return pbc_usage_error("unknown option '%s' or missing value (try --help)", o), -1;
        } else if (!strcmp(o, "--target")) {
            a->target = argv[++i];
        } else if (!strcmp(o, "--engine")) {
            a->engine = argv[++i];
        } else if (!strcmp(o, "--out")) {
            a->out = argv[++i];
        } else if (!strcmp(o, "--bin-dir")) {
            a->bin_dir = argv[++i];
        } else if (!strcmp(o, "--seeds")) {
            a->seeds = argv[++i];
        } else if (!strcmp(o, "--jobs")) {
            if (pbc_cli_number(argv[++i], 64, &num) || num == 0)
                return pbc_usage_error("--jobs needs a number from 1 to 64"), -1;
            a->jobs = (uint32_t)num;
        } else if (!strcmp(o, "--time")) {
            if (pbc_cli_number(argv[++i], 30 * 86400, &num) || num == 0)
                return pbc_usage_error("--time needs seconds (1 to 2592000)"), -1;
            a->time_s = num;
        } else if (!strcmp(o, "--runs")) {
            if (pbc_cli_number(argv[++i], UINT32_MAX, &num) || num == 0)
                return pbc_usage_error("--runs needs a positive number"), -1;
            a->runs = num;
        } else {
            return pbc_usage_error("unknown option '%s' (try --help)", o), -1;
        }
    }
    if (!a->target)
        return pbc_usage_error("fuzz needs --target NAME (a builder, parse or isa; try --help)"), -1;
    if (!is_builder(a->target) && strcmp(a->target, "parse") && strcmp(a->target, "isa"))
        return pbc_usage_error("unknown fuzz target '%s' (see 'pbcheck list targets', or parse, isa)",
                               a->target), -1;
    if (strcmp(a->engine, "libfuzzer") && strcmp(a->engine, "afl"))
        return pbc_usage_error("--engine must be libfuzzer or afl, not '%s'", a->engine), -1;
    if (a->runs && !strcmp(a->engine, "afl"))
        return pbc_usage_error("--runs is for libFuzzer; give AFL++ --time"), -1;
    snprintf(a->dir, sizeof(a->dir), "%s", a->out ? a->out : "fuzz-out");
    if (!a->out)
        snprintf(a->dir + strlen(a->dir), sizeof(a->dir) - strlen(a->dir), "/%s", a->target);
    return 0;
}

int pbc_cmd_fuzz(int argc, char **argv)
{
    fuzz_args a;
    int rc = parse_fuzz_args(argc, argv, &a);
    if (rc)
        return rc > 0 ? PBC_EXIT_PASS : PBC_EXIT_USAGE;
    char corpus[PATH_MAX], findings[PATH_MAX];
    snprintf(corpus, sizeof(corpus), "%.4000s/corpus", a.dir);
    if (prepare_corpus(&a, corpus))
        return PBC_EXIT_USAGE;
    if (a.prepare) {
        printf("fuzz: corpus %s (%u inputs)\n", corpus, count_entries(corpus));
        return PBC_EXIT_PASS;
    }
    if (find_binary(&a))
        return PBC_EXIT_USAGE;
    int afl = !strcmp(a.engine, "afl");
    if (afl) {
        char lib[PATH_MAX];
        snprintf(lib, sizeof(lib), "%.4000s", a.binary);
        *strrchr(lib, '/') = 0;
        strcat(lib, "/libpbc_afl_mutator.so");
        if (!a.no_mutator && is_builder(a.target))
            setenv("AFL_CUSTOM_MUTATOR_LIBRARY", lib, 1);
        setenv("AFL_NO_UI", "1", 1);
        setenv("AFL_SKIP_CPUFREQ", "1", 1);
        setenv("AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES", "1", 1);
        setenv("AFL_AUTORESUME", "1", 1); /* a second run continues the first */
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
        if (make_dirs(findings))
            return pbc_usage_error("cannot create %s: %s", findings, strerror(errno));
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
    printf("fuzz: %s with %s, %u job%s, corpus %s (%u inputs), log %s/fuzz-*.log\n", a.target,
           a.engine, a.jobs, a.jobs > 1 ? "s" : "", corpus, count_entries(corpus), a.dir);
    fflush(stdout);
    pid_t pids[64];
    void (*old_int)(int) = signal(SIGINT, SIG_IGN); /* the engines stop; we report */
    for (uint32_t j = 0; j < procs; j++)
        pids[j] = spawn(&a, &cmd[j], j);
    int engine_rc;
    wait_with_progress(&a, pids, procs, &engine_rc);
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
    name_set_fini(&before);
    printf("fuzz: %u new finding%s; corpus now %u inputs\n", found, found == 1 ? "" : "s",
           count_entries(corpus));
    if (engine_rc == 127)
        return pbc_usage_error("the engine did not start: see %s/fuzz-0.log", a.dir);
    if (engine_rc && !found)
        return pbc_usage_error("the engine stopped with exit code %d and no finding: see %s/fuzz-*.log",
                               engine_rc, a.dir);
    return found ? PBC_EXIT_FAIL : PBC_EXIT_PASS;
}
