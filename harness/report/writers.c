/*
 * The certification reports. Parsers other people run read these files
 * (CI's JUnit importer, dashboards reading report.json), so they are built
 * with libraries that cannot produce malformed output rather than by hand:
 *
 * - report.json through jansson: a small C library with a stable API that
 *   builds the document as a tree, escapes strings itself and refuses
 *   invalid UTF-8 (so text is cleaned first, report/text.h), then dumps
 *   it in one call. json-c would do too, but its string handling does not
 *   check UTF-8 and its API has changed more between releases.
 * - junit.xml through libxml2's xmlTextWriter, which escapes markup in
 *   content and attributes; characters XML 1.0 forbids are replaced first.
 * - summary.md by hand: Markdown has no parser to fail, only code spans
 *   to keep intact.
 *
 * Each document is built in memory and written with pbc_fs_write_atomic.
 */
#include "report/writers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <libxml/xmlwriter.h>

#include "base/fs.h"
#include "base/util.h"
#include "exec/runner.h"
#include "report/text.h"

static int all_passed(const pbc_report *r) { return r->failed == 0 && r->harness_bugs == 0; }

static const char *verdict_word(uint32_t v)
{
    return v == PBC_VERDICT_PASS ? "pass" : v == PBC_VERDICT_SKIP ? "skip"
         : v == PBC_VERDICT_FAIL ? "fail" : "harness-bug";
}

static int format_failed(char *err, size_t err_size, const char *path, const char *why)
{
    if (err && err_size)
        snprintf(err, err_size, "cannot write %s: %s", path, why);
    return -1;
}

/* ---- report.json ---- */

/* A JSON string of s made valid UTF-8; NULL only when out of memory,
 * which json_object_set_new then reports as a failure. */
static json_t *json_text(const char *s)
{
    char *clean = pbc_report_text(s ? s : "", PBC_REPORT_TEXT_UTF8);
    json_t *j = json_string(clean);
    free(clean);
    return j;
}

int pbc_report_write_json(const pbc_report *r, const char *path, char *err, size_t err_size)
{
    json_t *root = json_object(), *rules = json_object(), *results = json_array();
    int bad = !root || !rules || !results;
    bad |= json_object_set_new(root, "target", json_text(r->target));
    bad |= json_object_set_new(root, "verdict", json_string(all_passed(r) ? "pass" : "fail"));
    bad |= json_object_set_new(root, "cases", json_integer(r->case_count));
    bad |= json_object_set_new(root, "passed", json_integer(r->passed));
    bad |= json_object_set_new(root, "failed", json_integer(r->failed));
    bad |= json_object_set_new(root, "skipped", json_integer(r->skipped));
    bad |= json_object_set_new(root, "harness_bugs", json_integer(r->harness_bugs));
    bad |= json_object_set_new(root, "seconds", json_real(r->seconds));
    for (uint32_t i = 0; i < PBC_RULE_COUNT; i++)
        bad |= json_object_set_new(rules, pbc_rule_get((pbc_rule_id)i)->id, json_integer(r->rule_hits[i]));
    bad |= json_object_set(root, "rules", rules);
    for (uint32_t i = 0; i < r->case_count && !bad; i++) {
        const pbc_report_case *c = &r->cases[i];
        json_t *o = json_object();
        bad |= !o;
        bad |= json_object_set_new(o, "name", json_text(c->name));
        bad |= json_object_set_new(o, "verdict", json_string(verdict_word(c->verdict)));
        bad |= json_object_set_new(o, "rule", json_text(c->rule));
        if (c->verdict != PBC_VERDICT_PASS)
            bad |= json_object_set_new(o, "message", json_text(c->message));
        if (c->repro)
            bad |= json_object_set_new(o, "repro", json_text(c->repro));
        if (c->replay)
            bad |= json_object_set_new(o, "replay", json_text(c->replay));
        bad |= json_array_append_new(results, o);
    }
    bad |= json_object_set(root, "results", results);
    /* Milliseconds are all "seconds" means; the default precision would
     * print binary noise (0.12300000000000001). */
    char *text = bad ? NULL : json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(9));
    json_decref(rules);
    json_decref(results);
    json_decref(root);
    if (!text)
        return format_failed(err, err_size, path, "jansson could not build the document");
    char *doc = pbc_xprintf("%s\n", text);
    free(text);
    int rc = pbc_fs_write_atomic(path, doc, strlen(doc), err, err_size);
    free(doc);
    return rc;
}

