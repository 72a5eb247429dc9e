/*
 * A measuring stick, not a fuzzer: a target that does nothing, linked with
 * the structure-aware mutator. An exec then costs libFuzzer's loop and one
 * mutation and nothing else, and no input adds coverage, so the corpus
 * stays as given. `pbcheck bench` runs it on one corpus with the
 * structure-aware mutator and with libFuzzer's own mutations
 * (PBC_MUTATOR=bytes, -cross_over=0): the two execs/s price a mutation.
 */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    (void)data;
    (void)size;
    return 0;
}
