/*
 * progress.h — how long runs say where they are. On a terminal (stderr)
 * a live line, redrawn at most ten times a second; in a pipe or CI log a
 * plain line every few seconds. Either way: items done (of how many,
 * when known), failures, rate, and time left when it can be told.
 */
#ifndef PBCHECK_CLI_PROGRESS_H
#define PBCHECK_CLI_PROGRESS_H

#include <stdint.h>

typedef struct pbc_progress {
    const char *what;  /* "certify", "run", ... */
    int tty;
    double started, last;
    double interval;   /* seconds between plain lines */
    int drawn;         /* a live line is on the terminal */
} pbc_progress;

void pbc_progress_begin(pbc_progress *p, const char *what);
/* done of total items (total 0: unknown), failed so far; deadline_left:
 * seconds left of a time budget, or < 0 when there is none; label: the
 * current item (may be NULL). Prints only when it is time to. */
void pbc_progress_tick(pbc_progress *p, uint64_t done, uint64_t total, uint64_t failed, double deadline_left,
                       const char *label);
/* Clears the live line, if any. */
void pbc_progress_end(pbc_progress *p);

#endif
