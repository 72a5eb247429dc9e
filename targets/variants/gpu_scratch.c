/*
 * variant-gpu-scratch: keeps the last SCRATCH_BYTES of every paging
 * buffer for itself and uses them as GPU scratch. Its packets never go
 * there (every operation is built by the reference in the buffer's space
 * less those bytes), so they are never submitted and the GPU never
 * fetches them; ReadPhysical and WritePhysical bounce through them with
 * GPU copies: ReadPhysical copies the 4 bytes at PhysicalAddress into the
 * scratch and reads them back from there, WritePhysical writes 4 bytes
 * into the scratch and copies them to PhysicalAddress.
 *
 * The DDI hands the builder the DMA buffer from pDmaBuffer to
 * pDmaBuffer + DmaSize (S04) and says only that the builder advances
 * pDmaBuffer past the commands it wrote (S03); what it does with the
 * space it leaves unused, and how its commands use memory they can reach
 * (the buffer is paged at DmaBufferGpuVirtualAddress, S10), is not
 * restricted. The scratch's GPU address is the buffer's end:
 * DmaBufferGpuVirtualAddress + DmaBufferWriteOffset + DmaSize, less
 * SCRATCH_BYTES.
 */
#include "var_common.h"

#define SCRATCH_BYTES 16u
#define SCRATCH_PHYSICAL_BYTES (REF_LEN_WRITE * 4u + REF_LEN_COPY * 4u) /* the larger bounce */
#define SCRATCH_MIN_DMA (SCRATCH_BYTES + SCRATCH_PHYSICAL_BYTES)

static NTSTATUS scratch_physical(DXGKARG_BUILDPAGINGBUFFER *a)
{
    uint8_t *cur = a->pDmaBuffer;
    if (a->DmaSize - SCRATCH_BYTES < SCRATCH_PHYSICAL_BYTES)
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    uint64_t scratch = a->DmaBufferGpuVirtualAddress + a->DmaBufferWriteOffset + a->DmaSize - SCRATCH_BYTES;
    if (a->Operation == DXGK_OPERATION_READ_PHYSICAL) {
        uint64_t at = (uint64_t)a->ReadPhysical.PhysicalAddress.QuadPart;
        cur += ref_encode_copy(cur, scratch, at, 4);
        cur += ref_encode_read(cur, scratch, 4);
    } else {
        uint64_t at = (uint64_t)a->WritePhysical.PhysicalAddress.QuadPart;
        cur += ref_encode_write(cur, scratch, 4, 0);
        cur += ref_encode_copy(cur, at, scratch, 4);
    }
    a->pDmaBuffer = cur;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY scratch_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->DmaSize <= SCRATCH_BYTES)
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER; /* only the scratch is left: never a fresh buffer */
    if (a->Operation == DXGK_OPERATION_READ_PHYSICAL || a->Operation == DXGK_OPERATION_WRITE_PHYSICAL)
        return scratch_physical(a);
    return var_ref_window(adapter, a, a->pDmaBuffer, a->DmaSize - SCRATCH_BYTES);
}

VAR_TARGET(pbc_variant_gpu_scratch, "variant-gpu-scratch",
           "bounces ReadPhysical and WritePhysical through GPU scratch in the unused end of its buffer",
           SCRATCH_MIN_DMA, 0, var_create_adapter, scratch_build, var_patch, var_submit);
