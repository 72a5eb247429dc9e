/*
 * target.h — the ABI through which the harness drives a paging-buffer
 * builder (a "target").
 *
 * A target is one pbc_target table. The harness plays Windows: it creates
 * the adapter and allocations, calls BuildPagingBuffer, Patch and
 * SubmitCommand with the exact DDI argument structures, and executes what
 * the target hands to the GPU through the host interface. A target never
 * includes a harness header.
 *
 * ABI rules: abi_version and struct_size come first; members are only ever
 * appended; the harness refuses a table whose abi_version it does not know
 * or whose struct_size is smaller than the version requires.
 */
#ifndef PBCHECK_TARGET_H
#define PBCHECK_TARGET_H

#include <stddef.h>
#include <stdint.h>

#include "isa.h"
#include "wdk/d3dkmddi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ABI version: major (a table of another major is refused) and minor
 * (members appended since; a table's struct_size tells which it has, and
 * missing members take their defaults). */
#define PBC_TARGET_ABI_VERSION 1u
#define PBC_TARGET_ABI_MINOR 3u

typedef enum pbc_segment_kind {
    PBC_SEGMENT_MEMORY = 1,   /* video memory, addressed at base + offset */
    PBC_SEGMENT_APERTURE = 2  /* GART-mapped window onto system pages */
} pbc_segment_kind;

typedef struct pbc_segment_info {
    UINT SegmentId; /* 1-based, as in DXGKARG_* */
    uint32_t kind;  /* pbc_segment_kind */
    uint64_t base;  /* GPU physical base address */
    uint64_t size;  /* bytes, a multiple of 4 KiB */
} pbc_segment_info;

/* What the model GPU offers a target. Every callback is valid from
 * create_adapter until destroy_adapter returns, and may be called only
 * from inside a DDI call of that adapter. */
typedef struct pbc_host {
    uint32_t abi_version; /* PBC_TARGET_ABI_VERSION */
    uint32_t struct_size; /* sizeof(pbc_host) */
    void *ctx;            /* pass back as the first argument */
    /* Rings the doorbell: the GPU will fetch [start, end) of the DMA buffer
     * whose start is at physical address phys (segment_id 0 = system
     * memory) and execute it through the target's ISA decoder. */
    void (*ring_submit)(void *ctx, UINT segment_id, uint64_t phys, UINT start, UINT end);
    /* Queues a fence: fence_id completes after all work rung before it. */
    void (*ring_fence)(void *ctx, UINT fence_id);
    /* The adapter's MMIO register file; offset is a byte offset, 4-aligned. */
    uint32_t (*mmio_read)(void *ctx, uint32_t offset);
    void (*mmio_write)(void *ctx, uint32_t offset, uint32_t value);
    /* One line of diagnostic text, shown with --trace. */
    void (*log)(void *ctx, const char *line);
    /* ---- ABI 1.1 ---- */
    /* Queues CPU work on the paging engine, as a worker thread woken by
     * SubmitCommand would run it: fn(arg) runs when the engine reaches it,
     * after everything rung before (and the render work the paging buffer
     * waits for) and before the fence queued after it,
     * with the paging buffer, its private data and the MDLs of the
     * operations it serves still alive, and with the kernel services (CPU
     * mappings, registers) bound. Call it only from inside SubmitCommand. */
    void (*queue_cpu_work)(void *ctx, void (*fn)(void *arg), void *arg);
} pbc_host;

typedef struct pbc_adapter_info {
    uint32_t struct_size; /* sizeof(pbc_adapter_info) */
    uint32_t segment_count;
    const pbc_segment_info *segments; /* valid until destroy_adapter */
    uint64_t dummy_page;              /* physical address of the dummy page */
    const pbc_host *host;             /* valid until destroy_adapter */
    uint64_t mmio_physical;           /* register file, for MmMapIoSpace */
    uint32_t mmio_size;               /* bytes */
} pbc_adapter_info;

/* Allocation properties the scenario gives a target. */
#define PBC_ALLOCATION_NEEDS_IDLE 0x1u /* builder wants AllocationIsIdle to touch it */
#define PBC_ALLOCATION_PRIMARY 0x2u    /* the primary surface (hDevice is NULL) */
#define PBC_ALLOCATION_CPU_VISIBLE 0x4u /* CPU-visible: MapApertureSegment2 hands a CpuVisibleAddress */

