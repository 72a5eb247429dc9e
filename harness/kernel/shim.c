/*
 * The WDK shim. A CPU view of modeled memory (MmGetSystemAddressForMdlSafe,
 * MmMapIoSpace) is a sparse shared mapping of its own. Its pages start
 * inaccessible: the builder's first read of a page in a call faults once
 * (the page is now readable, and noted as accessed), its first write
 * faults once (writable, dirty, its old bytes kept: as a description when
 * one says them), so the harness knows every page the CPU touched,
 * through any view, however old. The model's memory and the views meet
 * whenever the builder's code starts or stops running: pages the model
 * changed since (a change log kept while views exist) are copied into the
 * views on the way in, and the pages the CPU dirtied are written back,
 * with their provenance, on the way out (a page that is one pattern goes
 * as the pattern's description). Both cost what changed, not the view's
 * size, so a driver may map a whole segment once and keep it; and a
 * builder that fills gigabytes with the CPU in one call is written back
 * on the way, its view pages that the model describes given back
 * (shim_relieve), so it keeps a few hundred MiB resident. Register
 * pointers into the mapped MMIO range reach the model's register file.
 * Anything the shim cannot serve returns NULL, as the kernel does when a
 * mapping fails. The same fault handler watches the paging buffers
 * (pbc_shim_watch): a write to a sealed page keeps the page's old bytes
 * and lets the write through, so the harness knows what a builder wrote
 * anywhere in them from the pages written alone.
 */
#define _GNU_SOURCE
#include "kernel/shim.h"

#include <errno.h>
#include <execinfo.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "base/util.h"
#include "kernel/services.h"

#define SHIM_MAX_MAPPINGS 64u
/* A view may span a whole memory segment (64 GiB) and is sparse; the
 * bitmap of dirty pages is its only per-page cost (a bit per page). */
#define SHIM_MAX_VIEW_BYTES (64ull << 30)
/* Filled view pages, every view, at which shim_relieve first gives some back. */
#define SHIM_RELIEVE_PAGES ((size_t)1 << 16)

typedef struct shim_clean_desc {
    size_t page;
    pbc_desc d;
} shim_clean_desc;

typedef struct shim_mapping {
    uint8_t *host;    /* what the builder sees: read-only until written */
    uint8_t *alias;   /* the same pages, writable, for the harness */
    size_t bytes;
    size_t cap;       /* bytes of the three mappings (a spare's may exceed the view's) */
    size_t count;     /* pages */
    uint64_t first;   /* MmMapIoSpace: page number of page 0 */
    uint64_t *pages;  /* MDL views: page number of each page, else NULL */
    uint32_t *order;  /* MDL views: page indexes sorted by page number */
    uint8_t *clean;   /* each dirty page as it was before the CPU wrote it (sparse) */
    uint64_t *dirty;  /* bitmap: pages the CPU wrote and the model has not yet */
    size_t dirty_lo, dirty_hi; /* bounds of the set bits; SIZE_MAX: none */
    uint64_t *touched; /* bitmap: pages the CPU read or wrote since the last leave */
    size_t touched_lo, touched_hi;
    uint64_t *wrote;   /* bitmap: pages the CPU wrote since the last leave */
    uint64_t *ahead;   /* bitmap: dirty pages opened ahead of a store (shim_open_ahead), not yet
                          known touched: the write-back tells whether the CPU wrote them */
    uint64_t *filled;  /* bitmap: pages that hold the model's bytes (the others, zeros, are filled at
                          their first access) */
    size_t filled_count;
    /* Dirty pages whose bytes before the first write are a description
     * (a fill's pattern, zeros, what the model describes there): kept as
     * {page, description} rather than copied into `clean`, mostly in page
     * order, as the CPU goes forward. */
    shim_clean_desc *was_desc;
    uint32_t was_desc_count, was_desc_cap;
    PMDL mdl;         /* MmGetSystemAddressForMdlSafe: the MDL to put back */
    PVOID saved_va;
    CSHORT saved_flags;
    int stale;        /* made from a spare: a page not yet filled may hold an earlier view's bytes */
    int parked;       /* unmapped in this call, kept for a map of the same pages (shim_unmap) */
    uint64_t parked_at; /* when, to drop the longest parked first */
} shim_mapping;

typedef struct shim_state {
    pbc_gpu *gpu;
    uint32_t map_count;
    uint32_t asserts;
    char assert_msg[256];
    pbc_shim_access *access; /* pages touched since the last take, in runs */
    uint32_t access_count, access_cap;
    uint32_t depth;          /* pbc_shim_enter nesting: the outermost syncs */
    uint32_t invisible;      /* bit n: segment n is not CPU-visible (declared so) */
    pbc_shim_watch *watch;   /* the watched memory in use, or NULL */
    size_t filled_pages;     /* filled view pages, every view: what the views keep resident */
    size_t relieve_at;       /* filled_pages at which shim_relieve next gives some back */
    uint32_t parked;         /* views parked in this call (shim_unmap) */
    uint64_t park_clock;
    const uint8_t *own_host; /* the harness's own view (pbc_shim_own_view), or NULL */
    uint64_t own_phys;
    size_t own_bytes;
    shim_mapping map[SHIM_MAX_MAPPINGS]; /* last: entries from map_count on are made afresh */
} shim_state;


/* The mappings of views that went, kept for views they can hold: making
 * and unmaking a view's three mappings, and faulting in its first pages,
 * cost more than a small view's work (VidMm maps every CPU-visible
 * allocation). A spare's host pages are all inaccessible; its pages keep
 * the bytes of the view that had them (a view made from it is stale:
 * each page is written whole when filled, zeros included), as giving
 * them back and faulting them in again cost more than the view's work
 * for a builder that maps a page at a time. Kept apart from the per-run
 * state; only views up to SHIM_SPARE_BYTES, so at most SHIM_SPARES MiB
 * stay. The mappings are shared memory, so a forked child drops its
 * copies rather than write into its parent's. */
#define SHIM_SPARES 8u
#define SHIM_SPARE_BYTES ((size_t)1 << 20)
typedef struct shim_spare {
    uint8_t *host, *alias, *clean;
    size_t cap;
} shim_spare;
typedef struct shim_spares_t {
    shim_spare s[SHIM_SPARES];
    uint32_t count;
    pid_t pid; /* whose they are */
} shim_spares_t;


/* Memory of the harness's own the builder may read but not write
 * (pbc_shim_guard): kept apart from the per-run state. */
typedef struct shim_guard {
    uint8_t *start;
    size_t len;
    int written;
    pbc_shim_fill_fn fill; /* pbc_shim_guard_lazy: makes a page at its first access */
    void *ctx;
    uint64_t *made;        /* bitmap of the pages made so far (lazy guards) */
} shim_guard;

typedef struct shim_guards_t {
    shim_guard *g;
    uint32_t count, cap;
} shim_guards_t;

/* What the driver's code sees of the machine: a harness thread's own, and
 * shared with the system threads the driver starts from it, which run on
 * the same one CPU (kernel/services.h): a worker copies through the views
 * the DDI thread mapped, its writes tracked and written back as the DDI
 * thread's are, and reaches the same registers. */
typedef struct shim_cpu {
    shim_state state;
    shim_spares_t spares;
    shim_guards_t guards;
} shim_cpu;

static _Thread_local shim_cpu shim_mine;
static _Thread_local shim_cpu *shim_lent; /* a system thread: the binding of the thread that started it */

static shim_cpu *shim_here(void) { return shim_lent ? shim_lent : &shim_mine; }
#define shim (shim_here()->state)
#define shim_spares (shim_here()->spares)
#define shim_guards (shim_here()->guards)

static int shim_protect(void *addr, size_t len, int prot);

/* The spares, once those a parent process left are gone. */
static void shim_spares_own(void)
{
    pid_t me = getpid();
    if (shim_spares.pid == me)
        return;
    for (uint32_t k = 0; k < shim_spares.count; k++) {
        munmap(shim_spares.s[k].host, shim_spares.s[k].cap);
        munmap(shim_spares.s[k].alias, shim_spares.s[k].cap);
        munmap(shim_spares.s[k].clean, shim_spares.s[k].cap);
    }
    shim_spares.count = 0;
    shim_spares.pid = me;
}

/* ---- a driver process (harness/ddi/) -------------------------------- */

/* When the builder runs in a driver process, its accesses fault there,
 * not here: the views (made in `zone`, mapped at the same address in both
 * processes) and the watched paging-buffer pools (in [mirror_lo,
 * mirror_hi)) keep their protection in the driver process's mapping. The
 * shim runs as it does for a builder in this process, and a protection
 * change in those ranges is also logged for that process
 * (pbc_shim_take_mirror); the driver process's faults come back through
 * pbc_shim_fault. */
static struct {
    uint8_t *zone, *lo, *hi;
    size_t zone_bytes, zone_used;
    int zone_fd;
    pbc_shim_prot *log;
    uint32_t count, cap, taken;
} shim_split;

static int shim_mirrored(const void *addr)
{
    const uint8_t *p = addr;
    return shim_split.zone && ((p >= shim_split.zone && p < shim_split.zone + shim_split.zone_bytes) ||
                               (p >= shim_split.lo && p < shim_split.hi));
}

static int shim_protect(void *addr, size_t len, int prot)
{
    /* Here as well: the harness's own accesses find the pages as they
     * would with the builder in this process. */
    if (mprotect(addr, len, prot) != 0)
        return -1;
    if (!shim_mirrored(addr))
        return 0;
    if (shim_split.taken) { /* the last log was handed over: start a new one */
        shim_split.count = 0;
        shim_split.taken = 0;
    }
    pbc_shim_prot *last = shim_split.count ? &shim_split.log[shim_split.count - 1] : NULL;
    if (last && last->prot == (uint32_t)prot && last->addr + last->len == (uint64_t)(uintptr_t)addr) {
        last->len += len; /* runs of pages: one entry */
        return 0;
    }
    pbc_shim_prot e = {(uint64_t)(uintptr_t)addr, len, (uint32_t)prot};
    PBC_PUSH(shim_split.log, shim_split.count, shim_split.cap, e);
    return 0;
}

