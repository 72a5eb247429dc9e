/*
 * Observable state: digests per region with XXH3, and a diff that finds the
 * first differing byte. Both walk only the pages and GART entries the runs
 * touched (untouched memory is zero in every run), in place: no copies of
 * described pages that match, and no allocation but the sorted masks of a
 * run that made many.
 */
#include "oracle/state.h"

#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "base/util.h"

/* The masks a comparison looks through. Few are scanned as they are; past
 * MASKS_SCANNED they are sorted and merged once, so that a run which
 * discarded thousands of ranges costs a binary search per page, not a
 * scan of them all (merging changes nothing: a page covered by several
 * masks compares as zeros, as one covered by one). */
#define MASKS_SCANNED 16u
typedef struct mask_set {
    const pbc_mask *m;
    uint32_t n;
    pbc_mask *merged; /* sorted by start, disjoint; NULL: m is scanned */
} mask_set;

static int mask_by_start(const void *x, const void *y)
{
    const pbc_mask *a = x, *b = y;
    return a->start < b->start ? -1 : a->start > b->start;
}

static void mask_set_init(mask_set *ms, const pbc_mask *masks, uint32_t n)
{
    *ms = (mask_set){masks, n, NULL};
    if (n <= MASKS_SCANNED)
        return;
    pbc_mask *m = pbc_xmalloc(n * sizeof(*m));
    memcpy(m, masks, n * sizeof(*m));
    qsort(m, n, sizeof(*m), mask_by_start);
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (m[i].end <= m[i].start)
            continue;
        if (k && m[i].start <= m[k - 1].end) {
            if (m[i].end > m[k - 1].end)
                m[k - 1].end = m[i].end;
        } else {
            m[k++] = m[i];
        }
    }
    ms->m = ms->merged = m;
    ms->n = k;
}

static void mask_set_fini(mask_set *ms) { free(ms->merged); }

/* The first mask that may meet [lo, ...): merged masks past the last one
 * ending at or before lo; every mask when they are scanned. */
static uint32_t mask_first(const mask_set *ms, uint64_t lo)
{
    if (!ms->merged)
        return 0;
    uint32_t a = 0, b = ms->n;
    while (a < b) {
        uint32_t mid = a + (b - a) / 2;
        if (ms->m[mid].end <= lo)
            a = mid + 1;
        else
            b = mid;
    }
    return a;
}

/* Whether masks meet physical page ppn: 0 no, 1 in part, 2 they cover it
 * whole (it then compares as zeros, whatever it holds). */
static int page_masked(uint64_t ppn, const mask_set *ms)
{
    uint64_t lo = ppn << PBC_PAGE_SHIFT, hi = lo + PBC_PAGE_SIZE;
    int met = 0;
    for (uint32_t i = mask_first(ms, lo); i < ms->n; i++) {
        const pbc_mask *k = &ms->m[i];
        if (k->start <= lo && k->end >= hi)
            return 2;
        met |= k->end > lo && k->start < hi;
        if (ms->merged)
            break; /* disjoint and sorted: the first past lo tells */
    }
    return met;
}

/* The page's bytes as the comparison sees them, masked bytes zeroed: the
 * page itself when nothing is masked, else a copy in scratch. NULL (all
 * zeros) for a page never written or masked whole. */
static const uint8_t *masked_view(const pbc_page *p, const mask_set *ms, uint8_t *scratch)
{
    if (!p)
        return NULL;
    int masked = page_masked(p->ppn, ms);
    if (masked == 2)
        return NULL;
    if (!masked)
        return pbc_mem_view(p, scratch);
    const uint8_t *v = pbc_mem_view(p, scratch);
    if (v != scratch)
        memcpy(scratch, v, PBC_PAGE_SIZE);
    uint64_t lo = p->ppn << PBC_PAGE_SHIFT, hi = lo + PBC_PAGE_SIZE;
    for (uint32_t i = mask_first(ms, lo); i < ms->n; i++) {
        const pbc_mask *k = &ms->m[i];
        if (ms->merged && k->start >= hi)
            break;
        if (k->end <= lo || k->start >= hi)
            continue;
        uint64_t s = k->start > lo ? k->start : lo;
        uint64_t e = k->end < hi ? k->end : hi;
        memset(scratch + (s - lo), 0, e - s);
    }
    return scratch;
}

