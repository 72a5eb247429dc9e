/*
 * pbcheck certify: the deterministic conformance suite against one target,
 * with a per-rule table, a verdict, and reports (report.json, junit.xml,
 * summary.md, index.html) plus a minimized reproducer for every failing
 * case, in a fresh run folder (report/rundir.h). Cases run in worker
 * processes (exec/isolate.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/fs.h"
#include "base/safe.h"
#include "base/util.h"
#include "cli.h"
#include "coverage.h"
#include "progress.h"
#include "ddi/decoder.h"
#include "exec/attribute.h"
#include "exec/child.h"
#include "exec/isolate.h"
#include "exec/target.h"
#include "kernel/services.h"
#include "sandbox/sandbox.h"
#include "certify/certify.h"
#include "certify/groups.h"
#include "certify/provenance.h"
#include "certify/rundir.h"
#include "report/text.h"
#include "triage/triage.h"
#include "report/writers.h"
#include "scenario/gen.h"

static double elapsed_since(const struct timespec *t0)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

/* A random valid scenario, within the adapter the target declares; its
 * name says how to make it again. Allocations of 4 GiB come with --large
 * only, as the suite's own (a builder that fills or copies them with the
 * CPU needs more than the default memory limit). */
static void add_fuzz_case(pbc_case_list *cases, const pbc_target *t, uint64_t seed, uint32_t index, int large)
{
    pbc_rng rng = {seed * 0x100000000ull + index};
    pbc_scenario s;
    pbc_segment_info layout[PBC_MAX_SEGMENTS];
    uint32_t n = pbc_exec_target_layout(t, layout);
    for (;;) { /* the mix: PBC_CERTIFY_WHOLE_EVERY (certify.h) */
        pbc_scenario_init(&s);
        pbc_gen_scenario_in(&s, layout, n, 24, pbc_rng_choose, &rng);
        uint64_t largest = pbc_scenario_largest_alloc(&s);
        if ((index % PBC_CERTIFY_WHOLE_EVERY == PBC_CERTIFY_WHOLE_EVERY - 1 && (large || largest < (4ull << 30))) ||
            largest <= PBC_CERTIFY_RANDOM_ALLOC)
            break;
        pbc_scenario_fini(&s);
    }
    pbc_scenario_keep_supported(&s, t); /* certification covers what the target declares */
    pbc_case c;
    snprintf(c.name, sizeof(c.name), "fuzz/seed-%llu/%u", (unsigned long long)seed, index);
    c.text = pbc_scenario_print(&s);
    pbc_scenario_fini(&s);
    PBC_PUSH(cases->items, cases->count, cases->cap, c);
}

static const char certify_about[] =
    "Runs the deterministic conformance suite: every supported operation x\n"
    "paging-buffer size class (min, min+1 packet, odd, 100, 4K, 12K, 64K) x\n"
    "split count x busy/idle x address class (low, above 4 GiB, segment end) x\n"
    "MdlOffset class x size class x, for operations with an MDL, the physical\n"
    "layout of its pages (scattered; runs, contiguous, straddle-4g when idle),\n"
    "each case named like\n"
    "  transfer-mdl-to-seg/split3/dma-min/busy/high/mdloff2/odd-size\n"
    "  transfer-mdl-to-seg/split3/dma-min/idle/high/mdloff2/odd-size/phys-runs\n"
    "the same matrix for the WDDM 2.x operations (GPU virtual ranges, virtual\n"
    "transfers and fills, page-table moves, the paging fence, MapApertureSegment2,\n"
    "context allocations), with the allocation in a segment below or above\n"
    "4 GiB or in system pages, sizes beyond 2 MiB and 64 KiB pages, and ranges\n"
    "across 2 MiB leaf and 1 GiB directory lines, like\n"
    "  va-map/dma-min/busy/high/odd-size/va-across-2m\n"
    "  move-tables/staged-start/dma-min/idle/low/64k-pages/va-across-1g\n"
    "and stories that chain operations on the same allocations, like\n"
    "  story/fill-render-discard-refill/same-pattern/dma-min/busy\n"
    "then, by default, a random phase: 75,000 random valid scenarios of --seed\n"
    "(fuzz/seed-N/I), the same ones for the same version and seed, which\n"
    "report.json's provenance and summary.md name (--no-random: the suite alone).\n"
    "'pbcheck list conditions' shows how many cases reach each condition a\n"
    "builder could branch on (docs/certify-conditions.md).\n"
    "Prints progress, the rules that failed (--all-rules: every rule) with a\n"
    "total, and the verdict, and writes into a new\n"
    "run folder DIR/RUN-ID (DIR/latest links to it): index.html (open it in a\n"
    "browser), report.json, junit.xml, summary.md, and repro/CASE.pbs, a\n"
    "minimized scenario with the command that replays it for the smallest\n"
    "case of each group of cases failing the same way (--all-repros: for\n"
    "every failing case). A waivers file lists expected failures, one a line:\n"
    "  PATTERN  RULE-or-*  EXPIRES  REASON...\n"
    "e.g. 'fill/*  PB-DIVERGE  2027-03-31  vendor bug 4711' ('#' starts a\n"
    "comment; PATTERN is a glob over case names, '*' also matching '/'). A\n"
    "waived failure is reported with its reason and does not fail the run; a\n"
    "waiver past its date does (docs/report-format.md).";

/* Set by SIGINT, SIGTERM, SIGHUP or SIGQUIT (the signal's number): certify stops. */
static volatile sig_atomic_t certify_stop;

/* What a certify worker does with one job: run a case, or minimize a
 * failing one. Both happen in the worker, so a builder that crashes or
 * hangs doing either costs that job only. */
enum { JOB_RUN = 1, JOB_MINIMIZE = 2, JOB_ATTRIBUTE = 3 };

typedef struct certify_worker {
    pbc_runner runner;
    const pbc_target *t;
    pbc_iso_limits limits;
    pbc_report_repro_claims *claims; /* one reproducer per group; NULL with --all-repros */
} certify_worker;

static void parse_case(const char *name, const char *text, pbc_scenario *s)
{
    char err[512];
    if (pbc_scenario_parse(text, strlen(text), name, s, err, sizeof(err)))
        pbc_harness_bug("generated case does not parse: %s", err);
}

