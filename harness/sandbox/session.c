/*
 * The session layer: the contained process leads a session of its own
 * with no controlling terminal, so the terminal's signals (Ctrl-C, a
 * hangup) do not reach it through pbcheck's, and the kernel refuses it
 * TIOCSTI on the user's terminal (which needs the terminal to be its
 * own); its stdin is /dev/null. Then only the descriptors the policy
 * keeps stay open: nothing of pbcheck's (the journal, the reports) is the
 * builder's to write.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "sandbox/layers.h"

int pbc_sandbox_session(void)
{
    if (setsid() < 0)
        return -1;
    int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (fd < 0 || dup2(fd, STDIN_FILENO) != STDIN_FILENO)
        return -1;
    if (fd != STDIN_FILENO)
        close(fd);
    /* pbcheck's handlers for these are pbcheck's business, not the
     * contained process's. */
    static const int terminal[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU};
    for (unsigned i = 0; i < sizeof(terminal) / sizeof(terminal[0]); i++)
        signal(terminal[i], SIG_DFL);
    return 0;
}

static int by_number(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

int pbc_sandbox_close_fds(const int *keep, unsigned count, int also)
{
    int kept[18];
    unsigned n = 0;
    if (count > 16) {
        errno = EINVAL;
        return -1;
    }
    for (unsigned i = 0; i < count; i++)
        if (keep[i] > 2)
            kept[n++] = keep[i];
    if (also > 2)
        kept[n++] = also;
    qsort(kept, n, sizeof(kept[0]), by_number);
    unsigned from = 3;
    for (unsigned i = 0; i < n; i++) {
        if ((unsigned)kept[i] > from && close_range(from, (unsigned)kept[i] - 1, 0))
            return -1;
        from = (unsigned)kept[i] + 1;
    }
    return close_range(from, ~0u, 0) ? -1 : 0;
}
