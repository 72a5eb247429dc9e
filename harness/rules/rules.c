/*
 * The rule catalogue and one judging function per rule. Statements here
 * are what `pbcheck list rules` prints; docs/rules.md explains each with
 * what the DDI allows beside what it requires. Finding texts name objects
 * by scenario name and offset, never by host address, so one bug prints
 * the same text in every run.
 */
#include "rules/rules.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static const pbc_rule rules[PBC_RULE_COUNT] = {
    [PBC_RULE_DMA_OVERRUN] = {"PB-DMA-OVERRUN",
        "a call writes only inside [pDmaBuffer, pDmaBuffer+DmaSize) and its private data", "S03, S04, S07"},
    [PBC_RULE_DMA_ADVANCE] = {"PB-DMA-ADVANCE",
        "pDmaBuffer moves forward, never past pDmaBuffer+DmaSize, and covers every byte written; "
        "pDmaBufferPrivateData stays in its range", "S03"},
    [PBC_RULE_STATUS] = {"PB-STATUS",
        "BuildPagingBuffer returns only SUCCESS, ALLOCATION_BUSY (Transfer, SpecialLockTransfer, "
        "DiscardContent) or INSUFFICIENT_DMA_BUFFER; Patch and SubmitCommand return SUCCESS",
        "S06, S21-S23"},
    [PBC_RULE_BUSY_IDLE] = {"PB-BUSY-IDLE", "no ALLOCATION_BUSY while AllocationIsIdle is set", "S24"},
    [PBC_RULE_BUSY_CONSUMED] = {"PB-BUSY-CONSUMED", "ALLOCATION_BUSY consumes no buffer space", "S22"},
    [PBC_RULE_NO_PROGRESS] = {"PB-NO-PROGRESS",
        "a fresh buffer of at least the declared min_dma_size is never answered with "
        "INSUFFICIENT_DMA_BUFFER and no bytes", "S07, S09"},
    [PBC_RULE_PATCH] = {"PB-PATCH", "Patch changes neither its arguments nor any byte outside the submission",
        "S37"},
    [PBC_RULE_EXEC_RANGE] = {"PB-EXEC-RANGE",
        "SubmitCommand hands the GPU exactly the submitted range of the buffer, in order, in one or "
        "more pieces, and the ring is rung only from SubmitCommand", "S40, S41, S42"},
    [PBC_RULE_FENCE] = {"PB-FENCE",
        "every fence is written once, in order, after all of its buffer's work (by a fence the builder "
        "queues or by the buffer's own last packets); none is missing", "S46"},
    [PBC_RULE_GPU_FAULT] = {"PB-GPU-FAULT",
        "the GPU never faults: no access through an invalid GART entry or outside memory, no "
        "undecodable packet", "S33, S42"},
    [PBC_RULE_UNMAP_DUMMY] = {"PB-UNMAP-DUMMY",
        "after UnmapApertureSegment every page of the range points at DummyPage", "S33"},
    [PBC_RULE_DIVERGE] = {"PB-DIVERGE",
        "the observable state (memory outside masks, GART entries, GPU faults) equals the reference's",
        "S09, S13, S14, S18, S25, S30, S31"},
    [PBC_RULE_NONDET] = {"PB-NONDET", "the same scenario twice gives the same executed work (decoded micro-ops) and the same state",
        "S09"},
    [PBC_RULE_LIVELOCK] = {"PB-LIVELOCK",
        "an operation completes within the call budget, and after INSUFFICIENT_DMA_BUFFER no fresh "
        "buffer is answered exactly as the previous one", "S07, S09"},
    [PBC_RULE_ASSERT] = {"PB-ASSERT", "the builder's own NT_ASSERT never fails", "-"},
    [PBC_RULE_DMA_SUBMITTED] = {"PB-DMA-SUBMITTED",
        "bytes handed to the GPU do not change before the GPU executes them", "S37, S42"},
    [PBC_RULE_IDLE_HAZARD] = {"PB-IDLE-HAZARD",
        "the CPU touches an allocation at build time only when AllocationIsIdle is set or no GPU work on "
        "it is queued", "S21, S24"},
    [PBC_RULE_KERNEL] = {"PB-KERNEL",
        "kernel services are used as the WDK requires: pool freed by the end of the run, no bad free, no "
        "deadlocked lock or wait, no bug check", "-"},
    [PBC_RULE_PHYSICAL] = {"PB-PHYSICAL",
        "ReadPhysical reads, WritePhysical writes, 1-8 bytes starting exactly at PhysicalAddress", "S28, S29"},
    [PBC_RULE_PTE] = {"PB-PTE",
        "after UpdatePageTable every page of a GPU virtual range translates as VidMm mapped it: the page, "
        "read-only or not, zero, or no valid entry (Repeat replicates entry 0; a level-1 entry with "
        "Use64KBPages points at 64 KiB leaves)", "S52"},
    [PBC_RULE_PAGING_FENCE] = {"PB-PAGING-FENCE",
        "SignalMonitoredFence writes the 64-bit MonitoredFenceValue at the GPU virtual address "
        "MonitoredFenceGpuVa, once the work VidMm issued before it has run (CPU work still queued then "
        "changes nothing that work was to produce): after the run the paging fence holds the last value "
        "signaled", "S55, S46"},
    [PBC_RULE_TLB] = {"PB-TLB",
        "after FlushTlb the GPU keeps no translation of the range that the page tables no longer give", "-"},
};

