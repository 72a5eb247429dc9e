/*
 * mem.h — sparse modeled memory: 4 KiB pages keyed by physical page
 * number, created on first write. The list of touched pages is the dirty
 * set: reset and comparison cost follows it, not modeled memory size.
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

typedef struct pbc_page {
    uint64_t ppn;
    uint8_t *data;
    pbc_prov prov;
    uint32_t epoch; /* the change-log epoch of its last logged write */
} pbc_page;

typedef struct pbc_mem {
    uint64_t *keys;   /* ppn + 1; 0 marks an empty slot */
    uint32_t *slots;  /* index into pages */
    uint32_t cap;     /* power of two */
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
} pbc_mem;

void pbc_mem_init(pbc_mem *m);
void pbc_mem_fini(pbc_mem *m);
/* Forgets every page; costs O(touched pages). Page buffers are kept. */
void pbc_mem_reset(pbc_mem *m);
/* The page, or NULL if it was never written (it then reads as zeros). */
pbc_page *pbc_mem_find(const pbc_mem *m, uint64_t ppn);
/* Copies n bytes from physical address addr, as the pages hold them
 * (pages never written read as zeros). */
void pbc_mem_read(const pbc_mem *m, uint64_t addr, void *out, uint64_t n);
/* The page, created zero-filled if needed. */
pbc_page *pbc_mem_touch(pbc_mem *m, uint64_t ppn);
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
