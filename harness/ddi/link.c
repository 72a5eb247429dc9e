/*
 * The DDI across a process boundary (link.h): the judge's proxies, the
 * driver process's server, and the frames between them.
 *
 * A call is one frame from the judge (flags 0) and, after any number of
 * callbacks, one answer (DDI_ANSWER). A callback is a frame from the
 * driver process (DDI_CALLBACK) that the judge answers (DDI_REPLY) before
 * it reads on. All carry the call's number; the judge checks every header
 * (pbc_wire_check) and reads every body whole with the bounded reader.
 * The driver process trusts the judge, as a driver trusts its kernel.
 *
 * A call's arguments are copied into the arena (args_*), and the judge's
 * own objects get back exactly the bytes the driver changed in their
 * copies (args_settle): the judge's detectors (guarded MDL pages, poison
 * around buffers, hashes) then see the builder's writes as they see an
 * in-process builder's. A pointer field that comes back is moved by the
 * offset between copy and original when it points into a copy, and kept
 * as the driver left it otherwise: VidMm compares such fields with what it
 * handed out and never follows them.
 */
#define _GNU_SOURCE
#include "ddi/link.h"

#include <errno.h>
#include <link.h>
#include <execinfo.h>
#include <linux/futex.h>
#include <poll.h>
#include <sched.h>
#include <stdatomic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "base/safe.h"
#include "base/util.h"
#include "gpu/gpu.h"
#include "kernel/services.h"
#include "kernel/shim.h"
#include "wire/wire.h"

/* What a frame is (the first word of its body). */
enum {
    K_CREATE_ADAPTER = 1,
    K_DESTROY_ADAPTER,
    K_CREATE_ALLOCATION,
    K_DESTROY_ALLOCATION,
    K_BUILD,
    K_PATCH,
    K_SUBMIT,
    K_GART_VIEW,
    K_CONTEXT_DATA,
    K_CPU_WORK,
    K_YIELD,
    K_WATCH,
    /* callbacks, from the driver process */
    K_RING_SUBMIT = 64,
    K_RING_FENCE,
    K_MMIO_READ,
    K_MMIO_WRITE,
    K_LOG,
    K_QUEUE_CPU_WORK,
    K_WAKE,
    K_MAP_IO,
    K_MAP_MDL,
    K_UNMAP,
    K_PHYS,
    K_FAULT,
    K_STORE,
};

/* A NOTICE is a callback that wants no reply (a doorbell, a fence, a log
 * line, queued CPU work: what only adds to the judge's queues). The
 * driver process keeps its notices and sends them in the same write as
 * its next frame that waits (a callback, a fault or the answer), so the
 * judge takes them in order, just before it, without a crossing each. */
enum { DDI_CALLBACK = 1u, DDI_ANSWER = 2u, DDI_REPLY = 4u, DDI_NOTICE = 8u };

/* The largest frame either side takes: a context allocation's data,
 * never more. */
#define DDI_MAX_FRAME (1u << 20)
#define DDI_PRIVATE_BYTES ((64u << 20) + (8u << 20))

typedef struct ddi_work {
    uint64_t fn, arg; /* the driver process's function and argument, as numbers */
} ddi_work;

/* The views' zone: a shared memory file mapped at the same address in
 * both processes (kernel/shim.h, pbc_shim_split): as many bytes as the
 * shim's views may cover at once. */
#define DDI_ZONE_BYTES ((size_t)4 << 40)
/* The MDLs handed to the driver process live as long as the judge's
 * (a worker thread maps one after the call that handed it). */
#define DDI_MDL_BYTES ((size_t)1 << 30)

static struct {
    uint8_t *arena;
    size_t size;
    uint8_t *zone;
    int zone_fd;
    int ends[2];
    int sock;
    pid_t driver;
    int judging;
    int pinned;        /* the judge: the pair shares one CPU (ddi_pin) */
    int pin_cpu;       /* that CPU */
    cpu_set_t allowed; /* the judge's CPUs before it pinned the pair */
    uint32_t seq;
    uint32_t pools_lent;
    uint32_t proxies; /* the judge: libraries proxied (a store record's frames name one of them) */
    size_t private_used;
    uint32_t private_live;
    /* the judge: VidMm's host of the adapter the driver holds */
    const pbc_host *host;
    ddi_work *work;
    uint32_t work_count, work_cap;
    /* the driver process */
    const pbc_target *const *targets;
    uint32_t target_count;
    uint32_t call_seq; /* the number of the call being served */
} ddi = {.sock = -1, .ends = {-1, -1}};

static uint8_t *ddi_pool_at(uint32_t i) { return ddi.arena + (size_t)i * PBC_DMA_POOL_SIZE; }
static uint8_t *ddi_private_base(void) { return ddi_pool_at(PBC_DDI_POOLS); }
static uint32_t *ddi_registers(void) { return (uint32_t *)(ddi_private_base() + DDI_PRIVATE_BYTES); }
static uint8_t *ddi_args_base(void) { return ddi_private_base() + DDI_PRIVATE_BYTES + PBC_PAGE_SIZE; }
static uint8_t *ddi_mdl_base(void) { return ddi_args_base() + PBC_DDI_ARGS_BYTES; }
/* VidMm's CPU view of a page table for an immediate update (vidmm/va.c):
 * two pages between inaccessible ones, after the MDL area. */
#define DDI_TABLE_VIEW_BYTES (2u * PBC_PAGE_SIZE)
static uint8_t *ddi_table_view(void) { return ddi_mdl_base() + DDI_MDL_BYTES + PBC_PAGE_SIZE; }

uint8_t *pbc_ddi_table_view(void) { return ddi.judging ? ddi_table_view() : NULL; }

static int chan_prepare(void);

int pbc_ddi_prepare(void)
{
    ddi.size = (size_t)PBC_DDI_POOLS * PBC_DMA_POOL_SIZE + DDI_PRIVATE_BYTES + PBC_PAGE_SIZE + PBC_DDI_ARGS_BYTES +
               DDI_MDL_BYTES + DDI_TABLE_VIEW_BYTES + 2 * PBC_PAGE_SIZE;
    void *p = mmap(NULL, ddi.size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return -1;
    ddi.zone_fd = memfd_create("pbcheck-views", MFD_CLOEXEC);
    if (ddi.zone_fd < 0 || ftruncate(ddi.zone_fd, (off_t)DDI_ZONE_BYTES)) {
        munmap(p, ddi.size);
        return -1;
    }
    void *z = mmap(NULL, DDI_ZONE_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, ddi.zone_fd, 0);
    if (z == MAP_FAILED || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ddi.ends)) {
        munmap(p, ddi.size);
        if (z != MAP_FAILED)
            munmap(z, DDI_ZONE_BYTES);
        return -1;
    }
    if (chan_prepare())
        return -1;
    ddi.arena = p;
    ddi.zone = z;
    /* The table view's neighbours are inaccessible, as VidMm's own are. */
    if (mprotect(ddi_table_view() - PBC_PAGE_SIZE, PBC_PAGE_SIZE, PROT_NONE) ||
        mprotect(ddi_table_view() + DDI_TABLE_VIEW_BYTES, PBC_PAGE_SIZE, PROT_NONE))
        return -1;
    return 0;
}

int pbc_ddi_remote(void) { return ddi.judging; }

uint8_t *pbc_ddi_pool(void)
{
    if (!ddi.judging || ddi.pools_lent == PBC_DDI_POOLS)
        return NULL;
    return ddi_pool_at(ddi.pools_lent++);
}

void *pbc_ddi_private_alloc(size_t bytes)
{
    bytes = (bytes + 63) & ~(size_t)63;
    if (!ddi.judging || bytes > DDI_PRIVATE_BYTES - ddi.private_used)
        return NULL;
    void *p = ddi_private_base() + ddi.private_used;
    ddi.private_used += bytes;
    ddi.private_live++;
    return p;
}

int pbc_ddi_private_free(void *p)
{
    uint8_t *b = p;
    if (!ddi.judging || b < ddi_private_base() || b >= ddi_private_base() + DDI_PRIVATE_BYTES)
        return 0;
    if (--ddi.private_live == 0)
        ddi.private_used = 0; /* every block given back: the heap starts over */
    return 1;
}

/* ---- the judge's side of a call --------------------------------------- */

/* The driver process did what no driver may (died, or answered with
 * something that is not an answer): the worker ends as the builder's
 * failure, with the driver process's own end where it has one. */
_Noreturn static void ddi_lost(const char *why)
{
    int status = 0;
    pid_t r = ddi.driver > 0 ? waitpid(ddi.driver, &status, WNOHANG) : 0;
    if (r == ddi.driver && WIFSIGNALED(status)) {
        /* The worker ends by the driver's signal, so its crash is reported
         * as an in-process builder's (its backtrace is on our stderr). */
        signal(WTERMSIG(status), SIG_DFL);
        sigset_t all;
        sigfillset(&all);
        sigdelset(&all, WTERMSIG(status));
        sigprocmask(SIG_SETMASK, &all, NULL);
        raise(WTERMSIG(status));
    }
    if (r == ddi.driver && WIFEXITED(status))
        _exit(WEXITSTATUS(status));
    if (ddi.driver > 0)
        kill(ddi.driver, SIGKILL);
    fprintf(stderr, "pbcheck: the driver process %s\n", why);
    fflush(stderr);
    _exit(PBC_DDI_LOST_EXIT);
}

/* ---- the channel: two rings in shared memory ------------------------- */

/* The frames travel through two byte rings in memory both processes map
 * (made before the fork), one each way, instead of the socket: a writer
 * copies bytes in and publishes its count; a reader copies them out into
 * its own memory before it looks at them (the other side may change the
 * ring while it reads: every frame is checked in the copy). A side that
 * finds nothing to read (or no room) sleeps on a futex that the other
 * side wakes when it publishes; it does not spin first, which costs more
 * CPU than it saves on a machine whose cores are shared (docs/
 * benchmarks.md, (s)), but with the pair on one CPU it yields that CPU a
 * few times first (chan_wait). The
 * socket stays for liveness only: the judge sleeps at most
 * CHAN_NAP_NS at a time and then asks it whether the driver process's
 * end was closed (it dies with the process). Each side keeps its own
 * count of what it wrote and read; the other side's count is read once
 * and bounded, so a scribbled ring is garbled frames or a wait the case's
 * timeout ends, never a read or write outside the ring. */
