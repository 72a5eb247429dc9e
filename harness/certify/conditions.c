/*
 * The conditions a builder could branch on, as predicates on the
 * arguments of one BuildPagingBuffer call, and their tally over runs.
 * Each is something the generator produces (test_conditions shows it on
 * random scenarios) and certify's deterministic suite must reach for
 * every operation it is about (test_conditions again, and `pbcheck list
 * conditions` prints the counts). A condition is judged from what the
 * builder is handed only, never from the scenario's words, so a case
 * that means to reach one and does not (a size the layout shrank, a
 * buffer large enough never to resume) is not counted.
 */
#include "certify/conditions.h"

#include <stdlib.h>
#include <string.h>

#include <pbcheck/wdk/wdm.h>

#include "base/util.h"
#include "gpu/gpu.h"
#include "scenario/scenario.h"

typedef struct cond_call {
    const DXGKARG_BUILDPAGINGBUFFER *a;
    const pbc_vidmm_facts *f; /* what VidMm knows besides */
    uint32_t min_dma;
    const pbc_scenario *s;
} cond_call;

#define GIB4 (4ull << 30)
#define MIB2 (2ull << 20)
#define GIB1 (1ull << 30)

static int crosses(uint64_t lo, uint64_t size, uint64_t line) { return size && lo / line != (lo + size - 1) / line; }

static uint64_t pages_of(uint64_t bytes) { return (bytes + PBC_PAGE_SIZE - 1) / PBC_PAGE_SIZE; }

/* The fresh buffer of the target's smallest size (not an immediate
 * update, which has none). */
static int c_smallest(const cond_call *c)
{
    return c->a->pDmaBuffer && c->a->DmaBufferWriteOffset == 0 && c->a->DmaSize == c->min_dma;
}

static int c_resumed(const cond_call *c) { return c->a->MultipassOffset != 0; }

/* Where the paging buffer lies (S40): system memory, or a memory segment
 * below or above 4 GiB. An aperture is no place for one in pbcheck's
 * VidMm (scenario `paging-buffers` takes memory segments only). */
static int c_buf_system(const cond_call *c)
{
    return c->a->pDmaBuffer && c->f->buffer_place == PBC_VIDMM_BUFFER_SYSTEM;
}
static int c_buf_low(const cond_call *c)
{
    return c->a->pDmaBuffer && c->f->buffer_place == PBC_VIDMM_BUFFER_SEGMENT_LOW;
}
static int c_buf_high(const cond_call *c)
{
    return c->a->pDmaBuffer && c->f->buffer_place == PBC_VIDMM_BUFFER_SEGMENT_HIGH;
}

/* Work behind queued work: the GPU has yet to run an earlier operation's
 * paging work on the allocation (a CPU copy made now reads or writes
 * bytes that work has not moved), or on the range it writes, left by
 * another allocation whose move out is queued (a CPU write made now lands
 * before that move reads the range). */
static int c_alloc_queued(const cond_call *c) { return c->f->alloc_queued; }
static int c_vacated_queued(const cond_call *c) { return c->f->vacated_queued; }

/* A size field at a multiple of 2^32 (32 bits of it hold 0) or beyond
 * 2^32 and not a multiple: a driver that keeps it in 32 bits does
 * nothing, or a remainder. */
#define GIB4_LOW(v) (((uint64_t)(v) & 0xFFFFFFFFull) == 0)
static int size_at_4g(uint64_t v) { return v >= GIB4 && GIB4_LOW(v); }
static int size_beyond_4g(uint64_t v) { return v > GIB4 && !GIB4_LOW(v); }

/* ---- MDLs: where their pages lie ---- */

static int mdl_any_above_4g(const MDL *m, uint64_t first, uint64_t n)
{
    if (!m)
        return 0;
    const PFN_NUMBER *pfn = MmGetMdlPfnArray((MDL *)m);
    for (uint64_t i = 0; i < n; i++)
        if ((uint64_t)pfn[first + i] >= (GIB4 >> PBC_PAGE_SHIFT))
            return 1;
    return 0;
}

/* Two of its pages next to each other (runs, contiguous), or such a pair
 * across the 4 GiB line (`across`). */
static int mdl_pair(const MDL *m, uint64_t first, uint64_t n, int across)
{
    if (!m)
        return 0;
    const PFN_NUMBER *pfn = MmGetMdlPfnArray((MDL *)m);
    for (uint64_t i = 1; i < n; i++)
        if ((uint64_t)pfn[first + i] == (uint64_t)pfn[first + i - 1] + 1 &&
            (!across || (uint64_t)pfn[first + i] % (GIB4 >> PBC_PAGE_SHIFT) == 0))
            return 1;
    return 0;
}

/* ---- Transfer ---- */

#define TR (&c->a->Transfer)
static int tr_from_mdl(const cond_call *c) { return TR->Source.SegmentId == 0; }
static int tr_to_mdl(const cond_call *c) { return TR->Destination.SegmentId == 0; }
static int tr_seg_to_seg(const cond_call *c) { return TR->Source.SegmentId && TR->Destination.SegmentId; }
static int tr_odd(const cond_call *c) { return TR->TransferSize % PBC_PAGE_SIZE != 0; }
static int tr_offset(const cond_call *c) { return TR->TransferOffset != 0; }
static int tr_size_at_4g(const cond_call *c) { return size_at_4g(TR->TransferSize); }
static int tr_size_beyond_4g(const cond_call *c) { return size_beyond_4g(TR->TransferSize); }
static int tr_first_of_several(const cond_call *c) { return TR->Flags.TransferStart && !TR->Flags.TransferEnd; }
static int tr_middle(const cond_call *c) { return !TR->Flags.TransferStart && !TR->Flags.TransferEnd; }
static int tr_last_of_several(const cond_call *c) { return !TR->Flags.TransferStart && TR->Flags.TransferEnd; }
static int tr_idle(const cond_call *c) { return TR->Flags.AllocationIsIdle; }
static int tr_maybe_busy(const cond_call *c) { return !TR->Flags.AllocationIsIdle; }
static int tr_mdl_offset(const cond_call *c)
{
    return (TR->Source.SegmentId == 0 || TR->Destination.SegmentId == 0) && TR->MdlOffset != 0;
}

