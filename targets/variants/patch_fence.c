/*
 * variant-patch-fence: the fence is a packet, not a ring call. Every
 * BuildPagingBuffer call that writes work ends it with a FENCE placeholder
 * (id 0); Patch, which sees the submission's range (S38), turns the
 * earlier placeholders inside [start, end) into NOPs and writes
 * SubmissionFenceId into the last, so each submission ends with exactly
 * one fence packet. This is the pattern the DXGKARG_PATCH page documents:
 * SubmissionFenceId is "a unique identifier that the driver can write to
 * the fence command at the end of the DMA buffer"; S46 only asks that the
 * fence be written after the submitted buffer completes. SubmitCommand
 * therefore never calls ring_fence. The harness must accept a fence
 * written by the submission's own last packet.
 */
#include "var_common.h"

#define FENCE_BYTES (REF_LEN_FENCE * 4u)

static NTSTATUS APIENTRY fence_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    uint8_t *start = a->pDmaBuffer;
    UINT room = a->DmaSize > FENCE_BYTES ? a->DmaSize - FENCE_BYTES : 0;
    NTSTATUS st = var_ref_window(adapter, a, start, room);
    uint8_t *cur = a->pDmaBuffer;
    if (cur != start) /* room for the placeholder was kept back */
        a->pDmaBuffer = cur + ref_encode_fence(cur, 0);
    return st;
}

/* Walks the submission's packets with the reference decoder. */
static NTSTATUS APIENTRY fence_patch(IN_CONST_HANDLE adapter, const DXGKARG_PATCH *p)
{
    (void)adapter;
    uint8_t *buf = p->pDmaBuffer;
    uint8_t *last = NULL;
    for (UINT off = p->DmaBufferSubmissionStartOffset; off < p->DmaBufferSubmissionEndOffset;) {
        pbc_uop u;
        size_t len;
        const char *why;
        if (ref_isa.decode(buf + off, p->DmaBufferSubmissionEndOffset - off, &u, &len, &why) !=
            PBC_DECODE_OK)
            return STATUS_INVALID_PARAMETER; /* not a buffer this builder wrote */
        if (u.kind == PBC_UOP_FENCE) {
            if (last)
                ref_encode_nop(last, REF_LEN_FENCE);
            last = buf + off;
        }
        off += (UINT)len;
    }
    if (!last)
        return STATUS_INVALID_PARAMETER;
    ref_encode_fence(last, p->SubmissionFenceId);
    return STATUS_SUCCESS;
}

/* Executes exactly [start, end) (S42); its last packet is the fence. */
static NTSTATUS APIENTRY fence_submit(IN_CONST_HANDLE adapter, const DXGKARG_SUBMITCOMMAND *c)
{
    const pbc_host *h = ((var_adapter *)adapter)->host;
    h->ring_submit(h->ctx, c->DmaBufferSegmentId, (uint64_t)c->DmaBufferPhysicalAddress.QuadPart,
                   c->DmaBufferSubmissionStartOffset, c->DmaBufferSubmissionEndOffset);
    return STATUS_SUCCESS;
}

VAR_TARGET(pbc_variant_patch_fence, "variant-patch-fence",
           "Patch writes SubmissionFenceId into a fence packet ending the submission (DXGKARG_PATCH, S46)",
           REF_MAX_PACKET_BYTES + FENCE_BYTES, 0, var_create_adapter, fence_build, fence_patch,
           fence_submit);
