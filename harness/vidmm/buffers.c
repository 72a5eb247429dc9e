/*
 * Paging buffers and what happens to them: VidMm hands out fresh
 * 4 KiB-aligned buffers surrounded by poisoned guards, offers the target
 * its host interface (ring, fences, registers, log), patches and submits
 * each filled part with its own fence, and knows when an allocation is idle.
 *
 * What a builder wrote where it may not is found at the cost of what it
 * wrote, not of the buffer's size: a buffer's pages are open (read after
 * each call) only around its write offset, and sealed elsewhere through
 * the shim's watch, which hands back the sealed pages written since, with
 * their bytes from before. The pool's watch outlives a run, so the
 * poison of pages no builder touched is not written again.
 */
#include "vidmm/vm.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "ddi/link.h"
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
        !pbc_kernel_take_bugchecks(what, sizeof(what)) && !pbc_kernel_take_unserved(what, sizeof(what)))
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

void pbc_vidmm_pool_use(vm *v)
{
    v->pool = v->opt.pool ? v->opt.pool : &v->own_pool;
    if (!v->pool->base)
        pbc_shim_watch_init(v->pool, v->gpu->dma_pool, PBC_DMA_POOL_SIZE / PBC_PAGE_SIZE, VM_POISON);
    else if (v->pool->base != v->gpu->dma_pool)
        pbc_harness_bug("the paging-buffer pool's watch is another GPU's");
    pbc_shim_watch_use(v->pool);
    v->open_copy = pbc_xmalloc(2 * VM_OPEN_PAGES * PBC_PAGE_SIZE);
}

/* Where pool page p starts, from the current buffer's start (the guard
 * before it is at -PBC_PAGE_SIZE). */
static int64_t vm_page_offset(const vm_buffer *b, uint32_t p)
{
    return ((int64_t)p - b->first_page - 1) * PBC_PAGE_SIZE;
}

/* A fresh buffer, guards included, holds poison and nothing any builder
 * wrote before: its open pages are written, its sealed pages only where
 * they are not still filled from an earlier buffer or run. */
static void vm_buffer_pages(vm *v, vm_buffer *b)
{
    /* What builder code wrote in the last buffer since its last call is
     * no longer judged, as that buffer is never read again. */
    pbc_shim_watch_settle(v->pool);
    b->first_page = b->pool_offset / PBC_PAGE_SIZE - 1;
    b->end_page = b->first_page + b->span / PBC_PAGE_SIZE + 2;
    /* The guards are always sealed: a write there is seen when it happens,
     * and reading them costs nothing per call. A large buffer's pages are
     * open a window at a time. */
    b->open_first = b->first_page + 1;
    b->open_end = b->end_page - 1;
    if (b->open_end - b->open_first > 2 * VM_OPEN_PAGES)
        b->open_end = b->open_first + VM_OPEN_PAGES;
    pbc_shim_watch_fill(v->pool, b->first_page, 1);
    pbc_shim_watch_fill(v->pool, b->open_end, b->end_page - b->open_end);
    pbc_shim_watch_open(v->pool, b->open_first, b->open_end - b->open_first, 1);
}

/* Retires, oldest first, the blocks of buffers whose submissions have all
 * completed (or that had none): fences complete in submission order, so
 * the first block still waiting ends the retired ones. Called between
 * buffers, when no block is the current buffer's. */
static void vm_priv_retire(vm *v)
{
    uint32_t done = 0;
    while (done < v->priv_live_count && v->priv_live[done].last_fence <= v->last_fence_done)
        PBC_PUSH(v->priv_free, v->priv_free_count, v->priv_free_cap, v->priv_live[done++].mem);
    if (!done)
        return;
    v->priv_live_count -= done;
    memmove(v->priv_live, v->priv_live + done, v->priv_live_count * sizeof(*v->priv_live));
}

/* A block for the new buffer's private data: a retired buffer's when
 * there is one. Within VM_PRIV_BUDGET, or after the GPU has run what it
 * was given. */
