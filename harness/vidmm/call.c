/*
 * One BuildPagingBuffer operation through the documented loops:
 * INSUFFICIENT_DMA_BUFFER -> patch and submit the filled part, a fresh
 * buffer, the same arguments (S08, S05); ALLOCATION_BUSY -> wait for the
 * allocation, call again with AllocationIsIdle (S23, S24). Every answer is
 * observed and handed to the rules.
 */
#include "vidmm/vm.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "kernel/shim.h"
#include "spec.h"

/* ---- One BuildPagingBuffer operation ---- */

static const char *vm_status_name(NTSTATUS st)
{
    switch (st) {
    case STATUS_SUCCESS:
        return "SUCCESS";
    case STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER:
        return "INSUFFICIENT_DMA_BUFFER";
    case STATUS_GRAPHICS_ALLOCATION_BUSY:
        return "ALLOCATION_BUSY";
    default:
        return "undocumented";
    }
}

/* An MDL by the scenario's names: "mdl:A", or "mdl:A+3" for a partial
 * MDL starting at the allocation's page 3, never a host address, so that
 * one bug prints the same text in every run and process. */
static void vm_mdl_name(const vm *v, const MDL *m, char *out, size_t n)
{
    for (uint32_t i = 0; i < v->s->alloc_count; i++)
        if (m && (m == v->allocs[i].mdl.mdl || m == v->allocs[i].old_mdl.mdl)) {
            snprintf(out, n, "mdl:%s", v->s->allocs[i].name);
            return;
        }
    for (uint32_t i = 0; i < v->s->alloc_count; i++)
        if (m && m == v->allocs[i].ctx_mdl.mdl) {
            snprintf(out, n, "mdl:%s (its context view)", v->s->allocs[i].name);
            return;
        }
    if (m && m == v->partial_mdl.mdl) {
        snprintf(out, n, "mdl:%s+%u", v->s->allocs[v->partial_alloc].name, v->partial_first);
        return;
    }
    snprintf(out, n, "%s", m ? "mdl:?" : "mdl:NULL");
}

/* VidMm's record of an MDL it handed out, by pointer. */
static const vm_mdl *vm_mdl_of(const vm *v, const MDL *m)
{
    if (!m)
        return NULL;
    for (uint32_t i = 0; i < v->s->alloc_count; i++) {
        if (m == v->allocs[i].mdl.mdl)
            return &v->allocs[i].mdl;
        if (m == v->allocs[i].old_mdl.mdl)
            return &v->allocs[i].old_mdl;
    }
    return m == v->partial_mdl.mdl ? &v->partial_mdl : NULL;
}

/* Segment ranges of the operation's own allocation (where it is, where
 * it goes): a page it shares with another allocation is the builder's to
 * touch, as the CPU's access is known only by the page. */
typedef struct vm_own_ranges {
    uint64_t lo[2], hi[2];
    uint32_t count;
} vm_own_ranges;

static int vm_page_is_own(const vm_own_ranges *own, uint64_t page)
{
    uint64_t lo = page * PBC_PAGE_SIZE, hi = lo + PBC_PAGE_SIZE;
    for (uint32_t k = 0; k < own->count; k++)
        if (own->lo[k] < hi && lo < own->hi[k])
            return 1;
    return 0;
}

/* Whether the CPU run r touched allocation i where it lives now (its
 * MDL's view, or its range of a segment, not counting pages it shares
 * with the operation's own allocation). */
static int vm_access_touches(const vm *v, const pbc_shim_access *r, uint32_t i, const vm_own_ranges *own)
{
    if (r->mdl) /* VidMm's own views (CpuVisibleAddress, VirtualAddress) included */
        return r->mdl == v->allocs[i].mdl.mdl || r->mdl == v->allocs[i].old_mdl.mdl ||
               r->mdl == v->allocs[i].view_mdl.mdl || r->mdl == v->allocs[i].ctx_mdl.mdl ||
               (r->mdl == v->partial_mdl.mdl && v->partial_alloc == i);
    const pbc_res_alloc *ra = &v->rs.a[i];
    if (ra->where != PBC_WHERE_SEGMENT)
        return 0;
    uint64_t base = pbc_vidmm_segment_base(v, ra->at.segment) + ra->at.offset, end = base + v->s->allocs[i].size;
    uint64_t lo = r->phys, hi = r->phys + r->pages * PBC_PAGE_SIZE;
    if (own && own->count) {
        /* Allocations do not overlap, so only the first and last pages of
         * i's part of the run can be shared with the operation's own. */
        uint64_t a = lo > base ? lo : base, z = hi < end ? hi : end;
        if (a >= z)
            return 0;
        uint64_t fp = a / PBC_PAGE_SIZE, lp = (z - 1) / PBC_PAGE_SIZE, pages = lp - fp + 1;
        pages -= (uint64_t)vm_page_is_own(own, fp);
        if (lp != fp)
            pages -= (uint64_t)vm_page_is_own(own, lp);
        if (!pages)
            return 0;
    }
    if (v->physical_watch) {
        /* A physical operation's own page is the builder's to touch: the
         * CPU's access is known by the page, and the page may hold a busy
         * allocation's bytes beside the 8 the operation names. */
        uint64_t page = v->physical_watch->addr & ~(uint64_t)(PBC_PAGE_SIZE - 1);
        if (page >= lo && page < hi)
            return (lo < page && lo < end && base < page) ||
                   (page + PBC_PAGE_SIZE < hi && page + PBC_PAGE_SIZE < end && base < hi);
    }
    return lo < end && base < hi;
}

