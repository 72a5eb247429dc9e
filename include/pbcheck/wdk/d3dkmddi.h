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
typedef const HANDLE IN_CONST_HANDLE;

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


/* ---- Argument pointer typedefs as the DDI prototypes spell them ---- */
typedef const VOID *IN_CONST_PVOID;
typedef ULONG *OUT_PULONG;
typedef const DXGKARG_PATCH *IN_CONST_PDXGKARG_PATCH;
typedef const DXGKARG_SUBMITCOMMAND *IN_CONST_PDXGKARG_SUBMITCOMMAND;
typedef const DXGKARG_BUILDPAGINGBUFFER *IN_CONST_PDXGKARG_BUILDPAGINGBUFFER;

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

typedef struct _DXGK_PRESENTATIONCAPS {
    UINT Value;
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
    DXGKDDI_WDDMv2 = 0x2000
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
PBC_WDK_SIZE(DXGKARG_RENDER, 112);

#ifdef __cplusplus
}
#endif

#endif
