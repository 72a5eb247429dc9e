/*
 * sarif.h — SARIF 2.1.0 for code scanning, the pieces triage.sarif and
 * certify's report.sarif share: rules from the rule catalogue with their
 * helpUri into docs/rules.md, levels by severity class, locations in the
 * builder's source (relative to SRCROOT when under it), the invocation;
 * and certify's report.sarif itself. docs/triage.md ("SARIF for code
 * scanning") and docs/report-format.md ("report.sarif") describe them.
 */
#ifndef PBCHECK_REPORT_SARIF_H
#define PBCHECK_REPORT_SARIF_H

#include <stddef.h>

#include <jansson.h>

#include "report/writers.h"

/* Where pbcheck's documents are, for helpUri (owned, ends in "docs/"):
 * the repository a GitHub workflow runs in (GITHUB_SERVER_URL,
 * GITHUB_REPOSITORY, GITHUB_SHA), else this build's source tree. */
char *pbc_sarif_docs_base(void);

/* SARIF's level for a severity class (pbc_triage_severity_class): an
 * error for what corrupts memory or crashes, a warning for other rules
 * and hangs, a note for pbcheck's own bugs. */
const char *pbc_sarif_level(const char *severity_class);

/* A reportingDescriptor: for a rule of the catalogue (rule, e.g.
 * "PB-DIVERGE") its statement, S-ids and docs/rules.md anchor; for a
 * failure no rule names (rule "" or unknown) its class (a triage class
 * name: "crash", "timeout", ...) and what the class means. */
json_t *pbc_sarif_rule(const char *rule, const char *cls, const char *severity_class, const char *docs);

/* A file URI of an absolute path (owned); folder adds the final '/'. */
char *pbc_sarif_file_uri(const char *path, int folder);

/* A location at a source position "FILE:LINE" (or "FILE"): relative to
 * root (uriBaseId SRCROOT) when the file is under it, else by its file
 * URI; a relative FILE is taken as relative to SRCROOT. */
json_t *pbc_sarif_source_location(const char *where, const char *root);

/* A string of a path or command that may hold bytes JSON refuses. */
json_t *pbc_sarif_path(const char *s);

/* invocations[0]: the command line (argv, NULL-terminated; NULL: not
 * known), the working folder, and that the run completed. */
json_t *pbc_sarif_invocation(const char *const *argv);

/* The SARIF document of one run (owned) of the tool driver (its rules
 * in it), taking driver and results: its invocation (argv), its
 * automationDetails id, and the base ids its locations use: SRCROOT at
 * root, out_id at out (each left out when NULL). */
json_t *pbc_sarif_document(json_t *driver, json_t *results, const char *const *argv, const char *automation,
                           const char *root, const char *out_id, const char *out);

/* report.sarif of a certify run: one result per group of failing cases
 * (certify/groups.h; waived groups left out), at the builder's source
 * where a case of it says so (the crash frame, or the DDI function that
 * emitted the work), else at its reproducer (uriBaseId RUNDIR, the run
 * folder); levels by the group's class; locations relative to
 * r->source_root (SRCROOT). 0, or -1 with "cannot write PATH: why" in
 * err. */
int pbc_report_write_sarif(const pbc_report *r, const char *path, char *err, size_t err_size);

#endif
