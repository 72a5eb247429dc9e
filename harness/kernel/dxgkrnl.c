/*
 * The DXGKRNL_INTERFACE a driver receives in DxgkDdiStartDevice, as
 * pbcheck hands it: pbc_wdk_dxgkrnl_interface fills every member Windows
 * has through WDDM 2.7, in Windows' order. pbcheck models VidMm's paging
 * path, not Dxgkrnl, so it serves none of these callbacks itself; each is a
 * trap that records the call as a kernel finding naming the callback
 * (pbc_kernel_take_unserved) and fails it as a driver must expect a
 * callback to fail: STATUS_NOT_SUPPORTED, or NULL, 0 or FALSE where the
 * callback returns something else. A driver started with this table
 * therefore never calls through NULL, and never gets a success it did not
 * earn. A glue that serves a callback overwrites its member after the call.
 */
#include <pbcheck/wdk/dispmprt.h>

#include "kernel/services.h"

/* A trap looks at none of its arguments: it only says which callback the
 * driver called. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define KD_TRAP(ret, member, fail, params)       \
    static ret APIENTRY kd_##member params       \
    {                                            \
        pbc_kernel_unserved(#member);            \
        return fail;                             \
    }
#define KD_TRAP_VOID(member, params)             \
    static VOID APIENTRY kd_##member params      \
    {                                            \
        pbc_kernel_unserved(#member);            \
    }

KD_TRAP(NTSTATUS, DxgkCbEvalAcpiMethod, STATUS_NOT_SUPPORTED,
        (HANDLE DeviceHandle, ULONG DeviceUid, PACPI_EVAL_INPUT_BUFFER_COMPLEX AcpiInputBuffer, ULONG AcpiInputSize,
         PACPI_EVAL_OUTPUT_BUFFER AcpiOutputBuffer, ULONG AcpiOutputSize))
KD_TRAP(NTSTATUS, DxgkCbGetDeviceInformation, STATUS_NOT_SUPPORTED,
        (HANDLE DeviceHandle, PDXGK_DEVICE_INFO DeviceInfo))
KD_TRAP(NTSTATUS, DxgkCbIndicateChildStatus, STATUS_NOT_SUPPORTED,
        (HANDLE DeviceHandle, PDXGK_CHILD_STATUS ChildStatus))
KD_TRAP(NTSTATUS, DxgkCbMapMemory, STATUS_NOT_SUPPORTED,
        (HANDLE DeviceHandle, PHYSICAL_ADDRESS TranslatedAddress, ULONG Length, BOOLEAN InIoSpace,
         BOOLEAN MapToUserMode, MEMORY_CACHING_TYPE CacheType, PVOID *VirtualAddress))
KD_TRAP(BOOLEAN, DxgkCbQueueDpc, FALSE, (HANDLE DeviceHandle))
KD_TRAP(NTSTATUS, DxgkCbQueryServices, STATUS_NOT_SUPPORTED,
        (HANDLE DeviceHandle, ULONG ServicesType, PINTERFACE Interface))
KD_TRAP(NTSTATUS, DxgkCbReadDeviceSpace, STATUS_NOT_SUPPORTED,
        (HANDLE DeviceHandle, ULONG DataType, PVOID Buffer, ULONG Offset, ULONG Length, PULONG BytesRead))
KD_TRAP(NTSTATUS, DxgkCbSynchronizeExecution, STATUS_NOT_SUPPORTED,
        (HANDLE DeviceHandle, PKSYNCHRONIZE_ROUTINE SynchronizeRoutine, PVOID Context, ULONG MessageNumber,
         PBOOLEAN ReturnValue))
KD_TRAP(NTSTATUS, DxgkCbUnmapMemory, STATUS_NOT_SUPPORTED, (HANDLE DeviceHandle, PVOID VirtualAddress))
KD_TRAP(NTSTATUS, DxgkCbWriteDeviceSpace, STATUS_NOT_SUPPORTED,
        (HANDLE DeviceHandle, ULONG DataType, PVOID Buffer, ULONG Offset, ULONG Length, PULONG BytesWritten))
KD_TRAP(NTSTATUS, DxgkCbIsDevicePresent, STATUS_NOT_SUPPORTED,
        (HANDLE DeviceHandle, PVOID DeviceData, PBOOLEAN DevicePresent))
KD_TRAP(PVOID, DxgkCbGetHandleData, NULL, (IN_CONST_PDXGKARGCB_GETHANDLEDATA pData))
KD_TRAP(HANDLE, DxgkCbGetHandleParent, NULL, (HANDLE hAllocation))
KD_TRAP(D3DKMT_HANDLE, DxgkCbEnumHandleChildren, 0, (IN_CONST_PDXGKARGCB_ENUMHANDLECHILDREN pData))
KD_TRAP_VOID(DxgkCbNotifyInterrupt,
             (IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARGCB_NOTIFY_INTERRUPT_DATA pNotifyInterruptData))
KD_TRAP_VOID(DxgkCbNotifyDpc, (IN_CONST_HANDLE hAdapter))
KD_TRAP(NTSTATUS, DxgkCbQueryVidPnInterface, STATUS_NOT_SUPPORTED,
        (IN_CONST_D3DKMDT_HVIDPN hVidPn, DXGK_VIDPN_INTERFACE_VERSION VidPnInterfaceVersion,
         const DXGK_VIDPN_INTERFACE **ppVidPnInterface))
KD_TRAP(NTSTATUS, DxgkCbQueryMonitorInterface, STATUS_NOT_SUPPORTED,
        (IN_CONST_HANDLE hAdapter, DXGK_MONITOR_INTERFACE_VERSION MonitorInterfaceVersion,
         const DXGK_MONITOR_INTERFACE **ppMonitorInterface))
KD_TRAP(NTSTATUS, DxgkCbGetCaptureAddress, STATUS_NOT_SUPPORTED,
        (DXGKARGCB_GETCAPTUREADDRESS * pGetCaptureAddress))
KD_TRAP_VOID(DxgkCbLogEtwEvent, (LPCGUID EventGuid, UCHAR Type, USHORT EventBufferSize, PVOID EventBuffer))
KD_TRAP(NTSTATUS, DxgkCbExcludeAdapterAccess, STATUS_NOT_SUPPORTED,
        (HANDLE DeviceHandle, ULONG Attributes, PDXGKDDI_PROTECTED_CALLBACK DxgkProtectedCallback,
         PVOID ProtectedCallbackContext))
KD_TRAP(NTSTATUS, DxgkCbCreateContextAllocation, STATUS_NOT_SUPPORTED, (DXGKARGCB_CREATECONTEXTALLOCATION * pArgs))
KD_TRAP(NTSTATUS, DxgkCbDestroyContextAllocation, STATUS_NOT_SUPPORTED,
        (IN_CONST_HANDLE hAdapter, IN_CONST_HANDLE hAllocation))
KD_TRAP(NTSTATUS, DxgkCbSetPowerComponentActive, STATUS_NOT_SUPPORTED,
        (IN_CONST_HANDLE hAdapter, UINT ComponentIndex))
KD_TRAP(NTSTATUS, DxgkCbSetPowerComponentIdle, STATUS_NOT_SUPPORTED, (IN_CONST_HANDLE hAdapter, UINT ComponentIndex))
KD_TRAP(NTSTATUS, DxgkCbAcquirePostDisplayOwnership, STATUS_NOT_SUPPORTED,
        (HANDLE DeviceHandle, PDXGK_DISPLAY_INFORMATION DisplayInfo))
KD_TRAP(NTSTATUS, DxgkCbPowerRuntimeControlRequest, STATUS_NOT_SUPPORTED,
        (IN_CONST_HANDLE hAdapter, LPCGUID PowerControlCode, PVOID InBuffer, SIZE_T InBufferSize, PVOID OutBuffer,
         SIZE_T OutBufferSize, PSIZE_T BytesReturned))
KD_TRAP_VOID(DxgkCbSetPowerComponentLatency, (IN_CONST_HANDLE hAdapter, UINT ComponentIndex, ULONGLONG Latency))
KD_TRAP_VOID(DxgkCbSetPowerComponentResidency,
             (IN_CONST_HANDLE hAdapter, UINT ComponentIndex, ULONGLONG Residency))
KD_TRAP_VOID(DxgkCbCompleteFStateTransition, (IN_CONST_HANDLE hAdapter, UINT ComponentIndex))
KD_TRAP_VOID(DxgkCbCompletePStateTransition, (IN_CONST_HANDLE hAdapter, UINT ComponentIndex, UINT CompletedPState))
KD_TRAP(D3DGPU_VIRTUAL_ADDRESS, DxgkCbMapContextAllocation, 0,
        (IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARGCB_MAPCONTEXTALLOCATION pArgs))
KD_TRAP(NTSTATUS, DxgkCbUpdateContextAllocation, STATUS_NOT_SUPPORTED,
        (IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARGCB_UPDATECONTEXTALLOCATION pArgs))
KD_TRAP(NTSTATUS, DxgkCbReserveGpuVirtualAddressRange, STATUS_NOT_SUPPORTED,
        (IN_CONST_HANDLE hAdapter, INOUT_PDXGKARGCB_RESERVEGPUVIRTUALADDRESSRANGE pArgs))
KD_TRAP(VOID *, DxgkCbAcquireHandleData, NULL,
        (IN_CONST_PDXGKARGCB_GETHANDLEDATA pArgs, PDXGKARG_RELEASE_HANDLE pReleaseHandle))
KD_TRAP_VOID(DxgkCbReleaseHandleData, (IN_CONST_DXGKARGCB_RELEASEHANDLEDATA ReleaseHandleData))
KD_TRAP_VOID(DxgkCbHardwareContentProtectionTeardown, (IN_CONST_HANDLE hAdapter, UINT Flags))
KD_TRAP_VOID(DxgkCbMultiPlaneOverlayDisabled, (IN_CONST_HANDLE hAdapter, UINT VidPnSourceId))
/* No page types these two: their traps take nothing, and a driver that
 * casts the slot to what it believes and calls it still reaches them. */
