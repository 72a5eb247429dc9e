/*
 * d3dukmdt.h — types shared by the user-mode and kernel-mode display DDIs
 * that paging-buffer builders see, with Windows' names and x86-64 layouts.
 */
#ifndef PBCHECK_WDK_D3DUKMDT_H
#define PBCHECK_WDK_D3DUKMDT_H

#include "wdm.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef UINT D3DKMT_HANDLE;
typedef UINT64 D3DGPU_VIRTUAL_ADDRESS;
typedef UINT64 D3DGPU_SIZE_T;
typedef UINT D3DDDI_VIDEO_PRESENT_SOURCE_ID;

#define D3DKMT_ALIGN64 __attribute__((aligned(8)))

typedef enum _D3DDDI_FLIPINTERVAL_TYPE {
    D3DDDI_FLIPINTERVAL_IMMEDIATE = 0,
    D3DDDI_FLIPINTERVAL_ONE = 1,
    D3DDDI_FLIPINTERVAL_TWO = 2,
    D3DDDI_FLIPINTERVAL_THREE = 3,
    D3DDDI_FLIPINTERVAL_FOUR = 4,
    D3DDDI_FLIPINTERVAL_IMMEDIATE_ALLOW_TEARING = 5
} D3DDDI_FLIPINTERVAL_TYPE;

typedef struct _D3DDDI_PATCHLOCATIONLIST {
    UINT AllocationIndex;
    union {
        struct {
            UINT SlotId : 24;
            UINT Reserved : 8;
        };
        UINT Value;
    };
    UINT DriverId;
    UINT AllocationOffset;
    UINT PatchOffset;
    UINT SplitOffset;
} D3DDDI_PATCHLOCATIONLIST;

typedef struct _D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE {
    union {
        struct {
            UINT64 Write : 1;
            UINT64 Execute : 1;
            UINT64 Zero : 1;
            UINT64 NoAccess : 1;
            UINT64 SystemUseOnly : 1;
            UINT64 Reserved : 59;
        };
        D3DKMT_ALIGN64 UINT64 Value;
    };
} D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE;

typedef struct D3DDDI_MAPGPUVIRTUALADDRESS {
    D3DKMT_HANDLE hPagingQueue;
    D3DKMT_ALIGN64 D3DGPU_VIRTUAL_ADDRESS BaseAddress;
    D3DKMT_ALIGN64 D3DGPU_VIRTUAL_ADDRESS MinimumAddress;
    D3DKMT_ALIGN64 D3DGPU_VIRTUAL_ADDRESS MaximumAddress;
    D3DKMT_HANDLE hAllocation;
    D3DKMT_ALIGN64 D3DGPU_SIZE_T OffsetInPages;
    D3DKMT_ALIGN64 D3DGPU_SIZE_T SizeInPages;
    D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE Protection;
    D3DKMT_ALIGN64 UINT64 DriverProtection;
    UINT Reserved0;
    D3DKMT_ALIGN64 UINT64 Reserved1;
    D3DKMT_ALIGN64 D3DGPU_VIRTUAL_ADDRESS VirtualAddress;
    D3DKMT_ALIGN64 UINT64 PagingFenceValue;
} D3DDDI_MAPGPUVIRTUALADDRESS;

#if defined(__cplusplus)
#define PBC_WDK_STATIC_ASSERT static_assert
#else
#define PBC_WDK_STATIC_ASSERT _Static_assert
#endif

PBC_WDK_STATIC_ASSERT(sizeof(D3DDDI_PATCHLOCATIONLIST) == 24, "patch location list");
PBC_WDK_STATIC_ASSERT(sizeof(D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE) == 8, "protection");
PBC_WDK_STATIC_ASSERT(offsetof(D3DDDI_MAPGPUVIRTUALADDRESS, BaseAddress) == 8, "map va");
PBC_WDK_STATIC_ASSERT(offsetof(D3DDDI_MAPGPUVIRTUALADDRESS, hAllocation) == 32, "map va");
PBC_WDK_STATIC_ASSERT(offsetof(D3DDDI_MAPGPUVIRTUALADDRESS, OffsetInPages) == 40, "map va");
PBC_WDK_STATIC_ASSERT(offsetof(D3DDDI_MAPGPUVIRTUALADDRESS, Protection) == 56, "map va");
PBC_WDK_STATIC_ASSERT(offsetof(D3DDDI_MAPGPUVIRTUALADDRESS, DriverProtection) == 64, "map va");
PBC_WDK_STATIC_ASSERT(offsetof(D3DDDI_MAPGPUVIRTUALADDRESS, Reserved0) == 72, "map va");
PBC_WDK_STATIC_ASSERT(offsetof(D3DDDI_MAPGPUVIRTUALADDRESS, Reserved1) == 80, "map va");
PBC_WDK_STATIC_ASSERT(offsetof(D3DDDI_MAPGPUVIRTUALADDRESS, VirtualAddress) == 88, "map va");
PBC_WDK_STATIC_ASSERT(offsetof(D3DDDI_MAPGPUVIRTUALADDRESS, PagingFenceValue) == 96, "map va");
PBC_WDK_STATIC_ASSERT(sizeof(D3DDDI_MAPGPUVIRTUALADDRESS) == 104, "map va");

#ifdef __cplusplus
}
#endif

#endif
