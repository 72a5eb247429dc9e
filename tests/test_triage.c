/* Triage: classes and signatures from reports, stable across addresses,
 * the builder's own frames, severities, root causes, and the minimizer's
 * candidates. */
#include <stdio.h>
#include <string.h>

#include "exec/runner.h"
#include "triage/buckets.h"
#include "triage/triage.h"
#include "t.h"

/* An AddressSanitizer report as a sanitizer build prints it, with the
 * addresses and thread given. */
static void asan_report(char *buf, size_t n, const char *addr, const char *access)
{
    snprintf(buf, n,
             "=================================================================\n"
             "==4242==ERROR: AddressSanitizer: heap-buffer-overflow on address %s at pc %s bp 0x7ffd sp 0x7ffc\n"
             "%s of size 4 at %s thread T0\n"
             "    #0 %s in __asan_memcpy (/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.asan.so+0x1)\n"
             "    #1 %s in vendor_copy_pages /src/drv/paging.c:212:9\n"
             "    #2 %s in vendor_build_transfer /src/drv/paging.c:340:5\n"
             "    #3 %s in pbc_shim_call_build /work/pbcheck/harness/kernel/shim.c:501:12\n"
             "    #4 %s in vendor_dispatch /src/drv/ddi.c:88:3\n"
             "    #5 %s in pbc_vidmm_paging_op /work/pbcheck/harness/vidmm/call.c:350:9\n"
             "\n"
             "%s is located 0 bytes to the right of 16-byte region\n"
             "allocated by thread T0 here:\n"
             "    #0 %s in malloc (/usr/lib/libclang_rt.asan.so+0x2)\n"
             "    #1 %s in vendor_alloc_table /src/drv/gart.c:10:3\n",
             addr, addr, access, addr, addr, addr, addr, addr, addr, addr, addr, addr, addr);
}

T_TEST(sanitizer_reports_by_kind_access_and_own_frames)
{
    char a[4096], b[4096];
    asan_report(a, sizeof(a), "0x602000000110", "WRITE");
    asan_report(b, sizeof(b), "0x7f31aa000f00", "WRITE");
    pbc_triage_facts fa, fb;
    pbc_triage_from_isolation("crash", "SUMMARY", a, NULL, &fa);
    pbc_triage_from_isolation("crash", "SUMMARY", b, NULL, &fb);
    T_CHECK(fa.cls == PBC_TRIAGE_SANITIZER);
    T_CHECK_MSG(!strcmp(fa.kind, "heap-buffer-overflow"), "kind '%s'", fa.kind);
    T_CHECK(!strcmp(fa.access, "WRITE"));
    /* The builder's frames only, from the error's stack, not the allocation's. */
    T_CHECK_MSG(!strcmp(fa.frames[0], "vendor_copy_pages") && !strcmp(fa.frames[1], "vendor_build_transfer") &&
                    !strcmp(fa.frames[2], "vendor_dispatch"),
                "frames %s, %s, %s", fa.frames[0], fa.frames[1], fa.frames[2]);
    T_CHECK_MSG(!strcmp(fa.location, "/src/drv/paging.c:212"), "location '%s'", fa.location);
    char ta[640], tb[640];
    T_CHECK(pbc_triage_signature(&fa, ta, sizeof(ta)) == pbc_triage_signature(&fb, tb, sizeof(tb)));
    T_CHECK(!strstr(ta, "0x") && !strstr(ta, "212"));
    /* A read is the same bug's cousin, not the same bucket, and less severe. */
    asan_report(b, sizeof(b), "0x602000000110", "READ");
    pbc_triage_from_isolation("crash", "SUMMARY", b, NULL, &fb);
    T_CHECK(!strcmp(fb.access, "READ"));
    T_CHECK(pbc_triage_signature(&fa, ta, sizeof(ta)) != pbc_triage_signature(&fb, tb, sizeof(tb)));
    T_CHECK(pbc_triage_severity(&fa) < pbc_triage_severity(&fb));
}

