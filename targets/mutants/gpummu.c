/*
 * Planted bugs in the GpuMmu operations (UpdatePageTable, FlushTlb), each
 * the reference with one mistake a driver writer makes when translating
 * VidMm's DXGK_PTE entries into its own:
 *
 *   mutant-tlb-no-flush     FlushTlb emits nothing: the GPU keeps using
 *                           translations of pages that moved (PB-TLB).
 *   mutant-pte-drops-ro     builds its entry without ReadOnly (PB-PTE).
 *   mutant-repeat-ignored   with Repeat, writes only the first entry: the
 *                           rest of a new table keeps the garbage memory
 *                           held, a zero range is left half made (PB-PTE).
 *   mutant-64k-as-4k        ignores Use64KBPages on a level-1 entry: the
 *                           leaf it points at is read as 4 KiB entries
 *                           (PB-PTE: render work through it faults, and
 *                           the tables are judged first when only render
 *                           work faulted).
 *   mutant-va-offset-added  adds AllocationOffsetInBytes to TransferVirtual's
 *                           addresses: a split transfer's later parts run
 *                           off the end of VidMm's paging window
 *                           (PB-GPU-FAULT).
 *   mutant-fence-low32      signals the paging fence with a 32-bit write
 *                           (PB-PAGING-FENCE: VidMm's values use all 64).
 *   mutant-fence-physical   writes the paging fence at MonitoredFenceGpuVa
 *                           taken as a physical address (PB-GPU-FAULT).
 *   mutant-adl-contiguous   reads a page-array ADL of MapApertureSegment2 as
 *                           contiguous from its first page: work through
 *                           the aperture reaches pages nobody holds
 *                           (PB-GPU-FAULT).
 *   mutant-pte-virtual-as-physical  on an adapter that takes updates by
 *                           GPU virtual address, writes entries at that
 *                           address taken as physical (PB-GPU-FAULT).
 *   mutant-copy-pte-half    CopyPageTableEntries with 8-byte entries: half
 *                           of each range arrives (PB-PTE).
 *   mutant-pte-page-off     a system page's entry names the page after it
 *                           (PB-PTE).
 *   mutant-copy-wrong-start CopyPageTableEntries: a range's length from
 *                           its destination start index (PB-PTE on a copy
 *                           through a scratch table: the first part of it
 *                           arrives short).
 *   mutant-copy-one-short   CopyPageTableEntries: a partial range's last
 *                           entry stays behind (PB-PTE).
 *   mutant-flush-first-root FlushTlb flushes the root of the first address
 *                           space it ever flushed (PB-TLB).
 *   mutant-cached-root      FlushTlb uses the root cached at the paging
 *                           buffer's first flush, whatever the space
 *                           (PB-TLB).
 */
#include "mutants.h"

#include <string.h>

#include "ref_builder.h"
#include "ref_isa.h"

/* The reference on a copy of the arguments whose entries `tweak` may
 * change (a copy of VidMm's, which the builder may only read). */
static NTSTATUS mmu_call_modified(HANDLE adapter, DXGKARG_BUILDPAGINGBUFFER *a,
                                  void (*tweak)(DXGKARG_BUILDPAGINGBUFFER *, DXGK_PTE *))
{
    DXGK_PTE entries[512];
    DXGKARG_BUILDPAGINGBUFFER local = *a;
    if (a->Operation == DXGK_OPERATION_UPDATE_PAGE_TABLE) {
        UINT n = a->UpdatePageTable.Flags.Repeat ? 1 : a->UpdatePageTable.NumPageTableEntries;
        if (n > 512)
            n = 512; /* VidMm updates one table at a time */
        memcpy(entries, a->UpdatePageTable.pPageTableEntries, n * sizeof(DXGK_PTE));
        local.UpdatePageTable.pPageTableEntries = entries;
    }
    tweak(&local, entries);
    NTSTATUS st = ref_build_paging_buffer(adapter, &local);
    a->pDmaBuffer = local.pDmaBuffer;
    a->MultipassOffset = local.MultipassOffset;
    return st;
}

static void tweak_no_flush(DXGKARG_BUILDPAGINGBUFFER *a, DXGK_PTE *entries)
{
    (void)entries;
    if (a->Operation == DXGK_OPERATION_FLUSH_TLB)
        a->Operation = DXGK_OPERATION_DISCARD_CONTENT; /* the reference emits nothing for it */
}

