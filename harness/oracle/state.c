/*
 * Observable state: digests per region with XXH3, and a diff that finds the
 * first differing byte. Both walk only the pages and GART entries the runs
 * touched (untouched memory is zero in every run), in address order, with
 * undefined bytes masked.
 */
#include "oracle/state.h"

#include <stdlib.h>
#include <string.h>

#define XXH_STATIC_LINKING_ONLY /* XXH3_state_t on the stack: no allocation per digest */
#include <xxhash.h>

#include "base/util.h"

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* The page's content with masked bytes zeroed; 0 if all zero. */
static int masked_page(const pbc_gpu *g, uint64_t ppn, const pbc_mask *masks, uint32_t n,
                       uint8_t out[PBC_PAGE_SIZE])
{
    const pbc_page *p = pbc_mem_find(&g->mem, ppn);
    if (!p)
        return 0;
    memcpy(out, p->data, PBC_PAGE_SIZE);
    uint64_t lo = ppn << PBC_PAGE_SHIFT, hi = lo + PBC_PAGE_SIZE;
    for (uint32_t i = 0; i < n; i++) {
        if (masks[i].end <= lo || masks[i].start >= hi)
            continue;
        uint64_t s = masks[i].start > lo ? masks[i].start : lo;
        uint64_t e = masks[i].end < hi ? masks[i].end : hi;
        memset(out + (s - lo), 0, e - s);
    }
    return !pbc_all_bytes(out, PBC_PAGE_SIZE, 0);
}

/* Region of a physical page: segment index, or PBC_MAX_SEGMENTS (system). */
static uint32_t page_region(const pbc_gpu *g, uint64_t ppn)
{
    uint64_t addr = ppn << PBC_PAGE_SHIFT;
    for (uint32_t i = 0; i < g->segment_count; i++)
        if (addr >= g->seg[i].info.base && addr - g->seg[i].info.base < g->seg[i].info.size)
            return i;
    return PBC_MAX_SEGMENTS;
}

/* Sorted, de-duplicated page numbers touched by either run. */
static uint64_t *touched_pages(const pbc_gpu *a, const pbc_gpu *b, uint32_t *count)
{
    uint32_t n = a->mem.count + (b ? b->mem.count : 0);
    uint64_t *ppn = pbc_xmalloc((size_t)n * sizeof(*ppn));
    for (uint32_t i = 0; i < a->mem.count; i++)
        ppn[i] = a->mem.pages[i].ppn;
    for (uint32_t i = 0; b && i < b->mem.count; i++)
        ppn[a->mem.count + i] = b->mem.pages[i].ppn;
    qsort(ppn, n, sizeof(*ppn), cmp_u64);
    uint32_t out = 0;
    for (uint32_t i = 0; i < n; i++)
        if (out == 0 || ppn[out - 1] != ppn[i])
            ppn[out++] = ppn[i];
    *count = out;
    return ppn;
}

static uint32_t *touched_gart(const pbc_gpu_segment *a, const pbc_gpu_segment *b, uint32_t *count)
{
    uint32_t n = a->touched_count + (b ? b->touched_count : 0);
    uint64_t *idx = pbc_xmalloc((size_t)n * sizeof(*idx));
    for (uint32_t i = 0; i < a->touched_count; i++)
        idx[i] = a->touched[i];
    for (uint32_t i = 0; b && i < b->touched_count; i++)
        idx[a->touched_count + i] = b->touched[i];
    qsort(idx, n, sizeof(*idx), cmp_u64);
    uint32_t *out = pbc_xmalloc((size_t)n * sizeof(*out) + 1);
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        if (k == 0 || out[k - 1] != idx[i])
            out[k++] = (uint32_t)idx[i];
    free(idx);
    *count = k;
    return out;
}

