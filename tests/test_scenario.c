/* Scenario formats. Text: one test per class of bad input (message and
 * position), and parse/print round trips over the seed corpus. Binary:
 * round trips, and any byte string decodes to a valid scenario. */
#include <dirent.h>

#include "base/util.h"
#include "scenario/gen.h"
#include "scenario/scenario.h"

#include "t.h"

#define BIN_ALLOC 0 /* record type of an allocation */

static const char *bad(const char *text, size_t len)
{
    static char err[512];
    pbc_scenario s;
    err[0] = 0;
    int rc = pbc_scenario_parse(text, len, "x.pbs", &s, err, sizeof(err));
    T_CHECK_MSG(rc == -1, "accepted: %s", text);
    T_CHECK(s.op_count == 0 && s.alloc_count == 0); /* nothing half-built survives */
    return err;
}
#define BAD(text) bad(text, strlen(text))

T_TEST(unknown_keyword)
{
    T_CHECK(!strcmp(BAD("pbs 1\nalloc A size=4K\n  tranfser A to=system\nend\n"),
                    "x.pbs:3:3: unknown keyword 'tranfser'"));
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=4K bogus=1\nend\n"), "x.pbs:2:17: unexpected 'bogus=1'"));
}

/* D3DDDI_MAPGPUVIRTUALADDRESS requests VidMm refuses (S49-S54), each
 * with the reason, and ranges it places (S50). */
T_TEST(va_requests_refused_as_vidmm_refuses)
{
#define VA_HEAD "pbs 1\nalloc A size=64K at=1:0x100000\nalloc B size=16K at=1:0x200000\n"
    T_CHECK(strstr(BAD(VA_HEAD "va-map A va=0x10800\nend\n"), "aligned to a CPU page (S49)"));
    T_CHECK(strstr(BAD(VA_HEAD "va-map A va=0x100000\nva-map B va=0x10c000\nend\n"),
                   "neither free nor within one range reserved before (S49)"));
    T_CHECK(strstr(BAD(VA_HEAD "va-zero count=8 va=0x100000\nva-map B va=0x106000\nend\n"),
                   "neither free nor within one range reserved before (S49)")); /* runs past the reservation */
    T_CHECK(strstr(BAD(VA_HEAD "va-map A min=0x1800\nend\n"), "4 KiB aligned (S50)"));
    T_CHECK(strstr(BAD(VA_HEAD "va-map A min=0x200000 max=0x100000\nend\n"), "at or below MinimumAddress (S50)"));
    T_CHECK(strstr(BAD(VA_HEAD "va-map A min=0x100000 max=0x108000\nend\n"), "no free range of that size"));
    T_CHECK(strstr(BAD(VA_HEAD "va-map A no-access\nend\n"), "(S51)"));
    T_CHECK(strstr(BAD(VA_HEAD "va-map A first=4 count=13\nend\n"), "beyond the allocation (S52)"));
    T_CHECK(strstr(BAD(VA_HEAD "va-zero count=0\nend\n"), "SizeInPages"));
    T_CHECK(strstr(BAD(VA_HEAD "va-map A reserved\nend\n"), "Reserved0 and Reserved1 must be zero (S54)"));
    T_CHECK(strstr(BAD(VA_HEAD "va-map A 64k first=1 count=15\nend\n"), "whole 64 KiB pages"));
    T_CHECK(strstr(BAD(VA_HEAD "va-unmap A\nend\n"), "has no GPU virtual range"));
    /* A 64 KiB page starts on a 64 KiB physical boundary: a segment base
     * aligned to 4 KiB only counts (found by fuzzing an external build of
     * the reference, whose own run then faulted). */
    T_CHECK(strstr(BAD("pbs 1\nsegment 1 memory base=0x1000 size=64M\nalloc C size=64K at=1:0x10000\n"
                       "va-map C 64k\nend\n"),
                   "64 KiB-aligned address in a segment"));
    T_CHECK(strstr(BAD("pbs 1\nsegment 1 memory base=0x0 size=64M\nsegment 2 memory base=0x1000000000 size=4G\n"
                       "segment 3 memory base=0x2000001000 size=64M\nalloc C size=64K at=1:0x10000\n"
                       "va-map C 64k\ntransfer C to=3:0x10000\nend\n"),
                   "64 KiB-aligned address in a segment"));
    T_CHECK(strstr(BAD(VA_HEAD "va-map A read-only\nrender-write A offset=0 size=4K pattern=1 via=va\nend\n"),
                   "read-only"));
    /* S50: the lowest free range at or above MinimumAddress, below MaximumAddress. */
    pbc_scenario s;
    char err[512];
    const char *ok = VA_HEAD "va-map A min=0x200000 max=0x400000\nva-map B min=0x200000\nva-zero count=16 64k\n"
                             "va-zero count=1\nend\n";
    T_CHECK_MSG(pbc_scenario_parse(ok, strlen(ok), "x.pbs", &s, err, sizeof(err)) == 0, "%s", err);
    pbc_residency r;
    T_CHECK(pbc_residency_init(&r, &s) == NULL);
    uint64_t want[] = {0x200000, 0x210000, 0x10000, 0x214000}; /* a 64 KiB range keeps its 2 MiB to itself */
    for (uint32_t i = 0; i < s.op_count; i++) {
        T_CHECK_MSG(pbc_residency_va_base(&r, &s.ops[i]) == want[i], "op %u: 0x%llx", i,
                    (unsigned long long)pbc_residency_va_base(&r, &s.ops[i]));
        pbc_residency_apply(&r, &s.ops[i]);
    }
    pbc_residency_fini(&r);
    pbc_scenario_fini(&s);
    /* S49: a BaseAddress inside a range reserved before maps there; what is
     * left of the reservation on either side stays reserved. */
    const char *in = VA_HEAD "va-zero count=16 va=0x100000 no-access\nva-map B va=0x104000\n"
                             "va-map A first=0 count=4 va=0x100000\nend\n";
    T_CHECK_MSG(pbc_scenario_parse(in, strlen(in), "x.pbs", &s, err, sizeof(err)) == 0, "%s", err);
    T_CHECK(pbc_residency_init(&r, &s) == NULL);
    for (uint32_t i = 0; i < s.op_count; i++)
        pbc_residency_apply(&r, &s.ops[i]);
    T_CHECK(r.va_count == 3 && r.a[1].va_base == 0x104000 && r.a[0].va_base == 0x100000);
    T_CHECK(pbc_residency_va_reserved(&r, 0, 0x108000, 8, 0) >= 0 && pbc_residency_va_reserved(&r, 0, 0x104000, 1, 0) < 0);
    pbc_residency_fini(&r);
    pbc_scenario_fini(&s);
#undef VA_HEAD
}

