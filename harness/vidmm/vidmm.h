/*
 * vidmm.h — the VidMm model: plays Windows' side of the paging DDI for one
 * scenario against one target (or against the spec model), on one model
 * GPU, and records every protocol violation as a finding.
 */
#ifndef PBCHECK_VIDMM_H
#define PBCHECK_VIDMM_H

#include <stdio.h>

#include "gpu/gpu.h"
#include "scenario/scenario.h"

#define PBC_RULE_ID_MAX 24u
#define PBC_DEFAULT_CALL_BUDGET 10000u

typedef struct pbc_finding {
    char rule[PBC_RULE_ID_MAX]; /* stable id, e.g. "PB-STATUS" */
    char detail[768];           /* one paragraph: what, with the call's arguments */
    uint32_t op;                /* scenario operation index, UINT32_MAX if none */
} pbc_finding;

/* A byte range of GPU physical memory whose content the DDI leaves
 * undefined; the oracle ignores it. */
typedef struct pbc_mask {
    uint64_t start, end;
    const char *reason;
} pbc_mask;

/* Bytes [start, end) of paging buffer `buffer` were written by one call. */
typedef struct pbc_write_rec {
    uint32_t buffer, start, end;
    uint32_t op, sub, pass, call;
} pbc_write_rec;

/* One Patch+SubmitCommand of part of a paging buffer. */
typedef struct pbc_submission {
    uint32_t buffer;
    uint32_t fence;
    uint32_t start, end;
    uint64_t phys;
    uint32_t queue_seq; /* GPU queue entry of its DMA, once rung */
    uint32_t rung;
    uint32_t completed;
} pbc_submission;

typedef enum pbc_mode {
    PBC_MODE_TARGET = 0, /* drive the target through its DDIs */
    PBC_MODE_SPEC        /* apply the spec model's effects directly */
} pbc_mode;

typedef struct pbc_vidmm_options {
    uint32_t mode;         /* pbc_mode */
    uint32_t dma_override; /* non-zero: every paging buffer has this size */
    uint32_t call_budget;  /* BuildPagingBuffer calls per operation; 0 = the default:
                              PBC_DEFAULT_CALL_BUDGET + 2 per page of the operation */
    FILE *trace;           /* per-call trace, or NULL */
} pbc_vidmm_options;

/* Which allocation owns a system page (page < 0: one of its MDLs' leading
 * foreign pages). */
typedef struct pbc_page_owner {
    uint64_t ppn;
    uint32_t alloc;
    int32_t page;
} pbc_page_owner;

typedef struct pbc_run_result {
    pbc_finding *findings;
    uint32_t finding_count, finding_cap;
    pbc_mask *masks;
    uint32_t mask_count, mask_cap;
    pbc_write_rec *writes;
    uint32_t write_count, write_cap;
    pbc_submission *subs;
    uint32_t sub_count, sub_cap;
    pbc_page_owner *owners;
    uint32_t owner_count, owner_cap;
    uint64_t dma_hash; /* XXH3 chain over every submitted byte range */
    uint32_t calls, buffers, busy_retries, insufficient;
    uint32_t unsupported_op; /* pbc_sop_kind + 1 of the first unsupported op, else 0 */
    uint32_t stopped;        /* a finding ended the scenario early */
    uint32_t ops_done;
} pbc_run_result;

void pbc_run_result_init(pbc_run_result *r);
void pbc_run_result_fini(pbc_run_result *r);
void pbc_run_result_clear(pbc_run_result *r);
void pbc_finding_add(pbc_run_result *r, const char *rule, uint32_t op, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Runs the scenario on gpu (which the caller created for the scenario's
 * layout and reset) and fills res. Returns 0 when the scenario ran to its
 * end, 1 when a finding stopped it, 2 when it was skipped (unsupported
 * operation, or the target refused to create its adapter). */
int pbc_vidmm_run(pbc_gpu *gpu, const pbc_scenario *s, const pbc_target *t,
                  const pbc_vidmm_options *opt, pbc_run_result *res);

/* Which scenario operation, sub-transfer and pass produced the packet at
 * `offset` of submission queue entry `seq` (from a page's provenance). */
const pbc_write_rec *pbc_run_find_write(const pbc_run_result *r, const pbc_gpu *gpu,
                                        uint32_t submission, uint32_t offset);

/* Whether a target supports what scenario operation kind needs. */
int pbc_target_supports_sop(const pbc_target *t, uint32_t kind);

#endif
