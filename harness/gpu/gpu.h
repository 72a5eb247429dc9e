/*
 * gpu.h — the model GPU and the memory it owns.
 *
 * Address map (GPU physical):
 *   memory segments   [base, base+size) as the scenario lays them out
 *   aperture segments [base, base+size), translated page by page by a GART
 *   system pages      page frames in [2 GiB, 10 GiB): scattered one by one,
 *                     or handed out in runs of frames in a row
 *   paging-buffer pool [12 GiB, 12 GiB + pool size), contiguous
 *   register file     at 14 GiB
 * Segments may lie anywhere but over each other: the system window and
 * the pool, [2 GiB, 16 GiB) together, move up by 16 GiB at a time until
 * no segment overlaps them (pbc_gpu_layout_shift), so a layout that keeps
 * clear of [2 GiB, 16 GiB) sees them where they always were.
 *
 * Work reaches the GPU through two engines that share one queue of
 * entries in push order: the paging engine (paging DMA ranges, fences, the
 * driver's queued CPU work) and the render engine (synthetic render work).
 * Each engine runs its own entries in order; between engines only the
 * waits VidMm sets up order anything: a paging entry waits for the render
 * entries before `wait`, a render entry for paging fence `wait`. Nothing
 * runs until its owner asks, and then only what that needs: so an
 * allocation stays busy while work on it is pending, and render work on
 * another allocation may still be pending when paging work is done. When
 * the queue drains, render work that waited for a fence runs as soon as
 * the fence has completed, before the paging work after it: it sees
 * memory as it is the moment the fence completes.
 */
#ifndef PBCHECK_GPU_H
#define PBCHECK_GPU_H

#include <stdint.h>

#include <pbcheck/target.h>

#include "gpu/frames.h"
#include "gpu/mem.h"

#define PBC_MAX_SEGMENTS 8u
#define PBC_SYS_BASE_PFN 0x80000ull
#define PBC_SYS_WINDOW_PAGES (1u << 21)
#define PBC_SYS_WINDOW_BASE (PBC_SYS_BASE_PFN << PBC_PAGE_SHIFT)
#define PBC_SYS_WINDOW_END (PBC_SYS_WINDOW_BASE + ((uint64_t)PBC_SYS_WINDOW_PAGES << PBC_PAGE_SHIFT))
#define PBC_DMA_POOL_BASE 0x300000000ull
#define PBC_DMA_POOL_SIZE (8u << 20)
#define PBC_MMIO_BASE 0x380000000ull /* 14 GiB: the register file, for MmMapIoSpace */
#define PBC_RESERVED_END 0x400000000ull /* 16 GiB: end of system window and pool */
/* The step by which system window and pool move past segments. */
#define PBC_RESERVED_STEP 0x400000000ull
#define PBC_MAX_APERTURE_SIZE (4ull << 30) /* 1,048,576 GART entries, allocated lazily */
#define PBC_MMIO_REGS 256u
#define PBC_MAX_FAULTS_KEPT 64u

typedef struct pbc_gart_entry {
    uint64_t addr;  /* target page address when PBC_GART_VALID */
    uint32_t flags; /* PBC_GART_* */
    uint32_t touched;
} pbc_gart_entry;

typedef struct pbc_gpu_segment {
    pbc_segment_info info;
    pbc_gart_entry *gart; /* aperture segments only */
    uint32_t gart_pages;
    uint32_t gart_cap;    /* entries allocated: kept across layouts */
    uint32_t *touched;    /* indices of GART entries written since reset */
    uint32_t touched_count, touched_cap;
    /* Pages of the gart array (PBC_GART_PER_PAGE entries each) written
     * since it was calloc'd, one bit each: they stay resident once their
     * entries are cleared, so runs that map all over the aperture would
     * make the whole array resident in time. Past PBC_GART_DIRTY_MAX of
     * them reset hands the array back and takes a fresh one. */
    uint64_t *gart_dirty;
    uint32_t gart_dirty_count;
} pbc_gpu_segment;

#define PBC_GART_PER_PAGE (4096u / sizeof(pbc_gart_entry))
#define PBC_GART_DIRTY_MAX 256u /* 1 MiB of GART entries a segment */

