/*
 * mutant-scratch-unfetched: bounces ReadPhysical and WritePhysical
 * through GPU scratch as variant-gpu-scratch does, but takes as scratch
 * the 16 bytes right past the packets it just wrote instead of keeping
 * the end of the buffer for it. Those bytes are where the next operation
 * in the same buffer writes its packets: when the GPU runs the bounce
 * after that, its scratch write lands on packets it has yet to fetch (or,
 * past the buffer's end, on the guard page). Alone in its buffer, or run
 * before anything follows it, it does no harm. PB-GPU-FAULT: a GPU write
 * into bytes of the paging buffer still to be fetched.
 */
#include "mutants.h"

#include "variants/var_common.h"

#define BOUNCE_BYTES (REF_LEN_WRITE * 4u + REF_LEN_COPY * 4u)

static NTSTATUS APIENTRY unfetched_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->Operation != DXGK_OPERATION_READ_PHYSICAL && a->Operation != DXGK_OPERATION_WRITE_PHYSICAL)
        return ref_build_paging_buffer(var_ref(adapter), a);
    if (a->DmaSize < BOUNCE_BYTES)
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    uint8_t *cur = a->pDmaBuffer;
    /* The bug: the scratch is the space right past this call's packets. */
    uint64_t scratch = a->DmaBufferGpuVirtualAddress + a->DmaBufferWriteOffset + BOUNCE_BYTES;
    if (a->Operation == DXGK_OPERATION_READ_PHYSICAL) {
        cur += ref_encode_copy(cur, scratch, (uint64_t)a->ReadPhysical.PhysicalAddress.QuadPart, 4);
        cur += ref_encode_read(cur, scratch, 4);
        cur += ref_encode_nop(cur, REF_LEN_WRITE - REF_LEN_READ); /* as long as the other bounce */
    } else {
        cur += ref_encode_write(cur, scratch, 4, 0);
        cur += ref_encode_copy(cur, (uint64_t)a->WritePhysical.PhysicalAddress.QuadPart, scratch, 4);
    }
    a->pDmaBuffer = cur;
    return STATUS_SUCCESS;
}

const pbc_target pbc_mutant_scratch_unfetched = {
    REF_TARGET_FIELDS_OPS(REF_OPERATIONS_GPUMMU, "mutant-scratch-unfetched",
                          "GPU scratch right past its packets, where the next packets go", BOUNCE_BYTES, 0,
                          var_create_adapter, var_adapter_destroy, ref_create_allocation, ref_destroy_allocation,
                          unfetched_build, var_patch, var_submit),
};