static int tr_seg_side(const cond_call *c, int above, int across)
{
    uint64_t size = TR->TransferSize;
    for (int side = 0; side < 2; side++) {
        UINT id = side ? TR->Destination.SegmentId : TR->Source.SegmentId;
        if (!id)
            continue;
        uint64_t at = (uint64_t)(side ? TR->Destination.SegmentAddress.QuadPart : TR->Source.SegmentAddress.QuadPart) +
                      TR->TransferOffset;
        if ((above && at >= GIB4) || (across && crosses(at, size, GIB4)))
            return 1;
    }
    return 0;
}
static int tr_seg_above_4g(const cond_call *c) { return tr_seg_side(c, 1, 0); }
static int tr_seg_across_4g(const cond_call *c) { return tr_seg_side(c, 0, 1); }

static const MDL *tr_mdl(const cond_call *c)
{
    return TR->Source.SegmentId == 0 ? TR->Source.pMdl : TR->Destination.SegmentId == 0 ? TR->Destination.pMdl : NULL;
}
/* The MDL's pages this call moves: from MdlOffset, for TransferOffset on
 * (S13, S14: the offset applies to the segment side, the MDL's first page
 * is the one at MdlOffset). */
static uint64_t tr_mdl_pages(const cond_call *c) { return pages_of(TR->TransferSize); }
static int tr_mdl_above_4g(const cond_call *c) { return mdl_any_above_4g(tr_mdl(c), TR->MdlOffset, tr_mdl_pages(c)); }
static int tr_mdl_in_a_row(const cond_call *c) { return mdl_pair(tr_mdl(c), TR->MdlOffset, tr_mdl_pages(c), 0); }
static int tr_mdl_across_4g(const cond_call *c) { return mdl_pair(tr_mdl(c), TR->MdlOffset, tr_mdl_pages(c), 1); }
#undef TR

/* ---- Special-lock transfer, fill, discard, physical access ---- */

#define SL (&c->a->SpecialLockTransfer)
static int sl_from_mdl(const cond_call *c) { return SL->Source.SegmentId == 0; }
static int sl_to_mdl(const cond_call *c) { return SL->Destination.SegmentId == 0; }
static int sl_odd(const cond_call *c) { return SL->TransferSize % PBC_PAGE_SIZE != 0; }
static int sl_idle(const cond_call *c) { return SL->Flags.AllocationIsIdle; }
static int sl_maybe_busy(const cond_call *c) { return !SL->Flags.AllocationIsIdle; }
static int sl_above_4g(const cond_call *c)
{
    return (SL->Source.SegmentId && (uint64_t)SL->Source.SegmentAddress.QuadPart >= GIB4) ||
           (SL->Destination.SegmentId && (uint64_t)SL->Destination.SegmentAddress.QuadPart >= GIB4);
}
#undef SL

#define FI (&c->a->Fill)
static int fi_odd(const cond_call *c) { return FI->FillSize % PBC_PAGE_SIZE != 0; }
static int fi_size_at_4g(const cond_call *c) { return size_at_4g(FI->FillSize); }
static int fi_size_beyond_4g(const cond_call *c) { return size_beyond_4g(FI->FillSize); }
static int fi_above_4g(const cond_call *c) { return (uint64_t)FI->Destination.SegmentAddress.QuadPart >= GIB4; }
static int fi_across_4g(const cond_call *c)
{
    return crosses((uint64_t)FI->Destination.SegmentAddress.QuadPart, FI->FillSize, GIB4);
}
#undef FI

static int dc_idle(const cond_call *c) { return c->a->DiscardContent.Flags.AllocationIsIdle; }
static int dc_maybe_busy(const cond_call *c) { return !c->a->DiscardContent.Flags.AllocationIsIdle; }
static int dc_above_4g(const cond_call *c) { return (uint64_t)c->a->DiscardContent.SegmentAddress.QuadPart >= GIB4; }
static int rp_above_4g(const cond_call *c) { return (uint64_t)c->a->ReadPhysical.PhysicalAddress.QuadPart >= GIB4; }
static int rp_below_4g(const cond_call *c) { return (uint64_t)c->a->ReadPhysical.PhysicalAddress.QuadPart < GIB4; }
static int wp_above_4g(const cond_call *c) { return (uint64_t)c->a->WritePhysical.PhysicalAddress.QuadPart >= GIB4; }
static int wp_below_4g(const cond_call *c) { return (uint64_t)c->a->WritePhysical.PhysicalAddress.QuadPart < GIB4; }

/* ---- Aperture ---- */

#define MA (&c->a->MapApertureSegment)
static int ma_coherent(const cond_call *c) { return MA->Flags.CacheCoherent; }
static int ma_not_coherent(const cond_call *c) { return !MA->Flags.CacheCoherent; }
static int ma_mdl_offset(const cond_call *c) { return MA->MdlOffset != 0; }
static int ma_one_page(const cond_call *c) { return MA->NumberOfPages == 1; }
static int ma_several(const cond_call *c) { return MA->NumberOfPages > 1; }
static int ma_above_4g(const cond_call *c) { return mdl_any_above_4g(MA->pMdl, MA->MdlOffset, MA->NumberOfPages); }
static int ma_in_a_row(const cond_call *c) { return mdl_pair(MA->pMdl, MA->MdlOffset, MA->NumberOfPages, 0); }
#undef MA

