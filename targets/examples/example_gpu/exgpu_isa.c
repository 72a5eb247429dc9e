/*
 * The ExGpu command decoder and disassembler: what pbcheck's GPU model
 * needs to execute ExGpu paging buffers (include/pbcheck/isa.h). One table
 * indexed by opcode; an opcode not in it is a decode fault, so random
 * bytes never execute.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <pbcheck/isa.h>

#include "exgpu_hw.h"

typedef const char *(*exgpu_unpack_fn)(const uint8_t *p, uint32_t imm, pbc_uop *uop);

typedef struct exgpu_packet_desc {
    const char *mnemonic;
    uint32_t qwords; /* 0: unknown opcode */
    exgpu_unpack_fn unpack;
} exgpu_packet_desc;

static const char *exgpu_unpack_copy(const uint8_t *p, uint32_t imm, pbc_uop *uop)
{
    uop->kind = PBC_UOP_COPY;
    uop->size = imm;
    uop->dst = exgpu_rd64(p + 8);
    uop->src = exgpu_rd64(p + 16);
    return imm == 0 || imm > EXGPU_MAX_RUN ? "copy size outside 1..EXGPU_MAX_RUN" : NULL;
}

static const char *exgpu_unpack_fill(const uint8_t *p, uint32_t imm, pbc_uop *uop)
{
    uop->kind = PBC_UOP_FILL;
    uop->value = imm;
    uop->dst = exgpu_rd64(p + 8);
    uop->size = exgpu_rd64(p + 16);
    return NULL;
}

static const char *exgpu_unpack_read(const uint8_t *p, uint32_t imm, pbc_uop *uop)
{
    uop->kind = PBC_UOP_READ;
    uop->width = imm;
    uop->dst = exgpu_rd64(p + 8);
    return imm < 1 || imm > 8 ? "access width outside 1..8" : NULL;
}

static const char *exgpu_unpack_write(const uint8_t *p, uint32_t imm, pbc_uop *uop)
{
    uop->kind = PBC_UOP_WRITE_IMM;
    uop->width = imm;
    uop->dst = exgpu_rd64(p + 8);
    uop->value = exgpu_rd64(p + 16);
    return imm < 1 || imm > 8 ? "access width outside 1..8" : NULL;
}

static const exgpu_packet_desc exgpu_packets[256] = {
    [EXGPU_OP_COPY] = {"COPY", EXGPU_LEN_COPY, exgpu_unpack_copy},
    [EXGPU_OP_FILL] = {"FILL", EXGPU_LEN_FILL, exgpu_unpack_fill},
    [EXGPU_OP_READ] = {"READ", EXGPU_LEN_READ, exgpu_unpack_read},
    [EXGPU_OP_WRITE] = {"WRITE", EXGPU_LEN_WRITE, exgpu_unpack_write},
};

static pbc_decode_status exgpu_decode(const uint8_t *bytes, size_t avail, pbc_uop *uop,
                                      size_t *length, const char **why)
{
    memset(uop, 0, sizeof(*uop));
    *length = 0;
    if (avail < 8) {
        *why = "truncated packet header";
        return PBC_DECODE_FAULT;
    }
    uint64_t header = exgpu_rd64(bytes);
    const exgpu_packet_desc *d = &exgpu_packets[header & 0xFF];
    uint32_t qwords = (uint32_t)(header >> 8) & 0xFF;
    if (d->qwords == 0) {
        *why = "unknown opcode";
        return PBC_DECODE_FAULT;
    }
    if (header & 0xFFFF0000u) {
        *why = "reserved header bits set";
        return PBC_DECODE_FAULT;
    }
    if (qwords != d->qwords) {
        *why = "bad packet length";
        return PBC_DECODE_FAULT;
    }
    if ((size_t)qwords * 8 > avail) {
        *why = "packet runs past the end of the submission";
        return PBC_DECODE_FAULT;
    }
    const char *err = d->unpack(bytes, (uint32_t)(header >> 32), uop);
    if (err) {
        *why = err;
        return PBC_DECODE_FAULT;
    }
    *length = (size_t)qwords * 8;
    return PBC_DECODE_OK;
}

static size_t exgpu_disasm(const uint8_t *bytes, size_t avail, char *line, size_t line_size)
{
    pbc_uop u;
    size_t len;
    const char *why = NULL;
    if (exgpu_decode(bytes, avail, &u, &len, &why) != PBC_DECODE_OK) {
        snprintf(line, line_size, "(bad packet: %s)", why);
        return 0;
    }
    const char *m = exgpu_packets[bytes[0]].mnemonic;
    switch (u.kind) {
    case PBC_UOP_COPY:
        snprintf(line, line_size, "%s dst=0x%" PRIx64 " src=0x%" PRIx64 " bytes=0x%" PRIx64, m, u.dst,
                 u.src, u.size);
        break;
    case PBC_UOP_FILL:
        snprintf(line, line_size, "%s dst=0x%" PRIx64 " bytes=0x%" PRIx64 " pattern=0x%08" PRIx64, m,
                 u.dst, u.size, u.value);
        break;
    case PBC_UOP_READ:
        snprintf(line, line_size, "%s addr=0x%" PRIx64 " width=%u", m, u.dst, u.width);
        break;
    default:
        snprintf(line, line_size, "%s addr=0x%" PRIx64 " width=%u value=0x%" PRIx64, m, u.dst, u.width,
                 u.value);
        break;
    }
    return len;
}

const pbc_isa exgpu_isa = {
    .abi_version = PBC_ISA_ABI_VERSION,
    .struct_size = sizeof(pbc_isa),
    .name = "exgpu",
    .decode = exgpu_decode,
    .disasm = exgpu_disasm,
};