typedef enum pbc_fault_kind {
    PBC_FAULT_GART_UNMAPPED = 1, /* access through an invalid GART entry */
    PBC_FAULT_BAD_ADDRESS,       /* outside every segment and system page */
    PBC_FAULT_DECODE,            /* the ISA decoder rejected a packet */
    PBC_FAULT_FETCH,             /* submitted range outside its DMA buffer memory */
    PBC_FAULT_UOP,               /* a malformed micro-op (size, segment, index) */
    PBC_FAULT_VA_INVALID,        /* GPU virtual access through an entry that is not valid (or no
                                    page tables, or a table outside memory) */
    PBC_FAULT_VA_READ_ONLY       /* GPU virtual write to a read-only page */
} pbc_fault_kind;

/* ---- GPU virtual memory (mmu.c) ----
 * The model GPU's MMU walks page tables that live in modeled memory, in
 * the DXGK_PTE format itself (16 bytes: flags quadword, then page
 * number) or in the GPU's own format, which its ISA decodes (pbc_isa's
 * pte_size and pte_decode): PBC_VA_LEVELS (3) levels of 512 entries, or
 * as many as the ISA's pt_levels says (4: 256 TiB), the highest level the
 * root, level 0 the leaf; 3 levels give 512 GiB of address space. A level-1 entry
 * with PageTablePageSize 1 points at a leaf table of 32 entries of 64 KiB
 * pages; one with LargePage maps 2 MiB itself. An entry's address is an
 * offset into its Segment (0: system memory, where the offset is the
 * physical address). Translations are cached in a TLB that keeps them,
 * however the tables change, until a TLB_FLUSH covers them. */
#define PBC_VA_LEVELS 3u
#define PBC_VA_INDEX_BITS 9u
#define PBC_VA_BITS (PBC_PAGE_SHIFT + PBC_VA_LEVELS * PBC_VA_INDEX_BITS) /* 39 */
#define PBC_PTE_SIZE 16u
#define PBC_PT_ENTRIES (1u << PBC_VA_INDEX_BITS)
#define PBC_PT_BYTES (PBC_PT_ENTRIES * PBC_PTE_SIZE)
#define PBC_PT64_ENTRIES 32u /* a leaf table of 64 KiB pages */
/* DXGK_PTE flag bits (WDDM-FACTS). */
#define PBC_PTE_VALID 0x1ull
#define PBC_PTE_ZERO 0x2ull
#define PBC_PTE_CACHE_COHERENT 0x4ull
#define PBC_PTE_READ_ONLY 0x8ull
#define PBC_PTE_NO_EXECUTE 0x10ull
#define PBC_PTE_SEGMENT_SHIFT 5u
#define PBC_PTE_SEGMENT_MASK 0x1Full
#define PBC_PTE_LARGE_PAGE 0x400ull
#define PBC_PTE_PT_PAGE_SIZE_SHIFT 17u /* PageTablePageSize: 0 4 KiB, 1 64 KiB */
#define PBC_PTE_PT_PAGE_SIZE_MASK 0x3ull

typedef struct pbc_va_xlat {
    uint64_t page;  /* physical address of the 4 KiB page (0 for a zero page) */
    uint32_t zero;  /* reads give zeros, writes are dropped */
    uint32_t read_only;
    uint64_t flags; /* the leaf entry's flags quadword */
} pbc_va_xlat;

typedef struct pbc_tlb_entry {
    uint64_t root; /* 0: a free slot */
    uint64_t vpn;
    pbc_va_xlat x;
} pbc_tlb_entry;

typedef struct pbc_fault {
    uint32_t kind;
    uint32_t submission;
    uint32_t packet_offset;
    uint64_t addr;
    const char *why;
    uint32_t gart_segment; /* an access through a GART entry (GART_UNMAPPED, or BAD_ADDRESS for
                              an entry pointing at no page): its aperture's id, else 0 */
    uint64_t gart_index;   /* and the entry's index */
} pbc_fault;

typedef enum pbc_qentry_kind {
    PBC_QE_DMA = 1, /* a range of a paging buffer, decoded into micro-ops */
    PBC_QE_FENCE,
    PBC_QE_WORK,    /* one micro-op of synthetic render work */
    PBC_QE_CPU      /* CPU work a driver queued (its worker thread's turn) */
} pbc_qentry_kind;

