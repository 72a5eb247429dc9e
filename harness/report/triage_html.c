/*
 * triage.html: what `pbcheck triage` found, as the page a person opens
 * first, with the look of certify's index.html (the same stylesheet, the
 * same Content-Security-Policy: no script, nothing fetched, so it opens
 * from an archive or a mail). It is made from triage.json and the
 * reproducers beside it, nothing else, so an archived triage can be shown
 * again and the page never says more than the data: a banner with the
 * failing buckets, the buckets worst first, those a --join found gone, then
 * each bucket with its signature, facts, replay command, inputs and
 * reproducer.
 *
 * The page is reports/triage.html with {{name}} slots filled here. Every
 * text from the JSON or a reproducer is HTML-escaped (report/text.h), and
 * every link percent-encoded before that: input paths are whatever a
 * fuzzer or a user named a file.
 */
#include "report/triage_html.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "base/fs.h"
#include "base/util.h"
#include "exec/target.h"
#include "report/templates.h"
#include "report/text.h"

/* Inputs named per bucket: a bucket of thousands still opens quickly, and
 * triage.json lists them all. */
#define PAGE_INPUTS_LISTED 200u
#define PAGE_BUCKETS_OPEN 3u
/* A minimized reproducer is a few lines; a larger file is not embedded. */
#define PAGE_REPRO_MAX (1u << 20)

typedef struct tpage {
    const char *dir;
    const json_t *root;
    const json_t *buckets; /* the array, in triage.json's order */
    const json_t *inputs;  /* the array, or NULL */
    size_t *order;         /* indices into buckets, worst first */
    size_t count;          /* buckets */
    size_t failing;        /* buckets of a class that fails the builder */
    size_t flaky;          /* inputs marked flaky */
    size_t distinct;       /* inputs that are no other's duplicate */
    int joined;            /* made with --join: a status per bucket, a gone list */
} tpage;

