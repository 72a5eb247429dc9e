/*
 * sandbox.h — the processes that run a vendor's code (a builder library,
 * its decoder), started so that nothing they do reaches pbcheck, the
 * user's terminal or files, or outlives pbcheck (docs/architecture.md,
 * "Trust boundary").
 *
 * pbc_sandbox_fork behaves like fork: it returns 0 in the contained child,
 * which runs on with every layer applied, and the child's pid in the
 * caller. The layers, one file each in this room, are applied in one
 * fixed order (contain.c), and a layer that is planned but cannot be set
 * up ends the child before it runs a line of the caller's code: the call
 * fails (-1) and says which layer.
 *
 * With namespaces, the caller's child is a relay outside them, PID 1 of
 * the new PID namespace is an init of pbcheck's own, and the contained
 * process is its only child: whatever the contained process starts is in
 * the namespace and dies with it. The relay ends the way the contained
 * process ended (its exit status, or its signal), so waitpid on the pid
 * pbc_sandbox_fork returned reads the contained process's end, and
 * SIGKILL to it ends everything below it. /proc of the contained process
 * itself (its memory, its children) is pbc_sandbox_contained's pid.
 */
#ifndef PBCHECK_SANDBOX_SANDBOX_H
#define PBCHECK_SANDBOX_SANDBOX_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The layers, in the order contain.c applies them (the mounts are made
 * before the PID namespace's init is started, so both share them). */
enum {
    PBC_SANDBOX_PDEATH = 1u << 0,   /* dies with its caller, even a SIGKILLed one */
    PBC_SANDBOX_USER = 1u << 1,     /* its own user namespace */
    PBC_SANDBOX_PID = 1u << 2,      /* PID namespace under an init of pbcheck's */
    PBC_SANDBOX_MOUNT = 1u << 3,    /* the filesystem read-only but its scratch folder */
    PBC_SANDBOX_NET = 1u << 4,      /* an empty network namespace */
    PBC_SANDBOX_IPC = 1u << 5,      /* a fresh IPC namespace */
    PBC_SANDBOX_SESSION = 1u << 6,  /* a session of its own, no terminal, stdin /dev/null */
    PBC_SANDBOX_FDS = 1u << 7,      /* only the descriptors the policy keeps */
    PBC_SANDBOX_CAPS = 1u << 8,     /* no capability in any set */
    PBC_SANDBOX_NNP = 1u << 9,      /* no_new_privs */
    PBC_SANDBOX_LANDLOCK = 1u << 10, /* without namespaces: writes only in the scratch folder */
    PBC_SANDBOX_SECCOMP = 1u << 11, /* the system-call filter (seccomp.c) */
};
#define PBC_SANDBOX_NAMESPACES \
    (PBC_SANDBOX_USER | PBC_SANDBOX_PID | PBC_SANDBOX_MOUNT | PBC_SANDBOX_NET | PBC_SANDBOX_IPC)

typedef struct pbc_sandbox_policy {
    const int *keep_fds; /* descriptors the contained process keeps, beside
                            0, 1 and 2 (stdin becomes /dev/null); every other
                            one is closed */
    unsigned keep_count;
    const char *scratch; /* an existing folder, the only place it may write
                            (pbc_sandbox_scratch_create); NULL: nowhere */
    const char *shared;  /* one more writable folder, or NULL (coverage's
                            profiles: not the verdict's business) */
    int seccomp;         /* apply the seccomp layer where filters exist */
} pbc_sandbox_policy;

typedef struct pbc_sandbox_layers {
    uint32_t ran;    /* PBC_SANDBOX_* of the layers that were applied */
    uint32_t failed; /* when pbc_sandbox_fork failed: the layer that could
                        not be set up (0: the process could not be made) */
    int error;       /* its errno */
} pbc_sandbox_layers;

/* Like fork (see the top); *layers (may be NULL) says what ran. -1 with
 * errno set when a planned layer could not be set up: nothing of the
 * caller's ran in the child, which is reaped. */
pid_t pbc_sandbox_fork(const pbc_sandbox_policy *p, pbc_sandbox_layers *layers);
/* The contained process of the pid pbc_sandbox_fork returned, as this
 * process's /proc names it (the same pid without a PID namespace); 0 when
 * unknown. */
pid_t pbc_sandbox_contained(pid_t pid);
/* Forgets pid once it has been reaped. */
void pbc_sandbox_forget(pid_t pid);

/* The layers a contained process gets on this machine, found once by
 * starting one (seccomp included where filters exist). */
uint32_t pbc_sandbox_probe(void);
/* "pdeath,user,pid,mount,net,ipc,session,fds,caps,nnp,seccomp": the names
 * of the layers in bits, in their order, into buf. */
const char *pbc_sandbox_layer_names(uint32_t bits, char *buf, size_t size);
/* Whether the layers in bits confine a builder enough for a certificate:
 * seccomp, and namespaces or Landlock. NULL if so, else what is missing. */
const char *pbc_sandbox_lacks(uint32_t bits);

/* Whether seccomp filters can be installed (PBC_ISO_NO_SECCOMP=1: no, for
 * tests of the path without them). */
int pbc_sandbox_seccomp_available(void);
/* The seccomp layer for the calling process, with itself as the one
 * process it may signal or trace: for a process a contained one starts to
 * run vendor code in (the driver process, harness/ddi/), whose container
 * left the layer to it. 0, or -1 with errno. */
int pbc_sandbox_seccomp_here(void);

/* A fresh scratch folder (under $TMPDIR or /tmp), owned (free it); NULL
 * with errno when none can be made. */
char *pbc_sandbox_scratch_create(void);
/* Removes it and everything in it, following no link. */
void pbc_sandbox_scratch_remove(const char *dir);

/* What contained processes leave behind (reap.c). A worker is tracked
 * while it lives (live 1, then 0 once reaped): the sweep spares it. */
void pbc_sandbox_track_worker(pid_t pid, int live);
/* Marks pid, a child process pbcheck started for its own work (triage's
 * --jobs processes), as its own (own 1) until it is reaped (own 0): the
 * sweep spares it, and a signal from it is not a builder's. */
void pbc_sandbox_own_child(pid_t pid, int own);
/* This process adopts (on 1) the orphans of its contained processes, as a
 * subreaper, so that they can be swept; or stops (on 0). */
void pbc_sandbox_adopt(int on);
/* Whether pid is a tracked worker, descends from one, or is an orphan of
 * a dead one this process adopted. Async-signal-safe (reads /proc). */
int pbc_sandbox_from_workers(pid_t pid);
/* Kills every process below parent (a worker, or this process for a dead
 * worker's orphans) but tracked workers and this process's own children,
 * round after round as killing one hands its own children to parent, and
 * describes them into what ("pid 12 'sleep', ..."). Returns how many,
 * each counted once. */
uint32_t pbc_sandbox_sweep(pid_t parent, char *what, size_t what_size);

#endif