typedef enum pbc_engine {
    PBC_ENGINE_PAGING = 0, /* DMA, FENCE and CPU entries */
    PBC_ENGINE_RENDER = 1  /* WORK entries */
} pbc_engine;

typedef struct pbc_qentry {
    uint32_t kind;
    uint32_t wait;   /* PAGING: runs once the render entries before sequence number `wait`
                        have; RENDER: once paging fence `wait` has completed (0: at once) */
    uint32_t done;
    UINT segment_id; /* DMA */
    UINT start, end; /* DMA */
    uint64_t phys;   /* DMA */
    uint32_t fence;  /* FENCE */
    uint32_t tag;    /* the queue owner's cookie */
    pbc_uop uop;     /* WORK */
    uint64_t root;   /* WORK: the root table of the address space its GPU virtual
                        addresses are in (0: va_root's) */
    void (*cpu_fn)(void *arg); /* CPU */
    void *cpu_arg;
    uint64_t work_end; /* gpu->work_uops (paging work) once the entry has executed */
} pbc_qentry;

/* A small access (at most 8 bytes) by a paging buffer starting at a
 * watched address: what ReadPhysical and WritePhysical are judged by. */
typedef struct pbc_access {
    uint32_t write;         /* 0 read, 1 write */
    uint32_t size;          /* bytes */
    uint64_t addr;
    uint32_t submission;    /* GPU queue entry, 1-based */
    uint32_t packet_offset;
} pbc_access;

#define PBC_MAX_ACCESSES_KEPT 256u
#define PBC_MAX_WATCHES 64u

/* Frames [first, first + count) of the system window, handed out as one
 * run (offsets from PBC_SYS_BASE_PFN). */
typedef struct pbc_sys_run {
    uint32_t first, count;
} pbc_sys_run;

typedef struct pbc_gpu pbc_gpu;

/* Called for every decoded packet, before it executes (for traces). */
typedef void (*pbc_packet_observer)(void *ctx, const pbc_qentry *entry, uint32_t offset,
                                    const pbc_uop *uop);
/* Called for every DMA range the GPU fetched, before it is decoded. */
typedef void (*pbc_fetch_observer)(void *ctx, const pbc_qentry *entry, const uint8_t *bytes, uint64_t len);
/* Reads aperture entry `index` of segment `segment` from wherever the
 * driver keeps its GART; returns 0 and fills *e, or -1 to use the model's
 * own entry. */
typedef int (*pbc_gart_lookup)(void *ctx, UINT segment, uint64_t index, pbc_gart_entry *e);
/* A GPU write of `len` bytes at offset `offset` of the paging-buffer pool:
 * NULL when it breaks nothing (it is made), else why it does (a static
 * string; the write is a fault). Without it every such write is one.
 * *ahead set with NULL: the bytes are packets of the running submission
 * still to be fetched; the write is made and judged by what it changes
 * there (a packet that then decodes otherwise is a fault). */
typedef const char *(*pbc_pool_write_judge)(void *ctx, uint64_t offset, uint64_t len, int *ahead);

/* Bytes of the running submission a GPU write changed before they were
 * fetched: what they held, to decode each packet over them both ways. */
#define PBC_POOL_AHEAD_MAX 8u
#define PBC_POOL_AHEAD_BYTES 256u
typedef struct pbc_pool_ahead {
    uint32_t offset, len; /* in the pool */
    uint8_t was[PBC_POOL_AHEAD_BYTES];
} pbc_pool_ahead;
/* Called for every fence the GPU completes. */
typedef void (*pbc_fence_observer)(void *ctx, uint32_t fence, uint32_t seq);
/* The watched value (pbc_gpu.value_addr) changed: it now holds `value`.
 * seq is the queue entry running (UINT32_MAX: a CPU write outside the
 * GPU, seen by pbc_gpu_value_poll's caller) and next_offset the buffer
 * offset of the entry's next packet (UINT32_MAX: the whole entry ran). */
typedef void (*pbc_value_observer)(void *ctx, uint64_t value, uint32_t seq, uint32_t next_offset);