void pbc_vidmm_note_cpu_physical(vm_physical_op *p, const pbc_shim_access *acc, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++)
        if (!acc[k].mdl && p->addr >= acc[k].phys && p->addr < acc[k].phys + acc[k].pages * PBC_PAGE_SIZE &&
            (!p->write || acc[k].wrote))
            p->cpu_done = 1;
}

/* What the builder's CPU did during the call: a physical operation's
 * address read (or written) through any view counts as its access
 * (PB-PHYSICAL); and an allocation read or
 * written while GPU work on it is queued, without AllocationIsIdle for it,
 * is a hazard (PB-IDLE-HAZARD), through a view made now or kept from
 * long ago. Returns 1 after a finding. */
static int vm_check_views(vm *v, int alloc, int idle, pbc_call_desc *desc)
{
    const pbc_shim_access *acc;
    uint32_t na = pbc_shim_take_accesses(&acc);
    if (v->physical_watch)
        pbc_vidmm_note_cpu_physical(v->physical_watch, acc, na);
    vm_own_ranges own = {.count = 0};
    if (alloc >= 0) {
        const pbc_res_alloc *ra = &v->rs.a[alloc];
        uint64_t size = v->s->allocs[alloc].size;
        if (ra->where == PBC_WHERE_SEGMENT) {
            own.lo[own.count] = pbc_vidmm_segment_base(v, ra->at.segment) + ra->at.offset;
            own.hi[own.count] = own.lo[own.count] + size;
            own.count++;
        }
        const pbc_sop *op = v->op < v->s->op_count ? &v->s->ops[v->op] : NULL;
        if (op && (int)op->alloc == alloc && op->at.segment &&
            (op->kind == PBC_SOP_TRANSFER || op->kind == PBC_SOP_SPECIAL_LOCK || op->kind == PBC_SOP_FILL)) {
            own.lo[own.count] = pbc_vidmm_segment_base(v, op->at.segment) + op->at.offset;
            own.hi[own.count] = own.lo[own.count] + size;
            own.count++;
        }
    }
    for (uint32_t k = 0; k < na; k++)
        for (uint32_t i = 0; i < v->s->alloc_count; i++) {
            if ((int)i == alloc ? !vm_access_touches(v, &acc[k], i, NULL) : !vm_access_touches(v, &acc[k], i, &own))
                continue;
            if (pbc_vidmm_alloc_idle(v, (int)i) || (idle && (int)i == alloc))
                continue;
            VM_RULE(v, pbc_rule_idle_hazard(&v->res->findings, v->op, v->res->calls, desc, v->s->allocs[i].name));
            return 1;
        }
    return 0;
}

/* The first MDL of the operation (VidMm's arguments, not the builder's)
 * that no longer says what VidMm wrote, or NULL. */
static const MDL *vm_changed_mdl(const vm *v, const DXGKARG_BUILDPAGINGBUFFER *canon)
{
    const MDL *m[2] = {NULL, NULL};
    if (canon->Operation == DXGK_OPERATION_TRANSFER || canon->Operation == DXGK_OPERATION_SPECIAL_LOCK_TRANSFER) {
        if (!canon->Transfer.Source.SegmentId)
            m[0] = canon->Transfer.Source.pMdl;
        if (!canon->Transfer.Destination.SegmentId)
            m[1] = canon->Transfer.Destination.pMdl;
    } else if (canon->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT) {
        m[0] = canon->MapApertureSegment.pMdl;
    } else if (canon->Operation == DXGK_OPERATION_INIT_CONTEXT_RESOURCE && !canon->InitContextResource.Destination.SegmentId) {
        m[0] = canon->InitContextResource.Destination.pMdl;
    }
    for (int i = 0; i < 2; i++) {
        const vm_mdl *r = vm_mdl_of(v, m[i]);
        if (r && !pbc_vidmm_mdl_intact(r))
            return m[i];
    }
    return NULL;
}

static void vm_side_name(const vm *v, UINT segment, LONGLONG address, const MDL *m, char *out, size_t n)
{
    if (segment)
        snprintf(out, n, "seg%u:0x%" PRIx64, segment, (uint64_t)address);
    else
        vm_mdl_name(v, m, out, n);
}

