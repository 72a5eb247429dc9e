/*
 * state.h — the observable state of a run and how two runs compare.
 *
 * Observable: every byte of modeled memory (segments and system pages,
 * outside the paging-buffer pool), every GART entry, and GPU faults.
 * Fences are judged per run by rule PB-FENCE (every fence written once, in
 * order, after its buffer), not compared across runs: how many buffers a
 * builder needs is its own business. Bytes the DDI leaves undefined are masked, each mask with a
 * reason. Cost follows the dirty sets, not the modeled memory size.
 */
#ifndef PBCHECK_STATE_H
#define PBCHECK_STATE_H

#include "gpu/gpu.h"
#include "oracle/record.h"

#define PBC_STATE_REGIONS (PBC_MAX_SEGMENTS + 2u) /* segments, system pages, faults */

typedef struct pbc_digest {
    uint64_t region[PBC_STATE_REGIONS];
    uint64_t total;
} pbc_digest;

typedef enum pbc_diff_kind {
    PBC_DIFF_NONE = 0,
    PBC_DIFF_MEMORY,
    PBC_DIFF_GART,
    PBC_DIFF_FAULTS
} pbc_diff_kind;

#define PBC_DIFF_WINDOW 16u

typedef struct pbc_diff {
    uint32_t kind;
    uint64_t addr;           /* memory: first differing byte */
    uint64_t window_start;   /* memory: where the hex windows start */
    uint8_t a[PBC_DIFF_WINDOW], b[PBC_DIFF_WINDOW];
    pbc_prov prov_a, prov_b; /* last writers of that page */
    uint32_t segment;        /* GART */
    uint64_t index;          /* GART */
    pbc_gart_entry gart_a, gart_b;
    uint32_t differing_pages;
} pbc_diff;

void pbc_state_digest(const pbc_gpu *gpu, const pbc_mask *masks, uint32_t mask_count, pbc_digest *out);
/* Fills d with the first difference between a and b; returns 1 if they
 * differ, 0 if equal. */
/* with_queue: also compare GPU fault counts, which only runs that used the
 * GPU queue have (not the spec model). */
int pbc_state_diff(const pbc_gpu *a, const pbc_gpu *b, const pbc_mask *masks, uint32_t mask_count,
                   int with_queue, pbc_diff *d);

#endif