void pbc_shim_split(uint8_t *zone, size_t zone_bytes, int zone_fd, uint8_t *mirror_lo, uint8_t *mirror_hi)
{
    shim_split.zone = zone;
    shim_split.zone_bytes = zone_bytes;
    shim_split.zone_fd = zone_fd;
    shim_split.lo = mirror_lo;
    shim_split.hi = mirror_hi;
}

uint32_t pbc_shim_take_mirror(const pbc_shim_prot **out)
{
    if (shim_split.taken)
        shim_split.count = 0;
    shim_split.taken = 1;
    *out = shim_split.log;
    return shim_split.count;
}

/* ---- write detection ------------------------------------------------ */

static struct sigaction shim_prev_segv;
static volatile sig_atomic_t shim_segv_installed;

static void shim_note_bit(uint64_t *bits, size_t *lo, size_t *hi, size_t i)
{
    bits[i / 64] |= 1ull << (i % 64);
    if (i < *lo)
        *lo = i;
    if (*hi == SIZE_MAX || i > *hi)
        *hi = i;
}

static int shim_bit(const uint64_t *bits, size_t i) { return (bits[i / 64] >> (i % 64)) & 1; }

/* The kernel refused to change a page's protection (vm.max_map_count: a
 * call touched tens of thousands of scattered pages). The shim can no
 * longer tell what the CPU touched: pbcheck's limit, not the builder's
 * fault, said as a harness bug (async-signal-safe). */
static _Noreturn void shim_cannot_track(void)
{
    static const char msg[] = PBC_HARNESS_BUG_MARK
        "the CPU touched more scattered pages in one call than the kernel lets the shim track "
        "(vm.max_map_count)\n";
    ssize_t ignored = write(STDERR_FILENO, msg, sizeof(msg) - 1);
    (void)ignored;
    abort();
}

/* A write to a sealed page of the watched memory: the page's bytes are
 * kept, it turns writable and dirty. Sealed pages are readable, so no
 * read faults here. Returns 0 for an address that is not such a page. */
static int shim_watch_fault(uint8_t *a)
{
    pbc_shim_watch *w = shim.watch;
    if (!w || a < w->base || a >= w->base + w->pages * PBC_PAGE_SIZE)
        return 0;
    size_t i = (size_t)(a - w->base) / PBC_PAGE_SIZE;
    if (w->state[i] != PBC_SHIM_SEALED && w->state[i] != PBC_SHIM_FILLED)
        return 0;
    memcpy(pbc_shim_watch_clean(w, i), w->base + i * PBC_PAGE_SIZE, PBC_PAGE_SIZE);
    if (shim_protect(w->base + i * PBC_PAGE_SIZE, PBC_PAGE_SIZE, PROT_READ | PROT_WRITE) != 0)
        shim_cannot_track();
    w->state[i] = PBC_SHIM_DIRTY;
    w->dirty[w->dirty_count++] = (uint32_t)i;
    return 1;
}

/* An access to a view page: the first in a call makes it readable and
 * notes it; a write to a readable page makes it writable, keeps its old
 * bytes and notes it dirty. A write to a sealed page of the watched
 * memory is noted too. The access then runs again. Any other fault is
 * the previous handler's. */
static int shim_fill_view_page(shim_mapping *m, size_t i, uint8_t *to, pbc_desc *d);
static void shim_keep_clean(shim_mapping *m, size_t i, const pbc_desc *made);
static void shim_relieve(void);
static void shim_open_ahead(shim_mapping *m, size_t first);

/* Whether the fault was a store: x86-64 hands the page fault's error
 * code to the handler (bit 1: a write); elsewhere 0, unknown. */
static int shim_fault_wrote(const void *uc)
{
#if defined(__x86_64__)
    return (((const ucontext_t *)uc)->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#else
    (void)uc;
    return 0;
#endif
}

/* ---- the attribution watch (pbc_shim_attrib) --------------------------- */

/* Process-wide: one replay at a time, and the driver's system threads
 * store through the same views on the same one CPU. */
static pbc_shim_attrib *shim_attrib;
static struct sigaction shim_prev_trap;

static uint64_t shim_view_ppn(const shim_mapping *m, size_t i);

static int shim_attrib_page(const shim_mapping *m, size_t i)
{
    return shim_attrib && !shim_attrib->host && shim_attrib->gpu == shim.gpu &&
           shim_view_ppn(m, i) == shim_attrib->ppn;
}

/* The watched harness page, while BuildPagingBuffer runs: read-only, so
 * that its stores fault; after, as the paging-buffer watch keeps it. */
static int shim_attrib_host(void) { return shim_attrib && shim_attrib->host && shim_attrib->gpu == shim.gpu; }

static void shim_attrib_host_protect(int running)
{
    uint8_t *page = shim_attrib->host;
    int prot = PROT_READ | PROT_WRITE;
    pbc_shim_watch *w = shim.watch;
    if (w && page >= w->base && page < w->base + w->pages * PBC_PAGE_SIZE) {
        uint8_t state = w->state[(size_t)(page - w->base) / PBC_PAGE_SIZE];
        if (state == PBC_SHIM_SEALED || state == PBC_SHIM_FILLED)
            prot = PROT_READ;
    }
    /* mirrored: with a driver process, its stores are the ones to catch */
    if (shim_protect(page, PBC_PAGE_SIZE, running ? PROT_READ : prot) != 0)
        shim_cannot_track();
}

#if defined(__x86_64__)
#define SHIM_EFLAGS_TF 0x100
/* The registers and the page at the store's fault, to run it a second
 * time as it first would have. */
static gregset_t shim_attrib_regs;
static uint8_t shim_attrib_page_was[PBC_PAGE_SIZE];
/* 1: the store runs with the watched bytes inverted; 2: it runs again on
 * their true bytes. */
static int shim_attrib_phase, shim_attrib_reached;
static uintptr_t shim_attrib_sp; /* the stack pointer of the pending store's unwound frames */

/* A store into the watched page, about to run again on a writable page:
 * who makes it (the instruction and its callers, from the signal frame
 * on: the handler's own frames are dropped). Whether it reaches the
 * watched bytes is told by the bytes themselves: the instruction runs
 * once with them inverted and once more, from the same registers and
 * page, on their true bytes, so that a store of the value they already
 * hold shows in the first run and a read-modify-write that leaves the
 * inverted bytes as they were (`or [x], 0x10` on a byte whose inverse
 * has that bit) in the second; the trap flag stops the thread after
 * each. */
static void shim_attrib_fault(uint8_t *page, void *uc)
{
    ucontext_t *u = uc;
    pbc_shim_attrib *a = shim_attrib;
    pbc_shim_store *st = &a->pending;
    uintptr_t pc = (uintptr_t)u->uc_mcontext.gregs[REG_RIP], sp = (uintptr_t)u->uc_mcontext.gregs[REG_RSP];
    /* A loop's stores (a memcpy's) share the instruction and the stack:
     * their callers are unwound once. */
    if (!st->nframes || st->frames[0] != pc || shim_attrib_sp != sp) {
        void *raw[PBC_SHIM_STORE_FRAMES + 8];
        int n = backtrace(raw, (int)PBC_ARRAY_LEN(raw));
        int from = 0;
        while (from < n && (uintptr_t)raw[from] != pc)
            from++;
        st->frames[0] = pc;
        st->nframes = 1;
        for (int k = from + 1; k < n && st->nframes < PBC_SHIM_STORE_FRAMES; k++)
            st->frames[st->nframes++] = (uintptr_t)raw[k];
        shim_attrib_sp = sp;
    }
    st->call = shim.gpu->cpu.call;
    st->op = shim.gpu->cpu.op;
    st->mpo = a->cur_mpo;
    st->operation = a->cur_operation;
    a->pending_page = page;
    memcpy(a->before, page + a->off, a->len);
    memcpy(shim_attrib_page_was, page, PBC_PAGE_SIZE);
    for (uint32_t k = 0; k < a->len; k++)
        page[a->off + k] = (uint8_t)~a->before[k];
    memcpy(shim_attrib_regs, u->uc_mcontext.gregs, sizeof(shim_attrib_regs));
    shim_attrib_phase = 1;
    u->uc_mcontext.gregs[REG_EFL] |= SHIM_EFLAGS_TF;
}

/* The same store in a driver process (harness/ddi/): the judge takes the
 * store's call and operation as its fault is served, and its frames and
 * whether it reached the bytes come back as a record
 * (pbc_shim_attrib_record), single-stepped there as above. */
static int shim_attrib_awaiting;

static void shim_attrib_remote(void)
{
    pbc_shim_attrib *a = shim_attrib;
    memset(&a->pending, 0, sizeof(a->pending));
    a->pending.call = shim.gpu->cpu.call;
    a->pending.op = shim.gpu->cpu.op;
    a->pending.mpo = a->cur_mpo;
    a->pending.operation = a->cur_operation;
    shim_attrib_awaiting = 1;
}

/* Counts the store pending (a's) as the page's, and as the watched
 * bytes' writer when it reached them. */
static void shim_attrib_count(pbc_shim_attrib *a, int reached)
{
    if (!a->only_call || a->pending.call == a->only_call) {
        a->stores++;
        a->last_store = a->pending;
        if (reached) {
            a->changes++;
            a->last_change = a->pending;
        }
    }
}

int pbc_shim_attrib_record(const pbc_shim_store *st, int reached)
{
    pbc_shim_attrib *a = shim_attrib;
    if (!a || !shim_attrib_awaiting)
        return -1;
    shim_attrib_awaiting = 0;
    uint32_t n = st->nframes < PBC_SHIM_STORE_FRAMES ? st->nframes : PBC_SHIM_STORE_FRAMES;
    memcpy(a->pending.frames, st->frames, n * sizeof(st->frames[0]));
    memcpy(a->pending.lib, st->lib, n * sizeof(st->lib[0]));
    a->pending.nframes = n;
    a->pending.remote = 1;
    shim_attrib_count(a, reached);
    return 0;
}

/* The store ran: after its first run (on the inverted bytes) the page
 * gets its bytes back and the instruction runs again from the same
 * registers; after the second, the page is read-only again, and the store
 * counts as the watched bytes' writer when either run changed them. */
static void shim_attrib_trap(int sig, siginfo_t *si, void *uc)
{
    pbc_shim_attrib *a = shim_attrib;
    if (!a || !a->pending_page) {
        if (shim_prev_trap.sa_flags & SA_SIGINFO)
            shim_prev_trap.sa_sigaction(sig, si, uc);
        else if (shim_prev_trap.sa_handler != SIG_IGN && shim_prev_trap.sa_handler != SIG_DFL)
            shim_prev_trap.sa_handler(sig);
        else {
            signal(sig, SIG_DFL);
            raise(sig);
        }
        return;
    }
    ucontext_t *u = uc;
    uint8_t *at = a->pending_page + a->off;
    if (shim_attrib_phase == 1) {
        shim_attrib_reached = 0;
        for (uint32_t k = 0; k < a->len; k++)
            shim_attrib_reached |= at[k] != (uint8_t)~a->before[k];
        memcpy(a->pending_page, shim_attrib_page_was, PBC_PAGE_SIZE);
        memcpy(u->uc_mcontext.gregs, shim_attrib_regs, sizeof(shim_attrib_regs));
        u->uc_mcontext.gregs[REG_EFL] |= SHIM_EFLAGS_TF;
        shim_attrib_phase = 2;
        return;
    }
    shim_attrib_reached |= memcmp(at, a->before, a->len) != 0;
    u->uc_mcontext.gregs[REG_EFL] &= ~(greg_t)SHIM_EFLAGS_TF;
    if (mprotect(a->pending_page, PBC_PAGE_SIZE, PROT_READ) != 0)
        shim_cannot_track();
    shim_attrib_count(a, shim_attrib_reached);
    a->pending_page = NULL;
    shim_attrib_phase = 0;
}
#endif

void pbc_shim_attrib_arm(pbc_shim_attrib *a)
{
#if defined(__x86_64__)
    if (a && !shim_attrib) {
        if (a->len > sizeof(a->before))
            a->len = sizeof(a->before);
        backtrace((void *[1]){0}, 1); /* loads the unwinder now, not in the handler */
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_sigaction = shim_attrib_trap;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGTRAP, &sa, &shim_prev_trap);
    } else if (!a && shim_attrib) {
        sigaction(SIGTRAP, &shim_prev_trap, NULL);
    }
    shim_attrib = a;
    shim_attrib_awaiting = 0;
#else
    (void)a;
#endif
}

