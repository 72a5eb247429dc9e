/*
 * spec.h — the spec model: what one complete paging operation must do to
 * memory, computed from its DDI arguments alone (no DMA buffer, no ISA).
 * It checks the reference builder, so a bug in the reference cannot hide
 * a bug in a target.
 */
#ifndef PBCHECK_SPEC_H
#define PBCHECK_SPEC_H

#include <pbcheck/isa.h>
#include <pbcheck/wdk/d3dkmddi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Receives the micro-ops that realise the operation, in order. */
typedef void (*pbc_spec_sink)(void *ctx, const pbc_uop *uop);

/* Emits the effect of the whole operation described by args (its union and
 * Operation; DMA fields are ignored). Bytes the DDI leaves undefined
 * (discarded content, WritePhysical data) are not written: the caller
 * masks them. Returns 0, or -1 for an operation the spec does not model. */
int pbc_spec_apply(const DXGKARG_BUILDPAGINGBUFFER *args, pbc_spec_sink sink, void *ctx);

#ifdef __cplusplus
}
#endif

#endif
