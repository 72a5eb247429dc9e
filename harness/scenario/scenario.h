/*
 * scenario.h — a scenario: adapter layout, allocations, and an ordered list
 * of VidMm-level operations. The residency tracker decides which operation
 * is legal next (what a real VidMm could issue); the validator, the VidMm
 * model and the fuzzers' decoder all use it, so they cannot disagree.
 */
#ifndef PBCHECK_SCENARIO_H
#define PBCHECK_SCENARIO_H

#include <stddef.h>
#include <stdint.h>

#include <pbcheck/target.h>

#include "gpu/mem.h" /* pbc_content_word */

#define PBC_SCENARIO_VERSION 1u
#define PBC_NAME_MAX 32u
#define PBC_MAX_ALLOCS 256u
#define PBC_MAX_OPS 4096u
#define PBC_MAX_ALLOC_SIZE (8ull << 30) /* beyond 4 GiB: TransferSize is a SIZE_T */
#define PBC_MAX_DMA_SIZE (1u << 20)
#define PBC_MAX_SPLIT 64u
#define PBC_MAX_MDL_OFFSET 64u
#define PBC_DEFAULT_DMA_SIZE 4096u /* until the first dma operation */
/* init-context and update-context take allocations of at most this size
 * (a context image is small; its bytes, masked wherever it goes, cost the
 * oracle a mask a page in scattered system memory). */
#define PBC_MAX_CONTEXT_SIZE (1ull << 20)

typedef enum pbc_sop_kind {
    PBC_SOP_TRANSFER = 0,
    PBC_SOP_SPECIAL_LOCK,
    PBC_SOP_FILL,
    PBC_SOP_DISCARD,
    PBC_SOP_READ_PHYSICAL,
    PBC_SOP_WRITE_PHYSICAL,
    PBC_SOP_MAP,
    PBC_SOP_UNMAP,
    PBC_SOP_RENDER_WRITE,
    PBC_SOP_RENDER_READ,
    PBC_SOP_GPU_READ,
    PBC_SOP_GPU_WRITE,
    PBC_SOP_FLUSH,
    PBC_SOP_IDLE,
    PBC_SOP_DMA,
    PBC_SOP_DESTROY,
    PBC_SOP_CREATE,
    /* WDDM 2.x GPU virtual addresses (docs/scenario-format.md, "GPU virtual
     * addresses"): appended, so that binary inputs keep their kinds. */
    PBC_SOP_VA_MAP,   /* D3DDDI_MAPGPUVIRTUALADDRESS of allocation pages */
    PBC_SOP_VA_ZERO,  /* the same with Protection.Zero or .NoAccess and no allocation */
    PBC_SOP_VA_UNMAP, /* the allocation's range back to not valid */
    PBC_SOP_SIGNAL_FENCE, /* SignalMonitoredFence: VidMm's paging fence, its next value */
    PBC_SOP_NOTIFY,   /* an operation with no effect on memory (`pattern`: which, PBC_NOTIFY_*) */
    PBC_SOP_VA_MOVE_TABLES, /* the leaf tables of the allocation's range move: CopyPageTableEntries */
    /* Binary version 4 (context allocations and residency notifications). */
    PBC_SOP_INIT_CONTEXT,   /* InitContextResource: the allocation's content becomes the driver's */
    PBC_SOP_UPDATE_CONTEXT, /* UpdateContextAllocation of the allocation's GPU virtual range */
    PBC_SOP_NOTIFY_RESIDENCY, /* NotifyResidency: where the allocation is now, or evicted */
    PBC_SOP_COUNT
} pbc_sop_kind;

typedef enum pbc_where { PBC_WHERE_NONE = 0, PBC_WHERE_SYSTEM, PBC_WHERE_SEGMENT } pbc_where;

/* A location: system memory (segment 0), or a segment and byte offset. */
typedef struct pbc_place {
    uint32_t segment;
    uint64_t offset;
} pbc_place;

