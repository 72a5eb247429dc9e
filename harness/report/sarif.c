/*
 * SARIF 2.1.0 (sarif.h): what code scanning needs to show a finding
 * where the builder's author works. triage.sarif (triage_report.c) and
 * certify's report.sarif (below) build their results from these pieces,
 * so a rule, a level or a location reads the same in both.
 */
#define _DEFAULT_SOURCE /* realpath */
#include "report/sarif.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fs.h"
#include "base/util.h"
#include "certify/groups.h"
#include "report/text.h"
#include "rules/rules.h"
#include "triage/triage.h"

#ifndef PBC_SOURCE_DIR
#define PBC_SOURCE_DIR "."
#endif

char *pbc_sarif_docs_base(void)
{
    const char *server = getenv("GITHUB_SERVER_URL"), *repo = getenv("GITHUB_REPOSITORY"),
               *sha = getenv("GITHUB_SHA");
    if (server && server[0] && repo && repo[0])
        return pbc_xprintf("%s/%s/blob/%s/docs/", server, repo, sha && sha[0] ? sha : "HEAD");
    return pbc_xprintf("file://%s/docs/", PBC_SOURCE_DIR);
}

const char *pbc_sarif_level(const char *severity_class)
{
    return !strcmp(severity_class, "critical") || !strcmp(severity_class, "high") ? "error"
         : !strcmp(severity_class, "medium") || !strcmp(severity_class, "low")    ? "warning"
                                                                                  : "note";
}

/* What a failure class means, for the classes no rule names (docs/triage.md). */
static const char *class_text(const char *cls)
{
    static const struct {
        const char *cls, *text;
    } known[] = {
        {"sanitizer", "The builder made a memory-safety error or undefined behaviour a sanitizer reported."},
        {"crash", "The builder crashed with a fatal signal (in a kernel-mode driver, a bug check)."},
        {"timeout", "The builder did not answer within the time limit: a hang or a livelock (on Windows, a TDR)."},
        {"oom", "The builder went over pbcheck's memory limit (--memory-limit): not a DDI rule."},
        {"exit", "The builder ended the process."},
        {"escape", "The builder left processes running after its case (a driver has no processes of its own)."},
    };
    for (size_t i = 0; i < PBC_ARRAY_LEN(known); i++)
        if (!strcmp(cls, known[i].cls))
            return known[i].text;
    return "pbcheck's own bug: the reference and the spec model disagree, or an invariant broke.";
}

