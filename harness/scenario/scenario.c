/*
 * The scenario model and its residency tracker. The tracker encodes what a
 * real VidMm may issue (SPEC-TRACE V lines): allocations never overlap,
 * Fill only targets memory segments (S26), a mapped allocation is unmapped
 * before it moves, special-lock transfers are never split, and so on.
 */
#include "scenario/scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu.h"
#include "base/util.h"

void pbc_scenario_init(pbc_scenario *s) { memset(s, 0, sizeof(*s)); }

void pbc_scenario_fini(pbc_scenario *s)
{
    free(s->allocs);
    free(s->ops);
    memset(s, 0, sizeof(*s));
}

void pbc_scenario_clear(pbc_scenario *s)
{
    pbc_scenario kept = {.allocs = s->allocs, .alloc_cap = s->alloc_cap, .ops = s->ops, .op_cap = s->op_cap};
    *s = kept;
}

void pbc_scenario_default_layout(pbc_scenario *s)
{
    static const pbc_segment_info layout[] = {
        {1, PBC_SEGMENT_MEMORY, 0x0, 64ull << 20},
        {2, PBC_SEGMENT_MEMORY, 0x1000000000ull, 4ull << 30},
        {3, PBC_SEGMENT_APERTURE, 0x800000000ull, 256ull << 20},
    };
    memcpy(s->segments, layout, sizeof(layout));
    s->segment_count = PBC_ARRAY_LEN(layout);
}

pbc_salloc *pbc_scenario_add_alloc(pbc_scenario *s)
{
    pbc_salloc a = {0};
    PBC_PUSH(s->allocs, s->alloc_count, s->alloc_cap, a);
    return &s->allocs[s->alloc_count - 1];
}

pbc_sop *pbc_scenario_add_op(pbc_scenario *s)
{
    pbc_sop o = {0};
    PBC_PUSH(s->ops, s->op_count, s->op_cap, o);
    return &s->ops[s->op_count - 1];
}

int pbc_scenario_find_alloc(const pbc_scenario *s, const char *name)
{
    for (uint32_t i = 0; i < s->alloc_count; i++)
        if (strcmp(s->allocs[i].name, name) == 0)
            return (int)i;
    return -1;
}

uint32_t pbc_alloc_pages(const pbc_salloc *a) { return (uint32_t)((a->size + 4095) / 4096); }

uint64_t pbc_scenario_largest_alloc(const pbc_scenario *s)
{
    uint64_t most = 0;
    for (uint32_t i = 0; i < s->alloc_count; i++)
        if (s->allocs[i].size > most)
            most = s->allocs[i].size;
    return most;
}

uint32_t pbc_sop_created_where(const pbc_sop *op)
{
    if (op->flags & PBC_SOP_NO_CONTENT)
        return PBC_WHERE_NONE;
    return op->at.segment ? PBC_WHERE_SEGMENT : PBC_WHERE_SYSTEM;
}

/* Source lines are presentation, not content: equality ignores them. */
int pbc_scenario_equal(const pbc_scenario *a, const pbc_scenario *b)
{
    if (a->segment_count != b->segment_count || a->paging_segment != b->paging_segment ||
        a->alloc_count != b->alloc_count || a->op_count != b->op_count)
        return 0;
    if (memcmp(a->segments, b->segments, a->segment_count * sizeof(a->segments[0])))
        return 0;
    for (uint32_t i = 0; i < a->alloc_count; i++) {
        pbc_salloc x = a->allocs[i], y = b->allocs[i];
        x.line = y.line = 0;
        if (memcmp(&x, &y, sizeof(x)))
            return 0;
    }
    for (uint32_t i = 0; i < a->op_count; i++) {
        pbc_sop x = a->ops[i], y = b->ops[i];
        x.line = y.line = 0;
        if (memcmp(&x, &y, sizeof(x)))
            return 0;
    }
    return 1;
}

/* Each scenario operation kind: its text keyword and the DDI operation it
 * issues (-1: a VidMm or GPU action, not a BuildPagingBuffer operation). */
static const struct {
    const char *name;
    int ddi;
} sop_table[PBC_SOP_COUNT] = {
    [PBC_SOP_TRANSFER] = {"transfer", DXGK_OPERATION_TRANSFER},
    [PBC_SOP_SPECIAL_LOCK] = {"special-lock-transfer", DXGK_OPERATION_SPECIAL_LOCK_TRANSFER},
    [PBC_SOP_FILL] = {"fill", DXGK_OPERATION_FILL},
    [PBC_SOP_DISCARD] = {"discard", DXGK_OPERATION_DISCARD_CONTENT},
    [PBC_SOP_READ_PHYSICAL] = {"read-physical", DXGK_OPERATION_READ_PHYSICAL},
    [PBC_SOP_WRITE_PHYSICAL] = {"write-physical", DXGK_OPERATION_WRITE_PHYSICAL},
    [PBC_SOP_MAP] = {"map", DXGK_OPERATION_MAP_APERTURE_SEGMENT},
    [PBC_SOP_UNMAP] = {"unmap", DXGK_OPERATION_UNMAP_APERTURE_SEGMENT},
    [PBC_SOP_RENDER_WRITE] = {"render-write", -1},
    [PBC_SOP_RENDER_READ] = {"render-read", -1},
    [PBC_SOP_GPU_READ] = {"gpu-read", -1},
    [PBC_SOP_GPU_WRITE] = {"gpu-write", -1},
    [PBC_SOP_FLUSH] = {"flush", -1},
    [PBC_SOP_IDLE] = {"idle", -1},
    [PBC_SOP_DMA] = {"dma", -1},
    [PBC_SOP_DESTROY] = {"destroy", -1},
    [PBC_SOP_CREATE] = {"create", -1},
    [PBC_SOP_VA_MAP] = {"va-map", DXGK_OPERATION_UPDATE_PAGE_TABLE},
    [PBC_SOP_VA_ZERO] = {"va-zero", DXGK_OPERATION_UPDATE_PAGE_TABLE},
    [PBC_SOP_VA_UNMAP] = {"va-unmap", DXGK_OPERATION_UPDATE_PAGE_TABLE},
    [PBC_SOP_SIGNAL_FENCE] = {"signal-fence", DXGK_OPERATION_SIGNAL_MONITORED_FENCE},
    [PBC_SOP_NOTIFY] = {"notify", -2}, /* per operation: pbc_sop_op_supported */
    [PBC_SOP_VA_MOVE_TABLES] = {"va-move-tables", DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES},
    [PBC_SOP_INIT_CONTEXT] = {"init-context", DXGK_OPERATION_INIT_CONTEXT_RESOURCE},
    [PBC_SOP_UPDATE_CONTEXT] = {"update-context", DXGK_OPERATION_UPDATE_CONTEXT_ALLOCATION},
    [PBC_SOP_NOTIFY_RESIDENCY] = {"notify-residency", DXGK_OPERATION_NOTIFY_RESIDENCY},
};

static const struct {
    const char *name;
    int ddi;
} notify_table[PBC_NOTIFY_COUNT] = {
    [PBC_NOTIFY_FENCE_RESIDENCY] = {"fence-residency", DXGK_OPERATION_NOTIFY_FENCE_RESIDENCY},
    [PBC_NOTIFY_MAP_MMU] = {"map-mmu", DXGK_OPERATION_MAP_MMU},
    [PBC_NOTIFY_UNMAP_MMU] = {"unmap-mmu", DXGK_OPERATION_UNMAP_MMU},
    [PBC_NOTIFY_RESIDENCY2] = {"residency2", DXGK_OPERATION_NOTIFY_RESIDENCY2},
    [PBC_NOTIFY_ALLOC] = {"alloc", DXGK_OPERATION_NOTIFY_ALLOC},
};

