/*
 * What one triage found, written out (triage_report.h, docs/triage.md).
 */
#define _DEFAULT_SOURCE /* realpath */
#include "report/triage_report.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "base/fs.h"
#include "base/util.h"
#include "exec/child.h"
#include "exec/target.h"
#include "report/sarif.h"
#include "report/text.h"
#include "report/triage_html.h"
#include "rules/rules.h"

static char *hex64(uint64_t v) { return pbc_xprintf("%016" PRIx64, v); }

static int write_text(const char *dir, const char *name, const char *text, char *err, size_t err_size)
{
    char *path = pbc_xprintf("%s/%s", dir, name);
    int rc = pbc_fs_write_atomic(path, text, strlen(text), err, err_size);
    free(path);
    return rc;
}

/* The command that replays a bucket's reproducer. */
static char *replay_command(const pbc_triage_run *r, const char *repro)
{
    /* Absolute paths: the command works from any folder, not only triage's. */
    char *abs_repro = pbc_fs_absolute(repro);
    char *abs_target = pbc_exec_target_is_path(r->target) ? pbc_fs_absolute(r->target) : pbc_xstrdup(r->target);
    const char *argv[] = {pbc_child_self_command(), "run", abs_repro, "--target", abs_target, NULL};
    char *cmd = pbc_report_shell_command(argv);
    free(abs_repro);
    free(abs_target);
    return cmd;
}

static int failing(const pbc_triage_bucket *b)
{
    return b->facts.cls != PBC_TRIAGE_NO_REPRO && b->facts.cls != PBC_TRIAGE_INVALID;
}

/* "NNN-NAME", the name of member k's copy in the bucket's inputs/ (NAME
 * cut to 100 bytes: a file name has room for 255). */
static char *copy_name(const pbc_triage_input *x, uint32_t k)
{
    const char *base = strrchr(x->path, '/');
    return pbc_xprintf("%03u-%.100s", k, base ? base + 1 : x->path);
}

/* A path as JSON: bytes that are not UTF-8 (a file name may hold any)
 * become '?', so the input is still listed. */

/* Where the bucket's reproducer is, relative to the triage folder (owned):
 * repro.pbs, repro.bin, or the copy of its first input. */
static char *repro_rel(const pbc_triage_run *r, const pbc_triage_bucket *b)
{
    if (b->repro)
        return pbc_xprintf("buckets/%s/repro.pbs", b->id);
    if (b->repro_bin)
        return pbc_xprintf("buckets/%s/repro.bin", b->id);
    char *name = copy_name(&r->inputs[b->members[0]], 0), *rel = pbc_xprintf("buckets/%s/inputs/%s", b->id, name);
    free(name);
    return rel;
}

static int write_bucket(const pbc_triage_run *r, const char *out, const pbc_triage_bucket *b, char *err,
                        size_t err_size)
{
    char *dir = pbc_xprintf("%s/buckets/%s", out, b->id), *inputs = pbc_xprintf("%s/inputs", dir);
    int rc = pbc_fs_mkdirs(inputs, err, err_size);
    for (uint32_t i = 0; i < b->count && !rc; i++) {
        const pbc_triage_input *x = &r->inputs[b->members[i]];
        if (x->first != (int)b->members[i] || x->unread)
            continue; /* a duplicate's bytes are there already; an unread input has none */
        char *name = copy_name(x, i), *path = pbc_xprintf("%s/%s", inputs, name);
        rc = pbc_fs_write_atomic(path, x->bytes, x->len, err, err_size);
        free(path);
        free(name);
    }
    if (!rc && b->repro) {
        char *repro = pbc_xprintf("%s/repro.pbs", dir);
        char *cmd = replay_command(r, repro);
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
                  {"access", f->access}, {"location", f->location}, {"ddi", f->ddi}};
    for (size_t i = 0; i < PBC_ARRAY_LEN(fields); i++)
        if (fields[i].value[0])
            json_object_set_new(o, fields[i].key, json_string(fields[i].value));
    for (uint32_t i = 0; i < PBC_TRIAGE_FRAMES; i++)
        if (f->frames[i][0])
            json_array_append_new(frames, json_string(f->frames[i]));
    json_object_set_new(o, "frames", frames);
    return o;
}

