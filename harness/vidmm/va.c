/*
 * GPU virtual addresses (WDDM 2.x, GpuMmu): VidMm's page tables and the
 * DXGKARG_BUILDPAGINGBUFFER operations that keep them (UpdatePageTable,
 * FlushTlb), for D3DDDI_MAPGPUVIRTUALADDRESS requests (va-map, va-zero),
 * their release (va-unmap) and the allocations they map moving.
 *
 * One address space a process (space 0, whose root VidMm points the GPU
 * at, and where VidMm keeps its paging windows, tables window and paging
 * fence), and one for each further `space=` of the scenario: each has its
 * own root, tables, ranges, process handle and TLB entries, and VidMm
 * names the space's root and process in every UpdatePageTable and FlushTlb
 * it issues for it. Tables live in system memory VidMm takes from the pool, and
 * start as garbage, as memory does: VidMm initializes each with a Repeat
 * of a not-valid entry (InitialUpdate), the root immediately through its
 * CPU mapping (CPU_VIRTUAL, pDmaBuffer NULL), the others in paging
 * buffers by physical address (GPU_PHYSICAL). After changing entries that
 * were valid, VidMm flushes the TLB for the range.
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS */
#include "vidmm/vm.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ddi/link.h"
#include "kernel/services.h"
#include "spec.h"

#define VA_REGION_2M ((uint64_t)1 << 21)
#define VA_GARBAGE 0xA5C3F00Du /* what a table's memory holds before its initial update */
#define VA_PROCESS(k) ((HANDLE)PBC_VA_PROCESS(k)) /* space 0's is what it always was */

static const char *const va_mask_reason = "page tables hold the builder's own entries: judged by PB-PTE";

/* Pages for every table the scenario can need, in one run taken before
 * anything else: system memory the scenario fills cannot leave the
 * tables without room. A scenario's count of entry pages bounds its
 * tables (3 pages for each 512 entries: a leaf and its window's share,
 * and the level-1 tables and the root). */
void pbc_vidmm_va_reserve(vm *v)
{
    uint64_t va = pbc_scenario_va_pages(v->s), ranges = 0;
    int uses = va > 0;
    for (uint32_t i = 0; i < v->s->op_count; i++) {
        uint32_t k = v->s->ops[i].kind;
        uses |= k == PBC_SOP_SIGNAL_FENCE;
        ranges += k == PBC_SOP_VA_MAP || k == PBC_SOP_VA_ZERO || k == PBC_SOP_VA_MOVE_TABLES;
    }
    if (!uses)
        return;
    /* Tables for the pages, and for each range its own leaf, directory
     * and upper directory at worst: small ranges far apart (in separate
     * 2 MiB or 1 GiB regions) share none. */
    uint64_t want = 3 * ((va + PBC_PT_ENTRIES - 1) / PBC_PT_ENTRIES) + 3 * ranges + 32 +
                    6 * (uint64_t)(pbc_scenario_spaces(v->s) - 1); /* each further space's root and top */
    uint64_t *pfns = pbc_xcalloc(want, sizeof(*pfns));
    uint64_t got = pbc_gpu_alloc_system_run(v->gpu, 0, want, pfns);
    for (uint64_t i = 1; i < got; i++)
        if (pfns[i] != pfns[0] + i)
            got = i; /* only the part in a row */
    v->pt_pool = pfns[0] << PBC_PAGE_SHIFT;
    v->pt_pool_pages = got;
    free(pfns);
}

/* Memory for a new table of `bytes` (8 KiB, or 512 bytes for 64 KiB
 * leaves, kept on a page of its own): pages from the reserved run,
 * garbage until initialized. */
static uint64_t va_table_memory(vm *v, uint32_t bytes)
{
    uint64_t pages = (bytes + PBC_PAGE_SIZE - 1) / PBC_PAGE_SIZE;
    if (v->pt_pool_used + pages > v->pt_pool_pages)
        pbc_harness_bug("the pages reserved for page tables ran out");
    uint64_t phys = v->pt_pool + (v->pt_pool_used << PBC_PAGE_SHIFT);
    v->pt_pool_used += pages;
    v->gpu->cur.writer = PBC_WRITER_INIT;
    pbc_desc d = {PBC_PAGE_PATTERN, VA_GARBAGE, 0};
    pbc_gpu_write_desc(v->gpu, phys, pages * PBC_PAGE_SIZE, &d);
    v->gpu->cur.writer = PBC_WRITER_NONE;
    pbc_vidmm_mask_add(v, phys, phys + pages * PBC_PAGE_SIZE, va_mask_reason);
    return phys;
}

static void va_args(const vm *v, DXGKARG_BUILDPAGINGBUFFER *a, UINT level, uint64_t table, UINT start, UINT n,
                    DXGK_PTE *entries)
{
    memset(a, 0, sizeof(*a));
    a->Operation = DXGK_OPERATION_UPDATE_PAGE_TABLE;
    DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &a->UpdatePageTable;
    u->PageTableLevel = level;
    u->PageTableAddress.GpuPhysical.SegmentId = 0; /* system memory: the offset is the address */
    u->PageTableAddress.GpuPhysical.SegmentOffset = table;
    u->pPageTableEntries = entries;
    u->StartIndex = start;
    u->NumPageTableEntries = n;
    u->hProcess = VA_PROCESS(v->space);
    u->UpdateMode = DXGK_PAGETABLEUPDATE_GPU_PHYSICAL;
}

/* VidMm's CPU mapping of a table for an immediate update: the table's
 * pages in harness memory between two inaccessible guard pages, read from
 * the model before the call and written back after it, with the CPU's
 * provenance, where the builder changed them. A shim view (MmMapIoSpace)
 * would tell the same at the cost of a shared mapping made and unmade,
 * and two faults a page, for every update: most of a scenario's time when
 * all it does with GPU virtual addresses is map one range. The pages are
 * page tables, which no allocation and no physical operation shares, so
 * which of them the CPU touched is no rule's business; MmGetPhysicalAddress
 * knows them during the call (pbc_shim_own_view). The mapping holds
 * nothing from one update to the next (each starts from the model), so
 * one serves every run of a thread. */
#define VA_VIEW_PAGES 2u /* a table's 8 KiB */

static uint8_t *va_cpu_view(void)
{
    static _Thread_local uint8_t *view; /* per thread, as the shim's state */
    if (view)
        return view;
    uint8_t *map = mmap(NULL, (VA_VIEW_PAGES + 2) * PBC_PAGE_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED ||
        mprotect(map + PBC_PAGE_SIZE, VA_VIEW_PAGES * PBC_PAGE_SIZE, PROT_READ | PROT_WRITE) != 0)
        pbc_harness_bug("no memory for a CPU view of a page table");
    return view = map + PBC_PAGE_SIZE;
}

static uint64_t va_word(const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof(w));
    return w;
}

