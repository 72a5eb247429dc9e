/*
 * mutant-late-cpu-work: variant-worker-fence-packet's builder (page-table
 * entries by CPU work queued at SubmitCommand, the paging fence by a
 * packet) with its SubmitCommand in the wrong order where a fence packet
 * follows a marker: it rings the piece up to the marker and on through
 * that packet, and only then queues the marker's CPU work. The entries an
 * UpdatePageTable before the signal writes land after the fence said the
 * work before it was done; VidMm, acting on the fence, would hand on
 * memory the old entries still reach. PB-PAGING-FENCE must see that
 * pending CPU work change what an operation before the signal was to
 * produce.
 */
#include "mutants.h"

#include "variants/var_common.h"

static NTSTATUS APIENTRY late_submit(IN_CONST_HANDLE adapter, const DXGKARG_SUBMITCOMMAND *c)
{
    return var_fpw_submit((HANDLE)adapter, c, 1);
}

const pbc_target pbc_mutant_late_cpu_work = {
    REF_TARGET_FIELDS_OPS(REF_OPERATIONS_GPUMMU, "mutant-late-cpu-work",
                          "queues the CPU work of a page-table update before a signal after ringing the fence's packet",
                          REF_MAX_PACKET_BYTES, 0, var_fpw_create_adapter, var_fpw_destroy_adapter,
                          ref_create_allocation, ref_destroy_allocation, var_fpw_build, var_fpw_patch, late_submit),
};
