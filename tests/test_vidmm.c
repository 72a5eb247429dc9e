/* The VidMm model honours every V line of SPEC-TRACE.md. A spy target
 * wraps the reference builder and records what Windows' side handed it. */
#include <inttypes.h>

#include "ref_builder.h"
#include "ref_isa.h"
#include "exec/runner.h"
#include "registry.h"
#include "vidmm/vm.h"
#include "t.h"

#define MAX_CALLS 4096

typedef struct spy_call {
    DXGKARG_BUILDPAGINGBUFFER in, out;
    NTSTATUS status;
    uint32_t mdl_pages, mdl_flags; /* the transfer's MDL side (InitContextResource's MDL), as seen during the call */
    uint32_t ctx_data[2];          /* UpdateContextAllocation's first data words */
} spy_call;

static spy_call calls[MAX_CALLS];
static int ncalls;
static DXGKARG_PATCH patches[MAX_CALLS];
static DXGKARG_SUBMITCOMMAND submits[MAX_CALLS];
static int npatches, nsubmits;

static const pbc_gpu *spy_gpu; /* when set, the GPU as the spy's calls see it */
static int maps_while_busy;

static NTSTATUS APIENTRY spy_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    spy_call *c = &calls[ncalls < MAX_CALLS ? ncalls++ : MAX_CALLS - 1];
    c->in = *a;
    if (spy_gpu && (a->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT ||
                    a->Operation == DXGK_OPERATION_UNMAP_APERTURE_SEGMENT))
        maps_while_busy += spy_gpu->executed < spy_gpu->queued;
    const MDL *m = NULL;
    if (a->Operation == DXGK_OPERATION_TRANSFER)
        m = a->Transfer.Source.SegmentId == 0        ? a->Transfer.Source.pMdl
            : a->Transfer.Destination.SegmentId == 0 ? a->Transfer.Destination.pMdl
                                                     : NULL; /* segment to segment: no MDL */
    if (a->Operation == DXGK_OPERATION_INIT_CONTEXT_RESOURCE && a->InitContextResource.Destination.SegmentId == 0)
        m = a->InitContextResource.Destination.pMdl;
    c->mdl_pages = m ? m->ByteCount / 4096 : 0;
    if (a->Operation == DXGK_OPERATION_UPDATE_CONTEXT_ALLOCATION && a->UpdateContextAllocation.DriverPrivateDataSize >= 8)
        memcpy(c->ctx_data, a->UpdateContextAllocation.pDriverPrivateData, 8); /* alive only during the call */
    c->mdl_flags = m ? (uint32_t)m->MdlFlags : 0;
    c->status = ref_build_paging_buffer(adapter, a);
    c->out = *a;
    return c->status;
}

static NTSTATUS APIENTRY spy_patch(IN_CONST_HANDLE adapter, const DXGKARG_PATCH *a)
{
    patches[npatches < MAX_CALLS ? npatches++ : MAX_CALLS - 1] = *a;
    return ref_patch(adapter, a);
}

static NTSTATUS APIENTRY spy_submit(IN_CONST_HANDLE adapter, const DXGKARG_SUBMITCOMMAND *a)
{
    submits[nsubmits < MAX_CALLS ? nsubmits++ : MAX_CALLS - 1] = *a;
    return ref_submit_command(adapter, a);
}

static pbc_target spy;

static void spy_init(uint64_t ops)
{
    spy = pbc_target_reference;
    spy.name = "spy";
    spy.build_paging_buffer = spy_build;
    spy.patch = spy_patch;
    spy.submit_command = spy_submit;
    spy.supported_operations = ops;
    ncalls = npatches = nsubmits = 0;
}

static const char *busy_mix =
    "pbs 1\n"
    "alloc A size=20K mdl-offset=2 needs-idle\n"
    "alloc B size=12K at=1:0x10000 needs-idle\n"
    "alloc P size=8K primary\n"
    "alloc C size=8K at=none\n"
    "dma size=min\n"
    "render-write B offset=0 size=4K pattern=0x1\n"
    "transfer A to=2:0x4000 split=3\n"
    "render-write A offset=0 size=64 pattern=0x2\n"
    "transfer B to=system split=2\n"
    "dma size=100\n"
    "transfer A to=system split=5\n"
    "map P aperture=3:0 coherent\n"
    "render-read P offset=0 size=8K via=aperture\n"
    "unmap P\n"
    "map B aperture=3:16\n"
    "unmap B\n"
    "fill C to=1:0x40000 pattern=0xabcdef01\n"
    "render-write C offset=4 size=8 pattern=0x3\n"
    "discard C\n"
    "dma size=4K\n"
    "read-physical at=1:0x80000\n"
    "write-physical at=1:0x80008\n"
    "transfer A to=1:0x100000\n"
    "special-lock-transfer A to=system\n"
    "end\n";

/* The spy's outcome on `text`, with its BuildPagingBuffer replaced by
 * `build` unless that is NULL. */
/* One run of s on t, in a runner of its own. */
static pbc_outcome run_on(const pbc_scenario *s, const pbc_target *t, int determinism)
{
    pbc_runner r;
    pbc_runner_init(&r);
    pbc_run_options o = {.check_determinism = determinism};
    pbc_outcome out;
    pbc_runner_run(&r, s, t, &o, &out);
    pbc_runner_fini(&r);
    return out;
}

/* The same for a scenario's text. */
static pbc_outcome run_text_on(const char *text, const pbc_target *t, int determinism)
{
    pbc_scenario s;
    char err[256];
    T_CHECK_MSG(pbc_scenario_parse(text, strlen(text), t->name, &s, err, sizeof(err)) == 0, "%s", err);
    pbc_outcome out = run_on(&s, t, determinism);
    pbc_scenario_fini(&s);
    return out;
}

static pbc_outcome run_spy_with(const char *text, uint64_t ops, __typeof__(spy.build_paging_buffer) build)
{
    spy_init(ops);
    if (build)
        spy.build_paging_buffer = build;
    return run_text_on(text, &spy, 0);
}

static pbc_outcome run_spy(const char *text, uint64_t ops) { return run_spy_with(text, ops, NULL); }

static int same_operation(const DXGKARG_BUILDPAGINGBUFFER *a, const DXGKARG_BUILDPAGINGBUFFER *b)
{
    DXGKARG_BUILDPAGINGBUFFER x = *a, y = *b;
    x.Transfer.Flags.AllocationIsIdle = y.Transfer.Flags.AllocationIsIdle = 0;
    return x.Operation == y.Operation && !memcmp(&x.Transfer, &y.Transfer, sizeof(x.Reserved));
}

T_TEST(spy_scenario_passes)
{
    pbc_outcome out = run_spy(busy_mix, pbc_target_reference.supported_operations);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "%s", out.message);
    T_CHECK_MSG(ncalls > 30 && nsubmits > 15, "%d calls, %d submissions", ncalls, nsubmits);
}

/* S01, S04, S10: fresh buffers are 4 KiB aligned; DmaSize is what is left;
 * DmaBufferWriteOffset is the offset from the buffer's start. */
T_TEST(buffers_aligned_and_sized)
{
    run_spy(busy_mix, pbc_target_reference.supported_operations);
    for (int i = 0; i < ncalls; i++) {
        const DXGKARG_BUILDPAGINGBUFFER *a = &calls[i].in;
        uintptr_t start = (uintptr_t)a->pDmaBuffer - a->DmaBufferWriteOffset;
        T_CHECK(start % 4096 == 0);
        T_CHECK(a->DmaBufferGpuVirtualAddress % 4096 == 0 && a->DmaBufferGpuVirtualAddress != 0);
        if (i > 0 && (uintptr_t)calls[i - 1].in.pDmaBuffer - calls[i - 1].in.DmaBufferWriteOffset == start)
            T_CHECK(a->DmaBufferWriteOffset + a->DmaSize ==
                    calls[i - 1].in.DmaBufferWriteOffset + calls[i - 1].in.DmaSize);
        T_CHECK(a->hSystemContext != NULL);
    }
}

/* S05, S08, S13, S16: an operation starts at MultipassOffset 0, and every
 * call after INSUFFICIENT or BUSY gets the same operation with the
 * MultipassOffset the builder left, bit for bit. */
T_TEST(multipass_offset_preserved)
{
    run_spy(busy_mix, pbc_target_reference.supported_operations);
    int retries = 0;
    for (int i = 0; i < ncalls; i++) {
        int continues = i > 0 && calls[i - 1].status != STATUS_SUCCESS;
        if (continues) {
            T_CHECK(same_operation(&calls[i].in, &calls[i - 1].in));
            T_CHECK(calls[i].in.MultipassOffset == calls[i - 1].out.MultipassOffset);
            retries++;
        } else {
            T_CHECK(calls[i].in.MultipassOffset == 0);
        }
    }
    T_CHECK_MSG(retries > 15, "%d retries", retries);
}

/* S15, S17: sub-transfers of one transfer run in order, the first flagged
 * TransferStart and the last TransferEnd, never interleaved. */
T_TEST(transfer_start_end_order)
{
    run_spy(busy_mix, pbc_target_reference.supported_operations);
    int open = 0, transfers = 0;
    for (int i = 0; i < ncalls; i++) {
        const DXGKARG_BUILDPAGINGBUFFER *a = &calls[i].in;
        if (a->Operation != DXGK_OPERATION_TRANSFER)
            continue;
        int retry = i > 0 && calls[i - 1].status != STATUS_SUCCESS;
        if (a->Transfer.Flags.TransferStart && !retry) {
            T_CHECK(!open); /* the previous transfer ended first */
            open = 1;
            transfers++;
            T_CHECK(a->Transfer.TransferOffset == 0);
        } else if (!retry) {
            T_CHECK(open);
        }
        if (a->Transfer.Flags.TransferEnd && calls[i].status == STATUS_SUCCESS) {
            /* the last sub-transfer ends at the allocation's end: A is 20K, B 12K */
            uint64_t end = a->Transfer.TransferOffset + a->Transfer.TransferSize;
            T_CHECK_MSG(end == 20 * 1024 || end == 12 * 1024, "ends at 0x%llx", (unsigned long long)end);
            open = 0;
        }
    }
    T_CHECK(!open && transfers == 4);
}

/* S12, S14: an MDL side has SegmentId 0 and MdlOffset names the first page
 * of the sub-transfer; a segment side's address is base + offset. */
