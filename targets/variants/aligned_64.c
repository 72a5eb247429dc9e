/*
 * variant-aligned-64: every packet starts 64-byte aligned from the
 * buffer's start, the gap filled with one NOP. S02: operations are packed
 * tightly, but "if the GPU needs alignment, the builder pads itself". The
 * reference is run one packet at a time into a scratch packet, so padding
 * is only written together with the packet it aligns. The harness must
 * accept NOP padding between packets.
 */
#include <string.h>

#include "var_common.h"

#define ALIGN 64u

static NTSTATUS APIENTRY aligned_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    uint8_t *base = (uint8_t *)a->pDmaBuffer - a->DmaBufferWriteOffset; /* S10 */
    uint8_t *cur = a->pDmaBuffer, *end = cur + a->DmaSize;
    DXGKARG_BUILDPAGINGBUFFER step = *a;
    for (;;) {
        uint8_t packet[REF_MAX_PACKET_BYTES];
        size_t len;
        UINT mpo;
        NTSTATUS st = var_ref_one_packet(adapter, &step, packet, &len, &mpo);
        if (len == 0) {
            a->pDmaBuffer = cur;
            a->MultipassOffset = step.MultipassOffset;
            return st;
        }
        size_t pad = (ALIGN - (size_t)(cur - base) % ALIGN) % ALIGN;
        if ((size_t)(end - cur) < pad + len) { /* checked before writing (S07) */
            a->pDmaBuffer = cur;
            a->MultipassOffset = step.MultipassOffset;
            return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
        }
        if (pad)
            cur += ref_encode_nop(cur, (uint32_t)(pad / 4));
        memcpy(cur, packet, len);
        cur += len;
        step.MultipassOffset = mpo;
        if (st != STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER) {
            a->pDmaBuffer = cur;
            a->MultipassOffset = mpo;
            return st;
        }
    }
}

VAR_TARGET(pbc_variant_aligned_64, "variant-aligned-64",
           "pads with NOPs so every packet is 64-byte aligned (S02: the builder pads itself)",
           REF_MAX_PACKET_BYTES, 0, var_create_adapter, aligned_build, var_patch, var_submit);
