/* A translation unit shaped like a display miniport's source: it includes
 * what drivers include, by the names drivers use, and is compiled against
 * include/pbcheck/wdk only, as C11 here and as C++17 through
 * driver_shaped.cpp, with every warning an error. Its runtime checks run
 * the inline kernel helpers and the simple services it links with. */
#include <ntddk.h>
#include <dispmprt.h>
#include <ntstrsafe.h>
#include <dderror.h>
#include <devioctl.h>

#include "driver_shaped.h"

#include <stdio.h>

#define IOCTL_DS_QUERY CTL_CODE(FILE_DEVICE_VIDEO, 0x800, METHOD_BUFFERED, FILE_ANY_ACCESS)

typedef struct _DS_PENDING {
    ULONG32 FenceId;
    LIST_ENTRY Link;
    BYTE Engine;
} DS_PENDING, *PDS_PENDING;

typedef struct _DS_ADAPTER {
    KEVENT Idle;
    KSPIN_LOCK Lock;
    LIST_ENTRY Pending;
    DXGKRNL_INTERFACE Dxgkrnl;
    FLOAT Scale;
    ULONG32 LastFence;
    UINT PagingSegment;
} DS_ADAPTER, *PDS_ADAPTER;

C_ASSERT(sizeof(DS_PENDING) == 32);
C_ASSERT(FIELD_OFFSET(DS_PENDING, Link) == 8);

static DS_ADAPTER g_adapter;

DXGKDDI_PATCH DsPatch;
DXGKDDI_SUBMITCOMMAND DsSubmitCommand;
DXGKDDI_BUILDPAGINGBUFFER DsBuildPagingBuffer;
DXGKDDI_QUERYADAPTERINFO DsQueryAdapterInfo;

static __forceinline ULONG32 DsAlignUp(ULONG32 Value, ULONG32 Alignment)
{
    return (Value + Alignment - 1) & ~(Alignment - 1);
}

FORCEINLINE BOOLEAN DsIsPagingSubmit(IN_CONST_PDXGKARG_SUBMITCOMMAND pSubmit)
{
    return (BOOLEAN)(pSubmit->Flags.Paging != 0);
}

static FORCEINLINE ULONG DsPendingCount(const LIST_ENTRY *Head)
{
    ULONG n = 0;
    for (const LIST_ENTRY *e = Head->Flink; e != Head; e = e->Flink)
        n++;
    return n;
}

_IRQL_requires_max_(DISPATCH_LEVEL) _Must_inspect_result_ static NTSTATUS
DsCopyName(_Out_writes_bytes_(cb) PSTR Buffer, _In_ SIZE_T cb, _In_opt_ PCSTR Name)
{
    if (!ARGUMENT_PRESENT(Name))
        return STATUS_INVALID_PARAMETER;
    return RtlStringCbPrintfA(Buffer, cb, "adapter-%s-%u", Name, (UINT)DS_MAX_PENDING);
}

_Use_decl_annotations_ NTSTATUS APIENTRY DsPatch(IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARG_PATCH pPatch)
{
    UNREFERENCED_PARAMETER(hAdapter);
    PBYTE dma = (PBYTE)pPatch->pDmaBuffer;
    CONST ULONG UNALIGNED *first = (CONST ULONG UNALIGNED *)(dma + pPatch->DmaBufferSubmissionStartOffset);
    if (pPatch->Flags.Paging && pPatch->pPatchLocationList != NULL)
        return STATUS_INVALID_PARAMETER;
    return *first == 0 ? STATUS_SUCCESS : STATUS_UNSUCCESSFUL;
}

_Use_decl_annotations_ NTSTATUS APIENTRY DsSubmitCommand(IN_CONST_HANDLE hAdapter,
                                                         IN_CONST_PDXGKARG_SUBMITCOMMAND pSubmitCommand)
{
    PDS_ADAPTER adapter = (PDS_ADAPTER)hAdapter;
    PDS_PENDING p = (PDS_PENDING)ExAllocatePool2(POOL_FLAG_NON_PAGED, sizeof(DS_PENDING), DS_POOL_TAG);
    if (p == NULL)
        return STATUS_INSUFFICIENT_RESOURCES;
    p->FenceId = pSubmitCommand->SubmissionFenceId;
    p->Engine = (BYTE)pSubmitCommand->NodeOrdinal;
    InsertTailList(&adapter->Pending, &p->Link);
    DbgPrintEx(DPFLTR_IHVVIDEO_ID, DPFLTR_TRACE_LEVEL, "submit fence %lu on node %u\n",
               (ULONG)p->FenceId, pSubmitCommand->NodeOrdinal);
    return STATUS_SUCCESS;
}

