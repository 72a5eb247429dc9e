/*
 * Buckets and root causes (buckets.h): inputs that fail with one
 * signature share a bucket; buckets that differ only in where one bug
 * showed share a root cause.
 */
#include "triage/buckets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

int pbc_triage_bucket_of(pbc_triage_run *r, const pbc_triage_facts *f)
{
    char text[640];
    uint64_t sig = pbc_triage_signature(f, text, sizeof(text));
    for (uint32_t i = 0; i < r->bucket_count; i++)
        if (r->buckets[i].sig == sig)
            return (int)i;
    pbc_triage_bucket nb;
    memset(&nb, 0, sizeof(nb));
    nb.sig = sig;
    snprintf(nb.sig_text, sizeof(nb.sig_text), "%s", text);
    nb.facts = *f;
    nb.severity = pbc_triage_severity(f);
    pbc_triage_title(f, nb.title, sizeof(nb.title));
    PBC_PUSH(r->buckets, r->bucket_count, r->bucket_cap, nb);
    return (int)r->bucket_count - 1;
}

static int bucket_order(const void *pa, const void *pb)
{
    const pbc_triage_bucket *a = pa, *b = pb;
    if (a->severity != b->severity)
        return a->severity - b->severity;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return a->sig < b->sig ? -1 : a->sig > b->sig;
}

/* One line for a root cause: its first bucket's title when it has one
 * bucket, else what its buckets share and where they showed. */
static void root_title(pbc_triage_run *r, uint32_t k)
{
    pbc_triage_root *root = &r->roots[k];
    const pbc_triage_bucket *first = &r->buckets[root->first];
    if (root->buckets == 1) {
        snprintf(root->title, sizeof(root->title), "%s", first->title);
        return;
    }
    char rules[128] = "", ops[160] = "", shapes[48] = "";
    for (uint32_t i = 0; i < r->bucket_count; i++) {
        const pbc_triage_facts *f = &r->buckets[i].facts;
        if (r->buckets[i].root != k)
            continue;
        const struct {
            char *list;
            size_t size;
            const char *word;
        } lists[] = {{rules, sizeof(rules), f->rule}, {ops, sizeof(ops), f->operation}, {shapes, sizeof(shapes), f->shape}};
        for (size_t l = 0; l < PBC_ARRAY_LEN(lists); l++) {
            char padded[64];
            snprintf(padded, sizeof(padded), ", %s,", lists[l].word);
            char have[200];
            snprintf(have, sizeof(have), ", %s,", lists[l].list);
            if (lists[l].word[0] && !strstr(have, padded)) {
                size_t n = strlen(lists[l].list);
                snprintf(lists[l].list + n, lists[l].size - n, "%s%s", n ? ", " : "", lists[l].word);
            }
        }
    }
    if (!strncmp(root->key, "writer|", 7)) {
        snprintf(root->title, sizeof(root->title), "memory written wrong by the builder's store at %s (%s)%s%s",
                 root->key + 7, rules, ops[0] ? " in " : "", ops);
        return;
    }
    if (!strncmp(root->key, "ddi|", 4)) {
        snprintf(root->title, sizeof(root->title), "%s (%s)%s%s", root->key + 4, rules, ops[0] ? " in " : "", ops);
        return;
    }
    if (strncmp(root->key, "memory|", 7)) {
        snprintf(root->title, sizeof(root->title), "%s (and %u more buckets)", first->title, root->buckets - 1);
        return;
    }
    const char *w = first->facts.writer;
    const char *by = !strcmp(w, "packet") ? "a paging-buffer packet" : !strcmp(w, "render") ? "render work"
                   : !strcmp(w, "cpu")    ? "the builder's CPU writes" : w;
    snprintf(root->title, sizeof(root->title), "wrong memory or GPU faults from %s (%s)%s%s%s%s", by, rules,
             ops[0] ? " in " : "", ops, shapes[0] ? "; " : "", shapes);
}

/* Whether a root-cause key is memory left wrong (or a GPU fault) on a page
 * the builder's own work (a packet, its CPU writes) did not write last:
 * render work, the model's and the same in both worlds, wrote over the
 * wrong bytes, or nothing wrote them. Such a bucket shows a wrong or
 * missing write of the builder's without saying which writer made it. */
static int unattributed(const pbc_triage_facts *f, const char *key)
{
    return !strncmp(key, "memory|", 7) && strcmp(f->writer, "packet") && strcmp(f->writer, "cpu");
}

/* The key of the run's one root cause of memory written wrong by the
 * builder's own work (into only), when there is exactly one; "" when
 * there is none or several. */
static void only_attributed(const pbc_triage_run *r, char *only, size_t size)
{
    only[0] = 0;
    for (uint32_t i = 0; i < r->bucket_count; i++) {
        char key[640];
        if (r->buckets[i].writer_at[0])
            continue; /* a store: only_store's */
        pbc_triage_root_cause(&r->buckets[i].facts, key, sizeof(key));
        if (strncmp(key, "memory|", 7) || unattributed(&r->buckets[i].facts, key))
            continue;
        if (only[0] && strcmp(only, key)) {
            only[0] = 0;
            return;
        }
        snprintf(only, size, "%s", key);
    }
}

/* The root-cause key of bucket b: the store that wrote its first wrong
 * byte when the replay found it ("writer|FILE:LINE"). A crash or a
 * sanitizer report on a line that is some bucket's store joins it; wrong
 * memory whose store is not known joins the run's one store. Else its
 * own key, except that an unattributed one joins the run's one
 * attributed memory root cause whose builder frames it shares (the
 * writer is what it does not know). */
