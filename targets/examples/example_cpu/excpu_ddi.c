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
 *  - WDDM 2.x (GPU virtual addresses): page tables written by CPU stores
 *    through views the driver keeps, in the queue's order (CPU work at a
 *    marker), the views following the tables when VidMm moves them; the
 *    paging fence by the CPU in its turn too; virtual transfers, fills and
 *    TLB flushes as packets. See "WDDM 2.x" below.
 *
 * Planted bugs (one -D each):
 *  EXCPU_BUG_IGNORE_IDLE       evictions are copied with the CPU whether or
 *      not the allocation is idle (PB-IDLE-HAZARD).
 *  EXCPU_BUG_STALE_TABLE_VIEW  when VidMm moves a page table (copies its
 *      entries into a new table and re-points the directory entry), the
 *      driver keeps the view of the old copy for the table's new address:
 *      later updates land in the old copy, which no directory points at
 *      (PB-PTE).
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

/* ---- WDDM 2.x: GPU virtual addresses ----
 *
 * The page tables are in system memory, in DXGK_PTE format. The CPU
 * writes them, through a view of each table (MmMapIoSpace of its
 * physical address) that the driver keeps, but not at build time: an
 * update takes effect in its turn in the paging queue (the GPU may still
 * have to run packets built before it through the old entries: VidMm
 * unmaps its transfer windows right after a TransferVirtual), so
 * BuildPagingBuffer keeps the update as a work item, writes a CPUWORK
 * marker where it belongs, and SubmitCommand rings the buffer up to each
 * marker and queues the item as CPU work (host->queue_cpu_work), which
 * runs when the GPU gets there. CopyPageTableEntries is such an item too:
 * its tables are named by their addresses in VidMm's tables window, which
 * the item translates by walking the tables with the CPU; and so is
 * SignalMonitoredFence, whose 64 bits the CPU stores at the address the
 * tables give the fence (it must not show before the work before it has
 * run). Only the root's first update, which VidMm makes immediately
 * through its own mapping (CPU_VIRTUAL, no paging buffer), is written at
 * build time.
 *
 * The views follow the tables: when VidMm points a directory entry at
 * another table (it moved the table: CopyPageTableEntries into a new one,
 * then the entry re-pointed), the old table's view is dropped, and the
 * table now in that slot is the one updates reach.
 *
 * Everything else goes to the GPU as packets, in order: TransferVirtual
 * and FillVirtual as VBLIT/VSOLID, FlushTlb as TLBINV. MapApertureSegment2
 * programs the GART as MapApertureSegment does. The notifications need no
 * work.
 */

#define EXCPU_TABLE_ENTRIES 512u
#define EXCPU_TABLE_BYTES (EXCPU_TABLE_ENTRIES * sizeof(DXGK_PTE))
#define EXCPU_ROOT_LEVEL 2u /* three levels of tables: the model GPU's default */

/* A page table the driver has a CPU view of. */
typedef struct _EXCPU_TABLE {
    ULONGLONG Phys;      /* where the table is */
    PUCHAR View;         /* MmMapIoSpace of EXCPU_TABLE_BYTES there */
    ULONGLONG Directory; /* the directory whose entry points at it (0: none yet) */
    UINT DirectoryIndex;
    ULONGLONG LastUse;
} EXCPU_TABLE;

/* Work the CPU does in the queue's order. */
typedef struct _EXCPU_WORK {
    struct _EXCPU_ADAPTER *Adapter;
    PUCHAR BufferCpu;     /* the paging buffer holding its marker, as the CPU sees it */
    ULONGLONG BufferPhys; /* and as VidMm submits it (learned at Patch) */
    UINT MarkerEnd;
    BOOLEAN Queued;
    DXGK_BUILDPAGINGBUFFER_OPERATION Operation; /* UPDATE_PAGE_TABLE, COPY_PAGE_TABLE_ENTRIES or
                                                   SIGNAL_MONITORED_FENCE */
    ULONGLONG Table; /* the table, or the fence's GPU virtual address */
    ULONGLONG Value; /* the fence value */
    UINT Level, Start, Count;
    DXGK_UPDATEPAGETABLEFLAGS Flags;
    union { /* copied at build time: VidMm's arrays live for the call only */
        DXGK_PTE Entry[1];
        DXGK_BUILDPAGINGBUFFER_COPY_RANGE Range[1];
    };
} EXCPU_WORK;

