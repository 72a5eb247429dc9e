/*
 * ExGpu: an example third-party paging-buffer builder in the "GPU
 * packets" style, written as a vendor's KMD source would be, and the
 * template to copy for a driver whose copy engine does the paging work.
 *
 * Style:
 *  - Transfers, fills and physical accesses are ExGpu packets (exgpu_hw.h):
 *    64-bit qwords, decoded for pbcheck by exgpu_isa.c.
 *  - The copy engine moves only physically contiguous runs, so a copy is
 *    split wherever an MDL side crosses into a page that does not follow
 *    the previous one (adjacent PFNs are merged into one run).
 *  - The GART is programmed with register writes at build time, through
 *    the index/data pair (EXGPU_REG_GART_*) mapped with MmMapIoSpace, not
 *    with packets. The pair cannot be read back, so the adapter keeps a
 *    shadow of every entry it programmed; ExGpuGartView (pbcheck's
 *    gart_view hook) reads that shadow.
 *  - Progress across INSUFFICIENT_DMA_BUFFER is the byte count done, kept
 *    in MultipassOffset.
 *  - Hard-coded limits, as drivers have them: EXGPU_MAX_ALLOCATIONS
 *    allocations, EXGPU_MAX_APERTURES apertures of at most
 *    EXGPU_MAX_GART_ENTRIES pages. A layout beyond them fails
 *    adapter creation (pbcheck then skips the scenario).
 *
 * Build with -DEXGPU_BUG_UNMAP_INVALID for the planted bug: unmap points
 * the entries at the dummy page but leaves the valid bit clear (S33,
 * PB-UNMAP-DUMMY).
 */
#include <stdlib.h>

#include <pbcheck/target.h>
#include <pbcheck/wdk/dispmprt.h>

#include "exgpu_hw.h"

#define EXGPU_MAX_ALLOCATIONS 1024u
#define EXGPU_MAX_APERTURES 2u
#define EXGPU_MAX_GART_ENTRIES 65536u /* 256 MiB of 4 KiB pages */

typedef struct _EXGPU_ALLOCATION {
    BOOLEAN InUse;
    ULONGLONG Size;
} EXGPU_ALLOCATION;

typedef struct _EXGPU_APERTURE {
    UINT SegmentId;
    ULONG Pages;
    ULONGLONG Shadow[EXGPU_MAX_GART_ENTRIES]; /* DATA_HI << 32 | DATA_LO as programmed */
} EXGPU_APERTURE;

typedef struct _EXGPU_ADAPTER {
    pbc_host Host;
    volatile ULONG *Regs; /* the register file, mapped once at init */
    ULONG RegsSize;
    ULONG ApertureCount;
    EXGPU_APERTURE Aperture[EXGPU_MAX_APERTURES];
    EXGPU_ALLOCATION Allocation[EXGPU_MAX_ALLOCATIONS];
} EXGPU_ADAPTER;

/* The one place adapter memory comes from: non-paged pool, as a miniport
 * takes it (ExAllocatePool2 zeroes it); the tag names it in a leak report. */
#define EXGPU_POOL_TAG 0x41646747u /* 'GgdA' in memory */
static EXGPU_ADAPTER *ExGpuAllocateAdapterMemory(void)
{
    return ExAllocatePool2(POOL_FLAG_NON_PAGED, sizeof(EXGPU_ADAPTER), EXGPU_POOL_TAG);
}
static void ExGpuFreeAdapterMemory(EXGPU_ADAPTER *Adapter) { ExFreePoolWithTag(Adapter, EXGPU_POOL_TAG); }

static NTSTATUS ExGpuCreateAdapter(const pbc_adapter_info *Info, HANDLE *phAdapter)
{
    EXGPU_ADAPTER *adapter = ExGpuAllocateAdapterMemory();
    if (!adapter)
        return STATUS_NO_MEMORY;
    adapter->Host = *Info->host;
    for (ULONG i = 0; i < Info->segment_count; i++) {
        const pbc_segment_info *seg = &Info->segments[i];
        if (seg->kind != PBC_SEGMENT_APERTURE)
            continue;
        if (adapter->ApertureCount == EXGPU_MAX_APERTURES ||
            seg->size / PAGE_SIZE > EXGPU_MAX_GART_ENTRIES) {
            ExGpuFreeAdapterMemory(adapter);
            return STATUS_NOT_SUPPORTED;
        }
        EXGPU_APERTURE *ap = &adapter->Aperture[adapter->ApertureCount++];
        ap->SegmentId = seg->SegmentId;
        ap->Pages = (ULONG)(seg->size / PAGE_SIZE);
    }
    PHYSICAL_ADDRESS regs;
    regs.QuadPart = (LONGLONG)Info->mmio_physical;
    adapter->Regs = MmMapIoSpace(regs, Info->mmio_size, MmNonCached);
    adapter->RegsSize = Info->mmio_size;
    if (!adapter->Regs) {
        ExGpuFreeAdapterMemory(adapter);
        return STATUS_INSUFFICIENT_RESOURCES;
    }
    *phAdapter = adapter;
    return STATUS_SUCCESS;
}

