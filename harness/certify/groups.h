/*
 * groups.h — a run's cases the way a driver engineer reads them: failing
 * cases grouped by the signature triage gives a failure (one group per way
 * of failing, docs/triage.md "Signatures"), skipped cases grouped by their
 * reason, and the DXGK operations a target does not declare, so never
 * certified. The writers (report.json, summary.md, index.html) show
 * groups; the cases stay in report.json's results.
 */
#ifndef PBCHECK_CERTIFY_GROUPS_H
#define PBCHECK_CERTIFY_GROUPS_H

#include <stdint.h>

#include "certify/results.h"

typedef struct pbc_report_group {
    char id[20];           /* "g" and the first 8 hex digits of the key's XXH3-64: the same in every run */
    const char *key;       /* the signature text (failures) or the reason (skips), the first case's */
    const char *title;     /* one line for people */
    char cls[16];          /* failures: the triage class ("divergence", "rule", "crash", ...) */
    const char *rule;      /* failures: the first case's rule, "" when none */
    uint32_t first;        /* index in the report's cases of the group's first case */
    uint32_t shown;        /* the case shown in full: the one with a reproducer, smallest first */
    uint32_t count;
    uint32_t waived;       /* cases a waiver covers */
    uint32_t *cases;       /* indexes, in run order */
    uint32_t cap;
    char own[64];          /* key and title of a group whose cases have no signature */
    uint32_t root;         /* failures: its root cause, an index in the groups' roots */
} pbc_report_group;

/* Groups that are one bug (docs/triage.md, "Root causes"): those whose
 * reproducer's last writer is one store, with crashes on that line; any
 * other group is a root cause of its own. */
typedef struct pbc_report_root {
    char id[8];             /* r1, r2, ... in the order of their largest group */
    char key[600];          /* "writer|FILE:LINE", or the group's key */
    char title[700];
    uint32_t first;         /* its largest group */
    uint32_t groups, cases; /* how many of each */
} pbc_report_root;

typedef struct pbc_report_groups {
    pbc_report_group *items; /* most cases first, then the earliest first */
    uint32_t count, cap;
    int32_t *of_case;        /* the group of each case, -1 for none */
    pbc_report_root *roots;  /* failures: the groups' root causes */
    uint32_t root_count, root_cap;
} pbc_report_groups;

/* The failing cases of r (failed, waived, isolated, harness bugs) by
 * signature: a case without one (written by another version) is keyed by
 * its class and rule. */
void pbc_report_group_failures(const pbc_report *r, pbc_report_groups *g);
/* The skipped cases of r by reason. */
void pbc_report_group_skips(const pbc_report *r, pbc_report_groups *g);
void pbc_report_groups_fini(pbc_report_groups *g);

/* The failure class of a case: its signature's first field, else the
 * isolation class, "harness-bug", "divergence" (PB-DIVERGE) or "rule". */
void pbc_report_case_class(const pbc_report_case *c, char *buf, size_t size);

/* The DXGK operations r's target does not declare, as DDI member names
 * ("MapApertureSegment2"), into names (at most max); returns how many.
 * 0 when the target's declaration is unknown (it did not load). */
uint32_t pbc_report_undeclared(const pbc_report *r, const char **names, uint32_t max);

/* One reproducer per group while certify runs (without --all-repros):
 * the smallest case of each signature so far holds it. */
typedef struct pbc_report_repro_claims {
    struct pbc_report_claim *items;
    uint32_t count, cap;
} pbc_report_repro_claims;

/* Whether case `index` (its signature, NULL when unknown, and its
 * scenario's size) gets a reproducer: the first case of its signature, or
 * one smaller than the case holding it, which *replaces then names (else
 * UINT32_MAX): its reproducer is to be removed. */
int pbc_report_repro_claim(pbc_report_repro_claims *c, const char *signature, uint32_t size, uint32_t index,
                           uint32_t *replaces);
void pbc_report_repro_claims_fini(pbc_report_repro_claims *c);

#endif
