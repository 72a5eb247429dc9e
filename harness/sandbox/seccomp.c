/*
 * The seccomp layer: the system calls by which a contained process could
 * reach another process, the user's terminal or a namespace of its own
 * end it at once with SIGSYS. The kernel does it
 * (SECCOMP_RET_KILL_PROCESS), so no handler of the builder's can
 * intercept it, and no_new_privs (caps.c) is all it needs: it works the
 * same for root and for an ordinary user. Its descendants inherit it.
 *
 * What it refuses:
 *  - signals and traces aimed at anyone but the process itself: kill,
 *    tkill, tgkill, the sigqueue calls and ptrace (LeakSanitizer traces
 *    the process itself when it exits), every pidfd_send_signal,
 *    pidfd_getfd and cross-process memory call;
 *  - a file's owner set to another process (F_SETOWN to another pid,
 *    F_SETOWN_EX, the FIOSETOWN and SIOCSPGRP ioctls): the kernel would
 *    send that owner SIGIO or the signal F_SETSIG picks;
 *  - TIOCSTI and TIOCLINUX, which type into a terminal;
 *  - clone with CLONE_PARENT (the child would be its caller's) or a new
 *    namespace, unshare and setns, and giving up being a subreaper:
 *    nothing it starts leaves its subtree or its namespaces; clone3,
 *    whose flags the filter cannot read, fails with ENOSYS and the C
 *    library falls back to clone;
 *  - every x32 call.
 * And a Unix socket fails with EACCES (not SIGSYS: a library may try
 * syslog): through a socket file, which a read-only mount does not stop,
 * it could talk to the user's session bus or a display server.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "base/util.h"
#include "sandbox/layers.h"
#include "sandbox/sandbox.h"

#if defined(__x86_64__)
#define SB_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SB_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

int pbc_sandbox_seccomp_available(void)
{
    const char *off = getenv("PBC_ISO_NO_SECCOMP");
    if (off && *off && strcmp(off, "0"))
        return 0;
#ifdef SB_AUDIT_ARCH
    /* With filters built in, a NULL program is refused as a bad address
     * before anything else is checked; without them the mode is unknown. */
    errno = 0;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, NULL, 0, 0) == -1 && errno == EFAULT;
#else
    return 0;
#endif
}

/* The filter is a run of blocks, one per system call it looks at: a
 * block starts by comparing the call's number (loaded in the accumulator)
 * and jumps over itself when it is another call, so the next block finds
 * the number still loaded; a block that reads an argument always ends in
 * a return. */
typedef struct sb_prog {
    struct sock_filter op[128];
    unsigned n;
} sb_prog;

static void emit(sb_prog *p, struct sock_filter f)
{
    if (p->n == sizeof(p->op) / sizeof(p->op[0]))
        pbc_harness_bug("the sandbox's seccomp program is too long");
    p->op[p->n++] = f;
}

#define SB_ARG_LO(k) ((uint32_t)(offsetof(struct seccomp_data, args) + 8 * (k)))
#define SB_RET(v) ((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, (v)))
#define SB_LD(off) ((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (off)))
#define SB_JEQ(v, t, f) ((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (v), (t), (f)))

/* Call nr always returns ret. */
static void block_always(sb_prog *p, int nr, uint32_t ret)
{
    emit(p, SB_JEQ((uint32_t)nr, 0, 1));
    emit(p, SB_RET(ret));
}

/* Call nr is allowed when (the low half of) argument k is the process's
 * own pid, else killed: a signal or a trace aimed at itself. */
static void block_self(sb_prog *p, int nr, unsigned k, pid_t self)
{
    emit(p, SB_JEQ((uint32_t)nr, 0, 4));
    emit(p, SB_LD(SB_ARG_LO(k)));
    emit(p, SB_JEQ((uint32_t)self, 0, 1));
    emit(p, SB_RET(SECCOMP_RET_ALLOW));
    emit(p, SB_RET(SECCOMP_RET_KILL_PROCESS));
}

/* Call nr returns ret when (the low half of) argument k is one of the n
 * values, else is allowed. */
static void block_args(sb_prog *p, int nr, unsigned k, const uint32_t *values, unsigned n, uint32_t ret)
{
    emit(p, SB_JEQ((uint32_t)nr, 0, (uint8_t)(n + 3)));
    emit(p, SB_LD(SB_ARG_LO(k)));
    for (unsigned i = 0; i < n; i++)
        emit(p, SB_JEQ(values[i], (uint8_t)(n - i), 0));
    emit(p, SB_RET(SECCOMP_RET_ALLOW));
    emit(p, SB_RET(ret));
}