#if !defined(__x86_64__)
int pbc_shim_attrib_record(const pbc_shim_store *st, int reached)
{
    (void)st;
    (void)reached;
    return -1;
}
#endif

/* A store that makes a page right after one the CPU wrote in this call
 * (it stores forward) also opens the pages after it that nothing made or
 * touched yet, up to SHIM_AHEAD of them: filled, their old bytes
 * kept, writable (one protection change for the run), as a first store
 * would leave them, but not noted touched. A CPU that fills or copies a
 * large range forward then faults once per SHIM_AHEAD pages, not once a
 * page. The write-back compares each with its old bytes: the ones the CPU
 * changed are noted touched and written then, as if each had faulted;
 * the others are made inaccessible again, so that a later access is
 * noted as ever. What the access list says is the same, except that a
 * store of the bytes a page already held is not counted as a write (and a
 * read-only access to an opened page not as an access); nothing the model
 * holds differs. Not while the attribution watch is armed: it traps each
 * store. */
#define SHIM_AHEAD 32u

static void shim_open_ahead(shim_mapping *m, size_t first)
{
    size_t end = first;
    while (end < m->count && end - first < SHIM_AHEAD && !shim_bit(m->filled, end) && !shim_bit(m->touched, end) &&
           !shim_bit(m->dirty, end) &&
           shim.filled_pages < (shim.relieve_at > SHIM_RELIEVE_PAGES ? shim.relieve_at : SHIM_RELIEVE_PAGES))
        end++;
    for (size_t j = first; j < end; j++) {
        pbc_desc was;
        int described = shim_fill_view_page(m, j, m->alias + j * PBC_PAGE_SIZE, &was);
        shim_keep_clean(m, j, described ? &was : NULL);
        shim_note_bit(m->dirty, &m->dirty_lo, &m->dirty_hi, j);
        m->ahead[j / 64] |= 1ull << (j % 64);
    }
    if (end > first && shim_protect(m->host + first * PBC_PAGE_SIZE, (end - first) * PBC_PAGE_SIZE,
                                    PROT_READ | PROT_WRITE) != 0)
        shim_cannot_track();
}

/* The shim's part of a fault at a (an access fault: the page is mapped):
 * 1 when the access may run again, 0 when it is none of the shim's.
 * stored: the access was a store (the fault's error code); uc: the
 * fault's context, NULL when the fault was another process's (a driver
 * process's, pbc_shim_fault); watch, for such a fault: set to 1 when the
 * store is to be single-stepped there (NULL: it cannot be). */
static int shim_fault_at(uint8_t *a, int stored, void *uc, int *watch)
{
    if (shim_watch_fault(a))
        return 1;
    for (uint32_t k = 0; k < shim_guards.count; k++) {
        shim_guard *g = &shim_guards.g[k];
        if (a < g->start || a >= g->start + g->len)
            continue;
        size_t i = (size_t)(a - g->start) / PBC_PAGE_SIZE;
        uint8_t *page = g->start + i * PBC_PAGE_SIZE;
        if (g->fill && !shim_bit(g->made, i)) {
            /* The page's first access: made, then read-only as the rest
             * (a store faults again and is noted below). */
            if (shim_protect(page, PBC_PAGE_SIZE, PROT_READ | PROT_WRITE) != 0)
                shim_cannot_track();
            g->fill(g->ctx, i * PBC_PAGE_SIZE, page);
            if (shim_protect(page, PBC_PAGE_SIZE, PROT_READ) != 0)
                shim_cannot_track();
            g->made[i / 64] |= 1ull << (i % 64);
            return 1;
        }
        /* A store into guarded memory: noted, then let through, so the
         * builder goes on and the harness reports it after the call (a
         * lazy guard opens only the page, its unmade pages staying so). */
        g->written = 1;
        if (shim_protect(g->fill ? page : g->start, g->fill ? PBC_PAGE_SIZE : g->len, PROT_READ | PROT_WRITE) != 0)
            shim_cannot_track();
        return 1;
    }
    for (uint32_t k = 0; k < shim.map_count; k++) {
        shim_mapping *m = &shim.map[k];
        if (m->parked || a < m->host || a >= m->host + m->bytes)
            continue; /* a parked view is unmapped: its pages fault as any bad access */
        size_t i = (size_t)(a - m->host) / PBC_PAGE_SIZE;
        uint8_t *page = m->host + i * PBC_PAGE_SIZE;
        /* A store tells itself (the fault's error code), so a page the
         * CPU first writes costs one fault, not a read fault and then a
         * write fault. Without the code, a page that was readable faults
         * only for a write. */
        int made = 0, described = 0;
        pbc_desc was;
        if (!shim_bit(m->filled, i)) {
            if (shim.filled_pages >= shim.relieve_at)
                shim_relieve(); /* gives pages back, m's among them: the page is still to fill */
            if (stored) { /* made where the CPU will store: its page is mapped once */
                if (shim_protect(page, PBC_PAGE_SIZE, PROT_READ | PROT_WRITE) != 0)
                    shim_cannot_track();
                described = shim_fill_view_page(m, i, page, &was);
            } else {
                described = shim_fill_view_page(m, i, m->alias + i * PBC_PAGE_SIZE, &was);
            }
            made = 1;
        }
        int write = stored || (shim_bit(m->touched, i) && !made);
        if (!shim_bit(m->touched, i))
            shim_note_bit(m->touched, &m->touched_lo, &m->touched_hi, i);
        if (!write) {
            if (shim_protect(page, PBC_PAGE_SIZE, PROT_READ) != 0)
                shim_cannot_track();
            return 1;
        }
        int watched = (uc || watch) && shim_attrib_page(m, i);
        if (shim_bit(m->dirty, i) && !watched)
            return 0; /* writable already: not ours */
        if (!shim_bit(m->dirty, i)) {
            /* What the page held before: write-back sends only the bytes
             * the CPU changed, so two views writing one page lose nothing. */
            shim_keep_clean(m, i, described ? &was : NULL);
            shim_note_bit(m->dirty, &m->dirty_lo, &m->dirty_hi, i);
            m->wrote[i / 64] |= 1ull << (i % 64);
        }
        if (!(made && stored) && shim_protect(page, PBC_PAGE_SIZE, PROT_READ | PROT_WRITE) != 0)
            shim_cannot_track();
#if defined(__x86_64__)
        if (watched && uc) /* a dirty watched page is read-only again after each store */
            shim_attrib_fault(page, uc);
        else if (watched) {
            shim_attrib_remote();
            *watch = 1;
        }
#endif
        if (made && stored && !shim_attrib && i > 0 && (shim_bit(m->wrote, i - 1) || shim_bit(m->ahead, i - 1)))
            shim_open_ahead(m, i + 1); /* the CPU stores forward: its second page on */
        return 1;
    }
    return 0;
}

