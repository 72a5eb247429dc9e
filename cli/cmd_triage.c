/*
 * pbcheck triage: from a pile of failing inputs (fuzzer artifacts, AFL++
 * output folders, OSS-Fuzz testcases, scenarios) to a handful of buckets,
 * each with its cause, a minimized readable reproducer, and reports
 * (docs/triage.md).
 *
 * Every input is replayed in a worker process (harness/exec/isolate.h)
 * several times; the replays give its class and signature
 * (harness/triage/triage.h); inputs with one signature form a bucket. Each
 * bucket's first input is minimized, candidate by candidate, each
 * candidate run in the worker too: a builder that crashes or hangs on a
 * candidate costs that candidate.
 */
#define _DEFAULT_SOURCE /* realpath */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <xxhash.h>

#include "base/fs.h"
#include "base/safe.h"
#include "base/util.h"
#include "cli.h"
#include "ddi/decoder.h"
#include "exec/attribute.h"
#include "exec/child.h"
#include "exec/isolate.h"
#include "exec/target.h"
#include "progress.h"
#include "report/text.h"
#include "triage/triage.h"
#include "report/triage_report.h"
#include "report/triage_html.h"

#define TRI_MIN_RUNS 400u     /* candidate runs one bucket's minimization may take */
#define TRI_MIN_SECONDS 120.0 /* and seconds */

typedef pbc_triage_input tri_input;
typedef pbc_triage_bucket tri_bucket;

typedef struct tri_ctx {
    const pbc_target *t;
    const char *target_arg;
    pbc_runner runner;
    pbc_iso *iso; /* NULL with --no-fork */
    pbc_iso_limits limits;
} tri_ctx;

/* ---- Inputs ---- */

static const char *origin_of(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    static const struct {
        const char *prefix, *origin;
    } lf[] = {{"crash-", "libfuzzer-crash"}, {"timeout-", "libfuzzer-timeout"}, {"oom-", "libfuzzer-oom"},
              {"leak-", "libfuzzer-leak"},   {"slow-unit-", "libfuzzer-slow"}};
    for (size_t i = 0; i < PBC_ARRAY_LEN(lf); i++)
        if (!strncmp(base, lf[i].prefix, strlen(lf[i].prefix)))
            return lf[i].origin;
    int in_crashes = strstr(path, "/crashes/") || !strncmp(path, "crashes/", 8);
    int in_hangs = strstr(path, "/hangs/") || !strncmp(path, "hangs/", 6);
    if (in_crashes && !strncmp(base, "id:", 3))
        return "afl-crash";
    if (in_hangs && !strncmp(base, "id:", 3))
        return "afl-hang";
    size_t n = strlen(base);
    if (n > 4 && !strcmp(base + n - 4, ".pbs"))
        return "text";
    return "binary";
}

/* Files in a fuzzer's output that are not inputs. */
static int skip_name(const char *name, int is_dir)
{
    if (name[0] == '.')
        return 1;
    if (is_dir)
        return !strcmp(name, "queue") || !strcmp(name, "corpus") || !strcmp(name, "buckets");
    static const char *const files[] = {"README.txt", "fuzzer_stats", "plot_data", "cmdline", "fuzz_bitmap",
                                        "fuzzer_setup", "target_hash"};
    for (size_t i = 0; i < PBC_ARRAY_LEN(files); i++)
        if (!strcmp(name, files[i]))
            return 1;
    /* .summary: ClusterFuzzLite's stack trace beside each testcase. */
    static const char *const exts[] = {".log", ".json", ".md",   ".html",   ".sarif",
                                       ".options", ".dict", ".txt", ".summary"};
    size_t n = strlen(name);
    for (size_t i = 0; i < PBC_ARRAY_LEN(exts); i++) {
        size_t e = strlen(exts[i]);
        if (n > e && !strcmp(name + n - e, exts[i]))
            return 1;
    }
    return 0;
}

/* An input that cannot be run: counted as invalid with why, never
 * replayed, nothing of it copied. */
static void add_unread(pbc_triage_run *in, const char *path, const char *why)
{
    fprintf(stderr, "pbcheck: triage: %s (counted as invalid)\n", why);
    tri_input x = {.path = pbc_xstrdup(path), .origin = origin_of(path), .bytes = (uint8_t *)pbc_xstrdup(""),
                   .hash = XXH3_64bits(path, strlen(path)), .first = (int)in->input_count, .bucket = -1,
                   .unread = 1, .message = pbc_xstrdup(why)};
    x.facts.cls = PBC_TRIAGE_INVALID;
    PBC_PUSH(in->inputs, in->input_count, in->input_cap, x);
}

static void add_input(pbc_triage_run *in, const char *path)
{
    char *data, err[PBC_CLI_ERR_SIZE];
    size_t n;
    if (pbc_fs_read(path, PBC_TRIAGE_INPUT_MAX, &data, &n, err, sizeof(err))) {
        add_unread(in, path, err); /* no fuzz target would run it either */
        return;
    }
    tri_input x = {.path = pbc_xstrdup(path), .origin = origin_of(path), .bytes = (uint8_t *)data, .len = n,
                   .hash = XXH3_64bits(data, n), .bucket = -1};
    x.first = (int)in->input_count;
    for (uint32_t i = 0; i < in->input_count; i++)
        if (!in->inputs[i].unread && in->inputs[i].hash == x.hash && in->inputs[i].len == n &&
            !memcmp(in->inputs[i].bytes, data, n)) {
            x.first = (int)i;
            break;
        }
    PBC_PUSH(in->inputs, in->input_count, in->input_cap, x);
}