_Use_decl_annotations_ NTSTATUS APIENTRY DsBuildPagingBuffer(IN_CONST_HANDLE hAdapter,
                                                             IN_PDXGKARG_BUILDPAGINGBUFFER pArgs)
{
    UNREFERENCED_PARAMETER(hAdapter);
    switch (pArgs->Operation) {
    case DXGK_OPERATION_FILL:
        if (pArgs->DmaSize < 16)
            return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
        RtlFillMemory(pArgs->pDmaBuffer, 16, 0);
        pArgs->pDmaBuffer = (PBYTE)pArgs->pDmaBuffer + 16;
        return STATUS_SUCCESS;
    default:
        return STATUS_NOT_SUPPORTED;
    }
}

_Use_decl_annotations_ NTSTATUS APIENTRY DsQueryAdapterInfo(IN_CONST_HANDLE hAdapter,
                                                            IN_CONST_PDXGKARG_QUERYADAPTERINFO pInfo)
{
    PDS_ADAPTER adapter = (PDS_ADAPTER)hAdapter;
    switch (pInfo->Type) {
    case DXGKQAITYPE_DRIVERCAPS: {
        DXGK_DRIVERCAPS *caps = (DXGK_DRIVERCAPS *)pInfo->pOutputData;
        if (pInfo->OutputDataSize < sizeof(*caps))
            return STATUS_BUFFER_TOO_SMALL;
        RtlZeroMemory(caps, sizeof(*caps));
        caps->HighestAcceptableAddress.QuadPart = -1;
        caps->MaxAllocationListSlotId = 16;
        caps->MemoryManagementCaps.PagingNode = 0;
        caps->SchedulingCaps.MultiEngineAware = 1;
        caps->WDDMVersion = DXGKDDI_WDDMv1_2;
        caps->SupportNonVGA = TRUE;
        return STATUS_SUCCESS;
    }
    case DXGKQAITYPE_QUERYSEGMENT: {
        DXGK_QUERYSEGMENTOUT *out = (DXGK_QUERYSEGMENTOUT *)pInfo->pOutputData;
        if (out->pSegmentDescriptor == NULL) {
            out->NbSegment = 1;
            return STATUS_SUCCESS;
        }
        RtlZeroMemory(out->pSegmentDescriptor, sizeof(DXGK_SEGMENTDESCRIPTOR));
        out->pSegmentDescriptor[0].Size = 64u << 20;
        out->pSegmentDescriptor[0].Flags.Aperture = 1;
        out->PagingBufferSegmentId = adapter->PagingSegment;
        out->PagingBufferSize = DsAlignUp(60000, PAGE_SIZE);
        out->PagingBufferPrivateDataSize = 0;
        return STATUS_SUCCESS;
    }
    default:
        return STATUS_NOT_SUPPORTED;
    }
}

static int failures;
#define CHECK(c) ((c) ? (void)0 : (void)(failures++, printf("check failed: line %d: %s\n", __LINE__, #c)))

