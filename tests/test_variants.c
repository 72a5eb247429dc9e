/* Every legal variant builder passes the seed corpus with zero findings at
 * three paging-buffer sizes, twice each (PB-NONDET), and really makes the
 * choice it claims, seen in the run record or by calling it directly. */
#include <inttypes.h>

#include "ref_builder.h"
#include "registry.h"
#include "exec/runner.h"
#include "exec/target.h"
#include "ref_isa.h"
#include "seeds.h"
#include "t.h"

static const pbc_scenario *seed(const char *name)
{
    load_seeds();
    for (int i = 0; i < nseeds; i++)
        if (!strcmp(seed_names[i], name))
            return &seeds[i];
    T_CHECK_MSG(0, "no seed %s", name);
    return NULL;
}

static const uint32_t dma_sizes[] = {0, 100, 4096};

/* The reference declares every DXGK operation 0-22, and so does every
 * legal variant (they share its GpuMmu operations): certify and the seeds
 * then run all of them on each, none skipped. variant-drain-worker is
 * ExWorker, which pages with the CPU: a CPU worker cannot flush the GPU's
 * TLB, so it declares the WDDM 1.x operations it carries out. */
T_TEST(every_operation_declared)
{
    uint64_t all = PBC_OP_BIT(DXGK_OPERATION_NOTIFY_ALLOC + 1) - 1;
    T_CHECK_MSG(DXGK_OPERATION_NOTIFY_ALLOC == 22, "NotifyAlloc is %d", (int)DXGK_OPERATION_NOTIFY_ALLOC);
    T_CHECK_MSG(pbc_target_reference.supported_operations == all, "the reference declares 0x%" PRIx64,
                (uint64_t)pbc_target_reference.supported_operations);
    uint32_t n;
    const pbc_target_entry *e = pbc_target_list(&n);
    for (uint32_t i = 0; i < n; i++)
        if (e[i].kind == PBC_TARGET_KIND_VARIANT && strcmp(e[i].target->name, "variant-drain-worker"))
            T_CHECK_MSG((e[i].target->supported_operations & all) == all, "%s declares 0x%" PRIx64,
                        e[i].target->name, (uint64_t)e[i].target->supported_operations);
}

T_TEST(every_variant_passes_corpus)
{
    load_seeds();
    uint32_t n;
    const pbc_target_entry *e = pbc_target_list(&n);
    pbc_runner r;
    pbc_runner_init(&r);
    int variants = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (e[i].kind != PBC_TARGET_KIND_VARIANT)
            continue;
        variants++;
        T_CHECK_MSG(e[i].expected_rule == NULL, "%s: a variant expects no rule", e[i].target->name);
        int failed = 0;
        for (int k = 0; k < nseeds; k++)
            for (size_t d = 0; d < sizeof(dma_sizes) / sizeof(dma_sizes[0]); d++) {
                pbc_run_options o = {.dma_override = dma_sizes[d], .check_determinism = 1};
                pbc_outcome out;
                pbc_runner_run(&r, &seeds[k], e[i].target, &o, &out);
                if (out.verdict == PBC_VERDICT_PASS || out.verdict == PBC_VERDICT_SKIP)
                    continue;
                /* The first failure per variant in full; then one line each. */
                if (failed++ == 0)
                    fprintf(stderr, "  %s on %s (dma %u): %s %s\n    %s\n", e[i].target->name, seed_names[k],
                            dma_sizes[d], pbc_verdict_name(out.verdict), out.rule, out.message);
                else
                    fprintf(stderr, "  %s on %s (dma %u): %s %s\n", e[i].target->name, seed_names[k],
                            dma_sizes[d], pbc_verdict_name(out.verdict), out.rule);
            }
        T_CHECK_MSG(failed == 0, "%s: %d of %d runs did not pass", e[i].target->name, failed,
                    nseeds * (int)(sizeof(dma_sizes) / sizeof(dma_sizes[0])));
    }
    T_CHECK(variants >= 12);
    pbc_runner_fini(&r);
}

