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

#include <stdint.h>

#include "isa.h"
#include "wdk/d3dkmddi.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PBC_TARGET_ABI_VERSION 1u

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

typedef struct pbc_allocation_info {
    uint32_t struct_size; /* sizeof(pbc_allocation_info) */
    uint32_t flags;       /* PBC_ALLOCATION_* */
    uint64_t size;        /* bytes */
} pbc_allocation_info;

#define PBC_OP_BIT(op) (1ull << (op))

typedef struct pbc_target {
    uint32_t abi_version; /* PBC_TARGET_ABI_VERSION */
    uint32_t struct_size; /* sizeof(pbc_target) */
    const char *name;     /* short, stable: used by --target */
    const char *summary;  /* one line */
    const pbc_isa *isa;   /* decoder for what this target emits */
    /* Smallest DmaSize with which BuildPagingBuffer always makes progress on
     * a fresh buffer; the harness never offers less. */
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
     * BuildPagingBuffer. info is only valid during the call. */
    NTSTATUS (*create_allocation)(HANDLE adapter, const pbc_allocation_info *info,
                                  HANDLE *allocation);
    void (*destroy_allocation)(HANDLE adapter, HANDLE allocation);
    /* The DDIs, with Windows' contracts (see docs/writing-a-target.md). */
    DXGKDDI_BUILDPAGINGBUFFER *build_paging_buffer;
    DXGKDDI_PATCH *patch;
    DXGKDDI_SUBMITCOMMAND *submit_command;
} pbc_target;

#ifdef __cplusplus
}
#endif

#endif
