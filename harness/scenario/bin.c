/*
 * The binary scenario encoding that fuzzers mutate (docs/scenario-format.md,
 * "Binary scenarios"). Every byte string decodes: each field is a choice
 * reduced into the range the current state allows, and an operation the
 * residency tracker refuses is consumed and dropped, so the result is
 * always a sequence a real VidMm could issue. The encoder is the decoder's
 * inverse on valid scenarios, which turns the text seeds into binary seeds.
 */
#include "scenario/scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu.h" /* PBC_MAX_SEGMENTS */
#include "base/util.h"

/* Record types: 0 declares an allocation, 1 + k is an operation of kind k.
 * Version 1 knew the kinds up to dma; version 2 adds destroy and create
 * (and physical layouts); version 3 the GPU virtual ranges (and render
 * work through them) up to va-move-tables; version 4 the context
 * operations and notify-residency (and CPU-visible allocations); version 5
 * a mode byte on va-move-tables (partial copies); version 6 a space byte
 * at the end of va-map and va-zero (their GPU virtual address space,
 * modulo PBC_MAX_SPACES; before it every range is in space 0). An input
 * keeps the meaning its version gave it. */
#define BIN_RECORD_ALLOC 0u
#define BIN_RECORD_TYPES_V1 (2u + PBC_SOP_DMA)
#define BIN_RECORD_TYPES_V2 (2u + PBC_SOP_CREATE)
#define BIN_RECORD_TYPES_V3 (2u + PBC_SOP_VA_MOVE_TABLES)
#define BIN_RECORD_TYPES (1u + PBC_SOP_COUNT)
/* va-map and va-zero flags byte. */
#define BIN_VA_READ_ONLY 0x1u
#define BIN_VA_64K 0x2u
#define BIN_VA_NO_ACCESS 0x4u /* va-zero */
/* va-move-tables mode byte (version 5). */
#define BIN_COPY_USED 0x1u
#define BIN_COPY_STAGED 0x2u
#define BIN_VA_PAGES (PBC_VA_END >> 12)
#define BIN_MAX_PAGES_MEMORY ((64ull << 30) >> 12)
#define BIN_MAX_PAGES_APERTURE (PBC_MAX_APERTURE_SIZE >> 12)
#define BIN_MAX_BASE_PAGES (1ull << 36)

/* ---- Reading: past the end every field reads as zero ---- */

typedef struct bin_reader {
    const uint8_t *p;
    size_t n, at;
} bin_reader;

static uint8_t rd_u8(bin_reader *r) { return r->at < r->n ? r->p[r->at++] : 0; }

/* Unsigned LEB128, at most ten bytes; bits beyond 64 are dropped. */
static uint64_t rd_var(bin_reader *r)
{
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 70; shift += 7) {
        uint8_t b = rd_u8(r);
        if (shift < 64)
            v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            break;
    }
    return v;
}

static uint64_t rd_below(bin_reader *r, uint64_t n) { return rd_var(r) % n; }

static uint32_t rd_u32(bin_reader *r)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < 4; i++)
        v |= (uint32_t)rd_u8(r) << (8 * i);
    return v;
}

/* ---- Writing: past the end of the buffer bytes are only counted ---- */

typedef struct bin_writer {
    uint8_t *p;
    size_t n, cap;
} bin_writer;

static void wr_u8(bin_writer *w, uint8_t b)
{
    if (w->n < w->cap)
        w->p[w->n] = b;
    w->n++;
}

static void wr_var(bin_writer *w, uint64_t v)
{
    do {
        uint8_t b = v & 0x7f;
        v >>= 7;
        wr_u8(w, (uint8_t)(b | (v ? 0x80 : 0)));
    } while (v);
}

static void wr_u32(bin_writer *w, uint32_t v)
{
    for (unsigned i = 0; i < 4; i++)
        wr_u8(w, (uint8_t)(v >> (8 * i)));
}

/* ---- Segment choices: the n-th memory (or aperture) segment ---- */

static uint32_t seg_count_of(const pbc_scenario *s, uint32_t kind)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->segment_count; i++)
        n += s->segments[i].kind == kind;
    return n;
}

