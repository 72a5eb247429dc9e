/*
 * gen.h — builds valid-by-construction scenarios from a stream of choices.
 * The residency tracker decides what is legal next, so every scenario is a
 * sequence a real VidMm could issue and no choice stream is rejected. The
 * choices come from a seeded generator (certify's fuzz budget) or, later,
 * from fuzzer bytes.
 */
#ifndef PBCHECK_GEN_H
#define PBCHECK_GEN_H

#include "scenario/scenario.h"

/* Returns a value in [0, n), n >= 1. */
typedef uint32_t (*pbc_choose_fn)(void *ctx, uint32_t n);

/* Fills s (initialized by the caller) with a scenario of at most max_ops
 * operations. */
void pbc_gen_scenario(pbc_scenario *s, uint32_t max_ops, pbc_choose_fn choose, void *ctx);
/* The same within a given layout of n segments (a target's declared
 * adapter; n == 0: the default layout or, half the time, one from
 * pbc_gen_layout): every placement fits it. */
void pbc_gen_scenario_in(pbc_scenario *s, const pbc_segment_info *layout, uint32_t n, uint32_t max_ops,
                         pbc_choose_fn choose, void *ctx);

/* A layout Windows would accept from a driver that declares nothing: one
 * to three memory segments of 1 MiB to 64 GiB (below 4 GiB, above it, or
 * ending on a 4 GiB boundary) and up to two apertures of one page to 4 GiB,
 * in any order. Always one the GPU model can build. */
void pbc_gen_layout(pbc_scenario *s, pbc_choose_fn choose, void *ctx);

/* Appends one allocation (a fresh name; its placement is not checked
 * against the others). */
void pbc_gen_alloc(pbc_scenario *s, pbc_choose_fn choose, void *ctx);
/* One candidate operation for the state r (s has at least one allocation
 * and one memory segment); the caller checks it with pbc_residency_check. */
void pbc_gen_op(const pbc_scenario *s, const pbc_residency *r, pbc_sop *o, pbc_choose_fn choose,
                void *ctx);
/* The same on allocation `alloc`, so that operations chain on one
 * allocation (state a builder keeps about it meets the next one). */
void pbc_gen_op_on(const pbc_scenario *s, const pbc_residency *r, uint32_t alloc, pbc_sop *o, pbc_choose_fn choose,
                   void *ctx);
/* A first page for a map of up to `pages` pages into an aperture of
 * ap_pages: page 65,536, the first a 16-bit GART index cannot name, in an
 * aperture with room there; else the aperture's last `pages`. */
uint64_t pbc_gen_past_index16(uint64_t ap_pages, uint64_t pages);
/* The same, of operation kind `kind` (a PBC_SOP_*). */
void pbc_gen_op_kind_on(const pbc_scenario *s, const pbc_residency *r, uint32_t kind, uint32_t alloc, pbc_sop *o,
                        pbc_choose_fn choose, void *ctx);

/* A splitmix64 choice source. */
typedef struct pbc_rng {
    uint64_t state;
} pbc_rng;
uint32_t pbc_rng_choose(void *rng, uint32_t n);

#endif
