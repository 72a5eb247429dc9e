/*
 * The reference ISA: encoders used by the reference builder, and the
 * decoder and disassembler that teach the GPU model the format.
 *
 * Packet semantics live in one table indexed by opcode. Every opcode that
 * is not in the table lands on a null entry that reports "unknown opcode",
 * so arbitrary bytes decode to faults, never to a crash or an overread.
 */
#include "ref_isa.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void wr32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static void wr64(uint8_t *p, uint64_t v)
{
    wr32(p, (uint32_t)v);
    wr32(p + 4, (uint32_t)(v >> 32));
}

static void wr_header(uint8_t *p, uint32_t opcode, uint32_t dwords)
{
    wr32(p, opcode | dwords << 16);
}

size_t ref_encode_nop(uint8_t *out, uint32_t dwords)
{
    wr_header(out, REF_OP_NOP, dwords);
    memset(out + 4, 0, (size_t)(dwords - 1) * 4);
    return (size_t)dwords * 4;
}

size_t ref_encode_copy(uint8_t *out, uint64_t dst, uint64_t src, uint32_t size)
{
    wr_header(out, REF_OP_COPY, REF_LEN_COPY);
    wr64(out + 4, dst);
    wr64(out + 12, src);
    wr32(out + 20, size);
    return REF_LEN_COPY * 4;
}

size_t ref_encode_fill(uint8_t *out, uint64_t dst, uint32_t size, uint32_t pattern)
{
    wr_header(out, REF_OP_FILL, REF_LEN_FILL);
    wr64(out + 4, dst);
    wr32(out + 12, size);
    wr32(out + 16, pattern);
    return REF_LEN_FILL * 4;
}

size_t ref_encode_write(uint8_t *out, uint64_t dst, uint32_t width, uint64_t value)
{
    wr_header(out, REF_OP_WRITE, REF_LEN_WRITE);
    wr64(out + 4, dst);
    wr32(out + 12, width);
    wr64(out + 16, value);
    return REF_LEN_WRITE * 4;
}

size_t ref_encode_read(uint8_t *out, uint64_t addr, uint32_t width)
{
    wr_header(out, REF_OP_READ, REF_LEN_READ);
    wr64(out + 4, addr);
    wr32(out + 12, width);
    return REF_LEN_READ * 4;
}

size_t ref_encode_gart(uint8_t *out, uint32_t segment, uint32_t index, uint32_t flags,
                       uint64_t page_address)
{
    wr_header(out, REF_OP_GART, REF_LEN_GART);
    wr32(out + 4, segment);
    wr32(out + 8, index);
    wr32(out + 12, flags);
    wr64(out + 16, page_address);
    return REF_LEN_GART * 4;
}

size_t ref_encode_fence(uint8_t *out, uint32_t fence)
{
    wr_header(out, REF_OP_FENCE, REF_LEN_FENCE);
    wr32(out + 4, fence);
    return REF_LEN_FENCE * 4;
}

size_t ref_encode_pte(uint8_t *out, uint64_t addr, uint64_t flags, uint64_t page)
{
    wr_header(out, REF_OP_PTE, REF_LEN_PTE);
    wr64(out + 4, addr);
    wr64(out + 12, flags);
    wr64(out + 20, page);
    return REF_LEN_PTE * 4;
}

size_t ref_encode_tlb_flush(uint8_t *out, uint64_t root, uint64_t start, uint64_t size)
{
    wr_header(out, REF_OP_TLB_FLUSH, REF_LEN_TLB_FLUSH);
    wr64(out + 4, root);
    wr64(out + 12, start);
    wr64(out + 20, size);
    return REF_LEN_TLB_FLUSH * 4;
}

void ref_set_space(uint8_t *packet, uint32_t space)
{
    wr32(packet, rd32(packet) | (space & (REF_SPACE_DST_VIRTUAL | REF_SPACE_SRC_VIRTUAL)));
}

/* ---- Decoding ---- */

/* p points at the header; the table has already checked the length. */
typedef const char *(*ref_unpack_fn)(const uint8_t *p, pbc_uop *uop);

struct ref_packet_desc {
    const char *mnemonic;
    uint32_t min_dwords; /* 0: opcode unknown */
    uint32_t exact;      /* length must equal min_dwords */
    ref_unpack_fn unpack;
    uint32_t spaces;     /* REF_SPACE_* bits the packet may carry */
};

