/*
 * d3dkmddi.h — the kernel-mode display DDI structures a paging-buffer
 * builder receives (BuildPagingBuffer, Patch, SubmitCommand), with
 * Windows' names and x86-64 layouts. Every offset the project relies on is
 * checked by a static assertion at the end of this file.
 *
 * The five WDDM 2.x union members whose field lists pbcheck does not model
 * (NotifyFenceResidency, MmapMmu, UnmapMmu, NotifyResidency2,
 * NotifyAllocation) are declared as opaque placeholders; the VidMm model
 * never issues those operations.
 */
#ifndef PBCHECK_WDK_D3DKMDDI_H
#define PBCHECK_WDK_D3DKMDDI_H

#include "d3dukmdt.h"
#include "wdm.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum _DXGK_BUILDPAGINGBUFFER_OPERATION {
    DXGK_OPERATION_TRANSFER = 0,
    DXGK_OPERATION_FILL = 1,
    DXGK_OPERATION_DISCARD_CONTENT = 2,
    DXGK_OPERATION_READ_PHYSICAL = 3,
    DXGK_OPERATION_WRITE_PHYSICAL = 4,
    DXGK_OPERATION_MAP_APERTURE_SEGMENT = 5,
    DXGK_OPERATION_UNMAP_APERTURE_SEGMENT = 6,
    DXGK_OPERATION_SPECIAL_LOCK_TRANSFER = 7,
    DXGK_OPERATION_VIRTUAL_TRANSFER = 8,
    DXGK_OPERATION_VIRTUAL_FILL = 9,
    DXGK_OPERATION_INIT_CONTEXT_RESOURCE = 10,
    DXGK_OPERATION_UPDATE_PAGE_TABLE = 11,
    DXGK_OPERATION_FLUSH_TLB = 12,
    DXGK_OPERATION_UPDATE_CONTEXT_ALLOCATION = 13,
    DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES = 14,
    DXGK_OPERATION_NOTIFY_RESIDENCY = 15,
    DXGK_OPERATION_SIGNAL_MONITORED_FENCE = 16,
    DXGK_OPERATION_MAP_APERTURE_SEGMENT2 = 17,
    DXGK_OPERATION_NOTIFY_FENCE_RESIDENCY = 18,
    DXGK_OPERATION_MAP_MMU = 19,
    DXGK_OPERATION_UNMAP_MMU = 20,
    DXGK_OPERATION_NOTIFY_RESIDENCY2 = 21,
    DXGK_OPERATION_NOTIFY_ALLOC = 22,
    DXGK_OPERATION_MAP_APERTURE = DXGK_OPERATION_MAP_APERTURE_SEGMENT,
    DXGK_OPERATION_UNMAP_APERTURE = DXGK_OPERATION_UNMAP_APERTURE_SEGMENT
} DXGK_BUILDPAGINGBUFFER_OPERATION;

/* ---- Flag unions (bit 0 first) ---- */
typedef struct _DXGK_TRANSFERFLAGS {
    union {
        struct {
            UINT Swizzle : 1;
            UINT Unswizzle : 1;
            UINT AllocationIsIdle : 1;
            UINT TransferStart : 1;
            UINT TransferEnd : 1;
            UINT Reserved : 27;
        };
        UINT Value;
    };
} DXGK_TRANSFERFLAGS;

typedef struct _DXGK_DISCARDCONTENTFLAGS {
    union {
        struct {
            UINT AllocationIsIdle : 1;
            UINT Reserved : 31;
        };
        UINT Value;
    };
} DXGK_DISCARDCONTENTFLAGS;

typedef struct _DXGK_MAPAPERTUREFLAGS {
    union {
        struct {
            UINT CacheCoherent : 1;
            UINT Reserved : 31;
        };
        UINT Value;
    };
} DXGK_MAPAPERTUREFLAGS;

typedef struct _DXGK_SUBMITCOMMANDFLAGS {
    union {
        struct {
            UINT Paging : 1;
            UINT Present : 1;
            UINT RedirectedPresent : 1;
            UINT NullRendering : 1;
            UINT Flip : 1;
            UINT FlipWithNoWait : 1;
            UINT ContextSwitch : 1;
            UINT Resubmission : 1;
            UINT VirtualMachineData : 1;
            UINT Reserved : 23;
        };
        UINT Value;
    };
} DXGK_SUBMITCOMMANDFLAGS;

typedef struct _DXGK_PATCHFLAGS {
    union {
        struct {
            UINT Paging : 1;
            UINT Present : 1;
            UINT RedirectedPresent : 1;
            UINT NullRendering : 1;
            UINT Reserved : 28;
        };
        UINT Value;
    };
} DXGK_PATCHFLAGS;

typedef struct _DXGK_TRANSFERVIRTUALFLAGS {
    union {
        struct {
            UINT Src64KBPages : 1;
            UINT Dst64KBPages : 1;
            UINT Reserved : 30;
        };
        UINT Flags;
    };
} DXGK_TRANSFERVIRTUALFLAGS;

typedef struct _DXGK_UPDATEPAGETABLEFLAGS {
    UINT Repeat : 1;
    UINT InitialUpdate : 1;
    UINT NotifyEviction : 1;
    UINT Use64KBPages : 1;
    UINT NativeFence : 1;
    UINT Reserved : 27;
} DXGK_UPDATEPAGETABLEFLAGS;

typedef struct _DXGK_ADL_FLAGS {
    union {
        struct {
            UINT Contiguous : 1;
            UINT Reserved : 31;
        };
        UINT Value;
    };
} DXGK_ADL_FLAGS;

typedef PFN_NUMBER DXGK_PAGE_NUMBER;

typedef struct _DXGK_ADL {
    UINT32 PageCount;
    DXGK_ADL_FLAGS Flags;
    union {
        DXGK_PAGE_NUMBER BasePageNumber;
        const DXGK_PAGE_NUMBER *Pages;
    };
} DXGK_ADL;

typedef struct _D3DGPU_PHYSICAL_ADDRESS {
    UINT SegmentId;
    UINT Padding;
    UINT64 SegmentOffset;
} D3DGPU_PHYSICAL_ADDRESS;

typedef enum _DXGK_PTE_PAGE_SIZE {
    DXGK_PTE_PAGE_TABLE_PAGE_4KB = 0,
    DXGK_PTE_PAGE_TABLE_PAGE_64KB = 1
} DXGK_PTE_PAGE_SIZE;

typedef struct _DXGK_PTE {
    union {
        struct {
            ULONGLONG Valid : 1;
            ULONGLONG Zero : 1;
            ULONGLONG CacheCoherent : 1;
            ULONGLONG ReadOnly : 1;
            ULONGLONG NoExecute : 1;
            ULONGLONG Segment : 5;
            ULONGLONG LargePage : 1;
            ULONGLONG PhysicalAdapterIndex : 6;
            ULONGLONG PageTablePageSize : 2;
            ULONGLONG SystemReserved0 : 1;
            ULONGLONG Reserved : 44;
        };
        ULONGLONG Flags;
    };
    union {
        ULONGLONG PageAddress;
        ULONGLONG PageTableAddress;
    };
} DXGK_PTE;

typedef enum _DXGK_MEMORY_TRANSFER_DIRECTION {
    DXGK_MEMORY_TRANSFER_LOCAL_TO_SYSTEM = 0,
    DXGK_MEMORY_TRANSFER_SYSTEM_TO_LOCAL = 1,
    DXGK_MEMORY_TRANSFER_LOCAL_TO_LOCAL = 2
} DXGK_MEMORY_TRANSFER_DIRECTION;

typedef enum _DXGK_PAGETABLEUPDATEMODE {
    DXGK_PAGETABLEUPDATE_CPU_VIRTUAL = 0,
    DXGK_PAGETABLEUPDATE_GPU_VIRTUAL = 1,
    DXGK_PAGETABLEUPDATE_GPU_PHYSICAL = 2
} DXGK_PAGETABLEUPDATEMODE;

typedef union _DXGK_PAGETABLEUPDATEADDRESS {
    PVOID CpuVirtual;
    D3DGPU_PHYSICAL_ADDRESS GpuPhysical;
    D3DGPU_VIRTUAL_ADDRESS GpuVirtual;
} DXGK_PAGETABLEUPDATEADDRESS;

/* ---- WDDM 2.x operation bodies ---- */
typedef struct _DXGK_BUILDPAGINGBUFFER_TRANSFERVIRTUAL {
    HANDLE hAllocation;
    UINT64 AllocationOffsetInBytes;
    UINT64 TransferSizeInBytes;
    D3DGPU_VIRTUAL_ADDRESS SourceVirtualAddress;
    D3DGPU_VIRTUAL_ADDRESS DestinationVirtualAddress;
    D3DGPU_VIRTUAL_ADDRESS SourcePageTable;
    DXGK_MEMORY_TRANSFER_DIRECTION TransferDirection;
    DXGK_TRANSFERVIRTUALFLAGS Flags;
    D3DGPU_VIRTUAL_ADDRESS DestinationPageTable;
} DXGK_BUILDPAGINGBUFFER_TRANSFERVIRTUAL;

typedef struct _DXGK_BUILDPAGINGBUFFER_FILLVIRTUAL {
    HANDLE hAllocation;
    UINT64 AllocationOffsetInBytes;
    UINT64 FillSizeInBytes;
    UINT FillPattern;
    D3DGPU_VIRTUAL_ADDRESS DestinationVirtualAddress;
} DXGK_BUILDPAGINGBUFFER_FILLVIRTUAL;

typedef struct _DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE {
    UINT PageTableLevel;
    HANDLE hAllocation;
    DXGK_PAGETABLEUPDATEADDRESS PageTableAddress;
    DXGK_PTE *pPageTableEntries;
    UINT StartIndex;
    UINT NumPageTableEntries;
    UINT Reserved0;
    DXGK_UPDATEPAGETABLEFLAGS Flags;
    UINT64 DriverProtection;
    UINT64 AllocationOffsetInBytes;
    HANDLE hProcess;
    DXGK_PAGETABLEUPDATEMODE UpdateMode;
    DXGK_PTE *pPageTableEntries64KB;
    D3DGPU_VIRTUAL_ADDRESS FirstPteVirtualAddress;
} DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE;

typedef struct _DXGK_BUILDPAGINGBUFFER_FLUSHTLB {
    D3DGPU_PHYSICAL_ADDRESS RootPageTableAddress;
    HANDLE hProcess;
    D3DGPU_VIRTUAL_ADDRESS StartVirtualAddress;
    D3DGPU_VIRTUAL_ADDRESS EndVirtualAddress;
} DXGK_BUILDPAGINGBUFFER_FLUSHTLB;

typedef struct _DXGK_BUILDPAGINGBUFFER_COPY_RANGE {
    UINT NumPageTableEntries;
    D3DGPU_VIRTUAL_ADDRESS SrcPageTableAddress;
    D3DGPU_VIRTUAL_ADDRESS DstPageTableAddress;
    UINT SrcStartPteIndex;
    UINT DstStartPteIndex;
} DXGK_BUILDPAGINGBUFFER_COPY_RANGE;

typedef struct _DXGK_BUILDPAGINGBUFFER_COPYPAGETABLEENTRIES {
    UINT NumRanges;
    DXGK_BUILDPAGINGBUFFER_COPY_RANGE *pRanges;
} DXGK_BUILDPAGINGBUFFER_COPYPAGETABLEENTRIES;

typedef struct _DXGK_BUILDPAGINGBUFFER_UPDATECONTEXTALLOCATION {
    D3DGPU_VIRTUAL_ADDRESS ContextAllocation;
    UINT64 ContextAllocationSize;
    PVOID pDriverPrivateData;
    UINT DriverPrivateDataSize;
} DXGK_BUILDPAGINGBUFFER_UPDATECONTEXTALLOCATION;

typedef struct _DXGK_BUILDPAGINGBUFFER_NOTIFYRESIDENCY {
    HANDLE hAllocation;
    D3DGPU_PHYSICAL_ADDRESS PhysicalAddress;
    union {
        struct {
            UINT Resident : 1;
            UINT Reserved : 31;
        };
    };
} DXGK_BUILDPAGINGBUFFER_NOTIFYRESIDENCY;

typedef struct _DXGK_BUILDPAGINGBUFFER_SIGNALMONITOREDFENCE {
    D3DGPU_VIRTUAL_ADDRESS MonitoredFenceGpuVa;
    UINT64 MonitoredFenceValue;
} DXGK_BUILDPAGINGBUFFER_SIGNALMONITOREDFENCE;

/* Opaque: field lists not modeled (see the note at the top of this file). */
typedef struct _DXGK_BUILDPAGINGBUFFER_NOTIFY_FENCE_RESIDENCY {
    UINT64 Opaque[4];
} DXGK_BUILDPAGINGBUFFER_NOTIFY_FENCE_RESIDENCY;
typedef struct _DXGK_BUILDPAGINGBUFFER_MAPMMU {
    UINT64 Opaque[4];
} DXGK_BUILDPAGINGBUFFER_MAPMMU;
typedef struct _DXGK_BUILDPAGINGBUFFER_UNMAPMMU {
    UINT64 Opaque[4];
} DXGK_BUILDPAGINGBUFFER_UNMAPMMU;
typedef struct _DXGK_BUILDPAGINGBUFFER_NOTIFYRESIDENCY2 {
    UINT64 Opaque[4];
} DXGK_BUILDPAGINGBUFFER_NOTIFYRESIDENCY2;
typedef struct _DXGK_BUILDPAGINGBUFFER_NOTIFYALLOC {
    UINT64 Opaque[4];
} DXGK_BUILDPAGINGBUFFER_NOTIFYALLOC;

/* One side of a transfer: a segment address, or an MDL when SegmentId is 0. */
#define PBC_WDK_TRANSFER_SIDE      \
    struct {                       \
        UINT SegmentId;            \
        union {                    \
            LARGE_INTEGER SegmentAddress; \
            MDL *pMdl;             \
        };                         \
    }

typedef struct _DXGKARG_BUILDPAGINGBUFFER {
    VOID *pDmaBuffer;
    UINT DmaSize;
    VOID *pDmaBufferPrivateData;
    UINT DmaBufferPrivateDataSize;
    DXGK_BUILDPAGINGBUFFER_OPERATION Operation;
    UINT MultipassOffset;
    union {
        struct {
            HANDLE hAllocation;
            UINT TransferOffset;
            SIZE_T TransferSize;
            PBC_WDK_TRANSFER_SIDE Source;
            PBC_WDK_TRANSFER_SIDE Destination;
            DXGK_TRANSFERFLAGS Flags;
            UINT MdlOffset;
        } Transfer;
        struct {
            HANDLE hAllocation;
            SIZE_T FillSize;
            UINT FillPattern;
            struct {
                UINT SegmentId;
                LARGE_INTEGER SegmentAddress;
            } Destination;
        } Fill;
        struct {
            HANDLE hAllocation;
            DXGK_DISCARDCONTENTFLAGS Flags;
            UINT SegmentId;
            PHYSICAL_ADDRESS SegmentAddress;
        } DiscardContent;
        struct {
            UINT SegmentId;
            PHYSICAL_ADDRESS PhysicalAddress;
        } ReadPhysical;
        struct {
            UINT SegmentId;
            PHYSICAL_ADDRESS PhysicalAddress;
        } WritePhysical;
        struct {
            HANDLE hDevice;
            HANDLE hAllocation;
            UINT SegmentId;
            SIZE_T OffsetInPages;
            SIZE_T NumberOfPages;
            PMDL pMdl;
            DXGK_MAPAPERTUREFLAGS Flags;
            ULONG MdlOffset;
        } MapApertureSegment;
        struct {
            HANDLE hDevice;
            HANDLE hAllocation;
            UINT SegmentId;
            SIZE_T OffsetInPages;
            SIZE_T NumberOfPages;
            PHYSICAL_ADDRESS DummyPage;
        } UnmapApertureSegment;
        struct {
            HANDLE hAllocation;
            UINT TransferOffset;
            SIZE_T TransferSize;
            PBC_WDK_TRANSFER_SIDE Source;
            PBC_WDK_TRANSFER_SIDE Destination;
            DXGK_TRANSFERFLAGS Flags;
            UINT SwizzlingRangeId;
            UINT SwizzlingRangeData;
        } SpecialLockTransfer;
        struct {
            HANDLE hAllocation;
            struct {
                UINT SegmentId;
                union {
                    LARGE_INTEGER SegmentAddress;
                    MDL *pMdl;
                };
                PVOID VirtualAddress;
                D3DGPU_VIRTUAL_ADDRESS GpuVirtualAddress;
            } Destination;
        } InitContextResource;
        DXGK_BUILDPAGINGBUFFER_TRANSFERVIRTUAL TransferVirtual;
        DXGK_BUILDPAGINGBUFFER_FILLVIRTUAL FillVirtual;
        DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE UpdatePageTable;
        DXGK_BUILDPAGINGBUFFER_FLUSHTLB FlushTlb;
        DXGK_BUILDPAGINGBUFFER_COPYPAGETABLEENTRIES CopyPageTableEntries;
        DXGK_BUILDPAGINGBUFFER_UPDATECONTEXTALLOCATION UpdateContextAllocation;
        DXGK_BUILDPAGINGBUFFER_NOTIFYRESIDENCY NotifyResidency;
        DXGK_BUILDPAGINGBUFFER_SIGNALMONITOREDFENCE SignalMonitoredFence;
        struct {
            HANDLE hDevice;
            HANDLE hAllocation;
            UINT SegmentId;
            SIZE_T OffsetInPages;
            SIZE_T NumberOfPages;
            DXGK_ADL Adl;
            DXGK_MAPAPERTUREFLAGS Flags;
            ULONG AdlOffset;
            PVOID CpuVisibleAddress;
        } MapApertureSegment2;
        DXGK_BUILDPAGINGBUFFER_NOTIFY_FENCE_RESIDENCY NotifyFenceResidency;
        DXGK_BUILDPAGINGBUFFER_MAPMMU MmapMmu;
        DXGK_BUILDPAGINGBUFFER_UNMAPMMU UnmapMmu;
        DXGK_BUILDPAGINGBUFFER_NOTIFYRESIDENCY2 NotifyResidency2;
        DXGK_BUILDPAGINGBUFFER_NOTIFYALLOC NotifyAllocation;
        struct {
            UINT Reserved[64];
        } Reserved;
    };
    HANDLE hSystemContext;
    D3DGPU_VIRTUAL_ADDRESS DmaBufferGpuVirtualAddress;
    UINT DmaBufferWriteOffset;
} DXGKARG_BUILDPAGINGBUFFER;

typedef DXGKARG_BUILDPAGINGBUFFER *IN_PDXGKARG_BUILDPAGINGBUFFER;
typedef HANDLE const IN_CONST_HANDLE; /* the handle (a pointer) is const, as IN_CONST_PVOID */

/* Allocation and patch lists are always NULL for paging buffers (S36); the
 * allocation-list entry is declared so that Patch signatures compile. */
typedef struct _DXGK_ALLOCATIONLIST {
    HANDLE hDeviceSpecificAllocation;
    struct {
        UINT WriteOperation : 1;
        UINT SegmentId : 5;
        UINT Reserved : 26;
    };
    PHYSICAL_ADDRESS PhysicalAddress;
} DXGK_ALLOCATIONLIST;

typedef struct _DXGKARG_PATCH {
    union {
        HANDLE hDevice;
        HANDLE hContext;
    };
    UINT DmaBufferSegmentId;
    PHYSICAL_ADDRESS DmaBufferPhysicalAddress;
    VOID *pDmaBuffer;
    UINT DmaBufferSize;
    UINT DmaBufferSubmissionStartOffset;
    UINT DmaBufferSubmissionEndOffset;
    VOID *pDmaBufferPrivateData;
    UINT DmaBufferPrivateDataSize;
    UINT DmaBufferPrivateDataSubmissionStartOffset;
    UINT DmaBufferPrivateDataSubmissionEndOffset;
    const DXGK_ALLOCATIONLIST *pAllocationList;
    UINT AllocationListSize;
    const D3DDDI_PATCHLOCATIONLIST *pPatchLocationList;
    UINT PatchLocationListSize;
    UINT PatchLocationListSubmissionStart;
    UINT PatchLocationListSubmissionLength;
    UINT SubmissionFenceId;
    DXGK_PATCHFLAGS Flags;
    UINT EngineOrdinal;
} DXGKARG_PATCH;

typedef struct _DXGKARG_SUBMITCOMMAND {
    union {
        HANDLE hDevice;
        HANDLE hContext;
    };
    UINT DmaBufferSegmentId;
    PHYSICAL_ADDRESS DmaBufferPhysicalAddress;
    UINT DmaBufferSize;
    UINT DmaBufferSubmissionStartOffset;
    UINT DmaBufferSubmissionEndOffset;
    VOID *pDmaBufferPrivateData;
    UINT DmaBufferPrivateDataSize;
    UINT DmaBufferPrivateDataSubmissionStartOffset;
    UINT DmaBufferPrivateDataSubmissionEndOffset;
    UINT SubmissionFenceId;
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId;
    D3DDDI_FLIPINTERVAL_TYPE FlipInterval;
    DXGK_SUBMITCOMMANDFLAGS Flags;
    UINT EngineOrdinal;
    D3DGPU_VIRTUAL_ADDRESS DmaBufferVirtualAddress;
    UINT NodeOrdinal;
} DXGKARG_SUBMITCOMMAND;

typedef NTSTATUS APIENTRY DXGKDDI_BUILDPAGINGBUFFER(IN_CONST_HANDLE hAdapter,
                                                    IN_PDXGKARG_BUILDPAGINGBUFFER pBuildPagingBuffer);
typedef NTSTATUS APIENTRY DXGKDDI_PATCH(IN_CONST_HANDLE hAdapter, const DXGKARG_PATCH *pPatch);
typedef NTSTATUS APIENTRY DXGKDDI_SUBMITCOMMAND(IN_CONST_HANDLE hAdapter,
                                                const DXGKARG_SUBMITCOMMAND *pSubmitCommand);

/* ---- Layout checks (x86-64) ---- */
#define PBC_WDK_OFF(t, m, v) PBC_WDK_STATIC_ASSERT(offsetof(t, m) == (v), #t "." #m)
#define PBC_WDK_SIZE(t, v) PBC_WDK_STATIC_ASSERT(sizeof(t) == (v), "sizeof " #t)

PBC_WDK_SIZE(LARGE_INTEGER, 8);
PBC_WDK_SIZE(MDL, 48);
PBC_WDK_OFF(MDL, ByteCount, 40);
PBC_WDK_OFF(MDL, ByteOffset, 44);
PBC_WDK_SIZE(DXGK_TRANSFERFLAGS, 4);
PBC_WDK_SIZE(DXGK_SUBMITCOMMANDFLAGS, 4);
PBC_WDK_SIZE(DXGK_PATCHFLAGS, 4);
PBC_WDK_SIZE(DXGK_UPDATEPAGETABLEFLAGS, 4);
PBC_WDK_SIZE(DXGK_PTE, 16);
PBC_WDK_OFF(DXGK_PTE, PageAddress, 8);
PBC_WDK_SIZE(D3DGPU_PHYSICAL_ADDRESS, 16);
PBC_WDK_SIZE(DXGK_ADL, 16);

PBC_WDK_OFF(DXGKARG_BUILDPAGINGBUFFER, pDmaBuffer, 0);
PBC_WDK_OFF(DXGKARG_BUILDPAGINGBUFFER, DmaSize, 8);
PBC_WDK_OFF(DXGKARG_BUILDPAGINGBUFFER, pDmaBufferPrivateData, 16);
PBC_WDK_OFF(DXGKARG_BUILDPAGINGBUFFER, DmaBufferPrivateDataSize, 24);
PBC_WDK_OFF(DXGKARG_BUILDPAGINGBUFFER, Operation, 28);
PBC_WDK_OFF(DXGKARG_BUILDPAGINGBUFFER, MultipassOffset, 32);
PBC_WDK_OFF(DXGKARG_BUILDPAGINGBUFFER, Transfer, 40);
PBC_WDK_OFF(DXGKARG_BUILDPAGINGBUFFER, Reserved, 40);
PBC_WDK_OFF(DXGKARG_BUILDPAGINGBUFFER, hSystemContext, 296);
PBC_WDK_OFF(DXGKARG_BUILDPAGINGBUFFER, DmaBufferGpuVirtualAddress, 304);
PBC_WDK_OFF(DXGKARG_BUILDPAGINGBUFFER, DmaBufferWriteOffset, 312);
PBC_WDK_SIZE(DXGKARG_BUILDPAGINGBUFFER, 320);

