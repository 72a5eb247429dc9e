/*
 * pbcheck triage: from a pile of failing inputs (fuzzer artifacts, AFL++
 * output folders, OSS-Fuzz testcases, scenarios) to a handful of buckets,
 * each with its cause, a minimized readable reproducer, and reports
 * (docs/triage.md).
 *
 * Every input is replayed in a worker process (harness/exec/isolate.h)
 * several times; the replays give its class and signature
 * (harness/report/triage.h); inputs with one signature form a bucket. Each
 * bucket's first input is minimized, candidate by candidate, each
 * candidate run in the worker too: a builder that crashes or hangs on a
 * candidate costs that candidate.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <xxhash.h>

#include "base/fs.h"
#include "base/util.h"
#include "cli.h"
#include "exec/isolate.h"
#include "exec/target.h"
#include "progress.h"
#include "report/text.h"
#include "report/triage.h"
#include "report/triage_html.h"

#define TRI_INPUT_MAX (1u << 20)
#define TRI_MIN_RUNS 400u     /* candidate runs one bucket's minimization may take */
#define TRI_MIN_SECONDS 120.0 /* and seconds */

typedef struct tri_input {
    char *path;
    const char *origin; /* "libfuzzer-crash", "afl-hang", "text", ... */
    uint8_t *bytes;
    size_t len;
    uint64_t hash;
    int first; /* the first input with the same bytes (itself when none) */
    uint32_t runs, agree; /* replays, and how many gave its signature */
    pbc_triage_facts facts;
    uint64_t sig;
    char *message; /* the first replay's report */
    int bucket;
} tri_input;

typedef struct tri_bucket {
    uint64_t sig;
    char sig_text[640];
    pbc_triage_facts facts;
    char title[300];
    int severity;
    uint32_t *members;
    uint32_t count, cap;
    uint32_t flaky;    /* members that gave another signature on some replay */
    char *repro;       /* minimized scenario text, NULL when none could be made */
    uint8_t *repro_bin; /* or the input's bytes minimized, when it is not a scenario that fails so */
    size_t repro_bin_len;
    uint32_t repro_ops;
    uint32_t min_runs; /* candidate runs the minimization took */
    char *report;      /* the minimized reproducer's report (or the input's) */
    char id[16];
    const char *status; /* --join: "new" or "known"; NULL without --join */
} tri_bucket;

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
    if (strstr(path, "/crashes/") && !strncmp(base, "id:", 3))
        return "afl-crash";
    if (strstr(path, "/hangs/") && !strncmp(base, "id:", 3))
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

typedef struct tri_inputs {
    tri_input *items;
    uint32_t count, cap;
} tri_inputs;

static int add_input(tri_inputs *in, const char *path)
{
    char *data, err[PBC_CLI_ERR_SIZE];
    size_t n;
    if (pbc_fs_read(path, TRI_INPUT_MAX, &data, &n, err, sizeof(err))) {
        /* Counted, not dropped: an input no fuzz target would run. */
        fprintf(stderr, "pbcheck: triage: %s (counted as invalid)\n", err);
        tri_input x = {.path = pbc_xstrdup(path), .origin = origin_of(path), .bytes = (uint8_t *)pbc_xstrdup(""),
                       .hash = XXH3_64bits(path, strlen(path)), .first = (int)in->count, .bucket = -1,
                       .runs = 1, .agree = 1, .message = pbc_xstrdup(err)};
        x.facts.cls = PBC_TRIAGE_INVALID;
        PBC_PUSH(in->items, in->count, in->cap, x);
        return 0;
    }
    tri_input x = {.path = pbc_xstrdup(path), .origin = origin_of(path), .bytes = (uint8_t *)data, .len = n,
                   .hash = XXH3_64bits(data, n), .bucket = -1};
    x.first = (int)in->count;
    for (uint32_t i = 0; i < in->count; i++)
        if (in->items[i].hash == x.hash && in->items[i].len == n && !memcmp(in->items[i].bytes, data, n)) {
            x.first = (int)i;
            break;
        }
    PBC_PUSH(in->items, in->count, in->cap, x);
    return 0;
}