T_TEST(transfer_sides)
{
    run_spy(busy_mix, pbc_target_reference.supported_operations);
    int mdl_sides = 0;
    for (int i = 0; i < ncalls; i++) {
        const DXGKARG_BUILDPAGINGBUFFER *a = &calls[i].in;
        if (a->Operation != DXGK_OPERATION_TRANSFER)
            continue;
        if (a->Transfer.Source.SegmentId == 0 || a->Transfer.Destination.SegmentId == 0) {
            mdl_sides++;
            T_CHECK(calls[i].mdl_flags & MDL_PAGES_LOCKED);
            uint32_t lead = calls[i].mdl_pages == 7 ? 2 : 0; /* A: 5 pages + 2 foreign; B: 3 pages */
            T_CHECK(a->Transfer.MdlOffset == lead + a->Transfer.TransferOffset / 4096);
            T_CHECK(a->Transfer.TransferOffset % 4096 == 0);
        }
        if (a->Transfer.Destination.SegmentId == 2)
            T_CHECK(a->Transfer.Destination.SegmentAddress.QuadPart == 0x1000000000ll + 0x4000);
    }
    T_CHECK(mdl_sides > 5);
}

/* S21-S24: without AllocationIsIdle the reference returns BUSY for
 * allocations that need idle; VidMm then waits and calls again with it. */
T_TEST(busy_retried_with_idle)
{
    run_spy(busy_mix, pbc_target_reference.supported_operations);
    int busy = 0;
    for (int i = 0; i + 1 < ncalls; i++) {
        if (calls[i].status != STATUS_GRAPHICS_ALLOCATION_BUSY)
            continue;
        busy++;
        T_CHECK(calls[i].out.pDmaBuffer == calls[i].in.pDmaBuffer);
        const DXGKARG_BUILDPAGINGBUFFER *next = &calls[i + 1].in;
        UINT idle = next->Operation == DXGK_OPERATION_DISCARD_CONTENT ? next->DiscardContent.Flags.AllocationIsIdle
                                                                     : next->Transfer.Flags.AllocationIsIdle;
        T_CHECK(idle);
        T_CHECK(same_operation(next, &calls[i].in));
    }
    T_CHECK(busy >= 3);
}

/* S40: paging buffers in a memory segment are handed over as segment id
 * and segment base + offset, inside the segment's paging window, and the
 * run passes (the GPU fetches them there). */
T_TEST(paging_buffers_in_a_segment)
{
    pbc_outcome out = run_spy("pbs 1\npaging-buffers segment=1\nalloc A size=40K\ndma size=100\n"
                              "transfer A to=2:0x0 split=2\ntransfer A to=system\nend\n",
                              pbc_target_reference.supported_operations);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "%s", out.message);
    T_CHECK(nsubmits > 2 && npatches == nsubmits);
    uint64_t lo = (64ull << 20) - PBC_PAGING_WINDOW, hi = 64ull << 20; /* default segment 1: 64 MiB at 0 */
    for (int i = 0; i < nsubmits; i++) {
        uint64_t pa = (uint64_t)submits[i].DmaBufferPhysicalAddress.QuadPart;
        T_CHECK_MSG(submits[i].DmaBufferSegmentId == 1 && pa >= lo && pa < hi, "submit %d: segment %u 0x%llx", i,
                    submits[i].DmaBufferSegmentId, (unsigned long long)pa);
        T_CHECK(patches[i].DmaBufferSegmentId == 1 &&
                patches[i].DmaBufferPhysicalAddress.QuadPart == submits[i].DmaBufferPhysicalAddress.QuadPart);
    }
    for (int i = 0; i < ncalls; i++)
        T_CHECK(calls[i].in.DmaBufferGpuVirtualAddress >= lo && calls[i].in.DmaBufferGpuVirtualAddress < hi);
}

/* S24: raw GPU work queued by address may touch the allocation, so the
 * next transfer is not offered AllocationIsIdle until it has run; once the
 * GPU is idle, it is. */
T_TEST(idle_flag_waits_for_raw_gpu_work)
{
    run_spy("pbs 1\nalloc A size=8K at=1:0x0\ngpu-write at=1:0x0 size=4K pattern=0x77\n"
            "transfer A to=2:0x0\nidle\ntransfer A to=1:0x0\nend\n",
            pbc_target_reference.supported_operations);
    int transfers = 0;
    for (int i = 0; i < ncalls; i++) {
        if (calls[i].in.Operation != DXGK_OPERATION_TRANSFER)
            continue;
        T_CHECK_MSG(calls[i].in.Transfer.Flags.AllocationIsIdle == (transfers > 0),
                    "transfer %d: AllocationIsIdle=%u", transfers, calls[i].in.Transfer.Flags.AllocationIsIdle);
        transfers++;
    }
    T_CHECK(transfers == 2);
}

/* Render work still queued on a range whose allocation has left it
 * (discarded, moved out) runs before paging work that puts another
 * allocation there, fill or transfer: VidMm reuses a range only once the
 * GPU is done with it, on whichever engine. The reference passes. */
T_TEST(range_reused_after_its_render_work)
{
    static const char *const texts[] = {
        "pbs 1\nalloc A size=8K at=1:0x0\nalloc B size=4K at=none\ndma size=24\n"
        "render-write A offset=0 size=8K pattern=0xb0b0f903\ndiscard A\nfill B to=1:0x1000 pattern=0x12345678\n"
        "end\n",
        "pbs 1\nalloc A size=8K at=1:0x0\nalloc B size=8K\n"
        "render-write A offset=0 size=8K pattern=0x0badf00d\ntransfer A to=2:0x0\ntransfer B to=1:0x0\n"
        "render-read B offset=0 size=8K\nend\n",
    };
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        pbc_outcome out = run_spy(texts[i], pbc_target_reference.supported_operations);
        T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "case %zu: %s %s", i, out.rule, out.message);
    }
}

/* S36, S38-S41, S45, S47: every buffer part is patched then submitted with
 * the same offsets, a paging flag, no lists, the buffer's start address. */
T_TEST(patch_and_submit_agree)
{
    run_spy(busy_mix, pbc_target_reference.supported_operations);
    T_CHECK(npatches == nsubmits && nsubmits > 0);
    int nonzero_start = 0;
    for (int i = 0; i < nsubmits; i++) {
        const DXGKARG_PATCH *p = &patches[i];
        const DXGKARG_SUBMITCOMMAND *c = &submits[i];
        T_CHECK(p->pAllocationList == NULL && p->AllocationListSize == 0);
        T_CHECK(p->pPatchLocationList == NULL && p->PatchLocationListSize == 0);
        T_CHECK(p->PatchLocationListSubmissionStart == 0 && p->PatchLocationListSubmissionLength == 0);
        T_CHECK(p->DmaBufferSubmissionStartOffset == c->DmaBufferSubmissionStartOffset);
        T_CHECK(p->DmaBufferSubmissionEndOffset == c->DmaBufferSubmissionEndOffset);
        T_CHECK(p->SubmissionFenceId == c->SubmissionFenceId && c->SubmissionFenceId == (UINT)i + 1);
        T_CHECK(p->DmaBufferPhysicalAddress.QuadPart == c->DmaBufferPhysicalAddress.QuadPart);
        T_CHECK(c->DmaBufferPhysicalAddress.QuadPart % 4096 == 0);
        T_CHECK(p->Flags.Paging && c->Flags.Paging && c->hDevice == NULL);
        T_CHECK(c->DmaBufferSegmentId == 0 && p->DmaBufferSegmentId == 0);
        T_CHECK(c->DmaBufferVirtualAddress == 0 && c->EngineOrdinal == 0 && c->VidPnSourceId == 0);
        T_CHECK(c->DmaBufferSubmissionStartOffset < c->DmaBufferSubmissionEndOffset);
        T_CHECK(c->DmaBufferSubmissionEndOffset <= c->DmaBufferSize);
        if (c->DmaBufferSubmissionStartOffset) {
            nonzero_start++;
            T_CHECK(i > 0 && submits[i - 1].DmaBufferPhysicalAddress.QuadPart == c->DmaBufferPhysicalAddress.QuadPart);
            T_CHECK(submits[i - 1].DmaBufferSubmissionEndOffset == c->DmaBufferSubmissionStartOffset);
        }
    }
    T_CHECK(nonzero_start > 0); /* one buffer served several submissions (S43) */
}

/* S26, S34: fills target memory segments; the primary's map has no device. */
T_TEST(fill_segments_and_primary_device)
{
    run_spy(busy_mix, pbc_target_reference.supported_operations);
    /* busy_mix maps the primary P, then B, which is not primary (S34). */
    int primary_maps = 0, device_maps = 0, primary_unmaps = 0, device_unmaps = 0;
    for (int i = 0; i < ncalls; i++) {
        const DXGKARG_BUILDPAGINGBUFFER *a = &calls[i].in;
        if (a->Operation == DXGK_OPERATION_FILL)
            T_CHECK(a->Fill.Destination.SegmentId == 1);
        if (a->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT) {
            T_CHECK(a->MapApertureSegment.hAllocation != NULL);
            primary_maps += a->MapApertureSegment.hDevice == NULL;
            device_maps += a->MapApertureSegment.hDevice != NULL;
        }
        if (a->Operation == DXGK_OPERATION_UNMAP_APERTURE_SEGMENT) {
            T_CHECK(a->UnmapApertureSegment.DummyPage.QuadPart != 0);
            primary_unmaps += a->UnmapApertureSegment.hDevice == NULL;
            device_unmaps += a->UnmapApertureSegment.hDevice != NULL;
        }
    }
    T_CHECK_MSG(primary_maps >= 1 && device_maps >= 1, "%d primary, %d device maps", primary_maps, device_maps);
    T_CHECK(primary_unmaps >= 1 && device_unmaps >= 1);
}

/* S20: an operation a target does not support is reported, not failed. */
T_TEST(unsupported_operation_skips)
{
    uint64_t ops = pbc_target_reference.supported_operations & ~PBC_OP_BIT(DXGK_OPERATION_SPECIAL_LOCK_TRANSFER);
    pbc_outcome out = run_spy(busy_mix, ops);
    T_CHECK(out.verdict == PBC_VERDICT_SKIP && strstr(out.message, "special-lock-transfer"));
    T_CHECK(ncalls == 0);
}

/* S32: map and unmap are issued while the GPU still has work queued on
 * other parts of the aperture; an unmap waits only for work on its own
 * range (map B runs with A's work pending, unmap A with B's). */
T_TEST(map_unmap_while_gpu_busy)
{
    const char *text = "pbs 1\nalloc A size=8K\nalloc B size=8K\nmap A aperture=3:0\n"
                       "render-write A offset=0 size=8K pattern=0x5 via=aperture\n"
                       "map B aperture=3:8\nrender-write B offset=0 size=8K pattern=0x6 via=aperture\n"
                       "unmap A\nend\n";
    pbc_scenario s;
    char err[256];
    T_CHECK(pbc_scenario_parse(text, strlen(text), "busy-map", &s, err, sizeof(err)) == 0);
    const char *why;
    pbc_gpu *gpu = pbc_gpu_create(s.segments, s.segment_count, &ref_isa, &why);
    spy_init(pbc_target_reference.supported_operations);
    spy_gpu = gpu;
    maps_while_busy = 0;
    pbc_record res;
    pbc_record_init(&res);
    pbc_vidmm_options o = {PBC_MODE_TARGET, 0, 0, NULL};
    T_CHECK(pbc_vidmm_run(gpu, &s, &spy, &o, &res) == 0);
    T_CHECK_MSG(maps_while_busy == 2, "%d of the map/unmap calls saw pending GPU work", maps_while_busy);
    spy_gpu = NULL;
    pbc_record_fini(&res);
    pbc_gpu_destroy(gpu);
    pbc_scenario_fini(&s);
}