static void vm_describe_args(const vm *v, const DXGKARG_BUILDPAGINGBUFFER *a, char *out, size_t n)
{
    switch (a->Operation) {
    case DXGK_OPERATION_TRANSFER:
    case DXGK_OPERATION_SPECIAL_LOCK_TRANSFER: {
        const __typeof__(a->Transfer) *t = &a->Transfer;
        char src[64], dst[64];
        vm_side_name(v, t->Source.SegmentId, t->Source.SegmentAddress.QuadPart, t->Source.pMdl, src, sizeof(src));
        vm_side_name(v, t->Destination.SegmentId, t->Destination.SegmentAddress.QuadPart, t->Destination.pMdl,
                     dst, sizeof(dst));
        snprintf(out, n, "%s TransferOffset=0x%x TransferSize=0x%" PRIx64 " Source=%s Destination=%s "
                 "Flags=0x%x MdlOffset=%u",
                 a->Operation == DXGK_OPERATION_TRANSFER ? "Transfer" : "SpecialLockTransfer",
                 t->TransferOffset, (uint64_t)t->TransferSize, src, dst, t->Flags.Value,
                 a->Operation == DXGK_OPERATION_TRANSFER ? t->MdlOffset : 0);
        break;
    }
    case DXGK_OPERATION_FILL:
        snprintf(out, n, "Fill FillSize=0x%" PRIx64 " FillPattern=0x%08x Destination=seg%u:0x%" PRIx64,
                 (uint64_t)a->Fill.FillSize, a->Fill.FillPattern, a->Fill.Destination.SegmentId,
                 (uint64_t)a->Fill.Destination.SegmentAddress.QuadPart);
        break;
    case DXGK_OPERATION_DISCARD_CONTENT:
        snprintf(out, n, "DiscardContent Flags=0x%x SegmentId=%u SegmentAddress=0x%" PRIx64,
                 a->DiscardContent.Flags.Value, a->DiscardContent.SegmentId,
                 (uint64_t)a->DiscardContent.SegmentAddress.QuadPart);
        break;
    case DXGK_OPERATION_READ_PHYSICAL:
    case DXGK_OPERATION_WRITE_PHYSICAL:
        snprintf(out, n, "%s SegmentId=%u PhysicalAddress=0x%" PRIx64,
                 a->Operation == DXGK_OPERATION_READ_PHYSICAL ? "ReadPhysical" : "WritePhysical",
                 a->ReadPhysical.SegmentId, (uint64_t)a->ReadPhysical.PhysicalAddress.QuadPart);
        break;
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT:
    {
        char mdl[64];
        vm_mdl_name(v, a->MapApertureSegment.pMdl, mdl, sizeof(mdl));
        snprintf(out, n, "MapApertureSegment SegmentId=%u OffsetInPages=%" PRIu64
                 " NumberOfPages=%" PRIu64 " pMdl=%s MdlOffset=%u Flags=0x%x",
                 a->MapApertureSegment.SegmentId, (uint64_t)a->MapApertureSegment.OffsetInPages,
                 (uint64_t)a->MapApertureSegment.NumberOfPages, mdl, a->MapApertureSegment.MdlOffset,
                 a->MapApertureSegment.Flags.Value);
    }
        break;
    case DXGK_OPERATION_UPDATE_PAGE_TABLE: {
        const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &a->UpdatePageTable;
        char where[48];
        if (u->UpdateMode == DXGK_PAGETABLEUPDATE_CPU_VIRTUAL)
            snprintf(where, sizeof(where), "CpuVirtual"); /* a host pointer: never printed */
        else if (u->UpdateMode == DXGK_PAGETABLEUPDATE_GPU_VIRTUAL)
            snprintf(where, sizeof(where), "GpuVirtual=0x%" PRIx64, (uint64_t)u->PageTableAddress.GpuVirtual);
        else
            snprintf(where, sizeof(where), "GpuPhysical=seg%u:0x%" PRIx64, u->PageTableAddress.GpuPhysical.SegmentId,
                     (uint64_t)u->PageTableAddress.GpuPhysical.SegmentOffset);
        snprintf(out, n, "UpdatePageTable PageTableLevel=%u %s StartIndex=%u NumPageTableEntries=%u%s%s%s",
                 u->PageTableLevel, where, u->StartIndex, u->NumPageTableEntries, u->Flags.Repeat ? " Repeat" : "",
                 u->Flags.InitialUpdate ? " InitialUpdate" : "", u->Flags.Use64KBPages ? " Use64KBPages" : "");
        break;
    }
    case DXGK_OPERATION_FLUSH_TLB:
        snprintf(out, n, "FlushTlb Root=0x%" PRIx64 " [0x%" PRIx64 ", 0x%" PRIx64 ")",
                 (uint64_t)a->FlushTlb.RootPageTableAddress.SegmentOffset, (uint64_t)a->FlushTlb.StartVirtualAddress,
                 (uint64_t)a->FlushTlb.EndVirtualAddress);
        break;
    case DXGK_OPERATION_VIRTUAL_TRANSFER:
        snprintf(out, n, "TransferVirtual AllocationOffsetInBytes=0x%" PRIx64 " TransferSizeInBytes=0x%" PRIx64
                 " Source=0x%" PRIx64 " Destination=0x%" PRIx64 " TransferDirection=%u",
                 (uint64_t)a->TransferVirtual.AllocationOffsetInBytes, (uint64_t)a->TransferVirtual.TransferSizeInBytes,
                 (uint64_t)a->TransferVirtual.SourceVirtualAddress,
                 (uint64_t)a->TransferVirtual.DestinationVirtualAddress, (unsigned)a->TransferVirtual.TransferDirection);
        break;
    case DXGK_OPERATION_VIRTUAL_FILL:
        snprintf(out, n, "FillVirtual FillSizeInBytes=0x%" PRIx64 " FillPattern=0x%08x Destination=0x%" PRIx64,
                 (uint64_t)a->FillVirtual.FillSizeInBytes, a->FillVirtual.FillPattern,
                 (uint64_t)a->FillVirtual.DestinationVirtualAddress);
        break;
    case DXGK_OPERATION_SIGNAL_MONITORED_FENCE:
        snprintf(out, n, "SignalMonitoredFence MonitoredFenceGpuVa=0x%" PRIx64 " MonitoredFenceValue=0x%" PRIx64,
                 (uint64_t)a->SignalMonitoredFence.MonitoredFenceGpuVa,
                 (uint64_t)a->SignalMonitoredFence.MonitoredFenceValue);
        break;
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT2:
        snprintf(out, n, "MapApertureSegment2 SegmentId=%u OffsetInPages=%" PRIu64 " NumberOfPages=%" PRIu64
                 " Adl=%s(%u pages) AdlOffset=%u Flags=0x%x",
                 a->MapApertureSegment2.SegmentId, (uint64_t)a->MapApertureSegment2.OffsetInPages,
                 (uint64_t)a->MapApertureSegment2.NumberOfPages,
                 a->MapApertureSegment2.Adl.Flags.Contiguous ? "contiguous" : "page-array",
                 a->MapApertureSegment2.Adl.PageCount, (unsigned)a->MapApertureSegment2.AdlOffset,
                 a->MapApertureSegment2.Flags.Value);
        /* A host pointer: said to be there, never printed. */
        snprintf(out + strlen(out), n - strlen(out), " CpuVisibleAddress=%s",
                 a->MapApertureSegment2.CpuVisibleAddress ? "a view" : "NULL");
        break;
    case DXGK_OPERATION_INIT_CONTEXT_RESOURCE: {
        const __typeof__(a->InitContextResource.Destination) *d = &a->InitContextResource.Destination;
        char dst[64];
        vm_side_name(v, d->SegmentId, d->SegmentAddress.QuadPart, d->pMdl, dst, sizeof(dst));
        snprintf(out, n, "InitContextResource Destination=%s VirtualAddress=%s GpuVirtualAddress=0x%" PRIx64, dst,
                 d->VirtualAddress ? "a view" : "NULL", (uint64_t)d->GpuVirtualAddress);
        break;
    }
    case DXGK_OPERATION_UPDATE_CONTEXT_ALLOCATION:
        snprintf(out, n, "UpdateContextAllocation ContextAllocation=0x%" PRIx64 " ContextAllocationSize=0x%" PRIx64
                 " DriverPrivateDataSize=%u", (uint64_t)a->UpdateContextAllocation.ContextAllocation,
                 (uint64_t)a->UpdateContextAllocation.ContextAllocationSize,
                 a->UpdateContextAllocation.DriverPrivateDataSize);
        break;
    case DXGK_OPERATION_NOTIFY_RESIDENCY:
        snprintf(out, n, "NotifyResidency PhysicalAddress=seg%u:0x%" PRIx64 " Resident=%u",
                 a->NotifyResidency.PhysicalAddress.SegmentId, (uint64_t)a->NotifyResidency.PhysicalAddress.SegmentOffset,
                 (unsigned)a->NotifyResidency.Resident);
        break;
    case DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES:
        snprintf(out, n, "CopyPageTableEntries NumRanges=%u", a->CopyPageTableEntries.NumRanges);
        break;
    case DXGK_OPERATION_UNMAP_APERTURE_SEGMENT:
        snprintf(out, n, "UnmapApertureSegment SegmentId=%u OffsetInPages=%" PRIu64
                 " NumberOfPages=%" PRIu64 " DummyPage=0x%" PRIx64,
                 a->UnmapApertureSegment.SegmentId, (uint64_t)a->UnmapApertureSegment.OffsetInPages,
                 (uint64_t)a->UnmapApertureSegment.NumberOfPages,
                 (uint64_t)a->UnmapApertureSegment.DummyPage.QuadPart);
        break;
    default:
        snprintf(out, n, "operation %u", (unsigned)a->Operation);
        break;
    }
}

