/*
 * The spec model: each operation's effect straight from the DDI text.
 *
 * Transfer (S12-S14): a segment side is contiguous from SegmentAddress +
 * TransferOffset; an MDL side is the MDL's pages from page MdlOffset on,
 * never shifted by TransferOffset. Fill (S25): FillPattern repeated over
 * FillSize bytes. Map (S30): NumberOfPages MDL pages from MdlOffset at
 * OffsetInPages. Unmap (S33): every page to DummyPage, still valid.
 * UpdatePageTable: entry i (entry 0 for every i with Repeat) becomes
 * entry StartIndex + i of the table, in the model GPU's format (DXGK_PTE
 * itself; a level-1 entry with Use64KBPages points at 64 KiB leaves);
 * the spec is handed tables by their system-memory address (GpuPhysical
 * with SegmentId 0). FlushTlb: [Start, End) of the space, all when both
 * are 0. TransferVirtual: TransferSizeInBytes from SourceVirtualAddress to
 * DestinationVirtualAddress (AllocationOffsetInBytes is not added);
 * FillVirtual: FillSizeInBytes of FillPattern at DestinationVirtualAddress.
 * SignalMonitoredFence: the 64-bit value at MonitoredFenceGpuVa.
 * CopyPageTableEntries: each range's NumPageTableEntries entries of 16
 * bytes, from its source table's index to its destination's, both tables
 * by GPU virtual address.
 * MapApertureSegment2: as MapApertureSegment, page AdlOffset + i of the
 * ADL (BasePageNumber + it when Contiguous, else Pages[it]). The
 * notifications (NotifyFenceResidency, MapMmu, UnmapMmu, NotifyResidency2,
 * NotifyAlloc) and NotifyResidency: no effect on memory.
 * InitContextResource and UpdateContextAllocation: the content they give
 * a context allocation is the driver's, which the DDI leaves open; the
 * spec model writes none, and VidMm masks those bytes wherever the
 * allocation goes, so that no world's choice is compared.
 */
#include "spec.h"

#include <string.h>

#define SPEC_PAGE 4096u

typedef struct spec_side {
    UINT segment_id;
    uint64_t base;     /* segment side: SegmentAddress + TransferOffset */
    const MDL *mdl;    /* MDL side */
    UINT first_page;   /* MDL side: MdlOffset */
} spec_side;

/* Address of transfer byte `at`, and how many bytes from there stay
 * physically contiguous on this side. */
static uint64_t spec_side_at(const spec_side *s, uint64_t at, uint64_t *run)
{
    if (s->segment_id != 0) {
        *run = UINT64_MAX;
        return s->base + at;
    }
    const PFN_NUMBER *pfn = MmGetMdlPfnArray(s->mdl);
    *run = SPEC_PAGE - at % SPEC_PAGE;
    return ((uint64_t)pfn[s->first_page + at / SPEC_PAGE] << PAGE_SHIFT) + at % SPEC_PAGE;
}

static void spec_copy(const spec_side *src, const spec_side *dst, uint64_t size,
                      pbc_spec_sink sink, void *ctx)
{
    for (uint64_t at = 0; at < size;) {
        uint64_t run_s, run_d;
        pbc_uop u = {.kind = PBC_UOP_COPY};
        u.src = spec_side_at(src, at, &run_s);
        u.dst = spec_side_at(dst, at, &run_d);
        uint64_t n = size - at;
        if (run_s < n)
            n = run_s;
        if (run_d < n)
            n = run_d;
        u.size = n;
        sink(ctx, &u);
        at += n;
    }
}

#define SPEC_SIDE(side, offset, mdl_offset)                                         \
    ((spec_side){(side).SegmentId, (uint64_t)(side).SegmentAddress.QuadPart + (offset), \
                 (side).pMdl, (mdl_offset)})

static void spec_gart(UINT segment, SIZE_T first, SIZE_T count, uint32_t flags,
                      const MDL *mdl, ULONG mdl_offset, uint64_t dummy, pbc_spec_sink sink,
                      void *ctx)
{
    for (SIZE_T i = 0; i < count; i++) {
        pbc_uop u = {.kind = PBC_UOP_GART_WRITE, .segment = segment, .index = first + i,
                     .flags = flags};
        u.value = mdl ? (uint64_t)MmGetMdlPfnArray(mdl)[mdl_offset + i] << PAGE_SHIFT : dummy;
        sink(ctx, &u);
    }
}

