/* The WDK shim's CPU views: they persist until unmapped, see what the GPU
 * wrote whenever the builder's code starts running, and what the CPU wrote
 * reaches modeled memory, with CPU provenance, when it stops. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpu/gpu.h"
#include "kernel/shim.h"
#include "ref_isa.h"
#include "t.h"

static pbc_gpu *make(void)
{
    const pbc_segment_info layout[] = {{1, PBC_SEGMENT_MEMORY, 0x0, 16u << 20}};
    const char *why;
    pbc_gpu *g = pbc_gpu_create(layout, 1, &ref_isa, &why);
    T_CHECK(g != NULL);
    return g;
}

T_TEST(io_space_view_persists_and_syncs_both_ways)
{
    pbc_gpu *g = make();
    pbc_shim_bind(g);
    pbc_shim_enter(); /* e.g. create_adapter maps a window for later */
    PHYSICAL_ADDRESS pa;
    pa.QuadPart = 0x10000;
    uint32_t *view = MmMapIoSpace(pa, 8192, MmNonCached);
    T_CHECK(view != NULL);
    pbc_shim_leave();

    uint32_t v = 0x1234ABCD, r = 0;
    T_CHECK(pbc_gpu_write(g, 0x10000 + 4096, &v, 4) == 0); /* the GPU writes between calls */
    pbc_shim_enter();
    T_CHECK(view[1024] == 0x1234ABCD); /* the view sees it when the builder runs again */
    view[1] = 0xCAFEF00D;               /* and the CPU writes through it */
    pbc_shim_leave();
    T_CHECK(pbc_gpu_read(g, 0x10004, &r, 4) == 0 && r == 0xCAFEF00D);
    const pbc_page *pg = pbc_mem_find(&g->mem, 0x10);
    T_CHECK(pg && pg->prov.writer == PBC_WRITER_CPU);

    pbc_shim_enter();
    MmUnmapIoSpace(view, 8192);
    pbc_shim_leave();
    pbc_shim_unbind();
    pbc_gpu_destroy(g);
}

T_TEST(mdl_view_sets_mapped_va_until_unmapped)
{
    pbc_gpu *g = make();
    pbc_shim_bind(g);
    struct {
        MDL m;
        PFN_NUMBER pfn[1];
    } md = {{0}, {0}};
    md.m.ByteCount = 4096;
    md.m.StartVa = (PVOID)(uintptr_t)0x7f0000000000ull; /* a made-up, page-aligned virtual address */
    md.pfn[0] = (PFN_NUMBER)(pbc_gpu_alloc_system_page(g) >> PAGE_SHIFT);
    pbc_shim_enter();
    uint8_t *p = MmGetSystemAddressForMdlSafe(&md.m, NormalPagePriority);
    T_CHECK(p && md.m.MappedSystemVa == p && (md.m.MdlFlags & MDL_MAPPED_TO_SYSTEM_VA));
    T_CHECK(MmGetSystemAddressForMdlSafe(&md.m, NormalPagePriority) == p); /* the same view again */
    pbc_shim_leave();
    pbc_shim_enter();
    T_CHECK(md.m.MappedSystemVa == p); /* across calls */
    MmUnmapLockedPages(p, &md.m);
    T_CHECK(md.m.MappedSystemVa == NULL && !(md.m.MdlFlags & MDL_MAPPED_TO_SYSTEM_VA));
    pbc_shim_leave();
    pbc_shim_unbind();
    pbc_gpu_destroy(g);
}

