/*
 * dispmprt.h — what a display miniport driver includes: the kernel headers
 * (ntddk.h, wdm.h), the display DDI (d3dkmddi.h, d3dukmdt.h), and the
 * types of driver start-up: DRIVER_INITIALIZATION_DATA (the driver's DDI
 * table), DXGKRNL_INTERFACE (the callbacks DXGKRNL hands the driver),
 * DXGK_START_INFO and DXGK_DEVICE_INFO. Names and x86-64 layouts are
 * Windows'.
 *
 * DRIVER_INITIALIZATION_DATA and DXGKRNL_INTERFACE have every member
 * through WDDM 2.7 (Windows 10 version 2004), both in
 * Windows' order and gated by DXGKDDI_INTERFACE_VERSION; argument
 * structures pbcheck does not lay out are incomplete types, so a driver can
 * name them in prototypes but not look inside.
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
#define DXGKDDI_INTERFACE_VERSION_WDDM1_3 0x4002
#define DXGKDDI_INTERFACE_VERSION_WDDM2_0 0x5023
#define DXGKDDI_INTERFACE_VERSION_WDDM2_1 0x6003
#define DXGKDDI_INTERFACE_VERSION_WDDM2_1_5 0x6010
#define DXGKDDI_INTERFACE_VERSION_WDDM2_1_6 0x6011
#define DXGKDDI_INTERFACE_VERSION_WDDM2_2 0x700A
#define DXGKDDI_INTERFACE_VERSION_WDDM2_3 0x8001
#define DXGKDDI_INTERFACE_VERSION_WDDM2_4 0x9006
#define DXGKDDI_INTERFACE_VERSION_WDDM2_5 0xA00B
#define DXGKDDI_INTERFACE_VERSION_WDDM2_6 0xB004
#define DXGKDDI_INTERFACE_VERSION_WDDM2_7 0xC004
/* As the WDK's, the default is the newest these headers know: Windows 10's
 * last (version 2004). A driver for an older interface defines it first. */
#ifndef DXGKDDI_INTERFACE_VERSION
#define DXGKDDI_INTERFACE_VERSION DXGKDDI_INTERFACE_VERSION_WDDM2_7
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

/* ---- Child devices, ACPI, interfaces and I/O requests ---- */
typedef enum _DXGK_CHILD_DEVICE_TYPE {
    TypeUninitialized = 0,
    TypeVideoOutput = 1,
    TypeOther = 2,
    TypeIntegratedDisplay = 3
} DXGK_CHILD_DEVICE_TYPE, *PDXGK_CHILD_DEVICE_TYPE;

typedef enum _DXGK_CHILD_DEVICE_HPD_AWARENESS {
    HpdAwarenessUninitialized = 0,
    HpdAwarenessAlwaysConnected = 1,
    HpdAwarenessNone = 2,
    HpdAwarenessPolled = 3,
    HpdAwarenessInterruptible = 4
} DXGK_CHILD_DEVICE_HPD_AWARENESS, *PDXGK_CHILD_DEVICE_HPD_AWARENESS;

typedef enum _D3DKMDT_VIDEO_OUTPUT_TECHNOLOGY {
    D3DKMDT_VOT_UNINITIALIZED = -2,
    D3DKMDT_VOT_OTHER = -1,
    D3DKMDT_VOT_HD15 = 0,
    D3DKMDT_VOT_SVIDEO = 1,
    D3DKMDT_VOT_COMPOSITE_VIDEO = 2,
    D3DKMDT_VOT_COMPONENT_VIDEO = 3,
    D3DKMDT_VOT_DVI = 4,
    D3DKMDT_VOT_HDMI = 5,
    D3DKMDT_VOT_LVDS = 6,
    D3DKMDT_VOT_D_JPN = 8,
    D3DKMDT_VOT_SDI = 9,
    D3DKMDT_VOT_DISPLAYPORT_EXTERNAL = 10,
    D3DKMDT_VOT_DISPLAYPORT_EMBEDDED = 11,
    D3DKMDT_VOT_UDI_EXTERNAL = 12,
    D3DKMDT_VOT_UDI_EMBEDDED = 13,
    D3DKMDT_VOT_SDTVDONGLE = 14,
    D3DKMDT_VOT_MIRACAST = 15,
    D3DKMDT_VOT_INDIRECT_WIRED = 16,
    D3DKMDT_VOT_INTERNAL = (int)0x80000000,
    D3DKMDT_VOT_SVIDEO_4PIN = D3DKMDT_VOT_SVIDEO,
    D3DKMDT_VOT_SVIDEO_7PIN = D3DKMDT_VOT_SVIDEO,
    D3DKMDT_VOT_RF = D3DKMDT_VOT_COMPOSITE_VIDEO,
    D3DKMDT_VOT_RCA_3COMPONENT = D3DKMDT_VOT_COMPONENT_VIDEO,
    D3DKMDT_VOT_BNC = D3DKMDT_VOT_COMPONENT_VIDEO
} D3DKMDT_VIDEO_OUTPUT_TECHNOLOGY;

/* DxgkDdiQueryConnectionChange's argument (WDDM 2.2, d3dkmddi.h's pages;
 * here because the output technology is declared in this file). The
 * statuses' page lists them without numbers: C's, 0 to 9 (derived), so
 * the 4-bit field holds them all. The WDDM 3.0 members, MonitorConnect's
 * MonitorConnectFlags and the argument's Usb4MonitorInfo, are left out:
 * these headers stop at WDDM 2.7. Without them the union is still 8 bytes
 * (TargetConnect's), so the change is 24 bytes either way. */
typedef enum _DXGK_CONNECTION_STATUS {
    ConnectionStatusUninitialized,
    TargetStatusDisconnected,
    TargetStatusConnected,
    TargetStatusJoined,
    MonitorStatusDisconnected,
    MonitorStatusUnknown,
    MonitorStatusConnected,
    LinkConfigurationStarted,
    LinkConfigurationFailed,
    LinkConfigurationSucceeded
} DXGK_CONNECTION_STATUS, *PDXGK_CONNECTION_STATUS;

typedef struct _DXGK_CONNECTION_CHANGE {
    ULONGLONG ConnectionChangeId;
    D3DDDI_VIDEO_PRESENT_TARGET_ID TargetId : 24;
    DXGK_CONNECTION_STATUS ConnectionStatus : 4;
    UINT Reserved : 4;
    union {
        struct {
            D3DKMDT_VIDEO_OUTPUT_TECHNOLOGY LinkTargetType;
        } MonitorConnect;
        struct {
            D3DKMDT_VIDEO_OUTPUT_TECHNOLOGY BaseTargetType;
            D3DDDI_VIDEO_PRESENT_TARGET_ID NewTargetId;
        } TargetConnect;
        struct {
            D3DKMDT_VIDEO_OUTPUT_TECHNOLOGY BaseTargetType;
            D3DDDI_VIDEO_PRESENT_TARGET_ID NewTargetId;
        } TargetJoin;
    };
} DXGK_CONNECTION_CHANGE, *PDXGK_CONNECTION_CHANGE;
PBC_WDK_OFF(DXGK_CONNECTION_CHANGE, MonitorConnect, 12);
PBC_WDK_SIZE(DXGK_CONNECTION_CHANGE, 24);

struct _DXGKARG_QUERYCONNECTIONCHANGE {
    DXGK_CONNECTION_CHANGE ConnectionChange;
};
PBC_WDK_SIZE(DXGKARG_QUERYCONNECTIONCHANGE, 24);

/* DxgkDdiSetTimingsFromVidPn's argument and its parts (WDDM 2.2,
 * d3dkmddi.h's pages; here because a path reports its target's connection
 * state). The enumerations' pages list names without numbers: C's
 * (derived). A path's glitch diagnosis is three enumerations and a UINT8
 * sharing the UINT DiagnosticInfo, so each is one byte (derived): they are
 * UINT8s and their names an enumeration's constants, which C11 and C++
 * both take. The path's input keeps the sync-lock members (Windows 10
 * 1803, WDDM 2.4), so its Reserved is the page's 20 bits. */
typedef struct _DXGK_SET_TIMING_FLAGS {
    union {
        struct {
            UINT Reserved;
        };
        UINT Value;
    };
} DXGK_SET_TIMING_FLAGS;
PBC_WDK_SIZE(DXGK_SET_TIMING_FLAGS, 4);

typedef struct _DXGK_SET_TIMING_RESULTS {
    union {
        struct {
            UINT ConnectionStatusChanges : 1;
            UINT Reserved : 31;
        };
        UINT Value;
    };
} DXGK_SET_TIMING_RESULTS, *PDXGK_SET_TIMING_RESULTS;
PBC_WDK_SIZE(DXGK_SET_TIMING_RESULTS, 4);