static void shim_segv(int sig, siginfo_t *si, void *uc)
{
    uint8_t *a = si->si_addr;
#if defined(__x86_64__)
    if (si->si_code == SEGV_ACCERR && shim_attrib_host() && a >= shim_attrib->host &&
        a < shim_attrib->host + PBC_PAGE_SIZE) {
        /* a sealed paging-buffer page is noted dirty as any write to it is */
        if (!shim_watch_fault(a) && mprotect(shim_attrib->host, PBC_PAGE_SIZE, PROT_READ | PROT_WRITE) != 0)
            shim_cannot_track();
        shim_attrib_fault(shim_attrib->host, uc);
        return;
    }
#endif
    if (si->si_code == SEGV_ACCERR && shim_fault_at(a, shim_fault_wrote(uc), uc, NULL))
        return;
    if (shim_prev_segv.sa_flags & SA_SIGINFO) {
        shim_prev_segv.sa_sigaction(sig, si, uc);
    } else if (shim_prev_segv.sa_handler == SIG_DFL || shim_prev_segv.sa_handler == SIG_IGN) {
        signal(sig, SIG_DFL); /* the store faults again and ends the process as it would have */
    } else {
        shim_prev_segv.sa_handler(sig);
    }
}

int pbc_shim_fault(void *addr, int wrote) { return shim_fault_at(addr, wrote, NULL, NULL); }

int pbc_shim_fault_watched(void *addr, int wrote, uint32_t *off, uint32_t *len)
{
    uint8_t *a = addr;
    int watch = 0;
#if defined(__x86_64__)
    if (shim_attrib_host() && a >= shim_attrib->host && a < shim_attrib->host + PBC_PAGE_SIZE) {
        /* the paging-buffer page, read-only in the driver process while
         * BuildPagingBuffer runs (shim_attrib_host_protect) */
        if (!shim_watch_fault(a) && shim_protect(shim_attrib->host, PBC_PAGE_SIZE, PROT_READ | PROT_WRITE) != 0)
            shim_cannot_track();
        shim_attrib_remote();
        watch = 1;
    } else
#endif
    if (!shim_fault_at(a, wrote, NULL, &watch))
        return 0;
    if (!watch)
        return 1;
    *off = shim_attrib->off;
    *len = shim_attrib->len;
    return 2;
}

static void shim_install_segv(void);

void pbc_shim_guard(void *start, size_t len)
{
    shim_install_segv();
    if (shim_protect(start, len, PROT_READ) != 0)
        shim_cannot_track();
    shim_guard g = {start, len, 0, NULL, NULL, NULL};
    PBC_PUSH(shim_guards.g, shim_guards.count, shim_guards.cap, g);
}

void pbc_shim_guard_lazy(void *start, size_t len, pbc_shim_fill_fn fill, void *ctx)
{
    shim_install_segv();
    if (shim_protect(start, len, PROT_NONE) != 0)
        shim_cannot_track();
    size_t pages = (len + PBC_PAGE_SIZE - 1) / PBC_PAGE_SIZE;
    shim_guard g = {start, len, 0, fill, ctx, pbc_xcalloc((pages + 63) / 64, sizeof(uint64_t))};
    PBC_PUSH(shim_guards.g, shim_guards.count, shim_guards.cap, g);
}

static shim_guard *shim_guard_of(const void *start)
{
    for (uint32_t k = 0; k < shim_guards.count; k++)
        if (shim_guards.g[k].start == start)
            return &shim_guards.g[k];
    return NULL;
}

int pbc_shim_guard_written(const void *start)
{
    const shim_guard *g = shim_guard_of(start);
    return g && g->written;
}

void pbc_shim_unguard(void *start)
{
    shim_guard *g = shim_guard_of(start);
    if (!g)
        return;
    if (shim_protect(g->start, g->len, PROT_READ | PROT_WRITE) != 0)
        shim_cannot_track();
    free(g->made);
    *g = shim_guards.g[--shim_guards.count];
    if (shim_guards.count == 0) { /* nothing kept between runs */
        free(shim_guards.g);
        memset(&shim_guards, 0, sizeof(shim_guards));
    }
}

static void shim_install_segv(void)
{
    if (shim_segv_installed)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = shim_segv;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSEGV, &sa, &shim_prev_segv) == 0)
        shim_segv_installed = 1;
}

/* ---- watched memory --------------------------------------------------- */

static int shim_watch_writable(uint8_t state) { return state == PBC_SHIM_OPEN || state == PBC_SHIM_DIRTY; }

static void shim_watch_protect(const pbc_shim_watch *w, size_t first, size_t n, int prot)
{
    if (shim_protect(w->base + first * PBC_PAGE_SIZE, n * PBC_PAGE_SIZE, prot) != 0)
        pbc_harness_bug("the kernel refused to change the protection of %zu watched pages: %s", n,
                        strerror(errno));
}

/* Pages [first, end) writable (or read-only): one protection change per
 * run of pages that are not yet. */
static void shim_watch_writable_range(const pbc_shim_watch *w, size_t first, size_t end, int writable)
{
    for (size_t i = first; i < end;) {
        if (shim_watch_writable(w->state[i]) == writable) {
            i++;
            continue;
        }
        size_t j = i + 1;
        while (j < end && shim_watch_writable(w->state[j]) != writable)
            j++;
        shim_watch_protect(w, i, j - i, writable ? PROT_READ | PROT_WRITE : PROT_READ);
        i = j;
    }
}

/* The dirty list without pages [first, end), in order. */
static void shim_watch_forget_dirty(pbc_shim_watch *w, size_t first, size_t end)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < w->dirty_count; k++)
        if (w->dirty[k] < first || w->dirty[k] >= end)
            w->dirty[n++] = w->dirty[k];
    w->dirty_count = n;
}

static void shim_watch_check(const pbc_shim_watch *w, size_t first, size_t n)
{
    if (!w->base || first > w->pages || n > w->pages - first)
        pbc_harness_bug("pages [%zu, %zu) are outside the %zu watched pages", first, first + n, w->pages);
}

void pbc_shim_watch_init(pbc_shim_watch *w, uint8_t *base, size_t pages, uint8_t fill)
{
    memset(w, 0, sizeof(*w));
    w->base = base;
    w->pages = pages;
    w->fill = fill;
    w->state = pbc_xcalloc(pages, 1);
    w->clean = pbc_xmalloc(pages * PBC_PAGE_SIZE); /* its pages cost memory once a page is written */
    w->dirty = pbc_xmalloc(pages * sizeof(*w->dirty));
}

void pbc_shim_watch_fini(pbc_shim_watch *w)
{
    if (!w->base)
        return;
    shim_watch_writable_range(w, 0, w->pages, 1);
    if (shim.watch == w)
        shim.watch = NULL;
    free(w->clean);
    free(w->state);
    free(w->dirty);
    memset(w, 0, sizeof(*w));
}

void pbc_shim_watch_use(pbc_shim_watch *w)
{
    shim_install_segv();
    shim.watch = w;
}

void pbc_shim_watch_open(pbc_shim_watch *w, size_t first, size_t n, int fill)
{
    shim_watch_check(w, first, n);
    shim_watch_writable_range(w, first, first + n, 1);
    for (size_t i = first; i < first + n; i++) {
        if (fill && w->state[i] != PBC_SHIM_FILLED)
            memset(w->base + i * PBC_PAGE_SIZE, w->fill, PBC_PAGE_SIZE);
        w->state[i] = PBC_SHIM_OPEN;
    }
    shim_watch_forget_dirty(w, first, first + n);
}

void pbc_shim_watch_seal(pbc_shim_watch *w, size_t first, size_t n)
{
    shim_watch_check(w, first, n);
    shim_watch_writable_range(w, first, first + n, 0);
    for (size_t i = first; i < first + n; i++)
        if (w->state[i] != PBC_SHIM_FILLED)
            w->state[i] = PBC_SHIM_SEALED;
    shim_watch_forget_dirty(w, first, first + n);
}

void pbc_shim_watch_fill(pbc_shim_watch *w, size_t first, size_t n)
{
    shim_watch_check(w, first, n);
    for (size_t i = first; i < first + n;) {
        if (w->state[i] == PBC_SHIM_FILLED) {
            i++;
            continue;
        }
        size_t j = i + 1;
        while (j < first + n && w->state[j] != PBC_SHIM_FILLED)
            j++;
        shim_watch_writable_range(w, i, j, 1);
        memset(w->base + i * PBC_PAGE_SIZE, w->fill, (j - i) * PBC_PAGE_SIZE);
        shim_watch_protect(w, i, j - i, PROT_READ);
        memset(w->state + i, PBC_SHIM_FILLED, j - i);
        i = j;
    }
    shim_watch_forget_dirty(w, first, first + n);
}

void pbc_shim_watch_settle(pbc_shim_watch *w)
{
    for (uint32_t k = 0; k < w->dirty_count;) {
        uint32_t j = k + 1; /* pages written one after another: one protection change */
        while (j < w->dirty_count && w->dirty[j] == w->dirty[j - 1] + 1)
            j++;
        shim_watch_protect(w, w->dirty[k], j - k, PROT_READ);
        for (uint32_t m = k; m < j; m++)
            w->state[w->dirty[m]] = PBC_SHIM_SEALED;
        k = j;
    }
    w->dirty_count = 0;
}

/* ---- views ------------------------------------------------------------ */

/* Index of page number ppn in view m, or -1. */
static int64_t shim_view_index(const shim_mapping *m, uint64_t ppn)
{
    if (!m->pages)
        return ppn >= m->first && ppn - m->first < m->count ? (int64_t)(ppn - m->first) : -1;
    size_t lo = 0, hi = m->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->pages[m->order[mid]] < ppn)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->count && m->pages[m->order[lo]] == ppn ? (int64_t)m->order[lo] : -1;
}

static uint64_t shim_view_ppn(const shim_mapping *m, size_t i)
{
    return m->pages ? m->pages[i] : m->first + i;
}

