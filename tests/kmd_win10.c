/* A Windows 10 (WDDM 2.x) display miniport written in C, as a paravirtual
 * driver's whole entry-point file is: DriverEntry fills the WDDM 2.x
 * members of DRIVER_INITIALIZATION_DATA; StartDevice reads device
 * properties, initialises an event and a DPC and starts a system thread
 * that completes submissions; the strings are L"..." in WCHAR arrays and
 * UNICODE_STRINGs. It compiles against include/pbcheck/wdk alone, as C11
 * with every warning an error and -fshort-wchar (as pbcheck_add_target
 * builds a target), and the test at the end runs it on the kernel
 * services. */
#include <ntddk.h>
#include <dispmprt.h>

#define PV_POOL_TAG 0x30315650u /* 'PV10' */

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
    UNREFERENCED_PARAMETER(DxgkInterface);
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
    ExFreePoolWithTag(MiniportDeviceContext, PV_POOL_TAG);
    return STATUS_SUCCESS;
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

DRIVER_INITIALIZE DriverEntry;

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    DRIVER_INITIALIZATION_DATA init;
    RtlZeroMemory(&init, sizeof(init));
    init.Version = DXGKDDI_INTERFACE_VERSION_WDDM2_0;
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

NTSTATUS DxgkInitialize(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath,
                        PDRIVER_INITIALIZATION_DATA Data)
{
    (void)DriverObject;
    (void)RegistryPath;
    g_table = *Data;
    return STATUS_SUCCESS;
}

int main(void)
{
    char first[256];
    pbc_kernel_reset();
    CHECK(DriverEntry(NULL, NULL) == STATUS_SUCCESS);
    CHECK(g_table.Version == DXGKDDI_INTERFACE_VERSION_WDDM2_0 && g_table.DxgkDdiSubmitCommandVirtual != NULL);
    CHECK(strstr(pbc_kernel_log(NULL), "pvgpu: DriverEntry") != NULL);

    PVOID context = NULL;
    DXGKRNL_INTERFACE krnl;
    DXGK_START_INFO start;
    RtlZeroMemory(&krnl, sizeof(krnl));
    RtlZeroMemory(&start, sizeof(start));
    ULONG sources = 0, children = 0;
    pbc_kernel_enter();
    CHECK(g_table.DxgkDdiAddDevice((PDEVICE_OBJECT)(void *)&g_pdo, &context) == STATUS_SUCCESS);
    CHECK(g_table.DxgkDdiStartDevice(context, &start, &krnl, &sources, &children) == STATUS_SUCCESS);
    PPV_ADAPTER adapter = (PPV_ADAPTER)context;
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

    CHECK(g_table.DxgkDdiStopDevice(context) == STATUS_SUCCESS);
    CHECK(g_table.DxgkDdiRemoveDevice(context) == STATUS_SUCCESS);
    pbc_kernel_leave();
    CHECK(pbc_kernel_take_threads(first, sizeof(first)) == 0);
    CHECK(pbc_kernel_take_lock_errors(first, sizeof(first)) == 0);
    CHECK(pbc_kernel_take_bugchecks(first, sizeof(first)) == 0);
    CHECK(pbc_kernel_take_leaks(first, sizeof(first)) == 0);
    pbc_kernel_reset();

    printf("%s\n", failures ? "FAIL" : "ok");
    return failures != 0;
}