static long max_rss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* A driver maps its whole BAR once: an 8 GiB view costs what is touched. */
T_TEST(whole_segment_view_is_sparse)
{
    const uint64_t base = 0x400000000ull, size = 8ull << 30;
    const pbc_segment_info layout[] = {{1, PBC_SEGMENT_MEMORY, base, size}};
    const char *why;
    pbc_gpu *g = pbc_gpu_create(layout, 1, &ref_isa, &why);
    T_CHECK(g != NULL);
    long rss0 = max_rss_kib();
    pbc_shim_bind(g);
    pbc_shim_enter();
    PHYSICAL_ADDRESS pa;
    pa.QuadPart = (LONGLONG)base;
    uint8_t *bar = MmMapIoSpace(pa, size, MmWriteCombined);
    T_CHECK(bar != NULL);
    pbc_shim_leave();

    uint32_t v = 0x5EED5EED, r = 0;
    T_CHECK(pbc_gpu_write(g, base + size - 4096, &v, 4) == 0);
    pbc_shim_enter();
    T_CHECK(*(uint32_t *)(bar + size - 4096) == 0x5EED5EED);
    T_CHECK(bar[size / 2] == 0);           /* a read creates nothing */
    *(uint32_t *)(bar + 3 * 4096 + 8) = 7; /* one store, one page */
    pbc_shim_leave();
    T_CHECK(pbc_gpu_read(g, base + 3 * 4096 + 8, &r, 4) == 0 && r == 7);
    T_CHECK(g->mem.count == 2); /* the GPU's page and the CPU's: nothing else */
    const pbc_page *gpu_page = pbc_mem_find(&g->mem, (base + size - 4096) >> PAGE_SHIFT);
    T_CHECK(gpu_page && gpu_page->prov.writer != PBC_WRITER_CPU); /* read, not written back */
    T_CHECK(max_rss_kib() - rss0 < 64 * 1024);
    pbc_shim_unbind();
    pbc_gpu_destroy(g);
}

/* Resident memory now, in KiB (shared pages of the views included). */
static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long size = 0, resident = 0;
    T_CHECK(f && fscanf(f, "%ld %ld", &size, &resident) == 2);
    if (f)
        fclose(f);
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* A CPU fill of 512 MiB in one call, through a view of the whole
 * segment, as a driver that fills with the CPU does it: the model keeps
 * the pages as the pattern, the views give back what it describes on the
 * way, so far less than the range stays resident; every page still
 * counts as written in the call, and reads back right in the next. A
 * page that is no pattern stays bytes. */
T_TEST(cpu_fill_of_a_large_range_stays_small)
{
    const uint64_t base = 0x400000000ull, size = 1ull << 30, fill = 512ull << 20;
    const pbc_segment_info layout[] = {{1, PBC_SEGMENT_MEMORY, base, size}};
    const char *why;
    pbc_gpu *g = pbc_gpu_create(layout, 1, &ref_isa, &why);
    T_CHECK(g != NULL);
    pbc_shim_bind(g);
    pbc_shim_enter();
    PHYSICAL_ADDRESS pa;
    pa.QuadPart = (LONGLONG)base;
    uint8_t *bar = MmMapIoSpace(pa, size, MmWriteCombined);
    T_CHECK(bar != NULL);
    pbc_shim_leave();
    const pbc_shim_access *acc;
    pbc_shim_take_accesses(&acc);

    long rss0 = rss_kib(), peak = 0;
    pbc_shim_enter();
    for (uint64_t off = 0; off < fill; off += 4096) {
        memset(bar + off, 0xA5, 4096);
        if (off % (64u << 20) == 0) {
            long now = rss_kib() - rss0;
            peak = now > peak ? now : peak;
        }
    }
    bar[fill + 5] = 1; /* not a pattern */
    long now = rss_kib() - rss0;
    peak = now > peak ? now : peak;
    pbc_shim_leave();
    T_CHECK_MSG(peak < 384 * 1024, "%ld KiB resident for a CPU fill of %llu MiB", peak,
                (unsigned long long)(fill >> 20));
    uint32_t n = pbc_shim_take_accesses(&acc);
    uint64_t written = 0;
    for (uint32_t k = 0; k < n; k++)
        written += acc[k].wrote ? acc[k].pages : 0;
    T_CHECK_MSG(written == fill / 4096 + 1, "%llu pages written", (unsigned long long)written);
    const pbc_page *pg = pbc_mem_find(&g->mem, (base + fill / 2) >> PAGE_SHIFT);
    T_CHECK(pg && pbc_page_single(pg) && pg->desc.kind == PBC_PAGE_PATTERN && pg->desc.value == 0xA5A5A5A5u &&
            pg->prov.writer == PBC_WRITER_CPU);
    pg = pbc_mem_find(&g->mem, (base + fill) >> PAGE_SHIFT);
    T_CHECK(pg && pg->desc.kind == PBC_PAGE_BYTES && pg->prov.writer == PBC_WRITER_CPU);
    uint32_t r = 0;
    T_CHECK(pbc_gpu_read(g, base + fill - 4, &r, 4) == 0 && r == 0xA5A5A5A5u);
    pbc_shim_enter();
    T_CHECK(bar[0] == 0xA5 && bar[fill - 1] == 0xA5 && bar[fill + 5] == 1 && bar[fill + 6] == 0);
    pbc_shim_leave();
    pbc_shim_unbind();
    pbc_gpu_destroy(g);
}