/* Folders already walked (device, inode): a symbolic link that leads
 * back up the tree is walked once. */
typedef struct tri_walk {
    dev_t *dev;
    ino_t *ino;
    uint32_t count, cap, ino_cap;
} tri_walk;

static int walked(tri_walk *w, const struct stat *st)
{
    for (uint32_t i = 0; i < w->count; i++)
        if (w->dev[i] == st->st_dev && w->ino[i] == st->st_ino)
            return 1;
    uint32_t count = w->count;
    PBC_PUSH(w->dev, w->count, w->cap, st->st_dev);
    PBC_PUSH(w->ino, count, w->ino_cap, st->st_ino);
    return 0;
}

/* Files under a folder, walked in name order. */
static void collect_dir(pbc_triage_run *in, const char *path, tri_walk *w)
{
    struct dirent **names;
    int n = scandir(path, &names, NULL, alphasort);
    if (n < 0) {
        char why[PBC_CLI_ERR_SIZE];
        snprintf(why, sizeof(why), "cannot read %s: %s", path, strerror(errno));
        add_unread(in, path, why);
        return;
    }
    for (int i = 0; i < n; i++) {
        char *sub = pbc_xprintf("%s/%s", path, names[i]->d_name);
        struct stat st;
        if (stat(sub, &st)) {
            if (!skip_name(names[i]->d_name, 0)) {
                char why[PBC_CLI_ERR_SIZE];
                snprintf(why, sizeof(why), "cannot read %s: %s", sub, strerror(errno));
                add_unread(in, sub, why);
            }
        } else if (S_ISDIR(st.st_mode)) {
            if (!skip_name(names[i]->d_name, 1) && !walked(w, &st))
                collect_dir(in, sub, w);
        } else if (!skip_name(names[i]->d_name, 0)) {
            if (S_ISREG(st.st_mode)) {
                add_input(in, sub);
            } else {
                char why[PBC_CLI_ERR_SIZE];
                snprintf(why, sizeof(why), "%s: not a regular file", sub);
                add_unread(in, sub, why);
            }
        }
        free(sub);
        free(names[i]);
    }
    free(names);
}

/* One INPUT argument: a file, or a folder walked. A path that does not
 * exist is a usage error; everything found under a folder is counted. */