static const char *jstr(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static long long jint(const json_t *o, const char *key)
{
    return (long long)json_integer_value(json_object_get(o, key));
}

static const char *plural(long long n) { return n == 1 ? "" : "s"; }

static void put(FILE *f, const char *text)
{
    char *safe = pbc_report_text(text ? text : "", PBC_REPORT_TEXT_HTML);
    fputs(safe, f);
    free(safe);
}

/* href="PATH" for a relative link. */
static void put_href(FILE *f, const char *path)
{
    char *url = pbc_report_url_path(path);
    fputs(" href=\"", f);
    put(f, url);
    fputc('"', f);
    free(url);
}

/* A link to buckets/ID/NAME showing text. */
static void put_bucket_link(FILE *f, const char *id, const char *name, const char *text)
{
    char *rel = pbc_xprintf("buckets/%s/%s", id, name);
    fputs("<a class=\"mono\"", f);
    put_href(f, rel);
    fputc('>', f);
    put(f, text ? text : rel);
    fputs("</a>", f);
    free(rel);
}

/* Inputs of these classes do not fail the builder: they pass now, or are
 * not scenarios it can run. */
static int bucket_fails(const json_t *b)
{
    const char *cls = jstr(json_object_get(b, "facts"), "class");
    return strcmp(cls, "no-repro") && strcmp(cls, "invalid");
}

static char *repro_path(const tpage *p, const char *id)
{
    return pbc_xprintf("%s/buckets/%s/repro.pbs", p->dir, id);
}

/* The bucket's reproducer as triage.json names it: "repro.pbs" (a text
 * scenario, replayed by 'pbcheck run'), "repro.bin" (bytes, replayed by
 * 'pbcheck replay'), or NULL. What lies on the disk is not asked: a
 * folder reused from an earlier triage may hold another one. */
static const char *repro_name(const json_t *b)
{
    const char *repro = json_string_value(json_object_get(b, "repro"));
    size_t n = repro ? strlen(repro) : 0;
    if (n > 4 && !strcmp(repro + n - 4, ".bin"))
        return "repro.bin";
    return n > 4 && !strcmp(repro + n - 4, ".pbs") ? "repro.pbs" : NULL;
}

static int has_repro(const tpage *p, const json_t *b)
{
    (void)p;
    return repro_name(b) != NULL;
}

/* ---- The banner ---- */

static void emit_title(FILE *f, const tpage *p)
{
    size_t n = json_array_size(p->inputs);
    fputs("pbcheck triage: ", f);
    put(f, jstr(p->root, "target"));
    fprintf(f, " — %zu input%s", n, plural((long long)n));
}

static void emit_css(FILE *f, const tpage *p)
{
    (void)p;
    fputs((const char *)pbc_report_template_css, f);
}

static void emit_banner_class(FILE *f, const tpage *p) { fputs(p->failing ? "fail" : "pass", f); }

static void emit_target(FILE *f, const tpage *p) { put(f, jstr(p->root, "target")); }

static void emit_input_count(FILE *f, const tpage *p)
{
    size_t n = json_array_size(p->inputs);
    fprintf(f, "%zu input%s", n, plural((long long)n));
}

static void emit_headline(FILE *f, const tpage *p)
{
    if (p->failing)
        fprintf(f, "%zu failing bucket%s", p->failing, plural((long long)p->failing));
    else
        fputs("Nothing fails", f);
}

static void emit_summary(FILE *f, const tpage *p)
{
    size_t n = json_array_size(p->inputs);
    long long repeat = jint(p->root, "repeat");
    fprintf(f, "%zu bucket%s, %zu failing, %zu flaky input%s · %zu input%s (%zu distinct), each replayed %lld time%s",
            p->count, plural((long long)p->count), p->failing, p->flaky, plural((long long)p->flaky), n,
            plural((long long)n), p->distinct, repeat, plural(repeat));
    fprintf(f, " · %.1f s", json_number_value(json_object_get(p->root, "seconds")));
}

static void emit_version(FILE *f, const tpage *p)
{
    const char *v = jstr(p->root, "pbcheck");
    if (!v[0])
        return;
    fputs(" (pbcheck ", f);
    put(f, v);
    fputc(')', f);
}

/* ---- Root causes ---- */

/* A link to a root cause's row, showing its id; nothing for a bucket
 * that names none (a triage.json of an older pbcheck). */
static void put_root_link(FILE *f, const char *id)
{
    if (!id[0])
        return;
    fputs("<a href=\"#", f);
    put(f, id);
    fputs("\">", f);
    put(f, id);
    fputs("</a>", f);
}

/* The buckets grouped under their root causes (docs/triage.md, "Root
 * causes"), in triage.json's order: one row each, with the buckets it
 * holds as links to their sections. */
static void emit_roots(FILE *f, const tpage *p)
{
    const json_t *roots = json_object_get(p->root, "root_causes");
    size_t n = json_array_size(roots), shared = 0;
    for (size_t i = 0; i < n; i++)
        shared += json_array_size(json_object_get(json_array_get(roots, i), "buckets")) > 1;
    fprintf(f, "<p class=\"hint\">%zu root cause%s for %zu bucket%s", n, plural((long long)n), p->count,
            plural((long long)p->count));
    if (shared)
        fprintf(f, "; %zu of them hold%s several buckets: one bug seen in several operations, passes or ways of "
                   "failing (who wrote the wrong bytes and the builder's frames are the same)", shared,
                shared == 1 ? "s" : "");
    fputs(". A root cause is a guess from what its buckets share; each bucket keeps its own reproducer.</p>\n", f);
    if (!n)
        return;
    fputs("<div class=\"matrix-wrap\"><table class=\"matrix\" id=\"root-causes\">\n<thead><tr>"
          "<th>root cause</th><th>severity</th><th class=\"text\">title</th><th>inputs</th>"
          "<th class=\"text\">buckets</th></tr></thead>\n<tbody>\n",
          f);
    for (size_t i = 0; i < n; i++) {
        const json_t *r = json_array_get(roots, i), *ids = json_object_get(r, "buckets");
        fputs("<tr id=\"", f);
        put(f, jstr(r, "id"));
        fputs("\"><th scope=\"row\" class=\"mono\">", f);
        put(f, jstr(r, "id"));
        fprintf(f, "</th><td>%lld <span class=\"more\">", jint(r, "severity"));
        put(f, jstr(r, "severity_class"));
        fputs("</span></td><td class=\"text\">", f);
        put(f, jstr(r, "title"));
        fprintf(f, "</td><td>%lld</td><td class=\"text mono\">", jint(r, "inputs"));
        for (size_t k = 0; k < json_array_size(ids); k++) {
            const char *id = json_string_value(json_array_get(ids, k));
            fputs(k ? ", <a href=\"#" : "<a href=\"#", f);
            put(f, id);
            fputs("\">", f);
            put(f, id);
            fputs("</a>", f);
        }
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody></table></div>", f);
}

/* ---- The table of buckets ---- */

static void emit_table(FILE *f, const tpage *p)
{
    fputs("<div class=\"matrix-wrap\"><table class=\"matrix\" id=\"buckets\">\n<thead><tr><th>bucket</th>", f);
    if (p->joined)
        fputs("<th class=\"text\">status</th>", f);
    fputs("<th>severity</th><th class=\"text\">root cause</th><th class=\"text\">class</th><th class=\"text\">rule</th>"
          "<th>inputs</th><th>flaky</th><th class=\"text\">title</th><th class=\"text\">reproducer</th>"
          "<th class=\"text\">report</th></tr></thead>\n<tbody>\n",
          f);
    for (size_t i = 0; i < p->count; i++) {
        const json_t *b = json_array_get(p->buckets, p->order[i]);
        const json_t *facts = json_object_get(b, "facts");
        const char *id = jstr(b, "id");
        fputs("<tr><th scope=\"row\" class=\"mono\"><a href=\"#", f);
        put(f, id);
        fputs("\">", f);
        put(f, id);
        fputs("</a></th>", f);
        if (p->joined) {
            const char *status = jstr(b, "status");
            fprintf(f, "<td class=\"text %s\">", strcmp(status, "new") ? "ok" : "hit");
            put(f, status);
            fputs("</td>", f);
        }
        fprintf(f, "<td>%lld <span class=\"more\">", jint(b, "severity"));
        put(f, jstr(b, "severity_class"));
        fputs("</span></td><td class=\"text mono\">", f);
        put_root_link(f, jstr(b, "root_cause"));
        fputs("</td><td class=\"text\">", f);
        put(f, jstr(facts, "class"));
        fputs("</td><td class=\"text mono\">", f);
        put(f, jstr(facts, "rule"));
        long long flaky = jint(b, "flaky");
        fprintf(f, "</td><td class=\"%s\">%lld</td><td class=\"%s\">%lld</td><td class=\"text\">",
                bucket_fails(b) ? "hit" : "ok", jint(b, "count"), flaky ? "waived" : "zero", flaky);
        put(f, jstr(b, "title"));
        fputs("</td><td class=\"text\">", f);
        if (has_repro(p, b)) {
            put_bucket_link(f, id, repro_name(b), repro_name(b));
            const json_t *ops = json_object_get(b, "repro_operations");
            if (json_is_integer(ops))
                fprintf(f, " <span class=\"more\">(%lld operation%s)</span>", (long long)json_integer_value(ops),
                        plural((long long)json_integer_value(ops)));
        } else {
            fputs("<span class=\"more\">none</span>", f);
        }
        fputs("</td><td class=\"text\">", f);
        put_bucket_link(f, id, "report.txt", "report.txt");
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody></table></div>", f);
}

static void emit_gone(FILE *f, const tpage *p)
{
    const json_t *gone = json_object_get(p->root, "gone");
    if (!json_is_array(gone))
        return;
    fputs("<section id=\"gone-section\">\n  <h2>Gone since the previous triage</h2>\n", f);
    if (!json_array_size(gone)) {
        fputs("  <p id=\"gone-none\">None: every bucket of the triage given to --join still has inputs.</p>\n"
              "</section>",
              f);
        return;
    }
    fputs("  <p class=\"hint\">Buckets of the triage given to --join that no input fell into this time.</p>\n"
          "<ul id=\"gone\">\n",
          f);
    for (size_t i = 0; i < json_array_size(gone); i++) {
        const json_t *g = json_array_get(gone, i);
        long long n = jint(g, "count");
        fputs("<li><span class=\"mono\">", f);
        put(f, jstr(g, "signature"));
        fputs("</span> ", f);
        put(f, jstr(g, "title"));
        fprintf(f, " <span class=\"more\">(%lld input%s then)</span></li>\n", n, plural(n));
    }
    fputs("</ul>\n</section>", f);
}

/* ---- Each bucket ---- */

static void fact(FILE *f, const char *name, const char *value, int mono)
{
    if (!value || !value[0])
        return;
    fputs("<dt>", f);
    put(f, name);
    fprintf(f, "</dt><dd%s>", mono ? " class=\"mono\"" : "");
    put(f, value);
    fputs("</dd>\n", f);
}

static void fact_number(FILE *f, const char *name, const json_t *value)
{
    if (!json_is_integer(value))
        return;
    char text[32];
    snprintf(text, sizeof(text), "%lld", (long long)json_integer_value(value));
    fact(f, name, text, 0);
}

static void emit_facts(FILE *f, const json_t *b)
{
    static const char *const named[] = {"class", "rule", "operation", "region", "writer",
                                        "shape", "kind", "access",    "location"};
    const json_t *facts = json_object_get(b, "facts");
    fputs("<dl class=\"facts\">\n", f);
    fact_number(f, "severity (0 worst)", json_object_get(b, "severity"));
    fact(f, "severity class", jstr(b, "severity_class"), 0);
    fact(f, "root cause", jstr(b, "root_cause"), 1);
    for (size_t i = 0; i < PBC_ARRAY_LEN(named); i++)
        fact(f, named[i], jstr(facts, named[i]), i > 0);
    const json_t *frames = json_object_get(facts, "frames");
    for (size_t i = 0; i < json_array_size(frames); i++) {
        char name[32];
        snprintf(name, sizeof(name), "frame %zu", i + 1);
        fact(f, name, json_string_value(json_array_get(frames, i)), 1);
    }
    fact(f, "status", jstr(b, "status"), 0);
    fact_number(f, "inputs", json_object_get(b, "count"));
    fact_number(f, "flaky inputs", json_object_get(b, "flaky"));
    fact_number(f, "minimization runs", json_object_get(b, "minimization_runs"));
    fact_number(f, "reproducer operations", json_object_get(b, "repro_operations"));
    fputs("</dl>\n", f);
}

/* cd into the triage folder first, and the target's absolute path: the
 * command works from wherever it is pasted. */
static void put_command(FILE *f, const tpage *p, const char *cls, const char *verb, const char *input,
                        const char *target)
{
    char *abs_target = pbc_exec_target_is_path(target) ? pbc_fs_absolute(target) : pbc_xstrdup(target);
    char *abs_dir = pbc_fs_absolute(p->dir);
    const char *cd[] = {"cd", abs_dir, NULL}, *argv[] = {"pbcheck", verb, input, "--target", abs_target, NULL};
    char *where = pbc_report_shell_command(cd), *cmd = pbc_report_shell_command(argv);
    fprintf(f, "<pre class=\"%s\">", cls);
    put(f, where);
    put(f, " && ");
    put(f, cmd);
    fputs("</pre>\n", f);
    free(where);
    free(cmd);
    free(abs_dir);
    free(abs_target);
}

/* The command that replays the bucket (its reproducer, relative to the
 * triage folder; else its first input as triage.json names it) and the
 * bucket's files. */
static void emit_replay(FILE *f, const tpage *p, const json_t *b)
{
    const char *id = jstr(b, "id"), *target = jstr(p->root, "target");
    int repro = has_repro(p, b);
    fputs(repro ? "<h3>Replay <span class=\"more\">(from the triage folder)</span></h3>\n" : "<h3>Replay</h3>\n", f);
    if (repro) {
        int text = !strcmp(repro_name(b), "repro.pbs");
        char *rel = pbc_xprintf("buckets/%s/%s", id, repro_name(b));
        put_command(f, p, "replay", text ? "run" : "replay", rel, target);
        free(rel);
    } else {
        const char *first = json_string_value(json_array_get(json_object_get(b, "inputs"), 0));
        fputs("<p class=\"more\">No reproducer was made for this bucket (timeouts, out-of-memory, passing and "
              "invalid inputs are not minimized)", f);
        if (first) {
            fputs("; its first input replays with:</p>\n", f);
            put_command(f, p, "replay-input", "replay", first, target);
        } else {
            fputs(".</p>\n", f);
        }
    }
    fputs("<p class=\"files\">", f);
    if (repro) {
        put_bucket_link(f, id, repro_name(b), NULL);
        fputs(" · ", f);
    }
    put_bucket_link(f, id, "report.txt", NULL);
    fputs(" · ", f);
    put_bucket_link(f, id, "inputs/", NULL);
    fputs("</p>\n", f);
}

/* The entry of triage.json's inputs for path in bucket id, and its index
 * in *at. The search starts at from and wraps: a bucket lists its inputs
 * in the order of that array, so walking a bucket from one match to the
 * next costs one pass, not one per input. */
static const json_t *input_entry(const tpage *p, const char *path, const char *id, size_t from, size_t *at)
{
    size_t n = json_array_size(p->inputs), start = from < n ? from : 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = (start + k) % n;
        const json_t *x = json_array_get(p->inputs, i);
        if (!strcmp(jstr(x, "path"), path) && !strcmp(jstr(x, "bucket"), id)) {
            *at = i;
            return x;
        }
    }
    return NULL;
}

static void emit_inputs(FILE *f, const tpage *p, const json_t *b)
{
    const json_t *paths = json_object_get(b, "inputs");
    size_t n = json_array_size(paths);
    size_t next = 0;
    fputs("<h3>Inputs</h3>\n<ul class=\"inputs\">\n", f);
    for (size_t i = 0; i < n && i < PAGE_INPUTS_LISTED; i++) {
        const char *path = json_string_value(json_array_get(paths, i));
        size_t at = 0;
        const json_t *x = input_entry(p, path ? path : "", jstr(b, "id"), next, &at);
        fputs("<li><span class=\"mono\">", f);
        put(f, path);
        fputs("</span>", f);
        if (x) {
            next = at + 1;
            fputs(" <span class=\"more\">", f);
            put(f, jstr(x, "origin"));
            fprintf(f, " · %lld of %lld replays gave this signature", jint(x, "reproduced"), jint(x, "replays"));
            if (json_is_true(json_object_get(x, "flaky")))
                fputs(" · flaky", f);
            const json_t *dup = json_object_get(x, "duplicate_of");
            if (json_is_integer(dup) && json_integer_value(dup) >= 0 && (size_t)json_integer_value(dup) != at) {
                fputs(" · the same bytes as ", f);
                put(f, jstr(json_array_get(p->inputs, (size_t)json_integer_value(dup)), "path"));
            }
            fputs("</span>", f);
        }
        fputs("</li>\n", f);
    }
    if (n > PAGE_INPUTS_LISTED)
        fprintf(f, "<li class=\"more\">and %zu more (triage.json lists them all)</li>\n", n - PAGE_INPUTS_LISTED);
    fputs("</ul>\n", f);
}

static void emit_repro_text(FILE *f, const tpage *p, const char *id)
{
    char *path = repro_path(p, id), *text = NULL, err[512];
    struct stat st;
    size_t n;
    if (stat(path, &st) && errno == ENOENT) {
        free(path);
        return;
    }
    fputs("<h3>Reproducer</h3>\n", f);
    if (pbc_fs_read(path, PAGE_REPRO_MAX, &text, &n, err, sizeof(err)) == 0) {
        fputs("<pre class=\"repro\">", f);
        put(f, text);
        fputs("</pre>\n", f);
    } else {
        fputs("<p class=\"more\">Not shown: ", f);
        put(f, err);
        fputs("</p>\n", f);
    }
    free(text);
    free(path);
}

static void emit_bucket(FILE *f, const tpage *p, const json_t *b, size_t rank)
{
    const char *id = jstr(b, "id"), *rule = jstr(json_object_get(b, "facts"), "rule");
    const char *status = jstr(b, "status");
    long long flaky = jint(b, "flaky"), count = jint(b, "count");
    fputs("<details class=\"case\" id=\"", f);
    put(f, id);
    fprintf(f, "\"%s>\n<summary><span class=\"name mono\">", rank < PAGE_BUCKETS_OPEN ? " open" : "");
    put(f, id);
    fputs("</span> ", f);
    put(f, jstr(b, "title"));
    fprintf(f, "<span class=\"tag%s\">", bucket_fails(b) ? "" : " pass");
    put(f, jstr(json_object_get(b, "facts"), "class"));
    fputs("</span>", f);
    if (rule[0]) {
        fputs("<span class=\"tag rule\">", f);
        put(f, rule);
        fputs("</span>", f);
    }
    if (status[0]) {
        fprintf(f, "<span class=\"tag%s\">", strcmp(status, "new") ? " harness" : "");
        put(f, status);
        fputs("</span>", f);
    }
    if (flaky)
        fprintf(f, "<span class=\"tag waived\">%lld flaky</span>", flaky);
    fprintf(f, "<span class=\"more\"> · %lld input%s</span></summary>\n", count, plural(count));
    fputs("<h3>Signature</h3>\n<p class=\"mono signature\">", f);
    put(f, jstr(b, "signature"));
    fputs("</p>\n<pre class=\"signature-text\">", f);
    put(f, jstr(b, "signature_text"));
    fputs("</pre>\n<h3>Facts</h3>\n", f);
    emit_facts(f, b);
    emit_replay(f, p, b);
    emit_inputs(f, p, b);
    if (repro_name(b) && !strcmp(repro_name(b), "repro.pbs")) /* bytes are not shown */
        emit_repro_text(f, p, id);
    fputs("</details>\n", f);
}

static void emit_buckets(FILE *f, const tpage *p)
{
    for (size_t i = 0; i < p->count; i++)
        emit_bucket(f, p, json_array_get(p->buckets, p->order[i]), i);
}

/* ---- The page ---- */

static const struct tslot {
    const char *name;
    void (*emit)(FILE *f, const tpage *p);
} tslots[] = { /* in the order reports/triage.html uses them */
    {"title", emit_title},
    {"css", emit_css},
    {"banner_class", emit_banner_class},
    {"target", emit_target},
    {"input_count", emit_input_count},
    {"headline", emit_headline},
    {"summary", emit_summary},
    {"roots", emit_roots},
    {"table", emit_table},
    {"gone", emit_gone},
    {"buckets", emit_buckets},
    {"version", emit_version},
};

static void fill(FILE *f, const char *t, const tpage *p)
{
    for (const char *open; (open = strstr(t, "{{")) != NULL;) {
        const char *name = open + 2, *close = strstr(name, "}}");
        size_t len = close ? (size_t)(close - name) : 0;
        const struct tslot *slot = NULL;
        for (size_t k = 0; close && !slot && k < PBC_ARRAY_LEN(tslots); k++)
            if (strlen(tslots[k].name) == len && !memcmp(tslots[k].name, name, len))
                slot = &tslots[k];
        /* The template is compiled in: a slot not filled here is pbcheck's bug. */
        if (!slot)
            pbc_harness_bug("reports/triage.html has a slot triage_html.c does not fill, near '%.20s'", open);
        fwrite(t, 1, (size_t)(open - t), f);
        slot->emit(f, p);
        t = close + 2;
    }
    fputs(t, f);
}

typedef struct ranked {
    const json_t *b;
    size_t at;
} ranked;

/* Worst first: severity, then more inputs; otherwise triage.json's order. */
static int rank_order(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    long long sa = jint(a->b, "severity"), sb = jint(b->b, "severity");
    long long ca = jint(a->b, "count"), cb = jint(b->b, "count");
    if (sa != sb)
        return sa < sb ? -1 : 1;
    if (ca != cb)
        return ca > cb ? -1 : 1;
    return a->at < b->at ? -1 : a->at > b->at;
}

/* Bucket ids name folders under dir: only the form triage writes. */
static int valid_id(const char *id)
{
    if (id[0] != 'b' || !id[1])
        return 0;
    for (const char *c = id + 1; *c; c++)
        if (*c < '0' || *c > '9')
            return 0;
    return 1;
}

/* Checks root is a triage.json this file reads and fills p's counts. */
static int page_init(tpage *p, char *err, size_t err_size)
{
    if (strcmp(jstr(p->root, "format"), "pbcheck-triage")) {
        snprintf(err, err_size, "triage.json: its format is not \"pbcheck-triage\"");
        return -1;
    }
    if (jint(p->root, "version") != 1) {
        snprintf(err, err_size, "triage.json: version %lld; this pbcheck reads version 1", jint(p->root, "version"));
        return -1;
    }
    p->buckets = json_object_get(p->root, "buckets");
    if (!json_is_array(p->buckets)) {
        snprintf(err, err_size, "triage.json: no array of buckets");
        return -1;
    }
    p->inputs = json_object_get(p->root, "inputs");
    p->count = json_array_size(p->buckets);
    p->joined = json_is_array(json_object_get(p->root, "gone"));
    ranked *r = pbc_xcalloc(p->count ? p->count : 1, sizeof(*r));
    for (size_t i = 0; i < p->count; i++) {
        const json_t *b = json_array_get(p->buckets, i);
        if (!json_is_object(b) || !valid_id(jstr(b, "id"))) {
            snprintf(err, err_size, "triage.json: bucket %zu has no id of the form b001", i + 1);
            free(r);
            return -1;
        }
        r[i] = (ranked){b, i};
        p->failing += (size_t)bucket_fails(b);
        p->joined |= json_is_string(json_object_get(b, "status"));
    }
    qsort(r, p->count, sizeof(*r), rank_order);
    p->order = pbc_xcalloc(p->count ? p->count : 1, sizeof(*p->order));
    for (size_t i = 0; i < p->count; i++)
        p->order[i] = r[i].at;
    free(r);
    for (size_t i = 0; i < json_array_size(p->inputs); i++) {
        const json_t *x = json_array_get(p->inputs, i);
        p->flaky += json_is_true(json_object_get(x, "flaky"));
        p->distinct += json_object_get(x, "duplicate_of") == NULL;
    }
    return 0;
}

int pbc_triage_write_html(const char *dir, const char *triage_json_text, char *err, size_t err_size)
{
    json_error_t jerr;
    json_t *root = json_loads(triage_json_text, 0, &jerr);
    if (!root) {
        snprintf(err, err_size, "triage.json: line %d: %s", jerr.line, jerr.text);
        return -1;
    }
    tpage p = {.dir = dir, .root = root};
    char *path = pbc_xprintf("%s/triage.html", dir), *doc = NULL;
    size_t len = 0;
    int rc = -1;
    if (page_init(&p, err, err_size) == 0) {
        FILE *f = open_memstream(&doc, &len);
        if (f) {
            fill(f, (const char *)pbc_report_template_triage_html, &p);
            int bad = ferror(f);
            if (fclose(f) == 0 && !bad)
                rc = pbc_fs_write_atomic(path, doc, len, err, err_size);
            else
                snprintf(err, err_size, "cannot write %s: out of memory", path);
        } else {
            snprintf(err, err_size, "cannot write %s: out of memory", path);
        }
    }
    free(doc);
    free(path);
    free(p.order);
    json_decref(root);
    return rc;
}
