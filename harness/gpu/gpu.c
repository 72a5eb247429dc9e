/*
 * The model GPU: address translation (segments, GART, system pages,
 * scattered or in runs), micro-op execution, the paging and render
 * engines (the paging engine fetches submitted DMA ranges from modeled
 * memory and decodes them with the target's ISA), fences, faults and
 * write provenance.
 *
 * Every fault is recorded and execution of that submission stops; nothing
 * a target emits can crash the model or make it read outside its memory.
 */
#include "gpu/gpu.h"

#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "base/util.h"

/* System page i lives at frame BASE + (i * MULT mod 2^21): scattered, with
 * about a quarter of the frames below 4 GiB and the rest above. Frames
 * handed out in runs (pbc_gpu_alloc_system_run) come out of the same
 * window: a bit each marks them, and the scattered order skips them. */
#define SYS_MULT 0x9E3779B1ull
#define SYS_MASK ((uint64_t)PBC_SYS_WINDOW_PAGES - 1)
/* How far a run of n frames is looked for, n * REACH + REACH_MIN frames,
 * before the search settles for the free frames it finds first: far
 * enough to step over what is taken in a pool with room, short enough
 * that a crowded pool costs little. */
#define SYS_RUN_REACH 16u
#define SYS_RUN_REACH_MIN 4096u

/* The inverse of SYS_MULT mod 2^64 by Newton's iteration (each step doubles
 * the correct low bits: 3, 6, 12, 24, 48, 96), folded at compile time: the
 * translation of every system page access uses it. */
#define SYS_INV_STEP(x) ((x) * (2 - SYS_MULT * (x)))
#define SYS_MULT_INV SYS_INV_STEP(SYS_INV_STEP(SYS_INV_STEP(SYS_INV_STEP(SYS_INV_STEP(SYS_MULT)))))

static uint64_t sys_pfn(const pbc_gpu *gpu, uint32_t index) { return gpu->sys_base + ((index * SYS_MULT) & SYS_MASK); }

/* Frame `off` of the window (counted from its first frame) was handed out in a run. */
static int sys_in_run(const pbc_gpu *gpu, uint64_t off)
{
    return gpu->sys_taken && ((gpu->sys_taken[off / 64] >> (off % 64)) & 1);
}

/* Frame `off` of the window is held: its place in the scattered order was
 * reached (handed out there, or skipped as a run's), or a run holds it. */
static int sys_off_held(const pbc_gpu *gpu, uint64_t off)
{
    return ((off * SYS_MULT_INV) & SYS_MASK) < gpu->sys_pages_used || sys_in_run(gpu, off);
}

static int sys_pfn_allocated(const pbc_gpu *gpu, uint64_t pfn)
{
    if (pfn < gpu->sys_base || pfn - gpu->sys_base >= PBC_SYS_WINDOW_PAGES)
        return 0;
    return sys_off_held(gpu, pfn - gpu->sys_base);
}

const char *pbc_gpu_fault_name(uint32_t kind)
{
    static const char *const names[] = {
        [PBC_FAULT_GART_UNMAPPED] = "gart-unmapped",
        [PBC_FAULT_BAD_ADDRESS] = "bad-address",
        [PBC_FAULT_DECODE] = "decode",
        [PBC_FAULT_FETCH] = "fetch",
        [PBC_FAULT_UOP] = "bad-micro-op",
        [PBC_FAULT_VA_INVALID] = "va-invalid",
        [PBC_FAULT_VA_READ_ONLY] = "va-read-only",
    };
    return kind < PBC_ARRAY_LEN(names) && names[kind] ? names[kind] : "?";
}

const char *pbc_gpu_uop_name(uint32_t kind)
{
    static const char *const names[PBC_UOP_KIND_COUNT] = {
        [PBC_UOP_NOP] = "nop",
        [PBC_UOP_COPY] = "copy",
        [PBC_UOP_FILL] = "fill",
        [PBC_UOP_WRITE_IMM] = "write",
        [PBC_UOP_READ] = "read",
        [PBC_UOP_GART_WRITE] = "gart",
        [PBC_UOP_FENCE] = "fence",
        [PBC_UOP_PTE_WRITE] = "pte",
        [PBC_UOP_TLB_FLUSH] = "tlb-flush",
    };
    return kind < PBC_UOP_KIND_COUNT ? names[kind] : "?";
}

/* Words of a segment's gart_dirty. */
static size_t gart_dirty_words(const pbc_gpu_segment *s)
{
    return ((size_t)s->gart_cap / PBC_GART_PER_PAGE + 64) / 64;
}

/* The most queue entries kept from run to run (about 1 MiB): a run that
 * queued more gives its queue back at reset. */
#define PBC_QUEUE_KEEP 8192u

pbc_gpu *pbc_gpu_create(const pbc_segment_info *segments, uint32_t count, const pbc_isa *isa,
                        const char **why)
{
    *why = pbc_gpu_layout_check(segments, count);
    if (*why)
        return NULL;
    pbc_gpu *gpu = pbc_xcalloc(1, sizeof(*gpu));
    gpu->isa = isa;
    pbc_mem_init(&gpu->mem);
    gpu->dma_pool = aligned_alloc(PBC_PAGE_SIZE, PBC_DMA_POOL_SIZE);
    if (!gpu->dma_pool)
        abort();
    pbc_gpu_relayout(gpu, segments, count);
    return gpu;
}

void pbc_gpu_use_pool(pbc_gpu *gpu, uint8_t *pool)
{
    if (pool == gpu->dma_pool)
        return;
    memcpy(pool, gpu->dma_pool, PBC_DMA_POOL_SIZE);
    if (!gpu->pool_lent)
        free(gpu->dma_pool);
    gpu->dma_pool = pool;
    gpu->pool_lent = 1;
}

int pbc_gpu_same_layout(const pbc_gpu *gpu, const pbc_segment_info *segments, uint32_t count)
{
    if (gpu->segment_count != count)
        return 0;
    for (uint32_t i = 0; i < count; i++)
        if (memcmp(&gpu->seg[i].info, &segments[i], sizeof(segments[i])) != 0)
            return 0;
    return 1;
}

const char *pbc_gpu_relayout(pbc_gpu *gpu, const pbc_segment_info *segments, uint32_t count)
{
    const char *why = pbc_gpu_layout_check(segments, count);
    if (why)
        return why;
    pbc_gpu_reset(gpu); /* clears the GART entries the old layout touched */
    uint64_t shift = pbc_gpu_layout_shift(segments, count);
    gpu->sys_base = PBC_SYS_BASE_PFN + (shift >> PBC_PAGE_SHIFT);
    pbc_mem_set_pool(&gpu->mem, &(pbc_pool_order){gpu->sys_base, SYS_MASK, SYS_MULT, SYS_MULT_INV});
    gpu->pool_base = PBC_DMA_POOL_BASE + shift;
    gpu->mmio_base = PBC_MMIO_BASE + shift;
    for (uint32_t i = 0; i < count; i++) {
        pbc_gpu_segment *s = &gpu->seg[i];
        s->info = segments[i];
        s->gart_pages = 0;
        if (segments[i].kind != PBC_SEGMENT_APERTURE)
            continue;
        s->gart_pages = (uint32_t)(segments[i].size / PBC_PAGE_SIZE);
        if (s->gart_pages > s->gart_cap) { /* calloc'd: pages never touched cost nothing */
            free(s->gart);
            free(s->gart_dirty);
            s->gart = pbc_xcalloc(s->gart_pages, sizeof(pbc_gart_entry));
            s->gart_cap = s->gart_pages;
            s->gart_dirty = pbc_xcalloc(gart_dirty_words(s), sizeof(uint64_t));
            s->gart_dirty_count = 0;
        }
    }
    gpu->segment_count = count;
    pbc_gpu_reset(gpu);
    return NULL;
}