#define PBC_SOP_COHERENT 0x1u     /* map: CacheCoherent */
#define PBC_SOP_VIA_APERTURE 0x2u /* render: access through the allocation's mapping */
#define PBC_SOP_NO_CONTENT 0x4u   /* create: without content (at=none); else at says where */
#define PBC_SOP_VA_READ_ONLY 0x8u /* va-map: Protection.Write clear */
#define PBC_SOP_VA_64K 0x10u      /* va-map, va-zero: the range uses 64 KiB pages */
#define PBC_SOP_VA_NO_ACCESS 0x20u /* va-zero: Protection.NoAccess rather than Zero */
#define PBC_SOP_VIA_VA 0x40u      /* render: access through the allocation's GPU virtual range */
#define PBC_SOP_VA_RESERVED 0x80u /* va-map, va-zero: Reserved0/Reserved1 not zero (refused) */
#define PBC_SOP_ADL 0x200u        /* map: MapApertureSegment2, pages by an ADL */
#define PBC_SOP_VIRTUAL 0x100u    /* transfer, fill: TransferVirtual / FillVirtual through VidMm's
                                     paging windows (GPU virtual addresses) */
#define PBC_SOP_COPY_USED 0x400u  /* va-move-tables: only the entries in use, `count` ranges each */
#define PBC_SOP_COPY_STAGED 0x800u /* va-move-tables: through a scratch table from its entry `first` */
/* va-move-tables: at most this many copy ranges per run of entries in use. */
#define PBC_MAX_COPY_PIECES 8u

typedef struct pbc_sop {
    uint32_t kind;    /* pbc_sop_kind */
    uint32_t alloc;   /* allocation index */
    pbc_place at;     /* destination or address; create: where it starts (segment 0: system) */
    uint32_t split;   /* transfer: sub-transfers (>= 1) */
    uint32_t pattern; /* fill, render write, gpu write; create: the seed of its content */
    uint32_t flags;   /* PBC_SOP_* */
    uint64_t offset;  /* render: byte offset in the allocation */
    uint64_t size;    /* render, gpu access: bytes */
    uint32_t first;   /* map: first allocation page; va-move-tables: the scratch table's first entry */
    uint32_t count;   /* map: pages; va-move-tables: copy ranges per run of entries in use */
    uint32_t dma_size;/* dma: paging-buffer size, 0 = the target's minimum */
    uint32_t line;    /* source line, 0 when not parsed from text */
    /* va-map, va-zero (D3DDDI_MAPGPUVIRTUALADDRESS): first and count are
     * OffsetInPages and SizeInPages (S52) */
    uint64_t va;      /* BaseAddress, 0: VidMm chooses (S49, S50) */
    uint64_t va_min, va_max; /* MinimumAddress, MaximumAddress (0: no limit) */
    uint64_t driver_protection; /* DriverProtection (S53) */
    uint32_t space;   /* va-map, va-zero: the GPU virtual address space (process) of the range,
                         0 to PBC_MAX_SPACES - 1; 0 for every other kind */
} pbc_sop;

/* GPU virtual address spaces a scenario may use (`space=` on va-map and
 * va-zero): space 0 is the one every scenario has (VidMm's paging windows,
 * tables window and paging fence live there too); the others are further
 * processes, each with its own root page table, ranges and TLB entries. */
#define PBC_MAX_SPACES 4u
/* The process handle VidMm names address space k by (hProcess of
 * UpdatePageTable and FlushTlb): opaque to a builder, distinct per space. */
#define PBC_VA_PROCESS(k) ((void *)(uintptr_t)(0xB00000u + 0x10000u * (uint32_t)(k)))

#define PBC_ALLOC_NEEDS_IDLE PBC_ALLOCATION_NEEDS_IDLE
#define PBC_ALLOC_PRIMARY PBC_ALLOCATION_PRIMARY
#define PBC_ALLOC_CPU_VISIBLE PBC_ALLOCATION_CPU_VISIBLE

/* How the system pages of an allocation's MDLs lie physically (its
 * foreign pages included); each MDL it gets is laid out afresh, from its
 * seed. Builders that merge physically contiguous pages into larger
 * copies are only exercised by the layouts other than scattered. */