static int collect(pbc_triage_run *in, const char *path, tri_walk *w)
{
    struct stat st;
    if (stat(path, &st)) {
        fprintf(stderr, "pbcheck: triage: cannot read %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        if (!walked(w, &st))
            collect_dir(in, path, w);
    } else if (S_ISREG(st.st_mode)) {
        add_input(in, path);
    } else {
        fprintf(stderr, "pbcheck: triage: %s is not a regular file or a folder\n", path);
        return -1;
    }
    return 0;
}

/* ---- Replays in the worker ---- */

enum { JOB_BYTES = 1, JOB_TEXT = 2, JOB_ATTRIBUTE = 3 };

/* The scenario an input holds, decoded as replay and the fuzz targets
 * decode it; -1 with why when it holds none this target can run. */
static int tri_load(const pbc_target *t, const char *name, const uint8_t *bytes, size_t n, int text,
                    pbc_scenario *s, char *why, size_t why_size)
{
    if (text || pbc_scenario_is_text(name, bytes, n))
        return pbc_scenario_parse((const char *)bytes, n, name, s, why, why_size) ? -1 : 0;
    uint32_t line;
    pbc_segment_info layout[PBC_MAX_SEGMENTS];
    pbc_scenario_decode_in(bytes, n, layout, pbc_exec_target_layout(t, layout), s);
    pbc_scenario_keep_supported(s, t); /* as the fuzz targets decode it */
    if (pbc_scenario_check_limits(s, why, why_size, &line)) {
        pbc_scenario_fini(s);
        return -1;
    }
    return 0;
}

static uint8_t *tri_job(void *ctx, const uint8_t *job, size_t len, size_t *answer_len)
{
    tri_ctx *c = ctx;
    pbc_wire_reader in = {job, len, 0};
    uint32_t kind = pbc_wire_get_u32(&in);
    char *name = pbc_wire_get_str(&in);
    size_t n;
    uint8_t *bytes = pbc_wire_get_bytes(&in, &n);
    pbc_scenario s;
    char why[512];
    pbc_triage_facts f;
    pbc_wire_buf out = {0};
    if (kind == JOB_ATTRIBUTE) { /* who wrote the first wrong byte of a reproducer (a text scenario) */
        pbc_attribution a;
        memset(&a, 0, sizeof(a));
        if (tri_load(c->t, "repro", bytes ? bytes : (const uint8_t *)"", n, 1, &s, why, sizeof(why)) == 0) {
            pbc_attribute(&c->runner, &s, c->t, &a);
            pbc_scenario_fini(&s);
        }
        pbc_wire_put_str(&out, a.text);
        pbc_wire_put_str(&out, pbc_attribution_where(&a));
    } else if (tri_load(c->t, name ? name : "input", bytes ? bytes : (const uint8_t *)"", n, kind == JOB_TEXT, &s,
                        why, sizeof(why))) {
        memset(&f, 0, sizeof(f));
        f.cls = PBC_TRIAGE_INVALID;
        pbc_wire_put_bytes(&out, &f, sizeof(f));
        pbc_wire_put_str(&out, why);
    } else {
        pbc_run_options o = {.check_determinism = 1};
        pbc_outcome res;
        pbc_runner_run(&c->runner, &s, c->t, &o, &res);
        pbc_triage_from_outcome(&res, &s, &f);
        pbc_triage_ddi_location(c->t, &f);
        pbc_wire_put_bytes(&out, &f, sizeof(f));
        pbc_wire_put_str(&out, res.message);
        pbc_scenario_fini(&s);
    }
    free(name);
    free(bytes);
    *answer_len = out.n;
    return out.p;
}

/* One replay: the facts and the report (owned). */
static void tri_ask(tri_ctx *c, uint32_t kind, const char *name, const uint8_t *bytes, size_t n,
                    pbc_triage_facts *f, char **report)
{
    pbc_wire_buf job = {0};
    pbc_wire_put_u32(&job, kind);
    pbc_wire_put_str(&job, name);
    pbc_wire_put_bytes(&job, bytes, n);
    pbc_iso_result r;
    if (c->iso) {
        uint32_t units = 1;
        pbc_scenario s;
        char why[256];
        if (tri_load(c->t, name, bytes, n, kind == JOB_TEXT, &s, why, sizeof(why)) == 0) {
            units = pbc_scenario_timeout_units(&s);
            pbc_scenario_fini(&s);
        }
        pbc_iso_run_scaled(c->iso, job.p, job.n, units, &r);
    } else {
        memset(&r, 0, sizeof(r));
        r.answer = tri_job(c, job.p, job.n, &r.answer_len);
        r.cls = PBC_ISO_OK;
    }
    free(job.p);
    if (r.cls == PBC_ISO_OK) { /* the worker is the builder's: its answer is checked whole */
        pbc_wire_reader in = {r.answer, r.answer_len, 0, 0};
        size_t got;
        uint8_t *fb = pbc_wire_get_bytes(&in, &got);
        *report = pbc_wire_get_text(&in, PBC_SAFE_LINES);
        if (fb && got == sizeof(*f) && pbc_wire_done(&in)) {
            memcpy(f, fb, sizeof(*f));
            if (pbc_triage_facts_check(f))
                pbc_iso_reject(c->iso, &r, "the failure's facts are not triage's");
        } else {
            char what[96];
            if (got != sizeof(*f))
                snprintf(what, sizeof(what), "the failure's facts are %zu bytes, not %zu", got, sizeof(*f));
            else
                snprintf(what, sizeof(what), "not one triage answer");
            pbc_iso_reject(c->iso, &r, what);
        }
        free(fb);
        if (r.cls != PBC_ISO_OK) {
            free(*report);
            *report = NULL;
        }
    }
    if (r.cls != PBC_ISO_OK) {
        const char *own = pbc_exec_target_is_path(c->target_arg) ? c->target_arg : NULL;
        pbc_triage_from_isolation(pbc_iso_class_name(r.cls), r.detail, r.output, own, f);
        *report = pbc_xprintf("%s: %s%s%s", pbc_iso_class_name(r.cls), r.detail, r.output ? "\n" : "",
                              r.output ? r.output : "");
    }
    pbc_iso_result_fini(&r);
}

/* Replays one input `repeat` times: the signature most replays gave (the
 * worse one on a tie), how many gave it, and the first replay's report. */
static void tri_replay(tri_ctx *c, tri_input *x, uint32_t repeat)
{
    uint64_t sigs[20];
    pbc_triage_facts facts[20];
    char *reports[20] = {0};
    for (uint32_t r = 0; r < repeat; r++) {
        char text[640];
        tri_ask(c, JOB_BYTES, x->path, x->bytes, x->len, &facts[r], &reports[r]);
        sigs[r] = pbc_triage_signature(&facts[r], text, sizeof(text));
        /* A hang or a runaway allocation costs the whole limit each time:
         * once is enough to class it. */
        if (r == 0 && (facts[0].cls == PBC_TRIAGE_TIMEOUT || facts[0].cls == PBC_TRIAGE_OOM))
            repeat = 1;
    }
    /* An input that failed on some replay is that failure's, marked flaky
     * when other replays differ: the most frequent failing signature (the
     * worse one on a tie); only an input that never failed is no-repro. */
    uint32_t best = 0, best_n = 0;
    int best_fails = 0;
    for (uint32_t r = 0; r < repeat; r++) {
        uint32_t same = 0;
        for (uint32_t q = 0; q < repeat; q++)
            same += sigs[q] == sigs[r];
        int fails = facts[r].cls != PBC_TRIAGE_NO_REPRO && facts[r].cls != PBC_TRIAGE_INVALID;
        if (r == 0 || fails > best_fails || (fails == best_fails && same > best_n) ||
            (fails == best_fails && same == best_n && pbc_triage_severity(&facts[r]) < pbc_triage_severity(&facts[best]))) {
            best = r;
            best_n = same;
            best_fails = fails;
        }
    }
    x->facts = facts[best];
    x->sig = sigs[best];
    x->runs = repeat;
    x->agree = best_n;
    x->message = reports[best]; /* the report of a replay that gave it */
    for (uint32_t r = 0; r < repeat; r++)
        if (r != best)
            free(reports[r]);
}

/* The distinct inputs, in order. */
static uint32_t tri_distinct(const pbc_triage_run *r, uint32_t *out)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < r->input_count; i++)
        if (r->inputs[i].first == (int)i && !r->inputs[i].unread)
            out[n++] = i;
    return n;
}