T_TEST(bad_number)
{
    T_CHECK(!strcmp(BAD("pbs 1\nalloc A size=4Q\nend\n"), "x.pbs:2:14: bad number '4Q'"));
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=0x\nend\n"), "x.pbs:2:14: bad number"));
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=99999999999999999999999\nend\n"), "out of range"));
}

T_TEST(out_of_range_value)
{
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=9G\nend\n"), "x.pbs:2:14: size=9G is out of range"));
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=8K\ntransfer A to=2:0 split=65\nend\n"), "x.pbs:3:"));
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=8K\ntransfer A to=9:0\nend\n"), "segment 9 is not defined"));
    /* legal syntax, but no real VidMm would issue it: fill into an aperture (S26) */
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=8K at=none\nfill A to=3:0 pattern=1\nend\n"),
                   "x.pbs:3:1: operation 1 (fill): allocations can only be placed in memory segments"));
}

T_TEST(undefined_allocation)
{
    T_CHECK(!strcmp(BAD("pbs 1\nalloc A size=4K\nunmap B\nend\n"), "x.pbs:3:7: allocation 'B' is not defined"));
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=4K\nalloc A size=8K\nend\n"), "already defined"));
}

T_TEST(truncated_file)
{
    const char *whole = "pbs 1\nalloc A size=4K\ntransfer A to=2:0x1000\nend\n";
    T_CHECK(strstr(bad(whole, strlen(whole) - 4), "truncated scenario: no 'end' line"));
    T_CHECK(strstr(bad(whole, 19), "x.pbs:2:14: bad number"));  /* cut after "size=" */
    T_CHECK(strstr(bad("", 0), "empty scenario"));
    T_CHECK(strstr(BAD("pbs 2\nend\n"), "x.pbs:1:5: unsupported format version"));
}

T_TEST(binary_garbage)
{
    const char junk[] = "pbs 1\n\x7f" "ELF\x02\x01\x01";
    T_CHECK(strstr(bad(junk, sizeof(junk) - 1), "x.pbs:2:1: unexpected byte 0x7f (only printable ASCII, tab and CR are allowed)"));
    const char nul[] = {'p', 'b', 's', ' ', '1', '\n', 'e', 'n', '\0', 'd'};
    T_CHECK(strstr(bad(nul, sizeof(nul)), "x.pbs:2:3: unexpected byte 0x00"));
    char longline[3000];
    memset(longline, 'a', sizeof(longline));
    T_CHECK(strstr(bad(longline, sizeof(longline)), "longer than"));
}

T_TEST(limits_bound_allocation)
{
    /* 5000 operations: rejected at the limit, without growing past it. */
    size_t cap = 64 + 5000 * 6;
    char *text = malloc(cap);
    size_t n = (size_t)snprintf(text, cap, "pbs 1\n");
    for (int i = 0; i < 5000; i++)
        n += (size_t)snprintf(text + n, cap - n, "flush\n");
    T_CHECK(strstr(bad(text, n), "too many operations (limit 4096)"));
    free(text);
}

T_TEST(layout_the_model_cannot_build)
{
    /* Found at the segment's line, not when a run cannot start. */
    T_CHECK(!strcmp(BAD("pbs 1\nsegment 1 memory base=0x80000000 size=64M\n"
                        "segment 2 memory base=0x83000000 size=64M\nend\n"),
                    "x.pbs:3:1: segments overlap"));
    T_CHECK(!strcmp(BAD("pbs 1\nsegment 1 memory base=0 size=64M\n"
                        "segment 2 aperture base=0x2000000 size=64M\nend\n"),
                    "x.pbs:3:1: segments overlap"));
    pbc_scenario s;
    pbc_scenario_init(&s);
    pbc_scenario_default_layout(&s);
    s.segments[1].base = s.segments[2].base;
    char why[200];
    T_CHECK(pbc_scenario_validate(&s, why, sizeof(why)) == -1);
    T_CHECK(!strcmp(why, "layout: segments overlap"));
    s.segments[1].base = 0x80000000ull; /* where system pages are by default: they move */
    T_CHECK(pbc_scenario_validate(&s, why, sizeof(why)) == 0);
    pbc_scenario_fini(&s);
}

/* Two 8 GiB segments, then `body`. */
static char *big_scenario(const char *body)
{
    return pbc_xprintf("pbs 1\nsegment 1 memory base=0x1000000000 size=8G\n"
                       "segment 2 memory base=0x2000000000 size=8G\n%send\n", body);
}

