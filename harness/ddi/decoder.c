/*
 * The vendor's ISA description in decoder processes of its own
 * (decoder.h): the spawner, the decoder process's server, the judge's
 * proxies, the record of answers and the purity audit.
 *
 * The spawner and its judges speak over a SOCK_SEQPACKET socket: a
 * request is one message, the library's path, with one end of a fresh
 * socket pair passed along (SCM_RIGHTS); the spawner answers nothing, it
 * starts a decoder process on that end. It keeps a copy of the end it
 * handed out, so that it sees the judge hang up (POLLHUP) and kills a
 * decoder that is still busy then: a decoder that never answers outlives
 * its judge by one poll.
 *
 * A decoder and its judge speak in frames (wire/wire.h), one per
 * message: a request, then its answer with flag DEC_ANSWER. A message is
 * read with room for one byte more than the largest answer, so a longer
 * one shows as such instead of being cut and taken.
 */
#define _GNU_SOURCE
#include "ddi/decoder.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <xxhash.h>

#include "base/safe.h"
#include "base/util.h"
#include "ddi/link.h"
#include "sandbox/sandbox.h"
#include "wire/wire.h"

enum { DEC_HELLO = 1, DEC_DECODE, DEC_DISASM, DEC_PTE_DECODE };
#define DEC_ANSWER 1u
/* A request's flags: DEC_CPU with the CPU the judge runs on while a case
 * runs (its low 16 bits; DEC_CPU_ANY: none) — a hint the decoder process
 * follows by binding itself there, so that a question and its answer are
 * a switch on one CPU rather than a wake-up of another. */
#define DEC_CPU 0x10000u
#define DEC_CPU_ANY 0xffffu
/* From the spawner, on the decoder's end: how it ended (a wait status). */
#define DEC_ENDED 2u

/* The longest packet an ISA may have: a decode request's window. */
#define DEC_WINDOW (64u << 10)
#define DEC_MAX_REQUEST (DEC_WINDOW + 64u)
/* Packets one decode request answers at most, and the largest answer:
 * each packet's status, micro-op, length and (for the last) a reason. */
#define DEC_RUN 512u
#define DEC_WHY_BYTES 96u
#define DEC_MAX_ANSWER (DEC_RUN * (16u + (uint32_t)sizeof(pbc_uop)) + DEC_WHY_BYTES + 1024u)
#define DEC_LINE_BYTES 256u
/* The record of answers shared with the workers. */
#define DEC_RECORD_BYTES ((size_t)64 << 20)
/* Questions each worker remembers the answers of. */
#define DEC_MEMO_SLOTS 16384u
/* Of the questions asked again, one in this many crosses to the decoder
 * process; the rest are answered from the record. */
#define DEC_RECHECK 16u
/* A decoder process that cannot load its library ends so. */
#define DEC_LOAD_EXIT 126

typedef struct dec_record_head {
    _Atomic uint64_t used;
    _Atomic uint32_t dropped;
    uint32_t unused;
} dec_record_head;

typedef struct dec_record {
    uint32_t size; /* bytes of the whole record, a multiple of 8 */
    _Atomic uint32_t ready;
    uint32_t library, req_len, ans_len, unused;
    /* then the request's body, then the answer's */
} dec_record;

static struct {
    int spawner; /* the judges' end of the spawner's socket */
    pid_t spawner_pid;
    pbc_decoder_load_fn *load;
    dec_record_head *record;
} dec = {.spawner = -1};

double pbc_decoder_deadline(void)
{
    const char *s = getenv("PBCHECK_DECODER_SECONDS");
    double v = s && *s ? strtod(s, NULL) : 0;
    return v > 0 && v < 3600 ? v : 10.0;
}

/* ---- the decoder process ------------------------------------------------ */

/* On top of the driver process's filter: what a pure function of bytes
 * never needs ends the process (SIGSYS): a new process or thread, a
 * program, a file opened, a socket. Memory (brk, mmap) and the reads and
 * writes of its one socket stay. */
