/*
 * util.h — small helpers shared by the harness: allocation that aborts on
 * exhaustion (a harness invariant, not a target finding) and growable
 * arrays.
 */
#ifndef PBCHECK_UTIL_H
#define PBCHECK_UTIL_H

#include <stddef.h>
#include <stdint.h>

void *pbc_xmalloc(size_t n);
void *pbc_xcalloc(size_t n, size_t size);
void *pbc_xrealloc(void *p, size_t n);
char *pbc_xstrdup(const char *s);
/* A new string formatted as printf would; for paths and commands whose
 * length the caller cannot bound. */
char *pbc_xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grows *items (of item_size bytes each) so that it holds at least need. */
void pbc_grow(void **items, uint32_t *cap, uint32_t need, size_t item_size);

/* Whether all n bytes at p equal v (n == 0: yes). Vectorised by libc and
 * not traced byte by byte by fuzzing instrumentation: hot in every run. */
int pbc_all_bytes(const uint8_t *p, size_t n, uint8_t v);

#define PBC_PUSH(arr, count, cap, value)                                      \
    do {                                                                       \
        pbc_grow((void **)&(arr), &(cap), (count) + 1, sizeof(*(arr)));        \
        (arr)[(count)++] = (value);                                            \
    } while (0)

#define PBC_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* What pbcheck prints before it stops on a broken invariant of its own
 * (so a worker that ends this way is pbcheck's bug, not the builder's). */
#define PBC_HARNESS_BUG_MARK "pbcheck: harness bug: "
/* Prints the mark and the message on stderr and aborts. */
_Noreturn void pbc_harness_bug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