/* One process of --jobs N (hidden --slice J/N --slice-out FILE): replays
 * every N-th distinct input from the J-th on and writes what it found
 * into FILE. */
static int tri_slice(tri_ctx *c, pbc_triage_run *r, const char *slice, const char *file)
{
    unsigned j = 0, n = 0;
    if (sscanf(slice, "%u/%u", &j, &n) != 2 || n == 0 || j >= n || !file)
        return pbc_usage_error("triage: --slice needs J/N with J < N, and --slice-out");
    uint32_t *distinct = pbc_xmalloc((r->input_count ? r->input_count : 1) * sizeof(*distinct));
    uint32_t nd = tri_distinct(r, distinct);
    pbc_wire_buf b = {0};
    for (uint32_t k = j; k < nd; k += n) {
        tri_input *x = &r->inputs[distinct[k]];
        if (!x->runs)
            tri_replay(c, x, r->repeat);
        pbc_wire_put_u32(&b, distinct[k]);
        pbc_wire_put_str(&b, x->path);
        pbc_wire_put_bytes(&b, &x->facts, sizeof(x->facts));
        pbc_wire_put_u32(&b, x->runs);
        pbc_wire_put_u32(&b, x->agree);
        pbc_wire_put_str(&b, x->message);
    }
    free(distinct);
    char err[PBC_CLI_ERR_SIZE];
    int rc = pbc_fs_write_atomic(file, b.p ? b.p : (uint8_t *)"", b.n, err, sizeof(err));
    free(b.p);
    return rc ? pbc_usage_error("triage: %s", err) : PBC_EXIT_PASS;
}

/* --jobs N: N-1 more pbcheck processes (this command again, each with
 * --slice) replay their shares with workers of their own, while this
 * process replays its share; their findings come back through files. */
static void tri_replay_parallel(tri_ctx *c, pbc_triage_run *r, char **argv, int argc, uint32_t jobs, const char *out,
                                pbc_progress *progress)
{
    uint32_t *distinct = pbc_xmalloc((r->input_count ? r->input_count : 1) * sizeof(*distinct));
    uint32_t nd = tri_distinct(r, distinct);
    if (jobs > nd)
        jobs = nd ? nd : 1;
    char self[] = PBC_SELF_EXE;
    pbc_child *kids = pbc_xcalloc(jobs, sizeof(*kids));
    char **files = pbc_xcalloc(jobs, sizeof(*files)), **slices = pbc_xcalloc(jobs, sizeof(*slices));
    char **kid_argv = pbc_xcalloc((size_t)argc + 7, sizeof(*kid_argv));
    kid_argv[0] = self;
    for (int i = 0; i < argc; i++)
        kid_argv[1 + i] = argv[i];
    for (uint32_t j = 1; j < jobs; j++) {
        files[j] = pbc_xprintf("%s/.triage-slice-%u-%ld", out, j, (long)getpid());
        slices[j] = pbc_xprintf("%u/%u", j, jobs);
        kid_argv[argc + 1] = "--slice";
        kid_argv[argc + 2] = slices[j];
        kid_argv[argc + 3] = "--slice-out";
        kid_argv[argc + 4] = files[j];
        kid_argv[argc + 5] = NULL;
        pbc_child_spec spec = {.argv = kid_argv, .output = NULL};
        char err[256];
        if (pbc_child_start(&kids[j], &spec, err, sizeof(err)))
            fprintf(stderr, "pbcheck: triage: %s (its share runs here)\n", err);
        else
            pbc_iso_own_child(kids[j].pid, 1); /* not swept away when one of this process's workers dies */
    }
    for (uint32_t k = 0; k < nd; k += jobs) {
        tri_replay(c, &r->inputs[distinct[k]], r->repeat);
        pbc_progress_tick(progress, k + 1, nd, 0, -1, r->inputs[distinct[k]].path);
    }
    for (uint32_t j = 1; j < jobs; j++) {
        char *data = NULL, err[PBC_CLI_ERR_SIZE];
        size_t n = 0;
        pid_t kid = kids[j].pid;
        int status = kid ? pbc_child_wait(&kids[j]) : -1;
        pbc_iso_own_child(kid, 0);
        if (kid && status == 0 &&
            pbc_fs_read(files[j], 1u << 30, &data, &n, err, sizeof(err)) == 0) {
            pbc_wire_reader rd = {(const uint8_t *)data, n, 0};
            /* Each finding names its input: one the other process found
             * differently (the folder changed meanwhile) is not taken, and
             * whatever no finding covers is replayed here below. */
            while (rd.at < rd.n) {
                uint32_t i = pbc_wire_get_u32(&rd);
                char *path = pbc_wire_get_str(&rd);
                size_t got;
                uint8_t *fb = pbc_wire_get_bytes(&rd, &got);
                uint32_t runs = pbc_wire_get_u32(&rd), agree = pbc_wire_get_u32(&rd);
                char *message = pbc_wire_get_str(&rd);
                tri_input *x = i < r->input_count ? &r->inputs[i] : NULL;
                if (x && path && !strcmp(path, x->path) && fb && got == sizeof(x->facts) && !x->runs && !x->unread &&
                    x->first == (int)i) {
                    memcpy(&x->facts, fb, sizeof(x->facts));
                    char text[640];
                    x->sig = pbc_triage_signature(&x->facts, text, sizeof(text));
                    x->runs = runs;
                    x->agree = agree;
                    x->message = message;
                    message = NULL;
                }
                free(path);
                free(fb);
                free(message);
            }
        } else {
            fprintf(stderr, "pbcheck: triage: process %u of --jobs ended without its findings: its share runs here\n",
                    j);
        }
        free(data);
        unlink(files[j]);
        free(files[j]);
        free(slices[j]);
    }
    free(kid_argv);
    free(slices);
    free(files);
    free(kids);
    free(distinct);
    (void)c;
}