/* An allocation's life: DestroyAllocation comes only once the GPU has run
 * the render work queued on it and every paging buffer submitted so far,
 * while render work queued since on another allocation may still wait;
 * CreateAllocation asks the builder again, and the allocation starts
 * where the scenario says with its new content (the run passes). */
static int destroys, creates, destroy_pending;
static void spy_destroy_allocation(HANDLE adapter, HANDLE allocation)
{
    if (spy_gpu && !destroys++)
        destroy_pending = (int)(spy_gpu->queued - spy_gpu->executed);
    ref_destroy_allocation(adapter, allocation);
}
static NTSTATUS spy_create_allocation(HANDLE adapter, const pbc_allocation_info *info, HANDLE *allocation)
{
    creates++;
    return ref_create_allocation(adapter, info, allocation);
}

T_TEST(destroy_waits_and_create_asks_the_builder)
{
    const char *text = "pbs 1\nalloc A size=8K at=1:0x0\nalloc B size=8K at=2:0x0\n"
                       "render-write A offset=0 size=8K pattern=0x5\ntransfer B to=1:0x10000\n"
                       "render-write B offset=0 size=8K pattern=0x6\ndestroy A\ncreate A at=1:0x2000 seed=7\n"
                       "transfer A to=system split=2\nend\n";
    pbc_scenario s;
    char err[256];
    T_CHECK_MSG(pbc_scenario_parse(text, strlen(text), "life", &s, err, sizeof(err)) == 0, "%s", err);
    const char *why;
    pbc_gpu *gpu = pbc_gpu_create(s.segments, s.segment_count, &ref_isa, &why);
    spy_init(pbc_target_reference.supported_operations);
    spy.create_allocation = spy_create_allocation;
    spy.destroy_allocation = spy_destroy_allocation;
    spy_gpu = gpu;
    destroys = creates = 0;
    pbc_record res;
    pbc_record_init(&res);
    pbc_vidmm_options o = {PBC_MODE_TARGET, 0, 0, NULL};
    T_CHECK(pbc_vidmm_run(gpu, &s, &spy, &o, &res) == 0);
    T_CHECK_MSG(destroy_pending == 1, "%d queue entries pending at the destroy, not just B's render work",
                destroy_pending);
    T_CHECK_MSG(creates == 3 && destroys == 3, "%d creates, %d destroys", creates, destroys);
    spy_gpu = NULL;
    pbc_record_fini(&res);
    pbc_gpu_destroy(gpu);
    pbc_scenario_fini(&s);
    pbc_outcome out = run_spy(text, pbc_target_reference.supported_operations);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "%s", out.message);
}

/* The reference with its BuildPagingBuffer replaced by `build`. */
static pbc_outcome run_with_build(const char *text, __typeof__(spy.build_paging_buffer) build)
{
    return run_spy_with(text, pbc_target_reference.supported_operations, build);
}

/* A failed NT_ASSERT inside the builder is a finding, not a crash. */
static NTSTATUS APIENTRY asserting_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    NT_ASSERT(a->DmaSize >= 1000000);
    return ref_build_paging_buffer(adapter, a);
}

T_TEST(nt_assert_is_a_finding)
{
    pbc_outcome out = run_with_build("pbs 1\nalloc A size=8K\ntransfer A to=1:0\nend\n", asserting_build);
    T_CHECK(out.verdict == PBC_VERDICT_FAIL && !strcmp(out.rule, "PB-ASSERT"));
    T_CHECK_MSG(strstr(out.message, "NT_ASSERT(a->DmaSize >= 1000000) failed"), "%s", out.message);
}

/* A write outside the window is caught wherever it lands in a large
 * buffer, though VidMm reads only the pages around the write offset after
 * a call: the others are sealed, and writing one is noted. Every stray
 * write below lands hundreds of KiB from where its call writes. */
typedef enum stray_kind {
    STRAY_NONE,         /* only reads, which are legal anywhere */
    STRAY_GUARD_AFTER,  /* the guard page after the buffer */
    STRAY_GUARD_BEFORE, /* the guard page before it */
    STRAY_WRITTEN,      /* a byte the first call wrote, not yet submitted */
    STRAY_PAST_RETURN,  /* in the window, far past the pointer returned */
    STRAY_PATCH,        /* Patch, far past its submission */
} stray_kind;

static stray_kind stray;
static int stray_read_poison; /* what the first call read past its window was poison */

#define STRAY_PAD (256u << 10) /* the NOPs a buffer's first call writes, to move later calls away */
#define STRAY_FAR (900u << 10)

static NTSTATUS APIENTRY stray_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    uint8_t *buffer = (uint8_t *)a->pDmaBuffer - a->DmaBufferWriteOffset;
    uint32_t size = a->DmaBufferWriteOffset + a->DmaSize;
    if (a->DmaBufferWriteOffset == 0) {
        stray_read_poison = buffer[-100] == 0xA5 && buffer[STRAY_FAR] == 0xA5 && buffer[size - 1] == 0xA5 &&
                            buffer[size + 100] == 0xA5;
        for (uint32_t at = 0; at < STRAY_PAD; at += 4096)
            ref_encode_nop(buffer + at, 1024);
        a->pDmaBuffer = buffer + STRAY_PAD;
        a->DmaSize -= STRAY_PAD;
    } else if (stray == STRAY_GUARD_AFTER) {
        buffer[size + 2000] ^= 1;
    } else if (stray == STRAY_GUARD_BEFORE) {
        buffer[-3000] ^= 1;
    } else if (stray == STRAY_WRITTEN) {
        buffer[8] ^= 1;
    } else if (stray == STRAY_PAST_RETURN) {
        buffer[STRAY_FAR] ^= 1;
    }
    return ref_build_paging_buffer(adapter, a);
}

static NTSTATUS APIENTRY stray_patch(IN_CONST_HANDLE adapter, const DXGKARG_PATCH *p)
{
    if (stray == STRAY_PATCH)
        ((uint8_t *)p->pDmaBuffer)[STRAY_FAR] ^= 1;
    return ref_patch(adapter, p);
}

/* Two operations in one 1 MiB buffer: the second call starts past the
 * first call's padding. */
static const char *stray_text = "pbs 1\nalloc A size=8K\nalloc B size=8K\ndma size=1M\n"
                                "transfer A to=1:0x0\ntransfer B to=1:0x10000\nend\n";

static pbc_outcome run_stray(pbc_runner *r, stray_kind kind)
{
    pbc_scenario s;
    char err[256];
    T_CHECK_MSG(pbc_scenario_parse(stray_text, strlen(stray_text), "stray", &s, err, sizeof(err)) == 0, "%s", err);
    spy_init(pbc_target_reference.supported_operations);
    spy.build_paging_buffer = stray_build;
    spy.patch = stray_patch;
    stray = kind;
    stray_read_poison = 0;
    pbc_run_options o = {0};
    pbc_outcome out;
    pbc_runner_run(r, &s, &spy, &o, &out);
    pbc_scenario_fini(&s);
    return out;
}

T_TEST(stray_writes_far_from_the_window)
{
    static const struct {
        stray_kind kind;
        const char *rule, *says;
    } cases[] = {
        {STRAY_GUARD_AFTER, "PB-DMA-OVERRUN", "call 2 ("},
        {STRAY_GUARD_BEFORE, "PB-DMA-OVERRUN", "call 2 ("},
        {STRAY_WRITTEN, "PB-DMA-OVERRUN", "call 2 ("},
        {STRAY_PAST_RETURN, "PB-DMA-ADVANCE", "call 2 ("},
        {STRAY_PATCH, "PB-PATCH", "Patch for fence 1"},
    };
    pbc_runner r;
    pbc_runner_init(&r);
    pbc_outcome out = run_stray(&r, STRAY_NONE);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "%s", out.message);
    T_CHECK(stray_read_poison);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        out = run_stray(&r, cases[i].kind);
        T_CHECK_MSG(out.verdict == PBC_VERDICT_FAIL && !strcmp(out.rule, cases[i].rule) &&
                        strstr(out.message, cases[i].says),
                    "stray write %zu: %s %s", i, out.rule, out.message);
        /* The runner keeps the pool between runs: a stray write does not
         * outlive its run. */
        out = run_stray(&r, STRAY_NONE);
        T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS && stray_read_poison, "after stray write %zu: %s", i,
                    out.message);
    }
    pbc_runner_fini(&r);
}

/* A builder that writes into the MDL VidMm hands it is caught, whether the
 * PFN it overwrites lies on the MDL's first page (hashed after every call)
 * or far into a large MDL (guarded pages). */
static uint32_t scribble_pfn;
static int scribble_restores;
static NTSTATUS APIENTRY mdl_scribbling_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->Operation == DXGK_OPERATION_TRANSFER && !a->Transfer.Source.SegmentId) {
        PFN_NUMBER *pfn = MmGetMdlPfnArray(a->Transfer.Source.pMdl);
        pfn[scribble_pfn] ^= 1;
        if (scribble_restores)
            pfn[scribble_pfn] ^= 1; /* put back: only the store itself can tell */
    }
    return ref_build_paging_buffer(adapter, a);
}

T_TEST(mdl_written_is_a_finding)
{
    static const uint32_t pfns[] = {3, 4000, 4000};
    for (int k = 0; k < 3; k++) {
        scribble_pfn = pfns[k];
        scribble_restores = k == 2;
        pbc_outcome out = run_with_build("pbs 1\nalloc A size=16M\ntransfer A to=2:0\nend\n", mdl_scribbling_build);
        T_CHECK_MSG(out.verdict == PBC_VERDICT_FAIL && !strcmp(out.rule, "PB-DMA-OVERRUN"), "pfn %u: %s %s",
                    scribble_pfn, out.rule, out.message);
        T_CHECK_MSG(strstr(out.message, "the MDL VidMm handed it"), "%s", out.message);
    }
}

/* A buffer's private data lives until the buffer retires: 16,384 buffers
 * of 256 KiB private data each (4 GiB) stay within VidMm's budget, the
 * run passes, and buffers reuse the blocks of retired ones. */
