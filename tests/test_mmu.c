/* The GPU's MMU: page tables in modeled memory (DXGK_PTE format, or the
 * GPU's own through its ISA's decoder), three
 * levels, 64 KiB leaves and large pages, zero, read-only and invalid
 * entries, and a TLB that keeps stale translations until a flush. */
#include <string.h>

#include "gpu/gpu.h"
#include "ref_isa.h"
#include "t.h"

#define ROOT 0x100000ull /* in segment 1 (base 0) */
#define L1 0x102000ull
#define L0 0x104000ull
#define L0B 0x106000ull

static pbc_gpu *make(void)
{
    pbc_segment_info segs[] = {{1, PBC_SEGMENT_MEMORY, 0, 64u << 20},
                               {2, PBC_SEGMENT_MEMORY, 0x1000000000ull, 16u << 20}};
    const char *why = NULL;
    pbc_gpu *g = pbc_gpu_create(segs, 2, &ref_isa, &why);
    T_CHECK_MSG(g != NULL, "%s", why ? why : "");
    g->va_root = ROOT;
    return g;
}

static uint64_t seg_flags(uint32_t segment) { return (uint64_t)segment << PBC_PTE_SEGMENT_SHIFT; }

/* Writes entry `index` of the table at `table` as the PTE micro-op does. */
static void put(pbc_gpu *g, uint64_t table, uint32_t index, uint64_t flags, uint64_t page_addr)
{
    pbc_uop u = {.kind = PBC_UOP_PTE_WRITE, .dst = table + index * PBC_PTE_SIZE, .value = flags,
                 .index = page_addr >> PBC_PAGE_SHIFT};
    T_CHECK(pbc_gpu_exec_uop(g, &u) == 0);
}

static uint32_t idx(uint64_t va, int level) { return (uint32_t)(va >> (12 + 9 * level)) & 511; }

/* Tables in segment 1 for va's 2 MiB region: root -> L1 -> leaf. */
static void tables_for(pbc_gpu *g, uint64_t va, uint64_t leaf)
{
    put(g, ROOT, idx(va, 2), PBC_PTE_VALID | seg_flags(1), L1);
    put(g, L1, idx(va, 1), PBC_PTE_VALID | seg_flags(1), leaf);
}

static int vwrite(pbc_gpu *g, uint64_t va, uint32_t value)
{
    pbc_uop u = {.kind = PBC_UOP_WRITE_IMM, .dst = va, .width = 4, .value = value, .flags = PBC_UOP_DST_VIRTUAL};
    return pbc_gpu_exec_uop(g, &u);
}

static uint32_t pread32(pbc_gpu *g, uint64_t pa)
{
    uint32_t v = 0;
    T_CHECK(pbc_gpu_read(g, pa, &v, 4) == 0);
    return v;
}

T_TEST(walk_three_levels_to_a_segment_page)
{
    pbc_gpu *g = make();
    uint64_t va = 0x40201000ull + 0x123 * 4;
    tables_for(g, va, L0);
    /* Segment 2's page 5: an offset into the segment, not an address. */
    put(g, L0, idx(va, 0), PBC_PTE_VALID | seg_flags(2), 5 * 4096);
    T_CHECK(vwrite(g, va, 0xC0FFEE11u) == 0);
    T_CHECK(pread32(g, 0x1000000000ull + 5 * 4096 + 0x123 * 4) == 0xC0FFEE11u);
    pbc_va_xlat x;
    const char *why = NULL;
    T_CHECK(pbc_gpu_va_walk(g, ROOT, va, &x, &why) == 0 && x.page == 0x1000000000ull + 5 * 4096 && !x.zero);
    T_CHECK(g->fault_count == 0);
    pbc_gpu_destroy(g);
}

