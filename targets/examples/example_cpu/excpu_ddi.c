/*
 * ExCpu: an example third-party paging-buffer builder in the "CPU at
 * build time" style, written as a vendor's KMD source would be, and the
 * template to copy for a driver that moves memory with the CPU inside
 * DxgkDdiBuildPagingBuffer.
 *
 * Style:
 *  - Transfer, SpecialLockTransfer and DiscardContent need the allocation
 *    idle: without AllocationIsIdle they return ALLOCATION_BUSY, consuming
 *    nothing, and VidMm calls again once the GPU is done with it (S21-S24).
 *  - An idle eviction (segment -> MDL) is copied by the CPU at build time:
 *    the segment side through MmMapIoSpace(SegmentAddress +
 *    TransferOffset), the MDL side through MmGetSystemAddressForMdlSafe
 *    plus MdlOffset pages. No packet is written.
 *  - Everything that writes a *segment* (a transfer into a segment, a
 *    fill) goes to the GPU as BLIT/SOLID packets instead. AllocationIsIdle
 *    covers the allocation, not its destination: the range it moves into
 *    may still be read or written by queued work of its previous occupant
 *    (corpus/seeds/cpu-copy-into-busy-range.pbs), and Fill has no idle
 *    flag at all. The driver cannot wait for that work at build time, so
 *    it queues its write behind it. Likewise a call that finds packets of
 *    earlier operations still unsubmitted in its buffer (which may write
 *    the source) or that resumes a transfer continues with packets.
 *  - The GART is programmed by 32-bit register stores through the
 *    register file mapped with MmMapIoSpace: GART_INDEX, then GART_ENTRY
 *    (valid bit plus page number), then a read of GART_INVALIDATE. The
 *    register pair cannot be read back per entry, so the adapter keeps the
 *    entries it stored; ExCpuGartView reads them.
 *  - ReadPhysical is a 4-byte CPU read through MmMapIoSpace (its value is
 *    irrelevant, S28). WritePhysical is a 4-byte solid-fill packet: the
 *    address may have been the previous occupant's, whose eviction is
 *    still queued, and a CPU write now would land under that work.
 *
 * Build with -DEXCPU_BUG_IGNORE_IDLE for the planted bug: evictions are
 * copied with the CPU whether or not the allocation is idle
 * (PB-IDLE-HAZARD).
 */
#include <stdlib.h>

#include <pbcheck/target.h>
#include <pbcheck/wdk/dispmprt.h>

#include "excpu_hw.h"

#define EXCPU_MAX_ALLOCATIONS 1024u
#define EXCPU_MAX_APERTURES 2u
#define EXCPU_MAX_GART_ENTRIES 65536u /* 256 MiB of 4 KiB pages */

typedef struct _EXCPU_ALLOCATION {
    BOOLEAN InUse;
    ULONGLONG Size;
} EXCPU_ALLOCATION;

typedef struct _EXCPU_APERTURE {
    UINT SegmentId;
    ULONG Pages;
    ULONG Entry[EXCPU_MAX_GART_ENTRIES]; /* what was stored to GART_ENTRY */
} EXCPU_APERTURE;

typedef struct _EXCPU_ADAPTER {
    pbc_host Host;
    volatile ULONG *Regs;
    ULONG RegsSize;
    ULONG ApertureCount;
    EXCPU_APERTURE Aperture[EXCPU_MAX_APERTURES];
    EXCPU_ALLOCATION Allocation[EXCPU_MAX_ALLOCATIONS];
} EXCPU_ADAPTER;

/* The one place adapter memory comes from: non-paged pool, as a miniport
 * takes it (ExAllocatePool2 zeroes it); the tag names it in a leak report. */
#define EXCPU_POOL_TAG 0x41647843u /* 'CxdA' in memory */
static EXCPU_ADAPTER *ExCpuAllocateAdapterMemory(void)
{
    return ExAllocatePool2(POOL_FLAG_NON_PAGED, sizeof(EXCPU_ADAPTER), EXCPU_POOL_TAG);
}
static void ExCpuFreeAdapterMemory(EXCPU_ADAPTER *Adapter) { ExFreePoolWithTag(Adapter, EXCPU_POOL_TAG); }

