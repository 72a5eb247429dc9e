/*
 * The reference paging-buffer builder: every WDDM 1.x operation, emitted as
 * reference-ISA packets, one packet per page-sized chunk of work.
 *
 * Resumption is deliberately simple: MultipassOffset is the number of
 * chunks of the current operation already in earlier buffers, so a call
 * after INSUFFICIENT_DMA_BUFFER continues at exactly the next chunk. The
 * builder checks the space left before each packet (S07) and only ever
 * writes whole packets.
 */
#include "ref_builder.h"

#include <stdlib.h>
#include <string.h>

#include "ref_isa.h"

#define REF_MAX_SEGMENTS 32u

typedef struct ref_adapter {
    pbc_host host;
    uint64_t dummy_page;
    uint64_t segment_base[REF_MAX_SEGMENTS]; /* by SegmentId */
} ref_adapter;

typedef struct ref_allocation {
    uint64_t size;
    uint32_t flags;
} ref_allocation;

/* Where the next packet goes and where the buffer ends. */
typedef struct ref_writer {
    uint8_t *cur;
    uint8_t *end;
} ref_writer;

static int ref_fits(const ref_writer *w, uint32_t dwords)
{
    return (size_t)(w->end - w->cur) >= (size_t)dwords * 4;
}

NTSTATUS ref_create_adapter(const pbc_adapter_info *info, HANDLE *adapter)
{
    ref_adapter *a = calloc(1, sizeof(*a));
    if (!a)
        return STATUS_NO_MEMORY;
    a->host = *info->host;
    a->dummy_page = info->dummy_page;
    for (uint32_t i = 0; i < info->segment_count; i++)
        if (info->segments[i].SegmentId < REF_MAX_SEGMENTS)
            a->segment_base[info->segments[i].SegmentId] = info->segments[i].base;
    *adapter = a;
    return STATUS_SUCCESS;
}

void ref_destroy_adapter(HANDLE adapter) { free(adapter); }

NTSTATUS ref_create_allocation(HANDLE adapter, const pbc_allocation_info *info,
                               HANDLE *allocation)
{
    (void)adapter;
    ref_allocation *r = calloc(1, sizeof(*r));
    if (!r)
        return STATUS_NO_MEMORY;
    r->size = info->size;
    r->flags = info->flags;
    *allocation = r;
    return STATUS_SUCCESS;
}

void ref_destroy_allocation(HANDLE adapter, HANDLE allocation)
{
    (void)adapter;
    free(allocation);
}

const pbc_host *ref_adapter_host(HANDLE adapter) { return &((ref_adapter *)adapter)->host; }

uint64_t ref_allocation_size(HANDLE allocation)
{
    const ref_allocation *r = allocation;
    return r ? r->size : 0;
}

void ref_allocation_reuse(HANDLE allocation, const pbc_allocation_info *info)
{
    ref_allocation *r = allocation;
    r->size = info->size;
    r->flags = info->flags;
}

int ref_allocation_needs_idle(HANDLE allocation)
{
    const ref_allocation *r = allocation;
    return r && (r->flags & PBC_ALLOCATION_NEEDS_IDLE);
}

/* Physical address of byte `offset` (a multiple of REF_CHUNK) of one side
 * of a transfer. TransferOffset applies to segment sides only; the MDL
 * side starts at page MdlOffset (S12-S14). */
static uint64_t ref_side_address(UINT segment_id, LARGE_INTEGER address, const MDL *mdl,
                                 UINT transfer_offset, UINT mdl_offset, uint64_t offset)
{
    if (segment_id != 0)
        return (uint64_t)address.QuadPart + transfer_offset + offset;
    const PFN_NUMBER *pfns = MmGetMdlPfnArray(mdl);
    return (uint64_t)pfns[mdl_offset + offset / REF_CHUNK] << PAGE_SHIFT;
}

static uint32_t ref_chunks(uint64_t size) { return (uint32_t)((size + REF_CHUNK - 1) / REF_CHUNK); }

static uint32_t ref_chunk_size(uint64_t size, uint32_t index)
{
    uint64_t left = size - (uint64_t)index * REF_CHUNK;
    return left < REF_CHUNK ? (uint32_t)left : REF_CHUNK;
}

