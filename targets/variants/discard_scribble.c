/*
 * variant-discard-scribble: on DiscardContent, fills the discarded range
 * with a poison pattern (as a driver might to catch use of stale data).
 * S27 makes discarded content undefined, so anything may be left there;
 * the harness must mask those bytes rather than compare them.
 */
#include "var_common.h"

#define SCRIBBLE_PATTERN 0xDEADBEEFu

static NTSTATUS APIENTRY scribble_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->Operation != DXGK_OPERATION_DISCARD_CONTENT)
        return var_build(adapter, a);
    uint64_t size = ref_allocation_size(a->DiscardContent.hAllocation);
    uint64_t base = (uint64_t)a->DiscardContent.SegmentAddress.QuadPart;
    uint8_t *p = a->pDmaBuffer, *end = p + a->DmaSize;
    for (uint64_t at = (uint64_t)a->MultipassOffset * REF_CHUNK; at < size; at += REF_CHUNK) {
        if (end - p < (ptrdiff_t)(REF_LEN_FILL * 4)) {
            a->pDmaBuffer = p;
            a->MultipassOffset = (UINT)(at / REF_CHUNK);
            return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
        }
        uint64_t n = size - at < REF_CHUNK ? size - at : REF_CHUNK;
        p += ref_encode_fill(p, base + at, (uint32_t)n, SCRIBBLE_PATTERN);
    }
    a->pDmaBuffer = p;
    return STATUS_SUCCESS;
}

VAR_TARGET(pbc_variant_discard_scribble, "variant-discard-scribble",
           "poisons discarded memory (S27: discarded content is undefined)", REF_MAX_PACKET_BYTES, 0,
           var_create_adapter, scribble_build, var_patch, var_submit);
