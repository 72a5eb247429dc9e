/*
 * Scenario operations as Windows issues them: DXGKARG_BUILDPAGINGBUFFER
 * arguments per operation (transfers split into sub-transfers, MDLs,
 * segment addresses, aperture ranges), and synthetic render work that
 * keeps allocations busy on the GPU queue.
 */
#include "vidmm/vm.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>


/* ---- Scenario operations ---- */

static void vm_set_side(vm *v, uint32_t index, const pbc_res_alloc *where, UINT *segment_id,
                        LARGE_INTEGER *address, MDL **mdl)
{
    if (where->where == PBC_WHERE_SEGMENT) {
        *segment_id = where->at.segment;
        address->QuadPart = (LONGLONG)(pbc_vidmm_segment_base(v, where->at.segment) + where->at.offset);
    } else {
        *segment_id = 0;
        *mdl = v->allocs[index].mdl.mdl; /* S12 */
    }
}

/* A CPU view of the allocation's own pages (a partial MDL from its first
 * page, kept in *out), mapped as the kernel maps one for VidMm; NULL in
 * spec mode, where no builder is handed it, and when the shim cannot map
 * one (as the kernel's mapping can fail). */
static void *vm_cpu_view(vm *v, uint32_t index, vm_mdl *out)
{
    const pbc_salloc *al = &v->s->allocs[index];
    if (v->opt.mode != PBC_MODE_TARGET || !v->allocs[index].mdl.mdl)
        return NULL;
    pbc_vidmm_mdl_partial(index, &v->allocs[index].mdl, al->mdl_offset, pbc_alloc_pages(al), out);
    pbc_shim_enter();
    void *view = MmGetSystemAddressForMdlSafe(out->mdl, NormalPagePriority);
    pbc_shim_leave();
    return view;
}

/* The view goes (what the CPU wrote through it reaches the model first);
 * its MDL lives on until the run ends, like every MDL VidMm handed out. */
void pbc_vidmm_cpu_view_release(vm *v, vm_mdl *m, void **view)
{
    if (*view) {
        pbc_shim_enter();
        MmUnmapLockedPages(*view, m->mdl);
        pbc_shim_leave();
    }
    *view = NULL;
    pbc_vidmm_mdl_retire(v, m);
}

/* Masks physically contiguous pieces of an allocation's bytes as one range
 * each: a context allocation in scattered system pages still costs one
 * mask a page. */
typedef struct vm_mask_ctx {
    uint64_t lo, hi;
    const char *reason;
} vm_mask_ctx;

static void vm_mask_piece(vm *v, uint64_t addr, uint64_t n, uint64_t at, void *ctx)
{
    vm_mask_ctx *m = ctx;
    (void)at;
    if (m->hi > m->lo && m->hi == addr) {
        m->hi += n;
        return;
    }
    if (m->hi > m->lo)
        pbc_vidmm_mask_add(v, m->lo, m->hi, m->reason);
    m->lo = addr;
    m->hi = addr + n;
}

/* The allocation's driver-defined bytes, where `where` says it lives, are
 * not compared: the driver's content for them is its own business. */
static void vm_mask_driver_bytes(vm *v, uint32_t index, const pbc_res_alloc *where)
{
    const vm_alloc *va = &v->allocs[index];
    if (va->driver_hi <= va->driver_lo || where->where == PBC_WHERE_NONE)
        return;
    vm_mask_ctx m = {0, 0, "a context allocation's content is the driver's (InitContextResource, "
                           "UpdateContextAllocation)"};
    pbc_vidmm_alloc_pieces_at(v, index, where, va->driver_lo, va->driver_hi - va->driver_lo, vm_mask_piece, &m);
    if (m.hi > m.lo)
        pbc_vidmm_mask_add(v, m.lo, m.hi, m.reason);
}