/* Whether no byte of x is zero. */
static int va_all_bytes_set(uint64_t x)
{
    return ((x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull) == 0;
}

/* What the builder changed in view (was: the bytes before the call), run
 * by run of changed bytes, into the model at table. */
static void va_cpu_write_back(vm *v, uint64_t table, const uint8_t *view, const uint8_t *was, size_t bytes)
{
    pbc_prov saved = v->gpu->cur;
    v->gpu->cur = v->gpu->cpu;
    v->gpu->cur.writer = PBC_WRITER_CPU;
    for (size_t at = 0; at < bytes;) {
        if (at % 8 == 0 && at + 8 <= bytes && va_word(view + at) == va_word(was + at)) {
            at += 8;
            continue;
        }
        if (view[at] == was[at]) {
            at++;
            continue;
        }
        size_t end = at + 1;
        while (end % 8 && end < bytes && view[end] != was[end])
            end++;
        while (end % 8 == 0 && end + 8 <= bytes && va_all_bytes_set(va_word(view + end) ^ va_word(was + end)))
            end += 8;
        while (end < bytes && view[end] != was[end])
            end++;
        pbc_gpu_write(v->gpu, table + at, view + at, end - at);
        at = end;
    }
    v->gpu->cur = saved;
}

/* The root's initial update: immediate, through a CPU mapping of the
 * table, with no paging buffer (WDDM-FACTS, UpdatePageTable). */
static void va_immediate(vm *v, DXGKARG_BUILDPAGINGBUFFER *a, uint64_t table, uint32_t bytes)
{
    if (v->opt.mode == PBC_MODE_SPEC) {
        pbc_spec_apply(a, pbc_vidmm_spec_sink, v);
        return;
    }
    if (bytes > VA_VIEW_PAGES * PBC_PAGE_SIZE)
        pbc_harness_bug("a page table larger than its CPU view");
    uint8_t *shared = pbc_ddi_is_proxy(v->t) ? pbc_ddi_table_view() : NULL; /* where the driver process sees it */
    uint8_t *view = shared ? shared : va_cpu_view(), was[VA_VIEW_PAGES * PBC_PAGE_SIZE];
    size_t span = (bytes + PBC_PAGE_SIZE - 1) / PBC_PAGE_SIZE * PBC_PAGE_SIZE;
    pbc_gpu_read(v->gpu, table, view, span);
    memcpy(was, view, span);
    a->UpdatePageTable.UpdateMode = DXGK_PAGETABLEUPDATE_CPU_VIRTUAL;
    a->UpdatePageTable.PageTableAddress.CpuVirtual = view;
    a->pDmaBuffer = NULL;
    a->DmaSize = 0;
    a->hSystemContext = VM_FAKE_SYSTEM_CONTEXT;
    v->res->calls++;
    v->gpu->cpu = (pbc_prov){.call = v->res->calls, .op = v->op};
    pbc_shim_own_view(view, table, span);
    if (v->opt.observe) { /* no buffer, and nothing queued it could be behind: CPU writes of tables */
        pbc_vidmm_facts none = {0};
        v->opt.observe(v->opt.observe_ctx, a, &none);
    }
    NTSTATUS st = pbc_shim_call_build(v->t, v->adapter, a);
    pbc_shim_own_view(NULL, 0, 0);
    va_cpu_write_back(v, table, view, was, span);
    pbc_vidmm_fence_poll(v);
    if (pbc_vidmm_kernel_check(v, "BuildPagingBuffer"))
        return;
    if (st != STATUS_SUCCESS)
        VM_RULE(v, pbc_rule_status_ddi(&v->res->findings, v->op, "BuildPagingBuffer (an immediate UpdatePageTable)", 0,
                                       st));
}

/* Tables are named by their index in v->pts, VA_ROOT for the root (the
 * array moves as it grows). */
#define VA_ROOT (-1)
/* vm_pt.own: 1 for a table that maps VidMm's tables window, VA_OWN_TOP for
 * the level-2 directory of a GPU with four levels: both the paging
 * process's own, updated at once with the CPU on an adapter that takes
 * updates by GPU virtual address. */
#define VA_OWN_TOP 2u

static uint64_t va_table_phys(const vm *v, int t) { return t == VA_ROOT ? v->space_roots[v->space] : v->pts[t].phys; }

/* The root's level: the GPU's levels, less one. */
static UINT va_top(const vm *v) { return pbc_gpu_va_levels(v->gpu) - 1; }

/* A table's entries, and its bytes in the GPU's entry format. */
static uint32_t va_table_entries(const vm *v, int t)
{
    return t != VA_ROOT && v->pts[t].level == 0 && v->pts[t].page64 ? PBC_PT64_ENTRIES : PBC_PT_ENTRIES;
}

static uint32_t va_table_bytes(const vm *v, int t) { return va_table_entries(v, t) * pbc_gpu_pte_size(v->gpu); }

/* Hands an update of table `t` to the builder, the way the adapter takes
 * them: by physical address (GPU_PHYSICAL), or, for an adapter that
 * updates by GPU virtual address, at the table's address in VidMm's
 * tables window (GPU_VIRTUAL); the tables that map that window, and the
 * root, are the paging process's own and are updated at once with the
 * CPU. */
static void va_update(vm *v, DXGKARG_BUILDPAGINGBUFFER *a, int t, int alloc)
{
    if (v->pt_virtual && (t == VA_ROOT || v->pts[t].own)) {
        va_immediate(v, a, va_table_phys(v, t), va_table_bytes(v, t));
        return;
    }
    if (v->pt_virtual) {
        memset(&a->UpdatePageTable.PageTableAddress, 0, sizeof(a->UpdatePageTable.PageTableAddress));
        a->UpdatePageTable.PageTableAddress.GpuVirtual = v->pts[t].wva;
        a->UpdatePageTable.UpdateMode = DXGK_PAGETABLEUPDATE_GPU_VIRTUAL;
    }
    pbc_vidmm_paging_op(v, a, alloc, NULL, 0);
}

/* Whether VidMm issues updates of table `t`: the tables that map the
 * tables window exist in every run (so that every world takes the same
 * system pages), but only an adapter that updates by GPU virtual address
 * gets their updates. */
static int va_issued(const vm *v, int t)
{
    return t == VA_ROOT || !v->pts[t].own || v->pt_window || v->pts[t].own == VA_OWN_TOP;
}

/* Sets every entry of a new table not valid: a Repeat (InitialUpdate). */
static void va_init_table(vm *v, int t, int alloc)
{
    if (!va_issued(v, t))
        return;
    DXGK_PTE invalid;
    memset(&invalid, 0, sizeof(invalid));
    UINT level = t == VA_ROOT ? va_top(v) : v->pts[t].level;
    DXGKARG_BUILDPAGINGBUFFER a;
    va_args(v, &a, level, va_table_phys(v, t), 0, va_table_entries(v, t), &invalid);
    a.UpdatePageTable.Flags.Repeat = 1;
    a.UpdatePageTable.Flags.InitialUpdate = 1;
    if (t == VA_ROOT)
        va_immediate(v, &a, va_table_phys(v, VA_ROOT), va_table_bytes(v, VA_ROOT)); /* a process's tables are first set up */
    else
        va_update(v, &a, t, alloc);
}

/* What one table of `level` covers: 2 MiB for a leaf, 1 GiB, 512 GiB. */
static uint64_t va_table_span(uint32_t level) { return 1ull << (PBC_PAGE_SHIFT + PBC_VA_INDEX_BITS * (level + 1)); }

static int va_find_table(const vm *v, uint32_t level, uint64_t va)
{
    uint64_t span = va_table_span(level);
    for (uint32_t i = 0; i < v->pt_count; i++)
        if (v->pts[i].level == level && v->pts[i].va == (va & ~(span - 1)) && v->pts[i].space == v->space)
            return (int)i;
    return -2;
}

/* Links table `child` into `parent`: one entry of the parent's level. */
static void va_link(vm *v, int parent, uint64_t va, int child, int alloc)
{
    if (!va_issued(v, child))
        return;
    UINT level = parent == VA_ROOT ? va_top(v) : v->pts[parent].level;
    int page64 = v->pts[child].level == 0 && v->pts[child].page64;
    DXGK_PTE e;
    memset(&e, 0, sizeof(e));
    e.Valid = 1;
    e.PageTableAddress = v->pts[child].phys >> PBC_PAGE_SHIFT;
    if (page64)
        e.PageTablePageSize = DXGK_PTE_PAGE_TABLE_PAGE_64KB;
    DXGKARG_BUILDPAGINGBUFFER a;
    va_args(v, &a, level, va_table_phys(v, parent), (UINT)(va >> (PBC_PAGE_SHIFT + PBC_VA_INDEX_BITS * level)) & (PBC_PT_ENTRIES - 1),
            1, &e);
    a.UpdatePageTable.Flags.Use64KBPages = page64 != 0;
    va_update(v, &a, parent, alloc);
}

static void va_flush(vm *v, uint64_t base, uint64_t size, int alloc);
static int va_leaf_for(vm *v, uint64_t va, int page64, int alloc, int own);

/* Shows table `t`'s pages at the next addresses of VidMm's tables window,
 * through the paging process's own tables, which VidMm updates at once
 * (for an adapter that updates by GPU virtual address). */
static void va_window_table(vm *v, int t)
{
    uint64_t wva = PBC_VA_TABLES + (uint64_t)v->pt_windowed++ * PBC_PT_BYTES;
    v->pts[t].wva = wva;
    uint64_t phys = v->pts[t].phys;
    uint32_t pages = (va_table_bytes(v, t) + PBC_PAGE_SIZE - 1) / PBC_PAGE_SIZE;
    uint32_t space = v->space;
    v->space = 0; /* the window is the paging process's */
    int leaf = va_leaf_for(v, wva, 0, -1, 1);
    for (uint32_t i = 0; i < pages && v->pt_window; i++) {
        DXGK_PTE e;
        memset(&e, 0, sizeof(e));
        e.Valid = 1;
        e.PageAddress = (phys >> PBC_PAGE_SHIFT) + i;
        DXGKARG_BUILDPAGINGBUFFER a;
        va_args(v, &a, 0, v->pts[leaf].phys, (UINT)(((wva >> PBC_PAGE_SHIFT) + i) & (PBC_PT_ENTRIES - 1)), 1, &e);
        va_update(v, &a, leaf, -1);
    }
    v->space = space;
}

/* A table covering va's region at `level`, in memory at phys,
 * initialized. */
static int va_add_table(vm *v, uint32_t level, uint64_t va, int page64, int alloc, int own, uint64_t phys)
{
    uint64_t span = va_table_span(level);
    vm_pt t = {va & ~(span - 1), level, level == 0 && page64, phys, 0, (uint32_t)own, v->space};
    PBC_PUSH(v->pts, v->pt_count, v->pt_cap, t);
    int i = (int)v->pt_count - 1;
    if (!own)
        va_window_table(v, i);
    va_init_table(v, i, alloc);
    return i;
}

/* A new table covering va's region at `level`, initialized. The footprint
 * is DXGK_PTE's whatever the GPU's entries: every world then has its
 * tables, and what follows them, at the same addresses. */
static int va_new_table(vm *v, uint32_t level, uint64_t va, int page64, int alloc, int own)
{
    uint32_t bytes = (level == 0 && page64 ? PBC_PT64_ENTRIES : PBC_PT_ENTRIES) * PBC_PTE_SIZE;
    return va_add_table(v, level, va, page64, alloc, own, va_table_memory(v, bytes));
}

/* The directory of `level` (1 and up; the root's level is the root)
 * for va's region, made (and the ones above it) when missing. */
static int va_dir_for(vm *v, uint32_t level, uint64_t va, int alloc, int own)
{
    if (level >= va_top(v))
        return VA_ROOT;
    int dir = va_find_table(v, level, va);
    if (dir >= 0)
        return dir;
    int parent = va_dir_for(v, level + 1, va, alloc, own);
    dir = va_new_table(v, level, va, 0, alloc, own);
    va_link(v, parent, va, dir, alloc);
    return dir;
}

/* The leaf table for va's 2 MiB region, made (and the directories above
 * it) when missing. */
static int va_leaf_for(vm *v, uint64_t va, int page64, int alloc, int own)
{
    int leaf = va_find_table(v, 0, va);
    if (leaf >= 0 && v->pts[leaf].page64 == (uint32_t)(page64 != 0))
        return leaf;
    int dir = va_dir_for(v, 1, va, alloc, own);
    int old = leaf;
    leaf = va_new_table(v, 0, va, page64, alloc, own);
    va_link(v, dir, va, leaf, alloc);
    if (old >= 0) {
        /* The region's ranges of the other page size are gone (a range of
         * 64 KiB pages keeps its regions to itself): the new leaf replaces
         * the old one, and the region is flushed, its level-1 entry having
         * changed. */
        v->pts[old].level = UINT32_MAX; /* no longer found */
        va_flush(v, va & ~(VA_REGION_2M - 1), VA_REGION_2M, alloc);
    }
    return leaf;
}

static int va_leaf(vm *v, uint64_t va, int page64, int alloc) { return va_leaf_for(v, va, page64, alloc, 0); }

static void va_write_range(vm *v, uint64_t base, uint32_t count, int alloc, uint32_t first, uint32_t flags,
                           const pbc_res_alloc *where, const vm_mdl *mdl, const DXGK_PTE *repeat, uint64_t prot);

#define VA_FENCE_STEP 0x100000001ull /* signal k writes k * VA_FENCE_STEP */

/* Brings the chains of each paging buffer's submissions up to date
 * (they only grow: kept across the run). */
static void va_index_subs(vm *v)
{
    const pbc_record *r = v->res;
    if (r->buffers + 1 > v->fence_buf_cap) {
        uint32_t old = v->fence_buf_cap;
        pbc_grow((void **)&v->fence_buf_first, &v->fence_buf_cap, r->buffers + 1, sizeof(uint32_t));
        memset(v->fence_buf_first + old, 0xFF, (size_t)(v->fence_buf_cap - old) * sizeof(uint32_t));
    }
    pbc_grow((void **)&v->fence_sub_next, &v->fence_sub_cap, r->sub_count + 1, sizeof(uint32_t));
    for (; v->fence_subs_indexed < r->sub_count; v->fence_subs_indexed++) {
        uint32_t i = v->fence_subs_indexed, b = r->subs[i].buffer;
        v->fence_sub_next[i] = b <= r->buffers ? v->fence_buf_first[b] : UINT32_MAX;
        if (b <= r->buffers)
            v->fence_buf_first[b] = i;
    }
}

/* Where a piece's offsets start in its buffer: a piece may be rung at any
 * address of the buffer's bytes (its phys need not be the buffer's start). */
static int64_t va_piece_base(const pbc_gpu *g, const pbc_qentry *e, const pbc_submission *sub)
{
    int64_t at = pbc_gpu_pool_offset(g, e->phys);
    return at >= 0 ? at - (int64_t)sub->pool_offset : (int64_t)(e->phys - sub->phys);
}

/* Whether the work of bytes [w->start, w->end) of a paging buffer has
 * yet to run when the queue stands at entry `now` (UINT32_MAX: no entry
 * running), whose packets before buffer offset next_offset have run:
 * - not all of them were rung (or handed to CPU work) yet;
 * - a piece holding some of them has not run (pending[0, npending): the
 *   paging engine's entries not run yet).
 * CPU work queued at the SubmitCommand of a submission holding some of
 * them that has not run is not early by itself (it may serve operations
 * after the signal): it is added to held[0, *nheld) instead, to be judged
 * by what it changes (effects.c), unless the fence is reached by CPU work
 * of that same submission (what its work does, and in which order, is
 * the driver's: the benefit of the doubt). */
static int va_work_pending(const vm *v, const uint32_t *pending, uint32_t npending, const pbc_write_rec *w,
                           uint32_t now, uint32_t next_offset, uint32_t **held, uint32_t *nheld, uint32_t *held_cap)
{
    const pbc_gpu *g = v->gpu;
    const pbc_record *r = v->res;
    uint64_t rung = 0;
    for (uint32_t si = w->buffer <= r->buffers ? v->fence_buf_first[w->buffer] : UINT32_MAX; si != UINT32_MAX;
         si = v->fence_sub_next[si]) {
        const pbc_submission *sub = &r->subs[si];
        uint32_t reach = sub->covered < sub->end ? sub->covered : sub->end;
        uint32_t lo = sub->start > w->start ? sub->start : w->start, hi = reach < w->end ? reach : w->end;
        if (sub->rung && hi > lo)
            rung += hi - lo;
    }
    if (rung < (uint64_t)(w->end - w->start))
        return 1;
    int now_cpu = now < g->queued && g->queue[now].kind == PBC_QE_CPU;
    for (uint32_t k = 0; k < npending; k++) {
        uint32_t q = pending[k];
        const pbc_qentry *e = &g->queue[q];
        const pbc_submission *sub = &r->subs[e->tag];
        if (sub->buffer != w->buffer || sub->end <= w->start || sub->start >= w->end || q == now)
            continue;
        if (e->kind == PBC_QE_CPU) {
            if (now_cpu && e->tag == g->queue[now].tag)
                continue;
            uint32_t h = 0;
            while (h < *nheld && (*held)[h] != q)
                h++;
            if (h == *nheld)
                PBC_PUSH(*held, *nheld, *held_cap, q);
            continue;
        }
        int64_t base = va_piece_base(g, e, sub);
        if (base + (int64_t)e->start < (int64_t)w->end && (int64_t)w->start < base + (int64_t)e->end)
            return 1;
    }
    /* The piece running now: its packets from next_offset on have not. */
    if (now < g->queued && g->queue[now].kind == PBC_QE_DMA && next_offset != UINT32_MAX &&
        g->queue[now].tag < r->sub_count) {
        const pbc_qentry *e = &g->queue[now];
        const pbc_submission *sub = &r->subs[e->tag];
        int64_t base = va_piece_base(g, e, sub);
        int64_t rest = base + (int64_t)next_offset, end = base + (int64_t)e->end;
        if (sub->buffer == w->buffer && rest < (int64_t)w->end && (int64_t)w->start < end)
            return 1;
    }
    return 0;
}

/* The paging fence changed. When it reaches a value VidMm signaled, the
 * work VidMm issued before that SignalMonitoredFence must have run: a
 * monitored fence says the paging work before it is done, and VidMm and
 * the GPU act on it at once. Work found done stays done: each judgment
 * starts where the last one, clean, left off. */
static void va_on_fence_value(void *ctx, uint64_t value, uint32_t seq, uint32_t next_offset)
{
    vm *v = ctx;
    if (!value || value % VA_FENCE_STEP || value / VA_FENCE_STEP > v->mfence_count ||
        value / VA_FENCE_STEP <= v->mfence_judged || v->stop)
        return;
    uint32_t k = (uint32_t)(value / VA_FENCE_STEP);
    v->mfence_judged = k;
    uint32_t signal_op = v->mfence_ops[k - 1];
    const pbc_gpu *g = v->gpu;
    const char *by = seq == UINT32_MAX ? "a CPU write during a DDI call"
                     : g->queue[seq].kind == PBC_QE_CPU ? "CPU work queued at SubmitCommand"
                                                       : "a packet";
    va_index_subs(v);
    uint32_t npending = 0;
    uint32_t *pending = pbc_xmalloc(((size_t)(g->queued - g->head[PBC_ENGINE_PAGING]) + 1) * sizeof(uint32_t));
    for (uint32_t q = g->head[PBC_ENGINE_PAGING]; q < g->queued; q++)
        if (!g->queue[q].done && (g->queue[q].kind == PBC_QE_DMA || g->queue[q].kind == PBC_QE_CPU) &&
            g->queue[q].tag < v->res->sub_count)
            pending[npending++] = q;
    int early = 0;
    uint32_t *held = NULL, nheld = 0, held_cap = 0;
    for (uint32_t i = v->mfence_cursor; i < v->res->write_count && !early; i++) {
        const pbc_write_rec *w = &v->res->writes[i];
        if (w->op == UINT32_MAX || w->op >= signal_op ||
            !va_work_pending(v, pending, npending, w, seq, next_offset, &held, &nheld, &held_cap))
            continue;
        early = 1;
        VM_RULE(v, pbc_rule_paging_fence_early(&v->res->findings, v->op, value, by, w->op, w->buffer, w->start,
                                               w->end));
    }
    free(pending);
    /* Only CPU work of earlier submissions still to run: judged by its
     * effects when it runs, the work before the signal otherwise done. */
    if (!early && nheld)
        pbc_vidmm_effects_hold(v, held, nheld, signal_op, value, by);
    free(held);
    /* Clean: every write before the signal has run, and stays run. */
    while (!early && v->mfence_cursor < v->res->write_count &&
           (v->res->writes[v->mfence_cursor].op < signal_op || v->res->writes[v->mfence_cursor].op == UINT32_MAX))
        v->mfence_cursor++;
}

void pbc_vidmm_fence_poll(vm *v)
{
    if (v->gpu->value_addr)
        pbc_gpu_value_poll(v->gpu, UINT32_MAX, 0);
}

void pbc_vidmm_va_setup(vm *v)
{
    int uses = 0;
    for (uint32_t i = 0; i < v->s->op_count; i++)
        uses |= v->s->ops[i].kind == PBC_SOP_VA_MAP || v->s->ops[i].kind == PBC_SOP_VA_ZERO ||
                (v->s->ops[i].flags & PBC_SOP_VIRTUAL &&
                 (v->s->ops[i].kind == PBC_SOP_TRANSFER || v->s->ops[i].kind == PBC_SOP_FILL)) ||
                v->s->ops[i].kind == PBC_SOP_SIGNAL_FENCE || v->s->ops[i].kind == PBC_SOP_UPDATE_CONTEXT;
    if (!uses)
        return;
    const pbc_adapter_decl *decl = v->t->adapter;
    v->pt_virtual = v->opt.mode == PBC_MODE_TARGET && decl && PBC_ADAPTER_DECL_HAS(decl->struct_size, page_table_update) &&
                    decl->page_table_update == PBC_PT_UPDATE_GPU_VIRTUAL;
    /* The tables window is mapped for an adapter that takes updates there,
     * and in every world of a scenario that copies entries (their
     * addresses are GPU virtual). */
    v->pt_window = v->pt_virtual;
    for (uint32_t i = 0; i < v->s->op_count; i++)
        v->pt_window |= v->s->ops[i].kind == PBC_SOP_VA_MOVE_TABLES;
    v->va_root = va_table_memory(v, PBC_PT_BYTES); /* DXGK_PTE's footprint, as va_new_table's */
    /* Every address VidMm hands out lies in the first 512 GiB: on a GPU
     * with four levels, one level-2 directory under the root covers them
     * all. It is the paging process's own, made now in memory every world
     * sets aside here, so that worlds of three and of four levels keep
     * their tables at the same addresses. */
    uint64_t top_dir = va_table_memory(v, PBC_PT_BYTES);
    v->gpu->va_root = v->va_root; /* the process's root, as DxgkDdiSetRootPageTable would say */
    v->space_roots[0] = v->va_root;
    v->space_count = pbc_scenario_spaces(v->s);
    v->space = 0;
    va_init_table(v, VA_ROOT, -1);
    if (va_top(v) == 3)
        va_link(v, VA_ROOT, 0, va_add_table(v, 2, 0, 0, -1, VA_OWN_TOP, top_dir), -1);
    /* Each further process: its root and level-2 directory the same way,
     * after space 0's (which keeps the addresses it always had). */
    for (uint32_t k = 1; k < v->space_count && !v->stop; k++) {
        v->space = k;
        v->space_roots[k] = va_table_memory(v, PBC_PT_BYTES);
        uint64_t top = va_table_memory(v, PBC_PT_BYTES);
        va_init_table(v, VA_ROOT, -1);
        if (va_top(v) == 3)
            va_link(v, VA_ROOT, 0, va_add_table(v, 2, 0, 0, -1, VA_OWN_TOP, top), -1);
    }
    v->space = 0;
    for (uint32_t i = 0; i < v->s->op_count; i++) {
        if (v->s->ops[i].kind != PBC_SOP_SIGNAL_FENCE)
            continue;
        /* The paging fence: a zeroed system page at VidMm's address. */
        v->mfence_page = va_table_memory(v, PBC_PAGE_SIZE);
        pbc_vidmm_mask_clear(v, v->mfence_page, v->mfence_page + PBC_PAGE_SIZE); /* compared: it is the fence */
        uint8_t zeros[8] = {0};
        v->gpu->cur.writer = PBC_WRITER_INIT;
        pbc_gpu_write(v->gpu, v->mfence_page, zeros, sizeof(zeros));
        v->gpu->cur.writer = PBC_WRITER_NONE;
        DXGK_PTE e;
        memset(&e, 0, sizeof(e));
        e.Valid = 1;
        e.PageAddress = v->mfence_page >> PBC_PAGE_SHIFT;
        va_write_range(v, PBC_VA_MONITORED_FENCE, 1, -1, 0, 0, NULL, NULL, &e, 0);
        v->gpu->value_addr = v->mfence_page; /* judged whenever it changes */
        v->gpu->value_last = 0;
        v->gpu->on_value = va_on_fence_value;
        break;
    }
}

static uint64_t va_fence_now(vm *v)
{
    uint64_t now = 0;
    pbc_gpu_read(v->gpu, v->mfence_page, &now, sizeof(now));
    return now;
}

/* The values have bits above 32 set, so a fence written 32 bits wide
 * shows. */
void pbc_vidmm_signal_fence(vm *v)
{
    PBC_PUSH(v->mfence_ops, v->mfence_count, v->mfence_ops_cap, v->op);
    uint64_t value = v->mfence_count * VA_FENCE_STEP;
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof(a));
    a.Operation = DXGK_OPERATION_SIGNAL_MONITORED_FENCE;
    a.SignalMonitoredFence.MonitoredFenceGpuVa = PBC_VA_MONITORED_FENCE;
    a.SignalMonitoredFence.MonitoredFenceValue = value;
    pbc_vidmm_trace(v, " paging fence value 0x%" PRIx64, value);
    pbc_vidmm_paging_op(v, &a, -1, NULL, 0);
    v->mfence_value = value;
}

