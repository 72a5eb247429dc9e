/* A Windows 10 (WDDM 2.x) display miniport written in C, as a paravirtual
 * driver's whole entry-point file is: DriverEntry fills every WDDM 1.3 to
 * 2.7 member of DRIVER_INITIALIZATION_DATA; StartDevice keeps its copy of
 * DXGKRNL_INTERFACE and calls WDDM 2.x callbacks through it, reads device
 * properties, initialises an event and a DPC and starts a system thread
 * that completes submissions; the WDDM 2.x DDIs look inside their
 * arguments (hardware queues, display detection, the flip's per-context
 * primaries); the strings are L"..." in WCHAR arrays and UNICODE_STRINGs.
 * It compiles against include/pbcheck/wdk alone, as C11 with every warning
 * an error and -fshort-wchar (as pbcheck_add_target builds a target), and
 * the test at the end runs it on the kernel services, with the
 * DXGKRNL_INTERFACE pbcheck hands a driver (pbc_wdk_dxgkrnl_interface). */
#include <ntddk.h>
#include <dispmprt.h>

#define PV_POOL_TAG 0x30315650u /* 'PV10' */
#define PV_OVERLAY_PLANES 2 /* the primary and one overlay */
#define PV_CHANGES 4        /* connection changes queued for the OS */

typedef struct _PV_ADAPTER {
    PDEVICE_OBJECT Pdo;
    WCHAR HardwareId[64];
    ULONG BusNumber;
    KEVENT WorkEvent;
    KEVENT StopEvent;
    KEVENT DoneEvent;
    KDPC Dpc;
    PKTHREAD Thread;
    volatile LONG Submitted;
    volatile LONG Completed;
    KIRQL DpcIrql;
    DXGKRNL_INTERFACE Dxgkrnl;
    DXGKARGCB_ALLOCATECONTIGUOUSMEMORY Ring;
    UINT HwQueues;
    BOOLEAN HotPlugDetection;
    D3DGPU_VIRTUAL_ADDRESS ProgressFence;
    UINT PowerLevel;
    PHYSICAL_ADDRESS Scanout[2];
    HANDLE ProtectedSession;
    ULONG MaxLuminance;
    BOOLEAN Hdr;
    D3DGPU_VIRTUAL_ADDRESS SchedulingLog;
    DXGK_SCHEDULING_LOG_BUFFER *SchedulingLogCpu;
    PHYSICAL_ADDRESS OverlayScanout[PV_OVERLAY_PLANES];
    D3DDDI_COLOR_SPACE_TYPE OverlayColorSpace[PV_OVERLAY_PLANES];
    USHORT GammaLut[3][256];
    D3DKMDT_VIDPN_PRESENT_PATH_CONTENT Content;
    UINT ApsLevel;
    UINT SdrWhiteLevel;
    BOOLEAN HotUpdateRestored;
    DXGK_DIAGTYPE_NOTIFICATIONS PsrDiagnostics;
    D3DDDI_COLOR_SPACE_TYPE OutputColorSpace;
    DXGK_CONNECTION_CHANGE Changes[PV_CHANGES];
    UINT ChangesQueued;
    UINT ChangesReported;
    ULONGLONG LastChangeId;
    ULONGLONG OverlayPresentId[PV_OVERLAY_PLANES];
} PV_ADAPTER, *PPV_ADAPTER;

static UNICODE_STRING g_pvServiceName = RTL_CONSTANT_STRING(L"pvgpu");
static const WCHAR g_pvEngineName[] = L"3D";

static KSTART_ROUTINE PvWorker;
static KDEFERRED_ROUTINE PvCompletionDpc;

static NTSTATUS PvAddDevice(IN_CONST_PDEVICE_OBJECT PhysicalDeviceObject, OUT_PPVOID MiniportDeviceContext)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)ExAllocatePool2(POOL_FLAG_NON_PAGED, sizeof(PV_ADAPTER), PV_POOL_TAG);
    if (adapter == NULL)
        return STATUS_NO_MEMORY;
    adapter->Pdo = PhysicalDeviceObject;
    *MiniportDeviceContext = adapter;
    return STATUS_SUCCESS;
}

static NTSTATUS PvStartDevice(IN_CONST_PVOID MiniportDeviceContext, IN_PDXGK_START_INFO DxgkStartInfo,
                              IN_PDXGKRNL_INTERFACE DxgkInterface, OUT_PULONG NumberOfVideoPresentSources,
                              OUT_PULONG NumberOfChildren)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)MiniportDeviceContext;
    UNREFERENCED_PARAMETER(DxgkStartInfo);
    adapter->Dxgkrnl = *DxgkInterface;
    /* The command ring, in memory the IOMMU maps (WDDM 2.4). */
    RtlZeroMemory(&adapter->Ring, sizeof(adapter->Ring));
    adapter->Ring.NumberOfBytes = 4 * PAGE_SIZE;
    adapter->Ring.HighestAcceptableAddress.QuadPart = -1;
    adapter->Ring.CacheType = DXGK_MEMORY_CACHING_TYPE_WRITE_COMBINED;
    NTSTATUS ring = adapter->Dxgkrnl.DxgkCbAllocateContiguousMemory(adapter->Dxgkrnl.DeviceHandle, &adapter->Ring);
    if (!NT_SUCCESS(ring))
        return ring;
    /* Connectors already plugged in (WDDM 2.2), and no overlay to keep
     * (WDDM 2.1): notifications whose failure the driver can live with. */
    (void)adapter->Dxgkrnl.DxgkCbIndicateConnectorChange(adapter->Dxgkrnl.DeviceHandle);
    adapter->Dxgkrnl.DxgkCbMultiPlaneOverlayDisabled(adapter->Dxgkrnl.DeviceHandle, 0);
    ULONG length = 0;
    NTSTATUS status = IoGetDeviceProperty(adapter->Pdo, DevicePropertyHardwareID, sizeof(adapter->HardwareId),
                                          adapter->HardwareId, &length);
    if (NT_SUCCESS(status))
        status = IoGetDeviceProperty(adapter->Pdo, DevicePropertyBusNumber, sizeof(adapter->BusNumber),
                                     &adapter->BusNumber, &length);
    if (!NT_SUCCESS(status))
        return status;
    KeInitializeEvent(&adapter->WorkEvent, SynchronizationEvent, FALSE);
    KeInitializeEvent(&adapter->StopEvent, NotificationEvent, FALSE);
    KeInitializeEvent(&adapter->DoneEvent, SynchronizationEvent, FALSE);
    KeInitializeDpc(&adapter->Dpc, PvCompletionDpc, adapter);

    OBJECT_ATTRIBUTES attributes;
    InitializeObjectAttributes(&attributes, NULL, OBJ_KERNEL_HANDLE, NULL, NULL);
    HANDLE thread;
    status = PsCreateSystemThread(&thread, THREAD_ALL_ACCESS, &attributes, NULL, NULL, PvWorker, adapter);
    if (!NT_SUCCESS(status))
        return status;
    status = ObReferenceObjectByHandle(thread, THREAD_ALL_ACCESS, *PsThreadType, KernelMode,
                                       (PVOID *)&adapter->Thread, NULL);
    ZwClose(thread);
    *NumberOfVideoPresentSources = 1;
    *NumberOfChildren = 1;
    return status;
}

/* Completes each submission through the DPC, as the device's interrupt
 * would, until StopDevice signals the stop event. */
static VOID PvWorker(PVOID StartContext)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)StartContext;
    PVOID waitOn[2] = {&adapter->StopEvent, &adapter->WorkEvent};
    while (KeWaitForMultipleObjects(2, waitOn, WaitAny, Executive, KernelMode, FALSE, NULL, NULL) ==
           STATUS_WAIT_1)
        KeInsertQueueDpc(&adapter->Dpc, NULL, NULL);
    PsTerminateSystemThread(STATUS_SUCCESS);
}

static VOID PvCompletionDpc(PKDPC Dpc, PVOID DeferredContext, PVOID SystemArgument1, PVOID SystemArgument2)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)DeferredContext;
    UNREFERENCED_PARAMETER(Dpc);
    UNREFERENCED_PARAMETER(SystemArgument1);
    UNREFERENCED_PARAMETER(SystemArgument2);
    adapter->Completed = adapter->Submitted;
    adapter->DpcIrql = KeGetCurrentIrql();
    KeSetEvent(&adapter->DoneEvent, IO_NO_INCREMENT, FALSE);
}

static NTSTATUS PvStopDevice(IN_CONST_PVOID MiniportDeviceContext)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)MiniportDeviceContext;
    KeSetEvent(&adapter->StopEvent, IO_NO_INCREMENT, FALSE);
    NTSTATUS status = KeWaitForSingleObject(adapter->Thread, Executive, KernelMode, FALSE, NULL);
    ObDereferenceObject(adapter->Thread);
    adapter->Thread = NULL;
    return status;
}

static NTSTATUS PvRemoveDevice(IN_CONST_PVOID MiniportDeviceContext)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)MiniportDeviceContext;
    DXGKARGCB_FREECONTIGUOUSMEMORY free;
    free.hMemoryHandle = adapter->Ring.hMemoryHandle;
    NTSTATUS status = adapter->Dxgkrnl.DxgkCbFreeContiguousMemory(adapter->Dxgkrnl.DeviceHandle, &free);
    ExFreePoolWithTag(MiniportDeviceContext, PV_POOL_TAG);
    return status;
}

static NTSTATUS APIENTRY PvCreateAllocation(IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_CREATEALLOCATION pCreate)
{
    UNREFERENCED_PARAMETER(hAdapter);
    for (UINT i = 0; i < pCreate->NumAllocations; i++) {
        DXGK_ALLOCATIONINFO *info = &pCreate->pAllocationInfo[i];
        info->Size = 16 * PAGE_SIZE;
        info->Alignment = PAGE_SIZE;
        info->SupportedReadSegmentSet = info->SupportedWriteSegmentSet = 1;
        info->AllocationPriority = D3DDDI_ALLOCATIONPRIORITY_HIGH;
        info->Flags.CpuVisible = 1;
    }
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY PvSubmitCommandVirtual(IN_CONST_HANDLE hAdapter,
                                                IN_CONST_PDXGKARG_SUBMITCOMMANDVIRTUAL pSubmitCommand)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)hAdapter;
    adapter->Submitted = (LONG)pSubmitCommand->SubmissionFenceId;
    KeSetEvent(&adapter->WorkEvent, IO_NO_INCREMENT, FALSE);
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY PvGetNodeMetadata(IN_CONST_HANDLE hAdapter, UINT NodeOrdinalAndAdapterIndex,
                                           OUT_PDXGKARG_GETNODEMETADATA pGetNodeMetadata)
{
    UNREFERENCED_PARAMETER(hAdapter);
    if ((NodeOrdinalAndAdapterIndex & 0xFFFF) != 0)
        return STATUS_INVALID_PARAMETER;
    RtlZeroMemory(pGetNodeMetadata, sizeof(*pGetNodeMetadata));
    pGetNodeMetadata->EngineType = DXGK_ENGINE_TYPE_3D;
    RtlCopyMemory(pGetNodeMetadata->FriendlyName, g_pvEngineName, sizeof(g_pvEngineName));
    pGetNodeMetadata->GpuMmuSupported = TRUE;
    return STATUS_SUCCESS;
}

static VOID APIENTRY PvSetRootPageTable(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_SETROOTPAGETABLE pSetPageTable)
{
    UNREFERENCED_PARAMETER(hAdapter);
    UNREFERENCED_PARAMETER(pSetPageTable);
}

static SIZE_T APIENTRY PvGetRootPageTableSize(IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_GETROOTPAGETABLESIZE pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    return (SIZE_T)pArgs->NumberOfPte * 8;
}

static NTSTATUS APIENTRY PvQueryEngineStatus(IN_CONST_HANDLE hAdapter,
                                             INOUT_PDXGKARG_QUERYENGINESTATUS pQueryEngineStatus)
{
    UNREFERENCED_PARAMETER(hAdapter);
    pQueryEngineStatus->EngineStatus.Value = 0;
    pQueryEngineStatus->EngineStatus.Responsive = 1;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY PvCancelCommand(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_CANCELCOMMAND pCancelCommand)
{
    UNREFERENCED_PARAMETER(hAdapter);
    return pCancelCommand->hContext != NULL ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
}

/* ---- WDDM 2.x DDIs that look inside their arguments ---- */
static NTSTATUS APIENTRY PvCreateHwQueue(IN_CONST_HANDLE hHwContext, INOUT_PDXGKARG_CREATEHWQUEUE pCreateHwQueue)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)hHwContext;
    if (pCreateHwQueue->Flags.UserModeSubmission || pCreateHwQueue->PrivateDriverDataSize != 0)
        return STATUS_INVALID_PARAMETER;
    adapter->ProgressFence = pCreateHwQueue->HwQueueProgressFenceGPUVirtualAddress;
    adapter->HwQueues++;
    pCreateHwQueue->hHwQueue = (HANDLE)(ULONG_PTR)adapter->HwQueues;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY PvDisplayDetectControl(IN_CONST_HANDLE hAdapter,
                                                IN_CONST_PDXGKARG_DISPLAYDETECTCONTROL pDisplayDetectControl)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)hAdapter;
    switch (pDisplayDetectControl->Type) {
    case DXGK_DDCT_ENABLEHPD:
        adapter->HotPlugDetection = TRUE;
        return STATUS_SUCCESS;
    case DXGK_DDCT_DISABLEHPD:
        adapter->HotPlugDetection = FALSE;
        return STATUS_SUCCESS;
    case DXGK_DDCT_POLLONE:
        return pDisplayDetectControl->TargetId == 0 ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
    default:
        return STATUS_INVALID_PARAMETER;
    }
}

