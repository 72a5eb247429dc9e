/* A C++ display miniport in the style of the render-only sample drivers:
 * the DDI entry points are static members of the adapter class that
 * forward into the adapter object, the hardware layer is an abstract
 * class whose members are declared `= NULL`, and the whole file (start-up,
 * interrupts, allocations, query adapter info, paging) compiles against
 * include/pbcheck/wdk alone as C++17 with every warning an error. */
#include <ntddk.h>
#include <dispmprt.h>

#include <stdio.h>
#include <string.h>

class KcHardware {
public:
    virtual ~KcHardware() {}
    virtual ULONG ReadFence() = NULL;
    virtual VOID Reset() = NULL;
};

class KcFakeHardware : public KcHardware {
public:
    ULONG Fence = 0;
    ULONG ReadFence() override { return Fence; }
    VOID Reset() override { Fence = 0; }
};

class KcAdapter {
public:
    static DXGKDDI_ADD_DEVICE DdiAddDevice;
    static DXGKDDI_START_DEVICE DdiStartDevice;
    static DXGKDDI_INTERRUPT_ROUTINE DdiInterruptRoutine;
    static DXGKDDI_QUERYADAPTERINFO DdiQueryAdapterInfo;
    static DXGKDDI_CREATEALLOCATION DdiCreateAllocation;
    static DXGKDDI_DESTROYALLOCATION DdiDestroyAllocation;
    static DXGKDDI_BUILDPAGINGBUFFER DdiBuildPagingBuffer;
    static DXGKDDI_PATCH DdiPatch;
    static DXGKDDI_SUBMITCOMMAND DdiSubmitCommand;

    /* IN_CONST_HANDLE and IN_CONST_PVOID are both a const pointer to
     * non-const: one cast serves both, with no const_cast. */
    static KcAdapter *Cast(IN_CONST_HANDLE hAdapter) { return static_cast<KcAdapter *>(hAdapter); }

    KcHardware *m_hw = NULL;
    DXGKRNL_INTERFACE m_dxgkrnl = {};
    UINT m_lastSubmitted = 0;
    PHYSICAL_ADDRESS m_mmio = {};

private:
    NTSTATUS Start(IN_PDXGKRNL_INTERFACE DxgkInterface, OUT_PULONG Sources, OUT_PULONG Children);
    BOOLEAN Interrupt();
    NTSTATUS QueryAdapterInfo(IN_CONST_PDXGKARG_QUERYADAPTERINFO pInfo);
    NTSTATUS CreateAllocation(INOUT_PDXGKARG_CREATEALLOCATION pCreate);
    NTSTATUS BuildPagingBuffer(IN_PDXGKARG_BUILDPAGINGBUFFER pArgs);
};

static KcFakeHardware g_hw;
static KcAdapter g_adapter;

NTSTATUS KcAdapter::DdiAddDevice(IN_CONST_PDEVICE_OBJECT PhysicalDeviceObject, OUT_PPVOID MiniportDeviceContext)
{
    UNREFERENCED_PARAMETER(PhysicalDeviceObject);
    g_adapter.m_hw = &g_hw;
    *MiniportDeviceContext = &g_adapter;
    return STATUS_SUCCESS;
}

NTSTATUS KcAdapter::DdiStartDevice(IN_CONST_PVOID MiniportDeviceContext, IN_PDXGK_START_INFO DxgkStartInfo,
                                   IN_PDXGKRNL_INTERFACE DxgkInterface, OUT_PULONG NumberOfVideoPresentSources,
                                   OUT_PULONG NumberOfChildren)
{
    UNREFERENCED_PARAMETER(DxgkStartInfo);
    return static_cast<KcAdapter *>(MiniportDeviceContext)->Start(DxgkInterface, NumberOfVideoPresentSources,
                                                                  NumberOfChildren);
}

