/*
 * libFuzzer's hooks for the structure-aware mutator. libFuzzer calls them
 * instead of its own mutations when they are linked in; LLVMFuzzerMutate is
 * the byte-level fallback (and all there is under PBC_MUTATOR=bytes).
 */
#include <stddef.h>
#include <stdint.h>

#include "mutate.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2,
                                 size_t size2, uint8_t *out, size_t max_out_size,
                                 unsigned int seed);

/* The hooks take no context, and libFuzzer mutates on one thread: one
 * mutator for the process, made on first use and kept to the end. */
static pbc_mutator *mutator(void)
{
    static pbc_mutator m;
    static int ready;
    if (!ready) {
        pbc_mutator_init(&m);
        ready = 1;
    }
    return &m;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    return pbc_mutate(mutator(), data, size, max_size, NULL, 0, seed, LLVMFuzzerMutate);
}

/* Under PBC_MUTATOR=bytes this still crosses over at operation level:
 * libFuzzer offers no byte-level cross-over to fall back on. The bench's
 * "without" runs therefore also set -cross_over=0. */
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2,
                                 size_t size2, uint8_t *out, size_t max_out_size,
                                 unsigned int seed)
{
    return pbc_crossover(mutator(), data1, size1, data2, size2, out, max_out_size, seed);
}
