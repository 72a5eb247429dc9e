/*
 * Shared plumbing of the variant builders: the adapter that wraps the
 * reference's, and ways to run the reference on part of a paging buffer
 * so that a variant's one choice is the only difference.
 */
#include "var_common.h"

#include <stdlib.h>

NTSTATUS var_adapter_create(const pbc_adapter_info *info, size_t size, HANDLE *adapter)
{
    var_adapter *v = calloc(1, size < sizeof(*v) ? sizeof(*v) : size);
    if (!v)
        return STATUS_NO_MEMORY;
    NTSTATUS st = ref_create_adapter(info, &v->ref);
    if (st != STATUS_SUCCESS) {
        free(v);
        return st;
    }
    v->host = ref_adapter_host(v->ref);
    *adapter = v;
    return STATUS_SUCCESS;
}

NTSTATUS var_create_adapter(const pbc_adapter_info *info, HANDLE *adapter)
{
    return var_adapter_create(info, sizeof(var_adapter), adapter);
}

void var_adapter_destroy(HANDLE adapter)
{
    if (!adapter)
        return;
    ref_destroy_adapter(var_ref(adapter));
    free(adapter);
}

NTSTATUS var_ref_window(HANDLE adapter, DXGKARG_BUILDPAGINGBUFFER *a, uint8_t *start, UINT size)
{
    DXGKARG_BUILDPAGINGBUFFER local = *a;
    local.pDmaBuffer = start;
    local.DmaSize = size;
    NTSTATUS st = ref_build_paging_buffer(var_ref(adapter), &local);
    a->pDmaBuffer = local.pDmaBuffer;
    a->MultipassOffset = local.MultipassOffset;
    return st;
}

NTSTATUS var_ref_one_packet(HANDLE adapter, const DXGKARG_BUILDPAGINGBUFFER *a, uint8_t *packet,
                            size_t *len, UINT *mpo)
{
    /* Every reference packet is 16 to 28 bytes: two never fit in 28. */
    DXGKARG_BUILDPAGINGBUFFER local = *a;
    local.pDmaBuffer = packet;
    local.DmaSize = REF_MAX_PACKET_BYTES;
    NTSTATUS st = ref_build_paging_buffer(var_ref(adapter), &local);
    *len = (size_t)((uint8_t *)local.pDmaBuffer - packet);
    *mpo = local.MultipassOffset;
    return st;
}

NTSTATUS APIENTRY var_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    return ref_build_paging_buffer(var_ref(adapter), a);
}

NTSTATUS APIENTRY var_patch(IN_CONST_HANDLE adapter, const DXGKARG_PATCH *p)
{
    return ref_patch(var_ref(adapter), p);
}

NTSTATUS APIENTRY var_submit(IN_CONST_HANDLE adapter, const DXGKARG_SUBMITCOMMAND *c)
{
    return ref_submit_command(var_ref(adapter), c);
}

NTSTATUS var_build_buffered(HANDLE adapter, DXGKARG_BUILDPAGINGBUFFER *a, DXGKDDI_BUILDPAGINGBUFFER *build)
{
    if (!a->pDmaBuffer)
        return ref_build_paging_buffer(var_ref(adapter), a);
    return build(adapter, a);
}