NTSTATUS KcAdapter::Start(IN_PDXGKRNL_INTERFACE DxgkInterface, OUT_PULONG Sources, OUT_PULONG Children)
{
    m_dxgkrnl = *DxgkInterface;
    DXGK_DEVICE_INFO info;
    NTSTATUS status = m_dxgkrnl.DxgkCbGetDeviceInformation(m_dxgkrnl.DeviceHandle, &info);
    if (!NT_SUCCESS(status))
        return status;
    const CM_PARTIAL_RESOURCE_LIST &list = info.TranslatedResourceList->List[0].PartialResourceList;
    for (ULONG i = 0; i < list.Count; i++)
        if (list.PartialDescriptors[i].Type == CmResourceTypeMemory)
            m_mmio = list.PartialDescriptors[i].u.Memory.Start;
    *Sources = 1;
    *Children = 1;
    return m_hw != NULL ? STATUS_SUCCESS : STATUS_DEVICE_NOT_READY;
}

BOOLEAN KcAdapter::DdiInterruptRoutine(IN_CONST_PVOID MiniportDeviceContext, IN_ULONG MessageNumber)
{
    UNREFERENCED_PARAMETER(MessageNumber);
    return Cast(MiniportDeviceContext)->Interrupt();
}

BOOLEAN KcAdapter::Interrupt()
{
    DXGKARGCB_NOTIFY_INTERRUPT_DATA notify = {};
    notify.InterruptType = DXGK_INTERRUPT_DMA_COMPLETED;
    notify.DmaCompleted.SubmissionFenceId = m_hw->ReadFence();
    m_dxgkrnl.DxgkCbNotifyInterrupt(m_dxgkrnl.DeviceHandle, &notify);
    return m_dxgkrnl.DxgkCbQueueDpc(m_dxgkrnl.DeviceHandle);
}

NTSTATUS APIENTRY KcAdapter::DdiQueryAdapterInfo(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_QUERYADAPTERINFO pInfo)
{
    return Cast(hAdapter)->QueryAdapterInfo(pInfo);
}

NTSTATUS KcAdapter::QueryAdapterInfo(IN_CONST_PDXGKARG_QUERYADAPTERINFO pInfo)
{
    if (pInfo->Type == DXGKQAITYPE_DRIVERCAPS) {
        DXGK_DRIVERCAPS *caps = static_cast<DXGK_DRIVERCAPS *>(pInfo->pOutputData);
        memset(caps, 0, sizeof(*caps));
        caps->WDDMVersion = DXGKDDI_WDDMv1_3;
        caps->SchedulingCaps.MultiEngineAware = 1;
        caps->MemoryManagementCaps.PagingNode = 0;
        return STATUS_SUCCESS;
    }
    if (pInfo->Type == DXGKQAITYPE_QUERYSEGMENT) {
        DXGK_QUERYSEGMENTOUT *out = static_cast<DXGK_QUERYSEGMENTOUT *>(pInfo->pOutputData);
        out->NbSegment = 1;
        if (out->pSegmentDescriptor != NULL) {
            memset(out->pSegmentDescriptor, 0, sizeof(DXGK_SEGMENTDESCRIPTOR));
            out->pSegmentDescriptor->Size = 64u << 20;
            out->pSegmentDescriptor->Flags.Aperture = 1;
            out->PagingBufferSize = 4 * PAGE_SIZE;
        }
        return STATUS_SUCCESS;
    }
    return STATUS_NOT_SUPPORTED;
}

NTSTATUS APIENTRY KcAdapter::DdiCreateAllocation(IN_CONST_HANDLE hAdapter, INOUT_PDXGKARG_CREATEALLOCATION pCreate)
{
    return Cast(hAdapter)->CreateAllocation(pCreate);
}

