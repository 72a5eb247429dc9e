/* A Windows 10 (WDDM 2.x) display miniport in the shape the DDI reference
 * describes, as one whole file: the adapter is a C++ class whose DDI entry
 * points are static members taking IN_CONST_PVOID and IN_CONST_HANDLE and
 * casting them straight to the class; DriverEntry fills the WDDM 2.x
 * members of DRIVER_INITIALIZATION_DATA; StartDevice keeps its copy of
 * DXGKRNL_INTERFACE and calls a WDDM 2.x callback through it, reads a
 * device property, initialises events and a DPC and starts a worker thread
 * that SubmitCommandVirtual wakes; hardware queues and display detection
 * look inside their WDDM 2.2 arguments; the strings are L"..." in WCHAR
 * arrays.
 * It compiles against include/pbcheck/wdk alone, as C++17 with every
 * warning an error and -fshort-wchar (as pbcheck_add_target builds a
 * target), and the test at the end runs it on the kernel services. */
#include <ntddk.h>
#include <dispmprt.h>

#include <new>

#define W10_POOL_TAG 0x30315744u /* 'DW10' */
#define W10_NODES 2u

static const WCHAR g_nodeNames[W10_NODES][8] = {L"3D", L"Copy"};

class W10Adapter {
public:
    static DXGKDDI_ADD_DEVICE DdiAddDevice;
    static DXGKDDI_START_DEVICE DdiStartDevice;
    static DXGKDDI_STOP_DEVICE DdiStopDevice;
    static DXGKDDI_REMOVE_DEVICE DdiRemoveDevice;
    static DXGKDDI_QUERYADAPTERINFO DdiQueryAdapterInfo;
    static DXGKDDI_CREATEALLOCATION DdiCreateAllocation;
    static DXGKDDI_GETSTANDARDALLOCATIONDRIVERDATA DdiGetStandardAllocationDriverData;
    static DXGKDDI_PRESENT DdiPresent;
    static DXGKDDI_SUBMITCOMMANDVIRTUAL DdiSubmitCommandVirtual;
    static DXGKDDI_GETNODEMETADATA DdiGetNodeMetadata;
    static DXGKDDI_CALIBRATEGPUCLOCK DdiCalibrateGpuClock;
    static DXGKDDI_SETROOTPAGETABLE DdiSetRootPageTable;
    static DXGKDDI_GETROOTPAGETABLESIZE DdiGetRootPageTableSize;
    static DXGKDDI_CREATEPROCESS DdiCreateProcess;
    static DXGKDDI_DESTROYPROCESS DdiDestroyProcess;
    static DXGKDDI_SETSTABLEPOWERSTATE DdiSetStablePowerState;
    static DXGKDDI_QUERYENGINESTATUS DdiQueryEngineStatus;
    static DXGKDDI_CREATEHWQUEUE DdiCreateHwQueue;
    static DXGKDDI_DISPLAYDETECTCONTROL DdiDisplayDetectControl;
    static DXGKDDI_QUERYDEPENDENTENGINEGROUP DdiQueryDependentEngineGroup;
    static DXGKDDI_RESETENGINE DdiResetEngine;
    static DXGKDDI_CANCELCOMMAND DdiCancelCommand;
    static DXGKDDI_CHECKMULTIPLANEOVERLAYSUPPORT2 DdiCheckMultiPlaneOverlaySupport2;
    static DXGKDDI_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY2 DdiSetVidPnSourceAddressWithMultiPlaneOverlay2;
    static DXGKDDI_GETMULTIPLANEOVERLAYCAPS DdiGetMultiPlaneOverlayCaps;
    static DXGKDDI_SETTARGETGAMMA DdiSetTargetGamma;
    static DXGKDDI_SETTARGETADJUSTEDCOLORIMETRY2 DdiSetTargetAdjustedColorimetry2;
    static DXGKDDI_CONTROLMODEBEHAVIOR DdiControlModeBehavior;
    static DXGKDDI_RESTOREMEMORYFORHOTUPDATE DdiRestoreMemoryForHotUpdate;
    static DXGKDDI_SETTIMINGSFROMVIDPN DdiSetTimingsFromVidPn;
    static DXGKDDI_QUERYDIAGNOSTICTYPESSUPPORT DdiQueryDiagnosticTypesSupport;

    PDEVICE_OBJECT m_pdo = NULL;
    DXGKRNL_INTERFACE m_dxgkrnl = {};
    WCHAR m_description[64] = {};
    KEVENT m_workEvent;
    KEVENT m_stopEvent;
    KEVENT m_doneEvent;
    KDPC m_dpc;
    PKTHREAD m_thread = NULL;
    volatile LONG m_lastFence = 0;
    volatile LONG m_worked = 0;
    volatile LONG m_dpcRuns = 0;
    KIRQL m_dpcIrql = PASSIVE_LEVEL;
    D3DGPU_PHYSICAL_ADDRESS m_rootPageTable = {};
    BOOLEAN m_stablePower = FALSE;
    BOOLEAN m_hotPlug = FALSE;
    UINT m_queues = 0;
    NTSTATUS m_connectorChange = STATUS_SUCCESS;
    PHYSICAL_ADDRESS m_overlay = {};
    RECT m_overlayDst = {};
    D3DDDI_GAMMARAMP_TYPE m_gamma = D3DDDI_GAMMARAMP_UNINITIALIZED;
    UINT m_sdrWhiteLevel = 80;
    BOOLEAN m_prioritizeHdr = FALSE;
    UINT m_restoredBlocks = 0;
    UINT m_pathsAdded = 0;
    BOOLEAN m_selfRefreshPanel = TRUE; /* its panel refreshes itself */
    DXGK_CONNECTION_STATUS m_lastTargetStatus = ConnectionStatusUninitialized;

private:
    static KSTART_ROUTINE WorkerThread;
    static KDEFERRED_ROUTINE CompletionDpc;
    NTSTATUS Start(IN_PDXGKRNL_INTERFACE DxgkInterface, OUT_PULONG Sources, OUT_PULONG Children);
    NTSTATUS Stop();
    VOID Work();
};