typedef enum _DXGK_PATH_UPDATE {
    DXGK_PATH_UPDATE_UNMODIFIED,
    DXGK_PATH_UPDATE_ADDED,
    DXGK_PATH_UPDATE_MODIFIED,
    DXGK_PATH_UPDATE_REMOVED
} DXGK_PATH_UPDATE;

typedef enum _DXGK_SYNC_LOCK_STYLE {
    DXGK_SYNC_LOCK_STYLE_NONE,
    DXGK_SYNC_LOCK_STYLE_IDENTICAL
} DXGK_SYNC_LOCK_STYLE;

typedef UINT8 DXGK_GLITCH_CAUSE;
enum {
    DXGK_GLITCH_CAUSE_DRIVER_ERROR,
    DXGK_GLITCH_CAUSE_TIMING_CHANGE,
    DXGK_GLITCH_CAUSE_PIPELINE_CHANGE,
    DXGK_GLITCH_CAUSE_MEMORY_TIMING,
    DXGK_GLITCH_CAUSE_ENCODER_RECONFIG,
    DXGK_GLITCH_CAUSE_MODIFIED_WIRE_USAGE,
    DXGK_GLITCH_CAUSE_METADATA_CHANGE,
    DXGK_GLITCH_CAUSE_NONE
};

typedef UINT8 DXGK_GLITCH_EFFECT;
enum {
    DXGK_GLITCH_EFFECT_SYNC_LOSS,
    DXGK_GLITCH_EFFECT_GARBAGE_CONTENT,
    DXGK_GLITCH_EFFECT_STALE_CONTENT,
    DXGK_GLITCH_EFFECT_BLACK_CONTENT,
    DXGK_GLITCH_EFFECT_DEGRADED_CONTENT,
    DXGK_GLITCH_EFFECT_SEAMLESS
};

typedef UINT8 DXGK_GLITCH_DURATION;
enum {
    DXGK_GLITCH_DURATION_INDEFINITE,
    DXGK_GLITCH_DURATION_MULTI_FRAME,
    DXGK_GLITCH_DURATION_SINGLE_FRAME,
    DXGK_GLITCH_DURATION_MULTI_LINE,
    DXGK_GLITCH_DURATION_SINGLE_LINE,
    DXGK_GLITCH_DURATION_NONE
};

typedef struct _DXGK_SET_TIMING_PATH_INFO {
    D3DDDI_VIDEO_PRESENT_TARGET_ID VidPnTargetId;
    union {
        D3DDDI_COLOR_SPACE_TYPE OutputColorSpace;
        D3DDDI_OUTPUT_WIRE_COLOR_SPACE_TYPE OutputWireColorSpace;
    };
    D3DKMDT_WIRE_FORMAT_AND_PREFERENCE SelectedWireFormat;
    union {
        struct {
            DXGK_PATH_UPDATE VidPnPathUpdates : 2;
            UINT Active : 1;
            UINT IgnoreConnectivity : 1;
            UINT PreserveInherited : 1;
            UINT SyncLockGroup : 3;
            DXGK_SYNC_LOCK_STYLE SyncLockStyle : 4;
            UINT Reserved : 20;
        } Input;
        UINT InputFlags;
    };
    union {
        struct {
            UINT RecheckMPO : 1;
            UINT Reserved : 31;
        } Output;
        UINT OutputFlags;
    };
    DXGK_CONNECTION_CHANGE TargetState;
    union {
        struct {
            DXGK_GLITCH_CAUSE GlitchCause;
            DXGK_GLITCH_EFFECT GlitchEffect;
            DXGK_GLITCH_DURATION GlitchDuration;
            UINT8 Reserved;
        };
        UINT DiagnosticInfo;
    };
} DXGK_SET_TIMING_PATH_INFO, *PDXGK_SET_TIMING_PATH_INFO;
PBC_WDK_OFF(DXGK_SET_TIMING_PATH_INFO, InputFlags, 12);
PBC_WDK_OFF(DXGK_SET_TIMING_PATH_INFO, TargetState, 24);
PBC_WDK_OFF(DXGK_SET_TIMING_PATH_INFO, DiagnosticInfo, 48);
PBC_WDK_SIZE(DXGK_SET_TIMING_PATH_INFO, 56);

struct _DXGKARG_SETTIMINGSFROMVIDPN {
    D3DKMDT_HVIDPN hFunctionalVidPn;
    DXGK_SET_TIMING_FLAGS SetFlags;
    PDXGK_SET_TIMING_RESULTS pResultsFlags;
    UINT PathCount;
    DXGK_SET_TIMING_PATH_INFO *pSetTimingPathInfo;
};
PBC_WDK_OFF(DXGKARG_SETTIMINGSFROMVIDPN, pResultsFlags, 16);
PBC_WDK_OFF(DXGKARG_SETTIMINGSFROMVIDPN, pSetTimingPathInfo, 32);
PBC_WDK_SIZE(DXGKARG_SETTIMINGSFROMVIDPN, 40);

typedef enum _D3DKMDT_MONITOR_ORIENTATION_AWARENESS {
    D3DKMDT_MOA_UNINITIALIZED = 0,
    D3DKMDT_MOA_NONE = 1,
    D3DKMDT_MOA_POLLED = 2,
    D3DKMDT_MOA_INTERRUPTIBLE = 3
} D3DKMDT_MONITOR_ORIENTATION_AWARENESS;

typedef struct _DXGK_VIDEO_OUTPUT_CAPABILITIES {
    D3DKMDT_VIDEO_OUTPUT_TECHNOLOGY InterfaceTechnology;
    D3DKMDT_MONITOR_ORIENTATION_AWARENESS MonitorOrientationAwareness;
    BOOLEAN SupportsSdtvModes;
} DXGK_VIDEO_OUTPUT_CAPABILITIES, *PDXGK_VIDEO_OUTPUT_CAPABILITIES;

typedef struct _DXGK_INTEGRATED_DISPLAY_CHILD {
    D3DKMDT_VIDEO_OUTPUT_TECHNOLOGY InterfaceTechnology;
    USHORT DescriptorLength;
} DXGK_INTEGRATED_DISPLAY_CHILD, *PDXGK_INTEGRATED_DISPLAY_CHILD;

typedef struct _DXGK_OTHER_DEVICE_CAPABILITIES {
    UINT MustBeZero;
} DXGK_OTHER_DEVICE_CAPABILITIES;

typedef struct _DXGK_CHILD_CAPABILITIES {
    union {
        DXGK_VIDEO_OUTPUT_CAPABILITIES VideoOutput;
        DXGK_OTHER_DEVICE_CAPABILITIES Other;
        DXGK_INTEGRATED_DISPLAY_CHILD IntegratedDisplayChild;
    } Type;
    DXGK_CHILD_DEVICE_HPD_AWARENESS HpdAwareness;
} DXGK_CHILD_CAPABILITIES, *PDXGK_CHILD_CAPABILITIES;

typedef struct _DXGK_CHILD_DESCRIPTOR {
    DXGK_CHILD_DEVICE_TYPE ChildDeviceType;
    DXGK_CHILD_CAPABILITIES ChildCapabilities;
    ULONG AcpiUid;
    ULONG ChildUid;
} DXGK_CHILD_DESCRIPTOR, *PDXGK_CHILD_DESCRIPTOR;

typedef enum _DXGK_CHILD_STATUS_TYPE {
    StatusUninitialized = 0,
    StatusConnection = 1,
    StatusRotation = 2,
    StatusMiracastConnection = 3
} DXGK_CHILD_STATUS_TYPE, *PDXGK_CHILD_STATUS_TYPE;

typedef struct _DXGK_CHILD_STATUS {
    DXGK_CHILD_STATUS_TYPE Type;
    ULONG ChildUid;
    union {
        struct {
            BOOLEAN Connected;
        } HotPlug;
        struct {
            UCHAR Angle;
        } Rotation;
        struct {
            BOOLEAN Connected;
            D3DKMDT_VIDEO_OUTPUT_TECHNOLOGY MiracastMonitorType;
        } Miracast;
    };
} DXGK_CHILD_STATUS, *PDXGK_CHILD_STATUS;

typedef struct _DXGK_DEVICE_DESCRIPTOR {
    ULONG DescriptorOffset;
    ULONG DescriptorLength;
    PVOID DescriptorBuffer;
} DXGK_DEVICE_DESCRIPTOR, *PDXGK_DEVICE_DESCRIPTOR;