T_TEST(private_data_follows_live_buffers)
{
    const pbc_target *t = pbc_target_find("variant-private-256k");
    T_CHECK(t != NULL);
    if (!t)
        return;
    static const char text[] = "pbs 1\nalloc A size=64M at=1:0x0\ntransfer A to=2:0x100000\nend\n";
    pbc_scenario s;
    char err[256];
    T_CHECK(pbc_scenario_parse(text, strlen(text), "priv", &s, err, sizeof(err)) == 0);
    pbc_runner r;
    pbc_runner_init(&r);
    pbc_run_options o = {.dma_override = t->min_dma_size};
    pbc_outcome out;
    pbc_runner_run(&r, &s, t, &o, &out);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "%s: %s", out.rule, out.message);
    T_CHECK_MSG(r.target.res.buffers > 16000, "%u buffers", r.target.res.buffers);
    uint64_t block = t->private_data_size + 2 * VM_PRIV_GUARD;
    T_CHECK_MSG(r.target.res.private_peak <= VM_PRIV_BUDGET && r.target.res.private_peak >= block,
                "%llu bytes of private data live at once", (unsigned long long)r.target.res.private_peak);
    pbc_runner_fini(&r);
    pbc_scenario_fini(&s);
}

/* Chunking invariance: the paging-buffer size changes how the work is cut,
 * never what it does. */
T_TEST(chunking_invariance)
{
    static const uint32_t sizes[] = {24, 25, 48, 52, 96, 100, 1000, 4096, 12288, 65536};
    pbc_scenario s;
    char err[256];
    T_CHECK(pbc_scenario_parse(busy_mix, strlen(busy_mix), "mix", &s, err, sizeof(err)) == 0);
    pbc_runner r;
    pbc_runner_init(&r);
    uint64_t first = 0;
    uint32_t buffers_min = 0, buffers_max = 0;
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        pbc_run_options o = {.dma_override = sizes[i], .digest = 1};
        pbc_outcome out;
        pbc_runner_run(&r, &s, &pbc_target_reference, &o, &out);
        T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "%u: %s", sizes[i], out.message);
        if (i == 0) {
            first = out.digest.total;
            buffers_min = r.target.res.buffers;
        }
        T_CHECK_MSG(out.digest.total == first, "DmaSize %u gives a different state", sizes[i]);
        buffers_max = r.target.res.buffers;
    }
    T_CHECK(buffers_min > 10 * buffers_max); /* the cut really changed */
    pbc_runner_fini(&r);
    pbc_scenario_fini(&s);
}

/* The default call budget grows with the work: a 48 MiB fill in buffers of
 * the minimum size needs one call per page, more than the flat 10000, and a
 * builder doing that makes progress on every call (found by fuzzing). */
T_TEST(call_budget_scales_with_pages)
{
    const char *text = "pbs 1\nalloc A size=48M at=none\ndma size=min\n"
                       "fill A to=1:0x0 pattern=0x01020304\nend\n";
    pbc_scenario s;
    char err[256];
    T_CHECK_MSG(pbc_scenario_parse(text, strlen(text), "big-fill", &s, err, sizeof(err)) == 0, "%s", err);
    pbc_runner r;
    pbc_runner_init(&r);
    pbc_run_options o = {0};
    pbc_outcome out;
    pbc_runner_run(&r, &s, &pbc_target_reference, &o, &out);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "%s %s", out.rule, out.message);
    T_CHECK(r.target.res.calls > PBC_DEFAULT_CALL_BUDGET);
    /* An explicit budget is still a hard limit. */
    o.call_budget = 100;
    pbc_runner_run(&r, &s, &pbc_target_reference, &o, &out);
    T_CHECK(!strcmp(out.rule, "PB-LIVELOCK"));
    pbc_runner_fini(&r);
    pbc_scenario_fini(&s);
}


/* The content oracle checks VidMm itself: with a deliberately wrong VidMm
 * (a test-only switch), the reference and the spec model agree with each
 * other, yet the run is a harness bug because memory contradicts the
 * scenario's history. Without the switch, the same runs pass. */
static void content_oracle_catches(uint32_t experiment, const char *text)
{
    pbc_scenario s;
    char err[256];
    T_CHECK_MSG(pbc_scenario_parse(text, strlen(text), "inline", &s, err, sizeof(err)) == 0, "%s", err);
    pbc_runner r;
    pbc_runner_init(&r);
    pbc_outcome out;
    pbc_run_options o = {0};
    pbc_runner_run(&r, &s, &pbc_target_reference, &o, &out);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "%s", out.message);
    o.experiment = experiment;
    pbc_runner_run(&r, &s, &pbc_target_reference, &o, &out);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_HARNESS_BUG && strstr(out.message, "content oracle"), "%s %s",
                pbc_verdict_name(out.verdict), out.message);
    pbc_runner_fini(&r);
    pbc_scenario_fini(&s);
}

T_TEST(content_oracle_catches_wrong_source_address)
{
    content_oracle_catches(PBC_VIDMM_EXP_SOURCE_PAGE_OFF,
                           "pbs 1\nalloc A size=16K at=1:0x0\ntransfer A to=2:0x0\nend\n");
}

T_TEST(content_oracle_catches_map_without_mdl_offset)
{
    content_oracle_catches(PBC_VIDMM_EXP_MAP_NO_MDL_OFFSET,
                           "pbs 1\nalloc A size=16K mdl-offset=2\nmap A aperture=3:10\nend\n");
}

/* Runs of frames in a row in f[0, n): how many, how many of two or more
 * frames, and how many different lengths they have. */
static uint32_t count_runs(const uint64_t *f, uint32_t n, uint32_t *long_runs, uint32_t *lengths)
{
    uint32_t runs = 0, len = 0, seen[65] = {0};
    *long_runs = *lengths = 0;
    for (uint32_t i = 0; i <= n; i++) {
        if (i < n && i && f[i] == f[i - 1] + 1) {
            len++;
            continue;
        }
        if (len) { /* the run that ended before i */
            runs++;
            *long_runs += len > 1;
            *lengths += !seen[len < 64 ? len : 64]++;
        }
        len = 1;
    }
    return runs;
}

/* Physical layouts (phys=): where the frames of each allocation's MDL,
 * foreign pages included, lie at the end of the run. Scattered pages are
 * where they always were; runs have several lengths; contiguous is one
 * run; straddle-4g is one run across the 4 GiB line with the line between
 * two of the allocation's own pages, and the next such MDL crosses the
 * 8 GiB line; no frame is handed out twice, nor is the dummy page. */
T_TEST(phys_layouts_place_frames)
{
    const char *text = "pbs 1\n"
                       "alloc S size=40K mdl-offset=2\n"
                       "alloc R size=1M phys=runs\n"
                       "alloc C size=96K mdl-offset=3 phys=contiguous\n"
                       "alloc X size=40K mdl-offset=1 phys=straddle-4g\n"
                       "alloc Y size=24K at=2:0x0 phys=straddle-4g\n"
                       "alloc T size=16K\n"
                       "transfer Y to=system\n"
                       "transfer C to=1:0x0\n"
                       "transfer C to=system split=3\n"
                       "end\n";
    pbc_scenario s;
    char err[256];
    T_CHECK_MSG(pbc_scenario_parse(text, strlen(text), "phys", &s, err, sizeof(err)) == 0, "%s", err);
    pbc_runner r;
    pbc_runner_init(&r);
    pbc_run_options o = {0};
    pbc_outcome out;
    pbc_runner_run(&r, &s, &pbc_target_reference, &o, &out);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "%s", out.message);
    const pbc_record *res = &r.target.res;
    T_CHECK(res->alloc_pfn_count == s.alloc_count);
    const uint64_t line4 = (4ull << 30) >> PBC_PAGE_SHIFT, line8 = (8ull << 30) >> PBC_PAGE_SHIFT;
    uint32_t total = 0;
    uint64_t *all = NULL;
    for (uint32_t a = 0; a < s.alloc_count && a < res->alloc_pfn_count; a++) {
        pbc_frames frames;
        T_CHECK(pbc_record_alloc_frames_of(res, a, &frames));
        uint32_t n = (uint32_t)frames.total, lead = s.allocs[a].mdl_offset, long_runs, lengths;
        all = realloc(all, (total + n) * sizeof(*all));
        uint64_t *f = all + total;
        pbc_frames_get(&frames, 0, n, f);
        uint32_t runs = count_runs(f, n, &long_runs, &lengths);
        T_CHECK(n == lead + pbc_alloc_pages(&s.allocs[a]));
        total += n;
        switch (a) {
        case 0: /* S: pool pages 1..12, as before layouts existed (the dummy page is page 0) */
            for (uint32_t i = 0; i < n; i++)
                T_CHECK(f[i] == PBC_SYS_BASE_PFN + (((uint64_t)(i + 1) * 0x9E3779B1u) & (PBC_SYS_WINDOW_PAGES - 1)));
            T_CHECK(runs == n);
            break;
        case 1: /* R: many runs, most of them longer than a page, of many lengths */
            T_CHECK_MSG(runs >= 8 && long_runs * 2 > runs && lengths >= 4, "%u runs, %u long, %u lengths", runs,
                        long_runs, lengths);
            break;
        case 2: /* C, after two moves: still one run */
        case 5: /* T: scattered, but after the runs: the pool's order skips their frames */
            T_CHECK(a == 5 ? runs == n : runs == 1);
            break;
        default: /* X across the 4 GiB line, Y (made later) across the 8 GiB one */
            T_CHECK(runs == 1);
            T_CHECK(f[lead] < (a == 3 ? line4 : line8) && f[n - 1] >= (a == 3 ? line4 : line8));
            break;
        }
    }
    /* Every frame once, none the dummy page. */
    for (uint32_t i = 0; i < total; i++) {
        T_CHECK(all[i] != r.target.gpu->dummy_page >> PBC_PAGE_SHIFT);
        for (uint32_t j = 0; j < i; j++)
            T_CHECK(all[i] != all[j]);
    }
    free(all);
    pbc_runner_fini(&r);
    pbc_scenario_fini(&s);
}

/* S51, S53: the page-table updates of a range carry what its request
 * said: an allocation's range names the allocation and passes its
 * DriverProtection, also when the allocation moves and VidMm writes the
 * range again; a zero range (Protection.Zero, no allocation) has a NULL
 * hAllocation. */
typedef struct pte_seen {
    uint32_t level, repeat, valid, zero;
    UINT64 protection;
    HANDLE allocation;
} pte_seen;

static pte_seen ptes[256];
static int nptes;

static NTSTATUS APIENTRY pte_spy_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &a->UpdatePageTable;
    if (a->Operation == DXGK_OPERATION_UPDATE_PAGE_TABLE && a->MultipassOffset == 0 && nptes < 256 &&
        u->NumPageTableEntries)
        ptes[nptes++] = (pte_seen){u->PageTableLevel, u->Flags.Repeat, u->pPageTableEntries[0].Valid,
                                   u->pPageTableEntries[0].Zero, u->DriverProtection, u->hAllocation};
    return ref_build_paging_buffer(adapter, a);
}

