/*
 * isa.h — the GPU model's micro-ops and the ISA-decoder ABI.
 *
 * The GPU model executes a small, ISA-independent set of micro-ops. A
 * vendor teaches the model its command format by writing one decoder that
 * turns packets into micro-ops; the same decoder powers `pbcheck disasm`.
 * A decoder never owns memory and never reads outside the view it is given.
 */
#ifndef PBCHECK_ISA_H
#define PBCHECK_ISA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PBC_ISA_ABI_VERSION 1u

typedef enum pbc_uop_kind {
    PBC_UOP_NOP = 0,
    PBC_UOP_COPY,       /* size bytes from src to dst */
    PBC_UOP_FILL,       /* 32-bit value repeated over size bytes at dst */
    PBC_UOP_WRITE_IMM,  /* width (1..8) bytes of value, little-endian, at dst */
    PBC_UOP_READ,       /* width (1..8) bytes at dst; the value is discarded */
    PBC_UOP_GART_WRITE, /* aperture segment's entry index := {valid, value, flags} */
    PBC_UOP_FENCE,      /* fence value completes */
    PBC_UOP_PTE_WRITE,  /* one page-table entry at dst, pte_size bytes of value then index,
                           little-endian: for DXGK_PTE (16 bytes) the flags quadword, then
                           the page number; for an 8-byte entry, value alone */
    PBC_UOP_TLB_FLUSH,  /* cached translations of address space `value` (its root table's
                           physical address; 0: every space) for [dst, dst+size) are
                           dropped (size 0: the whole space) */
    PBC_UOP_KIND_COUNT
} pbc_uop_kind;

/* GART_WRITE flags. */
#define PBC_GART_VALID 0x1u
#define PBC_GART_CACHE_COHERENT 0x2u

/* Address spaces (ABI 1, appended): by default every address is a GPU
 * physical address (docs/reference-isa.md has the modeled address map).
 * A decoder sets these in `flags` of COPY, FILL, WRITE_IMM, READ and
 * PTE_WRITE for an address that is GPU virtual instead: the GPU
 * translates it through the page tables of the current address space and
 * its TLB (docs/architecture.md, "gpu/"). */
#define PBC_UOP_DST_VIRTUAL 0x100u /* dst is a GPU virtual address */
#define PBC_UOP_SRC_VIRTUAL 0x200u /* src (COPY) is a GPU virtual address */
typedef struct pbc_uop {
    uint32_t kind;    /* pbc_uop_kind */
    uint32_t width;   /* WRITE_IMM, READ */
    uint64_t dst;     /* COPY, FILL, WRITE_IMM, READ, PTE_WRITE; TLB_FLUSH first address */
    uint64_t src;     /* COPY */
    uint64_t size;    /* COPY, FILL; TLB_FLUSH bytes (0: all) */
    uint64_t value;   /* FILL pattern, WRITE_IMM value, FENCE id, PTE_WRITE flags quadword,
                         GART_WRITE target page address, TLB_FLUSH root table address */
    uint64_t index;   /* GART_WRITE page index inside the aperture segment; PTE_WRITE the
                         entry's second quadword (PageAddress / PageTableAddress) */
    uint32_t segment; /* GART_WRITE aperture SegmentId */
    uint32_t flags;   /* GART_WRITE PBC_GART_*; access micro-ops PBC_UOP_*_VIRTUAL */
} pbc_uop;

typedef enum pbc_decode_status {
    PBC_DECODE_OK = 0,
    PBC_DECODE_FAULT = 1
} pbc_decode_status;

/* Decodes one page-table entry in the GPU's own format (pbc_isa.pte_decode). */
typedef int pbc_pte_decode_fn(const uint8_t *entry, uint32_t level, uint64_t *flags, uint64_t *page);

typedef struct pbc_isa {
    uint32_t abi_version; /* PBC_ISA_ABI_VERSION */
    uint32_t struct_size; /* sizeof(pbc_isa) */
    const char *name;
    /* Decodes the packet at bytes[0, avail), avail > 0. On PBC_DECODE_OK,
     * fills *uop and sets *length to the packet size, 0 < *length <= avail.
     * On PBC_DECODE_FAULT (unknown opcode, truncated or malformed packet),
     * sets *why to a static string; the GPU stops that submission. Must
     * never read outside bytes[0, avail). */
    pbc_decode_status (*decode)(const uint8_t *bytes, size_t avail, pbc_uop *uop,
                                size_t *length, const char **why);
    /* Writes one NUL-terminated line describing the packet at bytes[0, avail)
     * into line[0, line_size). Returns the packet size, or 0 when the packet
     * cannot be decoded (line then says why). */
    size_t (*disasm)(const uint8_t *bytes, size_t avail, char *line, size_t line_size);
    /* ---- appended (a smaller struct_size gets the defaults) ----
     * The GPU's own page-table entry format. The MMU reads an entry's
     * pte_size bytes from its table (entry i of a table at table +
     * i * pte_size) and hands them to pte_decode, which says what they
     * mean in DXGK_PTE's terms. Tables have 512 entries (a leaf of
     * 64 KiB pages 32) at every level; pt_levels says how many levels
     * (docs/writing-a-target.md, "Page tables"). */
    uint32_t pte_size; /* 8 or 16; 0: 16, DXGK_PTE as it is */
    /* Decodes the entry at entry[0, pte_size) of a table of `level` (2
     * the root, 0 a leaf) into *flags, the DXGK_PTE flag quadword (Valid,
     * Zero, CacheCoherent, ReadOnly, NoExecute, Segment, LargePage,
     * PageTablePageSize: PBC_PTE_* in docs/reference-isa.md), and *page,
     * the page number (PageAddress or PageTableAddress). Returns 0, or -1
     * for an entry the hardware would reject (the access faults). NULL
     * (default): entries are DXGK_PTE. */
    pbc_pte_decode_fn *pte_decode;
    /* Levels of page tables (DXGK_GPUMMUCAPS::PageTableLevelCount): 3
     * (39-bit GPU virtual addresses) or 4 (48-bit); 0: 3. Level 0 is the
     * leaf, level pt_levels - 1 the root. */
    uint32_t pt_levels;
} pbc_isa;

/* Size of the pbc_isa without the page-table entry format. */
#define PBC_ISA_SIZE_BASE offsetof(pbc_isa, pte_size)

/* The entry size, levels and decoder of an ISA, defaults included. */
static inline uint32_t pbc_isa_pte_size(const pbc_isa *isa)
{
    uint32_t n = isa->struct_size >= offsetof(pbc_isa, pte_size) + sizeof(uint32_t) ? isa->pte_size : 0;
    return n ? n : 16u;
}

static inline uint32_t pbc_isa_pt_levels(const pbc_isa *isa)
{
    uint32_t n = isa->struct_size >= offsetof(pbc_isa, pt_levels) + sizeof(uint32_t) ? isa->pt_levels : 0;
    return n ? n : 3u;
}

static inline pbc_pte_decode_fn *pbc_isa_pte_decode(const pbc_isa *isa)
{
    return isa->struct_size >= offsetof(pbc_isa, pte_decode) + sizeof(isa->pte_decode) ? isa->pte_decode : NULL;
}

#ifdef __cplusplus
}
#endif

#endif
