/* The WDK headers as a driver source sees them (compiled as C11 here and as
 * C++17 through wdk_headers.cpp): flag bits and the
 * MDL PFN array at the values Windows uses. */
#include <pbcheck/wdk/d3dkmddi.h>
#include <pbcheck/wdk/ntddk.h>
#include <stdio.h>

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
    LARGE_INTEGER li;
    li.QuadPart = 0x123456789ll;
    CHECK(li.LowPart == 0x23456789u && li.HighPart == 1);
    printf("%s\n", failures ? "FAIL" : "ok");
    return failures != 0;
}