static int dec_seccomp_strict(void)
{
#if defined(__x86_64__) || defined(__aarch64__)
#if defined(__x86_64__)
    const uint32_t arch = AUDIT_ARCH_X86_64;
#else
    const uint32_t arch = AUDIT_ARCH_AARCH64;
#endif
    static const int killed[] = {
        SYS_clone, SYS_execve, SYS_execveat, SYS_openat, SYS_socket, SYS_socketpair, SYS_connect,
        SYS_bind, SYS_listen, SYS_accept, SYS_accept4, SYS_ptrace, SYS_memfd_create,
#ifdef SYS_clone3
        SYS_clone3,
#endif
#ifdef SYS_openat2
        SYS_openat2,
#endif
#ifdef SYS_open_by_handle_at
        SYS_open_by_handle_at,
#endif
#if defined(__x86_64__)
        SYS_fork, SYS_vfork, SYS_open, SYS_creat,
#endif
    };
    struct sock_filter op[8 + 2 * sizeof(killed) / sizeof(killed[0])];
    unsigned n = 0;
    op[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
    op[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, arch, 1, 0);
    op[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
    op[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
    for (size_t i = 0; i < sizeof(killed) / sizeof(killed[0]); i++) {
        op[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)killed[i], 0, 1);
        op[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
    }
    op[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    struct sock_fprog prog = {(unsigned short)n, op};
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) ? -1 : 0;
#else
    errno = ENOSYS;
    return -1;
#endif
}



static uint32_t dec_hooks(const pbc_isa *isa)
{
    return (isa->decode ? PBC_DECODER_HOOK_DECODE : 0) | (isa->disasm ? PBC_DECODER_HOOK_DISASM : 0) |
           (pbc_isa_pte_decode(isa) ? PBC_DECODER_HOOK_PTE_DECODE : 0);
}

/* One request, answered into out. */
static void dec_answer(const pbc_isa *isa, pbc_wire_reader *r, pbc_wire_buf *out)
{
    switch (pbc_wire_get_u32(r)) {
    case DEC_HELLO:
        pbc_wire_put_str(out, isa->name ? isa->name : "");
        pbc_wire_put_u32(out, dec_hooks(isa));
        pbc_wire_put_u32(out, pbc_isa_pte_size(isa));
        pbc_wire_put_u32(out, pbc_isa_pt_levels(isa));
        break;
    case DEC_DECODE: {
        size_t n = 0;
        uint8_t *bytes = pbc_wire_get_bytes(r, &n);
        pbc_wire_buf run = {0};
        uint32_t count = 0;
        for (size_t at = 0; bytes && at < n && count < DEC_RUN;) {
            pbc_uop u;
            memset(&u, 0, sizeof(u));
            size_t len = 0;
            const char *why = NULL;
            pbc_decode_status st = isa->decode(bytes + at, n - at, &u, &len, &why);
            int ok = st == PBC_DECODE_OK && len > 0 && len <= n - at;
            char reason[DEC_WHY_BYTES] = "";
            if (st != PBC_DECODE_OK) /* a reason only for a fault */
                snprintf(reason, sizeof(reason), "%s", why ? why : "fault");
            pbc_wire_put_u32(&run, st);
            pbc_wire_put_bytes(&run, &u, sizeof(u));
            pbc_wire_put_u32(&run, (uint32_t)len);
            pbc_wire_put_str(&run, st == PBC_DECODE_OK ? NULL : reason);
            count++;
            if (!ok)
                break;
            at += len;
        }
        pbc_wire_put_u32(out, count);
        pbc_wire_put_raw(out, run.p, run.n);
        free(run.p);
        free(bytes);
        break;
    }
    case DEC_DISASM: {
        size_t n = 0;
        uint8_t *bytes = pbc_wire_get_bytes(r, &n);
        char line[DEC_LINE_BYTES] = "";
        size_t len = bytes && n ? isa->disasm(bytes, n, line, sizeof(line)) : 0;
        line[sizeof(line) - 1] = '\0';
        pbc_wire_put_u32(out, (uint32_t)(len > UINT32_MAX ? UINT32_MAX : len));
        pbc_wire_put_str(out, line);
        free(bytes);
        break;
    }
    case DEC_PTE_DECODE: {
        size_t n = 0;
        uint8_t *entry = pbc_wire_get_bytes(r, &n);
        uint32_t level = pbc_wire_get_u32(r);
        uint64_t flags = 0, page = 0;
        pbc_pte_decode_fn *fn = pbc_isa_pte_decode(isa);
        int rc = entry && fn && n == pbc_isa_pte_size(isa) ? fn(entry, level, &flags, &page) : -1;
        pbc_wire_put_u32(out, (uint32_t)rc);
        pbc_wire_put_u64(out, flags);
        pbc_wire_put_u64(out, page);
        free(entry);
        break;
    }
    default:
        _exit(0); /* not a judge's request */
    }
}

static uint8_t dec_in[sizeof(pbc_wire_head) + DEC_MAX_REQUEST];

_Noreturn static void dec_serve(int fd, const char *path)
{
    int filters = pbc_sandbox_seccomp_available();
    /* Nothing of the judge's to read: the answers depend on bytes only. */
    clearenv();
    char why[1024];
    const pbc_isa *isa = dec.load(path, why, sizeof(why));
    if (!isa)
        _exit(DEC_LOAD_EXIT);
    if (filters && (pbc_sandbox_seccomp_here() || dec_seccomp_strict()))
        _exit(DEC_LOAD_EXIT);
    cpu_set_t allowed;
    int can_bind = sched_getaffinity(0, sizeof(allowed), &allowed) == 0;
    uint32_t bound = DEC_CPU_ANY;
    for (;;) {
        ssize_t got = recv(fd, dec_in, sizeof(dec_in), 0);
        if (got < (ssize_t)sizeof(pbc_wire_head))
            _exit(0); /* the judge hung up */
        pbc_wire_head h;
        memcpy(&h, dec_in, sizeof(h));
        if (h.tag != PBC_WIRE_TAG || (h.flags && (!(h.flags & DEC_CPU) || (h.flags & ~(DEC_CPU | DEC_CPU_ANY)))) ||
            h.len != (size_t)got - sizeof(h))
            _exit(0);
        uint32_t cpu = h.flags ? h.flags & DEC_CPU_ANY : DEC_CPU_ANY;
        if (can_bind && cpu != bound) {
            cpu_set_t one = allowed;
            if (cpu != DEC_CPU_ANY && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &allowed)) {
                CPU_ZERO(&one);
                CPU_SET(cpu, &one);
            }
            sched_setaffinity(0, sizeof(one), &one);
            bound = cpu;
        }
        pbc_wire_reader r = {dec_in + sizeof(h), h.len, 0, 0};
        pbc_wire_buf out = {0};
        pbc_wire_head a = {0, PBC_WIRE_TAG, h.seq, DEC_ANSWER};
        pbc_wire_put_raw(&out, &a, sizeof(a));
        dec_answer(isa, &r, &out);
        a.len = (uint32_t)(out.n - sizeof(a));
        memcpy(out.p, &a, sizeof(a));
        if (send(fd, out.p, out.n, MSG_NOSIGNAL) != (ssize_t)out.n)
            _exit(0);
        free(out.p);
    }
}

/* ---- the spawner -------------------------------------------------------- */

typedef struct spawned {
    pid_t pid;
    int watch; /* a copy of the decoder's end: POLLHUP when its judge hangs up */
    int ended; /* a pidfd of it: readable when it ended, so the copy goes and its judge reads the end */
} spawned;

static void spawn_one(int fd, const char *path, spawned **live, uint32_t *count, uint32_t *cap)
{
    const int keep[] = {fd};
    pbc_sandbox_policy policy = {.keep_fds = keep, .keep_count = 1, .scratch = NULL, .shared = NULL, .seccomp = 0};
    pid_t pid = pbc_sandbox_fork(&policy, NULL);
    if (pid == 0)
        dec_serve(fd, path);
    if (pid < 0) {
        close(fd); /* the judge reads the end of its socket: no decoder */
        return;
    }
    spawned s = {pid, fd, (int)syscall(SYS_pidfd_open, pid, 0)};
    PBC_PUSH(*live, *count, *cap, s);
}

_Noreturn static void spawner_main(int requests)
{
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
        _exit(0); /* a decoder never reaches pbcheck's terminal */
    spawned *live = NULL;
    uint32_t count = 0, cap = 0;
    for (;;) {
        struct pollfd *p = pbc_xcalloc(2 * count + 1, sizeof(*p));
        p[0] = (struct pollfd){requests, POLLIN, 0};
        for (uint32_t i = 0; i < count; i++) {
            p[2 * i + 1] = (struct pollfd){live[i].watch, 0, 0};
            p[2 * i + 2] = (struct pollfd){live[i].ended, POLLIN, 0};
        }
        poll(p, 2 * count + 1, 1000);
        for (uint32_t i = count; i-- > 0;) {
            int status = 0, hung_up = p[2 * i + 1].revents != 0, reaped = 0;
            if (!hung_up && !p[2 * i + 2].revents) {
                /* Without a pidfd, its end is looked for once a second. */
                reaped = live[i].ended < 0 && waitpid(live[i].pid, &status, WNOHANG) == live[i].pid;
                if (!reaped)
                    continue;
            }
            if (!reaped) {
                kill(live[i].pid, SIGKILL); /* its judge is gone, or it ended: either way, so is it */
                waitpid(live[i].pid, &status, 0);
            }
            if (!hung_up) { /* the judge reads how it ended before the end of its socket */
                uint32_t f[5] = {4, PBC_WIRE_TAG, 0, DEC_ENDED, (uint32_t)status};
                send(live[i].watch, f, sizeof(f), MSG_NOSIGNAL | MSG_DONTWAIT);
            }
            pbc_sandbox_forget(live[i].pid);
            close(live[i].watch);
            if (live[i].ended >= 0)
                close(live[i].ended);
            live[i] = live[--count];
        }
        short ask = p[0].revents;
        free(p);
        if (ask & (POLLHUP | POLLERR))
            _exit(0);
        if (!(ask & POLLIN))
            continue;
        char path[4096];
        char ctl[CMSG_SPACE(sizeof(int))];
        struct iovec io = {path, sizeof(path) - 1};
        struct msghdr m = {.msg_iov = &io, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof(ctl)};
        ssize_t got = recvmsg(requests, &m, MSG_CMSG_CLOEXEC);
        if (got <= 0)
            _exit(0); /* pbcheck is gone */
        path[got] = '\0';
        struct cmsghdr *c = CMSG_FIRSTHDR(&m);
        if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS || c->cmsg_len != CMSG_LEN(sizeof(int)))
            continue;
        int fd;
        memcpy(&fd, CMSG_DATA(c), sizeof(fd));
        spawn_one(fd, path, &live, &count, &cap);
    }
}

int pbc_decoder_spawner_start(pbc_decoder_load_fn *load)
{
    if (dec.spawner >= 0)
        return 0;
    int ends[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends))
        return -1;
    dec.load = load;
    pid_t self = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(ends[0]);
        close(ends[1]);
        return -1;
    }
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != self)
            _exit(0);
        close(ends[0]);
        spawner_main(ends[1]);
    }
    close(ends[1]);
    dec.spawner = ends[0];
    dec.spawner_pid = pid;
    pbc_sandbox_own_child(pid, 1);
    /* After the fork: the spawner and its decoders never see it. */
    void *m = mmap(NULL, DEC_RECORD_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m != MAP_FAILED) {
        dec.record = m;
        atomic_store(&dec.record->used, sizeof(dec_record_head));
    }
    return 0;
}