static uint8_t *certify_job(void *ctx, const uint8_t *job, size_t len, size_t *answer_len)
{
    certify_worker *w = ctx;
    pbc_wire_reader in = {job, len, 0};
    uint32_t kind = pbc_wire_get_u32(&in);
    char *name = pbc_wire_get_str(&in), *text = pbc_wire_get_str(&in), *rule = pbc_wire_get_str(&in);
    pbc_scenario s;
    parse_case(name, text, &s);
    pbc_wire_buf out = {0};
    if (kind == JOB_RUN) {
        pbc_run_options o = {.check_determinism = 1};
        pbc_outcome res;
        pbc_runner_run(&w->runner, &s, w->t, &o, &res);
        pbc_wire_put_u32(&out, res.verdict);
        pbc_wire_put_str(&out, res.rule);
        pbc_wire_put_str(&out, res.message);
        pbc_wire_put_str(&out, res.log);
        pbc_wire_put_u32(&out, (uint32_t)res.log_truncated);
        /* A failure's signature and title, as triage gives them ("" for
         * the rest). */
        pbc_triage_facts facts;
        char sig[640] = "", title[300] = "";
        facts.location[0] = 0;
        if (res.verdict == PBC_VERDICT_FAIL || res.verdict == PBC_VERDICT_HARNESS_BUG) {
            pbc_triage_from_outcome(&res, &s, &facts);
            pbc_triage_signature(&facts, sig, sizeof(sig));
            pbc_triage_title(&facts, title, sizeof(title));
            pbc_triage_ddi_location(w->t, &facts);
        }
        pbc_wire_put_str(&out, sig);
        pbc_wire_put_str(&out, title);
        pbc_wire_put_str(&out, facts.location);
        pbc_wire_put_str(&out, sig[0] ? facts.ddi : "");
    } else if (kind == JOB_ATTRIBUTE) {
        pbc_attribution a;
        pbc_attribute(&w->runner, &s, w->t, &a);
        pbc_wire_put_str(&out, a.text);
        pbc_wire_put_str(&out, pbc_attribution_where(&a));
    } else {
        char *m = pbc_certify_minimize(&w->runner, &s, w->t, rule ? rule : "");
        pbc_wire_put_str(&out, m);
        free(m);
    }
    pbc_scenario_fini(&s);
    free(name);
    free(text);
    free(rule);
    *answer_len = out.n;
    return out.p;
}

/* One job, isolated (iso) or in this process (NULL). */
static pbc_iso_class certify_ask(pbc_iso *iso, certify_worker *w, uint32_t kind, const pbc_case *c,
                                 const char *rule, pbc_iso_result *r)
{
    pbc_wire_buf job = {0};
    pbc_wire_put_u32(&job, kind);
    pbc_wire_put_str(&job, c->name);
    pbc_wire_put_str(&job, c->text);
    pbc_wire_put_str(&job, rule);
    pbc_iso_class cls;
    if (iso) {
        pbc_scenario s;
        char err[256];
        uint32_t units = 1;
        if (pbc_scenario_parse(c->text, strlen(c->text), c->name, &s, err, sizeof(err)) == 0) {
            units = pbc_scenario_timeout_units(&s);
            pbc_scenario_fini(&s);
        }
        cls = pbc_iso_run_scaled(iso, job.p, job.n, units, r);
    } else {
        memset(r, 0, sizeof(*r));
        r->answer = certify_job(w, job.p, job.n, &r->answer_len);
        cls = r->cls = PBC_ISO_OK;
    }
    free(job.p);
    return cls;
}

/* The builder's DbgPrint lines in a worker's output (they reach it as
 * they are printed: isolate.h), without their prefix; owned, or NULL. */
static char *dbgprint_lines(const char *output)
{
    static const char prefix[] = PBC_KERNEL_ECHO_PREFIX;
    size_t n = 0, cap = 0;
    char *out = NULL;
    for (const char *line = output; line && *line;) {
        size_t len = strcspn(line, "\n");
        if (len >= sizeof(prefix) - 1 && !strncmp(line, prefix, sizeof(prefix) - 1)) {
            size_t keep = len - (sizeof(prefix) - 1);
            if (n + keep + 2 > cap) {
                cap = (n + keep + 2) * 2;
                out = pbc_xrealloc(out, cap);
            }
            memcpy(out + n, line + sizeof(prefix) - 1, keep);
            n += keep;
            out[n++] = '\n';
            out[n] = 0;
        }
        line += len + (line[len] == '\n');
    }
    return out;
}

/* The signature and title of a case the worker did not answer, as
 * triage gives them (the frames of a library target's own code count). */
static void certify_isolated_signature(pbc_case_result *res, const char *detail, const char *target_arg)
{
    pbc_triage_facts facts;
    char sig[640], title[300];
    pbc_triage_from_isolation(res->isolation ? res->isolation : "harness-bug", detail, res->output,
                              pbc_exec_target_is_path(target_arg) ? target_arg : NULL, &facts);
    pbc_triage_signature(&facts, sig, sizeof(sig));
    pbc_triage_title(&facts, title, sizeof(title));
    res->signature = pbc_xstrdup(sig);
    res->title = pbc_xstrdup(title);
    res->location = facts.location[0] ? pbc_xstrdup(facts.location) : NULL;
}

/* Who wrote a divergence's first wrong byte (or the address a GPU fault
 * came from): its reproducer replayed in the worker with a store watch
 * (exec/attribute.h). The store's FILE:LINE becomes the case's location
 * (report.sarif's), the sentence its last_writer and the end of its
 * finding. */
static void certify_attribute(pbc_iso *iso, certify_worker *w, const char *name, pbc_case_result *res)
{
    pbc_case m;
    snprintf(m.name, sizeof(m.name), "%s", name);
    m.text = res->minimized;
    pbc_iso_result r;
    if (certify_ask(iso, w, JOB_ATTRIBUTE, &m, NULL, &r) == PBC_ISO_OK) {
        pbc_wire_reader in = {r.answer, r.answer_len, 0, 0};
        char *text = pbc_wire_get_text(&in, 0), *where = pbc_wire_get_text(&in, 0);
        if (!pbc_wire_done(&in)) {
            pbc_iso_reject(iso, &r, "not a last writer");
        } else if (text && text[0]) {
            res->last_writer = pbc_xstrdup(text);
            char *message = pbc_xprintf("%s\n  %s", res->message, text);
            free(res->message);
            res->message = message;
            if (where && where[0]) {
                free(res->location);
                res->location = pbc_xstrdup(where);
            }
        }
        free(text);
        free(where);
    }
    pbc_iso_result_fini(&r);
}