static uint8_t *vm_priv_take(vm *v, uint32_t size)
{
    vm_priv_retire(v);
    uint64_t block = (uint64_t)size + 2 * VM_PRIV_GUARD;
    if ((uint64_t)(v->priv_live_count + 1) * block > VM_PRIV_BUDGET && v->priv_live_count) {
        pbc_gpu_drain(v->gpu);
        pbc_vidmm_fence_poll(v);
        vm_priv_retire(v);
    }
    uint8_t *mem = v->priv_free_count ? v->priv_free[--v->priv_free_count] : NULL;
    if (!mem && pbc_ddi_is_proxy(v->t)) /* where the driver process sees it (ddi/link.h) */
        mem = pbc_ddi_private_alloc(block);
    if (!mem)
        mem = pbc_xmalloc(block);
    vm_priv_block p = {mem, 0};
    PBC_PUSH(v->priv_live, v->priv_live_count, v->priv_live_cap, p);
    uint64_t live = (uint64_t)v->priv_live_count * block;
    if (live > v->res->private_peak)
        v->res->private_peak = live;
    return mem;
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
    if (v->buf.id && v->buf.id <= v->pool_buf_count)
        v->pool_bufs[v->buf.id - 1].write_off = v->buf.write_off; /* the last buffer's, for good */
    v->scratch_lo = v->scratch_hi = 0;
    b->pool_offset = (uint32_t)(b->phys - v->gpu->pool_base);
    b->segment = v->s->paging_segment;
    if (b->segment) /* S40: a buffer in a segment is addressed as segment base + offset */
        b->phys = v->gpu->pool_alias + b->pool_offset;
    b->id = ++v->res->buffers;
    b->size = size;
    vm_pool_buf pb = {b->pool_offset, size, 0};
    PBC_PUSH(v->pool_bufs, v->pool_buf_count, v->pool_buf_cap, pb);
    b->span = (size + PBC_PAGE_SIZE - 1) / PBC_PAGE_SIZE * PBC_PAGE_SIZE;
    b->write_off = b->submitted = 0;
    vm_buffer_pages(v, b);
    b->priv_size = v->t->private_data_size;
    v->priv_mem = vm_priv_take(v, b->priv_size);
    b->priv = v->priv_mem + VM_PRIV_GUARD;
    b->priv_write = b->priv_submitted = 0;
    memset(v->priv_mem, VM_POISON, b->priv_size + 2 * VM_PRIV_GUARD);
    v->have_buf = 1;
}

/* [*a, *z) = [lo, hi) and [p, q) in common; whether it is not empty. */
static int vm_meet(int64_t lo, int64_t hi, int64_t p, int64_t q, int64_t *a, int64_t *z)
{
    *a = lo > p ? lo : p;
    *z = hi < q ? hi : q;
    return *a < *z;
}

/* Whether bytes [lo, hi) of the current buffer (offsets from its start)
 * hold poison, as every byte past the write offset must: the open pages
 * are read, and of the sealed ones only those written since the last
 * call; the others hold what they held then. */
static int vm_still_poison(const vm *v, int64_t lo, int64_t hi)
{
    const vm_buffer *b = &v->buf;
    int64_t a, z;
    if (vm_meet(lo, hi, vm_page_offset(b, b->open_first), vm_page_offset(b, b->open_end), &a, &z) &&
        !pbc_vidmm_is_poison(b->host + a, (size_t)(z - a)))
        return 0;
    for (uint32_t k = 0; k < v->pool->dirty_count; k++) {
        int64_t p = vm_page_offset(b, v->pool->dirty[k]);
        if (vm_meet(lo, hi, p, p + PBC_PAGE_SIZE, &a, &z) && !pbc_vidmm_is_poison(b->host + a, (size_t)(z - a)))
            return 0;
    }
    return 1;
}

/* Whether bytes [lo, hi) of the current buffer on its sealed pages differ
 * from what those pages held before they were written (the open pages
 * are the caller's to compare). */
static int vm_sealed_changed(const vm *v, int64_t lo, int64_t hi)
{
    const vm_buffer *b = &v->buf;
    for (uint32_t k = 0; k < v->pool->dirty_count; k++) {
        int64_t p = vm_page_offset(b, v->pool->dirty[k]), a, z;
        if (vm_meet(lo, hi, p, p + PBC_PAGE_SIZE, &a, &z) &&
            memcmp(b->host + a, pbc_shim_watch_clean(v->pool, v->pool->dirty[k]) + (a - p), (size_t)(z - a)))
            return 1;
    }
    return 0;
}

/* What written sealed pages hold now in bytes [lo, hi) of the current
 * buffer is what later changes are judged against. */
static void vm_sealed_accept(vm *v, int64_t lo, int64_t hi)
{
    const vm_buffer *b = &v->buf;
    for (uint32_t k = 0; k < v->pool->dirty_count; k++) {
        int64_t p = vm_page_offset(b, v->pool->dirty[k]), a, z;
        if (vm_meet(lo, hi, p, p + PBC_PAGE_SIZE, &a, &z))
            memcpy(pbc_shim_watch_clean(v->pool, v->pool->dirty[k]) + (a - p), b->host + a, (size_t)(z - a));
    }
}