const pbc_rule *pbc_rule_get(pbc_rule_id id)
{
    if ((uint32_t)id >= PBC_RULE_COUNT)
        abort(); /* harness invariant */
    return &rules[id];
}

int pbc_rule_lookup(const char *name)
{
    for (uint32_t i = 0; i < PBC_RULE_COUNT; i++)
        if (!strcmp(rules[i].id, name))
            return (int)i;
    return -1;
}

void pbc_rule_report(pbc_findings *f, pbc_rule_id rule, uint32_t op, const char *fmt, ...)
{
    pbc_finding x;
    memset(&x, 0, sizeof(x));
    x.rule = rule;
    x.op = op;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x.detail, sizeof(x.detail), fmt, ap);
    va_end(ap);
    PBC_PUSH(f->items, f->count, f->cap, x);
}

void pbc_rule_findings_fini(pbc_findings *f)
{
    free(f->items);
    memset(f, 0, sizeof(*f));
}

int pbc_rule_dma_overrun(pbc_findings *f, const pbc_call_facts *c)
{
    if (c->wrote_outside) {
        pbc_rule_report(f, PBC_RULE_DMA_OVERRUN, c->op, "call %u (%s) wrote outside [pDmaBuffer, "
                         "pDmaBuffer+DmaSize) of buffer %u (S03)", c->call, pbc_call_desc_text(c->desc), c->buffer);
        return 1;
    }
    if (c->mdl_changed) {
        pbc_rule_report(f, PBC_RULE_DMA_OVERRUN, c->op, "call %u (%s) changed %s, the MDL VidMm handed it: "
                         "it owns only its buffer and private data (S03, S12)", c->call, pbc_call_desc_text(c->desc),
                         c->mdl_changed);
        return 1;
    }
    if (c->wrote_outside_private) {
        pbc_rule_report(f, PBC_RULE_DMA_OVERRUN, c->op, "call %u (%s) wrote outside its DMA private "
                         "data (S04)", c->call, pbc_call_desc_text(c->desc));
        return 1;
    }
    return 0;
}

int pbc_rule_dma_advance(pbc_findings *f, const pbc_call_facts *c)
{
    if (c->offset_out < c->offset_in || c->offset_out > c->buffer_size) {
        pbc_rule_report(f, PBC_RULE_DMA_ADVANCE, c->op, "call %u (%s) moved pDmaBuffer from +0x%x to "
                         "%+" PRId64 " of buffer %u (DmaSize 0x%x): it must stay in [pDmaBuffer, "
                         "pDmaBuffer+DmaSize] (S03)", c->call, pbc_call_desc_text(c->desc), c->offset_in,
                         c->offset_out, c->buffer, c->buffer_size);
        return 1;
    }
    if (c->wrote_past_return) {
        pbc_rule_report(f, PBC_RULE_DMA_ADVANCE, c->op, "call %u (%s) wrote bytes past the pDmaBuffer "
                         "it returned (+0x%x in buffer %u): written bytes must be covered by the "
                         "advance (S03)", c->call, pbc_call_desc_text(c->desc), (uint32_t)c->offset_out, c->buffer);
        return 1;
    }
    if (c->private_out_of_range) {
        pbc_rule_report(f, PBC_RULE_DMA_ADVANCE, c->op, "call %u (%s) moved pDmaBufferPrivateData "
                         "outside its range", c->call, pbc_call_desc_text(c->desc));
        return 1;
    }
    return 0;
}