void pbc_vidmm_notify(vm *v, const pbc_sop *op)
{
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof(a));
    a.Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)pbc_notify_ddi(op->pattern);
    pbc_vidmm_paging_op(v, &a, -1, NULL, 0);
}

/* The entry VidMm wants for page `page` of allocation `index` placed as
 * `where` (its MDL `mdl` when in system memory). */
static DXGK_PTE va_entry(const vm *v, uint32_t index, const pbc_res_alloc *where, const vm_mdl *mdl, uint64_t page,
                         uint32_t flags)
{
    DXGK_PTE e;
    memset(&e, 0, sizeof(e));
    e.Valid = 1;
    e.ReadOnly = (flags & PBC_SOP_VA_READ_ONLY) != 0;
    if (where->where == PBC_WHERE_SEGMENT) {
        e.Segment = where->at.segment;
        e.PageAddress = (where->at.offset >> PBC_PAGE_SHIFT) + page;
    } else {
        e.PageAddress = pbc_frames_pfn(mdl->frames, v->s->allocs[index].mdl_offset + page);
    }
    return e;
}

/* Writes the leaf entries of [base, base + count pages): the allocation's
 * pages from `first` on (alloc >= 0), or one repeated entry (alloc < 0,
 * or `repeat` set). */
static void va_write_range(vm *v, uint64_t base, uint32_t count, int alloc, uint32_t first, uint32_t flags,
                           const pbc_res_alloc *where, const vm_mdl *mdl, const DXGK_PTE *repeat, uint64_t prot)
{
    int page64 = (flags & PBC_SOP_VA_64K) != 0;
    uint64_t step = page64 ? 0x10000u : PBC_PAGE_SIZE;
    uint32_t pages_per_entry = (uint32_t)(step / PBC_PAGE_SIZE);
    uint64_t end = base + (uint64_t)count * PBC_PAGE_SIZE;
    for (uint64_t at = base; at < end && !v->stop;) {
        uint64_t region_end = (at & ~(VA_REGION_2M - 1)) + VA_REGION_2M;
        if (region_end > end)
            region_end = end;
        UINT n = (UINT)((region_end - at) / step);
        int leaf = va_leaf(v, at, page64, alloc);
        uint64_t leaf_phys = v->pts[leaf].phys;
        if (v->stop)
            return;
        DXGK_PTE *entries = pbc_xcalloc(repeat ? 1 : n, sizeof(*entries));
        uint64_t page0 = first + (at - base) / PBC_PAGE_SIZE;
        if (repeat)
            entries[0] = *repeat;
        for (UINT i = 0; !repeat && i < n; i++)
            entries[i] = va_entry(v, (uint32_t)alloc, where, mdl, page0 + (uint64_t)i * pages_per_entry, flags);
        DXGKARG_BUILDPAGINGBUFFER a;
        va_args(v, &a, 0, leaf_phys, (UINT)((at & (VA_REGION_2M - 1)) / step), n, entries);
        a.UpdatePageTable.Flags.Repeat = repeat != NULL;
        a.UpdatePageTable.DriverProtection = prot; /* S53 */
        if (alloc >= 0 && !repeat) {
            a.UpdatePageTable.hAllocation = v->allocs[alloc].h;
            a.UpdatePageTable.AllocationOffsetInBytes = page0 * PBC_PAGE_SIZE;
        }
        pbc_vidmm_trace(v, " page table: %u entries for [0x%" PRIx64 ", 0x%" PRIx64 ")%s", n, at, region_end,
                        repeat ? " (repeat)" : "");
        va_update(v, &a, leaf, alloc);
        free(entries);
        at = region_end;
    }
}