const char *pbc_notify_name(uint32_t kind) { return kind < PBC_NOTIFY_COUNT ? notify_table[kind].name : "?"; }
int pbc_notify_ddi(uint32_t kind) { return kind < PBC_NOTIFY_COUNT ? notify_table[kind].ddi : -1; }

const char *pbc_sop_name(uint32_t kind) { return kind < PBC_SOP_COUNT ? sop_table[kind].name : "?"; }

const char *pbc_phys_name(uint32_t layout)
{
    static const char *const names[PBC_PHYS_COUNT] = {
        [PBC_PHYS_SCATTERED] = "scattered",
        [PBC_PHYS_RUNS] = "runs",
        [PBC_PHYS_CONTIGUOUS] = "contiguous",
        [PBC_PHYS_STRADDLE_4G] = "straddle-4g",
    };
    return layout < PBC_PHYS_COUNT ? names[layout] : "?";
}

const char *pbc_ddi_operation_name(uint32_t op)
{
    static const char *const members[PBC_DDI_OPERATION_COUNT] = {
        "Transfer", "Fill", "DiscardContent", "ReadPhysical", "WritePhysical", "MapApertureSegment",
        "UnmapApertureSegment", "SpecialLockTransfer", "TransferVirtual", "FillVirtual", "InitContextResource",
        "UpdatePageTable", "FlushTlb", "UpdateContextAllocation", "CopyPageTableEntries", "NotifyResidency",
        "SignalMonitoredFence", "MapApertureSegment2", "NotifyFenceResidency", "MapMmu", "UnmapMmu",
        "NotifyResidency2", "NotifyAllocation"};
    return op < PBC_DDI_OPERATION_COUNT ? members[op] : NULL;
}

int pbc_sop_ddi_operation(uint32_t kind) { return kind < PBC_SOP_COUNT && sop_table[kind].ddi >= 0 ? sop_table[kind].ddi : -1; }

int pbc_sop_supported(const pbc_target *t, uint32_t kind)
{
    if (kind >= PBC_SOP_COUNT)
        return 0;
    int ddi = sop_table[kind].ddi;
    uint64_t mmu = PBC_OP_BIT(DXGK_OPERATION_UPDATE_PAGE_TABLE) | PBC_OP_BIT(DXGK_OPERATION_FLUSH_TLB);
    if (ddi == DXGK_OPERATION_UPDATE_PAGE_TABLE) /* VidMm flushes what it changed */
        return (t->supported_operations & mmu) == mmu;
    if (ddi == DXGK_OPERATION_SIGNAL_MONITORED_FENCE || ddi == DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES ||
        ddi == DXGK_OPERATION_UPDATE_CONTEXT_ALLOCATION)
        /* the fence page, the tables and the context's range have GPU
         * virtual addresses */
        return (t->supported_operations & (mmu | PBC_OP_BIT(ddi))) == (mmu | PBC_OP_BIT(ddi));
    if (ddi == -2) /* notify: some operation of the set */
        return (t->supported_operations & (PBC_OP_BIT(DXGK_OPERATION_NOTIFY_FENCE_RESIDENCY) |
                                           PBC_OP_BIT(DXGK_OPERATION_MAP_MMU) | PBC_OP_BIT(DXGK_OPERATION_UNMAP_MMU) |
                                           PBC_OP_BIT(DXGK_OPERATION_NOTIFY_RESIDENCY2) |
                                           PBC_OP_BIT(DXGK_OPERATION_NOTIFY_ALLOC))) != 0;
    return ddi < 0 || (int)((t->supported_operations >> ddi) & 1u);
}

/* The target's adapter declaration (ABI 1.1), NULL when it has none. */
static const pbc_adapter_decl *sop_decl(const pbc_target *t)
{
    return t->struct_size >= offsetof(pbc_target, adapter) + sizeof(t->adapter) ? t->adapter : NULL;
}

/* What the target's MMU lacks (its adapter declaration, ABI 1.3). */
static uint32_t sop_gpummu_lacks(const pbc_target *t)
{
    const pbc_adapter_decl *d = sop_decl(t);
    return d && PBC_ADAPTER_DECL_HAS(d->struct_size, gpummu_lacks) ? d->gpummu_lacks : 0;
}

int pbc_sop_op_supported(const pbc_target *t, const pbc_sop *op)
{
    if (!pbc_sop_supported(t, op->kind))
        return 0;
    if (op->kind == PBC_SOP_UPDATE_CONTEXT) /* the driver's data for it */
        return t->struct_size >= offsetof(pbc_target, context_update_data) + sizeof(t->context_update_data) &&
               t->context_update_data;
    if (op->kind == PBC_SOP_VA_MAP || op->kind == PBC_SOP_VA_ZERO) {
        /* VidMm asks no MMU for what it lacks (DXGK_GPUMMUCAPS). */
        uint32_t lacks = sop_gpummu_lacks(t);
        if ((op->flags & PBC_SOP_VA_64K) && (lacks & PBC_GPUMMU_NO_64K))
            return 0;
        if (op->kind == PBC_SOP_VA_ZERO && !(op->flags & PBC_SOP_VA_NO_ACCESS) && (lacks & PBC_GPUMMU_NO_ZERO))
            return 0;
        if (op->kind == PBC_SOP_VA_MAP && (op->flags & PBC_SOP_VA_READ_ONLY) && (lacks & PBC_GPUMMU_NO_READ_ONLY))
            return 0;
    }
    if (op->kind == PBC_SOP_NOTIFY)
        return pbc_notify_ddi(op->pattern) >= 0 && ((t->supported_operations >> pbc_notify_ddi(op->pattern)) & 1u);
    if (op->kind == PBC_SOP_MAP && (op->flags & PBC_SOP_ADL))
        return (int)((t->supported_operations >> DXGK_OPERATION_MAP_APERTURE_SEGMENT2) & 1u);
    if (!(op->flags & PBC_SOP_VIRTUAL) || (op->kind != PBC_SOP_TRANSFER && op->kind != PBC_SOP_FILL))
        return 1;
    uint64_t need = PBC_OP_BIT(op->kind == PBC_SOP_TRANSFER ? DXGK_OPERATION_VIRTUAL_TRANSFER : DXGK_OPERATION_VIRTUAL_FILL) |
                    PBC_OP_BIT(DXGK_OPERATION_UPDATE_PAGE_TABLE) | PBC_OP_BIT(DXGK_OPERATION_FLUSH_TLB);
    return (t->supported_operations & need) == need;
}

