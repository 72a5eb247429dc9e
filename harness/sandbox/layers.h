/*
 * layers.h — private to the sandbox room: one function per layer, each in
 * its own file, called by contain.c in the order sandbox.h lists. Each
 * returns 0, or -1 with errno set when its layer could not be set up
 * (contain.c then ends the child: failing closed).
 */
#ifndef PBCHECK_SANDBOX_LAYERS_H
#define PBCHECK_SANDBOX_LAYERS_H

#include <sys/types.h>

#include "sandbox/sandbox.h"

/* pid.c: SIGKILL when the parent dies; 0 only if the parent, expected to
 * be `parent`, is still alive once that is armed. */
int pbc_sandbox_pdeath(pid_t parent);
/* pid.c: in a process that has just unshared a PID namespace: forks the
 * namespace's init, which forks the contained process. Returns only in
 * the contained process (0); the caller's own process becomes the relay
 * that ends as the contained process ends, and never returns. fail_fd is
 * the handshake pipe, closed in the relay and the init. */
int pbc_sandbox_pid_split(int fail_fd);
/* pid.c: the contained process keeps what it starts as its descendants
 * (a subreaper), so that a per-job sweep finds them. */
int pbc_sandbox_subreaper(void);

/* ns.c: new user, PID, mount, network and IPC namespaces, the caller's
 * uid and gid mapped to themselves. 1 when the kernel offers none (the
 * Landlock path then applies); 0 done; -1 failed. */
int pbc_sandbox_unshare(void);

/* mount.c: every mount read-only but scratch and shared (either may be
 * NULL), no terminal device of the host's, a /proc of the new PID
 * namespace (proc: do it there, in the init). */
int pbc_sandbox_mount_readonly(const char *scratch, const char *shared);
int pbc_sandbox_mount_proc(void);

/* session.c: a session of its own with no terminal, stdin from
 * /dev/null, terminal signals at their default; then every descriptor
 * closed but 0, 1, 2, keep[] and also (the handshake). */
int pbc_sandbox_session(void);
int pbc_sandbox_close_fds(const int *keep, unsigned count, int also);

/* caps.c: every capability gone (bounding, ambient, effective, permitted,
 * inheritable); then no_new_privs. */
int pbc_sandbox_drop_caps(void);
int pbc_sandbox_no_new_privs(void);

/* landlock.c: writes only beneath scratch and shared; 1 when the kernel
 * has no Landlock. */
int pbc_sandbox_landlock(const char *scratch, const char *shared);

/* seccomp.c: the filter, for the process whose pid (as it sees itself)
 * is self. */
int pbc_sandbox_seccomp(pid_t self);

#endif