/* A store that makes a page after one the CPU wrote opens the pages
 * after it too (shim.c, shim_open_ahead): those the CPU then leaves alone are neither accesses
 * nor open after the call, so a store in a later call is caught and
 * counted as ever; those it writes are written and counted. */
T_TEST(pages_opened_ahead_count_only_when_written)
{
    pbc_gpu *g = make();
    pbc_shim_bind(g);
    pbc_shim_enter();
    PHYSICAL_ADDRESS pa;
    pa.QuadPart = 0x200000;
    uint8_t *view = MmMapIoSpace(pa, 64 * 4096, MmCached);
    T_CHECK(view != NULL);
    pbc_shim_leave();
    const pbc_shim_access *acc;
    pbc_shim_take_accesses(&acc);

    pbc_shim_enter();
    view[0] = 1;        /* makes page 0 */
    view[4096] = 1;     /* makes page 1 after page 0: opens pages 2 to 33 */
    view[3 * 4096 + 1] = 0; /* a store of what the page held */
    view[2 * 4096] = 2; /* written without a fault of its own */
    pbc_shim_leave();
    uint32_t n = pbc_shim_take_accesses(&acc);
    uint64_t written = 0, read = 0;
    for (uint32_t k = 0; k < n; k++)
        *(acc[k].wrote ? &written : &read) += acc[k].pages;
    T_CHECK_MSG(written == 3 && read == 0, "%llu pages written, %llu read", (unsigned long long)written,
                (unsigned long long)read);
    uint8_t b = 0;
    T_CHECK(pbc_gpu_read(g, 0x200000 + 2 * 4096, &b, 1) == 0 && b == 2);

    pbc_shim_enter();
    view[3 * 4096] = 3; /* opened ahead in the last call, left alone there: faults now */
    pbc_shim_leave();
    n = pbc_shim_take_accesses(&acc);
    T_CHECK_MSG(n == 1 && acc[0].phys == 0x200000 + 3 * 4096 && acc[0].pages == 1 && acc[0].wrote,
                "%u runs", n);
    T_CHECK(pbc_gpu_read(g, 0x200000 + 3 * 4096, &b, 1) == 0 && b == 3);

    pbc_shim_enter();
    b = view[5 * 4096]; /* a read, as ever */
    pbc_shim_leave();
    n = pbc_shim_take_accesses(&acc);
    T_CHECK_MSG(n == 1 && acc[0].phys == 0x200000 + 5 * 4096 && acc[0].pages == 1 && !acc[0].wrote && b == 0,
                "%u runs", n);

    pbc_shim_enter();
    MmUnmapIoSpace(view, 64 * 4096);
    pbc_shim_leave();
    pbc_shim_unbind();
    pbc_gpu_destroy(g);
}

/* Two views of the same pages: what the CPU wrote through one is seen
 * through the other from the next call on. */