static void vm_transfer(vm *v, const pbc_sop *op)
{
    const pbc_salloc *al = &v->s->allocs[op->alloc];
    pbc_res_alloc src = v->rs.a[op->alloc];
    pbc_res_alloc dst = {.where = op->at.segment ? PBC_WHERE_SEGMENT : PBC_WHERE_SYSTEM, .at = op->at};
    vm_alloc *va = &v->allocs[op->alloc];
    va->old_mdl = va->mdl; /* the source's pages, when it is in system memory */
    memset(&va->mdl, 0, sizeof(va->mdl));
    if (dst.where == PBC_WHERE_SYSTEM)
        pbc_vidmm_mdl_create(v, op->alloc, &va->mdl);
    /* SpecialLockTransfer has no MdlOffset: its MDL side is a partial MDL
     * that starts at the allocation's first page. */
    MDL *partial = NULL;
    if (op->kind == PBC_SOP_SPECIAL_LOCK && al->mdl_offset &&
        (src.where == PBC_WHERE_SYSTEM || dst.where == PBC_WHERE_SYSTEM)) {
        pbc_vidmm_mdl_partial(op->alloc, src.where == PBC_WHERE_SYSTEM ? &va->old_mdl : &va->mdl, al->mdl_offset,
                           pbc_alloc_pages(al), &v->partial_mdl);
        partial = v->partial_mdl.mdl;
    }
    MDL *old_mdl = va->old_mdl.mdl;
    if (dst.where == PBC_WHERE_SEGMENT) {
        uint64_t at = pbc_vidmm_segment_base(v, dst.at.segment) + dst.at.offset;
        pbc_vidmm_claim_range(v, op->alloc, at, at + al->size);
    }
    v->partial_alloc = op->alloc;
    v->partial_first = al->mdl_offset;
    uint32_t pages = pbc_alloc_pages(al);
    if (op->flags & PBC_SOP_VIRTUAL)
        pbc_vidmm_transfer_virtual(v, op, &src, &dst);
    for (uint32_t k = 0; k < op->split && !v->stop && !(op->flags & PBC_SOP_VIRTUAL); k++) {
        /* Sub-transfer boundaries are page aligned, so an MDL side starts
         * on a page (S14); they run in order, never interleaved (S17). */
        uint64_t first = (uint64_t)pages * k / op->split * PBC_PAGE_SIZE;
        uint64_t last = k + 1 == op->split ? al->size : (uint64_t)pages * (k + 1) / op->split * PBC_PAGE_SIZE;
        DXGKARG_BUILDPAGINGBUFFER a;
        memset(&a, 0, sizeof(a));
        a.Operation = op->kind == PBC_SOP_TRANSFER ? DXGK_OPERATION_TRANSFER : DXGK_OPERATION_SPECIAL_LOCK_TRANSFER;
        /* SpecialLockTransfer shares Transfer's layout up to Flags. */
        a.Transfer.hAllocation = v->allocs[op->alloc].h;
        a.Transfer.TransferOffset = (UINT)first; /* same on every call (S13) */
        a.Transfer.TransferSize = last - first;
        vm_set_side(v, op->alloc, &src, &a.Transfer.Source.SegmentId, &a.Transfer.Source.SegmentAddress,
                    &a.Transfer.Source.pMdl);
        if (src.where == PBC_WHERE_SYSTEM)
            a.Transfer.Source.pMdl = partial ? partial : old_mdl;
        else if (v->opt.experiment & PBC_VIDMM_EXP_SOURCE_PAGE_OFF)
            a.Transfer.Source.SegmentAddress.QuadPart += PBC_PAGE_SIZE;
        vm_set_side(v, op->alloc, &dst, &a.Transfer.Destination.SegmentId,
                    &a.Transfer.Destination.SegmentAddress, &a.Transfer.Destination.pMdl);
        if (dst.where == PBC_WHERE_SYSTEM && partial)
            a.Transfer.Destination.pMdl = partial;
        a.Transfer.Flags.TransferStart = k == 0;              /* S15 */
        a.Transfer.Flags.TransferEnd = k + 1 == op->split;
        if (op->kind == PBC_SOP_TRANSFER)
            a.Transfer.MdlOffset = al->mdl_offset + (UINT)(first / PBC_PAGE_SIZE); /* S14 */
        v->sub = k;
        v->pass = 0;
        pbc_vidmm_trace(v, " sub-transfer %u/%u: bytes [0x%" PRIx64 ", 0x%" PRIx64 ")", k + 1, op->split, first, last);
        pbc_vidmm_paging_op(v, &a, (int)op->alloc, &a.Transfer.Flags.Value, 0x4u /* AllocationIsIdle */);
    }
    if (!v->stop)
        pbc_vidmm_va_moved(v, op->alloc, &dst); /* in the same paging buffer, then a flush */
    if (dst.where == PBC_WHERE_SEGMENT) {
        uint64_t base = pbc_vidmm_segment_base(v, dst.at.segment) + dst.at.offset;
        pbc_vidmm_mask_clear(v, base, base + al->size);
    }
    vm_mask_driver_bytes(v, op->alloc, &dst); /* a context's bytes stay the driver's where they go */
    /* The source's MDL and the partial one leave the allocation, but live
     * until the run ends: a builder may read them when its buffers execute
     * (a worker copying with the CPU). The pages keep their content (the
     * system pool is observable). */
    pbc_vidmm_mdl_retire(v, &v->partial_mdl);
    pbc_vidmm_mdl_retire(v, &va->old_mdl);
}

static void vm_fill(vm *v, const pbc_sop *op)
{
    const pbc_salloc *al = &v->s->allocs[op->alloc];
    uint64_t base = pbc_vidmm_segment_base(v, op->at.segment) + op->at.offset;
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof(a));
    a.Operation = DXGK_OPERATION_FILL;
    a.Fill.hAllocation = v->allocs[op->alloc].h;
    a.Fill.FillSize = al->size;
    a.Fill.FillPattern = op->pattern;
    a.Fill.Destination.SegmentId = op->at.segment; /* memory segments only (S26) */
    a.Fill.Destination.SegmentAddress.QuadPart = (LONGLONG)base;
    pbc_vidmm_claim_range(v, op->alloc, base, base + al->size);
    if (op->flags & PBC_SOP_VIRTUAL)
        pbc_vidmm_fill_virtual(v, op);
    else
        pbc_vidmm_paging_op(v, &a, (int)op->alloc, NULL, 0);
    pbc_vidmm_mask_clear(v, base, base + al->size);
    v->allocs[op->alloc].driver_lo = v->allocs[op->alloc].driver_hi = 0; /* Fill sets it all (S25) */
}

