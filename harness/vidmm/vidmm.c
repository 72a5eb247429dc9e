/*
 * The VidMm model. It owns residency and paging buffers, fills in every
 * DXGKARG field as Windows does, and runs the documented loops:
 *   INSUFFICIENT_DMA_BUFFER -> Patch and Submit the filled part, take a
 *     fresh buffer, call again with the same arguments (S08, S05);
 *   ALLOCATION_BUSY -> drain the GPU's work on that allocation, call again
 *     with AllocationIsIdle set (S23, S24);
 *   split transfers -> sub-transfers, TransferStart first, TransferEnd last
 *     (S15-S17).
 * Everything a builder answers is checked; a wrong answer becomes a finding
 * with the call's arguments, and the scenario stops cleanly.
 *
 * In spec mode the same residency decisions are made (so MDLs, pages and
 * addresses are identical) but each operation's effect comes from the spec
 * model and is applied directly, with no builder and no DMA buffer.
 */
#include "vidmm/vidmm.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "spec.h"
#include "base/util.h"
#include "kernel/shim.h"

#define VM_POISON 0xA5u
#define VM_PRIV_GUARD 64u
#define VM_FAKE_DEVICE ((HANDLE)(uintptr_t)0xDE0000)
#define VM_FAKE_SYSTEM_CONTEXT ((HANDLE)(uintptr_t)0x5C0000)

typedef struct vm_buffer {
    uint32_t id;
    uint8_t *host;
    uint64_t phys;
    uint32_t size, span;
    uint32_t write_off, submitted;
    uint8_t *priv; /* private data (after its leading guard) */
    uint32_t priv_size, priv_write, priv_submitted;
} vm_buffer;

typedef struct vm_alloc {
    HANDLE h;
    MDL *mdl;
    uint32_t busy_until; /* queue sequence after which the GPU is done with it */
    int in_pending;      /* used by the unsubmitted part of the current buffer */
} vm_alloc;

typedef struct vm {
    pbc_gpu *gpu;
    const pbc_scenario *s;
    const pbc_target *t;
    pbc_vidmm_options opt;
    pbc_record *res;
    pbc_residency rs;
    vm_alloc *allocs;
    HANDLE adapter;
    pbc_host host;
    vm_buffer buf;
    int have_buf;
    uint8_t *priv_mem;
    uint32_t dma_size;
    uint32_t op, sub, pass;
    int in_submit;
    uint32_t cur_sub;
    uint32_t last_fence_done;
    int stop;
    pbc_res_range *unmapped; /* aperture pages that must now hold the dummy page */
    uint32_t unmapped_count, unmapped_cap;
} vm;

/* A rule function returns 1 when it recorded a finding: the scenario stops. */
#define VM_RULE(v, broken)       \
    do {                         \
        if (broken)              \
            (v)->stop = 1;       \
    } while (0)