int main(void)
{
    DRIVER_INITIALIZATION_DATA init;
    RtlZeroMemory(&init, sizeof(init));
    init.Version = DXGKDDI_INTERFACE_VERSION;
    init.DxgkDdiPatch = DsPatch;
    init.DxgkDdiSubmitCommand = DsSubmitCommand;
    init.DxgkDdiBuildPagingBuffer = DsBuildPagingBuffer;
    init.DxgkDdiQueryAdapterInfo = DsQueryAdapterInfo;

    /* LLP64 sizes, as the driver was written for. */
    CHECK(sizeof(ULONG) == 4 && sizeof(LONG) == 4 && sizeof(ULONG_PTR) == 8 && sizeof(WCHAR) == 2);
    CHECK(sizeof(PFN_NUMBER) == 8);
    CHECK(IOCTL_DS_QUERY == 0x232000u && METHOD_FROM_CTL_CODE(IOCTL_DS_QUERY) == METHOD_BUFFERED);
    CHECK(NO_ERROR == 0 && ERROR_INVALID_PARAMETER == 87);

    /* Status macros. */
    CHECK(NT_SUCCESS(STATUS_SUCCESS) && NT_SUCCESS(STATUS_PENDING) && NT_SUCCESS(STATUS_TIMEOUT));
    CHECK(!NT_SUCCESS(STATUS_UNSUCCESSFUL) && !NT_SUCCESS(STATUS_BUFFER_OVERFLOW));
    CHECK(NT_ERROR(STATUS_NO_MEMORY) && NT_WARNING(STATUS_BUFFER_OVERFLOW));
    CHECK((ULONG)STATUS_INSUFFICIENT_RESOURCES == 0xC000009Au);

    /* A queue of submissions: lists, CONTAINING_RECORD, pool. */
    PDS_ADAPTER adapter = &g_adapter;
    InitializeListHead(&adapter->Pending);
    KeInitializeSpinLock(&adapter->Lock);
    KeInitializeEvent(&adapter->Idle, NotificationEvent, FALSE);
    adapter->Scale = 1.5f;
    adapter->PagingSegment = 2;
    CHECK(IsListEmpty(&adapter->Pending));
    DXGKARG_SUBMITCOMMAND submit;
    RtlZeroMemory(&submit, sizeof(submit));
    for (UINT i = 0; i < 3; i++) {
        submit.SubmissionFenceId = 10 + i;
        submit.NodeOrdinal = i;
        CHECK(init.DxgkDdiSubmitCommand(adapter, &submit) == STATUS_SUCCESS);
    }
    CHECK(DsPendingCount(&adapter->Pending) == 3 && !DsIsPagingSubmit(&submit));
    PLIST_ENTRY e = RemoveHeadList(&adapter->Pending);
    PDS_PENDING first = CONTAINING_RECORD(e, DS_PENDING, Link);
    CHECK(first->FenceId == 10 && first->Engine == 0);
    ExFreePoolWithTag(first, DS_POOL_TAG);
    e = RemoveTailList(&adapter->Pending);
    PDS_PENDING last = CONTAINING_RECORD(e, DS_PENDING, Link);
    CHECK(last->FenceId == 12);
    ExFreePoolWithTag(last, DS_POOL_TAG);
    PDS_PENDING mid = CONTAINING_RECORD(adapter->Pending.Flink, DS_PENDING, Link);
    CHECK(mid->FenceId == 11 && mid->Link.Flink == &adapter->Pending);
    CHECK(RemoveEntryList(&mid->Link) == TRUE && IsListEmpty(&adapter->Pending));
    ExFreePool(mid);
    SINGLE_LIST_ENTRY stack, s1, s2;
    stack.Next = NULL;
    PushEntryList(&stack, &s1);
    PushEntryList(&stack, &s2);
    CHECK(PopEntryList(&stack) == &s2 && PopEntryList(&stack) == &s1 && PopEntryList(&stack) == NULL);

    /* Events. */
    CHECK(KeSetEvent(&adapter->Idle, IO_NO_INCREMENT, FALSE) == 0);
    CHECK(KeReadStateEvent(&adapter->Idle) == 1);

    /* Strings. */
    char name[16];
    CHECK(DsCopyName(name, sizeof(name), "vc4") == STATUS_SUCCESS && strcmp(name, "adapter-vc4-8") == 0);
    CHECK(DsCopyName(name, 8, "vc4") == STATUS_BUFFER_OVERFLOW && strcmp(name, "adapter") == 0);
    CHECK(DsCopyName(name, sizeof(name), NULL) == STATUS_INVALID_PARAMETER);
    WCHAR wide[8];
    CHECK(RtlStringCchCopyW(wide, ARRAYSIZE(wide), u"dxgk") == STATUS_SUCCESS && wide[4] == 0 && wide[0] == 'd');
    UNICODE_STRING us;
    us.Buffer = wide;
    us.Length = 4 * sizeof(WCHAR);
    us.MaximumLength = sizeof(wide);
    DbgPrint("%wZ\n", &us);

    /* DDIs through the table. */
    ULONG dmaWords[4] = {0, 0, 0, 0};
    DXGKARG_PATCH patch;
    RtlZeroMemory(&patch, sizeof(patch));
    patch.pDmaBuffer = dmaWords;
    patch.DmaBufferSize = sizeof(dmaWords);
    CHECK(init.DxgkDdiPatch(adapter, &patch) == STATUS_SUCCESS);
    BYTE dma[32];
    DXGKARG_BUILDPAGINGBUFFER build;
    RtlZeroMemory(&build, sizeof(build));
    build.pDmaBuffer = dma;
    build.DmaSize = sizeof(dma);
    build.Operation = DXGK_OPERATION_FILL;
    CHECK(init.DxgkDdiBuildPagingBuffer(adapter, &build) == STATUS_SUCCESS && build.pDmaBuffer == dma + 16);
    DXGK_SEGMENTDESCRIPTOR seg;
    DXGK_QUERYSEGMENTOUT segs;
    RtlZeroMemory(&segs, sizeof(segs));
    DXGKARG_QUERYADAPTERINFO qai;
    RtlZeroMemory(&qai, sizeof(qai));
    qai.Type = DXGKQAITYPE_QUERYSEGMENT;
    qai.pOutputData = &segs;
    qai.OutputDataSize = sizeof(segs);
    CHECK(init.DxgkDdiQueryAdapterInfo(adapter, &qai) == STATUS_SUCCESS && segs.NbSegment == 1);
    segs.pSegmentDescriptor = &seg;
    CHECK(init.DxgkDdiQueryAdapterInfo(adapter, &qai) == STATUS_SUCCESS && segs.PagingBufferSegmentId == 2 &&
          segs.PagingBufferSize == 61440 && seg.Flags.Value == 1);
    DXGK_DRIVERCAPS caps;
    qai.Type = DXGKQAITYPE_DRIVERCAPS;
    qai.pOutputData = &caps;
    qai.OutputDataSize = sizeof(caps);
    CHECK(init.DxgkDdiQueryAdapterInfo(adapter, &qai) == STATUS_SUCCESS && caps.SchedulingCaps.Value == 1);
    CHECK(RtlCompareMemory(dma, dmaWords, 16) == 16);

    printf("%s\n", failures ? "FAIL" : "ok");
    return failures != 0;
}