static void vm_discard(vm *v, const pbc_sop *op)
{
    const pbc_res_alloc *ra = &v->rs.a[op->alloc];
    uint64_t base = pbc_vidmm_segment_base(v, ra->at.segment) + ra->at.offset;
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof(a));
    a.Operation = DXGK_OPERATION_DISCARD_CONTENT;
    a.DiscardContent.hAllocation = v->allocs[op->alloc].h;
    a.DiscardContent.SegmentId = ra->at.segment;
    a.DiscardContent.SegmentAddress.QuadPart = (LONGLONG)base;
    pbc_vidmm_paging_op(v, &a, (int)op->alloc, &a.DiscardContent.Flags.Value, 0x1u);
    pbc_vidmm_mask_add(v, base, base + v->s->allocs[op->alloc].size, "discarded content is undefined (S27)");
}

static void vm_physical(vm *v, const pbc_sop *op)
{
    uint64_t addr = pbc_vidmm_segment_base(v, op->at.segment) + op->at.offset;
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof(a));
    if (op->kind == PBC_SOP_READ_PHYSICAL) {
        a.Operation = DXGK_OPERATION_READ_PHYSICAL;
        a.ReadPhysical.SegmentId = op->at.segment;
        a.ReadPhysical.PhysicalAddress.QuadPart = (LONGLONG)addr;
    } else {
        a.Operation = DXGK_OPERATION_WRITE_PHYSICAL;
        a.WritePhysical.SegmentId = op->at.segment;
        a.WritePhysical.PhysicalAddress.QuadPart = (LONGLONG)addr;
        pbc_vidmm_mask_add(v, addr, addr + 8, "WritePhysical leaves 1-8 bytes with an irrelevant value (S29)");
    }
    vm_physical_op p = {v->op, op->kind == PBC_SOP_WRITE_PHYSICAL, op->at.segment, addr, 0, 0};
    p.unwatched = v->opt.mode == PBC_MODE_TARGET && pbc_gpu_watch(v->gpu, addr) != 0;
    v->physical_watch = &p;
    pbc_vidmm_paging_op(v, &a, -1, NULL, 0);
    v->physical_watch = NULL;
    PBC_PUSH(v->physical, v->physical_count, v->physical_cap, p);
}

static void vm_wait_aperture_range(vm *v, UINT segment, uint64_t first, uint64_t count);

/* MapApertureSegment2: the same pages described by an ADL over the
 * allocation's MDL pages (its foreign pages first, so AdlOffset is
 * MdlOffset's twin): contiguous when the frames are in a row, else a
 * page array, VidMm's own copy. */
static void vm_map_adl(vm *v, const pbc_sop *op, const DXGKARG_BUILDPAGINGBUFFER *m)
{
    const vm_mdl *mdl = &v->allocs[op->alloc].mdl;
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof(a));
    a.Operation = DXGK_OPERATION_MAP_APERTURE_SEGMENT2;
    a.MapApertureSegment2.hDevice = m->MapApertureSegment.hDevice;
    a.MapApertureSegment2.hAllocation = m->MapApertureSegment.hAllocation;
    a.MapApertureSegment2.SegmentId = m->MapApertureSegment.SegmentId;
    a.MapApertureSegment2.OffsetInPages = m->MapApertureSegment.OffsetInPages;
    a.MapApertureSegment2.NumberOfPages = m->MapApertureSegment.NumberOfPages;
    a.MapApertureSegment2.Flags = m->MapApertureSegment.Flags;
    a.MapApertureSegment2.AdlOffset = m->MapApertureSegment.MdlOffset;
    int contiguous = pbc_frames_contiguous(mdl->frames);
    DXGK_PAGE_NUMBER *pages = NULL;
    a.MapApertureSegment2.Adl.PageCount = mdl->count;
    a.MapApertureSegment2.Adl.Flags.Contiguous = contiguous;
    if (contiguous) {
        a.MapApertureSegment2.Adl.BasePageNumber = (DXGK_PAGE_NUMBER)pbc_frames_pfn(mdl->frames, 0);
    } else {
        uint64_t *pfns = pbc_xcalloc(mdl->count, sizeof(*pfns));
        pbc_frames_get(mdl->frames, 0, mdl->count, pfns);
        pages = pbc_xcalloc(mdl->count, sizeof(*pages));
        for (uint32_t i = 0; i < mdl->count; i++)
            pages[i] = (DXGK_PAGE_NUMBER)pfns[i];
        free(pfns);
        a.MapApertureSegment2.Adl.Pages = pages;
    }
    /* A CPU-visible allocation gets a CPU mapping of its pages, valid
     * until the matching UnmapApertureSegment (S35); others get NULL. */
    vm_alloc *va = &v->allocs[op->alloc];
    if (v->s->allocs[op->alloc].flags & PBC_ALLOC_CPU_VISIBLE)
        va->view = vm_cpu_view(v, op->alloc, &va->view_mdl);
    a.MapApertureSegment2.CpuVisibleAddress = va->view;
    pbc_vidmm_trace(v, " ADL: %s, %u pages, AdlOffset %u; CpuVisibleAddress %s", contiguous ? "contiguous" : "page array",
                    mdl->count, (unsigned)a.MapApertureSegment2.AdlOffset,
                    va->view ? "a view of the allocation's pages" : "NULL");
    pbc_vidmm_paging_op(v, &a, -1, NULL, 0);
    free(pages);
}

