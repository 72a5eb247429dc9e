/*
 * wdm.h — the subset of the Windows kernel headers that display miniport
 * drivers use, with Windows' names and x86-64 (LLP64) layouts, so that a
 * driver's sources compile unchanged on Linux. Basic types, status codes
 * and helper macros come from ntdef.h.
 *
 * Every function declared here is served by the harness: MDL mapping, I/O
 * space and registers by the WDK shim (harness/kernel/shim.c), the rest by
 * the kernel services (harness/kernel/services.c). A kernel call a driver
 * makes that is not declared here fails to compile or link, naming the
 * call; nothing is stubbed silently.
 */
#ifndef PBCHECK_WDK_WDM_H
#define PBCHECK_WDK_WDM_H

#ifndef _WDMDDK_
#define _WDMDDK_
#endif

#include "ntdef.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef ULONG_PTR KSPIN_LOCK, *PKSPIN_LOCK;
typedef UCHAR KIRQL, *PKIRQL;
typedef CCHAR KPROCESSOR_MODE;
typedef ULONG_PTR PFN_NUMBER, *PPFN_NUMBER;
typedef LONG KPRIORITY;

#define PASSIVE_LEVEL 0
#define LOW_LEVEL 0
#define APC_LEVEL 1
#define DISPATCH_LEVEL 2
#define CMCI_LEVEL 5
#define CLOCK_LEVEL 13
#define IPI_LEVEL 14
#define POWER_LEVEL 14
#define PROFILE_LEVEL 15
#define HIGH_LEVEL 15

/* ---- Memory descriptor lists ---- */
struct _EPROCESS;

typedef struct _MDL {
    struct _MDL *Next;
    CSHORT Size;
    CSHORT MdlFlags;
    struct _EPROCESS *Process;
    PVOID MappedSystemVa;
    PVOID StartVa;
    ULONG ByteCount;
    ULONG ByteOffset;
} MDL, *PMDL;

#define MDL_MAPPED_TO_SYSTEM_VA 0x0001
#define MDL_PAGES_LOCKED 0x0002
#define MDL_SOURCE_IS_NONPAGED_POOL 0x0004
#define MDL_PARTIAL 0x0010

#define PAGE_SIZE 0x1000
#define PAGE_SHIFT 12

/* The PFN array follows the MDL header. */
#define MmGetMdlPfnArray(m) ((PPFN_NUMBER)((m) + 1))
#define MmGetMdlVirtualAddress(m) ((PVOID)((PUCHAR)((m)->StartVa) + (m)->ByteOffset))
#define MmGetMdlByteCount(m) ((m)->ByteCount)
#define MmGetMdlByteOffset(m) ((m)->ByteOffset)
#define ADDRESS_AND_SIZE_TO_SPAN_PAGES(va, size) \
    ((ULONG)((((ULONG_PTR)(va) & (PAGE_SIZE - 1)) + (size) + (PAGE_SIZE - 1)) >> PAGE_SHIFT))
#define BYTES_TO_PAGES(size) (((size) >> PAGE_SHIFT) + (((size) & (PAGE_SIZE - 1)) != 0))
#define ROUND_TO_PAGES(size) (((ULONG_PTR)(size) + PAGE_SIZE - 1) & ~((ULONG_PTR)PAGE_SIZE - 1))
#define PAGE_ALIGN(va) ((PVOID)((ULONG_PTR)(va) & ~((ULONG_PTR)PAGE_SIZE - 1)))
#define BYTE_OFFSET(va) ((ULONG)((LONG_PTR)(va) & (PAGE_SIZE - 1)))

typedef enum _MM_PAGE_PRIORITY {
    LowPagePriority = 0,
    NormalPagePriority = 16,
    HighPagePriority = 32
} MM_PAGE_PRIORITY;

typedef enum _MEMORY_CACHING_TYPE {
    MmNonCached = 0,
    MmCached = 1,
    MmWriteCombined = 2
} MEMORY_CACHING_TYPE;

#define MdlMappingNoExecute 0x40000000

/* ---- Objects drivers hold pointers to but never look inside ---- */
typedef struct _DEVICE_OBJECT DEVICE_OBJECT, *PDEVICE_OBJECT;
typedef struct _DRIVER_OBJECT DRIVER_OBJECT, *PDRIVER_OBJECT;
typedef struct _IRP IRP, *PIRP;
typedef struct _FILE_OBJECT FILE_OBJECT, *PFILE_OBJECT;
typedef struct _KINTERRUPT KINTERRUPT, *PKINTERRUPT;
typedef struct _KTHREAD *PKTHREAD;
typedef struct _EPROCESS *PEPROCESS;

/* ---- Hardware resources (CM_RESOURCE_LIST and its parts) ----
 * Windows declares these with 4-byte packing: a descriptor is 20 bytes on
 * x86-64, its 64-bit members 4-byte aligned. */