static void vm_trace(vm *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void vm_trace(vm *v, const char *fmt, ...)
{
    if (!v->opt.trace)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(v->opt.trace, fmt, ap);
    va_end(ap);
    fputc('\n', v->opt.trace);
}

/* ---- Masks ---- */

static void vm_mask_add(vm *v, uint64_t start, uint64_t end, const char *reason)
{
    pbc_record_mask_add(v->res, start, end, reason);
}

static void vm_mask_clear(vm *v, uint64_t start, uint64_t end) { pbc_record_mask_clear(v->res, start, end); }

/* ---- Content, MDLs and addresses ---- */

static uint32_t vm_content_word(uint32_t seed, uint64_t index)
{
    uint64_t z = ((uint64_t)seed << 32 | (uint32_t)index) + 0x9E3779B97F4A7C15ull * (index >> 32 | 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)(z ^ (z >> 31));
}

static void vm_write_content(vm *v, uint64_t addr, uint64_t len, uint32_t seed, uint64_t first_word)
{
    uint8_t chunk[PBC_PAGE_SIZE];
    for (uint64_t done = 0; done < len;) {
        uint64_t n = len - done < sizeof(chunk) ? len - done : sizeof(chunk);
        for (uint64_t i = 0; i < n; i += 4) {
            uint32_t w = vm_content_word(seed, first_word + (done + i) / 4);
            memcpy(chunk + i, &w, 4);
        }
        pbc_gpu_write(v->gpu, addr + done, chunk, n);
        done += n;
    }
}

static uint64_t vm_segment_base(const vm *v, uint32_t id) { return v->s->segments[id - 1].base; }

/* An MDL for the allocation: mdl_offset foreign pages, then its own. */
static MDL *vm_mdl_create(vm *v, uint32_t index)
{
    const pbc_salloc *al = &v->s->allocs[index];
    uint32_t pages = al->mdl_offset + pbc_alloc_pages(al);
    MDL *m = pbc_xcalloc(1, sizeof(MDL) + pages * sizeof(PFN_NUMBER));
    m->Size = (CSHORT)(sizeof(MDL) + pages * sizeof(PFN_NUMBER));
    m->MdlFlags = MDL_PAGES_LOCKED | MDL_SOURCE_IS_NONPAGED_POOL;
    m->StartVa = (PVOID)(uintptr_t)(0x100000000ull * (index + 1));
    m->ByteCount = pages * PBC_PAGE_SIZE;
    PFN_NUMBER *pfn = MmGetMdlPfnArray(m);
    v->gpu->cur.writer = PBC_WRITER_INIT;
    for (uint32_t i = 0; i < pages; i++) {
        pfn[i] = pbc_gpu_alloc_system_page(v->gpu) >> PBC_PAGE_SHIFT;
        pbc_page_owner own = {pfn[i], index, (int32_t)i - (int32_t)al->mdl_offset};
        PBC_PUSH(v->res->owners, v->res->owner_count, v->res->owner_cap, own);
        if (i < al->mdl_offset) /* someone else's data: must survive untouched */
            vm_write_content(v, (uint64_t)pfn[i] << PBC_PAGE_SHIFT, PBC_PAGE_SIZE, ~al->seed, i * 1024);
    }
    v->gpu->cur.writer = PBC_WRITER_NONE;
    return m;
}

/* A partial MDL (as IoBuildPartialMdl makes) over pages [first, first+n). */
static MDL *vm_mdl_partial(const MDL *full, uint32_t first, uint32_t n)
{
    MDL *m = pbc_xcalloc(1, sizeof(MDL) + n * sizeof(PFN_NUMBER));
    *m = *full;
    m->MdlFlags |= MDL_PARTIAL;
    m->StartVa = (PUCHAR)full->StartVa + (size_t)first * PBC_PAGE_SIZE;
    m->ByteCount = n * PBC_PAGE_SIZE;
    memcpy(MmGetMdlPfnArray(m), MmGetMdlPfnArray(full) + first, n * sizeof(PFN_NUMBER));
    return m;
}

/* Calls fn for each physically contiguous piece of allocation bytes
 * [offset, offset+len) where the allocation now lives. */
static void vm_alloc_pieces(vm *v, uint32_t index, uint64_t offset, uint64_t len,
                            void (*fn)(vm *, uint64_t addr, uint64_t n, uint64_t at, void *),
                            void *ctx)
{
    const pbc_res_alloc *ra = &v->rs.a[index];
    if (ra->where == PBC_WHERE_SEGMENT) {
        fn(v, vm_segment_base(v, ra->at.segment) + ra->at.offset + offset, len, offset, ctx);
        return;
    }
    const PFN_NUMBER *pfn = MmGetMdlPfnArray(v->allocs[index].mdl);
    uint32_t lead = v->s->allocs[index].mdl_offset;
    for (uint64_t at = offset; at < offset + len;) {
        uint64_t n = PBC_PAGE_SIZE - at % PBC_PAGE_SIZE;
        if (n > offset + len - at)
            n = offset + len - at;
        fn(v, ((uint64_t)pfn[lead + at / PBC_PAGE_SIZE] << PBC_PAGE_SHIFT) + at % PBC_PAGE_SIZE, n, at, ctx);
        at += n;
    }
}

static void vm_init_piece(vm *v, uint64_t addr, uint64_t n, uint64_t at, void *ctx)
{
    vm_write_content(v, addr, n, *(const uint32_t *)ctx, at / 4);
}

/* ---- Paging buffers ---- */

static int vm_is_poison(const uint8_t *p, size_t n) { return pbc_all_bytes(p, n, VM_POISON); }

static uint32_t vm_dma_size(const vm *v)
{
    uint32_t size = v->opt.dma_override ? v->opt.dma_override : v->dma_size;
    return size < v->t->min_dma_size ? v->t->min_dma_size : size;
}

static void vm_acquire_buffer(vm *v)
{
    vm_buffer *b = &v->buf;
    uint32_t size = vm_dma_size(v);
    if (pbc_gpu_dma_alloc(v->gpu, size, &b->host, &b->phys)) {
        /* Pool exhausted: every earlier buffer is retired once the GPU is idle. */
        pbc_gpu_drain(v->gpu);
        pbc_gpu_dma_release_all(v->gpu);
        if (pbc_gpu_dma_alloc(v->gpu, size, &b->host, &b->phys))
            abort(); /* harness invariant: one buffer always fits the pool */
    }
    b->id = ++v->res->buffers;
    b->size = size;
    b->span = (size + PBC_PAGE_SIZE - 1) / PBC_PAGE_SIZE * PBC_PAGE_SIZE;
    b->write_off = b->submitted = 0;
    memset(b->host - PBC_PAGE_SIZE, VM_POISON, (size_t)b->span + 2 * PBC_PAGE_SIZE);
    b->priv_size = v->t->private_data_size;
    b->priv = v->priv_mem + VM_PRIV_GUARD;
    b->priv_write = b->priv_submitted = 0;
    memset(v->priv_mem, VM_POISON, b->priv_size + 2 * VM_PRIV_GUARD);
    v->have_buf = 1;
}

/* ---- Host interface offered to the target ---- */

static void host_ring_submit(void *ctx, UINT segment_id, uint64_t phys, UINT start, UINT end)
{
    vm *v = ctx;
    uint32_t tag = v->in_submit ? v->cur_sub : UINT32_MAX;
    uint32_t seq = pbc_gpu_push_dma(v->gpu, segment_id, phys, start, end, tag);
    pbc_ring_facts r = {.in_submit = v->in_submit, .segment_id = segment_id, .phys = phys,
                        .start = start, .end = end};
    pbc_submission *s = v->in_submit ? &v->res->subs[v->cur_sub] : NULL;
    if (s) {
        r.already_rung = (int)s->rung;
        r.fence = s->fence;
        r.want_phys = s->phys;
        r.want_start = s->start;
        r.want_end = s->end;
    }
    VM_RULE(v, pbc_rule_exec_range(&v->res->findings, v->op, &r));
    if (!s)
        return;
    s->rung = 1;
    s->queue_seq = seq;
}

static void host_ring_fence(void *ctx, UINT fence)
{
    vm *v = ctx;
    pbc_gpu_push_fence(v->gpu, fence, v->in_submit ? v->cur_sub : UINT32_MAX);
}

static uint32_t host_mmio_read(void *ctx, uint32_t offset)
{
    vm *v = ctx;
    return offset / 4 < PBC_MMIO_REGS ? v->gpu->mmio[offset / 4] : 0xFFFFFFFFu;
}

static void host_mmio_write(void *ctx, uint32_t offset, uint32_t value)
{
    vm *v = ctx;
    if (offset / 4 < PBC_MMIO_REGS) {
        v->gpu->mmio[offset / 4] = value;
        v->gpu->mmio_writes++;
    }
}

static void host_log(void *ctx, const char *line) { vm_trace(ctx, "  target: %s", line); }

/* The GPU completed a fence: fences complete once each, in order, after
 * the buffer they follow (S46). */
static void vm_on_fence(void *ctx, uint32_t fence, uint32_t seq)
{
    vm *v = ctx;
    pbc_record *r = v->res;
    vm_trace(v, "  gpu: fence %u completes", fence);
    pbc_fence_facts x = {.fence = fence, .issued = r->sub_count, .expected = v->last_fence_done + 1};
    pbc_submission *s = fence && fence <= r->sub_count ? &r->subs[fence - 1] : NULL;
    if (s) {
        x.already_completed = (int)s->completed;
        x.buffer_executed = s->rung && s->queue_seq < seq;
        x.buffer = s->buffer;
        x.start = s->start;
        x.end = s->end;
    }
    VM_RULE(v, pbc_rule_fence(&r->findings, v->op, &x));
    if (!s || s->completed)
        return;
    s->completed = 1;
    v->last_fence_done = fence;
}

/* ---- Patch and submit ---- */

static uint64_t vm_hash_outside(const vm_buffer *b, uint32_t start, uint32_t end)
{
    uint64_t h = XXH3_64bits(b->host - PBC_PAGE_SIZE, PBC_PAGE_SIZE + (size_t)start);
    return h ^ XXH3_64bits_withSeed(b->host + end, (size_t)(b->span - end) + PBC_PAGE_SIZE, 1);
}

static void vm_patch(vm *v, pbc_submission *s, const vm_buffer *b)
{
    DXGKARG_PATCH p;
    memset(&p, 0, sizeof(p));
    p.hDevice = NULL; /* paging: no device (S39) */
    p.DmaBufferSegmentId = 0;
    p.DmaBufferPhysicalAddress.QuadPart = (LONGLONG)b->phys;
    p.pDmaBuffer = b->host;
    p.DmaBufferSize = b->size;
    p.DmaBufferSubmissionStartOffset = s->start;
    p.DmaBufferSubmissionEndOffset = s->end;
    p.pDmaBufferPrivateData = b->priv;
    p.DmaBufferPrivateDataSize = b->priv_size;
    p.DmaBufferPrivateDataSubmissionStartOffset = b->priv_submitted;
    p.DmaBufferPrivateDataSubmissionEndOffset = b->priv_write;
    p.SubmissionFenceId = s->fence;
    p.Flags.Paging = 1;
    DXGKARG_PATCH before = p;
    uint64_t outside = vm_hash_outside(b, s->start, s->end);
    NTSTATUS st = pbc_shim_call_patch(v->t, v->adapter, &p);
    pbc_findings *f = &v->res->findings;
    if (pbc_rule_status_ddi(f, v->op, "Patch", s->fence, st))
        v->stop = 1;
    else
        VM_RULE(v, pbc_rule_patch(f, v->op, s->fence, b->id, s->start, s->end,
                                  memcmp(&before, &p, sizeof(p)) != 0,
                                  vm_hash_outside(b, s->start, s->end) != outside));
}

static void vm_submit_command(vm *v, pbc_submission *s, const vm_buffer *b)
{
    DXGKARG_SUBMITCOMMAND c;
    memset(&c, 0, sizeof(c));
    c.DmaBufferSegmentId = 0; /* contiguous system memory (S40) */
    c.DmaBufferPhysicalAddress.QuadPart = (LONGLONG)b->phys; /* the buffer's start (S41) */
    c.DmaBufferSize = b->size;
    c.DmaBufferSubmissionStartOffset = s->start;
    c.DmaBufferSubmissionEndOffset = s->end;
    c.pDmaBufferPrivateData = b->priv;
    c.DmaBufferPrivateDataSize = b->priv_size;
    c.DmaBufferPrivateDataSubmissionStartOffset = b->priv_submitted;
    c.DmaBufferPrivateDataSubmissionEndOffset = b->priv_write;
    c.SubmissionFenceId = s->fence;
    c.Flags.Paging = 1;
    v->in_submit = 1;
    v->cur_sub = s->fence - 1;
    NTSTATUS st = pbc_shim_call_submit(v->t, v->adapter, &c);
    v->in_submit = 0;
    if (pbc_rule_status_ddi(&v->res->findings, v->op, "SubmitCommand", s->fence, st))
        v->stop = 1;
    else
        VM_RULE(v, pbc_rule_exec_range_rung(&v->res->findings, v->op, s->fence, (int)s->rung));
}

/* Patches and submits the filled, not yet submitted part of the current
 * buffer (S08, S36, S38), with the next fence id. */
static void vm_flush(vm *v)
{
    vm_buffer *b = &v->buf;
    if (!v->have_buf || b->write_off == b->submitted || v->stop)
        return;
    pbc_submission s = {.buffer = b->id, .fence = v->res->sub_count + 1, .start = b->submitted,
                        .end = b->write_off, .phys = b->phys};
    PBC_PUSH(v->res->subs, v->res->sub_count, v->res->sub_cap, s);
    pbc_submission *sp = &v->res->subs[v->res->sub_count - 1];
    vm_trace(v, "  submit: buffer %u [0x%x, 0x%x) at 0x%" PRIx64 ", private [0x%x, 0x%x), fence %u",
             b->id, sp->start, sp->end, b->phys, b->priv_submitted, b->priv_write, sp->fence);
    vm_patch(v, sp, b);
    v->res->dma_hash = XXH3_64bits_withSeed(b->host + sp->start, sp->end - sp->start, v->res->dma_hash);
    if (!v->stop)
        vm_submit_command(v, &v->res->subs[v->res->sub_count - 1], b);
    sp = &v->res->subs[v->res->sub_count - 1];
    uint32_t done_at = sp->rung ? sp->queue_seq + 1 : v->gpu->queued;
    for (uint32_t i = 0; i < v->s->alloc_count; i++)
        if (v->allocs[i].in_pending) {
            v->allocs[i].in_pending = 0;
            v->allocs[i].busy_until = done_at;
        }
    b->submitted = b->write_off;
    b->priv_submitted = b->priv_write;
}

static int vm_alloc_idle(const vm *v, int index)
{
    return index < 0 || (!v->allocs[index].in_pending && v->gpu->executed >= v->allocs[index].busy_until);
}

/* Waits until the GPU is done with the allocation (S23). */
static void vm_wait_idle(vm *v, int index)
{
    if (index < 0)
        return;
    if (v->allocs[index].in_pending)
        vm_flush(v);
    pbc_gpu_run(v->gpu, v->allocs[index].busy_until);
}

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
        .wrote_outside = !vm_is_poison(b->host - PBC_PAGE_SIZE, PBC_PAGE_SIZE) ||
                         !vm_is_poison(end, (size_t)(b->span - b->size) + PBC_PAGE_SIZE),
        .wrote_outside_private = !vm_is_poison(v->priv_mem, VM_PRIV_GUARD) ||
                                 !vm_is_poison(b->priv + b->priv_size, VM_PRIV_GUARD),
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
        c.wrote_past_return = !vm_is_poison(now, (size_t)(end - now));
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
static void vm_paging_op(vm *v, DXGKARG_BUILDPAGINGBUFFER *a, int alloc, UINT *idle_flags,
                         UINT idle_bit)
{
    char desc[320];
    if (v->opt.mode == PBC_MODE_SPEC) {
        pbc_spec_apply(a, vm_spec_sink, v);
        return;
    }
    if (idle_flags && vm_alloc_idle(v, alloc))
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
            vm_acquire_buffer(v);
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
        vm_trace(v, "  call %u: %s DmaSize=0x%x MultipassOffset=%u -> %s (0x%08x), wrote %" PRId64
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
            vm_flush(v);
            v->have_buf = 0; /* S08: a new buffer, the same arguments */
            v->pass++;
        } else {
            v->res->busy_retries++;
            vm_wait_idle(v, alloc);
            *idle_flags |= idle_bit; /* S23 */
        }
    }
}