T_TEST(memory_limit)
{
    char err[512];
    pbc_scenario s;
    /* Two allocations of 8 GiB: exactly the limit of modeled memory
     * written, accepted. */
    char *text = big_scenario("alloc A size=8G at=1:0\nalloc B size=8G at=2:0\n");
    T_CHECK_MSG(pbc_scenario_parse(text, strlen(text), "x.pbs", &s, err, sizeof(err)) == 0, "%s", err);
    T_CHECK(pbc_scenario_footprint(&s) == PBC_MAX_SCENARIO_BYTES);
    pbc_scenario_fini(&s);
    free(text);
    /* One page more is over it, at the allocation that passes it. */
    text = big_scenario("alloc A size=8G at=1:0\nalloc B size=8G at=2:0\nalloc C size=4\n");
    T_CHECK(!strcmp(bad(text, strlen(text)),
                    "x.pbs:6:1: over the memory limit: by allocation 'C' the scenario writes 16385 MiB of "
                    "modeled memory, more than the 16384 MiB a scenario may write (docs/scenario-format.md, "
                    "\"Limits\")"));
    free(text);
    /* Every move to system memory takes fresh system pages: moving one
     * allocation back and forth passes the model's system memory first. */
    text = big_scenario("alloc A size=3G\ntransfer A to=1:0\ntransfer A to=system\ntransfer A to=1:0\n"
                        "transfer A to=system\n");
    T_CHECK(!strcmp(bad(text, strlen(text)),
                    "x.pbs:8:1: over the memory limit: by operation 4 (transfer) the scenario takes 9216 MiB of "
                    "system memory, more than the 8191 MiB the GPU model has (docs/scenario-format.md, "
                    "\"Limits\")"));
    free(text);
    /* A segment place that straddles pages costs the pages it spans. */
    pbc_scenario_init(&s);
    pbc_scenario_default_layout(&s);
    pbc_salloc *a = pbc_scenario_add_alloc(&s);
    *a = (pbc_salloc){.name = "A", .size = 8192, .where = PBC_WHERE_SEGMENT, .at = {2, 4}};
    pbc_sop *o = pbc_scenario_add_op(&s);
    *o = (pbc_sop){.kind = PBC_SOP_GPU_WRITE, .at = {1, 4092}, .size = 8, .pattern = 1};
    T_CHECK(pbc_scenario_footprint(&s) == 5 * 4096);
    uint32_t line = 99;
    T_CHECK(pbc_scenario_check_limits(&s, err, sizeof(err), &line) == 0);
    /* The time a case gets grows with what it writes: once, and once more
     * per 256 MiB. */
    T_CHECK(pbc_scenario_timeout_units(&s) == 1);
    s.allocs[0].size = 256ull << 20;
    s.allocs[0].where = PBC_WHERE_SYSTEM;
    o = pbc_scenario_add_op(&s);
    *o = (pbc_sop){.kind = PBC_SOP_TRANSFER, .alloc = 0, .at = {2, 0}, .split = 1};
    T_CHECK_MSG(pbc_scenario_timeout_units(&s) == 1 + pbc_scenario_footprint(&s) / (256ull << 20) &&
                    pbc_scenario_timeout_units(&s) >= 3,
                "%u units", pbc_scenario_timeout_units(&s));
    pbc_scenario_fini(&s);
}

/* The fuzz budget: a 64 MiB transfer runs in the smallest buffers, a
 * 256 MiB one only in buffers of 4 KiB and more (a call per page in the
 * smallest ones would take seconds under ASan). */
T_TEST(fuzz_budget_bounds_calls)
{
    static const char *const cases[][2] = {
        {"pbs 1\nalloc A size=64M\ndma size=min\ntransfer A to=2:0x0\nend\n", "1"},
        {"pbs 1\nalloc A size=256M\ndma size=64K\ntransfer A to=2:0x0\nend\n", "1"},
        {"pbs 1\nalloc A size=256M\ndma size=min\ntransfer A to=2:0x0\nend\n", "0"},
        {"pbs 1\nalloc A size=256M at=none\ndma size=25\nfill A to=2:0x0 pattern=1\nend\n",
         "0"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        pbc_scenario s;
        char err[256];
        T_CHECK_MSG(pbc_scenario_parse(cases[i][0], strlen(cases[i][0]), "x", &s, err, sizeof(err)) == 0, "%s", err);
        T_CHECK_MSG(pbc_scenario_fuzz_runs(&s) == (cases[i][1][0] == '1'), "case %zu", i);
        pbc_scenario_fini(&s);
    }
}

T_TEST(text_or_binary)
{
    static const uint8_t text[] = "# a comment with a byte \xe9\n\n  pbs 1\nend\n";
    static const uint8_t binary[] = {1, 0, 0, 0, 4, 0x70, 0x62, 0x73, 0x20};
    T_CHECK(pbc_scenario_is_text("x", text, sizeof(text) - 1));
    T_CHECK(pbc_scenario_is_text("x.pbs", binary, sizeof(binary)));
    T_CHECK(!pbc_scenario_is_text("x.bin", text, sizeof(text) - 1));
    T_CHECK(!pbc_scenario_is_text("crash-1", binary, sizeof(binary)));
    T_CHECK(!pbc_scenario_is_text("crash-1", (const uint8_t *)"pbs", 3));
    T_CHECK(!pbc_scenario_is_text("crash-1", (const uint8_t *)"pbsx 1", 6));
    T_CHECK(!pbc_scenario_is_text("x", NULL, 0));
}

static void roundtrip(const char *path)
{
    pbc_scenario a, b;
    char err[512];
    if (pbc_scenario_load(path, &a, err, sizeof(err))) {
        T_CHECK_MSG(0, "%s", err);
        return;
    }
    char *text = pbc_scenario_print(&a);
    T_CHECK_MSG(pbc_scenario_parse(text, strlen(text), path, &b, err, sizeof(err)) == 0, "%s", err);
    T_CHECK_MSG(pbc_scenario_equal(&a, &b), "parse(print(s)) != s for %s", path);
    char *again = pbc_scenario_print(&b);
    T_CHECK_MSG(!strcmp(text, again), "print is not stable for %s", path);
    free(text);
    free(again);
    pbc_scenario_fini(&a);
    pbc_scenario_fini(&b);
}

/* Text -> binary -> scenario gives the same scenario: the text seeds are
 * the binary seeds. */
static void binary_roundtrip(const char *path)
{
    pbc_scenario a, b;
    char err[512];
    T_CHECK_MSG(pbc_scenario_load(path, &a, err, sizeof(err)) == 0, "%s", err);
    uint8_t *bytes;
    size_t n = pbc_scenario_encode(&a, &bytes);
    pbc_scenario_decode(bytes, n, &b);
    T_CHECK_MSG(pbc_scenario_equal(&a, &b), "%s: binary round trip differs", path);
    free(bytes);
    pbc_scenario_fini(&a);
    pbc_scenario_fini(&b);
}

T_TEST(seed_corpus_roundtrips)
{
    DIR *d = opendir(PBC_SEEDS_DIR);
    T_CHECK(d != NULL);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".pbs"))
            continue;
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s", PBC_SEEDS_DIR, e->d_name);
        roundtrip(path);
        binary_roundtrip(path);
        n++;
    }
    if (d)
        closedir(d);
    T_CHECK_MSG(n >= 25, "only %d seeds", n);
}

