/*
 * The content oracle (content.h). Each allocation's history is a list of
 * layers over its byte offsets, newest last: initial content, a pattern,
 * or "undefined". The expected bytes of any page are those layers applied
 * in order; bytes no layer defines are not judged. Layers belong to the
 * allocation, not to an address, so a transfer moves them for free.
 */
#include "oracle/content.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

typedef enum layer_kind { LAYER_INIT = 1, LAYER_FILL, LAYER_UNDEFINED, LAYER_IMAGE } layer_kind;

typedef struct layer {
    uint32_t kind;   /* layer_kind */
    uint32_t value;  /* INIT: seed; FILL: pattern */
    uint64_t start, end;
    int64_t origin;  /* FILL: the allocation offset where the pattern's byte 0 falls */
    uint32_t op;     /* the scenario operation, UINT32_MAX for the initial content */
    const pbc_image *image; /* IMAGE: the builder's bytes of [start, end), recorded in its run */
} layer;

typedef struct story {
    layer *layers;
    uint32_t count, cap;
    int coherent; /* its mapping asked for CacheCoherent */
} story;

typedef struct oracle {
    const pbc_scenario *s;
    const pbc_record *rec;
    pbc_residency r;
    story *stories;
    char *why;       /* the first contradiction seen while applying the history */
    size_t why_size;
    int bad;
} oracle;

static void push(story *st, layer l)
{
    if (l.start >= l.end)
        return;
    PBC_PUSH(st->layers, st->count, st->cap, l);
}

/* Every allocation resident in memory segment `segment` whose bytes meet
 * [addr, addr+len) gets the layer (start/end/origin computed here). */
static void segment_layer(oracle *o, uint32_t segment, uint64_t addr, uint64_t len, layer l)
{
    for (uint32_t i = 0; i < o->s->alloc_count; i++) {
        const pbc_res_alloc *a = &o->r.a[i];
        if (a->where != PBC_WHERE_SEGMENT || a->at.segment != segment)
            continue;
        uint64_t base = o->s->segments[segment - 1].base + a->at.offset, size = o->s->allocs[i].size;
        if (addr >= base + size || base >= addr + len)
            continue;
        uint64_t from = addr > base ? addr - base : 0, to = addr + len < base + size ? addr + len - base : size;
        layer x = l;
        x.start = from;
        x.end = to;
        x.origin = (int64_t)addr - (int64_t)base;
        push(&o->stories[i], x);
    }
}

/* A raw GPU write through aperture pages lands in the mapped allocations'
 * pages. */
static void aperture_layer(oracle *o, uint32_t segment, uint64_t offset, uint64_t len, layer l)
{
    for (uint32_t i = 0; i < o->s->alloc_count; i++) {
        const pbc_res_alloc *a = &o->r.a[i];
        if (!a->mapped || a->ap_segment != segment)
            continue;
        uint64_t map_start = a->ap_page * PBC_PAGE_SIZE, map_end = map_start + (uint64_t)a->map_count * PBC_PAGE_SIZE;
        uint64_t from = offset > map_start ? offset : map_start;
        uint64_t to = offset + len < map_end ? offset + len : map_end;
        if (from >= to)
            continue;
        /* Aperture offset x is allocation offset x - map_start + map_first pages. */
        int64_t shift = (int64_t)a->map_first * PBC_PAGE_SIZE - (int64_t)map_start;
        layer x = l;
        x.start = (uint64_t)((int64_t)from + shift);
        x.end = (uint64_t)((int64_t)to + shift);
        if (x.end > o->s->allocs[i].size)
            x.end = o->s->allocs[i].size;
        x.origin = (int64_t)offset + shift;
        push(&o->stories[i], x);
    }
}

static void expect(const story *st, uint64_t at, uint32_t n, uint8_t *want, uint8_t *defined);
static int layer_window_desc(const layer *l, uint64_t at, uint32_t len, pbc_desc *d);
static const char *layer_name(const layer *l, char *buf, size_t n);