static void va_flush(vm *v, uint64_t base, uint64_t size, int alloc)
{
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof(a));
    a.Operation = DXGK_OPERATION_FLUSH_TLB;
    a.FlushTlb.RootPageTableAddress.SegmentOffset = v->space_roots[v->space]; /* the space's, in system memory */
    a.FlushTlb.hProcess = VA_PROCESS(v->space);
    a.FlushTlb.StartVirtualAddress = base;
    a.FlushTlb.EndVirtualAddress = base + size;
    pbc_vidmm_paging_op(v, &a, alloc, NULL, 0);
}

uint64_t pbc_vidmm_va_space_root(const vm *v, uint32_t space)
{
    return space && space < v->space_count ? v->space_roots[space] : 0;
}

static void va_map_in(vm *v, const pbc_sop *op);

void pbc_vidmm_va_map(vm *v, const pbc_sop *op)
{
    v->space = op->space < v->space_count ? op->space : 0;
    va_map_in(v, op);
    v->space = 0;
}

static void va_map_in(vm *v, const pbc_sop *op)
{
    uint64_t base = pbc_residency_va_base(&v->rs, op);
    pbc_vidmm_trace(v, " GPU virtual range [0x%" PRIx64 ", 0x%" PRIx64 ")", base,
                    base + (uint64_t)op->count * PBC_PAGE_SIZE);
    if (op->kind == PBC_SOP_VA_ZERO) {
        DXGK_PTE e;
        memset(&e, 0, sizeof(e));
        if (!(op->flags & PBC_SOP_VA_NO_ACCESS))
            e.Valid = e.Zero = 1; /* reads give zeros (DXGK_PTE Zero) */
        va_write_range(v, base, op->count, -1, 0, op->flags, NULL, NULL, &e, op->driver_protection);
        return;
    }
    /* Fresh entries were not valid, so the TLB holds none of them: no
     * flush is needed, unless the range was reserved as zero pages (valid
     * entries, which the GPU may have cached). */
    int within = op->va ? pbc_residency_va_reserved(&v->rs, op->space, op->va, op->count, op->flags) : -1;
    int was_valid = within >= 0 && !(v->rs.vas[within].flags & PBC_SOP_VA_NO_ACCESS);
    va_write_range(v, base, op->count, (int)op->alloc, op->first, op->flags, &v->rs.a[op->alloc],
                   &v->allocs[op->alloc].mdl, NULL, op->driver_protection);
    if (was_valid && !v->stop)
        va_flush(v, base, (uint64_t)op->count * PBC_PAGE_SIZE, (int)op->alloc);
}