/* Large work in the smallest buffers: a legal builder may move as little
 * as a block per call (variant-inline-data fills 256 bytes per call, 16
 * calls a page) and may work on all of an allocation where the operation
 * names only its place (variant-discard-scribble fills what it discards).
 * Neither is a livelock, however many calls it takes. */
T_TEST(every_variant_passes_large_work_in_small_buffers)
{
    const char *text = "pbs 1\nalloc A size=4M at=none\nalloc B size=48M at=2:0x1000000\n"
                       "dma size=min\nfill A to=2:0x0 pattern=0x01020304\ndiscard B\nend\n";
    pbc_scenario s;
    char err[256];
    T_CHECK_MSG(pbc_scenario_parse(text, strlen(text), "large-work", &s, err, sizeof(err)) == 0, "%s", err);
    uint32_t n;
    const pbc_target_entry *e = pbc_target_list(&n);
    pbc_runner r;
    pbc_runner_init(&r);
    for (uint32_t i = 0; i < n; i++) {
        if (e[i].kind != PBC_TARGET_KIND_VARIANT)
            continue;
        pbc_run_options o = {0};
        pbc_outcome out;
        pbc_runner_run(&r, &s, e[i].target, &o, &out);
        T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "%s: %s %s %s", e[i].target->name,
                    pbc_verdict_name(out.verdict), out.rule, out.message);
    }
    pbc_runner_fini(&r);
    pbc_scenario_fini(&s);
}

/* What one run of `name` on `s` left in its record. */
static pbc_record run_record(const char *name, const pbc_scenario *s, uint32_t dma, uint64_t *bytes)
{
    pbc_runner r;
    pbc_runner_init(&r);
    pbc_run_options o = {.dma_override = dma};
    pbc_outcome out;
    const pbc_target *t = pbc_target_find(name);
    T_CHECK_MSG(t != NULL, "no target %s", name);
    pbc_record res = {0};
    *bytes = 0;
    if (t && s) {
        pbc_runner_run(&r, s, t, &o, &out);
        res = r.target.res;
        for (uint32_t i = 0; i < res.write_count; i++)
            *bytes += res.writes[i].end - res.writes[i].start;
        /* Only the counters are kept: the arrays die with the runner. */
        res.writes = NULL;
        res.subs = NULL;
        res.masks = NULL;
        res.owners = NULL;
    }
    pbc_runner_fini(&r);
    return res;
}

T_TEST(big_packets_needs_fewer_bytes)
{
    const pbc_scenario *s = seed("transfer-seg-to-seg.pbs");
    uint64_t big, ref;
    pbc_record b = run_record("variant-big-packets", s, 4096, &big);
    pbc_record f = run_record("reference", s, 4096, &ref);
    T_CHECK_MSG(big < ref && b.calls <= f.calls, "big-packets wrote %llu bytes in %u calls, reference %llu in %u",
                (unsigned long long)big, b.calls, (unsigned long long)ref, f.calls);
}

/* MDL pages in a row merge too, a run per packet, long runs included. */
T_TEST(big_packets_merges_mdl_runs)
{
    const pbc_scenario *s = seed("phys-runs-merge.pbs");
    uint64_t big, ref;
    run_record("variant-big-packets", s, 4096, &big);
    run_record("reference", s, 4096, &ref);
    T_CHECK_MSG(big * 2 < ref, "big-packets wrote %llu bytes, reference %llu", (unsigned long long)big,
                (unsigned long long)ref);
    const char *text = "pbs 1\nalloc A size=68M phys=contiguous\ntransfer A to=2:0x0\ntransfer A to=system\nend\n";
    pbc_scenario c;
    char err[256];
    T_CHECK_MSG(pbc_scenario_parse(text, strlen(text), "contiguous-68m", &c, err, sizeof(err)) == 0, "%s", err);
    pbc_runner r;
    pbc_runner_init(&r);
    pbc_run_options o = {.dma_override = 4096};
    pbc_outcome out;
    pbc_runner_run(&r, &c, pbc_target_find("variant-big-packets"), &o, &out);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "%s %s", pbc_verdict_name(out.verdict), out.message);
    pbc_runner_fini(&r);
    pbc_scenario_fini(&c);
}