static int um_one_page(const cond_call *c) { return c->a->UnmapApertureSegment.NumberOfPages == 1; }
static int um_several(const cond_call *c) { return c->a->UnmapApertureSegment.NumberOfPages > 1; }

#define M2 (&c->a->MapApertureSegment2)
static int m2_contiguous(const cond_call *c) { return M2->Adl.Flags.Contiguous; }
static int m2_page_array(const cond_call *c) { return !M2->Adl.Flags.Contiguous; }
static int m2_cpu_visible(const cond_call *c) { return M2->CpuVisibleAddress != NULL; }
static int m2_not_cpu_visible(const cond_call *c) { return M2->CpuVisibleAddress == NULL; }
static int m2_adl_offset(const cond_call *c) { return M2->AdlOffset != 0; }
static int m2_coherent(const cond_call *c) { return M2->Flags.CacheCoherent; }
static int m2_not_coherent(const cond_call *c) { return !M2->Flags.CacheCoherent; }
#undef M2

/* ---- UpdatePageTable ---- */

#define UP (&c->a->UpdatePageTable)
static UINT up_entries(const cond_call *c) { return UP->Flags.Repeat ? 1 : UP->NumPageTableEntries; }
static int up_immediate(const cond_call *c) { return UP->UpdateMode == DXGK_PAGETABLEUPDATE_CPU_VIRTUAL; }
static int up_physical(const cond_call *c) { return UP->UpdateMode == DXGK_PAGETABLEUPDATE_GPU_PHYSICAL; }
static int up_repeat(const cond_call *c) { return UP->Flags.Repeat; }
static int up_initial(const cond_call *c) { return UP->Flags.InitialUpdate; }
static int up_64k_link(const cond_call *c) { return UP->Flags.Use64KBPages; }
static int up_directory(const cond_call *c) { return UP->PageTableLevel >= 1; }
static int up_leaf_range(const cond_call *c) { return UP->PageTableLevel == 0 && UP->hAllocation != NULL; }
static int up_start_inside(const cond_call *c) { return UP->PageTableLevel == 0 && UP->StartIndex != 0; }
/* A range that goes on in the next leaf: its update reaches the end of a
 * table of 4 KiB entries (512), or of 64 KiB ones (32) */
static int up_to_leaf_end(const cond_call *c)
{
    uint64_t end = (uint64_t)UP->StartIndex + UP->NumPageTableEntries;
    return UP->PageTableLevel == 0 && !UP->Flags.InitialUpdate && UP->NumPageTableEntries > 1 &&
           (end == PBC_PT_ENTRIES || end == PBC_PT64_ENTRIES) && UP->StartIndex != 0;
}
static int up_entry_kind(const cond_call *c, int kind)
{
    const DXGK_PTE *e = UP->pPageTableEntries;
    for (UINT i = 0; e && i < up_entries(c); i++) {
        if (!e[i].Valid || UP->PageTableLevel != 0)
            continue;
        uint64_t at = (uint64_t)e[i].PageAddress << PBC_PAGE_SHIFT;
        if (e[i].Segment && e[i].Segment <= c->s->segment_count)
            at += c->s->segments[e[i].Segment - 1].base;
        int hit = kind == 0   ? !e[i].Zero && e[i].Segment == 0
                  : kind == 1 ? !e[i].Zero && e[i].Segment != 0
                  : kind == 2 ? !e[i].Zero && at >= GIB4
                  : kind == 3 ? !e[i].Zero && at < GIB4
                  : kind == 4 ? e[i].ReadOnly
                              : e[i].Zero;
        if (hit)
            return 1;
    }
    return 0;
}
static int up_system_page(const cond_call *c) { return up_entry_kind(c, 0); }
static int up_segment_page(const cond_call *c) { return up_entry_kind(c, 1); }
static int up_page_above_4g(const cond_call *c) { return up_entry_kind(c, 2); }
static int up_page_below_4g(const cond_call *c) { return up_entry_kind(c, 3); }
static int up_read_only(const cond_call *c) { return up_entry_kind(c, 4); }
static int up_zero(const cond_call *c) { return up_entry_kind(c, 5); }
static int up_protection(const cond_call *c) { return UP->DriverProtection != 0; }
static int up_other_space(const cond_call *c) { return UP->hProcess != (HANDLE)PBC_VA_PROCESS(0); }
#undef UP

/* ---- FlushTlb ---- */

#define FT (&c->a->FlushTlb)
static uint64_t ft_size(const cond_call *c)
{
    return FT->EndVirtualAddress > FT->StartVirtualAddress ? FT->EndVirtualAddress - FT->StartVirtualAddress : 0;
}
static int ft_one_page(const cond_call *c) { return ft_size(c) == PBC_PAGE_SIZE; }
static int ft_unaligned(const cond_call *c)
{
    return ft_size(c) && (FT->StartVirtualAddress % MIB2 || FT->EndVirtualAddress % MIB2);
}
static int ft_across_2m(const cond_call *c) { return crosses(FT->StartVirtualAddress, ft_size(c), MIB2); }
static int ft_across_1g(const cond_call *c) { return crosses(FT->StartVirtualAddress, ft_size(c), GIB1); }
/* Of an address space other than the first (another process, another
 * root): known by the process VidMm names. */
static int ft_other_space(const cond_call *c) { return FT->hProcess != (HANDLE)PBC_VA_PROCESS(0); }
#undef FT

/* ---- TransferVirtual, FillVirtual ---- */