/* Judges one case and, when it fails, writes its reproducer (minimized,
 * unless the builder crashed, hung or ran out of memory: then the case as
 * it ran, which replays the same way under `pbcheck run`); the
 * reproducer's path and replay command (owned) go into rc. Without
 * --all-repros only the smallest case of each signature so far gets one
 * (w->claims): res->replaces then names the case it took it from. */
static int certify_case(pbc_iso *iso, certify_worker *w, const char *target_arg, const char *dir,
                        const pbc_case *c, uint32_t index, pbc_case_result *res, pbc_report_case *rc)
{
    char err[PBC_CLI_ERR_SIZE];
    pbc_iso_result r;
    pbc_iso_class cls = certify_ask(iso, w, JOB_RUN, c, NULL, &r);
    if (cls != PBC_ISO_OK && certify_stop) { /* the stop killed it: the case did not run */
        pbc_iso_result_fini(&r);
        return 1;
    }
    char *rule = NULL, *message = NULL, *log = NULL;
    int truncated = 0;
    if (cls == PBC_ISO_OK) { /* every field checked before any is used: the worker is the builder's */
        pbc_wire_reader in = {r.answer, r.answer_len, 0, 0};
        res->verdict = pbc_wire_get_u32_max(&in, PBC_VERDICT_HARNESS_BUG);
        rule = pbc_wire_get_text(&in, 0);
        message = pbc_wire_get_text(&in, PBC_SAFE_LINES);
        log = pbc_wire_get_text(&in, PBC_SAFE_LINES);
        truncated = (int)pbc_wire_get_u32_max(&in, 1);
        res->signature = pbc_wire_get_text(&in, 0);
        res->title = pbc_wire_get_text(&in, 0);
        res->location = pbc_wire_get_text(&in, 0);
        res->ddi = pbc_wire_get_text(&in, 0);
        if (!pbc_wire_done(&in) || (rule && strlen(rule) >= sizeof(res->rule))) {
            free(rule);
            free(message);
            free(log);
            free(res->signature);
            free(res->title);
            free(res->location);
            free(res->ddi);
            rule = message = log = res->signature = res->title = res->location = res->ddi = NULL;
            cls = pbc_iso_reject(iso, &r, "not a case's verdict");
        }
    }
    if (cls == PBC_ISO_OK) {
        if (res->signature && !res->signature[0]) { /* not a failure */
            free(res->signature);
            free(res->title);
            res->signature = res->title = NULL;
        }
        if (res->location && !res->location[0]) {
            free(res->location);
            res->location = NULL;
        }
        if (res->ddi && !res->ddi[0]) {
            free(res->ddi);
            res->ddi = NULL;
        }
        snprintf(res->rule, sizeof(res->rule), "%s", rule ? rule : "");
        res->message = pbc_xstrdup(message ? message : "");
        if (log && log[0])
            res->debug_output = pbc_xprintf("%s%s", truncated ? "[earlier lines not kept]\n" : "", log);
        free(rule);
        free(message);
        free(log);
    } else if (r.cls == PBC_ISO_HARNESS) {
        res->verdict = PBC_VERDICT_HARNESS_BUG;
        res->rule[0] = 0;
        res->message = pbc_xprintf("%s", r.detail);
        res->output = r.output;
        r.output = NULL;
        certify_isolated_signature(res, r.detail, target_arg);
    } else {
        res->verdict = PBC_VERDICT_FAIL;
        res->rule[0] = 0;
        res->isolation = pbc_iso_class_name(r.cls);
        res->message = pbc_xprintf("%s: %s", res->isolation, r.detail);
        res->debug_output = dbgprint_lines(r.output);
        res->output = r.output;
        r.output = NULL;
        certify_isolated_signature(res, r.detail, target_arg);
    }
    pbc_iso_result_fini(&r);
    if (res->verdict != PBC_VERDICT_FAIL ||
        (w->claims && !pbc_report_repro_claim(w->claims, res->signature, (uint32_t)strlen(c->text), index,
                                              &res->replaces)))
        return 0; /* another case of its group holds the reproducer */
    /* Once stopping, the failure stands as it ran: no minimization. */
    if (!res->isolation && !certify_stop && certify_ask(iso, w, JOB_MINIMIZE, c, res->rule, &r) == PBC_ISO_OK) {
        pbc_wire_reader in = {r.answer, r.answer_len, 0, 0};
        res->minimized = pbc_wire_get_str(&in);
        /* pbcheck writes scenarios in printable text: anything else is not its */
        if (!pbc_wire_done(&in) || !pbc_safe_is_text(res->minimized, PBC_SAFE_LINES)) {
            free(res->minimized);
            res->minimized = NULL;
            pbc_iso_reject(iso, &r, "not a minimized case");
        }
    }
    pbc_iso_result_fini(&r);
    if (!res->minimized)
        res->minimized = pbc_xstrdup(c->text);
    if (!res->isolation && !certify_stop && pbc_attribution_wanted(res->rule))
        certify_attribute(iso, w, c->name, res);
    char *path = pbc_report_repro_path(dir, c->name);
    /* The target as the user named it: a library's path replays, its table name would not. */
    /* With the limits this run had, so a timeout or oom replays as one. */
    char timeout[32], memory[32];
    snprintf(timeout, sizeof(timeout), "--case-timeout=%g", w->limits.job_seconds);
    snprintf(memory, sizeof(memory), "--memory-limit=%" PRIu64, w->limits.memory_bytes);
    /* Absolute paths: the command works from any folder, not only the one certify ran in. */
    char *abs_path = pbc_fs_absolute(path);
    char *abs_target = pbc_exec_target_is_path(target_arg) ? pbc_fs_absolute(target_arg) : pbc_xstrdup(target_arg);
    const char *argv[] = {pbc_child_self_command(), "run", abs_path, "--target", abs_target, timeout, memory, NULL};
    if (w->limits.job_seconds == 20 && w->limits.memory_bytes == PBC_DEFAULT_MEMORY_LIMIT)
        argv[5] = NULL; /* the defaults of run serve as well */
    char *replay = pbc_report_shell_command(argv);
    free(abs_path);
    free(abs_target);
    if (pbc_report_write_repro(path, c->name, res->rule[0] ? res->rule : res->isolation, replay, res->minimized,
                               err, sizeof(err))) {
        fprintf(stderr, "pbcheck: certify: %s\n", err);
        res->write_failed = 1;
    }
    rc->repro = path;
    rc->replay = replay;
    return 0;
}