/* ---- Scenario operations ---- */

static void vm_set_side(vm *v, uint32_t index, const pbc_res_alloc *where, UINT *segment_id,
                        LARGE_INTEGER *address, MDL **mdl)
{
    if (where->where == PBC_WHERE_SEGMENT) {
        *segment_id = where->at.segment;
        address->QuadPart = (LONGLONG)(vm_segment_base(v, where->at.segment) + where->at.offset);
    } else {
        *segment_id = 0;
        *mdl = v->allocs[index].mdl; /* S12 */
    }
}

static void vm_transfer(vm *v, const pbc_sop *op)
{
    const pbc_salloc *al = &v->s->allocs[op->alloc];
    pbc_res_alloc src = v->rs.a[op->alloc];
    pbc_res_alloc dst = {.where = op->at.segment ? PBC_WHERE_SEGMENT : PBC_WHERE_SYSTEM, .at = op->at};
    MDL *old_mdl = v->allocs[op->alloc].mdl;
    if (dst.where == PBC_WHERE_SYSTEM)
        v->allocs[op->alloc].mdl = vm_mdl_create(v, op->alloc);
    /* SpecialLockTransfer has no MdlOffset: its MDL side is a partial MDL
     * that starts at the allocation's first page. */
    MDL *partial = NULL;
    if (op->kind == PBC_SOP_SPECIAL_LOCK && al->mdl_offset &&
        (src.where == PBC_WHERE_SYSTEM || dst.where == PBC_WHERE_SYSTEM))
        partial = vm_mdl_partial(src.where == PBC_WHERE_SYSTEM ? old_mdl : v->allocs[op->alloc].mdl,
                                 al->mdl_offset, pbc_alloc_pages(al));
    uint32_t pages = pbc_alloc_pages(al);
    for (uint32_t k = 0; k < op->split && !v->stop; k++) {
        /* Sub-transfer boundaries are page aligned, so an MDL side starts
         * on a page (S14); they run in order, never interleaved (S17). */
        uint64_t first = (uint64_t)pages * k / op->split * PBC_PAGE_SIZE;
        uint64_t last = k + 1 == op->split ? al->size : (uint64_t)pages * (k + 1) / op->split * PBC_PAGE_SIZE;
        DXGKARG_BUILDPAGINGBUFFER a;
        memset(&a, 0, sizeof(a));
        a.Operation = op->kind == PBC_SOP_TRANSFER ? DXGK_OPERATION_TRANSFER : DXGK_OPERATION_SPECIAL_LOCK_TRANSFER;
        /* SpecialLockTransfer shares Transfer's layout up to Flags. */
        a.Transfer.hAllocation = v->allocs[op->alloc].h;
        a.Transfer.TransferOffset = (UINT)first; /* same on every call (S13) */
        a.Transfer.TransferSize = last - first;
        vm_set_side(v, op->alloc, &src, &a.Transfer.Source.SegmentId, &a.Transfer.Source.SegmentAddress,
                    &a.Transfer.Source.pMdl);
        if (src.where == PBC_WHERE_SYSTEM)
            a.Transfer.Source.pMdl = partial ? partial : old_mdl;
        vm_set_side(v, op->alloc, &dst, &a.Transfer.Destination.SegmentId,
                    &a.Transfer.Destination.SegmentAddress, &a.Transfer.Destination.pMdl);
        if (dst.where == PBC_WHERE_SYSTEM && partial)
            a.Transfer.Destination.pMdl = partial;
        a.Transfer.Flags.TransferStart = k == 0;              /* S15 */
        a.Transfer.Flags.TransferEnd = k + 1 == op->split;
        if (op->kind == PBC_SOP_TRANSFER)
            a.Transfer.MdlOffset = al->mdl_offset + (UINT)(first / PBC_PAGE_SIZE); /* S14 */
        v->sub = k;
        v->pass = 0;
        vm_trace(v, " sub-transfer %u/%u: bytes [0x%" PRIx64 ", 0x%" PRIx64 ")", k + 1, op->split, first, last);
        vm_paging_op(v, &a, (int)op->alloc, &a.Transfer.Flags.Value, 0x4u /* AllocationIsIdle */);
    }
    if (dst.where == PBC_WHERE_SEGMENT) {
        uint64_t base = vm_segment_base(v, dst.at.segment) + dst.at.offset;
        vm_mask_clear(v, base, base + al->size);
    }
    free(partial);
    if (src.where == PBC_WHERE_SYSTEM) {
        /* Packets carry page frame numbers, not the MDL, so it can go now;
         * the pages keep their content (the system pool is observable). */
        free(old_mdl);
        v->allocs[op->alloc].mdl = NULL;
    }
}

