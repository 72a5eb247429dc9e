/*
 * The structure-aware mutator. Inputs are binary scenarios; a mutation
 * decodes one, edits its operations (insert a generated legal one, often
 * on the allocation of the operation before it; delete, duplicate,
 * reorder, splice from another input, push one field to a boundary, make
 * an allocation busy just before it is used, repeat an operation on its
 * allocation with a discard or render work between, evict every
 * allocation the segments hold), its allocations (one more, another
 * physical page layout) or its layout, and encodes the result.
 * The decoder re-checks legality, so an edit that makes a later operation
 * illegal only drops that operation.
 *
 * Every mutation is a function of its arguments and the seed. What lives
 * between calls is only memory (struct pbc_mutator): the scenarios it
 * decodes into keep their arrays, so a warm mutator allocates nothing.
 */
#include "mutate.h"

#include <stdlib.h>
#include <string.h>

#include "gpu/gpu.h" /* pbc_gpu_layout_check */
#include "scenario/gen.h"
#include "scenario/scenario.h"
#include "base/util.h"

void pbc_mutator_init(pbc_mutator *m)
{
    const char *mode = getenv("PBC_MUTATOR");
    m->bytes_only = mode && strcmp(mode, "bytes") == 0;
    pbc_scenario_init(&m->s);
    pbc_scenario_init(&m->other);
}

void pbc_mutator_fini(pbc_mutator *m)
{
    pbc_scenario_fini(&m->s);
    pbc_scenario_fini(&m->other);
}

static uint32_t pick(pbc_rng *r, uint32_t n) { return n ? pbc_rng_choose(r, n) : 0; }

/* ---- Boundaries the DDI cares about ---- */

static const uint64_t alloc_sizes[] = {4,          8,          4092,       4096,       4100,
                                       8188,       8192,       12288,      65532,      65536,
                                       65540,      1u << 20,   (1u << 20) + 4,          (16u << 20) + 4096,
                                       64u << 20,  256u << 20};
static const uint32_t dma_sizes[] = {0, 24, 25, 28, 32, 48, 64, 100, 4092, 4096, 4100, 65536, 1u << 20};

/* An offset for `size` bytes in a segment: its start, its end, a page edge
 * (on it or a dword off), or straddling a 4 GiB line of the address space. */
static uint64_t boundary_offset(const pbc_segment_info *g, uint64_t size, pbc_rng *r)
{
    uint64_t room = size <= g->size ? g->size - size : 0, off;
    switch (pick(r, 5)) {
    case 0:
        off = 0;
        break;
    case 1:
        off = room;
        break;
    case 2: {
        uint64_t line = (g->base >> 32) + 1 + pick(r, 2);
        uint64_t cross = (line << 32) - g->base; /* offset of the line inside the segment */
        off = cross - (size / 2 < cross ? size / 2 : cross);
        break;
    }
    case 3:
        off = (uint64_t)pick(r, 64) * 4096 + (pick(r, 2) ? 4 : 0);
        break;
    default:
        off = ((uint64_t)pick(r, 1u << 20) * 4096 - (pick(r, 2) ? 4 : 0));
        break;
    }
    off = off > room ? room : off;
    return off & ~3ull;
}

static const pbc_segment_info *segment(const pbc_scenario *s, uint32_t id)
{
    return id >= 1 && id <= s->segment_count ? &s->segments[id - 1] : NULL;
}

/* Moves a place to a boundary of its segment; system stays system. */
static void tweak_place(const pbc_scenario *s, pbc_place *at, uint64_t size, pbc_rng *r)
{
    const pbc_segment_info *g = segment(s, at->segment);
    if (g)
        at->offset = boundary_offset(g, size, r);
}

static void tweak_alloc(pbc_scenario *s, pbc_salloc *a, pbc_rng *r)
{
    switch (pick(r, 4)) {
    case 0:
        a->size = alloc_sizes[pick(r, PBC_ARRAY_LEN(alloc_sizes))];
        break;
    case 1:
        a->mdl_offset = pick(r, 3) ? pick(r, 3) : PBC_MAX_MDL_OFFSET;
        break;
    case 2:
        a->flags ^= pick(r, 4) ? PBC_ALLOC_NEEDS_IDLE : PBC_ALLOC_PRIMARY;
        break;
    default:
        tweak_place(s, &a->at, a->size, r);
        break;
    }
}