int pbc_decoder_spawner_fd(void) { return dec.spawner; }
void pbc_decoder_spawner_moved(int fd) { dec.spawner = fd; }

void pbc_decoder_driver_forget(void)
{
    if (dec.record)
        munmap(dec.record, DEC_RECORD_BYTES);
    dec.record = NULL;
    dec.spawner = -1;
}

/* ---- a judge's side ----------------------------------------------------- */

typedef struct dec_link {
    int fd;
    uint32_t seq;
} dec_link;

/* A fresh decoder process of the library at path: 0, or -1 with why. */
static int dec_open(dec_link *l, const char *path, char *why, size_t why_size)
{
    int ends[2];
    l->fd = -1;
    if (dec.spawner < 0 || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends)) {
        snprintf(why, why_size, "could not be asked for: %s", dec.spawner < 0 ? "no spawner" : strerror(errno));
        return -1;
    }
    char ctl[CMSG_SPACE(sizeof(int))];
    memset(ctl, 0, sizeof(ctl));
    struct iovec io = {(void *)path, strlen(path)};
    struct msghdr m = {.msg_iov = &io, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof(ctl)};
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &ends[1], sizeof(int));
    ssize_t sent = sendmsg(dec.spawner, &m, MSG_NOSIGNAL);
    int e = errno;
    close(ends[1]);
    if (sent != (ssize_t)io.iov_len) {
        close(ends[0]);
        snprintf(why, why_size, "could not be asked for: %s", strerror(e));
        return -1;
    }
    l->fd = ends[0];
    if (getrandom(&l->seq, sizeof(l->seq), 0) != (ssize_t)sizeof(l->seq))
        l->seq = (uint32_t)getpid() * 2654435761u;
    return 0;
}