/* A call's arguments as VidMm handed them, described on demand. */
typedef struct vm_desc {
    pbc_call_desc base;
    const vm *v;
    DXGKARG_BUILDPAGINGBUFFER args;
    char text[400]; /* "" until asked for */
} vm_desc;

static const char *vm_desc_text(pbc_call_desc *d)
{
    vm_desc *x = (vm_desc *)d;
    if (!x->text[0])
        vm_describe_args(x->v, &x->args, x->text, sizeof(x->text));
    return x->text;
}

static void vm_desc_init(vm_desc *d, const vm *v, const DXGKARG_BUILDPAGINGBUFFER *a)
{
    d->base.text = vm_desc_text;
    d->v = v;
    d->args = *a;
    d->text[0] = '\0';
}

void pbc_vidmm_spec_sink(void *ctx, const pbc_uop *uop)
{
    vm *v = ctx;
    v->gpu->cur.writer = PBC_WRITER_SPEC;
    pbc_gpu_exec_uop(v->gpu, uop);
    v->gpu->cur.writer = PBC_WRITER_NONE;
}

/* Observes one BuildPagingBuffer answer and hands it to the rules.
 * Returns bytes written, or -1 after a finding. */
static int64_t vm_check_call(vm *v, const DXGKARG_BUILDPAGINGBUFFER *canon, const DXGKARG_BUILDPAGINGBUFFER *a,
                             NTSTATUS st, const uint8_t *before, const uint8_t *priv_before, int was_idle,
                             int busy_allowed, pbc_call_desc *desc)
{
    char mdl_name[64] = "";
    const MDL *changed = vm_changed_mdl(v, canon);
    if (changed)
        vm_mdl_name(v, changed, mdl_name, sizeof(mdl_name));
    vm_buffer *b = &v->buf;
    const uint8_t *now = a->pDmaBuffer;
    const uint8_t *pnow = a->pDmaBufferPrivateData;
    pbc_call_facts c = {
        .op = v->op,
        .call = v->res->calls,
        .desc = desc,
        .buffer = b->id,
        .buffer_size = b->size,
        .offset_in = (uint32_t)(before - b->host),
        .offset_out = (int64_t)((intptr_t)now - (intptr_t)b->host),
        .mdl_changed = changed ? mdl_name : NULL,
        .wrote_outside_private = !pbc_vidmm_is_poison(v->priv_mem, VM_PRIV_GUARD) ||
                                 !pbc_vidmm_is_poison(b->priv + b->priv_size, VM_PRIV_GUARD),
        .private_out_of_range = pnow < priv_before || pnow > b->priv + b->priv_size,
        .private_advanced = pnow != priv_before,
        .status = st,
        .was_idle = was_idle,
        .busy_allowed = busy_allowed,
        .min_dma_size = v->t->min_dma_size,
    };
    /* Bytes earlier calls wrote into this buffer and its private data, not
     * yet submitted, are below the pointers: outside what this call was
     * given (S03, S04). Submitted bytes are PB-DMA-SUBMITTED's, judged when
     * the GPU fetches them. */
    pbc_vidmm_buffer_judge_call(v, now, &c.wrote_outside, &c.wrote_past_return);
    c.wrote_outside_private |= XXH3_64bits(b->priv + b->priv_submitted, b->priv_write - b->priv_submitted) !=
                               v->priv_written_hash;
    pbc_findings *f = &v->res->findings;
    if (pbc_rule_dma_overrun(f, &c) || pbc_rule_dma_advance(f, &c) || pbc_rule_status_build(f, &c) ||
        pbc_rule_busy_idle(f, &c) || pbc_rule_busy_consumed(f, &c) || pbc_rule_no_progress(f, &c))
        return v->stop = 1, -1;
    pbc_vidmm_buffer_end_call(v);
    return now - before;
}

