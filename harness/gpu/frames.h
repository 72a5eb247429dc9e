/*
 * frames.h — a list of system page frames as runs: frames in a row, or
 * frames handed out one at a time whose pool indexes are in a row (the
 * pool scatters them: frame base + (index * mult & mask), mem.h). An MDL
 * of any size is a handful of runs, so making, recording and judging it
 * costs O(runs), not O(pages); a frame number is made only when someone
 * asks for it.
 */
#ifndef PBCHECK_FRAMES_H
#define PBCHECK_FRAMES_H

#include <stdint.h>

#include "gpu/mem.h"

typedef struct pbc_frame_run {
    uint64_t at;     /* index in the list of the run's first frame */
    uint64_t count;
    uint64_t first;  /* the first frame's number; pooled: its pool index */
    uint32_t pooled; /* frames handed out one at a time, pool indexes in a row */
} pbc_frame_run;

typedef struct pbc_frames {
    pbc_frame_run *runs; /* by `at`, covering [0, total) */
    uint32_t count, cap;
    uint64_t total;
    pbc_pool_order pool; /* turns a pooled run's indexes into frames */
} pbc_frames;

void pbc_frames_init(pbc_frames *f, const pbc_pool_order *pool);
void pbc_frames_fini(pbc_frames *f);
/* Empties f; keeps its array. */
void pbc_frames_clear(pbc_frames *f);
/* Appends n frames in a row from frame `first`, or (pooled) n frames of
 * pool indexes index .. index+n-1; joins the last run when it goes on. */
void pbc_frames_add(pbc_frames *f, uint64_t first, uint64_t n, int pooled);
/* Frame i of the list (0 <= i < total). */
uint64_t pbc_frames_pfn(const pbc_frames *f, uint64_t i);
/* The run holding frame i. */
const pbc_frame_run *pbc_frames_run_of(const pbc_frames *f, uint64_t i);
/* Walks frames [from, from + n) of f a run at a time: each call gives the
 * next piece of a run (its `at` counted from `from`), 0 at the end.
 *   pbc_frames_walk w = pbc_frames_walk_from(f, from, n); pbc_frame_run p;
 *   while (pbc_frames_next(&w, &p)) ... */
typedef struct pbc_frames_walk {
    const pbc_frames *f;
    const pbc_frame_run *r;
    uint64_t i, from, end;
} pbc_frames_walk;
pbc_frames_walk pbc_frames_walk_from(const pbc_frames *f, uint64_t from, uint64_t n);
int pbc_frames_next(pbc_frames_walk *w, pbc_frame_run *piece);
/* Frames [from, from + n) of f as a list of their own, into out (cleared first). */
void pbc_frames_sub(const pbc_frames *f, uint64_t from, uint64_t n, pbc_frames *out);
/* Frames [from, from + n) into out[0 .. n-1]. */
void pbc_frames_get(const pbc_frames *f, uint64_t from, uint64_t n, uint64_t *out);
/* Whether the frames are in a row. */
int pbc_frames_contiguous(const pbc_frames *f);
/* The frame of pool index k. */
static inline uint64_t pbc_pool_frame(const pbc_pool_order *p, uint64_t k) { return p->base + ((k * p->mult) & p->mask); }
/* Whether frame pfn lies in pooled run r, and its index in the list then. */
int pbc_frames_find(const pbc_frames *f, uint64_t pfn, uint64_t *index);

#endif