static NTSTATUS ExCpuCreateAdapter(const pbc_adapter_info *Info, HANDLE *phAdapter)
{
    EXCPU_ADAPTER *adapter = ExCpuAllocateAdapterMemory();
    if (!adapter)
        return STATUS_NO_MEMORY;
    adapter->Host = *Info->host;
    for (ULONG i = 0; i < Info->segment_count; i++) {
        const pbc_segment_info *seg = &Info->segments[i];
        if (seg->kind != PBC_SEGMENT_APERTURE)
            continue;
        if (adapter->ApertureCount == EXCPU_MAX_APERTURES || seg->size / PAGE_SIZE > EXCPU_MAX_GART_ENTRIES) {
            ExCpuFreeAdapterMemory(adapter);
            return STATUS_NOT_SUPPORTED;
        }
        EXCPU_APERTURE *ap = &adapter->Aperture[adapter->ApertureCount++];
        ap->SegmentId = seg->SegmentId;
        ap->Pages = (ULONG)(seg->size / PAGE_SIZE);
    }
    PHYSICAL_ADDRESS regs;
    regs.QuadPart = (LONGLONG)Info->mmio_physical;
    adapter->Regs = MmMapIoSpace(regs, Info->mmio_size, MmNonCached);
    adapter->RegsSize = Info->mmio_size;
    if (!adapter->Regs) {
        ExCpuFreeAdapterMemory(adapter);
        return STATUS_INSUFFICIENT_RESOURCES;
    }
    *phAdapter = adapter;
    return STATUS_SUCCESS;
}

static void ExCpuDestroyAdapter(HANDLE hAdapter)
{
    EXCPU_ADAPTER *adapter = hAdapter;
    MmUnmapIoSpace((PVOID)adapter->Regs, adapter->RegsSize);
    ExCpuFreeAdapterMemory(adapter);
}

static NTSTATUS ExCpuCreateAllocation(HANDLE hAdapter, const pbc_allocation_info *Info, HANDLE *phAllocation)
{
    EXCPU_ADAPTER *adapter = hAdapter;
    for (ULONG i = 0; i < EXCPU_MAX_ALLOCATIONS; i++) {
        EXCPU_ALLOCATION *a = &adapter->Allocation[i];
        if (a->InUse)
            continue;
        a->InUse = TRUE;
        a->Size = Info->size;
        *phAllocation = a;
        return STATUS_SUCCESS;
    }
    return STATUS_NO_MEMORY;
}

static void ExCpuDestroyAllocation(HANDLE hAdapter, HANDLE hAllocation)
{
    UNREFERENCED_PARAMETER(hAdapter);
    ((EXCPU_ALLOCATION *)hAllocation)->InUse = FALSE;
}

static EXCPU_APERTURE *ExCpuFindAperture(EXCPU_ADAPTER *Adapter, UINT SegmentId, ULONG *Number)
{
    for (ULONG i = 0; i < Adapter->ApertureCount; i++)
        if (Adapter->Aperture[i].SegmentId == SegmentId) {
            *Number = i;
            return &Adapter->Aperture[i];
        }
    return NULL;
}

static int ExCpuGartView(HANDLE hAdapter, UINT SegmentId, uint64_t Index, pbc_gart_view *Out)
{
    ULONG number;
    EXCPU_APERTURE *ap = ExCpuFindAperture(hAdapter, SegmentId, &number);
    if (!ap || Index >= ap->Pages)
        return -1;
    ULONG e = ap->Entry[Index];
    Out->valid = (e & EXCPU_PTE_VALID) != 0;
    Out->cache_coherent = (e & EXCPU_PTE_SNOOP) != 0;
    Out->page = (ULONGLONG)(e >> EXCPU_PTE_PFN_SHIFT) << PAGE_SHIFT;
    return 0;
}