#define CHAN_BYTES (256u << 10)
#define CHAN_NAP_NS (20 * 1000 * 1000)
typedef struct chan_ring {
    _Atomic uint32_t head;         /* bytes written, ever (modulo 2^32) */
    _Atomic uint32_t reader_sleeps;
    _Atomic uint32_t one_cpu;       /* ring 0's: the judge bound the pair to one CPU (a hint) */
    uint8_t apart[52];              /* the two sides' words on lines of their own */
    _Atomic uint32_t tail;         /* bytes read, ever */
    _Atomic uint32_t writer_sleeps;
    uint8_t apart2[56];
    uint8_t data[CHAN_BYTES];
} chan_ring;

static struct {
    chan_ring *rings; /* [0] judge to driver, [1] driver to judge */
    chan_ring *in, *out;
    uint32_t read, written; /* this side's own counts */
} chan;

/* The socket carries nothing but its end: a driver process that writes
 * on it breaks the link (and would fill it and block there, and wait out
 * the case's time). It is looked at after each job, before the worker
 * answers it (pbc_ddi_check_quiet), so the case that wrote is the case
 * that fails (a reproducer fails alone as in its run) whatever the builder
 * made of the case, and at every nap of a wait, so a driver blocked on a
 * full socket is found within CHAN_NAP_NS; not with every answer, a
 * system call each. */
static void chan_socket_quiet(void)
{
    uint8_t byte;
    if (recv(ddi.sock, &byte, 1, MSG_PEEK | MSG_DONTWAIT) > 0)
        ddi_lost("wrote on its link's socket, which carries nothing");
}

void pbc_ddi_check_quiet(void)
{
    if (ddi.judging)
        chan_socket_quiet();
}

/* Whether the driver process is gone: its end of the socket is closed. */
static int chan_peer_gone(void)
{
    chan_socket_quiet();
    struct pollfd p = {ddi.sock, 0, 0};
    return poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLERR | POLLNVAL));
}

/* Waits until *word is no longer `was`. 0, or -1 when the other side is
 * gone (the judge's answer only: the driver process dies with the judge).
 * With the pair bound to one CPU (ddi_pin) a side first yields the CPU a
 * few times: the other side is then the task that runs, and a hand-over
 * costs a switch and no futex (bench (x): about 3 against 5 us of CPU a
 * round trip). Only when that does not bring the answer (the other side
 * waits on something else, or works long) does it sleep on the futex. A
 * driver that writes one_cpu changes only how it itself waits. */
#define CHAN_YIELDS 16
static int chan_wait(_Atomic uint32_t *word, _Atomic uint32_t *sleeps, uint32_t was)
{
    if (ddi.judging ? ddi.pinned : atomic_load_explicit(&chan.rings[0].one_cpu, memory_order_relaxed))
        for (int i = 0; i < CHAN_YIELDS; i++) {
            if (atomic_load(word) != was)
                return 0;
            sched_yield();
        }
    for (;;) {
        atomic_store(sleeps, 1);
        if (atomic_load(word) != was)
            break;
        struct timespec nap = {0, CHAN_NAP_NS};
        syscall(SYS_futex, word, FUTEX_WAIT, was, ddi.judging ? &nap : NULL, NULL, 0);
        if (atomic_load(word) != was)
            break;
        if (ddi.judging && chan_peer_gone())
            return -1;
    }
    atomic_store(sleeps, 0);
    return 0;
}

/* The other side's count says more than the ring holds: for the judge,
 * the driver's failure; for the driver process, the end (-1). */
static int chan_impossible(void)
{
    if (ddi.judging)
        ddi_lost("wrote an impossible count into the channel");
    return -1;
}

static void chan_wake(_Atomic uint32_t *word, _Atomic uint32_t *sleeps)
{
    if (atomic_load(sleeps))
        syscall(SYS_futex, word, FUTEX_WAKE, 1, NULL, NULL, 0);
}

/* Writes the pieces in order and publishes them (async-signal-safe).
 * 0, or -1 when the other side is gone or its count is impossible. */
static int chan_writev(const struct iovec *v, int count)
{
    chan_ring *c = chan.out;
    for (int i = 0; i < count; i++) {
        const uint8_t *b = v[i].iov_base;
        size_t n = v[i].iov_len;
        while (n) {
            uint32_t tail = atomic_load_explicit(&c->tail, memory_order_acquire);
            uint32_t used = chan.written - tail;
            if (used > CHAN_BYTES)
                return chan_impossible();
            if (used == CHAN_BYTES) { /* full: what is written goes, and the reader makes room */
                atomic_store(&c->head, chan.written);
                chan_wake(&c->head, &c->reader_sleeps);
                if (chan_wait(&c->tail, &c->writer_sleeps, tail))
                    return -1;
                continue;
            }
            size_t at = chan.written % CHAN_BYTES, k = CHAN_BYTES - used;
            if (k > CHAN_BYTES - at)
                k = CHAN_BYTES - at;
            if (k > n)
                k = n;
            memcpy(c->data + at, b, k);
            chan.written += (uint32_t)k;
            b += k;
            n -= k;
        }
    }
    atomic_store(&c->head, chan.written);
    chan_wake(&c->head, &c->reader_sleeps);
    return 0;
}

/* Up to `cap` bytes, as many as there are once there are any, copied out
 * (async-signal-safe). Their count, or -1 as chan_writev. */
static ssize_t chan_read_some(void *to, size_t cap)
{
    chan_ring *c = chan.in;
    for (;;) {
        uint32_t head = atomic_load_explicit(&c->head, memory_order_acquire);
        uint32_t avail = head - chan.read;
        if (avail > CHAN_BYTES)
            return chan_impossible();
        if (!avail) {
            if (chan_wait(&c->head, &c->reader_sleeps, head))
                return -1;
            continue;
        }
        size_t at = chan.read % CHAN_BYTES, k = avail;
        if (k > CHAN_BYTES - at)
            k = CHAN_BYTES - at;
        if (k > cap)
            k = cap;
        memcpy(to, c->data + at, k);
        chan.read += (uint32_t)k;
        atomic_store(&c->tail, chan.read);
        chan_wake(&c->tail, &c->writer_sleeps);
        return (ssize_t)k;
    }
}

/* The rings, made before the fork. 0, or -1 with errno. */
static int chan_prepare(void)
{
    void *rings = mmap(NULL, 2 * sizeof(chan_ring), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (rings == MAP_FAILED)
        return -1;
    chan.rings = rings;
    return 0;
}

/* A frame: header and body, published together. */
static int chan_send(uint32_t seq, uint32_t flags, const void *body, size_t n)
{
    pbc_wire_head h = {(uint32_t)n, PBC_WIRE_TAG, seq, flags};
    struct iovec v[2] = {{&h, sizeof(h)}, {(void *)(uintptr_t)body, n}};
    return chan_writev(v, 2);
}

/* Reads from the channel through a buffer of its own: a frame's header
 * and body come in one copy where they were published together. The
 * driver process's fault handler reads through it too (async-signal-
 * safe). */
static struct {
    uint8_t b[64u << 10];
    size_t at, n;
} rd;

static int ddi_read(void *p, size_t n)
{
    uint8_t *to = p;
    while (n) {
        if (rd.at == rd.n) {
            if (n >= sizeof(rd.b)) { /* a large body: straight to its place */
                ssize_t k = chan_read_some(to, n);
                if (k <= 0)
                    return -1;
                to += k;
                n -= (size_t)k;
                continue;
            }
            ssize_t k = chan_read_some(rd.b, sizeof(rd.b));
            if (k <= 0)
                return -1;
            rd.at = 0;
            rd.n = (size_t)k;
        }
        size_t take = rd.n - rd.at < n ? rd.n - rd.at : n;
        memcpy(to, rd.b + rd.at, take);
        rd.at += take;
        to += take;
        n -= take;
    }
    return 0;
}

/* pbc_wire_recv through ddi_read. */
static int ddi_recv(pbc_wire_head *h, uint8_t **body)
{
    *body = NULL;
    if (ddi_read(h, sizeof(*h)) || h->tag != PBC_WIRE_TAG)
        return -1;
    uint8_t *b = pbc_xmalloc(h->len ? h->len : 1);
    if (ddi_read(b, h->len)) {
        free(b);
        return -1;
    }
    *body = b;
    return 0;
}

/* Every frame to the driver process opens with the protections the shim
 * logged for it since the last (kernel/shim.h, pbc_shim_take_mirror),
 * which it applies before its code runs again. */
static void ddi_send(uint32_t seq, uint32_t flags, const pbc_wire_buf *b)
{
    const pbc_shim_prot *log;
    uint32_t n = pbc_shim_take_mirror(&log);
    pbc_wire_buf f = {0};
    pbc_wire_put_u32(&f, n);
    pbc_wire_put_bytes(&f, log, (size_t)n * sizeof(*log));
    pbc_wire_put_raw(&f, b->p, b->n);
    if (chan_send(seq, flags, f.p, f.n))
        ddi_lost("is gone");
    free(f.p);
}



static void ddi_run_work(void *arg);
static PVOID ddi_map_mdl(uint64_t theirs);

static int ddi_in_zone(uint64_t a)
{
    return a >= (uint64_t)(uintptr_t)ddi.zone && a - (uint64_t)(uintptr_t)ddi.zone < DDI_ZONE_BYTES;
}

static int ddi_in_pools(uint64_t a)
{
    return a >= (uint64_t)(uintptr_t)ddi.arena &&
           a - (uint64_t)(uintptr_t)ddi.arena < (uint64_t)PBC_DDI_POOLS * PBC_DMA_POOL_SIZE;
}

int pbc_ddi_store_parse(const uint8_t *body, size_t len, uint32_t libraries, pbc_shim_store *out, int *reached)
{
    pbc_wire_reader r = {body, len, 0, 0};
    memset(out, 0, sizeof(*out));
    uint32_t yes = pbc_wire_get_u32(&r);
    uint32_t n = pbc_wire_get_u32(&r);
    if (r.bad || yes > 1 || n > PBC_SHIM_STORE_FRAMES)
        return -1;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t lib = pbc_wire_get_u32(&r);
        uint64_t offset = pbc_wire_get_u64(&r);
        if (r.bad || lib >= libraries || offset >= PBC_DDI_MAX_CODE_OFFSET)
            return -1;
        out->lib[k] = (uint16_t)lib;
        out->frames[k] = (uintptr_t)offset;
    }
    if (!pbc_wire_done(&r))
        return -1;
    out->nframes = n;
    out->remote = 1;
    *reached = (int)yes;
    return 0;
}

/* A callback from the driver process, served with VidMm's host, and
 * answered unless it came as a notice (which only the callbacks that
 * return nothing may). */
