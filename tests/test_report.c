/* The report room: the HTML escaper, the waivers file (each class of bad
 * line with its position, expiry at the day's edge, matching), the tally,
 * the run folder and its latest link, write errors (a full device), the
 * writers on hostile text (each output parsed back by a real parser),
 * groups of failing and skipped cases, summary.md's bound and index.html's
 * size on a run of 100,000 failures, and triage.html from triage.json text
 * (tests/triage_html_test.py renders it). */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>
#include <libxml/parser.h>
#include <xxhash.h>

#include "base/fs.h"
#include "base/util.h"
#include "oracle/verdict.h"
#include "certify/certify.h"
#include "certify/groups.h"
#include "scenario/scenario.h"
#include "certify/provenance.h"
#include "certify/rundir.h"
#include "report/text.h"
#include "report/triage_html.h"
#include "certify/waivers.h"
#include "report/writers.h"

#include "t.h"

/* 2026-11-24T12:00:00Z */
#define NOON 1795521600

static char *scratch(void)
{
    char tmpl[] = "/tmp/pbc-test-report-XXXXXX";
    T_CHECK(mkdtemp(tmpl) != NULL);
    return pbc_xstrdup(tmpl);
}

T_TEST(html_escapes_markup_and_bad_bytes)
{
    char *s = pbc_report_text("a<b>&\"c'</pre><script>x</script>\x01\xff", PBC_REPORT_TEXT_HTML);
    T_CHECK_MSG(!strcmp(s, "a&lt;b&gt;&amp;&quot;c&#39;&lt;/pre&gt;&lt;script&gt;x&lt;/script&gt;"
                           "\xEF\xBF\xBD\xEF\xBF\xBD"), "%s", s);
    free(s);
    /* Worst case growth: every byte a quote. */
    s = pbc_report_text("\"\"\"\"", PBC_REPORT_TEXT_HTML);
    T_CHECK(!strcmp(s, "&quot;&quot;&quot;&quot;"));
    free(s);
    s = pbc_report_text("tab\tnew\nline é", PBC_REPORT_TEXT_HTML);
    T_CHECK(!strcmp(s, "tab\tnew\nline é"));
    free(s);
    s = pbc_report_url_path("repro/a b\"<.pbs");
    T_CHECK_MSG(!strcmp(s, "repro/a%20b%22%3C.pbs"), "%s", s);
    free(s);
}

static const char *bad_waivers(const char *text)
{
    static char err[512];
    pbc_waivers w;
    err[0] = 0;
    T_CHECK_MSG(pbc_waivers_parse(text, strlen(text), "w.txt", NOON, &w, err, sizeof(err)) == -1, "accepted: %s",
                text);
    T_CHECK(w.count == 0 && w.items == NULL);
    return err;
}

T_TEST(waivers_bad_lines_name_line_and_column)
{
    T_CHECK(!strcmp(bad_waivers("# c\nfill/*\n"), "w.txt:2:7: expected a rule id or '*' after the case pattern"));
    T_CHECK(!strcmp(bad_waivers("fill/*  PB-NOPE 2027-01-01 r\n"),
                    "w.txt:1:9: unknown rule 'PB-NOPE' (see 'pbcheck list rules')"));
    T_CHECK(!strcmp(bad_waivers("fill/* *\n"), "w.txt:1:9: expected the expiry date (YYYY-MM-DD) after the rule"));
    T_CHECK(!strcmp(bad_waivers("fill/* * 2027-02-29 r\n"),
                    "w.txt:1:10: '2027-02-29' is not an expiry date: write YYYY-MM-DD"));
    T_CHECK(!strcmp(bad_waivers("fill/* * 27-01-01 r\n"),
                    "w.txt:1:10: '27-01-01' is not an expiry date: write YYYY-MM-DD"));
    T_CHECK(!strcmp(bad_waivers("\n\nfill/* *\t2027-01-01   \r\n"),
                    "w.txt:3:23: expected the reason after the expiry date"));
    char err[256];
    pbc_waivers w;
    static const char nul[] = "fill * 2027-01-01 a\0b\n";
    T_CHECK(pbc_waivers_parse(nul, sizeof(nul) - 1, "w.txt", NOON, &w, err, sizeof(err)) == -1);
    T_CHECK_MSG(!strcmp(err, "w.txt:1:20: a NUL byte"), "%s", err);
}