static const uint8_t zero_page[PBC_PAGE_SIZE];

/* Region of a physical page: segment index, or PBC_MAX_SEGMENTS (system). */
static uint32_t page_region(const pbc_gpu *g, uint64_t ppn)
{
    uint64_t addr = ppn << PBC_PAGE_SHIFT;
    for (uint32_t i = 0; i < g->segment_count; i++)
        if (addr >= g->seg[i].info.base && addr - g->seg[i].info.base < g->seg[i].info.size)
            return i;
    return PBC_MAX_SEGMENTS;
}

/* Whether entry b does what oracle entry a requires (S30, S31): the same
 * validity, and when valid the same page and at least a's coherence — a
 * page mapped cache-coherent when coherence was not requested is legal. */
static int gart_conforms(const pbc_gart_entry *a, const pbc_gart_entry *b)
{
    if ((a->flags & PBC_GART_VALID) != (b->flags & PBC_GART_VALID))
        return 0;
    if (!(a->flags & PBC_GART_VALID))
        return 1;
    if (a->addr != b->addr)
        return 0;
    return !(a->flags & PBC_GART_CACHE_COHERENT) || (b->flags & PBC_GART_CACHE_COHERENT);
}

/* Whether written page p, seen through the masks as v (NULL: masked
 * whole), holds what the base beneath it says (zeros where no extent
 * lies). */
static int page_is_base(const pbc_gpu *g, const pbc_page *p, const uint8_t *v, const mask_set *ms)
{
    if (!v)
        return 1;
    pbc_page base = {.ppn = p->ppn};
    if (!pbc_mem_base_at(&g->mem, p->ppn, &base.desc, NULL))
        return pbc_all_bytes(v, PBC_PAGE_SIZE, 0);
    uint8_t sb[PBC_PAGE_SIZE];
    const uint8_t *vb = masked_view(&base, ms, sb);
    return memcmp(v, vb ? vb : zero_page, PBC_PAGE_SIZE) == 0;
}

/* Whether unmasked described page p is its base without making bytes: 1
 * yes, 0 no, -1 only its bytes can tell. A page of one pattern is never a
 * page of initial content (1,024 equal words against 1,024 different
 * ones) nor, unless it is zeros, of zeros. */
static int described_is_base(const pbc_gpu *g, const pbc_page *p)
{
    if (!pbc_page_single(p))
        return -1;
    pbc_desc b;
    if (!pbc_mem_base_at(&g->mem, p->ppn, &b, NULL))
        b = (pbc_desc){PBC_PAGE_ZERO, 0, 0};
    if (pbc_desc_same(&p->desc, &b))
        return 1;
    if (p->desc.kind == PBC_PAGE_PATTERN && (b.kind == PBC_PAGE_ZERO || b.kind == PBC_PAGE_CONTENT))
        return 0;
    return -1;
}

/* The digest is a function of the bytes alone, whatever holds them (bytes
 * or a description), given the base the world laid (the same in every
 * world of a scenario): each page that differs from its base adds its
 * hash, seeded by its address, to its region, so the order pages were
 * touched in and how the work was cut up do not matter, and memory no one
 * wrote costs nothing. */
