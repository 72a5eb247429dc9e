/*
 * Scenario generation from choices. Each step picks an operation kind and
 * its parameters, biased toward the boundaries that matter (page and
 * buffer edges, splits, addresses above 4 GiB, segment ends), and keeps it
 * only if the residency tracker says a real VidMm could issue it. Half the
 * allocations get a physical page layout other than scattered. One
 * scenario in four has its paging buffers in a memory segment; work is
 * often aimed at the range an allocation just left, while its move out
 * may still be queued; and one scenario in 256 ends with a burst of
 * volume (hundreds of maps, of leaf tables, of paging buffers), where
 * drivers' small caches wrap.
 */
#include "scenario/gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "gpu/gpu.h" /* PBC_MAX_SEGMENTS */

uint32_t pbc_rng_choose(void *p, uint32_t n)
{
    pbc_rng *r = p;
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (uint32_t)(z % n);
}

/* Mostly small allocations (cheap, many per run), one in 24 large: a
 * few pages past 1 MiB and 16 MiB, and 64 MiB and 256 MiB, so that split
 * transfers resume beyond those points. */
static uint64_t gen_size(pbc_choose_fn c, void *x)
{
    static const uint64_t small[] = {4, 4096, 4100, 8192, 12300, 20480, 65536, 4092, 36864};
    static const uint64_t large[] = {(1ull << 20) + 12300, (16ull << 20) + 8196, (64ull << 20) - 4,
                                     256ull << 20};
    /* One large one in eight of 4 GiB or a little more: a size field kept
     * in 32 bits holds 0, or a remainder. */
    static const uint64_t edge[] = {4ull << 30, (4ull << 30) + 8196};
    if (c(x, 24) == 0)
        return c(x, 8) ? large[c(x, sizeof(large) / sizeof(large[0]))] : edge[c(x, 2)];
    return small[c(x, sizeof(small) / sizeof(small[0]))];
}

/* ---- Layouts: what Windows lets a driver declare ---- */

/* The next 4 GiB-aligned address at or above a. */
static uint64_t align_4g(uint64_t a) { return (a + (4ull << 30) - 1) & ~((4ull << 30) - 1); }

void pbc_gen_layout(pbc_scenario *s, pbc_choose_fn c, void *x)
{
    static const uint64_t mem_sizes[] = {1ull << 20, 16ull << 20, 64ull << 20, 256ull << 20,
                                         1ull << 30, 4ull << 30, (4ull << 30) + (64ull << 10), 64ull << 30};
    /* 256 MiB is 2^16 pages, the most a 16-bit page index reaches; 64 KiB
     * more is past it. */
    static const uint64_t ap_sizes[] = {4096, 4 * 4096, 1ull << 20, 256ull << 20, (256ull << 20) + (64ull << 10),
                                        4ull << 30};
    uint32_t n_mem = 1 + c(x, 3), n_ap = c(x, 3);
    uint32_t n = n_mem + n_ap, first_ap = c(x, n_mem + 1); /* apertures sit among the memory segments */
    uint64_t low = 0, high = PBC_RESERVED_END; /* next free address below 2 GiB and above 16 GiB */
    memset(s->segments, 0, sizeof(s->segments));
    for (uint32_t i = 0; i < n; i++) {
        pbc_segment_info *g = &s->segments[i];
        int aperture = i >= first_ap && i < first_ap + n_ap;
        g->SegmentId = i + 1;
        g->kind = aperture ? PBC_SEGMENT_APERTURE : PBC_SEGMENT_MEMORY;
        g->size = aperture ? ap_sizes[c(x, sizeof(ap_sizes) / sizeof(ap_sizes[0]))]
                           : mem_sizes[c(x, sizeof(mem_sizes) / sizeof(mem_sizes[0]))];
        switch (aperture ? 1 : c(x, 3)) {
        case 0: /* below 4 GiB (under the system window at 2 GiB) */
            if (low + g->size <= PBC_SYS_WINDOW_BASE) {
                g->base = low;
                low += g->size;
                break;
            }
            /* fall through: no room below */
        case 1: /* above 4 GiB */
            g->base = high;
            high += g->size;
            break;
        default: /* ending at a 4 GiB boundary */
            g->base = align_4g(high + g->size) - g->size;
            high = g->base + g->size;
            break;
        }
        high = (high + 0xFFFFFull) & ~0xFFFFFull; /* the next one on a 1 MiB boundary */
    }
    s->segment_count = n;
    s->paging_segment = 0;
}

