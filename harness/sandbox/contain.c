/*
 * The one `contain` step: pbc_sandbox_fork applies the layers (one file
 * each in this room) in a fixed order, fails closed, and tells the caller
 * which ran.
 *
 * The order, and why it is that order:
 *  1. pdeath (pid.c): armed first, so that from the first instruction the
 *     child dies with its caller;
 *  2. user, PID, mount, network and IPC namespaces (ns.c), in one unshare;
 *     the mounts (mount.c) need the capabilities the new user namespace
 *     gives, and are made before the PID split so the init and the
 *     contained process share them; then the split (pid.c): relay, init,
 *     contained process;
 *  3. session (session.c): its own session, no terminal, stdin from
 *     /dev/null; and a subreaper, before seccomp forbids the call;
 *  4. descriptors (session.c): only the policy's;
 *  5. capabilities dropped, then no_new_privs (caps.c), which Landlock
 *     and seccomp need from a process without privilege;
 *  6. Landlock (landlock.c), only where the namespaces are not offered;
 *  7. seccomp (seccomp.c) last: the calls before it are ones it refuses.
 * A layer that cannot be set up ends the child (exit 126) after telling
 * the caller which: no code of the caller's runs half-contained. The
 * namespaces are the one layer that may be missing without failing: a
 * kernel that does not offer them (EPERM, EINVAL, ENOSPC) gets Landlock
 * instead, and the caller reads which ran (pbc_sandbox_lacks decides if
 * that is enough for a certificate).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/fs.h"
#include "base/util.h"
#include "sandbox/layers.h"

/* What the contained process (or the first that fails) tells its caller
 * before any code of the caller's runs. */
#define SB_MAGIC 0x70626378u
#define SB_FAIL_EXIT 126
typedef struct sb_hello {
    uint32_t magic, ran, failed;
    int32_t error;
} sb_hello;

static _Noreturn void fail(int fd, uint32_t ran, uint32_t layer)
{
    sb_hello h = {SB_MAGIC, ran, layer, errno};
    ssize_t ignored = write(fd, &h, sizeof(h));
    (void)ignored;
    _exit(SB_FAIL_EXIT);
}

static int namespaces_off(void)
{
    const char *off = getenv("PBC_SANDBOX_NO_NS");
    return off && *off && strcmp(off, "0");
}

/* In the child: every layer in order. Returns only in the contained
 * process, with everything applied and the caller told. */
static void contain(const pbc_sandbox_policy *p, pid_t caller, int hello, int want_seccomp)
{
    uint32_t ran = 0;
    if (pbc_sandbox_pdeath(caller))
        _exit(0); /* the caller is gone: nobody to tell */
    ran |= PBC_SANDBOX_PDEATH;
    int ns = namespaces_off() ? 1 : pbc_sandbox_unshare();
    if (ns < 0)
        fail(hello, ran, PBC_SANDBOX_USER);
    if (ns == 0) {
        ran |= PBC_SANDBOX_USER | PBC_SANDBOX_NET | PBC_SANDBOX_IPC;
        if (pbc_sandbox_mount_readonly(p->scratch, p->shared))
            fail(hello, ran, PBC_SANDBOX_MOUNT);
        ran |= PBC_SANDBOX_MOUNT;
        if (pbc_sandbox_pid_split(hello))
            fail(hello, ran, PBC_SANDBOX_PID);
        ran |= PBC_SANDBOX_PID;
    }
    if (pbc_sandbox_session() || pbc_sandbox_subreaper())
        fail(hello, ran, PBC_SANDBOX_SESSION);
    ran |= PBC_SANDBOX_SESSION;
    if (pbc_sandbox_close_fds(p->keep_fds, p->keep_count, hello))
        fail(hello, ran, PBC_SANDBOX_FDS);
    ran |= PBC_SANDBOX_FDS;
    if (pbc_sandbox_drop_caps())
        fail(hello, ran, PBC_SANDBOX_CAPS);
    ran |= PBC_SANDBOX_CAPS;
    if (pbc_sandbox_no_new_privs())
        fail(hello, ran, PBC_SANDBOX_NNP);
    ran |= PBC_SANDBOX_NNP;
    if (!(ran & PBC_SANDBOX_MOUNT)) {
        int l = pbc_sandbox_landlock(p->scratch, p->shared);
        if (l < 0)
            fail(hello, ran, PBC_SANDBOX_LANDLOCK);
        ran |= l == 0 ? PBC_SANDBOX_LANDLOCK : 0;
    }
    if (p->scratch && setenv("TMPDIR", p->scratch, 1))
        fail(hello, ran, PBC_SANDBOX_FDS);
    if (want_seccomp) {
        if (pbc_sandbox_seccomp(getpid()))
            fail(hello, ran, PBC_SANDBOX_SECCOMP);
        ran |= PBC_SANDBOX_SECCOMP;
    }
    sb_hello h = {SB_MAGIC, ran, 0, 0};
    if (write(hello, &h, sizeof(h)) != (ssize_t)sizeof(h))
        _exit(0);
    close(hello);
}