/* Whether the recorded page p, allocation bytes [at, at+len), is what the
 * history says without making a byte: the newest layer over it says one
 * stream (or nothing: undefined) and the page was that stream. */
static int window_as_described(const story *st, uint64_t at, uint32_t len, const pbc_image_page *p)
{
    for (uint32_t k = st->count; k-- > 0;) {
        const layer *l = &st->layers[k];
        if (l->end <= at || l->start >= at + len)
            continue;
        if (l->start > at || l->end < at + len)
            return 0;
        if (l->kind == LAYER_UNDEFINED)
            return 1;
        pbc_desc want;
        return p->described && layer_window_desc(l, at, len, &want) && pbc_desc_same(&p->d, &want);
    }
    return 1; /* no layer: nothing defined there */
}
static const layer *owner(const story *st, uint64_t x);

/* Before operation `index` (a context operation) the run recorded the
 * allocation's bytes: they must be what its history says so far (the
 * builder's last context image, carried through every move since), or the
 * operation would hide a move that broke them. */
static void check_before(oracle *o, uint32_t index, const pbc_sop *op, const story *st)
{
    const pbc_image *im = pbc_record_image_of(o->rec, index, 1);
    if (o->bad || !im || im->alloc != op->alloc || im->hi > o->s->allocs[op->alloc].size)
        return;
    uint8_t want[PBC_PAGE_SIZE], defined[PBC_PAGE_SIZE], got[PBC_PAGE_SIZE];
    for (uint64_t at = im->lo; at < im->hi; at += PBC_PAGE_SIZE) {
        uint32_t n = im->hi - at < PBC_PAGE_SIZE ? (uint32_t)(im->hi - at) : PBC_PAGE_SIZE;
        if (window_as_described(st, at, n, &im->pages[(at - im->lo) / PBC_PAGE_SIZE]))
            continue;
        expect(st, at, n, want, defined);
        pbc_image_read(im, at, got, n);
        for (uint32_t k = 0; k < n; k++) {
            if (!defined[k] || got[k] == want[k])
                continue;
            char src[160];
            snprintf(o->why, o->why_size, "allocation %s +0x%" PRIx64 " holds 0x%02x before operation %u '%s' "
                     "where its history says 0x%02x, %s", o->s->allocs[op->alloc].name, at + k, got[k], index + 1,
                     pbc_sop_name(op->kind), want[k], layer_name(owner(st, at + k), src, sizeof(src)));
            o->bad = 1;
            return;
        }
    }
}

