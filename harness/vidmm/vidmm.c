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
#include "vidmm/vm.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ddi/link.h"
#include "kernel/services.h"
#include "kernel/shim.h"

/* Paging buffers in a segment are the pool seen at the segment's window. */
_Static_assert(PBC_PAGING_WINDOW == PBC_DMA_POOL_SIZE, "the paging window must hold the whole pool");

static void vm_check_unmapped(vm *v, int wrong_target_only);
static void vm_check_physical(vm *v);

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
    pbc_vidmm_check_fences_inside(v);
    vm_check_physical(v);
    vm_check_unmapped(v, 0);
}

/* ReadPhysical and WritePhysical, judged by the small accesses the GPU
 * logged at their addresses: one of the operation's own packets must read
 * (or write) 1-8 bytes starting exactly there (S28, S29), or the
 * builder's CPU must read (or write) the address's page through a view
 * during the operation (the shim sees accesses a page at a time). */
static void vm_check_physical(vm *v)
{
    const pbc_gpu *g = v->gpu;
    for (uint32_t i = 0; i < v->physical_count && !v->stop; i++) {
        const vm_physical_op *p = &v->physical[i];
        int done = p->cpu_done;
        for (uint32_t k = 0; k < g->access_count && !done; k++) {
            const pbc_access *a = &g->accesses[k];
            if ((int)a->write != p->write || a->addr != p->addr)
                continue;
            const pbc_write_rec *w = pbc_record_find_write(v->res, g, a->submission, a->packet_offset);
            done = w && w->op == p->op;
        }
        if (!done && (p->unwatched || g->accesses_lost)) {
            pbc_vidmm_trace(v, "  %s at 0x%" PRIx64 " not judged: the GPU's access log was full",
                         p->write ? "WritePhysical" : "ReadPhysical", p->addr);
            continue;
        }
        VM_RULE(v, pbc_rule_physical(&v->res->findings, p->op, p->write, p->segment, p->addr, done));
    }
}

/* The GPU translating through a driver-kept GART asks the driver's view,
 * so accesses during the run see what the driver programmed. */
static int vm_gart_lookup(void *ctx, UINT segment, uint64_t index, pbc_gart_entry *out)
{
    vm *v = ctx;
    pbc_gart_view e = {0};
    pbc_shim_enter(); /* the driver's code reads its table: through views up to date */
    int rc = v->t->gart_view(v->adapter, segment, index, &e);
    pbc_shim_leave();
    if (rc != 0)
        return -1;
    out->addr = e.valid ? e.page : 0;
    out->flags = (e.valid ? PBC_GART_VALID : 0) | (e.cache_coherent ? PBC_GART_CACHE_COHERENT : 0);
    out->touched = 1;
    return 0;
}

/* A driver that keeps its GART elsewhere (registers, a table in its own
 * memory) says what each entry holds through its view; the model's GART
 * then holds the same, so every check judges it like a GPU-written one.
 * Asked for every aperture page the scenario ever mapped. */
static void vm_apply_gart_view(vm *v)
{
    if (!v->t->gart_view)
        return;
    pbc_shim_enter();
    for (uint32_t i = 0; i < v->rs.valid_count; i++) {
        const pbc_res_range *r = &v->rs.valid[i];
        for (uint64_t p = r->first; p < r->first + r->count; p++) {
            pbc_gart_view e = {0};
            if (v->t->gart_view(v->adapter, r->segment, p, &e) != 0)
                continue; /* the driver cannot tell: the model's entry stands */
            uint32_t flags = (e.valid ? PBC_GART_VALID : 0) | (e.cache_coherent ? PBC_GART_CACHE_COHERENT : 0);
            pbc_gpu_gart_set(v->gpu, r->segment, p, e.valid ? e.page : 0, flags);
        }
    }
    pbc_shim_leave();
}

/* Whether a GPU fault stopped a buffer before the end of the packets
 * operation `op` wrote there: its work may simply not have run. */
static int vm_cut_by_fault(const vm *v, uint32_t op)
{
    const pbc_gpu *g = v->gpu;
    for (uint32_t k = 0; k < g->fault_count && k < PBC_MAX_FAULTS_KEPT; k++) {
        const pbc_fault *f = &g->faults[k];
        uint32_t buffer;
        uint64_t at;
        if (pbc_record_locate(v->res, g, f->submission, f->packet_offset, &buffer, &at))
            continue;
        for (uint32_t i = 0; i < v->res->write_count; i++) {
            const pbc_write_rec *w = &v->res->writes[i];
            if (w->op == op && w->buffer == buffer && at < w->end)
                return 1;
        }
    }
    return 0;
}

