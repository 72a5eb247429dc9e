/*
 * What the operations before a SignalMonitoredFence were to produce, for
 * PB-PAGING-FENCE's judgment of CPU work still pending when the fence is
 * reached (va.c, va_on_fence_value).
 *
 * A packet's bytes belong to the operation whose BuildPagingBuffer call
 * wrote them, but CPU work queued at SubmitCommand belongs to its whole
 * submission: it may serve an operation after the signal as well as one
 * before it. So when a fence is reached with nothing early but such CPU
 * work (every byte rung, every piece run), that work is held and judged
 * by what it changes: each operation's destinations are noted as VidMm
 * builds it (the spec model's micro-ops for its arguments; page-table
 * entries at the GPU's entry size), GPU virtual ones turned physical when
 * the fence is reached (through the tables the work before it left), and
 * around each held entry's run the bytes (or aperture entries) that an
 * operation before the signal writes and that no operation at or after it
 * also writes are digested a page at a time. A digest that changed means the entry carried out part of an
 * earlier operation after the fence said it was done: PB-PAGING-FENCE.
 * Bytes an operation after the signal also writes are given the benefit
 * of the doubt: the entry may be doing that one's work.
 *
 * Comparing at the entry's own start and end leaves out what render work
 * and DMA pieces write between held entries. Nothing here runs unless a
 * fence is reached with CPU work held; noting destinations costs a copy
 * of each operation's ranges, in scenarios that signal the fence only.
 */
#include "vidmm/vm.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "spec.h"

enum { VM_FX_MEM = 0, VM_FX_VIRTUAL, VM_FX_GART };

/* Bytes digested around held CPU work entries in one run, at most. */
#define VM_FX_DIGEST_BUDGET (1ull << 30)

typedef struct vm_fx_note {
    vm *v;
    uint32_t op;
} vm_fx_note;

static void fx_add_as(vm *v, uint32_t op, uint32_t kind, uint32_t segment, uint64_t lo, uint64_t hi, uint32_t loose)
{
    if (hi <= lo)
        return;
    if (v->effect_count) {
        vm_effect *last = &v->effects[v->effect_count - 1];
        if (last->op == op && last->kind == kind && last->segment == segment && last->hi == lo &&
            last->loose == loose) {
            last->hi = hi;
            return;
        }
    }
    vm_effect e = {lo, hi, op, kind, segment, loose};
    PBC_PUSH(v->effects, v->effect_count, v->effect_cap, e);
}

static void fx_add(vm *v, uint32_t op, uint32_t kind, uint32_t segment, uint64_t lo, uint64_t hi)
{
    fx_add_as(v, op, kind, segment, lo, hi, 0);
}

/* Allocation `alloc`'s memory where it is now, as bytes an operation may
 * leave anything in: a segment range, or its system pages. */
static void fx_add_loose_alloc(vm *v, int alloc)
{
    if (alloc < 0 || (uint32_t)alloc >= v->s->alloc_count)
        return;
    const pbc_res_alloc *ra = &v->rs.a[alloc];
    uint64_t size = v->s->allocs[alloc].size;
    if (ra->where == PBC_WHERE_SEGMENT) {
        uint64_t base = pbc_vidmm_segment_base(v, ra->at.segment) + ra->at.offset;
        fx_add_as(v, v->op, VM_FX_MEM, 0, base, base + size, 1);
        return;
    }
    const vm_mdl *m = &v->allocs[alloc].mdl;
    uint64_t first = v->s->allocs[alloc].mdl_offset, pages = pbc_alloc_pages(&v->s->allocs[alloc]);
    if (!m->frames || first + pages > m->count)
        return;
    for (uint64_t i = 0; i < pages; i++) { /* a context is small; contiguous frames merge */
        uint64_t at = pbc_frames_pfn(m->frames, first + i) << PBC_PAGE_SHIFT;
        fx_add_as(v, v->op, VM_FX_MEM, 0, at, at + PBC_PAGE_SIZE, 1);
    }
}

static void fx_sink(void *ctx, const pbc_uop *u)
{
    const vm_fx_note *n = ctx;
    uint32_t kind = u->flags & PBC_UOP_DST_VIRTUAL ? VM_FX_VIRTUAL : VM_FX_MEM;
    switch (u->kind) {
    case PBC_UOP_COPY:
    case PBC_UOP_FILL:
        fx_add(n->v, n->op, kind, 0, u->dst, u->dst + u->size);
        break;
    case PBC_UOP_WRITE_IMM:
        fx_add(n->v, n->op, kind, 0, u->dst, u->dst + u->width);
        break;
    case PBC_UOP_GART_WRITE:
        fx_add(n->v, n->op, VM_FX_GART, u->segment, u->index, u->index + 1);
        break;
    default:
        break; /* a TLB flush changes no memory */
    }
}