int pbc_sandbox_seccomp_here(void) { return pbc_sandbox_seccomp(getpid()); }

int pbc_sandbox_seccomp(pid_t self)
{
#ifdef SB_AUDIT_ARCH
    sb_prog p = {.n = 0};
    emit(&p, SB_LD(offsetof(struct seccomp_data, arch)));
    emit(&p, SB_JEQ(SB_AUDIT_ARCH, 1, 0));
    emit(&p, SB_RET(SECCOMP_RET_KILL_PROCESS));
    emit(&p, SB_LD(offsetof(struct seccomp_data, nr)));
#if defined(__x86_64__)
    /* x32 numbers (the same calls with bit 30 set) are never ours. */
    emit(&p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1));
    emit(&p, SB_RET(SECCOMP_RET_KILL_PROCESS));
#endif
    /* Signals: only to the process itself, whoever sends them. */
    block_self(&p, SYS_kill, 0, self);
    block_self(&p, SYS_tkill, 0, self);
    block_self(&p, SYS_tgkill, 0, self);
    block_self(&p, SYS_rt_sigqueueinfo, 0, self);
    block_self(&p, SYS_rt_tgsigqueueinfo, 0, self);
    /* ptrace only of the process itself (the second argument). */
    block_self(&p, SYS_ptrace, 1, self);
    /* F_SETOWN only to the process itself, F_SETOWN_EX (a pointer) never. */
    emit(&p, SB_JEQ(SYS_fcntl, 0, 7));
    emit(&p, SB_LD(SB_ARG_LO(1)));
    emit(&p, SB_JEQ(F_SETOWN_EX, 4, 0));
    emit(&p, SB_JEQ(F_SETOWN, 0, 2));
    emit(&p, SB_LD(SB_ARG_LO(2)));
    emit(&p, SB_JEQ((uint32_t)self, 0, 1));
    emit(&p, SB_RET(SECCOMP_RET_ALLOW));
    emit(&p, SB_RET(SECCOMP_RET_KILL_PROCESS));
    /* The kernel reads an ioctl's request as 32 bits: the low half is all. */
    static const uint32_t ioctls[] = {0x8901 /* FIOSETOWN */, 0x8902 /* SIOCSPGRP */, TIOCSTI, TIOCLINUX};
    block_args(&p, SYS_ioctl, 1, ioctls, sizeof(ioctls) / sizeof(ioctls[0]), SECCOMP_RET_KILL_PROCESS);
    emit(&p, SB_JEQ(SYS_clone, 0, 4));
    emit(&p, SB_LD(SB_ARG_LO(0)));
    emit(&p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K,
                                          CLONE_PARENT | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWNET |
                                              CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP,
                                          1, 0));
    emit(&p, SB_RET(SECCOMP_RET_ALLOW));
    emit(&p, SB_RET(SECCOMP_RET_KILL_PROCESS));
#ifdef SYS_clone3
    block_always(&p, SYS_clone3, SECCOMP_RET_ERRNO | ENOSYS);
#endif
    block_always(&p, SYS_unshare, SECCOMP_RET_KILL_PROCESS);
    block_always(&p, SYS_setns, SECCOMP_RET_KILL_PROCESS);
    static const uint32_t subreaper[] = {PR_SET_CHILD_SUBREAPER};
    block_args(&p, SYS_prctl, 0, subreaper, 1, SECCOMP_RET_KILL_PROCESS);
    /* Never a contained process's business: another process's memory or
     * files. */
#ifdef SYS_pidfd_send_signal
    block_always(&p, SYS_pidfd_send_signal, SECCOMP_RET_KILL_PROCESS);
#endif
#ifdef SYS_pidfd_getfd
    block_always(&p, SYS_pidfd_getfd, SECCOMP_RET_KILL_PROCESS);
#endif
    block_always(&p, SYS_process_vm_readv, SECCOMP_RET_KILL_PROCESS);
    block_always(&p, SYS_process_vm_writev, SECCOMP_RET_KILL_PROCESS);
    static const uint32_t unix_sockets[] = {AF_UNIX};
    block_args(&p, SYS_socket, 0, unix_sockets, 1, SECCOMP_RET_ERRNO | EACCES);
    emit(&p, SB_RET(SECCOMP_RET_ALLOW));
    struct sock_fprog fprog = {(unsigned short)p.n, p.op};
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0) ? -1 : 0;
#else
    (void)self;
    errno = ENOSYS;
    return -1;
#endif
}
