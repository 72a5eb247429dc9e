/*
 * variant-own-progress: keeps the progress of the current operation in
 * its adapter and leaves MultipassOffset at 0. S09 says the builder
 * resumes "from its own progress"; the DDI page says the driver *can* use
 * MultipassOffset for it, not that it must. S08 is what makes this work:
 * after INSUFFICIENT_DMA_BUFFER, VidMm calls again with the same operation,
 * so a call that follows an INSUFFICIENT answer continues it and any other
 * call starts a new one. The state lives in the adapter, which the harness
 * creates per run, so two runs behave the same. The harness must not infer
 * a livelock from an unchanged MultipassOffset.
 */
#include <string.h>

#include "var_common.h"

typedef struct own_adapter {
    var_adapter base;
    int pending;          /* the last call answered INSUFFICIENT */
    UINT operation;       /* ... for this operation */
    UINT done;            /* and had done this many reference chunks */
} own_adapter;

static NTSTATUS own_create_adapter(const pbc_adapter_info *info, HANDLE *adapter)
{
    return var_adapter_create(info, sizeof(own_adapter), adapter);
}

static NTSTATUS APIENTRY own_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    own_adapter *o = adapter;
    DXGKARG_BUILDPAGINGBUFFER local = *a;
    int resume = o->pending && o->operation == a->Operation;
    local.MultipassOffset = resume ? o->done : 0;
    NTSTATUS st = ref_build_paging_buffer(o->base.ref, &local);
    a->pDmaBuffer = local.pDmaBuffer;
    /* BUSY leaves the progress as it was: nothing was written (S22). */
    if (st != STATUS_GRAPHICS_ALLOCATION_BUSY) {
        o->pending = st == STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
        o->operation = a->Operation;
        o->done = local.MultipassOffset;
    }
    a->MultipassOffset = 0;
    return st;
}

VAR_TARGET(pbc_variant_own_progress, "variant-own-progress",
           "progress kept in the adapter, MultipassOffset left 0 (S09: the driver can use it, need not)",
           REF_MAX_PACKET_BYTES, 0, own_create_adapter, own_build, var_patch, var_submit);
