/*
 * A builder written the way many drivers are: it hard-codes a 4 KiB paging
 * buffer (it asserts every buffer it is handed is exactly that) and its own
 * segment ids (an aperture as segment 2, video memory as 1 and 3). Built
 * with EXT_DECLARE=1 it declares both, as a driver reports them through
 * DXGKQAITYPE_QUERYSEGMENT, and certifies clean; with EXT_DECLARE=0 it
 * declares nothing and the harness must say clearly what went wrong (its
 * own NT_ASSERT), never crash. The work itself is the reference's.
 */
#include <pbcheck/target.h>
#include <pbcheck/wdk/ntddk.h>

#include "ref_builder.h"

#ifndef EXT_DECLARE
#define EXT_DECLARE 1
#endif

#define FIXED_PAGING_BUFFER 4096u

static NTSTATUS APIENTRY fixed_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    NT_ASSERT(a->DmaBufferWriteOffset + a->DmaSize == FIXED_PAGING_BUFFER);
    return ref_build_paging_buffer(adapter, a);
}

static const pbc_segment_decl segments[] = {
    {1, PBC_SEGMENT_MEMORY, 0x0ull, 128ull << 20, 1, 0},
    {2, PBC_SEGMENT_APERTURE, 0x800000000ull, 64ull << 20, 1, 1},
    {3, PBC_SEGMENT_MEMORY, 0x1000000000ull, 1ull << 30, 0, 0},
};

static const pbc_adapter_decl declared = {sizeof(pbc_adapter_decl), 3, segments, FIXED_PAGING_BUFFER};

static pbc_target table;

__attribute__((visibility("default"))) const pbc_target *pbc_target_get(void)
{
    table = pbc_target_reference;
    table.name = EXT_DECLARE ? "ext-fixed4k" : "ext-fixed4k-undeclared";
    table.summary = "hard-codes 4 KiB paging buffers and its segment ids";
    table.build_paging_buffer = fixed_build;
    /* A WDDM 1.x driver: its assertion holds for every paging buffer, and
     * GpuMmu's immediate page-table updates come with none. */
    table.supported_operations = REF_OPERATIONS;
    table.adapter = EXT_DECLARE ? &declared : NULL;
    return &table;
}
