/*
 * Planted-bug builders. Each is the reference builder with exactly one
 * realistic bug, written as a thin wrapper around the reference entry
 * points so that the bug is the only difference. Each names the rule the
 * harness must report; tests/test_mutants.c holds the harness to it.
 */
#include "mutants.h"

#include <string.h>

#include "ref_builder.h"
#include "ref_isa.h"

/* Runs the reference on a copy of the arguments that `tweak` changed, and
 * hands back only what a builder may change: progress and buffer pointers. */
static NTSTATUS mut_call_modified(HANDLE adapter, DXGKARG_BUILDPAGINGBUFFER *a,
                                  void (*tweak)(DXGKARG_BUILDPAGINGBUFFER *))
{
    DXGKARG_BUILDPAGINGBUFFER local = *a;
    tweak(&local);
    NTSTATUS st = ref_build_paging_buffer(adapter, &local);
    a->pDmaBuffer = local.pDmaBuffer;
    a->pDmaBufferPrivateData = local.pDmaBufferPrivateData;
    a->MultipassOffset = local.MultipassOffset;
    return st;
}

static int mut_is_transfer(const DXGKARG_BUILDPAGINGBUFFER *a)
{
    return a->Operation == DXGK_OPERATION_TRANSFER;
}

static int mut_has_mdl_side(const DXGKARG_BUILDPAGINGBUFFER *a)
{
    return mut_is_transfer(a) && (a->Transfer.Source.SegmentId == 0 || a->Transfer.Destination.SegmentId == 0);
}

/* Bug: after INSUFFICIENT_DMA_BUFFER, resumes one page too far. */
static void tweak_resume_skip(DXGKARG_BUILDPAGINGBUFFER *a)
{
    uint32_t pages = mut_is_transfer(a) ? (uint32_t)((a->Transfer.TransferSize + 4095) / 4096) : 0;
    if (mut_is_transfer(a) && a->MultipassOffset > 0 && a->MultipassOffset + 1 < pages)
        a->MultipassOffset++;
}
static NTSTATUS APIENTRY mut_resume_skip(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    return mut_call_modified(h, a, tweak_resume_skip);
}

/* Bug: ignores MultipassOffset and starts every call from the beginning. */
static void tweak_restart(DXGKARG_BUILDPAGINGBUFFER *a) { a->MultipassOffset = 0; }
static NTSTATUS APIENTRY mut_restart(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    return mut_call_modified(h, a, tweak_restart);
}

/* Bug: off-by-one-packet space check: believes it has 24 bytes more. */
static void tweak_overrun(DXGKARG_BUILDPAGINGBUFFER *a) { a->DmaSize += REF_MAX_PACKET_BYTES; }
static NTSTATUS APIENTRY mut_overrun(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    return mut_call_modified(h, a, tweak_overrun);
}

/* Bug: when the buffer runs out, leaves half a copy packet in it and
 * counts it as written. */
static NTSTATUS APIENTRY mut_torn_packet(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    uint8_t *end = (uint8_t *)a->pDmaBuffer + a->DmaSize;
    NTSTATUS st = ref_build_paging_buffer(h, a);
    uint8_t *cur = a->pDmaBuffer;
    if (st == STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER && end - cur >= 12) {
        uint8_t packet[REF_MAX_PACKET_BYTES];
        ref_encode_copy(packet, 0, 0, 4096);
        memcpy(cur, packet, 12);
        a->pDmaBuffer = cur + 12;
    }
    return st;
}

/* Bug: points unmapped aperture pages at physical page 0, not DummyPage. */
static void tweak_unmap_zero(DXGKARG_BUILDPAGINGBUFFER *a)
{
    if (a->Operation == DXGK_OPERATION_UNMAP_APERTURE_SEGMENT)
        a->UnmapApertureSegment.DummyPage.QuadPart = 0;
}
static NTSTATUS APIENTRY mut_unmap_zero(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    return mut_call_modified(h, a, tweak_unmap_zero);
}