static void ddi_callback(uint32_t seq, const uint8_t *body, size_t len, int notice)
{
    pbc_wire_reader r = {body, len, 0, 0};
    uint32_t kind = pbc_wire_get_u32(&r);
    if (notice && kind != K_RING_SUBMIT && kind != K_RING_FENCE && kind != K_LOG && kind != K_QUEUE_CPU_WORK)
        ddi_lost("sent as a notice a callback that needs a reply");
    pbc_wire_buf out = {0};
    const pbc_host *h = ddi.host;
    switch (kind) {
    case K_RING_SUBMIT: {
        uint32_t segment = pbc_wire_get_u32(&r);
        uint64_t phys = pbc_wire_get_u64(&r);
        uint32_t start = pbc_wire_get_u32(&r), end = pbc_wire_get_u32(&r);
        if (!pbc_wire_done(&r) || !h)
            ddi_lost("answered a call with a garbled doorbell");
        h->ring_submit(h->ctx, segment, phys, start, end);
        break;
    }
    case K_RING_FENCE: {
        uint32_t fence = pbc_wire_get_u32(&r);
        if (!pbc_wire_done(&r) || !h)
            ddi_lost("answered a call with a garbled fence");
        h->ring_fence(h->ctx, fence);
        break;
    }
    case K_MMIO_READ: {
        uint32_t offset = pbc_wire_get_u32(&r);
        if (!pbc_wire_done(&r) || !h)
            ddi_lost("answered a call with a garbled register read");
        pbc_wire_put_u32(&out, h->mmio_read(h->ctx, offset));
        break;
    }
    case K_MMIO_WRITE: {
        uint32_t offset = pbc_wire_get_u32(&r), value = pbc_wire_get_u32(&r);
        if (!pbc_wire_done(&r) || !h)
            ddi_lost("answered a call with a garbled register write");
        h->mmio_write(h->ctx, offset, value);
        break;
    }
    case K_LOG: {
        char *line = pbc_wire_get_text(&r, 0);
        if (!pbc_wire_done(&r) || !h || !line)
            ddi_lost("answered a call with a garbled log line");
        h->log(h->ctx, line);
        free(line);
        break;
    }
    case K_QUEUE_CPU_WORK: {
        ddi_work w = {pbc_wire_get_u64(&r), pbc_wire_get_u64(&r)};
        if (!pbc_wire_done(&r) || !h)
            ddi_lost("answered a call with garbled CPU work");
        PBC_PUSH(ddi.work, ddi.work_count, ddi.work_cap, w);
        /* The index, not a pointer: the list may move as it grows. */
        h->queue_cpu_work(h->ctx, ddi_run_work, (void *)(uintptr_t)(ddi.work_count - 1));
        break;
    }
    case K_WAKE:
        if (!pbc_wire_done(&r))
            ddi_lost("answered a call with a garbled wake");
        pbc_kernel_remote_wake();
        break;
    case K_MAP_IO: {
        PHYSICAL_ADDRESS pa;
        pa.QuadPart = (LONGLONG)pbc_wire_get_u64(&r);
        uint64_t bytes = pbc_wire_get_u64(&r);
        if (!pbc_wire_done(&r))
            ddi_lost("answered a call with a garbled MmMapIoSpace");
        pbc_wire_put_u64(&out, (uint64_t)(uintptr_t)MmMapIoSpace(pa, (SIZE_T)bytes, MmNonCached));
        break;
    }
    case K_MAP_MDL: {
        uint64_t theirs = pbc_wire_get_u64(&r);
        if (!pbc_wire_done(&r))
            ddi_lost("answered a call with a garbled MmGetSystemAddressForMdlSafe");
        pbc_wire_put_u64(&out, (uint64_t)(uintptr_t)ddi_map_mdl(theirs));
        break;
    }
    case K_UNMAP: {
        uint64_t base = pbc_wire_get_u64(&r);
        if (!pbc_wire_done(&r))
            ddi_lost("answered a call with a garbled unmap");
        if (base >= (uint64_t)(uintptr_t)ddi.zone && base < (uint64_t)(uintptr_t)ddi.zone + DDI_ZONE_BYTES)
            MmUnmapIoSpace((PVOID)(uintptr_t)base, 0); /* a view's, whichever kind: only views are there */
        break;
    }
    case K_PHYS: {
        uint64_t at = pbc_wire_get_u64(&r);
        if (!pbc_wire_done(&r))
            ddi_lost("answered a call with a garbled MmGetPhysicalAddress");
        pbc_wire_put_u64(&out, (uint64_t)MmGetPhysicalAddress((PVOID)(uintptr_t)at).QuadPart);
        break;
    }
    case K_FAULT: {
        uint64_t at = pbc_wire_get_u64(&r);
        uint32_t wrote = pbc_wire_get_u32(&r);
        if (!pbc_wire_done(&r))
            ddi_lost("answered a call with a garbled fault");
        /* Only the shared ranges are the shim's to serve; the rest of the
         * judge's memory is not in the driver process at all. A store an
         * attribution replay watches is single-stepped there, and its
         * record (K_STORE) awaited: the watched bytes of its page go back. */
        int ours = ddi_in_zone(at) || ddi_in_pools(at);
        uint32_t off = 0, n = 0;
        int served = ours ? pbc_shim_fault_watched((void *)(uintptr_t)at, wrote != 0, &off, &n) : 0;
        pbc_wire_put_u32(&out, (uint32_t)served);
        if (served == 2) {
            pbc_wire_put_u32(&out, off);
            pbc_wire_put_u32(&out, n);
        }
        break;
    }
    case K_STORE: {
        /* The driver's word on who made a watched store: a record that
         * does not read as one, or comes when no store awaits it, is
         * dropped; it never judges, and never ends the worker. */
        pbc_shim_store st;
        int reached;
        if (!pbc_ddi_store_parse(body + r.at, len - r.at, ddi.proxies, &st, &reached))
            pbc_shim_attrib_record(&st, reached);
        break;
    }
    default:
        ddi_lost("called back with a frame that is no callback");
    }
    if (!notice)
        ddi_send(seq, DDI_REPLY, &out);
    free(out.p);
}

/* Sends a call and serves its callbacks; the answer's body, owned. */
static uint8_t *ddi_call(const pbc_wire_buf *call, size_t *len)
{
    uint32_t seq = ++ddi.seq;
    uint32_t *regs = pbc_shim_registers();
    if (regs) /* the register file as the GPU left it */
        memcpy(ddi_registers(), regs, PBC_MMIO_REGS * sizeof(uint32_t));
    ddi_send(seq, 0, call);
    for (;;) {
        pbc_wire_head h;
        if (ddi_read(&h, sizeof(h)))
            ddi_lost("is gone");
        const char *bad = pbc_wire_check(&h, seq, DDI_CALLBACK | DDI_ANSWER | DDI_NOTICE, DDI_MAX_FRAME);
        if (!bad && h.flags != DDI_CALLBACK && h.flags != DDI_ANSWER && h.flags != DDI_NOTICE)
            bad = "a frame of two kinds at once";
        if (bad) {
            char why[160];
            snprintf(why, sizeof(why), "answered with a garbled frame: %s", bad);
            ddi_lost(why);
        }
        uint8_t *body = pbc_xmalloc(h.len + 1u);
        if (ddi_read(body, h.len))
            ddi_lost("is gone");
        if (h.flags == DDI_NOTICE) { /* adds to the judge's queues only: no registers move */
            ddi_callback(seq, body, h.len, 1);
            free(body);
            continue;
        }
        if (h.flags == DDI_ANSWER) {
            if (regs) /* and as the driver left it */
                memcpy(regs, ddi_registers(), PBC_MMIO_REGS * sizeof(uint32_t));
            *len = h.len;
            return body;
        }
        if (regs)
            memcpy(regs, ddi_registers(), PBC_MMIO_REGS * sizeof(uint32_t));
        ddi_callback(seq, body, h.len, 0);
        if (regs)
            memcpy(ddi_registers(), regs, PBC_MMIO_REGS * sizeof(uint32_t));
        free(body);
    }
}

/* The kernel's findings that come with every answer. */
static void ddi_take_findings(pbc_wire_reader *r)
{
    for (uint32_t k = 0; k < PBC_KERNEL_NOTE_KINDS; k++) {
        uint32_t count = pbc_wire_get_u32(r);
        char *first = pbc_wire_get_text(r, 0);
        pbc_kernel_note((pbc_kernel_note_kind)k, count, first);
        free(first);
    }
    uint32_t asserts = pbc_wire_get_u32(r);
    char *first = pbc_wire_get_text(r, 0);
    pbc_shim_note_asserts(asserts, first);
    free(first);
    pbc_shim_note_register_writes(pbc_wire_get_u32(r));
}

/* A call with a body of words: the answer read by `r` (body owned by *keep). */
static void ddi_roundtrip(const pbc_wire_buf *call, pbc_wire_reader *r, uint8_t **keep)
{
    size_t len;
    *keep = ddi_call(call, &len);
    *r = (pbc_wire_reader){*keep, len, 0, 0};
}

static void ddi_answer_done(pbc_wire_reader *r, uint8_t *keep, const char *what)
{
    ddi_take_findings(r);
    if (!pbc_wire_done(r)) {
        char why[120];
        snprintf(why, sizeof(why), "answered %s with a garbled answer", what);
        ddi_lost(why);
    }
    free(keep);
}

/* ---- arguments in the arena -------------------------------------------- */

typedef struct ddi_copy {
    void *mine;       /* the judge's object */
    uint8_t *theirs;  /* its copy in the arena */
    size_t bytes;
} ddi_copy;

static struct {
    size_t used;
    ddi_copy copies[8];
    uint32_t count;
    int full;
} args;

static void args_reset(void)
{
    args.used = 0;
    args.count = 0;
    args.full = 0;
}

/* A copy of [p, p + bytes) in the arena, remembered to be settled. */
static void *args_copy(const void *p, size_t bytes)
{
    size_t at = (args.used + 63) & ~(size_t)63;
    if (!p || args.full || args.count == PBC_ARRAY_LEN(args.copies) || bytes > PBC_DDI_ARGS_BYTES - at) {
        args.full = 1;
        return NULL;
    }
    uint8_t *to = ddi_args_base() + at;
    memcpy(to, p, bytes);
    args.used = at + bytes;
    args.copies[args.count++] = (ddi_copy){(void *)p, to, bytes};
    return to;
}

static size_t mdl_bytes(const MDL *m)
{
    return sizeof(MDL) + (size_t)ADDRESS_AND_SIZE_TO_SPAN_PAGES(MmGetMdlVirtualAddress(m), m->ByteCount) *
                             sizeof(PFN_NUMBER);
}

/* The MDLs handed out this run: a copy each, in the MDL area, for as long
 * as the run (a system thread of the driver's maps one after the call
 * that handed it). Refreshed at each call that hands it again. */