T_TEST(range_updates_carry_allocation_and_driver_protection)
{
    nptes = 0;
    pbc_outcome out = run_spy_with("pbs 1\nalloc A size=16K at=1:0x0\nva-map A driver-protection=0x77\n"
                                   "va-zero count=4\ntransfer A to=1:0x100000\ntransfer A to=system\nend\n",
                                   REF_OPERATIONS_GPUMMU, pte_spy_build);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "%s %s", pbc_verdict_name(out.verdict), out.message);
    int mapped = 0, zero = 0;
    for (int i = 0; i < nptes; i++) {
        const pte_seen *p = &ptes[i];
        if (p->level != 0 || !p->valid)
            continue; /* directories, and the not-valid entries of new tables and released ranges */
        if (p->zero) {
            zero++;
            T_CHECK_MSG(p->allocation == NULL, "a zero range's update names an allocation (S51)");
        } else if (p->allocation) {
            mapped++;
            T_CHECK_MSG(p->protection == 0x77, "update %d of the range: DriverProtection 0x%llx (S53)", i,
                        (unsigned long long)p->protection);
        }
    }
    /* Mapped, moved within its segment, then to system memory. */
    T_CHECK_MSG(mapped == 3 && zero == 1, "%d updates of the allocation's range, %d of the zero range", mapped, zero);
}

/* S35: MapApertureSegment2 hands CpuVisibleAddress only for a CPU-visible
 * allocation: a CPU mapping of its pages from its first, whose bytes are
 * its content (read during the call, as a builder would). */
static int cpu_view_calls;
static int cpu_view_null[4];
static uint8_t cpu_view_bytes[4][PBC_PAGE_SIZE];

static NTSTATUS APIENTRY cpu_view_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT2 && a->MultipassOffset == 0 && cpu_view_calls < 4) {
        const uint8_t *view = a->MapApertureSegment2.CpuVisibleAddress;
        cpu_view_null[cpu_view_calls] = view == NULL;
        if (view)
            memcpy(cpu_view_bytes[cpu_view_calls], view, PBC_PAGE_SIZE);
        cpu_view_calls++;
    }
    return ref_build_paging_buffer(adapter, a);
}

T_TEST(cpu_visible_address)
{
    cpu_view_calls = 0;
    pbc_outcome out = run_with_build("pbs 1\n"
                                     "alloc N size=8K mdl-offset=1 seed=8\n"
                                     "alloc V size=12K mdl-offset=2 seed=7 cpu-visible\n"
                                     "map N aperture=3:0 adl\n"
                                     "map V aperture=3:10 first=1 count=2 adl\n"
                                     "unmap V\nunmap N\n"
                                     "end\n",
                                     cpu_view_build);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "%s", out.message);
    T_CHECK_MSG(cpu_view_calls == 2, "%d MapApertureSegment2 calls", cpu_view_calls);
    T_CHECK_MSG(cpu_view_null[0], "a CPU-visible address for an allocation that is not CPU-visible");
    T_CHECK_MSG(!cpu_view_null[1], "no CPU-visible address for a CPU-visible allocation");
    uint8_t want[PBC_PAGE_SIZE];
    pbc_content_words(7, 0, want, PBC_PAGE_SIZE / 4); /* V's first page: its first words of content */
    T_CHECK_MSG(!cpu_view_null[1] && memcmp(cpu_view_bytes[1], want, sizeof(want)) == 0,
                "CpuVisibleAddress does not show the allocation's first page");
}

/* InitContextResource and UpdateContextAllocation: what the driver writes
 * into the context allocation is its own (another context image passes),
 * but a byte beyond it is not (B follows C). The builders
 * below change the reference's packets after it wrote them. */
typedef enum ctx_change { CTX_OTHER_IMAGE, CTX_INIT_PAST, CTX_UPDATE_PAST, CTX_NOTIFY_FAILS } ctx_change;
static ctx_change ctx_mode;

static NTSTATUS APIENTRY ctx_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    uint8_t *from = a->pDmaBuffer;
    DXGK_BUILDPAGINGBUFFER_OPERATION op = a->Operation;
    uint64_t ctx_size = a->UpdateContextAllocation.ContextAllocationSize;
    NTSTATUS st = ref_build_paging_buffer(adapter, a);
    if (op == DXGK_OPERATION_NOTIFY_RESIDENCY && ctx_mode == CTX_NOTIFY_FAILS)
        return STATUS_UNSUCCESSFUL;
    for (uint8_t *p = from; p && p < (uint8_t *)a->pDmaBuffer; p += (p[2] | p[3] << 8) * 4) {
        if (op == DXGK_OPERATION_INIT_CONTEXT_RESOURCE && p[0] == REF_OP_FILL) {
            uint32_t size;
            memcpy(&size, p + 12, 4);
            uint64_t dst;
            memcpy(&dst, p + 4, 8);
            uint64_t end = (uint64_t)a->InitContextResource.Destination.SegmentAddress.QuadPart +
                           ref_allocation_size(a->InitContextResource.hAllocation);
            if (ctx_mode == CTX_OTHER_IMAGE)
                memset(p + 16, 0xC7, 4);
            else if (ctx_mode == CTX_INIT_PAST && a->InitContextResource.Destination.SegmentId && dst + size == end)
                size += 4; /* the last chunk: four bytes past the allocation */
            memcpy(p + 12, &size, 4);
        }
        if (op == DXGK_OPERATION_UPDATE_CONTEXT_ALLOCATION && p[0] == REF_OP_WRITE && ctx_mode == CTX_UPDATE_PAST) {
            uint64_t dst;
            memcpy(&dst, p + 4, 8);
            dst += ctx_size; /* just past the context's bytes */
            memcpy(p + 4, &dst, 8);
        }
    }
    return st;
}

static pbc_outcome run_ctx(ctx_change mode)
{
    ctx_mode = mode;
    return run_with_build("pbs 1\n"
                          "alloc C size=12K at=1:0x100000 seed=21\n"
                          "alloc B size=8K at=1:0x103000 seed=22\n"
                          "alloc S size=20K mdl-offset=1 seed=23\n"
                          "init-context C\ninit-context S\nva-map C\nupdate-context C\n"
                          "notify-residency C\ntransfer C to=2:0x200000\ntransfer S to=1:0x300000\n"
                          "notify-residency S\nend\n",
                          ctx_build);
}

T_TEST(context_bytes_are_the_drivers)
{
    pbc_outcome out = run_ctx(CTX_OTHER_IMAGE);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "another context image: %s", out.message);
    out = run_ctx(CTX_INIT_PAST);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_FAIL && !strcmp(out.rule, "PB-DIVERGE"), "init past the context: %s %s",
                pbc_verdict_name(out.verdict), out.message);
    /* VidMm's window holds the context and nothing more: past it, a fault. */
    out = run_ctx(CTX_UPDATE_PAST);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_FAIL && !strcmp(out.rule, "PB-GPU-FAULT"), "update past the context: %s %s",
                pbc_verdict_name(out.verdict), out.message);
    out = run_ctx(CTX_NOTIFY_FAILS);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_FAIL && !strcmp(out.rule, "PB-STATUS"), "NotifyResidency fails: %s %s",
                pbc_verdict_name(out.verdict), out.message);
}

/* The operations' arguments: where the context is, its range and size,
 * and where NotifyResidency says an allocation is. */
T_TEST(context_and_residency_arguments)
{
    pbc_outcome out = run_spy("pbs 1\n"
                              "alloc C size=12K at=1:0x100000\n"
                              "alloc S size=8K mdl-offset=2\n"
                              "alloc V size=8K at=system\n"
                              "va-map C first=1\ninit-context C\ninit-context S\nupdate-context C\n"
                              "notify-residency C\nnotify-residency S\nmap V aperture=3:8\nnotify-residency V\nend\n",
                              pbc_target_reference.supported_operations);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "%s", out.message);
    int seen = 0;
    for (int i = 0; i < ncalls; i++) {
        const DXGKARG_BUILDPAGINGBUFFER *a = &calls[i].in;
        if (a->Operation == DXGK_OPERATION_INIT_CONTEXT_RESOURCE && a->InitContextResource.Destination.SegmentId) {
            T_CHECK(a->InitContextResource.Destination.SegmentAddress.QuadPart == 0x100000);
            T_CHECK(a->InitContextResource.Destination.VirtualAddress == NULL);
            /* VidMm's window over the whole context, not the scenario's range of it */
            T_CHECK(a->InitContextResource.Destination.GpuVirtualAddress == PBC_VA_WINDOW_DST);
            seen |= 1;
        } else if (a->Operation == DXGK_OPERATION_INIT_CONTEXT_RESOURCE) {
            /* A partial MDL of its two pages, from its first (past the foreign ones). */
            T_CHECK(calls[i].mdl_pages == 2 && (calls[i].mdl_flags & MDL_PARTIAL));
            T_CHECK(a->InitContextResource.Destination.VirtualAddress != NULL);
            T_CHECK(a->InitContextResource.Destination.GpuVirtualAddress == PBC_VA_WINDOW_DST);
            seen |= 2;
        } else if (a->Operation == DXGK_OPERATION_UPDATE_CONTEXT_ALLOCATION) {
            /* the whole of C in VidMm's window, and the driver's own data for it */
            T_CHECK(a->UpdateContextAllocation.ContextAllocationSize == 12288);
            T_CHECK(a->UpdateContextAllocation.ContextAllocation == PBC_VA_WINDOW_DST);
            T_CHECK(a->UpdateContextAllocation.DriverPrivateDataSize == 16 && calls[i].ctx_data[0] == 0x55585443u &&
                    calls[i].ctx_data[1] == 12288);
            seen |= 4;
        } else if (a->Operation == DXGK_OPERATION_NOTIFY_RESIDENCY) {
            const DXGK_BUILDPAGINGBUFFER_NOTIFYRESIDENCY *n = &a->NotifyResidency;
            if (n->Resident && n->PhysicalAddress.SegmentId == 3) { /* V, through the aperture */
                T_CHECK(n->PhysicalAddress.SegmentOffset == 8 * 4096);
                seen |= 32;
            } else if (n->Resident)
                T_CHECK(n->PhysicalAddress.SegmentId == 1 && n->PhysicalAddress.SegmentOffset == 0x100000);
            else
                T_CHECK(n->PhysicalAddress.SegmentId == 0 && n->PhysicalAddress.SegmentOffset == 0);
            seen |= n->Resident ? 8 : 16;
        }
    }
    T_CHECK_MSG(seen == 63, "operations seen: 0x%x", seen);
}

/* UpdateContextAllocation carries the driver's own data, which only the
 * target can give (context_update_data): a target without it is not
 * asked. InitContextResource's VirtualAddress stays valid for the
 * context's lifetime: a later call may read through it. */
