/*
 * rules.h — the rule catalogue: every check pbcheck makes on a builder,
 * one entry and one function per rule id (`PB-…`), each with its one-line
 * statement in the DDI's terms and the SPEC-TRACE ids it enforces.
 *
 * The VidMm model and the oracle observe; these functions judge. Each
 * takes what was observed, and when the rule is broken appends a finding
 * (rule, scenario operation, one paragraph naming objects by scenario
 * name) and returns 1; otherwise it returns 0 and appends nothing.
 * `pbcheck list rules` and docs/rules.md print this table.
 */
#ifndef PBCHECK_RULES_H
#define PBCHECK_RULES_H

#include <stdint.h>

#include <pbcheck/wdk/d3dkmddi.h>

typedef enum pbc_rule_id {
    PBC_RULE_DMA_OVERRUN = 0,
    PBC_RULE_DMA_ADVANCE,
    PBC_RULE_STATUS,
    PBC_RULE_BUSY_IDLE,
    PBC_RULE_BUSY_CONSUMED,
    PBC_RULE_NO_PROGRESS,
    PBC_RULE_PATCH,
    PBC_RULE_EXEC_RANGE,
    PBC_RULE_FENCE,
    PBC_RULE_GPU_FAULT,
    PBC_RULE_UNMAP_DUMMY,
    PBC_RULE_DIVERGE,
    PBC_RULE_NONDET,
    PBC_RULE_LIVELOCK,
    PBC_RULE_ASSERT,
    PBC_RULE_DMA_SUBMITTED,
    PBC_RULE_PHYSICAL,
    PBC_RULE_IDLE_HAZARD,
    PBC_RULE_KERNEL,
    PBC_RULE_PTE,
    PBC_RULE_TLB,
    PBC_RULE_PAGING_FENCE,
    PBC_RULE_COUNT
} pbc_rule_id;

#define PBC_RULE_ID_MAX 24u

typedef struct pbc_rule {
    const char *id;        /* stable, e.g. "PB-STATUS" */
    const char *statement; /* what the DDI requires, one line */
    const char *sids;      /* SPEC-TRACE ids, e.g. "S06" */
} pbc_rule;

/* The rule's entry; id must be below PBC_RULE_COUNT. */
const pbc_rule *pbc_rule_get(pbc_rule_id id);
/* The rule named `name`, or -1. */
int pbc_rule_lookup(const char *name);

typedef struct pbc_finding {
    uint32_t rule;     /* pbc_rule_id */
    char detail[768];  /* one paragraph: what, with the call's arguments */
    uint32_t op;       /* scenario operation index, UINT32_MAX if none */
    uint32_t gart_segment; /* a finding about one GART entry (PB-UNMAP-DUMMY): its aperture's id,
                              else 0; its writer is the finding's (exec/attribute.c) */
    uint64_t gart_index;
} pbc_finding;

typedef struct pbc_findings {
    pbc_finding *items;
    uint32_t count, cap;
} pbc_findings;