NTSTATUS KcAdapter::CreateAllocation(INOUT_PDXGKARG_CREATEALLOCATION pCreate)
{
    for (UINT i = 0; i < pCreate->NumAllocations; i++) {
        DXGK_ALLOCATIONINFO &info = pCreate->pAllocationInfo[i];
        info.Size = PAGE_SIZE;
        info.Alignment = PAGE_SIZE;
        info.SupportedReadSegmentSet = 1;
        info.SupportedWriteSegmentSet = 1;
        info.FlagsWddm2.CpuVisible = 1;
        info.hAllocation = ExAllocatePoolWithTag(NonPagedPoolNx, 16, 'cKcK');
        if (info.hAllocation == NULL)
            return STATUS_NO_MEMORY;
    }
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY KcAdapter::DdiDestroyAllocation(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_DESTROYALLOCATION pDestroy)
{
    UNREFERENCED_PARAMETER(hAdapter);
    for (UINT i = 0; i < pDestroy->NumAllocations; i++)
        ExFreePoolWithTag(pDestroy->pAllocationList[i], 'cKcK');
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY KcAdapter::DdiBuildPagingBuffer(IN_CONST_HANDLE hAdapter, IN_PDXGKARG_BUILDPAGINGBUFFER pArgs)
{
    return Cast(hAdapter)->BuildPagingBuffer(pArgs);
}

NTSTATUS KcAdapter::BuildPagingBuffer(IN_PDXGKARG_BUILDPAGINGBUFFER pArgs)
{
    if (pArgs->Operation != DXGK_OPERATION_TRANSFER)
        return STATUS_NOT_SUPPORTED;
    if (pArgs->DmaSize < sizeof(ULONG))
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    *static_cast<ULONG *>(pArgs->pDmaBuffer) = static_cast<ULONG>(pArgs->Transfer.TransferSize);
    pArgs->pDmaBuffer = static_cast<PUCHAR>(pArgs->pDmaBuffer) + sizeof(ULONG);
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY KcAdapter::DdiPatch(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_PATCH pPatch)
{
    UNREFERENCED_PARAMETER(hAdapter);
    return pPatch->pPatchLocationList == NULL ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
}

NTSTATUS APIENTRY KcAdapter::DdiSubmitCommand(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_SUBMITCOMMAND pSubmit)
{
    Cast(hAdapter)->m_lastSubmitted = pSubmit->SubmissionFenceId;
    return STATUS_SUCCESS;
}

extern "C" NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    DRIVER_INITIALIZATION_DATA init = {};
    init.Version = DXGKDDI_INTERFACE_VERSION;
    init.DxgkDdiAddDevice = KcAdapter::DdiAddDevice;
    init.DxgkDdiStartDevice = KcAdapter::DdiStartDevice;
    init.DxgkDdiInterruptRoutine = KcAdapter::DdiInterruptRoutine;
    init.DxgkDdiQueryAdapterInfo = KcAdapter::DdiQueryAdapterInfo;
    init.DxgkDdiCreateAllocation = KcAdapter::DdiCreateAllocation;
    init.DxgkDdiDestroyAllocation = KcAdapter::DdiDestroyAllocation;
    init.DxgkDdiBuildPagingBuffer = KcAdapter::DdiBuildPagingBuffer;
    init.DxgkDdiPatch = KcAdapter::DdiPatch;
    init.DxgkDdiSubmitCommand = KcAdapter::DdiSubmitCommand;
    init.DxgkDdiCreateOverlay = NULL;
    return DxgkInitialize(DriverObject, RegistryPath, &init);
}

/* ---- The test's side ---- */
static int failures;
#define CHECK(c) ((c) ? (void)0 : (void)(failures++, printf("check failed: line %d: %s\n", __LINE__, #c)))

static DRIVER_INITIALIZATION_DATA g_table;
static UINT g_notified = ~0u;
static CM_RESOURCE_LIST g_resources;

NTSTATUS DxgkInitialize(PDRIVER_OBJECT, PUNICODE_STRING, PDRIVER_INITIALIZATION_DATA Data)
{
    g_table = *Data;
    return STATUS_SUCCESS;
}

int main()
{
    CHECK(DriverEntry(NULL, NULL) == STATUS_SUCCESS && g_table.DxgkDdiCreateOverlay == NULL);
    PVOID ctx = NULL;
    CHECK(g_table.DxgkDdiAddDevice(NULL, &ctx) == STATUS_SUCCESS && ctx == &g_adapter);
    g_resources.Count = 1;
    g_resources.List[0].PartialResourceList.Count = 1;
    g_resources.List[0].PartialResourceList.PartialDescriptors[0].Type = CmResourceTypeMemory;
    g_resources.List[0].PartialResourceList.PartialDescriptors[0].u.Memory.Start.QuadPart = 0xF0000000ll;
    DXGKRNL_INTERFACE krnl = {};
    krnl.DxgkCbGetDeviceInformation = [](HANDLE, PDXGK_DEVICE_INFO Info) -> NTSTATUS {
        *Info = DXGK_DEVICE_INFO();
        Info->TranslatedResourceList = &g_resources;
        return STATUS_SUCCESS;
    };
    krnl.DxgkCbNotifyInterrupt = [](IN_CONST_HANDLE, IN_CONST_PDXGKARGCB_NOTIFY_INTERRUPT_DATA Data) {
        g_notified = Data->DmaCompleted.SubmissionFenceId;
    };
    krnl.DxgkCbQueueDpc = [](HANDLE) -> BOOLEAN { return TRUE; };
    DXGK_START_INFO start = {};
    ULONG sources = 0, children = 0;
    CHECK(g_table.DxgkDdiStartDevice(ctx, &start, &krnl, &sources, &children) == STATUS_SUCCESS);
    CHECK(g_adapter.m_mmio.QuadPart == 0xF0000000ll);
    g_hw.Fence = 9;
    CHECK(g_table.DxgkDdiInterruptRoutine(ctx, 0) == TRUE && g_notified == 9);

    DXGK_SEGMENTDESCRIPTOR seg;
    DXGK_QUERYSEGMENTOUT qs = {};
    qs.pSegmentDescriptor = &seg;
    DXGKARG_QUERYADAPTERINFO qai = {};
    qai.Type = DXGKQAITYPE_QUERYSEGMENT;
    qai.pOutputData = &qs;
    CHECK(g_table.DxgkDdiQueryAdapterInfo(ctx, &qai) == STATUS_SUCCESS && seg.Flags.Aperture == 1);

    DXGK_ALLOCATIONINFO ai = {};
    DXGKARG_CREATEALLOCATION ca = {};
    ca.NumAllocations = 1;
    ca.pAllocationInfo = &ai;
    CHECK(g_table.DxgkDdiCreateAllocation(ctx, &ca) == STATUS_SUCCESS && ai.Flags.CpuVisible == 1);
    DXGKARG_DESTROYALLOCATION da = {};
    da.NumAllocations = 1;
    da.pAllocationList = &ai.hAllocation;
    CHECK(g_table.DxgkDdiDestroyAllocation(ctx, &da) == STATUS_SUCCESS);

    ULONG dma[2] = {0, 0};
    DXGKARG_BUILDPAGINGBUFFER build = {};
    build.pDmaBuffer = dma;
    build.DmaSize = sizeof(dma);
    build.Operation = DXGK_OPERATION_TRANSFER;
    build.Transfer.TransferSize = 4096;
    CHECK(g_table.DxgkDdiBuildPagingBuffer(ctx, &build) == STATUS_SUCCESS && dma[0] == 4096);
    DXGKARG_PATCH patch = {};
    CHECK(g_table.DxgkDdiPatch(ctx, &patch) == STATUS_SUCCESS);
    DXGKARG_SUBMITCOMMAND submit = {};
    submit.SubmissionFenceId = 3;
    CHECK(g_table.DxgkDdiSubmitCommand(ctx, &submit) == STATUS_SUCCESS && g_adapter.m_lastSubmitted == 3);

    char *text = NULL;
    CHECK(text == NULL && g_hw.ReadFence() == 9);
    printf("%s\n", failures ? "FAIL" : "ok");
    return failures != 0;
}