static void vm_fill(vm *v, const pbc_sop *op)
{
    const pbc_salloc *al = &v->s->allocs[op->alloc];
    uint64_t base = vm_segment_base(v, op->at.segment) + op->at.offset;
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof(a));
    a.Operation = DXGK_OPERATION_FILL;
    a.Fill.hAllocation = v->allocs[op->alloc].h;
    a.Fill.FillSize = al->size;
    a.Fill.FillPattern = op->pattern;
    a.Fill.Destination.SegmentId = op->at.segment; /* memory segments only (S26) */
    a.Fill.Destination.SegmentAddress.QuadPart = (LONGLONG)base;
    vm_paging_op(v, &a, (int)op->alloc, NULL, 0);
    vm_mask_clear(v, base, base + al->size);
}

static void vm_discard(vm *v, const pbc_sop *op)
{
    const pbc_res_alloc *ra = &v->rs.a[op->alloc];
    uint64_t base = vm_segment_base(v, ra->at.segment) + ra->at.offset;
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof(a));
    a.Operation = DXGK_OPERATION_DISCARD_CONTENT;
    a.DiscardContent.hAllocation = v->allocs[op->alloc].h;
    a.DiscardContent.SegmentId = ra->at.segment;
    a.DiscardContent.SegmentAddress.QuadPart = (LONGLONG)base;
    vm_paging_op(v, &a, (int)op->alloc, &a.DiscardContent.Flags.Value, 0x1u);
    vm_mask_add(v, base, base + v->s->allocs[op->alloc].size, "discarded content is undefined (S27)");
}

