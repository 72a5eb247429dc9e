/*
 * triage.h — sorting failing inputs into buckets (pbcheck triage): what
 * kind of failure one replay was, a signature that is the same for every
 * input that fails the same way (on any machine, in any address-space
 * layout), how bad it is, and the simplifications a minimizer tries.
 *
 * A signature is XXH3-64 of its normalized text (docs/triage.md):
 *   CLASS|RULE|OPERATION|REGION|SHAPE|KIND|ACCESS|FRAME1|FRAME2|FRAME3
 * with empty fields where the class has none. Nothing in it is an address,
 * a line number, a count or an index: only names that stay when an input
 * is minimized or replayed elsewhere.
 */
#ifndef PBCHECK_TRIAGE_H
#define PBCHECK_TRIAGE_H

#include <stddef.h>
#include <stdint.h>

#include "oracle/verdict.h"
#include "scenario/scenario.h"

typedef enum pbc_triage_class {
    PBC_TRIAGE_SANITIZER = 0, /* AddressSanitizer, UBSan or another sanitizer's report */
    PBC_TRIAGE_CRASH,         /* a fatal signal without a sanitizer report */
    PBC_TRIAGE_DIVERGE,       /* PB-DIVERGE: the memory state differs from the oracle's */
    PBC_TRIAGE_RULE,          /* any other rule */
    PBC_TRIAGE_TIMEOUT,       /* no answer within the time limit */
    PBC_TRIAGE_OOM,           /* over the memory limit */
    PBC_TRIAGE_EXIT,          /* the builder called exit */
    PBC_TRIAGE_HARNESS,       /* pbcheck's own bug: never the builder's */
    PBC_TRIAGE_NO_REPRO,      /* the input passes */
    PBC_TRIAGE_INVALID,       /* not a scenario this target can run (skipped or refused) */
    PBC_TRIAGE_CLASS_COUNT
} pbc_triage_class;

/* "sanitizer", "crash", "divergence", "rule", "timeout", "oom", "exit",
 * "harness-bug", "no-repro", "invalid". */
const char *pbc_triage_class_name(uint32_t cls);

#define PBC_TRIAGE_FRAMES 3u

typedef struct pbc_triage_facts {
    uint32_t cls;           /* pbc_triage_class */
    char rule[32];          /* RULE, DIVERGE: the rule id */
    char operation[32];     /* the scenario operation the failure points at (its kind), "" */
    char region[12];        /* DIVERGE: pbc_fail_shape */
    char writer[12];        /* DIVERGE: who wrote the differing byte last in the target's world
                               (in the title, not the signature: a missing write and a wrong one
                               are often one bug) */
    char shape[24];         /* DIVERGE: the failing operation's shape: "resumed" when one of its
                               sub-transfers took more than one paging buffer, else "one-pass" */
    char kind[64];          /* SANITIZER: its error kind ("heap-buffer-overflow"); CRASH: the
                               signal ("SIGSEGV") */
    char access[8];         /* SANITIZER: "READ", "WRITE" or "" */
    char frames[PBC_TRIAGE_FRAMES][96]; /* the top frames of the builder's own code: functions */
    char location[256];     /* where the first of them is, "FILE:LINE", when known; else for a
                               rule or a divergence, the builder's DDI function that emitted the
                               work (BuildPagingBuffer, Patch or SubmitCommand) when debug
                               information names it */
    char ddi[96];           /* RULE, DIVERGE: the DDI and the field of its calls the rule judges
                               ("BuildPagingBuffer: status returned"): the root cause of a failure
                               no store of the builder's explains; "" for rules about no one call
                               (PB-KERNEL, PB-NONDET, PB-ASSERT) */
} pbc_triage_facts;

/* Facts that came from another process (a worker, the builder's): 0
 * when its class is one of pbc_triage_class and each text member is one
 * NUL-terminated line of printable characters (base/safe.h); else -1. */
int pbc_triage_facts_check(const pbc_triage_facts *f);

/* Facts from a run that answered (verdict, rule, message, shape; op is
 * the operation it points at, s the scenario). */
void pbc_triage_from_outcome(const pbc_outcome *out, const pbc_scenario *s, pbc_triage_facts *f);