void pbc_vidmm_va_unmap(vm *v, const pbc_sop *op)
{
    const pbc_res_alloc *ra = &v->rs.a[op->alloc];
    if (v->opt.mode == PBC_MODE_TARGET)
        pbc_vidmm_wait_idle(v, (int)op->alloc); /* nothing queued uses the range any more */
    DXGK_PTE invalid;
    memset(&invalid, 0, sizeof(invalid));
    v->space = ra->va_space;
    va_write_range(v, ra->va_base, ra->va_count, (int)op->alloc, 0, ra->va_flags, NULL, NULL, &invalid, 0);
    va_flush(v, ra->va_base, (uint64_t)ra->va_count * PBC_PAGE_SIZE, (int)op->alloc);
    v->space = 0;
}

void pbc_vidmm_va_moved(vm *v, uint32_t index, const pbc_res_alloc *to)
{
    const pbc_res_alloc *ra = &v->rs.a[index];
    if (!ra->va_mapped)
        return;
    pbc_vidmm_trace(v, " its GPU virtual range follows it");
    uint32_t space = v->space;
    v->space = ra->va_space;
    va_write_range(v, ra->va_base, ra->va_count, (int)index, ra->va_first, ra->va_flags, to, &v->allocs[index].mdl,
                   NULL, ra->va_protection);
    va_flush(v, ra->va_base, (uint64_t)ra->va_count * PBC_PAGE_SIZE, (int)index);
    v->space = space;
}

