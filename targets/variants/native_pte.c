/*
 * variant-native-pte: a GPU whose page-table entries are its own 8-byte
 * format, not DXGK_PTE. DxgkDdiBuildPagingBuffer's UpdatePageTable hands
 * the driver DXGK_PTE entries to "update the page table entries" of
 * tables whose format is the hardware's; every real MMU has its own. The
 * entry, as many GPUs lay theirs out:
 *
 *   bit 0 valid, 1 writable (ReadOnly is its absence), 2 zero (reads give
 *   zeros), 3 snooped (cache coherent), 4-8 segment, 9 large page (a
 *   directory entry that maps 2 MiB), 10 the leaf it points at holds
 *   64 KiB pages, 11 no-execute, 12-51 page number, 52-63 the driver's
 *   (DriverProtection's low bits ride there).
 *
 * Its MMU has four levels of tables (48-bit addresses), where the
 * reference's has three. Its ISA is the reference's with pte_size 8, a
 * decoder for that entry, and pt_levels 4. Every update (the immediate ones too) and CopyPageTableEntries
 * are its own; the rest is the reference's. PB-PTE must judge what the
 * entries mean to this GPU, not whether they are DXGK_PTE.
 */
#include "var_common.h"

#include <string.h>

#define NAT_VALID 0x1ull
#define NAT_WRITABLE 0x2ull
#define NAT_ZERO 0x4ull
#define NAT_SNOOPED 0x8ull
#define NAT_SEGMENT_SHIFT 4u
#define NAT_LARGE 0x200ull
#define NAT_LEAF_64K 0x400ull
#define NAT_NO_EXECUTE 0x800ull
#define NAT_PAGE_SHIFT 12u
#define NAT_PAGE_MASK ((1ull << 40) - 1)
#define NAT_DRIVER_SHIFT 52u
#define NAT_PTE_SIZE 8u

/* DXGK_PTE's flag bits, as docs/reference-isa.md lists them. */
#define DX_VALID 0x1ull
#define DX_ZERO 0x2ull
#define DX_CACHE_COHERENT 0x4ull
#define DX_READ_ONLY 0x8ull
#define DX_NO_EXECUTE 0x10ull
#define DX_SEGMENT_SHIFT 5u
#define DX_LARGE_PAGE 0x400ull
#define DX_PT_PAGE_SIZE_64K (1ull << 17)

static uint64_t nat_encode(const DXGK_PTE *e, UINT level, DXGK_UPDATEPAGETABLEFLAGS flags, UINT64 protection)
{
    uint64_t page = level == 0 || e->LargePage ? e->PageAddress : e->PageTableAddress;
    uint64_t n = (e->Valid ? NAT_VALID : 0) | (e->ReadOnly ? 0 : NAT_WRITABLE) | (e->Zero ? NAT_ZERO : 0) |
                 (e->CacheCoherent ? NAT_SNOOPED : 0) | (uint64_t)(e->Segment & 0x1F) << NAT_SEGMENT_SHIFT |
                 (e->NoExecute ? NAT_NO_EXECUTE : 0) | (page & NAT_PAGE_MASK) << NAT_PAGE_SHIFT |
                 (protection & 0xFFFu) << NAT_DRIVER_SHIFT;
    if (level > 0 && e->LargePage)
        n |= NAT_LARGE;
    if (level == 1 && (flags.Use64KBPages || e->PageTablePageSize == DXGK_PTE_PAGE_TABLE_PAGE_64KB))
        n |= NAT_LEAF_64K;
    return n;
}

static int nat_decode(const uint8_t *entry, uint32_t level, uint64_t *flags, uint64_t *page)
{
    uint64_t n = 0;
    memcpy(&n, entry, sizeof(n));
    *flags = (n & NAT_VALID ? DX_VALID : 0) | (n & NAT_WRITABLE ? 0 : DX_READ_ONLY) | (n & NAT_ZERO ? DX_ZERO : 0) |
             (n & NAT_SNOOPED ? DX_CACHE_COHERENT : 0) | (n & NAT_NO_EXECUTE ? DX_NO_EXECUTE : 0) |
             (n >> NAT_SEGMENT_SHIFT & 0x1F) << DX_SEGMENT_SHIFT;
    if (level > 0 && (n & NAT_LARGE))
        *flags |= DX_LARGE_PAGE;
    if (level == 1 && (n & NAT_LEAF_64K))
        *flags |= DX_PT_PAGE_SIZE_64K;
    *page = n >> NAT_PAGE_SHIFT & NAT_PAGE_MASK;
    return 0;
}

static const pbc_isa native_isa = {
    .abi_version = PBC_ISA_ABI_VERSION,
    .struct_size = sizeof(pbc_isa),
    .name = "reference-native-pte",
    .decode = ref_isa_decode,
    .disasm = ref_isa_disasm,
    .pte_size = NAT_PTE_SIZE,
    .pte_decode = nat_decode,
    .pt_levels = 4, /* 48-bit GPU virtual addresses: the root is level 3 */
};