typedef enum _INTERFACE_TYPE {
    InterfaceTypeUndefined = -1,
    Internal = 0,
    Isa = 1,
    Eisa = 2,
    MicroChannel = 3,
    TurboChannel = 4,
    PCIBus = 5,
    VMEBus = 6,
    NuBus = 7,
    PCMCIABus = 8,
    CBus = 9,
    MPIBus = 10,
    MPSABus = 11,
    ProcessorInternal = 12,
    InternalPowerBus = 13,
    PNPISABus = 14,
    PNPBus = 15,
    Vmcs = 16,
    ACPIBus = 17,
    MaximumInterfaceType
} INTERFACE_TYPE, *PINTERFACE_TYPE;

#define CmResourceTypeNull 0
#define CmResourceTypePort 1
#define CmResourceTypeInterrupt 2
#define CmResourceTypeMemory 3
#define CmResourceTypeDma 4
#define CmResourceTypeDeviceSpecific 5
#define CmResourceTypeBusNumber 6
#define CmResourceTypeMemoryLarge 7
#define CmResourceTypeNonArbitrated 128
#define CmResourceTypeConfigData 128
#define CmResourceTypeDevicePrivate 129
#define CmResourceTypePcCardConfig 130
#define CmResourceTypeMfCardConfig 131
#define CmResourceTypeConnection 132

typedef enum _CM_SHARE_DISPOSITION {
    CmResourceShareUndetermined = 0,
    CmResourceShareDeviceExclusive = 1,
    CmResourceShareDriverExclusive = 2,
    CmResourceShareShared = 3
} CM_SHARE_DISPOSITION;

#define CM_RESOURCE_INTERRUPT_LEVEL_SENSITIVE 0x0000
#define CM_RESOURCE_INTERRUPT_LATCHED 0x0001
#define CM_RESOURCE_INTERRUPT_MESSAGE 0x0002
#define CM_RESOURCE_MEMORY_READ_WRITE 0x0000
#define CM_RESOURCE_MEMORY_READ_ONLY 0x0001
#define CM_RESOURCE_MEMORY_WRITE_ONLY 0x0002
#define CM_RESOURCE_MEMORY_PREFETCHABLE 0x0004
#define CM_RESOURCE_MEMORY_COMBINEDWRITE 0x0008
#define CM_RESOURCE_MEMORY_24 0x0010
#define CM_RESOURCE_MEMORY_CACHEABLE 0x0020
#define CM_RESOURCE_MEMORY_LARGE_40 0x0200
#define CM_RESOURCE_MEMORY_LARGE_48 0x0400
#define CM_RESOURCE_MEMORY_LARGE_64 0x0800
#define CM_RESOURCE_PORT_MEMORY 0x0000
#define CM_RESOURCE_PORT_IO 0x0001

#pragma pack(push, 4)
typedef struct _CM_PARTIAL_RESOURCE_DESCRIPTOR {
    UCHAR Type;
    UCHAR ShareDisposition;
    USHORT Flags;
    union {
        struct {
            PHYSICAL_ADDRESS Start;
            ULONG Length;
        } Generic;
        struct {
            PHYSICAL_ADDRESS Start;
            ULONG Length;
        } Port;
        struct {
            ULONG Level;
            ULONG Vector;
            KAFFINITY Affinity;
        } Interrupt;
        struct {
            union {
                struct {
                    union { /* Group with NT_PROCESSOR_GROUPS, Reserved without */
                        USHORT Group;
                        USHORT Reserved;
                    };
                    USHORT MessageCount;
                    ULONG Vector;
                    KAFFINITY Affinity;
                } Raw;
                struct {
                    ULONG Level;
                    ULONG Vector;
                    KAFFINITY Affinity;
                } Translated;
            };
        } MessageInterrupt;
        struct {
            PHYSICAL_ADDRESS Start;
            ULONG Length;
        } Memory;
        struct {
            ULONG Channel;
            ULONG Port;
            ULONG Reserved1;
        } Dma;
        struct {
            ULONG Channel;
            ULONG RequestLine;
            UCHAR TransferWidth;
            UCHAR Reserved1;
            UCHAR Reserved2;
            UCHAR Reserved3;
        } DmaV3;
        struct {
            ULONG Data[3];
        } DevicePrivate;
        struct {
            ULONG Start;
            ULONG Length;
            ULONG Reserved;
        } BusNumber;
        struct {
            ULONG DataSize;
            ULONG Reserved1;
            ULONG Reserved2;
        } DeviceSpecificData;
        struct {
            PHYSICAL_ADDRESS Start;
            ULONG Length40;
        } Memory40;
        struct {
            PHYSICAL_ADDRESS Start;
            ULONG Length48;
        } Memory48;
        struct {
            PHYSICAL_ADDRESS Start;
            ULONG Length64;
        } Memory64;
        struct {
            UCHAR Class;
            UCHAR Type;
            UCHAR Reserved1;
            UCHAR Reserved2;
            ULONG IdLowPart;
            ULONG IdHighPart;
        } Connection;
    } u;
} CM_PARTIAL_RESOURCE_DESCRIPTOR, *PCM_PARTIAL_RESOURCE_DESCRIPTOR;