#define EXCPU_MAX_TABLE_VIEWS 32u /* the least recently used view goes beyond this */
#define EXCPU_MAX_SEGMENT_IDS 32u

typedef struct _EXCPU_ADAPTER {
    pbc_host Host;
    ULONGLONG SegmentBase[EXCPU_MAX_SEGMENT_IDS];
    ULONGLONG Root; /* the root page table's physical address */
    ULONGLONG Clock;
    ULONG TableCount;
    EXCPU_TABLE Table[EXCPU_MAX_TABLE_VIEWS];
    ULONG WorkCount, WorkCapacity, FirstUnqueued;
    EXCPU_WORK **Work; /* every work item, in build order */
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
        if (seg->SegmentId < EXCPU_MAX_SEGMENT_IDS)
            adapter->SegmentBase[seg->SegmentId] = seg->base;
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

static void ExCpuReleaseTables(EXCPU_ADAPTER *Adapter);

static void ExCpuDestroyAdapter(HANDLE hAdapter)
{
    EXCPU_ADAPTER *adapter = hAdapter;
    ExCpuReleaseTables(adapter);
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

/* ---- WDDM 2.x: page tables by CPU stores through kept views ---- */

#define EXCPU_WORK_TAG 0x6B577843u /* 'CxWk' in memory */

static void ExCpuDropTable(EXCPU_ADAPTER *Adapter, ULONG Index)
{
    MmUnmapIoSpace(Adapter->Table[Index].View, EXCPU_TABLE_BYTES);
    Adapter->Table[Index] = Adapter->Table[--Adapter->TableCount];
}

static EXCPU_TABLE *ExCpuFindTable(EXCPU_ADAPTER *Adapter, ULONGLONG Phys)
{
    for (ULONG i = 0; i < Adapter->TableCount; i++)
        if (Adapter->Table[i].Phys == Phys)
            return &Adapter->Table[i];
    return NULL;
}

/* The CPU view of the table at Phys: the one kept, or a new one (the
 * least recently used view making room). NULL if it cannot be mapped. */
static DXGK_PTE *ExCpuTableView(EXCPU_ADAPTER *Adapter, ULONGLONG Phys)
{
    EXCPU_TABLE *t = ExCpuFindTable(Adapter, Phys);
    if (!t) {
        if (Adapter->TableCount == EXCPU_MAX_TABLE_VIEWS) {
            ULONG oldest = 0;
            for (ULONG i = 1; i < Adapter->TableCount; i++)
                if (Adapter->Table[i].LastUse < Adapter->Table[oldest].LastUse)
                    oldest = i;
            ExCpuDropTable(Adapter, oldest);
        }
        PHYSICAL_ADDRESS pa;
        pa.QuadPart = (LONGLONG)Phys;
        PUCHAR view = MmMapIoSpace(pa, EXCPU_TABLE_BYTES, MmCached);
        if (!view)
            return NULL;
        t = &Adapter->Table[Adapter->TableCount++];
        RtlZeroMemory(t, sizeof(*t));
        t->Phys = Phys;
        t->View = view;
    }
    t->LastUse = ++Adapter->Clock;
    return (DXGK_PTE *)t->View;
}

static void ExCpuReleaseTables(EXCPU_ADAPTER *Adapter)
{
    while (Adapter->TableCount)
        ExCpuDropTable(Adapter, Adapter->TableCount - 1);
    for (ULONG i = 0; i < Adapter->WorkCount; i++)
        ExFreePoolWithTag(Adapter->Work[i], EXCPU_WORK_TAG);
    if (Adapter->Work)
        ExFreePoolWithTag(Adapter->Work, EXCPU_WORK_TAG);
}

/* Entry Index of directory Directory now points at the table at Child.
 * When another table was there, VidMm moved that table (copied its
 * entries to Child) or replaced it: its view goes, and the view of Child
 * is the one updates of that part of the address space reach. */
static void ExCpuFollowTable(EXCPU_ADAPTER *Adapter, ULONGLONG Directory, UINT Index, ULONGLONG Child)
{
    for (ULONG i = 0; i < Adapter->TableCount; i++) {
        EXCPU_TABLE *was = &Adapter->Table[i];
        if (was->Directory != Directory || was->DirectoryIndex != Index || was->Phys == Child)
            continue;
#ifdef EXCPU_BUG_STALE_TABLE_VIEW
        /* Planted bug: "the table moved", so its record takes the new
         * address and keeps its view, which still shows the old copy (the
         * new table's own view goes, as a duplicate). */
        EXCPU_TABLE *duplicate = ExCpuFindTable(Adapter, Child);
        if (duplicate) {
            ULONG d = (ULONG)(duplicate - Adapter->Table);
            ExCpuDropTable(Adapter, d);
            if (i == Adapter->TableCount) /* it was the last: now at d */
                i = d;
        }
        Adapter->Table[i].Phys = Child;
        return;
#else
        ExCpuDropTable(Adapter, i);
        break;
#endif
    }
    EXCPU_TABLE *now = ExCpuFindTable(Adapter, Child);
    if (now) {
        now->Directory = Directory;
        now->DirectoryIndex = Index;
    }
}

/* The physical address behind GPU virtual address Va, walking the tables
 * from the root with the CPU (4 KiB pages: VidMm's tables window); 0 if
 * it is not mapped. */
static ULONGLONG ExCpuTranslate(EXCPU_ADAPTER *Adapter, ULONGLONG Va)
{
    ULONGLONG table = Adapter->Root;
    for (int level = EXCPU_ROOT_LEVEL; level >= 0; level--) {
        DXGK_PTE *view = table ? ExCpuTableView(Adapter, table) : NULL;
        if (!view)
            return 0;
        DXGK_PTE e = view[(Va >> (PAGE_SHIFT + 9 * level)) & (EXCPU_TABLE_ENTRIES - 1)];
        if (!e.Valid || e.Zero || (level > 0 && e.LargePage))
            return 0;
        table = e.PageAddress << PAGE_SHIFT;
    }
    return table | (Va & (PAGE_SIZE - 1));
}

/* An UpdatePageTable in its turn: CPU stores through the table's view. */
static void ExCpuUpdateTable(EXCPU_ADAPTER *Adapter, const EXCPU_WORK *W)
{
    DXGK_PTE *table = ExCpuTableView(Adapter, W->Table);
    NT_ASSERT(table && W->Start + W->Count <= EXCPU_TABLE_ENTRIES);
    if (!table || W->Start + W->Count > EXCPU_TABLE_ENTRIES)
        return;
    for (UINT i = 0; i < W->Count; i++) {
        DXGK_PTE e = W->Entry[W->Flags.Repeat ? 0 : i];
        if (W->Level == 1 && W->Flags.Use64KBPages)
            e.PageTablePageSize = DXGK_PTE_PAGE_TABLE_PAGE_64KB;
        table[W->Start + i] = e;
        if (W->Level > 0 && e.Valid && !e.Zero && !e.LargePage && !W->Flags.Repeat)
            ExCpuFollowTable(Adapter, W->Table, W->Start + i, e.PageTableAddress << PAGE_SHIFT);
    }
}

/* A CopyPageTableEntries in its turn: both tables found by walking
 * VidMm's tables window, the entries copied with the CPU. */
static void ExCpuCopyEntries(EXCPU_ADAPTER *Adapter, const EXCPU_WORK *W)
{
    for (UINT i = 0; i < W->Count; i++) {
        const DXGK_BUILDPAGINGBUFFER_COPY_RANGE *r = &W->Range[i];
        ULONGLONG src = ExCpuTranslate(Adapter, r->SrcPageTableAddress);
        ULONGLONG dst = ExCpuTranslate(Adapter, r->DstPageTableAddress);
        DXGK_PTE *from = src ? ExCpuTableView(Adapter, src) : NULL;
        DXGK_PTE *to = dst ? ExCpuTableView(Adapter, dst) : NULL;
        NT_ASSERT(from && to && r->SrcStartPteIndex + r->NumPageTableEntries <= EXCPU_TABLE_ENTRIES &&
                  r->DstStartPteIndex + r->NumPageTableEntries <= EXCPU_TABLE_ENTRIES);
        if (from && to && r->SrcStartPteIndex + r->NumPageTableEntries <= EXCPU_TABLE_ENTRIES &&
            r->DstStartPteIndex + r->NumPageTableEntries <= EXCPU_TABLE_ENTRIES)
            RtlMoveMemory(to + r->DstStartPteIndex, from + r->SrcStartPteIndex,
                          (SIZE_T)r->NumPageTableEntries * sizeof(DXGK_PTE));
    }
}

/* A SignalMonitoredFence in its turn: all 64 bits, at the physical
 * address the tables give the fence's GPU virtual address. */
static void ExCpuWriteFence(EXCPU_ADAPTER *Adapter, const EXCPU_WORK *W)
{
    ULONGLONG at = ExCpuTranslate(Adapter, W->Table);
    PHYSICAL_ADDRESS pa;
    pa.QuadPart = (LONGLONG)at;
    UINT64 *fence = at ? MmMapIoSpace(pa, sizeof(*fence), MmNonCached) : NULL;
    NT_ASSERT(fence); /* VidMm's fence page is always mapped */
    if (!fence)
        return;
    *fence = W->Value;
    MmUnmapIoSpace(fence, sizeof(*fence));
}

/* Runs on the paging engine (host->queue_cpu_work) when the GPU reaches
 * the item's marker. */
static void ExCpuDoWork(void *Context)
{
    EXCPU_WORK *w = Context;
    if (w->Operation == DXGK_OPERATION_UPDATE_PAGE_TABLE)
        ExCpuUpdateTable(w->Adapter, w);
    else if (w->Operation == DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES)
        ExCpuCopyEntries(w->Adapter, w);
    else
        ExCpuWriteFence(w->Adapter, w);
}

/* Keeps a work item of `Items` entries or ranges and writes its marker;
 * NULL (nothing written) when the buffer or memory is short. */
static EXCPU_WORK *ExCpuNewWork(EXCPU_ADAPTER *Adapter, DXGKARG_BUILDPAGINGBUFFER *Args, SIZE_T ItemSize,
                                UINT Items, NTSTATUS *Status)
{
    *Status = STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    if (Args->DmaSize < EXCPU_LEN_CPU_WORK * 4)
        return NULL;
    *Status = STATUS_NO_MEMORY;
    if (Adapter->WorkCount == Adapter->WorkCapacity) {
        ULONG capacity = Adapter->WorkCapacity ? Adapter->WorkCapacity * 2 : 256;
        EXCPU_WORK **grown = ExAllocatePool2(POOL_FLAG_NON_PAGED, capacity * sizeof(*grown), EXCPU_WORK_TAG);
        if (!grown)
            return NULL;
        if (Adapter->Work) {
            RtlCopyMemory(grown, Adapter->Work, Adapter->WorkCount * sizeof(*grown));
            ExFreePoolWithTag(Adapter->Work, EXCPU_WORK_TAG);
        }
        Adapter->Work = grown;
        Adapter->WorkCapacity = capacity;
    }
    EXCPU_WORK *w = ExAllocatePool2(POOL_FLAG_NON_PAGED, sizeof(EXCPU_WORK) + Items * ItemSize, EXCPU_WORK_TAG);
    if (!w)
        return NULL;
    PUCHAR cur = Args->pDmaBuffer;
    w->Adapter = Adapter;
    w->Operation = Args->Operation;
    w->BufferCpu = cur - Args->DmaBufferWriteOffset;
    w->BufferPhys = (ULONGLONG)MmGetPhysicalAddress(w->BufferCpu).QuadPart;
    w->MarkerEnd = Args->DmaBufferWriteOffset + EXCPU_LEN_CPU_WORK * 4;
    excpu_wr32(cur, (ULONG)EXCPU_OP_CPU_WORK << 24 | EXCPU_LEN_CPU_WORK);
    excpu_wr32(cur + 4, Adapter->WorkCount);
    Args->pDmaBuffer = cur + EXCPU_LEN_CPU_WORK * 4;
    Adapter->Work[Adapter->WorkCount++] = w;
    *Status = STATUS_SUCCESS;
    return w;
}

static NTSTATUS ExCpuUpdatePageTable(EXCPU_ADAPTER *Adapter, DXGKARG_BUILDPAGINGBUFFER *Args)
{
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &Args->UpdatePageTable;
    UINT entries = u->Flags.Repeat ? 1 : u->NumPageTableEntries;
    if (u->UpdateMode == DXGK_PAGETABLEUPDATE_CPU_VIRTUAL) {
        /* Immediate (no paging buffer), through VidMm's own mapping, which
         * lives for this call only: write now, keep nothing of it but
         * where the root is. */
        DXGK_PTE *table = u->PageTableAddress.CpuVirtual;
        if (u->PageTableLevel == EXCPU_ROOT_LEVEL && !Adapter->Root)
            Adapter->Root = (ULONGLONG)MmGetPhysicalAddress(table).QuadPart;
        for (UINT i = 0; i < u->NumPageTableEntries; i++) {
            DXGK_PTE e = u->pPageTableEntries[u->Flags.Repeat ? 0 : i];
            if (u->PageTableLevel == 1 && u->Flags.Use64KBPages)
                e.PageTablePageSize = DXGK_PTE_PAGE_TABLE_PAGE_64KB;
            table[u->StartIndex + i] = e;
        }
        return STATUS_SUCCESS;
    }
    NTSTATUS status;
    EXCPU_WORK *w = ExCpuNewWork(Adapter, Args, sizeof(DXGK_PTE), entries, &status);
    if (!w)
        return status;
    UINT segment = u->PageTableAddress.GpuPhysical.SegmentId; /* 0: system memory, the offset is the address */
    w->Table = u->PageTableAddress.GpuPhysical.SegmentOffset +
               (segment && segment < EXCPU_MAX_SEGMENT_IDS ? Adapter->SegmentBase[segment] : 0);
    w->Level = u->PageTableLevel;
    w->Start = u->StartIndex;
    w->Count = u->NumPageTableEntries;
    w->Flags = u->Flags;
    RtlCopyMemory(w->Entry, u->pPageTableEntries, entries * sizeof(DXGK_PTE));
    return STATUS_SUCCESS;
}

static NTSTATUS ExCpuCopyPageTableEntries(EXCPU_ADAPTER *Adapter, DXGKARG_BUILDPAGINGBUFFER *Args)
{
    const DXGK_BUILDPAGINGBUFFER_COPYPAGETABLEENTRIES *c = &Args->CopyPageTableEntries;
    NTSTATUS status;
    EXCPU_WORK *w = ExCpuNewWork(Adapter, Args, sizeof(DXGK_BUILDPAGINGBUFFER_COPY_RANGE), c->NumRanges, &status);
    if (!w)
        return status;
    w->Count = c->NumRanges;
    RtlCopyMemory(w->Range, c->pRanges, c->NumRanges * sizeof(DXGK_BUILDPAGINGBUFFER_COPY_RANGE));
    return STATUS_SUCCESS;
}

/* The paging fence, by the CPU in its turn: it must not show before the
 * work before it has run. */
static NTSTATUS ExCpuSignalFence(EXCPU_ADAPTER *Adapter, DXGKARG_BUILDPAGINGBUFFER *Args)
{
    NTSTATUS status;
    EXCPU_WORK *w = ExCpuNewWork(Adapter, Args, 0, 0, &status);
    if (!w)
        return status;
    w->Table = Args->SignalMonitoredFence.MonitoredFenceGpuVa;
    w->Value = Args->SignalMonitoredFence.MonitoredFenceValue;
    return STATUS_SUCCESS;
}

/* ---- WDDM 2.x: the GPU's part ---- */

/* VBLIT or VSOLID packets, a page of work each (Source 0: a fill). */
static NTSTATUS ExCpuVirtualPackets(DXGKARG_BUILDPAGINGBUFFER *Args, ULONGLONG Destination, ULONGLONG Source,
                                    ULONGLONG Size, ULONG Pattern)
{
    ULONG len = Source ? EXCPU_LEN_BLIT : EXCPU_LEN_SOLID;
    PUCHAR cur = Args->pDmaBuffer, end = cur + Args->DmaSize;
    ULONG total = (ULONG)((Size + EXCPU_CHUNK - 1) / EXCPU_CHUNK);
    ULONG i = Args->MultipassOffset;
    for (; i < total && (SIZE_T)(end - cur) >= len * 4; i++, cur += len * 4) {
        ULONGLONG off = (ULONGLONG)i * EXCPU_CHUNK;
        excpu_wr32(cur, (ULONG)(Source ? EXCPU_OP_VBLIT : EXCPU_OP_VSOLID) << 24 | len);
        excpu_wr32(cur + 4, (ULONG)(Destination + off));
        excpu_wr32(cur + 8, (ULONG)((Destination + off) >> 32));
        if (Source) {
            excpu_wr32(cur + 12, (ULONG)(Source + off));
            excpu_wr32(cur + 16, (ULONG)((Source + off) >> 32));
            excpu_wr32(cur + 20, ExCpuChunk(Size, i));
        } else {
            excpu_wr32(cur + 12, ExCpuChunk(Size, i));
            excpu_wr32(cur + 16, Pattern);
        }
    }
    Args->pDmaBuffer = cur;
    Args->MultipassOffset = i;
    return i == total ? STATUS_SUCCESS : STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
}

/* Start = End = 0 flushes the whole address space; else [Start, End). */
static NTSTATUS ExCpuFlushTlb(EXCPU_ADAPTER *Adapter, DXGKARG_BUILDPAGINGBUFFER *Args)
{
    const DXGK_BUILDPAGINGBUFFER_FLUSHTLB *f = &Args->FlushTlb;
    PUCHAR cur = Args->pDmaBuffer;
    if (Args->DmaSize < EXCPU_LEN_TLB_INVALIDATE * 4)
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    UINT segment = f->RootPageTableAddress.SegmentId;
    ULONGLONG root = f->RootPageTableAddress.SegmentOffset +
                     (segment && segment < EXCPU_MAX_SEGMENT_IDS ? Adapter->SegmentBase[segment] : 0);
    ULONGLONG size = f->EndVirtualAddress > f->StartVirtualAddress ? f->EndVirtualAddress - f->StartVirtualAddress : 0;
    ULONGLONG start = size ? f->StartVirtualAddress : 0;
    excpu_wr32(cur, (ULONG)EXCPU_OP_TLB_INVALIDATE << 24 | EXCPU_LEN_TLB_INVALIDATE);
    excpu_wr32(cur + 4, (ULONG)root);
    excpu_wr32(cur + 8, (ULONG)(root >> 32));
    excpu_wr32(cur + 12, (ULONG)start);
    excpu_wr32(cur + 16, (ULONG)(start >> 32));
    excpu_wr32(cur + 20, (ULONG)size);
    excpu_wr32(cur + 24, (ULONG)(size >> 32));
    Args->pDmaBuffer = cur + EXCPU_LEN_TLB_INVALIDATE * 4;
    return STATUS_SUCCESS;
}

/* Page AdlOffset + i of the ADL: BasePageNumber + that when contiguous,
 * else the page array's entry (S35). */
static NTSTATUS ExCpuMapAperture2(EXCPU_ADAPTER *Adapter, DXGKARG_BUILDPAGINGBUFFER *Args)
{
    const __typeof__(Args->MapApertureSegment2) *m = &Args->MapApertureSegment2;
    ULONG flags = EXCPU_PTE_VALID | (m->Flags.CacheCoherent ? EXCPU_PTE_SNOOP : 0);
    if (m->Adl.Flags.Contiguous) {
        NTSTATUS status = STATUS_SUCCESS;
        for (SIZE_T i = 0; i < m->NumberOfPages && NT_SUCCESS(status); i++)
            status = ExCpuProgramGart(Adapter, m->SegmentId, m->OffsetInPages + i, 1, NULL,
                                      m->Adl.BasePageNumber + m->AdlOffset + i, flags);
        return status;
    }
    return ExCpuProgramGart(Adapter, m->SegmentId, m->OffsetInPages, m->NumberOfPages, m->Adl.Pages + m->AdlOffset,
                            0, flags);
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
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT2:
        return ExCpuMapAperture2(adapter, Args);
    case DXGK_OPERATION_UPDATE_PAGE_TABLE:
        return ExCpuUpdatePageTable(adapter, Args);
    case DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES:
        return ExCpuCopyPageTableEntries(adapter, Args);
    case DXGK_OPERATION_FLUSH_TLB:
        return ExCpuFlushTlb(adapter, Args);
    case DXGK_OPERATION_VIRTUAL_TRANSFER: /* the addresses already point at the bytes */
        return ExCpuVirtualPackets(Args, Args->TransferVirtual.DestinationVirtualAddress,
                                   Args->TransferVirtual.SourceVirtualAddress,
                                   Args->TransferVirtual.TransferSizeInBytes, 0);
    case DXGK_OPERATION_VIRTUAL_FILL:
        return ExCpuVirtualPackets(Args, Args->FillVirtual.DestinationVirtualAddress, 0,
                                   Args->FillVirtual.FillSizeInBytes, Args->FillVirtual.FillPattern);
    case DXGK_OPERATION_SIGNAL_MONITORED_FENCE:
        return ExCpuSignalFence(adapter, Args);
    case DXGK_OPERATION_NOTIFY_FENCE_RESIDENCY:
    case DXGK_OPERATION_MAP_MMU:
    case DXGK_OPERATION_UNMAP_MMU:
    case DXGK_OPERATION_NOTIFY_RESIDENCY2:
    case DXGK_OPERATION_NOTIFY_ALLOC:
    case DXGK_OPERATION_NOTIFY_RESIDENCY:
        return STATUS_SUCCESS; /* nothing this driver keeps */
    default:
        return STATUS_SUCCESS; /* not declared in supported_operations */
    }
}

/* Where VidMm submits a buffer can differ from where its CPU view lies:
 * a paging buffer in a memory segment is submitted at the segment's
 * address (S40). Patch names both, so each work item of the range learns
 * the address SubmitCommand will name. */
static NTSTATUS APIENTRY ExCpuPatch(IN_CONST_HANDLE hAdapter, const DXGKARG_PATCH *Args)
{
    EXCPU_ADAPTER *adapter = (EXCPU_ADAPTER *)hAdapter;
    for (ULONG i = adapter->FirstUnqueued; i < adapter->WorkCount; i++) {
        EXCPU_WORK *w = adapter->Work[i];
        if (!w->Queued && w->BufferCpu == (PUCHAR)Args->pDmaBuffer &&
            w->MarkerEnd > Args->DmaBufferSubmissionStartOffset && w->MarkerEnd <= Args->DmaBufferSubmissionEndOffset)
            w->BufferPhys = (ULONGLONG)Args->DmaBufferPhysicalAddress.QuadPart;
    }
    return STATUS_SUCCESS;
}

/* Rings the submission up to each CPUWORK marker in it and queues that
 * item's work there, so it runs after the packets before the marker and
 * before those after it; then the rest, then the fence. */
static NTSTATUS APIENTRY ExCpuSubmitCommand(IN_CONST_HANDLE hAdapter, const DXGKARG_SUBMITCOMMAND *Args)
{
    EXCPU_ADAPTER *adapter = (EXCPU_ADAPTER *)hAdapter;
    const pbc_host *host = &adapter->Host;
    ULONGLONG phys = (ULONGLONG)Args->DmaBufferPhysicalAddress.QuadPart;
    UINT at = Args->DmaBufferSubmissionStartOffset, end = Args->DmaBufferSubmissionEndOffset;
    BOOLEAN rung = FALSE;
    for (ULONG i = adapter->FirstUnqueued; i < adapter->WorkCount; i++) {
        EXCPU_WORK *w = adapter->Work[i];
        if (w->Queued || w->BufferPhys != phys || w->MarkerEnd <= at || w->MarkerEnd > end)
            continue;
        host->ring_submit(host->ctx, Args->DmaBufferSegmentId, phys, at, w->MarkerEnd);
        host->queue_cpu_work(host->ctx, ExCpuDoWork, w);
        w->Queued = TRUE;
        at = w->MarkerEnd;
        rung = TRUE;
    }
    while (adapter->FirstUnqueued < adapter->WorkCount && adapter->Work[adapter->FirstUnqueued]->Queued)
        adapter->FirstUnqueued++;
    if (at < end || !rung)
        host->ring_submit(host->ctx, Args->DmaBufferSegmentId, phys, at, end);
    host->ring_fence(host->ctx, Args->SubmissionFenceId);
    return STATUS_SUCCESS;
}

/* The name reports give this builder: pbcheck_add_target(NAME ...) sets
 * PBC_TARGET_NAME to NAME, so a copy of this template is renamed there. */
#ifndef PBC_TARGET_NAME
#define PBC_TARGET_NAME "example-cpu"
#endif

/* The planted bug's name; linked into pbcheck as a built-in planted bug
 * (targets/mutants/cpu_stale_table_view.c), it is a mutant-* name there. */
#ifndef EXCPU_STALE_VIEW_NAME
#define EXCPU_STALE_VIEW_NAME "example-cpu-bug-stale-table-view"
#endif

#ifdef EXCPU_TARGET_SYMBOL /* linked into pbcheck */
const pbc_target EXCPU_TARGET_SYMBOL = {
#else
static const pbc_target ExCpuTarget = {
#endif
    .abi_version = PBC_TARGET_ABI_VERSION,
    .struct_size = sizeof(pbc_target),
#if defined(EXCPU_BUG_STALE_TABLE_VIEW)
    .name = EXCPU_STALE_VIEW_NAME,
    .summary = "ExCpu with a planted bug: a moved page table's view is kept (PB-PTE)",
#elif defined(EXCPU_BUG_IGNORE_IDLE)
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
                            PBC_OP_BIT(DXGK_OPERATION_SPECIAL_LOCK_TRANSFER) |
                            /* WDDM 2.x */
                            PBC_OP_BIT(DXGK_OPERATION_UPDATE_PAGE_TABLE) | PBC_OP_BIT(DXGK_OPERATION_FLUSH_TLB) |
                            PBC_OP_BIT(DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES) |
                            PBC_OP_BIT(DXGK_OPERATION_VIRTUAL_TRANSFER) | PBC_OP_BIT(DXGK_OPERATION_VIRTUAL_FILL) |
                            PBC_OP_BIT(DXGK_OPERATION_SIGNAL_MONITORED_FENCE) |
                            PBC_OP_BIT(DXGK_OPERATION_MAP_APERTURE_SEGMENT2) |
                            PBC_OP_BIT(DXGK_OPERATION_NOTIFY_FENCE_RESIDENCY) |
                            PBC_OP_BIT(DXGK_OPERATION_MAP_MMU) | PBC_OP_BIT(DXGK_OPERATION_UNMAP_MMU) |
                            PBC_OP_BIT(DXGK_OPERATION_NOTIFY_RESIDENCY2) | PBC_OP_BIT(DXGK_OPERATION_NOTIFY_ALLOC) |
                            PBC_OP_BIT(DXGK_OPERATION_NOTIFY_RESIDENCY),
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

#ifndef EXCPU_TARGET_SYMBOL
__attribute__((visibility("default"))) const pbc_target *pbc_target_get(void) { return &ExCpuTarget; }
#endif