static void ExGpuDestroyAdapter(HANDLE hAdapter)
{
    EXGPU_ADAPTER *adapter = hAdapter;
    MmUnmapIoSpace((PVOID)adapter->Regs, adapter->RegsSize);
    ExGpuFreeAdapterMemory(adapter);
}

static NTSTATUS ExGpuCreateAllocation(HANDLE hAdapter, const pbc_allocation_info *Info,
                                      HANDLE *phAllocation)
{
    EXGPU_ADAPTER *adapter = hAdapter;
    for (ULONG i = 0; i < EXGPU_MAX_ALLOCATIONS; i++) {
        EXGPU_ALLOCATION *a = &adapter->Allocation[i];
        if (a->InUse)
            continue;
        a->InUse = TRUE;
        a->Size = Info->size;
        *phAllocation = a;
        return STATUS_SUCCESS;
    }
    return STATUS_NO_MEMORY;
}

static void ExGpuDestroyAllocation(HANDLE hAdapter, HANDLE hAllocation)
{
    UNREFERENCED_PARAMETER(hAdapter);
    EXGPU_ALLOCATION *a = hAllocation;
    a->InUse = FALSE;
}

static EXGPU_APERTURE *ExGpuFindAperture(EXGPU_ADAPTER *Adapter, UINT SegmentId, ULONG *Number)
{
    for (ULONG i = 0; i < Adapter->ApertureCount; i++)
        if (Adapter->Aperture[i].SegmentId == SegmentId) {
            *Number = i;
            return &Adapter->Aperture[i];
        }
    return NULL;
}

/* Programs one GART entry through the index/data pair and notes it. */
static void ExGpuWriteGart(EXGPU_ADAPTER *Adapter, ULONG Number, EXGPU_APERTURE *Ap, ULONG Index,
                           ULONGLONG Page, ULONG Flags)
{
    ULONG lo = (ULONG)(Page & 0xFFFFF000u) | Flags;
    ULONG hi = (ULONG)(Page >> 32);
    WRITE_REGISTER_ULONG(&Adapter->Regs[EXGPU_REG_GART_INDEX / 4], Number << EXGPU_GART_APERTURE_SHIFT | Index);
    WRITE_REGISTER_ULONG(&Adapter->Regs[EXGPU_REG_GART_DATA_LO / 4], lo);
    WRITE_REGISTER_ULONG(&Adapter->Regs[EXGPU_REG_GART_DATA_HI / 4], hi);
    Ap->Shadow[Index] = (ULONGLONG)hi << 32 | lo;
}

static int ExGpuGartView(HANDLE hAdapter, UINT SegmentId, uint64_t Index, pbc_gart_view *Out)
{
    ULONG number;
    EXGPU_APERTURE *ap = ExGpuFindAperture(hAdapter, SegmentId, &number);
    if (!ap || Index >= ap->Pages)
        return -1;
    ULONGLONG e = ap->Shadow[Index];
    Out->valid = (e & EXGPU_GART_VALID) != 0;
    Out->cache_coherent = (e & EXGPU_GART_SNOOP) != 0;
    Out->page = e & ~(ULONGLONG)0xFFF;
    return 0;
}

/* Where the packets of this call go. */
typedef struct _EXGPU_WRITER {
    PUCHAR Cur;
    PUCHAR End;
} EXGPU_WRITER;

static BOOLEAN ExGpuFits(const EXGPU_WRITER *W, ULONG Qwords)
{
    return (SIZE_T)(W->End - W->Cur) >= (SIZE_T)Qwords * 8;
}