static volatile uint8_t *kept_context_view;
static int context_view_reads;

static NTSTATUS APIENTRY keep_view_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->Operation == DXGK_OPERATION_INIT_CONTEXT_RESOURCE && a->InitContextResource.Destination.VirtualAddress)
        kept_context_view = a->InitContextResource.Destination.VirtualAddress;
    if (a->Operation == DXGK_OPERATION_NOTIFY_RESIDENCY && kept_context_view) {
        (void)kept_context_view[0]; /* a fault here is a crash: the view must still be mapped */
        context_view_reads++;
    }
    return ref_build_paging_buffer(adapter, a);
}

T_TEST(context_data_is_the_targets_and_its_view_lives_on)
{
    const char *text = "pbs 1\nalloc C size=8K\ninit-context C\nupdate-context C\nidle\nnotify-residency C\nend\n";
    kept_context_view = NULL;
    context_view_reads = 0;
    pbc_outcome out = run_spy_with(text, REF_OPERATIONS_GPUMMU, keep_view_build);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS && context_view_reads == 1, "%s %s (%d reads)",
                pbc_verdict_name(out.verdict), out.message, context_view_reads);
    pbc_scenario s;
    char err[256];
    T_CHECK_MSG(pbc_scenario_parse(text, strlen(text), "no-data", &s, err, sizeof(err)) == 0, "%s", err);
    spy_init(REF_OPERATIONS_GPUMMU);
    spy.context_update_data = NULL;
    pbc_runner r;
    pbc_runner_init(&r);
    pbc_run_options o = {0};
    pbc_runner_run(&r, &s, &spy, &o, &out);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_SKIP && strstr(out.message, "context_update_data"), "%s %s",
                pbc_verdict_name(out.verdict), out.message);
    pbc_runner_fini(&r);
    pbc_scenario_fini(&s);
}


/* CopyPageTableEntries over partial ranges: with `used`, one range per
 * piece of each run of entries in use, at the same index in both tables;
 * staged, out to a scratch table packed from `stage` (less where the
 * entries would not fit) and back, so the indexes differ. Every range
 * stays inside its tables. */
#define COPY_SEEN_MAX 64
static int copy_calls;
static DXGK_BUILDPAGINGBUFFER_COPY_RANGE copy_seen[4][COPY_SEEN_MAX];
static UINT copy_counts[4];

static NTSTATUS APIENTRY copy_spy_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->Operation == DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES && a->MultipassOffset == 0 && copy_calls < 4) {
        UINT n = a->CopyPageTableEntries.NumRanges;
        copy_counts[copy_calls] = n;
        memcpy(copy_seen[copy_calls], a->CopyPageTableEntries.pRanges,
               (n < COPY_SEEN_MAX ? n : COPY_SEEN_MAX) * sizeof(DXGK_BUILDPAGINGBUFFER_COPY_RANGE));
        copy_calls++;
    }
    return ref_build_paging_buffer(adapter, a);
}

/* UpdatePageTable's entries are VidMm's only during a call: a builder
 * that keeps the pointer and reads it between the calls of one operation
 * (here at the SubmitCommand of a buffer the operation filled, as a worker
 * woken there would) reads scribble, not entries. */
static const DXGK_PTE *kept_entries;
static UINT kept_count;
static int reads_between_calls, scribbled_between_calls, intact_during_calls;

/* Whether the kept entries hold VidMm's scribble, every byte. */
static int kept_entries_scribbled(void)
{
    const uint8_t *bytes = (const uint8_t *)kept_entries;
    int scribble = 1;
    for (size_t i = 0; i < kept_count * sizeof(DXGK_PTE); i++)
        scribble &= bytes[i] == 0xA5;
    return scribble;
}

static NTSTATUS APIENTRY keep_entries_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->Operation == DXGK_OPERATION_UPDATE_PAGE_TABLE) {
        kept_entries = a->UpdatePageTable.pPageTableEntries;
        kept_count = a->UpdatePageTable.Flags.Repeat ? 1 : a->UpdatePageTable.NumPageTableEntries;
        intact_during_calls += !kept_entries_scribbled();
    } else {
        kept_entries = NULL;
    }
    return ref_build_paging_buffer(adapter, a);
}

static NTSTATUS APIENTRY keep_entries_submit(IN_CONST_HANDLE adapter, const DXGKARG_SUBMITCOMMAND *c)
{
    if (kept_entries) {
        reads_between_calls++;
        scribbled_between_calls += kept_entries_scribbled();
    }
    return spy_submit(adapter, c);
}

T_TEST(page_table_entries_are_vidmms_only_during_a_call)
{
    spy_init(REF_OPERATIONS_GPUMMU);
    spy.build_paging_buffer = keep_entries_build;
    spy.submit_command = keep_entries_submit;
    kept_entries = NULL;
    reads_between_calls = scribbled_between_calls = intact_during_calls = 0;
    pbc_outcome out = run_text_on("pbs 1\nalloc A size=4M at=1:0x400000\ndma size=min\nva-map A\nend\n", &spy, 0);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "%s %s", pbc_verdict_name(out.verdict), out.message);
    T_CHECK_MSG(intact_during_calls > 0 && reads_between_calls > 0 && scribbled_between_calls == reads_between_calls,
                "%d calls saw entries; %d of %d reads between calls saw scribble", intact_during_calls,
                scribbled_between_calls, reads_between_calls);
}

T_TEST(copy_page_table_entries_partial_ranges)
{
    copy_calls = 0;
    /* A: entries [268, 278) of the leaf of [0, 2 MiB), B: [288, 294). */
    pbc_outcome out = run_with_build("pbs 1\n"
                                     "alloc A size=40K at=1:0x200000\nalloc B size=24K at=1:0x400000\n"
                                     "va-map A va=0x10c000\nva-map B va=0x120000\n"
                                     "va-move-tables A\n"
                                     "va-move-tables A used pieces=3\n"
                                     "va-move-tables B used stage=509\n"
                                     "render-read A offset=0 size=40K via=va\nrender-read B offset=0 size=24K via=va\n"
                                     "end\n",
                                     copy_spy_build);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "%s %s", pbc_verdict_name(out.verdict), out.message);
    T_CHECK_MSG(copy_calls == 4, "%d CopyPageTableEntries", copy_calls);
    /* The whole leaf, as va-move-tables always was. */
    T_CHECK(copy_counts[0] == 1 && copy_seen[0][0].NumPageTableEntries == 512 &&
            copy_seen[0][0].SrcStartPteIndex == 0 && copy_seen[0][0].DstStartPteIndex == 0);
    /* Three pieces of each run, in order, at the same index. */
    static const UINT pieces[][2] = {{268, 3}, {271, 3}, {274, 4}, {288, 2}, {290, 2}, {292, 2}};
    T_CHECK_MSG(copy_counts[1] == 6, "%u ranges", copy_counts[1]);
    for (UINT i = 0; i < 6 && copy_counts[1] == 6; i++) {
        const DXGK_BUILDPAGINGBUFFER_COPY_RANGE *r = &copy_seen[1][i];
        T_CHECK_MSG(r->SrcStartPteIndex == pieces[i][0] && r->DstStartPteIndex == pieces[i][0] &&
                        r->NumPageTableEntries == pieces[i][1] && r->SrcPageTableAddress != r->DstPageTableAddress,
                    "range %u: %u entries from %u to %u", i, r->NumPageTableEntries, r->SrcStartPteIndex,
                    r->DstStartPteIndex);
    }
    /* Staged: 16 entries in use do not fit from 509; they go to [496, 512)
     * of the scratch table and come back to where they were. */
    T_CHECK_MSG(copy_counts[2] == 2 && copy_counts[3] == 2, "%u and %u ranges", copy_counts[2], copy_counts[3]);
    static const UINT staged[][3] = {{268, 496, 10}, {288, 506, 6}};
    for (UINT i = 0; i < 2 && copy_counts[2] == 2 && copy_counts[3] == 2; i++) {
        const DXGK_BUILDPAGINGBUFFER_COPY_RANGE *out_r = &copy_seen[2][i], *back = &copy_seen[3][i];
        T_CHECK_MSG(out_r->SrcStartPteIndex == staged[i][0] && out_r->DstStartPteIndex == staged[i][1] &&
                        out_r->NumPageTableEntries == staged[i][2],
                    "out %u: %u entries from %u to %u", i, out_r->NumPageTableEntries, out_r->SrcStartPteIndex,
                    out_r->DstStartPteIndex);
        T_CHECK_MSG(back->SrcStartPteIndex == staged[i][1] && back->DstStartPteIndex == staged[i][0] &&
                        back->NumPageTableEntries == staged[i][2] &&
                        back->SrcPageTableAddress == out_r->DstPageTableAddress,
                    "back %u: %u entries from %u to %u", i, back->NumPageTableEntries, back->SrcStartPteIndex,
                    back->DstStartPteIndex);
    }
}

/* Address spaces: each space's updates and flushes name its process, and
 * its flushes its own root; the spaces' roots differ. */
#define SPACES_SEEN 64
static uint64_t flush_root[SPACES_SEEN];
static HANDLE flush_process[SPACES_SEEN], update_process[SPACES_SEEN];
static uint64_t flush_start[SPACES_SEEN];
static int flushes_seen, updates_seen;

static NTSTATUS APIENTRY spaces_spy_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->Operation == DXGK_OPERATION_FLUSH_TLB && a->MultipassOffset == 0 && flushes_seen < SPACES_SEEN) {
        flush_root[flushes_seen] = a->FlushTlb.RootPageTableAddress.SegmentOffset;
        flush_start[flushes_seen] = a->FlushTlb.StartVirtualAddress;
        flush_process[flushes_seen++] = a->FlushTlb.hProcess;
    }
    if (a->Operation == DXGK_OPERATION_UPDATE_PAGE_TABLE && a->MultipassOffset == 0 && updates_seen < SPACES_SEEN &&
        a->UpdatePageTable.hAllocation)
        update_process[updates_seen++] = a->UpdatePageTable.hProcess;
    return ref_build_paging_buffer(adapter, a);
}

