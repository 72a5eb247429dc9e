/* A whole display-miniport source file, written the way real KMDs are: the
 * paging DDIs beside DriverEntry, device start-up, interrupts, query
 * adapter info, allocations, VidPN and power. Compiled against
 * include/pbcheck/wdk alone as C11 with every warning an error; its checks
 * run the DDIs through the table DriverEntry fills. DxgkInitialize is the
 * test's own (a target's glue stubs it the same way). */
#include <ntddk.h>
#include <dispmprt.h>

#include <stdio.h>

#define KW_TAG ((ULONG)0x31574b4b)

typedef struct _KW_ALLOCATION {
    SIZE_T Size;
    UINT Segment;
    D3DDDIFORMAT Format;
} KW_ALLOCATION, *PKW_ALLOCATION;

typedef struct _KW_ADAPTER {
    DXGKRNL_INTERFACE Dxgkrnl;
    DXGK_START_INFO StartInfo;
    PHYSICAL_ADDRESS RegisterBase;
    ULONG RegisterLength;
    ULONG InterruptVector;
    UINT LastCompletedFence;
    BOOLEAN Interrupted;
    DEVICE_POWER_STATE Power;
} KW_ADAPTER, *PKW_ADAPTER;

static KW_ADAPTER g_adapter;
static DRIVER_INITIALIZATION_DATA g_init;

_Function_class_DXGK_(DXGKDDI_ADD_DEVICE) _IRQL_requires_DXGK_(PASSIVE_LEVEL)
static NTSTATUS KwAddDevice(IN_CONST_PDEVICE_OBJECT PhysicalDeviceObject, OUT_PPVOID MiniportDeviceContext)
{
    UNREFERENCED_PARAMETER(PhysicalDeviceObject);
    *MiniportDeviceContext = &g_adapter;
    return STATUS_SUCCESS;
}

static NTSTATUS KwStartDevice(IN_CONST_PVOID MiniportDeviceContext, IN_PDXGK_START_INFO DxgkStartInfo,
                              IN_PDXGKRNL_INTERFACE DxgkInterface, OUT_PULONG NumberOfVideoPresentSources,
                              OUT_PULONG NumberOfChildren)
{
    PKW_ADAPTER a = (PKW_ADAPTER)MiniportDeviceContext;
    DXGK_DEVICE_INFO info;
    a->StartInfo = *DxgkStartInfo;
    a->Dxgkrnl = *DxgkInterface;
    NTSTATUS status = a->Dxgkrnl.DxgkCbGetDeviceInformation(a->Dxgkrnl.DeviceHandle, &info);
    if (!NT_SUCCESS(status))
        return status;
    const CM_FULL_RESOURCE_DESCRIPTOR *full = &info.TranslatedResourceList->List[0];
    for (ULONG i = 0; i < full->PartialResourceList.Count; i++) {
        const CM_PARTIAL_RESOURCE_DESCRIPTOR *d = &full->PartialResourceList.PartialDescriptors[i];
        switch (d->Type) {
        case CmResourceTypeMemory:
            a->RegisterBase = d->u.Memory.Start;
            a->RegisterLength = d->u.Memory.Length;
            break;
        case CmResourceTypeInterrupt:
            a->InterruptVector = d->u.Interrupt.Vector;
            break;
        default:
            break;
        }
    }
    *NumberOfVideoPresentSources = 1;
    *NumberOfChildren = 1;
    return STATUS_SUCCESS;
}

static NTSTATUS KwStopDevice(IN_CONST_PVOID MiniportDeviceContext)
{
    UNREFERENCED_PARAMETER(MiniportDeviceContext);
    return STATUS_SUCCESS;
}

static BOOLEAN KwInterruptRoutine(IN_CONST_PVOID MiniportDeviceContext, IN_ULONG MessageNumber)
{
    PKW_ADAPTER a = (PKW_ADAPTER)MiniportDeviceContext;
    DXGKARGCB_NOTIFY_INTERRUPT_DATA notify;
    UNREFERENCED_PARAMETER(MessageNumber);
    RtlZeroMemory(&notify, sizeof(notify));
    notify.InterruptType = DXGK_INTERRUPT_DMA_COMPLETED;
    notify.DmaCompleted.SubmissionFenceId = a->LastCompletedFence;
    notify.DmaCompleted.NodeOrdinal = 0;
    notify.DmaCompleted.EngineOrdinal = 0;
    a->Dxgkrnl.DxgkCbNotifyInterrupt(a->Dxgkrnl.DeviceHandle, &notify);
    a->Dxgkrnl.DxgkCbQueueDpc(a->Dxgkrnl.DeviceHandle);
    return TRUE;
}

