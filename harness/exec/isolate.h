/*
 * isolate.h — running a builder's cases in worker processes, so that a
 * builder that crashes, calls exit, hangs or eats memory costs one case,
 * classified, and never the run.
 *
 * A worker is forked from the caller (it inherits everything: targets,
 * case lists) and answers jobs one at a time over a pipe: the caller
 * sends a job's bytes, the worker runs the job function on them and
 * sends back the answer's bytes. The caller waits for each answer under a
 * wall-clock limit while watching the worker's resident memory; a worker
 * that dies, times out or grows too large is classified, reaped, and
 * replaced by a fresh one for the next job. Workers are also replaced
 * after `batch` jobs, so state one case leaves behind cannot pile up.
 *
 * Workers are confined (isolate.c, "confinement", and sandbox/sandbox.h):
 * they cannot signal, stop or trace pbcheck, write nothing but their own
 * scratch folder, and nothing they start outlives their job: a job
 * that leaves a process running fails as PBC_ISO_ESCAPE. A library target
 * is loaded in each worker as it starts (exec/target.h), never in the
 * caller. With capture on, the builder's DbgPrint lines reach the capture
 * file as they are printed, so a job that dies keeps its last words.
 *
 * Limits in the worker: RLIMIT_CPU (the batch's time budget) and, except
 * under AddressSanitizer (whose shadow memory it would refuse),
 * RLIMIT_DATA on private memory, so an unbounded malloc fails cleanly.
 * The CPU views of the kernel shim are shared mappings and do not count.
 */
#ifndef PBCHECK_EXEC_ISOLATE_H
#define PBCHECK_EXEC_ISOLATE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "wire/wire.h" /* jobs and answers are written and read with it */

typedef enum pbc_iso_class {
    PBC_ISO_OK = 0,  /* the worker answered */
    PBC_ISO_CRASH,   /* a signal, or a sanitizer report */
    PBC_ISO_EXIT,    /* the worker called exit (the builder did) */
    PBC_ISO_TIMEOUT, /* no answer within the time limit */
    PBC_ISO_OOM,     /* over the memory limit */
    PBC_ISO_HARNESS, /* pbcheck stopped on a broken invariant of its own
                        (PBC_HARNESS_BUG_MARK): not the builder's doing */
    PBC_ISO_ESCAPE   /* the job answered, but left processes running
                        (killed; the answer is dropped) */
} pbc_iso_class;

/* "ok", "crash", "exit", "timeout", "oom", "harness-bug", "escape". */
const char *pbc_iso_class_name(pbc_iso_class c);

#define PBC_ISO_CAPTURE_ALL 1
#define PBC_ISO_CAPTURE_STDERR 2

typedef struct pbc_iso_limits {
    double job_seconds;    /* wall clock per job; 0: no limit */
    uint64_t memory_bytes; /* resident memory of a worker; 0: no limit */
    uint32_t batch;        /* jobs per worker; 0: no limit */
    int capture;           /* PBC_ISO_CAPTURE_ALL: worker stdout and stderr
                              go to a file, and a failed job's part of it is
                              returned; PBC_ISO_CAPTURE_STDERR: stderr only
                              (stdout stays the caller's); 0: neither */
} pbc_iso_limits;

/* Runs in the worker: the answer to one job, owned (malloc), its size in
 * *answer_len. */
typedef uint8_t *(*pbc_iso_job_fn)(void *ctx, const uint8_t *job, size_t len, size_t *answer_len);

typedef struct pbc_iso_result {
    pbc_iso_class cls;
    uint8_t *answer; /* PBC_ISO_OK: owned */
    size_t answer_len;
    char detail[512]; /* otherwise: what happened, one line ("SIGSEGV",
                         "exit status 0", "no answer within 10 s", ...),
                         printable characters only */
    char *output;     /* otherwise, with capture: the worker's output
                         while it ran the job, at most 16 KiB (its end),
                         crash backtrace with the target's frames
                         symbolized (exec/symbolize.h), made safe
                         (base/safe.h, newlines kept); owned, may be
                         NULL */
} pbc_iso_result;

typedef struct pbc_iso pbc_iso;

pbc_iso *pbc_iso_create(const pbc_iso_limits *limits, pbc_iso_job_fn fn, void *ctx);
/* One job; fills r (free it with pbc_iso_result_fini). Returns r->cls. */
pbc_iso_class pbc_iso_run(pbc_iso *iso, const uint8_t *job, size_t len, pbc_iso_result *r);
/* The same for a job allowed `units` times the wall-clock limit (a large
 * scenario: pbc_scenario_timeout_units). */