static void vm_map(vm *v, const pbc_sop *op)
{
    const pbc_salloc *al = &v->s->allocs[op->alloc];
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof(a));
    a.Operation = DXGK_OPERATION_MAP_APERTURE_SEGMENT;
    a.MapApertureSegment.hDevice = (al->flags & PBC_ALLOC_PRIMARY) ? NULL : VM_FAKE_DEVICE; /* S34 */
    a.MapApertureSegment.hAllocation = v->allocs[op->alloc].h;
    a.MapApertureSegment.SegmentId = op->at.segment;
    a.MapApertureSegment.OffsetInPages = op->at.offset;
    a.MapApertureSegment.NumberOfPages = op->count;
    a.MapApertureSegment.pMdl = v->allocs[op->alloc].mdl.mdl;
    a.MapApertureSegment.Flags.CacheCoherent = (op->flags & PBC_SOP_COHERENT) != 0;
    a.MapApertureSegment.MdlOffset = al->mdl_offset + op->first; /* S30 */
    if (v->opt.mode == PBC_MODE_TARGET)
        vm_wait_aperture_range(v, op->at.segment, op->at.offset, op->count);
    if (v->opt.experiment & PBC_VIDMM_EXP_MAP_NO_MDL_OFFSET)
        a.MapApertureSegment.MdlOffset = op->first;
    if (op->flags & PBC_SOP_ADL)
        vm_map_adl(v, op, &a);
    else
        pbc_vidmm_paging_op(v, &a, -1, NULL, 0);
    for (uint32_t i = 0; i < v->unmapped_count; i++) { /* remapped pages leave the dummy set */
        const pbc_res_range *u = &v->unmapped[i].range;
        if (u->segment == op->at.segment && u->first < op->at.offset + op->count &&
            op->at.offset < u->first + u->count) {
            v->unmapped[i] = v->unmapped[--v->unmapped_count];
            i = (uint32_t)-1;
        }
    }
}

static void vm_unmap(vm *v, const pbc_sop *op)
{
    const pbc_salloc *al = &v->s->allocs[op->alloc];
    const pbc_res_alloc *ra = &v->rs.a[op->alloc];
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof(a));
    a.Operation = DXGK_OPERATION_UNMAP_APERTURE_SEGMENT;
    a.UnmapApertureSegment.hDevice = (al->flags & PBC_ALLOC_PRIMARY) ? NULL : VM_FAKE_DEVICE;
    a.UnmapApertureSegment.hAllocation = v->allocs[op->alloc].h;
    a.UnmapApertureSegment.SegmentId = ra->ap_segment;
    a.UnmapApertureSegment.OffsetInPages = ra->ap_page;
    a.UnmapApertureSegment.NumberOfPages = ra->map_count;
    a.UnmapApertureSegment.DummyPage.QuadPart = (LONGLONG)v->gpu->dummy_page;
    /* Work still queued on the allocation may use the range through the
     * aperture: VidMm unmaps only what nothing queued uses any more; the
     * GPU may go on with other parts of the aperture (S32). A builder that
     * programs its GART with the CPU relies on this. */
    if (v->opt.mode == PBC_MODE_TARGET)
        pbc_vidmm_wait_idle(v, (int)op->alloc);
    pbc_vidmm_paging_op(v, &a, -1, NULL, 0);
    pbc_vidmm_cpu_view_release(v, &v->allocs[op->alloc].view_mdl, &v->allocs[op->alloc].view);
    vm_unmapped u = {{ra->ap_segment, ra->ap_page, ra->map_count}, v->op};
    PBC_PUSH(v->unmapped, v->unmapped_count, v->unmapped_cap, u);
}

/* Notes queued work through aperture addresses, so that a later map does
 * not pull those pages from under it. */
static void vm_note_aperture_use(vm *v, uint64_t addr, uint64_t size, uint32_t until)
{
    for (uint32_t i = 0; i < v->s->segment_count; i++) {
        const pbc_segment_info *g = &v->s->segments[i];
        if (g->kind != PBC_SEGMENT_APERTURE || addr < g->base || addr - g->base >= g->size)
            continue;
        uint64_t first = (addr - g->base) / PBC_PAGE_SIZE, last = (addr - g->base + size - 1) / PBC_PAGE_SIZE;
        vm_aperture_use u = {g->SegmentId, first, last - first + 1, until};
        PBC_PUSH(v->aperture_uses, v->aperture_use_count, v->aperture_use_cap, u);
    }
}

