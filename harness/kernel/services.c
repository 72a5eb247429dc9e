/*
 * The simple kernel services a display miniport calls, served for one run
 * on one thread. Nothing here blocks or sleeps: a wait is satisfied or
 * times out at once, a stall advances a deterministic clock. What a driver
 * gets wrong — a leaked or badly freed pool block, a spin lock taken twice,
 * a wait that could never end, a bug check — is recorded for the harness
 * to report as a finding, and the call returns as Windows' would have
 * returned had it not crashed. DbgPrint output is formatted with Windows'
 * conversions (%lx is 32-bit, %I64x, %ws, %wZ...) and captured in the
 * run's log.
 */
#include "kernel/services.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pbcheck/wdk/wdm.h>

#include "base/util.h"

#define KS_MSG_MAX 512u          /* one DbgPrint message, as on Windows */
#define KS_FIRST_MAX 256u
#define KS_QPC_FREQUENCY 10000000 /* 10 MHz: one tick is 100 ns */
#define KS_UNINIT_FILL 0xC1      /* uninitialised pool, deterministic */

typedef enum ks_kind { KS_BAD_FREE, KS_LOCK, KS_BUGCHECK, KS_KINDS } ks_kind;

typedef struct ks_finding {
    uint32_t count;
    char first[KS_FIRST_MAX];
} ks_finding;

typedef struct ks_block {
    void *p;
    size_t size;
    ULONG tag;
} ks_block;

typedef struct ks_state {
    ks_finding found[KS_KINDS];
    ks_block *blocks; /* live pool blocks, in allocation order */
    uint32_t block_count, block_cap;
    size_t log_len;
    uint32_t log_dropped;
    KIRQL irql;
    uint64_t stalled_us;
    int64_t qpc;
    char log[PBC_KERNEL_LOG_MAX]; /* last: a reset clears what comes before it */
} ks_state;

static _Thread_local ks_state ks;

static void ks_record(ks_kind kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void ks_record(ks_kind kind, const char *fmt, ...)
{
    ks_finding *f = &ks.found[kind];
    if (f->count++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(f->first, sizeof(f->first), fmt, ap);
        va_end(ap);
    }
}

static uint32_t ks_take(ks_kind kind, char *first, size_t n)
{
    ks_finding *f = &ks.found[kind];
    uint32_t count = f->count;
    if (first && n && count)
        snprintf(first, n, "%s", f->first);
    else if (first && n)
        first[0] = '\0'; /* after every DDI call: no formatting when nothing happened */
    f->count = 0;
    f->first[0] = '\0';
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
    for (uint32_t i = 0; i < ks.block_count; i++)
        free(ks.blocks[i].p);
    free(ks.blocks);
    memset(&ks, 0, offsetof(ks_state, log)); /* the log is as long as log_len says */
    ks.log[0] = '\0';
}

const char *pbc_kernel_log(size_t *len)
{
    if (len)
        *len = ks.log_len;
    return ks.log;
}

uint32_t pbc_kernel_log_dropped(void) { return ks.log_dropped; }

uint32_t pbc_kernel_take_leaks(char *first, size_t n)
{
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
    return count;
}

uint32_t pbc_kernel_take_bad_frees(char *first, size_t n) { return ks_take(KS_BAD_FREE, first, n); }
uint32_t pbc_kernel_take_lock_errors(char *first, size_t n) { return ks_take(KS_LOCK, first, n); }
uint32_t pbc_kernel_take_bugchecks(char *first, size_t n) { return ks_take(KS_BUGCHECK, first, n); }
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
    if (ks_echo_fd >= 0 && n)
        ks_echo(msg, n);
    if (ks.log_len + n + 1 > sizeof(ks.log)) {
        ks.log_dropped++;
        return;
    }
    memcpy(ks.log + ks.log_len, msg, n + 1);
    ks.log_len += n;
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

LONG KeSetEvent(PRKEVENT Event, KPRIORITY Increment, BOOLEAN Wait)
{
    (void)Increment;
    (void)Wait;
    LONG old = Event->Header.SignalState;
    Event->Header.SignalState = 1;
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

NTSTATUS KeWaitForSingleObject(PVOID Object, KWAIT_REASON WaitReason, KPROCESSOR_MODE WaitMode,
                               BOOLEAN Alertable, PLARGE_INTEGER Timeout)
{
    (void)WaitReason;
    (void)WaitMode;
    (void)Alertable;
    DISPATCHER_HEADER *h = (DISPATCHER_HEADER *)Object;
    if (ks.irql >= DISPATCH_LEVEL && (!Timeout || Timeout->QuadPart != 0))
        ks_record(KS_BUGCHECK, "KeWaitForSingleObject with a timeout at IRQL %u (IRQL_NOT_LESS_OR_EQUAL)",
                  (unsigned)ks.irql);
    if (h->SignalState > 0) {
        if (h->Type == SynchronizationEvent)
            h->SignalState = 0;
        return STATUS_SUCCESS;
    }
    if (!Timeout) {
        ks_record(KS_LOCK, "deadlock: KeWaitForSingleObject(%p) on an unsignalled object with no timeout",
                  Object);
        return STATUS_TIMEOUT;
    }
    if (Timeout->QuadPart < 0) /* relative, in 100 ns units: the clock moves on */
        ks.qpc += -Timeout->QuadPart;
    return STATUS_TIMEOUT;
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
    pbc_grow((void **)&ks.blocks, &ks.block_cap, ks.block_count + 1, sizeof(*ks.blocks));
    ks.blocks[ks.block_count++] = (ks_block){.p = p, .size = NumberOfBytes, .tag = Tag};
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

static void ks_free(PVOID P, int check_tag, ULONG Tag, const char *who)
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