pbc_iso_class pbc_iso_run_scaled(pbc_iso *iso, const uint8_t *job, size_t len, uint32_t units, pbc_iso_result *r);
void pbc_iso_result_fini(pbc_iso_result *r);
/* An answer (class PBC_ISO_OK) that does not read back as one
 * (pbc_wire_done false, a value out of range): the builder's doing
 * (its process wrote into the answer pipe, or its memory over the
 * answer), never pbcheck's. The worker is killed, so that nothing more it
 * wrote is taken for an answer, and r becomes PBC_ISO_CRASH "the worker's
 * answer is garbled: what". With iso NULL (the job ran in this process)
 * the answer was pbcheck's own: a harness bug. Returns r->cls. */
pbc_iso_class pbc_iso_reject(pbc_iso *iso, pbc_iso_result *r, const char *what);
/* Stops the worker (if any) and frees everything. */
void pbc_iso_destroy(pbc_iso *iso);
/* While a job runs, fn(ctx, seconds) is called about once a second with
 * the seconds the job has taken so far (for "still working" lines). */
void pbc_iso_set_waiting(pbc_iso *iso, void (*fn)(void *ctx, double seconds), void *ctx);
/* The worker's pid, 0 when none runs (for signal handlers that must stop it). */
pid_t pbc_iso_worker(const pbc_iso *iso);
/* Marks pid, a child process pbcheck started for its own work (triage's
 * --jobs processes), as its own (own 1) until it is reaped (own 0): the
 * sweep after a worker dies, which kills every other child of pbcheck's
 * process as something a builder left behind, leaves it alone, and a
 * signal from it is not a builder's. */
void pbc_iso_own_child(pid_t pid, int own);

/* fn runs in every worker as it starts, confined and limited, before its
 * first job (exec/target.h loads library targets there). A worker it
 * cannot serve ends with PBC_ISO_INIT_EXIT after a "pbcheck: worker: "
 * line on stderr, which becomes the job's detail (class exit). */
void pbc_iso_set_worker_init(void (*fn)(void));
/* Workers split (exec/target.h): each starts a driver process that runs
 * the vendor's code, and judges it from the other side of the DDI. The
 * worker then runs no vendor code; the driver process takes the seccomp
 * layer itself, and is not a child the job left behind. */
void pbc_iso_set_worker_split(int split);
/* In a split worker: the driver process, spared by the count of children
 * a job left behind (its own children are counted instead). */
void pbc_iso_set_driver(pid_t pid);
#define PBC_ISO_INIT_EXIT 125
/* One more descriptor every worker started from now on keeps (the
 * spawner of decoder processes, ddi/decoder.h), and its number in this
 * process (5 in a worker; -1: none). */
void pbc_iso_keep_fd(int fd);
int pbc_iso_kept_fd(void);

/* For a SA_SIGINFO handler of the caller's: whether signal sig, sent by
 * process `from` (si_pid), came from a worker or anything it started.
 * If so, the job under way is stopped and fails as the builder's doing
 * ("the builder sent SIGTERM to pbcheck's process"), and the caller must
 * not take the signal as its user's. Async-signal-safe. */
int pbc_iso_blame_signal(int sig, pid_t from);
/* Installs handlers for SIGINT, SIGTERM, SIGHUP and SIGQUIT that absorb a
 * signal a builder sent (pbc_iso_blame_signal) and hand the user's to
 * on_user(sig), from the handler; NULL: the signal's default action. */
void pbc_iso_catch_signals(void (*on_user)(int sig));

/* Whether workers run under the seccomp filter (else the fallback in
 * isolate.c's "confinement"); and the confinement in one line, for
 * reports: "sandbox: " and the layers a worker gets here
 * (sandbox/sandbox.h), then "; lacks ..." when they are not enough for a
 * certificate (pbc_sandbox_lacks). */
int pbc_iso_seccomp_available(void);
const char *pbc_iso_confinement(void);
/* A folder every worker started from now on may write besides its own
 * scratch folder (coverage's profiles), in this process and in the
 * pbcheck processes it starts (through the environment, PBC_ISO_WRITABLE);
 * NULL: none. */
void pbc_iso_set_writable(const char *dir);

#endif