/* SIGINT, SIGTERM, SIGHUP (the terminal went away) and SIGQUIT from the
 * user stop certification: the case under way is abandoned (its worker
 * killed), the reports are written for the cases that ran, marked
 * interrupted, and certify exits 128 + the signal. The same signals sent
 * by a builder fail its case instead (isolate.h). */
static pbc_iso *certify_iso;

static void certify_on_signal(int sig)
{
    if (sig != SIGINT && sig != SIGTERM && sig != SIGHUP && sig != SIGQUIT) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    certify_stop = sig;
    pid_t pid = pbc_iso_worker(certify_iso);
    if (pid > 0)
        kill(pid, SIGKILL);
}

/* The one case of a run whose library would not load: the builder's
 * failure, with its class and output. */
static void add_load_case(pbc_case_list *cases, pbc_case_result *res, const pbc_exec_load *load)
{
    pbc_case c;
    snprintf(c.name, sizeof(c.name), "load");
    c.text = pbc_xstrdup("# the library is loaded: its constructors and pbc_target_get run\n");
    PBC_PUSH(cases->items, cases->count, cases->cap, c);
    memset(res, 0, sizeof(*res));
    res->verdict = PBC_VERDICT_FAIL;
    res->isolation = pbc_iso_class_name(load->cls);
    res->message = pbc_xprintf("%s: the builder could not be loaded: %s", res->isolation, load->detail);
    res->debug_output = dbgprint_lines(load->output);
    res->output = load->output ? pbc_xstrdup(load->output) : NULL;
}

/* The decoder's purity audit (ddi/decoder.h) at the end of a split run:
 * an ISA description that is not a pure function fails the certificate,
 * as one more case ("decoder-purity") holding the finding. Then the
 * decoder's provenance. Returns the cases added. */
static uint32_t certify_decoder(const pbc_target *t, int library, int no_fork, pbc_case_list *cases,
                            pbc_case_result **res, uint32_t *res_cap, pbc_report_case **rep, uint32_t *rep_cap,
                            pbc_report_provenance *p)
{
    static pbc_decoder_audit_result a;
    pbc_exec_decoder_audit(&a);
    if (!a.pure) {
        pbc_case c;
        snprintf(c.name, sizeof(c.name), "decoder-purity");
        c.text = pbc_xstrdup("# the ISA description's answers in the run, asked again in a fresh decoder process\n");
        PBC_PUSH(cases->items, cases->count, cases->cap, c);
        pbc_grow((void **)res, res_cap, cases->count, sizeof(**res));
        pbc_grow((void **)rep, rep_cap, cases->count, sizeof(**rep));
        pbc_case_result *r = &(*res)[cases->count - 1];
        memset(r, 0, sizeof(*r));
        memset(&(*rep)[cases->count - 1], 0, sizeof(**rep));
        r->verdict = PBC_VERDICT_FAIL;
        r->replaces = UINT32_MAX;
        r->message = pbc_xstrdup(a.finding);
    }
    if (!t)
        return !a.pure;
    const pbc_isa *isa = t->isa;
    p->decoder.known = 1;
    snprintf(p->decoder.isa, sizeof(p->decoder.isa), "%s", a.ran ? a.identity.isa : isa->name ? isa->name : "");
    char *safe = pbc_safe_text(p->decoder.isa, 0);
    snprintf(p->decoder.isa, sizeof(p->decoder.isa), "%s", safe ? safe : "");
    free(safe);
    p->decoder.hooks = PBC_REPORT_HOOK_DECODE | PBC_REPORT_HOOK_DISASM |
                       (pbc_isa_pte_decode(isa) ? PBC_REPORT_HOOK_PTE_DECODE : 0);
    p->decoder.pte_size = pbc_isa_pte_size(isa);
    p->decoder.pt_levels = pbc_isa_pt_levels(isa);
    p->decoder.process = a.ran ? "own" : library && !no_fork ? "worker" : "pbcheck";
    p->decoder.audited = a.ran;
    p->decoder.pure = a.pure;
    p->decoder.recorded = a.recorded;
    p->decoder.asked_again = a.audited;
    p->decoder.not_recorded = a.dropped;
    p->decoder.finding = a.pure ? NULL : a.finding;
    return !a.pure;
}

/* --coverage: the verdict and the fingerprint are the shipped library's;
 * what its sources ran comes from the same suite run again, by a second
 * pbcheck, on libNAME_cov.so with a profile per worker. The arguments are
 * certify's own but for --coverage, --target, --out and --run-id. */
static int coverage_run(const pbc_coverage *cov, int argc, char **argv)
{
    static const char *const with_value[] = {"--target", "--out", "--run-id"};
    char **args = pbc_xcalloc((size_t)argc + 10, sizeof(*args));
    int n = 0;
    args[n++] = (char *)pbc_child_self_command();
    args[n++] = "certify";
    for (int i = 1; i < argc; i++) {
        int skip = !strcmp(argv[i], "--coverage");
        for (size_t k = 0; k < PBC_ARRAY_LEN(with_value) && !skip; k++) {
            size_t len = strlen(with_value[k]);
            if (!strncmp(argv[i], with_value[k], len) && (argv[i][len] == '=' || !argv[i][len]))
                skip = argv[i][len] ? 1 : 2; /* 2: its value follows */
        }
        if (skip == 2)
            i++;
        if (!skip && i < argc)
            args[n++] = argv[i];
    }
    char *out = pbc_xprintf("%s/certify", cov->raw_dir), *log = pbc_xprintf("%s/certify.log", cov->raw_dir);
    args[n++] = "--target";
    args[n++] = (char *)cov->library;
    args[n++] = "--out";
    args[n++] = out;
    args[n++] = "--run-id";
    args[n++] = "coverage";
    char *env[] = {(char *)cov->profile_env, NULL};
    printf("certify: coverage: the suite again on %s (log %s)\n", cov->library, log);
    fflush(stdout);
    pbc_child_spec spec = {.argv = args, .output = log, .env = env};
    int rc = pbc_child_run(&spec, NULL);
    /* Its verdict is not the library's: only a run that did not happen fails. */
    if (rc != PBC_EXIT_PASS && rc != PBC_EXIT_FAIL)
        fprintf(stderr, "pbcheck: certify: --coverage: the run of %s ended with exit code %d: see %s\n",
                cov->library, rc, log);
    free(out);
    free(log);
    free(args);
    return rc == PBC_EXIT_PASS || rc == PBC_EXIT_FAIL ? 0 : -1;
}