T_TEST(stale_translation_until_flushed)
{
    pbc_gpu *g = make();
    uint64_t va = 0x200000ull;
    tables_for(g, va, L0);
    put(g, L0, 0, PBC_PTE_VALID | seg_flags(1), 0x400000);
    T_CHECK(vwrite(g, va, 1) == 0);
    put(g, L0, 0, PBC_PTE_VALID | seg_flags(1), 0x500000); /* the page moved */
    T_CHECK(vwrite(g, va, 2) == 0);
    T_CHECK(pread32(g, 0x400000) == 2 && pread32(g, 0x500000) == 0); /* the TLB still says the old page */
    pbc_uop f = {.kind = PBC_UOP_TLB_FLUSH, .value = ROOT, .dst = va + 4096, .size = 4096};
    T_CHECK(pbc_gpu_exec_uop(g, &f) == 0); /* another page: still stale */
    T_CHECK(vwrite(g, va, 3) == 0 && pread32(g, 0x400000) == 3);
    f.value = ROOT + 0x10000; /* another address space: still stale */
    f.dst = va;
    T_CHECK(pbc_gpu_exec_uop(g, &f) == 0);
    T_CHECK(vwrite(g, va, 4) == 0 && pread32(g, 0x400000) == 4);
    f.value = ROOT;
    T_CHECK(pbc_gpu_exec_uop(g, &f) == 0);
    T_CHECK(vwrite(g, va, 5) == 0 && pread32(g, 0x500000) == 5 && pread32(g, 0x400000) == 4);
    put(g, L0, 0, PBC_PTE_VALID | seg_flags(1), 0x600000);
    pbc_uop all = {.kind = PBC_UOP_TLB_FLUSH}; /* root 0, size 0: everything */
    T_CHECK(pbc_gpu_exec_uop(g, &all) == 0);
    T_CHECK(vwrite(g, va, 6) == 0 && pread32(g, 0x600000) == 6);
    T_CHECK(g->tlb_flushes == 4);
    pbc_gpu_destroy(g);
}

/* Maps n pages from va at segment address `from`, writes through each
 * (the TLB caches them), then moves every page to `to` in the tables
 * without a flush. */
static void cache_then_move(pbc_gpu *g, uint64_t va, uint32_t n, uint64_t from, uint64_t to)
{
    tables_for(g, va, L0);
    for (uint32_t i = 0; i < n; i++)
        put(g, L0, i, PBC_PTE_VALID | seg_flags(1), from + i * 4096ull);
    for (uint32_t i = 0; i < n; i++)
        T_CHECK(vwrite(g, va + i * 4096ull, i) == 0);
    for (uint32_t i = 0; i < n; i++)
        put(g, L0, i, PBC_PTE_VALID | seg_flags(1), to + i * 4096ull);
}

/* A flush that drops nothing, or some, leaves every other translation
 * where lookups find it (the TLB is a hash table it rebuilds). */
T_TEST(flush_keeps_what_it_does_not_cover)
{
    pbc_gpu *g = make();
    uint64_t va = 0x400000ull;
    cache_then_move(g, va, 100, 0x800000, 0xC00000);
    pbc_uop none = {.kind = PBC_UOP_TLB_FLUSH, .value = ROOT, .dst = 0x40000000ull, .size = 4096};
    T_CHECK(pbc_gpu_exec_uop(g, &none) == 0);
    pbc_uop some = {.kind = PBC_UOP_TLB_FLUSH, .value = ROOT, .dst = va, .size = 10 * 4096};
    T_CHECK(pbc_gpu_exec_uop(g, &some) == 0);
    for (uint32_t i = 0; i < 100; i++) {
        T_CHECK(vwrite(g, va + i * 4096ull, 1000 + i) == 0);
        uint64_t want = (i < 10 ? 0xC00000 : 0x800000) + i * 4096ull;
        T_CHECK_MSG(pread32(g, want) == 1000 + i, "page %u", i);
    }
    T_CHECK(g->tlb_count == 100);
    pbc_gpu_destroy(g);
}

/* Both ways a flush drops entries (page by page for a range smaller than
 * the TLB, a pass over the TLB for a larger one or a whole root) leave
 * exactly the others findable, however entries moved to fill holes. */