static void apply(oracle *o, uint32_t index, const pbc_sop *op)
{
    const pbc_scenario *s = o->s;
    story *st = pbc_sop_has_alloc(op->kind) ? &o->stories[op->alloc] : NULL;
    uint64_t size = st ? s->allocs[op->alloc].size : 0;
    switch (op->kind) {
    case PBC_SOP_FILL:
        st->count = 0; /* Fill sets the whole allocation (S25) */
        push(st, (layer){LAYER_FILL, op->pattern, 0, size, 0, index, NULL});
        break;
    case PBC_SOP_DISCARD:
        push(st, (layer){LAYER_UNDEFINED, 0, 0, size, 0, index, NULL}); /* S27 */
        break;
    case PBC_SOP_RENDER_WRITE:
        push(st, (layer){LAYER_FILL, op->pattern, op->offset, op->offset + op->size, (int64_t)op->offset, index,
                         NULL});
        break;
    case PBC_SOP_GPU_WRITE: {
        layer l = {LAYER_FILL, op->pattern, 0, 0, 0, index, NULL};
        if (s->segments[op->at.segment - 1].kind == PBC_SEGMENT_APERTURE)
            aperture_layer(o, op->at.segment, op->at.offset, op->size, l);
        else
            segment_layer(o, op->at.segment, s->segments[op->at.segment - 1].base + op->at.offset, op->size, l);
        break;
    }
    case PBC_SOP_WRITE_PHYSICAL: {
        layer l = {LAYER_UNDEFINED, 0, 0, 0, 0, index, NULL}; /* S29 */
        segment_layer(o, op->at.segment, s->segments[op->at.segment - 1].base + op->at.offset, 8, l);
        break;
    }
    case PBC_SOP_MAP:
        st->coherent = (op->flags & PBC_SOP_COHERENT) != 0;
        break;
    case PBC_SOP_INIT_CONTEXT:   /* the driver's context image */
    case PBC_SOP_UPDATE_CONTEXT: { /* the driver's update, anywhere in the context */
        /* Whatever the driver made of it, as its own run recorded once the
         * operation's work had run; from then on it moves unchanged. With
         * no image (the spec model, a run that broke first) it is
         * undefined. */
        check_before(o, index, op, st);
        const pbc_image *im = pbc_record_image_of(o->rec, index, 0);
        if (im && im->alloc == op->alloc && im->hi <= size) {
            push(st, (layer){LAYER_UNDEFINED, 0, 0, size, 0, index, NULL});
            push(st, (layer){LAYER_IMAGE, 0, im->lo, im->hi, (int64_t)im->lo, index, im});
        } else {
            push(st, (layer){LAYER_UNDEFINED, 0, 0, size, 0, index, NULL});
        }
        break;
    }
    case PBC_SOP_DESTROY: /* a new history starts with the next creation */
        st->count = 0;
        st->coherent = 0;
        break;
    case PBC_SOP_CREATE:
        st->count = 0;
        if (pbc_sop_created_where(op) != PBC_WHERE_NONE)
            push(st, (layer){LAYER_INIT, op->pattern, 0, size, 0, index, NULL});
        break;
    default:
        break;
    }
    pbc_residency_apply(&o->r, op);
}

/* What layer l (not UNDEFINED) says allocation byte `at` on is. */
static pbc_desc layer_desc(const layer *l, uint64_t at)
{
    return l->kind == LAYER_INIT ? (pbc_desc){PBC_PAGE_CONTENT, l->value, at}
                                 : (pbc_desc){PBC_PAGE_PATTERN, l->value, (uint64_t)((int64_t)at - l->origin)};
}

/* Whether layer l (not UNDEFINED) says allocation bytes [at, at+len),
 * which it covers, are one stream, and which (*d): always for a pattern or
 * initial content; for an image, when the window is one of its pages and
 * that page was recorded described. */
static int layer_window_desc(const layer *l, uint64_t at, uint32_t len, pbc_desc *d)
{
    if (l->kind != LAYER_IMAGE) {
        *d = layer_desc(l, at);
        return 1;
    }
    const pbc_image *im = l->image;
    if ((at - im->lo) % PBC_PAGE_SIZE)
        return 0;
    const pbc_image_page *p = &im->pages[(at - im->lo) / PBC_PAGE_SIZE];
    uint64_t page_len = im->hi - at < PBC_PAGE_SIZE ? im->hi - at : PBC_PAGE_SIZE;
    if (!p->described || page_len != len)
        return 0;
    *d = p->d;
    return 1;
}

/* Expected bytes of allocation bytes [at, at+n) into want, and which of
 * them are defined into defined: each layer is a window of a stream
 * (content or pattern), laid in order. */
static void expect(const story *st, uint64_t at, uint32_t n, uint8_t *want, uint8_t *defined)
{
    memset(defined, 0, n);
    for (uint32_t k = 0; k < st->count; k++) {
        const layer *l = &st->layers[k];
        uint64_t from = l->start > at ? l->start : at, to = l->end < at + n ? l->end : at + n;
        if (from >= to)
            continue;
        uint32_t i0 = (uint32_t)(from - at), i1 = (uint32_t)(to - at);
        memset(defined + i0, l->kind != LAYER_UNDEFINED, i1 - i0);
        if (l->kind == LAYER_UNDEFINED)
            continue;
        if (l->kind == LAYER_IMAGE) {
            pbc_image_read(l->image, from, want + i0, i1 - i0);
            continue;
        }
        pbc_desc d = layer_desc(l, from);
        pbc_desc_read(&d, 0, want + i0, i1 - i0);
    }
}

