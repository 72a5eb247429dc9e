/*
 * conditions.h — what a builder could branch on, per DDI operation: the
 * conditions VidMm's arguments can put it in (a size that is not a page
 * multiple, a range across a leaf table's 2 MiB or a directory's 1 GiB,
 * 64 KiB pages, a call resumed in a new buffer, a page above 4 GiB, a
 * flag...), each a predicate on one DXGKARG_BUILDPAGINGBUFFER as the
 * builder gets it. Counting them over certify's deterministic suite says
 * whether the suite reaches every condition the generator can produce
 * (docs/certify-conditions.md).
 */
#ifndef PBCHECK_CONDITIONS_H
#define PBCHECK_CONDITIONS_H

#include "certify/certify.h"

typedef struct pbc_condition {
    uint32_t operation; /* the DXGK_OPERATION it is about */
    const char *name;   /* stable, unique for its operation */
    const char *what;   /* one line */
} pbc_condition;

uint32_t pbc_condition_count(void);
const pbc_condition *pbc_condition_get(uint32_t i);

/* Counts conditions over runs: for each, in how many runs some call of
 * the target met it. The tally takes the target's min_dma_size (the
 * smallest buffer) and each scenario's segments (where entries point). */
/* The volume one run must reach: drivers keep small caches (views of
 * page tables, mapped MDLs, GART windows) whose bugs show only after
 * hundreds of uses. */
#define PBC_VOLUME_TABLES 256u   /* leaf page tables written */
#define PBC_VOLUME_MAPS 1000u    /* aperture maps */
#define PBC_VOLUME_BUFFERS 1000u /* paging buffers */

typedef struct pbc_condition_tally {
    uint32_t *runs;      /* [pbc_condition_count()] */
    uint8_t *seen;       /* this run's, [pbc_condition_count()] */
    uint32_t min_dma;
    const pbc_scenario *s;
    /* This run's volume: leaf tables written (their addresses in
     * table_set), aperture maps, fresh paging buffers. */
    uint32_t tables, maps, buffers;
    uint64_t table_set[1024];
} pbc_condition_tally;

void pbc_condition_tally_init(pbc_condition_tally *t, const pbc_target *target);
void pbc_condition_tally_fini(pbc_condition_tally *t);
/* Runs s on target (in this process) with r, adding what its calls met;
 * returns the verdict. */
int pbc_condition_tally_run(pbc_condition_tally *t, pbc_runner *r, const pbc_scenario *s, const pbc_target *target);
/* Every case of the list, each parsed and run as above; returns how many
 * did not pass (0 for the reference). */
uint32_t pbc_condition_tally_cases(pbc_condition_tally *t, const pbc_case_list *cases, const pbc_target *target);

#endif