typedef struct ddi_mdl {
    MDL *mine;
    MDL *theirs;
    size_t bytes;
} ddi_mdl;
static struct {
    ddi_mdl *m;
    uint32_t count, cap;
    size_t used;
} mdls;

static void mdls_reset(void)
{
    mdls.count = 0;
    mdls.used = 0;
}

static MDL *args_mdl(MDL *m)
{
    if (!m)
        return NULL;
    size_t bytes = mdl_bytes(m);
    ddi_mdl *d = NULL;
    for (uint32_t i = 0; i < mdls.count && !d; i++)
        if (mdls.m[i].mine == m && mdls.m[i].bytes == bytes)
            d = &mdls.m[i];
    if (!d) {
        size_t at = (mdls.used + 63) & ~(size_t)63;
        if (bytes > DDI_MDL_BYTES - at) {
            args.full = 1;
            return NULL;
        }
        ddi_mdl n = {m, (MDL *)(ddi_mdl_base() + at), bytes};
        mdls.used = at + bytes;
        PBC_PUSH(mdls.m, mdls.count, mdls.cap, n);
        d = &mdls.m[mdls.count - 1];
    }
    memcpy(d->theirs, m, bytes);
    if (args.count == PBC_ARRAY_LEN(args.copies)) {
        args.full = 1;
        return NULL;
    }
    args.copies[args.count++] = (ddi_copy){m, (uint8_t *)d->theirs, bytes};
    return d->theirs;
}

/* The judge's MDL whose copy the driver names, mapped by the shim. */
static PVOID ddi_map_mdl(uint64_t theirs)
{
    for (uint32_t i = 0; i < mdls.count; i++) {
        ddi_mdl *d = &mdls.m[i];
        if ((uint64_t)(uintptr_t)d->theirs != theirs)
            continue;
        PVOID p = MmGetSystemAddressForMdlSafe(d->mine, NormalPagePriority);
        /* The copy says what the judge's says now: mapped, and where. */
        d->theirs->MappedSystemVa = d->mine->MappedSystemVa;
        d->theirs->MdlFlags = d->mine->MdlFlags;
        return p;
    }
    return NULL;
}

/* A pointer the driver left in a field: moved to the judge's object when
 * it points into a copy (one past its end included), else as it is. */
static void *args_back(const void *theirs)
{
    const uint8_t *p = theirs;
    for (uint32_t i = 0; i < args.count; i++) {
        const ddi_copy *c = &args.copies[i];
        if (p >= c->theirs && p <= c->theirs + c->bytes)
            return (uint8_t *)c->mine + (p - c->theirs);
    }
    return (void *)theirs;
}

/* The bytes the driver changed in each copy, written into the judge's
 * object (a snapshot of the copy first: the driver may still be writing). */
static void args_settle(void)
{
    for (uint32_t i = 0; i < args.count; i++) {
        const ddi_copy *c = &args.copies[i];
        uint8_t *now = pbc_xmalloc(c->bytes);
        memcpy(now, c->theirs, c->bytes);
        uint8_t *mine = c->mine;
        if (!memcmp(mine, now, c->bytes)) { /* the common case: nothing changed (one pass, not one a line) */
            free(now);
            continue;
        }
        for (size_t at = 0; at < c->bytes; at += 64) {
            size_t n = c->bytes - at < 64 ? c->bytes - at : 64;
            if (memcmp(mine + at, now + at, n))
                memcpy(mine + at, now + at, n);
        }
        free(now);
    }
}

/* A CPU view VidMm hands the builder: one the shim made (in the zone) or
 * VidMm's view of a page table (pbc_ddi_table_view): the same address in
 * the driver process. */
static int ddi_view_or_null(const void *p)
{
    const uint8_t *b = p;
    return !p || ddi_in_zone((uint64_t)(uintptr_t)p) ||
           (b >= ddi_table_view() && b < ddi_table_view() + DDI_TABLE_VIEW_BYTES);
}

/* Where the pool and the private data must lie: in the arena, as given. */
static int ddi_shared(const void *p) { return (const uint8_t *)p >= ddi.arena && (const uint8_t *)p < ddi_args_base(); }

/* The copy of a BuildPagingBuffer's arguments, or NULL when they cannot be
 * carried (an operation whose pointers this transport does not copy). */
static DXGKARG_BUILDPAGINGBUFFER *args_build(DXGKARG_BUILDPAGINGBUFFER *a)
{
    args_reset();
    if ((a->pDmaBuffer && !ddi_shared(a->pDmaBuffer)) ||
        (a->pDmaBufferPrivateData && !ddi_shared(a->pDmaBufferPrivateData)))
        return NULL;
    DXGKARG_BUILDPAGINGBUFFER *c = args_copy(a, sizeof(*a));
    if (!c)
        return NULL;
    switch (a->Operation) {
    case DXGK_OPERATION_TRANSFER:
    case DXGK_OPERATION_SPECIAL_LOCK_TRANSFER:
        if (!a->Transfer.Source.SegmentId)
            c->Transfer.Source.pMdl = args_mdl(a->Transfer.Source.pMdl);
        if (!a->Transfer.Destination.SegmentId)
            c->Transfer.Destination.pMdl = args_mdl(a->Transfer.Destination.pMdl);
        break;
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT:
        c->MapApertureSegment.pMdl = args_mdl(a->MapApertureSegment.pMdl);
        break;
    case DXGK_OPERATION_INIT_CONTEXT_RESOURCE:
        if (!a->InitContextResource.Destination.SegmentId)
            c->InitContextResource.Destination.pMdl = args_mdl(a->InitContextResource.Destination.pMdl);
        if (!ddi_view_or_null(a->InitContextResource.Destination.VirtualAddress))
            return NULL;
        break;
    case DXGK_OPERATION_FILL:
    case DXGK_OPERATION_DISCARD_CONTENT:
    case DXGK_OPERATION_READ_PHYSICAL:
    case DXGK_OPERATION_WRITE_PHYSICAL:
    case DXGK_OPERATION_UNMAP_APERTURE_SEGMENT:
    case DXGK_OPERATION_VIRTUAL_TRANSFER:
    case DXGK_OPERATION_VIRTUAL_FILL:
    case DXGK_OPERATION_FLUSH_TLB:
    case DXGK_OPERATION_NOTIFY_RESIDENCY:
    case DXGK_OPERATION_SIGNAL_MONITORED_FENCE:
    case DXGK_OPERATION_NOTIFY_FENCE_RESIDENCY:
    case DXGK_OPERATION_MAP_MMU:
    case DXGK_OPERATION_UNMAP_MMU:
    case DXGK_OPERATION_NOTIFY_RESIDENCY2:
    case DXGK_OPERATION_NOTIFY_ALLOC:
        break; /* values only */
    case DXGK_OPERATION_UPDATE_PAGE_TABLE: {
        /* CpuVirtual is VidMm's view of the table, made in the arena
         * (pbc_ddi_table_view) when the builder is in a driver process. */
        if (!ddi_view_or_null(a->UpdatePageTable.PageTableAddress.CpuVirtual))
            return NULL;
        size_t n = a->UpdatePageTable.Flags.Repeat ? 1 : a->UpdatePageTable.NumPageTableEntries;
        if (a->UpdatePageTable.pPageTableEntries)
            c->UpdatePageTable.pPageTableEntries = args_copy(a->UpdatePageTable.pPageTableEntries, n * sizeof(DXGK_PTE));
        if (a->UpdatePageTable.pPageTableEntries64KB)
            c->UpdatePageTable.pPageTableEntries64KB =
                args_copy(a->UpdatePageTable.pPageTableEntries64KB, n * sizeof(DXGK_PTE));
        break;
    }
    case DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES:
        if (a->CopyPageTableEntries.pRanges)
            c->CopyPageTableEntries.pRanges = args_copy(a->CopyPageTableEntries.pRanges,
                                                        (size_t)a->CopyPageTableEntries.NumRanges *
                                                            sizeof(*a->CopyPageTableEntries.pRanges));
        break;
    case DXGK_OPERATION_UPDATE_CONTEXT_ALLOCATION:
        if (a->UpdateContextAllocation.pDriverPrivateData)
            c->UpdateContextAllocation.pDriverPrivateData = args_copy(a->UpdateContextAllocation.pDriverPrivateData,
                                                                      a->UpdateContextAllocation.DriverPrivateDataSize);
        break;
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT2:
        if (!a->MapApertureSegment2.Adl.Flags.Contiguous && a->MapApertureSegment2.Adl.Pages)
            c->MapApertureSegment2.Adl.Pages = args_copy(a->MapApertureSegment2.Adl.Pages,
                                                         (size_t)a->MapApertureSegment2.Adl.PageCount *
                                                             sizeof(DXGK_PAGE_NUMBER));
        if (!ddi_view_or_null(a->MapApertureSegment2.CpuVisibleAddress))
            return NULL;
        break;
    default:
        return NULL;
    }
    return args.full ? NULL : c;
}

/* The driver's BuildPagingBuffer arguments, back in the judge's. */
static void args_build_back(DXGKARG_BUILDPAGINGBUFFER *a, const DXGKARG_BUILDPAGINGBUFFER *theirs_live)
{
    DXGKARG_BUILDPAGINGBUFFER theirs;
    memcpy(&theirs, (const void *)theirs_live, sizeof(theirs));
    uint32_t top = 0; /* the arguments' own copy is settled field by field, not byte by byte */
    args.copies[top].bytes = 0;
    args_settle();
    switch (a->Operation) {
    case DXGK_OPERATION_TRANSFER:
    case DXGK_OPERATION_SPECIAL_LOCK_TRANSFER:
        if (!theirs.Transfer.Source.SegmentId)
            theirs.Transfer.Source.pMdl = args_back(theirs.Transfer.Source.pMdl);
        if (!theirs.Transfer.Destination.SegmentId)
            theirs.Transfer.Destination.pMdl = args_back(theirs.Transfer.Destination.pMdl);
        break;
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT:
        theirs.MapApertureSegment.pMdl = args_back(theirs.MapApertureSegment.pMdl);
        break;
    case DXGK_OPERATION_INIT_CONTEXT_RESOURCE:
        if (!theirs.InitContextResource.Destination.SegmentId)
            theirs.InitContextResource.Destination.pMdl = args_back(theirs.InitContextResource.Destination.pMdl);
        break;
    case DXGK_OPERATION_UPDATE_PAGE_TABLE:
        theirs.UpdatePageTable.pPageTableEntries = args_back(theirs.UpdatePageTable.pPageTableEntries);
        theirs.UpdatePageTable.pPageTableEntries64KB = args_back(theirs.UpdatePageTable.pPageTableEntries64KB);
        break;
    case DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES:
        theirs.CopyPageTableEntries.pRanges = args_back(theirs.CopyPageTableEntries.pRanges);
        break;
    case DXGK_OPERATION_UPDATE_CONTEXT_ALLOCATION:
        theirs.UpdateContextAllocation.pDriverPrivateData =
            args_back(theirs.UpdateContextAllocation.pDriverPrivateData);
        break;
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT2:
        if (!a->MapApertureSegment2.Adl.Flags.Contiguous)
            theirs.MapApertureSegment2.Adl.Pages = args_back(theirs.MapApertureSegment2.Adl.Pages);
        break;
    default:
        break;
    }
    *a = theirs;
}