/* XXH3 of the current buffer's unsubmitted bytes below the write offset
 * that lie on its open pages. */
static uint64_t vm_written_open_hash(const vm *v)
{
    const vm_buffer *b = &v->buf;
    int64_t a, z;
    if (!vm_meet(b->submitted, b->write_off, vm_page_offset(b, b->open_first), vm_page_offset(b, b->open_end),
                 &a, &z))
        a = z = 0;
    return XXH3_64bits(b->host + a, (size_t)(z - a));
}

/* The GPU's scratch past the write offset is not the builder's to keep:
 * the call is handed those bytes as free space, poison as ever (written
 * sealed pages included, with the bytes they are judged against). */
static void vm_scratch_forget(vm *v)
{
    vm_buffer *b = &v->buf;
    uint32_t lo = v->scratch_lo > b->write_off ? v->scratch_lo : b->write_off, hi = v->scratch_hi;
    v->scratch_lo = v->scratch_hi = 0;
    if (hi <= lo)
        return;
    memset(b->host + lo, VM_POISON, hi - lo);
    for (uint32_t k = 0; k < v->pool->dirty_count; k++) {
        int64_t p = vm_page_offset(b, v->pool->dirty[k]), x, z;
        if (vm_meet(lo, hi, p, p + PBC_PAGE_SIZE, &x, &z))
            memset(pbc_shim_watch_clean(v->pool, v->pool->dirty[k]) + (x - p), VM_POISON, (size_t)(z - x));
    }
}

void pbc_vidmm_buffer_begin_call(vm *v)
{
    vm_buffer *b = &v->buf;
    vm_scratch_forget(v);
    uint32_t at = (b->pool_offset + b->write_off) / PBC_PAGE_SIZE;
    /* Halfway through its open pages, a large buffer's open pages move on
     * to the write offset's; those left behind are sealed as written. */
    uint32_t last = b->end_page - 1; /* the guard after */
    if (b->open_end < last && at >= b->open_first + VM_OPEN_PAGES / 2) {
        uint32_t end = at + VM_OPEN_PAGES < last ? at + VM_OPEN_PAGES : last;
        uint32_t from = b->open_end > at ? b->open_end : at;
        pbc_shim_watch_seal(v->pool, b->open_first, (b->open_end < at ? b->open_end : at) - b->open_first);
        pbc_shim_watch_open(v->pool, from, end - from, 0);
        b->open_first = at;
        b->open_end = end;
    }
    /* What builder code changed below the write offset since the last
     * call is what this call is handed: only what the call does is its. */
    vm_sealed_accept(v, 0, b->write_off);
    v->written_hash = vm_written_open_hash(v);
}

void pbc_vidmm_buffer_judge_call(vm *v, const uint8_t *now, int *outside, int *past)
{
    const vm_buffer *b = &v->buf;
    *outside = !vm_still_poison(v, -(int64_t)PBC_PAGE_SIZE, 0) ||
               !vm_still_poison(v, b->size, (int64_t)b->span + PBC_PAGE_SIZE) ||
               vm_written_open_hash(v) != v->written_hash || vm_sealed_changed(v, b->submitted, b->write_off);
    /* Only a pointer inside the buffer may be read through. */
    *past = now >= b->host + b->write_off && now <= b->host + b->size && !vm_still_poison(v, now - b->host, b->size);
}

void pbc_vidmm_buffer_end_call(vm *v) { pbc_shim_watch_settle(v->pool); }

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
    uint32_t seq = w->v->gpu->running;
    pbc_vidmm_trace(w->v, "  gpu queue: the target's CPU work runs");
    /* Held against a paging fence reached before it ran: what it changes
     * is judged (PB-PAGING-FENCE). */
    int held = w->v->fx_held_count && pbc_vidmm_effects_before(w->v, seq);
    w->v->gpu->cpu = (pbc_prov){.submission = seq + 1, .op = w->op};
    pbc_shim_enter();
    w->fn(w->arg);
    pbc_shim_leave(); /* what the work wrote through CPU views lands now */
    if (held)
        pbc_vidmm_effects_after(w->v, seq, w->op);
    /* A worker that reads (or writes) a ReadPhysical/WritePhysical address
     * through any view does the access when its turn comes (PB-PHYSICAL);
     * its accesses are its own, not the next BuildPagingBuffer call's. */
    const pbc_shim_access *acc;
    uint32_t na = pbc_shim_take_accesses(&acc);
    for (uint32_t i = 0; i < w->v->physical_count; i++)
        pbc_vidmm_note_cpu_physical(&w->v->physical[i], acc, na);
    pbc_vidmm_kernel_check(w->v, "CPU work queued by SubmitCommand");
}