static void vm_physical(vm *v, const pbc_sop *op)
{
    uint64_t addr = vm_segment_base(v, op->at.segment) + op->at.offset;
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof(a));
    if (op->kind == PBC_SOP_READ_PHYSICAL) {
        a.Operation = DXGK_OPERATION_READ_PHYSICAL;
        a.ReadPhysical.SegmentId = op->at.segment;
        a.ReadPhysical.PhysicalAddress.QuadPart = (LONGLONG)addr;
    } else {
        a.Operation = DXGK_OPERATION_WRITE_PHYSICAL;
        a.WritePhysical.SegmentId = op->at.segment;
        a.WritePhysical.PhysicalAddress.QuadPart = (LONGLONG)addr;
        vm_mask_add(v, addr, addr + 8, "WritePhysical leaves 1-8 bytes with an irrelevant value (S29)");
    }
    vm_paging_op(v, &a, -1, NULL, 0);
}

static void vm_map(vm *v, const pbc_sop *op)
{
    const pbc_salloc *al = &v->s->allocs[op->alloc];
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof(a));
    a.Operation = DXGK_OPERATION_MAP_APERTURE_SEGMENT;
    a.MapApertureSegment.hDevice = (al->flags & PBC_ALLOC_PRIMARY) ? NULL : VM_FAKE_DEVICE; /* S34 */
    a.MapApertureSegment.hAllocation = v->allocs[op->alloc].h;
    a.MapApertureSegment.SegmentId = op->at.segment;
    a.MapApertureSegment.OffsetInPages = op->at.offset;
    a.MapApertureSegment.NumberOfPages = op->count;
    a.MapApertureSegment.pMdl = v->allocs[op->alloc].mdl;
    a.MapApertureSegment.Flags.CacheCoherent = (op->flags & PBC_SOP_COHERENT) != 0;
    a.MapApertureSegment.MdlOffset = al->mdl_offset + op->first; /* S30 */
    vm_paging_op(v, &a, -1, NULL, 0);
    for (uint32_t i = 0; i < v->unmapped_count; i++) { /* remapped pages leave the dummy set */
        pbc_res_range *u = &v->unmapped[i];
        if (u->segment == op->at.segment && u->first < op->at.offset + op->count &&
            op->at.offset < u->first + u->count) {
            *u = v->unmapped[--v->unmapped_count];
            i = (uint32_t)-1;
        }
    }
}

