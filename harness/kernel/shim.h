/*
 * wdk_shim.h — serves the kernel calls declared in wdk/wdm.h from modeled
 * memory, for builders that do CPU work at build or submit time.
 *
 * The harness binds the shim to one GPU for the duration of a run; every
 * call into the target is bracketed by pbc_shim_enter and pbc_shim_leave
 * (pbc_shim_call_* do it for the DDIs), which keep persistent CPU views
 * and modeled memory in step. State lives in one thread-local
 * binding, reset by pbc_shim_bind, so fuzz iterations never share it; the
 * driver's system threads started from a thread share its binding
 * (pbc_kernel_cpu_hooks, set by pbc_shim_bind).
 */
#ifndef PBCHECK_WDK_SHIM_H
#define PBCHECK_WDK_SHIM_H

#include "gpu/gpu.h"

void pbc_shim_bind(pbc_gpu *gpu);
/* Segments (bit n: SegmentId n) the driver declared not CPU-visible:
 * MmMapIoSpace refuses them, as the BAR does not reach them. */
void pbc_shim_set_invisible(uint32_t segment_mask);
/* The builder's code starts (enter: CPU views are refreshed from modeled
 * memory) or stops (leave: what the CPU changed through them is written
 * back with its provenance). Every call into a target is bracketed by the
 * two; they nest (only the outermost pair syncs); views themselves
 * persist until unmapped or the run ends. */
void pbc_shim_enter(void);
void pbc_shim_leave(void);
void pbc_shim_unbind(void);
/* A CPU view of modeled memory the harness keeps itself (VidMm's mapping
 * of a page table for an immediate update): MmGetPhysicalAddress knows
 * its bytes [host, host+bytes) at phys on, as it knows a mapped view's,
 * until the next call (host NULL: none). */
void pbc_shim_own_view(const void *host, uint64_t phys, size_t bytes);
/* A run of pages the builder's CPU read (or wrote) through a view while
 * its code ran: physically consecutive pages of one view. */
typedef struct pbc_shim_access {
    const MDL *mdl;  /* the view's MDL, NULL for an MmMapIoSpace view */
    uint64_t phys;   /* physical address of the first page */
    uint64_t pages;
    int wrote;       /* every page of the run was written (else only read) */
} pbc_shim_access;

/* The accesses since the last call, in runs; *out stays valid until the
 * builder's code runs again. */
uint32_t pbc_shim_take_accesses(const pbc_shim_access **out);
/* Makes page-aligned [start, start+len) of the harness's memory read-only
 * until pbc_shim_unguard: a store there by the builder is noted (see
 * pbc_shim_guard_written) and then let through. For large structures the
 * builder may read but not write, which hashing after every call would
 * cost whole. */
void pbc_shim_guard(void *start, size_t len);
/* The same for memory made only when read: [start, start+len) is
 * inaccessible until a page's first access, when fill(ctx, offset of the
 * page from start, the page) writes its bytes (async-signal-safe: it runs
 * in the fault handler); the page is then guarded as above. An array the
 * builder is handed whole but reads a little of costs what it reads. */
typedef void (*pbc_shim_fill_fn)(void *ctx, size_t offset, uint8_t *page);
void pbc_shim_guard_lazy(void *start, size_t len, pbc_shim_fill_fn fill, void *ctx);
int pbc_shim_guard_written(const void *start);
void pbc_shim_unguard(void *start);
/* NT_ASSERT failures since the last call; *first is the first message. */
uint32_t pbc_shim_take_asserts(const char **first);
/* NT_ASSERT failures of a driver run in a process of its own (harness/ddi/),
 * noted for the next pbc_shim_take_asserts. */
void pbc_shim_note_asserts(uint32_t count, const char *first);
/* The register file of the bound GPU (NULL when none is bound), and
 * register writes a driver process made to its copy of it, counted here. */
uint32_t *pbc_shim_registers(void);
void pbc_shim_note_register_writes(uint64_t n);
/* In a driver process (no GPU bound): MmMapIoSpace of the register file's
 * physical range [phys, phys + sizeof registers) serves `regs` (shared
 * with the judge, which keeps it in step), and register writes are counted
 * for pbc_shim_take_register_writes. */
