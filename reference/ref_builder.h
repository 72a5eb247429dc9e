/*
 * ref_builder.h — the reference paging-buffer builder. It is both the
 * differential oracle and the base of the planted-bug builders, which wrap
 * its entry points.
 */
#ifndef PBCHECK_REF_BUILDER_H
#define PBCHECK_REF_BUILDER_H

#include <pbcheck/target.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Work is cut into chunks of this many bytes; MultipassOffset counts the
 * chunks (pages) of the current operation already emitted. */
#define REF_CHUNK 4096u

extern const pbc_target pbc_target_reference;

/* The operations the reference supports, and the designated initializers
 * of a target table like the reference's (which takes &ref_isa from
 * ref_isa.h): the reference, its legal variants and its planted bugs are
 * all tables of this one shape. */
#define REF_OPERATIONS                                                                       \
    (PBC_OP_BIT(DXGK_OPERATION_TRANSFER) | PBC_OP_BIT(DXGK_OPERATION_FILL) |                 \
     PBC_OP_BIT(DXGK_OPERATION_DISCARD_CONTENT) | PBC_OP_BIT(DXGK_OPERATION_READ_PHYSICAL) |  \
     PBC_OP_BIT(DXGK_OPERATION_WRITE_PHYSICAL) | PBC_OP_BIT(DXGK_OPERATION_MAP_APERTURE_SEGMENT) | \
     PBC_OP_BIT(DXGK_OPERATION_UNMAP_APERTURE_SEGMENT) |                                     \
     PBC_OP_BIT(DXGK_OPERATION_SPECIAL_LOCK_TRANSFER))
/* And the GpuMmu operations it supports on top (WDDM 2.x). */
#define REF_OPERATIONS_GPUMMU \
    (REF_OPERATIONS | PBC_OP_BIT(DXGK_OPERATION_UPDATE_PAGE_TABLE) | PBC_OP_BIT(DXGK_OPERATION_FLUSH_TLB) | \
     PBC_OP_BIT(DXGK_OPERATION_VIRTUAL_TRANSFER) | PBC_OP_BIT(DXGK_OPERATION_VIRTUAL_FILL) |            \
     PBC_OP_BIT(DXGK_OPERATION_SIGNAL_MONITORED_FENCE) | PBC_OP_BIT(DXGK_OPERATION_NOTIFY_FENCE_RESIDENCY) |  \
     PBC_OP_BIT(DXGK_OPERATION_MAP_MMU) | PBC_OP_BIT(DXGK_OPERATION_UNMAP_MMU) |                          \
     PBC_OP_BIT(DXGK_OPERATION_NOTIFY_RESIDENCY2) | PBC_OP_BIT(DXGK_OPERATION_NOTIFY_ALLOC) |              \
     PBC_OP_BIT(DXGK_OPERATION_MAP_APERTURE_SEGMENT2) | PBC_OP_BIT(DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES) | \
     PBC_OP_BIT(DXGK_OPERATION_INIT_CONTEXT_RESOURCE) | PBC_OP_BIT(DXGK_OPERATION_UPDATE_CONTEXT_ALLOCATION) | \
     PBC_OP_BIT(DXGK_OPERATION_NOTIFY_RESIDENCY))
#define REF_TARGET_FIELDS(nm, summary_text, min_dma, priv_size, create, destroy, create_alloc, build, patch_fn, \
                          submit_fn)                                                                           \
    REF_TARGET_FIELDS_ALLOC(nm, summary_text, min_dma, priv_size, create, destroy, create_alloc,              \
                            ref_destroy_allocation, build, patch_fn, submit_fn)
/* The same for a builder that also destroys its allocations itself. */
#define REF_TARGET_FIELDS_ALLOC(nm, summary_text, min_dma, priv_size, create, destroy, create_alloc, destroy_alloc, \
                                build, patch_fn, submit_fn)                                                       \
    REF_TARGET_FIELDS_OPS(REF_OPERATIONS, nm, summary_text, min_dma, priv_size, create, destroy, create_alloc,    \
                          destroy_alloc, build, patch_fn, submit_fn)
/* The same with the operations it declares (REF_OPERATIONS_GPUMMU). */
#define REF_TARGET_FIELDS_OPS(ops, nm, summary_text, min_dma, priv_size, create, destroy, create_alloc, destroy_alloc, \
                              build, patch_fn, submit_fn)                                                        \
    .abi_version = PBC_TARGET_ABI_VERSION, .struct_size = sizeof(pbc_target), .name = nm,                     \
    .summary = summary_text, .isa = &ref_isa, .min_dma_size = min_dma, .private_data_size = priv_size,         \
    .supported_operations = ops, .create_adapter = create, .destroy_adapter = destroy,              \
    .create_allocation = create_alloc, .destroy_allocation = destroy_alloc,                                    \
    .build_paging_buffer = build, .patch = patch_fn, .submit_command = submit_fn,                            \
    .context_update_data = ref_context_update_data

/* An adapter declaration whose PageTableUpdateMode is GPU_VIRTUAL, for
 * builders layered on the reference that take updates that way. */
extern const pbc_adapter_decl ref_decl_gpu_virtual;

NTSTATUS ref_create_adapter(const pbc_adapter_info *info, HANDLE *adapter);
uint32_t ref_context_update_data(HANDLE adapter, HANDLE allocation, void *buf, uint32_t capacity);
void ref_destroy_adapter(HANDLE adapter);
NTSTATUS ref_create_allocation(HANDLE adapter, const pbc_allocation_info *info,
                               HANDLE *allocation);
void ref_destroy_allocation(HANDLE adapter, HANDLE allocation);
NTSTATUS APIENTRY ref_build_paging_buffer(IN_CONST_HANDLE adapter,
                                          IN_PDXGKARG_BUILDPAGINGBUFFER args);
NTSTATUS APIENTRY ref_patch(IN_CONST_HANDLE adapter, const DXGKARG_PATCH *args);
NTSTATUS APIENTRY ref_submit_command(IN_CONST_HANDLE adapter, const DXGKARG_SUBMITCOMMAND *args);

/* For builders layered on the reference. */
const pbc_host *ref_adapter_host(HANDLE adapter);
int ref_allocation_needs_idle(HANDLE allocation);
uint64_t ref_allocation_size(HANDLE allocation);
/* Makes a record ref_create_allocation returned (and the builder kept
 * after destroy_allocation, as drivers keep them on a lookaside list)
 * describe a new allocation: the same hAllocation for another allocation. */
void ref_allocation_reuse(HANDLE allocation, const pbc_allocation_info *info);

#ifdef __cplusplus
}
#endif

#endif