static void vm_unmap(vm *v, const pbc_sop *op)
{
    const pbc_salloc *al = &v->s->allocs[op->alloc];
    const pbc_res_alloc *ra = &v->rs.a[op->alloc];
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof(a));
    a.Operation = DXGK_OPERATION_UNMAP_APERTURE_SEGMENT;
    a.UnmapApertureSegment.hDevice = (al->flags & PBC_ALLOC_PRIMARY) ? NULL : VM_FAKE_DEVICE;
    a.UnmapApertureSegment.hAllocation = v->allocs[op->alloc].h;
    a.UnmapApertureSegment.SegmentId = ra->ap_segment;
    a.UnmapApertureSegment.OffsetInPages = ra->ap_page;
    a.UnmapApertureSegment.NumberOfPages = ra->map_count;
    a.UnmapApertureSegment.DummyPage.QuadPart = (LONGLONG)v->gpu->dummy_page;
    vm_paging_op(v, &a, -1, NULL, 0);
    pbc_res_range u = {ra->ap_segment, ra->ap_page, ra->map_count};
    PBC_PUSH(v->unmapped, v->unmapped_count, v->unmapped_cap, u);
}

/* Synthetic render work runs on the GPU queue (target mode) or at once
 * (spec mode); either way in program order. */
static void vm_gpu_work(vm *v, const pbc_uop *u, int alloc)
{
    if (v->opt.mode == PBC_MODE_SPEC) {
        v->gpu->cur.writer = PBC_WRITER_RENDER;
        pbc_gpu_exec_uop(v->gpu, u);
        v->gpu->cur.writer = PBC_WRITER_NONE;
        return;
    }
    uint32_t seq = pbc_gpu_push_work(v->gpu, u, UINT32_MAX);
    if (alloc >= 0)
        v->allocs[alloc].busy_until = seq + 1;
}

typedef struct vm_render_ctx {
    const pbc_sop *op;
    int alloc;
} vm_render_ctx;

static void vm_render_piece(vm *v, uint64_t addr, uint64_t n, uint64_t at, void *ctx)
{
    const vm_render_ctx *rc = ctx;
    (void)at;
    pbc_uop u = {.dst = addr, .size = n, .value = rc->op->pattern};
    u.kind = rc->op->kind == PBC_SOP_RENDER_WRITE ? PBC_UOP_FILL : PBC_UOP_READ;
    if (u.kind == PBC_UOP_READ) {
        u.width = n < 8 ? (uint32_t)n : 8;
    }
    vm_gpu_work(v, &u, rc->alloc);
}