/* ---- junit.xml ---- */

static int xml_attr(xmlTextWriterPtr w, const char *name, const char *value)
{
    char *clean = pbc_report_text(value, PBC_REPORT_TEXT_XML);
    int rc = xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST clean);
    free(clean);
    return rc < 0;
}

static int xml_attr_u32(xmlTextWriterPtr w, const char *name, uint32_t v)
{
    return xmlTextWriterWriteFormatAttribute(w, BAD_CAST name, "%u", v) < 0;
}

static int xml_content(xmlTextWriterPtr w, const char *text)
{
    char *clean = pbc_report_text(text, PBC_REPORT_TEXT_XML);
    int rc = xmlTextWriterWriteString(w, BAD_CAST clean);
    free(clean);
    return rc < 0;
}

/* One <testcase>: classname is the operation (the case name up to its
 * first '/'), so CI groups cases by operation. */
static int junit_case(xmlTextWriterPtr w, const pbc_report_case *c)
{
    const char *slash = strchr(c->name, '/');
    char *classname = pbc_xprintf("%.*s", (int)(slash ? slash - c->name : 0), c->name);
    int bad = xmlTextWriterStartElement(w, BAD_CAST "testcase") < 0;
    bad |= xml_attr(w, "classname", classname);
    bad |= xml_attr(w, "name", c->name);
    free(classname);
    if (c->verdict == PBC_VERDICT_FAIL || c->verdict == PBC_VERDICT_HARNESS_BUG) {
        bad |= xmlTextWriterStartElement(w, BAD_CAST(c->verdict == PBC_VERDICT_FAIL ? "failure" : "error")) < 0;
        bad |= xml_attr(w, "message", c->rule[0] ? c->rule : "harness bug");
        bad |= xml_content(w, c->message);
        if (c->replay) {
            bad |= xml_content(w, "\nreplay: ");
            bad |= xml_content(w, c->replay);
        }
        bad |= xmlTextWriterEndElement(w) < 0;
    } else if (c->verdict == PBC_VERDICT_SKIP) {
        bad |= xmlTextWriterStartElement(w, BAD_CAST "skipped") < 0;
        bad |= xml_attr(w, "message", c->message);
        bad |= xmlTextWriterEndElement(w) < 0;
    }
    bad |= xmlTextWriterEndElement(w) < 0;
    return bad;
}

int pbc_report_write_junit(const pbc_report *r, const char *path, char *err, size_t err_size)
{
    xmlBufferPtr buf = xmlBufferCreate();
    xmlTextWriterPtr w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
    if (!w) {
        xmlBufferFree(buf);
        return format_failed(err, err_size, path, "libxml2 could not start a document");
    }
    char *suite = pbc_xprintf("pbcheck.certify.%s", r->target);
    int bad = xmlTextWriterSetIndent(w, 1) < 0;
    bad |= xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL) < 0;
    bad |= xmlTextWriterStartElement(w, BAD_CAST "testsuites") < 0;
    bad |= xmlTextWriterStartElement(w, BAD_CAST "testsuite") < 0;
    bad |= xml_attr(w, "name", suite);
    bad |= xml_attr_u32(w, "tests", r->case_count);
    bad |= xml_attr_u32(w, "failures", r->failed);
    bad |= xml_attr_u32(w, "errors", r->harness_bugs);
    bad |= xml_attr_u32(w, "skipped", r->skipped);
    bad |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "time", "%.3f", r->seconds) < 0;
    for (uint32_t i = 0; i < r->case_count && !bad; i++)
        bad |= junit_case(w, &r->cases[i]);
    bad |= xmlTextWriterEndDocument(w) < 0; /* closes every open element */
    xmlFreeTextWriter(w); /* flushes into buf */
    free(suite);
    int rc;
    if (bad)
        rc = format_failed(err, err_size, path, "libxml2 could not format the document");
    else
        rc = pbc_fs_write_atomic(path, xmlBufferContent(buf), (size_t)xmlBufferLength(buf), err, err_size);
    xmlBufferFree(buf);
    return rc;
}