static void tweak_op(pbc_scenario *s, pbc_sop *o, pbc_rng *r)
{
    const pbc_salloc *al = o->alloc < s->alloc_count ? &s->allocs[o->alloc] : NULL;
    uint64_t asize = al ? al->size : 4;
    uint32_t pages = al ? pbc_alloc_pages(al) : 1;
    switch (o->kind) {
    case PBC_SOP_TRANSFER:
        if (pick(r, 2)) { /* unsplit, in two, one sub-transfer per page, or one fewer */
            uint32_t choices[] = {1, 2, pages, pages > 1 ? pages - 1 : 1};
            o->split = choices[pick(r, 4)];
            o->split = o->split > PBC_MAX_SPLIT ? PBC_MAX_SPLIT : o->split;
            break;
        }
        /* fall through */
    case PBC_SOP_SPECIAL_LOCK:
    case PBC_SOP_FILL:
        tweak_place(s, &o->at, asize, r);
        break;
    case PBC_SOP_READ_PHYSICAL:
    case PBC_SOP_WRITE_PHYSICAL:
        tweak_place(s, &o->at, 8, r);
        o->at.offset &= ~7ull;
        break;
    case PBC_SOP_MAP: {
        const pbc_segment_info *g = segment(s, o->at.segment);
        uint64_t ap_pages = g ? g->size / 4096 : 1;
        switch (pick(r, 3)) {
        case 0:
            o->first = pick(r, 2) ? 0 : pages - 1;
            o->count = pages - o->first;
            break;
        case 1:
            switch (pick(r, 3)) {
            case 0:
                o->at.offset = 0;
                break;
            case 1:
                o->at.offset = ap_pages - o->count;
                break;
            default:
                o->at.offset = pbc_gen_past_index16(ap_pages, o->count);
                break;
            }
            break;
        default:
            o->flags ^= PBC_SOP_COHERENT;
            break;
        }
        break;
    }
    case PBC_SOP_RENDER_WRITE:
    case PBC_SOP_RENDER_READ:
        switch (pick(r, 3)) {
        case 0: /* the whole allocation */
            o->offset = 0;
            o->size = asize;
            break;
        case 1: /* from a page edge to the end */
            o->offset = (uint64_t)pick(r, pages) * 4096;
            o->offset = o->offset < asize ? o->offset : 0;
            o->size = asize - o->offset;
            break;
        default: /* the last dword */
            o->offset = asize - 4;
            o->size = 4;
            break;
        }
        break;
    case PBC_SOP_GPU_READ:
    case PBC_SOP_GPU_WRITE: {
        static const uint64_t sizes[] = {4, 4092, 4096, 4100, 8192, 65536};
        o->size = sizes[pick(r, PBC_ARRAY_LEN(sizes))];
        tweak_place(s, &o->at, o->size, r);
        break;
    }
    case PBC_SOP_DMA:
        o->dma_size = dma_sizes[pick(r, PBC_ARRAY_LEN(dma_sizes))];
        break;
    case PBC_SOP_VA_MAP:
    case PBC_SOP_VA_ZERO: /* the same range in another address space (another process's root) */
        o->space = (o->space + 1 + pick(r, PBC_MAX_SPACES - 1)) % PBC_MAX_SPACES;
        break;
    case PBC_SOP_VA_MOVE_TABLES: /* the whole leaf, the entries in use in pieces, or through a scratch table */
        o->flags &= ~(PBC_SOP_COPY_USED | PBC_SOP_COPY_STAGED);
        o->count = o->first = 0;
        if (pick(r, 3) == 0)
            break;
        o->flags |= PBC_SOP_COPY_USED;
        o->count = 1 + pick(r, PBC_MAX_COPY_PIECES);
        if (pick(r, 2)) {
            o->flags |= PBC_SOP_COPY_STAGED;
            o->first = pick(r, 2) ? 0 : pick(r, PBC_PT_ENTRIES); /* packed at the start, or anywhere */
        }
        break;
    case PBC_SOP_CREATE: /* without content, in system memory, or at a segment boundary */
        switch (pick(r, 3)) {
        case 0:
            o->flags |= PBC_SOP_NO_CONTENT;
            break;
        case 1:
            o->flags &= ~PBC_SOP_NO_CONTENT;
            o->at = (pbc_place){0, 0};
            break;
        default:
            for (uint32_t i = 0; i < s->segment_count && !o->at.segment; i++)
                if (s->segments[i].kind == PBC_SEGMENT_MEMORY)
                    o->at.segment = s->segments[i].SegmentId;
            o->flags &= ~PBC_SOP_NO_CONTENT;
            tweak_place(s, &o->at, asize, r);
            break;
        }
        break;
    default:
        break;
    }
}