/* ---- the pair on one CPU ---------------------------------------------- */

/* Every call is a hand-over: one side wakes the other and sleeps. With
 * the two processes on different CPUs each hand-over also wakes an idle
 * CPU, which a virtual machine makes dear (docs/benchmarks.md, (s)); on
 * one CPU it is a switch between two tasks, and the split costs half the
 * CPU (docs/benchmarks.md, (s)). So while an adapter lives (a case) the
 * worker and its driver process run on the CPU the worker is on when the
 * case begins, and between cases the worker may go where the scheduler
 * sends it: two pbcheck runs at once do not stay on one CPU.
 * PBCHECK_SPLIT_PIN=0 leaves the scheduler free. A process bound to one
 * CPU makes that CPU taken for afl-fuzz, which binds itself to a free one
 * and will not start when none is left: `pbcheck fuzz` sets
 * AFL_NO_AFFINITY=1 (docs/architecture.md). */
static void ddi_pin(int on)
{
    static int decided, wanted;
    if (!decided) {
        const char *s = getenv("PBCHECK_SPLIT_PIN");
        wanted = !(s && !strcmp(s, "0")) && sched_getaffinity(0, sizeof(ddi.allowed), &ddi.allowed) == 0 &&
                 CPU_COUNT(&ddi.allowed) > 1;
        decided = 1;
    }
    if (!wanted || on == ddi.pinned || ddi.driver <= 0)
        return;
    cpu_set_t one = ddi.allowed;
    int cpu = sched_getcpu();
    if (on && cpu >= 0 && CPU_ISSET(cpu, &ddi.allowed)) {
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
    } else if (on) {
        return;
    }
    /* The driver process first: it is asleep, waiting for a call. Its
     * refusal (it may have changed its own) only costs speed. */
    sched_setaffinity(ddi.driver, sizeof(one), &one);
    sched_setaffinity(0, sizeof(one), &one);
    ddi.pinned = on;
    ddi.pin_cpu = on ? cpu : -1;
    atomic_store(&chan.rings[0].one_cpu, (uint32_t)on);
}

int pbc_ddi_pinned_cpu(void) { return ddi.pinned ? ddi.pin_cpu : -1; }

/* ---- the proxies ------------------------------------------------------- */

static uint32_t proxy_index; /* one library per worker: the target the proxies call */

static void ddi_call_head(pbc_wire_buf *b, uint32_t kind)
{
    pbc_wire_put_u32(b, kind);
    pbc_wire_put_u32(b, proxy_index);
}

static NTSTATUS proxy_create_adapter(const pbc_adapter_info *info, HANDLE *adapter)
{
    pbc_wire_buf b = {0};
    ddi_call_head(&b, K_CREATE_ADAPTER);
    ddi_pin(1);
    ddi.host = info->host;
    ddi.work_count = 0;
    mdls_reset();
    pbc_wire_put_u32(&b, info->segment_count);
    for (uint32_t i = 0; i < info->segment_count && i < PBC_MAX_SEGMENTS; i++) {
        const pbc_segment_info *s = &info->segments[i];
        pbc_wire_put_u32(&b, s->SegmentId);
        pbc_wire_put_u32(&b, s->kind);
        pbc_wire_put_u64(&b, s->base);
        pbc_wire_put_u64(&b, s->size);
    }
    pbc_wire_put_u64(&b, info->dummy_page);
    pbc_wire_put_u64(&b, info->mmio_physical);
    pbc_wire_put_u32(&b, info->mmio_size);
    pbc_wire_reader r;
    uint8_t *keep;
    ddi_roundtrip(&b, &r, &keep);
    free(b.p);
    NTSTATUS st = (NTSTATUS)pbc_wire_get_u32(&r);
    *adapter = (HANDLE)(uintptr_t)pbc_wire_get_u64(&r);
    ddi_answer_done(&r, keep, "create_adapter");
    return st;
}

static void proxy_destroy_adapter(HANDLE adapter)
{
    pbc_wire_buf b = {0};
    ddi_call_head(&b, K_DESTROY_ADAPTER);
    pbc_wire_put_u64(&b, (uint64_t)(uintptr_t)adapter);
    pbc_wire_reader r;
    uint8_t *keep;
    ddi_roundtrip(&b, &r, &keep);
    free(b.p);
    ddi_answer_done(&r, keep, "destroy_adapter");
    ddi.host = NULL;
    ddi_pin(0);
}

static NTSTATUS proxy_create_allocation(HANDLE adapter, const pbc_allocation_info *info, HANDLE *allocation)
{
    pbc_wire_buf b = {0};
    ddi_call_head(&b, K_CREATE_ALLOCATION);
    pbc_wire_put_u64(&b, (uint64_t)(uintptr_t)adapter);
    pbc_wire_put_u32(&b, info->flags);
    pbc_wire_put_u64(&b, info->size);
    pbc_wire_reader r;
    uint8_t *keep;
    ddi_roundtrip(&b, &r, &keep);
    free(b.p);
    NTSTATUS st = (NTSTATUS)pbc_wire_get_u32(&r);
    *allocation = (HANDLE)(uintptr_t)pbc_wire_get_u64(&r);
    ddi_answer_done(&r, keep, "create_allocation");
    return st;
}

static void proxy_destroy_allocation(HANDLE adapter, HANDLE allocation)
{
    pbc_wire_buf b = {0};
    ddi_call_head(&b, K_DESTROY_ALLOCATION);
    pbc_wire_put_u64(&b, (uint64_t)(uintptr_t)adapter);
    pbc_wire_put_u64(&b, (uint64_t)(uintptr_t)allocation);
    pbc_wire_reader r;
    uint8_t *keep;
    ddi_roundtrip(&b, &r, &keep);
    free(b.p);
    ddi_answer_done(&r, keep, "destroy_allocation");
}

/* A DDI whose arguments are in the arena at `at`: its status. */
static NTSTATUS proxy_ddi(uint32_t kind, HANDLE adapter, const void *at, const char *what)
{
    pbc_wire_buf b = {0};
    ddi_call_head(&b, kind);
    pbc_wire_put_u64(&b, (uint64_t)(uintptr_t)adapter);
    pbc_wire_put_u64(&b, (uint64_t)(uintptr_t)at);
    pbc_wire_reader r;
    uint8_t *keep;
    ddi_roundtrip(&b, &r, &keep);
    free(b.p);
    NTSTATUS st = (NTSTATUS)pbc_wire_get_u32(&r);
    ddi_answer_done(&r, keep, what);
    return st;
}

static NTSTATUS APIENTRY proxy_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    DXGKARG_BUILDPAGINGBUFFER *c = args_build(a);
    if (!c) {
        pbc_kernel_note(PBC_KERNEL_NOTE_UNSERVED, 1,
                        "BuildPagingBuffer: arguments a driver process cannot yet be handed (a CPU view of "
                        "modeled memory, or an operation the transport does not copy)");
        return STATUS_NOT_SUPPORTED;
    }
    NTSTATUS st = proxy_ddi(K_BUILD, adapter, c, "BuildPagingBuffer");
    args_build_back(a, c);
    return st;
}

static NTSTATUS APIENTRY proxy_patch(IN_CONST_HANDLE adapter, IN_CONST_PDXGKARG_PATCH p)
{
    args_reset();
    DXGKARG_PATCH *c = args_copy(p, sizeof(*p));
    if (!c || (p->pDmaBuffer && !ddi_shared(p->pDmaBuffer)) || (p->pDmaBufferPrivateData && !ddi_shared(p->pDmaBufferPrivateData)) ||
        p->AllocationListSize || p->PatchLocationListSize)
        return STATUS_NOT_SUPPORTED;
    NTSTATUS st = proxy_ddi(K_PATCH, adapter, c, "Patch");
    DXGKARG_PATCH theirs;
    memcpy(&theirs, c, sizeof(theirs));
    memcpy((void *)p, &theirs, sizeof(theirs)); /* what the driver left, as VidMm compares it */
    return st;
}

static NTSTATUS APIENTRY proxy_submit(IN_CONST_HANDLE adapter, IN_CONST_PDXGKARG_SUBMITCOMMAND s)
{
    args_reset();
    DXGKARG_SUBMITCOMMAND *c = args_copy(s, sizeof(*s));
    if (!c || (s->pDmaBufferPrivateData && !ddi_shared(s->pDmaBufferPrivateData)))
        return STATUS_NOT_SUPPORTED;
    return proxy_ddi(K_SUBMIT, adapter, c, "SubmitCommand");
}

static int proxy_gart_view(HANDLE adapter, UINT segment, uint64_t index, pbc_gart_view *out)
{
    pbc_wire_buf b = {0};
    ddi_call_head(&b, K_GART_VIEW);
    pbc_wire_put_u64(&b, (uint64_t)(uintptr_t)adapter);
    pbc_wire_put_u32(&b, segment);
    pbc_wire_put_u64(&b, index);
    pbc_wire_reader r;
    uint8_t *keep;
    ddi_roundtrip(&b, &r, &keep);
    free(b.p);
    int rc = (int)pbc_wire_get_u32(&r);
    out->valid = pbc_wire_get_u32(&r);
    out->cache_coherent = pbc_wire_get_u32(&r);
    out->page = pbc_wire_get_u64(&r);
    ddi_answer_done(&r, keep, "gart_view");
    return rc == 0 ? 0 : -1;
}

static uint32_t proxy_context_data(HANDLE adapter, HANDLE allocation, void *buf, uint32_t capacity)
{
    pbc_wire_buf b = {0};
    ddi_call_head(&b, K_CONTEXT_DATA);
    pbc_wire_put_u64(&b, (uint64_t)(uintptr_t)adapter);
    pbc_wire_put_u64(&b, (uint64_t)(uintptr_t)allocation);
    pbc_wire_put_u32(&b, capacity);
    pbc_wire_reader r;
    uint8_t *keep;
    ddi_roundtrip(&b, &r, &keep);
    free(b.p);
    size_t n = 0;
    uint8_t *data = pbc_wire_get_bytes(&r, &n);
    ddi_answer_done(&r, keep, "context_update_data");
    if (n > capacity)
        n = capacity;
    if (data)
        memcpy(buf, data, n);
    free(data);
    return (uint32_t)n;
}