/* The run's one store that wrote wrong memory ("writer|FILE:LINE" into
 * store), when its attributed buckets name exactly one; else "". */
static void only_store(const pbc_triage_run *r, char *store, size_t size)
{
    store[0] = 0;
    for (uint32_t i = 0; i < r->bucket_count; i++) {
        const char *at = r->buckets[i].writer_at;
        if (!at[0])
            continue;
        if (store[0] && strcmp(store + 7, at)) {
            store[0] = 0;
            return;
        }
        snprintf(store, size, "writer|%s", at);
    }
}

static int has_writer(const pbc_triage_run *r, const char *where)
{
    for (uint32_t i = 0; i < r->bucket_count; i++)
        if (!strcmp(r->buckets[i].writer_at, where))
            return 1;
    return 0;
}

static void bucket_root_key(const pbc_triage_run *r, const pbc_triage_bucket *b, const char *only,
                            const char *store, char *key, size_t size)
{
    if (b->writer_at[0]) {
        snprintf(key, size, "writer|%s", b->writer_at);
        return;
    }
    if ((b->facts.cls == PBC_TRIAGE_CRASH || b->facts.cls == PBC_TRIAGE_SANITIZER) && b->facts.location[0] &&
        has_writer(r, b->facts.location)) {
        /* a crash on the very line that wrote wrong memory elsewhere: one bug */
        snprintf(key, size, "writer|%s", b->facts.location);
        return;
    }
    pbc_triage_root_cause(&b->facts, key, size);
    int memory = !strncmp(key, "memory|", 7);
    if (store[0] && memory) {
        /* wrong memory whose store the replay did not find (a reproducer
         * of bytes, a packet no longer in the pool, render work over it),
         * in a run whose wrong memory one store wrote */
        snprintf(key, size, "%s", store);
        return;
    }
    if (only[0] && unattributed(&b->facts, key)) {
        const char *mine = strchr(key + 7, '|'), *theirs = strchr(only + 7, '|');
        if (mine && theirs && !strcmp(mine, theirs)) {
            snprintf(key, size, "%s", only);
            return;
        }
    }
    /* No store: the DDI and the field of its calls the rule judges, when
     * it judges one; memory a packet or the CPU wrote keeps its writer's
     * key, which joins a divergence and a GPU fault of one wrong address. */
    if (b->facts.ddi[0] && (!memory || unattributed(&b->facts, key)))
        snprintf(key, size, "ddi|%s", b->facts.ddi);
}

void pbc_triage_sort(pbc_triage_run *r)
{
    uint64_t *order = pbc_xmalloc((r->bucket_count ? r->bucket_count : 1) * sizeof(*order));
    for (uint32_t i = 0; i < r->bucket_count; i++)
        order[i] = r->buckets[i].sig;
    if (r->bucket_count > 1)
        qsort(r->buckets, r->bucket_count, sizeof(*r->buckets), bucket_order);
    for (uint32_t i = 0; i < r->input_count; i++)
        for (uint32_t k = 0; k < r->bucket_count; k++)
            if (r->inputs[i].bucket >= 0 && r->buckets[k].sig == order[r->inputs[i].bucket]) {
                r->inputs[i].bucket = (int)k;
                break;
            }
    free(order);
    for (uint32_t i = 0; i < r->bucket_count; i++)
        snprintf(r->buckets[i].id, sizeof(r->buckets[i].id), "b%03u", i + 1);
    free(r->roots);
    r->roots = NULL;
    r->root_count = 0;
    uint32_t cap = 0;
    char only[640], store[300];
    only_attributed(r, only, sizeof(only));
    only_store(r, store, sizeof(store));
    for (uint32_t i = 0; i < r->bucket_count; i++) {
        pbc_triage_bucket *b = &r->buckets[i];
        char key[640];
        bucket_root_key(r, b, only, store, key, sizeof(key));
        uint32_t k = 0;
        while (k < r->root_count && strcmp(r->roots[k].key, key))
            k++;
        if (k == r->root_count) {
            pbc_triage_root fresh;
            memset(&fresh, 0, sizeof(fresh));
            snprintf(fresh.id, sizeof(fresh.id), "r%03u", k + 1);
            snprintf(fresh.key, sizeof(fresh.key), "%s", key);
            fresh.severity = b->severity;
            fresh.first = i;
            PBC_PUSH(r->roots, r->root_count, cap, fresh);
        }
        b->root = k;
        r->roots[k].buckets++;
        r->roots[k].inputs += b->count;
    }
    for (uint32_t k = 0; k < r->root_count; k++)
        root_title(r, k);
}

void pbc_triage_run_fini(pbc_triage_run *r)
{
    for (uint32_t i = 0; i < r->input_count; i++) {
        free(r->inputs[i].path);
        free(r->inputs[i].bytes);
        free(r->inputs[i].message);
    }
    free(r->inputs);
    for (uint32_t i = 0; i < r->bucket_count; i++) {
        free(r->buckets[i].members);
        free(r->buckets[i].repro);
        free(r->buckets[i].repro_bin);
        free(r->buckets[i].report);
        free(r->buckets[i].last_writer);
    }
    free(r->buckets);
    for (uint32_t i = 0; i < r->gone_count; i++) {
        free(r->gone[i].signature);
        free(r->gone[i].title);
    }
    free(r->gone);
    free(r->roots);
    memset(r, 0, sizeof(*r));
}
