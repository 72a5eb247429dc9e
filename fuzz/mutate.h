/*
 * mutate.h — the structure-aware mutator behind both engines' hooks. It
 * decodes the input (any bytes decode), changes the scenario at the level
 * of operations, and encodes it again, so a mutation is a new sequence a
 * real VidMm could issue rather than a random byte flip.
 */
#ifndef PBCHECK_FUZZ_MUTATE_H
#define PBCHECK_FUZZ_MUTATE_H

#include <stddef.h>
#include <stdint.h>

#include "scenario/gen.h"

/* A byte-level mutator (libFuzzer's LLVMFuzzerMutate or the mutator's own):
 * mutates data[0, size) in place, returns the new size <= max_size. */
typedef size_t (*pbc_byte_mutator)(uint8_t *data, size_t size, size_t max_size);

typedef enum pbc_mutation {
    PBC_MUT_INSERT = 0,   /* a generated legal operation at a random position */
    PBC_MUT_DELETE,       /* a run of operations */
    PBC_MUT_DUPLICATE,    /* an operation copied to another position */
    PBC_MUT_REORDER,      /* an operation moved */
    PBC_MUT_SPLICE,       /* a run of operations from another input */
    PBC_MUT_TWEAK,        /* one field toward a boundary */
    PBC_MUT_BUSY,         /* render work on an allocation just before an op uses it */
    PBC_MUT_ALLOC,        /* one more allocation */
    PBC_MUT_LAYOUT,       /* the adapter: a new layout, or one segment resized or moved */
    PBC_MUT_PHYS,         /* another physical page layout for an allocation's MDLs */
    PBC_MUT_AGAIN,        /* an operation repeated on its allocation, a discard or render work
                             between, then another operation on it */
    PBC_MUT_EVICT,        /* every allocation in a segment evicted in turn, render work on one */
    PBC_MUT_BYTES,        /* the byte-level fallback */
    PBC_MUT_COUNT
} pbc_mutation;

/* The mutator's memory between calls, and nothing else: the scenarios it
 * decodes into, whose arrays it keeps so that a warm mutator allocates
 * nothing. One per thread of mutation. */
typedef struct pbc_mutator {
    pbc_scenario s, other;
    int bytes_only; /* PBC_MUTATOR=bytes when initialized */
} pbc_mutator;

/* Reads PBC_MUTATOR from the environment: "bytes" makes pbc_mutate use
 * the byte mutator only, which is how `pbcheck bench` and `pbcheck fuzz
 * --no-mutator` run the engine without this mutator. */
void pbc_mutator_init(pbc_mutator *m);
void pbc_mutator_fini(pbc_mutator *m);

/* Mutates data[0, size) in place into at most max_size bytes and returns
 * the new size. other (may be NULL) is a second input for splicing. */
size_t pbc_mutate(pbc_mutator *m, uint8_t *data, size_t size, size_t max_size, const uint8_t *other,
                  size_t other_size, uint32_t seed, pbc_byte_mutator bytes);

/* Cross-over at operation level: a's allocations and a prefix of its
 * operations, then a run of b's operations. Returns the size written to
 * out (at most max_size). */
size_t pbc_crossover(pbc_mutator *m, const uint8_t *a, size_t a_size, const uint8_t *b, size_t b_size,
                     uint8_t *out, size_t max_size, uint32_t seed);

/* One mutation of kind m (not PBC_MUT_BYTES) applied to s; other may be
 * NULL. Returns 1 when s changed, 0 when m does not apply to s. */
int pbc_mutate_scenario(pbc_scenario *s, pbc_mutation m, const pbc_scenario *other, pbc_rng *rng);

#endif
