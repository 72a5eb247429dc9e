/*
 * wdk_shim.h — serves the kernel calls declared in wdk/wdm.h from modeled
 * memory, for builders that do CPU work at build or submit time.
 *
 * The harness binds the shim to one GPU for the duration of a run; every
 * call into the target is bracketed by pbc_shim_enter and pbc_shim_leave
 * (pbc_shim_call_* do it for the DDIs), which keep persistent CPU views
 * and modeled memory in step. State lives in one thread-local
 * binding, reset by pbc_shim_bind, so fuzz iterations never share it.
 */
#ifndef PBCHECK_WDK_SHIM_H
#define PBCHECK_WDK_SHIM_H

#include "gpu/gpu.h"

/* The adapter's register file appears at this physical address. */
#define PBC_MMIO_PHYSICAL 0x380000000ull

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
int pbc_shim_guard_written(const void *start);
void pbc_shim_unguard(void *start);
/* NT_ASSERT failures since the last call; *first is the first message. */
uint32_t pbc_shim_take_asserts(const char **first);

NTSTATUS pbc_shim_call_build(const pbc_target *t, HANDLE adapter, DXGKARG_BUILDPAGINGBUFFER *a);
NTSTATUS pbc_shim_call_patch(const pbc_target *t, HANDLE adapter, DXGKARG_PATCH *a);
NTSTATUS pbc_shim_call_submit(const pbc_target *t, HANDLE adapter, DXGKARG_SUBMITCOMMAND *a);

#endif
