/*
 * mutant-idle-sticks: variant-cpu-asks-idle with a belief from GPUs that
 * run everything in one queue: once VidMm has answered its
 * ALLOCATION_BUSY with AllocationIsIdle, it takes the whole GPU to be idle
 * until its own next SubmitCommand, and copies later evictions with the
 * CPU without asking.
 *
 * On one in-order queue, waiting for one allocation also runs every
 * paging buffer submitted before that allocation's last use, so the
 * belief mostly holds. With a paging engine beside the render engine,
 * VidMm's wait for an allocation's render work leaves paging buffers on
 * other allocations still queued: an eviction of one of those, copied by
 * the CPU before its transfer in has run, reads memory the GPU has not
 * written yet. S21: without AllocationIsIdle the builder must assume the
 * GPU is or soon will be using the allocation. PB-IDLE-HAZARD must catch
 * it (story/engines).
 */
#include "mutants.h"

#include "variants/var_common.h"

typedef struct sticky_adapter {
    var_adapter base;
    int gpu_idle; /* the wrong belief: set by an AllocationIsIdle call, cleared by SubmitCommand */
} sticky_adapter;

static NTSTATUS APIENTRY sticky_create_adapter(const pbc_adapter_info *info, HANDLE *adapter)
{
    return var_adapter_create(info, sizeof(sticky_adapter), adapter);
}

static NTSTATUS APIENTRY sticky_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    sticky_adapter *s = adapter;
    if (!var_cpu_eviction(a))
        return ref_build_paging_buffer(var_ref(adapter), a);
    if (a->Transfer.Flags.AllocationIsIdle)
        s->gpu_idle = 1;
    else if (!s->gpu_idle)
        return STATUS_GRAPHICS_ALLOCATION_BUSY;
    return var_cpu_eviction_build(adapter, a, 0);
}

static NTSTATUS APIENTRY sticky_submit(IN_CONST_HANDLE adapter, const DXGKARG_SUBMITCOMMAND *c)
{
    ((sticky_adapter *)adapter)->gpu_idle = 0;
    return var_submit(adapter, c);
}

VAR_TARGET(pbc_mutant_idle_sticks, "mutant-idle-sticks",
           "after one AllocationIsIdle, copies evictions with the CPU without asking until its next SubmitCommand",
           REF_MAX_PACKET_BYTES, 0, sticky_create_adapter, sticky_build, var_patch, sticky_submit);
