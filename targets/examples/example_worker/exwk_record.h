/*
 * exwk_record.h — the "ExWorker" paging-buffer format: each operation is
 * one record, a marker header followed by a verbatim copy of the
 * DXGKARG_BUILDPAGINGBUFFER the driver was handed. The GPU never acts on
 * a record (the driver's worker thread does), so the decoder
 * (exwk_isa.c) executes each one as a NOP of its length.
 */
#ifndef EXWK_RECORD_H
#define EXWK_RECORD_H

#include <pbcheck/isa.h>
#include <pbcheck/wdk/dispmprt.h>

#define EXWK_RECORD_MAGIC 0x4357584Bu /* "KXWC" */

typedef struct _EXWK_RECORD_HEADER {
    UINT Magic;
    UINT Length; /* bytes, header included, a multiple of 8 */
} EXWK_RECORD_HEADER;

#define EXWK_RECORD_SIZE \
    ((sizeof(EXWK_RECORD_HEADER) + sizeof(DXGKARG_BUILDPAGINGBUFFER) + 7) & ~(size_t)7)

/* The decoder pbcheck runs ExWorker buffers with (exwk_isa.c). */
extern const pbc_isa exwk_isa;

#endif