static void tweak_drops_ro(DXGKARG_BUILDPAGINGBUFFER *a, DXGK_PTE *entries)
{
    if (a->Operation != DXGK_OPERATION_UPDATE_PAGE_TABLE)
        return;
    UINT n = a->UpdatePageTable.Flags.Repeat ? 1 : a->UpdatePageTable.NumPageTableEntries;
    for (UINT i = 0; i < n && i < 512; i++)
        entries[i].ReadOnly = 0;
}

static void tweak_repeat_ignored(DXGKARG_BUILDPAGINGBUFFER *a, DXGK_PTE *entries)
{
    (void)entries;
    if (a->Operation == DXGK_OPERATION_UPDATE_PAGE_TABLE && a->UpdatePageTable.Flags.Repeat &&
        a->UpdatePageTable.UpdateMode != DXGK_PAGETABLEUPDATE_CPU_VIRTUAL) {
        a->UpdatePageTable.Flags.Repeat = 0;
        a->UpdatePageTable.NumPageTableEntries = 1; /* "one entry given, one written" */
    }
}

static void tweak_64k_as_4k(DXGKARG_BUILDPAGINGBUFFER *a, DXGK_PTE *entries)
{
    if (a->Operation != DXGK_OPERATION_UPDATE_PAGE_TABLE || a->UpdatePageTable.PageTableLevel != 1)
        return;
    a->UpdatePageTable.Flags.Use64KBPages = 0;
    UINT n = a->UpdatePageTable.Flags.Repeat ? 1 : a->UpdatePageTable.NumPageTableEntries;
    for (UINT i = 0; i < n && i < 512; i++)
        entries[i].PageTablePageSize = DXGK_PTE_PAGE_TABLE_PAGE_4KB; /* its own entry, from scratch */
}

/* A planted bug's table: the reference's GpuMmu operations, its build. */
#define MMU_MUTANT_BUILD(sym, nm, summary_text, build)                                                       \
    const pbc_target sym = {REF_TARGET_FIELDS_OPS(REF_OPERATIONS_GPUMMU, nm, summary_text, REF_MAX_PACKET_BYTES, \
                                                  0, ref_create_adapter, ref_destroy_adapter,                 \
                                                  ref_create_allocation, ref_destroy_allocation, build,        \
                                                  ref_patch, ref_submit_command)}
