/*
 * ExWorker: an example third-party paging-buffer builder in the
 * "record and worker" style, written as a vendor's KMD source would be,
 * and the template to copy for a driver whose paging work is done by a
 * kernel worker thread rather than by the GPU.
 *
 * Style:
 *  - BuildPagingBuffer does no work: it copies its whole
 *    DXGKARG_BUILDPAGINGBUFFER into the paging buffer as one record
 *    (exwk_record.h; with its array after it, below) and appends an entry {adapter, buffer start, record
 *    offset} to the paging buffer's private data. The adapter declares
 *    4 KiB paging buffers, which hold about ten records, so every call
 *    first checks that both the record and its entry fit and otherwise
 *    returns INSUFFICIENT_DMA_BUFFER having written nothing.
 *  - SubmitCommand hands each record of the submission (its private-data
 *    entries, [PrivateDataSubmissionStart, End)) to the GPU's queue, its
 *    bytes rung (a NOP) and its work queued after them with
 *    host->queue_cpu_work, then queues the fence: the work runs in GPU
 *    queue order, as a worker woken by SubmitCommand would.
 *  - The worker reads the record at execution time (the MDL pointers in
 *    it are alive until then) and does the copies and fills with the CPU,
 *    through MmGetSystemAddressForMdlSafe (+ MdlOffset pages) and a
 *    permanent CPU view of each memory segment, mapped whole with
 *    MmMapIoSpace when the adapter starts (segment address +
 *    TransferOffset).
 *  - Aperture mappings are a software page table in the adapter (this GPU
 *    walks it in system memory); ExWkGartView reads it.
 *  - ReadPhysical and WritePhysical are done by the worker too, through
 *    MmMapIoSpace.
 *  - WDDM 2.x (GPU virtual addresses): the worker does the work, with the
 *    CPU. UpdatePageTable stores the entries through a view of the table
 *    (MmMapIoSpace of its physical address); TransferVirtual, FillVirtual,
 *    SignalMonitoredFence and CopyPageTableEntries (whose tables VidMm
 *    names by their addresses in its tables window) translate their GPU
 *    virtual addresses by walking the GPU's page tables with the CPU, from
 *    the root (whose address the immediate first update of the root gives:
 *    MmGetPhysicalAddress of VidMm's mapping), a run of pages at a time.
 *    VidMm's arrays (UpdatePageTable's entries, CopyPageTableEntries'
 *    ranges, MapApertureSegment2's page array) live for the call only:
 *    they are copied into the record at build time, after the arguments,
 *    as many items as fit in the paging buffer, the rest in the next one
 *    (MultipassOffset). FlushTlb is the one record the GPU acts on: the
 *    decoder hands the MMU the flush, in its turn among the worker's work.
 *  - Built with EXWK_DRAIN (variant-drain-worker, targets/variants/
 *    drain_worker.c), SubmitCommand appends the submission's records to
 *    the adapter's queue and wakes the worker once; a wake-up runs every
 *    record queued so far, its own submission's and any handed over
 *    since, as a worker thread that empties its queue does. Legal because
 *    Windows calls SubmitCommand for a paging buffer only once the work
 *    it must follow is done (docs/rules.md, "When SubmitCommand comes").
 *    It declares the WDDM 1.x operations only: with the GPU-virtual ones,
 *    a wake-up would run a later submission's SignalMonitoredFence before
 *    a FlushTlb record queued before it reached the GPU (PB-PAGING-FENCE).
 *
 * Planted bugs (one -D each):
 *  EXWK_BUG_IGNORE_TRANSFER_OFFSET  the worker maps segment sides at
 *      SegmentAddress, forgetting TransferOffset (S13, PB-DIVERGE on split
 *      transfers).
 *  EXWK_BUG_REUSED_RECORD           UpdatePageTable is recorded as it is
 *      handed, like the 1.x operations, and the worker reads the entries
 *      through pPageTableEntries when it runs, after VidMm has reused that
 *      array (PB-PTE: the tables hold what VidMm left there since).
 *  EXWK_BUG_UNMAP_INVALID           unmap writes the dummy page into the
 *      entries but leaves their valid bit clear (S33, PB-UNMAP-DUMMY: "the
 *      right page, with its valid bit clear").
 *  EXWK_BUG_SMALL_PAGE_TABLE        the page table has 32 entries, copied
 *      from a board with a 128 KiB aperture; entries beyond it are
 *      dropped, so pages mapped there stay invalid (PB-DIVERGE when they
 *      stay mapped, PB-UNMAP-DUMMY when unmapped, PB-GPU-FAULT when the
 *      GPU reads through them).
 */
#include <stddef.h>
#include <stdlib.h>

#include <pbcheck/target.h>
#include <pbcheck/wdk/dispmprt.h>

#include "exwk_record.h"

#define EXWK_PAGING_BUFFER_SIZE 4096u
#define EXWK_MAX_ALLOCATIONS 1024u
#define EXWK_MAX_APERTURES 2u
#define EXWK_MAX_SEGMENTS 8u
#ifdef EXWK_BUG_SMALL_PAGE_TABLE
#define EXWK_PT_ENTRIES 32u
#else
#define EXWK_PT_ENTRIES 65536u /* 256 MiB of 4 KiB pages */
#endif

/* WDDM 2.x: the GPU's page tables (DXGK_PTE, three levels) */
#define EXWK_TABLE_ENTRIES 512u
#define EXWK_TABLE_BYTES (EXWK_TABLE_ENTRIES * sizeof(DXGK_PTE))
#define EXWK_ROOT_LEVEL 2u

#define EXWK_PTE_VALID 0x1ull
#define EXWK_PTE_SNOOP 0x2ull

/* One private-data entry per record. */
typedef struct _EXWK_PRIVATE_ENTRY {
    struct _EXWK_ADAPTER *Adapter;
    PUCHAR Buffer; /* the paging buffer's first byte */
    UINT RecordOffset;
    UINT Reserved;
} EXWK_PRIVATE_ENTRY;

/* Room for one entry per record a paging buffer can hold. */
#define EXWK_PRIVATE_DATA_SIZE ((EXWK_PAGING_BUFFER_SIZE / EXWK_RECORD_SIZE) * sizeof(EXWK_PRIVATE_ENTRY))

typedef struct _EXWK_ALLOCATION {
    BOOLEAN InUse;
    ULONGLONG Size;
} EXWK_ALLOCATION;

typedef struct _EXWK_APERTURE {
    UINT SegmentId;
    ULONG Pages;
    ULONGLONG PageTable[EXWK_PT_ENTRIES]; /* page address | EXWK_PTE_* */
} EXWK_APERTURE;