/* Before a map: queued work through the pages it maps runs first. VidMm
 * hands an aperture range to a new allocation only once nothing queued
 * uses it; other parts of the aperture may still be in use (S32). */
static void vm_wait_aperture_range(vm *v, UINT segment, uint64_t first, uint64_t count)
{
    uint32_t until = 0;
    for (uint32_t i = 0; i < v->aperture_use_count; i++) {
        const vm_aperture_use *u = &v->aperture_uses[i];
        if (u->segment == segment && u->first < first + count && first < u->first + u->count && u->until > until)
            until = u->until;
    }
    if (!pbc_gpu_engine_done(v->gpu, PBC_ENGINE_RENDER, until)) {
        pbc_vidmm_flush(v);
        pbc_gpu_run_engine(v->gpu, PBC_ENGINE_RENDER, until);
    }
}

/* Synthetic render work runs on the render engine (target mode) or at
 * once (spec mode). */
static void vm_gpu_work(vm *v, const pbc_uop *u, int alloc)
{
    if (v->opt.mode == PBC_MODE_SPEC) {
        v->gpu->cur.writer = PBC_WRITER_RENDER;
        pbc_gpu_exec_uop_in(v->gpu, u, v->work_root);
        v->gpu->cur.writer = PBC_WRITER_NONE;
        return;
    }
    /* Render work on an allocation waits for the fence of the paging
     * buffer that last moved it (and of the last one that mapped, unmapped
     * or touched memory by address); raw access by address for every
     * paging buffer submitted so far. Nothing else orders it. */
    uint32_t wait = alloc >= 0 ? v->allocs[alloc].paging_fence : v->res->sub_count;
    if (wait < v->global_fence)
        wait = v->global_fence;
    uint32_t seq = pbc_gpu_push_work_in(v->gpu, u, UINT32_MAX, wait, v->work_root);
    uint64_t n = u->kind == PBC_UOP_READ ? u->width : u->size;
    /* Work through a GPU virtual range names its allocation, which VidMm
     * neither discards nor destroys while the range exists: the
     * allocation's own wait covers it. */
    for (uint32_t i = 0; i < v->s->segment_count && !(u->flags & PBC_UOP_DST_VIRTUAL); i++) {
        const pbc_segment_info *g = &v->s->segments[i];
        if (g->kind == PBC_SEGMENT_MEMORY && u->dst >= g->base && u->dst - g->base < g->size) {
            vm_render_range r = {u->dst, u->dst + n, seq + 1};
            PBC_PUSH(v->seg_renders, v->seg_render_count, v->seg_render_cap, r);
            break;
        }
    }
    if (!(u->flags & PBC_UOP_DST_VIRTUAL))
        vm_note_aperture_use(v, u->dst, n, seq + 1);
    if (alloc >= 0) {
        v->allocs[alloc].render_until = seq + 1;
        return;
    }
    /* Raw GPU access by address may touch any allocation's memory (an
     * aperture page, a segment range): until it has run, no allocation is
     * reported idle, so AllocationIsIdle stays a promise (S24). */
    for (uint32_t i = 0; i < v->s->alloc_count; i++)
        v->allocs[i].render_until = seq + 1;
}

typedef struct vm_render_ctx {
    const pbc_sop *op;
    int alloc;
} vm_render_ctx;

static void vm_render_piece(vm *v, uint64_t addr, uint64_t n, uint64_t at, void *ctx)
{
    const vm_render_ctx *rc = ctx;
    (void)at;
    pbc_uop u = {.dst = addr, .size = n, .value = rc->op->pattern};
    u.kind = rc->op->kind == PBC_SOP_RENDER_WRITE ? PBC_UOP_FILL : PBC_UOP_READ;
    if (u.kind == PBC_UOP_READ)
        u.width = n < 8 ? (uint32_t)n : 8;
    vm_gpu_work(v, &u, rc->alloc);
}