/* Whether a class is worth a reproducer: it fails, and a candidate that
 * hangs does not cost the time limit each try. */
static int minimizable(uint32_t cls)
{
    return cls == PBC_TRIAGE_SANITIZER || cls == PBC_TRIAGE_CRASH || cls == PBC_TRIAGE_DIVERGE ||
           cls == PBC_TRIAGE_RULE || cls == PBC_TRIAGE_EXIT || cls == PBC_TRIAGE_HARNESS;
}

/* Delta debugging at the operation level and inside operations
 * (pbc_triage_simplify): a candidate is kept when it is valid and fails
 * with the same signature. */
/* Whether an input's bytes (replayed as the input is) still fail with
 * the bucket's signature: the byte-level fallback's test. */
typedef struct tri_bytes_ctx {
    tri_ctx *c;
    tri_bucket *b;
    const char *name;
} tri_bytes_ctx;

static int tri_still_bytes(void *ctx, const uint8_t *bytes, size_t n)
{
    tri_bytes_ctx *t = ctx;
    pbc_triage_facts f;
    char *report = NULL, text[640];
    tri_ask(t->c, JOB_BYTES, t->name, bytes, n, &f, &report);
    int same = pbc_triage_signature(&f, text, sizeof(text)) == t->b->sig;
    if (same) {
        free(t->b->report);
        t->b->report = report;
    } else {
        free(report);
    }
    return same;
}

/* The byte-level fallback: delta debugging on the input's bytes. */
static void tri_minimize_bytes(tri_ctx *c, tri_bucket *b, const tri_input *x)
{
    tri_bytes_ctx t = {c, b, x->path};
    b->repro_bin = pbc_xmalloc(x->len ? x->len : 1);
    memcpy(b->repro_bin, x->bytes, x->len);
    b->repro_bin_len = x->len;
    b->min_runs += pbc_triage_ddmin(b->repro_bin, &b->repro_bin_len, tri_still_bytes, &t,
                                    b->min_runs < TRI_MIN_RUNS ? TRI_MIN_RUNS - b->min_runs : 0);
}

static void tri_minimize(tri_ctx *c, tri_bucket *b, const tri_input *x)
{
    pbc_scenario cur;
    char why[512];
    if (tri_load(c->t, x->path, x->bytes, x->len, 0, &cur, why, sizeof(why))) {
        tri_minimize_bytes(c, b, x);
        return;
    }
    /* The scenario printed as text must fail the same way before it is
     * shrunk as a scenario; if it does not, the bytes are. */
    {
        char *text = pbc_scenario_print(&cur), *report = NULL, sig_text[640];
        pbc_triage_facts f;
        tri_ask(c, JOB_TEXT, "printed", (const uint8_t *)text, strlen(text), &f, &report);
        free(text);
        free(report);
        b->min_runs++;
        if (pbc_triage_signature(&f, sig_text, sizeof(sig_text)) != b->sig) {
            pbc_scenario_fini(&cur);
            tri_minimize_bytes(c, b, x);
            return;
        }
    }
    double started = pbc_cli_now();
    for (uint32_t k = 0; b->min_runs < TRI_MIN_RUNS && pbc_cli_now() - started < TRI_MIN_SECONDS;) {
        pbc_scenario cand;
        if (pbc_triage_simplify(&cur, k, &cand))
            break;
        if (pbc_scenario_validate(&cand, why, sizeof(why))) {
            pbc_scenario_fini(&cand);
            k++;
            continue;
        }
        char *text = pbc_scenario_print(&cand);
        pbc_triage_facts f;
        char *report = NULL;
        tri_ask(c, JOB_TEXT, "candidate", (const uint8_t *)text, strlen(text), &f, &report);
        b->min_runs++;
        char sig_text[640];
        if (pbc_triage_signature(&f, sig_text, sizeof(sig_text)) == b->sig) {
            pbc_scenario_fini(&cur);
            cur = cand; /* smaller: its candidates start afresh at the same place */
            free(b->report);
            b->report = report;
        } else {
            pbc_scenario_fini(&cand);
            free(report);
            k++;
        }
        free(text);
    }
    free(b->repro);
    b->repro = pbc_scenario_print(&cur);
    b->repro_ops = cur.op_count;
    pbc_scenario_fini(&cur);
}

