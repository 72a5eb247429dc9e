/*
 * fuzz_check.h — the invariant check of the non-differential fuzz targets:
 * a broken invariant says which and aborts, which the engine saves as a
 * crash.
 */
#ifndef PBCHECK_FUZZ_CHECK_H
#define PBCHECK_FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define FUZZ_CHECK(what, cond)                                                               \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            fprintf(stderr, "pbcheck: %s invariant broken: %s\n", what, #cond);             \
            abort();                                                                         \
        }                                                                                    \
    } while (0)

#endif