/* The paging operation whose bytes end last at or before `upto` in the
 * submission being handed over: the one CPU work queued there carries
 * out. VidMm submits paging buffers when later work needs them, so the
 * current operation is often the render work that rang the doorbell, not
 * what the worker runs. The newest record of the buffer's range wins (a
 * buffer is reused). */
static uint32_t vm_submitted_op(const vm *v, uint32_t upto)
{
    const pbc_submission *s = &v->res->subs[v->cur_sub];
    for (uint32_t i = v->res->write_count; i-- > 0;) {
        const pbc_write_rec *r = &v->res->writes[i];
        if (r->buffer == s->buffer && r->start >= s->start && r->end <= upto && r->end > r->start)
            return r->op;
    }
    return v->op;
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
    uint32_t op = v->op;
    if (v->in_submit) {
        const pbc_submission *s = &v->res->subs[v->cur_sub];
        op = vm_submitted_op(v, s->rung ? s->covered : s->end);
    }
    *w = (vm_cpu_work){v, fn, arg, op};
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

/* A driver's system thread woken by SubmitCommand (kernel/services.h):
 * the CPU work it does is the submission's, done when the paging engine
 * reaches the point where SubmitCommand woke it, as work queued there
 * with host_queue_cpu_work would be, and judged the same way. */
static void vm_give_cpu(void *arg)
{
    (void)arg;
    pbc_kernel_yield();
}

static void vm_on_wake(void *ctx) { host_queue_cpu_work(ctx, vm_give_cpu, NULL); }

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
        if (!s->fenced_inside || !v->gpu->queue[s->queue_seq].done)
            continue;
        pbc_fence_facts x = {.fence = s->fence, .issued = v->res->sub_count, .expected = s->fence,
                             .buffer_executed = 1, .buffer = s->buffer, .start = s->start, .end = s->end,
                             .work_after = v->gpu->queue[s->queue_seq].work_end - s->work_at_fence};
        VM_RULE(v, pbc_rule_fence(&v->res->findings, UINT32_MAX, &x));
    }
}

/* Whether paging buffer `id` is still in use: the current one, or one
 * with a submission the GPU has not run. */
static int vm_buffer_live(const vm *v, uint32_t id)
{
    if (v->have_buf && id == v->buf.id)
        return 1;
    for (uint32_t i = 0; i < v->res->sub_count; i++) {
        const pbc_submission *s = &v->res->subs[i];
        if (s->buffer == id && s->rung && !v->gpu->queue[s->queue_seq].done)
            return 1;
    }
    return 0;
}

/* A GPU write into the paging-buffer pool (docs/rules.md, PB-GPU-FAULT):
 * the pool is memory, and a write there is judged by what it breaks.
 * Only the paging buffer that is executing may be written, and in it only
 * bytes the GPU will not fetch again: those it already ran, and those
 * past how far the builder wrote (the unsubmitted tail, S03-S04: space
 * the builder was handed and did not use). Bytes still to be fetched (the
 * packets after the one running, later submissions of the buffer, bytes
 * written and not yet submitted), another buffer still in use, the guard
 * pages and anything outside every buffer are not its to write. */