static void ExGpuEmit(EXGPU_WRITER *W, ULONG Opcode, ULONG Qwords, ULONG Imm, ULONGLONG Q1, ULONGLONG Q2)
{
    exgpu_wr64(W->Cur, exgpu_header(Opcode, Qwords, Imm));
    exgpu_wr64(W->Cur + 8, Q1);
    if (Qwords > 2)
        exgpu_wr64(W->Cur + 16, Q2);
    W->Cur += (SIZE_T)Qwords * 8;
}

/* One side of a copy: a segment range, or pages of an MDL. */
typedef struct _EXGPU_SIDE {
    ULONGLONG Base;         /* segment side: the first byte's address */
    const PFN_NUMBER *Pfns; /* MDL side: the first page's PFN, or NULL */
} EXGPU_SIDE;

static EXGPU_SIDE ExGpuSide(UINT SegmentId, LARGE_INTEGER Address, PMDL Mdl, UINT TransferOffset,
                            UINT MdlOffset)
{
    EXGPU_SIDE s = {0, NULL};
    if (SegmentId != 0)
        s.Base = (ULONGLONG)Address.QuadPart + TransferOffset; /* TransferOffset: segment sides only */
    else
        s.Pfns = MmGetMdlPfnArray(Mdl) + MdlOffset; /* MdlOffset counts pages */
    return s;
}

/* Address of byte Offset of a side, and how many bytes from there are
 * physically contiguous (at most Limit). */
static ULONGLONG ExGpuRun(const EXGPU_SIDE *S, ULONGLONG Offset, ULONGLONG Limit, ULONGLONG *Run)
{
    if (!S->Pfns) {
        *Run = Limit;
        return S->Base + Offset;
    }
    ULONGLONG page = Offset / PAGE_SIZE;
    ULONGLONG run = PAGE_SIZE - Offset % PAGE_SIZE;
    while (run < Limit && S->Pfns[page + 1] == S->Pfns[page] + 1) {
        page++;
        run += PAGE_SIZE;
    }
    *Run = run < Limit ? run : Limit;
    return ((ULONGLONG)S->Pfns[Offset / PAGE_SIZE] << PAGE_SHIFT) + Offset % PAGE_SIZE;
}

static NTSTATUS ExGpuCopy(DXGKARG_BUILDPAGINGBUFFER *Args, EXGPU_WRITER *W, SIZE_T Size,
                          const EXGPU_SIDE *Src, const EXGPU_SIDE *Dst)
{
    ULONGLONG done = Args->MultipassOffset;
    while (done < Size && ExGpuFits(W, EXGPU_LEN_COPY)) {
        ULONGLONG left = Size - done, srcRun, dstRun;
        if (left > EXGPU_MAX_RUN)
            left = EXGPU_MAX_RUN;
        ULONGLONG src = ExGpuRun(Src, done, left, &srcRun);
        ULONGLONG dst = ExGpuRun(Dst, done, srcRun, &dstRun);
        ExGpuEmit(W, EXGPU_OP_COPY, EXGPU_LEN_COPY, (ULONG)dstRun, dst, src);
        done += dstRun;
    }
    Args->pDmaBuffer = W->Cur;
    Args->MultipassOffset = (UINT)done;
    return done == Size ? STATUS_SUCCESS : STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
}

static NTSTATUS ExGpuTransfer(DXGKARG_BUILDPAGINGBUFFER *Args, EXGPU_WRITER *W)
{
    const __typeof__(Args->Transfer) *t = &Args->Transfer;
    EXGPU_SIDE src = ExGpuSide(t->Source.SegmentId, t->Source.SegmentAddress, t->Source.pMdl,
                               t->TransferOffset, t->MdlOffset);
    EXGPU_SIDE dst = ExGpuSide(t->Destination.SegmentId, t->Destination.SegmentAddress,
                               t->Destination.pMdl, t->TransferOffset, t->MdlOffset);
    return ExGpuCopy(Args, W, t->TransferSize, &src, &dst);
}

/* Special-lock transfers have no MdlOffset: an MDL side starts at page 0. */
static NTSTATUS ExGpuSpecialLockTransfer(DXGKARG_BUILDPAGINGBUFFER *Args, EXGPU_WRITER *W)
{
    const __typeof__(Args->SpecialLockTransfer) *t = &Args->SpecialLockTransfer;
    EXGPU_SIDE src = ExGpuSide(t->Source.SegmentId, t->Source.SegmentAddress, t->Source.pMdl,
                               t->TransferOffset, 0);
    EXGPU_SIDE dst = ExGpuSide(t->Destination.SegmentId, t->Destination.SegmentAddress,
                               t->Destination.pMdl, t->TransferOffset, 0);
    return ExGpuCopy(Args, W, t->TransferSize, &src, &dst);
}