/* ---- Layouts ---- */

/* Paging buffers moved into a memory segment that can hold their window
 * (S40), or back out of it: a builder's ring ranges and patching of
 * buffers that live in a segment are judged only then. The generator
 * leaves them out of segments, so without this only byte mutations of an
 * explicit layout put them there. */
static int mutate_paging_place(pbc_scenario *s, pbc_rng *r)
{
    uint32_t ids[PBC_MAX_SEGMENTS], n = 0;
    for (uint32_t i = 0; i < s->segment_count; i++)
        if (s->segments[i].kind == PBC_SEGMENT_MEMORY && s->segments[i].size > PBC_PAGING_WINDOW)
            ids[n++] = i + 1;
    uint32_t now = s->paging_segment;
    s->paging_segment = n && (!now || pick(r, 2)) ? ids[pick(r, n)] : 0;
    return s->paging_segment != now;
}

static int insert_generated_on(pbc_scenario *s, uint32_t pos, int on, int kind, pbc_rng *r);

/* After aperture g was resized, one map into it moved to its far pages:
 * page 65,536, the first a 16-bit GART index cannot name, where it has
 * room there, else its end; with none, a map generated there at the end
 * of the scenario (where nothing after it meets the allocation mapped). A
 * size alone changes nothing a builder does; the pages a map then
 * reaches do. */
static void maps_to_far_pages(pbc_scenario *s, const pbc_segment_info *g, pbc_rng *r)
{
    uint64_t ap_pages = g->size / 4096;
    uint32_t maps = 0;
    for (uint32_t i = 0; i < s->op_count; i++)
        maps += s->ops[i].kind == PBC_SOP_MAP && s->ops[i].at.segment == g->SegmentId;
    for (uint32_t i = 0, j = pick(r, maps); maps && i < s->op_count; i++) {
        pbc_sop *o = &s->ops[i];
        if (o->kind == PBC_SOP_MAP && o->at.segment == g->SegmentId && j-- == 0) {
            o->at.offset = pbc_gen_past_index16(ap_pages, o->count);
            return;
        }
    }
    if (!s->alloc_count)
        return;
    uint32_t pos = s->op_count, first = pick(r, s->alloc_count);
    for (uint32_t k = 0; k < s->alloc_count; k++) { /* the first allocation a map of which is legal there */
        if (insert_generated_on(s, pos, (int)((first + k) % s->alloc_count), PBC_SOP_MAP, r))
            continue;
        if (s->ops[pos].kind == PBC_SOP_MAP) {
            s->ops[pos].at.segment = g->SegmentId; /* the decoder drops it if that is illegal there */
            s->ops[pos].at.offset = pbc_gen_past_index16(ap_pages, s->ops[pos].count);
        }
        return;
    }
}

/* A new layout (gen.c), or one segment pushed to a boundary: an aperture
 * of one page, 4 GiB, or 2^16 pages or 64 KiB more (the pages a 16-bit GART
 * index names, and past them), a memory segment of 1 MiB, 4 GiB or 64 GiB, or a
 * segment moved to end on a 4 GiB line; or the paging buffers moved. A
 * change the GPU model cannot build is undone. Placements that no longer
 * fit are folded into the new layout when the result is decoded. */
