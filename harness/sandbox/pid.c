/*
 * The PID layer: the contained process dies with pbcheck, and whatever it
 * starts dies with it.
 *
 * PID 1 of a namespace ignores every signal it has no handler for when it
 * comes from inside the namespace, its own raise() and abort() included,
 * so a builder run as PID 1 would not die of its own SIGABRT or SIGKILL as
 * it would anywhere else. PID 1 is therefore an init of pbcheck's that
 * runs no vendor code: its only child is the contained process, and when
 * that ends the init reports how and exits, and the kernel kills what is
 * left in the namespace. The relay, the caller's own child outside the
 * namespace, waits for the init and ends the same way as the contained
 * process (its exit status, or raising its signal), so the caller's
 * waitpid reads it. SIGKILL to the relay reaches everything: the init's
 * parent-death signal kills it, and the namespace with it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/layers.h"

int pbc_sandbox_pdeath(pid_t parent)
{
    if (prctl(PR_SET_PDEATHSIG, SIGKILL))
        return -1;
    /* The parent may have died before the signal was armed. */
    if (getppid() != parent) {
        errno = ESRCH;
        return -1;
    }
    return 0;
}

int pbc_sandbox_subreaper(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1) ? -1 : 0; }

/* The relay and the init run pbcheck's code only, but hold a copy of its
 * handlers: none of them may run there. */
static void default_signals(void)
{
    for (int s = 1; s < NSIG; s++)
        if (s != SIGKILL && s != SIGSTOP)
            signal(s, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}

/* Only these descriptors stay open, moved to 3, 4, ...: no pipe of the
 * caller's is held past the contained process's end. */
static void keep_only(int *fds, int n)
{
    for (int i = 0; i < n; i++)
        if ((fds[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 64)) < 0)
            _exit(127);
    for (int i = 0; i < n; i++)
        if (dup2(fds[i], 3 + i) != 3 + i)
            _exit(127);
    close_range(0, 2, 0);
    close_range(3 + (unsigned)n, ~0u, 0);
    for (int i = 0; i < n; i++)
        fds[i] = 3 + i;
}

static _Noreturn void relay(pid_t init, int status_fd, int life_fd)
{
    /* life_fd stays open until the relay dies: the init's sign that its
     * parent is gone. */
    int keep[2] = {status_fd, life_fd};
    keep_only(keep, 2);
    status_fd = keep[0];
    default_signals();
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core); /* the signal it passes on is not its own crash */
    int status = 0;
    while (waitpid(init, &status, 0) < 0)
        if (errno != EINTR)
            _exit(127);
    int32_t contained;
    if (read(status_fd, &contained, sizeof(contained)) == (ssize_t)sizeof(contained))
        status = contained; /* else the init itself was killed: that is the end */
    if (WIFSIGNALED(status)) {
        raise(WTERMSIG(status));
        _exit(128 + WTERMSIG(status)); /* a signal that does not end a process */
    }
    _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 127);
}

static _Noreturn void init_loop(pid_t contained, int status_fd)
{
    keep_only(&status_fd, 1);
    default_signals();
    for (;;) {
        int status;
        pid_t r = waitpid(-1, &status, 0);
        if (r == contained) {
            int32_t s = status;
            ssize_t ignored = write(status_fd, &s, sizeof(s));
            (void)ignored;
            _exit(0); /* the kernel kills the rest of the namespace */
        }
        if (r < 0 && errno != EINTR)
            _exit(127);
    }
}

int pbc_sandbox_pid_split(int fail_fd)
{
    int status[2], life[2];
    if (pipe2(status, O_CLOEXEC))
        return -1;
    if (pipe2(life, O_CLOEXEC))
        return -1;
    pid_t init = fork();
    if (init < 0)
        return -1;
    if (init > 0) {
        close(fail_fd);
        close(status[1]);
        close(life[0]);
        relay(init, status[0], life[1]);
    }
    close(status[0]);
    close(life[1]);
    /* The init's parent is outside the namespace (getppid says 0): its end
     * shows as the other end of `life` closing. */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL))
        return -1;
    struct pollfd p = {life[0], POLLIN, 0};
    if (poll(&p, 1, 0) != 0)
        _exit(0);
    close(life[0]);
    if (pbc_sandbox_mount_proc())
        return -1;
    pid_t contained = fork();
    if (contained < 0)
        return -1;
    if (contained > 0) {
        close(fail_fd);
        init_loop(contained, status[1]);
    }
    close(status[1]);
    return 0;
}