T_TEST(flush_by_lookup_and_by_scan_agree)
{
    pbc_gpu *g = make();
    uint64_t va = 0x400000ull;
    cache_then_move(g, va, 512, 0x800000, 0xC00000);
    T_CHECK(g->tlb_count == 512);
    /* Odd pages 1..99 by lookup (one page each), then 300..511 by a scan. */
    for (uint32_t i = 1; i < 100; i += 2) {
        pbc_uop one = {.kind = PBC_UOP_TLB_FLUSH, .value = ROOT, .dst = va + i * 4096ull, .size = 4096};
        T_CHECK(pbc_gpu_exec_uop(g, &one) == 0);
    }
    pbc_uop tail = {.kind = PBC_UOP_TLB_FLUSH, .value = ROOT, .dst = va + 300 * 4096ull, .size = 1ull << 30};
    T_CHECK(pbc_gpu_exec_uop(g, &tail) == 0);
    T_CHECK_MSG(g->tlb_count == 512 - 50 - 212, "%u entries", g->tlb_count);
    for (uint32_t i = 0; i < 512; i++) {
        T_CHECK(vwrite(g, va + i * 4096ull, 5000 + i) == 0);
        int flushed = (i < 100 && i % 2) || i >= 300;
        uint64_t want = (flushed ? 0xC00000 : 0x800000) + i * 4096ull;
        T_CHECK_MSG(pread32(g, want) == 5000 + i, "page %u", i);
    }
    T_CHECK(g->tlb_count == 512);
    /* After a reset nothing of the old entries answers, however their
     * index slots were chained: every page moves once more and every
     * access goes where the tables now say. */
    pbc_gpu_tlb_reset(g);
    T_CHECK(g->tlb_count == 0);
    for (uint32_t i = 0; i < 512; i++)
        put(g, L0, i, PBC_PTE_VALID | seg_flags(1), 0x1000000 + i * 4096ull);
    for (uint32_t i = 0; i < 512; i++) {
        T_CHECK(vwrite(g, va + i * 4096ull, 9000 + i) == 0);
        T_CHECK_MSG(pread32(g, 0x1000000 + i * 4096ull) == 9000 + i, "page %u after the reset", i);
    }
    /* The same with few entries in a large index (removed one by one),
     * forgotten by a reset or by a whole-TLB flush in turn. */
    pbc_gpu_tlb_reset(g);
    for (uint32_t round = 0; round < 4; round++) {
        uint64_t to = 0x1400000 + round * 0x200000ull;
        for (uint32_t i = 0; i < 100; i++)
            put(g, L0, i, PBC_PTE_VALID | seg_flags(1), to + i * 4096ull);
        for (uint32_t i = 0; i < 100; i++) {
            T_CHECK(vwrite(g, va + i * 4096ull, round * 1000 + i) == 0);
            T_CHECK_MSG(pread32(g, to + i * 4096ull) == round * 1000 + i, "round %u page %u", round, i);
        }
        T_CHECK(g->tlb_count == 100 && g->tlb_index_cap >= 1024);
        pbc_uop all = {.kind = PBC_UOP_TLB_FLUSH};
        if (round % 2)
            T_CHECK(pbc_gpu_exec_uop(g, &all) == 0);
        else
            pbc_gpu_tlb_reset(g);
        T_CHECK(g->tlb_count == 0);
    }
    pbc_gpu_destroy(g);
}

T_TEST(invalid_read_only_and_zero_entries)
{
    pbc_gpu *g = make();
    uint64_t va = 0x600000ull;
    tables_for(g, va, L0);
    put(g, L0, 0, 0, 0x400000);                                          /* not valid */
    put(g, L0, 1, PBC_PTE_VALID | PBC_PTE_READ_ONLY | seg_flags(1), 0x401000); /* read-only */
    put(g, L0, 2, PBC_PTE_VALID | PBC_PTE_ZERO, 0);                       /* zero */
    put(g, L0, 3, PBC_PTE_ZERO, 0);                                      /* zero, not valid */
    T_CHECK(vwrite(g, va, 1) == -1 && g->fault_count == 1 && g->faults[0].kind == PBC_FAULT_VA_INVALID);
    T_CHECK(vwrite(g, va + 4096, 1) == -1 && g->faults[1].kind == PBC_FAULT_VA_READ_ONLY);
    pbc_uop rd = {.kind = PBC_UOP_READ, .dst = va + 4096, .width = 8, .flags = PBC_UOP_DST_VIRTUAL};
    T_CHECK(pbc_gpu_exec_uop(g, &rd) == 0); /* reading a read-only page is fine */
    /* A zero page: writes vanish, a copy from it writes zeros. */
    T_CHECK(vwrite(g, va + 2 * 4096, 7) == 0 && vwrite(g, va + 3 * 4096, 7) == 0);
    uint32_t ones = 0xFFFFFFFFu;
    T_CHECK(pbc_gpu_write(g, 0x700000, &ones, 4) == 0);
    pbc_uop cp = {.kind = PBC_UOP_COPY, .dst = 0x700000, .src = va + 2 * 4096, .size = 4,
                  .flags = PBC_UOP_SRC_VIRTUAL};
    T_CHECK(pbc_gpu_exec_uop(g, &cp) == 0 && pread32(g, 0x700000) == 0);
    T_CHECK(g->fault_count == 2);
    /* No address space at all. */
    g->va_root = 0;
    T_CHECK(vwrite(g, va + 2 * 4096, 7) == -1 && g->faults[2].kind == PBC_FAULT_VA_INVALID);
    pbc_gpu_destroy(g);
}