typedef enum pbc_phys_layout {
    PBC_PHYS_SCATTERED = 0, /* one page at a time: no two pages in a row (the default) */
    PBC_PHYS_RUNS,          /* runs of 1 to 64 frames in a row, each run somewhere else */
    PBC_PHYS_CONTIGUOUS,    /* all its MDL's frames in one run */
    PBC_PHYS_STRADDLE_4G,   /* one run across a 4 GiB line of the address space */
    PBC_PHYS_COUNT
} pbc_phys_layout;

typedef struct pbc_salloc {
    char name[PBC_NAME_MAX];
    uint64_t size;       /* bytes, a multiple of 4 */
    uint32_t where;      /* initial pbc_where */
    pbc_place at;        /* initial segment placement */
    uint32_t mdl_offset; /* pages before the allocation's first page in its MDLs */
    uint32_t flags;      /* PBC_ALLOC_* */
    uint32_t seed;       /* initial content, and where its MDLs' pages lie */
    uint32_t line;
    uint32_t phys;       /* pbc_phys_layout of its MDLs */
} pbc_salloc;

/* Paging buffers in a memory segment (S40) use the top of that segment:
 * this many bytes, which allocations and raw accesses must leave alone. */
#define PBC_PAGING_WINDOW (8ull << 20)

typedef struct pbc_scenario {
    pbc_segment_info segments[8];
    uint32_t segment_count;
    uint32_t paging_segment; /* 0: paging buffers in system memory; else that memory segment */
    pbc_salloc *allocs;
    uint32_t alloc_count, alloc_cap;
    pbc_sop *ops;
    uint32_t op_count, op_cap;
} pbc_scenario;

void pbc_scenario_init(pbc_scenario *s);
void pbc_scenario_fini(pbc_scenario *s);
/* Empties s (no layout, allocations or operations) but keeps its arrays. */
void pbc_scenario_clear(pbc_scenario *s);
void pbc_scenario_default_layout(pbc_scenario *s);
pbc_salloc *pbc_scenario_add_alloc(pbc_scenario *s);
pbc_sop *pbc_scenario_add_op(pbc_scenario *s);
int pbc_scenario_find_alloc(const pbc_scenario *s, const char *name);
int pbc_scenario_equal(const pbc_scenario *a, const pbc_scenario *b);
const char *pbc_sop_name(uint32_t kind);
/* The text keyword of a pbc_phys_layout ("scattered", ...); "?" when out
 * of range. */
const char *pbc_phys_name(uint32_t layout);
/* The DXGK_OPERATION a kind issues, or -1 for VidMm and GPU actions. */
int pbc_sop_ddi_operation(uint32_t kind);
/* DXGKARG_BUILDPAGINGBUFFER's union member for DXGK_OPERATION `op`
 * ("Transfer", "MapApertureSegment2", ...), or NULL past the last. */
#define PBC_DDI_OPERATION_COUNT 23u
const char *pbc_ddi_operation_name(uint32_t op);
/* Whether the target supports what an operation of this kind needs. */
int pbc_sop_supported(const pbc_target *t, uint32_t kind);
/* The same for one operation, whose flags may ask for more (a transfer
 * or fill through GPU virtual addresses). */
int pbc_sop_op_supported(const pbc_target *t, const pbc_sop *op);
/* What an operation pbc_sop_op_supported refuses needs that t lacks, in
 * words, written into buf[0, n). */
const char *pbc_sop_unsupported_why(const pbc_target *t, const pbc_sop *op, char *buf, size_t n);
/* Lays s onto the segments adapter declaration d declares (harness/
 * scenario/fit.c): each of s's segments onto a declared one of its kind,
 * by its id when the scenario fits that way, else by role, the ranges it
 * uses packed where its offsets do not fit; a map asking for CacheCoherent
 * keeps it only on a cache-coherent aperture. Returns 1 when s fits as it
 * is (d declares no segments, or s is made within them: out untouched), 0
 * with the laid-out scenario in out (an initialized scenario, cleared
 * first), or -1 with why it cannot be (written into why). */