/* Queued CPU work reached by the GPU: the driver process runs it. */
static void ddi_run_work(void *arg)
{
    uint32_t i = (uint32_t)(uintptr_t)arg;
    if (i >= ddi.work_count)
        return;
    pbc_wire_buf b = {0};
    ddi_call_head(&b, K_CPU_WORK);
    pbc_wire_put_u64(&b, ddi.work[i].fn);
    pbc_wire_put_u64(&b, ddi.work[i].arg);
    pbc_wire_reader r;
    uint8_t *keep;
    ddi_roundtrip(&b, &r, &keep);
    free(b.p);
    ddi_answer_done(&r, keep, "CPU work");
}

/* The CPU handed to the driver's system threads. */
static void ddi_yield(void)
{
    pbc_wire_buf b = {0};
    ddi_call_head(&b, K_YIELD);
    pbc_wire_reader r;
    uint8_t *keep;
    ddi_roundtrip(&b, &r, &keep);
    free(b.p);
    ddi_answer_done(&r, keep, "a yield");
}

void pbc_ddi_watch(int on)
{
    if (!ddi.judging)
        return;
    pbc_wire_buf b = {0};
    ddi_call_head(&b, K_WATCH);
    pbc_wire_put_u32(&b, on ? 1u : 0u);
    pbc_wire_reader r;
    uint8_t *keep;
    ddi_roundtrip(&b, &r, &keep);
    free(b.p);
    ddi_answer_done(&r, keep, "a watch");
}

void pbc_ddi_proxy(pbc_target *t, uint32_t index)
{
    proxy_index = index;
    if (index >= ddi.proxies)
        ddi.proxies = index + 1;
    t->create_adapter = proxy_create_adapter;
    t->destroy_adapter = proxy_destroy_adapter;
    t->create_allocation = proxy_create_allocation;
    t->destroy_allocation = proxy_destroy_allocation;
    t->build_paging_buffer = proxy_build;
    t->patch = proxy_patch;
    t->submit_command = proxy_submit;
    if (t->gart_view)
        t->gart_view = proxy_gart_view;
    if (t->context_update_data)
        t->context_update_data = proxy_context_data;
}

void pbc_ddi_driver_fds(void)
{
    int keep = ddi.ends[1];
    if (keep != 3) {
        if (dup2(keep, 3) < 0)
            _exit(PBC_DDI_LOST_EXIT);
        keep = 3;
    }
    ddi.ends[1] = keep;
    ddi.ends[0] = -1;
    syscall(SYS_close_range, 4u, ~0u, 0u);
    close(ddi.zone_fd);
    ddi.zone_fd = -1;
    /* The views are the judge's to open, page by page, as the builder reaches them. */
    if (mprotect(ddi.zone, DDI_ZONE_BYTES, PROT_NONE))
        _exit(PBC_DDI_LOST_EXIT);
}

int pbc_ddi_is_proxy(const pbc_target *t) { return t && t->build_paging_buffer == proxy_build; }

void pbc_ddi_judge(int pid)
{
    ddi.driver = pid;
    ddi.sock = ddi.ends[0];
    close(ddi.ends[1]);
    chan.out = &chan.rings[0];
    chan.in = &chan.rings[1];
    ddi.judging = 1;
    pbc_kernel_set_remote(ddi_yield);
    pbc_shim_split(ddi.zone, DDI_ZONE_BYTES, ddi.zone_fd, ddi.arena,
                   ddi.arena + (size_t)PBC_DDI_POOLS * PBC_DMA_POOL_SIZE);
}

/* ---- the driver process ----------------------------------------------- */

static void drv_dispatch(const pbc_wire_head *h, uint8_t *body);

/* The protections a frame from the judge opens with, applied (async-
 * signal-safe: the fault handler reads frames too); the offset of what
 * follows them, or 0 when the frame is not one. */
static size_t drv_apply(const uint8_t *body, size_t len)
{
    uint32_t n, mark;
    if (len < 8)
        return 0;
    memcpy(&n, body, 4);
    memcpy(&mark, body + 4, 4);
    size_t bytes = mark ? (size_t)mark - 1 : 0;
    if (bytes != (size_t)n * sizeof(pbc_shim_prot) || bytes > len - 8)
        return 0;
    for (uint32_t i = 0; i < n; i++) {
        pbc_shim_prot e;
        memcpy(&e, body + 8 + (size_t)i * sizeof(e), sizeof(e));
        if (mprotect((void *)(uintptr_t)e.addr, (size_t)e.len, (int)e.prot))
            _exit(PBC_DDI_LOST_EXIT);
    }
    return 8 + bytes;
}

/* The notices not yet sent, as whole frames: they go in the same write as
 * the next frame that waits. Fixed, not allocated: the fault handler
 * sends them too. */
static struct {
    uint8_t b[64u << 10];
    size_t n;
} drv_pending;

/* A frame to the judge, after the pending notices, published together
 * (async-signal-safe). 0, or -1 when the judge is gone. */
static int drv_send(uint32_t seq, uint32_t flags, const void *body, size_t n)
{
    pbc_wire_head h = {(uint32_t)n, PBC_WIRE_TAG, seq, flags};
    struct iovec v[3] = {{drv_pending.b, drv_pending.n}, {&h, sizeof(h)}, {(void *)(uintptr_t)body, n}};
    drv_pending.n = 0;
    return chan_writev(v, 3);
}

static void drv_callback(const pbc_wire_buf *b, pbc_wire_reader *r, uint8_t **keep);

/* A callback that wants no reply, kept to go with the next frame that
 * waits; sent as a callback (after the pending ones) when it does not fit. */
static void drv_notice(pbc_wire_buf *b)
{
    if (drv_pending.n + sizeof(pbc_wire_head) + b->n > sizeof(drv_pending.b)) {
        pbc_wire_reader r;
        uint8_t *keep;
        drv_callback(b, &r, &keep);
        free(keep);
    } else {
        pbc_wire_head h = {(uint32_t)b->n, PBC_WIRE_TAG, ddi.call_seq, DDI_NOTICE};
        memcpy(drv_pending.b + drv_pending.n, &h, sizeof(h));
        memcpy(drv_pending.b + drv_pending.n + sizeof(h), b->p, b->n);
        drv_pending.n += sizeof(h) + b->n;
    }
    free(b->p);
}

/* A callback to the judge, answered before the call goes on. While it
 * waits, the judge may call in again (the doorbell made the GPU reach
 * queued CPU work): that call is served first. */
static void drv_callback(const pbc_wire_buf *b, pbc_wire_reader *r, uint8_t **keep)
{
    uint32_t seq = ddi.call_seq;
    if (drv_send(seq, DDI_CALLBACK, b->p, b->n))
        _exit(0);
    for (;;) {
        pbc_wire_head h;
        if (ddi_recv(&h, keep))
            _exit(0); /* the judge is gone: nothing to serve */
        size_t at = drv_apply(*keep, h.len);
        if (!at)
            _exit(0);
        if (h.flags == DDI_REPLY && h.seq == seq) {
            *r = (pbc_wire_reader){*keep, h.len, at, 0};
            return;
        }
        if (h.flags != 0)
            _exit(0);
        drv_dispatch(&h, *keep);
        ddi.call_seq = seq;
    }
}

static void drv_simple(pbc_wire_buf *b)
{
    pbc_wire_reader r;
    uint8_t *keep;
    drv_callback(b, &r, &keep);
    free(b->p);
    free(keep);
}

static void host_ring_submit(void *ctx, UINT segment_id, uint64_t phys, UINT start, UINT end)
{
    (void)ctx;
    pbc_wire_buf b = {0};
    pbc_wire_put_u32(&b, K_RING_SUBMIT);
    pbc_wire_put_u32(&b, segment_id);
    pbc_wire_put_u64(&b, phys);
    pbc_wire_put_u32(&b, start);
    pbc_wire_put_u32(&b, end);
    drv_notice(&b);
}

static void host_ring_fence(void *ctx, UINT fence)
{
    (void)ctx;
    pbc_wire_buf b = {0};
    pbc_wire_put_u32(&b, K_RING_FENCE);
    pbc_wire_put_u32(&b, fence);
    drv_notice(&b);
}

static uint32_t host_mmio_read(void *ctx, uint32_t offset)
{
    (void)ctx;
    pbc_wire_buf b = {0};
    pbc_wire_put_u32(&b, K_MMIO_READ);
    pbc_wire_put_u32(&b, offset);
    pbc_wire_reader r;
    uint8_t *keep;
    drv_callback(&b, &r, &keep);
    free(b.p);
    uint32_t v = pbc_wire_get_u32(&r);
    free(keep);
    return v;
}

static void host_mmio_write(void *ctx, uint32_t offset, uint32_t value)
{
    (void)ctx;
    pbc_wire_buf b = {0};
    pbc_wire_put_u32(&b, K_MMIO_WRITE);
    pbc_wire_put_u32(&b, offset);
    pbc_wire_put_u32(&b, value);
    drv_simple(&b);
}

static void host_log(void *ctx, const char *line)
{
    (void)ctx;
    pbc_wire_buf b = {0};
    pbc_wire_put_u32(&b, K_LOG);
    pbc_wire_put_str(&b, line ? line : "");
    drv_notice(&b);
}

static void host_queue_cpu_work(void *ctx, void (*fn)(void *arg), void *arg)
{
    (void)ctx;
    pbc_wire_buf b = {0};
    pbc_wire_put_u32(&b, K_QUEUE_CPU_WORK);
    pbc_wire_put_u64(&b, (uint64_t)(uintptr_t)fn);
    pbc_wire_put_u64(&b, (uint64_t)(uintptr_t)arg);
    drv_notice(&b);
}

static void drv_wake(void *ctx)
{
    (void)ctx;
    pbc_wire_buf b = {0};
    pbc_wire_put_u32(&b, K_WAKE);
    drv_simple(&b);
}

static PVOID drv_map_io(uint64_t phys, size_t bytes)
{
    pbc_wire_buf b = {0};
    pbc_wire_put_u32(&b, K_MAP_IO);
    pbc_wire_put_u64(&b, phys);
    pbc_wire_put_u64(&b, bytes);
    pbc_wire_reader r;
    uint8_t *keep;
    drv_callback(&b, &r, &keep);
    free(b.p);
    PVOID p = (PVOID)(uintptr_t)pbc_wire_get_u64(&r);
    free(keep);
    return p;
}

