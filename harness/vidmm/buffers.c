/*
 * Paging buffers and what happens to them: VidMm hands out fresh
 * 4 KiB-aligned buffers surrounded by poisoned guards, offers the target
 * its host interface (ring, fences, registers, log), patches and submits
 * each filled part with its own fence, and knows when an allocation is idle.
 */
#include "vidmm/vm.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "kernel/services.h"
#include "kernel/shim.h"

int pbc_vidmm_kernel_check(vm *v, const char *where)
{
    size_t len;
    const char *log = pbc_kernel_log(&len);
    if (v->opt.trace && len > v->log_shown) {
        for (const char *line = log + v->log_shown; line < log + len;) {
            const char *nl = memchr(line, '\n', (size_t)(log + len - line));
            int n = (int)(nl ? nl - line : log + len - line);
            if (n)
                fprintf(v->opt.trace, "  target DbgPrint: %.*s\n", n, line);
            line += n + (nl != NULL);
        }
    }
    v->log_shown = len;
    char what[300];
    if (!pbc_kernel_take_bad_frees(what, sizeof(what)) && !pbc_kernel_take_lock_errors(what, sizeof(what)) &&
        !pbc_kernel_take_bugchecks(what, sizeof(what)))
        return 0;
    VM_RULE(v, pbc_rule_kernel(&v->res->findings, v->op, where, what));
    return 1;
}

void pbc_vidmm_trace(vm *v, const char *fmt, ...)
{
    if (!v->opt.trace)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(v->opt.trace, fmt, ap);
    va_end(ap);
    fputc('\n', v->opt.trace);
}

/* ---- Paging buffers ---- */

static uint32_t vm_dma_size(const vm *v)
{
    const pbc_adapter_decl *d = v->t->adapter;
    if (d && d->paging_buffer_size)
        return d->paging_buffer_size; /* the size the driver declared, always (PagingBufferSize) */
    uint32_t size = v->opt.dma_override ? v->opt.dma_override : v->dma_size;
    return size < v->t->min_dma_size ? v->t->min_dma_size : size;
}

void pbc_vidmm_acquire_buffer(vm *v)
{
    vm_buffer *b = &v->buf;
    uint32_t size = vm_dma_size(v);
    if (pbc_gpu_dma_alloc(v->gpu, size, &b->host, &b->phys)) {
        /* Pool exhausted: every earlier buffer is retired once the GPU is idle. */
        pbc_gpu_drain(v->gpu);
        pbc_gpu_dma_release_all(v->gpu);
        if (pbc_gpu_dma_alloc(v->gpu, size, &b->host, &b->phys))
            pbc_harness_bug("a %u-byte paging buffer does not fit the empty pool", size);
    }
    b->pool_offset = (uint32_t)(b->phys - PBC_DMA_POOL_BASE);
    b->segment = v->s->paging_segment;
    if (b->segment) /* S40: a buffer in a segment is addressed as segment base + offset */
        b->phys = v->gpu->pool_alias + b->pool_offset;
    b->id = ++v->res->buffers;
    b->size = size;
    b->span = (size + PBC_PAGE_SIZE - 1) / PBC_PAGE_SIZE * PBC_PAGE_SIZE;
    b->write_off = b->submitted = 0;
    memset(b->host - PBC_PAGE_SIZE, VM_POISON, (size_t)b->span + 2 * PBC_PAGE_SIZE);
    b->priv_size = v->t->private_data_size;
    v->priv_mem = pbc_xmalloc(b->priv_size + 2 * VM_PRIV_GUARD);
    PBC_PUSH(v->priv_blocks, v->priv_block_count, v->priv_block_cap, v->priv_mem);
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
        r.fence = s->fence;
        r.want_segment = s->segment;
        r.want_phys = s->phys;
        r.want_start = s->start;
        r.want_end = s->end;
        r.next = s->covered;
    }
    VM_RULE(v, pbc_rule_exec_range(&v->res->findings, v->op, &r));
    if (!s || v->stop)
        return;
    s->rung++;
    s->covered = (UINT)(phys + end - s->phys);
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
    /* Registers are 32-bit and 4-aligned (target.h): anything else reads
     * as an absent register. */
    return offset % 4 == 0 && offset / 4 < PBC_MMIO_REGS ? v->gpu->mmio[offset / 4] : 0xFFFFFFFFu;
}

static void host_mmio_write(void *ctx, uint32_t offset, uint32_t value)
{
    vm *v = ctx;
    if (offset % 4 == 0 && offset / 4 < PBC_MMIO_REGS) {
        v->gpu->mmio[offset / 4] = value;
        v->gpu->mmio_writes++;
    }
}

static void host_log(void *ctx, const char *line) { pbc_vidmm_trace(ctx, "  target: %s", line); }

