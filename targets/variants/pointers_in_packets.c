/*
 * variant-pointers-in-packets: before the work of each call, a NOP whose
 * payload carries the operation's MDL pointer and the adapter's own
 * address — bookkeeping a driver reads back in a debugger, which the GPU
 * ignores. The addresses change from run to run; what the DDI cares about
 * (the GPU's effect, S09's "as if done in one buffer", S42) does not. The
 * harness must not compare raw paging-buffer bytes across runs (PB-NONDET)
 * where a NOP's payload differs.
 */
#include <string.h>

#include "var_common.h"

#define TAG_DWORDS 5u /* header, MDL pointer, adapter pointer */
#define TAG_BYTES (TAG_DWORDS * 4u)

static const void *pointers_mdl(const DXGKARG_BUILDPAGINGBUFFER *a)
{
    switch (a->Operation) {
    case DXGK_OPERATION_TRANSFER:
        return a->Transfer.Source.SegmentId ? (const void *)a->Transfer.Destination.pMdl
                                            : (const void *)a->Transfer.Source.pMdl;
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT:
        return a->MapApertureSegment.pMdl;
    default:
        return NULL;
    }
}

static NTSTATUS APIENTRY pointers_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    uint8_t *start = a->pDmaBuffer;
    if (a->DmaSize < TAG_BYTES)
        return var_ref_window(adapter, a, start, 0);
    NTSTATUS st = var_ref_window(adapter, a, start + TAG_BYTES, a->DmaSize - TAG_BYTES);
    if ((uint8_t *)a->pDmaBuffer == start + TAG_BYTES) {
        a->pDmaBuffer = start; /* no work: no tag either */
        return st;
    }
    uint64_t mdl = (uint64_t)(uintptr_t)pointers_mdl(a), self = (uint64_t)(uintptr_t)adapter;
    ref_encode_nop(start, TAG_DWORDS);
    memcpy(start + 4, &mdl, 8);
    memcpy(start + 12, &self, 8);
    return st;
}

VAR_TARGET(pbc_variant_pointers_in_packets, "variant-pointers-in-packets",
           "NOPs carrying host pointers the GPU ignores (S09/S42 judge effects, not bytes)",
           TAG_BYTES + REF_MAX_PACKET_BYTES, 0, var_create_adapter, pointers_build, var_patch,
           var_submit);