const char *pbc_sop_unsupported_why(const pbc_target *t, const pbc_sop *op, char *buf, size_t n)
{
    const char *name = pbc_sop_name(op->kind);
    uint32_t lacks = sop_gpummu_lacks(t);
    if (!pbc_sop_supported(t, op->kind))
        snprintf(buf, n, "%s (the DXGK operations it needs are not declared)", name);
    else if (op->kind == PBC_SOP_UPDATE_CONTEXT)
        snprintf(buf, n, "update-context (the target gives no context_update_data for DxgkCbUpdateContextAllocation)");
    else if (op->kind == PBC_SOP_NOTIFY)
        snprintf(buf, n, "notify %s (its DXGK operation is not declared)", pbc_notify_name(op->pattern));
    else if (op->kind == PBC_SOP_MAP && (op->flags & PBC_SOP_ADL))
        snprintf(buf, n, "map ... adl (MapApertureSegment2 is not declared)");
    else if ((op->flags & PBC_SOP_VA_64K) && (lacks & PBC_GPUMMU_NO_64K))
        snprintf(buf, n, "%s ... 64k (the adapter's MMU has no 64 KiB leaves)", name);
    else if (op->kind == PBC_SOP_VA_ZERO && !(op->flags & PBC_SOP_VA_NO_ACCESS) && (lacks & PBC_GPUMMU_NO_ZERO))
        snprintf(buf, n, "va-zero (the adapter's MMU has no zero pages)");
    else if (op->kind == PBC_SOP_VA_MAP && (op->flags & PBC_SOP_VA_READ_ONLY) && (lacks & PBC_GPUMMU_NO_READ_ONLY))
        snprintf(buf, n, "va-map ... read-only (the adapter's MMU has no read-only pages)");
    else if (op->flags & PBC_SOP_VIRTUAL)
        snprintf(buf, n, "%s ... virtual (%s, UpdatePageTable and FlushTlb must be declared)", name,
                 op->kind == PBC_SOP_TRANSFER ? "TransferVirtual" : "FillVirtual");
    else
        snprintf(buf, n, "%s", name);
    return buf;
}

int pbc_sop_has_alloc(uint32_t kind)
{
    switch (kind) {
    case PBC_SOP_TRANSFER:
    case PBC_SOP_SPECIAL_LOCK:
    case PBC_SOP_FILL:
    case PBC_SOP_DISCARD:
    case PBC_SOP_MAP:
    case PBC_SOP_UNMAP:
    case PBC_SOP_RENDER_WRITE:
    case PBC_SOP_RENDER_READ:
    case PBC_SOP_DESTROY:
    case PBC_SOP_CREATE:
    case PBC_SOP_VA_MAP:
    case PBC_SOP_VA_UNMAP:
    case PBC_SOP_VA_MOVE_TABLES:
    case PBC_SOP_INIT_CONTEXT:
    case PBC_SOP_UPDATE_CONTEXT:
    case PBC_SOP_NOTIFY_RESIDENCY:
        return 1;
    default:
        return 0;
    }
}

/* ---- Residency ---- */

static const pbc_segment_info *res_segment(const pbc_residency *r, uint32_t id)
{
    return id >= 1 && id <= r->s->segment_count ? &r->s->segments[id - 1] : NULL;
}

int pbc_residency_range_free(const pbc_residency *r, uint32_t segment, uint64_t offset,
                             uint64_t size, int except)
{
    for (uint32_t i = 0; i < r->s->alloc_count; i++) {
        const pbc_res_alloc *o = &r->a[i];
        if ((int)i == except || o->where != PBC_WHERE_SEGMENT || o->at.segment != segment)
            continue;
        uint64_t osize = r->s->allocs[i].size;
        if (offset < o->at.offset + osize && o->at.offset < offset + size)
            return 0;
    }
    return 1;
}

/* A place an allocation of `size` bytes may move to or be filled at. */
int pbc_scenario_paging_window(const pbc_scenario *s, uint32_t segment, uint64_t *start, uint64_t *end)
{
    if (!s->paging_segment || segment != s->paging_segment || segment > s->segment_count)
        return 0;
    *end = s->segments[segment - 1].size;
    *start = *end - PBC_PAGING_WINDOW;
    return 1;
}

/* Whether [offset, offset+size) of segment meets the paging-buffer window. */
static int res_in_paging_window(const pbc_residency *r, uint32_t segment, uint64_t offset, uint64_t size)
{
    uint64_t start, end;
    return pbc_scenario_paging_window(r->s, segment, &start, &end) && offset < end && start < offset + size;
}

static const char *res_check_segment_place(const pbc_residency *r, pbc_place at, uint64_t size,
                                           int alloc)
{
    const pbc_segment_info *seg = res_segment(r, at.segment);
    if (!seg)
        return "no such segment";
    if (seg->kind != PBC_SEGMENT_MEMORY)
        return "allocations can only be placed in memory segments";
    if (at.offset % 4)
        return "segment offsets must be multiples of 4";
    if (at.offset > seg->size || size > seg->size - at.offset)
        return "range runs past the end of the segment";
    if (!pbc_residency_range_free(r, at.segment, at.offset, size, alloc))
        return "range overlaps another resident allocation";
    if (res_in_paging_window(r, at.segment, at.offset, size))
        return "range overlaps the segment's paging-buffer window";
    return NULL;
}

const char *pbc_residency_init(pbc_residency *r, const pbc_scenario *s)
{
    memset(r, 0, sizeof(*r));
    r->s = s;
    if (s->paging_segment) {
        const pbc_segment_info *seg = res_segment(r, s->paging_segment);
        if (!seg || seg->kind != PBC_SEGMENT_MEMORY || seg->size <= PBC_PAGING_WINDOW)
            return "paging buffers need a memory segment larger than 8 MiB";
    }
    r->a = pbc_xcalloc(s->alloc_count, sizeof(*r->a));
    for (uint32_t i = 0; i < s->alloc_count; i++) {
        const pbc_salloc *al = &s->allocs[i];
        if (al->where == PBC_WHERE_SEGMENT) {
            const char *why = res_check_segment_place(r, al->at, al->size, -1);
            if (why)
                return why;
        }
        r->a[i].where = al->where;
        r->a[i].at = al->at;
    }
    return NULL;
}

void pbc_residency_fini(pbc_residency *r)
{
    free(r->a);
    free(r->valid);
    free(r->vas);
    memset(r, 0, sizeof(*r));
}

static int res_aperture_valid(const pbc_residency *r, uint32_t segment, uint64_t page)
{
    for (uint32_t i = 0; i < r->valid_count; i++) {
        const pbc_res_range *v = &r->valid[i];
        if (v->segment == segment && page >= v->first && page - v->first < v->count)
            return 1;
    }
    return 0;
}

/* A 64 KiB page must start on a 64 KiB physical boundary: the segment's
 * base, which layouts align to 4 KiB only, counts. */
static int res_64k_place(const pbc_residency *r, pbc_place at)
{
    const pbc_segment_info *seg = res_segment(r, at.segment);
    return seg && (seg->base + at.offset) % 0x10000 == 0;
}