T_TEST(busy_unless_idle_retries)
{
    /* Its transfers follow GPU work on allocations not marked needs-idle. */
    const pbc_scenario *s = seed("dma-large-buffers.pbs");
    uint64_t bytes;
    pbc_record v = run_record("variant-busy-unless-idle", s, 0, &bytes);
    pbc_record f = run_record("reference", s, 0, &bytes);
    T_CHECK_MSG(v.busy_retries > f.busy_retries, "busy retries: variant %u, reference %u", v.busy_retries,
                f.busy_retries);
}

T_TEST(early_insufficient_leaves_room)
{
    const pbc_scenario *s = seed("transfer-seg-to-seg.pbs");
    uint64_t bytes;
    pbc_record v = run_record("variant-early-insufficient", s, 256, &bytes);
    pbc_record f = run_record("reference", s, 256, &bytes);
    T_CHECK_MSG(v.insufficient > f.insufficient, "INSUFFICIENT answers: variant %u, reference %u",
                v.insufficient, f.insufficient);
}

T_TEST(cpu_when_idle_writes_no_packets_for_idle_transfers)
{
    const pbc_scenario *s = seed("busy-retry.pbs");
    uint64_t cpu, ref;
    run_record("variant-cpu-when-idle", s, 0, &cpu);
    run_record("reference", s, 0, &ref);
    T_CHECK_MSG(cpu < ref, "variant wrote %llu bytes, reference %llu", (unsigned long long)cpu,
                (unsigned long long)ref);
}

/* ---- Direct calls, with a host that records what it is asked ---- */

typedef struct fake_host {
    uint32_t rings, fences;
    uint64_t phys[4];
    UINT start[4], end[4];
} fake_host;

static void fake_ring(void *ctx, UINT seg, uint64_t phys, UINT start, UINT end)
{
    (void)seg;
    fake_host *f = ctx;
    if (f->rings < 4) {
        f->phys[f->rings] = phys;
        f->start[f->rings] = start;
        f->end[f->rings] = end;
    }
    f->rings++;
}
static void fake_fence(void *ctx, UINT fence)
{
    (void)fence;
    ((fake_host *)ctx)->fences++;
}
static uint32_t fake_mmio_read(void *ctx, uint32_t offset)
{
    (void)ctx;
    (void)offset;
    return 0;
}
static void fake_mmio_write(void *ctx, uint32_t offset, uint32_t value)
{
    (void)ctx;
    (void)offset;
    (void)value;
}
static void fake_log(void *ctx, const char *line)
{
    (void)ctx;
    (void)line;
}

static HANDLE open_adapter(const pbc_target *t, fake_host *f, pbc_host *h)
{
    *h = (pbc_host){PBC_TARGET_ABI_VERSION, sizeof(pbc_host), f, fake_ring, fake_fence,
                    fake_mmio_read, fake_mmio_write, fake_log};
    pbc_adapter_info info = {.struct_size = sizeof(info), .host = h};
    HANDLE a = NULL;
    T_CHECK(t->create_adapter(&info, &a) == STATUS_SUCCESS);
    return a;
}

/* A 16 KiB fill of segment memory, into `buf` with `priv` private bytes. */
static DXGKARG_BUILDPAGINGBUFFER fill_args(uint8_t *buf, UINT size, uint8_t *priv, UINT priv_size)
{
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof(a));
    a.pDmaBuffer = buf;
    a.DmaSize = size;
    a.pDmaBufferPrivateData = priv;
    a.DmaBufferPrivateDataSize = priv_size;
    a.Operation = DXGK_OPERATION_FILL;
    a.Fill.FillSize = 16384;
    a.Fill.FillPattern = 0xA5A5A5A5u;
    a.Fill.Destination.SegmentId = 1;
    a.DmaBufferGpuVirtualAddress = 0x300000000ull;
    return a;
}

