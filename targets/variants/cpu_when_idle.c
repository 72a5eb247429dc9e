/*
 * variant-cpu-when-idle: when a Transfer evicts an allocation from a
 * segment into system memory and arrives with AllocationIsIdle, copies it
 * with the CPU at build time through the kernel's mappings
 * (MmMapIoSpace for the segment side, MmGetSystemAddressForMdlSafe for
 * the MDL side) and writes no packet.
 *
 * Why only then: S24 says the *allocation* stays idle for the call, so
 * reading its segment bytes with the CPU cannot race the GPU. It says
 * nothing about the destination: a segment range the allocation moves
 * into may still be read or written by queued work on its previous
 * occupant, so a CPU copy *into* a segment is not safe. The system pages
 * of an eviction are fresh and nothing else uses them. TransferOffset
 * applies to segment sides only and MdlOffset counts pages of the MDL
 * (S13, S14). A call that resumes a transfer begun in packets, that finds
 * packets of its own still waiting in the buffer, or whose memory cannot
 * be mapped, continues with packets like the reference.
 *
 * variant-cpu-kept-view does the same through views of whole segments it
 * maps once per adapter (as a driver maps its BAR at start), and does
 * ReadPhysical as a CPU read through them: the harness must see accesses
 * through views made long before the call.
 */
#include <string.h>

#include "var_common.h"

typedef struct cpu_view {
    uint8_t *base; /* what the kernel returned, for the unmap */
    uint8_t *data; /* the transfer's first byte on this side */
    PMDL mdl;      /* NULL for a segment side */
    SIZE_T size;
} cpu_view;

static void cpu_unmap(const cpu_view *v)
{
    if (v->base && v->mdl)
        MmUnmapLockedPages(v->base, v->mdl);
    else if (v->base)
        MmUnmapIoSpace(v->base, v->size);
}

/* CPU address of the transfer's first byte on one side, or NULL. */
static uint8_t *cpu_map_side(cpu_view *v, UINT segment_id, LARGE_INTEGER address, PMDL mdl,
                             UINT transfer_offset, UINT mdl_offset, SIZE_T size)
{
    v->size = size;
    if (segment_id != 0) {
        PHYSICAL_ADDRESS pa;
        pa.QuadPart = address.QuadPart + transfer_offset;
        return v->data = v->base = MmMapIoSpace(pa, size, MmNonCached);
    }
    uint8_t *va = v->base = MmGetSystemAddressForMdlSafe(mdl, NormalPagePriority);
    v->mdl = mdl;
    if (!va)
        return NULL;
    /* The mapping starts ByteOffset into the MDL's first page; MdlOffset
     * counts whole pages from that page's start. */
    uint64_t span = (uint64_t)ADDRESS_AND_SIZE_TO_SPAN_PAGES(MmGetMdlVirtualAddress(mdl),
                                                             MmGetMdlByteCount(mdl)) * PAGE_SIZE;
    if ((uint64_t)mdl_offset * PAGE_SIZE + size > span)
        return NULL;
    return v->data = va - (MmGetMdlByteOffset(mdl) & (PAGE_SIZE - 1)) + (size_t)mdl_offset * PAGE_SIZE;
}

/* ---- Views kept for the adapter's life ---- */

/* The adapter of variant-cpu-kept-view: each memory segment mapped whole,
 * once, when the adapter is created, as a driver maps its BAR. */
typedef struct kept_adapter {
    var_adapter base;
    uint32_t count;
    struct {
        uint64_t base, size;
        uint8_t *cpu;
    } seg[8];
} kept_adapter;

NTSTATUS var_kept_create_adapter(const pbc_adapter_info *info, HANDLE *adapter)
{
    NTSTATUS st = var_adapter_create(info, sizeof(kept_adapter), adapter);
    if (!NT_SUCCESS(st))
        return st;
    kept_adapter *k = *adapter;
    for (uint32_t i = 0; i < info->segment_count && k->count < 8; i++) {
        const pbc_segment_info *s = &info->segments[i];
        if (s->kind != PBC_SEGMENT_MEMORY)
            continue;
        PHYSICAL_ADDRESS pa;
        pa.QuadPart = (LONGLONG)s->base;
        uint8_t *cpu = MmMapIoSpace(pa, s->size, MmWriteCombined);
        if (cpu)
            k->seg[k->count++] = (__typeof__(k->seg[0])){s->base, s->size, cpu};
    }
    return STATUS_SUCCESS;
}