#define TV (&c->a->TransferVirtual)
static int tv_to_system(const cond_call *c) { return TV->TransferDirection == DXGK_MEMORY_TRANSFER_LOCAL_TO_SYSTEM; }
static int tv_from_system(const cond_call *c) { return TV->TransferDirection == DXGK_MEMORY_TRANSFER_SYSTEM_TO_LOCAL; }
static int tv_local(const cond_call *c) { return TV->TransferDirection == DXGK_MEMORY_TRANSFER_LOCAL_TO_LOCAL; }
static int tv_odd(const cond_call *c) { return TV->TransferSizeInBytes % PBC_PAGE_SIZE != 0; }
static int tv_offset(const cond_call *c) { return TV->AllocationOffsetInBytes != 0; }

static int tv_across_2m(const cond_call *c)
{
    return crosses(TV->SourceVirtualAddress, TV->TransferSizeInBytes, MIB2) ||
           crosses(TV->DestinationVirtualAddress, TV->TransferSizeInBytes, MIB2);
}
#undef TV

#define FV (&c->a->FillVirtual)
static int fv_odd(const cond_call *c) { return FV->FillSizeInBytes % PBC_PAGE_SIZE != 0; }

static int fv_across_2m(const cond_call *c) { return crosses(FV->DestinationVirtualAddress, FV->FillSizeInBytes, MIB2); }
#undef FV

/* ---- CopyPageTableEntries ---- */

static int cp_any(const cond_call *c, int kind)
{
    const DXGK_BUILDPAGINGBUFFER_COPYPAGETABLEENTRIES *p = &c->a->CopyPageTableEntries;
    for (UINT i = 0; p->pRanges && i < p->NumRanges; i++) {
        const DXGK_BUILDPAGINGBUFFER_COPY_RANGE *r = &p->pRanges[i];
        int whole = r->SrcStartPteIndex == 0 && r->DstStartPteIndex == 0 &&
                    (r->NumPageTableEntries == PBC_PT_ENTRIES || r->NumPageTableEntries == PBC_PT64_ENTRIES);
        int hit = kind == 0   ? whole
                  : kind == 1 ? !whole && r->SrcStartPteIndex == r->DstStartPteIndex
                  : kind == 2 ? r->SrcStartPteIndex > r->DstStartPteIndex
                  : kind == 3 ? r->SrcStartPteIndex < r->DstStartPteIndex
                              : r->NumPageTableEntries == 1;
        if (hit)
            return 1;
    }
    return 0;
}
static int cp_whole(const cond_call *c) { return cp_any(c, 0); }
static int cp_partial_same(const cond_call *c) { return cp_any(c, 1); }
static int cp_src_above(const cond_call *c) { return cp_any(c, 2); }
static int cp_src_below(const cond_call *c) { return cp_any(c, 3); }
static int cp_one_entry(const cond_call *c) { return cp_any(c, 4); }
static int cp_several(const cond_call *c) { return c->a->CopyPageTableEntries.NumRanges > 1; }

/* ---- The rest ---- */

static int sf_above_32(const cond_call *c) { return c->a->SignalMonitoredFence.MonitoredFenceValue >> 32 != 0; }
static int ic_segment(const cond_call *c) { return c->a->InitContextResource.Destination.SegmentId != 0; }
static int ic_system(const cond_call *c) { return c->a->InitContextResource.Destination.SegmentId == 0; }
static int ic_gpu_va(const cond_call *c) { return c->a->InitContextResource.Destination.GpuVirtualAddress != 0; }
static int any(const cond_call *c)
{
    (void)c;
    return 1;
}
static int nr_resident(const cond_call *c) { return c->a->NotifyResidency.Resident; }
static int nr_evicted(const cond_call *c) { return !c->a->NotifyResidency.Resident; }

/* ---- Volume: counted over the run's calls ---- */

static int v_tables(const pbc_condition_tally *t) { return t->tables >= PBC_VOLUME_TABLES; }
static int v_maps(const pbc_condition_tally *t) { return t->maps >= PBC_VOLUME_MAPS; }
static int v_buffers(const pbc_condition_tally *t) { return t->buffers >= PBC_VOLUME_BUFFERS; }

typedef struct cond_def {
    pbc_condition c;
    int (*test)(const cond_call *c);            /* on one call; NULL: */
    int (*per_run)(const pbc_condition_tally *t); /* on the run's counts, when it ends */
} cond_def;

/* Every operation issued in a buffer: the smallest buffer, and each place
 * the buffer can lie. */
#define SMALLEST(op)                                                                                           \
    {{op, "smallest-buffer", "a fresh paging buffer of the target's minimum size"}, c_smallest},              \
        {{op, "buffer-in-system", "its paging buffer in system memory"}, c_buf_system},                        \
        {{op, "buffer-in-low-segment", "its paging buffer in a memory segment below 4 GiB (S40)"}, c_buf_low},     \
        {{op, "buffer-in-high-segment", "its paging buffer in a memory segment at or above 4 GiB (S40)"},  \
         c_buf_high}
#define AFTER_QUEUED(op)                                                                                       \
    {{op, "after-queued-work", "an earlier move, fill or discard of its allocation not yet run by the GPU"},   \
     c_alloc_queued}
#define BEHIND_QUEUED(op)                                                                                      \
    {{op, "behind-queued-move", "writes a range another allocation's queued move, discard or destroy left"},   \
     c_vacated_queued}
#define RESUMED(op) {{op, "resumed", "MultipassOffset not 0: the operation goes on in a new buffer"}, c_resumed}