T_TEST(aliasing_views_agree_after_each_call)
{
    pbc_gpu *g = make();
    pbc_shim_bind(g);
    pbc_shim_enter();
    PHYSICAL_ADDRESS a, b;
    a.QuadPart = 0x20000;
    b.QuadPart = 0x21000;
    uint32_t *wide = MmMapIoSpace(a, 3 * 4096, MmCached);
    uint32_t *narrow = MmMapIoSpace(b, 4096, MmCached);
    T_CHECK(wide && narrow);
    wide[1024] = 0xA11A5ED;
    pbc_shim_leave();
    pbc_shim_enter();
    T_CHECK(narrow[0] == 0xA11A5ED);
    pbc_shim_leave();
    pbc_shim_unbind();
    pbc_gpu_destroy(g);
}

/* Within one call: a view made after another wrote sees the write, and two
 * views writing different bytes of one page both land (the example
 * worker's shape: a permanent BAR view and a view per operation). */
T_TEST(aliasing_views_agree_within_a_call)
{
    pbc_gpu *g = make();
    pbc_shim_bind(g);
    pbc_shim_enter();
    PHYSICAL_ADDRESS bar_pa, one;
    bar_pa.QuadPart = 0;
    one.QuadPart = 0x5000;
    uint8_t *bar = MmMapIoSpace(bar_pa, 1u << 20, MmWriteCombined);
    T_CHECK(bar != NULL);
    bar[0x5000] = 0x77;
    uint8_t *op = MmMapIoSpace(one, 4096, MmNonCached);
    T_CHECK(op && op[0] == 0x77);  /* the BAR view's write is seen */
    op[1] = 0x55;                  /* a 1-byte write through the new view */
    bar[0x5002] = 0x33;            /* and another through the BAR view, same page */
    MmUnmapIoSpace(op, 4096);
    T_CHECK(bar[0x5001] == 0x55);  /* the unmapped view's write reached the BAR view */
    pbc_shim_leave();
    uint8_t got[3] = {0};
    T_CHECK(pbc_gpu_read(g, 0x5000, got, 3) == 0);
    T_CHECK(got[0] == 0x77 && got[1] == 0x55 && got[2] == 0x33);
    pbc_shim_unbind();
    pbc_gpu_destroy(g);
}

/* A view unmapped within a call is parked until the call ends (a builder
 * that maps a page table for every page it works on maps the same pages
 * again and again): mapped again in the call it comes back at its
 * address with what other views wrote since; a store through it while
 * unmapped still ends the process; its pages count as accessed once. A
 * view made later from its mappings (a spare) shows zeros where the model
 * holds nothing, not the bytes the earlier view had. */