/* A memory segment and the CPU's permanent view of it. */
typedef struct _EXWK_SEGMENT_VIEW {
    UINT Id;
    ULONGLONG Base; /* GPU physical address */
    ULONGLONG Size;
    PUCHAR Cpu;
} EXWK_SEGMENT_VIEW;

#ifdef EXWK_DRAIN
/* Records handed to the worker and not yet run, oldest first. */
#define EXWK_PENDING 65536u
#endif

typedef struct _EXWK_ADAPTER {
    pbc_host Host;
    ULONGLONG Root; /* the root page table's physical address (WDDM 2.x) */
#ifdef EXWK_DRAIN
    ULONG PendingHead, PendingCount;
    const struct _EXWK_PRIVATE_ENTRY *Pending[EXWK_PENDING];
#endif
    ULONG SegmentViewCount;
    EXWK_SEGMENT_VIEW SegmentView[EXWK_MAX_SEGMENTS];
    ULONG ApertureCount;
    EXWK_APERTURE Aperture[EXWK_MAX_APERTURES];
    EXWK_ALLOCATION Allocation[EXWK_MAX_ALLOCATIONS];
} EXWK_ADAPTER;

/* The one place adapter memory comes from: non-paged pool, as a miniport
 * takes it (ExAllocatePool2 zeroes it); the tag names it in a leak report. */
#define EXWK_POOL_TAG 0x41646B57u /* 'WkdA' in memory */
static EXWK_ADAPTER *ExWkAllocateAdapterMemory(void)
{
    return ExAllocatePool2(POOL_FLAG_NON_PAGED, sizeof(EXWK_ADAPTER), EXWK_POOL_TAG);
}
static void ExWkFreeAdapterMemory(EXWK_ADAPTER *Adapter)
{
    for (ULONG i = 0; i < Adapter->SegmentViewCount; i++)
        MmUnmapIoSpace(Adapter->SegmentView[i].Cpu, (SIZE_T)Adapter->SegmentView[i].Size);
    ExFreePoolWithTag(Adapter, EXWK_POOL_TAG);
}

/* Maps a memory segment whole, once, as the driver maps its BAR. */
static NTSTATUS ExWkMapSegment(EXWK_ADAPTER *Adapter, const pbc_segment_info *Segment)
{
    if (Adapter->SegmentViewCount == EXWK_MAX_SEGMENTS)
        return STATUS_NOT_SUPPORTED;
    PHYSICAL_ADDRESS pa;
    pa.QuadPart = (LONGLONG)Segment->base;
    PUCHAR cpu = MmMapIoSpace(pa, (SIZE_T)Segment->size, MmWriteCombined);
    if (!cpu)
        return STATUS_INSUFFICIENT_RESOURCES;
    Adapter->SegmentView[Adapter->SegmentViewCount++] =
        (EXWK_SEGMENT_VIEW){Segment->SegmentId, Segment->base, Segment->size, cpu};
    return STATUS_SUCCESS;
}

/* The CPU address of segment bytes [Address, Address + Size), or NULL. */
static PUCHAR ExWkSegmentCpu(const EXWK_ADAPTER *Adapter, ULONGLONG Address, SIZE_T Size)
{
    for (ULONG i = 0; i < Adapter->SegmentViewCount; i++) {
        const EXWK_SEGMENT_VIEW *v = &Adapter->SegmentView[i];
        if (Address >= v->Base && Address - v->Base < v->Size && Size <= v->Size - (Address - v->Base))
            return v->Cpu + (Address - v->Base);
    }
    return NULL;
}

static NTSTATUS ExWkCreateAdapter(const pbc_adapter_info *Info, HANDLE *phAdapter)
{
    EXWK_ADAPTER *adapter = ExWkAllocateAdapterMemory();
    if (!adapter)
        return STATUS_NO_MEMORY;
    adapter->Host = *Info->host;
    for (ULONG i = 0; i < Info->segment_count; i++) {
        const pbc_segment_info *seg = &Info->segments[i];
        if (seg->kind == PBC_SEGMENT_MEMORY) {
            NTSTATUS status = ExWkMapSegment(adapter, seg);
            if (!NT_SUCCESS(status)) {
                ExWkFreeAdapterMemory(adapter);
                return status;
            }
            continue;
        }
        if (adapter->ApertureCount == EXWK_MAX_APERTURES) {
            ExWkFreeAdapterMemory(adapter);
            return STATUS_NOT_SUPPORTED;
        }
        EXWK_APERTURE *ap = &adapter->Aperture[adapter->ApertureCount++];
        ap->SegmentId = seg->SegmentId;
        ap->Pages = (ULONG)(seg->size / PAGE_SIZE);
#ifndef EXWK_BUG_SMALL_PAGE_TABLE
        if (ap->Pages > EXWK_PT_ENTRIES) {
            ExWkFreeAdapterMemory(adapter);
            return STATUS_NOT_SUPPORTED;
        }
#endif
    }
    *phAdapter = adapter;
    return STATUS_SUCCESS;
}

static void ExWkDestroyAdapter(HANDLE hAdapter) { ExWkFreeAdapterMemory(hAdapter); }

static NTSTATUS ExWkCreateAllocation(HANDLE hAdapter, const pbc_allocation_info *Info, HANDLE *phAllocation)
{
    EXWK_ADAPTER *adapter = hAdapter;
    for (ULONG i = 0; i < EXWK_MAX_ALLOCATIONS; i++) {
        EXWK_ALLOCATION *a = &adapter->Allocation[i];
        if (a->InUse)
            continue;
        a->InUse = TRUE;
        a->Size = Info->size;
        *phAllocation = a;
        return STATUS_SUCCESS;
    }
    return STATUS_NO_MEMORY;
}

static void ExWkDestroyAllocation(HANDLE hAdapter, HANDLE hAllocation)
{
    UNREFERENCED_PARAMETER(hAdapter);
    ((EXWK_ALLOCATION *)hAllocation)->InUse = FALSE;
}

static EXWK_APERTURE *ExWkFindAperture(EXWK_ADAPTER *Adapter, UINT SegmentId)
{
    for (ULONG i = 0; i < Adapter->ApertureCount; i++)
        if (Adapter->Aperture[i].SegmentId == SegmentId)
            return &Adapter->Aperture[i];
    return NULL;
}