/* What modeled page pg holds, written into a view's page. */
static void shim_fill(uint8_t *to, const pbc_page *pg)
{
    const uint8_t *bytes = pbc_mem_view(pg, to); /* described: made right into the view */
    if (bytes != to)
        memcpy(to, bytes, PBC_PAGE_SIZE);
}

/* Page i of view m gets what the model holds there now (zeros when the
 * model has no such page), once, written at `to` (its alias, or its host
 * page made writable): later changes reach it by the change log
 * (shim_copy_in). 1 and *d when one description says what it got. */
static int shim_fill_view_page(shim_mapping *m, size_t i, uint8_t *to, pbc_desc *d)
{
    pbc_page tmp;
    const pbc_page *pg = pbc_mem_get(&shim.gpu->mem, shim_view_ppn(m, i), &tmp);
    if (pg)
        shim_fill(to, pg);
    else if (m->stale)
        memset(to, 0, PBC_PAGE_SIZE); /* else zeros already: a fresh view page's */
    m->filled[i / 64] |= 1ull << (i % 64);
    m->filled_count++;
    shim.filled_pages++;
    if (!pg)
        *d = (pbc_desc){PBC_PAGE_ZERO, 0, 0};
    else if (pbc_page_single(pg))
        *d = pg->desc;
    return !pg || pbc_page_single(pg);
}

/* Scratch pages for the write-back and the fault handler (which may run
 * on a small signal stack). */
static _Thread_local uint8_t shim_scratch[2][PBC_PAGE_SIZE];
static const uint8_t shim_zeros[PBC_PAGE_SIZE];

/* 1 and *d when the page's bytes are one 4-byte pattern (zeros too): a
 * fill's, or a copy of one, whatever the pattern's phase. */
static int shim_page_pattern(const uint8_t *bytes, pbc_desc *d)
{
    if (memcmp(bytes, bytes + 4, PBC_PAGE_SIZE - 4) != 0)
        return 0;
    uint32_t v;
    memcpy(&v, bytes, sizeof(v));
    *d = v ? (pbc_desc){PBC_PAGE_PATTERN, v, 0} : (pbc_desc){PBC_PAGE_ZERO, 0, 0};
    return 1;
}

/* 1 and *d when bytes, the view's page of physical page ppn, are what a
 * description says: a pattern, or the one description the model holds
 * there. */
static int shim_page_desc(const uint8_t *bytes, uint64_t ppn, pbc_desc *d)
{
    if (shim_page_pattern(bytes, d))
        return 1;
    pbc_page tmp;
    const pbc_page *pg = pbc_mem_get(&shim.gpu->mem, ppn, &tmp);
    if (!pg || !pbc_page_single(pg))
        return 0;
    pbc_desc_read(&pg->desc, 0, shim_scratch[1], PBC_PAGE_SIZE);
    if (memcmp(shim_scratch[1], bytes, PBC_PAGE_SIZE) != 0)
        return 0;
    *d = pg->desc;
    return 1;
}

/* Page i is about to be written for the first time since the last
 * write-back: its bytes are kept, as a description when one says them
 * (a CPU fill of a large range then costs no copy of what it fills). */
static void shim_keep_clean(shim_mapping *m, size_t i, const pbc_desc *made)
{
    shim_clean_desc c = {i, {0}};
    if (made)
        c.d = *made; /* the page was just made from it */
    if (made || shim_page_desc(m->alias + i * PBC_PAGE_SIZE, shim_view_ppn(m, i), &c.d)) {
        PBC_PUSH(m->was_desc, m->was_desc_count, m->was_desc_cap, c);
        return;
    }
    memcpy(m->clean + i * PBC_PAGE_SIZE, m->alias + i * PBC_PAGE_SIZE, PBC_PAGE_SIZE);
}

/* Copies modeled page pg into every view that shows it. */
static void shim_copy_in(const pbc_page *pg)
{
    for (uint32_t k = 0; k < shim.map_count; k++) {
        int64_t i = shim_view_index(&shim.map[k], pg->ppn);
        if (i >= 0 && shim_bit(shim.map[k].filled, (size_t)i))
            shim_fill(shim.map[k].alias + (size_t)i * PBC_PAGE_SIZE, pg);
    }
}

/* Views take what the model changed since the last sync. */
static void shim_sync_in(void)
{
    pbc_mem *mem = &shim.gpu->mem;
    if (!mem->watched)
        return;
    for (uint32_t i = 0; i < mem->changed_count; i++)
        shim_copy_in(&mem->pages[mem->changed[i]]);
    pbc_mem_new_epoch(mem);
}

/* Whether the model's page ppn holds `was` (the view's page before the
 * CPU wrote it; was_d its description, or NULL): no other view wrote it
 * back since. */
static int shim_model_holds(uint64_t ppn, const uint8_t *was, const pbc_desc *was_d)
{
    pbc_page tmp;
    const pbc_page *pg = pbc_mem_get(&shim.gpu->mem, ppn, &tmp);
    if (!pg)
        return memcmp(was, shim_zeros, PBC_PAGE_SIZE) == 0;
    if (was_d && pbc_page_single(pg) && pbc_desc_same(&pg->desc, was_d))
        return 1;
    return memcmp(pbc_mem_view(pg, shim_scratch[1]), was, PBC_PAGE_SIZE) == 0;
}

/* Page i of m, written by the CPU, to the model: the bytes that differ
 * from `was`, run by run; or, when the page is now one pattern and the
 * model held `was`, the pattern as a description (the model then keeps
 * no bytes for it: a CPU fill costs the model what a packet's does). The
 * attribution watch sees every byte written, so it gets the runs. */
static void shim_write_page(const shim_mapping *m, size_t i, const uint8_t *was, const pbc_desc *was_d)
{
    const uint8_t *mine = m->host + i * PBC_PAGE_SIZE; /* readable (dirty), and mapped where the CPU wrote */
    uint64_t ppn = shim_view_ppn(m, i), addr = ppn << PBC_PAGE_SHIFT;
    if (memcmp(mine, was, PBC_PAGE_SIZE) == 0)
        return;
    pbc_desc d;
    if (!shim.gpu->byte_watch && pbc_gpu_pool_offset(shim.gpu, addr) < 0 && shim_page_pattern(mine, &d) &&
        shim_model_holds(ppn, was, was_d)) {
        pbc_gpu_write_desc(shim.gpu, addr, PBC_PAGE_SIZE, &d);
        return;
    }
    for (size_t at = 0; at < PBC_PAGE_SIZE;) {
        if (mine[at] == was[at]) {
            at++;
            continue;
        }
        size_t end = at + 1;
        while (end < PBC_PAGE_SIZE && mine[end] != was[end])
            end++;
        pbc_gpu_write(shim.gpu, addr + at, mine + at, end - at);
        at = end;
    }
}

static int shim_by_clean_page(const void *a, const void *b)
{
    size_t x = ((const shim_clean_desc *)a)->page, y = ((const shim_clean_desc *)b)->page;
    return x < y ? -1 : x > y;
}

/* Pages [first, first + n) of m: protection prot (the kernel's refusal is
 * the shim's limit: shim_cannot_track). */
static void shim_protect_run(const shim_mapping *m, size_t first, size_t n, int prot)
{
    if (n && shim_protect(m->host + first * PBC_PAGE_SIZE, n * PBC_PAGE_SIZE, prot) != 0)
        shim_cannot_track();
}

/* How a write-back leaves the written pages: the call goes on (read-only
 * again, still touched), it ends (shim_end_call protects them next), or
 * the views give memory back (shim_relieve: read-only, and the copies of
 * their old bytes given back too). */
enum { SHIM_WB_KEEP, SHIM_WB_LEAVE, SHIM_WB_RELIEVE };

/* What the CPU wrote through m since the last leave goes to the model,
 * with CPU provenance: page by page, as shim_write_page says. */
static void shim_write_back(shim_mapping *m, int how)
{
    if (m->dirty_hi == SIZE_MAX)
        return;
    pbc_prov saved = shim.gpu->cur;
    shim.gpu->cur = shim.gpu->cpu;
    shim.gpu->cur.writer = PBC_WRITER_CPU;
    for (uint32_t k = 1; k < m->was_desc_count; k++)
        if (m->was_desc[k].page < m->was_desc[k - 1].page) {
            qsort(m->was_desc, m->was_desc_count, sizeof(*m->was_desc), shim_by_clean_page);
            break;
        }
    uint32_t next = 0;
    size_t run = 0, run_end = 0, clean_run = 0, clean_end = 0; /* empty runs */
    for (size_t w = m->dirty_lo / 64; w <= m->dirty_hi / 64; w++) {
        for (uint64_t bits = m->dirty[w]; bits; bits &= bits - 1) {
            size_t i = w * 64 + (size_t)__builtin_ctzll(bits);
            const pbc_desc *was_d = NULL;
            const uint8_t *was = m->clean + i * PBC_PAGE_SIZE;
            if (next < m->was_desc_count && m->was_desc[next].page == i) {
                was_d = &m->was_desc[next++].d;
                pbc_desc_read(was_d, 0, shim_scratch[0], PBC_PAGE_SIZE);
                was = shim_scratch[0];
            }
            if (shim_bit(m->ahead, i)) {
                m->ahead[i / 64] &= ~(1ull << (i % 64));
                if (memcmp(m->host + i * PBC_PAGE_SIZE, was, PBC_PAGE_SIZE) == 0) {
                    /* opened ahead and not written: inaccessible again, untouched */
                    if (shim_protect(m->host + i * PBC_PAGE_SIZE, PBC_PAGE_SIZE, PROT_NONE) != 0)
                        shim_cannot_track();
                    continue;
                }
                shim_note_bit(m->touched, &m->touched_lo, &m->touched_hi, i);
                m->wrote[i / 64] |= 1ull << (i % 64);
            }
            shim_write_page(m, i, was, was_d);
            if (how == SHIM_WB_LEAVE)
                continue;
            if (i != run_end) {
                shim_protect_run(m, run, run_end - run, PROT_READ); /* still touched this call */
                run = i;
            }
            run_end = i + 1;
            if (how == SHIM_WB_RELIEVE && !was_d) {
                if (i != clean_end) {
                    if (clean_end > clean_run)
                        madvise(m->clean + clean_run * PBC_PAGE_SIZE, (clean_end - clean_run) * PBC_PAGE_SIZE,
                                MADV_REMOVE);
                    clean_run = i;
                }
                clean_end = i + 1;
            }
        }
        m->dirty[w] = 0;
    }
    shim_protect_run(m, run, run_end - run, PROT_READ);
    if (clean_end > clean_run)
        madvise(m->clean + clean_run * PBC_PAGE_SIZE, (clean_end - clean_run) * PBC_PAGE_SIZE, MADV_REMOVE);
    m->was_desc_count = 0;
    m->dirty_lo = SIZE_MAX;
    m->dirty_hi = SIZE_MAX;
    shim.gpu->cur = saved;
}