static const char *res_check_transfer(const pbc_residency *r, const pbc_sop *op)
{
    const pbc_res_alloc *a = &r->a[op->alloc];
    const pbc_salloc *al = &r->s->allocs[op->alloc];
    if (a->where == PBC_WHERE_NONE)
        return "allocation is not resident (fill it first)";
    if (a->mapped)
        return "allocation is mapped in an aperture; unmap it before moving it";
    if (op->split < 1 || op->split > pbc_alloc_pages(al))
        return "split must be between 1 and the allocation's page count";
    if (op->kind == PBC_SOP_SPECIAL_LOCK && op->split != 1)
        return "special-lock transfers are not split";
    if ((op->flags & PBC_SOP_VIRTUAL) && (op->kind != PBC_SOP_TRANSFER || al->size > (16ull << 30)))
        return "virtual transfers are plain transfers of at most 16 GiB (VidMm's paging window)";
    if (((op->flags & PBC_SOP_VIRTUAL) || a->va_mapped) && op->at.segment && op->at.offset % PBC_PAGE_SIZE)
        return "GPU virtual pages need a 4 KiB-aligned segment offset";
    if ((op->flags & PBC_SOP_VIRTUAL) && a->where == PBC_WHERE_SEGMENT && a->at.offset % PBC_PAGE_SIZE)
        return "GPU virtual pages need the allocation at a 4 KiB-aligned segment offset";
    if (a->va_mapped && (a->va_flags & PBC_SOP_VA_64K) && (op->at.segment == 0 || !res_64k_place(r, op->at)))
        return "allocation is mapped with 64 KiB pages: it can only move to a 64 KiB-aligned address in a segment";
    if (op->at.segment == 0) {
        if (a->where == PBC_WHERE_SYSTEM)
            return "allocation is already in system memory";
        return NULL;
    }
    const char *why = res_check_segment_place(r, op->at, al->size, (int)op->alloc);
    if (why)
        return why;
    if (a->where == PBC_WHERE_SEGMENT && a->at.segment == op->at.segment &&
        op->at.offset < a->at.offset + al->size && a->at.offset < op->at.offset + al->size)
        return "source and destination overlap";
    return NULL;
}

static const char *res_check_physical(const pbc_residency *r, const pbc_sop *op)
{
    const pbc_segment_info *seg = res_segment(r, op->at.segment);
    if (!seg)
        return "no such segment";
    if (seg->kind != PBC_SEGMENT_MEMORY)
        return "physical access targets memory segments only";
    if (op->at.offset % 8 || op->at.offset + 8 > seg->size)
        return "offset must be 8-aligned and inside the segment";
    if (!pbc_residency_range_free(r, op->at.segment, op->at.offset, 8, -1))
        return "physical access inside a resident allocation (its bytes would become undefined)";
    if (res_in_paging_window(r, op->at.segment, op->at.offset, 8))
        return "physical access inside the paging-buffer window";
    return NULL;
}

static const char *res_check_map(const pbc_residency *r, const pbc_sop *op)
{
    const pbc_res_alloc *a = &r->a[op->alloc];
    const pbc_salloc *al = &r->s->allocs[op->alloc];
    const pbc_segment_info *seg = res_segment(r, op->at.segment);
    if (a->where != PBC_WHERE_SYSTEM)
        return "only allocations in system memory can be mapped";
    if (a->mapped)
        return "allocation is already mapped";
    if (!seg || seg->kind != PBC_SEGMENT_APERTURE)
        return "map needs an aperture segment";
    if (op->count < 1 || op->first >= pbc_alloc_pages(al) ||
        op->count > pbc_alloc_pages(al) - op->first)
        return "first/count outside the allocation's pages";
    uint64_t page = op->at.offset;
    if (page > seg->size / 4096 || op->count > seg->size / 4096 - page)
        return "mapping runs past the end of the aperture";
    for (uint32_t i = 0; i < r->s->alloc_count; i++) {
        const pbc_res_alloc *o = &r->a[i];
        if (o->mapped && o->ap_segment == op->at.segment && page < o->ap_page + o->map_count &&
            o->ap_page < page + op->count)
            return "aperture range is mapped by another allocation";
    }
    return NULL;
}

static const char *res_check_render(const pbc_residency *r, const pbc_sop *op)
{
    const pbc_res_alloc *a = &r->a[op->alloc];
    const pbc_salloc *al = &r->s->allocs[op->alloc];
    if (a->where == PBC_WHERE_NONE)
        return "allocation is not resident";
    if (op->size == 0 || op->offset > al->size || op->size > al->size - op->offset)
        return "offset/size outside the allocation";
    if (op->kind == PBC_SOP_RENDER_WRITE && (op->offset % 4 || op->size % 4))
        return "render writes need 4-byte aligned offset and size";
    if (op->flags & PBC_SOP_VIA_VA) {
        if (!a->va_mapped)
            return "via=va needs an allocation with a GPU virtual range";
        uint64_t lo = (uint64_t)a->va_first * 4096, hi = lo + (uint64_t)a->va_count * 4096;
        if (op->offset < lo || op->offset + op->size > hi)
            return "range is outside the pages of the GPU virtual range";
        if (op->kind == PBC_SOP_RENDER_WRITE && (a->va_flags & PBC_SOP_VA_READ_ONLY))
            return "the GPU virtual range is read-only";
    }
    if (op->flags & PBC_SOP_VIA_APERTURE) {
        if (!a->mapped)
            return "via=aperture needs a mapped allocation";
        uint64_t lo = (uint64_t)a->map_first * 4096, hi = lo + (uint64_t)a->map_count * 4096;
        if (op->offset < lo || op->offset + op->size > hi)
            return "range is outside the mapped pages";
    }
    return NULL;
}

static const char *res_check_gpu_access(const pbc_residency *r, const pbc_sop *op)
{
    const pbc_segment_info *seg = res_segment(r, op->at.segment);
    if (!seg)
        return "no such segment";
    if (op->size == 0 || op->at.offset > seg->size || op->size > seg->size - op->at.offset)
        return "range outside the segment";
    if (op->size > (1u << 20))
        return "gpu accesses are limited to 1 MiB";
    if (op->kind == PBC_SOP_GPU_WRITE && (op->at.offset % 4 || op->size % 4))
        return "gpu writes need 4-byte aligned offset and size";
    if (res_in_paging_window(r, op->at.segment, op->at.offset, op->size))
        return "gpu access inside the paging-buffer window";
    if (seg->kind == PBC_SEGMENT_APERTURE) {
        for (uint64_t p = op->at.offset / 4096; p <= (op->at.offset + op->size - 1) / 4096; p++)
            if (!res_aperture_valid(r, op->at.segment, p))
                return "aperture page was never mapped (a real VidMm never lets the GPU fault)";
    }
    return NULL;
}

/* A destroyed allocation is gone until it is created again: VidMm issues
 * nothing for it. Destroying a mapped one would leave its pages in the
 * aperture, so VidMm unmaps first (the scenario says so). */
static const char *res_check_lifetime(const pbc_residency *r, const pbc_sop *op)
{
    const pbc_res_alloc *a = &r->a[op->alloc];
    if (op->kind == PBC_SOP_CREATE) {
        if (!a->destroyed)
            return "allocation exists; destroy it before creating it again";
        if (op->flags & PBC_SOP_NO_CONTENT || op->at.segment == 0)
            return NULL;
        return res_check_segment_place(r, op->at, r->s->allocs[op->alloc].size, (int)op->alloc);
    }
    if (a->destroyed)
        return "allocation was destroyed (create it again first)";
    if (op->kind == PBC_SOP_DESTROY && a->mapped)
        return "allocation is mapped in an aperture; unmap it before destroying it";
    if (op->kind == PBC_SOP_DESTROY && a->va_mapped)
        return "allocation has a GPU virtual range; va-unmap it before destroying it";
    return NULL;
}

/* ---- GPU virtual ranges (D3DDDI_MAPGPUVIRTUALADDRESS) ---- */

static uint64_t res_va_align(const pbc_sop *op) { return (op->flags & PBC_SOP_VA_64K) ? 0x10000u : PBC_PAGE_SIZE; }

/* The addresses a range keeps to itself: a range of 64 KiB pages has leaf
 * tables of its own, so it takes whole 2 MiB regions. */