void pbc_gpu_destroy(pbc_gpu *gpu)
{
    if (!gpu)
        return;
    for (uint32_t i = 0; i < PBC_MAX_SEGMENTS; i++) {
        free(gpu->seg[i].gart);
        free(gpu->seg[i].gart_dirty);
        free(gpu->seg[i].touched);
    }
    pbc_mem_fini(&gpu->mem);
    free(gpu->sys_taken);
    free(gpu->sys_runs);
    if (!gpu->pool_lent)
        free(gpu->dma_pool);
    free(gpu->queue);
    free(gpu->fences);
    free(gpu->fetch);
    free(gpu->tlb);
    free(gpu->tlb_index);
    free(gpu);
}

/* Clears the GART entries the last run wrote: in place, or, once the
 * array's written pages pass PBC_GART_DIRTY_MAX, by a fresh array (a
 * calloc that costs nothing until written), so that the array's resident
 * pages follow what recent runs wrote, not every place any run ever did. */
static void gart_reset(pbc_gpu_segment *s)
{
    for (uint32_t t = 0; t < s->touched_count; t++) {
        uint32_t p = s->touched[t] / PBC_GART_PER_PAGE;
        if (!(s->gart_dirty[p / 64] >> (p % 64) & 1)) {
            s->gart_dirty[p / 64] |= 1ull << (p % 64);
            s->gart_dirty_count++;
        }
    }
    if (s->gart_dirty_count > PBC_GART_DIRTY_MAX) {
        free(s->gart);
        s->gart = pbc_xcalloc(s->gart_cap, sizeof(pbc_gart_entry));
        memset(s->gart_dirty, 0, gart_dirty_words(s) * sizeof(uint64_t));
        s->gart_dirty_count = 0;
    } else {
        for (uint32_t t = 0; t < s->touched_count; t++)
            memset(&s->gart[s->touched[t]], 0, sizeof(pbc_gart_entry));
    }
    s->touched_count = 0;
}

void pbc_gpu_reset(pbc_gpu *gpu)
{
    for (uint32_t i = 0; i < gpu->segment_count; i++)
        gart_reset(&gpu->seg[i]);
    /* A queue grown far by one run is given back, not kept for the next. */
    if (gpu->queue_cap > PBC_QUEUE_KEEP) {
        free(gpu->queue);
        gpu->queue = NULL;
        gpu->queue_cap = 0;
    }
    pbc_mem_reset(&gpu->mem);
    gpu->sys_pages_used = 0;
    for (uint32_t i = 0; i < gpu->sys_run_count; i++)
        for (uint64_t off = gpu->sys_runs[i].first; off < (uint64_t)gpu->sys_runs[i].first + gpu->sys_runs[i].count;
             off++)
            gpu->sys_taken[off / 64] &= ~(1ull << (off % 64));
    gpu->sys_run_count = 0;
    gpu->dma_used = 0;
    /* Registers may have been written through a CPU mapping, which no
     * counter sees: every run starts from zeroed registers. */
    memset(gpu->mmio, 0, sizeof(gpu->mmio));
    gpu->mmio_writes = 0;
    gpu->exec_hash = 0;
    gpu->work_uops = 0;
    gpu->pool_alias = 0;
    gpu->access_count = gpu->accesses_lost = gpu->watch_count = 0;
    gpu->queued = gpu->executed = gpu->running = gpu->fence_done = 0;
    gpu->head[0] = gpu->head[1] = 0;
    gpu->paging_wait = UINT32_MAX;
    gpu->fault_count = 0;
    gpu->fence_count = 0;
    gpu->dummy_accesses = 0;
    gpu->va_root = 0;
    gpu->value_addr = gpu->value_last = 0;
    pbc_gpu_tlb_reset(gpu);
    memset(&gpu->cur, 0, sizeof(gpu->cur));
    gpu->dummy_page = pbc_gpu_alloc_system_page(gpu);
}

const pbc_gpu_segment *pbc_gpu_segment_by_id(const pbc_gpu *gpu, UINT id)
{
    return id >= 1 && id <= gpu->segment_count ? &gpu->seg[id - 1] : NULL;
}

uint64_t pbc_gpu_alloc_system_page(pbc_gpu *gpu)
{
    while (gpu->sys_pages_used < PBC_SYS_WINDOW_PAGES &&
           sys_in_run(gpu, sys_pfn(gpu, gpu->sys_pages_used) - gpu->sys_base))
        gpu->sys_pages_used++; /* a run holds that frame already */
    if (gpu->sys_pages_used >= PBC_SYS_WINDOW_PAGES)
        return 0;
    return sys_pfn(gpu, gpu->sys_pages_used++) << PBC_PAGE_SHIFT;
}

int pbc_gpu_system_free(const pbc_gpu *gpu, uint64_t pfn, uint64_t n)
{
    if (pfn < gpu->sys_base || pfn - gpu->sys_base > PBC_SYS_WINDOW_PAGES ||
        n > PBC_SYS_WINDOW_PAGES - (pfn - gpu->sys_base))
        return 0;
    for (uint64_t off = pfn - gpu->sys_base, end = off + n; off < end; off++)
        if (sys_off_held(gpu, off))
            return 0;
    return 1;
}

/* Marks frames [first, first + count) of the window as a run's and writes
 * their frame numbers to out, or (out NULL) appends them to list. */
static void sys_take(pbc_gpu *gpu, uint64_t first, uint64_t count, uint64_t *out, pbc_frames *list)
{
    if (!gpu->sys_taken) /* 256 KiB, only for worlds that ever hand out a run */
        gpu->sys_taken = pbc_xcalloc(PBC_SYS_WINDOW_PAGES / 64, sizeof(uint64_t));
    for (uint64_t i = 0; i < count; i++) {
        uint64_t off = first + i;
        gpu->sys_taken[off / 64] |= 1ull << (off % 64);
        if (out)
            out[i] = gpu->sys_base + off;
    }
    if (!out)
        pbc_frames_add(list, gpu->sys_base + first, count, 0);
    pbc_sys_run r = {(uint32_t)first, (uint32_t)count};
    PBC_PUSH(gpu->sys_runs, gpu->sys_run_count, gpu->sys_run_cap, r);
}

uint64_t pbc_gpu_alloc_system_pages(pbc_gpu *gpu, uint64_t n, pbc_frames *list)
{
    uint64_t done = 0;
    while (done < n && gpu->sys_pages_used < PBC_SYS_WINDOW_PAGES) {
        uint64_t start = gpu->sys_pages_used, len = 0, most = n - done;
        if (most > PBC_SYS_WINDOW_PAGES - start)
            most = PBC_SYS_WINDOW_PAGES - start;
        if (!gpu->sys_taken) /* no run yet: every place in the order is free */
            len = most;
        else
            while (len < most && !sys_in_run(gpu, sys_pfn(gpu, (uint32_t)(start + len)) - gpu->sys_base))
                len++;
        pbc_frames_add(list, start, len, 1);
        done += len;
        gpu->sys_pages_used = (uint32_t)(start + len + (len < most)); /* a run's frame is skipped */
    }
    return done;
}