T_TEST(waivers_parse_and_expire_at_the_day_edge)
{
    static const char text[] = "# pattern rule expires reason\n"
                               "\n"
                               "  fill/*   PB-DIVERGE  2026-11-24  expires today: still good  \r\n"
                               "transfer-*/split3/*\t*\t2026-11-23\tvendor bug 4711 # not a comment\n"
                               "fuzz/*  PB-GPU-FAULT  2024-02-29  leap day\n";
    pbc_waivers w;
    char err[256];
    T_CHECK(pbc_waivers_parse(text, strlen(text), "w.txt", NOON, &w, err, sizeof(err)) == 0);
    T_CHECK(w.count == 3 && w.expired == 2);
    if (w.count != 3) {
        pbc_waivers_fini(&w);
        return;
    }
    T_CHECK(!strcmp(w.items[0].pattern, "fill/*") && !strcmp(w.items[0].rule, "PB-DIVERGE"));
    T_CHECK(!strcmp(w.items[0].reason, "expires today: still good") && !w.items[0].expired);
    T_CHECK(!strcmp(w.items[0].where, "w.txt:3"));
    T_CHECK(!strcmp(w.items[1].reason, "vendor bug 4711 # not a comment") && w.items[1].expired);
    T_CHECK(!strcmp(w.items[1].where, "w.txt:4") && !strcmp(w.items[1].expires, "2026-11-23"));
    /* '*' crosses '/'; the rule must match unless it is '*'; expired ones cover nothing. */
    T_CHECK(pbc_waivers_match(&w, "fill/dma-min/idle/high/odd-size", "PB-DIVERGE") == &w.items[0]);
    T_CHECK(pbc_waivers_match(&w, "fill/dma-min/idle/high/odd-size", "PB-STATUS") == NULL);
    T_CHECK(pbc_waivers_match(&w, "transfer-mdl-to-seg/split3/x", "PB-STATUS") == NULL);
    T_CHECK(pbc_waivers_match(&w, "discard/x", "PB-DIVERGE") == NULL);
    pbc_waivers_fini(&w);
    /* A day later the first one has expired too. */
    T_CHECK(pbc_waivers_parse(text, strlen(text), "w.txt", NOON + 86400, &w, err, sizeof(err)) == 0);
    T_CHECK(w.expired == 3);
    pbc_waivers_fini(&w);
}

T_TEST(tally_counts_waived_apart)
{
    static const char text[] = "fill/* PB-DIVERGE 2999-01-01 known\n* * 2999-01-01 everything else\n";
    pbc_waivers w;
    char err[256];
    T_CHECK(pbc_waivers_parse(text, strlen(text), "w", NOON, &w, err, sizeof(err)) == 0);
    pbc_report_case cases[] = {
        {.name = "fill/a", .verdict = PBC_VERDICT_FAIL, .rule = "PB-DIVERGE"},
        {.name = "fill/b", .verdict = PBC_VERDICT_PASS, .rule = ""},
        {.name = "map/c", .verdict = PBC_VERDICT_FAIL, .rule = "PB-STATUS"},
        {.name = "map/d", .verdict = PBC_VERDICT_HARNESS_BUG, .rule = ""},
        {.name = "map/e", .verdict = PBC_VERDICT_SKIP, .rule = ""},
        {.name = "map/f", .verdict = PBC_VERDICT_FAIL, .rule = "", .isolation = "crash"},
    };
    pbc_report r = {.target = "t", .cases = cases, .case_count = 6, .waivers = &w};
    pbc_report_tally(&r, cases);
    T_CHECK(r.passed == 1 && r.skipped == 1 && r.harness_bugs == 1 && r.isolated == 1);
    T_CHECK_MSG(r.waived == 3 && r.failed == 0, "waived %u failed %u", r.waived, r.failed);
    T_CHECK(cases[0].waiver == &w.items[0] && cases[2].waiver == &w.items[1] && !cases[3].waiver);
    T_CHECK(w.items[0].matched == 1 && w.items[1].matched == 2);
    /* The harness bug is never waived. */
    T_CHECK(pbc_report_get_verdict(&r) == PBC_REPORT_NOT_CONFORMANT);
    cases[3].verdict = PBC_VERDICT_PASS;
    pbc_report_tally(&r, cases);
    T_CHECK(pbc_report_get_verdict(&r) == PBC_REPORT_CONFORMANT && w.items[1].matched == 2);
    r.interrupted = 1;
    T_CHECK(pbc_report_get_verdict(&r) == PBC_REPORT_INCOMPLETE);
    r.interrupted = 0;
    r.waivers = NULL;
    pbc_report_tally(&r, cases);
    T_CHECK(r.failed == 3 && r.waived == 0 && r.rule_hits[pbc_rule_lookup("PB-DIVERGE")] == 1);
    pbc_waivers_fini(&w);
    /* An expired waiver fails a run that has no failure at all. */
    T_CHECK(pbc_waivers_parse("x * 2000-01-01 old\n", 19, "w", NOON, &w, err, sizeof(err)) == 0);
    pbc_report_case ok = {.name = "fill/a", .verdict = PBC_VERDICT_PASS, .rule = ""};
    pbc_report r2 = {.target = "t", .cases = &ok, .case_count = 1, .waivers = &w};
    pbc_report_tally(&r2, &ok);
    T_CHECK(pbc_report_get_verdict(&r2) == PBC_REPORT_NOT_CONFORMANT);
    pbc_waivers_fini(&w);
}