static uint8_t dec_out[sizeof(pbc_wire_head) + DEC_MAX_ANSWER + 1];

/* One request (body req) and its answer's body (owned) in *ans: 0, or -1
 * with why (the decoder died, was late, or answered with no answer). */
static int dec_ask(dec_link *l, const pbc_wire_buf *req, uint8_t **ans, size_t *ans_len, char *why, size_t why_size)
{
    uint32_t seq = ++l->seq;
    pbc_wire_buf f = {0};
    int cpu = pbc_ddi_pinned_cpu();
    uint32_t hint = DEC_CPU | (cpu >= 0 && cpu < (int)DEC_CPU_ANY ? (uint32_t)cpu : DEC_CPU_ANY);
    pbc_wire_head h = {(uint32_t)req->n, PBC_WIRE_TAG, seq, hint};
    pbc_wire_put_raw(&f, &h, sizeof(h));
    pbc_wire_put_raw(&f, req->p, req->n);
    ssize_t sent = send(l->fd, f.p, f.n, MSG_NOSIGNAL);
    free(f.p);
    if (sent != (ssize_t)f.n) {
        snprintf(why, why_size, "is gone (it died, or could not be started)");
        return -1;
    }
    double deadline = pbc_decoder_deadline();
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        double left = deadline - ((double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) / 1e9);
        if (left <= 0) {
            snprintf(why, why_size, "gave no answer within %g s", deadline);
            return -1;
        }
        struct pollfd p = {l->fd, POLLIN, 0};
        int n = poll(&p, 1, (int)(left * 1000) + 1);
        if (n > 0)
            break;
        if (n < 0 && errno != EINTR) {
            snprintf(why, why_size, "could not be waited for: %s", strerror(errno));
            return -1;
        }
    }
    ssize_t got = recv(l->fd, dec_out, sizeof(dec_out), MSG_TRUNC | MSG_DONTWAIT);
    if (got <= 0) {
        snprintf(why, why_size, "is gone (it died, or could not be started)");
        return -1;
    }
    if ((size_t)got > sizeof(dec_out) - 1) {
        snprintf(why, why_size, "answered with %zd bytes, over the limit of %zu", got, sizeof(dec_out) - 1);
        return -1;
    }
    if ((size_t)got < sizeof(h)) {
        snprintf(why, why_size, "answered with a frame of %zd bytes, shorter than a header", got);
        return -1;
    }
    memcpy(&h, dec_out, sizeof(h));
    if (h.tag == PBC_WIRE_TAG && h.flags == DEC_ENDED && h.len == 4 && (size_t)got == sizeof(h) + 4) {
        uint32_t status;
        memcpy(&status, dec_out + sizeof(h), 4);
        if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS)
            snprintf(why, why_size, "was killed by SIGSYS: it made a system call no decoder may make (a new "
                     "process, a file opened, a socket)");
        else if (WIFSIGNALED(status))
            snprintf(why, why_size, "died of signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
        else if (WEXITSTATUS(status) == DEC_LOAD_EXIT)
            snprintf(why, why_size, "could not load the library or take its seccomp layers");
        else
            snprintf(why, why_size, "exited with status %d", WEXITSTATUS(status));
        return -1;
    }
    const char *bad = pbc_wire_check(&h, seq, DEC_ANSWER, DEC_MAX_ANSWER);
    if (!bad && h.flags != DEC_ANSWER)
        bad = "a frame that is not an answer";
    if (!bad && h.len != (size_t)got - sizeof(h))
        bad = "a frame whose length is not its size";
    if (bad) {
        snprintf(why, why_size, "answered with %s", bad);
        return -1;
    }
    *ans = pbc_xmalloc(h.len + 1);
    memcpy(*ans, dec_out + sizeof(h), h.len);
    *ans_len = h.len;
    return 0;
}

/* The decoder's identity (DEC_HELLO), read whole: 0, or -1 with why. */
static int dec_hello(dec_link *l, pbc_decoder_identity *id, char *why, size_t why_size)
{
    pbc_wire_buf req = {0};
    pbc_wire_put_u32(&req, DEC_HELLO);
    uint8_t *ans;
    size_t n;
    int rc = dec_ask(l, &req, &ans, &n, why, why_size);
    free(req.p);
    if (rc)
        return -1;
    pbc_wire_reader r = {ans, n, 0, 0};
    char *name = pbc_wire_get_text(&r, 0);
    id->hooks = pbc_wire_get_u32(&r);
    id->pte_size = pbc_wire_get_u32(&r);
    id->pt_levels = pbc_wire_get_u32(&r);
    int ok = pbc_wire_done(&r) && name;
    snprintf(id->isa, sizeof(id->isa), "%s", name ? name : "");
    free(name);
    free(ans);
    if (!ok)
        snprintf(why, why_size, "stated its identity in a garbled answer");
    return ok ? 0 : -1;
}

