/*
 * Lists of system page frames as runs (frames.h). Lookups are pure
 * arithmetic on the runs: the MDL's PFN array is filled from them in a
 * signal handler (vidmm/content.c), so nothing here allocates but
 * pbc_frames_add and pbc_frames_sub.
 */
#include "gpu/frames.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void pbc_frames_init(pbc_frames *f, const pbc_pool_order *pool)
{
    memset(f, 0, sizeof(*f));
    f->pool = *pool;
}

void pbc_frames_fini(pbc_frames *f)
{
    free(f->runs);
    memset(f, 0, sizeof(*f));
}

void pbc_frames_clear(pbc_frames *f)
{
    f->count = 0;
    f->total = 0;
}

void pbc_frames_add(pbc_frames *f, uint64_t first, uint64_t n, int pooled)
{
    if (!n)
        return;
    pbc_frame_run *last = f->count ? &f->runs[f->count - 1] : NULL;
    if (last && last->pooled == (uint32_t)(pooled != 0) && last->first + last->count == first) {
        last->count += n;
    } else {
        pbc_frame_run r = {f->total, n, first, pooled != 0};
        PBC_PUSH(f->runs, f->count, f->cap, r);
    }
    f->total += n;
}

const pbc_frame_run *pbc_frames_run_of(const pbc_frames *f, uint64_t i)
{
    uint32_t lo = 0, hi = f->count;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (f->runs[mid].at <= i)
            lo = mid;
        else
            hi = mid;
    }
    return &f->runs[lo];
}

static uint64_t run_pfn(const pbc_frames *f, const pbc_frame_run *r, uint64_t k)
{
    return r->pooled ? pbc_pool_frame(&f->pool, r->first + k) : r->first + k;
}

uint64_t pbc_frames_pfn(const pbc_frames *f, uint64_t i)
{
    const pbc_frame_run *r = pbc_frames_run_of(f, i);
    return run_pfn(f, r, i - r->at);
}

void pbc_frames_get(const pbc_frames *f, uint64_t from, uint64_t n, uint64_t *out)
{
    if (!n)
        return;
    const pbc_frame_run *r = pbc_frames_run_of(f, from), *end = f->runs + f->count;
    for (uint64_t i = from; i < from + n; i++) {
        while (r + 1 < end && r[1].at <= i)
            r++;
        out[i - from] = run_pfn(f, r, i - r->at);
    }
}

pbc_frames_walk pbc_frames_walk_from(const pbc_frames *f, uint64_t from, uint64_t n)
{
    pbc_frames_walk w = {f, n ? pbc_frames_run_of(f, from) : NULL, from, from, from + n};
    return w;
}

int pbc_frames_next(pbc_frames_walk *w, pbc_frame_run *piece)
{
    if (w->i >= w->end || !w->r || w->r >= w->f->runs + w->f->count)
        return 0;
    uint64_t skip = w->i - w->r->at, take = w->r->count - skip;
    if (take > w->end - w->i)
        take = w->end - w->i;
    *piece = (pbc_frame_run){w->i - w->from, take, w->r->first + skip, w->r->pooled};
    w->i += take;
    w->r++;
    return 1;
}

void pbc_frames_sub(const pbc_frames *f, uint64_t from, uint64_t n, pbc_frames *out)
{
    pbc_frames_clear(out);
    out->pool = f->pool;
    pbc_frames_walk w = pbc_frames_walk_from(f, from, n);
    pbc_frame_run p;
    while (pbc_frames_next(&w, &p))
        pbc_frames_add(out, p.first, p.count, (int)p.pooled);
}

int pbc_frames_find(const pbc_frames *f, uint64_t pfn, uint64_t *index)
{
    int in_pool = f->pool.mask && pfn >= f->pool.base && pfn - f->pool.base <= f->pool.mask;
    uint64_t k = in_pool ? ((pfn - f->pool.base) * f->pool.mult_inv) & f->pool.mask : 0;
    for (uint32_t j = 0; j < f->count; j++) {
        const pbc_frame_run *r = &f->runs[j];
        uint64_t key = r->pooled ? k : pfn;
        if ((!r->pooled || in_pool) && key >= r->first && key - r->first < r->count) {
            *index = r->at + (key - r->first);
            return 1;
        }
    }
    return 0;
}

int pbc_frames_contiguous(const pbc_frames *f)
{
    for (uint32_t j = 0; j < f->count; j++) {
        const pbc_frame_run *r = &f->runs[j];
        if (r->pooled && r->count > 1)
            return 0; /* the pool scatters neighbouring indexes */
        if (j && run_pfn(f, r, 0) != run_pfn(f, &f->runs[j - 1], f->runs[j - 1].count - 1) + 1)
            return 0;
    }
    return 1;
}