static NTSTATUS APIENTRY PvSetTrackedWorkloadPowerLevel(IN_CONST_HANDLE hContext,
                                                        INOUT_PDXGKARG_SETTRACKEDWORKLOADPOWERLEVEL pArgs)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)hContext;
    adapter->PowerLevel = pArgs->PowerLevel > 80 ? 80 : pArgs->PowerLevel;
    pArgs->EffectivePowerLevel = adapter->PowerLevel;
    pArgs->Flags.Value = 0;
    pArgs->Flags.Saturated = pArgs->PowerLevel > 80;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY PvBeginExclusiveAccess(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_BEGINEXCLUSIVEACCESS pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    return pArgs->Reserved == 0 ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
}

static NTSTATUS APIENTRY PvEndExclusiveAccess(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_ENDEXCLUSIVEACCESS pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    return pArgs->Reserved == 0 ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
}

/* A flip scans out the primary each context names (WDDM 2.0 adds them). */
static NTSTATUS APIENTRY PvSetVidPnSourceAddress(IN_CONST_HANDLE hAdapter,
                                                 IN_CONST_PDXGKARG_SETVIDPNSOURCEADDRESS pSetVidPnSourceAddress)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)hAdapter;
    if (pSetVidPnSourceAddress->ContextCount > RTL_NUMBER_OF(adapter->Scanout))
        return STATUS_INVALID_PARAMETER;
    for (UINT i = 0; i < pSetVidPnSourceAddress->ContextCount; i++)
        adapter->Scanout[i] = pSetVidPnSourceAddress->PrimaryData[i].SegmentAddress;
    return pSetVidPnSourceAddress->DriverPrivateDataSize == 0 ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
}

/* ---- The rest of WDDM 1.3 to 2.7: not supported by this device ---- */
static NTSTATUS APIENTRY PvControlInterrupt2(IN_CONST_HANDLE hAdapter, IN_CONST_DXGKARG_CONTROLINTERRUPT2 InterruptControl)
{
    UNREFERENCED_PARAMETER(hAdapter);
    UNREFERENCED_PARAMETER(InterruptControl);
    return STATUS_NOT_SUPPORTED;
}

/* ---- Multiplane overlays: two planes, scaled but not flipped or shrunk ---- */
static BOOLEAN PvOverlayFits(const DXGK_MULTIPLANE_OVERLAY_FLAGS *flags, const RECT *src, const RECT *dst,
                             DXGK_MULTIPLANE_OVERLAY_STEREO_FORMAT stereo)
{
    if (flags->VerticalFlip || flags->HorizontalFlip || stereo != DXGK_MULTIPLANE_OVERLAY_STEREO_FORMAT_MONO)
        return FALSE;
    /* The scaler enlarges only. */
    return dst->right - dst->left >= src->right - src->left && dst->bottom - dst->top >= src->bottom - src->top;
}

static NTSTATUS APIENTRY PvCheckMultiPlaneOverlaySupport(IN_CONST_HANDLE hAdapter,
                                                         IN_OUT_PDXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT pArgs)
{
    pArgs->Supported = TRUE;
    pArgs->ReturnInfo.Value = 0;
    for (UINT i = 0; i < pArgs->PlaneCount; i++) {
        DXGK_CHECK_MULTIPLANE_OVERLAY_SUPPORT_PLANE *plane = &pArgs->pPlanes[i];
        const DXGK_MULTIPLANE_OVERLAY_ATTRIBUTES *attr = &plane->PlaneAttributes;
        plane->hAllocation = hAdapter; /* the driver's tracking handle */
        if (i >= PV_OVERLAY_PLANES || plane->VidPnSourceId != 0 ||
            (attr->YCbCrFlags & DXGK_MULTIPLANE_OVERLAY_YCbCr_FLAG_xvYCC) ||
            !PvOverlayFits(&attr->Flags, &attr->SrcRect, &attr->DstRect, attr->StereoFormat)) {
            pArgs->Supported = FALSE;
            pArgs->ReturnInfo.FailingPlane = i;
            break;
        }
    }
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY PvSetVidPnSourceAddressWithMultiPlaneOverlay(
    IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY pArgs)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)hAdapter;
    if (pArgs->VidPnSourceId != 0 || pArgs->Flags.FlipStereo)
        return STATUS_INVALID_PARAMETER;
    for (UINT i = 0; i < pArgs->PlaneCount; i++) {
        const DXGK_MULTIPLANE_OVERLAY_PLANE *plane = &pArgs->pPlanes[i];
        if (plane->LayerIndex >= PV_OVERLAY_PLANES)
            return STATUS_INVALID_PARAMETER;
        /* A disabled plane stops scanning out; an enabled one keeps its
         * address until flipped. */
        adapter->OverlayScanout[plane->LayerIndex].QuadPart =
            plane->Enabled ? plane->AllocationAddress.QuadPart : 0;
        adapter->OverlayColorSpace[plane->LayerIndex] =
            plane->PlaneAttributes.YCbCrFlags & DXGK_MULTIPLANE_OVERLAY_YCbCr_FLAG_BT709
                ? D3DDDI_COLOR_SPACE_YCBCR_STUDIO_G22_LEFT_P709
                : D3DDDI_COLOR_SPACE_RGB_FULL_G22_NONE_P709;
    }
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY PvCalibrateGpuClock(IN_CONST_HANDLE hAdapter, UINT32 NodeOrdinal, UINT32 EngineOrdinal,
                                             OUT_PDXGKARG_CALIBRATEGPUCLOCK pClockCalibration)
{
    UNREFERENCED_PARAMETER(hAdapter);
    UNREFERENCED_PARAMETER(NodeOrdinal);
    UNREFERENCED_PARAMETER(EngineOrdinal);
    UNREFERENCED_PARAMETER(pClockCalibration);
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS APIENTRY PvFormatHistoryBuffer(IN_CONST_HANDLE hContext, IN_PDXGKARG_FORMATHISTORYBUFFER pFormatData)
{
    UNREFERENCED_PARAMETER(hContext);
    UNREFERENCED_PARAMETER(pFormatData);
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS APIENTRY PvRenderGdi(IN_CONST_HANDLE hContext, INOUT_PDXGKARG_RENDERGDI pRenderGdi)
{
    UNREFERENCED_PARAMETER(hContext);
    UNREFERENCED_PARAMETER(pRenderGdi);
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS APIENTRY PvMapCpuHostAperture(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_MAPCPUHOSTAPERTURE pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    UNREFERENCED_PARAMETER(pArgs);
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS APIENTRY PvUnmapCpuHostAperture(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_UNMAPCPUHOSTAPERTURE pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    UNREFERENCED_PARAMETER(pArgs);
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS APIENTRY PvCheckMultiPlaneOverlaySupport2(IN_CONST_HANDLE hAdapter,
                                                          IN_OUT_PDXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT2 pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    pArgs->Supported = TRUE;
    pArgs->ReturnInfo.Value = 0;
    for (UINT i = 0; i < pArgs->PlaneCount; i++) {
        const DXGK_MULTIPLANE_OVERLAY_PLANE_WITH_SOURCE *plane = &pArgs->pPlanes[i];
        const DXGK_MULTIPLANE_OVERLAY_ATTRIBUTES2 *attr = &plane->PlaneAttributes;
        BOOLEAN sdr = attr->ColorSpaceType == D3DDDI_COLOR_SPACE_RGB_FULL_G22_NONE_P709 ||
                      attr->ColorSpaceType == D3DDDI_COLOR_SPACE_YCBCR_STUDIO_G22_LEFT_P709;
        if (plane->LayerIndex >= PV_OVERLAY_PLANES || plane->VidPnSourceId != 0 || !sdr ||
            !PvOverlayFits(&attr->Flags, &attr->SrcRect, &attr->DstRect, attr->StereoFormat)) {
            pArgs->Supported = FALSE;
            pArgs->ReturnInfo.FailingPlane = i;
            break;
        }
    }
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY PvCreateProcess(IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_CREATEPROCESS pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    UNREFERENCED_PARAMETER(pArgs);
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS APIENTRY PvDestroyProcess(IN_CONST_HANDLE hAdapter, IN_CONST_HANDLE hKmdProcess)
{
    UNREFERENCED_PARAMETER(hAdapter);
    UNREFERENCED_PARAMETER(hKmdProcess);
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS APIENTRY PvSetVidPnSourceAddressWithMultiPlaneOverlay2(
    IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY2 pArgs)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)hAdapter;
    if (pArgs->VidPnSourceId != 0 || pArgs->ContextCount > 1 + D3DDDI_MAX_BROADCAST_CONTEXT)
        return STATUS_INVALID_PARAMETER;
    for (UINT i = 0; i < pArgs->PlaneCount; i++) {
        const DXGK_MULTIPLANE_OVERLAY_PLANE2 *plane = &pArgs->pPlanes[i];
        if (plane->LayerIndex >= PV_OVERLAY_PLANES)
            return STATUS_INVALID_PARAMETER;
        adapter->OverlayScanout[plane->LayerIndex].QuadPart =
            plane->Enabled ? plane->AllocationAddress.QuadPart : 0;
        adapter->OverlayColorSpace[plane->LayerIndex] = plane->PlaneAttributes.ColorSpaceType;
    }
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY PvPowerRuntimeSetDeviceHandle(IN_CONST_HANDLE DriverContext, HANDLE PepDeviceHandle)
{
    UNREFERENCED_PARAMETER(DriverContext);
    UNREFERENCED_PARAMETER(PepDeviceHandle);
    return STATUS_NOT_SUPPORTED;
}

static VOID APIENTRY PvSetStablePowerState(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_SETSTABLEPOWERSTATE pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    UNREFERENCED_PARAMETER(pArgs);
}

static NTSTATUS APIENTRY PvSetVideoProtectedRegion(IN_CONST_HANDLE hAdapter,
                                                   IN_CONST_PDXGKARG_SETVIDEOPROTECTEDREGION pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    UNREFERENCED_PARAMETER(pArgs);
    return STATUS_NOT_SUPPORTED;
}

/* Version 3: no post-composition scaler, no dirty-rectangle updates. */
static NTSTATUS APIENTRY PvCheckMultiPlaneOverlaySupport3(IN_CONST_HANDLE hAdapter,
                                                          IN_OUT_PDXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT3 pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    pArgs->Supported = pArgs->PostCompositionCount == 0;
    pArgs->ReturnInfo.Value = 0;
    for (UINT i = 0; pArgs->Supported && i < pArgs->PlaneCount; i++) {
        const DXGK_MULTIPLANE_OVERLAY_ATTRIBUTES3 *attr = &pArgs->ppPlanes[i]->PlaneAttributes;
        if (pArgs->ppPlanes[i]->LayerIndex >= PV_OVERLAY_PLANES || attr->DirtyRectCnt != 0 ||
            !PvOverlayFits(&attr->Flags, &attr->SrcRect, &attr->DstRect, DXGK_MULTIPLANE_OVERLAY_STEREO_FORMAT_MONO)) {
            pArgs->Supported = FALSE;
            pArgs->ReturnInfo.FailingPlane = i;
        }
    }
    return STATUS_SUCCESS;
}

/* Flips at DISPATCH_LEVEL are retried at PASSIVE_LEVEL when the HDR
 * metadata changes; immediate flips report their completion. */
static NTSTATUS APIENTRY PvSetVidPnSourceAddressWithMultiPlaneOverlay3(
    IN_CONST_HANDLE hAdapter, IN_OUT_PDXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY3 pArgs)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)hAdapter;
    pArgs->OutputFlags.Value = 0;
    if (pArgs->pHDRMetaData != NULL && !pArgs->InputFlags.RetryAtLowerIrql) {
        pArgs->OutputFlags.PrePresentNeeded = 1;
        return STATUS_SUCCESS;
    }
    for (UINT i = 0; i < pArgs->PlaneCount; i++) {
        DXGK_MULTIPLANE_OVERLAY_PLANE3 *plane = pArgs->ppPlanes[i];
        if (plane->LayerIndex >= PV_OVERLAY_PLANES)
            return STATUS_INVALID_PARAMETER;
        plane->OutputFlags.Value = 0;
        if (plane->InputFlags.FlipImmediate)
            plane->OutputFlags.PostPresentNeeded = 1;
        adapter->OverlayColorSpace[plane->LayerIndex] =
            plane->InputFlags.Enabled ? plane->PlaneAttributes.ColorSpaceType : D3DDDI_COLOR_SPACE_RGB_FULL_G22_NONE_P709;
        adapter->OverlayPresentId[plane->LayerIndex] = plane->PresentId;
    }
    if (pArgs->pHDRMetaData != NULL && pArgs->pHDRMetaData->Type == D3DDDI_HDR_METADATA_TYPE_HDR10)
        adapter->Hdr = TRUE;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY PvPostMultiPlaneOverlayPresent(IN_CONST_HANDLE hAdapter,
                                                        IN_CONST_PDXGKARG_POSTMULTIPLANEOVERLAYPRESENT pPostPresent)
{
    UNREFERENCED_PARAMETER(hAdapter);
    UNREFERENCED_PARAMETER(pPostPresent);
    return STATUS_NOT_SUPPORTED;
}

/* Allocations move between the two segments, never to a physical-address
 * one: segment 1 is the aperture, 2 the local memory. */
static NTSTATUS APIENTRY PvValidateUpdateAllocationProperty(IN_CONST_HANDLE hAdapter,
                                                            IN_CONST_PDXGKARG_VALIDATEUPDATEALLOCPROPERTY pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    if (pArgs->SetAccessedPhysically && pArgs->Flags.AccessedPhysically)
        return STATUS_NOT_SUPPORTED;
    if (pArgs->SetSupportedSegmentSet && (pArgs->SupportedSegmentSet & ~0x6u) != 0)
        return STATUS_INVALID_PARAMETER;
    if (pArgs->SetPreferredSegment && pArgs->PreferredSegment.SegmentId0 > 2)
        return STATUS_INVALID_PARAMETER;
    return STATUS_SUCCESS;
}

/* The panel can favour HDR modes; its colour enhancement cannot be turned off. */
static NTSTATUS APIENTRY PvControlModeBehavior(IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_CONTROLMODEBEHAVIOR pArgs)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)hAdapter;
    pArgs->Satisfied.Value = 0;
    pArgs->NotSatisfied.Value = 0;
    if (pArgs->Request.PrioritizeHDR) {
        adapter->Hdr = TRUE;
        pArgs->Satisfied.PrioritizeHDR = 1;
    }
    if (pArgs->Request.ColorimetricControl)
        pArgs->NotSatisfied.ColorimetricControl = 1;
    return STATUS_SUCCESS;
}

/* The one panel: wide colour and HDR10 when it is not hidden, dithering
 * for 8-bit RGB. */
static NTSTATUS APIENTRY PvUpdateMonitorLinkInfo(IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_UPDATEMONITORLINKINFO pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    if (pArgs->VideoPresentTargetId != 0)
        return STATUS_INVALID_PARAMETER;
    DXGK_MONITORLINKINFO *link = &pArgs->MonitorLinkInfo;
    link->Capabilities.Value = 0;
    link->Capabilities.DedicatedTimingGeneration = 1;
    if (!link->UsageHints.Hidden) {
        link->Capabilities.WideColorSpace = 1;
        link->Capabilities.HighColorSpace = 1;
    }
    link->DitheringSupport.Value = 0;
    link->DitheringSupport.Rgb = 0x1; /* 8 bits a channel */
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY PvCreateHwContext(IN_CONST_HANDLE hDevice, INOUT_PDXGKARG_CREATEHWCONTEXT pCreateHwContext)
{
    UNREFERENCED_PARAMETER(hDevice);
    UNREFERENCED_PARAMETER(pCreateHwContext);
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS APIENTRY PvDestroyHwContext(IN_CONST_HANDLE hHwContext)
{
    UNREFERENCED_PARAMETER(hHwContext);
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY PvDestroyHwQueue(IN_CONST_HANDLE hHwQueue)
{
    UNREFERENCED_PARAMETER(hHwQueue);
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY PvSubmitCommandToHwQueue(IN_CONST_HANDLE hAdapter,
                                                  IN_CONST_PDXGKARG_SUBMITCOMMANDTOHWQUEUE pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    UNREFERENCED_PARAMETER(pArgs);
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS APIENTRY PvSwitchToHwContextList(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_SWITCHTOHWCONTEXTLIST pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    UNREFERENCED_PARAMETER(pArgs);
    return STATUS_NOT_SUPPORTED;
}

/* Resetting the engine loses the keys of the protected session it ran:
 * the driver tells the OS the session is no longer valid, and forgets it
 * once the OS has heard. */
static NTSTATUS APIENTRY PvResetHwEngine(IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_RESETHWENGINE pArgs)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)hAdapter;
    if (pArgs->NodeOrdinal != 0 || pArgs->EngineOrdinal != 0)
        return STATUS_INVALID_PARAMETER;
    if (adapter->ProtectedSession == NULL)
        return STATUS_SUCCESS;
    DXGKARGCB_PROTECTEDSESSIONSTATUS lost;
    lost.hProtectedSession = adapter->ProtectedSession;
    lost.Status = DXGK_PROTECTED_SESSION_STATUS_INVALID;
    NTSTATUS status = adapter->Dxgkrnl.DxgkCbSetProtectedSessionStatus(&lost);
    if (NT_SUCCESS(status))
        adapter->ProtectedSession = NULL;
    return status;
}

static NTSTATUS APIENTRY PvCreatePeriodicFrameNotification(INOUT_PDXGKARG_CREATEPERIODICFRAMENOTIFICATION pArgs)
{
    UNREFERENCED_PARAMETER(pArgs);
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS APIENTRY PvDestroyPeriodicFrameNotification(IN_CONST_PDXGKARG_DESTROYPERIODICFRAMENOTIFICATION pArgs)
{
    UNREFERENCED_PARAMETER(pArgs);
    return STATUS_NOT_SUPPORTED;
}

/* Timings: the driver programs each path's output colour space, reports
 * its target's last connection state, and says what the change cost: a
 * path added or modified scans out black for a few frames and needs the
 * overlays checked again; an unmodified one is seamless. It tells the OS
 * when connection changes are waiting. */
static NTSTATUS APIENTRY PvSetTimingsFromVidPn(IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_SETTIMINGSFROMVIDPN pSetTimings)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)hAdapter;
    for (UINT i = 0; i < pSetTimings->PathCount; i++) {
        DXGK_SET_TIMING_PATH_INFO *path = &pSetTimings->pSetTimingPathInfo[i];
        if (path->Input.SyncLockStyle != DXGK_SYNC_LOCK_STYLE_NONE)
            return STATUS_NOT_SUPPORTED; /* no sync lock on this adapter */
        BOOLEAN changed = path->Input.VidPnPathUpdates != DXGK_PATH_UPDATE_UNMODIFIED;
        if (path->Input.Active)
            adapter->OutputColorSpace = path->OutputColorSpace;
        path->OutputFlags = 0;
        path->Output.RecheckMPO = changed;
        if (adapter->ChangesQueued > 0)
            path->TargetState = adapter->Changes[(adapter->ChangesQueued - 1) % PV_CHANGES];
        path->DiagnosticInfo = 0;
        path->GlitchCause = changed ? DXGK_GLITCH_CAUSE_TIMING_CHANGE : DXGK_GLITCH_CAUSE_NONE;
        path->GlitchEffect = changed ? DXGK_GLITCH_EFFECT_BLACK_CONTENT : DXGK_GLITCH_EFFECT_SEAMLESS;
        path->GlitchDuration = changed ? DXGK_GLITCH_DURATION_MULTI_FRAME : DXGK_GLITCH_DURATION_NONE;
    }
    pSetTimings->pResultsFlags->Value = 0;
    pSetTimings->pResultsFlags->ConnectionStatusChanges = adapter->ChangesReported != adapter->ChangesQueued;
    return STATUS_SUCCESS;
}

/* The panel's lookup table: 256 entries a channel, or the identity. */
static NTSTATUS APIENTRY PvSetTargetGamma(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_SETTARGETGAMMA pArgs)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)hAdapter;
    if (pArgs->TargetId != 0)
        return STATUS_INVALID_PARAMETER;
    switch (pArgs->GammaRamp.Type) {
    case D3DDDI_GAMMARAMP_DEFAULT:
        for (UINT i = 0; i < 256; i++)
            adapter->GammaLut[0][i] = adapter->GammaLut[1][i] = adapter->GammaLut[2][i] = (USHORT)(i * 257);
        return STATUS_SUCCESS;
    case D3DDDI_GAMMARAMP_RGB256x3x16:
        if (pArgs->GammaRamp.DataSize != sizeof(adapter->GammaLut) || pArgs->GammaRamp.Data.pRaw == NULL)
            return STATUS_INVALID_PARAMETER;
        RtlCopyMemory(adapter->GammaLut, pArgs->GammaRamp.Data.pRaw, sizeof(adapter->GammaLut));
        return STATUS_SUCCESS;
    default:
        return STATUS_NOT_SUPPORTED;
    }
}

static NTSTATUS APIENTRY PvSetTargetContentType(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_SETTARGETCONTENTTYPE pArgs)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)hAdapter;
    if (pArgs->TargetId != 0 || pArgs->ContentType == D3DKMDT_VPPC_UNINITIALIZED)
        return STATUS_INVALID_PARAMETER;
    adapter->Content = pArgs->ContentType;
    return STATUS_SUCCESS;
}

/* The OS's final colorimetry for the panel (WDDM 2.2), kept for HDR. */
static NTSTATUS APIENTRY PvSetTargetAdjustedColorimetry(IN_CONST_HANDLE hAdapter, D3DDDI_VIDEO_PRESENT_TARGET_ID TargetId,
                                                        DXGK_COLORIMETRY AdjustedColorimetry)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)hAdapter;
    if (TargetId != 0 || AdjustedColorimetry.WhitePoint.cx > 1023 || AdjustedColorimetry.WhitePoint.cy > 1023)
        return STATUS_INVALID_PARAMETER;
    adapter->MaxLuminance = AdjustedColorimetry.MaxLuminance;
    adapter->Hdr = AdjustedColorimetry.StandardColorimetryFlags.ST2084 && AdjustedColorimetry.FormatBitDepths.Rgb >= 10;
    return STATUS_SUCCESS;
}

