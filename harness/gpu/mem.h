/*
 * mem.h — sparse modeled memory: 4 KiB pages keyed by physical page
 * number, created on first write. The list of touched pages is the dirty
 * set: reset and comparison cost follows it, not modeled memory size.
 *
 * A page holds bytes, or a description of them that costs nothing until
 * someone needs the bytes: a window of an allocation's initial content
 * stream, or of a fill pattern, or zeros. Copying a described page copies
 * its description, so a scenario's cost follows the pages it changes
 * byte by byte, not the size of its allocations.
 *
 * Beneath the pages lies the base: extents of pages that hold a
 * description before anyone writes them (an allocation's initial content
 * where VidMm put it), one record however many pages they cover. A page
 * is made from the base when first written; until then it is read, diffed
 * and digested from its extent, so untouched memory costs O(1) per extent.
 * Extents are physical (a run of page numbers) or in the system pool's
 * order (a run of pool indexes, whose frames are scattered).
 */
#ifndef PBCHECK_MEM_H
#define PBCHECK_MEM_H

#include <stddef.h>
#include <stdint.h>

#define PBC_PAGE_SIZE 4096u
#define PBC_PAGE_SHIFT 12u

/* Who wrote a page last. */
typedef enum pbc_writer {
    PBC_WRITER_NONE = 0,
    PBC_WRITER_INIT,   /* scenario's initial content */
    PBC_WRITER_PAGING, /* a micro-op decoded from a paging buffer */
    PBC_WRITER_RENDER, /* synthetic render work */
    PBC_WRITER_SPEC,   /* the spec model */
    PBC_WRITER_CPU     /* a builder's CPU access through the WDK shim */
} pbc_writer;

typedef struct pbc_prov {
    uint32_t submission;    /* GPU queue entry sequence number, 1-based */
    uint32_t packet_offset; /* offset of the packet in its DMA buffer */
    uint32_t packet_index;  /* index of the packet in its submission */
    uint16_t uop;           /* pbc_uop_kind */
    uint16_t writer;        /* pbc_writer */
    uint32_t call;          /* CPU writes: the DDI call (BuildPagingBuffer count), 0 for CPU work */
    uint32_t op;            /* CPU writes: the scenario operation, UINT32_MAX if none */
} pbc_prov;

/* An allocation's initial content: the little-endian dword at byte offset
 * 4*index of an allocation (or foreign MDL page) with this seed. Inline:
 * content is made and checked a page at a time, and loops over it
 * vectorize only when they see the function. */
static inline uint32_t pbc_content_key(uint32_t seed, uint32_t high)
{
    return seed * 0x85EBCA77u ^ high * 0xC2B2AE3Du ^ 0x27D4EB2Fu;
}
static inline uint32_t pbc_content_mix(uint32_t key, uint32_t low)
{
    /* 32-bit arithmetic only, so that making a page of it vectorizes:
     * for one seed and one 16 GiB window every dword differs (the odd
     * multiply and the finalizer are bijections). */
    uint32_t x = low * 0x9E3779B1u ^ key;
    x ^= x >> 16;
    x *= 0x7FEB352Du;
    x ^= x >> 15;
    x *= 0x846CA68Bu;
    return x ^ (x >> 16);
}
static inline uint32_t pbc_content_word(uint32_t seed, uint64_t index)
{
    return pbc_content_mix(pbc_content_key(seed, (uint32_t)(index >> 32)), (uint32_t)index);
}
/* Words first .. first+count-1 of content with this seed, little-endian
 * into out (any alignment). */
void pbc_content_words(uint32_t seed, uint64_t first, uint8_t *out, uint32_t count);

/* What a page holds: byte j is byte (pos + j) of a stream. */
typedef enum pbc_page_kind {
    PBC_PAGE_BYTES = 0, /* the page's data */
    PBC_PAGE_ZERO,      /* zeros */
    PBC_PAGE_CONTENT,   /* initial content: stream byte b is byte b % 4 of pbc_content_word(value, b / 4) */
    PBC_PAGE_PATTERN    /* a fill: stream byte b is byte b % 4 of the 32-bit pattern `value` */
} pbc_page_kind;

typedef struct pbc_desc {
    uint32_t kind;  /* pbc_page_kind, never BYTES */
    uint32_t value; /* CONTENT: the seed; PATTERN: the pattern */
    uint64_t pos;   /* stream offset of the page's byte 0 (PATTERN: taken mod 4) */
} pbc_desc;

/* A page holds one description, or two that meet at `split` (a transfer
 * whose destination is not page-aligned fills each page from two packets:
 * the page is two streams until the second makes it one again). */
typedef struct pbc_page {
    uint64_t ppn;
    uint8_t *data;   /* its buffer once it held bytes this run: the bytes when desc.kind is PBC_PAGE_BYTES */
    pbc_desc desc;   /* bytes [0, split) or the whole page when split is 0 */
    pbc_desc tail;   /* bytes [split, 4 KiB) when split is not 0; pos is that of byte `split` */
    uint32_t split;
    pbc_prov prov;
    uint32_t epoch; /* the change-log epoch of its last logged write */
} pbc_page;

