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
typedef UINT D3DDDI_VIDEO_PRESENT_TARGET_ID;
typedef UINT D3DGPU_HANDLE;

#define D3DDDI_ID_UNINITIALIZED ((UINT)(~0u))
#define D3DDDI_ID_NOTAPPLICABLE ((UINT)(0u))
#define D3DDDI_ID_ALL ((UINT)(~0u))
#define D3DDDI_MAX_BROADCAST_CONTEXT 64
#define D3DGPU_NULL 0
#define D3DDDI_MAX_WRITTEN_PRIMARIES 16
#define D3DDDI_MAX_OBJECT_WAITED_ON 32
#define D3DDDI_MAX_OBJECT_SIGNALED 32

/* Residency priorities (DXGK_ALLOCATIONINFO.AllocationPriority,
 * D3DDDI_ALLOCATIONINFO2.Priority, SetPriority): the documented levels;
 * values in between are allowed. */
#define D3DDDI_ALLOCATIONPRIORITY_MINIMUM 0x28000000u
#define D3DDDI_ALLOCATIONPRIORITY_LOW 0x50000000u
#define D3DDDI_ALLOCATIONPRIORITY_NORMAL 0x78000000u
#define D3DDDI_ALLOCATIONPRIORITY_HIGH 0xa0000000u
#define D3DDDI_ALLOCATIONPRIORITY_MAXIMUM 0xc8000000u

typedef struct _D3DDDI_RATIONAL {
    UINT Numerator;
    UINT Denominator;
} D3DDDI_RATIONAL;

typedef struct _D3DDDI_MULTISAMPLINGMETHOD {
    UINT NumSamples;
    UINT NumQualityLevels;
} D3DDDI_MULTISAMPLINGMETHOD;

typedef enum _D3DDDI_ROTATION {
    D3DDDI_ROTATION_IDENTITY = 1,
    D3DDDI_ROTATION_90 = 2,
    D3DDDI_ROTATION_180 = 3,
    D3DDDI_ROTATION_270 = 4
} D3DDDI_ROTATION;

/* Colour spaces (WDDM 2.0; multiplane overlays name their data's). The
 * page lists the names in order without numbers: C's, 0 to 24. CUSTOM's
 * value is DXGI_COLOR_SPACE_TYPE's (the same list, numbered on its page);
 * derived, see docs/wdk-headers.md. */
typedef enum D3DDDI_COLOR_SPACE_TYPE {
    D3DDDI_COLOR_SPACE_RGB_FULL_G22_NONE_P709,
    D3DDDI_COLOR_SPACE_RGB_FULL_G10_NONE_P709,
    D3DDDI_COLOR_SPACE_RGB_STUDIO_G22_NONE_P709,
    D3DDDI_COLOR_SPACE_RGB_STUDIO_G22_NONE_P2020,
    D3DDDI_COLOR_SPACE_RESERVED,
    D3DDDI_COLOR_SPACE_YCBCR_FULL_G22_NONE_P709_X601,
    D3DDDI_COLOR_SPACE_YCBCR_STUDIO_G22_LEFT_P601,
    D3DDDI_COLOR_SPACE_YCBCR_FULL_G22_LEFT_P601,
    D3DDDI_COLOR_SPACE_YCBCR_STUDIO_G22_LEFT_P709,
    D3DDDI_COLOR_SPACE_YCBCR_FULL_G22_LEFT_P709,
    D3DDDI_COLOR_SPACE_YCBCR_STUDIO_G22_LEFT_P2020,
    D3DDDI_COLOR_SPACE_YCBCR_FULL_G22_LEFT_P2020,
    D3DDDI_COLOR_SPACE_RGB_FULL_G2084_NONE_P2020,
    D3DDDI_COLOR_SPACE_YCBCR_STUDIO_G2084_LEFT_P2020,
    D3DDDI_COLOR_SPACE_RGB_STUDIO_G2084_NONE_P2020,
    D3DDDI_COLOR_SPACE_YCBCR_STUDIO_G22_TOPLEFT_P2020,
    D3DDDI_COLOR_SPACE_YCBCR_STUDIO_G2084_TOPLEFT_P2020,
    D3DDDI_COLOR_SPACE_RGB_FULL_G22_NONE_P2020,
    D3DDDI_COLOR_SPACE_YCBCR_STUDIO_GHLG_TOPLEFT_P2020,
    D3DDDI_COLOR_SPACE_YCBCR_FULL_GHLG_TOPLEFT_P2020,
    D3DDDI_COLOR_SPACE_RGB_STUDIO_G24_NONE_P709,
    D3DDDI_COLOR_SPACE_RGB_STUDIO_G24_NONE_P2020,
    D3DDDI_COLOR_SPACE_YCBCR_STUDIO_G24_LEFT_P709,
    D3DDDI_COLOR_SPACE_YCBCR_STUDIO_G24_LEFT_P2020,
    D3DDDI_COLOR_SPACE_YCBCR_STUDIO_G24_TOPLEFT_P2020,
    D3DDDI_COLOR_SPACE_CUSTOM = 0xFFFFFFFF
} D3DDDI_COLOR_SPACE_TYPE;