int pbc_rule_status_build(pbc_findings *f, const pbc_call_facts *c)
{
    NTSTATUS st = c->status;
    if (st == STATUS_GRAPHICS_ALLOCATION_BUSY && !c->busy_allowed) {
        pbc_rule_report(f, PBC_RULE_STATUS, c->op, "call %u (%s) returned ALLOCATION_BUSY, which only "
                         "Transfer, SpecialLockTransfer and DiscardContent may return: only they can be "
                         "retried with AllocationIsIdle (S06, S21-S23)", c->call, pbc_call_desc_text(c->desc));
        return 1;
    }
    if (st == STATUS_SUCCESS || st == STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER ||
        st == STATUS_GRAPHICS_ALLOCATION_BUSY)
        return 0;
    pbc_rule_report(f, PBC_RULE_STATUS, c->op, "call %u (%s) returned 0x%08x; only SUCCESS, "
                     "ALLOCATION_BUSY and INSUFFICIENT_DMA_BUFFER are allowed (S06)", c->call,
                     pbc_call_desc_text(c->desc), (uint32_t)st);
    return 1;
}

int pbc_rule_status_ddi(pbc_findings *f, uint32_t op, const char *ddi, uint32_t fence, NTSTATUS st)
{
    if (st == STATUS_SUCCESS)
        return 0;
    pbc_rule_report(f, PBC_RULE_STATUS, op, "%s for fence %u returned 0x%08x (only STATUS_SUCCESS "
                     "is expected)", ddi, fence, (uint32_t)st);
    return 1;
}

int pbc_rule_busy_idle(pbc_findings *f, const pbc_call_facts *c)
{
    if (c->status != STATUS_GRAPHICS_ALLOCATION_BUSY || !c->was_idle)
        return 0;
    pbc_rule_report(f, PBC_RULE_BUSY_IDLE, c->op, "call %u (%s) returned ALLOCATION_BUSY although "
                     "AllocationIsIdle was set (S24)", c->call, pbc_call_desc_text(c->desc));
    return 1;
}

int pbc_rule_busy_consumed(pbc_findings *f, const pbc_call_facts *c)
{
    int64_t written = c->offset_out - c->offset_in;
    if (c->status != STATUS_GRAPHICS_ALLOCATION_BUSY || (!written && !c->private_advanced))
        return 0;
    pbc_rule_report(f, PBC_RULE_BUSY_CONSUMED, c->op, "call %u (%s) returned ALLOCATION_BUSY after "
                     "writing %" PRId64 " bytes to the paging buffer (S22)", c->call, pbc_call_desc_text(c->desc),
                     written);
    return 1;
}

int pbc_rule_no_progress(pbc_findings *f, const pbc_call_facts *c)
{
    if (c->status != STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER || c->offset_out != c->offset_in ||
        c->offset_in != 0 || c->buffer_size < c->min_dma_size)
        return 0;
    pbc_rule_report(f, PBC_RULE_NO_PROGRESS, c->op, "call %u (%s) returned INSUFFICIENT_DMA_BUFFER on "
                     "a fresh %u-byte buffer without writing anything, though it declared %u bytes "
                     "enough (S07, S09)", c->call, pbc_call_desc_text(c->desc), c->buffer_size, c->min_dma_size);
    return 1;
}

int pbc_rule_patch(pbc_findings *f, uint32_t op, uint32_t fence, uint32_t buffer, uint32_t start,
                   uint32_t end, int args_changed, int outside_changed)
{
    if (args_changed) {
        pbc_rule_report(f, PBC_RULE_PATCH, op, "Patch for fence %u changed its arguments (the "
                         "buffer's size or range must not change, S37)", fence);
        return 1;
    }
    if (outside_changed) {
        pbc_rule_report(f, PBC_RULE_PATCH, op, "Patch for fence %u wrote outside the submission "
                         "[0x%x, 0x%x) of buffer %u (S37)", fence, start, end, buffer);
        return 1;
    }
    return 0;
}