/* The analog output carries the APS trigger only. */
static NTSTATUS APIENTRY PvSetTargetAnalogCopyProtection(IN_CONST_HANDLE hAdapter,
                                                         IN_CONST_PDXGKARG_SETTARGETANALOGCOPYPROTECTION pArgs)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)hAdapter;
    if (pArgs->CopyProtectionSupport.MacroVisionFull ||
        pArgs->CopyProtectionType == D3DKMDT_VPPMT_MACROVISION_FULLSUPPORT)
        return STATUS_NOT_SUPPORTED;
    if (pArgs->APSTriggerBits > 3)
        return STATUS_INVALID_PARAMETER;
    adapter->ApsLevel = pArgs->CopyProtectionType == D3DKMDT_VPPMT_MACROVISION_APSTRIGGER ? pArgs->APSTriggerBits : 0;
    return STATUS_SUCCESS;
}

/* The OS asks for the oldest connection change the driver has queued
 * (its interrupt handler queues them); STATUS_ALREADY_COMPLETE when none
 * is left, as the page says. */
static NTSTATUS APIENTRY PvQueryConnectionChange(IN_CONST_HANDLE hAdapter, IN_PDXGKARG_QUERYCONNECTIONCHANGE pArgs)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)hAdapter;
    if (adapter->ChangesReported == adapter->ChangesQueued)
        return STATUS_ALREADY_COMPLETE;
    pArgs->ConnectionChange = adapter->Changes[adapter->ChangesReported % PV_CHANGES];
    adapter->ChangesReported++;
    return STATUS_SUCCESS;
}

/* What the hot-plug interrupt queues: a monitor on a DisplayPort target. */
static VOID PvQueueMonitorChange(PPV_ADAPTER adapter, D3DDDI_VIDEO_PRESENT_TARGET_ID target, BOOLEAN connected)
{
    DXGK_CONNECTION_CHANGE *change = &adapter->Changes[adapter->ChangesQueued % PV_CHANGES];
    RtlZeroMemory(change, sizeof(*change));
    change->ConnectionChangeId = ++adapter->LastChangeId;
    change->TargetId = target;
    change->ConnectionStatus = connected ? MonitorStatusConnected : MonitorStatusDisconnected;
    change->MonitorConnect.LinkTargetType = D3DKMDT_VOT_DISPLAYPORT_EXTERNAL;
    adapter->ChangesQueued++;
}