/* Stores the entries, then one invalidate for the whole range. */
static NTSTATUS ExCpuProgramGart(EXCPU_ADAPTER *Adapter, UINT SegmentId, SIZE_T First, SIZE_T Count,
                                 const PFN_NUMBER *Pfns, PFN_NUMBER SamePfn, ULONG Flags)
{
    ULONG number;
    EXCPU_APERTURE *ap = ExCpuFindAperture(Adapter, SegmentId, &number);
    NT_ASSERT(ap && First + Count <= ap->Pages);
    if (!ap || First + Count > ap->Pages)
        return STATUS_SUCCESS;
    for (SIZE_T i = 0; i < Count; i++) {
        PFN_NUMBER pfn = Pfns ? Pfns[i] : SamePfn;
        NT_ASSERT(pfn < (1ull << (32 - EXCPU_PTE_PFN_SHIFT)));
        ULONG entry = (ULONG)pfn << EXCPU_PTE_PFN_SHIFT | Flags;
        WRITE_REGISTER_ULONG(&Adapter->Regs[EXCPU_REG_GART_INDEX / 4],
                             number << EXCPU_GART_APERTURE_SHIFT | (ULONG)(First + i));
        WRITE_REGISTER_ULONG(&Adapter->Regs[EXCPU_REG_GART_ENTRY / 4], entry);
        ap->Entry[First + i] = entry;
    }
    (void)READ_REGISTER_ULONG(&Adapter->Regs[EXCPU_REG_GART_INVALIDATE / 4]);
    return STATUS_SUCCESS;
}

static NTSTATUS ExCpuMapAperture(EXCPU_ADAPTER *Adapter, DXGKARG_BUILDPAGINGBUFFER *Args)
{
    const __typeof__(Args->MapApertureSegment) *m = &Args->MapApertureSegment;
    ULONG flags = EXCPU_PTE_VALID | (m->Flags.CacheCoherent ? EXCPU_PTE_SNOOP : 0);
    return ExCpuProgramGart(Adapter, m->SegmentId, m->OffsetInPages, m->NumberOfPages,
                            MmGetMdlPfnArray(m->pMdl) + m->MdlOffset, 0, flags);
}

/* Unmapped pages point at the dummy page and stay valid (S33). */
static NTSTATUS ExCpuUnmapAperture(EXCPU_ADAPTER *Adapter, DXGKARG_BUILDPAGINGBUFFER *Args)
{
    const __typeof__(Args->UnmapApertureSegment) *u = &Args->UnmapApertureSegment;
    return ExCpuProgramGart(Adapter, u->SegmentId, u->OffsetInPages, u->NumberOfPages, NULL,
                            (PFN_NUMBER)(u->DummyPage.QuadPart >> PAGE_SHIFT), EXCPU_PTE_VALID);
}

/* ---- GPU fallback: BLIT and SOLID packets, one page of work each ---- */

typedef struct _EXCPU_SIDE {
    UINT SegmentId;
    LARGE_INTEGER SegmentAddress;
    PMDL Mdl;
} EXCPU_SIDE;

static ULONGLONG ExCpuSideAddress(const EXCPU_SIDE *S, UINT TransferOffset, UINT MdlOffset, ULONGLONG Offset)
{
    if (S->SegmentId != 0)
        return (ULONGLONG)S->SegmentAddress.QuadPart + TransferOffset + Offset;
    return ((ULONGLONG)MmGetMdlPfnArray(S->Mdl)[MdlOffset + Offset / PAGE_SIZE] << PAGE_SHIFT) +
           Offset % PAGE_SIZE;
}

static ULONG ExCpuChunk(ULONGLONG Size, ULONG Index)
{
    ULONGLONG left = Size - (ULONGLONG)Index * EXCPU_CHUNK;
    return left < EXCPU_CHUNK ? (ULONG)left : EXCPU_CHUNK;
}

