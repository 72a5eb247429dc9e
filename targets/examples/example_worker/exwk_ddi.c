/*
 * ExWorker: an example third-party paging-buffer builder in the
 * "record and worker" style, written as a vendor's KMD source would be,
 * and the template to copy for a driver whose paging work is done by a
 * kernel worker thread rather than by the GPU.
 *
 * Style:
 *  - BuildPagingBuffer does no work: it copies its whole
 *    DXGKARG_BUILDPAGINGBUFFER into the paging buffer as one record
 *    (exwk_record.h) and appends an entry {adapter, buffer start, record
 *    offset} to the paging buffer's private data. The adapter declares
 *    4 KiB paging buffers, which hold about ten records, so every call
 *    first checks that both the record and its entry fit and otherwise
 *    returns INSUFFICIENT_DMA_BUFFER having written nothing.
 *  - SubmitCommand hands each record of the submission (its private-data
 *    entries, [PrivateDataSubmissionStart, End)) to the worker with
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
 *  - Built with EXWK_DRAIN (variant-drain-worker, targets/variants/
 *    drain_worker.c), SubmitCommand appends the submission's records to
 *    the adapter's queue and wakes the worker once; a wake-up runs every
 *    record queued so far, its own submission's and any handed over
 *    since, as a worker thread that empties its queue does. Legal because
 *    Windows calls SubmitCommand for a paging buffer only once the work
 *    it must follow is done (docs/rules.md, "When SubmitCommand comes").
 *
 * Planted bugs (one -D each):
 *  EXWK_BUG_IGNORE_TRANSFER_OFFSET  the worker maps segment sides at
 *      SegmentAddress, forgetting TransferOffset (S13, PB-DIVERGE on split
 *      transfers).
 *  EXWK_BUG_SMALL_PAGE_TABLE        the page table has 32 entries, copied
 *      from a board with a 128 KiB aperture; entries beyond it are
 *      dropped, so pages mapped there stay invalid (PB-DIVERGE when they
 *      stay mapped, PB-UNMAP-DUMMY when unmapped, PB-GPU-FAULT when the
 *      GPU reads through them).
 */
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
    Adapter->SegmentView[Adapter->SegmentViewCount++] = (EXWK_SEGMENT_VIEW){Segment->base, Segment->size, cpu};
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

static NTSTATUS APIENTRY ExWkBuildPagingBuffer(IN_CONST_HANDLE hAdapter, IN_PDXGKARG_BUILDPAGINGBUFFER Args)
{
    if (Args->Operation == DXGK_OPERATION_DISCARD_CONTENT)
        return STATUS_SUCCESS; /* nothing cached to drop: no record needed */
    if (Args->DmaSize < EXWK_RECORD_SIZE || Args->DmaBufferPrivateDataSize < sizeof(EXWK_PRIVATE_ENTRY))
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER; /* nothing written (S07) */
    PUCHAR record = Args->pDmaBuffer;
    EXWK_RECORD_HEADER header = {EXWK_RECORD_MAGIC, (UINT)EXWK_RECORD_SIZE};
    RtlZeroMemory(record, EXWK_RECORD_SIZE);
    RtlCopyMemory(record, &header, sizeof(header));
    RtlCopyMemory(record + sizeof(header), Args, sizeof(*Args));
    EXWK_PRIVATE_ENTRY entry = {(EXWK_ADAPTER *)hAdapter, record - Args->DmaBufferWriteOffset,
                                Args->DmaBufferWriteOffset, 0};
    RtlCopyMemory(Args->pDmaBufferPrivateData, &entry, sizeof(entry));
    Args->pDmaBuffer = record + EXWK_RECORD_SIZE;
    Args->pDmaBufferPrivateData = (PUCHAR)Args->pDmaBufferPrivateData + sizeof(entry);
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

static void ExWkExecute(EXWK_ADAPTER *Adapter, const DXGKARG_BUILDPAGINGBUFFER *A)
{
    switch (A->Operation) {
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
        ExWkWritePageTable(Adapter, u->SegmentId, u->OffsetInPages, u->NumberOfPages, NULL,
                           (ULONGLONG)u->DummyPage.QuadPart, EXWK_PTE_VALID);
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
    ExWkExecute(entry->Adapter, &args);
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

static NTSTATUS APIENTRY ExWkSubmitCommand(IN_CONST_HANDLE hAdapter, const DXGKARG_SUBMITCOMMAND *Args)
{
    const pbc_host *host = &((const EXWK_ADAPTER *)hAdapter)->Host;
    PUCHAR priv = Args->pDmaBufferPrivateData;
    UINT first = Args->DmaBufferPrivateDataSubmissionStartOffset;
    UINT last = Args->DmaBufferPrivateDataSubmissionEndOffset;
    if (!priv || first >= last) /* no record (only discards): hand the bytes to the GPU as they are */
        host->ring_submit(host->ctx, Args->DmaBufferSegmentId, (uint64_t)Args->DmaBufferPhysicalAddress.QuadPart,
                          Args->DmaBufferSubmissionStartOffset, Args->DmaBufferSubmissionEndOffset);
#ifdef EXWK_DRAIN
    else {
        EXWK_ADAPTER *adapter = (EXWK_ADAPTER *)hAdapter;
        for (UINT at = first; at + sizeof(EXWK_PRIVATE_ENTRY) <= last; at += sizeof(EXWK_PRIVATE_ENTRY)) {
            NT_ASSERT(adapter->PendingCount < EXWK_PENDING);
            adapter->Pending[(adapter->PendingHead + adapter->PendingCount++) % EXWK_PENDING] =
                (const EXWK_PRIVATE_ENTRY *)(priv + at);
        }
        host->queue_cpu_work(host->ctx, ExWkDrain, adapter); /* wakes the worker */
    }
#else
    else
        for (UINT at = first; at + sizeof(EXWK_PRIVATE_ENTRY) <= last; at += sizeof(EXWK_PRIVATE_ENTRY))
            host->queue_cpu_work(host->ctx, ExWkWorker, priv + at);
#endif
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

#ifdef EXWK_VARIANT_SYMBOL /* linked into pbcheck as a legal variant */
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
#elif defined(EXWK_BUG_SMALL_PAGE_TABLE)
    .name = "example-worker-bug-small-page-table",
    .summary = "ExWorker with a planted bug: a 32-entry page table for a larger aperture",
#else
    .name = PBC_TARGET_NAME,
    .summary = "example vendor builder: records the arguments, a worker on the GPU queue does the work",
#endif
    .isa = &exwk_isa,
    .min_dma_size = EXWK_RECORD_SIZE,
    .private_data_size = EXWK_PRIVATE_DATA_SIZE,
    .supported_operations = PBC_OP_BIT(DXGK_OPERATION_TRANSFER) | PBC_OP_BIT(DXGK_OPERATION_FILL) |
                            PBC_OP_BIT(DXGK_OPERATION_DISCARD_CONTENT) |
                            PBC_OP_BIT(DXGK_OPERATION_READ_PHYSICAL) |
                            PBC_OP_BIT(DXGK_OPERATION_WRITE_PHYSICAL) |
                            PBC_OP_BIT(DXGK_OPERATION_MAP_APERTURE_SEGMENT) |
                            PBC_OP_BIT(DXGK_OPERATION_UNMAP_APERTURE_SEGMENT) |
                            PBC_OP_BIT(DXGK_OPERATION_SPECIAL_LOCK_TRANSFER),
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