T_TEST(sixty_four_k_leaves_and_large_pages)
{
    pbc_gpu *g = make();
    uint64_t va = 0x800000ull; /* a 2 MiB region */
    put(g, ROOT, idx(va, 2), PBC_PTE_VALID | seg_flags(1), L1);
    put(g, L1, idx(va, 1), PBC_PTE_VALID | seg_flags(1) | (1ull << PBC_PTE_PT_PAGE_SIZE_SHIFT), L0);
    put(g, L0, 3, PBC_PTE_VALID | seg_flags(1), 0x1000000); /* 64 KiB page 3 */
    T_CHECK(vwrite(g, va + 3 * 0x10000 + 0x5678, 0xAB) == 0);
    T_CHECK(pread32(g, 0x1000000 + 0x5678) == 0xAB);
    /* Read as a 4 KiB leaf, entry 3 would be bytes 0x3000..: not what the GPU used. */
    put(g, L1, idx(va, 1) + 1, PBC_PTE_VALID | PBC_PTE_LARGE_PAGE | seg_flags(1), 0x1200000);
    T_CHECK(vwrite(g, va + 0x200000 + 0x12344, 0xCD) == 0);
    T_CHECK(pread32(g, 0x1200000 + 0x12344) == 0xCD);
    /* A 64 KiB page must be aligned to 64 KiB. */
    put(g, L0, 4, PBC_PTE_VALID | seg_flags(1), 0x1001000);
    T_CHECK(vwrite(g, va + 4 * 0x10000, 1) == -1 && g->faults[0].kind == PBC_FAULT_VA_INVALID);
    pbc_gpu_destroy(g);
}

/* A walk that remembers its leaf answers as a full walk does, starts from
 * that leaf only within its 2 MiB region, space and page size, and does
 * not remember a large page (which has no leaf). */