int pbc_rule_exec_range(pbc_findings *f, uint32_t op, const pbc_ring_facts *r)
{
    if (!r->in_submit) {
        pbc_rule_report(f, PBC_RULE_EXEC_RANGE, op, "the GPU ring was rung outside SubmitCommand "
                         "(segment %u, 0x%" PRIx64 ", [0x%x, 0x%x))", r->segment_id, r->phys, r->start,
                         r->end);
        return 1;
    }
    /* Where the piece lies in the buffer, whatever base it was rung with. */
    uint64_t from = r->phys + r->start - r->want_phys, to = r->phys + r->end - r->want_phys;
    if (r->segment_id == r->want_segment && r->start <= r->end && from == r->next && to <= r->want_end)
        return 0;
    pbc_rule_report(f, PBC_RULE_EXEC_RANGE, op, "SubmitCommand for fence %u executes [0x%x, 0x%x) of the "
                     "buffer at segment %u 0x%" PRIx64 "; VidMm submitted [0x%x, 0x%x) of the buffer at "
                     "segment %u 0x%" PRIx64 ", of which [0x%x, 0x%x) was still to run (S42)", r->fence,
                     r->start, r->end, r->segment_id, r->phys, r->want_start, r->want_end, r->want_segment,
                     r->want_phys, r->next, r->want_end);
    return 1;
}

int pbc_rule_exec_range_rung(pbc_findings *f, uint32_t op, uint32_t fence, UINT covered, UINT want_start,
                             UINT want_end)
{
    if (covered == want_end)
        return 0;
    if (covered == want_start)
        pbc_rule_report(f, PBC_RULE_EXEC_RANGE, op, "SubmitCommand for fence %u never handed the buffer "
                         "to the GPU", fence);
    else
        pbc_rule_report(f, PBC_RULE_EXEC_RANGE, op, "SubmitCommand for fence %u handed the GPU only "
                         "[0x%x, 0x%x) of the submitted [0x%x, 0x%x) (S42)", fence, want_start, covered,
                         want_start, want_end);
    return 1;
}

int pbc_rule_dma_submitted(pbc_findings *f, uint32_t op, uint32_t fence, uint32_t buffer, UINT start,
                           UINT end, int changed)
{
    if (!changed)
        return 0;
    pbc_rule_report(f, PBC_RULE_DMA_SUBMITTED, op, "the bytes of submission %u ([0x%x, 0x%x) of buffer %u) "
                     "changed after SubmitCommand handed them to the GPU and before it executed them "
                     "(S37, S42)", fence, start, end, buffer);
    return 1;
}

int pbc_rule_fence(pbc_findings *f, uint32_t op, const pbc_fence_facts *x)
{
    if (x->missing) {
        pbc_rule_report(f, PBC_RULE_FENCE, op, "fence %u (buffer %u, [0x%x, 0x%x)) was never written "
                         "(S46)", x->fence, x->buffer, x->start, x->end);
        return 1;
    }
    if (x->fence == 0 || x->fence > x->issued) {
        pbc_rule_report(f, PBC_RULE_FENCE, op, "the GPU wrote fence %u, which VidMm never issued",
                         x->fence);
        return 1;
    }
    if (x->already_completed) {
        pbc_rule_report(f, PBC_RULE_FENCE, op, "fence %u was written twice", x->fence);
        return 1;
    }
    if (x->fence != x->expected) {
        pbc_rule_report(f, PBC_RULE_FENCE, op, "fence %u completed before fence %u (fences complete "
                         "in order)", x->fence, x->expected);
        return 1;
    }
    if (!x->buffer_executed) {
        pbc_rule_report(f, PBC_RULE_FENCE, op, "fence %u was written before its paging buffer "
                         "(buffer %u, [0x%x, 0x%x)) executed", x->fence, x->buffer, x->start, x->end);
        return 1;
    }
    if (x->work_after) {
        pbc_rule_report(f, PBC_RULE_FENCE, op, "fence %u was written by its own buffer (buffer %u, "
                         "[0x%x, 0x%x)) before %" PRIu64 " more micro-op(s) of that buffer ran: a fence "
                         "completes after the work it follows (S46)", x->fence, x->buffer, x->start, x->end,
                         x->work_after);
        return 1;
    }
    return 0;
}