static uint64_t sys_alloc_run(pbc_gpu *gpu, uint64_t pfn, uint64_t n, uint64_t *pfns, pbc_frames *list)
{
    uint64_t from = pfn >= gpu->sys_base && pfn - gpu->sys_base < PBC_SYS_WINDOW_PAGES
                        ? pfn - gpu->sys_base : 0;
    uint64_t reach = n < PBC_SYS_WINDOW_PAGES ? n * SYS_RUN_REACH + SYS_RUN_REACH_MIN : PBC_SYS_WINDOW_PAGES;
    uint64_t start = 0, len = 0, done = 0;
    if (reach > PBC_SYS_WINDOW_PAGES)
        reach = PBC_SYS_WINDOW_PAGES;
    for (uint64_t step = 0, off = from; step < reach && len < n; step++, off = (off + 1) & SYS_MASK) {
        if (off == 0)
            len = 0; /* a run does not wrap around the window's end */
        if (sys_off_held(gpu, off))
            len = 0;
        else if (len++ == 0)
            start = off;
    }
    if (n && len == n) {
        sys_take(gpu, start, n, pfns, list);
        return n;
    }
    /* Crowded: the free frames from pfn on, a stretch at a time, in one
     * pass over the window at most. */
    len = 0;
    for (uint64_t step = 0, off = from; step < PBC_SYS_WINDOW_PAGES && done + len < n;
         step++, off = (off + 1) & SYS_MASK) {
        if (len && (off == 0 || sys_off_held(gpu, off))) { /* a stretch ends */
            sys_take(gpu, start, len, pfns ? pfns + done : NULL, list);
            done += len;
            len = 0;
        }
        if (!sys_off_held(gpu, off) && len++ == 0)
            start = off;
    }
    if (len)
        sys_take(gpu, start, len, pfns ? pfns + done : NULL, list);
    return done + len;
}

uint64_t pbc_gpu_alloc_system_run(pbc_gpu *gpu, uint64_t pfn, uint64_t n, uint64_t *pfns)
{
    return sys_alloc_run(gpu, pfn, n, pfns, NULL);
}

uint64_t pbc_gpu_alloc_system_run_frames(pbc_gpu *gpu, uint64_t pfn, uint64_t n, pbc_frames *list)
{
    return sys_alloc_run(gpu, pfn, n, NULL, list);
}

int pbc_gpu_dma_alloc(pbc_gpu *gpu, uint32_t size, uint8_t **host, uint64_t *phys)
{
    uint64_t span = ((uint64_t)size + PBC_PAGE_SIZE - 1) / PBC_PAGE_SIZE * PBC_PAGE_SIZE;
    uint64_t start = (uint64_t)gpu->dma_used + PBC_PAGE_SIZE; /* guard page before */
    if (start + span + PBC_PAGE_SIZE > PBC_DMA_POOL_SIZE)
        return -1;
    *host = gpu->dma_pool + start;
    *phys = gpu->pool_base + start;
    gpu->dma_used = (uint32_t)(start + span); /* its guard after is the next one's before */
    return 0;
}

void pbc_gpu_dma_release_all(pbc_gpu *gpu) { gpu->dma_used = 0; }

void pbc_gpu_alias_pool(pbc_gpu *gpu, uint64_t base) { gpu->pool_alias = base; }

void pbc_gpu_fault(pbc_gpu *gpu, pbc_fault_kind kind, uint64_t addr, const char *why)
{
    if (gpu->fault_count < PBC_MAX_FAULTS_KEPT) {
        pbc_fault *f = &gpu->faults[gpu->fault_count];
        f->kind = kind;
        f->addr = addr;
        f->why = why;
        f->submission = gpu->cur.submission;
        f->packet_offset = gpu->cur.packet_offset;
        f->gart_segment = 0;
        f->gart_index = 0;
    }
    gpu->fault_count++;
}

/* A fault through GART entry `index` of aperture `segment`: the fault just
 * recorded names the entry, whose writer is then the one to blame
 * (exec/attribute.c). */
static void gpu_fault_gart(pbc_gpu *gpu, pbc_fault_kind kind, uint64_t addr, const char *why, uint32_t segment,
                           uint64_t index)
{
    pbc_gpu_fault(gpu, kind, addr, why);
    if (gpu->fault_count <= PBC_MAX_FAULTS_KEPT) {
        gpu->faults[gpu->fault_count - 1].gart_segment = segment;
        gpu->faults[gpu->fault_count - 1].gart_index = index;
    }
}

/* Physical page that backs addr, or -1 after recording a fault. */
static int64_t gpu_translate(pbc_gpu *gpu, uint64_t addr)
{
    for (uint32_t i = 0; i < gpu->segment_count; i++) {
        const pbc_gpu_segment *s = &gpu->seg[i];
        if (addr < s->info.base || addr - s->info.base >= s->info.size)
            continue;
        if (s->info.kind == PBC_SEGMENT_MEMORY)
            return (int64_t)(addr >> PBC_PAGE_SHIFT);
        uint64_t index = (addr - s->info.base) >> PBC_PAGE_SHIFT;
        const pbc_gart_entry *e = &s->gart[index];
        pbc_gart_entry driver_kept;
        if (gpu->gart_lookup && gpu->gart_lookup(gpu->observer_ctx, s->info.SegmentId, index, &driver_kept) == 0)
            e = &driver_kept; /* the GART the driver programmed, however it keeps it */
        if (!(e->flags & PBC_GART_VALID)) {
            gpu_fault_gart(gpu, PBC_FAULT_GART_UNMAPPED, addr, "access through an unmapped GART entry",
                           s->info.SegmentId, index);
            return -1;
        }
        if (e->addr == gpu->dummy_page)
            gpu->dummy_accesses++;
        if (!sys_pfn_allocated(gpu, e->addr >> PBC_PAGE_SHIFT)) {
            gpu_fault_gart(gpu, PBC_FAULT_BAD_ADDRESS, e->addr, "GART entry points at no system page",
                           s->info.SegmentId, index);
            return -1;
        }
        return (int64_t)(e->addr >> PBC_PAGE_SHIFT);
    }
    if (sys_pfn_allocated(gpu, addr >> PBC_PAGE_SHIFT))
        return (int64_t)(addr >> PBC_PAGE_SHIFT);
    pbc_gpu_fault(gpu, PBC_FAULT_BAD_ADDRESS, addr, "address outside every segment and system page");
    return -1;
}

int pbc_gpu_identity_range(const pbc_gpu *gpu, uint64_t addr, uint64_t len)
{
    if (len == 0 || addr + len < addr)
        return 0;
    for (uint32_t i = 0; i < gpu->segment_count; i++) {
        const pbc_segment_info *s = &gpu->seg[i].info;
        if (addr >= s->base && addr - s->base < s->size)
            return s->kind == PBC_SEGMENT_MEMORY && len <= s->size - (addr - s->base);
    }
    uint64_t last = (addr + len - 1) >> PBC_PAGE_SHIFT;
    if (last - (addr >> PBC_PAGE_SHIFT) >= PBC_SYS_WINDOW_PAGES)
        return 0;
    for (uint64_t pfn = addr >> PBC_PAGE_SHIFT; pfn <= last; pfn++)
        if (!sys_pfn_allocated(gpu, pfn))
            return 0;
    return 1;
}