/* Files under path (a file, or a folder walked in name order). */
static int collect(tri_inputs *in, const char *path)
{
    struct stat st;
    if (stat(path, &st)) {
        fprintf(stderr, "pbcheck: triage: cannot read %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode))
        return add_input(in, path);
    struct dirent **names;
    int n = scandir(path, &names, NULL, alphasort);
    if (n < 0) {
        fprintf(stderr, "pbcheck: triage: cannot read %s: %s\n", path, strerror(errno));
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < n; i++) {
        char *sub = pbc_xprintf("%s/%s", path, names[i]->d_name);
        struct stat ss;
        int is_dir = stat(sub, &ss) == 0 && S_ISDIR(ss.st_mode);
        if (!skip_name(names[i]->d_name, is_dir) && (is_dir || S_ISREG(ss.st_mode)))
            rc |= collect(in, sub);
        free(sub);
        free(names[i]);
    }
    free(names);
    return rc;
}

/* ---- Replays in the worker ---- */

enum { JOB_BYTES = 1, JOB_TEXT = 2 };

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
    if (pbc_scenario_check_limits(s, why, why_size, &line)) {
        pbc_scenario_fini(s);
        return -1;
    }
    return 0;
}

static uint8_t *tri_job(void *ctx, const uint8_t *job, size_t len, size_t *answer_len)
{
    tri_ctx *c = ctx;
    pbc_iso_reader in = {job, len, 0};
    uint32_t kind = pbc_iso_get_u32(&in);
    char *name = pbc_iso_get_str(&in);
    size_t n;
    uint8_t *bytes = pbc_iso_get_bytes(&in, &n);
    pbc_scenario s;
    char why[512];
    pbc_triage_facts f;
    pbc_iso_buf out = {0};
    if (tri_load(c->t, name ? name : "input", bytes ? bytes : (const uint8_t *)"", n, kind == JOB_TEXT, &s, why,
                 sizeof(why))) {
        memset(&f, 0, sizeof(f));
        f.cls = PBC_TRIAGE_INVALID;
        pbc_iso_put_bytes(&out, &f, sizeof(f));
        pbc_iso_put_str(&out, why);
    } else {
        pbc_run_options o = {.check_determinism = 1};
        pbc_outcome res;
        pbc_runner_run(&c->runner, &s, c->t, &o, &res);
        pbc_triage_from_outcome(&res, &s, &f);
        pbc_iso_put_bytes(&out, &f, sizeof(f));
        pbc_iso_put_str(&out, res.message);
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
    pbc_iso_buf job = {0};
    pbc_iso_put_u32(&job, kind);
    pbc_iso_put_str(&job, name);
    pbc_iso_put_bytes(&job, bytes, n);
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
    if (r.cls == PBC_ISO_OK) {
        pbc_iso_reader in = {r.answer, r.answer_len, 0};
        size_t got;
        uint8_t *fb = pbc_iso_get_bytes(&in, &got);
        if (!fb || got != sizeof(*f))
            pbc_harness_bug("a triage worker's answer is %zu bytes, not %zu", got, sizeof(*f));
        memcpy(f, fb, sizeof(*f));
        free(fb);
        *report = pbc_iso_get_str(&in);
    } else {
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
    for (uint32_t r = 0; r < repeat; r++) {
        char *report = NULL, text[640];
        tri_ask(c, JOB_BYTES, x->path, x->bytes, x->len, &facts[r], &report);
        sigs[r] = pbc_triage_signature(&facts[r], text, sizeof(text));
        if (r == 0)
            x->message = report;
        else
            free(report);
        /* A hang or a runaway allocation costs the whole limit each time:
         * once is enough to class it. */
        if (r == 0 && (facts[0].cls == PBC_TRIAGE_TIMEOUT || facts[0].cls == PBC_TRIAGE_OOM))
            repeat = 1;
    }
    uint32_t best = 0, best_n = 0;
    for (uint32_t r = 0; r < repeat; r++) {
        uint32_t same = 0;
        for (uint32_t q = 0; q < repeat; q++)
            same += sigs[q] == sigs[r];
        if (same > best_n || (same == best_n && pbc_triage_severity(&facts[r]) < pbc_triage_severity(&facts[best]))) {
            best = r;
            best_n = same;
        }
    }
    x->facts = facts[best];
    x->sig = sigs[best];
    x->runs = repeat;
    x->agree = best_n;
}

/* --jobs N: processes 1..N-1 each replay every N-th distinct input with
 * a worker of their own and hand back what they found through a file;
 * this process takes its share meanwhile. Returns how many helpers ran. */
static uint32_t tri_replay_parallel(tri_ctx *c, tri_inputs *in, uint32_t repeat, uint32_t jobs, const char *out,
                                    pbc_progress *progress)
{
    uint32_t *distinct = pbc_xmalloc((in->count ? in->count : 1) * sizeof(*distinct)), nd = 0;
    for (uint32_t i = 0; i < in->count; i++)
        if (in->items[i].first == (int)i)
            distinct[nd++] = i;
    if (jobs > nd)
        jobs = nd ? nd : 1;
    pid_t *pids = pbc_xcalloc(jobs, sizeof(*pids));
    char **files = pbc_xcalloc(jobs, sizeof(*files));
    fflush(NULL);
    for (uint32_t j = 1; j < jobs; j++) {
        files[j] = pbc_xprintf("%s/.triage-job-%u", out, j);
        pids[j] = fork();
        if (pids[j] == 0) {
            /* The parent's worker stays the parent's: a worker of its own. */
            c->iso = c->iso ? pbc_iso_create(&c->limits, tri_job, c) : NULL;
            pbc_iso_buf b = {0};
            for (uint32_t k = j; k < nd; k += jobs) {
                tri_input *x = &in->items[distinct[k]];
                tri_replay(c, x, repeat);
                pbc_iso_put_u32(&b, distinct[k]);
                pbc_iso_put_bytes(&b, &x->facts, sizeof(x->facts));
                pbc_iso_put_u32(&b, x->agree);
                pbc_iso_put_str(&b, x->message);
            }
            char err[PBC_CLI_ERR_SIZE];
            int rc = pbc_fs_write_atomic(files[j], b.p ? b.p : (uint8_t *)"", b.n, err, sizeof(err));
            pbc_iso_destroy(c->iso);
            _exit(rc ? 3 : 0);
        }
    }
    for (uint32_t k = 0; k < nd; k += jobs) {
        tri_replay(c, &in->items[distinct[k]], repeat);
        pbc_progress_tick(progress, k + 1, nd, 0, -1, in->items[distinct[k]].path);
    }
    for (uint32_t j = 1; j < jobs; j++) {
        int status = 0;
        waitpid(pids[j], &status, 0);
        char *data = NULL, err[PBC_CLI_ERR_SIZE];
        size_t n = 0;
        if (!WIFEXITED(status) || WEXITSTATUS(status) || pbc_fs_read(files[j], 1u << 30, &data, &n, err, sizeof(err)))
            pbc_harness_bug("triage job %u ended without its results", j);
        pbc_iso_reader r = {(const uint8_t *)data, n, 0};
        while (r.at < r.n) {
            uint32_t i = pbc_iso_get_u32(&r);
            size_t got;
            uint8_t *fb = pbc_iso_get_bytes(&r, &got);
            if (i >= in->count || !fb || got != sizeof(pbc_triage_facts))
                pbc_harness_bug("triage job %u's results are garbled", j);
            tri_input *x = &in->items[i];
            memcpy(&x->facts, fb, sizeof(x->facts));
            free(fb);
            char text[640];
            x->sig = pbc_triage_signature(&x->facts, text, sizeof(text));
            x->agree = pbc_iso_get_u32(&r);
            x->runs = repeat;
            x->message = pbc_iso_get_str(&r);
        }
        free(data);
        unlink(files[j]);
        free(files[j]);
    }
    free(files);
    free(pids);
    free(distinct);
    return jobs - 1;
}

/* ---- Buckets ---- */

static int bucket_of(tri_bucket **b, uint32_t *count, uint32_t *cap, const pbc_triage_facts *f)
{
    char text[640];
    uint64_t sig = pbc_triage_signature(f, text, sizeof(text));
    for (uint32_t i = 0; i < *count; i++)
        if ((*b)[i].sig == sig)
            return (int)i;
    tri_bucket nb;
    memset(&nb, 0, sizeof(nb));
    nb.sig = sig;
    snprintf(nb.sig_text, sizeof(nb.sig_text), "%s", text);
    nb.facts = *f;
    nb.severity = pbc_triage_severity(f);
    pbc_triage_title(f, nb.title, sizeof(nb.title));
    PBC_PUSH(*b, *count, *cap, nb);
    return (int)*count - 1;
}

static int bucket_order(const void *pa, const void *pb)
{
    const tri_bucket *a = pa, *b = pb;
    if (a->severity != b->severity)
        return a->severity - b->severity;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return a->sig < b->sig ? -1 : a->sig > b->sig;
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

/* ---- Outputs ---- */

static char *hex64(uint64_t v) { return pbc_xprintf("%016" PRIx64, v); }

static int write_text(const char *dir, const char *name, const char *text, char *err, size_t err_size)
{
    char *path = pbc_xprintf("%s/%s", dir, name);
    int rc = pbc_fs_write_atomic(path, text, strlen(text), err, err_size);
    free(path);
    return rc;
}

/* The command that replays a bucket's reproducer. */
static char *replay_command(const tri_ctx *c, const char *repro)
{
    const char *argv[] = {"pbcheck", "run", repro, "--target", c->target_arg, NULL};
    return pbc_report_shell_command(argv);
}

static int write_bucket(const tri_ctx *c, const char *out, tri_bucket *b, const tri_inputs *in, char *err,
                        size_t err_size)
{
    char *dir = pbc_xprintf("%s/buckets/%s", out, b->id), *inputs = pbc_xprintf("%s/inputs", dir);
    int rc = pbc_fs_mkdirs(inputs, err, err_size);
    for (uint32_t i = 0; i < b->count && !rc; i++) {
        const tri_input *x = &in->items[b->members[i]];
        if (x->first != (int)b->members[i])
            continue; /* a duplicate's bytes are there already */
        const char *base = strrchr(x->path, '/');
        char *path = pbc_xprintf("%s/%03u-%s", inputs, i, base ? base + 1 : x->path);
        rc = pbc_fs_write_atomic(path, x->bytes, x->len, err, err_size);
        free(path);
    }
    if (!rc && b->repro) {
        char *repro = pbc_xprintf("%s/repro.pbs", dir);
        char *cmd = replay_command(c, repro);
        char *sig = hex64(b->sig);
        char *text = pbc_xprintf("# %s\n# signature %s: %s\n# replay: %s\n%s", b->title, sig, b->sig_text, cmd,
                                 b->repro);
        rc = pbc_fs_write_atomic(repro, text, strlen(text), err, err_size);
        free(text);
        free(sig);
        free(cmd);
        free(repro);
    }
    if (!rc && b->repro_bin) {
        char *repro = pbc_xprintf("%s/repro.bin", dir);
        rc = pbc_fs_write_atomic(repro, b->repro_bin, b->repro_bin_len, err, err_size);
        free(repro);
    }
    if (!rc)
        rc = write_text(dir, "report.txt", b->report ? b->report : "", err, err_size);
    free(inputs);
    free(dir);
    return rc;
}

static json_t *facts_json(const pbc_triage_facts *f)
{
    json_t *o = json_object(), *frames = json_array();
    json_object_set_new(o, "class", json_string(pbc_triage_class_name(f->cls)));
    const struct {
        const char *key, *value;
    } fields[] = {{"rule", f->rule},     {"operation", f->operation}, {"region", f->region},
                  {"writer", f->writer}, {"shape", f->shape},         {"kind", f->kind},
                  {"access", f->access}, {"location", f->location}};
    for (size_t i = 0; i < PBC_ARRAY_LEN(fields); i++)
        if (fields[i].value[0])
            json_object_set_new(o, fields[i].key, json_string(fields[i].value));
    for (uint32_t i = 0; i < PBC_TRIAGE_FRAMES; i++)
        if (f->frames[i][0])
            json_array_append_new(frames, json_string(f->frames[i]));
    json_object_set_new(o, "frames", frames);
    return o;
}

typedef struct tri_gone {
    char *signature, *title;
    json_int_t count;
} tri_gone;

static json_t *triage_json(const tri_ctx *c, const tri_inputs *in, const tri_bucket *b, uint32_t nb,
                           const tri_gone *gone, uint32_t ngone, int joined, double seconds, uint32_t repeat)
{
    json_t *root = json_object(), *inputs = json_array(), *buckets = json_array();
    json_object_set_new(root, "format", json_string("pbcheck-triage"));
    json_object_set_new(root, "version", json_integer(1));
    json_object_set_new(root, "pbcheck", json_string(pbc_cli_version()));
    json_object_set_new(root, "target", json_string(c->target_arg));
    json_object_set_new(root, "repeat", json_integer(repeat));
    json_object_set_new(root, "seconds", json_real(seconds));
    for (uint32_t i = 0; i < in->count; i++) {
        const tri_input *x = &in->items[i];
        json_t *o = json_object();
        json_object_set_new(o, "path", json_string(x->path));
        json_object_set_new(o, "origin", json_string(x->origin));
        char *h = hex64(x->hash);
        json_object_set_new(o, "xxh3", json_string(h));
        free(h);
        if (x->first != (int)i)
            json_object_set_new(o, "duplicate_of", json_integer(x->first));
        json_object_set_new(o, "bucket", json_string(b[x->bucket].id));
        const tri_input *f = &in->items[x->first];
        json_object_set_new(o, "replays", json_integer(f->runs));
        json_object_set_new(o, "reproduced", json_integer(f->agree));
        json_object_set_new(o, "flaky", json_boolean(f->agree != f->runs));
        json_array_append_new(inputs, o);
    }
    for (uint32_t i = 0; i < nb; i++) {
        json_t *o = json_object(), *members = json_array();
        json_object_set_new(o, "id", json_string(b[i].id));
        char *sig = hex64(b[i].sig);
        json_object_set_new(o, "signature", json_string(sig));
        free(sig);
        json_object_set_new(o, "signature_text", json_string(b[i].sig_text));
        json_object_set_new(o, "title", json_string(b[i].title));
        json_object_set_new(o, "severity", json_integer(b[i].severity));
        json_object_set_new(o, "facts", facts_json(&b[i].facts));
        json_object_set_new(o, "count", json_integer(b[i].count));
        json_object_set_new(o, "flaky", json_integer(b[i].flaky));
        if (joined)
            json_object_set_new(o, "status", json_string(b[i].status));
        if (b[i].repro) {
            char *repro = pbc_xprintf("buckets/%s/repro.pbs", b[i].id);
            json_object_set_new(o, "repro", json_string(repro));
            json_object_set_new(o, "repro_operations", json_integer(b[i].repro_ops));
            free(repro);
        } else if (b[i].repro_bin) {
            char *repro = pbc_xprintf("buckets/%s/repro.bin", b[i].id);
            json_object_set_new(o, "repro", json_string(repro));
            json_object_set_new(o, "repro_bytes", json_integer((json_int_t)b[i].repro_bin_len));
            free(repro);
        }
        json_object_set_new(o, "minimization_runs", json_integer(b[i].min_runs));
        for (uint32_t k = 0; k < b[i].count; k++)
            json_array_append_new(members, json_string(in->items[b[i].members[k]].path));
        json_object_set_new(o, "inputs", members);
        json_array_append_new(buckets, o);
    }
    json_object_set_new(root, "inputs", inputs);
    json_object_set_new(root, "buckets", buckets);
    if (joined) {
        json_t *g = json_array();
        for (uint32_t i = 0; i < ngone; i++) {
            json_t *o = json_object();
            json_object_set_new(o, "signature", json_string(gone[i].signature));
            json_object_set_new(o, "title", json_string(gone[i].title));
            json_object_set_new(o, "count", json_integer(gone[i].count));
            json_array_append_new(g, o);
        }
        json_object_set_new(root, "gone", g);
    }
    return root;
}

/* SARIF 2.1.0: one result per bucket, at the builder's own source line
 * when a frame names one, else at the reproducer. */
static json_t *triage_sarif(const tri_ctx *c, const tri_bucket *b, uint32_t nb)
{
    json_t *root = json_object(), *runs = json_array(), *run = json_object(), *tool = json_object(),
           *driver = json_object(), *rules = json_array(), *results = json_array();
    json_object_set_new(root, "$schema", json_string("https://json.schemastore.org/sarif-2.1.0.json"));
    json_object_set_new(root, "version", json_string("2.1.0"));
    json_object_set_new(driver, "name", json_string("pbcheck"));
    json_object_set_new(driver, "version", json_string(pbc_cli_version()));
    json_object_set_new(driver, "informationUri", json_string("https://example.invalid/pbcheck/docs/triage.md"));
    for (uint32_t i = 0; i < nb; i++) {
        const char *rule_id = b[i].facts.rule[0] ? b[i].facts.rule : pbc_triage_class_name(b[i].facts.cls);
        int seen = 0;
        for (uint32_t k = 0; k < i; k++)
            seen |= !strcmp(rule_id, b[k].facts.rule[0] ? b[k].facts.rule : pbc_triage_class_name(b[k].facts.cls));
        if (!seen) {
            json_t *r = json_object(), *desc = json_object();
            json_object_set_new(r, "id", json_string(rule_id));
            json_object_set_new(desc, "text", json_string(b[i].facts.rule[0] ? "a pbcheck rule (docs/rules.md)"
                                                                             : "a failure pbcheck's isolation saw"));
            json_object_set_new(r, "shortDescription", desc);
            json_array_append_new(rules, r);
        }
        json_t *res = json_object(), *msg = json_object(), *locs = json_array(), *loc = json_object(),
               *phys = json_object(), *art = json_object(), *region = json_object(), *fp = json_object();
        json_object_set_new(res, "ruleId", json_string(rule_id));
        json_object_set_new(res, "level", json_string(b[i].severity <= 3 ? "error" : "warning"));
        char *text = pbc_xprintf("%s (%u input%s; bucket %s)", b[i].title, b[i].count, b[i].count == 1 ? "" : "s",
                                 b[i].id);
        json_object_set_new(msg, "text", json_string(text));
        free(text);
        json_object_set_new(res, "message", msg);
        const char *where = b[i].facts.location;
        const char *colon = where[0] ? strrchr(where, ':') : NULL;
        if (where[0]) { /* the builder's source, at its line when known */
            char *file = pbc_xprintf("%.*s", colon ? (int)(colon - where) : (int)strlen(where), where);
            json_object_set_new(art, "uri", json_string(file));
            if (colon && atoi(colon + 1) > 0)
                json_object_set_new(region, "startLine", json_integer(atoi(colon + 1)));
            free(file);
        } else {
            char *repro = pbc_xprintf("buckets/%s/repro.pbs", b[i].id);
            json_object_set_new(art, "uri", json_string(repro));
            json_object_set_new(region, "startLine", json_integer(1));
            free(repro);
        }
        json_object_set_new(phys, "artifactLocation", art);
        if (json_object_size(region))
            json_object_set_new(phys, "region", region);
        else
            json_decref(region);
        json_object_set_new(loc, "physicalLocation", phys);
        json_array_append_new(locs, loc);
        json_object_set_new(res, "locations", locs);
        char *sig = hex64(b[i].sig);
        json_object_set_new(fp, "pbcheckSignature/v1", json_string(sig));
        free(sig);
        json_object_set_new(res, "partialFingerprints", fp);
        json_array_append_new(results, res);
    }
    (void)c;
    json_object_set_new(driver, "rules", rules);
    json_object_set_new(tool, "driver", driver);
    json_object_set_new(run, "tool", tool);
    json_object_set_new(run, "results", results);
    json_array_append_new(runs, run);
    json_object_set_new(root, "runs", runs);
    return root;
}

static char *triage_md(const tri_ctx *c, const tri_inputs *in, const tri_bucket *b, uint32_t nb,
                       const tri_gone *gone, uint32_t ngone, int joined)
{
    size_t cap = 4096, n = 0;
    char *s = pbc_xmalloc(cap);
#define MD(...)                                                                 \
    do {                                                                        \
        int need = snprintf(NULL, 0, __VA_ARGS__);                              \
        if (n + (size_t)need + 1 > cap) {                                       \
            cap = (n + (size_t)need + 1) * 2;                                   \
            s = pbc_xrealloc(s, cap);                                           \
        }                                                                       \
        n += (size_t)snprintf(s + n, cap - n, __VA_ARGS__);                     \
    } while (0)
    MD("# Triage of %u inputs against %s\n\n", in->count, c->target_arg);
    MD("%u bucket%s, worst first.%s\n\n", nb, nb == 1 ? "" : "s",
       joined ? " Status is against the previous triage (--join)." : "");
    MD("| bucket | %sseverity | inputs | flaky | what | reproducer |\n|---|%s---|---|---|---|---|\n",
       joined ? "status | " : "", joined ? "---|" : "");
    for (uint32_t i = 0; i < nb; i++) {
        char repro[64] = "-";
        if (b[i].repro)
            snprintf(repro, sizeof(repro), "[%u operations](buckets/%s/repro.pbs)", b[i].repro_ops, b[i].id);
        MD("| %s | %s%s%d | %u | %u | %s | %s |\n", b[i].id, joined ? b[i].status : "", joined ? " | " : "",
           b[i].severity, b[i].count, b[i].flaky, b[i].title, repro);
    }
    if (joined && ngone) {
        MD("\nGone since the previous triage:\n\n");
        for (uint32_t i = 0; i < ngone; i++)
            MD("- %s (%lld inputs then)\n", gone[i].title, (long long)gone[i].count);
    }
    for (uint32_t i = 0; i < nb; i++) {
        MD("\n## %s: %s\n\nsignature `%016" PRIx64 "`: `%s`\n", b[i].id, b[i].title, b[i].sig, b[i].sig_text);
        if (b[i].repro) {
            char *path = pbc_xprintf("buckets/%s/repro.pbs", b[i].id);
            char *cmd = replay_command(c, path);
            MD("\nReplay: `%s`\n\n```\n%s```\n", cmd, b[i].repro);
            free(cmd);
            free(path);
        } else if (b[i].repro_bin) {
            MD("\nReplay: `pbcheck replay buckets/%s/repro.bin --target %s` (%zu bytes, minimized byte by byte)\n",
               b[i].id, c->target_arg, b[i].repro_bin_len);
        }
        if (b[i].report)
            MD("\n```\n%.*s\n```\n", 3000, b[i].report);
    }
#undef MD
    return s;
}

/* Buckets of a previous triage (its folder or its triage.json) for
 * --join: known ones are marked, missing ones returned as gone. */
static int join_previous(const char *prev, tri_bucket *b, uint32_t nb, tri_gone **gone, uint32_t *ngone)
{
    struct stat st;
    char *path = stat(prev, &st) == 0 && S_ISDIR(st.st_mode) ? pbc_xprintf("%s/triage.json", prev) : pbc_xstrdup(prev);
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr);
    if (!root || !json_is_array(json_object_get(root, "buckets"))) {
        fprintf(stderr, "pbcheck: triage: --join %s: %s\n", path, root ? "no buckets in it" : jerr.text);
        json_decref(root);
        free(path);
        return -1;
    }
    free(path);
    for (uint32_t i = 0; i < nb; i++)
        b[i].status = "new";
    size_t k;
    json_t *o;
    uint32_t cap = 0;
    json_array_foreach(json_object_get(root, "buckets"), k, o)
    {
        const char *sig = json_string_value(json_object_get(o, "signature"));
        if (!sig)
            continue;
        int found = 0;
        for (uint32_t i = 0; i < nb; i++) {
            char *mine = hex64(b[i].sig);
            if (!strcmp(mine, sig)) {
                b[i].status = "known";
                found = 1;
            }
            free(mine);
        }
        if (found)
            continue;
        const char *title = json_string_value(json_object_get(o, "title"));
        tri_gone g = {pbc_xstrdup(sig), pbc_xstrdup(title ? title : "?"),
                      json_integer_value(json_object_get(o, "count"))};
        PBC_PUSH(*gone, *ngone, cap, g);
    }
    json_decref(root);
    return 0;
}

/* --promote: the bucket's reproducer into the regression corpus, with the
 * verdicts it must keep. */
static int promote(const char *out, const char *id, const char *to)
{
    char *json_path = pbc_xprintf("%s/triage.json", out), err[PBC_CLI_ERR_SIZE];
    json_error_t jerr;
    json_t *root = json_load_file(json_path, 0, &jerr);
    int rc = PBC_EXIT_USAGE;
    if (!root) {
        fprintf(stderr, "pbcheck: triage: --promote: %s: %s\n", json_path, jerr.text);
        free(json_path);
        return rc;
    }
    const char *target = json_string_value(json_object_get(root, "target"));
    size_t k;
    json_t *o, *hit = NULL;
    json_array_foreach(json_object_get(root, "buckets"), k, o)
    {
        const char *bid = json_string_value(json_object_get(o, "id")),
                   *sig = json_string_value(json_object_get(o, "signature"));
        if ((bid && !strcmp(bid, id)) || (sig && strlen(id) >= 6 && !strncmp(sig, id, strlen(id))))
            hit = o;
    }
    const char *repro = hit ? json_string_value(json_object_get(hit, "repro")) : NULL;
    size_t rlen = repro ? strlen(repro) : 0;
    if (!hit || !repro || rlen < 4 || strcmp(repro + rlen - 4, ".pbs")) {
        fprintf(stderr, "pbcheck: triage: --promote: %s\n",
                !hit    ? "no such bucket in that triage (its id or signature)"
                : repro ? "that bucket's reproducer is bytes, not a scenario: keep it with 'pbcheck replay --print'"
                        : "that bucket has no reproducer");
        json_decref(root);
        free(json_path);
        return rc;
    }
    json_t *facts = json_object_get(hit, "facts");
    const char *rule = json_string_value(json_object_get(facts, "rule")),
               *cls = json_string_value(json_object_get(facts, "class"));
    const char *sig = json_string_value(json_object_get(hit, "signature"));
    char *src = pbc_xprintf("%s/%s", out, repro), *data = NULL;
    size_t n;
    if (pbc_fs_read(src, TRI_INPUT_MAX, &data, &n, err, sizeof(err)) || pbc_fs_mkdirs(to, err, sizeof(err))) {
        fprintf(stderr, "pbcheck: triage: --promote: %s\n", err);
    } else {
        const char *tbase = strrchr(target, '/');
        tbase = tbase ? tbase + 1 : target;
        char *dst = pbc_xprintf("%s/%.*s-%.8s.pbs", to, (int)strcspn(tbase, "."), tbase, sig);
        /* The reproducer's lines, its replay command made for its new place. */
        const char *argv[] = {"pbcheck", "run", dst, "--target", target, NULL};
        char *cmd = pbc_report_shell_command(argv);
        char *text = pbc_xprintf("# expect: %s fail %s\n%s# replay: %s\n", target, rule ? rule : cls ? cls : "-",
                                 pbc_exec_target_is_path(target) ? "" : "# expect: reference pass\n", cmd);
        free(cmd);
        for (const char *line = data; *line;) {
            size_t len = strcspn(line, "\n");
            if (strncmp(line, "# replay: ", 10)) {
                char *more = pbc_xprintf("%s%.*s\n", text, (int)len, line);
                free(text);
                text = more;
            }
            line += len + (line[len] == '\n');
        }
        if (pbc_fs_write_atomic(dst, text, strlen(text), err, sizeof(err)))
            fprintf(stderr, "pbcheck: triage: --promote: %s\n", err);
        else {
            printf("triage: bucket %s promoted to %s\n", json_string_value(json_object_get(hit, "id")), dst);
            rc = PBC_EXIT_PASS;
        }
        free(text);
        free(dst);
    }
    free(data);
    free(src);
    json_decref(root);
    free(json_path);
    return rc;
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

int pbc_cmd_triage(int argc, char **argv)
{
    const char *target = NULL, *out = "triage-out", *join = NULL, *promote_id = NULL,
               *to = "corpus/regressions";
    uint64_t repeat = 3, jobs = 1;
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
        {"to", PBC_OPT_STRING, &to, "DIR", "a folder", 0, 0, "corpus/regressions",
         "the regression corpus --promote writes into"},
        PBC_ISOLATION_OPTS(no_fork, timeout, memory, "20"),
        {NULL},
    };
    const pbc_verb_spec spec = {
        .name = "triage",
        .synopsis = "INPUT... --target NAME|LIB.so [OPTIONS]",
        .about = triage_about,
        .example = "pbcheck triage fuzz-out/mutant-trunc32/artifacts --target mutant-trunc32 --out triage",
        .footer = "exit: 0 nothing failed; 1 at least one bucket fails (or is a harness bug);\n"
                  "      2 usage error or an input or report that cannot be read or written",
        .opts = opts,
    };
    pbc_cli_args args;
    int rc = pbc_cli_parse(&spec, argc, argv, &args);
    if (rc != PBC_CLI_GO)
        return rc;
    if (promote_id) {
        pbc_cli_args_fini(&args);
        return promote(out, promote_id, to);
    }
    if (!target || !args.count) {
        pbc_cli_args_fini(&args);
        return pbc_usage_error("triage: needs INPUT... and --target (try 'pbcheck triage --help')");
    }
    tri_ctx c = {.target_arg = target};
    c.t = pbc_cli_target("triage", target);
    if (!c.t) {
        pbc_cli_args_fini(&args);
        return PBC_EXIT_USAGE;
    }
    tri_inputs in = {0};
    int bad = 0;
    for (int i = 0; i < args.count; i++)
        bad |= collect(&in, args.pos[i]);
    pbc_cli_args_fini(&args);
    char err[PBC_CLI_ERR_SIZE];
    if (bad || !in.count || pbc_fs_mkdirs(out, err, sizeof(err))) {
        if (!bad)
            fprintf(stderr, "pbcheck: triage: %s\n", in.count ? err : "no input found in what was given");
        rc = PBC_EXIT_USAGE;
        goto done_inputs;
    }
    pbc_runner_init(&c.runner);
    c.limits = (pbc_iso_limits){timeout, memory, 64, PBC_ISO_CAPTURE_ALL};
    c.iso = no_fork ? NULL : pbc_iso_create(&c.limits, tri_job, &c);
    double started = pbc_cli_now();
    pbc_progress progress;
    pbc_progress_begin(&progress, "triage");
    tri_bucket *b = NULL;
    uint32_t nb = 0, bcap = 0, failing = 0;
    if (jobs > 1) {
        tri_replay_parallel(&c, &in, (uint32_t)repeat, (uint32_t)jobs, out, &progress);
        progress.what = "triage: bucketing";
    }
    for (uint32_t i = 0; i < in.count; i++) {
        tri_input *x = &in.items[i];
        if (x->first == (int)i && !x->runs)
            tri_replay(&c, x, (uint32_t)repeat);
        const tri_input *f = &in.items[x->first];
        x->bucket = bucket_of(&b, &nb, &bcap, &f->facts);
        tri_bucket *bk = &b[x->bucket];
        PBC_PUSH(bk->members, bk->count, bk->cap, i);
        bk->flaky += f->agree != f->runs;
        failing += f->facts.cls != PBC_TRIAGE_NO_REPRO && f->facts.cls != PBC_TRIAGE_INVALID;
        pbc_progress_tick(&progress, i + 1, in.count, failing, -1, x->path);
    }
    /* Sorted worst first; inputs follow their buckets to the new places. */
    uint64_t *order = pbc_xmalloc(nb * sizeof(*order));
    for (uint32_t i = 0; i < nb; i++)
        order[i] = b[i].sig;
    qsort(b, nb, sizeof(*b), bucket_order);
    for (uint32_t i = 0; i < in.count; i++)
        for (uint32_t k = 0; k < nb; k++)
            if (b[k].sig == order[in.items[i].bucket]) {
                in.items[i].bucket = (int)k;
                break;
            }
    free(order);
    progress.what = "triage: minimizing";
    for (uint32_t i = 0; i < nb; i++) {
        snprintf(b[i].id, sizeof(b[i].id), "b%03u", i + 1);
        const tri_input *x = &in.items[b[i].members[0]];
        b[i].report = pbc_xstrdup(in.items[x->first].message ? in.items[x->first].message : "");
        if (minimizable(b[i].facts.cls))
            tri_minimize(&c, &b[i], &in.items[x->first]);
        pbc_progress_tick(&progress, i + 1, nb, 0, -1, b[i].title);
    }
    pbc_progress_end(&progress);
    tri_gone *gone = NULL;
    uint32_t ngone = 0;
    if (join && join_previous(join, b, nb, &gone, &ngone))
        rc = PBC_EXIT_USAGE;
    double seconds = pbc_cli_now() - started;
    for (uint32_t i = 0; i < nb && rc == PBC_CLI_GO; i++)
        if (write_bucket(&c, out, &b[i], &in, err, sizeof(err)))
            rc = (fprintf(stderr, "pbcheck: triage: %s\n", err), PBC_EXIT_USAGE);
    if (rc == PBC_CLI_GO) {
        json_t *j = triage_json(&c, &in, b, nb, gone, ngone, join != NULL, seconds, (uint32_t)repeat);
        json_t *sarif = triage_sarif(&c, b, nb);
        char *jt = json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS), *st = json_dumps(sarif, JSON_INDENT(2));
        char *md = triage_md(&c, &in, b, nb, gone, ngone, join != NULL);
        if (write_text(out, "triage.json", jt, err, sizeof(err)) || pbc_triage_write_html(out, jt, err, sizeof(err)) ||
            write_text(out, "triage.sarif", st, err, sizeof(err)) ||
            write_text(out, "triage.md", md, err, sizeof(err)))
            rc = (fprintf(stderr, "pbcheck: triage: %s\n", err), PBC_EXIT_USAGE);
        free(jt);
        free(st);
        free(md);
        json_decref(j);
        json_decref(sarif);
    }
    int any_fail = 0;
    for (uint32_t i = 0; i < nb; i++) {
        printf("%s  %-5s %4u input%s%s  %s%s%s\n", b[i].id, b[i].status ? b[i].status : "", b[i].count,
               b[i].count == 1 ? " " : "s", b[i].flaky ? " (flaky)" : "", b[i].title, b[i].repro ? "  -> " : "",
               b[i].repro ? "repro.pbs" : "");
        any_fail |= b[i].facts.cls != PBC_TRIAGE_NO_REPRO && b[i].facts.cls != PBC_TRIAGE_INVALID;
    }
    for (uint32_t i = 0; i < ngone; i++)
        printf("gone        %s (%lld inputs then)\n", gone[i].title, (long long)gone[i].count);
    uint32_t distinct = 0;
    for (uint32_t i = 0; i < in.count; i++)
        distinct += in.items[i].first == (int)i;
    printf("triage %s: %u inputs (%u distinct) in %u buckets in %.1f s (report: %s/triage.html)\n", c.t->name,
           in.count, distinct, nb, seconds, out);
    if (rc == PBC_CLI_GO)
        rc = any_fail ? PBC_EXIT_FAIL : PBC_EXIT_PASS;
    for (uint32_t i = 0; i < ngone; i++) {
        free(gone[i].signature);
        free(gone[i].title);
    }
    free(gone);
    for (uint32_t i = 0; i < nb; i++) {
        free(b[i].members);
        free(b[i].repro);
        free(b[i].repro_bin);
        free(b[i].report);
    }
    free(b);
    pbc_iso_destroy(c.iso);
    pbc_runner_fini(&c.runner);
done_inputs:
    for (uint32_t i = 0; i < in.count; i++) {
        free(in.items[i].path);
        free(in.items[i].bytes);
        free(in.items[i].message);
    }
    free(in.items);
    return rc;
}