static int ExWkGartView(HANDLE hAdapter, UINT SegmentId, uint64_t Index, pbc_gart_view *Out)
{
    EXWK_APERTURE *ap = ExWkFindAperture(hAdapter, SegmentId);
    if (!ap || Index >= ap->Pages)
        return -1;
    ULONGLONG pte = Index < EXWK_PT_ENTRIES ? ap->PageTable[Index] : 0;
    Out->valid = (pte & EXWK_PTE_VALID) != 0;
    Out->cache_coherent = (pte & EXWK_PTE_SNOOP) != 0;
    Out->page = pte & ~(ULONGLONG)(PAGE_SIZE - 1);
    return 0;
}

/* ---- BuildPagingBuffer: record the operation ---- */

/* Writes one record: the arguments, then Items items of ItemSize bytes
 * from Payload (copied now: VidMm's arrays live for the call only), and
 * its private-data entry. FALSE (nothing written) when either does not
 * fit. */
static BOOLEAN ExWkRecord(EXWK_ADAPTER *Adapter, DXGKARG_BUILDPAGINGBUFFER *Args,
                          const DXGKARG_BUILDPAGINGBUFFER *Record, const void *Payload, SIZE_T ItemSize, UINT Items)
{
    SIZE_T size = EXWK_RECORD_SIZE + ((ItemSize * Items + 7) & ~(SIZE_T)7);
    if (Args->DmaSize < size || Args->DmaBufferPrivateDataSize < sizeof(EXWK_PRIVATE_ENTRY))
        return FALSE; /* nothing written (S07) */
    PUCHAR record = Args->pDmaBuffer;
    EXWK_RECORD_HEADER header = {EXWK_RECORD_MAGIC, (UINT)size};
    RtlZeroMemory(record, size);
    RtlCopyMemory(record, &header, sizeof(header));
    RtlCopyMemory(record + sizeof(header), Record, sizeof(*Record));
    if (Items)
        RtlCopyMemory(record + EXWK_RECORD_SIZE, Payload, ItemSize * Items);
    EXWK_PRIVATE_ENTRY entry = {Adapter, record - Args->DmaBufferWriteOffset, Args->DmaBufferWriteOffset, 0};
    RtlCopyMemory(Args->pDmaBufferPrivateData, &entry, sizeof(entry));
    Args->pDmaBuffer = record + size;
    Args->pDmaBufferPrivateData = (PUCHAR)Args->pDmaBufferPrivateData + sizeof(entry);
    return TRUE;
}

/* How many items of ItemSize fit in a record in what is left, at most Want. */
static UINT ExWkItemsThatFit(const DXGKARG_BUILDPAGINGBUFFER *Args, SIZE_T ItemSize, UINT Want)
{
    if (Args->DmaSize < EXWK_RECORD_SIZE + ItemSize)
        return 0;
    SIZE_T fit = (Args->DmaSize - EXWK_RECORD_SIZE) / ItemSize;
    return fit < Want ? (UINT)fit : Want;
}

/* The root's first update comes with no paging buffer and VidMm's own
 * CPU mapping of it, for this call only: done now. */
static NTSTATUS ExWkImmediateUpdate(EXWK_ADAPTER *Adapter, const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u)
{
    DXGK_PTE *table = u->PageTableAddress.CpuVirtual;
    if (u->PageTableLevel == EXWK_ROOT_LEVEL && !Adapter->Root)
        Adapter->Root = (ULONGLONG)MmGetPhysicalAddress(table).QuadPart;
    for (UINT i = 0; i < u->NumPageTableEntries; i++) {
        DXGK_PTE e = u->pPageTableEntries[u->Flags.Repeat ? 0 : i];
        if (u->PageTableLevel == 1 && u->Flags.Use64KBPages)
            e.PageTablePageSize = DXGK_PTE_PAGE_TABLE_PAGE_64KB;
        table[u->StartIndex + i] = e;
    }
    return STATUS_SUCCESS;
}

/* An operation with an array (entries, copy ranges, ADL pages) is
 * recorded in pieces, as many items as fit in each paging buffer, its
 * progress in MultipassOffset (S09). */
static NTSTATUS ExWkRecordInPieces(EXWK_ADAPTER *Adapter, DXGKARG_BUILDPAGINGBUFFER *Args)
{
    DXGKARG_BUILDPAGINGBUFFER piece = *Args;
    UINT done = Args->MultipassOffset, total, n;
    const void *items;
    SIZE_T size;
    switch (Args->Operation) {
    case DXGK_OPERATION_UPDATE_PAGE_TABLE: {
        DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &piece.UpdatePageTable;
        size = sizeof(DXGK_PTE);
        total = u->NumPageTableEntries;
        items = u->pPageTableEntries + (u->Flags.Repeat ? 0 : done);
        u->pPageTableEntries = NULL; /* the items follow the record: VidMm's pointer is no use later */
        if (u->Flags.Repeat) { /* one entry for the whole range */
            n = total ? 1 : 0;
            if (!ExWkRecord(Adapter, Args, &piece, items, size, n))
                return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
            return STATUS_SUCCESS;
        }
        n = ExWkItemsThatFit(Args, size, total - done);
        u->StartIndex += done;
        u->NumPageTableEntries = n;
        break;
    }
    case DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES: {
        DXGK_BUILDPAGINGBUFFER_COPYPAGETABLEENTRIES *c = &piece.CopyPageTableEntries;
        size = sizeof(DXGK_BUILDPAGINGBUFFER_COPY_RANGE);
        total = c->NumRanges;
        n = ExWkItemsThatFit(Args, size, total - done);
        items = c->pRanges + done;
        c->pRanges = NULL;
        c->NumRanges = n;
        break;
    }
    default: { /* MapApertureSegment2: the record's pages start at its AdlOffset 0 */
        __typeof__(piece.MapApertureSegment2) *m = &piece.MapApertureSegment2;
        size = sizeof(DXGK_PAGE_NUMBER);
        total = (UINT)m->NumberOfPages;
        if (m->Adl.Flags.Contiguous) { /* no array to copy: all in one record */
            n = total - done;
            items = NULL;
            m->Adl.BasePageNumber += m->AdlOffset + done;
        } else {
            n = ExWkItemsThatFit(Args, size, total - done);
            items = m->Adl.Pages + m->AdlOffset + done;
            m->Adl.Pages = NULL;
        }
        m->OffsetInPages += done;
        m->NumberOfPages = n;
        m->AdlOffset = 0;
        break;
    }
    }
    if (done < total && n == 0)
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    if (!ExWkRecord(Adapter, Args, &piece, items, size, items ? n : 0))
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    Args->MultipassOffset = done + n;
    return done + n < total ? STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER : STATUS_SUCCESS;
}