typedef struct _CM_PARTIAL_RESOURCE_LIST {
    USHORT Version;
    USHORT Revision;
    ULONG Count;
    CM_PARTIAL_RESOURCE_DESCRIPTOR PartialDescriptors[1];
} CM_PARTIAL_RESOURCE_LIST, *PCM_PARTIAL_RESOURCE_LIST;

typedef struct _CM_FULL_RESOURCE_DESCRIPTOR {
    INTERFACE_TYPE InterfaceType;
    ULONG BusNumber;
    CM_PARTIAL_RESOURCE_LIST PartialResourceList;
} CM_FULL_RESOURCE_DESCRIPTOR, *PCM_FULL_RESOURCE_DESCRIPTOR;

typedef struct _CM_RESOURCE_LIST {
    ULONG Count;
    CM_FULL_RESOURCE_DESCRIPTOR List[1];
} CM_RESOURCE_LIST, *PCM_RESOURCE_LIST;
#pragma pack(pop)

PBC_WDK_STATIC_ASSERT(sizeof(CM_PARTIAL_RESOURCE_DESCRIPTOR) == 20, "CM_PARTIAL_RESOURCE_DESCRIPTOR");
PBC_WDK_STATIC_ASSERT(offsetof(CM_PARTIAL_RESOURCE_DESCRIPTOR, u) == 4, "CM_PARTIAL_RESOURCE_DESCRIPTOR.u");
PBC_WDK_STATIC_ASSERT(offsetof(CM_PARTIAL_RESOURCE_DESCRIPTOR, u.Interrupt.Affinity) == 12, "Interrupt.Affinity");
PBC_WDK_STATIC_ASSERT(offsetof(CM_PARTIAL_RESOURCE_DESCRIPTOR, u.Memory.Length) == 12, "Memory.Length");
PBC_WDK_STATIC_ASSERT(sizeof(CM_PARTIAL_RESOURCE_LIST) == 28, "CM_PARTIAL_RESOURCE_LIST");
PBC_WDK_STATIC_ASSERT(sizeof(CM_FULL_RESOURCE_DESCRIPTOR) == 36, "CM_FULL_RESOURCE_DESCRIPTOR");
PBC_WDK_STATIC_ASSERT(sizeof(CM_RESOURCE_LIST) == 40, "CM_RESOURCE_LIST");

/* ---- Power ---- */
typedef enum _DEVICE_POWER_STATE {
    PowerDeviceUnspecified = 0,
    PowerDeviceD0 = 1,
    PowerDeviceD1 = 2,
    PowerDeviceD2 = 3,
    PowerDeviceD3 = 4,
    PowerDeviceMaximum = 5
} DEVICE_POWER_STATE, *PDEVICE_POWER_STATE;

typedef enum _SYSTEM_POWER_STATE {
    PowerSystemUnspecified = 0,
    PowerSystemWorking = 1,
    PowerSystemSleeping1 = 2,
    PowerSystemSleeping2 = 3,
    PowerSystemSleeping3 = 4,
    PowerSystemHibernate = 5,
    PowerSystemShutdown = 6,
    PowerSystemMaximum = 7
} SYSTEM_POWER_STATE, *PSYSTEM_POWER_STATE;

typedef enum _POWER_ACTION {
    PowerActionNone = 0,
    PowerActionReserved = 1,
    PowerActionSleep = 2,
    PowerActionHibernate = 3,
    PowerActionShutdown = 4,
    PowerActionShutdownReset = 5,
    PowerActionShutdownOff = 6,
    PowerActionWarmEject = 7,
    PowerActionDisplayOff = 8
} POWER_ACTION, *PPOWER_ACTION;

typedef NTSTATUS DRIVER_INITIALIZE(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);
typedef DRIVER_INITIALIZE *PDRIVER_INITIALIZE;
typedef VOID DRIVER_UNLOAD(PDRIVER_OBJECT DriverObject);
typedef DRIVER_UNLOAD *PDRIVER_UNLOAD;

/* ---- Dispatcher objects (x86-64 sizes) ---- */
typedef struct _DISPATCHER_HEADER {
    UCHAR Type;
    UCHAR Signalling;
    UCHAR Size;
    UCHAR Reserved1;
    LONG SignalState;
    LIST_ENTRY WaitListHead;
} DISPATCHER_HEADER;

typedef struct _KEVENT {
    DISPATCHER_HEADER Header;
} KEVENT, *PKEVENT, *PRKEVENT;

typedef enum _EVENT_TYPE { NotificationEvent = 0, SynchronizationEvent = 1 } EVENT_TYPE;

typedef enum _KWAIT_REASON { Executive = 0, FreePage = 1, PageIn = 2, PoolAllocation = 3,
                             DelayExecution = 4, Suspended = 5, UserRequest = 6 } KWAIT_REASON;

