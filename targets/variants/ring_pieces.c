/*
 * variant-ring-pieces: SubmitCommand hands the submitted range to the GPU
 * in two pieces split at a packet boundary, the first rebased so that its
 * physical address is the range's own start (phys + start, offsets
 * 0..len). S41 says DmaBufferPhysicalAddress names the buffer's start; S42
 * asks only that exactly the submitted range execute. Patch (which sees
 * the bytes) finds the split point and keeps it per fence id in the
 * adapter. The harness must judge which bytes executed, not the shape of
 * the ring calls.
 */
#include "var_common.h"

#define PIECES_SLOTS 16u

typedef struct pieces_adapter {
    var_adapter base;
    struct {
        UINT fence;
        UINT split; /* packet boundary inside (start, end), or 0 */
    } slot[PIECES_SLOTS];
} pieces_adapter;

static NTSTATUS pieces_create_adapter(const pbc_adapter_info *info, HANDLE *adapter)
{
    return var_adapter_create(info, sizeof(pieces_adapter), adapter);
}

/* The packet boundary nearest the middle of the submission. */
static NTSTATUS APIENTRY pieces_patch(IN_CONST_HANDLE adapter, const DXGKARG_PATCH *p)
{
    pieces_adapter *pa = adapter;
    const uint8_t *buf = p->pDmaBuffer;
    UINT start = p->DmaBufferSubmissionStartOffset, end = p->DmaBufferSubmissionEndOffset;
    UINT mid = start + (end - start) / 2, split = 0;
    for (UINT off = start; off < end;) {
        pbc_uop u;
        size_t len;
        const char *why;
        if (ref_isa.decode(buf + off, end - off, &u, &len, &why) != PBC_DECODE_OK)
            break; /* leave it whole: the GPU will report the bad packet */
        off += (UINT)len;
        if (off < end && (split == 0 || off <= mid))
            split = off;
    }
    UINT i = p->SubmissionFenceId % PIECES_SLOTS;
    pa->slot[i].fence = p->SubmissionFenceId;
    pa->slot[i].split = split;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY pieces_submit(IN_CONST_HANDLE adapter, const DXGKARG_SUBMITCOMMAND *c)
{
    pieces_adapter *pa = adapter;
    const pbc_host *h = pa->base.host;
    uint64_t phys = (uint64_t)c->DmaBufferPhysicalAddress.QuadPart;
    UINT start = c->DmaBufferSubmissionStartOffset, end = c->DmaBufferSubmissionEndOffset;
    UINT i = c->SubmissionFenceId % PIECES_SLOTS;
    UINT split = pa->slot[i].fence == c->SubmissionFenceId ? pa->slot[i].split : 0;
    if (split > start && split < end) {
        h->ring_submit(h->ctx, c->DmaBufferSegmentId, phys + start, 0, split - start);
        h->ring_submit(h->ctx, c->DmaBufferSegmentId, phys, split, end);
    } else {
        h->ring_submit(h->ctx, c->DmaBufferSegmentId, phys + start, 0, end - start);
    }
    h->ring_fence(h->ctx, c->SubmissionFenceId);
    return STATUS_SUCCESS;
}

VAR_TARGET(pbc_variant_ring_pieces, "variant-ring-pieces",
           "rings its range in two rebased pieces at a packet boundary (S41, S42: only the range runs)",
           REF_MAX_PACKET_BYTES, 0, pieces_create_adapter, var_build, pieces_patch, pieces_submit);