static void shim_write_back_all(void)
{
    for (uint32_t k = 0; k < shim.map_count; k++)
        shim_write_back(&shim.map[k], SHIM_WB_KEEP);
}

/* Views are memory the builder's code keeps resident a page at a time
 * (a fill of 4 GiB through one view, its copy elsewhere): every
 * SHIM_RELIEVE_PAGES pages filled, what the CPU wrote goes to the model
 * (the GPU does not run while builder code runs, so nothing tells the
 * difference), and each view page the model describes (a pattern, zeros,
 * initial content) is given back, to be filled again at its next access
 * (its touch this call still counts). Costs what a view holds only in
 * builders that hold that much. */
/* (SHIM_RELIEVE_PAGES: above, with the view's bounds) */

/* Pages [first, first + n) of m, filled, given back: inaccessible, their
 * memory returned, filled again at their next access. */
static void shim_release_run(shim_mapping *m, size_t first, size_t n)
{
    if (!n)
        return;
    shim_protect_run(m, first, n, PROT_NONE);
    if (madvise(m->alias + first * PBC_PAGE_SIZE, n * PBC_PAGE_SIZE, MADV_REMOVE) != 0)
        return; /* kept: filled still, and right */
    for (size_t i = first; i < first + n; i++)
        m->filled[i / 64] &= ~(1ull << (i % 64));
    m->filled_count -= n;
    shim.filled_pages -= n;
}

static void shim_give_back(shim_mapping *m)
{
    size_t run = 0, run_end = 0;
    size_t words = (m->count + 63) / 64;
    for (size_t w = 0; w < words; w++) {
        for (uint64_t bits = m->filled[w]; bits; bits &= bits - 1) {
            size_t i = w * 64 + (size_t)__builtin_ctzll(bits);
            const uint8_t *bytes = m->alias + i * PBC_PAGE_SIZE;
            pbc_page tmp;
            const pbc_page *pg = pbc_mem_get(&shim.gpu->mem, shim_view_ppn(m, i), &tmp);
            int described = !pg ? memcmp(bytes, shim_zeros, PBC_PAGE_SIZE) == 0
                                : pbc_page_single(pg) &&
                                      (pbc_desc_read(&pg->desc, 0, shim_scratch[0], PBC_PAGE_SIZE),
                                       memcmp(shim_scratch[0], bytes, PBC_PAGE_SIZE) == 0);
            if (!described || shim_attrib_page(m, i))
                continue;
            if (i != run_end) {
                shim_release_run(m, run, run_end - run);
                run = i;
            }
            run_end = i + 1;
        }
    }
    shim_release_run(m, run, run_end - run);
}

static void shim_relieve(void)
{
    if (shim.filled_pages < SHIM_RELIEVE_PAGES)
        return;
    for (uint32_t k = 0; k < shim.map_count; k++)
        shim_write_back(&shim.map[k], SHIM_WB_RELIEVE);
    for (uint32_t k = 0; k < shim.map_count; k++)
        shim_give_back(&shim.map[k]);
    shim_sync_in();
    shim.relieve_at = shim.filled_pages + SHIM_RELIEVE_PAGES;
}

/* The pages m's CPU touched since the last leave, as runs of physically
 * consecutive pages alike in being written or not, onto the access list;
 * then they are made inaccessible again for the next call. Call after the
 * write-back (so dirty pages are clean). */
static void shim_end_call(shim_mapping *m)
{
    if (m->touched_hi == SIZE_MAX)
        return;
    size_t prot = 0, prot_end = 0;
    for (size_t w = m->touched_lo / 64; w <= m->touched_hi / 64; w++) {
        for (uint64_t bits = m->touched[w]; bits; bits &= bits - 1) {
            size_t i = w * 64 + (size_t)__builtin_ctzll(bits);
            uint64_t phys = shim_view_ppn(m, i) << PBC_PAGE_SHIFT;
            int written = shim_bit(m->wrote, i);
            pbc_shim_access *last = shim.access_count ? &shim.access[shim.access_count - 1] : NULL;
            if (last && last->mdl == m->mdl && last->wrote == written &&
                last->phys + last->pages * PBC_PAGE_SIZE == phys) {
                last->pages++;
            } else {
                pbc_shim_access run = {m->mdl, phys, 1, written};
                PBC_PUSH(shim.access, shim.access_count, shim.access_cap, run);
            }
            if (i != prot_end) { /* one protection change per run of touched pages */
                shim_protect_run(m, prot, prot_end - prot, PROT_NONE);
                prot = i;
            }
            prot_end = i + 1;
        }
        m->touched[w] = 0;
        m->wrote[w] = 0;
    }
    shim_protect_run(m, prot, prot_end - prot, PROT_NONE);
    m->touched_lo = m->touched_hi = SIZE_MAX;
}

/* The views a builder unmaps within one call, parked until the call ends
 * (at most SHIM_PARKED of them, the longest parked dropped first): a
 * builder that maps a page table, or a page, for each page it works on
 * (ExWorker's virtual transfers walk two tables in turn, a view each)
 * maps the same pages again and again in one call. A parked view keeps
 * its filled pages, kept up to date as a live view's are, and the
 * protection of the pages the call touched: mapped again, it costs no
 * fill and no fault, where a new view cost both and the protection
 * changes to count the same pages once more. The builder sees an unmap,
 * then a map that may give the address it had, as Windows may. Its
 * accesses count when it goes (shim_release), once. A store through it
 * while it is unmapped ends the process as before (the fault handler
 * takes no parked view); a read of a page the call touched before the
 * unmap is not caught, and reads what a live view would. Only views of
 * MmMapIoSpace up to SHIM_SPARE_BYTES (an MDL view is the MDL's). */
#define SHIM_PARKED 8u

/* View i goes: its writes reach the model and the views that stay, its
 * accesses count; its mappings become a spare or are unmapped. */
static void shim_release(uint32_t i)
{
    shim_mapping *m = &shim.map[i];
    /* Every view's writes so far reach the model, and the views that stay
     * see them: views of one page agree at every map and unmap. */
    shim_write_back_all();
    shim_end_call(m); /* its accesses count, though it goes */
    shim_sync_in();
    if (m->parked)
        shim.parked--;
    if (m->mdl) {
        m->mdl->MappedSystemVa = m->saved_va;
        m->mdl->MdlFlags = m->saved_flags;
    }
    shim_spares_own();
    if (shim_mirrored(m->host)) {
        /* The zone's pages go, inaccessible in the driver process; the
         * zone is used again from its start once no view is left. */
        madvise(m->alias, m->cap, MADV_REMOVE);
        shim_protect(m->host, m->cap, PROT_NONE);
        munmap(m->alias, m->cap);
        munmap(m->clean, m->cap);
        if (shim.map_count == 1)
            shim_split.zone_used = 0;
    } else if (m->cap <= SHIM_SPARE_BYTES && shim_spares.count < SHIM_SPARES) {
        shim_spares.s[shim_spares.count++] = (shim_spare){m->host, m->alias, m->clean, m->cap};
    } else {
        munmap(m->host, m->cap);
        munmap(m->alias, m->cap);
        munmap(m->clean, m->cap);
    }
    free(m->pages);
    free(m->order);
    free(m->dirty);
    free(m->touched);
    free(m->wrote);
    free(m->ahead);
    free(m->filled);
    free(m->was_desc);
    shim.filled_pages -= m->filled_count;
    shim.map[i] = shim.map[--shim.map_count];
    if (shim.map_count == 0)
        pbc_mem_watch(&shim.gpu->mem, 0);
}

/* The view parked longest goes (shim_release); 0 when none is parked. */
static int shim_drop_parked(void)
{
    uint32_t oldest = shim.map_count;
    for (uint32_t k = 0; k < shim.map_count; k++)
        if (shim.map[k].parked && (oldest == shim.map_count || shim.map[k].parked_at < shim.map[oldest].parked_at))
            oldest = k;
    if (oldest == shim.map_count)
        return 0;
    shim_release(oldest);
    return 1;
}

/* The builder unmaps view i: parked when the call goes on and the view is
 * one to keep, else released. */
static void shim_unmap(uint32_t i)
{
    shim_mapping *m = &shim.map[i];
    if (!shim.depth || m->mdl || m->cap > SHIM_SPARE_BYTES) {
        shim_release(i);
        return;
    }
    shim_write_back_all();
    shim_sync_in();
    m->parked = 1;
    m->parked_at = ++shim.park_clock;
    if (++shim.parked > SHIM_PARKED)
        shim_drop_parked();
}

/* A parked view of pages [first, first + count), back in use; NULL when
 * none is parked. What other views wrote since it was parked reaches it
 * first, as it reaches a new view. */
static shim_mapping *shim_unpark(uint64_t first, size_t count)
{
    for (uint32_t k = 0; k < shim.map_count; k++) {
        shim_mapping *m = &shim.map[k];
        if (!m->parked || m->first != first || m->count != count)
            continue;
        shim_write_back_all();
        shim_sync_in();
        m->parked = 0;
        shim.parked--;
        return m;
    }
    return NULL;
}