static NTSTATUS APIENTRY ExWkBuildPagingBuffer(IN_CONST_HANDLE hAdapter, IN_PDXGKARG_BUILDPAGINGBUFFER Args)
{
    EXWK_ADAPTER *adapter = (EXWK_ADAPTER *)hAdapter;
    switch (Args->Operation) {
    case DXGK_OPERATION_DISCARD_CONTENT:
    case DXGK_OPERATION_NOTIFY_FENCE_RESIDENCY:
    case DXGK_OPERATION_MAP_MMU:
    case DXGK_OPERATION_UNMAP_MMU:
    case DXGK_OPERATION_NOTIFY_RESIDENCY2:
    case DXGK_OPERATION_NOTIFY_ALLOC:
    case DXGK_OPERATION_NOTIFY_RESIDENCY:
        return STATUS_SUCCESS; /* nothing cached to drop or to note: no record needed */
    case DXGK_OPERATION_UPDATE_PAGE_TABLE:
        if (Args->UpdatePageTable.UpdateMode == DXGK_PAGETABLEUPDATE_CPU_VIRTUAL)
            return ExWkImmediateUpdate(adapter, &Args->UpdatePageTable);
#ifdef EXWK_BUG_REUSED_RECORD
        break; /* planted bug: recorded as it is, VidMm's entry array by its pointer */
#endif
        /* fall through */
    case DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES:
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT2:
        return ExWkRecordInPieces(adapter, Args);
    default:
        break;
    }
    if (!ExWkRecord(adapter, Args, Args, NULL, 0, 0))
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    return STATUS_SUCCESS;
}

/* ---- The worker: does a record's operation with the CPU ---- */

/* A CPU view of `Size` bytes of one side of a transfer. */
typedef struct _EXWK_VIEW {
    PUCHAR Base; /* what the kernel returned, for the unmap */
    PUCHAR Data; /* the side's first byte */
    PMDL Mdl;    /* NULL for a segment side */
    SIZE_T Size;
} EXWK_VIEW;

static PUCHAR ExWkMapSide(const EXWK_ADAPTER *Adapter, EXWK_VIEW *View, UINT SegmentId, LARGE_INTEGER Address, PMDL Mdl, UINT TransferOffset,
                          UINT MdlOffset, SIZE_T Size)
{
    View->Size = Size;
    View->Mdl = NULL;
    if (SegmentId != 0) {
        PHYSICAL_ADDRESS pa;
#ifdef EXWK_BUG_IGNORE_TRANSFER_OFFSET
        UNREFERENCED_PARAMETER(TransferOffset);
        pa.QuadPart = Address.QuadPart; /* planted bug */
#else
        pa.QuadPart = Address.QuadPart + TransferOffset; /* segment sides only (S13) */
#endif
        View->Base = NULL; /* the segment's permanent view: nothing to unmap */
        return View->Data = ExWkSegmentCpu(Adapter, (ULONGLONG)pa.QuadPart, Size);
    }
    View->Mdl = Mdl;
    ULONG span = ADDRESS_AND_SIZE_TO_SPAN_PAGES(MmGetMdlVirtualAddress(Mdl), MmGetMdlByteCount(Mdl));
    if ((ULONGLONG)MdlOffset * PAGE_SIZE + Size > (ULONGLONG)span * PAGE_SIZE)
        return View->Data = View->Base = NULL;
    View->Base = MmGetSystemAddressForMdlSafe(Mdl, NormalPagePriority | MdlMappingNoExecute);
    if (!View->Base)
        return View->Data = NULL;
    /* MdlOffset counts whole pages from the first page's start (S14). */
    return View->Data =
               View->Base - (MmGetMdlByteOffset(Mdl) & (PAGE_SIZE - 1)) + (SIZE_T)MdlOffset * PAGE_SIZE;
}

static void ExWkUnmapSide(const EXWK_VIEW *View)
{
    if (View->Base && View->Mdl)
        MmUnmapLockedPages(View->Base, View->Mdl);
}

static void ExWkCopy(const EXWK_ADAPTER *Adapter, SIZE_T Size, UINT SrcSeg, LARGE_INTEGER SrcAddr, PMDL SrcMdl, UINT DstSeg,
                     LARGE_INTEGER DstAddr, PMDL DstMdl, UINT TransferOffset, UINT MdlOffset)
{
    if (Size == 0)
        return;
    EXWK_VIEW src = {0}, dst = {0};
    PUCHAR s = ExWkMapSide(Adapter, &src, SrcSeg, SrcAddr, SrcMdl, TransferOffset, MdlOffset, Size);
    PUCHAR d = ExWkMapSide(Adapter, &dst, DstSeg, DstAddr, DstMdl, TransferOffset, MdlOffset, Size);
    NT_ASSERT(s && d);
    if (s && d)
        RtlMoveMemory(d, s, Size);
    ExWkUnmapSide(&src);
    ExWkUnmapSide(&dst);
}

static void ExWkFill(const EXWK_ADAPTER *Adapter, const DXGKARG_BUILDPAGINGBUFFER *A)
{
    SIZE_T size = A->Fill.FillSize;
    if (size == 0)
        return;
    PUCHAR p = ExWkSegmentCpu(Adapter, (ULONGLONG)A->Fill.Destination.SegmentAddress.QuadPart, size);
    NT_ASSERT(p);
    if (!p)
        return;
    UINT pattern = A->Fill.FillPattern;
    for (SIZE_T i = 0; i < size; i += sizeof(pattern))
        RtlCopyMemory(p + i, &pattern, size - i < sizeof(pattern) ? size - i : sizeof(pattern));
}

static void ExWkPhysical(PHYSICAL_ADDRESS Address, BOOLEAN Write)
{
    PUCHAR p = MmMapIoSpace(Address, sizeof(ULONG), MmNonCached);
    if (!p)
        return;
    /* Device accesses through an uncached mapping: the _REGISTER_ forms,
     * so the compiler cannot drop a read whose value nobody uses. */
    if (Write)
        WRITE_REGISTER_ULONG((volatile ULONG *)p, 0);
    else
        (void)READ_REGISTER_ULONG((volatile ULONG *)p);
    MmUnmapIoSpace(p, sizeof(ULONG));
}

static void ExWkWritePageTable(EXWK_ADAPTER *Adapter, UINT SegmentId, SIZE_T First, SIZE_T Count,
                               const PFN_NUMBER *Pfns, ULONGLONG Same, ULONGLONG Flags)
{
    EXWK_APERTURE *ap = ExWkFindAperture(Adapter, SegmentId);
    NT_ASSERT(ap && First + Count <= ap->Pages);
    if (!ap || First + Count > ap->Pages)
        return;
    for (SIZE_T i = 0; i < Count; i++) {
        ULONGLONG page = Pfns ? (ULONGLONG)Pfns[i] << PAGE_SHIFT : Same;
#ifdef EXWK_BUG_SMALL_PAGE_TABLE
        if (First + i >= EXWK_PT_ENTRIES)
            continue; /* planted bug: the table is too small for this aperture */
#endif
        ap->PageTable[First + i] = page | Flags;
    }
}