static const char *vm_on_pool_write(void *ctx, uint64_t offset, uint64_t len, int *ahead)
{
    vm *v = ctx;
    const pbc_gpu *g = v->gpu;
    if (v->opt.mode != PBC_MODE_TARGET)
        return "GPU write into the paging-buffer pool";
    const pbc_qentry *e = g->running < g->queued ? &g->queue[g->running] : NULL;
    if (!e || e->kind != PBC_QE_DMA || e->tag >= v->res->sub_count)
        return "GPU write into the paging-buffer pool by work that is no paging buffer's";
    uint32_t own = v->res->subs[e->tag].buffer;
    for (uint64_t at = offset; at < offset + len;) {
        uint32_t id = 0;
        for (uint32_t k = v->pool_buf_count; k-- > 0 && !id;) /* the newest buffer there */
            if (at >= v->pool_bufs[k].pool_offset && at - v->pool_bufs[k].pool_offset < v->pool_bufs[k].size)
                id = k + 1;
        if (!id)
            return "GPU write into the paging-buffer pool outside every paging buffer (a guard page)";
        const vm_pool_buf *pb = &v->pool_bufs[id - 1];
        uint64_t end = offset + len < (uint64_t)pb->pool_offset + pb->size ? offset + len
                                                                           : (uint64_t)pb->pool_offset + pb->size;
        if (id != own) {
            if (vm_buffer_live(v, id))
                return "GPU write into another paging buffer still in use";
            at = end;
            continue;
        }
        uint32_t written = id == v->buf.id ? v->buf.write_off : pb->write_off;
        int64_t next = pbc_gpu_pool_offset(g, e->phys + g->packet_next);
        next = next < 0 ? 0 : next - (int64_t)pb->pool_offset;
        uint64_t lo = at - pb->pool_offset, hi = end - pb->pool_offset;
        if (lo < written && (int64_t)hi > next) {
            /* Packets of the running submission after the one running:
             * the write is made, and judged by the packets it changes
             * (the GPU decodes each both ways). Beyond the submission
             * (later ones, bytes not yet submitted) it is a fault. */
            const pbc_submission *sub = &v->res->subs[e->tag];
            if ((int64_t)lo < next || hi > sub->end || pb->pool_offset != sub->pool_offset)
                return "GPU write into bytes of its paging buffer still to be fetched";
            *ahead = 1;
        }
        if (v->have_buf && id == v->buf.id && hi > written) { /* the current buffer's tail: its scratch */
            uint32_t from = lo > written ? (uint32_t)lo : written;
            if (v->scratch_hi <= v->scratch_lo || from < v->scratch_lo)
                v->scratch_lo = from;
            if (hi > v->scratch_hi)
                v->scratch_hi = (uint32_t)hi;
        }
        at = end;
    }
    return NULL;
}

void pbc_vidmm_host_init(vm *v)
{
    v->gpu->observer_ctx = v;
    v->gpu->on_fence = vm_on_fence;
    v->gpu->on_fetch = vm_on_fetch;
    v->gpu->pool_write = vm_on_pool_write;
    v->host = (pbc_host){PBC_TARGET_ABI_VERSION, sizeof(pbc_host), v, host_ring_submit,
                         host_ring_fence, host_mmio_read, host_mmio_write, host_log, host_queue_cpu_work};
}

/* ---- Patch and submit ---- */

/* Copies the bytes of the current buffer's open pages outside [start,
 * end) to v->open_copy, or with compare, says whether they still equal
 * that copy. */
static int vm_open_outside(vm *v, uint32_t start, uint32_t end, int compare)
{
    const vm_buffer *b = &v->buf;
    int64_t lo = vm_page_offset(b, b->open_first), hi = vm_page_offset(b, b->open_end);
    const int64_t piece[2][2] = {{lo, start}, {end, hi}};
    size_t at = 0;
    for (int k = 0; k < 2; k++) {
        int64_t a, z;
        if (!vm_meet(piece[k][0], piece[k][1], lo, hi, &a, &z))
            continue;
        if (!compare)
            memcpy(v->open_copy + at, b->host + a, (size_t)(z - a));
        else if (memcmp(v->open_copy + at, b->host + a, (size_t)(z - a)))
            return 1;
        at += (size_t)(z - a);
    }
    return 0;
}

/* Whether Patch changed bytes of the buffer or its guards outside [start,
 * end), by what it found: the open pages' bytes (copied) and the sealed
 * pages' (those it writes keep their bytes from before). */
static int vm_patch_changed_outside(vm *v, uint32_t start, uint32_t end)
{
    return vm_open_outside(v, start, end, 1) || vm_sealed_changed(v, -(int64_t)PBC_PAGE_SIZE, start) ||
           vm_sealed_changed(v, end, (int64_t)v->buf.span + PBC_PAGE_SIZE);
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
    /* Sealed pages written before Patch are judged by the next call, as
     * the bytes Patch found. */
    vm_sealed_accept(v, INT64_MIN, INT64_MAX);
    vm_open_outside(v, s->start, s->end, 0);
    NTSTATUS st = pbc_shim_call_patch(v->t, v->adapter, &p);
    pbc_vidmm_fence_poll(v);
    if (pbc_vidmm_kernel_check(v, "Patch"))
        return;
    pbc_findings *f = &v->res->findings;
    if (pbc_rule_status_ddi(f, v->op, "Patch", s->fence, st))
        v->stop = 1;
    else
        VM_RULE(v, pbc_rule_patch(f, v->op, s->fence, b->id, s->start, s->end,
                                  memcmp(&before, &p, sizeof(p)) != 0, vm_patch_changed_outside(v, s->start, s->end)));
}