T_TEST(rundir_is_fresh_and_latest_follows)
{
    char *root = scratch();
    char *out = pbc_xprintf("%s/a/b", root);
    char err[512];
    pbc_rundir d1, d2;
    T_CHECK(pbc_rundir_create(&d1, out, NULL, NOON, err, sizeof(err)) == 0);
    T_CHECK(pbc_rundir_create(&d2, out, NULL, NOON, err, sizeof(err)) == 0);
    T_CHECK_MSG(strcmp(d1.run_id, d2.run_id) != 0, "%s", d1.run_id);
    char want[64];
    snprintf(want, sizeof(want), "20261124T120000Z-%ld", (long)getpid());
    T_CHECK_MSG(!strcmp(d1.run_id, want), "%s", d1.run_id);
    char *latest = pbc_xprintf("%s/latest", out), target[256] = "";
    ssize_t n = readlink(latest, target, sizeof(target) - 1);
    target[n > 0 ? n : 0] = 0;
    T_CHECK_MSG(!strcmp(target, d2.run_id), "latest -> %s", target);
    char *repro = pbc_xprintf("%s/repro", d2.path);
    struct stat st;
    T_CHECK(stat(repro, &st) == 0 && S_ISDIR(st.st_mode));
    char *probe = pbc_xprintf("%s/.probe-%ld", d2.path, (long)getpid());
    T_CHECK(access(probe, F_OK) != 0);
    /* A file where the output folder should be: the reason, at once. */
    char *file = pbc_xprintf("%s/file", root);
    T_CHECK(pbc_fs_write_atomic(file, "x", 1, err, sizeof(err)) == 0);
    pbc_rundir d3;
    T_CHECK(pbc_rundir_create(&d3, file, NULL, NOON, err, sizeof(err)) == -1);
    T_CHECK_MSG(strstr(err, "cannot create") && strstr(err, "Not a directory"), "%s", err);
    pbc_rundir_fini(&d3);
    T_CHECK(pbc_rundir_create(&d3, out, "../x", NOON, err, sizeof(err)) == -1);
    T_CHECK_MSG(strstr(err, "not a run folder name"), "%s", err);
    pbc_rundir_fini(&d3);
    T_CHECK(pbc_rundir_create(&d3, out, "named", NOON, err, sizeof(err)) == 0);
    n = readlink(latest, target, sizeof(target) - 1);
    target[n > 0 ? n : 0] = 0;
    T_CHECK(!strcmp(target, "named"));
    pbc_rundir_fini(&d3);
    pbc_rundir_fini(&d1);
    pbc_rundir_fini(&d2);
    pbc_fs_remove_tree(root, NULL, 0);
    free(file);
    free(probe);
    free(repro);
    free(latest);
    free(out);
    free(root);
}

T_TEST(write_errors_name_path_and_reason)
{
    char err[512] = "";
    T_CHECK(pbc_fs_write_atomic("/dev/full", "data", 4, err, sizeof(err)) == -1);
    T_CHECK_MSG(!strcmp(err, "cannot write /dev/full: No space left on device"), "%s", err);
    /* A device is written into, never replaced. */
    T_CHECK(pbc_fs_write_atomic("/dev/null", "data", 4, err, sizeof(err)) == 0);
    struct stat st;
    T_CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
    /* Through a link, as a report path prepared by a test is. */
    char *root = scratch();
    char *link = pbc_xprintf("%s/report.json", root);
    T_CHECK(symlink("/dev/full", link) == 0);
    T_CHECK(pbc_fs_write_atomic(link, "{}", 2, err, sizeof(err)) == -1);
    T_CHECK(strstr(err, "No space left on device") != NULL);
    T_CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
    T_CHECK(pbc_fs_write_atomic(root, "x", 1, err, sizeof(err)) == -1);
    T_CHECK_MSG(strstr(err, "Is a directory"), "%s", err);
    pbc_fs_remove_tree(root, NULL, 0);
    free(link);
    free(root);
}

