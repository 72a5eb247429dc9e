/*
 * variant-inline-data: implements Fill without the FILL packet. Each call
 * that fills puts INLINE_BLOCK bytes of the pattern into the paging buffer
 * itself (as the payload of a NOP the GPU skips) and then COPYs that block
 * to the destination again and again, the COPY's source being the block's
 * own address: DmaBufferGpuVirtualAddress + DmaBufferWriteOffset + its
 * offset in this call. S10 says that is where the buffer is paged (the
 * reference ISA addresses memory physically, and the buffer is paged at
 * its physical address). MultipassOffset counts the blocks done. The
 * harness's GPU must be able to read the paging buffer as memory.
 */
#include <string.h>

#include "var_common.h"

#define INLINE_BLOCK 256u
#define INLINE_HEAD (4u + INLINE_BLOCK) /* NOP header + pattern */
#define INLINE_MIN_DMA (INLINE_HEAD + REF_LEN_COPY * 4u)

static NTSTATUS inline_fill(DXGKARG_BUILDPAGINGBUFFER *a)
{
    const __typeof__(a->Fill) *f = &a->Fill;
    uint8_t *start = a->pDmaBuffer, *end = start + a->DmaSize, *cur = start;
    uint64_t blocks = (f->FillSize + INLINE_BLOCK - 1) / INLINE_BLOCK;
    uint64_t done = a->MultipassOffset;
    if (done < blocks && a->DmaSize >= INLINE_MIN_DMA) {
        cur += ref_encode_nop(cur, INLINE_HEAD / 4);
        for (uint32_t i = 0; i < INLINE_BLOCK; i += 4)
            memcpy(start + 4 + i, &f->FillPattern, 4); /* little-endian, as FILL repeats it */
        uint64_t block = a->DmaBufferGpuVirtualAddress + a->DmaBufferWriteOffset + 4;
        while (done < blocks && end - cur >= (ptrdiff_t)(REF_LEN_COPY * 4)) {
            uint64_t off = done * INLINE_BLOCK;
            uint64_t bytes = f->FillSize - off < INLINE_BLOCK ? f->FillSize - off : INLINE_BLOCK;
            cur += ref_encode_copy(cur, (uint64_t)f->Destination.SegmentAddress.QuadPart + off, block,
                                   (uint32_t)bytes);
            done++;
        }
    }
    a->pDmaBuffer = cur;
    a->MultipassOffset = (UINT)done;
    return done == blocks ? STATUS_SUCCESS : STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
}

static NTSTATUS APIENTRY inline_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->Operation == DXGK_OPERATION_FILL)
        return inline_fill(a);
    return ref_build_paging_buffer(var_ref(adapter), a);
}

VAR_TARGET(pbc_variant_inline_data, "variant-inline-data",
           "fills by copying a pattern block from the paging buffer's own address (S10)",
           INLINE_MIN_DMA, 0, var_create_adapter, inline_build, var_patch, var_submit);