/* ---- Paging windows: TransferVirtual and FillVirtual ----
 * VidMm maps the source and the destination of the operation into its own
 * part of the address space (the paging process's view), always at the
 * same two addresses, issues the operation, then makes the windows not
 * valid again and flushes them: the next operation maps other pages at
 * the same addresses, so a flush that is not carried out sends it to the
 * previous pages. */

static void va_window_open(vm *v, uint64_t base, uint32_t index, const pbc_res_alloc *where, const vm_mdl *mdl)
{
    va_write_range(v, base, pbc_alloc_pages(&v->s->allocs[index]), (int)index, 0, 0, where, mdl, NULL, 0);
}

static void va_window_close(vm *v, uint64_t base, uint32_t index)
{
    uint32_t pages = pbc_alloc_pages(&v->s->allocs[index]);
    DXGK_PTE invalid;
    memset(&invalid, 0, sizeof(invalid));
    va_write_range(v, base, pages, (int)index, 0, 0, NULL, NULL, &invalid, 0);
    va_flush(v, base, (uint64_t)pages * PBC_PAGE_SIZE, (int)index);
}

void pbc_vidmm_transfer_virtual(vm *v, const pbc_sop *op, const pbc_res_alloc *src, const pbc_res_alloc *dst)
{
    const pbc_salloc *al = &v->s->allocs[op->alloc];
    vm_alloc *va = &v->allocs[op->alloc];
    va_window_open(v, PBC_VA_WINDOW_SRC, op->alloc, src, &va->old_mdl);
    va_window_open(v, PBC_VA_WINDOW_DST, op->alloc, dst, &va->mdl);
    uint32_t pages = pbc_alloc_pages(al);
    DXGK_MEMORY_TRANSFER_DIRECTION dir = src->where == PBC_WHERE_SYSTEM   ? DXGK_MEMORY_TRANSFER_SYSTEM_TO_LOCAL
                                         : dst->where == PBC_WHERE_SYSTEM ? DXGK_MEMORY_TRANSFER_LOCAL_TO_SYSTEM
                                                                          : DXGK_MEMORY_TRANSFER_LOCAL_TO_LOCAL;
    for (uint32_t k = 0; k < op->split && !v->stop; k++) {
        uint64_t first = (uint64_t)pages * k / op->split * PBC_PAGE_SIZE;
        uint64_t last = k + 1 == op->split ? al->size : (uint64_t)pages * (k + 1) / op->split * PBC_PAGE_SIZE;
        DXGKARG_BUILDPAGINGBUFFER a;
        memset(&a, 0, sizeof(a));
        a.Operation = DXGK_OPERATION_VIRTUAL_TRANSFER;
        DXGK_BUILDPAGINGBUFFER_TRANSFERVIRTUAL *t = &a.TransferVirtual;
        t->hAllocation = va->h;
        t->AllocationOffsetInBytes = first; /* not to be added to the addresses */
        t->TransferSizeInBytes = last - first;
        t->SourceVirtualAddress = PBC_VA_WINDOW_SRC + first;
        t->DestinationVirtualAddress = PBC_VA_WINDOW_DST + first;
        t->TransferDirection = dir;
        v->sub = k;
        v->pass = 0;
        pbc_vidmm_trace(v, " virtual sub-transfer %u/%u: bytes [0x%" PRIx64 ", 0x%" PRIx64 ")", k + 1, op->split,
                        first, last);
        pbc_vidmm_paging_op(v, &a, (int)op->alloc, NULL, 0);
    }
    if (v->stop)
        return;
    va_window_close(v, PBC_VA_WINDOW_SRC, op->alloc);
    va_window_close(v, PBC_VA_WINDOW_DST, op->alloc);
}

