/*
 * Laying a scenario onto the adapter a target declares. A scenario names
 * its own segments, but what it needs of them is a role: a memory segment
 * or an aperture segment, room for the ranges it uses, and coherence for
 * the maps that ask for it. A real VidMm issues only what fits the
 * segments the driver reported, so each of the scenario's segments is
 * given a declared one of its kind: the one with its id when that holds
 * the scenario as it is (a driver that declares the default layout sees
 * the scenarios unchanged), else one of its kind, with the ranges it uses
 * packed together when its offsets do not fit or another of its segments
 * shares that one. A map that asks for CacheCoherent gets it only on an
 * aperture declared cache-coherent: VidMm sets the flag for such a segment
 * only (DXGK_SEGMENTFLAGS.CacheCoherent). What no declared segment can
 * hold is refused with the reason, and the caller skips the scenario.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "gpu/gpu.h"
#include "scenario/scenario.h"

/* Ranges closer than this stay together, and a packed range keeps its
 * offset modulo this: alignments of 64 KiB pages and smaller hold. */
#define FIT_GRAIN 0x10000ull

typedef struct fit_range {
    uint64_t lo, hi; /* in the scenario's segment */
    uint64_t to;     /* where lo lands in the declared segment */
} fit_range;

typedef struct fit_seg {
    fit_range *r;
    uint32_t count, cap;
    uint32_t target;   /* declared SegmentId, 0 = not used */
    int wants_coherent; /* a map into it asks for CacheCoherent */
} fit_seg;

static const pbc_segment_decl *decl_seg(const pbc_adapter_decl *d, uint32_t id)
{
    return id >= 1 && id <= d->segment_count ? &d->segments[id - 1] : NULL;
}

static void fit_use(fit_seg *segs, const pbc_scenario *s, pbc_place at, uint64_t size)
{
    if (at.segment < 1 || at.segment > s->segment_count || !size)
        return;
    fit_range r = {at.offset, at.offset + size, 0};
    fit_seg *g = &segs[at.segment - 1];
    PBC_PUSH(g->r, g->count, g->cap, r);
}

static int range_cmp(const void *a, const void *b)
{
    const fit_range *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The ranges of each of s's segments that it uses, merged where they meet
 * or nearly do. */
static void fit_collect(const pbc_scenario *s, fit_seg *segs)
{
    for (uint32_t i = 0; i < s->alloc_count; i++)
        if (s->allocs[i].where == PBC_WHERE_SEGMENT)
            fit_use(segs, s, s->allocs[i].at, s->allocs[i].size);
    for (uint32_t i = 0; i < s->op_count; i++) {
        const pbc_sop *op = &s->ops[i];
        uint64_t asize = pbc_sop_has_alloc(op->kind) && op->alloc < s->alloc_count ? s->allocs[op->alloc].size : 0;
        switch (op->kind) {
        case PBC_SOP_TRANSFER:
        case PBC_SOP_SPECIAL_LOCK:
        case PBC_SOP_FILL:
            fit_use(segs, s, op->at, asize);
            break;
        case PBC_SOP_CREATE:
            if (pbc_sop_created_where(op) == PBC_WHERE_SEGMENT)
                fit_use(segs, s, op->at, asize);
            break;
        case PBC_SOP_READ_PHYSICAL:
        case PBC_SOP_WRITE_PHYSICAL:
            fit_use(segs, s, op->at, 8);
            break;
        case PBC_SOP_GPU_READ:
        case PBC_SOP_GPU_WRITE:
            fit_use(segs, s, op->at, op->size);
            break;
        case PBC_SOP_MAP: {
            pbc_place at = {op->at.segment, op->at.offset * PBC_PAGE_SIZE};
            fit_use(segs, s, at, (uint64_t)op->count * PBC_PAGE_SIZE);
            if (at.segment >= 1 && at.segment <= s->segment_count && (op->flags & PBC_SOP_COHERENT))
                segs[at.segment - 1].wants_coherent = 1;
            break;
        }
        default:
            break;
        }
    }
    for (uint32_t g = 0; g < s->segment_count; g++) {
        fit_seg *f = &segs[g];
        if (!f->count)
            continue;
        qsort(f->r, f->count, sizeof(*f->r), range_cmp);
        uint32_t kept = 0;
        for (uint32_t i = 0; i < f->count; i++) {
            if (kept && f->r[i].lo <= f->r[kept - 1].hi + FIT_GRAIN) {
                if (f->r[i].hi > f->r[kept - 1].hi)
                    f->r[kept - 1].hi = f->r[i].hi;
            } else {
                f->r[kept++] = f->r[i];
            }
        }
        f->count = kept;
    }
}

/* The declared segment a scenario segment of `kind` goes to: its own id
 * when that is of its kind (and coherent, when it wants it and one is),
 * else the first of its kind not given yet (coherent first, when
 * wanted), else the largest of its kind. 0 when none is of its kind. */
static uint32_t fit_choose(const pbc_adapter_decl *d, uint32_t id, uint32_t kind, int coherent,
                           const uint32_t *given)
{
    int any_coherent = 0;
    for (uint32_t i = 0; i < d->segment_count; i++)
        any_coherent |= d->segments[i].kind == kind && d->segments[i].cache_coherent;
    int need = coherent && any_coherent;
    const pbc_segment_decl *own = decl_seg(d, id);
    if (own && own->kind == kind && (!need || own->cache_coherent))
        return id;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < d->segment_count; i++) {
            const pbc_segment_decl *g = &d->segments[i];
            if (g->kind == kind && (!need || g->cache_coherent) && (pass || !given[i]))
                return g->SegmentId;
        }
    uint32_t best = 0;
    for (uint32_t i = 0; i < d->segment_count; i++)
        if (d->segments[i].kind == kind && (!best || d->segments[i].size > d->segments[best - 1].size))
            best = d->segments[i].SegmentId;
    return best;
}