/* The kind of gamma ramp on a path. The page lists the names in order
 * without numbers; D3DKMT_SETGAMMARAMP's page numbers the first four 0 to
 * 3, so the rest follow in C's order (MATRIX_3x4 from WDDM 2.3, MATRIX_V2
 * from WDDM 2.6). */
typedef enum _D3DDDI_GAMMARAMP_TYPE {
    D3DDDI_GAMMARAMP_UNINITIALIZED,
    D3DDDI_GAMMARAMP_DEFAULT,
    D3DDDI_GAMMARAMP_RGB256x3x16,
    D3DDDI_GAMMARAMP_DXGI_1,
    D3DDDI_GAMMARAMP_MATRIX_3x4,
    D3DDDI_GAMMARAMP_MATRIX_V2
} D3DDDI_GAMMARAMP_TYPE;

/* Where an allocation prefers to live: up to five segments, best first. */
typedef struct _D3DDDI_SEGMENTPREFERENCE {
    union {
        struct {
            UINT SegmentId0 : 5;
            UINT Direction0 : 1;
            UINT SegmentId1 : 5;
            UINT Direction1 : 1;
            UINT SegmentId2 : 5;
            UINT Direction2 : 1;
            UINT SegmentId3 : 5;
            UINT Direction3 : 1;
            UINT SegmentId4 : 5;
            UINT Direction4 : 1;
            UINT Reserved : 2;
        };
        UINT Value;
    };
} D3DDDI_SEGMENTPREFERENCE;

/* How an allocation's properties change (WDDM 2.0); Unmoveable is the
 * page's newest bit. */
typedef struct D3DDDI_UPDATEALLOCPROPERTY_FLAGS {
    union {
        struct {
            UINT AccessedPhysically : 1;
            UINT Unmoveable : 1;
            UINT Reserved : 30;
        };
        UINT Value;
    };
} D3DDDI_UPDATEALLOCPROPERTY_FLAGS;

/* Pixel formats: the Direct3D 9 numbering, four-character codes packed
 * first character lowest. */
#define PBC_WDK_FOURCC(a, b, c, d) \
    ((UINT)(UCHAR)(a) | ((UINT)(UCHAR)(b) << 8) | ((UINT)(UCHAR)(c) << 16) | ((UINT)(UCHAR)(d) << 24))
#ifndef MAKEFOURCC
#define MAKEFOURCC(a, b, c, d) PBC_WDK_FOURCC(a, b, c, d)
#endif

