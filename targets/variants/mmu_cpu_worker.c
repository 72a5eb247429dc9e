/*
 * variant-mmu-cpu-worker: page tables and the paging fence written by the
 * CPU, in a worker the GPU's queue wakes, as drivers that page with the
 * CPU do. BuildPagingBuffer keeps each UpdatePageTable (by physical
 * address) and each SignalMonitoredFence as a record of its own and
 * leaves a marker in the paging buffer where the work belongs (a NOP
 * carrying the record's number); Patch finds the markers of the range;
 * SubmitCommand rings the range up to and including each marker, then
 * queues CPU work that carries the record out (host->queue_cpu_work),
 * and rings the rest. So every packet before a marker runs before its
 * record, and every packet after it (a FlushTlb, a transfer through the
 * new entries) after it. The fence's page is found by walking the tables
 * in memory with the CPU, from the root's physical address
 * (MmGetPhysicalAddress of the view the root's immediate update came
 * with). Every other operation is the reference's.
 *
 * Legal: nothing says who writes the entries or the fence, only what
 * they hold and in which order the work happens; CPU work runs in the
 * paging engine's order. PB-PTE, PB-TLB and PB-PAGING-FENCE must judge
 * what was written, and when, not by whom.
 */
#include "var_common.h"

#include <stdlib.h>
#include <string.h>

#define WORKER_MAGIC 0x57555043u /* "CPUW" */
#define WORKER_MARKER_DWORDS 3u
#define WORKER_SLOTS 16u

typedef struct worker_record {
    struct worker_adapter *owner;
    uint32_t kind;         /* DXGK_OPERATION_UPDATE_PAGE_TABLE or _SIGNAL_MONITORED_FENCE */
    uint64_t address;      /* the table's physical address, or the fence's GPU virtual address */
    UINT level, start, count, repeat, use64k;
    uint64_t value;        /* the fence value */
    DXGK_PTE *entries;     /* count entries (1 with repeat) */
} worker_record;

typedef struct worker_adapter {
    var_adapter base;
    uint64_t root; /* the root table's physical address */
    worker_record **records;
    uint32_t record_count, record_cap;
    struct worker_slot {
        UINT fence;
        uint32_t count, cap;
        UINT *end;    /* buffer offset just past each marker */
        uint32_t *id; /* its record */
    } slot[WORKER_SLOTS];
} worker_adapter;

static NTSTATUS worker_create_adapter(const pbc_adapter_info *info, HANDLE *adapter)
{
    return var_adapter_create(info, sizeof(worker_adapter), adapter);
}

static void worker_destroy_adapter(HANDLE adapter)
{
    worker_adapter *wa = adapter;
    for (uint32_t i = 0; i < wa->record_count; i++) {
        free(wa->records[i]->entries);
        free(wa->records[i]);
    }
    free(wa->records);
    for (uint32_t i = 0; i < WORKER_SLOTS; i++) {
        free(wa->slot[i].end);
        free(wa->slot[i].id);
    }
    var_adapter_destroy(adapter);
}

/* Keeps r as the next record; its number, or -1 when out of memory. */
static int64_t worker_keep(worker_adapter *wa, worker_record *r)
{
    if (wa->record_count == wa->record_cap) {
        uint32_t cap = wa->record_cap ? wa->record_cap * 2 : 64;
        worker_record **grown = realloc(wa->records, cap * sizeof(*grown));
        if (!grown)
            return -1;
        wa->records = grown;
        wa->record_cap = cap;
    }
    wa->records[wa->record_count] = r;
    return wa->record_count++;
}

static NTSTATUS worker_mark(worker_adapter *wa, DXGKARG_BUILDPAGINGBUFFER *a, worker_record *r)
{
    if (a->DmaSize < WORKER_MARKER_DWORDS * 4) {
        free(r->entries);
        free(r);
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    }
    int64_t id = worker_keep(wa, r);
    if (id < 0) {
        free(r->entries);
        free(r);
        return STATUS_NO_MEMORY;
    }
    uint8_t *cur = a->pDmaBuffer;
    ref_encode_nop(cur, WORKER_MARKER_DWORDS);
    uint32_t words[2] = {WORKER_MAGIC, (uint32_t)id};
    memcpy(cur + 4, words, sizeof(words));
    a->pDmaBuffer = cur + WORKER_MARKER_DWORDS * 4;
    a->MultipassOffset = 0;
    return STATUS_SUCCESS;
}

