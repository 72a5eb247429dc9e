/*
 * mutant-fence-at-build: a driver that does its paging with the CPU where
 * it can signals the paging fence when it builds SignalMonitoredFence. It
 * keeps a shadow of the page-table entries it was asked to write (as
 * drivers that update tables by CPU do), finds the fence's page there,
 * and stores the value through a CPU mapping, writing no packet. The
 * value is right and lands where it should; but the work built before it
 * in the same paging buffer has not run, not even been submitted, and
 * VidMm, acting on the fence, would hand that memory on. PB-PAGING-FENCE
 * must see the fence reached before the work it follows.
 */
#include "mutants.h"

#include <stdlib.h>
#include <string.h>

#include "variants/var_common.h"

/* One entry, or a Repeat over `count` entries, of the table at `table`. */
typedef struct shadow_entry {
    uint64_t table;
    uint32_t first, count;
    DXGK_PTE e;
} shadow_entry;

typedef struct early_adapter {
    var_adapter base;
    uint64_t root; /* the root table's physical address, 0 until its first update */
    shadow_entry *shadow;
    size_t shadow_count, shadow_cap;
} early_adapter;

static NTSTATUS early_create_adapter(const pbc_adapter_info *info, HANDLE *adapter)
{
    return var_adapter_create(info, sizeof(early_adapter), adapter);
}

static void early_destroy_adapter(HANDLE adapter)
{
    free(((early_adapter *)adapter)->shadow);
    var_adapter_destroy(adapter);
}

static void early_remember(early_adapter *ea, const shadow_entry *s)
{
    if (ea->shadow_count == ea->shadow_cap) {
        size_t cap = ea->shadow_cap ? ea->shadow_cap * 2 : 256;
        shadow_entry *grown = realloc(ea->shadow, cap * sizeof(*grown));
        if (!grown)
            return;
        ea->shadow = grown;
        ea->shadow_cap = cap;
    }
    ea->shadow[ea->shadow_count++] = *s;
}

/* The latest entry written at index `index` of `table`, or NULL. */
static const DXGK_PTE *early_lookup(const early_adapter *ea, uint64_t table, uint32_t index)
{
    for (size_t i = ea->shadow_count; i-- > 0;) {
        const shadow_entry *s = &ea->shadow[i];
        if (s->table == table && index >= s->first && index - s->first < s->count)
            return &s->e;
    }
    return NULL;
}

/* The physical address of GPU virtual address va through 4 KiB pages of
 * system memory (where VidMm keeps its fence); 0 when the shadow cannot
 * tell. */
static uint64_t early_translate(const early_adapter *ea, uint64_t va)
{
    uint64_t table = ea->root;
    for (int level = 2; level >= 0; level--) {
        const DXGK_PTE *e = early_lookup(ea, table, (uint32_t)(va >> (12 + 9 * level)) & 511);
        if (!e || !e->Valid || e->Segment || (level > 0 && (e->LargePage || e->PageTablePageSize)))
            return 0;
        table = (uint64_t)e->PageAddress << 12;
    }
    return table | (va & 0xFFF);
}

static void early_shadow_update(early_adapter *ea, const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u)
{
    uint64_t table;
    if (u->UpdateMode == DXGK_PAGETABLEUPDATE_CPU_VIRTUAL)
        table = (uint64_t)MmGetPhysicalAddress(u->PageTableAddress.CpuVirtual).QuadPart;
    else if (u->UpdateMode == DXGK_PAGETABLEUPDATE_GPU_PHYSICAL && !u->PageTableAddress.GpuPhysical.SegmentId)
        table = u->PageTableAddress.GpuPhysical.SegmentOffset;
    else
        return;
    if (u->PageTableLevel == 2 && !ea->root)
        ea->root = table;
    if (u->Flags.Repeat) {
        shadow_entry s = {table, u->StartIndex, u->NumPageTableEntries, u->pPageTableEntries[0]};
        early_remember(ea, &s);
        return;
    }
    for (UINT i = 0; i < u->NumPageTableEntries; i++) {
        shadow_entry s = {table, u->StartIndex + i, 1, u->pPageTableEntries[i]};
        early_remember(ea, &s);
    }
}

static NTSTATUS APIENTRY early_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    early_adapter *ea = adapter;
    if (a->Operation == DXGK_OPERATION_UPDATE_PAGE_TABLE && a->MultipassOffset == 0)
        early_shadow_update(ea, &a->UpdatePageTable);
    if (a->Operation != DXGK_OPERATION_SIGNAL_MONITORED_FENCE)
        return ref_build_paging_buffer(var_ref(adapter), a);
    uint64_t at = early_translate(ea, a->SignalMonitoredFence.MonitoredFenceGpuVa);
    PHYSICAL_ADDRESS pa;
    pa.QuadPart = (LONGLONG)at;
    UINT64 *fence = at ? MmMapIoSpace(pa, sizeof(*fence), MmNonCached) : NULL;
    if (!fence)
        return ref_build_paging_buffer(var_ref(adapter), a);
    *fence = a->SignalMonitoredFence.MonitoredFenceValue; /* now, not after the work before it */
    MmUnmapIoSpace(fence, sizeof(*fence));
    return STATUS_SUCCESS;
}

const pbc_target pbc_mutant_fence_at_build = {
    REF_TARGET_FIELDS_OPS(REF_OPERATIONS_GPUMMU, "mutant-fence-at-build",
                          "signals the paging fence with the CPU when it builds the signal, before the work before it",
                          REF_MAX_PACKET_BYTES, 0, early_create_adapter, early_destroy_adapter, ref_create_allocation,
                          ref_destroy_allocation, early_build, var_patch, var_submit),
};