static const char *unpack_nop(const uint8_t *p, pbc_uop *uop)
{
    (void)p;
    uop->kind = PBC_UOP_NOP;
    return NULL;
}

static const char *unpack_copy(const uint8_t *p, pbc_uop *uop)
{
    uop->kind = PBC_UOP_COPY;
    uop->dst = rd64(p + 4);
    uop->src = rd64(p + 12);
    uop->size = rd32(p + 20);
    return NULL;
}

static const char *unpack_fill(const uint8_t *p, pbc_uop *uop)
{
    uop->kind = PBC_UOP_FILL;
    uop->dst = rd64(p + 4);
    uop->size = rd32(p + 12);
    uop->value = rd32(p + 16);
    return NULL;
}

static const char *unpack_width(const uint8_t *p, pbc_uop *uop)
{
    uop->dst = rd64(p + 4);
    uop->width = rd32(p + 12);
    if (uop->width < 1 || uop->width > 8)
        return "access width outside 1..8";
    return NULL;
}

static const char *unpack_write(const uint8_t *p, pbc_uop *uop)
{
    uop->kind = PBC_UOP_WRITE_IMM;
    uop->value = rd64(p + 16);
    return unpack_width(p, uop);
}

static const char *unpack_read(const uint8_t *p, pbc_uop *uop)
{
    uop->kind = PBC_UOP_READ;
    return unpack_width(p, uop);
}

static const char *unpack_gart(const uint8_t *p, pbc_uop *uop)
{
    uop->kind = PBC_UOP_GART_WRITE;
    uop->segment = rd32(p + 4);
    uop->index = rd32(p + 8);
    uop->flags = rd32(p + 12);
    uop->value = rd64(p + 16);
    if (uop->flags & ~(PBC_GART_VALID | PBC_GART_CACHE_COHERENT))
        return "reserved GART flag bits set";
    return NULL;
}

static const char *unpack_fence(const uint8_t *p, pbc_uop *uop)
{
    uop->kind = PBC_UOP_FENCE;
    uop->value = rd32(p + 4);
    return NULL;
}

static const char *unpack_pte(const uint8_t *p, pbc_uop *uop)
{
    uop->kind = PBC_UOP_PTE_WRITE;
    uop->dst = rd64(p + 4);
    uop->value = rd64(p + 12);
    uop->index = rd64(p + 20);
    return NULL;
}

static const char *unpack_tlb_flush(const uint8_t *p, pbc_uop *uop)
{
    uop->kind = PBC_UOP_TLB_FLUSH;
    uop->value = rd64(p + 4);
    uop->dst = rd64(p + 12);
    uop->size = rd64(p + 20);
    return NULL;
}

static const struct ref_packet_desc ref_packets[256] = {
    [REF_OP_NOP] = {"nop", 1, 0, unpack_nop},
    [REF_OP_COPY] = {"copy", REF_LEN_COPY, 1, unpack_copy, REF_SPACE_DST_VIRTUAL | REF_SPACE_SRC_VIRTUAL},
    [REF_OP_FILL] = {"fill", REF_LEN_FILL, 1, unpack_fill, REF_SPACE_DST_VIRTUAL},
    [REF_OP_WRITE] = {"write", REF_LEN_WRITE, 1, unpack_write, REF_SPACE_DST_VIRTUAL},
    [REF_OP_READ] = {"read", REF_LEN_READ, 1, unpack_read, REF_SPACE_DST_VIRTUAL},
    [REF_OP_GART] = {"gart", REF_LEN_GART, 1, unpack_gart, 0},
    [REF_OP_FENCE] = {"fence", REF_LEN_FENCE, 1, unpack_fence, 0},
    [REF_OP_PTE] = {"pte", REF_LEN_PTE, 1, unpack_pte, REF_SPACE_DST_VIRTUAL},
    [REF_OP_TLB_FLUSH] = {"tlb-flush", REF_LEN_TLB_FLUSH, 1, unpack_tlb_flush, 0},
};