static NTSTATUS worker_update(worker_adapter *wa, DXGKARG_BUILDPAGINGBUFFER *a)
{
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &a->UpdatePageTable;
    worker_record *r = calloc(1, sizeof(*r));
    UINT n = u->Flags.Repeat ? 1 : u->NumPageTableEntries;
    if (!r || !(r->entries = malloc((n ? n : 1) * sizeof(DXGK_PTE)))) {
        free(r);
        return STATUS_NO_MEMORY;
    }
    memcpy(r->entries, u->pPageTableEntries, n * sizeof(DXGK_PTE)); /* VidMm's array lives for the call */
    r->owner = wa;
    r->kind = DXGK_OPERATION_UPDATE_PAGE_TABLE;
    r->address = u->PageTableAddress.GpuPhysical.SegmentOffset;
    r->level = u->PageTableLevel;
    r->start = u->StartIndex;
    r->count = u->NumPageTableEntries;
    r->repeat = u->Flags.Repeat;
    r->use64k = u->Flags.Use64KBPages;
    return worker_mark(wa, a, r);
}

static NTSTATUS worker_signal(worker_adapter *wa, DXGKARG_BUILDPAGINGBUFFER *a)
{
    worker_record *r = calloc(1, sizeof(*r));
    if (!r)
        return STATUS_NO_MEMORY;
    r->owner = wa;
    r->kind = DXGK_OPERATION_SIGNAL_MONITORED_FENCE;
    r->address = a->SignalMonitoredFence.MonitoredFenceGpuVa;
    r->value = a->SignalMonitoredFence.MonitoredFenceValue;
    return worker_mark(wa, a, r);
}

static NTSTATUS APIENTRY worker_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    worker_adapter *wa = adapter;
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &a->UpdatePageTable;
    if (a->Operation == DXGK_OPERATION_UPDATE_PAGE_TABLE && u->UpdateMode == DXGK_PAGETABLEUPDATE_CPU_VIRTUAL) {
        if (u->PageTableLevel == 2 && !wa->root)
            wa->root = (uint64_t)MmGetPhysicalAddress(u->PageTableAddress.CpuVirtual).QuadPart;
        return ref_build_paging_buffer(var_ref(adapter), a); /* now, with no paging buffer */
    }
    if (a->Operation == DXGK_OPERATION_UPDATE_PAGE_TABLE && u->UpdateMode == DXGK_PAGETABLEUPDATE_GPU_PHYSICAL &&
        !u->PageTableAddress.GpuPhysical.SegmentId)
        return worker_update(wa, a);
    if (a->Operation == DXGK_OPERATION_SIGNAL_MONITORED_FENCE && wa->root)
        return worker_signal(wa, a);
    return ref_build_paging_buffer(var_ref(adapter), a);
}

/* ---- the worker ---- */

static void *worker_map(uint64_t phys, size_t bytes)
{
    PHYSICAL_ADDRESS pa;
    pa.QuadPart = (LONGLONG)phys;
    return MmMapIoSpace(pa, bytes, MmNonCached);
}

/* The physical address of va, walking the tables in memory (DXGK_PTE, 4 KiB
 * pages of system memory, where VidMm keeps its fence); 0 if none. */
static uint64_t worker_translate(uint64_t root, uint64_t va)
{
    uint64_t table = root;
    for (int level = 2; level >= 0; level--) {
        uint64_t at = table + ((va >> (12 + 9 * level)) & 511) * sizeof(DXGK_PTE);
        DXGK_PTE *view = worker_map(at, sizeof(DXGK_PTE)), e;
        if (!view)
            return 0;
        memcpy(&e, view, sizeof(e));
        MmUnmapIoSpace(view, sizeof(e));
        if (!e.Valid || e.Segment || (level > 0 && (e.LargePage || e.PageTablePageSize)))
            return 0;
        table = (uint64_t)e.PageAddress << 12;
    }
    return table | (va & 0xFFF);
}