/* The DDI and the field of its calls that rule `rule` judges (f->ddi;
 * PB-DIVERGE: region says whether memory or GART entries), into buf; ""
 * when the rule judges no one call. Not the operation: one bug in code
 * every operation shares (a space check, MultipassOffset ignored) shows
 * in each of them. */
void pbc_triage_ddi_field(const char *rule, const char *region, char *buf, size_t size);

/* For a rule or a divergence without a location: the source position of
 * the builder's DDI function the rule judges (BuildPagingBuffer, which
 * emitted the packets; Patch or SubmitCommand for their own rules), from
 * debug information; nothing when there is none. In the process that runs
 * the target (a worker). */
void pbc_triage_ddi_location(const pbc_target *t, pbc_triage_facts *f);

/* Facts from a worker that did not answer: its isolation class name
 * ("crash", "exit", "timeout", "oom", "harness-bug"), the one-line detail
 * and its captured output (sanitizer report or backtrace; may be NULL).
 * A frame is the builder's own when its module or file is not pbcheck's
 * harness, a sanitizer runtime or the C library; own_module, when not
 * NULL, names the builder's library (a path or a file name), whose frames
 * count as its own. */
void pbc_triage_from_isolation(const char *iso_class, const char *detail, const char *output,
                               const char *own_module, pbc_triage_facts *f);

/* The normalized text (into buf) and its XXH3-64. */
uint64_t pbc_triage_signature(const pbc_triage_facts *f, char *buf, size_t size);

/* The root cause a bucket belongs to: the text (into buf) and its
 * XXH3-64. Buckets of one cause differ only in where it showed: the
 * operation, the region, the pass. A divergence and a GPU fault of the
 * same writer are one cause (an address that lands in memory, and one
 * that lands nowhere), "memory|WRITER|FRAME1|FRAME2|FRAME3"; any other
 * bucket is its own, "CLASS|RULE|KIND|ACCESS|FRAME1|FRAME2|FRAME3". */
uint64_t pbc_triage_root_cause(const pbc_triage_facts *f, char *buf, size_t size);

/* The named class of a severity (docs/triage.md): "critical" (0-1: a
 * memory-safety error or a crash in the builder), "high" (2: memory left
 * wrong), "medium" (3: another rule), "low" (4-6: a hang, memory
 * exhaustion, an exit), "harness" (7: pbcheck's own bug), "none" (8-9:
 * passes now, or cannot run). */
const char *pbc_triage_severity_class(int severity);

/* Smaller is worse: memory-safety writes first, then other sanitizer
 * reports and crashes, divergences, rules, hangs, memory, exits; harness
 * bugs, inputs that pass and inputs that cannot run last. */
int pbc_triage_severity(const pbc_triage_facts *f);

/* One line for people: "divergence PB-DIVERGE in transfer: segment
 * memory last written by a packet (resumed)". */
void pbc_triage_title(const pbc_triage_facts *f, char *buf, size_t size);

/* ---- Minimization ---- */

/* A deep copy of s into d (d uninitialized). */
void pbc_triage_copy(pbc_scenario *d, const pbc_scenario *s);

/* The k-th simplification of s into out (a copy, to be freed with
 * pbc_scenario_fini), or -1 when there is no k-th. Candidates, in order:
 * remove one operation (from the last), remove an allocation nothing
 * names, one sub-transfer fewer, a smaller allocation (half, rounded up to
 * whole pages), smaller render and GPU accesses, places and offsets
 * toward zero, MdlOffset 0, scattered pages, the target's minimum paging
 * buffer, the default layout. A candidate may be invalid: the caller
 * validates it. */
int pbc_triage_simplify(const pbc_scenario *s, uint32_t k, pbc_scenario *out);

/* Byte-level delta debugging, for inputs that are not scenarios or whose
 * printed scenario does not fail the same way: removes chunks of *n bytes
 * (halves, then quarters, ... down to single bytes) while still(ctx,
 * bytes, n) says the smaller input fails the same way, at most `budget`
 * calls. Shrinks data in place; returns the calls made. */
uint32_t pbc_triage_ddmin(uint8_t *data, size_t *n, int (*still)(void *ctx, const uint8_t *bytes, size_t n),
                          void *ctx, uint32_t budget);

#endif