T_TEST(private_data_advances_and_is_checked)
{
    const pbc_target *t = pbc_target_find("variant-private-data");
    T_CHECK(t && t->private_data_size > 0);
    if (!t)
        return;
    fake_host f = {0};
    pbc_host h;
    HANDLE ad = open_adapter(t, &f, &h);
    uint8_t buf[4096], priv[256];
    DXGKARG_BUILDPAGINGBUFFER a = fill_args(buf, sizeof(buf), priv, t->private_data_size);
    T_CHECK(t->build_paging_buffer(ad, &a) == STATUS_SUCCESS);
    UINT used = (UINT)((uint8_t *)a.pDmaBuffer - buf), pused = (UINT)((uint8_t *)a.pDmaBufferPrivateData - priv);
    T_CHECK_MSG(pused > 0, "private data did not advance");
    DXGKARG_SUBMITCOMMAND c;
    memset(&c, 0, sizeof(c));
    c.DmaBufferSize = sizeof(buf);
    c.DmaBufferSubmissionEndOffset = used;
    c.pDmaBufferPrivateData = priv;
    c.DmaBufferPrivateDataSize = t->private_data_size;
    c.DmaBufferPrivateDataSubmissionEndOffset = pused;
    c.Flags.Paging = 1;
    T_CHECK(t->submit_command(ad, &c) == STATUS_SUCCESS);
    /* A private range that does not describe the submission is refused. */
    c.DmaBufferPrivateDataSubmissionEndOffset = 0;
    T_CHECK(t->submit_command(ad, &c) != STATUS_SUCCESS);
    t->destroy_adapter(ad);
}

T_TEST(own_progress_leaves_multipass_offset_zero)
{
    const pbc_target *t = pbc_target_find("variant-own-progress");
    const pbc_target *ref = pbc_target_find("reference");
    fake_host f = {0};
    pbc_host h;
    HANDLE ad = open_adapter(t, &f, &h), rd = open_adapter(ref, &f, &h);
    uint8_t mine[4096] = {0}, theirs[4096] = {0};
    int calls = 0;
    /* 48-byte buffers hold two of the four fill packets: both builders must
     * emit the same packets in the same places, in two calls. */
    DXGKARG_BUILDPAGINGBUFFER a = fill_args(mine, 48, NULL, 0), b = fill_args(theirs, 48, NULL, 0);
    for (NTSTATUS sa = 0, sb = 0; calls < 8; calls++) {
        a.pDmaBuffer = mine + calls * 48;
        a.DmaSize = 48;
        b.pDmaBuffer = theirs + calls * 48;
        b.DmaSize = 48;
        sa = t->build_paging_buffer(ad, &a);
        sb = ref->build_paging_buffer(rd, &b);
        T_CHECK(sa == sb);
        T_CHECK(a.MultipassOffset == 0);
        if (sa == STATUS_SUCCESS)
            break;
    }
    T_CHECK_MSG(calls == 1 && !memcmp(mine, theirs, 2 * 48), "finished after %d calls", calls + 1);
    t->destroy_adapter(ad);
    ref->destroy_adapter(rd);
}