static void worker_run(void *arg)
{
    const worker_record *r = arg;
    if (r->kind == DXGK_OPERATION_SIGNAL_MONITORED_FENCE) {
        uint64_t at = worker_translate(r->owner->root, r->address);
        UINT64 *fence = at ? worker_map(at, sizeof(*fence)) : NULL;
        if (fence) {
            *fence = r->value;
            MmUnmapIoSpace(fence, sizeof(*fence));
        }
        return;
    }
    size_t bytes = (size_t)r->count * sizeof(DXGK_PTE);
    DXGK_PTE *table = r->count ? worker_map(r->address + (uint64_t)r->start * sizeof(DXGK_PTE), bytes) : NULL;
    if (!table)
        return;
    for (UINT i = 0; i < r->count; i++) {
        DXGK_PTE e = r->entries[r->repeat ? 0 : i];
        if (r->level == 1 && r->use64k)
            e.PageTablePageSize = DXGK_PTE_PAGE_TABLE_PAGE_64KB;
        table[i] = e;
    }
    MmUnmapIoSpace(table, bytes);
}

/* Patch sees the bytes: where the markers of the range end. */
static NTSTATUS APIENTRY worker_patch(IN_CONST_HANDLE adapter, const DXGKARG_PATCH *p)
{
    worker_adapter *wa = adapter;
    const uint8_t *buf = p->pDmaBuffer;
    UINT start = p->DmaBufferSubmissionStartOffset, end = p->DmaBufferSubmissionEndOffset;
    struct worker_slot *slot = &wa->slot[p->SubmissionFenceId % WORKER_SLOTS];
    slot->fence = p->SubmissionFenceId;
    slot->count = 0;
    for (UINT off = start; off < end;) {
        pbc_uop u;
        size_t len;
        const char *why;
        if (ref_isa.decode(buf + off, end - off, &u, &len, &why) != PBC_DECODE_OK)
            break; /* the GPU will report the bad packet */
        uint32_t words[2];
        if (u.kind == PBC_UOP_NOP && len == WORKER_MARKER_DWORDS * 4) {
            memcpy(words, buf + off + 4, sizeof(words));
            if (words[0] == WORKER_MAGIC && words[1] < wa->record_count) {
                if (slot->count == slot->cap) {
                    uint32_t cap = slot->cap ? slot->cap * 2 : 64;
                    UINT *ends = realloc(slot->end, cap * sizeof(*ends));
                    if (ends)
                        slot->end = ends;
                    uint32_t *ids = realloc(slot->id, cap * sizeof(*ids));
                    if (ids)
                        slot->id = ids;
                    if (!ends || !ids)
                        return STATUS_NO_MEMORY;
                    slot->cap = cap;
                }
                slot->end[slot->count] = off + (UINT)len;
                slot->id[slot->count++] = words[1];
            }
        }
        off += (UINT)len;
    }
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY worker_submit(IN_CONST_HANDLE adapter, const DXGKARG_SUBMITCOMMAND *c)
{
    worker_adapter *wa = adapter;
    const pbc_host *h = wa->base.host;
    uint64_t phys = (uint64_t)c->DmaBufferPhysicalAddress.QuadPart;
    UINT at = c->DmaBufferSubmissionStartOffset, end = c->DmaBufferSubmissionEndOffset;
    const struct worker_slot *slot = &wa->slot[c->SubmissionFenceId % WORKER_SLOTS];
    uint32_t marks = slot->fence == c->SubmissionFenceId ? slot->count : 0;
    for (uint32_t i = 0; i < marks; i++) {
        h->ring_submit(h->ctx, c->DmaBufferSegmentId, phys, at, slot->end[i]);
        h->queue_cpu_work(h->ctx, worker_run, wa->records[slot->id[i]]);
        at = slot->end[i];
    }
    if (at < end || !marks)
        h->ring_submit(h->ctx, c->DmaBufferSegmentId, phys, at, end);
    h->ring_fence(h->ctx, c->SubmissionFenceId);
    return STATUS_SUCCESS;
}

const pbc_target pbc_variant_mmu_cpu_worker = {
    REF_TARGET_FIELDS_OPS(REF_OPERATIONS_GPUMMU, "variant-mmu-cpu-worker",
                          "page-table entries and the paging fence written by CPU work the GPU's queue wakes, in order",
                          REF_MAX_PACKET_BYTES, 0, worker_create_adapter, worker_destroy_adapter,
                          ref_create_allocation, ref_destroy_allocation, worker_build, worker_patch, worker_submit),
};
