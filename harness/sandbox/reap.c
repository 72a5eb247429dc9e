/*
 * What a contained process leaves behind, and who sent a signal: the
 * processes a builder starts and detaches stay below its worker (a
 * subreaper) or, once the worker is dead without a PID namespace, below
 * pbcheck, which adopts them while workers exist. The sweep finds them in
 * /proc, kills them round after round (a killed process hands its own
 * children on) and names each once; pbcheck's own helpers (triage's
 * --jobs processes) and live workers are left alone. The same ancestry,
 * read with async-signal-safe calls only, tells a signal a builder sent
 * pbcheck from the user's (docs/architecture.md, "Trust boundary").
 */
#define _GNU_SOURCE
#include "sandbox/sandbox.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"

/* Every live worker of this process, for the sweep of orphans (they are
 * not orphans) and for telling a worker's signal from the user's. */
#define REAP_MAX_LIVE 64
static volatile pid_t live_workers[REAP_MAX_LIVE];
static volatile int reap_adopting; /* pbcheck is a subreaper (pbc_sandbox_adopt) */

/* Sets of pids in fixed arrays (read by signal handlers: no locks, no
 * allocation). */
static void pid_set_add(volatile pid_t *set, int cap, pid_t pid, const char *what)
{
    for (int i = 0; i < cap; i++)
        if (set[i] == 0) {
            set[i] = pid;
            return;
        }
    pbc_harness_bug("more than %d %s at once", cap, what);
}

static void pid_set_remove(volatile pid_t *set, int cap, pid_t pid)
{
    for (int i = 0; i < cap; i++)
        if (set[i] == pid)
            set[i] = 0;
}

static int pid_set_has(const volatile pid_t *set, int cap, pid_t pid)
{
    for (int i = 0; i < cap; i++)
        if (pid > 0 && set[i] == pid)
            return 1;
    return 0;
}

static void live_add(pid_t pid) { pid_set_add(live_workers, REAP_MAX_LIVE, pid, "workers"); }
static void live_remove(pid_t pid) { pid_set_remove(live_workers, REAP_MAX_LIVE, pid); }
static int live_is(pid_t pid) { return pid_set_has(live_workers, REAP_MAX_LIVE, pid); }

/* pbcheck's own child processes (pbc_sandbox_own_child): neither workers nor
 * what a builder left behind. */
#define REAP_MAX_OWN 64
static volatile pid_t own_children[REAP_MAX_OWN];

static int own_is(pid_t pid) { return pid_set_has(own_children, REAP_MAX_OWN, pid); }

void pbc_sandbox_own_child(pid_t pid, int own)
{
    if (pid <= 0)
        return;
    if (own)
        pid_set_add(own_children, REAP_MAX_OWN, pid, "processes of pbcheck's own");
    else
        pid_set_remove(own_children, REAP_MAX_OWN, pid);
}

/* The parent of pid and its state letter, from /proc/PID/stat, with only
 * async-signal-safe calls (a signal handler uses it); -1 when gone. */
static pid_t proc_parent(pid_t pid, char *state)
{
    char path[48], buf[512];
    int k = 0;
    /* "/proc/" + pid + "/stat", without snprintf */
    const char *head = "/proc/";
    for (const char *c = head; *c; c++)
        path[k++] = *c;
    char digits[16];
    int d = 0;
    for (unsigned v = (unsigned)pid; v || !d; v /= 10)
        digits[d++] = (char)('0' + v % 10);
    while (d)
        path[k++] = digits[--d];
    for (const char *c = "/stat"; *c; c++)
        path[k++] = *c;
    path[k] = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = 0;
    char *close_paren = NULL; /* the command may hold ") ": the last one ends it */
    for (char *c = buf; *c; c++)
        if (*c == ')')
            close_paren = c;
    if (!close_paren || close_paren[1] != ' ' || !close_paren[2])
        return -1;
    if (state)
        *state = close_paren[2];
    pid_t ppid = 0;
    for (const char *c = close_paren + 4; *c >= '0' && *c <= '9'; c++)
        ppid = ppid * 10 + (*c - '0');
    return ppid;
}

