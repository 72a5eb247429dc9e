/*
 * variant-early-insufficient: starts a packet only while at least
 * EARLY_MARGIN bytes are left, so it returns INSUFFICIENT_DMA_BUFFER with
 * up to EARLY_MARGIN - 1 bytes unused even where a packet would fit. S07
 * asks the builder to check the space before every write and answer
 * INSUFFICIENT when its work does not fit; nothing requires it to fill the
 * buffer. It declares EARLY_MARGIN as min_dma_size, so it always makes
 * progress on a fresh buffer. The harness must not require a full buffer.
 */
#include "var_common.h"

#define EARLY_MARGIN 128u

static NTSTATUS APIENTRY early_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    /* The reference starts a packet while REF_MAX_PACKET_BYTES are left:
     * hiding the difference makes that EARLY_MARGIN. */
    const UINT hidden = EARLY_MARGIN - REF_MAX_PACKET_BYTES;
    UINT size = a->DmaSize > hidden ? a->DmaSize - hidden : 0;
    return var_ref_window(adapter, a, a->pDmaBuffer, size);
}

VAR_TARGET(pbc_variant_early_insufficient, "variant-early-insufficient",
           "INSUFFICIENT once under 128 bytes are left (S07: check before writing; unused space is allowed)",
           EARLY_MARGIN, 0, var_create_adapter, early_build, var_patch, var_submit);
