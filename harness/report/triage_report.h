/*
 * triage_report.h — the outputs of one triage (what it found:
 * triage/buckets.h): a folder per bucket, triage.json, triage.html,
 * triage.md, triage.sarif (docs/triage.md); --join against a previous
 * triage's files; --promote of a bucket's files into the regression
 * corpus.
 */
#ifndef PBCHECK_TRIAGE_REPORT_H
#define PBCHECK_TRIAGE_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "triage/buckets.h"

/* Marks each bucket new or known against a previous triage (its folder or
 * its triage.json) and lists the buckets gone; -1 with one line in err
 * when it cannot be read. */
int pbc_triage_join(pbc_triage_run *r, const char *prev, char *err, size_t err_size);
/* Writes DIR/buckets/ID/ (inputs, repro.pbs or repro.bin, report.txt),
 * DIR/triage.json, triage.html, triage.sarif and triage.md; -1 with one
 * line in err. */
int pbc_triage_write(const pbc_triage_run *r, const char *dir, char *err, size_t err_size);
/* Copies bucket `id` (its id or a signature prefix of 6 digits or more)
 * of the triage in dir into the regression corpus `to`, with the
 * verdicts it must keep; returns the path written (owned), or NULL with
 * one line in err. */
char *pbc_triage_promote(const char *dir, const char *id, const char *to, char *err, size_t err_size);

#endif