int pbc_sandbox_from_workers(pid_t pid)
{
    pid_t self = getpid();
    for (int depth = 0; pid > 1 && depth < 64; depth++) {
        if (live_is(pid))
            return 1;
        if (own_is(pid))
            return 0;
        pid_t parent = proc_parent(pid, NULL);
        if (parent == self)
            return reap_adopting; /* only workers and their orphans are our children while we adopt */
        pid = parent;
    }
    return 0;
}

/* The processes one sweep killed, each counted once: a process SIGKILLed
 * is listed until it has died, which may take more than one round. */
typedef struct reap_killed {
    pid_t pid[64];
    int n;
    int listed; /* processes found alive in the last round, new or not */
} reap_killed;

/* The live processes listed as children of parent (every thread's), not
 * counting workers: killed, those not killed before described into what;
 * their number. */
static uint32_t kill_children_of(pid_t parent, reap_killed *seen, char *what, size_t what_size, size_t *at)
{
    char dir[64];
    snprintf(dir, sizeof(dir), "/proc/%d/task", (int)parent);
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    uint32_t killed = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[128];
        snprintf(path, sizeof(path), "%s/%s/children", dir, e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        long pid;
        while (fscanf(f, "%ld", &pid) == 1) {
            char state = 0;
            if (live_is((pid_t)pid) || own_is((pid_t)pid) || proc_parent((pid_t)pid, &state) < 0)
                continue;
            if (state == 'Z') { /* ended: only its parent's to reap */
                if (parent == getpid())
                    waitpid((pid_t)pid, NULL, WNOHANG);
                continue;
            }
            char comm[64] = "?", cpath[64];
            snprintf(cpath, sizeof(cpath), "/proc/%ld/comm", pid);
            FILE *c = fopen(cpath, "r");
            if (c) {
                if (!fgets(comm, sizeof(comm), c))
                    snprintf(comm, sizeof(comm), "?");
                comm[strcspn(comm, "\n")] = 0;
                fclose(c);
            }
            /* Dead before the job's answer is taken: one still dying
             * would be found again after the next job, and blamed on it. */
            int dying = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
            kill((pid_t)pid, SIGKILL);
            seen->listed++;
            if (parent == getpid()) {
                waitpid((pid_t)pid, NULL, 0);
            } else if (dying >= 0) {
                struct pollfd gone = {dying, POLLIN, 0};
                poll(&gone, 1, 1000);
            }
            if (dying >= 0)
                close(dying);
            if (!strcmp(comm, "llvm-symbolizer"))
                continue; /* the sanitizer's own helper, reporting the worker's death: not the builder's */
            int again = 0;
            for (int k = 0; k < seen->n; k++)
                again |= seen->pid[k] == (pid_t)pid;
            if (again)
                continue;
            if (seen->n < (int)PBC_ARRAY_LEN(seen->pid))
                seen->pid[seen->n++] = (pid_t)pid;
            killed++;
            if (*at < what_size)
                *at += (size_t)snprintf(what + *at, what_size - *at, "%spid %ld '%s'", *at ? ", " : "", pid, comm);
        }
        fclose(f);
    }
    closedir(d);
    return killed;
}

uint32_t pbc_sandbox_sweep(pid_t parent, char *what, size_t what_size)
{
    uint32_t total = 0, quiet = 0;
    size_t at = 0;
    reap_killed seen = {.n = 0};
    what[0] = 0;
    /* Nothing found at first: nothing there (a dead worker's children are
     * ours before its death is reported). After a kill, a few quiet rounds:
     * the killed hand their children over as they die. */
    for (int round = 0; round < 200 && quiet < 3; round++) {
        seen.listed = 0;
        total += kill_children_of(parent, &seen, what, what_size, &at);
        if (!total)
            break;
        quiet = seen.listed ? 0 : quiet + 1;
        struct timespec pause = {0, 2 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    return total;
}

void pbc_sandbox_track_worker(pid_t pid, int live)
{
    if (live)
        live_add(pid);
    else
        live_remove(pid);
}

void pbc_sandbox_adopt(int on)
{
    reap_adopting = on;
    prctl(PR_SET_CHILD_SUBREAPER, on ? 1 : 0);
}