static const char *layer_name(const layer *l, char *buf, size_t n)
{
    if (l->kind == LAYER_IMAGE)
        snprintf(buf, n, "the builder's own context image after operation %u, which every later move must "
                 "carry unchanged", l->op + 1);
    else if (l->kind == LAYER_INIT && l->op != UINT32_MAX)
        snprintf(buf, n, "its initial content (seed %u) from operation %u", l->value, l->op + 1);
    else if (l->kind == LAYER_INIT)
        snprintf(buf, n, "its initial content (seed %u)", l->value);
    else
        snprintf(buf, n, "pattern 0x%08x from operation %u", l->value, l->op + 1);
    return buf;
}

/* The newest layer defining byte x. */
static const layer *owner(const story *st, uint64_t x)
{
    for (uint32_t k = st->count; k-- > 0;)
        if (x >= st->layers[k].start && x < st->layers[k].end)
            return &st->layers[k];
    return NULL;
}

/* Whether the len bytes at physical phys, which hold allocation bytes
 * [at, at+len) (len at most 4 KiB), are described as exactly what the
 * newest layer there says (or that layer leaves them undefined): true for
 * most pages, aligned or not, which are then judged without making a
 * byte. */
static int page_as_described(const story *st, uint64_t at, uint32_t len, const pbc_gpu *g, uint64_t phys)
{
    for (uint32_t k = st->count; k-- > 0;) {
        const layer *l = &st->layers[k];
        if (l->end <= at || l->start >= at + len)
            continue;
        if (l->start > at || l->end < at + len)
            return 0; /* the window is a patchwork: byte by byte */
        if (l->kind == LAYER_UNDEFINED)
            return 1; /* nothing to judge, however it is held */
        pbc_desc want, got;
        if (!layer_window_desc(l, at, len, &want))
            return 0; /* bytes, not a stream: byte by byte */
        return pbc_mem_desc_range(&g->mem, phys, len, &got) && pbc_desc_same(&got, &want);
    }
    return 0;
}

/* How many whole pages from allocation offset `at` (physical phys) nobody
 * wrote and the base still holds as the one layer over them says: judged
 * at once, however many they are. 0 when page `at` must be judged itself.
 * In a segment the pages lie in a row; in system memory `frames` is the
 * allocation's MDL (`lead` foreign pages first) and a run of its frames
 * ends the pages judged at once. */
static uint64_t untouched_run(const story *st, uint64_t at, uint64_t size, const pbc_gpu *g, uint64_t phys,
                              const pbc_frames *frames, uint32_t lead)
{
    if (phys & (PBC_PAGE_SIZE - 1))
        return 0;
    /* The newest layer over page `at`, and how far it alone decides:
     * newer layers that begin further on end the run where they begin. */
    const layer *top = NULL;
    uint64_t end = size - size % PBC_PAGE_SIZE;
    for (uint32_t k = st->count; k-- > 0 && !top;) {
        const layer *l = &st->layers[k];
        if (l->end <= at)
            continue;
        if (l->start >= at + PBC_PAGE_SIZE) {
            if (l->start < end)
                end = l->start - l->start % PBC_PAGE_SIZE;
            continue;
        }
        if (l->start > at || l->kind == LAYER_UNDEFINED || l->kind == LAYER_IMAGE)
            return 0;
        top = l;
        if (l->end < end)
            end = l->end - l->end % PBC_PAGE_SIZE;
    }
    if (!top || end <= at)
        return 0;
    pbc_desc d;
    uint64_t pages = (end - at) / PBC_PAGE_SIZE, run;
    if (!frames) {
        run = pbc_mem_base_run(&g->mem, phys >> PBC_PAGE_SHIFT, pages, &d);
    } else {
        uint64_t i = lead + at / PBC_PAGE_SIZE;
        const pbc_frame_run *r = pbc_frames_run_of(frames, i);
        if (pages > r->count - (i - r->at))
            pages = r->count - (i - r->at);
        run = r->pooled ? pbc_mem_pool_run(&g->mem, r->first + (i - r->at), pages, &d)
                        : pbc_mem_base_run(&g->mem, phys >> PBC_PAGE_SHIFT, pages, &d);
    }
    pbc_desc want = layer_desc(top, at);
    return run && pbc_desc_same(&d, &want) ? run : 0;
}