#define RES_VA_REGION (1ull << 21)
static void res_va_extent(uint64_t base, uint64_t pages, uint32_t flags, uint64_t *lo, uint64_t *hi)
{
    *lo = base;
    *hi = base + pages * PBC_PAGE_SIZE;
    if (flags & PBC_SOP_VA_64K) {
        *lo &= ~(RES_VA_REGION - 1);
        *hi = (*hi + RES_VA_REGION - 1) & ~(RES_VA_REGION - 1);
    }
}

/* The first range in use of address space `space` that [base, +pages)
 * with `flags` meets, or NULL: each space's addresses are its own. */
static const pbc_res_va *res_va_meets(const pbc_residency *r, uint32_t space, uint64_t base, uint64_t pages,
                                      uint32_t flags)
{
    uint64_t lo, hi;
    res_va_extent(base, pages, flags, &lo, &hi);
    for (uint32_t i = 0; i < r->va_count; i++) {
        const pbc_res_va *u = &r->vas[i];
        uint64_t ulo, uhi;
        if (u->space != space)
            continue;
        /* Two ranges of 4 KiB pages may share a region; a 64 KiB one may not. */
        res_va_extent(u->base, u->pages, (u->flags | flags) & PBC_SOP_VA_64K, &ulo, &uhi);
        if (lo < uhi && ulo < hi)
            return u;
    }
    return NULL;
}

static int res_va_free(const pbc_residency *r, uint32_t space, uint64_t base, uint64_t pages, uint32_t flags)
{
    return res_va_meets(r, space, base, pages, flags) == NULL;
}

int pbc_residency_va_reserved(const pbc_residency *r, uint32_t space, uint64_t base, uint64_t pages,
                              uint32_t flags)
{
    for (uint32_t i = 0; i < r->va_count; i++) {
        const pbc_res_va *u = &r->vas[i];
        if (u->alloc < 0 && u->space == space && base >= u->base && base + pages * PBC_PAGE_SIZE <= u->base + u->pages * PBC_PAGE_SIZE &&
            (u->flags & PBC_SOP_VA_64K) == (flags & PBC_SOP_VA_64K))
            return (int)i;
    }
    return -1;
}

uint64_t pbc_residency_va_base(const pbc_residency *r, const pbc_sop *op)
{
    if (op->va)
        return op->va;
    uint64_t align = res_va_align(op), size = (uint64_t)op->count * PBC_PAGE_SIZE;
    uint64_t lo = op->va_min > PBC_VA_FIRST ? op->va_min : PBC_VA_FIRST;
    uint64_t hi = op->va_max ? op->va_max : PBC_VA_END;
    if (hi > PBC_VA_END)
        hi = PBC_VA_END;
    uint64_t at = (lo + align - 1) & ~(align - 1);
    /* First fit: past every range the candidate meets. */
    for (const pbc_res_va *u; at + size <= hi && (u = res_va_meets(r, op->space, at, op->count, op->flags)) != NULL;) {
        uint64_t ulo, uhi;
        res_va_extent(u->base, u->pages, (u->flags | op->flags) & PBC_SOP_VA_64K, &ulo, &uhi);
        at = (uhi + align - 1) & ~(align - 1);
    }
    return at + size <= hi ? at : 0;
}

/* What VidMm refuses in a request (pfnMapGpuVirtualAddressCb fails with
 * STATUS_INVALID_PARAMETER), each from the structure's page. */
static const char *res_check_va_request(const pbc_residency *r, const pbc_sop *op)
{
    uint64_t align = res_va_align(op), size = (uint64_t)op->count * PBC_PAGE_SIZE;
    if (op->flags & PBC_SOP_VA_RESERVED)
        return "VidMm refuses it: Reserved0 and Reserved1 must be zero (S54)";
    if (op->space >= PBC_MAX_SPACES)
        return "pbcheck keeps at most 4 GPU virtual address spaces (space=0 to 3)";
    if (op->count == 0)
        return "VidMm refuses it: SizeInPages must not be 0 (S52)";
    if (op->count > PBC_MAX_VA_PAGES)
        return "the model maps at most 262,144 pages of GPU virtual ranges in a scenario";
    if (op->count % (align / PBC_PAGE_SIZE) || op->first % (align / PBC_PAGE_SIZE))
        return "a 64 KiB range needs OffsetInPages and SizeInPages in whole 64 KiB pages";
    if (op->va) {
        if (op->va % PBC_PAGE_SIZE)
            return "VidMm refuses it: BaseAddress must be aligned to a CPU page (S49)";
        if (op->va % align)
            return "a 64 KiB range needs a 64 KiB-aligned BaseAddress";
        if (op->va < PBC_VA_FIRST || op->va >= PBC_VA_END || size > PBC_VA_END - op->va)
            return "VidMm refuses it: BaseAddress+size outside the GPU virtual address space";
        /* Not free, it must lie in a range reserved before (S49): pbcheck
         * maps into one va-zero range, of the same page size. */
        if (!res_va_free(r, op->space, op->va, op->count, op->flags) &&
            pbc_residency_va_reserved(r, op->space, op->va, op->count, op->flags) < 0)
            return "VidMm refuses it: [BaseAddress, BaseAddress+size) is neither free nor within one range reserved "
                   "before (S49)";
        return NULL;
    }
    if (op->va_min % PBC_PAGE_SIZE || op->va_max % PBC_PAGE_SIZE)
        return "VidMm refuses it: MinimumAddress and MaximumAddress must be 4 KiB aligned (S50)";
    if (op->va_max && op->va_max <= op->va_min)
        return "VidMm refuses it: MaximumAddress at or below MinimumAddress (S50)";
    if (!pbc_residency_va_base(r, op))
        return "VidMm refuses it: no free range of that size within [MinimumAddress, MaximumAddress] (S50)";
    return NULL;
}

static const char *res_check_va_map(const pbc_residency *r, const pbc_sop *op)
{
    const pbc_res_alloc *a = &r->a[op->alloc];
    const pbc_salloc *al = &r->s->allocs[op->alloc];
    const char *why = res_check_va_request(r, op);
    if (why)
        return why;
    if (op->flags & PBC_SOP_VA_NO_ACCESS)
        return "VidMm refuses it: an allocation's range cannot be NoAccess; use va-zero (S51)";
    if (a->va_mapped)
        return "allocation already has a GPU virtual range (pbcheck keeps one per allocation)";
    if (op->first >= pbc_alloc_pages(al) || op->count > pbc_alloc_pages(al) - op->first)
        return "VidMm refuses it: OffsetInPages+SizeInPages beyond the allocation (S52)";
    if (a->where == PBC_WHERE_NONE)
        return "allocation is not resident (fill it first)";
    if ((op->flags & PBC_SOP_VA_64K) && (a->where != PBC_WHERE_SEGMENT || !res_64k_place(r, a->at)))
        return "64 KiB pages need an allocation at a 64 KiB-aligned address in a segment";
    if (a->where == PBC_WHERE_SEGMENT && a->at.offset % PBC_PAGE_SIZE)
        return "GPU virtual pages need an allocation at a 4 KiB-aligned segment offset";
    return NULL;
}

