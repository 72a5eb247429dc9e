/*
 * variant-nop-scratch: bounces ReadPhysical and WritePhysical through GPU
 * scratch inside its own packets: the payload of a NOP placed right after
 * the bounce, in the same submission. The GPU writes those bytes before it
 * fetches the NOP, and a NOP's payload is ignored (docs/reference-isa.md),
 * so the write changes nothing the GPU runs. ReadPhysical copies the 4
 * bytes at PhysicalAddress into the payload and reads them back from
 * there; WritePhysical writes 4 bytes into it and copies them to
 * PhysicalAddress. Every other operation is the reference's.
 *
 * Legal: the buffer is the driver's to fill (S03, S04) and is paged at
 * DmaBufferGpuVirtualAddress (S10), so its commands may reach it; the DDI
 * does not say which of its bytes the GPU may write. What such a write
 * breaks is what counts: here nothing (docs/rules.md, "The paging-buffer
 * pool as memory"; mutant-scratch-unfetched writes over packets instead).
 */
#include "var_common.h"

#define NOP_DWORDS 2u /* the header and one ignored dword: the scratch */
#define NOP_BOUNCE_BYTES (REF_LEN_WRITE * 4u + REF_LEN_COPY * 4u + NOP_DWORDS * 4u) /* the larger bounce */

static NTSTATUS APIENTRY nop_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    int read = a->Operation == DXGK_OPERATION_READ_PHYSICAL;
    if (!read && a->Operation != DXGK_OPERATION_WRITE_PHYSICAL)
        return var_ref_window((HANDLE)adapter, a, a->pDmaBuffer, a->DmaSize);
    if (a->DmaSize < NOP_BOUNCE_BYTES)
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    uint8_t *cur = a->pDmaBuffer;
    uint64_t here = a->DmaBufferGpuVirtualAddress + a->DmaBufferWriteOffset;
    uint64_t nop = here + (read ? REF_LEN_COPY + REF_LEN_READ : REF_LEN_WRITE + REF_LEN_COPY) * 4u;
    uint64_t scratch = nop + 4; /* the NOP's payload */
    if (read) {
        cur += ref_encode_copy(cur, scratch, (uint64_t)a->ReadPhysical.PhysicalAddress.QuadPart, 4);
        cur += ref_encode_read(cur, scratch, 4);
    } else {
        cur += ref_encode_write(cur, scratch, 4, 0);
        cur += ref_encode_copy(cur, (uint64_t)a->WritePhysical.PhysicalAddress.QuadPart, scratch, 4);
    }
    cur += ref_encode_nop(cur, NOP_DWORDS);
    a->pDmaBuffer = cur;
    return STATUS_SUCCESS;
}

VAR_TARGET(pbc_variant_nop_scratch, "variant-nop-scratch",
           "GPU scratch in the ignored payload of a NOP after the bounce, in packets still to be fetched",
           NOP_BOUNCE_BYTES, 0, var_create_adapter, nop_build, var_patch, var_submit);