typedef enum _MODE { KernelMode = 0, UserMode = 1, MaximumMode = 2 } MODE;

#define EVENT_INCREMENT 1
#define IO_NO_INCREMENT 0
#define IO_VIDEO_INCREMENT 1

struct _KDPC;
typedef VOID KDEFERRED_ROUTINE(struct _KDPC *Dpc, PVOID DeferredContext, PVOID SystemArgument1,
                               PVOID SystemArgument2);
typedef KDEFERRED_ROUTINE *PKDEFERRED_ROUTINE;

typedef struct _KDPC {
    union {
        ULONG TargetInfoAsUlong;
        struct {
            UCHAR Type;
            UCHAR Importance;
            USHORT Number;
        };
    };
    SINGLE_LIST_ENTRY DpcListEntry;
    KAFFINITY ProcessorHistory;
    PKDEFERRED_ROUTINE DeferredRoutine;
    PVOID DeferredContext;
    PVOID SystemArgument1;
    PVOID SystemArgument2;
    PVOID DpcData;
} KDPC, *PKDPC, *PRKDPC;

typedef struct _KTIMER {
    DISPATCHER_HEADER Header;
    ULARGE_INTEGER DueTime;
    LIST_ENTRY TimerListEntry;
    struct _KDPC *Dpc;
    ULONG Processor;
    ULONG Period;
} KTIMER, *PKTIMER, *PRKTIMER;

/* ---- Threads, objects and handles ---- */
typedef ULONG ACCESS_MASK, *PACCESS_MASK;
#define SYNCHRONIZE 0x00100000u
#define STANDARD_RIGHTS_REQUIRED 0x000F0000u
#define STANDARD_RIGHTS_ALL 0x001F0000u
#define GENERIC_READ 0x80000000u
#define GENERIC_WRITE 0x40000000u
#define GENERIC_EXECUTE 0x20000000u
#define GENERIC_ALL 0x10000000u
#define THREAD_ALL_ACCESS (STANDARD_RIGHTS_REQUIRED | SYNCHRONIZE | 0xFFFFu)

#define OBJ_INHERIT 0x00000002u
#define OBJ_PERMANENT 0x00000010u
#define OBJ_EXCLUSIVE 0x00000020u
#define OBJ_CASE_INSENSITIVE 0x00000040u
#define OBJ_OPENIF 0x00000080u
#define OBJ_OPENLINK 0x00000100u
#define OBJ_KERNEL_HANDLE 0x00000200u
#define OBJ_FORCE_ACCESS_CHECK 0x00000400u

typedef struct _OBJECT_ATTRIBUTES {
    ULONG Length;
    HANDLE RootDirectory;
    PUNICODE_STRING ObjectName;
    ULONG Attributes;
    PVOID SecurityDescriptor;
    PVOID SecurityQualityOfService;
} OBJECT_ATTRIBUTES, *POBJECT_ATTRIBUTES;
typedef const OBJECT_ATTRIBUTES *PCOBJECT_ATTRIBUTES;

#define InitializeObjectAttributes(p, n, a, r, s) \
    do {                                          \
        (p)->Length = sizeof(OBJECT_ATTRIBUTES);  \
        (p)->RootDirectory = (r);                 \
        (p)->Attributes = (a);                    \
        (p)->ObjectName = (n);                    \
        (p)->SecurityDescriptor = (s);            \
        (p)->SecurityQualityOfService = NULL;     \
    } while (0)

typedef struct _CLIENT_ID {
    HANDLE UniqueProcess;
    HANDLE UniqueThread;
} CLIENT_ID, *PCLIENT_ID;

typedef VOID KSTART_ROUTINE(PVOID StartContext);
typedef KSTART_ROUTINE *PKSTART_ROUTINE;

/* Object types are opaque; drivers pass *PsThreadType. */
typedef struct _OBJECT_TYPE *POBJECT_TYPE;
typedef struct _OBJECT_HANDLE_INFORMATION {
    ULONG HandleAttributes;
    ACCESS_MASK GrantedAccess;
} OBJECT_HANDLE_INFORMATION, *POBJECT_HANDLE_INFORMATION;

/* Waits on more than one object (KeWaitForMultipleObjects). */
typedef enum _WAIT_TYPE { WaitAll = 0, WaitAny = 1, WaitNotification = 2, WaitDequeue = 3 } WAIT_TYPE;
#define THREAD_WAIT_OBJECTS 3
#define MAXIMUM_WAIT_OBJECTS 64
typedef struct _KWAIT_BLOCK {
    LIST_ENTRY WaitListEntry;
    UCHAR WaitType;
    UCHAR BlockState;
    USHORT WaitKey;
    LONG SpareLong;
    PVOID Thread;
    PVOID Object;
    PVOID SparePtr;
} KWAIT_BLOCK, *PKWAIT_BLOCK, *PRKWAIT_BLOCK;