static const cond_def conds[] = {
    SMALLEST(DXGK_OPERATION_TRANSFER),
    RESUMED(DXGK_OPERATION_TRANSFER),
    {{DXGK_OPERATION_TRANSFER, "from-mdl", "Source.SegmentId 0: system pages by MDL"}, tr_from_mdl},
    {{DXGK_OPERATION_TRANSFER, "to-mdl", "Destination.SegmentId 0"}, tr_to_mdl},
    {{DXGK_OPERATION_TRANSFER, "segment-to-segment", "both sides in segments"}, tr_seg_to_seg},
    {{DXGK_OPERATION_TRANSFER, "size-not-page-multiple", "TransferSize not a multiple of 4 KiB"}, tr_odd},
    {{DXGK_OPERATION_TRANSFER, "transfer-offset", "TransferOffset not 0 (a later sub-transfer)"}, tr_offset},
    {{DXGK_OPERATION_TRANSFER, "split-first", "TransferStart without TransferEnd"}, tr_first_of_several},
    {{DXGK_OPERATION_TRANSFER, "split-middle", "neither TransferStart nor TransferEnd"}, tr_middle},
    {{DXGK_OPERATION_TRANSFER, "split-last", "TransferEnd without TransferStart"}, tr_last_of_several},
    {{DXGK_OPERATION_TRANSFER, "idle", "AllocationIsIdle set"}, tr_idle},
    {{DXGK_OPERATION_TRANSFER, "maybe-busy", "AllocationIsIdle clear"}, tr_maybe_busy},
    {{DXGK_OPERATION_TRANSFER, "mdl-offset", "MdlOffset not 0"}, tr_mdl_offset},
    {{DXGK_OPERATION_TRANSFER, "segment-above-4g", "a segment side at or above 4 GiB"}, tr_seg_above_4g},
    {{DXGK_OPERATION_TRANSFER, "segment-across-4g", "a segment side across a 4 GiB line"}, tr_seg_across_4g},
    {{DXGK_OPERATION_TRANSFER, "mdl-pages-above-4g", "a system page of the MDL side above 4 GiB"}, tr_mdl_above_4g},
    {{DXGK_OPERATION_TRANSFER, "mdl-pages-in-a-row", "two system pages next to each other"}, tr_mdl_in_a_row},
    {{DXGK_OPERATION_TRANSFER, "mdl-pages-across-4g", "pages in a row across a 4 GiB line"}, tr_mdl_across_4g},
    {{DXGK_OPERATION_TRANSFER, "size-at-4g", "TransferSize a multiple of 4 GiB: 0 in 32 bits"}, tr_size_at_4g},
    {{DXGK_OPERATION_TRANSFER, "size-beyond-4g", "TransferSize beyond 4 GiB, not a multiple of it"},
     tr_size_beyond_4g},
    AFTER_QUEUED(DXGK_OPERATION_TRANSFER),
    BEHIND_QUEUED(DXGK_OPERATION_TRANSFER),
    {{DXGK_OPERATION_TRANSFER, "1000-buffers-in-a-run",
      "1,000 paging buffers or more in one run (counted over every operation)"},
     NULL, v_buffers},

    SMALLEST(DXGK_OPERATION_SPECIAL_LOCK_TRANSFER),
    RESUMED(DXGK_OPERATION_SPECIAL_LOCK_TRANSFER),
    {{DXGK_OPERATION_SPECIAL_LOCK_TRANSFER, "from-mdl", "Source.SegmentId 0"}, sl_from_mdl},
    {{DXGK_OPERATION_SPECIAL_LOCK_TRANSFER, "to-mdl", "Destination.SegmentId 0"}, sl_to_mdl},
    {{DXGK_OPERATION_SPECIAL_LOCK_TRANSFER, "size-not-page-multiple", "TransferSize not a multiple of 4 KiB"}, sl_odd},
    {{DXGK_OPERATION_SPECIAL_LOCK_TRANSFER, "idle", "AllocationIsIdle set"}, sl_idle},
    {{DXGK_OPERATION_SPECIAL_LOCK_TRANSFER, "maybe-busy", "AllocationIsIdle clear"}, sl_maybe_busy},
    {{DXGK_OPERATION_SPECIAL_LOCK_TRANSFER, "segment-above-4g", "the segment side at or above 4 GiB"}, sl_above_4g},
    AFTER_QUEUED(DXGK_OPERATION_SPECIAL_LOCK_TRANSFER),
    BEHIND_QUEUED(DXGK_OPERATION_SPECIAL_LOCK_TRANSFER),

    SMALLEST(DXGK_OPERATION_FILL),
    RESUMED(DXGK_OPERATION_FILL),
    {{DXGK_OPERATION_FILL, "size-not-page-multiple", "FillSize not a multiple of 4 KiB"}, fi_odd},
    {{DXGK_OPERATION_FILL, "above-4g", "the destination at or above 4 GiB"}, fi_above_4g},
    {{DXGK_OPERATION_FILL, "across-4g", "the destination across a 4 GiB line"}, fi_across_4g},
    {{DXGK_OPERATION_FILL, "size-at-4g", "FillSize a multiple of 4 GiB: 0 in 32 bits"}, fi_size_at_4g},
    {{DXGK_OPERATION_FILL, "size-beyond-4g", "FillSize beyond 4 GiB, not a multiple of it"}, fi_size_beyond_4g},
    AFTER_QUEUED(DXGK_OPERATION_FILL),
    BEHIND_QUEUED(DXGK_OPERATION_FILL),

    SMALLEST(DXGK_OPERATION_DISCARD_CONTENT),
    {{DXGK_OPERATION_DISCARD_CONTENT, "idle", "AllocationIsIdle set"}, dc_idle},
    {{DXGK_OPERATION_DISCARD_CONTENT, "maybe-busy", "AllocationIsIdle clear"}, dc_maybe_busy},
    {{DXGK_OPERATION_DISCARD_CONTENT, "above-4g", "SegmentAddress at or above 4 GiB"}, dc_above_4g},

    SMALLEST(DXGK_OPERATION_READ_PHYSICAL),
    {{DXGK_OPERATION_READ_PHYSICAL, "below-4g", "PhysicalAddress below 4 GiB"}, rp_below_4g},
    {{DXGK_OPERATION_READ_PHYSICAL, "above-4g", "PhysicalAddress at or above 4 GiB"}, rp_above_4g},
    SMALLEST(DXGK_OPERATION_WRITE_PHYSICAL),
    {{DXGK_OPERATION_WRITE_PHYSICAL, "below-4g", "PhysicalAddress below 4 GiB"}, wp_below_4g},
    {{DXGK_OPERATION_WRITE_PHYSICAL, "above-4g", "PhysicalAddress at or above 4 GiB"}, wp_above_4g},
    BEHIND_QUEUED(DXGK_OPERATION_WRITE_PHYSICAL),

    SMALLEST(DXGK_OPERATION_MAP_APERTURE_SEGMENT),
    RESUMED(DXGK_OPERATION_MAP_APERTURE_SEGMENT),
    {{DXGK_OPERATION_MAP_APERTURE_SEGMENT, "coherent", "CacheCoherent set"}, ma_coherent},
    {{DXGK_OPERATION_MAP_APERTURE_SEGMENT, "not-coherent", "CacheCoherent clear"}, ma_not_coherent},
    {{DXGK_OPERATION_MAP_APERTURE_SEGMENT, "mdl-offset", "MdlOffset not 0"}, ma_mdl_offset},
    {{DXGK_OPERATION_MAP_APERTURE_SEGMENT, "one-page", "NumberOfPages 1"}, ma_one_page},
    {{DXGK_OPERATION_MAP_APERTURE_SEGMENT, "several-pages", "NumberOfPages above 1"}, ma_several},
    {{DXGK_OPERATION_MAP_APERTURE_SEGMENT, "pages-above-4g", "a mapped system page above 4 GiB"}, ma_above_4g},
    {{DXGK_OPERATION_MAP_APERTURE_SEGMENT, "pages-in-a-row", "two mapped pages next to each other"}, ma_in_a_row},
    {{DXGK_OPERATION_MAP_APERTURE_SEGMENT, "1000-maps-in-a-run",
      "1,000 aperture maps or more in one run (MapApertureSegment and MapApertureSegment2)"},
     NULL, v_maps},

    SMALLEST(DXGK_OPERATION_UNMAP_APERTURE_SEGMENT),
    RESUMED(DXGK_OPERATION_UNMAP_APERTURE_SEGMENT),
    {{DXGK_OPERATION_UNMAP_APERTURE_SEGMENT, "one-page", "NumberOfPages 1"}, um_one_page},
    {{DXGK_OPERATION_UNMAP_APERTURE_SEGMENT, "several-pages", "NumberOfPages above 1"}, um_several},

    SMALLEST(DXGK_OPERATION_MAP_APERTURE_SEGMENT2),
    RESUMED(DXGK_OPERATION_MAP_APERTURE_SEGMENT2),
    {{DXGK_OPERATION_MAP_APERTURE_SEGMENT2, "adl-contiguous", "Adl.Flags.Contiguous: BasePageNumber"}, m2_contiguous},
    {{DXGK_OPERATION_MAP_APERTURE_SEGMENT2, "adl-page-array", "an ADL of Pages"}, m2_page_array},
    {{DXGK_OPERATION_MAP_APERTURE_SEGMENT2, "cpu-visible", "CpuVisibleAddress set"}, m2_cpu_visible},
    {{DXGK_OPERATION_MAP_APERTURE_SEGMENT2, "not-cpu-visible", "CpuVisibleAddress NULL"}, m2_not_cpu_visible},
    {{DXGK_OPERATION_MAP_APERTURE_SEGMENT2, "adl-offset", "AdlOffset not 0"}, m2_adl_offset},
    {{DXGK_OPERATION_MAP_APERTURE_SEGMENT2, "coherent", "CacheCoherent set"}, m2_coherent},
    {{DXGK_OPERATION_MAP_APERTURE_SEGMENT2, "not-coherent", "CacheCoherent clear"}, m2_not_coherent},

    SMALLEST(DXGK_OPERATION_UPDATE_PAGE_TABLE),
    RESUMED(DXGK_OPERATION_UPDATE_PAGE_TABLE),
    {{DXGK_OPERATION_UPDATE_PAGE_TABLE, "immediate", "CPU_VIRTUAL, pDmaBuffer NULL"}, up_immediate},
    {{DXGK_OPERATION_UPDATE_PAGE_TABLE, "by-physical-address", "GPU_PHYSICAL"}, up_physical},
    {{DXGK_OPERATION_UPDATE_PAGE_TABLE, "repeat", "Flags.Repeat"}, up_repeat},
    {{DXGK_OPERATION_UPDATE_PAGE_TABLE, "initial-update", "Flags.InitialUpdate"}, up_initial},
    {{DXGK_OPERATION_UPDATE_PAGE_TABLE, "64k-pages", "Flags.Use64KBPages: a leaf of 64 KiB pages"}, up_64k_link},
    {{DXGK_OPERATION_UPDATE_PAGE_TABLE, "directory", "PageTableLevel 1 or above"}, up_directory},
    {{DXGK_OPERATION_UPDATE_PAGE_TABLE, "allocation-range", "a leaf update with hAllocation"}, up_leaf_range},
    {{DXGK_OPERATION_UPDATE_PAGE_TABLE, "start-inside-leaf", "a leaf update from StartIndex above 0"},
     up_start_inside},
    {{DXGK_OPERATION_UPDATE_PAGE_TABLE, "across-leaf-boundary",
      "a range's entries up to a leaf's end from inside it: it goes on in the next leaf (2 MiB)"},
     up_to_leaf_end},
    {{DXGK_OPERATION_UPDATE_PAGE_TABLE, "system-page", "an entry for a system page"}, up_system_page},
    {{DXGK_OPERATION_UPDATE_PAGE_TABLE, "segment-page", "an entry for a segment page"}, up_segment_page},
    {{DXGK_OPERATION_UPDATE_PAGE_TABLE, "page-above-4g", "an entry for a page at or above 4 GiB"}, up_page_above_4g},
    {{DXGK_OPERATION_UPDATE_PAGE_TABLE, "page-below-4g", "an entry for a page below 4 GiB"}, up_page_below_4g},
    {{DXGK_OPERATION_UPDATE_PAGE_TABLE, "read-only", "an entry with ReadOnly"}, up_read_only},
    {{DXGK_OPERATION_UPDATE_PAGE_TABLE, "zero", "an entry with Zero"}, up_zero},
    {{DXGK_OPERATION_UPDATE_PAGE_TABLE, "driver-protection", "DriverProtection not 0"}, up_protection},
    {{DXGK_OPERATION_UPDATE_PAGE_TABLE, "other-space", "a space other than the first (more than one address space)"},
     up_other_space},
    {{DXGK_OPERATION_UPDATE_PAGE_TABLE, "256-tables-in-a-run", "256 leaf tables or more written in one run"}, NULL,
     v_tables},

    SMALLEST(DXGK_OPERATION_FLUSH_TLB),
    {{DXGK_OPERATION_FLUSH_TLB, "one-page", "a range of 4 KiB"}, ft_one_page},
    {{DXGK_OPERATION_FLUSH_TLB, "not-2m-aligned", "a range not on 2 MiB lines"}, ft_unaligned},
    {{DXGK_OPERATION_FLUSH_TLB, "across-2m", "a range across a leaf table's 2 MiB line"}, ft_across_2m},
    {{DXGK_OPERATION_FLUSH_TLB, "across-1g", "a range across a directory's 1 GiB line"}, ft_across_1g},
    {{DXGK_OPERATION_FLUSH_TLB, "other-space", "a space other than the first (more than one address space)"},
     ft_other_space},

    SMALLEST(DXGK_OPERATION_VIRTUAL_TRANSFER),
    RESUMED(DXGK_OPERATION_VIRTUAL_TRANSFER),
    {{DXGK_OPERATION_VIRTUAL_TRANSFER, "local-to-system", "TransferDirection LOCAL_TO_SYSTEM"}, tv_to_system},
    {{DXGK_OPERATION_VIRTUAL_TRANSFER, "system-to-local", "TransferDirection SYSTEM_TO_LOCAL"}, tv_from_system},
    {{DXGK_OPERATION_VIRTUAL_TRANSFER, "local-to-local", "TransferDirection LOCAL_TO_LOCAL"}, tv_local},
    {{DXGK_OPERATION_VIRTUAL_TRANSFER, "size-not-page-multiple", "TransferSizeInBytes not a multiple of 4 KiB"},
     tv_odd},
    {{DXGK_OPERATION_VIRTUAL_TRANSFER, "allocation-offset", "AllocationOffsetInBytes not 0 (split)"}, tv_offset},
    {{DXGK_OPERATION_VIRTUAL_TRANSFER, "across-2m", "a side across a 2 MiB line"}, tv_across_2m},
    AFTER_QUEUED(DXGK_OPERATION_VIRTUAL_TRANSFER),
    BEHIND_QUEUED(DXGK_OPERATION_VIRTUAL_TRANSFER),

    SMALLEST(DXGK_OPERATION_VIRTUAL_FILL),
    RESUMED(DXGK_OPERATION_VIRTUAL_FILL),
    {{DXGK_OPERATION_VIRTUAL_FILL, "size-not-page-multiple", "FillSizeInBytes not a multiple of 4 KiB"}, fv_odd},
    {{DXGK_OPERATION_VIRTUAL_FILL, "across-2m", "the destination across a 2 MiB line"}, fv_across_2m},
    AFTER_QUEUED(DXGK_OPERATION_VIRTUAL_FILL),
    BEHIND_QUEUED(DXGK_OPERATION_VIRTUAL_FILL),

    SMALLEST(DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES),
    RESUMED(DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES),
    {{DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES, "whole-leaf", "a range of a whole leaf, both start indexes 0"}, cp_whole},
    {{DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES, "partial-same-index", "a part of a leaf, the same index on both sides"},
     cp_partial_same},
    {{DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES, "source-index-above", "SrcStartPteIndex above DstStartPteIndex"},
     cp_src_above},
    {{DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES, "source-index-below", "SrcStartPteIndex below DstStartPteIndex"},
     cp_src_below},
    {{DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES, "one-entry", "a range of one entry"}, cp_one_entry},
    {{DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES, "several-ranges", "NumRanges above 1"}, cp_several},

    SMALLEST(DXGK_OPERATION_SIGNAL_MONITORED_FENCE),
    {{DXGK_OPERATION_SIGNAL_MONITORED_FENCE, "value-above-32-bits", "MonitoredFenceValue beyond 32 bits"},
     sf_above_32},
    SMALLEST(DXGK_OPERATION_INIT_CONTEXT_RESOURCE),
    {{DXGK_OPERATION_INIT_CONTEXT_RESOURCE, "in-segment", "Destination in a segment"}, ic_segment},
    {{DXGK_OPERATION_INIT_CONTEXT_RESOURCE, "in-system", "Destination by MDL, VirtualAddress a CPU view"}, ic_system},
    {{DXGK_OPERATION_INIT_CONTEXT_RESOURCE, "gpu-virtual-address", "GpuVirtualAddress set"}, ic_gpu_va},
    SMALLEST(DXGK_OPERATION_UPDATE_CONTEXT_ALLOCATION),
    SMALLEST(DXGK_OPERATION_NOTIFY_RESIDENCY),
    {{DXGK_OPERATION_NOTIFY_RESIDENCY, "resident", "Resident 1"}, nr_resident},
    {{DXGK_OPERATION_NOTIFY_RESIDENCY, "evicted", "Resident 0, address {0, 0}"}, nr_evicted},
    {{DXGK_OPERATION_NOTIFY_FENCE_RESIDENCY, "issued", "the operation at all"}, any},
    {{DXGK_OPERATION_MAP_MMU, "issued", "the operation at all"}, any},
    {{DXGK_OPERATION_UNMAP_MMU, "issued", "the operation at all"}, any},
    {{DXGK_OPERATION_NOTIFY_RESIDENCY2, "issued", "the operation at all"}, any},
    {{DXGK_OPERATION_NOTIFY_ALLOC, "issued", "the operation at all"}, any},
};