static void vm_run_cpu_work(void *arg)
{
    const vm_cpu_work *w = arg;
    pbc_vidmm_trace(w->v, "  gpu queue: the target's CPU work runs");
    w->v->gpu->cpu = (pbc_prov){.submission = w->v->gpu->executed + 1, .op = w->op};
    pbc_shim_enter();
    w->fn(w->arg);
    pbc_shim_leave(); /* what the work wrote through CPU views lands now */
    /* A worker that reads (or writes) a ReadPhysical/WritePhysical address
     * through any view does the access when its turn comes (PB-PHYSICAL);
     * its accesses are its own, not the next BuildPagingBuffer call's. */
    const pbc_shim_access *acc;
    uint32_t na = pbc_shim_take_accesses(&acc);
    for (uint32_t i = 0; i < w->v->physical_count; i++)
        pbc_vidmm_note_cpu_physical(&w->v->physical[i], acc, na);
    pbc_vidmm_kernel_check(w->v, "CPU work queued by SubmitCommand");
}

/* CPU work handed over by SubmitCommand: a submission that rings nothing
 * and queues work instead is executed by that work (a worker thread), so
 * it counts as the whole range handed over. */
static void host_queue_cpu_work(void *ctx, void (*fn)(void *arg), void *arg)
{
    vm *v = ctx;
    if (!fn)
        return;
    vm_cpu_work *w = pbc_xmalloc(sizeof(*w));
    *w = (vm_cpu_work){v, fn, arg, v->op};
    PBC_PUSH(v->cpu_work, v->cpu_work_count, v->cpu_work_cap, w);
    uint32_t seq = pbc_gpu_push_cpu(v->gpu, vm_run_cpu_work, w, v->in_submit ? v->cur_sub : UINT32_MAX);
    if (!v->in_submit) {
        pbc_ring_facts r = {.in_submit = 0};
        VM_RULE(v, pbc_rule_exec_range(&v->res->findings, v->op, &r));
        return;
    }
    pbc_submission *s = &v->res->subs[v->cur_sub];
    if (!s->rung) {
        s->rung = 1;
        s->covered = s->end;
    }
    s->queue_seq = seq;
}

/* The GPU completed a fence: fences complete once each, in order, after
 * the buffer they follow (S46). */
