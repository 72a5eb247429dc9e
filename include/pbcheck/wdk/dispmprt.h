/*
 * dispmprt.h — what a display miniport driver includes: the kernel headers
 * (ntddk.h, wdm.h), the display DDI (d3dkmddi.h, d3dukmdt.h), and the
 * types of driver start-up: DRIVER_INITIALIZATION_DATA (the driver's DDI
 * table), DXGKRNL_INTERFACE (the callbacks DXGKRNL hands the driver),
 * DXGK_START_INFO and DXGK_DEVICE_INFO. Names and x86-64 layouts are
 * Windows'.
 *
 * DRIVER_INITIALIZATION_DATA and DXGKRNL_INTERFACE are the WDDM 1.0 prefix
 * of Windows' tables, in Windows' order; argument structures pbcheck does
 * not model are incomplete types, so a driver can name them in prototypes
 * but not look inside.
 */
#ifndef PBCHECK_WDK_DISPMPRT_H
#define PBCHECK_WDK_DISPMPRT_H

#ifndef _DISPMPRT_H_
#define _DISPMPRT_H_
#endif

#include "ntddk.h"
#include "d3dkmddi.h"
#include "d3dukmdt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DXGKDDI_INTERFACE_VERSION_VISTA 0x1052
#define DXGKDDI_INTERFACE_VERSION_WIN7 0x2005
#define DXGKDDI_INTERFACE_VERSION_WIN8 0x300E
#define DXGKDDI_INTERFACE_VERSION_WDDM2_0 0x5023
#ifndef DXGKDDI_INTERFACE_VERSION
#define DXGKDDI_INTERFACE_VERSION DXGKDDI_INTERFACE_VERSION_WIN8
#endif

#define DISPLAY_ADAPTER_HW_ID 0xFFFFFFFFu

typedef enum _DOCKING_STATE {
    DockStateUnsupported = 0,
    DockStateUnDocked = 1,
    DockStateDocked = 2,
    DockStateUnknown = 3
} DOCKING_STATE;

typedef struct _DXGK_START_INFO {
    ULONG RequiredDmaQueueEntry;
    GUID AdapterGuid;
    LUID AdapterLuid;
} DXGK_START_INFO, *PDXGK_START_INFO;
typedef DXGK_START_INFO *IN_PDXGK_START_INFO;

typedef struct _DXGK_DEVICE_INFO {
    PVOID MiniportDeviceContext;
    PDEVICE_OBJECT PhysicalDeviceObject;
    UNICODE_STRING DeviceRegistryPath;
    PCM_RESOURCE_LIST TranslatedResourceList;
    LARGE_INTEGER SystemMemorySize;
    PHYSICAL_ADDRESS HighestPhysicalAddress;
    PHYSICAL_ADDRESS AgpApertureBase;
    SIZE_T AgpApertureSize;
    DOCKING_STATE DockingState;
} DXGK_DEVICE_INFO, *PDXGK_DEVICE_INFO;

/* ---- Callbacks into DXGKRNL (DXGKRNL_INTERFACE) ---- */
typedef struct _ACPI_EVAL_INPUT_BUFFER_COMPLEX *PACPI_EVAL_INPUT_BUFFER_COMPLEX;
typedef struct _ACPI_EVAL_OUTPUT_BUFFER *PACPI_EVAL_OUTPUT_BUFFER;
typedef struct _DXGK_CHILD_STATUS *PDXGK_CHILD_STATUS;
typedef struct _DXGKARGCB_NOTIFY_INTERRUPT_DATA DXGKARGCB_NOTIFY_INTERRUPT_DATA;
typedef const DXGKARGCB_NOTIFY_INTERRUPT_DATA *IN_CONST_PDXGKARGCB_NOTIFY_INTERRUPT_DATA;

typedef NTSTATUS APIENTRY DXGKCB_EVAL_ACPI_METHOD(HANDLE DeviceHandle, ULONG DeviceUid,
                                                  PACPI_EVAL_INPUT_BUFFER_COMPLEX AcpiInputBuffer,
                                                  ULONG AcpiInputSize,
                                                  PACPI_EVAL_OUTPUT_BUFFER AcpiOutputBuffer,
                                                  ULONG AcpiOutputSize);