/* Segment id of the idx-th segment of that kind. */
static uint32_t seg_nth(const pbc_scenario *s, uint32_t kind, uint32_t idx)
{
    for (uint32_t i = 0; i < s->segment_count; i++)
        if (s->segments[i].kind == kind && idx-- == 0)
            return s->segments[i].SegmentId;
    return 0;
}

/* Index of segment id among the segments of its kind. */
static uint32_t seg_index(const pbc_scenario *s, uint32_t id)
{
    uint32_t kind = s->segments[id - 1].kind, idx = 0;
    for (uint32_t i = 0; i + 1 < id; i++)
        idx += s->segments[i].kind == kind;
    return idx;
}

static uint64_t seg_size(const pbc_scenario *s, uint32_t id) { return s->segments[id - 1].size; }

/* ---- Names ---- */

static const char name_first[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_";
static const char name_rest[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_0123456789-.";

/* A byte as a name character: itself when allowed there, else the set's b-th. */
static char name_char(uint8_t b, const char *set)
{
    size_t n = strlen(set);
    if (b && memchr(set, b, n))
        return (char)b;
    return set[b % n];
}

/* The name of an allocation that will be kept (keep), else only its
 * bytes consumed. */
static void decode_name(bin_reader *r, const pbc_scenario *s, char *name, int keep)
{
    uint32_t len = rd_u8(r) % PBC_NAME_MAX;
    for (uint32_t i = 0; i < len; i++)
        name[i] = name_char(rd_u8(r), i ? name_rest : name_first);
    name[len] = 0;
    if (!keep || (len && pbc_scenario_find_alloc(s, name) < 0))
        return;
    /* Absent or taken: a default one, made unique. */
    snprintf(name, PBC_NAME_MAX, "A%u", s->alloc_count);
    size_t n = strlen(name);
    while (pbc_scenario_find_alloc(s, name) >= 0 && n + 1 < PBC_NAME_MAX) {
        name[n++] = '_';
        name[n] = 0;
    }
}

/* ---- Layout ---- */

/* The layout the bytes describe, or, given `fixed` (n segments), the
 * bytes read all the same and that layout used instead. */
static void decode_layout(bin_reader *r, pbc_scenario *s, const pbc_segment_info *fixed, uint32_t fixed_n)
{
    uint8_t b = rd_u8(r);
    if (b == 0 && !fixed) {
        pbc_scenario_default_layout(s);
        return;
    }
    if (b == 0) {
        memcpy(s->segments, fixed, fixed_n * sizeof(*fixed));
        s->segment_count = fixed_n;
        return;
    }
    uint32_t n = 1u + (b - 1u) % PBC_MAX_SEGMENTS;
    int paging_bit[PBC_MAX_SEGMENTS] = {0};
    for (uint32_t i = 0; i < n; i++) {
        pbc_segment_info *g = &s->segments[i];
        g->SegmentId = i + 1;
        uint8_t kind = rd_u8(r);
        g->kind = (kind & 1) ? PBC_SEGMENT_APERTURE : PBC_SEGMENT_MEMORY;
        paging_bit[i] = (kind & 2) != 0;
        g->base = rd_below(r, BIN_MAX_BASE_PAGES) << 12;
        uint64_t max = g->kind == PBC_SEGMENT_APERTURE ? BIN_MAX_PAGES_APERTURE : BIN_MAX_PAGES_MEMORY;
        g->size = (1 + rd_below(r, max)) << 12;
    }
    s->segment_count = n;
    if (fixed) {
        memset(s->segments, 0, sizeof(s->segments));
        memcpy(s->segments, fixed, fixed_n * sizeof(*fixed));
        s->segment_count = n = fixed_n;
    } else if (pbc_gpu_layout_check(s->segments, n)) {
        memset(s->segments, 0, sizeof(s->segments));
        pbc_scenario_default_layout(s);
        return;
    }
    /* The first memory segment so flagged that can hold the window gets
     * the paging buffers (S40). */
    for (uint32_t i = 0; i < n && !s->paging_segment; i++)
        if (paging_bit[i] && s->segments[i].kind == PBC_SEGMENT_MEMORY && s->segments[i].size > PBC_PAGING_WINDOW)
            s->paging_segment = i + 1;
}

static int layout_is_default(const pbc_scenario *s)
{
    pbc_scenario d;
    pbc_scenario_init(&d);
    pbc_scenario_default_layout(&d);
    return s->segment_count == d.segment_count &&
           memcmp(s->segments, d.segments, d.segment_count * sizeof(d.segments[0])) == 0;
}

static void encode_layout(bin_writer *w, const pbc_scenario *s)
{
    if (layout_is_default(s) && !s->paging_segment) {
        wr_u8(w, 0);
        return;
    }
    wr_u8(w, (uint8_t)s->segment_count);
    for (uint32_t i = 0; i < s->segment_count; i++) {
        const pbc_segment_info *g = &s->segments[i];
        wr_u8(w, (uint8_t)((g->kind == PBC_SEGMENT_APERTURE) | (s->paging_segment == i + 1 ? 2 : 0)));
        wr_var(w, g->base >> 12);
        wr_var(w, (g->size >> 12) - 1);
    }
}

/* ---- Places ---- */

/* A 4-aligned offset in a memory segment where `size` bytes fit. */
static int decode_mem_place(bin_reader *r, const pbc_scenario *s, uint64_t size, pbc_place *at)
{
    uint32_t nmem = seg_count_of(s, PBC_SEGMENT_MEMORY);
    uint64_t idx = rd_var(r), off = rd_var(r);
    if (nmem == 0)
        return -1;
    at->segment = seg_nth(s, PBC_SEGMENT_MEMORY, (uint32_t)(idx % nmem));
    uint64_t total = seg_size(s, at->segment);
    if (size > total)
        return -1;
    at->offset = 4 * (off % ((total - size) / 4 + 1));
    return 0;
}

static void encode_mem_place(bin_writer *w, const pbc_scenario *s, pbc_place at)
{
    wr_var(w, seg_index(s, at.segment));
    wr_var(w, at.offset / 4);
}

/* ---- Allocations ---- */

static int allocs_overlap(const pbc_scenario *s, const pbc_salloc *a)
{
    uint64_t start, end;
    if (pbc_scenario_paging_window(s, a->at.segment, &start, &end) && a->at.offset < end &&
        start < a->at.offset + a->size)
        return 1; /* the paging buffers' window counts as taken */
    for (uint32_t i = 0; i < s->alloc_count; i++) {
        const pbc_salloc *o = &s->allocs[i];
        if (o->where == PBC_WHERE_SEGMENT && o->at.segment == a->at.segment &&
            a->at.offset < o->at.offset + o->size && o->at.offset < a->at.offset + a->size)
            return 1;
    }
    return 0;
}

/* The flags byte of an allocation record: needs-idle and primary, from
 * version 2 on its physical layout above them, from version 4 on
 * cpu-visible above that. */
#define BIN_FLAGS_MASK (PBC_ALLOC_NEEDS_IDLE | PBC_ALLOC_PRIMARY)
#define BIN_PHYS_SHIFT 2u
#define BIN_CPU_VISIBLE 0x10u

static void decode_alloc(bin_reader *r, pbc_scenario *s, int accept, int has_phys, int v4)
{
    /* One declared after the first operation, or past the limit, is read
     * and dropped: nothing to check it against (a fuzzer's input can hold
     * thousands, each costing a pass over the allocations). */
    int keep = accept && s->alloc_count < PBC_MAX_ALLOCS;
    pbc_salloc a = {0};
    decode_name(r, s, a.name, keep);
    a.size = 4 * (1 + rd_below(r, PBC_MAX_ALLOC_SIZE / 4));
    a.where = rd_u8(r) % 3;
    if (a.where == PBC_WHERE_SEGMENT &&
        (decode_mem_place(r, s, a.size, &a.at) || (keep && allocs_overlap(s, &a)))) {
        a.where = PBC_WHERE_SYSTEM;
        memset(&a.at, 0, sizeof(a.at));
    }
    a.mdl_offset = rd_u8(r) % (PBC_MAX_MDL_OFFSET + 1);
    uint8_t flags = rd_u8(r);
    a.flags = flags & BIN_FLAGS_MASK;
    if (has_phys)
        a.phys = ((flags >> BIN_PHYS_SHIFT) & 3u) % PBC_PHYS_COUNT;
    if (v4 && (flags & BIN_CPU_VISIBLE))
        a.flags |= PBC_ALLOC_CPU_VISIBLE;
    a.seed = (uint32_t)rd_var(r);
    if (keep)
        *pbc_scenario_add_alloc(s) = a;
}

static void encode_alloc(bin_writer *w, const pbc_scenario *s, const pbc_salloc *a)
{
    size_t len = strlen(a->name);
    wr_u8(w, BIN_RECORD_ALLOC);
    wr_u8(w, (uint8_t)len);
    for (size_t i = 0; i < len; i++)
        wr_u8(w, (uint8_t)a->name[i]);
    wr_var(w, a->size / 4 - 1);
    wr_u8(w, (uint8_t)a->where);
    if (a->where == PBC_WHERE_SEGMENT)
        encode_mem_place(w, s, a->at);
    wr_u8(w, (uint8_t)a->mdl_offset);
    wr_u8(w, (uint8_t)((a->flags & BIN_FLAGS_MASK) | a->phys << BIN_PHYS_SHIFT |
                       ((a->flags & PBC_ALLOC_CPU_VISIBLE) ? BIN_CPU_VISIBLE : 0)));
    wr_var(w, a->seed);
}

/* ---- Operations ---- */

/* Fills o from the record's fields; -1 when the state leaves no way to
 * read them as a legal operation (the bytes are still consumed). */
/* Where a range goes: VidMm's choice, BaseAddress, or within bounds. */
static void decode_va_place(bin_reader *r, pbc_sop *o)
{
    switch (rd_u8(r) % 3) {
    case 1:
        o->va = rd_below(r, BIN_VA_PAGES) << 12;
        break;
    case 2:
        o->va_min = rd_below(r, BIN_VA_PAGES) << 12;
        o->va_max = rd_below(r, BIN_VA_PAGES) << 12;
        break;
    default:
        break;
    }
}

static void encode_va_place(bin_writer *w, const pbc_sop *o)
{
    wr_u8(w, o->va ? 1 : (o->va_min || o->va_max) ? 2 : 0);
    if (o->va) {
        wr_var(w, o->va >> 12);
    } else if (o->va_min || o->va_max) {
        /* Bounds past the space VidMm hands out mean the same as its end,
         * which the decoder can say. */
        wr_var(w, (o->va_min < PBC_VA_END ? o->va_min : PBC_VA_END - PBC_PAGE_SIZE) >> 12);
        wr_var(w, o->va_max && o->va_max < PBC_VA_END ? o->va_max >> 12 : 0);
    }
}

/* A range of 64 KiB pages counts whole ones. */
static void decode_va_pages(pbc_sop *o)
{
    if (!(o->flags & PBC_SOP_VA_64K))
        return;
    o->first &= ~15u;
    o->count = (o->count + 15) & ~15u;
}

static int decode_op(bin_reader *r, const pbc_scenario *s, uint32_t kind, pbc_sop *o, int version)
{
    int v3 = version >= 3;
    memset(o, 0, sizeof(*o));
    o->kind = kind;
    o->split = 1;
    int bad = 0;
    const pbc_salloc *al = NULL;
    if (pbc_sop_has_alloc(kind)) {
        uint64_t v = rd_var(r);
        if (s->alloc_count == 0)
            bad = 1;
        else
            al = &s->allocs[o->alloc = (uint32_t)(v % s->alloc_count)];
    }
    uint64_t asize = al ? al->size : 4, pages = al ? pbc_alloc_pages(al) : 1;
    switch (kind) {
    case PBC_SOP_TRANSFER:
    case PBC_SOP_SPECIAL_LOCK: {
        if (kind == PBC_SOP_TRANSFER)
            o->split = 1 + (uint32_t)rd_below(r, pages < PBC_MAX_SPLIT ? pages : PBC_MAX_SPLIT);
        uint8_t to = rd_u8(r);
        if (to & 1)
            bad |= decode_mem_place(r, s, asize, &o->at);
        if (v3 && kind == PBC_SOP_TRANSFER && (to & 2)) {
            o->flags = PBC_SOP_VIRTUAL;
            o->at.offset &= ~(uint64_t)(PBC_PAGE_SIZE - 1); /* GPU virtual pages */
        }
        break;
    }
    case PBC_SOP_FILL:
        bad |= decode_mem_place(r, s, asize, &o->at);
        o->pattern = rd_u32(r);
        if (v3 && (rd_u8(r) & 1))
            o->flags = PBC_SOP_VIRTUAL;
        if (o->flags & PBC_SOP_VIRTUAL)
            o->at.offset &= ~(uint64_t)(PBC_PAGE_SIZE - 1);
        break;
    case PBC_SOP_READ_PHYSICAL:
    case PBC_SOP_WRITE_PHYSICAL:
        bad |= decode_mem_place(r, s, 8, &o->at);
        o->at.offset &= ~7ull;
        break;
    case PBC_SOP_MAP: {
        uint32_t nap = seg_count_of(s, PBC_SEGMENT_APERTURE);
        uint64_t idx = rd_var(r);
        o->first = (uint32_t)rd_below(r, pages);
        o->count = 1 + (uint32_t)rd_below(r, pages - o->first);
        uint64_t page = rd_var(r);
        uint8_t mf = rd_u8(r);
        o->flags = ((mf & 1) ? PBC_SOP_COHERENT : 0) | ((v3 && (mf & 2)) ? PBC_SOP_ADL : 0);
        if (nap == 0) {
            bad = 1;
            break;
        }
        o->at.segment = seg_nth(s, PBC_SEGMENT_APERTURE, (uint32_t)(idx % nap));
        uint64_t ap_pages = seg_size(s, o->at.segment) / 4096;
        if (o->count > ap_pages)
            bad = 1;
        else
            o->at.offset = page % (ap_pages - o->count + 1);
        break;
    }
    case PBC_SOP_RENDER_WRITE:
    case PBC_SOP_RENDER_READ: {
        uint64_t off = rd_var(r), size = rd_var(r);
        if (kind == PBC_SOP_RENDER_WRITE) {
            o->offset = 4 * (off % (asize / 4));
            o->size = 4 * (1 + size % ((asize - o->offset) / 4));
            o->pattern = rd_u32(r);
        } else {
            o->offset = off % asize;
            o->size = 1 + size % (asize - o->offset);
        }
        uint8_t via = rd_u8(r);
        via = v3 ? via % 3 : via & 1; /* 0 where it lives, 1 its aperture mapping, 2 its GPU virtual range */
        o->flags = via == 1 ? PBC_SOP_VIA_APERTURE : via == 2 ? PBC_SOP_VIA_VA : 0;
        break;
    }
    case PBC_SOP_VA_MAP: {
        o->first = (uint32_t)rd_below(r, pages);
        o->count = 1 + (uint32_t)rd_below(r, pages - o->first);
        uint8_t f = rd_u8(r);
        o->flags = ((f & BIN_VA_READ_ONLY) ? PBC_SOP_VA_READ_ONLY : 0) | ((f & BIN_VA_64K) ? PBC_SOP_VA_64K : 0);
        decode_va_pages(o);
        decode_va_place(r, o);
        o->driver_protection = rd_var(r);
        if (version >= 6)
            o->space = rd_u8(r) % PBC_MAX_SPACES;
        break;
    }
    case PBC_SOP_NOTIFY:
        o->pattern = (uint32_t)rd_below(r, PBC_NOTIFY_COUNT);
        break;
    case PBC_SOP_VA_MOVE_TABLES: {
        if (version < 5)
            break; /* the whole-leaf copy */
        uint8_t mode = rd_u8(r);
        if (!(mode & BIN_COPY_USED))
            break;
        o->flags = PBC_SOP_COPY_USED | ((mode & BIN_COPY_STAGED) ? PBC_SOP_COPY_STAGED : 0);
        o->count = 1 + (uint32_t)rd_below(r, PBC_MAX_COPY_PIECES);
        if (o->flags & PBC_SOP_COPY_STAGED)
            o->first = (uint32_t)rd_below(r, PBC_PT_ENTRIES);
        break;
    }
    case PBC_SOP_VA_ZERO: {
        o->count = 1 + (uint32_t)rd_below(r, PBC_VA_MAX_PAGES);
        uint8_t f = rd_u8(r);
        o->flags = ((f & BIN_VA_NO_ACCESS) ? PBC_SOP_VA_NO_ACCESS : 0) | ((f & BIN_VA_64K) ? PBC_SOP_VA_64K : 0);
        decode_va_pages(o);
        decode_va_place(r, o);
        o->driver_protection = rd_var(r);
        if (version >= 6)
            o->space = rd_u8(r) % PBC_MAX_SPACES;
        break;
    }
    case PBC_SOP_GPU_READ:
    case PBC_SOP_GPU_WRITE: {
        uint64_t idx = rd_var(r), off = rd_var(r), size = rd_var(r);
        if (kind == PBC_SOP_GPU_WRITE)
            o->pattern = rd_u32(r);
        if (s->segment_count == 0) {
            bad = 1;
            break;
        }
        o->at.segment = 1 + (uint32_t)(idx % s->segment_count);
        uint64_t total = seg_size(s, o->at.segment), room;
        if (kind == PBC_SOP_GPU_WRITE) {
            o->at.offset = 4 * (off % (total / 4));
            room = total - o->at.offset;
            room = room < (1u << 20) ? room : (1u << 20);
            o->size = 4 * (1 + size % (room / 4));
        } else {
            o->at.offset = off % total;
            room = total - o->at.offset;
            room = room < (1u << 20) ? room : (1u << 20);
            o->size = 1 + size % room;
        }
        break;
    }
    case PBC_SOP_DMA: {
        uint64_t v = rd_below(r, PBC_MAX_DMA_SIZE - 2);
        o->dma_size = v ? (uint32_t)v + 3 : 0;
        break;
    }
    case PBC_SOP_CREATE: {
        uint32_t where = rd_u8(r) % 3;
        if (where == PBC_WHERE_NONE)
            o->flags = PBC_SOP_NO_CONTENT;
        else if (where == PBC_WHERE_SEGMENT)
            bad |= decode_mem_place(r, s, asize, &o->at);
        o->pattern = (uint32_t)rd_var(r);
        break;
    }
    default:
        break;
    }
    return bad ? -1 : 0;
}

static void encode_op(bin_writer *w, const pbc_scenario *s, const pbc_sop *o, int version)
{
    int v3 = version >= 3;
    wr_u8(w, (uint8_t)(1 + o->kind));
    if (pbc_sop_has_alloc(o->kind))
        wr_var(w, o->alloc);
    switch (o->kind) {
    case PBC_SOP_TRANSFER:
    case PBC_SOP_SPECIAL_LOCK:
        if (o->kind == PBC_SOP_TRANSFER)
            wr_var(w, o->split - 1);
        wr_u8(w, (uint8_t)((o->at.segment != 0) | ((o->flags & PBC_SOP_VIRTUAL) ? 2 : 0)));
        if (o->at.segment)
            encode_mem_place(w, s, o->at);
        break;
    case PBC_SOP_FILL:
        encode_mem_place(w, s, o->at);
        wr_u32(w, o->pattern);
        if (v3)
            wr_u8(w, (o->flags & PBC_SOP_VIRTUAL) != 0);
        break;
    case PBC_SOP_READ_PHYSICAL:
    case PBC_SOP_WRITE_PHYSICAL:
        encode_mem_place(w, s, o->at);
        break;
    case PBC_SOP_MAP:
        wr_var(w, seg_index(s, o->at.segment));
        wr_var(w, o->first);
        wr_var(w, o->count - 1);
        wr_var(w, o->at.offset);
        wr_u8(w, (uint8_t)(((o->flags & PBC_SOP_COHERENT) != 0) | ((o->flags & PBC_SOP_ADL) ? 2 : 0)));
        break;
    case PBC_SOP_RENDER_WRITE:
        wr_var(w, o->offset / 4);
        wr_var(w, o->size / 4 - 1);
        wr_u32(w, o->pattern);
        wr_u8(w, (o->flags & PBC_SOP_VIA_APERTURE) ? 1 : (o->flags & PBC_SOP_VIA_VA) ? 2 : 0);
        break;
    case PBC_SOP_RENDER_READ:
        wr_var(w, o->offset);
        wr_var(w, o->size - 1);
        wr_u8(w, (o->flags & PBC_SOP_VIA_APERTURE) ? 1 : (o->flags & PBC_SOP_VIA_VA) ? 2 : 0);
        break;
    case PBC_SOP_VA_MAP:
        wr_var(w, o->first);
        wr_var(w, o->count - 1);
        wr_u8(w, (uint8_t)(((o->flags & PBC_SOP_VA_READ_ONLY) ? BIN_VA_READ_ONLY : 0) |
                           ((o->flags & PBC_SOP_VA_64K) ? BIN_VA_64K : 0)));
        encode_va_place(w, o);
        wr_var(w, o->driver_protection);
        if (version >= 6)
            wr_u8(w, (uint8_t)o->space);
        break;
    case PBC_SOP_NOTIFY:
        wr_var(w, o->pattern);
        break;
    case PBC_SOP_VA_MOVE_TABLES:
        if (version < 5)
            break;
        wr_u8(w, (uint8_t)(((o->flags & PBC_SOP_COPY_USED) ? BIN_COPY_USED : 0) |
                           ((o->flags & PBC_SOP_COPY_STAGED) ? BIN_COPY_STAGED : 0)));
        if (!(o->flags & PBC_SOP_COPY_USED))
            break;
        wr_var(w, o->count - 1);
        if (o->flags & PBC_SOP_COPY_STAGED)
            wr_var(w, o->first);
        break;
    case PBC_SOP_VA_ZERO:
        wr_var(w, o->count - 1);
        wr_u8(w, (uint8_t)(((o->flags & PBC_SOP_VA_NO_ACCESS) ? BIN_VA_NO_ACCESS : 0) |
                           ((o->flags & PBC_SOP_VA_64K) ? BIN_VA_64K : 0)));
        encode_va_place(w, o);
        wr_var(w, o->driver_protection);
        if (version >= 6)
            wr_u8(w, (uint8_t)o->space);
        break;
    case PBC_SOP_GPU_READ:
    case PBC_SOP_GPU_WRITE:
        wr_var(w, o->at.segment - 1);
        if (o->kind == PBC_SOP_GPU_WRITE) {
            wr_var(w, o->at.offset / 4);
            wr_var(w, o->size / 4 - 1);
            wr_u32(w, o->pattern);
        } else {
            wr_var(w, o->at.offset);
            wr_var(w, o->size - 1);
        }
        break;
    case PBC_SOP_DMA:
        wr_var(w, o->dma_size ? o->dma_size - 3 : 0);
        break;
    case PBC_SOP_CREATE:
        wr_u8(w, (uint8_t)pbc_sop_created_where(o));
        if (o->at.segment)
            encode_mem_place(w, s, o->at);
        wr_var(w, o->pattern);
        break;
    default:
        break;
    }
}

/* ---- Whole scenarios ---- */

void pbc_scenario_decode(const uint8_t *data, size_t size, pbc_scenario *s)
{
    pbc_scenario_decode_in(data, size, NULL, 0, s);
}

void pbc_scenario_decode_in(const uint8_t *data, size_t size, const pbc_segment_info *layout, uint32_t n,
                            pbc_scenario *s)
{
    pbc_scenario_init(s);
    pbc_scenario_decode_again(data, size, layout, n, s);
}

void pbc_scenario_decode_again(const uint8_t *data, size_t size, const pbc_segment_info *layout, uint32_t n,
                               pbc_scenario *s)
{
    bin_reader r = {data, size, 0};
    pbc_scenario_clear(s);
    /* Version 2 adds physical layouts (bits 2-3 of an allocation's flags)
     * and the destroy and create records, version 3 the GPU virtual
     * ranges; any other version byte reads as version 1. */
    uint8_t version = rd_u8(&r);
    if (version < 1 || version > 6)
        version = 1;
    int v4 = version >= 4, v3 = version >= 3, has_phys = version >= 2;
    uint32_t types = v4 ? BIN_RECORD_TYPES : v3 ? BIN_RECORD_TYPES_V3 : version == 2 ? BIN_RECORD_TYPES_V2
                                                                                      : BIN_RECORD_TYPES_V1;
    decode_layout(&r, s, n ? layout : NULL, n);
    pbc_residency res;
    int started = 0;
    uint8_t *ranged = NULL; /* for the GPU virtual limit */
    uint64_t va = 0;
    while (r.at < r.n && s->op_count < PBC_MAX_OPS) {
        uint32_t type = rd_u8(&r) % types;
        if (type == BIN_RECORD_ALLOC) {
            decode_alloc(&r, s, !started, has_phys, v4);
            continue;
        }
        if (!started) {
            pbc_residency_init(&res, s); /* placements were checked as they came */
            ranged = pbc_xcalloc(s->alloc_count + 1, 1);
            started = 1;
        }
        pbc_sop o;
        if (decode_op(&r, s, type - 1, &o, version) == 0 && !pbc_residency_check(&res, &o) &&
            pbc_sop_va_fits(s, &o, ranged, &va)) {
            *pbc_scenario_add_op(s) = o;
            pbc_residency_apply(&res, &o);
        }
    }
    if (started)
        pbc_residency_fini(&res);
    free(ranged);
}

size_t pbc_scenario_encode_to(const pbc_scenario *s, uint8_t *out, size_t max)
{
    bin_writer w = {.p = out, .cap = max};
    /* The oldest version that says all it has, so older encodings keep
     * their bytes. */
    uint8_t version = 1;
    for (uint32_t i = 0; i < s->alloc_count; i++)
        if (s->allocs[i].phys != PBC_PHYS_SCATTERED)
            version = 2;
    for (uint32_t i = 0; i < s->op_count; i++) {
        if (s->ops[i].kind > PBC_SOP_DMA && version < 2) /* destroy, create */
            version = 2;
        const pbc_sop *o = &s->ops[i];
        if (o->kind > PBC_SOP_CREATE ||
            ((o->flags & PBC_SOP_VIA_VA) && (o->kind == PBC_SOP_RENDER_WRITE || o->kind == PBC_SOP_RENDER_READ)) ||
            ((o->flags & PBC_SOP_VIRTUAL) && (o->kind == PBC_SOP_TRANSFER || o->kind == PBC_SOP_FILL)) ||
            ((o->flags & PBC_SOP_ADL) && o->kind == PBC_SOP_MAP))
            version = version < 3 ? 3 : version;
        if (o->kind > PBC_SOP_VA_MOVE_TABLES)
            version = version < 4 ? 4 : version;
        if (o->kind == PBC_SOP_VA_MOVE_TABLES && (o->flags & PBC_SOP_COPY_USED))
            version = version < 5 ? 5 : version;
        if (o->space)
            version = 6;
    }
    for (uint32_t i = 0; i < s->alloc_count; i++)
        if (s->allocs[i].flags & PBC_ALLOC_CPU_VISIBLE)
            version = version < 4 ? 4 : version;
    wr_u8(&w, version);
    encode_layout(&w, s);
    for (uint32_t i = 0; i < s->alloc_count; i++)
        encode_alloc(&w, s, &s->allocs[i]);
    for (uint32_t i = 0; i < s->op_count; i++)
        encode_op(&w, s, &s->ops[i], version);
    return w.n;
}

size_t pbc_scenario_encode(const pbc_scenario *s, uint8_t **out)
{
    size_t n = pbc_scenario_encode_to(s, NULL, 0);
    *out = pbc_xmalloc(n);
    return pbc_scenario_encode_to(s, *out, n);
}