static void vm_on_fence(void *ctx, uint32_t fence, uint32_t seq)
{
    vm *v = ctx;
    pbc_record *r = v->res;
    pbc_vidmm_trace(v, "  gpu: fence %u completes", fence);
    pbc_fence_facts x = {.fence = fence, .issued = r->sub_count, .expected = v->last_fence_done + 1};
    pbc_submission *s = fence && fence <= r->sub_count ? &r->subs[fence - 1] : NULL;
    if (s) {
        x.already_completed = (int)s->completed;
        /* A piece of its own buffer may write it (Patch can fill in a
         * fence packet); whether work of the buffer followed is judged
         * once its last piece has run (pbc_vidmm_check_fences_inside). */
        const pbc_qentry *now = seq < v->gpu->queued ? &v->gpu->queue[seq] : NULL;
        int inside = s->rung && s->covered == s->end && now && now->kind == PBC_QE_DMA && now->tag == fence - 1;
        x.buffer_executed = s->rung && s->covered == s->end && (inside || s->queue_seq < seq);
        if (inside) {
            s->fenced_inside = 1;
            s->work_at_fence = v->gpu->work_uops;
        }
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

/* The GPU fetched a piece of a submission: the submission's bytes must
 * still be those SubmitCommand handed over, at every piece. */
static void vm_on_fetch(void *ctx, const pbc_qentry *e, const uint8_t *bytes, uint64_t len)
{
    vm *v = ctx;
    (void)bytes;
    (void)len;
    if (e->tag >= v->res->sub_count || v->stop)
        return;
    pbc_submission *s = &v->res->subs[e->tag];
    const uint8_t *host = v->gpu->dma_pool + s->pool_offset;
    int changed = XXH3_64bits(host + s->start, s->end - s->start) != s->bytes_hash;
    VM_RULE(v, pbc_rule_dma_submitted(&v->res->findings, v->op, s->fence, s->buffer, s->start, s->end,
                                      changed));
}

/* Fences written by their own buffer: no work of that buffer may follow. */
void pbc_vidmm_check_fences_inside(vm *v)
{
    for (uint32_t i = 0; i < v->res->sub_count && !v->stop; i++) {
        const pbc_submission *s = &v->res->subs[i];
        if (!s->fenced_inside || s->queue_seq >= v->gpu->executed)
            continue;
        pbc_fence_facts x = {.fence = s->fence, .issued = v->res->sub_count, .expected = s->fence,
                             .buffer_executed = 1, .buffer = s->buffer, .start = s->start, .end = s->end,
                             .work_after = v->gpu->queue[s->queue_seq].work_end - s->work_at_fence};
        VM_RULE(v, pbc_rule_fence(&v->res->findings, UINT32_MAX, &x));
    }
}

void pbc_vidmm_host_init(vm *v)
{
    v->gpu->observer_ctx = v;
    v->gpu->on_fence = vm_on_fence;
    v->gpu->on_fetch = vm_on_fetch;
    v->host = (pbc_host){PBC_TARGET_ABI_VERSION, sizeof(pbc_host), v, host_ring_submit,
                         host_ring_fence, host_mmio_read, host_mmio_write, host_log, host_queue_cpu_work};
}

/* ---- Patch and submit ---- */

static uint64_t vm_hash_outside(const vm_buffer *b, uint32_t start, uint32_t end)
{
    uint64_t h = XXH3_64bits(b->host - PBC_PAGE_SIZE, PBC_PAGE_SIZE + (size_t)start);
    return h ^ XXH3_64bits_withSeed(b->host + end, (size_t)(b->span - end) + PBC_PAGE_SIZE, 1);
}

/* The fields DXGKARG_PATCH and DXGKARG_SUBMITCOMMAND share, as VidMm sets
 * them for one submission of a paging buffer (S36, S38-S41, S43, S45). */
#define VM_SUBMISSION_ARGS(x, s, b)                                                \
    do {                                                                           \
        (x).DmaBufferSegmentId = (b)->segment; /* 0: system memory; else S40 */    \
        (x).DmaBufferPhysicalAddress.QuadPart = (LONGLONG)(b)->phys; /* start */   \
        (x).DmaBufferSize = (b)->size;                                             \
        (x).DmaBufferSubmissionStartOffset = (s)->start;                           \
        (x).DmaBufferSubmissionEndOffset = (s)->end;                               \
        (x).pDmaBufferPrivateData = (b)->priv;                                     \
        (x).DmaBufferPrivateDataSize = (b)->priv_size;                             \
        (x).DmaBufferPrivateDataSubmissionStartOffset = (b)->priv_submitted;       \
        (x).DmaBufferPrivateDataSubmissionEndOffset = (b)->priv_write;             \
        (x).SubmissionFenceId = (s)->fence;                                        \
        (x).Flags.Paging = 1;                                                      \
    } while (0)

static void vm_patch(vm *v, pbc_submission *s, const vm_buffer *b)
{
    DXGKARG_PATCH p;
    memset(&p, 0, sizeof(p));
    p.hDevice = NULL; /* paging: no device (S39) */
    p.pDmaBuffer = b->host;
    VM_SUBMISSION_ARGS(p, s, b);
    DXGKARG_PATCH before = p;
    uint64_t outside = vm_hash_outside(b, s->start, s->end);
    NTSTATUS st = pbc_shim_call_patch(v->t, v->adapter, &p);
    if (pbc_vidmm_kernel_check(v, "Patch"))
        return;
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
    VM_SUBMISSION_ARGS(c, s, b);
    v->in_submit = 1;
    v->cur_sub = s->fence - 1;
    s->covered = s->start;
    NTSTATUS st = pbc_shim_call_submit(v->t, v->adapter, &c);
    v->in_submit = 0;
    if (pbc_vidmm_kernel_check(v, "SubmitCommand"))
        return;
    s = &v->res->subs[v->cur_sub]; /* the call may have grown the list */
    s->bytes_hash = XXH3_64bits(b->host + s->start, s->end - s->start);
    if (pbc_rule_status_ddi(&v->res->findings, v->op, "SubmitCommand", s->fence, st))
        v->stop = 1;
    else if (!v->stop)
        VM_RULE(v, pbc_rule_exec_range_rung(&v->res->findings, v->op, s->fence, s->covered, s->start, s->end));
}

/* Patches and submits the filled, not yet submitted part of the current
 * buffer (S08, S36, S38), with the next fence id. */
void pbc_vidmm_flush(vm *v)
{
    vm_buffer *b = &v->buf;
    if (!v->have_buf || b->write_off == b->submitted || v->stop)
        return;
    pbc_submission s = {.buffer = b->id, .fence = v->res->sub_count + 1, .start = b->submitted,
                        .end = b->write_off, .phys = b->phys, .segment = b->segment,
                        .pool_offset = b->pool_offset};
    PBC_PUSH(v->res->subs, v->res->sub_count, v->res->sub_cap, s);
    pbc_submission *sp = &v->res->subs[v->res->sub_count - 1];
    pbc_vidmm_trace(v, "  submit: buffer %u [0x%x, 0x%x) at 0x%" PRIx64 ", private [0x%x, 0x%x), fence %u",
             b->id, sp->start, sp->end, b->phys, b->priv_submitted, b->priv_write, sp->fence);
    vm_patch(v, sp, b);
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

int pbc_vidmm_alloc_idle(const vm *v, int index)
{
    return index < 0 || (!v->allocs[index].in_pending && v->gpu->executed >= v->allocs[index].busy_until);
}

/* Waits until the GPU is done with the allocation (S23). */
void pbc_vidmm_wait_idle(vm *v, int index)
{
    if (index < 0)
        return;
    if (v->allocs[index].in_pending)
        pbc_vidmm_flush(v);
    pbc_gpu_run(v->gpu, v->allocs[index].busy_until);
}