uint64_t pbc_gen_past_index16(uint64_t ap_pages, uint64_t pages)
{
    const uint64_t first_beyond = 1ull << 16;
    if (ap_pages < pages)
        return 0;
    return ap_pages - pages >= first_beyond ? first_beyond : ap_pages - pages;
}

/* The bytes of segment i allocations may use: all but the paging-buffer
 * window of the segment that holds the paging buffers. */
static uint64_t gen_room(const pbc_scenario *s, uint32_t i)
{
    return s->segments[i].size - (s->paging_segment == i + 1 ? PBC_PAGING_WINDOW : 0);
}

/* A segment place for size bytes: low, mid, above 4 GiB or flush with the end. */
static pbc_place gen_place(const pbc_scenario *s, uint64_t size, pbc_choose_fn c, void *x)
{
    uint32_t mem[PBC_MAX_SEGMENTS], n = 0;
    for (uint32_t i = 0; i < s->segment_count; i++)
        if (s->segments[i].kind == PBC_SEGMENT_MEMORY && gen_room(s, i) >= size)
            mem[n++] = i;
    if (n == 0)
        return (pbc_place){0, 0}; /* no segment: the residency tracker refuses it */
    uint32_t k = mem[c(x, n)];
    const pbc_segment_info *g = &s->segments[k];
    uint64_t room = gen_room(s, k);
    pbc_place p = {g->SegmentId, 0};
    /* Sometimes across a 4 GiB line of the address space inside the
     * segment, where it has one and the bytes fit on both sides. */
    uint64_t line = (g->base + (4ull << 30)) & ~((4ull << 30) - 1);
    if (size >= 8 && line - g->base >= size / 2 && line - g->base + size / 2 <= room && c(x, 8) == 0) {
        p.offset = (line - g->base - size / 2) & ~3ull;
        return p;
    }
    switch (c(x, 4)) {
    case 0:
        p.offset = (uint64_t)c(x, 64) * 4096 % (room - size + 1) & ~4095ull;
        break;
    case 1:
        p.offset = (uint64_t)c(x, 1u << 20) * 4 % (room - size + 1) & ~3ull;
        break;
    case 2:
        p.offset = (room - size) & ~3ull;
        break;
    default:
        p.offset = ((room - size) / 2 + (uint64_t)c(x, 16) * 4096) % (room - size + 1) & ~3ull;
        break;
    }
    return p;
}

/* The segment range an allocation last left (pbc_residency.vacated),
 * for work aimed at it while that move may still be queued: its place,
 * for `size` bytes from its start, or the last 8 bytes of it (`tail`,
 * WritePhysical's). 0 when there is none. */
static int gen_vacated(const pbc_scenario *s, const pbc_residency *r, uint64_t size, int tail, pbc_place *out)
{
    if (!r->vacated)
        return 0;
    uint32_t j = r->vacated - 1;
    *out = r->a[j].left;
    if (tail && s->allocs[j].size >= 8)
        out->offset = (out->offset + s->allocs[j].size - 8) & ~7ull;
    return out->segment != 0 && size;
}

