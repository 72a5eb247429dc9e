/*
 * exgpu_hw.h — the hardware of the "ExGpu" example: its command packets
 * and its registers. Shared by the driver (exgpu_ddi.c) and the command
 * decoder (exgpu_isa.c), as a vendor's register headers are.
 *
 * Packets are little-endian 64-bit qwords. The first qword is the header:
 *   bits 0-7 opcode, bits 8-15 length in qwords (header included),
 *   bits 16-31 zero, bits 32-63 an opcode-specific immediate.
 */
#ifndef EXGPU_HW_H
#define EXGPU_HW_H

#include <stdint.h>

#include <pbcheck/isa.h>

#define EXGPU_OP_COPY 0x21  /* imm = bytes; q1 = dst, q2 = src (one contiguous run) */
#define EXGPU_OP_FILL 0x22  /* imm = pattern; q1 = dst, q2 = bytes */
#define EXGPU_OP_READ 0x23  /* imm = width (1..8); q1 = address */
#define EXGPU_OP_WRITE 0x24 /* imm = width (1..8); q1 = address, q2 = value */

#define EXGPU_LEN_COPY 3u
#define EXGPU_LEN_FILL 3u
#define EXGPU_LEN_READ 2u
#define EXGPU_LEN_WRITE 3u
#define EXGPU_MAX_PACKET_BYTES 24u

/* The copy engine moves one physically contiguous run per packet, at most
 * this many bytes. */
#define EXGPU_MAX_RUN 0x100000u

/* GART programming: an index/data register triple. Writing GART_DATA_HI
 * latches {DATA_LO, DATA_HI} into entry GART_INDEX of aperture
 * GART_INDEX >> 24. The entries cannot be read back through the pair, so
 * the driver keeps a shadow of what it programmed. Byte offsets in the
 * register file. */
#define EXGPU_REG_GART_INDEX 0x100u
#define EXGPU_REG_GART_DATA_LO 0x104u /* bit 0 valid, bit 1 snooped, bits 12-31 address */
#define EXGPU_REG_GART_DATA_HI 0x108u /* address bits 32-63; the write commits */
#define EXGPU_GART_VALID 0x1u
#define EXGPU_GART_SNOOP 0x2u
#define EXGPU_GART_APERTURE_SHIFT 24

static inline uint64_t exgpu_rd64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static inline void exgpu_wr64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++, v >>= 8)
        p[i] = (uint8_t)v;
}

static inline uint64_t exgpu_header(uint32_t opcode, uint32_t qwords, uint32_t imm)
{
    return (uint64_t)opcode | (uint64_t)qwords << 8 | (uint64_t)imm << 32;
}

/* The decoder pbcheck runs ExGpu packets with (exgpu_isa.c). */
extern const pbc_isa exgpu_isa;

#endif
