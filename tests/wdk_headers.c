/* The WDK headers as a driver source sees them (compiled as C11 here and as
 * C++17 through wdk_headers.cpp): flag bits, constants, argument types and
 * the MDL PFN array at the values Windows uses. */
#include <pbcheck/wdk/d3dkmddi.h>
#include <pbcheck/wdk/dispmprt.h>
#include <pbcheck/wdk/ntddk.h>
#include <stdio.h>

/* The WDK's argument typedefs: IN_CONST_PVOID and IN_CONST_HANDLE are a
 * const pointer to non-const, so a C++ driver static_casts them to its
 * adapter class with no const_cast. */
#ifdef __cplusplus
#include <type_traits>
static_assert(std::is_same<IN_CONST_PVOID, void *const>::value, "IN_CONST_PVOID is void *const");
static_assert(std::is_same<IN_CONST_HANDLE, void *const>::value, "IN_CONST_HANDLE is HANDLE const");
#else
_Static_assert(_Generic(&(IN_CONST_PVOID){0}, void *const *: 1, default: 0), "IN_CONST_PVOID is void *const");
#endif
/* Preprocessor constants, as the WDK has them (a typedef would not do). */
#if DXGK_PRESENT_SOURCE_INDEX != 1 || DXGK_PRESENT_DESTINATION_INDEX != 2
#error "DXGK_PRESENT_SOURCE_INDEX/DESTINATION_INDEX"
#endif

static int failures;
#define CHECK(c) ((c) ? (void)0 : (void)(failures++, printf("check failed: %s\n", #c)))

int main(void)
{
    DXGK_TRANSFERFLAGS t;
    memset(&t, 0, sizeof(t));
    t.TransferStart = 1;
    CHECK(t.Value == 0x8);
    t.Value = 0;
    t.AllocationIsIdle = 1;
    CHECK(t.Value == 0x4);
    t.Value = 0;
    t.TransferEnd = 1;
    CHECK(t.Value == 0x10);
    DXGK_SUBMITCOMMANDFLAGS s;
    memset(&s, 0, sizeof(s));
    s.Paging = 1;
    CHECK(s.Value == 1);
    DXGK_MAPAPERTUREFLAGS m;
    memset(&m, 0, sizeof(m));
    m.CacheCoherent = 1;
    CHECK(m.Value == 1);
    CHECK(DXGK_OPERATION_NOTIFY_ALLOC == 22 && DXGK_OPERATION_MAP_APERTURE == 5);
    CHECK(!NT_SUCCESS(STATUS_GRAPHICS_ALLOCATION_BUSY) && NT_SUCCESS(STATUS_SUCCESS));
    CHECK((ULONG)STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER == 0xC01E0001u);
    struct { MDL mdl; PFN_NUMBER pfn[2]; } md;
    memset(&md, 0, sizeof(md));
    md.pfn[0] = 7;
    md.pfn[1] = 9;
    CHECK(MmGetMdlPfnArray(&md.mdl)[1] == 9);
    DXGK_PRESENTATIONCAPS pc;
    memset(&pc, 0, sizeof(pc));
    pc.SupportKernelModeCommandBuffer = 1;
    pc.MaxTextureHeightShift = 2;
    CHECK(pc.Value == (0x4u | (2u << 17)));
    D3DKMDT_GDISURFACEDATA gdi;
    memset(&gdi, 0, sizeof(gdi));
    gdi.Flags.Value = 1;
    CHECK(gdi.Flags.Stereo == 1);
    DXGK_ENGINESTATUS es;
    es.Value = 0;
    es.Responsive = 1;
    CHECK(es.Value == 1);
    CHECK(D3DDDI_ALLOCATIONPRIORITY_MINIMUM == 0x28000000u && D3DDDI_ALLOCATIONPRIORITY_NORMAL == 0x78000000u &&
          D3DDDI_ALLOCATIONPRIORITY_MAXIMUM == 0xc8000000u);
    CHECK(sizeof(DXGK_ALLOCATIONINFOFLAGS) == 4);
    /* DxgkDdiControlInterrupt2/3 and DxgkDdiFormatHistoryBuffer's
     * arguments are laid out (x64 offsets asserted in d3dkmddi.h). */
    DXGKARG_CONTROLINTERRUPT3 ci;
    memset(&ci, 0, sizeof(ci));
    ci.InterruptType = DXGK_INTERRUPT_CRTC_VSYNC;
    ci.CrtcVsyncState = DXGK_VSYNC_DISABLE_NO_PHASE;
    ci.VidPnSourceId = D3DDDI_ID_ALL;
    CHECK(offsetof(DXGKARG_CONTROLINTERRUPT3, InterruptState) == offsetof(DXGKARG_CONTROLINTERRUPT3, CrtcVsyncState) &&
          ci.CrtcVsyncState == 2 && DXGK_INTERRUPT_DISABLE == 1 && sizeof(DXGKARG_CONTROLINTERRUPT2) == 8);
    DXGKARG_FORMATHISTORYBUFFER fh;
    memset(&fh, 0, sizeof(fh));
    fh.Precision.PrecisionBits = 64;
    CHECK(fh.NumTimestamps == 0 && sizeof(fh.pHistoryBuffer->Header) == 16);
    DXGK_PRE_START_INFO ps;
    memset(&ps, 0, sizeof(ps));
    ps.IsUEFIFrameBufferCpuAccessibleDuringStartup = 1;
    CHECK(ps.Output == 2 && ps.Input == 0);
    /* DXGKRNL_INTERFACE through WDDM 1.3, and the WDDM 2.0 callbacks'
     * arguments (x64 offsets asserted in d3dkmddi.h). */
    CHECK(offsetof(DXGKRNL_INTERFACE, DxgkCbCompletePStateTransition) ==
          offsetof(DXGKRNL_INTERFACE, DxgkCbCompleteFStateTransition) + sizeof(void *));
    DXGKARGCB_RESERVEGPUVIRTUALADDRESSRANGE rv;
    memset(&rv, 0, sizeof(rv));
    rv.AllowUserModeMapping = 1;
    CHECK(rv.Flags == 1 && sizeof(DXGKARGCB_MAPCONTEXTALLOCATION) == 64 &&
          sizeof(DXGKARGCB_UPDATECONTEXTALLOCATION) == 24);
    DXGKCB_MAPCONTEXTALLOCATION *map_cb = NULL;
    DXGKCB_HARDWARECONTENTPROTECTIONTEARDOWN *teardown_cb = NULL;
    CHECK(map_cb == NULL && teardown_cb == NULL);
    LARGE_INTEGER li;
    li.QuadPart = 0x123456789ll;
    CHECK(li.LowPart == 0x23456789u && li.HighPart == 1);
    printf("%s\n", failures ? "FAIL" : "ok");
    return failures != 0;
}
