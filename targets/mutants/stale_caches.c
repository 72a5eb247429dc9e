/*
 * Planted bugs that need state across operations. Each builder keeps what
 * a real driver keeps about an allocation, in a table keyed on
 * hAllocation, and misses one event that makes an entry stale: none of
 * them shows in one operation on a fresh allocation, only when operations
 * on the same allocation follow one another (certify's story/ cases, or a
 * random sequence that chains them).
 *
 * Their allocation records come from a lookaside list, as a driver's
 * DxgkDdiCreateAllocation takes them: the record of the allocation
 * destroyed last, and so its hAllocation, is the next one handed out. The
 * table entry of a destroyed allocation stays (DxgkDdiDestroyAllocation
 * forgets it), so a new allocation with that handle inherits it too.
 */
#include "mutants.h"

#include <stdlib.h>
#include <string.h>

#include "ref_builder.h"
#include "ref_isa.h"

#define CACHE_ENTRIES 256u /* as many allocations as a scenario has */

typedef struct cache_entry {
    HANDLE h;
    int discarded;          /* mutant-discard-mark: its content was discarded */
    int filled;             /* mutant-same-fill: its last Fill, not moved since */
    LONGLONG fill_at;
    SIZE_T fill_size;
    UINT fill_pattern;
    MDL *mdl;               /* mutant-special-lock-mdl: the MDL of its last transfer */
    UINT mdl_first;         /* the page of that MDL that holds its page 0 */
    UINT mdl_pages;         /* and its length: a longer allocation with the handle is not read past it */
} cache_entry;

typedef struct cache_adapter {
    HANDLE ref;             /* the reference's adapter */
    cache_entry entries[CACHE_ENTRIES];
    uint32_t entry_count;
    HANDLE spare[CACHE_ENTRIES]; /* records of destroyed allocations, newest last */
    uint32_t spare_count;
} cache_adapter;

static NTSTATUS cache_create_adapter(const pbc_adapter_info *info, HANDLE *adapter)
{
    cache_adapter *ca = calloc(1, sizeof(*ca));
    if (!ca)
        return STATUS_NO_MEMORY;
    NTSTATUS st = ref_create_adapter(info, &ca->ref);
    if (st != STATUS_SUCCESS) {
        free(ca);
        return st;
    }
    *adapter = ca;
    return STATUS_SUCCESS;
}

static void cache_destroy_adapter(HANDLE adapter)
{
    cache_adapter *ca = adapter;
    for (uint32_t i = 0; i < ca->spare_count; i++)
        ref_destroy_allocation(ca->ref, ca->spare[i]);
    ref_destroy_adapter(ca->ref);
    free(ca);
}

static NTSTATUS cache_create_allocation(HANDLE adapter, const pbc_allocation_info *info, HANDLE *allocation)
{
    cache_adapter *ca = adapter;
    if (!ca->spare_count)
        return ref_create_allocation(ca->ref, info, allocation);
    *allocation = ca->spare[--ca->spare_count];
    ref_allocation_reuse(*allocation, info);
    return STATUS_SUCCESS;
}

/* The record goes back on the list; its table entry stays. */
static void cache_destroy_allocation(HANDLE adapter, HANDLE allocation)
{
    cache_adapter *ca = adapter;
    if (ca->spare_count < CACHE_ENTRIES)
        ca->spare[ca->spare_count++] = allocation;
    else
        ref_destroy_allocation(ca->ref, allocation);
}

/* The entry for handle h, made empty on first use; NULL when the table
 * is full (the allocation is then simply not cached). */
static cache_entry *cache_entry_of(cache_adapter *ca, HANDLE h)
{
    for (uint32_t i = 0; i < ca->entry_count; i++)
        if (ca->entries[i].h == h)
            return &ca->entries[i];
    if (!h || ca->entry_count == CACHE_ENTRIES)
        return NULL;
    cache_entry *e = &ca->entries[ca->entry_count++];
    memset(e, 0, sizeof(*e));
    e->h = h;
    return e;
}

static NTSTATUS APIENTRY cache_patch(IN_CONST_HANDLE h, const DXGKARG_PATCH *p)
{
    return ref_patch(((const cache_adapter *)h)->ref, p);
}

static NTSTATUS APIENTRY cache_submit(IN_CONST_HANDLE h, const DXGKARG_SUBMITCOMMAND *c)
{
    return ref_submit_command(((const cache_adapter *)h)->ref, c);
}

/* Bug: marks an allocation whose content was discarded, and copies
 * nothing when it is next transferred ("undefined content need not
 * move"). Only that transfer clears the mark, so content a Fill gave it
 * after the discard, or a new allocation given the same handle, is moved
 * as nothing. */
static NTSTATUS APIENTRY discard_mark_build(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    cache_adapter *ca = (cache_adapter *)h;
    if (a->Operation == DXGK_OPERATION_TRANSFER) {
        cache_entry *e = cache_entry_of(ca, a->Transfer.hAllocation);
        if (e && e->discarded) {
            if (a->Transfer.Flags.TransferEnd)
                e->discarded = 0;
            return STATUS_SUCCESS;
        }
    }
    NTSTATUS st = ref_build_paging_buffer(ca->ref, a);
    if (a->Operation == DXGK_OPERATION_DISCARD_CONTENT && st == STATUS_SUCCESS) {
        cache_entry *e = cache_entry_of(ca, a->DiscardContent.hAllocation);
        if (e)
            e->discarded = 1;
    }
    return st;
}

