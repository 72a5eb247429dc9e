/*
 * mutant-ring-base-twice: rings a paging buffer that VidMm placed in a
 * memory segment at the segment's base plus DmaBufferPhysicalAddress, as
 * its ring takes the GPU addresses of its own allocations: its author
 * read the address of a buffer in a segment as an offset into it. It is
 * the segment base plus the offset already (S40). In a segment based at 0
 * the two agree; in one higher up, the GPU fetches the paging buffer from
 * beyond it (docs/certify-conditions.md, buffer-in-high-segment).
 * PB-EXEC-RANGE must catch it.
 */
#include "mutants.h"

#include "variants/var_common.h"

typedef struct base_adapter {
    var_adapter base;
    const pbc_segment_info *segments; /* valid until destroy_adapter */
    uint32_t segment_count;
} base_adapter;

static NTSTATUS APIENTRY base_create(const pbc_adapter_info *info, HANDLE *adapter)
{
    NTSTATUS st = var_adapter_create(info, sizeof(base_adapter), adapter);
    if (!NT_SUCCESS(st))
        return st;
    base_adapter *b = *adapter;
    b->segments = info->segments;
    b->segment_count = info->segment_count;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY base_submit(IN_CONST_HANDLE adapter, const DXGKARG_SUBMITCOMMAND *c)
{
    const base_adapter *b = adapter;
    uint64_t gpu = (uint64_t)c->DmaBufferPhysicalAddress.QuadPart;
    for (uint32_t i = 0; c->DmaBufferSegmentId && i < b->segment_count; i++)
        if (b->segments[i].SegmentId == c->DmaBufferSegmentId)
            gpu += b->segments[i].base; /* the bug: it is there already */
    b->base.host->ring_submit(b->base.host->ctx, c->DmaBufferSegmentId, gpu, c->DmaBufferSubmissionStartOffset,
                              c->DmaBufferSubmissionEndOffset);
    b->base.host->ring_fence(b->base.host->ctx, c->SubmissionFenceId);
    return STATUS_SUCCESS;
}

VAR_TARGET(pbc_mutant_ring_base_twice, "mutant-ring-base-twice",
           "rings a paging buffer in a segment at the segment's base plus its address, taken for an offset",
           REF_MAX_PACKET_BYTES, 0, base_create, var_build, var_patch, base_submit);
