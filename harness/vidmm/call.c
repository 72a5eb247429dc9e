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

static void vm_describe_args(const DXGKARG_BUILDPAGINGBUFFER *a, char *out, size_t n)
{
    switch (a->Operation) {
    case DXGK_OPERATION_TRANSFER:
    case DXGK_OPERATION_SPECIAL_LOCK_TRANSFER: {
        const __typeof__(a->Transfer) *t = &a->Transfer;
        snprintf(out, n, "%s TransferOffset=0x%x TransferSize=0x%" PRIx64
                 " Source=%s0x%" PRIx64 " Destination=%s0x%" PRIx64 " Flags=0x%x MdlOffset=%u",
                 a->Operation == DXGK_OPERATION_TRANSFER ? "Transfer" : "SpecialLockTransfer",
                 t->TransferOffset, (uint64_t)t->TransferSize,
                 t->Source.SegmentId ? "seg:" : "mdl:",
                 t->Source.SegmentId ? (uint64_t)t->Source.SegmentAddress.QuadPart : (uint64_t)(uintptr_t)t->Source.pMdl,
                 t->Destination.SegmentId ? "seg:" : "mdl:",
                 t->Destination.SegmentId ? (uint64_t)t->Destination.SegmentAddress.QuadPart
                                          : (uint64_t)(uintptr_t)t->Destination.pMdl,
                 t->Flags.Value, a->Operation == DXGK_OPERATION_TRANSFER ? t->MdlOffset : 0);
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
        snprintf(out, n, "MapApertureSegment SegmentId=%u OffsetInPages=%" PRIu64
                 " NumberOfPages=%" PRIu64 " MdlOffset=%u Flags=0x%x",
                 a->MapApertureSegment.SegmentId, (uint64_t)a->MapApertureSegment.OffsetInPages,
                 (uint64_t)a->MapApertureSegment.NumberOfPages, a->MapApertureSegment.MdlOffset,
                 a->MapApertureSegment.Flags.Value);
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

static void vm_spec_sink(void *ctx, const pbc_uop *uop)
{
    vm *v = ctx;
    v->gpu->cur.writer = PBC_WRITER_SPEC;
    pbc_gpu_exec_uop(v->gpu, uop);
    v->gpu->cur.writer = PBC_WRITER_NONE;
}

/* Observes one BuildPagingBuffer answer and hands it to the rules.
 * Returns bytes written, or -1 after a finding. */
static int64_t vm_check_call(vm *v, const DXGKARG_BUILDPAGINGBUFFER *a, NTSTATUS st,
                             const uint8_t *before, const uint8_t *priv_before, int was_idle,
                             const char *desc)
{
    vm_buffer *b = &v->buf;
    const uint8_t *end = b->host + b->size;
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
        .wrote_outside = !pbc_vm_is_poison(b->host - PBC_PAGE_SIZE, PBC_PAGE_SIZE) ||
                         !pbc_vm_is_poison(end, (size_t)(b->span - b->size) + PBC_PAGE_SIZE),
        .wrote_outside_private = !pbc_vm_is_poison(v->priv_mem, VM_PRIV_GUARD) ||
                                 !pbc_vm_is_poison(b->priv + b->priv_size, VM_PRIV_GUARD),
        .private_out_of_range = pnow < priv_before || pnow > b->priv + b->priv_size,
        .private_advanced = pnow != priv_before,
        .status = st,
        .was_idle = was_idle,
        .min_dma_size = v->t->min_dma_size,
    };
    pbc_findings *f = &v->res->findings;
    if (pbc_rule_dma_overrun(f, &c))
        return v->stop = 1, -1;
    /* Only a pointer inside the buffer may be read through. */
    if (now >= before && now <= end)
        c.wrote_past_return = !pbc_vm_is_poison(now, (size_t)(end - now));
    if (pbc_rule_dma_advance(f, &c) || pbc_rule_status_build(f, &c) || pbc_rule_busy_idle(f, &c) ||
        pbc_rule_busy_consumed(f, &c) || pbc_rule_no_progress(f, &c))
        return v->stop = 1, -1;
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
    default:
        return 1;
    }
}

/* Issues one DDI operation until it completes: the documented loops. */
void pbc_vm_paging_op(vm *v, DXGKARG_BUILDPAGINGBUFFER *a, int alloc, UINT *idle_flags,
                         UINT idle_bit)
{
    char desc[320];
    if (v->opt.mode == PBC_MODE_SPEC) {
        pbc_spec_apply(a, vm_spec_sink, v);
        return;
    }
    if (idle_flags && pbc_vm_alloc_idle(v, alloc))
        *idle_flags |= idle_bit;
    a->MultipassOffset = 0; /* S05 */
    /* The default budget grows with the work, so that only a builder that
     * stops making progress runs out of it. */
    uint64_t budget = v->opt.call_budget ? v->opt.call_budget
                                         : PBC_DEFAULT_CALL_BUDGET + 2 * vm_op_pages(a);
    /* After INSUFFICIENT, a fresh buffer with the MultipassOffset of the
     * previous fresh-buffer call repeats identical inputs: no progress can
     * ever follow (S09), so that is a livelock without spending the budget. */
    uint32_t last_fresh_mpo = UINT32_MAX;
    int after_insufficient = 0;
    for (uint32_t calls = 0; !v->stop; calls++) {
        if (calls >= budget) {
            vm_describe_args(a, desc, sizeof(desc));
            VM_RULE(v, pbc_rule_livelock_budget(&v->res->findings, v->op, desc, budget, calls));
            return;
        }
        if (!v->have_buf)
            pbc_vm_acquire_buffer(v);
        vm_buffer *b = &v->buf;
        uint8_t *before = b->host + b->write_off;
        uint8_t *priv_before = b->priv + b->priv_write;
        a->pDmaBuffer = before;
        a->DmaSize = b->size - b->write_off; /* S04 */
        a->pDmaBufferPrivateData = priv_before;
        a->DmaBufferPrivateDataSize = b->priv_size - b->priv_write;
        a->hSystemContext = VM_FAKE_SYSTEM_CONTEXT;
        a->DmaBufferGpuVirtualAddress = b->phys; /* paged at its physical address (S10) */
        a->DmaBufferWriteOffset = b->write_off;   /* S10 */
        int was_idle = idle_flags && (*idle_flags & idle_bit);
        uint32_t mpo_in = a->MultipassOffset, dma_in = a->DmaSize;
        vm_describe_args(a, desc, sizeof(desc));
        if (after_insufficient && b->write_off == 0) {
            if (pbc_rule_livelock_repeat(&v->res->findings, v->op, desc, b->size, mpo_in, last_fresh_mpo)) {
                v->stop = 1;
                return;
            }
            last_fresh_mpo = mpo_in;
        }
        v->res->calls++;
        NTSTATUS st = pbc_shim_call_build(v->t, v->adapter, a);
        const char *assert_msg;
        if (pbc_shim_take_asserts(&assert_msg)) {
            VM_RULE(v, pbc_rule_assert(&v->res->findings, v->op, v->res->calls, desc, assert_msg));
            return;
        }
        int64_t written = vm_check_call(v, a, st, before, priv_before, was_idle, desc);
        pbc_vm_trace(v, "  call %u: %s DmaSize=0x%x MultipassOffset=%u -> %s (0x%08x), wrote %" PRId64
                 " bytes, MultipassOffset=%u", v->res->calls, desc, dma_in, mpo_in,
                 vm_status_name(st), (uint32_t)st, written < 0 ? 0 : written, a->MultipassOffset);
        if (written < 0)
            return;
        if (written) {
            pbc_write_rec w = {b->id, b->write_off, b->write_off + (uint32_t)written, v->op, v->sub,
                               v->pass, v->res->calls};
            PBC_PUSH(v->res->writes, v->res->write_count, v->res->write_cap, w);
            if (alloc >= 0)
                v->allocs[alloc].in_pending = 1;
        }
        b->write_off += (uint32_t)written;
        b->priv_write = (uint32_t)((uint8_t *)a->pDmaBufferPrivateData - b->priv);
        if (st == STATUS_SUCCESS)
            return;
        after_insufficient = st == STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
        if (st == STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER) {
            v->res->insufficient++;
            pbc_vm_flush(v);
            v->have_buf = 0; /* S08: a new buffer, the same arguments */
            v->pass++;
        } else {
            v->res->busy_retries++;
            pbc_vm_wait_idle(v, alloc);
            *idle_flags |= idle_bit; /* S23 */
        }
    }
}