int pbc_scenario_fit(const pbc_scenario *s, const pbc_adapter_decl *d, pbc_scenario *out, char *why, size_t n);
/* Clears CacheCoherent on every map of s into an aperture that d declares
 * not cache-coherent; returns how many. */
uint32_t pbc_scenario_fit_coherence(pbc_scenario *s, const pbc_adapter_decl *d);
/* Whether operations of this kind name an allocation. */
int pbc_sop_has_alloc(uint32_t kind);
uint32_t pbc_alloc_pages(const pbc_salloc *a);
/* The size of its largest allocation (0 with none). */
uint64_t pbc_scenario_largest_alloc(const pbc_scenario *s);
/* Where a create operation makes its allocation start (pbc_where). */
uint32_t pbc_sop_created_where(const pbc_sop *op);

/* ---- Residency: what is where, and what is legal next ---- */

typedef struct pbc_res_alloc {
    uint32_t destroyed;   /* by a destroy operation, until create */
    uint32_t where;
    pbc_place at;         /* when in a segment */
    uint32_t mapped;
    uint32_t ap_segment;  /* when mapped */
    uint64_t ap_page;
    uint32_t map_first, map_count;
    uint32_t va_mapped;   /* a GPU virtual range maps [va_first, va_first + va_count) */
    uint32_t va_flags;    /* PBC_SOP_VA_* of that mapping */
    uint64_t va_base;
    uint32_t va_first, va_count;
    uint64_t va_protection; /* its DriverProtection, for every later update (S53) */
    uint32_t va_space;    /* the address space of that range */
    pbc_place left;       /* the segment place it last moved out of (a move, a discard, a destroy);
                             segment 0: none yet. Its bytes may still be in flight there. */
} pbc_res_alloc;

/* A GPU virtual range in use: an allocation's, or a zero or no-access one. */
typedef struct pbc_res_va {
    uint64_t base, pages;
    int alloc;      /* -1: zero or no-access */
    uint32_t flags; /* PBC_SOP_VA_* */
    uint32_t space; /* its address space */
} pbc_res_va;

/* The GPU virtual address space VidMm hands out: 512 GiB (gpu/gpu.h),
 * less the first 64 KiB, which stays unmapped so a null GPU address
 * faults. */
#define PBC_VA_FIRST 0x10000ull
#define PBC_VA_END (1ull << 38) /* the upper half is VidMm's own: its paging windows */
#define PBC_VA_WINDOW_SRC (1ull << 38)
#define PBC_VA_WINDOW_DST ((1ull << 38) + (16ull << 30))
#define PBC_VA_MONITORED_FENCE ((1ull << 38) + (32ull << 30)) /* VidMm's paging fence page */
#define PBC_VA_TABLES ((1ull << 38) + (48ull << 30)) /* VidMm's tables window (GPU_VIRTUAL updates) */

/* What `notify` issues: operations whose effect is the driver's own
 * bookkeeping, never memory the harness observes (their layouts after
 * NotifyResidency are not public: VidMm passes zeros). */
typedef enum pbc_notify_kind {
    PBC_NOTIFY_FENCE_RESIDENCY = 0, /* DXGK_OPERATION_NOTIFY_FENCE_RESIDENCY */
    PBC_NOTIFY_MAP_MMU,             /* DXGK_OPERATION_MAP_MMU */
    PBC_NOTIFY_UNMAP_MMU,           /* DXGK_OPERATION_UNMAP_MMU */
    PBC_NOTIFY_RESIDENCY2,          /* DXGK_OPERATION_NOTIFY_RESIDENCY2 */
    PBC_NOTIFY_ALLOC,               /* DXGK_OPERATION_NOTIFY_ALLOC */
    PBC_NOTIFY_COUNT
} pbc_notify_kind;
/* Its text word ("fence-residency", ...), "?" when out of range, and the
 * DXGK_OPERATION it issues. */
const char *pbc_notify_name(uint32_t kind);
int pbc_notify_ddi(uint32_t kind);
#define PBC_VA_MAX_PAGES (1u << 20) /* the binary format's va-zero counts: 1 + count % 2^20 */