/* ---- WDDM 2.x: the worker reads the GPU's page tables with the CPU ----
 *
 * The tables are in DXGK_PTE format, three levels, in system memory (or a
 * memory segment: an entry's Segment field). A walk keeps a view of the
 * last table it read at each level, so the pages of one transfer cost a
 * view per table, not per page. */


/* CPU access to physical bytes: a memory segment's permanent view, or a
 * view of system pages made for it (Base, to unmap). */
typedef struct _EXWK_PHYS_VIEW {
    PUCHAR Base;
    PUCHAR Data;
    SIZE_T Size;
} EXWK_PHYS_VIEW;

static PUCHAR ExWkMapPhysical(const EXWK_ADAPTER *Adapter, EXWK_PHYS_VIEW *View, ULONGLONG Phys, SIZE_T Size)
{
    View->Base = NULL;
    View->Size = Size;
    View->Data = ExWkSegmentCpu(Adapter, Phys, Size);
    if (View->Data)
        return View->Data;
    PHYSICAL_ADDRESS pa;
    pa.QuadPart = (LONGLONG)Phys;
    return View->Data = View->Base = MmMapIoSpace(pa, Size, MmCached);
}

static void ExWkUnmapPhysical(EXWK_PHYS_VIEW *View)
{
    if (View->Base)
        MmUnmapIoSpace(View->Base, View->Size);
    View->Base = View->Data = NULL;
}

/* One walk's views: the last table read at each level. */
typedef struct _EXWK_WALK {
    const EXWK_ADAPTER *Adapter;
    ULONGLONG Table[EXWK_ROOT_LEVEL + 1];
    EXWK_PHYS_VIEW View[EXWK_ROOT_LEVEL + 1];
} EXWK_WALK;

static void ExWkEndWalk(EXWK_WALK *Walk)
{
    for (UINT i = 0; i <= EXWK_ROOT_LEVEL; i++)
        ExWkUnmapPhysical(&Walk->View[i]);
}

/* Where an entry points: an offset into its segment, 0 system memory. */
static ULONGLONG ExWkEntryTarget(const EXWK_ADAPTER *Adapter, DXGK_PTE E)
{
    ULONGLONG offset = E.PageAddress << PAGE_SHIFT;
    if (!E.Segment)
        return offset;
    for (ULONG i = 0; i < Adapter->SegmentViewCount; i++)
        if (Adapter->SegmentView[i].Id == E.Segment)
            return Adapter->SegmentView[i].Base + offset;
    return 0;
}

/* The physical address behind Va, and how many bytes from it on the same
 * page (4 KiB, 64 KiB or 2 MiB) follow; *Zero for a zero page. FALSE
 * when nothing valid maps it. */
static BOOLEAN ExWkTranslate(EXWK_WALK *Walk, ULONGLONG Va, ULONGLONG *Phys, ULONGLONG *Left, BOOLEAN *Zero)
{
    ULONGLONG table = Walk->Adapter->Root;
    BOOLEAN leaf64k = FALSE;
    *Zero = FALSE;
    for (int level = EXWK_ROOT_LEVEL; level >= 0 && table; level--) {
        UINT shift = PAGE_SHIFT + 9 * (UINT)level, index = (UINT)(Va >> shift) & (EXWK_TABLE_ENTRIES - 1);
        if (level == 0 && leaf64k) {
            shift = 16;
            index = (UINT)(Va >> 16) & 31;
        }
        if (Walk->Table[level] != table || !Walk->View[level].Data) {
            ExWkUnmapPhysical(&Walk->View[level]);
            Walk->Table[level] = table;
            if (!ExWkMapPhysical(Walk->Adapter, &Walk->View[level], table, leaf64k ? 32 * sizeof(DXGK_PTE)
                                                                                    : EXWK_TABLE_BYTES))
                return FALSE;
        }
        DXGK_PTE e;
        RtlCopyMemory(&e, Walk->View[level].Data + (SIZE_T)index * sizeof(DXGK_PTE), sizeof(e));
        BOOLEAN page = level == 0 || e.LargePage;
        ULONGLONG span = 1ull << shift;
        if (page && e.Zero) {
            *Zero = TRUE;
            *Phys = 0;
            *Left = span - (Va & (span - 1));
            return TRUE;
        }
        if (!e.Valid)
            return FALSE;
        ULONGLONG target = ExWkEntryTarget(Walk->Adapter, e);
        if (page) {
            *Phys = target + (Va & (span - 1));
            *Left = span - (Va & (span - 1));
            return TRUE;
        }
        leaf64k = level == 1 && e.PageTablePageSize == DXGK_PTE_PAGE_TABLE_PAGE_64KB;
        table = target;
    }
    return FALSE;
}

/* Copies (Source non-zero) or fills Size bytes at GPU virtual addresses,
 * a run of pages at a time. */
static void ExWkVirtualWork(EXWK_ADAPTER *Adapter, ULONGLONG Destination, ULONGLONG Source, ULONGLONG Size,
                            UINT Pattern)
{
    EXWK_WALK walk;
    RtlZeroMemory(&walk, sizeof(walk));
    walk.Adapter = Adapter;
    for (ULONGLONG done = 0; done < Size;) {
        ULONGLONG d, dLeft, s = 0, sLeft = Size - done;
        BOOLEAN dZero, sZero = FALSE;
        BOOLEAN ok = ExWkTranslate(&walk, Destination + done, &d, &dLeft, &dZero) && !dZero;
        if (ok && Source)
            ok = ExWkTranslate(&walk, Source + done, &s, &sLeft, &sZero);
        NT_ASSERT(ok); /* VidMm maps both windows before it asks */
        if (!ok)
            break;
        SIZE_T n = (SIZE_T)(Size - done);
        if (n > dLeft)
            n = (SIZE_T)dLeft;
        if (n > sLeft)
            n = (SIZE_T)sLeft;
        EXWK_PHYS_VIEW to, from;
        PUCHAR dst = ExWkMapPhysical(Adapter, &to, d, n);
        PUCHAR src = Source && !sZero ? ExWkMapPhysical(Adapter, &from, s, n) : NULL;
        if (dst && Source && sZero)
            RtlZeroMemory(dst, n);
        else if (dst && src)
            RtlMoveMemory(dst, src, n);
        else if (dst && !Source)
            for (SIZE_T i = 0; i < n; i++) /* the pattern as if from the fill's first byte */
                dst[i] = (UCHAR)(Pattern >> 8 * ((done + i) % 4));
        if (src)
            ExWkUnmapPhysical(&from);
        ExWkUnmapPhysical(&to);
        done += n;
    }
    ExWkEndWalk(&walk);
}