/* Pages of work in an operation: a builder that needs the smallest buffer
 * for each page is entitled to about one call per page (S07). */
static uint64_t vm_op_pages(const DXGKARG_BUILDPAGINGBUFFER *a)
{
    switch (a->Operation) {
    case DXGK_OPERATION_TRANSFER:
        return a->Transfer.TransferSize / 4096 + 1;
    case DXGK_OPERATION_SPECIAL_LOCK_TRANSFER:
        return a->SpecialLockTransfer.TransferSize / 4096 + 1;
    case DXGK_OPERATION_FILL:
        return a->Fill.FillSize / 4096 + 1;
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT:
        return a->MapApertureSegment.NumberOfPages;
    case DXGK_OPERATION_UNMAP_APERTURE_SEGMENT:
        return a->UnmapApertureSegment.NumberOfPages;
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT2:
        return a->MapApertureSegment2.NumberOfPages;
    case DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES:
        return a->CopyPageTableEntries.NumRanges;
    case DXGK_OPERATION_UPDATE_PAGE_TABLE:
        return a->UpdatePageTable.NumPageTableEntries;
    case DXGK_OPERATION_VIRTUAL_TRANSFER:
        return a->TransferVirtual.TransferSizeInBytes / 4096 + 1;
    case DXGK_OPERATION_VIRTUAL_FILL:
        return a->FillVirtual.FillSizeInBytes / 4096 + 1;
    case DXGK_OPERATION_UPDATE_CONTEXT_ALLOCATION:
        return a->UpdateContextAllocation.ContextAllocationSize / 4096 + 1;
    default:
        return 1;
    }
}

