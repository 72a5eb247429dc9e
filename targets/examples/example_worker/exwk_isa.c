/*
 * The ExWorker decoder: a record is work for the driver's worker thread,
 * not for the GPU, so it decodes to a NOP covering the record. Anything
 * without the record marker, or a record whose length does not fit, is a
 * decode fault.
 */
#include <stdio.h>
#include <string.h>

#include "exwk_record.h"

static pbc_decode_status exwk_decode(const uint8_t *bytes, size_t avail, pbc_uop *uop, size_t *length,
                                     const char **why)
{
    memset(uop, 0, sizeof(*uop));
    *length = 0;
    EXWK_RECORD_HEADER h;
    if (avail < sizeof(h)) {
        *why = "truncated record header";
        return PBC_DECODE_FAULT;
    }
    memcpy(&h, bytes, sizeof(h));
    if (h.Magic != EXWK_RECORD_MAGIC) {
        *why = "unknown opcode (no record marker)";
        return PBC_DECODE_FAULT;
    }
    if (h.Length < EXWK_RECORD_SIZE || h.Length % 8 || h.Length > avail) {
        *why = "bad record length";
        return PBC_DECODE_FAULT;
    }
    *length = h.Length;
    DXGKARG_BUILDPAGINGBUFFER a;
    memcpy(&a, bytes + sizeof(h), sizeof(a));
    if (a.Operation == DXGK_OPERATION_FLUSH_TLB) {
        /* The one record the GPU acts on: its MMU drops the translations
         * of the range (0 to 0: the whole space) of the root's space. */
        uint64_t size = a.FlushTlb.EndVirtualAddress > a.FlushTlb.StartVirtualAddress
                            ? a.FlushTlb.EndVirtualAddress - a.FlushTlb.StartVirtualAddress
                            : 0;
        uop->kind = PBC_UOP_TLB_FLUSH;
        uop->value = a.FlushTlb.RootPageTableAddress.SegmentOffset; /* system memory */
        uop->dst = size ? a.FlushTlb.StartVirtualAddress : 0;
        uop->size = size;
        return PBC_DECODE_OK;
    }
    uop->kind = PBC_UOP_NOP;
    return PBC_DECODE_OK;
}

static const char *const exwk_op_names[] = {
    [DXGK_OPERATION_TRANSFER] = "Transfer",
    [DXGK_OPERATION_FILL] = "Fill",
    [DXGK_OPERATION_DISCARD_CONTENT] = "DiscardContent",
    [DXGK_OPERATION_READ_PHYSICAL] = "ReadPhysical",
    [DXGK_OPERATION_WRITE_PHYSICAL] = "WritePhysical",
    [DXGK_OPERATION_MAP_APERTURE_SEGMENT] = "MapApertureSegment",
    [DXGK_OPERATION_UNMAP_APERTURE_SEGMENT] = "UnmapApertureSegment",
    [DXGK_OPERATION_SPECIAL_LOCK_TRANSFER] = "SpecialLockTransfer",
    [DXGK_OPERATION_UPDATE_PAGE_TABLE] = "UpdatePageTable",
    [DXGK_OPERATION_FLUSH_TLB] = "FlushTlb",
    [DXGK_OPERATION_VIRTUAL_TRANSFER] = "TransferVirtual",
    [DXGK_OPERATION_VIRTUAL_FILL] = "FillVirtual",
    [DXGK_OPERATION_SIGNAL_MONITORED_FENCE] = "SignalMonitoredFence",
    [DXGK_OPERATION_MAP_APERTURE_SEGMENT2] = "MapApertureSegment2",
    [DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES] = "CopyPageTableEntries",
};

static size_t exwk_disasm(const uint8_t *bytes, size_t avail, char *line, size_t line_size)
{
    pbc_uop u;
    size_t len;
    const char *why = NULL;
    if (exwk_decode(bytes, avail, &u, &len, &why) != PBC_DECODE_OK) {
        snprintf(line, line_size, "(bad packet: %s)", why);
        return 0;
    }
    DXGKARG_BUILDPAGINGBUFFER a;
    memcpy(&a, bytes + sizeof(EXWK_RECORD_HEADER), sizeof(a));
    const char *name = (unsigned)a.Operation < sizeof(exwk_op_names) / sizeof(exwk_op_names[0]) &&
                               exwk_op_names[a.Operation]
                           ? exwk_op_names[a.Operation]
                           : "?";
    if (u.kind == PBC_UOP_TLB_FLUSH)
        snprintf(line, line_size, "RECORD %s (the GPU's MMU flushes)", name);
    else
        snprintf(line, line_size, "RECORD %s (worker does it; the GPU sees a nop)", name);
    return len;
}

const pbc_isa exwk_isa = {
    .abi_version = PBC_ISA_ABI_VERSION,
    .struct_size = sizeof(pbc_isa),
    .name = "exworker",
    .decode = exwk_decode,
    .disasm = exwk_disasm,
};