/* An extent of the base: pages first .. first+count-1 (page numbers, or
 * pool indexes) hold d moved along one page for each page. */
typedef struct pbc_extent {
    uint64_t first, count;
    pbc_desc d;    /* of its first page */
    pbc_prov prov; /* who laid it */
} pbc_extent;

/* The system pool's order: pool index i is frame base + (i * mult & mask). */
typedef struct pbc_pool_order {
    uint64_t base, mask, mult, mult_inv;
} pbc_pool_order;

typedef struct pbc_mem {
    /* The index from page number to page (mem.c): a directory of leaves,
     * the last leaf found, and leaves kept for reuse. */
    uint64_t *dir_keys;
    uint32_t **dir_leaves;
    uint32_t dir_cap, dir_count;
    uint64_t last_key;
    uint32_t *last_leaf;
    uint32_t **free_leaves;
    uint32_t free_count, free_cap;
    /* Data buffers of pages that held bytes, back from the last reset: a
     * run takes them before it allocates, so memory and allocations follow
     * the most pages one run wrote in pieces, not every page ever seen. */
    uint8_t **spare;
    uint32_t spare_count, spare_cap;
    /* Pages given a data buffer since the last reset: what this run holds
     * as bytes (each page gets at most one buffer a run). */
    uint32_t data_count;
    /* The most pages a run may give a data buffer, 0 for no limit (the
     * fuzz targets' budget: PBC_FUZZ_MAX_BYTE_PAGES). A write that would
     * make one more page of bytes is dropped and `over` set: memory no
     * longer holds what was written, so whoever set the budget stops the
     * run and judges nothing of it. Reset clears `over`. */
    uint32_t data_budget;
    int over;
    pbc_page *pages;  /* touched pages, in first-touch order */
    uint32_t count;
    uint32_t pages_cap;
    /* The change log, kept only while watched (CPU views exist): the
     * pages written since the last pbc_mem_new_epoch, each once, as
     * indexes into pages. Costs one compare per write when unwatched. */
    int watched;
    uint32_t epoch;
    uint32_t *changed;
    uint32_t changed_count, changed_cap;
    /* The base: physical extents (sorted by first page and apart once
     * `ext_sorted`) and pool extents (in pool order: they are laid as the
     * pool hands frames out). Extents never overlap: a newer one cuts
     * what it covers out of the older. */
    pbc_extent *ext, *pool_ext;
    uint32_t ext_count, ext_cap, pool_count, pool_cap;
    int ext_sorted, pool_sorted;
    pbc_pool_order pool;
    /* The pool indexes of the written pages in the pool's window, sorted,
     * as of the first `pool_written_of` pages (pbc_mem_pool_run). */
    uint64_t *pool_written;
    uint32_t pool_written_count, pool_written_cap, pool_written_of;
} pbc_mem;

void pbc_mem_init(pbc_mem *m);
void pbc_mem_fini(pbc_mem *m);
/* Forgets every page; costs O(touched pages). Page buffers are kept. */
void pbc_mem_reset(pbc_mem *m);
/* The page, or NULL if it was never written (it then reads as its base
 * says: pbc_mem_get). */
pbc_page *pbc_mem_find(const pbc_mem *m, uint64_t ppn);
/* What page ppn holds: the page if written, else its base laid into tmp
 * (a described page without bytes), else NULL (zeros). */
const pbc_page *pbc_mem_get(const pbc_mem *m, uint64_t ppn, pbc_page *tmp);
/* The base's description of page ppn: 1 and *d (and *prov when not NULL),
 * or 0 when no extent covers it (zeros). */
int pbc_mem_base_at(const pbc_mem *m, uint64_t ppn, pbc_desc *d, pbc_prov *prov);
/* Lays pages ppn .. ppn+count-1 as d (moved one page along for each
 * page), written pages there included: O(extents + written pages). */
void pbc_mem_lay(pbc_mem *m, uint64_t ppn, uint64_t count, const pbc_desc *d, const pbc_prov *prov);
/* The same for pool indexes index .. index+count-1. */
void pbc_mem_lay_pool(pbc_mem *m, uint64_t index, uint64_t count, const pbc_desc *d, const pbc_prov *prov);
/* Sets the pool's order (before any pool extent is laid). */
void pbc_mem_set_pool(pbc_mem *m, const pbc_pool_order *order);
/* How many pages from ppn on (at most max) are unwritten and lie in one
 * physical extent, *d describing page ppn: 0 when ppn is written or no
 * physical extent covers it. For whoever judges untouched memory a run at
 * a time. */