typedef enum _D3DDDIFORMAT {
    D3DDDIFMT_UNKNOWN = 0,
    D3DDDIFMT_R8G8B8 = 20,
    D3DDDIFMT_A8R8G8B8 = 21,
    D3DDDIFMT_X8R8G8B8 = 22,
    D3DDDIFMT_R5G6B5 = 23,
    D3DDDIFMT_X1R5G5B5 = 24,
    D3DDDIFMT_A1R5G5B5 = 25,
    D3DDDIFMT_A4R4G4B4 = 26,
    D3DDDIFMT_R3G3B2 = 27,
    D3DDDIFMT_A8 = 28,
    D3DDDIFMT_A8R3G3B2 = 29,
    D3DDDIFMT_X4R4G4B4 = 30,
    D3DDDIFMT_A2B10G10R10 = 31,
    D3DDDIFMT_A8B8G8R8 = 32,
    D3DDDIFMT_X8B8G8R8 = 33,
    D3DDDIFMT_G16R16 = 34,
    D3DDDIFMT_A2R10G10B10 = 35,
    D3DDDIFMT_A16B16G16R16 = 36,
    D3DDDIFMT_A8P8 = 40,
    D3DDDIFMT_P8 = 41,
    D3DDDIFMT_L8 = 50,
    D3DDDIFMT_A8L8 = 51,
    D3DDDIFMT_A4L4 = 52,
    D3DDDIFMT_V8U8 = 60,
    D3DDDIFMT_L6V5U5 = 61,
    D3DDDIFMT_X8L8V8U8 = 62,
    D3DDDIFMT_Q8W8V8U8 = 63,
    D3DDDIFMT_V16U16 = 64,
    D3DDDIFMT_W11V11U10 = 65,
    D3DDDIFMT_A2W10V10U10 = 67,
    D3DDDIFMT_UYVY = PBC_WDK_FOURCC('U', 'Y', 'V', 'Y'),
    D3DDDIFMT_R8G8_B8G8 = PBC_WDK_FOURCC('R', 'G', 'B', 'G'),
    D3DDDIFMT_YUY2 = PBC_WDK_FOURCC('Y', 'U', 'Y', '2'),
    D3DDDIFMT_G8R8_G8B8 = PBC_WDK_FOURCC('G', 'R', 'G', 'B'),
    D3DDDIFMT_DXT1 = PBC_WDK_FOURCC('D', 'X', 'T', '1'),
    D3DDDIFMT_DXT2 = PBC_WDK_FOURCC('D', 'X', 'T', '2'),
    D3DDDIFMT_DXT3 = PBC_WDK_FOURCC('D', 'X', 'T', '3'),
    D3DDDIFMT_DXT4 = PBC_WDK_FOURCC('D', 'X', 'T', '4'),
    D3DDDIFMT_DXT5 = PBC_WDK_FOURCC('D', 'X', 'T', '5'),
    D3DDDIFMT_D16_LOCKABLE = 70,
    D3DDDIFMT_D32 = 71,
    D3DDDIFMT_D15S1 = 73,
    D3DDDIFMT_D24S8 = 75,
    D3DDDIFMT_D24X8 = 77,
    D3DDDIFMT_D24X4S4 = 79,
    D3DDDIFMT_D16 = 80,
    D3DDDIFMT_D32F_LOCKABLE = 82,
    D3DDDIFMT_D24FS8 = 83,
    D3DDDIFMT_D32_LOCKABLE = 84,
    D3DDDIFMT_S8_LOCKABLE = 85,
    D3DDDIFMT_S1D15 = 72,
    D3DDDIFMT_S8D24 = 74,
    D3DDDIFMT_X8D24 = 76,
    D3DDDIFMT_X4S4D24 = 78,
    D3DDDIFMT_L16 = 81,
    D3DDDIFMT_VERTEXDATA = 100,
    D3DDDIFMT_INDEX16 = 101,
    D3DDDIFMT_INDEX32 = 102,
    D3DDDIFMT_Q16W16V16U16 = 110,
    D3DDDIFMT_MULTI2_ARGB8 = PBC_WDK_FOURCC('M', 'E', 'T', '1'),
    D3DDDIFMT_R16F = 111,
    D3DDDIFMT_G16R16F = 112,
    D3DDDIFMT_A16B16G16R16F = 113,
    D3DDDIFMT_R32F = 114,
    D3DDDIFMT_G32R32F = 115,
    D3DDDIFMT_A32B32G32R32F = 116,
    D3DDDIFMT_CxV8U8 = 117,
    D3DDDIFMT_A1 = 118,
    D3DDDIFMT_A2B10G10R10_XR_BIAS = 119,
    D3DDDIFMT_DXVACOMPBUFFER_BASE = 150,
    D3DDDIFMT_BINARYBUFFER = 199,
    D3DDDIFMT_FORCE_UINT = 0x7fffffff
} D3DDDIFORMAT;

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
PBC_WDK_STATIC_ASSERT(sizeof(D3DDDIFORMAT) == 4 && D3DDDIFMT_DXT1 == 0x31545844, "D3DDDIFORMAT");
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

/* Hardware-queue creation flags (WDDM 2.2; DxgkDdiCreateHwQueue), in
 * their page's newest form: bits added after WDDM 2.7 read 0 for older
 * runtimes, and the word is 4 bytes in every version. */
typedef struct _D3DDDI_CREATEHWQUEUEFLAGS {
    union {
        struct {
            UINT DisableGpuTimeout : 1;
            UINT NoBroadcastSignal : 1;
            UINT NoBroadcastWait : 1;
            UINT NoKmdAccess : 1;
            UINT UserModeSubmission : 1;
            UINT NativeProgressFence : 1;
            UINT TestQueue : 1;
            UINT Reserved : 25;
        };
        UINT Value;
    };
} D3DDDI_CREATEHWQUEUEFLAGS;
PBC_WDK_STATIC_ASSERT(sizeof(D3DDDI_CREATEHWQUEUEFLAGS) == 4, "hw queue flags");

#ifdef __cplusplus
}
#endif

#endif