typedef struct pbc_allocation_info {
    uint32_t struct_size; /* sizeof(pbc_allocation_info) */
    uint32_t flags;       /* PBC_ALLOCATION_* */
    uint64_t size;        /* bytes */
} pbc_allocation_info;

#define PBC_OP_BIT(op) (1ull << (op))

/* A segment as the driver declares it (DXGK_QUERYSEGMENTOUT). */
typedef struct pbc_segment_decl {
    UINT SegmentId;      /* 1-based, in order */
    uint32_t kind;       /* pbc_segment_kind */
    uint64_t base;       /* GPU physical base address */
    uint64_t size;       /* bytes, a multiple of 4 KiB */
    uint32_t cpu_visible;
    uint32_t cache_coherent;
} pbc_segment_decl;

/* The adapter a driver declares, as Windows learns it from
 * DXGKQAITYPE_QUERYSEGMENT: what VidMm may issue is what fits it. */
typedef struct pbc_adapter_decl {
    uint32_t struct_size;             /* sizeof(pbc_adapter_decl) */
    uint32_t segment_count;           /* 0: the scenario's layout */
    const pbc_segment_decl *segments;
    /* PagingBufferSize: every paging buffer VidMm hands out has exactly
     * this size (the space left varies, as operations are packed); 0 lets
     * the scenario choose. */
    uint32_t paging_buffer_size;
    /* ---- ABI 1.2: a smaller struct_size (1.1) gets the default ---- */
    /* How the driver takes page-table updates (its
     * DXGK_VIRTUALADDRESSCAPS::PageTableUpdateMode): by physical address
     * (PBC_PT_UPDATE_GPU_PHYSICAL, the default) or by the GPU virtual
     * address of the table in the paging process's address space
     * (PBC_PT_UPDATE_GPU_VIRTUAL). The paging process's own tables are
     * updated at once with the CPU either way (CPU_VIRTUAL, pDmaBuffer
     * NULL). */
    uint32_t page_table_update;
    /* ---- ABI 1.3: a smaller struct_size gets the default (0) ---- */
    /* What the GPU's MMU lacks, from its DXGK_GPUMMUCAPS: PBC_GPUMMU_NO_*.
     * VidMm issues nothing that needs what is missing: such an operation
     * is unsupported, never failed (certify, the fuzz targets, replay and
     * triage drop it from their scenarios; `pbcheck run` skips a scenario
     * that has one). */
    uint32_t gpummu_lacks;
} pbc_adapter_decl;

#define PBC_PT_UPDATE_GPU_PHYSICAL 0u
#define PBC_PT_UPDATE_GPU_VIRTUAL 1u
/* gpummu_lacks bits. */
#define PBC_GPUMMU_NO_ZERO 0x1u      /* ZeroInPteSupported 0: no zero ranges (va-zero zero) */
#define PBC_GPUMMU_NO_READ_ONLY 0x2u /* ReadOnlyMemorySupported 0: no read-only ranges */
#define PBC_GPUMMU_NO_64K 0x4u       /* no leaf tables of 64 KiB pages: no 64 KiB ranges */
#define PBC_GPUMMU_KNOWN (PBC_GPUMMU_NO_ZERO | PBC_GPUMMU_NO_READ_ONLY | PBC_GPUMMU_NO_64K)
/* Size of the ABI 1.1 adapter declaration, the smallest accepted. */
#define PBC_ADAPTER_DECL_SIZE_1_1 offsetof(pbc_adapter_decl, page_table_update)
/* Whether a declaration of struct_size `size` has member m. */
#define PBC_ADAPTER_DECL_HAS(size, m) \
    ((size) >= offsetof(pbc_adapter_decl, m) + sizeof(((pbc_adapter_decl *)0)->m))

/* What an aperture (GART) entry holds, as the driver keeps it. */
typedef struct pbc_gart_view {
    uint32_t valid;
    uint32_t cache_coherent;
    uint64_t page; /* the system page's physical address, when valid */
} pbc_gart_view;