/* ACPI method evaluation (DxgkCbEvalAcpiMethod), acpiioct.h's layouts. */
#define ACPI_EVAL_INPUT_BUFFER_COMPLEX_SIGNATURE 0x43426541u  /* 'AeBC' */
#define ACPI_EVAL_OUTPUT_BUFFER_SIGNATURE 0x426f6541u         /* 'AeoB' */
#define ACPI_METHOD_ARGUMENT_INTEGER 0x0
#define ACPI_METHOD_ARGUMENT_STRING 0x1
#define ACPI_METHOD_ARGUMENT_BUFFER 0x2
#define ACPI_METHOD_ARGUMENT_PACKAGE 0x3
#define ACPI_METHOD_ARGUMENT_PACKAGE_EX 0x4

typedef struct _ACPI_METHOD_ARGUMENT {
    USHORT Type;
    USHORT DataLength;
    union {
        ULONG Argument;
        UCHAR Data[1];
    };
} ACPI_METHOD_ARGUMENT, *PACPI_METHOD_ARGUMENT;

typedef struct _ACPI_EVAL_INPUT_BUFFER_COMPLEX {
    ULONG Signature;
    union {
        UCHAR MethodName[4];
        ULONG MethodNameAsUlong;
    };
    ULONG Size;
    ULONG ArgumentCount;
    ACPI_METHOD_ARGUMENT Argument[1];
} ACPI_EVAL_INPUT_BUFFER_COMPLEX, *PACPI_EVAL_INPUT_BUFFER_COMPLEX;

typedef struct _ACPI_EVAL_OUTPUT_BUFFER {
    ULONG Signature;
    ULONG Length;
    ULONG Count;
    ACPI_METHOD_ARGUMENT Argument[1];
} ACPI_EVAL_OUTPUT_BUFFER, *PACPI_EVAL_OUTPUT_BUFFER;

/* DxgkDdiNotifyAcpiEvent */
typedef enum _DXGK_EVENT_TYPE {
    DxgkUndefinedEvent = 0,
    DxgkAcpiEvent = 1,
    DxgkPowerStateEvent = 2,
    DxgkDockingEvent = 3,
    DxgkChainedAcpiEvent = 4
} DXGK_EVENT_TYPE, *PDXGK_EVENT_TYPE;

#define DXGK_ACPI_BIOS_SIZE_ALIGN 0x40
#define DXGK_ACPI_CHANGE_DISPLAY_MODE 0x00000001
#define DXGK_ACPI_POLL_DISPLAY_CHILDREN 0x00000002
#define DXGK_ACPI_CHANGE_DISPLAY_TOPOLOGY 0x00000004
#define DXGK_ACPI_ITEM_ACTIVE 0x1
#define ACPI_NOTIFY_CYCLE_DISPLAY_HOTKEY 0x80
#define ACPI_NOTIFY_NEXT_DISPLAY_HOTKEY 0x83
#define ACPI_NOTIFY_PREV_DISPLAY_HOTKEY 0x84
#define ACPI_NOTIFY_CYCLE_BRIGHTNESS_HOTKEY 0x85
#define ACPI_NOTIFY_INC_BRIGHTNESS_HOTKEY 0x86
#define ACPI_NOTIFY_DEC_BRIGHTNESS_HOTKEY 0x87
#define ACPI_NOTIFY_ZERO_BRIGHTNESS_HOTKEY 0x88
#define ACPI_NOTIFY_DISPLAY_OFF_HOTKEY 0x89

/* DxgkDdiQueryInterface */
typedef VOID (*PINTERFACE_REFERENCE)(PVOID Context);
typedef VOID (*PINTERFACE_DEREFERENCE)(PVOID Context);

typedef struct _INTERFACE {
    USHORT Size;
    USHORT Version;
    PVOID Context;
    PINTERFACE_REFERENCE InterfaceReference;
    PINTERFACE_DEREFERENCE InterfaceDereference;
} INTERFACE, *PINTERFACE;

typedef struct _QUERY_INTERFACE {
    const GUID *InterfaceType;
    USHORT Size;
    USHORT Version;
    PINTERFACE Interface;
    PVOID InterfaceSpecificData;
} QUERY_INTERFACE, *PQUERY_INTERFACE;

/* DxgkDdiDispatchIoRequest */
typedef struct _STATUS_BLOCK {
    union {
        NTSTATUS Status;
        PVOID Pointer;
    };
    ULONG_PTR Information;
} STATUS_BLOCK, *PSTATUS_BLOCK;

typedef struct _VIDEO_REQUEST_PACKET {
    ULONG IoControlCode;
    PSTATUS_BLOCK StatusBlock;
    PVOID InputBuffer;
    ULONG InputBufferLength;
    PVOID OutputBuffer;
    ULONG OutputBufferLength;
} VIDEO_REQUEST_PACKET, *PVIDEO_REQUEST_PACKET;

/* Post-display ownership (Windows 8). */
typedef struct _DXGK_DISPLAY_INFORMATION {
    UINT Width;
    UINT Height;
    UINT Pitch;
    D3DDDIFORMAT ColorFormat;
    PHYSICAL_ADDRESS PhysicAddress;
    D3DDDI_VIDEO_PRESENT_TARGET_ID TargetId;
    D3DDDI_VIDEO_PRESENT_SOURCE_ID AcpiId;
} DXGK_DISPLAY_INFORMATION, *PDXGK_DISPLAY_INFORMATION;

typedef enum _DXGK_SURPRISE_REMOVAL_TYPE {
    DxgkRemovalHibernation = 0,
    DxgkRemovalSafe = 1,
    DxgkRemovalSurprise = 2
} DXGK_SURPRISE_REMOVAL_TYPE;

typedef struct _DXGKARG_SYSTEM_DISPLAY_ENABLE_FLAGS {
    union {
        struct {
            UINT Reset : 1;
            UINT Reserved : 31;
        };
        UINT Value;
    };
} DXGKARG_SYSTEM_DISPLAY_ENABLE_FLAGS, *PDXGKARG_SYSTEM_DISPLAY_ENABLE_FLAGS;

typedef struct _DXGK_CHILD_CONTAINER_ID {
    GUID ContainerId;
    struct {
        UINT PortId;
        USHORT ManufacturerName;
        USHORT ProductCode;
    } EldInfo;
} DXGK_CHILD_CONTAINER_ID, *PDXGK_CHILD_CONTAINER_ID;

/* ---- Callbacks into DXGKRNL (DXGKRNL_INTERFACE) ---- */
typedef DXGK_CHILD_STATUS *INOUT_PDXGK_CHILD_STATUS;
typedef DXGK_CHILD_DESCRIPTOR *INOUT_PDXGK_CHILD_DESCRIPTOR;
typedef DXGK_DEVICE_DESCRIPTOR *INOUT_PDXGK_DEVICE_DESCRIPTOR;
typedef PDEVICE_OBJECT IN_CONST_PDEVICE_OBJECT;
typedef PVOID *OUT_PPVOID;
typedef UCHAR IN_UCHAR;
typedef DEVICE_POWER_STATE IN_DEVICE_POWER_STATE;
typedef POWER_ACTION IN_POWER_ACTION;
typedef PVIDEO_REQUEST_PACKET INOUT_PVIDEO_REQUEST_PACKET;
typedef PQUERY_INTERFACE IN_PQUERY_INTERFACE;
typedef PULONG OUT_PULONG_ACPI_FLAGS;
typedef const PDXGK_CHILD_STATUS IN_CONST_PDXGK_CHILD_STATUS;

typedef enum _DXGK_VIDPN_INTERFACE_VERSION {
    DXGK_VIDPN_INTERFACE_VERSION_UNINITIALIZED = 0,
    DXGK_VIDPN_INTERFACE_VERSION_V1 = 1,
    DXGK_VIDPN_INTERFACE_VERSION_V2 = 2,
    DXGK_VIDPN_INTERFACE_VERSION_V3 = 3,
    DXGK_VIDPN_INTERFACE_VERSION_V4 = 4
} DXGK_VIDPN_INTERFACE_VERSION;

typedef enum _DXGK_MONITOR_INTERFACE_VERSION {
    DXGK_MONITOR_INTERFACE_VERSION_UNINITIALIZED = 0,
    DXGK_MONITOR_INTERFACE_VERSION_V1 = 1,
    DXGK_MONITOR_INTERFACE_VERSION_V2 = 2
} DXGK_MONITOR_INTERFACE_VERSION;