T_TEST(address_spaces_name_their_root_and_process)
{
    flushes_seen = updates_seen = 0;
    /* A in space 0 and B in space 2 at the same address; each moves once
     * (an allocation's range is updated, then flushed, in its space). */
    pbc_outcome out = run_with_build("pbs 1\n"
                                     "alloc A size=16K at=1:0x100000\nalloc B size=16K at=1:0x200000\n"
                                     "va-map A\nva-map B space=2\n"
                                     "render-write A offset=0 size=16K pattern=0x1 via=va\n"
                                     "render-write B offset=0 size=16K pattern=0x2 via=va\n"
                                     "transfer A to=2:0x100000\ntransfer B to=2:0x200000\n"
                                     "render-read B offset=0 size=16K via=va\n"
                                     "end\n",
                                     spaces_spy_build);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "%s %s", pbc_verdict_name(out.verdict), out.message);
    T_CHECK_MSG(flushes_seen == 2, "%d flushes", flushes_seen);
    T_CHECK(flush_start[0] == 0x10000 && flush_start[1] == 0x10000);
    T_CHECK_MSG(flush_process[0] == (HANDLE)PBC_VA_PROCESS(0) && flush_process[1] == (HANDLE)PBC_VA_PROCESS(2),
                "processes %p %p", flush_process[0], flush_process[1]);
    T_CHECK(flush_root[0] && flush_root[1] && flush_root[0] != flush_root[1]);
    /* va-map A, va-map B, the two moves: each update of a range names its space's process. */
    T_CHECK_MSG(updates_seen == 4, "%d range updates", updates_seen);
    T_CHECK(update_process[0] == (HANDLE)PBC_VA_PROCESS(0) && update_process[1] == (HANDLE)PBC_VA_PROCESS(2) &&
            update_process[2] == (HANDLE)PBC_VA_PROCESS(0) && update_process[3] == (HANDLE)PBC_VA_PROCESS(2));
}

/* A scenario that opens with `dma` gets buffers of that size from its
 * first call, VidMm's own page-table setup included (for the paging
 * fence, it takes a buffer before any operation runs). */
static UINT largest_dma;

static NTSTATUS APIENTRY dma_size_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->pDmaBuffer && a->DmaSize > largest_dma)
        largest_dma = a->DmaSize;
    return ref_build_paging_buffer(adapter, a);
}

T_TEST(leading_dma_sizes_the_first_buffer)
{
    largest_dma = 0;
    pbc_outcome out = run_with_build("pbs 1\nalloc A size=16K at=1:0x100000\ndma size=min\nva-map A\n"
                                     "transfer A to=1:0x200000\nsignal-fence\nend\n",
                                     dma_size_build);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "%s", out.message);
    T_CHECK_MSG(largest_dma == pbc_target_reference.min_dma_size, "a call was handed %u bytes, the minimum is %u",
                largest_dma, pbc_target_reference.min_dma_size);
}

/* PB-PAGING-FENCE judges CPU work still queued when a packet writes the
 * fence by what it changes. One submission holds va-map A (entries
 * written by CPU work), the fence's packet, and va-map B (likewise):
 * B's CPU work is still queued when the packet lands, and changes only
 * B's entries, so the run passes (it failed when every CPU work entry of
 * the submission was held against the fence). When A's CPU work is
 * queued after the fence's packet instead, A's entries change after the
 * fence: PB-PAGING-FENCE, naming operation 1 and the CPU work. Entries
 * an operation after the signal writes too (A's, when A moves after it)
 * are given the benefit of the doubt. */
static pbc_outcome run_named(const char *target, const char *text)
{
    const pbc_target *t = pbc_target_find(target);
    T_CHECK_MSG(t != NULL, "%s", target);
    pbc_outcome out;
    memset(&out, 0, sizeof(out));
    return t ? run_text_on(text, t, 1) : out;
}

T_TEST(paging_fence_judges_pending_cpu_work_by_its_effects)
{
    static const char held[] = "pbs 1\nalloc A size=16K at=1:0x100000 seed=3\nalloc B size=16K at=1:0x200000 seed=4\n"
                               "va-map A\nsignal-fence\nva-map B\nend\n";
    pbc_outcome out = run_named("variant-worker-fence-packet", held);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "%s %s: %s", pbc_verdict_name(out.verdict), out.rule, out.message);
    out = run_named("mutant-late-cpu-work", held);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_FAIL && !strcmp(out.rule, "PB-PAGING-FENCE"), "%s %s: %s",
                pbc_verdict_name(out.verdict), out.rule, out.message);
    T_CHECK_MSG(strstr(out.message, "before the effect of operation 1") && strstr(out.message, "CPU work queued"),
                "%s", out.message);
    /* A's entries are rewritten after the signal when A moves: whose work
     * changed them cannot be told. */
    static const char both[] = "pbs 1\nalloc A size=16K at=1:0x100000 seed=3\n"
                               "va-map A\nsignal-fence\ntransfer A to=1:0x300000\nend\n";
    out = run_named("mutant-late-cpu-work", both);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "%s %s: %s", pbc_verdict_name(out.verdict), out.rule, out.message);
}

/* InitContextResource and UpdateContextAllocation carried out by the CPU,
 * from work SubmitCommand queues after ringing the buffer, as a driver
 * that keeps its contexts with the CPU from a worker does: the build
 * keeps a record of the operation (where the context is, a physical
 * address per page, and what to write) and leaves a marker in the buffer
 * (a NOP carrying the record's number, nothing else); Patch finds the
 * markers of its range; SubmitCommand rings the whole range, queues a
 * CPU work item per marker (host->queue_cpu_work) and then the fence.
 * The work maps the context's pages (MmMapIoSpace) and writes its own
 * image: a pattern of the operation over the whole allocation, and for
 * an update the driver's data at its head. Where a context is, the
 * builder follows itself, from InitContextResource's destination and the
 * transfers of its handle. Legal (the DDI lets the driver choose the
 * content and who writes it): VidMm must take the context's image once
 * that work has run, not when the buffer's last DMA piece has. */
#define CPUCTX_MAGIC 0x58544343u /* "CCTX" */
#define CPUCTX_MARKER_DWORDS 3u
#define CPUCTX_PAGES 16u
#define CPUCTX_RECORDS 64u
#define CPUCTX_SLOTS 8u

typedef struct cpuctx_place {
    HANDLE h;
    uint64_t size;
    uint64_t page[CPUCTX_PAGES]; /* physical address of each page of the context */
    uint32_t head;               /* the first word the last work wrote there */
} cpuctx_place;

typedef struct cpuctx_record {
    cpuctx_place at; /* where the context is when the work runs */
    uint32_t tag;    /* the pattern's high half: the operation's number */
    uint32_t data[VM_CONTEXT_DATA_MAX / 4], data_words;
} cpuctx_record;

static cpuctx_place cpuctx_places[4];
static cpuctx_record cpuctx_records[CPUCTX_RECORDS];
static uint32_t cpuctx_record_count, cpuctx_runs;
static struct {
    UINT fence;
    uint32_t count, id[CPUCTX_RECORDS];
} cpuctx_slots[CPUCTX_SLOTS];

static cpuctx_place *cpuctx_place_of(HANDLE h, int make)
{
    for (uint32_t i = 0; i < sizeof(cpuctx_places) / sizeof(cpuctx_places[0]); i++)
        if (cpuctx_places[i].h == h || (make && !cpuctx_places[i].h)) {
            cpuctx_places[i].h = h;
            return &cpuctx_places[i];
        }
    return NULL;
}

/* A page of the allocation at a segment address or from an MDL. */
static uint64_t cpuctx_side(UINT segment, LARGE_INTEGER address, const MDL *mdl, UINT mdl_page, uint64_t offset)
{
    if (segment)
        return (uint64_t)address.QuadPart + offset;
    return (uint64_t)MmGetMdlPfnArray(mdl)[mdl_page] << PAGE_SHIFT;
}

static NTSTATUS cpuctx_mark(DXGKARG_BUILDPAGINGBUFFER *a, const cpuctx_record *r)
{
    if (a->DmaSize < CPUCTX_MARKER_DWORDS * 4)
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    T_CHECK(cpuctx_record_count < CPUCTX_RECORDS);
    if (cpuctx_record_count >= CPUCTX_RECORDS)
        return STATUS_NO_MEMORY;
    cpuctx_records[cpuctx_record_count] = *r;
    uint8_t *cur = a->pDmaBuffer;
    ref_encode_nop(cur, CPUCTX_MARKER_DWORDS);
    uint32_t words[2] = {CPUCTX_MAGIC, cpuctx_record_count++};
    memcpy(cur + 4, words, sizeof(words));
    a->pDmaBuffer = cur + CPUCTX_MARKER_DWORDS * 4;
    a->MultipassOffset = 0;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY cpuctx_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->Operation == DXGK_OPERATION_INIT_CONTEXT_RESOURCE) {
        const __typeof__(a->InitContextResource.Destination) *d = &a->InitContextResource.Destination;
        cpuctx_place *p = cpuctx_place_of(a->InitContextResource.hAllocation, 1);
        T_CHECK(p != NULL);
        if (!p)
            return STATUS_NO_MEMORY;
        p->size = ref_allocation_size(p->h);
        T_CHECK(p->size <= (uint64_t)CPUCTX_PAGES * PAGE_SIZE);
        for (uint32_t k = 0; (uint64_t)k * PAGE_SIZE < p->size && k < CPUCTX_PAGES; k++)
            p->page[k] = cpuctx_side(d->SegmentId, d->SegmentAddress, d->pMdl, k, (uint64_t)k * PAGE_SIZE);
        cpuctx_record r = {.at = *p, .tag = 0xC100u + cpuctx_record_count};
        return cpuctx_mark(a, &r);
    }
    if (a->Operation == DXGK_OPERATION_UPDATE_CONTEXT_ALLOCATION) {
        const DXGK_BUILDPAGINGBUFFER_UPDATECONTEXTALLOCATION *u = &a->UpdateContextAllocation;
        /* The window is VidMm's: the driver finds its context by the
         * handle its own data names (cpuctx_update_data). */
        HANDLE h = NULL;
        if (u->DriverPrivateDataSize >= 16 + sizeof(h))
            memcpy(&h, (const uint8_t *)u->pDriverPrivateData + 16, sizeof(h));
        const cpuctx_place *p = h ? cpuctx_place_of(h, 0) : NULL;
        T_CHECK_MSG(p != NULL && p->size == u->ContextAllocationSize, "an update of a context never initialized");
        if (!p)
            return STATUS_UNSUCCESSFUL;
        cpuctx_record r = {.at = *p, .tag = 0xD200u + cpuctx_record_count};
        r.data_words = u->DriverPrivateDataSize / 4 < VM_CONTEXT_DATA_MAX / 4 ? u->DriverPrivateDataSize / 4
                                                                                 : VM_CONTEXT_DATA_MAX / 4;
        memcpy(r.data, u->pDriverPrivateData, r.data_words * 4); /* VidMm's data lives for the call */
        return cpuctx_mark(a, &r);
    }
    if (a->Operation == DXGK_OPERATION_TRANSFER && a->MultipassOffset == 0) {
        const __typeof__(a->Transfer) *t = &a->Transfer;
        cpuctx_place *p = cpuctx_place_of(t->hAllocation, 0);
        for (uint64_t off = 0; p && off < t->TransferSize; off += PAGE_SIZE) {
            uint64_t k = (t->TransferOffset + off) / PAGE_SIZE;
            if (k < CPUCTX_PAGES)
                p->page[k] = cpuctx_side(t->Destination.SegmentId, t->Destination.SegmentAddress,
                                         t->Destination.pMdl, t->MdlOffset + (UINT)(off / PAGE_SIZE),
                                         t->TransferOffset + off);
        }
    }
    return ref_build_paging_buffer(adapter, a);
}