/* Who wrote a divergence's first wrong byte (or a GPU fault's address):
 * the bucket's reproducer replayed in the worker with a store watch
 * (exec/attribute.h). The store's FILE:LINE becomes the bucket's
 * location and root cause. */
static void tri_attribute(tri_ctx *c, tri_bucket *b)
{
    pbc_wire_buf job = {0};
    pbc_wire_put_u32(&job, JOB_ATTRIBUTE);
    pbc_wire_put_str(&job, "repro");
    pbc_wire_put_bytes(&job, b->repro, strlen(b->repro));
    pbc_iso_result r;
    if (c->iso) {
        pbc_iso_run(c->iso, job.p, job.n, &r);
    } else {
        memset(&r, 0, sizeof(r));
        r.answer = tri_job(c, job.p, job.n, &r.answer_len);
        r.cls = PBC_ISO_OK;
    }
    free(job.p);
    if (r.cls == PBC_ISO_OK) {
        pbc_wire_reader in = {r.answer, r.answer_len, 0, 0};
        char *text = pbc_wire_get_text(&in, 0), *where = pbc_wire_get_text(&in, 0);
        if (!pbc_wire_done(&in)) {
            pbc_iso_reject(c->iso, &r, "not a last writer");
        } else if (text && text[0]) {
            b->last_writer = pbc_xstrdup(text);
            char *report = pbc_xprintf("%s\n  %s", b->report ? b->report : "", text);
            free(b->report);
            b->report = report;
            if (where && where[0]) {
                snprintf(b->writer_at, sizeof(b->writer_at), "%s", where);
                snprintf(b->facts.location, sizeof(b->facts.location), "%s", where);
            }
        }
        free(text);
        free(where);
    }
    pbc_iso_result_fini(&r);
}

/* ---- The verb ---- */

static const char triage_about[] =
    "Replays failing inputs in isolated workers (each several times, to see how\n"
    "reliably it fails), classifies each (rule, divergence, sanitizer report,\n"
    "crash, exit, timeout, out of memory, harness bug, no reproduction), groups\n"
    "them by a stable signature into buckets, worst first, and minimizes each\n"
    "bucket's first input to a short text scenario that fails the same way.\n"
    "INPUT is any mix of files and folders: libFuzzer artifacts (crash-*,\n"
    "timeout-*, oom-*, leak-*), AFL++ output folders (crashes/, hangs/, with\n"
    "-M/-S sub-folders; queue/ is left out), ClusterFuzzLite/OSS-Fuzz testcases,\n"
    "binary and text scenarios. Writes DIR/triage.html (open it in a browser),\n"
    "DIR/triage.md, DIR/triage.json, DIR/triage.sarif and DIR/buckets/ID/ (the\n"
    "inputs, repro.pbs, report.txt).\n"
    "--join compares with a previous triage: each bucket new or known, and\n"
    "the buckets gone. --promote ID (with --out naming a finished triage)\n"
    "copies that bucket's reproducer into the regression corpus, which CTest\n"
    "replays (docs/triage.md).";

static int failing_bucket(const tri_bucket *b)
{
    return b->facts.cls != PBC_TRIAGE_NO_REPRO && b->facts.cls != PBC_TRIAGE_INVALID;
}