typedef NTSTATUS APIENTRY DXGKCB_GET_DEVICE_INFORMATION(HANDLE DeviceHandle, PDXGK_DEVICE_INFO DeviceInfo);
typedef NTSTATUS APIENTRY DXGKCB_INDICATE_CHILD_STATUS(HANDLE DeviceHandle, PDXGK_CHILD_STATUS ChildStatus);
typedef NTSTATUS APIENTRY DXGKCB_MAP_MEMORY(HANDLE DeviceHandle, PHYSICAL_ADDRESS TranslatedAddress,
                                            ULONG Length, BOOLEAN InIoSpace, BOOLEAN MapToUserMode,
                                            MEMORY_CACHING_TYPE CacheType, PVOID *VirtualAddress);
typedef BOOLEAN APIENTRY DXGKCB_QUEUE_DPC(HANDLE DeviceHandle);
typedef NTSTATUS APIENTRY DXGKCB_QUERY_SERVICES(HANDLE DeviceHandle, ULONG ServicesType, PVOID Interface);
typedef NTSTATUS APIENTRY DXGKCB_READ_DEVICE_SPACE(HANDLE DeviceHandle, ULONG DataType, PVOID Buffer,
                                                   ULONG Offset, ULONG Length, PULONG BytesRead);
typedef BOOLEAN KSYNCHRONIZE_ROUTINE(PVOID SynchronizeContext);
typedef KSYNCHRONIZE_ROUTINE *PKSYNCHRONIZE_ROUTINE;
typedef NTSTATUS APIENTRY DXGKCB_SYNCHRONIZE_EXECUTION(HANDLE DeviceHandle,
                                                       PKSYNCHRONIZE_ROUTINE SynchronizeRoutine,
                                                       PVOID Context, ULONG MessageNumber,
                                                       PBOOLEAN ReturnValue);
typedef NTSTATUS APIENTRY DXGKCB_UNMAP_MEMORY(HANDLE DeviceHandle, PVOID VirtualAddress);
typedef NTSTATUS APIENTRY DXGKCB_WRITE_DEVICE_SPACE(HANDLE DeviceHandle, ULONG DataType, PVOID Buffer,
                                                    ULONG Offset, ULONG Length, PULONG BytesWritten);
typedef NTSTATUS APIENTRY DXGKCB_IS_DEVICE_PRESENT(HANDLE DeviceHandle, PVOID DeviceData,
                                                   PBOOLEAN DevicePresent);
typedef PVOID APIENTRY DXGKCB_GETHANDLEDATA(const VOID *pData);
typedef HANDLE APIENTRY DXGKCB_GETHANDLEPARENT(HANDLE hAllocation);
typedef HANDLE APIENTRY DXGKCB_ENUMHANDLECHILDREN(const VOID *pData);
typedef VOID APIENTRY DXGKCB_NOTIFY_INTERRUPT(HANDLE hAdapter,
                                              IN_CONST_PDXGKARGCB_NOTIFY_INTERRUPT_DATA pData);
typedef VOID APIENTRY DXGKCB_NOTIFY_DPC(HANDLE hAdapter);

typedef struct _DXGKRNL_INTERFACE {
    ULONG Size;
    ULONG Version;
    HANDLE DeviceHandle;
    DXGKCB_EVAL_ACPI_METHOD *DxgkCbEvalAcpiMethod;
    DXGKCB_GET_DEVICE_INFORMATION *DxgkCbGetDeviceInformation;
    DXGKCB_INDICATE_CHILD_STATUS *DxgkCbIndicateChildStatus;
    DXGKCB_MAP_MEMORY *DxgkCbMapMemory;
    DXGKCB_QUEUE_DPC *DxgkCbQueueDpc;
    DXGKCB_QUERY_SERVICES *DxgkCbQueryServices;
    DXGKCB_READ_DEVICE_SPACE *DxgkCbReadDeviceSpace;
    DXGKCB_SYNCHRONIZE_EXECUTION *DxgkCbSynchronizeExecution;
    DXGKCB_UNMAP_MEMORY *DxgkCbUnmapMemory;
    DXGKCB_WRITE_DEVICE_SPACE *DxgkCbWriteDeviceSpace;
    DXGKCB_IS_DEVICE_PRESENT *DxgkCbIsDevicePresent;
    DXGKCB_GETHANDLEDATA *DxgkCbGetHandleData;
    DXGKCB_GETHANDLEPARENT *DxgkCbGetHandleParent;
    DXGKCB_ENUMHANDLECHILDREN *DxgkCbEnumHandleChildren;
    DXGKCB_NOTIFY_INTERRUPT *DxgkCbNotifyInterrupt;
    DXGKCB_NOTIFY_DPC *DxgkCbNotifyDpc;
} DXGKRNL_INTERFACE, *PDXGKRNL_INTERFACE;
typedef const DXGKRNL_INTERFACE *IN_PDXGKRNL_INTERFACE;