/* Ends a call: publishes progress and how far the buffer was filled. */
static NTSTATUS ref_finish(DXGKARG_BUILDPAGINGBUFFER *args, const ref_writer *w, uint32_t done,
                           uint32_t total)
{
    args->pDmaBuffer = w->cur;
    args->MultipassOffset = done;
    return done == total ? STATUS_SUCCESS : STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
}

static NTSTATUS ref_copy(DXGKARG_BUILDPAGINGBUFFER *args, ref_writer *w, HANDLE allocation,
                         UINT transfer_offset, SIZE_T size, UINT src_seg, LARGE_INTEGER src_addr,
                         const MDL *src_mdl, UINT dst_seg, LARGE_INTEGER dst_addr,
                         const MDL *dst_mdl, DXGK_TRANSFERFLAGS flags, UINT mdl_offset)
{
    if (ref_allocation_needs_idle(allocation) && !flags.AllocationIsIdle)
        return STATUS_GRAPHICS_ALLOCATION_BUSY; /* nothing written (S22) */
    uint32_t total = ref_chunks(size);
    uint32_t i = args->MultipassOffset;
    for (; i < total && ref_fits(w, REF_LEN_COPY); i++) {
        uint64_t off = (uint64_t)i * REF_CHUNK;
        uint64_t src = ref_side_address(src_seg, src_addr, src_mdl, transfer_offset, mdl_offset, off);
        uint64_t dst = ref_side_address(dst_seg, dst_addr, dst_mdl, transfer_offset, mdl_offset, off);
        w->cur += ref_encode_copy(w->cur, dst, src, ref_chunk_size(size, i));
    }
    return ref_finish(args, w, i, total);
}

static NTSTATUS ref_transfer(DXGKARG_BUILDPAGINGBUFFER *args, ref_writer *w)
{
    const __typeof__(args->Transfer) *t = &args->Transfer;
    return ref_copy(args, w, t->hAllocation, t->TransferOffset, t->TransferSize,
                    t->Source.SegmentId, t->Source.SegmentAddress, t->Source.pMdl,
                    t->Destination.SegmentId, t->Destination.SegmentAddress, t->Destination.pMdl,
                    t->Flags, t->MdlOffset);
}

/* Special-lock transfers have no MdlOffset: an MDL side starts at page 0. */
static NTSTATUS ref_special_lock_transfer(DXGKARG_BUILDPAGINGBUFFER *args, ref_writer *w)
{
    const __typeof__(args->SpecialLockTransfer) *t = &args->SpecialLockTransfer;
    return ref_copy(args, w, t->hAllocation, t->TransferOffset, t->TransferSize,
                    t->Source.SegmentId, t->Source.SegmentAddress, t->Source.pMdl,
                    t->Destination.SegmentId, t->Destination.SegmentAddress, t->Destination.pMdl,
                    t->Flags, 0);
}

static NTSTATUS ref_fill(DXGKARG_BUILDPAGINGBUFFER *args, ref_writer *w)
{
    const __typeof__(args->Fill) *f = &args->Fill;
    uint32_t total = ref_chunks(f->FillSize);
    uint32_t i = args->MultipassOffset;
    for (; i < total && ref_fits(w, REF_LEN_FILL); i++) {
        uint64_t dst = (uint64_t)f->Destination.SegmentAddress.QuadPart + (uint64_t)i * REF_CHUNK;
        w->cur += ref_encode_fill(w->cur, dst, ref_chunk_size(f->FillSize, i), f->FillPattern);
    }
    return ref_finish(args, w, i, total);
}

/* The reference keeps no cached copies, so discarding needs no GPU work;
 * it still honours the idle contract for allocations that need it. */
static NTSTATUS ref_discard(DXGKARG_BUILDPAGINGBUFFER *args, ref_writer *w)
{
    const __typeof__(args->DiscardContent) *d = &args->DiscardContent;
    if (ref_allocation_needs_idle(d->hAllocation) && !d->Flags.AllocationIsIdle)
        return STATUS_GRAPHICS_ALLOCATION_BUSY;
    return ref_finish(args, w, 0, 0);
}