int pbc_rule_gpu_fault(pbc_findings *f, uint32_t op, uint32_t count, const char *first)
{
    if (!count)
        return 0;
    pbc_rule_report(f, PBC_RULE_GPU_FAULT, op, "%u GPU fault(s); first: %s", count, first);
    return 1;
}

int pbc_rule_unmap_dummy(pbc_findings *f, UINT segment, uint64_t page, int valid, uint64_t addr,
                         uint64_t dummy_page)
{
    if (valid && addr == dummy_page)
        return 0;
    if (!valid && addr == dummy_page) /* the usual slip: the page written, the valid bit forgotten */
        pbc_rule_report(f, PBC_RULE_UNMAP_DUMMY, UINT32_MAX, "aperture %u page %" PRIu64 " was unmapped and "
                         "its GART entry holds the right page, the dummy page 0x%" PRIx64 ", with its valid bit "
                         "clear: an unmapped page maps the dummy page, valid (S33)", segment, page, dummy_page);
    else
        pbc_rule_report(f, PBC_RULE_UNMAP_DUMMY, UINT32_MAX, "aperture %u page %" PRIu64 " was unmapped "
                         "but its GART entry is %s 0x%" PRIx64 ", not the dummy page 0x%" PRIx64 " (S33)",
                         segment, page, valid ? "valid, pointing at" : "invalid, holding", addr, dummy_page);
    f->items[f->count - 1].gart_segment = segment;
    f->items[f->count - 1].gart_index = page;
    return 1;
}

int pbc_rule_livelock_budget(pbc_findings *f, uint32_t op, pbc_call_desc *desc, uint64_t budget, uint64_t calls)
{
    if (calls < budget)
        return 0;
    pbc_rule_report(f, PBC_RULE_LIVELOCK, op, "%s did not complete within %" PRIu64
                     " BuildPagingBuffer calls", pbc_call_desc_text(desc), budget);
    return 1;
}

int pbc_rule_livelock_repeat(pbc_findings *f, uint32_t op, pbc_call_desc *desc, uint32_t size,
                             uint32_t multipass_offset, int repeated)
{
    if (!repeated)
        return 0;
    pbc_rule_report(f, PBC_RULE_LIVELOCK, op, "%s: a fresh %u-byte buffer was answered with the same "
                     "bytes, status and MultipassOffset (%u) as the previous fresh buffer: the builder "
                     "resumed from where it already resumed and makes no progress (S09)", pbc_call_desc_text(desc),
                     size, multipass_offset);
    return 1;
}

int pbc_rule_assert(pbc_findings *f, uint32_t op, uint32_t call, pbc_call_desc *desc, const char *message)
{
    pbc_rule_report(f, PBC_RULE_ASSERT, op, "call %u (%s): %s", call, pbc_call_desc_text(desc), message);
    return 1;
}

int pbc_rule_physical(pbc_findings *f, uint32_t op, int write, UINT segment, uint64_t addr, int done)
{
    if (done)
        return 0;
    pbc_rule_report(f, PBC_RULE_PHYSICAL, op, "%s of segment %u at 0x%" PRIx64 ": the GPU never %s 1-8 "
                     "bytes starting there with a micro-op of the operation's packets (%s)",
                     write ? "WritePhysical" : "ReadPhysical", segment, addr, write ? "wrote" : "read",
                     write ? "S29" : "S28");
    return 1;
}

int pbc_rule_idle_hazard(pbc_findings *f, uint32_t op, uint32_t call, pbc_call_desc *desc, const char *alloc)
{
    pbc_rule_report(f, PBC_RULE_IDLE_HAZARD, op, "call %u (%s) mapped allocation %s with the CPU while GPU work "
                    "on it was still queued and AllocationIsIdle was not set: without the flag the builder "
                    "must assume the GPU is using it (S21); it may return ALLOCATION_BUSY to get the flag "
                    "(S22-S24)", call, pbc_call_desc_text(desc), alloc);
    return 1;
}