T_TEST(provenance_digests)
{
    char *root = scratch();
    char *path = pbc_xprintf("%s/lib.so", root);
    T_CHECK(pbc_fs_write_atomic(path, "library bytes", 13, NULL, 0) == 0);
    char hex[33], err[256];
    T_CHECK(pbc_provenance_digest_file(path, hex, err, sizeof(err)) == 0);
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, XXH3_128bits("library bytes", 13));
    char want[33];
    for (int i = 0; i < 16; i++)
        snprintf(want + 2 * i, 3, "%02x", c.digest[i]);
    T_CHECK_MSG(!strcmp(hex, want), "%s vs %s", hex, want);
    T_CHECK(pbc_provenance_digest_file("/nonexistent/lib.so", hex, err, sizeof(err)) == -1);
    T_CHECK(!strcmp(err, "cannot read /nonexistent/lib.so: No such file or directory"));

    pbc_report_provenance p = {0};
    T_CHECK(pbc_provenance_collect(&p, path, NOON, err, sizeof(err)) == 0);
    T_CHECK(!strcmp(p.target_xxh3, want) && !p.target_builtin && !strcmp(p.target_binary, path));
    T_CHECK(!strcmp(p.started, "2026-11-24T12:00:00Z"));
    T_CHECK(p.cpu_count >= 1 && p.host[0]);
    T_CHECK(pbc_provenance_collect(&p, NULL, NOON, err, sizeof(err)) == 0);
    T_CHECK(p.target_builtin && strlen(p.target_xxh3) == 32);

    pbc_case items[2] = {{"fill/a", "pbs 1\n"}, {"fill/b", "pbs 1\nend\n"}};
    pbc_case_list l = {items, 2, 2};
    pbc_provenance_suite(&p, &l, 2);
    char first[33];
    memcpy(first, p.suite_xxh3, 33);
    T_CHECK(strlen(first) == 32 && p.suite_cases == 2);
    items[1].name[0] = 'F'; /* any change of a name or a scenario changes it */
    pbc_provenance_suite(&p, &l, 2);
    T_CHECK(strcmp(first, p.suite_xxh3) != 0);
    pbc_fs_remove_tree(root, NULL, 0);
    free(path);
    free(root);
}

/* A report with every field set, and text built to break each format. */
static const char hostile[] = "fill/</pre><script>alert(1)</script>&\"'\x01\xff";

static void hostile_report(pbc_report *r, pbc_report_case *cases, pbc_waivers *w)
{
    char err[256];
    static const char text[] = "fill/* PB-DIVERGE 2999-01-01 <b>known</b> & \"quoted\"\n";
    T_CHECK(pbc_waivers_parse(text, strlen(text), "<w>.txt", NOON, w, err, sizeof(err)) == 0);
    static const char *const argv[] = {"pbcheck", "certify", "--out", hostile, NULL};
    static const pbc_report_option options[] = {{"out", PBC_REPORT_OPT_TEXT, hostile},
                                                {"time", PBC_REPORT_OPT_NUMBER, "2"},
                                                {"quick", PBC_REPORT_OPT_FLAG, "1"},
                                                {"waivers", PBC_REPORT_OPT_TEXT, NULL}};
    cases[0] = (pbc_report_case){.name = hostile, .verdict = PBC_VERDICT_FAIL, .rule = "PB-DIVERGE",
                                 .message = hostile, .repro = "/x/repro/a<b>.pbs", .replay = hostile,
                                 .debug_output = "DbgPrint: </pre>\x02<hr>", .finished_at = 0.5};
    cases[1] = (pbc_report_case){.name = "map/crash", .verdict = PBC_VERDICT_FAIL, .rule = "",
                                 .message = "", .isolation = "crash", .isolation_detail = "SIGSEGV\n#0 <frame>",
                                 .finished_at = 1.0};
    cases[2] = (pbc_report_case){.name = "fuzz/seed-1/0", .verdict = PBC_VERDICT_FAIL, .rule = "PB-STATUS",
                                 .message = "m", .finished_at = 1.5};
    cases[3] = (pbc_report_case){.name = "fuzz/seed-1/1", .verdict = PBC_VERDICT_PASS, .rule = "",
                                 .message = "", .finished_at = 2.0};
    *r = (pbc_report){.target = hostile, .seconds = 2, .cases = cases, .case_count = 4, .random_cases = 2,
                      .waivers = w};
    r->provenance.version = "0.1.0";
    r->provenance.git_revision = "abc<def>";
    r->provenance.argv = argv;
    r->provenance.options = options;
    r->provenance.option_count = 4;
    snprintf(r->provenance.started, sizeof(r->provenance.started), "2026-11-24T12:00:00Z");
    snprintf(r->provenance.host, sizeof(r->provenance.host), "<host>");
    pbc_report_tally(r, cases);
}