static NTSTATUS ref_read_physical(DXGKARG_BUILDPAGINGBUFFER *args, ref_writer *w)
{
    if (!ref_fits(w, REF_LEN_READ))
        return ref_finish(args, w, 0, 1);
    w->cur += ref_encode_read(w->cur, (uint64_t)args->ReadPhysical.PhysicalAddress.QuadPart, 4);
    return ref_finish(args, w, 1, 1);
}

static NTSTATUS ref_write_physical(DXGKARG_BUILDPAGINGBUFFER *args, ref_writer *w)
{
    if (!ref_fits(w, REF_LEN_WRITE))
        return ref_finish(args, w, 0, 1);
    w->cur += ref_encode_write(w->cur, (uint64_t)args->WritePhysical.PhysicalAddress.QuadPart, 4, 0);
    return ref_finish(args, w, 1, 1);
}

static NTSTATUS ref_map_aperture(DXGKARG_BUILDPAGINGBUFFER *args, ref_writer *w)
{
    const __typeof__(args->MapApertureSegment) *m = &args->MapApertureSegment;
    const PFN_NUMBER *pfns = MmGetMdlPfnArray(m->pMdl);
    uint32_t flags = PBC_GART_VALID | (m->Flags.CacheCoherent ? PBC_GART_CACHE_COHERENT : 0);
    uint32_t total = (uint32_t)m->NumberOfPages;
    uint32_t i = args->MultipassOffset;
    for (; i < total && ref_fits(w, REF_LEN_GART); i++) {
        uint64_t page = (uint64_t)pfns[m->MdlOffset + i] << PAGE_SHIFT;
        w->cur += ref_encode_gart(w->cur, m->SegmentId, (uint32_t)(m->OffsetInPages + i), flags, page);
    }
    return ref_finish(args, w, i, total);
}

/* Page AdlOffset + i of the ADL: BasePageNumber + that when contiguous,
 * else the page array's entry. */
static NTSTATUS ref_map_aperture2(DXGKARG_BUILDPAGINGBUFFER *args, ref_writer *w)
{
    const __typeof__(args->MapApertureSegment2) *m = &args->MapApertureSegment2;
    uint32_t flags = PBC_GART_VALID | (m->Flags.CacheCoherent ? PBC_GART_CACHE_COHERENT : 0);
    uint32_t total = (uint32_t)m->NumberOfPages;
    uint32_t i = args->MultipassOffset;
    for (; i < total && ref_fits(w, REF_LEN_GART); i++) {
        uint64_t n = (uint64_t)m->AdlOffset + i;
        uint64_t pfn = m->Adl.Flags.Contiguous ? m->Adl.BasePageNumber + n : m->Adl.Pages[n];
        w->cur += ref_encode_gart(w->cur, m->SegmentId, (uint32_t)(m->OffsetInPages + i), flags, pfn << PAGE_SHIFT);
    }
    return ref_finish(args, w, i, total);
}

/* Unmapped pages point at the dummy page and stay valid (S33). */
static NTSTATUS ref_unmap_aperture(DXGKARG_BUILDPAGINGBUFFER *args, ref_writer *w)
{
    const __typeof__(args->UnmapApertureSegment) *u = &args->UnmapApertureSegment;
    uint32_t total = (uint32_t)u->NumberOfPages;
    uint32_t i = args->MultipassOffset;
    for (; i < total && ref_fits(w, REF_LEN_GART); i++) {
        w->cur += ref_encode_gart(w->cur, u->SegmentId, (uint32_t)(u->OffsetInPages + i),
                                  PBC_GART_VALID, (uint64_t)u->DummyPage.QuadPart);
    }
    return ref_finish(args, w, i, total);
}

/* ---- GpuMmu: the model GPU's page tables are in DXGK_PTE format ---- */

/* The hardware entry for VidMm's entry: the same 16 bytes, with the leaf
 * page size a level-1 entry points at when Use64KBPages says so. */