/* IoGetDeviceProperty */
typedef enum _DEVICE_REGISTRY_PROPERTY {
    DevicePropertyDeviceDescription = 0,
    DevicePropertyHardwareID = 1,
    DevicePropertyCompatibleIDs = 2,
    DevicePropertyBootConfiguration = 3,
    DevicePropertyBootConfigurationTranslated = 4,
    DevicePropertyClassName = 5,
    DevicePropertyClassGuid = 6,
    DevicePropertyDriverKeyName = 7,
    DevicePropertyManufacturer = 8,
    DevicePropertyFriendlyName = 9,
    DevicePropertyLocationInformation = 10,
    DevicePropertyPhysicalDeviceObjectName = 11,
    DevicePropertyBusTypeGuid = 12,
    DevicePropertyLegacyBusType = 13,
    DevicePropertyBusNumber = 14,
    DevicePropertyEnumeratorName = 15,
    DevicePropertyAddress = 16,
    DevicePropertyUINumber = 17,
    DevicePropertyInstallState = 18,
    DevicePropertyRemovalPolicy = 19,
    DevicePropertyResourceRequirements = 20,
    DevicePropertyAllocatedResources = 21,
    DevicePropertyContainerID = 22
} DEVICE_REGISTRY_PROPERTY;

PBC_WDK_STATIC_ASSERT(sizeof(KEVENT) == 24, "KEVENT");
PBC_WDK_STATIC_ASSERT(sizeof(OBJECT_ATTRIBUTES) == 48, "OBJECT_ATTRIBUTES");
PBC_WDK_STATIC_ASSERT(offsetof(OBJECT_ATTRIBUTES, ObjectName) == 16, "OBJECT_ATTRIBUTES.ObjectName");
PBC_WDK_STATIC_ASSERT(sizeof(CLIENT_ID) == 16, "CLIENT_ID");
PBC_WDK_STATIC_ASSERT(sizeof(KWAIT_BLOCK) == 48, "KWAIT_BLOCK");
PBC_WDK_STATIC_ASSERT(sizeof(KDPC) == 64, "KDPC");
PBC_WDK_STATIC_ASSERT(sizeof(KTIMER) == 64, "KTIMER");

/* ---- Pool ---- */
typedef enum _POOL_TYPE {
    NonPagedPool = 0,
    NonPagedPoolExecute = 0,
    PagedPool = 1,
    NonPagedPoolMustSucceed = 2,
    DontUseThisType = 3,
    NonPagedPoolCacheAligned = 4,
    PagedPoolCacheAligned = 5,
    NonPagedPoolCacheAlignedMustS = 6,
    MaxPoolType = 7,
    NonPagedPoolNx = 512,
    NonPagedPoolNxCacheAligned = 516
} POOL_TYPE;

typedef ULONG64 POOL_FLAGS;
#define POOL_FLAG_REQUIRED_START 0x0000000000000001ull
#define POOL_FLAG_USE_QUOTA 0x0000000000000001ull
#define POOL_FLAG_UNINITIALIZED 0x0000000000000002ull
#define POOL_FLAG_SESSION 0x0000000000000004ull
#define POOL_FLAG_CACHE_ALIGNED 0x0000000000000008ull
#define POOL_FLAG_RAISE_ON_FAILURE 0x0000000000000020ull
#define POOL_FLAG_NON_PAGED 0x0000000000000040ull
#define POOL_FLAG_NON_PAGED_EXECUTE 0x0000000000000080ull
#define POOL_FLAG_PAGED 0x0000000000000100ull

/* ---- Debug output ---- */
#define DPFLTR_IHVDRIVER_ID 77
#define DPFLTR_IHVVIDEO_ID 78
#define DPFLTR_IHVAUDIO_ID 79
#define DPFLTR_IHVNETWORK_ID 80
#define DPFLTR_IHVSTREAMING_ID 81
#define DPFLTR_IHVBUS_ID 82
#define DPFLTR_ERROR_LEVEL 0
#define DPFLTR_WARNING_LEVEL 1
#define DPFLTR_TRACE_LEVEL 2
#define DPFLTR_INFO_LEVEL 3
#define DPFLTR_MASK 0x80000000u

/* Bug check codes the kernel itself raises for driver errors. */
#define IRQL_NOT_LESS_OR_EQUAL 0x0000000Au
#define DRIVER_IRQL_NOT_LESS_OR_EQUAL 0x000000D1u
#define VIDEO_TDR_FAILURE 0x00000116u
#define KERNEL_SECURITY_CHECK_FAILURE 0x00000139u
#define FAST_FAIL_CORRUPT_LIST_ENTRY 3

/* ---- Kernel services: MDL mappings, I/O space and registers (shim.c) ---- */

/* Maps the MDL's pages to one contiguous CPU range. Writes through the
 * mapping reach modeled memory when the DDI call that made it returns or
 * when MmUnmapLockedPages is called, whichever comes first. */
