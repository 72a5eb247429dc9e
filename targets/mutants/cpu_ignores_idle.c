/*
 * mutant-cpu-ignores-idle: variant-cpu-when-idle with the check that makes
 * it legal left out: it copies evictions with the CPU at build time even
 * when AllocationIsIdle is not set, while render work on the allocation
 * may still be queued (S21, S24). PB-IDLE-HAZARD must catch it.
 *
 * mutant-kept-view-ignores-idle: the same through views of whole segments
 * mapped once per adapter, so the hazardous read happens through a view
 * made long before the call.
 */
#include "mutants.h"

#include "variants/var_common.h"

static NTSTATUS APIENTRY ignores_idle_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    return var_cpu_eviction_build(adapter, a, 0);
}

VAR_TARGET(pbc_mutant_cpu_ignores_idle, "mutant-cpu-ignores-idle",
           "copies evictions with the CPU without AllocationIsIdle", REF_MAX_PACKET_BYTES, 0,
           var_create_adapter, ignores_idle_build, var_patch, var_submit);

static NTSTATUS APIENTRY kept_ignores_idle_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    return var_kept_build(adapter, a, 0);
}

VAR_TARGET_DESTROY(pbc_mutant_kept_view_ignores_idle, "mutant-kept-view-ignores-idle",
                   "copies evictions with the CPU through segment views kept from adapter start, without "
                   "AllocationIsIdle",
                   REF_MAX_PACKET_BYTES, 0, var_kept_create_adapter, var_kept_destroy_adapter,
                   kept_ignores_idle_build, var_patch, var_submit);