/* What the paging engine waits for before it runs what SubmitCommand
 * queues: the render work queued before on the allocations the buffer's
 * operations name, or all of it when one names none. VidMm holds a paging
 * buffer back until the allocations it moves are no longer in use; render
 * work on other allocations goes on beside it. */
static uint32_t vm_paging_wait(const vm *v)
{
    if (v->pending_global)
        return UINT32_MAX;
    uint32_t wait = 0;
    for (uint32_t i = 0; i < v->s->alloc_count; i++) {
        const vm_alloc *a = &v->allocs[i];
        if (!a->in_pending)
            continue;
        if (a->render_until > wait)
            wait = a->render_until;
        if (a->range_wait > wait)
            wait = a->range_wait;
    }
    return wait;
}

static void vm_submit_command(vm *v, pbc_submission *s, const vm_buffer *b)
{
    DXGKARG_SUBMITCOMMAND c;
    memset(&c, 0, sizeof(c));
    VM_SUBMISSION_ARGS(c, s, b);
    /* The GPU scheduler resolves a paging buffer's dependencies before it
     * hands the buffer to the driver (docs/rules.md, "When SubmitCommand
     * comes"): the render work it waits for has run when SubmitCommand is
     * called, so a driver may start whatever it has been handed. */
    uint32_t wait = vm_paging_wait(v);
    pbc_gpu_run_engine(v->gpu, PBC_ENGINE_RENDER, wait == UINT32_MAX ? v->gpu->queued : wait);
    v->in_submit = 1;
    v->cur_sub = s->fence - 1;
    s->covered = s->start;
    v->gpu->paging_wait = wait;
    pbc_kernel_on_wake(vm_on_wake, v);
    NTSTATUS st = pbc_shim_call_submit(v->t, v->adapter, &c);
    pbc_kernel_on_wake(NULL, NULL);
    pbc_vidmm_fence_poll(v);
    v->gpu->paging_wait = UINT32_MAX;
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
    v->priv_live[v->priv_live_count - 1].last_fence = sp->fence; /* the current buffer's block */
    v->paging_queued = v->gpu->queued;
    uint32_t done_at = sp->rung ? sp->queue_seq + 1 : v->gpu->queued;
    for (uint32_t i = 0; i < v->s->alloc_count; i++)
        if (v->allocs[i].in_pending) {
            v->allocs[i].in_pending = 0;
            v->allocs[i].paging_until = done_at;
            v->allocs[i].paging_fence = sp->fence;
        }
    if (v->pending_global) {
        v->pending_global = 0;
        v->global_fence = sp->fence;
    }
    b->submitted = b->write_off;
    b->priv_submitted = b->priv_write;
}

int pbc_vidmm_alloc_idle(const vm *v, int index)
{
    if (index < 0)
        return 1;
    const vm_alloc *a = &v->allocs[index];
    return !a->in_pending && pbc_gpu_engine_done(v->gpu, PBC_ENGINE_PAGING, a->paging_until) &&
           pbc_gpu_engine_done(v->gpu, PBC_ENGINE_RENDER, a->render_until);
}

void pbc_vidmm_claim_range(vm *v, uint32_t index, uint64_t lo, uint64_t hi)
{
    /* Only render work on memory segments can be there (vm_gpu_work keeps
     * it apart); what has run is dropped as the list is walked. */
    uint32_t kept = 0;
    for (uint32_t k = 0; k < v->seg_render_count; k++) {
        vm_render_range u = v->seg_renders[k];
        if (v->gpu->queue[u.until - 1].done)
            continue;
        if (u.lo < hi && lo < u.hi && v->allocs[index].range_wait < u.until)
            v->allocs[index].range_wait = u.until;
        v->seg_renders[kept++] = u;
    }
    v->seg_render_count = kept;
}

/* Waits until the GPU is done with the allocation (S23). */
void pbc_vidmm_wait_idle(vm *v, int index)
{
    if (index < 0)
        return;
    if (v->allocs[index].in_pending)
        pbc_vidmm_flush(v);
    pbc_gpu_run_engine(v->gpu, PBC_ENGINE_PAGING, v->allocs[index].paging_until);
    pbc_gpu_run_engine(v->gpu, PBC_ENGINE_RENDER, v->allocs[index].render_until);
}
