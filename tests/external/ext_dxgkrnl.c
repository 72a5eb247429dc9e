/*
 * The reference builder whose create_adapter runs a Windows 10 driver's
 * StartDevice on the DXGKRNL_INTERFACE pbcheck hands a driver
 * (pbc_wdk_dxgkrnl_interface): it tells the OS about its connector with
 * DxgkCbIndicateConnectorChange (WDDM 2.2) and fails to start if that
 * fails. With EXT_DXGKRNL_SERVED the glue serves that callback itself, as
 * docs/writing-a-target.md says a glue may, and every seed passes; without
 * it the callback is pbcheck's trap, and the run must end in a PB-KERNEL
 * finding naming it, not in a skipped case.
 */
#include <pbcheck/target.h>
#include <pbcheck/wdk/dispmprt.h>

#include "ref_builder.h"

#ifndef EXT_DXGKRNL_SERVED
#error "EXT_DXGKRNL_SERVED selects whether the glue serves the callback"
#endif

#if EXT_DXGKRNL_SERVED
static NTSTATUS APIENTRY glue_indicate_connector_change(IN_CONST_HANDLE hAdapter)
{
    return hAdapter != NULL ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
}
#endif

/* The driver's side: what its StartDevice does with the table. */
static NTSTATUS driver_start(IN_PDXGKRNL_INTERFACE DxgkInterface)
{
    DXGKRNL_INTERFACE dxgkrnl = *DxgkInterface;
    return dxgkrnl.DxgkCbIndicateConnectorChange(dxgkrnl.DeviceHandle);
}

static NTSTATUS dxgkrnl_create_adapter(const pbc_adapter_info *info, HANDLE *adapter)
{
    NTSTATUS status = pbc_target_reference.create_adapter(info, adapter);
    if (!NT_SUCCESS(status))
        return status;
    DXGKRNL_INTERFACE dxgkrnl;
    pbc_wdk_dxgkrnl_interface(*adapter, &dxgkrnl, sizeof(dxgkrnl));
#if EXT_DXGKRNL_SERVED
    dxgkrnl.DxgkCbIndicateConnectorChange = glue_indicate_connector_change;
#endif
    status = driver_start(&dxgkrnl);
    if (!NT_SUCCESS(status)) {
        pbc_target_reference.destroy_adapter(*adapter);
        *adapter = NULL;
    }
    return status;
}

static pbc_target table;

__attribute__((visibility("default"))) const pbc_target *pbc_target_get(void)
{
    table = pbc_target_reference;
    table.name = EXT_DXGKRNL_SERVED ? "ext-dxgkrnl-served" : "ext-dxgkrnl-trapped";
    table.summary = "the reference with a StartDevice that calls a DXGKRNL_INTERFACE callback";
    table.create_adapter = dxgkrnl_create_adapter;
    return &table;
}
