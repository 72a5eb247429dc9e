/* The GPU model: scattered system pages and runs of them, sparse
 * segments, GART translation and faults, the queue, reset. */
#include <stdio.h>
#include <unistd.h>

#include "gpu/gpu.h"
#include "oracle/state.h"
#include "ref_isa.h"
#include "t.h"

static pbc_gpu *make(uint64_t seg2_size)
{
    pbc_segment_info segs[] = {{1, PBC_SEGMENT_MEMORY, 0, 64u << 20},
                               {2, PBC_SEGMENT_MEMORY, 0x1000000000ull, seg2_size},
                               {3, PBC_SEGMENT_APERTURE, 0x800000000ull, 16u << 20}};
    const char *why = NULL;
    pbc_gpu *g = pbc_gpu_create(segs, 3, &ref_isa, &why);
    T_CHECK_MSG(g != NULL, "%s", why ? why : "");
    return g;
}

T_TEST(system_pages_scattered_above_4g)
{
    pbc_gpu *g = make(16u << 20);
    uint32_t above = 0, contiguous = 0;
    uint64_t prev = 0;
    uint64_t seen[512];
    for (int i = 0; i < 512; i++) {
        uint64_t p = pbc_gpu_alloc_system_page(g);
        T_CHECK(p % 4096 == 0 && p >= PBC_SYS_WINDOW_BASE && p < PBC_SYS_WINDOW_END);
        above += p >= (1ull << 32);
        contiguous += p == prev + 4096;
        prev = p;
        for (int j = 0; j < i; j++)
            T_CHECK(seen[j] != p);
        seen[i] = p;
    }
    T_CHECK(above > 100 && above < 512); /* some above 4 GiB, some below */
    T_CHECK(contiguous < 5);
    pbc_gpu_destroy(g);
}

/* Segments anywhere in [2 GiB, 16 GiB) are the driver's choice: the
 * system window and the paging-buffer pool move past them, by whole
 * 16 GiB, and the GPU reaches segments, system pages and pool alike. */
T_TEST(system_window_moves_past_segments)
{
    pbc_segment_info segs[] = {{1, PBC_SEGMENT_MEMORY, 0, 256u << 20},
                               {2, PBC_SEGMENT_APERTURE, 0xC0000000ull, 256u << 20},
                               {3, PBC_SEGMENT_MEMORY, 0x480000000ull, 1u << 30}};
    T_CHECK(pbc_gpu_layout_shift(segs, 2) == PBC_RESERVED_STEP);
    T_CHECK(pbc_gpu_layout_shift(segs, 3) == 2 * PBC_RESERVED_STEP); /* 18 GiB is taken too */
    const char *why = NULL;
    pbc_gpu *g = pbc_gpu_create(segs, 3, &ref_isa, &why);
    T_CHECK_MSG(g != NULL, "%s", why ? why : "");
    uint64_t lo = PBC_SYS_WINDOW_BASE + 2 * PBC_RESERVED_STEP, hi = PBC_SYS_WINDOW_END + 2 * PBC_RESERVED_STEP;
    for (int i = 0; i < 64; i++) {
        uint64_t p = pbc_gpu_alloc_system_page(g);
        T_CHECK(p >= lo && p < hi);
        uint32_t v = 0x1234u + (uint32_t)i, back = 0;
        T_CHECK(pbc_gpu_write(g, p + 8, &v, 4) == 0 && pbc_gpu_read(g, p + 8, &back, 4) == 0 && back == v);
    }
    uint32_t v = 0xABCD;
    T_CHECK(pbc_gpu_write(g, 0x480000000ull + 0x1000, &v, 4) == 0); /* a segment where pages would have been */
    uint8_t *host;
    uint64_t phys;
    T_CHECK(pbc_gpu_dma_alloc(g, 4096, &host, &phys) == 0);
    T_CHECK(phys >= PBC_DMA_POOL_BASE + 2 * PBC_RESERVED_STEP && pbc_gpu_pool_offset(g, phys) >= 0);
    T_CHECK(g->fault_count == 0);
    /* Back to a layout clear of the window: pages where they always were. */
    T_CHECK(pbc_gpu_relayout(g, segs, 1) == NULL);
    uint64_t p = pbc_gpu_alloc_system_page(g);
    T_CHECK(p >= PBC_SYS_WINDOW_BASE && p < PBC_SYS_WINDOW_END);
    pbc_gpu_destroy(g);
}

/* The frame the scattered order gives page `index` of the pool. */
static uint64_t scattered_frame(uint32_t index)
{
    return PBC_SYS_BASE_PFN + (((uint64_t)index * 0x9E3779B1u) & (PBC_SYS_WINDOW_PAGES - 1));
}

/* Runs of frames in a row come out of the same window as scattered pages
 * and never meet them: the scattered order skips frames a run holds, a
 * run takes only frames nobody holds, a crowded place makes the search go
 * on or settle for the free frames there, and reset frees them all. */
