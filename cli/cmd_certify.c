/*
 * pbcheck certify: the deterministic conformance suite against one target,
 * with a per-rule table, a verdict, and reports (report.json, junit.xml,
 * summary.md, index.html) plus a minimized reproducer for every failing
 * case, in a fresh run folder (report/rundir.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/fs.h"
#include "base/util.h"
#include "cli.h"
#include "exec/target.h"
#include "report/certify.h"
#include "report/provenance.h"
#include "report/rundir.h"
#include "report/text.h"
#include "report/writers.h"
#include "scenario/gen.h"

static double elapsed_since(const struct timespec *t0)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

/* A random valid scenario; its name says how to make it again. */
static void add_fuzz_case(pbc_case_list *cases, uint64_t seed, uint32_t index)
{
    pbc_rng rng = {seed * 0x100000000ull + index};
    pbc_scenario s;
    pbc_scenario_init(&s);
    pbc_gen_scenario(&s, 24, pbc_rng_choose, &rng);
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
    "MdlOffset class x size class, each case named like\n"
    "  transfer-mdl-to-seg/split3/dma-min/busy/high/mdloff2/odd-size\n"
    "Prints progress, a per-rule table and the verdict, and writes into a new\n"
    "run folder DIR/RUN-ID (DIR/latest links to it): index.html (open it in a\n"
    "browser), report.json, junit.xml, summary.md, and repro/CASE.pbs, a\n"
    "minimized scenario for every failing case with the command that replays\n"
    "it. A waivers file lists expected failures, one a line:\n"
    "  PATTERN  RULE-or-*  EXPIRES  REASON...\n"
    "e.g. 'fill/*  PB-DIVERGE  2027-03-31  vendor bug 4711' ('#' starts a\n"
    "comment; PATTERN is a glob over case names, '*' also matching '/'). A\n"
    "waived failure is reported with its reason and does not fail the run; a\n"
    "waiver past its date does (docs/report-format.md).";

/* Judges one case and, when it fails, writes its minimized reproducer;
 * the reproducer's path and replay command (owned) go into rc. */
static void certify_case(pbc_runner *runner, const pbc_target *t, const char *target_arg, const char *dir,
                         const pbc_case *c, pbc_case_result *res, pbc_report_case *rc)
{
    pbc_scenario s;
    char err[512];
    if (pbc_scenario_parse(c->text, strlen(c->text), c->name, &s, err, sizeof(err))) {
        fprintf(stderr, "pbcheck: harness bug: generated case does not parse: %s\n", err);
        abort();
    }
    pbc_run_options o = {.check_determinism = 1};
    pbc_outcome out;
    pbc_runner_run(runner, &s, t, &o, &out);
    res->verdict = out.verdict;
    snprintf(res->rule, sizeof(res->rule), "%s", out.rule);
    res->message = pbc_xstrdup(out.message);
    if (out.log[0])
        res->debug_output = pbc_xprintf("%s%s", out.log_truncated ? "[earlier lines not kept]\n" : "", out.log);
    if (out.verdict == PBC_VERDICT_FAIL) {
        res->minimized = pbc_certify_minimize(runner, &s, t, out.rule);
        char *path = pbc_report_repro_path(dir, c->name);
        /* The target as the user named it: a library's path replays, its table name would not. */
        const char *argv[] = {"pbcheck", "run", path, "--target", target_arg, NULL};
        char *replay = pbc_report_shell_command(argv);
        if (pbc_report_write_repro(path, c->name, out.rule, replay, res->minimized, err, sizeof(err))) {
            fprintf(stderr, "pbcheck: certify: %s\n", err);
            res->write_failed = 1;
        }
        rc->repro = path;
        rc->replay = replay;
    }
    pbc_scenario_fini(&s);
}

int pbc_cmd_certify(int argc, char **argv)
{
    const char *target = NULL, *out_dir = NULL, *waivers_path = NULL, *run_id = NULL;
    int quick = 0;
    uint64_t fuzz_seconds = 0, seed = 1;
    const pbc_opt opts[] = {
        {"target", PBC_OPT_STRING, &target, "NAME", "a builder from 'pbcheck list targets'", 0, 0,
         "none: it must be given", "builder to certify ('pbcheck list targets')"},
        {"out", PBC_OPT_STRING, &out_dir, "DIR", "a folder", 0, 0, "reports/NAME",
         "where the reports and reproducers go (created if missing)"},
        {"time", PBC_OPT_NUMBER, &fuzz_seconds, "S", "seconds", 0, 7 * 24 * 3600, "0",
         "after the suite, S seconds of random valid scenarios (cases\nnamed fuzz/seed-N/I)"},
        {"seed", PBC_OPT_NUMBER, &seed, "N", "a number", 0, UINT32_MAX, "1",
         "seed of the random scenarios; the same seed gives the same ones"},
        {"quick", PBC_OPT_FLAG, &quick, NULL, NULL, 0, 0, "off",
         "a reduced suite (addresses above 4 GiB, odd sizes only)"},
        {"waivers", PBC_OPT_STRING, &waivers_path, "FILE", "a file", 0, 0, "none",
         "expected failures: waived cases are reported, not failed"},
        /* Tests: the run folder's name, a folder that may exist already. */
        {"run-id", PBC_OPT_STRING, &run_id, "ID", "a folder name", 0, 0, "UTC time and pid", "", 1},
        {NULL},
    };
    const pbc_verb_spec spec = {
        .name = "certify",
        .synopsis = "--target NAME [OPTIONS]",
        .about = certify_about,
        .example = "pbcheck certify --target mutant-trunc32 --time 60 --seed 5 --out reports/trunc32",
        .footer = "exit: 0 conformant, 1 not conformant (a failure not waived, a harness bug or an\n"
                  "expired waiver), 2 usage error, a bad waivers file or a report that cannot be written",
        .opts = opts,
    };
    int rc = pbc_cli_parse_options_only(&spec, argc, argv);
    if (rc != PBC_CLI_GO)
        return rc;
    if (!target)
        return pbc_cli_bad_value("certify", "target", "a builder from 'pbcheck list targets'", NULL);
    char err[1024];
    time_t started = time(NULL);
    pbc_waivers waivers = {0};
    /* A mistake in the file is FILE:LINE:COL: what, as for scenarios. */
    if (waivers_path && (rc = pbc_waivers_load(waivers_path, started, &waivers, err, sizeof(err))))
        return rc == -1 ? (fprintf(stderr, "%s\n", err), PBC_EXIT_USAGE) : pbc_usage_error("certify: %s", err);
    const pbc_target *t = pbc_cli_target("certify", target);
    pbc_report report = {.target = t ? t->name : NULL, .waivers = waivers_path ? &waivers : NULL};
    pbc_rundir run = {0};
    char *default_out = t && !out_dir ? pbc_xprintf("reports/%s", t->name) : NULL;
    rc = !t ? PBC_EXIT_USAGE : PBC_CLI_GO;
    if (rc == PBC_CLI_GO && pbc_rundir_create(&run, out_dir ? out_dir : default_out, run_id, started, err, sizeof(err)))
        rc = pbc_usage_error("certify: %s", err);
    const char *library = pbc_exec_target_is_path(target) ? target : NULL;
    if (rc == PBC_CLI_GO && pbc_provenance_collect(&report.provenance, library, started, err, sizeof(err)))
        rc = pbc_usage_error("certify: %s", err);
    free(default_out);
    if (rc != PBC_CLI_GO) {
        pbc_rundir_fini(&run);
        pbc_waivers_fini(&waivers);
        return rc;
    }
    const char *dir = run.path;

    pbc_case_list cases;
    pbc_certify_cases(t, quick, &cases);
    uint32_t suite_count = cases.count, res_cap = cases.count, rep_cap = cases.count;
    pbc_case_result *res = pbc_xcalloc(res_cap, sizeof(*res));
    pbc_report_case *rep = pbc_xcalloc(rep_cap, sizeof(*rep));
    pbc_runner runner;
    pbc_runner_init(&runner);
    int tty = isatty(STDERR_FILENO);
    struct timespec t0;
    double suite_seconds = 0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (uint32_t i = 0;; i++) {
        if (i == suite_count)
            suite_seconds = elapsed_since(&t0); /* the fuzz budget starts now */
        if (i == cases.count) {
            if (fuzz_seconds == 0 || elapsed_since(&t0) >= suite_seconds + (double)fuzz_seconds)
                break;
            add_fuzz_case(&cases, seed, i - suite_count);
            pbc_grow((void **)&res, &res_cap, cases.count, sizeof(*res));
            pbc_grow((void **)&rep, &rep_cap, cases.count, sizeof(*rep));
            memset(&res[i], 0, sizeof(*res));
            memset(&rep[i], 0, sizeof(*rep));
        }
        certify_case(&runner, t, target, dir, &cases.items[i], &res[i], &rep[i]);
        rep[i].finished_at = elapsed_since(&t0);
        report.passed += res[i].verdict == PBC_VERDICT_PASS;
        report.skipped += res[i].verdict == PBC_VERDICT_SKIP;
        report.harness_bugs += res[i].verdict == PBC_VERDICT_HARNESS_BUG;
        if (res[i].verdict == PBC_VERDICT_FAIL) {
            report.failed++;
            int rule = pbc_rule_lookup(res[i].rule);
            if (rule >= 0)
                report.rule_hits[rule]++;
        }
        uint32_t failed = report.failed;
        if (i >= suite_count) {
            if (tty && i % 25 == 0)
                fprintf(stderr, "\r[fuzz %u] %u failed  %-60.60s", i - suite_count + 1, failed, cases.items[i].name);
        } else if (tty && (i % 25 == 0 || i + 1 == cases.count))
            fprintf(stderr, "\r[%u/%u] %u failed  %-70.70s", i + 1, cases.count, failed, cases.items[i].name);
        else if (!tty && (i + 1) % (suite_count / 10 + 1) == 0)
            fprintf(stderr, "certify: %u/%u cases, %u failed\n", i + 1, cases.count, failed);
    }
    if (tty)
        fputc('\n', stderr);
    report.seconds = elapsed_since(&t0);
    /* Only now: adding fuzz cases moved both arrays while the loop ran. */
    for (uint32_t i = 0; i < cases.count; i++) {
        rep[i].name = cases.items[i].name;
        rep[i].verdict = res[i].verdict;
        rep[i].rule = res[i].rule;
        rep[i].message = res[i].message;
        rep[i].debug_output = res[i].debug_output;
    }
    report.cases = rep;
    report.case_count = cases.count;
    report.random_cases = cases.count - suite_count;
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
    pbc_provenance_suite(&report.provenance, &cases, suite_count);
    snprintf(report.provenance.run_id, sizeof(report.provenance.run_id), "%s", run.run_id);
    pbc_report_verdict verdict = pbc_report_get_verdict(&report);

    printf("%-18s %s\n", "rule", "failing cases");
    for (uint32_t r = 0; r < PBC_RULE_COUNT; r++)
        printf("%-18s %u\n", pbc_rule_get((pbc_rule_id)r)->id, report.rule_hits[r]);
    printf("certify %s: %u cases in %.1f s: %u passed, %u failed, %u skipped, %u harness bugs\n", t->name,
           cases.count, report.seconds, report.passed, report.failed, report.skipped, report.harness_bugs);
    if (report.waivers)
        printf("waived: %u failing cases, by %u waivers (%u expired)\n", report.waived, waivers.count,
               waivers.expired);
    for (uint32_t i = 0; i < waivers.count; i++)
        if (waivers.items[i].expired)
            fprintf(stderr, "pbcheck: certify: waiver %s expired on %s (%s %s): %s\n", waivers.items[i].where,
                    waivers.items[i].expires, waivers.items[i].pattern, waivers.items[i].rule,
                    waivers.items[i].reason);
    char *shown_dir = pbc_report_shell_quote(dir);
    printf("verdict: %s (reports in %s/)\n", pbc_report_verdict_text(verdict), shown_dir);
    free(shown_dir);
    int written = pbc_report_write_all(&report, dir, err, sizeof(err));
    if (written)
        fprintf(stderr, "pbcheck: certify: %s\n", err);
    for (uint32_t i = 0; i < cases.count; i++)
        written |= res[i].write_failed;
    if (!written) {
        char *index = pbc_xprintf("%s/index.html", dir);
        char *shown = pbc_report_shell_quote(index);
        printf("report: %s\n", shown);
        free(shown);
        free(index);
    }

    for (uint32_t i = 0; i < cases.count; i++) {
        free(res[i].message);
        free(res[i].minimized);
        free(res[i].debug_output);
        free((char *)rep[i].repro);
        free((char *)rep[i].replay);
    }
    free(res);
    free(rep);
    pbc_cli_option_values_free(options, option_count);
    free(command);
    pbc_waivers_fini(&waivers);
    pbc_rundir_fini(&run);
    pbc_runner_fini(&runner);
    pbc_case_list_fini(&cases);
    if (written)
        return PBC_EXIT_USAGE;
    return verdict == PBC_REPORT_CONFORMANT ? PBC_EXIT_PASS : PBC_EXIT_FAIL;
}