KD_TRAP(NTSTATUS, DxgkCbMitigatedRangeUpdate, STATUS_NOT_SUPPORTED, (void))
KD_TRAP(NTSTATUS, DxgkCbInvalidateHwContext, STATUS_NOT_SUPPORTED, (IN_CONST_PDXGKARGCB_INVALIDATEHWCONTEXT pArgs))
KD_TRAP(NTSTATUS, DxgkCbIndicateConnectorChange, STATUS_NOT_SUPPORTED, (IN_CONST_HANDLE hAdapter))
KD_TRAP(NTSTATUS, DxgkCbUnblockUEFIFrameBufferRanges, STATUS_NOT_SUPPORTED, (void))
KD_TRAP(NTSTATUS, DxgkCbAcquirePostDisplayOwnership2, STATUS_NOT_SUPPORTED,
        (HANDLE DeviceHandle, PDXGK_DISPLAY_INFORMATION DisplayInfo, PDXGK_DISPLAY_OWNERSHIP_FLAGS Flags))
KD_TRAP(NTSTATUS, DxgkCbSetProtectedSessionStatus, STATUS_NOT_SUPPORTED,
        (IN_CONST_PDXGKARGCB_PROTECTEDSESSIONSTATUS pArgs))
KD_TRAP(NTSTATUS, DxgkCbAllocateContiguousMemory, STATUS_NOT_SUPPORTED,
        (IN_CONST_HANDLE hAdapter, INOUT_PDXGKARGCB_ALLOCATECONTIGUOUSMEMORY pArgs))