typedef struct _DXGK_MONITOR_INTERFACE DXGK_MONITOR_INTERFACE;
typedef struct _DXGKARGCB_GETCAPTUREADDRESS DXGKARGCB_GETCAPTUREADDRESS;
typedef BOOLEAN KSYNCHRONIZE_ROUTINE(PVOID SynchronizeContext);
typedef KSYNCHRONIZE_ROUTINE *PKSYNCHRONIZE_ROUTINE;
typedef NTSTATUS DXGKDDI_PROTECTED_CALLBACK(const PVOID ProtectedCallbackContext, NTSTATUS ProtectionStatus);
typedef DXGKDDI_PROTECTED_CALLBACK *PDXGKDDI_PROTECTED_CALLBACK;

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
typedef NTSTATUS APIENTRY DXGKCB_QUERY_SERVICES(HANDLE DeviceHandle, ULONG ServicesType, PINTERFACE Interface);
typedef NTSTATUS APIENTRY DXGKCB_READ_DEVICE_SPACE(HANDLE DeviceHandle, ULONG DataType, PVOID Buffer,
                                                   ULONG Offset, ULONG Length, PULONG BytesRead);
typedef NTSTATUS APIENTRY DXGKCB_SYNCHRONIZE_EXECUTION(HANDLE DeviceHandle,
                                                       PKSYNCHRONIZE_ROUTINE SynchronizeRoutine,
                                                       PVOID Context, ULONG MessageNumber,
                                                       PBOOLEAN ReturnValue);
typedef NTSTATUS APIENTRY DXGKCB_UNMAP_MEMORY(HANDLE DeviceHandle, PVOID VirtualAddress);
typedef NTSTATUS APIENTRY DXGKCB_WRITE_DEVICE_SPACE(HANDLE DeviceHandle, ULONG DataType, PVOID Buffer,
                                                    ULONG Offset, ULONG Length, PULONG BytesWritten);
typedef NTSTATUS APIENTRY DXGKCB_IS_DEVICE_PRESENT(HANDLE DeviceHandle, PVOID DeviceData,
                                                   PBOOLEAN DevicePresent);
typedef PVOID APIENTRY DXGKCB_GETHANDLEDATA(IN_CONST_PDXGKARGCB_GETHANDLEDATA pData);
typedef HANDLE APIENTRY DXGKCB_GETHANDLEPARENT(HANDLE hAllocation);
typedef D3DKMT_HANDLE APIENTRY DXGKCB_ENUMHANDLECHILDREN(IN_CONST_PDXGKARGCB_ENUMHANDLECHILDREN pData);
typedef NTSTATUS APIENTRY DXGKCB_QUERYVIDPNINTERFACE(IN_CONST_D3DKMDT_HVIDPN hVidPn,
                                                     DXGK_VIDPN_INTERFACE_VERSION VidPnInterfaceVersion,
                                                     const DXGK_VIDPN_INTERFACE **ppVidPnInterface);
typedef NTSTATUS APIENTRY DXGKCB_QUERYMONITORINTERFACE(IN_CONST_HANDLE hAdapter,
                                                       DXGK_MONITOR_INTERFACE_VERSION MonitorInterfaceVersion,
                                                       const DXGK_MONITOR_INTERFACE **ppMonitorInterface);
typedef NTSTATUS APIENTRY DXGKCB_GETCAPTUREADDRESS(DXGKARGCB_GETCAPTUREADDRESS *pGetCaptureAddress);
typedef VOID APIENTRY DXGKCB_LOG_ETW_EVENT(LPCGUID EventGuid, UCHAR Type, USHORT EventBufferSize,
                                           PVOID EventBuffer);
typedef NTSTATUS APIENTRY DXGKCB_EXCLUDE_ADAPTER_ACCESS(HANDLE DeviceHandle, ULONG Attributes,
                                                        PDXGKDDI_PROTECTED_CALLBACK DxgkProtectedCallback,
                                                        PVOID ProtectedCallbackContext);
typedef NTSTATUS APIENTRY DXGKCB_CREATECONTEXTALLOCATION(DXGKARGCB_CREATECONTEXTALLOCATION *pArgs);
typedef NTSTATUS APIENTRY DXGKCB_DESTROYCONTEXTALLOCATION(IN_CONST_HANDLE hAdapter, IN_CONST_HANDLE hAllocation);
typedef NTSTATUS APIENTRY DXGKCB_SETPOWERCOMPONENTACTIVE(IN_CONST_HANDLE hAdapter, UINT ComponentIndex);
typedef NTSTATUS APIENTRY DXGKCB_SETPOWERCOMPONENTIDLE(IN_CONST_HANDLE hAdapter, UINT ComponentIndex);
typedef NTSTATUS APIENTRY DXGKCB_ACQUIRE_POST_DISPLAY_OWNERSHIP(HANDLE DeviceHandle,
                                                                PDXGK_DISPLAY_INFORMATION DisplayInfo);
typedef NTSTATUS APIENTRY DXGKCB_POWERRUNTIMECONTROLREQUEST(IN_CONST_HANDLE hAdapter, LPCGUID PowerControlCode,
                                                            PVOID InBuffer, SIZE_T InBufferSize,
                                                            PVOID OutBuffer, SIZE_T OutBufferSize,
                                                            PSIZE_T BytesReturned);
typedef VOID APIENTRY DXGKCB_SETPOWERCOMPONENTLATENCY(IN_CONST_HANDLE hAdapter, UINT ComponentIndex,
                                                      ULONGLONG Latency);
typedef VOID APIENTRY DXGKCB_SETPOWERCOMPONENTRESIDENCY(IN_CONST_HANDLE hAdapter, UINT ComponentIndex,
                                                        ULONGLONG Residency);
typedef VOID APIENTRY DXGKCB_COMPLETEFSTATETRANSITION(IN_CONST_HANDLE hAdapter, UINT ComponentIndex);

typedef VOID APIENTRY DXGKCB_COMPLETEPSTATETRANSITION(IN_CONST_HANDLE hAdapter, UINT ComponentIndex,
                                                      UINT CompletedPState);
/* WDDM 2.0 to 2.6, from each callback's page (docs/wdk-headers.md). */
typedef D3DGPU_VIRTUAL_ADDRESS APIENTRY DXGKCB_MAPCONTEXTALLOCATION(IN_CONST_HANDLE hAdapter,
                                                                   IN_CONST_PDXGKARGCB_MAPCONTEXTALLOCATION pArgs);
typedef NTSTATUS APIENTRY DXGKCB_UPDATECONTEXTALLOCATION(IN_CONST_HANDLE hAdapter,
                                                         IN_CONST_PDXGKARGCB_UPDATECONTEXTALLOCATION pArgs);
typedef NTSTATUS APIENTRY DXGKCB_RESERVEGPUVIRTUALADDRESSRANGE(IN_CONST_HANDLE hAdapter,
                                                               INOUT_PDXGKARGCB_RESERVEGPUVIRTUALADDRESSRANGE pArgs);
typedef VOID APIENTRY DXGKCB_HARDWARECONTENTPROTECTIONTEARDOWN(IN_CONST_HANDLE hAdapter, UINT Flags);
typedef VOID *APIENTRY DXGKCB_ACQUIREHANDLEDATA(IN_CONST_PDXGKARGCB_GETHANDLEDATA pArgs,
                                                PDXGKARG_RELEASE_HANDLE pReleaseHandle);
typedef VOID APIENTRY DXGKCB_RELEASEHANDLEDATA(IN_CONST_DXGKARGCB_RELEASEHANDLEDATA ReleaseHandleData);
typedef VOID APIENTRY DXGKCB_MULTIPLANEOVERLAYDISABLED(IN_CONST_HANDLE hAdapter, UINT VidPnSourceId);
typedef NTSTATUS APIENTRY DXGKCB_INVALIDATEHWCONTEXT(IN_CONST_PDXGKARGCB_INVALIDATEHWCONTEXT pArgs);
typedef NTSTATUS APIENTRY DXGKCB_INDICATE_CONNECTOR_CHANGE(IN_CONST_HANDLE hAdapter);
/* What the OS tells a driver taking the display over about the frame
 * buffer it inherits. The enumeration's page names its states without
 * numbers: C's, 0 to 2. */
typedef enum _DXGK_FRAMEBUFFER_STATE {
    FrameBufferStateUnknown,
    FrameBufferStateInitializedByFirmware,
    FrameBufferStateInitializedByDriver
} DXGK_FRAMEBUFFER_STATE;

typedef struct _DXGK_DISPLAY_OWNERSHIP_FLAGS {
    union {
        struct {
            DXGK_FRAMEBUFFER_STATE FrameBufferState : 4;
        };
        UINT Value;
    };
} DXGK_DISPLAY_OWNERSHIP_FLAGS, *PDXGK_DISPLAY_OWNERSHIP_FLAGS;
PBC_WDK_SIZE(DXGK_DISPLAY_OWNERSHIP_FLAGS, 4);

