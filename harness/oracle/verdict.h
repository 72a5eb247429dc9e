/*
 * verdict.h — the verdict of one run. Worlds: the target's; the reference
 * builder's (when the target is not the reference); and the spec model's.
 * The target passes when it broke no rule and its observable state equals
 * the oracle's. The reference is checked against the spec model in every
 * run: a disagreement there is a harness bug, never blamed on the target.
 */
#ifndef PBCHECK_VERDICT_H
#define PBCHECK_VERDICT_H

#include "kernel/shim.h"
#include "oracle/record.h"
#include "oracle/state.h"
#include "scenario/scenario.h"

typedef enum pbc_verdict {
    PBC_VERDICT_PASS = 0,
    PBC_VERDICT_FAIL = 1,
    PBC_VERDICT_SKIP = 2,
    PBC_VERDICT_HARNESS_BUG = 3
} pbc_verdict;

/* What one run left: its GPU (memory, GART, faults) and its record. */
typedef struct pbc_world {
    pbc_gpu *gpu;
    pbc_record res;
    pbc_shim_watch pool; /* the GPU's paging-buffer pool, watched from run to run */
} pbc_world;

/* A divergence in a few stable words, for grouping failures that are the
 * same bug (pbcheck triage): where the first differing byte is and who
 * wrote it last in the target's world. Empty strings when not a
 * divergence. */
typedef struct pbc_fail_shape {
    char region[12]; /* "segment", "system", "physical", "gart", "faults", "context" */
    char writer[12]; /* "none", "init", "packet", "render", "spec", "cpu", "move" */
    uint32_t subs;   /* the failing operation's sub-transfers (its split), 0 when none is known */
    uint32_t passes; /* the most paging buffers one of its sub-transfers took in the target's run */
    uint64_t addr;   /* memory regions: the first differing byte's physical address */
    uint32_t addr_known;
    pbc_prov prov;   /* memory regions: who wrote its page last in the target's world */
    uint32_t gart_segment; /* region "gart", or a finding about one GART entry: the entry's
                              aperture id (0: none) and index */
    uint64_t gart_index;
} pbc_fail_shape;

typedef struct pbc_outcome {
    uint32_t verdict;           /* pbc_verdict */
    char rule[PBC_RULE_ID_MAX]; /* first rule broken, "" when none */
    char message[2048];         /* why, for a human: finding or divergence report */
    pbc_digest digest;          /* the target world's observable state */
    uint32_t op;                /* scenario operation the failure points at, UINT32_MAX if none */
    char log[1024];             /* failures: the end of the builder's DbgPrint output, "" if none;
                                   kept apart from message, which is the harness's own text */
    int log_truncated;          /* log holds only the last lines */
    pbc_fail_shape shape;       /* PB-DIVERGE: its shape */
} pbc_outcome;

const char *pbc_verdict_name(uint32_t v);
/* Empties out for a new run. */
void pbc_verdict_begin(pbc_outcome *out);
/* Sets the verdict with a message; returns the verdict. */
int pbc_verdict_skip(pbc_outcome *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The three worlds of one run, and how each ended (pbc_vidmm_run's code:
 * 0 completed, 1 a finding stopped it). reference is NULL when the target
 * is the reference itself (then the spec model is the oracle). */
typedef struct pbc_verdict_worlds {
    const pbc_scenario *s;
    const pbc_world *target, *reference, *spec;
    int target_rc, reference_rc, spec_rc;
} pbc_verdict_worlds;

/* Judges the run: harness bugs first (spec or reference broke a rule, or
 * they disagree), then the target's first finding, then the state
 * comparison (PB-DIVERGE, with a report naming the first differing byte,
 * its owner and the packet that last wrote it on each side). Fills
 * out->verdict, rule and message; returns the verdict. */
int pbc_verdict_judge(const pbc_verdict_worlds *w, pbc_outcome *out);

/* PB-NONDET: the target ran twice, into `first` and `again`: the same
 * work (decoded micro-ops) and the same final state, compared like the
 * differential check, so that only bytes count, not how they are held.
 * Returns the verdict. */
int pbc_verdict_determinism(const pbc_world *first, const pbc_world *again, pbc_outcome *out);

#endif