/* Where a place of s lands: its segment's target and the offset in it. */
static pbc_place fit_move(const fit_seg *segs, const pbc_scenario *s, pbc_place at, uint64_t unit)
{
    if (at.segment < 1 || at.segment > s->segment_count)
        return at;
    const fit_seg *g = &segs[at.segment - 1];
    uint64_t off = at.offset * unit;
    for (uint32_t i = 0; i < g->count; i++)
        if (off >= g->r[i].lo && off < g->r[i].hi)
            return (pbc_place){g->target, (g->r[i].to + (off - g->r[i].lo)) / unit};
    return (pbc_place){g->target, at.offset}; /* a place no range holds has no size: nothing is there */
}

static void fit_copy(pbc_scenario *out, const pbc_scenario *s)
{
    pbc_scenario_clear(out);
    memcpy(out->segments, s->segments, sizeof(out->segments));
    out->segment_count = s->segment_count;
    out->paging_segment = s->paging_segment;
    for (uint32_t i = 0; i < s->alloc_count; i++)
        *pbc_scenario_add_alloc(out) = s->allocs[i];
    for (uint32_t i = 0; i < s->op_count; i++)
        *pbc_scenario_add_op(out) = s->ops[i];
}

static void fit_declared_layout(pbc_scenario *out, const pbc_adapter_decl *d)
{
    for (uint32_t i = 0; i < d->segment_count; i++)
        out->segments[i] = (pbc_segment_info){d->segments[i].SegmentId, d->segments[i].kind, d->segments[i].base,
                                              d->segments[i].size};
    out->segment_count = d->segment_count;
}

uint32_t pbc_scenario_fit_coherence(pbc_scenario *s, const pbc_adapter_decl *d)
{
    uint32_t cleared = 0;
    if (!d || !d->segment_count)
        return 0;
    for (uint32_t i = 0; i < s->op_count; i++) {
        pbc_sop *op = &s->ops[i];
        const pbc_segment_decl *g = decl_seg(d, op->at.segment);
        if (op->kind == PBC_SOP_MAP && (op->flags & PBC_SOP_COHERENT) && g && !g->cache_coherent) {
            op->flags &= ~PBC_SOP_COHERENT;
            cleared++;
        }
    }
    return cleared;
}

/* The usable bytes of declared segment id for s's ranges: all of it, less
 * the paging-buffer window when the paging buffers go there. */
static uint64_t fit_room(const pbc_adapter_decl *d, uint32_t id, uint32_t paging_target)
{
    const pbc_segment_decl *g = decl_seg(d, id);
    if (!g)
        return 0;
    if (id != paging_target)
        return g->size;
    return g->size > PBC_PAGING_WINDOW ? g->size - PBC_PAGING_WINDOW : 0;
}

/* Gives each used segment of s its declared one and each of its ranges a
 * place there. NULL, or why not (written into why). */