static void res_apply_va(pbc_residency *r, const pbc_sop *op, int alloc)
{
    pbc_res_va u = {pbc_residency_va_base(r, op), op->count, alloc, op->flags, op->space};
    int within = op->va ? pbc_residency_va_reserved(r, op->space, op->va, op->count, op->flags) : -1;
    if (within >= 0 && res_va_meets(r, op->space, op->va, op->count, op->flags)) {
        /* What is left of the reserved range on either side stays reserved. */
        pbc_res_va old = r->vas[within];
        r->vas[within] = r->vas[--r->va_count];
        uint64_t end = u.base + u.pages * PBC_PAGE_SIZE, old_end = old.base + old.pages * PBC_PAGE_SIZE;
        if (u.base > old.base) {
            pbc_res_va left = {old.base, (u.base - old.base) / PBC_PAGE_SIZE, -1, old.flags, old.space};
            PBC_PUSH(r->vas, r->va_count, r->va_cap, left);
        }
        if (end < old_end) {
            pbc_res_va right = {end, (old_end - end) / PBC_PAGE_SIZE, -1, old.flags, old.space};
            PBC_PUSH(r->vas, r->va_count, r->va_cap, right);
        }
    }
    PBC_PUSH(r->vas, r->va_count, r->va_cap, u);
    if (alloc < 0)
        return;
    pbc_res_alloc *a = &r->a[alloc];
    a->va_mapped = 1;
    a->va_flags = op->flags;
    a->va_base = u.base;
    a->va_first = op->first;
    a->va_count = op->count;
    a->va_protection = op->driver_protection;
    a->va_space = op->space;
}

static void res_drop_va(pbc_residency *r, int alloc)
{
    for (uint32_t i = 0; i < r->va_count; i++)
        if (r->vas[i].alloc == alloc) {
            r->vas[i] = r->vas[--r->va_count];
            break;
        }
    r->a[alloc].va_mapped = 0;
}

uint32_t pbc_scenario_spaces(const pbc_scenario *s)
{
    uint32_t n = 1;
    for (uint32_t i = 0; i < s->op_count; i++)
        if (s->ops[i].space >= n)
            n = s->ops[i].space + 1;
    return n;
}

const char *pbc_residency_check(const pbc_residency *r, const pbc_sop *op)
{
    if (op->kind >= PBC_SOP_COUNT)
        return "unknown operation";
    if (op->space && op->kind != PBC_SOP_VA_MAP && op->kind != PBC_SOP_VA_ZERO)
        return "only va-map and va-zero name an address space (the others follow the allocation's range)";
    if (pbc_sop_has_alloc(op->kind) && op->alloc >= r->s->alloc_count)
        return "no such allocation";
    if (pbc_sop_has_alloc(op->kind)) {
        const char *why = res_check_lifetime(r, op);
        if (why || op->kind == PBC_SOP_DESTROY || op->kind == PBC_SOP_CREATE)
            return why;
    }
    switch (op->kind) {
    case PBC_SOP_TRANSFER:
    case PBC_SOP_SPECIAL_LOCK:
        return res_check_transfer(r, op);
    case PBC_SOP_FILL:
        if (r->a[op->alloc].where != PBC_WHERE_NONE)
            return "fill sets initial content: the allocation must not be resident";
        if ((op->flags & PBC_SOP_VIRTUAL) && op->at.offset % PBC_PAGE_SIZE)
            return "GPU virtual pages need a 4 KiB-aligned segment offset";
        return res_check_segment_place(r, op->at, r->s->allocs[op->alloc].size, (int)op->alloc);
    case PBC_SOP_DISCARD:
        if (r->a[op->alloc].va_mapped)
            return "allocation has a GPU virtual range; va-unmap it before discarding it";
        return r->a[op->alloc].where == PBC_WHERE_SEGMENT ? NULL
                                                           : "discard needs an allocation in a memory segment";
    case PBC_SOP_READ_PHYSICAL:
    case PBC_SOP_WRITE_PHYSICAL:
        return res_check_physical(r, op);
    case PBC_SOP_MAP:
        return res_check_map(r, op);
    case PBC_SOP_UNMAP:
        return r->a[op->alloc].mapped ? NULL : "allocation is not mapped";
    case PBC_SOP_RENDER_WRITE:
    case PBC_SOP_RENDER_READ:
        return res_check_render(r, op);
    case PBC_SOP_GPU_READ:
    case PBC_SOP_GPU_WRITE:
        return res_check_gpu_access(r, op);
    case PBC_SOP_DMA:
        return op->dma_size <= PBC_MAX_DMA_SIZE ? NULL : "paging buffers are limited to 1 MiB";
    case PBC_SOP_VA_MAP:
        return res_check_va_map(r, op);
    case PBC_SOP_VA_ZERO:
        return res_check_va_request(r, op);
    case PBC_SOP_VA_UNMAP:
        return r->a[op->alloc].va_mapped ? NULL : "allocation has no GPU virtual range";
    case PBC_SOP_VA_MOVE_TABLES:
        if (!r->a[op->alloc].va_mapped)
            return "allocation has no GPU virtual range";
        if ((op->flags & PBC_SOP_COPY_USED) ? op->count < 1 || op->count > PBC_MAX_COPY_PIECES
                                            : op->count || (op->flags & PBC_SOP_COPY_STAGED))
            return "pieces= is 1 to 8, and pieces= and stage= need 'used'";
        return (op->flags & PBC_SOP_COPY_STAGED) ? (op->first < PBC_PT_ENTRIES ? NULL : "stage= is below 512")
                                                 : op->first ? "stage= needs a scratch table" : NULL;
    case PBC_SOP_NOTIFY:
        return op->pattern < PBC_NOTIFY_COUNT ? NULL : "unknown notification";
    case PBC_SOP_INIT_CONTEXT:
    case PBC_SOP_UPDATE_CONTEXT:
        if (r->s->allocs[op->alloc].size > PBC_MAX_CONTEXT_SIZE)
            return "context allocations are at most 1 MiB";
        if (r->a[op->alloc].where == PBC_WHERE_NONE)
            return "a context operation needs a resident allocation (fill it first)";
        /* VidMm maps the whole context into its paging window, page by
         * page, and gives a context its pages to itself (a driver may
         * initialize a page whole). */
        if (r->a[op->alloc].where == PBC_WHERE_SEGMENT &&
            (r->a[op->alloc].at.offset % PBC_PAGE_SIZE || r->s->allocs[op->alloc].size % PBC_PAGE_SIZE))
            return "a context allocation in a segment starts on a page and is whole pages";
        return NULL;
    default:
        return NULL;
    }
}

/* Notes the segment place an allocation leaves, for work aimed at it
 * while its move out may still be queued (the generator's, and VidMm's
 * facts for certify's conditions). */
static void res_leave(pbc_residency *r, uint32_t alloc, uint32_t where, pbc_place to)
{
    pbc_res_alloc *a = &r->a[alloc];
    if (a->where != PBC_WHERE_SEGMENT || (where == PBC_WHERE_SEGMENT && to.segment == a->at.segment &&
                                          to.offset == a->at.offset))
        return;
    a->left = a->at;
    r->vacated = alloc + 1;
}