static int check_alloc(const oracle *o, uint32_t i, const pbc_gpu *g, const pbc_record *rec, char *why, size_t n)
{
    const pbc_salloc *al = &o->s->allocs[i];
    const pbc_res_alloc *a = &o->r.a[i];
    const story *st = &o->stories[i];
    pbc_frames view, *frames = pbc_record_alloc_frames_of(rec, i, &view) ? &view : NULL;
    if (a->where == PBC_WHERE_SYSTEM && (!frames || frames->total < al->mdl_offset + pbc_alloc_pages(al))) {
        snprintf(why, n, "allocation %s is in system memory but VidMm recorded no MDL covering it", al->name);
        return 1;
    }
    uint8_t want[PBC_PAGE_SIZE], defined[PBC_PAGE_SIZE], got[PBC_PAGE_SIZE];
    for (uint64_t at = 0; a->where != PBC_WHERE_NONE && at < al->size; at += PBC_PAGE_SIZE) {
        uint32_t len = al->size - at < PBC_PAGE_SIZE ? (uint32_t)(al->size - at) : PBC_PAGE_SIZE;
        uint64_t phys = a->where == PBC_WHERE_SEGMENT
                            ? o->s->segments[a->at.segment - 1].base + a->at.offset + at
                            : pbc_frames_pfn(frames, al->mdl_offset + at / PBC_PAGE_SIZE) << PBC_PAGE_SHIFT;
        if (len == PBC_PAGE_SIZE) {
            uint64_t run = untouched_run(st, at, al->size, g, phys, a->where == PBC_WHERE_SYSTEM ? frames : NULL,
                                         al->mdl_offset);
            if (run) {
                at += (run - 1) * PBC_PAGE_SIZE;
                continue;
            }
        }
        if (page_as_described(st, at, len, g, phys))
            continue;
        expect(st, at, len, want, defined);
        pbc_mem_read(&g->mem, phys, got, len);
        int all_defined = memchr(defined, 0, len) == NULL;
        if (all_defined && memcmp(want, got, len) == 0)
            continue;
        for (uint32_t k = 0; k < len; k++) {
            if (!defined[k] || got[k] == want[k])
                continue;
            char src[96];
            snprintf(why, n, "allocation %s +0x%" PRIx64 " (physical 0x%" PRIx64 ") holds 0x%02x where its "
                     "history says 0x%02x, %s", al->name, at + k, phys + k, got[k], want[k],
                     layer_name(owner(st, at + k), src, sizeof(src)));
            return 1;
        }
    }
    if (!a->mapped)
        return 0;
    const pbc_gpu_segment *seg = pbc_gpu_segment_by_id(g, a->ap_segment);
    for (uint32_t p = 0; seg && frames && p < a->map_count; p++) {
        const pbc_gart_entry *e = &seg->gart[a->ap_page + p];
        uint64_t page = pbc_frames_pfn(frames, al->mdl_offset + a->map_first + p) << PBC_PAGE_SHIFT;
        int ok = (e->flags & PBC_GART_VALID) && e->addr == page &&
                 (!st->coherent || (e->flags & PBC_GART_CACHE_COHERENT));
        if (!ok) {
            snprintf(why, n, "aperture %u page %" PRIu64 " must map allocation %s page %u (physical 0x%" PRIx64
                     "%s), but its GART entry holds 0x%" PRIx64 " flags 0x%x", a->ap_segment, a->ap_page + p,
                     al->name, a->map_first + p, page, st->coherent ? ", cache-coherent" : "", e->addr, e->flags);
            return 1;
        }
    }
    return 0;
}