static void vm_render(vm *v, const pbc_sop *op)
{
    pbc_vidmm_flush(v); /* the allocation's paging work gets its fence */
    vm_render_ctx rc = {op, (int)op->alloc};
    const pbc_res_alloc *ra = &v->rs.a[op->alloc];
    if (op->flags & PBC_SOP_VIA_VA) {
        /* One access through the range, by its process (in the range's
         * address space): the GPU translates it page by page (after the
         * paging fence of its mapping, S55). */
        v->work_root = pbc_vidmm_va_space_root(v, ra->va_space);
        pbc_uop u = {.dst = pbc_vidmm_va_of(v, op->alloc, op->offset), .size = op->size, .value = op->pattern,
                     .flags = PBC_UOP_DST_VIRTUAL};
        if (op->kind == PBC_SOP_RENDER_WRITE) {
            u.kind = PBC_UOP_FILL;
            vm_gpu_work(v, &u, (int)op->alloc);
        }
        /* A read translates every page it covers: one small read a page. */
        for (uint64_t at = 0; op->kind == PBC_SOP_RENDER_READ && at < op->size;) {
            uint64_t va = u.dst + at, left = PBC_PAGE_SIZE - (va & (PBC_PAGE_SIZE - 1));
            pbc_uop r = {.kind = PBC_UOP_READ, .dst = va, .flags = PBC_UOP_DST_VIRTUAL};
            r.width = op->size - at < 8 ? (uint32_t)(op->size - at) : 8;
            if (r.width > left)
                r.width = (uint32_t)left;
            vm_gpu_work(v, &r, (int)op->alloc);
            at += left;
        }
        v->work_root = 0;
    } else if (op->flags & PBC_SOP_VIA_APERTURE) {
        uint64_t base = pbc_vidmm_segment_base(v, ra->ap_segment) + ra->ap_page * PBC_PAGE_SIZE;
        uint64_t mapped_from = (uint64_t)ra->map_first * PBC_PAGE_SIZE;
        vm_render_piece(v, base + op->offset - mapped_from, op->size, op->offset, &rc);
    } else {
        pbc_vidmm_alloc_pieces(v, op->alloc, op->offset, op->size, vm_render_piece, &rc);
    }
}

static void vm_gpu_access(vm *v, const pbc_sop *op)
{
    pbc_vidmm_flush(v);
    uint64_t addr = pbc_vidmm_segment_base(v, op->at.segment) + op->at.offset;
    vm_render_ctx rc = {op, -1};
    pbc_sop as_render = *op;
    as_render.kind = op->kind == PBC_SOP_GPU_WRITE ? PBC_SOP_RENDER_WRITE : PBC_SOP_RENDER_READ;
    rc.op = &as_render;
    vm_render_piece(v, addr, op->size, 0, &rc);
    if (op->kind == PBC_SOP_GPU_WRITE)
        pbc_vidmm_mask_clear(v, addr, addr + op->size);
}

/* A new allocation under a destroyed one's name: the builder makes it a
 * handle (maybe the one it gave before), VidMm its content. Content in a
 * segment is written at once, not through the queue, so work still queued
 * there (on what was discarded or destroyed) runs first. */
static void vm_create(vm *v, const pbc_sop *op)
{
    pbc_res_alloc born = {.where = pbc_sop_created_where(op), .at = op->at};
    if (born.where == PBC_WHERE_SEGMENT && v->opt.mode == PBC_MODE_TARGET) {
        pbc_vidmm_flush(v);
        pbc_gpu_drain(v->gpu);
    }
    v->allocs[op->alloc].driver_lo = v->allocs[op->alloc].driver_hi = 0; /* new content */
    if (pbc_vidmm_alloc_create(v, op->alloc, &born, op->pattern)) {
        v->refused = v->stop = 1;
        return;
    }
    if (v->opt.mode == PBC_MODE_TARGET)
        pbc_vidmm_kernel_check(v, "CreateAllocation");
    if (born.where == PBC_WHERE_SEGMENT) {
        uint64_t base = pbc_vidmm_segment_base(v, op->at.segment) + op->at.offset;
        pbc_vidmm_mask_clear(v, base, base + v->s->allocs[op->alloc].size);
    }
}

/* The physical address of byte `off` of allocation `index` where ra
 * puts it. */
static uint64_t vm_alloc_phys(const vm *v, uint32_t index, const pbc_res_alloc *ra, uint64_t off)
{
    if (ra->where == PBC_WHERE_SEGMENT)
        return pbc_vidmm_segment_base(v, ra->at.segment) + ra->at.offset + off;
    uint64_t page = v->s->allocs[index].mdl_offset + off / PBC_PAGE_SIZE;
    return (pbc_frames_pfn(v->allocs[index].mdl.frames, page) << PBC_PAGE_SHIFT) + off % PBC_PAGE_SIZE;
}

/* InitContextResource and UpdateContextAllocation: the context's content
 * becomes whatever the builder makes it (the DDI lets the driver choose),
 * and from then on it is a fact that every later move must carry
 * unchanged. VidMm hands a context to these operations once the GPU is
 * done with it, and lets them finish before it uses the context again
 * (Windows schedules no work on a context before its initialization or
 * update has run): so the allocation's bytes are recorded just before the
 * operation when it is a context already (before), which the content
 * oracle holds to the history so far (the image the last one left,
 * carried through every move since), and once its buffers have run (with
 * the CPU work their SubmitCommand queued, which the submission's
 * queue_seq reaches: host_queue_cpu_work), as the builder's own image of the
 * context (docs/rules.md, "Masks"). The spec model writes no context and
 * keeps none. */
