/*
 * The mount layer: in the process's own mount namespace (ns.c) the whole
 * filesystem is read-only, except the process's scratch folder (and the
 * one folder the policy shares, coverage's profiles), so nothing it does
 * changes a file of the user's or of pbcheck's: not the reports, not the
 * pbcheck executable, not a folder where a report will be written.
 *
 * The mounts are made private first, so nothing done here reaches the
 * caller's namespace. The host's terminals (/dev/pts) are hidden under
 * an empty read-only tmpfs: a builder cannot open the user's terminal by
 * its path and make it its own controlling terminal. /proc is mounted
 * afresh for the new PID namespace (by its init, which is in it), read
 * only: it shows the namespace's processes, as the sanitizers need when
 * they stop the world, and nothing of pbcheck's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox/layers.h"

#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

static int set_attr(const char *path, unsigned flags, uint64_t set, uint64_t clr)
{
#ifdef SYS_mount_setattr
    struct mount_attr a = {.attr_set = set, .attr_clr = clr};
    return syscall(SYS_mount_setattr, AT_FDCWD, path, flags, &a, sizeof(a)) ? -1 : 0;
#else
    (void)path, (void)flags, (void)set, (void)clr;
    errno = ENOSYS;
    return -1;
#endif
}

int pbc_sandbox_mount_readonly(const char *scratch, const char *shared)
{
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
        return -1;
    struct stat st;
    if (stat("/dev/pts", &st) == 0 && S_ISDIR(st.st_mode) &&
        mount("pbcheck-no-terminals", "/dev/pts", "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
              "size=4k,mode=755"))
        return -1;
    const char *writable[] = {scratch, shared};
    for (unsigned i = 0; i < 2; i++)
        if (writable[i] && mount(writable[i], writable[i], NULL, MS_BIND, NULL))
            return -1;
    if (set_attr("/", AT_RECURSIVE, MOUNT_ATTR_RDONLY, 0))
        return -1;
    for (unsigned i = 0; i < 2; i++)
        if (writable[i] && set_attr(writable[i], 0, 0, MOUNT_ATTR_RDONLY))
            return -1;
    return 0;
}

int pbc_sandbox_mount_proc(void)
{
    return mount("proc", "/proc", "proc", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) ? -1 : 0;
}
