/*
 * results.h — what one certify run found, before any file shows it: each
 * case with its verdict, finding, reproducer and signature; the run's
 * counts, waivers, declared operations and provenance; and the run's
 * verdict (CONFORMANT, NOT CONFORMANT, INCOMPLETE). certify fills it; the
 * writers (report/writers.h) only show it.
 */
#ifndef PBCHECK_CERTIFY_RESULTS_H
#define PBCHECK_CERTIFY_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#include "certify/waivers.h"
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
    /* The case did not reach a verdict of its own: NULL, or "crash",
     * "exit", "timeout", "oom" (the builder crashed, exited, ran out of
     * time or of memory in its isolated process). */
    const char *isolation;
    const char *isolation_detail; /* "SIGSEGV", "exit status 0", a backtrace, or NULL */
    const char *debug_output;     /* the builder's DbgPrint output kept with the case, or NULL */
    double finished_at;           /* seconds from the run's start to this case's verdict */
    /* Failures: triage's signature text (triage/triage.h) and title, which
     * group the case with those failing the same way; NULL when unknown. */
    const char *signature;
    const char *title;
    /* Failures: where in the builder's source, "FILE:LINE" or "FILE", when
     * known (triage's location: the crash frame, or the DDI function that
     * did the work); NULL otherwise. report.sarif's location. */
    const char *location;
    /* A divergence with a reproducer: who wrote its first wrong byte (the
     * builder's store, its function, FILE:LINE and DDI call), one
     * sentence, also at the end of message; NULL when not known. */
    const char *last_writer;
    /* A failure of a rule that judges one DDI call: the call and field
     * ("BuildPagingBuffer: status returned", triage/triage.h), its
     * group's root cause when no store wrote it; NULL otherwise. */
    const char *ddi;
    uint32_t size; /* the scenario's length in bytes: a group shows its smallest case */
    /* Set by pbc_report_apply_waivers: the waiver covering this failure,
     * else NULL. */
    const pbc_waiver *waiver;
} pbc_report_case;

/* One option of the command that made the report, as parsed. */
typedef enum pbc_report_option_kind {
    PBC_REPORT_OPT_TEXT,   /* value: as given, NULL when not given */
    PBC_REPORT_OPT_NUMBER, /* value: a decimal number */
    PBC_REPORT_OPT_FLAG,   /* value: "1" given, "0" not */
} pbc_report_option_kind;

typedef struct pbc_report_option {
    const char *name; /* without "--" */
    pbc_report_option_kind kind;
    const char *value;
} pbc_report_option;

/* What was certified, by what, where and when (certify/provenance.h
 * collects it). Empty strings are unknowns, left out of the reports. */
typedef struct pbc_report_provenance {
    const char *version;      /* pbcheck's version, e.g. "0.1.0" */
    const char *git_revision; /* of pbcheck's build, as --version says */
    const char *const *argv;  /* the command line, NULL-terminated; NULL: unknown */
    const pbc_report_option *options;
    uint32_t option_count;
    char target_binary[4096]; /* the file digested: the builder library, or pbcheck itself */
    int target_builtin;       /* the target is built into pbcheck (target_binary is pbcheck) */
    char target_xxh3[33];     /* XXH3-128 of target_binary, hex */
    char suite_xxh3[33];      /* XXH3-128 of the suite's case names and scenarios, hex */
    uint32_t suite_cases;     /* cases in the deterministic suite */
    const char *random_mode;  /* the random phase: "fixed" (the default's number of cases), "time"
                                 (--time) or "none" (--quick, --no-random); NULL: unknown */
    uint64_t random_seed;     /* its seed */
    uint32_t random_cases;    /* the random cases that ran */
    char started[32];         /* UTC, ISO 8601: 2026-11-24T06:15:00Z */
    char host[256];
    char os[256];             /* "Linux 6.1.0 x86_64" */
    char cpu_model[256];
    uint32_t cpu_count;       /* online logical CPUs */
    char run_id[64];          /* the run folder's name */
    const char *isolation;    /* how builders were kept from pbcheck (isolate.h's confinement), or
                                 "none (--no-fork)": the builder ran in pbcheck's process */
    /* The vendor's ISA description, the one thing of theirs a certificate
     * trusts (ddi/decoder.h); its digest is target_xxh3, the library file
     * it is loaded from. */
    struct {
        int known;           /* 0: no target was loaded */
        char isa[64];        /* its name, made safe */
        uint32_t hooks;      /* PBC_REPORT_HOOK_* */
        uint32_t pte_size;   /* 8 or 16 */
        uint32_t pt_levels;  /* 3 or 4 */
        const char *process; /* "own" (a decoder process of its own), "worker" (beside the builder,
                                in its worker), "pbcheck" (built in, or --no-fork) */
        int audited;         /* the purity audit ran (process "own") */
        int pure;            /* with audited: every answer asked again was the same */
        uint32_t recorded, asked_again, not_recorded;
        const char *finding; /* with audited and not pure: what differed */
    } decoder;
} pbc_report_provenance;
#define PBC_REPORT_HOOK_DECODE 1u
#define PBC_REPORT_HOOK_DISASM 2u
#define PBC_REPORT_HOOK_PTE_DECODE 4u

