/*
 * decoder.h — the vendor's ISA description (its packet decoder, its
 * disassembler, its page-table entry format) in a decoder process of its
 * own, given bytes only (docs/architecture.md, "Trust boundary").
 *
 * A small SPAWNER is forked from pbcheck's process as soon as it knows a
 * split run's library, before it holds any case: every decoder process is
 * a fresh child of it, sandboxed (sandbox/sandbox.h) with an empty
 * environment, the library loaded, and then a stricter seccomp filter
 * than the driver process's (no process, no file opened, no socket). A
 * judge (a split worker, or pbcheck's own process for the audit) asks the
 * spawner for one by handing it one end of a socket pair; the decoder
 * answers on it, one request at a time.
 *
 * Every answer is the vendor's, so hostile: read within a deadline, its
 * size bounded, its header checked (pbc_wire_check) and its body read
 * whole with the bounded reader. A decoder that dies, is late, or answers
 * with something that is no answer ends the worker as the builder's
 * failure (PBC_DDI_LOST_EXIT), with one line that says so.
 *
 * PURITY: answers are memoized in the judge (the same bytes answered
 * differently in one worker fail its case at once) and recorded in memory
 * pbcheck's process shares with its workers only; pbc_decoder_audit asks
 * them again, at the end of a run, in a fresh decoder process.
 */
#ifndef PBCHECK_DDI_DECODER_H
#define PBCHECK_DDI_DECODER_H

#include <stddef.h>
#include <stdint.h>

#include <pbcheck/isa.h>

/* Loads the library at path in a decoder process and returns its ISA
 * description (NULL with why filled when it cannot). */
typedef const pbc_isa *pbc_decoder_load_fn(const char *path, char *why, size_t why_size);

/* In pbcheck's process, once, before any case runs: forks the spawner and
 * maps the record of answers. 0, or -1 with errno. Later calls do nothing. */
int pbc_decoder_spawner_start(pbc_decoder_load_fn *load);
/* The descriptor through which judges ask the spawner (-1 before it
 * started); in a worker that kept it under another number, where it is. */
int pbc_decoder_spawner_fd(void);
void pbc_decoder_spawner_moved(int fd);
/* In a driver process, first: the record of answers unmapped (the
 * spawner's descriptor is closed with the others). */
void pbc_decoder_driver_forget(void);

/* In a split worker: isa's hooks become proxies that ask the decoder
 * process of the library at path (its index among the run's libraries,
 * below PBC_DECODER_MAX_LIBRARIES). */
#define PBC_DECODER_MAX_LIBRARIES 8u
void pbc_decoder_proxy(pbc_isa *isa, const char *path, uint32_t index);

/* The ISA description as a decoder process states it. */
typedef struct pbc_decoder_identity {
    char isa[64];          /* its name, made safe */
    uint32_t hooks;        /* PBC_DECODER_HOOK_* */
    uint32_t pte_size;     /* 8 or 16 */
    uint32_t pt_levels;    /* 3 or 4 */
} pbc_decoder_identity;
#define PBC_DECODER_HOOK_DECODE 1u
#define PBC_DECODER_HOOK_DISASM 2u
#define PBC_DECODER_HOOK_PTE_DECODE 4u

/* What pbc_decoder_audit found. */
typedef struct pbc_decoder_audit_result {
    int ran;             /* a split run: a decoder process was asked */
    int pure;            /* every answer asked again was the same */
    uint32_t recorded;   /* distinct questions recorded in the run */
    uint32_t dropped;    /* questions beyond the record's room */
    uint32_t audited;    /* of them, asked again */
    pbc_decoder_identity identity; /* as the fresh decoder process stated it */
    char finding[1024];  /* when not pure: what, made safe */
} pbc_decoder_audit_result;

/* In pbcheck's process, at the end of a split run: the recorded answers
 * asked again, latest first, in one fresh decoder process of the library
 * at path (index among the run's libraries): all of them with PBCHECK_DECODER_AUDIT=all, N with
 * PBCHECK_DECODER_AUDIT=N, else PBC_DECODER_AUDIT_SAMPLE. Also states the
 * decoder's identity when nothing was recorded. Returns out->pure (1
 * when the run was not split). */
#define PBC_DECODER_AUDIT_SAMPLE 256u
int pbc_decoder_audit(const char *path, uint32_t index, pbc_decoder_audit_result *out);

/* The deadline of one answer, seconds: PBCHECK_DECODER_SECONDS, else 10. */
double pbc_decoder_deadline(void);

#endif