/* Bug: answers ALLOCATION_BUSY for allocations needing idle, even when
 * AllocationIsIdle is set. */
static NTSTATUS APIENTRY mut_busy_always(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (mut_is_transfer(a) && ref_allocation_needs_idle(a->Transfer.hAllocation))
        return STATUS_GRAPHICS_ALLOCATION_BUSY;
    return ref_build_paging_buffer(h, a);
}

/* Bug: emits a wait-for-idle packet and then reports ALLOCATION_BUSY,
 * leaving the packet in the buffer. */
static NTSTATUS APIENTRY mut_busy_after_write(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    NTSTATUS st = ref_build_paging_buffer(h, a);
    if (st == STATUS_GRAPHICS_ALLOCATION_BUSY && a->DmaSize >= 4)
        a->pDmaBuffer = (uint8_t *)a->pDmaBuffer + ref_encode_nop(a->pDmaBuffer, 1);
    return st;
}

/* Bug: applies TransferOffset to the MDL side (page TransferOffset/4096)
 * instead of using MdlOffset. */
static void tweak_offset_on_mdl(DXGKARG_BUILDPAGINGBUFFER *a)
{
    if (mut_has_mdl_side(a))
        a->Transfer.MdlOffset = a->Transfer.TransferOffset / 4096;
}
static NTSTATUS APIENTRY mut_offset_on_mdl(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    return mut_call_modified(h, a, tweak_offset_on_mdl);
}

/* Bug: ignores MdlOffset, always starting at the MDL's first page. */
static void tweak_mdl_offset_ignored(DXGKARG_BUILDPAGINGBUFFER *a)
{
    if (mut_has_mdl_side(a))
        a->Transfer.MdlOffset = 0;
    if (a->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT)
        a->MapApertureSegment.MdlOffset = 0;
}
static NTSTATUS APIENTRY mut_mdl_offset_ignored(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    return mut_call_modified(h, a, tweak_mdl_offset_ignored);
}

/* Bug: keeps segment addresses in a 32-bit variable. */
static void tweak_trunc32(DXGKARG_BUILDPAGINGBUFFER *a)
{
    if (mut_is_transfer(a)) {
        if (a->Transfer.Source.SegmentId)
            a->Transfer.Source.SegmentAddress.HighPart = 0;
        if (a->Transfer.Destination.SegmentId)
            a->Transfer.Destination.SegmentAddress.HighPart = 0;
    }
    if (a->Operation == DXGK_OPERATION_FILL)
        a->Fill.Destination.SegmentAddress.HighPart = 0;
}
static NTSTATUS APIENTRY mut_trunc32(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    return mut_call_modified(h, a, tweak_trunc32);
}

/* Bug: fills in 8-byte units and drops a trailing 4-byte tail. */
static void tweak_fill_tail(DXGKARG_BUILDPAGINGBUFFER *a)
{
    if (a->Operation == DXGK_OPERATION_FILL)
        a->Fill.FillSize &= ~(SIZE_T)7;
}
static NTSTATUS APIENTRY mut_fill_tail(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    return mut_call_modified(h, a, tweak_fill_tail);
}

/* Bug: maps every page non-coherent, whatever CacheCoherent says. */
static void tweak_coherent(DXGKARG_BUILDPAGINGBUFFER *a)
{
    if (a->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT)
        a->MapApertureSegment.Flags.CacheCoherent = 0;
}
static NTSTATUS APIENTRY mut_coherent(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    return mut_call_modified(h, a, tweak_coherent);
}

/* Bug: rejects sub-transfers that do not start at offset 0. */
static NTSTATUS APIENTRY mut_bad_status(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (mut_is_transfer(a) && a->Transfer.TransferOffset != 0)
        return STATUS_INVALID_PARAMETER;
    return ref_build_paging_buffer(h, a);
}