static VOID KwDpcRoutine(IN_CONST_PVOID MiniportDeviceContext)
{
    PKW_ADAPTER a = (PKW_ADAPTER)MiniportDeviceContext;
    a->Dxgkrnl.DxgkCbNotifyDpc(a->Dxgkrnl.DeviceHandle);
}

static NTSTATUS KwQueryChildRelations(IN_CONST_PVOID MiniportDeviceContext, INOUT_PDXGK_CHILD_DESCRIPTOR ChildRelations,
                                      IN_ULONG ChildRelationsSize)
{
    UNREFERENCED_PARAMETER(MiniportDeviceContext);
    if (ChildRelationsSize < 2 * sizeof(DXGK_CHILD_DESCRIPTOR))
        return STATUS_BUFFER_TOO_SMALL;
    ChildRelations[0].ChildDeviceType = TypeVideoOutput;
    ChildRelations[0].ChildCapabilities.Type.VideoOutput.InterfaceTechnology = D3DKMDT_VOT_HD15;
    ChildRelations[0].ChildCapabilities.HpdAwareness = HpdAwarenessAlwaysConnected;
    ChildRelations[0].AcpiUid = 0;
    ChildRelations[0].ChildUid = 0;
    return STATUS_SUCCESS;
}

static NTSTATUS KwQueryChildStatus(IN_CONST_PVOID MiniportDeviceContext, INOUT_PDXGK_CHILD_STATUS ChildStatus,
                                   IN_BOOLEAN NonDestructiveOnly)
{
    UNREFERENCED_PARAMETER(MiniportDeviceContext);
    UNREFERENCED_PARAMETER(NonDestructiveOnly);
    if (ChildStatus->Type != StatusConnection)
        return STATUS_NOT_SUPPORTED;
    ChildStatus->HotPlug.Connected = TRUE;
    return STATUS_SUCCESS;
}

static NTSTATUS KwSetPowerState(IN_CONST_PVOID MiniportDeviceContext, IN_ULONG DeviceUid,
                                IN_DEVICE_POWER_STATE DevicePowerState, IN_POWER_ACTION ActionType)
{
    PKW_ADAPTER a = (PKW_ADAPTER)MiniportDeviceContext;
    UNREFERENCED_PARAMETER(ActionType);
    if (DeviceUid == DISPLAY_ADAPTER_HW_ID)
        a->Power = DevicePowerState;
    return STATUS_SUCCESS;
}