T_TEST(ring_pieces_rings_more_than_once)
{
    const pbc_target *t = pbc_target_find("variant-ring-pieces");
    fake_host f = {0};
    pbc_host h;
    HANDLE ad = open_adapter(t, &f, &h);
    uint8_t buf[4096];
    DXGKARG_BUILDPAGINGBUFFER a = fill_args(buf, sizeof(buf), NULL, 0);
    T_CHECK(t->build_paging_buffer(ad, &a) == STATUS_SUCCESS);
    UINT used = (UINT)((uint8_t *)a.pDmaBuffer - buf);
    DXGKARG_PATCH p;
    memset(&p, 0, sizeof(p));
    p.DmaBufferPhysicalAddress.QuadPart = 0x300000000ll;
    p.pDmaBuffer = buf;
    p.DmaBufferSize = sizeof(buf);
    p.DmaBufferSubmissionEndOffset = used;
    p.SubmissionFenceId = 1;
    p.Flags.Paging = 1;
    T_CHECK(t->patch(ad, &p) == STATUS_SUCCESS);
    DXGKARG_SUBMITCOMMAND c;
    memset(&c, 0, sizeof(c));
    c.DmaBufferPhysicalAddress.QuadPart = 0x300000000ll;
    c.DmaBufferSize = sizeof(buf);
    c.DmaBufferSubmissionEndOffset = used;
    c.SubmissionFenceId = 1;
    c.Flags.Paging = 1;
    T_CHECK(t->submit_command(ad, &c) == STATUS_SUCCESS);
    T_CHECK_MSG(f.rings == 2 && f.fences == 1, "%u rings, %u fences", f.rings, f.fences);
    /* Together the pieces are exactly [0, used). */
    T_CHECK(f.phys[0] + f.start[0] == 0x300000000ull);
    T_CHECK(f.phys[0] + f.end[0] == f.phys[1] + f.start[1]);
    T_CHECK(f.phys[1] + f.end[1] == 0x300000000ull + used);
    t->destroy_adapter(ad);
}

/* variant-gpu-scratch really writes into its paging buffer with the GPU:
 * after a lone WritePhysical (nothing after it in the buffer, so VidMm
 * never poisons the scratch again) the last 16 bytes of the buffer hold
 * what its WRITE put there (4 zero bytes), not poison, and the run
 * passes; a WritePhysical run by the GPU before a ReadPhysical is built in
 * the same buffer passes too: the second call is handed the scratch back
 * as free space, poison again (without vm_scratch_forget it fails
 * PB-DMA-ADVANCE: bytes past its pointer are not poison). */
T_TEST(gpu_scratch_writes_its_buffer)
{
    static const char *const texts[] = {"pbs 1\nwrite-physical at=1:0x2000\nend\n",
                                        "pbs 1\nwrite-physical at=1:0x2000\nidle\nread-physical at=2:0x8\nend\n"};
    for (size_t k = 0; k < 2; k++) {
        pbc_scenario s;
        char err[256];
        T_CHECK_MSG(pbc_scenario_parse(texts[k], strlen(texts[k]), "scratch", &s, err, sizeof(err)) == 0, "%s",
                    err);
        pbc_runner r;
        pbc_runner_init(&r);
        pbc_run_options o = {.dma_override = 4096};
        pbc_outcome out;
        pbc_runner_run(&r, &s, pbc_target_find("variant-gpu-scratch"), &o, &out);
        T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "%s %s", out.rule, out.message);
        const pbc_record *res = &r.target.res;
        T_CHECK(res->sub_count >= 1 && res->buffers == 1);
        if (k == 0 && res->sub_count) {
            const uint8_t *end = r.target.gpu->dma_pool + res->subs[0].pool_offset + 4096;
            static const uint8_t zero[4];
            T_CHECK_MSG(!memcmp(end - 16, zero, 4), "scratch holds %02x %02x %02x %02x", end[-16], end[-15],
                        end[-14], end[-13]);
        }
        pbc_runner_fini(&r);
        pbc_scenario_fini(&s);
    }
}