/* Who writes one byte, followed by an attribution replay alone
 * (exec/attribute.h): every micro-op and CPU write-back that covers it is
 * noted, the last one kept. Or, with gart_segment set, who writes one
 * GART entry: every GART micro-op that sets it. A run without it pays one
 * test of a NULL pointer per micro-op and per CPU write-back. */
typedef struct pbc_gpu_byte_watch {
    uint64_t addr;                         /* the byte's physical address */
    uint32_t gart_segment;                 /* not 0: the entry gart_index of this aperture is
                                              watched instead of the byte */
    uint64_t gart_index;
    uint32_t stop_submission, stop_offset; /* not 0: writes stop counting once the packet at
                                              stop_offset of GPU queue entry stop_submission
                                              runs (the copy that read the byte) */
    int stopped;
    uint32_t writes;
    pbc_prov prov; /* the last write's provenance */
    pbc_uop uop;   /* its micro-op, the physical piece that wrote (NOP for the CPU) */
} pbc_gpu_byte_watch;

struct pbc_gpu {
    pbc_gpu_segment seg[PBC_MAX_SEGMENTS];
    uint32_t segment_count;
    const pbc_isa *isa;
    pbc_mem mem;
    uint32_t sys_pages_used; /* pages handed out one by one, in the scattered order */
    uint64_t *sys_taken;     /* frames handed out in runs, one bit each (NULL before the first run) */
    pbc_sys_run *sys_runs;   /* those runs since reset, to clear their bits */
    uint32_t sys_run_count, sys_run_cap;
    uint64_t dummy_page;
    uint64_t sys_base;  /* first frame of the system window in this layout */
    uint64_t pool_base; /* GPU physical address of the paging-buffer pool in this layout */
    uint64_t mmio_base; /* physical address of the register file in this layout */
    uint8_t *dma_pool;
    int pool_lent; /* dma_pool is the caller's (pbc_gpu_use_pool), not freed here */
    uint32_t dma_used;
    uint64_t pool_alias; /* where the pool also appears in a memory segment (S40), 0 = nowhere */
    uint32_t mmio[PBC_MMIO_REGS];
    uint32_t mmio_writes;

    pbc_qentry *queue;
    uint32_t queued, queue_cap;
    uint32_t executed;     /* every entry before this one has run */
    uint32_t head[2];      /* per engine: its first entry that has not run (or queued) */
    uint32_t running;      /* the entry executing */
    uint32_t fence_done;   /* the highest fence completed */
    uint32_t paging_wait;  /* the `wait` of paging entries pushed now; UINT32_MAX: all render
                              work pushed before them */

    pbc_fault faults[PBC_MAX_FAULTS_KEPT];
    uint32_t fault_count; /* all faults, even those not kept */
    uint32_t *fences;
    uint32_t fence_count, fence_cap;
    uint64_t dummy_accesses;
    uint64_t va_root;        /* the current address space: its root table's physical address
                                (0: none, a virtual access faults) */
    pbc_tlb_entry *tlb;      /* the entries, tlb_count of them (mmu.c) */
    uint32_t tlb_count, tlb_cap;
    uint32_t *tlb_index;     /* open addressing on (root, vpn): position + 1 in tlb, 0 free */
    uint32_t tlb_index_cap;
    uint64_t tlb_flushes;
    uint64_t exec_hash;  /* XXH3 chain over every micro-op decoded from paging buffers */
    uint64_t work_uops;  /* micro-ops executed by paging work that were neither NOP nor FENCE */
    uint64_t watches[PBC_MAX_WATCHES]; /* addresses whose small accesses are logged */
    uint32_t watch_count;
    pbc_access accesses[PBC_MAX_ACCESSES_KEPT];
    uint32_t access_count;   /* kept, at most PBC_MAX_ACCESSES_KEPT */
    uint32_t accesses_lost;  /* logged accesses that did not fit */