/* A fresh buffer's answer after INSUFFICIENT_DMA_BUFFER: status, progress
 * in and out, and the bytes written. */
static uint64_t vm_answer_hash(NTSTATUS st, uint32_t mpo_in, uint32_t mpo_out, const uint8_t *p, int64_t n)
{
    uint64_t h = XXH3_64bits(p, n > 0 ? (size_t)n : 0);
    uint64_t words[2] = {(uint64_t)(uint32_t)st << 32 | mpo_in, mpo_out};
    return XXH3_64bits_withSeed(words, sizeof(words), h);
}

static void vm_paging_op_calls(vm *v, DXGKARG_BUILDPAGINGBUFFER *a, int alloc, UINT *idle_flags, UINT idle_bit);

/* VidMm's arrays that an operation points at (UpdatePageTable's entries,
 * CopyPageTableEntries' ranges, an ADL's page array) are its own, for the
 * duration of a call: a DDI's arguments are the caller's outside it. VidMm hands them from
 * one buffer it reuses for every operation, lays it before each call and
 * scribbles it when the call returns, so a builder that keeps the pointer
 * and reads through it later (a worker reading its argument record after
 * the call instead of copying the array at build time) reads garbage,
 * every time, and writes it (PB-PTE), rather than whatever happened to be
 * there. The buffer grows to what the operation names, however large. */
#define VM_ARRAY_SCRIBBLE 0xA5u

/* The operation's array laid into VidMm's buffer, for a call or for
 * VidMm's own reading of it; and scribbled again when that is done. */
static void vm_arr_lay(vm *v)
{
    if (v->arr_bytes)
        memcpy(v->arr, v->arr_from, v->arr_bytes);
}

static void vm_arr_scribble(vm *v)
{
    if (v->arr_bytes)
        memset(v->arr, VM_ARRAY_SCRIBBLE, v->arr_bytes);
}

/* Points the operation's array at VidMm's buffer (laid at each call). */
static void *vm_op_array(vm *v, const void *from, size_t bytes)
{
    if (bytes > v->arr_cap) {
        if (v->arr)
            PBC_PUSH(v->arr_old, v->arr_old_count, v->arr_old_cap, v->arr);
        v->arr = pbc_xmalloc(bytes);
        v->arr_cap = bytes;
    }
    v->arr_from = from;
    v->arr_bytes = bytes;
    vm_arr_scribble(v);
    return v->arr;
}

/* Issues one DDI operation until it completes: the documented loops.
 * idle_flags, when the operation has AllocationIsIdle (S21-S24), points at
 * its flags word inside *a, idle_bit being the flag. */
void pbc_vidmm_paging_op(vm *v, DXGKARG_BUILDPAGINGBUFFER *a, int alloc, UINT *idle_flags, UINT idle_bit)
{
    size_t bytes = 0;
    if (a->Operation == DXGK_OPERATION_UPDATE_PAGE_TABLE && a->UpdatePageTable.pPageTableEntries) {
        bytes = (a->UpdatePageTable.Flags.Repeat ? 1 : a->UpdatePageTable.NumPageTableEntries) * sizeof(DXGK_PTE);
        if (bytes)
            a->UpdatePageTable.pPageTableEntries = vm_op_array(v, a->UpdatePageTable.pPageTableEntries, bytes);
    } else if (a->Operation == DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES && a->CopyPageTableEntries.pRanges) {
        bytes = a->CopyPageTableEntries.NumRanges * sizeof(DXGK_BUILDPAGINGBUFFER_COPY_RANGE);
        if (bytes)
            a->CopyPageTableEntries.pRanges = vm_op_array(v, a->CopyPageTableEntries.pRanges, bytes);
    } else if (a->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT2 && !a->MapApertureSegment2.Adl.Flags.Contiguous &&
               a->MapApertureSegment2.Adl.Pages) {
        bytes = (size_t)a->MapApertureSegment2.Adl.PageCount * sizeof(DXGK_PAGE_NUMBER);
        if (bytes)
            a->MapApertureSegment2.Adl.Pages = vm_op_array(v, a->MapApertureSegment2.Adl.Pages, bytes);
    }
    vm_paging_op_calls(v, a, alloc, idle_flags, idle_bit);
    v->arr_bytes = 0;
}