uint64_t pbc_vidmm_va_window_open(vm *v, uint32_t index)
{
    if (!v->va_root)
        return 0;
    va_window_open(v, PBC_VA_WINDOW_DST, index, &v->rs.a[index], &v->allocs[index].mdl);
    return PBC_VA_WINDOW_DST;
}

void pbc_vidmm_va_window_close(vm *v, uint32_t index)
{
    if (v->va_root && !v->stop)
        va_window_close(v, PBC_VA_WINDOW_DST, index);
}

void pbc_vidmm_fill_virtual(vm *v, const pbc_sop *op)
{
    const pbc_salloc *al = &v->s->allocs[op->alloc];
    pbc_res_alloc dst = {.where = PBC_WHERE_SEGMENT, .at = op->at};
    va_window_open(v, PBC_VA_WINDOW_DST, op->alloc, &dst, NULL);
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof(a));
    a.Operation = DXGK_OPERATION_VIRTUAL_FILL;
    a.FillVirtual.hAllocation = v->allocs[op->alloc].h;
    a.FillVirtual.AllocationOffsetInBytes = 0;
    a.FillVirtual.FillSizeInBytes = al->size;
    a.FillVirtual.FillPattern = op->pattern;
    a.FillVirtual.DestinationVirtualAddress = PBC_VA_WINDOW_DST;
    pbc_vidmm_paging_op(v, &a, (int)op->alloc, NULL, 0);
    if (!v->stop)
        va_window_close(v, PBC_VA_WINDOW_DST, op->alloc);
}

/* The runs of entries in use in the leaf of the 2 MiB region at `at`
 * (entries of `step` bytes): every range VidMm keeps there, in the order
 * of their first entry, as copy ranges of both tables at the same index,
 * each run cut into `pieces` ranges (fewer for a shorter run). Entries of
 * no range are not valid in both tables. Returns how many. */
static UINT va_used_ranges(const vm *v, uint64_t at, uint64_t step, uint32_t pieces,
                           DXGK_BUILDPAGINGBUFFER_COPY_RANGE **out)
{
    UINT n = 0, cap = 0;
    DXGK_BUILDPAGINGBUFFER_COPY_RANGE *ranges = NULL;
    for (uint32_t r = 0; r < v->rs.va_count; r++) {
        const pbc_res_va *u = &v->rs.vas[r];
        if (u->space != v->space)
            continue;
        uint64_t lo = u->base > at ? u->base : at, end = u->base + u->pages * PBC_PAGE_SIZE;
        uint64_t hi = end < at + VA_REGION_2M ? end : at + VA_REGION_2M;
        if (lo >= hi)
            continue;
        UINT first = (UINT)((lo - at) / step), count = (UINT)((hi - lo + step - 1) / step);
        uint32_t parts = pieces < count ? pieces : count;
        for (uint32_t k = 0; k < parts; k++) {
            UINT a = first + (UINT)((uint64_t)count * k / parts), b = first + (UINT)((uint64_t)count * (k + 1) / parts);
            DXGK_BUILDPAGINGBUFFER_COPY_RANGE c;
            memset(&c, 0, sizeof(c));
            c.NumPageTableEntries = b - a;
            c.SrcStartPteIndex = c.DstStartPteIndex = a;
            UINT i = n;
            PBC_PUSH(ranges, n, cap, c);
            for (; i > 0 && ranges[i - 1].SrcStartPteIndex > a; i--) /* by index: ranges are few */
                ranges[i] = ranges[i - 1];
            ranges[i] = c;
        }
    }
    *out = ranges;
    return n;
}

static void va_copy_entries(vm *v, int alloc, DXGK_BUILDPAGINGBUFFER_COPY_RANGE *ranges, UINT n)
{
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof(a));
    a.Operation = DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES;
    a.CopyPageTableEntries.NumRanges = n;
    a.CopyPageTableEntries.pRanges = ranges;
    pbc_vidmm_paging_op(v, &a, alloc, NULL, 0);
}

/* The allocation's range gets new leaf tables: VidMm copies each region's
 * entries from the old leaf to a new one by their GPU virtual addresses
 * in the tables window (CopyPageTableEntries), points the level-1 entry
 * at the new leaf, and flushes the region. The copy is the whole leaf
 * (both start indexes 0), or with `used` only the entries in use, `count`
 * ranges a run; `stage` moves them through a scratch table, packed from
 * its entry `first` (less where they would not fit): out to it and back
 * in, so source and destination start indexes differ. The DDI bounds the
 * indexes only by the tables. */
static void va_move_tables_in(vm *v, const pbc_sop *op);

void pbc_vidmm_va_move_tables(vm *v, const pbc_sop *op)
{
    v->space = v->rs.a[op->alloc].va_space;
    va_move_tables_in(v, op);
    v->space = 0;
}