/* ---- The driver's DDI table (DRIVER_INITIALIZATION_DATA) ---- */
typedef struct _DXGK_CHILD_DESCRIPTOR DXGK_CHILD_DESCRIPTOR, *PDXGK_CHILD_DESCRIPTOR;
typedef struct _DXGK_CHILD_STATUS DXGK_CHILD_STATUS;
typedef struct _DXGK_DEVICE_DESCRIPTOR DXGK_DEVICE_DESCRIPTOR, *PDXGK_DEVICE_DESCRIPTOR;
typedef struct _VIDEO_REQUEST_PACKET VIDEO_REQUEST_PACKET, *PVIDEO_REQUEST_PACKET;
typedef struct _QUERY_INTERFACE QUERY_INTERFACE, *PQUERY_INTERFACE;
typedef struct _DXGKARG_CREATEDEVICE DXGKARG_CREATEDEVICE;
typedef struct _DXGKARG_CREATEALLOCATION DXGKARG_CREATEALLOCATION;
typedef struct _DXGKARG_DESTROYALLOCATION DXGKARG_DESTROYALLOCATION;
typedef struct _DXGKARG_DESCRIBEALLOCATION DXGKARG_DESCRIBEALLOCATION;
typedef struct _DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA;
typedef struct _DXGKARG_ACQUIRESWIZZLINGRANGE DXGKARG_ACQUIRESWIZZLINGRANGE;
typedef struct _DXGKARG_RELEASESWIZZLINGRANGE DXGKARG_RELEASESWIZZLINGRANGE;
typedef struct _DXGKARG_PREEMPTCOMMAND DXGKARG_PREEMPTCOMMAND;
typedef struct _DXGKARG_SETPALETTE DXGKARG_SETPALETTE;
typedef struct _DXGKARG_SETPOINTERPOSITION DXGKARG_SETPOINTERPOSITION;
typedef struct _DXGKARG_SETPOINTERSHAPE DXGKARG_SETPOINTERSHAPE;
typedef struct _DXGKARG_ESCAPE DXGKARG_ESCAPE;
typedef struct _DXGKARG_COLLECTDBGINFO DXGKARG_COLLECTDBGINFO;
typedef struct _DXGKARG_QUERYCURRENTFENCE DXGKARG_QUERYCURRENTFENCE;
typedef struct _DXGKARG_CREATECONTEXT DXGKARG_CREATECONTEXT;


typedef NTSTATUS DXGKDDI_ADD_DEVICE(const PDEVICE_OBJECT PhysicalDeviceObject, PVOID *MiniportDeviceContext);
typedef NTSTATUS DXGKDDI_START_DEVICE(IN_CONST_PVOID MiniportDeviceContext, IN_PDXGK_START_INFO DxgkStartInfo,
                                      IN_PDXGKRNL_INTERFACE DxgkInterface, OUT_PULONG NumberOfVideoPresentSources,
                                      OUT_PULONG NumberOfChildren);
typedef NTSTATUS DXGKDDI_STOP_DEVICE(IN_CONST_PVOID MiniportDeviceContext);
typedef NTSTATUS DXGKDDI_REMOVE_DEVICE(IN_CONST_PVOID MiniportDeviceContext);
typedef NTSTATUS DXGKDDI_DISPATCH_IO_REQUEST(IN_CONST_PVOID MiniportDeviceContext, ULONG VidPnSourceId,
                                             PVIDEO_REQUEST_PACKET VideoRequestPacket);
typedef BOOLEAN DXGKDDI_INTERRUPT_ROUTINE(IN_CONST_PVOID MiniportDeviceContext, ULONG MessageNumber);
typedef VOID DXGKDDI_DPC_ROUTINE(IN_CONST_PVOID MiniportDeviceContext);
typedef NTSTATUS DXGKDDI_QUERY_CHILD_RELATIONS(IN_CONST_PVOID MiniportDeviceContext,
                                               PDXGK_CHILD_DESCRIPTOR ChildRelations,
                                               ULONG ChildRelationsSize);