static NTSTATUS APIENTRY PvExchangePreStartInfo(IN_CONST_HANDLE hAdapter, IN_OUT_PDXGK_PRE_START_INFO pPreStartInfo)
{
    UNREFERENCED_PARAMETER(hAdapter);
    pPreStartInfo->Output = 0;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY PvGetMultiPlaneOverlayCaps(IN_CONST_HANDLE hAdapter,
                                                    IN_OUT_PDXGKARG_GETMULTIPLANEOVERLAYCAPS pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    if (pArgs->VidPnSourceId != 0)
        return STATUS_INVALID_PARAMETER;
    pArgs->MaxPlanes = PV_OVERLAY_PLANES;
    pArgs->MaxRGBPlanes = PV_OVERLAY_PLANES;
    pArgs->MaxYUVPlanes = 1;
    pArgs->OverlayCaps.Value = 0;
    pArgs->OverlayCaps.StretchRGB = 1;
    pArgs->OverlayCaps.StretchYUV = 1;
    pArgs->OverlayCaps.BilinearFilter = 1;
    pArgs->MaxStretchFactor = 8.0f;
    pArgs->MaxShrinkFactor = 1.0f; /* enlarges only */
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY PvGetPostCompositionCaps(IN_CONST_HANDLE hAdapter, IN_OUT_PDXGKARG_GETPOSTCOMPOSITIONCAPS pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    UNREFERENCED_PARAMETER(pArgs);
    return STATUS_NOT_SUPPORTED;
}

/* The GPU model logs each context state change the OS asks for in the
 * scheduling log: a suspended context goes idle, any other is ready. The
 * free index and the wrap count move as one word, as the GPU would write
 * them, so a reader never sees one without the other. */
static NTSTATUS APIENTRY PvUpdateHwContextState(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_UPDATEHWCONTEXTSTATE pArgs)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)hAdapter;
    DXGK_SCHEDULING_LOG_BUFFER *log = adapter->SchedulingLogCpu;
    if (log == NULL)
        return STATUS_NOT_SUPPORTED;
    DXGK_SCHEDULING_LOG_ENTRY *entry = log->Entries + log->Header.FirstFreeEntryIndex;
    entry->GpuTimeStamp = pArgs->ContextSwitchFence;
    entry->OperationType = DXGK_SCHEDULING_LOG_OPERATION_CONTEXT_STATE_CHANGE;
    entry->ReservedOperationTypeBits = 0;
    entry->ContextStateChange.hKmdContext = pArgs->hHwContext;
    entry->ContextStateChange.newContextState =
        pArgs->Flags.Suspended ? DXGK_SCHEDULING_LOG_CONTEXT_STATE_IDLE : DXGK_SCHEDULING_LOG_CONTEXT_STATE_READY;
    ULARGE_INTEGER next = log->Header.AtomicWraparoundAndEntryIndex;
    if (++next.LowPart == log->Header.NumberOfEntries) {
        next.LowPart = 0;
        next.HighPart++;
    }
    log->Header.AtomicWraparoundAndEntryIndex = next;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY PvCreateProtectedSession(IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_CREATEPROTECTEDSESSION pArgs)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)hAdapter;
    if (pArgs->PrivateDriverDataSize < sizeof(ULONG) || pArgs->pPrivateDriverData == NULL)
        return STATUS_INVALID_PARAMETER;
    *(ULONG *)pArgs->pPrivateDriverData = PV_POOL_TAG; /* the session's key, for the user-mode driver */
    adapter->ProtectedSession = pArgs->hProtectedSession;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY PvDestroyProtectedSession(IN_CONST_HANDLE hAdapter, HANDLE hProtectedSession)
{
    UNREFERENCED_PARAMETER(hAdapter);
    UNREFERENCED_PARAMETER(hProtectedSession);
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS APIENTRY PvSetSchedulingLogBuffer(IN_CONST_HANDLE hAdapter,
                                                  IN_CONST_PDXGKARG_SETSCHEDULINGLOGBUFFER pArgs)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)hAdapter;
    if (pArgs->NodeOrdinal != 0 || pArgs->InterruptEntry >= pArgs->NumberOfEntries)
        return STATUS_INVALID_PARAMETER;
    /* The OS hands over the log empty, its size in the header too. */
    const DXGK_SCHEDULING_LOG_HEADER *header = &pArgs->LogBufferCpuVa->Header;
    if (header->NumberOfEntries != pArgs->NumberOfEntries || header->FirstFreeEntryIndex != 0 ||
        header->WraparoundCount != 0)
        return STATUS_INVALID_PARAMETER;
    adapter->SchedulingLog = pArgs->LogBufferGpuVa;
    adapter->SchedulingLogCpu = pArgs->LogBufferCpuVa;
    return STATUS_SUCCESS;
}

/* Priority bands are hardware scheduling's: the driver sets them up only
 * when the OS lets it enable that feature. */
static NTSTATUS APIENTRY PvSetupPriorityBands(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_SETUPPRIORITYBANDS pArgs)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)hAdapter;
    UNREFERENCED_PARAMETER(pArgs);
    DXGKARGCB_ISFEATUREENABLED feature;
    RtlZeroMemory(&feature, sizeof(feature));
    feature.DeviceHandle = adapter->Dxgkrnl.DeviceHandle;
    feature.FeatureId = DXGK_FEATURE_HWSCH;
    NTSTATUS status = adapter->Dxgkrnl.DxgkCbIsFeatureEnabled(&feature);
    if (!NT_SUCCESS(status))
        return status;
    return feature.Enabled ? STATUS_SUCCESS : STATUS_NOT_SUPPORTED;
}

static NTSTATUS APIENTRY PvNotifyFocusPresent(IN_CONST_HANDLE hAdapter)
{
    UNREFERENCED_PARAMETER(hAdapter);
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY PvSetContextSchedulingProperties(IN_CONST_HANDLE hAdapter,
                                                          IN_CONST_PDXGKARG_SETCONTEXTSCHEDULINGPROPERTIES pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    UNREFERENCED_PARAMETER(pArgs);
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS APIENTRY PvSuspendContext(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_SUSPENDCONTEXT pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    UNREFERENCED_PARAMETER(pArgs);
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS APIENTRY PvResumeContext(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_RESUMECONTEXT pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    UNREFERENCED_PARAMETER(pArgs);
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS APIENTRY PvSetVirtualMachineData(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_SETVIRTUALMACHINEDATA Args)
{
    UNREFERENCED_PARAMETER(hAdapter);
    UNREFERENCED_PARAMETER(Args);
    return STATUS_NOT_SUPPORTED;
}

/* Diagnostics: the panel's self-refresh is reported as the driver
 * switches it (cheap) or as the hardware says it switched (costly, it
 * polls); no progression, so no sync-lock diagnostic. */
static NTSTATUS APIENTRY PvQueryDiagnosticTypesSupport(IN_CONST_PVOID MiniportDeviceContext,
                                                       INOUT_PDXGKARG_QUERYDIAGNOSTICTYPESSUPPORT pArgs)
{
    UNREFERENCED_PARAMETER(MiniportDeviceContext);
    pArgs->NoninvasiveTypes.Value = 0;
    pArgs->InvasiveTypes.Value = 0;
    if (pArgs->DiagnosticCategory.Notifications) {
        pArgs->NoninvasiveTypes.Notifications.PanelSelfRefreshSoftware = 1;
        pArgs->InvasiveTypes.Notifications.PanelSelfRefreshHardware = 1;
    }
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY PvControlDiagnosticReporting(IN_CONST_PVOID MiniportDeviceContext,
                                                      IN_PDXGKARG_CONTROLDIAGNOSTICREPORTING pArgs)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)MiniportDeviceContext;
    if (pArgs->DiagnosticCategory.Progressions)
        return pArgs->RequestedDiagnostics.Progressions.Value == 0 ? STATUS_SUCCESS : STATUS_NOT_SUPPORTED;
    if (!pArgs->DiagnosticCategory.Notifications)
        return STATUS_INVALID_PARAMETER;
    if (pArgs->RequestedDiagnostics.Notifications.Reserved != 0)
        return STATUS_NOT_SUPPORTED;
    adapter->PsrDiagnostics = pArgs->RequestedDiagnostics.Notifications;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY PvResumeHwEngine(IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_RESUMEHWENGINE pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    return pArgs->NodeOrdinal == 0 && pArgs->EngineOrdinal == 0 ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
}

static NTSTATUS APIENTRY PvSignalMonitoredFence(IN_CONST_HANDLE hContext, INOUT_PDXGKARG_SIGNALMONITOREDFENCE pArgs)
{
    UNREFERENCED_PARAMETER(hContext);
    UNREFERENCED_PARAMETER(pArgs);
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS APIENTRY PvPresentToHwQueue(IN_CONST_HANDLE hHwQueue, INOUT_PDXGKARG_PRESENT pPresent)
{
    UNREFERENCED_PARAMETER(hHwQueue);
    UNREFERENCED_PARAMETER(pPresent);
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS APIENTRY PvValidateSubmitCommand(IN_CONST_HANDLE hContext, INOUT_PDXGKARG_VALIDATESUBMITCOMMAND pArgs)
{
    UNREFERENCED_PARAMETER(hContext);
    UNREFERENCED_PARAMETER(pArgs);
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS APIENTRY PvSetTargetAdjustedColorimetry2(IN_CONST_HANDLE hAdapter,
                                                         IN_PDXGKARG_SETTARGETADJUSTEDCOLORIMETRY2 pArgs)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)hAdapter;
    NTSTATUS status = PvSetTargetAdjustedColorimetry(hAdapter, pArgs->TargetId, pArgs->AdjustedColorimetry);
    if (NT_SUCCESS(status))
        adapter->SdrWhiteLevel = pArgs->SdrWhiteLevel != 0 ? pArgs->SdrWhiteLevel : 80; /* 0 means 80 nits */
    return status;
}

/* A device is the adapter; opening a shared allocation looks up the
 * data the driver stored for it through DXGKRNL, as its page shows. */
static NTSTATUS APIENTRY PvCreateDevice(IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_CREATEDEVICE pArgs)
{
    pArgs->hDevice = hAdapter;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY PvOpenAllocation(IN_CONST_HANDLE hDevice, IN_CONST_PDXGKARG_OPENALLOCATION pArgs)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)hDevice;
    for (UINT i = 0; i < pArgs->NumAllocations; i++) {
        DXGKARGCB_GETHANDLEDATA get;
        RtlZeroMemory(&get, sizeof(get));
        get.hObject = pArgs->pOpenAllocation[i].hAllocation;
        get.Type = DXGK_HANDLE_ALLOCATION;
        VOID *data = adapter->Dxgkrnl.DxgkCbGetHandleData(&get);
        if (data == NULL)
            return STATUS_INVALID_HANDLE; /* what the callback's page asks */
        pArgs->pOpenAllocation[i].hDeviceSpecificAllocation = data;
    }
    return STATUS_SUCCESS;
}

/* The driver's escape that counts a shared resource's allocations: it
 * enumerates the resource's children through DXGKRNL until the callback
 * returns no handle, as the callback's page describes the loop. */
typedef struct _PV_ESCAPE_COUNT_CHILDREN {
    D3DKMT_HANDLE hResource;
    UINT Children;
} PV_ESCAPE_COUNT_CHILDREN;

static NTSTATUS APIENTRY PvEscape(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_ESCAPE pEscape)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)hAdapter;
    if (pEscape->PrivateDriverDataSize != sizeof(PV_ESCAPE_COUNT_CHILDREN))
        return STATUS_INVALID_PARAMETER;
    PV_ESCAPE_COUNT_CHILDREN *count = (PV_ESCAPE_COUNT_CHILDREN *)pEscape->pPrivateDriverData;
    DXGKARGCB_ENUMHANDLECHILDREN children;
    RtlZeroMemory(&children, sizeof(children));
    children.hObject = count->hResource;
    while (adapter->Dxgkrnl.DxgkCbEnumHandleChildren(&children) != 0)
        children.Index++;
    if (children.Index == 0)
        return STATUS_INVALID_HANDLE; /* a resource has at least one allocation */
    count->Children = children.Index;
    return STATUS_SUCCESS;
}

/* A hot update saves the command ring through DXGKRNL (WDDM 2.6). */
static NTSTATUS APIENTRY PvSaveMemoryForHotUpdate(IN_CONST_HANDLE hAdapter,
                                                  IN_CONST_PDXGKARG_SAVEMEMORYFORHOTUPDATE pArgs)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)hAdapter;
    if (pArgs->Flags.CancelHotUpdate)
        return STATUS_SUCCESS; /* nothing saved yet: nothing to drop */
    DXGKARGCB_SAVEMEMORYFORHOTUPDATE save;
    RtlZeroMemory(&save, sizeof(save));
    save.pData = adapter->Ring.pMemory;
    save.DataSize = (UINT)adapter->Ring.NumberOfBytes;
    return adapter->Dxgkrnl.DxgkCbSaveMemoryForHotUpdate(adapter->Dxgkrnl.DeviceHandle, &save);
}

/* The new driver takes back what the old one saved: the block's metadata
 * is the pool tag it was saved under. The data pages themselves would be
 * mapped through their MDL; this device saves none. */