T_TEST(unmapped_views_park_for_the_call)
{
    pbc_gpu *g = make();
    pbc_shim_bind(g);
    pbc_shim_enter();
    PHYSICAL_ADDRESS bar_pa, one;
    bar_pa.QuadPart = 0;
    one.QuadPart = 0x6000;
    uint8_t *bar = MmMapIoSpace(bar_pa, 1u << 20, MmWriteCombined);
    uint8_t *table = MmMapIoSpace(one, 4096, MmCached);
    T_CHECK(bar && table && table[8] == 0);
    MmUnmapIoSpace(table, 4096);
    bar[0x6008] = 0x42; /* through another view, while the first is parked */
    uint8_t *again = MmMapIoSpace(one, 4096, MmCached);
    T_CHECK(again == table && again[8] == 0x42);
    again[9] = 0x43;
    MmUnmapIoSpace(again, 4096);
    T_CHECK(bar[0x6009] == 0x43); /* its write reached the view that stays, at the unmap */
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        *(volatile uint8_t *)(again + 16) = 1; /* unmapped: no view takes the store */
        _exit(42);
    }
    int status = 0;
    T_CHECK(waitpid(pid, &status, 0) == pid);
    T_CHECK(!(WIFEXITED(status) && WEXITSTATUS(status) == 42));
    pbc_shim_leave();
    const pbc_shim_access *acc;
    uint32_t n = pbc_shim_take_accesses(&acc), runs = 0;
    for (uint32_t k = 0; k < n; k++)
        runs += acc[k].phys <= 0x6000 && acc[k].phys + acc[k].pages * 4096 > 0x6000;
    T_CHECK_MSG(runs == 2, "%u runs hold page 0x6000 (the BAR view's and the parked view's)", runs);
    uint8_t got[2] = {0};
    T_CHECK(pbc_gpu_read(g, 0x6008, got, 2) == 0 && got[0] == 0x42 && got[1] == 0x43);

    pbc_shim_enter(); /* the parked view went at the call's end: its mappings now serve a new view */
    PHYSICAL_ADDRESS other;
    other.QuadPart = 0x7000;
    uint8_t *fresh = MmMapIoSpace(other, 4096, MmCached);
    T_CHECK(fresh && fresh[8] == 0 && fresh[9] == 0);
    MmUnmapIoSpace(fresh, 4096);
    MmUnmapIoSpace(bar, 1u << 20);
    pbc_shim_leave();
    pbc_shim_unbind();
    pbc_gpu_destroy(g);
}

/* A segment the driver declared not CPU-visible has no view; enter and
 * leave nest, and only the outermost leave writes back. */
T_TEST(invisible_segments_and_nesting)
{
    pbc_gpu *g = make();
    pbc_shim_bind(g);
    pbc_shim_enter();
    PHYSICAL_ADDRESS pa;
    pa.QuadPart = 0x8000;
    pbc_shim_set_invisible(1u << 1);
    T_CHECK(MmMapIoSpace(pa, 4096, MmCached) == NULL);
    pbc_shim_set_invisible(0);
    uint8_t *p = MmMapIoSpace(pa, 4096, MmCached);
    T_CHECK(p != NULL);
    pbc_shim_enter(); /* e.g. the GPU asking the driver's GART view */
    p[0] = 9;
    pbc_shim_leave();
    uint8_t got = 0;
    T_CHECK(pbc_gpu_read(g, 0x8000, &got, 1) == 0 && got == 0); /* not yet */
    pbc_shim_leave();
    T_CHECK(pbc_gpu_read(g, 0x8000, &got, 1) == 0 && got == 9);
    pbc_shim_unbind();
    pbc_gpu_destroy(g);
}

/* The CPU does not see system pages through the GART: no view. */
T_TEST(aperture_ranges_are_not_served)
{
    const pbc_segment_info layout[] = {{1, PBC_SEGMENT_MEMORY, 0x0, 16u << 20},
                                       {2, PBC_SEGMENT_APERTURE, 0x1000000, 1u << 20}};
    const char *why;
    pbc_gpu *g = pbc_gpu_create(layout, 2, &ref_isa, &why);
    T_CHECK(g != NULL);
    pbc_shim_bind(g);
    pbc_shim_enter();
    PHYSICAL_ADDRESS pa;
    pa.QuadPart = 0x1000000;
    T_CHECK(MmMapIoSpace(pa, 4096, MmCached) == NULL);
    pa.QuadPart = 0xFFF000; /* straddles the memory segment's end */
    T_CHECK(MmMapIoSpace(pa, 8192, MmCached) == NULL);
    pbc_shim_leave();
    pbc_shim_unbind();
    pbc_gpu_destroy(g);
}

/* Write detection claims only faults on views: any other bad store still
 * ends the process through the handler that was there before (the
 * default's SIGSEGV, or a sanitizer's report), never runs on. */
