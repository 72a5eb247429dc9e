/*
 * writers.h — the files `pbcheck certify` leaves for people and for CI:
 * report.json, junit.xml, summary.md, index.html and one reproducer per
 * failing case. Every file is written atomically (base/fs.h); every string
 * is made valid for its format first (report/text.h), so a hostile output
 * path or case text cannot produce a report its parser rejects.
 * docs/report-format.md describes the files; docs/report.schema.json is
 * report.json's schema.
 */
#ifndef PBCHECK_REPORT_WRITERS_H
#define PBCHECK_REPORT_WRITERS_H

#include <stddef.h>
#include <stdint.h>

#include "certify/results.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Each writes one file at path; 0, or -1 with "cannot ... PATH: why" in err. */
int pbc_report_write_json(const pbc_report *r, const char *path, char *err, size_t err_size);
int pbc_report_write_junit(const pbc_report *r, const char *path, char *err, size_t err_size);
/* summary.md: at most PBC_REPORT_SUMMARY_MAX bytes whatever the run (a
 * pull-request comment), the largest groups first. */
#define PBC_REPORT_SUMMARY_MAX (64u << 10)
int pbc_report_write_summary(const pbc_report *r, const char *path, char *err, size_t err_size);
/* index.html: one self-contained page (report/html.c). */
int pbc_report_write_html(const pbc_report *r, const char *path, char *err, size_t err_size);

/* The journal, DIR/journal.jsonl: one line of JSON per case (as in
 * report.json's results) appended as soon as the case is judged, so a run
 * killed outright (SIGKILL, a power cut) still says what it found. open
 * returns the descriptor, or -1 with "cannot write PATH: why" in err;
 * case returns 0, or -1 likewise. *size is what the journal holds so far
 * (0 when opened): it stays below PBC_REPORT_JOURNAL_MAX, its last line
 * {"journal_full":true} once the next case would not fit. */
#define PBC_REPORT_JOURNAL_MAX (64ull << 20)
int pbc_report_journal_open(const char *dir, char *err, size_t err_size);
int pbc_report_journal_case(int fd, const char *dir, const pbc_report_case *c, uint64_t *size, char *err,
                            size_t err_size);

/* DIR/report.json, DIR/junit.xml, DIR/summary.md, DIR/index.html and
 * DIR/report.sarif (report/sarif.h); stops at the first failure. */
int pbc_report_write_all(const pbc_report *r, const char *dir, char *err, size_t err_size);

/* The reproducer's path for a case: DIR/repro/NAME.pbs with the case
 * name's '/' as '.'. Owned. */
char *pbc_report_repro_path(const char *dir, const char *case_name);

/* A reproducer: two comment lines (the case and its rule; the replay
 * command) and the scenario text. */
int pbc_report_write_repro(const char *path, const char *case_name, const char *rule,
                           const char *replay, const char *scenario_text, char *err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif
