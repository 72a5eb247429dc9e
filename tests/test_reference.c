/* The reference builder, driven through every WDDM 1.x operation (and a
 * GPU virtual range's new page tables) with paging buffers from its
 * minimum size upward; after execution on the GPU model, memory must
 * equal the spec model's answer. */
#include <inttypes.h>

#include "ref_builder.h"
#include "ref_isa.h"
#include "exec/runner.h"
#include "t.h"

static void parse(const char *text, pbc_scenario *s)
{
    char err[256];
    int rc = pbc_scenario_parse(text, strlen(text), "inline", s, err, sizeof(err));
    T_CHECK_MSG(rc == 0, "%s", err);
}

/* Runs text with every paging-buffer size in sizes; checks pass. */
static void run_sizes(const char *text, const uint32_t *sizes, int n, uint32_t min_buffers)
{
    pbc_scenario s;
    parse(text, &s);
    pbc_runner r;
    pbc_runner_init(&r);
    for (int i = 0; i < n; i++) {
        pbc_run_options o = {.dma_override = sizes[i]};
        pbc_outcome out;
        pbc_runner_run(&r, &s, &pbc_target_reference, &o, &out);
        T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "DmaSize %u: %s", sizes[i], out.message);
        if (sizes[i] <= REF_MAX_PACKET_BYTES)
            T_CHECK_MSG(r.target.res.buffers >= min_buffers, "DmaSize %u used %u buffers", sizes[i],
                        r.target.res.buffers);
    }
    pbc_runner_fini(&r);
    pbc_scenario_fini(&s);
}

static const uint32_t sizes[] = {24, 28, 44, 48, 52, 100, 4096, 65536};
#define NSIZES ((int)(sizeof(sizes) / sizeof(sizes[0])))

T_TEST(transfer_mdl_to_segment_above_4g_five_buffers)
{
    run_sizes("pbs 1\nalloc A size=20K mdl-offset=3\ntransfer A to=2:0x7000\nend\n", sizes, NSIZES, 5);
}

T_TEST(transfer_segment_to_mdl_split)
{
    run_sizes("pbs 1\nalloc A size=36K at=2:0x10000 mdl-offset=1\ntransfer A to=system split=4\nend\n",
              sizes, NSIZES, 9);
}

T_TEST(transfer_between_and_within_segments)
{
    run_sizes("pbs 1\nalloc A size=12300 at=1:0x1000\ntransfer A to=2:0xFFFF0000 split=3\n"
              "transfer A to=2:0x100\ntransfer A to=1:0x3ff0000\nend\n", sizes, NSIZES, 3);
}

T_TEST(fill_any_multiple_of_four)
{
    run_sizes("pbs 1\nalloc A size=8196 at=none\nalloc B size=4 at=none\n"
              "fill A to=2:0xFFFFA000 pattern=0x11223344\nfill B to=1:0x4 pattern=0xa5a5a5a5\nend\n",
              sizes, NSIZES, 3);
}

T_TEST(discard_read_write_physical)
{
    run_sizes("pbs 1\nalloc A size=8K at=1:0x0\ndiscard A\nread-physical at=1:0x10000\n"
              "write-physical at=2:0x8\nend\n", sizes, NSIZES, 1);
}

T_TEST(map_unmap_special_lock)
{
    run_sizes("pbs 1\nalloc A size=24K mdl-offset=2\nmap A aperture=3:100 first=2 count=4 coherent\n"
              "gpu-read at=3:0x65000 size=64\nrender-write A offset=0x2000 size=0x100 pattern=0x77 via=aperture\n"
              "unmap A\ngpu-read at=3:0x64000 size=0x4000\nspecial-lock-transfer A to=2:0x0\nend\n",
              sizes, NSIZES, 4);
}

T_TEST(unmap_leaves_every_page_on_dummy)
{
    pbc_scenario s;
    parse("pbs 1\nalloc A size=40K\nmap A aperture=3:7\nunmap A\nend\n", &s);
    pbc_runner r;
    pbc_runner_init(&r);
    pbc_run_options o = {.dma_override = 24};
    pbc_outcome out;
    pbc_runner_run(&r, &s, &pbc_target_reference, &o, &out);
    T_CHECK(out.verdict == PBC_VERDICT_PASS);
    const pbc_gpu_segment *ap = pbc_gpu_segment_by_id(r.target.gpu, 3);
    for (uint32_t p = 7; p < 17; p++)
        T_CHECK(ap->gart[p].flags & PBC_GART_VALID && ap->gart[p].addr == r.target.gpu->dummy_page);
    T_CHECK(!(ap->gart[6].flags & PBC_GART_VALID) && !(ap->gart[17].flags & PBC_GART_VALID));
    pbc_runner_fini(&r);
    pbc_scenario_fini(&s);
}

/* A new page table's not-valid entries (a Repeat of one dword) resume
 * across buffers of every size, and cost packets by the page of entries,
 * not one each: 512 entries a table in 24-byte buffers would take more
 * than 512 buffers a table. */
T_TEST(new_tables_by_the_page_of_entries)
{
    static const char text[] = "pbs 1\nalloc A size=64K at=1:0x10000\nva-map A\n"
                               "render-write A offset=0x1000 size=0x2000 pattern=0x5a5a5a5a via=va\nend\n";
    run_sizes(text, sizes, NSIZES, 2);
    pbc_scenario s;
    parse(text, &s);
    pbc_runner r;
    pbc_runner_init(&r);
    pbc_run_options o = {.dma_override = 24};
    pbc_outcome out;
    pbc_runner_run(&r, &s, &pbc_target_reference, &o, &out);
    T_CHECK_MSG(out.verdict == PBC_VERDICT_PASS, "%s", out.message);
    T_CHECK_MSG(r.target.res.buffers < 100, "%u buffers", r.target.res.buffers);
    pbc_runner_fini(&r);
    pbc_scenario_fini(&s);
}

/* The comparison can fail: one corrupted byte is found and named. */
T_TEST(corruption_is_detected_and_located)
{
    pbc_scenario s;
    parse("pbs 1\nalloc A size=8K\ntransfer A to=2:0x3000\nend\n", &s);
    pbc_runner r;
    pbc_runner_init(&r);
    pbc_run_options o = {0};
    pbc_outcome out;
    pbc_runner_run(&r, &s, &pbc_target_reference, &o, &out);
    T_CHECK(out.verdict == PBC_VERDICT_PASS);
    uint8_t bad = 0xEE;
    pbc_gpu_write(r.target.gpu, 0x1000003000ull + 0x1234, &bad, 1);
    pbc_diff d;
    T_CHECK(pbc_state_diff(r.spec.gpu, r.target.gpu, r.spec.res.masks, r.spec.res.mask_count, 0, &d) == 1);
    T_CHECK(d.kind == PBC_DIFF_MEMORY && d.addr == 0x1000003000ull + 0x1234 && d.differing_pages == 1);
    pbc_digest a, b;
    pbc_state_digest(r.spec.gpu, r.spec.res.masks, r.spec.res.mask_count, &a);
    pbc_state_digest(r.target.gpu, r.target.res.masks, r.target.res.mask_count, &b);
    T_CHECK(a.region[1] != b.region[1] && a.region[0] == b.region[0]);
    pbc_runner_fini(&r);
    pbc_scenario_fini(&s);
}

T_MAIN()