void pbc_gen_alloc(pbc_scenario *s, pbc_choose_fn c, void *x)
{
    uint32_t i = s->alloc_count;
    pbc_salloc *a = pbc_scenario_add_alloc(s);
    snprintf(a->name, sizeof(a->name), "A%u", i);
    while (pbc_scenario_find_alloc(s, a->name) != (int)i) /* a taken name */
        snprintf(a->name, sizeof(a->name), "A%u_%u", i, c(x, 1u << 20));
    a->size = gen_size(c, x);
    a->mdl_offset = c(x, 3) ? 0 : 1 + c(x, 3);
    a->flags = c(x, 3) ? 0 : PBC_ALLOC_NEEDS_IDLE;
    a->seed = i + 1;
    a->where = c(x, 3);
    if (a->where == PBC_WHERE_SEGMENT)
        a->at = gen_place(s, a->size, c, x);
    if (a->where == PBC_WHERE_SEGMENT && a->at.segment == 0) /* no segment holds it */
        a->where = PBC_WHERE_SYSTEM;
    if (a->size >= (4ull << 30) && a->where == PBC_WHERE_SYSTEM) /* two would pass the system pool */
        a->where = PBC_WHERE_NONE;
    a->phys = c(x, 2) ? PBC_PHYS_SCATTERED : 1 + c(x, PBC_PHYS_COUNT - 1);
    if (c(x, 4) == 0)
        a->flags |= PBC_ALLOC_CPU_VISIBLE; /* MapApertureSegment2 hands it a CpuVisibleAddress */
}

static void gen_allocs(pbc_scenario *s, pbc_choose_fn c, void *x)
{
    uint32_t n = 1 + c(x, 4);
    for (uint32_t i = 0; i < n; i++)
        pbc_gen_alloc(s, c, x);
}

