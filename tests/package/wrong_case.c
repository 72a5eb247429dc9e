/*
 * Driver sources written on Windows name headers in any case: exgpu_hw.h
 * included as EXGPU_HW.H. pbcheck_add_target(CASE_INSENSITIVE_INCLUDES)
 * generates the forwarding header that makes this compile on Linux.
 */
#include "EXGPU_HW.H"

uint64_t exgpu_copy_header(uint32_t bytes) { return exgpu_header(EXGPU_OP_COPY, EXGPU_LEN_COPY, bytes); }
