/*
 * index.html: the report a person opens first. One self-contained page
 * (style inline, no script, a Content-Security-Policy that forbids
 * fetching anything), so it can be mailed, archived by CI or opened from
 * a disk with no network. The verdict comes first, then the operation x
 * rule matrix that says where the failures are (each cell a link to its
 * groups), then the failing cases grouped by triage's signature, each
 * group with its cases and its smallest case in full (finding, DbgPrint
 * output, reproducer), a filter by rule, operation and class made of
 * links and CSS (:target), what was not tested, then provenance.
 *
 * The page is reports/template.html with {{name}} slots, filled here;
 * every text that came from outside (case names, messages, paths, the
 * builder's output) goes through the HTML escaper in report/text.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fs.h"
#include "base/util.h"
#include "oracle/verdict.h"
#include "certify/groups.h"
#include "report/templates.h"
#include "report/text.h"
#include "report/writers.h"

/* What the page holds at most, so a run of 100,000 failing cases still
 * opens at once: every group is listed, the first HTML_GROUPS_IN_FULL
 * with their smallest case in full and up to HTML_GROUP_NAMES case
 * names each, HTML_NAMES in all (report.json has every case). */
#define HTML_GROUPS_IN_FULL 200u
#define HTML_GROUP_NAMES 100u
#define HTML_NAMES 5000u
#define HTML_GROUPS_OPEN 3u
#define CHART_POINTS 400u

/* What the page's parts share, computed once per page: the groups, and
 * the filter's operations and classes (the slots take the report only,
 * so it is set while the page is written). */
typedef struct html_page {
    pbc_report_groups groups, skips;
    char (*ops)[64];   /* the operations (first parts of case names), in order of appearance */
    uint32_t op_count, op_cap;
    int32_t *op_of_case;
    char classes[16][16];
    uint32_t class_count;
} html_page;

static const html_page *page;

static void h(FILE *f, const char *text)
{
    char *clean = pbc_report_text(text ? text : "", PBC_REPORT_TEXT_HTML);
    fputs(clean, f);
    free(clean);
}

static const char *verdict_class(pbc_report_verdict v)
{
    return v == PBC_REPORT_CONFORMANT ? "pass" : v == PBC_REPORT_NOT_CONFORMANT ? "fail" : "incomplete";
}

static int is_failure(const pbc_report_case *c)
{
    return c->verdict == PBC_VERDICT_FAIL || c->verdict == PBC_VERDICT_HARNESS_BUG || c->isolation;
}

/* ---- The operation x rule matrix ---- */

enum { COL_ISOLATED, COL_OTHER, COL_HARNESS, COL_WAIVED, COL_SKIPPED, COL_PASSED, COL_TOTAL, COL_EXTRA };

typedef struct matrix_row {
    char op[64];
    uint32_t rule[PBC_RULE_COUNT];
    uint32_t extra[COL_EXTRA];
    int32_t rule_group[PBC_RULE_COUNT]; /* the largest group holding a case of the cell, or -1 */
    int32_t extra_group[COL_EXTRA];
} matrix_row;

static void matrix_row_init(matrix_row *row, const char *op)
{
    memset(row, 0, sizeof(*row));
    snprintf(row->op, sizeof(row->op), "%s", op);
    for (uint32_t i = 0; i < PBC_RULE_COUNT; i++)
        row->rule_group[i] = -1;
    for (uint32_t i = 0; i < COL_EXTRA; i++)
        row->extra_group[i] = -1;
}

/* Groups are largest first: the smaller index is the larger group. */
static void keep_largest(int32_t *best, int32_t group)
{
    if (group >= 0 && (*best < 0 || group < *best))
        *best = group;
}

/* Which column a case counts in: a rule (>= 0), or -1 - COL_*. */
static int case_column(const pbc_report_case *c)
{
    if (c->verdict == PBC_VERDICT_PASS)
        return -1 - COL_PASSED;
    if (c->verdict == PBC_VERDICT_SKIP)
        return -1 - COL_SKIPPED;
    if (c->waiver)
        return -1 - COL_WAIVED;
    if (c->isolation)
        return -1 - COL_ISOLATED;
    if (c->verdict == PBC_VERDICT_HARNESS_BUG)
        return -1 - COL_HARNESS;
    int rule = c->rule ? pbc_rule_lookup(c->rule) : -1;
    return rule >= 0 ? rule : -1 - COL_OTHER;
}

