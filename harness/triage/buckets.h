/*
 * buckets.h — what one triage found: its inputs, the buckets they fall
 * into by signature, the root causes the buckets share (docs/triage.md,
 * "Root causes"), and the buckets of a previous triage no input fell
 * into. report/triage_report.h writes it out.
 */
#ifndef PBCHECK_TRIAGE_BUCKETS_H
#define PBCHECK_TRIAGE_BUCKETS_H

#include <stddef.h>
#include <stdint.h>

#include "triage/triage.h"

/* No input is larger: no fuzz target takes one. */
#define PBC_TRIAGE_INPUT_MAX (1u << 20)

typedef struct pbc_triage_input {
    char *path;
    const char *origin; /* "libfuzzer-crash", "afl-hang", "text", ... */
    uint8_t *bytes;
    size_t len;
    uint64_t hash;
    int first; /* the first input with the same bytes (itself when none) */
    uint32_t runs, agree; /* replays, and how many gave its signature */
    pbc_triage_facts facts;
    uint64_t sig;
    char *message; /* the report of a replay that gave its signature */
    int bucket;
    int unread;    /* could not be read (too large, not a file): counted invalid, never run */
} pbc_triage_input;

typedef struct pbc_triage_bucket {
    uint64_t sig;
    char sig_text[640];
    pbc_triage_facts facts;
    char title[300];
    int severity;
    uint32_t *members;
    uint32_t count, cap;
    uint32_t flaky;    /* members that gave another signature on some replay */
    char *repro;       /* minimized scenario text, NULL when none could be made */
    uint8_t *repro_bin; /* or the input's bytes minimized, when it is not a scenario that fails so */
    size_t repro_bin_len;
    uint32_t repro_ops;
    uint32_t min_runs; /* candidate runs the minimization took */
    char *report;      /* the minimized reproducer's report (or the input's) */
    char *last_writer; /* a divergence: who wrote its first wrong byte (exec/attribute.h), one
                          sentence, or NULL */
    char writer_at[256]; /* its store's "FILE:LINE": the bucket's root cause when set */
    char id[16];
    const char *status; /* --join: "new" or "known"; NULL without --join */
    uint32_t root;      /* its root cause, an index in the run's roots */
} pbc_triage_bucket;

/* Buckets that are one bug seen in different places (triage/triage.h,
 * pbc_triage_root_cause): a failing bucket's root cause, worst first. */
typedef struct pbc_triage_root {
    char id[16];        /* r001, r002, ... */
    char key[640];      /* the root-cause text */
    char title[400];
    int severity;       /* its worst bucket's */
    uint32_t first, buckets, inputs; /* its first bucket, how many, their inputs */
} pbc_triage_root;

typedef struct pbc_triage_gone {
    char *signature, *title;
    long long count;
} pbc_triage_gone;

typedef struct pbc_triage_run {
    const char *target;  /* as given: a built-in name or a library path */
    const char *version; /* pbcheck's */
    uint32_t repeat;
    double seconds;
    int joined;          /* compared with a previous triage: buckets have a status */
    pbc_triage_input *inputs;
    uint32_t input_count, input_cap;
    pbc_triage_bucket *buckets;
    uint32_t bucket_count, bucket_cap;
    pbc_triage_gone *gone;
    uint32_t gone_count;
    pbc_triage_root *roots; /* set by pbc_triage_sort */
    uint32_t root_count;
    /* For triage.sarif: the command line (argv, NULL-terminated; NULL:
     * unknown) and the folder its locations are relative to (SRCROOT:
     * the builder's repository; NULL: the current directory). */
    const char *const *argv;
    const char *source_root;
} pbc_triage_run;

/* The bucket of facts f (a new one, at the end, when none has its
 * signature); returns its index. */
int pbc_triage_bucket_of(pbc_triage_run *r, const pbc_triage_facts *f);
/* Buckets worst first (severity, then inputs, then signature), inputs
 * following them, ids b001, b002, ... in that order; then their root
 * causes, r001, r002, ... in the order of their first bucket. */
void pbc_triage_sort(pbc_triage_run *r);
void pbc_triage_run_fini(pbc_triage_run *r);

#endif