/* phys=: every layout parses, prints (scattered, the default, is not
 * printed, so older scenarios print as they did) and round-trips through
 * text and binary; the encoding is version 2 only when it needs to be. */
T_TEST(phys_layout_text_and_binary)
{
    T_CHECK(!strcmp(BAD("pbs 1\nalloc A size=8K phys=dense\nend\n"),
                    "x.pbs:2:22: phys must be scattered, runs, contiguous or straddle-4g"));
    const char *text = "pbs 1\nalloc A size=8K phys=runs\nalloc B size=64K mdl-offset=2 phys=contiguous\n"
                       "alloc C size=40K phys=straddle-4g needs-idle\nalloc D size=4K phys=scattered\n"
                       "transfer C to=2:0x0\nend\n";
    pbc_scenario a, b, c;
    char err[256];
    T_CHECK_MSG(pbc_scenario_parse(text, strlen(text), "p", &a, err, sizeof(err)) == 0, "%s", err);
    T_CHECK(a.allocs[0].phys == PBC_PHYS_RUNS && a.allocs[1].phys == PBC_PHYS_CONTIGUOUS &&
            a.allocs[2].phys == PBC_PHYS_STRADDLE_4G && a.allocs[3].phys == PBC_PHYS_SCATTERED);
    char *printed = pbc_scenario_print(&a);
    T_CHECK(strstr(printed, "alloc A size=8K at=system mdl-offset=0 seed=1 phys=runs\n") &&
            strstr(printed, "seed=3 phys=straddle-4g needs-idle\n") && strstr(printed, "alloc D size=4K at=system mdl-offset=0 seed=4\n"));
    T_CHECK(pbc_scenario_parse(printed, strlen(printed), "p", &b, err, sizeof(err)) == 0 && pbc_scenario_equal(&a, &b));
    uint8_t *bytes;
    size_t n = pbc_scenario_encode(&a, &bytes);
    T_CHECK(bytes[0] == 2);
    pbc_scenario_decode(bytes, n, &c);
    T_CHECK(pbc_scenario_equal(&a, &c));
    pbc_scenario_fini(&c);
    /* Read as version 1, the same bytes mean what they meant before
     * layouts: every allocation scattered, nothing else changed. */
    bytes[0] = 1;
    pbc_scenario_decode(bytes, n, &c);
    T_CHECK(c.alloc_count == 4 && c.op_count == 1 && c.allocs[2].flags == PBC_ALLOC_NEEDS_IDLE);
    for (uint32_t i = 0; i < c.alloc_count; i++) {
        T_CHECK(c.allocs[i].phys == PBC_PHYS_SCATTERED);
        c.allocs[i].phys = a.allocs[i].phys;
    }
    T_CHECK(pbc_scenario_equal(&a, &c));
    free(bytes);
    pbc_scenario_fini(&c);
    /* Without a layout the encoding is version 1, as before. */
    for (uint32_t i = 0; i < a.alloc_count; i++)
        a.allocs[i].phys = PBC_PHYS_SCATTERED;
    n = pbc_scenario_encode(&a, &bytes);
    T_CHECK(bytes[0] == 1);
    pbc_scenario_decode(bytes, n, &c);
    T_CHECK(pbc_scenario_equal(&a, &c));
    free(bytes);
    free(printed);
    pbc_scenario_fini(&a);
    pbc_scenario_fini(&b);
    pbc_scenario_fini(&c);
}

T_TEST(equality_sees_every_field)
{
    pbc_scenario a, b;
    char err[256];
    const char *t = "pbs 1\nalloc A size=8K\ntransfer A to=2:0x1000 split=2\nend\n";
    T_CHECK(pbc_scenario_parse(t, strlen(t), "a", &a, err, sizeof(err)) == 0);
    T_CHECK(pbc_scenario_parse(t, strlen(t), "b", &b, err, sizeof(err)) == 0);
    T_CHECK(pbc_scenario_equal(&a, &b));
    b.ops[0].split = 1;
    T_CHECK(!pbc_scenario_equal(&a, &b));
    b.ops[0].split = 2;
    b.allocs[0].mdl_offset = 1;
    T_CHECK(!pbc_scenario_equal(&a, &b));
    b.allocs[0].mdl_offset = 0;
    b.allocs[0].phys = PBC_PHYS_RUNS;
    T_CHECK(!pbc_scenario_equal(&a, &b));
    pbc_scenario_fini(&a);
    pbc_scenario_fini(&b);
}

/* Every byte string decodes into a scenario that validates, prints to
 * text the parser accepts unchanged, and re-encodes to bytes that decode
 * to the same scenario. Inputs: random bytes, biased toward small
 * varints, of every length up to 600. */
T_TEST(binary_any_bytes_decode_valid)
{
    pbc_rng rng = {42};
    uint8_t buf[600];
    int with_ops = 0;
    for (int iter = 0; iter < 3000; iter++) {
        size_t n = pbc_rng_choose(&rng, sizeof(buf) + 1);
        for (size_t i = 0; i < n; i++) {
            uint32_t b = pbc_rng_choose(&rng, 256);
            buf[i] = (uint8_t)(pbc_rng_choose(&rng, 4) ? b & 0x7f : b); /* mostly short varints */
        }
        if (n && iter % 2) /* half of them in the current version, half read as version 1 */
            buf[0] = PBC_SCENARIO_BIN_VERSION;
        pbc_scenario s, t, u;
        pbc_scenario_decode(buf, n, &s);
        char why[256] = "";
        T_CHECK_MSG(pbc_scenario_validate(&s, why, sizeof(why)) == 0, "input %d: %s", iter, why);
        char *text = pbc_scenario_print(&s);
        char err[512] = "";
        T_CHECK_MSG(pbc_scenario_parse(text, strlen(text), "decoded", &t, err, sizeof(err)) == 0,
                    "input %d: %s\n%s", iter, err, text);
        T_CHECK_MSG(pbc_scenario_equal(&s, &t), "input %d: text round trip differs", iter);
        uint8_t *bytes;
        size_t m = pbc_scenario_encode(&s, &bytes);
        pbc_scenario_decode(bytes, m, &u);
        T_CHECK_MSG(pbc_scenario_equal(&s, &u), "input %d: re-encoding differs", iter);
        with_ops += s.op_count > 0;
        free(bytes);
        free(text);
        pbc_scenario_fini(&s);
        pbc_scenario_fini(&t);
        pbc_scenario_fini(&u);
    }
    /* The decoder must not just drop everything. */
    T_CHECK_MSG(with_ops > 1000, "only %d of 3000 inputs kept an operation", with_ops);
}

