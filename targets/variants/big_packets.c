/*
 * variant-big-packets: one COPY per physically contiguous run of a
 * transfer (segment to segment is one run; an MDL side breaks runs where
 * its pages do) and one FILL per fill, instead of one packet per page; it
 * declares BIG_MIN_DMA as min_dma_size. MultipassOffset still counts pages
 * done, so it resumes across buffers (S09). Nothing in the DDI ties
 * packets to pages (S02, S09: the effect must be as if done in one
 * buffer). The harness must judge effects, not packet counts.
 */
#include "var_common.h"

#define BIG_MIN_DMA 256u
#define BIG_MAX_RUN (1u << 30) /* bytes per packet, a multiple of the page size */

typedef struct big_side {
    UINT segment_id;
    uint64_t address; /* segment side: segment address + TransferOffset */
    const MDL *mdl;
    UINT mdl_offset;
} big_side;

static uint64_t big_page(const big_side *s, uint64_t page)
{
    if (s->segment_id)
        return s->address + page * PAGE_SIZE;
    return (uint64_t)MmGetMdlPfnArray(s->mdl)[s->mdl_offset + page] << PAGE_SHIFT;
}

static NTSTATUS big_copy(DXGKARG_BUILDPAGINGBUFFER *a, HANDLE allocation, DXGK_TRANSFERFLAGS flags,
                         SIZE_T size, const big_side *src, const big_side *dst)
{
    if (ref_allocation_needs_idle(allocation) && !flags.AllocationIsIdle)
        return STATUS_GRAPHICS_ALLOCATION_BUSY; /* nothing written (S22) */
    uint8_t *cur = a->pDmaBuffer, *end = cur + a->DmaSize;
    uint64_t pages = (size + PAGE_SIZE - 1) / PAGE_SIZE;
    uint64_t page = a->MultipassOffset;
    while (page < pages && end - cur >= (ptrdiff_t)(REF_LEN_COPY * 4)) {
        uint64_t s0 = big_page(src, page), d0 = big_page(dst, page), n = 1;
        while (page + n < pages && n * PAGE_SIZE < BIG_MAX_RUN && big_page(src, page + n) == s0 + n * PAGE_SIZE &&
               big_page(dst, page + n) == d0 + n * PAGE_SIZE)
            n++;
        uint64_t bytes = page + n == pages ? size - page * PAGE_SIZE : n * PAGE_SIZE;
        cur += ref_encode_copy(cur, d0, s0, (uint32_t)bytes);
        page += n;
    }
    a->pDmaBuffer = cur;
    a->MultipassOffset = (UINT)page;
    return page == pages ? STATUS_SUCCESS : STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
}

static big_side big_side_of(UINT segment_id, LARGE_INTEGER address, const MDL *mdl, UINT offset,
                            UINT mdl_offset)
{
    /* TransferOffset applies to segment sides only (S13, S14). */
    big_side s = {segment_id, (uint64_t)address.QuadPart + offset, mdl, mdl_offset};
    return s;
}

static NTSTATUS big_fill(DXGKARG_BUILDPAGINGBUFFER *a)
{
    uint8_t *cur = a->pDmaBuffer, *end = cur + a->DmaSize;
    uint64_t size = a->Fill.FillSize, done = (uint64_t)a->MultipassOffset * PAGE_SIZE;
    while (done < size && end - cur >= (ptrdiff_t)(REF_LEN_FILL * 4)) {
        uint64_t bytes = size - done < BIG_MAX_RUN ? size - done : BIG_MAX_RUN;
        cur += ref_encode_fill(cur, (uint64_t)a->Fill.Destination.SegmentAddress.QuadPart + done,
                               (uint32_t)bytes, a->Fill.FillPattern);
        done += bytes;
    }
    a->pDmaBuffer = cur;
    a->MultipassOffset = (UINT)((done + PAGE_SIZE - 1) / PAGE_SIZE);
    return done >= size ? STATUS_SUCCESS : STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
}

static NTSTATUS APIENTRY big_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->Operation == DXGK_OPERATION_TRANSFER) {
        const __typeof__(a->Transfer) *t = &a->Transfer;
        big_side src = big_side_of(t->Source.SegmentId, t->Source.SegmentAddress, t->Source.pMdl,
                                   t->TransferOffset, t->MdlOffset);
        big_side dst = big_side_of(t->Destination.SegmentId, t->Destination.SegmentAddress,
                                   t->Destination.pMdl, t->TransferOffset, t->MdlOffset);
        return big_copy(a, t->hAllocation, t->Flags, t->TransferSize, &src, &dst);
    }
    if (a->Operation == DXGK_OPERATION_SPECIAL_LOCK_TRANSFER) {
        /* No MdlOffset here: an MDL side starts at its first page. */
        const __typeof__(a->SpecialLockTransfer) *t = &a->SpecialLockTransfer;
        big_side src = big_side_of(t->Source.SegmentId, t->Source.SegmentAddress, t->Source.pMdl,
                                   t->TransferOffset, 0);
        big_side dst = big_side_of(t->Destination.SegmentId, t->Destination.SegmentAddress,
                                   t->Destination.pMdl, t->TransferOffset, 0);
        return big_copy(a, t->hAllocation, t->Flags, t->TransferSize, &src, &dst);
    }
    if (a->Operation == DXGK_OPERATION_FILL)
        return big_fill(a);
    return ref_build_paging_buffer(var_ref(adapter), a);
}

VAR_TARGET(pbc_variant_big_packets, "variant-big-packets",
           "one COPY per contiguous run, one FILL per fill, min_dma_size 256 (S02, S09)",
           BIG_MIN_DMA, 0, var_create_adapter, big_build, var_patch, var_submit);