void var_kept_destroy_adapter(HANDLE adapter)
{
    kept_adapter *k = adapter;
    for (uint32_t i = 0; i < k->count; i++)
        MmUnmapIoSpace(k->seg[i].cpu, k->seg[i].size);
    var_adapter_destroy(adapter);
}

/* The kept view's address of segment bytes [address, address + size), or NULL. */
static uint8_t *kept_cpu(HANDLE adapter, uint64_t address, uint64_t size)
{
    const kept_adapter *k = adapter;
    for (uint32_t i = 0; i < k->count; i++)
        if (address >= k->seg[i].base && address - k->seg[i].base < k->seg[i].size &&
            size <= k->seg[i].size - (address - k->seg[i].base))
            return k->seg[i].cpu + (address - k->seg[i].base);
    return NULL;
}

NTSTATUS var_kept_build(HANDLE adapter, DXGKARG_BUILDPAGINGBUFFER *a, int require_idle)
{
    /* ReadPhysical: a 4-byte CPU read through the kept view (S28 asks for
     * the read, not for a packet), no packet. */
    if (a->Operation == DXGK_OPERATION_READ_PHYSICAL && a->MultipassOffset == 0) {
        const volatile uint8_t *p =
            kept_cpu(adapter, (uint64_t)a->ReadPhysical.PhysicalAddress.QuadPart, sizeof(ULONG));
        if (p) {
            volatile ULONG value = (ULONG)p[0] | (ULONG)p[1] << 8 | (ULONG)p[2] << 16 | (ULONG)p[3] << 24;
            (void)value;
            return STATUS_SUCCESS;
        }
    }
    const __typeof__(a->Transfer) *t = &a->Transfer;
    if (a->Operation != DXGK_OPERATION_TRANSFER || (require_idle && !t->Flags.AllocationIsIdle) ||
        t->Source.SegmentId == 0 || t->Destination.SegmentId != 0 || a->MultipassOffset != 0 ||
        a->DmaBufferWriteOffset != 0 || t->TransferSize == 0)
        return ref_build_paging_buffer(var_ref(adapter), a);
    const uint8_t *src =
        kept_cpu(adapter, (uint64_t)t->Source.SegmentAddress.QuadPart + t->TransferOffset, t->TransferSize);
    cpu_view dv = {0};
    uint8_t *dst = cpu_map_side(&dv, 0, t->Destination.SegmentAddress, t->Destination.pMdl, t->TransferOffset,
                                t->MdlOffset, t->TransferSize);
    if (src && dst)
        memmove(dst, src, t->TransferSize);
    cpu_unmap(&dv);
    if (!src || !dst)
        return ref_build_paging_buffer(var_ref(adapter), a);
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY kept_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    return var_kept_build(adapter, a, 1);
}

VAR_TARGET_DESTROY(pbc_variant_cpu_kept_view, "variant-cpu-kept-view",
                   "variant-cpu-when-idle through views of whole segments mapped once per adapter; "
                   "ReadPhysical as a CPU read through them",
                   REF_MAX_PACKET_BYTES, 0, var_kept_create_adapter, var_kept_destroy_adapter, kept_build, var_patch,
                   var_submit);

/* ---- Views made for each copy ---- */

int var_cpu_eviction(const DXGKARG_BUILDPAGINGBUFFER *a)
{
    const __typeof__(a->Transfer) *t = &a->Transfer;
    return a->Operation == DXGK_OPERATION_TRANSFER && t->Source.SegmentId != 0 && t->Destination.SegmentId == 0 &&
           a->MultipassOffset == 0 && a->DmaBufferWriteOffset == 0 && t->TransferSize != 0;
}