T_TEST(walk_memo_starts_from_the_leaf_of_its_region_only)
{
    pbc_gpu *g = make();
    uint64_t va = 0x40200000ull, next = va + 0x200000; /* two 2 MiB regions, one directory */
    tables_for(g, va, L0);
    tables_for(g, next, L0B);
    for (uint32_t i = 0; i < 4; i++) {
        put(g, L0, i, PBC_PTE_VALID | seg_flags(2), (uint64_t)(10 + i) * 4096);
        put(g, L0B, i, PBC_PTE_VALID | seg_flags(2) | PBC_PTE_READ_ONLY, (uint64_t)(20 + i) * 4096);
    }
    pbc_va_walk_memo m = {0};
    pbc_va_xlat x, y;
    const char *why = NULL, *why2 = NULL;
    for (uint32_t i = 0; i < 4; i++) {
        T_CHECK(pbc_gpu_va_walk_memo(g, ROOT, va + i * 4096ull, &x, &why, &m) == 0);
        T_CHECK(pbc_gpu_va_walk(g, ROOT, va + i * 4096ull, &y, &why2) == 0);
        T_CHECK(x.page == y.page && x.page == 0x1000000000ull + (10 + i) * 4096ull && !x.read_only);
        T_CHECK(m.valid && m.leaf == L0);
    }
    /* The next region: its own leaf, found through the directory again. */
    T_CHECK(pbc_gpu_va_walk_memo(g, ROOT, next + 4096, &x, &why, &m) == 0);
    T_CHECK(x.page == 0x1000000000ull + 21 * 4096ull && x.read_only && m.leaf == L0B);
    /* Back in the first region, and a page not valid there: the same fault
     * and reason as a full walk's. */
    T_CHECK(pbc_gpu_va_walk_memo(g, ROOT, va + 7 * 4096ull, &x, &why, &m) != 0);
    T_CHECK(pbc_gpu_va_walk(g, ROOT, va + 7 * 4096ull, &y, &why2) != 0 && strcmp(why, why2) == 0);
    /* It starts from the leaf it remembers: the directories are not read
     * again (the caller's promise is that they do not change). */
    T_CHECK(pbc_gpu_va_walk_memo(g, ROOT, va, &x, &why, &m) == 0 && m.leaf == L0);
    put(g, L1, idx(va, 1), 0, 0);
    T_CHECK(pbc_gpu_va_walk_memo(g, ROOT, va + 4096, &x, &why, &m) == 0 && x.page == 0x1000000000ull + 11 * 4096ull);
    T_CHECK(pbc_gpu_va_walk(g, ROOT, va + 4096, &y, &why2) != 0);
    /* Another space's root is walked in full. */
    T_CHECK(pbc_gpu_va_walk_memo(g, ROOT + 0x10000, va + 4096, &x, &why, &m) != 0);
    /* A leaf of 64 KiB pages is remembered as one: the next 64 KiB page of
     * its region is read from it as such. */
    uint64_t r64 = va + 0x600000;
    put(g, L1, idx(r64, 1), PBC_PTE_VALID | seg_flags(1) | (1ull << PBC_PTE_PT_PAGE_SIZE_SHIFT), 0x108000);
    put(g, 0x108000, 1, PBC_PTE_VALID | seg_flags(1), 0x1010000);
    put(g, 0x108000, 2, PBC_PTE_VALID | seg_flags(1), 0x1040000);
    T_CHECK(pbc_gpu_va_walk_memo(g, ROOT, r64 + 0x10000, &x, &why, &m) == 0 && x.page == 0x1010000);
    T_CHECK(m.valid && m.leaf == 0x108000 && m.entries_64k);
    T_CHECK(pbc_gpu_va_walk_memo(g, ROOT, r64 + 0x23000, &x, &why, &m) == 0 && x.page == 0x1043000);
    /* A large page is not a leaf to remember. */
    pbc_va_walk_memo big = {0};
    put(g, L1, idx(va, 1) + 2, PBC_PTE_VALID | PBC_PTE_LARGE_PAGE | seg_flags(1), 0x1200000);
    T_CHECK(pbc_gpu_va_walk_memo(g, ROOT, va + 0x400000 + 0x3000, &x, &why, &big) == 0 && x.page == 0x1203000);
    T_CHECK(!big.valid);
    pbc_gpu_destroy(g);
}

T_TEST(pieces_cross_pages_and_keep_the_fill_phase)
{
    pbc_gpu *g = make();
    uint64_t va = 0xA00000ull;
    tables_for(g, va, L0B);
    put(g, L0B, 0, PBC_PTE_VALID | seg_flags(1), 0x2000000);
    put(g, L0B, 1, PBC_PTE_VALID | seg_flags(1), 0x3000000); /* not the next page */
    pbc_uop f = {.kind = PBC_UOP_FILL, .dst = va + 4094, .size = 8, .value = 0x44332211u,
                 .flags = PBC_UOP_DST_VIRTUAL};
    T_CHECK(pbc_gpu_exec_uop(g, &f) == 0);
    uint8_t a[2] = {0}, b[6] = {0};
    T_CHECK(pbc_gpu_read(g, 0x2000000 + 4094, a, 2) == 0 && pbc_gpu_read(g, 0x3000000, b, 6) == 0);
    T_CHECK(a[0] == 0x11 && a[1] == 0x22 && b[0] == 0x33 && b[1] == 0x44 && b[2] == 0x11 && b[5] == 0x44);
    /* A copy virtual to virtual, both sides crossing. */
    pbc_uop c = {.kind = PBC_UOP_COPY, .dst = va + 4090, .src = va + 4094, .size = 8,
                 .flags = PBC_UOP_DST_VIRTUAL | PBC_UOP_SRC_VIRTUAL};
    T_CHECK(pbc_gpu_exec_uop(g, &c) == 0);
    uint8_t d[8];
    T_CHECK(pbc_gpu_read(g, 0x2000000 + 4090, d, 6) == 0 && pbc_gpu_read(g, 0x3000000, d + 6, 2) == 0);
    T_CHECK(d[0] == 0x11 && d[1] == 0x22 && d[2] == 0x33 && d[3] == 0x44 && d[7] == 0x44);
    /* A page table in system memory: segment 0, the offset is the physical address. */
    uint64_t sys = pbc_gpu_alloc_system_page(g);
    put(g, L0B, 2, PBC_PTE_VALID, sys);
    T_CHECK(vwrite(g, va + 2 * 4096 + 8, 0x5A5A) == 0 && pread32(g, sys + 8) == 0x5A5A);
    /* A PTE written through a virtual address lands where the tables say. */
    pbc_uop pte = {.kind = PBC_UOP_PTE_WRITE, .dst = va + 16, .value = 0x1234, .index = 0x5678,
                   .flags = PBC_UOP_DST_VIRTUAL};
    T_CHECK(pbc_gpu_exec_uop(g, &pte) == 0 && pread32(g, 0x2000000 + 16) == 0x1234 &&
            pread32(g, 0x2000000 + 24) == 0x5678);
    T_CHECK(g->fault_count == 0);
    pbc_gpu_reset(g); /* power-on: no address space, an empty TLB */
    T_CHECK(g->va_root == 0 && g->tlb_count == 0);
    pbc_gpu_destroy(g);
}

