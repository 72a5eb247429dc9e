/*
 * variant-busy-unless-idle: answers ALLOCATION_BUSY for every Transfer and
 * DiscardContent not flagged AllocationIsIdle, whatever the allocation,
 * and writes nothing when it does. S21: without AllocationIsIdle the
 * builder must assume the GPU is using the allocation; S22: a builder that
 * needs it idle may return ALLOCATION_BUSY without consuming buffer space.
 * The harness must accept busy answers for allocations it did not mark
 * needs-idle.
 */
#include "var_common.h"

static NTSTATUS APIENTRY busy_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->Operation == DXGK_OPERATION_TRANSFER && !a->Transfer.Flags.AllocationIsIdle)
        return STATUS_GRAPHICS_ALLOCATION_BUSY;
    if (a->Operation == DXGK_OPERATION_DISCARD_CONTENT && !a->DiscardContent.Flags.AllocationIsIdle)
        return STATUS_GRAPHICS_ALLOCATION_BUSY;
    return ref_build_paging_buffer(var_ref(adapter), a);
}

VAR_TARGET(pbc_variant_busy_unless_idle, "variant-busy-unless-idle",
           "ALLOCATION_BUSY for every transfer/discard not AllocationIsIdle (S21, S22)",
           REF_MAX_PACKET_BYTES, 0, var_create_adapter, busy_build, var_patch, var_submit);
