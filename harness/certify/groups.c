/*
 * Groups of cases for the reports (groups.h). A run can fail 100,000
 * cases, so cases are grouped by sorting their keys' hashes, never by
 * comparing each case with each group.
 */
#include "certify/groups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "base/util.h"
#include "oracle/verdict.h"
#include "scenario/scenario.h"

void pbc_report_case_class(const pbc_report_case *c, char *buf, size_t size)
{
    if (c->signature && strchr(c->signature, '|'))
        snprintf(buf, size, "%.*s", (int)strcspn(c->signature, "|"), c->signature);
    else if (c->isolation)
        snprintf(buf, size, "%s", c->isolation);
    else if (c->verdict == PBC_VERDICT_HARNESS_BUG)
        snprintf(buf, size, "harness-bug");
    else
        snprintf(buf, size, "%s", c->rule && !strcmp(c->rule, "PB-DIVERGE") ? "divergence" : "rule");
}

static int is_failure(const pbc_report_case *c)
{
    return c->verdict == PBC_VERDICT_FAIL || c->verdict == PBC_VERDICT_HARNESS_BUG || c->isolation;
}

typedef struct keyed {
    uint64_t hash;
    uint32_t index;
} keyed;

static int keyed_order(const void *pa, const void *pb)
{
    const keyed *a = pa, *b = pb;
    if (a->hash != b->hash)
        return a->hash < b->hash ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static int group_order(const void *pa, const void *pb)
{
    const pbc_report_group *a = pa, *b = pb;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return a->first < b->first ? -1 : a->first > b->first;
}

/* The key of a case: its signature, or for a failure without one its
 * class and rule (made in buf); for a skip, its reason. */
static const char *case_key(const pbc_report_case *c, int skips, char *buf, size_t size)
{
    if (skips)
        return c->message ? c->message : "";
    if (c->signature)
        return c->signature;
    char cls[16];
    pbc_report_case_class(c, cls, sizeof(cls));
    snprintf(buf, size, "%s|%s", cls, c->rule ? c->rule : "");
    return buf;
}

static void group_cases(const pbc_report *r, pbc_report_groups *g, int skips)
{
    memset(g, 0, sizeof(*g));
    g->of_case = pbc_xmalloc((r->case_count ? r->case_count : 1) * sizeof(*g->of_case));
    keyed *k = pbc_xmalloc((r->case_count ? r->case_count : 1) * sizeof(*k));
    uint32_t n = 0;
    char buf[128];
    for (uint32_t i = 0; i < r->case_count; i++) {
        const pbc_report_case *c = &r->cases[i];
        g->of_case[i] = -1;
        if (skips ? c->verdict != PBC_VERDICT_SKIP : !is_failure(c))
            continue;
        const char *key = case_key(c, skips, buf, sizeof(buf));
        k[n++] = (keyed){XXH3_64bits(key, strlen(key)), i};
    }
    qsort(k, n, sizeof(*k), keyed_order);
    /* Runs of one hash: a run may hold two keys that collide, split by
     * comparing each case's key with its run's groups. */
    for (uint32_t at = 0; at < n;) {
        uint32_t end = at, first_group = g->count;
        while (end < n && k[end].hash == k[at].hash)
            end++;
        for (uint32_t j = at; j < end; j++) {
            const pbc_report_case *c = &r->cases[k[j].index];
            char kb[128];
            const char *key = case_key(c, skips, kb, sizeof(kb));
            uint32_t gi = first_group;
            while (gi < g->count) {
                char fb[128];
                if (!strcmp(case_key(&r->cases[g->items[gi].first], skips, fb, sizeof(fb)), key))
                    break;
                gi++;
            }
            if (gi == g->count) {
                pbc_report_group fresh;
                memset(&fresh, 0, sizeof(fresh));
                snprintf(fresh.id, sizeof(fresh.id), "%c%08x", skips ? 's' : 'g', (unsigned)(k[j].hash >> 32));
                fresh.first = fresh.shown = k[j].index;
                fresh.key = c->signature && !skips ? c->signature : skips ? (c->message ? c->message : "") : NULL;
                fresh.title = skips ? fresh.key : c->title;
                fresh.rule = c->rule ? c->rule : "";
                pbc_report_case_class(c, fresh.cls, sizeof(fresh.cls));
                PBC_PUSH(g->items, g->count, g->cap, fresh);
            }
            pbc_report_group *grp = &g->items[gi];
            PBC_PUSH(grp->cases, grp->count, grp->cap, k[j].index);
            grp->waived += c->waiver != NULL;
            /* Shown in full: a case with a reproducer before one without,
             * then the smallest scenario, then the earliest. */
            const pbc_report_case *s = &r->cases[grp->shown];
            int better = (c->repro != NULL) - (s->repro != NULL);
            if (better > 0 || (better == 0 && c->size < s->size))
                grp->shown = k[j].index;
        }
        at = end;
    }
    free(k);
    if (g->count > 1) /* items is NULL when there is none */
        qsort(g->items, g->count, sizeof(*g->items), group_order);
    for (uint32_t i = 0; i < g->count; i++) { /* the items stay where they are from here on */
        pbc_report_group *grp = &g->items[i];
        if (!grp->key) {
            snprintf(grp->own, sizeof(grp->own), "%s%s%s", grp->cls, grp->rule[0] ? " " : "", grp->rule);
            grp->key = grp->own;
        }
        if (!grp->title)
            grp->title = grp->key;
    }
    for (uint32_t i = 0; i < g->count; i++)
        for (uint32_t j = 0; j < g->items[i].count; j++)
            g->of_case[g->items[i].cases[j]] = (int32_t)i;
}

/* The store that wrote group g's wrong memory, as its cases' last writer
 * says (the shown case's first), or NULL. */
static const char *group_writer(const pbc_report *r, const pbc_report_group *g)
{
    const pbc_report_case *c = &r->cases[g->shown];
    if (c->last_writer && c->location)
        return c->location;
    for (uint32_t k = 0; k < g->count; k++)
        if (r->cases[g->cases[k]].last_writer && r->cases[g->cases[k]].location)
            return r->cases[g->cases[k]].location;
    return NULL;
}

/* Root causes: a group with a last writer is keyed by its store; a crash
 * or sanitizer group whose location is such a store joins it, and so
 * does wrong memory or a GPU fault whose store the replay did not find
 * (a write that never happened, render work over it) when the run's
 * stores are one (as triage joins them, docs/triage.md "Root causes");
 * a rule's group without one by the DDI and field the rule judges; the
 * rest stand alone. */
static void group_roots(const pbc_report *r, pbc_report_groups *g)
{
    const char **writers = pbc_xcalloc(g->count ? g->count : 1, sizeof(*writers));
    const char *only = NULL; /* the run's one store, NULL when none or several */
    int several = 0;
    for (uint32_t i = 0; i < g->count; i++) {
        writers[i] = group_writer(r, &g->items[i]);
        several |= writers[i] && only && strcmp(only, writers[i]);
        only = writers[i] && !only ? writers[i] : only;
    }
    if (several)
        only = NULL;
    for (uint32_t i = 0; i < g->count; i++) {
        pbc_report_group *grp = &g->items[i];
        const char *loc = r->cases[grp->shown].location;
        char key[600];
        if (writers[i]) {
            snprintf(key, sizeof(key), "writer|%s", writers[i]);
        } else if ((!strcmp(grp->cls, "crash") || !strcmp(grp->cls, "sanitizer")) && loc) {
            int known = 0;
            for (uint32_t j = 0; j < g->count && !known; j++)
                known = writers[j] && !strcmp(writers[j], loc);
            snprintf(key, sizeof(key), known ? "writer|%s" : "%s", known ? loc : grp->key);
        } else if (only && (!strcmp(grp->rule, "PB-DIVERGE") || !strcmp(grp->rule, "PB-GPU-FAULT"))) {
            snprintf(key, sizeof(key), "writer|%s", only);
        } else if (r->cases[grp->shown].ddi && strcmp(grp->cls, "crash") && strcmp(grp->cls, "sanitizer")) {
            /* no store: the DDI call and field the rule judges */
            snprintf(key, sizeof(key), "ddi|%s", r->cases[grp->shown].ddi);
        } else {
            snprintf(key, sizeof(key), "%s", grp->key);
        }
        uint32_t k = 0;
        while (k < g->root_count && strcmp(g->roots[k].key, key))
            k++;
        if (k == g->root_count) {
            pbc_report_root fresh;
            memset(&fresh, 0, sizeof(fresh));
            snprintf(fresh.id, sizeof(fresh.id), "r%u", k + 1);
            snprintf(fresh.key, sizeof(fresh.key), "%s", key);
            if (!strncmp(key, "writer|", 7))
                snprintf(fresh.title, sizeof(fresh.title), "wrong memory written by the builder's store at %s",
                         key + 7);
            else if (!strncmp(key, "ddi|", 4))
                snprintf(fresh.title, sizeof(fresh.title), "%s", key + 4);
            else
                snprintf(fresh.title, sizeof(fresh.title), "%s", grp->title);
            fresh.first = i;
            PBC_PUSH(g->roots, g->root_count, g->root_cap, fresh);
        }
        grp->root = k;
        g->roots[k].groups++;
        g->roots[k].cases += grp->count;
    }
    free(writers);
}

void pbc_report_group_failures(const pbc_report *r, pbc_report_groups *g)
{
    group_cases(r, g, 0);
    group_roots(r, g);
}
void pbc_report_group_skips(const pbc_report *r, pbc_report_groups *g) { group_cases(r, g, 1); }

void pbc_report_groups_fini(pbc_report_groups *g)
{
    for (uint32_t i = 0; i < g->count; i++)
        free(g->items[i].cases);
    free(g->items);
    free(g->of_case);
    free(g->roots);
    memset(g, 0, sizeof(*g));
}

uint32_t pbc_report_undeclared(const pbc_report *r, const char **names, uint32_t max)
{
    uint32_t n = 0;
    for (uint32_t op = 0; r->operations_known && op < PBC_DDI_OPERATION_COUNT && n < max; op++)
        if (!(r->operations >> op & 1u))
            names[n++] = pbc_ddi_operation_name(op);
    return n;
}

struct pbc_report_claim {
    uint64_t hash;
    uint32_t size, index;
};

int pbc_report_repro_claim(pbc_report_repro_claims *c, const char *signature, uint32_t size, uint32_t index,
                           uint32_t *replaces)
{
    *replaces = UINT32_MAX;
    if (!signature)
        return 1; /* nothing to group it by: it keeps its own */
    uint64_t hash = XXH3_64bits(signature, strlen(signature));
    for (uint32_t i = 0; i < c->count; i++) {
        struct pbc_report_claim *h = &c->items[i];
        if (h->hash != hash)
            continue;
        if (size >= h->size)
            return 0;
        *replaces = h->index;
        h->size = size;
        h->index = index;
        return 1;
    }
    struct pbc_report_claim fresh = {hash, size, index};
    PBC_PUSH(c->items, c->count, c->cap, fresh);
    return 1;
}

void pbc_report_repro_claims_fini(pbc_report_repro_claims *c)
{
    free(c->items);
    memset(c, 0, sizeof(*c));
}