uint32_t pbc_condition_count(void) { return (uint32_t)PBC_ARRAY_LEN(conds); }

const pbc_condition *pbc_condition_get(uint32_t i) { return i < PBC_ARRAY_LEN(conds) ? &conds[i].c : NULL; }

void pbc_condition_tally_init(pbc_condition_tally *t, const pbc_target *target)
{
    memset(t, 0, sizeof(*t));
    t->runs = pbc_xcalloc(PBC_ARRAY_LEN(conds), sizeof(*t->runs));
    t->seen = pbc_xcalloc(PBC_ARRAY_LEN(conds), 1);
    t->min_dma = target->min_dma_size;
}

void pbc_condition_tally_fini(pbc_condition_tally *t)
{
    free(t->runs);
    free(t->seen);
    memset(t, 0, sizeof(*t));
}

/* A call resumed after INSUFFICIENT_DMA_BUFFER has the arguments of the
 * operation's first call but for the buffer and MultipassOffset (S08):
 * only the buffer's conditions can be new on it, and judging the others
 * again would cost a scan of a large MDL per call. */
static int about_the_buffer(int (*test)(const cond_call *c))
{
    return test == c_smallest || test == c_resumed || test == c_buf_system || test == c_buf_low ||
           test == c_buf_high;
}

/* Counts the run's volume: leaf tables (by address, a small open set
 * that stops growing once the condition is met), aperture maps, and
 * fresh paging buffers. */