typedef NTSTATUS DXGKDDI_QUERY_CHILD_STATUS(IN_CONST_PVOID MiniportDeviceContext,
                                            DXGK_CHILD_STATUS *ChildStatus, BOOLEAN NonDestructiveOnly);
typedef NTSTATUS DXGKDDI_QUERY_DEVICE_DESCRIPTOR(IN_CONST_PVOID MiniportDeviceContext, ULONG ChildUid,
                                                 PDXGK_DEVICE_DESCRIPTOR DeviceDescriptor);
typedef NTSTATUS DXGKDDI_SET_POWER_STATE(IN_CONST_PVOID MiniportDeviceContext, ULONG DeviceUid,
                                         DEVICE_POWER_STATE DevicePowerState, POWER_ACTION ActionType);
typedef NTSTATUS DXGKDDI_NOTIFY_ACPI_EVENT(IN_CONST_PVOID MiniportDeviceContext, ULONG EventType,
                                           ULONG Event, PVOID Argument, PULONG AcpiFlags);
typedef VOID DXGKDDI_RESET_DEVICE(IN_CONST_PVOID MiniportDeviceContext);
typedef VOID DXGKDDI_UNLOAD(VOID);
typedef NTSTATUS DXGKDDI_QUERY_INTERFACE(IN_CONST_PVOID MiniportDeviceContext, PQUERY_INTERFACE QueryInterface);
typedef VOID DXGKDDI_CONTROL_ETW_LOGGING(BOOLEAN Enable, ULONG Flags, UCHAR Level);
typedef NTSTATUS APIENTRY DXGKDDI_CREATEDEVICE(IN_CONST_HANDLE hAdapter, DXGKARG_CREATEDEVICE *pCreateDevice);
typedef NTSTATUS APIENTRY DXGKDDI_CREATEALLOCATION(IN_CONST_HANDLE hAdapter,
                                                   DXGKARG_CREATEALLOCATION *pCreateAllocation);
typedef NTSTATUS APIENTRY DXGKDDI_DESTROYALLOCATION(IN_CONST_HANDLE hAdapter,
                                                    const DXGKARG_DESTROYALLOCATION *pDestroyAllocation);
typedef NTSTATUS APIENTRY DXGKDDI_DESCRIBEALLOCATION(IN_CONST_HANDLE hAdapter,
                                                     DXGKARG_DESCRIBEALLOCATION *pDescribeAllocation);
typedef NTSTATUS APIENTRY DXGKDDI_GETSTANDARDALLOCATIONDRIVERDATA(
    IN_CONST_HANDLE hAdapter, DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA *pGetStandardAllocationDriverData);
typedef NTSTATUS APIENTRY DXGKDDI_ACQUIRESWIZZLINGRANGE(IN_CONST_HANDLE hAdapter,
                                                        DXGKARG_ACQUIRESWIZZLINGRANGE *pAcquireSwizzlingRange);
typedef NTSTATUS APIENTRY DXGKDDI_RELEASESWIZZLINGRANGE(
    IN_CONST_HANDLE hAdapter, const DXGKARG_RELEASESWIZZLINGRANGE *pReleaseSwizzlingRange);
typedef NTSTATUS APIENTRY DXGKDDI_PREEMPTCOMMAND(IN_CONST_HANDLE hAdapter,
                                                 const DXGKARG_PREEMPTCOMMAND *pPreemptCommand);
typedef NTSTATUS APIENTRY DXGKDDI_SETPALETTE(IN_CONST_HANDLE hAdapter, const DXGKARG_SETPALETTE *pSetPalette);
typedef NTSTATUS APIENTRY DXGKDDI_SETPOINTERPOSITION(IN_CONST_HANDLE hAdapter,
                                                     const DXGKARG_SETPOINTERPOSITION *pSetPointerPosition);
typedef NTSTATUS APIENTRY DXGKDDI_SETPOINTERSHAPE(IN_CONST_HANDLE hAdapter,
                                                  const DXGKARG_SETPOINTERSHAPE *pSetPointerShape);
typedef NTSTATUS APIENTRY DXGKDDI_RESETFROMTIMEOUT(IN_CONST_HANDLE hAdapter);
typedef NTSTATUS APIENTRY DXGKDDI_RESTARTFROMTIMEOUT(IN_CONST_HANDLE hAdapter);
typedef NTSTATUS APIENTRY DXGKDDI_ESCAPE(IN_CONST_HANDLE hAdapter, const DXGKARG_ESCAPE *pEscape);
typedef NTSTATUS APIENTRY DXGKDDI_COLLECTDBGINFO(IN_CONST_HANDLE hAdapter,
                                                 const DXGKARG_COLLECTDBGINFO *pCollectDbgInfo);