/* Unmapped pages must hold the dummy page (S33). A valid entry pointing
 * elsewhere is a root cause, unless a GPU fault stopped the buffer before
 * the unmap's packets ran; an invalid one may only mean a fault stopped
 * the submission first, so those are checked after faults. */
static void vm_check_unmapped(vm *v, int wrong_target_only)
{
    v->op = UINT32_MAX;
    for (uint32_t i = 0; i < v->unmapped_count && !v->stop; i++) {
        const pbc_res_range *u = &v->unmapped[i].range;
        if (wrong_target_only && vm_cut_by_fault(v, v->unmapped[i].op))
            continue;
        const pbc_gpu_segment *seg = pbc_gpu_segment_by_id(v->gpu, u->segment);
        for (uint64_t p = u->first; p < u->first + u->count; p++) {
            const pbc_gart_entry *e = &seg->gart[p];
            if (wrong_target_only && !(e->flags & PBC_GART_VALID))
                continue;
            uint64_t addr = e->addr;
            if (!(e->flags & PBC_GART_VALID) && v->t->gart_view) {
                /* The model keeps no page for an invalid entry; the driver's
                 * view says which one it holds, so the finding can name it. */
                pbc_gart_view view = {0};
                pbc_shim_enter();
                if (v->t->gart_view(v->adapter, u->segment, p, &view) == 0 && !view.valid)
                    addr = view.page;
                pbc_shim_leave();
            }
            if (pbc_rule_unmap_dummy(&v->res->findings, u->segment, p, (e->flags & PBC_GART_VALID) != 0, addr,
                                     v->gpu->dummy_page)) {
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

/* Whether there are faults, all of them kept, all in render work. */
static int vm_faults_are_render_work(const vm *v)
{
    const pbc_gpu *g = v->gpu;
    if (!g->fault_count || g->fault_count > PBC_MAX_FAULTS_KEPT)
        return 0;
    for (uint32_t i = 0; i < g->fault_count; i++) {
        uint32_t sub = g->faults[i].submission;
        if (!sub || sub > g->queued || g->queue[sub - 1].kind != PBC_QE_WORK)
            return 0;
    }
    return 1;
}

static int vm_setup(vm *v)
{
    const pbc_scenario *s = v->s;
    v->allocs = pbc_xcalloc(s->alloc_count, sizeof(*v->allocs));
    v->dma_size = PBC_DEFAULT_DMA_SIZE;
    /* `dma` statements before every other operation size the first buffer
     * too, which VidMm's own table setup (pbc_vidmm_va_setup) takes before
     * any operation runs. */
    for (uint32_t i = 0; i < s->op_count && s->ops[i].kind == PBC_SOP_DMA; i++)
        v->dma_size = s->ops[i].dma_size;
    const char *why = pbc_residency_init(&v->rs, s);
    if (why)
        pbc_harness_bug("a validated scenario fails the residency tracker: %s", why);
    pbc_vidmm_mask_add(v, v->gpu->dummy_page, v->gpu->dummy_page + PBC_PAGE_SIZE,
                "the dummy page absorbs accesses through unmapped aperture pages (S33)");
    pbc_vidmm_host_init(v);
    pbc_vidmm_va_reserve(v);
    if (v->opt.mode == PBC_MODE_TARGET && v->t->gart_view)
        v->gpu->gart_lookup = vm_gart_lookup;
    uint64_t win_start, win_end;
    if (pbc_scenario_paging_window(s, s->paging_segment, &win_start, &win_end))
        pbc_gpu_alias_pool(v->gpu, s->segments[s->paging_segment - 1].base + win_start);
    if (v->opt.mode == PBC_MODE_TARGET) {
        pbc_adapter_info info = {sizeof(info), s->segment_count, s->segments, v->gpu->dummy_page,
                                 &v->host, v->gpu->mmio_base, sizeof(v->gpu->mmio)};
        pbc_shim_enter();
        NTSTATUS st = v->t->create_adapter(&info, &v->adapter);
        pbc_shim_leave();
        /* A driver whose own StartDevice called a DXGKRNL callback pbcheck
         * does not serve (or misused a kernel service) is judged for it,
         * even when that made its adapter fail: not skipped as a refusal. */
        if (pbc_vidmm_kernel_check(v, "create_adapter")) {
            if (st != STATUS_SUCCESS)
                v->adapter = NULL;
            return 1;
        }
        if (st != STATUS_SUCCESS)
            return -1;
    }
    for (uint32_t i = 0; i < s->alloc_count; i++)
        if (pbc_vidmm_alloc_create(v, i, &v->rs.a[i], s->allocs[i].seed))
            return -1;
    pbc_vidmm_va_setup(v);
    return 0;
}

int pbc_vidmm_alloc_create(vm *v, uint32_t index, const pbc_res_alloc *where, uint32_t seed)
{
    const pbc_salloc *al = &v->s->allocs[index];
    if (v->opt.mode == PBC_MODE_TARGET) {
        pbc_allocation_info ai = {sizeof(ai), al->flags, al->size};
        pbc_shim_enter();
        NTSTATUS st = v->t->create_allocation(v->adapter, &ai, &v->allocs[index].h);
        pbc_shim_leave();
        if (st != STATUS_SUCCESS) {
            v->allocs[index].h = NULL;
            return -1;
        }
    }
    if (where->where == PBC_WHERE_SYSTEM)
        pbc_vidmm_mdl_create(v, index, &v->allocs[index].mdl);
    if (where->where != PBC_WHERE_NONE) {
        v->gpu->cur.writer = PBC_WRITER_INIT;
        pbc_vidmm_lay_content(v, index, where, seed);
        v->gpu->cur.writer = PBC_WRITER_NONE;
    }
    return 0;
}

/* VidMm destroys an allocation only once nothing queued can still use it:
 * render work on it, and every paging buffer submitted so far (their
 * packets, CPU work and fences may name it). Work queued on the GPU after
 * that, on other allocations, goes on. */
void pbc_vidmm_alloc_destroy(vm *v, uint32_t index)
{
    vm_alloc *va = &v->allocs[index];
    pbc_vidmm_flush(v);
    if (v->opt.mode == PBC_MODE_TARGET) {
        uint32_t until = va->paging_until > v->paging_queued ? va->paging_until : v->paging_queued;
        pbc_gpu_run_engine(v->gpu, PBC_ENGINE_PAGING, until);
        pbc_gpu_run_engine(v->gpu, PBC_ENGINE_RENDER, va->render_until);
        pbc_shim_enter();
        v->t->destroy_allocation(v->adapter, va->h);
        pbc_shim_leave();
        pbc_vidmm_kernel_check(v, "DestroyAllocation");
    }
    pbc_vidmm_cpu_view_release(v, &va->ctx_mdl, &va->ctx_va); /* the context's view lives as long as it */
    va->h = NULL;
    va->paging_until = va->render_until = va->paging_fence = va->range_wait = 0;
    va->driver_lo = va->driver_hi = 0;
    pbc_vidmm_mdl_retire(v, &va->mdl);
}

static void vm_teardown(vm *v)
{
    pbc_shim_enter();
    for (uint32_t i = 0; i < v->s->alloc_count; i++) {
        const vm_mdl *m = &v->allocs[i].mdl;
        if (m->mdl) /* where the allocation's pages are, for the content oracle */
            pbc_record_alloc_frames(v->res, i, m->frames);
        if (v->allocs[i].h)
            v->t->destroy_allocation(v->adapter, v->allocs[i].h);
    }
    if (v->adapter)
        v->t->destroy_adapter(v->adapter);
    pbc_shim_leave();
    /* CPU views the builder left go now, before the MDLs they may map. */
    pbc_shim_unbind();
    pbc_shim_watch_fini(&v->own_pool);
    free(v->open_copy);
    free(v->arr);
    for (uint32_t i = 0; i < v->arr_old_count; i++)
        free(v->arr_old[i]);
    free(v->arr_old);
    for (uint32_t i = 0; i < v->s->alloc_count; i++) {
        pbc_vidmm_mdl_free(&v->allocs[i].mdl);
        pbc_vidmm_mdl_free(&v->allocs[i].old_mdl);
        pbc_vidmm_mdl_free(&v->allocs[i].view_mdl); /* its view went with the others */
        pbc_vidmm_mdl_free(&v->allocs[i].ctx_mdl);
    }
    v->gpu->on_fence = NULL;
    v->gpu->on_fetch = NULL;
    v->gpu->pool_write = NULL;
    v->gpu->gart_lookup = NULL;
    v->gpu->on_value = NULL;
    v->gpu->value_addr = 0;
    v->gpu->observer_ctx = NULL;
    pbc_residency_fini(&v->rs);
    free(v->pool_bufs);
    free(v->allocs);
    for (uint32_t i = 0; i < v->priv_live_count; i++)
        if (!pbc_ddi_private_free(v->priv_live[i].mem))
            free(v->priv_live[i].mem);
    free(v->priv_live);
    for (uint32_t i = 0; i < v->priv_free_count; i++)
        if (!pbc_ddi_private_free(v->priv_free[i]))
            free(v->priv_free[i]);
    free(v->priv_free);
    for (uint32_t i = 0; i < v->retired_count; i++)
        pbc_vidmm_mdl_free(&v->retired[i]);
    free(v->retired);
    for (uint32_t i = 0; i < v->cpu_work_count; i++)
        free(v->cpu_work[i]);
    free(v->cpu_work);
    free(v->unmapped);
    free(v->physical);
    free(v->aperture_uses);
    free(v->seg_renders);
    free(v->pts);
    free(v->mfence_ops);
    free(v->fence_buf_first);
    free(v->fence_sub_next);
    free(v->effects);
    free(v->fx_held);
    free(v->fx_pieces);
    free(v->fx_early);
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
        if (!pbc_sop_op_supported(t, &s->ops[i])) {
            res->unsupported_op = i + 1;
            return 2;
        }
    pbc_shim_bind(gpu);
    const pbc_adapter_decl *decl = t->adapter;
    uint32_t invisible = 0;
    for (uint32_t i = 0; decl && i < decl->segment_count; i++)
        if (!decl->segments[i].cpu_visible && decl->segments[i].SegmentId < 32)
            invisible |= 1u << decl->segments[i].SegmentId;
    pbc_shim_set_invisible(invisible);
    if (opt->mode == PBC_MODE_TARGET)
        pbc_vidmm_pool_use(&v);
    pbc_kernel_reset();
    int setup = vm_setup(&v);
    if (setup) {
        vm_teardown(&v);
        return setup > 0 ? 1 : 2; /* a finding, or a refusal */
    }
    /* Over its budget of pages as bytes (gpu/mem.h) the run's memory is
     * not what was written: no further operation is worth its time. */
    for (uint32_t i = 0; i < s->op_count && !v.stop && !gpu->mem.over; i++) {
        const pbc_sop *op = &s->ops[i];
        v.op = i;
        v.sub = v.pass = 0;
        pbc_vidmm_trace(&v, "op %u (line %u): %s %s", i + 1, op->line, pbc_sop_name(op->kind),
                 pbc_sop_has_alloc(op->kind) ? s->allocs[op->alloc].name : "");
        pbc_vidmm_do_op(&v, op);
        pbc_residency_apply(&v.rs, op);
        res->ops_done = i + 1;
    }
    if (!v.stop) {
        pbc_vidmm_flush(&v);
        pbc_gpu_drain(gpu);
    }
    if (opt->mode == PBC_MODE_TARGET)
        vm_apply_gart_view(&v);
    if (!v.stop && opt->mode == PBC_MODE_TARGET)
        vm_check_unmapped(&v, 1);
    /* A fault stops a submission, so it explains what follows; but when
     * every fault is render work's, all paging work ran, and page tables
     * that translate wrong are the cause (PB-PTE before PB-GPU-FAULT). */
    int tables_judged = !v.stop && opt->mode == PBC_MODE_TARGET && vm_faults_are_render_work(&v);
    if (tables_judged)
        pbc_vidmm_va_check(&v);
    if (!v.stop)
        vm_report_faults(&v);
    if (!v.stop && opt->mode == PBC_MODE_TARGET)
        vm_final_checks(&v);
    if (!v.stop && opt->mode == PBC_MODE_TARGET && !tables_judged)
        pbc_vidmm_va_check(&v);
    res->exec_hash = gpu->exec_hash;
    if (!v.stop && opt->mode == PBC_MODE_TARGET)
        pbc_vidmm_kernel_check(&v, "the run");
    vm_teardown(&v);
    if (v.refused)
        return 2;
    /* The adapter and its allocations are destroyed: whatever pool the
     * builder still holds is a leak. */
    char what[300];
    if (pbc_kernel_take_leaks(what, sizeof(what)) && !v.stop && opt->mode == PBC_MODE_TARGET)
        VM_RULE(&v, pbc_rule_kernel(&res->findings, UINT32_MAX, "the builder, once its adapter was destroyed,",
                                    what));
    /* So are the system threads it started: one still running is ended. */
    if (pbc_kernel_take_threads(what, sizeof(what)) && !v.stop && opt->mode == PBC_MODE_TARGET)
        VM_RULE(&v, pbc_rule_kernel(&res->findings, UINT32_MAX, "the builder, once its adapter was destroyed,",
                                    what));
    if (opt->mode == PBC_MODE_TARGET) { /* what the builder printed, for the reports */
        size_t len;
        const char *log = pbc_kernel_log(&len);
        pbc_record_set_log(res, log, len);
    }
    res->stopped = (uint32_t)v.stop;
    pbc_shim_unbind();
    return v.stop ? 1 : 0;
}
