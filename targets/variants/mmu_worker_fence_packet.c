/*
 * variant-worker-fence-packet: page-table entries written by CPU work the
 * GPU's queue wakes, the paging fence written by a packet; discarded
 * content poisoned by such work too. BuildPagingBuffer keeps each
 * UpdatePageTable by physical address, and each DiscardContent of a
 * segment range, as a record and leaves a
 * marker NOP carrying the record's number where the work belongs; every
 * other operation, SignalMonitoredFence among them, is the reference's
 * packets. Patch finds the markers of the range; SubmitCommand rings the
 * range up to and including each marker, then queues CPU work that
 * carries the record out (host->queue_cpu_work), and rings the rest.
 *
 * So a submission that holds work before a signal, the signal's packet
 * and an UpdatePageTable after it has that update's CPU work still queued
 * when the packet writes the fence: it serves an operation after the
 * signal, and changes nothing an operation before it was to produce.
 * Legal: CPU work runs in the paging engine's order and each record's
 * work runs after the packets before its marker and before those after
 * it. PB-PAGING-FENCE must judge the pending work by what it changes, not
 * hold every CPU work entry of the submission against the fence; and the
 * poison of a discard after the signal lands on bytes an earlier Fill
 * wrote, which a discard may leave holding anything (S27).
 *
 * mutant-late-cpu-work (var_fpw_submit with late set) rings the range up
 * to its last fence packet first, and only then queues the CPU work of
 * the markers before it: the entries an operation before the signal was
 * to write land after the fence said they had.
 */
#include "var_common.h"

#include <stdlib.h>
#include <string.h>

#define FPW_MAGIC 0x46505743u /* "CWPF" */
#define FPW_MARKER_DWORDS 3u
#define FPW_SLOTS 16u

typedef struct fpw_record {
    uint32_t discard; /* a DiscardContent: poisons [table, table + count) */
    uint64_t table; /* physical address */
    UINT level, start, count, repeat, use64k;
    DXGK_PTE *entries; /* count entries (1 with repeat) */
} fpw_record;

typedef struct fpw_adapter {
    var_adapter base;
    fpw_record **records;
    uint32_t record_count, record_cap;
    struct fpw_slot {
        UINT fence;
        uint32_t count, cap;
        UINT *end;       /* buffer offset just past each marker */
        uint32_t *id;    /* its record */
        UINT *fence_at;  /* just past the first paging-fence packet between it and the next marker (0: none) */
    } slot[FPW_SLOTS];
} fpw_adapter;

NTSTATUS var_fpw_create_adapter(const pbc_adapter_info *info, HANDLE *adapter)
{
    return var_adapter_create(info, sizeof(fpw_adapter), adapter);
}

void var_fpw_destroy_adapter(HANDLE adapter)
{
    fpw_adapter *fa = adapter;
    for (uint32_t i = 0; i < fa->record_count; i++) {
        free(fa->records[i]->entries);
        free(fa->records[i]);
    }
    free(fa->records);
    for (uint32_t i = 0; i < FPW_SLOTS; i++) {
        free(fa->slot[i].end);
        free(fa->slot[i].id);
        free(fa->slot[i].fence_at);
    }
    var_adapter_destroy(adapter);
}

/* Keeps r as the next record and leaves its marker in the buffer. */
static NTSTATUS fpw_keep(fpw_adapter *fa, DXGKARG_BUILDPAGINGBUFFER *a, fpw_record *r)
{
    if (fa->record_count == fa->record_cap) {
        uint32_t cap = fa->record_cap ? fa->record_cap * 2 : 64;
        fpw_record **grown = realloc(fa->records, cap * sizeof(*grown));
        if (!grown) {
            free(r->entries);
            free(r);
            return STATUS_NO_MEMORY;
        }
        fa->records = grown;
        fa->record_cap = cap;
    }
    uint32_t id = fa->record_count;
    fa->records[fa->record_count++] = r;
    uint8_t *cur = a->pDmaBuffer;
    ref_encode_nop(cur, FPW_MARKER_DWORDS);
    uint32_t words[2] = {FPW_MAGIC, id};
    memcpy(cur + 4, words, sizeof(words));
    a->pDmaBuffer = cur + FPW_MARKER_DWORDS * 4;
    a->MultipassOffset = 0;
    return STATUS_SUCCESS;
}