KD_TRAP(NTSTATUS, DxgkCbFreeContiguousMemory, STATUS_NOT_SUPPORTED,
        (IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARGCB_FREECONTIGUOUSMEMORY pArgs))
KD_TRAP(NTSTATUS, DxgkCbAllocatePagesForMdl, STATUS_NOT_SUPPORTED,
        (IN_CONST_HANDLE hAdapter, INOUT_PDXGKARGCB_ALLOCATEPAGESFORMDL pArgs))
KD_TRAP(NTSTATUS, DxgkCbFreePagesFromMdl, STATUS_NOT_SUPPORTED,
        (IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARGCB_FREEPAGESFROMMDL pArgs))
KD_TRAP(NTSTATUS, DxgkCbPinFrameBufferForSave, STATUS_NOT_SUPPORTED,
        (IN_CONST_HANDLE hAdapter, INOUT_PDXGKARGCB_PINFRAMEBUFFERFORSAVE pArgs))
KD_TRAP(NTSTATUS, DxgkCbUnpinFrameBufferForSave, STATUS_NOT_SUPPORTED,
        (IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARGCB_UNPINFRAMEBUFFERFORSAVE pArgs))
KD_TRAP(NTSTATUS, DxgkCbMapFrameBufferPointer, STATUS_NOT_SUPPORTED,
        (IN_CONST_HANDLE hAdapter, INOUT_PDXGKARGCB_MAPFRAMEBUFFERPOINTER pArgs))
