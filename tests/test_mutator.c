/* The structure-aware mutator (fuzz/mutate.c): each mutation does what it
 * says to the scenario, outputs fit and decode, the byte-level fallback is
 * used when asked, and cross-over keeps a prefix of the first input. */
#include <dirent.h>
#include <stdlib.h>

#include "gpu/gpu.h"
#include "mutate.h"
#include "t.h"

static void load(const char *name, pbc_scenario *s)
{
    char path[512], err[512];
    snprintf(path, sizeof(path), "%s/%s", PBC_SEEDS_DIR, name);
    T_CHECK_MSG(pbc_scenario_load(path, s, err, sizeof(err)) == 0, "%s", err);
}

/* Whether every op of s is legal in order (what a real VidMm could issue). */
static int legal(const pbc_scenario *s)
{
    char why[256];
    return pbc_scenario_validate(s, why, sizeof(why)) == 0;
}

static int count_kind(const pbc_scenario *s, uint32_t kind)
{
    int n = 0;
    for (uint32_t i = 0; i < s->op_count; i++)
        n += s->ops[i].kind == kind;
    return n;
}

/* An insertion adds one operation, legal where it is put, and about half
 * the time on the allocation the operation before it names (stories, for
 * state a builder keeps between operations). */
T_TEST(insert_adds_one_legal_operation)
{
    pbc_scenario s;
    load("everything.pbs", &s);
    pbc_rng r = {1};
    int after_one = 0, chained = 0;
    for (int i = 0; i < 200; i++) {
        pbc_scenario c;
        load("everything.pbs", &c);
        uint32_t before = c.op_count;
        T_CHECK(pbc_mutate_scenario(&c, PBC_MUT_INSERT, NULL, &r) == 1);
        T_CHECK(c.op_count == before + 1);
        /* The new op is legal where it was put: find it and check the prefix. */
        uint32_t at = 0;
        while (at < before && !memcmp(&c.ops[at], &s.ops[at], sizeof(pbc_sop)))
            at++;
        pbc_scenario prefix = c;
        prefix.op_count = at + 1;
        T_CHECK_MSG(legal(&prefix), "inserted op %u is illegal", at);
        int before_alloc = -1;
        for (uint32_t k = 0; k < at; k++)
            if (pbc_sop_has_alloc(c.ops[k].kind))
                before_alloc = (int)c.ops[k].alloc;
        if (before_alloc >= 0 && pbc_sop_has_alloc(c.ops[at].kind)) {
            after_one++;
            chained += (int)c.ops[at].alloc == before_alloc;
        }
        pbc_scenario_fini(&c);
    }
    T_CHECK_MSG(s.alloc_count >= 3 && chained * 2 > after_one, "%d of %d on the allocation before", chained,
                after_one);
    pbc_scenario_fini(&s);
}

T_TEST(delete_duplicate_reorder)
{
    pbc_rng r = {2};
    pbc_scenario c;
    load("everything.pbs", &c);
    uint32_t n = c.op_count;
    T_CHECK(pbc_mutate_scenario(&c, PBC_MUT_DELETE, NULL, &r) == 1 && c.op_count < n);
    n = c.op_count;
    T_CHECK(pbc_mutate_scenario(&c, PBC_MUT_DUPLICATE, NULL, &r) == 1 && c.op_count == n + 1);
    /* Reordering keeps the multiset of kinds. */
    int kinds[PBC_SOP_COUNT];
    for (uint32_t k = 0; k < PBC_SOP_COUNT; k++)
        kinds[k] = count_kind(&c, k);
    T_CHECK(pbc_mutate_scenario(&c, PBC_MUT_REORDER, NULL, &r) == 1 && c.op_count == n + 1);
    for (uint32_t k = 0; k < PBC_SOP_COUNT; k++)
        T_CHECK(kinds[k] == count_kind(&c, k));
    pbc_scenario_fini(&c);
    /* Nothing to delete or reorder in an empty scenario. */
    pbc_scenario e;
    pbc_scenario_init(&e);
    pbc_scenario_default_layout(&e);
    T_CHECK(pbc_mutate_scenario(&e, PBC_MUT_DELETE, NULL, &r) == 0);
    T_CHECK(pbc_mutate_scenario(&e, PBC_MUT_REORDER, NULL, &r) == 0);
    T_CHECK(pbc_mutate_scenario(&e, PBC_MUT_ALLOC, NULL, &r) == 1 && e.alloc_count == 1);
    pbc_scenario_fini(&e);
}

