/*
 * mutant-merge-runs: a builder that moves each physically contiguous run
 * of an MDL's pages with one COPY, as drivers do to spend one packet on
 * many pages (variant-big-packets makes that choice correctly); transfers
 * between two segments go the reference's way.
 *
 * Its bug is at the end of a run: the bytes a run's COPY moves are taken
 * as the distance from the run's first page to its last page, which
 * leaves the last page out, while the loop goes on after the last page.
 * A run of one page, where that distance is 0, is special-cased to one
 * page, so an MDL whose pages are never next to each other (the
 * scattered layout, all the harness had before physical layouts) is
 * moved correctly. With pages in a row, the last page of every run of
 * two or more is never copied and its destination keeps stale bytes:
 * the MDL side is every page from MdlOffset on for TransferSize bytes
 * (S14, S09). PB-DIVERGE must catch it.
 */
#include "mutants.h"

#include "ref_builder.h"
#include "ref_isa.h"

/* At most this many pages per COPY, whose size field is 32 bits. */
#define MERGE_MAX_PAGES ((1u << 30) / PAGE_SIZE)

typedef struct merge_side {
    uint64_t address;       /* segment side: SegmentAddress + TransferOffset */
    const PFN_NUMBER *pfns; /* MDL side: its pages from MdlOffset on; NULL for a segment */
} merge_side;

static merge_side merge_side_of(UINT segment_id, LARGE_INTEGER address, const MDL *mdl, UINT transfer_offset,
                                UINT mdl_offset)
{
    merge_side s = {0, NULL};
    if (segment_id) /* TransferOffset applies to segment sides only (S13) */
        s.address = (uint64_t)address.QuadPart + transfer_offset;
    else
        s.pfns = MmGetMdlPfnArray(mdl) + mdl_offset;
    return s;
}

static uint64_t merge_page(const merge_side *s, uint64_t page)
{
    return s->pfns ? (uint64_t)s->pfns[page] << PAGE_SHIFT : s->address + page * PAGE_SIZE;
}

/* The last page of the MDL run that starts at `page`. */
static uint64_t merge_run_last(const PFN_NUMBER *pfns, uint64_t page, uint64_t pages)
{
    uint64_t last = page;
    while (last + 1 < pages && last + 1 - page < MERGE_MAX_PAGES && pfns[last + 1] == pfns[last] + 1)
        last++;
    return last;
}

static NTSTATUS merge_copy(DXGKARG_BUILDPAGINGBUFFER *a, HANDLE allocation, DXGK_TRANSFERFLAGS flags, SIZE_T size,
                           const merge_side *src, const merge_side *dst)
{
    if (ref_allocation_needs_idle(allocation) && !flags.AllocationIsIdle)
        return STATUS_GRAPHICS_ALLOCATION_BUSY; /* nothing written (S22) */
    const PFN_NUMBER *mdl = src->pfns ? src->pfns : dst->pfns;
    uint8_t *cur = a->pDmaBuffer, *end = cur + a->DmaSize;
    uint64_t pages = (size + PAGE_SIZE - 1) / PAGE_SIZE;
    uint64_t page = a->MultipassOffset;
    while (page < pages && end - cur >= (ptrdiff_t)(REF_LEN_COPY * 4)) {
        uint64_t last = merge_run_last(mdl, page, pages);
        uint64_t bytes = ((uint64_t)mdl[last] - mdl[page]) << PAGE_SHIFT; /* the bug: up to the last page's start */
        if (bytes == 0)
            bytes = PAGE_SIZE; /* a single page */
        if (bytes > size - page * PAGE_SIZE)
            bytes = size - page * PAGE_SIZE;
        cur += ref_encode_copy(cur, merge_page(dst, page), merge_page(src, page), (uint32_t)bytes);
        page = last + 1;
    }
    a->pDmaBuffer = cur;
    a->MultipassOffset = (UINT)page;
    return page == pages ? STATUS_SUCCESS : STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
}

static NTSTATUS APIENTRY merge_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->Operation == DXGK_OPERATION_TRANSFER &&
        (a->Transfer.Source.SegmentId == 0 || a->Transfer.Destination.SegmentId == 0)) {
        const __typeof__(a->Transfer) *t = &a->Transfer;
        merge_side src = merge_side_of(t->Source.SegmentId, t->Source.SegmentAddress, t->Source.pMdl,
                                       t->TransferOffset, t->MdlOffset);
        merge_side dst = merge_side_of(t->Destination.SegmentId, t->Destination.SegmentAddress,
                                       t->Destination.pMdl, t->TransferOffset, t->MdlOffset);
        return merge_copy(a, t->hAllocation, t->Flags, t->TransferSize, &src, &dst);
    }
    if (a->Operation == DXGK_OPERATION_SPECIAL_LOCK_TRANSFER &&
        (a->SpecialLockTransfer.Source.SegmentId == 0 || a->SpecialLockTransfer.Destination.SegmentId == 0)) {
        /* No MdlOffset here: an MDL side starts at its first page. */
        const __typeof__(a->SpecialLockTransfer) *t = &a->SpecialLockTransfer;
        merge_side src = merge_side_of(t->Source.SegmentId, t->Source.SegmentAddress, t->Source.pMdl,
                                       t->TransferOffset, 0);
        merge_side dst = merge_side_of(t->Destination.SegmentId, t->Destination.SegmentAddress,
                                       t->Destination.pMdl, t->TransferOffset, 0);
        return merge_copy(a, t->hAllocation, t->Flags, t->TransferSize, &src, &dst);
    }
    return ref_build_paging_buffer(adapter, a);
}

const pbc_target pbc_mutant_merge_runs = {
    REF_TARGET_FIELDS("mutant-merge-runs", "one COPY per contiguous MDL run, leaving out each run's last page",
                      REF_MAX_PACKET_BYTES, 0, ref_create_adapter, ref_destroy_adapter, ref_create_allocation,
                      merge_build, ref_patch, ref_submit_command),
};