static NTSTATUS ExCpuBlit(DXGKARG_BUILDPAGINGBUFFER *Args, SIZE_T Size, const EXCPU_SIDE *Src,
                          const EXCPU_SIDE *Dst, UINT TransferOffset, UINT MdlOffset)
{
    PUCHAR cur = Args->pDmaBuffer, end = cur + Args->DmaSize;
    ULONG total = (ULONG)((Size + EXCPU_CHUNK - 1) / EXCPU_CHUNK);
    ULONG i = Args->MultipassOffset;
    for (; i < total && (SIZE_T)(end - cur) >= EXCPU_LEN_BLIT * 4; i++, cur += EXCPU_LEN_BLIT * 4) {
        ULONGLONG off = (ULONGLONG)i * EXCPU_CHUNK;
        ULONGLONG dst = ExCpuSideAddress(Dst, TransferOffset, MdlOffset, off);
        ULONGLONG src = ExCpuSideAddress(Src, TransferOffset, MdlOffset, off);
        excpu_wr32(cur, (ULONG)EXCPU_OP_BLIT << 24 | EXCPU_LEN_BLIT);
        excpu_wr32(cur + 4, (ULONG)dst);
        excpu_wr32(cur + 8, (ULONG)(dst >> 32));
        excpu_wr32(cur + 12, (ULONG)src);
        excpu_wr32(cur + 16, (ULONG)(src >> 32));
        excpu_wr32(cur + 20, ExCpuChunk(Size, i));
    }
    Args->pDmaBuffer = cur;
    Args->MultipassOffset = i;
    return i == total ? STATUS_SUCCESS : STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
}

static NTSTATUS ExCpuFill(DXGKARG_BUILDPAGINGBUFFER *Args)
{
    PUCHAR cur = Args->pDmaBuffer, end = cur + Args->DmaSize;
    ULONG total = (ULONG)((Args->Fill.FillSize + EXCPU_CHUNK - 1) / EXCPU_CHUNK);
    ULONG i = Args->MultipassOffset;
    for (; i < total && (SIZE_T)(end - cur) >= EXCPU_LEN_SOLID * 4; i++, cur += EXCPU_LEN_SOLID * 4) {
        ULONGLONG dst = (ULONGLONG)Args->Fill.Destination.SegmentAddress.QuadPart + (ULONGLONG)i * EXCPU_CHUNK;
        excpu_wr32(cur, (ULONG)EXCPU_OP_SOLID << 24 | EXCPU_LEN_SOLID);
        excpu_wr32(cur + 4, (ULONG)dst);
        excpu_wr32(cur + 8, (ULONG)(dst >> 32));
        excpu_wr32(cur + 12, ExCpuChunk(Args->Fill.FillSize, i));
        excpu_wr32(cur + 16, Args->Fill.FillPattern);
    }
    Args->pDmaBuffer = cur;
    Args->MultipassOffset = i;
    return i == total ? STATUS_SUCCESS : STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
}

/* ---- The CPU path ---- */

/* Copies an idle eviction with the CPU. Returns FALSE (nothing copied)
 * when a mapping fails; the caller then uses packets. */
static BOOLEAN ExCpuCopyEviction(SIZE_T Size, const EXCPU_SIDE *Src, const EXCPU_SIDE *Dst, UINT TransferOffset,
                                 UINT MdlOffset)
{
    PMDL mdl = Dst->Mdl;
    ULONG span = ADDRESS_AND_SIZE_TO_SPAN_PAGES(MmGetMdlVirtualAddress(mdl), MmGetMdlByteCount(mdl));
    if ((ULONGLONG)MdlOffset * PAGE_SIZE + Size > (ULONGLONG)span * PAGE_SIZE)
        return FALSE;
    PHYSICAL_ADDRESS pa;
    pa.QuadPart = Src->SegmentAddress.QuadPart + TransferOffset; /* segment sides only (S13) */
    PUCHAR src = MmMapIoSpace(pa, Size, MmCached);
    if (!src)
        return FALSE;
    PUCHAR view = MmGetSystemAddressForMdlSafe(mdl, NormalPagePriority | MdlMappingNoExecute);
    if (!view) {
        MmUnmapIoSpace(src, Size);
        return FALSE;
    }
    /* The view starts ByteOffset into the first page; MdlOffset counts
     * whole pages from that page's start (S14). */
    PUCHAR dst = view - (MmGetMdlByteOffset(mdl) & (PAGE_SIZE - 1)) + (SIZE_T)MdlOffset * PAGE_SIZE;
    RtlCopyMemory(dst, src, Size);
    MmUnmapLockedPages(view, mdl);
    MmUnmapIoSpace(src, Size);
    return TRUE;
}