/* destroy and create: legal only around an allocation's life (not used
 * once destroyed, created only when destroyed, unmapped before it goes,
 * placed like an allocation), printed with every field and encoded in
 * version 2. */
T_TEST(destroy_and_create)
{
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=4K\ndestroy A\nrender-read A\nend\n"),
                   "x.pbs:4:1: operation 2 (render-read): allocation was destroyed (create it again first)"));
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=4K\ncreate A\nend\n"), "x.pbs:3:1: operation 1 (create): allocation exists"));
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=4K\nmap A aperture=3:0\ndestroy A\nend\n"),
                   "unmap it before destroying it"));
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=8K\nalloc B size=4K at=1:0x1000\ndestroy A\ncreate A at=1:0x0\nend\n"),
                   "range overlaps another resident allocation"));
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=8K\ndestroy A\ncreate A at=3:0x0\nend\n"), "memory segments"));
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=8K\ndestroy A\ncreate A to=system\nend\n"), "unexpected 'to=system'"));
    const char *t = "pbs 1\nalloc A size=8K seed=3\ndestroy A\ncreate A\ndestroy A\ncreate A at=none seed=9\n"
                    "fill A to=1:0x0 pattern=1\ndestroy A\ncreate A at=2:0x1000 seed=4\nend\n";
    pbc_scenario s, u;
    char err[256];
    T_CHECK_MSG(pbc_scenario_parse(t, strlen(t), "t", &s, err, sizeof(err)) == 0, "%s", err);
    T_CHECK(s.op_count == 7 && s.ops[1].kind == PBC_SOP_CREATE && s.ops[1].at.segment == 0 && s.ops[1].pattern == 3);
    T_CHECK(s.ops[3].flags == PBC_SOP_NO_CONTENT && s.ops[3].pattern == 9);
    T_CHECK(s.ops[6].at.segment == 2 && s.ops[6].at.offset == 0x1000 && s.ops[6].pattern == 4);
    char *text = pbc_scenario_print(&s);
    T_CHECK_MSG(strstr(text, "create A at=system seed=3\n") && strstr(text, "create A at=none seed=9\n") &&
                    strstr(text, "create A at=2:0x1000 seed=4\n") && strstr(text, "destroy A\n"),
                "%s", text);
    uint8_t *bytes;
    size_t n = pbc_scenario_encode(&s, &bytes);
    T_CHECK(n > 0 && bytes[0] == 2); /* the oldest version that has destroy and create */
    pbc_scenario_decode(bytes, n, &u);
    T_CHECK(pbc_scenario_equal(&s, &u));
    free(bytes);
    free(text);
    pbc_scenario_fini(&s);
    pbc_scenario_fini(&u);
}

/* Version 2 added destroy and create as record types 16 and 17; an input
 * that says version 1 decodes as it always did (types modulo 16: here an
 * allocation record and then its fields). */
/* Version 4 adds init-context, update-context, notify-residency and
 * cpu-visible allocations; the encoder writes it only for a scenario that
 * uses them, and a version-3 input keeps its meaning: its record types
 * are read modulo its own count. */
T_TEST(binary_version_4_context_operations)
{
    const char *text = "pbs 1\nalloc C size=12K at=1:0x100000 cpu-visible\nalloc S size=8K\n"
                       "init-context C\nva-map C\nupdate-context C\nnotify-residency S\nend\n";
    pbc_scenario a, b;
    char err[256];
    T_CHECK_MSG(pbc_scenario_parse(text, strlen(text), "v4", &a, err, sizeof(err)) == 0, "%s", err);
    T_CHECK(a.allocs[0].flags == PBC_ALLOC_CPU_VISIBLE && a.ops[0].kind == PBC_SOP_INIT_CONTEXT &&
            a.ops[2].kind == PBC_SOP_UPDATE_CONTEXT && a.ops[3].kind == PBC_SOP_NOTIFY_RESIDENCY);
    char *printed = pbc_scenario_print(&a);
    T_CHECK_MSG(strstr(printed, " cpu-visible\n") && strstr(printed, "\ninit-context C\n") &&
                strstr(printed, "\nupdate-context C\n") && strstr(printed, "\nnotify-residency S\n"), "%s", printed);
    free(printed);
    uint8_t *bytes;
    size_t n = pbc_scenario_encode(&a, &bytes);
    T_CHECK(n > 0 && bytes[0] == 4);
    pbc_scenario_decode(bytes, n, &b);
    T_CHECK(pbc_scenario_equal(&a, &b));
    free(bytes);
    pbc_scenario_fini(&b);
    a.allocs[0].flags = 0; /* the flag alone asks for version 4 too */
    a.op_count = 0;
    n = pbc_scenario_encode(&a, &bytes);
    T_CHECK(n > 0 && bytes[0] == 1);
    free(bytes);
    pbc_scenario_fini(&a);
    /* Record type 24 + 1 + flush: version 3 reads it (% 24) as a flush,
     * version 4 (% 27) as a render-read of A; the flags byte's bit 4 is
     * cpu-visible in version 4 only. */
    uint8_t in[] = {3, 0, BIN_ALLOC, 0, 10, 1, 0, 0x10, 0, 24 + 1 + PBC_SOP_FLUSH};
    pbc_scenario_decode(in, sizeof(in), &b);
    T_CHECK(b.alloc_count == 1 && b.allocs[0].flags == 0 && b.op_count == 1 && b.ops[0].kind == PBC_SOP_FLUSH);
    pbc_scenario_fini(&b);
    in[0] = 4;
    pbc_scenario_decode(in, sizeof(in), &b);
    T_CHECK(b.alloc_count == 1 && b.allocs[0].flags == PBC_ALLOC_CPU_VISIBLE && b.op_count == 1 &&
            b.ops[0].kind == PBC_SOP_RENDER_READ);
    pbc_scenario_fini(&b);
}

