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

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <libxml/xmlwriter.h>

#include "base/fs.h"
#include "base/util.h"
#include "exec/runner.h"
#include "certify/groups.h"
#include "report/sarif.h"
#include "report/text.h"
#include "scenario/scenario.h"

/* report.json's word for the run's verdict. */
static const char *run_verdict_word(const pbc_report *r)
{
    pbc_report_verdict v = pbc_report_get_verdict(r);
    return v == PBC_REPORT_CONFORMANT ? "pass" : v == PBC_REPORT_NOT_CONFORMANT ? "fail" : "incomplete";
}

static const char *verdict_word(const pbc_report_case *c)
{
    if (c->waiver)
        return "waived";
    uint32_t v = c->verdict;
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

/* A string, or null when s is NULL or empty (an unknown). */
static json_t *json_known(const char *s) { return s && s[0] ? json_text(s) : json_null(); }

static json_t *json_option(const pbc_report_option *o)
{
    if (!o->value)
        return json_null();
    if (o->kind == PBC_REPORT_OPT_FLAG)
        return json_boolean(strcmp(o->value, "0") != 0);
    if (o->kind == PBC_REPORT_OPT_NUMBER) {
        char *end;
        double v = strtod(o->value, &end);
        if (!*end)
            return v == (double)(json_int_t)v ? json_integer((json_int_t)v) : json_real(v);
    }
    return json_text(o->value);
}

/* provenance.decoder: null when no target was loaded. */
static json_t *json_decoder(const pbc_report_provenance *p)
{
    if (!p->decoder.known)
        return json_null();
    json_t *o = json_object(), *hooks = json_array(), *purity = json_object();
    int bad = !o || !hooks || !purity;
    static const char *const names[] = {"decode", "disasm", "pte_decode"};
    for (uint32_t i = 0; i < PBC_ARRAY_LEN(names); i++)
        if (p->decoder.hooks & (1u << i))
            bad |= json_array_append_new(hooks, json_string(names[i]));
    bad |= json_object_set_new(o, "isa", json_text(p->decoder.isa));
    bad |= json_object_set(o, "hooks", hooks);
    bad |= json_object_set_new(o, "pte_size", json_integer(p->decoder.pte_size));
    bad |= json_object_set_new(o, "pt_levels", json_integer(p->decoder.pt_levels));
    bad |= json_object_set_new(o, "xxh3_128", json_known(p->target_xxh3));
    bad |= json_object_set_new(o, "process", json_known(p->decoder.process));
    bad |= json_object_set_new(purity, "audited", json_boolean(p->decoder.audited));
    bad |= json_object_set_new(purity, "pure", p->decoder.audited ? json_boolean(p->decoder.pure) : json_null());
    bad |= json_object_set_new(purity, "answers_recorded", json_integer(p->decoder.recorded));
    bad |= json_object_set_new(purity, "answers_asked_again", json_integer(p->decoder.asked_again));
    bad |= json_object_set_new(purity, "answers_not_recorded", json_integer(p->decoder.not_recorded));
    if (p->decoder.finding)
        bad |= json_object_set_new(purity, "finding", json_text(p->decoder.finding));
    bad |= json_object_set(o, "purity", purity);
    json_decref(hooks);
    json_decref(purity);
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *json_provenance(const pbc_report_provenance *p)
{
    json_t *o = json_object(), *options = json_object(), *argv = json_array();
    json_t *binary = json_object(), *suite = json_object(), *cpu = json_object();
    int bad = !o || !options || !argv || !binary || !suite || !cpu;
    bad |= json_object_set_new(o, "pbcheck_version", json_known(p->version));
    bad |= json_object_set_new(o, "git_revision", json_known(p->git_revision));
    bad |= json_object_set_new(binary, "path", json_known(p->target_binary));
    bad |= json_object_set_new(binary, "builtin", json_boolean(p->target_builtin));
    bad |= json_object_set_new(binary, "xxh3_128", json_known(p->target_xxh3));
    bad |= json_object_set(o, "target_binary", binary);
    bad |= json_object_set_new(suite, "cases", json_integer(p->suite_cases));
    bad |= json_object_set_new(suite, "xxh3_128", json_known(p->suite_xxh3));
    bad |= json_object_set(o, "suite", suite);
    json_t *random = json_object();
    bad |= !random || json_object_set_new(random, "mode", json_known(p->random_mode)) ||
           json_object_set_new(random, "seed", json_integer((json_int_t)p->random_seed)) ||
           json_object_set_new(random, "cases", json_integer(p->random_cases)) ||
           json_object_set_new(o, "random_phase", random);
    for (uint32_t i = 0; i < p->option_count; i++)
        bad |= json_object_set_new(options, p->options[i].name, json_option(&p->options[i]));
    bad |= json_object_set(o, "options", options);
    for (uint32_t i = 0; p->argv && p->argv[i]; i++)
        bad |= json_array_append_new(argv, json_text(p->argv[i]));
    bad |= json_object_set(o, "command_line", argv);
    bad |= json_object_set_new(o, "started", json_known(p->started));
    bad |= json_object_set_new(o, "host", json_known(p->host));
    bad |= json_object_set_new(o, "os", json_known(p->os));
    bad |= json_object_set_new(cpu, "model", json_known(p->cpu_model));
    bad |= json_object_set_new(cpu, "count", json_integer(p->cpu_count));
    bad |= json_object_set(o, "cpu", cpu);
    bad |= json_object_set_new(o, "run_id", json_known(p->run_id));
    bad |= json_object_set_new(o, "isolation", json_known(p->isolation));
    bad |= json_object_set_new(o, "decoder", json_decoder(p));
    json_decref(options);
    json_decref(argv);
    json_decref(binary);
    json_decref(suite);
    json_decref(cpu);
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *json_waiver(const pbc_waiver *w)
{
    json_t *o = json_object();
    int bad = !o;
    bad |= json_object_set_new(o, "where", json_text(w->where));
    bad |= json_object_set_new(o, "pattern", json_text(w->pattern));
    bad |= json_object_set_new(o, "rule", json_text(w->rule));
    bad |= json_object_set_new(o, "expires", json_text(w->expires));
    bad |= json_object_set_new(o, "reason", json_text(w->reason));
    bad |= json_object_set_new(o, "expired", json_boolean(w->expired));
    bad |= json_object_set_new(o, "matched", json_integer(w->matched));
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *json_case(const pbc_report_case *c, const char *group)
{
    json_t *o = json_object();
    int bad = !o;
    bad |= json_object_set_new(o, "name", json_text(c->name));
    if (group)
        bad |= json_object_set_new(o, "group", json_string(group));
    bad |= json_object_set_new(o, "verdict", json_string(verdict_word(c)));
    bad |= json_object_set_new(o, "rule", json_text(c->rule));
    if (c->verdict != PBC_VERDICT_PASS)
        bad |= json_object_set_new(o, "message", json_text(c->message));
    if (c->repro)
        bad |= json_object_set_new(o, "repro", json_text(c->repro));
    if (c->replay)
        bad |= json_object_set_new(o, "replay", json_text(c->replay));
    if (c->isolation) {
        bad |= json_object_set_new(o, "isolation", json_text(c->isolation));
        if (c->isolation_detail)
            bad |= json_object_set_new(o, "isolation_detail", json_text(c->isolation_detail));
    }
    if (c->debug_output)
        bad |= json_object_set_new(o, "debug_output", json_text(c->debug_output));
    if (c->location)
        bad |= json_object_set_new(o, "location", json_text(c->location));
    if (c->last_writer)
        bad |= json_object_set_new(o, "last_writer", json_text(c->last_writer));
    if (c->ddi)
        bad |= json_object_set_new(o, "ddi", json_text(c->ddi));
    if (c->waiver) {
        json_t *w = json_object();
        bad |= !w;
        bad |= json_object_set_new(w, "reason", json_text(c->waiver->reason));
        bad |= json_object_set_new(w, "where", json_text(c->waiver->where));
        bad |= json_object_set_new(o, "waiver", w);
    }
    bad |= json_object_set_new(o, "finished_at", json_real(c->finished_at));
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

int pbc_report_journal_open(const char *dir, char *err, size_t err_size)
{
    char *path = pbc_xprintf("%s/journal.jsonl", dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        format_failed(err, err_size, path, strerror(errno));
    free(path);
    return fd;
}

int pbc_report_journal_case(int fd, const char *dir, const pbc_report_case *c, uint64_t *size, char *err,
                            size_t err_size)
{
    if (*size >= PBC_REPORT_JOURNAL_MAX)
        return 0; /* full: the reports at the end hold every case */
    json_t *o = json_case(c, NULL);
    char *line = o ? json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;
    json_decref(o);
    int rc = 0;
    size_t n = line ? strlen(line) : 0;
    if (line)
        line[n] = '\n'; /* json_dumps' terminator becomes the line's end */
    static const char full[] = "{\"journal_full\":true}\n";
    const char *what = line;
    size_t len = n + 1;
    if (line && *size + len + sizeof(full) > PBC_REPORT_JOURNAL_MAX) {
        what = full; /* the last line says why no more follow */
        len = sizeof(full) - 1;
    }
    size_t done = 0;
    while (line && done < len) { /* a short write is retried: the next says why it fell short (ENOSPC) */
        ssize_t k = write(fd, what + done, len - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        done += (size_t)k;
    }
    if (!line || done < len) {
        char *path = pbc_xprintf("%s/journal.jsonl", dir);
        rc = format_failed(err, err_size, path, line ? strerror(errno) : "out of memory");
        free(path);
    }
    *size = what == full ? PBC_REPORT_JOURNAL_MAX : *size + len;
    free(line);
    return rc;
}

/* A group of failing cases: its signature, its count and the case shown
 * in full (its reproducer); the cases name their group themselves. */
static json_t *json_group(const pbc_report *r, const pbc_report_groups *all, const pbc_report_group *g)
{
    const pbc_report_case *shown = &r->cases[g->shown];
    json_t *o = json_object();
    int bad = !o;
    bad |= json_object_set_new(o, "id", json_string(g->id));
    bad |= json_object_set_new(o, "root_cause", json_string(all->roots[g->root].id));
    bad |= json_object_set_new(o, "signature", json_text(g->key));
    bad |= json_object_set_new(o, "title", json_text(g->title));
    bad |= json_object_set_new(o, "class", json_text(g->cls));
    bad |= json_object_set_new(o, "rule", json_text(g->rule));
    bad |= json_object_set_new(o, "cases", json_integer(g->count));
    bad |= json_object_set_new(o, "waived", json_integer(g->waived));
    bad |= json_object_set_new(o, "shown", json_text(shown->name));
    if (shown->repro)
        bad |= json_object_set_new(o, "repro", json_text(shown->repro));
    if (shown->replay)
        bad |= json_object_set_new(o, "replay", json_text(shown->replay));
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* The operations (first parts of case names) of a group's cases, with
 * how many each. */
static json_t *json_operations(const pbc_report *r, const pbc_report_group *g)
{
    json_t *o = json_object();
    for (uint32_t i = 0; o && i < g->count; i++) {
        const char *name = r->cases[g->cases[i]].name;
        char *op = pbc_xprintf("%.*s", (int)strcspn(name, "/"), name), *clean = pbc_report_text(op, PBC_REPORT_TEXT_UTF8);
        json_t *n = json_object_get(o, clean);
        json_object_set_new(o, clean, json_integer(n ? json_integer_value(n) + 1 : 1));
        free(clean);
        free(op);
    }
    return o;
}

/* What the run did not test: skipped cases by reason, and the DXGK
 * operations the target does not declare (null when unknown). */
static json_t *json_not_tested(const pbc_report *r, const pbc_report_groups *skips)
{
    json_t *o = json_object(), *groups = json_array();
    int bad = !o || !groups;
    for (uint32_t i = 0; i < skips->count && !bad; i++) {
        const pbc_report_group *g = &skips->items[i];
        json_t *j = json_object(), *examples = json_array();
        bad |= !j || !examples;
        bad |= json_object_set_new(j, "id", json_string(g->id));
        bad |= json_object_set_new(j, "reason", json_text(g->key));
        bad |= json_object_set_new(j, "cases", json_integer(g->count));
        bad |= json_object_set_new(j, "operations", json_operations(r, g));
        for (uint32_t k = 0; k < g->count && k < 5; k++)
            bad |= json_array_append_new(examples, json_text(r->cases[g->cases[k]].name));
        bad |= json_object_set_new(j, "examples", examples);
        bad |= json_array_append_new(groups, j);
    }
    bad |= json_object_set_new(o, "skipped", groups);
    json_t *ops = r->operations_known ? json_array() : json_null();
    const char *names[PBC_DDI_OPERATION_COUNT];
    uint32_t n = pbc_report_undeclared(r, names, PBC_DDI_OPERATION_COUNT);
    for (uint32_t i = 0; i < n && !bad; i++)
        bad |= json_array_append_new(ops, json_string(names[i]));
    bad |= json_object_set_new(o, "undeclared_operations", ops);
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

int pbc_report_write_json(const pbc_report *r, const char *path, char *err, size_t err_size)
{
    json_t *root = json_object(), *rules = json_object(), *results = json_array(), *waivers = json_array();
    int bad = !root || !rules || !results || !waivers;
    bad |= json_object_set_new(root, "format_version", json_integer(1));
    bad |= json_object_set_new(root, "target", json_text(r->target));
    bad |= json_object_set_new(root, "verdict", json_string(run_verdict_word(r)));
    bad |= json_object_set_new(root, "interrupted", json_boolean(r->interrupted));
    if (pbc_report_incomplete_reason(r))
        bad |= json_object_set_new(root, "incomplete_reason", json_string(pbc_report_incomplete_reason(r)));
    bad |= json_object_set_new(root, "cases", json_integer(r->case_count));
    bad |= json_object_set_new(root, "passed", json_integer(r->passed));
    bad |= json_object_set_new(root, "failed", json_integer(r->failed));
    bad |= json_object_set_new(root, "waived", json_integer(r->waived));
    bad |= json_object_set_new(root, "skipped", json_integer(r->skipped));
    bad |= json_object_set_new(root, "harness_bugs", json_integer(r->harness_bugs));
    bad |= json_object_set_new(root, "isolated", json_integer(r->isolated));
    bad |= json_object_set_new(root, "random_cases", json_integer(r->random_cases));
    bad |= json_object_set_new(root, "random_seconds", json_real(r->random_seconds));
    bad |= json_object_set_new(root, "random_cases_per_second",
                               json_real(r->random_seconds > 0 ? r->random_cases / r->random_seconds : 0));
    bad |= json_object_set_new(root, "expired_waivers", json_integer(r->waivers ? r->waivers->expired : 0));
    bad |= json_object_set_new(root, "seconds", json_real(r->seconds));
    bad |= json_object_set_new(root, "provenance", json_provenance(&r->provenance));
    for (uint32_t i = 0; i < PBC_RULE_COUNT; i++)
        bad |= json_object_set_new(rules, pbc_rule_get((pbc_rule_id)i)->id, json_integer(r->rule_hits[i]));
    bad |= json_object_set(root, "rules", rules);
    for (uint32_t i = 0; r->waivers && i < r->waivers->count; i++)
        bad |= json_array_append_new(waivers, json_waiver(&r->waivers->items[i]));
    bad |= json_object_set(root, "waivers", waivers);
    pbc_report_groups groups, skips;
    pbc_report_group_failures(r, &groups);
    pbc_report_group_skips(r, &skips);
    json_t *jgroups = json_array();
    bad |= !jgroups;
    for (uint32_t i = 0; i < groups.count && !bad; i++)
        bad |= json_array_append_new(jgroups, json_group(r, &groups, &groups.items[i]));
    bad |= json_object_set_new(root, "groups", jgroups);
    json_t *jroots = json_array();
    bad |= !jroots;
    for (uint32_t k = 0; k < groups.root_count && !bad; k++) {
        const pbc_report_root *rc = &groups.roots[k];
        json_t *o = json_object(), *members = json_array();
        bad |= !o || !members;
        for (uint32_t i = 0; i < groups.count && !bad; i++)
            if (groups.items[i].root == k)
                bad |= json_array_append_new(members, json_string(groups.items[i].id));
        bad |= json_object_set_new(o, "id", json_string(rc->id));
        bad |= json_object_set_new(o, "key", json_text(rc->key));
        bad |= json_object_set_new(o, "title", json_text(rc->title));
        bad |= json_object_set_new(o, "groups", members);
        bad |= json_object_set_new(o, "cases", json_integer(rc->cases));
        bad |= json_array_append_new(jroots, o);
    }
    bad |= json_object_set_new(root, "root_causes", jroots);
    bad |= json_object_set_new(root, "not_tested", json_not_tested(r, &skips));
    for (uint32_t i = 0; i < r->case_count && !bad; i++)
        bad |= json_array_append_new(results, json_case(&r->cases[i], groups.of_case[i] >= 0
                                                                           ? groups.items[groups.of_case[i]].id
                                                                           : NULL));
    bad |= json_object_set(root, "results", results);
    pbc_report_groups_fini(&groups);
    pbc_report_groups_fini(&skips);
    /* Milliseconds are all "seconds" means; the default precision would
     * print binary noise (0.12300000000000001). */
    char *text = bad ? NULL : json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(9));
    json_decref(rules);
    json_decref(results);
    json_decref(waivers);
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
 * first '/'), so CI groups cases by operation. A waived failure is
 * <skipped> with the waiver's reason: expected, and not to fail CI. */
static int junit_case(xmlTextWriterPtr w, const pbc_report_case *c)
{
    const char *slash = strchr(c->name, '/');
    char *classname = pbc_xprintf("%.*s", (int)(slash ? slash - c->name : 0), c->name);
    int bad = xmlTextWriterStartElement(w, BAD_CAST "testcase") < 0;
    bad |= xml_attr(w, "classname", classname);
    bad |= xml_attr(w, "name", c->name);
    free(classname);
    if (c->waiver) {
        char *why = pbc_xprintf("waived (%s): %s", c->waiver->where, c->waiver->reason);
        bad |= xmlTextWriterStartElement(w, BAD_CAST "skipped") < 0;
        bad |= xml_attr(w, "message", why);
        bad |= xml_content(w, c->message);
        bad |= xmlTextWriterEndElement(w) < 0;
        free(why);
    } else if (c->verdict == PBC_VERDICT_FAIL || c->verdict == PBC_VERDICT_HARNESS_BUG) {
        char *what = c->isolation ? pbc_xprintf("%s%s%s", c->isolation, c->isolation_detail ? ": " : "",
                                                c->isolation_detail ? c->isolation_detail : "")
                                  : pbc_xstrdup(c->rule && c->rule[0] ? c->rule : "harness bug");
        bad |= xmlTextWriterStartElement(w, BAD_CAST(c->verdict == PBC_VERDICT_FAIL ? "failure" : "error")) < 0;
        bad |= xml_attr(w, "message", what);
        if (c->isolation)
            bad |= xml_attr(w, "type", c->isolation);
        bad |= xml_content(w, c->message);
        if (c->replay) {
            bad |= xml_content(w, "\nreplay: ");
            bad |= xml_content(w, c->replay);
        }
        bad |= xmlTextWriterEndElement(w) < 0;
        free(what);
    } else if (c->verdict == PBC_VERDICT_SKIP) {
        bad |= xmlTextWriterStartElement(w, BAD_CAST "skipped") < 0;
        bad |= xml_attr(w, "message", c->message);
        bad |= xmlTextWriterEndElement(w) < 0;
    }
    if (c->debug_output) {
        bad |= xmlTextWriterStartElement(w, BAD_CAST "system-out") < 0;
        bad |= xml_content(w, c->debug_output);
        bad |= xmlTextWriterEndElement(w) < 0;
    }
    bad |= xmlTextWriterEndElement(w) < 0;
    return bad;
}

static int xml_property(xmlTextWriterPtr w, const char *name, const char *value)
{
    if (!value || !value[0])
        return 0;
    int bad = xmlTextWriterStartElement(w, BAD_CAST "property") < 0;
    bad |= xml_attr(w, "name", name);
    bad |= xml_attr(w, "value", value);
    return bad | (xmlTextWriterEndElement(w) < 0);
}

/* The verdict and the provenance, as <properties> of the suite. */
static int junit_properties(xmlTextWriterPtr w, const pbc_report *r)
{
    const pbc_report_provenance *p = &r->provenance;
    char cpus[16];
    snprintf(cpus, sizeof(cpus), "%u", p->cpu_count);
    int bad = xmlTextWriterStartElement(w, BAD_CAST "properties") < 0;
    bad |= xml_property(w, "verdict", pbc_report_verdict_text(pbc_report_get_verdict(r)));
    bad |= xml_property(w, "interrupted", r->interrupted ? "true" : "false");
    bad |= xml_property(w, "incomplete_reason", pbc_report_incomplete_reason(r));
    bad |= xml_property(w, "isolation", p->isolation);
    char decoder[512];
    bad |= xml_property(w, "decoder", pbc_report_decoder_line(p, decoder, sizeof(decoder)));
    bad |= xml_property(w, "decoder_process", p->decoder.known ? p->decoder.process : NULL);
    bad |= xml_property(w, "decoder_pure",
                        p->decoder.audited ? p->decoder.pure ? "true" : "false" : NULL);
    bad |= xml_property(w, "pbcheck_version", p->version);
    bad |= xml_property(w, "git_revision", p->git_revision);
    bad |= xml_property(w, "target_binary", p->target_binary);
    bad |= xml_property(w, "target_xxh3_128", p->target_xxh3);
    bad |= xml_property(w, "suite_xxh3_128", p->suite_xxh3);
    bad |= xml_property(w, "started", p->started);
    bad |= xml_property(w, "host", p->host);
    bad |= xml_property(w, "cpu_model", p->cpu_model);
    bad |= xml_property(w, "cpu_count", p->cpu_count ? cpus : NULL);
    bad |= xml_property(w, "run_id", p->run_id);
    for (uint32_t i = 0; i < p->option_count; i++) {
        char *name = pbc_xprintf("option.%s", p->options[i].name);
        bad |= xml_property(w, name, p->options[i].value);
        free(name);
    }
    return bad | (xmlTextWriterEndElement(w) < 0);
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
    bad |= xml_attr_u32(w, "skipped", r->skipped + r->waived);
    bad |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "time", "%.3f", r->seconds) < 0;
    if (r->provenance.host[0])
        bad |= xml_attr(w, "hostname", r->provenance.host);
    bad |= junit_properties(w, r);
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

/* text as a code span on one line, cut after about max bytes (at a
 * character's start) with "…" when longer: summary.md stays small
 * whatever the builder printed. */
static void md_cut(FILE *f, const char *text, size_t max)
{
    char *clean = pbc_report_text(text ? text : "", PBC_REPORT_TEXT_UTF8);
    size_t n = strlen(clean);
    if (n > max) {
        n = max;
        while (n && ((unsigned char)clean[n] & 0xc0) == 0x80)
            n--;
        char *cut = pbc_xprintf("%.*s\xe2\x80\xa6", (int)n, clean); /* "…" */
        free(clean);
        clean = cut;
    }
    for (char *c = clean; *c; c++)
        if (*c == '\n' || *c == '\r' || *c == '\t')
            *c = ' ';
    md_code(f, clean);
    free(clean);
}

/* The longest text summary.md holds of one thing from outside. */
#define MD_TEXT_MAX 240u

/* A provenance line of summary.md, left out when unknown. */
static void md_fact(FILE *f, const char *name, const char *value)
{
    if (!value || !value[0])
        return;
    fprintf(f, "- %s: ", name);
    md_cut(f, value, MD_TEXT_MAX);
    fputc('\n', f);
}

static void md_provenance(FILE *f, const pbc_report *r)
{
    const pbc_report_provenance *p = &r->provenance;
    fprintf(f, "\n## Provenance\n\n");
    char *pbcheck = pbc_xprintf("%s (git %s)", p->version ? p->version : "?", p->git_revision ? p->git_revision : "?");
    md_fact(f, "pbcheck", pbcheck);
    free(pbcheck);
    md_fact(f, p->target_builtin ? "target binary (built into pbcheck)" : "target binary", p->target_binary);
    md_fact(f, "target XXH3-128", p->target_xxh3);
    char *suite = p->suite_xxh3[0] ? pbc_xprintf("%s (%u cases)", p->suite_xxh3, p->suite_cases) : NULL;
    md_fact(f, "suite XXH3-128", suite);
    free(suite);
    /* What makes the random phase again: its seed, with its number of cases. */
    char *random = p->random_mode ? pbc_xprintf("%u cases of seed %llu (%s)", p->random_cases,
                                                (unsigned long long)p->random_seed,
                                                !strcmp(p->random_mode, "fixed")  ? "the default's fixed number"
                                                : !strcmp(p->random_mode, "time") ? "--time"
                                                                                  : "none: --quick or --no-random")
                                  : NULL;
    md_fact(f, "random phase", random);
    free(random);
    for (uint32_t i = 0; i < p->option_count; i++) {
        char *name = pbc_xprintf("option --%s", p->options[i].name);
        md_fact(f, name, p->options[i].value ? p->options[i].value : "(not given)");
        free(name);
    }
    md_fact(f, "started (UTC)", p->started);
    md_fact(f, "host", p->host);
    md_fact(f, "OS", p->os);
    char *cpu = p->cpu_model[0] || p->cpu_count ? pbc_xprintf("%s, %u CPUs", p->cpu_model, p->cpu_count) : NULL;
    md_fact(f, "CPU", cpu);
    free(cpu);
    md_fact(f, "run", p->run_id);
    md_fact(f, "isolation", p->isolation);
    char decoder[512];
    md_fact(f, "ISA description (decoder)", pbc_report_decoder_line(p, decoder, sizeof(decoder)));
}

/* What summary.md lists at most: it must fit a pull-request comment
 * (GitHub takes 65,536 characters) whatever the run, so it shows the
 * largest groups and leaves the rest to report.json and index.html. */
#define MD_GROUPS_MAX 25u
#define MD_SKIPS_MAX 15u
#define MD_WAIVERS_MAX 20u

static void md_groups(FILE *f, const pbc_report *r)
{
    pbc_report_groups g;
    pbc_report_group_failures(r, &g);
    if (g.root_count && g.root_count < g.count) {
        fprintf(f, "\n## Root causes\n\n%u root cause%s of the %u groups (docs/triage.md, \"Root causes\"):\n\n",
                g.root_count, g.root_count == 1 ? "" : "s", g.count);
        for (uint32_t k = 0; k < g.root_count && k < MD_GROUPS_MAX; k++) {
            fprintf(f, "- **%s** — %u group%s, %u case%s — ", g.roots[k].id, g.roots[k].groups,
                    g.roots[k].groups == 1 ? "" : "s", g.roots[k].cases, g.roots[k].cases == 1 ? "" : "s");
            md_cut(f, g.roots[k].title, MD_TEXT_MAX);
            fputc('\n', f);
        }
    }
    if (g.count)
        fprintf(f, "\n## Failures by group\n\n%u groups of cases failing the same way (triage's signature), "
                   "most cases first%s; each with its smallest case and the command that replays it.\n\n",
                g.count, g.count > MD_GROUPS_MAX ? ", the largest here" : "");
    for (uint32_t i = 0; i < g.count && i < MD_GROUPS_MAX; i++) {
        const pbc_report_group *grp = &g.items[i];
        const pbc_report_case *c = &r->cases[grp->shown];
        fprintf(f, "%u. **%s** (root cause %s) — %u case%s%s — ", i + 1, grp->id, g.roots[grp->root].id, grp->count,
                grp->count == 1 ? "" : "s", grp->waived ? " (some waived)" : "");
        md_cut(f, grp->title, MD_TEXT_MAX);
        if (c->message && c->message[0]) {
            fputs("\n   - finding: ", f);
            md_cut(f, c->message, 3 * MD_TEXT_MAX);
        }
        if (c->last_writer) {
            fputs("\n   - written by: ", f);
            md_cut(f, c->last_writer, 2 * MD_TEXT_MAX);
        }
        fputs("\n   - smallest: ", f);
        md_cut(f, c->name, MD_TEXT_MAX);
        if (c->isolation) {
            fprintf(f, " (isolated: %s) ", c->isolation);
            md_cut(f, c->isolation_detail ? c->isolation_detail : "", MD_TEXT_MAX);
        }
        if (c->waiver) {
            fputs(" — waived: ", f);
            md_cut(f, c->waiver->reason, MD_TEXT_MAX);
        }
        if (c->replay) {
            fputs("\n   - replay: ", f);
            md_cut(f, c->replay, 2 * MD_TEXT_MAX);
        }
        fputc('\n', f);
    }
    if (g.count > MD_GROUPS_MAX) {
        uint32_t left = 0;
        for (uint32_t i = MD_GROUPS_MAX; i < g.count; i++)
            left += g.items[i].count;
        fprintf(f, "\n%u more groups (%u cases): [index.html](index.html), report.json.\n", g.count - MD_GROUPS_MAX,
                left);
    }
    pbc_report_groups_fini(&g);
}

static void md_not_tested(FILE *f, const pbc_report *r)
{
    pbc_report_groups g;
    pbc_report_group_skips(r, &g);
    const char *names[PBC_DDI_OPERATION_COUNT];
    uint32_t undeclared = pbc_report_undeclared(r, names, PBC_DDI_OPERATION_COUNT);
    if (g.count || undeclared)
        fprintf(f, "\n## Not tested\n\n");
    for (uint32_t i = 0; i < g.count && i < MD_SKIPS_MAX; i++) {
        fprintf(f, "- %u case%s skipped: ", g.items[i].count, g.items[i].count == 1 ? "" : "s");
        md_cut(f, g.items[i].key, MD_TEXT_MAX);
        fputs(", e.g. ", f);
        md_cut(f, r->cases[g.items[i].first].name, MD_TEXT_MAX);
        fputc('\n', f);
    }
    if (g.count > MD_SKIPS_MAX)
        fprintf(f, "- and %u more reasons (report.json)\n", g.count - MD_SKIPS_MAX);
    if (undeclared) {
        fprintf(f, "- DXGK operations the builder does not declare, so never certified:");
        for (uint32_t i = 0; i < undeclared; i++)
            fprintf(f, "%s `%s`", i ? "," : "", names[i]);
        fputc('\n', f);
    }
    pbc_report_groups_fini(&g);
}

int pbc_report_write_summary(const pbc_report *r, const char *path, char *err, size_t err_size)
{
    char *doc = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&doc, &len);
    if (!f)
        return format_failed(err, err_size, path, "out of memory");
    char *target = pbc_report_text(r->target, PBC_REPORT_TEXT_UTF8);
    pbc_report_verdict v = pbc_report_get_verdict(r);
    fprintf(f, "# pbcheck certify: %s\n\n**Verdict: %s** — %u cases, %u passed, %u failed, %u waived, "
               "%u skipped, %u harness bugs, %u isolated, %.1f s.\n",
            target, pbc_report_verdict_text(v), r->case_count, r->passed, r->failed, r->waived, r->skipped,
            r->harness_bugs, r->isolated, r->seconds);
    free(target);
    if (r->interrupted)
        fprintf(f, "\nThe run was interrupted (SIGINT, SIGTERM, SIGHUP or SIGQUIT): only the cases below ran.\n");
    else if (pbc_report_incomplete_reason(r))
        fprintf(f, "\nIncomplete: %s.\n", pbc_report_incomplete_reason(r));
    fprintf(f, "\nThe whole run: [index.html](index.html) (open it in a browser), [report.json](report.json).\n");
    fprintf(f, "\n| rule | failing cases |\n|---|---|\n");
    for (uint32_t i = 0; i < PBC_RULE_COUNT; i++)
        fprintf(f, "| %s | %u |\n", pbc_rule_get((pbc_rule_id)i)->id, r->rule_hits[i]);
    md_groups(f, r);
    md_not_tested(f, r);
    if (r->waivers && r->waivers->count) {
        fprintf(f, "\n## Waivers\n\n");
        for (uint32_t i = 0; i < r->waivers->count && i < MD_WAIVERS_MAX; i++) {
            const pbc_waiver *w = &r->waivers->items[i];
            char *where = pbc_report_text(w->where, PBC_REPORT_TEXT_UTF8);
            char *pattern = pbc_report_text(w->pattern, PBC_REPORT_TEXT_UTF8);
            char *reason = pbc_report_text(w->reason, PBC_REPORT_TEXT_UTF8);
            fputs("- ", f);
            md_cut(f, where, MD_TEXT_MAX);
            fputc(' ', f);
            md_cut(f, pattern, MD_TEXT_MAX);
            fprintf(f, " %s until %s%s — %u waived — ", w->rule, w->expires, w->expired ? " **EXPIRED**" : "",
                    w->matched);
            md_cut(f, reason, MD_TEXT_MAX);
            fputc('\n', f);
            free(where);
            free(pattern);
            free(reason);
        }
        if (r->waivers->count > MD_WAIVERS_MAX)
            fprintf(f, "- and %u more (report.json)\n", r->waivers->count - MD_WAIVERS_MAX);
    }
    md_provenance(f, r);
    int bad = ferror(f);
    if (fclose(f) || bad) {
        free(doc);
        return format_failed(err, err_size, path, "out of memory");
    }
    /* The limits above keep it smaller; should they not, the end goes. */
    static const char cut_note[] = "\n[summary cut at 64 KiB: index.html and report.json hold everything]\n";
    if (len > PBC_REPORT_SUMMARY_MAX) {
        len = PBC_REPORT_SUMMARY_MAX - sizeof(cut_note);
        while (len && doc[len - 1] != '\n')
            len--;
        memcpy(doc + len, cut_note, sizeof(cut_note));
        len += sizeof(cut_note) - 1;
    }
    int rc = pbc_fs_write_atomic(path, doc, len, err, err_size);
    free(doc);
    return rc;
}

int pbc_report_write_all(const pbc_report *r, const char *dir, char *err, size_t err_size)
{
    static const char *const names[] = {"report.json", "junit.xml", "summary.md", "index.html", "report.sarif"};
    int (*const writers[])(const pbc_report *, const char *, char *, size_t) = {
        pbc_report_write_json, pbc_report_write_junit, pbc_report_write_summary, pbc_report_write_html,
        pbc_report_write_sarif};
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