/* A GPU with its own 8-byte entries (bit 0 valid, bit 1 read-only, page
 * number from bit 12): the PTE micro-op writes 8 bytes, and the walk
 * reads entries through the ISA's decoder, 8 bytes apart. */
static int tiny_decode(const uint8_t *entry, uint32_t level, uint64_t *flags, uint64_t *page)
{
    uint64_t n;
    memcpy(&n, entry, sizeof(n));
    (void)level;
    if (n & 0x4)
        return -1; /* a bit this GPU rejects */
    *flags = (n & 1 ? PBC_PTE_VALID : 0) | (n & 2 ? PBC_PTE_READ_ONLY : 0) | seg_flags(1);
    *page = n >> 12;
    return 0;
}

T_TEST(own_entry_format_is_read_through_the_decoder)
{
    pbc_isa tiny = ref_isa;
    tiny.pte_size = 8;
    tiny.pte_decode = tiny_decode;
    pbc_segment_info segs[] = {{1, PBC_SEGMENT_MEMORY, 0, 64u << 20}};
    const char *why = NULL;
    pbc_gpu *g = pbc_gpu_create(segs, 1, &tiny, &why);
    T_CHECK_MSG(g != NULL, "%s", why ? why : "");
    if (!g)
        return;
    g->va_root = ROOT;
    uint64_t va = 0x40000000ull + 5 * 4096;
    pbc_uop poison = {.kind = PBC_UOP_FILL, .dst = ROOT, .size = 3 * 8192, .value = 0xFFFFFFFF};
    T_CHECK(pbc_gpu_exec_uop(g, &poison) == 0);
    pbc_uop u = {.kind = PBC_UOP_PTE_WRITE, .dst = ROOT + idx(va, 2) * 8, .value = L1 | 1};
    T_CHECK(pbc_gpu_exec_uop(g, &u) == 0);
    T_CHECK(pread32(g, ROOT + idx(va, 2) * 8 + 8) == 0xFFFFFFFF); /* 8 bytes written, not 16 */
    u.dst = L1 + idx(va, 1) * 8, u.value = L0 | 1;
    T_CHECK(pbc_gpu_exec_uop(g, &u) == 0);
    u.dst = L0 + idx(va, 0) * 8, u.value = 0x300000 | 1;
    T_CHECK(pbc_gpu_exec_uop(g, &u) == 0);
    T_CHECK(vwrite(g, va + 8, 0xC0FFEE) == 0);
    T_CHECK(pread32(g, 0x300008) == 0xC0FFEE);
    pbc_va_xlat x;
    T_CHECK(pbc_gpu_va_walk(g, ROOT, va, &x, &why) == 0 && x.page == 0x300000 && !x.read_only);
    u.dst = L0 + idx(va + 4096, 0) * 8, u.value = 0x301000 | 3; /* read-only */
    T_CHECK(pbc_gpu_exec_uop(g, &u) == 0);
    T_CHECK(vwrite(g, va + 4096, 1) != 0 && g->faults[g->fault_count - 1].kind == PBC_FAULT_VA_READ_ONLY);
    u.dst = L0 + idx(va + 8192, 0) * 8, u.value = 0x302000 | 5; /* rejected */
    T_CHECK(pbc_gpu_exec_uop(g, &u) == 0);
    T_CHECK(pbc_gpu_va_walk(g, ROOT, va + 8192, &x, &why) != 0 && strstr(why, "rejects"));
    pbc_gpu_destroy(g);
}

T_MAIN()