T_TEST(patch_fence_writes_one_fence_and_rings_none)
{
    const pbc_target *t = pbc_target_find("variant-patch-fence");
    fake_host f = {0};
    pbc_host h;
    HANDLE ad = open_adapter(t, &f, &h);
    uint8_t buf[4096];
    DXGKARG_BUILDPAGINGBUFFER a = fill_args(buf, sizeof(buf), NULL, 0);
    T_CHECK(t->build_paging_buffer(ad, &a) == STATUS_SUCCESS);
    a.DmaSize = (UINT)(buf + sizeof(buf) - (uint8_t *)a.pDmaBuffer);
    T_CHECK(t->build_paging_buffer(ad, &a) == STATUS_SUCCESS); /* a second call: a second placeholder */
    UINT used = (UINT)((uint8_t *)a.pDmaBuffer - buf);
    DXGKARG_PATCH p;
    memset(&p, 0, sizeof(p));
    p.pDmaBuffer = buf;
    p.DmaBufferSize = sizeof(buf);
    p.DmaBufferSubmissionEndOffset = used;
    p.SubmissionFenceId = 7;
    p.Flags.Paging = 1;
    T_CHECK(t->patch(ad, &p) == STATUS_SUCCESS);
    int fences = 0;
    uint64_t id = 0;
    UINT last_end = 0;
    for (UINT off = 0; off < used;) {
        pbc_uop u;
        size_t len;
        const char *why;
        if (t->isa->decode(buf + off, used - off, &u, &len, &why) != PBC_DECODE_OK)
            break;
        if (u.kind == PBC_UOP_FENCE) {
            fences++;
            id = u.value;
            last_end = off + (UINT)len;
        }
        off += (UINT)len;
    }
    T_CHECK_MSG(fences == 1 && id == 7 && last_end == used, "%d fences, id %llu, ends at 0x%x of 0x%x", fences,
                (unsigned long long)id, last_end, used);
    DXGKARG_SUBMITCOMMAND c;
    memset(&c, 0, sizeof(c));
    c.DmaBufferSubmissionEndOffset = used;
    c.SubmissionFenceId = 7;
    T_CHECK(t->submit_command(ad, &c) == STATUS_SUCCESS);
    T_CHECK(f.rings == 1 && f.fences == 0);
    t->destroy_adapter(ad);
}

T_TEST(aligned_64_aligns_every_packet)
{
    const pbc_target *t = pbc_target_find("variant-aligned-64");
    fake_host f = {0};
    pbc_host h;
    HANDLE ad = open_adapter(t, &f, &h);
    uint8_t buf[4096];
    DXGKARG_BUILDPAGINGBUFFER a = fill_args(buf, sizeof(buf), NULL, 0);
    T_CHECK(t->build_paging_buffer(ad, &a) == STATUS_SUCCESS);
    UINT used = (UINT)((uint8_t *)a.pDmaBuffer - buf);
    int work = 0;
    for (UINT off = 0; off < used;) {
        pbc_uop u;
        size_t len;
        const char *why;
        if (t->isa->decode(buf + off, used - off, &u, &len, &why) != PBC_DECODE_OK)
            break;
        if (u.kind != PBC_UOP_NOP) {
            work++;
            T_CHECK_MSG(off % 64 == 0, "packet at 0x%x", off);
        }
        off += (UINT)len;
    }
    T_CHECK(work == 4);
    t->destroy_adapter(ad);
}

T_MAIN()

/* The GpuMmu variants make their choice on a GPU virtual seed: the work
 * they hand the GPU differs from the reference's (and every_variant_passes
 * holds them to the same verdict). */
T_TEST(gpummu_variants_make_their_choices)
{
    const pbc_scenario *s = seed("va-unmap-reuse.pbs");
    uint64_t bytes;
    pbc_record ref = run_record("reference", s, 4096, &bytes);
    T_CHECK(ref.exec_hash != 0);
    static const char *const names[] = {"variant-flush-all", "variant-pte-gpu-virtual", "variant-mmu-tricks",
                                        "variant-native-pte", "variant-mmu-cpu-worker",
                                        "variant-worker-fence-packet"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        pbc_record v = run_record(names[i], s, 4096, &bytes);
        T_CHECK_MSG(v.exec_hash != ref.exec_hash, "%s gave the GPU the reference's work", names[i]);
        T_CHECK_MSG(v.findings.count == 0, "%s: a finding", names[i]);
    }
}

/* The highest PageTableLevel VidMm handed the builder. */
static UINT top_level_seen;
static DXGKDDI_BUILDPAGINGBUFFER *native_build;

static NTSTATUS APIENTRY level_spy_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->Operation == DXGK_OPERATION_UPDATE_PAGE_TABLE && a->UpdatePageTable.PageTableLevel > top_level_seen)
        top_level_seen = a->UpdatePageTable.PageTableLevel;
    return native_build(adapter, a);
}