/* The reference's data, then the context's handle. */
static uint32_t cpuctx_update_data(HANDLE adapter, HANDLE allocation, void *buf, uint32_t capacity)
{
    uint32_t n = ref_context_update_data(adapter, allocation, buf, capacity);
    if (n != 16 || capacity < n + sizeof(allocation))
        return 0;
    memcpy((uint8_t *)buf + n, &allocation, sizeof(allocation));
    return n + (uint32_t)sizeof(allocation);
}

static void cpuctx_run(void *arg)
{
    const cpuctx_record *r = arg;
    cpuctx_runs++;
    for (uint32_t k = 0; (uint64_t)k * PAGE_SIZE < r->at.size && k < CPUCTX_PAGES; k++) {
        uint64_t left = r->at.size - (uint64_t)k * PAGE_SIZE;
        size_t n = left < PAGE_SIZE ? (size_t)left : PAGE_SIZE;
        PHYSICAL_ADDRESS pa;
        pa.QuadPart = (LONGLONG)r->at.page[k];
        uint32_t *view = MmMapIoSpace(pa, n, MmNonCached);
        T_CHECK_MSG(view != NULL, "no CPU view of the context's page at 0x%llx", (unsigned long long)r->at.page[k]);
        if (!view)
            continue;
        cpuctx_place *p = cpuctx_place_of(r->at.h, 0);
        /* An update finds what the work before it left, moved with the
         * context: the CPU's stores landed and were carried. */
        T_CHECK_MSG(k || !r->data_words || !p || view[0] == p->head, "the context's head holds 0x%08x, not 0x%08x",
                    view[0], p ? p->head : 0);
        for (uint32_t i = 0; i < n / 4; i++) {
            uint32_t word = k * (PAGE_SIZE / 4) + i;
            view[i] = word < r->data_words ? r->data[word] : r->tag << 16 | (word & 0xFFFFu);
        }
        if (!k && p)
            p->head = view[0];
        MmUnmapIoSpace(view, n);
    }
}

static NTSTATUS APIENTRY cpuctx_patch(IN_CONST_HANDLE adapter, const DXGKARG_PATCH *p)
{
    const uint8_t *buf = p->pDmaBuffer;
    __typeof__(cpuctx_slots[0]) *slot = &cpuctx_slots[p->SubmissionFenceId % CPUCTX_SLOTS];
    slot->fence = p->SubmissionFenceId;
    slot->count = 0;
    for (UINT off = p->DmaBufferSubmissionStartOffset; off < p->DmaBufferSubmissionEndOffset;) {
        pbc_uop u;
        size_t len;
        const char *why;
        if (ref_isa.decode(buf + off, p->DmaBufferSubmissionEndOffset - off, &u, &len, &why) != PBC_DECODE_OK)
            break;
        uint32_t words[2];
        memcpy(words, buf + off + 4, sizeof(words));
        if (u.kind == PBC_UOP_NOP && len == CPUCTX_MARKER_DWORDS * 4 && words[0] == CPUCTX_MAGIC &&
            words[1] < cpuctx_record_count && slot->count < CPUCTX_RECORDS)
            slot->id[slot->count++] = words[1];
        off += (UINT)len;
    }
    return ref_patch(adapter, p);
}

/* The whole range first, then the CPU work, then the fence. */
static NTSTATUS APIENTRY cpuctx_submit(IN_CONST_HANDLE adapter, const DXGKARG_SUBMITCOMMAND *c)
{
    const pbc_host *h = ref_adapter_host(adapter);
    const __typeof__(cpuctx_slots[0]) *slot = &cpuctx_slots[c->SubmissionFenceId % CPUCTX_SLOTS];
    h->ring_submit(h->ctx, c->DmaBufferSegmentId, (uint64_t)c->DmaBufferPhysicalAddress.QuadPart,
                   c->DmaBufferSubmissionStartOffset, c->DmaBufferSubmissionEndOffset);
    for (uint32_t i = 0; slot->fence == c->SubmissionFenceId && i < slot->count; i++)
        h->queue_cpu_work(h->ctx, cpuctx_run, &cpuctx_records[slot->id[i]]);
    h->ring_fence(h->ctx, c->SubmissionFenceId);
    return STATUS_SUCCESS;
}

static pbc_outcome run_cpuctx(const pbc_scenario *s)
{
    memset(cpuctx_places, 0, sizeof(cpuctx_places));
    memset(cpuctx_slots, 0, sizeof(cpuctx_slots));
    cpuctx_record_count = cpuctx_runs = 0;
    spy_init(REF_OPERATIONS_GPUMMU);
    spy.build_paging_buffer = cpuctx_build;
    spy.patch = cpuctx_patch;
    spy.submit_command = cpuctx_submit;
    spy.context_update_data = cpuctx_update_data;
    return run_on(s, &spy, 0);
}

/* On the seed, and on moves of each context after its init and after each
 * update (split, at the minimum buffer size, segment to segment, evicted
 * and restored), the builder's own images are followed: it passes. */
T_TEST(context_image_waits_for_cpu_work_queued_at_submit)
{
    char err[256];
    pbc_scenario s;
    T_CHECK_MSG(pbc_scenario_load(PBC_SEEDS_DIR "/context-allocations.pbs", &s, err, sizeof(err)) == 0, "%s", err);
    pbc_outcome out = run_cpuctx(&s);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "context-allocations.pbs: %s %s: %s", pbc_verdict_name(out.verdict),
                out.rule, out.message);
    T_CHECK_MSG(cpuctx_runs == cpuctx_record_count && cpuctx_runs >= 4, "%u records, %u runs", cpuctx_record_count,
                cpuctx_runs);
    pbc_scenario_fini(&s);
    /* At the default size each operation's marker is in the last piece
     * its operation submits (the window's close follows it in the same
     * buffer), so the CPU work is the last work queued for it; at the
     * minimum size, in a piece of its own before the window's close. */
    static const char moves[] = "alloc C size=12K at=1:0x100000 seed=21\n"
                                "alloc B size=8K at=1:0x103000 seed=22\n"
                                "alloc S size=20K mdl-offset=1 seed=23\n"
                                "init-context C\n"
                                "transfer C to=2:0x200000 split=2\n"
                                "init-context S\n"
                                "transfer S to=1:0x300000 split=3\n"
                                "va-map C\n"
                                "update-context C\n"
                                "transfer C to=system\n"
                                "transfer C to=1:0x100000 split=2\n"
                                "transfer S to=system\n"
                                "update-context C\n"
                                "transfer C to=2:0x240000\n"
                                "render-write B offset=0 size=8K pattern=0xB0B0B0B0\n"
                                "end\n";
    static const char *const heads[] = {"pbs 1\n", "pbs 1\ndma size=min\n"};
    for (int i = 0; i < 2; i++) {
        char text[1024];
        snprintf(text, sizeof(text), "%s%s", heads[i], moves);
        T_CHECK_MSG(pbc_scenario_parse(text, strlen(text), "cpu-context-moves", &s, err, sizeof(err)) == 0, "%s",
                    err);
        out = run_cpuctx(&s);
        T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "moves (%s): %s %s: %s", i ? "min" : "default",
                    pbc_verdict_name(out.verdict), out.rule, out.message);
        T_CHECK_MSG(cpuctx_runs == cpuctx_record_count && cpuctx_runs == 4, "%u records, %u runs",
                    cpuctx_record_count, cpuctx_runs);
        pbc_scenario_fini(&s);
    }
}

/* A 64 KiB allocation whose 16 pages hold three streams each (content, a
 * render write inside, content), so they are bytes, moved `moves` times:
 * every page a move writes from bytes is bytes, 16 more a world each. */
static const char *bytes_text(int moves)
{
    static char text[32768];
    size_t n = (size_t)snprintf(text, sizeof(text), "pbs 1\nalloc A size=64K at=1:0\n");
    for (int k = 0; k < 16; k++)
        n += (size_t)snprintf(text + n, sizeof(text) - n, "render-write A offset=0x%x size=4 pattern=0x11223344\n",
                              0x800 + k * 0x1000);
    for (int k = 0; k < moves; k++)
        n += (size_t)snprintf(text + n, sizeof(text) - n, "transfer A to=2:0x%x\n", 0x100000 + k * 0x10000);
    snprintf(text + n, sizeof(text) - n, "end\n");
    return text;
}

/* The fuzz targets' budget of pages written as bytes (scenario.h,
 * PBC_FUZZ_MAX_BYTE_PAGES): an input that crosses it in a world is stopped
 * there, holds no more pages as bytes than the budget, and is not judged;
 * run's options judge it whole. */
T_TEST(fuzz_budget_of_pages_as_bytes)
{
    const uint8_t input[1] = {0};
    const pbc_run_options fuzz = pbc_run_options_fuzz(input, sizeof(input)), whole = {0};
    const int over = PBC_FUZZ_MAX_BYTE_PAGES / 16 + 8; /* 16 pages a move, and the 16 written first */
    for (int k = 0; k < 3; k++) {
        const char *text = bytes_text(k == 0 ? 10 : over);
        const pbc_run_options *o = k == 2 ? &whole : &fuzz;
        pbc_scenario s;
        char err[256];
        T_CHECK_MSG(pbc_scenario_parse(text, strlen(text), "bytes", &s, err, sizeof(err)) == 0, "%s", err);
        pbc_runner r;
        pbc_runner_init(&r);
        pbc_outcome out;
        pbc_runner_run(&r, &s, &pbc_target_reference, o, &out);
        uint32_t bytes = r.target.gpu->mem.data_count;
        if (k == 1) {
            T_CHECK_MSG(out.verdict == PBC_VERDICT_SKIP && r.over_budget, "%s: %s", pbc_verdict_name(out.verdict),
                        out.message);
            T_CHECK_MSG(bytes <= PBC_FUZZ_MAX_BYTE_PAGES, "%u pages as bytes, the budget is %u", bytes,
                        PBC_FUZZ_MAX_BYTE_PAGES);
        } else {
            uint32_t want = 16u * (uint32_t)(k == 0 ? 11 : over + 1);
            T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS && !r.over_budget, "case %d: %s: %s", k,
                        pbc_verdict_name(out.verdict), out.message);
            T_CHECK_MSG(bytes == want && r.spec.gpu->mem.data_count == want, "case %d: %u and %u pages as bytes, not %u",
                        k, bytes, r.spec.gpu->mem.data_count, want);
        }
        pbc_runner_fini(&r);
        pbc_scenario_fini(&s);
    }
}

T_MAIN()
