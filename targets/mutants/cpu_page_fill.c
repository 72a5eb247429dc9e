/*
 * mutant-cpu-page-fill: a fill of one page or less is a few stores, so it
 * is done with the CPU at build time, through MmMapIoSpace of the
 * destination, sparing a packet; larger ones go by packets. Its author
 * took a fill for the first use of memory nothing else uses yet. But a
 * fill is paging work like any other: VidMm fills an allocation again
 * after discarding it, and fills a new one into a range another has just
 * left, while the work before (a fill, a move, render work) is still
 * queued; the CPU's bytes land first and that work lands on them
 * (docs/certify-conditions.md, after-queued-work, behind-queued-move).
 */
#include "mutants.h"

#include "variants/var_common.h"

#define SMALL_FILL PAGE_SIZE

static NTSTATUS APIENTRY small_fill_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    const __typeof__(a->Fill) *f = &a->Fill;
    /* Only a fill's first call, with no packets of this buffer before it. */
    if (a->Operation != DXGK_OPERATION_FILL || f->FillSize == 0 || f->FillSize > SMALL_FILL ||
        a->MultipassOffset != 0 || a->DmaBufferWriteOffset != 0)
        return ref_build_paging_buffer(var_ref((HANDLE)adapter), a);
    PHYSICAL_ADDRESS pa = f->Destination.SegmentAddress;
    uint8_t *p = MmMapIoSpace(pa, f->FillSize, MmWriteCombined);
    if (!p)
        return ref_build_paging_buffer(var_ref((HANDLE)adapter), a);
    for (SIZE_T i = 0; i < f->FillSize; i++)
        p[i] = (uint8_t)(f->FillPattern >> (8 * (i % 4)));
    MmUnmapIoSpace(p, f->FillSize);
    return STATUS_SUCCESS;
}

VAR_TARGET(pbc_mutant_cpu_page_fill, "mutant-cpu-page-fill",
           "fills of a page or less with the CPU at build time, ahead of work still queued on the range",
           REF_MAX_PACKET_BYTES, 0, var_create_adapter, small_fill_build, var_patch, var_submit);