/* variant-native-pte keeps its tables in its GPU's own 8-byte format, four
 * levels deep: it passes because the MMU reads entries through its ISA's
 * decoder and VidMm builds the four levels its ISA declares (with three
 * declared, three); judged as if its entries were DXGK_PTE, it fails. */
T_TEST(native_pte_is_read_through_its_decoder)
{
    const pbc_target *native = pbc_target_find("variant-native-pte");
    T_CHECK(native != NULL && pbc_isa_pte_size(native->isa) == 8 && pbc_isa_pte_decode(native->isa) &&
            pbc_isa_pt_levels(native->isa) == 4);
    if (!native)
        return;
    pbc_target as_dxgk = *native, as_three = *native;
    as_dxgk.isa = &ref_isa; /* the reference's ISA: entries are read as DXGK_PTE */
    pbc_isa three = *native->isa;
    three.pt_levels = 3;
    as_three.isa = &three;
    as_three.build_paging_buffer = level_spy_build;
    pbc_target as_four = as_three;
    as_four.isa = native->isa;
    native_build = native->build_paging_buffer;
    static const char *const names[] = {"va-64k-pages.pbs", "va-unmap-reuse.pbs", "va-map-into-reserved.pbs",
                                        "va-move-tables.pbs", "va-transfer-fill-virtual.pbs"};
    pbc_runner r;
    pbc_runner_init(&r);
    int misread = 0;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        const pbc_scenario *s = seed(names[i]);
        if (!s)
            continue;
        pbc_run_options o = {.dma_override = 4096};
        pbc_outcome out;
        pbc_runner_run(&r, s, native, &o, &out);
        T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "%s: %s %s %s", names[i], pbc_verdict_name(out.verdict),
                    out.rule, out.message);
        pbc_runner_run(&r, s, &as_dxgk, &o, &out);
        misread += out.verdict == PBC_VERDICT_FAIL;
        /* Its code follows the levels VidMm hands: three work as well. */
        top_level_seen = 0;
        pbc_runner_run(&r, s, &as_three, &o, &out);
        T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS && top_level_seen == 2, "%s with three levels: %s (root level %u)",
                    names[i], pbc_verdict_name(out.verdict), top_level_seen);
        top_level_seen = 0;
        pbc_runner_run(&r, s, &as_four, &o, &out);
        T_CHECK_MSG(top_level_seen == 3, "%s: VidMm's root level %u on a GPU of four levels", names[i], top_level_seen);
    }
    T_CHECK_MSG(misread == (int)(sizeof(names) / sizeof(names[0])), "%d of %zu seeds failed with the entries misread",
                misread, sizeof(names) / sizeof(names[0]));
    pbc_runner_fini(&r);
}

/* An adapter whose MMU lacks zero pages, read-only pages or 64 KiB leaves
 * (DXGK_GPUMMUCAPS) is never asked for them: those operations are skipped
 * as unsupported, never failed, and the rest still runs. */
