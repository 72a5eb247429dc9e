/*
 * The ExCpu blit decoder and disassembler (include/pbcheck/isa.h). ExCpu
 * does most paging work with the CPU; the GPU sees BLIT and SOLID packets
 * (by physical or GPU virtual address), TLBINV, and CPUWORK markers it
 * skips. An opcode not in the table is a
 * decode fault.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "excpu_hw.h"

typedef struct excpu_packet_desc {
    const char *mnemonic;
    uint32_t dwords; /* 0: unknown opcode */
} excpu_packet_desc;

static const excpu_packet_desc excpu_packets[256] = {
    [EXCPU_OP_BLIT] = {"BLIT", EXCPU_LEN_BLIT},
    [EXCPU_OP_SOLID] = {"SOLID", EXCPU_LEN_SOLID},
    [EXCPU_OP_VBLIT] = {"VBLIT", EXCPU_LEN_BLIT},
    [EXCPU_OP_VSOLID] = {"VSOLID", EXCPU_LEN_SOLID},
    [EXCPU_OP_TLB_INVALIDATE] = {"TLBINV", EXCPU_LEN_TLB_INVALIDATE},
    [EXCPU_OP_CPU_WORK] = {"CPUWORK", EXCPU_LEN_CPU_WORK},
};

static uint64_t excpu_rd64(const uint8_t *p) { return excpu_rd32(p) | (uint64_t)excpu_rd32(p + 4) << 32; }

static pbc_decode_status excpu_decode(const uint8_t *bytes, size_t avail, pbc_uop *uop, size_t *length,
                                      const char **why)
{
    memset(uop, 0, sizeof(*uop));
    *length = 0;
    if (avail < 4) {
        *why = "truncated packet header";
        return PBC_DECODE_FAULT;
    }
    uint32_t header = excpu_rd32(bytes);
    const excpu_packet_desc *d = &excpu_packets[header >> 24];
    if (d->dwords == 0) {
        *why = "unknown opcode";
        return PBC_DECODE_FAULT;
    }
    if ((header & 0xFFFFFFu) != d->dwords) {
        *why = "bad packet length";
        return PBC_DECODE_FAULT;
    }
    if ((size_t)d->dwords * 4 > avail) {
        *why = "packet runs past the end of the submission";
        return PBC_DECODE_FAULT;
    }
    uint32_t op = header >> 24;
    *length = (size_t)d->dwords * 4;
    if (op == EXCPU_OP_CPU_WORK) /* the driver's CPU work runs here; the GPU does nothing */
        return PBC_DECODE_OK;
    uop->dst = excpu_rd64(bytes + 4);
    if (op == EXCPU_OP_TLB_INVALIDATE) {
        uop->kind = PBC_UOP_TLB_FLUSH;
        uop->value = uop->dst; /* the root table names the address space */
        uop->dst = excpu_rd64(bytes + 12);
        uop->size = excpu_rd64(bytes + 20);
        return PBC_DECODE_OK;
    }
    if (op == EXCPU_OP_BLIT || op == EXCPU_OP_VBLIT) {
        uop->kind = PBC_UOP_COPY;
        uop->src = excpu_rd64(bytes + 12);
        uop->size = excpu_rd32(bytes + 20);
    } else {
        uop->kind = PBC_UOP_FILL;
        uop->size = excpu_rd32(bytes + 12);
        uop->value = excpu_rd32(bytes + 16);
    }
    if (op == EXCPU_OP_VBLIT)
        uop->flags = PBC_UOP_DST_VIRTUAL | PBC_UOP_SRC_VIRTUAL;
    else if (op == EXCPU_OP_VSOLID)
        uop->flags = PBC_UOP_DST_VIRTUAL;
    if (uop->size == 0 || uop->size > EXCPU_CHUNK) {
        *length = 0;
        *why = "size outside 1..4096";
        return PBC_DECODE_FAULT;
    }
    return PBC_DECODE_OK;
}

static size_t excpu_disasm(const uint8_t *bytes, size_t avail, char *line, size_t line_size)
{
    pbc_uop u;
    size_t len;
    const char *why = NULL;
    if (excpu_decode(bytes, avail, &u, &len, &why) != PBC_DECODE_OK) {
        snprintf(line, line_size, "(bad packet: %s)", why);
        return 0;
    }
    const char *v = (u.flags & PBC_UOP_DST_VIRTUAL) ? "V" : "";
    if (excpu_rd32(bytes) >> 24 == EXCPU_OP_CPU_WORK)
        snprintf(line, line_size, "CPUWORK item=%u (the driver's CPU work)", excpu_rd32(bytes + 4));
    else if (u.kind == PBC_UOP_COPY)
        snprintf(line, line_size, "%sBLIT dst=0x%" PRIx64 " src=0x%" PRIx64 " bytes=0x%" PRIx64, v, u.dst, u.src,
                 u.size);
    else if (u.kind == PBC_UOP_FILL)
        snprintf(line, line_size, "%sSOLID (fill) dst=0x%" PRIx64 " bytes=0x%" PRIx64 " pattern=0x%08" PRIx64, v,
                 u.dst, u.size, u.value);
    else
        snprintf(line, line_size, "TLBINV root=0x%" PRIx64 " va=0x%" PRIx64 " bytes=0x%" PRIx64, u.value, u.dst,
                 u.size);
    return len;
}

const pbc_isa excpu_isa = {
    .abi_version = PBC_ISA_ABI_VERSION,
    .struct_size = sizeof(pbc_isa),
    .name = "excpu",
    .decode = excpu_decode,
    .disasm = excpu_disasm,
};