T_TEST(writers_survive_hostile_text)
{
    pbc_report r;
    pbc_report_case cases[4];
    pbc_waivers w;
    hostile_report(&r, cases, &w);
    T_CHECK(r.waived == 1 && r.failed == 2 && r.isolated == 1);
    char *root = scratch();
    char err[512];
    T_CHECK_MSG(pbc_report_write_all(&r, root, err, sizeof(err)) == 0, "%s", err);

    char *path = pbc_xprintf("%s/report.json", root);
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    T_CHECK_MSG(j != NULL, "%s", je.text);
    json_t *results = json_object_get(j, "results");
    T_CHECK(json_array_size(results) == 4);
    T_CHECK(!strcmp(json_string_value(json_object_get(json_array_get(results, 0), "verdict")), "waived"));
    T_CHECK(json_object_get(json_array_get(results, 0), "debug_output") != NULL);
    T_CHECK(!strcmp(json_string_value(json_object_get(json_array_get(results, 1), "isolation")), "crash"));
    T_CHECK(json_is_true(json_object_get(json_object_get(json_object_get(j, "provenance"), "options"), "quick")));
    T_CHECK(json_integer_value(json_object_get(json_object_get(json_object_get(j, "provenance"), "options"),
                                               "time")) == 2);
    T_CHECK(!strcmp(json_string_value(json_object_get(j, "verdict")), "fail"));
    json_decref(j);
    free(path);

    path = pbc_xprintf("%s/junit.xml", root);
    xmlDocPtr doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    T_CHECK(doc != NULL);
    xmlFreeDoc(doc);
    char *text;
    size_t len;
    T_CHECK(pbc_fs_read(path, 1 << 20, &text, &len, NULL, 0) == 0);
    T_CHECK(strstr(text, "<system-out>DbgPrint: &lt;/pre&gt;") != NULL);
    T_CHECK(strstr(text, "<skipped message=\"waived (&lt;w&gt;.txt:1)") != NULL);
    T_CHECK(strstr(text, "type=\"crash\"") != NULL);
    free(text);
    free(path);

    path = pbc_xprintf("%s/index.html", root);
    T_CHECK(pbc_fs_read(path, 1 << 22, &text, &len, NULL, 0) == 0);
    T_CHECK_MSG(!strstr(text, "<script") && !strstr(text, "<b>known") && !strstr(text, "<hr>") &&
                !strstr(text, "<host>") && !strstr(text, "<frame>"), "markup got through");
    T_CHECK(!strstr(text, "{{"));
    T_CHECK(strstr(text, "<h1 id=\"verdict\">NOT CONFORMANT</h1>") != NULL);
    T_CHECK(strstr(text, "id=\"matrix\"") && strstr(text, "id=\"chart\"") && strstr(text, "id=\"waivers\""));
    T_CHECK(strstr(text, "<pre class=\"debug-output\">DbgPrint: &lt;/pre&gt;") != NULL);
    T_CHECK(strstr(text, "href=\"repro/a%3Cb%3E.pbs\"") != NULL);
    free(text);
    free(path);
    pbc_fs_remove_tree(root, NULL, 0);
    free(root);
    pbc_waivers_fini(&w);
}

T_TEST(report_write_stops_at_the_first_error)
{
    pbc_report r;
    pbc_report_case cases[4];
    pbc_waivers w;
    hostile_report(&r, cases, &w);
    char *root = scratch();
    char *json = pbc_xprintf("%s/junit.xml", root);
    T_CHECK(symlink("/dev/full", json) == 0);
    char err[512];
    T_CHECK(pbc_report_write_all(&r, root, err, sizeof(err)) == -1);
    char *want = pbc_xprintf("cannot write %s: No space left on device", json);
    T_CHECK_MSG(!strcmp(err, want), "%s", err);
    free(want);
    free(json);
    pbc_fs_remove_tree(root, NULL, 0);
    free(root);
    pbc_waivers_fini(&w);
}