void pbc_state_digest(const pbc_gpu *g, const pbc_mask *masks, uint32_t mask_count, pbc_digest *out)
{
    uint64_t sum[PBC_STATE_REGIONS] = {0};
    uint8_t scratch[PBC_PAGE_SIZE];
    pbc_desc last = {PBC_PAGE_BYTES, 0, 0}; /* a pattern page's hash is the same for its whole fill */
    uint64_t last_hash = 0;
    mask_set ms;
    mask_set_init(&ms, masks, mask_count);
    for (uint32_t i = 0; i < g->mem.count; i++) {
        const pbc_page *p = &g->mem.pages[i];
        int masked = page_masked(p->ppn, &ms);
        int is_base = masked ? -1 : described_is_base(g, p);
        if (is_base == 1)
            continue;
        uint64_t h;
        int pattern = pbc_page_single(p) && p->desc.kind == PBC_PAGE_PATTERN;
        if (pattern && !masked && is_base == 0 && pbc_desc_same(&p->desc, &last)) {
            h = last_hash;
        } else {
            const uint8_t *v = masked_view(p, &ms, scratch);
            if (is_base < 0 && page_is_base(g, p, v, &ms))
                continue;
            h = XXH3_64bits(v, PBC_PAGE_SIZE);
            if (pattern && !masked)
                last = p->desc, last_hash = h;
        }
        sum[page_region(g, p->ppn)] += XXH3_64bits_withSeed(&h, sizeof(h), p->ppn);
    }
    mask_set_fini(&ms);
    for (uint32_t i = 0; i < g->segment_count; i++) {
        const pbc_gpu_segment *seg = &g->seg[i];
        for (uint32_t k = 0; k < seg->touched_count; k++) {
            const pbc_gart_entry *e = &seg->gart[seg->touched[k]];
            if (!e->flags && !e->addr)
                continue;
            uint64_t rec[3] = {seg->touched[k], e->addr, e->flags};
            sum[i] += XXH3_64bits(rec, sizeof(rec));
        }
    }
    sum[PBC_MAX_SEGMENTS + 1] = XXH3_64bits(&g->fault_count, sizeof(g->fault_count));
    for (uint32_t r = 0; r < PBC_STATE_REGIONS; r++)
        out->region[r] = XXH3_64bits_withSeed(&sum[r], sizeof(sum[r]), r);
    out->total = XXH3_64bits(out->region, sizeof(out->region));
}

/* Offset of the first byte where the two pages differ, or -1. A page
 * masked whole is equal in both (it compares as zeros), and described
 * pages that describe the same bytes are equal without being made. */
static int page_differs(const pbc_page *pa, const pbc_page *pb, const mask_set *ms)
{
    int masked = page_masked(pa ? pa->ppn : pb->ppn, ms);
    if (masked == 2)
        return -1;
    if (!masked && pa && pb && pbc_page_single(pa) && pbc_page_single(pb) && pbc_desc_same(&pa->desc, &pb->desc))
        return -1;
    uint8_t sa[PBC_PAGE_SIZE], sb[PBC_PAGE_SIZE];
    const uint8_t *va = masked_view(pa, ms, sa), *vb = masked_view(pb, ms, sb);
    if (!va)
        va = zero_page;
    if (!vb)
        vb = zero_page;
    if (memcmp(va, vb, PBC_PAGE_SIZE) == 0)
        return -1;
    int off = 0;
    while (va[off] == vb[off])
        off++;
    return off;
}

static void fill_window(const pbc_gpu *g, uint64_t start, const mask_set *ms, uint8_t *w)
{
    uint8_t scratch[PBC_PAGE_SIZE];
    pbc_page tmp;
    const uint8_t *v = masked_view(pbc_mem_get(&g->mem, start >> PBC_PAGE_SHIFT, &tmp), ms, scratch);
    memcpy(w, (v ? v : zero_page) + (start & (PBC_PAGE_SIZE - 1)), PBC_DIFF_WINDOW);
}

static pbc_prov page_prov(const pbc_gpu *g, uint64_t ppn)
{
    pbc_page tmp;
    const pbc_page *p = pbc_mem_get(&g->mem, ppn, &tmp);
    return p ? p->prov : (pbc_prov){0};
}

/* Page ppn of both worlds, compared: the lowest differing address so far
 * in *first. */
static void diff_page(const pbc_gpu *a, const pbc_gpu *b, uint64_t ppn, const mask_set *ms, uint64_t *first,
                      pbc_diff *d)
{
    pbc_page ta, tb;
    int off = page_differs(pbc_mem_get(&a->mem, ppn, &ta), pbc_mem_get(&b->mem, ppn, &tb), ms);
    if (off < 0)
        return;
    d->differing_pages++;
    uint64_t addr = (ppn << PBC_PAGE_SHIFT) + (uint64_t)off;
    if (addr < *first)
        *first = addr;
}