typedef struct pbc_res_range {
    uint32_t segment;
    uint64_t first, count; /* aperture pages */
} pbc_res_range;

typedef struct pbc_residency {
    const pbc_scenario *s;
    pbc_res_alloc *a;
    pbc_res_range *valid; /* aperture pages with a valid GART entry */
    uint32_t valid_count, valid_cap;
    pbc_res_va *vas;      /* GPU virtual ranges in use */
    uint32_t va_count, va_cap;
    uint32_t vacated;     /* 1 + the allocation that last left a segment place (its `left`); 0: none */
} pbc_residency;

/* Returns NULL when the initial placements are legal, else why not. */
const char *pbc_residency_init(pbc_residency *r, const pbc_scenario *s);
void pbc_residency_fini(pbc_residency *r);
/* NULL when op is legal in the current state; else a one-line reason. */
const char *pbc_residency_check(const pbc_residency *r, const pbc_sop *op);
/* Applies a legal op. */
void pbc_residency_apply(pbc_residency *r, const pbc_sop *op);
/* The base a legal va-map or va-zero gets: BaseAddress, or the lowest free
 * range within [MinimumAddress, MaximumAddress] (S50), aligned to its page
 * size. */
uint64_t pbc_residency_va_base(const pbc_residency *r, const pbc_sop *op);
/* The index in r->vas of the va-zero range (reserved: zero or no-access)
 * that holds [base, base + pages) whole, with the same page size, or -1. */
int pbc_residency_va_reserved(const pbc_residency *r, uint32_t space, uint64_t base, uint64_t pages,
                              uint32_t flags);
/* How many GPU virtual address spaces s uses: 1 + the highest `space`. */
uint32_t pbc_scenario_spaces(const pbc_scenario *s);
/* Whether [offset, offset+size) of segment is free of resident allocations
 * other than `except` (-1 for none). */
int pbc_residency_range_free(const pbc_residency *r, uint32_t segment, uint64_t offset,
                             uint64_t size, int except);

/* [*start, *end) of segment `segment` kept for paging buffers, or 0 when
 * it keeps none. */
int pbc_scenario_paging_window(const pbc_scenario *s, uint32_t segment, uint64_t *start, uint64_t *end);

/* Drops the operations target t does not support, and those that are then
 * illegal (a va-unmap whose va-map went), so that what is left runs on
 * it: a random scenario for a WDDM 1.x builder loses its GPU virtual
 * ranges. A map into an aperture the target declares not cache-coherent
 * loses CacheCoherent (s is made within the declared segments). Returns
 * how many were dropped. */
uint32_t pbc_scenario_keep_supported(pbc_scenario *s, const pbc_target *t);

/* Whole-scenario validation: a layout the GPU model cannot build, an
 * illegal initial placement, or the first illegal op, as "layout: why",
 * "initial placement: why" or "operation N (kind): why" in buf. Returns 0
 * when valid. */
int pbc_scenario_validate(const pbc_scenario *s, char *buf, size_t size);

/* ---- Limits: what one scenario may cost (docs/scenario-format.md) ---- */

/* Modeled memory one scenario may write, in each of the worlds (target,
 * reference, spec) that run it; and of that, system memory it may take:
 * the model's 8 GiB of system pages, less room for the dummy page. Pages
 * written whole by the GPU are held as descriptions (gpu/mem.h), so a
 * world costs about 100 bytes for each, and 4 KiB only for pages written
 * in pieces or by the CPU. */
#define PBC_MAX_SCENARIO_BYTES (16ull << 30)
#define PBC_MAX_SYSTEM_BYTES ((8ull << 30) - (1ull << 20))

/* The modeled memory a scenario can make one world write, in bytes, counted
 * from the scenario alone (whatever the builder does): initial content with
 * its MDLs' foreign pages, every transfer's destination (a transfer to
 * system memory gets fresh pages), fills, GPU writes and physical
 * accesses, each as the 4 KiB pages it spans. Memory use follows it. */