static NTSTATUS APIENTRY PvRestoreMemoryForHotUpdate(IN_CONST_HANDLE hAdapter,
                                                     IN_CONST_PDXGKARG_RESTOREMEMORYFORHOTUPDATE pArgs)
{
    PPV_ADAPTER adapter = (PPV_ADAPTER)hAdapter;
    if (pArgs->Flags.RestoreComplete) {
        adapter->HotUpdateRestored = TRUE;
        return STATUS_SUCCESS;
    }
    if (pArgs->pDataMdl != NULL || pArgs->MetaDataSize != sizeof(ULONG) || pArgs->pMetaData == NULL ||
        *(const ULONG *)pArgs->pMetaData != PV_POOL_TAG)
        return STATUS_INVALID_PARAMETER;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY PvCollectDiagnosticInfo(IN_CONST_PVOID MiniportDeviceContext,
                                                 INOUT_PDXGKARG_COLLECTDIAGNOSTICINFO pArgs)
{
    UNREFERENCED_PARAMETER(MiniportDeviceContext);
    UNREFERENCED_PARAMETER(pArgs);
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS APIENTRY PvControlInterrupt3(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_CONTROLINTERRUPT3 pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    UNREFERENCED_PARAMETER(pArgs);
    return STATUS_NOT_SUPPORTED;
}

DRIVER_INITIALIZE DriverEntry;

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    DRIVER_INITIALIZATION_DATA init;
    RtlZeroMemory(&init, sizeof(init));
    init.Version = DXGKDDI_INTERFACE_VERSION_WDDM2_7;
    init.DxgkDdiAddDevice = PvAddDevice;
    init.DxgkDdiStartDevice = PvStartDevice;
    init.DxgkDdiStopDevice = PvStopDevice;
    init.DxgkDdiRemoveDevice = PvRemoveDevice;
    init.DxgkDdiCreateAllocation = PvCreateAllocation;
    init.DxgkDdiQueryEngineStatus = PvQueryEngineStatus;
    init.DxgkDdiCancelCommand = PvCancelCommand;
    init.DxgkDdiGetNodeMetadata = PvGetNodeMetadata;
    init.DxgkDdiSubmitCommandVirtual = PvSubmitCommandVirtual;
    init.DxgkDdiSetRootPageTable = PvSetRootPageTable;
    init.DxgkDdiGetRootPageTableSize = PvGetRootPageTableSize;
    init.DxgkDdiSetVidPnSourceAddress = PvSetVidPnSourceAddress;
    /* WDDM 1.3 */
    init.DxgkDdiControlInterrupt2 = PvControlInterrupt2;
    init.DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay = PvSetVidPnSourceAddressWithMultiPlaneOverlay;
    init.DxgkDdiCheckMultiPlaneOverlaySupport = PvCheckMultiPlaneOverlaySupport;
    init.DxgkDdiCalibrateGpuClock = PvCalibrateGpuClock;
    init.DxgkDdiFormatHistoryBuffer = PvFormatHistoryBuffer;
    /* WDDM 2.0 */
    init.DxgkDdiRenderGdi = PvRenderGdi;
    init.DxgkDdiMapCpuHostAperture = PvMapCpuHostAperture;
    init.DxgkDdiUnmapCpuHostAperture = PvUnmapCpuHostAperture;
    init.DxgkDdiCheckMultiPlaneOverlaySupport2 = PvCheckMultiPlaneOverlaySupport2;
    init.DxgkDdiCreateProcess = PvCreateProcess;
    init.DxgkDdiDestroyProcess = PvDestroyProcess;
    init.DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay2 = PvSetVidPnSourceAddressWithMultiPlaneOverlay2;
    init.DxgkDdiPowerRuntimeSetDeviceHandle = PvPowerRuntimeSetDeviceHandle;
    init.DxgkDdiSetStablePowerState = PvSetStablePowerState;
    init.DxgkDdiSetVideoProtectedRegion = PvSetVideoProtectedRegion;
    /* WDDM 2.1 */
    init.DxgkDdiCheckMultiPlaneOverlaySupport3 = PvCheckMultiPlaneOverlaySupport3;
    init.DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay3 = PvSetVidPnSourceAddressWithMultiPlaneOverlay3;
    init.DxgkDdiPostMultiPlaneOverlayPresent = PvPostMultiPlaneOverlayPresent;
    init.DxgkDdiValidateUpdateAllocationProperty = PvValidateUpdateAllocationProperty;
    init.DxgkDdiControlModeBehavior = PvControlModeBehavior;
    init.DxgkDdiUpdateMonitorLinkInfo = PvUpdateMonitorLinkInfo;
    /* WDDM 2.2 */
    init.DxgkDdiCreateHwContext = PvCreateHwContext;
    init.DxgkDdiDestroyHwContext = PvDestroyHwContext;
    init.DxgkDdiCreateHwQueue = PvCreateHwQueue;
    init.DxgkDdiDestroyHwQueue = PvDestroyHwQueue;
    init.DxgkDdiSubmitCommandToHwQueue = PvSubmitCommandToHwQueue;
    init.DxgkDdiSwitchToHwContextList = PvSwitchToHwContextList;
    init.DxgkDdiResetHwEngine = PvResetHwEngine;
    init.DxgkDdiCreatePeriodicFrameNotification = PvCreatePeriodicFrameNotification;
    init.DxgkDdiDestroyPeriodicFrameNotification = PvDestroyPeriodicFrameNotification;
    init.DxgkDdiSetTimingsFromVidPn = PvSetTimingsFromVidPn;
    init.DxgkDdiSetTargetGamma = PvSetTargetGamma;
    init.DxgkDdiSetTargetContentType = PvSetTargetContentType;
    init.DxgkDdiSetTargetAnalogCopyProtection = PvSetTargetAnalogCopyProtection;
    init.DxgkDdiSetTargetAdjustedColorimetry = PvSetTargetAdjustedColorimetry;
    init.DxgkDdiDisplayDetectControl = PvDisplayDetectControl;
    init.DxgkDdiQueryConnectionChange = PvQueryConnectionChange;
    init.DxgkDdiExchangePreStartInfo = PvExchangePreStartInfo;
    init.DxgkDdiGetMultiPlaneOverlayCaps = PvGetMultiPlaneOverlayCaps;
    init.DxgkDdiGetPostCompositionCaps = PvGetPostCompositionCaps;
    /* WDDM 2.3 */
    init.DxgkDdiUpdateHwContextState = PvUpdateHwContextState;
    init.DxgkDdiCreateProtectedSession = PvCreateProtectedSession;
    init.DxgkDdiDestroyProtectedSession = PvDestroyProtectedSession;
    /* WDDM 2.4 */
    init.DxgkDdiSetSchedulingLogBuffer = PvSetSchedulingLogBuffer;
    init.DxgkDdiSetupPriorityBands = PvSetupPriorityBands;
    init.DxgkDdiNotifyFocusPresent = PvNotifyFocusPresent;
    init.DxgkDdiSetContextSchedulingProperties = PvSetContextSchedulingProperties;
    init.DxgkDdiSuspendContext = PvSuspendContext;
    init.DxgkDdiResumeContext = PvResumeContext;
    init.DxgkDdiSetVirtualMachineData = PvSetVirtualMachineData;
    init.DxgkDdiBeginExclusiveAccess = PvBeginExclusiveAccess;
    init.DxgkDdiEndExclusiveAccess = PvEndExclusiveAccess;
    init.DxgkDdiQueryDiagnosticTypesSupport = PvQueryDiagnosticTypesSupport;
    init.DxgkDdiControlDiagnosticReporting = PvControlDiagnosticReporting;
    init.DxgkDdiResumeHwEngine = PvResumeHwEngine;
    /* WDDM 2.5 */
    init.DxgkDdiSignalMonitoredFence = PvSignalMonitoredFence;
    init.DxgkDdiPresentToHwQueue = PvPresentToHwQueue;
    init.DxgkDdiValidateSubmitCommand = PvValidateSubmitCommand;
    init.DxgkDdiSetTargetAdjustedColorimetry2 = PvSetTargetAdjustedColorimetry2;
    init.DxgkDdiSetTrackedWorkloadPowerLevel = PvSetTrackedWorkloadPowerLevel;
    /* WDDM 2.6 */
    init.DxgkDdiSaveMemoryForHotUpdate = PvSaveMemoryForHotUpdate;
    init.DxgkDdiCreateDevice = PvCreateDevice;
    init.DxgkDdiOpenAllocation = PvOpenAllocation;
    init.DxgkDdiEscape = PvEscape;
    init.DxgkDdiRestoreMemoryForHotUpdate = PvRestoreMemoryForHotUpdate;
    init.DxgkDdiCollectDiagnosticInfo = PvCollectDiagnosticInfo;
    /* WDDM 2.7 */
    init.DxgkDdiControlInterrupt3 = PvControlInterrupt3;
    DbgPrintEx(DPFLTR_IHVVIDEO_ID, DPFLTR_INFO_LEVEL, "%wZ: DriverEntry\n", &g_pvServiceName);
    return DxgkInitialize(DriverObject, RegistryPath, &init);
}

/* ---- The test's side: pbcheck's kernel services run the driver ---- */
#include <stdio.h>
#include <string.h>

#include "kernel/services.h"

static int failures;
#define CHECK(c) ((c) ? (void)0 : (void)(failures++, printf("check failed: line %d: %s\n", __LINE__, #c)))

static DRIVER_INITIALIZATION_DATA g_table;
static char g_pdo; /* a stand-in for the physical device object, never looked inside */

/* The two callbacks this test serves itself, as a glue would: the rest of
 * the table is pbcheck's traps. */
static char g_ring[4 * PAGE_SIZE];
static int g_ring_freed;

static NTSTATUS APIENTRY TestAllocateContiguousMemory(IN_CONST_HANDLE hAdapter,
                                                      INOUT_PDXGKARGCB_ALLOCATECONTIGUOUSMEMORY pArgs)
{
    if (hAdapter != (HANDLE)&g_pdo || pArgs->NumberOfBytes > sizeof(g_ring) ||
        pArgs->CacheType != DXGK_MEMORY_CACHING_TYPE_WRITE_COMBINED)
        return STATUS_INVALID_PARAMETER;
    pArgs->pMemory = g_ring;
    pArgs->hMemoryHandle = (HANDLE)g_ring;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY TestFreeContiguousMemory(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARGCB_FREECONTIGUOUSMEMORY pArgs)
{
    (void)hAdapter;
    g_ring_freed += pArgs->hMemoryHandle == (HANDLE)g_ring;
    return STATUS_SUCCESS;
}

/* Every pointer slot of DRIVER_INITIALIZATION_DATA from first to last
 * (inclusive) is set, but for the reserved ones. */
static int UnsetSlots(size_t first, size_t last)
{
    static const size_t skipped[] = {
        offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetPowerPState),
        offsetof(DRIVER_INITIALIZATION_DATA, Reserved1),
        offsetof(DRIVER_INITIALIZATION_DATA, Reserved2),
    };
    int unset = 0;
    for (size_t off = first; off <= last; off += sizeof(PVOID)) {
        int skip = 0;
        for (size_t i = 0; i < RTL_NUMBER_OF(skipped); i++)
            skip |= off == skipped[i];
        PVOID slot;
        memcpy(&slot, (const char *)&g_table + off, sizeof(slot));
        if (!skip && slot == NULL) {
            printf("DRIVER_INITIALIZATION_DATA slot at %zu is not set\n", off);
            unset++;
        }
    }
    return unset;
}

NTSTATUS DxgkInitialize(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath,
                        PDRIVER_INITIALIZATION_DATA Data)
{
    (void)DriverObject;
    (void)RegistryPath;
    g_table = *Data;
    return STATUS_SUCCESS;
}

/* The test's DxgkCbGetHandleData: allocation handles below 16 have data. */
static int g_handle_data[16];
static DXGKCB_GETHANDLEDATA TestGetHandleData;
static PVOID APIENTRY TestGetHandleData(IN_CONST_PDXGKARGCB_GETHANDLEDATA pData)
{
    if (pData->Type != DXGK_HANDLE_ALLOCATION || pData->Flags.DeviceSpecific || pData->hObject >= 16)
        return NULL;
    return &g_handle_data[pData->hObject];
}

/* The test's DxgkCbEnumHandleChildren: resource 9 has three allocations,
 * handles 20 to 22. */
static DXGKCB_ENUMHANDLECHILDREN TestEnumHandleChildren;
static D3DKMT_HANDLE APIENTRY TestEnumHandleChildren(IN_CONST_PDXGKARGCB_ENUMHANDLECHILDREN pData)
{
    if (pData->hObject != 9 || pData->Index >= 3)
        return 0;
    return 20 + pData->Index;
}

/* The test's DxgkCbSetProtectedSessionStatus: it keeps what it was told. */
static DXGKARGCB_PROTECTEDSESSIONSTATUS g_session_status;
static DXGKCB_SETPROTECTEDSESSIONSTATUS TestSetProtectedSessionStatus;
static NTSTATUS APIENTRY TestSetProtectedSessionStatus(IN_CONST_PDXGKARGCB_PROTECTEDSESSIONSTATUS pArgs)
{
    g_session_status = *pArgs;
    return STATUS_SUCCESS;
}

/* The test's DxgkCbIsFeatureEnabled: hardware scheduling is enabled for
 * the adapter's device handle only. */
static DXGKCB_ISFEATUREENABLED TestIsFeatureEnabled;
static NTSTATUS APIENTRY TestIsFeatureEnabled(INOUT_PDXGKARGCB_ISFEATUREENABLED pArgs)
{
    pArgs->Enabled = pArgs->FeatureId == DXGK_FEATURE_HWSCH && pArgs->DeviceHandle == (HANDLE)0x5A;
    return STATUS_SUCCESS;
}

/* A scheduling log of three entries, as the OS allocates it: the header,
 * then the entries, the first of them inside the structure. */
static union {
    DXGK_SCHEDULING_LOG_BUFFER Log;
    UCHAR Bytes[sizeof(DXGK_SCHEDULING_LOG_HEADER) + 3 * sizeof(DXGK_SCHEDULING_LOG_ENTRY)];
} g_scheduling_log;

int main(void)
{
    char first[256];
    pbc_kernel_reset();
    CHECK(DriverEntry(NULL, NULL) == STATUS_SUCCESS);
    CHECK(g_table.Version == DXGKDDI_INTERFACE_VERSION_WDDM2_7 && g_table.DxgkDdiSubmitCommandVirtual != NULL);
    CHECK(UnsetSlots(offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiGetNodeMetadata),
                     offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiControlInterrupt3)) == 0);
    CHECK(strstr(pbc_kernel_log(NULL), "pvgpu: DriverEntry") != NULL);

    PVOID context = NULL;
    DXGKRNL_INTERFACE krnl;
    DXGK_START_INFO start;
    pbc_wdk_dxgkrnl_interface((HANDLE)&g_pdo, &krnl, sizeof(krnl));
    /* pbcheck's table: every callback through WDDM 2.7 is there. */
    CHECK(krnl.Size == sizeof(krnl) && krnl.Version == DXGKDDI_INTERFACE_VERSION_WDDM2_7 &&
          krnl.DeviceHandle == (HANDLE)&g_pdo);
    for (size_t off = offsetof(DXGKRNL_INTERFACE, DxgkCbEvalAcpiMethod); off < sizeof(krnl); off += sizeof(PVOID)) {
        PVOID slot;
        memcpy(&slot, (const char *)&krnl + off, sizeof(slot));
        CHECK(slot != NULL);
    }
    krnl.DxgkCbAllocateContiguousMemory = TestAllocateContiguousMemory;
    krnl.DxgkCbFreeContiguousMemory = TestFreeContiguousMemory;
    RtlZeroMemory(&start, sizeof(start));
    ULONG sources = 0, children = 0;
    pbc_kernel_enter();
    CHECK(g_table.DxgkDdiAddDevice((PDEVICE_OBJECT)(void *)&g_pdo, &context) == STATUS_SUCCESS);
    CHECK(g_table.DxgkDdiStartDevice(context, &start, &krnl, &sources, &children) == STATUS_SUCCESS);
    PPV_ADAPTER adapter = (PPV_ADAPTER)context;
    CHECK(adapter->Ring.pMemory == g_ring);
    /* The two notifications pbcheck does not serve failed, and are reported
     * by name. */
    CHECK(pbc_kernel_take_unserved(first, sizeof(first)) == 2);
    CHECK(strstr(first, "DxgkCbIndicateConnectorChange called") != NULL);
    static const WCHAR expected_id[] = L"PBCHECK\\MODEL_GPU";
    CHECK(memcmp(adapter->HardwareId, expected_id, sizeof(expected_id)) == 0 && adapter->BusNumber == 0);

    DXGKARG_SUBMITCOMMANDVIRTUAL submit;
    RtlZeroMemory(&submit, sizeof(submit));
    submit.SubmissionFenceId = 42;
    CHECK(g_table.DxgkDdiSubmitCommandVirtual(context, &submit) == STATUS_SUCCESS);
    LARGE_INTEGER second;
    second.QuadPart = -10000000ll;
    CHECK(KeWaitForSingleObject(&adapter->DoneEvent, Executive, KernelMode, FALSE, &second) == STATUS_SUCCESS);
    CHECK(adapter->Completed == 42 && adapter->DpcIrql == DISPATCH_LEVEL);

    DXGKARG_GETNODEMETADATA node;
    CHECK(g_table.DxgkDdiGetNodeMetadata(context, 0, &node) == STATUS_SUCCESS && node.FriendlyName[0] == L'3');
    DXGK_ALLOCATIONINFO info;
    DXGKARG_CREATEALLOCATION create;
    RtlZeroMemory(&info, sizeof(info));
    RtlZeroMemory(&create, sizeof(create));
    create.NumAllocations = 1;
    create.pAllocationInfo = &info;
    CHECK(g_table.DxgkDdiCreateAllocation(context, &create) == STATUS_SUCCESS &&
          info.AllocationPriority == 0xa0000000u);

    /* The WDDM 2.x arguments the driver looks inside. */
    DXGKARG_CREATEHWQUEUE queue;
    RtlZeroMemory(&queue, sizeof(queue));
    queue.Flags.DisableGpuTimeout = 1;
    queue.HwQueueProgressFenceGPUVirtualAddress = 0x7000;
    CHECK(g_table.DxgkDdiCreateHwQueue(context, &queue) == STATUS_SUCCESS && queue.hHwQueue == (HANDLE)1 &&
          adapter->ProgressFence == 0x7000);
    queue.Flags.UserModeSubmission = 1;
    CHECK(g_table.DxgkDdiCreateHwQueue(context, &queue) == STATUS_INVALID_PARAMETER);
    DXGKARG_DISPLAYDETECTCONTROL detect;
    RtlZeroMemory(&detect, sizeof(detect));
    detect.Type = DXGK_DDCT_ENABLEHPD;
    CHECK(g_table.DxgkDdiDisplayDetectControl(context, &detect) == STATUS_SUCCESS && adapter->HotPlugDetection);
    detect.Type = DXGK_DDCT_POLLONE;
    detect.TargetId = 3;
    CHECK(g_table.DxgkDdiDisplayDetectControl(context, &detect) == STATUS_INVALID_PARAMETER);
    DXGKARG_SETTRACKEDWORKLOADPOWERLEVEL power;
    RtlZeroMemory(&power, sizeof(power));
    power.PowerLevel = 95;
    CHECK(g_table.DxgkDdiSetTrackedWorkloadPowerLevel(context, &power) == STATUS_SUCCESS &&
          power.EffectivePowerLevel == 80 && power.Flags.Value == 1);
    DXGKARG_BEGINEXCLUSIVEACCESS begin = {0};
    DXGKARG_ENDEXCLUSIVEACCESS end = {0};
    CHECK(g_table.DxgkDdiBeginExclusiveAccess(context, &begin) == STATUS_SUCCESS &&
          g_table.DxgkDdiEndExclusiveAccess(context, &end) == STATUS_SUCCESS);
    ULONG key = 0;
    DXGKARG_CREATEPROTECTEDSESSION session = {(HANDLE)9, &key, sizeof(key)};
    CHECK(g_table.DxgkDdiCreateProtectedSession(context, &session) == STATUS_SUCCESS && key == PV_POOL_TAG &&
          adapter->ProtectedSession == (HANDLE)9);
    /* A reset loses the session: the driver's report goes to the trap,
     * which fails it, then to a double of the callback's type. */
    DXGKARG_RESETHWENGINE reset = {0, 0};
    CHECK(g_table.DxgkDdiResetHwEngine(context, &reset) == STATUS_NOT_SUPPORTED &&
          adapter->ProtectedSession == (HANDLE)9);
    CHECK(pbc_kernel_take_unserved(first, sizeof(first)) == 1 &&
          strstr(first, "DxgkCbSetProtectedSessionStatus called") != NULL);
    adapter->Dxgkrnl.DxgkCbSetProtectedSessionStatus = TestSetProtectedSessionStatus;
    CHECK(g_table.DxgkDdiResetHwEngine(context, &reset) == STATUS_SUCCESS && adapter->ProtectedSession == NULL &&
          g_session_status.hProtectedSession == (HANDLE)9 &&
          g_session_status.Status == DXGK_PROTECTED_SESSION_STATUS_INVALID);
    CHECK(DXGK_PROTECTED_SESSION_STATUS_OK == 0 && DXGK_PROTECTED_SESSION_STATUS_INVALID == 1);
    /* Priority bands ask whether hardware scheduling is enabled: the trap
     * fails the question, a double answers it for the adapter's handle. */
    DXGKARG_SETUPPRIORITYBANDS bands;
    RtlZeroMemory(&bands, sizeof(bands));
    CHECK(g_table.DxgkDdiSetupPriorityBands(context, &bands) == STATUS_NOT_SUPPORTED);
    CHECK(pbc_kernel_take_unserved(first, sizeof(first)) == 1 &&
          strstr(first, "DxgkCbIsFeatureEnabled called") != NULL);
    adapter->Dxgkrnl.DxgkCbIsFeatureEnabled = TestIsFeatureEnabled;
    HANDLE deviceHandle = adapter->Dxgkrnl.DeviceHandle;
    adapter->Dxgkrnl.DeviceHandle = (HANDLE)0x5A;
    CHECK(g_table.DxgkDdiSetupPriorityBands(context, &bands) == STATUS_SUCCESS && DXGK_FEATURE_HWSCH == 0);
    adapter->Dxgkrnl.DeviceHandle = deviceHandle;
    CHECK(g_table.DxgkDdiSetupPriorityBands(context, &bands) == STATUS_NOT_SUPPORTED);
    /* Invalidating a hung context and taking the display over are the
     * trap's: the callbacks fail and leave the flags the OS would fill. */
    DXGKARGCB_INVALIDATEHWCONTEXT invalidate;
    RtlZeroMemory(&invalidate, sizeof(invalidate));
    invalidate.hAdapter = context;
    invalidate.hHwContext = (HANDLE)0x41;
    invalidate.Flags.CollateralDamage = 1;
    CHECK(invalidate.Flags.Value == 1 &&
          adapter->Dxgkrnl.DxgkCbInvalidateHwContext(&invalidate) == STATUS_NOT_SUPPORTED);
    CHECK(pbc_kernel_take_unserved(first, sizeof(first)) == 1 &&
          strstr(first, "DxgkCbInvalidateHwContext called") != NULL);
    DXGK_DISPLAY_OWNERSHIP_FLAGS ownership;
    ownership.Value = 0;
    ownership.FrameBufferState = FrameBufferStateInitializedByDriver;
    CHECK(ownership.Value == 2 && FrameBufferStateInitializedByFirmware == 1);
    /* A diagnostic report: the header's size shares a UINT with its
     * reserved half, then come the sequence number and the target. */
    DXGK_DIAGNOSTIC_HEADER diagnostic;
    RtlZeroMemory(&diagnostic, sizeof(diagnostic));
    diagnostic.Category.Notifications = 1;
    diagnostic.Type.Notifications.PanelSelfRefreshHardware = 1;
    diagnostic.Value = 0xFFFFFFFF;
    CHECK(diagnostic.Size == 0xFFFF && diagnostic.Reserved == 0xFFFF);
    diagnostic.Value = 0;
    diagnostic.Size = sizeof(diagnostic);
    diagnostic.SequenceNumber = 7;
    diagnostic.TargetId = 0x10203;
    UINT diagnosticWords[5];
    memcpy(diagnosticWords, &diagnostic, sizeof(diagnosticWords));
    CHECK(diagnosticWords[0] == 1 && diagnosticWords[1] == 2 && diagnosticWords[2] == 20 && diagnosticWords[3] == 7 &&
          diagnosticWords[4] == 0x10203 && diagnostic.Id == 0x10203);
    CHECK(adapter->Dxgkrnl.DxgkCbReportDiagnostic(adapter->Dxgkrnl.DeviceHandle, &diagnostic) == STATUS_NOT_SUPPORTED);
    CHECK(pbc_kernel_take_unserved(first, sizeof(first)) == 1 &&
          strstr(first, "DxgkCbReportDiagnostic called") != NULL);
    /* Freeing pages by their tracking handle is the trap's too. */
    DXGKARGCB_FREEPAGESFROMMDL freePages = {(HANDLE)0x77};
    CHECK(adapter->Dxgkrnl.DxgkCbFreePagesFromMdl(context, &freePages) == STATUS_NOT_SUPPORTED);
    CHECK(pbc_kernel_take_unserved(first, sizeof(first)) == 1 &&
          strstr(first, "DxgkCbFreePagesFromMdl called") != NULL);
    /* The scheduling log: refused while its header disagrees with the
     * arguments, then the GPU model fills it, wraps and overwrites. */
    DXGKARG_SETSCHEDULINGLOGBUFFER log = {0, 0, 3, &g_scheduling_log.Log, 0x9000, 2};
    CHECK(g_table.DxgkDdiSetSchedulingLogBuffer(context, &log) == STATUS_INVALID_PARAMETER);
    g_scheduling_log.Log.Header.NumberOfEntries = 3;
    CHECK(g_table.DxgkDdiSetSchedulingLogBuffer(context, &log) == STATUS_SUCCESS && adapter->SchedulingLog == 0x9000);
    log.InterruptEntry = 3;
    CHECK(g_table.DxgkDdiSetSchedulingLogBuffer(context, &log) == STATUS_INVALID_PARAMETER);
    DXGKARG_UPDATEHWCONTEXTSTATE hwState;
    RtlZeroMemory(&hwState, sizeof(hwState));
    for (UINT i = 0; i < 4; i++) {
        hwState.hHwContext = (HANDLE)(ULONG_PTR)(0x40 + i);
        hwState.ContextSwitchFence = 1000 + i;
        hwState.Flags.Suspended = i == 1;
        CHECK(g_table.DxgkDdiUpdateHwContextState(context, &hwState) == STATUS_SUCCESS);
    }
    const DXGK_SCHEDULING_LOG_BUFFER *written = &g_scheduling_log.Log;
    CHECK(written->Header.FirstFreeEntryIndex == 1 && written->Header.WraparoundCount == 1 &&
          written->Header.AtomicWraparoundAndEntryIndex.QuadPart == (1ull << 32 | 1));
    const DXGK_SCHEDULING_LOG_ENTRY *idled = written->Entries + 1;
    CHECK(written->Entries[0].GpuTimeStamp == 1003 && idled->GpuTimeStamp == 1001 &&
          idled->OperationType == DXGK_SCHEDULING_LOG_OPERATION_CONTEXT_STATE_CHANGE &&
          idled->ContextStateChange.hKmdContext == (HANDLE)0x41 &&
          idled->ContextStateChange.newContextState == DXGK_SCHEDULING_LOG_CONTEXT_STATE_IDLE);
    CHECK((written->Entries + 2)->ContextStateChange.newContextState == DXGK_SCHEDULING_LOG_CONTEXT_STATE_READY &&
          DXGK_SCHEDULING_LOG_CONTEXT_STATE_READY_STANDBY == 3);
    /* In the bytes: the third entry's new state sits 24 bytes into it,
     * after the timestamp, the operation word and the context handle. */
    UINT state;
    memcpy(&state, g_scheduling_log.Bytes + 32 + 2 * 32 + 24, sizeof(state));
    CHECK(state == DXGK_SCHEDULING_LOG_CONTEXT_STATE_READY && g_scheduling_log.Bytes[32 + 32 + 8] == 0);
    DXGKARG_RESUMEHWENGINE resume = {0, 1};
    CHECK(g_table.DxgkDdiResumeHwEngine(context, &resume) == STATUS_INVALID_PARAMETER);
    /* Saving for a hot update needs a callback pbcheck does not serve. */
    DXGKARG_SAVEMEMORYFORHOTUPDATE hotSave;
    hotSave.Flags.Value = 0;
    CHECK(g_table.DxgkDdiSaveMemoryForHotUpdate(context, &hotSave) == STATUS_NOT_SUPPORTED);
    CHECK(pbc_kernel_take_unserved(first, sizeof(first)) == 1 &&
          strstr(first, "DxgkCbSaveMemoryForHotUpdate called") != NULL);
    hotSave.Flags.CancelHotUpdate = 1;
    CHECK(g_table.DxgkDdiSaveMemoryForHotUpdate(context, &hotSave) == STATUS_SUCCESS);
    ULONG savedTag = PV_POOL_TAG;
    DXGKARG_RESTOREMEMORYFORHOTUPDATE hotRestore;
    RtlZeroMemory(&hotRestore, sizeof(hotRestore));
    hotRestore.MetaDataSize = sizeof(savedTag);
    hotRestore.pMetaData = &savedTag;
    CHECK(g_table.DxgkDdiRestoreMemoryForHotUpdate(context, &hotRestore) == STATUS_SUCCESS &&
          !adapter->HotUpdateRestored);
    hotRestore.MetaDataSize = 2;
    CHECK(g_table.DxgkDdiRestoreMemoryForHotUpdate(context, &hotRestore) == STATUS_INVALID_PARAMETER);
    RtlZeroMemory(&hotRestore, sizeof(hotRestore));
    hotRestore.Flags.RestoreComplete = 1;
    CHECK(g_table.DxgkDdiRestoreMemoryForHotUpdate(context, &hotRestore) == STATUS_SUCCESS &&
          adapter->HotUpdateRestored);
    /* So does looking up an allocation's data: the open fails as its page
     * says, and pbcheck names the callback. */
    DXGKARG_CREATEDEVICE device;
    RtlZeroMemory(&device, sizeof(device));
    CHECK(g_table.DxgkDdiCreateDevice(context, &device) == STATUS_SUCCESS && device.hDevice == context);
    DXGK_OPENALLOCATIONINFO shared = {7, NULL, 0, NULL};
    DXGKARG_OPENALLOCATION open;
    RtlZeroMemory(&open, sizeof(open));
    open.NumAllocations = 1;
    open.pOpenAllocation = &shared;
    CHECK(g_table.DxgkDdiOpenAllocation(device.hDevice, &open) == STATUS_INVALID_HANDLE);
    CHECK(pbc_kernel_take_unserved(first, sizeof(first)) == 1 && strstr(first, "DxgkCbGetHandleData called") != NULL);
    /* Served by a double declared with the callback's type, as its page
     * declares it: the driver gets the data back. */
    adapter->Dxgkrnl.DxgkCbGetHandleData = TestGetHandleData;
    CHECK(g_table.DxgkDdiOpenAllocation(device.hDevice, &open) == STATUS_SUCCESS &&
          shared.hDeviceSpecificAllocation == &g_handle_data[7]);
    /* Connection changes come back oldest first, with every member the
     * driver set, then the queue is empty. */
    PvQueueMonitorChange(adapter, 0x10203, TRUE);
    PvQueueMonitorChange(adapter, 0x10203, FALSE);
    /* Setting timings on two paths: the modified one glitches and asks for
     * an overlay check, the unmodified one is seamless; both report the
     * target's last state, and the waiting changes are flagged. */
    DXGK_SET_TIMING_PATH_INFO paths[2];
    RtlZeroMemory(paths, sizeof(paths));
    paths[0].VidPnTargetId = 0x10203;
    paths[0].OutputColorSpace = D3DDDI_COLOR_SPACE_RGB_FULL_G2084_NONE_P2020;
    paths[0].Input.VidPnPathUpdates = DXGK_PATH_UPDATE_MODIFIED;
    paths[0].Input.Active = 1;
    paths[1].VidPnTargetId = 7;
    paths[1].Input.VidPnPathUpdates = DXGK_PATH_UPDATE_UNMODIFIED;
    paths[1].DiagnosticInfo = 0xFFFFFFFF;
    DXGK_SET_TIMING_RESULTS results;
    DXGKARG_SETTIMINGSFROMVIDPN timings;
    RtlZeroMemory(&timings, sizeof(timings));
    timings.pResultsFlags = &results;
    timings.PathCount = 2;
    timings.pSetTimingPathInfo = paths;
    CHECK(g_table.DxgkDdiSetTimingsFromVidPn(context, &timings) == STATUS_SUCCESS &&
          results.ConnectionStatusChanges && adapter->OutputColorSpace == D3DDDI_COLOR_SPACE_RGB_FULL_G2084_NONE_P2020);
    CHECK(paths[0].Output.RecheckMPO && paths[0].OutputFlags == 1 && paths[0].TargetState.ConnectionChangeId == 2 &&
          paths[0].TargetState.ConnectionStatus == MonitorStatusDisconnected &&
          paths[0].GlitchCause == DXGK_GLITCH_CAUSE_TIMING_CHANGE &&
          paths[0].GlitchEffect == DXGK_GLITCH_EFFECT_BLACK_CONTENT &&
          paths[0].GlitchDuration == DXGK_GLITCH_DURATION_MULTI_FRAME);
    /* The diagnosis is the UINT's bytes in order, the last one reserved. */
    CHECK(paths[0].DiagnosticInfo == (1u | (3u << 8) | (1u << 16)));
    CHECK(!paths[1].Output.RecheckMPO && paths[1].DiagnosticInfo == (7u | (5u << 8) | (5u << 16)));
    paths[1].Input.SyncLockGroup = 1;
    paths[1].Input.SyncLockStyle = DXGK_SYNC_LOCK_STYLE_IDENTICAL;
    CHECK(paths[1].InputFlags == (1u << 5 | 1u << 8));
    CHECK(g_table.DxgkDdiSetTimingsFromVidPn(context, &timings) == STATUS_NOT_SUPPORTED);
    DXGKARG_QUERYCONNECTIONCHANGE connection;
    RtlZeroMemory(&connection, sizeof(connection));
    CHECK(g_table.DxgkDdiQueryConnectionChange(context, &connection) == STATUS_SUCCESS &&
          connection.ConnectionChange.ConnectionChangeId == 1 && connection.ConnectionChange.TargetId == 0x10203 &&
          connection.ConnectionChange.ConnectionStatus == MonitorStatusConnected &&
          connection.ConnectionChange.Reserved == 0 &&
          connection.ConnectionChange.MonitorConnect.LinkTargetType == D3DKMDT_VOT_DISPLAYPORT_EXTERNAL);
    CHECK(g_table.DxgkDdiQueryConnectionChange(context, &connection) == STATUS_SUCCESS &&
          connection.ConnectionChange.ConnectionChangeId == 2 &&
          connection.ConnectionChange.ConnectionStatus == MonitorStatusDisconnected);
    CHECK(g_table.DxgkDdiQueryConnectionChange(context, &connection) == STATUS_ALREADY_COMPLETE);
    CHECK(STATUS_ALREADY_COMPLETE == 0xFF && NT_SUCCESS(STATUS_ALREADY_COMPLETE));
    /* The bit-fields share the UINT after the id: target in the low 24
     * bits, then the status (MonitorStatusDisconnected, 4). */
    UINT packed;
    memcpy(&packed, (const UCHAR *)&connection.ConnectionChange + 8, sizeof(packed));
    CHECK(packed == (0x10203u | (4u << 24)));
    /* Diagnostics: the driver reports which panel self-refresh types it
     * supports, cheaply and at a cost, and keeps exactly those requested. */
    DXGKARG_QUERYDIAGNOSTICTYPESSUPPORT diag;
    RtlZeroMemory(&diag, sizeof(diag));
    diag.DiagnosticCategory.Notifications = 1;
    diag.InvasiveTypes.Value = 0xFFFFFFFF; /* an out member: the driver writes it */
    CHECK(g_table.DxgkDdiQueryDiagnosticTypesSupport(context, &diag) == STATUS_SUCCESS &&
          diag.NoninvasiveTypes.Value == 1 && diag.InvasiveTypes.Value == 2 &&
          diag.InvasiveTypes.Notifications.PanelSelfRefreshHardware);
    diag.DiagnosticCategory.Value = 0;
    diag.DiagnosticCategory.Progressions = 1;
    CHECK(g_table.DxgkDdiQueryDiagnosticTypesSupport(context, &diag) == STATUS_SUCCESS &&
          diag.NoninvasiveTypes.Progressions.SyncLockEnableSync == 0 && diag.InvasiveTypes.Value == 0);
    DXGKARG_CONTROLDIAGNOSTICREPORTING report;
    RtlZeroMemory(&report, sizeof(report));
    report.DiagnosticCategory.Notifications = 1;
    report.RequestedDiagnostics.Notifications.PanelSelfRefreshHardware = 1;
    CHECK(g_table.DxgkDdiControlDiagnosticReporting(context, &report) == STATUS_SUCCESS &&
          adapter->PsrDiagnostics.Value == 2);
    report.RequestedDiagnostics.Value = 0; /* the OS turns reporting off */
    CHECK(g_table.DxgkDdiControlDiagnosticReporting(context, &report) == STATUS_SUCCESS &&
          adapter->PsrDiagnostics.Value == 0);
    report.DiagnosticCategory.Value = 2;
    report.RequestedDiagnostics.Progressions.SyncLockEnableSync = 1;
    CHECK(g_table.DxgkDdiControlDiagnosticReporting(context, &report) == STATUS_NOT_SUPPORTED);
    /* Enumerating a resource's allocations is left to the trap too: the
     * escape fails and pbcheck names the callback. */
    PV_ESCAPE_COUNT_CHILDREN count = {9, 0};
    DXGKARG_ESCAPE escape;
    RtlZeroMemory(&escape, sizeof(escape));
    escape.hDevice = device.hDevice;
    escape.pPrivateDriverData = &count;
    escape.PrivateDriverDataSize = sizeof(count);
    CHECK(g_table.DxgkDdiEscape(context, &escape) == STATUS_INVALID_HANDLE);
    CHECK(pbc_kernel_take_unserved(first, sizeof(first)) == 1 &&
          strstr(first, "DxgkCbEnumHandleChildren called") != NULL);
    /* Served by a double of the callback's type, the loop stops at the
     * index past the last child. */
    adapter->Dxgkrnl.DxgkCbEnumHandleChildren = TestEnumHandleChildren;
    CHECK(g_table.DxgkDdiEscape(context, &escape) == STATUS_SUCCESS && count.Children == 3);
    DXGK_COLORIMETRY colorimetry;
    RtlZeroMemory(&colorimetry, sizeof(colorimetry));
    colorimetry.WhitePoint.cx = 320;
    colorimetry.WhitePoint.cy = 337;
    colorimetry.MaxLuminance = 6000000; /* 600 nits */
    colorimetry.FormatBitDepths.Rgb = 10;
    colorimetry.StandardColorimetryFlags.ST2084 = 1;
    CHECK(g_table.DxgkDdiSetTargetAdjustedColorimetry(context, 0, colorimetry) == STATUS_SUCCESS && adapter->Hdr &&
          adapter->MaxLuminance == 6000000);
    DXGKARG_SETTARGETADJUSTEDCOLORIMETRY2 colorimetry2;
    RtlZeroMemory(&colorimetry2, sizeof(colorimetry2));
    colorimetry2.AdjustedColorimetry = colorimetry;
    colorimetry2.AdjustedColorimetry.MaxLuminance = 4000000;
    colorimetry2.SdrWhiteLevel = 240;
    CHECK(g_table.DxgkDdiSetTargetAdjustedColorimetry2(context, &colorimetry2) == STATUS_SUCCESS &&
          adapter->MaxLuminance == 4000000 && adapter->SdrWhiteLevel == 240);
    colorimetry2.TargetId = 1;
    CHECK(g_table.DxgkDdiSetTargetAdjustedColorimetry2(context, &colorimetry2) == STATUS_INVALID_PARAMETER);

    DXGKARG_UPDATEMONITORLINKINFO link;
    RtlZeroMemory(&link, sizeof(link));
    CHECK(g_table.DxgkDdiUpdateMonitorLinkInfo(context, &link) == STATUS_SUCCESS &&
          link.MonitorLinkInfo.Capabilities.Value == 0x46 && link.MonitorLinkInfo.DitheringSupport.Value == 0x4);
    link.MonitorLinkInfo.UsageHints.Hidden = 1;
    CHECK(g_table.DxgkDdiUpdateMonitorLinkInfo(context, &link) == STATUS_SUCCESS &&
          link.MonitorLinkInfo.Capabilities.Value == 0x40);
    DXGKARG_CONTROLMODEBEHAVIOR behavior;
    RtlZeroMemory(&behavior, sizeof(behavior));
    behavior.Request.Value = 3;
    CHECK(g_table.DxgkDdiControlModeBehavior(context, &behavior) == STATUS_SUCCESS && behavior.Satisfied.Value == 1 &&
          behavior.NotSatisfied.Value == 2);
    DXGKARG_VALIDATEUPDATEALLOCPROPERTY property;
    RtlZeroMemory(&property, sizeof(property));
    property.SetPreferredSegment = 1;
    property.PreferredSegment.SegmentId0 = 2;
    CHECK(g_table.DxgkDdiValidateUpdateAllocationProperty(context, &property) == STATUS_SUCCESS);
    property.PreferredSegment.SegmentId0 = 3;
    CHECK(g_table.DxgkDdiValidateUpdateAllocationProperty(context, &property) == STATUS_INVALID_PARAMETER);
    property.PropertyMaskValue = 1;
    property.Flags.AccessedPhysically = 1;
    CHECK(g_table.DxgkDdiValidateUpdateAllocationProperty(context, &property) == STATUS_NOT_SUPPORTED);

    /* Per-target gamma, content type and copy protection (WDDM 2.2). */
    static USHORT ramp[3][256];
    ramp[2][255] = 0xfff0;
    DXGKARG_SETTARGETGAMMA gamma;
    RtlZeroMemory(&gamma, sizeof(gamma));
    gamma.GammaRamp.Type = D3DDDI_GAMMARAMP_RGB256x3x16;
    gamma.GammaRamp.DataSize = sizeof(ramp);
    gamma.GammaRamp.Data.pRaw = ramp;
    CHECK(g_table.DxgkDdiSetTargetGamma(context, &gamma) == STATUS_SUCCESS && adapter->GammaLut[2][255] == 0xfff0);
    gamma.GammaRamp.Type = D3DDDI_GAMMARAMP_DEFAULT;
    CHECK(g_table.DxgkDdiSetTargetGamma(context, &gamma) == STATUS_SUCCESS && adapter->GammaLut[2][255] == 0xffff &&
          adapter->GammaLut[0][1] == 257);
    gamma.GammaRamp.Type = D3DDDI_GAMMARAMP_MATRIX_3x4;
    CHECK(g_table.DxgkDdiSetTargetGamma(context, &gamma) == STATUS_NOT_SUPPORTED);
    DXGKARG_SETTARGETCONTENTTYPE content = {0, D3DKMDT_VPPC_VIDEO};
    CHECK(g_table.DxgkDdiSetTargetContentType(context, &content) == STATUS_SUCCESS &&
          adapter->Content == D3DKMDT_VPPC_VIDEO);
    DXGKARG_SETTARGETANALOGCOPYPROTECTION aps;
    RtlZeroMemory(&aps, sizeof(aps));
    aps.CopyProtectionType = D3DKMDT_VPPMT_MACROVISION_APSTRIGGER;
    aps.APSTriggerBits = 2;
    aps.CopyProtectionSupport.MacroVisionApsTrigger = 1;
    CHECK(g_table.DxgkDdiSetTargetAnalogCopyProtection(context, &aps) == STATUS_SUCCESS && adapter->ApsLevel == 2);
    aps.CopyProtectionSupport.MacroVisionFull = 1;
    CHECK(g_table.DxgkDdiSetTargetAnalogCopyProtection(context, &aps) == STATUS_NOT_SUPPORTED);
    static DXGKARG_SETVIDPNSOURCEADDRESS flip; /* 2 KiB: not on the stack */
    flip.ContextCount = 2;
    flip.PrimaryData[1].SegmentId = 1;
    flip.PrimaryData[1].SegmentAddress.QuadPart = 0x123000;
    CHECK(g_table.DxgkDdiSetVidPnSourceAddress(context, &flip) == STATUS_SUCCESS &&
          adapter->Scanout[1].QuadPart == 0x123000);

    /* Multiplane overlays: a video plane over the desktop, enlarged. */
    DXGKARG_GETMULTIPLANEOVERLAYCAPS mpoCaps;
    RtlZeroMemory(&mpoCaps, sizeof(mpoCaps));
    CHECK(g_table.DxgkDdiGetMultiPlaneOverlayCaps(context, &mpoCaps) == STATUS_SUCCESS && mpoCaps.MaxPlanes == 2 &&
          mpoCaps.OverlayCaps.Value == 0x70 && mpoCaps.MaxShrinkFactor == 1.0f);
    DXGK_CHECK_MULTIPLANE_OVERLAY_SUPPORT_PLANE check[3];
    RtlZeroMemory(check, sizeof(check));
    for (UINT i = 0; i < 3; i++) {
        RECT src = {0, 0, 1280, 720}, dst = {0, 0, 1920, 1080};
        check[i].PlaneAttributes.SrcRect = src;
        check[i].PlaneAttributes.DstRect = dst;
        check[i].PlaneAttributes.Rotation = D3DDDI_ROTATION_IDENTITY;
        check[i].PlaneAttributes.YCbCrFlags = DXGK_MULTIPLANE_OVERLAY_YCbCr_FLAG_BT709;
    }
    DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT mpo = {2, check, FALSE, {{0}}};
    CHECK(g_table.DxgkDdiCheckMultiPlaneOverlaySupport(context, &mpo) == STATUS_SUCCESS && mpo.Supported &&
          check[1].hAllocation == context);
    check[1].PlaneAttributes.Flags.HorizontalFlip = 1;
    CHECK(g_table.DxgkDdiCheckMultiPlaneOverlaySupport(context, &mpo) == STATUS_SUCCESS && !mpo.Supported &&
          mpo.ReturnInfo.FailingPlane == 1 && mpo.ReturnInfo.Value == 1);
    check[1].PlaneAttributes.Flags.Value = 0;
    mpo.PlaneCount = 3;
    CHECK(g_table.DxgkDdiCheckMultiPlaneOverlaySupport(context, &mpo) == STATUS_SUCCESS && !mpo.Supported &&
          mpo.ReturnInfo.FailingPlane == 2);
    DXGK_MULTIPLANE_OVERLAY_PLANE planes[2];
    RtlZeroMemory(planes, sizeof(planes));
    planes[1].LayerIndex = 1;
    planes[1].Enabled = TRUE;
    planes[1].AllocationAddress.QuadPart = 0x456000;
    planes[1].PlaneAttributes.YCbCrFlags = DXGK_MULTIPLANE_OVERLAY_YCbCr_FLAG_BT709;
    static DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY mpoFlip;
    mpoFlip.PlaneCount = 2;
    mpoFlip.pPlanes = planes;
    CHECK(g_table.DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay(context, &mpoFlip) == STATUS_SUCCESS &&
          adapter->OverlayScanout[1].QuadPart == 0x456000 && adapter->OverlayScanout[0].QuadPart == 0 &&
          adapter->OverlayColorSpace[1] == D3DDDI_COLOR_SPACE_YCBCR_STUDIO_G22_LEFT_P709);
    DXGK_MULTIPLANE_OVERLAY_PLANE_WITH_SOURCE check2[2];
    RtlZeroMemory(check2, sizeof(check2));
    check2[1].LayerIndex = 1;
    check2[1].PlaneAttributes.ColorSpaceType = D3DDDI_COLOR_SPACE_RGB_FULL_G2084_NONE_P2020;
    DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT2 mpo2 = {2, check2, FALSE, {{0}}};
    CHECK(g_table.DxgkDdiCheckMultiPlaneOverlaySupport2(context, &mpo2) == STATUS_SUCCESS && !mpo2.Supported &&
          mpo2.ReturnInfo.FailingPlane == 1);
    check2[1].PlaneAttributes.ColorSpaceType = D3DDDI_COLOR_SPACE_YCBCR_STUDIO_G22_LEFT_P709;
    CHECK(g_table.DxgkDdiCheckMultiPlaneOverlaySupport2(context, &mpo2) == STATUS_SUCCESS && mpo2.Supported);
    /* Version 3: planes and post-composition by pointer, HDR metadata. */
    DXGK_MULTIPLANE_OVERLAY_PLANE_WITH_SOURCE2 check3;
    RtlZeroMemory(&check3, sizeof(check3));
    check3.LayerIndex = 1;
    check3.PlaneAttributes.DirtyRectCnt = 1;
    DXGK_MULTIPLANE_OVERLAY_PLANE_WITH_SOURCE2 *check3List[1] = {&check3};
    DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT3 mpo3;
    RtlZeroMemory(&mpo3, sizeof(mpo3));
    mpo3.PlaneCount = 1;
    mpo3.ppPlanes = check3List;
    CHECK(g_table.DxgkDdiCheckMultiPlaneOverlaySupport3(context, &mpo3) == STATUS_SUCCESS && !mpo3.Supported);
    check3.PlaneAttributes.DirtyRectCnt = 0;
    CHECK(g_table.DxgkDdiCheckMultiPlaneOverlaySupport3(context, &mpo3) == STATUS_SUCCESS && mpo3.Supported);
    DXGK_MULTIPLANE_OVERLAY_POST_COMPOSITION_WITH_SOURCE post;
    RtlZeroMemory(&post, sizeof(post));
    DXGK_MULTIPLANE_OVERLAY_POST_COMPOSITION_WITH_SOURCE *postList[1] = {&post};
    mpo3.PostCompositionCount = 1;
    mpo3.ppPostComposition = postList;
    CHECK(g_table.DxgkDdiCheckMultiPlaneOverlaySupport3(context, &mpo3) == STATUS_SUCCESS && !mpo3.Supported);
    DXGK_MULTIPLANE_OVERLAY_PLANE3 plane3;
    RtlZeroMemory(&plane3, sizeof(plane3));
    plane3.LayerIndex = 1;
    plane3.PresentId = 42;
    plane3.InputFlags.Enabled = 1;
    plane3.InputFlags.FlipImmediate = 1;
    plane3.PlaneAttributes.ColorSpaceType = D3DDDI_COLOR_SPACE_RGB_FULL_G2084_NONE_P2020;
    DXGK_MULTIPLANE_OVERLAY_PLANE3 *plane3List[1] = {&plane3};
    DXGK_HDR_METADATA hdr = {D3DDDI_HDR_METADATA_TYPE_HDR10, 0, NULL};
    DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY3 flip3;
    RtlZeroMemory(&flip3, sizeof(flip3));
    flip3.PlaneCount = 1;
    flip3.ppPlanes = plane3List;
    flip3.pHDRMetaData = &hdr;
    adapter->Hdr = FALSE;
    CHECK(g_table.DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay3(context, &flip3) == STATUS_SUCCESS &&
          flip3.OutputFlags.PrePresentNeeded && adapter->OverlayPresentId[1] == 0);
    flip3.InputFlags.RetryAtLowerIrql = 1;
    CHECK(g_table.DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay3(context, &flip3) == STATUS_SUCCESS &&
          flip3.OutputFlags.Value == 0 && plane3.OutputFlags.PostPresentNeeded && adapter->OverlayPresentId[1] == 42 &&
          adapter->OverlayColorSpace[1] == D3DDDI_COLOR_SPACE_RGB_FULL_G2084_NONE_P2020 && adapter->Hdr);
    DXGK_MULTIPLANE_OVERLAY_PLANE2 planes2[1];
    RtlZeroMemory(planes2, sizeof(planes2));
    planes2[0].Enabled = TRUE;
    planes2[0].AllocationAddress.QuadPart = 0x789000;
    planes2[0].PlaneAttributes.ColorSpaceType = D3DDDI_COLOR_SPACE_RGB_FULL_G10_NONE_P709;
    static DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY2 mpoFlip2;
    mpoFlip2.ContextCount = 1;
    mpoFlip2.PlaneCount = 1;
    mpoFlip2.pPlanes = planes2;
    CHECK(g_table.DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay2(context, &mpoFlip2) == STATUS_SUCCESS &&
          adapter->OverlayScanout[0].QuadPart == 0x789000 &&
          adapter->OverlayColorSpace[0] == D3DDDI_COLOR_SPACE_RGB_FULL_G10_NONE_P709);

    CHECK(g_table.DxgkDdiStopDevice(context) == STATUS_SUCCESS);
    CHECK(g_table.DxgkDdiRemoveDevice(context) == STATUS_SUCCESS && g_ring_freed == 1);
    pbc_kernel_leave();
    CHECK(pbc_kernel_take_threads(first, sizeof(first)) == 0);
    CHECK(pbc_kernel_take_lock_errors(first, sizeof(first)) == 0);
    CHECK(pbc_kernel_take_bugchecks(first, sizeof(first)) == 0);
    CHECK(pbc_kernel_take_leaks(first, sizeof(first)) == 0);
    CHECK(pbc_kernel_take_unserved(first, sizeof(first)) == 0);

    /* A driver built for an older interface has a shorter table: pbcheck
     * fills that much and not a byte more. */
    union {
        DXGKRNL_INTERFACE table;
        unsigned char bytes[sizeof(DXGKRNL_INTERFACE)];
    } older;
    const size_t wddm13 = offsetof(DXGKRNL_INTERFACE, DxgkCbMapContextAllocation);
    memset(older.bytes, 0xA5, sizeof(older.bytes));
    pbc_wdk_dxgkrnl_interface(NULL, &older.table, wddm13);
    CHECK(older.table.Size == wddm13 && older.table.DxgkCbCompletePStateTransition != NULL);
    int untouched = 1;
    for (size_t i = wddm13; i < sizeof(older.bytes); i++)
        untouched &= older.bytes[i] == 0xA5;
    CHECK(untouched);
    pbc_kernel_reset();

    printf("%s\n", failures ? "FAIL" : "ok");
    return failures != 0;
}