static void vm_context_image(vm *v, const pbc_sop *op, int before)
{
    vm_alloc *va = &v->allocs[op->alloc];
    const pbc_res_alloc *ra = &v->rs.a[op->alloc];
    const pbc_salloc *al = &v->s->allocs[op->alloc];
    if (v->opt.mode != PBC_MODE_TARGET || v->stop || ra->where == PBC_WHERE_NONE)
        return;
    if (before && va->driver_hi <= va->driver_lo)
        return; /* not a context yet: nothing of the driver's to follow, and the comparison sees it all */
    pbc_vidmm_wait_idle(v, (int)op->alloc);
    if (v->stop || v->gpu->fault_count)
        return; /* what faulted is reported as it is; the image would be of a broken run */
    uint64_t lo = before ? 0 : va->driver_lo, hi = before ? al->size : va->driver_hi;
    if (hi <= lo)
        return;
    pbc_image *im = pbc_record_image(v->res, v->op, op->alloc, before, lo, hi);
    for (uint64_t at = lo; at < hi; at += PBC_PAGE_SIZE) {
        uint32_t k = (uint32_t)((at - lo) / PBC_PAGE_SIZE), n = hi - at < PBC_PAGE_SIZE ? (uint32_t)(hi - at)
                                                                                      : PBC_PAGE_SIZE;
        uint64_t phys = vm_alloc_phys(v, op->alloc, ra, at);
        if (pbc_mem_desc_range(&v->gpu->mem, phys, n, &im->pages[k].d))
            im->pages[k].described = 1; /* a stream, as memory holds it: nothing made */
        else
            pbc_mem_read(&v->gpu->mem, phys, pbc_image_page_bytes(im, k, n), n);
    }
}

/* InitContextResource: the allocation (a context allocation, as
 * DxgkCbCreateContextAllocation makes) is initialized where it is, which
 * the driver does as it likes: from now on its bytes are the driver's.
 * VidMm hands it once the GPU is done with the allocation. In system
 * memory the destination is a partial MDL from its first page (there is
 * no MdlOffset) with a CPU view of it as VirtualAddress, valid for the
 * context's lifetime (until it is destroyed); in a segment,
 * SegmentAddress (segment base + offset) and no VirtualAddress. Where the
 * scenario uses GPU virtual addresses, VidMm maps the whole context into
 * its paging window for the operation: GpuVirtualAddress. */
static void vm_init_context(vm *v, const pbc_sop *op)
{
    const pbc_salloc *al = &v->s->allocs[op->alloc];
    const pbc_res_alloc *ra = &v->rs.a[op->alloc];
    vm_alloc *va = &v->allocs[op->alloc];
    if (v->opt.mode == PBC_MODE_TARGET)
        pbc_vidmm_wait_idle(v, (int)op->alloc);
    vm_context_image(v, op, 1);
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof(a));
    a.Operation = DXGK_OPERATION_INIT_CONTEXT_RESOURCE;
    a.InitContextResource.hAllocation = va->h;
    if (ra->where == PBC_WHERE_SEGMENT) {
        a.InitContextResource.Destination.SegmentId = ra->at.segment;
        a.InitContextResource.Destination.SegmentAddress.QuadPart =
            (LONGLONG)(pbc_vidmm_segment_base(v, ra->at.segment) + ra->at.offset);
    } else {
        pbc_vidmm_mdl_partial(op->alloc, &va->mdl, al->mdl_offset, pbc_alloc_pages(al), &v->partial_mdl);
        v->partial_alloc = op->alloc;
        v->partial_first = al->mdl_offset;
        a.InitContextResource.Destination.pMdl = v->partial_mdl.mdl;
        pbc_vidmm_cpu_view_release(v, &va->ctx_mdl, &va->ctx_va); /* a context initialized again */
        va->ctx_va = vm_cpu_view(v, op->alloc, &va->ctx_mdl);
        a.InitContextResource.Destination.VirtualAddress = va->ctx_va;
    }
    a.InitContextResource.Destination.GpuVirtualAddress = pbc_vidmm_va_window_open(v, op->alloc);
    va->driver_lo = 0;
    va->driver_hi = al->size;
    vm_mask_driver_bytes(v, op->alloc, ra);
    pbc_vidmm_paging_op(v, &a, (int)op->alloc, NULL, 0);
    pbc_vidmm_va_window_close(v, op->alloc);
    pbc_vidmm_mdl_retire(v, &v->partial_mdl);
    vm_context_image(v, op, 0);
}

/* UpdateContextAllocation: VidMm maps the whole context into its paging
 * window (ContextAllocation, ContextAllocationSize) and passes the data
 * the driver gave DxgkCbUpdateContextAllocation (the target's
 * context_update_data), which only the driver understands: the
 * context's bytes become the driver's. The data is a buffer of its own,
 * as long as the driver said. */
