/*
 * variant-nop-closer: closes each piece of work it leaves with a NOP: the
 * rest of the buffer when it answers INSUFFICIENT_DMA_BUFFER, and one
 * dword after each completed operation, whenever there is room. S02 lets
 * a builder pad its own buffer; S03 only asks pDmaBuffer to move past what
 * was written. The harness must accept NOPs anywhere in the stream.
 */
#include "var_common.h"

static NTSTATUS APIENTRY closer_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    uint8_t *end = (uint8_t *)a->pDmaBuffer + a->DmaSize;
    NTSTATUS st = ref_build_paging_buffer(var_ref(adapter), a);
    uint8_t *cur = a->pDmaBuffer;
    size_t left = (size_t)(end - cur);
    if (st == STATUS_GRAPHICS_ALLOCATION_BUSY || left < 4)
        return st; /* busy: nothing may be consumed (S22) */
    /* One NOP can span 0xFFFF dwords at most. */
    uint32_t dwords = st == STATUS_SUCCESS ? 1u : (uint32_t)(left / 4 > 0xFFFF ? 0xFFFF : left / 4);
    a->pDmaBuffer = cur + ref_encode_nop(cur, dwords);
    return st;
}

VAR_TARGET(pbc_variant_nop_closer, "variant-nop-closer",
           "closes every buffer and operation with a NOP when room allows (S02: the builder may pad)",
           REF_MAX_PACKET_BYTES, 0, var_create_adapter, closer_build, var_patch, var_submit);
