/*
 * Child processes for the verbs that drive other programs: `fuzz` runs
 * libFuzzer or afl-fuzz and polls them for progress, `bench` runs fuzz
 * targets and a sanitizer build of pbcheck and waits for each. One
 * implementation, so that output redirection, signal dispositions and exit
 * statuses mean the same thing for both.
 */
#define _DEFAULT_SOURCE /* realpath */
#include "exec/child.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int exit_status(int st)
{
    return WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
}

/* Runs in the child between fork and exec: only async-signal-safe calls
 * matter after a fork in a program with threads, and setenv is fine here
 * because pbcheck has none. */
static void exec_child(const pbc_child_spec *spec)
{
    if (spec->output) {
        int fd = open(spec->output, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (fd < 0) {
            fprintf(stderr, "pbcheck: cannot write %s: %s\n", spec->output, strerror(errno));
            _exit(127);
        }
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        close(fd);
    }
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    for (char *const *e = spec->env; e && *e; e++) {
        const char *eq = strchr(*e, '=');
        if (!eq)
            continue;
        char name[128];
        snprintf(name, sizeof(name), "%.*s", (int)(eq - *e), *e);
        setenv(name, eq + 1, 1);
    }
    execvp(spec->argv[0], spec->argv);
    fprintf(stderr, "pbcheck: cannot run %s: %s\n", spec->argv[0], strerror(errno));
    _exit(127);
}

int pbc_child_start(pbc_child *c, const pbc_child_spec *spec, char *err, size_t err_size)
{
    memset(c, 0, sizeof(*c));
    /* Whatever pbcheck buffered must not be printed twice, once by the child. */
    fflush(NULL);
    c->started = now();
    pid_t pid = fork();
    if (pid < 0) {
        if (err && err_size)
            snprintf(err, err_size, "cannot run %s: %s", spec->argv[0], strerror(errno));
        c->status = -1;
        return -1;
    }
    if (pid == 0)
        exec_child(spec);
    c->pid = pid;
    return 0;
}

int pbc_child_poll(pbc_child *c)
{
    if (!c->pid)
        return 1;
    int st;
    pid_t r = waitpid(c->pid, &st, WNOHANG);
    if (r == 0 || (r < 0 && errno == EINTR))
        return 0;
    c->status = r == c->pid ? exit_status(st) : -1;
    c->pid = 0;
    return 1;
}

int pbc_child_wait(pbc_child *c)
{
    while (c->pid) {
        int st;
        pid_t r = waitpid(c->pid, &st, 0);
        if (r < 0 && errno == EINTR)
            continue;
        c->status = r == c->pid ? exit_status(st) : -1;
        c->pid = 0;
    }
    return c->status;
}

void pbc_child_kill(const pbc_child *c, int sig)
{
    if (c->pid)
        kill(c->pid, sig);
}

double pbc_child_elapsed(const pbc_child *c) { return now() - c->started; }

int pbc_child_run(const pbc_child_spec *spec, double *secs)
{
    pbc_child c;
    if (pbc_child_start(&c, spec, NULL, 0))
        return -1;
    int rc = pbc_child_wait(&c);
    if (secs)
        *secs = pbc_child_elapsed(&c);
    return rc;
}

const char *pbc_child_self_command(void)
{
    static char self[PATH_MAX];
    if (self[0])
        return self;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    snprintf(self, sizeof(self), "pbcheck");
    if (n <= 0)
        return self; /* cannot tell: the name people know */
    exe[n] = 0;
    /* The first "pbcheck" of PATH, as a shell finds it. */
    const char *path = getenv("PATH");
    for (const char *dir = path ? path : ""; *dir;) {
        size_t len = strcspn(dir, ":");
        char candidate[PATH_MAX], real[PATH_MAX];
        snprintf(candidate, sizeof(candidate), "%.*s/pbcheck", (int)(len ? len : 1), len ? dir : ".");
        if (access(candidate, X_OK) == 0) {
            if (!realpath(candidate, real) || strcmp(real, exe))
                break; /* another pbcheck comes first */
            return self;
        }
        dir += len + (dir[len] == ':');
    }
    snprintf(self, sizeof(self), "%s", exe);
    return self;
}
