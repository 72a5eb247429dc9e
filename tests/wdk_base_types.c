/* A driver that defines Windows base types itself, before the kernel
 * headers, as headers shared with firmware or user mode do. Built with
 * PBC_WDK_DRIVER_BASE_TYPES (as C11 and as C++17): the WDK headers leave
 * DWORD and BOOL to the driver and every Windows structure keeps its
 * layout. The driver's ULONG typedef, guarded by BASETYPES as Windows
 * headers guard it, is skipped. wdk_base_types_test.sh shows the same file
 * failing without the macro. */
typedef unsigned long DWORD, *PDWORD;
typedef int BOOL;

#include <ntddk.h>
#include <dispmprt.h>

#ifndef BASETYPES
typedef unsigned long ULONG;
#endif

#include <stdio.h>

C_ASSERT(sizeof(ULONG) == 4 && sizeof(LONG) == 4);
C_ASSERT(sizeof(DXGKARG_BUILDPAGINGBUFFER) == 320);
C_ASSERT(sizeof(DXGK_ALLOCATIONINFO) == 88);
C_ASSERT(sizeof(CM_PARTIAL_RESOURCE_DESCRIPTOR) == 20);
C_ASSERT(sizeof(DXGKARGCB_NOTIFY_INTERRUPT_DATA) == 80);

static BOOL DriverOwnsDword(DWORD value)
{
    return sizeof(value) == sizeof(unsigned long);
}

int main(void)
{
    DWORD d = 0xFFFFFFFFul;
    ULONG u = (ULONG)d;
    int ok = DriverOwnsDword(d) && u == 0xFFFFFFFFu && sizeof(ULONG32) == 4;
    printf("%s\n", ok ? "ok" : "FAIL");
    return !ok;
}