static void gen_op(const pbc_scenario *s, const pbc_residency *r, uint32_t kind, uint32_t alloc, pbc_sop *o,
                   pbc_choose_fn c, void *x)
{
    memset(o, 0, sizeof(*o));
    o->kind = kind;
    o->alloc = alloc;
    o->split = 1;
    const pbc_salloc *al = &s->allocs[o->alloc];
    const pbc_res_alloc *ra = &r->a[o->alloc];
    uint32_t pages = pbc_alloc_pages(al);
    if (ra->destroyed && pbc_sop_has_alloc(o->kind) && c(x, 2))
        o->kind = PBC_SOP_CREATE; /* nothing else is legal on it */
    switch (o->kind) {
    case PBC_SOP_TRANSFER:
    case PBC_SOP_SPECIAL_LOCK:
        if (o->kind == PBC_SOP_TRANSFER && pages > 1)
            o->split = 1 + c(x, pages < 6 ? pages : 6);
        if (al->size >= (4ull << 30) && c(x, 2)) /* TransferSize at or beyond 4 GiB itself */
            o->split = 1;
        if (o->kind == PBC_SOP_TRANSFER && c(x, 4) == 0)
            o->flags = PBC_SOP_VIRTUAL; /* TransferVirtual */
        if (ra->where == PBC_WHERE_SEGMENT && c(x, 2))
            break; /* to system */
        if (c(x, 3) || !gen_vacated(s, r, al->size, 0, &o->at))
            o->at = gen_place(s, al->size, c, x);
        if (o->flags & PBC_SOP_VIRTUAL)
            o->at.offset &= ~(uint64_t)(PBC_PAGE_SIZE - 1);
        break;
    case PBC_SOP_FILL:
        /* Often where it was last (after a discard): state a builder may
         * keep about the allocation or the range meets a second fill. */
        o->at = ra->at.segment && c(x, 2) ? ra->at : gen_place(s, al->size, c, x);
        if (c(x, 3) == 0)
            gen_vacated(s, r, al->size, 0, &o->at);
        o->pattern = c(x, 4) ? 0xA5A5A5A5u : 0x01020304u * (1 + c(x, 200));
        if (c(x, 4) == 0 && o->at.offset % PBC_PAGE_SIZE == 0)
            o->flags = PBC_SOP_VIRTUAL; /* FillVirtual */
        break;
    case PBC_SOP_CREATE:
        o->pattern = al->seed + 1 + c(x, 2); /* not what it held before */
        switch (c(x, 3)) {
        case PBC_WHERE_NONE:
            o->flags = PBC_SOP_NO_CONTENT;
            break;
        case PBC_WHERE_SEGMENT:
            o->at = gen_place(s, al->size, c, x);
            if (o->at.segment == 0) /* no segment holds it */
                o->flags = PBC_SOP_NO_CONTENT;
            break;
        default:
            break;
        }
        break;
    case PBC_SOP_READ_PHYSICAL:
    case PBC_SOP_WRITE_PHYSICAL:
        o->at = gen_place(s, 8, c, x);
        o->at.offset &= ~7ull;
        if (o->kind == PBC_SOP_WRITE_PHYSICAL && c(x, 3) == 0)
            gen_vacated(s, r, 8, 1, &o->at);
        break;
    case PBC_SOP_MAP: {
        uint32_t ap[PBC_MAX_SEGMENTS], n = 0;
        for (uint32_t i = 0; i < s->segment_count; i++)
            if (s->segments[i].kind == PBC_SEGMENT_APERTURE)
                ap[n++] = i;
        if (n == 0) { /* nothing to map into: the tracker refuses segment 0 */
            o->at.segment = 0;
            break;
        }
        const pbc_segment_info *g = &s->segments[ap[c(x, n)]];
        uint64_t ap_pages = g->size / 4096;
        o->at.segment = g->SegmentId;
        switch (ap_pages < pages ? 2 : c(x, 8)) {
        case 0:
        case 1: /* at its end */
            o->at.offset = ap_pages - pages;
            break;
        case 2:
            o->at.offset = c(x, 64);
            break;
        case 3: /* at the first page a 16-bit index cannot name, where there is one */
            o->at.offset = pbc_gen_past_index16(ap_pages, pages);
            break;
        default:
            o->at.offset = c(x, 64);
            break;
        }
        o->first = c(x, pages);
        o->count = 1 + c(x, pages - o->first);
        o->flags = c(x, 2) ? PBC_SOP_COHERENT : 0;
        if (c(x, 4) == 0)
            o->flags |= PBC_SOP_ADL; /* MapApertureSegment2 */
        break;
    }
    case PBC_SOP_RENDER_WRITE:
    case PBC_SOP_RENDER_READ:
        o->offset = (uint64_t)c(x, (uint32_t)(al->size / 4)) * 4;
        o->size = al->size - o->offset;
        o->pattern = 0x10101010u * (1 + c(x, 15));
        if (ra->va_mapped && c(x, 2)) { /* through its GPU virtual range */
            o->flags = PBC_SOP_VIA_VA;
            o->offset = (uint64_t)ra->va_first * 4096 + (uint64_t)c(x, ra->va_count) * 4096;
            o->size = (uint64_t)(ra->va_first + ra->va_count) * 4096 - o->offset;
            if (o->offset + o->size > al->size)
                o->size = al->size - o->offset;
            if (o->kind == PBC_SOP_RENDER_WRITE && (ra->va_flags & PBC_SOP_VA_READ_ONLY))
                o->kind = PBC_SOP_RENDER_READ;
        } else if (ra->mapped && c(x, 2)) {
            o->flags = PBC_SOP_VIA_APERTURE;
            o->offset = (uint64_t)ra->map_first * 4096;
            o->size = (uint64_t)ra->map_count * 4096;
            if (o->offset + o->size > al->size)
                o->size = al->size - o->offset;
        }
        break;
    case PBC_SOP_GPU_READ:
    case PBC_SOP_GPU_WRITE:
        o->at = gen_place(s, 4096, c, x);
        o->size = 4 * (1 + c(x, 1024));
        o->pattern = 0xC0DE0000u + c(x, 65536);
        if (r->valid_count && c(x, 2)) { /* through a valid aperture page */
            const pbc_res_range *v = &r->valid[c(x, r->valid_count)];
            o->at.segment = v->segment;
            o->at.offset = (v->first + c(x, (uint32_t)v->count)) * 4096;
            o->size = 4 * (1 + c(x, 1024));
        }
        break;
    case PBC_SOP_VA_MAP:
    case PBC_SOP_VA_ZERO:
        if (o->kind == PBC_SOP_VA_MAP) {
            o->first = c(x, 4) ? 0 : c(x, pages);
            o->count = c(x, 2) ? pages - o->first : 1 + c(x, pages - o->first);
            o->flags = c(x, 4) ? 0 : PBC_SOP_VA_READ_ONLY;
            /* 64 KiB pages where the allocation allows them. */
            if (ra->where == PBC_WHERE_SEGMENT && ra->at.segment <= s->segment_count &&
                (s->segments[ra->at.segment - 1].base + ra->at.offset) % 0x10000 == 0 && pages >= 16 && c(x, 3) == 0) {
                o->flags |= PBC_SOP_VA_64K;
                o->first &= ~15u;
                o->count = (pages - o->first) & ~15u;
            }
        } else {
            o->count = 1 + c(x, 64);
            o->flags = c(x, 3) ? 0 : PBC_SOP_VA_NO_ACCESS;
        }
        /* Where: one in eight a few 64 KiB steps before a leaf (2 MiB) or a
         * directory (1 GiB) line, so the range crosses it; else VidMm's
         * choice, an address, or bounds. */
        int across = c(x, 8) == 0;
        switch (across ? 4 : c(x, 4)) {
        case 1:
            o->va = (uint64_t)(16 + c(x, 4096)) << 16;
            break;
        case 4:
            o->va = c(x, 2) ? ((uint64_t)(1 + c(x, 512)) << 21) - ((uint64_t)(1 + c(x, 4)) << 16)
                            : ((uint64_t)(1 + c(x, 3)) << 30) - ((uint64_t)(1 + c(x, 4)) << 16);
            break;
        case 2:
            o->va_min = (uint64_t)c(x, 1024) << 21;
            o->va_max = c(x, 2) ? 0 : o->va_min + ((uint64_t)(1 + c(x, 64)) << 21);
            break;
        default:
            break;
        }
        /* Half the ranges in the first address space, the rest in any of
         * them: ranges of several processes at the same addresses. */
        o->space = c(x, 2) ? 0 : c(x, PBC_MAX_SPACES);
        /* Sometimes into a range reserved before (S49), of the same space. */
        for (uint32_t i = 0; o->kind == PBC_SOP_VA_MAP && i < r->va_count && c(x, 2); i++) {
            const pbc_res_va *u = &r->vas[i];
            uint64_t step = (o->flags & PBC_SOP_VA_64K) ? 16 : 1;
            if (u->alloc >= 0 || u->space != o->space || u->pages < o->count || (u->flags & PBC_SOP_VA_64K) != (o->flags & PBC_SOP_VA_64K))
                continue;
            o->va = u->base + (uint64_t)c(x, (uint32_t)((u->pages - o->count) / step + 1)) * step * PBC_PAGE_SIZE;
            o->va_min = o->va_max = 0;
            break;
        }
        o->driver_protection = c(x, 2) ? 0 : 1 + c(x, 255);
        break;
    case PBC_SOP_NOTIFY:
        o->pattern = c(x, PBC_NOTIFY_COUNT);
        break;
    case PBC_SOP_VA_MOVE_TABLES: /* the whole leaf, the entries in use, or those through a scratch table */
        if (c(x, 3) == 0)
            break;
        o->flags = PBC_SOP_COPY_USED;
        o->count = c(x, 2) ? 1 : 1 + c(x, PBC_MAX_COPY_PIECES);
        if (c(x, 2)) {
            o->flags |= PBC_SOP_COPY_STAGED;
            o->first = c(x, 2) ? 0 : c(x, PBC_PT_ENTRIES); /* packed at its start, or anywhere (to its end) */
        }
        break;
    case PBC_SOP_INIT_CONTEXT:
    case PBC_SOP_UPDATE_CONTEXT:
    case PBC_SOP_NOTIFY_RESIDENCY:
        break;
    case PBC_SOP_DMA: {
        static const uint32_t sizes[] = {0, 24, 25, 48, 100, 1000, 4096, 65536};
        o->dma_size = sizes[c(x, sizeof(sizes) / sizeof(sizes[0]))];
        break;
    }
    default:
        break;
    }
}