uint64_t pbc_mem_base_run(const pbc_mem *m, uint64_t ppn, uint64_t max, pbc_desc *d);
/* The same for pool indexes: how many from `index` on (at most max) have
 * unwritten frames and lie in one pool extent, *d describing the first.
 * O(log) once the written pages are indexed (O(written) after new ones). */
uint64_t pbc_mem_pool_run(const pbc_mem *m, uint64_t index, uint64_t max, pbc_desc *d);
/* Whether the two bases are the same extents. */
int pbc_mem_same_base(const pbc_mem *a, const pbc_mem *b);
/* Copies n bytes from physical address addr, as the pages hold them
 * (pages never written read as zeros). */
void pbc_mem_read(const pbc_mem *m, uint64_t addr, void *out, uint64_t n);
/* The page, created holding what its base says (described, no bytes yet)
 * if needed. */
pbc_page *pbc_mem_touch(pbc_mem *m, uint64_t ppn);
/* Whether the page may hold bytes: it has a data buffer, or the run is
 * within its budget of them (else `over` is set, and the caller drops the
 * write). Every write that makes bytes asks first. */
static inline int pbc_mem_may_hold_bytes(pbc_mem *m, const pbc_page *pg)
{
    if (pg->data || !m->data_budget || m->data_count < m->data_budget)
        return 1;
    m->over = 1;
    return 0;
}
/* The page's bytes, made from its description first if it has one: for
 * whoever writes part of a page. */
uint8_t *pbc_mem_bytes(pbc_mem *m, pbc_page *pg);
/* A page's data buffer for bytes about to be written whole. */
uint8_t *pbc_mem_data(pbc_mem *m, pbc_page *pg);
/* Writes bytes [off, off+n) of what d describes (d->pos: the stream offset
 * of byte off) into the page: kept as descriptions while the page stays
 * at most two streams, else made bytes. */
void pbc_mem_write_desc(pbc_mem *m, pbc_page *pg, uint32_t off, uint32_t n, const pbc_desc *d);
/* 1 and *d when page bytes [off, off+n) are one stream (never-written
 * pages are zeros); 0 when they must be read as bytes. */
int pbc_mem_desc_at(const pbc_page *pg, uint32_t off, uint32_t n, pbc_desc *d);
/* 1 and *d when bytes [off, off+n) of page ppn are one stream as memory
 * holds them (an unwritten page as its base says, else zeros); 0 when
 * only their bytes can tell. */
int pbc_mem_desc_in(const pbc_mem *m, uint64_t ppn, uint32_t off, uint32_t n, pbc_desc *d);
/* Whether bytes [0, n) of page ppn go on with stream d from `by` bytes
 * past d's start (the second page of a piece that crosses a page). */
int pbc_mem_desc_goes_on(const pbc_mem *m, uint64_t ppn, uint32_t n, const pbc_desc *d, uint32_t by);
/* 1 and *d when bytes [addr, addr+n) (n at most 4 KiB: at most two
 * pages) are one stream as memory holds them; 0 when only their bytes can
 * tell. */
int pbc_mem_desc_range(const pbc_mem *m, uint64_t addr, uint32_t n, pbc_desc *d);
/* The page is one description (no bytes, no split): *d. */
static inline int pbc_page_single(const pbc_page *pg)
{
    return pg->desc.kind != PBC_PAGE_BYTES && pg->split == 0;
}
/* The page's bytes without changing it: its data, or its description
 * written into scratch. */
const uint8_t *pbc_mem_view(const pbc_page *pg, uint8_t scratch[PBC_PAGE_SIZE]);
/* Writes bytes [off, off+n) of what d describes into out. */
void pbc_desc_read(const pbc_desc *d, uint32_t off, uint8_t *out, uint32_t n);
/* 1 when the description is plainly of a page of zeros (zeros, or a
 * pattern of 0); content is left to its bytes. */
static inline int pbc_desc_is_zero(const pbc_desc *d)
{
    return d->kind == PBC_PAGE_ZERO || (d->kind == PBC_PAGE_PATTERN && d->value == 0);
}
/* Two descriptions of the same bytes (patterns compare their phase). */
int pbc_desc_same(const pbc_desc *a, const pbc_desc *b);
/* d moved `by` bytes further along its stream. */
static inline pbc_desc pbc_desc_shift(const pbc_desc *d, uint64_t by)
{
    return (pbc_desc){d->kind, d->value, d->pos + by};
}
void pbc_mem_log_changed(pbc_mem *m, pbc_page *pg);
/* Every write to a page's data is followed by this: one compare on the
 * GPU's write path while nothing watches. */
static inline void pbc_mem_log_write(pbc_mem *m, pbc_page *pg)
{
    if (m->watched && pg->epoch != m->epoch)
        pbc_mem_log_changed(m, pg);
}
/* Starts or stops the change log (stopping forgets it). */
void pbc_mem_watch(pbc_mem *m, int on);
/* Forgets the changes logged so far; later writes are logged anew. */
void pbc_mem_new_epoch(pbc_mem *m);

#endif