PVOID MmGetSystemAddressForMdlSafe(PMDL Mdl, ULONG Priority);
VOID MmUnmapLockedPages(PVOID BaseAddress, PMDL Mdl);
/* Maps modeled physical memory (a segment range) for CPU access. */
PVOID MmMapIoSpace(PHYSICAL_ADDRESS PhysicalAddress, SIZE_T NumberOfBytes,
                   MEMORY_CACHING_TYPE CacheType);
VOID MmUnmapIoSpace(PVOID BaseAddress, SIZE_T NumberOfBytes);
/* The physical address behind a byte of a paging buffer or of a CPU view
 * (MmMapIoSpace, an MDL mapping); 0 for any other address. */
PHYSICAL_ADDRESS MmGetPhysicalAddress(PVOID BaseAddress);
/* Register access goes to the adapter's modeled MMIO register file when
 * Register lies in it. */
ULONG READ_REGISTER_ULONG(volatile ULONG *Register);
VOID WRITE_REGISTER_ULONG(volatile ULONG *Register, ULONG Value);
UCHAR READ_REGISTER_UCHAR(volatile UCHAR *Register);
USHORT READ_REGISTER_USHORT(volatile USHORT *Register);
ULONG64 READ_REGISTER_ULONG64(volatile ULONG64 *Register);
VOID WRITE_REGISTER_UCHAR(volatile UCHAR *Register, UCHAR Value);
VOID WRITE_REGISTER_USHORT(volatile USHORT *Register, USHORT Value);
VOID WRITE_REGISTER_ULONG64(volatile ULONG64 *Register, ULONG64 Value);
/* Raises to DISPATCH_LEVEL; served by the shim. */
VOID KeAcquireSpinLock(PKSPIN_LOCK SpinLock, PKIRQL OldIrql);
VOID KeReleaseSpinLock(PKSPIN_LOCK SpinLock, KIRQL NewIrql);
/* A failed NT_ASSERT is reported by the harness as a finding against the
 * target; it never aborts the harness. */
VOID pbc_wdk_assert_failed(const char *expr, const char *file, int line);

/* ---- Kernel services (services.c) ----
 * The harness is one CPU: driver code never runs on two threads at once.
 * A wait that could never be satisfied, a spin lock acquired twice, a bad
 * pool free, a leak, a bug check or a break point is recorded as a finding
 * against the driver; every call returns. */

/* Captured into the run's log (Windows conversions such as %wZ, %ws and
 * %I64x are understood; %lx reads a 32-bit ULONG as on Windows). */
ULONG DbgPrint(const char *Format, ...);
ULONG DbgPrintEx(ULONG ComponentId, ULONG Level, const char *Format, ...);
/* Recorded as a finding; returns (never stops the harness). */
VOID DbgBreakPoint(VOID);
VOID KeBugCheckEx(ULONG BugCheckCode, ULONG_PTR BugCheckParameter1, ULONG_PTR BugCheckParameter2,
                  ULONG_PTR BugCheckParameter3, ULONG_PTR BugCheckParameter4);
VOID KeBugCheck(ULONG BugCheckCode);

VOID KeInitializeEvent(PRKEVENT Event, EVENT_TYPE Type, BOOLEAN State);
/* Returns the previous state. */
LONG KeSetEvent(PRKEVENT Event, KPRIORITY Increment, BOOLEAN Wait);
LONG KeResetEvent(PRKEVENT Event);
VOID KeClearEvent(PRKEVENT Event);
LONG KeReadStateEvent(PRKEVENT Event);
/* Object is a KEVENT or a thread object. A signalled event satisfies the
 * wait (and a synchronization event resets). Unsignalled: when no other
 * driver thread could signal it the wait times out at once (STATUS_TIMEOUT),
 * and without a Timeout that is recorded as a deadlock; otherwise the
 * caller really waits while the others run (a DDI thread at most 2 s). */
NTSTATUS KeWaitForSingleObject(PVOID Object, KWAIT_REASON WaitReason, KPROCESSOR_MODE WaitMode,
                               BOOLEAN Alertable, PLARGE_INTEGER Timeout);

/* Waits for any or all of Count objects (events or threads); WaitBlockArray
 * may be NULL for up to THREAD_WAIT_OBJECTS. Returns STATUS_WAIT_0 + the
 * index of the object that satisfied a WaitAny. */
NTSTATUS KeWaitForMultipleObjects(ULONG Count, PVOID Object[], WAIT_TYPE WaitType, KWAIT_REASON WaitReason,
                                  KPROCESSOR_MODE WaitMode, BOOLEAN Alertable, PLARGE_INTEGER Timeout,
                                  PKWAIT_BLOCK WaitBlockArray);
/* Lets the driver's other threads run; a relative interval advances the
 * clock. */
NTSTATUS KeDelayExecutionThread(KPROCESSOR_MODE WaitMode, BOOLEAN Alertable, PLARGE_INTEGER Interval);

/* DPCs run at DISPATCH_LEVEL on the harness's one CPU: at once when
 * queued below DISPATCH_LEVEL, else when the IRQL drops below it (or the
 * DDI call returns). */
VOID KeInitializeDpc(PRKDPC Dpc, PKDEFERRED_ROUTINE DeferredRoutine, PVOID DeferredContext);
BOOLEAN KeInsertQueueDpc(PRKDPC Dpc, PVOID SystemArgument1, PVOID SystemArgument2);
BOOLEAN KeRemoveQueueDpc(PRKDPC Dpc);
VOID KeFlushQueuedDpcs(VOID);

/* A system thread is a real thread running StartRoutine. The harness has
 * one CPU: the driver's threads take turns, switching only inside waits
 * (KeWait*, KeDelayExecutionThread, KeStallExecutionProcessor) and between
 * DDI calls. A thread still running when the run ends is ended at its next
 * wait and reported. */
NTSTATUS PsCreateSystemThread(PHANDLE ThreadHandle, ULONG DesiredAccess, POBJECT_ATTRIBUTES ObjectAttributes,
                              HANDLE ProcessHandle, PCLIENT_ID ClientId, PKSTART_ROUTINE StartRoutine,
                              PVOID StartContext);
/* Ends the calling system thread (does not return); from any other thread
 * it is recorded as a bug check and returns STATUS_INVALID_PARAMETER. */
NTSTATUS PsTerminateSystemThread(NTSTATUS ExitStatus);
extern POBJECT_TYPE *PsThreadType;
/* Thread handles only: *Object is the thread object, which a wait
 * satisfies when the thread has ended. */
NTSTATUS ObReferenceObjectByHandle(HANDLE Handle, ACCESS_MASK DesiredAccess, POBJECT_TYPE ObjectType,
                                   KPROCESSOR_MODE AccessMode, PVOID *Object,
                                   POBJECT_HANDLE_INFORMATION HandleInformation);
LONG_PTR ObfDereferenceObject(PVOID Object);
#define ObDereferenceObject(o) ObfDereferenceObject(o)
NTSTATUS ZwClose(HANDLE Handle);

/* The model adapter's properties: fixed values (docs/wdk-headers.md). */
NTSTATUS IoGetDeviceProperty(PDEVICE_OBJECT DeviceObject, DEVICE_REGISTRY_PROPERTY DeviceProperty,
                             ULONG BufferLength, PVOID PropertyBuffer, PULONG ResultLength);

VOID KeInitializeSpinLock(PKSPIN_LOCK SpinLock);
/* Require DISPATCH_LEVEL or above; acquiring a held lock is a deadlock. */
VOID KeAcquireSpinLockAtDpcLevel(PKSPIN_LOCK SpinLock);
VOID KeReleaseSpinLockFromDpcLevel(PKSPIN_LOCK SpinLock);
KIRQL KeGetCurrentIrql(VOID);
VOID KeRaiseIrql(KIRQL NewIrql, PKIRQL OldIrql);
VOID KeLowerIrql(KIRQL NewIrql);
KIRQL KeRaiseIrqlToDpcLevel(VOID);
/* Never sleeps: the time is counted and advances KeQueryPerformanceCounter. */
VOID KeStallExecutionProcessor(ULONG MicroSeconds);
/* A deterministic clock at 10 MHz that starts at 0 on every run. */
LARGE_INTEGER KeQueryPerformanceCounter(PLARGE_INTEGER PerformanceFrequency);

/* Blocks are tracked per run by tag; a block still live when the run ends
 * is a leak. */
PVOID ExAllocatePoolWithTag(POOL_TYPE PoolType, SIZE_T NumberOfBytes, ULONG Tag);
PVOID ExAllocatePool2(POOL_FLAGS Flags, SIZE_T NumberOfBytes, ULONG Tag);
VOID ExFreePoolWithTag(PVOID P, ULONG Tag);
VOID ExFreePool(PVOID P);

SIZE_T RtlCompareMemory(const VOID *Source1, const VOID *Source2, SIZE_T Length);
/* Points DestinationString at SourceString (NULL: empty), lengths in bytes. */
VOID RtlInitUnicodeString(PUNICODE_STRING DestinationString, PCWSTR SourceString);
/* A UNICODE_STRING over a string literal: RTL_CONSTANT_STRING(L"...") when
 * WCHAR is wchar_t (-fshort-wchar), RTL_CONSTANT_STRING(u"...") otherwise. */
#define RTL_CONSTANT_STRING(s) {sizeof(s) - sizeof((s)[0]), sizeof(s), (PWCH)(s)}

/* The interlocked list forms take the lock with KeAcquireSpinLockAtDpcLevel
 * semantics (a held lock is a deadlock) without changing the IRQL. */
PLIST_ENTRY ExInterlockedInsertHeadList(PLIST_ENTRY ListHead, PLIST_ENTRY ListEntry,
                                        PKSPIN_LOCK Lock);
PLIST_ENTRY ExInterlockedInsertTailList(PLIST_ENTRY ListHead, PLIST_ENTRY ListEntry,
                                        PKSPIN_LOCK Lock);