/* A SEGV's access, as AddressSanitizer words it. */
T_TEST(segv_access)
{
    static const char *const accesses[] = {"WRITE", "READ"};
    for (int k = 0; k < 2; k++) {
        char report[1024];
        snprintf(report, sizeof(report),
                 "==9==ERROR: AddressSanitizer: SEGV on unknown address 0x000000001234 (pc 0x1 bp 0x2 sp 0x3 T0)\n"
                 "==9==The signal is caused by a %s memory access.\n"
                 "    #0 0x7f in vendor_poke /src/drv/poke.c:9:5\n",
                 accesses[k]);
        pbc_triage_facts f;
        pbc_triage_from_isolation("crash", "SEGV", report, NULL, &f);
        T_CHECK_MSG(f.cls == PBC_TRIAGE_SANITIZER && !strcmp(f.kind, "SEGV") && !strcmp(f.access, accesses[k]),
                    "kind '%s' access '%s'", f.kind, f.access);
        T_CHECK(pbc_triage_severity(&f) == k);
    }
}

T_TEST(ubsan_and_signals)
{
    pbc_triage_facts f;
    pbc_triage_from_isolation("crash", "runtime error",
                              "/src/drv/paging.c:77:21: runtime error: left shift of 1 by 31 places cannot be "
                              "represented in type 'int'\n",
                              NULL, &f);
    T_CHECK(f.cls == PBC_TRIAGE_SANITIZER);
    T_CHECK_MSG(!strcmp(f.kind, "undefined: left shift"), "kind '%s'", f.kind);
    /* The worker's own backtrace: a builder library's frames symbolized
     * (FN at FILE:LINE (MODULE+0xOFF)), pbcheck's by glibc. */
    const char *bt = "pbcheck: worker: fatal signal, backtrace:\n"
                     "/usr/bin/pbcheck(+0x2f1c3)[0x55e0c2a3c1c3]\n"
                     "/lib/x86_64-linux-gnu/libc.so.6(+0x3c050)[0x7f1c1a63c050]\n"
                     "hostile_build at /src/hostile/h.c:31 (/tmp/x/libhostile.so+0x1139)\n"
                     "/usr/bin/pbcheck(pbc_shim_call_build+0x55)[0x55e0c2a3d000]\n";
    pbc_triage_from_isolation("crash", "SIGSEGV (signal 11) in hostile_build", bt, "/tmp/x/libhostile.so", &f);
    T_CHECK(f.cls == PBC_TRIAGE_CRASH && !strcmp(f.kind, "SIGSEGV"));
    T_CHECK_MSG(!strcmp(f.frames[0], "hostile_build") && !f.frames[1][0], "frames %s, %s", f.frames[0], f.frames[1]);
    T_CHECK(!strcmp(f.location, "/src/hostile/h.c:31"));
    /* A library in a folder whose name holds spaces, parentheses or '@'
     * (a CI workspace) gives the same signature. */
    char a[640], b[640];
    uint64_t here = pbc_triage_signature(&f, a, sizeof(a));
    const char *moved = "pbcheck: worker: fatal signal, backtrace:\n"
                        "/usr/bin/pbcheck(+0x2f1c3)[0x55e0c2a3c1c3]\n"
                        "/ci/ws@2/build (copy)/libhostile.so(hostile_build+0x19)[0x7f1c1a000139]\n"
                        "/usr/bin/pbcheck(pbc_shim_call_build+0x55)[0x55e0c2a3d000]\n";
    pbc_triage_from_isolation("crash", "SIGSEGV (signal 11)", moved, "/ci/ws@2/build (copy)/libhostile.so", &f);
    T_CHECK_MSG(!strcmp(f.frames[0], "hostile_build") && !f.frames[1][0], "frames '%s', '%s'", f.frames[0],
                f.frames[1]);
    f.location[0] = 0;
    T_CHECK(pbc_triage_signature(&f, b, sizeof(b)) == here);
    /* A driver's functions named like pbcheck's stay the driver's when a
     * sanitizer names their file. */
    pbc_triage_from_isolation("crash", "SUMMARY",
                              "==1==ERROR: AddressSanitizer: SEGV on unknown address 0x0\n"
                              "    #0 0x7f in gpu_emit_fill /src/drv/gpu.c:21:5\n"
                              "    #1 0x7f in vm_build_paging /src/drv/vm.c:40:3\n"
                              "    #2 0x55 in pbc_shim_call_build /b/pbcheck/harness/kernel/shim.c:501:12\n",
                              "/opt/drv/libgpu.so", &f);
    T_CHECK_MSG(!strcmp(f.frames[0], "gpu_emit_fill") && !strcmp(f.frames[1], "vm_build_paging") && !f.frames[2][0],
                "frames '%s', '%s', '%s'", f.frames[0], f.frames[1], f.frames[2]);
    /* Where a hang or a runaway allocation stopped is not part of it. */
    pbc_triage_from_isolation("timeout", "no answer within 20 s", bt, NULL, &f);
    T_CHECK(f.cls == PBC_TRIAGE_TIMEOUT && !f.frames[0][0]);
}