/* Bug: declares a 24-byte minimum but wants 64 bytes before it starts. */
static NTSTATUS APIENTRY mut_no_progress(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->DmaSize < 64 && a->Operation != DXGK_OPERATION_DISCARD_CONTENT)
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    return ref_build_paging_buffer(h, a);
}

/* Bug: SubmitCommand forgets the fence. */
static NTSTATUS APIENTRY mut_no_fence(IN_CONST_HANDLE h, const DXGKARG_SUBMITCOMMAND *c)
{
    const pbc_host *host = ref_adapter_host(h);
    host->ring_submit(host->ctx, c->DmaBufferSegmentId, (uint64_t)c->DmaBufferPhysicalAddress.QuadPart,
                      c->DmaBufferSubmissionStartOffset, c->DmaBufferSubmissionEndOffset);
    return STATUS_SUCCESS;
}

/* Bug: queues the fence before the buffer, so it signals too early. */
static NTSTATUS APIENTRY mut_early_fence(IN_CONST_HANDLE h, const DXGKARG_SUBMITCOMMAND *c)
{
    const pbc_host *host = ref_adapter_host(h);
    host->ring_fence(host->ctx, c->SubmissionFenceId);
    host->ring_submit(host->ctx, c->DmaBufferSegmentId, (uint64_t)c->DmaBufferPhysicalAddress.QuadPart,
                      c->DmaBufferSubmissionStartOffset, c->DmaBufferSubmissionEndOffset);
    return STATUS_SUCCESS;
}

/* Bug: executes the buffer from its start, replaying earlier submissions. */
static NTSTATUS APIENTRY mut_exec_from_start(IN_CONST_HANDLE h, const DXGKARG_SUBMITCOMMAND *c)
{
    const pbc_host *host = ref_adapter_host(h);
    host->ring_submit(host->ctx, c->DmaBufferSegmentId, (uint64_t)c->DmaBufferPhysicalAddress.QuadPart, 0,
                      c->DmaBufferSubmissionEndOffset);
    host->ring_fence(host->ctx, c->SubmissionFenceId);
    return STATUS_SUCCESS;
}

/* Bug: Patch appends a trailing no-op after the submission, growing it. */
static NTSTATUS APIENTRY mut_patch_grows(IN_CONST_HANDLE h, const DXGKARG_PATCH *p)
{
    (void)h;
    if (p->DmaBufferSubmissionEndOffset + 4 <= p->DmaBufferSize)
        ref_encode_nop((uint8_t *)p->pDmaBuffer + p->DmaBufferSubmissionEndOffset, 1);
    return STATUS_SUCCESS;
}

/* Bug: does not count its last copy packet when advancing pDmaBuffer. */
static NTSTATUS APIENTRY mut_no_advance(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    uint8_t *start = a->pDmaBuffer;
    NTSTATUS st = ref_build_paging_buffer(h, a);
    if (mut_is_transfer(a) && (uint8_t *)a->pDmaBuffer - start >= (ptrdiff_t)(REF_LEN_COPY * 4))
        a->pDmaBuffer = (uint8_t *)a->pDmaBuffer - REF_LEN_COPY * 4;
    return st;
}

/* Bug: a static flag shared by every adapter ("first adapter pads its
 * buffers"), so the same scenario emits different bytes from run to run. */
static uint32_t stale_adapters;
static NTSTATUS mut_stale_create_adapter(const pbc_adapter_info *info, HANDLE *adapter)
{
    stale_adapters++;
    return ref_create_adapter(info, adapter);
}
static NTSTATUS APIENTRY mut_stale(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (!(stale_adapters & 1) || a->MultipassOffset != 0 || a->DmaSize < 4 + REF_MAX_PACKET_BYTES)
        return ref_build_paging_buffer(h, a);
    DXGKARG_BUILDPAGINGBUFFER local = *a;
    local.pDmaBuffer = (uint8_t *)a->pDmaBuffer + ref_encode_nop(a->pDmaBuffer, 1);
    local.DmaSize -= 4;
    NTSTATUS st = ref_build_paging_buffer(h, &local);
    a->pDmaBuffer = local.pDmaBuffer;
    a->MultipassOffset = local.MultipassOffset;
    return st;
}