void pbc_residency_apply(pbc_residency *r, const pbc_sop *op)
{
    pbc_res_alloc *a = op->alloc < r->s->alloc_count ? &r->a[op->alloc] : NULL;
    if (a && (op->kind == PBC_SOP_TRANSFER || op->kind == PBC_SOP_SPECIAL_LOCK || op->kind == PBC_SOP_FILL))
        res_leave(r, op->alloc, op->at.segment ? PBC_WHERE_SEGMENT : PBC_WHERE_SYSTEM, op->at);
    else if (a && (op->kind == PBC_SOP_DISCARD || op->kind == PBC_SOP_DESTROY))
        res_leave(r, op->alloc, PBC_WHERE_NONE, op->at);
    switch (op->kind) {
    case PBC_SOP_TRANSFER:
    case PBC_SOP_SPECIAL_LOCK:
    case PBC_SOP_FILL:
        a->where = op->at.segment ? PBC_WHERE_SEGMENT : PBC_WHERE_SYSTEM;
        a->at = op->at;
        break;
    case PBC_SOP_DISCARD:
        a->where = PBC_WHERE_NONE;
        break;
    case PBC_SOP_MAP: {
        a->mapped = 1;
        a->ap_segment = op->at.segment;
        a->ap_page = op->at.offset;
        a->map_first = op->first;
        a->map_count = op->count;
        pbc_res_range v = {op->at.segment, op->at.offset, op->count};
        PBC_PUSH(r->valid, r->valid_count, r->valid_cap, v);
        break;
    }
    case PBC_SOP_UNMAP:
        a->mapped = 0;
        break;
    case PBC_SOP_VA_MAP:
        res_apply_va(r, op, (int)op->alloc);
        break;
    case PBC_SOP_VA_ZERO:
        res_apply_va(r, op, -1);
        break;
    case PBC_SOP_VA_UNMAP:
        res_drop_va(r, (int)op->alloc);
        break;
    case PBC_SOP_DESTROY:
        a->destroyed = 1;
        a->where = PBC_WHERE_NONE;
        break;
    case PBC_SOP_CREATE:
        a->destroyed = 0;
        a->where = pbc_sop_created_where(op);
        a->at = op->at;
        break;
    default:
        break;
    }
}

uint32_t pbc_scenario_keep_supported(pbc_scenario *s, const pbc_target *t)
{
    pbc_residency r;
    if (pbc_residency_init(&r, s)) {
        pbc_residency_fini(&r);
        return 0;
    }
    uint32_t kept = 0, dropped = 0;
    pbc_scenario_fit_coherence(s, sop_decl(t)); /* made within the declared adapter: its segments' ids */
    for (uint32_t i = 0; i < s->op_count; i++) {
        const pbc_sop *op = &s->ops[i];
        if (!pbc_sop_op_supported(t, op) || pbc_residency_check(&r, op)) {
            dropped++;
            continue;
        }
        pbc_residency_apply(&r, op);
        s->ops[kept++] = *op;
    }
    s->op_count = kept;
    pbc_residency_fini(&r);
    return dropped;
}

int pbc_scenario_validate(const pbc_scenario *s, char *buf, size_t size)
{
    const char *why = pbc_gpu_layout_check(s->segments, s->segment_count);
    if (why) {
        snprintf(buf, size, "layout: %s", why);
        return -1;
    }
    pbc_residency r;
    why = pbc_residency_init(&r, s);
    if (why) {
        snprintf(buf, size, "initial placement: %s", why);
        pbc_residency_fini(&r);
        return -1;
    }
    for (uint32_t i = 0; i < s->op_count; i++) {
        why = pbc_residency_check(&r, &s->ops[i]);
        if (why) {
            snprintf(buf, size, "operation %u (%s): %s", i + 1, pbc_sop_name(s->ops[i].kind), why);
            pbc_residency_fini(&r);
            return -1;
        }
        pbc_residency_apply(&r, &s->ops[i]);
    }
    pbc_residency_fini(&r);
    return 0;
}

/* ---- Limits ---- */

/* Pages spanned by [offset, offset + size). */
static uint64_t span_pages(uint64_t offset, uint64_t size)
{
    return size ? (offset % PBC_PAGE_SIZE + size + PBC_PAGE_SIZE - 1) / PBC_PAGE_SIZE : 0;
}

/* Pages an allocation's MDL takes: its own and the foreign ones before. */
static uint64_t mdl_pages(const pbc_salloc *a) { return (uint64_t)a->mdl_offset + pbc_alloc_pages(a); }

static uint64_t alloc_footprint(const pbc_salloc *a)
{
    switch (a->where) {
    case PBC_WHERE_SYSTEM:
        return mdl_pages(a);
    case PBC_WHERE_SEGMENT:
        return span_pages(a->at.offset, a->size);
    default:
        return 0;
    }
}

/* Render work writes only where its allocation already is, reads write
 * nothing, and aperture pages map pages counted elsewhere. */
static uint64_t op_footprint(const pbc_scenario *s, const pbc_sop *op)
{
    const pbc_salloc *a = op->alloc < s->alloc_count ? &s->allocs[op->alloc] : NULL;
    switch (op->kind) {
    case PBC_SOP_TRANSFER:
    case PBC_SOP_SPECIAL_LOCK:
        if (!a)
            return 0;
        return op->at.segment ? span_pages(op->at.offset, a->size) : mdl_pages(a);
    case PBC_SOP_FILL:
        return a ? span_pages(op->at.offset, a->size) : 0;
    case PBC_SOP_CREATE: /* its initial content, as an allocation's */
        if (!a || (op->flags & PBC_SOP_NO_CONTENT))
            return 0;
        return op->at.segment ? span_pages(op->at.offset, a->size) : mdl_pages(a);
    case PBC_SOP_GPU_WRITE:
        return span_pages(op->at.offset, op->size);
    case PBC_SOP_READ_PHYSICAL:
    case PBC_SOP_WRITE_PHYSICAL:
        return 1;
    default:
        return 0;
    }
}

uint64_t pbc_scenario_footprint(const pbc_scenario *s)
{
    uint64_t pages = 0;
    for (uint32_t i = 0; i < s->alloc_count; i++)
        pages += alloc_footprint(&s->allocs[i]);
    for (uint32_t i = 0; i < s->op_count; i++)
        pages += op_footprint(s, &s->ops[i]);
    return pages * PBC_PAGE_SIZE;
}

uint32_t pbc_scenario_timeout_units(const pbc_scenario *s)
{
    return 1 + (uint32_t)(pbc_scenario_footprint(s) / PBC_TIMEOUT_BYTES);
}

/* System pages an allocation or operation takes (MDLs: its pages and the
 * foreign ones before them). */
static uint64_t alloc_system(const pbc_salloc *a) { return a->where == PBC_WHERE_SYSTEM ? mdl_pages(a) : 0; }

static uint64_t op_system(const pbc_scenario *s, const pbc_sop *op)
{
    int moves = op->kind == PBC_SOP_TRANSFER || op->kind == PBC_SOP_SPECIAL_LOCK ||
                (op->kind == PBC_SOP_CREATE && !(op->flags & PBC_SOP_NO_CONTENT));
    return moves && op->alloc < s->alloc_count && !op->at.segment ? mdl_pages(&s->allocs[op->alloc]) : 0;
}

static int within_limits(uint64_t pages, uint64_t system)
{
    return pages * PBC_PAGE_SIZE <= PBC_MAX_SCENARIO_BYTES && system * PBC_PAGE_SIZE <= PBC_MAX_SYSTEM_BYTES;
}

/* The message for pages written and system pages taken past a limit by
 * `where`. Returns -1. */
