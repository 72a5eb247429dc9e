/*
 * Allocation helpers. Running out of host memory is a harness failure, not
 * something a target did, so these abort with a message.
 */
#include "base/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *pbc_check(void *p)
{
    if (!p) {
        fputs("pbcheck: out of memory\n", stderr);
        abort();
    }
    return p;
}

void *pbc_xmalloc(size_t n) { return pbc_check(malloc(n ? n : 1)); }

void *pbc_xcalloc(size_t n, size_t size) { return pbc_check(calloc(n ? n : 1, size ? size : 1)); }

void *pbc_xrealloc(void *p, size_t n) { return pbc_check(realloc(p, n ? n : 1)); }

char *pbc_xstrdup(const char *s) { return pbc_check(strdup(s)); }

char *pbc_xprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        pbc_harness_bug("bad format string %s", fmt);
    char *s = pbc_xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

void pbc_grow(void **items, uint32_t *cap, uint32_t need, size_t item_size)
{
    if (need <= *cap)
        return;
    uint32_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    *items = pbc_xrealloc(*items, (size_t)n * item_size);
    *cap = n;
}

int pbc_all_bytes(const uint8_t *p, size_t n, uint8_t v)
{
    /* Every byte equals the first, and the first is v. */
    return n == 0 || (p[0] == v && memcmp(p, p + 1, n - 1) == 0);
}

void pbc_harness_bug(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs(PBC_HARNESS_BUG_MARK, stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(stderr);
    abort();
}