void pbc_gen_op(const pbc_scenario *s, const pbc_residency *r, pbc_sop *o, pbc_choose_fn c, void *x)
{
    uint32_t kind = c(x, PBC_SOP_COUNT);
    gen_op(s, r, kind, c(x, s->alloc_count), o, c, x);
}

void pbc_gen_op_on(const pbc_scenario *s, const pbc_residency *r, uint32_t alloc, pbc_sop *o, pbc_choose_fn c,
                   void *x)
{
    gen_op(s, r, c(x, PBC_SOP_COUNT), alloc, o, c, x);
}

void pbc_gen_op_kind_on(const pbc_scenario *s, const pbc_residency *r, uint32_t kind, uint32_t alloc, pbc_sop *o,
                        pbc_choose_fn c, void *x)
{
    gen_op(s, r, kind, alloc, o, c, x);
}

void pbc_gen_scenario(pbc_scenario *s, uint32_t max_ops, pbc_choose_fn c, void *x)
{
    pbc_gen_scenario_in(s, NULL, 0, max_ops, c, x);
}

/* Paging buffers in a memory segment that holds VidMm's window (S40),
 * one scenario in four: below 4 GiB or above it, as the layout has them. */
static void gen_paging_segment(pbc_scenario *s, pbc_choose_fn c, void *x)
{
    uint32_t mem[PBC_MAX_SEGMENTS], n = 0;
    for (uint32_t i = 0; i < s->segment_count; i++)
        if (s->segments[i].kind == PBC_SEGMENT_MEMORY && s->segments[i].size > PBC_PAGING_WINDOW)
            mem[n++] = i + 1;
    if (n && c(x, 4) == 0)
        s->paging_segment = mem[c(x, n)];
}