/* Bug: treats a Fill like a transfer and answers ALLOCATION_BUSY when it
 * has no AllocationIsIdle to go by; Fill has no such flag. */
static NTSTATUS APIENTRY mut_busy_fill(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->Operation == DXGK_OPERATION_FILL && a->MultipassOffset == 0)
        return STATUS_GRAPHICS_ALLOCATION_BUSY;
    return ref_build_paging_buffer(h, a);
}

/* Bug: with AllocationIsIdle set on an allocation it wants idle, clears
 * the flag in its arguments ("consumed") and answers ALLOCATION_BUSY. */
static NTSTATUS APIENTRY mut_busy_clears_idle(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (mut_is_transfer(a) && ref_allocation_needs_idle(a->Transfer.hAllocation) &&
        a->Transfer.Flags.AllocationIsIdle) {
        a->Transfer.Flags.AllocationIsIdle = 0;
        return STATUS_GRAPHICS_ALLOCATION_BUSY;
    }
    return ref_build_paging_buffer(h, a);
}

/* Bug: "links" each call's packets to the previous call's by setting a
 * flag in the last header below pDmaBuffer. */
static NTSTATUS APIENTRY mut_write_behind(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->DmaBufferWriteOffset >= 4)
        ((uint8_t *)a->pDmaBuffer)[-3] |= 0x80;
    return ref_build_paging_buffer(h, a);
}

/* Bug: after moving on to a new buffer, goes back to the last packet it
 * wrote in the previous one (already submitted) and changes its size. */
static uint8_t *rewrite_last_packet, *rewrite_last_buffer;
static NTSTATUS mut_rewrite_create_adapter(const pbc_adapter_info *info, HANDLE *adapter)
{
    rewrite_last_packet = rewrite_last_buffer = NULL;
    return ref_create_adapter(info, adapter);
}
static NTSTATUS APIENTRY mut_rewrite_submitted(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    uint8_t *start = a->pDmaBuffer, *buffer = start - a->DmaBufferWriteOffset;
    if (rewrite_last_packet && rewrite_last_buffer != buffer) {
        rewrite_last_packet[4] ^= 0x10;
        rewrite_last_packet = NULL;
    }
    NTSTATUS st = ref_build_paging_buffer(h, a);
    if ((uint8_t *)a->pDmaBuffer > start) {
        rewrite_last_packet = start;
        rewrite_last_buffer = buffer;
    }
    return st;
}

/* Bug: rings its range in two pieces but starts the second one a packet
 * too late, so one packet never runs. */
static NTSTATUS APIENTRY mut_ring_gap(IN_CONST_HANDLE h, const DXGKARG_SUBMITCOMMAND *c)
{
    const pbc_host *host = ref_adapter_host(h);
    UINT start = c->DmaBufferSubmissionStartOffset, end = c->DmaBufferSubmissionEndOffset;
    uint64_t phys = (uint64_t)c->DmaBufferPhysicalAddress.QuadPart;
    UINT split = start + REF_LEN_COPY * 4; /* "every packet is a copy" */
    if (end - start > 2 * REF_LEN_COPY * 4) {
        host->ring_submit(host->ctx, c->DmaBufferSegmentId, phys, start, split);
        host->ring_submit(host->ctx, c->DmaBufferSegmentId, phys, split + REF_LEN_COPY * 4, end);
    } else {
        host->ring_submit(host->ctx, c->DmaBufferSegmentId, phys, start, end);
    }
    host->ring_fence(host->ctx, c->SubmissionFenceId);
    return STATUS_SUCCESS;
}