static int mutate_layout(pbc_scenario *s, pbc_rng *r)
{
    if (s->segment_count && !pick(r, 4))
        return mutate_paging_place(s, r);
    if (!s->segment_count || pick(r, 2)) {
        pbc_gen_layout(s, pbc_rng_choose, r);
        return 1;
    }
    static const uint64_t ap_sizes[] = {4096, 4ull << 30, 256ull << 20, (256ull << 20) + (64ull << 10)};
    static const uint64_t mem_sizes[] = {1ull << 20, 4ull << 30, 64ull << 30, (4ull << 30) + 4096};
    pbc_segment_info *g = &s->segments[pick(r, s->segment_count)], old = *g;
    if (pick(r, 2))
        g->size = g->kind == PBC_SEGMENT_APERTURE ? ap_sizes[pick(r, PBC_ARRAY_LEN(ap_sizes))]
                                                  : mem_sizes[pick(r, PBC_ARRAY_LEN(mem_sizes))];
    else /* end on the 4 GiB line above its current end */
        g->base = (((g->base + g->size) | ((4ull << 30) - 1)) + 1) - g->size;
    if (pbc_gpu_layout_check(s->segments, s->segment_count)) {
        *g = old;
        return 0;
    }
    if (g->kind == PBC_SEGMENT_APERTURE && g->size != old.size)
        maps_to_far_pages(s, g, r);
    return 1;
}

/* ---- Operation lists ---- */

static void insert_at(pbc_scenario *s, uint32_t pos, const pbc_sop *o)
{
    pbc_scenario_add_op(s);
    memmove(&s->ops[pos + 1], &s->ops[pos], (s->op_count - 1 - pos) * sizeof(*o));
    s->ops[pos] = *o;
}

static void delete_run(pbc_scenario *s, uint32_t pos, uint32_t n)
{
    n = n < s->op_count - pos ? n : s->op_count - pos;
    memmove(&s->ops[pos], &s->ops[pos + n], (s->op_count - pos - n) * sizeof(s->ops[0]));
    s->op_count -= n;
}

static int has_memory_segment(const pbc_scenario *s)
{
    for (uint32_t i = 0; i < s->segment_count; i++)
        if (s->segments[i].kind == PBC_SEGMENT_MEMORY)
            return 1;
    return 0;
}

/* A generated operation that is legal after ops[0, pos), on allocation
 * `on` when it is not -1, and then of kind `kind` when that is not -1. */
static int insert_generated_on(pbc_scenario *s, uint32_t pos, int on, int kind, pbc_rng *r)
{
    if (!s->alloc_count || !has_memory_segment(s) || s->op_count >= PBC_MAX_OPS)
        return -1;
    pbc_residency res;
    if (pbc_residency_init(&res, s)) {
        pbc_residency_fini(&res);
        return -1;
    }
    int last = -1; /* the allocation the operation before names */
    for (uint32_t i = 0; i < pos; i++) {
        pbc_residency_apply(&res, &s->ops[i]);
        if (pbc_sop_has_alloc(s->ops[i].kind))
            last = (int)s->ops[i].alloc;
    }
    int rc = -1;
    for (int tries = 0; tries < 16 && rc; tries++) {
        pbc_sop o;
        /* Half the time on that allocation: a story for state a builder
         * keeps between operations. */
        if (on >= 0 && kind >= 0)
            pbc_gen_op_kind_on(s, &res, (uint32_t)kind, (uint32_t)on, &o, pbc_rng_choose, r);
        else if (on >= 0)
            pbc_gen_op_on(s, &res, (uint32_t)on, &o, pbc_rng_choose, r);
        else if (last >= 0 && pick(r, 2))
            pbc_gen_op_on(s, &res, (uint32_t)last, &o, pbc_rng_choose, r);
        else
            pbc_gen_op(s, &res, &o, pbc_rng_choose, r);
        if (!pbc_residency_check(&res, &o)) {
            insert_at(s, pos, &o);
            rc = 0;
        }
    }
    pbc_residency_fini(&res);
    return rc;
}

static int insert_generated(pbc_scenario *s, uint32_t pos, pbc_rng *r)
{
    return insert_generated_on(s, pos, -1, -1, r);
}

/* Render work writing allocation `alloc` from byte `offset`, at most `most`
 * bytes of it, with a pattern of its own: what makes the allocation busy. */