static void va_move_tables_in(vm *v, const pbc_sop *op)
{
    const pbc_res_alloc *ra = &v->rs.a[op->alloc];
    uint64_t end = ra->va_base + (uint64_t)ra->va_count * PBC_PAGE_SIZE;
    for (uint64_t at = ra->va_base & ~(VA_REGION_2M - 1); at < end && !v->stop; at += VA_REGION_2M) {
        int old = va_find_table(v, 0, at), dir = va_find_table(v, 1, at);
        if (old < 0 || dir < 0)
            continue;
        int page64 = (int)v->pts[old].page64;
        uint32_t entries = page64 ? PBC_PT64_ENTRIES : PBC_PT_ENTRIES;
        int fresh = va_new_table(v, 0, at, page64, (int)op->alloc, 0);
        DXGK_BUILDPAGINGBUFFER_COPY_RANGE whole, *ranges = &whole;
        UINT n = 1;
        memset(&whole, 0, sizeof(whole));
        whole.NumPageTableEntries = entries;
        if (op->flags & PBC_SOP_COPY_USED)
            n = va_used_ranges(v, at, page64 ? 0x10000u : PBC_PAGE_SIZE, op->count, &ranges);
        pbc_vidmm_trace(v, " leaf of [0x%" PRIx64 ", 0x%" PRIx64 ") moves: %u range%s%s", at, at + VA_REGION_2M, n,
                        n == 1 ? "" : "s", (op->flags & PBC_SOP_COPY_STAGED) ? ", through a scratch table" : "");
        if (op->flags & PBC_SOP_COPY_STAGED) {
            UINT used = 0;
            for (UINT i = 0; i < n; i++)
                used += ranges[i].NumPageTableEntries;
            UINT slot = op->first + used <= entries ? op->first : entries - used;
            int scratch = va_new_table(v, 0, at, page64, (int)op->alloc, 0);
            v->pts[scratch].level = UINT32_MAX; /* never linked, never found */
            for (UINT i = 0; i < n; i++) {
                ranges[i].SrcPageTableAddress = v->pts[old].wva;
                ranges[i].DstPageTableAddress = v->pts[scratch].wva;
                ranges[i].DstStartPteIndex = slot;
                slot += ranges[i].NumPageTableEntries;
            }
            if (!v->stop)
                va_copy_entries(v, (int)op->alloc, ranges, n);
            for (UINT i = 0; i < n; i++) { /* and back, each to where it was */
                UINT s = ranges[i].SrcStartPteIndex;
                ranges[i].SrcPageTableAddress = v->pts[scratch].wva;
                ranges[i].DstPageTableAddress = v->pts[fresh].wva;
                ranges[i].SrcStartPteIndex = ranges[i].DstStartPteIndex;
                ranges[i].DstStartPteIndex = s;
            }
        } else {
            for (UINT i = 0; i < n; i++) {
                ranges[i].SrcPageTableAddress = v->pts[old].wva;
                ranges[i].DstPageTableAddress = v->pts[fresh].wva;
            }
        }
        if (!v->stop)
            va_copy_entries(v, (int)op->alloc, ranges, n);
        if (ranges != &whole)
            free(ranges);
        if (v->stop)
            return;
        va_link(v, dir, at, fresh, (int)op->alloc);
        v->pts[old].level = UINT32_MAX;
        va_flush(v, at, VA_REGION_2M, (int)op->alloc);
    }
}

uint64_t pbc_vidmm_va_of(const vm *v, uint32_t index, uint64_t offset)
{
    const pbc_res_alloc *ra = &v->rs.a[index];
    return ra->va_base + offset - (uint64_t)ra->va_first * PBC_PAGE_SIZE;
}

/* ---- After the run: what the tables and the TLB say ---- */

/* Whether the tables translate va as want says (no valid entry when
 * expect_fault); when not, a PB-PTE finding naming what the page is for:
 * range r's page p. Text is made only for a finding. */
static int va_check_page(vm *v, uint64_t va, uint32_t r, uint64_t p, int expect_fault, const pbc_va_xlat *want,
                         pbc_va_walk_memo *memo)
{
    pbc_va_xlat got;
    const char *why = NULL;
    int rc = pbc_gpu_va_walk_memo(v->gpu, v->space_roots[v->rs.vas[r].space], va, &got, &why, memo);
    int ok;
    if (expect_fault)
        ok = rc != 0;
    else if (want->zero)
        ok = rc == 0 && got.zero;
    else
        ok = rc == 0 && !got.zero && got.page == want->page && got.read_only == want->read_only;
    if (ok)
        return 0;
    char have[160], need[160], what[96];
    if (rc)
        snprintf(have, sizeof(have), "no translation (%s)", why);
    else if (got.zero)
        snprintf(have, sizeof(have), "a zero page");
    else
        snprintf(have, sizeof(have), "page 0x%" PRIx64 "%s", got.page, got.read_only ? ", read-only" : "");
    if (expect_fault)
        snprintf(need, sizeof(need), "no valid entry");
    else if (want->zero)
        snprintf(need, sizeof(need), "a zero page");
    else
        snprintf(need, sizeof(need), "page 0x%" PRIx64 "%s", want->page, want->read_only ? ", read-only" : "");
    const pbc_res_va *u = &v->rs.vas[r];
    if (u->alloc < 0)
        snprintf(what, sizeof(what), "a %s range", expect_fault ? "no-access" : "zero");
    else
        snprintf(what, sizeof(what), "allocation %s page %" PRIu64, v->s->allocs[u->alloc].name,
                 v->rs.a[u->alloc].va_first + p);
    if (u->space) {
        size_t len = strlen(what);
        snprintf(what + len, sizeof(what) - len, " (address space %u)", u->space);
    }
    return pbc_rule_pte(&v->res->findings, UINT32_MAX, va, what, have, need);
}

static uint64_t va_page_address(const vm *v, const DXGK_PTE *e)
{
    uint64_t off = e->PageAddress << PBC_PAGE_SHIFT;
    return e->Segment ? v->s->segments[e->Segment - 1].base + off : off;
}

void pbc_vidmm_va_check(vm *v)
{
    if (!v->va_root)
        return;
    if (v->mfence_count && va_fence_now(v) != v->mfence_value) {
        VM_RULE(v, pbc_rule_paging_fence(&v->res->findings, UINT32_MAX, va_fence_now(v), v->mfence_value));
        return;
    }
    /* Every range in use, page by page (a 64 KiB page by its first); the
     * tables do not change meanwhile, so a page's walk starts from the leaf
     * its neighbour's reached. */
    pbc_va_walk_memo memo = {0};
    for (uint32_t r = 0; r < v->rs.va_count && !v->stop; r++) {
        const pbc_res_va *u = &v->rs.vas[r];
        uint64_t step = (u->flags & PBC_SOP_VA_64K) ? 16 : 1;
        for (uint64_t p = 0; p < u->pages && !v->stop; p += step) {
            uint64_t va = u->base + p * PBC_PAGE_SIZE;
            pbc_va_xlat want = {0};
            int fault = 0;
            if (u->alloc < 0) {
                fault = (u->flags & PBC_SOP_VA_NO_ACCESS) != 0;
                want.zero = !fault;
            } else {
                const pbc_res_alloc *ra = &v->rs.a[u->alloc];
                DXGK_PTE e = va_entry(v, (uint32_t)u->alloc, ra, &v->allocs[u->alloc].mdl, ra->va_first + p, u->flags);
                want.page = va_page_address(v, &e);
                want.read_only = e.ReadOnly;
            }
            VM_RULE(v, va_check_page(v, va, r, p, fault, &want, &memo));
        }
    }
    /* What the TLB still holds must be what the tables say: VidMm flushed
     * every range whose valid entries it changed. */
    const pbc_gpu *g = v->gpu;
    for (uint32_t i = 0; i < g->tlb_count && !v->stop; i++) {
        const pbc_tlb_entry *t = &g->tlb[i];
        uint32_t k = 0;
        while (k < v->space_count && t->root != v->space_roots[k])
            k++;
        if (k == v->space_count)
            continue; /* no space's: a root no process has */
        pbc_va_xlat now;
        const char *why = NULL;
        int rc = pbc_gpu_va_walk(g, t->root, t->vpn << PBC_PAGE_SHIFT, &now, &why);
        if (rc == 0 && now.zero == t->x.zero && (now.zero || (now.page == t->x.page && now.read_only == t->x.read_only)))
            continue;
        VM_RULE(v, pbc_rule_tlb(&v->res->findings, UINT32_MAX, t->vpn << PBC_PAGE_SHIFT, k, t->x.zero ? 0 : t->x.page,
                                rc ? 0 : now.page, rc != 0));
    }
}