/* Bug: "nothing to read back", so ReadPhysical emits no packet at all. */
static NTSTATUS APIENTRY mut_read_physical_skip(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->Operation == DXGK_OPERATION_READ_PHYSICAL)
        return STATUS_SUCCESS;
    return ref_build_paging_buffer(h, a);
}

/* Bug: writes WritePhysical's value 8 bytes past the address (an index
 * counted in qwords, not bytes). */
static void tweak_write_physical_off(DXGKARG_BUILDPAGINGBUFFER *a)
{
    if (a->Operation == DXGK_OPERATION_WRITE_PHYSICAL)
        a->WritePhysical.PhysicalAddress.QuadPart += 8;
}
static NTSTATUS APIENTRY mut_write_physical_off(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    return mut_call_modified(h, a, tweak_write_physical_off);
}

/* Bug: a Patch-written fence, but put in the placeholder at the start of
 * the submission instead of its end, so it completes before the work. */
#define FENCE_BYTES (REF_LEN_FENCE * 4u)
static NTSTATUS APIENTRY mut_fence_first_build(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->DmaSize < FENCE_BYTES + REF_MAX_PACKET_BYTES)
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    DXGKARG_BUILDPAGINGBUFFER local = *a;
    local.pDmaBuffer = (uint8_t *)a->pDmaBuffer + FENCE_BYTES;
    local.DmaSize -= FENCE_BYTES;
    NTSTATUS st = ref_build_paging_buffer(h, &local);
    if (st == STATUS_GRAPHICS_ALLOCATION_BUSY)
        return st; /* nothing written, nothing consumed */
    ref_encode_nop(a->pDmaBuffer, REF_LEN_FENCE); /* the placeholder Patch fills in */
    a->pDmaBuffer = local.pDmaBuffer;
    a->MultipassOffset = local.MultipassOffset;
    return st;
}
static NTSTATUS APIENTRY mut_fence_first_patch(IN_CONST_HANDLE h, const DXGKARG_PATCH *p)
{
    (void)h;
    ref_encode_fence((uint8_t *)p->pDmaBuffer + p->DmaBufferSubmissionStartOffset, p->SubmissionFenceId);
    return STATUS_SUCCESS;
}
static NTSTATUS APIENTRY mut_fence_first_submit(IN_CONST_HANDLE h, const DXGKARG_SUBMITCOMMAND *c)
{
    const pbc_host *host = ref_adapter_host(h);
    host->ring_submit(host->ctx, c->DmaBufferSegmentId, (uint64_t)c->DmaBufferPhysicalAddress.QuadPart,
                      c->DmaBufferSubmissionStartOffset, c->DmaBufferSubmissionEndOffset);
    return STATUS_SUCCESS;
}

/* Bug: "fixes up" the MDL it was handed for a map, storing its own idea of
 * the byte count (as if the MDL were its to keep). */
static NTSTATUS APIENTRY mut_mdl_scribble(IN_CONST_HANDLE h, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT && a->MapApertureSegment.pMdl)
        a->MapApertureSegment.pMdl->ByteCount = 0x7FFFF000u;
    return ref_build_paging_buffer(h, a);
}

/* Bug: keeps a pool-allocated tracking record per allocation and forgets
 * to free it when the allocation is destroyed. */
#define LEAK_TAG 0x6B61654Cu /* 'Leak' */
static NTSTATUS mut_leak_create_allocation(HANDLE adapter, const pbc_allocation_info *info, HANDLE *allocation)
{
    if (!ExAllocatePoolWithTag(NonPagedPoolNx, 64, LEAK_TAG))
        return STATUS_INSUFFICIENT_RESOURCES;
    DbgPrintEx(DPFLTR_IHVVIDEO_ID, DPFLTR_TRACE_LEVEL, "mutant-pool-leak: tracking record for a %llu-byte allocation\n",
               (unsigned long long)info->size);
    return ref_create_allocation(adapter, info, allocation);
}

/* Bug: assumes paging buffers are always in system memory and rings
 * segment 0, whatever DmaBufferSegmentId says (S40). */
