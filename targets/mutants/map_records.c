/*
 * mutant-map-records: keeps a table of the aperture ranges it has mapped,
 * so that an unmap of pages it never mapped (still on the dummy page, it
 * believes) costs no packet. The table holds 256 ranges and nothing ever
 * leaves it; once it is full, new maps are not recorded, and their unmaps
 * are skipped: the GART keeps pointing at the allocation's pages. Runs of
 * a few maps never fill it; hundreds of maps in one run do
 * (docs/certify-conditions.md, 1000-maps-in-a-run). PB-UNMAP-DUMMY must
 * catch it.
 */
#include "mutants.h"

#include "variants/var_common.h"

#define MAP_RECORDS 256u

typedef struct records_adapter {
    var_adapter base;
    uint32_t count;
    struct {
        UINT segment;
        SIZE_T first, pages;
    } r[MAP_RECORDS];
} records_adapter;

static NTSTATUS APIENTRY records_create(const pbc_adapter_info *info, HANDLE *adapter)
{
    return var_adapter_create(info, sizeof(records_adapter), adapter);
}

/* Whether a recorded range meets [first, first + pages) of the segment. */
static int records_meet(const records_adapter *ra, UINT segment, SIZE_T first, SIZE_T pages)
{
    for (uint32_t i = 0; i < ra->count; i++)
        if (ra->r[i].segment == segment && ra->r[i].first < first + pages && first < ra->r[i].first + ra->r[i].pages)
            return 1;
    return 0;
}

static NTSTATUS APIENTRY records_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    records_adapter *ra = (records_adapter *)adapter;
    int map = a->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT,
        map2 = a->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT2;
    if ((map || map2) && a->MultipassOffset == 0 && ra->count < MAP_RECORDS) {
        ra->r[ra->count].segment = map ? a->MapApertureSegment.SegmentId : a->MapApertureSegment2.SegmentId;
        ra->r[ra->count].first = map ? a->MapApertureSegment.OffsetInPages : a->MapApertureSegment2.OffsetInPages;
        ra->r[ra->count].pages = map ? a->MapApertureSegment.NumberOfPages : a->MapApertureSegment2.NumberOfPages;
        ra->count++;
    }
    if (a->Operation == DXGK_OPERATION_UNMAP_APERTURE_SEGMENT && a->MultipassOffset == 0) {
        const __typeof__(a->UnmapApertureSegment) *u = &a->UnmapApertureSegment;
        if (!records_meet(ra, u->SegmentId, u->OffsetInPages, u->NumberOfPages))
            return STATUS_SUCCESS; /* "never mapped": nothing to undo */
    }
    return ref_build_paging_buffer(var_ref((HANDLE)adapter), a);
}

VAR_TARGET(pbc_mutant_map_records, "mutant-map-records",
           "skips unmaps of ranges missing from its table of 256 maps, which fills and stays full",
           REF_MAX_PACKET_BYTES, 0, records_create, records_build, var_patch, var_submit);