pbc_decode_status ref_isa_decode(const uint8_t *bytes, size_t avail, pbc_uop *uop,
                                 size_t *length, const char **why)
{
    memset(uop, 0, sizeof(*uop));
    *length = 0;
    if (avail < 4) {
        *why = "truncated packet header";
        return PBC_DECODE_FAULT;
    }
    uint32_t header = rd32(bytes);
    uint32_t opcode = header & 0xFF;
    uint32_t dwords = header >> 16;
    const struct ref_packet_desc *d = &ref_packets[opcode];
    if (d->min_dwords == 0) {
        *why = "unknown opcode";
        return PBC_DECODE_FAULT;
    }
    if (header & 0xFF00 & ~d->spaces) {
        *why = "reserved header bits set";
        return PBC_DECODE_FAULT;
    }
    if (dwords < d->min_dwords || (d->exact && dwords != d->min_dwords)) {
        *why = "bad packet length";
        return PBC_DECODE_FAULT;
    }
    if ((size_t)dwords * 4 > avail) {
        *why = "packet runs past the end of the submission";
        return PBC_DECODE_FAULT;
    }
    const char *err = d->unpack(bytes, uop);
    if (err) {
        *why = err;
        return PBC_DECODE_FAULT;
    }
    if (header & REF_SPACE_DST_VIRTUAL)
        uop->flags |= PBC_UOP_DST_VIRTUAL;
    if (header & REF_SPACE_SRC_VIRTUAL)
        uop->flags |= PBC_UOP_SRC_VIRTUAL;
    *length = (size_t)dwords * 4;
    return PBC_DECODE_OK;
}

size_t ref_isa_disasm(const uint8_t *bytes, size_t avail, char *line, size_t line_size)
{
    pbc_uop u;
    size_t len;
    const char *why = NULL;
    if (ref_isa_decode(bytes, avail, &u, &len, &why) != PBC_DECODE_OK) {
        snprintf(line, line_size, "(bad) %s", why);
        return 0;
    }
    const char *m = ref_packets[bytes[0]].mnemonic;
    char vm[16];
    if (u.flags & (PBC_UOP_DST_VIRTUAL | PBC_UOP_SRC_VIRTUAL) && u.kind != PBC_UOP_GART_WRITE) {
        /* "copy.vv": dst virtual, src virtual; "fill.v": dst virtual. */
        snprintf(vm, sizeof(vm), "%s.%s%s", m, (u.flags & PBC_UOP_DST_VIRTUAL) ? "v" : "p",
                 u.kind == PBC_UOP_COPY ? ((u.flags & PBC_UOP_SRC_VIRTUAL) ? "v" : "p") : "");
        m = vm;
    }
    switch (u.kind) {
    case PBC_UOP_COPY:
        snprintf(line, line_size, "%-9s dst=0x%" PRIx64 " src=0x%" PRIx64 " size=0x%" PRIx64, m,
                 u.dst, u.src, u.size);
        break;
    case PBC_UOP_FILL:
        snprintf(line, line_size, "%-9s dst=0x%" PRIx64 " size=0x%" PRIx64 " pattern=0x%08" PRIx64,
                 m, u.dst, u.size, u.value);
        break;
    case PBC_UOP_WRITE_IMM:
        snprintf(line, line_size, "%-9s dst=0x%" PRIx64 " width=%u value=0x%" PRIx64, m, u.dst,
                 u.width, u.value);
        break;
    case PBC_UOP_READ:
        snprintf(line, line_size, "%-9s addr=0x%" PRIx64 " width=%u", m, u.dst, u.width);
        break;
    case PBC_UOP_GART_WRITE:
        snprintf(line, line_size, "%-9s segment=%u index=%" PRIu64 " %s%s page=0x%" PRIx64, m,
                 u.segment, u.index, (u.flags & PBC_GART_VALID) ? "valid" : "invalid",
                 (u.flags & PBC_GART_CACHE_COHERENT) ? ",coherent" : "", u.value);
        break;
    case PBC_UOP_FENCE:
        snprintf(line, line_size, "%-9s id=%" PRIu64, m, u.value);
        break;
    case PBC_UOP_PTE_WRITE:
        snprintf(line, line_size, "%-9s addr=0x%" PRIx64 " flags=0x%" PRIx64 " page=0x%" PRIx64, m, u.dst,
                 u.value, u.index);
        break;
    case PBC_UOP_TLB_FLUSH:
        snprintf(line, line_size, "%-9s root=0x%" PRIx64 " start=0x%" PRIx64 " size=0x%" PRIx64, m, u.value,
                 u.dst, u.size);
        break;
    default:
        snprintf(line, line_size, "%-9s dwords=%zu", m, len / 4);
        break;
    }
    return len;
}

const pbc_isa ref_isa = {
    .abi_version = PBC_ISA_ABI_VERSION,
    .struct_size = sizeof(pbc_isa),
    .name = "reference",
    .decode = ref_isa_decode,
    .disasm = ref_isa_disasm,
};