static json_t *triage_json(const pbc_triage_run *r)
{
    const pbc_triage_bucket *b = r->buckets;
    const pbc_triage_gone *gone = r->gone;
    uint32_t nb = r->bucket_count, ngone = r->gone_count;
    int joined = r->joined;
    json_t *root = json_object(), *inputs = json_array(), *buckets = json_array();
    json_object_set_new(root, "format", json_string("pbcheck-triage"));
    json_object_set_new(root, "version", json_integer(1));
    json_object_set_new(root, "pbcheck", json_string(r->version));
    json_object_set_new(root, "target", json_string(r->target));
    json_object_set_new(root, "repeat", json_integer(r->repeat));
    json_object_set_new(root, "seconds", json_real(r->seconds));
    for (uint32_t i = 0; i < r->input_count; i++) {
        const pbc_triage_input *x = &r->inputs[i];
        json_t *o = json_object();
        json_object_set_new(o, "path", pbc_sarif_path(x->path));
        json_object_set_new(o, "origin", json_string(x->origin));
        char *h = hex64(x->hash);
        json_object_set_new(o, "xxh3", json_string(h));
        free(h);
        if (x->first != (int)i)
            json_object_set_new(o, "duplicate_of", json_integer(x->first));
        json_object_set_new(o, "bucket", json_string(b[x->bucket].id));
        const pbc_triage_input *f = &r->inputs[x->first];
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
        json_object_set_new(o, "severity_class", json_string(pbc_triage_severity_class(b[i].severity)));
        json_object_set_new(o, "root_cause", json_string(r->roots[b[i].root].id));
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
        if (b[i].last_writer)
            json_object_set_new(o, "last_writer", pbc_sarif_path(b[i].last_writer));
        for (uint32_t k = 0; k < b[i].count; k++)
            json_array_append_new(members, pbc_sarif_path(r->inputs[b[i].members[k]].path));
        json_object_set_new(o, "inputs", members);
        json_array_append_new(buckets, o);
    }
    json_object_set_new(root, "inputs", inputs);
    json_object_set_new(root, "buckets", buckets);
    json_t *roots = json_array();
    for (uint32_t k = 0; k < r->root_count; k++) {
        const pbc_triage_root *rc = &r->roots[k];
        json_t *o = json_object(), *ids = json_array();
        json_object_set_new(o, "id", json_string(rc->id));
        json_object_set_new(o, "key", json_string(rc->key));
        json_object_set_new(o, "title", json_string(rc->title));
        json_object_set_new(o, "severity", json_integer(rc->severity));
        json_object_set_new(o, "severity_class", json_string(pbc_triage_severity_class(rc->severity)));
        json_object_set_new(o, "inputs", json_integer(rc->inputs));
        for (uint32_t i = 0; i < nb; i++)
            if (b[i].root == k)
                json_array_append_new(ids, json_string(b[i].id));
        json_object_set_new(o, "buckets", ids);
        json_array_append_new(roots, o);
    }
    json_object_set_new(root, "root_causes", roots);
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

/* ---- triage.sarif ---- */

/* A SARIF ruleId: the rule, or the class for a failure no rule names. */
static const char *sarif_rule_id(const pbc_triage_bucket *b)
{
    return b->facts.rule[0] ? b->facts.rule : pbc_triage_class_name(b->facts.cls);
}

/* SARIF 2.1.0 for code scanning: one result per failing bucket, at the
 * builder's source where it is known (the crash frame, or the DDI
 * function that emitted the work), with its reproducer as a related
 * location; rules from the rule catalogue; levels by severity class. */
static json_t *triage_sarif(const pbc_triage_run *r, const char *dir)
{
    const pbc_triage_bucket *b = r->buckets;
    char *docs = pbc_sarif_docs_base();
    char *root = realpath(r->source_root ? r->source_root : ".", NULL), *out = realpath(dir, NULL);
    json_t *driver = json_object(), *rules = json_array(), *results = json_array();
    json_object_set_new(driver, "name", json_string("pbcheck"));
    json_object_set_new(driver, "version", json_string(r->version));
    json_object_set_new(driver, "semanticVersion", json_string(r->version));
    char *info = pbc_xprintf("%striage.md", docs);
    json_object_set_new(driver, "informationUri", json_string(info));
    free(info);
    for (uint32_t i = 0; i < r->bucket_count; i++) {
        if (!failing(&b[i]))
            continue;
        int index = -1;
        for (size_t k = 0; k < json_array_size(rules) && index < 0; k++)
            if (!strcmp(json_string_value(json_object_get(json_array_get(rules, k), "id")), sarif_rule_id(&b[i])))
                index = (int)k;
        if (index < 0) {
            index = (int)json_array_size(rules);
            json_array_append_new(rules, pbc_sarif_rule(b[i].facts.rule, pbc_triage_class_name(b[i].facts.cls),
                                                        pbc_triage_severity_class(b[i].severity), docs));
        }
        json_t *res = json_object(), *locs = json_array(), *related = json_array(), *props = json_object();
        json_object_set_new(res, "ruleId", json_string(sarif_rule_id(&b[i])));
        json_object_set_new(res, "ruleIndex", json_integer(index));
        json_object_set_new(res, "level", json_string(pbc_sarif_level(pbc_triage_severity_class(b[i].severity))));
        const pbc_triage_root *rc = &r->roots[b[i].root];
        char *text = pbc_xprintf("%s (%u input%s; bucket %s of root cause %s: %s)", b[i].title, b[i].count,
                                 b[i].count == 1 ? "" : "s", b[i].id, rc->id, rc->title);
        json_object_set_new(res, "message", json_pack("{s:s}", "text", text));
        free(text);
        char *repro = repro_rel(r, &b[i]);
        json_t *art = json_pack("{s:o}", "uri", pbc_sarif_path(repro)), *phys = json_object();
        json_object_set_new(phys, "artifactLocation", art);
        if (b[i].repro)
            json_object_set_new(phys, "region", json_pack("{s:i}", "startLine", 1));
        if (b[i].facts.location[0]) {
            json_array_append_new(locs, pbc_sarif_source_location(b[i].facts.location, root ? root : "/"));
            json_object_set_new(art, "uriBaseId", json_string("TRIAGEDIR"));
            json_t *rel = json_pack("{s:i,s:o}", "id", 0, "physicalLocation", phys);
            json_object_set_new(rel, "message", json_pack("{s:s}", "text", "the reproducer"));
            json_array_append_new(related, rel);
        } else { /* nothing in the builder's source names it: its reproducer */
            json_array_append_new(locs, json_pack("{s:o}", "physicalLocation", phys));
        }
        free(repro);
        json_object_set_new(res, "locations", locs);
        if (json_array_size(related))
            json_object_set_new(res, "relatedLocations", related);
        else
            json_decref(related);
        char *sig = hex64(b[i].sig);
        json_object_set_new(res, "partialFingerprints", json_pack("{s:s}", "pbcheckSignature/v1", sig));
        free(sig);
        json_object_set_new(props, "bucket", json_string(b[i].id));
        json_object_set_new(props, "rootCause", json_string(rc->id));
        json_object_set_new(props, "severityClass", json_string(pbc_triage_severity_class(b[i].severity)));
        json_object_set_new(props, "inputs", json_integer(b[i].count));
        json_object_set_new(res, "properties", props);
        json_array_append_new(results, res);
    }
    json_object_set_new(driver, "rules", rules);
    const char *base = strrchr(r->target, '/') ? strrchr(r->target, '/') + 1 : r->target;
    char *automation = pbc_xprintf("pbcheck-triage/%.*s/", (int)strcspn(base, "."), base);
    json_t *rootj = pbc_sarif_document(driver, results, r->argv, automation, root, "TRIAGEDIR", out);
    free(automation);
    free(root);
    free(out);
    free(docs);
    return rootj;
}

static char *triage_md(const pbc_triage_run *r)
{
    const pbc_triage_bucket *b = r->buckets;
    const pbc_triage_gone *gone = r->gone;
    uint32_t nb = r->bucket_count, ngone = r->gone_count;
    int joined = r->joined;
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
    MD("# Triage of %u inputs against %s\n\n", r->input_count, r->target);
    MD("%u bucket%s, worst first.%s\n\n", nb, nb == 1 ? "" : "s",
       joined ? " Status is against the previous triage (--join)." : "");
    MD("| bucket | %sseverity | root cause | inputs | flaky | what | reproducer |\n|---|%s---|---|---|---|---|---|\n",
       joined ? "status | " : "", joined ? "---|" : "");
    for (uint32_t i = 0; i < nb; i++) {
        char repro[64] = "-";
        if (b[i].repro)
            snprintf(repro, sizeof(repro), "[%u operations](buckets/%s/repro.pbs)", b[i].repro_ops, b[i].id);
        MD("| %s | %s%s%d %s | %s | %u | %u | %s | %s |\n", b[i].id, joined ? b[i].status : "", joined ? " | " : "",
           b[i].severity, pbc_triage_severity_class(b[i].severity), r->roots[b[i].root].id, b[i].count, b[i].flaky,
           b[i].title, repro);
    }
    MD("\n%u root cause%s (buckets that are one bug seen in different places):\n\n", r->root_count,
       r->root_count == 1 ? "" : "s");
    for (uint32_t k = 0; k < r->root_count; k++) {
        MD("- **%s** (%s, %u input%s): %s —", r->roots[k].id, pbc_triage_severity_class(r->roots[k].severity),
           r->roots[k].inputs, r->roots[k].inputs == 1 ? "" : "s", r->roots[k].title);
        for (uint32_t i = 0; i < nb; i++)
            if (b[i].root == k)
                MD(" %s", b[i].id);
        MD("\n");
    }
    if (joined && ngone) {
        MD("\nGone since the previous triage:\n\n");
        for (uint32_t i = 0; i < ngone; i++)
            MD("- %s (%lld inputs then)\n", gone[i].title, (long long)gone[i].count);
    }
    for (uint32_t i = 0; i < nb; i++) {
        MD("\n## %s: %s\n\nsignature `%016" PRIx64 "`: `%s`\n", b[i].id, b[i].title, b[i].sig, b[i].sig_text);
        if (b[i].last_writer)
            MD("\nWho wrote it: %s\n", b[i].last_writer);
        if (b[i].repro) {
            char *path = pbc_xprintf("buckets/%s/repro.pbs", b[i].id);
            char *cmd = replay_command(r, path);
            MD("\nReplay: `%s`\n\n```\n%s```\n", cmd, b[i].repro);
            free(cmd);
            free(path);
        } else if (b[i].repro_bin) {
            MD("\nReplay: `%s replay buckets/%s/repro.bin --target %s` (%zu bytes, minimized byte by byte)\n",
               pbc_child_self_command(), b[i].id, r->target, b[i].repro_bin_len);
        }
        if (b[i].report)
            MD("\n```\n%.*s\n```\n", 3000, b[i].report);
    }
#undef MD
    return s;
}

int pbc_triage_join(pbc_triage_run *r, const char *prev, char *err, size_t err_size)
{
    struct stat st;
    char *path = stat(prev, &st) == 0 && S_ISDIR(st.st_mode) ? pbc_xprintf("%s/triage.json", prev) : pbc_xstrdup(prev);
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr);
    if (!root || !json_is_array(json_object_get(root, "buckets"))) {
        snprintf(err, err_size, "--join %s: %s", path, root ? "no buckets in it" : jerr.text);
        json_decref(root);
        free(path);
        return -1;
    }
    free(path);
    r->joined = 1;
    for (uint32_t i = 0; i < r->bucket_count; i++)
        r->buckets[i].status = "new";
    size_t k;
    json_t *o;
    uint32_t cap = 0;
    json_array_foreach(json_object_get(root, "buckets"), k, o)
    {
        const char *sig = json_string_value(json_object_get(o, "signature"));
        if (!sig)
            continue;
        int found = 0;
        for (uint32_t i = 0; i < r->bucket_count; i++) {
            char *mine = hex64(r->buckets[i].sig);
            if (!strcmp(mine, sig)) {
                r->buckets[i].status = "known";
                found = 1;
            }
            free(mine);
        }
        if (found)
            continue;
        const char *title = json_string_value(json_object_get(o, "title"));
        pbc_triage_gone g = {pbc_xstrdup(sig), pbc_xstrdup(title ? title : "?"),
                             (long long)json_integer_value(json_object_get(o, "count"))};
        PBC_PUSH(r->gone, r->gone_count, cap, g);
    }
    json_decref(root);
    return 0;
}