/* The foreign pages ahead of an allocation in its MDL are someone else's
 * data: they must come through untouched. */
static int check_foreign(const oracle *o, uint32_t i, const pbc_gpu *g, const pbc_record *rec, char *why, size_t n)
{
    const pbc_salloc *al = &o->s->allocs[i];
    pbc_frames frames;
    if (o->r.a[i].where != PBC_WHERE_SYSTEM || !pbc_record_alloc_frames_of(rec, i, &frames))
        return 0;
    uint8_t got[PBC_PAGE_SIZE];
    for (uint32_t p = 0; p < al->mdl_offset && p < frames.total; p++) {
        uint64_t phys = pbc_frames_pfn(&frames, p) << PBC_PAGE_SHIFT;
        pbc_desc want = {PBC_PAGE_CONTENT, ~al->seed, (uint64_t)p * PBC_PAGE_SIZE}, held;
        if (pbc_mem_desc_range(&g->mem, phys, PBC_PAGE_SIZE, &held) && pbc_desc_same(&held, &want))
            continue;
        pbc_mem_read(&g->mem, phys, got, PBC_PAGE_SIZE);
        for (uint32_t k = 0; k < PBC_PAGE_SIZE; k += 4) {
            uint32_t w = pbc_content_word(~al->seed, (uint64_t)p * 1024 + k / 4), v;
            memcpy(&v, got + k, 4);
            if (v != w) {
                snprintf(why, n, "page %u ahead of allocation %s in its MDL (physical 0x%" PRIx64 ") is "
                         "someone else's and changed at +0x%x", p, al->name, phys, k);
                return 1;
            }
        }
    }
    return 0;
}

/* Whether the allocation's history holds a context image. */
static int has_image(const story *st)
{
    for (uint32_t k = 0; k < st->count; k++)
        if (st->layers[k].kind == LAYER_IMAGE)
            return 1;
    return 0;
}

static int content_check(const pbc_scenario *s, uint32_t ops_done, const pbc_gpu *gpu, const pbc_record *rec,
                         int images_only, char *why, size_t why_size)
{
    oracle o = {.s = s, .rec = rec, .why = why, .why_size = why_size};
    if (pbc_residency_init(&o.r, s))
        abort(); /* the scenario was validated */
    o.stories = pbc_xcalloc(s->alloc_count ? s->alloc_count : 1, sizeof(*o.stories));
    for (uint32_t i = 0; i < s->alloc_count; i++)
        if (s->allocs[i].where != PBC_WHERE_NONE)
            push(&o.stories[i], (layer){LAYER_INIT, s->allocs[i].seed, 0, s->allocs[i].size, 0, UINT32_MAX, NULL});
    for (uint32_t k = 0; k < ops_done && k < s->op_count; k++)
        apply(&o, k, &s->ops[k]);
    int bad = o.bad;
    for (uint32_t i = 0; i < s->alloc_count && !bad; i++) {
        if (images_only && !has_image(&o.stories[i]))
            continue;
        bad = check_alloc(&o, i, gpu, rec, why, why_size) ||
              (!images_only && check_foreign(&o, i, gpu, rec, why, why_size));
    }
    for (uint32_t i = 0; i < s->alloc_count; i++)
        free(o.stories[i].layers);
    free(o.stories);
    pbc_residency_fini(&o.r);
    return bad;
}

int pbc_content_check(const pbc_scenario *s, uint32_t ops_done, const pbc_gpu *gpu, const pbc_record *rec,
                      char *why, size_t why_size)
{
    return content_check(s, ops_done, gpu, rec, 0, why, why_size);
}

int pbc_content_check_images(const pbc_scenario *s, uint32_t ops_done, const pbc_gpu *gpu, const pbc_record *rec,
                             char *why, size_t why_size)
{
    if (!rec->image_count)
        return 0;
    return content_check(s, ops_done, gpu, rec, 1, why, why_size);
}