/* A decode answer's packet i, in a few words; -1 when it has none. */
static int dec_packet(const uint8_t *ans, size_t ans_len, uint32_t i, char *out, size_t size)
{
    pbc_wire_reader r = {ans, ans_len, 0, 0};
    uint32_t count = pbc_wire_get_u32(&r);
    for (uint32_t k = 0; k < count && !r.bad; k++) {
        uint32_t st = pbc_wire_get_u32(&r);
        size_t n = 0;
        uint8_t *u = pbc_wire_get_bytes(&r, &n);
        uint32_t len = pbc_wire_get_u32(&r);
        char *why = pbc_wire_get_text(&r, 0);
        pbc_uop o;
        memset(&o, 0, sizeof(o));
        if (u && n == sizeof(o))
            memcpy(&o, u, sizeof(o));
        if (k == i && st == PBC_DECODE_OK)
            snprintf(out, size,
                     "micro-op %u of %u bytes {dst 0x%llx src 0x%llx size %llu value 0x%llx index 0x%llx width %u "
                     "segment %u flags 0x%x}",
                     o.kind, len, (unsigned long long)o.dst, (unsigned long long)o.src, (unsigned long long)o.size,
                     (unsigned long long)o.value, (unsigned long long)o.index, o.width, o.segment, o.flags);
        else if (k == i)
            snprintf(out, size, "a fault ('%s')", why ? why : "");
        free(u);
        free(why);
        if (k == i)
            return 0;
    }
    return -1;
}

/* What an answer says, in a few words, for a finding (made safe later);
 * for a decode answer, its packet `packet`. */
static void dec_describe(const uint8_t *req, size_t req_len, const uint8_t *ans, size_t ans_len, uint32_t packet,
                         char *out, size_t size)
{
    pbc_wire_reader q = {req, req_len, 0, 0};
    pbc_wire_reader r = {ans, ans_len, 0, 0};
    uint32_t kind = pbc_wire_get_u32(&q);
    if (!ans) {
        snprintf(out, size, "something else");
    } else if (kind == DEC_DECODE) {
        if (dec_packet(ans, ans_len, packet, out, size))
            snprintf(out, size, "no packet %u", packet);
    } else if (kind == DEC_DISASM) {
        uint32_t len = pbc_wire_get_u32(&r);
        char *line = pbc_wire_get_text(&r, 0);
        snprintf(out, size, "'%s' (%u bytes)", line ? line : "", len);
        free(line);
    } else if (kind == DEC_PTE_DECODE) {
        uint32_t rc = pbc_wire_get_u32(&r);
        uint64_t flags = pbc_wire_get_u64(&r), page = pbc_wire_get_u64(&r);
        snprintf(out, size, "rc %d, flags 0x%llx, page 0x%llx", (int)rc, (unsigned long long)flags,
                 (unsigned long long)page);
    } else {
        snprintf(out, size, "%zu bytes", ans_len);
    }
}

/* The first bytes of a request's packet, in hex, for a finding. */
static void dec_bytes(const uint8_t *req, size_t req_len, char *out, size_t size)
{
    pbc_wire_reader q = {req, req_len, 0, 0};
    pbc_wire_get_u32(&q);
    size_t n = 0;
    uint8_t *b = pbc_wire_get_bytes(&q, &n);
    size_t at = 0;
    out[0] = 0;
    for (size_t i = 0; b && i < n && i < 16 && at + 3 < size; i++)
        at += (size_t)snprintf(out + at, size - at, "%02x", b[i]);
    if (b && n > 16 && at + 4 < size)
        snprintf(out + at, size - at, "...");
    free(b);
}

static void dec_finding(const uint8_t *req, size_t req_len, const uint8_t *first, size_t first_len,
                        const uint8_t *then, size_t then_len, const char *where, char *out, size_t size)
{
    char hex[48], a[320], b[320];
    dec_bytes(req, req_len, hex, sizeof(hex));
    uint32_t packet = 0;
    pbc_wire_reader q = {req, req_len, 0, 0};
    if (first && pbc_wire_get_u32(&q) == DEC_DECODE) /* the first packet the two answers disagree on */
        for (; packet < DEC_RUN; packet++) {
            int x = dec_packet(first, first_len, packet, a, sizeof(a));
            int y = dec_packet(then, then_len, packet, b, sizeof(b));
            if (x || y || strcmp(a, b))
                break;
        }
    dec_describe(req, req_len, first, first_len, packet, a, sizeof(a));
    dec_describe(req, req_len, then, then_len, packet, b, sizeof(b));
    char at[48] = "";
    if (packet)
        snprintf(at, sizeof(at), " (its packet %u)", packet);
    snprintf(out, size, "the ISA description is not a pure function: bytes %s%s decoded as %s, then as %s%s", hex,
             at, a, b, where);
}

/* ---- the record and the memo (in a worker) ------------------------------ */

static struct {
    uint64_t key, answer;
    uint64_t record; /* its offset in the record, or 0 */
} memo[DEC_MEMO_SLOTS];