static void ref_hw_entry(const DXGK_PTE *in, UINT level, DXGK_UPDATEPAGETABLEFLAGS flags, uint64_t *lo,
                         uint64_t *hi)
{
    DXGK_PTE e = *in;
    if (level == 1 && flags.Use64KBPages)
        e.PageTablePageSize = DXGK_PTE_PAGE_TABLE_PAGE_64KB;
    *lo = e.Flags;
    *hi = e.PageAddress;
}

/* Entry i of the update: with Repeat, entry 0 for every index. */
static const DXGK_PTE *ref_update_entry(const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u, uint32_t i)
{
    return &u->pPageTableEntries[u->Flags.Repeat ? 0 : i];
}

static NTSTATUS ref_update_page_table(const ref_adapter *a, DXGKARG_BUILDPAGINGBUFFER *args, ref_writer *w)
{
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &args->UpdatePageTable;
    uint32_t total = u->NumPageTableEntries;
    uint32_t i = args->MultipassOffset;
    if (u->UpdateMode == DXGK_PAGETABLEUPDATE_CPU_VIRTUAL) {
        /* VidMm sets up tables this way with no paging buffer: the update
         * happens now, through the table's CPU mapping. */
        uint8_t *table = u->PageTableAddress.CpuVirtual;
        for (; i < total; i++) {
            uint64_t lo, hi;
            ref_hw_entry(ref_update_entry(u, i), u->PageTableLevel, u->Flags, &lo, &hi);
            memcpy(table + (uint64_t)(u->StartIndex + i) * sizeof(DXGK_PTE), &lo, 8);
            memcpy(table + (uint64_t)(u->StartIndex + i) * sizeof(DXGK_PTE) + 8, &hi, 8);
        }
        args->MultipassOffset = i;
        return STATUS_SUCCESS;
    }
    int virt = u->UpdateMode == DXGK_PAGETABLEUPDATE_GPU_VIRTUAL;
    uint64_t table = virt ? u->PageTableAddress.GpuVirtual : u->PageTableAddress.GpuPhysical.SegmentOffset;
    UINT segment = u->PageTableAddress.GpuPhysical.SegmentId; /* 0: system memory, the offset is the address */
    if (!virt && segment && segment < REF_MAX_SEGMENTS)
        table += a->segment_base[segment];
    uint64_t lo = 1, hi = 0;
    if (u->Flags.Repeat && i < total)
        ref_hw_entry(ref_update_entry(u, 0), u->PageTableLevel, u->Flags, &lo, &hi);
    if (u->Flags.Repeat && lo == hi && (uint32_t)lo == (uint32_t)(lo >> 32)) {
        /* One dword throughout (VidMm's not-valid entries of a new table):
         * a fill a page of entries long, not a packet per entry, so that a
         * table costs two packets rather than 512. */
        const uint32_t per = REF_CHUNK / sizeof(DXGK_PTE);
        while (i < total && ref_fits(w, REF_LEN_FILL)) {
            uint32_t n = total - i < per ? total - i : per;
            uint8_t *packet = w->cur;
            w->cur += ref_encode_fill(w->cur, table + (uint64_t)(u->StartIndex + i) * sizeof(DXGK_PTE),
                                      n * (uint32_t)sizeof(DXGK_PTE), (uint32_t)lo);
            if (virt)
                ref_set_space(packet, REF_SPACE_DST_VIRTUAL);
            i += n;
        }
        return ref_finish(args, w, i, total);
    }
    for (; i < total && ref_fits(w, REF_LEN_PTE); i++) {
        ref_hw_entry(ref_update_entry(u, i), u->PageTableLevel, u->Flags, &lo, &hi);
        uint8_t *packet = w->cur;
        w->cur += ref_encode_pte(w->cur, table + (uint64_t)(u->StartIndex + i) * sizeof(DXGK_PTE), lo, hi);
        if (virt)
            ref_set_space(packet, REF_SPACE_DST_VIRTUAL);
    }
    return ref_finish(args, w, i, total);
}

/* Both addresses are in the paging process's space and already point at
 * the bytes to move: AllocationOffsetInBytes is not added to them. */