T_TEST(divergences_by_shape)
{
    pbc_scenario s;
    char err[256];
    const char *text = "pbs 1\nalloc A size=8K\ntransfer A to=1:0x0 split=2\nend\n";
    T_CHECK(pbc_scenario_parse(text, strlen(text), "t", &s, err, sizeof(err)) == 0);
    pbc_outcome out;
    memset(&out, 0, sizeof(out));
    out.verdict = PBC_VERDICT_FAIL;
    snprintf(out.rule, sizeof(out.rule), "PB-DIVERGE");
    out.op = 0;
    snprintf(out.shape.region, sizeof(out.shape.region), "segment");
    snprintf(out.shape.writer, sizeof(out.shape.writer), "packet");
    out.shape.subs = 2;
    out.shape.passes = 1;
    pbc_triage_facts f1, f2;
    pbc_triage_from_outcome(&out, &s, &f1);
    T_CHECK(f1.cls == PBC_TRIAGE_DIVERGE && !strcmp(f1.operation, "transfer") && !strcmp(f1.shape, "one-pass"));
    char t1[640], t2[640];
    /* Who wrote the byte last is in the title, not the signature: a page a
     * resumed pass skipped and one it wrote wrong are one bug. */
    snprintf(out.shape.writer, sizeof(out.shape.writer), "none");
    pbc_triage_from_outcome(&out, &s, &f2);
    T_CHECK(pbc_triage_signature(&f1, t1, sizeof(t1)) == pbc_triage_signature(&f2, t2, sizeof(t2)));
    out.shape.passes = 3; /* resumed in another buffer: another circumstance, another bucket */
    pbc_triage_from_outcome(&out, &s, &f2);
    T_CHECK(!strcmp(f2.shape, "resumed"));
    T_CHECK(pbc_triage_signature(&f1, t1, sizeof(t1)) != pbc_triage_signature(&f2, t2, sizeof(t2)));
    out.verdict = PBC_VERDICT_PASS;
    pbc_triage_from_outcome(&out, &s, &f1);
    T_CHECK(f1.cls == PBC_TRIAGE_NO_REPRO && pbc_triage_severity(&f1) > pbc_triage_severity(&f2));
    pbc_scenario_fini(&s);
}

/* A bucket of facts f with n inputs, into r. */
static void add_bucket(pbc_triage_run *r, const char *cls_rule, const char *op, const char *writer, uint32_t n)
{
    pbc_triage_facts f;
    memset(&f, 0, sizeof(f));
    f.cls = strcmp(cls_rule, "PB-DIVERGE") ? PBC_TRIAGE_RULE : PBC_TRIAGE_DIVERGE;
    snprintf(f.rule, sizeof(f.rule), "%s", cls_rule);
    snprintf(f.operation, sizeof(f.operation), "%s", op);
    snprintf(f.writer, sizeof(f.writer), "%s", writer);
    snprintf(f.region, sizeof(f.region), "segment");
    int k = pbc_triage_bucket_of(r, &f);
    r->buckets[k].count += n;
}

/* One wrong address seen several ways is one root cause: divergences in
 * several operations and a GPU fault of the same writer, and a divergence
 * whose wrong bytes render work wrote over (so the page's last writer is
 * not the builder's) when the run has one root cause it can belong to;
 * with two (a packet's and the CPU's), it stays apart rather than guess. */