json_t *pbc_sarif_rule(const char *rule_id, const char *cls, const char *severity_class, const char *docs)
{
    int known = rule_id && rule_id[0] ? pbc_rule_lookup(rule_id) : -1;
    const pbc_rule *rule = known >= 0 ? pbc_rule_get((pbc_rule_id)known) : NULL;
    const char *id = rule_id && rule_id[0] ? rule_id : cls;
    json_t *o = json_object(), *props = json_object(), *tags = json_array(), *config = json_object();
    json_object_set_new(o, "id", json_string(id));
    char *text = rule ? pbc_xprintf("%s", rule->statement) : pbc_xstrdup(class_text(cls));
    json_object_set_new(o, "shortDescription", json_pack("{s:s}", "text", text));
    char *full = rule && rule->sids && rule->sids[0] && strcmp(rule->sids, "-")
                     ? pbc_xprintf("%s (enforces %s, docs/traceability.md)", text, rule->sids)
                     : pbc_xstrdup(text);
    json_object_set_new(o, "fullDescription", json_pack("{s:s}", "text", full));
    char *anchor = pbc_xstrdup(id);
    for (char *c = anchor; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    char *help = rule ? pbc_xprintf("%srules.md#%s", docs, anchor) : pbc_xprintf("%striage.md#replay-and-classes", docs);
    json_object_set_new(o, "helpUri", json_string(help));
    json_object_set_new(o, "help", json_pack("{s:s}", "text", full));
    json_object_set_new(config, "level", json_string(pbc_sarif_level(severity_class)));
    json_object_set_new(o, "defaultConfiguration", config);
    json_array_append_new(tags, json_string("pbcheck"));
    json_array_append_new(tags, json_string(cls));
    json_object_set_new(props, "tags", tags);
    json_object_set_new(o, "properties", props);
    free(help);
    free(anchor);
    free(full);
    free(text);
    return o;
}

char *pbc_sarif_file_uri(const char *path, int folder)
{
    size_t n = strlen(path);
    char *u = pbc_xmalloc(3 * n + 16), *o = u + sprintf(u, "file://");
    for (const unsigned char *c = (const unsigned char *)path; *c; c++)
        o += isalnum(*c) || strchr("/-._~", *c) ? sprintf(o, "%c", *c) : sprintf(o, "%%%02X", *c);
    if (folder && (!n || path[n - 1] != '/'))
        *o++ = '/';
    *o = 0;
    return u;
}

json_t *pbc_sarif_path(const char *s)
{
    json_t *j = json_string(s);
    if (j)
        return j;
    char *copy = pbc_xstrdup(s);
    for (char *c = copy; *c; c++)
        if ((unsigned char)*c >= 0x80)
            *c = '?';
    j = json_string(copy);
    free(copy);
    return j;
}

json_t *pbc_sarif_source_location(const char *where, const char *root)
{
    const char *colon = strrchr(where, ':');
    int line = colon ? atoi(colon + 1) : 0;
    char *file = pbc_xprintf("%.*s", line > 0 ? (int)(colon - where) : (int)strlen(where), where);
    char *real = realpath(file, NULL);
    json_t *art = json_object(), *phys = json_object();
    size_t rn = strlen(root);
    if (real && !strncmp(real, root, rn) && real[rn] == '/') {
        json_object_set_new(art, "uri", json_string(real + rn + 1));
        json_object_set_new(art, "uriBaseId", json_string("SRCROOT"));
    } else if (file[0] == '/') {
        char *u = pbc_sarif_file_uri(file, 0);
        json_object_set_new(art, "uri", json_string(u));
        free(u);
    } else { /* relative to where the builder was compiled: most likely its repository's root */
        json_object_set_new(art, "uri", pbc_sarif_path(file));
        json_object_set_new(art, "uriBaseId", json_string("SRCROOT"));
    }
    json_object_set_new(phys, "artifactLocation", art);
    if (line > 0)
        json_object_set_new(phys, "region", json_pack("{s:i}", "startLine", line));
    free(real);
    free(file);
    return json_pack("{s:o}", "physicalLocation", phys);
}

json_t *pbc_sarif_invocation(const char *const *argv)
{
    json_t *inv = json_object(), *args = json_array();
    for (uint32_t i = 0; argv && argv[i]; i++)
        json_array_append_new(args, pbc_sarif_path(argv[i]));
    json_object_set_new(inv, "executionSuccessful", json_true());
    if (argv) {
        char *cmd = pbc_report_shell_command(argv);
        json_object_set_new(inv, "commandLine", pbc_sarif_path(cmd));
        free(cmd);
        json_object_set_new(inv, "arguments", args);
    } else {
        json_decref(args);
    }
    char *cwd = realpath(".", NULL);
    if (cwd) {
        char *u = pbc_sarif_file_uri(cwd, 1);
        json_object_set_new(inv, "workingDirectory", json_pack("{s:s}", "uri", u));
        free(u);
    }
    free(cwd);
    return inv;
}

json_t *pbc_sarif_document(json_t *driver, json_t *results, const char *const *argv, const char *automation,
                           const char *root, const char *out_id, const char *out)
{
    json_t *doc = json_object(), *run = json_object(), *bases = json_object();
    json_object_set_new(doc, "$schema", json_string("https://json.schemastore.org/sarif-2.1.0.json"));
    json_object_set_new(doc, "version", json_string("2.1.0"));
    json_object_set_new(run, "tool", json_pack("{s:o}", "driver", driver));
    json_object_set_new(run, "invocations", json_pack("[o]", pbc_sarif_invocation(argv)));
    json_object_set_new(run, "automationDetails", json_pack("{s:o}", "id", pbc_sarif_path(automation)));
    const char *ids[] = {"SRCROOT", out_id}, *dirs[] = {root, out};
    for (size_t i = 0; i < PBC_ARRAY_LEN(ids); i++) {
        if (!dirs[i])
            continue;
        char *u = pbc_sarif_file_uri(dirs[i], 1);
        json_object_set_new(bases, ids[i], json_pack("{s:s}", "uri", u));
        free(u);
    }
    json_object_set_new(run, "originalUriBaseIds", bases);
    json_object_set_new(run, "columnKind", json_string("utf16CodeUnits"));
    json_object_set_new(run, "results", results);
    json_object_set_new(doc, "runs", json_pack("[o]", run));
    return doc;
}

/* ---- report.sarif ---- */

/* The severity class of a certify group's class (pbc_report_case_class),
 * as triage gives it for a bucket of that class. */
static const char *group_severity_class(const char *cls)
{
    for (uint32_t k = 0; k < PBC_TRIAGE_CLASS_COUNT; k++)
        if (!strcmp(cls, pbc_triage_class_name(k))) {
            pbc_triage_facts f = {.cls = k};
            return pbc_triage_severity_class(pbc_triage_severity(&f));
        }
    return "medium"; /* a class triage does not know ("escape"): the builder broke the sandbox's rule */
}

/* The builder's source position a group's cases give: its shown case's,
 * else the first of its cases that has one; NULL when none does. */
static const char *group_location(const pbc_report *r, const pbc_report_group *g)
{
    if (r->cases[g->shown].location)
        return r->cases[g->shown].location;
    for (uint32_t k = 0; k < g->count; k++)
        if (r->cases[g->cases[k]].location)
            return r->cases[g->cases[k]].location;
    return NULL;
}

/* The reproducer of a group, relative to the run folder (owned), or NULL. */
static char *group_repro(const pbc_report *r, const pbc_report_group *g, const char *run_dir)
{
    const char *repro = r->cases[g->shown].repro;
    for (uint32_t k = 0; !repro && k < g->count; k++)
        repro = r->cases[g->cases[k]].repro;
    if (!repro)
        return NULL;
    size_t n = strlen(run_dir);
    if (!strncmp(repro, run_dir, n) && repro[n] == '/')
        return pbc_xstrdup(repro + n + 1);
    const char *slash = strrchr(repro, '/');
    return pbc_xprintf("repro/%s", slash ? slash + 1 : repro);
}

static json_t *certify_result(const pbc_report *r, const pbc_report_group *g, int rule_index, const char *sev,
                              const char *root, const char *run_dir)
{
    const pbc_report_case *shown = &r->cases[g->shown];
    json_t *res = json_object(), *locs = json_array(), *props = json_object();
    json_object_set_new(res, "ruleId", json_string(g->rule[0] ? g->rule : g->cls));
    json_object_set_new(res, "ruleIndex", json_integer(rule_index));
    json_object_set_new(res, "level", json_string(pbc_sarif_level(sev)));
    char *text = pbc_xprintf("%s (%u case%s; the smallest: %s)", g->title ? g->title : g->key, g->count, g->count == 1 ? "" : "s",
                             shown->name);
    char *clean = pbc_report_text(text, PBC_REPORT_TEXT_UTF8);
    json_object_set_new(res, "message", json_pack("{s:s}", "text", clean));
    free(clean);
    free(text);
    const char *where = group_location(r, g);
    char *repro = group_repro(r, g, run_dir);
    json_t *repro_loc = NULL;
    if (repro) {
        json_t *phys = json_object();
        json_object_set_new(phys, "artifactLocation",
                            json_pack("{s:o,s:s}", "uri", pbc_sarif_path(repro), "uriBaseId", "RUNDIR"));
        json_object_set_new(phys, "region", json_pack("{s:i}", "startLine", 1));
        repro_loc = json_pack("{s:o}", "physicalLocation", phys);
    }
    if (where) {
        json_array_append_new(locs, pbc_sarif_source_location(where, root));
        if (repro_loc) {
            json_object_set_new(repro_loc, "id", json_integer(0));
            json_object_set_new(repro_loc, "message", json_pack("{s:s}", "text", "the reproducer"));
            json_object_set_new(res, "relatedLocations", json_pack("[o]", repro_loc));
        }
    } else if (repro_loc) { /* nothing in the builder's source names it: its reproducer */
        json_array_append_new(locs, repro_loc);
    }
    free(repro);
    json_object_set_new(res, "locations", locs);
    json_object_set_new(res, "partialFingerprints", json_pack("{s:s}", "pbcheckSignature/v1", g->id));
    json_object_set_new(props, "group", json_string(g->id));
    json_object_set_new(props, "severityClass", json_string(sev));
    json_object_set_new(props, "cases", json_integer(g->count));
    json_object_set_new(res, "properties", props);
    return res;
}

int pbc_report_write_sarif(const pbc_report *r, const char *path, char *err, size_t err_size)
{
    pbc_report_groups groups = {0};
    pbc_report_group_failures(r, &groups);
    char *docs = pbc_sarif_docs_base();
    char *root = realpath(r->source_root ? r->source_root : ".", NULL);
    char *dir = pbc_xstrdup(path), *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(dir, strlen(dir) + 1, ".");
    char *run_dir = realpath(dir, NULL);
    json_t *driver = json_object(), *rules = json_array(), *results = json_array();
    json_object_set_new(driver, "name", json_string("pbcheck"));
    const char *version = r->provenance.version && r->provenance.version[0] ? r->provenance.version : "0";
    json_object_set_new(driver, "version", json_string(version));
    json_object_set_new(driver, "semanticVersion", json_string(version));
    char *info = pbc_xprintf("%sreport-format.md", docs);
    json_object_set_new(driver, "informationUri", json_string(info));
    free(info);
    for (uint32_t i = 0; i < groups.count; i++) {
        const pbc_report_group *g = &groups.items[i];
        if (g->waived == g->count) /* a waived group is expected: not a finding */
            continue;
        const char *id = g->rule[0] ? g->rule : g->cls, *sev = group_severity_class(g->cls);
        int index = -1;
        for (size_t k = 0; k < json_array_size(rules) && index < 0; k++)
            if (!strcmp(json_string_value(json_object_get(json_array_get(rules, k), "id")), id))
                index = (int)k;
        if (index < 0) {
            index = (int)json_array_size(rules);
            json_array_append_new(rules, pbc_sarif_rule(g->rule, g->cls, sev, docs));
        }
        json_array_append_new(results, certify_result(r, g, index, sev, root ? root : "/", run_dir ? run_dir : dir));
    }
    json_object_set_new(driver, "rules", rules);
    const char *target = r->target ? r->target : "", *base = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
    /* A run of part of the suite (--cases) is a category of its own: code
     * scanning must not take the alerts of cases it did not run as fixed. */
    char *automation = pbc_xprintf("pbcheck-certify%s/%.*s/%s", r->narrowed ? "-cases" : "", (int)strcspn(base, "."),
                                   base, r->provenance.run_id);
    json_t *doc = pbc_sarif_document(driver, results, r->provenance.argv, automation, root, "RUNDIR", run_dir);
    free(automation);
    char *text = json_dumps(doc, JSON_INDENT(2));
    int rc = text ? pbc_fs_write_atomic(path, text, strlen(text), err, err_size) : -1;
    if (!text)
        snprintf(err, err_size, "cannot write %s: out of memory", path);
    free(text);
    json_decref(doc);
    free(run_dir);
    free(dir);
    free(root);
    free(docs);
    pbc_report_groups_fini(&groups);
    return rc;
}