/* The fields every reported diagnostic starts with: one category bit and
 * one type bit set, the whole event's size in bytes, an adapter-wide
 * sequence number and the id of what it is about. */
typedef struct _DXGK_DIAGNOSTIC_HEADER {
    DXGK_DIAGNOSTIC_CATEGORIES Category;
    DXGK_DIAGNOSTIC_TYPES Type;
    union {
        struct {
            UINT Size : 16;
            UINT Reserved : 16;
        };
        UINT Value;
    };
    UINT SequenceNumber;
    union {
        D3DDDI_VIDEO_PRESENT_TARGET_ID TargetId;
        D3DDDI_VIDEO_PRESENT_SOURCE_ID SourceId;
        UINT Id;
    };
} DXGK_DIAGNOSTIC_HEADER;
PBC_WDK_OFF(DXGK_DIAGNOSTIC_HEADER, SequenceNumber, 12);
PBC_WDK_SIZE(DXGK_DIAGNOSTIC_HEADER, 20);
typedef DXGK_DIAGNOSTIC_HEADER *IN_PDXGK_DIAGNOSTIC_HEADER;
typedef NTSTATUS APIENTRY DXGKCB_ACQUIRE_POST_DISPLAY_OWNERSHIP2(HANDLE DeviceHandle,
                                                                 PDXGK_DISPLAY_INFORMATION DisplayInfo,
                                                                 PDXGK_DISPLAY_OWNERSHIP_FLAGS Flags);
typedef NTSTATUS APIENTRY DXGKCB_SETPROTECTEDSESSIONSTATUS(IN_CONST_PDXGKARGCB_PROTECTEDSESSIONSTATUS pArgs);
typedef NTSTATUS APIENTRY DXGKCB_ALLOCATECONTIGUOUSMEMORY(IN_CONST_HANDLE hAdapter,
                                                          INOUT_PDXGKARGCB_ALLOCATECONTIGUOUSMEMORY pArgs);
typedef NTSTATUS APIENTRY DXGKCB_FREECONTIGUOUSMEMORY(IN_CONST_HANDLE hAdapter,
                                                      IN_CONST_PDXGKARGCB_FREECONTIGUOUSMEMORY pArgs);
typedef NTSTATUS APIENTRY DXGKCB_ALLOCATEPAGESFORMDL(IN_CONST_HANDLE hAdapter,
                                                     INOUT_PDXGKARGCB_ALLOCATEPAGESFORMDL pArgs);
typedef NTSTATUS APIENTRY DXGKCB_FREEPAGESFROMMDL(IN_CONST_HANDLE hAdapter,
                                                  IN_CONST_PDXGKARGCB_FREEPAGESFROMMDL pArgs);
typedef NTSTATUS APIENTRY DXGKCB_PINFRAMEBUFFERFORSAVE(IN_CONST_HANDLE hAdapter,
                                                       INOUT_PDXGKARGCB_PINFRAMEBUFFERFORSAVE pArgs);
typedef NTSTATUS APIENTRY DXGKCB_UNPINFRAMEBUFFERFORSAVE(IN_CONST_HANDLE hAdapter,
                                                         IN_CONST_PDXGKARGCB_UNPINFRAMEBUFFERFORSAVE pArgs);
typedef NTSTATUS APIENTRY DXGKCB_MAPFRAMEBUFFERPOINTER(IN_CONST_HANDLE hAdapter,
                                                       INOUT_PDXGKARGCB_MAPFRAMEBUFFERPOINTER pArgs);
typedef NTSTATUS APIENTRY DXGKCB_UNMAPFRAMEBUFFERPOINTER(IN_CONST_HANDLE hAdapter,
                                                         IN_CONST_PDXGKARGCB_UNMAPFRAMEBUFFERPOINTER pArgs);
typedef NTSTATUS APIENTRY DXGKCB_MAPMDLTOIOMMU(IN_CONST_HANDLE hAdapter, INOUT_PDXGKARGCB_MAPMDLTOIOMMU pArgs);
typedef VOID APIENTRY DXGKCB_UNMAPMDLFROMIOMMU(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARGCB_UNMAPMDLFROMIOMMU pArgs);
typedef NTSTATUS APIENTRY DXGKCB_REPORT_DIAGNOSTIC(HANDLE DeviceHandle, IN_PDXGK_DIAGNOSTIC_HEADER pDiagnostic);
typedef NTSTATUS APIENTRY DXGKCB_SIGNALEVENT(IN_CONST_PDXGKARGCB_SIGNALEVENT pArgs);
typedef NTSTATUS APIENTRY DXGKCB_ISFEATUREENABLED(INOUT_PDXGKARGCB_ISFEATUREENABLED pArgs);
typedef NTSTATUS APIENTRY DXGKCB_SAVEMEMORYFORHOTUPDATE(IN_CONST_HANDLE hAdapter,
                                                        IN_CONST_PDXGKARGCB_SAVEMEMORYFORHOTUPDATE pArgs);

/* Windows' table, in Windows' order, through WDDM 2.7 (whose interface
 * adds no callback after WDDM 2.6's). Two WDDM 2.x slots have no page that
 * types them: they are PVOID, and a driver casts what it calls there. */
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
    DXGKCB_QUERYVIDPNINTERFACE *DxgkCbQueryVidPnInterface;
    DXGKCB_QUERYMONITORINTERFACE *DxgkCbQueryMonitorInterface;
    DXGKCB_GETCAPTUREADDRESS *DxgkCbGetCaptureAddress;
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WIN7
    DXGKCB_LOG_ETW_EVENT *DxgkCbLogEtwEvent;
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WIN8
    DXGKCB_EXCLUDE_ADAPTER_ACCESS *DxgkCbExcludeAdapterAccess;
    DXGKCB_CREATECONTEXTALLOCATION *DxgkCbCreateContextAllocation;
    DXGKCB_DESTROYCONTEXTALLOCATION *DxgkCbDestroyContextAllocation;
    DXGKCB_SETPOWERCOMPONENTACTIVE *DxgkCbSetPowerComponentActive;
    DXGKCB_SETPOWERCOMPONENTIDLE *DxgkCbSetPowerComponentIdle;
    DXGKCB_ACQUIRE_POST_DISPLAY_OWNERSHIP *DxgkCbAcquirePostDisplayOwnership;
    DXGKCB_POWERRUNTIMECONTROLREQUEST *DxgkCbPowerRuntimeControlRequest;
    DXGKCB_SETPOWERCOMPONENTLATENCY *DxgkCbSetPowerComponentLatency;
    DXGKCB_SETPOWERCOMPONENTRESIDENCY *DxgkCbSetPowerComponentResidency;
    DXGKCB_COMPLETEFSTATETRANSITION *DxgkCbCompleteFStateTransition;
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM1_3 /* the page says WDDM1_3_M1 */
    DXGKCB_COMPLETEPSTATETRANSITION *DxgkCbCompletePStateTransition; /* reserved for the system */
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_0
    DXGKCB_MAPCONTEXTALLOCATION *DxgkCbMapContextAllocation;
    DXGKCB_UPDATECONTEXTALLOCATION *DxgkCbUpdateContextAllocation;
    DXGKCB_RESERVEGPUVIRTUALADDRESSRANGE *DxgkCbReserveGpuVirtualAddressRange;
    DXGKCB_ACQUIREHANDLEDATA *DxgkCbAcquireHandleData;
    DXGKCB_RELEASEHANDLEDATA *DxgkCbReleaseHandleData;
    DXGKCB_HARDWARECONTENTPROTECTIONTEARDOWN *DxgkCbHardwareContentProtectionTeardown;
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_1
    DXGKCB_MULTIPLANEOVERLAYDISABLED *DxgkCbMultiPlaneOverlayDisabled;
    PVOID DxgkCbMitigatedRangeUpdate; /* untyped: no page */
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_2
    DXGKCB_INVALIDATEHWCONTEXT *DxgkCbInvalidateHwContext;
    DXGKCB_INDICATE_CONNECTOR_CHANGE *DxgkCbIndicateConnectorChange;
    PVOID DxgkCbUnblockUEFIFrameBufferRanges; /* untyped: no page */
    DXGKCB_ACQUIRE_POST_DISPLAY_OWNERSHIP2 *DxgkCbAcquirePostDisplayOwnership2;
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_3
    DXGKCB_SETPROTECTEDSESSIONSTATUS *DxgkCbSetProtectedSessionStatus;
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_4
    DXGKCB_ALLOCATECONTIGUOUSMEMORY *DxgkCbAllocateContiguousMemory;
    DXGKCB_FREECONTIGUOUSMEMORY *DxgkCbFreeContiguousMemory;
    DXGKCB_ALLOCATEPAGESFORMDL *DxgkCbAllocatePagesForMdl;
    DXGKCB_FREEPAGESFROMMDL *DxgkCbFreePagesFromMdl;
    DXGKCB_PINFRAMEBUFFERFORSAVE *DxgkCbPinFrameBufferForSave;
    DXGKCB_UNPINFRAMEBUFFERFORSAVE *DxgkCbUnpinFrameBufferForSave;
    DXGKCB_MAPFRAMEBUFFERPOINTER *DxgkCbMapFrameBufferPointer;
    DXGKCB_UNMAPFRAMEBUFFERPOINTER *DxgkCbUnmapFrameBufferPointer;
    DXGKCB_MAPMDLTOIOMMU *DxgkCbMapMdlToIoMmu;
    DXGKCB_UNMAPMDLFROMIOMMU *DxgkCbUnmapMdlFromIoMmu;
    DXGKCB_REPORT_DIAGNOSTIC *DxgkCbReportDiagnostic;
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_5
    DXGKCB_SIGNALEVENT *DxgkCbSignalEvent;
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_6
    DXGKCB_ISFEATUREENABLED *DxgkCbIsFeatureEnabled;
    /* Not in the interface page's list; its own page says a driver calls it
     * through DXGKRNL_INTERFACE from WDDM 2.6: placed last. */
    DXGKCB_SAVEMEMORYFORHOTUPDATE *DxgkCbSaveMemoryForHotUpdate;