T_TEST(root_causes_join_one_bug)
{
    pbc_triage_run r;
    memset(&r, 0, sizeof(r));
    add_bucket(&r, "PB-DIVERGE", "transfer", "packet", 5);
    add_bucket(&r, "PB-DIVERGE", "fill", "packet", 2);
    add_bucket(&r, "PB-GPU-FAULT", "", "packet", 3);
    add_bucket(&r, "PB-DIVERGE", "", "render", 4);
    add_bucket(&r, "PB-FENCE", "", "", 1);
    pbc_triage_sort(&r);
    T_CHECK_MSG(r.root_count == 2, "%u root causes", r.root_count);
    uint32_t memory = r.buckets[0].root;
    for (uint32_t i = 0; i < r.bucket_count; i++)
        T_CHECK_MSG((r.buckets[i].root == memory) == (strcmp(r.buckets[i].facts.rule, "PB-FENCE") != 0),
                    "bucket %s (%s, %s) in %s", r.buckets[i].id, r.buckets[i].facts.rule, r.buckets[i].facts.writer,
                    r.roots[r.buckets[i].root].id);
    T_CHECK(r.roots[memory].inputs == 14 && r.roots[memory].buckets == 4);
    pbc_triage_run_fini(&r);

    add_bucket(&r, "PB-DIVERGE", "transfer", "packet", 5);
    add_bucket(&r, "PB-DIVERGE", "fill", "cpu", 2);
    add_bucket(&r, "PB-DIVERGE", "write-physical", "render", 1);
    pbc_triage_sort(&r);
    T_CHECK_MSG(r.root_count == 3, "%u root causes", r.root_count);
    pbc_triage_run_fini(&r);
}

/* Where no store is known, a rule's failure is the DDI and the field of
 * its calls that the rule judges: a wrong status in a Fill and one in a
 * Transfer are one root cause (a bug in code the operations share shows
 * in each), a wrong status and a wrong pDmaBuffer two, memory left wrong
 * in a pass and in a resumed pass one; a rule about no call (PB-KERNEL)
 * keeps its signature. */
T_TEST(root_cause_without_store_is_ddi_field)
{
    pbc_scenario s;
    char err[256];
    const char *text = "pbs 1\nalloc A size=8K at=none\nalloc B size=8K\nfill A to=1:0x0 pattern=0x4a4a4a4a\n"
                       "transfer B to=1:0x10000\nend\n";
    T_CHECK(pbc_scenario_parse(text, strlen(text), "t", &s, err, sizeof(err)) == 0);
    static const struct {
        const char *rule;
        uint32_t op;
        const char *ddi;
    } cases[] = {
        {"PB-STATUS", 0, "BuildPagingBuffer: status returned"},
        {"PB-STATUS", 1, "BuildPagingBuffer: status returned"},
        {"PB-DMA-ADVANCE", 0, "BuildPagingBuffer: pDmaBuffer returned"},
        {"PB-FENCE", 1, "SubmitCommand: fence written"},
        {"PB-KERNEL", 1, ""},
        {"PB-DIVERGE", 1, "BuildPagingBuffer: memory written"},
    };
    pbc_triage_run r;
    memset(&r, 0, sizeof(r));
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        pbc_outcome out;
        memset(&out, 0, sizeof(out));
        out.verdict = PBC_VERDICT_FAIL;
        snprintf(out.rule, sizeof(out.rule), "%s", cases[i].rule);
        out.op = cases[i].op;
        snprintf(out.shape.region, sizeof(out.shape.region), "segment");
        snprintf(out.shape.writer, sizeof(out.shape.writer), "none");
        pbc_triage_facts f;
        pbc_triage_from_outcome(&out, &s, &f);
        T_CHECK_MSG(!strcmp(f.ddi, cases[i].ddi), "%s: '%s'", cases[i].rule, f.ddi);
        int k = pbc_triage_bucket_of(&r, &f);
        r.buckets[k].count++;
        if (!strcmp(cases[i].rule, "PB-DIVERGE")) { /* resumed: another bucket, the same field */
            snprintf(f.shape, sizeof(f.shape), "resumed");
            k = pbc_triage_bucket_of(&r, &f);
            r.buckets[k].count++;
        }
    }
    pbc_triage_sort(&r);
    T_CHECK_MSG(r.bucket_count == 7 && r.root_count == 5, "%u buckets, %u root causes", r.bucket_count,
                r.root_count);
    for (uint32_t i = 0; i < r.bucket_count; i++) {
        const pbc_triage_bucket *b = &r.buckets[i];
        const char *key = r.roots[b->root].key;
        T_CHECK_MSG(b->facts.ddi[0] ? !strncmp(key, "ddi|", 4) && !strcmp(key + 4, b->facts.ddi)
                                    : !strncmp(key, "rule|PB-KERNEL", 14),
                    "%s in %s: %s", b->facts.rule, b->facts.operation, key);
    }
    pbc_triage_run_fini(&r);
    pbc_scenario_fini(&s);
}