static void matrix_cell(FILE *f, uint32_t n, const char *hit_class)
{
    fprintf(f, "<td class=\"%s\">%u</td>", n ? hit_class : "zero", n);
}

/* A cell whose cases are in groups: a link to the largest of them. */
static void matrix_link(FILE *f, uint32_t n, const char *hit_class, int32_t group)
{
    if (!n || group < 0) {
        matrix_cell(f, n, hit_class);
        return;
    }
    fprintf(f, "<td class=\"%s\"><a href=\"#%s\">%u</a></td>", hit_class, page->groups.items[group].id, n);
}

static void emit_matrix(FILE *f, const pbc_report *r)
{
    static const char *const extra_names[COL_EXTRA] = {"isolated", "other failure", "harness bug", "waived",
                                                       "skipped", "passed", "cases"};
    static const char *const extra_classes[COL_EXTRA] = {"hit", "hit", "hit", "waived", "ok", "ok", "ok"};
    matrix_row *rows = NULL, total;
    matrix_row_init(&total, "all operations");
    uint32_t count = 0, cap = 0;
    for (uint32_t i = 0; i < r->case_count; i++) {
        const pbc_report_case *c = &r->cases[i];
        size_t len = strcspn(c->name, "/");
        char op[64];
        snprintf(op, sizeof(op), "%.*s", (int)(len < sizeof(op) ? len : sizeof(op) - 1), c->name);
        uint32_t k = 0;
        while (k < count && strcmp(rows[k].op, op))
            k++;
        if (k == count) {
            matrix_row fresh;
            matrix_row_init(&fresh, op);
            PBC_PUSH(rows, count, cap, fresh);
        }
        int col = case_column(c);
        int32_t group = page->groups.of_case[i];
        for (matrix_row *row = &rows[k];; row = &total) {
            if (col >= 0) {
                row->rule[col]++;
                keep_largest(&row->rule_group[col], group);
            } else {
                row->extra[-1 - col]++;
                keep_largest(&row->extra_group[-1 - col], group);
            }
            row->extra[COL_TOTAL]++;
            if (row == &total)
                break;
        }
    }
    fputs("<div class=\"matrix-wrap\"><table class=\"matrix\" id=\"matrix\">\n<thead><tr><th>operation</th>", f);
    for (uint32_t i = 0; i < PBC_RULE_COUNT; i++) { /* a rule with failures: a link to its groups alone */
        fputs("<th class=\"rule\" scope=\"col\">", f);
        if (total.rule[i] && total.rule_group[i] >= 0)
            fprintf(f, "<a href=\"#f-r%u\">", i);
        h(f, pbc_rule_get((pbc_rule_id)i)->id);
        fputs(total.rule[i] && total.rule_group[i] >= 0 ? "</a></th>" : "</th>", f);
    }
    for (uint32_t e = 0; e < COL_EXTRA; e++)
        if (e != COL_OTHER || total.extra[COL_OTHER])
            fprintf(f, "<th class=\"rule\" scope=\"col\">%s</th>", extra_names[e]);
    fputs("</tr></thead>\n<tbody>\n", f);
    for (uint32_t k = 0; k <= count; k++) {
        const matrix_row *row = k < count ? &rows[k] : &total;
        if (k == count)
            fputs("</tbody>\n<tfoot>\n", f);
        fputs("<tr><th scope=\"row\">", f);
        h(f, row->op);
        fputs("</th>", f);
        for (uint32_t i = 0; i < PBC_RULE_COUNT; i++)
            matrix_link(f, row->rule[i], "hit", row->rule_group[i]);
        for (uint32_t e = 0; e < COL_EXTRA; e++)
            if (e != COL_OTHER || total.extra[COL_OTHER])
                matrix_link(f, row->extra[e], extra_classes[e], row->extra_group[e]);
        fputs("</tr>\n", f);
    }
    fputs("</tfoot></table></div>", f);
    free(rows);
}

/* ---- The random phase over time ---- */

