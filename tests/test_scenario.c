/* The text scenario format: one test per class of bad input (message and
 * position), and parse/print round trips over the seed corpus. */
#include <dirent.h>

#include "scenario.h"
#include "t.h"

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

T_TEST(bad_number)
{
    T_CHECK(!strcmp(BAD("pbs 1\nalloc A size=4Q\nend\n"), "x.pbs:2:14: bad number '4Q'"));
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=0x\nend\n"), "x.pbs:2:14: bad number"));
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=99999999999999999999999\nend\n"), "out of range"));
}

T_TEST(out_of_range_value)
{
    T_CHECK(strstr(BAD("pbs 1\nalloc A size=128M\nend\n"), "x.pbs:2:14: size=128M is out of range"));
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
    T_CHECK(strstr(bad(junk, sizeof(junk) - 1), "x.pbs:2:1: unexpected byte 0x7f (not a text scenario)"));
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
        n++;
    }
    if (d)
        closedir(d);
    T_CHECK_MSG(n >= 25, "only %d seeds", n);
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
    pbc_scenario_fini(&a);
    pbc_scenario_fini(&b);
}

T_MAIN()
