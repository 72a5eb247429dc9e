/*
 * var_common.h — what the variant builders share: an adapter that embeds
 * the reference's adapter as its first member ("subclassing", so a variant
 * adapter is a valid hAdapter for the reference entry points after
 * var_ref()), and helpers to run the reference on part of a buffer.
 */
#ifndef PBCHECK_VAR_COMMON_H
#define PBCHECK_VAR_COMMON_H

#include <stddef.h>

#include <pbcheck/target.h>

#include "ref_builder.h"
#include "ref_isa.h"

/* The first member of every variant's adapter. */
typedef struct var_adapter {
    HANDLE ref; /* the reference's adapter, from ref_create_adapter */
    const pbc_host *host;
} var_adapter;

/* Allocates `size` zeroed bytes (at least sizeof(var_adapter)) as the
 * adapter and creates the reference adapter inside it. */
NTSTATUS var_adapter_create(const pbc_adapter_info *info, size_t size, HANDLE *adapter);
void var_adapter_destroy(HANDLE adapter);
NTSTATUS var_create_adapter(const pbc_adapter_info *info, HANDLE *adapter);

static inline HANDLE var_ref(HANDLE adapter) { return ((var_adapter *)adapter)->ref; }

/* Runs the reference on [start, start + size) instead of the caller's
 * window; hands back pDmaBuffer and MultipassOffset. */
NTSTATUS var_ref_window(HANDLE adapter, DXGKARG_BUILDPAGINGBUFFER *a, uint8_t *start, UINT size);

/* Runs the reference for at most one packet, written into `packet`
 * (REF_MAX_PACKET_BYTES); *a is not changed. *len is the packet's size (0
 * when none was written) and *mpo the MultipassOffset after it. */
NTSTATUS var_ref_one_packet(HANDLE adapter, const DXGKARG_BUILDPAGINGBUFFER *a, uint8_t *packet,
                            size_t *len, UINT *mpo);

/* Whether the call is one a CPU-copying variant copies with the CPU: the
 * first call of a transfer from a segment into system memory, with no
 * packets of its own still waiting in the buffer (they might write the
 * source after the copy). */
int var_cpu_eviction(const DXGKARG_BUILDPAGINGBUFFER *a);

/* variant-cpu-when-idle's BuildPagingBuffer: an eviction (segment to
 * system) copied by the CPU, when AllocationIsIdle is set or, for a
 * planted bug, whatever it says (require_idle 0). */
NTSTATUS var_cpu_eviction_build(HANDLE adapter, DXGKARG_BUILDPAGINGBUFFER *a, int require_idle);
/* The same, and (a planted bug: mutant-cpu-restore) restores too, from
 * system memory into a segment, when AllocationIsIdle is set. */
NTSTATUS var_cpu_restore_build(HANDLE adapter, DXGKARG_BUILDPAGINGBUFFER *a);

/* variant-cpu-kept-view's adapter (segments mapped whole, once) and
 * BuildPagingBuffer (the same copies through those views, and ReadPhysical
 * as a CPU read); require_idle 0 for a planted bug. */
NTSTATUS var_kept_create_adapter(const pbc_adapter_info *info, HANDLE *adapter);
void var_kept_destroy_adapter(HANDLE adapter);
NTSTATUS var_kept_build(HANDLE adapter, DXGKARG_BUILDPAGINGBUFFER *a, int require_idle);

/* variant-worker-fence-packet's adapter and hooks (page-table entries by
 * CPU work queued at SubmitCommand, the fence by a packet); late set: its
 * SubmitCommand rings a marker a fence packet follows on through that
 * packet before queuing the marker's CPU work (a planted bug). */
NTSTATUS var_fpw_create_adapter(const pbc_adapter_info *info, HANDLE *adapter);
void var_fpw_destroy_adapter(HANDLE adapter);
NTSTATUS APIENTRY var_fpw_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a);
NTSTATUS APIENTRY var_fpw_patch(IN_CONST_HANDLE adapter, const DXGKARG_PATCH *p);
NTSTATUS var_fpw_submit(HANDLE adapter, const DXGKARG_SUBMITCOMMAND *c, int late);

/* The reference's entry points, taking a variant adapter. */
NTSTATUS APIENTRY var_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a);
NTSTATUS APIENTRY var_patch(IN_CONST_HANDLE adapter, const DXGKARG_PATCH *p);
NTSTATUS APIENTRY var_submit(IN_CONST_HANDLE adapter, const DXGKARG_SUBMITCOMMAND *c);

/* Calls `build`, but for an immediate update (UpdatePageTable with no
 * paging buffer, pDmaBuffer NULL), which is the reference's: a variant's
 * choice is about its buffers. */
NTSTATUS var_build_buffered(HANDLE adapter, DXGKARG_BUILDPAGINGBUFFER *a, DXGKDDI_BUILDPAGINGBUFFER *build);

/* A variant's table: the reference's, but for the named hooks and sizes. */
#define VAR_TARGET(sym, nm, summary_text, min_dma, priv_size, create, build, patch_fn, submit_fn)        \
    VAR_TARGET_DESTROY(sym, nm, summary_text, min_dma, priv_size, create, var_adapter_destroy, build, \
                       patch_fn, submit_fn)
/* The same with an adapter destructor of its own. */
#define VAR_TARGET_DESTROY(sym, nm, summary_text, min_dma, priv_size, create, destroy, build, patch_fn, \
                           submit_fn)                                                                 \
    static NTSTATUS APIENTRY sym##_entry(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)       \
    {                                                                                                 \
        return var_build_buffered(adapter, a, build);                                                  \
    }                                                                                                 \
    const pbc_target sym = {REF_TARGET_FIELDS_OPS(REF_OPERATIONS_GPUMMU, nm, summary_text, min_dma, priv_size,  \
                                                  create, destroy, ref_create_allocation, ref_destroy_allocation,   \
                                                  sym##_entry, patch_fn, submit_fn)}

#endif