static pbc_sop render_write(const pbc_scenario *s, uint32_t alloc, uint64_t offset, uint64_t most, pbc_rng *r)
{
    uint64_t left = s->allocs[alloc].size - offset;
    pbc_sop w = {.kind = PBC_SOP_RENDER_WRITE, .alloc = alloc, .split = 1, .offset = offset};
    w.size = left < most ? left : most;
    w.pattern = 0xB0B00000u | pick(r, 1u << 16);
    return w;
}

/* ops[pos] again on its allocation right after it, with a discard,
 * render work, or render work and a discard on the allocation between the
 * two three times in four, then a generated operation on the allocation:
 * half the time a move (a transfer), which carries whatever the story
 * left in it to where it can be compared. A builder that remembers its
 * last Fill or a discard (mutant-same-fill, mutant-discard-mark) is wrong
 * only in such a story: the same fill again after render work and a
 * discard (a Fill needs its allocation not resident), a fill after a
 * discard, and a move after that carries what it laid. Insertions alone
 * need three or four rare choices in a row. */
static int repeat_on_alloc(pbc_scenario *s, uint32_t pos, pbc_rng *r)
{
    const pbc_sop at = s->ops[pos];
    if (!pbc_sop_has_alloc(at.kind) || at.alloc >= s->alloc_count || s->op_count + 4 > PBC_MAX_OPS)
        return -1;
    uint32_t next = pos + 1, between = pick(r, 4);
    if (between == 1 || between == 2) {
        uint64_t pages = (s->allocs[at.alloc].size - 1) / 4096;
        uint64_t offset = 4096 * pick(r, (uint32_t)(pages < 16 ? pages : 16) + 1);
        pbc_sop w = render_write(s, at.alloc, offset, 8192, r);
        insert_at(s, next++, &w);
    }
    if (between == 0 || between == 1) {
        pbc_sop d = {.kind = PBC_SOP_DISCARD, .alloc = at.alloc, .split = 1};
        insert_at(s, next++, &d);
    }
    insert_at(s, next++, &at);
    /* The decoder drops what is illegal there. */
    insert_generated_on(s, next, (int)at.alloc, pick(r, 2) ? PBC_SOP_TRANSFER : -1, r);
    return 0;
}

/* Render work writing the allocation that ops[pos] uses, just before it, so
 * the builder meets a busy allocation there. */
static int make_busy(pbc_scenario *s, uint32_t pos, pbc_rng *r)
{
    const pbc_sop *at = &s->ops[pos];
    if (!pbc_sop_has_alloc(at->kind) || at->alloc >= s->alloc_count || s->op_count >= PBC_MAX_OPS)
        return -1;
    pbc_sop w = render_write(s, at->alloc, 0, UINT64_MAX, r);
    insert_at(s, pos, &w);
    return 0;
}

static int moves_in(const pbc_sop *o) { return o->kind == PBC_SOP_TRANSFER && o->at.segment; }

/* Where memory pressure strikes: half the time right after a transfer
 * into a segment (what just came in is evicted too, its move maybe not
 * run yet), else anywhere. */
static uint32_t pressure_point(const pbc_scenario *s, pbc_rng *r)
{
    uint32_t n = s->op_count, k = 0;
    for (uint32_t i = 0; i < n; i++)
        k += moves_in(&s->ops[i]);
    if (!k || pick(r, 2))
        return pick(r, n + 1);
    for (uint32_t i = 0, j = pick(r, k); i < n; i++)
        if (moves_in(&s->ops[i]) && j-- == 0)
            return i + 1;
    return n;
}

/* VidMm under memory pressure (a trim, or a large allocation arriving):
 * every allocation the segments hold after ops[0, pos) evicted there, one
 * after another in a random order, with render work on the first just
 * before half the time. An eviction then meets ALLOCATION_BUSY while paging work
 * on the others may still be queued on its own engine: a builder that
 * takes one AllocationIsIdle for the whole GPU's (mutant-idle-sticks) is
 * wrong only there. */