static void tally_volume(pbc_condition_tally *t, const DXGKARG_BUILDPAGINGBUFFER *a)
{
    int first = a->MultipassOffset == 0;
    if (a->pDmaBuffer && a->DmaBufferWriteOffset == 0)
        t->buffers++;
    if (first && (a->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT ||
                  a->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT2))
        t->maps++;
    if (!first || a->Operation != DXGK_OPERATION_UPDATE_PAGE_TABLE || a->UpdatePageTable.PageTableLevel != 0 ||
        t->tables >= PBC_VOLUME_TABLES)
        return;
    const DXGK_PAGETABLEUPDATEADDRESS *at = &a->UpdatePageTable.PageTableAddress;
    uint64_t key = a->UpdatePageTable.UpdateMode == DXGK_PAGETABLEUPDATE_GPU_PHYSICAL
                       ? at->GpuPhysical.SegmentOffset ^ ((uint64_t)at->GpuPhysical.SegmentId << 56)
                       : (uint64_t)at->GpuVirtual;
    key |= 1; /* 0 is an empty slot */
    uint32_t slot = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 54) % PBC_ARRAY_LEN(t->table_set);
    while (t->table_set[slot] && t->table_set[slot] != key)
        slot = (slot + 1) % PBC_ARRAY_LEN(t->table_set);
    if (!t->table_set[slot]) {
        t->table_set[slot] = key;
        t->tables++;
    }
}