/* ---- summary.md ---- */

/* `text` as a Markdown code span: fenced by more backticks than any run
 * inside it, padded with spaces when it starts or ends with one. */
static void md_code(FILE *f, const char *text)
{
    size_t longest = 0, run = 0;
    for (const char *p = text; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        longest = run > longest ? run : longest;
    }
    size_t len = strlen(text);
    int pad = len && (text[0] == '`' || text[len - 1] == '`');
    for (size_t i = 0; i <= longest; i++)
        fputc('`', f);
    fprintf(f, "%s%s%s", pad ? " " : "", text, pad ? " " : "");
    for (size_t i = 0; i <= longest; i++)
        fputc('`', f);
}

int pbc_report_write_summary(const pbc_report *r, const char *path, char *err, size_t err_size)
{
    char *doc = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&doc, &len);
    if (!f)
        return format_failed(err, err_size, path, "out of memory");
    char *target = pbc_report_text(r->target, PBC_REPORT_TEXT_UTF8);
    fprintf(f, "# pbcheck certify: %s\n\n**Verdict: %s** — %u cases, %u passed, %u failed, %u skipped, "
               "%u harness bugs, %.1f s.\n\n| rule | failing cases |\n|---|---|\n",
            target, all_passed(r) ? "conformant" : "NOT conformant", r->case_count, r->passed, r->failed,
            r->skipped, r->harness_bugs, r->seconds);
    free(target);
    for (uint32_t i = 0; i < PBC_RULE_COUNT; i++)
        fprintf(f, "| %s | %u |\n", pbc_rule_get((pbc_rule_id)i)->id, r->rule_hits[i]);
    if (!all_passed(r))
        fprintf(f, "\n## Failing cases\n\n");
    for (uint32_t i = 0; i < r->case_count; i++) {
        const pbc_report_case *c = &r->cases[i];
        if (!c->replay)
            continue;
        char *name = pbc_report_text(c->name, PBC_REPORT_TEXT_UTF8);
        char *replay = pbc_report_text(c->replay, PBC_REPORT_TEXT_UTF8);
        fputs("- ", f);
        md_code(f, name);
        fprintf(f, " — %s\n  replay: ", c->rule);
        md_code(f, replay);
        fputc('\n', f);
        free(name);
        free(replay);
    }
    int bad = ferror(f);
    if (fclose(f) || bad) {
        free(doc);
        return format_failed(err, err_size, path, "out of memory");
    }
    int rc = pbc_fs_write_atomic(path, doc, len, err, err_size);
    free(doc);
    return rc;
}

int pbc_report_write_all(const pbc_report *r, const char *dir, char *err, size_t err_size)
{
    static const char *const names[] = {"report.json", "junit.xml", "summary.md"};
    int (*const writers[])(const pbc_report *, const char *, char *, size_t) = {
        pbc_report_write_json, pbc_report_write_junit, pbc_report_write_summary};
    for (size_t i = 0; i < PBC_ARRAY_LEN(names); i++) {
        char *path = pbc_xprintf("%s/%s", dir, names[i]);
        int rc = writers[i](r, path, err, err_size);
        free(path);
        if (rc)
            return rc;
    }
    return 0;
}

/* ---- Reproducers ---- */

char *pbc_report_repro_path(const char *dir, const char *case_name)
{
    char *path = pbc_xprintf("%s/repro/%s.pbs", dir, case_name);
    for (char *p = path + strlen(dir) + strlen("/repro/"); *p; p++)
        if (*p == '/')
            *p = '.';
    return path;
}

int pbc_report_write_repro(const char *path, const char *case_name, const char *rule,
                           const char *replay, const char *scenario_text, char *err, size_t err_size)
{
    /* The replay command is one line whatever the path holds (see
     * pbc_report_shell_quote), so it stays inside its comment. */
    char *doc = pbc_xprintf("# %s: %s\n# %s\n%s", case_name, rule, replay, scenario_text);
    int rc = pbc_fs_write_atomic(path, doc, strlen(doc), err, err_size);
    free(doc);
    return rc;
}
