/*
 * excpu_hw.h — the hardware of the "ExCpu" example: a GART programmed by
 * 32-bit register stores, and the two blit packets the driver falls back
 * on when a CPU copy would race the GPU. Shared by the driver
 * (excpu_ddi.c) and the decoder (excpu_isa.c).
 *
 * Packets are little-endian dwords; the header dword is
 *   bits 24-31 opcode, bits 0-7 length in dwords (header included).
 */
#ifndef EXCPU_HW_H
#define EXCPU_HW_H

#include <stdint.h>

#include <pbcheck/isa.h>

#define EXCPU_OP_BLIT 0xB1 /* d1-d2 dst, d3-d4 src, d5 bytes (at most one page) */
#define EXCPU_OP_SOLID 0xB2 /* d1-d2 dst, d3 bytes (at most one page), d4 pattern */
/* WDDM 2.x: the same two by GPU virtual addresses (translated by the
 * GPU's MMU through the page tables the driver keeps), a TLB invalidate,
 * and the marker of CPU work the driver does at that point of the queue. */
#define EXCPU_OP_VBLIT 0xB3 /* as BLIT, both addresses GPU virtual */
#define EXCPU_OP_VSOLID 0xB4 /* as SOLID, dst GPU virtual */
#define EXCPU_OP_TLB_INVALIDATE 0xB6 /* d1-d2 root table, d3-d4 first address, d5-d6 bytes (0: all) */
#define EXCPU_OP_CPU_WORK 0xB7 /* d1 the driver's work item: the GPU does nothing */
#define EXCPU_LEN_BLIT 6u
#define EXCPU_LEN_SOLID 5u
#define EXCPU_LEN_TLB_INVALIDATE 7u
#define EXCPU_LEN_CPU_WORK 2u
#define EXCPU_MAX_PACKET_BYTES 28u
#define EXCPU_CHUNK 4096u

/* GART registers (byte offsets in the register file). A store to
 * GART_ENTRY programs entry GART_INDEX of the aperture selected by
 * GART_INDEX bits 24-31; a read of GART_INVALIDATE then flushes the GART
 * cache. An entry is EXCPU_PTE_VALID | page number << EXCPU_PTE_PFN_SHIFT. */
#define EXCPU_REG_GART_INDEX 0x040u
#define EXCPU_REG_GART_ENTRY 0x044u
#define EXCPU_REG_GART_INVALIDATE 0x048u
#define EXCPU_PTE_VALID 0x1u
#define EXCPU_PTE_SNOOP 0x2u
#define EXCPU_PTE_PFN_SHIFT 4
#define EXCPU_GART_APERTURE_SHIFT 24

static inline uint32_t excpu_rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void excpu_wr32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++, v >>= 8)
        p[i] = (uint8_t)v;
}

/* The decoder pbcheck runs ExCpu packets with (excpu_isa.c). */
extern const pbc_isa excpu_isa;

#endif