/* Whether the GPU has yet to run paging work VidMm built for allocation i. */
static int vm_paging_queued(const vm *v, uint32_t i)
{
    const vm_alloc *a = &v->allocs[i];
    return a->work_op && (a->in_pending || !pbc_gpu_engine_done(v->gpu, PBC_ENGINE_PAGING, a->paging_until));
}

/* pbc_vidmm_facts of the operation about to be issued for alloc (-1:
 * none), from the scenario operation and the residency tracker's state
 * before it. */
static void vm_facts(vm *v, int alloc, pbc_vidmm_facts *f)
{
    const pbc_sop *o = &v->s->ops[v->op];
    /* As the scenario operation began: its own first paging operations
     * (VidMm's windows for a virtual transfer, earlier parts of a split
     * one) queue work too. */
    if (alloc >= 0 && v->allocs[alloc].facts_op != v->op + 1) {
        vm_alloc *a = &v->allocs[alloc];
        a->facts_op = v->op + 1;
        a->facts_queued = a->work_op && a->work_op != v->op + 1 && vm_paging_queued(v, (uint32_t)alloc);
    }
    f->alloc_queued = alloc >= 0 && v->allocs[alloc].facts_queued;
    uint64_t lo = o->at.offset, size = 0;
    if ((o->kind == PBC_SOP_TRANSFER || o->kind == PBC_SOP_SPECIAL_LOCK || o->kind == PBC_SOP_FILL) && alloc >= 0)
        size = v->s->allocs[alloc].size;
    else if (o->kind == PBC_SOP_WRITE_PHYSICAL)
        size = 8;
    for (uint32_t j = 0; size && o->at.segment && j < v->s->alloc_count && !f->vacated_queued; j++) {
        const pbc_place *left = &v->rs.a[j].left;
        f->vacated_queued = (int)j != alloc && left->segment == o->at.segment && left->offset < lo + size &&
                            lo < left->offset + v->s->allocs[j].size && vm_paging_queued(v, j);
    }
}