T_TEST(gpummu_lacks_skip_what_the_mmu_cannot_do)
{
    static const pbc_adapter_decl lacking = {
        .struct_size = sizeof(pbc_adapter_decl),
        .gpummu_lacks = PBC_GPUMMU_NO_ZERO | PBC_GPUMMU_NO_READ_ONLY | PBC_GPUMMU_NO_64K,
    };
    pbc_target t = *pbc_target_find("reference");
    t.adapter = &lacking;
    pbc_sop zero = {.kind = PBC_SOP_VA_ZERO}, no_access = {.kind = PBC_SOP_VA_ZERO, .flags = PBC_SOP_VA_NO_ACCESS};
    pbc_sop ro = {.kind = PBC_SOP_VA_MAP, .flags = PBC_SOP_VA_READ_ONLY}, big = {.kind = PBC_SOP_VA_MAP, .flags = PBC_SOP_VA_64K};
    pbc_sop plain = {.kind = PBC_SOP_VA_MAP};
    T_CHECK(!pbc_sop_op_supported(&t, &zero) && !pbc_sop_op_supported(&t, &ro) && !pbc_sop_op_supported(&t, &big));
    T_CHECK(pbc_sop_op_supported(&t, &no_access) && pbc_sop_op_supported(&t, &plain));
    const pbc_target *full = pbc_target_find("reference");
    T_CHECK(pbc_sop_op_supported(full, &zero) && pbc_sop_op_supported(full, &ro) && pbc_sop_op_supported(full, &big));
    pbc_runner r;
    pbc_runner_init(&r);
    pbc_run_options o = {0};
    pbc_outcome out;
    pbc_runner_run(&r, seed("va-64k-pages.pbs"), &t, &o, &out);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_SKIP && strstr(out.message, "no 64 KiB leaves"),
                "64 KiB seed on an MMU without 64 KiB leaves: %s %s", pbc_verdict_name(out.verdict), out.message);
    pbc_scenario s;
    char err[256];
    const char *text = "pbs 1\nalloc A size=64K at=1:0x0\nalloc B size=16K at=1:0x20000\n"
                       "va-map A read-only\nva-zero count=4\nva-map B\nend\n";
    T_CHECK_MSG(pbc_scenario_parse(text, strlen(text), "lacks", &s, err, sizeof(err)) == 0, "%s", err);
    T_CHECK(pbc_scenario_keep_supported(&s, &t) == 2 && s.op_count == 1 && s.ops[0].kind == PBC_SOP_VA_MAP);
    pbc_runner_run(&r, &s, &t, &o, &out);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "%s %s", pbc_verdict_name(out.verdict), out.message);
    pbc_scenario_fini(&s);
    pbc_runner_fini(&r);
}

static int nat_like_decode(const uint8_t *entry, uint32_t level, uint64_t *flags, uint64_t *page)
{
    (void)entry, (void)level;
    *flags = *page = 0;
    return 0;
}

/* An ISA table from before the entry format (a smaller struct_size) means
 * DXGK_PTE, whatever lies past its end; a target check refuses sizes other
 * than 8 and 16, and an own size without a decoder. */
T_TEST(entry_format_defaults_and_checks)
{
    pbc_isa old = ref_isa;
    old.struct_size = PBC_ISA_SIZE_BASE;
    old.pte_size = 8; /* past the table's end: not read */
    old.pte_decode = nat_like_decode;
    T_CHECK(pbc_isa_pte_size(&old) == 16 && pbc_isa_pte_decode(&old) == NULL);
    pbc_target t = *pbc_target_find("reference");
    t.isa = &old;
    T_CHECK(pbc_exec_target_check(&t) == NULL);
    pbc_isa bad = ref_isa;
    bad.pte_size = 12;
    t.isa = &bad;
    T_CHECK(pbc_exec_target_check(&t) != NULL);
    bad.pte_size = 8;
    T_CHECK(pbc_exec_target_check(&t) != NULL); /* no decoder */
    bad.pte_decode = nat_like_decode;
    T_CHECK(pbc_exec_target_check(&t) == NULL);
    bad.pt_levels = 5;
    T_CHECK(pbc_exec_target_check(&t) != NULL);
    bad.pt_levels = 4;
    T_CHECK(pbc_exec_target_check(&t) == NULL);
    T_CHECK(pbc_isa_pt_levels(&old) == 3);
}


/* A builder that does every operation with the CPU writes nothing into the
 * paging buffer, so it needs none: min_dma_size 0 is a declaration, not a
 * mistake. More than 1 MiB still is. */
T_TEST(min_dma_size_zero_is_accepted)
{
    pbc_target t = *pbc_target_find("reference");
    t.min_dma_size = 0;
    const char *why = pbc_exec_target_check(&t);
    T_CHECK_MSG(why == NULL, "refused: %s", why ? why : "");
    t.min_dma_size = (1u << 20) + 1;
    T_CHECK(pbc_exec_target_check(&t) != NULL);
}
