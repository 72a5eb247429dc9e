/*
 * attribute.h — who wrote the first wrong byte: a failing case (a
 * divergence in memory, a GPU fault) replayed again, in the worker that
 * runs the builder, with watches on the byte and on the packet bytes that
 * said it, to find the builder's store that last wrote it and the DDI
 * call it ran in (docs/triage.md, "Who wrote it"). Only failing cases pay
 * for it: the watches are armed for these replays alone.
 */
#ifndef PBCHECK_EXEC_ATTRIBUTE_H
#define PBCHECK_EXEC_ATTRIBUTE_H

#include "exec/runner.h"
#include "exec/symbolize.h"

typedef enum pbc_attr_kind {
    PBC_ATTR_NONE = 0, /* nothing found: not such a failure, no store of the builder's, a packet
                          no longer in the pool, or not x86-64 */
    PBC_ATTR_STORE,    /* a store of the builder's wrote the byte last (directly, or the packet
                          field that made a packet write it) */
    PBC_ATTR_NEAREST   /* nothing wrote the byte (a write that never happened); the builder's
                          last store into its page is named instead */
} pbc_attr_kind;

typedef struct pbc_attribution {
    uint32_t kind;        /* pbc_attr_kind */
    pbc_sym sym;          /* STORE, NEAREST: the builder's code that stored */
    char where[512];      /* its "FILE:LINE": the store's, or when that is in a header (a helper
                             like a write-register function), the first site of the inline
                             chain in a source file */
    uint32_t call, op;    /* the BuildPagingBuffer call (0: CPU work queued at SubmitCommand) and
                             scenario operation it ran for */
    uint32_t mpo;         /* the call's MultipassOffset */
    char operation[40];   /* the call's DXGK operation ("Transfer"), "" when unknown */
    char text[1024];      /* one sentence: "written by ExCpuCopyEviction at excpu_ddi.c:371 ..."
                             (docs/triage.md, "Who wrote it", has more) */
} pbc_attribution;

/* Whether a failure of rule `rule` may have a last writer: wrong memory
 * (PB-DIVERGE), a GPU fault, a GART entry not on the dummy page after an
 * unmap (PB-UNMAP-DUMMY). Only these are replayed with the watches. */
int pbc_attribution_wanted(const char *rule);

/* Replays s on t with runner r (in the process that runs the builder: a
 * worker) and fills out. Returns out->kind. */
uint32_t pbc_attribute(pbc_runner *r, const pbc_scenario *s, const pbc_target *t, pbc_attribution *out);

/* The location attribution gives a finding: its where (STORE, NEAREST),
 * "" otherwise. */
const char *pbc_attribution_where(const pbc_attribution *a);

#endif
