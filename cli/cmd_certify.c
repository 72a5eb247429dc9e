/*
 * pbcheck certify: the deterministic conformance suite against one target,
 * with a per-rule table, a verdict, and reports (report.json, junit.xml,
 * summary.md) plus a minimized reproducer for every failing case.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "report/certify.h"
#include "cli.h"
#include "scenario/gen.h"
#include "base/util.h"

static const char certify_usage[] =
    "usage: pbcheck certify --target NAME [--time S] [--seed N] [--out DIR] [--quick]\n"
    "\n"
    "Runs the deterministic conformance suite: every supported operation x\n"
    "paging-buffer size class (min, min+1 packet, odd, 100, 4K, 12K, 64K) x\n"
    "split count x busy/idle x address class (low, above 4 GiB, segment end) x\n"
    "MdlOffset class x size class, each case named like\n"
    "  transfer-mdl-to-seg/split3/dma-min/busy/high/mdloff2/odd-size\n"
    "Prints progress, a per-rule table and the verdict, and writes under DIR\n"
    "(default reports/NAME/): report.json, junit.xml, summary.md, and\n"
    "repro/CASE.pbs, a minimized scenario for every failing case.\n"
    "\n"
    "  --time S  after the suite, S seconds of random valid scenarios (cases\n"
    "            named fuzz/seed-N/I); the same seed gives the same scenarios\n"
    "  --seed N  seed of the random scenarios (default 1)\n"
    "  --quick   a reduced suite (addresses above 4 GiB, odd sizes only)\n"
    "exit: 0 conformant, 1 not conformant (or a harness bug), 2 usage error\n";

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void xml_str(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default:
            if ((unsigned char)*s >= 0x20 || *s == '\n')
                fputc(*s, f);
        }
    }
}

static int mkdirs(const char *path)
{
    char buf[1024];
    snprintf(buf, sizeof(buf), "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, 0755) && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(buf, 0755) && errno != EEXIST ? -1 : 0;
}

static void file_name(const char *case_name, char *out, size_t n)
{
    snprintf(out, n, "%s", case_name);
    for (char *p = out; *p; p++)
        if (*p == '/')
            *p = '.';
}

typedef struct rule_count {
    char rule[PBC_RULE_ID_MAX];
    uint32_t count;
} rule_count;

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

static const char *const all_rules[] = {
    "PB-DMA-OVERRUN", "PB-DMA-ADVANCE", "PB-STATUS", "PB-BUSY-IDLE", "PB-BUSY-CONSUMED",
    "PB-NO-PROGRESS", "PB-PATCH", "PB-EXEC-RANGE", "PB-FENCE", "PB-GPU-FAULT",
    "PB-UNMAP-DUMMY", "PB-DIVERGE", "PB-NONDET", "PB-LIVELOCK", "PB-ASSERT",
};
#define NRULES (sizeof(all_rules) / sizeof(all_rules[0]))

int pbc_cmd_certify(int argc, char **argv)
{
    const pbc_target *t = NULL;
    const char *out_dir = NULL;
    int quick = 0;
    double fuzz_seconds = 0;
    uint64_t seed = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return fputs(certify_usage, stdout), PBC_EXIT_PASS;
        if (!strcmp(argv[i], "--target") && i + 1 < argc) {
            if (!(t = pbc_cli_target(argv[++i])))
                return PBC_EXIT_USAGE;
        } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
            out_dir = argv[++i];
        } else if (!strcmp(argv[i], "--time") && i + 1 < argc) {
            uint64_t v;
            if (pbc_cli_number(argv[++i], 7 * 24 * 3600, &v))
                return pbc_usage_error("--time needs seconds (0 to 604800)");
            fuzz_seconds = (double)v;
        } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            if (pbc_cli_number(argv[++i], UINT32_MAX, &seed))
                return pbc_usage_error("--seed needs a number below 2^32");
        } else if (!strcmp(argv[i], "--quick")) {
            quick = 1;
        } else {
            return pbc_usage_error("certify: unexpected '%s' (try --help)", argv[i]);
        }
    }
    if (!t)
        return pbc_usage_error("certify needs --target NAME (see 'pbcheck list targets')");
    char dir[1024], path[1200];
    if (out_dir)
        snprintf(dir, sizeof(dir), "%s", out_dir);
    else
        snprintf(dir, sizeof(dir), "reports/%s", t->name);
    snprintf(path, sizeof(path), "%s/repro", dir);
    if (mkdirs(path))
        return pbc_usage_error("cannot create %s: %s", path, strerror(errno));

    pbc_case_list cases;
    pbc_certify_cases(t, quick, &cases);
    uint32_t suite_count = cases.count, res_cap = cases.count;
    pbc_case_result *res = pbc_xcalloc(res_cap, sizeof(*res));
    pbc_runner runner;
    pbc_runner_init(&runner);
    int tty = isatty(STDERR_FILENO);
    struct timespec t0;
    double suite_seconds = 0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint32_t passed = 0, failed = 0, skipped = 0, bugs = 0;
    uint32_t rule_hits[NRULES] = {0};
    for (uint32_t i = 0;; i++) {
        if (i == suite_count)
            suite_seconds = elapsed_since(&t0); /* the fuzz budget starts now */
        if (i == cases.count) {
            if (fuzz_seconds <= 0 || elapsed_since(&t0) >= suite_seconds + fuzz_seconds)
                break;
            add_fuzz_case(&cases, seed, i - suite_count);
            pbc_grow((void **)&res, &res_cap, cases.count, sizeof(*res));
            memset(&res[i], 0, sizeof(*res));
        }
        pbc_scenario s;
        char err[512];
        if (pbc_scenario_parse(cases.items[i].text, strlen(cases.items[i].text), cases.items[i].name, &s, err,
                               sizeof(err))) {
            fprintf(stderr, "pbcheck: harness bug: generated case does not parse: %s\n", err);
            abort();
        }
        pbc_run_options o = {.check_determinism = 1};
        pbc_outcome out;
        pbc_runner_run(&runner, &s, t, &o, &out);
        res[i].verdict = out.verdict;
        snprintf(res[i].rule, sizeof(res[i].rule), "%s", out.rule);
        res[i].message = pbc_xstrdup(out.message);
        passed += out.verdict == PBC_VERDICT_PASS;
        skipped += out.verdict == PBC_VERDICT_SKIP;
        bugs += out.verdict == PBC_VERDICT_HARNESS_BUG;
        if (out.verdict == PBC_VERDICT_FAIL) {
            failed++;
            for (size_t r = 0; r < NRULES; r++)
                rule_hits[r] += !strcmp(all_rules[r], out.rule);
            res[i].minimized = pbc_certify_minimize(&runner, &s, t, out.rule);
            char fname[256];
            file_name(cases.items[i].name, fname, sizeof(fname));
            snprintf(path, sizeof(path), "%s/repro/%s.pbs", dir, fname);
            FILE *f = fopen(path, "w");
            if (f) {
                fprintf(f, "# %s: %s\n# pbcheck run %s --target %s\n%s", cases.items[i].name, out.rule, path,
                        t->name, res[i].minimized);
                fclose(f);
            }
        }
        pbc_scenario_fini(&s);
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
    double secs = elapsed_since(&t0);
    int ok = failed == 0 && bugs == 0;

    printf("%-18s %s\n", "rule", "failing cases");
    for (size_t r = 0; r < NRULES; r++)
        printf("%-18s %u\n", all_rules[r], rule_hits[r]);
    printf("certify %s: %u cases in %.1f s: %u passed, %u failed, %u skipped, %u harness bugs\n", t->name,
           cases.count, secs, passed, failed, skipped, bugs);
    printf("verdict: %s (reports in %s/)\n", ok ? "CONFORMANT" : "NOT CONFORMANT", dir);

    snprintf(path, sizeof(path), "%s/report.json", dir);
    FILE *j = fopen(path, "w");
    snprintf(path, sizeof(path), "%s/junit.xml", dir);
    FILE *x = fopen(path, "w");
    snprintf(path, sizeof(path), "%s/summary.md", dir);
    FILE *m = fopen(path, "w");
    if (!j || !x || !m) {
        fprintf(stderr, "pbcheck: cannot write reports in %s\n", dir);
        return PBC_EXIT_USAGE;
    }
    fprintf(j, "{\n  \"target\": ");
    json_str(j, t->name);
    fprintf(j, ",\n  \"verdict\": \"%s\",\n  \"cases\": %u,\n  \"passed\": %u,\n  \"failed\": %u,\n"
               "  \"skipped\": %u,\n  \"harness_bugs\": %u,\n  \"seconds\": %.3f,\n  \"rules\": {",
            ok ? "pass" : "fail", cases.count, passed, failed, skipped, bugs, secs);
    for (size_t r = 0; r < NRULES; r++)
        fprintf(j, "%s\n    \"%s\": %u", r ? "," : "", all_rules[r], rule_hits[r]);
    fprintf(j, "\n  },\n  \"results\": [");
    fprintf(x, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
               "<testsuite name=\"pbcheck.certify.%s\" tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"%u\" time=\"%.3f\">\n",
            t->name, cases.count, failed, bugs, skipped, secs);
    fprintf(m, "# pbcheck certify: %s\n\n**Verdict: %s** — %u cases, %u passed, %u failed, %u skipped, "
               "%u harness bugs, %.1f s.\n\n| rule | failing cases |\n|---|---|\n",
            t->name, ok ? "conformant" : "NOT conformant", cases.count, passed, failed, skipped, bugs, secs);
    for (size_t r = 0; r < NRULES; r++)
        fprintf(m, "| %s | %u |\n", all_rules[r], rule_hits[r]);
    if (failed || bugs)
        fprintf(m, "\n## Failing cases\n\n");
    for (uint32_t i = 0; i < cases.count; i++) {
        const char *vname = res[i].verdict == PBC_VERDICT_PASS ? "pass"
                            : res[i].verdict == PBC_VERDICT_SKIP ? "skip"
                            : res[i].verdict == PBC_VERDICT_FAIL ? "fail" : "harness-bug";
        fprintf(j, "%s\n    {\"name\": ", i ? "," : "");
        json_str(j, cases.items[i].name);
        fprintf(j, ", \"verdict\": \"%s\", \"rule\": ", vname);
        json_str(j, res[i].rule);
        char fname[256];
        file_name(cases.items[i].name, fname, sizeof(fname));
        if (res[i].verdict != PBC_VERDICT_PASS) {
            fprintf(j, ", \"message\": ");
            json_str(j, res[i].message);
        }
        if (res[i].minimized) {
            snprintf(path, sizeof(path), "pbcheck run %s/repro/%s.pbs --target %s", dir, fname, t->name);
            fprintf(j, ", \"replay\": ");
            json_str(j, path);
            fprintf(m, "- `%s` — %s\n  replay: `%s`\n", cases.items[i].name, res[i].rule, path);
        }
        fprintf(j, "}");
        const char *slash = strchr(cases.items[i].name, '/');
        fprintf(x, "  <testcase classname=\"%.*s\" name=\"", (int)(slash ? slash - cases.items[i].name : 0),
                cases.items[i].name);
        xml_str(x, cases.items[i].name);
        fprintf(x, "\">");
        if (res[i].verdict == PBC_VERDICT_FAIL || res[i].verdict == PBC_VERDICT_HARNESS_BUG) {
            fprintf(x, "<%s message=\"", res[i].verdict == PBC_VERDICT_FAIL ? "failure" : "error");
            xml_str(x, res[i].rule[0] ? res[i].rule : "harness bug");
            fprintf(x, "\">");
            xml_str(x, res[i].message);
            if (res[i].minimized) {
                fprintf(x, "\nreplay: pbcheck run %s/repro/%s.pbs --target %s", dir, fname, t->name);
            }
            fprintf(x, "</%s>", res[i].verdict == PBC_VERDICT_FAIL ? "failure" : "error");
        } else if (res[i].verdict == PBC_VERDICT_SKIP) {
            fprintf(x, "<skipped message=\"");
            xml_str(x, res[i].message);
            fprintf(x, "\"/>");
        }
        fprintf(x, "</testcase>\n");
        free(res[i].message);
        free(res[i].minimized);
    }
    fprintf(j, "\n  ]\n}\n");
    fprintf(x, "</testsuite>\n</testsuites>\n");
    fclose(j);
    fclose(x);
    fclose(m);
    free(res);
    pbc_runner_fini(&runner);
    pbc_case_list_fini(&cases);
    return ok ? PBC_EXIT_PASS : PBC_EXIT_FAIL;
}