/* ---- the caller's side ------------------------------------------------ */

/* The caller's children made by pbc_sandbox_fork that have a PID
 * namespace: the init (a pidfd, to wait for it once the relay dies) and
 * the contained process as the caller's /proc names it. */
#define SB_MAX 64
static struct {
    pid_t relay, contained;
    int init_fd;
} known[SB_MAX];

/* The first pid in /proc/PID/task/PID/children, or 0. */
static pid_t first_child(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)pid, (int)pid);
    FILE *f = fopen(path, "r");
    long child = 0;
    if (f) {
        if (fscanf(f, "%ld", &child) != 1)
            child = 0;
        fclose(f);
    }
    return (pid_t)child;
}

static void remember(pid_t relay, int split)
{
    for (int i = 0; i < SB_MAX; i++)
        if (known[i].relay == 0) {
            known[i].relay = relay;
            known[i].contained = relay;
            known[i].init_fd = -1;
            if (split) {
                /* The contained process has said hello: the init's only
                 * child, the relay's only child the init. */
                pid_t init = first_child(relay);
                known[i].contained = init > 0 ? first_child(init) : 0;
                known[i].init_fd = init > 0 ? (int)syscall(SYS_pidfd_open, init, 0) : -1;
            }
            return;
        }
    pbc_harness_bug("more than %d contained processes at once", SB_MAX);
}

pid_t pbc_sandbox_contained(pid_t pid)
{
    for (int i = 0; i < SB_MAX; i++)
        if (pid > 0 && known[i].relay == pid)
            return known[i].contained;
    return pid;
}

void pbc_sandbox_forget(pid_t pid)
{
    for (int i = 0; i < SB_MAX; i++) {
        if (pid <= 0 || known[i].relay != pid)
            continue;
        if (known[i].init_fd >= 0) {
            /* A relay that was killed hands its init to the nearest
             * subreaper, perhaps the caller: reaped here, never left for
             * a sweep to count as the builder's. Not the caller's child:
             * ECHILD at once. */
            siginfo_t info;
            while (waitid((idtype_t)3 /* P_PIDFD */, (id_t)known[i].init_fd, &info, WEXITED) < 0 && errno == EINTR)
                ;
            close(known[i].init_fd);
        }
        memset(&known[i], 0, sizeof(known[i]));
    }
}