T_TEST(triage_html_refuses_what_is_not_a_triage)
{
    static const char *const bad[][2] = {
        {"{\"format\": ", "triage.json: line 1: "},
        {"{\"format\": \"pbcheck-report\", \"version\": 1, \"buckets\": []}", "triage.json: its format is not"},
        {"{\"format\": \"pbcheck-triage\", \"version\": 2, \"buckets\": []}", "triage.json: version 2;"},
        {"{\"format\": \"pbcheck-triage\", \"version\": 1}", "triage.json: no array of buckets"},
        /* An id names a folder the page reads from: only bNNN. */
        {"{\"format\": \"pbcheck-triage\", \"version\": 1, \"buckets\": [{\"id\": \"b1/../../etc\"}]}",
         "triage.json: bucket 1 has no id"},
    };
    char *root = scratch(), err[512];
    char *page = pbc_xprintf("%s/triage.html", root);
    struct stat st;
    for (size_t i = 0; i < PBC_ARRAY_LEN(bad); i++) {
        err[0] = 0;
        T_CHECK(pbc_triage_write_html(root, bad[i][0], err, sizeof(err)) == -1);
        T_CHECK_MSG(!strncmp(err, bad[i][1], strlen(bad[i][1])) && !strchr(err, '\n'), "%s", err);
        T_CHECK(stat(page, &st) == -1);
    }
    T_CHECK(pbc_triage_write_html("/nonexistent-pbc-dir", "{\"format\": \"pbcheck-triage\", \"version\": 1, "
                                  "\"buckets\": []}", err, sizeof(err)) == -1);
    const char *want = "cannot write /nonexistent-pbc-dir/triage.html: ";
    T_CHECK_MSG(!strncmp(err, want, strlen(want)), "%s", err);
    pbc_fs_remove_tree(root, NULL, 0);
    free(page);
    free(root);
}

T_TEST(triage_html_escapes_the_json_and_the_reproducer)
{
    char *root = scratch(), err[512];
    char *bucket = pbc_xprintf("%s/buckets/b001", root), *repro = pbc_xprintf("%s/repro.pbs", bucket);
    T_CHECK(pbc_fs_mkdirs(bucket, err, sizeof(err)) == 0);
    const char *text = "# </pre><script>x()</script>\npbs 1\n";
    T_CHECK(pbc_fs_write_atomic(repro, text, strlen(text), err, sizeof(err)) == 0);
    const char *json = "{\"format\": \"pbcheck-triage\", \"version\": 1, \"target\": \"t<i>'\", \"inputs\": [],"
                       " \"buckets\": [{\"id\": \"b001\", \"title\": \"<b>&amp;\", \"count\": 1,"
                       " \"facts\": {\"class\": \"rule\", \"rule\": \"PB-X\"}, \"repro\": \"buckets/b001/repro.pbs\","
                       " \"inputs\": [\"crash-<u>\"]}]}";
    T_CHECK_MSG(pbc_triage_write_html(root, json, err, sizeof(err)) == 0, "%s", err);
    char *path = pbc_xprintf("%s/triage.html", root), *doc = NULL;
    size_t n;
    T_CHECK(pbc_fs_read(path, 1 << 20, &doc, &n, err, sizeof(err)) == 0);
    if (doc) {
        T_CHECK(strstr(doc, "# &lt;/pre&gt;&lt;script&gt;x()&lt;/script&gt;\npbs 1\n</pre>") != NULL);
        T_CHECK(strstr(doc, "&lt;b&gt;&amp;amp;") && strstr(doc, "t&lt;i&gt;&#39;") && strstr(doc, "crash-&lt;u&gt;"));
        T_CHECK(!strstr(doc, "<script") && !strstr(doc, "<i>") && !strstr(doc, "<u>") && !strstr(doc, "<b>"));
        T_CHECK(strstr(doc, "pbcheck run buckets/b001/repro.pbs --target &#39;t&lt;i&gt;&#39;\\&#39;</pre>"));
        T_CHECK(!strstr(doc, "{{"));
    }
    free(doc);
    free(path);
    pbc_fs_remove_tree(root, NULL, 0);
    free(repro);
    free(bucket);
    free(root);
}

/* Groups roll up under root causes: the groups whose reproducer's last
 * writer is one store, with the crash group on that line and wrong memory
 * whose store was not found, are one; a crash elsewhere and a rule's
 * group with no writer stand apart, the latter by the DDI and field its
 * rule judges (one root cause for a wrong status in two operations). */
