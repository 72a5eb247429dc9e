/* The GPU model: scattered system pages, sparse segments, GART
 * translation and faults, the queue, reset. */
#include <stdio.h>
#include <unistd.h>

#include "gpu/gpu.h"
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

T_TEST(bad_layouts_rejected)
{
    const char *why = NULL;
    pbc_segment_info overlap[] = {{1, PBC_SEGMENT_MEMORY, 0, 1u << 20}, {2, PBC_SEGMENT_MEMORY, 0x80000, 1u << 20}};
    T_CHECK(!pbc_gpu_create(overlap, 2, &ref_isa, &why) && strstr(why, "overlap"));
    pbc_segment_info sysclash[] = {{1, PBC_SEGMENT_MEMORY, 0x100000000ull, 1u << 20}};
    T_CHECK(!pbc_gpu_create(sysclash, 1, &ref_isa, &why) && strstr(why, "system"));
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
    pbc_gpu_push_work(g, &w, 0);
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

T_MAIN()