/* DiscardContent by CPU work that poisons what it discards: the content
 * is undefined after it (S27), whoever makes it so and when. */
static NTSTATUS fpw_discard(fpw_adapter *fa, DXGKARG_BUILDPAGINGBUFFER *a)
{
    if (a->DmaSize < FPW_MARKER_DWORDS * 4)
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    fpw_record *r = calloc(1, sizeof(*r));
    if (!r)
        return STATUS_NO_MEMORY;
    r->discard = 1;
    r->table = (uint64_t)a->DiscardContent.SegmentAddress.QuadPart;
    r->count = (UINT)ref_allocation_size(a->DiscardContent.hAllocation);
    return fpw_keep(fa, a, r);
}

static NTSTATUS fpw_update(fpw_adapter *fa, DXGKARG_BUILDPAGINGBUFFER *a)
{
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &a->UpdatePageTable;
    if (a->DmaSize < FPW_MARKER_DWORDS * 4)
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    fpw_record *r = calloc(1, sizeof(*r));
    UINT n = u->Flags.Repeat ? 1 : u->NumPageTableEntries;
    if (!r || !(r->entries = malloc((n ? n : 1) * sizeof(DXGK_PTE)))) {
        free(r);
        return STATUS_NO_MEMORY;
    }
    memcpy(r->entries, u->pPageTableEntries, n * sizeof(DXGK_PTE)); /* VidMm's array lives for the call */
    r->table = u->PageTableAddress.GpuPhysical.SegmentOffset;
    r->level = u->PageTableLevel;
    r->start = u->StartIndex;
    r->count = u->NumPageTableEntries;
    r->repeat = u->Flags.Repeat;
    r->use64k = u->Flags.Use64KBPages;
    return fpw_keep(fa, a, r);
}

NTSTATUS APIENTRY var_fpw_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &a->UpdatePageTable;
    if (a->Operation == DXGK_OPERATION_UPDATE_PAGE_TABLE && u->UpdateMode == DXGK_PAGETABLEUPDATE_GPU_PHYSICAL &&
        !u->PageTableAddress.GpuPhysical.SegmentId)
        return fpw_update((fpw_adapter *)adapter, a);
    if (a->Operation == DXGK_OPERATION_DISCARD_CONTENT && a->DiscardContent.SegmentId)
        return fpw_discard((fpw_adapter *)adapter, a);
    return ref_build_paging_buffer(var_ref(adapter), a); /* the fence too: a packet */
}