static void tally_observe(void *ctx, const DXGKARG_BUILDPAGINGBUFFER *a, const pbc_vidmm_facts *f)
{
    pbc_condition_tally *t = ctx;
    cond_call c = {a, f, t->min_dma, t->s};
    int resumed = a->MultipassOffset != 0;
    tally_volume(t, a);
    for (uint32_t i = 0; i < PBC_ARRAY_LEN(conds); i++)
        if (!t->seen[i] && conds[i].test && conds[i].c.operation == (uint32_t)a->Operation &&
            (!resumed || about_the_buffer(conds[i].test)) && conds[i].test(&c))
            t->seen[i] = 1;
}

int pbc_condition_tally_run(pbc_condition_tally *t, pbc_runner *r, const pbc_scenario *s, const pbc_target *target)
{
    memset(t->seen, 0, PBC_ARRAY_LEN(conds));
    memset(t->table_set, 0, sizeof(t->table_set));
    t->tables = t->maps = t->buffers = 0;
    t->s = s;
    pbc_run_options o = {.observe = tally_observe, .observe_ctx = t};
    pbc_outcome out;
    pbc_runner_run(r, s, target, &o, &out);
    t->s = NULL;
    for (uint32_t i = 0; i < PBC_ARRAY_LEN(conds); i++)
        if (conds[i].per_run && conds[i].per_run(t))
            t->seen[i] = 1;
    for (uint32_t i = 0; i < PBC_ARRAY_LEN(conds); i++)
        t->runs[i] += t->seen[i];
    return (int)out.verdict;
}

uint32_t pbc_condition_tally_cases(pbc_condition_tally *t, const pbc_case_list *cases, const pbc_target *target)
{
    pbc_runner r;
    pbc_runner_init(&r);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < cases->count; i++) {
        pbc_scenario s;
        char err[256];
        const pbc_case *k = &cases->items[i];
        if (pbc_scenario_parse(k->text, strlen(k->text), k->name, &s, err, sizeof(err))) {
            bad++;
            continue;
        }
        bad += pbc_condition_tally_run(t, &r, &s, target) != PBC_VERDICT_PASS;
        pbc_scenario_fini(&s);
    }
    pbc_runner_fini(&r);
    return bad;
}
