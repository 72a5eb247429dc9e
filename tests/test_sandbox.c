/* The sandbox room (sandbox/sandbox.h): a contained process gets every
 * layer pbc_sandbox_fork reports, ends the way it ends (its own signals
 * included), takes what it starts with it, and dies with its caller.
 * Each contained check is a bit of the child's exit status, named when it
 * fails. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "sandbox/sandbox.h"
#include "t.h"

static const char *const inside_names[] = {
    "pid-1-is-not-us", "write-outside-refused", "write-in-scratch", "no-terminal", "stdin-dev-null",
    "no-capabilities", "empty-bounding-set", "no-new-privs",   "other-fds-closed", "kept-fd-open",
    "no-network",      "no-unix-socket",
};

/* Runs in the contained process: a bit set for each check that fails. */
static int inside(const char *scratch, int closed_fd, int kept_fd, int namespaces)
{
    int bad = 0, bit = 0;
    bad |= (namespaces && getpid() != 2) << bit++;
    char *outside = pbc_xprintf("%s.outside", scratch);
    int fd = open(outside, O_CREAT | O_WRONLY, 0600);
    bad |= (fd >= 0 || (errno != EROFS && errno != EACCES)) << bit++;
    char *in = pbc_xprintf("%s/inside", scratch);
    fd = open(in, O_CREAT | O_WRONLY, 0600);
    bad |= (fd < 0) << bit++;
    bad |= (open("/dev/tty", O_RDWR) >= 0) << bit++;
    struct stat st0, null;
    bad |= (fstat(0, &st0) || stat("/dev/null", &null) || st0.st_rdev != null.st_rdev) << bit++;
    struct __user_cap_header_struct head = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct caps[2];
    bad |= (syscall(SYS_capget, &head, caps) || caps[0].effective || caps[0].permitted || caps[1].effective ||
            caps[1].permitted)
           << bit++;
    bad |= (namespaces && prctl(PR_CAPBSET_READ, CAP_SYS_ADMIN, 0, 0, 0) != 0) << bit++;
    bad |= (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1) << bit++;
    bad |= (fcntl(closed_fd, F_GETFD) != -1) << bit++;
    bad |= (fcntl(kept_fd, F_GETFD) == -1) << bit++;
    int s = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(53)};
    inet_pton(AF_INET, "192.0.2.1", &to.sin_addr);
    bad |= (namespaces && (s < 0 || connect(s, (struct sockaddr *)&to, sizeof(to)) == 0)) << bit++;
    bad |= (socket(AF_UNIX, SOCK_STREAM, 0) >= 0 || errno != EACCES) << bit++;
    return bad;
}

static void check_layers(int namespaces)
{
    char *scratch = pbc_sandbox_scratch_create();
    T_CHECK(scratch != NULL);
    int closed_fd = open("/dev/null", O_RDONLY), kept_fd = open("/dev/null", O_RDONLY);
    pbc_sandbox_policy p = {.keep_fds = &kept_fd, .keep_count = 1, .scratch = scratch, .seccomp = 1};
    pbc_sandbox_layers ran;
    pid_t pid = pbc_sandbox_fork(&p, &ran);
    if (pid == 0)
        _exit(inside(scratch, closed_fd, kept_fd, namespaces));
    T_CHECK_MSG(pid > 0, "layer %x failed: %s", ran.failed, strerror(ran.error));
    int status = -1;
    waitpid(pid, &status, 0);
    pbc_sandbox_forget(pid);
    T_CHECK_MSG(WIFEXITED(status), "status %#x", status);
    for (unsigned b = 0; b < sizeof(inside_names) / sizeof(inside_names[0]); b++)
        T_CHECK_MSG(!(WEXITSTATUS(status) & (1 << b)), "inside: %s", inside_names[b]);
    uint32_t want = PBC_SANDBOX_PDEATH | PBC_SANDBOX_SESSION | PBC_SANDBOX_FDS | PBC_SANDBOX_CAPS |
                    PBC_SANDBOX_NNP | PBC_SANDBOX_SECCOMP |
                    (namespaces ? PBC_SANDBOX_NAMESPACES : PBC_SANDBOX_LANDLOCK);
    char names[160];
    T_CHECK_MSG(ran.ran == want, "ran %s", pbc_sandbox_layer_names(ran.ran, names, sizeof(names)));
    T_CHECK(pbc_sandbox_lacks(ran.ran) == NULL);
    close(closed_fd);
    close(kept_fd);
    pbc_sandbox_scratch_remove(scratch);
    struct stat st;
    T_CHECK(stat(scratch, &st) != 0); /* removed, with what the child wrote */
    free(scratch);
}

T_TEST(every_layer_with_namespaces) { check_layers(1); }