void pbc_vidmm_effects_note(vm *v, const DXGKARG_BUILDPAGINGBUFFER *a, int alloc)
{
    uint64_t size = pbc_gpu_pte_size(v->gpu);
    switch (a->Operation) {
    /* What the spec model gives no micro-ops for, but a driver may write:
     * discarded content is undefined (S27), a context's bytes are the
     * driver's, WritePhysical leaves its bytes undefined (S29). Never held
     * against late work; from the signal on, bytes such work may change. */
    case DXGK_OPERATION_DISCARD_CONTENT:
    case DXGK_OPERATION_INIT_CONTEXT_RESOURCE:
    case DXGK_OPERATION_UPDATE_CONTEXT_ALLOCATION:
        fx_add_loose_alloc(v, alloc);
        return;
    case DXGK_OPERATION_WRITE_PHYSICAL: {
        uint64_t at = (uint64_t)a->WritePhysical.PhysicalAddress.QuadPart;
        fx_add_as(v, v->op, VM_FX_MEM, 0, at, at + 8, 1);
        return;
    }
    default:
        break;
    }
    if (a->Operation == DXGK_OPERATION_UPDATE_PAGE_TABLE) {
        /* The entries at the GPU's own entry size (the spec model's
         * micro-ops assume DXGK_PTE's). */
        const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &a->UpdatePageTable;
        uint64_t lo = (uint64_t)u->StartIndex * size, n = (uint64_t)u->NumPageTableEntries * size;
        if (u->UpdateMode == DXGK_PAGETABLEUPDATE_GPU_VIRTUAL)
            fx_add(v, v->op, VM_FX_VIRTUAL, 0, u->PageTableAddress.GpuVirtual + lo,
                   u->PageTableAddress.GpuVirtual + lo + n);
        else if (u->UpdateMode == DXGK_PAGETABLEUPDATE_GPU_PHYSICAL) {
            UINT seg = u->PageTableAddress.GpuPhysical.SegmentId;
            uint64_t table = (seg && seg <= v->s->segment_count ? pbc_vidmm_segment_base(v, seg) : 0) +
                             u->PageTableAddress.GpuPhysical.SegmentOffset;
            fx_add(v, v->op, VM_FX_MEM, 0, table + lo, table + lo + n);
        }
        return;
    }
    if (a->Operation == DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES) {
        for (UINT i = 0; a->CopyPageTableEntries.pRanges && i < a->CopyPageTableEntries.NumRanges; i++) {
            const DXGK_BUILDPAGINGBUFFER_COPY_RANGE *r = &a->CopyPageTableEntries.pRanges[i];
            uint64_t lo = r->DstPageTableAddress + (uint64_t)r->DstStartPteIndex * size;
            fx_add(v, v->op, VM_FX_VIRTUAL, 0, lo, lo + (uint64_t)r->NumPageTableEntries * size);
        }
        return;
    }
    vm_fx_note n = {v, v->op};
    pbc_spec_apply(a, fx_sink, &n); /* an operation the spec does not model writes nothing noted */
}

/* The system or segment page that backs physical page address `page`
 * (through the GART for an aperture segment), 0 when none does. */
static uint64_t fx_backing(vm *v, uint64_t page)
{
    const pbc_gpu *g = v->gpu;
    for (uint32_t i = 0; i < g->segment_count; i++) {
        const pbc_gpu_segment *s = &g->seg[i];
        if (page < s->info.base || page - s->info.base >= s->info.size)
            continue;
        if (s->info.kind == PBC_SEGMENT_MEMORY)
            return page;
        uint64_t index = (page - s->info.base) >> PBC_PAGE_SHIFT;
        pbc_gart_entry e = index < s->gart_pages ? s->gart[index] : (pbc_gart_entry){0, 0, 0};
        pbc_gart_entry kept;
        if (g->gart_lookup && g->gart_lookup(g->observer_ctx, s->info.SegmentId, index, &kept) == 0)
            e = kept;
        return e.flags & PBC_GART_VALID ? e.addr & ~(uint64_t)(PBC_PAGE_SIZE - 1) : 0;
    }
    return page;
}

