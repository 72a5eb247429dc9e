/*
 * attribute.h — who wrote the first wrong byte: a failing case replayed
 * once more, in the worker that runs the builder, with a watch on the
 * memory the divergence points at, to find the builder's instruction that
 * last wrote it (docs/triage.md, "Who wrote it"). Only failing cases pay
 * for it: the watch is armed for this replay alone.
 */
#ifndef PBCHECK_EXEC_ATTRIBUTE_H
#define PBCHECK_EXEC_ATTRIBUTE_H

#include "exec/runner.h"
#include "exec/symbolize.h"

typedef enum pbc_attr_kind {
    PBC_ATTR_NONE = 0, /* not a divergence in memory, or not written by the builder's CPU */
    PBC_ATTR_STORE,    /* a store of the builder's changed the bytes last */
    PBC_ATTR_NEAREST,  /* no store changed them (a write that never happened); the builder's
                          last store into their page is named instead */
    PBC_ATTR_CALL      /* no store reached the page: the DDI call that should have written it */
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
    uint32_t stores;      /* stores into the watched page seen in the replay */
    char text[1024];      /* one sentence: "written by ExCpuCopyEviction at excpu_ddi.c:371 ..." */
} pbc_attribution;

/* Replays s on t with runner r (in the process that runs the builder: a
 * worker) and fills out. Returns out->kind. */
uint32_t pbc_attribute(pbc_runner *r, const pbc_scenario *s, const pbc_target *t, pbc_attribution *out);

/* The location attribution gives a finding: its where (STORE, NEAREST),
 * "" otherwise. */
const char *pbc_attribution_where(const pbc_attribution *a);

#endif