static void vm_render(vm *v, const pbc_sop *op)
{
    vm_flush(v); /* paging work queued earlier must run first */
    vm_render_ctx rc = {op, (int)op->alloc};
    const pbc_res_alloc *ra = &v->rs.a[op->alloc];
    if (op->flags & PBC_SOP_VIA_APERTURE) {
        uint64_t base = vm_segment_base(v, ra->ap_segment) + ra->ap_page * PBC_PAGE_SIZE;
        uint64_t mapped_from = (uint64_t)ra->map_first * PBC_PAGE_SIZE;
        vm_render_piece(v, base + op->offset - mapped_from, op->size, op->offset, &rc);
    } else {
        vm_alloc_pieces(v, op->alloc, op->offset, op->size, vm_render_piece, &rc);
    }
}

static void vm_gpu_access(vm *v, const pbc_sop *op)
{
    vm_flush(v);
    uint64_t addr = vm_segment_base(v, op->at.segment) + op->at.offset;
    vm_render_ctx rc = {op, -1};
    pbc_sop as_render = *op;
    as_render.kind = op->kind == PBC_SOP_GPU_WRITE ? PBC_SOP_RENDER_WRITE : PBC_SOP_RENDER_READ;
    rc.op = &as_render;
    vm_render_piece(v, addr, op->size, 0, &rc);
    if (op->kind == PBC_SOP_GPU_WRITE)
        vm_mask_clear(v, addr, addr + op->size);
}

static void vm_do_op(vm *v, const pbc_sop *op)
{
    switch (op->kind) {
    case PBC_SOP_TRANSFER:
    case PBC_SOP_SPECIAL_LOCK:
        vm_transfer(v, op);
        break;
    case PBC_SOP_FILL:
        vm_fill(v, op);
        break;
    case PBC_SOP_DISCARD:
        vm_discard(v, op);
        break;
    case PBC_SOP_READ_PHYSICAL:
    case PBC_SOP_WRITE_PHYSICAL:
        vm_physical(v, op);
        break;
    case PBC_SOP_MAP:
        vm_map(v, op);
        break;
    case PBC_SOP_UNMAP:
        vm_unmap(v, op);
        break;
    case PBC_SOP_RENDER_WRITE:
    case PBC_SOP_RENDER_READ:
        vm_render(v, op);
        break;
    case PBC_SOP_GPU_READ:
    case PBC_SOP_GPU_WRITE:
        vm_gpu_access(v, op);
        break;
    case PBC_SOP_FLUSH:
        vm_flush(v);
        break;
    case PBC_SOP_IDLE:
        vm_flush(v);
        pbc_gpu_drain(v->gpu);
        break;
    case PBC_SOP_DMA:
        v->dma_size = op->dma_size;
        break;
    default:
        abort(); /* the scenario was validated */
    }
}

static void vm_check_unmapped(vm *v, int wrong_target_only);

/* After the last operation and any GPU fault: every fence written (S46)
 * and every unmapped page on the dummy page (S33). */
static void vm_final_checks(vm *v)
{
    pbc_record *r = v->res;
    v->op = UINT32_MAX;
    for (uint32_t i = 0; i < r->sub_count && !v->stop; i++) {
        const pbc_submission *s = &r->subs[i];
        pbc_fence_facts x = {.fence = s->fence, .missing = !s->completed, .buffer = s->buffer,
                             .start = s->start, .end = s->end};
        if (x.missing)
            VM_RULE(v, pbc_rule_fence(&r->findings, v->op, &x));
    }
    vm_check_unmapped(v, 0);
}

/* Unmapped pages must hold the dummy page (S33). A valid entry pointing
 * elsewhere is a root cause; an invalid one may only mean a GPU fault
 * stopped the submission first, so those are checked after faults. */
static void vm_check_unmapped(vm *v, int wrong_target_only)
{
    v->op = UINT32_MAX;
    for (uint32_t i = 0; i < v->unmapped_count && !v->stop; i++) {
        const pbc_res_range *u = &v->unmapped[i];
        const pbc_gpu_segment *seg = pbc_gpu_segment_by_id(v->gpu, u->segment);
        for (uint64_t p = u->first; p < u->first + u->count; p++) {
            const pbc_gart_entry *e = &seg->gart[p];
            if (wrong_target_only && !(e->flags & PBC_GART_VALID))
                continue;
            if (pbc_rule_unmap_dummy(&v->res->findings, u->segment, p, (e->flags & PBC_GART_VALID) != 0,
                                     e->addr, v->gpu->dummy_page)) {
                v->stop = 1;
                break;
            }
        }
    }
}

static void vm_report_faults(vm *v)
{
    pbc_gpu *g = v->gpu;
    if (!g->fault_count)
        return;
    const pbc_fault *f = &g->faults[0];
    const pbc_write_rec *w = pbc_record_find_write(v->res, g, f->submission, f->packet_offset);
    char where[160] = "";
    if (w && f->submission && g->queue[f->submission - 1].kind == PBC_QE_DMA)
        snprintf(where, sizeof(where), " in buffer %u at +0x%x (operation %u, sub-transfer %u, pass %u)",
                 w->buffer, f->packet_offset, w->op + 1, w->sub + 1, w->pass + 1);
    char first[400];
    snprintf(first, sizeof(first), "%s at 0x%" PRIx64 "%s: %s", pbc_gpu_fault_name(f->kind), f->addr,
             where, f->why);
    VM_RULE(v, pbc_rule_gpu_fault(&v->res->findings, w ? w->op : UINT32_MAX, g->fault_count, first));
}