NTSTATUS var_cpu_eviction_build(HANDLE adapter, DXGKARG_BUILDPAGINGBUFFER *a, int require_idle)
{
    const __typeof__(a->Transfer) *t = &a->Transfer;
    if (!var_cpu_eviction(a) || (require_idle && !t->Flags.AllocationIsIdle))
        return ref_build_paging_buffer(var_ref(adapter), a);
    cpu_view sv = {0}, dv = {0};
    uint8_t *src = cpu_map_side(&sv, t->Source.SegmentId, t->Source.SegmentAddress, t->Source.pMdl,
                                t->TransferOffset, t->MdlOffset, t->TransferSize);
    uint8_t *dst = cpu_map_side(&dv, t->Destination.SegmentId, t->Destination.SegmentAddress,
                                t->Destination.pMdl, t->TransferOffset, t->MdlOffset, t->TransferSize);
    if (src && dst)
        memmove(dst, src, t->TransferSize);
    /* The source first: it is unchanged, so only the destination is stored. */
    cpu_unmap(&sv);
    cpu_unmap(&dv);
    if (!src || !dst)
        return ref_build_paging_buffer(var_ref(adapter), a);
    return STATUS_SUCCESS; /* no packet: the copy is done */
}

NTSTATUS var_cpu_restore_build(HANDLE adapter, DXGKARG_BUILDPAGINGBUFFER *a)
{
    const __typeof__(a->Transfer) *t = &a->Transfer;
    int restore = a->Operation == DXGK_OPERATION_TRANSFER && t->Source.SegmentId == 0 &&
                  t->Destination.SegmentId != 0 && a->MultipassOffset == 0 &&
                  t->TransferSize != 0 && t->Flags.AllocationIsIdle;
    if (!restore)
        return var_cpu_eviction_build(adapter, a, 1);
    cpu_view sv = {0}, dv = {0};
    uint8_t *src = cpu_map_side(&sv, 0, t->Source.SegmentAddress, t->Source.pMdl, t->TransferOffset, t->MdlOffset,
                                t->TransferSize);
    uint8_t *dst = cpu_map_side(&dv, t->Destination.SegmentId, t->Destination.SegmentAddress, NULL,
                                t->TransferOffset, t->MdlOffset, t->TransferSize);
    if (src && dst)
        memmove(dst, src, t->TransferSize);
    cpu_unmap(&sv);
    cpu_unmap(&dv);
    if (!src || !dst)
        return ref_build_paging_buffer(var_ref(adapter), a);
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY cpu_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    return var_cpu_eviction_build(adapter, a, 1);
}

VAR_TARGET(pbc_variant_cpu_when_idle, "variant-cpu-when-idle",
           "copies idle evictions with the CPU at build time (S24: an idle allocation stays idle)",
           REF_MAX_PACKET_BYTES, 0, var_create_adapter, cpu_build, var_patch, var_submit);

/* ---- Asking for idle ---- */

/* variant-cpu-asks-idle: every eviction it can copy with the CPU, it
 * copies with the CPU, and asks for the allocation to be idle first: an
 * eviction without AllocationIsIdle gets ALLOCATION_BUSY, with nothing
 * written (S22), and the call again with the flag (S23) copies. With
 * separate render and paging engines this is the safe way to use the CPU
 * at build time: VidMm's wait covers both engines' work on the
 * allocation, whichever runs it. */
static NTSTATUS asks_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (var_cpu_eviction(a) && !a->Transfer.Flags.AllocationIsIdle)
        return STATUS_GRAPHICS_ALLOCATION_BUSY;
    return var_cpu_eviction_build(adapter, a, 1);
}

VAR_TARGET(pbc_variant_cpu_asks_idle, "variant-cpu-asks-idle",
           "copies every eviction with the CPU at build time, after ALLOCATION_BUSY when not idle (S22, S23)",
           REF_MAX_PACKET_BYTES, 0, var_create_adapter, asks_build, var_patch, var_submit);