static NTSTATUS ExCpuTransfer(DXGKARG_BUILDPAGINGBUFFER *Args, SIZE_T Size, const EXCPU_SIDE *Src,
                              const EXCPU_SIDE *Dst, DXGK_TRANSFERFLAGS Flags, UINT TransferOffset,
                              UINT MdlOffset)
{
#ifdef EXCPU_BUG_IGNORE_IDLE
    UNREFERENCED_PARAMETER(Flags); /* planted bug: copies whether the GPU is done or not */
#else
    if (!Flags.AllocationIsIdle)
        return STATUS_GRAPHICS_ALLOCATION_BUSY; /* nothing written (S22) */
#endif
    if (Src->SegmentId != 0 && Dst->SegmentId == 0 && Size != 0 && Args->MultipassOffset == 0 &&
        Args->DmaBufferWriteOffset == 0 && ExCpuCopyEviction(Size, Src, Dst, TransferOffset, MdlOffset))
        return STATUS_SUCCESS;
    return ExCpuBlit(Args, Size, Src, Dst, TransferOffset, MdlOffset);
}

static NTSTATUS ExCpuWritePhysical(DXGKARG_BUILDPAGINGBUFFER *Args)
{
    PUCHAR cur = Args->pDmaBuffer;
    if (Args->DmaSize < EXCPU_LEN_SOLID * 4)
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    ULONGLONG dst = (ULONGLONG)Args->WritePhysical.PhysicalAddress.QuadPart;
    excpu_wr32(cur, (ULONG)EXCPU_OP_SOLID << 24 | EXCPU_LEN_SOLID);
    excpu_wr32(cur + 4, (ULONG)dst);
    excpu_wr32(cur + 8, (ULONG)(dst >> 32));
    excpu_wr32(cur + 12, sizeof(ULONG));
    excpu_wr32(cur + 16, 0);
    Args->pDmaBuffer = cur + EXCPU_LEN_SOLID * 4;
    return STATUS_SUCCESS;
}