/* va-move-tables with `used`, `pieces` and `stage` (binary version 5):
 * text and binary round trips; the encoder writes version 5 only for a
 * scenario that uses them; a version 4 record of type 24 (va-move-tables)
 * has no mode byte (the next byte is the next record), version 5 reads
 * one. What the tracker refuses, the text refuses. */
T_TEST(binary_version_5_partial_copies)
{
    const char *text = "pbs 1\nalloc A size=40K at=1:0x200000\nva-map A\n"
                       "va-move-tables A\nva-move-tables A used\nva-move-tables A used pieces=5 stage=300\nend\n";
    pbc_scenario a, b;
    char err[256];
    T_CHECK_MSG(pbc_scenario_parse(text, strlen(text), "v5", &a, err, sizeof(err)) == 0, "%s", err);
    T_CHECK(a.ops[1].flags == 0 && a.ops[2].flags == PBC_SOP_COPY_USED && a.ops[2].count == 1 &&
            a.ops[3].flags == (PBC_SOP_COPY_USED | PBC_SOP_COPY_STAGED) && a.ops[3].count == 5 &&
            a.ops[3].first == 300);
    char *printed = pbc_scenario_print(&a);
    T_CHECK_MSG(strstr(printed, "\nva-move-tables A\nva-move-tables A used pieces=1\n"
                                "va-move-tables A used pieces=5 stage=300\n"), "%s", printed);
    free(printed);
    uint8_t *bytes;
    size_t n = pbc_scenario_encode(&a, &bytes);
    T_CHECK(n > 0 && bytes[0] == 5);
    pbc_scenario_decode(bytes, n, &b);
    T_CHECK(pbc_scenario_equal(&a, &b));
    free(bytes);
    pbc_scenario_fini(&b);
    a.op_count = 2; /* a whole-leaf copy alone keeps version 3 */
    n = pbc_scenario_encode(&a, &bytes);
    T_CHECK(n > 0 && bytes[0] == 3);
    free(bytes);
    pbc_scenario_fini(&a);
    /* A in system memory; va-map A (first 0, count 1, flags 0, VidMm's
     * place, protection 0); va-move-tables A; then the bytes 3, 16, 2:
     * version 4 reads them as a record (a fill of A, which the tracker
     * refuses: A is resident), version 5 as the mode byte (used and
     * staged), pieces 1 + 16 % 8 and stage 2. */
    uint8_t in[] = {4, 0, BIN_ALLOC, 0, 10, 1, 0, 0, 0, 1 + PBC_SOP_VA_MAP, 0, 0, 0, 0, 0, 0,
                    1 + PBC_SOP_VA_MOVE_TABLES, 0, 3, 16, 2};
    pbc_scenario_decode(in, sizeof(in), &b);
    T_CHECK_MSG(b.op_count == 2 && b.ops[1].kind == PBC_SOP_VA_MOVE_TABLES && b.ops[1].flags == 0 &&
                    b.ops[1].count == 0, "version 4: %u operations", b.op_count);
    pbc_scenario_fini(&b);
    in[0] = 5;
    pbc_scenario_decode(in, sizeof(in), &b);
    T_CHECK_MSG(b.op_count == 2 && b.ops[1].flags == (PBC_SOP_COPY_USED | PBC_SOP_COPY_STAGED) &&
                    b.ops[1].count == 1 && b.ops[1].first == 2, "version 5: %u operations", b.op_count);
    pbc_scenario_fini(&b);
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=8K at=1:0\nva-map A\nva-move-tables A stage=3\nend\n"), "need 'used'"));
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=8K at=1:0\nva-map A\nva-move-tables A used pieces=9\nend\n"),
                   "out of range"));
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=8K at=1:0\nva-map A\nva-move-tables A used stage=512\nend\n"),
                   "out of range"));
}

/* Version 6: the address space of a range. Ranges of different spaces
 * may share addresses; a version-5 input keeps every range in space 0. */
T_TEST(binary_version_6_address_spaces)
{
    const char *text = "pbs 1\nalloc A size=8K at=1:0x200000\nalloc B size=8K at=1:0x400000\n"
                       "va-map A va=0x100000\nva-map B va=0x100000 space=3\nva-zero count=2 va=0x100000 space=1\nend\n";
    pbc_scenario a, b;
    char err[256];
    T_CHECK_MSG(pbc_scenario_parse(text, strlen(text), "v6", &a, err, sizeof(err)) == 0, "%s", err);
    T_CHECK(a.ops[0].space == 0 && a.ops[1].space == 3 && a.ops[2].space == 1 && pbc_scenario_spaces(&a) == 4);
    char *printed = pbc_scenario_print(&a);
    T_CHECK_MSG(strstr(printed, "va-map B first=0 count=2 va=0x100000 space=3\n"), "%s", printed);
    free(printed);
    uint8_t *bytes;
    size_t n = pbc_scenario_encode(&a, &bytes);
    T_CHECK(n > 0 && bytes[0] == 6);
    pbc_scenario_decode(bytes, n, &b);
    T_CHECK(pbc_scenario_equal(&a, &b) && b.ops[1].space == 3);
    free(bytes);
    pbc_scenario_fini(&b);
    a.op_count = 1; /* one space: the version it always was */
    n = pbc_scenario_encode(&a, &bytes);
    T_CHECK(n > 0 && bytes[0] == 3);
    free(bytes);
    pbc_scenario_fini(&a);
    /* A in system memory; va-map A (first 0, count 1, flags 0, VidMm's
     * place, protection 0), then the byte 2: version 5 reads it as a
     * record of its own (no range in another space), version 6 as the
     * range's space. */
    uint8_t in[] = {5, 0, BIN_ALLOC, 0, 10, 1, 0, 0, 0, 1 + PBC_SOP_VA_MAP, 0, 0, 0, 0, 0, 0, 2};
    pbc_scenario_decode(in, sizeof(in), &b);
    T_CHECK_MSG(b.op_count >= 1 && b.ops[0].kind == PBC_SOP_VA_MAP && pbc_scenario_spaces(&b) == 1,
                "version 5: %u operations", b.op_count);
    pbc_scenario_fini(&b);
    in[0] = 6;
    pbc_scenario_decode(in, sizeof(in), &b);
    T_CHECK_MSG(b.op_count == 1 && b.ops[0].kind == PBC_SOP_VA_MAP && b.ops[0].space == 2,
                "version 6: %u operations", b.op_count);
    pbc_scenario_fini(&b);
    /* One space's addresses are its own: the same range twice in a space is refused. */
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=8K at=1:0\nalloc B size=8K at=1:0x4000\nva-map A va=0x100000 space=1\n"
                       "va-map B va=0x100000 space=1\nend\n"),
                   "neither free"));
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=8K at=1:0\nva-map A space=4\nend\n"), "out of range"));
}

