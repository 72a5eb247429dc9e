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

NTSTATUS ref_create_adapter(const pbc_adapter_info *info, HANDLE *adapter);
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

#ifdef __cplusplus
}
#endif

#endif