static NTSTATUS ref_transfer_virtual(DXGKARG_BUILDPAGINGBUFFER *args, ref_writer *w)
{
    const DXGK_BUILDPAGINGBUFFER_TRANSFERVIRTUAL *t = &args->TransferVirtual;
    uint32_t total = ref_chunks(t->TransferSizeInBytes);
    uint32_t i = args->MultipassOffset;
    for (; i < total && ref_fits(w, REF_LEN_COPY); i++) {
        uint64_t off = (uint64_t)i * REF_CHUNK;
        uint8_t *packet = w->cur;
        w->cur += ref_encode_copy(w->cur, t->DestinationVirtualAddress + off, t->SourceVirtualAddress + off,
                                  ref_chunk_size(t->TransferSizeInBytes, i));
        ref_set_space(packet, REF_SPACE_DST_VIRTUAL | REF_SPACE_SRC_VIRTUAL);
    }
    return ref_finish(args, w, i, total);
}

static NTSTATUS ref_fill_virtual(DXGKARG_BUILDPAGINGBUFFER *args, ref_writer *w)
{
    const DXGK_BUILDPAGINGBUFFER_FILLVIRTUAL *f = &args->FillVirtual;
    uint32_t total = ref_chunks(f->FillSizeInBytes);
    uint32_t i = args->MultipassOffset;
    for (; i < total && ref_fits(w, REF_LEN_FILL); i++) {
        uint8_t *packet = w->cur;
        w->cur += ref_encode_fill(w->cur, f->DestinationVirtualAddress + (uint64_t)i * REF_CHUNK,
                                  ref_chunk_size(f->FillSizeInBytes, i), f->FillPattern);
        ref_set_space(packet, REF_SPACE_DST_VIRTUAL);
    }
    return ref_finish(args, w, i, total);
}

/* One copy per range, both sides by the tables' GPU virtual addresses:
 * entries of 16 bytes. */
static NTSTATUS ref_copy_page_table_entries(DXGKARG_BUILDPAGINGBUFFER *args, ref_writer *w)
{
    const DXGK_BUILDPAGINGBUFFER_COPYPAGETABLEENTRIES *c = &args->CopyPageTableEntries;
    uint32_t i = args->MultipassOffset;
    for (; i < c->NumRanges && ref_fits(w, REF_LEN_COPY); i++) {
        const DXGK_BUILDPAGINGBUFFER_COPY_RANGE *r = &c->pRanges[i];
        uint8_t *packet = w->cur;
        w->cur += ref_encode_copy(w->cur, r->DstPageTableAddress + (uint64_t)r->DstStartPteIndex * sizeof(DXGK_PTE),
                                  r->SrcPageTableAddress + (uint64_t)r->SrcStartPteIndex * sizeof(DXGK_PTE),
                                  r->NumPageTableEntries * (uint32_t)sizeof(DXGK_PTE));
        ref_set_space(packet, REF_SPACE_DST_VIRTUAL | REF_SPACE_SRC_VIRTUAL);
    }
    return ref_finish(args, w, i, c->NumRanges);
}

/* A write of all 64 bits by the GPU, after everything before it in the
 * buffer. */
static NTSTATUS ref_signal_monitored_fence(DXGKARG_BUILDPAGINGBUFFER *args, ref_writer *w)
{
    if (!ref_fits(w, REF_LEN_WRITE))
        return ref_finish(args, w, 0, 1);
    uint8_t *packet = w->cur;
    w->cur += ref_encode_write(w->cur, args->SignalMonitoredFence.MonitoredFenceGpuVa, 8,
                               args->SignalMonitoredFence.MonitoredFenceValue);
    ref_set_space(packet, REF_SPACE_DST_VIRTUAL);
    return ref_finish(args, w, 1, 1);
}

/* The reference's context image is zeros, written by the GPU: FILL
 * packets over the allocation's size (the driver knows it by hAllocation;
 * the operation does not say it), at SegmentAddress on, or page by page
 * of the MDL, which starts at the allocation's first page. */