#define PBC_WDK_MEMBER_SIZE(m, v) \
    PBC_WDK_STATIC_ASSERT(sizeof(((DXGKARG_BUILDPAGINGBUFFER *)0)->m) == (v), "sizeof " #m)
PBC_WDK_MEMBER_SIZE(Transfer, 64);
PBC_WDK_MEMBER_SIZE(Fill, 40);
PBC_WDK_MEMBER_SIZE(DiscardContent, 24);
PBC_WDK_MEMBER_SIZE(ReadPhysical, 16);
PBC_WDK_MEMBER_SIZE(WritePhysical, 16);
PBC_WDK_MEMBER_SIZE(MapApertureSegment, 56);
PBC_WDK_MEMBER_SIZE(UnmapApertureSegment, 48);
PBC_WDK_MEMBER_SIZE(SpecialLockTransfer, 72);
PBC_WDK_MEMBER_SIZE(InitContextResource, 40);
PBC_WDK_MEMBER_SIZE(TransferVirtual, 64);
PBC_WDK_MEMBER_SIZE(FillVirtual, 40);
PBC_WDK_MEMBER_SIZE(UpdatePageTable, 104);
PBC_WDK_MEMBER_SIZE(FlushTlb, 40);
PBC_WDK_MEMBER_SIZE(CopyPageTableEntries, 16);
PBC_WDK_MEMBER_SIZE(UpdateContextAllocation, 32);
PBC_WDK_MEMBER_SIZE(NotifyResidency, 32);
PBC_WDK_MEMBER_SIZE(SignalMonitoredFence, 16);
PBC_WDK_MEMBER_SIZE(MapApertureSegment2, 72);
PBC_WDK_MEMBER_SIZE(Reserved, 256);

#define PBC_WDK_UOFF(m, f, v)                                                              \
    PBC_WDK_STATIC_ASSERT(offsetof(DXGKARG_BUILDPAGINGBUFFER, m.f) == 40 + (v), #m "." #f)
PBC_WDK_UOFF(Transfer, TransferOffset, 8);
PBC_WDK_UOFF(Transfer, TransferSize, 16);
PBC_WDK_UOFF(Transfer, Source, 24);
PBC_WDK_UOFF(Transfer, Destination, 40);
PBC_WDK_UOFF(Transfer, Flags, 56);
PBC_WDK_UOFF(Transfer, MdlOffset, 60);
PBC_WDK_UOFF(Fill, FillPattern, 16);
PBC_WDK_UOFF(Fill, Destination, 24);
PBC_WDK_UOFF(DiscardContent, SegmentAddress, 16);
PBC_WDK_UOFF(MapApertureSegment, pMdl, 40);
PBC_WDK_UOFF(MapApertureSegment, MdlOffset, 52);
PBC_WDK_UOFF(UnmapApertureSegment, DummyPage, 40);
PBC_WDK_UOFF(SpecialLockTransfer, SwizzlingRangeId, 60);
PBC_WDK_UOFF(SpecialLockTransfer, SwizzlingRangeData, 64);
PBC_WDK_UOFF(TransferVirtual, TransferDirection, 48);
PBC_WDK_UOFF(TransferVirtual, DestinationPageTable, 56);
PBC_WDK_UOFF(UpdatePageTable, pPageTableEntries, 32);
PBC_WDK_UOFF(UpdatePageTable, Flags, 52);
PBC_WDK_UOFF(UpdatePageTable, UpdateMode, 80);
PBC_WDK_UOFF(UpdatePageTable, FirstPteVirtualAddress, 96);
PBC_WDK_UOFF(MapApertureSegment2, Adl, 40);
PBC_WDK_UOFF(MapApertureSegment2, CpuVisibleAddress, 64);

PBC_WDK_OFF(DXGKARG_PATCH, DmaBufferSegmentId, 8);
PBC_WDK_OFF(DXGKARG_PATCH, DmaBufferPhysicalAddress, 16);
PBC_WDK_OFF(DXGKARG_PATCH, pDmaBuffer, 24);
PBC_WDK_OFF(DXGKARG_PATCH, DmaBufferSize, 32);
PBC_WDK_OFF(DXGKARG_PATCH, DmaBufferSubmissionEndOffset, 40);
PBC_WDK_OFF(DXGKARG_PATCH, pDmaBufferPrivateData, 48);
PBC_WDK_OFF(DXGKARG_PATCH, DmaBufferPrivateDataSubmissionEndOffset, 64);
PBC_WDK_OFF(DXGKARG_PATCH, pAllocationList, 72);
PBC_WDK_OFF(DXGKARG_PATCH, pPatchLocationList, 88);
PBC_WDK_OFF(DXGKARG_PATCH, SubmissionFenceId, 108);
PBC_WDK_OFF(DXGKARG_PATCH, Flags, 112);
PBC_WDK_SIZE(DXGKARG_PATCH, 120);

PBC_WDK_OFF(DXGKARG_SUBMITCOMMAND, DmaBufferSize, 24);
PBC_WDK_OFF(DXGKARG_SUBMITCOMMAND, DmaBufferSubmissionEndOffset, 32);
PBC_WDK_OFF(DXGKARG_SUBMITCOMMAND, pDmaBufferPrivateData, 40);
PBC_WDK_OFF(DXGKARG_SUBMITCOMMAND, SubmissionFenceId, 60);
PBC_WDK_OFF(DXGKARG_SUBMITCOMMAND, Flags, 72);
PBC_WDK_OFF(DXGKARG_SUBMITCOMMAND, DmaBufferVirtualAddress, 80);
PBC_WDK_OFF(DXGKARG_SUBMITCOMMAND, NodeOrdinal, 88);
PBC_WDK_SIZE(DXGKARG_SUBMITCOMMAND, 96);



/* ---- DxgkDdiQueryAdapterInfo ---- */
typedef enum _DXGK_QUERYADAPTERINFOTYPE {
    DXGKQAITYPE_UMDRIVERPRIVATE = 0,
    DXGKQAITYPE_DRIVERCAPS = 1,
    DXGKQAITYPE_QUERYSEGMENT = 2,
    DXGKQAITYPE_ALLOCATIONGROUP = 3,
    DXGKQAITYPE_QUERYSEGMENT2 = 4,
    DXGKQAITYPE_QUERYSEGMENT3 = 5,
    DXGKQAITYPE_NUMPOWERCOMPONENTS = 6,
    DXGKQAITYPE_POWERCOMPONENTINFO = 7,
    DXGKQAITYPE_PREFERREDGPUNODE = 8,
    DXGKQAITYPE_POWERCOMPONENTPSTATEINFO = 9,
    DXGKQAITYPE_HISTORYBUFFERPRECISION = 10,
    DXGKQAITYPE_QUERYSEGMENT4 = 11,
    DXGKQAITYPE_SEGMENTMEMORYSTATE = 12,
    DXGKQAITYPE_GPUMMUCAPS = 13,
    DXGKQAITYPE_PAGETABLELEVELDESC = 14,
    DXGKQAITYPE_PHYSICALADAPTERCAPS = 15,
    DXGKQAITYPE_DISPLAY_DRIVERCAPS_EXTENSION = 16,
    DXGKQAITYPE_INTEGRATED_DISPLAY_DESCRIPTOR = 17,
    DXGKQAITYPE_UEFIFRAMEBUFFERRANGES = 18,
    DXGKQAITYPE_QUERYCOLORIMETRYOVERRIDES = 19
} DXGK_QUERYADAPTERINFOTYPE;

typedef struct _DXGKARG_QUERYADAPTERINFO {
    DXGK_QUERYADAPTERINFOTYPE Type;
    VOID *pInputData;
    UINT InputDataSize;
    VOID *pOutputData;
    UINT OutputDataSize;
    HANDLE hKmdProcessHandle;
} DXGKARG_QUERYADAPTERINFO;
typedef const DXGKARG_QUERYADAPTERINFO *IN_CONST_PDXGKARG_QUERYADAPTERINFO;

/* Segments (DXGKQAITYPE_QUERYSEGMENT): the paging buffer's segment and
 * size come from here. */
typedef struct _DXGK_SEGMENTFLAGS {
    union {
        struct {
            UINT Aperture : 1;
            UINT Agp : 1;
            UINT CpuVisible : 1;
            UINT UseBanking : 1;
            UINT CacheCoherent : 1;
            UINT PitchAlignment : 1;
            UINT PopulatedFromSystemMemory : 1;
            UINT PreservedDuringStandby : 1;
            UINT PreservedDuringHibernate : 1;
            UINT PartiallyPreservedDuringHibernate : 1;
            UINT DirectFlip : 1;
            UINT Use64KBPages : 1;
            UINT ReservedSysMem : 1;
            UINT SupportsCpuHostAperture : 1;
            UINT SupportsCachedCpuHostAperture : 1;
            UINT ApplicationTarget : 1;
            UINT VprSupported : 1;
            UINT VprPreservedDuringStandby : 1;
            UINT EncryptedPagingSupported : 1;
            UINT LocalBudgetGroup : 1;
            UINT NonLocalBudgetGroup : 1;
            UINT PopulatedByReservedDDRByFirmware : 1;
            UINT Reserved : 10;
        };
        UINT Value;
    };
} DXGK_SEGMENTFLAGS;

typedef struct _DXGK_SEGMENTDESCRIPTOR {
    PHYSICAL_ADDRESS BaseAddress;
    PHYSICAL_ADDRESS CpuTranslatedAddress;
    SIZE_T Size;
    UINT NbOfBanks;
    SIZE_T *pBankRangeTable;
    SIZE_T CommitLimit;
    DXGK_SEGMENTFLAGS Flags;
} DXGK_SEGMENTDESCRIPTOR;

typedef struct _DXGK_SEGMENTDESCRIPTOR3 {
    DXGK_SEGMENTFLAGS Flags;
    PHYSICAL_ADDRESS BaseAddress;
    PHYSICAL_ADDRESS CpuTranslatedAddress;
    SIZE_T Size;
    UINT NbOfBanks;
    SIZE_T *pBankRangeTable;
    SIZE_T CommitLimit;
    SIZE_T SystemMemoryEndAddress;
    SIZE_T Reserved;
} DXGK_SEGMENTDESCRIPTOR3;

typedef struct _DXGK_QUERYSEGMENTIN {
    PHYSICAL_ADDRESS AgpApertureBase;
    LARGE_INTEGER AgpApertureSize;
    DXGK_SEGMENTFLAGS AgpFlags;
} DXGK_QUERYSEGMENTIN;

typedef struct _DXGK_QUERYSEGMENTOUT {
    UINT NbSegment;
    DXGK_SEGMENTDESCRIPTOR *pSegmentDescriptor;
    UINT PagingBufferSegmentId;
    UINT PagingBufferSize;
    UINT PagingBufferPrivateDataSize;
} DXGK_QUERYSEGMENTOUT;

typedef struct _DXGK_QUERYSEGMENTOUT3 {
    UINT NbSegment;
    DXGK_SEGMENTDESCRIPTOR3 *pSegmentDescriptor;
    UINT PagingBufferSegmentId;
    UINT PagingBufferSize;
    UINT PagingBufferPrivateDataSize;
} DXGK_QUERYSEGMENTOUT3;

/* Driver capabilities (DXGKQAITYPE_DRIVERCAPS). The flag unions whose bit
 * lists pbcheck does not model name only Value. */
typedef struct _DXGK_POINTERFLAGS {
    union {
        struct {
            UINT Monochrome : 1;
            UINT Color : 1;
            UINT MaskedColor : 1;
            UINT Reserved : 29;
        };
        UINT Value;
    };
} DXGK_POINTERFLAGS;

typedef struct _DXGK_GAMMARAMPCAPS {
    union {
        struct {
            UINT Gamma_Rgb256x3x16 : 1;
            UINT Reserved : 31;
        };
        UINT Value;
    };
} DXGK_GAMMARAMPCAPS;

typedef struct _DXGK_COLORTRANSFORMCAPS {
    UINT Value;
} DXGK_COLORTRANSFORMCAPS;

/* The texture-size shifts count from 2^DXGK_TEXTURE_SIZE_SHIFT. */
#define DXGK_TEXTURE_SIZE_SHIFT 11

typedef struct _DXGK_PRESENTATIONCAPS {
    union {
        struct {
            UINT NoScreenToScreenBlt : 1;
            UINT NoOverlapScreenBlt : 1;
            UINT SupportKernelModeCommandBuffer : 1;
            UINT NoSameBitmapAlphaBlend : 1;
            UINT NoSameBitmapStretchBlt : 1;
            UINT NoSameBitmapTransparentBlt : 1;
            UINT NoSameBitmapOverlappedAlphaBlend : 1;
            UINT NoSameBitmapOverlappedStretchBlt : 1;
            UINT DriverSupportsCddDwmInterop : 1;
            UINT Reserved0 : 1;
            UINT AlignmentShift : 4;
            UINT MaxTextureWidthShift : 3;
            UINT MaxTextureHeightShift : 3;
            UINT SupportAllBltRops : 1;
            UINT SupportMirrorStretchBlt : 1;
            UINT SupportMonoStretchBltModes : 1;
            UINT StagingRectStartPitchAligned : 1;
            UINT NoSameBitmapBitBlt : 1;
            UINT NoSameBitmapOverlappedBitBlt : 1;
            UINT Reserved1 : 1;
            UINT NoTempSurfaceForClearTypeBlend : 1;
            UINT SupportSoftwareDeviceBitmaps : 1; /* WDDM 1.3 */
            UINT NoCacheCoherentApertureMemory : 1;
            UINT SupportLinearHeap : 1;
            UINT Reserved : 1;
        };
        UINT Value;
    };
} DXGK_PRESENTATIONCAPS;

typedef struct _DXGK_FLIPCAPS {
    union {
        struct {
            UINT FlipOnVSyncWithNoWait : 1;
            UINT FlipOnVSyncMmIo : 1;
            UINT FlipInterval : 1;
            UINT FlipImmediateMmIo : 1;
            UINT FlipIndependent : 1;
            UINT Reserved : 27;
        };
        UINT Value;
    };
} DXGK_FLIPCAPS;

typedef struct _DXGK_VIDSCHCAPS {
    union {
        struct {
            UINT MultiEngineAware : 1;
            UINT VSyncPowerSaveAware : 1;
            UINT PreemptionAware : 1;
            UINT NoDmaPatching : 1;
            UINT CancelCommandAware : 1;
            UINT No64BitAtomics : 1;
            UINT Reserved : 26;
        };
        UINT Value;
    };
} DXGK_VIDSCHCAPS;

typedef struct _DXGK_VIDMMCAPS {
    union {
        struct {
            UINT OutOfOrderLock : 1;
            UINT DedicatedPagingEngine : 1;
            UINT PagingEngineCanSwizzle : 1;
            UINT SectionBackedPrimary : 1;
            UINT CrossAdapterResource : 1;
            UINT VirtualAddressingSupported : 1;
            UINT GpuMmuSupported : 1;
            UINT IoMmuSupported : 1;
            UINT ReplicateGdiContent : 1;
            UINT NonCpuVisiblePrimary : 1;
            UINT ParavirtualizationSupported : 1;
            UINT IoMmuSecureModeSupported : 1;
            UINT DisableSelfRefreshVRAMInS3 : 1;
            UINT IoMmuSecureModeRequired : 1;
            UINT MapAperture2Supported : 1;
            UINT CrossAdapterResourceTexture : 1;
            UINT CrossAdapterResourceScanout : 1;
            UINT AlwaysPoweredVRAM : 1;
            UINT Reserved : 14;
        };
        UINT Value;
    };
    UINT PagingNode;
} DXGK_VIDMMCAPS;

typedef struct _DXGK_GPUENGINETOPOLOGY {
    UINT NbAsymetricProcessingNodes;
} DXGK_GPUENGINETOPOLOGY;

typedef enum _DXGK_WDDMVERSION {
    DXGKDDI_WDDMv1 = 0x1000,
    DXGKDDI_WDDMv1_2 = 0x1200,
    DXGKDDI_WDDMv1_3 = 0x1300,
    DXGKDDI_WDDMv2 = 0x2000,
    DXGKDDI_WDDMv2_1 = 0x2100,
    DXGKDDI_WDDMv2_1_5 = 0x2105,
    DXGKDDI_WDDMv2_1_6 = 0x2106,
    DXGKDDI_WDDMv2_2 = 0x2200,
    DXGKDDI_WDDMv2_3 = 0x2300,
    DXGKDDI_WDDMv2_4 = 0x2400,
    DXGKDDI_WDDMv2_5 = 0x2500,
    DXGKDDI_WDDMv2_6 = 0x2600,
    DXGKDDI_WDDMv2_7 = 0x2700
} DXGK_WDDMVERSION;

typedef struct _DXGK_VIRTUALADDRESSCAPS_DEPRECATED {
    UINT Value;
} DXGK_VIRTUALADDRESSCAPS_DEPRECATED;

typedef struct _DXGK_DMABUFFERCAPS_DEPRECATED {
    UINT Value;
} DXGK_DMABUFFERCAPS_DEPRECATED;

typedef enum _D3DKMDT_GRAPHICS_PREEMPTION_GRANULARITY {
    D3DKMDT_GRAPHICS_PREEMPTION_NONE = 0,
    D3DKMDT_GRAPHICS_PREEMPTION_DMA_BUFFER_BOUNDARY = 100,
    D3DKMDT_GRAPHICS_PREEMPTION_PRIMITIVE_BOUNDARY = 200,
    D3DKMDT_GRAPHICS_PREEMPTION_TRIANGLE_BOUNDARY = 300,
    D3DKMDT_GRAPHICS_PREEMPTION_PIXEL_BOUNDARY = 400,
    D3DKMDT_GRAPHICS_PREEMPTION_SHADER_BOUNDARY = 500
} D3DKMDT_GRAPHICS_PREEMPTION_GRANULARITY;

typedef enum _D3DKMDT_COMPUTE_PREEMPTION_GRANULARITY {
    D3DKMDT_COMPUTE_PREEMPTION_NONE = 0,
    D3DKMDT_COMPUTE_PREEMPTION_DMA_BUFFER_BOUNDARY = 100,
    D3DKMDT_COMPUTE_PREEMPTION_DISPATCH_BOUNDARY = 200,
    D3DKMDT_COMPUTE_PREEMPTION_THREAD_GROUP_BOUNDARY = 300,
    D3DKMDT_COMPUTE_PREEMPTION_THREAD_BOUNDARY = 400,
    D3DKMDT_COMPUTE_PREEMPTION_SHADER_BOUNDARY = 500
} D3DKMDT_COMPUTE_PREEMPTION_GRANULARITY;

typedef struct _D3DKMDT_PREEMPTION_CAPS {
    D3DKMDT_GRAPHICS_PREEMPTION_GRANULARITY GraphicsPreemptionGranularity;
    D3DKMDT_COMPUTE_PREEMPTION_GRANULARITY ComputePreemptionGranularity;
} D3DKMDT_PREEMPTION_CAPS;

typedef struct _DXGK_DRIVERCAPS {
    PHYSICAL_ADDRESS HighestAcceptableAddress;
    UINT MaxAllocationListSlotId;
    SIZE_T ApertureSegmentCommitLimit;
    UINT MaxPointerWidth;
    UINT MaxPointerHeight;
    DXGK_POINTERFLAGS PointerCaps;
    UINT InterruptMessageNumber;
    UINT NumberOfSwizzlingRanges;
    UINT MaxOverlays;
    union {
        DXGK_GAMMARAMPCAPS GammaRampCaps;
        DXGK_COLORTRANSFORMCAPS ColorTransformCaps;
    };
    DXGK_PRESENTATIONCAPS PresentationCaps;
    UINT MaxQueuedFlipOnVSync;
    DXGK_FLIPCAPS FlipCaps;
    DXGK_VIDSCHCAPS SchedulingCaps;
    DXGK_VIDMMCAPS MemoryManagementCaps;
    DXGK_GPUENGINETOPOLOGY GpuEngineTopology;
    DXGK_WDDMVERSION WDDMVersion;
    /* Deprecated members; older drivers use the older names. */
    union {
        DXGK_VIRTUALADDRESSCAPS_DEPRECATED Reserved;
        DXGK_VIRTUALADDRESSCAPS_DEPRECATED VirtualAddressCaps;
    };
    union {
        DXGK_DMABUFFERCAPS_DEPRECATED Reserved1;
        DXGK_DMABUFFERCAPS_DEPRECATED DmaBufferCaps;
    };
    D3DKMDT_PREEMPTION_CAPS PreemptionCaps;
    BOOLEAN SupportNonVGA;
    BOOLEAN SupportSmoothRotation;
    BOOLEAN SupportPerEngineTDR;
    BOOLEAN SupportDirectFlip;
    BOOLEAN SupportMultiPlaneOverlay;
    BOOLEAN SupportRuntimePowerManagement;
    BOOLEAN SupportSurpriseRemovalInHibernation;
    BOOLEAN HybridDiscrete;
    UINT MaxOverlayPlanes;
} DXGK_DRIVERCAPS;

/* ---- DxgkDdiRender and DxgkDdiPresent ---- */
typedef struct _DXGKARG_RENDER {
    const VOID *pCommand;
    UINT CommandLength;
    VOID *pDmaBuffer;
    UINT DmaSize;
    VOID *pDmaBufferPrivateData;
    UINT DmaBufferPrivateDataSize;
    DXGK_ALLOCATIONLIST *pAllocationList;
    UINT AllocationListSize;
    D3DDDI_PATCHLOCATIONLIST *pPatchLocationListIn;
    UINT PatchLocationListInSize;
    D3DDDI_PATCHLOCATIONLIST *pPatchLocationListOut;
    UINT PatchLocationListOutSize;
    UINT MultipassOffset;
    UINT DmaBufferSegmentId;
    PHYSICAL_ADDRESS DmaBufferPhysicalAddress;
} DXGKARG_RENDER;
typedef DXGKARG_RENDER *INOUT_PDXGKARG_RENDER;

typedef struct _DXGK_PRESENTFLAGS {
    union {
        struct {
            UINT Blt : 1;
            UINT ColorFill : 1;
            UINT Flip : 1;
            UINT FlipWithNoWait : 1;
            UINT SrcColorKey : 1;
            UINT DstColorKey : 1;
            UINT LinearToSrgb : 1;
            UINT Rotate : 1;
            UINT Reserved : 24;
        };
        UINT Value;
    };
} DXGK_PRESENTFLAGS;

typedef struct _DXGKARG_PRESENT {
    VOID *pDmaBuffer;
    UINT DmaSize;
    VOID *pDmaBufferPrivateData;
    UINT DmaBufferPrivateDataSize;
    union { /* the system's pAllocationInfo and the overlay info share it */
        DXGK_ALLOCATIONLIST *pAllocationList;
        VOID *pAllocationInfo;
        VOID *pPresentMultiPlaneOverlayInfo;
    };
    D3DDDI_PATCHLOCATIONLIST *pPatchLocationListOut;
    UINT PatchLocationListOutSize;
    UINT MultipassOffset;
    UINT Color;
    RECT DstRect;
    RECT SrcRect;
    UINT SubRectCnt;
    const RECT *pDstSubRects;
    D3DDDI_FLIPINTERVAL_TYPE FlipInterval;
    DXGK_PRESENTFLAGS Flags;
    UINT DmaBufferSegmentId;
    PHYSICAL_ADDRESS DmaBufferPhysicalAddress;
    UINT Reserved;
    D3DGPU_VIRTUAL_ADDRESS DmaBufferGpuVirtualAddress;
    UINT NumSrcAllocations;
    UINT NumDstAllocations;
    UINT PrivateDriverDataSize;
    PVOID pPrivateDriverData;
} DXGKARG_PRESENT;
typedef DXGKARG_PRESENT *INOUT_PDXGKARG_PRESENT;
/* The allocation-list entries DxgkDdiPresent's source and destination are
 * at (pAllocationList[DXGK_PRESENT_SOURCE_INDEX]). */
#define DXGK_PRESENT_SOURCE_INDEX 1
#define DXGK_PRESENT_DESTINATION_INDEX 2
#define DXGK_PRESENT_MAX_INDEX DXGK_PRESENT_DESTINATION_INDEX

/* ---- The other DDIs a display miniport implements ----
 * Argument structures with every field in Windows' order (x86-64 layouts,
 * checked at the end of this file), so a driver's whole DDI source
 * compiles. pbcheck calls none of these DDIs; a target stubs what lies
 * outside the paging path (docs/writing-a-target.md). */

/* Interrupts (DxgkCbNotifyInterrupt). */
typedef enum _DXGK_INTERRUPT_TYPE {
    DXGK_INTERRUPT_DMA_COMPLETED = 1,
    DXGK_INTERRUPT_DMA_PREEMPTED = 2,
    DXGK_INTERRUPT_CRTC_VSYNC = 3,
    DXGK_INTERRUPT_DMA_FAULTED = 4,
    DXGK_INTERRUPT_DISPLAYONLY_VSYNC = 5,
    DXGK_INTERRUPT_DISPLAYONLY_PRESENT_PROGRESS = 6,
    DXGK_INTERRUPT_CRTC_VSYNC_WITH_MULTIPLANE_OVERLAY = 7,
    DXGK_INTERRUPT_MICACAST_CHUNK_PROCESSING_COMPLETE = 8,
    DXGK_INTERRUPT_DMA_PAGE_FAULTED = 9,
    DXGK_INTERRUPT_CRTC_VSYNC_WITH_MULTIPLANE_OVERLAY2 = 10,
    DXGK_INTERRUPT_MONITORED_FENCE_SIGNALED = 11,
    DXGK_INTERRUPT_HWQUEUE_PAGE_FAULTED = 12,
    DXGK_INTERRUPT_HWCONTEXTLIST_SWITCH_COMPLETED = 13,
    DXGK_INTERRUPT_PERIODIC_MONITORED_FENCE_SIGNALED = 14,
    DXGK_INTERRUPT_SCHEDULING_LOG_INTERRUPT = 15,
    DXGK_INTERRUPT_GPU_ENGINE_TIMEOUT = 16,
    DXGK_INTERRUPT_SUSPEND_CONTEXT_COMPLETED = 17,
    DXGK_INTERRUPT_CRTC_VSYNC_WITH_MULTIPLANE_OVERLAY3 = 18,
    DXGK_INTERRUPT_NATIVE_FENCE_SIGNALED = 19,
    DXGK_INTERRUPT_GPU_ENGINE_STATE_CHANGE = 20
} DXGK_INTERRUPT_TYPE;

typedef enum _DXGK_RENDER_PIPELINE_STAGE {
    DXGK_RENDER_PIPELINE_STAGE_UNKNOWN = 0,
    DXGK_RENDER_PIPELINE_STAGE_INPUT_ASSEMBLER = 1,
    DXGK_RENDER_PIPELINE_STAGE_VERTEX_SHADER = 2,
    DXGK_RENDER_PIPELINE_STAGE_GEOMETRY_SHADER = 3,
    DXGK_RENDER_PIPELINE_STAGE_STREAM_OUTPUT = 4,
    DXGK_RENDER_PIPELINE_STAGE_RASTERIZER = 5,
    DXGK_RENDER_PIPELINE_STAGE_PIXEL_SHADER = 6,
    DXGK_RENDER_PIPELINE_STAGE_OUTPUT_MERGER = 7
} DXGK_RENDER_PIPELINE_STAGE;

typedef enum _DXGK_PAGE_FAULT_FLAGS {
    DXGK_PAGE_FAULT_WRITE = 0x1,
    DXGK_PAGE_FAULT_FENCE_INVALID = 0x2,
    DXGK_PAGE_FAULT_ADAPTER_RESET_REQUIRED = 0x4,
    DXGK_PAGE_FAULT_ENGINE_RESET_REQUIRED = 0x8,
    DXGK_PAGE_FAULT_FATAL_HARDWARE_ERROR = 0x10,
    DXGK_PAGE_FAULT_IOMMU = 0x20,
    DXGK_PAGE_FAULT_HW_CONTEXT_VALID = 0x40,
    DXGK_PAGE_FAULT_PROCESS_HANDLE_VALID = 0x80
} DXGK_PAGE_FAULT_FLAGS;

typedef enum _DXGK_GENERAL_ERROR_CODE {
    DXGK_GENERAL_ERROR_PAGE_FAULT = 0,
    DXGK_GENERAL_ERROR_INVALID_INSTRUCTION = 1
} DXGK_GENERAL_ERROR_CODE;

typedef struct _DXGK_FAULT_ERROR_CODE {
    union {
        struct {
            UINT IsDeviceSpecificCode : 1;
            UINT GeneralErrorCode : 31; /* a DXGK_GENERAL_ERROR_CODE */
        };
        struct {
            UINT IsDeviceSpecificCodeReserved : 1;
            UINT DeviceSpecificCode : 31;
        };
    };
} DXGK_FAULT_ERROR_CODE;

typedef struct _DXGK_MULTIPLANE_OVERLAY_VSYNC_INFO DXGK_MULTIPLANE_OVERLAY_VSYNC_INFO;
typedef struct _DXGK_MULTIPLANE_OVERLAY_VSYNC_INFO2 DXGK_MULTIPLANE_OVERLAY_VSYNC_INFO2;

typedef enum _D3DKMDT_PRESENT_DISPLAY_ONLY_PROGRESS_ID {
    D3DKMDT_PDOPROGRESS_FAILED = 0,
    D3DKMDT_PDOPROGRESS_FULLY_COMPLETED = 1
} D3DKMDT_PRESENT_DISPLAY_ONLY_PROGRESS_ID;

typedef struct _DXGKARGCB_PRESENT_DISPLAYONLY_PROGRESS {
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId;
    D3DKMDT_PRESENT_DISPLAY_ONLY_PROGRESS_ID ProgressId;
} DXGKARGCB_PRESENT_DISPLAYONLY_PROGRESS;

typedef enum _DXGK_MIRACAST_CHUNK_TYPE {
    DXGK_MIRACAST_CHUNK_TYPE_UNKNOWN = 0,
    DXGK_MIRACAST_CHUNK_TYPE_COLOR_CONVERT_COMPLETE = 1,
    DXGK_MIRACAST_CHUNK_TYPE_ENCODE_COMPLETE = 2,
    DXGK_MIRACAST_CHUNK_TYPE_FRAME_START = 3,
    DXGK_MIRACAST_CHUNK_TYPE_FRAME_DROPPED = 4,
    DXGK_MIRACAST_CHUNK_TYPE_ENCODE_DRIVER_DEFINED_1 = 0x80000000,
    DXGK_MIRACAST_CHUNK_TYPE_ENCODE_DRIVER_DEFINED_2 = 0x80000001
} DXGK_MIRACAST_CHUNK_TYPE;

typedef struct _DXGK_MIRACAST_CHUNK_ID {
    union {
        struct {
            UINT64 FrameNumber : 32;
            UINT64 PartNumber : 32;
        };
        UINT64 Value;
    };
} DXGK_MIRACAST_CHUNK_ID;

typedef struct _DXGK_MIRACAST_CHUNK_INFO {
    DXGK_MIRACAST_CHUNK_TYPE ChunkType;
    DXGK_MIRACAST_CHUNK_ID ChunkId;
    UINT ProcessingTime;
    UINT EncodeRate;
} DXGK_MIRACAST_CHUNK_INFO;

typedef struct _DXGKCB_NOTIFY_INTERRUPT_DATA_FLAGS {
    union {
        struct {
            UINT ValidPhysicalAdapterMask : 1;
            UINT HsyncFlipCompletion : 1;
            UINT Reserved : 30;
        };
        UINT Value;
    };
} DXGKCB_NOTIFY_INTERRUPT_DATA_FLAGS;

typedef struct _DXGKARGCB_NOTIFY_INTERRUPT_DATA {
    DXGK_INTERRUPT_TYPE InterruptType;
    union {
        struct {
            UINT SubmissionFenceId;
            UINT NodeOrdinal;
            UINT EngineOrdinal;
        } DmaCompleted;
        struct {
            UINT PreemptionFenceId;
            UINT LastCompletedFenceId;
            UINT NodeOrdinal;
            UINT EngineOrdinal;
        } DmaPreempted;
        struct {
            UINT FaultedFenceId;
            NTSTATUS Status;
            UINT NodeOrdinal;
            UINT EngineOrdinal;
        } DmaFaulted;
        struct {
            D3DDDI_VIDEO_PRESENT_TARGET_ID VidPnTargetId;
            PHYSICAL_ADDRESS PhysicalAddress;
            UINT PhysicalAdapterMask;
        } CrtcVsync;
        struct {
            D3DDDI_VIDEO_PRESENT_TARGET_ID VidPnTargetId;
        } DisplayOnlyVsync;
        struct {
            D3DDDI_VIDEO_PRESENT_TARGET_ID VidPnTargetId;
            UINT PhysicalAdapterMask;
            UINT MultiPlaneOverlayVsyncInfoCount;
            DXGK_MULTIPLANE_OVERLAY_VSYNC_INFO *pMultiPlaneOverlayVsyncInfo;
        } CrtcVsyncWithMultiPlaneOverlay;
        DXGKARGCB_PRESENT_DISPLAYONLY_PROGRESS DisplayOnlyPresentProgress;
        struct {
            D3DDDI_VIDEO_PRESENT_TARGET_ID VidPnTargetId;
            DXGK_MIRACAST_CHUNK_INFO ChunkInfo;
            PVOID pPrivateDriverData;
            UINT PrivateDataDriverSize;
            NTSTATUS Status;
        } MiracastEncodeChunkCompleted;
        struct {
            UINT FaultedFenceId;
            UINT64 FaultedPrimitiveAPISequenceNumber;
            DXGK_RENDER_PIPELINE_STAGE FaultedPipelineStage;
            UINT FaultedBindTableEntry;
            DXGK_PAGE_FAULT_FLAGS PageFaultFlags;
            D3DGPU_VIRTUAL_ADDRESS FaultedVirtualAddress;
            UINT NodeOrdinal;
            UINT EngineOrdinal;
            UINT PageTableLevel;
            DXGK_FAULT_ERROR_CODE FaultErrorCode;
            HANDLE FaultedProcessHandle;
        } DmaPageFaulted;
        struct {
            D3DDDI_VIDEO_PRESENT_TARGET_ID VidPnTargetId;
            UINT PhysicalAdapterMask;
            UINT MultiPlaneOverlayVsyncInfoCount;
            DXGK_MULTIPLANE_OVERLAY_VSYNC_INFO2 *pMultiPlaneOverlayVsyncInfo;
            ULONGLONG GpuFrequency;
            ULONGLONG GpuClockCounter;
        } CrtcVsyncWithMultiPlaneOverlay2;
        struct {
            UINT NodeOrdinal;
            UINT EngineOrdinal;
        } MonitoredFenceSignaled;
        struct {
            UINT NodeOrdinal;
            UINT EngineOrdinal;
            UINT64 ContextSwitchFence;
        } HwContextListSwitchCompleted;
        struct {
            UINT64 FaultedFenceId;
            D3DGPU_VIRTUAL_ADDRESS FaultedVirtualAddress;
            UINT64 FaultedPrimitiveAPISequenceNumber;
            union {
                HANDLE FaultedHwQueue;
                HANDLE FaultedHwContext;
                HANDLE FaultedProcessHandle;
            };
            UINT NodeOrdinal;
            UINT EngineOrdinal;
            DXGK_RENDER_PIPELINE_STAGE FaultedPipelineStage;
            UINT FaultedBindTableEntry;
            DXGK_PAGE_FAULT_FLAGS PageFaultFlags;
            UINT PageTableLevel;
            DXGK_FAULT_ERROR_CODE FaultErrorCode;
        } HwQueuePageFaulted;
        struct {
            D3DDDI_VIDEO_PRESENT_TARGET_ID VidPnTargetId;
            UINT NotificationID;
        } PeriodicMonitoredFenceSignaled;
        struct {
            UINT NodeOrdinal;
            UINT EngineOrdinal;
        } SchedulingLogInterrupt;
        struct {
            UINT NodeOrdinal;
            UINT EngineOrdinal;
        } GpuEngineTimeout;
        struct {
            HANDLE hContext;
            UINT64 ContextSuspendFence;
        } SuspendContextCompleted;
        struct {
            UINT Reserved[16];
        } Reserved;
    };
    DXGKCB_NOTIFY_INTERRUPT_DATA_FLAGS Flags;
} DXGKARGCB_NOTIFY_INTERRUPT_DATA;
typedef const DXGKARGCB_NOTIFY_INTERRUPT_DATA *IN_CONST_PDXGKARGCB_NOTIFY_INTERRUPT_DATA;

/* Allocations (DxgkDdiCreateAllocation, OpenAllocation, DescribeAllocation,
 * DestroyAllocation, CloseAllocation, GetStandardAllocationDriverData). */
typedef struct _DXGK_SEGMENTBANKPREFERENCE {
    union {
        struct {
            UINT Bank0 : 7;
            UINT Direction0 : 1;
            UINT Bank1 : 7;
            UINT Direction1 : 1;
            UINT Bank2 : 7;
            UINT Direction2 : 1;
            UINT Bank3 : 7;
            UINT Direction3 : 1;
        };
        UINT Value;
    };
} DXGK_SEGMENTBANKPREFERENCE;

typedef struct _DXGK_SEGMENTPREFERENCE {
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
} DXGK_SEGMENTPREFERENCE;

typedef struct _DXGK_ALLOCATIONINFOFLAGS {
    union {
        struct {
            UINT CpuVisible : 1;
            UINT PermanentSysMem : 1;
            UINT Cached : 1;
            UINT Protected : 1;
            UINT ExistingSysMem : 1;
            UINT ExistingKernelSysMem : 1;
            UINT FromEndOfSegment : 1;
            UINT Swizzled : 1;
            UINT Overlay : 1;
            UINT Capture : 1;
            UINT UseAlternateVA : 1;
            UINT SynchronousPaging : 1;
            UINT LinkMirrored : 1;
            UINT LinkInstanced : 1;
            UINT HistoryBuffer : 1;
            UINT AccessedPhysically : 1;
            UINT ExplicitResidencyNotification : 1;
            UINT HardwareProtected : 1;
            UINT CpuVisibleOnDemand : 1; /* WDDM 2.0; four Reserved bits before it */
            UINT DXGK_ALLOC_RESERVED16 : 1;
            UINT DXGK_ALLOC_RESERVED15 : 1;
            UINT DXGK_ALLOC_RESERVED14 : 1;
            UINT DXGK_ALLOC_RESERVED13 : 1;
            UINT DXGK_ALLOC_RESERVED12 : 1;
            UINT DXGK_ALLOC_RESERVED11 : 1;
            UINT DXGK_ALLOC_RESERVED10 : 1;
            UINT DXGK_ALLOC_RESERVED9 : 1;
            UINT DXGK_ALLOC_RESERVED4 : 1;
            UINT DXGK_ALLOC_RESERVED3 : 1;
            UINT DXGK_ALLOC_RESERVED2 : 1;
            UINT DXGK_ALLOC_RESERVED1 : 1;
            UINT DXGK_ALLOC_RESERVED0 : 1;
        };
        UINT Value;
    };
} DXGK_ALLOCATIONINFOFLAGS;

typedef struct _DXGK_ALLOCATIONINFOFLAGS_WDDM2_0 {
    union {
        struct {
            UINT CpuVisible : 1;
            UINT PermanentSysMem : 1;
            UINT Cached : 1;
            UINT Protected : 1;
            UINT ExistingSysMem : 1;
            UINT ExistingKernelSysMem : 1;
            UINT FromEndOfSegment : 1;
            UINT DisableLargePageMapping : 1;
            UINT Overlay : 1;
            UINT Capture : 1;
            UINT CreateInVpr : 1;
            UINT Reserved00 : 1;
            UINT DXGK_ALLOC_RESERVED17 : 1;
            UINT Reserved02 : 1;
            UINT MapApertureCpuVisible : 1;
            UINT Reserved03 : 1;
            UINT HistoryBuffer : 1;
            UINT AccessedPhysically : 1;
            UINT ExplicitResidencyNotification : 1;
            UINT HardwareProtected : 1;
            UINT CpuVisibleOnDemand : 1;
            UINT DXGK_ALLOC_RESERVED16 : 1;
            UINT DXGK_ALLOC_RESERVED15 : 1;
            UINT DXGK_ALLOC_RESERVED14 : 1;
            UINT DXGK_ALLOC_RESERVED13 : 1;
            UINT DXGK_ALLOC_RESERVED12 : 1;
            UINT DXGK_ALLOC_RESERVED11 : 1;
            UINT DXGK_ALLOC_RESERVED10 : 1;
            UINT DXGK_ALLOC_RESERVED9 : 1;
            UINT DXGK_ALLOC_RESERVED4 : 1;
            UINT DXGK_ALLOC_RESERVED3 : 1;
            UINT DXGK_ALLOC_RESERVED2 : 1;
            UINT DXGK_ALLOC_RESERVED1 : 1;
            UINT DXGK_ALLOC_RESERVED0 : 1;
        };
        UINT Value;
    };
} DXGK_ALLOCATIONINFOFLAGS_WDDM2_0;

/* Reserved for the system; drivers leave it zero. */
typedef struct _DXGK_ALLOCATIONINFOFLAGS2 {
    UINT Value;
} DXGK_ALLOCATIONINFOFLAGS2;

typedef struct _DXGK_ALLOCATIONUSAGEINFO1 {
    union {
        struct {
            UINT PrivateFormat : 1;
            UINT Swizzled : 1;
            UINT MipMap : 1;
            UINT Cube : 1;
            UINT Volume : 1;
            UINT Vertex : 1;
            UINT Index : 1;
            UINT Reserved : 25;
        };
        UINT Value;
    } Flags;
    union {
        D3DDDIFORMAT Format;
        UINT PrivateFormat;
    };
    UINT SwizzledFormat;
    UINT ByteOffset;
    UINT Width;
    UINT Height;
    UINT Pitch;
    UINT Depth;
    UINT SlicePitch;
} DXGK_ALLOCATIONUSAGEINFO1;

typedef struct _DXGK_ALLOCATIONUSAGEHINT {
    UINT Version;
    DXGK_ALLOCATIONUSAGEINFO1 v1;
} DXGK_ALLOCATIONUSAGEHINT;

typedef struct _DXGK_ALLOCATIONINFO {
    VOID *pPrivateDriverData;
    UINT PrivateDriverDataSize;
    union {
        UINT Alignment;
        struct {
            UINT16 MinimumPageSize;
            UINT16 RecommendedPageSize;
        };
    };
    SIZE_T Size;
    SIZE_T PitchAlignedSize;
    DXGK_SEGMENTBANKPREFERENCE HintedBank;
    DXGK_SEGMENTPREFERENCE PreferredSegment;
    union {
        UINT SupportedReadSegmentSet;
        UINT MmuSet;
    };
    UINT SupportedWriteSegmentSet;
    UINT EvictionSegmentSet;
    union {
        UINT MaximumRenamingListLength;
        UINT PhysicalAdapterIndex;
    };
    HANDLE hAllocation;
    union {
        DXGK_ALLOCATIONINFOFLAGS Flags;
        DXGK_ALLOCATIONINFOFLAGS_WDDM2_0 FlagsWddm2;
    };
    DXGK_ALLOCATIONUSAGEHINT *pAllocationUsageHint;
    UINT AllocationPriority;
    DXGK_ALLOCATIONINFOFLAGS2 Flags2;
} DXGK_ALLOCATIONINFO;

typedef struct _DXGK_CREATEALLOCATIONFLAGS {
    union {
        struct {
            UINT Resource : 1;
            UINT Reserved : 31;
        };
        UINT Value;
    };
} DXGK_CREATEALLOCATIONFLAGS;

typedef struct _DXGKARG_CREATEALLOCATION {
    const VOID *pPrivateDriverData;
    UINT PrivateDriverDataSize;
    UINT NumAllocations;
    DXGK_ALLOCATIONINFO *pAllocationInfo;
    HANDLE hResource;
    DXGK_CREATEALLOCATIONFLAGS Flags;
} DXGKARG_CREATEALLOCATION;

typedef struct _DXGK_DESTROYALLOCATIONFLAGS {
    union {
        struct {
            UINT DestroyResource : 1;
            UINT Reserved : 31;
        };
        UINT Value;
    };
} DXGK_DESTROYALLOCATIONFLAGS;

typedef struct _DXGKARG_DESTROYALLOCATION {
    UINT NumAllocations;
    const HANDLE *pAllocationList;
    HANDLE hResource;
    DXGK_DESTROYALLOCATIONFLAGS Flags;
} DXGKARG_DESTROYALLOCATION;

/* Reserved (Windows 8 and later). */
typedef struct _DXGK_DESCRIBEALLOCATIONFLAGS {
    UINT Value;
} DXGK_DESCRIBEALLOCATIONFLAGS;

typedef struct _DXGKARG_DESCRIBEALLOCATION {
    HANDLE hAllocation;
    UINT Width;
    UINT Height;
    D3DDDIFORMAT Format;
    D3DDDI_MULTISAMPLINGMETHOD MultisampleMethod;
    D3DDDI_RATIONAL RefreshRate;
    UINT PrivateDriverFormatAttribute;
    DXGK_DESCRIBEALLOCATIONFLAGS Flags;
    D3DDDI_ROTATION Rotation;
} DXGKARG_DESCRIBEALLOCATION;

typedef struct _DXGK_OPENALLOCATIONFLAGS {
    union {
        struct {
            UINT Create : 1;
            UINT ReadOnly : 1;
            UINT Reserved : 30;
        };
        UINT Value;
    };
} DXGK_OPENALLOCATIONFLAGS;

typedef struct _DXGK_OPENALLOCATIONINFO {
    D3DKMT_HANDLE hAllocation;
    VOID *pPrivateDriverData;
    UINT PrivateDriverDataSize;
    HANDLE hDeviceSpecificAllocation;
} DXGK_OPENALLOCATIONINFO;

typedef struct _DXGKARG_OPENALLOCATION {
    UINT NumAllocations;
    DXGK_OPENALLOCATIONINFO *pOpenAllocation;
    VOID *pPrivateDriverData;
    UINT PrivateDriverSize;
    DXGK_OPENALLOCATIONFLAGS Flags;
    UINT SubresourceIndex;
    SIZE_T SubresourceOffset;
    UINT Pitch;
} DXGKARG_OPENALLOCATION;

typedef struct _DXGKARG_CLOSEALLOCATION {
    UINT NumAllocations;
    const HANDLE *pOpenHandleList;
} DXGKARG_CLOSEALLOCATION;

typedef enum _D3DKMDT_STANDARDALLOCATION_TYPE {
    D3DKMDT_STANDARDALLOCATION_SHAREDPRIMARYSURFACE = 1,
    D3DKMDT_STANDARDALLOCATION_SHADOWSURFACE = 2,
    D3DKMDT_STANDARDALLOCATION_STAGINGSURFACE = 3,
    D3DKMDT_STANDARDALLOCATION_GDISURFACE = 4
} D3DKMDT_STANDARDALLOCATION_TYPE;

typedef struct _D3DKMDT_SHAREDPRIMARYSURFACEDATA {
    UINT Width;
    UINT Height;
    D3DDDIFORMAT Format;
    D3DDDI_RATIONAL RefreshRate;
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId;
} D3DKMDT_SHAREDPRIMARYSURFACEDATA;

typedef struct _D3DKMDT_SHADOWSURFACEDATA {
    UINT Width;
    UINT Height;
    D3DDDIFORMAT Format;
    UINT Pitch;
} D3DKMDT_SHADOWSURFACEDATA;

typedef struct _D3DKMDT_STAGINGSURFACEDATA {
    UINT Width;
    UINT Height;
    UINT Pitch;
} D3DKMDT_STAGINGSURFACEDATA;

typedef enum _D3DKMDT_GDISURFACETYPE {
    D3DKMDT_GDISURFACE_INVALID = 0,
    D3DKMDT_GDISURFACE_TEXTURE = 1,
    D3DKMDT_GDISURFACE_STAGING_CPUVISIBLE = 2,
    D3DKMDT_GDISURFACE_STAGING = 3,
    D3DKMDT_GDISURFACE_LOOKUPTABLE = 4,
    D3DKMDT_GDISURFACE_EXISTINGSYSMEM = 5,
    D3DKMDT_GDISURFACE_TEXTURE_CPUVISIBLE = 6,
    D3DKMDT_GDISURFACE_TEXTURE_CROSSADAPTER = 7,
    D3DKMDT_GDISURFACE_TEXTURE_CPUVISIBLE_CROSSADAPTER = 8
} D3DKMDT_GDISURFACETYPE;

/* Reserved for the system; drivers read or clear Value. */
typedef struct _D3DKMDT_GDISURFACEFLAGS {
    union {
        struct {
            UINT Stereo : 1;
            UINT Reserved : 31;
        };
        UINT Value;
    };
} D3DKMDT_GDISURFACEFLAGS;

typedef struct _D3DKMDT_GDISURFACEDATA {
    UINT Width;
    UINT Height;
    D3DDDIFORMAT Format;
    D3DKMDT_GDISURFACETYPE Type;
    D3DKMDT_GDISURFACEFLAGS Flags;
    UINT Pitch;
} D3DKMDT_GDISURFACEDATA;

typedef struct _DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA {
    D3DKMDT_STANDARDALLOCATION_TYPE StandardAllocationType;
    union {
        D3DKMDT_SHAREDPRIMARYSURFACEDATA *pCreateSharedPrimarySurfaceData;
        D3DKMDT_SHADOWSURFACEDATA *pCreateShadowSurfaceData;
        D3DKMDT_STAGINGSURFACEDATA *pCreateStagingSurfaceData;
        D3DKMDT_GDISURFACEDATA *pCreateGdiSurfaceData;
    };
    VOID *pAllocationPrivateDriverData;
    UINT AllocationPrivateDriverDataSize;
    VOID *pResourcePrivateDriverData;
    UINT ResourcePrivateDriverDataSize;
} DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA;

/* Devices and contexts. */
typedef struct _DXGK_CREATEDEVICEFLAGS {
    union {
        struct {
            UINT SystemDevice : 1;
            UINT GdiDevice : 1;
            UINT Reserved : 29;
            UINT DXGK_DEVICE_RESERVED0 : 1;
        };
        UINT Value;
    };
} DXGK_CREATEDEVICEFLAGS;

typedef struct _DXGK_DEVICEINFOFLAGS {
    union {
        struct {
            UINT GuaranteedDmaBufferContract : 1;
            UINT Reserved : 31;
        };
        UINT Value;
    };
} DXGK_DEVICEINFOFLAGS;

typedef struct _DXGK_DEVICEINFO {
    UINT DmaBufferSize;
    UINT DmaBufferSegmentSet;
    UINT DmaBufferPrivateDataSize;
    UINT AllocationListSize;
    UINT PatchLocationListSize;
    DXGK_DEVICEINFOFLAGS Flags;
} DXGK_DEVICEINFO;

typedef struct _DXGKARG_CREATEDEVICE {
    HANDLE hDevice;
    union {
        DXGK_CREATEDEVICEFLAGS Flags;
        DXGK_DEVICEINFO *pInfo;
    };
    ULONG Pasid;
    HANDLE hKmdProcess;
} DXGKARG_CREATEDEVICE;

typedef struct _DXGK_CREATECONTEXTFLAGS {
    union {
        struct {
            UINT SystemContext : 1;
            UINT GdiContext : 1;
            UINT VirtualAddressing : 1;
            UINT SystemProtectedContext : 1;
            UINT HwQueueSupported : 1;
            UINT TestContext : 1;
            UINT Reserved : 26;
        };
        UINT Value;
    };
} DXGK_CREATECONTEXTFLAGS;

typedef struct _DXGK_CONTEXTINFO {
    UINT DmaBufferSize;
    UINT DmaBufferSegmentSet;
    UINT DmaBufferPrivateDataSize;
    UINT AllocationListSize;
    UINT PatchLocationListSize;
    UINT Reserved;
} DXGK_CONTEXTINFO;

typedef struct _DXGKARG_CREATECONTEXT {
    HANDLE hContext;
    UINT NodeOrdinal;
    UINT EngineAffinity;
    DXGK_CREATECONTEXTFLAGS Flags;
    VOID *pPrivateDriverData;
    UINT PrivateDriverDataSize;
    DXGK_CONTEXTINFO ContextInfo;
} DXGKARG_CREATECONTEXT;

/* Scheduling, TDR and escapes. */
typedef struct _DXGKARG_QUERYCURRENTFENCE {
    UINT CurrentFence;
    UINT NodeOrdinal;
    UINT EngineOrdinal;
} DXGKARG_QUERYCURRENTFENCE;

typedef struct _DXGKARG_PREEMPTCOMMAND {
    UINT PreemptionFenceId;
    UINT NodeOrdinal;
    UINT EngineOrdinal;
} DXGKARG_PREEMPTCOMMAND;

typedef struct _DXGK_ESCAPEFLAGS {
    union {
        struct {
            UINT HardwareAccess : 1;
            UINT DeviceStatusQuery : 1;
            UINT ChangeFrameLatency : 1;
            UINT NoAdapterSynchronization : 1;
            UINT Reserved : 1;
            UINT VirtualMachineData : 1;
            UINT DriverKnownEscape : 1;
            UINT DriverCommonEscape : 1;
            UINT Reserved2 : 24;
        };
        UINT Value;
    };
} DXGK_ESCAPEFLAGS;

typedef struct _DXGKARG_ESCAPE {
    HANDLE hDevice;
    DXGK_ESCAPEFLAGS Flags;
    VOID *pPrivateDriverData;
    UINT PrivateDriverDataSize;
    HANDLE hContext;
} DXGKARG_ESCAPE;

typedef struct _DXGKARG_COLLECTDBGINFO {
    ULONG Reason;
    VOID *pBuffer;
    SIZE_T BufferSize;
    VOID *pExtension;
} DXGKARG_COLLECTDBGINFO;

typedef struct _DXGKARG_ACQUIRESWIZZLINGRANGE {
    HANDLE hAllocation;
    UINT PrivateDriverData;
    UINT RangeId;
    UINT SegmentId;
    SIZE_T RangeSize;
    PHYSICAL_ADDRESS CPUTranslatedAddress;
} DXGKARG_ACQUIRESWIZZLINGRANGE;

typedef struct _DXGKARG_RELEASESWIZZLINGRANGE {
    HANDLE hAllocation;
    UINT PrivateDriverData;
    UINT RangeId;
} DXGKARG_RELEASESWIZZLINGRANGE;

/* Pointer and palette. */
typedef struct _DXGK_SETPOINTERPOSITIONFLAGS {
    union {
        struct {
            UINT Visible : 1;
            UINT Procedural : 1;
            UINT Reserved : 30;
        };
        UINT Value;
    };
} DXGK_SETPOINTERPOSITIONFLAGS;

typedef struct _DXGKARG_SETPOINTERPOSITION {
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId;
    INT X;
    INT Y;
    DXGK_SETPOINTERPOSITIONFLAGS Flags;
} DXGKARG_SETPOINTERPOSITION;

typedef struct _DXGKARG_SETPOINTERSHAPE {
    DXGK_POINTERFLAGS Flags;
    UINT Width;
    UINT Height;
    UINT Pitch;
    const VOID *pPixels;
    UINT XHot;
    UINT YHot;
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId;
} DXGKARG_SETPOINTERSHAPE;

typedef struct _D3DKMDT_PALETTEDATA {
    UCHAR Blue;
    UCHAR Green;
    UCHAR Red;
    UCHAR Reserved;
} D3DKMDT_PALETTEDATA;

typedef struct _DXGKARG_SETPALETTE {
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId;
    UINT FirstEntry;
    UINT NumEntries;
    D3DKMDT_PALETTEDATA *pLookupTable;
} DXGKARG_SETPALETTE;

/* VidPN. The VidPN objects themselves (topology, mode sets, the
 * DXGK_VIDPN_INTERFACE function table) are handles and incomplete types:
 * mode management lies outside the paging path. */
typedef struct _D3DKMDT_HVIDPN *D3DKMDT_HVIDPN;
typedef struct _D3DKMDT_HVIDPNTOPOLOGY *D3DKMDT_HVIDPNTOPOLOGY;
typedef struct _D3DKMDT_HVIDPNSOURCEMODESET *D3DKMDT_HVIDPNSOURCEMODESET;
typedef struct _D3DKMDT_HVIDPNTARGETMODESET *D3DKMDT_HVIDPNTARGETMODESET;
typedef struct _D3DKMDT_HMONITORSOURCEMODESET *D3DKMDT_HMONITORSOURCEMODESET;
typedef struct _D3DKMDT_HMONITORFREQUENCYRANGESET *D3DKMDT_HMONITORFREQUENCYRANGESET;
typedef struct _D3DKMDT_HMONITORDESCRIPTORSET *D3DKMDT_HMONITORDESCRIPTORSET;
typedef struct _DXGK_VIDPN_INTERFACE DXGK_VIDPN_INTERFACE;
typedef struct _DXGK_MONITORSOURCEMODESET_INTERFACE DXGK_MONITORSOURCEMODESET_INTERFACE;
typedef struct _D3DKMDT_VIDPN_PRESENT_PATH D3DKMDT_VIDPN_PRESENT_PATH;

typedef enum _D3DKMDT_ENUMCOFUNCMODALITY_PIVOT_TYPE {
    D3DKMDT_EPT_UNINITIALIZED = 0,
    D3DKMDT_EPT_VIDPNSOURCE = 1,
    D3DKMDT_EPT_VIDPNTARGET = 2,
    D3DKMDT_EPT_SCALING = 3,
    D3DKMDT_EPT_ROTATION = 4,
    D3DKMDT_EPT_NOPIVOT = 5
} D3DKMDT_ENUMCOFUNCMODALITY_PIVOT_TYPE;

typedef enum _D3DKMDT_MONITOR_CONNECTIVITY_CHECKS {
    D3DKMDT_MCC_UNINITIALIZED = 0,
    D3DKMDT_MCC_IGNORE = 1,
    D3DKMDT_MCC_ENFORCE = 2
} D3DKMDT_MONITOR_CONNECTIVITY_CHECKS;

typedef struct _DXGK_ENUM_PIVOT {
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId;
    D3DDDI_VIDEO_PRESENT_TARGET_ID VidPnTargetId;
} DXGK_ENUM_PIVOT;

typedef struct _DXGKARG_ISSUPPORTEDVIDPN {
    D3DKMDT_HVIDPN hDesiredVidPn;
    BOOLEAN IsVidPnSupported;
} DXGKARG_ISSUPPORTEDVIDPN;

typedef struct _DXGKARG_RECOMMENDFUNCTIONALVIDPN {
    UINT PrivateDriverDataSize;
    const VOID *pPrivateDriverData;
    D3DKMDT_HVIDPN hRecommendedFunctionalVidPn;
} DXGKARG_RECOMMENDFUNCTIONALVIDPN;

typedef struct _DXGKARG_ENUMVIDPNCOFUNCMODALITY {
    D3DKMDT_HVIDPN hConstrainingVidPn;
    D3DKMDT_ENUMCOFUNCMODALITY_PIVOT_TYPE EnumPivotType;
    DXGK_ENUM_PIVOT EnumPivot;
} DXGKARG_ENUMVIDPNCOFUNCMODALITY;

typedef struct _DXGKARG_COMMITVIDPN_FLAGS {
    union {
        struct {
            UINT PathPowerTransition : 1;
            UINT PathPoweredOff : 1;
            UINT Reserved : 30;
        };
        UINT Value;
    };
} DXGKARG_COMMITVIDPN_FLAGS;

typedef struct _DXGKARG_COMMITVIDPN {
    D3DKMDT_HVIDPN hFunctionalVidPn;
    D3DDDI_VIDEO_PRESENT_SOURCE_ID AffectedVidPnSourceId;
    D3DKMDT_MONITOR_CONNECTIVITY_CHECKS MonitorConnectivityChecks;
    HANDLE hPrimaryAllocation;
    DXGKARG_COMMITVIDPN_FLAGS Flags;
} DXGKARG_COMMITVIDPN;

typedef struct _DXGK_SETVIDPNSOURCEADDRESS_FLAGS {
    union {
        struct {
            UINT ModeChange : 1;
            UINT FlipImmediate : 1;
            UINT FlipOnNextVSync : 1;
            UINT FlipStereo : 1;
            UINT FlipStereoTemporaryMono : 1;
            UINT FlipStereoPreferRight : 1;
            UINT SharedPrimaryTransition : 1;
            UINT IndependentFlipExclusive : 1;
            UINT MoveFlip : 1;
            UINT Reserved : 23;
        };
        UINT Value;
    };
} DXGK_SETVIDPNSOURCEADDRESS_FLAGS;

/* WDDM 2.0: a primary's allocation and place, one per broadcast context.
 * Its page lists no fields; these are the WDK header's (docs/wdk-headers.md). */
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_0
typedef struct _DXGK_PRIMARYDATA {
    HANDLE hAllocation;
    WORD SegmentId;
    PHYSICAL_ADDRESS SegmentAddress;
} DXGK_PRIMARYDATA, *PDXGK_PRIMARYDATA;
#endif

typedef struct _DXGKARG_SETVIDPNSOURCEADDRESS {
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId;
    UINT PrimarySegment;
    PHYSICAL_ADDRESS PrimaryAddress;
    HANDLE hAllocation;
    UINT ContextCount;
    HANDLE Context[1 + D3DDDI_MAX_BROADCAST_CONTEXT];
    DXGK_SETVIDPNSOURCEADDRESS_FLAGS Flags;
    UINT Duration;
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_0
    DXGK_PRIMARYDATA PrimaryData[D3DDDI_MAX_BROADCAST_CONTEXT];
    UINT DriverPrivateDataSize;
    PVOID pDriverPrivateData;
#endif
} DXGKARG_SETVIDPNSOURCEADDRESS;

typedef struct _DXGKARG_SETVIDPNSOURCEVISIBILITY {
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId;
    BOOLEAN Visible;
} DXGKARG_SETVIDPNSOURCEVISIBILITY;

typedef struct _DXGKARG_UPDATEACTIVEVIDPNPRESENTPATH DXGKARG_UPDATEACTIVEVIDPNPRESENTPATH;
typedef struct _DXGKARG_RECOMMENDVIDPNTOPOLOGY DXGKARG_RECOMMENDVIDPNTOPOLOGY;

typedef struct _DXGKARG_RECOMMENDMONITORMODES {
    D3DDDI_VIDEO_PRESENT_TARGET_ID VideoPresentTargetId;
    D3DKMDT_HMONITORSOURCEMODESET hMonitorSourceModeSet;
    const DXGK_MONITORSOURCEMODESET_INTERFACE *pMonitorSourceModeSetInterface;
} DXGKARG_RECOMMENDMONITORMODES;

typedef struct _DXGKARG_GETSCANLINE {
    D3DDDI_VIDEO_PRESENT_TARGET_ID VidPnTargetId;
    BOOLEAN InVerticalBlank;
    UINT ScanLine;
} DXGKARG_GETSCANLINE;

typedef struct _DXGKARG_STOPCAPTURE {
    HANDLE hAllocation;
} DXGKARG_STOPCAPTURE;

/* Engine resets and cancellation (Windows 8 TDR). */
typedef struct _DXGKARG_QUERYDEPENDENTENGINEGROUP {
    UINT NodeOrdinal;
    UINT EngineOrdinal;
    ULONGLONG DependentNodeOrdinalMask;
} DXGKARG_QUERYDEPENDENTENGINEGROUP;

typedef struct _DXGK_ENGINESTATUS {
    union {
        struct {
            UINT Responsive : 1;
            UINT Reserved : 31;
        };
        UINT Value;
    };
} DXGK_ENGINESTATUS;

typedef struct _DXGKARG_QUERYENGINESTATUS {
    UINT NodeOrdinal;
    UINT EngineOrdinal;
    DXGK_ENGINESTATUS EngineStatus;
} DXGKARG_QUERYENGINESTATUS;

typedef struct _DXGKARG_RESETENGINE {
    UINT NodeOrdinal;
    UINT EngineOrdinal;
    UINT LastAbortedFenceId;
} DXGKARG_RESETENGINE;

typedef struct _DXGKARG_CANCELCOMMAND {
    HANDLE hContext;
    VOID *pDmaBuffer;
    UINT DmaBufferSize;
    UINT DmaBufferSubmissionStartOffset;
    UINT DmaBufferSubmissionEndOffset;
    VOID *pDmaBufferPrivateData;
    UINT DmaBufferPrivateDataSize;
    UINT DmaBufferPrivateDataSubmissionStartOffset;
    UINT DmaBufferPrivateDataSubmissionEndOffset;
    const DXGK_ALLOCATIONLIST *pAllocationList;
    UINT AllocationListSize;
    const D3DDDI_PATCHLOCATIONLIST *pPatchLocationList;
    UINT PatchLocationListSize;
    UINT PatchLocationListSubmissionStart;
    UINT PatchLocationListSubmissionLength;
    D3DGPU_VIRTUAL_ADDRESS DmaBufferVirtualAddress;
    UINT DmaBufferUmdPrivateDataSize;
} DXGKARG_CANCELCOMMAND;

/* DxgkCbCreateContextAllocation (DXGKRNL_INTERFACE, Windows 8). */
typedef struct _DXGK_CREATECONTEXTALLOCATIONFLAGS {
    union {
        struct {
            UINT SharedAcrossContexts : 1;
            UINT MapGpuVirtualAddress : 1;
            UINT Reserved : 30;
        };
        UINT Value;
    };
} DXGK_CREATECONTEXTALLOCATIONFLAGS;

typedef struct _DXGKARGCB_CREATECONTEXTALLOCATION {
    DXGK_CREATECONTEXTALLOCATIONFLAGS ContextAllocationFlags;
    HANDLE hAdapter;
    HANDLE hDevice;
    HANDLE hContext;
    HANDLE hDriverAllocation;
    SIZE_T Size;
    UINT Alignment;
    UINT SupportedSegmentSet;
    UINT EvictionSegmentSet;
    DXGK_SEGMENTPREFERENCE PreferredSegment;
    DXGK_SEGMENTBANKPREFERENCE HintedBank;
    DXGK_ALLOCATIONINFOFLAGS Flags;
    HANDLE hAllocation;
    UINT PhysicalAdapterIndex;
} DXGKARGCB_CREATECONTEXTALLOCATION;

/* The WDDM 2.0 callbacks' arguments (DXGKRNL_INTERFACE): a context
 * allocation mapped into the GPU's virtual address space or updated by a
 * paging operation, and a range a driver reserves in DxgkDdiCreateProcess. */
typedef struct _DXGKARGCB_MAPCONTEXTALLOCATION {
    D3DGPU_VIRTUAL_ADDRESS BaseAddress;
    D3DGPU_VIRTUAL_ADDRESS MinimumAddress;
    D3DGPU_VIRTUAL_ADDRESS MaximumAddress;
    HANDLE hAllocation;
    D3DGPU_SIZE_T OffsetInPages;
    D3DGPU_SIZE_T SizeInPages;
    D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE Protection;
    UINT64 DriverProtection;
} DXGKARGCB_MAPCONTEXTALLOCATION;
PBC_WDK_OFF(DXGKARGCB_MAPCONTEXTALLOCATION, hAllocation, 24);
PBC_WDK_OFF(DXGKARGCB_MAPCONTEXTALLOCATION, Protection, 48);
PBC_WDK_SIZE(DXGKARGCB_MAPCONTEXTALLOCATION, 64);
typedef const DXGKARGCB_MAPCONTEXTALLOCATION *IN_CONST_PDXGKARGCB_MAPCONTEXTALLOCATION;

typedef struct _DXGKARGCB_UPDATECONTEXTALLOCATION {
    HANDLE hAllocation;
    PVOID pPrivateDriverData;
    UINT PrivateDriverDataSize;
} DXGKARGCB_UPDATECONTEXTALLOCATION;
PBC_WDK_SIZE(DXGKARGCB_UPDATECONTEXTALLOCATION, 24);
typedef const DXGKARGCB_UPDATECONTEXTALLOCATION *IN_CONST_PDXGKARGCB_UPDATECONTEXTALLOCATION;

typedef struct _DXGKARGCB_RESERVEGPUVIRTUALADDRESSRANGE {
    HANDLE hDxgkProcess;
    UINT64 SizeInBytes;
    UINT Alignment;
    UINT64 StartVirtualAddress; /* out */
    UINT64 BaseAddress;
    union {
        struct {
            UINT AllowUserModeMapping : 1;
        };
        UINT Flags;
    };
} DXGKARGCB_RESERVEGPUVIRTUALADDRESSRANGE;
PBC_WDK_OFF(DXGKARGCB_RESERVEGPUVIRTUALADDRESSRANGE, StartVirtualAddress, 24);
PBC_WDK_OFF(DXGKARGCB_RESERVEGPUVIRTUALADDRESSRANGE, Flags, 40);
PBC_WDK_SIZE(DXGKARGCB_RESERVEGPUVIRTUALADDRESSRANGE, 48);
typedef DXGKARGCB_RESERVEGPUVIRTUALADDRESSRANGE *INOUT_PDXGKARGCB_RESERVEGPUVIRTUALADDRESSRANGE;

/* DxgkCbEnumHandleChildren's argument (WDDM 1.0): the parent resource and
 * the index of the child allocation whose handle the callback returns. */
typedef struct _DXGKARGCB_ENUMHANDLECHILDREN {
    D3DKMT_HANDLE hObject;
    UINT Index;
} DXGKARGCB_ENUMHANDLECHILDREN;
PBC_WDK_SIZE(DXGKARGCB_ENUMHANDLECHILDREN, 8);
typedef const DXGKARGCB_ENUMHANDLECHILDREN *IN_CONST_PDXGKARGCB_ENUMHANDLECHILDREN;

/* The arguments of the DXGKRNL_INTERFACE callbacks added from WDDM 2.0 to
 * 2.6, from their pages (docs/wdk-headers.md). Handle data: the page of
 * DXGK_HANDLE_TYPE names its two values without numbers, so they are C's
 * (0 and 1); DXGKARG_RELEASE_HANDLE, which no page lays out, is a handle. */
typedef enum _DXGK_HANDLE_TYPE {
    DXGK_HANDLE_ALLOCATION,
    DXGK_HANDLE_RESOURCE
} DXGK_HANDLE_TYPE;

typedef struct _DXGKCB_GETHANDLEDATAFLAGS {
    union {
        struct {
            UINT DeviceSpecific : 1;
            UINT Reserved : 31;
        };
        UINT Value;
    };
} DXGKCB_GETHANDLEDATAFLAGS;

typedef struct _DXGKARGCB_GETHANDLEDATA {
    D3DKMT_HANDLE hObject;
    DXGK_HANDLE_TYPE Type;
    DXGKCB_GETHANDLEDATAFLAGS Flags;
} DXGKARGCB_GETHANDLEDATA;
PBC_WDK_SIZE(DXGKARGCB_GETHANDLEDATA, 12);
typedef const DXGKARGCB_GETHANDLEDATA *IN_CONST_PDXGKARGCB_GETHANDLEDATA;

typedef HANDLE DXGKARG_RELEASE_HANDLE, *PDXGKARG_RELEASE_HANDLE;

typedef struct _DXGKARGCB_RELEASEHANDLEDATA {
    DXGKARG_RELEASE_HANDLE ReleaseHandle;
    DXGK_HANDLE_TYPE Type;
} DXGKARGCB_RELEASEHANDLEDATA;
PBC_WDK_SIZE(DXGKARGCB_RELEASEHANDLEDATA, 16);
/* Passed by value, as the page declares the callback. */
typedef const DXGKARGCB_RELEASEHANDLEDATA IN_CONST_DXGKARGCB_RELEASEHANDLEDATA;

/* IOMMU isolation (WDDM 2.4): memory Dxgkrnl allocates and maps for the
 * driver, and the frame buffer saved across a power transition. */
typedef enum _DXGK_MEMORY_CACHING_TYPE {
    DXGK_MEMORY_CACHING_TYPE_NON_CACHED,
    DXGK_MEMORY_CACHING_TYPE_CACHED,
    DXGK_MEMORY_CACHING_TYPE_WRITE_COMBINED
} DXGK_MEMORY_CACHING_TYPE;

typedef struct _DXGKARGCB_ALLOCATECONTIGUOUSMEMORY {
    SIZE_T NumberOfBytes;
    PHYSICAL_ADDRESS LowestAcceptableAddress;
    PHYSICAL_ADDRESS HighestAcceptableAddress;
    PHYSICAL_ADDRESS BoundaryAddressMultiple;
    DXGK_MEMORY_CACHING_TYPE CacheType;
    HANDLE hMemoryHandle; /* out */
    PVOID pMemory;        /* out */
} DXGKARGCB_ALLOCATECONTIGUOUSMEMORY;
PBC_WDK_OFF(DXGKARGCB_ALLOCATECONTIGUOUSMEMORY, CacheType, 32);
PBC_WDK_OFF(DXGKARGCB_ALLOCATECONTIGUOUSMEMORY, hMemoryHandle, 40);
PBC_WDK_SIZE(DXGKARGCB_ALLOCATECONTIGUOUSMEMORY, 56);
typedef DXGKARGCB_ALLOCATECONTIGUOUSMEMORY *INOUT_PDXGKARGCB_ALLOCATECONTIGUOUSMEMORY;

typedef struct _DXGKARGCB_FREECONTIGUOUSMEMORY {
    HANDLE hMemoryHandle;
} DXGKARGCB_FREECONTIGUOUSMEMORY;
typedef const DXGKARGCB_FREECONTIGUOUSMEMORY *IN_CONST_PDXGKARGCB_FREECONTIGUOUSMEMORY;

typedef struct _DXGKARGCB_ALLOCATEPAGESFORMDL {
    PHYSICAL_ADDRESS LowAddress;
    PHYSICAL_ADDRESS HighAddress;
    PHYSICAL_ADDRESS SkipBytes;
    SIZE_T TotalBytes;
    DXGK_MEMORY_CACHING_TYPE CacheType;
    ULONG Flags;
    HANDLE hMemoryHandle; /* out */
    PMDL pMdl;            /* out */
} DXGKARGCB_ALLOCATEPAGESFORMDL;
PBC_WDK_OFF(DXGKARGCB_ALLOCATEPAGESFORMDL, Flags, 36);
PBC_WDK_OFF(DXGKARGCB_ALLOCATEPAGESFORMDL, hMemoryHandle, 40);
PBC_WDK_SIZE(DXGKARGCB_ALLOCATEPAGESFORMDL, 56);
typedef DXGKARGCB_ALLOCATEPAGESFORMDL *INOUT_PDXGKARGCB_ALLOCATEPAGESFORMDL;

typedef struct _DXGKARGCB_PINFRAMEBUFFERFORSAVE {
    UINT PhysicalAdapterIndex;
    SIZE_T CommitSize;
    PMDL pMdl; /* out */
} DXGKARGCB_PINFRAMEBUFFERFORSAVE;
PBC_WDK_SIZE(DXGKARGCB_PINFRAMEBUFFERFORSAVE, 24);
typedef DXGKARGCB_PINFRAMEBUFFERFORSAVE *INOUT_PDXGKARGCB_PINFRAMEBUFFERFORSAVE;

typedef struct _DXGKARGCB_UNPINFRAMEBUFFERFORSAVE {
    UINT PhysicalAdapterIndex;
} DXGKARGCB_UNPINFRAMEBUFFERFORSAVE;
typedef const DXGKARGCB_UNPINFRAMEBUFFERFORSAVE *IN_CONST_PDXGKARGCB_UNPINFRAMEBUFFERFORSAVE;

typedef struct _DXGKARGCB_MAPFRAMEBUFFERPOINTER {
    UINT PhysicalAdapterIndex;
    SIZE_T Size;
    SIZE_T Offset;       /* in and out */
    PVOID pBaseAddress;  /* out */
} DXGKARGCB_MAPFRAMEBUFFERPOINTER;
PBC_WDK_SIZE(DXGKARGCB_MAPFRAMEBUFFERPOINTER, 32);
typedef DXGKARGCB_MAPFRAMEBUFFERPOINTER *INOUT_PDXGKARGCB_MAPFRAMEBUFFERPOINTER;

typedef struct _DXGKARGCB_UNMAPFRAMEBUFFERPOINTER {
    UINT PhysicalAdapterIndex;
    PVOID pBaseAddress;
} DXGKARGCB_UNMAPFRAMEBUFFERPOINTER;
PBC_WDK_SIZE(DXGKARGCB_UNMAPFRAMEBUFFERPOINTER, 16);
typedef const DXGKARGCB_UNMAPFRAMEBUFFERPOINTER *IN_CONST_PDXGKARGCB_UNMAPFRAMEBUFFERPOINTER;

typedef struct _DXGKARGCB_MAPMDLTOIOMMU {
    PMDL pMdl;
    HANDLE hMemoryHandle; /* out */
} DXGKARGCB_MAPMDLTOIOMMU;
typedef DXGKARGCB_MAPMDLTOIOMMU *INOUT_PDXGKARGCB_MAPMDLTOIOMMU;

typedef struct _DXGKARGCB_UNMAPMDLFROMIOMMU {
    HANDLE hMemoryHandle;
} DXGKARGCB_UNMAPMDLFROMIOMMU;
typedef const DXGKARGCB_UNMAPMDLFROMIOMMU *IN_CONST_PDXGKARGCB_UNMAPMDLFROMIOMMU;

/* WDDM 2.5. Its one flag, CpuEventObject, is WDDM 3.0's: through WDDM 2.7
 * the word is reserved. */
typedef struct _DXGKARGCB_SIGNALEVENT {
    HANDLE hDxgkProcess;
    HANDLE hEvent;
    union {
        struct {
            UINT Reserved : 32;
        };
        UINT Flags;
    };
} DXGKARGCB_SIGNALEVENT;
PBC_WDK_SIZE(DXGKARGCB_SIGNALEVENT, 24);
typedef const DXGKARGCB_SIGNALEVENT *IN_CONST_PDXGKARGCB_SIGNALEVENT;

/* WDDM 2.2: a hardware context the driver invalidates after an engine
 * reset; CollateralDamage is 1 when the context did not cause the hang. */
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_2
typedef struct _DXGK_INVALIDATEHWCONTEXTFLAGS {
    union {
        struct {
            UINT CollateralDamage : 1;
            UINT Reserved : 31;
        };
        UINT Value;
    };
} DXGK_INVALIDATEHWCONTEXTFLAGS;

typedef struct _DXGKARGCB_INVALIDATEHWCONTEXT {
    HANDLE hAdapter;
    HANDLE hHwContext;
    DXGK_INVALIDATEHWCONTEXTFLAGS Flags;
} DXGKARGCB_INVALIDATEHWCONTEXT;
PBC_WDK_OFF(DXGKARGCB_INVALIDATEHWCONTEXT, Flags, 16);
PBC_WDK_SIZE(DXGKARGCB_INVALIDATEHWCONTEXT, 24);
#else
typedef struct _DXGKARGCB_INVALIDATEHWCONTEXT DXGKARGCB_INVALIDATEHWCONTEXT;
#endif
typedef const DXGKARGCB_INVALIDATEHWCONTEXT *IN_CONST_PDXGKARGCB_INVALIDATEHWCONTEXT;

/* WDDM 2.4: the tracking handle DxgkCbAllocatePagesForMdl returned. */
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_4
typedef struct _DXGKARGCB_FREEPAGESFROMMDL {
    HANDLE hMemoryHandle;
} DXGKARGCB_FREEPAGESFROMMDL;
#else
typedef struct _DXGKARGCB_FREEPAGESFROMMDL DXGKARGCB_FREEPAGESFROMMDL;
#endif
typedef const DXGKARGCB_FREEPAGESFROMMDL *IN_CONST_PDXGKARGCB_FREEPAGESFROMMDL;

/* WDDM 2.6: the driver asks whether the OS lets it enable a feature. The
 * d3dkmddi.h page numbers the features; through WDDM 2.7 there is only
 * hardware scheduling, the others being WDDM 3.0's and later. */
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_6
typedef enum _DXGK_FEATURE_ID {
    DXGK_FEATURE_HWSCH = 0
} DXGK_FEATURE_ID;

typedef struct _DXGKARGCB_ISFEATUREENABLED {
    HANDLE DeviceHandle; /* the one DxgkDdiStartDevice was given */
    DXGK_FEATURE_ID FeatureId;
    BOOLEAN Enabled; /* out */
} DXGKARGCB_ISFEATUREENABLED;
#else
typedef struct _DXGKARGCB_ISFEATUREENABLED DXGKARGCB_ISFEATUREENABLED;
#endif
typedef DXGKARGCB_ISFEATUREENABLED *INOUT_PDXGKARGCB_ISFEATUREENABLED;

/* WDDM 2.3: the driver tells the OS a protected session it was given by
 * DxgkDdiCreateProtectedSession is still good or lost. The enumeration's
 * page names its two constants without numbers: C's, 0 and 1. */
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_3
typedef enum _DXGK_PROTECTED_SESSION_STATUS {
    DXGK_PROTECTED_SESSION_STATUS_OK,
    DXGK_PROTECTED_SESSION_STATUS_INVALID
} DXGK_PROTECTED_SESSION_STATUS;

typedef struct _DXGKARGCB_PROTECTEDSESSIONSTATUS {
    HANDLE hProtectedSession;
    DXGK_PROTECTED_SESSION_STATUS Status;
} DXGKARGCB_PROTECTEDSESSIONSTATUS;
#else
typedef struct _DXGKARGCB_PROTECTEDSESSIONSTATUS DXGKARGCB_PROTECTEDSESSIONSTATUS;
#endif
typedef const DXGKARGCB_PROTECTEDSESSIONSTATUS *IN_CONST_PDXGKARGCB_PROTECTEDSESSIONSTATUS;

/* WDDM 2.6: one block of memory a driver saves across a hot update; the
 * physical ranges it may name are not laid out. */
typedef struct _DXGK_KSR_MEMORY_RANGE DXGK_KSR_MEMORY_RANGE;

typedef struct _DXGKARGCB_SAVEMEMORYFORHOTUPDATE {
    UINT NumDataMemoryRanges;
    DXGK_KSR_MEMORY_RANGE *pDataMemoryRanges;
    PMDL pDataMdl;
    UINT DataSize;
    PVOID pData;
    UINT MetaDataSize;
    BYTE *pMetaData;
} DXGKARGCB_SAVEMEMORYFORHOTUPDATE;
PBC_WDK_OFF(DXGKARGCB_SAVEMEMORYFORHOTUPDATE, pData, 32);
PBC_WDK_SIZE(DXGKARGCB_SAVEMEMORYFORHOTUPDATE, 56);
typedef const DXGKARGCB_SAVEMEMORYFORHOTUPDATE *IN_CONST_PDXGKARGCB_SAVEMEMORYFORHOTUPDATE;

/* DDIs declared by name only: argument structures pbcheck does not lay out. */
typedef struct _DXGKARG_CREATEOVERLAY DXGKARG_CREATEOVERLAY;
typedef struct _DXGKARG_UPDATEOVERLAY DXGKARG_UPDATEOVERLAY;
typedef struct _DXGKARG_FLIPOVERLAY DXGKARG_FLIPOVERLAY;
typedef struct _DXGKARG_SETDISPLAYPRIVATEDRIVERFORMAT DXGKARG_SETDISPLAYPRIVATEDRIVERFORMAT;
typedef struct _DXGKARG_QUERYVIDPNHWCAPABILITY DXGKARG_QUERYVIDPNHWCAPABILITY;

/* ---- Windows 8.1 through Windows 10 version 2004 (WDDM 1.3 to 2.7):
 * the arguments of the DRIVER_INITIALIZATION_DATA members they add. ---- */
#define DXGK_MAX_METADATA_NAME_LENGTH 32

typedef enum _DXGK_ENGINE_TYPE {
    DXGK_ENGINE_TYPE_OTHER = 0,
    DXGK_ENGINE_TYPE_3D = 1,
    DXGK_ENGINE_TYPE_VIDEO_DECODE = 2,
    DXGK_ENGINE_TYPE_VIDEO_ENCODE = 3,
    DXGK_ENGINE_TYPE_VIDEO_PROCESSING = 4,
    DXGK_ENGINE_TYPE_SCENE_ASSEMBLY = 5,
    DXGK_ENGINE_TYPE_COPY = 6,
    DXGK_ENGINE_TYPE_OVERLAY = 7,
    DXGK_ENGINE_TYPE_CRYPTO = 8,
    DXGK_ENGINE_TYPE_MAX = 9
} DXGK_ENGINE_TYPE;

typedef struct _DXGK_NODEMETADATA_FLAGS {
    union {
        struct {
            UINT ContextSchedulingSupported : 1; /* WDDM 2.2 */
            UINT RingBufferFenceRelease : 1;     /* WDDM 2.5 */
            UINT SupportTrackedWorkload : 1;
            UINT Reserved : 13;
            UINT MaxInFlightHwQueueBuffers : 16;
        };
        UINT32 Value;
    };
} DXGK_NODEMETADATA_FLAGS;

/* DxgkDdiGetNodeMetadata. Before WDDM 2.2 the flags word is Reserved. */
typedef struct _DXGK_NODEMETADATA {
    DXGK_ENGINE_TYPE EngineType;
    WCHAR FriendlyName[DXGK_MAX_METADATA_NAME_LENGTH];
    union {
        DXGK_NODEMETADATA_FLAGS Flags;
        UINT32 Reserved;
    };
    BOOLEAN GpuMmuSupported; /* WDDM 2.0 */
    BOOLEAN IoMmuSupported;
} DXGK_NODEMETADATA;
typedef DXGK_NODEMETADATA DXGKARG_GETNODEMETADATA;
typedef DXGKARG_GETNODEMETADATA *OUT_PDXGKARG_GETNODEMETADATA;

/* DxgkDdiCalibrateGpuClock */
typedef struct _DXGK_GPUCLOCKDATA_FLAGS {
    union {
        struct {
            UINT ContextManagementProcessor : 1;
            UINT Reserved : 31;
        };
        UINT32 Value;
    };
} DXGK_GPUCLOCKDATA_FLAGS;

typedef struct _DXGK_GPUCLOCKDATA {
    ULONGLONG GpuFrequency;
    ULONGLONG GpuClockCounter;
    ULONGLONG CpuClockCounter;
    DXGK_GPUCLOCKDATA_FLAGS Flags; /* WDDM 2.4 */
} DXGK_GPUCLOCKDATA;
typedef DXGK_GPUCLOCKDATA DXGKARG_CALIBRATEGPUCLOCK;
typedef DXGKARG_CALIBRATEGPUCLOCK *OUT_PDXGKARG_CALIBRATEGPUCLOCK;

/* DxgkDdiRenderGdi */
typedef struct _DXGKARG_RENDERGDI {
    const VOID *pCommand;
    UINT CommandLength;
    VOID *pDmaBuffer;
    D3DGPU_VIRTUAL_ADDRESS DmaBufferGpuVirtualAddress;
    UINT DmaSize;
    VOID *pDmaBufferPrivateData;
    UINT DmaBufferPrivateDataSize;
    DXGK_ALLOCATIONLIST *pAllocationList;
    UINT AllocationListSize;
    UINT MultipassOffset;
} DXGKARG_RENDERGDI;
typedef DXGKARG_RENDERGDI *INOUT_PDXGKARG_RENDERGDI;

/* DxgkDdiSubmitCommandVirtual */
typedef struct _DXGKARG_SUBMITCOMMANDVIRTUAL {
    HANDLE hContext;
    D3DGPU_VIRTUAL_ADDRESS DmaBufferVirtualAddress;
    UINT DmaBufferSize;
    VOID *pDmaBufferPrivateData;
    UINT DmaBufferPrivateDataSize;
    UINT DmaBufferUmdPrivateDataSize;
    UINT SubmissionFenceId;
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId;
    D3DDDI_FLIPINTERVAL_TYPE FlipInterval;
    DXGK_SUBMITCOMMANDFLAGS Flags;
    UINT EngineOrdinal;
    UINT NodeOrdinal;
} DXGKARG_SUBMITCOMMANDVIRTUAL;
typedef const DXGKARG_SUBMITCOMMANDVIRTUAL *IN_CONST_PDXGKARG_SUBMITCOMMANDVIRTUAL;

/* DxgkDdiSetRootPageTable, DxgkDdiGetRootPageTableSize */
typedef struct _DXGKARG_SETROOTPAGETABLE {
    HANDLE hContext;
    D3DGPU_PHYSICAL_ADDRESS Address;
    UINT NumEntries;
} DXGKARG_SETROOTPAGETABLE;
typedef const DXGKARG_SETROOTPAGETABLE *IN_CONST_PDXGKARG_SETROOTPAGETABLE;

typedef struct _DXGKARG_GETROOTPAGETABLESIZE {
    UINT NumberOfPte;
    UINT PhysicalAdapterIndex;
} DXGKARG_GETROOTPAGETABLESIZE;
typedef DXGKARG_GETROOTPAGETABLESIZE *INOUT_PDXGKARG_GETROOTPAGETABLESIZE;

/* DxgkDdiMapCpuHostAperture, DxgkDdiUnmapCpuHostAperture */
typedef struct _DXGKARG_MAPCPUHOSTAPERTURE {
    HANDLE hAllocation;
    WORD SegmentId;
    WORD PhysicalAdapterIndex;
    UINT64 NumberOfPages;
    UINT32 *pCpuHostAperturePages;
    UINT64 *pMemorySegmentPages;
} DXGKARG_MAPCPUHOSTAPERTURE;
typedef const DXGKARG_MAPCPUHOSTAPERTURE *IN_CONST_PDXGKARG_MAPCPUHOSTAPERTURE;

typedef struct _DXGKARG_UNMAPCPUHOSTAPERTURE {
    UINT64 NumberOfPages;
    UINT32 *pCpuHostAperturePages;
    WORD SegmentId;
    WORD PhysicalAdapterIndex;
} DXGKARG_UNMAPCPUHOSTAPERTURE;
typedef const DXGKARG_UNMAPCPUHOSTAPERTURE *IN_CONST_PDXGKARG_UNMAPCPUHOSTAPERTURE;

/* DxgkDdiCreateProcess, DxgkDdiDestroyProcess */
typedef struct _DXGK_CREATEPROCESSFLAGS {
    union {
        struct {
            UINT SystemProcess : 1;
            UINT GdiProcess : 1;
            UINT VirtualMachineProcess : 1;
            UINT VirtualMachineWorkerProcess : 1;
            UINT SessionIsolatedContainer : 1;
            UINT Reserved : 27;
        };
        UINT Value;
    };
} DXGK_CREATEPROCESSFLAGS;

typedef struct _DXGKARG_CREATEPROCESS {
    HANDLE hDxgkProcess;
    HANDLE hKmdProcess;
    DXGK_CREATEPROCESSFLAGS Flags;
    UINT NumPasid;
    ULONG *pPasid;
    HANDLE hKmdVmWorkerProcess;
    UINT ProcessNameLength;
    WCHAR *pProcessName;
} DXGKARG_CREATEPROCESS;
typedef DXGKARG_CREATEPROCESS *INOUT_PDXGKARG_CREATEPROCESS;

/* DxgkDdiSetStablePowerState. Enabled is a Windows BOOL (int): spelled int
 * so that PBC_WDK_DRIVER_BASE_TYPES leaves the layout alone. */
typedef struct DXGKARG_SETSTABLEPOWERSTATE {
    int Enabled;
} DXGKARG_SETSTABLEPOWERSTATE;
typedef const DXGKARG_SETSTABLEPOWERSTATE *IN_CONST_PDXGKARG_SETSTABLEPOWERSTATE;

/* DxgkDdiSetVideoProtectedRegion */
typedef struct _DXGKARG_SETVIDEOPROTECTEDREGION {
    UINT PhysicalAdapterIndex;
    UINT SegmentIndex;
    UINT VprIndex;
    SIZE_T CurrentStartOffset;
    SIZE_T CurrentSize;
    SIZE_T NewStartOffset;
    SIZE_T NewSize;
} DXGKARG_SETVIDEOPROTECTEDREGION;
typedef const DXGKARG_SETVIDEOPROTECTEDREGION *IN_CONST_PDXGKARG_SETVIDEOPROTECTEDREGION;

/* Hardware queues and scheduling (WDDM 2.2 to 2.5). */
typedef struct _DXGKARG_SUBMITCOMMANDTOHWQUEUE {
    HANDLE hHwQueue;
    UINT64 HwQueueProgressFenceId;
    D3DGPU_VIRTUAL_ADDRESS DmaBufferVirtualAddress;
    UINT DmaBufferSize;
    UINT DmaBufferPrivateDataSize;
    VOID *pDmaBufferPrivateData;
    DXGK_SUBMITCOMMANDFLAGS Flags;
    D3DGPU_VIRTUAL_ADDRESS HwQueueProgressFenceGpuVa;
    VOID *HwQueueProgressFenceCpuVa;
} DXGKARG_SUBMITCOMMANDTOHWQUEUE;
typedef const DXGKARG_SUBMITCOMMANDTOHWQUEUE *IN_CONST_PDXGKARG_SUBMITCOMMANDTOHWQUEUE;

typedef struct _DXGKARG_SWITCHTOHWCONTEXTLIST {
    HANDLE hHwContextFirst;
    HANDLE hHwContextSecond;
    UINT NodeOrdinal;
    UINT EngineOrdinal;
} DXGKARG_SWITCHTOHWCONTEXTLIST;
typedef const DXGKARG_SWITCHTOHWCONTEXTLIST *IN_CONST_PDXGKARG_SWITCHTOHWCONTEXTLIST;

typedef struct _DXGKARG_RESETHWENGINE {
    UINT NodeOrdinal;
    UINT EngineOrdinal;
} DXGKARG_RESETHWENGINE;
typedef DXGKARG_RESETHWENGINE *INOUT_PDXGKARG_RESETHWENGINE;

typedef struct _DXGK_UPDATEHWCONTEXTSTATE_FLAGS {
    union {
        struct {
            UINT Suspended : 1;
            UINT InterruptOnSwitchCompletion : 1;
            UINT Reserved : 30;
        };
        UINT Value;
    };
} DXGK_UPDATEHWCONTEXTSTATE_FLAGS;

typedef struct _DXGKARG_UPDATEHWCONTEXTSTATE {
    HANDLE hHwContext;
    UINT64 ContextSwitchFence;
    UINT Priority;
    DXGK_UPDATEHWCONTEXTSTATE_FLAGS Flags;
} DXGKARG_UPDATEHWCONTEXTSTATE;
typedef const DXGKARG_UPDATEHWCONTEXTSTATE *IN_CONST_PDXGKARG_UPDATEHWCONTEXTSTATE;

typedef enum _DXGK_SCHEDULING_PRIORITY_BAND {
    DXGK_SCHEDULING_PRIORITY_BAND_IDLE = 0,
    DXGK_SCHEDULING_PRIORITY_BAND_NORMAL = 1,
    DXGK_SCHEDULING_PRIORITY_BAND_FOCUS = 2,
    DXGK_SCHEDULING_PRIORITY_BAND_REALTIME = 3,
    DXGK_SCHEDULING_PRIORITY_BAND_COUNT = 4
} DXGK_SCHEDULING_PRIORITY_BAND;

typedef struct _DXGKARG_SETUPPRIORITYBANDS {
    UINT64 gracePeriodForBand[DXGK_SCHEDULING_PRIORITY_BAND_COUNT];
    UINT64 processQuantumForBand[DXGK_SCHEDULING_PRIORITY_BAND_COUNT];
    UINT64 processGracePeriodForBand[DXGK_SCHEDULING_PRIORITY_BAND_COUNT];
    UINT targetNormalBandPercentage;
} DXGKARG_SETUPPRIORITYBANDS;
typedef const DXGKARG_SETUPPRIORITYBANDS *IN_CONST_PDXGKARG_SETUPPRIORITYBANDS;

typedef struct _DXGKARG_SETCONTEXTSCHEDULINGPROPERTIES {
    HANDLE hContext;
    DXGK_SCHEDULING_PRIORITY_BAND priorityBand;
    INT realtimeBandPriorityLevel;
    INT inProcessPriority;
    UINT64 quantum;
    UINT64 gracePeriodSamePriority;
    UINT64 gracePeriodLowerPriority;
} DXGKARG_SETCONTEXTSCHEDULINGPROPERTIES;
typedef const DXGKARG_SETCONTEXTSCHEDULINGPROPERTIES *IN_CONST_PDXGKARG_SETCONTEXTSCHEDULINGPROPERTIES;

typedef struct _DXGKARG_SUSPENDCONTEXT {
    HANDLE hContext;
    UINT64 contextSuspendFence;
} DXGKARG_SUSPENDCONTEXT;
typedef const DXGKARG_SUSPENDCONTEXT *IN_CONST_PDXGKARG_SUSPENDCONTEXT;

typedef struct _DXGKARG_RESUMECONTEXT {
    HANDLE hContext;
} DXGKARG_RESUMECONTEXT;
typedef const DXGKARG_RESUMECONTEXT *IN_CONST_PDXGKARG_RESUMECONTEXT;

typedef struct _DXGK_VIRTUALMACHINEDATAFLAGS {
    union {
        struct {
            UINT SecureVirtualMachine : 1;
        };
        UINT Value;
    };
} DXGK_VIRTUALMACHINEDATAFLAGS;

typedef struct _DXGKARG_SETVIRTUALMACHINEDATA {
    HANDLE hKmdVmWorkerProcess;
    GUID *pVmGuid;
    DXGK_VIRTUALMACHINEDATAFLAGS Flags;
} DXGKARG_SETVIRTUALMACHINEDATA;
typedef const DXGKARG_SETVIRTUALMACHINEDATA *IN_CONST_PDXGKARG_SETVIRTUALMACHINEDATA;

/* DxgkDdiSignalMonitoredFence (WDDM 2.5) */
typedef enum _DXGK_KERNEL_SUBMISSION_TYPE {
    DXGK_KERNEL_SUBMISSION_BUILD_PAGING_BUFFER = 0,
    DXGK_KERNEL_SUBMISSION_RENDERGDI = 1,
    DXGK_KERNEL_SUBMISSION_PRESENTBLT = 2
} DXGK_KERNEL_SUBMISSION_TYPE;

typedef struct _DXGKARG_SIGNALMONITOREDFENCE {
    DXGK_KERNEL_SUBMISSION_TYPE KernelSubmissionType;
    VOID *pDmaBuffer;
    D3DGPU_VIRTUAL_ADDRESS DmaBufferGpuVirtualAddress;
    UINT DmaSize;
    VOID *pDmaBufferPrivateData;
    UINT DmaBufferPrivateDataSize;
    UINT MultipassOffset;
    D3DGPU_VIRTUAL_ADDRESS MonitoredFenceGpuVa;
    UINT64 MonitoredFenceValue;
    VOID *MonitoredFenceCpuVa;
    HANDLE hHwQueue;
} DXGKARG_SIGNALMONITOREDFENCE;
typedef DXGKARG_SIGNALMONITOREDFENCE *INOUT_PDXGKARG_SIGNALMONITOREDFENCE;

/* DxgkDdiValidateSubmitCommand (WDDM 2.5) */
typedef struct _DXGK_VALIDATESUBMITCOMMANDFLAGS {
    union {
        struct {
            UINT HardwareQueueSubmission : 1;
            UINT Reserved : 31;
        };
        UINT Value;
    };
} DXGK_VALIDATESUBMITCOMMANDFLAGS;

typedef struct _DXGKARG_VALIDATESUBMITCOMMAND {
    D3DGPU_VIRTUAL_ADDRESS Commands;
    UINT CommandLength;
    DXGK_VALIDATESUBMITCOMMANDFLAGS Flags;
    UINT ContextCount;
    HANDLE Context[D3DDDI_MAX_BROADCAST_CONTEXT];
    VOID *pPrivateDriverData;
    UINT PrivateDriverDataSize;
    UINT UmdPrivateDataSize;
    UINT64 HwQueueProgressFenceId;
} DXGKARG_VALIDATESUBMITCOMMAND;
typedef DXGKARG_VALIDATESUBMITCOMMAND *INOUT_PDXGKARG_VALIDATESUBMITCOMMAND;

/* Periodic frame notifications (WDDM 2.2): no adapter argument, the
 * structure carries it. */
typedef struct _DXGKARG_CREATEPERIODICFRAMENOTIFICATION {
    HANDLE hAdapter;
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnTargetId;
    UINT64 Time;
    UINT NotificationID;
    HANDLE hNotification;
} DXGKARG_CREATEPERIODICFRAMENOTIFICATION;
typedef DXGKARG_CREATEPERIODICFRAMENOTIFICATION *INOUT_PDXGKARG_CREATEPERIODICFRAMENOTIFICATION;

typedef struct _DXGKARG_DESTROYPERIODICFRAMENOTIFICATION {
    HANDLE hNotification;
    HANDLE hAdapter;
} DXGKARG_DESTROYPERIODICFRAMENOTIFICATION;
typedef const DXGKARG_DESTROYPERIODICFRAMENOTIFICATION *IN_CONST_PDXGKARG_DESTROYPERIODICFRAMENOTIFICATION;

/* Post-multiplane-overlay present (WDDM 2.1). LayerIndex is a Windows
 * DWORD, spelled ULONG (see DXGKARG_SETSTABLEPOWERSTATE). */
typedef struct _DXGKARG_POSTMULTIPLANEOVERLAYPRESENT {
    D3DDDI_VIDEO_PRESENT_TARGET_ID VidPnTargetId;
    UINT PhysicalAdapterMask;
    ULONG LayerIndex;
    ULONGLONG PresentID;
} DXGKARG_POSTMULTIPLANEOVERLAYPRESENT;
typedef const DXGKARG_POSTMULTIPLANEOVERLAYPRESENT *IN_CONST_PDXGKARG_POSTMULTIPLANEOVERLAYPRESENT;

typedef struct _DXGKARG_GETPOSTCOMPOSITIONCAPS {
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId;
    float MaxStretchFactor;
    float MaxShrinkFactor;
} DXGKARG_GETPOSTCOMPOSITIONCAPS;
typedef DXGKARG_GETPOSTCOMPOSITIONCAPS *IN_OUT_PDXGKARG_GETPOSTCOMPOSITIONCAPS;

/* DxgkDdiControlInterrupt2/3 (WDDM 2.0, 2.7): enable is 0 here, the
 * opposite of DxgkDdiControlInterrupt's BOOLEAN. */
typedef enum _DXGK_INTERRUPT_STATE {
    DXGK_INTERRUPT_ENABLE = 0,
    DXGK_INTERRUPT_DISABLE = 1
} DXGK_INTERRUPT_STATE;

typedef enum _DXGK_CRTC_VSYNC_STATE {
    DXGK_VSYNC_ENABLE = 0,
    DXGK_VSYNC_DISABLE_KEEP_PHASE = 1,
    DXGK_VSYNC_DISABLE_NO_PHASE = 2
} DXGK_CRTC_VSYNC_STATE;

typedef struct _DXGKARG_CONTROLINTERRUPT2 {
    DXGK_INTERRUPT_TYPE InterruptType;
    union {
        DXGK_INTERRUPT_STATE InterruptState;
        DXGK_CRTC_VSYNC_STATE CrtcVsyncState;
    };
} DXGKARG_CONTROLINTERRUPT2;
PBC_WDK_SIZE(DXGKARG_CONTROLINTERRUPT2, 8);

typedef struct _DXGKARG_CONTROLINTERRUPT3 {
    DXGK_INTERRUPT_TYPE InterruptType;
    union {
        DXGK_INTERRUPT_STATE InterruptState;
        DXGK_CRTC_VSYNC_STATE CrtcVsyncState;
    };
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId; /* or D3DDDI_ID_ALL */
} DXGKARG_CONTROLINTERRUPT3;
PBC_WDK_OFF(DXGKARG_CONTROLINTERRUPT3, VidPnSourceId, 8);
PBC_WDK_SIZE(DXGKARG_CONTROLINTERRUPT3, 12);

/* DxgkDdiFormatHistoryBuffer (WDDM 1.3): the GPU's history buffer is a
 * header, the driver's private data, then the time stamps. */
typedef struct _DXGK_HISTORY_BUFFER_HEADER {
    UINT32 RenderCbSequence;
    UINT32 NumTimestamps;
    UINT32 PrivateDataSize; /* a multiple of 8: the time stamps are 64-bit aligned */
    UINT32 Reserved;
} DXGK_HISTORY_BUFFER_HEADER;
PBC_WDK_SIZE(DXGK_HISTORY_BUFFER_HEADER, 16);

typedef struct _DXGK_HISTORY_BUFFER {
    DXGK_HISTORY_BUFFER_HEADER Header;
    UINT8 DriverPrivateData[1];
} DXGK_HISTORY_BUFFER;
PBC_WDK_OFF(DXGK_HISTORY_BUFFER, DriverPrivateData, 16);

typedef struct _DXGKARG_HISTORYBUFFERPRECISION {
    UINT32 PrecisionBits; /* 0, 32, or 33-64 */
} DXGKARG_HISTORYBUFFERPRECISION;

typedef struct _DXGKARG_FORMATHISTORYBUFFER {
    DXGK_HISTORY_BUFFER *pHistoryBuffer;
    UINT32 HistoryBufferSize;
    PVOID pFormattedBuffer;
    UINT32 FormattedBufferSize;
    UINT32 NumTimestamps;
    DXGKARG_HISTORYBUFFERPRECISION Precision;
    UINT32 Offset;
} DXGKARG_FORMATHISTORYBUFFER;
PBC_WDK_OFF(DXGKARG_FORMATHISTORYBUFFER, pFormattedBuffer, 16);
PBC_WDK_OFF(DXGKARG_FORMATHISTORYBUFFER, Precision, 32);
PBC_WDK_SIZE(DXGKARG_FORMATHISTORYBUFFER, 40);

/* DxgkDdiExchangePreStartInfo (dispmprt.h's page), before StartDevice. */
typedef struct _DXGK_PRE_START_INFO {
    union {
        struct {
            UINT ReservedIn;
        };
        UINT Input;
    };
    union {
        struct {
            UINT SupportPreserveBootDisplay : 1;
            UINT IsUEFIFrameBufferCpuAccessibleDuringStartup : 1;
            UINT ReservedOut : 30;
        };
        UINT Output;
    };
} DXGK_PRE_START_INFO, *PDXGK_PRE_START_INFO;
PBC_WDK_OFF(DXGK_PRE_START_INFO, Output, 4);
PBC_WDK_SIZE(DXGK_PRE_START_INFO, 8);
typedef DXGK_PRE_START_INFO *IN_OUT_PDXGK_PRE_START_INFO;

/* Diagnostics (dispmprt.h's pages, Windows 10 1809): a category is one
 * bit of DXGK_DIAGNOSTIC_CATEGORIES, and its types are the bits of that
 * category's member of DXGK_DIAGNOSTIC_TYPES. The categories' page keeps
 * Reserved : 31 under a condition it elides, from before Progressions;
 * with both categories it is 30, so the bits fill one UINT (derived). */
typedef struct _DXGK_DIAGNOSTIC_CATEGORIES {
    union {
        struct {
            UINT Notifications : 1;
            UINT Progressions : 1;
            UINT Reserved : 30;
        };
        UINT Value;
    };
} DXGK_DIAGNOSTIC_CATEGORIES;
PBC_WDK_SIZE(DXGK_DIAGNOSTIC_CATEGORIES, 4);

typedef struct _DXGK_DIAGTYPE_NOTIFICATIONS {
    union {
        struct {
            UINT PanelSelfRefreshSoftware : 1;
            UINT PanelSelfRefreshHardware : 1;
            UINT Reserved : 30;
        };
        UINT Value;
    };
} DXGK_DIAGTYPE_NOTIFICATIONS;
PBC_WDK_SIZE(DXGK_DIAGTYPE_NOTIFICATIONS, 4);

typedef struct _DXGK_DIAGTYPE_PROGRESSIONS {
    union {
        struct {
            UINT SyncLockEnableSync : 1;
            UINT Reserved : 31;
        };
        UINT Value;
    };
} DXGK_DIAGTYPE_PROGRESSIONS;
PBC_WDK_SIZE(DXGK_DIAGTYPE_PROGRESSIONS, 4);

typedef struct _DXGK_DIAGNOSTIC_TYPES {
    union {
        DXGK_DIAGTYPE_NOTIFICATIONS Notifications;
        DXGK_DIAGTYPE_PROGRESSIONS Progressions;
        UINT Value;
    };
} DXGK_DIAGNOSTIC_TYPES;
PBC_WDK_SIZE(DXGK_DIAGNOSTIC_TYPES, 4);

/* The OS asks which types of a category the driver reports, cheaply
 * (NoninvasiveTypes) or at a cost (InvasiveTypes)... */
typedef struct _DXGKARG_QUERYDIAGNOSTICTYPESSUPPORT {
    DXGK_DIAGNOSTIC_CATEGORIES DiagnosticCategory;
    DXGK_DIAGNOSTIC_TYPES NoninvasiveTypes;
    DXGK_DIAGNOSTIC_TYPES InvasiveTypes;
} DXGKARG_QUERYDIAGNOSTICTYPESSUPPORT, *PDXGKARG_QUERYDIAGNOSTICTYPESSUPPORT;
PBC_WDK_OFF(DXGKARG_QUERYDIAGNOSTICTYPESSUPPORT, InvasiveTypes, 8);
PBC_WDK_SIZE(DXGKARG_QUERYDIAGNOSTICTYPESSUPPORT, 12);

/* ...then which of them to report: every type not requested is off. */
typedef struct _DXGKARG_CONTROLDIAGNOSTICREPORTING {
    DXGK_DIAGNOSTIC_CATEGORIES DiagnosticCategory;
    DXGK_DIAGNOSTIC_TYPES RequestedDiagnostics;
} DXGKARG_CONTROLDIAGNOSTICREPORTING, *PDXGKARG_CONTROLDIAGNOSTICREPORTING;
PBC_WDK_OFF(DXGKARG_CONTROLDIAGNOSTICREPORTING, RequestedDiagnostics, 4);
PBC_WDK_SIZE(DXGKARG_CONTROLDIAGNOSTICREPORTING, 8);

/* Named here: the WDDM 1.3 to 2.7 arguments without a page or not laid
 * out (docs/wdk-headers.md), hardware contexts and diagnostic collection,
 * and the two display-configuration arguments dispmprt.h lays out beside
 * the output technology their parts use. */
typedef struct _DXGKARG_CREATEHWCONTEXT DXGKARG_CREATEHWCONTEXT;
typedef struct _DXGKARG_SETTIMINGSFROMVIDPN DXGKARG_SETTIMINGSFROMVIDPN; /* laid out in dispmprt.h */
typedef struct _DXGKARG_QUERYCONNECTIONCHANGE DXGKARG_QUERYCONNECTIONCHANGE; /* laid out in dispmprt.h */
typedef struct _DXGKARG_COLLECTDIAGNOSTICINFO DXGKARG_COLLECTDIAGNOSTICINFO;

/* Multiplane overlays, WDDM 1.3 (Windows 8.1) and WDDM 2.0: the planes the
 * OS asks a driver to check and to scan out, laid out from their pages.
 * The enumerations the pages list without numbers take C's (0, 1...);
 * BLEND's and YCbCr_FLAGS' numbers are those of their D3DKMT twins' pages
 * (derived, docs/wdk-headers.md). STRETCH_QUALITY's numbers are on no page:
 * the type is declared, its names are not. The pages' BOOL members are
 * spelled int, Windows' BOOL, so a driver's own BOOL cannot change them. */
typedef struct _DXGK_MULTIPLANE_OVERLAY_FLAGS {
    union {
        struct {
            UINT VerticalFlip : 1;
            UINT HorizontalFlip : 1;
            /* Bit 2 is named differently by the page (StaticCheck from
             * WDDM 3.0, PanelFitterPostComposition in its member list):
             * left in Reserved here. */
            UINT Reserved : 30;
        };
        UINT Value;
    };
} DXGK_MULTIPLANE_OVERLAY_FLAGS;
PBC_WDK_SIZE(DXGK_MULTIPLANE_OVERLAY_FLAGS, 4);

typedef enum _DXGK_MULTIPLANE_OVERLAY_BLEND {
    DXGK_MULTIPLANE_OVERLAY_BLEND_OPAQUE = 0,
    DXGK_MULTIPLANE_OVERLAY_BLEND_ALPHABLEND = 1
} DXGK_MULTIPLANE_OVERLAY_BLEND;

typedef enum _DXGK_MULTIPLANE_OVERLAY_VIDEO_FRAME_FORMAT {
    DXGK_MULTIPLANE_OVERLAY_VIDEO_FRAME_FORMAT_PROGRESSIVE,
    DXGK_MULTIPLANE_OVERLAY_VIDEO_FRAME_FORMAT_INTERLACED_TOP_FIELD_FIRST,
    DXGK_MULTIPLANE_OVERLAY_VIDEO_FRAME_FORMAT_INTERLACED_BOTTOM_FIELD_FIRST
} DXGK_MULTIPLANE_OVERLAY_VIDEO_FRAME_FORMAT;

typedef enum _DXGK_MULTIPLANE_OVERLAY_YCbCr_FLAGS {
    DXGK_MULTIPLANE_OVERLAY_YCbCr_FLAG_NOMINAL_RANGE = 0x1,
    DXGK_MULTIPLANE_OVERLAY_YCbCr_FLAG_BT709 = 0x2,
    DXGK_MULTIPLANE_OVERLAY_YCbCr_FLAG_xvYCC = 0x4
} DXGK_MULTIPLANE_OVERLAY_YCbCr_FLAGS;

typedef enum _DXGK_MULTIPLANE_OVERLAY_STEREO_FORMAT {
    DXGK_MULTIPLANE_OVERLAY_STEREO_FORMAT_MONO,
    DXGK_MULTIPLANE_OVERLAY_STEREO_FORMAT_HORIZONTAL,
    DXGK_MULTIPLANE_OVERLAY_STEREO_FORMAT_VERTICAL,
    DXGK_MULTIPLANE_OVERLAY_STEREO_FORMAT_SEPARATE,
    DXGK_MULTIPLANE_OVERLAY_STEREO_FORMAT_MONO_OFFSET,
    DXGK_MULTIPLANE_OVERLAY_STEREO_FORMAT_ROW_INTERLEAVED,
    DXGK_MULTIPLANE_OVERLAY_STEREO_FORMAT_COLUMN_INTERLEAVED,
    DXGK_MULTIPLANE_OVERLAY_STEREO_FORMAT_CHECKERBOARD
} DXGK_MULTIPLANE_OVERLAY_STEREO_FORMAT;

typedef enum _DXGK_MULTIPLANE_OVERLAY_STEREO_FLIP_MODE {
    DXGK_MULTIPLANE_OVERLAY_STEREO_FLIP_NONE,
    DXGK_MULTIPLANE_OVERLAY_STEREO_FLIP_FRAME0,
    DXGK_MULTIPLANE_OVERLAY_STEREO_FLIP_FRAME1
} DXGK_MULTIPLANE_OVERLAY_STEREO_FLIP_MODE;

/* An enumeration on Windows (4 bytes, as UINT is); its two names
 * (..._BILINEAR, ..._HIGH) are not defined, their numbers being on no page. */
typedef UINT DXGK_MULTIPLANE_OVERLAY_STRETCH_QUALITY;

typedef struct _DXGK_MULTIPLANE_OVERLAY_ATTRIBUTES {
    DXGK_MULTIPLANE_OVERLAY_FLAGS Flags;
    RECT SrcRect;
    RECT DstRect;
    RECT ClipRect;
    D3DDDI_ROTATION Rotation;
    DXGK_MULTIPLANE_OVERLAY_BLEND Blend;
    UINT NumFilters;
    void *pFilters;
    DXGK_MULTIPLANE_OVERLAY_VIDEO_FRAME_FORMAT VideoFrameFormat;
    DXGK_MULTIPLANE_OVERLAY_YCbCr_FLAGS YCbCrFlags;
    DXGK_MULTIPLANE_OVERLAY_STEREO_FORMAT StereoFormat;
    int StereoLeftViewFrame0;
    int StereoBaseViewFrame0;
    DXGK_MULTIPLANE_OVERLAY_STEREO_FLIP_MODE StereoFlipMode;
    DXGK_MULTIPLANE_OVERLAY_STRETCH_QUALITY StretchQuality;
} DXGK_MULTIPLANE_OVERLAY_ATTRIBUTES;
PBC_WDK_OFF(DXGK_MULTIPLANE_OVERLAY_ATTRIBUTES, Rotation, 52);
PBC_WDK_OFF(DXGK_MULTIPLANE_OVERLAY_ATTRIBUTES, pFilters, 64);
PBC_WDK_OFF(DXGK_MULTIPLANE_OVERLAY_ATTRIBUTES, StretchQuality, 96);
PBC_WDK_SIZE(DXGK_MULTIPLANE_OVERLAY_ATTRIBUTES, 104);

typedef struct _DXGK_MULTIPLANE_OVERLAY_PLANE {
    UINT LayerIndex;
    int Enabled;
    UINT AllocationSegment;
    PHYSICAL_ADDRESS AllocationAddress;
    HANDLE hAllocation;
    DXGK_MULTIPLANE_OVERLAY_ATTRIBUTES PlaneAttributes;
} DXGK_MULTIPLANE_OVERLAY_PLANE;
PBC_WDK_OFF(DXGK_MULTIPLANE_OVERLAY_PLANE, AllocationAddress, 16);
PBC_WDK_OFF(DXGK_MULTIPLANE_OVERLAY_PLANE, PlaneAttributes, 32);
PBC_WDK_SIZE(DXGK_MULTIPLANE_OVERLAY_PLANE, 136);

typedef struct _DXGK_CHECK_MULTIPLANE_OVERLAY_SUPPORT_PLANE {
    HANDLE hAllocation; /* out: the driver's, for its own tracking */
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId;
    DXGK_MULTIPLANE_OVERLAY_ATTRIBUTES PlaneAttributes;
} DXGK_CHECK_MULTIPLANE_OVERLAY_SUPPORT_PLANE;
PBC_WDK_OFF(DXGK_CHECK_MULTIPLANE_OVERLAY_SUPPORT_PLANE, PlaneAttributes, 16);
PBC_WDK_SIZE(DXGK_CHECK_MULTIPLANE_OVERLAY_SUPPORT_PLANE, 120);

typedef struct DXGK_CHECK_MULTIPLANE_OVERLAY_SUPPORT_RETURN_INFO {
    union {
        struct {
            UINT FailingPlane : 4;
            UINT TryAgain : 1;
            UINT Reserved : 27;
        };
        UINT Value;
    };
} DXGK_CHECK_MULTIPLANE_OVERLAY_SUPPORT_RETURN_INFO;
PBC_WDK_SIZE(DXGK_CHECK_MULTIPLANE_OVERLAY_SUPPORT_RETURN_INFO, 4);

typedef struct _DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT {
    UINT PlaneCount;
    DXGK_CHECK_MULTIPLANE_OVERLAY_SUPPORT_PLANE *pPlanes;
    int Supported;
    DXGK_CHECK_MULTIPLANE_OVERLAY_SUPPORT_RETURN_INFO ReturnInfo;
} DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT;
PBC_WDK_OFF(DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT, ReturnInfo, 20);
PBC_WDK_SIZE(DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT, 24);

typedef struct _DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY {
    UINT ContextCount;
    HANDLE Context[1 + D3DDDI_MAX_BROADCAST_CONTEXT];
    DXGK_SETVIDPNSOURCEADDRESS_FLAGS Flags;
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId;
    UINT PlaneCount;
    DXGK_MULTIPLANE_OVERLAY_PLANE *pPlanes;
    UINT Duration;
} DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY;
PBC_WDK_OFF(DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY, Flags, 528);
PBC_WDK_OFF(DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY, pPlanes, 544);
PBC_WDK_SIZE(DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY, 560);

/* WDDM 2.0: the attributes name a colour space instead of the filters and
 * YCbCr flags, and the check names each plane's source. */
typedef struct _DXGK_MULTIPLANE_OVERLAY_ATTRIBUTES2 {
    DXGK_MULTIPLANE_OVERLAY_FLAGS Flags;
    RECT SrcRect;
    RECT DstRect;
    RECT ClipRect;
    D3DDDI_ROTATION Rotation;
    DXGK_MULTIPLANE_OVERLAY_BLEND Blend;
    DXGK_MULTIPLANE_OVERLAY_VIDEO_FRAME_FORMAT VideoFrameFormat;
    D3DDDI_COLOR_SPACE_TYPE ColorSpaceType;
    DXGK_MULTIPLANE_OVERLAY_STEREO_FORMAT StereoFormat;
    int StereoLeftViewFrame0;
    int StereoBaseViewFrame0;
    DXGK_MULTIPLANE_OVERLAY_STEREO_FLIP_MODE StereoFlipMode;
    DXGK_MULTIPLANE_OVERLAY_STRETCH_QUALITY StretchQuality;
    UINT Reserved1;
} DXGK_MULTIPLANE_OVERLAY_ATTRIBUTES2;
PBC_WDK_OFF(DXGK_MULTIPLANE_OVERLAY_ATTRIBUTES2, ColorSpaceType, 64);
PBC_WDK_SIZE(DXGK_MULTIPLANE_OVERLAY_ATTRIBUTES2, 92);

typedef struct _DXGK_MULTIPLANE_OVERLAY_PLANE2 {
    UINT LayerIndex;
    int Enabled;
    UINT AllocationSegment;
    PHYSICAL_ADDRESS AllocationAddress;
    HANDLE hAllocation;
    DXGK_MULTIPLANE_OVERLAY_ATTRIBUTES2 PlaneAttributes;
} DXGK_MULTIPLANE_OVERLAY_PLANE2;
PBC_WDK_OFF(DXGK_MULTIPLANE_OVERLAY_PLANE2, PlaneAttributes, 32);
PBC_WDK_SIZE(DXGK_MULTIPLANE_OVERLAY_PLANE2, 128);

typedef struct _DXGK_MULTIPLANE_OVERLAY_PLANE_WITH_SOURCE {
    HANDLE hAllocation;
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId;
    UINT LayerIndex;
    DXGK_MULTIPLANE_OVERLAY_ATTRIBUTES2 PlaneAttributes;
} DXGK_MULTIPLANE_OVERLAY_PLANE_WITH_SOURCE;
PBC_WDK_OFF(DXGK_MULTIPLANE_OVERLAY_PLANE_WITH_SOURCE, PlaneAttributes, 16);
PBC_WDK_SIZE(DXGK_MULTIPLANE_OVERLAY_PLANE_WITH_SOURCE, 112);

typedef struct _DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT2 {
    UINT PlaneCount;
    DXGK_MULTIPLANE_OVERLAY_PLANE_WITH_SOURCE *pPlanes;
    int Supported;
    DXGK_CHECK_MULTIPLANE_OVERLAY_SUPPORT_RETURN_INFO ReturnInfo;
} DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT2;
PBC_WDK_SIZE(DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT2, 24);

typedef struct _DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY2 {
    UINT ContextCount;
    HANDLE Context[1 + D3DDDI_MAX_BROADCAST_CONTEXT];
    DXGK_SETVIDPNSOURCEADDRESS_FLAGS Flags;
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId;
    UINT PlaneCount;
    DXGK_MULTIPLANE_OVERLAY_PLANE2 *pPlanes;
    UINT Duration;
} DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY2;
PBC_WDK_OFF(DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY2, pPlanes, 544);
PBC_WDK_SIZE(DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY2, 560);

/* Version 3 of the overlay DDIs (WDDM 2.1; the attributes' page gives
 * Windows 10 version 1803, WDDM 2.4, and this is its form): per-plane flip
 * flags, a post-composition transform and HDR metadata. The plane flags are the
 * pages' newest bits (the pages do not say which version added the last);
 * the flip's output flags are the form before the hardware flip queue,
 * which added three bits and DXGKARG_..._OVERLAY3's TargetFlipTime after
 * WDDM 2.7 (docs/wdk-headers.md). */
typedef struct _DXGK_MULTIPLANE_OVERLAY_ATTRIBUTES3 {
    DXGK_MULTIPLANE_OVERLAY_FLAGS Flags;
    RECT SrcRect;
    RECT DstRect;
    RECT ClipRect;
    D3DDDI_ROTATION Rotation;
    DXGK_MULTIPLANE_OVERLAY_BLEND Blend;
    D3DDDI_COLOR_SPACE_TYPE ColorSpaceType;
    DXGK_MULTIPLANE_OVERLAY_STRETCH_QUALITY StretchQuality;
    UINT SDRWhiteLevel; /* nits; 0 means 80 */
    UINT DirtyRectCnt;
    const RECT *pDirtyRects;
} DXGK_MULTIPLANE_OVERLAY_ATTRIBUTES3;
PBC_WDK_OFF(DXGK_MULTIPLANE_OVERLAY_ATTRIBUTES3, SDRWhiteLevel, 68);
PBC_WDK_OFF(DXGK_MULTIPLANE_OVERLAY_ATTRIBUTES3, pDirtyRects, 80);
PBC_WDK_SIZE(DXGK_MULTIPLANE_OVERLAY_ATTRIBUTES3, 88);

typedef struct _DXGK_PLANE_SPECIFIC_INPUT_FLAGS {
    union {
        struct {
            UINT Enabled : 1;
            UINT FlipImmediate : 1;
            UINT FlipOnNextVSync : 1;
            UINT SharedPrimaryTransition : 1;
            UINT IndependentFlipExclusive : 1;
            UINT FlipImmediateNoTearing : 1;
            UINT Reserved : 26;
        };
        UINT Value;
    };
} DXGK_PLANE_SPECIFIC_INPUT_FLAGS;
PBC_WDK_SIZE(DXGK_PLANE_SPECIFIC_INPUT_FLAGS, 4);

typedef struct _DXGK_PLANE_SPECIFIC_OUTPUT_FLAGS {
    union {
        struct {
            UINT FlipConvertedToImmediate : 1;
            UINT PostPresentNeeded : 1;
            UINT HsyncInterruptCompletion : 1;
            UINT Reserved : 29;
        };
        UINT Value;
    };
} DXGK_PLANE_SPECIFIC_OUTPUT_FLAGS;
PBC_WDK_SIZE(DXGK_PLANE_SPECIFIC_OUTPUT_FLAGS, 4);

/* No page lays it out; the plane points to the contexts' through it. */
typedef struct _DXGK_PRIMARYCONTEXTDATA DXGK_PRIMARYCONTEXTDATA;

typedef struct _DXGK_MULTIPLANE_OVERLAY_PLANE3 {
    UINT LayerIndex;
    ULONGLONG PresentId;
    DXGK_PLANE_SPECIFIC_INPUT_FLAGS InputFlags;
    DXGK_PLANE_SPECIFIC_OUTPUT_FLAGS OutputFlags;
    UINT MaxImmediateFlipLine; /* (UINT)-1: never promote a VSync flip */
    UINT ContextCount;
    DXGK_PRIMARYCONTEXTDATA **ppContextData;
    UINT DriverPrivateDataSize;
    PVOID pDriverPrivateData;
    DXGK_MULTIPLANE_OVERLAY_ATTRIBUTES3 PlaneAttributes;
} DXGK_MULTIPLANE_OVERLAY_PLANE3;
PBC_WDK_OFF(DXGK_MULTIPLANE_OVERLAY_PLANE3, PresentId, 8);
PBC_WDK_OFF(DXGK_MULTIPLANE_OVERLAY_PLANE3, ppContextData, 32);
PBC_WDK_OFF(DXGK_MULTIPLANE_OVERLAY_PLANE3, PlaneAttributes, 56);
PBC_WDK_SIZE(DXGK_MULTIPLANE_OVERLAY_PLANE3, 144);

typedef struct _DXGK_MULTIPLANE_OVERLAY_PLANE_WITH_SOURCE2 {
    HANDLE hAllocation;
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId;
    UINT LayerIndex;
    DXGK_MULTIPLANE_OVERLAY_ATTRIBUTES3 PlaneAttributes;
} DXGK_MULTIPLANE_OVERLAY_PLANE_WITH_SOURCE2;
PBC_WDK_SIZE(DXGK_MULTIPLANE_OVERLAY_PLANE_WITH_SOURCE2, 104);

typedef struct _DXGK_MULTIPLANE_OVERLAY_POST_COMPOSITION_FLAGS {
    union {
        struct {
            UINT VerticalFlip : 1;
            UINT HorizontalFlip : 1;
            UINT Reserved : 30;
        };
        UINT Value;
    };
} DXGK_MULTIPLANE_OVERLAY_POST_COMPOSITION_FLAGS;

/* The virtual mode (SrcRect) and where it lands in the physical one. */
typedef struct _DXGK_MULTIPLANE_OVERLAY_POST_COMPOSITION {
    DXGK_MULTIPLANE_OVERLAY_POST_COMPOSITION_FLAGS Flags;
    RECT SrcRect;
    RECT DstRect;
    D3DDDI_ROTATION Rotation;
} DXGK_MULTIPLANE_OVERLAY_POST_COMPOSITION;
PBC_WDK_SIZE(DXGK_MULTIPLANE_OVERLAY_POST_COMPOSITION, 40);

typedef struct _DXGK_MULTIPLANE_OVERLAY_POST_COMPOSITION_WITH_SOURCE {
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId;
    DXGK_MULTIPLANE_OVERLAY_POST_COMPOSITION PostComposition;
} DXGK_MULTIPLANE_OVERLAY_POST_COMPOSITION_WITH_SOURCE;
PBC_WDK_SIZE(DXGK_MULTIPLANE_OVERLAY_POST_COMPOSITION_WITH_SOURCE, 44);

typedef struct _DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT3 {
    UINT PlaneCount;
    DXGK_MULTIPLANE_OVERLAY_PLANE_WITH_SOURCE2 **ppPlanes;
    UINT PostCompositionCount;
    DXGK_MULTIPLANE_OVERLAY_POST_COMPOSITION_WITH_SOURCE **ppPostComposition;
    int Supported;
    DXGK_CHECK_MULTIPLANE_OVERLAY_SUPPORT_RETURN_INFO ReturnInfo;
} DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT3;
PBC_WDK_OFF(DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT3, ppPostComposition, 24);
PBC_WDK_OFF(DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT3, ReturnInfo, 36);
PBC_WDK_SIZE(DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT3, 40);

typedef struct _DXGK_SETVIDPNSOURCEADDRESS_INPUT_FLAGS {
    union {
        struct {
            UINT FlipStereo : 1;
            UINT FlipStereoTemporaryMono : 1;
            UINT FlipStereoPreferRight : 1;
            UINT RetryAtLowerIrql : 1;
            UINT Reserved : 28;
        };
        UINT Value;
    };
} DXGK_SETVIDPNSOURCEADDRESS_INPUT_FLAGS;

typedef struct _DXGK_SETVIDPNSOURCEADDRESS_OUTPUT_FLAGS {
    union {
        struct {
            UINT PrePresentNeeded : 1;
            UINT Reserved : 31;
        };
        UINT Value;
    };
} DXGK_SETVIDPNSOURCEADDRESS_OUTPUT_FLAGS;

/* Its page is d3d10umddi.h's and names only NONE; HDR10 and HDR10PLUS are
 * DXGI_HDR_METADATA_TYPE's numbers for the same names (derived). */
typedef enum D3DDDI_HDR_METADATA_TYPE {
    D3DDDI_HDR_METADATA_TYPE_NONE = 0,
    D3DDDI_HDR_METADATA_TYPE_HDR10 = 1,
    D3DDDI_HDR_METADATA_TYPE_HDR10PLUS = 2
} D3DDDI_HDR_METADATA_TYPE;

typedef struct _DXGK_HDR_METADATA {
    D3DDDI_HDR_METADATA_TYPE Type;
    UINT Size;
    VOID *pMetaData;
} DXGK_HDR_METADATA;
PBC_WDK_SIZE(DXGK_HDR_METADATA, 16);

typedef struct _DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY3 {
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId;
    DXGK_SETVIDPNSOURCEADDRESS_INPUT_FLAGS InputFlags;
    DXGK_SETVIDPNSOURCEADDRESS_OUTPUT_FLAGS OutputFlags;
    UINT PlaneCount;
    DXGK_MULTIPLANE_OVERLAY_PLANE3 **ppPlanes;
    DXGK_MULTIPLANE_OVERLAY_POST_COMPOSITION *pPostComposition; /* NULL: none */
    UINT Duration;
    DXGK_HDR_METADATA *pHDRMetaData; /* NULL: no new metadata */
} DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY3;
PBC_WDK_OFF(DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY3, ppPlanes, 16);
PBC_WDK_OFF(DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY3, pHDRMetaData, 40);
PBC_WDK_SIZE(DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY3, 48);

/* WDDM 2.2: what a source's overlay hardware can do. */
typedef struct _DXGK_MULTIPLANEOVERLAYCAPS {
    union {
        struct {
            UINT Rotation : 1;
            UINT RotationWithoutIndependentFlip : 1;
            UINT VerticalFlip : 1;
            UINT HorizontalFlip : 1;
            UINT StretchRGB : 1;
            UINT StretchYUV : 1;
            UINT BilinearFilter : 1;
            UINT HighFilter : 1;
            UINT Shared : 1;
            UINT Immediate : 1;
            UINT Plane0ForVirtualModeOnly : 1;
            UINT Reserved : 21;
        };
        UINT Value;
    };
} DXGK_MULTIPLANEOVERLAYCAPS;
PBC_WDK_SIZE(DXGK_MULTIPLANEOVERLAYCAPS, 4);

typedef struct _DXGKARG_GETMULTIPLANEOVERLAYCAPS {
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId;
    UINT MaxPlanes;
    UINT MaxRGBPlanes;
    UINT MaxYUVPlanes;
    DXGK_MULTIPLANEOVERLAYCAPS OverlayCaps;
    float MaxStretchFactor;
    float MaxShrinkFactor;
} DXGKARG_GETMULTIPLANEOVERLAYCAPS;
PBC_WDK_OFF(DXGKARG_GETMULTIPLANEOVERLAYCAPS, MaxStretchFactor, 20);
PBC_WDK_SIZE(DXGKARG_GETMULTIPLANEOVERLAYCAPS, 28);

/* Colorimetry overrides (WDDM 2.2; DxgkDdiSetTargetAdjustedColorimetry
 * takes one by value). D3DKMDT_2DOFFSET is d3dkmdt.h's alias of
 * D3DKMDT_2DREGION, two UINTs: a point whose coordinates are 10-bit. */
typedef enum _D3DKMDT_MODE_PREFERENCE {
    D3DKMDT_MP_UNINITIALIZED,
    D3DKMDT_MP_PREFERRED,
    D3DKMDT_MP_NOTPREFERRED
} D3DKMDT_MODE_PREFERENCE;

typedef struct _D3DKMDT_2DREGION {
    UINT cx;
    UINT cy;
} D3DKMDT_2DREGION;
typedef D3DKMDT_2DREGION D3DKMDT_2DOFFSET;

typedef union _D3DKMDT_WIRE_FORMAT_AND_PREFERENCE {
    struct {
        D3DKMDT_MODE_PREFERENCE Preference : 2;
        UINT Rgb : 6;
        UINT YCbCr444 : 6;
        UINT YCbCr422 : 6;
        UINT YCbCr420 : 6;
        UINT Intensity : 6;
    };
    UINT Value;
} D3DKMDT_WIRE_FORMAT_AND_PREFERENCE, *PD3DKMDT_WIRE_FORMAT_AND_PREFERENCE;
PBC_WDK_SIZE(D3DKMDT_WIRE_FORMAT_AND_PREFERENCE, 4);

typedef union _DXGK_STANDARD_COLORIMETRY_FLAGS {
    struct {
        UINT BT2020YCC : 1;
        UINT BT2020RGB : 1;
        UINT ST2084 : 1;
        UINT Reserved : 29;
    };
    ULONG Value;
} DXGK_STANDARD_COLORIMETRY_FLAGS, *PDXGK_STANDARD_COLORIMETRY_FLAGS;

typedef struct _DXGK_COLORIMETRY {
    D3DKMDT_2DOFFSET RedPoint;
    D3DKMDT_2DOFFSET GreenPoint;
    D3DKMDT_2DOFFSET BluePoint;
    D3DKMDT_2DOFFSET WhitePoint;
    ULONG MinLuminance;
    ULONG MaxLuminance;
    ULONG MaxFullFrameLuminance;
    D3DKMDT_WIRE_FORMAT_AND_PREFERENCE FormatBitDepths;
    DXGK_STANDARD_COLORIMETRY_FLAGS StandardColorimetryFlags;
} DXGK_COLORIMETRY, *PDXGK_COLORIMETRY;
PBC_WDK_OFF(DXGK_COLORIMETRY, MinLuminance, 32);
PBC_WDK_SIZE(DXGK_COLORIMETRY, 52);

/* WDDM 2.1: the checks before an allocation's properties change, and the
 * mode behaviours the OS asks for (the same flags for the request and the
 * two answers), from their pages. */
typedef struct _DXGKARG_VALIDATEUPDATEALLOCPROPERTY {
    HANDLE hAllocation;
    UINT SupportedSegmentSet;
    D3DDDI_SEGMENTPREFERENCE PreferredSegment;
    D3DDDI_UPDATEALLOCPROPERTY_FLAGS Flags;
    union {
        struct {
            UINT SetAccessedPhysically : 1;
            UINT SetSupportedSegmentSet : 1;
            UINT SetPreferredSegment : 1;
            UINT Reserved : 29;
        };
        UINT PropertyMaskValue;
    };
} DXGKARG_VALIDATEUPDATEALLOCPROPERTY;
PBC_WDK_OFF(DXGKARG_VALIDATEUPDATEALLOCPROPERTY, PreferredSegment, 12);
PBC_WDK_OFF(DXGKARG_VALIDATEUPDATEALLOCPROPERTY, PropertyMaskValue, 20);
PBC_WDK_SIZE(DXGKARG_VALIDATEUPDATEALLOCPROPERTY, 24);

typedef union _DXGK_MODE_BEHAVIOR_FLAGS {
    struct {
        UINT PrioritizeHDR : 1;
        UINT ColorimetricControl : 1;
        UINT Reserved : 30;
    };
    UINT Value;
} DXGK_MODE_BEHAVIOR_FLAGS;

typedef struct _DXGKARG_CONTROLMODEBEHAVIOR {
    DXGK_MODE_BEHAVIOR_FLAGS Request;
    DXGK_MODE_BEHAVIOR_FLAGS Satisfied;
    DXGK_MODE_BEHAVIOR_FLAGS NotSatisfied;
} DXGKARG_CONTROLMODEBEHAVIOR;
PBC_WDK_SIZE(DXGKARG_CONTROLMODEBEHAVIOR, 12);

/* WDDM 2.6 hot update: the OS asks the old driver to save (or cancels),
 * then hands each saved block to the new one before StartDevice. */
typedef struct _DXGK_SAVEMEMORYFORHOTUPDATEFLAGS {
    union {
        struct {
            UINT CancelHotUpdate : 1;
            UINT Reserved : 31;
        };
        UINT Value;
    };
} DXGK_SAVEMEMORYFORHOTUPDATEFLAGS;

typedef struct _DXGKARG_SAVEMEMORYFORHOTUPDATE {
    DXGK_SAVEMEMORYFORHOTUPDATEFLAGS Flags;
} DXGKARG_SAVEMEMORYFORHOTUPDATE;
PBC_WDK_SIZE(DXGKARG_SAVEMEMORYFORHOTUPDATE, 4);

typedef struct _DXGK_RESTOREMEMORYFORHOTUPDATEFLAGS {
    union {
        struct {
            UINT RestoreComplete : 1;
            UINT Reserved : 31;
        };
        UINT Value;
    };
} DXGK_RESTOREMEMORYFORHOTUPDATEFLAGS;

typedef struct _DXGKARG_RESTOREMEMORYFORHOTUPDATE {
    DXGK_RESTOREMEMORYFORHOTUPDATEFLAGS Flags;
    PMDL pDataMdl; /* the driver owns it once it returns success */
    UINT MetaDataSize;
    PVOID pMetaData;
} DXGKARG_RESTOREMEMORYFORHOTUPDATE;
PBC_WDK_OFF(DXGKARG_RESTOREMEMORYFORHOTUPDATE, pDataMdl, 8);
PBC_WDK_OFF(DXGKARG_RESTOREMEMORYFORHOTUPDATE, pMetaData, 24);
PBC_WDK_SIZE(DXGKARG_RESTOREMEMORYFORHOTUPDATE, 32);

/* WDDM 2.5 (dispmprt.h on its page): the colorimetry with the SDR white
 * level, in nits, that SDR content is to be raised to. */
typedef struct _DXGKARG_SETTARGETADJUSTEDCOLORIMETRY2 {
    D3DDDI_VIDEO_PRESENT_TARGET_ID TargetId;
    DXGK_COLORIMETRY AdjustedColorimetry;
    UINT SdrWhiteLevel;
} DXGKARG_SETTARGETADJUSTEDCOLORIMETRY2, *PDXGKARG_SETTARGETADJUSTEDCOLORIMETRY2;
PBC_WDK_OFF(DXGKARG_SETTARGETADJUSTEDCOLORIMETRY2, SdrWhiteLevel, 56);
PBC_WDK_SIZE(DXGKARG_SETTARGETADJUSTEDCOLORIMETRY2, 60);

/* WDDM 2.1: what the OS means to do with a monitor, and what the driver
 * can do for it on its link (d3dkmdt.h on the flags' pages). The
 * capabilities are the page's newest bits; the page shows four older forms
 * with fewer, without saying which version added which (the layout, one
 * UINT, is the same). */
typedef union _DXGK_MONITORLINKINFO_USAGEHINTS {
    struct {
        UINT Hidden : 1;
        UINT HeadMounted : 1;
        UINT Reserved : 30;
    };
    UINT Value;
} DXGK_MONITORLINKINFO_USAGEHINTS, *PDXGK_MONITORLINKINFO_USAGEHINTS;

typedef union _DXGK_MONITORLINKINFO_CAPABILITIES {
    struct {
        UINT Stereo : 1;
        UINT WideColorSpace : 1;
        UINT HighColorSpace : 1;
        UINT DynamicColorSpace : 1;
        UINT DynamicBitsPerColorChannel : 1;
        UINT DynamicColorEncodingFormat : 1;
        UINT DedicatedTimingGeneration : 1;
        UINT TargetIndependentPrimary : 1;
        UINT SyncLockIdentical : 1;
        UINT Hdr10Plus : 1;
        UINT DolbyVisionLowLatency : 1;
        UINT VariableRefresh : 1;
        UINT Reserved : 20;
    };
    UINT Value;
} DXGK_MONITORLINKINFO_CAPABILITIES, *PDXGK_MONITORLINKINFO_CAPABILITIES;
PBC_WDK_SIZE(DXGK_MONITORLINKINFO_CAPABILITIES, 4);

typedef struct _DXGK_MONITORLINKINFO {
    DXGK_MONITORLINKINFO_USAGEHINTS UsageHints;
    DXGK_MONITORLINKINFO_CAPABILITIES Capabilities;
    D3DKMDT_WIRE_FORMAT_AND_PREFERENCE DitheringSupport;
} DXGK_MONITORLINKINFO;
PBC_WDK_SIZE(DXGK_MONITORLINKINFO, 12);

typedef struct _DXGKARG_UPDATEMONITORLINKINFO {
    D3DDDI_VIDEO_PRESENT_TARGET_ID VideoPresentTargetId;
    DXGK_MONITORLINKINFO MonitorLinkInfo;
} DXGKARG_UPDATEMONITORLINKINFO;
PBC_WDK_OFF(DXGKARG_UPDATEMONITORLINKINFO, MonitorLinkInfo, 4);
PBC_WDK_SIZE(DXGKARG_UPDATEMONITORLINKINFO, 16);

/* The per-target display settings of WDDM 2.2 (gamma, content
 * type, analog copy protection), from their pages. The enumerations' pages
 * list names without numbers: C's, 0 upwards (docs/wdk-headers.md). */
typedef struct _D3DDDI_GAMMA_RAMP_RGB256x3x16 D3DDDI_GAMMA_RAMP_RGB256x3x16;
typedef struct _D3DDDI_GAMMA_RAMP_DXGI_1 D3DDDI_GAMMA_RAMP_DXGI_1;
typedef struct _D3DKMDT_3x4_COLORSPACE_TRANSFORM D3DKMDT_3x4_COLORSPACE_TRANSFORM;
typedef struct _D3DKMDT_COLORSPACE_TRANSFORM_MATRIX_V2 D3DKMDT_COLORSPACE_TRANSFORM_MATRIX_V2;

typedef struct _D3DKMDT_GAMMA_RAMP {
    D3DDDI_GAMMARAMP_TYPE Type;
    SIZE_T DataSize;
    union {
        D3DDDI_GAMMA_RAMP_RGB256x3x16 *pRgb256x3x16;
        D3DDDI_GAMMA_RAMP_DXGI_1 *pDxgi1;
        D3DKMDT_3x4_COLORSPACE_TRANSFORM *p3x4;
        D3DKMDT_COLORSPACE_TRANSFORM_MATRIX_V2 *pMatrixV2;
        VOID *pRaw;
    } Data;
} D3DKMDT_GAMMA_RAMP;
PBC_WDK_OFF(D3DKMDT_GAMMA_RAMP, Data, 16);
PBC_WDK_SIZE(D3DKMDT_GAMMA_RAMP, 24);

typedef struct _DXGKARG_SETTARGETGAMMA {
    D3DDDI_VIDEO_PRESENT_TARGET_ID TargetId;
    D3DKMDT_GAMMA_RAMP GammaRamp;
} DXGKARG_SETTARGETGAMMA;
PBC_WDK_OFF(DXGKARG_SETTARGETGAMMA, GammaRamp, 8);
PBC_WDK_SIZE(DXGKARG_SETTARGETGAMMA, 32);

/* NOTSPECIFIED, the page's fourth name, is not defined: drivers compare
 * against it, and no page gives its number. */
typedef enum _D3DKMDT_VIDPN_PRESENT_PATH_CONTENT {
    D3DKMDT_VPPC_UNINITIALIZED = 0,
    D3DKMDT_VPPC_GRAPHICS = 1,
    D3DKMDT_VPPC_VIDEO = 2
} D3DKMDT_VIDPN_PRESENT_PATH_CONTENT;

typedef struct _DXGKARG_SETTARGETCONTENTTYPE {
    D3DDDI_VIDEO_PRESENT_TARGET_ID TargetId;
    D3DKMDT_VIDPN_PRESENT_PATH_CONTENT ContentType;
} DXGKARG_SETTARGETCONTENTTYPE;
PBC_WDK_SIZE(DXGKARG_SETTARGETCONTENTTYPE, 8);

typedef enum _D3DKMDT_VIDPN_PRESENT_PATH_COPYPROTECTION_TYPE {
    D3DKMDT_VPPMT_UNINITIALIZED,
    D3DKMDT_VPPMT_NOPROTECTION,
    D3DKMDT_VPPMT_MACROVISION_APSTRIGGER,
    D3DKMDT_VPPMT_MACROVISION_FULLSUPPORT
} D3DKMDT_VIDPN_PRESENT_PATH_COPYPROTECTION_TYPE;

typedef struct _D3DKMDT_VIDPN_PRESENT_PATH_COPYPROTECTION_SUPPORT {
    UINT NoProtection : 1;
    UINT MacroVisionApsTrigger : 1;
    UINT MacroVisionFull : 1;
    UINT Reserved : 29;
} D3DKMDT_VIDPN_PRESENT_PATH_COPYPROTECTION_SUPPORT;
PBC_WDK_SIZE(D3DKMDT_VIDPN_PRESENT_PATH_COPYPROTECTION_SUPPORT, 4);

typedef struct _DXGKARG_SETTARGETANALOGCOPYPROTECTION {
    D3DDDI_VIDEO_PRESENT_TARGET_ID TargetId;
    D3DKMDT_VIDPN_PRESENT_PATH_COPYPROTECTION_TYPE CopyProtectionType;
    UINT APSTriggerBits; /* 0 none, 1 to 3 low to high */
    D3DKMDT_VIDPN_PRESENT_PATH_COPYPROTECTION_SUPPORT CopyProtectionSupport;
} DXGKARG_SETTARGETANALOGCOPYPROTECTION;
PBC_WDK_SIZE(DXGKARG_SETTARGETANALOGCOPYPROTECTION, 16);

/* Laid out from their pages (docs/wdk-headers.md). */
typedef struct _DXGKARG_CREATEHWQUEUE {
    HANDLE hHwQueue; /* in: Dxgkrnl's handle; out: the driver's */
    D3DDDI_CREATEHWQUEUEFLAGS Flags;
    UINT PrivateDriverDataSize;
    VOID *pPrivateDriverData;
    D3DKMT_HANDLE hHwQueueProgressFence;
    VOID *HwQueueProgressFenceCPUVirtualAddress;
    D3DGPU_VIRTUAL_ADDRESS HwQueueProgressFenceGPUVirtualAddress;
} DXGKARG_CREATEHWQUEUE;
PBC_WDK_OFF(DXGKARG_CREATEHWQUEUE, pPrivateDriverData, 16);
PBC_WDK_OFF(DXGKARG_CREATEHWQUEUE, HwQueueProgressFenceGPUVirtualAddress, 40);
PBC_WDK_SIZE(DXGKARG_CREATEHWQUEUE, 48);

typedef enum _DXGK_DISPLAYDETECTCONTROLTYPE {
    DXGK_DDCT_UNINITIALIZED = 0,
    DXGK_DDCT_POLLONE,
    DXGK_DDCT_POLLALL,
    DXGK_DDCT_ENABLEHPD,
    DXGK_DDCT_DISABLEHPD
} DXGK_DISPLAYDETECTCONTROLTYPE;

/* Bit-fields of a UINT typedef and a 4-byte enum packed in one 32-bit
 * unit, by MSVC's rules and the System V ABI's alike. */
typedef struct _DXGKARG_DISPLAYDETECTCONTROL {
    D3DDDI_VIDEO_PRESENT_TARGET_ID TargetId : 24;
    DXGK_DISPLAYDETECTCONTROLTYPE Type : 4;
    UINT NonDestructiveOnly : 1;
    UINT Reserved : 3;
} DXGKARG_DISPLAYDETECTCONTROL;
PBC_WDK_SIZE(DXGKARG_DISPLAYDETECTCONTROL, 4);

typedef struct _DXGKARG_BEGINEXCLUSIVEACCESS {
    UINT Reserved;
} DXGKARG_BEGINEXCLUSIVEACCESS;

typedef struct _DXGKARG_ENDEXCLUSIVEACCESS {
    UINT Reserved;
} DXGKARG_ENDEXCLUSIVEACCESS;

typedef struct _DXGK_TRACKEDWORKLOAD_STATE_FLAGS {
    union {
        struct {
            UINT Saturated : 1;
            UINT OptimalLevel : 1;
            UINT Reserved : 30;
        };
        UINT Value;
    };
} DXGK_TRACKEDWORKLOAD_STATE_FLAGS;

typedef struct _DXGKARG_SETTRACKEDWORKLOADPOWERLEVEL {
    UINT PowerLevel;          /* 0 to 100 */
    UINT EffectivePowerLevel; /* out */
    DXGK_TRACKEDWORKLOAD_STATE_FLAGS Flags;
} DXGKARG_SETTRACKEDWORKLOADPOWERLEVEL;
PBC_WDK_SIZE(DXGKARG_SETTRACKEDWORKLOADPOWERLEVEL, 12);

typedef struct _DXGKARG_CREATEPROTECTEDSESSION {
    HANDLE hProtectedSession;
    PVOID pPrivateDriverData;
    UINT PrivateDriverDataSize;
} DXGKARG_CREATEPROTECTEDSESSION;
PBC_WDK_SIZE(DXGKARG_CREATEPROTECTEDSESSION, 24);

/* WDDM 2.5 (the DDI's release, RS5): the scheduling log the GPU writes,
 * a header then a ring of 32-byte entries. The two enumerations' pages name
 * their constants without numbers: these are C's, 0 upwards
 * (docs/wdk-headers.md). */
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_5
typedef enum _DXGK_SCHEDULING_LOG_OPERATION {
    DXGK_SCHEDULING_LOG_OPERATION_CONTEXT_STATE_CHANGE
} DXGK_SCHEDULING_LOG_OPERATION;

typedef enum _DXGK_SCHEDULING_LOG_CONTEXT_STATE {
    DXGK_SCHEDULING_LOG_CONTEXT_STATE_IDLE,
    DXGK_SCHEDULING_LOG_CONTEXT_STATE_RUNNING,
    DXGK_SCHEDULING_LOG_CONTEXT_STATE_READY,
    DXGK_SCHEDULING_LOG_CONTEXT_STATE_READY_STANDBY
} DXGK_SCHEDULING_LOG_CONTEXT_STATE;

typedef struct _DXGK_SCHEDULING_LOG_CONTEXT_STATE_CHANGE {
    HANDLE hKmdContext;
    DXGK_SCHEDULING_LOG_CONTEXT_STATE newContextState;
} DXGK_SCHEDULING_LOG_CONTEXT_STATE_CHANGE;

/* The GPU advances the index and the wrap count together, so they share
 * one 64-bit word it can update atomically. */
typedef struct _DXGK_SCHEDULING_LOG_HEADER {
    union {
        struct {
            UINT32 FirstFreeEntryIndex;
            UINT32 WraparoundCount;
        };
        ULARGE_INTEGER AtomicWraparoundAndEntryIndex;
    };
    UINT64 NumberOfEntries;
    UINT64 Reserved[2];
} DXGK_SCHEDULING_LOG_HEADER;

typedef struct _DXGK_SCHEDULING_LOG_ENTRY {
    UINT64 GpuTimeStamp;
    UINT OperationType : 32; /* a DXGK_SCHEDULING_LOG_OPERATION */
    UINT ReservedOperationTypeBits : 32;
    union {
        DXGK_SCHEDULING_LOG_CONTEXT_STATE_CHANGE ContextStateChange;
        UINT64 ReservedOperationData[2];
    };
} DXGK_SCHEDULING_LOG_ENTRY;

/* Entries[1] is the first of NumberOfEntries. */
typedef struct _DXGK_SCHEDULING_LOG_BUFFER {
    DXGK_SCHEDULING_LOG_HEADER Header;
    DXGK_SCHEDULING_LOG_ENTRY Entries[1];
} DXGK_SCHEDULING_LOG_BUFFER;
#else
typedef struct _DXGK_SCHEDULING_LOG_BUFFER DXGK_SCHEDULING_LOG_BUFFER;
#endif

typedef struct _DXGKARG_SETSCHEDULINGLOGBUFFER {
    UINT NodeOrdinal;
    UINT EngineOrdinal;
    UINT NumberOfEntries;
    DXGK_SCHEDULING_LOG_BUFFER *LogBufferCpuVa;
    D3DGPU_VIRTUAL_ADDRESS LogBufferGpuVa;
    UINT InterruptEntry;
} DXGKARG_SETSCHEDULINGLOGBUFFER;
PBC_WDK_OFF(DXGKARG_SETSCHEDULINGLOGBUFFER, LogBufferCpuVa, 16);
PBC_WDK_OFF(DXGKARG_SETSCHEDULINGLOGBUFFER, InterruptEntry, 32);
PBC_WDK_SIZE(DXGKARG_SETSCHEDULINGLOGBUFFER, 40);

typedef struct _DXGKARG_RESUMEHWENGINE {
    UINT NodeOrdinal;
    UINT EngineOrdinal;
} DXGKARG_RESUMEHWENGINE;

/* ---- Argument types as the DDI prototypes spell them ---- */
/* IN_CONST_PVOID is the pointer made const (VOID *const), not a pointer
 * to const: drivers cast it straight to their adapter type. */
typedef VOID *const IN_CONST_PVOID;
typedef VOID *IN_PVOID;
typedef ULONG *OUT_PULONG;
typedef ULONG IN_ULONG;
typedef UINT IN_UINT;
typedef BOOLEAN IN_BOOLEAN;
typedef const BOOLEAN IN_CONST_BOOLEAN;
typedef const DXGK_INTERRUPT_TYPE IN_CONST_DXGK_INTERRUPT_TYPE;
typedef const D3DDDI_VIDEO_PRESENT_SOURCE_ID IN_CONST_D3DDDI_VIDEO_PRESENT_SOURCE_ID;
typedef const D3DDDI_VIDEO_PRESENT_TARGET_ID IN_CONST_D3DDDI_VIDEO_PRESENT_TARGET_ID;
typedef const D3DKMDT_HVIDPN IN_CONST_D3DKMDT_HVIDPN;
typedef const DXGKARG_PATCH *IN_CONST_PDXGKARG_PATCH;
typedef const DXGKARG_SUBMITCOMMAND *IN_CONST_PDXGKARG_SUBMITCOMMAND;
typedef const DXGKARG_BUILDPAGINGBUFFER *IN_CONST_PDXGKARG_BUILDPAGINGBUFFER;
typedef DXGKARG_CREATEALLOCATION *INOUT_PDXGKARG_CREATEALLOCATION;
typedef const DXGKARG_DESTROYALLOCATION *IN_CONST_PDXGKARG_DESTROYALLOCATION;
typedef DXGKARG_DESCRIBEALLOCATION *INOUT_PDXGKARG_DESCRIBEALLOCATION;
typedef DXGKARG_OPENALLOCATION *INOUT_PDXGKARG_OPENALLOCATION;
typedef const DXGKARG_OPENALLOCATION *IN_CONST_PDXGKARG_OPENALLOCATION;
typedef const DXGKARG_CLOSEALLOCATION *IN_CONST_PDXGKARG_CLOSEALLOCATION;
typedef DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA *INOUT_PDXGKARG_GETSTANDARDALLOCATIONDRIVERDATA;
typedef DXGKARG_ACQUIRESWIZZLINGRANGE *INOUT_PDXGKARG_ACQUIRESWIZZLINGRANGE;
typedef const DXGKARG_RELEASESWIZZLINGRANGE *IN_CONST_PDXGKARG_RELEASESWIZZLINGRANGE;
typedef DXGKARG_CREATEDEVICE *INOUT_PDXGKARG_CREATEDEVICE;
typedef DXGKARG_CREATECONTEXT *INOUT_PDXGKARG_CREATECONTEXT;
typedef const DXGKARG_PREEMPTCOMMAND *IN_CONST_PDXGKARG_PREEMPTCOMMAND;
typedef const DXGKARG_SETPALETTE *IN_CONST_PDXGKARG_SETPALETTE;
typedef const DXGKARG_SETPOINTERPOSITION *IN_CONST_PDXGKARG_SETPOINTERPOSITION;
typedef const DXGKARG_SETPOINTERSHAPE *IN_CONST_PDXGKARG_SETPOINTERSHAPE;
typedef const DXGKARG_ESCAPE *IN_CONST_PDXGKARG_ESCAPE;
typedef const DXGKARG_COLLECTDBGINFO *IN_CONST_PDXGKARG_COLLECTDBGINFO;
typedef DXGKARG_QUERYCURRENTFENCE *INOUT_PDXGKARG_QUERYCURRENTFENCE;
typedef DXGKARG_ISSUPPORTEDVIDPN *INOUT_PDXGKARG_ISSUPPORTEDVIDPN;
typedef const DXGKARG_RECOMMENDFUNCTIONALVIDPN *IN_CONST_PDXGKARG_RECOMMENDFUNCTIONALVIDPN;
typedef const DXGKARG_ENUMVIDPNCOFUNCMODALITY *IN_CONST_PDXGKARG_ENUMVIDPNCOFUNCMODALITY;
typedef const DXGKARG_SETVIDPNSOURCEADDRESS *IN_CONST_PDXGKARG_SETVIDPNSOURCEADDRESS;
typedef const DXGKARG_SETVIDPNSOURCEVISIBILITY *IN_CONST_PDXGKARG_SETVIDPNSOURCEVISIBILITY;
typedef const DXGKARG_COMMITVIDPN *IN_CONST_PDXGKARG_COMMITVIDPN;
typedef const DXGKARG_UPDATEACTIVEVIDPNPRESENTPATH *IN_CONST_PDXGKARG_UPDATEACTIVEVIDPNPRESENTPATH;
typedef const DXGKARG_RECOMMENDMONITORMODES *IN_CONST_PDXGKARG_RECOMMENDMONITORMODES;
typedef const DXGKARG_RECOMMENDVIDPNTOPOLOGY *IN_CONST_PDXGKARG_RECOMMENDVIDPNTOPOLOGY;
typedef DXGKARG_GETSCANLINE *INOUT_PDXGKARG_GETSCANLINE;
typedef const DXGKARG_STOPCAPTURE *IN_CONST_PDXGKARG_STOPCAPTURE;
typedef DXGKARG_CREATEOVERLAY *INOUT_PDXGKARG_CREATEOVERLAY;
typedef const DXGKARG_UPDATEOVERLAY *IN_CONST_PDXGKARG_UPDATEOVERLAY;
typedef const DXGKARG_FLIPOVERLAY *IN_CONST_PDXGKARG_FLIPOVERLAY;
typedef DXGKARG_SETDISPLAYPRIVATEDRIVERFORMAT *INOUT_PDXGKARG_SETDISPLAYPRIVATEDRIVERFORMAT;
typedef DXGKARG_QUERYVIDPNHWCAPABILITY *INOUT_PDXGKARG_QUERYVIDPNHWCAPABILITY;
typedef DXGKARG_QUERYDEPENDENTENGINEGROUP *INOUT_DXGKARG_QUERYDEPENDENTENGINEGROUP;
typedef DXGKARG_QUERYENGINESTATUS *INOUT_PDXGKARG_QUERYENGINESTATUS;
typedef DXGKARG_RESETENGINE *INOUT_PDXGKARG_RESETENGINE;
typedef const DXGKARG_CANCELCOMMAND *IN_CONST_PDXGKARG_CANCELCOMMAND;
typedef DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY *IN_PDXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY;
typedef const DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY
    *IN_CONST_PDXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY;

typedef NTSTATUS APIENTRY DXGKDDI_QUERYADAPTERINFO(IN_CONST_HANDLE hAdapter,
                                                   IN_CONST_PDXGKARG_QUERYADAPTERINFO pQueryAdapterInfo);
typedef NTSTATUS APIENTRY DXGKDDI_RENDER(IN_CONST_HANDLE hContext, INOUT_PDXGKARG_RENDER pRender);
typedef NTSTATUS APIENTRY DXGKDDI_PRESENT(IN_CONST_HANDLE hContext, INOUT_PDXGKARG_PRESENT pPresent);
typedef DXGKDDI_QUERYADAPTERINFO *PDXGKDDI_QUERYADAPTERINFO;
typedef DXGKDDI_RENDER *PDXGKDDI_RENDER;
typedef DXGKDDI_PRESENT *PDXGKDDI_PRESENT;
typedef DXGKDDI_PATCH *PDXGKDDI_PATCH;
typedef DXGKDDI_SUBMITCOMMAND *PDXGKDDI_SUBMITCOMMAND;
typedef DXGKDDI_BUILDPAGINGBUFFER *PDXGKDDI_BUILDPAGINGBUFFER;

/* ---- DDI function types (each also as a PDXGKDDI_ pointer type) ---- */
typedef NTSTATUS APIENTRY DXGKDDI_CREATEDEVICE(IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_CREATEDEVICE pCreateDevice);
typedef NTSTATUS APIENTRY DXGKDDI_CREATEALLOCATION(IN_CONST_HANDLE hAdapter,
                                                   INOUT_PDXGKARG_CREATEALLOCATION pCreateAllocation);
typedef NTSTATUS APIENTRY DXGKDDI_DESTROYALLOCATION(IN_CONST_HANDLE hAdapter,
                                                    IN_CONST_PDXGKARG_DESTROYALLOCATION pDestroyAllocation);
typedef NTSTATUS APIENTRY DXGKDDI_DESCRIBEALLOCATION(IN_CONST_HANDLE hAdapter,
                                                     INOUT_PDXGKARG_DESCRIBEALLOCATION pDescribeAllocation);
typedef NTSTATUS APIENTRY DXGKDDI_GETSTANDARDALLOCATIONDRIVERDATA(
    IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_GETSTANDARDALLOCATIONDRIVERDATA pGetStandardAllocationDriverData);
typedef NTSTATUS APIENTRY DXGKDDI_ACQUIRESWIZZLINGRANGE(IN_CONST_HANDLE hAdapter,
                                                        INOUT_PDXGKARG_ACQUIRESWIZZLINGRANGE pAcquireSwizzlingRange);
typedef NTSTATUS APIENTRY DXGKDDI_RELEASESWIZZLINGRANGE(
    IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_RELEASESWIZZLINGRANGE pReleaseSwizzlingRange);
typedef NTSTATUS APIENTRY DXGKDDI_PREEMPTCOMMAND(IN_CONST_HANDLE hAdapter,
                                                 IN_CONST_PDXGKARG_PREEMPTCOMMAND pPreemptCommand);
typedef NTSTATUS APIENTRY DXGKDDI_SETPALETTE(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_SETPALETTE pSetPalette);
typedef NTSTATUS APIENTRY DXGKDDI_SETPOINTERPOSITION(IN_CONST_HANDLE hAdapter,
                                                     IN_CONST_PDXGKARG_SETPOINTERPOSITION pSetPointerPosition);
typedef NTSTATUS APIENTRY DXGKDDI_SETPOINTERSHAPE(IN_CONST_HANDLE hAdapter,
                                                  IN_CONST_PDXGKARG_SETPOINTERSHAPE pSetPointerShape);
typedef NTSTATUS APIENTRY DXGKDDI_RESETFROMTIMEOUT(IN_CONST_HANDLE hAdapter);
typedef NTSTATUS APIENTRY DXGKDDI_RESTARTFROMTIMEOUT(IN_CONST_HANDLE hAdapter);
typedef NTSTATUS APIENTRY DXGKDDI_ESCAPE(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_ESCAPE pEscape);
typedef NTSTATUS APIENTRY DXGKDDI_COLLECTDBGINFO(IN_CONST_HANDLE hAdapter,
                                                 IN_CONST_PDXGKARG_COLLECTDBGINFO pCollectDbgInfo);
typedef NTSTATUS APIENTRY DXGKDDI_QUERYCURRENTFENCE(IN_CONST_HANDLE hAdapter,
                                                    INOUT_PDXGKARG_QUERYCURRENTFENCE pCurrentFence);
typedef NTSTATUS APIENTRY DXGKDDI_ISSUPPORTEDVIDPN(IN_CONST_HANDLE hAdapter,
                                                   INOUT_PDXGKARG_ISSUPPORTEDVIDPN pIsSupportedVidPn);
typedef NTSTATUS APIENTRY DXGKDDI_RECOMMENDFUNCTIONALVIDPN(
    IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_RECOMMENDFUNCTIONALVIDPN pRecommendFunctionalVidPn);
typedef NTSTATUS APIENTRY DXGKDDI_ENUMVIDPNCOFUNCMODALITY(
    IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_ENUMVIDPNCOFUNCMODALITY pEnumCofuncModality);
typedef NTSTATUS APIENTRY DXGKDDI_SETVIDPNSOURCEADDRESS(IN_CONST_HANDLE hAdapter,
                                                        IN_CONST_PDXGKARG_SETVIDPNSOURCEADDRESS pSetVidPnSourceAddress);
typedef NTSTATUS APIENTRY DXGKDDI_SETVIDPNSOURCEVISIBILITY(
    IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_SETVIDPNSOURCEVISIBILITY pSetVidPnSourceVisibility);
typedef NTSTATUS APIENTRY DXGKDDI_COMMITVIDPN(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_COMMITVIDPN pCommitVidPn);
typedef NTSTATUS APIENTRY DXGKDDI_UPDATEACTIVEVIDPNPRESENTPATH(
    IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_UPDATEACTIVEVIDPNPRESENTPATH pUpdateActiveVidPnPresentPath);
typedef NTSTATUS APIENTRY DXGKDDI_RECOMMENDMONITORMODES(IN_CONST_HANDLE hAdapter,
                                                       IN_CONST_PDXGKARG_RECOMMENDMONITORMODES pRecommendMonitorModes);
typedef NTSTATUS APIENTRY DXGKDDI_RECOMMENDVIDPNTOPOLOGY(
    IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_RECOMMENDVIDPNTOPOLOGY pRecommendVidPnTopology);
typedef NTSTATUS APIENTRY DXGKDDI_GETSCANLINE(IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_GETSCANLINE pGetScanLine);
typedef NTSTATUS APIENTRY DXGKDDI_STOPCAPTURE(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_STOPCAPTURE pStopCapture);
typedef NTSTATUS APIENTRY DXGKDDI_CONTROLINTERRUPT(IN_CONST_HANDLE hAdapter,
                                                   IN_CONST_DXGK_INTERRUPT_TYPE InterruptType,
                                                   IN_BOOLEAN EnableInterrupt);
typedef NTSTATUS APIENTRY DXGKDDI_CREATEOVERLAY(IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_CREATEOVERLAY pCreateOverlay);
typedef NTSTATUS APIENTRY DXGKDDI_DESTROYDEVICE(IN_CONST_HANDLE hDevice);
typedef NTSTATUS APIENTRY DXGKDDI_OPENALLOCATIONINFO(IN_CONST_HANDLE hDevice,
                                                     IN_CONST_PDXGKARG_OPENALLOCATION pOpenAllocation);
typedef NTSTATUS APIENTRY DXGKDDI_CLOSEALLOCATION(IN_CONST_HANDLE hDevice,
                                                  IN_CONST_PDXGKARG_CLOSEALLOCATION pCloseAllocation);
typedef NTSTATUS APIENTRY DXGKDDI_UPDATEOVERLAY(IN_CONST_HANDLE hOverlay, IN_CONST_PDXGKARG_UPDATEOVERLAY pUpdateOverlay);
typedef NTSTATUS APIENTRY DXGKDDI_FLIPOVERLAY(IN_CONST_HANDLE hOverlay, IN_CONST_PDXGKARG_FLIPOVERLAY pFlipOverlay);
typedef NTSTATUS APIENTRY DXGKDDI_DESTROYOVERLAY(IN_CONST_HANDLE hOverlay);
typedef NTSTATUS APIENTRY DXGKDDI_CREATECONTEXT(IN_CONST_HANDLE hDevice, INOUT_PDXGKARG_CREATECONTEXT pCreateContext);
typedef NTSTATUS APIENTRY DXGKDDI_DESTROYCONTEXT(IN_CONST_HANDLE hContext);
typedef NTSTATUS APIENTRY DXGKDDI_SETDISPLAYPRIVATEDRIVERFORMAT(
    IN_CONST_HANDLE hDevice, INOUT_PDXGKARG_SETDISPLAYPRIVATEDRIVERFORMAT pSetDisplayPrivateDriverFormat);
typedef NTSTATUS APIENTRY DXGKDDI_RENDERKM(IN_CONST_HANDLE hContext, INOUT_PDXGKARG_RENDER pRenderKmd);
typedef NTSTATUS APIENTRY DXGKDDI_QUERYVIDPNHWCAPABILITY(IN_CONST_HANDLE hAdapter,
                                                         INOUT_PDXGKARG_QUERYVIDPNHWCAPABILITY pVidPnHWCaps);
typedef NTSTATUS APIENTRY DXGKDDISETPOWERCOMPONENTFSTATE(IN_CONST_HANDLE DriverContext, UINT ComponentIndex,
                                                         UINT FState);
typedef NTSTATUS APIENTRY DXGKDDI_QUERYDEPENDENTENGINEGROUP(
    IN_CONST_HANDLE hAdapter, INOUT_DXGKARG_QUERYDEPENDENTENGINEGROUP pQueryDependentEngineGroup);
typedef NTSTATUS APIENTRY DXGKDDI_QUERYENGINESTATUS(IN_CONST_HANDLE hAdapter,
                                                    INOUT_PDXGKARG_QUERYENGINESTATUS pQueryEngineStatus);
typedef NTSTATUS APIENTRY DXGKDDI_RESETENGINE(IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_RESETENGINE pResetEngine);
typedef NTSTATUS APIENTRY DXGKDDI_CANCELCOMMAND(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_CANCELCOMMAND pCancelCommand);
typedef NTSTATUS APIENTRY DXGKDDIPOWERRUNTIMECONTROLREQUEST(IN_CONST_HANDLE DriverContext, LPCGUID PowerControlCode,
                                                            PVOID InBuffer, SIZE_T InBufferSize, PVOID OutBuffer,
                                                            SIZE_T OutBufferSize, PSIZE_T BytesReturned);
typedef NTSTATUS APIENTRY DXGKDDI_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY(
    IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY pSetVidPnSourceAddress);
typedef VOID APIENTRY DXGKCB_NOTIFY_INTERRUPT(IN_CONST_HANDLE hAdapter,
                                              IN_CONST_PDXGKARGCB_NOTIFY_INTERRUPT_DATA pNotifyInterruptData);
typedef VOID APIENTRY DXGKCB_NOTIFY_DPC(IN_CONST_HANDLE hAdapter);

/* The DDIs of WDDM 1.3 to 2.7 (DRIVER_INITIALIZATION_DATA's later
 * members), with their argument typedefs. */
typedef DXGKARG_CONTROLINTERRUPT2 IN_CONST_DXGKARG_CONTROLINTERRUPT2; /* passed by value */
typedef const DXGKARG_CONTROLINTERRUPT3 *IN_CONST_PDXGKARG_CONTROLINTERRUPT3;
typedef DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT *IN_OUT_PDXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT;
typedef DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT2 *IN_OUT_PDXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT2;
typedef DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT3 *IN_OUT_PDXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT3;
typedef DXGKARG_FORMATHISTORYBUFFER *IN_PDXGKARG_FORMATHISTORYBUFFER;
typedef const DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY2
    *IN_CONST_PDXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY2;
typedef DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY3
    *IN_OUT_PDXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY3;
typedef const DXGKARG_VALIDATEUPDATEALLOCPROPERTY *IN_CONST_PDXGKARG_VALIDATEUPDATEALLOCPROPERTY;
typedef DXGKARG_CONTROLMODEBEHAVIOR *INOUT_PDXGKARG_CONTROLMODEBEHAVIOR;
typedef DXGKARG_UPDATEMONITORLINKINFO *INOUT_PDXGKARG_UPDATEMONITORLINKINFO;
typedef DXGKARG_CREATEHWCONTEXT *INOUT_PDXGKARG_CREATEHWCONTEXT;
typedef DXGKARG_CREATEHWQUEUE *INOUT_PDXGKARG_CREATEHWQUEUE;
typedef DXGKARG_SETTIMINGSFROMVIDPN *INOUT_PDXGKARG_SETTIMINGSFROMVIDPN;
typedef const DXGKARG_SETTARGETGAMMA *IN_CONST_PDXGKARG_SETTARGETGAMMA;
typedef const DXGKARG_SETTARGETCONTENTTYPE *IN_CONST_PDXGKARG_SETTARGETCONTENTTYPE;
typedef const DXGKARG_SETTARGETANALOGCOPYPROTECTION *IN_CONST_PDXGKARG_SETTARGETANALOGCOPYPROTECTION;
typedef const DXGKARG_SETTARGETADJUSTEDCOLORIMETRY2 *IN_CONST_PDXGKARG_SETTARGETADJUSTEDCOLORIMETRY2;
typedef DXGKARG_SETTARGETADJUSTEDCOLORIMETRY2 *IN_PDXGKARG_SETTARGETADJUSTEDCOLORIMETRY2;
typedef DXGKARG_DISPLAYDETECTCONTROL *IN_PDXGKARG_DISPLAYDETECTCONTROL;
typedef const DXGKARG_DISPLAYDETECTCONTROL *IN_CONST_PDXGKARG_DISPLAYDETECTCONTROL;
typedef DXGKARG_QUERYCONNECTIONCHANGE *IN_PDXGKARG_QUERYCONNECTIONCHANGE;
typedef DXGKARG_GETMULTIPLANEOVERLAYCAPS *IN_OUT_PDXGKARG_GETMULTIPLANEOVERLAYCAPS;
typedef DXGKARG_CREATEPROTECTEDSESSION *INOUT_PDXGKARG_CREATEPROTECTEDSESSION;
typedef const DXGKARG_SETSCHEDULINGLOGBUFFER *IN_CONST_PDXGKARG_SETSCHEDULINGLOGBUFFER;
typedef const DXGKARG_BEGINEXCLUSIVEACCESS *IN_CONST_PDXGKARG_BEGINEXCLUSIVEACCESS;
typedef const DXGKARG_ENDEXCLUSIVEACCESS *IN_CONST_PDXGKARG_ENDEXCLUSIVEACCESS;
typedef DXGKARG_QUERYDIAGNOSTICTYPESSUPPORT *INOUT_PDXGKARG_QUERYDIAGNOSTICTYPESSUPPORT;
typedef DXGKARG_CONTROLDIAGNOSTICREPORTING *IN_PDXGKARG_CONTROLDIAGNOSTICREPORTING;
typedef const DXGKARG_RESUMEHWENGINE *IN_CONST_PDXGKARG_RESUMEHWENGINE;
typedef DXGKARG_RESUMEHWENGINE *INOUT_PDXGKARG_RESUMEHWENGINE;
typedef const DXGKARG_SETTRACKEDWORKLOADPOWERLEVEL *IN_CONST_PDXGKARG_SETTRACKEDWORKLOADPOWERLEVEL;
typedef DXGKARG_SETTRACKEDWORKLOADPOWERLEVEL *INOUT_PDXGKARG_SETTRACKEDWORKLOADPOWERLEVEL;
typedef const DXGKARG_SAVEMEMORYFORHOTUPDATE *IN_CONST_PDXGKARG_SAVEMEMORYFORHOTUPDATE;
typedef const DXGKARG_RESTOREMEMORYFORHOTUPDATE *IN_CONST_PDXGKARG_RESTOREMEMORYFORHOTUPDATE;
typedef DXGKARG_COLLECTDIAGNOSTICINFO *INOUT_PDXGKARG_COLLECTDIAGNOSTICINFO;

typedef NTSTATUS APIENTRY DXGKDDI_GETNODEMETADATA(IN_CONST_HANDLE hAdapter, UINT NodeOrdinalAndAdapterIndex,
                                                  OUT_PDXGKARG_GETNODEMETADATA pGetNodeMetadata);
typedef NTSTATUS APIENTRY DXGKDDI_CONTROLINTERRUPT2(IN_CONST_HANDLE hAdapter,
                                                    IN_CONST_DXGKARG_CONTROLINTERRUPT2 InterruptControl);
typedef NTSTATUS APIENTRY DXGKDDI_CHECKMULTIPLANEOVERLAYSUPPORT(
    IN_CONST_HANDLE hAdapter, IN_OUT_PDXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT pCheckMultiPlaneOverlaySupport);
typedef NTSTATUS APIENTRY DXGKDDI_CALIBRATEGPUCLOCK(IN_CONST_HANDLE hAdapter, UINT32 NodeOrdinal,
                                                    UINT32 EngineOrdinal,
                                                    OUT_PDXGKARG_CALIBRATEGPUCLOCK pClockCalibration);
typedef NTSTATUS APIENTRY DXGKDDI_FORMATHISTORYBUFFER(IN_CONST_HANDLE hContext,
                                                      IN_PDXGKARG_FORMATHISTORYBUFFER pFormatData);
typedef NTSTATUS APIENTRY DXGKDDI_RENDERGDI(IN_CONST_HANDLE hContext, INOUT_PDXGKARG_RENDERGDI pRenderGdi);
typedef NTSTATUS APIENTRY DXGKDDI_SUBMITCOMMANDVIRTUAL(IN_CONST_HANDLE hAdapter,
                                                       IN_CONST_PDXGKARG_SUBMITCOMMANDVIRTUAL pSubmitCommand);
typedef VOID APIENTRY DXGKDDI_SETROOTPAGETABLE(IN_CONST_HANDLE hAdapter,
                                               IN_CONST_PDXGKARG_SETROOTPAGETABLE pSetPageTable);
typedef SIZE_T APIENTRY DXGKDDI_GETROOTPAGETABLESIZE(IN_CONST_HANDLE hAdapter,
                                                     INOUT_PDXGKARG_GETROOTPAGETABLESIZE pArgs);
typedef NTSTATUS APIENTRY DXGKDDI_MAPCPUHOSTAPERTURE(IN_CONST_HANDLE hAdapter,
                                                     IN_CONST_PDXGKARG_MAPCPUHOSTAPERTURE pArgs);
typedef NTSTATUS APIENTRY DXGKDDI_UNMAPCPUHOSTAPERTURE(IN_CONST_HANDLE hAdapter,
                                                       IN_CONST_PDXGKARG_UNMAPCPUHOSTAPERTURE pArgs);
typedef NTSTATUS APIENTRY DXGKDDI_CHECKMULTIPLANEOVERLAYSUPPORT2(
    IN_CONST_HANDLE hAdapter, IN_OUT_PDXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT2 pCheckMultiPlaneOverlaySupport);
typedef NTSTATUS APIENTRY DXGKDDI_CREATEPROCESS(IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_CREATEPROCESS pArgs);
typedef NTSTATUS APIENTRY DXGKDDI_DESTROYPROCESS(IN_CONST_HANDLE hAdapter, IN_CONST_HANDLE hKmdProcess);
typedef NTSTATUS APIENTRY DXGKDDI_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY2(
    IN_CONST_HANDLE hAdapter,
    IN_CONST_PDXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY2 pSetVidPnSourceAddressWithMultiPlaneOverlay);
typedef NTSTATUS APIENTRY DXGKDDI_POWERRUNTIMESETDEVICEHANDLE(IN_CONST_HANDLE DriverContext,
                                                              HANDLE PepDeviceHandle);
typedef VOID APIENTRY DXGKDDI_SETSTABLEPOWERSTATE(IN_CONST_HANDLE hAdapter,
                                                  IN_CONST_PDXGKARG_SETSTABLEPOWERSTATE pArgs);
typedef NTSTATUS APIENTRY DXGKDDI_SETVIDEOPROTECTEDREGION(IN_CONST_HANDLE hAdapter,
                                                          IN_CONST_PDXGKARG_SETVIDEOPROTECTEDREGION pArgs);
typedef NTSTATUS APIENTRY DXGKDDI_CHECKMULTIPLANEOVERLAYSUPPORT3(
    IN_CONST_HANDLE hAdapter, IN_OUT_PDXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT3 pCheckMultiPlaneOverlaySupport);
typedef NTSTATUS APIENTRY DXGKDDI_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY3(
    IN_CONST_HANDLE hAdapter,
    IN_OUT_PDXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY3 pSetVidPnSourceAddressWithMultiPlaneOverlay);
typedef NTSTATUS APIENTRY DXGKDDI_POSTMULTIPLANEOVERLAYPRESENT(
    IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_POSTMULTIPLANEOVERLAYPRESENT pPostPresent);
typedef NTSTATUS APIENTRY DXGKDDI_VALIDATEUPDATEALLOCATIONPROPERTY(
    IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_VALIDATEUPDATEALLOCPROPERTY pValidateUpdateAllocProperty);
typedef NTSTATUS APIENTRY DXGKDDI_CONTROLMODEBEHAVIOR(IN_CONST_HANDLE hAdapter,
                                                      INOUT_PDXGKARG_CONTROLMODEBEHAVIOR pControlModeBehavior);
typedef NTSTATUS APIENTRY DXGKDDI_UPDATEMONITORLINKINFO(
    IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_UPDATEMONITORLINKINFO pUpdateMonitorLinkInfo);
typedef NTSTATUS APIENTRY DXGKDDI_CREATEHWCONTEXT(IN_CONST_HANDLE hDevice,
                                                  INOUT_PDXGKARG_CREATEHWCONTEXT pCreateHwContext);
typedef NTSTATUS APIENTRY DXGKDDI_DESTROYHWCONTEXT(IN_CONST_HANDLE hHwContext);
typedef NTSTATUS APIENTRY DXGKDDI_CREATEHWQUEUE(IN_CONST_HANDLE hHwContext,
                                                INOUT_PDXGKARG_CREATEHWQUEUE pCreateHwQueue);
typedef NTSTATUS APIENTRY DXGKDDI_DESTROYHWQUEUE(IN_CONST_HANDLE hHwQueue);
typedef NTSTATUS APIENTRY DXGKDDI_SUBMITCOMMANDTOHWQUEUE(
    IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_SUBMITCOMMANDTOHWQUEUE pSubmitCommandToHwQueue);
typedef NTSTATUS APIENTRY DXGKDDI_SWITCHTOHWCONTEXTLIST(IN_CONST_HANDLE hAdapter,
                                                        IN_CONST_PDXGKARG_SWITCHTOHWCONTEXTLIST pHwContextList);
typedef NTSTATUS APIENTRY DXGKDDI_RESETHWENGINE(IN_CONST_HANDLE hAdapter,
                                                INOUT_PDXGKARG_RESETHWENGINE pResetHwEngine);
typedef NTSTATUS APIENTRY DXGKDDI_CREATEPERIODICFRAMENOTIFICATION(
    INOUT_PDXGKARG_CREATEPERIODICFRAMENOTIFICATION pCreatePeriodicFrameNotification);
typedef NTSTATUS APIENTRY DXGKDDI_DESTROYPERIODICFRAMENOTIFICATION(
    IN_CONST_PDXGKARG_DESTROYPERIODICFRAMENOTIFICATION pDestroyPeriodicFrameNotification);
typedef NTSTATUS APIENTRY DXGKDDI_SETTIMINGSFROMVIDPN(IN_CONST_HANDLE hAdapter,
                                                      INOUT_PDXGKARG_SETTIMINGSFROMVIDPN pSetTimings);
typedef NTSTATUS APIENTRY DXGKDDI_SETTARGETGAMMA(IN_CONST_HANDLE hAdapter,
                                                 IN_CONST_PDXGKARG_SETTARGETGAMMA pArgs);
typedef NTSTATUS APIENTRY DXGKDDI_SETTARGETCONTENTTYPE(IN_CONST_HANDLE hAdapter,
                                                       IN_CONST_PDXGKARG_SETTARGETCONTENTTYPE pArgs);
typedef NTSTATUS APIENTRY DXGKDDI_SETTARGETANALOGCOPYPROTECTION(
    IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_SETTARGETANALOGCOPYPROTECTION pArgs);
typedef NTSTATUS APIENTRY DXGKDDI_SETTARGETADJUSTEDCOLORIMETRY(IN_CONST_HANDLE hAdapter,
                                                               D3DDDI_VIDEO_PRESENT_TARGET_ID TargetId,
                                                               DXGK_COLORIMETRY AdjustedColorimetry);
typedef NTSTATUS APIENTRY DXGKDDI_DISPLAYDETECTCONTROL(IN_CONST_HANDLE hAdapter,
                                                       IN_CONST_PDXGKARG_DISPLAYDETECTCONTROL pDisplayDetectControl);
typedef NTSTATUS APIENTRY DXGKDDI_QUERYCONNECTIONCHANGE(
    IN_CONST_HANDLE hAdapter, IN_PDXGKARG_QUERYCONNECTIONCHANGE pQueryConnectionChange);
typedef NTSTATUS APIENTRY DXGKDDI_EXCHANGEPRESTARTINFO(IN_CONST_HANDLE hAdapter,
                                                       IN_OUT_PDXGK_PRE_START_INFO pPreStartInfo);
typedef NTSTATUS APIENTRY DXGKDDI_GETMULTIPLANEOVERLAYCAPS(
    IN_CONST_HANDLE hAdapter, IN_OUT_PDXGKARG_GETMULTIPLANEOVERLAYCAPS pGetMultiPlaneOverlayCaps);
typedef NTSTATUS APIENTRY DXGKDDI_GETPOSTCOMPOSITIONCAPS(
    IN_CONST_HANDLE hAdapter, IN_OUT_PDXGKARG_GETPOSTCOMPOSITIONCAPS pGetPostCompositionCaps);
typedef NTSTATUS APIENTRY DXGKDDI_UPDATEHWCONTEXTSTATE(
    IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_UPDATEHWCONTEXTSTATE pUpdateHwContextState);
typedef NTSTATUS APIENTRY DXGKDDI_CREATEPROTECTEDSESSION(IN_CONST_HANDLE hAdapter,
                                                         INOUT_PDXGKARG_CREATEPROTECTEDSESSION pArgs);
typedef NTSTATUS APIENTRY DXGKDDI_DESTROYPROTECTEDSESSION(IN_CONST_HANDLE hAdapter, HANDLE hProtectedSession);
typedef NTSTATUS APIENTRY DXGKDDI_SETSCHEDULINGLOGBUFFER(
    IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_SETSCHEDULINGLOGBUFFER pSetSchedulingLogBuffer);
typedef NTSTATUS APIENTRY DXGKDDI_SETUPPRIORITYBANDS(IN_CONST_HANDLE hAdapter,
                                                     IN_CONST_PDXGKARG_SETUPPRIORITYBANDS pSetupPriorityBands);
typedef NTSTATUS APIENTRY DXGKDDI_NOTIFYFOCUSPRESENT(IN_CONST_HANDLE hAdapter);
typedef NTSTATUS APIENTRY DXGKDDI_SETCONTEXTSCHEDULINGPROPERTIES(
    IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_SETCONTEXTSCHEDULINGPROPERTIES pSetContextSchedulingProperties);
typedef NTSTATUS APIENTRY DXGKDDI_SUSPENDCONTEXT(IN_CONST_HANDLE hAdapter,
                                                 IN_CONST_PDXGKARG_SUSPENDCONTEXT pSuspendContext);
typedef NTSTATUS APIENTRY DXGKDDI_RESUMECONTEXT(IN_CONST_HANDLE hAdapter,
                                                IN_CONST_PDXGKARG_RESUMECONTEXT pResumeContext);
typedef NTSTATUS APIENTRY DXGKDDI_SETVIRTUALMACHINEDATA(IN_CONST_HANDLE hAdapter,
                                                        IN_CONST_PDXGKARG_SETVIRTUALMACHINEDATA Args);
typedef NTSTATUS APIENTRY DXGKDDI_BEGINEXCLUSIVEACCESS(IN_CONST_HANDLE hAdapter,
                                                       IN_CONST_PDXGKARG_BEGINEXCLUSIVEACCESS pArgs);
typedef NTSTATUS APIENTRY DXGKDDI_ENDEXCLUSIVEACCESS(IN_CONST_HANDLE hAdapter,
                                                     IN_CONST_PDXGKARG_ENDEXCLUSIVEACCESS pArgs);
typedef NTSTATUS APIENTRY DXGKDDI_QUERYDIAGNOSTICTYPESSUPPORT(
    IN_CONST_PVOID MiniportDeviceContext, INOUT_PDXGKARG_QUERYDIAGNOSTICTYPESSUPPORT pArgs);
typedef NTSTATUS APIENTRY DXGKDDI_CONTROLDIAGNOSTICREPORTING(IN_CONST_PVOID MiniportDeviceContext,
                                                             IN_PDXGKARG_CONTROLDIAGNOSTICREPORTING pArgs);
typedef NTSTATUS APIENTRY DXGKDDI_RESUMEHWENGINE(IN_CONST_HANDLE hAdapter,
                                                 INOUT_PDXGKARG_RESUMEHWENGINE pResumeHwEngine);
typedef NTSTATUS APIENTRY DXGKDDI_SIGNALMONITOREDFENCE(IN_CONST_HANDLE hContext,
                                                       INOUT_PDXGKARG_SIGNALMONITOREDFENCE pSignalMonitoredFence);
typedef NTSTATUS APIENTRY DXGKDDI_PRESENTTOHWQUEUE(IN_CONST_HANDLE hHwQueue, INOUT_PDXGKARG_PRESENT pPresent);
typedef NTSTATUS APIENTRY DXGKDDI_VALIDATESUBMITCOMMAND(IN_CONST_HANDLE hContext,
                                                        INOUT_PDXGKARG_VALIDATESUBMITCOMMAND pArgs);
typedef NTSTATUS APIENTRY DXGKDDI_SETTARGETADJUSTEDCOLORIMETRY2(
    IN_CONST_HANDLE hAdapter, IN_PDXGKARG_SETTARGETADJUSTEDCOLORIMETRY2 pArgSetTargetAdjustedColorimetry);
typedef NTSTATUS APIENTRY DXGKDDI_SETTRACKEDWORKLOADPOWERLEVEL(
    IN_CONST_HANDLE hContext, INOUT_PDXGKARG_SETTRACKEDWORKLOADPOWERLEVEL pTrackedWorkloadPowerLevel);
typedef NTSTATUS APIENTRY DXGKDDI_SAVEMEMORYFORHOTUPDATE(IN_CONST_HANDLE hAdapter,
                                                         IN_CONST_PDXGKARG_SAVEMEMORYFORHOTUPDATE pArgs);
typedef NTSTATUS APIENTRY DXGKDDI_RESTOREMEMORYFORHOTUPDATE(IN_CONST_HANDLE hAdapter,
                                                            IN_CONST_PDXGKARG_RESTOREMEMORYFORHOTUPDATE pArgs);
typedef NTSTATUS APIENTRY DXGKDDI_COLLECTDIAGNOSTICINFO(IN_CONST_PVOID MiniportDeviceContext,
                                                        INOUT_PDXGKARG_COLLECTDIAGNOSTICINFO pArgs);
typedef NTSTATUS APIENTRY DXGKDDI_CONTROLINTERRUPT3(IN_CONST_HANDLE hAdapter,
                                                    IN_CONST_PDXGKARG_CONTROLINTERRUPT3 pArgs);

typedef DXGKDDI_CREATEDEVICE *PDXGKDDI_CREATEDEVICE;
typedef DXGKDDI_CREATEALLOCATION *PDXGKDDI_CREATEALLOCATION;
typedef DXGKDDI_DESTROYALLOCATION *PDXGKDDI_DESTROYALLOCATION;
typedef DXGKDDI_DESCRIBEALLOCATION *PDXGKDDI_DESCRIBEALLOCATION;
typedef DXGKDDI_GETSTANDARDALLOCATIONDRIVERDATA *PDXGKDDI_GETSTANDARDALLOCATIONDRIVERDATA;
typedef DXGKDDI_ACQUIRESWIZZLINGRANGE *PDXGKDDI_ACQUIRESWIZZLINGRANGE;
typedef DXGKDDI_RELEASESWIZZLINGRANGE *PDXGKDDI_RELEASESWIZZLINGRANGE;
typedef DXGKDDI_PREEMPTCOMMAND *PDXGKDDI_PREEMPTCOMMAND;
typedef DXGKDDI_SETPALETTE *PDXGKDDI_SETPALETTE;
typedef DXGKDDI_SETPOINTERPOSITION *PDXGKDDI_SETPOINTERPOSITION;
typedef DXGKDDI_SETPOINTERSHAPE *PDXGKDDI_SETPOINTERSHAPE;
typedef DXGKDDI_RESETFROMTIMEOUT *PDXGKDDI_RESETFROMTIMEOUT;
typedef DXGKDDI_RESTARTFROMTIMEOUT *PDXGKDDI_RESTARTFROMTIMEOUT;
typedef DXGKDDI_ESCAPE *PDXGKDDI_ESCAPE;
typedef DXGKDDI_COLLECTDBGINFO *PDXGKDDI_COLLECTDBGINFO;
typedef DXGKDDI_QUERYCURRENTFENCE *PDXGKDDI_QUERYCURRENTFENCE;
typedef DXGKDDI_ISSUPPORTEDVIDPN *PDXGKDDI_ISSUPPORTEDVIDPN;
typedef DXGKDDI_RECOMMENDFUNCTIONALVIDPN *PDXGKDDI_RECOMMENDFUNCTIONALVIDPN;
typedef DXGKDDI_ENUMVIDPNCOFUNCMODALITY *PDXGKDDI_ENUMVIDPNCOFUNCMODALITY;
typedef DXGKDDI_SETVIDPNSOURCEADDRESS *PDXGKDDI_SETVIDPNSOURCEADDRESS;
typedef DXGKDDI_SETVIDPNSOURCEVISIBILITY *PDXGKDDI_SETVIDPNSOURCEVISIBILITY;
typedef DXGKDDI_COMMITVIDPN *PDXGKDDI_COMMITVIDPN;
typedef DXGKDDI_UPDATEACTIVEVIDPNPRESENTPATH *PDXGKDDI_UPDATEACTIVEVIDPNPRESENTPATH;
typedef DXGKDDI_RECOMMENDMONITORMODES *PDXGKDDI_RECOMMENDMONITORMODES;
typedef DXGKDDI_RECOMMENDVIDPNTOPOLOGY *PDXGKDDI_RECOMMENDVIDPNTOPOLOGY;
typedef DXGKDDI_GETSCANLINE *PDXGKDDI_GETSCANLINE;
typedef DXGKDDI_STOPCAPTURE *PDXGKDDI_STOPCAPTURE;
typedef DXGKDDI_CONTROLINTERRUPT *PDXGKDDI_CONTROLINTERRUPT;
typedef DXGKDDI_CREATEOVERLAY *PDXGKDDI_CREATEOVERLAY;
typedef DXGKDDI_DESTROYDEVICE *PDXGKDDI_DESTROYDEVICE;
typedef DXGKDDI_OPENALLOCATIONINFO *PDXGKDDI_OPENALLOCATIONINFO;
typedef DXGKDDI_CLOSEALLOCATION *PDXGKDDI_CLOSEALLOCATION;
typedef DXGKDDI_UPDATEOVERLAY *PDXGKDDI_UPDATEOVERLAY;
typedef DXGKDDI_FLIPOVERLAY *PDXGKDDI_FLIPOVERLAY;
typedef DXGKDDI_DESTROYOVERLAY *PDXGKDDI_DESTROYOVERLAY;
typedef DXGKDDI_CREATECONTEXT *PDXGKDDI_CREATECONTEXT;
typedef DXGKDDI_DESTROYCONTEXT *PDXGKDDI_DESTROYCONTEXT;
typedef DXGKDDI_SETDISPLAYPRIVATEDRIVERFORMAT *PDXGKDDI_SETDISPLAYPRIVATEDRIVERFORMAT;
typedef DXGKDDI_RENDERKM *PDXGKDDI_RENDERKM;
typedef DXGKDDI_QUERYVIDPNHWCAPABILITY *PDXGKDDI_QUERYVIDPNHWCAPABILITY;
typedef DXGKDDISETPOWERCOMPONENTFSTATE *PDXGKDDISETPOWERCOMPONENTFSTATE;
typedef DXGKDDI_QUERYDEPENDENTENGINEGROUP *PDXGKDDI_QUERYDEPENDENTENGINEGROUP;
typedef DXGKDDI_QUERYENGINESTATUS *PDXGKDDI_QUERYENGINESTATUS;
typedef DXGKDDI_RESETENGINE *PDXGKDDI_RESETENGINE;
typedef DXGKDDI_CANCELCOMMAND *PDXGKDDI_CANCELCOMMAND;
typedef DXGKDDIPOWERRUNTIMECONTROLREQUEST *PDXGKDDIPOWERRUNTIMECONTROLREQUEST;
typedef DXGKDDI_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY *PDXGKDDI_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY;
typedef DXGKCB_NOTIFY_INTERRUPT *PDXGKCB_NOTIFY_INTERRUPT;
typedef DXGKDDI_GETNODEMETADATA *PDXGKDDI_GETNODEMETADATA;
typedef DXGKDDI_CONTROLINTERRUPT2 *PDXGKDDI_CONTROLINTERRUPT2;
typedef DXGKDDI_CHECKMULTIPLANEOVERLAYSUPPORT *PDXGKDDI_CHECKMULTIPLANEOVERLAYSUPPORT;
typedef DXGKDDI_CALIBRATEGPUCLOCK *PDXGKDDI_CALIBRATEGPUCLOCK;
typedef DXGKDDI_FORMATHISTORYBUFFER *PDXGKDDI_FORMATHISTORYBUFFER;
typedef DXGKDDI_RENDERGDI *PDXGKDDI_RENDERGDI;
typedef DXGKDDI_SUBMITCOMMANDVIRTUAL *PDXGKDDI_SUBMITCOMMANDVIRTUAL;
typedef DXGKDDI_SETROOTPAGETABLE *PDXGKDDI_SETROOTPAGETABLE;
typedef DXGKDDI_GETROOTPAGETABLESIZE *PDXGKDDI_GETROOTPAGETABLESIZE;
typedef DXGKDDI_MAPCPUHOSTAPERTURE *PDXGKDDI_MAPCPUHOSTAPERTURE;
typedef DXGKDDI_UNMAPCPUHOSTAPERTURE *PDXGKDDI_UNMAPCPUHOSTAPERTURE;
typedef DXGKDDI_CHECKMULTIPLANEOVERLAYSUPPORT2 *PDXGKDDI_CHECKMULTIPLANEOVERLAYSUPPORT2;
typedef DXGKDDI_CREATEPROCESS *PDXGKDDI_CREATEPROCESS;
typedef DXGKDDI_DESTROYPROCESS *PDXGKDDI_DESTROYPROCESS;
typedef DXGKDDI_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY2 *PDXGKDDI_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY2;
typedef DXGKDDI_POWERRUNTIMESETDEVICEHANDLE *PDXGKDDI_POWERRUNTIMESETDEVICEHANDLE;
typedef DXGKDDI_SETSTABLEPOWERSTATE *PDXGKDDI_SETSTABLEPOWERSTATE;
typedef DXGKDDI_SETVIDEOPROTECTEDREGION *PDXGKDDI_SETVIDEOPROTECTEDREGION;
typedef DXGKDDI_CHECKMULTIPLANEOVERLAYSUPPORT3 *PDXGKDDI_CHECKMULTIPLANEOVERLAYSUPPORT3;
typedef DXGKDDI_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY3 *PDXGKDDI_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY3;
typedef DXGKDDI_POSTMULTIPLANEOVERLAYPRESENT *PDXGKDDI_POSTMULTIPLANEOVERLAYPRESENT;
typedef DXGKDDI_VALIDATEUPDATEALLOCATIONPROPERTY *PDXGKDDI_VALIDATEUPDATEALLOCATIONPROPERTY;
typedef DXGKDDI_CONTROLMODEBEHAVIOR *PDXGKDDI_CONTROLMODEBEHAVIOR;
typedef DXGKDDI_UPDATEMONITORLINKINFO *PDXGKDDI_UPDATEMONITORLINKINFO;
typedef DXGKDDI_CREATEHWCONTEXT *PDXGKDDI_CREATEHWCONTEXT;
typedef DXGKDDI_DESTROYHWCONTEXT *PDXGKDDI_DESTROYHWCONTEXT;
typedef DXGKDDI_CREATEHWQUEUE *PDXGKDDI_CREATEHWQUEUE;
typedef DXGKDDI_DESTROYHWQUEUE *PDXGKDDI_DESTROYHWQUEUE;
typedef DXGKDDI_SUBMITCOMMANDTOHWQUEUE *PDXGKDDI_SUBMITCOMMANDTOHWQUEUE;
typedef DXGKDDI_SWITCHTOHWCONTEXTLIST *PDXGKDDI_SWITCHTOHWCONTEXTLIST;
typedef DXGKDDI_RESETHWENGINE *PDXGKDDI_RESETHWENGINE;
typedef DXGKDDI_CREATEPERIODICFRAMENOTIFICATION *PDXGKDDI_CREATEPERIODICFRAMENOTIFICATION;
typedef DXGKDDI_DESTROYPERIODICFRAMENOTIFICATION *PDXGKDDI_DESTROYPERIODICFRAMENOTIFICATION;
typedef DXGKDDI_SETTIMINGSFROMVIDPN *PDXGKDDI_SETTIMINGSFROMVIDPN;
typedef DXGKDDI_SETTARGETGAMMA *PDXGKDDI_SETTARGETGAMMA;
typedef DXGKDDI_SETTARGETCONTENTTYPE *PDXGKDDI_SETTARGETCONTENTTYPE;
typedef DXGKDDI_SETTARGETANALOGCOPYPROTECTION *PDXGKDDI_SETTARGETANALOGCOPYPROTECTION;
typedef DXGKDDI_SETTARGETADJUSTEDCOLORIMETRY *PDXGKDDI_SETTARGETADJUSTEDCOLORIMETRY;
typedef DXGKDDI_DISPLAYDETECTCONTROL *PDXGKDDI_DISPLAYDETECTCONTROL;
typedef DXGKDDI_QUERYCONNECTIONCHANGE *PDXGKDDI_QUERYCONNECTIONCHANGE;
typedef DXGKDDI_EXCHANGEPRESTARTINFO *PDXGKDDI_EXCHANGEPRESTARTINFO;
typedef DXGKDDI_GETMULTIPLANEOVERLAYCAPS *PDXGKDDI_GETMULTIPLANEOVERLAYCAPS;
typedef DXGKDDI_GETPOSTCOMPOSITIONCAPS *PDXGKDDI_GETPOSTCOMPOSITIONCAPS;
typedef DXGKDDI_UPDATEHWCONTEXTSTATE *PDXGKDDI_UPDATEHWCONTEXTSTATE;
typedef DXGKDDI_CREATEPROTECTEDSESSION *PDXGKDDI_CREATEPROTECTEDSESSION;
typedef DXGKDDI_DESTROYPROTECTEDSESSION *PDXGKDDI_DESTROYPROTECTEDSESSION;
typedef DXGKDDI_SETSCHEDULINGLOGBUFFER *PDXGKDDI_SETSCHEDULINGLOGBUFFER;
typedef DXGKDDI_SETUPPRIORITYBANDS *PDXGKDDI_SETUPPRIORITYBANDS;
typedef DXGKDDI_NOTIFYFOCUSPRESENT *PDXGKDDI_NOTIFYFOCUSPRESENT;
typedef DXGKDDI_SETCONTEXTSCHEDULINGPROPERTIES *PDXGKDDI_SETCONTEXTSCHEDULINGPROPERTIES;
typedef DXGKDDI_SUSPENDCONTEXT *PDXGKDDI_SUSPENDCONTEXT;
typedef DXGKDDI_RESUMECONTEXT *PDXGKDDI_RESUMECONTEXT;
typedef DXGKDDI_SETVIRTUALMACHINEDATA *PDXGKDDI_SETVIRTUALMACHINEDATA;
typedef DXGKDDI_BEGINEXCLUSIVEACCESS *PDXGKDDI_BEGINEXCLUSIVEACCESS;
typedef DXGKDDI_ENDEXCLUSIVEACCESS *PDXGKDDI_ENDEXCLUSIVEACCESS;
typedef DXGKDDI_QUERYDIAGNOSTICTYPESSUPPORT *PDXGKDDI_QUERYDIAGNOSTICTYPESSUPPORT;
typedef DXGKDDI_CONTROLDIAGNOSTICREPORTING *PDXGKDDI_CONTROLDIAGNOSTICREPORTING;
typedef DXGKDDI_RESUMEHWENGINE *PDXGKDDI_RESUMEHWENGINE;
typedef DXGKDDI_SIGNALMONITOREDFENCE *PDXGKDDI_SIGNALMONITOREDFENCE;
typedef DXGKDDI_PRESENTTOHWQUEUE *PDXGKDDI_PRESENTTOHWQUEUE;
typedef DXGKDDI_VALIDATESUBMITCOMMAND *PDXGKDDI_VALIDATESUBMITCOMMAND;
typedef DXGKDDI_SETTARGETADJUSTEDCOLORIMETRY2 *PDXGKDDI_SETTARGETADJUSTEDCOLORIMETRY2;
typedef DXGKDDI_SETTRACKEDWORKLOADPOWERLEVEL *PDXGKDDI_SETTRACKEDWORKLOADPOWERLEVEL;
typedef DXGKDDI_SAVEMEMORYFORHOTUPDATE *PDXGKDDI_SAVEMEMORYFORHOTUPDATE;
typedef DXGKDDI_RESTOREMEMORYFORHOTUPDATE *PDXGKDDI_RESTOREMEMORYFORHOTUPDATE;
typedef DXGKDDI_COLLECTDIAGNOSTICINFO *PDXGKDDI_COLLECTDIAGNOSTICINFO;
typedef DXGKDDI_CONTROLINTERRUPT3 *PDXGKDDI_CONTROLINTERRUPT3;

typedef DXGKCB_NOTIFY_DPC *PDXGKCB_NOTIFY_DPC;

PBC_WDK_SIZE(DXGKARGCB_NOTIFY_INTERRUPT_DATA, 80);
PBC_WDK_OFF(DXGKARGCB_NOTIFY_INTERRUPT_DATA, DmaCompleted, 8);
PBC_WDK_OFF(DXGKARGCB_NOTIFY_INTERRUPT_DATA, DmaPageFaulted.FaultedProcessHandle, 64);
PBC_WDK_OFF(DXGKARGCB_NOTIFY_INTERRUPT_DATA, Flags, 72);
PBC_WDK_SIZE(DXGK_ALLOCATIONINFO, 88);
PBC_WDK_OFF(DXGK_ALLOCATIONINFO, Size, 16);
PBC_WDK_OFF(DXGK_ALLOCATIONINFO, HintedBank, 32);
PBC_WDK_OFF(DXGK_ALLOCATIONINFO, hAllocation, 56);
PBC_WDK_OFF(DXGK_ALLOCATIONINFO, Flags, 64);
PBC_WDK_OFF(DXGK_ALLOCATIONINFO, pAllocationUsageHint, 72);
PBC_WDK_OFF(DXGK_ALLOCATIONINFO, Flags2, 84);
PBC_WDK_SIZE(DXGK_ALLOCATIONUSAGEHINT, 40);
PBC_WDK_SIZE(DXGKARG_CREATEALLOCATION, 40);
PBC_WDK_OFF(DXGKARG_CREATEALLOCATION, pAllocationInfo, 16);
PBC_WDK_SIZE(DXGKARG_DESTROYALLOCATION, 32);
PBC_WDK_SIZE(DXGKARG_DESCRIBEALLOCATION, 48);
PBC_WDK_OFF(DXGKARG_DESCRIBEALLOCATION, RefreshRate, 28);
PBC_WDK_SIZE(DXGK_OPENALLOCATIONINFO, 32);
PBC_WDK_SIZE(DXGKARG_OPENALLOCATION, 56);
PBC_WDK_OFF(DXGKARG_OPENALLOCATION, SubresourceOffset, 40);
PBC_WDK_SIZE(DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA, 48);
PBC_WDK_SIZE(DXGKARG_CREATEDEVICE, 32);
PBC_WDK_OFF(DXGKARG_CREATEDEVICE, Pasid, 16);
PBC_WDK_SIZE(DXGKARG_CREATECONTEXT, 64);
PBC_WDK_OFF(DXGKARG_CREATECONTEXT, ContextInfo, 36);
PBC_WDK_SIZE(DXGKARG_ESCAPE, 40);
PBC_WDK_OFF(DXGKARG_SETVIDPNSOURCEADDRESS, Context, 32);
PBC_WDK_OFF(DXGKARG_SETVIDPNSOURCEADDRESS, Flags, 552);
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_0
PBC_WDK_SIZE(DXGK_PRIMARYDATA, 24);
PBC_WDK_OFF(DXGKARG_SETVIDPNSOURCEADDRESS, PrimaryData, 560);
PBC_WDK_OFF(DXGKARG_SETVIDPNSOURCEADDRESS, DriverPrivateDataSize, 2096);
PBC_WDK_SIZE(DXGKARG_SETVIDPNSOURCEADDRESS, 2112);
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_3
PBC_WDK_SIZE(DXGKARGCB_PROTECTEDSESSIONSTATUS, 16);
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_4
PBC_WDK_SIZE(DXGKARGCB_FREEPAGESFROMMDL, 8);
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_6
PBC_WDK_OFF(DXGKARGCB_ISFEATUREENABLED, Enabled, 12);
PBC_WDK_SIZE(DXGKARGCB_ISFEATUREENABLED, 16);
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_5
PBC_WDK_SIZE(DXGK_SCHEDULING_LOG_CONTEXT_STATE_CHANGE, 16);
PBC_WDK_SIZE(DXGK_SCHEDULING_LOG_HEADER, 32);
PBC_WDK_OFF(DXGK_SCHEDULING_LOG_HEADER, WraparoundCount, 4);
PBC_WDK_OFF(DXGK_SCHEDULING_LOG_HEADER, NumberOfEntries, 8);
PBC_WDK_SIZE(DXGK_SCHEDULING_LOG_ENTRY, 32);
PBC_WDK_OFF(DXGK_SCHEDULING_LOG_ENTRY, ContextStateChange, 16);
PBC_WDK_OFF(DXGK_SCHEDULING_LOG_BUFFER, Entries, 32);
PBC_WDK_SIZE(DXGK_SCHEDULING_LOG_BUFFER, 64);
#endif
PBC_WDK_SIZE(DXGKARG_COMMITVIDPN, 32);
PBC_WDK_SIZE(DXGKARG_SETPOINTERSHAPE, 40);

PBC_WDK_SIZE(DXGK_SEGMENTDESCRIPTOR, 56);
PBC_WDK_OFF(DXGK_SEGMENTDESCRIPTOR, pBankRangeTable, 32);
PBC_WDK_OFF(DXGK_SEGMENTDESCRIPTOR, Flags, 48);
PBC_WDK_OFF(DXGK_QUERYSEGMENTOUT, pSegmentDescriptor, 8);
PBC_WDK_OFF(DXGK_QUERYSEGMENTOUT, PagingBufferSegmentId, 16);
PBC_WDK_OFF(DXGK_QUERYSEGMENTOUT, PagingBufferPrivateDataSize, 24);
PBC_WDK_SIZE(DXGK_QUERYSEGMENTOUT, 32);
PBC_WDK_SIZE(DXGK_QUERYSEGMENTIN, 24);
PBC_WDK_OFF(DXGK_SEGMENTDESCRIPTOR3, BaseAddress, 8);
PBC_WDK_SIZE(DXGK_SEGMENTDESCRIPTOR3, 72);
PBC_WDK_OFF(DXGKARG_QUERYADAPTERINFO, pOutputData, 24);
PBC_WDK_SIZE(DXGKARG_QUERYADAPTERINFO, 48);
PBC_WDK_OFF(DXGK_DRIVERCAPS, ApertureSegmentCommitLimit, 16);
PBC_WDK_OFF(DXGK_DRIVERCAPS, MemoryManagementCaps, 68);
PBC_WDK_OFF(DXGKARG_RENDER, DmaBufferPhysicalAddress, 104);
PBC_WDK_SIZE(DXGK_ALLOCATIONINFOFLAGS, 4);
PBC_WDK_SIZE(DXGK_PRESENTATIONCAPS, 4);
PBC_WDK_SIZE(D3DKMDT_GDISURFACEDATA, 24);
PBC_WDK_OFF(D3DKMDT_GDISURFACEDATA, Pitch, 20);
PBC_WDK_SIZE(DXGKARG_QUERYDEPENDENTENGINEGROUP, 16);
PBC_WDK_SIZE(DXGKARG_QUERYENGINESTATUS, 12);
PBC_WDK_SIZE(DXGKARG_RESETENGINE, 12);
PBC_WDK_OFF(DXGKARG_CANCELCOMMAND, pDmaBufferPrivateData, 32);
PBC_WDK_OFF(DXGKARG_CANCELCOMMAND, pAllocationList, 56);
PBC_WDK_OFF(DXGKARG_CANCELCOMMAND, pPatchLocationList, 72);
PBC_WDK_OFF(DXGKARG_CANCELCOMMAND, DmaBufferVirtualAddress, 96);
PBC_WDK_SIZE(DXGKARG_CANCELCOMMAND, 112);
PBC_WDK_OFF(DXGKARGCB_CREATECONTEXTALLOCATION, Size, 40);
PBC_WDK_OFF(DXGKARGCB_CREATECONTEXTALLOCATION, hAllocation, 72);
PBC_WDK_SIZE(DXGKARGCB_CREATECONTEXTALLOCATION, 88);
PBC_WDK_SIZE(DXGK_NODEMETADATA, 76);
PBC_WDK_SIZE(DXGK_GPUCLOCKDATA, 32);
PBC_WDK_OFF(DXGKARG_SUBMITCOMMANDVIRTUAL, pDmaBufferPrivateData, 24);
PBC_WDK_OFF(DXGKARG_SUBMITCOMMANDVIRTUAL, NodeOrdinal, 60);
PBC_WDK_SIZE(DXGKARG_SUBMITCOMMANDVIRTUAL, 64);
PBC_WDK_OFF(DXGKARG_SETROOTPAGETABLE, Address, 8);
PBC_WDK_SIZE(DXGKARG_SETROOTPAGETABLE, 32);
PBC_WDK_SIZE(DXGKARG_MAPCPUHOSTAPERTURE, 40);
PBC_WDK_SIZE(DXGKARG_UNMAPCPUHOSTAPERTURE, 24);
PBC_WDK_OFF(DXGKARG_CREATEPROCESS, pPasid, 24);
PBC_WDK_SIZE(DXGKARG_CREATEPROCESS, 56);
PBC_WDK_SIZE(DXGKARG_RENDERGDI, 72);

PBC_WDK_SIZE(DXGKARG_RENDER, 112);

#ifdef __cplusplus
}
#endif

#endif