T_TEST(landlock_without_namespaces)
{
    setenv("PBC_SANDBOX_NO_NS", "1", 1);
    check_layers(0);
    unsetenv("PBC_SANDBOX_NO_NS");
}

/* pid's end as its caller's waitpid reads it, after fn ran contained. */
static int end_of(void (*fn)(void))
{
    pbc_sandbox_policy p = {.seccomp = 1};
    pid_t pid = pbc_sandbox_fork(&p, NULL);
    if (pid == 0) {
        fn();
        _exit(0);
    }
    int status = -1;
    waitpid(pid, &status, 0);
    pbc_sandbox_forget(pid);
    return status;
}

static void exits_7(void) { _exit(7); }
static void aborts(void)
{
    signal(SIGABRT, SIG_DFL);
    raise(SIGABRT);
}
static void types_into_terminal(void) { ioctl(1, TIOCSTI, "x"); }
static void signals_init(void) { kill(1, SIGTERM); }

T_TEST(ends_as_the_contained_process_ends)
{
    int s = end_of(exits_7);
    T_CHECK_MSG(WIFEXITED(s) && WEXITSTATUS(s) == 7, "status %#x", s);
    s = end_of(aborts); /* PID 1 would ignore its own SIGABRT: it is not PID 1 */
    T_CHECK_MSG(WIFSIGNALED(s) && WTERMSIG(s) == SIGABRT, "status %#x", s);
    s = end_of(types_into_terminal);
    T_CHECK_MSG(WIFSIGNALED(s) && WTERMSIG(s) == SIGSYS, "status %#x", s);
    s = end_of(signals_init);
    T_CHECK_MSG(WIFSIGNALED(s) && WTERMSIG(s) == SIGSYS, "status %#x", s);
}

/* Whether the write end of fds is closed everywhere within 3 s. */
static int closed_soon(int fd)
{
    struct pollfd p = {fd, POLLIN, 0};
    char c;
    return poll(&p, 1, 3000) == 1 && read(fd, &c, 1) == 0;
}

T_TEST(what_it_starts_dies_with_it)
{
    int fds[2];
    T_CHECK(pipe(fds) == 0);
    pbc_sandbox_policy p = {.keep_fds = &fds[1], .keep_count = 1, .seccomp = 1};
    pid_t pid = pbc_sandbox_fork(&p, NULL);
    if (pid == 0) {
        if (fork() == 0) { /* detached, holding the pipe */
            setsid();
            if (fork() == 0)
                sleep(30);
            _exit(0);
        }
        usleep(100 * 1000);
        _exit(0);
    }
    close(fds[1]);
    int status;
    waitpid(pid, &status, 0);
    pbc_sandbox_forget(pid);
    T_CHECK_MSG(closed_soon(fds[0]), "a detached grandchild outlived the contained process");
    close(fds[0]);
}

T_TEST(dies_with_a_killed_caller)
{
    int fds[2];
    T_CHECK(pipe(fds) == 0);
    fflush(NULL); /* the caller's exit must not print our buffered output again */
    pid_t caller = fork();
    if (caller == 0) {
        pbc_sandbox_policy p = {.keep_fds = &fds[1], .keep_count = 1, .seccomp = 1};
        pid_t pid = pbc_sandbox_fork(&p, NULL);
        if (pid == 0) {
            sleep(30);
            _exit(0);
        }
        for (;;)
            pause();
    }
    close(fds[1]);
    usleep(300 * 1000);
    kill(caller, SIGKILL);
    waitpid(caller, NULL, 0);
    T_CHECK_MSG(closed_soon(fds[0]), "the contained process outlived its SIGKILLed caller");
    close(fds[0]);
}

T_TEST(what_a_certificate_needs)
{
    uint32_t all = PBC_SANDBOX_PDEATH | PBC_SANDBOX_NAMESPACES | PBC_SANDBOX_SESSION | PBC_SANDBOX_FDS |
                   PBC_SANDBOX_CAPS | PBC_SANDBOX_NNP | PBC_SANDBOX_SECCOMP;
    T_CHECK(pbc_sandbox_lacks(all) == NULL);
    T_CHECK(pbc_sandbox_lacks((all & ~PBC_SANDBOX_NAMESPACES) | PBC_SANDBOX_LANDLOCK) == NULL);
    T_CHECK(pbc_sandbox_lacks(all & ~PBC_SANDBOX_SECCOMP) != NULL);
    T_CHECK(pbc_sandbox_lacks(all & ~PBC_SANDBOX_NAMESPACES) != NULL);
    char names[160];
    T_CHECK(!strcmp(pbc_sandbox_layer_names(PBC_SANDBOX_USER | PBC_SANDBOX_SECCOMP, names, sizeof(names)),
                    "user,seccomp"));
}

T_MAIN()