static NTSTATUS ExGpuFill(DXGKARG_BUILDPAGINGBUFFER *Args, EXGPU_WRITER *W)
{
    if (Args->Fill.FillSize == 0)
        return STATUS_SUCCESS;
    if (!ExGpuFits(W, EXGPU_LEN_FILL))
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    ExGpuEmit(W, EXGPU_OP_FILL, EXGPU_LEN_FILL, Args->Fill.FillPattern,
              (ULONGLONG)Args->Fill.Destination.SegmentAddress.QuadPart, Args->Fill.FillSize);
    Args->pDmaBuffer = W->Cur;
    return STATUS_SUCCESS;
}

static NTSTATUS ExGpuPhysical(DXGKARG_BUILDPAGINGBUFFER *Args, EXGPU_WRITER *W, BOOLEAN Write)
{
    ULONG len = Write ? EXGPU_LEN_WRITE : EXGPU_LEN_READ;
    if (!ExGpuFits(W, len))
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    PHYSICAL_ADDRESS pa = Write ? Args->WritePhysical.PhysicalAddress : Args->ReadPhysical.PhysicalAddress;
    ExGpuEmit(W, Write ? EXGPU_OP_WRITE : EXGPU_OP_READ, len, 4, (ULONGLONG)pa.QuadPart, 0);
    Args->pDmaBuffer = W->Cur;
    return STATUS_SUCCESS;
}

/* Map and unmap program the GART now, with the CPU; they write no packet. */
static NTSTATUS ExGpuMapAperture(EXGPU_ADAPTER *Adapter, DXGKARG_BUILDPAGINGBUFFER *Args)
{
    const __typeof__(Args->MapApertureSegment) *m = &Args->MapApertureSegment;
    ULONG number;
    EXGPU_APERTURE *ap = ExGpuFindAperture(Adapter, m->SegmentId, &number);
    NT_ASSERT(ap && m->OffsetInPages + m->NumberOfPages <= ap->Pages);
    if (!ap || m->OffsetInPages + m->NumberOfPages > ap->Pages)
        return STATUS_SUCCESS;
    const PFN_NUMBER *pfns = MmGetMdlPfnArray(m->pMdl) + m->MdlOffset;
    ULONG flags = EXGPU_GART_VALID | (m->Flags.CacheCoherent ? EXGPU_GART_SNOOP : 0);
    for (SIZE_T i = 0; i < m->NumberOfPages; i++)
        ExGpuWriteGart(Adapter, number, ap, (ULONG)(m->OffsetInPages + i), (ULONGLONG)pfns[i] << PAGE_SHIFT,
                       flags);
    return STATUS_SUCCESS;
}

