/*
 * A builder with a vendor's adapter: one memory segment and one aperture
 * at 0xC0000000 (in what used to be the model's system window), the
 * aperture declared not cache-coherent, as DXGKQAITYPE_QUERYSEGMENT would
 * report it. Like a real driver it asserts what the DDI promises it:
 * VidMm asks for CacheCoherent only on a cache-coherent aperture, so a
 * coherent map request is the harness's error and NT_ASSERT says so
 * (PB-ASSERT). The seeds and certify must lay themselves onto this
 * adapter and never ask it for coherence. Built with
 * EXT_VENDOR_BUG_TRANSFER_OFFSET it ignores TransferOffset, which only a
 * split transfer's later sub-transfers carry (PB-DIVERGE on split cases
 * only). The work itself is the reference's.
 */
#include <pbcheck/target.h>
#include <pbcheck/wdk/ntddk.h>

#include "ref_builder.h"

#define VENDOR_APERTURE_BASE 0xC0000000ull

static NTSTATUS APIENTRY vendor_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT)
        NT_ASSERT(!a->MapApertureSegment.Flags.CacheCoherent);
    if (a->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT2)
        NT_ASSERT(!a->MapApertureSegment2.Flags.CacheCoherent);
#if defined(EXT_VENDOR_BUG_TRANSFER_OFFSET)
    if (a->Operation == DXGK_OPERATION_TRANSFER && a->Transfer.TransferOffset) {
        UINT offset = a->Transfer.TransferOffset;
        a->Transfer.TransferOffset = 0; /* the bug: every sub-transfer moves the first part */
        NTSTATUS st = ref_build_paging_buffer(adapter, a);
        a->Transfer.TransferOffset = offset;
        return st;
    }
#endif
    return ref_build_paging_buffer(adapter, a);
}

static const pbc_segment_decl segments[] = {
    {1, PBC_SEGMENT_MEMORY, 0x0ull, 256ull << 20, 1, 0},
    {2, PBC_SEGMENT_APERTURE, VENDOR_APERTURE_BASE, 256ull << 20, 0, 0},
};

static const pbc_adapter_decl declared = {.struct_size = sizeof(pbc_adapter_decl), .segment_count = 2,
                                          .segments = segments};

static pbc_target table;

__attribute__((visibility("default"))) const pbc_target *pbc_target_get(void)
{
    table = pbc_target_reference;
#if defined(EXT_VENDOR_BUG_TRANSFER_OFFSET)
    table.name = "ext-vendor-bug-transfer-offset";
    table.summary = "a vendor adapter (aperture at 3 GiB, not coherent) that ignores TransferOffset";
#else
    table.name = "ext-vendor";
    table.summary = "a vendor adapter: one memory segment, a non-coherent aperture at 3 GiB";
#endif
    table.build_paging_buffer = vendor_build;
    table.adapter = &declared;
    return &table;
}