/* Appends op when the residency tracker takes it, and the GPU virtual
 * limit and, with allocations of 4 GiB, the memory limits (a few moves
 * of one reach them); 1 when it did. */
static int gen_push(pbc_scenario *s, pbc_residency *r, const pbc_sop *o, uint8_t *ranged, uint64_t *va)
{
    if (s->op_count >= PBC_MAX_OPS || pbc_residency_check(r, o))
        return 0;
    uint64_t was = *va;
    if (!pbc_sop_va_fits(s, o, ranged, va))
        return 0;
    *pbc_scenario_add_op(s) = *o;
    char why[256];
    uint32_t line;
    if (pbc_scenario_largest_alloc(s) >= (4ull << 30) && pbc_scenario_check_limits(s, why, sizeof(why), &line)) {
        s->op_count--;
        *va = was;
        return 0;
    }
    pbc_residency_apply(r, o);
    return 1;
}

/* The volume burst, in the smallest paging buffers: an allocation of at
 * most 64 KiB mapped and unmapped a page at a time over an aperture's
 * pages (a buffer each: 1,000 maps and paging buffers and more), or
 * given a GPU virtual range and releasing it, in a new 2 MiB region
 * every time (a leaf table each: 256 and more). */
#define GEN_VOLUME_STEPS 520u
static void gen_volume(pbc_scenario *s, pbc_residency *r, uint8_t *ranged, uint64_t *va, pbc_choose_fn c, void *x)
{
    int tables = c(x, 2);
    uint32_t ap = 0;
    for (uint32_t i = 0; i < s->segment_count && !ap; i++)
        if (s->segments[i].kind == PBC_SEGMENT_APERTURE)
            ap = i + 1;
    uint32_t a = s->alloc_count;
    for (uint32_t i = 0; i < s->alloc_count && a == s->alloc_count; i++)
        if (s->allocs[i].size <= 65536 && !r->a[i].destroyed && !r->a[i].mapped && !r->a[i].va_mapped &&
            (tables ? r->a[i].where == PBC_WHERE_SEGMENT : r->a[i].where == PBC_WHERE_SYSTEM))
            a = i;
    if (a == s->alloc_count || (!tables && !ap))
        return;
    pbc_sop o;
    memset(&o, 0, sizeof(o));
    o.kind = PBC_SOP_DMA; /* dma_size 0: the target's minimum */
    gen_push(s, r, &o, ranged, va);
    uint64_t ap_pages = ap ? s->segments[ap - 1].size / PBC_PAGE_SIZE : 0;
    for (uint32_t k = 0; k < GEN_VOLUME_STEPS; k++) {
        memset(&o, 0, sizeof(o));
        o.alloc = a;
        o.split = 1;
        if (tables) {
            o.kind = PBC_SOP_VA_MAP;
            o.count = 1;
            o.va = (uint64_t)(k + 1) << 21;
        } else {
            o.kind = PBC_SOP_MAP;
            o.at.segment = ap;
            o.at.offset = (k * 7ull) % ap_pages;
            o.count = 1;
        }
        if (!gen_push(s, r, &o, ranged, va))
            return;
        o.kind = tables ? PBC_SOP_VA_UNMAP : PBC_SOP_UNMAP;
        if (!gen_push(s, r, &o, ranged, va))
            return;
    }
}