T_TEST(system_runs_never_collide)
{
    pbc_gpu *g = make(16u << 20);
    for (int i = 0; i < 10; i++)
        pbc_gpu_alloc_system_page(g); /* the dummy page is index 0: these are 1..10 */
    /* A run over the frame that scattered page 20 would get. */
    static uint64_t run[PBC_SYS_WINDOW_PAGES];
    uint64_t f20 = scattered_frame(20), seen[64];
    int n = 0;
    T_CHECK(pbc_gpu_system_free(g, f20 - 3, 8));
    T_CHECK(pbc_gpu_alloc_system_run(g, f20 - 3, 8, run) == 8);
    for (uint64_t k = 0; k < 8; k++) {
        T_CHECK(run[k] == f20 - 3 + k);
        seen[n++] = run[k];
    }
    T_CHECK(!pbc_gpu_system_free(g, f20, 1) && !pbc_gpu_system_free(g, f20 - 4, 2) && pbc_gpu_system_free(g, f20 - 4, 1));
    /* Scattered pages 11..30 skip it. */
    for (int i = 0; i < 20; i++) {
        uint64_t f = pbc_gpu_alloc_system_page(g) >> PBC_PAGE_SHIFT;
        T_CHECK(f != f20 && f == scattered_frame(i < 9 ? 11 + (uint32_t)i : 12 + (uint32_t)i));
        seen[n++] = f;
    }
    /* Asked for next to the run: the search goes on past it. */
    T_CHECK(pbc_gpu_alloc_system_run(g, f20 - 6, 12, run) == 12 && run[0] >= f20 + 5);
    for (uint64_t k = 0; k < 12; k++) {
        T_CHECK(run[k] == run[0] + k);
        seen[n++] = run[k];
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            T_CHECK_MSG(seen[i] != seen[j], "frame 0x%llx handed out twice", (unsigned long long)seen[i]);
    /* Half the window never fits in a row among the scattered pages: the
     * free frames from there on, in runs, around what is held. */
    uint64_t half = PBC_SYS_WINDOW_PAGES / 2, runs = 1, skipped_held = 1;
    T_CHECK(pbc_gpu_alloc_system_run(g, f20 - 3, half, run) == half);
    T_CHECK(run[0] == f20 + 17); /* after both runs */
    for (uint64_t k = 1; k < half; k++) {
        runs += run[k] != run[k - 1] + 1;
        for (uint64_t f = run[k - 1] + 1; f < run[k] && skipped_held; f++)
            skipped_held = !pbc_gpu_system_free(g, f, 1);
    }
    T_CHECK(runs > 1 && runs < 64 && skipped_held);
    T_CHECK(!pbc_gpu_system_free(g, run[0], 1));
    /* The GPU sees run frames as memory; reset frees them all. */
    uint32_t v = 0x600DF00D, r = 0;
    T_CHECK(pbc_gpu_write(g, (f20 << PBC_PAGE_SHIFT) + 8, &v, 4) == 0 &&
            pbc_gpu_read(g, (f20 << PBC_PAGE_SHIFT) + 8, &r, 4) == 0 && r == v);
    pbc_gpu_reset(g);
    T_CHECK(pbc_gpu_system_free(g, f20 - 3, 8) && pbc_gpu_system_free(g, run[half - 1], 1) &&
            pbc_gpu_write(g, f20 << PBC_PAGE_SHIFT, &v, 4) == -1);
    for (uint32_t i = 1; i <= 20; i++)
        T_CHECK(pbc_gpu_alloc_system_page(g) >> PBC_PAGE_SHIFT == scattered_frame(i));
    pbc_gpu_destroy(g);
}

T_TEST(bad_layouts_rejected)
{
    const char *why = NULL;
    pbc_segment_info overlap[] = {{1, PBC_SEGMENT_MEMORY, 0, 1u << 20}, {2, PBC_SEGMENT_MEMORY, 0x80000, 1u << 20}};
    T_CHECK(!pbc_gpu_create(overlap, 2, &ref_isa, &why) && strstr(why, "overlap"));
    pbc_segment_info wraps[] = {{1, PBC_SEGMENT_MEMORY, 0xFFFFFFFFFFF00000ull, 2u << 20}};
    T_CHECK(!pbc_gpu_create(wraps, 1, &ref_isa, &why) && strstr(why, "wraps"));
    pbc_segment_info unaligned[] = {{1, PBC_SEGMENT_MEMORY, 0x10, 1u << 20}};
    T_CHECK(!pbc_gpu_create(unaligned, 1, &ref_isa, &why));
}

T_TEST(gart_translation_and_faults)
{
    pbc_gpu *g = make(16u << 20);
    uint64_t page = pbc_gpu_alloc_system_page(g);
    uint32_t v = 0xCAFEF00D, r = 0;
    T_CHECK(pbc_gpu_write(g, 0x800000000ull + 5 * 4096, &v, 4) == -1); /* unmapped entry */
    T_CHECK(g->fault_count == 1 && g->faults[0].kind == PBC_FAULT_GART_UNMAPPED);
    pbc_uop map = {.kind = PBC_UOP_GART_WRITE, .segment = 3, .index = 5, .flags = PBC_GART_VALID, .value = page};
    T_CHECK(pbc_gpu_exec_uop(g, &map) == 0);
    T_CHECK(pbc_gpu_write(g, 0x800000000ull + 5 * 4096 + 8, &v, 4) == 0);
    T_CHECK(pbc_gpu_read(g, page + 8, &r, 4) == 0 && r == 0xCAFEF00D); /* landed in the system page */
    map.value = g->dummy_page;
    pbc_gpu_exec_uop(g, &map);
    pbc_gpu_read(g, 0x800000000ull + 5 * 4096, &r, 4);
    T_CHECK(g->dummy_accesses == 1);
    map.segment = 1; /* not an aperture */
    T_CHECK(pbc_gpu_exec_uop(g, &map) == -1 && g->faults[g->fault_count - 1].kind == PBC_FAULT_UOP);
    T_CHECK(pbc_gpu_write(g, 0x7000000000ull, &v, 4) == -1); /* nothing there */
    /* A system frame is memory only once it has been handed out: the next
     * frame the pool will give (index sys_pages_used, scattered by the
     * documented multiplier) faults before and works after. */
    uint64_t next = (PBC_SYS_BASE_PFN + (((uint64_t)g->sys_pages_used * 0x9E3779B1u) & (PBC_SYS_WINDOW_PAGES - 1)))
                    << PBC_PAGE_SHIFT;
    T_CHECK(pbc_gpu_write(g, next + 16, &v, 4) == -1 &&
            g->faults[g->fault_count - 1].kind == PBC_FAULT_BAD_ADDRESS);
    T_CHECK(pbc_gpu_alloc_system_page(g) == next);
    T_CHECK(pbc_gpu_write(g, next + 16, &v, 4) == 0);
    pbc_gpu_destroy(g);
}

/* Registers written through a CPU mapping (no counter sees those) are
 * zero again after a reset: no state leaks from one run into the next. */
T_TEST(registers_reset_however_written)
{
    pbc_gpu *g = make(16u << 20);
    volatile uint32_t *regs = g->mmio; /* what MmMapIoSpace hands a builder */
    regs[3] = 0x1234;
    T_CHECK(g->mmio_writes == 0 && g->mmio[3] == 0x1234);
    pbc_gpu_reset(g);
    T_CHECK(g->mmio[3] == 0);
    pbc_gpu_destroy(g);
}

T_TEST(queue_runs_in_order_with_fences)
{
    pbc_gpu *g = make(16u << 20);
    uint8_t *host;
    uint64_t phys;
    T_CHECK(pbc_gpu_dma_alloc(g, 4096, &host, &phys) == 0 && phys % 4096 == 0);
    size_t n = ref_encode_fill(host, 0x1000, 8, 0x01020304);
    n += ref_encode_copy(host + n, 0x2000, 0x1000, 8);
    pbc_uop w = {.kind = PBC_UOP_FILL, .dst = 0x1000, .size = 8, .value = 0xFFFFFFFF};
    pbc_gpu_push_work(g, &w, 0, 0);
    pbc_gpu_push_dma(g, 0, phys, 0, (UINT)n, 0);
    pbc_gpu_push_fence(g, 1, 0);
    T_CHECK(g->executed == 0); /* nothing runs until asked */
    pbc_gpu_drain(g);
    uint32_t r = 0;
    pbc_gpu_read(g, 0x2000, &r, 4);
    T_CHECK(r == 0x01020304);
    T_CHECK(g->fence_count == 1 && g->fences[0] == 1 && g->fault_count == 0);
    const pbc_page *pg = pbc_mem_find(&g->mem, 2);
    T_CHECK(pg && pg->prov.writer == PBC_WRITER_PAGING && pg->prov.packet_offset == 20 && pg->prov.submission == 2);
    pbc_gpu_reset(g);
    T_CHECK(g->mem.count == 0 && g->fence_count == 0 && g->queued == 0);
    pbc_gpu_read(g, 0x2000, &r, 4);
    T_CHECK(r == 0);
    pbc_gpu_destroy(g);
}

static uint32_t read32(pbc_gpu *g, uint64_t addr)
{
    uint32_t r = 0;
    pbc_gpu_read(g, addr, &r, 4);
    return r;
}

/* Paging and render engines: each in order, ordered between them only by
 * their waits. A paging entry waits for the render work before its
 * `wait` (all of it by default, none with paging_wait 0); render work
 * nobody waits for stays queued while paging work runs. */
T_TEST(engines_order_only_by_waits)
{
    for (int waits = 0; waits < 2; waits++) {
        pbc_gpu *g = make(16u << 20);
        uint8_t *host;
        uint64_t phys;
        T_CHECK(pbc_gpu_dma_alloc(g, 4096, &host, &phys) == 0);
        size_t n = ref_encode_copy(host, 0x2000, 0x1000, 4);
        pbc_uop w = {.kind = PBC_UOP_FILL, .dst = 0x1000, .size = 4, .value = 0xAAAAAAAA};
        uint32_t r0 = pbc_gpu_push_work(g, &w, 0, 0);
        if (!waits)
            g->paging_wait = 0;
        uint32_t d = pbc_gpu_push_dma(g, 0, phys, 0, (UINT)n, 0);
        g->paging_wait = UINT32_MAX;
        pbc_gpu_run_engine(g, PBC_ENGINE_PAGING, d + 1);
        T_CHECK(g->queue[d].done);
        T_CHECK_MSG(g->queue[r0].done == (uint32_t)waits, "render work ran %s", waits ? "late" : "early");
        T_CHECK(read32(g, 0x2000) == (waits ? 0xAAAAAAAAu : 0));
        T_CHECK(pbc_gpu_engine_done(g, PBC_ENGINE_RENDER, r0 + 1) == waits);
        pbc_gpu_drain(g);
        T_CHECK(g->queue[r0].done && g->executed == g->queued && read32(g, 0x1000) == 0xAAAAAAAAu);
        pbc_gpu_destroy(g);
    }
}

/* Render work that waits for a fence runs the moment the fence completes,
 * before paging work queued after the fence: a fence written before the
 * work it stands for lets render work see memory the work has not
 * written. A fence that never comes holds render work back only until the
 * paging engine has nothing left. */
T_TEST(engines_render_woken_by_its_fence)
{
    pbc_gpu *g = make(16u << 20);
    uint8_t *host;
    uint64_t phys;
    T_CHECK(pbc_gpu_dma_alloc(g, 4096, &host, &phys) == 0);
    size_t n = ref_encode_fill(host, 0x3000, 4, 0x11111111);
    uint32_t f = pbc_gpu_push_fence(g, 1, 0); /* early: before the work */
    uint32_t d = pbc_gpu_push_dma(g, 0, phys, 0, (UINT)n, 0);
    pbc_uop w = {.kind = PBC_UOP_FILL, .dst = 0x3000, .size = 4, .value = 0x22222222};
    uint32_t r = pbc_gpu_push_work(g, &w, 0, 1);
    pbc_uop late = {.kind = PBC_UOP_FILL, .dst = 0x4000, .size = 4, .value = 0x33333333};
    uint32_t never = pbc_gpu_push_work(g, &late, 0, 7);
    /* A wait for paging work leaves render work queued, woken or not: the
     * allocation it uses stays busy as long as possible. */
    pbc_gpu_run_engine(g, PBC_ENGINE_PAGING, f + 1);
    T_CHECK(g->queue[f].done && !g->queue[r].done && !g->queue[d].done && g->fence_done == 1);
    /* Draining, it runs the moment its fence has completed. */
    pbc_gpu_drain(g);
    T_CHECK(read32(g, 0x3000) == 0x11111111u); /* the paging work landed after the render work */
    T_CHECK(g->queue[never].done && read32(g, 0x4000) == 0x33333333u && g->executed == g->queued);
    pbc_gpu_destroy(g);
}

static long rss_kib(void)
{
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f || fscanf(f, "%ld %ld", &pages, &resident) != 2)
        resident = -1;
    if (f)
        fclose(f);
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* A copy or fill packet may be as large as its size field states: a copy
 * engine moves a gigabyte in one command as readily as a page, and nothing
 * in the DDI ties packets to pages (variant-big-packets moves up to 1 GiB
 * per packet). The harness's own work of that size runs the same way. */
T_TEST(packet_size_is_the_builders_choice)
{
    pbc_gpu *g = make(256u << 20);
    uint8_t *host;
    uint64_t phys;
    T_CHECK(pbc_gpu_dma_alloc(g, 4096, &host, &phys) == 0);
    size_t n = ref_encode_fill(host, 0x1000000000ull, (128u << 20) + 4, 0x01020304);
    pbc_gpu_push_dma(g, 0, phys, 0, (UINT)n, 0);
    pbc_gpu_drain(g);
    T_CHECK(g->fault_count == 0);
    uint32_t r = 0;
    T_CHECK(pbc_gpu_read(g, 0x1000000000ull + (128u << 20), &r, 4) == 0 && r == 0x01020304);
    pbc_uop big = {.kind = PBC_UOP_FILL, .dst = 0x1000000000ull, .size = (64u << 20) + 4, .value = 0x05060708};
    T_CHECK(pbc_gpu_exec_uop(g, &big) == 0 && g->fault_count == 0);
    T_CHECK(pbc_gpu_read(g, 0x1000000000ull + (64u << 20), &r, 4) == 0 && r == 0x05060708);
    pbc_gpu_destroy(g);
}

/* A 4 GiB segment costs only what a scenario touches. */
T_TEST(four_gib_segment_is_sparse)
{
    long before = rss_kib();
    pbc_gpu *g = make(4ull << 30);
    static uint8_t chunk[4096];
    memset(chunk, 0x5A, sizeof(chunk));
    for (uint64_t i = 0; i < 256; i++) /* 1 MiB, spread over the whole segment */
        T_CHECK(pbc_gpu_write(g, 0x1000000000ull + i * (16ull << 20), chunk, sizeof(chunk)) == 0);
    long after = rss_kib();
    T_CHECK(g->mem.count == 256);
    T_CHECK_MSG(before >= 0 && after - before < 64 * 1024, "grew by %ld KiB", after - before);
    pbc_gpu_destroy(g);
}

/* What the page at addr holds as a description (BYTES when it has bytes,
 * ZERO when never written). */
static pbc_desc desc_at(const pbc_gpu *g, uint64_t addr)
{
    const pbc_page *pg = pbc_mem_find(&g->mem, addr >> PBC_PAGE_SHIFT);
    return pg ? pg->desc : (pbc_desc){PBC_PAGE_ZERO, 0, 0};
}

/* The bytes of initial content with `seed`, stream bytes [pos, pos+n). */
static void content_bytes(uint32_t seed, uint64_t pos, uint8_t *out, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        out[i] = (uint8_t)(pbc_content_word(seed, (pos + i) / 4) >> (8 * ((pos + i) % 4)));
}

T_TEST(described_content_reads_as_its_bytes)
{
    pbc_gpu *g = make(16u << 20);
    static uint8_t want[5 * 4096], got[5 * 4096];
    pbc_desc d = {PBC_PAGE_CONTENT, 7, 4 * 1000};
    /* Unaligned both ends: two pages of two streams (zeros and content),
     * three of one. */
    T_CHECK(pbc_gpu_write_desc(g, 0x10000 + 6, 4 * 4096, &d) == 0);
    const pbc_page *lo = pbc_mem_find(&g->mem, 0x10), *hi = pbc_mem_find(&g->mem, 0x14);
    T_CHECK(lo->split == 6 && lo->desc.kind == PBC_PAGE_ZERO && lo->tail.kind == PBC_PAGE_CONTENT);
    T_CHECK(hi->split == 6 && hi->desc.kind == PBC_PAGE_CONTENT && hi->tail.kind == PBC_PAGE_ZERO);
    T_CHECK(desc_at(g, 0x11000).kind == PBC_PAGE_CONTENT && desc_at(g, 0x13000).kind == PBC_PAGE_CONTENT);
    content_bytes(7, 4000, want + 6, 4 * 4096);
    memset(want, 0, 6);
    memset(want + 6 + 4 * 4096, 0, sizeof(want) - 6 - 4 * 4096);
    T_CHECK(pbc_gpu_read(g, 0x10000, got, sizeof(got)) == 0);
    T_CHECK(memcmp(got, want, sizeof(want)) == 0);
    /* Odd offsets inside a described page read right too. */
    T_CHECK(pbc_gpu_read(g, 0x11003, got, 9) == 0 && memcmp(got, want + 0x1003, 9) == 0);
    /* A fill is a description as well, its phase kept. */
    pbc_uop fill = {.kind = PBC_UOP_FILL, .dst = 0x20002, .size = 3 * 4096, .value = 0x11223344};
    T_CHECK(pbc_gpu_exec_uop(g, &fill) == 0);
    T_CHECK(desc_at(g, 0x21000).kind == PBC_PAGE_PATTERN);
    T_CHECK(pbc_gpu_read(g, 0x21000, got, 4) == 0 && got[0] == 0x22 && got[1] == 0x11 && got[2] == 0x44);
    pbc_gpu_destroy(g);
}

T_TEST(copies_carry_descriptions_and_bytes_alike)
{
    pbc_gpu *g = make(16u << 20);
    static uint8_t a[8 * 4096], b[8 * 4096];
    pbc_desc d = {PBC_PAGE_CONTENT, 9, 0};
    T_CHECK(pbc_gpu_write_desc(g, 0x100000, 8 * 4096, &d) == 0);
    /* Aligned, and shifted by a dword and by a byte: every whole destination
     * page fed by one stream stays described. */
    static const uint64_t shifts[] = {0, 4, 1};
    for (int k = 0; k < 3; k++) {
        uint64_t dst = 0x200000 + (uint64_t)k * 0x10000;
        pbc_uop copy = {.kind = PBC_UOP_COPY, .dst = dst, .src = 0x100000 + shifts[k], .size = 6 * 4096};
        T_CHECK(pbc_gpu_exec_uop(g, &copy) == 0);
        T_CHECK_MSG(desc_at(g, dst + 4096).kind == PBC_PAGE_CONTENT, "shift %llu", (unsigned long long)shifts[k]);
        T_CHECK(pbc_gpu_read(g, 0x100000 + shifts[k], a, 6 * 4096) == 0 && pbc_gpu_read(g, dst, b, 6 * 4096) == 0);
        T_CHECK_MSG(memcmp(a, b, 6 * 4096) == 0, "shift %llu", (unsigned long long)shifts[k]);
    }
    /* A destination that is not page-aligned, filled a source page per
     * copy as builders do: each page is two streams after the first copy
     * and one again after the second. */
    for (uint64_t p = 0; p < 4; p++) {
        pbc_uop copy = {.kind = PBC_UOP_COPY, .dst = 0x400000 + 0xd34 + p * 4096, .src = 0x100000 + p * 4096,
                        .size = 4096};
        T_CHECK(pbc_gpu_exec_uop(g, &copy) == 0);
    }
    for (uint64_t p = 1; p < 4; p++) {
        const pbc_page *pg = pbc_mem_find(&g->mem, 0x400 + p);
        T_CHECK_MSG(pbc_page_single(pg) && pg->desc.kind == PBC_PAGE_CONTENT, "page %llu", (unsigned long long)p);
    }
    T_CHECK(pbc_mem_find(&g->mem, 0x404)->split == 0xd34);
    T_CHECK(pbc_gpu_read(g, 0x100000, a, 4 * 4096) == 0 && pbc_gpu_read(g, 0x400000 + 0xd34, b, 4 * 4096) == 0);
    T_CHECK(memcmp(a, b, 4 * 4096) == 0);
    /* A source page that holds bytes is copied as bytes. */
    uint32_t v = 0xDEADBEEF;
    T_CHECK(pbc_gpu_write(g, 0x100000 + 100, &v, 4) == 0);
    T_CHECK(desc_at(g, 0x100000).kind == PBC_PAGE_BYTES);
    pbc_uop copy = {.kind = PBC_UOP_COPY, .dst = 0x300000, .src = 0x100000, .size = 4096};
    T_CHECK(pbc_gpu_exec_uop(g, &copy) == 0);
    T_CHECK(desc_at(g, 0x300000).kind == PBC_PAGE_BYTES);
    T_CHECK(pbc_gpu_read(g, 0x300000 + 100, &v, 4) == 0 && v == 0xDEADBEEF);
    pbc_gpu_destroy(g);
}

/* A page filled by copying a block of a pattern again and again (a
 * driver's fill by inline data, from its paging buffer) is held as the
 * pattern, whatever the destination's phase, pieces across page lines
 * too; the bytes read back as copied. */
T_TEST(copies_of_a_pattern_block_stay_described)
{
    pbc_gpu *g = make(16u << 20);
    uint8_t block[256], got[4096];
    for (uint32_t i = 0; i < sizeof(block); i++)
        block[i] = (uint8_t)(0xA1 + (i + 3) % 4); /* a pattern, its phase 3 bytes in */
    uint8_t *pool;
    uint64_t pool_phys;
    T_CHECK(pbc_gpu_dma_alloc(g, 8192, &pool, &pool_phys) == 0);
    for (uint64_t at = 0; at < 2; at++) {
        /* out of the paging buffer, to a page line and to an odd byte */
        uint64_t src = pool_phys + 4 + at * 1024, dst = 0x200000 + at * 0x10000 + at;
        memcpy(pool + 4 + at * 1024, block, sizeof(block));
        for (uint64_t off = 0; off < 4096 * 2; off += sizeof(block)) {
            pbc_uop copy = {.kind = PBC_UOP_COPY, .dst = dst + off, .src = src, .size = sizeof(block)};
            T_CHECK(pbc_gpu_exec_uop(g, &copy) == 0);
        }
        const pbc_page *pg = pbc_mem_find(&g->mem, (dst >> 12) + 1);
        T_CHECK_MSG(pg && pbc_page_single(pg) && pg->desc.kind == PBC_PAGE_PATTERN, "phase %llu",
                    (unsigned long long)at);
        T_CHECK(pbc_gpu_read(g, dst + 4096 - 2048, got, 4096) == 0);
        for (uint32_t i = 0; i < 4096; i++)
            T_CHECK_MSG(got[i] == block[i % 4], "byte %u", i);
    }
    pbc_gpu_destroy(g);
}

/* Two GPUs holding the same bytes, one as descriptions and one as bytes
 * cut up differently, have the same digest and no difference. */
T_TEST(digest_and_diff_see_bytes_not_how_they_are_held)
{
    pbc_gpu *x = make(16u << 20), *y = make(16u << 20);
    pbc_desc d = {PBC_PAGE_CONTENT, 3, 40};
    T_CHECK(pbc_gpu_write_desc(x, 0x40000, 5 * 4096, &d) == 0);
    static uint8_t bytes[5 * 4096];
    content_bytes(3, 40, bytes, sizeof(bytes));
    T_CHECK(pbc_gpu_write(y, 0x40000, bytes, 1000) == 0 && pbc_gpu_write(y, 0x40000 + 1000, bytes + 1000, sizeof(bytes) - 1000) == 0);
    pbc_digest dx, dy;
    pbc_state_digest(x, NULL, 0, &dx);
    pbc_state_digest(y, NULL, 0, &dy);
    T_CHECK(dx.total == dy.total);
    pbc_diff diff;
    T_CHECK(pbc_state_diff(x, y, NULL, 0, 1, &diff) == 0);
    /* Both described, a dword apart in the stream: different bytes. */
    pbc_gpu *z = make(16u << 20);
    pbc_desc shifted = {PBC_PAGE_CONTENT, 3, 44};
    T_CHECK(pbc_gpu_write_desc(z, 0x40000, 5 * 4096, &shifted) == 0);
    T_CHECK(pbc_state_diff(x, z, NULL, 0, 1, &diff) == 1 && diff.addr == 0x40000 && diff.differing_pages == 5);
    pbc_gpu_destroy(z);
    /* One byte apart: found at its address, in either direction. */
    uint8_t one = (uint8_t)(bytes[3 * 4096 + 17] ^ 1);
    T_CHECK(pbc_gpu_write(y, 0x40000 + 3 * 4096 + 17, &one, 1) == 0);
    pbc_state_digest(y, NULL, 0, &dy);
    T_CHECK(dx.total != dy.total);
    T_CHECK(pbc_state_diff(x, y, NULL, 0, 1, &diff) == 1 && diff.addr == 0x40000 + 3 * 4096 + 17);
    T_CHECK(pbc_state_diff(y, x, NULL, 0, 1, &diff) == 1 && diff.addr == 0x40000 + 3 * 4096 + 17);
    T_CHECK(diff.differing_pages == 1);
    /* Masked, it is no difference. */
    pbc_mask m = {.start = 0x40000 + 3 * 4096 + 16, .end = 0x40000 + 3 * 4096 + 20};
    T_CHECK(pbc_state_diff(x, y, &m, 1, 1, &diff) == 0);
    pbc_gpu_destroy(x);
    pbc_gpu_destroy(y);
}

/* Many masks (past the few the comparison scans as they are: sorted and
 * merged) hide exactly what few would: overlapping, adjacent and out of
 * order, in the diff and in the digest. */
T_TEST(many_masks_hide_what_few_would)
{
    pbc_gpu *x = make(16u << 20), *y = make(16u << 20);
    const uint64_t base = 0x40000;
    uint8_t one = 0x5A;
    for (uint64_t p = 0; p < 40; p++)
        T_CHECK(pbc_gpu_write(y, base + p * 4096 + 100, &one, 1) == 0);
    pbc_mask m[96];
    uint32_t n = 0;
    for (uint64_t k = 0; k < 40; k++) {
        uint64_t p = (k * 17) % 40; /* out of order */
        if (p == 37)
            continue;
        uint64_t at = base + p * 4096 + 100;
        if (p % 3 == 0) { /* two masks that meet */
            m[n++] = (pbc_mask){at - 8, at + 1, "a"};
            m[n++] = (pbc_mask){at + 1, at + 9, "b"};
        } else if (p % 3 == 1) { /* one inside another */
            m[n++] = (pbc_mask){at - 50, at + 50, "a"};
            m[n++] = (pbc_mask){at - 1, at + 2, "b"};
        } else { /* the whole page, in two halves */
            m[n++] = (pbc_mask){base + p * 4096 + 2048, base + (p + 1) * 4096, "a"};
            m[n++] = (pbc_mask){base + p * 4096, base + p * 4096 + 2048, "a"};
        }
    }
    m[n++] = (pbc_mask){base + 37 * 4096 - 16, base + 37 * 4096, "d"}; /* ends where page 37 starts */
    T_CHECK(n > 16);
    pbc_diff diff;
    T_CHECK(pbc_state_diff(x, y, m, n, 1, &diff) == 1 && diff.addr == base + 37 * 4096 + 100 &&
            diff.differing_pages == 1);
    pbc_digest dx, dy;
    pbc_state_digest(x, NULL, 0, &dx);
    pbc_state_digest(y, m, n, &dy);
    T_CHECK(dx.total != dy.total);
    m[n++] = (pbc_mask){base + 37 * 4096 + 100, base + 37 * 4096 + 101, "c"};
    T_CHECK(pbc_state_diff(x, y, m, n, 1, &diff) == 0);
    pbc_state_digest(y, m, n, &dy);
    T_CHECK(dx.total == dy.total);
    pbc_gpu_destroy(x);
    pbc_gpu_destroy(y);
}

/* Initial content laid as extents: one record however many pages, read,
 * copied, diffed and digested as the bytes it stands for; a later lay
 * over the same pages wins, written pages included; a reset forgets it. */
T_TEST(laid_content_costs_an_extent_and_reads_as_its_bytes)
{
    pbc_gpu *x = make(4ull << 30), *y = make(4ull << 30);
    pbc_desc d = {PBC_PAGE_CONTENT, 5, 0};
    const uint64_t seg2 = 0x1000000000ull;
    T_CHECK(pbc_gpu_lay(x, seg2, 2ull << 30, &d) == 0); /* 2 GiB */
    T_CHECK(x->mem.count == 0 && x->mem.ext_count == 1);
    static uint8_t want[2 * 4096], got[2 * 4096];
    content_bytes(5, (1ull << 30) - 4096, want, sizeof(want));
    T_CHECK(pbc_gpu_read(x, seg2 + (1ull << 30) - 4096, got, sizeof(got)) == 0);
    T_CHECK(memcmp(got, want, sizeof(want)) == 0);
    /* The same bytes written page by page elsewhere: no difference, and
     * the digest of the laid world is that of an untouched one. */
    T_CHECK(pbc_gpu_write_desc(y, seg2, 2ull << 30, &d) == 0);
    pbc_diff diff;
    T_CHECK(pbc_state_diff(x, y, NULL, 0, 1, &diff) == 0);
    pbc_gpu *z = make(4ull << 30);
    pbc_digest dx, dz;
    pbc_state_digest(x, NULL, 0, &dx);
    pbc_state_digest(z, NULL, 0, &dz);
    T_CHECK(dx.total == dz.total);
    pbc_gpu_destroy(z);
    pbc_gpu_destroy(y);
    /* A write into laid memory starts from its bytes. */
    uint8_t one = 0xA5;
    T_CHECK(pbc_gpu_write(x, seg2 + 4096 + 9, &one, 1) == 0);
    T_CHECK(pbc_gpu_read(x, seg2 + 4096, got, 4096) == 0);
    content_bytes(5, 4096, want, 4096);
    want[9] = 0xA5;
    T_CHECK(memcmp(got, want, 4096) == 0);
    pbc_state_digest(x, NULL, 0, &dz);
    T_CHECK(dz.total != dx.total);
    /* A copy out of laid memory stays described. */
    pbc_uop copy = {.kind = PBC_UOP_COPY, .dst = 0x300000, .src = seg2 + 8 * 4096, .size = 4096};
    T_CHECK(pbc_gpu_exec_uop(x, &copy) == 0);
    T_CHECK(desc_at(x, 0x300000).kind == PBC_PAGE_CONTENT && desc_at(x, 0x300000).pos == 8 * 4096);
    /* A newer lay over part of it wins there, over written pages too, and
     * only there. */
    pbc_desc e = {PBC_PAGE_CONTENT, 6, 0};
    T_CHECK(pbc_gpu_lay(x, seg2 + 4096, 3 * 4096, &e) == 0);
    T_CHECK(pbc_gpu_read(x, seg2 + 4096, got, 4096) == 0);
    content_bytes(6, 0, want, 4096);
    T_CHECK(memcmp(got, want, 4096) == 0);
    T_CHECK(pbc_gpu_read(x, seg2 + 4 * 4096, got, 4096) == 0);
    content_bytes(5, 4 * 4096, want, 4096);
    T_CHECK(memcmp(got, want, 4096) == 0);
    T_CHECK(pbc_gpu_read(x, seg2, got, 4096) == 0);
    content_bytes(5, 0, want, 4096);
    T_CHECK(memcmp(got, want, 4096) == 0);
    /* The run a judge may skip ends at a written page. */
    pbc_desc at;
    T_CHECK(pbc_mem_base_run(&x->mem, (seg2 >> PBC_PAGE_SHIFT) + 4, 1000, &at) == 1000 && at.pos == 4 * 4096);
    T_CHECK(pbc_gpu_write(x, seg2 + 10 * 4096, &one, 1) == 0);
    T_CHECK(pbc_mem_base_run(&x->mem, (seg2 >> PBC_PAGE_SHIFT) + 4, 1000, &at) == 6);
    T_CHECK(pbc_mem_base_run(&x->mem, (seg2 >> PBC_PAGE_SHIFT) + 10, 1000, &at) == 0);
    pbc_gpu_reset(x);
    T_CHECK(x->mem.ext_count == 0 && pbc_gpu_read(x, seg2, got, 4) == 0 && got[0] == 0 && got[3] == 0);
    pbc_gpu_destroy(x);
}

/* System frames handed out one by one are laid as one extent in the
 * pool's order, frames in a row as one physical extent; both read as the
 * bytes they stand for, frame by frame. */
T_TEST(laid_frames_follow_the_pool_order)
{
    pbc_gpu *g = make(16u << 20);
    uint64_t pfns[300];
    for (int i = 0; i < 200; i++)
        pfns[i] = pbc_gpu_alloc_system_page(g) >> PBC_PAGE_SHIFT;
    T_CHECK(pbc_gpu_alloc_system_run(g, g->sys_base + 5000, 100, pfns + 200) == 100);
    /* A write into one of them before it is laid is laid over. */
    uint8_t one = 0x77;
    T_CHECK(pbc_gpu_write(g, (pfns[150] << PBC_PAGE_SHIFT) + 3, &one, 1) == 0);
    pbc_desc d = {PBC_PAGE_CONTENT, 11, 0};
    pbc_gpu_lay_frames(g, pfns, 300, &d);
    T_CHECK_MSG(g->mem.pool_count == 1 && g->mem.ext_count == 1, "%u pool, %u physical extents",
                g->mem.pool_count, g->mem.ext_count);
    static uint8_t want[4096], got[4096];
    static const int probe[] = {0, 1, 150, 199, 200, 250, 299};
    for (size_t k = 0; k < sizeof(probe) / sizeof(probe[0]); k++) {
        content_bytes(11, (uint64_t)probe[k] * 4096, want, 4096);
        T_CHECK(pbc_gpu_read(g, pfns[probe[k]] << PBC_PAGE_SHIFT, got, 4096) == 0);
        T_CHECK_MSG(memcmp(got, want, 4096) == 0, "frame %d", probe[k]);
    }
    pbc_gpu_destroy(g);
}

/* Frames handed out in runs are laid as physical extents even when their
 * pool indexes happen to follow each other (those indexes mean nothing
 * for them): a scattered MDL laid later, lower in the pool's order, is
 * laid as it should be, not refused as out of order. */
T_TEST(run_frames_are_never_pool_extents)
{
    pbc_gpu *g = make(16u << 20);
    const uint64_t mult = 0x9E3779B1ull, mask = PBC_SYS_WINDOW_PAGES - 1;
    uint64_t pfns[8];
    T_CHECK(pbc_gpu_alloc_system_run(g, g->sys_base + ((1000 * mult) & mask), 1, pfns) == 1);
    T_CHECK(pbc_gpu_alloc_system_run(g, g->sys_base + ((1001 * mult) & mask), 1, pfns + 1) == 1);
    T_CHECK(pfns[0] == g->sys_base + ((1000 * mult) & mask) && pfns[1] == g->sys_base + ((1001 * mult) & mask));
    pbc_desc d = {PBC_PAGE_CONTENT, 1, 0};
    pbc_gpu_lay_frames(g, pfns, 2, &d);
    T_CHECK(g->mem.pool_count == 0 && g->mem.ext_count == 2);
    for (int i = 0; i < 4; i++)
        pfns[i] = pbc_gpu_alloc_system_page(g) >> PBC_PAGE_SHIFT;
    pbc_gpu_lay_frames(g, pfns, 4, &d);
    T_CHECK(g->mem.pool_count == 1);
    static uint8_t want[4096], got[4096];
    content_bytes(1, 3 * 4096, want, 4096);
    T_CHECK(pbc_gpu_read(g, pfns[3] << PBC_PAGE_SHIFT, got, 4096) == 0 && memcmp(got, want, 4096) == 0);
    pbc_gpu_destroy(g);
}

/* Pages handed out as a frame list are the frames pbc_gpu_alloc_system_page
 * hands out one by one, frames in runs skipped, as a handful of runs; laid
 * from the list they read as the bytes they stand for, and the pool's
 * untouched runs end where a page was written. */
T_TEST(frame_lists_are_the_pool_order_in_runs)
{
    pbc_gpu *g = make(16u << 20), *h = make(16u << 20);
    pbc_frames f;
    pbc_frames_init(&f, &g->mem.pool);
    T_CHECK(pbc_gpu_alloc_system_pages(g, 100, &f) == 100 && f.count == 1 && f.runs[0].pooled);
    /* h holds the same runs (first, before any page: none of them is
     * among the first 100 in the pool's order) and hands pages out one by one. */
    uint64_t taken[4];
    T_CHECK(pbc_gpu_alloc_system_run(g, pbc_frames_pfn(&f, 0) + 1000, 1, taken) == 1);
    T_CHECK(pbc_gpu_alloc_system_run(h, pbc_frames_pfn(&f, 0) + 1000, 1, taken) == 1);
    T_CHECK(pbc_gpu_alloc_system_run_frames(g, g->sys_base + 7000, 3, &f) == 3);
    T_CHECK(pbc_gpu_alloc_system_run(h, h->sys_base + 7000, 3, taken + 1) == 3);
    T_CHECK(pbc_gpu_alloc_system_pages(g, 2000, &f) == 2000);
    T_CHECK_MSG(f.total == 2103 && f.count <= 4, "%llu frames, %u runs", (unsigned long long)f.total, f.count);
    for (uint64_t i = 0; i < 100; i++)
        T_CHECK(pbc_frames_pfn(&f, i) == pbc_gpu_alloc_system_page(h) >> PBC_PAGE_SHIFT);
    T_CHECK(pbc_frames_pfn(&f, 100) == g->sys_base + 7000 && pbc_frames_pfn(&f, 102) == g->sys_base + 7002);
    for (uint64_t i = 103; i < f.total; i++) {
        uint64_t want = pbc_gpu_alloc_system_page(h) >> PBC_PAGE_SHIFT, index;
        T_CHECK(pbc_frames_pfn(&f, i) == want);
        T_CHECK(pbc_frames_find(&f, want, &index) && index == i);
    }
    T_CHECK(!pbc_frames_find(&f, taken[0] + 5, &(uint64_t){0}));

    pbc_desc d = {PBC_PAGE_CONTENT, 21, 0}, at;
    pbc_gpu_lay_frame_list(g, &f, 0, f.total, &d);
    static uint8_t want[4096], got[4096];
    static const uint64_t probe[] = {0, 99, 100, 102, 103, 1500, 2102};
    for (size_t k = 0; k < sizeof(probe) / sizeof(probe[0]); k++) {
        content_bytes(21, probe[k] * 4096, want, 4096);
        T_CHECK(pbc_gpu_read(g, pbc_frames_pfn(&f, probe[k]) << PBC_PAGE_SHIFT, got, 4096) == 0);
        T_CHECK_MSG(memcmp(got, want, 4096) == 0, "frame %llu", (unsigned long long)probe[k]);
    }
    const pbc_frame_run *last = pbc_frames_run_of(&f, 1000);
    uint64_t first = last->first + (1000 - last->at);
    T_CHECK(pbc_mem_pool_run(&g->mem, first, 500, &at) == 500 && at.pos == 1000ull * 4096 && at.value == 21);
    uint8_t one = 1;
    T_CHECK(pbc_gpu_write(g, (pbc_frames_pfn(&f, 1200) << PBC_PAGE_SHIFT) + 9, &one, 1) == 0);
    T_CHECK(pbc_mem_pool_run(&g->mem, first, 500, &at) == 200);
    T_CHECK(pbc_mem_pool_run(&g->mem, first + 200, 500, &at) == 0);
    T_CHECK(pbc_mem_pool_run(&g->mem, first + 201, 500, &at) == 500 && at.pos == 1201ull * 4096);

    pbc_frames sub;
    pbc_frames_init(&sub, &g->mem.pool);
    pbc_frames_sub(&f, 98, 10, &sub);
    T_CHECK(sub.total == 10 && sub.count == 3 && pbc_frames_pfn(&sub, 2) == g->sys_base + 7000 &&
            pbc_frames_pfn(&sub, 9) == pbc_frames_pfn(&f, 107) && !pbc_frames_contiguous(&sub));
    pbc_frames_sub(&f, 100, 3, &sub);
    T_CHECK(pbc_frames_contiguous(&sub));
    pbc_frames_fini(&sub);
    pbc_frames_fini(&f);
    pbc_gpu_destroy(g);
    pbc_gpu_destroy(h);
}

T_TEST(relayout_keeps_nothing_of_the_old_world)
{
    pbc_gpu *g = make(16u << 20);
    uint64_t page = pbc_gpu_alloc_system_page(g);
    pbc_uop map = {.kind = PBC_UOP_GART_WRITE, .segment = 3, .index = 2, .flags = PBC_GART_VALID, .value = page};
    T_CHECK(pbc_gpu_exec_uop(g, &map) == 0);
    uint32_t v = 0x12345678;
    T_CHECK(pbc_gpu_write(g, 0x5000, &v, 4) == 0);
    pbc_segment_info bigger[] = {{1, PBC_SEGMENT_MEMORY, 0, 32u << 20}, {2, PBC_SEGMENT_APERTURE, 0x800000000ull, 64u << 20}};
    T_CHECK(pbc_gpu_relayout(g, bigger, 2) == NULL);
    T_CHECK(g->segment_count == 2 && g->seg[1].gart_pages == (64u << 20) / 4096);
    T_CHECK(g->mem.count == 0 && g->seg[1].gart[2].flags == 0);
    pbc_segment_info bad[] = {{1, PBC_SEGMENT_MEMORY, 0, 1u << 20}, {2, PBC_SEGMENT_MEMORY, 0x80000, 1u << 20}};
    T_CHECK(pbc_gpu_relayout(g, bad, 2) != NULL && g->segment_count == 2);
    pbc_gpu_destroy(g);
}

T_MAIN()