int pbc_spec_apply(const DXGKARG_BUILDPAGINGBUFFER *a, pbc_spec_sink sink, void *ctx)
{
    switch (a->Operation) {
    case DXGK_OPERATION_TRANSFER: {
        spec_side src = SPEC_SIDE(a->Transfer.Source, a->Transfer.TransferOffset, a->Transfer.MdlOffset);
        spec_side dst = SPEC_SIDE(a->Transfer.Destination, a->Transfer.TransferOffset,
                                  a->Transfer.MdlOffset);
        spec_copy(&src, &dst, a->Transfer.TransferSize, sink, ctx);
        return 0;
    }
    case DXGK_OPERATION_SPECIAL_LOCK_TRANSFER: {
        const __typeof__(a->SpecialLockTransfer) *t = &a->SpecialLockTransfer;
        spec_side src = SPEC_SIDE(t->Source, t->TransferOffset, 0);
        spec_side dst = SPEC_SIDE(t->Destination, t->TransferOffset, 0);
        spec_copy(&src, &dst, t->TransferSize, sink, ctx);
        return 0;
    }
    case DXGK_OPERATION_FILL: {
        pbc_uop u = {.kind = PBC_UOP_FILL,
                     .dst = (uint64_t)a->Fill.Destination.SegmentAddress.QuadPart,
                     .size = a->Fill.FillSize,
                     .value = a->Fill.FillPattern};
        sink(ctx, &u);
        return 0;
    }
    case DXGK_OPERATION_DISCARD_CONTENT:
    case DXGK_OPERATION_READ_PHYSICAL:
    case DXGK_OPERATION_WRITE_PHYSICAL:
        /* No defined effect on observable memory (S27-S29). */
        return 0;
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT: {
        const __typeof__(a->MapApertureSegment) *m = &a->MapApertureSegment;
        uint32_t flags = PBC_GART_VALID | (m->Flags.CacheCoherent ? PBC_GART_CACHE_COHERENT : 0);
        spec_gart(m->SegmentId, m->OffsetInPages, m->NumberOfPages, flags, m->pMdl, m->MdlOffset,
                  0, sink, ctx);
        return 0;
    }
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT2: {
        const __typeof__(a->MapApertureSegment2) *m = &a->MapApertureSegment2;
        uint32_t flags = PBC_GART_VALID | (m->Flags.CacheCoherent ? PBC_GART_CACHE_COHERENT : 0);
        for (SIZE_T i = 0; i < m->NumberOfPages; i++) {
            uint64_t n = (uint64_t)m->AdlOffset + i;
            uint64_t pfn = m->Adl.Flags.Contiguous ? m->Adl.BasePageNumber + n : m->Adl.Pages[n];
            pbc_uop u = {.kind = PBC_UOP_GART_WRITE, .segment = m->SegmentId, .index = m->OffsetInPages + i,
                         .flags = flags, .value = pfn << PAGE_SHIFT};
            sink(ctx, &u);
        }
        return 0;
    }
    case DXGK_OPERATION_UNMAP_APERTURE_SEGMENT: {
        const __typeof__(a->UnmapApertureSegment) *u = &a->UnmapApertureSegment;
        spec_gart(u->SegmentId, u->OffsetInPages, u->NumberOfPages, PBC_GART_VALID, NULL, 0,
                  (uint64_t)u->DummyPage.QuadPart, sink, ctx);
        return 0;
    }
    case DXGK_OPERATION_UPDATE_PAGE_TABLE: {
        const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &a->UpdatePageTable;
        int virt = u->UpdateMode == DXGK_PAGETABLEUPDATE_GPU_VIRTUAL;
        if (!virt && (u->UpdateMode != DXGK_PAGETABLEUPDATE_GPU_PHYSICAL || u->PageTableAddress.GpuPhysical.SegmentId))
            return -1;
        uint64_t table = virt ? u->PageTableAddress.GpuVirtual : u->PageTableAddress.GpuPhysical.SegmentOffset;
        if (u->Flags.Repeat && u->NumPageTableEntries) {
            DXGK_PTE e = u->pPageTableEntries[0];
            if (u->PageTableLevel == 1 && u->Flags.Use64KBPages)
                e.PageTablePageSize = DXGK_PTE_PAGE_TABLE_PAGE_64KB;
            if (e.Flags == e.PageAddress && (uint32_t)e.Flags == (uint32_t)(e.Flags >> 32)) {
                /* Entries of one dword throughout (a new table's not-valid
                 * ones): the same bytes as one fill, at a micro-op's cost
                 * rather than 512. */
                pbc_uop p = {.kind = PBC_UOP_FILL,
                             .dst = table + (uint64_t)u->StartIndex * sizeof(DXGK_PTE),
                             .size = (uint64_t)u->NumPageTableEntries * sizeof(DXGK_PTE),
                             .value = (uint32_t)e.Flags,
                             .flags = virt ? PBC_UOP_DST_VIRTUAL : 0};
                sink(ctx, &p);
                return 0;
            }
        }
        for (UINT i = 0; i < u->NumPageTableEntries; i++) {
            DXGK_PTE e = u->pPageTableEntries[u->Flags.Repeat ? 0 : i];
            if (u->PageTableLevel == 1 && u->Flags.Use64KBPages)
                e.PageTablePageSize = DXGK_PTE_PAGE_TABLE_PAGE_64KB;
            pbc_uop p = {.kind = PBC_UOP_PTE_WRITE,
                         .dst = table + (uint64_t)(u->StartIndex + i) * sizeof(DXGK_PTE),
                         .value = e.Flags,
                         .index = e.PageAddress,
                         .flags = virt ? PBC_UOP_DST_VIRTUAL : 0};
            sink(ctx, &p);
        }
        return 0;
    }
    case DXGK_OPERATION_VIRTUAL_TRANSFER: {
        const DXGK_BUILDPAGINGBUFFER_TRANSFERVIRTUAL *t = &a->TransferVirtual;
        pbc_uop u = {.kind = PBC_UOP_COPY, .dst = t->DestinationVirtualAddress, .src = t->SourceVirtualAddress,
                     .size = t->TransferSizeInBytes, .flags = PBC_UOP_DST_VIRTUAL | PBC_UOP_SRC_VIRTUAL};
        sink(ctx, &u);
        return 0;
    }
    case DXGK_OPERATION_VIRTUAL_FILL: {
        const DXGK_BUILDPAGINGBUFFER_FILLVIRTUAL *f = &a->FillVirtual;
        pbc_uop u = {.kind = PBC_UOP_FILL, .dst = f->DestinationVirtualAddress, .size = f->FillSizeInBytes,
                     .value = f->FillPattern, .flags = PBC_UOP_DST_VIRTUAL};
        sink(ctx, &u);
        return 0;
    }
    case DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES:
        for (UINT i = 0; i < a->CopyPageTableEntries.NumRanges; i++) {
            const DXGK_BUILDPAGINGBUFFER_COPY_RANGE *r = &a->CopyPageTableEntries.pRanges[i];
            pbc_uop u = {.kind = PBC_UOP_COPY,
                         .dst = r->DstPageTableAddress + (uint64_t)r->DstStartPteIndex * sizeof(DXGK_PTE),
                         .src = r->SrcPageTableAddress + (uint64_t)r->SrcStartPteIndex * sizeof(DXGK_PTE),
                         .size = (uint64_t)r->NumPageTableEntries * sizeof(DXGK_PTE),
                         .flags = PBC_UOP_DST_VIRTUAL | PBC_UOP_SRC_VIRTUAL};
            sink(ctx, &u);
        }
        return 0;
    case DXGK_OPERATION_SIGNAL_MONITORED_FENCE: {
        pbc_uop u = {.kind = PBC_UOP_WRITE_IMM, .dst = a->SignalMonitoredFence.MonitoredFenceGpuVa, .width = 8,
                     .value = a->SignalMonitoredFence.MonitoredFenceValue, .flags = PBC_UOP_DST_VIRTUAL};
        sink(ctx, &u);
        return 0;
    }
    case DXGK_OPERATION_NOTIFY_FENCE_RESIDENCY:
    case DXGK_OPERATION_MAP_MMU:
    case DXGK_OPERATION_UNMAP_MMU:
    case DXGK_OPERATION_NOTIFY_RESIDENCY2:
    case DXGK_OPERATION_NOTIFY_ALLOC:
    case DXGK_OPERATION_NOTIFY_RESIDENCY:
        return 0; /* no effect on memory */
    case DXGK_OPERATION_INIT_CONTEXT_RESOURCE:
    case DXGK_OPERATION_UPDATE_CONTEXT_ALLOCATION:
        return 0; /* the driver's content: masked, not compared */
    case DXGK_OPERATION_FLUSH_TLB: {
        const DXGK_BUILDPAGINGBUFFER_FLUSHTLB *f = &a->FlushTlb;
        if (f->RootPageTableAddress.SegmentId)
            return -1;
        uint64_t size = f->EndVirtualAddress > f->StartVirtualAddress ? f->EndVirtualAddress - f->StartVirtualAddress : 0;
        pbc_uop p = {.kind = PBC_UOP_TLB_FLUSH, .value = f->RootPageTableAddress.SegmentOffset,
                     .dst = size ? f->StartVirtualAddress : 0, .size = size};
        sink(ctx, &p);
        return 0;
    }
    default:
        return -1;
    }
}