/* What VidMm issues the context operations for: a resident allocation
 * of at most 1 MiB, starting on a page in a segment (VidMm maps the whole
 * context into its paging window); no range of the scenario's needed. */
T_TEST(context_operations_refused_as_vidmm_refuses)
{
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=8K at=none\ninit-context A\nend\n"), "needs a resident allocation"));
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=2M\ninit-context A\nend\n"), "at most 1 MiB"));
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=8K at=none\nupdate-context A\nend\n"), "needs a resident allocation"));
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=8K at=1:0x800\nupdate-context A\nend\n"), "starts on a page"));
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=10K at=1:0x1000\ninit-context A\nend\n"), "whole pages"));
    pbc_scenario ok;
    char err[256];
    const char *text = "pbs 1\nalloc A size=8K\nalloc B size=8K at=1:0x100000\nupdate-context A\nupdate-context B\nend\n";
    T_CHECK_MSG(pbc_scenario_parse(text, strlen(text), "ok", &ok, err, sizeof(err)) == 0, "%s", err);
    pbc_scenario_fini(&ok);
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=8K\ndestroy A\nnotify-residency A\nend\n"), "was destroyed"));
}

T_TEST(binary_version_1_keeps_its_meaning)
{
    uint8_t in[] = {2, 0, BIN_ALLOC, 0, 10, 1, 0, 0, 0, 1 + PBC_SOP_DESTROY, 0, 1 + PBC_SOP_CREATE, 0, 1, 5};
    pbc_scenario s;
    pbc_scenario_decode(in, sizeof(in), &s);
    T_CHECK(s.alloc_count == 1 && s.op_count == 2);
    T_CHECK(s.ops[0].kind == PBC_SOP_DESTROY && s.ops[1].kind == PBC_SOP_CREATE && s.ops[1].at.segment == 0 &&
            s.ops[1].flags == 0 && s.ops[1].pattern == 5);
    pbc_scenario_fini(&s);
    in[0] = 1;
    pbc_scenario_decode(in, sizeof(in), &s);
    T_CHECK(s.alloc_count == 2 && s.op_count == 0);
    pbc_scenario_fini(&s);
}

/* The generator (and so the fuzz mutator) issues the context operations
 * and notify-residency, update-context only on a writable range (the
 * tracker's rule), and makes some allocations CPU-visible. */
T_TEST(generator_issues_context_operations)
{
    pbc_rng rng = {19};
    uint32_t init = 0, update = 0, residency = 0, visible = 0;
    for (int iter = 0; iter < 1000; iter++) {
        pbc_scenario g;
        pbc_scenario_init(&g);
        pbc_gen_scenario(&g, 24, pbc_rng_choose, &rng);
        char why[256] = "";
        T_CHECK_MSG(pbc_scenario_validate(&g, why, sizeof(why)) == 0, "scenario %d: %s", iter, why);
        for (uint32_t i = 0; i < g.op_count; i++) {
            init += g.ops[i].kind == PBC_SOP_INIT_CONTEXT;
            update += g.ops[i].kind == PBC_SOP_UPDATE_CONTEXT;
            residency += g.ops[i].kind == PBC_SOP_NOTIFY_RESIDENCY;
        }
        for (uint32_t i = 0; i < g.alloc_count; i++)
            visible += (g.allocs[i].flags & PBC_ALLOC_CPU_VISIBLE) != 0;
        pbc_scenario_fini(&g);
    }
    T_CHECK_MSG(init > 100 && update > 10 && residency > 100 && visible > 100,
                "%u init-context, %u update-context, %u notify-residency, %u cpu-visible", init, update, residency,
                visible);
}

/* The generator chains operations on one allocation (stories for state a
 * builder keeps), and destroys and creates allocations. */
T_TEST(generator_chains_and_recreates)
{
    pbc_rng rng = {11};
    uint32_t pairs = 0, same = 0, destroys = 0, creates = 0;
    for (int iter = 0; iter < 1000; iter++) {
        pbc_scenario g;
        pbc_scenario_init(&g);
        pbc_gen_scenario(&g, 24, pbc_rng_choose, &rng);
        char why[256] = "";
        T_CHECK_MSG(pbc_scenario_validate(&g, why, sizeof(why)) == 0, "scenario %d: %s", iter, why);
        int last = -1;
        for (uint32_t i = 0; i < g.op_count; i++) {
            const pbc_sop *o = &g.ops[i];
            destroys += o->kind == PBC_SOP_DESTROY;
            creates += o->kind == PBC_SOP_CREATE;
            if (!pbc_sop_has_alloc(o->kind))
                continue;
            if (last >= 0 && g.alloc_count > 1) {
                pairs++;
                same += (int)o->alloc == last;
            }
            last = (int)o->alloc;
        }
        pbc_scenario_fini(&g);
    }
    T_CHECK_MSG(destroys > 100 && creates > 50, "%u destroys, %u creates", destroys, creates);
    T_CHECK_MSG(same * 2 > pairs, "%u of %u operations in a row on the same allocation", same, pairs);
}

/* Decoding again into one scenario gives what a fresh decode gives, with
 * nothing left of the input before (the mutator reuses its scenarios);
 * encoding into a buffer works like snprintf: the size the whole encoding
 * needs, its first bytes when the buffer is short. */