static void emit_chart(FILE *f, const pbc_report *r)
{
    if (!r->random_cases || r->random_cases > r->case_count)
        return;
    uint32_t first = r->case_count - r->random_cases;
    double t0 = first ? r->cases[first - 1].finished_at : 0;
    double span = r->cases[r->case_count - 1].finished_at - t0;
    if (span <= 0)
        span = 1;
    uint32_t findings = 0;
    for (uint32_t i = first; i < r->case_count; i++)
        findings += is_failure(&r->cases[i]);
    enum { W = 880, H = 260, L = 64, R = 64, T = 20, B = 40 };
    double ymax_cases = r->random_cases, ymax_find = findings ? findings : 1;
    fprintf(f, "<section id=\"chart-section\">\n  <h2>Random scenarios over time</h2>\n"
               "  <p class=\"hint\">The --time phase, %.0f cases a second: cumulative cases run (blue, left "
               "scale) and findings (red, right scale) against seconds since the phase began.</p>\n"
               "<svg class=\"chart\" id=\"chart\" role=\"img\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "xmlns=\"http://www.w3.org/2000/svg\">\n<title>%u random cases, %u findings in %.1f s</title>\n",
            r->random_seconds > 0 ? r->random_cases / r->random_seconds : 0, W, H, W, H, r->random_cases, findings,
            span);
    for (int g = 0; g <= 4; g++) {
        double y = T + (H - T - B) * g / 4.0;
        fprintf(f, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", L, y, W - R, y);
    }
    fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", L, H - B, W - R, H - B);
    fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", L, T, L, H - B);
    fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", W - R, T, W - R, H - B);
    for (int k = 0; k <= 4; k++) {
        double x = L + (W - L - R) * k / 4.0;
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.1f s</text>\n", x, H - B + 16, span * k / 4);
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%u</text>\n", L - 6, T + 4, r->random_cases);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>\n", L - 6, H - B + 4);
    fprintf(f, "<text x=\"%d\" y=\"%d\">%u</text>\n", W - R + 6, T + 4, findings);
    fprintf(f, "<text x=\"%d\" y=\"%d\">0</text>\n", W - R + 6, H - B + 4);
    fprintf(f, "<text x=\"%d\" y=\"%d\" transform=\"rotate(-90 14 %d)\">cases</text>\n", 14, (H - B + T) / 2,
            (H - B + T) / 2);
    fprintf(f, "<text x=\"%d\" y=\"%d\" transform=\"rotate(90 %d %d)\">findings</text>\n", W - 18,
            (H - B + T) / 2, W - 18, (H - B + T) / 2);
    uint32_t step = r->random_cases / CHART_POINTS + 1;
    for (int series = 0; series < 2; series++) {
        fprintf(f, "<polyline class=\"%s\" points=\"%d,%d", series ? "findings" : "cases", L, H - B);
        uint32_t done = 0, found = 0;
        for (uint32_t i = first; i < r->case_count; i++) {
            done++;
            found += is_failure(&r->cases[i]);
            if (done % step && i + 1 != r->case_count)
                continue;
            double x = L + (W - L - R) * (r->cases[i].finished_at - t0) / span;
            double v = series ? found / ymax_find : done / ymax_cases;
            fprintf(f, " %.1f,%.1f", x, (H - B) - (H - T - B) * v);
        }
        fputs("\"/>\n", f);
    }
    fputs("</svg>\n</section>", f);
}

/* ---- Failing cases ---- */

static void emit_case(FILE *f, const pbc_report_case *c, uint32_t index, int open)
{
    fprintf(f, "<details class=\"case\" id=\"case-%u\"%s>\n<summary><span class=\"name mono\">", index,
            open ? " open" : "");
    h(f, c->name);
    fputs("</span>", f);
    if (c->verdict == PBC_VERDICT_HARNESS_BUG)
        fputs("<span class=\"tag harness\">harness bug</span>", f);
    else if (c->rule && c->rule[0]) {
        fputs("<span class=\"tag rule\">", f);
        h(f, c->rule);
        fputs("</span>", f);
    }
    if (c->isolation) {
        fputs("<span class=\"tag isolation\">", f);
        h(f, c->isolation);
        fputs("</span>", f);
    }
    if (c->waiver)
        fputs("<span class=\"tag waived\">waived</span>", f);
    fprintf(f, "<span class=\"more\"> · %.2f s</span></summary>\n", c->finished_at);
    if (c->waiver) {
        fputs("<h3>Waived</h3><p class=\"waiver\">", f);
        h(f, c->waiver->reason);
        fputs(" <span class=\"more mono\">(", f);
        h(f, c->waiver->where);
        fputs(")</span></p>\n", f);
    }
    if (c->isolation) {
        fputs("<h3>Isolated: ", f);
        h(f, c->isolation);
        fputs("</h3><pre class=\"isolation\">", f);
        h(f, c->isolation_detail ? c->isolation_detail : c->isolation);
        fputs("</pre>\n", f);
    }
    if (c->message && c->message[0]) {
        fputs("<h3>Finding</h3><pre class=\"message\">", f);
        h(f, c->message);
        fputs("</pre>\n", f);
    }
    if (c->debug_output) {
        fputs("<h3>The builder's DbgPrint output</h3><pre class=\"debug-output\">", f);
        h(f, c->debug_output);
        fputs("</pre>\n", f);
    }
    if (c->repro) {
        const char *base = strrchr(c->repro, '/');
        char *href = pbc_xprintf("repro/%s", base ? base + 1 : c->repro);
        char *url = pbc_report_url_path(href);
        fputs("<h3>Reproducer</h3><p><a class=\"mono\" href=\"", f);
        h(f, url);
        fputs("\">", f);
        h(f, href);
        fputs("</a></p>\n", f);
        free(url);
        free(href);
    }
    if (c->replay) {
        fputs("<pre class=\"replay\">", f);
        h(f, c->replay);
        fputs("</pre>\n", f);
    }
    fputs("</details>\n", f);
}

/* The index of a class name in the page's list, -1 if it has none. */
static int class_index(const char *cls)
{
    for (uint32_t i = 0; i < page->class_count; i++)
        if (!strcmp(page->classes[i], cls))
            return (int)i;
    return -1;
}

static void emit_group(FILE *f, const pbc_report *r, const pbc_report_group *g, uint32_t index)
{
    int rule = g->rule[0] ? pbc_rule_lookup(g->rule) : -1;
    fputs("<details class=\"group", f);
    if (rule >= 0)
        fprintf(f, " r%d", rule);
    fprintf(f, " c%d", class_index(g->cls));
    /* its operations, each once */
    uint8_t seen[256] = {0};
    for (uint32_t i = 0; i < g->count; i++) {
        int32_t op = page->op_of_case[g->cases[i]];
        if (op >= 0 && op < 256 && !seen[op]++)
            fprintf(f, " o%d", op);
    }
    fprintf(f, "\" id=\"%s\"%s>\n<summary><span class=\"count\">%u</span> ", g->id,
            index < HTML_GROUPS_OPEN ? " open" : "", g->count);
    h(f, g->title);
    fputs("<span class=\"tag rule\">", f);
    h(f, g->rule[0] ? g->rule : g->cls);
    fputs("</span>", f);
    if (g->waived)
        fprintf(f, "<span class=\"tag waived\">%u waived</span>", g->waived);
    fprintf(f, "<span class=\"more mono\"> %s</span></summary>\n", g->id);
    fputs("<p class=\"more\">Signature <span class=\"mono\">", f);
    h(f, g->key);
    fprintf(f, "</span>; root cause <a class=\"mono\" href=\"#root-%s\">%s</a></p>\n", page->groups.roots[g->root].id,
            page->groups.roots[g->root].id);
    if (index >= HTML_GROUPS_IN_FULL) {
        fprintf(f, "<p class=\"more\">Past the first %u groups: its cases are in report.json.</p>\n</details>\n",
                HTML_GROUPS_IN_FULL);
        return;
    }
    /* Half the page's names for the largest groups, HTML_GROUP_NAMES
     * each, the other half shared by the rest shown in full. */
    const uint32_t large = HTML_NAMES / 2 / HTML_GROUP_NAMES;
    uint32_t names = index < large ? HTML_GROUP_NAMES : HTML_NAMES / 2 / (HTML_GROUPS_IN_FULL - large);
    fprintf(f, "<h3>Its %u case%s", g->count, g->count == 1 ? "" : "s");
    if (g->count > names)
        fprintf(f, " (the first %u; report.json has all)", names);
    fputs("</h3><pre class=\"names\">", f);
    for (uint32_t i = 0; i < g->count && i < names; i++) {
        h(f, r->cases[g->cases[i]].name);
        fputc('\n', f);
    }
    fputs("</pre>\n<h3>Its smallest case, in full</h3>\n", f);
    emit_case(f, &r->cases[g->shown], g->shown, 1);
    fputs("</details>\n", f);
}

/* Filters: an empty target per rule, operation and class, before the
 * links that name them and the groups they narrow; CSS hides the groups
 * that do not match the target in the URL (#f-r11), so they work with no
 * script, which the page's Content-Security-Policy forbids. */
static void emit_filters(FILE *f, const pbc_report *r)
{
    (void)r;
    uint32_t rule_cases[PBC_RULE_COUNT] = {0}, class_cases[16] = {0};
    uint32_t *op_cases = pbc_xcalloc(page->op_count + 1, sizeof(*op_cases));
    for (uint32_t k = 0; k < page->groups.count; k++) {
        const pbc_report_group *g = &page->groups.items[k];
        int rule = g->rule[0] ? pbc_rule_lookup(g->rule) : -1;
        if (rule >= 0)
            rule_cases[rule] += g->count;
        int cls = class_index(g->cls);
        if (cls >= 0)
            class_cases[cls] += g->count;
        for (uint32_t i = 0; i < g->count; i++)
            if (page->op_of_case[g->cases[i]] >= 0)
                op_cases[page->op_of_case[g->cases[i]]]++;
    }
    /* f-r (rules), f-o (operations), f-c (classes), by index: names from
     * outside never become selectors. */
    const struct {
        char kind;
        uint32_t n;
        const uint32_t *cases;
    } kinds[] = {{'r', PBC_RULE_COUNT, rule_cases}, {'o', page->op_count, op_cases}, {'c', page->class_count, class_cases}};
    fputs("<style>\n", f);
    for (size_t k = 0; k < PBC_ARRAY_LEN(kinds); k++)
        for (uint32_t i = 0; i < kinds[k].n; i++)
            if (kinds[k].cases[i])
                fprintf(f, "#f-%c%u:target ~ .groups > .group:not(.%c%u) { display: none; }\n"
                           "#f-%c%u:target ~ .filters a.f-%c%u { background: var(--ink); color: #fff; }\n",
                        kinds[k].kind, i, kinds[k].kind, i, kinds[k].kind, i, kinds[k].kind, i);
    fputs("</style>\n", f);
    for (size_t k = 0; k < PBC_ARRAY_LEN(kinds); k++)
        for (uint32_t i = 0; i < kinds[k].n; i++)
            if (kinds[k].cases[i])
                fprintf(f, "<span class=\"filter-target\" id=\"f-%c%u\"></span>", kinds[k].kind, i);
    fputs("\n<nav class=\"filters\" id=\"filters\">Show: <a href=\"#failures-section\">all groups</a>", f);
    static const char *const words[] = {"rule", "operation", "class"};
    for (size_t k = 0; k < PBC_ARRAY_LEN(kinds); k++) {
        fprintf(f, "<br><span class=\"more\">%s:</span>", words[k]);
        for (uint32_t i = 0; i < kinds[k].n; i++) {
            if (!kinds[k].cases[i])
                continue;
            fprintf(f, " <a class=\"f-%c%u\" href=\"#f-%c%u\">", kinds[k].kind, i, kinds[k].kind, i);
            h(f, k == 0 ? pbc_rule_get((pbc_rule_id)i)->id : k == 1 ? page->ops[i] : page->classes[i]);
            fprintf(f, " (%u)</a>", kinds[k].cases[i]);
        }
    }
    fputs("</nav>\n", f);
    free(op_cases);
}

static void emit_cases(FILE *f, const pbc_report *r)
{
    const pbc_report_groups *g = &page->groups;
    if (!g->count) {
        fputs("<p id=\"no-failures\">No case failed.</p>", f);
        return;
    }
    fprintf(f, "<p class=\"hint\">%u groups of cases failing the same way (the signature <code>pbcheck "
               "triage</code> gives a failure: class, rule, operation, region, shape, the builder's frames), most "
               "cases first, each with its cases and its smallest case in full. A link in the matrix opens a "
               "group; a rule above it, or a filter below, shows only its groups.</p>\n", g->count);
    if (g->root_count < g->count) { /* groups that are one bug, rolled up */
        fprintf(f, "<section class=\"roots\" id=\"root-causes\"><p class=\"hint\">%u root cause%s of these "
                   "groups: groups whose smallest case's first wrong byte one store of the builder's wrote (and "
                   "crashes on that line) are one bug.</p>\n<ul>\n",
                g->root_count, g->root_count == 1 ? "" : "s");
        for (uint32_t k = 0; k < g->root_count; k++) {
            fprintf(f, "<li id=\"root-%s\"><span class=\"mono\">%s</span> ", g->roots[k].id, g->roots[k].id);
            h(f, g->roots[k].title);
            fprintf(f, " (%u case%s):", g->roots[k].cases, g->roots[k].cases == 1 ? "" : "s");
            for (uint32_t i = 0; i < g->count; i++)
                if (g->items[i].root == k)
                    fprintf(f, " <a class=\"mono\" href=\"#%s\">%s</a>", g->items[i].id, g->items[i].id);
            fputs("</li>\n", f);
        }
        fputs("</ul></section>\n", f);
    }
    emit_filters(f, r);
    fputs("<div class=\"groups\">\n", f);
    for (uint32_t i = 0; i < g->count; i++)
        emit_group(f, r, &g->items[i], i);
    fputs("</div>\n", f);
}

/* ---- What was not tested ---- */

static void emit_not_tested(FILE *f, const pbc_report *r)
{
    const pbc_report_groups *g = &page->skips;
    const char *names[PBC_DDI_OPERATION_COUNT];
    uint32_t undeclared = pbc_report_undeclared(r, names, PBC_DDI_OPERATION_COUNT);
    fputs("<section id=\"not-tested-section\">\n  <h2>What was not tested</h2>\n", f);
    if (!g->count)
        fputs("<p id=\"no-skips\">No case was skipped.</p>\n", f);
    else
        fprintf(f, "<p class=\"hint\">%u skipped cases, by reason: a skipped case certifies nothing.</p>\n"
                   "<table class=\"matrix\" id=\"skips\">\n<thead><tr><th>cases</th><th class=\"text\">reason</th>"
                   "<th class=\"text\">operations</th><th class=\"text\">e.g.</th></tr></thead>\n<tbody>\n",
                r->skipped);
    for (uint32_t i = 0; i < g->count; i++) {
        const pbc_report_group *s = &g->items[i];
        fprintf(f, "<tr class=\"skip-group\" id=\"%s\"><td>%u</td><td class=\"text\">", s->id, s->count);
        h(f, s->key);
        fputs("</td><td class=\"text mono\">", f);
        uint32_t *per_op = pbc_xcalloc(page->op_count + 1, sizeof(*per_op));
        for (uint32_t k = 0; k < s->count; k++)
            if (page->op_of_case[s->cases[k]] >= 0)
                per_op[page->op_of_case[s->cases[k]]]++;
        for (uint32_t o = 0, n = 0; o < page->op_count; o++)
            if (per_op[o]) {
                fputs(n++ ? ", " : "", f);
                h(f, page->ops[o]);
                fprintf(f, " (%u)", per_op[o]);
            }
        free(per_op);
        fputs("</td><td class=\"text mono\">", f);
        h(f, r->cases[s->first].name);
        fputs("</td></tr>\n", f);
    }
    if (g->count)
        fputs("</tbody></table>\n", f);
    if (!r->operations_known)
        fputs("<p id=\"undeclared\">The builder did not load: which operations it declares is unknown.</p>\n", f);
    else if (!undeclared)
        fputs("<p id=\"undeclared\">The builder declares every DXGK paging operation.</p>\n", f);
    else {
        fprintf(f, "<p id=\"undeclared\">%u DXGK paging operations the builder does not declare "
                   "(<code>supported_operations</code>), so never certified:", undeclared);
        for (uint32_t i = 0; i < undeclared; i++)
            fprintf(f, "%s <code>%s</code>", i ? "," : "", names[i]);
        fputs(".</p>\n", f);
    }
    fputs("</section>", f);
}

/* ---- Provenance, waivers, header ---- */

static void fact(FILE *f, const char *name, const char *value, int mono)
{
    if (!value || !value[0])
        return;
    fputs("<dt>", f);
    h(f, name);
    fprintf(f, "</dt><dd%s>", mono ? " class=\"mono\"" : "");
    h(f, value);
    fputs("</dd>\n", f);
}

static void emit_provenance(FILE *f, const pbc_report *r)
{
    const pbc_report_provenance *p = &r->provenance;
    fputs("<dl class=\"facts\" id=\"provenance\">\n", f);
    char *pbcheck = pbc_xprintf("%s (git %s)", p->version ? p->version : "?", p->git_revision ? p->git_revision : "?");
    fact(f, "pbcheck", pbcheck, 0);
    free(pbcheck);
    fact(f, "target", r->target, 1);
    fact(f, p->target_builtin ? "target binary (built into pbcheck)" : "target binary", p->target_binary, 1);
    fact(f, "target XXH3-128", p->target_xxh3, 1);
    char decoder[512];
    fact(f, "ISA description (decoder)", pbc_report_decoder_line(p, decoder, sizeof(decoder)), 0);
    char *suite = p->suite_xxh3[0] ? pbc_xprintf("%s (%u cases)", p->suite_xxh3, p->suite_cases) : NULL;
    fact(f, "suite XXH3-128", suite, 1);
    free(suite);
    char *cmd = NULL;
    if (p->argv)
        cmd = pbc_report_shell_command(p->argv);
    fact(f, "command", cmd, 1);
    free(cmd);
    for (uint32_t i = 0; i < p->option_count; i++) {
        char *name = pbc_xprintf("--%s", p->options[i].name);
        const pbc_report_option *o = &p->options[i];
        const char *v = !o->value ? "(not given)" : o->kind != PBC_REPORT_OPT_FLAG ? o->value
                      : strcmp(o->value, "0") ? "on" : "off";
        fact(f, name, v, 1);
        free(name);
    }
    fact(f, "started (UTC)", p->started, 0);
    char *seconds = pbc_xprintf("%.1f s", r->seconds);
    fact(f, "duration", seconds, 0);
    free(seconds);
    fact(f, "host", p->host, 0);
    fact(f, "OS", p->os, 0);
    char *cpu = p->cpu_model[0] || p->cpu_count ? pbc_xprintf("%s, %u CPUs", p->cpu_model, p->cpu_count) : NULL;
    fact(f, "CPU", cpu, 0);
    free(cpu);
    fact(f, "run", p->run_id, 1);
    fputs("</dl>", f);
}

static void emit_waivers(FILE *f, const pbc_report *r)
{
    if (!r->waivers || !r->waivers->count)
        return;
    fputs("<section id=\"waivers-section\">\n  <h2>Waivers</h2>\n<table class=\"matrix\" id=\"waivers\">\n"
          "<thead><tr><th>where</th><th>pattern</th><th>rule</th><th>expires</th><th>waived</th>"
          "<th>reason</th></tr></thead>\n<tbody>\n", f);
    for (uint32_t i = 0; i < r->waivers->count; i++) {
        const pbc_waiver *w = &r->waivers->items[i];
        fputs("<tr><td class=\"mono\">", f);
        h(f, w->where);
        fputs("</td><td class=\"mono\">", f);
        h(f, w->pattern);
        fputs("</td><td>", f);
        h(f, w->rule);
        fprintf(f, "</td><td class=\"%s\">", w->expired ? "hit" : "ok");
        h(f, w->expires);
        fprintf(f, "%s</td>", w->expired ? " (expired)" : "");
        matrix_cell(f, w->matched, "waived");
        fputs("<td style=\"text-align:left\">", f);
        h(f, w->reason);
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody></table>\n</section>", f);
}

static void emit_counts(FILE *f, const pbc_report *r)
{
    fprintf(f, "%u cases: %u passed, %u failed, %u waived, %u skipped, %u harness bugs, %u isolated · %.1f s",
            r->case_count, r->passed, r->failed, r->waived, r->skipped, r->harness_bugs, r->isolated, r->seconds);
}

static void emit_notes(FILE *f, const pbc_report *r)
{
    if (r->interrupted)
        fputs("  <p class=\"note\" id=\"interrupted\">Interrupted (SIGINT, SIGTERM, SIGHUP or SIGQUIT): only the cases below ran; "
              "no verdict on the rest.</p>\n", f);
    else if (pbc_report_incomplete_reason(r)) {
        fputs("  <p class=\"note\" id=\"incomplete\">Incomplete: ", f);
        h(f, pbc_report_incomplete_reason(r));
        fputs(".</p>\n", f);
    }
    for (uint32_t i = 0; r->waivers && i < r->waivers->count; i++) {
        const pbc_waiver *w = &r->waivers->items[i];
        if (!w->expired)
            continue;
        fputs("  <p class=\"note expired\">Waiver ", f);
        h(f, w->where);
        fputs(" expired on ", f);
        h(f, w->expires);
        fputs(": it covers nothing and fails the run.</p>\n", f);
    }
}

static void emit_title(FILE *f, const pbc_report *r)
{
    fputs("pbcheck certify: ", f);
    h(f, r->target);
    fputs(" — ", f);
    h(f, pbc_report_verdict_text(pbc_report_get_verdict(r)));
}

static void emit_css(FILE *f, const pbc_report *r)
{
    (void)r;
    fputs((const char *)pbc_report_template_css, f);
}

static void emit_target(FILE *f, const pbc_report *r) { h(f, r->target); }
static void emit_verdict(FILE *f, const pbc_report *r)
{
    h(f, pbc_report_verdict_text(pbc_report_get_verdict(r)));
}
static void emit_verdict_class(FILE *f, const pbc_report *r)
{
    fputs(verdict_class(pbc_report_get_verdict(r)), f);
}

static const struct slot {
    const char *name;
    void (*emit)(FILE *f, const pbc_report *r);
} slots[] = {
    {"title", emit_title},       {"css", emit_css},         {"verdict_class", emit_verdict_class},
    {"target", emit_target},     {"verdict", emit_verdict}, {"counts", emit_counts},
    {"notes", emit_notes},       {"matrix", emit_matrix},   {"chart", emit_chart},
    {"cases", emit_cases},       {"waivers", emit_waivers}, {"provenance", emit_provenance},
    {"not_tested", emit_not_tested},
};

static void page_make(html_page *pg, const pbc_report *r)
{
    memset(pg, 0, sizeof(*pg));
    pbc_report_group_failures(r, &pg->groups);
    pbc_report_group_skips(r, &pg->skips);
    pg->op_of_case = pbc_xmalloc((r->case_count ? r->case_count : 1) * sizeof(*pg->op_of_case));
    for (uint32_t i = 0; i < r->case_count; i++) {
        char op[64];
        size_t len = strcspn(r->cases[i].name, "/");
        snprintf(op, sizeof(op), "%.*s", (int)(len < sizeof(op) ? len : sizeof(op) - 1), r->cases[i].name);
        uint32_t k = i ? (uint32_t)pg->op_of_case[i - 1] : 0; /* the case before's is the likeliest */
        if (k >= pg->op_count || strcmp(pg->ops[k], op))
            for (k = 0; k < pg->op_count && strcmp(pg->ops[k], op); k++)
                ;
        if (k == pg->op_count) {
            pg->ops = pbc_xrealloc(pg->ops, (pg->op_count + 1) * sizeof(*pg->ops));
            memcpy(pg->ops[pg->op_count++], op, sizeof(op));
        }
        pg->op_of_case[i] = (int32_t)k;
    }
    for (uint32_t k = 0; k < pg->groups.count; k++) {
        const char *cls = pg->groups.items[k].cls;
        uint32_t c = 0;
        while (c < pg->class_count && strcmp(pg->classes[c], cls))
            c++;
        if (c == pg->class_count && c < PBC_ARRAY_LEN(pg->classes))
            snprintf(pg->classes[pg->class_count++], sizeof(pg->classes[0]), "%s", cls);
    }
}

static void page_fini(html_page *pg)
{
    pbc_report_groups_fini(&pg->groups);
    pbc_report_groups_fini(&pg->skips);
    free(pg->ops);
    free(pg->op_of_case);
}

int pbc_report_write_html(const pbc_report *r, const char *path, char *err, size_t err_size)
{
    char *doc = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&doc, &len);
    if (!f) {
        snprintf(err, err_size, "cannot write %s: out of memory", path);
        return -1;
    }
    html_page pg;
    page_make(&pg, r);
    page = &pg;
    const char *t = (const char *)pbc_report_template_html;
    for (const char *open; (open = strstr(t, "{{"));) {
        fwrite(t, 1, (size_t)(open - t), f);
        const char *close = strstr(open, "}}");
        size_t n = close ? (size_t)(close - open - 2) : 0;
        size_t k = 0;
        while (k < PBC_ARRAY_LEN(slots) && (strlen(slots[k].name) != n || strncmp(slots[k].name, open + 2, n)))
            k++;
        if (k == PBC_ARRAY_LEN(slots)) {
            /* The template is compiled in: a slot this file does not fill
             * is pbcheck's own bug. */
            fprintf(stderr, "pbcheck: harness bug: reports/template.html has an unknown slot near '%.20s'\n", open);
            abort();
        }
        slots[k].emit(f, r);
        t = close + 2;
    }
    fputs(t, f);
    page = NULL;
    page_fini(&pg);
    int bad = ferror(f);
    if (fclose(f) || bad) {
        free(doc);
        snprintf(err, err_size, "cannot write %s: out of memory", path);
        return -1;
    }
    int rc = pbc_fs_write_atomic(path, doc, len, err, err_size);
    free(doc);
    return rc;
}