static int gpu_range_ok(pbc_gpu *gpu, uint64_t addr, uint64_t len)
{
    if (addr + len < addr) {
        pbc_gpu_fault(gpu, PBC_FAULT_BAD_ADDRESS, addr, "range wraps around the address space");
        return 0;
    }
    return 1;
}

/* The pool, when addr falls in it or in its alias: its offset, else -1. */
int64_t pbc_gpu_pool_offset(const pbc_gpu *gpu, uint64_t addr)
{
    if (gpu->pool_alias && addr >= gpu->pool_alias && addr - gpu->pool_alias < PBC_DMA_POOL_SIZE)
        return (int64_t)(addr - gpu->pool_alias); /* the same buffers, seen through a segment */
    if (addr >= gpu->pool_base && addr - gpu->pool_base < PBC_DMA_POOL_SIZE)
        return (int64_t)(addr - gpu->pool_base);
    return -1;
}

/* Stamps a written page with the current provenance for the change log. */
static void gpu_wrote(pbc_gpu *gpu, pbc_page *pg)
{
    pg->prov = gpu->cur;
    pbc_mem_log_write(&gpu->mem, pg);
}

/* Walks [addr, addr+len) page by page through the address map: a write of
 * bytes from `in`, a write of what `d` describes (d->pos is the stream
 * offset of addr), or a read out to `out` (untouched pages read as zeros).
 * Writes are stamped with the current provenance. */
static void gpu_byte_watch_note(pbc_gpu *gpu, uint64_t addr, uint64_t len, const pbc_uop *u)
{
    pbc_gpu_byte_watch *w = gpu->byte_watch;
    if (w->gart_segment || w->stopped || w->addr < addr || w->addr - addr >= len)
        return; /* a GART entry's watch: gpu_byte_watch_uop's */
    w->writes++;
    w->prov = gpu->cur;
    if (u)
        w->uop = *u;
    else
        memset(&w->uop, 0, sizeof(w->uop));
}

/* A micro-op's physical piece, for the byte watch: the packet that reads
 * the byte (a copy followed back, or the access that faulted through a
 * GART entry) ends the count, before it runs. A watched GART entry
 * counts its GART micro-ops alone. */
static void gpu_byte_watch_uop(pbc_gpu *gpu, const pbc_uop *u)
{
    pbc_gpu_byte_watch *w = gpu->byte_watch;
    if (w->stop_submission && gpu->cur.submission == w->stop_submission &&
        gpu->cur.packet_offset == w->stop_offset)
        w->stopped = 1;
    if (w->gart_segment) {
        if (!w->stopped && u->kind == PBC_UOP_GART_WRITE && u->segment == w->gart_segment &&
            u->index == w->gart_index) {
            w->writes++;
            w->prov = gpu->cur;
            w->uop = *u;
        }
        return;
    }
    uint64_t len = u->kind == PBC_UOP_COPY || u->kind == PBC_UOP_FILL ? u->size
                 : u->kind == PBC_UOP_WRITE_IMM                       ? u->width
                 : u->kind == PBC_UOP_PTE_WRITE ? (gpu->isa->pte_size ? gpu->isa->pte_size : 16u)
                                                                      : 0;
    if (len)
        gpu_byte_watch_note(gpu, u->dst, len, u);
}

static int gpu_access(pbc_gpu *gpu, uint64_t addr, const uint8_t *in, const pbc_desc *d, uint8_t *out,
                      uint64_t len)
{
    if (!gpu_range_ok(gpu, addr, len))
        return -1;
    if (gpu->byte_watch && !out && gpu->cur.writer == PBC_WRITER_CPU) /* micro-ops are noted whole */
        gpu_byte_watch_note(gpu, addr, len, NULL);
    int64_t pool = pbc_gpu_pool_offset(gpu, addr);
    if (pool >= 0) {
        /* The paging buffers themselves: packets may carry inline data the
         * GPU reads (S10 says where the buffer is paged); a write there is
         * judged by what it would break (VidMm's pool_write), as memory. */
        if (len > PBC_DMA_POOL_SIZE - (uint64_t)pool) {
            pbc_gpu_fault(gpu, PBC_FAULT_BAD_ADDRESS, addr,
                          out ? "read beyond the paging-buffer pool" : "write beyond the paging-buffer pool");
            return -1;
        }
        if (out) {
            memcpy(out, gpu->dma_pool + pool, len);
            return 0;
        }
        int ahead = 0;
        const char *why = gpu->pool_write ? gpu->pool_write(gpu->observer_ctx, (uint64_t)pool, len, &ahead)
                                          : "GPU write into the paging-buffer pool";
        if (!why && ahead) { /* judged when the packets over it are decoded */
            if (gpu->ahead_count == PBC_POOL_AHEAD_MAX || len > PBC_POOL_AHEAD_BYTES)
                why = "GPU write into bytes of its paging buffer still to be fetched (more than the GPU model "
                      "follows to judge by what it changes)";
            else {
                pbc_pool_ahead *w = &gpu->ahead[gpu->ahead_count++];
                w->offset = (uint32_t)pool;
                w->len = (uint32_t)len;
                memcpy(w->was, gpu->dma_pool + pool, len);
            }
        }
        if (why) {
            pbc_gpu_fault(gpu, PBC_FAULT_BAD_ADDRESS, addr, why);
            return -1;
        }
        if (d)
            pbc_desc_read(d, 0, gpu->dma_pool + pool, (uint32_t)len);
        else
            memcpy(gpu->dma_pool + pool, in, len);
        return 0;
    }
    for (uint64_t done = 0; done < len;) {
        uint64_t at = addr + done, off = at & (PBC_PAGE_SIZE - 1);
        uint64_t n = len - done < PBC_PAGE_SIZE - off ? len - done : PBC_PAGE_SIZE - off;
        int64_t ppn = gpu_translate(gpu, at);
        if (ppn < 0)
            return -1;
        if (out) {
            pbc_mem_read(&gpu->mem, ((uint64_t)ppn << PBC_PAGE_SHIFT) + off, out + done, n);
        } else {
            pbc_page *pg = pbc_mem_touch(&gpu->mem, (uint64_t)ppn);
            pbc_desc piece = d ? (pbc_desc){d->kind, d->value, d->pos + done} : (pbc_desc){0};
            if (n == PBC_PAGE_SIZE && d) {
                pg->desc = piece; /* a whole page: described, nothing made */
                pg->split = 0;
            } else if (d) {
                pbc_mem_write_desc(&gpu->mem, pg, (uint32_t)off, (uint32_t)n, &piece);
            } else if (!pbc_mem_may_hold_bytes(&gpu->mem, pg)) {
                /* over the run's budget of pages as bytes: dropped (mem.h) */
            } else if (n == PBC_PAGE_SIZE) {
                pbc_mem_data(&gpu->mem, pg);
                pg->desc.kind = PBC_PAGE_BYTES;
                pg->split = 0;
                memcpy(pg->data, in + done, n);
            } else {
                memcpy(pbc_mem_bytes(&gpu->mem, pg) + off, in + done, n);
            }
            gpu_wrote(gpu, pg);
        }
        done += n;
    }
    return 0;
}