T_TEST(other_faults_still_crash)
{
    pbc_gpu *g = make();
    pbc_shim_bind(g);
    pbc_shim_enter();
    PHYSICAL_ADDRESS pa;
    pa.QuadPart = 0x30000;
    T_CHECK(MmMapIoSpace(pa, 4096, MmCached) != NULL); /* installs the handler */
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        volatile uint8_t *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        ro[0] = 1;
        _exit(42);
    }
    int status = 0;
    T_CHECK(waitpid(pid, &status, 0) == pid);
    T_CHECK(!(WIFEXITED(status) && WEXITSTATUS(status) == 42));
    T_CHECK(WIFSIGNALED(status) || WEXITSTATUS(status) != 0);
    pbc_shim_leave();
    pbc_shim_unbind();
    pbc_gpu_destroy(g);
}

/* A store the fault handler notes: no check may be moved before it. */
static void poke(uint8_t *p, uint8_t value)
{
    *(volatile uint8_t *)p = value;
    atomic_signal_fence(memory_order_seq_cst);
}

/* Watched memory: a write to a sealed page is noted once, with the bytes
 * it replaced, and goes through; reads and open pages cost nothing; a
 * page the harness opens or fills again is no longer dirty. With no watch
 * in use, a write to a sealed page crashes as any bad store does. */
T_TEST(watched_pages_note_their_writes)
{
    const size_t pages = 8;
    uint8_t *mem = aligned_alloc(4096, pages * 4096);
    memset(mem, 0, pages * 4096);
    pbc_shim_watch w;
    pbc_shim_watch_init(&w, mem, pages, 0xA5);
    pbc_shim_watch_use(&w);
    pbc_shim_watch_fill(&w, 2, pages - 2);
    pbc_shim_watch_open(&w, 0, 2, 1);
    T_CHECK(mem[0] == 0xA5 && mem[2 * 4096] == 0xA5 && mem[pages * 4096 - 1] == 0xA5);
    poke(mem + 100, 1);
    volatile uint8_t read = mem[6 * 4096];
    (void)read;
    T_CHECK(w.dirty_count == 0);

    poke(mem + 5 * 4096 + 7, 0x11);
    poke(mem + 5 * 4096 + 8, 0x12);
    T_CHECK(w.dirty_count == 1 && w.dirty[0] == 5 && w.state[5] == PBC_SHIM_DIRTY);
    T_CHECK(pbc_shim_watch_clean(&w, 5)[7] == 0xA5 && mem[5 * 4096 + 7] == 0x11 && mem[5 * 4096 + 8] == 0x12);
    pbc_shim_watch_settle(&w);
    T_CHECK(w.dirty_count == 0 && w.state[5] == PBC_SHIM_SEALED);
    poke(mem + 5 * 4096 + 9, 0x13);
    T_CHECK(w.dirty_count == 1 && pbc_shim_watch_clean(&w, 5)[7] == 0x11); /* as it was when settled */
    pbc_shim_watch_fill(&w, 2, pages - 2);
    T_CHECK(w.dirty_count == 0 && w.state[5] == PBC_SHIM_FILLED && mem[5 * 4096 + 7] == 0xA5);

    pbc_shim_watch_seal(&w, 0, 2); /* sealed as they are */
    T_CHECK(w.state[0] == PBC_SHIM_SEALED && mem[100] == 1);
    poke(mem + 100, 2);
    T_CHECK(w.dirty_count == 1 && pbc_shim_watch_clean(&w, 0)[100] == 1);
    pbc_shim_watch_open(&w, 0, 1, 1);
    T_CHECK(w.dirty_count == 0 && w.state[0] == PBC_SHIM_OPEN && mem[100] == 0xA5);

    pbc_shim_unbind(); /* no watch in use */
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        poke(mem + 6 * 4096, 1);
        _exit(42);
    }
    int status = 0;
    T_CHECK(waitpid(pid, &status, 0) == pid);
    T_CHECK(!(WIFEXITED(status) && WEXITSTATUS(status) == 42));

    pbc_shim_watch_fini(&w);
    poke(mem + 6 * 4096, 1); /* every page writable again */
    T_CHECK(w.base == NULL);
    free(mem);
}