NTSTATUS W10Adapter::DdiAddDevice(IN_CONST_PDEVICE_OBJECT PhysicalDeviceObject, OUT_PPVOID MiniportDeviceContext)
{
    PVOID block = ExAllocatePool2(POOL_FLAG_NON_PAGED, sizeof(W10Adapter), W10_POOL_TAG);
    if (block == NULL)
        return STATUS_NO_MEMORY;
    W10Adapter *adapter = new (block) W10Adapter;
    adapter->m_pdo = PhysicalDeviceObject;
    *MiniportDeviceContext = adapter;
    return STATUS_SUCCESS;
}

NTSTATUS W10Adapter::DdiStartDevice(IN_CONST_PVOID MiniportDeviceContext, IN_PDXGK_START_INFO DxgkStartInfo,
                                    IN_PDXGKRNL_INTERFACE DxgkInterface, OUT_PULONG NumberOfVideoPresentSources,
                                    OUT_PULONG NumberOfChildren)
{
    UNREFERENCED_PARAMETER(DxgkStartInfo);
    return static_cast<W10Adapter *>(MiniportDeviceContext)->Start(DxgkInterface, NumberOfVideoPresentSources,
                                                                   NumberOfChildren);
}

NTSTATUS W10Adapter::Start(IN_PDXGKRNL_INTERFACE DxgkInterface, OUT_PULONG Sources, OUT_PULONG Children)
{
    m_dxgkrnl = *DxgkInterface;
    /* Tell the OS about the connector already plugged in (WDDM 2.2). */
    m_connectorChange = m_dxgkrnl.DxgkCbIndicateConnectorChange(m_dxgkrnl.DeviceHandle);
    ULONG length = 0;
    NTSTATUS status = IoGetDeviceProperty(m_pdo, DevicePropertyDeviceDescription, sizeof(m_description),
                                          m_description, &length);
    if (!NT_SUCCESS(status))
        return status;
    KeInitializeEvent(&m_workEvent, SynchronizationEvent, FALSE);
    KeInitializeEvent(&m_stopEvent, NotificationEvent, FALSE);
    KeInitializeEvent(&m_doneEvent, SynchronizationEvent, FALSE);
    KeInitializeDpc(&m_dpc, CompletionDpc, this);

    OBJECT_ATTRIBUTES attributes;
    InitializeObjectAttributes(&attributes, NULL, OBJ_KERNEL_HANDLE, NULL, NULL);
    HANDLE thread = NULL;
    status = PsCreateSystemThread(&thread, THREAD_ALL_ACCESS, &attributes, NULL, NULL, WorkerThread, this);
    if (!NT_SUCCESS(status))
        return status;
    status = ObReferenceObjectByHandle(thread, THREAD_ALL_ACCESS, *PsThreadType, KernelMode,
                                       reinterpret_cast<PVOID *>(&m_thread), NULL);
    ZwClose(thread);
    if (!NT_SUCCESS(status))
        return status;
    *Sources = 1;
    *Children = 1;
    return STATUS_SUCCESS;
}

VOID W10Adapter::WorkerThread(PVOID StartContext) { static_cast<W10Adapter *>(StartContext)->Work(); }

/* Waits for work or the stop request; each piece of work completes
 * through the DPC, as an interrupt would. */
VOID W10Adapter::Work()
{
    PVOID waitOn[2] = {&m_stopEvent, &m_workEvent};
    for (;;) {
        NTSTATUS status = KeWaitForMultipleObjects(2, waitOn, WaitAny, Executive, KernelMode, FALSE, NULL, NULL);
        if (status != STATUS_WAIT_1)
            break;
        m_worked = m_worked + 1;
        KeInsertQueueDpc(&m_dpc, NULL, NULL);
    }
    PsTerminateSystemThread(STATUS_SUCCESS);
}

VOID W10Adapter::CompletionDpc(PKDPC Dpc, PVOID DeferredContext, PVOID SystemArgument1, PVOID SystemArgument2)
{
    UNREFERENCED_PARAMETER(Dpc);
    UNREFERENCED_PARAMETER(SystemArgument1);
    UNREFERENCED_PARAMETER(SystemArgument2);
    W10Adapter *adapter = static_cast<W10Adapter *>(DeferredContext);
    adapter->m_dpcRuns = adapter->m_dpcRuns + 1;
    adapter->m_dpcIrql = KeGetCurrentIrql();
    KeSetEvent(&adapter->m_doneEvent, IO_NO_INCREMENT, FALSE);
}

NTSTATUS W10Adapter::DdiStopDevice(IN_CONST_PVOID MiniportDeviceContext)
{
    return static_cast<W10Adapter *>(MiniportDeviceContext)->Stop();
}

NTSTATUS W10Adapter::Stop()
{
    KeSetEvent(&m_stopEvent, IO_NO_INCREMENT, FALSE);
    NTSTATUS status = KeWaitForSingleObject(m_thread, Executive, KernelMode, FALSE, NULL);
    ObDereferenceObject(m_thread);
    m_thread = NULL;
    return status;
}