static int limit_message(uint64_t pages, uint64_t system, const char *where, char *buf, size_t size)
{
    const char *what = "writes", *kind = "modeled memory", *has = "a scenario may write";
    uint64_t got = pages, max = PBC_MAX_SCENARIO_BYTES;
    if (pages * PBC_PAGE_SIZE <= PBC_MAX_SCENARIO_BYTES) {
        what = "takes", kind = "system memory", has = "the GPU model has";
        got = system, max = PBC_MAX_SYSTEM_BYTES;
    }
    snprintf(buf, size,
             "over the memory limit: by %s the scenario %s %llu MiB of %s, more than the %llu MiB %s "
             "(docs/scenario-format.md, \"Limits\")",
             where, what, (unsigned long long)((got * PBC_PAGE_SIZE + (1u << 20) - 1) >> 20), kind,
             (unsigned long long)(max >> 20), has);
    return -1;
}

/* Pages of GPU virtual ranges whose entries an operation makes VidMm
 * write (`ranged`: the allocations that have a range, kept up to date):
 * a range's own, twice an allocation's for its paging windows, a range
 * that follows its allocation, a leaf moved whole. */
uint64_t pbc_sop_va_pages(const pbc_scenario *s, const pbc_sop *op, uint8_t *ranged)
{
    uint64_t pages = op->alloc < s->alloc_count ? pbc_alloc_pages(&s->allocs[op->alloc]) : 0;
    switch (op->kind) {
    case PBC_SOP_VA_MAP:
        ranged[op->alloc] = 1;
        return op->count;
    case PBC_SOP_VA_ZERO:
        return op->count;
    case PBC_SOP_VA_UNMAP:
        ranged[op->alloc] = 0;
        return pages;
    case PBC_SOP_VA_MOVE_TABLES: /* through a scratch table: its leaves twice */
        return ((op->flags & PBC_SOP_COPY_STAGED) ? 2 : 1) * (pages + 2 * PBC_PT_ENTRIES);
    case PBC_SOP_TRANSFER:
    case PBC_SOP_SPECIAL_LOCK:
    case PBC_SOP_FILL:
        return ((op->flags & PBC_SOP_VIRTUAL) ? 2 * pages : 0) + (ranged[op->alloc] ? pages : 0);
    case PBC_SOP_INIT_CONTEXT:
    case PBC_SOP_UPDATE_CONTEXT:
        return 2 * pages; /* VidMm's window over the whole context, opened and closed */
    default:
        return 0;
    }
}

int pbc_sop_va_fits(const pbc_scenario *s, const pbc_sop *op, uint8_t *ranged, uint64_t *va)
{
    uint8_t was = op->alloc < s->alloc_count ? ranged[op->alloc] : 0;
    uint64_t cost = pbc_sop_va_pages(s, op, ranged);
    if (*va + cost <= PBC_MAX_VA_PAGES) {
        *va += cost;
        return 1;
    }
    if (op->alloc < s->alloc_count)
        ranged[op->alloc] = was;
    return 0;
}

uint64_t pbc_scenario_va_pages(const pbc_scenario *s)
{
    uint8_t *ranged = pbc_xcalloc(s->alloc_count + 1, 1);
    uint64_t va = 0;
    for (uint32_t i = 0; i < s->op_count; i++)
        va += pbc_sop_va_pages(s, &s->ops[i], ranged);
    free(ranged);
    return va;
}

int pbc_scenario_check_limits(const pbc_scenario *s, char *buf, size_t size, uint32_t *line)
{
    uint64_t pages = 0, system = 0, va = 0;
    uint8_t *ranged = pbc_xcalloc(s->alloc_count + 1, 1);
    char where[64];
    *line = 0;
    int rc = 0;
    for (uint32_t i = 0; i < s->alloc_count && !rc; i++) {
        pages += alloc_footprint(&s->allocs[i]);
        system += alloc_system(&s->allocs[i]);
        if (!within_limits(pages, system)) {
            snprintf(where, sizeof(where), "allocation '%s'", s->allocs[i].name);
            *line = s->allocs[i].line;
            rc = limit_message(pages, system, where, buf, size);
        }
    }
    for (uint32_t i = 0; i < s->op_count && !rc; i++) {
        pages += op_footprint(s, &s->ops[i]);
        system += op_system(s, &s->ops[i]);
        uint64_t before = va;
        va += pbc_sop_va_pages(s, &s->ops[i], ranged);
        /* Page tables come from system memory: for each 512 pages of
         * entries written, at most a leaf (two pages) and its page in the
         * tables window, and a level-1 table with its own for the first. */
        if (va > before)
            system += 3 * ((va + PBC_PT_ENTRIES - 1) / PBC_PT_ENTRIES - (before + PBC_PT_ENTRIES - 1) / PBC_PT_ENTRIES) +
                      (before == 0 ? 32 : 0);
        if (va > PBC_MAX_VA_PAGES) {
            *line = s->ops[i].line;
            snprintf(buf, size,
                     "over the GPU virtual limit: by operation %u (%s) the scenario has VidMm write page-table "
                     "entries for %llu pages, more than the %u a scenario may (docs/scenario-format.md, \"Limits\")",
                     i + 1, pbc_sop_name(s->ops[i].kind), (unsigned long long)va, PBC_MAX_VA_PAGES);
            rc = -1;
        } else if (!within_limits(pages, system)) {
            snprintf(where, sizeof(where), "operation %u (%s)", i + 1, pbc_sop_name(s->ops[i].kind));
            *line = s->ops[i].line;
            rc = limit_message(pages, system, where, buf, size);
        }
    }
    free(ranged);
    return rc;
}

_Static_assert(PBC_FUZZ_MAX_FOOTPRINT <= PBC_MAX_SCENARIO_BYTES, "the fuzz budget lies within the limits");

/* Pages moved or filled while the paging buffers are smaller than 4 KiB
 * (the default before the first dma operation is PBC_DEFAULT_DMA_SIZE). */
static uint64_t small_buffer_pages(const pbc_scenario *s)
{
    uint64_t pages = 0;
    uint32_t dma = PBC_DEFAULT_DMA_SIZE;
    for (uint32_t i = 0; i < s->op_count; i++) {
        const pbc_sop *o = &s->ops[i];
        if (o->kind == PBC_SOP_DMA)
            dma = o->dma_size;
        else if ((o->kind == PBC_SOP_TRANSFER || o->kind == PBC_SOP_SPECIAL_LOCK || o->kind == PBC_SOP_FILL) &&
                 o->alloc < s->alloc_count && dma < 4096)
            pages += pbc_alloc_pages(&s->allocs[o->alloc]);
    }
    return pages;
}

int pbc_scenario_fuzz_runs(const pbc_scenario *s)
{
    char why[300];
    uint32_t line;
    uint64_t bytes = 0;
    for (uint32_t i = 0; i < s->alloc_count; i++)
        bytes += s->allocs[i].size;
    return pbc_scenario_check_limits(s, why, sizeof(why), &line) == 0 && bytes <= PBC_FUZZ_MAX_ALLOC_BYTES &&
           pbc_scenario_footprint(s) <= PBC_FUZZ_MAX_FOOTPRINT &&
           small_buffer_pages(s) <= PBC_FUZZ_MAX_SMALL_BUFFER_PAGES &&
           pbc_scenario_va_pages(s) <= PBC_FUZZ_MAX_VA_PAGES;
}

int pbc_scenario_fuzz_rerun(const uint8_t *data, size_t size)
{
    uint64_t h = 0xCBF29CE484222325ull; /* FNV-1a: the decoder's room links no hash library */
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 0x100000001B3ull;
    return (h ^ (h >> 29)) % PBC_FUZZ_RERUN_EVERY == 0;
}