void pbc_shim_serve_registers(uint32_t *regs, uint64_t phys);
uint64_t pbc_shim_take_register_writes(void);

/* ---- the builder in a driver process (harness/ddi/) ----
 * The judge's side: views are made in `zone` (zone_bytes of the shared
 * memory file zone_fd, mapped at the same address in the driver process),
 * and the protection of a page in the zone or in [mirror_lo, mirror_hi)
 * (the watched pools) is logged for the driver process rather than set
 * here. The driver process's faults there come back as pbc_shim_fault. */
typedef struct pbc_shim_prot {
    uint64_t addr, len;
    uint32_t prot;
} pbc_shim_prot;
void pbc_shim_split(uint8_t *zone, size_t zone_bytes, int zone_fd, uint8_t *mirror_lo, uint8_t *mirror_hi);
/* The protections logged since the last take, in order: the driver
 * process applies them before its code runs again. */
uint32_t pbc_shim_take_mirror(const pbc_shim_prot **out);
/* A fault the driver process took at addr (wrote: a store): 1 when the
 * shim served it (the access may run again, once the log is applied), 0
 * when it is none of the shim's (the driver's own crash). */
int pbc_shim_fault(void *addr, int wrote);
/* The driver's side: the kernel calls that make or end views, and
 * MmGetPhysicalAddress, are the judge's. */
typedef struct pbc_shim_remote {
    PVOID (*map_io)(uint64_t phys, size_t bytes);
    PVOID (*map_mdl)(PMDL mdl);
    void (*unmap)(PVOID base);
    uint64_t (*phys)(const void *p);
} pbc_shim_remote;
void pbc_shim_set_remote(const pbc_shim_remote *r);

/* Watched memory: the harness's own memory that builder code may read
 * anywhere but must not write unseen (the paging-buffer pool). A page is
 * open (writable: the harness reads it to know what changed), sealed
 * (read-only: it holds what it held when sealed), filled (sealed, every
 * byte the watch's fill byte) or dirty (written since it was sealed:
 * writable, its bytes from before kept). A sealed page costs nothing
 * until written, so what the harness reads is what the builder wrote.
 * The caller owns a watch and keeps it as long as the memory, across
 * runs: pages sealed once stay sealed until something changes them. */
typedef enum pbc_shim_page {
    PBC_SHIM_OPEN = 0,
    PBC_SHIM_SEALED,
    PBC_SHIM_FILLED,
    PBC_SHIM_DIRTY
} pbc_shim_page;

typedef struct pbc_shim_watch {
    uint8_t *base;      /* page-aligned; NULL: not initialised */
    size_t pages;
    uint8_t fill;
    uint8_t *state;     /* pbc_shim_page, per page */
    uint8_t *clean;     /* per page: a dirty page's bytes before its first write */
    uint32_t *dirty;    /* the dirty pages, in the order first written */
    uint32_t dirty_count;
} pbc_shim_watch;

/* Watches `pages` pages from base, all open. */
void pbc_shim_watch_init(pbc_shim_watch *w, uint8_t *base, size_t pages, uint8_t fill);
/* Every page writable again, w emptied: before the memory goes. */
void pbc_shim_watch_fini(pbc_shim_watch *w);
/* Writes to w's sealed pages make them dirty until pbc_shim_unbind;
 * without a watch in use, such a write crashes (a harness bug). */
void pbc_shim_watch_use(pbc_shim_watch *w);
/* Pages [first, first + n) become open; with fill, they hold the fill
 * byte (written only where they did not already). */
void pbc_shim_watch_open(pbc_shim_watch *w, size_t first, size_t n, int fill);
/* Pages [first, first + n) become sealed as they are (filled ones stay filled). */
void pbc_shim_watch_seal(pbc_shim_watch *w, size_t first, size_t n);
/* Pages [first, first + n) become filled (written only where not already). */
void pbc_shim_watch_fill(pbc_shim_watch *w, size_t first, size_t n);
/* Every dirty page becomes sealed as it is now. */
void pbc_shim_watch_settle(pbc_shim_watch *w);
/* What dirty page i held before its first write (writable: the harness
 * may take later bytes as the ones to compare with). */