void pbc_rule_report(pbc_findings *f, pbc_rule_id rule, uint32_t op, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void pbc_rule_findings_fini(pbc_findings *f);

/* A BuildPagingBuffer call's arguments as text, made when a finding
 * names them: most calls need none, and making it costs more than many a
 * call. text returns the same string every time, valid while the call's
 * facts are. */
typedef struct pbc_call_desc pbc_call_desc;
struct pbc_call_desc {
    const char *(*text)(pbc_call_desc *d);
};

static inline const char *pbc_call_desc_text(pbc_call_desc *d) { return d->text(d); }

/* One BuildPagingBuffer call as VidMm observed it. Offsets are from the
 * start of the paging buffer. */
typedef struct pbc_call_facts {
    uint32_t op;              /* scenario operation index */
    uint32_t call;            /* BuildPagingBuffer calls so far in the run, 1-based */
    pbc_call_desc *desc;      /* the call's arguments, for the finding text */
    uint32_t buffer;          /* paging buffer id, 1-based */
    uint32_t buffer_size;     /* the whole buffer's DmaSize when fresh */
    uint32_t offset_in;       /* pDmaBuffer as handed to the call */
    int64_t offset_out;       /* pDmaBuffer as returned */
    int wrote_outside;        /* bytes outside the buffer changed */
    int wrote_outside_private;/* bytes outside the private data changed */
    const char *mdl_changed;  /* the name of an MDL the call changed, or NULL */
    int wrote_past_return;    /* bytes in [returned pDmaBuffer, end) changed */
    int private_out_of_range; /* pDmaBufferPrivateData returned outside its range */
    int private_advanced;     /* pDmaBufferPrivateData moved */
    NTSTATUS status;
    int was_idle;             /* AllocationIsIdle was set on the call */
    int busy_allowed;         /* the operation has AllocationIsIdle (S21-S24) */
    uint32_t min_dma_size;    /* what the target declared enough */
} pbc_call_facts;

/* PB-DMA-OVERRUN (S03, S04). */
int pbc_rule_dma_overrun(pbc_findings *f, const pbc_call_facts *c);
/* PB-DMA-ADVANCE (S03). */
int pbc_rule_dma_advance(pbc_findings *f, const pbc_call_facts *c);
/* PB-STATUS for BuildPagingBuffer (S06). */
int pbc_rule_status_build(pbc_findings *f, const pbc_call_facts *c);
/* PB-STATUS for Patch or SubmitCommand (`ddi`) of `fence`. */
int pbc_rule_status_ddi(pbc_findings *f, uint32_t op, const char *ddi, uint32_t fence, NTSTATUS st);
/* PB-BUSY-IDLE (S24). */
int pbc_rule_busy_idle(pbc_findings *f, const pbc_call_facts *c);
/* PB-BUSY-CONSUMED (S22). */
int pbc_rule_busy_consumed(pbc_findings *f, const pbc_call_facts *c);
/* PB-NO-PROGRESS (S07, S09). */
int pbc_rule_no_progress(pbc_findings *f, const pbc_call_facts *c);

/* PB-PATCH (S37): Patch changed its arguments, or bytes of the buffer
 * outside [start, end). */
int pbc_rule_patch(pbc_findings *f, uint32_t op, uint32_t fence, uint32_t buffer, uint32_t start,
                   uint32_t end, int args_changed, int outside_changed);

/* One piece of a submission handed to the GPU ring. A SubmitCommand may
 * ring its range in several pieces and may rebase the address: what
 * counts is which bytes of the buffer execute, in order. */
typedef struct pbc_ring_facts {
    int in_submit;            /* rung from inside SubmitCommand */
    uint32_t fence;           /* the submission's fence */
    UINT segment_id;          /* what was rung */
    uint64_t phys;
    UINT start, end;
    UINT want_segment;        /* where VidMm placed the buffer */
    uint64_t want_phys;       /* the buffer's start */
    UINT want_start, want_end;/* the submitted range */
    UINT next;                /* buffer offset the next piece must start at */
} pbc_ring_facts;

/* PB-EXEC-RANGE (S41, S42) at one ring: the piece must continue the
 * submitted range where the last piece ended, inside it. */
int pbc_rule_exec_range(pbc_findings *f, uint32_t op, const pbc_ring_facts *r);
/* PB-EXEC-RANGE (S42): when SubmitCommand returns, the pieces rung cover
 * [want_start, want_end) exactly (covered = where they reached). */
int pbc_rule_exec_range_rung(pbc_findings *f, uint32_t op, uint32_t fence, UINT covered, UINT want_start,
                             UINT want_end);

/* PB-DMA-SUBMITTED (S37, S42): bytes of a submission changed between
 * SubmitCommand's return and the GPU fetching them. */
int pbc_rule_dma_submitted(pbc_findings *f, uint32_t op, uint32_t fence, uint32_t buffer, UINT start,
                           UINT end, int changed);

/* A fence the GPU completed, or one still missing at the end. */
typedef struct pbc_fence_facts {
    uint32_t fence;           /* the fence the GPU wrote */
    uint32_t issued;          /* fences VidMm issued so far */
    uint32_t expected;        /* the next fence in order */
    int already_completed;
    int buffer_executed;      /* its paging buffer ran before the fence */
    uint64_t work_after;      /* micro-ops of its own buffer that ran after it */
    int missing;              /* end of run: never written */
    uint32_t buffer, start, end; /* the submission it follows */
} pbc_fence_facts;

/* PB-FENCE (S46). */
int pbc_rule_fence(pbc_findings *f, uint32_t op, const pbc_fence_facts *x);

/* PB-GPU-FAULT (S33, S42): `count` faults, the first described by `first`. */
int pbc_rule_gpu_fault(pbc_findings *f, uint32_t op, uint32_t count, const char *first);

/* PB-UNMAP-DUMMY (S33): aperture `segment` page `page` after an unmap. */
int pbc_rule_unmap_dummy(pbc_findings *f, UINT segment, uint64_t page, int valid, uint64_t addr,
                         uint64_t dummy_page);

/* PB-LIVELOCK (S07, S09): the operation described by `desc` did not
 * complete within `budget` calls. */
int pbc_rule_livelock_budget(pbc_findings *f, uint32_t op, pbc_call_desc *desc, uint64_t budget, uint64_t calls);
/* PB-LIVELOCK (S09): after INSUFFICIENT_DMA_BUFFER, a fresh buffer was
 * answered exactly as the previous fresh buffer (repeated: same status,
 * same bytes, same MultipassOffset in and out). */
int pbc_rule_livelock_repeat(pbc_findings *f, uint32_t op, pbc_call_desc *desc, uint32_t size,
                             uint32_t multipass_offset, int repeated);

/* PB-ASSERT: the builder's NT_ASSERT failed on `call` with `message`. */
int pbc_rule_assert(pbc_findings *f, uint32_t op, uint32_t call, pbc_call_desc *desc, const char *message);

/* PB-PHYSICAL (S28, S29): ReadPhysical (write = 0) or WritePhysical
 * (write = 1) of `segment` at `addr`; done: a micro-op of the operation's
 * own packets read (or wrote) 1-8 bytes starting exactly there. */
int pbc_rule_physical(pbc_findings *f, uint32_t op, int write, UINT segment, uint64_t addr, int done);

/* PB-IDLE-HAZARD (S21, S24): call `call` mapped allocation `alloc` with
 * the CPU while GPU work on it was still queued, without AllocationIsIdle. */
int pbc_rule_idle_hazard(pbc_findings *f, uint32_t op, uint32_t call, pbc_call_desc *desc, const char *alloc);

/* PB-KERNEL: the builder misused a kernel service during `where` (a DDI,
 * queued CPU work, or the run as a whole); `what` is the services' own
 * description (how many, and the first). */
int pbc_rule_kernel(pbc_findings *f, uint32_t op, const char *where, const char *what);

/* PB-PTE (S53, UpdatePageTable): after the run, the page tables translate
 * `va` (`what`: the allocation page or range) to `have`, VidMm mapped
 * `need`. */
int pbc_rule_pte(pbc_findings *f, uint32_t op, uint64_t va, const char *what, const char *have, const char *need);
/* PB-TLB (FlushTlb): after the run, the TLB still translates `va` to
 * `cached` (0: a zero page) where the tables now give `now` (or nothing,
 * `invalid`). */
int pbc_rule_tlb(pbc_findings *f, uint32_t op, uint64_t va, uint32_t space, uint64_t cached, uint64_t now,
                 int invalid);

/* PB-PAGING-FENCE (SignalMonitoredFence): after the run, the paging fence
 * holds `have` where the last signal asked for `value`. */
/* The paging fence reached `value` (written `by` the GPU or a CPU) while
 * the bytes [start, end) of paging buffer `buffer`, built for operation
 * work_op before the signal, had not run. */
int pbc_rule_paging_fence_early(pbc_findings *f, uint32_t op, uint64_t value, const char *by, uint32_t work_op,
                                uint32_t buffer, uint32_t start, uint32_t end);
/* CPU work queued at the SubmitCommand of operation cpu_op (GPU queue
 * entry seq), still to run when the fence reached `value`, then changed
 * bytes [lo, hi) of physical memory (gart: entries [lo, hi) of aperture
 * segment `segment`) that operation work_op, before the signal, writes
 * and no operation from the signal on does. */
int pbc_rule_paging_fence_late_effect(pbc_findings *f, uint32_t op, uint64_t value, const char *by, uint32_t work_op,
                                      int gart, uint32_t segment, uint64_t lo, uint64_t hi, uint32_t cpu_op,
                                      uint32_t seq);
int pbc_rule_paging_fence(pbc_findings *f, uint32_t op, uint64_t have, uint64_t value);

/* PB-DIVERGE and PB-NONDET are judged by the oracle, which writes the
 * report; these record it. */
int pbc_rule_diverge(pbc_findings *f, uint32_t op, const char *report);
int pbc_rule_nondet(pbc_findings *f, uint32_t op, const char *report);

#endif