int pbc_gpu_write(pbc_gpu *gpu, uint64_t addr, const void *src, uint64_t len)
{
    return gpu_access(gpu, addr, src, NULL, NULL, len);
}

int pbc_gpu_write_desc(pbc_gpu *gpu, uint64_t addr, uint64_t len, const pbc_desc *d)
{
    return gpu_access(gpu, addr, NULL, d, NULL, len);
}

int pbc_gpu_lay(pbc_gpu *gpu, uint64_t addr, uint64_t len, const pbc_desc *d)
{
    uint64_t head = (PBC_PAGE_SIZE - (addr & (PBC_PAGE_SIZE - 1))) & (PBC_PAGE_SIZE - 1);
    if (head > len)
        head = len;
    uint64_t pages = (len - head) / PBC_PAGE_SIZE;
    if (!pages || !pbc_gpu_identity_range(gpu, addr + head, pages * PBC_PAGE_SIZE))
        return pbc_gpu_write_desc(gpu, addr, len, d);
    if (head && pbc_gpu_write_desc(gpu, addr, head, d))
        return -1;
    pbc_desc whole = pbc_desc_shift(d, head);
    pbc_mem_lay(&gpu->mem, (addr + head) >> PBC_PAGE_SHIFT, pages, &whole, &gpu->cur);
    uint64_t done = head + pages * PBC_PAGE_SIZE;
    pbc_desc tail = pbc_desc_shift(d, done);
    return done < len ? pbc_gpu_write_desc(gpu, addr + done, len - done, &tail) : 0;
}

/* The pool index of system frame pfn. */
static uint64_t sys_index(const pbc_gpu *gpu, uint64_t pfn) { return ((pfn - gpu->sys_base) * SYS_MULT_INV) & SYS_MASK; }

/* Frame pfn was handed out one at a time, in the pool's order (not in a
 * run, where its pool index means nothing). */
static int sys_pooled(const pbc_gpu *gpu, uint64_t pfn)
{
    return sys_pfn_allocated(gpu, pfn) && !sys_in_run(gpu, pfn - gpu->sys_base);
}

void pbc_gpu_lay_frames(pbc_gpu *gpu, const uint64_t *pfns, uint64_t n, const pbc_desc *d)
{
    for (uint64_t i = 0; i < n;) {
        if (!sys_pfn_allocated(gpu, pfns[i])) { /* not the pool's: as any write would */
            pbc_desc one = pbc_desc_shift(d, i * PBC_PAGE_SIZE);
            pbc_gpu_write_desc(gpu, pfns[i] << PBC_PAGE_SHIFT, PBC_PAGE_SIZE, &one);
            i++;
            continue;
        }
        /* The longest run from i of frames in a row, or of frames handed
         * out one by one with pool indexes in a row (a scattered MDL is
         * one such run, a lone scattered frame one of its own). */
        uint64_t flat = 1, pooled = 0, index = sys_index(gpu, pfns[i]);
        while (i + flat < n && pfns[i + flat] == pfns[i] + flat)
            flat++;
        if (sys_pooled(gpu, pfns[i]))
            for (pooled = 1; i + pooled < n && sys_pooled(gpu, pfns[i + pooled]) &&
                             sys_index(gpu, pfns[i + pooled]) == index + pooled;)
                pooled++;
        pbc_desc first = pbc_desc_shift(d, i * PBC_PAGE_SIZE);
        if (pooled >= flat) {
            pbc_mem_lay_pool(&gpu->mem, index, pooled, &first, &gpu->cur);
            i += pooled;
        } else {
            pbc_mem_lay(&gpu->mem, pfns[i], flat, &first, &gpu->cur);
            i += flat;
        }
    }
}

void pbc_gpu_lay_frame_list(pbc_gpu *gpu, const pbc_frames *list, uint64_t from, uint64_t n, const pbc_desc *d)
{
    pbc_frames_walk w = pbc_frames_walk_from(list, from, n);
    pbc_frame_run p;
    while (pbc_frames_next(&w, &p)) {
        pbc_desc first = pbc_desc_shift(d, p.at * PBC_PAGE_SIZE);
        if (p.pooled)
            pbc_mem_lay_pool(&gpu->mem, p.first, p.count, &first, &gpu->cur);
        else
            pbc_mem_lay(&gpu->mem, p.first, p.count, &first, &gpu->cur);
    }
}

int pbc_gpu_read(pbc_gpu *gpu, uint64_t addr, void *dst, uint64_t len)
{
    return gpu_access(gpu, addr, NULL, NULL, dst, len);
}

/* What the GPU reads at [src, src+n) (n at most 4 KiB, at most two
 * pages), as one description, translating as a read would: 1 and *d when
 * it is one stream (pages never written are zeros), 0 when bytes must be
 * read, -1 after a fault. */
static int gpu_source_desc(pbc_gpu *gpu, uint64_t src, uint64_t n, pbc_desc *d)
{
    uint32_t off = (uint32_t)(src & (PBC_PAGE_SIZE - 1));
    uint32_t first = n < PBC_PAGE_SIZE - off ? (uint32_t)n : PBC_PAGE_SIZE - off;
    int64_t ppn = gpu_translate(gpu, src);
    if (ppn < 0)
        return -1;
    if (!pbc_mem_desc_in(&gpu->mem, (uint64_t)ppn, off, first, d))
        return 0;
    if (first == n)
        return 1;
    ppn = gpu_translate(gpu, src + first); /* the next page need not be the next frame */
    if (ppn < 0)
        return -1;
    return pbc_mem_desc_goes_on(&gpu->mem, (uint64_t)ppn, (uint32_t)(n - first), d, first);
}

/* 1 and *d when the n bytes bound for dst repeat one 4-byte pattern
 * (pieces of 64 bytes or more): its description, phased by the address
 * (pos = dst mod 4, byte k of the value landing at addresses k mod 4), so
 * that pieces of one pattern merge into one stream however they are cut
 * (a driver that fills by copying a block of the pattern from its paging
 * buffer again and again). */
static int gpu_pattern_of(const uint8_t *bytes, uint64_t n, uint64_t dst, pbc_desc *d)
{
    if (n < 64 || memcmp(bytes, bytes + 4, n - 4) != 0)
        return 0;
    uint32_t a = (uint32_t)(dst & 3), v = 0;
    for (uint32_t k = 0; k < 4; k++)
        v |= (uint32_t)bytes[(k + 4 - a) & 3] << (8 * k);
    *d = (pbc_desc){PBC_PAGE_PATTERN, v, a};
    return 1;
}

/* Copies page piece by page piece of the destination: a piece whose
 * source is one stream, or whose bytes repeat one pattern, gets its
 * description (pbc_mem_write_desc keeps a page described while it is at
 * most two streams); anything else is read, then written, a piece at a
 * time. */