pid_t pbc_sandbox_fork(const pbc_sandbox_policy *p, pbc_sandbox_layers *layers)
{
    pbc_sandbox_layers ignored;
    if (!layers)
        layers = &ignored;
    memset(layers, 0, sizeof(*layers));
    int want_seccomp = p->seccomp && pbc_sandbox_seccomp_available();
    int hello[2];
    if (pipe2(hello, O_CLOEXEC)) {
        layers->error = errno;
        return -1;
    }
    pid_t caller = getpid();
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(hello[0]);
        contain(p, caller, hello[1], want_seccomp);
        return 0;
    }
    close(hello[1]);
    sb_hello h;
    ssize_t n = -1;
    if (pid > 0)
        while ((n = read(hello[0], &h, sizeof(h))) < 0 && errno == EINTR)
            ;
    int saved = errno;
    close(hello[0]);
    if (pid < 0) {
        layers->error = errno = saved;
        return -1;
    }
    int said = n == (ssize_t)sizeof(h) && h.magic == SB_MAGIC;
    if (said && !h.failed) {
        layers->ran = h.ran;
        remember(pid, (h.ran & PBC_SANDBOX_PID) != 0);
        return pid;
    }
    /* A layer failed, or the child died before it could say: it ran
     * nothing of the caller's. */
    layers->ran = said ? h.ran : 0;
    layers->failed = said ? h.failed : 0;
    layers->error = said && h.error ? h.error : ECHILD;
    /* It ends itself (every failure exits): killing the relay would hand
     * its init to a subreaper caller. */
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
    errno = layers->error;
    return -1;
}

/* ---- what ran ----------------------------------------------------------- */

static const struct {
    uint32_t bit;
    const char *name;
} layer_names[] = {
    {PBC_SANDBOX_PDEATH, "pdeath"},   {PBC_SANDBOX_USER, "user"},   {PBC_SANDBOX_PID, "pid"},
    {PBC_SANDBOX_MOUNT, "mount"},     {PBC_SANDBOX_NET, "net"},     {PBC_SANDBOX_IPC, "ipc"},
    {PBC_SANDBOX_SESSION, "session"}, {PBC_SANDBOX_FDS, "fds"},     {PBC_SANDBOX_CAPS, "caps"},
    {PBC_SANDBOX_NNP, "nnp"},         {PBC_SANDBOX_LANDLOCK, "landlock"}, {PBC_SANDBOX_SECCOMP, "seccomp"},
};

const char *pbc_sandbox_layer_names(uint32_t bits, char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = 0;
    for (size_t i = 0; i < sizeof(layer_names) / sizeof(layer_names[0]); i++)
        if ((bits & layer_names[i].bit) && at < size)
            at += (size_t)snprintf(buf + at, size - at, "%s%s", at ? "," : "", layer_names[i].name);
    if (!at)
        snprintf(buf, size, "none");
    return buf;
}

const char *pbc_sandbox_lacks(uint32_t bits)
{
    int walls = (bits & PBC_SANDBOX_MOUNT) || (bits & PBC_SANDBOX_LANDLOCK);
    if (!(bits & PBC_SANDBOX_SESSION))
        return "every layer: the sandbox could not be set up";
    if (!(bits & PBC_SANDBOX_SECCOMP) && !walls)
        return "seccomp, and namespaces or Landlock";
    if (!(bits & PBC_SANDBOX_SECCOMP))
        return "seccomp";
    if (!walls)
        return "namespaces or Landlock";
    return NULL;
}

uint32_t pbc_sandbox_probe(void)
{
    static int probed;
    static uint32_t bits;
    if (probed)
        return bits;
    probed = 1;
    char *scratch = pbc_sandbox_scratch_create();
    pbc_sandbox_policy policy = {.scratch = scratch, .seccomp = 1};
    pbc_sandbox_layers ran;
    pid_t pid = scratch ? pbc_sandbox_fork(&policy, &ran) : -1;
    if (pid == 0)
        _exit(0);
    if (pid > 0) {
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
        pbc_sandbox_forget(pid);
        bits = ran.ran;
    }
    if (scratch)
        pbc_sandbox_scratch_remove(scratch);
    free(scratch);
    return bits;
}

/* ---- scratch folders ---------------------------------------------------- */

/* A scratch folder is locked (flock, exclusive) by the pbcheck that made
 * it, through a descriptor no worker keeps, for as long as that pbcheck
 * lives: the kernel drops the lock when it dies, however it dies. A
 * folder nobody holds is a SIGKILLed pbcheck's, and the next pbcheck that
 * makes one removes it. The lock, unlike a pid in the name, means the same
 * in every PID namespace sharing the folder. */