KD_TRAP(NTSTATUS, DxgkCbUnmapFrameBufferPointer, STATUS_NOT_SUPPORTED,
        (IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARGCB_UNMAPFRAMEBUFFERPOINTER pArgs))
KD_TRAP(NTSTATUS, DxgkCbMapMdlToIoMmu, STATUS_NOT_SUPPORTED,
        (IN_CONST_HANDLE hAdapter, INOUT_PDXGKARGCB_MAPMDLTOIOMMU pArgs))
KD_TRAP_VOID(DxgkCbUnmapMdlFromIoMmu, (IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARGCB_UNMAPMDLFROMIOMMU pArgs))
KD_TRAP(NTSTATUS, DxgkCbReportDiagnostic, STATUS_NOT_SUPPORTED,
        (HANDLE DeviceHandle, IN_PDXGK_DIAGNOSTIC_HEADER pDiagnostic))
KD_TRAP(NTSTATUS, DxgkCbSignalEvent, STATUS_NOT_SUPPORTED, (IN_CONST_PDXGKARGCB_SIGNALEVENT pArgs))
KD_TRAP(NTSTATUS, DxgkCbIsFeatureEnabled, STATUS_NOT_SUPPORTED, (INOUT_PDXGKARGCB_ISFEATUREENABLED pArgs))
KD_TRAP(NTSTATUS, DxgkCbSaveMemoryForHotUpdate, STATUS_NOT_SUPPORTED,
        (IN_CONST_HANDLE hAdapter, IN_CONST_PDXGKARGCB_SAVEMEMORYFORHOTUPDATE pArgs))

/* The caller's table is as long as its DXGKDDI_INTERFACE_VERSION makes it,
 * which may be shorter than pbcheck's: the whole table is built here and
 * its first InterfaceSize bytes copied, as every member a version adds
 * comes after the older ones. */