static const char *fit_assign(const pbc_scenario *s, const pbc_adapter_decl *d, fit_seg *segs,
                              uint32_t *paging_target, char *why, size_t n)
{
    uint32_t given[8] = {0};
    for (uint32_t g = 0; g < s->segment_count; g++) {
        fit_seg *f = &segs[g];
        if (!f->count && g + 1 != s->paging_segment)
            continue;
        uint32_t kind = s->segments[g].kind;
        f->target = fit_choose(d, g + 1, kind, f->wants_coherent, given);
        if (!f->target) {
            snprintf(why, n, "it uses %s segment %u and the adapter declares no %s segment",
                     kind == PBC_SEGMENT_APERTURE ? "aperture" : "memory", g + 1,
                     kind == PBC_SEGMENT_APERTURE ? "aperture" : "memory");
            return why;
        }
        given[f->target - 1]++;
    }
    *paging_target = s->paging_segment ? segs[s->paging_segment - 1].target : 0;
    if (*paging_target && fit_room(d, *paging_target, *paging_target) == 0) {
        snprintf(why, n, "its paging buffers need a memory segment larger than 8 MiB (segment %u of the adapter is not)",
                 *paging_target);
        return why;
    }
    for (uint32_t t = 1; t <= d->segment_count; t++) {
        uint64_t room = fit_room(d, t, *paging_target), used = 0, cursor = 0;
        uint32_t sharing = 0;
        for (uint32_t g = 0; g < s->segment_count; g++)
            sharing += segs[g].target == t && segs[g].count;
        for (uint32_t g = 0; g < s->segment_count; g++) {
            fit_seg *f = &segs[g];
            if (f->target != t || !f->count)
                continue;
            if (sharing == 1 && f->r[f->count - 1].hi <= room) { /* its offsets as they are */
                for (uint32_t i = 0; i < f->count; i++)
                    f->r[i].to = f->r[i].lo;
                continue;
            }
            for (uint32_t i = 0; i < f->count; i++) {
                uint64_t to = (cursor + FIT_GRAIN - 1) / FIT_GRAIN * FIT_GRAIN + f->r[i].lo % FIT_GRAIN;
                f->r[i].to = to;
                cursor = to + (f->r[i].hi - f->r[i].lo);
                used += f->r[i].hi - f->r[i].lo;
            }
        }
        if (cursor > room) {
            snprintf(why, n, "its ranges in segment %u of the adapter need %" PRIu64 " KiB (%" PRIu64
                     " KiB in use), more than the %" PRIu64 " KiB there", t, (cursor + 1023) / 1024,
                     (used + 1023) / 1024, room / 1024);
            return why;
        }
    }
    return NULL;
}

int pbc_scenario_fit(const pbc_scenario *s, const pbc_adapter_decl *d, pbc_scenario *out, char *why, size_t n)
{
    if (!d || !d->segment_count)
        return 1;
    int same = s->segment_count == d->segment_count;
    for (uint32_t i = 0; same && i < s->segment_count; i++)
        same = s->segments[i].kind == d->segments[i].kind && s->segments[i].base == d->segments[i].base &&
               s->segments[i].size == d->segments[i].size;
    int incoherent = 0;
    for (uint32_t i = 0; same && !incoherent && i < s->op_count; i++) {
        const pbc_segment_decl *g = decl_seg(d, s->ops[i].at.segment);
        incoherent = s->ops[i].kind == PBC_SOP_MAP && (s->ops[i].flags & PBC_SOP_COHERENT) && g && !g->cache_coherent;
    }
    if (same && !incoherent)
        return 1; /* made within the declared adapter already */

    /* By id: each segment of the scenario as the declared one of its id. */
    char first[256];
    fit_copy(out, s);
    fit_declared_layout(out, d);
    pbc_scenario_fit_coherence(out, d);
    if (pbc_scenario_validate(out, first, sizeof(first)) == 0)
        return 0;

    /* By role. */
    fit_seg segs[8];
    memset(segs, 0, sizeof(segs));
    fit_collect(s, segs);
    uint32_t paging_target = 0;
    const char *bad = fit_assign(s, d, segs, &paging_target, why, n);
    if (!bad) {
        fit_copy(out, s);
        fit_declared_layout(out, d);
        out->paging_segment = paging_target;
        for (uint32_t i = 0; i < out->alloc_count; i++)
            if (out->allocs[i].where == PBC_WHERE_SEGMENT)
                out->allocs[i].at = fit_move(segs, s, s->allocs[i].at, 1);
        for (uint32_t i = 0; i < out->op_count; i++) {
            pbc_sop *op = &out->ops[i];
            switch (op->kind) {
            case PBC_SOP_TRANSFER:
            case PBC_SOP_SPECIAL_LOCK:
            case PBC_SOP_FILL:
            case PBC_SOP_CREATE:
            case PBC_SOP_READ_PHYSICAL:
            case PBC_SOP_WRITE_PHYSICAL:
            case PBC_SOP_GPU_READ:
            case PBC_SOP_GPU_WRITE:
                if (op->at.segment)
                    op->at = fit_move(segs, s, s->ops[i].at, 1);
                break;
            case PBC_SOP_MAP:
                op->at = fit_move(segs, s, s->ops[i].at, PBC_PAGE_SIZE);
                break;
            default:
                break;
            }
        }
        pbc_scenario_fit_coherence(out, d);
        char second[256];
        if (pbc_scenario_validate(out, second, sizeof(second))) {
            snprintf(why, n, "laid onto its segments by role: %s", second);
            bad = why;
        }
    }
    for (uint32_t g = 0; g < 8; g++)
        free(segs[g].r);
    return bad ? -1 : 0;
}
