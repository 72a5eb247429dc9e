/*
 * certify.h — the deterministic conformance suite: cases generated
 * systematically over operation x paging-buffer size x split x busy/idle x
 * address class x MdlOffset class x size class x physical page layout (for
 * operations with an MDL; layouts other than scattered in the idle cases
 * only), each with a stable name like
 * "transfer-mdl-to-seg/split3/dma-min/busy/high/mdloff2/odd-size" (the
 * scattered layout) or ".../odd-size/phys-runs", and stories that chain
 * operations on the same allocations, like
 * "story/fill-render-discard-refill/same-pattern/dma-min/busy".
 */
#ifndef PBCHECK_CERTIFY_H
#define PBCHECK_CERTIFY_H

#include "exec/runner.h"

typedef struct pbc_case {
    char name[128];
    char *text; /* the scenario, as a .pbs file would hold it */
} pbc_case;

typedef struct pbc_case_list {
    pbc_case *items;
    uint32_t count, cap;
} pbc_case_list;

/* Builds the suite for a target (its min_dma_size shapes the size
 * classes). PBC_CERTIFY_QUICK: only the above-4 GiB address class and odd
 * or big sizes, the combination that exposes the most bugs per case (used
 * by the tests), every physical layout and every story either way; PBC_CERTIFY_LARGE:
 * also transfers of 4 GiB and beyond of initial content, which a builder
 * copying with the CPU moves through 12 GiB and more of views (the
 * default suite's transfers of that size copy filled content). */
#define PBC_CERTIFY_QUICK 0x1u
/* certify --time's random cases: the fuzzing mix ((a) in
 * docs/benchmarks.md, allocations of at most PBC_CERTIFY_RANDOM_ALLOC)
 * for all but every PBC_CERTIFY_WHOLE_EVERY-th, which takes the
 * generator's whole range (one allocation in 24 of 1 MiB to 256 MiB).
 * Large sizes have their own suite cases (size/...): in random cases they
 * cost a hundred times a small case and would set the phase's pace. */
#define PBC_CERTIFY_RANDOM_ALLOC (64u * 1024)
/* Plain certify's random phase (neither --quick, --time nor
 * --no-random): this many cases of --seed, about 30 s of the reference on
 * one core (docs/benchmarks.md), a fixed number so that the same version
 * and seed judge the same cases. */
#define PBC_CERTIFY_DEFAULT_RANDOM 75000u /* the help text and docs say 75,000 */
#define PBC_CERTIFY_WHOLE_EVERY 64u
#define PBC_CERTIFY_LARGE 0x2u
void pbc_certify_cases(const pbc_target *t, unsigned flags, pbc_case_list *out);
void pbc_case_list_fini(pbc_case_list *l);
/* Forgets the cases from index n on. */
void pbc_case_list_truncate(pbc_case_list *l, uint32_t n);
/* Keeps, in order, the cases whose name matches one of `patterns`:
 * fnmatch globs separated by commas (a comma cannot be escaped), where
 * '*' also matches '/' (as in a waivers file). Returns how many are kept;
 * -1 when a glob is empty or over PBC_CASE_GLOB_MAX characters (or there
 * are over PBC_CASE_GLOBS_MAX), and -2 when one matches no case, with the
 * list untouched either way and that glob copied into bad (bad_size
 * bytes). */
#define PBC_CASE_GLOB_MAX 255
#define PBC_CASE_GLOBS_MAX 64
int pbc_case_list_select(pbc_case_list *l, const char *patterns, char *bad, size_t bad_size);

typedef struct pbc_case_result {
    uint32_t verdict;
    char rule[PBC_RULE_ID_MAX];
    char *message;      /* owned */
    char *minimized;    /* owned, failing cases only: the smallest scenario text still failing */
    char *debug_output; /* owned: the builder's DbgPrint output kept with a failure, or NULL */
    int write_failed;   /* its reproducer could not be written (the error was printed) */
    const char *isolation; /* a case the builder crashed, exited, hung or ran out of memory in:
                              "crash", "exit", "timeout" or "oom" (static); else NULL */
    char *output;          /* with isolation: the worker's output, backtrace included (owned) */
    char *signature, *title; /* failures: triage's signature text and title (owned), or NULL */
    char *location;          /* failures: triage's location in the builder's source (owned), or NULL;
                                the store that wrote a divergence's first wrong byte when known */
    char *last_writer;       /* a divergence with a reproducer: who wrote its first wrong byte, one
                                sentence (exec/attribute.h, owned), or NULL */
    char *ddi;               /* failures: the DDI call and field the rule judges (triage's, owned),
                                or NULL */
    uint32_t replaces;     /* the case whose reproducer this one took over (it is smaller, of
                              the same signature), else UINT32_MAX */
} pbc_case_result;

/* Shrinks a failing scenario: drops operations and allocations one at a
 * time while the same rule still fires. Returns owned text. */
char *pbc_certify_minimize(pbc_runner *r, const pbc_scenario *s, const pbc_target *t, const char *rule);

#endif