static void shim_drop_all_parked(void)
{
    while (shim_drop_parked())
        ;
}

static void shim_flush_all(void)
{
    while (shim.map_count)
        shim_release(shim.map_count - 1);
}

/* ---- system threads (kernel/services.h, pbc_kernel_cpu_hooks) ---- */

static void *shim_thread_bind(void) { return shim_here(); }

/* A system thread takes the CPU: with the DDI thread outside the driver,
 * the views take what the model changed, as at pbc_shim_enter. */
static void shim_thread_gain(void *binding)
{
    shim_lent = binding;
    if (shim.gpu && shim.depth++ == 0)
        shim_sync_in();
}

static void shim_leave_views(void);

/* It gives the CPU up: at the outermost level what it wrote through the
 * views reaches the model, as at pbc_shim_leave. */
static void shim_thread_lose(void *binding)
{
    shim_lent = binding;
    shim_leave_views();
}

static const pbc_kernel_cpu_hooks shim_hooks = {shim_thread_bind, shim_thread_gain, shim_thread_lose};

void pbc_shim_bind(pbc_gpu *gpu)
{
    pbc_kernel_set_cpu_hooks(&shim_hooks);
    pbc_shim_unbind();
    shim.gpu = gpu;
}

void pbc_shim_set_invisible(uint32_t segment_mask) { shim.invisible = segment_mask; }

/* The driver's code runs on the run's one CPU (kernel/services.h). */
void pbc_shim_enter(void)
{
    pbc_kernel_enter();
    if (shim.gpu && shim.depth++ == 0)
        shim_sync_in();
}

/* What one view wrote reaches the others that show the same pages now. */
static void shim_leave_views(void)
{
    if (!shim.gpu || (shim.depth && --shim.depth > 0))
        return;
    for (uint32_t k = 0; k < shim.map_count; k++)
        shim_write_back(&shim.map[k], SHIM_WB_LEAVE);
    for (uint32_t k = 0; k < shim.map_count; k++)
        shim_end_call(&shim.map[k]);
    shim_sync_in();
    shim_drop_all_parked(); /* kept for the call only: between calls the model changes freely */
}

void pbc_shim_leave(void)
{
    KeFlushQueuedDpcs(); /* a DPC the call queued writes through the views too */
    shim_leave_views();
    pbc_kernel_leave();
}

void pbc_shim_own_view(const void *host, uint64_t phys, size_t bytes)
{
    shim.own_host = host;
    shim.own_phys = phys;
    shim.own_bytes = host ? bytes : 0;
}

uint32_t pbc_shim_take_accesses(const pbc_shim_access **out)
{
    uint32_t n = shim.access_count;
    *out = shim.access;
    shim.access_count = 0; /* the list stays valid until the builder runs again */
    return n;
}

void pbc_shim_unbind(void)
{
    if (shim.gpu)
        shim_flush_all();
    free(shim.access);
    memset(&shim, 0, offsetof(shim_state, map) + shim.map_count * sizeof(shim.map[0]));
}

void pbc_shim_note_asserts(uint32_t count, const char *first)
{
    if (count && shim.asserts == 0)
        snprintf(shim.assert_msg, sizeof(shim.assert_msg), "%s", first ? first : "");
    shim.asserts += count;
}

uint32_t *pbc_shim_registers(void) { return shim.gpu ? shim.gpu->mmio : NULL; }

void pbc_shim_note_register_writes(uint64_t n)
{
    if (shim.gpu)
        shim.gpu->mmio_writes += n;
}

/* A driver process's register file (pbc_shim_serve_registers). */
static uint32_t *shim_served_regs;
static uint64_t shim_served_phys, shim_served_writes;

void pbc_shim_serve_registers(uint32_t *regs, uint64_t phys)
{
    shim_served_regs = regs;
    shim_served_phys = phys;
}

uint64_t pbc_shim_take_register_writes(void)
{
    uint64_t n = shim_served_writes;
    shim_served_writes = 0;
    return n;
}

uint32_t pbc_shim_take_asserts(const char **first)
{
    uint32_t n = shim.asserts;
    *first = shim.assert_msg;
    shim.asserts = 0;
    return n;
}

static const uint64_t *shim_sort_key;

static int shim_by_page(const void *a, const void *b)
{
    uint64_t x = shim_sort_key[*(const uint32_t *)a], y = shim_sort_key[*(const uint32_t *)b];
    return x < y ? -1 : x > y;
}

/* A view's three fresh mappings of m->bytes; -1 when the kernel gives none. */
/* A view in the zone shared with the driver process: its host pages at
 * the same address there (inaccessible until the first access, in that
 * process's mapping), its alias a second mapping of the same pages here. */
static int shim_map_zone(shim_mapping *m)
{
    size_t at = shim_split.zone_used;
    if (m->bytes > shim_split.zone_bytes - at)
        return -1;
    m->host = shim_split.zone + at;
    m->alias = mmap(NULL, m->bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, shim_split.zone_fd, (off_t)at);
    m->clean = mmap(NULL, m->bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m->alias == MAP_FAILED || m->clean == MAP_FAILED) {
        if (m->alias != MAP_FAILED)
            munmap(m->alias, m->bytes);
        if (m->clean != MAP_FAILED)
            munmap(m->clean, m->bytes);
        return -1;
    }
    shim_split.zone_used = at + m->bytes;
    shim_protect(m->host, m->bytes, PROT_NONE);
    return 0;
}