static int gpu_copy(pbc_gpu *gpu, uint64_t dst, uint64_t src, uint64_t size)
{
    uint8_t chunk[PBC_PAGE_SIZE];
    pbc_desc d;
    if (size <= PBC_PAGE_SIZE && pbc_gpu_pool_offset(gpu, src) >= 0 && pbc_gpu_pool_offset(gpu, dst) < 0) {
        /* A block out of the paging buffer: whole, so that its pieces on
         * either side of a page line are the pattern too. */
        if (pbc_gpu_read(gpu, src, chunk, size))
            return -1;
        if (gpu_pattern_of(chunk, size, dst, &d))
            return pbc_gpu_write_desc(gpu, dst, size, &d);
    }
    while (size) {
        uint64_t n = PBC_PAGE_SIZE - (dst & (PBC_PAGE_SIZE - 1));
        if (n > size)
            n = size;
        int described = 0;
        if (pbc_gpu_pool_offset(gpu, src) < 0 && pbc_gpu_pool_offset(gpu, dst) < 0) {
            if (!gpu_range_ok(gpu, src, n))
                return -1;
            described = gpu_source_desc(gpu, src, n, &d);
            if (described < 0)
                return -1;
        }
        if (!described && pbc_gpu_read(gpu, src, chunk, n))
            return -1;
        if (!described && pbc_gpu_pool_offset(gpu, dst) < 0)
            described = gpu_pattern_of(chunk, n, dst, &d);
        if (described ? pbc_gpu_write_desc(gpu, dst, n, &d) : pbc_gpu_write(gpu, dst, chunk, n))
            return -1;
        src += n;
        dst += n;
        size -= n;
    }
    return 0;
}

/* Fills from this size on are laid as an extent where they land on
 * memory in a row (pbc_gpu_lay): a fill of 4 GiB then costs what a small
 * one does, unless something later touches every page. Smaller ones stay
 * pages, as they always were. */
#define GPU_FILL_LAY_MIN (16ull << 20)

static int gpu_fill(pbc_gpu *gpu, uint64_t dst, uint64_t size, uint32_t pattern)
{
    pbc_desc d = {PBC_PAGE_PATTERN, pattern, 0};
    if (size >= GPU_FILL_LAY_MIN && gpu_range_ok(gpu, dst, size) && pbc_gpu_pool_offset(gpu, dst) < 0 &&
        pbc_gpu_pool_offset(gpu, dst + size - 1) < 0)
        return pbc_gpu_lay(gpu, dst, size, &d);
    return pbc_gpu_write_desc(gpu, dst, size, &d);
}

static int gpu_gart_write(pbc_gpu *gpu, const pbc_uop *u)
{
    pbc_gpu_segment *s = (pbc_gpu_segment *)pbc_gpu_segment_by_id(gpu, u->segment);
    if (!s || s->info.kind != PBC_SEGMENT_APERTURE) {
        pbc_gpu_fault(gpu, PBC_FAULT_UOP, u->segment, "GART write to a segment that is no aperture");
        return -1;
    }
    if (u->index >= s->gart_pages) {
        pbc_gpu_fault(gpu, PBC_FAULT_UOP, u->index, "GART index beyond the aperture");
        return -1;
    }
    pbc_gart_entry *e = &s->gart[u->index];
    if (!e->touched) {
        PBC_PUSH(s->touched, s->touched_count, s->touched_cap, (uint32_t)u->index);
        e->touched = 1;
    }
    e->addr = u->value;
    e->flags = u->flags;
    return 0;
}

int pbc_gpu_gart_set(pbc_gpu *gpu, UINT segment, uint64_t index, uint64_t addr, uint32_t flags)
{
    pbc_uop u = {.kind = PBC_UOP_GART_WRITE, .segment = segment, .index = index, .value = addr, .flags = flags};
    const pbc_gpu_segment *s = pbc_gpu_segment_by_id(gpu, segment);
    if (!s || s->info.kind != PBC_SEGMENT_APERTURE || index >= s->gart_pages)
        return -1;
    return gpu_gart_write(gpu, &u);
}

static void gpu_fence(pbc_gpu *gpu, uint32_t fence)
{
    PBC_PUSH(gpu->fences, gpu->fence_count, gpu->fence_cap, fence);
    if (fence > gpu->fence_done)
        gpu->fence_done = fence;
    if (gpu->on_fence)
        gpu->on_fence(gpu->observer_ctx, fence, gpu->running);
}

int pbc_gpu_watch(pbc_gpu *gpu, uint64_t addr)
{
    if (gpu->watch_count >= PBC_MAX_WATCHES)
        return -1;
    gpu->watches[gpu->watch_count++] = addr;
    return 0;
}

static void gpu_log_one(pbc_gpu *gpu, int write, uint64_t addr, uint64_t size)
{
    if (size == 0 || size > 8)
        return;
    for (uint32_t i = 0; i < gpu->watch_count; i++) {
        if (gpu->watches[i] != addr)
            continue;
        if (gpu->access_count >= PBC_MAX_ACCESSES_KEPT) {
            gpu->accesses_lost++;
            return;
        }
        gpu->accesses[gpu->access_count++] =
            (pbc_access){(uint32_t)write, (uint32_t)size, addr, gpu->cur.submission, gpu->cur.packet_offset};
        return;
    }
}

/* Small accesses by paging buffers at watched addresses are logged for
 * ReadPhysical and WritePhysical. */
static void gpu_log_access(pbc_gpu *gpu, const pbc_uop *u)
{
    if (gpu->cur.writer != PBC_WRITER_PAGING)
        return;
    switch (u->kind) {
    case PBC_UOP_READ:
        gpu_log_one(gpu, 0, u->dst, u->width);
        break;
    case PBC_UOP_WRITE_IMM:
        gpu_log_one(gpu, 1, u->dst, u->width);
        break;
    case PBC_UOP_COPY:
        gpu_log_one(gpu, 0, u->src, u->size);
        gpu_log_one(gpu, 1, u->dst, u->size);
        break;
    case PBC_UOP_FILL:
        gpu_log_one(gpu, 1, u->dst, u->size);
        break;
    default:
        break;
    }
}

int pbc_gpu_exec_uop(pbc_gpu *gpu, const pbc_uop *u)
{
    uint8_t bytes[8];
    gpu->cur.uop = (uint16_t)u->kind;
    if (u->kind != PBC_UOP_NOP && u->kind != PBC_UOP_FENCE && gpu->cur.writer != PBC_WRITER_RENDER)
        gpu->work_uops++;
    if ((u->flags & (PBC_UOP_DST_VIRTUAL | PBC_UOP_SRC_VIRTUAL)) && u->kind != PBC_UOP_GART_WRITE)
        return pbc_gpu_exec_virtual(gpu, u); /* back here with each physical piece */
    if (gpu->watch_count) /* only while a ReadPhysical/WritePhysical is being judged */
        gpu_log_access(gpu, u);
    if (gpu->byte_watch)
        gpu_byte_watch_uop(gpu, u);
    switch (u->kind) {
    case PBC_UOP_NOP:
        return 0;
    case PBC_UOP_COPY:
    case PBC_UOP_FILL:
        return u->kind == PBC_UOP_COPY ? gpu_copy(gpu, u->dst, u->src, u->size)
                                       : gpu_fill(gpu, u->dst, u->size, (uint32_t)u->value);
    case PBC_UOP_WRITE_IMM:
    case PBC_UOP_READ:
        if (u->width < 1 || u->width > 8) {
            pbc_gpu_fault(gpu, PBC_FAULT_UOP, u->dst, "access width outside 1..8");
            return -1;
        }
        for (uint32_t i = 0; i < 8; i++)
            bytes[i] = (uint8_t)(u->value >> (8 * i));
        return u->kind == PBC_UOP_READ ? pbc_gpu_read(gpu, u->dst, bytes, u->width)
                                       : pbc_gpu_write(gpu, u->dst, bytes, u->width);
    case PBC_UOP_GART_WRITE:
        return gpu_gart_write(gpu, u);
    case PBC_UOP_FENCE:
        gpu_fence(gpu, (uint32_t)u->value);
        return 0;
    case PBC_UOP_PTE_WRITE: {
        uint8_t entry[PBC_PTE_SIZE];
        for (uint32_t i = 0; i < 8; i++) {
            entry[i] = (uint8_t)(u->value >> (8 * i));
            entry[8 + i] = (uint8_t)(u->index >> (8 * i));
        }
        return pbc_gpu_write(gpu, u->dst, entry, pbc_gpu_pte_size(gpu));
    }
    case PBC_UOP_TLB_FLUSH:
        pbc_gpu_tlb_flush(gpu, u->value, u->dst, u->size);
        return 0;
    default:
        pbc_gpu_fault(gpu, PBC_FAULT_UOP, 0, "unknown micro-op kind");
        return -1;
    }
}