NTSTATUS W10Adapter::DdiRemoveDevice(IN_CONST_PVOID MiniportDeviceContext)
{
    W10Adapter *adapter = static_cast<W10Adapter *>(MiniportDeviceContext);
    adapter->~W10Adapter();
    ExFreePoolWithTag(adapter, W10_POOL_TAG);
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY W10Adapter::DdiQueryAdapterInfo(IN_CONST_HANDLE hAdapter,
                                                  IN_CONST_PDXGKARG_QUERYADAPTERINFO pQueryAdapterInfo)
{
    UNREFERENCED_PARAMETER(hAdapter);
    if (pQueryAdapterInfo->Type != DXGKQAITYPE_DRIVERCAPS)
        return STATUS_NOT_SUPPORTED;
    DXGK_DRIVERCAPS *caps = static_cast<DXGK_DRIVERCAPS *>(pQueryAdapterInfo->pOutputData);
    RtlZeroMemory(caps, sizeof(*caps));
    caps->WDDMVersion = DXGKDDI_WDDMv2_7;
    caps->PresentationCaps.SupportKernelModeCommandBuffer = 1;
    caps->PresentationCaps.AlignmentShift = 6;
    caps->PresentationCaps.MaxTextureWidthShift = 3; /* 2^(11 + 3): 16384 */
    caps->PresentationCaps.MaxTextureHeightShift = 3;
    caps->MemoryManagementCaps.VirtualAddressingSupported = 1;
    caps->MemoryManagementCaps.GpuMmuSupported = 1;
    caps->SchedulingCaps.MultiEngineAware = 1;
    caps->SchedulingCaps.CancelCommandAware = 1;
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY W10Adapter::DdiCreateHwQueue(IN_CONST_HANDLE hHwContext, INOUT_PDXGKARG_CREATEHWQUEUE pCreateHwQueue)
{
    W10Adapter *adapter = static_cast<W10Adapter *>(hHwContext);
    if (pCreateHwQueue->Flags.Value & ~1u) /* only DisableGpuTimeout */
        return STATUS_NOT_SUPPORTED;
    pCreateHwQueue->hHwQueue = reinterpret_cast<HANDLE>(static_cast<ULONG_PTR>(++adapter->m_queues));
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY W10Adapter::DdiDisplayDetectControl(IN_CONST_HANDLE hAdapter,
                                                      IN_CONST_PDXGKARG_DISPLAYDETECTCONTROL pDisplayDetectControl)
{
    W10Adapter *adapter = static_cast<W10Adapter *>(hAdapter);
    if (pDisplayDetectControl->Type != DXGK_DDCT_ENABLEHPD && pDisplayDetectControl->Type != DXGK_DDCT_DISABLEHPD)
        return STATUS_NOT_SUPPORTED;
    adapter->m_hotPlug = pDisplayDetectControl->Type == DXGK_DDCT_ENABLEHPD;
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY W10Adapter::DdiCreateAllocation(IN_CONST_HANDLE hAdapter,
                                                  INOUT_PDXGKARG_CREATEALLOCATION pCreateAllocation)
{
    UNREFERENCED_PARAMETER(hAdapter);
    for (UINT i = 0; i < pCreateAllocation->NumAllocations; i++) {
        DXGK_ALLOCATIONINFO &info = pCreateAllocation->pAllocationInfo[i];
        info.Size = 64 * PAGE_SIZE;
        info.Alignment = PAGE_SIZE;
        info.SupportedReadSegmentSet = 1;
        info.SupportedWriteSegmentSet = 1;
        info.AllocationPriority = D3DDDI_ALLOCATIONPRIORITY_NORMAL;
        info.FlagsWddm2.CpuVisible = 1;
    }
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY W10Adapter::DdiGetStandardAllocationDriverData(
    IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_GETSTANDARDALLOCATIONDRIVERDATA pStandard)
{
    UNREFERENCED_PARAMETER(hAdapter);
    if (pStandard->StandardAllocationType != D3DKMDT_STANDARDALLOCATION_GDISURFACE)
        return STATUS_NOT_SUPPORTED;
    D3DKMDT_GDISURFACEDATA *gdi = pStandard->pCreateGdiSurfaceData;
    if (gdi->Flags.Value != 0) /* reserved for the system */
        return STATUS_INVALID_PARAMETER;
    gdi->Pitch = gdi->Width * 4;
    pStandard->AllocationPrivateDriverDataSize = 0;
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY W10Adapter::DdiPresent(IN_CONST_HANDLE hContext, INOUT_PDXGKARG_PRESENT pPresent)
{
    UNREFERENCED_PARAMETER(hContext);
    const DXGK_ALLOCATIONLIST &source = pPresent->pAllocationList[DXGK_PRESENT_SOURCE_INDEX];
    const DXGK_ALLOCATIONLIST &destination = pPresent->pAllocationList[DXGK_PRESENT_DESTINATION_INDEX];
    return source.hDeviceSpecificAllocation != NULL && destination.hDeviceSpecificAllocation != NULL
               ? STATUS_SUCCESS
               : STATUS_INVALID_PARAMETER;
}

NTSTATUS APIENTRY W10Adapter::DdiSubmitCommandVirtual(IN_CONST_HANDLE hAdapter,
                                                      IN_CONST_PDXGKARG_SUBMITCOMMANDVIRTUAL pSubmitCommand)
{
    W10Adapter *adapter = static_cast<W10Adapter *>(hAdapter);
    adapter->m_lastFence = static_cast<LONG>(pSubmitCommand->SubmissionFenceId);
    KeSetEvent(&adapter->m_workEvent, IO_NO_INCREMENT, FALSE);
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY W10Adapter::DdiGetNodeMetadata(IN_CONST_HANDLE hAdapter, UINT NodeOrdinalAndAdapterIndex,
                                                 OUT_PDXGKARG_GETNODEMETADATA pGetNodeMetadata)
{
    UNREFERENCED_PARAMETER(hAdapter);
    UINT node = NodeOrdinalAndAdapterIndex & 0xFFFF;
    if (node >= W10_NODES)
        return STATUS_INVALID_PARAMETER;
    RtlZeroMemory(pGetNodeMetadata, sizeof(*pGetNodeMetadata));
    pGetNodeMetadata->EngineType = node == 0 ? DXGK_ENGINE_TYPE_3D : DXGK_ENGINE_TYPE_COPY;
    RtlCopyMemory(pGetNodeMetadata->FriendlyName, g_nodeNames[node], sizeof(g_nodeNames[node]));
    pGetNodeMetadata->GpuMmuSupported = TRUE;
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY W10Adapter::DdiCalibrateGpuClock(IN_CONST_HANDLE hAdapter, UINT32 NodeOrdinal,
                                                   UINT32 EngineOrdinal,
                                                   OUT_PDXGKARG_CALIBRATEGPUCLOCK pClockCalibration)
{
    UNREFERENCED_PARAMETER(hAdapter);
    UNREFERENCED_PARAMETER(NodeOrdinal);
    UNREFERENCED_PARAMETER(EngineOrdinal);
    LARGE_INTEGER frequency;
    LARGE_INTEGER now = KeQueryPerformanceCounter(&frequency);
    pClockCalibration->GpuFrequency = static_cast<ULONGLONG>(frequency.QuadPart);
    pClockCalibration->GpuClockCounter = static_cast<ULONGLONG>(now.QuadPart);
    pClockCalibration->CpuClockCounter = static_cast<ULONGLONG>(now.QuadPart);
    return STATUS_SUCCESS;
}

VOID APIENTRY W10Adapter::DdiSetRootPageTable(IN_CONST_HANDLE hAdapter,
                                              IN_CONST_PDXGKARG_SETROOTPAGETABLE pSetPageTable)
{
    static_cast<W10Adapter *>(hAdapter)->m_rootPageTable = pSetPageTable->Address;
}

SIZE_T APIENTRY W10Adapter::DdiGetRootPageTableSize(IN_CONST_HANDLE hAdapter,
                                                    INOUT_PDXGKARG_GETROOTPAGETABLESIZE pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    return static_cast<SIZE_T>(pArgs->NumberOfPte) * sizeof(ULONG64);
}

NTSTATUS APIENTRY W10Adapter::DdiCreateProcess(IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_CREATEPROCESS pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    pArgs->hKmdProcess = ExAllocatePool2(POOL_FLAG_NON_PAGED, 64, W10_POOL_TAG);
    return pArgs->hKmdProcess != NULL ? STATUS_SUCCESS : STATUS_NO_MEMORY;
}

NTSTATUS APIENTRY W10Adapter::DdiDestroyProcess(IN_CONST_HANDLE hAdapter, IN_CONST_HANDLE hKmdProcess)
{
    UNREFERENCED_PARAMETER(hAdapter);
    ExFreePoolWithTag(hKmdProcess, W10_POOL_TAG);
    return STATUS_SUCCESS;
}

VOID APIENTRY W10Adapter::DdiSetStablePowerState(IN_CONST_HANDLE hAdapter,
                                                 IN_CONST_PDXGKARG_SETSTABLEPOWERSTATE pArgs)
{
    static_cast<W10Adapter *>(hAdapter)->m_stablePower = pArgs->Enabled ? TRUE : FALSE;
}

NTSTATUS APIENTRY W10Adapter::DdiQueryEngineStatus(IN_CONST_HANDLE hAdapter,
                                                   INOUT_PDXGKARG_QUERYENGINESTATUS pQueryEngineStatus)
{
    UNREFERENCED_PARAMETER(hAdapter);
    pQueryEngineStatus->EngineStatus.Value = 0;
    pQueryEngineStatus->EngineStatus.Responsive = pQueryEngineStatus->NodeOrdinal < W10_NODES;
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY W10Adapter::DdiQueryDependentEngineGroup(
    IN_CONST_HANDLE hAdapter, INOUT_DXGKARG_QUERYDEPENDENTENGINEGROUP pQueryDependentEngineGroup)
{
    UNREFERENCED_PARAMETER(hAdapter);
    pQueryDependentEngineGroup->DependentNodeOrdinalMask = 1ull << pQueryDependentEngineGroup->NodeOrdinal;
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY W10Adapter::DdiResetEngine(IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_RESETENGINE pResetEngine)
{
    pResetEngine->LastAbortedFenceId = static_cast<UINT>(static_cast<W10Adapter *>(hAdapter)->m_lastFence);
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY W10Adapter::DdiCancelCommand(IN_CONST_HANDLE hAdapter,
                                               IN_CONST_PDXGKARG_CANCELCOMMAND pCancelCommand)
{
    UNREFERENCED_PARAMETER(hAdapter);
    return pCancelCommand->DmaBufferSubmissionEndOffset >= pCancelCommand->DmaBufferSubmissionStartOffset
               ? STATUS_SUCCESS
               : STATUS_INVALID_PARAMETER;
}

/* One overlay plane over the primary, in sRGB, never rotated. */
NTSTATUS APIENTRY W10Adapter::DdiCheckMultiPlaneOverlaySupport2(IN_CONST_HANDLE hAdapter,
                                                                IN_OUT_PDXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT2 pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    pArgs->Supported = TRUE;
    pArgs->ReturnInfo.Value = 0;
    for (UINT i = 0; i < pArgs->PlaneCount; i++) {
        const DXGK_MULTIPLANE_OVERLAY_ATTRIBUTES2 &attr = pArgs->pPlanes[i].PlaneAttributes;
        if (i > 1 || attr.Rotation != D3DDDI_ROTATION_IDENTITY ||
            attr.ColorSpaceType != D3DDDI_COLOR_SPACE_RGB_FULL_G22_NONE_P709 ||
            attr.Blend != DXGK_MULTIPLANE_OVERLAY_BLEND_OPAQUE) {
            pArgs->Supported = FALSE;
            pArgs->ReturnInfo.FailingPlane = i;
            break;
        }
    }
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY W10Adapter::DdiSetVidPnSourceAddressWithMultiPlaneOverlay2(
    IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY2 pArgs)
{
    W10Adapter *adapter = static_cast<W10Adapter *>(hAdapter);
    for (UINT i = 0; i < pArgs->PlaneCount; i++) {
        const DXGK_MULTIPLANE_OVERLAY_PLANE2 &plane = pArgs->pPlanes[i];
        if (plane.LayerIndex != 1)
            continue; /* the primary flips through DxgkDdiSetVidPnSourceAddress */
        adapter->m_overlay = plane.Enabled ? plane.AllocationAddress : PHYSICAL_ADDRESS{};
        adapter->m_overlayDst = plane.PlaneAttributes.DstRect;
    }
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY W10Adapter::DdiGetMultiPlaneOverlayCaps(IN_CONST_HANDLE hAdapter,
                                                           IN_OUT_PDXGKARG_GETMULTIPLANEOVERLAYCAPS pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    pArgs->MaxPlanes = pArgs->MaxRGBPlanes = 2;
    pArgs->MaxYUVPlanes = 0;
    pArgs->OverlayCaps.Value = 0;
    pArgs->OverlayCaps.Immediate = 1;
    pArgs->MaxStretchFactor = pArgs->MaxShrinkFactor = 1.0f; /* no scaler */
    return STATUS_SUCCESS;
}

/* The display pipe takes the default ramp or a 3x256 table, nothing else. */
NTSTATUS APIENTRY W10Adapter::DdiSetTargetGamma(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_SETTARGETGAMMA pArgs)
{
    const D3DKMDT_GAMMA_RAMP &ramp = pArgs->GammaRamp;
    if (ramp.Type != D3DDDI_GAMMARAMP_DEFAULT &&
        (ramp.Type != D3DDDI_GAMMARAMP_RGB256x3x16 || ramp.DataSize != 3 * 256 * sizeof(USHORT) ||
         ramp.Data.pRgb256x3x16 == NULL))
        return STATUS_NOT_SUPPORTED;
    static_cast<W10Adapter *>(hAdapter)->m_gamma = ramp.Type;
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY W10Adapter::DdiSetTargetAdjustedColorimetry2(IN_CONST_HANDLE hAdapter,
                                                               IN_PDXGKARG_SETTARGETADJUSTEDCOLORIMETRY2 pArgs)
{
    if (pArgs->AdjustedColorimetry.StandardColorimetryFlags.ST2084 == 0)
        return STATUS_SUCCESS; /* SDR panel: nothing to raise */
    static_cast<W10Adapter *>(hAdapter)->m_sdrWhiteLevel = pArgs->SdrWhiteLevel != 0 ? pArgs->SdrWhiteLevel : 80;
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY W10Adapter::DdiControlModeBehavior(IN_CONST_HANDLE hAdapter,
                                                     INOUT_PDXGKARG_CONTROLMODEBEHAVIOR pArgs)
{
    W10Adapter *adapter = static_cast<W10Adapter *>(hAdapter);
    pArgs->Satisfied.Value = 0;
    pArgs->NotSatisfied.Value = 0; /* colorimetric control: not supported, left clear */
    adapter->m_prioritizeHdr = pArgs->Request.PrioritizeHDR ? TRUE : FALSE;
    pArgs->Satisfied.PrioritizeHDR = pArgs->Request.PrioritizeHDR;
    return STATUS_SUCCESS;
}

/* Each block the old driver saved comes back once; the last call says so. */
NTSTATUS APIENTRY W10Adapter::DdiRestoreMemoryForHotUpdate(IN_CONST_HANDLE hContext,
                                                           IN_CONST_PDXGKARG_RESTOREMEMORYFORHOTUPDATE pArgs)
{
    W10Adapter *adapter = static_cast<W10Adapter *>(hContext);
    if (pArgs->Flags.RestoreComplete)
        return adapter->m_restoredBlocks != 0 ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
    if (pArgs->MetaDataSize == 0 || pArgs->pMetaData == NULL)
        return STATUS_INVALID_PARAMETER;
    adapter->m_restoredBlocks++;
    return STATUS_SUCCESS;
}

/* Timings: the driver switches on the enumerations the OS sets (C++ takes
 * them only from enumeration-typed fields) and keeps each target's state. */
NTSTATUS APIENTRY W10Adapter::DdiSetTimingsFromVidPn(IN_CONST_HANDLE hAdapter,
                                                     INOUT_PDXGKARG_SETTIMINGSFROMVIDPN pSetTimings)
{
    W10Adapter *adapter = static_cast<W10Adapter *>(hAdapter);
    for (UINT i = 0; i < pSetTimings->PathCount; i++) {
        DXGK_SET_TIMING_PATH_INFO &path = pSetTimings->pSetTimingPathInfo[i];
        DXGK_PATH_UPDATE update = path.Input.VidPnPathUpdates;
        switch (update) {
        case DXGK_PATH_UPDATE_ADDED:
            adapter->m_pathsAdded++;
            break;
        case DXGK_PATH_UPDATE_UNMODIFIED:
        case DXGK_PATH_UPDATE_MODIFIED:
        case DXGK_PATH_UPDATE_REMOVED:
            break;
        }
        DXGK_CONNECTION_STATUS status = path.TargetState.ConnectionStatus;
        adapter->m_lastTargetStatus = status;
        path.DiagnosticInfo = 0;
        path.GlitchCause = DXGK_GLITCH_CAUSE_NONE;
        path.GlitchEffect = DXGK_GLITCH_EFFECT_SEAMLESS;
        path.GlitchDuration = DXGK_GLITCH_DURATION_NONE;
    }
    pSetTimings->pResultsFlags->Value = 0;
    return STATUS_SUCCESS;
}

/* Diagnostics through the context the OS hands back as IN_CONST_PVOID. */
NTSTATUS APIENTRY W10Adapter::DdiQueryDiagnosticTypesSupport(IN_CONST_PVOID MiniportDeviceContext,
                                                             INOUT_PDXGKARG_QUERYDIAGNOSTICTYPESSUPPORT pArgs)
{
    const W10Adapter *adapter = static_cast<const W10Adapter *>(MiniportDeviceContext);
    pArgs->NoninvasiveTypes.Value = 0;
    pArgs->InvasiveTypes.Value = 0;
    if (pArgs->DiagnosticCategory.Notifications && adapter->m_selfRefreshPanel)
        pArgs->NoninvasiveTypes.Notifications.PanelSelfRefreshSoftware = 1;
    return STATUS_SUCCESS;
}

extern "C" DRIVER_INITIALIZE DriverEntry;

extern "C" NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    DRIVER_INITIALIZATION_DATA init = {};
    init.Version = DXGKDDI_INTERFACE_VERSION;
    init.DxgkDdiAddDevice = W10Adapter::DdiAddDevice;
    init.DxgkDdiStartDevice = W10Adapter::DdiStartDevice;
    init.DxgkDdiStopDevice = W10Adapter::DdiStopDevice;
    init.DxgkDdiRemoveDevice = W10Adapter::DdiRemoveDevice;
    init.DxgkDdiQueryAdapterInfo = W10Adapter::DdiQueryAdapterInfo;
    init.DxgkDdiCreateAllocation = W10Adapter::DdiCreateAllocation;
    init.DxgkDdiGetStandardAllocationDriverData = W10Adapter::DdiGetStandardAllocationDriverData;
    init.DxgkDdiPresent = W10Adapter::DdiPresent;
    init.DxgkDdiQueryEngineStatus = W10Adapter::DdiQueryEngineStatus;
    init.DxgkDdiQueryDependentEngineGroup = W10Adapter::DdiQueryDependentEngineGroup;
    init.DxgkDdiResetEngine = W10Adapter::DdiResetEngine;
    init.DxgkDdiCancelCommand = W10Adapter::DdiCancelCommand;
    init.DxgkDdiGetNodeMetadata = W10Adapter::DdiGetNodeMetadata;
    init.DxgkDdiCalibrateGpuClock = W10Adapter::DdiCalibrateGpuClock;
    init.DxgkDdiSubmitCommandVirtual = W10Adapter::DdiSubmitCommandVirtual;
    init.DxgkDdiSetRootPageTable = W10Adapter::DdiSetRootPageTable;
    init.DxgkDdiGetRootPageTableSize = W10Adapter::DdiGetRootPageTableSize;
    init.DxgkDdiCreateProcess = W10Adapter::DdiCreateProcess;
    init.DxgkDdiDestroyProcess = W10Adapter::DdiDestroyProcess;
    init.DxgkDdiSetStablePowerState = W10Adapter::DdiSetStablePowerState;
    init.DxgkDdiCreateHwQueue = W10Adapter::DdiCreateHwQueue;
    init.DxgkDdiDisplayDetectControl = W10Adapter::DdiDisplayDetectControl;
    init.DxgkDdiCheckMultiPlaneOverlaySupport2 = W10Adapter::DdiCheckMultiPlaneOverlaySupport2;
    init.DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay2 = W10Adapter::DdiSetVidPnSourceAddressWithMultiPlaneOverlay2;
    init.DxgkDdiGetMultiPlaneOverlayCaps = W10Adapter::DdiGetMultiPlaneOverlayCaps;
    init.DxgkDdiSetTargetGamma = W10Adapter::DdiSetTargetGamma;
    init.DxgkDdiSetTargetAdjustedColorimetry2 = W10Adapter::DdiSetTargetAdjustedColorimetry2;
    init.DxgkDdiControlModeBehavior = W10Adapter::DdiControlModeBehavior;
    init.DxgkDdiRestoreMemoryForHotUpdate = W10Adapter::DdiRestoreMemoryForHotUpdate;
    init.DxgkDdiSetTimingsFromVidPn = W10Adapter::DdiSetTimingsFromVidPn;
    init.DxgkDdiQueryDiagnosticTypesSupport = W10Adapter::DdiQueryDiagnosticTypesSupport;
    return DxgkInitialize(DriverObject, RegistryPath, &init);
}

/* ---- The test's side: pbcheck's kernel services run the driver ---- */
extern "C" {
#include "kernel/services.h"
}

#include <stdio.h>
#include <string.h>

static int failures;
#define CHECK(c) ((c) ? (void)0 : (void)(failures++, printf("check failed: line %d: %s\n", __LINE__, #c)))

static DRIVER_INITIALIZATION_DATA g_table;

NTSTATUS DxgkInitialize(PDRIVER_OBJECT, PUNICODE_STRING, PDRIVER_INITIALIZATION_DATA Data)
{
    g_table = *Data;
    return STATUS_SUCCESS;
}

/* A stand-in for the physical device object: never looked inside. */
static char g_pdo;

/* Starts an adapter as DXGKRNL would: AddDevice, then StartDevice, on the
 * run's CPU. */
static W10Adapter *StartAdapter()
{
    PVOID context = NULL;
    DXGKRNL_INTERFACE krnl;
    pbc_wdk_dxgkrnl_interface(reinterpret_cast<HANDLE>(&g_pdo), &krnl, sizeof(krnl));
    DXGK_START_INFO start = {};
    ULONG sources = 0, children = 0;
    pbc_kernel_enter();
    NTSTATUS added = g_table.DxgkDdiAddDevice(reinterpret_cast<PDEVICE_OBJECT>(&g_pdo), &context);
    NTSTATUS started = g_table.DxgkDdiStartDevice(context, &start, &krnl, &sources, &children);
    pbc_kernel_leave();
    CHECK(added == STATUS_SUCCESS && started == STATUS_SUCCESS && sources == 1);
    return static_cast<W10Adapter *>(context);
}

int main()
{
    char first[256];
    pbc_kernel_reset();
    CHECK(DriverEntry(NULL, NULL) == STATUS_SUCCESS);
    CHECK(g_table.Version == DXGKDDI_INTERFACE_VERSION_WDDM2_7);
    CHECK(g_table.DxgkDdiSubmitCommandVirtual == W10Adapter::DdiSubmitCommandVirtual);
    CHECK(g_table.DxgkDdiSetStablePowerState == W10Adapter::DdiSetStablePowerState);

    /* StartDevice read the model adapter's description and started its
     * worker; a submission wakes the worker, whose DPC signals completion
     * at DISPATCH_LEVEL. */
    W10Adapter *adapter = StartAdapter();
    CHECK(memcmp(adapter->m_description, L"pbcheck model GPU", sizeof(L"pbcheck model GPU")) == 0);
    /* The callback pbcheck does not serve failed, and is reported by name. */
    CHECK(adapter->m_connectorChange == STATUS_NOT_SUPPORTED &&
          adapter->m_dxgkrnl.DeviceHandle == reinterpret_cast<HANDLE>(&g_pdo));
    CHECK(pbc_kernel_take_unserved(first, sizeof(first)) == 1 &&
          strstr(first, "DxgkCbIndicateConnectorChange called") != NULL);
    pbc_kernel_enter();
    DXGKARG_SUBMITCOMMANDVIRTUAL submit = {};
    submit.SubmissionFenceId = 7;
    CHECK(g_table.DxgkDdiSubmitCommandVirtual(adapter, &submit) == STATUS_SUCCESS);
    LARGE_INTEGER second;
    second.QuadPart = -10000000ll;
    CHECK(KeWaitForSingleObject(&adapter->m_doneEvent, Executive, KernelMode, FALSE, &second) == STATUS_SUCCESS);
    CHECK(adapter->m_worked == 1 && adapter->m_dpcRuns == 1 && adapter->m_dpcIrql == DISPATCH_LEVEL);
    CHECK(KeGetCurrentIrql() == PASSIVE_LEVEL);

    /* The other WDDM 2.x DDIs, through the table. */
    DXGKARG_GETNODEMETADATA node;
    CHECK(g_table.DxgkDdiGetNodeMetadata(adapter, 1, &node) == STATUS_SUCCESS &&
          node.EngineType == DXGK_ENGINE_TYPE_COPY && node.FriendlyName[0] == L'C' && node.FriendlyName[4] == 0);
    DXGKARG_SETSTABLEPOWERSTATE stable = {1};
    g_table.DxgkDdiSetStablePowerState(adapter, &stable);
    DXGKARG_GETROOTPAGETABLESIZE rootSize = {512, 0};
    CHECK(adapter->m_stablePower && g_table.DxgkDdiGetRootPageTableSize(adapter, &rootSize) == 4096);
    DXGKARG_CREATEPROCESS process = {};
    CHECK(g_table.DxgkDdiCreateProcess(adapter, &process) == STATUS_SUCCESS &&
          g_table.DxgkDdiDestroyProcess(adapter, process.hKmdProcess) == STATUS_SUCCESS);
    DXGKARG_RESETENGINE reset = {};
    CHECK(g_table.DxgkDdiResetEngine(adapter, &reset) == STATUS_SUCCESS && reset.LastAbortedFenceId == 7);
    DXGKARG_CREATEHWQUEUE queue = {};
    queue.Flags.DisableGpuTimeout = 1;
    CHECK(g_table.DxgkDdiCreateHwQueue(adapter, &queue) == STATUS_SUCCESS &&
          queue.hHwQueue == reinterpret_cast<HANDLE>(1));
    queue.Flags.NoBroadcastWait = 1;
    CHECK(g_table.DxgkDdiCreateHwQueue(adapter, &queue) == STATUS_NOT_SUPPORTED);
    DXGKARG_DISPLAYDETECTCONTROL detect = {};
    detect.Type = DXGK_DDCT_ENABLEHPD;
    CHECK(g_table.DxgkDdiDisplayDetectControl(adapter, &detect) == STATUS_SUCCESS && adapter->m_hotPlug);
    DXGK_MULTIPLANE_OVERLAY_PLANE_WITH_SOURCE check[2] = {};
    check[0].PlaneAttributes.Rotation = check[1].PlaneAttributes.Rotation = D3DDDI_ROTATION_IDENTITY;
    check[1].LayerIndex = 1;
    check[1].PlaneAttributes.Blend = DXGK_MULTIPLANE_OVERLAY_BLEND_ALPHABLEND;
    DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT2 mpo = {2, check, TRUE, {}};
    CHECK(g_table.DxgkDdiCheckMultiPlaneOverlaySupport2(adapter, &mpo) == STATUS_SUCCESS && !mpo.Supported &&
          mpo.ReturnInfo.FailingPlane == 1);
    check[1].PlaneAttributes.Blend = DXGK_MULTIPLANE_OVERLAY_BLEND_OPAQUE;
    CHECK(g_table.DxgkDdiCheckMultiPlaneOverlaySupport2(adapter, &mpo) == STATUS_SUCCESS && mpo.Supported);
    DXGK_MULTIPLANE_OVERLAY_PLANE2 planes[2] = {};
    planes[1].LayerIndex = 1;
    planes[1].Enabled = TRUE;
    planes[1].AllocationAddress.QuadPart = 0xabc000;
    planes[1].PlaneAttributes.DstRect = RECT{100, 50, 740, 410};
    static DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY2 flip;
    flip.PlaneCount = 2;
    flip.pPlanes = planes;
    CHECK(g_table.DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay2(adapter, &flip) == STATUS_SUCCESS &&
          adapter->m_overlay.QuadPart == 0xabc000 && adapter->m_overlayDst.right == 740);
    DXGKARG_GETMULTIPLANEOVERLAYCAPS caps2 = {};
    CHECK(g_table.DxgkDdiGetMultiPlaneOverlayCaps(adapter, &caps2) == STATUS_SUCCESS && caps2.MaxRGBPlanes == 2 &&
          caps2.OverlayCaps.Value == (1u << 9));
    DXGKARG_SETTARGETGAMMA gamma = {};
    gamma.GammaRamp.Type = D3DDDI_GAMMARAMP_DXGI_1;
    CHECK(g_table.DxgkDdiSetTargetGamma(adapter, &gamma) == STATUS_NOT_SUPPORTED);
    static USHORT lut[3][256];
    gamma.GammaRamp.Type = D3DDDI_GAMMARAMP_RGB256x3x16;
    gamma.GammaRamp.DataSize = sizeof(lut);
    gamma.GammaRamp.Data.pRaw = lut;
    CHECK(g_table.DxgkDdiSetTargetGamma(adapter, &gamma) == STATUS_SUCCESS &&
          adapter->m_gamma == D3DDDI_GAMMARAMP_RGB256x3x16);
    DXGKARG_SETTARGETADJUSTEDCOLORIMETRY2 colorimetry = {};
    colorimetry.AdjustedColorimetry.StandardColorimetryFlags.ST2084 = 1;
    colorimetry.SdrWhiteLevel = 200;
    CHECK(g_table.DxgkDdiSetTargetAdjustedColorimetry2(adapter, &colorimetry) == STATUS_SUCCESS &&
          adapter->m_sdrWhiteLevel == 200);
    DXGKARG_CONTROLMODEBEHAVIOR behavior = {};
    behavior.Request.Value = 3;
    CHECK(g_table.DxgkDdiControlModeBehavior(adapter, &behavior) == STATUS_SUCCESS && adapter->m_prioritizeHdr &&
          behavior.Satisfied.Value == 1 && behavior.NotSatisfied.Value == 0);
    DXGKARG_RESTOREMEMORYFORHOTUPDATE restore = {};
    restore.Flags.RestoreComplete = 1;
    CHECK(g_table.DxgkDdiRestoreMemoryForHotUpdate(adapter, &restore) == STATUS_INVALID_PARAMETER);
    ULONG meta = W10_POOL_TAG;
    DXGKARG_RESTOREMEMORYFORHOTUPDATE block = {};
    block.MetaDataSize = sizeof(meta);
    block.pMetaData = &meta;
    CHECK(g_table.DxgkDdiRestoreMemoryForHotUpdate(adapter, &block) == STATUS_SUCCESS &&
          g_table.DxgkDdiRestoreMemoryForHotUpdate(adapter, &restore) == STATUS_SUCCESS && adapter->m_restoredBlocks == 1);
    DXGK_SET_TIMING_PATH_INFO path = {};
    path.Input.VidPnPathUpdates = DXGK_PATH_UPDATE_ADDED;
    path.TargetState.ConnectionStatus = MonitorStatusConnected;
    path.DiagnosticInfo = 0xFFFFFFFFu;
    DXGK_SET_TIMING_RESULTS results;
    DXGKARG_SETTIMINGSFROMVIDPN timings = {};
    timings.pResultsFlags = &results;
    timings.PathCount = 1;
    timings.pSetTimingPathInfo = &path;
    CHECK(g_table.DxgkDdiSetTimingsFromVidPn(adapter, &timings) == STATUS_SUCCESS && adapter->m_pathsAdded == 1 &&
          adapter->m_lastTargetStatus == MonitorStatusConnected && results.Value == 0 &&
          path.DiagnosticInfo == (7u | (5u << 8) | (5u << 16)));
    DXGKARG_QUERYDIAGNOSTICTYPESSUPPORT diag = {};
    diag.DiagnosticCategory.Notifications = 1;
    CHECK(g_table.DxgkDdiQueryDiagnosticTypesSupport(adapter, &diag) == STATUS_SUCCESS &&
          diag.NoninvasiveTypes.Value == 1 && diag.InvasiveTypes.Value == 0);
    DXGK_DRIVERCAPS caps;
    DXGKARG_QUERYADAPTERINFO query = {};
    query.Type = DXGKQAITYPE_DRIVERCAPS;
    query.pOutputData = &caps;
    CHECK(g_table.DxgkDdiQueryAdapterInfo(adapter, &query) == STATUS_SUCCESS &&
          caps.PresentationCaps.Value == ((1u << 2) | (6u << 10) | (3u << 14) | (3u << 17)));

    /* StopDevice ends the worker and waits for it; nothing is left. */
    CHECK(g_table.DxgkDdiStopDevice(adapter) == STATUS_SUCCESS);
    CHECK(g_table.DxgkDdiRemoveDevice(adapter) == STATUS_SUCCESS);
    pbc_kernel_leave();
    CHECK(pbc_kernel_take_threads(first, sizeof(first)) == 0);
    CHECK(pbc_kernel_take_lock_errors(first, sizeof(first)) == 0);
    CHECK(pbc_kernel_take_bugchecks(first, sizeof(first)) == 0);
    CHECK(pbc_kernel_take_bad_frees(first, sizeof(first)) == 0);
    CHECK(pbc_kernel_take_leaks(first, sizeof(first)) == 0);

    /* A driver that is never stopped: the end of the run ends its worker
     * (waiting for work) and says so. */
    adapter = StartAdapter();
    CHECK(pbc_kernel_take_unserved(first, sizeof(first)) == 1);
    CHECK(pbc_kernel_take_threads(first, sizeof(first)) == 1);
    CHECK(strstr(first, "system thread 1 of 1") && strstr(first, "still running when the run ended"));
    CHECK(adapter->m_worked == 0); /* ended at its wait, having done nothing */
    CHECK(g_table.DxgkDdiRemoveDevice(adapter) == STATUS_SUCCESS);
    pbc_kernel_reset();

    printf("%s\n", failures ? "FAIL" : "ok");
    return failures != 0;
}