#endif
} DXGKRNL_INTERFACE, *PDXGKRNL_INTERFACE;
typedef const DXGKRNL_INTERFACE *IN_PDXGKRNL_INTERFACE;

/* ---- The driver's DDI table (DRIVER_INITIALIZATION_DATA) ---- */
typedef NTSTATUS DXGKDDI_ADD_DEVICE(IN_CONST_PDEVICE_OBJECT PhysicalDeviceObject, OUT_PPVOID MiniportDeviceContext);
typedef NTSTATUS DXGKDDI_START_DEVICE(IN_CONST_PVOID MiniportDeviceContext, IN_PDXGK_START_INFO DxgkStartInfo,
                                      IN_PDXGKRNL_INTERFACE DxgkInterface, OUT_PULONG NumberOfVideoPresentSources,
                                      OUT_PULONG NumberOfChildren);
typedef NTSTATUS DXGKDDI_STOP_DEVICE(IN_CONST_PVOID MiniportDeviceContext);
typedef NTSTATUS DXGKDDI_REMOVE_DEVICE(IN_CONST_PVOID MiniportDeviceContext);
typedef NTSTATUS DXGKDDI_DISPATCH_IO_REQUEST(IN_CONST_PVOID MiniportDeviceContext, IN_ULONG VidPnSourceId,
                                             INOUT_PVIDEO_REQUEST_PACKET VideoRequestPacket);
typedef BOOLEAN DXGKDDI_INTERRUPT_ROUTINE(IN_CONST_PVOID MiniportDeviceContext, IN_ULONG MessageNumber);
typedef VOID DXGKDDI_DPC_ROUTINE(IN_CONST_PVOID MiniportDeviceContext);
typedef NTSTATUS DXGKDDI_QUERY_CHILD_RELATIONS(IN_CONST_PVOID MiniportDeviceContext,
                                               INOUT_PDXGK_CHILD_DESCRIPTOR ChildRelations,
                                               IN_ULONG ChildRelationsSize);
typedef NTSTATUS DXGKDDI_QUERY_CHILD_STATUS(IN_CONST_PVOID MiniportDeviceContext,
                                            INOUT_PDXGK_CHILD_STATUS ChildStatus, IN_BOOLEAN NonDestructiveOnly);
typedef NTSTATUS DXGKDDI_QUERY_DEVICE_DESCRIPTOR(IN_CONST_PVOID MiniportDeviceContext, IN_ULONG ChildUid,
                                                 INOUT_PDXGK_DEVICE_DESCRIPTOR DeviceDescriptor);
typedef NTSTATUS DXGKDDI_SET_POWER_STATE(IN_CONST_PVOID MiniportDeviceContext, IN_ULONG DeviceUid,
                                         IN_DEVICE_POWER_STATE DevicePowerState, IN_POWER_ACTION ActionType);
typedef NTSTATUS DXGKDDI_NOTIFY_ACPI_EVENT(IN_CONST_PVOID MiniportDeviceContext, IN_ULONG EventType,
                                           IN_ULONG Event, IN_PVOID Argument, OUT_PULONG AcpiFlags);
typedef VOID DXGKDDI_RESET_DEVICE(IN_CONST_PVOID MiniportDeviceContext);
typedef VOID DXGKDDI_UNLOAD(VOID);
typedef NTSTATUS DXGKDDI_QUERY_INTERFACE(IN_CONST_PVOID MiniportDeviceContext, IN_PQUERY_INTERFACE QueryInterface);
typedef VOID DXGKDDI_CONTROL_ETW_LOGGING(IN_BOOLEAN Enable, IN_ULONG Flags, IN_UCHAR Level);
typedef NTSTATUS APIENTRY DXGKDDI_LINK_DEVICE(IN_CONST_PDEVICE_OBJECT PhysicalDeviceObject,
                                              IN_CONST_PVOID MiniportDeviceContext, PVOID LinkedDevice);
typedef NTSTATUS DXGKDDI_STOP_DEVICE_AND_RELEASE_POST_DISPLAY_OWNERSHIP(IN_CONST_PVOID MiniportDeviceContext,
                                                                        D3DDDI_VIDEO_PRESENT_TARGET_ID TargetId,
                                                                        PDXGK_DISPLAY_INFORMATION DisplayInfo);
typedef NTSTATUS DXGKDDI_SYSTEM_DISPLAY_ENABLE(IN_CONST_PVOID MiniportDeviceContext,
                                               D3DDDI_VIDEO_PRESENT_TARGET_ID TargetId,
                                               PDXGKARG_SYSTEM_DISPLAY_ENABLE_FLAGS Flags, UINT *Width,
                                               UINT *Height, D3DDDIFORMAT *ColorFormat);
typedef VOID DXGKDDI_SYSTEM_DISPLAY_WRITE(IN_CONST_PVOID MiniportDeviceContext, PVOID Source, UINT SourceWidth,
                                          UINT SourceHeight, UINT SourceStride, UINT PositionX, UINT PositionY);
typedef NTSTATUS DXGKDDI_GET_CHILD_CONTAINER_ID(IN_CONST_PVOID MiniportDeviceContext, ULONG ChildUid,
                                                PDXGK_CHILD_CONTAINER_ID ContainerId);