static NTSTATUS KwNotifyAcpiEvent(IN_CONST_PVOID MiniportDeviceContext, IN_ULONG EventType, IN_ULONG Event,
                                  IN_PVOID Argument, OUT_PULONG AcpiFlags)
{
    UNREFERENCED_PARAMETER(MiniportDeviceContext);
    UNREFERENCED_PARAMETER(Argument);
    *AcpiFlags = (EventType == DxgkAcpiEvent && Event == ACPI_NOTIFY_NEXT_DISPLAY_HOTKEY)
                     ? DXGK_ACPI_CHANGE_DISPLAY_MODE
                     : 0;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY KwQueryAdapterInfo(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_QUERYADAPTERINFO pQueryAdapterInfo)
{
    UNREFERENCED_PARAMETER(hAdapter);
    switch (pQueryAdapterInfo->Type) {
    case DXGKQAITYPE_DRIVERCAPS: {
        DXGK_DRIVERCAPS *caps = (DXGK_DRIVERCAPS *)pQueryAdapterInfo->pOutputData;
        RtlZeroMemory(caps, sizeof(*caps));
        caps->HighestAcceptableAddress.QuadPart = -1;
        caps->MaxAllocationListSlotId = 16;
        caps->ApertureSegmentCommitLimit = 16u << 20;
        caps->MaxPointerWidth = 64;
        caps->MaxPointerHeight = 64;
        caps->PointerCaps.Color = 1;
        caps->MemoryManagementCaps.PagingNode = 0;
        caps->GpuEngineTopology.NbAsymetricProcessingNodes = 1;
        caps->WDDMVersion = DXGKDDI_WDDMv1_2;
        caps->PreemptionCaps.GraphicsPreemptionGranularity = D3DKMDT_GRAPHICS_PREEMPTION_DMA_BUFFER_BOUNDARY;
        caps->SupportNonVGA = TRUE;
        return STATUS_SUCCESS;
    }
    case DXGKQAITYPE_QUERYSEGMENT: {
        DXGK_QUERYSEGMENTOUT *out = (DXGK_QUERYSEGMENTOUT *)pQueryAdapterInfo->pOutputData;
        if (out->pSegmentDescriptor == NULL) {
            out->NbSegment = 2;
            return STATUS_SUCCESS;
        }
        DXGK_SEGMENTDESCRIPTOR *seg = out->pSegmentDescriptor;
        RtlZeroMemory(seg, 2 * sizeof(*seg));
        seg[0].BaseAddress.QuadPart = 0x100000000ll;
        seg[0].Size = 256u << 20;
        seg[0].CommitLimit = seg[0].Size;
        seg[0].Flags.CpuVisible = 1;
        seg[1].BaseAddress.QuadPart = 0xC0000000ll;
        seg[1].Size = 64u << 20;
        seg[1].CommitLimit = seg[1].Size;
        seg[1].Flags.Aperture = 1;
        out->PagingBufferSegmentId = 0;
        out->PagingBufferSize = 64 * 1024;
        out->PagingBufferPrivateDataSize = 0;
        return STATUS_SUCCESS;
    }
    default:
        return STATUS_NOT_SUPPORTED;
    }
}

static NTSTATUS APIENTRY KwCreateAllocation(IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_CREATEALLOCATION pCreateAllocation)
{
    UNREFERENCED_PARAMETER(hAdapter);
    for (UINT i = 0; i < pCreateAllocation->NumAllocations; i++) {
        DXGK_ALLOCATIONINFO *info = &pCreateAllocation->pAllocationInfo[i];
        PKW_ALLOCATION alloc = (PKW_ALLOCATION)ExAllocatePoolWithTag(NonPagedPoolNx, sizeof(KW_ALLOCATION), KW_TAG);
        if (alloc == NULL)
            return STATUS_NO_MEMORY;
        alloc->Size = ROUND_TO_PAGES(info->PrivateDriverDataSize ? *(const UINT *)info->pPrivateDriverData : 4096);
        alloc->Format = D3DDDIFMT_A8R8G8B8;
        info->Alignment = PAGE_SIZE;
        info->Size = alloc->Size;
        info->PitchAlignedSize = 0;
        info->HintedBank.Value = 0;
        info->PreferredSegment.Value = 0;
        info->PreferredSegment.SegmentId0 = 1;
        info->SupportedReadSegmentSet = 0x3;
        info->SupportedWriteSegmentSet = 0x3;
        info->EvictionSegmentSet = 0;
        info->MaximumRenamingListLength = 0;
        info->Flags.Value = 0;
        info->Flags.CpuVisible = 1;
        info->pAllocationUsageHint = NULL;
        info->AllocationPriority = D3DDDI_ID_NOTAPPLICABLE;
        info->hAllocation = alloc;
    }
    if (pCreateAllocation->Flags.Resource && pCreateAllocation->hResource == NULL)
        pCreateAllocation->hResource = &g_adapter;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY KwDestroyAllocation(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_DESTROYALLOCATION pDestroyAllocation)
{
    UNREFERENCED_PARAMETER(hAdapter);
    for (UINT i = 0; i < pDestroyAllocation->NumAllocations; i++)
        ExFreePoolWithTag(pDestroyAllocation->pAllocationList[i], KW_TAG);
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY KwDescribeAllocation(IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_DESCRIBEALLOCATION pDescribe)
{
    PKW_ALLOCATION alloc = (PKW_ALLOCATION)pDescribe->hAllocation;
    UNREFERENCED_PARAMETER(hAdapter);
    pDescribe->Width = 1024;
    pDescribe->Height = (UINT)(alloc->Size / 4096);
    pDescribe->Format = alloc->Format;
    pDescribe->MultisampleMethod.NumSamples = 0;
    pDescribe->MultisampleMethod.NumQualityLevels = 0;
    pDescribe->RefreshRate.Numerator = 60000;
    pDescribe->RefreshRate.Denominator = 1000;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY KwOpenAllocation(IN_CONST_HANDLE hDevice, IN_CONST_PDXGKARG_OPENALLOCATION pOpenAllocation)
{
    UNREFERENCED_PARAMETER(hDevice);
    for (UINT i = 0; i < pOpenAllocation->NumAllocations; i++) {
        DXGK_OPENALLOCATIONINFO *open = &pOpenAllocation->pOpenAllocation[i];
        DXGKARGCB_GETHANDLEDATA get = {open->hAllocation, DXGK_HANDLE_ALLOCATION, {{0}}};
        open->hDeviceSpecificAllocation = g_adapter.Dxgkrnl.DxgkCbGetHandleData(&get);
    }
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY KwGetStandardAllocationDriverData(IN_CONST_HANDLE hAdapter,
                                                           INOUT_PDXGKARG_GETSTANDARDALLOCATIONDRIVERDATA pData)
{
    UNREFERENCED_PARAMETER(hAdapter);
    if (pData->StandardAllocationType == D3DKMDT_STANDARDALLOCATION_SHAREDPRIMARYSURFACE &&
        pData->pCreateSharedPrimarySurfaceData->Format != D3DDDIFMT_X8R8G8B8)
        return STATUS_INVALID_PARAMETER;
    pData->AllocationPrivateDriverDataSize = sizeof(UINT);
    pData->ResourcePrivateDriverDataSize = 0;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY KwCreateDevice(IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_CREATEDEVICE pCreateDevice)
{
    UNREFERENCED_PARAMETER(hAdapter);
    if (pCreateDevice->Flags.SystemDevice)
        pCreateDevice->hDevice = &g_adapter;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY KwCreateContext(IN_CONST_HANDLE hDevice, INOUT_PDXGKARG_CREATECONTEXT pCreateContext)
{
    pCreateContext->hContext = hDevice;
    pCreateContext->ContextInfo.DmaBufferSize = 64 * 1024;
    pCreateContext->ContextInfo.DmaBufferSegmentSet = 0;
    pCreateContext->ContextInfo.AllocationListSize = pCreateContext->Flags.SystemContext ? 0 : 64;
    pCreateContext->ContextInfo.PatchLocationListSize = 64;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY KwSetVidPnSourceAddress(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_SETVIDPNSOURCEADDRESS pSet)
{
    PKW_ADAPTER a = (PKW_ADAPTER)hAdapter;
    if (pSet->VidPnSourceId != 0 || pSet->Flags.ModeChange)
        return STATUS_SUCCESS;
    a->RegisterBase = pSet->PrimaryAddress;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY KwIsSupportedVidPn(IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_ISSUPPORTEDVIDPN pIsSupported)
{
    UNREFERENCED_PARAMETER(hAdapter);
    pIsSupported->IsVidPnSupported = pIsSupported->hDesiredVidPn != NULL;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY KwGetScanLine(IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_GETSCANLINE pGetScanLine)
{
    UNREFERENCED_PARAMETER(hAdapter);
    pGetScanLine->InVerticalBlank = FALSE;
    pGetScanLine->ScanLine = pGetScanLine->VidPnTargetId;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY KwControlInterrupt(IN_CONST_HANDLE hAdapter, IN_CONST_DXGK_INTERRUPT_TYPE InterruptType,
                                            IN_BOOLEAN EnableInterrupt)
{
    PKW_ADAPTER a = (PKW_ADAPTER)hAdapter;
    if (InterruptType == DXGK_INTERRUPT_CRTC_VSYNC)
        a->Interrupted = EnableInterrupt;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY KwQueryCurrentFence(IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_QUERYCURRENTFENCE pCurrentFence)
{
    pCurrentFence->CurrentFence = ((PKW_ADAPTER)hAdapter)->LastCompletedFence;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY KwEscape(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_ESCAPE pEscape)
{
    UNREFERENCED_PARAMETER(hAdapter);
    return pEscape->PrivateDriverDataSize < sizeof(UINT) ? STATUS_INVALID_PARAMETER : STATUS_SUCCESS;
}

/* The paging path. */
static NTSTATUS APIENTRY KwBuildPagingBuffer(IN_CONST_HANDLE hAdapter, IN_PDXGKARG_BUILDPAGINGBUFFER pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    if (pArgs->Operation != DXGK_OPERATION_FILL)
        return STATUS_NOT_SUPPORTED;
    if (pArgs->DmaSize < 16)
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    RtlFillMemory(pArgs->pDmaBuffer, 16, 0);
    pArgs->pDmaBuffer = (PUCHAR)pArgs->pDmaBuffer + 16;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY KwPatch(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_PATCH pPatch)
{
    UNREFERENCED_PARAMETER(hAdapter);
    return pPatch->Flags.Paging && pPatch->pPatchLocationList != NULL ? STATUS_INVALID_PARAMETER : STATUS_SUCCESS;
}

static NTSTATUS APIENTRY KwSubmitCommand(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_SUBMITCOMMAND pSubmitCommand)
{
    ((PKW_ADAPTER)hAdapter)->LastCompletedFence = pSubmitCommand->SubmissionFenceId;
    return STATUS_SUCCESS;
}

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    DRIVER_INITIALIZATION_DATA *init = &g_init;
    RtlZeroMemory(init, sizeof(*init));
    init->Version = DXGKDDI_INTERFACE_VERSION;
    init->DxgkDdiAddDevice = KwAddDevice;
    init->DxgkDdiStartDevice = KwStartDevice;
    init->DxgkDdiStopDevice = KwStopDevice;
    init->DxgkDdiInterruptRoutine = KwInterruptRoutine;
    init->DxgkDdiDpcRoutine = KwDpcRoutine;
    init->DxgkDdiQueryChildRelations = KwQueryChildRelations;
    init->DxgkDdiQueryChildStatus = KwQueryChildStatus;
    init->DxgkDdiSetPowerState = KwSetPowerState;
    init->DxgkDdiNotifyAcpiEvent = KwNotifyAcpiEvent;
    init->DxgkDdiQueryAdapterInfo = KwQueryAdapterInfo;
    init->DxgkDdiCreateDevice = KwCreateDevice;
    init->DxgkDdiCreateAllocation = KwCreateAllocation;
    init->DxgkDdiDestroyAllocation = KwDestroyAllocation;
    init->DxgkDdiDescribeAllocation = KwDescribeAllocation;
    init->DxgkDdiGetStandardAllocationDriverData = KwGetStandardAllocationDriverData;
    init->DxgkDdiPatch = KwPatch;
    init->DxgkDdiSubmitCommand = KwSubmitCommand;
    init->DxgkDdiBuildPagingBuffer = KwBuildPagingBuffer;
    init->DxgkDdiEscape = KwEscape;
    init->DxgkDdiQueryCurrentFence = KwQueryCurrentFence;
    init->DxgkDdiIsSupportedVidPn = KwIsSupportedVidPn;
    init->DxgkDdiSetVidPnSourceAddress = KwSetVidPnSourceAddress;
    init->DxgkDdiGetScanLine = KwGetScanLine;
    init->DxgkDdiControlInterrupt = KwControlInterrupt;
    init->DxgkDdiOpenAllocation = KwOpenAllocation;
    init->DxgkDdiCreateContext = KwCreateContext;
    return DxgkInitialize(DriverObject, RegistryPath, init);
}

/* ---- The test's side: DXGKRNL played just far enough. ---- */
static int failures;
#define CHECK(c) ((c) ? (void)0 : (void)(failures++, printf("check failed: line %d: %s\n", __LINE__, #c)))

static DRIVER_INITIALIZATION_DATA *g_registered;
static UINT g_notified_fence;
static CM_RESOURCE_LIST *g_resources;

NTSTATUS DxgkInitialize(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath,
                        PDRIVER_INITIALIZATION_DATA DriverInitializationData)
{
    UNREFERENCED_PARAMETER(DriverObject);
    UNREFERENCED_PARAMETER(RegistryPath);
    g_registered = DriverInitializationData;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY TestGetDeviceInformation(HANDLE DeviceHandle, PDXGK_DEVICE_INFO DeviceInfo)
{
    UNREFERENCED_PARAMETER(DeviceHandle);
    RtlZeroMemory(DeviceInfo, sizeof(*DeviceInfo));
    DeviceInfo->TranslatedResourceList = g_resources;
    return STATUS_SUCCESS;
}

static VOID APIENTRY TestNotifyInterrupt(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARGCB_NOTIFY_INTERRUPT_DATA pData)
{
    UNREFERENCED_PARAMETER(hAdapter);
    if (pData->InterruptType == DXGK_INTERRUPT_DMA_COMPLETED)
        g_notified_fence = pData->DmaCompleted.SubmissionFenceId;
}

static BOOLEAN APIENTRY TestQueueDpc(HANDLE DeviceHandle)
{
    UNREFERENCED_PARAMETER(DeviceHandle);
    return TRUE;
}

static VOID APIENTRY TestNotifyDpc(IN_CONST_HANDLE hAdapter)
{
    UNREFERENCED_PARAMETER(hAdapter);
}

int main(void)
{
    CHECK(DriverEntry(NULL, NULL) == STATUS_SUCCESS && g_registered == &g_init);
    PVOID ctx = NULL;
    CHECK(g_init.DxgkDdiAddDevice(NULL, &ctx) == STATUS_SUCCESS && ctx == &g_adapter);

    /* Start: a memory range and an interrupt in the translated resources. */
    struct {
        CM_RESOURCE_LIST list;
        CM_PARTIAL_RESOURCE_DESCRIPTOR more[1];
    } res;
    RtlZeroMemory(&res, sizeof(res));
    res.list.Count = 1;
    res.list.List[0].InterfaceType = PCIBus;
    res.list.List[0].PartialResourceList.Count = 2;
    CM_PARTIAL_RESOURCE_DESCRIPTOR *d = res.list.List[0].PartialResourceList.PartialDescriptors;
    d[0].Type = CmResourceTypeMemory;
    d[0].ShareDisposition = CmResourceShareDeviceExclusive;
    d[0].u.Memory.Start.QuadPart = 0xFE000000ll;
    d[0].u.Memory.Length = 0x10000;
    d[1].Type = CmResourceTypeInterrupt;
    d[1].Flags = CM_RESOURCE_INTERRUPT_MESSAGE;
    d[1].u.Interrupt.Vector = 42;
    CHECK((PUCHAR)&d[1] == (PUCHAR)&res.list + 40); /* Windows' packed offsets */
    g_resources = &res.list;
    DXGKRNL_INTERFACE krnl;
    RtlZeroMemory(&krnl, sizeof(krnl));
    krnl.Size = sizeof(krnl);
    krnl.DxgkCbGetDeviceInformation = TestGetDeviceInformation;
    krnl.DxgkCbNotifyInterrupt = TestNotifyInterrupt;
    krnl.DxgkCbQueueDpc = TestQueueDpc;
    krnl.DxgkCbNotifyDpc = TestNotifyDpc;
    DXGK_START_INFO start;
    RtlZeroMemory(&start, sizeof(start));
    ULONG sources = 0, children = 0;
    CHECK(g_init.DxgkDdiStartDevice(ctx, &start, &krnl, &sources, &children) == STATUS_SUCCESS);
    CHECK(sources == 1 && children == 1);
    CHECK(g_adapter.RegisterBase.QuadPart == 0xFE000000ll && g_adapter.RegisterLength == 0x10000);
    CHECK(g_adapter.InterruptVector == 42);

    /* Query adapter info: caps and two segments. */
    DXGK_DRIVERCAPS caps;
    DXGKARG_QUERYADAPTERINFO qai;
    RtlZeroMemory(&qai, sizeof(qai));
    qai.Type = DXGKQAITYPE_DRIVERCAPS;
    qai.pOutputData = &caps;
    qai.OutputDataSize = sizeof(caps);
    CHECK(g_init.DxgkDdiQueryAdapterInfo(&g_adapter, &qai) == STATUS_SUCCESS && caps.PointerCaps.Value == 2);
    DXGK_SEGMENTDESCRIPTOR segs[2];
    DXGK_QUERYSEGMENTOUT qs;
    RtlZeroMemory(&qs, sizeof(qs));
    qai.Type = DXGKQAITYPE_QUERYSEGMENT;
    qai.pOutputData = &qs;
    qai.OutputDataSize = sizeof(qs);
    CHECK(g_init.DxgkDdiQueryAdapterInfo(&g_adapter, &qai) == STATUS_SUCCESS && qs.NbSegment == 2);
    qs.pSegmentDescriptor = segs;
    CHECK(g_init.DxgkDdiQueryAdapterInfo(&g_adapter, &qai) == STATUS_SUCCESS && segs[1].Flags.Value == 1);

    /* Allocations: create, describe, destroy. */
    UINT requested = 5000;
    DXGK_ALLOCATIONINFO ai;
    RtlZeroMemory(&ai, sizeof(ai));
    ai.pPrivateDriverData = &requested;
    ai.PrivateDriverDataSize = sizeof(requested);
    DXGKARG_CREATEALLOCATION ca;
    RtlZeroMemory(&ca, sizeof(ca));
    ca.NumAllocations = 1;
    ca.pAllocationInfo = &ai;
    ca.Flags.Resource = 1;
    CHECK(g_init.DxgkDdiCreateAllocation(&g_adapter, &ca) == STATUS_SUCCESS);
    CHECK(ai.Size == 8192 && ai.PreferredSegment.Value == 1 && ai.Flags.Value == 1 && ca.hResource == &g_adapter);
    DXGKARG_DESCRIBEALLOCATION da;
    RtlZeroMemory(&da, sizeof(da));
    da.hAllocation = ai.hAllocation;
    CHECK(g_init.DxgkDdiDescribeAllocation(&g_adapter, &da) == STATUS_SUCCESS && da.Height == 2 &&
          da.Format == D3DDDIFMT_A8R8G8B8);
    DXGKARG_DESTROYALLOCATION dst;
    RtlZeroMemory(&dst, sizeof(dst));
    dst.NumAllocations = 1;
    dst.pAllocationList = &ai.hAllocation;
    CHECK(g_init.DxgkDdiDestroyAllocation(&g_adapter, &dst) == STATUS_SUCCESS);

    /* An interrupt: the ISR reports the last submitted fence. */
    DXGKARG_SUBMITCOMMAND submit;
    RtlZeroMemory(&submit, sizeof(submit));
    submit.SubmissionFenceId = 77;
    CHECK(g_init.DxgkDdiSubmitCommand(&g_adapter, &submit) == STATUS_SUCCESS);
    CHECK(g_init.DxgkDdiInterruptRoutine(ctx, 0) == TRUE && g_notified_fence == 77);
    g_init.DxgkDdiDpcRoutine(ctx);

    /* Power and ACPI. */
    CHECK(g_init.DxgkDdiSetPowerState(ctx, DISPLAY_ADAPTER_HW_ID, PowerDeviceD3, PowerActionSleep) == STATUS_SUCCESS &&
          g_adapter.Power == PowerDeviceD3);
    ULONG acpiFlags = 0;
    CHECK(g_init.DxgkDdiNotifyAcpiEvent(ctx, DxgkAcpiEvent, ACPI_NOTIFY_NEXT_DISPLAY_HOTKEY, NULL, &acpiFlags) ==
              STATUS_SUCCESS &&
          acpiFlags == DXGK_ACPI_CHANGE_DISPLAY_MODE);

    /* Paging. */
    UCHAR dma[32];
    DXGKARG_BUILDPAGINGBUFFER build;
    RtlZeroMemory(&build, sizeof(build));
    build.pDmaBuffer = dma;
    build.DmaSize = sizeof(dma);
    build.Operation = DXGK_OPERATION_FILL;
    CHECK(g_init.DxgkDdiBuildPagingBuffer(&g_adapter, &build) == STATUS_SUCCESS && build.pDmaBuffer == dma + 16);

    printf("%s\n", failures ? "FAIL" : "ok");
    return failures != 0;
}