static PVOID drv_map_mdl(PMDL mdl)
{
    pbc_wire_buf b = {0};
    pbc_wire_put_u32(&b, K_MAP_MDL);
    pbc_wire_put_u64(&b, (uint64_t)(uintptr_t)mdl);
    pbc_wire_reader r;
    uint8_t *keep;
    drv_callback(&b, &r, &keep);
    free(b.p);
    PVOID p = (PVOID)(uintptr_t)pbc_wire_get_u64(&r);
    free(keep);
    return p;
}

static void drv_unmap(PVOID base)
{
    pbc_wire_buf b = {0};
    pbc_wire_put_u32(&b, K_UNMAP);
    pbc_wire_put_u64(&b, (uint64_t)(uintptr_t)base);
    drv_simple(&b);
}

static uint64_t drv_phys(const void *p)
{
    pbc_wire_buf b = {0};
    pbc_wire_put_u32(&b, K_PHYS);
    pbc_wire_put_u64(&b, (uint64_t)(uintptr_t)p);
    pbc_wire_reader r;
    uint8_t *keep;
    drv_callback(&b, &r, &keep);
    free(b.p);
    uint64_t pa = pbc_wire_get_u64(&r);
    free(keep);
    return pa;
}

static const pbc_shim_remote drv_remote = {drv_map_io, drv_map_mdl, drv_unmap, drv_phys};

/* ---- the driver process's faults in the shared ranges ---- */

static struct sigaction drv_prev_segv;
static uint8_t drv_fault_frame[4u << 20]; /* the judge's reply: a handler may not allocate */

/* A callback from a signal handler (async-signal-safe): the judge's
 * reply read into drv_fault_frame, its protections applied; the bytes
 * after them (*len of them), or the process ends when the judge is gone
 * or called in while the handler waits: nothing to serve. */
static const uint8_t *drv_signal_callback(const void *body, size_t bytes, size_t *len)
{
    uint32_t seq = ddi.call_seq;
    if (drv_send(seq, DDI_CALLBACK, body, bytes))
        _exit(0);
    pbc_wire_head h;
    if (ddi_read(&h, sizeof(h)) || h.tag != PBC_WIRE_TAG || h.flags != DDI_REPLY ||
        h.seq != seq || h.len > sizeof(drv_fault_frame) || ddi_read(drv_fault_frame, h.len))
        _exit(0);
    size_t off = drv_apply(drv_fault_frame, h.len);
    if (!off)
        _exit(0);
    *len = h.len - off;
    return drv_fault_frame + off;
}

/* ---- the attribution watch in the driver process ---- */

/* Armed by K_WATCH for an attribution replay (exec/attribute.c). A store
 * the judge's shim says is watched (its fault's reply) runs as the shim
 * runs one in the judge's own process (kernel/shim.c, "the attribution
 * watch"): once with the watched bytes inverted and once on their true
 * bytes, single-stepped (EFLAGS.TF), the page read-only again after.
 * What goes back (K_STORE) is whether it reached the bytes and its
 * frames in the builder's libraries, each as (library, offset from its
 * load address): the judge names them from the library file itself. */
#define DRV_WATCH_LIBS 8u
static struct {
    int armed;
    struct sigaction prev_trap;
    uintptr_t lo[DRV_WATCH_LIBS], hi[DRV_WATCH_LIBS]; /* each library's mapped span */
    uint32_t libs;
    uint8_t *page; /* the store under way, between its fault and its second trap */
    uint32_t off, len, phase, reached;
    uint8_t before[64];
#if defined(__x86_64__)
    gregset_t regs;
#endif
    uintptr_t pc, sp; /* the store whose frames are kept: a loop's stores are unwound once */
    uint32_t nframes;
    uint32_t record[3 + 3 * PBC_SHIM_STORE_FRAMES]; /* K_STORE, reached, count, then lib, offset lo, hi */
} drv_watch;
static uint8_t drv_watch_page_was[PBC_PAGE_SIZE];

typedef struct drv_find {
    uintptr_t at, lo, hi;
} drv_find;

static int drv_find_object(struct dl_phdr_info *info, size_t size, void *ctx)
{
    (void)size;
    drv_find *f = ctx;
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    for (ElfW(Half) k = 0; k < info->dlpi_phnum; k++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[k];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t a = info->dlpi_addr + ph->p_vaddr;
        lo = a < lo ? a : lo;
        hi = a + ph->p_memsz > hi ? a + ph->p_memsz : hi;
    }
    if (f->at < lo || f->at >= hi)
        return 0;
    f->lo = lo & ~(uintptr_t)(PBC_PAGE_SIZE - 1); /* the load address, as dladdr's dli_fbase */
    f->hi = hi;
    return 1;
}

/* Each served library's span, found from its BuildPagingBuffer hook. */
static void drv_watch_libraries(void)
{
    drv_watch.libs = 0;
    for (uint32_t i = 0; i < ddi.target_count && i < DRV_WATCH_LIBS; i++) {
        drv_find f = {(uintptr_t)ddi.targets[i]->build_paging_buffer, 0, 0};
        if (!dl_iterate_phdr(drv_find_object, &f))
            f.lo = f.hi = 0; /* not in a library: names nothing */
        drv_watch.lo[i] = f.lo;
        drv_watch.hi[i] = f.hi;
        drv_watch.libs = i + 1;
    }
}

#if defined(__x86_64__)
#define DRV_EFLAGS_TF 0x100

/* The builder's frames of the store at pc (the signal frame's callers
 * from it on), as (library, offset) into the record. */
static void drv_watch_frames(uintptr_t pc, uintptr_t sp)
{
    if (drv_watch.nframes && drv_watch.pc == pc && drv_watch.sp == sp)
        return;
    void *raw[PBC_SHIM_STORE_FRAMES + 16];
    int n = backtrace(raw, (int)PBC_ARRAY_LEN(raw));
    int from = 0;
    while (from < n && (uintptr_t)raw[from] != pc)
        from++;
    uint32_t count = 0;
    for (int k = from; count < PBC_SHIM_STORE_FRAMES && (k < n || k == from); k++) {
        uintptr_t at = k == from ? pc : (uintptr_t)raw[k] - 1; /* a return address: the call, a byte before */
        for (uint32_t j = 0; j < drv_watch.libs; j++) {
            if (at < drv_watch.lo[j] || at >= drv_watch.hi[j])
                continue;
            uint64_t offset = at - drv_watch.lo[j];
            uint32_t *e = &drv_watch.record[3 + 3 * count++];
            e[0] = j;
            e[1] = (uint32_t)offset;
            e[2] = (uint32_t)(offset >> 32);
            break;
        }
    }
    drv_watch.nframes = count ? count : UINT32_MAX; /* UINT32_MAX: unwound, none of the builder's */
    drv_watch.pc = pc;
    drv_watch.sp = sp;
}

static void drv_watch_begin(uint8_t *page, uint32_t off, uint32_t len, ucontext_t *u)
{
    if (len == 0 || len > sizeof(drv_watch.before) || off > PBC_PAGE_SIZE - len)
        return; /* the judge's shim says no such thing */
    drv_watch_frames((uintptr_t)u->uc_mcontext.gregs[REG_RIP], (uintptr_t)u->uc_mcontext.gregs[REG_RSP]);
    drv_watch.page = page;
    drv_watch.off = off;
    drv_watch.len = len;
    memcpy(drv_watch.before, page + off, len);
    memcpy(drv_watch_page_was, page, PBC_PAGE_SIZE);
    for (uint32_t k = 0; k < len; k++)
        page[off + k] = (uint8_t)~drv_watch.before[k];
    memcpy(drv_watch.regs, u->uc_mcontext.gregs, sizeof(drv_watch.regs));
    drv_watch.phase = 1;
    u->uc_mcontext.gregs[REG_EFL] |= DRV_EFLAGS_TF;
}

static void drv_trap(int sig, siginfo_t *si, void *uc)
{
    if (!drv_watch.page) { /* not a watched store's: the trap it would have been */
        const struct sigaction *p = &drv_watch.prev_trap;
        if (p->sa_flags & SA_SIGINFO)
            p->sa_sigaction(sig, si, uc);
        else if (p->sa_handler != SIG_IGN && p->sa_handler != SIG_DFL)
            p->sa_handler(sig);
        else {
            signal(sig, SIG_DFL);
            raise(sig);
        }
        return;
    }
    ucontext_t *u = uc;
    uint8_t *at = drv_watch.page + drv_watch.off;
    if (drv_watch.phase == 1) {
        drv_watch.reached = 0;
        for (uint32_t k = 0; k < drv_watch.len; k++)
            drv_watch.reached |= at[k] != (uint8_t)~drv_watch.before[k];
        memcpy(drv_watch.page, drv_watch_page_was, PBC_PAGE_SIZE);
        memcpy(u->uc_mcontext.gregs, drv_watch.regs, sizeof(drv_watch.regs));
        u->uc_mcontext.gregs[REG_EFL] |= DRV_EFLAGS_TF;
        drv_watch.phase = 2;
        return;
    }
    drv_watch.reached |= memcmp(at, drv_watch.before, drv_watch.len) != 0;
    u->uc_mcontext.gregs[REG_EFL] &= ~(greg_t)DRV_EFLAGS_TF;
    uint32_t n = drv_watch.nframes == UINT32_MAX ? 0 : drv_watch.nframes;
    drv_watch.record[0] = K_STORE;
    drv_watch.record[1] = drv_watch.reached ? 1u : 0u;
    drv_watch.record[2] = n;
    size_t len;
    drv_signal_callback(drv_watch.record, (3 + 3 * (size_t)n) * sizeof(uint32_t), &len);
    if (mprotect(drv_watch.page, PBC_PAGE_SIZE, PROT_READ)) /* its next store faults too */
        _exit(PBC_DDI_LOST_EXIT);
    drv_watch.page = NULL;
    drv_watch.phase = 0;
}
#endif

static void drv_watch_arm(int on)
{
#if defined(__x86_64__)
    if (on && !drv_watch.armed) {
        drv_watch_libraries();
        backtrace((void *[1]){0}, 1); /* loads the unwinder now, not in the handler */
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_sigaction = drv_trap;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGTRAP, &sa, &drv_watch.prev_trap);
    } else if (!on && drv_watch.armed) {
        sigaction(SIGTRAP, &drv_watch.prev_trap, NULL);
    }
    drv_watch.armed = on;
    drv_watch.nframes = 0;
#else
    (void)on;
#endif
}

/* A fault in a view or a watched pool: the judge's shim serves it
 * (fills the page, notes the write) and says how the page is to be
 * mapped now, and whether the store is one its watch wants. Everything
 * here is async-signal-safe. */