/* Appends the physical pieces, a page at most each, of effect e. */
static void fx_pieces_of(vm *v, const vm_effect *e, vm_fx_piece **out, uint32_t *count, uint32_t *cap)
{
    if (e->kind == VM_FX_GART) {
        vm_fx_piece p = {e->lo, e->hi, 0, e->op, VM_FX_GART, e->segment};
        PBC_PUSH(*out, *count, *cap, p);
        return;
    }
    for (uint64_t at = e->lo; at < e->hi;) {
        uint64_t end = (at | (PBC_PAGE_SIZE - 1)) + 1;
        if (end > e->hi || end < at)
            end = e->hi;
        uint64_t page = at & ~(uint64_t)(PBC_PAGE_SIZE - 1), phys = 0;
        if (e->kind == VM_FX_VIRTUAL) {
            pbc_va_xlat x;
            const char *why;
            if (v->gpu->va_root && pbc_gpu_va_walk(v->gpu, v->gpu->va_root, page, &x, &why) == 0 && !x.zero)
                phys = fx_backing(v, x.page);
        } else
            phys = fx_backing(v, page);
        if (phys) {
            vm_fx_piece p = {phys + (at - page), phys + (end - page), 0, e->op, VM_FX_MEM, 0};
            PBC_PUSH(*out, *count, *cap, p);
        }
        at = end;
    }
}

static uint64_t fx_digest(vm *v, const vm_fx_piece *p)
{
    if (p->kind == VM_FX_GART) {
        uint64_t h = 0;
        const pbc_gpu_segment *s = pbc_gpu_segment_by_id(v->gpu, p->segment);
        for (uint64_t i = p->lo; s && i < p->hi; i++) {
            pbc_gart_entry e = i < s->gart_pages ? s->gart[i] : (pbc_gart_entry){0, 0, 0};
            pbc_gart_entry kept;
            if (v->gpu->gart_lookup && v->gpu->gart_lookup(v->gpu->observer_ctx, p->segment, i, &kept) == 0)
                e = kept;
            uint64_t words[2] = {e.addr, e.flags};
            h = XXH3_64bits_withSeed(words, sizeof(words), h);
        }
        return h;
    }
    uint8_t bytes[PBC_PAGE_SIZE];
    pbc_mem_read(&v->gpu->mem, p->lo, bytes, p->hi - p->lo); /* a page at most: fx_pieces_of */
    return XXH3_64bits(bytes, (size_t)(p->hi - p->lo));
}

static int fx_key_cmp(const vm_fx_piece *x, const vm_fx_piece *y)
{
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    if (x->segment != y->segment)
        return x->segment < y->segment ? -1 : 1;
    return 0;
}

static int fx_cmp(const void *a, const void *b)
{
    const vm_fx_piece *x = a, *y = b;
    int k = fx_key_cmp(x, y);
    return k ? k : (x->lo > y->lo) - (x->lo < y->lo);
}

/* Cuts what cuts[0, n) cover out of the pieces of the same kind (and
 * segment) in the list: the cuts sorted and merged, each piece's
 * overlaps found by binary search (pieces and cuts may each number a
 * page of a large transfer). Sorts and reorders cuts. */
static void fx_subtract(vm_fx_piece **list, uint32_t *count, uint32_t *cap, vm_fx_piece *cuts, uint32_t n)
{
    if (!n || !*count)
        return;
    qsort(cuts, n, sizeof(*cuts), fx_cmp);
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) { /* merged: disjoint and in order within a key */
        if (m && !fx_key_cmp(&cuts[m - 1], &cuts[i]) && cuts[i].lo <= cuts[m - 1].hi) {
            if (cuts[i].hi > cuts[m - 1].hi)
                cuts[m - 1].hi = cuts[i].hi;
        } else
            cuts[m++] = cuts[i];
    }
    uint32_t pieces = *count;
    for (uint32_t i = 0; i < pieces; i++) {
        vm_fx_piece p = (*list)[i];
        uint32_t lo = 0, hi = m; /* the first cut of p's key not ending at or before p.lo */
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            int k = fx_key_cmp(&cuts[mid], &p);
            if (k < 0 || (k == 0 && cuts[mid].hi <= p.lo))
                lo = mid + 1;
            else
                hi = mid;
        }
        uint64_t at = p.lo;
        (*list)[i].hi = (*list)[i].lo; /* replaced by what is left of it, appended */
        for (uint32_t j = lo; j < m && !fx_key_cmp(&cuts[j], &p) && cuts[j].lo < p.hi && at < p.hi; j++) {
            if (cuts[j].lo > at) {
                vm_fx_piece left = p;
                left.lo = at;
                left.hi = cuts[j].lo;
                PBC_PUSH(*list, *count, *cap, left);
            }
            if (cuts[j].hi > at)
                at = cuts[j].hi;
        }
        if (at < p.hi) {
            vm_fx_piece rest = p;
            rest.lo = at;
            PBC_PUSH(*list, *count, *cap, rest);
        }
    }
    uint32_t kept = 0;
    for (uint32_t i = 0; i < *count; i++)
        if ((*list)[i].hi > (*list)[i].lo)
            (*list)[kept++] = (*list)[i];
    *count = kept;
}

