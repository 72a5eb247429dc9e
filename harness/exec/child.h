/*
 * child.h — running another program (a fuzz engine, a fuzz target, a
 * sanitizer build of pbcheck) as a child process: start it, then either
 * wait for it or poll it while showing progress, and stop it if needed.
 *
 * Exit statuses are reported the way a shell does: the exit code, or 128
 * plus the signal number when a signal ended the child. A program that
 * could not be executed at all exits 127 after printing why on the
 * child's stderr (so into its log when output is redirected).
 */
#ifndef PBCHECK_CHILD_H
#define PBCHECK_CHILD_H

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How a shell runs this pbcheck, for the commands it prints (replay
 * lines, reproducers' headers): "pbcheck" when that is what PATH finds,
 * else this executable's absolute path, so the command works as printed. */
const char *pbc_child_self_command(void);

typedef struct pbc_child_spec {
    char *const *argv;   /* NULL-terminated; argv[0] is looked up in PATH */
    const char *output;  /* stdout and stderr go to this file (truncated);
                            NULL: inherited from pbcheck */
    char *const *env;    /* "NAME=value" entries set in the child only,
                            NULL-terminated; may be NULL */
} pbc_child_spec;

typedef struct pbc_child {
    pid_t pid;      /* 0 once reaped */
    double started; /* monotonic seconds */
    int status;     /* exit status, valid once pid is 0 */
} pbc_child;

/* Starts the program. SIGINT and SIGTERM are back to their defaults in
 * the child even if pbcheck ignores them, so Ctrl-C reaches the engine
 * while pbcheck stays to report. Returns 0, or -1 with err filled when
 * fork fails. */
int pbc_child_start(pbc_child *c, const pbc_child_spec *spec, char *err, size_t err_size);

/* Without blocking: 1 if the child has ended (c->status holds its exit
 * status), 0 while it runs. */
int pbc_child_poll(pbc_child *c);

/* Blocks until the child ends; returns its exit status. */
int pbc_child_wait(pbc_child *c);

/* Sends sig to a child still running (no-op once it was reaped). */
void pbc_child_kill(const pbc_child *c, int sig);

/* Seconds since the child started. */
double pbc_child_elapsed(const pbc_child *c);

/* start + wait; returns the exit status, or -1 if it could not start.
 * *secs (when not NULL) gets the wall time. */
int pbc_child_run(const pbc_child_spec *spec, double *secs);

#ifdef __cplusplus
}
#endif

#endif
