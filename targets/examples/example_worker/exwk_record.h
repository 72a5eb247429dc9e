/*
 * exwk_record.h — the "ExWorker" paging-buffer format: each operation is
 * one record, a marker header followed by a verbatim copy of the
 * DXGKARG_BUILDPAGINGBUFFER the driver was handed, then (from
 * EXWK_RECORD_SIZE on) the items of the array the operation points at,
 * when it has one. The GPU acts on no record but FlushTlb's (the driver's
 * worker thread does the rest), so the decoder (exwk_isa.c) executes each
 * one as a NOP of its length, and a FlushTlb record as the flush.
 */
#ifndef EXWK_RECORD_H
#define EXWK_RECORD_H

#include <pbcheck/isa.h>
#include <pbcheck/wdk/dispmprt.h>

#define EXWK_RECORD_MAGIC 0x4357584Bu /* "KXWC" */

typedef struct _EXWK_RECORD_HEADER {
    UINT Magic;
    UINT Length; /* bytes, header and items included, a multiple of 8 */
} EXWK_RECORD_HEADER;

/* A record without items. */
#define EXWK_RECORD_SIZE \
    ((sizeof(EXWK_RECORD_HEADER) + sizeof(DXGKARG_BUILDPAGINGBUFFER) + 7) & ~(size_t)7)

/* The decoder pbcheck runs ExWorker buffers with (exwk_isa.c). */
extern const pbc_isa exwk_isa;

#endif
