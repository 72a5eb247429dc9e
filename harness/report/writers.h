/*
 * writers.h — the files `pbcheck certify` leaves for people and for CI:
 * report.json, junit.xml, summary.md and one reproducer per failing case.
 * Every file is written atomically (base/fs.h); every string is made valid
 * for its format first (report/text.h), so a hostile output path or case
 * text cannot produce a report its parser rejects.
 */
#ifndef PBCHECK_REPORT_WRITERS_H
#define PBCHECK_REPORT_WRITERS_H

#include <stddef.h>
#include <stdint.h>

#include "rules/rules.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pbc_report_case {
    const char *name;    /* stable case name, e.g. "fill/dma-min/idle/high/odd-size" */
    uint32_t verdict;    /* pbc_verdict */
    const char *rule;    /* the rule a failing case broke, else "" */
    const char *message; /* the finding, skip reason or harness bug, else "" */
    const char *repro;   /* failing cases: the reproducer's path, else NULL */
    const char *replay;  /* failing cases: shell-quoted command replaying it, else NULL */
} pbc_report_case;

typedef struct pbc_report {
    const char *target;
    uint32_t passed, failed, skipped, harness_bugs;
    double seconds;
    uint32_t rule_hits[PBC_RULE_COUNT]; /* failing cases per rule, by pbc_rule_id */
    const pbc_report_case *cases;
    uint32_t case_count;
} pbc_report;

/* Each writes one file at path; 0, or -1 with "cannot ... PATH: why" in err. */
int pbc_report_write_json(const pbc_report *r, const char *path, char *err, size_t err_size);
int pbc_report_write_junit(const pbc_report *r, const char *path, char *err, size_t err_size);
int pbc_report_write_summary(const pbc_report *r, const char *path, char *err, size_t err_size);

/* DIR/report.json, DIR/junit.xml and DIR/summary.md; stops at the first
 * failure. */
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