typedef NTSTATUS APIENTRY DXGKDDI_QUERYCURRENTFENCE(IN_CONST_HANDLE hAdapter,
                                                    DXGKARG_QUERYCURRENTFENCE *pCurrentFence);
typedef NTSTATUS APIENTRY DXGKDDI_DESTROYDEVICE(IN_CONST_HANDLE hDevice);
typedef NTSTATUS APIENTRY DXGKDDI_CREATECONTEXT(IN_CONST_HANDLE hDevice, DXGKARG_CREATECONTEXT *pCreateContext);
typedef NTSTATUS APIENTRY DXGKDDI_DESTROYCONTEXT(IN_CONST_HANDLE hContext);

/* A member whose DDI pbcheck does not declare: a driver sets it by casting
 * its function, or leaves it NULL. */
typedef VOID *PBC_WDK_UNMODELED_DDI;

typedef struct _DRIVER_INITIALIZATION_DATA {
    ULONG Version;
    DXGKDDI_ADD_DEVICE *DxgkDdiAddDevice;
    DXGKDDI_START_DEVICE *DxgkDdiStartDevice;
    DXGKDDI_STOP_DEVICE *DxgkDdiStopDevice;
    DXGKDDI_REMOVE_DEVICE *DxgkDdiRemoveDevice;
    DXGKDDI_DISPATCH_IO_REQUEST *DxgkDdiDispatchIoRequest;
    DXGKDDI_INTERRUPT_ROUTINE *DxgkDdiInterruptRoutine;
    DXGKDDI_DPC_ROUTINE *DxgkDdiDpcRoutine;
    DXGKDDI_QUERY_CHILD_RELATIONS *DxgkDdiQueryChildRelations;
    DXGKDDI_QUERY_CHILD_STATUS *DxgkDdiQueryChildStatus;
    DXGKDDI_QUERY_DEVICE_DESCRIPTOR *DxgkDdiQueryDeviceDescriptor;
    DXGKDDI_SET_POWER_STATE *DxgkDdiSetPowerState;
    DXGKDDI_NOTIFY_ACPI_EVENT *DxgkDdiNotifyAcpiEvent;
    DXGKDDI_RESET_DEVICE *DxgkDdiResetDevice;
    DXGKDDI_UNLOAD *DxgkDdiUnload;
    DXGKDDI_QUERY_INTERFACE *DxgkDdiQueryInterface;
    DXGKDDI_CONTROL_ETW_LOGGING *DxgkDdiControlEtwLogging;
    DXGKDDI_QUERYADAPTERINFO *DxgkDdiQueryAdapterInfo;
    DXGKDDI_CREATEDEVICE *DxgkDdiCreateDevice;
    DXGKDDI_CREATEALLOCATION *DxgkDdiCreateAllocation;
    DXGKDDI_DESTROYALLOCATION *DxgkDdiDestroyAllocation;
    DXGKDDI_DESCRIBEALLOCATION *DxgkDdiDescribeAllocation;
    DXGKDDI_GETSTANDARDALLOCATIONDRIVERDATA *DxgkDdiGetStandardAllocationDriverData;
    DXGKDDI_ACQUIRESWIZZLINGRANGE *DxgkDdiAcquireSwizzlingRange;
    DXGKDDI_RELEASESWIZZLINGRANGE *DxgkDdiReleaseSwizzlingRange;
    DXGKDDI_PATCH *DxgkDdiPatch;
    DXGKDDI_SUBMITCOMMAND *DxgkDdiSubmitCommand;
    DXGKDDI_PREEMPTCOMMAND *DxgkDdiPreemptCommand;
    DXGKDDI_BUILDPAGINGBUFFER *DxgkDdiBuildPagingBuffer;
    DXGKDDI_SETPALETTE *DxgkDdiSetPalette;
    DXGKDDI_SETPOINTERPOSITION *DxgkDdiSetPointerPosition;
    DXGKDDI_SETPOINTERSHAPE *DxgkDdiSetPointerShape;
    DXGKDDI_RESETFROMTIMEOUT *DxgkDdiResetFromTimeout;
    DXGKDDI_RESTARTFROMTIMEOUT *DxgkDdiRestartFromTimeout;
    DXGKDDI_ESCAPE *DxgkDdiEscape;
    DXGKDDI_COLLECTDBGINFO *DxgkDdiCollectDbgInfo;
    DXGKDDI_QUERYCURRENTFENCE *DxgkDdiQueryCurrentFence;
    PBC_WDK_UNMODELED_DDI DxgkDdiIsSupportedVidPn;
    PBC_WDK_UNMODELED_DDI DxgkDdiRecommendFunctionalVidPn;
    PBC_WDK_UNMODELED_DDI DxgkDdiEnumVidPnCofuncModality;
    PBC_WDK_UNMODELED_DDI DxgkDdiSetVidPnSourceAddress;
    PBC_WDK_UNMODELED_DDI DxgkDdiSetVidPnSourceVisibility;
    PBC_WDK_UNMODELED_DDI DxgkDdiCommitVidPn;
    PBC_WDK_UNMODELED_DDI DxgkDdiUpdateActiveVidPnPresentPath;
    PBC_WDK_UNMODELED_DDI DxgkDdiRecommendMonitorModes;
    PBC_WDK_UNMODELED_DDI DxgkDdiRecommendVidPnTopology;
    PBC_WDK_UNMODELED_DDI DxgkDdiGetScanLine;
    PBC_WDK_UNMODELED_DDI DxgkDdiStopCapture;
    PBC_WDK_UNMODELED_DDI DxgkDdiControlInterrupt;
    PBC_WDK_UNMODELED_DDI DxgkDdiCreateOverlay;
    DXGKDDI_DESTROYDEVICE *DxgkDdiDestroyDevice;
    PBC_WDK_UNMODELED_DDI DxgkDdiOpenAllocation;
    PBC_WDK_UNMODELED_DDI DxgkDdiCloseAllocation;
    DXGKDDI_RENDER *DxgkDdiRender;
    DXGKDDI_PRESENT *DxgkDdiPresent;
    PBC_WDK_UNMODELED_DDI DxgkDdiUpdateOverlay;
    PBC_WDK_UNMODELED_DDI DxgkDdiFlipOverlay;
    PBC_WDK_UNMODELED_DDI DxgkDdiDestroyOverlay;
    DXGKDDI_CREATECONTEXT *DxgkDdiCreateContext;
    DXGKDDI_DESTROYCONTEXT *DxgkDdiDestroyContext;
    PBC_WDK_UNMODELED_DDI DxgkDdiLinkDevice;
    PBC_WDK_UNMODELED_DDI DxgkDdiSetDisplayPrivateDriverFormat;
} DRIVER_INITIALIZATION_DATA, *PDRIVER_INITIALIZATION_DATA;

