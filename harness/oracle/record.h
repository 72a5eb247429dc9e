/*
 * record.h — what one run leaves for the oracle to judge: the findings the
 * rules recorded, the byte ranges whose content the DDI leaves undefined
 * (masks, each with its reason), which call wrote which bytes of which
 * paging buffer, every submission, and which allocation owns which system
 * page. The VidMm model fills it; the oracle and the reports read it.
 */
#ifndef PBCHECK_RECORD_H
#define PBCHECK_RECORD_H

#include <stdint.h>

#include "gpu/gpu.h"
#include "rules/rules.h"

/* A byte range of GPU physical memory whose content the DDI leaves
 * undefined; the oracle ignores it. */
typedef struct pbc_mask {
    uint64_t start, end;
    const char *reason;
} pbc_mask;

/* Bytes [start, end) of paging buffer `buffer` were written by one call. */
typedef struct pbc_write_rec {
    uint32_t buffer, start, end;
    uint32_t op, sub, pass, call;
} pbc_write_rec;

/* One Patch+SubmitCommand of part of a paging buffer. */
typedef struct pbc_submission {
    uint32_t buffer;
    uint32_t fence;
    uint32_t start, end;
    uint64_t phys;         /* the buffer's start, in segment `segment` (0: system memory) */
    uint32_t segment;
    uint32_t pool_offset;  /* where the buffer's bytes are in the paging-buffer pool */
    uint32_t queue_seq;    /* GPU queue entry of its last piece, once rung */
    uint32_t rung;         /* pieces rung */
    uint32_t covered;      /* buffer offset the pieces rung so far reach */
    uint32_t completed;
    uint32_t fenced_inside;/* its fence was written by its own last piece */
    uint64_t bytes_hash;   /* XXH3 of [start, end) when SubmitCommand returned */
    uint64_t work_at_fence;/* the GPU's work counter when that fence was written */
} pbc_submission;

/* The frames of an MDL VidMm made for an allocation (its first `lead`
 * frames are foreign pages ahead of it): runs [first_run, +run_count) of
 * the record's frame_runs. */
typedef struct pbc_page_owner {
    uint32_t alloc, lead;
    uint32_t first_run, run_count;
    uint64_t total;
} pbc_page_owner;

/* An allocation's frames at the end of the run, likewise (run_count 0:
 * not in system memory). */
typedef struct pbc_pfn_span {
    uint32_t first_run, run_count;
    uint64_t total;
} pbc_pfn_span;

/* One page of an image: one stream as memory held it (described), or its
 * bytes, at `at` in the image's byte store. */
typedef struct pbc_image_page {
    pbc_desc d;
    uint32_t described, at;
} pbc_image_page;

/* A context allocation's content as this run left it once the work of
 * operation `op` (InitContextResource or UpdateContextAllocation) had run,
 * or (before) just before the operation: bytes [lo, hi) of allocation
 * `alloc` (lo on a page of the allocation), a page at a time, described
 * where memory held a page as one stream, so that an image costs what its
 * pages' bytes cost. The content oracle carries the first through the
 * allocation's later moves, and holds the second to the history up to
 * the operation. */
typedef struct pbc_image {
    uint32_t op, alloc;
    uint32_t before;
    uint64_t lo, hi;
    pbc_image_page *pages;
    uint8_t *bytes;
    uint32_t byte_count, byte_cap;
} pbc_image;

typedef struct pbc_record {
    pbc_findings findings;
    pbc_mask *masks;
    uint32_t mask_count, mask_cap;
    pbc_write_rec *writes;
    uint32_t write_count, write_cap;
    pbc_submission *subs;
    uint32_t sub_count, sub_cap;
    pbc_page_owner *owners; /* every MDL made in the run, for naming a system page */
    uint32_t owner_count, owner_cap;
    /* Where each allocation's system pages are at the end of the run: the
     * page frames of its MDL (leading foreign pages included), as runs
     * (pbc_record_alloc_frames_of). */
    pbc_pfn_span *alloc_pfns;
    uint32_t alloc_pfn_count, alloc_pfn_cap;
    pbc_frame_run *frame_runs; /* the runs of owners and alloc_pfns */
    uint32_t frame_run_count, frame_run_cap;
    pbc_pool_order pool;       /* the pool order of those runs */
    pbc_image *images; /* context images, in operation order */
    uint32_t image_count, image_cap;
    uint64_t exec_hash; /* XXH3 chain over every micro-op decoded from paging buffers */
    char *log;          /* the builder's DbgPrint output in the run, NUL-ended */
    size_t log_len, log_cap;
    uint32_t calls, buffers, busy_retries, insufficient;
    uint64_t private_peak; /* the most private-data bytes live at once (buffers not yet retired) */
    uint32_t unsupported_op; /* 1 + the index of the first unsupported op, else 0 */
    uint32_t stopped;        /* a finding ended the scenario early */
    uint32_t ops_done;
} pbc_record;