/* The candidates shrink: operations, allocations nothing names, splits,
 * sizes, offsets, paging-buffer sizes; each a copy, the original intact. */
T_TEST(simplify_candidates)
{
    const char *text = "pbs 1\nalloc A size=64K at=1:0x40000 mdl-offset=2\nalloc B size=8K\ndma size=4096\n"
                       "transfer A to=system split=4\nrender-read A offset=0x1000 size=4K\nend\n";
    pbc_scenario s;
    char err[256];
    T_CHECK(pbc_scenario_parse(text, strlen(text), "t", &s, err, sizeof(err)) == 0);
    uint32_t k = 0, fewer_ops = 0, fewer_allocs = 0, smaller = 0, less_split = 0, min_dma = 0, zero = 0;
    pbc_scenario c;
    while (pbc_triage_simplify(&s, k, &c) == 0) {
        fewer_ops += c.op_count < s.op_count;
        fewer_allocs += c.alloc_count < s.alloc_count;
        smaller += c.alloc_count == s.alloc_count && c.allocs[0].size < s.allocs[0].size;
        less_split += c.op_count == s.op_count && c.ops[1].split < s.ops[1].split;
        min_dma += c.op_count == s.op_count && c.ops[0].dma_size == 0;
        zero += c.alloc_count == s.alloc_count && (c.allocs[0].at.offset == 0 || c.allocs[0].mdl_offset == 0);
        pbc_scenario_fini(&c);
        k++;
    }
    T_CHECK_MSG(fewer_ops == 3 && fewer_allocs == 1 && smaller >= 1 && less_split == 1 && min_dma == 1 && zero >= 1,
                "ops %u allocs %u smaller %u split %u dma %u zero %u", fewer_ops, fewer_allocs, smaller, less_split,
                min_dma, zero);
    T_CHECK(s.op_count == 3 && s.alloc_count == 2 && s.allocs[0].size == 64 * 1024);
    pbc_scenario_fini(&s);
}

/* Byte-level delta debugging keeps exactly what the failure needs. */
static int needs_ab_and_z(void *ctx, const uint8_t *b, size_t n)
{
    (*(int *)ctx)++;
    int ab = 0, z = 0;
    for (size_t i = 0; i < n; i++) {
        ab |= i + 1 < n && b[i] == 'A' && b[i + 1] == 'B';
        z |= b[i] == 'Z';
    }
    return ab && z;
}

T_TEST(byte_level_fallback)
{
    uint8_t data[256];
    for (size_t i = 0; i < sizeof(data); i++)
        data[i] = (uint8_t)('a' + i % 26);
    memcpy(data + 40, "AB", 2);
    data[200] = 'Z';
    size_t n = sizeof(data);
    int calls = 0;
    uint32_t made = pbc_triage_ddmin(data, &n, needs_ab_and_z, &calls, 10000);
    T_CHECK_MSG(n == 3 && !memcmp(data, "ABZ", 3), "kept %zu bytes: %.*s", n, (int)n, data);
    T_CHECK((int)made == calls && made < 200);
    /* The budget bounds it. */
    memcpy(data, "xxABxxxxZxx", 11);
    n = 11;
    calls = 0;
    T_CHECK(pbc_triage_ddmin(data, &n, needs_ab_and_z, &calls, 2) == 2 && calls == 2);
}

T_MAIN()
