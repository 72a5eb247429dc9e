/*
 * Worker processes for jobs that run a builder (isolate.h). The protocol
 * on both pipes is a 4-byte length and that many bytes.
 */
#define _GNU_SOURCE
#include "exec/isolate.h"

#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"

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
    pid_t pid;
    int to_worker, from_worker; /* the caller's ends */
    int output;                 /* capture file (memfd), -1 without capture */
    uint32_t jobs;              /* jobs the current worker has run */
    void (*waiting)(void *ctx, double seconds);
    void *waiting_ctx;
};

const char *pbc_iso_class_name(pbc_iso_class c)
{
    static const char *const names[] = {"ok", "crash", "exit", "timeout", "oom", "harness-bug"};
    return (unsigned)c < sizeof(names) / sizeof(names[0]) ? names[c] : "?";
}

/* ---- framing ---------------------------------------------------------- */

/* All n bytes written (or read), through interruptions; 0, or -1 when
 * the other end is gone. */
static int io_all(int fd, void *p, size_t n, int writing)
{
    uint8_t *b = p;
    while (n) {
        ssize_t k = writing ? write(fd, b, n) : read(fd, b, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        b += k;
        n -= (size_t)k;
    }
    return 0;
}

static int write_all(int fd, const void *p, size_t n) { return io_all(fd, (void *)(uintptr_t)p, n, 1); }
static int read_all(int fd, void *p, size_t n) { return io_all(fd, p, n, 0); }

static int send_frame(int fd, const uint8_t *p, size_t n)
{
    uint32_t len = (uint32_t)n;
    return write_all(fd, &len, sizeof(len)) || write_all(fd, p, n) ? -1 : 0;
}

void pbc_iso_put_u32(pbc_iso_buf *b, uint32_t v)
{
    if (b->n + 4 > b->cap) {
        b->cap = (b->n + 4) * 2;
        b->p = pbc_xrealloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, &v, 4);
    b->n += 4;
}

void pbc_iso_put_bytes(pbc_iso_buf *b, const void *p, size_t len)
{
    pbc_iso_put_u32(b, p ? (uint32_t)len + 1 : 0);
    if (b->n + len > b->cap) {
        b->cap = (b->n + len) * 2;
        b->p = pbc_xrealloc(b->p, b->cap);
    }
    if (len)
        memcpy(b->p + b->n, p, len);
    b->n += len;
}

void pbc_iso_put_str(pbc_iso_buf *b, const char *s) { pbc_iso_put_bytes(b, s, s ? strlen(s) : 0); }

uint32_t pbc_iso_get_u32(pbc_iso_reader *r)
{
    uint32_t v = 0;
    if (r->at + 4 <= r->n)
        memcpy(&v, r->p + r->at, 4);
    r->at += 4;
    return v;
}

uint8_t *pbc_iso_get_bytes(pbc_iso_reader *r, size_t *n)
{
    uint32_t len = pbc_iso_get_u32(r);
    *n = 0;
    if (len == 0)
        return NULL;
    len--;
    if (r->at > r->n || len > r->n - r->at)
        len = r->at > r->n ? 0 : (uint32_t)(r->n - r->at);
    uint8_t *s = pbc_xmalloc(len + 1u);
    if (len)
        memcpy(s, r->p + r->at, len);
    s[len] = 0;
    r->at += len;
    *n = len;
    return s;
}

char *pbc_iso_get_str(pbc_iso_reader *r)
{
    size_t n;
    return (char *)pbc_iso_get_bytes(r, &n);
}

/* ---- the worker ------------------------------------------------------- */

static char iso_altstack[64 << 10];

/* A fatal signal in the worker: the backtrace goes to stderr (the capture
 * file), then the signal ends the worker as it would have. */
static void iso_fatal(int sig)
{
    static const char head[] = "\npbcheck: worker: fatal signal, backtrace:\n";
    void *frames[48];
    ssize_t ignored = write(STDERR_FILENO, head, sizeof(head) - 1);
    (void)ignored;
    int n = backtrace(frames, 48);
    backtrace_symbols_fd(frames, n, STDERR_FILENO);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void worker_setup(const pbc_iso_limits *lim, pid_t parent)
{
    /* A worker never outlives its caller, however the caller ends. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(0);
    signal(SIGINT, SIG_IGN); /* Ctrl-C is the caller's to handle: it stops us */
    signal(SIGTERM, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    if (lim->job_seconds > 0 && lim->batch) {
        rlim_t cpu = (rlim_t)(lim->job_seconds * lim->batch) + 10;
        struct rlimit rl = {cpu, cpu + 5};
        setrlimit(RLIMIT_CPU, &rl);
    }
    if (!ISO_ASAN && lim->memory_bytes) {
        struct rlimit rl = {lim->memory_bytes, lim->memory_bytes};
        setrlimit(RLIMIT_DATA, &rl);
    }
    if (!ISO_ASAN) { /* the sanitizer reports these itself, better */
        stack_t ss = {.ss_sp = iso_altstack, .ss_size = sizeof(iso_altstack)};
        sigaltstack(&ss, NULL);
        static const int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
        for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) {
            struct sigaction sa;
            memset(&sa, 0, sizeof(sa));
            sa.sa_handler = iso_fatal;
            sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
            sigemptyset(&sa.sa_mask);
            sigaction(fatal[i], &sa, NULL);
        }
        backtrace((void *[1]){0}, 1); /* loads libgcc now, not in a handler */
    }
}

static void worker_main(pbc_iso *iso, int in, int out, pid_t parent)
{
    worker_setup(&iso->lim, parent);
    for (;;) {
        uint32_t len;
        if (read_all(in, &len, sizeof(len)))
            _exit(0); /* the caller is done with us */
        uint8_t *job = pbc_xmalloc(len ? len : 1);
        if (read_all(in, job, len))
            _exit(0);
        size_t answer_len = 0;
        uint8_t *answer = iso->fn(iso->ctx, job, len, &answer_len);
        free(job);
        fflush(stdout);
        fflush(stderr);
        if (send_frame(out, answer, answer_len))
            _exit(0);
        free(answer);
    }
}

/* ---- the caller ------------------------------------------------------- */

pbc_iso *pbc_iso_create(const pbc_iso_limits *limits, pbc_iso_job_fn fn, void *ctx)
{
    pbc_iso *iso = pbc_xcalloc(1, sizeof(*iso));
    iso->lim = *limits;
    iso->fn = fn;
    iso->ctx = ctx;
    iso->to_worker = iso->from_worker = iso->output = -1;
    signal(SIGPIPE, SIG_IGN); /* a dead worker's pipe is an answer, not our death */
    return iso;
}

pid_t pbc_iso_worker(const pbc_iso *iso) { return iso ? iso->pid : 0; }

void pbc_iso_set_waiting(pbc_iso *iso, void (*fn)(void *ctx, double seconds), void *ctx)
{
    iso->waiting = fn;
    iso->waiting_ctx = ctx;
}

/* Ends the worker: closes its pipes (it exits when it reads EOF), kills
 * it if asked, and reaps it. Returns its wait status. */
static int worker_stop(pbc_iso *iso, int kill_it)
{
    int status = 0;
    if (iso->to_worker >= 0)
        close(iso->to_worker);
    if (iso->from_worker >= 0)
        close(iso->from_worker);
    iso->to_worker = iso->from_worker = -1;
    pid_t pid = iso->pid;
    iso->pid = 0; /* before reaping: a signal handler must not kill a reused pid */
    if (pid > 0) {
        if (kill_it)
            kill(pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
    }
    return status;
}

static int worker_start(pbc_iso *iso)
{
    int down[2], up[2];
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
    fflush(NULL);
    /* A SIGINT between fork and noting the pid would miss the worker. */
    sigset_t stop, saved;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    sigprocmask(SIG_BLOCK, &stop, &saved);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0)
        sigprocmask(SIG_SETMASK, &saved, NULL);
    if (pid < 0) {
        sigprocmask(SIG_SETMASK, &saved, NULL);
        close(down[0]);
        close(down[1]);
        close(up[0]);
        close(up[1]);
        return -1;
    }
    if (pid == 0) {
        close(down[1]);
        close(up[0]);
        if (iso->output >= 0) {
            if (iso->lim.capture != PBC_ISO_CAPTURE_STDERR)
                dup2(iso->output, STDOUT_FILENO);
            dup2(iso->output, STDERR_FILENO);
        }
        worker_main(iso, down[0], up[1], parent);
        _exit(0);
    }
    close(down[0]);
    close(up[1]);
    iso->pid = pid;
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

/* Reads a whole frame within the deadline; 0, -1 (the worker is gone),
 * -2 (deadline), -3 (over the memory limit). */
static int receive_frame(pbc_iso *iso, uint8_t **out, size_t *out_len, double deadline, uint64_t *rss_seen)
{
    uint8_t head[4];
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
            uint64_t rss = worker_rss(iso->pid);
            if (rss > *rss_seen)
                *rss_seen = rss;
            if (rss > iso->lim.memory_bytes) {
                free(body);
                return -3;
            }
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
            uint32_t len;
            memcpy(&len, head, sizeof(len));
            if (len > ISO_MAX_ANSWER)
                return -4;
            want = sizeof(head) + len;
            body = pbc_xmalloc(len ? len : 1);
        }
        if (body && have == want) {
            *out = body;
            *out_len = want - sizeof(head);
            return 0;
        }
    }
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

/* A backtrace frame of a shared library, "path.so(+0xOFF) [0x...]" or
 * "path.so(sym+0xOFF) [...]": symbolized with addr2line when it has no
 * name. Returns an owned replacement line, or NULL to keep it. */
static char *symbolize_frame(const char *line)
{
    const char *open = strchr(line, '('), *plus = open ? strstr(open, "(+0x") : NULL;
    if (!open || plus != open || open - line < 4 || strncmp(open - 3, ".so", 3) != 0)
        return NULL;
    char module[1024], offset[32];
    size_t mlen = (size_t)(open - line);
    const char *close = strchr(open, ')');
    if (mlen >= sizeof(module) || !close || (size_t)(close - open - 2) >= sizeof(offset))
        return NULL;
    memcpy(module, line, mlen);
    module[mlen] = 0;
    memcpy(offset, open + 2, (size_t)(close - open - 2));
    offset[close - open - 2] = 0;
    for (const char *c = module; *c; c++)
        if (!(*c == '/' || *c == '.' || *c == '_' || *c == '-' || *c == '+' || (*c >= '0' && *c <= '9') ||
              (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')))
            return NULL; /* keep the shell out of odd paths */
    char *cmd = pbc_xprintf("addr2line -f -C -e '%s' %s 2>/dev/null", module, offset);
    FILE *p = popen(cmd, "r");
    free(cmd);
    if (!p)
        return NULL;
    char fn[512] = "", where[512] = "";
    if (!fgets(fn, sizeof(fn), p) || !fgets(where, sizeof(where), p))
        fn[0] = 0;
    pclose(p);
    fn[strcspn(fn, "\n")] = 0;
    where[strcspn(where, "\n")] = 0;
    if (!fn[0] || !strcmp(fn, "??"))
        return NULL;
    return pbc_xprintf("%s" ISO_FRAME_MARK "%s (%s+%s)", fn, where, module, offset);
}

/* Symbolizes the library frames of a worker backtrace in place. */
static char *symbolize_output(char *out)
{
    if (!out || !strstr(out, "pbcheck: worker: fatal signal"))
        return out;
    size_t cap = strlen(out) + 1, n = 0;
    char *res = pbc_xmalloc(cap);
    for (char *line = out; *line;) {
        char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        char save = line[len];
        line[len] = 0;
        char *sym = symbolize_frame(line);
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

pbc_iso_class pbc_iso_run_scaled(pbc_iso *iso, const uint8_t *job, size_t len, uint32_t units, pbc_iso_result *r)
{
    double seconds = iso->lim.job_seconds * (units ? units : 1);
    memset(r, 0, sizeof(*r));
    if (iso->pid && iso->lim.batch && iso->jobs >= iso->lim.batch)
        worker_stop(iso, 0);
    off_t from = 0;
    for (int attempt = 0;; attempt++) {
        if (!iso->pid && worker_start(iso)) {
            r->cls = PBC_ISO_CRASH;
            snprintf(r->detail, sizeof(r->detail), "cannot start a worker process: %s", strerror(errno));
            return r->cls;
        }
        from = iso->output >= 0 ? lseek(iso->output, 0, SEEK_END) : 0; /* before the worker can write */
        if (send_frame(iso->to_worker, job, len) == 0)
            break;
        worker_stop(iso, 1); /* it died between jobs: a fresh one takes this job */
        if (attempt == 1) {
            r->cls = PBC_ISO_CRASH;
            snprintf(r->detail, sizeof(r->detail), "the worker process dies before it reads a job");
            return r->cls;
        }
    }
    iso->jobs++;
    double deadline = seconds > 0 ? now_seconds() + seconds : 0;
    uint64_t rss = 0;
    int got = receive_frame(iso, &r->answer, &r->answer_len, deadline, &rss);
    if (got == 0)
        return r->cls = PBC_ISO_OK;
    int status = worker_stop(iso, 1);
    r->output = symbolize_output(read_output(iso->output, from));
    if (got == -4) {
        r->cls = PBC_ISO_CRASH;
        snprintf(r->detail, sizeof(r->detail), "the worker's answer is garbled (its memory was overwritten)");
    } else if (got == -2) {
        r->cls = PBC_ISO_TIMEOUT;
        snprintf(r->detail, sizeof(r->detail), "no answer within %g s (stopped)", seconds);
    } else if (got == -3) {
        r->cls = PBC_ISO_OOM;
        snprintf(r->detail, sizeof(r->detail), "resident memory %.1f MiB over the limit of %.1f MiB (stopped)",
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
    worker_stop(iso, 0);
    if (iso->output >= 0)
        close(iso->output);
    free(iso);
}