static NTSTATUS ExCpuPhysical(DXGKARG_BUILDPAGINGBUFFER *Args, BOOLEAN Write)
{
    if (Write)
        return ExCpuWritePhysical(Args);
    PHYSICAL_ADDRESS pa = Args->ReadPhysical.PhysicalAddress;
    PUCHAR p = MmMapIoSpace(pa, sizeof(ULONG), MmNonCached);
    if (!p)
        return STATUS_SUCCESS; /* nothing there to touch */
    /* A device read through an uncached mapping: READ_REGISTER_ULONG, so
     * the compiler cannot drop a read whose value nobody uses. */
    (void)READ_REGISTER_ULONG((volatile ULONG *)p);
    MmUnmapIoSpace(p, sizeof(ULONG));
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY ExCpuBuildPagingBuffer(IN_CONST_HANDLE hAdapter, IN_PDXGKARG_BUILDPAGINGBUFFER Args)
{
    EXCPU_ADAPTER *adapter = (EXCPU_ADAPTER *)hAdapter;
    switch (Args->Operation) {
    case DXGK_OPERATION_TRANSFER: {
        const __typeof__(Args->Transfer) *t = &Args->Transfer;
        EXCPU_SIDE src = {t->Source.SegmentId, t->Source.SegmentAddress, t->Source.pMdl};
        EXCPU_SIDE dst = {t->Destination.SegmentId, t->Destination.SegmentAddress, t->Destination.pMdl};
        return ExCpuTransfer(Args, t->TransferSize, &src, &dst, t->Flags, t->TransferOffset, t->MdlOffset);
    }
    case DXGK_OPERATION_SPECIAL_LOCK_TRANSFER: { /* no MdlOffset: an MDL side starts at page 0 */
        const __typeof__(Args->SpecialLockTransfer) *t = &Args->SpecialLockTransfer;
        EXCPU_SIDE src = {t->Source.SegmentId, t->Source.SegmentAddress, t->Source.pMdl};
        EXCPU_SIDE dst = {t->Destination.SegmentId, t->Destination.SegmentAddress, t->Destination.pMdl};
        return ExCpuTransfer(Args, t->TransferSize, &src, &dst, t->Flags, t->TransferOffset, 0);
    }
    case DXGK_OPERATION_DISCARD_CONTENT:
#ifndef EXCPU_BUG_IGNORE_IDLE
        if (!Args->DiscardContent.Flags.AllocationIsIdle)
            return STATUS_GRAPHICS_ALLOCATION_BUSY;
#endif
        return STATUS_SUCCESS; /* nothing cached to drop */
    case DXGK_OPERATION_FILL:
        return ExCpuFill(Args);
    case DXGK_OPERATION_READ_PHYSICAL:
        return ExCpuPhysical(Args, FALSE);
    case DXGK_OPERATION_WRITE_PHYSICAL:
        return ExCpuPhysical(Args, TRUE);
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT:
        return ExCpuMapAperture(adapter, Args);
    case DXGK_OPERATION_UNMAP_APERTURE_SEGMENT:
        return ExCpuUnmapAperture(adapter, Args);
    default:
        return STATUS_SUCCESS; /* not declared in supported_operations */
    }
}

static NTSTATUS APIENTRY ExCpuPatch(IN_CONST_HANDLE hAdapter, const DXGKARG_PATCH *Args)
{
    UNREFERENCED_PARAMETER(hAdapter);
    UNREFERENCED_PARAMETER(Args);
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY ExCpuSubmitCommand(IN_CONST_HANDLE hAdapter, const DXGKARG_SUBMITCOMMAND *Args)
{
    const pbc_host *host = &((const EXCPU_ADAPTER *)hAdapter)->Host;
    host->ring_submit(host->ctx, Args->DmaBufferSegmentId, (uint64_t)Args->DmaBufferPhysicalAddress.QuadPart,
                      Args->DmaBufferSubmissionStartOffset, Args->DmaBufferSubmissionEndOffset);
    host->ring_fence(host->ctx, Args->SubmissionFenceId);
    return STATUS_SUCCESS;
}

/* The name reports give this builder: pbcheck_add_target(NAME ...) sets
 * PBC_TARGET_NAME to NAME, so a copy of this template is renamed there. */
#ifndef PBC_TARGET_NAME
#define PBC_TARGET_NAME "example-cpu"
#endif

static const pbc_target ExCpuTarget = {
    .abi_version = PBC_TARGET_ABI_VERSION,
    .struct_size = sizeof(pbc_target),
#ifdef EXCPU_BUG_IGNORE_IDLE
    .name = "example-cpu-bug-ignore-idle",
    .summary = "ExCpu with a planted bug: CPU copies ignore AllocationIsIdle (PB-IDLE-HAZARD)",
#else
    .name = PBC_TARGET_NAME,
    .summary = "example vendor builder: CPU copies at build time when idle, GART by 32-bit register stores",
#endif
    .isa = &excpu_isa,
    .min_dma_size = EXCPU_MAX_PACKET_BYTES,
    .private_data_size = 0,
    .supported_operations = PBC_OP_BIT(DXGK_OPERATION_TRANSFER) | PBC_OP_BIT(DXGK_OPERATION_FILL) |
                            PBC_OP_BIT(DXGK_OPERATION_DISCARD_CONTENT) |
                            PBC_OP_BIT(DXGK_OPERATION_READ_PHYSICAL) |
                            PBC_OP_BIT(DXGK_OPERATION_WRITE_PHYSICAL) |
                            PBC_OP_BIT(DXGK_OPERATION_MAP_APERTURE_SEGMENT) |
                            PBC_OP_BIT(DXGK_OPERATION_UNMAP_APERTURE_SEGMENT) |
                            PBC_OP_BIT(DXGK_OPERATION_SPECIAL_LOCK_TRANSFER),
    .create_adapter = ExCpuCreateAdapter,
    .destroy_adapter = ExCpuDestroyAdapter,
    .create_allocation = ExCpuCreateAllocation,
    .destroy_allocation = ExCpuDestroyAllocation,
    .build_paging_buffer = ExCpuBuildPagingBuffer,
    .patch = ExCpuPatch,
    .submit_command = ExCpuSubmitCommand,
    .adapter = NULL,
    .gart_view = ExCpuGartView,
};

__attribute__((visibility("default"))) const pbc_target *pbc_target_get(void) { return &ExCpuTarget; }