/* Entries written with the CPU through a view of the table. */
static void ExWkUpdatePageTable(EXWK_ADAPTER *Adapter, const DXGKARG_BUILDPAGINGBUFFER *A, const DXGK_PTE *Entries)
{
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &A->UpdatePageTable;
    UINT segment = u->PageTableAddress.GpuPhysical.SegmentId; /* 0: system memory, the offset is the address */
    ULONGLONG table = u->PageTableAddress.GpuPhysical.SegmentOffset;
    for (ULONG i = 0; segment && i < Adapter->SegmentViewCount; i++)
        if (Adapter->SegmentView[i].Id == segment)
            table += Adapter->SegmentView[i].Base;
    SIZE_T bytes = (SIZE_T)u->NumPageTableEntries * sizeof(DXGK_PTE);
    EXWK_PHYS_VIEW view;
    DXGK_PTE *to = bytes ? (DXGK_PTE *)ExWkMapPhysical(Adapter, &view, table + u->StartIndex * sizeof(DXGK_PTE), bytes)
                         : NULL;
    NT_ASSERT(to || !bytes);
    if (!to)
        return;
    for (UINT i = 0; i < u->NumPageTableEntries; i++) {
        DXGK_PTE e = Entries[u->Flags.Repeat ? 0 : i];
        if (u->PageTableLevel == 1 && u->Flags.Use64KBPages)
            e.PageTablePageSize = DXGK_PTE_PAGE_TABLE_PAGE_64KB;
        to[i] = e;
    }
    ExWkUnmapPhysical(&view);
}

/* Each range: both tables found by walking VidMm's tables window. */
static void ExWkCopyEntries(EXWK_ADAPTER *Adapter, const DXGKARG_BUILDPAGINGBUFFER *A,
                            const DXGK_BUILDPAGINGBUFFER_COPY_RANGE *Ranges)
{
    for (UINT i = 0; i < A->CopyPageTableEntries.NumRanges; i++) {
        const DXGK_BUILDPAGINGBUFFER_COPY_RANGE *r = &Ranges[i];
        ExWkVirtualWork(Adapter, r->DstPageTableAddress + r->DstStartPteIndex * sizeof(DXGK_PTE),
                        r->SrcPageTableAddress + r->SrcStartPteIndex * sizeof(DXGK_PTE),
                        (ULONGLONG)r->NumPageTableEntries * sizeof(DXGK_PTE), 0);
    }
}

/* The paging fence: all 64 bits, when the worker gets there. */
static void ExWkSignalFence(EXWK_ADAPTER *Adapter, const DXGKARG_BUILDPAGINGBUFFER *A)
{
    UINT64 value = A->SignalMonitoredFence.MonitoredFenceValue;
    EXWK_WALK walk;
    RtlZeroMemory(&walk, sizeof(walk));
    walk.Adapter = Adapter;
    ULONGLONG at, left;
    BOOLEAN zero;
    EXWK_PHYS_VIEW view;
    if (ExWkTranslate(&walk, A->SignalMonitoredFence.MonitoredFenceGpuVa, &at, &left, &zero) && !zero &&
        left >= sizeof(value) && ExWkMapPhysical(Adapter, &view, at, sizeof(value))) {
        RtlCopyMemory(view.Data, &value, sizeof(value));
        ExWkUnmapPhysical(&view);
    } else
        NT_ASSERT(FALSE); /* VidMm's fence page is always mapped */
    ExWkEndWalk(&walk);
}

/* Payload: the items recorded after the arguments (entries, ranges, ADL pages). */
static void ExWkExecute(EXWK_ADAPTER *Adapter, const DXGKARG_BUILDPAGINGBUFFER *A, const UCHAR *Payload)
{
    switch (A->Operation) {
    case DXGK_OPERATION_UPDATE_PAGE_TABLE:
#ifdef EXWK_BUG_REUSED_RECORD
        UNREFERENCED_PARAMETER(Payload);
        ExWkUpdatePageTable(Adapter, A, A->UpdatePageTable.pPageTableEntries); /* planted bug: read late */
#else
        ExWkUpdatePageTable(Adapter, A, (const DXGK_PTE *)Payload);
#endif
        break;
    case DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES:
        ExWkCopyEntries(Adapter, A, (const DXGK_BUILDPAGINGBUFFER_COPY_RANGE *)Payload);
        break;
    case DXGK_OPERATION_VIRTUAL_TRANSFER: /* the addresses already point at the bytes */
        ExWkVirtualWork(Adapter, A->TransferVirtual.DestinationVirtualAddress, A->TransferVirtual.SourceVirtualAddress,
                        A->TransferVirtual.TransferSizeInBytes, 0);
        break;
    case DXGK_OPERATION_VIRTUAL_FILL:
        ExWkVirtualWork(Adapter, A->FillVirtual.DestinationVirtualAddress, 0, A->FillVirtual.FillSizeInBytes,
                        A->FillVirtual.FillPattern);
        break;
    case DXGK_OPERATION_SIGNAL_MONITORED_FENCE:
        ExWkSignalFence(Adapter, A);
        break;
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT2: {
        const __typeof__(A->MapApertureSegment2) *m = &A->MapApertureSegment2;
        ULONGLONG flags = EXWK_PTE_VALID | (m->Flags.CacheCoherent ? EXWK_PTE_SNOOP : 0);
        if (!m->Adl.Flags.Contiguous) {
            ExWkWritePageTable(Adapter, m->SegmentId, m->OffsetInPages, m->NumberOfPages, (const PFN_NUMBER *)Payload,
                               0, flags);
            break;
        }
        for (SIZE_T i = 0; i < m->NumberOfPages; i++) /* S35: BasePageNumber + i */
            ExWkWritePageTable(Adapter, m->SegmentId, m->OffsetInPages + i, 1, NULL,
                               (ULONGLONG)(m->Adl.BasePageNumber + i) << PAGE_SHIFT, flags);
        break;
    }
    case DXGK_OPERATION_TRANSFER: {
        const __typeof__(A->Transfer) *t = &A->Transfer;
        ExWkCopy(Adapter, t->TransferSize, t->Source.SegmentId, t->Source.SegmentAddress, t->Source.pMdl,
                 t->Destination.SegmentId, t->Destination.SegmentAddress, t->Destination.pMdl, t->TransferOffset,
                 t->MdlOffset);
        break;
    }
    case DXGK_OPERATION_SPECIAL_LOCK_TRANSFER: { /* no MdlOffset: an MDL side starts at page 0 */
        const __typeof__(A->SpecialLockTransfer) *t = &A->SpecialLockTransfer;
        ExWkCopy(Adapter, t->TransferSize, t->Source.SegmentId, t->Source.SegmentAddress, t->Source.pMdl,
                 t->Destination.SegmentId, t->Destination.SegmentAddress, t->Destination.pMdl, t->TransferOffset,
                 0);
        break;
    }
    case DXGK_OPERATION_FILL:
        ExWkFill(Adapter, A);
        break;
    case DXGK_OPERATION_READ_PHYSICAL:
        ExWkPhysical(A->ReadPhysical.PhysicalAddress, FALSE);
        break;
    case DXGK_OPERATION_WRITE_PHYSICAL:
        ExWkPhysical(A->WritePhysical.PhysicalAddress, TRUE);
        break;
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT: {
        const __typeof__(A->MapApertureSegment) *m = &A->MapApertureSegment;
        ExWkWritePageTable(Adapter, m->SegmentId, m->OffsetInPages, m->NumberOfPages,
                           MmGetMdlPfnArray(m->pMdl) + m->MdlOffset, 0,
                           EXWK_PTE_VALID | (m->Flags.CacheCoherent ? EXWK_PTE_SNOOP : 0));
        break;
    }
    case DXGK_OPERATION_UNMAP_APERTURE_SEGMENT: { /* the dummy page, still valid (S33) */
        const __typeof__(A->UnmapApertureSegment) *u = &A->UnmapApertureSegment;
#ifdef EXWK_BUG_UNMAP_INVALID
        ULONGLONG flags = 0; /* planted bug: the dummy page, but not valid */
#else
        ULONGLONG flags = EXWK_PTE_VALID;
#endif
        ExWkWritePageTable(Adapter, u->SegmentId, u->OffsetInPages, u->NumberOfPages, NULL,
                           (ULONGLONG)u->DummyPage.QuadPart, flags);
        break;
    }
    default:
        break;
    }
}

