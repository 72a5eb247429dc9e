/*
 * variant-flush-all: answers every FlushTlb by flushing the whole TLB of
 * every address space. FlushTlb asks for a range to be flushed; flushing
 * more costs only lookups, and the DDI asks for nothing to survive it
 * (docs/rules.md, PB-TLB: what is allowed). The harness must not ask for
 * a translation to stay cached.
 */
#include "var_common.h"

#include "ref_isa.h"

static NTSTATUS APIENTRY flush_all_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->Operation != DXGK_OPERATION_FLUSH_TLB)
        return ref_build_paging_buffer(var_ref(adapter), a);
    uint8_t *cur = a->pDmaBuffer;
    if (a->DmaSize < REF_LEN_TLB_FLUSH * 4)
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER; /* a fresh buffer always has room */
    a->pDmaBuffer = cur + ref_encode_tlb_flush(cur, 0, 0, 0);
    return STATUS_SUCCESS;
}

const pbc_target pbc_variant_flush_all = {
    REF_TARGET_FIELDS_OPS(REF_OPERATIONS_GPUMMU, "variant-flush-all",
                          "flushes the whole TLB of every address space for each FlushTlb", REF_MAX_PACKET_BYTES, 0,
                          var_create_adapter, var_adapter_destroy, ref_create_allocation, ref_destroy_allocation,
                          flush_all_build, var_patch, var_submit),
};