typedef struct pbc_target {
    uint32_t abi_version; /* PBC_TARGET_ABI_VERSION */
    uint32_t struct_size; /* sizeof(pbc_target) */
    const char *name;     /* short, stable: used by --target */
    const char *summary;  /* one line */
    const pbc_isa *isa;   /* decoder for what this target emits */
    /* Smallest DmaSize with which BuildPagingBuffer always makes progress on
     * a fresh buffer; the harness never offers less. 0: the builder never
     * writes to the paging buffer (every operation done by the CPU). */
    uint32_t min_dma_size;
    /* Private data bytes the harness attaches to each paging buffer. */
    uint32_t private_data_size;
    /* PBC_OP_BIT(DXGK_OPERATION_*) of every operation implemented; the
     * harness reports the others as unsupported, never as failures. */
    uint64_t supported_operations;

    /* Called once per scenario run before anything else. *adapter is the
     * hAdapter of every later call. Returns STATUS_SUCCESS or an error,
     * which skips the run. */
    NTSTATUS (*create_adapter)(const pbc_adapter_info *info, HANDLE *adapter);
    /* Frees the adapter; every allocation was destroyed before. */
    void (*destroy_adapter)(HANDLE adapter);
    /* The target returns its own handle; it appears as hAllocation in
     * BuildPagingBuffer. info is only valid during the call. Called for
     * each allocation when the run starts, and mid-run for a new one (a
     * scenario's create): its handle may be one an allocation destroyed
     * before had (a recycled record), and nothing the target kept about
     * that allocation may carry over. */
    NTSTATUS (*create_allocation)(HANDLE adapter, const pbc_allocation_info *info,
                                  HANDLE *allocation);
    /* Ends an allocation: mid-run (a scenario's destroy) once the GPU has
     * run the work queued on it and every paging buffer submitted before,
     * and at the end of the run for every allocation left. */
    void (*destroy_allocation)(HANDLE adapter, HANDLE allocation);
    /* The DDIs, with Windows' contracts (see docs/writing-a-target.md). */
    DXGKDDI_BUILDPAGINGBUFFER *build_paging_buffer;
    DXGKDDI_PATCH *patch;
    DXGKDDI_SUBMITCOMMAND *submit_command;

    /* ---- ABI 1.1: tables with a smaller struct_size get the defaults ---- */
    /* The adapter the driver declares; NULL (default): the scenario's
     * layout and paging-buffer sizes. */
    const pbc_adapter_decl *adapter;
    /* Reads aperture entry `index` of aperture segment `segment_id` the
     * way the driver keeps its GART (registers, a table in its memory),
     * called after the run with the kernel services bound. Returns 0, or
     * -1 when it cannot tell. NULL (default): the model's GART, which GART
     * micro-ops write. */
    int (*gart_view)(HANDLE adapter, UINT segment_id, uint64_t index, pbc_gart_view *out);

    /* ---- ABI 1.3 ---- */
    /* The private data the driver hands with DxgkCbUpdateContextAllocation
     * for context allocation `allocation`, in its own format: writes at
     * most `capacity` bytes into buf and returns how many. VidMm passes
     * them back as UpdateContextAllocation's pDriverPrivateData. Called
     * with the kernel services bound. NULL (default): VidMm issues no
     * UpdateContextAllocation to this target (update-context is
     * unsupported). */
    uint32_t (*context_update_data)(HANDLE adapter, HANDLE allocation, void *buf, uint32_t capacity);
} pbc_target;

/* Size of the ABI 1.0 table, the smallest the harness accepts. */
#define PBC_TARGET_SIZE_1_0 offsetof(pbc_target, adapter)

/* What a builder built as a shared library exports, with C linkage:
 *   const pbc_target *pbc_target_get(void);
 * The table must live as long as the library is loaded. */
typedef const pbc_target *(*pbc_target_get_fn)(void);

/* Exported by the pbcheck executable that loads the library: the ABI
 * version (major << 16 | minor) it implements, for a library that wants
 * to check at run time, as XXH_versionNumber does. */
uint32_t pbc_host_abi_version(void);

#ifdef __cplusplus
}
#endif

#endif