typedef NTSTATUS DXGKDDI_NOTIFY_SURPRISE_REMOVAL(IN_CONST_PVOID MiniportDeviceContext,
                                                 DXGK_SURPRISE_REMOVAL_TYPE RemovalType);

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
    DXGKDDI_ISSUPPORTEDVIDPN *DxgkDdiIsSupportedVidPn;
    DXGKDDI_RECOMMENDFUNCTIONALVIDPN *DxgkDdiRecommendFunctionalVidPn;
    DXGKDDI_ENUMVIDPNCOFUNCMODALITY *DxgkDdiEnumVidPnCofuncModality;
    DXGKDDI_SETVIDPNSOURCEADDRESS *DxgkDdiSetVidPnSourceAddress;
    DXGKDDI_SETVIDPNSOURCEVISIBILITY *DxgkDdiSetVidPnSourceVisibility;
    DXGKDDI_COMMITVIDPN *DxgkDdiCommitVidPn;
    DXGKDDI_UPDATEACTIVEVIDPNPRESENTPATH *DxgkDdiUpdateActiveVidPnPresentPath;
    DXGKDDI_RECOMMENDMONITORMODES *DxgkDdiRecommendMonitorModes;
    DXGKDDI_RECOMMENDVIDPNTOPOLOGY *DxgkDdiRecommendVidPnTopology;
    DXGKDDI_GETSCANLINE *DxgkDdiGetScanLine;
    DXGKDDI_STOPCAPTURE *DxgkDdiStopCapture;
    DXGKDDI_CONTROLINTERRUPT *DxgkDdiControlInterrupt;
    DXGKDDI_CREATEOVERLAY *DxgkDdiCreateOverlay;
    DXGKDDI_DESTROYDEVICE *DxgkDdiDestroyDevice;
    DXGKDDI_OPENALLOCATIONINFO *DxgkDdiOpenAllocation;
    DXGKDDI_CLOSEALLOCATION *DxgkDdiCloseAllocation;
    DXGKDDI_RENDER *DxgkDdiRender;
    DXGKDDI_PRESENT *DxgkDdiPresent;
    DXGKDDI_UPDATEOVERLAY *DxgkDdiUpdateOverlay;
    DXGKDDI_FLIPOVERLAY *DxgkDdiFlipOverlay;
    DXGKDDI_DESTROYOVERLAY *DxgkDdiDestroyOverlay;
    DXGKDDI_CREATECONTEXT *DxgkDdiCreateContext;
    DXGKDDI_DESTROYCONTEXT *DxgkDdiDestroyContext;
    DXGKDDI_LINK_DEVICE *DxgkDdiLinkDevice;
    DXGKDDI_SETDISPLAYPRIVATEDRIVERFORMAT *DxgkDdiSetDisplayPrivateDriverFormat;
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WIN7
    PVOID DxgkDdiDescribePageTable; /* reserved: zero */
    PVOID DxgkDdiUpdatePageTable;
    PVOID DxgkDdiUpdatePageDirectory;
    PVOID DxgkDdiMovePageDirectory;
    PVOID DxgkDdiSubmitRender;
    PVOID DxgkDdiCreateAllocation2;
    DXGKDDI_RENDERKM *DxgkDdiRenderKm;
    VOID *Reserved;
    DXGKDDI_QUERYVIDPNHWCAPABILITY *DxgkDdiQueryVidPnHWCapability;
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WIN8
    DXGKDDISETPOWERCOMPONENTFSTATE *DxgkDdiSetPowerComponentFState;
    DXGKDDI_QUERYDEPENDENTENGINEGROUP *DxgkDdiQueryDependentEngineGroup;
    DXGKDDI_QUERYENGINESTATUS *DxgkDdiQueryEngineStatus;
    DXGKDDI_RESETENGINE *DxgkDdiResetEngine;
    DXGKDDI_STOP_DEVICE_AND_RELEASE_POST_DISPLAY_OWNERSHIP *DxgkDdiStopDeviceAndReleasePostDisplayOwnership;
    DXGKDDI_SYSTEM_DISPLAY_ENABLE *DxgkDdiSystemDisplayEnable;
    DXGKDDI_SYSTEM_DISPLAY_WRITE *DxgkDdiSystemDisplayWrite;
    DXGKDDI_CANCELCOMMAND *DxgkDdiCancelCommand;
    DXGKDDI_GET_CHILD_CONTAINER_ID *DxgkDdiGetChildContainerId;
    DXGKDDIPOWERRUNTIMECONTROLREQUEST *DxgkDdiPowerRuntimeControlRequest;
    DXGKDDI_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY *DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay;
    DXGKDDI_NOTIFY_SURPRISE_REMOVAL *DxgkDdiNotifySurpriseRemoval;
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM1_3
    DXGKDDI_GETNODEMETADATA *DxgkDdiGetNodeMetadata;
    PVOID DxgkDdiSetPowerPState; /* reserved: zero */
    DXGKDDI_CONTROLINTERRUPT2 *DxgkDdiControlInterrupt2;
    DXGKDDI_CHECKMULTIPLANEOVERLAYSUPPORT *DxgkDdiCheckMultiPlaneOverlaySupport;
    DXGKDDI_CALIBRATEGPUCLOCK *DxgkDdiCalibrateGpuClock;
    DXGKDDI_FORMATHISTORYBUFFER *DxgkDdiFormatHistoryBuffer;
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_0
    DXGKDDI_RENDERGDI *DxgkDdiRenderGdi;
    DXGKDDI_SUBMITCOMMANDVIRTUAL *DxgkDdiSubmitCommandVirtual;
    DXGKDDI_SETROOTPAGETABLE *DxgkDdiSetRootPageTable;
    DXGKDDI_GETROOTPAGETABLESIZE *DxgkDdiGetRootPageTableSize;
    DXGKDDI_MAPCPUHOSTAPERTURE *DxgkDdiMapCpuHostAperture;
    DXGKDDI_UNMAPCPUHOSTAPERTURE *DxgkDdiUnmapCpuHostAperture;
    DXGKDDI_CHECKMULTIPLANEOVERLAYSUPPORT2 *DxgkDdiCheckMultiPlaneOverlaySupport2;
    DXGKDDI_CREATEPROCESS *DxgkDdiCreateProcess;
    DXGKDDI_DESTROYPROCESS *DxgkDdiDestroyProcess;
    DXGKDDI_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY2 *DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay2;
    PVOID Reserved1;
    PVOID Reserved2;
    DXGKDDI_POWERRUNTIMESETDEVICEHANDLE *DxgkDdiPowerRuntimeSetDeviceHandle;
    DXGKDDI_SETSTABLEPOWERSTATE *DxgkDdiSetStablePowerState;
    DXGKDDI_SETVIDEOPROTECTEDREGION *DxgkDdiSetVideoProtectedRegion;
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_1
    DXGKDDI_CHECKMULTIPLANEOVERLAYSUPPORT3 *DxgkDdiCheckMultiPlaneOverlaySupport3;
    DXGKDDI_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY3 *DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay3;
    DXGKDDI_POSTMULTIPLANEOVERLAYPRESENT *DxgkDdiPostMultiPlaneOverlayPresent;
    DXGKDDI_VALIDATEUPDATEALLOCATIONPROPERTY *DxgkDdiValidateUpdateAllocationProperty;
    DXGKDDI_CONTROLMODEBEHAVIOR *DxgkDdiControlModeBehavior;
    DXGKDDI_UPDATEMONITORLINKINFO *DxgkDdiUpdateMonitorLinkInfo;
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_2
    DXGKDDI_CREATEHWCONTEXT *DxgkDdiCreateHwContext;
    DXGKDDI_DESTROYHWCONTEXT *DxgkDdiDestroyHwContext;
    DXGKDDI_CREATEHWQUEUE *DxgkDdiCreateHwQueue;
    DXGKDDI_DESTROYHWQUEUE *DxgkDdiDestroyHwQueue;
    DXGKDDI_SUBMITCOMMANDTOHWQUEUE *DxgkDdiSubmitCommandToHwQueue;
    DXGKDDI_SWITCHTOHWCONTEXTLIST *DxgkDdiSwitchToHwContextList;
    DXGKDDI_RESETHWENGINE *DxgkDdiResetHwEngine;
    DXGKDDI_CREATEPERIODICFRAMENOTIFICATION *DxgkDdiCreatePeriodicFrameNotification;
    DXGKDDI_DESTROYPERIODICFRAMENOTIFICATION *DxgkDdiDestroyPeriodicFrameNotification;
    DXGKDDI_SETTIMINGSFROMVIDPN *DxgkDdiSetTimingsFromVidPn;
    DXGKDDI_SETTARGETGAMMA *DxgkDdiSetTargetGamma;
    DXGKDDI_SETTARGETCONTENTTYPE *DxgkDdiSetTargetContentType;
    DXGKDDI_SETTARGETANALOGCOPYPROTECTION *DxgkDdiSetTargetAnalogCopyProtection;
    DXGKDDI_SETTARGETADJUSTEDCOLORIMETRY *DxgkDdiSetTargetAdjustedColorimetry;
    DXGKDDI_DISPLAYDETECTCONTROL *DxgkDdiDisplayDetectControl;
    DXGKDDI_QUERYCONNECTIONCHANGE *DxgkDdiQueryConnectionChange;
    DXGKDDI_EXCHANGEPRESTARTINFO *DxgkDdiExchangePreStartInfo;
    DXGKDDI_GETMULTIPLANEOVERLAYCAPS *DxgkDdiGetMultiPlaneOverlayCaps;
    DXGKDDI_GETPOSTCOMPOSITIONCAPS *DxgkDdiGetPostCompositionCaps;
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_3
    DXGKDDI_UPDATEHWCONTEXTSTATE *DxgkDdiUpdateHwContextState;
    DXGKDDI_CREATEPROTECTEDSESSION *DxgkDdiCreateProtectedSession;
    DXGKDDI_DESTROYPROTECTEDSESSION *DxgkDdiDestroyProtectedSession;
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_4
    DXGKDDI_SETSCHEDULINGLOGBUFFER *DxgkDdiSetSchedulingLogBuffer;
    DXGKDDI_SETUPPRIORITYBANDS *DxgkDdiSetupPriorityBands;
    DXGKDDI_NOTIFYFOCUSPRESENT *DxgkDdiNotifyFocusPresent;
    DXGKDDI_SETCONTEXTSCHEDULINGPROPERTIES *DxgkDdiSetContextSchedulingProperties;
    DXGKDDI_SUSPENDCONTEXT *DxgkDdiSuspendContext;
    DXGKDDI_RESUMECONTEXT *DxgkDdiResumeContext;
    DXGKDDI_SETVIRTUALMACHINEDATA *DxgkDdiSetVirtualMachineData;
    DXGKDDI_BEGINEXCLUSIVEACCESS *DxgkDdiBeginExclusiveAccess;
    DXGKDDI_ENDEXCLUSIVEACCESS *DxgkDdiEndExclusiveAccess;
    DXGKDDI_QUERYDIAGNOSTICTYPESSUPPORT *DxgkDdiQueryDiagnosticTypesSupport;
    DXGKDDI_CONTROLDIAGNOSTICREPORTING *DxgkDdiControlDiagnosticReporting;
    DXGKDDI_RESUMEHWENGINE *DxgkDdiResumeHwEngine;
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_5
    DXGKDDI_SIGNALMONITOREDFENCE *DxgkDdiSignalMonitoredFence;
    DXGKDDI_PRESENTTOHWQUEUE *DxgkDdiPresentToHwQueue;
    DXGKDDI_VALIDATESUBMITCOMMAND *DxgkDdiValidateSubmitCommand;
    DXGKDDI_SETTARGETADJUSTEDCOLORIMETRY2 *DxgkDdiSetTargetAdjustedColorimetry2;
    DXGKDDI_SETTRACKEDWORKLOADPOWERLEVEL *DxgkDdiSetTrackedWorkloadPowerLevel;
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_6
    DXGKDDI_SAVEMEMORYFORHOTUPDATE *DxgkDdiSaveMemoryForHotUpdate;
    DXGKDDI_RESTOREMEMORYFORHOTUPDATE *DxgkDdiRestoreMemoryForHotUpdate;
    /* One slot: the page lists DxgkDdiCollectDiagnosticInfo and Reserved3. */
    union {
        DXGKDDI_COLLECTDIAGNOSTICINFO *DxgkDdiCollectDiagnosticInfo;
        PVOID Reserved3;
    };
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_7
    DXGKDDI_CONTROLINTERRUPT3 *DxgkDdiControlInterrupt3;