/* Runs on the GPU queue (host->queue_cpu_work): one record. */
static void ExWkWorker(void *Context)
{
    const EXWK_PRIVATE_ENTRY *entry = Context;
    EXWK_RECORD_HEADER header;
    DXGKARG_BUILDPAGINGBUFFER args;
    RtlCopyMemory(&header, entry->Buffer + entry->RecordOffset, sizeof(header));
    NT_ASSERT(header.Magic == EXWK_RECORD_MAGIC);
    if (header.Magic != EXWK_RECORD_MAGIC)
        return;
    RtlCopyMemory(&args, entry->Buffer + entry->RecordOffset + sizeof(header), sizeof(args));
    ExWkExecute(entry->Adapter, &args, entry->Buffer + entry->RecordOffset + EXWK_RECORD_SIZE);
}

#ifdef EXWK_DRAIN
/* Runs on the GPU queue: every record handed over so far. */
static void ExWkDrain(void *Context)
{
    EXWK_ADAPTER *adapter = Context;
    while (adapter->PendingCount) {
        const EXWK_PRIVATE_ENTRY *entry = adapter->Pending[adapter->PendingHead];
        adapter->PendingHead = (adapter->PendingHead + 1) % EXWK_PENDING;
        adapter->PendingCount--;
        ExWkWorker((void *)entry);
    }
}
#endif

/* Records hold no addresses the GPU uses: nothing to patch. */
static NTSTATUS APIENTRY ExWkPatch(IN_CONST_HANDLE hAdapter, const DXGKARG_PATCH *Args)
{
    UNREFERENCED_PARAMETER(hAdapter);
    UNREFERENCED_PARAMETER(Args);
    return STATUS_SUCCESS;
}

/* A FlushTlb record is the GPU's: its bytes are rung, and the decoder
 * hands the MMU the flush (exwk_isa.c). */
static BOOLEAN ExWkForTheGpu(const EXWK_PRIVATE_ENTRY *Entry)
{
    DXGK_BUILDPAGINGBUFFER_OPERATION op;
    RtlCopyMemory(&op, Entry->Buffer + Entry->RecordOffset + sizeof(EXWK_RECORD_HEADER) +
                           offsetof(DXGKARG_BUILDPAGINGBUFFER, Operation),
                  sizeof(op));
    return op == DXGK_OPERATION_FLUSH_TLB;
}

static NTSTATUS APIENTRY ExWkSubmitCommand(IN_CONST_HANDLE hAdapter, const DXGKARG_SUBMITCOMMAND *Args)
{
    EXWK_ADAPTER *adapter = (EXWK_ADAPTER *)hAdapter;
    const pbc_host *host = &adapter->Host;
    PUCHAR priv = Args->pDmaBufferPrivateData;
    UINT first = Args->DmaBufferPrivateDataSubmissionStartOffset;
    UINT last = Args->DmaBufferPrivateDataSubmissionEndOffset;
    uint64_t phys = (uint64_t)Args->DmaBufferPhysicalAddress.QuadPart;
    UINT rung = Args->DmaBufferSubmissionStartOffset; /* the bytes handed to the GPU so far end here */
    if (!priv || first >= last) /* no record (only discards): hand the bytes to the GPU as they are */
        host->ring_submit(host->ctx, Args->DmaBufferSegmentId, phys, Args->DmaBufferSubmissionStartOffset,
                          Args->DmaBufferSubmissionEndOffset);
#ifdef EXWK_DRAIN
    BOOLEAN wake = FALSE;
#endif
    /* Each record in order: its bytes to the GPU (a NOP, or the flush),
     * and the worker's part queued right after them. */
    for (UINT at = first; priv && at + sizeof(EXWK_PRIVATE_ENTRY) <= last; at += sizeof(EXWK_PRIVATE_ENTRY)) {
        const EXWK_PRIVATE_ENTRY *entry = (const EXWK_PRIVATE_ENTRY *)(priv + at);
        EXWK_RECORD_HEADER header;
        RtlCopyMemory(&header, entry->Buffer + entry->RecordOffset, sizeof(header));
        UINT end = entry->RecordOffset + header.Length;
        BOOLEAN gpu = ExWkForTheGpu(entry);
#ifdef EXWK_DRAIN
        if (gpu && wake) { /* what was handed over before it runs before it */
            host->queue_cpu_work(host->ctx, ExWkDrain, adapter);
            wake = FALSE;
        }
#endif
        host->ring_submit(host->ctx, Args->DmaBufferSegmentId, phys, rung, end);
        rung = end;
        if (gpu)
            continue;
#ifdef EXWK_DRAIN
        NT_ASSERT(adapter->PendingCount < EXWK_PENDING);
        adapter->Pending[(adapter->PendingHead + adapter->PendingCount++) % EXWK_PENDING] = entry;
        wake = TRUE;
#else
        host->queue_cpu_work(host->ctx, ExWkWorker, (void *)entry);
#endif
    }
#ifdef EXWK_DRAIN
    if (wake)
        host->queue_cpu_work(host->ctx, ExWkDrain, adapter); /* wakes the worker */
#endif
    if (rung != Args->DmaBufferSubmissionStartOffset && rung < Args->DmaBufferSubmissionEndOffset)
        host->ring_submit(host->ctx, Args->DmaBufferSegmentId, phys, rung, Args->DmaBufferSubmissionEndOffset);
    host->ring_fence(host->ctx, Args->SubmissionFenceId);
    return STATUS_SUCCESS;
}