PLIST_ENTRY ExInterlockedRemoveHeadList(PLIST_ENTRY ListHead, PKSPIN_LOCK Lock);

#define RtlCopyMemory(d, s, n) memcpy((d), (s), (n))
#define RtlMoveMemory(d, s, n) memmove((d), (s), (n))
#define RtlZeroMemory(d, n) memset((d), 0, (n))
#define RtlFillMemory(d, n, v) memset((d), (v), (n))
#define RtlEqualMemory(a, b, n) (!memcmp((a), (b), (n)))
#define RtlSecureZeroMemory(d, n) memset((d), 0, (n))
#define NT_ASSERT(e) ((e) ? (void)0 : pbc_wdk_assert_failed(#e, __FILE__, __LINE__))
#define NT_VERIFY(e) NT_ASSERT(e)
#ifndef ASSERT
#define ASSERT(e) NT_ASSERT(e)
#endif
#define PAGED_CODE() ((void)0)
#define PAGED_CODE_LOCKED() ((void)0)

/* ---- Doubly and singly linked lists, as Windows defines them. A corrupt
 * neighbour is a KERNEL_SECURITY_CHECK_FAILURE bug check, as on Windows. */
FORCEINLINE VOID pbc_wdk_list_corrupt(PLIST_ENTRY Entry)
{
    KeBugCheckEx(KERNEL_SECURITY_CHECK_FAILURE, FAST_FAIL_CORRUPT_LIST_ENTRY, (ULONG_PTR)Entry, 0, 0);
}

FORCEINLINE VOID InitializeListHead(PLIST_ENTRY ListHead)
{
    ListHead->Flink = ListHead->Blink = ListHead;
}

FORCEINLINE BOOLEAN IsListEmpty(const LIST_ENTRY *ListHead)
{
    return (BOOLEAN)(ListHead->Flink == ListHead);
}

FORCEINLINE BOOLEAN RemoveEntryList(PLIST_ENTRY Entry)
{
    PLIST_ENTRY next = Entry->Flink, prev = Entry->Blink;
    if (next->Blink != Entry || prev->Flink != Entry) {
        pbc_wdk_list_corrupt(Entry);
        return FALSE;
    }
    prev->Flink = next;
    next->Blink = prev;
    return (BOOLEAN)(next == prev);
}

FORCEINLINE PLIST_ENTRY RemoveHeadList(PLIST_ENTRY ListHead)
{
    PLIST_ENTRY entry = ListHead->Flink, next = entry->Flink;
    if (entry->Blink != ListHead || next->Blink != entry) {
        pbc_wdk_list_corrupt(ListHead);
        return ListHead;
    }
    ListHead->Flink = next;
    next->Blink = ListHead;
    return entry;
}

FORCEINLINE PLIST_ENTRY RemoveTailList(PLIST_ENTRY ListHead)
{
    PLIST_ENTRY entry = ListHead->Blink, prev = entry->Blink;
    if (entry->Flink != ListHead || prev->Flink != entry) {
        pbc_wdk_list_corrupt(ListHead);
        return ListHead;
    }
    ListHead->Blink = prev;
    prev->Flink = ListHead;
    return entry;
}

FORCEINLINE VOID InsertTailList(PLIST_ENTRY ListHead, PLIST_ENTRY Entry)
{
    PLIST_ENTRY prev = ListHead->Blink;
    if (prev->Flink != ListHead) {
        pbc_wdk_list_corrupt(ListHead);
        return;
    }
    Entry->Flink = ListHead;
    Entry->Blink = prev;
    prev->Flink = Entry;
    ListHead->Blink = Entry;
}

FORCEINLINE VOID InsertHeadList(PLIST_ENTRY ListHead, PLIST_ENTRY Entry)
{
    PLIST_ENTRY next = ListHead->Flink;
    if (next->Blink != ListHead) {
        pbc_wdk_list_corrupt(ListHead);
        return;
    }
    Entry->Flink = next;
    Entry->Blink = ListHead;
    next->Blink = Entry;
    ListHead->Flink = Entry;
}

FORCEINLINE VOID AppendTailList(PLIST_ENTRY ListHead, PLIST_ENTRY ListToAppend)
{
    PLIST_ENTRY end = ListHead->Blink;
    ListHead->Blink->Flink = ListToAppend;
    ListHead->Blink = ListToAppend->Blink;
    ListToAppend->Blink->Flink = ListHead;
    ListToAppend->Blink = end;
}

FORCEINLINE PSINGLE_LIST_ENTRY PopEntryList(PSINGLE_LIST_ENTRY ListHead)
{
    PSINGLE_LIST_ENTRY first = ListHead->Next;
    if (first != NULL)
        ListHead->Next = first->Next;
    return first;
}

FORCEINLINE VOID PushEntryList(PSINGLE_LIST_ENTRY ListHead, PSINGLE_LIST_ENTRY Entry)
{
    Entry->Next = ListHead->Next;
    ListHead->Next = Entry;
}

#ifdef __cplusplus
}
#endif

#endif
