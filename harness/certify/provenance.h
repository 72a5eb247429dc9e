/*
 * provenance.h — what a report says about its own making: which pbcheck
 * (version, git revision), which builder binary and suite (XXH3-128
 * digests), which options, when, and on which host and CPU. Filled in
 * pieces, into the report's pbc_report_provenance (certify/results.h).
 */
#ifndef PBCHECK_CERTIFY_PROVENANCE_H
#define PBCHECK_CERTIFY_PROVENANCE_H

#include <stddef.h>
#include <time.h>

#include "certify/certify.h"
#include "certify/results.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The run's date (now, as UTC ISO 8601), host name, operating system,
 * CPU model and count, and the target binary with its digest: the builder
 * library at library_path, or (NULL: a built-in target) the running
 * executable. Leaves version, git revision, options and argv to the
 * caller. 0, or -1 with "cannot read PATH: why" in err when the binary
 * cannot be digested (the rest is filled). */
int pbc_provenance_collect(pbc_report_provenance *p, const char *library_path, time_t now, char *err,
                           size_t err_size);

/* The suite's digest: XXH3-128 over the first count cases, each as its
 * name, a NUL, its scenario text and a NUL, in order. */
void pbc_provenance_suite(pbc_report_provenance *p, const pbc_case_list *cases, uint32_t count);

/* XXH3-128 of the file at path, as 32 lowercase hex digits. 0, or -1
 * with "cannot read PATH: why" in err. */
int pbc_provenance_digest_file(const char *path, char hex[33], char *err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif
