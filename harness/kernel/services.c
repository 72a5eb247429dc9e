/*
 * The kernel services a display miniport calls, served for one run. The
 * run is one CPU: driver code never runs on two threads at once. The DDI
 * thread holds the CPU while the harness calls into the driver
 * (pbc_kernel_enter/leave); a system thread the driver starts
 * (PsCreateSystemThread) is a real thread that holds it while it runs and
 * gives it up only inside a wait, a delay or a stall, so the single-threaded
 * checks below stay exact. With no other thread to signal it, a wait is
 * satisfied or times out at once and a stall advances a deterministic
 * clock. DPCs run at DISPATCH_LEVEL as soon as the IRQL allows. What a
 * driver gets wrong — a leaked or badly freed pool block, a spin lock taken
 * twice, a wait that could never end, a bug check, a thread left running —
 * is recorded for the harness to report as a finding, and the call returns
 * as Windows' would have returned had it not crashed. DbgPrint output is
 * formatted with Windows' conversions (%lx is 32-bit, %I64x, %ws, %wZ...)
 * and captured in the run's log.
 */
#include "kernel/services.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pbcheck/wdk/wdm.h>

#include "base/util.h"

#define KS_MSG_MAX 512u          /* one DbgPrint message, as on Windows */
#define KS_FIRST_MAX 256u
#define KS_QPC_FREQUENCY 10000000 /* 10 MHz: one tick is 100 ns */
#define KS_UNINIT_FILL 0xC1      /* uninitialised pool, deterministic */
/* How long a DDI thread really waits for the driver's other threads, and
 * how long the end of a run waits for them to reach a wait: a bound, so a
 * driver that never signals cannot hang the harness. */
#define KS_DDI_WAIT_MS 2000
#define KS_END_WAIT_MS 1000
#define KS_THREAD_OBJECT 6 /* DISPATCHER_HEADER.Type of a thread, as on Windows */
#define KS_DPC_OBJECT 19

typedef enum ks_kind { KS_BAD_FREE, KS_LOCK, KS_BUGCHECK, KS_UNSERVED, KS_KINDS } ks_kind;

typedef struct ks_finding {
    uint32_t count;
    char first[KS_FIRST_MAX];
} ks_finding;

typedef struct ks_block {
    void *p;
    size_t size;
    ULONG tag;
} ks_block;

typedef struct ks_thread ks_thread;

typedef struct ks_state {
    ks_finding found[KS_KINDS];
    ks_thread *threads;       /* system threads started this run, newest first */
    uint32_t live_threads;    /* of those, not yet ended */
    int terminating;          /* the run is ending: a thread that waits ends */
    KDPC *dpc_first, *dpc_last; /* queued DPCs, linked through DpcListEntry */
    int dpc_running;
    ks_block *blocks; /* live pool blocks, in allocation order */
    uint32_t block_count, block_cap;
    size_t log_len;
    uint32_t log_dropped;
    KIRQL irql;
    uint64_t stalled_us;
    int64_t qpc;
    char log[PBC_KERNEL_LOG_MAX]; /* a reset clears what comes before it */
    uint32_t open;            /* the DDI thread has given the CPU to the system threads (a wait, a
                                 delay, pbc_kernel_yield, the end of the run); nesting */
    void (*wake)(void *ctx);  /* pbc_kernel_on_wake */
    void *wake_ctx;
    pthread_mutex_t cpu;          /* the run's one CPU */
    pthread_cond_t changed;       /* an object was signalled or a thread ended */
} ks_state;

/* A system thread. The dispatcher header comes first: a wait on the thread
 * object is satisfied when the thread has ended. */
struct ks_thread {
    DISPATCHER_HEADER Header;
    ks_thread *next;
    ks_state *run;
    pthread_t tid;
    PKSTART_ROUTINE routine;
    PVOID context;
    void *binding;   /* the CPU hooks' binding of the thread that started it */
    int blocked;     /* in a wait on the objects below, not yet satisfied */
    ULONG wait_count;
    PVOID *wait_objects;
    WAIT_TYPE wait_type;
    int handle_open; /* ZwClose not called yet */
    uint32_t refs;   /* ObReferenceObjectByHandle not yet dereferenced */
    int ended;
};

/* Each harness thread's run; a system thread uses the run of the thread
 * that created it (ks_run). */
static _Thread_local ks_state ks_own = {.cpu = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER};
static _Thread_local ks_state *ks_run;
static _Thread_local unsigned ks_depth;  /* pbc_kernel_enter nesting on this thread */
static _Thread_local ks_thread *ks_self; /* the system thread this is, or NULL */

static ks_state *ks_here(void) { return ks_run ? ks_run : &ks_own; }
#define ks (*ks_here())

/* The WDK shim's side of a CPU hand-over (pbc_kernel_set_cpu_hooks):
 * one set per process. */
static const pbc_kernel_cpu_hooks *_Atomic ks_hooks;

void pbc_kernel_set_cpu_hooks(const pbc_kernel_cpu_hooks *hooks) { ks_hooks = hooks; }

/* A system thread has the CPU again (mutex held): it waits until the DDI
 * thread has given the CPU away, then the shim serves it. */
static void ks_gain(void)
{
    while (!ks.open)
        pthread_cond_wait(&ks.changed, &ks.cpu);
    const pbc_kernel_cpu_hooks *h = ks_hooks;
    if (h)
        h->gain(ks_self->binding);
}

/* A system thread is about to give the CPU up. */
static void ks_lose(void)
{
    const pbc_kernel_cpu_hooks *h = ks_hooks;
    if (h)
        h->lose(ks_self->binding);
}

static void ks_dpc_drain(void);

void pbc_kernel_enter(void)
{
    if (ks_depth++ == 0)
        pthread_mutex_lock(&ks.cpu);
}

void pbc_kernel_leave(void)
{
    if (ks_depth == 0)
        return;
    if (ks_depth == 1 && ks.dpc_first) /* the CPU is held: no DPC can be queued meanwhile */
        ks_dpc_drain();                  /* a DPC queued during the call runs before it returns */
    if (--ks_depth == 0)
        pthread_mutex_unlock(&ks.cpu);
}

/* For calls that may come from a thread that has not entered (harness
 * code between DDI calls, a test): take the CPU for the call. */
static int ks_hold(void)
{
    if (ks_depth)
        return 0;
    pbc_kernel_enter();
    return 1;
}

static void ks_unhold(int took)
{
    if (took)
        pbc_kernel_leave();
}

/* Another thread could signal what this thread waits on: for a system
 * thread there is always the DDI thread (its next call, or the end of the
 * run); for the DDI thread, a live system thread. */
static int ks_others_live(void) { return ks_self || ks.live_threads > 0; }

static struct timespec ks_deadline(int64_t ms)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_sec += (time_t)(ms / 1000);
    t.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