static void vm_paging_op_calls(vm *v, DXGKARG_BUILDPAGINGBUFFER *a, int alloc, UINT *idle_flags, UINT idle_bit)
{
    vm_desc desc;
    if (v->opt.mode == PBC_MODE_SPEC) {
        vm_arr_lay(v);
        pbc_spec_apply(a, pbc_vidmm_spec_sink, v);
        return;
    }
    /* VidMm's own copy: the builder may change what it is handed, but every
     * call sees the arguments as VidMm set them, and VidMm's decisions never
     * read builder-writable memory. Only MultipassOffset is the builder's
     * (S05): VidMm hands back what the builder left there. */
    const DXGKARG_BUILDPAGINGBUFFER canon = *a;
    if (v->mfence_page) { /* what it is to produce, should CPU work pend when the fence is reached */
        vm_arr_lay(v); /* the ranges of a CopyPageTableEntries say where it writes */
        pbc_vidmm_effects_note(v, &canon, alloc);
        vm_arr_scribble(v);
    }
    pbc_vidmm_facts facts = {0};
    if (v->opt.observe)
        vm_facts(v, alloc, &facts);
    size_t idle_at = idle_flags ? (size_t)((uint8_t *)idle_flags - (uint8_t *)a) : 0;
    int idle = idle_flags && pbc_vidmm_alloc_idle(v, alloc);
    uint32_t mpo = 0;
    /* The default budget grows with the work, so that only a builder that
     * stops making progress runs out of it: a legal builder may move as
     * little as a block of the work per call with the smallest buffer
     * (variant-inline-data fills 256 bytes per call), and the work of an
     * operation on an allocation may be all of it (variant-discard-scribble
     * fills what DiscardContent discards). */
    uint64_t pages = vm_op_pages(&canon);
    if (alloc >= 0 && pbc_alloc_pages(&v->s->allocs[alloc]) > pages) /* a discard may rewrite it all */
        pages = pbc_alloc_pages(&v->s->allocs[alloc]);
    uint64_t budget = v->opt.call_budget ? v->opt.call_budget
                                         : PBC_DEFAULT_CALL_BUDGET + PBC_CALL_BUDGET_PER_PAGE * pages;
    /* After INSUFFICIENT, a fresh buffer answered exactly as the previous
     * fresh buffer was (same bytes, same progress in and out) means the
     * builder resumed from where it resumed before: no progress (S09). */
    uint64_t last_fresh = 0;
    int have_fresh = 0, after_insufficient = 0, uses_mpo = 0;
    for (uint32_t calls = 0; !v->stop; calls++) {
        if (calls >= budget) {
            vm_desc_init(&desc, v, &canon);
            VM_RULE(v, pbc_rule_livelock_budget(&v->res->findings, v->op, &desc.base, budget, calls));
            return;
        }
        if (!v->have_buf)
            pbc_vidmm_acquire_buffer(v);
        vm_buffer *b = &v->buf;
        uint8_t *before = b->host + b->write_off;
        uint8_t *priv_before = b->priv + b->priv_write;
        *a = canon;
        if (idle_flags) {
            UINT *flags = (UINT *)((uint8_t *)a + idle_at);
            *flags = idle ? *flags | idle_bit : *flags & ~idle_bit;
        }
        a->MultipassOffset = mpo;
        a->pDmaBuffer = before;
        a->DmaSize = b->size - b->write_off; /* S04 */
        a->pDmaBufferPrivateData = priv_before;
        a->DmaBufferPrivateDataSize = b->priv_size - b->priv_write;
        a->hSystemContext = VM_FAKE_SYSTEM_CONTEXT;
        a->DmaBufferGpuVirtualAddress = b->phys; /* paged at its physical address (S10) */
        a->DmaBufferWriteOffset = b->write_off;   /* S10 */
        int fresh = after_insufficient && b->write_off == 0;
        uint32_t dma_in = b->size - b->write_off;
        pbc_vidmm_buffer_begin_call(v);
        v->priv_written_hash = XXH3_64bits(b->priv + b->priv_submitted, b->priv_write - b->priv_submitted);
        vm_desc_init(&desc, v, a);
        v->res->calls++;
        const pbc_shim_access *earlier;
        pbc_shim_take_accesses(&earlier); /* only this call's accesses count */
        v->gpu->cpu = (pbc_prov){.call = v->res->calls, .op = v->op};
        vm_arr_lay(v); /* before anything reads the call's arguments */
        if (v->opt.observe) {
            facts.buffer_place = !v->buf.segment ? PBC_VIDMM_BUFFER_SYSTEM
                                 : v->buf.phys >= (4ull << 30) ? PBC_VIDMM_BUFFER_SEGMENT_HIGH
                                                                : PBC_VIDMM_BUFFER_SEGMENT_LOW;
            v->opt.observe(v->opt.observe_ctx, a, &facts);
        }
        NTSTATUS st = pbc_shim_call_build(v->t, v->adapter, a);
        vm_arr_scribble(v);
        pbc_vidmm_fence_poll(v);
        const char *assert_msg;
        if (pbc_shim_take_asserts(&assert_msg)) {
            VM_RULE(v, pbc_rule_assert(&v->res->findings, v->op, v->res->calls, &desc.base, assert_msg));
            return;
        }
        if (pbc_vidmm_kernel_check(v, "BuildPagingBuffer"))
            return;
        int64_t written = vm_check_call(v, &canon, a, st, before, priv_before, idle, idle_flags != NULL, &desc.base);
        if (written >= 0 && vm_check_views(v, alloc, idle, &desc.base))
            return;
        uint32_t mpo_out = a->MultipassOffset;
        if (v->opt.trace)
            pbc_vidmm_trace(v, "  call %u: %s DmaSize=0x%x MultipassOffset=%u -> %s (0x%08x), wrote %" PRId64
                            " bytes, MultipassOffset=%u", v->res->calls, vm_desc_text(&desc.base), dma_in, mpo,
                            vm_status_name(st), (uint32_t)st, written < 0 ? 0 : written, mpo_out);
        if (written < 0)
            return;
        uses_mpo |= mpo_out != 0;
        /* Only for a builder that keeps its progress in MultipassOffset: one
         * that keeps it elsewhere may emit the same bytes at two points of
         * its work, and only the call budget can judge it. */
        if (fresh && uses_mpo) {
            uint64_t answer = vm_answer_hash(st, mpo, mpo_out, before, written);
            if (pbc_rule_livelock_repeat(&v->res->findings, v->op, &desc.base, b->size, mpo,
                                         have_fresh && answer == last_fresh)) {
                v->stop = 1;
                return;
            }
            last_fresh = answer;
            have_fresh = 1;
        }
        mpo = mpo_out;
        if (written) {
            pbc_write_rec w = {b->id, b->write_off, b->write_off + (uint32_t)written, v->op, v->sub,
                               v->pass, v->res->calls};
            PBC_PUSH(v->res->writes, v->res->write_count, v->res->write_cap, w);
            if (alloc >= 0) {
                v->allocs[alloc].in_pending = 1;
                v->allocs[alloc].work_op = v->op + 1;
            }
            else
                v->pending_global = 1;
        }
        b->write_off += (uint32_t)written;
        b->priv_write = (uint32_t)((const uint8_t *)a->pDmaBufferPrivateData - b->priv);
        if (st == STATUS_SUCCESS)
            break;
        after_insufficient = st == STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
        if (st == STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER) {
            v->res->insufficient++;
            pbc_vidmm_flush(v);
            v->have_buf = 0; /* S08: a new buffer, the same arguments */
            v->pass++;
        } else {
            v->res->busy_retries++;
            pbc_vidmm_wait_idle(v, alloc);
            idle = 1; /* S23 */
        }
    }
    *a = canon; /* what the caller set, for what it does next */
}