T_TEST(splice_takes_operations_of_the_other_input)
{
    pbc_rng r = {3};
    pbc_scenario a, b;
    load("fill-basic.pbs", &a);
    load("map-access-unmap-dummy.pbs", &b);
    uint32_t n = a.op_count;
    int maps_before = count_kind(&a, PBC_SOP_MAP), grew = 0;
    for (int i = 0; i < 20; i++)
        grew |= pbc_mutate_scenario(&a, PBC_MUT_SPLICE, &b, &r) && count_kind(&a, PBC_SOP_MAP) > maps_before;
    T_CHECK(grew && a.op_count > n);
    for (uint32_t i = 0; i < a.op_count; i++)
        T_CHECK(!pbc_sop_has_alloc(a.ops[i].kind) || a.ops[i].alloc < a.alloc_count);
    T_CHECK(pbc_mutate_scenario(&a, PBC_MUT_SPLICE, NULL, &r) == 0);
    pbc_scenario_fini(&a);
    pbc_scenario_fini(&b);
}

/* Tweaks land on the boundaries: DMA sizes around packet and page sizes,
 * splits of one page per sub-transfer, offsets at a segment's end. */
T_TEST(tweak_reaches_boundaries)
{
    pbc_rng r = {4};
    int dma_min = 0, dma_page = 0, split_pages = 0, seg_end = 0;
    for (int i = 0; i < 3000; i++) {
        pbc_scenario c;
        load("everything.pbs", &c);
        T_CHECK(pbc_mutate_scenario(&c, PBC_MUT_TWEAK, NULL, &r) == 1);
        for (uint32_t k = 0; k < c.op_count; k++) {
            const pbc_sop *o = &c.ops[k];
            dma_min |= o->kind == PBC_SOP_DMA && o->dma_size == 24;
            dma_page |= o->kind == PBC_SOP_DMA && o->dma_size == 4096;
            split_pages |= o->kind == PBC_SOP_TRANSFER && o->split == pbc_alloc_pages(&c.allocs[o->alloc]) &&
                           o->split > 2;
            seg_end |= o->kind == PBC_SOP_TRANSFER && o->at.segment == 2 &&
                       o->at.offset + c.allocs[o->alloc].size == c.segments[1].size;
        }
        pbc_scenario_fini(&c);
    }
    T_CHECK(dma_min && dma_page && split_pages && seg_end);
}

T_TEST(busy_puts_render_work_before_a_use)
{
    pbc_rng r = {5};
    pbc_scenario c;
    load("transfer-split3.pbs", &c);
    int renders = count_kind(&c, PBC_SOP_RENDER_WRITE), ok = 0;
    for (int i = 0; i < 20 && !ok; i++)
        if (pbc_mutate_scenario(&c, PBC_MUT_BUSY, NULL, &r)) {
            for (uint32_t k = 0; k + 1 < c.op_count; k++)
                ok |= c.ops[k].kind == PBC_SOP_RENDER_WRITE && pbc_sop_has_alloc(c.ops[k + 1].kind) &&
                      c.ops[k + 1].alloc == c.ops[k].alloc;
        }
    T_CHECK(ok && count_kind(&c, PBC_SOP_RENDER_WRITE) > renders);
    pbc_scenario_fini(&c);
}

/* again repeats an operation on its allocation: the copy follows it at
 * once or after a discard, render work, or both on that allocation, each
 * seen over a few calls, a fill's copy keeps its pattern, and a move of
 * the allocation often comes next. */
T_TEST(again_repeats_an_operation_on_its_allocation)
{
    pbc_rng r = {9};
    int plain = 0, discard = 0, render = 0, same_fill = 0, moved = 0;
    for (int i = 0; i < 60; i++) {
        pbc_scenario c;
        load("fill-basic.pbs", &c);
        uint32_t n = c.op_count;
        if (!pbc_mutate_scenario(&c, PBC_MUT_AGAIN, NULL, &r)) {
            pbc_scenario_fini(&c);
            continue;
        }
        T_CHECK(c.op_count > n);
        for (uint32_t k = 0; k + 1 < c.op_count; k++) {
            const pbc_sop *a = &c.ops[k];
            if (!pbc_sop_has_alloc(a->kind))
                continue;
            for (uint32_t gap = 1; gap <= 3 && k + gap < c.op_count; gap++) {
                const pbc_sop *b = &c.ops[k + gap];
                if (memcmp(a, b, sizeof(*a)))
                    continue;
                const pbc_sop *mid = &c.ops[k + 1], *last = &c.ops[k + gap - 1];
                plain += gap == 1;
                discard += gap >= 2 && last->kind == PBC_SOP_DISCARD && last->alloc == a->alloc;
                render += gap >= 2 && mid->kind == PBC_SOP_RENDER_WRITE && mid->alloc == a->alloc;
                same_fill += a->kind == PBC_SOP_FILL;
                moved += k + gap + 1 < c.op_count && c.ops[k + gap + 1].kind == PBC_SOP_TRANSFER &&
                         c.ops[k + gap + 1].alloc == a->alloc;
            }
        }
        pbc_scenario_fini(&c);
    }
    T_CHECK_MSG(plain && discard && render && same_fill && moved > 10,
                "%d plain, %d after a discard, %d after render work, %d fills, %d then moved", plain, discard, render,
                same_fill, moved);
}