static void ks_record(ks_kind kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void ks_record(ks_kind kind, const char *fmt, ...)
{
    int took = ks_hold();
    ks_finding *f = &ks.found[kind];
    if (__atomic_fetch_add(&f->count, 1, __ATOMIC_RELAXED) == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(f->first, sizeof(f->first), fmt, ap);
        va_end(ap);
    }
    ks_unhold(took);
}

static uint32_t ks_take(ks_kind kind, char *first, size_t n)
{
    ks_finding *f = &ks.found[kind];
    /* After every DDI call, and nearly always nothing: no lock then. A
     * count a system thread raises after this look is taken next time, as
     * if it came after; one raised before it is seen (the lock below then
     * waits for its text). */
    if (__atomic_load_n(&f->count, __ATOMIC_RELAXED) == 0) {
        if (first && n)
            first[0] = '\0';
        return 0;
    }
    int took = ks_hold();
    uint32_t count = f->count;
    if (first && n && count)
        snprintf(first, n, "%s", f->first);
    else if (first && n)
        first[0] = '\0'; /* after every DDI call: no formatting when nothing happened */
    __atomic_store_n(&f->count, 0, __ATOMIC_RELAXED);
    f->first[0] = '\0';
    ks_unhold(took);
    return count;
}

/* A pool tag as Windows tools print it: its bytes in memory order. */
static void ks_tag_text(ULONG tag, char out[5])
{
    for (int i = 0; i < 4; i++) {
        unsigned char c = (unsigned char)(tag >> (8 * i));
        out[i] = c >= 0x20 && c < 0x7f ? (char)c : '.';
    }
    out[4] = '\0';
}

void pbc_kernel_reset(void)
{
    int took = ks_hold();
    pbc_kernel_take_threads(NULL, 0); /* a thread of the last run never outlives it */
    for (uint32_t i = 0; i < ks.block_count; i++)
        free(ks.blocks[i].p);
    free(ks.blocks);
    memset(&ks, 0, offsetof(ks_state, log)); /* the log is as long as log_len says */
    ks.log[0] = '\0';
    ks_unhold(took);
}

const char *pbc_kernel_log(size_t *len)
{
    if (len)
        *len = ks.log_len;
    return ks.log;
}

uint32_t pbc_kernel_log_dropped(void) { return ks.log_dropped; }

static void (*ks_remote_yield)(void);
/* What a driver process's kernel found about leaks and threads at the end
 * of its run (pbc_kernel_note): taken by the next take of its kind. */
static ks_finding ks_remote_end[2];
static uint32_t ks_take_remote_end(pbc_kernel_note_kind kind, char *first, size_t n);

uint32_t pbc_kernel_take_leaks(char *first, size_t n)
{
    if (ks_remote_yield)
        return ks_take_remote_end(PBC_KERNEL_NOTE_LEAKS, first, n);
    int took = ks_hold();
    uint32_t count = ks.block_count;
    if (first && n) {
        first[0] = '\0';
        if (count) {
            char tag[5];
            ks_tag_text(ks.blocks[0].tag, tag);
            snprintf(first, n, "%u pool block(s) leaked; first: tag '%s', %zu bytes", count, tag,
                     ks.blocks[0].size);
        }
    }
    for (uint32_t i = 0; i < ks.block_count; i++)
        free(ks.blocks[i].p);
    ks.block_count = 0;
    ks_unhold(took);
    return count;
}


void pbc_kernel_note(pbc_kernel_note_kind kind, uint32_t count, const char *first)
{
    if (!count || kind >= PBC_KERNEL_NOTE_KINDS)
        return;
    int took = ks_hold();
    ks_finding *f = kind >= PBC_KERNEL_NOTE_LEAKS ? &ks_remote_end[kind - PBC_KERNEL_NOTE_LEAKS]
                                                   : &ks.found[(ks_kind)kind];
    if (f->count == 0)
        snprintf(f->first, sizeof(f->first), "%s", first ? first : "");
    __atomic_fetch_add(&f->count, count, __ATOMIC_RELAXED); /* ks_take looks without the lock */
    ks_unhold(took);
}

void pbc_kernel_set_remote(void (*yield)(void)) { ks_remote_yield = yield; }

void pbc_kernel_remote_wake(void)
{
    if (ks.wake)
        ks.wake(ks.wake_ctx);
}

/* A noted end-of-run finding of a driver process, taken: its count. */
static uint32_t ks_take_remote_end(pbc_kernel_note_kind kind, char *first, size_t n)
{
    ks_finding *f = &ks_remote_end[kind - PBC_KERNEL_NOTE_LEAKS];
    uint32_t count = f->count;
    if (first && n && count)
        snprintf(first, n, "%s", f->first);
    f->count = 0;
    f->first[0] = '\0';
    return count;
}

uint32_t pbc_kernel_take_bad_frees(char *first, size_t n) { return ks_take(KS_BAD_FREE, first, n); }
uint32_t pbc_kernel_take_lock_errors(char *first, size_t n) { return ks_take(KS_LOCK, first, n); }
uint32_t pbc_kernel_take_bugchecks(char *first, size_t n) { return ks_take(KS_BUGCHECK, first, n); }
uint32_t pbc_kernel_take_unserved(char *first, size_t n) { return ks_take(KS_UNSERVED, first, n); }

void pbc_kernel_unserved(const char *callback)
{
    ks_record(KS_UNSERVED,
              "%s called: a DXGKRNL_INTERFACE callback pbcheck does not serve, so the call failed "
              "(docs/wdk-headers.md, \"What the harness serves\")",
              callback);
}
uint64_t pbc_kernel_stalled_us(void) { return ks.stalled_us; }

/* ---- Debug output ---- */

/* The length modifiers Windows' formatting understands. */
typedef enum ks_size { KS_SZ_INT, KS_SZ_CHAR, KS_SZ_SHORT, KS_SZ_64, KS_SZ_WIDE, KS_SZ_NARROW } ks_size;

static void ks_put(char *out, size_t cap, size_t *at, const char *s, size_t n)
{
    for (size_t i = 0; i < n && *at + 1 < cap; i++)
        out[(*at)++] = s[i];
    out[*at] = '\0';
}

/* A 16-bit string as ASCII ('?' for the rest), at most max characters. */
static void ks_narrow(const WCHAR *w, size_t max, char *out, size_t cap)
{
    size_t i = 0;
    for (; w && i < max && w[i] && i + 1 < cap; i++)
        out[i] = w[i] < 0x80 ? (char)w[i] : '?';
    out[i] = '\0';
}

static void ks_format(char *out, size_t cap, const char *f, va_list *ap)
{
    size_t at = 0;
    out[0] = '\0';
    while (*f) {
        if (*f != '%') {
            ks_put(out, cap, &at, f++, 1);
            continue;
        }
        f++;
        if (*f == '%') {
            ks_put(out, cap, &at, f++, 1);
            continue;
        }
        char spec[48];
        size_t k = 0;
        spec[k++] = '%';
        while (*f && strchr("-+ #0", *f) && k < 8)
            spec[k++] = *f++;
        if (*f == '*') {
            k += (size_t)snprintf(spec + k, sizeof(spec) - k, "%d", va_arg(*ap, int));
            f++;
        } else {
            while (*f >= '0' && *f <= '9' && k < 20)
                spec[k++] = *f++;
        }
        if (*f == '.') {
            spec[k++] = *f++;
            if (*f == '*') {
                k += (size_t)snprintf(spec + k, sizeof(spec) - k, "%d", va_arg(*ap, int));
                f++;
            } else {
                while (*f >= '0' && *f <= '9' && k < 32)
                    spec[k++] = *f++;
            }
        }
        ks_size size = KS_SZ_INT;
        if (f[0] == 'h' && f[1] == 'h') {
            size = KS_SZ_CHAR;
            f += 2;
        } else if (f[0] == 'h') {
            size = KS_SZ_SHORT;
            f++;
        } else if (f[0] == 'l' && f[1] == 'l') {
            size = KS_SZ_64;
            f += 2;
        } else if (f[0] == 'l' || f[0] == 'w') {
            size = KS_SZ_WIDE; /* on integers: Windows' long, 32-bit */
            f++;
        } else if (f[0] == 'I' && f[1] == '6' && f[2] == '4') {
            size = KS_SZ_64;
            f += 3;
        } else if (f[0] == 'I' && f[1] == '3' && f[2] == '2') {
            f += 3;
        } else if (f[0] == 'I' || f[0] == 'z' || f[0] == 't' || f[0] == 'j') {
            size = KS_SZ_64;
            f++;
        } else if (f[0] == 'L') {
            f++;
        }
        if (size == KS_SZ_SHORT && (*f == 's' || *f == 'c'))
            size = KS_SZ_NARROW;
        char conv = *f;
        if (!conv)
            break;
        f++;
        char piece[KS_MSG_MAX];
        piece[0] = '\0';
        switch (conv) {
        case 'd':
        case 'i':
        case 'u':
        case 'x':
        case 'X':
        case 'o': {
            int is_signed = conv == 'd' || conv == 'i';
            const char *len = size == KS_SZ_64 ? "ll" : size == KS_SZ_CHAR ? "hh" : size == KS_SZ_SHORT ? "h" : "";
            snprintf(spec + k, sizeof(spec) - k, "%s%c", len, conv);
            if (size == KS_SZ_64) {
                if (is_signed)
                    snprintf(piece, sizeof(piece), spec, va_arg(*ap, long long));
                else
                    snprintf(piece, sizeof(piece), spec, va_arg(*ap, unsigned long long));
            } else {
                if (is_signed)
                    snprintf(piece, sizeof(piece), spec, va_arg(*ap, int));
                else
                    snprintf(piece, sizeof(piece), spec, va_arg(*ap, unsigned int));
            }
            break;
        }
        case 'c':
        case 'C': {
            int c = va_arg(*ap, int);
            char ch = (size == KS_SZ_WIDE || conv == 'C') && (c < 0 || c >= 0x80) ? '?' : (char)c;
            snprintf(spec + k, sizeof(spec) - k, "c");
            snprintf(piece, sizeof(piece), spec, ch);
            break;
        }
        case 's':
        case 'S':
        case 'Z': {
            char text[KS_MSG_MAX];
            int wide = (size == KS_SZ_WIDE && conv != 'S') || (conv == 'S' && size != KS_SZ_NARROW);
            if (conv == 'Z') {
                if (size == KS_SZ_WIDE) {
                    const UNICODE_STRING *u = va_arg(*ap, const UNICODE_STRING *);
                    if (u)
                        ks_narrow(u->Buffer, u->Length / sizeof(WCHAR), text, sizeof(text));
                    else
                        snprintf(text, sizeof(text), "(null)");
                } else {
                    const ANSI_STRING *a = va_arg(*ap, const ANSI_STRING *);
                    if (a && a->Buffer)
                        snprintf(text, sizeof(text), "%.*s", (int)a->Length, a->Buffer);
                    else
                        snprintf(text, sizeof(text), "(null)");
                }
            } else if (wide) {
                const WCHAR *w = va_arg(*ap, const WCHAR *);
                if (w)
                    ks_narrow(w, (size_t)-1, text, sizeof(text));
                else
                    snprintf(text, sizeof(text), "(null)");
            } else {
                const char *s = va_arg(*ap, const char *);
                snprintf(text, sizeof(text), "%s", s ? s : "(null)");
            }
            snprintf(spec + k, sizeof(spec) - k, "s");
            snprintf(piece, sizeof(piece), spec, text);
            break;
        }
        case 'p':
            snprintf(piece, sizeof(piece), "%016llX", (unsigned long long)(uintptr_t)va_arg(*ap, void *));
            break;
        case 'e':
        case 'E':
        case 'f':
        case 'g':
        case 'G':
        case 'a':
        case 'A':
            snprintf(spec + k, sizeof(spec) - k, "%c", conv);
            snprintf(piece, sizeof(piece), spec, va_arg(*ap, double));
            break;
        case 'n':
            (void)va_arg(*ap, void *); /* never written: a format is not a store */
            break;
        default:
            snprintf(piece, sizeof(piece), "%%%c", conv);
            break;
        }
        ks_put(out, cap, &at, piece, strlen(piece));
    }
}

static int ks_echo_fd = -1; /* per process: the worker's capture file */

void pbc_kernel_log_echo(int fd) { ks_echo_fd = fd; }

/* One message to the echo file, a prefix on each of its lines, in one
 * write: what is written survives the process. */
static void ks_echo(const char *msg, size_t n)
{
    static const char prefix[] = PBC_KERNEL_ECHO_PREFIX;
    char out[KS_MSG_MAX * 2 + 64];
    size_t at = 0;
    for (size_t i = 0; i < n && at + sizeof(prefix) + 2 < sizeof(out);) {
        memcpy(out + at, prefix, sizeof(prefix) - 1);
        at += sizeof(prefix) - 1;
        while (i < n && msg[i] != '\n' && at + 2 < sizeof(out))
            out[at++] = msg[i++];
        out[at++] = '\n';
        i += i < n && msg[i] == '\n';
    }
    ssize_t ignored = write(ks_echo_fd, out, at);
    (void)ignored;
}

static void ks_log_message(const char *fmt, va_list *ap)
{
    char msg[KS_MSG_MAX];
    ks_format(msg, sizeof(msg), fmt ? fmt : "(null)", ap);
    size_t n = strlen(msg);
    int took = ks_hold();
    if (ks_echo_fd >= 0 && n)
        ks_echo(msg, n);
    if (ks.log_len + n + 1 > sizeof(ks.log))
        ks.log_dropped++;
    else {
        memcpy(ks.log + ks.log_len, msg, n + 1);
        ks.log_len += n;
    }
    ks_unhold(took);
}

ULONG DbgPrint(const char *Format, ...)
{
    va_list ap;
    va_start(ap, Format);
    ks_log_message(Format, &ap);
    va_end(ap);
    return (ULONG)STATUS_SUCCESS;
}

ULONG DbgPrintEx(ULONG ComponentId, ULONG Level, const char *Format, ...)
{
    (void)ComponentId;
    (void)Level;
    va_list ap;
    va_start(ap, Format);
    ks_log_message(Format, &ap);
    va_end(ap);
    return (ULONG)STATUS_SUCCESS;
}

VOID DbgBreakPoint(VOID) { ks_record(KS_BUGCHECK, "DbgBreakPoint (a break point with no debugger)"); }

VOID KeBugCheckEx(ULONG BugCheckCode, ULONG_PTR BugCheckParameter1, ULONG_PTR BugCheckParameter2,
                  ULONG_PTR BugCheckParameter3, ULONG_PTR BugCheckParameter4)
{
    ks_record(KS_BUGCHECK, "bug check 0x%X (0x%llX, 0x%llX, 0x%llX, 0x%llX)", BugCheckCode,
              (unsigned long long)BugCheckParameter1, (unsigned long long)BugCheckParameter2,
              (unsigned long long)BugCheckParameter3, (unsigned long long)BugCheckParameter4);
}

VOID KeBugCheck(ULONG BugCheckCode) { KeBugCheckEx(BugCheckCode, 0, 0, 0, 0); }

/* ---- Events ---- */

VOID KeInitializeEvent(PRKEVENT Event, EVENT_TYPE Type, BOOLEAN State)
{
    memset(Event, 0, sizeof(*Event));
    Event->Header.Type = (UCHAR)Type;
    Event->Header.Size = (UCHAR)(sizeof(KEVENT) / sizeof(LONG));
    Event->Header.SignalState = State ? 1 : 0;
    Event->Header.WaitListHead.Flink = Event->Header.WaitListHead.Blink = &Event->Header.WaitListHead;
}

/* A system thread that would run if given the CPU: started and not yet
 * waiting, or waiting on objects that would now satisfy its wait. */
static int ks_ready(const ks_thread *t)
{
    if (t->ended || !t->blocked)
        return !t->ended;
    ULONG signalled = 0;
    for (ULONG i = 0; i < t->wait_count; i++)
        signalled += ((const DISPATCHER_HEADER *)t->wait_objects[i])->SignalState > 0;
    return t->wait_type == WaitAny ? signalled > 0 : signalled == t->wait_count;
}

static int ks_any_ready(void)
{
    for (const ks_thread *t = ks.threads; t; t = t->next)
        if (ks_ready(t))
            return 1;
    return 0;
}

void pbc_kernel_yield(void)
{
    if (ks_remote_yield) {
        ks_remote_yield();
        return;
    }
    int took = ks_hold();
    if (!ks_self) {
        struct timespec until = ks_deadline(KS_DDI_WAIT_MS);
        ks.open++;
        pthread_cond_broadcast(&ks.changed);
        while (ks_any_ready() && pthread_cond_timedwait(&ks.changed, &ks.cpu, &until) != ETIMEDOUT)
            ;
        ks.open--;
    }
    ks_unhold(took);
}

void pbc_kernel_on_wake(void (*wake)(void *ctx), void *ctx)
{
    ks.wake = wake;
    ks.wake_ctx = ctx;
}

LONG KeSetEvent(PRKEVENT Event, KPRIORITY Increment, BOOLEAN Wait)
{
    (void)Increment;
    (void)Wait;
    int took = ks_hold();
    LONG old = Event->Header.SignalState;
    Event->Header.SignalState = 1;
    pthread_cond_broadcast(&ks.changed);
    if (!ks_self && ks.wake && ks_any_ready())
        ks.wake(ks.wake_ctx);
    ks_unhold(took);
    return old;
}

LONG KeResetEvent(PRKEVENT Event)
{
    LONG old = Event->Header.SignalState;
    Event->Header.SignalState = 0;
    return old;
}

VOID KeClearEvent(PRKEVENT Event) { Event->Header.SignalState = 0; }

LONG KeReadStateEvent(PRKEVENT Event) { return Event->Header.SignalState; }

static void ks_thread_end(void);

/* A delay or a stall: the CPU passes to whichever other thread wants it,
 * and comes back. */
static void ks_pass_cpu(void)
{
    if (ks_self)
        ks_lose();
    else
        ks.open++;
    pthread_cond_broadcast(&ks.changed);
    pthread_mutex_unlock(&ks.cpu);
    sched_yield();
    pthread_mutex_lock(&ks.cpu);
    if (ks_self)
        ks_gain();
    else
        ks.open--;
    if (ks_self && ks.terminating)
        ks_thread_end();
}

/* Satisfies a wait on the object if it is signalled: a synchronization
 * event resets, a notification event or an ended thread stays signalled. */
static int ks_consume(DISPATCHER_HEADER *h)
{
    if (h->SignalState <= 0)
        return 0;
    if (h->Type == SynchronizationEvent)
        h->SignalState = 0;
    return 1;
}

/* Index of the object that satisfies the wait now (WaitAny: the first
 * signalled; WaitAll: 0 when all are, consuming all), or -1. */
static int ks_satisfied(ULONG count, PVOID *objects, WAIT_TYPE type)
{
    if (type == WaitAny) {
        for (ULONG i = 0; i < count; i++)
            if (ks_consume((DISPATCHER_HEADER *)objects[i]))
                return (int)i;
        return -1;
    }
    for (ULONG i = 0; i < count; i++)
        if (((DISPATCHER_HEADER *)objects[i])->SignalState <= 0)
            return -1;
    for (ULONG i = 0; i < count; i++)
        ks_consume((DISPATCHER_HEADER *)objects[i]);
    return 0;
}

/* The wait itself. Alone (no other driver thread), an unsatisfied wait
 * times out at once: with no timeout that is a deadlock. With other
 * threads, the caller gives up the CPU until an object is signalled: a
 * system thread as long as it takes (or until the run ends, which ends
 * it), a DDI thread at most KS_DDI_WAIT_MS. */
static NTSTATUS ks_wait(ULONG count, PVOID *objects, WAIT_TYPE type, PLARGE_INTEGER Timeout, const char *who)
{
    if (ks.irql >= DISPATCH_LEVEL && (!Timeout || Timeout->QuadPart != 0))
        ks_record(KS_BUGCHECK, "%s with a timeout at IRQL %u (IRQL_NOT_LESS_OR_EQUAL)", who, (unsigned)ks.irql);
    int hit = ks_satisfied(count, objects, type);
    int poll = Timeout && Timeout->QuadPart >= 0; /* zero, or an absolute time of another clock */
    if (hit < 0 && !poll && ks_others_live()) {
        int64_t ms = Timeout ? -Timeout->QuadPart / 10000 : -1;
        if (!ks_self && (ms < 0 || ms > KS_DDI_WAIT_MS))
            ms = KS_DDI_WAIT_MS;
        struct timespec until = ks_deadline(ms < 0 ? 0 : ms);
        if (ks_self) { /* what pbc_kernel_yield asks of it */
            ks_self->wait_count = count;
            ks_self->wait_objects = objects;
            ks_self->wait_type = type;
            ks_self->blocked = 1;
        } else
            ks.open++;
        while ((hit = ks_satisfied(count, objects, type)) < 0) {
            if (ks_self && ks.terminating)
                ks_thread_end();
            if (!ks_others_live())
                break;
            pthread_cond_broadcast(&ks.changed); /* a yield waits for this thread to block */
            int timed_out;
            if (ks_self)
                ks_lose();
            if (ms < 0)
                timed_out = pthread_cond_wait(&ks.changed, &ks.cpu) == ETIMEDOUT;
            else
                timed_out = pthread_cond_timedwait(&ks.changed, &ks.cpu, &until) == ETIMEDOUT;
            if (ks_self)
                ks_gain();
            if (timed_out)
                break;
        }
        if (ks_self)
            ks_self->blocked = 0;
        else
            ks.open--;
    }
    if (hit >= 0)
        return STATUS_WAIT_0 + hit;
    if (!Timeout) {
        ks_record(KS_LOCK, "deadlock: %s(%p) on an unsignalled object with no timeout", who, objects[0]);
        return STATUS_TIMEOUT;
    }
    if (Timeout->QuadPart < 0) /* relative, in 100 ns units: the clock moves on */
        ks.qpc += -Timeout->QuadPart;
    return STATUS_TIMEOUT;
}

NTSTATUS KeWaitForSingleObject(PVOID Object, KWAIT_REASON WaitReason, KPROCESSOR_MODE WaitMode,
                               BOOLEAN Alertable, PLARGE_INTEGER Timeout)
{
    (void)WaitReason;
    (void)WaitMode;
    (void)Alertable;
    int took = ks_hold();
    NTSTATUS status = ks_wait(1, &Object, WaitAny, Timeout, "KeWaitForSingleObject");
    ks_unhold(took);
    return status;
}

NTSTATUS KeWaitForMultipleObjects(ULONG Count, PVOID Object[], WAIT_TYPE WaitType, KWAIT_REASON WaitReason,
                                  KPROCESSOR_MODE WaitMode, BOOLEAN Alertable, PLARGE_INTEGER Timeout,
                                  PKWAIT_BLOCK WaitBlockArray)
{
    (void)WaitReason;
    (void)WaitMode;
    (void)Alertable;
    if (Count == 0 || Count > MAXIMUM_WAIT_OBJECTS || (Count > THREAD_WAIT_OBJECTS && !WaitBlockArray) ||
        (WaitType != WaitAny && WaitType != WaitAll)) {
        KeBugCheckEx(0x0000000Cu /* MAXIMUM_WAIT_OBJECTS_EXCEEDED */, Count, (ULONG_PTR)WaitType, 0, 0);
        return STATUS_INVALID_PARAMETER;
    }
    int took = ks_hold();
    NTSTATUS status = ks_wait(Count, Object, WaitType, Timeout, "KeWaitForMultipleObjects");
    ks_unhold(took);
    return status;
}

NTSTATUS KeDelayExecutionThread(KPROCESSOR_MODE WaitMode, BOOLEAN Alertable, PLARGE_INTEGER Interval)
{
    (void)WaitMode;
    (void)Alertable;
    int took = ks_hold();
    if (ks.irql > APC_LEVEL)
        ks_record(KS_BUGCHECK, "KeDelayExecutionThread at IRQL %u (IRQL_NOT_LESS_OR_EQUAL)", (unsigned)ks.irql);
    if (Interval && Interval->QuadPart < 0)
        ks.qpc += -Interval->QuadPart;
    if (ks_self && ks.terminating)
        ks_thread_end();
    if (ks_others_live()) /* the others run meanwhile */
        ks_pass_cpu();
    ks_unhold(took);
    return STATUS_SUCCESS;
}

/* ---- Spin locks and IRQL ---- */

static void ks_lock_take(PKSPIN_LOCK SpinLock, const char *who)
{
    if (*SpinLock)
        ks_record(KS_LOCK, "deadlock: %s(%p) on a spin lock already held", who, (void *)SpinLock);
    *SpinLock = 1;
}

static void ks_lock_give(PKSPIN_LOCK SpinLock, const char *who)
{
    if (!*SpinLock)
        ks_record(KS_LOCK, "%s(%p) on a spin lock not held", who, (void *)SpinLock);
    *SpinLock = 0;
}

VOID KeInitializeSpinLock(PKSPIN_LOCK SpinLock) { *SpinLock = 0; }

VOID KeAcquireSpinLockAtDpcLevel(PKSPIN_LOCK SpinLock)
{
    if (ks.irql < DISPATCH_LEVEL)
        ks_record(KS_LOCK, "KeAcquireSpinLockAtDpcLevel(%p) at IRQL %u, below DISPATCH_LEVEL",
                  (void *)SpinLock, (unsigned)ks.irql);
    ks_lock_take(SpinLock, "KeAcquireSpinLockAtDpcLevel");
}

VOID KeReleaseSpinLockFromDpcLevel(PKSPIN_LOCK SpinLock)
{
    ks_lock_give(SpinLock, "KeReleaseSpinLockFromDpcLevel");
}

void pbc_kernel_acquire_spin_lock(uint64_t *lock, uint8_t *old_irql)
{
    if (ks.irql > DISPATCH_LEVEL)
        ks_record(KS_BUGCHECK, "KeAcquireSpinLock(%p) at IRQL %u (IRQL_NOT_GREATER_OR_EQUAL)", (void *)lock,
                  (unsigned)ks.irql);
    ks_lock_take(lock, "KeAcquireSpinLock");
    *old_irql = ks.irql;
    ks.irql = DISPATCH_LEVEL;
}

void pbc_kernel_release_spin_lock(uint64_t *lock, uint8_t new_irql)
{
    ks_lock_give(lock, "KeReleaseSpinLock");
    KeLowerIrql(new_irql);
}

KIRQL KeGetCurrentIrql(VOID) { return ks.irql; }

VOID KeRaiseIrql(KIRQL NewIrql, PKIRQL OldIrql)
{
    if (NewIrql < ks.irql)
        ks_record(KS_BUGCHECK, "KeRaiseIrql to %u from %u (IRQL_NOT_GREATER_OR_EQUAL)", (unsigned)NewIrql,
                  (unsigned)ks.irql);
    *OldIrql = ks.irql;
    ks.irql = NewIrql;
}

VOID KeLowerIrql(KIRQL NewIrql)
{
    if (NewIrql > ks.irql)
        ks_record(KS_BUGCHECK, "KeLowerIrql to %u from %u (IRQL_NOT_LESS_OR_EQUAL)", (unsigned)NewIrql,
                  (unsigned)ks.irql);
    ks.irql = NewIrql;
    if (NewIrql < DISPATCH_LEVEL)
        ks_dpc_drain(); /* what was queued above DISPATCH_LEVEL runs now */
}

KIRQL KeRaiseIrqlToDpcLevel(VOID)
{
    KIRQL old;
    KeRaiseIrql(DISPATCH_LEVEL, &old);
    return old;
}

/* ---- Time ---- */

VOID KeStallExecutionProcessor(ULONG MicroSeconds)
{
    ks.stalled_us += MicroSeconds;
    ks.qpc += (int64_t)MicroSeconds * (KS_QPC_FREQUENCY / 1000000);
    /* A driver that polls for its worker's progress lets it run; above
     * APC_LEVEL no other thread would run on Windows' one CPU either. */
    if (ks_depth && ks.irql <= APC_LEVEL && ks_others_live())
        ks_pass_cpu();
}

LARGE_INTEGER KeQueryPerformanceCounter(PLARGE_INTEGER PerformanceFrequency)
{
    if (PerformanceFrequency)
        PerformanceFrequency->QuadPart = KS_QPC_FREQUENCY;
    LARGE_INTEGER now;
    now.QuadPart = ++ks.qpc; /* every read sees time pass */
    return now;
}

/* ---- Pool ---- */

static PVOID ks_alloc(SIZE_T NumberOfBytes, ULONG Tag, int zero)
{
    void *p = malloc(NumberOfBytes ? NumberOfBytes : 1);
    if (!p)
        return NULL;
    memset(p, zero ? 0 : KS_UNINIT_FILL, NumberOfBytes);
    int took = ks_hold();
    pbc_grow((void **)&ks.blocks, &ks.block_cap, ks.block_count + 1, sizeof(*ks.blocks));
    ks.blocks[ks.block_count++] = (ks_block){.p = p, .size = NumberOfBytes, .tag = Tag};
    ks_unhold(took);
    return p;
}

PVOID ExAllocatePoolWithTag(POOL_TYPE PoolType, SIZE_T NumberOfBytes, ULONG Tag)
{
    (void)PoolType;
    return ks_alloc(NumberOfBytes, Tag, 0);
}

PVOID ExAllocatePool2(POOL_FLAGS Flags, SIZE_T NumberOfBytes, ULONG Tag)
{
    if (!(Flags & (POOL_FLAG_NON_PAGED | POOL_FLAG_NON_PAGED_EXECUTE | POOL_FLAG_PAGED)))
        return NULL; /* Windows fails a request that names no pool */
    return ks_alloc(NumberOfBytes, Tag, !(Flags & POOL_FLAG_UNINITIALIZED));
}

static void ks_free_held(PVOID P, int check_tag, ULONG Tag, const char *who);

static void ks_free(PVOID P, int check_tag, ULONG Tag, const char *who)
{
    int took = ks_hold();
    ks_free_held(P, check_tag, Tag, who);
    ks_unhold(took);
}

static void ks_free_held(PVOID P, int check_tag, ULONG Tag, const char *who)
{
    if (!P) {
        ks_record(KS_BAD_FREE, "%s(NULL)", who);
        return;
    }
    for (uint32_t i = 0; i < ks.block_count; i++) {
        if (ks.blocks[i].p != P)
            continue;
        if (check_tag && ks.blocks[i].tag != Tag) {
            char want[5], got[5];
            ks_tag_text(Tag, got);
            ks_tag_text(ks.blocks[i].tag, want);
            ks_record(KS_BAD_FREE, "%s(%p, '%s'): the block was allocated with tag '%s'", who, P, got, want);
        }
        free(P);
        memmove(&ks.blocks[i], &ks.blocks[i + 1], (ks.block_count - i - 1) * sizeof(*ks.blocks));
        ks.block_count--;
        return;
    }
    ks_record(KS_BAD_FREE, "%s(%p): not a live pool block (double free or foreign pointer)", who, P);
}

VOID ExFreePoolWithTag(PVOID P, ULONG Tag) { ks_free(P, 1, Tag, "ExFreePoolWithTag"); }

VOID ExFreePool(PVOID P) { ks_free(P, 0, 0, "ExFreePool"); }

SIZE_T RtlCompareMemory(const VOID *Source1, const VOID *Source2, SIZE_T Length)
{
    const UCHAR *a = (const UCHAR *)Source1, *b = (const UCHAR *)Source2;
    SIZE_T n = 0;
    while (n < Length && a[n] == b[n])
        n++;
    return n;
}

VOID RtlInitUnicodeString(PUNICODE_STRING DestinationString, PCWSTR SourceString)
{
    size_t n = 0;
    while (SourceString && SourceString[n])
        n++;
    if (n > MAXUSHORT / sizeof(WCHAR) - 1)
        n = MAXUSHORT / sizeof(WCHAR) - 1; /* Windows caps the length the same way */
    DestinationString->Buffer = (PWCH)SourceString;
    DestinationString->Length = (USHORT)(n * sizeof(WCHAR));
    DestinationString->MaximumLength = SourceString ? (USHORT)((n + 1) * sizeof(WCHAR)) : 0;
}

/* ---- DPCs ---- */

VOID KeInitializeDpc(PRKDPC Dpc, PKDEFERRED_ROUTINE DeferredRoutine, PVOID DeferredContext)
{
    memset(Dpc, 0, sizeof(*Dpc));
    Dpc->Type = KS_DPC_OBJECT;
    Dpc->Importance = 1; /* MediumImportance */
    Dpc->DeferredRoutine = DeferredRoutine;
    Dpc->DeferredContext = DeferredContext;
}

static KDPC *ks_dpc_next(KDPC *d) { return (KDPC *)(void *)d->DpcListEntry.Next; }

/* Runs the queued DPCs, oldest first, at DISPATCH_LEVEL, if the IRQL is
 * below it and none is running (a DPC that queues another runs it after). */
static void ks_dpc_drain(void)
{
    int took = ks_hold();
    while (ks.dpc_first && ks.irql < DISPATCH_LEVEL && !ks.dpc_running) {
        KDPC *d = ks.dpc_first;
        ks.dpc_first = ks_dpc_next(d);
        if (!ks.dpc_first)
            ks.dpc_last = NULL;
        d->DpcListEntry.Next = NULL;
        d->DpcData = NULL; /* dequeued: it may be queued again from its routine */
        KIRQL old = ks.irql;
        ks.irql = DISPATCH_LEVEL;
        ks.dpc_running = 1;
        d->DeferredRoutine(d, d->DeferredContext, d->SystemArgument1, d->SystemArgument2);
        ks.dpc_running = 0;
        if (ks.irql != DISPATCH_LEVEL)
            ks_record(KS_BUGCHECK, "DPC routine %p returned at IRQL %u, not DISPATCH_LEVEL (IRQL_UNEXPECTED_VALUE)",
                      (void *)(uintptr_t)d->DeferredRoutine, (unsigned)ks.irql);
        ks.irql = old;
    }
    ks_unhold(took);
}

BOOLEAN KeInsertQueueDpc(PRKDPC Dpc, PVOID SystemArgument1, PVOID SystemArgument2)
{
    int took = ks_hold();
    BOOLEAN queued = FALSE;
    if (!Dpc->DpcData) {
        Dpc->SystemArgument1 = SystemArgument1;
        Dpc->SystemArgument2 = SystemArgument2;
        Dpc->DpcData = &ks.dpc_first; /* queued, as Windows marks it */
        Dpc->DpcListEntry.Next = NULL;
        if (ks.dpc_last)
            ks.dpc_last->DpcListEntry.Next = &Dpc->DpcListEntry;
        else
            ks.dpc_first = Dpc;
        ks.dpc_last = Dpc;
        queued = TRUE;
        ks_dpc_drain();
    }
    ks_unhold(took);
    return queued;
}

BOOLEAN KeRemoveQueueDpc(PRKDPC Dpc)
{
    int took = ks_hold();
    BOOLEAN removed = FALSE;
    KDPC *prev = NULL;
    for (KDPC *d = ks.dpc_first; d; prev = d, d = ks_dpc_next(d)) {
        if (d != Dpc)
            continue;
        if (prev)
            prev->DpcListEntry.Next = d->DpcListEntry.Next;
        else
            ks.dpc_first = ks_dpc_next(d);
        if (ks.dpc_last == d)
            ks.dpc_last = prev;
        d->DpcListEntry.Next = NULL;
        d->DpcData = NULL;
        removed = TRUE;
        break;
    }
    ks_unhold(took);
    return removed;
}

VOID KeFlushQueuedDpcs(VOID) { ks_dpc_drain(); }

/* ---- System threads, their objects and handles ---- */

struct _OBJECT_TYPE {
    char name[8];
};
static struct _OBJECT_TYPE ks_thread_type = {"Thread"};
static POBJECT_TYPE ks_thread_type_ref = &ks_thread_type;
POBJECT_TYPE *PsThreadType = &ks_thread_type_ref;

/* The calling system thread ends: its object is signalled and the CPU
 * passes on. */
static void ks_thread_end(void)
{
    ks_thread *t = ks_self;
    t->ended = 1;
    t->Header.SignalState = 1;
    ks.live_threads--;
    ks_lose();
    pthread_cond_broadcast(&ks.changed);
    ks_depth = 0;
    pthread_mutex_unlock(&ks.cpu);
    pthread_exit(NULL);
}

static void *ks_thread_main(void *arg)
{
    ks_thread *t = arg;
    ks_run = t->run;
    ks_self = t;
    pbc_kernel_enter();
    ks_gain();
    if (!ks.terminating)
        t->routine(t->context);
    ks_thread_end(); /* returning from the start routine ends the thread, as on Windows */
    return NULL;
}

NTSTATUS PsCreateSystemThread(PHANDLE ThreadHandle, ULONG DesiredAccess, POBJECT_ATTRIBUTES ObjectAttributes,
                              HANDLE ProcessHandle, PCLIENT_ID ClientId, PKSTART_ROUTINE StartRoutine,
                              PVOID StartContext)
{
    (void)DesiredAccess;
    (void)ObjectAttributes;
    (void)ProcessHandle;
    if (!ThreadHandle || !StartRoutine)
        return STATUS_INVALID_PARAMETER;
    ks_thread *t = calloc(1, sizeof(*t));
    if (!t)
        return STATUS_INSUFFICIENT_RESOURCES;
    int took = ks_hold();
    t->Header.Type = KS_THREAD_OBJECT;
    t->Header.Size = (UCHAR)(sizeof(DISPATCHER_HEADER) / sizeof(LONG));
    t->run = &ks;
    t->routine = StartRoutine;
    t->context = StartContext;
    const pbc_kernel_cpu_hooks *h = ks_hooks;
    t->binding = h ? h->bind() : NULL;
    t->handle_open = 1;
    /* It starts when the DDI thread gives the CPU away (a wait, a delay,
     * pbc_kernel_yield, the end of the run). */
    if (pthread_create(&t->tid, NULL, ks_thread_main, t) != 0) {
        ks_unhold(took);
        free(t);
        return STATUS_INSUFFICIENT_RESOURCES;
    }
    t->next = ks.threads;
    ks.threads = t;
    ks.live_threads++;
    *ThreadHandle = (HANDLE)t;
    if (ClientId) {
        ClientId->UniqueProcess = (HANDLE)(uintptr_t)4; /* the System process */
        ClientId->UniqueThread = (HANDLE)t;
    }
    ks_unhold(took);
    return STATUS_SUCCESS;
}

NTSTATUS PsTerminateSystemThread(NTSTATUS ExitStatus)
{
    (void)ExitStatus;
    if (!ks_self) {
        ks_record(KS_BUGCHECK, "PsTerminateSystemThread(0x%X) on a thread PsCreateSystemThread did not start",
                  (unsigned)ExitStatus);
        return STATUS_INVALID_PARAMETER;
    }
    if (!ks_depth)
        pbc_kernel_enter();
    ks_thread_end();
    return STATUS_SUCCESS;
}

/* The run's thread behind a handle or object pointer, or NULL. */
static ks_thread *ks_thread_of(const void *p)
{
    for (ks_thread *t = ks.threads; t; t = t->next)
        if ((const void *)t == p)
            return t;
    return NULL;
}

NTSTATUS ObReferenceObjectByHandle(HANDLE Handle, ACCESS_MASK DesiredAccess, POBJECT_TYPE ObjectType,
                                   KPROCESSOR_MODE AccessMode, PVOID *Object,
                                   POBJECT_HANDLE_INFORMATION HandleInformation)
{
    (void)AccessMode;
    int took = ks_hold();
    ks_thread *t = ks_thread_of(Handle);
    NTSTATUS status = STATUS_SUCCESS;
    if (!t || !t->handle_open)
        status = STATUS_INVALID_HANDLE;
    else if (ObjectType && ObjectType != &ks_thread_type)
        status = STATUS_OBJECT_TYPE_MISMATCH;
    else {
        t->refs++;
        *Object = t;
        if (HandleInformation) {
            HandleInformation->HandleAttributes = 0;
            HandleInformation->GrantedAccess = DesiredAccess;
        }
    }
    ks_unhold(took);
    return status;
}

LONG_PTR ObfDereferenceObject(PVOID Object)
{
    int took = ks_hold();
    ks_thread *t = ks_thread_of(Object);
    LONG_PTR left = 0;
    if (!t || t->refs == 0)
        ks_record(KS_BAD_FREE, "ObDereferenceObject(%p): not a referenced object", Object);
    else
        left = --t->refs;
    ks_unhold(took);
    return left;
}

NTSTATUS ZwClose(HANDLE Handle)
{
    int took = ks_hold();
    ks_thread *t = ks_thread_of(Handle);
    NTSTATUS status = STATUS_SUCCESS;
    if (!t || !t->handle_open) {
        ks_record(KS_BAD_FREE, "ZwClose(%p): not an open handle", Handle);
        status = STATUS_INVALID_HANDLE;
    } else
        t->handle_open = 0;
    ks_unhold(took);
    return status;
}

uint32_t pbc_kernel_take_threads(char *first, size_t n)
{
    if (ks_remote_yield)
        return ks_take_remote_end(PBC_KERNEL_NOTE_THREADS, first, n);
    int took = ks_hold();
    uint32_t count = 0, started = 0;
    if (first && n)
        first[0] = '\0';
    for (ks_thread *t = ks.threads; t; t = t->next)
        started++;
    /* Described by the order they were started in: addresses differ from
     * run to run, the description must not. The list is newest first, so
     * the last one described is the first started. */
    uint32_t nth = started;
    for (ks_thread *t = ks.threads; t; t = t->next, nth--) {
        const char *what = !t->ended ? "was still running when the run ended"
                           : t->handle_open ? "ended, but its handle was never closed (ZwClose)"
                           : t->refs ? "ended, but a reference to it was never dropped (ObDereferenceObject)"
                                     : NULL;
        if (!what)
            continue;
        count++;
        if (first && n)
            snprintf(first, n, "system thread %u of %u (PsCreateSystemThread) %s", nth, started, what);
    }
    /* The rest of the run's threads end at their next wait, delay or stall. */
    ks.terminating = 1;
    ks.open++;
    pthread_cond_broadcast(&ks.changed);
    struct timespec until = ks_deadline(KS_END_WAIT_MS);
    while (ks.live_threads && pthread_cond_timedwait(&ks.changed, &ks.cpu, &until) != ETIMEDOUT)
        ;
    for (ks_thread *t = ks.threads, *next; t; t = next) {
        next = t->next;
        if (t->ended) {
            pthread_join(t->tid, NULL);
            free(t);
        } else
            pthread_detach(t->tid); /* it never waits again: it keeps its record */
    }
    ks.threads = NULL;
    ks.terminating = 0;
    ks.open--;
    ks_unhold(took);
    return count;
}

/* ---- The model adapter's device properties ---- */

/* A string value as UTF-16 (ASCII in), two NULs ending a MULTI_SZ. */
static ULONG ks_wide(const char *s, int multi, WCHAR *out, ULONG cap_bytes)
{
    ULONG n = (ULONG)strlen(s) + 1 + (multi ? 1 : 0);
    for (ULONG i = 0; i < n && (i + 1) * sizeof(WCHAR) <= cap_bytes; i++)
        out[i] = i < strlen(s) ? (WCHAR)(unsigned char)s[i] : 0;
    return n * (ULONG)sizeof(WCHAR);
}

NTSTATUS IoGetDeviceProperty(PDEVICE_OBJECT DeviceObject, DEVICE_REGISTRY_PROPERTY DeviceProperty,
                             ULONG BufferLength, PVOID PropertyBuffer, PULONG ResultLength)
{
    static const struct {
        DEVICE_REGISTRY_PROPERTY prop;
        const char *text; /* NULL: a ULONG */
        int multi;
        ULONG value;
    } props[] = {
        {DevicePropertyDeviceDescription, "pbcheck model GPU", 0, 0},
        {DevicePropertyHardwareID, "PBCHECK\\MODEL_GPU", 1, 0},
        {DevicePropertyCompatibleIDs, "PBCHECK\\GPU", 1, 0},
        {DevicePropertyClassName, "Display", 0, 0},
        {DevicePropertyClassGuid, "{4d36e968-e325-11ce-bfc1-08002be10318}", 0, 0},
        {DevicePropertyDriverKeyName, "{4d36e968-e325-11ce-bfc1-08002be10318}\\0000", 0, 0},
        {DevicePropertyManufacturer, "pbcheck", 0, 0},
        {DevicePropertyFriendlyName, "pbcheck model GPU", 0, 0},
        {DevicePropertyLocationInformation, "PCI bus 0, device 2, function 0", 0, 0},
        {DevicePropertyPhysicalDeviceObjectName, "\\Device\\pbcheck0", 0, 0},
        {DevicePropertyEnumeratorName, "PBCHECK", 0, 0},
        {DevicePropertyLegacyBusType, NULL, 0, PCIBus},
        {DevicePropertyBusNumber, NULL, 0, 0},
        {DevicePropertyAddress, NULL, 0, (2u << 16) | 0u}, /* device 2, function 0 */
        {DevicePropertyUINumber, NULL, 0, 2},
    };
    if (!DeviceObject || !ResultLength)
        return STATUS_INVALID_PARAMETER;
    for (size_t i = 0; i < sizeof(props) / sizeof(props[0]); i++) {
        if (props[i].prop != DeviceProperty)
            continue;
        ULONG need = props[i].text ? ks_wide(props[i].text, props[i].multi, NULL, 0) : (ULONG)sizeof(ULONG);
        *ResultLength = need;
        if (BufferLength < need || !PropertyBuffer)
            return STATUS_BUFFER_TOO_SMALL;
        if (props[i].text)
            ks_wide(props[i].text, props[i].multi, (WCHAR *)PropertyBuffer, BufferLength);
        else
            memcpy(PropertyBuffer, &props[i].value, sizeof(ULONG));
        return STATUS_SUCCESS;
    }
    *ResultLength = 0;
    return STATUS_INVALID_PARAMETER_2;
}

/* ---- Interlocked lists ---- */

PLIST_ENTRY ExInterlockedInsertHeadList(PLIST_ENTRY ListHead, PLIST_ENTRY ListEntry, PKSPIN_LOCK Lock)
{
    ks_lock_take(Lock, "ExInterlockedInsertHeadList");
    PLIST_ENTRY old = IsListEmpty(ListHead) ? NULL : ListHead->Flink;
    InsertHeadList(ListHead, ListEntry);
    ks_lock_give(Lock, "ExInterlockedInsertHeadList");
    return old;
}

PLIST_ENTRY ExInterlockedInsertTailList(PLIST_ENTRY ListHead, PLIST_ENTRY ListEntry, PKSPIN_LOCK Lock)
{
    ks_lock_take(Lock, "ExInterlockedInsertTailList");
    PLIST_ENTRY old = IsListEmpty(ListHead) ? NULL : ListHead->Blink;
    InsertTailList(ListHead, ListEntry);
    ks_lock_give(Lock, "ExInterlockedInsertTailList");
    return old;
}

PLIST_ENTRY ExInterlockedRemoveHeadList(PLIST_ENTRY ListHead, PKSPIN_LOCK Lock)
{
    ks_lock_take(Lock, "ExInterlockedRemoveHeadList");
    PLIST_ENTRY entry = IsListEmpty(ListHead) ? NULL : RemoveHeadList(ListHead);
    ks_lock_give(Lock, "ExInterlockedRemoveHeadList");
    return entry;
}