/* Bug: skips a Fill identical to the allocation's last one (same address,
 * size and pattern) when it has not been moved since: "DiscardContent
 * copies nothing, so the pattern is still there". Render work, or another
 * allocation's operations, may have written there in between. */
static NTSTATUS APIENTRY same_fill_build(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    cache_adapter *ca = (cache_adapter *)h;
    if (a->Operation == DXGK_OPERATION_TRANSFER || a->Operation == DXGK_OPERATION_SPECIAL_LOCK_TRANSFER) {
        cache_entry *e = cache_entry_of(ca, a->Transfer.hAllocation);
        if (e)
            e->filled = 0;
    }
    if (a->Operation != DXGK_OPERATION_FILL)
        return ref_build_paging_buffer(ca->ref, a);
    const __typeof__(a->Fill) *f = &a->Fill;
    cache_entry *e = cache_entry_of(ca, f->hAllocation);
    if (e && e->filled && a->MultipassOffset == 0 && e->fill_at == f->Destination.SegmentAddress.QuadPart &&
        e->fill_size == f->FillSize && e->fill_pattern == f->FillPattern)
        return STATUS_SUCCESS;
    NTSTATUS st = ref_build_paging_buffer(ca->ref, a);
    if (e && st == STATUS_SUCCESS) {
        e->filled = 1;
        e->fill_at = f->Destination.SegmentAddress.QuadPart;
        e->fill_size = f->FillSize;
        e->fill_pattern = f->FillPattern;
    }
    return st;
}

/* Bug: takes the MDL of a special-lock transfer from the allocation's last
 * transfer ("its system pages do not change while it lives") instead of
 * from the arguments. After a transfer out of system memory, or for a new
 * allocation with the same handle, those are other pages. */
static NTSTATUS APIENTRY special_lock_mdl_build(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    cache_adapter *ca = (cache_adapter *)h;
    if (a->Operation == DXGK_OPERATION_TRANSFER) {
        const __typeof__(a->Transfer) *t = &a->Transfer;
        MDL *mdl = t->Source.SegmentId == 0 ? t->Source.pMdl : t->Destination.SegmentId == 0 ? t->Destination.pMdl : NULL;
        cache_entry *e = cache_entry_of(ca, t->hAllocation);
        if (e && mdl) {
            e->mdl = mdl;
            e->mdl_first = t->MdlOffset - t->TransferOffset / REF_CHUNK;
            e->mdl_pages = mdl->ByteCount / REF_CHUNK;
        }
        return ref_build_paging_buffer(ca->ref, a);
    }
    if (a->Operation != DXGK_OPERATION_SPECIAL_LOCK_TRANSFER)
        return ref_build_paging_buffer(ca->ref, a);
    const __typeof__(a->SpecialLockTransfer) *t = &a->SpecialLockTransfer;
    cache_entry *e = cache_entry_of(ca, t->hAllocation);
    int from_mdl = t->Source.SegmentId == 0, to_mdl = t->Destination.SegmentId == 0;
    uint64_t last = e ? (uint64_t)e->mdl_first + (t->TransferOffset + t->TransferSize + REF_CHUNK - 1) / REF_CHUNK : 0;
    if (!e || !e->mdl || !(from_mdl || to_mdl) || last > e->mdl_pages)
        return ref_build_paging_buffer(ca->ref, a);
    /* As a transfer (the layouts agree up to Flags) with the cached MDL. */
    DXGKARG_BUILDPAGINGBUFFER local = *a;
    local.Operation = DXGK_OPERATION_TRANSFER;
    if (from_mdl)
        local.Transfer.Source.pMdl = e->mdl;
    else
        local.Transfer.Destination.pMdl = e->mdl;
    local.Transfer.MdlOffset = e->mdl_first + t->TransferOffset / REF_CHUNK;
    NTSTATUS st = ref_build_paging_buffer(ca->ref, &local);
    a->pDmaBuffer = local.pDmaBuffer;
    a->pDmaBufferPrivateData = local.pDmaBufferPrivateData;
    a->MultipassOffset = local.MultipassOffset;
    return st;
}

#define CACHE_MUTANT(sym, nm, summary_text, build)                                                              \
    const pbc_target sym = {REF_TARGET_FIELDS_ALLOC(nm, summary_text, REF_MAX_PACKET_BYTES, 0, cache_create_adapter, \
                                                    cache_destroy_adapter, cache_create_allocation,               \
                                                    cache_destroy_allocation, build, cache_patch, cache_submit)}

CACHE_MUTANT(pbc_mutant_discard_mark, "mutant-discard-mark",
             "a per-handle 'discarded' mark outlives a Fill and the handle: the next transfer copies nothing",
             discard_mark_build);
CACHE_MUTANT(pbc_mutant_same_fill, "mutant-same-fill",
             "skips a Fill identical to the allocation's last one, as if DiscardContent left the bytes",
             same_fill_build);
CACHE_MUTANT(pbc_mutant_special_lock_mdl, "mutant-special-lock-mdl",
             "special-lock transfers use the MDL of the allocation's last transfer", special_lock_mdl_build);