static const DXGK_PTE *nat_entry(const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u, uint32_t i)
{
    return &u->pPageTableEntries[u->Flags.Repeat ? 0 : i];
}

static NTSTATUS nat_update(HANDLE adapter, DXGKARG_BUILDPAGINGBUFFER *a)
{
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &a->UpdatePageTable;
    uint32_t total = u->NumPageTableEntries, i = a->MultipassOffset;
    if (u->UpdateMode == DXGK_PAGETABLEUPDATE_CPU_VIRTUAL) {
        uint8_t *table = u->PageTableAddress.CpuVirtual; /* now, with no paging buffer */
        for (; i < total; i++) {
            uint64_t n = nat_encode(nat_entry(u, i), u->PageTableLevel, u->Flags, u->DriverProtection);
            memcpy(table + (uint64_t)(u->StartIndex + i) * NAT_PTE_SIZE, &n, sizeof(n));
        }
        a->MultipassOffset = i;
        return STATUS_SUCCESS;
    }
    int virt = u->UpdateMode == DXGK_PAGETABLEUPDATE_GPU_VIRTUAL;
    uint64_t table = virt ? u->PageTableAddress.GpuVirtual : u->PageTableAddress.GpuPhysical.SegmentOffset;
    if (!virt && u->PageTableAddress.GpuPhysical.SegmentId)
        return ref_build_paging_buffer(var_ref(adapter), a); /* VidMm keeps its tables in system memory */
    uint8_t *cur = a->pDmaBuffer, *end = cur + a->DmaSize;
    for (; i < total && end - cur >= (ptrdiff_t)(REF_LEN_PTE * 4); i++) {
        uint64_t n = nat_encode(nat_entry(u, i), u->PageTableLevel, u->Flags, u->DriverProtection);
        uint8_t *packet = cur;
        cur += ref_encode_pte(cur, table + (uint64_t)(u->StartIndex + i) * NAT_PTE_SIZE, n, 0);
        if (virt)
            ref_set_space(packet, REF_SPACE_DST_VIRTUAL);
    }
    a->pDmaBuffer = cur;
    a->MultipassOffset = i;
    return i == total ? STATUS_SUCCESS : STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
}

/* One copy per range, of 8-byte entries. */
static NTSTATUS nat_copy_entries(DXGKARG_BUILDPAGINGBUFFER *a)
{
    const DXGK_BUILDPAGINGBUFFER_COPYPAGETABLEENTRIES *c = &a->CopyPageTableEntries;
    uint8_t *cur = a->pDmaBuffer, *end = cur + a->DmaSize;
    uint32_t i = a->MultipassOffset;
    for (; i < c->NumRanges && end - cur >= (ptrdiff_t)(REF_LEN_COPY * 4); i++) {
        const DXGK_BUILDPAGINGBUFFER_COPY_RANGE *r = &c->pRanges[i];
        uint8_t *packet = cur;
        cur += ref_encode_copy(cur, r->DstPageTableAddress + (uint64_t)r->DstStartPteIndex * NAT_PTE_SIZE,
                               r->SrcPageTableAddress + (uint64_t)r->SrcStartPteIndex * NAT_PTE_SIZE,
                               r->NumPageTableEntries * NAT_PTE_SIZE);
        ref_set_space(packet, REF_SPACE_DST_VIRTUAL | REF_SPACE_SRC_VIRTUAL);
    }
    a->pDmaBuffer = cur;
    a->MultipassOffset = i;
    return i == c->NumRanges ? STATUS_SUCCESS : STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
}

static NTSTATUS APIENTRY nat_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->Operation == DXGK_OPERATION_UPDATE_PAGE_TABLE)
        return nat_update(adapter, a);
    if (a->Operation == DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES)
        return nat_copy_entries(a);
    return ref_build_paging_buffer(var_ref(adapter), a);
}

const pbc_target pbc_variant_native_pte = {
    .abi_version = PBC_TARGET_ABI_VERSION,
    .struct_size = sizeof(pbc_target),
    .name = "variant-native-pte",
    .summary = "page-table entries in the GPU's own 8-byte format, four levels of tables, which its ISA decodes",
    .isa = &native_isa,
    .min_dma_size = REF_MAX_PACKET_BYTES,
    .supported_operations = REF_OPERATIONS_GPUMMU,
    .create_adapter = var_create_adapter,
    .destroy_adapter = var_adapter_destroy,
    .create_allocation = ref_create_allocation,
    .destroy_allocation = ref_destroy_allocation,
    .build_paging_buffer = nat_build,
    .patch = var_patch,
    .submit_command = var_submit,
    .context_update_data = ref_context_update_data,
};