T_TEST(groups_roll_up_under_the_store_that_wrote)
{
    static const struct {
        const char *sig, *cls_rule, *writer, *location, *ddi;
    } rows[] = {
        {"divergence|PB-DIVERGE|fill|segment|one-pass|||||", "PB-DIVERGE", "written by F at a.c:7", "a.c:7"},
        {"divergence|PB-DIVERGE|transfer|system|resumed|||||", "PB-DIVERGE", "written by F at a.c:7", "a.c:7"},
        {"rule|PB-GPU-FAULT||||||||", "PB-GPU-FAULT", "the GPU faulted ... a.c:7", "a.c:7"},
        {"crash|||||SIGSEGV||F||", "", NULL, "a.c:7"},
        {"crash|||||SIGSEGV||G||", "", NULL, "b.c:3"},
        {"rule|PB-FENCE||||||||", "PB-FENCE", NULL, "a.c:1", "SubmitCommand: fence written"},
        {"divergence|PB-DIVERGE|transfer|segment|one-pass|||||", "PB-DIVERGE", NULL, "a.c:1",
         "BuildPagingBuffer: memory written"},
        {"rule|PB-STATUS|fill||||||||", "PB-STATUS", NULL, "a.c:1", "BuildPagingBuffer: status returned"},
        {"rule|PB-STATUS|transfer||||||||", "PB-STATUS", NULL, "a.c:1", "BuildPagingBuffer: status returned"},
    };
    pbc_report_case cases[PBC_ARRAY_LEN(rows)];
    memset(cases, 0, sizeof(cases));
    for (size_t i = 0; i < PBC_ARRAY_LEN(rows); i++) {
        cases[i].name = rows[i].sig;
        cases[i].verdict = PBC_VERDICT_FAIL;
        cases[i].rule = rows[i].cls_rule;
        cases[i].message = "m";
        cases[i].signature = cases[i].title = rows[i].sig;
        cases[i].last_writer = rows[i].writer;
        cases[i].location = rows[i].location;
        cases[i].ddi = rows[i].ddi;
        cases[i].isolation = rows[i].cls_rule[0] ? NULL : "crash";
    }
    pbc_report r = {.target = "t", .cases = cases, .case_count = PBC_ARRAY_LEN(rows)};
    pbc_report_groups g;
    pbc_report_group_failures(&r, &g);
    T_CHECK_MSG(g.count == 9 && g.root_count == 4, "%u groups, %u root causes", g.count, g.root_count);
    uint32_t store = g.items[g.of_case[0]].root;
    T_CHECK(!strcmp(g.roots[store].key, "writer|a.c:7") && g.roots[store].groups == 5 && g.roots[store].cases == 5);
    for (int i = 1; i < 4; i++)
        T_CHECK(g.items[g.of_case[i]].root == store);
    T_CHECK(g.items[g.of_case[6]].root == store);
    T_CHECK(g.items[g.of_case[4]].root != store && g.items[g.of_case[5]].root != store &&
            g.items[g.of_case[4]].root != g.items[g.of_case[5]].root);
    uint32_t status = g.items[g.of_case[7]].root;
    T_CHECK_MSG(g.items[g.of_case[8]].root == status && !strcmp(g.roots[status].key, "ddi|BuildPagingBuffer: status returned"),
                "%s", g.roots[status].key);
    T_CHECK(!strcmp(g.roots[g.items[g.of_case[5]].root].key, "ddi|SubmitCommand: fence written"));
    pbc_report_groups_fini(&g);
}

/* 100,000 failing cases in 300 ways, with long names and output, and
 * skips for 40 reasons: the groups hold every case once, largest first,
 * each showing its smallest case with a reproducer; summary.md stays
 * within PBC_REPORT_SUMMARY_MAX and names the largest group. */
