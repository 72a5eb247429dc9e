/*
 * mutant-fill-size32: builds its FILL packets from a copy of the fill's
 * arguments it keeps in a structure of its own, where the size is a ULONG
 * (its SOLID packet's size register is 32 bits, and so, its author
 * thought, is any fill). FillSize is a SIZE_T: a fill of 4 GiB becomes a
 * fill of nothing and one of 4 GiB and a little more fills the little
 * more. Fills below 4 GiB never show it (docs/certify-conditions.md,
 * size-at-4g and size-beyond-4g; certify --large). PB-DIVERGE must catch
 * it.
 */
#include "mutants.h"

#include "variants/var_common.h"

/* The driver's own record of a fill. */
typedef struct fill_job {
    UINT segment;
    ULONGLONG address;
    ULONG size; /* the bug: FillSize is a SIZE_T */
    UINT pattern;
} fill_job;

static NTSTATUS APIENTRY size32_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->Operation != DXGK_OPERATION_FILL)
        return ref_build_paging_buffer(var_ref((HANDLE)adapter), a);
    fill_job job = {a->Fill.Destination.SegmentId, (ULONGLONG)a->Fill.Destination.SegmentAddress.QuadPart,
                    (ULONG)a->Fill.FillSize, a->Fill.FillPattern};
    DXGKARG_BUILDPAGINGBUFFER local = *a;
    local.Fill.Destination.SegmentId = job.segment;
    local.Fill.Destination.SegmentAddress.QuadPart = (LONGLONG)job.address;
    local.Fill.FillSize = job.size;
    local.Fill.FillPattern = job.pattern;
    NTSTATUS st = ref_build_paging_buffer(var_ref((HANDLE)adapter), &local);
    a->pDmaBuffer = local.pDmaBuffer;
    a->MultipassOffset = local.MultipassOffset;
    return st;
}

VAR_TARGET(pbc_mutant_fill_size32, "mutant-fill-size32",
           "keeps FillSize in 32 bits: a fill of 4 GiB fills nothing, one beyond it only the remainder",
           REF_MAX_PACKET_BYTES, 0, var_create_adapter, size32_build, var_patch, var_submit);
