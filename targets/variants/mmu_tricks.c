/*
 * variant-mmu-tricks: UpdatePageTable the way a driver with its own ideas
 * writes it, every choice legal:
 * - entries go out last to first (nothing orders the writes of one
 *   update; the GPU runs them all before anything after them);
 * - DriverProtection's low 16 bits ride in the entry's Reserved bits
 *   (the hardware format is the driver's: bits the MMU ignores are its
 *   own);
 * - Repeat writes entry 0 once, then copies it into the other entries
 *   (the same entries result).
 * The immediate updates (CPU_VIRTUAL) and every other operation are the
 * reference's. PB-PTE must judge what the entries translate to, not how
 * they were written.
 */
#include "var_common.h"

#include <string.h>

#define TRICKS_PROTECTION_SHIFT 48u /* inside DXGK_PTE's Reserved:44 (bits 20-63) */

static NTSTATUS APIENTRY tricks_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &a->UpdatePageTable;
    if (a->Operation != DXGK_OPERATION_UPDATE_PAGE_TABLE || u->UpdateMode == DXGK_PAGETABLEUPDATE_CPU_VIRTUAL ||
        (u->UpdateMode == DXGK_PAGETABLEUPDATE_GPU_PHYSICAL && u->PageTableAddress.GpuPhysical.SegmentId))
        return ref_build_paging_buffer(var_ref(adapter), a);
    int virt = u->UpdateMode == DXGK_PAGETABLEUPDATE_GPU_VIRTUAL;
    uint64_t table = virt ? u->PageTableAddress.GpuVirtual : u->PageTableAddress.GpuPhysical.SegmentOffset;
    uint32_t space = virt ? REF_SPACE_DST_VIRTUAL : 0;
    uint8_t *cur = a->pDmaBuffer, *end = cur + a->DmaSize;
    uint32_t total = u->NumPageTableEntries, i = a->MultipassOffset;
    for (; i < total; i++) {
        /* Repeat: entry 0 first, then copies of it; else last to first. */
        uint32_t index = u->Flags.Repeat ? i : total - 1 - i;
        uint64_t at = table + (uint64_t)(u->StartIndex + index) * sizeof(DXGK_PTE);
        if (u->Flags.Repeat && i > 0) {
            if (end - cur < (ptrdiff_t)(REF_LEN_COPY * 4))
                break;
            uint8_t *packet = cur;
            cur += ref_encode_copy(cur, at, table + (uint64_t)u->StartIndex * sizeof(DXGK_PTE), sizeof(DXGK_PTE));
            ref_set_space(packet, space | (virt ? REF_SPACE_SRC_VIRTUAL : 0));
            continue;
        }
        if (end - cur < (ptrdiff_t)(REF_LEN_PTE * 4))
            break;
        DXGK_PTE e = u->pPageTableEntries[u->Flags.Repeat ? 0 : index];
        if (u->PageTableLevel == 1 && u->Flags.Use64KBPages)
            e.PageTablePageSize = DXGK_PTE_PAGE_TABLE_PAGE_64KB;
        uint64_t flags = e.Flags | (u->DriverProtection & 0xFFFFu) << TRICKS_PROTECTION_SHIFT;
        uint8_t *packet = cur;
        cur += ref_encode_pte(cur, at, flags, e.PageAddress);
        ref_set_space(packet, space);
    }
    a->pDmaBuffer = cur;
    a->MultipassOffset = i;
    return i == total ? STATUS_SUCCESS : STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
}

VAR_TARGET(pbc_variant_mmu_tricks, "variant-mmu-tricks",
           "page-table entries last to first, DriverProtection in Reserved bits, Repeat by copies",
           REF_MAX_PACKET_BYTES, 0, var_create_adapter, tricks_build, var_patch, var_submit);
