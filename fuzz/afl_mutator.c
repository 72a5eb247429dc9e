/*
 * AFL++'s custom-mutator API for the structure-aware mutator, built as a
 * shared library and loaded with AFL_CUSTOM_MUTATOR_LIBRARY. AFL++ keeps
 * running its own havoc stages too unless AFL_CUSTOM_MUTATOR_ONLY is set;
 * the byte-level fallback here is a small one of our own.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mutate.h"
#include "scenario/gen.h"

typedef struct afl_mutator {
    pbc_rng rng;
    uint8_t *buf;
    size_t cap;
    pbc_mutator mutator;
} afl_mutator;

void *afl_custom_init(void *afl, unsigned int seed);
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
                       uint8_t *add_buf, size_t add_buf_size, size_t max_size);
const char *afl_custom_describe(void *data, size_t max_description_len);
void afl_custom_deinit(void *data);

void *afl_custom_init(void *afl, unsigned int seed)
{
    (void)afl;
    afl_mutator *m = calloc(1, sizeof(*m));
    if (m) {
        m->rng.state = seed;
        pbc_mutator_init(&m->mutator);
    }
    return m;
}

/* One byte flipped, set, inserted or removed. The rng is per call (seeded
 * from the mutated bytes' first dword) because the hook has no context. */
static size_t byte_mutate(uint8_t *data, size_t size, size_t max_size)
{
    pbc_rng r = {size * 0x9E3779B97F4A7C15ull};
    for (size_t i = 0; i < size && i < 8; i++)
        r.state = r.state * 131 + data[i];
    size_t at = size ? pbc_rng_choose(&r, (uint32_t)size) : 0;
    switch (size ? pbc_rng_choose(&r, 4) : 2) {
    case 0:
        data[at] ^= (uint8_t)(1u << pbc_rng_choose(&r, 8));
        return size;
    case 1:
        data[at] = (uint8_t)pbc_rng_choose(&r, 256);
        return size;
    case 2:
        if (size >= max_size)
            return size;
        memmove(data + at + 1, data + at, size - at);
        data[at] = (uint8_t)pbc_rng_choose(&r, 128);
        return size + 1;
    default:
        memmove(data + at, data + at + 1, size - at - 1);
        return size - 1;
    }
}

size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
                       uint8_t *add_buf, size_t add_buf_size, size_t max_size)
{
    afl_mutator *m = data;
    if (m->cap < max_size) {
        uint8_t *grown = realloc(m->buf, max_size);
        if (!grown) {
            *out_buf = buf;
            return buf_size;
        }
        m->buf = grown;
        m->cap = max_size;
    }
    size_t n = buf_size < max_size ? buf_size : max_size;
    memcpy(m->buf, buf, n);
    *out_buf = m->buf;
    return pbc_mutate(&m->mutator, m->buf, n, max_size, add_buf, add_buf_size,
                      pbc_rng_choose(&m->rng, UINT32_MAX), byte_mutate);
}

const char *afl_custom_describe(void *data, size_t max_description_len)
{
    (void)data;
    return max_description_len > 8 ? "pbc-ops" : "";
}

void afl_custom_deinit(void *data)
{
    afl_mutator *m = data;
    if (m) {
        pbc_mutator_fini(&m->mutator);
        free(m->buf);
    }
    free(m);
}