/* The record of a new question, or 0 when there is no room. */
static uint64_t record_add(uint32_t library, const pbc_wire_buf *req, const uint8_t *ans, size_t ans_len)
{
    dec_record_head *h = dec.record;
    if (!h)
        return 0;
    size_t size = (sizeof(dec_record) + req->n + ans_len + 7) & ~(size_t)7;
    uint64_t at = atomic_fetch_add(&h->used, size);
    if (at + size > DEC_RECORD_BYTES) {
        atomic_fetch_add(&h->dropped, 1);
        return 0;
    }
    dec_record *r = (dec_record *)((uint8_t *)h + at);
    r->library = library;
    r->req_len = (uint32_t)req->n;
    r->ans_len = (uint32_t)ans_len;
    memcpy(r + 1, req->p, req->n);
    memcpy((uint8_t *)(r + 1) + req->n, ans, ans_len);
    r->size = (uint32_t)size;
    atomic_store(&r->ready, 1);
    return at;
}

/* The question and its answer, remembered; 0, or -1 with a finding when
 * the same question had another answer before. */
static uint64_t memo_key(uint32_t library, const pbc_wire_buf *req)
{
    return XXH3_64bits_withSeed(req->p, req->n, library) | 1;
}

static int memo_note(uint32_t library, uint64_t key, const pbc_wire_buf *req, const uint8_t *ans, size_t ans_len,
                     char *why, size_t why_size)
{
    uint64_t answer = XXH3_64bits(ans, ans_len);
    for (uint32_t probe = 0; probe < 16; probe++) {
        uint32_t i = (uint32_t)(key + probe) % DEC_MEMO_SLOTS;
        if (memo[i].key == key) {
            if (memo[i].answer == answer)
                return 0;
            const dec_record *r = memo[i].record ? (const dec_record *)((uint8_t *)dec.record + memo[i].record) : NULL;
            if (r)
                dec_finding(req->p, req->n, (const uint8_t *)(r + 1) + r->req_len, r->ans_len, ans, ans_len,
                            " by the same decoder process", why, why_size);
            else
                dec_finding(req->p, req->n, NULL, 0, ans, ans_len, " by the same decoder process", why, why_size);
            return -1;
        }
        if (!memo[i].key) {
            memo[i].key = key;
            memo[i].answer = answer;
            memo[i].record = record_add(library, req, ans, ans_len);
            return 0;
        }
    }
    record_add(library, req, ans, ans_len); /* no room to remember: still audited */
    return 0;
}

/* A question this worker asked before: its recorded answer, or NULL (not
 * asked, or not recorded). The request's bytes are compared whole. */
static const dec_record *memo_known(uint32_t library, uint64_t key, const pbc_wire_buf *req)
{
    for (uint32_t probe = 0; probe < 16; probe++) {
        uint32_t i = (uint32_t)(key + probe) % DEC_MEMO_SLOTS;
        if (!memo[i].key)
            return NULL;
        if (memo[i].key != key)
            continue;
        if (!memo[i].record)
            return NULL;
        const dec_record *r = (const dec_record *)((uint8_t *)dec.record + memo[i].record);
        if (r->library != library || r->req_len != req->n || memcmp(r + 1, req->p, req->n))
            return NULL;
        return r;
    }
    return NULL;
}

/* ---- the proxies (in a split worker) ------------------------------------ */

static struct {
    const char *path;
    uint32_t index;
    const pbc_isa *isa; /* the judge's copy of the description */
    dec_link link;
    int open;
    uint64_t known; /* questions asked again: memo_known */
} judge;

/* The decoder failed its judge: the worker ends as the builder's failure,
 * after one line (what the decoder process did, or a finding). */
_Noreturn static void dec_end(const char *what, const char *why)
{
    char *safe = pbc_safe_text(why, 0);
    fprintf(stderr, "pbcheck: %s%s\n", what, safe ? safe : "failed");
    free(safe);
    fflush(stderr);
    _exit(PBC_DDI_LOST_EXIT);
}

_Noreturn static void dec_lost(const char *why) { dec_end("the ISA decoder process ", why); }

/* DEC_RECHECK, or PBCHECK_DECODER_RECHECK=N (1: every question asked
 * again crosses). */
static uint32_t dec_recheck(void)
{
    static uint32_t every;
    if (!every) {
        const char *s = getenv("PBCHECK_DECODER_RECHECK");
        unsigned long v = s && *s ? strtoul(s, NULL, 10) : 0;
        every = v >= 1 && v <= 1u << 20 ? (uint32_t)v : DEC_RECHECK;
    }
    return every;
}