uint64_t pbc_scenario_footprint(const pbc_scenario *s);
/* How many times the per-case time limit (--case-timeout) a scenario gets:
 * once, and once more for every 256 MiB of modeled memory it writes
 * (pbc_scenario_footprint). A builder that copies with the CPU moves every
 * byte through views, which takes its time on large allocations. */
#define PBC_TIMEOUT_BYTES (256ull << 20)
uint32_t pbc_scenario_timeout_units(const pbc_scenario *s);

/* Pages of GPU virtual ranges whose page-table entries VidMm writes over
 * the scenario (each write counted: a range's, its paging windows', a
 * range that follows a move, a moved leaf): at most PBC_MAX_VA_PAGES
 * (1 GiB of address space), as each costs entries written and,
 * in the smallest paging buffers, calls. */
#define PBC_MAX_VA_PAGES 262144u
uint64_t pbc_scenario_va_pages(const pbc_scenario *s);
/* The same for one operation; `ranged` (one byte an allocation, zeroed at
 * first) follows which allocations have a range. pbc_sop_va_fits adds it
 * to *va when the total stays within PBC_MAX_VA_PAGES, and returns 1;
 * else it changes nothing and returns 0 (the generator and the binary
 * decoder drop such an operation, as they drop an illegal one). */
uint64_t pbc_sop_va_pages(const pbc_scenario *s, const pbc_sop *op, uint8_t *ranged);
int pbc_sop_va_fits(const pbc_scenario *s, const pbc_sop *op, uint8_t *ranged, uint64_t *va);

/* 0 when s is within the limits run, replay, encode and the fuzz targets
 * share; else -1 with why in buf and, in *line, the source line of the
 * allocation or operation that passes them (0 when it has none). */
int pbc_scenario_check_limits(const pbc_scenario *s, char *buf, size_t size, uint32_t *line);

/* The differential fuzz targets' own budget, tighter than the limits
 * (docs/fuzzing.md): allocations totalling at most 256 MiB, at most 1 GiB
 * of modeled memory written. That keeps an exec within tens of
 * milliseconds and a fuzzing process far below the engine's rss_limit_mb,
 * while transfers still split and resume beyond 1 MiB and 16 MiB: pages
 * the GPU writes whole cost about 100 bytes each (gpu/mem.h). */
#define PBC_FUZZ_MAX_ALLOC_BYTES (256ull << 20)
#define PBC_FUZZ_MAX_FOOTPRINT (1ull << 30)
/* And at most this many pages moved or filled in paging buffers smaller
 * than 4 KiB (a call or more per page: a 256 MiB transfer in 25-byte
 * buffers is 65,536 calls, about 10 s under ASan, which libFuzzer reports
 * as a slow unit). 64 MiB in the smallest buffers still resumes past 1 MiB
 * and 16 MiB at every page. */
#define PBC_FUZZ_MAX_SMALL_BUFFER_PAGES 16384u
/* And at most this many pages of page-table entries written (256 MiB of
 * GPU virtual address space). */
#define PBC_FUZZ_MAX_VA_PAGES 65536u
/* And, while it runs, at most this many pages written as bytes in each
 * world (32 MiB): a page the GPU writes whole, or in one or two pieces of
 * a stream, is a description of about 100 bytes, but a page written byte
 * by byte (a builder's CPU writes, pieces of three streams) holds 4 KiB,
 * in every world that writes it. An input that crosses it is stopped and
 * neither judged nor kept (pbc_run_options.byte_page_budget), which keeps
 * a fuzzing process within its memory goal (docs/benchmarks.md, (c)). */
#define PBC_FUZZ_MAX_BYTE_PAGES 8192u
/* Whether a fuzz target runs s: within the limits and the budget. Inputs
 * it does not run are only decoded (`pbcheck replay` runs them); `pbcheck
 * bench` replays a fuzzer's corpus by the same rule. */