static NTSTATUS ref_init_context_resource(DXGKARG_BUILDPAGINGBUFFER *args, ref_writer *w)
{
    const __typeof__(args->InitContextResource.Destination) *d = &args->InitContextResource.Destination;
    uint64_t size = ref_allocation_size(args->InitContextResource.hAllocation);
    uint32_t total = ref_chunks(size);
    uint32_t i = args->MultipassOffset;
    for (; i < total && ref_fits(w, REF_LEN_FILL); i++) {
        uint64_t dst = d->SegmentId ? (uint64_t)d->SegmentAddress.QuadPart + (uint64_t)i * REF_CHUNK
                                    : (uint64_t)MmGetMdlPfnArray(d->pMdl)[i] << PAGE_SHIFT;
        w->cur += ref_encode_fill(w->cur, dst, ref_chunk_size(size, i), 0);
    }
    return ref_finish(args, w, i, total);
}

/* The reference's update: the user-mode driver's private data becomes the
 * head of the context image, a dword at a time through the context's GPU
 * virtual range (as much of it as the range holds). */
static NTSTATUS ref_update_context_allocation(DXGKARG_BUILDPAGINGBUFFER *args, ref_writer *w)
{
    const DXGK_BUILDPAGINGBUFFER_UPDATECONTEXTALLOCATION *u = &args->UpdateContextAllocation;
    uint64_t bytes = u->DriverPrivateDataSize < u->ContextAllocationSize ? u->DriverPrivateDataSize
                                                                         : u->ContextAllocationSize;
    uint32_t total = (uint32_t)(bytes / 4);
    uint32_t i = args->MultipassOffset;
    for (; i < total && ref_fits(w, REF_LEN_WRITE); i++) {
        uint32_t word;
        memcpy(&word, (const uint8_t *)u->pDriverPrivateData + (size_t)i * 4, 4);
        uint8_t *packet = w->cur;
        w->cur += ref_encode_write(w->cur, u->ContextAllocation + (uint64_t)i * 4, 4, word);
        ref_set_space(packet, REF_SPACE_DST_VIRTUAL);
    }
    return ref_finish(args, w, i, total);
}

/* Start = End = 0 flushes the whole space; else [Start, End). */
static NTSTATUS ref_flush_tlb(const ref_adapter *a, DXGKARG_BUILDPAGINGBUFFER *args, ref_writer *w)
{
    const DXGK_BUILDPAGINGBUFFER_FLUSHTLB *f = &args->FlushTlb;
    if (!ref_fits(w, REF_LEN_TLB_FLUSH))
        return ref_finish(args, w, 0, 1);
    uint64_t root = f->RootPageTableAddress.SegmentOffset;
    if (f->RootPageTableAddress.SegmentId && f->RootPageTableAddress.SegmentId < REF_MAX_SEGMENTS)
        root += a->segment_base[f->RootPageTableAddress.SegmentId];
    uint64_t size = f->EndVirtualAddress > f->StartVirtualAddress ? f->EndVirtualAddress - f->StartVirtualAddress : 0;
    w->cur += ref_encode_tlb_flush(w->cur, root, size ? f->StartVirtualAddress : 0, size);
    return ref_finish(args, w, 1, 1);
}