/* The decoder's provenance in one line ("exgpu: decode, disasm; 16-byte
 * entries, 3 levels; in a decoder process of its own; purity: ..."), into
 * buf; NULL when not known. */
const char *pbc_report_decoder_line(const pbc_report_provenance *p, char *buf, size_t size);

typedef struct pbc_report {
    const char *target;
    uint32_t passed, failed, skipped, harness_bugs;
    double seconds;
    uint32_t rule_hits[PBC_RULE_COUNT]; /* failing cases per rule, by pbc_rule_id (not waived) */
    const pbc_report_case *cases;
    uint32_t case_count;
    /* SIGINT, SIGTERM, SIGHUP or SIGQUIT stopped the run: its verdict is INCOMPLETE. */
    int interrupted;
    /* Planned cases with no verdict of their own: the verdict is
     * INCOMPLETE (a run that judged nothing is never CONFORMANT either). */
    uint32_t unaccounted;
    /* --cases ran part of the suite: never CONFORMANT. */
    int narrowed;
    uint32_t waived;       /* failing cases a waiver covers; not in failed */
    uint32_t isolated;     /* cases with an isolation class */
    uint32_t random_cases; /* the last random_cases cases are --time's random scenarios */
    double random_seconds; /* how long they took, from the suite's end to the last verdict */
    pbc_waivers *waivers;  /* NULL: none given; pbc_report_tally counts their matches */
    /* PBC_OP_BIT(DXGK_OPERATION_*) the target declares; operations_known
     * 0 when it is not known (the library did not load). */
    uint64_t operations;
    int operations_known;
    pbc_report_provenance provenance;
    /* For report.sarif: the builder's repository, whose files its
     * locations are relative to; NULL: the current folder. */
    const char *source_root;
} pbc_report;

typedef enum pbc_report_verdict {
    PBC_REPORT_CONFORMANT,
    PBC_REPORT_NOT_CONFORMANT, /* a failure not waived, a harness bug or an expired waiver */
    PBC_REPORT_INCOMPLETE,     /* interrupted, nothing judged, a planned case unaccounted for, or --cases */
} pbc_report_verdict;

pbc_report_verdict pbc_report_get_verdict(const pbc_report *r);
/* "CONFORMANT", "NOT CONFORMANT", "INCOMPLETE". */
const char *pbc_report_verdict_text(pbc_report_verdict v);
/* Why the run is INCOMPLETE ("interrupted", "no case was judged", "not
 * every planned case has a verdict", "--cases ran part of the suite"), or
 * NULL when it is not. A run with a failure is NOT CONFORMANT whatever
 * else it lacks. */
const char *pbc_report_incomplete_reason(const pbc_report *r);

/* Matches each failing case against the waivers (r->waivers), marking
 * covered ones and counting matches, then recounts passed, failed,
 * waived, skipped, harness_bugs, isolated and rule_hits from the cases.
 * cases are the report's, writable. */
void pbc_report_tally(pbc_report *r, pbc_report_case *cases);

#ifdef __cplusplus
}
#endif

#endif