    pbc_gpu_byte_watch *byte_watch; /* NULL except in an attribution replay */
    pbc_prov cur; /* provenance stamped on writes */
    pbc_prov cpu; /* provenance of writes through CPU views, set by the VidMm model */
    uint8_t *fetch;
    uint32_t fetch_cap;
    pbc_packet_observer on_packet;
    void *packet_ctx;
    pbc_fence_observer on_fence;
    pbc_fetch_observer on_fetch;
    pbc_gart_lookup gart_lookup; /* a driver-kept GART, when set */
    pbc_value_observer on_value;
    pbc_pool_write_judge pool_write; /* GPU writes into the paging-buffer pool, when set */
    pbc_pool_ahead ahead[PBC_POOL_AHEAD_MAX]; /* writes into packets still to be fetched */
    uint32_t ahead_count;
    uint32_t packet_next; /* while a DMA entry runs: the entry offset of the packet after the one executing */
    uint64_t value_addr; /* a 64-bit value read after every packet and every CPU work entry (0: none) */
    uint64_t value_last; /* what it held at the last look */
    void *observer_ctx; /* for on_fence, on_fetch, gart_lookup and pool_write */
};

/* Why the segment layout does not fit the address map (ids 1..n in order,
 * 4 KiB-aligned, no overlap with each other), or NULL when it fits. */
const char *pbc_gpu_layout_check(const pbc_segment_info *segments, uint32_t count);
/* How far up the system window and the pool move for this layout: the
 * first multiple of PBC_RESERVED_STEP that keeps [2 GiB, 16 GiB) moved by
 * it clear of every segment (0 for a layout that keeps clear of it
 * already); UINT64_MAX when none does. */
uint64_t pbc_gpu_layout_shift(const pbc_segment_info *segments, uint32_t count);
/* Returns NULL and sets *why when the layout is unusable. */
pbc_gpu *pbc_gpu_create(const pbc_segment_info *segments, uint32_t count, const pbc_isa *isa,
                        const char **why);
void pbc_gpu_destroy(pbc_gpu *gpu);
/* The paging-buffer pool moves to `pool` (PBC_DMA_POOL_SIZE bytes,
 * page-aligned, owned by the caller and kept until the GPU is destroyed):
 * memory a driver process shares (harness/ddi/). Its bytes are copied. */
void pbc_gpu_use_pool(pbc_gpu *gpu, uint8_t *pool);
/* Whether the GPU has exactly this segment layout. */
int pbc_gpu_same_layout(const pbc_gpu *gpu, const pbc_segment_info *segments, uint32_t count);
/* Another layout for the same GPU, reset to power-on state: memory page
 * buffers, the paging-buffer pool and GART tables big enough are kept.
 * Returns NULL, or why the layout does not fit (the GPU is unchanged). */
const char *pbc_gpu_relayout(pbc_gpu *gpu, const pbc_segment_info *segments, uint32_t count);
/* Back to power-on state; costs O(what the last run touched). */
void pbc_gpu_reset(pbc_gpu *gpu);

const pbc_gpu_segment *pbc_gpu_segment_by_id(const pbc_gpu *gpu, UINT id);
/* Hands out the next system page in the scattered order (frames handed
 * out in runs are skipped); 0 when the pool is exhausted. */
uint64_t pbc_gpu_alloc_system_page(pbc_gpu *gpu);
/* Whether the n frames from page frame pfn on are system frames nobody
 * holds yet. */
int pbc_gpu_system_free(const pbc_gpu *gpu, uint64_t pfn, uint64_t n);
/* Hands out n system frames into pfns (frame numbers): n in a row, at the
 * first place found searching from frame pfn on (a frame outside the
 * system window counts as the window's start; the search wraps around the
 * window's end, a run never does), else, where the frames near pfn are
 * too crowded for that, the free frames from pfn on in as few runs as
 * they allow. Returns how many, fewer than n only when the pool is
 * exhausted. */
uint64_t pbc_gpu_alloc_system_run(pbc_gpu *gpu, uint64_t pfn, uint64_t n, uint64_t *pfns);
/* The same, the frames appended to list as runs. */
uint64_t pbc_gpu_alloc_system_run_frames(pbc_gpu *gpu, uint64_t pfn, uint64_t n, pbc_frames *list);
/* Hands out the next n system pages in the scattered order, as
 * pbc_gpu_alloc_system_page would one by one, appended to list as pooled
 * runs: one run however many pages, unless frames handed out in runs lie
 * between them. Returns how many, fewer than n only when the pool is
 * exhausted. */