static NTSTATUS ExGpuUnmapAperture(EXGPU_ADAPTER *Adapter, DXGKARG_BUILDPAGINGBUFFER *Args)
{
    const __typeof__(Args->UnmapApertureSegment) *u = &Args->UnmapApertureSegment;
    ULONG number;
    EXGPU_APERTURE *ap = ExGpuFindAperture(Adapter, u->SegmentId, &number);
    NT_ASSERT(ap && u->OffsetInPages + u->NumberOfPages <= ap->Pages);
    if (!ap || u->OffsetInPages + u->NumberOfPages > ap->Pages)
        return STATUS_SUCCESS;
#ifdef EXGPU_BUG_UNMAP_INVALID
    ULONG flags = 0; /* planted bug: the dummy page, but not valid */
#else
    ULONG flags = EXGPU_GART_VALID; /* GPU access through the range stays enabled (S33) */
#endif
    for (SIZE_T i = 0; i < u->NumberOfPages; i++)
        ExGpuWriteGart(Adapter, number, ap, (ULONG)(u->OffsetInPages + i), (ULONGLONG)u->DummyPage.QuadPart,
                       flags);
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY ExGpuBuildPagingBuffer(IN_CONST_HANDLE hAdapter, IN_PDXGKARG_BUILDPAGINGBUFFER Args)
{
    EXGPU_ADAPTER *adapter = (EXGPU_ADAPTER *)hAdapter;
    EXGPU_WRITER w = {(PUCHAR)Args->pDmaBuffer, (PUCHAR)Args->pDmaBuffer + Args->DmaSize};
    switch (Args->Operation) {
    case DXGK_OPERATION_TRANSFER:
        return ExGpuTransfer(Args, &w);
    case DXGK_OPERATION_SPECIAL_LOCK_TRANSFER:
        return ExGpuSpecialLockTransfer(Args, &w);
    case DXGK_OPERATION_FILL:
        return ExGpuFill(Args, &w);
    case DXGK_OPERATION_DISCARD_CONTENT:
        return STATUS_SUCCESS; /* no caches to drop */
    case DXGK_OPERATION_READ_PHYSICAL:
        return ExGpuPhysical(Args, &w, FALSE);
    case DXGK_OPERATION_WRITE_PHYSICAL:
        return ExGpuPhysical(Args, &w, TRUE);
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT:
        return ExGpuMapAperture(adapter, Args);
    case DXGK_OPERATION_UNMAP_APERTURE_SEGMENT:
        return ExGpuUnmapAperture(adapter, Args);
    default:
        return STATUS_SUCCESS; /* not declared in supported_operations */
    }
}

/* ExGpu packets hold physical addresses only: nothing to patch. */
static NTSTATUS APIENTRY ExGpuPatch(IN_CONST_HANDLE hAdapter, const DXGKARG_PATCH *Args)
{
    UNREFERENCED_PARAMETER(hAdapter);
    UNREFERENCED_PARAMETER(Args);
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY ExGpuSubmitCommand(IN_CONST_HANDLE hAdapter, const DXGKARG_SUBMITCOMMAND *Args)
{
    const pbc_host *host = &((const EXGPU_ADAPTER *)hAdapter)->Host;
    host->ring_submit(host->ctx, Args->DmaBufferSegmentId, (uint64_t)Args->DmaBufferPhysicalAddress.QuadPart,
                      Args->DmaBufferSubmissionStartOffset, Args->DmaBufferSubmissionEndOffset);
    host->ring_fence(host->ctx, Args->SubmissionFenceId);
    return STATUS_SUCCESS;
}

/* The name reports give this builder: pbcheck_add_target(NAME ...) sets
 * PBC_TARGET_NAME to NAME, so a copy of this template is renamed there. */
#ifndef PBC_TARGET_NAME
#define PBC_TARGET_NAME "example-gpu"
#endif

static const pbc_target ExGpuTarget = {
    .abi_version = PBC_TARGET_ABI_VERSION,
    .struct_size = sizeof(pbc_target),
#ifdef EXGPU_BUG_UNMAP_INVALID
    .name = "example-gpu-bug-unmap-invalid",
    .summary = "ExGpu with a planted bug: unmapped GART entries left invalid (PB-UNMAP-DUMMY)",
#else
    .name = PBC_TARGET_NAME,
    .summary = "example vendor builder: own qword ISA, contiguous-run copies, GART by registers",
#endif
    .isa = &exgpu_isa,
    .min_dma_size = EXGPU_MAX_PACKET_BYTES,
    .private_data_size = 0,
    .supported_operations = PBC_OP_BIT(DXGK_OPERATION_TRANSFER) | PBC_OP_BIT(DXGK_OPERATION_FILL) |
                            PBC_OP_BIT(DXGK_OPERATION_DISCARD_CONTENT) |
                            PBC_OP_BIT(DXGK_OPERATION_READ_PHYSICAL) |
                            PBC_OP_BIT(DXGK_OPERATION_WRITE_PHYSICAL) |
                            PBC_OP_BIT(DXGK_OPERATION_MAP_APERTURE_SEGMENT) |
                            PBC_OP_BIT(DXGK_OPERATION_UNMAP_APERTURE_SEGMENT) |
                            PBC_OP_BIT(DXGK_OPERATION_SPECIAL_LOCK_TRANSFER),
    .create_adapter = ExGpuCreateAdapter,
    .destroy_adapter = ExGpuDestroyAdapter,
    .create_allocation = ExGpuCreateAllocation,
    .destroy_allocation = ExGpuDestroyAllocation,
    .build_paging_buffer = ExGpuBuildPagingBuffer,
    .patch = ExGpuPatch,
    .submit_command = ExGpuSubmitCommand,
    .adapter = NULL,
    .gart_view = ExGpuGartView,
};

__attribute__((visibility("default"))) const pbc_target *pbc_target_get(void) { return &ExGpuTarget; }