static void drv_segv(int sig, siginfo_t *si, void *uc)
{
    uint64_t at = (uint64_t)(uintptr_t)si->si_addr;
    if (si->si_code == SEGV_ACCERR && (ddi_in_zone(at) || ddi_in_pools(at))) {
#if defined(__x86_64__)
        uint32_t wrote = (((const ucontext_t *)uc)->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#else
        uint32_t wrote = 1;
#endif
        uint32_t body[4] = {K_FAULT, (uint32_t)at, (uint32_t)(at >> 32), wrote};
        size_t len;
        const uint8_t *reply = drv_signal_callback(body, sizeof(body), &len);
        uint32_t served[3] = {0, 0, 0};
        if (len != 4 && len != 12)
            _exit(0);
        memcpy(served, reply, len);
#if defined(__x86_64__)
        if (served[0] == 2 && drv_watch.armed && !drv_watch.page)
            drv_watch_begin((uint8_t *)(uintptr_t)(at & ~(uint64_t)(PBC_PAGE_SIZE - 1)), served[1], served[2], uc);
#endif
        if (served[0])
            return;
    }
    sigaction(sig, &drv_prev_segv, NULL); /* the driver's own crash: as it would end anyway */
    if (drv_prev_segv.sa_flags & SA_SIGINFO)
        drv_prev_segv.sa_sigaction(sig, si, uc);
}

static pbc_host drv_host = {PBC_TARGET_ABI_VERSION, sizeof(pbc_host), NULL, host_ring_submit, host_ring_fence,
                            host_mmio_read, host_mmio_write, host_log, host_queue_cpu_work};
static pbc_segment_info drv_segments[PBC_MAX_SEGMENTS];

/* What the driver's kernel found since the last answer. */
static void drv_put_findings(pbc_wire_buf *b, int end_of_run)
{
    char first[512];
    uint32_t (*const take[])(char *, size_t) = {pbc_kernel_take_bad_frees, pbc_kernel_take_lock_errors,
                                                pbc_kernel_take_bugchecks, pbc_kernel_take_unserved};
    for (size_t k = 0; k < PBC_ARRAY_LEN(take); k++) {
        uint32_t n = take[k](first, sizeof(first));
        pbc_wire_put_u32(b, n);
        pbc_wire_put_str(b, n ? first : NULL);
    }
    uint32_t leaks = end_of_run ? pbc_kernel_take_leaks(first, sizeof(first)) : 0;
    pbc_wire_put_u32(b, leaks);
    pbc_wire_put_str(b, leaks ? first : NULL);
    uint32_t threads = end_of_run ? pbc_kernel_take_threads(first, sizeof(first)) : 0;
    pbc_wire_put_u32(b, threads);
    pbc_wire_put_str(b, threads ? first : NULL);
    const char *assert_first;
    uint32_t asserts = pbc_shim_take_asserts(&assert_first);
    pbc_wire_put_u32(b, asserts);
    pbc_wire_put_str(b, asserts ? assert_first : NULL);
    uint64_t writes = pbc_shim_take_register_writes();
    pbc_wire_put_u32(b, writes > UINT32_MAX ? UINT32_MAX : (uint32_t)writes);
}

/* One call of the judge's, served: the answer's body in out. */
static void drv_serve(const pbc_target *t, uint32_t kind, pbc_wire_reader *r, pbc_wire_buf *out)
{
    int end_of_run = 0;
    switch (kind) {
    case K_CREATE_ADAPTER: {
        pbc_kernel_reset();
        pbc_adapter_info info = {.struct_size = sizeof(info), .host = &drv_host};
        info.segment_count = pbc_wire_get_u32(r);
        for (uint32_t i = 0; i < info.segment_count && i < PBC_MAX_SEGMENTS; i++) {
            drv_segments[i].SegmentId = pbc_wire_get_u32(r);
            drv_segments[i].kind = pbc_wire_get_u32(r);
            drv_segments[i].base = pbc_wire_get_u64(r);
            drv_segments[i].size = pbc_wire_get_u64(r);
        }
        info.segments = drv_segments;
        info.dummy_page = pbc_wire_get_u64(r);
        info.mmio_physical = pbc_wire_get_u64(r);
        info.mmio_size = pbc_wire_get_u32(r);
        pbc_shim_serve_registers(ddi_registers(), info.mmio_physical);
        HANDLE adapter = NULL;
        pbc_shim_enter();
        NTSTATUS st = t->create_adapter(&info, &adapter);
        pbc_shim_leave();
        pbc_wire_put_u32(out, (uint32_t)st);
        pbc_wire_put_u64(out, (uint64_t)(uintptr_t)adapter);
        break;
    }
    case K_DESTROY_ADAPTER: {
        HANDLE adapter = (HANDLE)(uintptr_t)pbc_wire_get_u64(r);
        pbc_shim_enter();
        t->destroy_adapter(adapter);
        pbc_shim_leave();
        end_of_run = 1;
        break;
    }
    case K_CREATE_ALLOCATION: {
        HANDLE adapter = (HANDLE)(uintptr_t)pbc_wire_get_u64(r);
        pbc_allocation_info info = {.struct_size = sizeof(info)};
        info.flags = pbc_wire_get_u32(r);
        info.size = pbc_wire_get_u64(r);
        HANDLE h = NULL;
        pbc_shim_enter();
        NTSTATUS st = t->create_allocation(adapter, &info, &h);
        pbc_shim_leave();
        pbc_wire_put_u32(out, (uint32_t)st);
        pbc_wire_put_u64(out, (uint64_t)(uintptr_t)h);
        break;
    }
    case K_DESTROY_ALLOCATION: {
        HANDLE adapter = (HANDLE)(uintptr_t)pbc_wire_get_u64(r);
        HANDLE h = (HANDLE)(uintptr_t)pbc_wire_get_u64(r);
        pbc_shim_enter();
        t->destroy_allocation(adapter, h);
        pbc_shim_leave();
        break;
    }
    case K_BUILD:
    case K_PATCH:
    case K_SUBMIT: {
        HANDLE adapter = (HANDLE)(uintptr_t)pbc_wire_get_u64(r);
        void *at = (void *)(uintptr_t)pbc_wire_get_u64(r);
        NTSTATUS st;
        pbc_shim_enter();
        if (kind == K_BUILD)
            st = t->build_paging_buffer(adapter, at);
        else if (kind == K_PATCH)
            st = t->patch(adapter, at);
        else {
            pbc_kernel_on_wake(drv_wake, NULL);
            st = t->submit_command(adapter, at);
            pbc_kernel_on_wake(NULL, NULL);
        }
        pbc_shim_leave();
        pbc_wire_put_u32(out, (uint32_t)st);
        break;
    }
    case K_GART_VIEW: {
        HANDLE adapter = (HANDLE)(uintptr_t)pbc_wire_get_u64(r);
        uint32_t segment = pbc_wire_get_u32(r);
        uint64_t index = pbc_wire_get_u64(r);
        pbc_gart_view v = {0};
        pbc_shim_enter();
        int rc = t->gart_view(adapter, segment, index, &v);
        pbc_shim_leave();
        pbc_wire_put_u32(out, (uint32_t)rc);
        pbc_wire_put_u32(out, v.valid);
        pbc_wire_put_u32(out, v.cache_coherent);
        pbc_wire_put_u64(out, v.page);
        break;
    }
    case K_CONTEXT_DATA: {
        HANDLE adapter = (HANDLE)(uintptr_t)pbc_wire_get_u64(r);
        HANDLE h = (HANDLE)(uintptr_t)pbc_wire_get_u64(r);
        uint32_t cap = pbc_wire_get_u32(r);
        if (cap > DDI_MAX_FRAME / 2)
            cap = DDI_MAX_FRAME / 2;
        uint8_t *buf = pbc_xcalloc(1, cap ? cap : 1);
        pbc_shim_enter();
        uint32_t n = t->context_update_data(adapter, h, buf, cap);
        pbc_shim_leave();
        pbc_wire_put_bytes(out, buf, n < cap ? n : cap);
        free(buf);
        break;
    }
    case K_CPU_WORK: {
        void (*fn)(void *) = (void (*)(void *))(uintptr_t)pbc_wire_get_u64(r);
        void *arg = (void *)(uintptr_t)pbc_wire_get_u64(r);
        pbc_shim_enter();
        fn(arg);
        pbc_shim_leave();
        break;
    }
    case K_YIELD:
        pbc_kernel_yield();
        break;
    case K_WATCH:
        drv_watch_arm(pbc_wire_get_u32(r) != 0);
        break;
    default:
        _exit(0);
    }
    drv_put_findings(out, end_of_run);
}

#define DRV_REAP_EVERY 64u

/* One call of the judge's: served, answered, its body freed. */
static void drv_dispatch(const pbc_wire_head *h, uint8_t *body)
{
    size_t at = drv_apply(body, h->len);
    if (!at)
        _exit(0);
    pbc_wire_reader r = {body, h->len, at, 0};
    uint32_t kind = pbc_wire_get_u32(&r);
    uint32_t index = pbc_wire_get_u32(&r);
    if (index >= ddi.target_count)
        _exit(0);
    ddi.call_seq = h->seq;
    pbc_wire_buf out = {0};
    drv_serve(ddi.targets[index], kind, &r, &out);
    if (drv_send(h->seq, DDI_ANSWER, out.p, out.n))
        _exit(0);
    free(out.p);
    free(body);
    /* The builder's ended children (and orphans of theirs: this process
     * is their reaper) are not left as zombies: reaped when an adapter is
     * made or destroyed and every DRV_REAP_EVERY calls counted from the
     * adapter's making, so when that happens depends on the case alone.
     * Not with a SIGCHLD handler, which would cut the builder's own
     * sleeps short. */
    static uint32_t calls;
    if (kind == K_CREATE_ADAPTER)
        calls = 0;
    if (kind == K_CREATE_ADAPTER || kind == K_DESTROY_ADAPTER || ++calls % DRV_REAP_EVERY == 0)
        while (waitpid(-1, NULL, WNOHANG) > 0)
            ;
}

_Noreturn void pbc_ddi_serve(const pbc_target *const *targets, uint32_t count)
{
    pbc_shim_set_remote(&drv_remote);
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = drv_segv;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &drv_prev_segv);
    ddi.sock = ddi.ends[1];
    chan.in = &chan.rings[0];
    chan.out = &chan.rings[1];
    ddi.targets = targets;
    ddi.target_count = count;
    for (;;) {
        pbc_wire_head h;
        uint8_t *body;
        if (ddi_recv(&h, &body) || h.flags != 0)
            _exit(0); /* the judge is done with us */
        drv_dispatch(&h, body);
    }
}