VOID pbc_wdk_dxgkrnl_interface(HANDLE DeviceHandle, PDXGKRNL_INTERFACE Interface, SIZE_T InterfaceSize)
{
    DXGKRNL_INTERFACE full;
    RtlZeroMemory(&full, sizeof(full));
    SIZE_T size = InterfaceSize < sizeof(full) ? InterfaceSize : sizeof(full);
    full.Size = (ULONG)size;
    full.Version = DXGKDDI_INTERFACE_VERSION;
    full.DeviceHandle = DeviceHandle;
    full.DxgkCbEvalAcpiMethod = kd_DxgkCbEvalAcpiMethod;
    full.DxgkCbGetDeviceInformation = kd_DxgkCbGetDeviceInformation;
    full.DxgkCbIndicateChildStatus = kd_DxgkCbIndicateChildStatus;
    full.DxgkCbMapMemory = kd_DxgkCbMapMemory;
    full.DxgkCbQueueDpc = kd_DxgkCbQueueDpc;
    full.DxgkCbQueryServices = kd_DxgkCbQueryServices;
    full.DxgkCbReadDeviceSpace = kd_DxgkCbReadDeviceSpace;
    full.DxgkCbSynchronizeExecution = kd_DxgkCbSynchronizeExecution;
    full.DxgkCbUnmapMemory = kd_DxgkCbUnmapMemory;
    full.DxgkCbWriteDeviceSpace = kd_DxgkCbWriteDeviceSpace;
    full.DxgkCbIsDevicePresent = kd_DxgkCbIsDevicePresent;
    full.DxgkCbGetHandleData = kd_DxgkCbGetHandleData;
    full.DxgkCbGetHandleParent = kd_DxgkCbGetHandleParent;
    full.DxgkCbEnumHandleChildren = kd_DxgkCbEnumHandleChildren;
    full.DxgkCbNotifyInterrupt = kd_DxgkCbNotifyInterrupt;
    full.DxgkCbNotifyDpc = kd_DxgkCbNotifyDpc;
    full.DxgkCbQueryVidPnInterface = kd_DxgkCbQueryVidPnInterface;
    full.DxgkCbQueryMonitorInterface = kd_DxgkCbQueryMonitorInterface;
    full.DxgkCbGetCaptureAddress = kd_DxgkCbGetCaptureAddress;
    full.DxgkCbLogEtwEvent = kd_DxgkCbLogEtwEvent;
    full.DxgkCbExcludeAdapterAccess = kd_DxgkCbExcludeAdapterAccess;
    full.DxgkCbCreateContextAllocation = kd_DxgkCbCreateContextAllocation;
    full.DxgkCbDestroyContextAllocation = kd_DxgkCbDestroyContextAllocation;
    full.DxgkCbSetPowerComponentActive = kd_DxgkCbSetPowerComponentActive;
    full.DxgkCbSetPowerComponentIdle = kd_DxgkCbSetPowerComponentIdle;
    full.DxgkCbAcquirePostDisplayOwnership = kd_DxgkCbAcquirePostDisplayOwnership;
    full.DxgkCbPowerRuntimeControlRequest = kd_DxgkCbPowerRuntimeControlRequest;
    full.DxgkCbSetPowerComponentLatency = kd_DxgkCbSetPowerComponentLatency;
    full.DxgkCbSetPowerComponentResidency = kd_DxgkCbSetPowerComponentResidency;
    full.DxgkCbCompleteFStateTransition = kd_DxgkCbCompleteFStateTransition;
    full.DxgkCbCompletePStateTransition = kd_DxgkCbCompletePStateTransition;
    full.DxgkCbMapContextAllocation = kd_DxgkCbMapContextAllocation;
    full.DxgkCbUpdateContextAllocation = kd_DxgkCbUpdateContextAllocation;
    full.DxgkCbReserveGpuVirtualAddressRange = kd_DxgkCbReserveGpuVirtualAddressRange;
    full.DxgkCbAcquireHandleData = kd_DxgkCbAcquireHandleData;
    full.DxgkCbReleaseHandleData = kd_DxgkCbReleaseHandleData;
    full.DxgkCbHardwareContentProtectionTeardown = kd_DxgkCbHardwareContentProtectionTeardown;
    full.DxgkCbMultiPlaneOverlayDisabled = kd_DxgkCbMultiPlaneOverlayDisabled;
    full.DxgkCbMitigatedRangeUpdate = (PVOID)kd_DxgkCbMitigatedRangeUpdate;
    full.DxgkCbInvalidateHwContext = kd_DxgkCbInvalidateHwContext;
    full.DxgkCbIndicateConnectorChange = kd_DxgkCbIndicateConnectorChange;
    full.DxgkCbUnblockUEFIFrameBufferRanges = (PVOID)kd_DxgkCbUnblockUEFIFrameBufferRanges;
    full.DxgkCbAcquirePostDisplayOwnership2 = kd_DxgkCbAcquirePostDisplayOwnership2;
    full.DxgkCbSetProtectedSessionStatus = kd_DxgkCbSetProtectedSessionStatus;
    full.DxgkCbAllocateContiguousMemory = kd_DxgkCbAllocateContiguousMemory;
    full.DxgkCbFreeContiguousMemory = kd_DxgkCbFreeContiguousMemory;
    full.DxgkCbAllocatePagesForMdl = kd_DxgkCbAllocatePagesForMdl;
    full.DxgkCbFreePagesFromMdl = kd_DxgkCbFreePagesFromMdl;
    full.DxgkCbPinFrameBufferForSave = kd_DxgkCbPinFrameBufferForSave;
    full.DxgkCbUnpinFrameBufferForSave = kd_DxgkCbUnpinFrameBufferForSave;
    full.DxgkCbMapFrameBufferPointer = kd_DxgkCbMapFrameBufferPointer;
    full.DxgkCbUnmapFrameBufferPointer = kd_DxgkCbUnmapFrameBufferPointer;
    full.DxgkCbMapMdlToIoMmu = kd_DxgkCbMapMdlToIoMmu;
    full.DxgkCbUnmapMdlFromIoMmu = kd_DxgkCbUnmapMdlFromIoMmu;
    full.DxgkCbReportDiagnostic = kd_DxgkCbReportDiagnostic;
    full.DxgkCbSignalEvent = kd_DxgkCbSignalEvent;
    full.DxgkCbIsFeatureEnabled = kd_DxgkCbIsFeatureEnabled;
    full.DxgkCbSaveMemoryForHotUpdate = kd_DxgkCbSaveMemoryForHotUpdate;
    RtlZeroMemory(Interface, InterfaceSize);
    RtlCopyMemory(Interface, &full, size);
}