static NTSTATUS APIENTRY mut_ring_system(IN_CONST_HANDLE h, const DXGKARG_SUBMITCOMMAND *c)
{
    const pbc_host *host = ref_adapter_host(h);
    host->ring_submit(host->ctx, 0, (uint64_t)c->DmaBufferPhysicalAddress.QuadPart,
                      c->DmaBufferSubmissionStartOffset, c->DmaBufferSubmissionEndOffset);
    host->ring_fence(host->ctx, c->SubmissionFenceId);
    return STATUS_SUCCESS;
}

#define MUTANT(sym, nm, summary_text, build, patch_fn, submit_fn) \
    MUTANT_WITH_ADAPTER(sym, nm, summary_text, ref_create_adapter, build, patch_fn, submit_fn)

#define MUTANT_WITH_ADAPTER(sym, nm, summary_text, create, build, patch_fn, submit_fn)        \
    MUTANT_FULL(sym, nm, summary_text, REF_MAX_PACKET_BYTES, create, build, patch_fn, submit_fn)

#define MUTANT_FULL(sym, nm, summary_text, min_size, create, build, patch_fn, submit_fn)      \
    MUTANT_ALL(sym, nm, summary_text, min_size, create, ref_create_allocation, build, patch_fn, submit_fn)

#define MUTANT_ALL(sym, nm, summary_text, min_size, create, create_alloc, build, patch_fn, submit_fn)    \
    const pbc_target sym = {REF_TARGET_FIELDS(nm, summary_text, min_size, 0, create, ref_destroy_adapter, \
                                              create_alloc, build, patch_fn, submit_fn)}

MUTANT(pbc_mutant_resume_skip, "mutant-resume-skip", "resumes one page too far after INSUFFICIENT",
       mut_resume_skip, ref_patch, ref_submit_command);
MUTANT(pbc_mutant_restart, "mutant-restart", "ignores MultipassOffset, restarts every call",
       mut_restart, ref_patch, ref_submit_command);
MUTANT(pbc_mutant_overrun, "mutant-overrun", "writes one packet past DmaSize", mut_overrun, ref_patch,
       ref_submit_command);
MUTANT(pbc_mutant_torn_packet, "mutant-torn-packet", "leaves half a packet in a full buffer",
       mut_torn_packet, ref_patch, ref_submit_command);
MUTANT(pbc_mutant_unmap_zero, "mutant-unmap-zero", "unmaps to page 0 instead of DummyPage",
       mut_unmap_zero, ref_patch, ref_submit_command);
MUTANT(pbc_mutant_busy_always, "mutant-busy-always", "ALLOCATION_BUSY even with AllocationIsIdle",
       mut_busy_always, ref_patch, ref_submit_command);
MUTANT(pbc_mutant_busy_after_write, "mutant-busy-after-write", "ALLOCATION_BUSY after writing a packet",
       mut_busy_after_write, ref_patch, ref_submit_command);
MUTANT(pbc_mutant_offset_on_mdl, "mutant-offset-on-mdl", "applies TransferOffset to the MDL side",
       mut_offset_on_mdl, ref_patch, ref_submit_command);
MUTANT(pbc_mutant_mdl_offset_ignored, "mutant-mdl-offset-ignored", "ignores MdlOffset",
       mut_mdl_offset_ignored, ref_patch, ref_submit_command);
MUTANT(pbc_mutant_trunc32, "mutant-trunc32", "truncates segment addresses to 32 bits", mut_trunc32,
       ref_patch, ref_submit_command);
MUTANT(pbc_mutant_fill_tail, "mutant-fill-tail", "drops a fill's trailing 4 bytes", mut_fill_tail,
       ref_patch, ref_submit_command);
MUTANT(pbc_mutant_coherent, "mutant-coherent", "drops CacheCoherent when mapping", mut_coherent,
       ref_patch, ref_submit_command);
