/* The WDK shim's CPU views: they persist until unmapped, see what the GPU
 * wrote whenever the builder's code starts running, and what the CPU wrote
 * reaches modeled memory, with CPU provenance, when it stops. */
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

T_MAIN()
