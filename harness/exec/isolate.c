/*
 * Worker processes for jobs that run a builder (isolate.h). The protocol
 * on both pipes is a 4-byte length and that many bytes.
 */
#define _GNU_SOURCE
#include "exec/isolate.h"

#include <dirent.h>
#include <errno.h>
#include <execinfo.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "base/safe.h"
#include "base/util.h"
#include "exec/symbolize.h"
#include "kernel/services.h"
#include "ddi/link.h"
#include "sandbox/sandbox.h"
#include "wire/wire.h"

#if defined(__SANITIZE_ADDRESS__)
#define ISO_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ISO_ASAN 1
#endif
#endif
#ifndef ISO_ASAN
#define ISO_ASAN 0
#endif

#define ISO_OUTPUT_KEPT (16u << 10)
/* No answer is this large: a bigger length is a worker that wrote over
 * its own memory, not an answer to allocate for. */
#define ISO_MAX_ANSWER (256u << 20)
/* Between a symbolized frame's function and its source position. */
#define ISO_FRAME_MARK " at "


struct pbc_iso {
    pbc_iso_limits lim;
    pbc_iso_job_fn fn;
    void *ctx;
    pid_t pid;                  /* what pbc_sandbox_fork returned: signal and reap this one */
    pid_t contained;            /* the worker itself as our /proc names it: its memory, its children */
    char *scratch;              /* the worker's own folder, the only place it may write */
    int to_worker, from_worker; /* the caller's ends */
    int output;                 /* capture file (memfd), -1 without capture */
    uint32_t jobs;              /* jobs the current worker has run */
    off_t output_from;          /* the capture file's end when the current job was sent */
    void (*waiting)(void *ctx, double seconds);
    void *waiting_ctx;
    volatile sig_atomic_t blamed_signal; /* a signal pbcheck got from the worker or its descendants */
    volatile pid_t blamed_pid;
    uint32_t seq;               /* the number of the job under way (wire/wire.h) */
    char garbled[96];           /* why its answer's header was refused */
};

/* Bit of the worker's answer flags: it still had live children after the job. */
#define ISO_LIVE_CHILDREN 1u
/* An answer flag of a split worker: it swept what the builder left
 * running itself (its driver process is its child, which the caller's
 * sweep would take for one of them), and the answer begins with how many
 * and which (split_sweep). */
#define ISO_SWEPT 2u

static int iso_instances; /* pbcheck adopts the orphans of workers while any exists */

const char *pbc_iso_class_name(pbc_iso_class c)
{
    static const char *const names[] = {"ok", "crash", "exit", "timeout", "oom", "harness-bug", "escape"};
    return (unsigned)c < sizeof(names) / sizeof(names[0]) ? names[c] : "?";
}

/* ---- confinement -------------------------------------------------------
 *
 * A builder must not reach the process that keeps the verdict
 * (docs/architecture.md, "Trust boundary"). Each worker is started by the
 * sandbox (sandbox/sandbox.h): its own namespaces (or Landlock), session,
 * descriptors, no capabilities, the seccomp filter, and a scratch folder
 * of its own, the only place it may write. It is a subreaper: whatever
 * its builder starts and detaches stays its descendant, and the caller
 * kills those after every job. pbcheck itself is a subreaper while
 * workers exist, so the descendants of a worker that died without a PID
 * namespace are its to kill. Without seccomp filters (an old or
 * restricted kernel, or PBC_ISO_NO_SECCOMP=1 for tests) a signal that
 * reaches pbcheck from a worker is blamed on the builder
 * (pbc_iso_blame_signal); SIGKILL and SIGSTOP then cannot be stopped,
 * unless the PID namespace hides pbcheck from it.
 */

int pbc_iso_seccomp_available(void) { return pbc_sandbox_seccomp_available(); }

const char *pbc_iso_confinement(void)
{
    static char line[512];
    char names[160];
    uint32_t bits = pbc_sandbox_probe();
    const char *lacks = pbc_sandbox_lacks(bits);
    snprintf(line, sizeof(line), "sandbox: %s%s%s", pbc_sandbox_layer_names(bits, names, sizeof(names)),
             lacks ? "; lacks " : "", lacks ? lacks : "");
    return line;
}

static char iso_start_error[256]; /* why the last worker could not be started */

/* In the environment, so that a pbcheck this one runs (fuzz --coverage's
 * replay) gives its workers the same folder. */
#define ISO_WRITABLE_ENV "PBC_ISO_WRITABLE"

void pbc_iso_set_writable(const char *dir)
{
    if (dir)
        setenv(ISO_WRITABLE_ENV, dir, 1);
    else
        unsetenv(ISO_WRITABLE_ENV);
}

static int iso_kept = -1; /* pbc_iso_keep_fd's; fd 5 in a worker */

void pbc_iso_keep_fd(int fd) { iso_kept = fd; }
int pbc_iso_kept_fd(void) { return iso_kept; }

/* Only stdin, stdout, stderr and the two pipes stay open in a worker, the
 * pipes as fds 3 and 4 (and the kept one as 5): nothing of pbcheck's (the
 * journal, other files) is the builder's to write. */