uint64_t pbc_gpu_alloc_system_pages(pbc_gpu *gpu, uint64_t n, pbc_frames *list);
/* Makes the paging-buffer pool appear, for the GPU, at `base` too: the top
 * of a memory segment that holds paging buffers (S40); 0 removes it. Reset
 * removes it. */
void pbc_gpu_alias_pool(pbc_gpu *gpu, uint64_t base);
/* The offset into the paging-buffer pool of addr, seen directly or through
 * its alias in a segment; -1 when addr is not in the pool. */
int64_t pbc_gpu_pool_offset(const pbc_gpu *gpu, uint64_t addr);
/* Logs from now on every paging-buffer access of at most 8 bytes starting
 * at addr (reads and writes, a copy's source and destination). Returns -1
 * when no more addresses can be watched. */
int pbc_gpu_watch(pbc_gpu *gpu, uint64_t addr);
/* Carves a 4 KiB-aligned range out of the paging-buffer pool, with a guard
 * page before and after; -1 when the pool is full. */
int pbc_gpu_dma_alloc(pbc_gpu *gpu, uint32_t size, uint8_t **host, uint64_t *phys);
void pbc_gpu_dma_release_all(pbc_gpu *gpu);

/* Memory access by physical address with the current provenance. Faults
 * are recorded; the return value is 0 or -1 (faulted, nothing written). */
int pbc_gpu_write(pbc_gpu *gpu, uint64_t addr, const void *src, uint64_t len);
/* Writes what d describes (d->pos is the stream offset of addr): whole
 * pages keep the description, partial ones get its bytes. */
int pbc_gpu_write_desc(pbc_gpu *gpu, uint64_t addr, uint64_t len, const pbc_desc *d);
/* As pbc_gpu_write_desc, for content laid before anyone looks: the whole
 * pages of memory-segment addresses go to the memory's base, one extent
 * (gpu/mem.h), whatever their number. */
int pbc_gpu_lay(pbc_gpu *gpu, uint64_t addr, uint64_t len, const pbc_desc *d);
/* Lays d over system frames pfns[0 .. n-1] (page i: d moved i pages on),
 * an extent per run of frames in a row or in the pool's order. */
void pbc_gpu_lay_frames(pbc_gpu *gpu, const uint64_t *pfns, uint64_t n, const pbc_desc *d);
/* Lays d over frames [from, from + n) of list (page i: d moved i pages
 * on), an extent per run of the list: O(runs). */
void pbc_gpu_lay_frame_list(pbc_gpu *gpu, const pbc_frames *list, uint64_t from, uint64_t n, const pbc_desc *d);
/* 1 when [addr, addr+len) is memory whose page number is its physical
 * address: within one memory segment, or allocated system pages only. */
int pbc_gpu_identity_range(const pbc_gpu *gpu, uint64_t addr, uint64_t len);
int pbc_gpu_read(pbc_gpu *gpu, uint64_t addr, void *dst, uint64_t len);
int pbc_gpu_exec_uop(pbc_gpu *gpu, const pbc_uop *uop);
/* Sets aperture entry `index` of segment `segment` as a GART micro-op
 * would (for GARTs the driver keeps elsewhere, read through its view).
 * Returns -1 when there is no such entry. */
int pbc_gpu_gart_set(pbc_gpu *gpu, UINT segment, uint64_t index, uint64_t addr, uint32_t flags);

/* The queue. Each push returns the entry's sequence number (0-based). */
uint32_t pbc_gpu_push_dma(pbc_gpu *gpu, UINT segment_id, uint64_t phys, UINT start, UINT end,
                          uint32_t tag);
uint32_t pbc_gpu_push_fence(pbc_gpu *gpu, uint32_t fence, uint32_t tag);
/* Render work that waits for paging fence `wait_fence` (0: none). */
uint32_t pbc_gpu_push_work(pbc_gpu *gpu, const pbc_uop *uop, uint32_t tag, uint32_t wait_fence);
/* The same in the address space of root table `root` (0: va_root's): a
 * process's own work, translated (and cached in the TLB) through its
 * tables. */
uint32_t pbc_gpu_push_work_in(pbc_gpu *gpu, const pbc_uop *uop, uint32_t tag, uint32_t wait_fence, uint64_t root);
/* One micro-op at once, in the address space of `root` (0: va_root's). */
int pbc_gpu_exec_uop_in(pbc_gpu *gpu, const pbc_uop *uop, uint64_t root);
/* CPU work: fn(arg) runs when the queue reaches it, its writes stamped as
 * the CPU's. */