void pbc_record_init(pbc_record *r);
void pbc_record_fini(pbc_record *r);
/* Empties the record for the next run; keeps its arrays. */
void pbc_record_clear(pbc_record *r);

/* [start, end) is undefined from now on, for `reason` (a static string). */
void pbc_record_mask_add(pbc_record *r, uint64_t start, uint64_t end, const char *reason);
/* Defined content was written to [start, end): it is no longer masked. */
void pbc_record_mask_clear(pbc_record *r, uint64_t start, uint64_t end);

/* A new image of bytes [lo, hi) of context allocation `alloc` after
 * (before: before) operation `op`, its pages to be filled by the caller
 * (pbc_image_page_bytes for a page kept as bytes). The pointer lasts
 * until the next image. */
pbc_image *pbc_record_image(pbc_record *r, uint32_t op, uint32_t alloc, int before, uint64_t lo, uint64_t hi);
/* Room for the bytes of page k of im (its length), which is then kept as bytes. */
uint8_t *pbc_image_page_bytes(pbc_image *im, uint32_t k, uint32_t len);
/* Bytes [off, off+n) of the image, allocation offsets within one page of it. */
void pbc_image_read(const pbc_image *im, uint64_t off, uint8_t *out, uint32_t n);
/* The image taken after (before: before) operation `op`, NULL when none was. */
const pbc_image *pbc_record_image_of(const pbc_record *r, uint32_t op, int before);

/* Keeps a copy of the builder's DbgPrint output of the run. */
void pbc_record_set_log(pbc_record *r, const char *text, size_t len);

/* An MDL VidMm made for allocation `alloc`, its first `lead` frames foreign. */
void pbc_record_owner_add(pbc_record *r, const pbc_frames *frames, uint32_t alloc, uint32_t lead);
/* Which allocation's MDL holds frame ppn: 1 and *alloc, *page (< 0: a
 * foreign page ahead of it), else 0. */
int pbc_record_owner_of(const pbc_record *r, uint64_t ppn, uint32_t *alloc, int64_t *page);
/* Allocation `alloc`'s MDL frames at the end of the run. */
void pbc_record_alloc_frames(pbc_record *r, uint32_t alloc, const pbc_frames *frames);
/* A view of them (valid until the record changes): 0 when the allocation
 * was not in system memory at the end. */
int pbc_record_alloc_frames_of(const pbc_record *r, uint32_t alloc, pbc_frames *view);

/* The paging buffer and the offset in it of byte `offset` of GPU queue
 * entry `submission` (a rung piece); -1 when that entry is no paging
 * buffer piece. */
int pbc_record_locate(const pbc_record *r, const pbc_gpu *gpu, uint32_t submission, uint32_t offset,
                      uint32_t *buffer, uint64_t *buffer_offset);

/* The packet at `offset` of GPU queue entry `submission`, disassembled by
 * the GPU's ISA into line; -1 when the entry is no paging-buffer piece or
 * its buffer no longer holds the bytes it was submitted with (the pool
 * was reused later in the run). */
int pbc_record_disasm(const pbc_record *r, const pbc_gpu *gpu, uint32_t submission, uint32_t offset,
                      char *line, size_t line_size);

/* The same packet decoded by the GPU's ISA into *uop, with where its bytes
 * are in the paging-buffer pool (*pool_at, from gpu->dma_pool) and its
 * length; -1 as pbc_record_disasm, or when it does not decode. */
int pbc_record_packet(const pbc_record *r, const pbc_gpu *gpu, uint32_t submission, uint32_t offset, pbc_uop *uop,
                      uint32_t *pool_at, uint32_t *length);

/* Which scenario operation, sub-transfer and pass produced the packet at
 * `offset` of GPU queue entry `submission` (from a page's provenance). */
const pbc_write_rec *pbc_record_find_write(const pbc_record *r, const pbc_gpu *gpu,
                                           uint32_t submission, uint32_t offset);

#endif
