/*
 * The model GPU's MMU: page tables in modeled memory (DXGK_PTE format, or
 * the GPU's own, which its ISA decodes),
 * a walker, and a TLB that keeps what it translated until a flush says
 * otherwise. Geometry and entry format: gpu.h, "GPU virtual memory".
 *
 * The TLB keeps every translation the GPU made (it never evicts), so a
 * builder that changes a valid entry and does not flush it is seen every
 * time: the GPU goes on using the old page, and memory shows it.
 * Translations that fault are not kept.
 */
#include "gpu/gpu.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#define MMU_PAGE ((uint64_t)PBC_PAGE_SIZE)

static uint64_t rd64le(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* The physical address an entry points at: an offset into its segment
 * (0: system memory). */
static int mmu_resolve(const pbc_gpu *gpu, uint64_t flags, uint64_t page, uint64_t span, uint64_t *out,
                       const char **why)
{
    uint32_t segment = (uint32_t)(flags >> PBC_PTE_SEGMENT_SHIFT & PBC_PTE_SEGMENT_MASK);
    if (page > (UINT64_MAX >> PBC_PAGE_SHIFT)) {
        *why = "page-table entry with a page number beyond the address space";
        return -1;
    }
    uint64_t off = page << PBC_PAGE_SHIFT;
    if (segment == 0) {
        *out = off;
        return 0;
    }
    const pbc_gpu_segment *s = pbc_gpu_segment_by_id(gpu, segment);
    if (!s) {
        *why = "page-table entry names a segment the adapter does not have";
        return -1;
    }
    if (off >= s->info.size || span > s->info.size - off) {
        *why = "page-table entry points beyond the end of its segment";
        return -1;
    }
    *out = s->info.base + off;
    return 0;
}

/* Entry `index` of the table of `level` at physical address `table`, in
 * DXGK_PTE's terms: as stored, or as the ISA decodes the GPU's own
 * format. */
static int mmu_entry(const pbc_gpu *gpu, uint64_t table, uint32_t index, uint32_t level, uint64_t *flags,
                     uint64_t *page, const char **why)
{
    uint32_t size = pbc_gpu_pte_size(gpu);
    uint64_t at = table + (uint64_t)index * size;
    if (!pbc_gpu_identity_range(gpu, at, size)) {
        *why = "page table outside memory";
        return -1;
    }
    uint8_t e[PBC_PTE_SIZE] = {0};
    pbc_mem_read(&gpu->mem, at, e, size);
    pbc_pte_decode_fn *decode = gpu->isa ? pbc_isa_pte_decode(gpu->isa) : NULL;
    if (decode) {
        *flags = *page = 0;
        if (decode(e, level, flags, page)) {
            *why = "page-table entry the GPU's format rejects";
            return -1;
        }
        return 0;
    }
    *flags = rd64le(e);
    *page = rd64le(e + 8);
    return 0;
}

int pbc_gpu_va_walk(const pbc_gpu *gpu, uint64_t root, uint64_t va, pbc_va_xlat *x, const char **why)
{
    return pbc_gpu_va_walk_memo(gpu, root, va, x, why, NULL);
}

int pbc_gpu_va_walk_memo(const pbc_gpu *gpu, uint64_t root, uint64_t va, pbc_va_xlat *x, const char **why,
                         pbc_va_walk_memo *m)
{
    memset(x, 0, sizeof(*x));
    if (!root) {
        *why = "GPU virtual access with no address space";
        return -1;
    }
    uint32_t levels = pbc_gpu_va_levels(gpu);
    if (va >> (PBC_PAGE_SHIFT + levels * PBC_VA_INDEX_BITS)) {
        *why = "GPU virtual address beyond the address space";
        return -1;
    }
    uint64_t table = root, flags = 0, page = 0, region = va >> (PBC_PAGE_SHIFT + PBC_VA_INDEX_BITS);
    uint32_t entries_64k = 0;
    int top = (int)levels - 1;
    if (m && m->valid && m->root == root && m->region == region) {
        table = m->leaf; /* the directories above are the ones the last walk read */
        entries_64k = m->entries_64k;
        top = 0;
    }
    for (int level = top; level >= 0; level--) {
        uint32_t shift = PBC_PAGE_SHIFT + (uint32_t)level * PBC_VA_INDEX_BITS;
        uint32_t index = (uint32_t)(va >> shift) & (PBC_PT_ENTRIES - 1);
        uint64_t span = 1ull << shift; /* what one entry of this level covers */
        if (level == 0 && entries_64k) {
            index = (uint32_t)(va >> 16) & (PBC_PT64_ENTRIES - 1);
            span = 1ull << 16;
        }
        if (mmu_entry(gpu, table, index, (uint32_t)level, &flags, &page, why))
            return -1;
        int maps_page = level == 0 || (flags & PBC_PTE_LARGE_PAGE);
        if (maps_page && (flags & PBC_PTE_ZERO)) {
            /* Valid or not, an access through a Zero entry of a page reads
             * zeros (DXGK_PTE: "unless the Zero flag is set"); a directory
             * entry has no zero page. */
            x->zero = 1;
            x->flags = flags;
            return 0;
        }
        if (!(flags & PBC_PTE_VALID)) {
            *why = level == 0 ? "page-table entry not valid" : "page-directory entry not valid";
            return -1;
        }
        uint64_t target;
        if (level > 0 && !(flags & PBC_PTE_LARGE_PAGE)) {
            entries_64k = level == 1 && (flags >> PBC_PTE_PT_PAGE_SIZE_SHIFT & PBC_PTE_PT_PAGE_SIZE_MASK) == 1;
            uint64_t next_size = (uint64_t)(entries_64k ? PBC_PT64_ENTRIES : PBC_PT_ENTRIES) * pbc_gpu_pte_size(gpu);
            if (mmu_resolve(gpu, flags, page, next_size, &target, why))
                return -1;
            table = target;
            if (m && level == 1)
                *m = (pbc_va_walk_memo){root, region, table, entries_64k, 1};
            continue;
        }
        if (mmu_resolve(gpu, flags, page, span, &target, why))
            return -1;
        if (target & (span - 1) & ~(MMU_PAGE - 1)) {
            *why = "large or 64 KiB page entry whose page is not aligned to its size";
            return -1;
        }
        x->page = target + (va & (span - 1) & ~(MMU_PAGE - 1));
        x->read_only = (flags & PBC_PTE_READ_ONLY) != 0;
        x->flags = flags;
        return 0;
    }
    *why = "page-table walk ended without a leaf";
    return -1;
}

/* ---- TLB ----
 * Entries in a dense array, found through an open-addressing index on
 * (root, vpn) that holds their positions + 1. Removing an entry deletes
 * its index slot by backward shift and moves the last entry into its
 * place, so reset, flush and walking the TLB cost what it holds now, not
 * the most it ever held. */

static uint32_t tlb_slot(uint64_t root, uint64_t vpn, uint32_t cap)
{
    uint64_t h = (root * 0x9E3779B97F4A7C15ull) ^ (vpn * 0xC2B2AE3D27D4EB4Full);
    h ^= h >> 29;
    return (uint32_t)h & (cap - 1);
}

/* The index slot of (root, vpn): its entry's, or the empty one where it
 * would go. */
static uint32_t tlb_index_slot(const pbc_gpu *gpu, uint64_t root, uint64_t vpn)
{
    uint32_t i = tlb_slot(root, vpn, gpu->tlb_index_cap);
    while (gpu->tlb_index[i]) {
        const pbc_tlb_entry *e = &gpu->tlb[gpu->tlb_index[i] - 1];
        if (e->root == root && e->vpn == vpn)
            break;
        i = (i + 1) & (gpu->tlb_index_cap - 1);
    }
    return i;
}

static pbc_tlb_entry *tlb_find(pbc_gpu *gpu, uint64_t root, uint64_t vpn)
{
    if (!gpu->tlb_count)
        return NULL;
    uint32_t pos = gpu->tlb_index[tlb_index_slot(gpu, root, vpn)];
    return pos ? &gpu->tlb[pos - 1] : NULL;
}

static void tlb_index_build(pbc_gpu *gpu, uint32_t cap)
{
    free(gpu->tlb_index);
    gpu->tlb_index_cap = cap;
    gpu->tlb_index = pbc_xcalloc(cap, sizeof(*gpu->tlb_index));
    for (uint32_t k = 0; k < gpu->tlb_count; k++)
        gpu->tlb_index[tlb_index_slot(gpu, gpu->tlb[k].root, gpu->tlb[k].vpn)] = k + 1;
}

static void tlb_put(pbc_gpu *gpu, const pbc_tlb_entry *in)
{
    if (gpu->tlb_count == gpu->tlb_cap) {
        gpu->tlb_cap = gpu->tlb_cap ? gpu->tlb_cap * 2 : 256;
        gpu->tlb = pbc_xrealloc(gpu->tlb, (size_t)gpu->tlb_cap * sizeof(*gpu->tlb));
    }
    if ((gpu->tlb_count + 1) * 4 > gpu->tlb_index_cap * 3)
        tlb_index_build(gpu, gpu->tlb_index_cap ? gpu->tlb_index_cap * 2 : 512);
    gpu->tlb[gpu->tlb_count] = *in;
    gpu->tlb_index[tlb_index_slot(gpu, in->root, in->vpn)] = ++gpu->tlb_count;
}

/* Removes the entry whose index slot is `hole`. */
static void tlb_remove(pbc_gpu *gpu, uint32_t hole)
{
    uint32_t mask = gpu->tlb_index_cap - 1, pos = gpu->tlb_index[hole] - 1;
    gpu->tlb_index[hole] = 0;
    for (uint32_t j = (hole + 1) & mask; gpu->tlb_index[j]; j = (j + 1) & mask) {
        const pbc_tlb_entry *e = &gpu->tlb[gpu->tlb_index[j] - 1];
        uint32_t home = tlb_slot(e->root, e->vpn, gpu->tlb_index_cap);
        /* It may fill the hole unless its home lies cyclically in (hole, j]. */
        int stays = hole < j ? home > hole && home <= j : home > hole || home <= j;
        if (!stays) {
            gpu->tlb_index[hole] = gpu->tlb_index[j];
            gpu->tlb_index[j] = 0;
            hole = j;
        }
    }
    uint32_t last = --gpu->tlb_count;
    if (pos != last) {
        gpu->tlb[pos] = gpu->tlb[last];
        gpu->tlb_index[tlb_index_slot(gpu, gpu->tlb[pos].root, gpu->tlb[pos].vpn)] = pos + 1;
    }
}

/* Forgets every entry. A few are removed one by one, which keeps every
 * probe chain whole (clearing their slots in place would cut the chains
 * of entries placed past them, and leave those slots pointing at stale
 * positions); many, by clearing the index at once. */
static void tlb_clear(pbc_gpu *gpu)
{
    if (!gpu->tlb_count)
        return; /* the index may not exist yet */
    if ((uint64_t)gpu->tlb_count * 8 >= gpu->tlb_index_cap) {
        memset(gpu->tlb_index, 0, (size_t)gpu->tlb_index_cap * sizeof(*gpu->tlb_index));
        gpu->tlb_count = 0;
        return;
    }
    while (gpu->tlb_count) {
        const pbc_tlb_entry *e = &gpu->tlb[gpu->tlb_count - 1];
        tlb_remove(gpu, tlb_index_slot(gpu, e->root, e->vpn));
    }
}

void pbc_gpu_tlb_reset(pbc_gpu *gpu)
{
    tlb_clear(gpu);
    gpu->tlb_flushes = 0;
}

void pbc_gpu_tlb_flush(pbc_gpu *gpu, uint64_t root, uint64_t start, uint64_t size)
{
    gpu->tlb_flushes++;
    if (!gpu->tlb_count)
        return;
    uint64_t first = start >> PBC_PAGE_SHIFT;
    uint64_t last = size ? (start + size - 1) >> PBC_PAGE_SHIFT : UINT64_MAX;
    if (size && start + size - 1 < start)
        last = UINT64_MAX;
    if (root == 0 && size == 0) {
        tlb_clear(gpu);
        return;
    }
    if (root && last != UINT64_MAX && last - first < gpu->tlb_count) {
        /* A range smaller than the TLB: its pages looked up one by one. */
        for (uint64_t vpn = first; vpn <= last; vpn++) {
            uint32_t slot = tlb_index_slot(gpu, root, vpn);
            if (gpu->tlb_index[slot])
                tlb_remove(gpu, slot);
        }
        return;
    }
    for (uint32_t k = gpu->tlb_count; k-- > 0;) { /* the last entry moves into k: already seen */
        const pbc_tlb_entry *e = &gpu->tlb[k];
        if ((root == 0 || e->root == root) && (size == 0 || (e->vpn >= first && e->vpn <= last)))
            tlb_remove(gpu, tlb_index_slot(gpu, e->root, e->vpn));
    }
}

int pbc_gpu_va_translate(pbc_gpu *gpu, uint64_t va, int write, pbc_va_xlat *x)
{
    uint64_t root = gpu->va_root, vpn = va >> PBC_PAGE_SHIFT;
    const pbc_tlb_entry *hit = root ? tlb_find(gpu, root, vpn) : NULL;
    if (hit) {
        *x = hit->x;
    } else {
        const char *why = NULL;
        if (pbc_gpu_va_walk(gpu, root, va, x, &why)) {
            pbc_gpu_fault(gpu, PBC_FAULT_VA_INVALID, va, why);
            return -1;
        }
        pbc_tlb_entry e = {root, vpn, *x};
        tlb_put(gpu, &e);
    }
    if (write && x->read_only && !x->zero) {
        pbc_gpu_fault(gpu, PBC_FAULT_VA_READ_ONLY, va, "GPU write to a read-only page");
        return -1;
    }
    return 0;
}

/* The physical address of virtual byte va for an access of up to n bytes
 * within its page: 1 and *pa, 0 for a zero page, -1 after a fault. */
static int mmu_piece(pbc_gpu *gpu, uint64_t va, int write, uint64_t *pa)
{
    pbc_va_xlat x;
    if (pbc_gpu_va_translate(gpu, va, write, &x))
        return -1;
    if (x.zero)
        return 0;
    *pa = x.page + (va & (MMU_PAGE - 1));
    return 1;
}

static uint64_t mmu_page_left(uint64_t addr) { return MMU_PAGE - (addr & (MMU_PAGE - 1)); }

/* COPY with either side virtual: pieces end where either side's page ends. */
static int mmu_copy(pbc_gpu *gpu, const pbc_uop *u)
{
    int dv = (u->flags & PBC_UOP_DST_VIRTUAL) != 0, sv = (u->flags & PBC_UOP_SRC_VIRTUAL) != 0;
    for (uint64_t done = 0; done < u->size;) {
        uint64_t d = u->dst + done, s = u->src + done, n = u->size - done;
        if (dv && mmu_page_left(d) < n)
            n = mmu_page_left(d);
        if (sv && mmu_page_left(s) < n)
            n = mmu_page_left(s);
        uint64_t pd = d, ps = s;
        int src_kind = sv ? mmu_piece(gpu, s, 0, &ps) : 1;
        if (src_kind < 0)
            return -1;
        int dst_kind = dv ? mmu_piece(gpu, d, 1, &pd) : 1;
        if (dst_kind < 0)
            return -1;
        if (dst_kind > 0) {
            pbc_uop p = {.kind = src_kind ? PBC_UOP_COPY : PBC_UOP_FILL, .dst = pd, .src = ps, .size = n};
            if (pbc_gpu_exec_uop(gpu, &p))
                return -1;
        }
        done += n;
    }
    return 0;
}

/* FILL, WRITE_IMM, READ and PTE_WRITE at a virtual dst: the bytes they
 * would write (or the width they read), page piece by page piece. */
static int mmu_bytes(pbc_gpu *gpu, const pbc_uop *u, uint64_t size, const uint8_t *bytes)
{
    int write = u->kind != PBC_UOP_READ;
    for (uint64_t done = 0; done < size;) {
        uint64_t va = u->dst + done, n = size - done;
        if (mmu_page_left(va) < n)
            n = mmu_page_left(va);
        uint64_t pa = 0;
        int kind = mmu_piece(gpu, va, write, &pa);
        if (kind < 0)
            return -1;
        int rc = 0;
        if (kind > 0 && u->kind == PBC_UOP_FILL) {
            pbc_desc d = {PBC_PAGE_PATTERN, (uint32_t)u->value, done}; /* the pattern keeps its phase */
            rc = pbc_gpu_write_desc(gpu, pa, n, &d);
        } else if (kind > 0 && u->kind == PBC_UOP_READ) {
            uint8_t sink[8];
            rc = pbc_gpu_read(gpu, pa, sink, n);
        } else if (kind > 0) {
            rc = pbc_gpu_write(gpu, pa, bytes + done, n);
        }
        if (rc)
            return -1;
        done += n;
    }
    return 0;
}

int pbc_gpu_exec_virtual(pbc_gpu *gpu, const pbc_uop *u)
{
    uint8_t bytes[PBC_PTE_SIZE];
    switch (u->kind) {
    case PBC_UOP_COPY:
        return mmu_copy(gpu, u);
    case PBC_UOP_FILL:
        if (u->flags & PBC_UOP_SRC_VIRTUAL)
            break;
        return mmu_bytes(gpu, u, u->size, NULL);
    case PBC_UOP_WRITE_IMM:
    case PBC_UOP_READ:
        if (u->flags & PBC_UOP_SRC_VIRTUAL)
            break;
        if (u->width < 1 || u->width > 8) {
            pbc_gpu_fault(gpu, PBC_FAULT_UOP, u->dst, "access width outside 1..8");
            return -1;
        }
        for (uint32_t i = 0; i < 8; i++)
            bytes[i] = (uint8_t)(u->value >> (8 * i));
        return mmu_bytes(gpu, u, u->width, bytes);
    case PBC_UOP_PTE_WRITE:
        if (u->flags & PBC_UOP_SRC_VIRTUAL)
            break;
        for (uint32_t i = 0; i < 8; i++) {
            bytes[i] = (uint8_t)(u->value >> (8 * i));
            bytes[8 + i] = (uint8_t)(u->index >> (8 * i));
        }
        return mmu_bytes(gpu, u, pbc_gpu_pte_size(gpu), bytes);
    default:
        break;
    }
    pbc_gpu_fault(gpu, PBC_FAULT_UOP, u->dst, "address-space flag on a micro-op that takes no such address");
    return -1;
}