static int vm_setup(vm *v)
{
    const pbc_scenario *s = v->s;
    v->allocs = pbc_xcalloc(s->alloc_count, sizeof(*v->allocs));
    v->priv_mem = pbc_xmalloc(v->t->private_data_size + 2 * VM_PRIV_GUARD);
    v->dma_size = PBC_DEFAULT_DMA_SIZE;
    const char *why = pbc_residency_init(&v->rs, s);
    if (why)
        abort(); /* the scenario was validated */
    vm_mask_add(v, v->gpu->dummy_page, v->gpu->dummy_page + PBC_PAGE_SIZE,
                "the dummy page absorbs accesses through unmapped aperture pages (S33)");
    v->gpu->observer_ctx = v;
    v->gpu->on_fence = vm_on_fence;
    v->host = (pbc_host){PBC_TARGET_ABI_VERSION, sizeof(pbc_host), v, host_ring_submit,
                         host_ring_fence, host_mmio_read, host_mmio_write, host_log};
    if (v->opt.mode == PBC_MODE_TARGET) {
        pbc_adapter_info info = {sizeof(info), s->segment_count, s->segments, v->gpu->dummy_page,
                                 &v->host, PBC_MMIO_PHYSICAL, sizeof(v->gpu->mmio)};
        if (v->t->create_adapter(&info, &v->adapter) != STATUS_SUCCESS)
            return -1;
    }
    for (uint32_t i = 0; i < s->alloc_count; i++) {
        const pbc_salloc *al = &s->allocs[i];
        if (v->opt.mode == PBC_MODE_TARGET) {
            pbc_allocation_info ai = {sizeof(ai), al->flags, al->size};
            if (v->t->create_allocation(v->adapter, &ai, &v->allocs[i].h) != STATUS_SUCCESS)
                return -1;
        }
        if (al->where == PBC_WHERE_SYSTEM)
            v->allocs[i].mdl = vm_mdl_create(v, i);
        if (al->where != PBC_WHERE_NONE) {
            uint32_t seed = al->seed;
            v->gpu->cur.writer = PBC_WRITER_INIT;
            vm_alloc_pieces(v, i, 0, al->size, vm_init_piece, &seed);
            v->gpu->cur.writer = PBC_WRITER_NONE;
        }
    }
    return 0;
}

static void vm_teardown(vm *v)
{
    for (uint32_t i = 0; i < v->s->alloc_count; i++) {
        if (v->allocs[i].h)
            v->t->destroy_allocation(v->adapter, v->allocs[i].h);
        free(v->allocs[i].mdl);
    }
    if (v->adapter)
        v->t->destroy_adapter(v->adapter);
    v->gpu->on_fence = NULL;
    v->gpu->observer_ctx = NULL;
    pbc_residency_fini(&v->rs);
    free(v->allocs);
    free(v->priv_mem);
    free(v->unmapped);
}

int pbc_vidmm_run(pbc_gpu *gpu, const pbc_scenario *s, const pbc_target *t,
                  const pbc_vidmm_options *opt, pbc_record *res)
{
    vm v;
    memset(&v, 0, sizeof(v));
    v.gpu = gpu;
    v.s = s;
    v.t = t;
    v.opt = *opt;
    v.res = res;
    for (uint32_t i = 0; i < s->op_count; i++)
        if (!pbc_sop_supported(t, s->ops[i].kind)) {
            res->unsupported_op = s->ops[i].kind + 1;
            return 2;
        }
    pbc_shim_bind(gpu);
    if (vm_setup(&v)) {
        vm_teardown(&v);
        return 2;
    }
    for (uint32_t i = 0; i < s->op_count && !v.stop; i++) {
        const pbc_sop *op = &s->ops[i];
        v.op = i;
        v.sub = v.pass = 0;
        vm_trace(&v, "op %u (line %u): %s %s", i + 1, op->line, pbc_sop_name(op->kind),
                 pbc_sop_has_alloc(op->kind) ? s->allocs[op->alloc].name : "");
        vm_do_op(&v, op);
        pbc_residency_apply(&v.rs, op);
        res->ops_done = i + 1;
    }
    if (!v.stop) {
        vm_flush(&v);
        pbc_gpu_drain(gpu);
    }
    if (!v.stop && opt->mode == PBC_MODE_TARGET)
        vm_check_unmapped(&v, 1);
    if (!v.stop) /* a fault stops a submission, so it explains what follows */
        vm_report_faults(&v);
    if (!v.stop && opt->mode == PBC_MODE_TARGET)
        vm_final_checks(&v);
    res->stopped = (uint32_t)v.stop;
    vm_teardown(&v);
    pbc_shim_unbind();
    return v.stop ? 1 : 0;
}