static void judge_ask(const pbc_wire_buf *req, pbc_wire_reader *r, uint8_t **keep)
{
    char why[1024];
    if (!judge.open) {
        pbc_decoder_identity id;
        memset(&id, 0, sizeof(id));
        if (dec_open(&judge.link, judge.path, why, sizeof(why)) || dec_hello(&judge.link, &id, why, sizeof(why)))
            dec_lost(why);
        const char *name = judge.isa->name ? judge.isa->name : "";
        if (strncmp(id.isa, name, sizeof(id.isa) - 1) || id.hooks != dec_hooks(judge.isa) ||
            id.pte_size != pbc_isa_pte_size(judge.isa) || id.pt_levels != pbc_isa_pt_levels(judge.isa))
            dec_lost("states another ISA description than the library's (its pbc_target_get is not deterministic)");
        judge.open = 1;
    }
    /* A question asked before is answered from the record, but one such
     * answer in DEC_RECHECK is asked again, so that a decoder whose answers
     * drift is still caught in the worker (memo_note), not only by the
     * audit at the end of the run. */
    uint64_t key = memo_key(judge.index, req); /* once: a decode window is up to 64 KiB */
    const dec_record *known = memo_known(judge.index, key, req);
    if (known && judge.known++ % dec_recheck() != 0) {
        *keep = pbc_xmalloc(known->ans_len ? known->ans_len : 1);
        memcpy(*keep, (const uint8_t *)(known + 1) + known->req_len, known->ans_len);
        *r = (pbc_wire_reader){*keep, known->ans_len, 0, 0};
        return;
    }
    size_t n;
    if (dec_ask(&judge.link, req, keep, &n, why, sizeof(why)))
        dec_lost(why);
    if (memo_note(judge.index, key, req, *keep, n, why, sizeof(why)))
        dec_end("", why);
    *r = (pbc_wire_reader){*keep, n, 0, 0};
}

static void judge_done(pbc_wire_reader *r, uint8_t *keep, const char *what)
{
    int ok = pbc_wire_done(r);
    free(keep);
    if (!ok) {
        char why[128];
        snprintf(why, sizeof(why), "answered %s with something that is no answer", what);
        dec_lost(why);
    }
}

/* Decoding goes a window at a time: the packets from where the GPU asks
 * on, decoded one after the other there, come back together, and the
 * GPU's next questions in the same window are answered from them while
 * the packet's bytes are still the bytes decoded (the decoder reads a
 * packet's own bytes: docs/writing-a-target.md). */
typedef struct dec_decoded {
    uint32_t off, len, status;
    pbc_uop uop;
    char why[DEC_WHY_BYTES];
} dec_decoded;
static struct {
    const uint8_t *base;
    size_t end; /* bytes from base the GPU said it may read: the window must end there too */
    uint8_t bytes[DEC_WINDOW];
    dec_decoded d[DEC_RUN];
    uint32_t count;
    uint32_t next; /* the entry after the one served last: the GPU reads on */
} decoded;

static const dec_decoded *decode_cached(const uint8_t *bytes, size_t avail)
{
    if (!decoded.base || bytes < decoded.base || (size_t)(bytes - decoded.base) >= DEC_WINDOW)
        return NULL;
    size_t off = (size_t)(bytes - decoded.base);
    if (off + avail != decoded.end)
        return NULL;
    /* The entries lie in order of their offsets; the GPU mostly asks for
     * the one after the last. */
    uint32_t i = decoded.next, lo = 0, hi = decoded.count;
    if (i >= decoded.count || decoded.d[i].off != off) {
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (decoded.d[mid].off < off)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == decoded.count || decoded.d[lo].off != off)
            return NULL;
        i = lo;
    }
    const dec_decoded *e = &decoded.d[i];
    size_t n = e->status == PBC_DECODE_OK ? e->len : 0;
    if (memcmp(bytes, decoded.bytes + off, n))
        return NULL;
    decoded.next = i + 1;
    return e;
}

static void decode_run(const uint8_t *bytes, size_t avail)
{
    size_t n = avail < DEC_WINDOW ? avail : DEC_WINDOW;
    pbc_wire_buf b = {0};
    pbc_wire_put_u32(&b, DEC_DECODE);
    pbc_wire_put_bytes(&b, bytes, n);
    pbc_wire_reader r;
    uint8_t *keep;
    judge_ask(&b, &r, &keep);
    free(b.p);
    decoded.base = NULL;
    decoded.count = 0;
    decoded.next = 0;
    uint32_t count = pbc_wire_get_u32_max(&r, DEC_RUN);
    uint32_t at = 0;
    for (uint32_t i = 0; i < count && !r.bad; i++) {
        dec_decoded *e = &decoded.d[i];
        e->off = at;
        e->status = pbc_wire_get_u32(&r);
        size_t got = 0;
        uint8_t *u = pbc_wire_get_bytes(&r, &got);
        e->len = pbc_wire_get_u32(&r);
        char *why = pbc_wire_get_text(&r, 0);
        if (e->status == PBC_DECODE_OK && (!u || got != sizeof(e->uop) || e->len == 0 || e->len > n - at))
            e->status = 2; /* out of range: the GPU faults on it */
        if (e->status == PBC_DECODE_OK)
            memcpy(&e->uop, u, sizeof(e->uop));
        else /* only a fault has a reason to keep */
            snprintf(e->why, sizeof(e->why), "%s",
                     e->status == 2 ? "the decoder's answer is out of range" : why ? why : "fault");
        free(u);
        free(why);
        decoded.count = i + 1;
        if (e->status != PBC_DECODE_OK) {
            /* A fault at a window cut short may be the cut: that packet is
             * asked again, with a window that starts at it. */
            if (n < avail && i > 0)
                decoded.count = i;
            break;
        }
        at += e->len;
        if (at >= n)
            break;
    }
    judge_done(&r, keep, "a decode request");
    memcpy(decoded.bytes, bytes, n);
    decoded.base = bytes;
    decoded.end = avail;
}

static pbc_decode_status proxy_decode(const uint8_t *bytes, size_t avail, pbc_uop *uop, size_t *length,
                                      const char **why)
{
    const dec_decoded *e = decode_cached(bytes, avail);
    if (!e) {
        decode_run(bytes, avail);
        e = decode_cached(bytes, avail);
    }
    if (e && e->status == PBC_DECODE_OK) {
        *uop = e->uop;
        *length = e->len;
        return PBC_DECODE_OK;
    }
    *why = e ? e->why : "the decoder did not answer";
    return PBC_DECODE_FAULT;
}