static void vm_update_context(vm *v, const pbc_sop *op)
{
    const pbc_salloc *al = &v->s->allocs[op->alloc];
    const pbc_res_alloc *ra = &v->rs.a[op->alloc];
    vm_alloc *va = &v->allocs[op->alloc];
    uint8_t scratch[VM_CONTEXT_DATA_MAX];
    uint32_t bytes = 0;
    if (v->opt.mode == PBC_MODE_SPEC) {
        bytes = 0; /* the spec model writes nothing for it */
    } else {
        pbc_shim_enter();
        bytes = v->t->context_update_data(v->adapter, va->h, scratch, sizeof(scratch));
        pbc_shim_leave();
        if (pbc_vidmm_kernel_check(v, "context_update_data"))
            return;
        if (bytes > sizeof(scratch))
            bytes = sizeof(scratch);
    }
    vm_context_image(v, op, 1);
    uint8_t *data = pbc_xmalloc(bytes ? bytes : 1);
    memcpy(data, scratch, bytes);
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof(a));
    a.Operation = DXGK_OPERATION_UPDATE_CONTEXT_ALLOCATION;
    a.UpdateContextAllocation.ContextAllocation = pbc_vidmm_va_window_open(v, op->alloc);
    a.UpdateContextAllocation.ContextAllocationSize = al->size;
    a.UpdateContextAllocation.pDriverPrivateData = data;
    a.UpdateContextAllocation.DriverPrivateDataSize = bytes;
    va->driver_lo = 0;
    va->driver_hi = al->size;
    vm_mask_driver_bytes(v, op->alloc, ra);
    pbc_vidmm_paging_op(v, &a, (int)op->alloc, NULL, 0);
    pbc_vidmm_va_window_close(v, op->alloc);
    free(data);
    vm_context_image(v, op, 0);
}

/* NotifyResidency: where the allocation now is (a memory segment and its
 * offset there, or, for one in system memory mapped into an aperture
 * segment, that segment and the offset of its first mapped page:
 * Resident), or {0, 0} and not Resident when it was evicted (to system
 * memory the GPU reaches through no aperture, or discarded). */
static void vm_notify_residency(vm *v, const pbc_sop *op)
{
    const pbc_res_alloc *ra = &v->rs.a[op->alloc];
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof(a));
    a.Operation = DXGK_OPERATION_NOTIFY_RESIDENCY;
    a.NotifyResidency.hAllocation = v->allocs[op->alloc].h;
    if (ra->where == PBC_WHERE_SEGMENT) {
        a.NotifyResidency.PhysicalAddress.SegmentId = ra->at.segment;
        a.NotifyResidency.PhysicalAddress.SegmentOffset = ra->at.offset;
        a.NotifyResidency.Resident = 1;
    } else if (ra->where == PBC_WHERE_SYSTEM && ra->mapped) {
        a.NotifyResidency.PhysicalAddress.SegmentId = ra->ap_segment;
        a.NotifyResidency.PhysicalAddress.SegmentOffset = (uint64_t)ra->ap_page * PBC_PAGE_SIZE;
        a.NotifyResidency.Resident = 1;
    }
    pbc_vidmm_paging_op(v, &a, (int)op->alloc, NULL, 0);
}

void pbc_vidmm_do_op(vm *v, const pbc_sop *op)
{
    switch (op->kind) {
    case PBC_SOP_TRANSFER:
    case PBC_SOP_SPECIAL_LOCK:
        vm_transfer(v, op);
        break;
    case PBC_SOP_FILL:
        vm_fill(v, op);
        break;
    case PBC_SOP_DISCARD:
        vm_discard(v, op);
        break;
    case PBC_SOP_READ_PHYSICAL:
    case PBC_SOP_WRITE_PHYSICAL:
        vm_physical(v, op);
        break;
    case PBC_SOP_MAP:
        vm_map(v, op);
        break;
    case PBC_SOP_UNMAP:
        vm_unmap(v, op);
        break;
    case PBC_SOP_RENDER_WRITE:
    case PBC_SOP_RENDER_READ:
        vm_render(v, op);
        break;
    case PBC_SOP_GPU_READ:
    case PBC_SOP_GPU_WRITE:
        vm_gpu_access(v, op);
        break;
    case PBC_SOP_FLUSH:
        pbc_vidmm_flush(v);
        break;
    case PBC_SOP_IDLE:
        pbc_vidmm_flush(v);
        pbc_gpu_drain(v->gpu);
        break;
    case PBC_SOP_DMA:
        v->dma_size = op->dma_size;
        break;
    case PBC_SOP_DESTROY:
        pbc_vidmm_alloc_destroy(v, op->alloc);
        break;
    case PBC_SOP_CREATE:
        vm_create(v, op);
        break;
    case PBC_SOP_VA_MAP:
    case PBC_SOP_VA_ZERO:
        pbc_vidmm_va_map(v, op);
        break;
    case PBC_SOP_VA_UNMAP:
        pbc_vidmm_va_unmap(v, op);
        break;
    case PBC_SOP_SIGNAL_FENCE:
        pbc_vidmm_signal_fence(v);
        break;
    case PBC_SOP_NOTIFY:
        pbc_vidmm_notify(v, op);
        break;
    case PBC_SOP_VA_MOVE_TABLES:
        pbc_vidmm_va_move_tables(v, op);
        break;
    case PBC_SOP_INIT_CONTEXT:
        vm_init_context(v, op);
        break;
    case PBC_SOP_UPDATE_CONTEXT:
        vm_update_context(v, op);
        break;
    case PBC_SOP_NOTIFY_RESIDENCY:
        vm_notify_residency(v, op);
        break;
    default:
        pbc_harness_bug("operation kind %u reached the VidMm model unvalidated", (unsigned)op->kind);
    }
}
