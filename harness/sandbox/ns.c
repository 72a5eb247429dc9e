/*
 * The namespaces: user, PID, mount, network and IPC, made in one step.
 *
 * The user namespace is what lets an ordinary user make the others (and
 * what keeps root's capabilities inside it from meaning anything outside:
 * they are dropped later anyway, caps.c). The caller's uid and gid map to
 * themselves, so the files a contained process sees keep their owners.
 * The network namespace has only a loopback device that is down: no
 * network at all. The IPC namespace has no System V objects or POSIX
 * message queues of anyone's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "sandbox/layers.h"

static int write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, text, strlen(text));
    int saved = errno;
    close(fd);
    errno = saved;
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

int pbc_sandbox_unshare(void)
{
    uid_t uid = geteuid();
    gid_t gid = getegid();
    /* A process that is not dumpable (pbcheck is not) has a /proc/self
     * owned by root: its own maps would be closed to it. It is again once
     * they are written. */
    if (prctl(PR_SET_DUMPABLE, 1))
        return -1;
    if (unshare(CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC)) {
        /* Not offered here: no user namespaces in the kernel, or forbidden
         * to this user, or too many. */
        if (errno == EPERM || errno == EINVAL || errno == ENOSPC || errno == EUSERS || errno == ENOSYS)
            return prctl(PR_SET_DUMPABLE, 0) ? -1 : 1;
        return -1;
    }
    char map[64];
    /* A process without privilege may map only its own ids, and its gid
     * only once setgroups is denied. */
    if (write_file("/proc/self/setgroups", "deny") && errno != ENOENT)
        return -1;
    snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)uid, (unsigned)uid);
    if (write_file("/proc/self/uid_map", map))
        return -1;
    snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)gid, (unsigned)gid);
    if (write_file("/proc/self/gid_map", map))
        return -1;
    return prctl(PR_SET_DUMPABLE, 0) ? -1 : 0;
}