static const pbc_adapter_decl ExWkAdapterDecl = {
    .struct_size = sizeof(pbc_adapter_decl),
    .segment_count = 0, /* the segments the board reports */
    .segments = NULL,
    .paging_buffer_size = EXWK_PAGING_BUFFER_SIZE,
};

/* The name reports give this builder: pbcheck_add_target(NAME ...) sets
 * PBC_TARGET_NAME to NAME, so a copy of this template is renamed there. */
#ifndef PBC_TARGET_NAME
#define PBC_TARGET_NAME "example-worker"
#endif

/* The planted bug's name; linked into pbcheck as a built-in planted bug
 * (targets/mutants/worker_reused_record.c), it is a mutant-* name there. */
#ifndef EXWK_REUSED_RECORD_NAME
#define EXWK_REUSED_RECORD_NAME "example-worker-bug-reused-record"
#endif

#ifdef EXWK_VARIANT_SYMBOL /* linked into pbcheck as a legal variant or a planted bug */
const pbc_target EXWK_VARIANT_SYMBOL = {
#else
static const pbc_target ExWkTarget = {
#endif
    .abi_version = PBC_TARGET_ABI_VERSION,
    .struct_size = sizeof(pbc_target),
#if defined(EXWK_DRAIN)
    .name = "variant-drain-worker",
    .summary = "ExWorker whose worker, once woken, runs every record handed over so far",
#elif defined(EXWK_BUG_IGNORE_TRANSFER_OFFSET)
    .name = "example-worker-bug-transfer-offset",
    .summary = "ExWorker with a planted bug: the worker ignores TransferOffset (PB-DIVERGE)",
#elif defined(EXWK_BUG_REUSED_RECORD)
    .name = EXWK_REUSED_RECORD_NAME,
    .summary = "ExWorker with a planted bug: the worker reads VidMm's entry array after the call (PB-PTE)",
#elif defined(EXWK_BUG_UNMAP_INVALID)
    .name = "example-worker-bug-unmap-invalid",
    .summary = "ExWorker with a planted bug: unmapped entries hold the dummy page, not valid (PB-UNMAP-DUMMY)",
#elif defined(EXWK_BUG_SMALL_PAGE_TABLE)
    .name = "example-worker-bug-small-page-table",
    .summary = "ExWorker with a planted bug: a 32-entry page table for a larger aperture",
#else
    .name = PBC_TARGET_NAME,
    .summary = "example vendor builder: records the arguments, a worker on the GPU queue does the work",
#endif
    .isa = &exwk_isa,
    .min_dma_size = EXWK_RECORD_SIZE + sizeof(DXGK_BUILDPAGINGBUFFER_COPY_RANGE), /* a record and one item */
    .private_data_size = EXWK_PRIVATE_DATA_SIZE,
    .supported_operations = PBC_OP_BIT(DXGK_OPERATION_TRANSFER) | PBC_OP_BIT(DXGK_OPERATION_FILL) |
                            PBC_OP_BIT(DXGK_OPERATION_DISCARD_CONTENT) |
                            PBC_OP_BIT(DXGK_OPERATION_READ_PHYSICAL) |
                            PBC_OP_BIT(DXGK_OPERATION_WRITE_PHYSICAL) |
                            PBC_OP_BIT(DXGK_OPERATION_MAP_APERTURE_SEGMENT) |
                            PBC_OP_BIT(DXGK_OPERATION_UNMAP_APERTURE_SEGMENT) |
                            PBC_OP_BIT(DXGK_OPERATION_SPECIAL_LOCK_TRANSFER)
#ifndef EXWK_DRAIN /* a draining worker would signal the paging fence before a flush the GPU has yet to run */
                            | /* WDDM 2.x */
                            PBC_OP_BIT(DXGK_OPERATION_UPDATE_PAGE_TABLE) | PBC_OP_BIT(DXGK_OPERATION_FLUSH_TLB) |
                            PBC_OP_BIT(DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES) |
                            PBC_OP_BIT(DXGK_OPERATION_VIRTUAL_TRANSFER) | PBC_OP_BIT(DXGK_OPERATION_VIRTUAL_FILL) |
                            PBC_OP_BIT(DXGK_OPERATION_SIGNAL_MONITORED_FENCE) |
                            PBC_OP_BIT(DXGK_OPERATION_MAP_APERTURE_SEGMENT2) |
                            PBC_OP_BIT(DXGK_OPERATION_NOTIFY_FENCE_RESIDENCY) |
                            PBC_OP_BIT(DXGK_OPERATION_MAP_MMU) | PBC_OP_BIT(DXGK_OPERATION_UNMAP_MMU) |
                            PBC_OP_BIT(DXGK_OPERATION_NOTIFY_RESIDENCY2) | PBC_OP_BIT(DXGK_OPERATION_NOTIFY_ALLOC) |
                            PBC_OP_BIT(DXGK_OPERATION_NOTIFY_RESIDENCY)
#endif
    ,
    .create_adapter = ExWkCreateAdapter,
    .destroy_adapter = ExWkDestroyAdapter,
    .create_allocation = ExWkCreateAllocation,
    .destroy_allocation = ExWkDestroyAllocation,
    .build_paging_buffer = ExWkBuildPagingBuffer,
    .patch = ExWkPatch,
    .submit_command = ExWkSubmitCommand,
    .adapter = &ExWkAdapterDecl,
    .gart_view = ExWkGartView,
};

#ifndef EXWK_VARIANT_SYMBOL
__attribute__((visibility("default"))) const pbc_target *pbc_target_get(void) { return &ExWkTarget; }
#endif