void pbc_state_digest(const pbc_gpu *g, const pbc_mask *masks, uint32_t mask_count, pbc_digest *out)
{
    XXH3_state_t st[PBC_STATE_REGIONS];
    for (uint32_t r = 0; r < PBC_STATE_REGIONS; r++) {
        XXH3_INITSTATE(&st[r]); /* reset_withSeed reads the previous seed */
        XXH3_64bits_reset_withSeed(&st[r], r);
    }
    uint8_t page[PBC_PAGE_SIZE];
    uint32_t n;
    uint64_t *ppn = touched_pages(g, NULL, &n);
    for (uint32_t i = 0; i < n; i++) {
        if (!masked_page(g, ppn[i], masks, mask_count, page))
            continue;
        XXH3_state_t *s = &st[page_region(g, ppn[i])];
        XXH3_64bits_update(s, &ppn[i], sizeof(ppn[i]));
        XXH3_64bits_update(s, page, sizeof(page));
    }
    free(ppn);
    for (uint32_t i = 0; i < g->segment_count; i++) {
        const pbc_gpu_segment *seg = &g->seg[i];
        uint32_t *idx = touched_gart(seg, NULL, &n);
        for (uint32_t k = 0; k < n; k++) {
            const pbc_gart_entry *e = &seg->gart[idx[k]];
            if (!e->flags && !e->addr)
                continue;
            uint64_t rec[3] = {idx[k], e->addr, e->flags};
            XXH3_64bits_update(&st[i], rec, sizeof(rec));
        }
        free(idx);
    }
    XXH3_state_t *last = &st[PBC_MAX_SEGMENTS + 1];
    XXH3_64bits_update(last, &g->fault_count, sizeof(g->fault_count));
    for (uint32_t r = 0; r < PBC_STATE_REGIONS; r++) {
        out->region[r] = XXH3_64bits_digest(&st[r]);
    }
    out->total = XXH3_64bits(out->region, sizeof(out->region));
}

static void fill_window(const pbc_gpu *g, uint64_t start, const pbc_mask *masks, uint32_t n, uint8_t *w)
{
    uint8_t page[PBC_PAGE_SIZE];
    uint64_t ppn = start >> PBC_PAGE_SHIFT;
    if (!masked_page(g, ppn, masks, n, page))
        memset(page, 0, sizeof(page));
    memcpy(w, page + (start & (PBC_PAGE_SIZE - 1)), PBC_DIFF_WINDOW);
}

static pbc_prov page_prov(const pbc_gpu *g, uint64_t ppn)
{
    const pbc_page *p = pbc_mem_find(&g->mem, ppn);
    return p ? p->prov : (pbc_prov){0};
}

int pbc_state_diff(const pbc_gpu *a, const pbc_gpu *b, const pbc_mask *masks, uint32_t mask_count,
                   int with_queue, pbc_diff *d)
{
    memset(d, 0, sizeof(*d));
    uint8_t pa[PBC_PAGE_SIZE], pb[PBC_PAGE_SIZE];
    uint32_t n;
    uint64_t *ppn = touched_pages(a, b, &n);
    for (uint32_t i = 0; i < n; i++) {
        int za = masked_page(a, ppn[i], masks, mask_count, pa);
        int zb = masked_page(b, ppn[i], masks, mask_count, pb);
        if (!za)
            memset(pa, 0, sizeof(pa));
        if (!zb)
            memset(pb, 0, sizeof(pb));
        if (memcmp(pa, pb, sizeof(pa)) == 0)
            continue;
        if (d->differing_pages++ == 0) {
            uint32_t off = 0;
            while (pa[off] == pb[off])
                off++;
            d->kind = PBC_DIFF_MEMORY;
            d->addr = (ppn[i] << PBC_PAGE_SHIFT) + off;
            d->window_start = (ppn[i] << PBC_PAGE_SHIFT) + (off & ~(PBC_DIFF_WINDOW - 1));
            fill_window(a, d->window_start, masks, mask_count, d->a);
            fill_window(b, d->window_start, masks, mask_count, d->b);
            d->prov_a = page_prov(a, ppn[i]);
            d->prov_b = page_prov(b, ppn[i]);
        }
    }
    free(ppn);
    if (d->kind)
        return 1;
    for (uint32_t s = 0; s < a->segment_count; s++) {
        uint32_t *idx = touched_gart(&a->seg[s], &b->seg[s], &n);
        for (uint32_t k = 0; k < n; k++) {
            const pbc_gart_entry *ea = &a->seg[s].gart[idx[k]], *eb = &b->seg[s].gart[idx[k]];
            if (ea->addr != eb->addr || ea->flags != eb->flags) {
                d->kind = PBC_DIFF_GART;
                d->segment = s + 1;
                d->index = idx[k];
                d->gart_a = *ea;
                d->gart_b = *eb;
                break;
            }
        }
        free(idx);
        if (d->kind)
            return 1;
    }
    if (with_queue && a->fault_count != b->fault_count) {
        d->kind = PBC_DIFF_FAULTS;
        return 1;
    }
    return 0;
}