static int evict_all(pbc_scenario *s, uint32_t pos, pbc_rng *r)
{
    pbc_residency res;
    if (pbc_residency_init(&res, s)) {
        pbc_residency_fini(&res);
        return -1;
    }
    for (uint32_t i = 0; i < pos; i++)
        pbc_residency_apply(&res, &s->ops[i]);
    uint32_t order[PBC_MAX_ALLOCS], n = 0;
    for (uint32_t i = 0; i < s->alloc_count && n < PBC_MAX_ALLOCS; i++)
        if (!res.a[i].destroyed && res.a[i].where == PBC_WHERE_SEGMENT)
            order[n++] = i;
    for (uint32_t i = n; i > 1; i--) { /* a random order */
        uint32_t j = pick(r, i), t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
    int rc = -1;
    for (uint32_t k = 0; k < n && s->op_count + 2 <= PBC_MAX_OPS; k++) {
        pbc_sop t = {.kind = PBC_SOP_TRANSFER, .alloc = order[k], .split = 1}; /* at segment 0: to system */
        if (pbc_residency_check(&res, &t))
            continue;
        if (rc && pick(r, 2)) { /* before the first eviction */
            pbc_sop w = render_write(s, order[k], 0, 8192, r);
            if (!pbc_residency_check(&res, &w)) {
                insert_at(s, pos++, &w);
                pbc_residency_apply(&res, &w);
            }
        }
        insert_at(s, pos++, &t);
        pbc_residency_apply(&res, &t);
        rc = 0;
    }
    pbc_residency_fini(&res);
    return rc;
}

/* Appends ops[from, from+n) of b, with allocation and segment references
 * folded into a's ranges. */
static void splice_from(pbc_scenario *a, const pbc_scenario *b, uint32_t pos, uint32_t from,
                        uint32_t n)
{
    for (uint32_t i = 0; i < n && from + i < b->op_count && a->op_count < PBC_MAX_OPS; i++) {
        pbc_sop o = b->ops[from + i];
        o.alloc = a->alloc_count ? o.alloc % a->alloc_count : 0;
        if (o.at.segment > a->segment_count)
            o.at.segment = a->segment_count;
        insert_at(a, pos + i, &o);
    }
}

/* Encodes s into out[0, max); drops trailing operations until it fits.
 * Returns 0 when even no operations do not fit. */
static size_t encode_fitting(pbc_scenario *s, uint8_t *out, size_t max)
{
    size_t n;
    while ((n = pbc_scenario_encode_to(s, out, max)) > max) {
        if (s->op_count == 0)
            return 0;
        s->op_count -= 1 + (s->op_count - 1) / 8;
    }
    return n;
}

int pbc_mutate_scenario(pbc_scenario *s, pbc_mutation m, const pbc_scenario *other, pbc_rng *r)
{
    uint32_t n = s->op_count;
    switch (m) {
    case PBC_MUT_INSERT:
        return insert_generated(s, pick(r, n + 1), r) == 0;
    case PBC_MUT_DELETE:
        if (!n)
            return 0;
        delete_run(s, pick(r, n), 1 + (pick(r, 4) ? 0 : pick(r, 8)));
        return 1;
    case PBC_MUT_DUPLICATE:
        if (!n || n >= PBC_MAX_OPS)
            return 0;
        {
            pbc_sop o = s->ops[pick(r, n)];
            insert_at(s, pick(r, n + 1), &o);
        }
        return 1;
    case PBC_MUT_REORDER:
        if (n < 2)
            return 0;
        {
            uint32_t from = pick(r, n);
            pbc_sop o = s->ops[from];
            delete_run(s, from, 1);
            insert_at(s, pick(r, n), &o);
        }
        return 1;
    case PBC_MUT_SPLICE: {
        if (!other || !other->op_count || n >= PBC_MAX_OPS)
            return 0;
        uint32_t from = pick(r, other->op_count);
        splice_from(s, other, pick(r, n + 1), from, 1 + pick(r, other->op_count - from));
        return 1;
    }
    case PBC_MUT_TWEAK:
        if (n && pick(r, 4)) {
            tweak_op(s, &s->ops[pick(r, n)], r);
            return 1;
        }
        if (!s->alloc_count)
            return 0;
        tweak_alloc(s, &s->allocs[pick(r, s->alloc_count)], r);
        return 1;
    case PBC_MUT_BUSY:
        return n && make_busy(s, pick(r, n), r) == 0;
    case PBC_MUT_EVICT:
        return evict_all(s, pressure_point(s, r), r) == 0;
    case PBC_MUT_ALLOC:
        if (s->alloc_count >= 8 || !has_memory_segment(s))
            return 0;
        pbc_gen_alloc(s, pbc_rng_choose, r);
        return 1;
    case PBC_MUT_LAYOUT:
        return mutate_layout(s, r);
    case PBC_MUT_AGAIN:
        return n && repeat_on_alloc(s, pick(r, n), r) == 0;
    case PBC_MUT_PHYS: {
        if (!s->alloc_count)
            return 0;
        pbc_salloc *a = &s->allocs[pick(r, s->alloc_count)];
        a->phys = (a->phys + 1 + pick(r, PBC_PHYS_COUNT - 1)) % PBC_PHYS_COUNT;
        return 1;
    }
    default:
        return 0;
    }
}

/* Weights of the mutations: insertions and tweaks do most of the work. */
static pbc_mutation choose_mutation(const pbc_scenario *s, pbc_rng *r)
{
    static const uint8_t weight[PBC_MUT_COUNT] = {
        [PBC_MUT_INSERT] = 26, [PBC_MUT_DELETE] = 10, [PBC_MUT_DUPLICATE] = 8,
        [PBC_MUT_REORDER] = 8, [PBC_MUT_SPLICE] = 8,  [PBC_MUT_TWEAK] = 22,
        [PBC_MUT_BUSY] = 8,    [PBC_MUT_ALLOC] = 4,   [PBC_MUT_LAYOUT] = 3,
        [PBC_MUT_PHYS] = 4,    [PBC_MUT_AGAIN] = 4,   [PBC_MUT_EVICT] = 4,
        [PBC_MUT_BYTES] = 6,
    };
    if (!s->alloc_count)
        return PBC_MUT_ALLOC;
    uint32_t total = 0, x;
    for (int i = 0; i < PBC_MUT_COUNT; i++)
        total += weight[i];
    x = pick(r, total);
    for (int i = 0; i < PBC_MUT_COUNT; i++) {
        if (x < weight[i])
            return (pbc_mutation)i;
        x -= weight[i];
    }
    return PBC_MUT_BYTES;
}

size_t pbc_mutate(pbc_mutator *m, uint8_t *data, size_t size, size_t max_size, const uint8_t *other,
                  size_t other_size, uint32_t seed, pbc_byte_mutator bytes)
{
    if (m->bytes_only)
        return bytes(data, size, max_size);
    pbc_rng r = {seed * 0x9E3779B97F4A7C15ull + 1};
    pbc_scenario *s = &m->s, *o = &m->other;
    pbc_scenario_decode_again(data, size, NULL, 0, s);
    pbc_scenario_decode_again(other, other ? other_size : 0, NULL, 0, o);
    size_t out = 0;
    for (int attempt = 0; attempt < 4 && !out; attempt++) {
        pbc_mutation kind = choose_mutation(s, &r);
        if (kind == PBC_MUT_BYTES)
            break;
        /* Up to three stacked edits, like the engines' own havoc stages. */
        int changed = pbc_mutate_scenario(s, kind, o, &r);
        for (uint32_t more = pick(&r, 3); changed && more; more--)
            pbc_mutate_scenario(s, choose_mutation(s, &r), o, &r);
        if (changed)
            out = encode_fitting(s, data, max_size);
    }
    return out ? out : bytes(data, size, max_size);
}

size_t pbc_crossover(pbc_mutator *m, const uint8_t *a, size_t a_size, const uint8_t *b, size_t b_size,
                     uint8_t *out, size_t max_size, uint32_t seed)
{
    pbc_rng r = {seed * 0xD1B54A32D192ED03ull + 7};
    pbc_scenario *x = &m->s, *y = &m->other;
    pbc_scenario_decode_again(a, a_size, NULL, 0, x);
    pbc_scenario_decode_again(b, b_size, NULL, 0, y);
    uint32_t keep = pick(&r, x->op_count + 1);
    x->op_count = keep;
    if (y->op_count) {
        uint32_t from = pick(&r, y->op_count);
        splice_from(x, y, keep, from, y->op_count - from);
    }
    return encode_fitting(x, out, max_size);
}