void pbc_gen_scenario_in(pbc_scenario *s, const pbc_segment_info *layout, uint32_t n, uint32_t max_ops,
                         pbc_choose_fn c, void *x)
{
    if (n) {
        memcpy(s->segments, layout, n * sizeof(*layout));
        s->segment_count = n;
    } else if (c(x, 2)) {
        pbc_scenario_default_layout(s);
    } else {
        pbc_gen_layout(s, c, x);
    }
    gen_paging_segment(s, c, x);
    gen_allocs(s, c, x);
    pbc_residency r;
    if (pbc_residency_init(&r, s)) { /* overlapping initial placements: start them in system */
        pbc_residency_fini(&r);
        for (uint32_t i = 0; i < s->alloc_count; i++)
            if (s->allocs[i].where == PBC_WHERE_SEGMENT)
                s->allocs[i].where = PBC_WHERE_SYSTEM;
        pbc_residency_init(&r, s);
    }
    uint32_t want = 1 + c(x, max_ops);
    int last = -1; /* the allocation of the last operation that named one */
    uint8_t *ranged = pbc_xcalloc(s->alloc_count + 1, 1); /* for the GPU virtual limit */
    uint64_t va = 0;
    /* An allocation of 4 GiB or more is filled (when it has no content)
     * and moved whole first (its sizes at and beyond 4 GiB are what it is
     * there for); then it is the last. */
    for (uint32_t i = 0; i < s->alloc_count; i++) {
        if (s->allocs[i].size < (4ull << 30))
            continue;
        pbc_sop o;
        if (r.a[i].where == PBC_WHERE_NONE) {
            gen_op(s, &r, PBC_SOP_FILL, i, &o, c, x);
            gen_push(s, &r, &o, ranged, &va);
        }
        gen_op(s, &r, PBC_SOP_TRANSFER, i, &o, c, x);
        o.split = 1;
        if (gen_push(s, &r, &o, ranged, &va))
            last = (int)i;
    }
    for (uint32_t tries = 0; s->op_count < want && tries < want * 8; tries++) {
        pbc_sop o;
        /* Half the time on the same allocation as the last operation:
         * stories, for state a builder keeps between operations. */
        if (last >= 0 && c(x, 2))
            pbc_gen_op_on(s, &r, (uint32_t)last, &o, c, x);
        else
            pbc_gen_op(s, &r, &o, c, x);
        if (!gen_push(s, &r, &o, ranged, &va))
            continue;
        if (pbc_sop_has_alloc(o.kind))
            last = (int)o.alloc;
    }
    if (c(x, 256) == 0) /* a thousand operations: a case costs what 50 others do */
        gen_volume(s, &r, ranged, &va, c, x);
    free(ranged);
    pbc_residency_fini(&r);
}