static inline uint8_t *pbc_shim_watch_clean(const pbc_shim_watch *w, size_t i)
{
    return w->clean + i * PBC_PAGE_SIZE;
}

/* The store watch of an attribution replay (docs/triage.md, "Who wrote
 * it"): every CPU store through a view into physical page `ppn` of `gpu`
 * (or into the harness page `host`, a paging buffer's)
 * (the target world's GPU: the reference's views of the same page are not
 * watched) faults, is single-stepped (EFLAGS.TF) and the page turns
 * read-only again, so each store is seen with the instruction that made
 * it and its callers. Only an attribution replay arms it: without it no
 * store faults more than the shim's own first write of a page in a call.
 * x86-64 only; elsewhere arming does nothing. */
#define PBC_SHIM_STORE_FRAMES 24u
typedef struct pbc_shim_store {
    uintptr_t frames[PBC_SHIM_STORE_FRAMES]; /* [0]: the storing instruction; then return addresses */
    uint32_t nframes;
    uint32_t call, op;     /* the GPU's CPU provenance at the store: BuildPagingBuffer call (0 for CPU
                              work queued at SubmitCommand) and scenario operation */
    uint32_t mpo, operation; /* the call's MultipassOffset and DXGK operation (the caller's cur_*) */
    /* Not 0: the store was a driver process's (harness/ddi/). Its frames
     * are then offsets from the load address of library lib[k] (the
     * judge's index of the libraries the driver process loaded), only
     * the frames in those libraries, each already the byte to name (a
     * return address less one), never an address of that process. */
    uint32_t remote;
    uint16_t lib[PBC_SHIM_STORE_FRAMES];
} pbc_shim_store;

typedef struct pbc_shim_attrib {
    const pbc_gpu *gpu;
    uint64_t ppn;
    uint8_t *host;           /* or, not NULL: the harness's own page there (a paging buffer's, in
                                the pool), watched only while the builder's code runs */
    uint32_t off, len;       /* the watched bytes: [off, off + len) of the page, within it */
    uint32_t cur_mpo, cur_operation; /* set by the caller before each call: copied into each store */
    uint32_t only_call;      /* not 0: stores in other BuildPagingBuffer calls do not count */
    uint32_t stores, changes; /* stores into the page; those that wrote the watched bytes (whatever
                                 they held before) */
    pbc_shim_store last_store, last_change; /* the last of each */
    /* the store under way (between its fault and its single-step trap) */
    pbc_shim_store pending;
    uint8_t *pending_page;
    uint8_t before[64];
} pbc_shim_attrib;

/* Arms the watch (a: zeroed counts, gpu, ppn, off, len set; len <= 64),
 * or with NULL disarms it. */
void pbc_shim_attrib_arm(pbc_shim_attrib *a);

/* A driver process's fault at addr (pbc_shim_fault), served, and also
 * told whether the store is one the armed watch wants single-stepped
 * there: 2 when it is ([*off, *off + *len) of its page are the watched
 * bytes; the store's call and operation are taken now, and its record,
 * pbc_shim_attrib_record, is awaited), else as pbc_shim_fault. */
int pbc_shim_fault_watched(void *addr, int wrote, uint32_t *off, uint32_t *len);

/* The record of the store that pbc_shim_fault_watched last said was
 * watched: its frames (st: frames, nframes, remote, lib; the rest is the
 * shim's) and whether it reached the watched bytes. A record with no
 * store awaiting one is ignored (-1), as the driver's word on nothing. */
int pbc_shim_attrib_record(const pbc_shim_store *st, int reached);

NTSTATUS pbc_shim_call_build(const pbc_target *t, HANDLE adapter, DXGKARG_BUILDPAGINGBUFFER *a);
NTSTATUS pbc_shim_call_patch(const pbc_target *t, HANDLE adapter, DXGKARG_PATCH *a);
NTSTATUS pbc_shim_call_submit(const pbc_target *t, HANDLE adapter, DXGKARG_SUBMITCOMMAND *a);

#endif