static size_t proxy_disasm(const uint8_t *bytes, size_t avail, char *line, size_t line_size)
{
    pbc_wire_buf b = {0};
    pbc_wire_put_u32(&b, DEC_DISASM);
    size_t n = avail < DEC_WINDOW ? avail : DEC_WINDOW;
    pbc_wire_put_bytes(&b, bytes, n);
    pbc_wire_reader r;
    uint8_t *keep;
    judge_ask(&b, &r, &keep);
    free(b.p);
    uint32_t len = pbc_wire_get_u32(&r);
    char *text = pbc_wire_get_text(&r, 0);
    if (line_size)
        snprintf(line, line_size, "%s", text ? text : "");
    free(text);
    judge_done(&r, keep, "a disassembly request");
    return len <= n ? len : 0;
}

static int proxy_pte_decode(const uint8_t *entry, uint32_t level, uint64_t *flags, uint64_t *page)
{
    pbc_wire_buf b = {0};
    pbc_wire_put_u32(&b, DEC_PTE_DECODE);
    pbc_wire_put_bytes(&b, entry, pbc_isa_pte_size(judge.isa));
    pbc_wire_put_u32(&b, level);
    pbc_wire_reader r;
    uint8_t *keep;
    judge_ask(&b, &r, &keep);
    free(b.p);
    int rc = (int)pbc_wire_get_u32(&r);
    *flags = pbc_wire_get_u64(&r);
    *page = pbc_wire_get_u64(&r);
    judge_done(&r, keep, "a page-table entry");
    return rc == 0 ? 0 : -1;
}

void pbc_decoder_proxy(pbc_isa *isa, const char *path, uint32_t index)
{
    judge.path = path;
    judge.index = index;
    judge.isa = isa;
    isa->decode = proxy_decode;
    isa->disasm = proxy_disasm;
    if (pbc_isa_pte_decode(isa))
        isa->pte_decode = proxy_pte_decode;
}

/* ---- the audit (in pbcheck's process) ----------------------------------- */

static uint32_t audit_limit(void)
{
    const char *s = getenv("PBCHECK_DECODER_AUDIT");
    if (s && !strcmp(s, "all"))
        return UINT32_MAX;
    if (s && *s) {
        char *end;
        unsigned long v = strtoul(s, &end, 10);
        if (!*end)
            return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
    }
    return PBC_DECODER_AUDIT_SAMPLE;
}

int pbc_decoder_audit(const char *path, uint32_t index, pbc_decoder_audit_result *out)
{
    memset(out, 0, sizeof(*out));
    out->pure = 1;
    if (dec.spawner < 0)
        return 1;
    out->ran = 1;
    char why[512];
    dec_link l;
    if (dec_open(&l, path, why, sizeof(why)) || dec_hello(&l, &out->identity, why, sizeof(why))) {
        out->pure = 0;
        snprintf(out->finding, sizeof(out->finding), "the ISA decoder process of the purity audit %s", why);
        if (l.fd >= 0)
            close(l.fd);
        return 0;
    }
    uint64_t *at = NULL;
    uint32_t count = 0, cap = 0;
    if (dec.record) {
        uint64_t used = atomic_load(&dec.record->used);
        uint64_t end = used < DEC_RECORD_BYTES ? used : DEC_RECORD_BYTES;
        for (uint64_t o = sizeof(dec_record_head); o + sizeof(dec_record) <= end;) {
            const dec_record *r = (const dec_record *)((uint8_t *)dec.record + o);
            if (r->size < sizeof(dec_record) || r->size > end - o)
                break; /* a worker died writing it: nothing after it can be found */
            if (atomic_load(&r->ready) && r->library == index &&
                sizeof(dec_record) + (uint64_t)r->req_len + r->ans_len <= r->size)
                PBC_PUSH(at, count, cap, o);
            o += r->size;
        }
        out->dropped = atomic_load(&dec.record->dropped);
    }
    out->recorded = count;
    uint32_t limit = audit_limit();
    /* Latest first: a decoder whose answers drift with its count of calls
     * is asked first, in the fresh process, what it was asked last. */
    for (uint32_t i = count; i-- > 0 && out->audited < limit;) {
        const dec_record *r = (const dec_record *)((uint8_t *)dec.record + at[i]);
        const uint8_t *req = (const uint8_t *)(r + 1), *was = req + r->req_len;
        pbc_wire_buf q = {(uint8_t *)req, r->req_len, r->req_len};
        uint8_t *ans;
        size_t n;
        if (dec_ask(&l, &q, &ans, &n, why, sizeof(why))) {
            out->pure = 0;
            snprintf(out->finding, sizeof(out->finding),
                     "the ISA decoder process of the purity audit %s (asked again what it answered in the run)", why);
            break;
        }
        out->audited++;
        int same = n == r->ans_len && !memcmp(ans, was, n);
        if (!same)
            dec_finding(req, r->req_len, was, r->ans_len, ans, n, " in a fresh decoder process", out->finding,
                        sizeof(out->finding));
        free(ans);
        if (!same) {
            out->pure = 0;
            break;
        }
    }
    free(at);
    close(l.fd);
    char *safe = pbc_safe_text(out->finding, 0);
    if (safe) {
        snprintf(out->finding, sizeof(out->finding), "%s", safe);
        free(safe);
    }
    return out->pure;
}