typedef DXGKDDI_ADD_DEVICE *PDXGKDDI_ADD_DEVICE;
typedef DXGKDDI_START_DEVICE *PDXGKDDI_START_DEVICE;
typedef DXGKDDI_STOP_DEVICE *PDXGKDDI_STOP_DEVICE;
typedef DXGKDDI_REMOVE_DEVICE *PDXGKDDI_REMOVE_DEVICE;
typedef DXGKDDI_INTERRUPT_ROUTINE *PDXGKDDI_INTERRUPT_ROUTINE;
typedef DXGKDDI_DPC_ROUTINE *PDXGKDDI_DPC_ROUTINE;
typedef DXGKDDI_UNLOAD *PDXGKDDI_UNLOAD;

PBC_WDK_SIZE(DXGK_START_INFO, 28);
PBC_WDK_OFF(DXGK_DEVICE_INFO, DeviceRegistryPath, 16);
PBC_WDK_OFF(DXGK_DEVICE_INFO, TranslatedResourceList, 32);
PBC_WDK_SIZE(DXGK_DEVICE_INFO, 80);
PBC_WDK_OFF(DXGKRNL_INTERFACE, DeviceHandle, 8);
PBC_WDK_OFF(DXGKRNL_INTERFACE, DxgkCbNotifyInterrupt, 128);
PBC_WDK_OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiPatch, 200);
PBC_WDK_OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiBuildPagingBuffer, 224);

/* DxgkInitialize, the call a miniport's DriverEntry ends with, belongs to
 * the harness's driver loader and is not declared here yet. */

#ifdef __cplusplus
}
#endif

#endif