int pbc_cmd_triage(int argc, char **argv)
{
    const char *target = NULL, *out = "triage-out", *join = NULL, *promote_id = NULL, *to = NULL;
    uint64_t repeat = 3, jobs = 1;
    const char *slice = NULL, *slice_out = NULL, *source_root = ".";
    int no_fork = 0;
    double timeout = 20;
    uint64_t memory = PBC_DEFAULT_MEMORY_LIMIT;
    const pbc_opt opts[] = {
        {"target", PBC_OPT_STRING, &target, "NAME", "a builder from 'pbcheck list targets'", 0, 0,
         "none: it must be given", "builder the inputs failed on (a name, or LIB.so)"},
        {"out", PBC_OPT_STRING, &out, "DIR", "a folder", 0, 0, "triage-out",
         "where triage.html, triage.md, triage.json, triage.sarif\nand buckets/ go"},
        {"repeat", PBC_OPT_NUMBER, &repeat, "N", "a number", 1, 20, "3",
         "replays of each input; one that does not fail the same way\nevery time is marked flaky"},
        {"jobs", PBC_OPT_NUMBER, &jobs, "N", "a number", 1, 64, "1",
         "replay in N processes, each with its own worker"},
        {"join", PBC_OPT_STRING, &join, "PREVIOUS", "a triage folder", 0, 0, "none",
         "mark each bucket new or known against a previous triage,\nand list the buckets gone"},
        {"promote", PBC_OPT_STRING, &promote_id, "BUCKET", "a bucket id or signature", 0, 0, "none",
         "copy that bucket of the triage in --out into the regression\ncorpus (--to) and stop"},
        {"to", PBC_OPT_STRING, &to, "DIR", "a folder", 0, 0, "corpus/regressions if it exists here",
         "the regression corpus --promote writes into (created if\nmissing); needed where ./corpus/regressions is not"},
        {"source-root", PBC_OPT_STRING, &source_root, "DIR", "a folder", 0, 0, "the current folder",
         "the builder's repository: triage.sarif gives source locations\nunder it relative to it (SRCROOT)"},
        PBC_ISOLATION_OPTS(no_fork, timeout, memory, "20"),
        /* --jobs N runs this command N-1 more times with these. */
        {"slice", PBC_OPT_STRING, &slice, "J/N", "J/N", 0, 0, "none", "", 1},
        {"slice-out", PBC_OPT_STRING, &slice_out, "FILE", "a file", 0, 0, "none", "", 1},
        {NULL},
    };
    const pbc_verb_spec spec = {
        .name = "triage",
        .synopsis = "INPUT... --target NAME|LIB.so [OPTIONS]",
        .about = triage_about,
        .example = "pbcheck triage fuzz-out/mutant-trunc32/artifacts --target mutant-trunc32 --out triage",
        .footer = "exit: 0 nothing failed; 1 at least one bucket fails (or is a harness bug);\n"
                  "      2 usage error, an INPUT that does not exist, a --join triage that cannot\n"
                  "      be read, or reports that cannot be written (files found in folders that\n"
                  "      cannot be read are counted invalid, not an error)",
        .opts = opts,
    };
    pbc_cli_args args;
    int rc = pbc_cli_parse(&spec, argc, argv, &args);
    if (rc != PBC_CLI_GO)
        return rc;
    char err[PBC_CLI_ERR_SIZE];
    if (promote_id) {
        pbc_cli_args_fini(&args);
        /* Never a corpus made up where the command happens to run: the
         * default is the one of the tree it runs in, when there is one. */
        struct stat st;
        if (!to && (stat("corpus/regressions", &st) || !S_ISDIR(st.st_mode)))
            return pbc_usage_error("triage: --promote: there is no corpus/regressions here: name the regression "
                                   "corpus with --to DIR");
        char *dst = pbc_triage_promote(out, promote_id, to ? to : "corpus/regressions", err, sizeof(err));
        if (!dst)
            return pbc_usage_error("triage: --promote: %s", err);
        char *real = realpath(dst, NULL);
        printf("triage: bucket %s promoted to %s\n", promote_id, real ? real : dst);
        free(real);
        free(dst);
        return PBC_EXIT_PASS;
    }
    if (!target || !args.count) {
        pbc_cli_args_fini(&args);
        return pbc_usage_error("triage: needs INPUT... and --target (try 'pbcheck triage --help')");
    }
    tri_ctx c = {.target_arg = target};
    int unusable = PBC_EXIT_USAGE;
    c.t = pbc_cli_target("triage", target, timeout, memory, NULL, &unusable);
    if (!c.t) {
        pbc_cli_args_fini(&args);
        return unusable;
    }
    if (no_fork)
        pbc_exec_targets_load_here(); /* asked for: the builder runs in this process */
    if (join && !slice) { /* a previous triage that cannot be read is said before the work, not after */
        pbc_triage_run probe = {0};
        if (pbc_triage_join(&probe, join, err, sizeof(err))) {
            pbc_cli_args_fini(&args);
            return pbc_usage_error("triage: %s", err);
        }
        pbc_triage_run_fini(&probe);
    }
    /* For triage.sarif: the command as given, locations under --source-root. */
    const char **command = pbc_xcalloc((size_t)argc + 2, sizeof(*command));
    command[0] = "pbcheck";
    memcpy(command + 1, argv, (size_t)argc * sizeof(*command));
    pbc_triage_run run = {.target = target, .version = pbc_cli_version(), .repeat = (uint32_t)repeat,
                          .argv = command, .source_root = source_root};
    int bad = 0;
    tri_walk w = {0};
    for (int i = 0; i < args.count; i++)
        bad |= collect(&run, args.pos[i], &w);
    free(w.dev);
    free(w.ino);
    if (bad || !run.input_count || (!slice && pbc_fs_mkdirs(out, err, sizeof(err)))) {
        if (!bad)
            fprintf(stderr, "pbcheck: triage: %s\n", run.input_count ? err : "no input found in what was given");
        pbc_cli_args_fini(&args);
        pbc_triage_run_fini(&run);
        free(command);
        return PBC_EXIT_USAGE;
    }
    pbc_runner_init(&c.runner);
    /* A fresh worker for every replay: what a builder keeps in static
     * state from one replay must not decide the next (batch 1). */
    c.limits = (pbc_iso_limits){timeout, memory, 1, PBC_ISO_CAPTURE_ALL};
    c.iso = no_fork ? NULL : pbc_iso_create(&c.limits, tri_job, &c);
    if (c.iso)
        pbc_iso_catch_signals(NULL); /* a builder's signal fails its input; the user's ends the run */
    if (slice) { /* one of the processes of --jobs: its share, into a file */
        rc = tri_slice(&c, &run, slice, slice_out);
        pbc_iso_destroy(c.iso);
        pbc_runner_fini(&c.runner);
        pbc_cli_args_fini(&args);
        pbc_triage_run_fini(&run);
        free(command);
        return rc;
    }
    double started = pbc_cli_now();
    pbc_progress progress;
    pbc_progress_begin(&progress, "triage");
    if (jobs > 1) {
        tri_replay_parallel(&c, &run, argv, argc, (uint32_t)jobs, out, &progress);
        progress.what = "triage: bucketing";
    }
    pbc_cli_args_fini(&args);
    uint32_t failing = 0;
    for (uint32_t i = 0; i < run.input_count; i++) {
        tri_input *x = &run.inputs[i];
        if (x->first == (int)i && !x->runs && !x->unread)
            tri_replay(&c, x, run.repeat);
        const tri_input *f = &run.inputs[x->first];
        x->bucket = pbc_triage_bucket_of(&run, &f->facts);
        tri_bucket *bk = &run.buckets[x->bucket];
        PBC_PUSH(bk->members, bk->count, bk->cap, i);
        bk->flaky += f->agree != f->runs;
        failing += f->facts.cls != PBC_TRIAGE_NO_REPRO && f->facts.cls != PBC_TRIAGE_INVALID;
        pbc_progress_tick(&progress, i + 1, run.input_count, failing, -1, x->path);
    }
    pbc_triage_sort(&run);
    progress.what = "triage: minimizing";
    for (uint32_t i = 0; i < run.bucket_count; i++) {
        tri_bucket *b = &run.buckets[i];
        const tri_input *x = &run.inputs[run.inputs[b->members[0]].first];
        b->report = pbc_xstrdup(x->message ? x->message : "");
        if (minimizable(b->facts.cls))
            tri_minimize(&c, b, x);
        if (b->repro && (b->facts.cls == PBC_TRIAGE_DIVERGE ||
                         (b->facts.cls == PBC_TRIAGE_RULE && pbc_attribution_wanted(b->facts.rule))))
            tri_attribute(&c, b);
        pbc_progress_tick(&progress, i + 1, run.bucket_count, 0, -1, b->title);
    }
    pbc_triage_sort(&run); /* root causes again, by the stores found */
    pbc_progress_end(&progress);
    run.seconds = pbc_cli_now() - started;
    if (join && pbc_triage_join(&run, join, err, sizeof(err)))
        rc = pbc_usage_error("triage: %s", err);
    else if (pbc_triage_write(&run, out, err, sizeof(err)))
        rc = pbc_usage_error("triage: %s", err);
    int any_fail = 0;
    for (uint32_t i = 0; i < run.bucket_count; i++) {
        const tri_bucket *b = &run.buckets[i];
        printf("%s  %-5s %4u input%s%s  %s%s%s\n", b->id, b->status ? b->status : "", b->count,
               b->count == 1 ? " " : "s", b->flaky ? " (flaky)" : "", b->title,
               b->repro || b->repro_bin ? "  -> " : "", b->repro ? "repro.pbs" : b->repro_bin ? "repro.bin" : "");
        any_fail |= failing_bucket(b);
    }
    for (uint32_t i = 0; i < run.gone_count; i++)
        printf("gone        %s (%lld inputs then)\n", run.gone[i].title, run.gone[i].count);
    uint32_t distinct = 0;
    for (uint32_t i = 0; i < run.input_count; i++)
        distinct += run.inputs[i].first == (int)i;
    uint32_t causes = 0;
    for (uint32_t k = 0; k < run.root_count; k++)
        causes += failing_bucket(&run.buckets[run.roots[k].first]);
    for (uint32_t k = 0; k < run.root_count && run.bucket_count > run.root_count; k++)
        if (run.roots[k].buckets > 1)
            printf("%s  root cause of %u buckets: %s\n", run.roots[k].id, run.roots[k].buckets, run.roots[k].title);
    printf("triage %s: %u inputs (%u distinct) in %u buckets, %u failing root cause%s, in %.1f s (report: %s/triage.html)\n",
           c.t->name, run.input_count, distinct, run.bucket_count, causes, causes == 1 ? "" : "s", run.seconds, out);
    if (rc == PBC_CLI_GO)
        rc = any_fail ? PBC_EXIT_FAIL : PBC_EXIT_PASS;
    pbc_decoder_audit_result audit;
    if (!pbc_exec_decoder_audit(&audit)) { /* what this process's workers asked (not --jobs' others) */
        printf("FAIL  triage  the ISA description (its decoder process)\n  %s\n", audit.finding);
        if (rc == PBC_EXIT_PASS)
            rc = PBC_EXIT_FAIL;
    }
    pbc_iso_destroy(c.iso);
    pbc_runner_fini(&c.runner);
    pbc_triage_run_fini(&run);
    free(command);
    return rc;
}