static int shim_map_new(shim_mapping *m)
{
    if (shim_split.zone)
        return shim_map_zone(m);
    int fd = memfd_create("pbcheck-view", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)m->bytes) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    m->host = mmap(NULL, m->bytes, PROT_NONE, MAP_SHARED | MAP_NORESERVE, fd, 0);
    m->alias = mmap(NULL, m->bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
    /* Shared, so RLIMIT_DATA (isolation's memory limit) does not count it. */
    m->clean = mmap(NULL, m->bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    close(fd);
    if (m->host == MAP_FAILED || m->alias == MAP_FAILED || m->clean == MAP_FAILED) {
        if (m->host != MAP_FAILED)
            munmap(m->host, m->bytes);
        if (m->alias != MAP_FAILED)
            munmap(m->alias, m->bytes);
        if (m->clean != MAP_FAILED)
            munmap(m->clean, m->bytes);
        return -1;
    }
    return 0;
}

/* A view of count pages: page i is physical page first + i, or pages[i]
 * when pages is given (the view then owns it). NULL when the shim cannot
 * make one. */
static shim_mapping *shim_map(uint64_t first, uint64_t *pages, size_t count)
{
    if (shim.gpu && shim.map_count == SHIM_MAX_MAPPINGS)
        shim_drop_parked(); /* a parked view gives its place to a view in use */
    if (!shim.gpu || shim.map_count == SHIM_MAX_MAPPINGS || count == 0 ||
        count > SHIM_MAX_VIEW_BYTES / PBC_PAGE_SIZE) {
        free(pages);
        return NULL;
    }
    shim_mapping *m = &shim.map[shim.map_count];
    memset(m, 0, sizeof(*m));
    m->bytes = m->cap = count * PBC_PAGE_SIZE;
    shim_spares_own();
    uint32_t best = shim_spares.count;
    for (uint32_t k = 0; !shim_split.zone && k < shim_spares.count; k++)
        if (shim_spares.s[k].cap >= m->bytes &&
            (best == shim_spares.count || shim_spares.s[k].cap < shim_spares.s[best].cap))
            best = k;
    if (best < shim_spares.count) {
        m->host = shim_spares.s[best].host;
        m->alias = shim_spares.s[best].alias;
        m->clean = shim_spares.s[best].clean;
        m->cap = shim_spares.s[best].cap;
        m->stale = 1;
        shim_spares.s[best] = shim_spares.s[--shim_spares.count];
    } else if (shim_map_new(m)) {
        free(pages);
        return NULL;
    }
    shim_install_segv();
    m->count = count;
    m->first = first;
    m->pages = pages;
    m->dirty = pbc_xcalloc((count + 63) / 64, sizeof(*m->dirty));
    m->touched = pbc_xcalloc((count + 63) / 64, sizeof(*m->touched));
    m->wrote = pbc_xcalloc((count + 63) / 64, sizeof(*m->wrote));
    m->ahead = pbc_xcalloc((count + 63) / 64, sizeof(*m->ahead));
    m->filled = pbc_xcalloc((count + 63) / 64, sizeof(*m->filled));
    m->dirty_lo = m->dirty_hi = m->touched_lo = m->touched_hi = SIZE_MAX;
    if (pages) {
        m->order = pbc_xmalloc(count * sizeof(*m->order));
        for (size_t i = 0; i < count; i++)
            m->order[i] = (uint32_t)i;
        shim_sort_key = pages;
        qsort(m->order, count, sizeof(*m->order), shim_by_page);
    }
    /* What the other views wrote so far counts: into the model first. */
    shim_write_back_all();
    shim_sync_in();
    shim.map_count++;
    /* What the model holds is filled in page by page as the CPU first
     * reaches it (shim_fill_view_page): a view costs the pages its
     * builder uses, not its size (VidMm maps every CPU-visible
     * allocation, which most builders never read). */
    pbc_mem *mem = &shim.gpu->mem;
    if (!mem->watched)
        pbc_mem_watch(mem, 1);
    return m;
}

/* In a driver process: the views are the judge's (pbc_shim_set_remote). */
static const pbc_shim_remote *shim_remote;

void pbc_shim_set_remote(const pbc_shim_remote *r) { shim_remote = r; }

PVOID MmGetSystemAddressForMdlSafe(PMDL Mdl, ULONG Priority)
{
    (void)Priority;
    if (!Mdl)
        return NULL;
    if (shim_remote)
        return shim_remote->map_mdl(Mdl);
    for (uint32_t i = 0; i < shim.map_count; i++) /* already mapped: the same view */
        if (shim.map[i].mdl == Mdl)
            return Mdl->MappedSystemVa;
    size_t count = ADDRESS_AND_SIZE_TO_SPAN_PAGES(MmGetMdlVirtualAddress(Mdl), Mdl->ByteCount);
    uint64_t *pages = pbc_xmalloc((count ? count : 1) * sizeof(*pages));
    for (size_t i = 0; i < count; i++)
        pages[i] = MmGetMdlPfnArray(Mdl)[i];
    shim_mapping *m = shim_map(0, pages, count);
    if (!m)
        return NULL;
    /* As Windows does: the MDL says it is mapped, and where, until the
     * view goes (MmUnmapLockedPages, or the end of the run); the harness
     * puts the MDL back as it was then. */
    m->mdl = Mdl;
    m->saved_va = Mdl->MappedSystemVa;
    m->saved_flags = Mdl->MdlFlags;
    Mdl->MappedSystemVa = m->host + (Mdl->ByteOffset & (PAGE_SIZE - 1));
    Mdl->MdlFlags |= MDL_MAPPED_TO_SYSTEM_VA;
    return Mdl->MappedSystemVa;
}

static int shim_find(const void *base)
{
    for (uint32_t i = 0; i < shim.map_count; i++) {
        const uint8_t *h = shim.map[i].host;
        if (!shim.map[i].parked && (const uint8_t *)base >= h && (const uint8_t *)base < h + shim.map[i].bytes)
            return (int)i;
    }
    return -1;
}

VOID MmUnmapLockedPages(PVOID BaseAddress, PMDL Mdl)
{
    (void)Mdl;
    if (shim_remote) {
        shim_remote->unmap(BaseAddress);
        return;
    }
    int i = shim_find(BaseAddress);
    if (i >= 0)
        shim_unmap((uint32_t)i);
}

/* Served: the register file, and any range of memory whose page numbers
 * are its physical addresses (a memory segment, of any size, or allocated
 * system pages). An aperture range is not: the CPU does not see system
 * pages through the GART. */
PVOID MmMapIoSpace(PHYSICAL_ADDRESS PhysicalAddress, SIZE_T NumberOfBytes, MEMORY_CACHING_TYPE CacheType)
{
    (void)CacheType;
    uint64_t pa = (uint64_t)PhysicalAddress.QuadPart;
    const uint64_t reg_bytes = PBC_MMIO_REGS * sizeof(uint32_t);
    if (!shim.gpu && shim_served_regs && NumberOfBytes && pa >= shim_served_phys &&
        pa - shim_served_phys < reg_bytes && NumberOfBytes <= reg_bytes - (pa - shim_served_phys))
        return (uint8_t *)shim_served_regs + (pa - shim_served_phys);
    if (shim_remote && NumberOfBytes)
        return shim_remote->map_io(pa, NumberOfBytes);
    if (!shim.gpu || NumberOfBytes == 0)
        return NULL;
    uint64_t regs = shim.gpu->mmio_base;
    if (pa >= regs && pa - regs < sizeof(shim.gpu->mmio) && NumberOfBytes <= sizeof(shim.gpu->mmio) - (pa - regs))
        return (uint8_t *)shim.gpu->mmio + (pa - regs);
    if (!pbc_gpu_identity_range(shim.gpu, pa, NumberOfBytes))
        return NULL;
    for (uint32_t i = 0; i < shim.gpu->segment_count; i++) { /* no CPU view of a segment declared invisible */
        const pbc_segment_info *g = &shim.gpu->seg[i].info;
        if ((shim.invisible >> g->SegmentId & 1) && pa < g->base + g->size && g->base < pa + NumberOfBytes)
            return NULL;
    }
    uint64_t first = pa >> PAGE_SHIFT;
    size_t count = (size_t)(((pa + NumberOfBytes - 1) >> PAGE_SHIFT) - first + 1);
    shim_mapping *m = shim_unpark(first, count);
    if (!m)
        m = shim_map(first, NULL, count);
    return m ? m->host + (pa & (PAGE_SIZE - 1)) : NULL;
}

VOID MmUnmapIoSpace(PVOID BaseAddress, SIZE_T NumberOfBytes)
{
    (void)NumberOfBytes;
    if (shim_remote) {
        if (!shim_served_regs || (uint8_t *)BaseAddress < (uint8_t *)shim_served_regs ||
            (uint8_t *)BaseAddress >= (uint8_t *)(shim_served_regs + PBC_MMIO_REGS))
            shim_remote->unmap(BaseAddress);
        return;
    }
    int i = shim_find(BaseAddress);
    if (i >= 0)
        shim_unmap((uint32_t)i);
}

/* The physical address behind a byte the builder sees: of a paging
 * buffer (the pool, in system memory), or of an MmMapIoSpace or MDL view;
 * 0 for any other address (the harness's own memory). */
PHYSICAL_ADDRESS MmGetPhysicalAddress(PVOID BaseAddress)
{
    PHYSICAL_ADDRESS pa;
    pa.QuadPart = 0;
    const uint8_t *p = BaseAddress;
    if (shim_remote) {
        pa.QuadPart = (LONGLONG)shim_remote->phys(BaseAddress);
        return pa;
    }
    if (shim.gpu && shim.gpu->dma_pool && p >= shim.gpu->dma_pool && p < shim.gpu->dma_pool + PBC_DMA_POOL_SIZE) {
        pa.QuadPart = (LONGLONG)(shim.gpu->pool_base + (uint64_t)(p - shim.gpu->dma_pool));
        return pa;
    }
    if (shim.own_host && p >= shim.own_host && p < shim.own_host + shim.own_bytes) {
        pa.QuadPart = (LONGLONG)(shim.own_phys + (uint64_t)(p - shim.own_host));
        return pa;
    }
    int i = shim_find(BaseAddress);
    if (i < 0)
        return pa;
    const shim_mapping *m = &shim.map[i];
    size_t off = (size_t)((const uint8_t *)BaseAddress - m->host);
    uint64_t page = m->pages ? m->pages[off >> PAGE_SHIFT] : m->first + (off >> PAGE_SHIFT);
    pa.QuadPart = (LONGLONG)(page << PAGE_SHIFT | (off & (PAGE_SIZE - 1)));
    return pa;
}

static int shim_is_register(volatile ULONG *r)
{
    if (!shim.gpu && shim_served_regs)
        return (const volatile uint8_t *)r >= (const uint8_t *)shim_served_regs &&
               (const volatile uint8_t *)r < (const uint8_t *)(shim_served_regs + PBC_MMIO_REGS);
    return shim.gpu && (const volatile uint8_t *)r >= (const uint8_t *)shim.gpu->mmio &&
           (const volatile uint8_t *)r < (const uint8_t *)(shim.gpu->mmio + PBC_MMIO_REGS);
}

ULONG READ_REGISTER_ULONG(volatile ULONG *Register) { return *Register; }
UCHAR READ_REGISTER_UCHAR(volatile UCHAR *Register) { return *Register; }
USHORT READ_REGISTER_USHORT(volatile USHORT *Register) { return *Register; }
ULONG64 READ_REGISTER_ULONG64(volatile ULONG64 *Register) { return *Register; }

/* A store of any width into the register file counts as a register write. */
static void shim_count_register(volatile void *r)
{
    if (shim_is_register((volatile ULONG *)r)) {
        if (shim.gpu)
            shim.gpu->mmio_writes++;
        else
            shim_served_writes++;
    }
}

VOID WRITE_REGISTER_UCHAR(volatile UCHAR *Register, UCHAR Value)
{
    shim_count_register(Register);
    *Register = Value;
}

VOID WRITE_REGISTER_USHORT(volatile USHORT *Register, USHORT Value)
{
    shim_count_register(Register);
    *Register = Value;
}

VOID WRITE_REGISTER_ULONG64(volatile ULONG64 *Register, ULONG64 Value)
{
    shim_count_register(Register);
    *Register = Value;
}

VOID WRITE_REGISTER_ULONG(volatile ULONG *Register, ULONG Value)
{
    shim_count_register(Register);
    *Register = Value;
}

VOID KeAcquireSpinLock(PKSPIN_LOCK SpinLock, PKIRQL OldIrql)
{
    pbc_kernel_acquire_spin_lock((uint64_t *)SpinLock, (uint8_t *)OldIrql);
}

VOID KeReleaseSpinLock(PKSPIN_LOCK SpinLock, KIRQL NewIrql)
{
    pbc_kernel_release_spin_lock((uint64_t *)SpinLock, (uint8_t)NewIrql);
}

VOID pbc_wdk_assert_failed(const char *expr, const char *file, int line)
{
    if (shim.asserts++ == 0)
        snprintf(shim.assert_msg, sizeof(shim.assert_msg), "NT_ASSERT(%s) failed at %s:%d", expr, file, line);
}

NTSTATUS pbc_shim_call_build(const pbc_target *t, HANDLE adapter, DXGKARG_BUILDPAGINGBUFFER *a)
{
    pbc_shim_enter();
    int watched = shim_attrib_host(); /* an attribution replay's paging-buffer page */
    if (watched)
        shim_attrib_host_protect(1);
    NTSTATUS st = t->build_paging_buffer(adapter, a);
    if (watched)
        shim_attrib_host_protect(0);
    pbc_shim_leave();
    return st;
}

NTSTATUS pbc_shim_call_patch(const pbc_target *t, HANDLE adapter, DXGKARG_PATCH *a)
{
    pbc_shim_enter();
    NTSTATUS st = t->patch(adapter, a);
    pbc_shim_leave();
    return st;
}

NTSTATUS pbc_shim_call_submit(const pbc_target *t, HANDLE adapter, DXGKARG_SUBMITCOMMAND *a)
{
    pbc_shim_enter();
    NTSTATUS st = t->submit_command(adapter, a);
    pbc_shim_leave();
    return st;
}