void pbc_vidmm_effects_hold(vm *v, const uint32_t *seqs, uint32_t n, uint32_t signal_op, uint64_t value,
                            const char *by)
{
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = 0;
        while (k < v->fx_held_count && v->fx_held[k] != seqs[i])
            k++;
        if (k == v->fx_held_count)
            PBC_PUSH(v->fx_held, v->fx_held_count, v->fx_held_cap, seqs[i]);
    }
    /* A later signal reached while entries are still held: everything
     * before it must be done now. Its destinations are found now, through
     * the tables as the work before the fence left them (a paging window
     * an operation after the signal maps elsewhere still shows where the
     * earlier one wrote). */
    v->fx_signal_op = signal_op;
    v->fx_value = value;
    v->fx_by = by;
    v->fx_early_count = 0;
    for (uint32_t i = 0; i < v->effect_count; i++)
        if (v->effects[i].op < signal_op && !v->effects[i].loose)
            fx_pieces_of(v, &v->effects[i], &v->fx_early, &v->fx_early_count, &v->fx_early_cap);
    pbc_vidmm_trace(v, "  paging fence 0x%" PRIx64 " reached with %u CPU work entr%s of earlier submissions "
                    "pending: judged by what they change",
                    value, v->fx_held_count, v->fx_held_count == 1 ? "y" : "ies");
}

int pbc_vidmm_effects_before(vm *v, uint32_t seq)
{
    uint32_t k = 0;
    while (k < v->fx_held_count && v->fx_held[k] != seq)
        k++;
    if (k == v->fx_held_count)
        return 0;
    v->fx_held[k] = v->fx_held[--v->fx_held_count];
    v->fx_piece_count = 0;
    if (v->fx_digested >= VM_FX_DIGEST_BUDGET) {
        pbc_vidmm_trace(v, "  CPU work entry %u not judged by its effects: the run's bound is spent", seq);
        return 1;
    }
    if (v->fx_early_count) {
        pbc_grow((void **)&v->fx_pieces, &v->fx_piece_cap, v->fx_early_count, sizeof(*v->fx_pieces));
        memcpy(v->fx_pieces, v->fx_early, (size_t)v->fx_early_count * sizeof(*v->fx_pieces));
        v->fx_piece_count = v->fx_early_count;
    }
    /* What operations from the signal on write, through the tables as
     * they stand now. */
    vm_fx_piece *later = NULL;
    uint32_t later_count = 0, later_cap = 0;
    for (uint32_t i = 0; i < v->effect_count && v->fx_piece_count; i++)
        if (v->effects[i].op >= v->fx_signal_op)
            fx_pieces_of(v, &v->effects[i], &later, &later_count, &later_cap);
    fx_subtract(&v->fx_pieces, &v->fx_piece_count, &v->fx_piece_cap, later, later_count);
    free(later);
    /* Each held entry digests what it must not change twice: bounded per
     * run, so that a legal builder's run stays within the case time
     * (which grows with the bytes it writes, not with entries x bytes).
     * Past the bound, entries are not judged (docs/rules.md). */
    uint64_t bytes = 0;
    for (uint32_t i = 0; i < v->fx_piece_count; i++)
        bytes += v->fx_pieces[i].kind == VM_FX_GART ? 16 * (v->fx_pieces[i].hi - v->fx_pieces[i].lo)
                                                    : v->fx_pieces[i].hi - v->fx_pieces[i].lo;
    if (v->fx_digested + 2 * bytes > VM_FX_DIGEST_BUDGET) {
        pbc_vidmm_trace(v, "  CPU work entry %u not judged by its effects: %" PRIu64 " MiB to digest, past the "
                        "run's bound", seq, bytes >> 20);
        v->fx_piece_count = 0;
        return 1;
    }
    v->fx_digested += 2 * bytes;
    for (uint32_t i = 0; i < v->fx_piece_count; i++)
        v->fx_pieces[i].hash = fx_digest(v, &v->fx_pieces[i]);
    v->fx_value_of_pieces = v->fx_value;
    v->fx_by_of_pieces = v->fx_by;
    return 1;
}

void pbc_vidmm_effects_after(vm *v, uint32_t seq, uint32_t cpu_op)
{
    /* Of what changed, the latest operation's: the work most likely late. */
    const vm_fx_piece *late = NULL;
    for (uint32_t i = 0; i < v->fx_piece_count; i++) {
        const vm_fx_piece *p = &v->fx_pieces[i];
        if ((!late || p->op > late->op) && fx_digest(v, p) != p->hash)
            late = p;
    }
    if (late && !v->stop)
        VM_RULE(v, pbc_rule_paging_fence_late_effect(&v->res->findings, v->op, v->fx_value_of_pieces,
                                                      v->fx_by_of_pieces, late->op, late->kind == VM_FX_GART,
                                                      late->segment, late->lo, late->hi, cpu_op, seq));
    v->fx_piece_count = 0;
}