uint32_t pbc_gpu_push_cpu(pbc_gpu *gpu, void (*fn)(void *arg), void *arg, uint32_t tag);
/* Whether engine `engine` has run all its entries before sequence number
 * `until`. */
int pbc_gpu_engine_done(pbc_gpu *gpu, pbc_engine engine, uint32_t until);
/* Runs engine `engine` until all its entries before `until` have run, and
 * whatever they wait for. A wait that can never be met (a render entry's
 * fence that no paging entry completes, as when a builder never writes
 * it) is given up, as a GPU scheduler's timeout would: PB-FENCE says why. */
void pbc_gpu_run_engine(pbc_gpu *gpu, pbc_engine engine, uint32_t until);
/* Looks at the watched value (value_addr) and tells on_value when it
 * changed: seq and next_offset as pbc_value_observer says. */
void pbc_gpu_value_poll(pbc_gpu *gpu, uint32_t seq, uint32_t next_offset);
/* Runs every entry before sequence number `upto`, on both engines. */
void pbc_gpu_run(pbc_gpu *gpu, uint32_t upto);
/* Runs everything: the paging engine in order, render work that waited
 * for a fence as soon as it completes, the rest of the render work last. */
void pbc_gpu_drain(pbc_gpu *gpu);

void pbc_gpu_fault(pbc_gpu *gpu, pbc_fault_kind kind, uint64_t addr, const char *why);

/* Bytes of one page-table entry as this GPU reads it (its ISA's
 * pte_size; 16, DXGK_PTE, without an ISA). */
static inline uint32_t pbc_gpu_pte_size(const pbc_gpu *gpu) { return gpu->isa ? pbc_isa_pte_size(gpu->isa) : PBC_PTE_SIZE; }
/* Its levels of page tables (3 without an ISA). */
static inline uint32_t pbc_gpu_va_levels(const pbc_gpu *gpu) { return gpu->isa ? pbc_isa_pt_levels(gpu->isa) : PBC_VA_LEVELS; }

/* mmu.c. Walks the page tables of address space `root` for va, as the
 * MMU would, without the TLB and without recording a fault: 0 and *x, or
 * -1 with why (an entry that is not valid, a table outside memory). */
int pbc_gpu_va_walk(const pbc_gpu *gpu, uint64_t root, uint64_t va, pbc_va_xlat *x, const char **why);
/* The leaf table a walk last went through, so that a walk of a page in the
 * same 2 MiB region of the same space starts there. Only for walks with no
 * change to the tables between them (a check of every page in a range). */
typedef struct pbc_va_walk_memo {
    uint64_t root, region, leaf;
    uint32_t entries_64k, valid;
} pbc_va_walk_memo;
/* pbc_gpu_va_walk, from *m's leaf when it is va's, and remembering the
 * leaf it reached in *m. */
int pbc_gpu_va_walk_memo(const pbc_gpu *gpu, uint64_t root, uint64_t va, pbc_va_xlat *x, const char **why,
                         pbc_va_walk_memo *m);
/* Translates va in the current address space for an access: the TLB, or
 * a walk whose result it keeps. -1 after recording a fault. */
int pbc_gpu_va_translate(pbc_gpu *gpu, uint64_t va, int write, pbc_va_xlat *x);
/* Executes an access micro-op with a PBC_UOP_*_VIRTUAL flag, page piece
 * by page piece as physical micro-ops. */
int pbc_gpu_exec_virtual(pbc_gpu *gpu, const pbc_uop *u);
/* Drops cached translations of space `root` (0: all) for [start,
 * start+size) (size 0: all). */
void pbc_gpu_tlb_flush(pbc_gpu *gpu, uint64_t root, uint64_t start, uint64_t size);
/* Empties the TLB: power-on state. */
void pbc_gpu_tlb_reset(pbc_gpu *gpu);
const char *pbc_gpu_fault_name(uint32_t kind);
/* Name of a micro-op kind ("copy", "fill", ...); "?" when out of range. */
const char *pbc_gpu_uop_name(uint32_t kind);

#endif