/* One whose bug is a change to the arguments (`tweak`). */
#define MMU_MUTANT(sym, nm, summary_text, tweak)                                                             \
    static NTSTATUS APIENTRY sym##_build(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)                 \
    {                                                                                                        \
        return mmu_call_modified(h, a, tweak);                                                               \
    }                                                                                                        \
    MMU_MUTANT_BUILD(sym, nm, summary_text, sym##_build)

MMU_MUTANT(pbc_mutant_tlb_no_flush, "mutant-tlb-no-flush", "FlushTlb emits nothing", tweak_no_flush);
MMU_MUTANT(pbc_mutant_pte_drops_ro, "mutant-pte-drops-ro", "page-table entries lose ReadOnly", tweak_drops_ro);
MMU_MUTANT(pbc_mutant_repeat_ignored, "mutant-repeat-ignored", "UpdatePageTable with Repeat writes one entry",
           tweak_repeat_ignored);
MMU_MUTANT(pbc_mutant_64k_as_4k, "mutant-64k-as-4k", "level-1 entries ignore Use64KBPages", tweak_64k_as_4k);

/* Bug: adds AllocationOffsetInBytes to the virtual addresses of
 * TransferVirtual and FillVirtual, which already point at the bytes to
 * move (the structure's page says not to). */
static void tweak_va_offset_added(DXGKARG_BUILDPAGINGBUFFER *a, DXGK_PTE *entries)
{
    (void)entries;
    if (a->Operation == DXGK_OPERATION_VIRTUAL_TRANSFER) {
        a->TransferVirtual.SourceVirtualAddress += a->TransferVirtual.AllocationOffsetInBytes;
        a->TransferVirtual.DestinationVirtualAddress += a->TransferVirtual.AllocationOffsetInBytes;
    } else if (a->Operation == DXGK_OPERATION_VIRTUAL_FILL) {
        a->FillVirtual.DestinationVirtualAddress += a->FillVirtual.AllocationOffsetInBytes;
    }
}

MMU_MUTANT(pbc_mutant_va_offset_added, "mutant-va-offset-added",
           "adds AllocationOffsetInBytes to TransferVirtual's addresses", tweak_va_offset_added);

/* The paging fence written by one WRITE packet of `width` bytes, its
 * address virtual or not: the two fence bugs below. */
static NTSTATUS fence_write(HANDLE h, DXGKARG_BUILDPAGINGBUFFER *a, uint32_t width, uint32_t space)
{
    if (a->Operation != DXGK_OPERATION_SIGNAL_MONITORED_FENCE)
        return ref_build_paging_buffer(h, a);
    uint8_t *cur = a->pDmaBuffer;
    if (a->DmaSize < REF_LEN_WRITE * 4)
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    uint64_t value = a->SignalMonitoredFence.MonitoredFenceValue;
    a->pDmaBuffer = cur + ref_encode_write(cur, a->SignalMonitoredFence.MonitoredFenceGpuVa, width,
                                           width < 8 ? value & ((1ull << (8 * width)) - 1) : value);
    ref_set_space(cur, space);
    return STATUS_SUCCESS;
}

/* Bug: signals the paging fence with a 32-bit write, as a driver whose
 * fences were 32-bit before WDDM 2.x would. */
static NTSTATUS APIENTRY fence_low32_build(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    return fence_write(h, a, 4, REF_SPACE_DST_VIRTUAL);
}

/* Bug: takes MonitoredFenceGpuVa for a physical address. */
static NTSTATUS APIENTRY fence_physical_build(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    return fence_write(h, a, 8, 0);
}

MMU_MUTANT_BUILD(pbc_mutant_fence_low32, "mutant-fence-low32", "signals the paging fence 32 bits wide",
                 fence_low32_build);
MMU_MUTANT_BUILD(pbc_mutant_fence_physical, "mutant-fence-physical",
                 "writes the paging fence at its GPU virtual address taken as physical", fence_physical_build);

/* Bug: takes every ADL for contiguous: a page array's pages are read as
 * the run that starts at its first page. */
static void tweak_adl_contiguous(DXGKARG_BUILDPAGINGBUFFER *a, DXGK_PTE *entries)
{
    (void)entries;
    if (a->Operation != DXGK_OPERATION_MAP_APERTURE_SEGMENT2 || a->MapApertureSegment2.Adl.Flags.Contiguous)
        return;
    DXGK_PAGE_NUMBER first = a->MapApertureSegment2.Adl.Pages[0];
    a->MapApertureSegment2.Adl.Flags.Contiguous = 1;
    a->MapApertureSegment2.Adl.BasePageNumber = first;
}

MMU_MUTANT(pbc_mutant_adl_contiguous, "mutant-adl-contiguous", "reads a page-array ADL as contiguous",
           tweak_adl_contiguous);

/* Bug: on an adapter that takes updates by GPU virtual address, writes
 * the entries at PageTableAddress.GpuVirtual taken as a physical address. */
static NTSTATUS APIENTRY pte_virtual_as_physical_build(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    uint8_t *start = a->pDmaBuffer;
    NTSTATUS st = ref_build_paging_buffer(h, a);
    if (a->Operation != DXGK_OPERATION_UPDATE_PAGE_TABLE ||
        a->UpdatePageTable.UpdateMode != DXGK_PAGETABLEUPDATE_GPU_VIRTUAL)
        return st;
    for (uint8_t *p = start; p + REF_LEN_PTE * 4 <= (uint8_t *)a->pDmaBuffer; p += REF_LEN_PTE * 4)
        p[1] &= (uint8_t)~(REF_SPACE_DST_VIRTUAL >> 8); /* the packets' address: physical */
    return st;
}

const pbc_target pbc_mutant_pte_virtual_as_physical = {
    REF_TARGET_FIELDS_OPS(REF_OPERATIONS_GPUMMU, "mutant-pte-virtual-as-physical",
                          "takes a page table's GPU virtual address for a physical one", REF_MAX_PACKET_BYTES, 0,
                          ref_create_adapter, ref_destroy_adapter, ref_create_allocation, ref_destroy_allocation,
                          pte_virtual_as_physical_build, ref_patch, ref_submit_command),
    .adapter = &ref_decl_gpu_virtual,
};

/* The copy ranges of a CopyPageTableEntries, each changed by `fix`, in
 * place of VidMm's (a leaf has at most 512 entries, so no copy VidMm
 * issues has more ranges). */
static void tweak_copy_ranges(DXGKARG_BUILDPAGINGBUFFER *a, void (*fix)(DXGK_BUILDPAGINGBUFFER_COPY_RANGE *))
{
    static DXGK_BUILDPAGINGBUFFER_COPY_RANGE ranges[512];
    if (a->Operation != DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES)
        return;
    UINT n = a->CopyPageTableEntries.NumRanges < 512 ? a->CopyPageTableEntries.NumRanges : 512;
    for (UINT i = 0; i < n; i++) {
        ranges[i] = a->CopyPageTableEntries.pRanges[i];
        fix(&ranges[i]);
    }
    a->CopyPageTableEntries.NumRanges = n;
    a->CopyPageTableEntries.pRanges = ranges;
}

/* Bug: copies page-table entries as if they were 8 bytes, a driver's own
 * entry size, not DXGK_PTE's 16: half of each range arrives. */
static void fix_half(DXGK_BUILDPAGINGBUFFER_COPY_RANGE *r) { r->NumPageTableEntries /= 2; }

static void tweak_copy_half(DXGKARG_BUILDPAGINGBUFFER *a, DXGK_PTE *entries)
{
    (void)entries;
    tweak_copy_ranges(a, fix_half);
}

MMU_MUTANT(pbc_mutant_copy_pte_half, "mutant-copy-pte-half", "copies page-table entries 8 bytes each",
           tweak_copy_half);

/* Bug: walks the source from SrcStartPteIndex up to the range's end
 * computed from DstStartPteIndex, as `for (i = src; i < dst + n; i++)`,
 * kept inside a table of 512 entries as it should be: a range copied to
 * a lower index arrives short, one copied to a higher index long. Whole-
 * leaf copies (both indexes 0) and copies to the same index are right. */
static void fix_wrong_start(DXGK_BUILDPAGINGBUFFER_COPY_RANGE *r)
{
    uint64_t end = (uint64_t)r->DstStartPteIndex + r->NumPageTableEntries;
    UINT top = r->SrcStartPteIndex > r->DstStartPteIndex ? r->SrcStartPteIndex : r->DstStartPteIndex;
    UINT n = end > r->SrcStartPteIndex ? (UINT)(end - r->SrcStartPteIndex) : 0;
    r->NumPageTableEntries = top >= 512 ? 0 : n < 512 - top ? n : 512 - top;
}

static void tweak_copy_wrong_start(DXGKARG_BUILDPAGINGBUFFER *a, DXGK_PTE *entries)
{
    (void)entries;
    tweak_copy_ranges(a, fix_wrong_start);
}

MMU_MUTANT(pbc_mutant_copy_wrong_start, "mutant-copy-wrong-start",
           "computes a copy's length from the destination start index", tweak_copy_wrong_start);

/* Bug: a range that is not a whole table (a start index other than 0, or
 * fewer than 512 entries) is copied through an inclusive last index taken
 * as exclusive: its last entry stays behind. The whole-leaf copy takes
 * another path and is right. */
static void fix_one_short(DXGK_BUILDPAGINGBUFFER_COPY_RANGE *r)
{
    if ((r->SrcStartPteIndex || r->DstStartPteIndex || r->NumPageTableEntries != 512) && r->NumPageTableEntries)
        r->NumPageTableEntries--;
}

static void tweak_copy_one_short(DXGKARG_BUILDPAGINGBUFFER *a, DXGK_PTE *entries)
{
    (void)entries;
    tweak_copy_ranges(a, fix_one_short);
}

MMU_MUTANT(pbc_mutant_copy_one_short, "mutant-copy-one-short", "copies a partial range one entry short",
           tweak_copy_one_short);

/* Bug: a system page's entry gets the page number of the page after it,
 * as a driver that counts a PFN array from 1 would write it. */
static void tweak_page_off(DXGKARG_BUILDPAGINGBUFFER *a, DXGK_PTE *entries)
{
    if (a->Operation != DXGK_OPERATION_UPDATE_PAGE_TABLE || a->UpdatePageTable.PageTableLevel != 0)
        return;
    UINT n = a->UpdatePageTable.Flags.Repeat ? 1 : a->UpdatePageTable.NumPageTableEntries;
    for (UINT i = 0; i < n && i < 512; i++)
        if (entries[i].Valid && !entries[i].Zero && entries[i].Segment == 0)
            entries[i].PageAddress += 1;
}

MMU_MUTANT(pbc_mutant_pte_page_off, "mutant-pte-page-off", "system pages' entries point one page on",
           tweak_page_off);

/* ---- Address spaces: the root a FlushTlb names ----
 * State of one adapter, on the thread that builds for it (pbcheck builds
 * for an adapter on the thread that made it), cleared when an adapter is
 * made. */
static _Thread_local uint64_t mmu_first_root; /* mutant-flush-first-root */
static _Thread_local int mmu_first_root_seen;
static _Thread_local const uint8_t *mmu_root_buffer_end; /* mutant-cached-root */
static _Thread_local uint64_t mmu_cached_root;

static NTSTATUS mmu_roots_create_adapter(const pbc_adapter_info *info, HANDLE *adapter)
{
    mmu_first_root = mmu_cached_root = 0;
    mmu_first_root_seen = 0;
    mmu_root_buffer_end = NULL;
    return ref_create_adapter(info, adapter);
}

/* Bug: flushes the root of the first address space it ever flushed,
 * as a driver written for one process per adapter would: every later
 * FlushTlb of another space leaves that space's TLB entries in place
 * (PB-TLB). */
static void tweak_flush_first_root(DXGKARG_BUILDPAGINGBUFFER *a, DXGK_PTE *entries)
{
    (void)entries;
    if (a->Operation != DXGK_OPERATION_FLUSH_TLB)
        return;
    if (!mmu_first_root_seen) {
        mmu_first_root_seen = 1;
        mmu_first_root = a->FlushTlb.RootPageTableAddress.SegmentOffset;
    }
    a->FlushTlb.RootPageTableAddress.SegmentOffset = mmu_first_root;
}

/* Bug: loads the root once per paging buffer, at its first FlushTlb, and
 * every later FlushTlb written into the same buffer uses that cached
 * root, whichever address space it is for (a buffer is known by its end,
 * pDmaBuffer + DmaSize, which stays put while VidMm fills it): a flush of
 * another space in the same buffer misses its root (PB-TLB). */
static void tweak_cached_root(DXGKARG_BUILDPAGINGBUFFER *a, DXGK_PTE *entries)
{
    (void)entries;
    if (a->Operation != DXGK_OPERATION_FLUSH_TLB || !a->pDmaBuffer)
        return;
    const uint8_t *end = (const uint8_t *)a->pDmaBuffer + a->DmaSize;
    if (end == mmu_root_buffer_end) {
        a->FlushTlb.RootPageTableAddress.SegmentOffset = mmu_cached_root;
        return;
    }
    mmu_root_buffer_end = end;
    mmu_cached_root = a->FlushTlb.RootPageTableAddress.SegmentOffset;
}

#define MMU_ROOT_MUTANT(sym, nm, summary_text, tweak)                                                        \
    static NTSTATUS APIENTRY sym##_build(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)                 \
    {                                                                                                        \
        return mmu_call_modified(h, a, tweak);                                                               \
    }                                                                                                        \
    const pbc_target sym = {REF_TARGET_FIELDS_OPS(REF_OPERATIONS_GPUMMU, nm, summary_text, REF_MAX_PACKET_BYTES, \
                                                  0, mmu_roots_create_adapter, ref_destroy_adapter,           \
                                                  ref_create_allocation, ref_destroy_allocation, sym##_build,  \
                                                  ref_patch, ref_submit_command)}

MMU_ROOT_MUTANT(pbc_mutant_flush_first_root, "mutant-flush-first-root",
                "FlushTlb flushes the first address space's root it saw", tweak_flush_first_root);
MMU_ROOT_MUTANT(pbc_mutant_cached_root, "mutant-cached-root",
                "FlushTlb reuses the root cached at a paging buffer's first flush", tweak_cached_root);
