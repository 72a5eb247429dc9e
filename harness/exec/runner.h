/*
 * run.h — runs one scenario against one target and judges it.
 *
 * Worlds: the target's; the reference builder's (when the target is not
 * the reference); and the spec model's. Verdict: the target broke no rule
 * and its observable state equals the oracle's. The reference is checked
 * against the spec model in every run: a disagreement there is a harness
 * bug, never blamed on the target.
 */
#ifndef PBCHECK_RUN_H
#define PBCHECK_RUN_H

#include <stdio.h>

#include "oracle/state.h"
#include "vidmm/vidmm.h"

typedef enum pbc_verdict {
    PBC_VERDICT_PASS = 0,
    PBC_VERDICT_FAIL = 1,
    PBC_VERDICT_SKIP = 2,
    PBC_VERDICT_HARNESS_BUG = 3
} pbc_verdict;

typedef struct pbc_world {
    pbc_gpu *gpu;
    pbc_run_result res;
} pbc_world;

/* Keeps worlds between runs so that fuzz loops only pay for resets. */
typedef struct pbc_runner {
    pbc_world target, reference, spec;
    pbc_segment_info layout[PBC_MAX_SEGMENTS];
    uint32_t layout_count;
} pbc_runner;

typedef struct pbc_run_options {
    uint32_t dma_override;
    uint32_t call_budget;
    int check_determinism; /* run the target twice (rule PB-NONDET) */
    FILE *trace;
} pbc_run_options;

typedef struct pbc_outcome {
    uint32_t verdict;        /* pbc_verdict */
    char rule[PBC_RULE_ID_MAX]; /* first rule broken, "" when none */
    char message[2048];      /* why, for a human: finding or divergence report */
    pbc_digest digest;       /* the target world's observable state */
    uint32_t op;             /* scenario operation the failure points at, UINT32_MAX if none */
} pbc_outcome;

void pbc_runner_init(pbc_runner *r);
void pbc_runner_fini(pbc_runner *r);
/* Returns the verdict (also in out->verdict). A scenario whose layout the
 * GPU model cannot build gives PBC_VERDICT_SKIP with the reason. */
int pbc_runner_run(pbc_runner *r, const pbc_scenario *s, const pbc_target *t,
                   const pbc_run_options *o, pbc_outcome *out);
const char *pbc_verdict_name(uint32_t v);

#endif
