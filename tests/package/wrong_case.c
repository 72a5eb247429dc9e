/*
 * Driver sources written on Windows name headers in any case: exgpu_hw.h
 * included as EXGPU_HW.H, pbcheck's dispmprt.h as Dispmprt.h.
 * pbcheck_add_target(CASE_INSENSITIVE_INCLUDES) generates the forwarding
 * headers that make this compile on Linux.
 */
#include <Dispmprt.h>

#include "EXGPU_HW.H"

uint64_t exgpu_copy_header(uint32_t bytes) { return exgpu_header(EXGPU_OP_COPY, EXGPU_LEN_COPY, bytes); }