/* ---- The queue ---- */

static pbc_engine gpu_engine(const pbc_qentry *e)
{
    return e->kind == PBC_QE_WORK ? PBC_ENGINE_RENDER : PBC_ENGINE_PAGING;
}

static uint32_t gpu_push(pbc_gpu *gpu, pbc_qentry *e)
{
    if (gpu_engine(e) == PBC_ENGINE_PAGING)
        e->wait = gpu->paging_wait == UINT32_MAX ? gpu->queued : gpu->paging_wait;
    PBC_PUSH(gpu->queue, gpu->queued, gpu->queue_cap, *e);
    return gpu->queued - 1;
}

uint32_t pbc_gpu_push_dma(pbc_gpu *gpu, UINT segment_id, uint64_t phys, UINT start, UINT end,
                          uint32_t tag)
{
    pbc_qentry e = {.kind = PBC_QE_DMA, .segment_id = segment_id, .phys = phys,
                    .start = start, .end = end, .tag = tag};
    return gpu_push(gpu, &e);
}

uint32_t pbc_gpu_push_fence(pbc_gpu *gpu, uint32_t fence, uint32_t tag)
{
    pbc_qentry e = {.kind = PBC_QE_FENCE, .fence = fence, .tag = tag};
    return gpu_push(gpu, &e);
}

uint32_t pbc_gpu_push_work(pbc_gpu *gpu, const pbc_uop *uop, uint32_t tag, uint32_t wait_fence)
{
    return pbc_gpu_push_work_in(gpu, uop, tag, wait_fence, 0);
}

uint32_t pbc_gpu_push_work_in(pbc_gpu *gpu, const pbc_uop *uop, uint32_t tag, uint32_t wait_fence, uint64_t root)
{
    pbc_qentry e = {.kind = PBC_QE_WORK, .uop = *uop, .tag = tag, .wait = wait_fence, .root = root};
    return gpu_push(gpu, &e);
}

int pbc_gpu_exec_uop_in(pbc_gpu *gpu, const pbc_uop *uop, uint64_t root)
{
    if (!root)
        return pbc_gpu_exec_uop(gpu, uop);
    uint64_t was = gpu->va_root;
    gpu->va_root = root;
    int rc = pbc_gpu_exec_uop(gpu, uop);
    gpu->va_root = was;
    return rc;
}

uint32_t pbc_gpu_push_cpu(pbc_gpu *gpu, void (*fn)(void *arg), void *arg, uint32_t tag)
{
    pbc_qentry e = {.kind = PBC_QE_CPU, .cpu_fn = fn, .cpu_arg = arg, .tag = tag};
    return gpu_push(gpu, &e);
}

/* Copies the submitted range out of modeled memory, as the GPU's command
 * fetcher would: system buffers from the paging-buffer pool, segment
 * buffers through the segment. */
static const uint8_t *gpu_fetch(pbc_gpu *gpu, const pbc_qentry *e)
{
    if (e->end < e->start) {
        pbc_gpu_fault(gpu, PBC_FAULT_FETCH, e->phys, "submission ends before it starts");
        return NULL;
    }
    uint64_t len = e->end - e->start;
    uint64_t at = e->phys + e->start;
    if (e->segment_id == 0) {
        if (at < gpu->pool_base || at - gpu->pool_base > PBC_DMA_POOL_SIZE ||
            len > PBC_DMA_POOL_SIZE - (at - gpu->pool_base)) {
            pbc_gpu_fault(gpu, PBC_FAULT_FETCH, at, "submitted range outside the paging-buffer pool");
            return NULL;
        }
        return gpu->dma_pool + (at - gpu->pool_base);
    }
    pbc_grow((void **)&gpu->fetch, &gpu->fetch_cap, (uint32_t)len, 1);
    if (pbc_gpu_read(gpu, at, gpu->fetch, len))
        return NULL;
    return gpu->fetch;
}

/* Whether the packet just decoded from pool bytes [at, at + plen) (as uop)
 * decodes the same with the bytes GPU writes changed before it was
 * fetched put back as they were: a write that changed nothing the GPU
 * runs (a NOP's ignored payload, say) broke nothing. Forgets the writes
 * that lie wholly within the packets decoded so far. */
static int gpu_ahead_same(pbc_gpu *gpu, uint64_t at, size_t plen, const pbc_uop *uop)
{
    pbc_grow((void **)&gpu->fetch, &gpu->fetch_cap, (uint32_t)plen, 1); /* free: the entry is the pool's */
    uint8_t *was = gpu->fetch;
    int touched = 0, same = 1;
    memcpy(was, gpu->dma_pool + at, plen);
    for (uint32_t k = gpu->ahead_count; k-- > 0;) { /* the newest first: the oldest bytes win */
        const pbc_pool_ahead *w = &gpu->ahead[k];
        uint64_t lo = w->offset > at ? w->offset : at, hi = w->offset + w->len < at + plen ? w->offset + w->len : at + plen;
        if (lo >= hi)
            continue;
        memcpy(was + (lo - at), w->was + (lo - w->offset), hi - lo);
        touched = 1;
    }
    if (touched) {
        pbc_uop then;
        memset(&then, 0, sizeof(then));
        size_t then_len = 0;
        const char *why = NULL;
        same = gpu->isa->decode(was, plen, &then, &then_len, &why) == PBC_DECODE_OK && then_len == plen &&
               memcmp(&then, uop, sizeof(then)) == 0;
    }
    uint32_t n = 0;
    for (uint32_t k = 0; k < gpu->ahead_count; k++)
        if (gpu->ahead[k].offset + gpu->ahead[k].len > at + plen)
            gpu->ahead[n++] = gpu->ahead[k];
    gpu->ahead_count = n;
    return same;
}