#define SCRATCH_PREFIX "pbcheck-worker-"

typedef struct scratch_lock {
    char *dir;
    int fd;
} scratch_lock;
static scratch_lock *scratch_held;
static size_t scratch_count;

static const char *scratch_parent(void)
{
    const char *tmp = getenv("TMPDIR");
    return tmp && *tmp == '/' ? tmp : "/tmp";
}

#define SCRATCH_MAKING ".pbcheck-making-"
/* A folder still under its making name is a pbcheck's that died between
 * mkdtemp and rename (its maker holds it for microseconds): swept when
 * nobody holds it and it is older than this, so that one being made now,
 * not yet locked, is left alone. */
#define SCRATCH_MAKING_STALE_S 60

/* Removes the scratch folders under parent that no live pbcheck holds,
 * and only folders of this user: once a process. */
static void scratch_sweep(const char *parent)
{
    static int swept;
    if (swept++)
        return;
    DIR *d = opendir(parent);
    if (!d)
        return;
    time_t now = time(NULL);
    for (struct dirent *e; (e = readdir(d));) {
        int making = !strncmp(e->d_name, SCRATCH_MAKING, strlen(SCRATCH_MAKING));
        if (!making && strncmp(e->d_name, SCRATCH_PREFIX, strlen(SCRATCH_PREFIX)))
            continue;
        int fd = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        struct stat st;
        if (fd < 0)
            continue;
        if (!fstat(fd, &st) && st.st_uid == geteuid() &&
            (!making || now - st.st_mtime > SCRATCH_MAKING_STALE_S) && !flock(fd, LOCK_EX | LOCK_NB)) {
            char *path = pbc_xprintf("%s/%s", parent, e->d_name);
            char err[256];
            pbc_fs_remove_tree(path, err, sizeof(err));
            free(path);
        }
        close(fd);
    }
    closedir(d);
}

/* A folder is made under a name no sweep takes while it is young, locked,
 * and only then given its scratch name: made under that name at once,
 * another pbcheck's first sweep could find it before its lock and remove
 * it, and the worker would have no folder (certify then ended with exit 2). */
char *pbc_sandbox_scratch_create(void)
{
    const char *parent = scratch_parent();
    scratch_sweep(parent);
    char *making = pbc_xprintf("%s/" SCRATCH_MAKING "XXXXXX", parent);
    if (!mkdtemp(making)) {
        free(making);
        return NULL;
    }
    int fd = open(making, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int locked = fd >= 0 && !flock(fd, LOCK_EX | LOCK_NB); /* it stays with the open folder through rename */
    char *dir = pbc_xprintf("%s/" SCRATCH_PREFIX "%s", parent, making + strlen(parent) + 1 + strlen(SCRATCH_MAKING));
    if (rename(making, dir)) {
        if (fd >= 0)
            close(fd);
        char err[256];
        pbc_fs_remove_tree(making, err, sizeof(err));
        free(making);
        free(dir);
        return NULL;
    }
    free(making);
    if (!locked) {
        if (fd >= 0)
            close(fd); /* a filesystem without locks: no sweep can lock it either */
        return dir;
    }
    scratch_held = pbc_xrealloc(scratch_held, (scratch_count + 1) * sizeof(*scratch_held));
    scratch_held[scratch_count++] = (scratch_lock){pbc_xstrdup(dir), fd};
    return dir;
}

void pbc_sandbox_scratch_remove(const char *dir)
{
    char err[256];
    if (!dir)
        return;
    pbc_fs_remove_tree(dir, err, sizeof(err)); /* what cannot go stays in the temporary folder */
    for (size_t i = 0; i < scratch_count; i++)
        if (!strcmp(scratch_held[i].dir, dir)) {
            close(scratch_held[i].fd);
            free(scratch_held[i].dir);
            scratch_held[i] = scratch_held[--scratch_count];
            break;
        }
}
