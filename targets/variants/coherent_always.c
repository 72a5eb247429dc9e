/*
 * variant-coherent-always: maps every aperture page cache-coherent, also
 * when CacheCoherent was not requested. S31 demands coherence only when it
 * is requested ("With CacheCoherent set the mapped pages must be
 * cache-coherent"); giving it always is a legal, if slower, choice. The
 * harness must not compare GART coherence flags exactly.
 */
#include "var_common.h"

static NTSTATUS APIENTRY coherent_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    DXGKARG_BUILDPAGINGBUFFER local = *a;
    if (local.Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT)
        local.MapApertureSegment.Flags.CacheCoherent = 1;
    NTSTATUS st = ref_build_paging_buffer(var_ref(adapter), &local);
    a->pDmaBuffer = local.pDmaBuffer;
    a->MultipassOffset = local.MultipassOffset;
    return st;
}

VAR_TARGET(pbc_variant_coherent_always, "variant-coherent-always",
           "maps all aperture pages coherent (S31: coherence is required only when requested)",
           REF_MAX_PACKET_BYTES, 0, var_create_adapter, coherent_build, var_patch, var_submit);