NTSTATUS APIENTRY ref_build_paging_buffer(IN_CONST_HANDLE adapter,
                                          IN_PDXGKARG_BUILDPAGINGBUFFER args)
{
    /* An immediate update comes with no buffer at all (pDmaBuffer NULL). */
    uint8_t *buffer = args->pDmaBuffer;
    ref_writer w = {buffer, buffer ? buffer + args->DmaSize : NULL};
    switch (args->Operation) {
    case DXGK_OPERATION_TRANSFER:
        return ref_transfer(args, &w);
    case DXGK_OPERATION_FILL:
        return ref_fill(args, &w);
    case DXGK_OPERATION_DISCARD_CONTENT:
        return ref_discard(args, &w);
    case DXGK_OPERATION_READ_PHYSICAL:
        return ref_read_physical(args, &w);
    case DXGK_OPERATION_WRITE_PHYSICAL:
        return ref_write_physical(args, &w);
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT:
        return ref_map_aperture(args, &w);
    case DXGK_OPERATION_UNMAP_APERTURE_SEGMENT:
        return ref_unmap_aperture(args, &w);
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT2:
        return ref_map_aperture2(args, &w);
    case DXGK_OPERATION_SPECIAL_LOCK_TRANSFER:
        return ref_special_lock_transfer(args, &w);
    case DXGK_OPERATION_UPDATE_PAGE_TABLE:
        return ref_update_page_table(adapter, args, &w);
    case DXGK_OPERATION_FLUSH_TLB:
        return ref_flush_tlb(adapter, args, &w);
    case DXGK_OPERATION_VIRTUAL_TRANSFER:
        return ref_transfer_virtual(args, &w);
    case DXGK_OPERATION_VIRTUAL_FILL:
        return ref_fill_virtual(args, &w);
    case DXGK_OPERATION_SIGNAL_MONITORED_FENCE:
        return ref_signal_monitored_fence(args, &w);
    case DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES:
        return ref_copy_page_table_entries(args, &w);
    case DXGK_OPERATION_INIT_CONTEXT_RESOURCE:
        return ref_init_context_resource(args, &w);
    case DXGK_OPERATION_UPDATE_CONTEXT_ALLOCATION:
        return ref_update_context_allocation(args, &w);
    case DXGK_OPERATION_NOTIFY_FENCE_RESIDENCY:
    case DXGK_OPERATION_MAP_MMU:
    case DXGK_OPERATION_UNMAP_MMU:
    case DXGK_OPERATION_NOTIFY_RESIDENCY2:
    case DXGK_OPERATION_NOTIFY_ALLOC:
    case DXGK_OPERATION_NOTIFY_RESIDENCY:
        /* The driver's own bookkeeping; the reference keeps none. */
        return ref_finish(args, &w, 0, 0);
    default:
        /* Not in supported_operations: the harness never asks. */
        return STATUS_SUCCESS;
    }
}

/* Reference packets hold physical addresses only: nothing to patch. */
NTSTATUS APIENTRY ref_patch(IN_CONST_HANDLE adapter, const DXGKARG_PATCH *args)
{
    (void)adapter;
    (void)args;
    return STATUS_SUCCESS;
}

/* Executes exactly [start, end) and then writes the fence (S42, S46). */
NTSTATUS APIENTRY ref_submit_command(IN_CONST_HANDLE adapter, const DXGKARG_SUBMITCOMMAND *args)
{
    const pbc_host *h = ref_adapter_host(adapter);
    h->ring_submit(h->ctx, args->DmaBufferSegmentId, (uint64_t)args->DmaBufferPhysicalAddress.QuadPart,
                   args->DmaBufferSubmissionStartOffset, args->DmaBufferSubmissionEndOffset);
    h->ring_fence(h->ctx, args->SubmissionFenceId);
    return STATUS_SUCCESS;
}

const pbc_target pbc_target_reference = {
    REF_TARGET_FIELDS_OPS(REF_OPERATIONS_GPUMMU, "reference", "the reference builder (differential oracle)",
                          REF_MAX_PACKET_BYTES, 0, ref_create_adapter, ref_destroy_adapter, ref_create_allocation,
                          ref_destroy_allocation, ref_build_paging_buffer, ref_patch, ref_submit_command),
};

const pbc_adapter_decl ref_decl_gpu_virtual = {
    .struct_size = sizeof(pbc_adapter_decl),
    .page_table_update = PBC_PT_UPDATE_GPU_VIRTUAL,
};

/* The reference's DxgkCbUpdateContextAllocation data, in its own format:
 * a tag, then the context's size and the size again inverted (its
 * UpdateContextAllocation writes them at the head of the context). */
uint32_t ref_context_update_data(HANDLE adapter, HANDLE allocation, void *buf, uint32_t capacity)
{
    (void)adapter;
    uint64_t size = ref_allocation_size(allocation);
    uint32_t words[4] = {0x55585443u /* "CTXU" */, (uint32_t)size, (uint32_t)(size >> 32), ~(uint32_t)size};
    if (capacity < sizeof(words))
        return 0;
    memcpy(buf, words, sizeof(words));
    return sizeof(words);
}
