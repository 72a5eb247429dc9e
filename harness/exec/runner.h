/*
 * runner.h — runs one scenario against one target and has the oracle judge
 * it (oracle/verdict.h says how). The runner keeps its worlds between runs
 * so that fuzz loops only pay for resets.
 */
#ifndef PBCHECK_RUNNER_H
#define PBCHECK_RUNNER_H

#include <stdio.h>

#include "oracle/verdict.h"
#include "vidmm/vidmm.h"

/* Keeps worlds between runs so that fuzz loops only pay for resets. */
typedef struct pbc_runner {
    pbc_world target, reference, spec;
    pbc_world again; /* the target's second run, for PB-NONDET */
    pbc_scenario fitted; /* the scenario laid onto a declared adapter */
    int over_budget;     /* the last run crossed pbc_run_options.byte_page_budget */
} pbc_runner;

typedef struct pbc_run_options {
    uint32_t dma_override;
    uint32_t call_budget;
    int check_determinism; /* run the target twice (rule PB-NONDET) */
    /* Pages each world may write as bytes, 0 for no limit: the fuzz
     * targets' budget (PBC_FUZZ_MAX_BYTE_PAGES). A run that crosses it in
     * any world is stopped and not judged: PBC_VERDICT_SKIP, and the
     * runner's over_budget set. */
    uint32_t byte_page_budget;
    int digest;            /* fill out->digest (costs the bytes of every page the target touched) */
    uint32_t experiment;   /* PBC_VIDMM_EXP_*: tests only */
    FILE *trace;
    /* Sees every BuildPagingBuffer call of the target's run (not the
     * reference's, nor the second one's): pbc_vidmm_options.observe. */
    void (*observe)(void *ctx, const DXGKARG_BUILDPAGINGBUFFER *a, const pbc_vidmm_facts *f);
    void *observe_ctx;
} pbc_run_options;

void pbc_runner_init(pbc_runner *r);
void pbc_runner_fini(pbc_runner *r);
/* How the fuzz targets run an input (docs/fuzzing.md), and only they:
 * the determinism re-run for one input in PBC_FUZZ_RERUN_EVERY, and the
 * budget of pages written as bytes (PBC_FUZZ_MAX_BYTE_PAGES). `run`,
 * `replay` and `certify` judge every input whole. */
pbc_run_options pbc_run_options_fuzz(const uint8_t *data, size_t size);
/* Returns the verdict (also in out->verdict). A scenario whose layout the
 * GPU model cannot build gives PBC_VERDICT_SKIP with the reason. */
int pbc_runner_run(pbc_runner *r, const pbc_scenario *s, const pbc_target *t,
                   const pbc_run_options *o, pbc_outcome *out);

#endif