int pbc_scenario_fuzz_runs(const pbc_scenario *s);
/* Whether the fuzz targets run this input a second time for PB-NONDET:
 * one input in PBC_FUZZ_RERUN_EVERY, chosen by its bytes, so that a crash
 * input replays the same way. A builder that keeps state between runs
 * shows it on most inputs, so a quarter of them still finds it within a
 * second, and the second run, which costs as much as the first, costs a
 * quarter as much (docs/fuzzing.md). `run`, `replay` and `certify` run
 * every scenario twice. */
#define PBC_FUZZ_RERUN_EVERY 4u
int pbc_scenario_fuzz_rerun(const uint8_t *data, size_t size);

/* ---- Text format (.pbs), see docs/scenario-format.md ---- */

/* Parses text; on error writes "NAME:LINE:COL: what" into err and returns
 * -1 (s is then empty). Never reads beyond len. */
int pbc_scenario_parse(const char *text, size_t len, const char *name, pbc_scenario *s,
                       char *err, size_t err_size);
/* Whether an input is a text scenario rather than a binary one: by its
 * name when it ends in ".pbs" (text) or ".bin" (binary), else by whether
 * its first statement, after blank lines and '#' comments, is the word
 * "pbs". Bytes later in the file play no part: a text scenario with a bad
 * byte is still text, and its parser says where the byte is. */
int pbc_scenario_is_text(const char *name, const uint8_t *data, size_t n);
/* Reads and parses a file; same error convention. */
int pbc_scenario_load(const char *path, pbc_scenario *s, char *err, size_t err_size);
/* Canonical text; the caller frees the result. */
char *pbc_scenario_print(const pbc_scenario *s);

/* ---- Binary format (fuzzer input), see docs/scenario-format.md ---- */

/* Version 2 adds the physical page layout of allocations (bits 2-3 of
 * their flags byte) and the destroy and create records; any other version
 * byte reads as version 1, where those bits mean nothing and those record
 * types do not exist. The encoder writes version 1 when a scenario uses
 * neither, so inputs from before version 2 keep their meaning and their
 * encodings. Version 3 adds the GPU virtual ranges and the WDDM 2.x
 * operations up to va-move-tables; version 4 init-context,
 * update-context, notify-residency and CPU-visible allocations (bit 4 of
 * their flags byte). Version 5 gives va-move-tables a mode byte (entries
 * in use, pieces, a scratch table); before it the record is the whole-leaf
 * copy it always was. Version 6 gives va-map and va-zero a last byte,
 * their address space (`space=`); before it every range is in space 0.
 * Each version reads its record types modulo its own count, so an input
 * of an earlier version keeps its meaning. */
#define PBC_SCENARIO_BIN_VERSION 6u

/* Decodes any byte string into a valid scenario (s is initialized here;
 * the caller finalizes it). Never fails and never reads beyond size. */
void pbc_scenario_decode(const uint8_t *data, size_t size, pbc_scenario *s);
/* The same, in a fixed layout of n segments (a target's declared adapter;
 * n == 0: as pbc_scenario_decode): the layout bytes are read but not
 * used, and every placement is chosen within the fixed layout, so the
 * same bytes give a valid scenario whatever the layout. */
void pbc_scenario_decode_in(const uint8_t *data, size_t size, const pbc_segment_info *layout, uint32_t n,
                            pbc_scenario *s);
/* As pbc_scenario_decode_in, into a scenario already initialized (and
 * maybe decoded into before): what it held is dropped but its arrays are
 * kept, so decoding again and again allocates nothing once they are big
 * enough (the fuzzers' mutator decodes every input it mutates). */
void pbc_scenario_decode_again(const uint8_t *data, size_t size, const pbc_segment_info *layout, uint32_t n,
                               pbc_scenario *s);
/* Encodes a valid scenario so that decoding gives it back; the caller
 * frees *out. Returns the size. */
size_t pbc_scenario_encode(const pbc_scenario *s, uint8_t **out);
/* The same into out[0, max), like snprintf: returns the size the whole
 * encoding needs, which is more than max when it did not fit (then out
 * holds its first max bytes). out may be NULL when max is 0. */
size_t pbc_scenario_encode_to(const pbc_scenario *s, uint8_t *out, size_t max);

#endif