int pbc_cmd_certify(int argc, char **argv)
{
    const char *target = NULL, *out_dir = NULL, *waivers_path = NULL, *run_id = NULL, *source_root = ".",
               *cases_glob = NULL;
    int quick = 0, large = 0, no_fork = 0, all_repros = 0, coverage = 0, all_rules = 0, allow_unconfined = 0,
        no_random = 0;
    pbc_coverage cov;
    uint64_t fuzz_seconds = 0, seed = 1, memory_limit = PBC_DEFAULT_MEMORY_LIMIT;
    double case_timeout = 20;
    const pbc_opt opts[] = {
        {"target", PBC_OPT_STRING, &target, "NAME", "a builder from 'pbcheck list targets'", 0, 0,
         "none: it must be given", "builder to certify ('pbcheck list targets')"},
        {"out", PBC_OPT_STRING, &out_dir, "DIR", "a folder", 0, 0, "reports/NAME",
         "where the reports and reproducers go (created if missing)"},
        {"time", PBC_OPT_NUMBER, &fuzz_seconds, "S", "seconds", 0, 7 * 24 * 3600, "0",
         "after the suite, S seconds of random valid scenarios (cases\nnamed fuzz/seed-N/I), in place of the fixed random phase:\nallocations up to 64 KiB as fuzzing's mix, every 64th case\nup to 256 MiB; the rate is printed"},
        {"seed", PBC_OPT_NUMBER, &seed, "N", "a number", 0, UINT32_MAX, "1",
         "seed of the random scenarios; the same seed gives the same ones"},
        {"no-random", PBC_OPT_FLAG, &no_random, NULL, NULL, 0, 0, "off",
         "the suite alone: no random phase (by default the suite is\nfollowed by a fixed number of random cases of --seed)"},
        {"quick", PBC_OPT_FLAG, &quick, NULL, NULL, 0, 0, "off",
         "a reduced suite (addresses above 4 GiB, odd sizes only; every\nstory), without the default random phase (--time adds one)"},
        {"large", PBC_OPT_FLAG, &large, NULL, NULL, 0, 0, "off",
         "also transfers of 4 GiB of initial content (TransferSize at and\nover 32 bits; the default suite transfers filled content), with\n--quick too; "
         "a builder copying them with the CPU needs --memory-limit 16G"},
        {"cases", PBC_OPT_STRING, &cases_glob, "GLOBS", "comma-separated globs of case names", 0, 0, "every case",
         "only the suite's cases whose names match one of these globs\n('*' also matches '/'; the names are "
         "report.json's, as\n'*move-tables/*'), and no random phase unless --time: to\nrerun what failed while "
         "fixing it. Each glob must match a\ncase. Part of the suite certifies nothing: its verdict is\n"
         "NOT CONFORMANT or INCOMPLETE"},
        PBC_ISOLATION_OPTS(no_fork, case_timeout, memory_limit, "20"),
        {"allow-unconfined", PBC_OPT_FLAG, &allow_unconfined, NULL, NULL, 0, 0, "off",
         "certify even where the sandbox lacks seccomp, or both namespaces\nand Landlock (the reports then say "
         "unconfined)"},
        {"waivers", PBC_OPT_STRING, &waivers_path, "FILE", "a file", 0, 0, "none",
         "expected failures: waived cases are reported, not failed"},
        {"all-repros", PBC_OPT_FLAG, &all_repros, NULL, NULL, 0, 0, "off",
         "a reproducer for every failing case, not only for the smallest\ncase of each group (cases failing the "
         "same way)"},
        {"all-rules", PBC_OPT_FLAG, &all_rules, NULL, NULL, 0, 0, "rules with failing cases",
         "print every rule's count, zeros too (report.json and summary.md\nalways hold them all)"},
        {"coverage", PBC_OPT_FLAG, &coverage, NULL, NULL, 0, 0, "off",
         "after certifying the library, run the suite again on\nlibNAME_cov.so and report line, branch and "
         "function\ncoverage of the builder's sources (docs/ci-fuzzing.md)"},
        {"source-root", PBC_OPT_STRING, &source_root, "DIR", "a folder", 0, 0, "the current folder",
         "the builder's repository: report.sarif gives source locations\nunder it relative to it (SRCROOT)"},
        /* Tests: the run folder's name, a folder that may exist already. */
        {"run-id", PBC_OPT_STRING, &run_id, "ID", "a folder name", 0, 0, "UTC time and pid", "", 1},
        {NULL},
    };
    const pbc_verb_spec spec = {
        .name = "certify",
        .synopsis = "--target NAME [OPTIONS]",
        .about = certify_about,
        .example = "pbcheck certify --target mutant-trunc32 --time 60 --seed 5 --out reports/trunc32",
        .footer = "exit: 0 conformant: at least one case judged, every planned case accounted for, no\n"
                  "        failure; 1 not conformant (a failure not waived, a harness bug, an expired\n"
                  "        waiver, a library that would not load) or incomplete (nothing judged,\n"
                  "        or a suite narrowed by --cases);\n"
                  "      2 usage error, a bad waivers file, or a report or journal that cannot be\n"
                  "        written (no verdict is printed then); 130/143/129/131 interrupted by\n"
                  "        SIGINT/SIGTERM/SIGHUP/SIGQUIT\n"
                  "        (the reports say so). Builders run in confined worker processes (their\n"
                  "        signals to pbcheck fail their case; what they start dies with it).",
        .opts = opts,
    };
    int rc = pbc_cli_parse_options_only(&spec, argc, argv);
    if (rc != PBC_CLI_GO)
        return rc;
    if (!target)
        return pbc_cli_bad_value("certify", "target", "a builder from 'pbcheck list targets'", NULL);
    if (no_random && fuzz_seconds)
        return pbc_usage_error("certify: --no-random and --time contradict each other (--time is a random phase)");
    /* The random phase: --time's seconds, or by default (neither --quick
     * nor --no-random) a fixed number of cases, so that the same version
     * and seed certify with the same cases. */
    uint32_t random_count = fuzz_seconds || quick || no_random || cases_glob ? 0 : PBC_CERTIFY_DEFAULT_RANDOM;
    pbc_case_list cases = {0};
    char bad_glob[PBC_CLI_ERR_SIZE];
    if (cases_glob && pbc_case_list_select(&cases, cases_glob, bad_glob, sizeof(bad_glob)) == -1) {
        char *shown = pbc_safe_text(bad_glob, 0);
        int bad = pbc_usage_error("certify: --cases needs at most %d comma-separated globs, none empty or over %d "
                                  "characters; got '%s' among them", PBC_CASE_GLOBS_MAX, PBC_CASE_GLOB_MAX, shown);
        free(shown);
        return bad;
    }
    char err[PBC_CLI_ERR_SIZE];
    time_t started = time(NULL);
    pbc_waivers waivers = {0};
    /* A mistake in the file is FILE:LINE:COL: what, as for scenarios. */
    if (waivers_path && (rc = pbc_waivers_load(waivers_path, started, &waivers, err, sizeof(err))))
        return rc == -1 ? (fprintf(stderr, "%s\n", err), PBC_EXIT_USAGE) : pbc_usage_error("certify: %s", err);
    if (no_fork && pbc_exec_target_is_path(target)) {
        pbc_waivers_fini(&waivers);
        return pbc_usage_error("certify: --no-fork would run the builder library in pbcheck's own process, "
                               "which cannot certify it (its exit or crash would end pbcheck); debug a case "
                               "with 'pbcheck run CASE.pbs --target %s --no-fork'", target);
    }
    /* A sandbox that lets a builder reach pbcheck's process or files makes
     * no certificate, unless asked for (docs/architecture.md). */
    const char *lacks = no_fork ? NULL : pbc_sandbox_lacks(pbc_sandbox_probe());
    if (lacks && !allow_unconfined) {
        pbc_waivers_fini(&waivers);
        return pbc_usage_error("certify: the sandbox lacks %s on this machine, so a builder could reach "
                               "pbcheck's process or files; --allow-unconfined certifies anyway (the reports "
                               "say unconfined)", lacks);
    }
    if (coverage && pbc_coverage_prepare("certify", target, &cov)) {
        pbc_waivers_fini(&waivers);
        return PBC_EXIT_USAGE;
    }
    pbc_exec_load load = {0};
    int bad_target = PBC_EXIT_USAGE;
    const pbc_target *t = pbc_cli_target("certify", target, case_timeout, memory_limit, &load, &bad_target);
    if (!t && !load.failed) {
        pbc_waivers_fini(&waivers);
        if (coverage)
            pbc_coverage_discard(&cov);
        return bad_target;
    }
    /* The suite, narrowed by --cases before anything is written. */
    if (t)
        pbc_certify_cases(t, (quick ? PBC_CERTIFY_QUICK : 0) | (large ? PBC_CERTIFY_LARGE : 0), &cases);
    int narrowed = 0;
    if (t && cases_glob) {
        uint32_t planned = cases.count;
        if (pbc_case_list_select(&cases, cases_glob, bad_glob, sizeof(bad_glob)) <= 0) {
            pbc_case_list_fini(&cases);
            pbc_exec_load_fini(&load);
            pbc_waivers_fini(&waivers);
            if (coverage)
                pbc_coverage_discard(&cov);
            char *shown = pbc_safe_text(bad_glob, 0);
            int bad = pbc_usage_error("certify: --cases: '%s' matches none of the suite's %u cases (their names are "
                                      "report.json's results, as kind/dimension/...)", shown, planned);
            free(shown);
            return bad;
        }
        narrowed = cases.count < planned;
        fprintf(stderr, "pbcheck: certify: --cases: %u of the suite's %u cases%s\n", cases.count, planned,
                narrowed ? "; the verdict is at best INCOMPLETE" : " (every one)");
    }

    /* A library that would not load is still a report: named by its file. */
    const char *base = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
    const char *shown_name = t ? t->name : base;
    pbc_report report = {.target = shown_name, .waivers = waivers_path ? &waivers : NULL};
    pbc_rundir run = {0};
    /* A library's table name is the builder's text: one safe folder name
     * under reports/, whatever it holds ("../..", a newline). */
    char *folder = pbc_safe_component(shown_name);
    char *default_out = !out_dir ? pbc_xprintf("reports/%s", folder) : NULL;
    free(folder);
    rc = PBC_CLI_GO;
    if (pbc_rundir_create(&run, out_dir ? out_dir : default_out, run_id, started, err, sizeof(err)))
        rc = pbc_usage_error("certify: %s", err);
    const char *library = pbc_exec_target_is_path(target) ? target : NULL;
    if (rc == PBC_CLI_GO && pbc_provenance_collect(&report.provenance, library, started, err, sizeof(err)))
        rc = pbc_usage_error("certify: %s", err);
    free(default_out);
    if (rc != PBC_CLI_GO) {
        pbc_case_list_fini(&cases);
        pbc_exec_load_fini(&load);
        if (coverage)
            pbc_coverage_discard(&cov);
        pbc_rundir_fini(&run);
        pbc_waivers_fini(&waivers);
        return rc;
    }
    const char *dir = run.path;
    static char unconfined[640];
    if (lacks)
        snprintf(unconfined, sizeof(unconfined), "unconfined (--allow-unconfined): %s", pbc_iso_confinement());
    const char *confined = lacks ? unconfined : pbc_iso_confinement();
    /* Of a library, also where the verdict was made: across the DDI, or
     * in the worker beside the builder (docs/architecture.md, "What
     * remains"). */
    static char judged[800];
    if (!no_fork && library && !pbc_exec_targets_split_active())
        fprintf(stderr, "pbcheck: certify: PBCHECK_SPLIT=0: the judge runs beside the builder, in its worker; "
                        "the report is not a certificate\n");
    if (!no_fork && library)
        snprintf(judged, sizeof(judged), "%s; judge: %s", confined,
                 pbc_exec_targets_split_active() ? "across the DDI (the builder in a driver process of its own)"
                                                 : "beside the builder, in its worker (PBCHECK_SPLIT=0: not a certificate)");
    report.provenance.isolation = no_fork ? "none (--no-fork): a built-in target ran in pbcheck's own process"
                                  : library ? judged
                                          : confined;

    uint32_t suite_count = cases.count ? cases.count : 1, res_cap = suite_count, rep_cap = suite_count;
    pbc_case_result *res = pbc_xcalloc(res_cap, sizeof(*res));
    pbc_report_case *rep = pbc_xcalloc(rep_cap, sizeof(*rep));
    if (!t)
        add_load_case(&cases, res, &load);
    pbc_exec_load_fini(&load);
    pbc_report_repro_claims claims = {0};
    certify_worker worker = {.t = t, .claims = all_repros ? NULL : &claims};
    pbc_runner_init(&worker.runner);
    /* Cases run in worker processes, a few hundred per worker: a crash,
     * exit, hang or runaway allocation costs one case (isolate.h). */
    worker.limits = (pbc_iso_limits){case_timeout, memory_limit, 256, PBC_ISO_CAPTURE_ALL};
    pbc_iso *iso = no_fork || !t ? NULL : pbc_iso_create(&worker.limits, certify_job, &worker);
    struct timespec t0;
    double suite_seconds = 0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    /* A report that cannot be written stops the run at once: no verdict
     * is printed that the files do not hold. */
    int write_error = 0;
    uint64_t journal_size = 0;
    int journal = pbc_report_journal_open(dir, err, sizeof(err));
    if (journal < 0) {
        fprintf(stderr, "pbcheck: certify: %s\n", err);
        write_error = 1;
    }
    pbc_progress progress;
    pbc_progress_begin(&progress, "certify");
    certify_iso = iso;
    pbc_iso_catch_signals(certify_on_signal);
    uint32_t i, failed = 0;
    for (i = 0; t && !write_error; i++) {
        if (certify_stop)
            break;
        if (i == suite_count) {
            suite_seconds = elapsed_since(&t0); /* the fuzz budget starts now */
            /* its rate is the random phase's own */
            pbc_progress_begin(&progress, random_count ? "certify random" : "certify --time");
        }
        if (i == cases.count) {
            if (random_count ? i - suite_count >= random_count
                             : fuzz_seconds == 0 || elapsed_since(&t0) >= suite_seconds + (double)fuzz_seconds)
                break;
            add_fuzz_case(&cases, t, seed, i - suite_count, large);
            pbc_grow((void **)&res, &res_cap, cases.count, sizeof(*res));
            pbc_grow((void **)&rep, &rep_cap, cases.count, sizeof(*rep));
            memset(&res[i], 0, sizeof(*res));
            memset(&rep[i], 0, sizeof(*rep));
        }
        res[i].replaces = UINT32_MAX;
        if (certify_case(iso, &worker, target, dir, &cases.items[i], i, &res[i], &rep[i]))
            break; /* stopped in the middle of this case: it did not run */
        if (res[i].replaces < i) { /* a smaller case of the group holds its reproducer now */
            pbc_report_case *old = &rep[res[i].replaces];
            if (unlink(old->repro) && errno != ENOENT) {
                fprintf(stderr, "pbcheck: certify: cannot remove %s: %s\n", old->repro, strerror(errno));
                write_error = 1;
                break;
            }
            free((char *)old->repro);
            free((char *)old->replay);
            old->repro = old->replay = NULL;
        }
        failed += res[i].verdict == PBC_VERDICT_FAIL; /* for progress; the reports tally at the end */
        rep[i].finished_at = elapsed_since(&t0);
        pbc_report_case j = rep[i];
        j.name = cases.items[i].name;
        j.verdict = res[i].verdict;
        j.rule = res[i].rule;
        j.message = res[i].message;
        j.isolation = res[i].isolation;
        j.isolation_detail = res[i].output;
        j.debug_output = res[i].debug_output;
        if (res[i].write_failed || pbc_report_journal_case(journal, dir, &j, &journal_size, err, sizeof(err))) {
            if (!res[i].write_failed)
                fprintf(stderr, "pbcheck: certify: %s\n", err);
            write_error = 1;
            break;
        }
        if (i < suite_count)
            pbc_progress_tick(&progress, i + 1, suite_count, failed, -1, cases.items[i].name);
        else if (random_count)
            pbc_progress_tick(&progress, i + 1 - suite_count, random_count, failed, -1, cases.items[i].name);
        else
            pbc_progress_tick(&progress, i + 1 - suite_count, 0, failed,
                              suite_seconds + (double)fuzz_seconds - elapsed_since(&t0), cases.items[i].name);
    }
    pbc_progress_end(&progress);
    if (certify_stop) /* the cases not run are not in the reports */
        pbc_case_list_truncate(&cases, i);
    uint32_t audit_cases = 0; /* after the suite and the random phase: neither's */
    if (!certify_stop && !write_error) {
        audit_cases = certify_decoder(t, library != NULL, no_fork, &cases, &res, &res_cap, &rep, &rep_cap,
                                      &report.provenance);
        if (audit_cases)
            rep[cases.count - 1].finished_at = elapsed_since(&t0);
    }
    report.seconds = elapsed_since(&t0);
    /* Only now: adding fuzz cases moved both arrays while the loop ran. */
    for (i = 0; i < cases.count; i++) {
        rep[i].name = cases.items[i].name;
        rep[i].verdict = res[i].verdict;
        rep[i].rule = res[i].rule;
        rep[i].message = res[i].message;
        rep[i].debug_output = res[i].debug_output;
        rep[i].isolation = res[i].isolation;
        rep[i].isolation_detail = res[i].output;
        rep[i].signature = res[i].signature;
        rep[i].title = res[i].title;
        rep[i].location = res[i].location;
        rep[i].last_writer = res[i].last_writer;
        rep[i].ddi = res[i].ddi;
        rep[i].size = (uint32_t)strlen(cases.items[i].text);
    }
    report.interrupted = certify_stop != 0;
    report.narrowed = narrowed;
    report.source_root = source_root;
    report.operations_known = t != NULL;
    report.operations = t ? t->supported_operations : 0;
    report.cases = rep;
    report.case_count = cases.count;
    report.unaccounted =
        !certify_stop && cases.count - audit_cases < suite_count ? suite_count - (cases.count - audit_cases) : 0;
    report.random_cases = cases.count - audit_cases > suite_count ? cases.count - audit_cases - suite_count : 0;
    report.random_seconds =
        report.random_cases ? rep[cases.count - audit_cases - 1].finished_at - suite_seconds : 0;
    pbc_report_tally(&report, rep);
    uint32_t option_count;
    pbc_report_option *options = pbc_cli_option_values(opts, &option_count);
    report.provenance.version = pbc_cli_version();
    report.provenance.git_revision = pbc_cli_git_revision();
    const char **command = pbc_xcalloc((size_t)argc + 2, sizeof(*command));
    command[0] = "pbcheck";
    memcpy(command + 1, argv, (size_t)argc * sizeof(*command)); /* the verb, then its arguments */
    report.provenance.argv = command;
    report.provenance.options = options;
    report.provenance.option_count = option_count;
    pbc_provenance_suite(&report.provenance, &cases, t ? suite_count : 0);
    report.provenance.random_mode = random_count ? "fixed" : fuzz_seconds ? "time" : "none";
    report.provenance.random_seed = seed;
    report.provenance.random_cases = report.random_cases;
    snprintf(report.provenance.run_id, sizeof(report.provenance.run_id), "%s", run.run_id);
    pbc_report_verdict verdict = pbc_report_get_verdict(&report);

    if (!write_error && pbc_report_write_all(&report, dir, err, sizeof(err))) {
        fprintf(stderr, "pbcheck: certify: %s\n", err);
        write_error = 1;
    }
    if (journal >= 0 && close(journal) && !write_error) {
        fprintf(stderr, "pbcheck: certify: cannot write %s/journal.jsonl: %s\n", dir, strerror(errno));
        write_error = 1;
    }
    if (coverage && !write_error && !certify_stop && (coverage_run(&cov, argc, argv) || pbc_coverage_end(&cov, dir)))
        write_error = 1;
    if (coverage) /* stopped, or a write failed: the profiles go */
        pbc_coverage_discard(&cov);
    if (!write_error) { /* every file holds what this says */
        /* Only the rules that failed: a table of zeros hides the line that
         * matters. The reports keep every rule. */
        uint32_t hits = 0, rules_hit = 0;
        for (uint32_t r = 0; r < PBC_RULE_COUNT; r++) {
            hits += report.rule_hits[r];
            rules_hit += report.rule_hits[r] != 0;
        }
        if (rules_hit || all_rules)
            printf("%-18s %s\n", "rule", "failing cases");
        for (uint32_t r = 0; r < PBC_RULE_COUNT; r++)
            if (report.rule_hits[r] || all_rules)
                printf("%-18s %u\n", pbc_rule_get((pbc_rule_id)r)->id, report.rule_hits[r]);
        printf("rules: %u failing case%s under %u of %u rules%s\n", hits, hits == 1 ? "" : "s", rules_hit,
               (unsigned)PBC_RULE_COUNT, all_rules ? "" : " (--all-rules for every row; summary.md has them)");
        printf("certify %s: %u cases in %.1f s: %u passed, %u failed, %u skipped, %u harness bugs\n", shown_name,
               cases.count, report.seconds, report.passed, report.failed, report.skipped, report.harness_bugs);
        if (report.random_cases)
            printf("random phase: %u cases in %.1f s, %.0f a second (seed %llu)\n", report.random_cases,
                   report.random_seconds, report.random_seconds > 0 ? report.random_cases / report.random_seconds : 0,
                   (unsigned long long)seed);
        if (!t)
            printf("%s\n", res[0].message);
        if (report.waivers)
            printf("waived: %u failing cases, by %u waivers (%u expired)\n", report.waived, waivers.count,
                   waivers.expired);
        for (i = 0; i < waivers.count; i++)
            if (waivers.items[i].expired)
                fprintf(stderr, "pbcheck: certify: waiver %s expired on %s (%s %s): %s\n", waivers.items[i].where,
                        waivers.items[i].expires, waivers.items[i].pattern, waivers.items[i].rule,
                        waivers.items[i].reason);
        char *shown_dir = pbc_report_shell_quote(dir);
        if (certify_stop)
            printf("verdict: INTERRUPTED by %s after %u cases (partial reports in %s/)\n",
                   certify_stop == SIGINT    ? "SIGINT"
                   : certify_stop == SIGTERM ? "SIGTERM"
                   : certify_stop == SIGHUP  ? "SIGHUP"
                                             : "SIGQUIT",
                   cases.count, shown_dir);
        else if (verdict == PBC_REPORT_INCOMPLETE)
            printf("verdict: INCOMPLETE: %s (reports in %s/)\n", pbc_report_incomplete_reason(&report), shown_dir);
        else
            printf("verdict: %s (reports in %s/)\n", pbc_report_verdict_text(verdict), shown_dir);
        free(shown_dir);
        char *index = pbc_xprintf("%s/index.html", dir);
        char *shown = pbc_report_shell_quote(index);
        printf("report: %s\n", shown);
        free(shown);
        free(index);
    }

    for (i = 0; i < cases.count; i++) {
        free(res[i].message);
        free(res[i].minimized);
        free(res[i].debug_output);
        free(res[i].output);
        free(res[i].signature);
        free(res[i].title);
        free(res[i].location);
        free(res[i].last_writer);
        free(res[i].ddi);
        free((char *)rep[i].repro);
        free((char *)rep[i].replay);
    }
    free(res);
    free(rep);
    pbc_cli_option_values_free(options, option_count);
    free(command);
    pbc_waivers_fini(&waivers);
    pbc_rundir_fini(&run);
    pbc_iso_destroy(iso);
    pbc_runner_fini(&worker.runner);
    pbc_report_repro_claims_fini(&claims);
    pbc_case_list_fini(&cases);
    if (write_error)
        return PBC_EXIT_USAGE;
    if (certify_stop)
        return 128 + certify_stop;
    return verdict == PBC_REPORT_CONFORMANT ? PBC_EXIT_PASS : PBC_EXIT_FAIL;
}