MUTANT(pbc_mutant_bad_status, "mutant-bad-status", "STATUS_INVALID_PARAMETER for later sub-transfers",
       mut_bad_status, ref_patch, ref_submit_command);
MUTANT(pbc_mutant_no_progress, "mutant-no-progress", "declares 24 bytes enough, needs 64",
       mut_no_progress, ref_patch, ref_submit_command);
MUTANT(pbc_mutant_no_fence, "mutant-no-fence", "SubmitCommand writes no fence", ref_build_paging_buffer,
       ref_patch, mut_no_fence);
MUTANT(pbc_mutant_early_fence, "mutant-early-fence", "fence queued before its buffer",
       ref_build_paging_buffer, ref_patch, mut_early_fence);
MUTANT(pbc_mutant_exec_from_start, "mutant-exec-from-start", "executes the buffer from offset 0",
       ref_build_paging_buffer, ref_patch, mut_exec_from_start);
MUTANT(pbc_mutant_patch_grows, "mutant-patch-grows", "Patch appends past the submission",
       ref_build_paging_buffer, mut_patch_grows, ref_submit_command);
MUTANT(pbc_mutant_no_advance, "mutant-no-advance", "leaves its last packet past pDmaBuffer",
       mut_no_advance, ref_patch, ref_submit_command);
MUTANT_WITH_ADAPTER(pbc_mutant_stale_state, "mutant-stale-state", "static state shared across adapters",
                    mut_stale_create_adapter, mut_stale, ref_patch, ref_submit_command);
MUTANT(pbc_mutant_busy_fill, "mutant-busy-fill", "ALLOCATION_BUSY for a Fill", mut_busy_fill, ref_patch,
       ref_submit_command);
MUTANT(pbc_mutant_busy_clears_idle, "mutant-busy-clears-idle", "clears AllocationIsIdle, then BUSY",
       mut_busy_clears_idle, ref_patch, ref_submit_command);
MUTANT(pbc_mutant_write_behind, "mutant-write-behind", "sets a flag in the packet below pDmaBuffer",
       mut_write_behind, ref_patch, ref_submit_command);
MUTANT_WITH_ADAPTER(pbc_mutant_rewrite_submitted, "mutant-rewrite-submitted",
                    "changes its last packet in an already submitted buffer", mut_rewrite_create_adapter,
                    mut_rewrite_submitted, ref_patch, ref_submit_command);
MUTANT(pbc_mutant_ring_gap, "mutant-ring-gap", "rings two pieces, skipping a packet between them",
       ref_build_paging_buffer, ref_patch, mut_ring_gap);
MUTANT(pbc_mutant_read_physical_skip, "mutant-read-physical-skip", "emits nothing for ReadPhysical",
       mut_read_physical_skip, ref_patch, ref_submit_command);
MUTANT(pbc_mutant_write_physical_off, "mutant-write-physical-off", "WritePhysical 8 bytes too far",
       mut_write_physical_off, ref_patch, ref_submit_command);
MUTANT_FULL(pbc_mutant_fence_first, "mutant-fence-first", "Patch writes the fence before the work",
            FENCE_BYTES + REF_MAX_PACKET_BYTES, ref_create_adapter, mut_fence_first_build,
            mut_fence_first_patch, mut_fence_first_submit);
MUTANT(pbc_mutant_ring_system, "mutant-ring-system", "rings segment 0 for buffers in a segment",
       ref_build_paging_buffer, ref_patch, mut_ring_system);
MUTANT(pbc_mutant_mdl_scribble, "mutant-mdl-scribble", "overwrites the ByteCount of the MDL it maps",
       mut_mdl_scribble, ref_patch, ref_submit_command);
MUTANT_ALL(pbc_mutant_pool_leak, "mutant-pool-leak", "never frees a pool block it allocates per allocation",
           REF_MAX_PACKET_BYTES, ref_create_adapter, mut_leak_create_allocation, ref_build_paging_buffer,
           ref_patch, ref_submit_command);