/* Pages of x's base extents that neither world wrote: compared only when
 * the two bases differ (they never do for two worlds of one scenario). */
static void diff_base(const pbc_gpu *x, const pbc_gpu *other, const pbc_gpu *a, const pbc_gpu *b, const mask_set *ms,
                      uint64_t *first, pbc_diff *d)
{
    pbc_desc ignored;
    const pbc_mem *m = &x->mem;
    for (uint32_t e = 0; e < m->ext_count + m->pool_count; e++) {
        const pbc_extent *ex = e < m->ext_count ? &m->ext[e] : &m->pool_ext[e - m->ext_count];
        for (uint64_t k = ex->first; k < ex->first + ex->count; k++) {
            uint64_t ppn = e < m->ext_count ? k : m->pool.base + ((k * m->pool.mult) & m->pool.mask);
            if (other && pbc_mem_base_at(&other->mem, ppn, &ignored, NULL))
                continue; /* compared from the other's extents */
            if (!pbc_mem_find(&a->mem, ppn) && !pbc_mem_find(&b->mem, ppn))
                diff_page(a, b, ppn, ms, first, d);
        }
    }
}

/* Every page either run wrote, compared once: a's pages against b's, then
 * b's that a never wrote (an unwritten page reads as its base). The first
 * difference is the lowest address. */
static void diff_memory(const pbc_gpu *a, const pbc_gpu *b, const mask_set *ms, pbc_diff *d)
{
    uint64_t first = UINT64_MAX;
    for (uint32_t i = 0; i < a->mem.count; i++)
        diff_page(a, b, a->mem.pages[i].ppn, ms, &first, d);
    for (uint32_t i = 0; i < b->mem.count; i++)
        if (!pbc_mem_find(&a->mem, b->mem.pages[i].ppn))
            diff_page(a, b, b->mem.pages[i].ppn, ms, &first, d);
    if (!pbc_mem_same_base(&a->mem, &b->mem)) {
        diff_base(a, NULL, a, b, ms, &first, d);
        diff_base(b, a, a, b, ms, &first, d);
    }
    if (first == UINT64_MAX)
        return;
    d->kind = PBC_DIFF_MEMORY;
    d->addr = first;
    d->window_start = first & ~(uint64_t)(PBC_DIFF_WINDOW - 1);
    fill_window(a, d->window_start, ms, d->a);
    fill_window(b, d->window_start, ms, d->b);
    d->prov_a = page_prov(a, first >> PBC_PAGE_SHIFT);
    d->prov_b = page_prov(b, first >> PBC_PAGE_SHIFT);
}

/* The lowest GART index either run touched where b does not do what a
 * requires, or -1. */
static int64_t diff_gart(const pbc_gpu_segment *a, const pbc_gpu_segment *b)
{
    int64_t first = -1;
    for (int side = 0; side < 2; side++) {
        const pbc_gpu_segment *x = side ? b : a;
        for (uint32_t k = 0; k < x->touched_count; k++) {
            uint32_t i = x->touched[k];
            if ((first < 0 || i < first) && !gart_conforms(&a->gart[i], &b->gart[i]))
                first = i;
        }
    }
    return first;
}

int pbc_state_diff(const pbc_gpu *a, const pbc_gpu *b, const pbc_mask *masks, uint32_t mask_count,
                   int with_queue, pbc_diff *d)
{
    memset(d, 0, sizeof(*d));
    mask_set ms;
    mask_set_init(&ms, masks, mask_count);
    diff_memory(a, b, &ms, d);
    mask_set_fini(&ms);
    if (d->kind)
        return 1;
    for (uint32_t s = 0; s < a->segment_count; s++) {
        int64_t i = diff_gart(&a->seg[s], &b->seg[s]);
        if (i < 0)
            continue;
        d->kind = PBC_DIFF_GART;
        d->segment = s + 1;
        d->index = (uint64_t)i;
        d->gart_a = a->seg[s].gart[i];
        d->gart_b = b->seg[s].gart[i];
        return 1;
    }
    if (with_queue && a->fault_count != b->fault_count) {
        d->kind = PBC_DIFF_FAULTS;
        return 1;
    }
    return 0;
}