char *pbc_triage_promote(const char *dir, const char *id, const char *to, char *err, size_t err_size)
{
    char *json_path = pbc_xprintf("%s/triage.json", dir), *dst = NULL;
    json_error_t jerr;
    json_t *root = json_load_file(json_path, 0, &jerr);
    if (!root) {
        snprintf(err, err_size, "%s: %s", json_path, jerr.text);
        free(json_path);
        return NULL;
    }
    free(json_path);
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
    if (!target || !hit || !repro || rlen < 4 || strcmp(repro + rlen - 4, ".pbs")) {
        snprintf(err, err_size, "%s",
                 !hit || !target ? "no such bucket in that triage (its id or signature)"
                 : repro         ? "that bucket's reproducer is bytes, not a scenario: keep it with 'pbcheck replay --print'"
                                 : "that bucket has no reproducer");
        json_decref(root);
        return NULL;
    }
    json_t *facts = json_object_get(hit, "facts");
    const char *rule = json_string_value(json_object_get(facts, "rule")),
               *cls = json_string_value(json_object_get(facts, "class"));
    const char *sig = json_string_value(json_object_get(hit, "signature"));
    char *src = pbc_xprintf("%s/%s", dir, repro), *data = NULL;
    size_t n;
    if (!pbc_fs_read(src, PBC_TRIAGE_INPUT_MAX, &data, &n, err, err_size) && !pbc_fs_mkdirs(to, err, err_size)) {
        const char *tbase = strrchr(target, '/');
        tbase = tbase ? tbase + 1 : target;
        dst = pbc_xprintf("%s/%.*s-%.8s.pbs", to, (int)strcspn(tbase, "."), tbase, sig ? sig : "");
        /* The reproducer's lines, its replay command made for its new place. */
        const char *argv[] = {pbc_child_self_command(), "run", dst, "--target", target, NULL};
        char *cmd = pbc_report_shell_command(argv);
        char *text = pbc_xprintf("# expect: %s fail %s\n%s# replay: %s\n", target, rule ? rule : cls ? cls : "-",
                                 pbc_exec_target_is_path(target) || !strcmp(target, "reference")
                                     ? ""
                                     : "# expect: reference pass\n",
                                 cmd);
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
        if (pbc_fs_write_atomic(dst, text, strlen(text), err, err_size)) {
            free(dst);
            dst = NULL;
        }
        free(text);
    }
    free(data);
    free(src);
    json_decref(root);
    return dst;
}

/* ---- Writing it all ---- */

int pbc_triage_write(const pbc_triage_run *r, const char *dir, char *err, size_t err_size)
{
    /* An --out folder used before: its buckets are another triage's. */
    char *buckets = pbc_xprintf("%s/buckets", dir);
    int gone = pbc_fs_remove_tree(buckets, err, err_size);
    free(buckets);
    if (gone)
        return -1;
    for (uint32_t i = 0; i < r->bucket_count; i++)
        if (write_bucket(r, dir, &r->buckets[i], err, err_size))
            return -1;
    json_t *j = triage_json(r), *sarif = triage_sarif(r, dir);
    char *jt = json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS), *st = json_dumps(sarif, JSON_INDENT(2));
    char *md = triage_md(r);
    int rc = write_text(dir, "triage.json", jt, err, err_size) || pbc_triage_write_html(dir, jt, err, err_size) ||
             write_text(dir, "triage.sarif", st, err, err_size) || write_text(dir, "triage.md", md, err, err_size);
    free(jt);
    free(st);
    free(md);
    json_decref(j);
    json_decref(sarif);
    return rc ? -1 : 0;
}