static void worker_close_fds(int *in, int *out)
{
    int a = fcntl(*in, F_DUPFD, 1000), b = fcntl(*out, F_DUPFD, 1000);
    int c = iso_kept >= 0 ? fcntl(iso_kept, F_DUPFD, 1000) : -1;
    if (a < 0 || b < 0 || dup2(a, 3) != 3 || dup2(b, 4) != 4 || (iso_kept >= 0 && (c < 0 || dup2(c, 5) != 5)))
        _exit(PBC_ISO_INIT_EXIT);
    *in = 3;
    *out = 4;
    if (iso_kept >= 0)
        iso_kept = 5;
    if (close_range(iso_kept >= 0 ? 6 : 5, ~0u, 0)) {
        long max = sysconf(_SC_OPEN_MAX);
        for (long fd = iso_kept >= 0 ? 6 : 5; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
            close((int)fd);
    }
}

static char iso_altstack[64 << 10];

static void (*worker_init)(void);

void pbc_iso_set_worker_init(void (*fn)(void)) { worker_init = fn; }

static int iso_split;
static pid_t iso_driver; /* in a split worker: its driver process */

void pbc_iso_set_worker_split(int split) { iso_split = split; }
void pbc_iso_set_driver(pid_t pid) { iso_driver = pid; }

/* The children of process pid (every thread's), as /proc lists them:
 * each is reaped when it ended, and counted when it runs, except the
 * driver process. How many run. */
static uint32_t children_of(pid_t pid)
{
    char dir[64];
    snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    uint32_t live = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char path[128];
        snprintf(path, sizeof(path), "%s/%s/children", dir, e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        for (int c; fscanf(f, "%d", &c) == 1;)
            if (c != iso_driver && (pid != getpid() || waitpid(c, NULL, WNOHANG) == 0))
                live++;
        fclose(f);
    }
    closedir(d);
    return live;
}

/* The header of a worker's backtrace, before the faulting address: the
 * one frame whose address is exact (the others are return addresses). */
#define ISO_FATAL_HEAD "pbcheck: worker: fatal signal, pc 0x"

/* A fatal signal in the worker: the backtrace goes to stderr (the capture
 * file), then the signal ends the worker as it would have. */
static void iso_fatal(int sig, siginfo_t *info, void *ucontext)
{
    (void)info;
    uintptr_t pc = 0;
#if defined(__x86_64__)
    pc = (uintptr_t)((ucontext_t *)ucontext)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    pc = (uintptr_t)((ucontext_t *)ucontext)->uc_mcontext.pc;
#else
    (void)ucontext;
#endif
    /* By hand: snprintf is not async-signal-safe. */
    char head[80] = "\n" ISO_FATAL_HEAD;
    size_t at = strlen(head);
    for (int shift = (int)sizeof(pc) * 8 - 4; shift >= 0; shift -= 4)
        head[at++] = "0123456789abcdef"[(pc >> shift) & 15];
    memcpy(head + at, ", backtrace:\n", 14);
    at += 13;
    void *frames[48];
    ssize_t ignored = write(STDERR_FILENO, head, at);
    (void)ignored;
    int n = backtrace(frames, 48);
    backtrace_symbols_fd(frames, n, STDERR_FILENO);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void worker_setup(const pbc_iso_limits *lim)
{
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    if (lim->job_seconds > 0 && lim->batch) {
        rlim_t cpu = (rlim_t)(lim->job_seconds * lim->batch) + 10;
        struct rlimit rl = {cpu, cpu + 5};
        setrlimit(RLIMIT_CPU, &rl);
    }
    if (!ISO_ASAN && lim->memory_bytes) {
        struct rlimit rl = {lim->memory_bytes, lim->memory_bytes};
        setrlimit(RLIMIT_DATA, &rl);
    }
    /* The same handler in a sanitizer build: a fault in the builder's own
     * (uninstrumented) code is reported as a release build reports it,
     * and symbolized here with libdw rather than by the sanitizer's
     * llvm-symbolizer, which would start once per crashed worker and read
     * the whole of pbcheck's debug information. What the sanitizer's
     * instrumentation finds (an overflow, a use after free) it still
     * reports itself. */
    stack_t ss = {.ss_sp = iso_altstack, .ss_size = sizeof(iso_altstack)};
    sigaltstack(&ss, NULL);
    static const int fatal[] = {SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE};
    for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_sigaction = iso_fatal;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
        sigemptyset(&sa.sa_mask);
        sigaction(fatal[i], &sa, NULL);
    }
    backtrace((void *[1]){0}, 1); /* loads libgcc now, not in a handler */
    prctl(PR_SET_DUMPABLE, 1); /* pbcheck is not (pbc_iso_create); LeakSanitizer must trace us */
    if (lim->capture)
        pbc_kernel_log_echo(STDERR_FILENO); /* a builder's last words outlive it */
    /* Only now, confined and limited: the builder's constructors run here. */
    if (worker_init)
        worker_init();
}

/* Reaps the children that ended; whether any still runs. */
static uint32_t worker_children(void)
{
    if (iso_driver > 0) /* the driver stays; what it or the worker started may not */
        return children_of(getpid()) + children_of(iso_driver) ? ISO_LIVE_CHILDREN : 0;
    for (;;) {
        pid_t r = waitpid(-1, NULL, WNOHANG);
        if (r <= 0)
            return r == 0 ? ISO_LIVE_CHILDREN : 0;
    }
}

/* worker_children after a job: a child that is ending by itself (the
 * first half of a double fork, which exits once the second is started)
 * gets a moment to end, so that only what stays running is swept and
 * counted. */
static uint32_t worker_children_after_job(void)
{
    uint32_t live = worker_children();
    for (int i = 0; live && i < 10; i++) {
        struct timespec pause = {0, 2 * 1000 * 1000};
        nanosleep(&pause, NULL);
        live = worker_children();
    }
    return live;
}

/* In a split worker, after a job: what the builder left running (the
 * worker's children but its driver process, where orphans come to it as
 * the subreaper, and the driver's children) killed and counted once, as
 * the caller's sweep does for a worker in process; the count and the
 * killed processes' names lead the answer (ISO_SWEPT). 0 when none. */
static uint32_t split_sweep(uint8_t **answer, size_t *answer_len)
{
    static int owned;
    if (!owned) {
        pbc_sandbox_own_child(iso_driver, 1);
        owned = 1;
    }
    char left[256], more[256];
    uint32_t n = pbc_sandbox_sweep(getpid(), left, sizeof(left));
    uint32_t m = pbc_sandbox_sweep(iso_driver, more, sizeof(more));
    if (!n && !m)
        return 0;
    size_t at = strlen(left);
    if (m)
        snprintf(left + at, sizeof(left) - at, "%s%s", at ? ", " : "", more);
    pbc_wire_buf b = {0};
    pbc_wire_put_u32(&b, n + m);
    pbc_wire_put_str(&b, left);
    pbc_wire_put_bytes(&b, *answer, *answer_len);
    free(*answer);
    *answer = b.p;
    *answer_len = b.n;
    return ISO_SWEPT;
}

/* ---- the worker ------------------------------------------------------- */

static void worker_main(pbc_iso *iso, int in, int out)
{
    worker_close_fds(&in, &out);
    worker_setup(&iso->lim);
    for (;;) {
        pbc_wire_head head;
        uint8_t *job;
        int gone = pbc_wire_recv(in, &head, &job);
        worker_children(); /* what the caller killed after the last job is reaped, not left to init */
        if (gone) {
            /* The caller is done with us. A driver process is ended and
             * reaped first: its CPU time then counts in the worker's
             * children, and so in the caller's (bench's (s)). */
            if (iso_driver > 0 && !kill(iso_driver, SIGKILL))
                waitpid(iso_driver, NULL, 0);
            _exit(0);
        }
        size_t answer_len = 0;
        uint8_t *answer = iso->fn(iso->ctx, job, head.len, &answer_len);
        free(job);
        pbc_ddi_check_quiet(); /* before the answer: the job that wrote is the job that fails */
        fflush(stdout);
        fflush(stderr);
        uint32_t flags = worker_children_after_job();
        if (flags && iso_driver > 0)
            flags = split_sweep(&answer, &answer_len);
        if (pbc_wire_send(out, head.seq, flags, answer, answer_len))
            _exit(0);
        free(answer);
    }
}

/* ---- the caller ------------------------------------------------------- */

static pbc_iso *iso_current; /* the one whose job runs: a blamed signal is its builder's */

pbc_iso *pbc_iso_create(const pbc_iso_limits *limits, pbc_iso_job_fn fn, void *ctx)
{
    pbc_iso *iso = pbc_xcalloc(1, sizeof(*iso));
    /* Jobs are numbered from a random start, so a frame a builder prepared
     * before its worker started does not carry the next number by luck. */
    if (getrandom(&iso->seq, sizeof(iso->seq), 0) != (ssize_t)sizeof(iso->seq))
        iso->seq = (uint32_t)getpid() * 2654435761u;
    iso->lim = *limits;
    iso->fn = fn;
    iso->ctx = ctx;
    iso->to_worker = iso->from_worker = iso->output = -1;
    signal(SIGPIPE, SIG_IGN); /* a dead worker's pipe is an answer, not our death */
    if (iso_instances++ == 0) {
        pbc_sandbox_adopt(1); /* a dead worker's descendants come to us, to be killed */
        prctl(PR_SET_DUMPABLE, 0);        /* no /proc/PID/mem or /proc/PID/fd of ours for a worker */
    }
    return iso;
}

pid_t pbc_iso_worker(const pbc_iso *iso) { return iso ? iso->pid : 0; }

void pbc_iso_set_waiting(pbc_iso *iso, void (*fn)(void *ctx, double seconds), void *ctx)
{
    iso->waiting = fn;
    iso->waiting_ctx = ctx;
}

void pbc_iso_own_child(pid_t pid, int own) { pbc_sandbox_own_child(pid, own); }

int pbc_iso_blame_signal(int sig, pid_t from)
{
    if (!pbc_sandbox_from_workers(from))
        return 0;
    pbc_iso *iso = iso_current;
    if (iso && !iso->blamed_signal) {
        iso->blamed_pid = from;
        iso->blamed_signal = sig;
    }
    if (iso && iso->pid > 0)
        kill(iso->pid, SIGKILL); /* its case ends now, blamed */
    return 1;
}

static void (*user_signal)(int sig);

static void on_signal(int sig, siginfo_t *info, void *uc)
{
    (void)uc;
    /* si_code <= 0: kill, tgkill or sigqueue from a process; a terminal's
     * or the kernel's signals are the user's. */
    if (info && info->si_code <= 0 && pbc_iso_blame_signal(sig, info->si_pid))
        return;
    if (user_signal) {
        user_signal(sig);
        return;
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

void pbc_iso_catch_signals(void (*on_user)(int sig))
{
    user_signal = on_user;
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_sigaction = on_signal;
        sa.sa_flags = SA_SIGINFO;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}

/* How worker_stop ends a worker. */
enum {
    ISO_STOP_EOF,  /* closes its pipes: it exits when it reads EOF */
    ISO_STOP_KILL, /* SIGKILL at once (a timeout, a garbled answer) */
    ISO_STOP_GONE, /* it closed its pipe, so it is dying: its end (the
                      relay passes it on once the namespace is gone) is
                      awaited */
};
/* How long a worker has to exit once its pipes are closed, or once it
 * closed its own: one that does not (its builder holds the pipe open, or
 * took it over) is killed. */
#define ISO_EXIT_GRACE 2.0

static double now_seconds(void);

/* Ends the worker as `how` says and reaps it. Returns its wait status. */
static int worker_stop(pbc_iso *iso, int how)
{
    int status = 0;
    if (iso->to_worker >= 0)
        close(iso->to_worker);
    if (iso->from_worker >= 0)
        close(iso->from_worker);
    iso->to_worker = iso->from_worker = -1;
    pid_t pid = iso->pid;
    iso->pid = iso->contained = 0; /* before reaping: a signal handler must not kill a reused pid */
    if (pid > 0) {
        pid_t got = 0;
        for (double until = now_seconds() + ISO_EXIT_GRACE; how != ISO_STOP_KILL && now_seconds() < until;) {
            got = waitpid(pid, &status, WNOHANG);
            if (got > 0 || (got < 0 && errno != EINTR))
                break;
            got = 0;
            struct timespec pause = {0, 2 * 1000 * 1000};
            nanosleep(&pause, NULL);
        }
        if (got <= 0) {
            kill(pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
        }
        pbc_sandbox_forget(pid);
        pbc_sandbox_track_worker(pid, 0);
    }
    pbc_sandbox_scratch_remove(iso->scratch);
    free(iso->scratch);
    iso->scratch = NULL;
    return status;
}

/* Coverage's profiles (cli/coverage.c) are one per process, named by pid
 * (LLVM_PROFILE_FILE's %p), which in a PID namespace is the same for every
 * worker: each worker's name gets its scratch folder's, which is its own. */
static void worker_profile_name(const char *scratch)
{
    const char *pattern = getenv("LLVM_PROFILE_FILE"), *p = pattern ? strstr(pattern, "%p") : NULL;
    const char *own = scratch ? strrchr(scratch, '/') : NULL;
    if (!p || !own)
        return;
    char *named = pbc_xprintf("%.*s%%p-%s%s", (int)(p - pattern), pattern, own + 1, p + 2);
    setenv("LLVM_PROFILE_FILE", named, 1);
    free(named);
}

static int worker_start(pbc_iso *iso)
{
    int down[2], up[2];
    iso_start_error[0] = 0;
    if (pipe2(down, O_CLOEXEC))
        return -1;
    if (pipe2(up, O_CLOEXEC)) {
        close(down[0]);
        close(down[1]);
        return -1;
    }
    if (iso->lim.capture && iso->output < 0)
        iso->output = memfd_create("pbcheck-worker-output", MFD_CLOEXEC);
    if (iso->output >= 0 && ftruncate(iso->output, 0) == 0) /* an earlier worker's output is not kept */
        lseek(iso->output, 0, SEEK_SET);
    /* A fresh folder per worker: what one leaves there is gone with it. */
    iso->scratch = pbc_sandbox_scratch_create();
    if (!iso->scratch) {
        int saved = errno;
        close(down[0]);
        close(down[1]);
        close(up[0]);
        close(up[1]);
        errno = saved;
        return -1;
    }
    /* A SIGINT between fork and noting the pid would miss the worker. */
    sigset_t stop, saved;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    sigprocmask(SIG_BLOCK, &stop, &saved);
    int keep[4] = {down[0], up[1]}, kept = 2;
    if (iso->output >= 0)
        keep[kept++] = iso->output;
    if (iso_kept >= 0)
        keep[kept++] = iso_kept;
    pbc_sandbox_policy policy = {.keep_fds = keep,
                                 .keep_count = (unsigned)kept,
                                 .scratch = iso->scratch,
                                 .shared = getenv(ISO_WRITABLE_ENV),
                                 .seccomp = !iso_split};
    pbc_sandbox_layers layers;
    pid_t pid = pbc_sandbox_fork(&policy, &layers);
    if (pid == 0) {
        sigprocmask(SIG_SETMASK, &saved, NULL);
        if (iso->output >= 0) {
            if (iso->lim.capture != PBC_ISO_CAPTURE_STDERR)
                dup2(iso->output, STDOUT_FILENO);
            dup2(iso->output, STDERR_FILENO);
        }
        worker_profile_name(iso->scratch);
        worker_main(iso, down[0], up[1]);
        _exit(0);
    }
    int failed = errno;
    close(down[0]);
    close(up[1]);
    if (pid < 0) {
        sigprocmask(SIG_SETMASK, &saved, NULL);
        close(down[1]);
        close(up[0]);
        pbc_sandbox_scratch_remove(iso->scratch);
        free(iso->scratch);
        iso->scratch = NULL;
        char names[160];
        snprintf(iso_start_error, sizeof(iso_start_error), "the sandbox's %s layer could not be set up: %s",
                 pbc_sandbox_layer_names(layers.failed, names, sizeof(names)), strerror(failed));
        errno = failed;
        return -1;
    }
    iso->pid = pid;
    iso->contained = pbc_sandbox_contained(pid);
    pbc_sandbox_track_worker(pid, 1);
    sigprocmask(SIG_SETMASK, &saved, NULL);
    iso->to_worker = down[1];
    iso->from_worker = up[0];
    iso->jobs = 0;
    return 0;
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static uint64_t worker_rss(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/statm", (int)pid);
    FILE *f = fopen(path, "r");
    unsigned long long size = 0, resident = 0;
    if (f) {
        if (fscanf(f, "%llu %llu", &size, &resident) != 2)
            resident = 0;
        fclose(f);
    }
    return (uint64_t)resident * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* Whether the worker has ended (left for worker_stop to reap). */
static int worker_gone(pid_t pid)
{
    siginfo_t info;
    memset(&info, 0, sizeof(info));
    return pid > 0 && waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

/* Reads a whole frame within the deadline; 0, -1 (the worker is gone),
 * -2 (deadline), -3 (over the memory limit). */
/* One answer frame: 0 with its body and flags; -1 the worker is gone, -2
 * the deadline passed, -3 over the memory limit, -4 a header the
 * transport refuses (wrong version, another job's number, unknown flags,
 * too long: iso->garbled says which). */
static int receive_frame(pbc_iso *iso, uint8_t **out, size_t *out_len, uint32_t *flags, double deadline,
                         uint64_t *rss_seen)
{
    uint8_t head[sizeof(pbc_wire_head)];
    size_t have = 0, want = sizeof(head);
    uint8_t *body = NULL;
    double started = now_seconds(), told = started;
    for (;;) {
        if (iso->waiting && now_seconds() - told >= 1.0) {
            told = now_seconds();
            iso->waiting(iso->waiting_ctx, told - started);
        }
        double left = deadline > 0 ? deadline - now_seconds() : 1.0;
        if (deadline > 0 && left <= 0) {
            free(body);
            return -2;
        }
        struct pollfd p = {iso->from_worker, POLLIN, 0};
        int slice = left > 0.1 ? 100 : (int)(left * 1000) + 1;
        int ready = poll(&p, 1, slice);
        if (ready < 0 && errno != EINTR) {
            free(body);
            return -1;
        }
        if (iso->lim.memory_bytes) {
            uint64_t rss = worker_rss(iso->contained ? iso->contained : iso->pid);
            if (rss > *rss_seen)
                *rss_seen = rss;
            if (rss > iso->lim.memory_bytes) {
                free(body);
                return -3;
            }
        }
        if (ready == 0 && worker_gone(iso->pid)) {
            free(body); /* what it started holds the pipe open: its answer will not come */
            return -1;
        }
        if (ready <= 0)
            continue;
        uint8_t *dst = body ? body + (have - sizeof(head)) : head + have;
        size_t room = body ? want - have : sizeof(head) - have;
        ssize_t k = read(iso->from_worker, dst, room);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            free(body);
            return -1;
        }
        have += (size_t)k;
        if (!body && have == sizeof(head)) {
            pbc_wire_head h;
            memcpy(&h, head, sizeof(h));
            const char *why =
                pbc_wire_check(&h, iso->seq, ISO_LIVE_CHILDREN | (iso_split ? ISO_SWEPT : 0), ISO_MAX_ANSWER);
            if (why) {
                snprintf(iso->garbled, sizeof(iso->garbled), "%s", why);
                return -4;
            }
            *flags = h.flags;
            want = sizeof(head) + h.len;
            body = pbc_xmalloc(h.len ? h.len : 1);
        }
        if (body && have == want) {
            *out = body;
            *out_len = want - sizeof(head);
            return 0;
        }
    }
}

/* A split worker's answer that begins with its sweep (ISO_SWEPT): the
 * count and names taken off, the job's answer left in r. -1 when it does
 * not read as one. */
static int split_swept(pbc_iso_result *r, uint32_t *count, char *left, size_t left_size)
{
    pbc_wire_reader in = {r->answer, r->answer_len, 0, 0};
    uint32_t n = pbc_wire_get_u32_max(&in, 1u << 20);
    char *text = pbc_wire_get_text(&in, 0);
    size_t len = 0;
    uint8_t *body = pbc_wire_get_bytes(&in, &len);
    int ok = pbc_wire_done(&in) && n > 0 && text;
    if (ok) {
        snprintf(left, left_size, "%s", text);
        *count = n;
        free(r->answer);
        r->answer = body;
        r->answer_len = len;
        body = NULL;
        if (!r->answer)
            r->answer = pbc_xcalloc(1, 1);
    }
    free(text);
    free(body);
    return ok ? 0 : -1;
}

static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGXCPU: return "SIGXCPU";
    case SIGTRAP: return "SIGTRAP";
    case SIGSYS: return "SIGSYS";
    case SIGINT: return "SIGINT";
    case SIGSTOP: return "SIGSTOP";
    case SIGHUP: return "SIGHUP";
    case SIGQUIT: return "SIGQUIT";
    default: return "a signal";
    }
}

/* The capture file from `from` on, at most its last ISO_OUTPUT_KEPT bytes. */
static char *read_output(int fd, off_t from)
{
    if (fd < 0)
        return NULL;
    off_t end = lseek(fd, 0, SEEK_END);
    if (end <= from)
        return NULL;
    if (end - from > (off_t)ISO_OUTPUT_KEPT)
        from = end - (off_t)ISO_OUTPUT_KEPT;
    size_t n = (size_t)(end - from);
    char *s = pbc_xmalloc(n + 1);
    ssize_t k = pread(fd, s, n, from);
    s[k > 0 ? (size_t)k : 0] = 0;
    return s;
}

/* Hex digits at *p, at most 16, into *v; the first byte after them. */
static const char *parse_hex(const char *p, uint64_t *v)
{
    const char *start = p;
    *v = 0;
    for (; p - start < 16; p++) {
        int d = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;
        if (d < 0)
            break;
        *v = *v << 4 | (uint64_t)d;
    }
    return p > start ? p : NULL;
}

/* A backtrace frame of a shared library as glibc prints it,
 * "/path/lib.so(+0xOFF)[0xADDR]", and nothing else: an absolute module
 * path of printable characters, an offset and an address in lower-case
 * hex. The worker's stderr is the builder's to write, so a line that is
 * not exactly that is left as text. 0, or -1. */
static int parse_frame_line(const char *line, char *module, size_t module_size, uint64_t *offset, uint64_t *addr)
{
    const char *open = strstr(line, "(+0x");
    if (!open || line[0] != '/' || (size_t)(open - line) >= module_size || open - line < 4 ||
        strncmp(open - 3, ".so", 3))
        return -1;
    for (const char *c = line; c < open; c++)
        if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
            return -1;
    const char *p = parse_hex(open + 4, offset);
    if (!p || strncmp(p, ")[0x", 4) || !(p = parse_hex(p + 4, addr)) || strcmp(p, "]"))
        return -1;
    memcpy(module, line, (size_t)(open - line));
    module[open - line] = 0;
    return 0;
}

/* A library frame named: "FN at FILE:LINE (MODULE+0xOFF)", and the
 * functions it was inlined into. Owned, or NULL to keep the line. Every
 * frame but the faulting one (its address is fault_pc) is a return
 * address. */
static char *symbolize_frame(const char *line, uint64_t fault_pc)
{
    char module[1024];
    uint64_t offset, addr;
    pbc_sym sym;
    if (parse_frame_line(line, module, sizeof(module), &offset, &addr) ||
        pbc_sym_module(module, offset, addr != fault_pc, &sym))
        return NULL;
    return pbc_xprintf("%s" ISO_FRAME_MARK "%s (%s+0x%" PRIx64 ")%s", sym.function, sym.where[0] ? sym.where : "??:?",
                       module, offset, sym.inlined);
}

/* Symbolizes the library frames of a worker backtrace in place. */
static char *symbolize_output(char *out)
{
    const char *head = out ? strstr(out, ISO_FATAL_HEAD) : NULL;
    if (!head)
        return out;
    uint64_t fault_pc = 0;
    if (!parse_hex(head + strlen(ISO_FATAL_HEAD), &fault_pc))
        fault_pc = 0;
    size_t cap = strlen(out) + 1, n = 0;
    char *res = pbc_xmalloc(cap);
    for (char *line = out; *line;) {
        char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        char save = line[len];
        line[len] = 0;
        char *sym = symbolize_frame(line, fault_pc);
        const char *text = sym ? sym : line;
        size_t tl = strlen(text);
        if (n + tl + 2 > cap) {
            cap = (n + tl + 2) * 2;
            res = pbc_xrealloc(res, cap);
        }
        memcpy(res + n, text, tl);
        n += tl;
        if (nl)
            res[n++] = '\n';
        free(sym);
        line[len] = save;
        line += len + (nl != NULL);
    }
    res[n] = 0;
    free(out);
    return res;
}

/* The first line of the output containing needle, as the detail. */
static int detail_from_output(const char *out, const char *needle, char *detail, size_t size)
{
    const char *at = out ? strstr(out, needle) : NULL;
    if (!at)
        return 0;
    while (at > out && at[-1] != '\n')
        at--;
    size_t len = strcspn(at, "\n");
    snprintf(detail, size, "%.*s", (int)(len < size ? len : size - 1), at);
    return 1;
}

pbc_iso_class pbc_iso_run(pbc_iso *iso, const uint8_t *job, size_t len, pbc_iso_result *r)
{
    return pbc_iso_run_scaled(iso, job, len, 1, r);
}

static pbc_iso_class iso_run(pbc_iso *iso, const uint8_t *job, size_t len, uint32_t units, pbc_iso_result *r)
{
    double seconds = iso->lim.job_seconds * (units ? units : 1);
    memset(r, 0, sizeof(*r));
    if (iso->pid && iso->lim.batch && iso->jobs >= iso->lim.batch) {
        char ignored[64];
        worker_stop(iso, ISO_STOP_EOF);
        pbc_sandbox_sweep(getpid(), ignored, sizeof(ignored)); /* what it started after its last answer */
    }
    off_t from = 0;
    for (int attempt = 0;; attempt++) {
        if (!iso->pid && worker_start(iso)) {
            r->cls = PBC_ISO_CRASH;
            snprintf(r->detail, sizeof(r->detail), "cannot start a worker process: %s",
                     iso_start_error[0] ? iso_start_error : strerror(errno));
            return r->cls;
        }
        from = iso->output >= 0 ? lseek(iso->output, 0, SEEK_END) : 0; /* before the worker can write */
        iso->output_from = from;
        if (pbc_wire_send(iso->to_worker, ++iso->seq, 0, job, len) == 0)
            break;
        worker_stop(iso, ISO_STOP_KILL); /* it died between jobs: a fresh one takes this job */
        if (attempt == 1) {
            r->cls = PBC_ISO_CRASH;
            snprintf(r->detail, sizeof(r->detail), "the worker process dies before it reads a job");
            return r->cls;
        }
    }
    iso->jobs++;
    iso_current = iso;
    iso->blamed_signal = 0;
    double deadline = seconds > 0 ? now_seconds() + seconds : 0;
    uint64_t rss = 0;
    uint32_t flags = 0;
    iso->garbled[0] = 0;
    int got = receive_frame(iso, &r->answer, &r->answer_len, &flags, deadline, &rss);
    char left[sizeof(r->detail) / 2];
    uint32_t swept = 0;
    if (got == 0 && (flags & ISO_SWEPT) && split_swept(r, &swept, left, sizeof(left))) {
        snprintf(iso->garbled, sizeof(iso->garbled), "its account of what the builder left running");
        got = -4;
    }
    if (got == 0 && !iso->blamed_signal) {
        uint32_t n = swept;
        if (!(flags & ISO_SWEPT) && flags & ISO_LIVE_CHILDREN && iso->contained)
            n = pbc_sandbox_sweep(iso->contained, left, sizeof(left));
        if (!n)
            return r->cls = PBC_ISO_OK;
        free(r->answer);
        r->answer = NULL;
        r->answer_len = 0;
        r->output = read_output(iso->output, from);
        snprintf(r->detail, sizeof(r->detail), "the builder left %u process%s running after its case (killed: %s)",
                 n, n == 1 ? "" : "es", left);
        return r->cls = PBC_ISO_ESCAPE;
    }
    if (got == 0) { /* an answer after a signal the builder sent us */
        got = -1;
        free(r->answer);
        r->answer = NULL;
        r->answer_len = 0;
    }
    int status = worker_stop(iso, got == -1 && !iso->blamed_signal ? ISO_STOP_GONE : ISO_STOP_KILL);
    uint32_t orphans = pbc_sandbox_sweep(getpid(), left, sizeof(left)); /* the dead worker's descendants are ours now */
    r->output = symbolize_output(read_output(iso->output, from));
    if (iso->blamed_signal) {
        r->cls = PBC_ISO_CRASH;
        snprintf(r->detail, sizeof(r->detail), "the builder sent %s to pbcheck's process (from pid %d); its case "
                 "was stopped", signal_name(iso->blamed_signal), (int)iso->blamed_pid);
    } else if (got == -4) {
        r->cls = PBC_ISO_CRASH;
        snprintf(r->detail, sizeof(r->detail), "the worker's answer is garbled: %s",
                 iso->garbled[0] ? iso->garbled : "its memory was overwritten");
    } else if (got == -2) {
        r->cls = PBC_ISO_TIMEOUT;
        snprintf(r->detail, sizeof(r->detail), "no answer within %g s (stopped)", seconds);
    } else if (got == -3) {
        r->cls = PBC_ISO_OOM;
        /* pbcheck's own limit, not a DDI rule: a legal builder that writes
         * gigabytes with the CPU can reach it (docs/certify-conditions.md,
         * "Sizes across 2^32"), and the words say so. */
        snprintf(r->detail, sizeof(r->detail),
                 "memory limit: resident memory %.1f MiB over the limit of %.1f MiB (stopped; pbcheck's "
                 "--memory-limit, not a DDI rule)",
                 (double)rss / 1048576.0, (double)iso->lim.memory_bytes / 1048576.0);
    } else if (detail_from_output(r->output, PBC_HARNESS_BUG_MARK, r->detail, sizeof(r->detail))) {
        r->cls = PBC_ISO_HARNESS;
    } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU) {
        r->cls = PBC_ISO_TIMEOUT;
        snprintf(r->detail, sizeof(r->detail), "CPU time limit (SIGXCPU)");
    } else if (detail_from_output(r->output, "out of memory", r->detail, sizeof(r->detail)) ||
               detail_from_output(r->output, "allocation-size-too-big", r->detail, sizeof(r->detail)) ||
               detail_from_output(r->output, "ERROR: AddressSanitizer: requested allocation size", r->detail,
                                  sizeof(r->detail))) {
        r->cls = PBC_ISO_OOM;
    } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS) {
        r->cls = PBC_ISO_CRASH;
        snprintf(r->detail, sizeof(r->detail), "SIGSYS (signal %d): the builder made a call the sandbox forbids: "
                 "a signal to another process (kill, tgkill, sigqueue), ptrace or another process's memory",
                 SIGSYS);
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == PBC_DDI_LOST_EXIT &&
               (detail_from_output(r->output, "pbcheck: the driver process ", r->detail, sizeof(r->detail)) ||
                detail_from_output(r->output, "pbcheck: the ISA decoder process ", r->detail, sizeof(r->detail)))) {
        /* A split worker's judge ended the case: the driver or decoder
         * process broke the transport (ddi/link.h). */
        r->cls = PBC_ISO_CRASH;
        if (!strncmp(r->detail, "pbcheck: ", strlen("pbcheck: "))) /* else the builder wrote before it */
            memmove(r->detail, r->detail + strlen("pbcheck: "), strlen(r->detail + strlen("pbcheck: ")) + 1);
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == PBC_ISO_INIT_EXIT &&
               detail_from_output(r->output, "pbcheck: worker: ", r->detail, sizeof(r->detail))) {
        r->cls = PBC_ISO_EXIT; /* the library would not load again in a fresh worker */
    } else if (WIFSIGNALED(status)) {
        r->cls = PBC_ISO_CRASH;
        /* The builder's own frame nearest the fault, when the backtrace has one. */
        const char *frame = r->output ? strstr(r->output, ISO_FRAME_MARK) : NULL;
        while (frame && frame > r->output && frame[-1] != '\n')
            frame--;
        int flen = frame ? (int)strcspn(frame, "\n") : 0;
        snprintf(r->detail, sizeof(r->detail), "%s (signal %d)%s%.*s", signal_name(WTERMSIG(status)),
                 WTERMSIG(status), frame ? " in " : "", flen, frame ? frame : "");
    } else if (detail_from_output(r->output, "SUMMARY: ", r->detail, sizeof(r->detail)) ||
               detail_from_output(r->output, "runtime error:", r->detail, sizeof(r->detail))) {
        r->cls = PBC_ISO_CRASH; /* a sanitizer found it and ended the worker */
    } else {
        r->cls = PBC_ISO_EXIT;
        snprintf(r->detail, sizeof(r->detail), "the builder ended the process: exit status %d",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    if (orphans) {
        size_t at = strlen(r->detail);
        snprintf(r->detail + at, sizeof(r->detail) - at, "; it left %u process%s running (killed: %s)", orphans,
                 orphans == 1 ? "" : "es", left);
    }
    return r->cls;
}

/* What reaches a report, stdout or a file name from a worker is the
 * builder's text: made safe once, here. */
static void result_make_safe(pbc_iso_result *r)
{
    if (r->output && !pbc_safe_is_text(r->output, PBC_SAFE_LINES)) {
        char *safe = pbc_safe_text(r->output, PBC_SAFE_LINES);
        free(r->output);
        r->output = safe;
    }
    if (!pbc_safe_is_text(r->detail, 0)) {
        char *safe = pbc_safe_text(r->detail, 0);
        snprintf(r->detail, sizeof(r->detail), "%s", safe);
        free(safe);
    }
}

pbc_iso_class pbc_iso_run_scaled(pbc_iso *iso, const uint8_t *job, size_t len, uint32_t units, pbc_iso_result *r)
{
    iso_run(iso, job, len, units, r);
    result_make_safe(r);
    return r->cls;
}

pbc_iso_class pbc_iso_reject(pbc_iso *iso, pbc_iso_result *r, const char *what)
{
    if (!iso)
        pbc_harness_bug("an answer of pbcheck's own does not read back: %s", what);
    char left[sizeof(r->detail) / 2];
    worker_stop(iso, ISO_STOP_KILL);
    uint32_t orphans = pbc_sandbox_sweep(getpid(), left, sizeof(left));
    free(r->answer);
    free(r->output);
    r->answer = NULL;
    r->answer_len = 0;
    r->output = read_output(iso->output, iso->output_from);
    r->cls = PBC_ISO_CRASH;
    snprintf(r->detail, sizeof(r->detail), "the worker's answer is garbled: %s", what);
    if (orphans) {
        size_t at = strlen(r->detail);
        snprintf(r->detail + at, sizeof(r->detail) - at, "; it left %u process%s running (killed: %s)", orphans,
                 orphans == 1 ? "" : "es", left);
    }
    result_make_safe(r);
    return r->cls;
}

void pbc_iso_result_fini(pbc_iso_result *r)
{
    free(r->answer);
    free(r->output);
    memset(r, 0, sizeof(*r));
}

void pbc_iso_destroy(pbc_iso *iso)
{
    if (!iso)
        return;
    char ignored[64];
    worker_stop(iso, ISO_STOP_EOF);
    pbc_sandbox_sweep(getpid(), ignored, sizeof(ignored)); /* what it started after its last answer */
    if (iso->output >= 0)
        close(iso->output);
    if (iso_current == iso)
        iso_current = NULL;
    free(iso);
    if (--iso_instances == 0)
        pbc_sandbox_adopt(0);
}