#endif
} DRIVER_INITIALIZATION_DATA, *PDRIVER_INITIALIZATION_DATA;

typedef DXGKDDI_ADD_DEVICE *PDXGKDDI_ADD_DEVICE;
typedef DXGKDDI_START_DEVICE *PDXGKDDI_START_DEVICE;
typedef DXGKDDI_STOP_DEVICE *PDXGKDDI_STOP_DEVICE;
typedef DXGKDDI_REMOVE_DEVICE *PDXGKDDI_REMOVE_DEVICE;
typedef DXGKDDI_DISPATCH_IO_REQUEST *PDXGKDDI_DISPATCH_IO_REQUEST;
typedef DXGKDDI_QUERY_CHILD_RELATIONS *PDXGKDDI_QUERY_CHILD_RELATIONS;
typedef DXGKDDI_QUERY_CHILD_STATUS *PDXGKDDI_QUERY_CHILD_STATUS;
typedef DXGKDDI_INTERRUPT_ROUTINE *PDXGKDDI_INTERRUPT_ROUTINE;
typedef DXGKDDI_DPC_ROUTINE *PDXGKDDI_DPC_ROUTINE;
typedef DXGKDDI_QUERY_DEVICE_DESCRIPTOR *PDXGKDDI_QUERY_DEVICE_DESCRIPTOR;
typedef DXGKDDI_SET_POWER_STATE *PDXGKDDI_SET_POWER_STATE;
typedef DXGKDDI_NOTIFY_ACPI_EVENT *PDXGKDDI_NOTIFY_ACPI_EVENT;
typedef DXGKDDI_RESET_DEVICE *PDXGKDDI_RESET_DEVICE;
typedef DXGKDDI_UNLOAD *PDXGKDDI_UNLOAD;
typedef DXGKDDI_QUERY_INTERFACE *PDXGKDDI_QUERY_INTERFACE;
typedef DXGKDDI_CONTROL_ETW_LOGGING *PDXGKDDI_CONTROL_ETW_LOGGING;
typedef DXGKDDI_LINK_DEVICE *PDXGKDDI_LINK_DEVICE;

/* DriverEntry hands its table to DXGKRNL with DxgkInitialize. Declared so
 * that a DriverEntry compiles; pbcheck's kernel services do not define it
 * (a target never runs DriverEntry), so pbcheck_add_target's link check
 * names it unless the target's glue defines it or leaves DriverEntry out. */
NTSTATUS DxgkInitialize(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath,
                        PDRIVER_INITIALIZATION_DATA DriverInitializationData);

/* pbcheck's, not Windows': fills the InterfaceSize bytes at Interface
 * (pass sizeof(DXGKRNL_INTERFACE) as the caller's DXGKDDI_INTERFACE_VERSION
 * lays it out) as DXGKRNL hands the table to DxgkDdiStartDevice: Size,
 * Version (pbcheck's, WDDM 2.7), DeviceHandle, and every callback a trap
 * that fails the call and reports it as a PB-KERNEL finding naming the
 * callback, since pbcheck serves none of them (docs/wdk-headers.md). A
 * glue that runs the driver's own StartDevice passes it this table, after
 * overwriting any member it serves itself. */
VOID pbc_wdk_dxgkrnl_interface(HANDLE DeviceHandle, PDXGKRNL_INTERFACE Interface, SIZE_T InterfaceSize);

PBC_WDK_SIZE(DXGK_START_INFO, 28);
PBC_WDK_OFF(DXGK_DEVICE_INFO, DeviceRegistryPath, 16);
PBC_WDK_OFF(DXGK_DEVICE_INFO, TranslatedResourceList, 32);
PBC_WDK_SIZE(DXGK_DEVICE_INFO, 80);
PBC_WDK_OFF(DXGKRNL_INTERFACE, DeviceHandle, 8);
PBC_WDK_OFF(DXGKRNL_INTERFACE, DxgkCbNotifyInterrupt, 128);
PBC_WDK_OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiPatch, 200);
PBC_WDK_OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiBuildPagingBuffer, 224);

PBC_WDK_SIZE(DXGK_CHILD_DESCRIPTOR, 28);
PBC_WDK_SIZE(DXGK_CHILD_STATUS, 16);
PBC_WDK_SIZE(DXGK_DEVICE_DESCRIPTOR, 16);
PBC_WDK_SIZE(QUERY_INTERFACE, 32);
PBC_WDK_SIZE(VIDEO_REQUEST_PACKET, 48);
PBC_WDK_SIZE(ACPI_EVAL_INPUT_BUFFER_COMPLEX, 24);
PBC_WDK_OFF(DXGKRNL_INTERFACE, DxgkCbQueryVidPnInterface, 144);
/* Every member after DeviceHandle is a pointer: member n of the page's
 * list (DxgkCbEvalAcpiMethod is 0) is at 16 + 8n. */
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_0
PBC_WDK_OFF(DXGKRNL_INTERFACE, DxgkCbMapContextAllocation, 264);
PBC_WDK_OFF(DXGKRNL_INTERFACE, DxgkCbHardwareContentProtectionTeardown, 304);
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_4
PBC_WDK_OFF(DXGKRNL_INTERFACE, DxgkCbAllocateContiguousMemory, 368);
PBC_WDK_OFF(DXGKRNL_INTERFACE, DxgkCbReportDiagnostic, 448);
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_6
PBC_WDK_OFF(DXGKRNL_INTERFACE, DxgkCbIsFeatureEnabled, 464);
PBC_WDK_SIZE(DXGKRNL_INTERFACE, 480);
#endif
PBC_WDK_OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSetDisplayPrivateDriverFormat, 488);
/* Every member is a pointer after Version (padded to 8): member n of the
 * page's list (Version is 0) is at 8 * n. */
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WIN8
PBC_WDK_OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiNotifySurpriseRemoval, 656);
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_0
PBC_WDK_OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiGetNodeMetadata, 664);
PBC_WDK_OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiRenderGdi, 712);
PBC_WDK_OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSubmitCommandVirtual, 720);
PBC_WDK_OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateProcess, 768);
PBC_WDK_OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSetStablePowerState, 816);
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_7
PBC_WDK_OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSetTrackedWorkloadPowerLevel, 1184);
PBC_WDK_OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiControlInterrupt3, 1216);
PBC_WDK_SIZE(DRIVER_INITIALIZATION_DATA, 1224);

#endif

#ifdef __cplusplus
}
#endif

#endif