static volatile uint32_t lazy_fills; /* counted in the fault handler: read anew each time */

static void lazy_fill(void *ctx, size_t offset, uint8_t *page)
{
    lazy_fills++;
    memset(page, (int)(*(uint8_t *)ctx + offset / 4096), 4096);
}

/* Lazily made guarded memory (an MDL's PFNs): a page is made at its first
 * access, once, and only it; a store is noted as written and opens only
 * its page, the pages not yet read staying unmade; the next read of one
 * makes it as before. */
T_TEST(lazy_guard_makes_pages_when_read)
{
    const size_t pages = 6;
    uint8_t *mem = mmap(NULL, pages * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    T_CHECK(mem != MAP_FAILED);
    uint8_t base = 0x40;
    lazy_fills = 0;
    pbc_shim_guard_lazy(mem, pages * 4096, lazy_fill, &base);
    T_CHECK(lazy_fills == 0);
    T_CHECK(*(volatile uint8_t *)(mem + 2 * 4096 + 17) == 0x42);
    T_CHECK(*(volatile uint8_t *)(mem + 2 * 4096 + 4095) == 0x42 && lazy_fills == 1);
    T_CHECK(*(volatile uint8_t *)(mem + 5 * 4096) == 0x45 && lazy_fills == 2);
    T_CHECK(!pbc_shim_guard_written(mem));
    poke(mem + 2 * 4096 + 1, 7); /* a made page */
    T_CHECK(pbc_shim_guard_written(mem) && mem[2 * 4096 + 1] == 7 && mem[2 * 4096] == 0x42);
    poke(mem + 4 * 4096 + 3, 9); /* an unmade one: made, then written */
    T_CHECK(lazy_fills == 3 && mem[4 * 4096 + 3] == 9 && mem[4 * 4096 + 4] == 0x44);
    T_CHECK(*(volatile uint8_t *)(mem + 0) == 0x40 && lazy_fills == 4); /* still made when read */
    pbc_shim_unguard(mem);
    poke(mem + 3 * 4096, 1); /* every page writable again */
    T_CHECK(lazy_fills == 4);
    munmap(mem, pages * 4096);
}

#if defined(__x86_64__)
/* Stores the watch must tell apart, each one instruction, not inlined so
 * each has a code range of its own. */
static __attribute__((noinline)) void store_byte(volatile uint8_t *p, uint8_t v) { *p = v; }
static __attribute__((noinline)) void or_byte(uint8_t *p)
{
    __asm__ volatile("orb $0x10, (%0)" : : "r"(p) : "memory"); /* reads what it writes */
}

static int in_function(uintptr_t pc, void (*fn)(void))
{
    uintptr_t start = (uintptr_t)fn;
    return pc >= start && pc < start + 64;
}

/* The attribution watch on one byte of a view: a store beside it is a
 * store into the page but not its writer; a store of the value the byte
 * already holds writes it; a read-modify-write instruction writes it, and
 * reads its true value (the byte is right after it); each store is
 * caught at its own instruction, in the BuildPagingBuffer call the GPU's
 * CPU provenance names. */
T_TEST(attribution_watch_finds_each_store_of_a_byte)
{
    pbc_gpu *g = make();
    pbc_shim_bind(g);
    pbc_shim_enter();
    PHYSICAL_ADDRESS pa;
    pa.QuadPart = 0x20000;
    uint8_t *view = MmMapIoSpace(pa, 4096, MmCached);
    T_CHECK(view != NULL);
    pbc_shim_leave();

    pbc_shim_attrib w;
    memset(&w, 0, sizeof(w));
    w.gpu = g;
    w.ppn = 0x20;
    w.off = 100;
    w.len = 1;
    pbc_shim_attrib_arm(&w);
    g->cpu.call = 7;
    pbc_shim_enter();
    store_byte(view + 101, 5); /* beside it */
    pbc_shim_leave();
    T_CHECK(w.stores == 1 && w.changes == 0);
    T_CHECK(in_function(w.last_store.frames[0], (void (*)(void))store_byte));

    pbc_shim_enter();
    store_byte(view + 100, 0); /* the value it holds */
    pbc_shim_leave();
    T_CHECK(w.stores == 2 && w.changes == 1 && w.last_change.call == 7);
    T_CHECK(in_function(w.last_change.frames[0], (void (*)(void))store_byte));

    g->cpu.call = 8;
    pbc_shim_enter();
    store_byte(view + 100, 0x21);
    or_byte(view + 100);
    T_CHECK(view[100] == 0x31); /* the second run of the instruction saw 0x21 */
    pbc_shim_leave();
    T_CHECK(w.changes == 3 && w.last_change.call == 8);
    T_CHECK(in_function(w.last_change.frames[0], (void (*)(void))or_byte));
    uint8_t b = 0;
    T_CHECK(pbc_gpu_read(g, 0x20000 + 100, &b, 1) == 0 && b == 0x31);
    pbc_shim_attrib_arm(NULL);

    pbc_shim_enter(); /* disarmed: a store is the shim's own business again */
    store_byte(view + 100, 1);
    pbc_shim_leave();
    T_CHECK(w.changes == 3);

    pbc_shim_enter();
    MmUnmapIoSpace(view, 4096);
    pbc_shim_leave();
    pbc_shim_unbind();
    pbc_gpu_destroy(g);
}

/* A driver process's store into the watched page (harness/ddi/): its
 * fault, served here, says the store is watched and which bytes; the
 * record that comes back is counted once, in the call of its fault, and a
 * second record for the same fault, or one for a fault outside the page,
 * is not. */
T_TEST(attribution_watch_of_a_driver_process_store)
{
    pbc_gpu *g = make();
    pbc_shim_bind(g);
    pbc_shim_enter();
    PHYSICAL_ADDRESS pa;
    pa.QuadPart = 0x20000;
    uint8_t *view = MmMapIoSpace(pa, 8192, MmCached);
    T_CHECK(view != NULL);
    pbc_shim_leave();

    pbc_shim_attrib w;
    memset(&w, 0, sizeof(w));
    w.gpu = g;
    w.ppn = 0x20;
    w.off = 100;
    w.len = 4;
    pbc_shim_attrib_arm(&w);
    g->cpu.call = 5;
    w.cur_mpo = 3;
    pbc_shim_enter();
    uint32_t off = 0, len = 0;
    T_CHECK(pbc_shim_fault_watched(view + 4096 + 8, 1, &off, &len) == 1); /* the next page: not watched */
    T_CHECK(pbc_shim_attrib_record(&(pbc_shim_store){.nframes = 0}, 1) == -1);
    T_CHECK(pbc_shim_fault_watched(view + 104, 1, &off, &len) == 2 && off == 100 && len == 4);
    g->cpu.call = 6; /* the store's call is its fault's */
    pbc_shim_store st;
    memset(&st, 0, sizeof(st));
    st.nframes = 2;
    st.frames[0] = 0x1111;
    st.lib[1] = 1;
    st.frames[1] = 0x2222;
    T_CHECK(pbc_shim_attrib_record(&st, 1) == 0);
    T_CHECK(pbc_shim_attrib_record(&st, 1) == -1); /* one record per watched store */
    pbc_shim_leave();
    T_CHECK(w.stores == 1 && w.changes == 1);
    T_CHECK(w.last_change.remote && w.last_change.call == 5 && w.last_change.mpo == 3);
    T_CHECK(w.last_change.nframes == 2 && w.last_change.frames[1] == 0x2222 && w.last_change.lib[1] == 1);
    pbc_shim_attrib_arm(NULL);

    pbc_shim_enter();
    MmUnmapIoSpace(view, 8192);
    pbc_shim_leave();
    pbc_shim_unbind();
    pbc_gpu_destroy(g);
}
#endif

T_MAIN()
