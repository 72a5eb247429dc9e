/*
 * mutant-cpu-restore: variant-cpu-when-idle, whose author took
 * AllocationIsIdle for "the CPU may copy this transfer" and copies idle
 * restores (system memory into a segment) with the CPU at build time as
 * well as evictions. The flag says the allocation is idle; it says
 * nothing of the range it moves into, whose previous occupant may still
 * be moving out by paging work VidMm built or submitted and the GPU has
 * not run: the copy lands first, and that move carries the new bytes away
 * in place of the occupant's (docs/certify-conditions.md,
 * behind-queued-move; corpus/seeds/transfer-behind-queued-move.pbs).
 * PB-DIVERGE must catch it.
 */
#include "mutants.h"

#include "variants/var_common.h"

static NTSTATUS APIENTRY restore_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    return var_cpu_restore_build((HANDLE)adapter, a);
}

VAR_TARGET(pbc_mutant_cpu_restore, "mutant-cpu-restore",
           "copies idle restores into a segment with the CPU at build time, ahead of a queued move out of the range",
           REF_MAX_PACKET_BYTES, 0, var_create_adapter, restore_build, var_patch, var_submit);
