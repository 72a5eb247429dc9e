/*
 * waivers.h — expected failures, for `pbcheck certify --waivers FILE`: a
 * failing case a waiver covers is reported as waived, with the waiver's
 * reason, and does not make the verdict NOT CONFORMANT; a waiver past its
 * expiry date does (it must be looked at again). docs/report-format.md
 * describes the file: '#' comments, and one waiver a line,
 *
 *   PATTERN  RULE-or-*  EXPIRES(YYYY-MM-DD)  REASON...
 */
#ifndef PBCHECK_REPORT_WAIVERS_H
#define PBCHECK_REPORT_WAIVERS_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pbc_waiver {
    char *pattern;    /* fnmatch glob over case names; '*' also matches '/' */
    char *rule;       /* a rule id, or "*" for any */
    char expires[11]; /* YYYY-MM-DD: the last day it applies (UTC) */
    char *reason;
    char *where;      /* "FILE:LINE" */
    int expired;      /* its day is past: it covers nothing and fails the run */
    uint32_t matched; /* failing cases it covers (pbc_report_tally) */
} pbc_waiver;

typedef struct pbc_waivers {
    char *path;
    pbc_waiver *items;
    uint32_t count, cap;
    uint32_t expired; /* how many items are */
} pbc_waivers;

/* Reads the waivers in text (name: the file's name, for messages) and
 * marks those whose expiry date is before now's UTC date. 0, or -1 with
 * "NAME:LINE:COL: what is wrong" in err. */
int pbc_waivers_parse(const char *text, size_t len, const char *name, time_t now, pbc_waivers *out,
                      char *err, size_t err_size);
/* pbc_waivers_parse on a file: 0, -1 for a mistake in it (as above), or
 * -2 when it cannot be read ("cannot open PATH: why" in err). */
int pbc_waivers_load(const char *path, time_t now, pbc_waivers *out, char *err, size_t err_size);
void pbc_waivers_fini(pbc_waivers *w);

/* The first waiver that is not expired and covers a failure of case_name
 * under rule, or NULL. */
pbc_waiver *pbc_waivers_match(const pbc_waivers *w, const char *case_name, const char *rule);

#ifdef __cplusplus
}
#endif

#endif