/* evict moves every allocation a segment holds at one point to system
 * memory, one after another, sometimes with render work on the first just
 * before, half the time right after a move into a segment; what it makes
 * is legal. */
T_TEST(evict_empties_the_segments_at_one_point)
{
    static const char text[] = "pbs 1\n"
                               "alloc A size=16K at=1:0x0\n"
                               "alloc B size=8K at=system\n"
                               "alloc C size=4K at=none\n"
                               "transfer B to=1:0x20000\n"
                               "fill C to=1:0x10000 pattern=0x12345678\n"
                               "end\n";
    pbc_rng r = {11};
    int emptied = 0, busy_first = 0, after_move_in = 0;
    for (int i = 0; i < 40; i++) {
        pbc_scenario c;
        char err[256];
        T_CHECK_MSG(pbc_scenario_parse(text, sizeof(text) - 1, "evict", &c, err, sizeof(err)) == 0, "%s", err);
        uint32_t n = c.op_count;
        T_CHECK(pbc_mutate_scenario(&c, PBC_MUT_EVICT, NULL, &r) == 1);
        T_CHECK(legal(&c) && c.op_count > n);
        /* The evictions: a run of transfers to system memory ending where
         * nothing is left in a segment. */
        pbc_residency res;
        T_CHECK(pbc_residency_init(&res, &c) == NULL);
        for (uint32_t k = 0; k < c.op_count; k++) {
            pbc_residency_apply(&res, &c.ops[k]);
            const pbc_sop *o = &c.ops[k];
            if (o->kind != PBC_SOP_TRANSFER || o->at.segment)
                continue;
            uint32_t left = 0;
            for (uint32_t a = 0; a < c.alloc_count; a++)
                left += res.a[a].where == PBC_WHERE_SEGMENT;
            if (left)
                continue;
            emptied++;
            uint32_t first = k;
            while (first > 0 && c.ops[first - 1].kind == PBC_SOP_TRANSFER && !c.ops[first - 1].at.segment)
                first--;
            busy_first += first > 0 && c.ops[first - 1].kind == PBC_SOP_RENDER_WRITE &&
                          c.ops[first - 1].alloc == c.ops[first].alloc;
            const pbc_sop *before = first > 0 && c.ops[first - 1].kind == PBC_SOP_RENDER_WRITE
                                        ? (first > 1 ? &c.ops[first - 2] : NULL)
                                        : (first > 0 ? &c.ops[first - 1] : NULL);
            after_move_in += before && before->kind == PBC_SOP_TRANSFER && before->at.segment;
            break;
        }
        pbc_residency_fini(&res);
        pbc_scenario_fini(&c);
    }
    T_CHECK_MSG(emptied == 40 && busy_first >= 10 && after_move_in >= 20,
                "%d of 40 emptied the segments, %d with render work first, %d right after a move in", emptied,
                busy_first, after_move_in);
}

/* phys changes the physical layout of exactly one allocation, and over
 * a few calls reaches every layout; the result encodes (version 2) and
 * decodes back. */
T_TEST(phys_changes_one_layout)
{
    pbc_rng r = {6};
    pbc_scenario c;
    load("everything.pbs", &c);
    int seen[PBC_PHYS_COUNT] = {0};
    for (int i = 0; i < 40; i++) {
        pbc_scenario before = c;
        before.allocs = malloc(c.alloc_count * sizeof(*c.allocs));
        memcpy(before.allocs, c.allocs, c.alloc_count * sizeof(*c.allocs));
        T_CHECK(pbc_mutate_scenario(&c, PBC_MUT_PHYS, NULL, &r) == 1);
        int changed = 0;
        for (uint32_t a = 0; a < c.alloc_count; a++)
            if (c.allocs[a].phys != before.allocs[a].phys) {
                changed++;
                seen[c.allocs[a].phys]++;
            }
        T_CHECK(changed == 1);
        free(before.allocs);
    }
    for (uint32_t k = 0; k < PBC_PHYS_COUNT; k++)
        T_CHECK_MSG(seen[k] > 0, "layout %s never chosen", pbc_phys_name(k));
    uint8_t *enc;
    size_t n = pbc_scenario_encode(&c, &enc);
    pbc_scenario d;
    pbc_scenario_decode(enc, n, &d);
    T_CHECK(pbc_scenario_equal(&c, &d));
    free(enc);
    pbc_scenario_fini(&d);
    pbc_scenario_fini(&c);
    pbc_scenario e;
    pbc_scenario_init(&e);
    pbc_scenario_default_layout(&e);
    T_CHECK(pbc_mutate_scenario(&e, PBC_MUT_PHYS, NULL, &r) == 0);
    pbc_scenario_fini(&e);
}

/* The layout move always leaves a layout the GPU model builds, reaches
 * the boundaries it names (a 4 GiB aperture, a segment above 4 GiB, one
 * ending on a 4 GiB line) and paging buffers in a memory segment (S40);
 * an aperture it resizes gets maps on its far pages (past a 16-bit GART
 * index where it has them),
 * and the result survives encoding: decoding keeps the layout and the
 * paging buffers' place and folds placements into it. */
T_TEST(layout_move_reaches_wide_layouts)
{
    pbc_rng r = {7};
    int ap4g = 0, high = 0, on_line = 0, changed = 0, paging = 0, far = 0;
    for (int i = 0; i < 200; i++) {
        pbc_scenario c;
        load("everything.pbs", &c);
        pbc_segment_info before[PBC_MAX_SEGMENTS];
        memcpy(before, c.segments, sizeof(before));
        uint32_t paging_before = c.paging_segment;
        if (pbc_mutate_scenario(&c, PBC_MUT_LAYOUT, NULL, &r))
            changed += memcmp(before, c.segments, sizeof(before)) != 0 || c.paging_segment != paging_before;
        paging += c.paging_segment != 0;
        T_CHECK(!c.paging_segment || (c.segments[c.paging_segment - 1].kind == PBC_SEGMENT_MEMORY &&
                                      c.segments[c.paging_segment - 1].size > PBC_PAGING_WINDOW));
        T_CHECK(pbc_gpu_layout_check(c.segments, c.segment_count) == NULL);
        for (uint32_t k = 0; k < c.segment_count; k++) {
            const pbc_segment_info *g = &c.segments[k];
            ap4g |= g->kind == PBC_SEGMENT_APERTURE && g->size == (4ull << 30);
            high |= g->kind == PBC_SEGMENT_MEMORY && g->base >= (4ull << 30);
            on_line |= g->kind == PBC_SEGMENT_MEMORY && ((g->base + g->size) & ((4ull << 30) - 1)) == 0 &&
                       g->base + g->size > (4ull << 30);
        }
        uint8_t *enc;
        size_t n = pbc_scenario_encode(&c, &enc);
        pbc_scenario d;
        pbc_scenario_decode(enc, n, &d);
        T_CHECK(d.segment_count == c.segment_count &&
                memcmp(d.segments, c.segments, c.segment_count * sizeof(c.segments[0])) == 0);
        T_CHECK(d.paging_segment == c.paging_segment);
        T_CHECK(legal(&d));
        for (uint32_t k = 0; k < d.op_count; k++) /* a map that starts past what a 16-bit GART index names */
            far += d.ops[k].kind == PBC_SOP_MAP && d.ops[k].at.offset >= 65536;
        free(enc);
        pbc_scenario_fini(&d);
        pbc_scenario_fini(&c);
    }
    T_CHECK_MSG(changed > 150, "%d of 200 changed the layout", changed);
    T_CHECK_MSG(paging >= 20, "%d of 200 with paging buffers in a segment", paging);
    T_CHECK(ap4g && high && on_line);
    T_CHECK_MSG(far >= 2, "%d maps starting past the 65,536th page of an aperture", far);
    /* Without a map to move, one is made there. */
    int made = 0;
    for (int i = 0; i < 200; i++) {
        pbc_scenario c;
        load("cpu-copy-into-busy-range.pbs", &c);
        uint32_t maps = 0;
        for (uint32_t k = 0; k < c.op_count; k++)
            maps += c.ops[k].kind == PBC_SOP_MAP;
        T_CHECK(maps == 0);
        pbc_mutate_scenario(&c, PBC_MUT_LAYOUT, NULL, &r);
        uint8_t *enc;
        size_t len = pbc_scenario_encode(&c, &enc);
        pbc_scenario d; /* what the decoder keeps of it */
        pbc_scenario_decode(enc, len, &d);
        for (uint32_t k = 0; k < d.op_count; k++)
            made += d.ops[k].kind == PBC_SOP_MAP && d.ops[k].at.offset >= 65536 &&
                    d.segments[d.ops[k].at.segment - 1].size > (256ull << 20);
        free(enc);
        pbc_scenario_fini(&d);
        pbc_scenario_fini(&c);
    }
    T_CHECK_MSG(made >= 2, "%d maps made starting past the 65,536th page of a resized aperture", made);
}