T_TEST(binary_decode_again_and_encode_to)
{
    pbc_rng rng = {7};
    uint8_t buf[400], out[4096];
    pbc_scenario again;
    pbc_scenario_init(&again);
    for (int iter = 0; iter < 1000; iter++) {
        size_t n = pbc_rng_choose(&rng, sizeof(buf) + 1);
        for (size_t i = 0; i < n; i++)
            buf[i] = (uint8_t)pbc_rng_choose(&rng, 128);
        pbc_scenario fresh;
        pbc_scenario_decode(buf, n, &fresh);
        pbc_scenario_decode_again(buf, n, NULL, 0, &again);
        T_CHECK_MSG(pbc_scenario_equal(&fresh, &again), "input %d: decoding again differs", iter);
        uint8_t *bytes;
        size_t m = pbc_scenario_encode(&fresh, &bytes);
        T_CHECK(pbc_scenario_encode_to(&fresh, NULL, 0) == m);
        T_CHECK(pbc_scenario_encode_to(&fresh, out, sizeof(out)) == m && memcmp(out, bytes, m) == 0);
        size_t cut = pbc_rng_choose(&rng, (uint32_t)m);
        memset(out, 0xEE, sizeof(out));
        T_CHECK(pbc_scenario_encode_to(&fresh, out, cut) == m && memcmp(out, bytes, cut) == 0 && out[cut] == 0xEE);
        free(bytes);
        pbc_scenario_fini(&fresh);
    }
    pbc_scenario_fini(&again);
}

/* A driver's declared layout (odd ids' kinds, small segments, apertures
 * elsewhere): generated scenarios and decoded bytes stay within it, and
 * still do real work there (maps included). */
T_TEST(generated_and_decoded_within_a_fixed_layout)
{
    const pbc_segment_info layout[] = {{1, PBC_SEGMENT_APERTURE, 0x800000000ull, 1u << 20},
                                       {2, PBC_SEGMENT_MEMORY, 0x0, 2u << 20},
                                       {3, PBC_SEGMENT_MEMORY, 0x1000000000ull, 64u << 20}};
    pbc_rng rng = {9};
    uint32_t ops = 0, maps = 0;
    uint8_t buf[300];
    for (int iter = 0; iter < 1000; iter++) {
        pbc_scenario g, d;
        pbc_scenario_init(&g);
        pbc_gen_scenario_in(&g, layout, 3, 16, pbc_rng_choose, &rng);
        for (size_t i = 0; i < sizeof(buf); i++)
            buf[i] = (uint8_t)pbc_rng_choose(&rng, 128);
        pbc_scenario_decode_in(buf, sizeof(buf), layout, 3, &d);
        const pbc_scenario *both[] = {&g, &d};
        for (int k = 0; k < 2; k++) {
            char why[256] = "";
            T_CHECK_MSG(pbc_scenario_validate(both[k], why, sizeof(why)) == 0, "input %d: %s", iter, why);
            T_CHECK(both[k]->segment_count == 3 && memcmp(both[k]->segments, layout, sizeof(layout)) == 0);
            ops += both[k]->op_count;
            for (uint32_t i = 0; i < both[k]->op_count; i++)
                maps += both[k]->ops[i].kind == PBC_SOP_MAP;
        }
        pbc_scenario_fini(&g);
        pbc_scenario_fini(&d);
    }
    T_CHECK_MSG(ops > 2000 && maps > 50, "%u ops, %u maps", ops, maps);
}

/* A prefix of an encoding is a shorter scenario, never garbage: the ops
 * it keeps are the first ops of the whole one (the last may be the cut
 * record read with zeros). */
T_TEST(binary_prefix_is_a_prefix)
{
    pbc_scenario a, p;
    char err[512];
    T_CHECK_MSG(pbc_scenario_load(PBC_SEEDS_DIR "/everything.pbs", &a, err, sizeof(err)) == 0, "%s", err);
    uint8_t *bytes;
    size_t n = pbc_scenario_encode(&a, &bytes);
    uint32_t last = 0;
    for (size_t cut = 0; cut <= n; cut++) {
        pbc_scenario_decode(bytes, cut, &p);
        T_CHECK(p.op_count <= a.op_count);
        for (uint32_t i = 0; i + 1 < p.op_count; i++) {
            pbc_sop x = a.ops[i];
            x.line = 0; /* source lines are not content */
            T_CHECK_MSG(memcmp(&p.ops[i], &x, sizeof(x)) == 0, "cut %zu: op %u differs", cut, i);
        }
        last = p.op_count;
        pbc_scenario_fini(&p);
    }
    T_CHECK(last == a.op_count);
    free(bytes);
    pbc_scenario_fini(&a);
}

/* The decoder reduces fields; it does not reject. A version byte it does
 * not know reads as version 1, and an unknown layout falls back to the
 * default one. */
T_TEST(binary_reduces_fields)
{
    /* version 7, custom layout of one aperture only (no memory segment),
     * then a fill that has nowhere to go: dropped, not fatal. */
    const uint8_t in[] = {7, 1, 1, 0, 0, BIN_ALLOC, 0, 10, 0, 0, 0, 0, 1 + PBC_SOP_FILL, 0, 0, 0, 1, 2, 3, 4};
    pbc_scenario s;
    pbc_scenario_decode(in, sizeof(in), &s);
    T_CHECK(s.segment_count == 1 && s.segments[0].kind == PBC_SEGMENT_APERTURE);
    T_CHECK(s.alloc_count == 1 && s.allocs[0].size == 44 && strcmp(s.allocs[0].name, "A0") == 0);
    T_CHECK(s.op_count == 0);
    /* The same bytes with a 0 layout byte: default layout, and the fill stays. */
    uint8_t in2[sizeof(in)];
    memcpy(in2, in, sizeof(in));
    in2[1] = 0;
    memmove(in2 + 2, in + 5, sizeof(in) - 5);
    pbc_scenario_fini(&s);
    pbc_scenario_decode(in2, sizeof(in) - 3, &s);
    T_CHECK(s.segment_count == 3);
    T_CHECK(s.op_count == 1 && s.ops[0].kind == PBC_SOP_FILL && s.ops[0].pattern == 0x04030201u);
    pbc_scenario_fini(&s);
}

T_MAIN()
