/*
 * services.h — the harness's side of the kernel services declared in
 * wdk/wdm.h and served by kernel/services.c: events and waits, system
 * threads and their handles, DPCs, the DPC-level spin lock forms and IRQL,
 * the stall and the performance counter, pool allocation by tag, device
 * properties, RtlCompareMemory, and DbgPrint/DbgPrintEx capture; and the
 * record of unserved DXGKRNL_INTERFACE callbacks (kernel/dxgkrnl.c).
 *
 * All state is per thread and belongs to one run: call pbc_kernel_reset
 * before a run, and the pbc_kernel_take_* calls after it. A driver's misuse
 * of a service is recorded here as a finding-to-be and the call returns;
 * nothing aborts the harness.
 */
#ifndef PBCHECK_KERNEL_SERVICES_H
#define PBCHECK_KERNEL_SERVICES_H

#include <stddef.h>
#include <stdint.h>

/* DbgPrint text kept per run, bytes; a message that does not fit is
 * dropped whole and counted. One message is cut at 512 bytes, as on
 * Windows. */
#define PBC_KERNEL_LOG_MAX 16384u

/* Forgets everything: ends the last run's system threads
 * (pbc_kernel_take_threads), frees live pool blocks, clears the log, the
 * findings, queued DPCs, the IRQL (back to PASSIVE_LEVEL), the stall total
 * and the clock. */
void pbc_kernel_reset(void);

/* The run is one CPU. The harness holds it while it calls into the driver
 * (pbc_shim_enter/leave take it, nesting). Leaving the outermost level first runs the DPCs queued. */
void pbc_kernel_enter(void);
void pbc_kernel_leave(void);

/* System threads run only while the DDI thread gives the CPU away: in a
 * wait or a delay of its own, in pbc_kernel_yield, and at the end of the
 * run. Yield lets every system thread that can run (started, or woken by
 * what its wait waits on) run until each waits on something unsignalled
 * or has ended (at most 2 s). */
void pbc_kernel_yield(void);

/* wake(ctx) is called, on the DDI thread, when it signals an event
 * (KeSetEvent, from its code or a DPC) and a system thread can run;
 * NULL: not. The VidMm model uses it during SubmitCommand to queue the
 * woken thread's turn on the paging engine. Forgotten by the reset. */
void pbc_kernel_on_wake(void (*wake)(void *ctx), void *ctx);

/* The WDK shim's part in a CPU hand-over: bind() runs on the thread that
 * creates a system thread and returns what the new thread shares with it
 * (its CPU views and registers); gain(binding) runs on a system thread
 * each time it takes the CPU, lose(binding) each time before it gives it
 * up. One set per process. */
typedef struct pbc_kernel_cpu_hooks {
    void *(*bind)(void);
    void (*gain)(void *binding);
    void (*lose)(void *binding);
} pbc_kernel_cpu_hooks;
void pbc_kernel_set_cpu_hooks(const pbc_kernel_cpu_hooks *hooks);

/* Ends the run's system threads: each is ended at its next wait, delay or
 * stall (as PsTerminateSystemThread would), and joined; one that does not
 * reach one within a second is left running, detached. Returns how many
 * were still running, or ended with their handle open or a reference not
 * dropped; first describes the last of them by start order. */
uint32_t pbc_kernel_take_threads(char *first, size_t n);

/* The run's DbgPrint/DbgPrintEx output, every message in order, NUL-ended;
 * *len (if not NULL) receives its length. Valid until the next reset. */
const char *pbc_kernel_log(size_t *len);
/* Messages dropped because the log was full. */
uint32_t pbc_kernel_log_dropped(void);
/* From now on, in this process, every DbgPrint message is also written to
 * fd at once, as "DbgPrint: MESSAGE" lines (-1: not), so that a worker
 * that dies right after printing has already said it (exec/isolate.h). */
void pbc_kernel_log_echo(int fd);
/* The prefix of those lines. */
#define PBC_KERNEL_ECHO_PREFIX "DbgPrint: "

/* Each take returns how many findings of its kind the run has recorded
 * since the last take (0: none), writes a description of the first into
 * first[0..n) (NUL-ended, may be NULL when n is 0), and forgets them. */

/* Pool blocks still live: the first is described by tag and size. All live
 * blocks are freed. Call at the end of a run. */
uint32_t pbc_kernel_take_leaks(char *first, size_t n);
/* ExFreePool/ExFreePoolWithTag of NULL, of a pointer that is not a live
 * block (double free, foreign pointer), or with the wrong tag. */
uint32_t pbc_kernel_take_bad_frees(char *first, size_t n);
/* Deadlocks and lock misuse: a spin lock acquired while held, released
 * while free, a DPC-level form below DISPATCH_LEVEL, a wait on an
 * unsignalled object without a timeout. */
uint32_t pbc_kernel_take_lock_errors(char *first, size_t n);
/* KeBugCheckEx/KeBugCheck, DbgBreakPoint, corrupt list entries (reported by
 * the list functions as KERNEL_SECURITY_CHECK_FAILURE), IRQL raised down or
 * lowered up, waits at DISPATCH_LEVEL. */
uint32_t pbc_kernel_take_bugchecks(char *first, size_t n);
/* Calls of DXGKRNL_INTERFACE callbacks pbcheck does not serve (the traps
 * of kernel/dxgkrnl.c, which record them with pbc_kernel_unserved and fail
 * the call): the first is described by the callback's name. */
uint32_t pbc_kernel_take_unserved(char *first, size_t n);
void pbc_kernel_unserved(const char *callback);

/* KeAcquireSpinLock/KeReleaseSpinLock with the services' checks (a held
 * lock is a deadlock, a free one is not released) and IRQL tracking (raise
 * to DISPATCH_LEVEL, lower to new_irql). For the WDK shim, which serves
 * those two calls: lock is a PKSPIN_LOCK, old_irql a PKIRQL. */
void pbc_kernel_acquire_spin_lock(uint64_t *lock, uint8_t *old_irql);
void pbc_kernel_release_spin_lock(uint64_t *lock, uint8_t new_irql);

/* Microseconds the run has spent in KeStallExecutionProcessor. */
uint64_t pbc_kernel_stalled_us(void);

/* A driver that runs in a process of its own (harness/ddi/): its kernel
 * services run there, and what they found comes back with each answer.
 * pbc_kernel_note adds it here, so that the take functions above give it
 * to VidMm as they give the findings of a driver run in this process
 * (first: the first finding's text, made safe by the caller). */
typedef enum pbc_kernel_note_kind {
    PBC_KERNEL_NOTE_BAD_FREE,
    PBC_KERNEL_NOTE_LOCK,
    PBC_KERNEL_NOTE_BUGCHECK,
    PBC_KERNEL_NOTE_UNSERVED,
    PBC_KERNEL_NOTE_LEAKS,
    PBC_KERNEL_NOTE_THREADS,
    PBC_KERNEL_NOTE_KINDS
} pbc_kernel_note_kind;
void pbc_kernel_note(pbc_kernel_note_kind kind, uint32_t count, const char *first);
/* With yield set, pbc_kernel_yield hands the CPU to the driver process's
 * threads (it asks that process to run them) instead of this process's;
 * NULL: this process's again. */
void pbc_kernel_set_remote(void (*yield)(void));
/* The driver process's KeSetEvent woke a thread during a call: VidMm's
 * wake hook (pbc_kernel_on_wake) runs here as it would in that process. */
void pbc_kernel_remote_wake(void);

#endif
