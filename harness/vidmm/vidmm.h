/*
 * vidmm.h — the VidMm model: plays Windows' side of the paging DDI for one
 * scenario against one target (or against the spec model), on one model
 * GPU, and records every protocol violation as a finding.
 */
#ifndef PBCHECK_VIDMM_H
#define PBCHECK_VIDMM_H

#include <stdio.h>

#include "kernel/shim.h"
#include "oracle/record.h"
#include "scenario/scenario.h"

#define PBC_DEFAULT_CALL_BUDGET 10000u
#define PBC_CALL_BUDGET_PER_PAGE 64u /* calls: a builder moving 64 bytes of the work per call fits */

typedef enum pbc_mode {
    PBC_MODE_TARGET = 0, /* drive the target through its DDIs */
    PBC_MODE_SPEC        /* apply the spec model's effects directly */
} pbc_mode;

/* What VidMm knows of a paging operation that its arguments do not say,
 * as the operation's first call is made. "Queued" work is paging work
 * built into a paging buffer or submitted that the GPU has not run yet. */
typedef struct pbc_vidmm_facts {
    int alloc_queued;   /* an earlier operation's paging work on its allocation (a move, a fill, a
                           discard) is queued */
    int vacated_queued; /* it writes a segment range (Transfer, SpecialLockTransfer, Fill, their
                           virtual forms, WritePhysical) that another allocation left by a move,
                           discard or destroy whose paging work is queued */
    int buffer_place;   /* its paging buffer: PBC_VIDMM_BUFFER_* */
} pbc_vidmm_facts;
#define PBC_VIDMM_BUFFER_SYSTEM 0
#define PBC_VIDMM_BUFFER_SEGMENT_LOW 1  /* a memory segment, below 4 GiB */
#define PBC_VIDMM_BUFFER_SEGMENT_HIGH 2 /* a memory segment, at or above 4 GiB */

typedef struct pbc_vidmm_options {
    uint32_t mode;         /* pbc_mode */
    uint32_t dma_override; /* non-zero: every paging buffer has this size */
    uint32_t call_budget;  /* BuildPagingBuffer calls per operation; 0 = the default:
                              PBC_DEFAULT_CALL_BUDGET + PBC_CALL_BUDGET_PER_PAGE
                              per page of the operation */
    FILE *trace;           /* per-call trace, or NULL */
    uint32_t experiment;   /* PBC_VIDMM_EXP_*: tests only */
    pbc_shim_watch *pool;  /* the watch on the GPU's paging-buffer pool, kept with the GPU from
                              run to run so that pages no builder wrote keep their poison; its
                              keeper calls pbc_shim_watch_fini before the GPU goes. NULL: one
                              for this run */
    /* Called with the arguments of every BuildPagingBuffer call as the
     * builder is about to get them, and what VidMm knows of the call
     * besides (certify's count of conditions); NULL: none. */
    void (*observe)(void *ctx, const DXGKARG_BUILDPAGINGBUFFER *a, const pbc_vidmm_facts *f);
    void *observe_ctx;
} pbc_vidmm_options;


/* Deliberate VidMm-model bugs, for tests only: they show that the content
 * oracle catches a wrong VidMm, which the reference and the spec model,
 * fed the same wrong arguments, cannot. */
#define PBC_VIDMM_EXP_SOURCE_PAGE_OFF 0x1u   /* a transfer's source SegmentAddress one page too far */
#define PBC_VIDMM_EXP_MAP_NO_MDL_OFFSET 0x2u /* MapApertureSegment forgets the allocation's MDL offset */

/* Runs the scenario on gpu (which the caller created for the scenario's
 * layout and reset) and fills res. Returns 0 when the scenario ran to its
 * end, 1 when a finding stopped it, 2 when it was skipped (unsupported
 * operation, or the target refused to create its adapter). */
int pbc_vidmm_run(pbc_gpu *gpu, const pbc_scenario *s, const pbc_target *t,
                  const pbc_vidmm_options *opt, pbc_record *res);

#endif