static void fpw_run(void *arg)
{
    const fpw_record *r = arg;
    if (r->discard) {
        PHYSICAL_ADDRESS pa;
        pa.QuadPart = (LONGLONG)r->table;
        uint8_t *mem = r->count ? MmMapIoSpace(pa, r->count, MmNonCached) : NULL;
        if (mem) {
            memset(mem, 0xDB, r->count);
            MmUnmapIoSpace(mem, r->count);
        }
        return;
    }
    size_t bytes = (size_t)r->count * sizeof(DXGK_PTE);
    PHYSICAL_ADDRESS pa;
    pa.QuadPart = (LONGLONG)(r->table + (uint64_t)r->start * sizeof(DXGK_PTE));
    DXGK_PTE *table = r->count ? MmMapIoSpace(pa, bytes, MmNonCached) : NULL;
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

static int fpw_slot_add(struct fpw_slot *slot, UINT end, uint32_t id)
{
    if (slot->count == slot->cap) {
        uint32_t cap = slot->cap ? slot->cap * 2 : 64;
        UINT *ends = realloc(slot->end, cap * sizeof(*ends));
        if (ends)
            slot->end = ends;
        uint32_t *ids = realloc(slot->id, cap * sizeof(*ids));
        if (ids)
            slot->id = ids;
        UINT *fences = realloc(slot->fence_at, cap * sizeof(*fences));
        if (fences)
            slot->fence_at = fences;
        if (!ends || !ids || !fences)
            return -1;
        slot->cap = cap;
    }
    slot->end[slot->count] = end;
    slot->fence_at[slot->count] = 0;
    slot->id[slot->count++] = id;
    return 0;
}

/* Patch sees the bytes: where the markers of the range end, and where a
 * paging-fence packet (a 64-bit write to a GPU virtual address) follows
 * one before the next. */
NTSTATUS APIENTRY var_fpw_patch(IN_CONST_HANDLE adapter, const DXGKARG_PATCH *p)
{
    fpw_adapter *fa = adapter;
    const uint8_t *buf = p->pDmaBuffer;
    UINT start = p->DmaBufferSubmissionStartOffset, end = p->DmaBufferSubmissionEndOffset;
    struct fpw_slot *slot = &fa->slot[p->SubmissionFenceId % FPW_SLOTS];
    slot->fence = p->SubmissionFenceId;
    slot->count = 0;
    for (UINT off = start; off < end;) {
        pbc_uop u;
        size_t len;
        const char *why;
        if (ref_isa.decode(buf + off, end - off, &u, &len, &why) != PBC_DECODE_OK)
            break; /* the GPU will report the bad packet */
        uint32_t words[2];
        if (u.kind == PBC_UOP_NOP && len == FPW_MARKER_DWORDS * 4) {
            memcpy(words, buf + off + 4, sizeof(words));
            if (words[0] == FPW_MAGIC && words[1] < fa->record_count && fpw_slot_add(slot, off + (UINT)len, words[1]))
                return STATUS_NO_MEMORY;
        }
        if (u.kind == PBC_UOP_WRITE_IMM && u.width == 8 && (u.flags & PBC_UOP_DST_VIRTUAL) && slot->count &&
            !slot->fence_at[slot->count - 1])
            slot->fence_at[slot->count - 1] = off + (UINT)len;
        off += (UINT)len;
    }
    return STATUS_SUCCESS;
}

NTSTATUS var_fpw_submit(HANDLE adapter, const DXGKARG_SUBMITCOMMAND *c, int late)
{
    fpw_adapter *fa = adapter;
    const pbc_host *h = fa->base.host;
    uint64_t phys = (uint64_t)c->DmaBufferPhysicalAddress.QuadPart;
    UINT at = c->DmaBufferSubmissionStartOffset, end = c->DmaBufferSubmissionEndOffset;
    const struct fpw_slot *slot = &fa->slot[c->SubmissionFenceId % FPW_SLOTS];
    uint32_t marks = slot->fence == c->SubmissionFenceId ? slot->count : 0;
    for (uint32_t i = 0; i < marks; i++) {
        /* The planted bug: a marker followed by a fence packet is rung
         * with it, its CPU work queued after. */
        UINT upto = late && slot->fence_at[i] ? slot->fence_at[i] : slot->end[i];
        h->ring_submit(h->ctx, c->DmaBufferSegmentId, phys, at, upto);
        h->queue_cpu_work(h->ctx, fpw_run, fa->records[slot->id[i]]);
        at = upto;
    }
    if (at < end || !marks)
        h->ring_submit(h->ctx, c->DmaBufferSegmentId, phys, at, end);
    h->ring_fence(h->ctx, c->SubmissionFenceId);
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY fpw_submit(IN_CONST_HANDLE adapter, const DXGKARG_SUBMITCOMMAND *c)
{
    return var_fpw_submit((HANDLE)adapter, c, 0);
}

const pbc_target pbc_variant_worker_fence_packet = {
    REF_TARGET_FIELDS_OPS(REF_OPERATIONS_GPUMMU, "variant-worker-fence-packet",
                          "page-table entries written by CPU work in the paging engine's order, the paging fence by "
                          "a packet, with CPU work for later operations still queued when it lands",
                          REF_MAX_PACKET_BYTES, 0, var_fpw_create_adapter, var_fpw_destroy_adapter,
                          ref_create_allocation, ref_destroy_allocation, var_fpw_build, var_fpw_patch, fpw_submit),
};