static int byte_calls;
static size_t count_bytes(uint8_t *d, size_t n, size_t max)
{
    (void)d;
    (void)max;
    byte_calls++;
    return n;
}

/* Outputs fit, differ from the input most of the time, and decode to
 * scenarios with operations; PBC_MUTATOR=bytes uses the byte mutator only. */
T_TEST(mutate_bytes_in_and_out)
{
    pbc_scenario s;
    load("everything.pbs", &s);
    uint8_t *enc;
    size_t n = pbc_scenario_encode(&s, &enc);
    uint8_t buf[4096];
    int changed = 0;
    byte_calls = 0;
    pbc_mutator mu;
    pbc_mutator_init(&mu);
    for (uint32_t seed = 0; seed < 500; seed++) {
        memcpy(buf, enc, n);
        size_t m = pbc_mutate(&mu, buf, n, sizeof(buf), enc, n, seed, count_bytes);
        T_CHECK(m <= sizeof(buf));
        changed += m != n || memcmp(buf, enc, n);
    }
    T_CHECK_MSG(changed > 400, "only %d of 500 mutations changed the input", changed);
    T_CHECK(byte_calls > 0 && byte_calls < 100); /* the fallback is used, rarely */
    /* A small max_size is respected, whatever the mutation wants. */
    for (uint32_t seed = 0; seed < 200; seed++) {
        memcpy(buf, enc, 20);
        T_CHECK(pbc_mutate(&mu, buf, 20, 24, enc, n, seed, count_bytes) <= 24);
    }
    pbc_mutator_fini(&mu);
    setenv("PBC_MUTATOR", "bytes", 1);
    pbc_mutator_init(&mu);
    byte_calls = 0;
    memcpy(buf, enc, n);
    T_CHECK(pbc_mutate(&mu, buf, n, sizeof(buf), NULL, 0, 1, count_bytes) == n && byte_calls == 1);
    pbc_mutator_fini(&mu);
    unsetenv("PBC_MUTATOR");
    free(enc);
    pbc_scenario_fini(&s);
}

static int op_in(const pbc_sop *o, const pbc_scenario *s, uint32_t fold)
{
    for (uint32_t i = 0; i < s->op_count; i++) {
        pbc_sop x = s->ops[i];
        x.line = 0;
        x.alloc = fold ? x.alloc % fold : x.alloc;
        if (!memcmp(&x, o, sizeof(x)))
            return 1;
    }
    return 0;
}

/* Cross-over takes a's allocations, a prefix of a's operations and a run of
 * b's: every resulting op comes from one of them, and b's do show up. */
T_TEST(crossover_combines_operations)
{
    pbc_scenario a, b, c;
    load("everything.pbs", &a);
    load("busy-retry-split-multibuffer.pbs", &b);
    uint8_t *ea, *eb, out[4096];
    size_t na = pbc_scenario_encode(&a, &ea), nb = pbc_scenario_encode(&b, &eb);
    int from_b = 0;
    pbc_mutator mu;
    pbc_mutator_init(&mu);
    for (uint32_t seed = 0; seed < 50; seed++) {
        size_t n = pbc_crossover(&mu, ea, na, eb, nb, out, sizeof(out), seed);
        T_CHECK(n > 0 && n <= sizeof(out));
        pbc_scenario_decode(out, n, &c);
        T_CHECK(c.alloc_count == a.alloc_count);
        for (uint32_t i = 0; i < c.op_count; i++) {
            int in_a = op_in(&c.ops[i], &a, 0), in_b = op_in(&c.ops[i], &b, a.alloc_count);
            T_CHECK_MSG(in_a || in_b, "seed %u: op %u comes from neither input", seed, i);
            from_b += !in_a && in_b;
        }
        pbc_scenario_fini(&c);
    }
    T_CHECK(from_b > 0);
    pbc_mutator_fini(&mu);
    free(ea);
    free(eb);
    pbc_scenario_fini(&a);
    pbc_scenario_fini(&b);
}

T_MAIN()
