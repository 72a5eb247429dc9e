/*
 * ref_isa.h — the reference ISA: dword packets, documented in
 * docs/reference-isa.md. Header dword: bits 0-7 opcode, bit 8 "dst is GPU
 * virtual" and bit 9 "src is GPU virtual" (REF_SPACE_*, on the packets
 * that take such an address), bits 10-15 zero, bits 16-31 packet length
 * in dwords including the header.
 */
#ifndef PBCHECK_REF_ISA_H
#define PBCHECK_REF_ISA_H

#include <stddef.h>
#include <stdint.h>

#include <pbcheck/isa.h>

#ifdef __cplusplus
extern "C" {
#endif

enum ref_opcode {
    REF_OP_NOP = 0x00,
    REF_OP_COPY = 0x01,
    REF_OP_FILL = 0x02,
    REF_OP_WRITE = 0x03,
    REF_OP_READ = 0x04,
    REF_OP_GART = 0x05,
    REF_OP_FENCE = 0x06,
    REF_OP_PTE = 0x07,
    REF_OP_TLB_FLUSH = 0x08,
    REF_OP_COUNT
};

/* Packet lengths in dwords. */
#define REF_LEN_COPY 6u
#define REF_LEN_FILL 5u
#define REF_LEN_WRITE 6u
#define REF_LEN_READ 4u
#define REF_LEN_GART 6u
#define REF_LEN_FENCE 2u
#define REF_LEN_PTE 7u
#define REF_LEN_TLB_FLUSH 7u
#define REF_MAX_PACKET_BYTES (7u * 4u)

/* Header bits: an address of the packet is GPU virtual. */
#define REF_SPACE_DST_VIRTUAL 0x100u /* copy, fill, write, read, pte */
#define REF_SPACE_SRC_VIRTUAL 0x200u /* copy */

/* Largest COPY or FILL the reference ISA can express in one packet. */
#define REF_MAX_TRANSFER_BYTES 0xFFFFFFFFu

/* Encoders: each writes one packet into out (which must have room for the
 * packet's length) and returns the number of bytes written. */
size_t ref_encode_nop(uint8_t *out, uint32_t dwords);
size_t ref_encode_copy(uint8_t *out, uint64_t dst, uint64_t src, uint32_t size);
size_t ref_encode_fill(uint8_t *out, uint64_t dst, uint32_t size, uint32_t pattern);
size_t ref_encode_write(uint8_t *out, uint64_t dst, uint32_t width, uint64_t value);
size_t ref_encode_read(uint8_t *out, uint64_t addr, uint32_t width);
size_t ref_encode_gart(uint8_t *out, uint32_t segment, uint32_t index, uint32_t flags,
                       uint64_t page_address);
size_t ref_encode_fence(uint8_t *out, uint32_t fence);
/* One DXGK_PTE-format entry: its flags quadword, then its page number. */
size_t ref_encode_pte(uint8_t *out, uint64_t addr, uint64_t flags, uint64_t page);
/* Drops cached translations of the space whose root table is at `root`
 * (0: every space) for [start, start+size) (size 0: all of it). */
size_t ref_encode_tlb_flush(uint8_t *out, uint64_t root, uint64_t start, uint64_t size);
/* Marks the packet just encoded at `packet` as using GPU virtual
 * addresses (REF_SPACE_*). */
void ref_set_space(uint8_t *packet, uint32_t space);

extern const pbc_isa ref_isa;
/* Its hooks, for an ISA that extends the reference's (an own page-table
 * entry format, say). */
pbc_decode_status ref_isa_decode(const uint8_t *bytes, size_t avail, pbc_uop *uop, size_t *length,
                                 const char **why);
size_t ref_isa_disasm(const uint8_t *bytes, size_t avail, char *line, size_t line_size);

#ifdef __cplusplus
}
#endif

#endif