T_TEST(groups_and_a_bounded_summary)
{
    enum { FAILS = 100000, SKIPS = 400, WAYS = 600 };
    pbc_report_case *cases = pbc_xcalloc(FAILS + SKIPS, sizeof(*cases));
    char **names = pbc_xcalloc(FAILS + SKIPS, sizeof(*names)), **sigs = pbc_xcalloc(WAYS, sizeof(*sigs));
    char long_text[600];
    memset(long_text, 'x', sizeof(long_text) - 1);
    long_text[sizeof(long_text) - 1] = 0;
    for (uint32_t w = 0; w < WAYS; w++)
        sigs[w] = pbc_xprintf("divergence|PB-DIVERGE|op%u|segment|one-pass|||||", w);
    for (uint32_t i = 0; i < FAILS + SKIPS; i++) {
        pbc_report_case *c = &cases[i];
        int skip = i >= FAILS;
        /* way w holds cases i with i % (w+1)...: make way 0 the largest */
        uint32_t w = i % 7 ? i % WAYS : 0;
        names[i] = pbc_xprintf("op%u/%s/%u", w, long_text, i);
        c->name = names[i];
        c->verdict = skip ? PBC_VERDICT_SKIP : PBC_VERDICT_FAIL;
        c->rule = skip ? "" : "PB-DIVERGE";
        c->message = skip ? (i % 40 ? "the builder does not declare Fill" : long_text) : long_text;
        c->signature = skip ? NULL : sigs[w];
        c->title = skip ? NULL : long_text;
        c->size = 1000 - i % 500;
        if (!skip && i % 500 == 499) /* the smallest of its way gets the reproducer */
            c->repro = c->replay = long_text;
    }
    pbc_report r = {.target = "t", .cases = cases, .case_count = FAILS + SKIPS, .operations_known = 1,
                    .operations = 1};
    pbc_report_tally(&r, cases);
    pbc_report_groups g;
    pbc_report_group_failures(&r, &g);
    T_CHECK(g.count == WAYS);
    char largest[32];
    snprintf(largest, sizeof(largest), "**%s**", g.count ? g.items[0].id : "?");
    uint32_t total = 0;
    for (uint32_t i = 0; i < g.count; i++) {
        total += g.items[i].count;
        T_CHECK(i == 0 || g.items[i].count <= g.items[i - 1].count);
    }
    T_CHECK(total == FAILS);
    T_CHECK(!strcmp(g.items[0].key, sigs[0]));
    T_CHECK(cases[g.items[0].shown].repro != NULL && cases[g.items[0].shown].size == 501);
    T_CHECK(g.of_case[7] == 0 && g.of_case[FAILS] == -1);
    pbc_report_groups_fini(&g);
    pbc_report_group_skips(&r, &g);
    T_CHECK(g.count == 2 && g.items[0].count == SKIPS - SKIPS / 40);
    pbc_report_groups_fini(&g);
    const char *undeclared[PBC_DDI_OPERATION_COUNT];
    T_CHECK(pbc_report_undeclared(&r, undeclared, PBC_DDI_OPERATION_COUNT) == PBC_DDI_OPERATION_COUNT - 1);
    T_CHECK(!strcmp(undeclared[0], "Fill"));

    char *root = scratch(), err[512], *path = pbc_xprintf("%s/summary.md", root), *doc = NULL;
    size_t n = 0;
    T_CHECK_MSG(pbc_report_write_summary(&r, path, err, sizeof(err)) == 0, "%s", err);
    T_CHECK(pbc_fs_read(path, 1 << 24, &doc, &n, err, sizeof(err)) == 0);
    T_CHECK_MSG(n <= PBC_REPORT_SUMMARY_MAX, "summary.md is %zu bytes", n);
    T_CHECK(doc && strstr(doc, "## Failures by group") && strstr(doc, largest));
    T_CHECK(doc && strstr(doc, "## Not tested") && strstr(doc, "`Fill`"));
    free(doc);
    /* index.html: every group listed, still a page a browser opens at once */
    char *html = pbc_xprintf("%s/index.html", root);
    T_CHECK_MSG(pbc_report_write_html(&r, html, err, sizeof(err)) == 0, "%s", err);
    doc = NULL;
    T_CHECK(pbc_fs_read(html, 1 << 26, &doc, &n, err, sizeof(err)) == 0);
    T_CHECK_MSG(n < (8u << 20), "index.html is %zu bytes", n);
    T_CHECK(doc && strstr(doc, "id=\"f-r") && strstr(doc, "Past the first"));
    free(doc);
    free(html);
    pbc_fs_remove_tree(root, NULL, 0);
    free(path);
    free(root);

    pbc_report_repro_claims claims = {0};
    uint32_t replaces;
    T_CHECK(pbc_report_repro_claim(&claims, "a", 100, 0, &replaces) == 1 && replaces == UINT32_MAX);
    T_CHECK(pbc_report_repro_claim(&claims, "a", 100, 1, &replaces) == 0);
    T_CHECK(pbc_report_repro_claim(&claims, "b", 300, 2, &replaces) == 1 && replaces == UINT32_MAX);
    T_CHECK(pbc_report_repro_claim(&claims, "a", 50, 3, &replaces) == 1 && replaces == 0);
    T_CHECK(pbc_report_repro_claim(&claims, NULL, 50, 4, &replaces) == 1);
    pbc_report_repro_claims_fini(&claims);
    for (uint32_t i = 0; i < FAILS + SKIPS; i++)
        free(names[i]);
    for (uint32_t w = 0; w < WAYS; w++)
        free(sigs[w]);
    free(sigs);
    free(names);
    free(cases);
}

T_MAIN()