int pbc_rule_kernel(pbc_findings *f, uint32_t op, const char *where, const char *what)
{
    pbc_rule_report(f, PBC_RULE_KERNEL, op, "%s misused a kernel service: %s", where, what);
    return 1;
}

int pbc_rule_diverge(pbc_findings *f, uint32_t op, const char *report)
{
    pbc_rule_report(f, PBC_RULE_DIVERGE, op, "%s", report);
    return 1;
}

int pbc_rule_nondet(pbc_findings *f, uint32_t op, const char *report)
{
    pbc_rule_report(f, PBC_RULE_NONDET, op, "%s", report);
    return 1;
}

int pbc_rule_pte(pbc_findings *f, uint32_t op, uint64_t va, const char *what, const char *have, const char *need)
{
    pbc_rule_report(f, PBC_RULE_PTE, op,
                    "GPU virtual address 0x%" PRIx64 " (%s): the page tables give %s; VidMm mapped %s", va, what,
                    have, need);
    return 1;
}

int pbc_rule_tlb(pbc_findings *f, uint32_t op, uint64_t va, uint32_t space, uint64_t cached, uint64_t now,
                 int invalid)
{
    char tables[64], kept[64], in[40] = "";
    if (space)
        snprintf(in, sizeof(in), " of address space %u", space);
    if (invalid)
        snprintf(tables, sizeof(tables), "no valid entry");
    else
        snprintf(tables, sizeof(tables), "page 0x%" PRIx64, now);
    if (cached)
        snprintf(kept, sizeof(kept), "page 0x%" PRIx64, cached);
    else
        snprintf(kept, sizeof(kept), "a zero page");
    pbc_rule_report(f, PBC_RULE_TLB, op,
                    "GPU virtual address 0x%" PRIx64 "%s: the TLB still translates it to %s where the page tables "
                    "now give %s: a FlushTlb VidMm issued for it was not carried out",
                    va, in, kept, tables);
    return 1;
}

int pbc_rule_paging_fence_early(pbc_findings *f, uint32_t op, uint64_t value, const char *by, uint32_t work_op,
                                uint32_t buffer, uint32_t start, uint32_t end)
{
    pbc_rule_report(f, PBC_RULE_PAGING_FENCE, op,
                    "the paging fence reached 0x%" PRIx64 " (%s) while work issued before that SignalMonitoredFence "
                    "had not run: bytes [0x%x, 0x%x) of paging buffer %u, built for operation %u", value, by, start,
                    end, buffer, work_op + 1);
    return 1;
}

int pbc_rule_paging_fence_late_effect(pbc_findings *f, uint32_t op, uint64_t value, const char *by, uint32_t work_op,
                                      int gart, uint32_t segment, uint64_t lo, uint64_t hi, uint32_t cpu_op,
                                      uint32_t seq)
{
    char where[96];
    if (gart)
        snprintf(where, sizeof(where), "aperture entries [%" PRIu64 ", %" PRIu64 ") of segment %u", lo, hi, segment);
    else
        snprintf(where, sizeof(where), "bytes in [0x%" PRIx64 ", 0x%" PRIx64 ")", lo, hi);
    pbc_rule_report(f, PBC_RULE_PAGING_FENCE, op,
                    "the paging fence reached 0x%" PRIx64 " (%s) before the effect of operation %u, issued before "
                    "that SignalMonitoredFence: CPU work queued at the SubmitCommand of operation %u (GPU queue "
                    "entry %u), still to run then, changed %s, which operation %u writes and no operation from the "
                    "signal on does",
                    value, by, work_op + 1, cpu_op + 1, seq + 1, where, work_op + 1);
    return 1;
}

int pbc_rule_paging_fence(pbc_findings *f, uint32_t op, uint64_t have, uint64_t value)
{
    pbc_rule_report(f, PBC_RULE_PAGING_FENCE, op,
                    "after the run the paging fence holds 0x%" PRIx64 "; the last SignalMonitoredFence asked for "
                    "0x%" PRIx64, have, value);
    return 1;
}