static void gpu_exec_dma(pbc_gpu *gpu, const pbc_qentry *e)
{
    gpu->ahead_count = 0;
    const uint8_t *bytes = gpu_fetch(gpu, e);
    if (!bytes)
        return;
    size_t len = e->end - e->start;
    if (gpu->on_fetch)
        gpu->on_fetch(gpu->observer_ctx, e, bytes, len);
    for (size_t off = 0; off < len;) {
        pbc_uop uop;
        memset(&uop, 0, sizeof(uop)); /* fields a decoder leaves alone hash the same every run */
        size_t plen = 0;
        const char *why = "decoder failed";
        gpu->cur.packet_offset = (uint32_t)(e->start + off);
        if (gpu->isa->decode(bytes + off, len - off, &uop, &plen, &why) != PBC_DECODE_OK) {
            uint64_t at = (uint64_t)(bytes + off - gpu->dma_pool);
            int written = 0; /* by a GPU write since it was fetched: the write is the cause */
            for (uint32_t k = 0; e->segment_id == 0 && k < gpu->ahead_count; k++)
                written |= gpu->ahead[k].offset < at + PBC_POOL_AHEAD_BYTES && gpu->ahead[k].offset + gpu->ahead[k].len > at;
            if (written)
                pbc_gpu_fault(gpu, PBC_FAULT_BAD_ADDRESS, e->phys + e->start + off,
                              "GPU write into bytes of its paging buffer still to be fetched: the packet there "
                              "no longer decodes");
            else
                pbc_gpu_fault(gpu, PBC_FAULT_DECODE, e->phys + e->start + off, why);
            return;
        }
        if (plen == 0 || plen > len - off) {
            pbc_gpu_fault(gpu, PBC_FAULT_DECODE, e->phys + e->start + off,
                          "decoder returned an impossible packet length");
            return;
        }
        gpu->packet_next = (uint32_t)(e->start + off + plen);
        if (gpu->ahead_count && e->segment_id == 0 &&
            !gpu_ahead_same(gpu, (uint64_t)(bytes + off - gpu->dma_pool), plen, &uop)) {
            pbc_gpu_fault(gpu, PBC_FAULT_BAD_ADDRESS, e->phys + e->start + off,
                          "GPU write into bytes of its paging buffer still to be fetched: the packet there "
                          "decodes otherwise than the builder wrote it");
            return;
        }
        if (gpu->on_packet)
            gpu->on_packet(gpu->packet_ctx, e, gpu->cur.packet_offset, &uop);
        gpu->exec_hash = XXH3_64bits_withSeed(&uop, sizeof(uop), gpu->exec_hash);
        if (pbc_gpu_exec_uop(gpu, &uop))
            return;
        gpu->cur.packet_index++;
        off += plen;
        if (gpu->value_addr)
            pbc_gpu_value_poll(gpu, gpu->running, (uint32_t)(e->start + off));
    }
}

void pbc_gpu_value_poll(pbc_gpu *gpu, uint32_t seq, uint32_t next_offset)
{
    uint64_t now = 0;
    pbc_mem_read(&gpu->mem, gpu->value_addr, &now, sizeof(now));
    if (now == gpu->value_last)
        return;
    gpu->value_last = now;
    if (gpu->on_value)
        gpu->on_value(gpu->observer_ctx, now, seq, next_offset);
}

static void gpu_advance(pbc_gpu *gpu, pbc_engine engine)
{
    uint32_t h = gpu->head[engine];
    while (h < gpu->queued && (gpu->queue[h].done || gpu_engine(&gpu->queue[h]) != engine))
        h++;
    gpu->head[engine] = h;
}

static int gpu_runnable(pbc_gpu *gpu, uint32_t seq)
{
    const pbc_qentry *e = &gpu->queue[seq];
    if (gpu_engine(e) == PBC_ENGINE_RENDER)
        return e->wait <= gpu->fence_done;
    gpu_advance(gpu, PBC_ENGINE_RENDER);
    return gpu->head[PBC_ENGINE_RENDER] >= e->wait;
}

/* Executes entry seq, the head of its engine. */
static void gpu_step(pbc_gpu *gpu, uint32_t seq)
{
    pbc_qentry *e = &gpu->queue[seq];
    gpu->running = seq;
    gpu->cur = (pbc_prov){.submission = seq + 1};
    switch (e->kind) {
    case PBC_QE_DMA:
        gpu->cur.writer = PBC_WRITER_PAGING;
        gpu_exec_dma(gpu, e);
        break;
    case PBC_QE_FENCE:
        gpu_fence(gpu, e->fence);
        break;
    case PBC_QE_CPU:
        gpu->cur.writer = PBC_WRITER_CPU;
        e->cpu_fn(e->cpu_arg);
        if (gpu->value_addr)
            pbc_gpu_value_poll(gpu, seq, UINT32_MAX);
        break;
    default:
        gpu->cur.writer = PBC_WRITER_RENDER;
        pbc_gpu_exec_uop_in(gpu, &e->uop, e->root);
        break;
    }
    e = &gpu->queue[seq]; /* CPU work may have pushed entries */
    e->work_end = gpu->work_uops;
    e->done = 1;
    memset(&gpu->cur, 0, sizeof(gpu->cur));
    pbc_engine engine = gpu_engine(e);
    gpu_advance(gpu, engine);
    gpu->executed = gpu->head[0] < gpu->head[1] ? gpu->head[0] : gpu->head[1];
}

/* While draining: render work at the head of its engine that waited for
 * a fence runs as soon as the fence has completed, before the paging
 * work queued after the fence. */
static void gpu_wake(pbc_gpu *gpu)
{
    for (;;) {
        gpu_advance(gpu, PBC_ENGINE_RENDER);
        uint32_t h = gpu->head[PBC_ENGINE_RENDER];
        if (h >= gpu->queued || gpu->queue[h].wait == 0 || gpu->queue[h].wait > gpu->fence_done)
            return;
        gpu_step(gpu, h);
    }
}

int pbc_gpu_engine_done(pbc_gpu *gpu, pbc_engine engine, uint32_t until)
{
    gpu_advance(gpu, engine);
    return gpu->head[engine] >= until || gpu->head[engine] >= gpu->queued;
}

void pbc_gpu_run_engine(pbc_gpu *gpu, pbc_engine engine, uint32_t until)
{
    while (!pbc_gpu_engine_done(gpu, engine, until)) {
        uint32_t h = gpu->head[engine];
        if (gpu_runnable(gpu, h)) {
            gpu_step(gpu, h);
            continue;
        }
        if (engine == PBC_ENGINE_PAGING) {
            /* Always progresses: a render entry stuck on a fence is run
             * anyway below when nothing can write it. */
            pbc_gpu_run_engine(gpu, PBC_ENGINE_RENDER, gpu->queue[h].wait);
            continue;
        }
        /* A render entry waiting for its fence: the paging engine goes on,
         * unless it waits for this very entry (the fence never came). */
        gpu_advance(gpu, PBC_ENGINE_PAGING);
        uint32_t p = gpu->head[PBC_ENGINE_PAGING];
        if (p < gpu->queued && gpu_runnable(gpu, p))
            gpu_step(gpu, p);
        else
            gpu_step(gpu, h);
    }
}

void pbc_gpu_run(pbc_gpu *gpu, uint32_t upto)
{
    pbc_gpu_run_engine(gpu, PBC_ENGINE_PAGING, upto);
    pbc_gpu_run_engine(gpu, PBC_ENGINE_RENDER, upto);
}

void pbc_gpu_drain(pbc_gpu *gpu)
{
    for (;;) {
        gpu_wake(gpu);
        gpu_advance(gpu, PBC_ENGINE_PAGING);
        uint32_t p = gpu->head[PBC_ENGINE_PAGING];
        if (p >= gpu->queued)
            break;
        pbc_gpu_run_engine(gpu, PBC_ENGINE_PAGING, p + 1);
    }
    pbc_gpu_run_engine(gpu, PBC_ENGINE_RENDER, gpu->queued);
}
