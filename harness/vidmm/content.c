/*
 * Initial content, MDLs and addresses: every allocation's bytes are a
 * function of its seed and offset, so every world (target, reference,
 * spec) starts from the same content; MDLs describe system pages, with
 * leading foreign pages that must survive untouched, laid out as the
 * allocation's phys layout says: scattered, in runs of frames in a row,
 * contiguous, or in a run across a 4 GiB line. Where runs go is a
 * function of the seed too, and of what the world handed out before, so
 * every world gets the same frames.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "vidmm/vm.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <xxhash.h>

/* ---- Content, MDLs and addresses ---- */

void pbc_vidmm_write_content(vm *v, uint64_t addr, uint64_t len, uint32_t seed, uint64_t first_word)
{
    pbc_desc d = {PBC_PAGE_CONTENT, seed, first_word * 4};
    pbc_gpu_write_desc(v->gpu, addr, len, &d); /* described: made only if someone needs the bytes */
}

/* The MDL's virtual address: each allocation has its own made-up range. */
static PVOID vm_mdl_va(uint32_t index, uint32_t first_page)
{
    return (PVOID)(uintptr_t)(0x100000000ull * (index + 1) + (uint64_t)first_page * PBC_PAGE_SIZE);
}

/* PFNs on an MDL's first page, with its header: they are hashed after
 * every call; the pages after it are guarded (pbc_shim_guard), so that
 * checking a 4 GiB transfer's MDL costs no more than a small one's. */
#define VM_MDL_FIRST_PFNS ((PBC_PAGE_SIZE - sizeof(MDL)) / sizeof(PFN_NUMBER))

/* The hash of the MDL's first page, leaving out what the kernel itself
 * changes while a CPU view of it exists (MappedSystemVa,
 * MDL_MAPPED_TO_SYSTEM_VA). */
static uint64_t vm_mdl_hash(const MDL *m, uint32_t count)
{
    MDL header = *m;
    header.MappedSystemVa = NULL;
    header.MdlFlags = (CSHORT)(header.MdlFlags & ~MDL_MAPPED_TO_SYSTEM_VA);
    uint32_t first = count < VM_MDL_FIRST_PFNS ? count : (uint32_t)VM_MDL_FIRST_PFNS;
    return XXH3_64bits_withSeed(MmGetMdlPfnArray(m), first * sizeof(PFN_NUMBER), XXH3_64bits(&header, sizeof(header)));
}

/* Fills the page at byte `offset` of an MDL's guarded PFNs (its mapping
 * from its second page on) from the MDL's frame list: called by the shim
 * at the first access to that page (async-signal-safe: arithmetic only). */
static void vm_mdl_fill(void *ctx, size_t offset, uint8_t *page)
{
    _Static_assert(sizeof(MDL) % sizeof(PFN_NUMBER) == 0, "PFNs lie whole on every page of an MDL");
    const pbc_frames *f = ctx;
    uint64_t first = (PBC_PAGE_SIZE + offset - sizeof(MDL)) / sizeof(PFN_NUMBER);
    uint64_t n = PBC_PAGE_SIZE / sizeof(PFN_NUMBER);
    if (first >= f->total)
        return;
    if (n > f->total - first)
        n = f->total - first;
    pbc_frames_get(f, first, n, (uint64_t *)(void *)page);
}

/* Builds the MDL for `count` pages from VidMm's own frame list. Size is a
 * CSHORT in Windows too: it saturates for MDLs beyond about 16 MiB, which
 * is why builders count pages from ByteCount and ByteOffset. The PFNs on
 * its first page are written now; those after it when first read (the
 * shim fills a page at its first access), so an MDL costs what is read of
 * it, not its size. */
static void vm_mdl_build(vm_mdl *m, PVOID va, USHORT flags)
{
    size_t bytes = sizeof(MDL) + m->count * sizeof(PFN_NUMBER);
    m->mapped = 0;
    if (bytes > PBC_PAGE_SIZE) {
        m->mapped = (bytes + PBC_PAGE_SIZE - 1) & ~(size_t)(PBC_PAGE_SIZE - 1);
        void *at = mmap(NULL, m->mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (at == MAP_FAILED)
            pbc_harness_bug("cannot map %zu bytes for an MDL", m->mapped);
        m->mdl = at;
    } else {
        m->mdl = pbc_xcalloc(1, bytes);
    }
    m->mdl->Size = (CSHORT)(bytes <= 0x7FFF ? bytes : 0x7FFF);
    m->mdl->MdlFlags = (CSHORT)flags;
    m->mdl->StartVa = va;
    m->mdl->ByteCount = m->count * PBC_PAGE_SIZE;
    uint32_t first = m->count < VM_MDL_FIRST_PFNS ? m->count : (uint32_t)VM_MDL_FIRST_PFNS;
    pbc_frames_get(m->frames, 0, first, (uint64_t *)MmGetMdlPfnArray(m->mdl));
    m->hash = vm_mdl_hash(m->mdl, m->count);
    if (m->mapped)
        pbc_shim_guard_lazy((uint8_t *)m->mdl + PBC_PAGE_SIZE, m->mapped - PBC_PAGE_SIZE, vm_mdl_fill, m->frames);
}

/* ---- Where an MDL's pages lie ---- */

/* Runs of the runs layout: mostly short, one in four up to VM_RUN_LONG. */
#define VM_RUN_SHORT 8u
#define VM_RUN_LONG 64u
/* The 4 GiB lines inside the system window [2 GiB, 10 GiB), as frames
 * from its first (it moves by whole 16 GiB, so they stay 4 GiB lines). */
static const uint64_t vm_lines_4g[] = {(2ull << 30) >> PBC_PAGE_SHIFT, (6ull << 30) >> PBC_PAGE_SHIFT};

/* splitmix64: the layout's choices. */
static uint64_t vm_phys_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t vm_phys_somewhere(const vm *v, uint64_t *state)
{
    return v->gpu->sys_base + vm_phys_rand(state) % PBC_SYS_WINDOW_PAGES;
}

/* n frames in a row from near frame pfn into out; where the pool is too
 * crowded for that, as many runs as it takes. */
static void vm_take_run(vm *v, uint64_t pfn, pbc_frames *out, uint64_t n)
{
    if (pbc_gpu_alloc_system_run_frames(v->gpu, pfn, n, out) < n) /* the limits keep every scenario within the pool */
        pbc_harness_bug("the system page pool is exhausted");
}

/* One run across a 4 GiB line, the line between two of the allocation's
 * own pages (chosen by the seed), at the first line where the frames are
 * free; 0 when none has room. */
static int vm_take_straddle(vm *v, const pbc_salloc *al, uint64_t *state, pbc_frames *out, uint32_t count)
{
    uint32_t own = count - al->mdl_offset;
    uint64_t below = own < 2 ? al->mdl_offset : al->mdl_offset + 1 + vm_phys_rand(state) % (own - 1);
    for (size_t i = 0; i < PBC_ARRAY_LEN(vm_lines_4g); i++)
        if (pbc_gpu_system_free(v->gpu, v->gpu->sys_base + vm_lines_4g[i] - below, count)) {
            vm_take_run(v, v->gpu->sys_base + vm_lines_4g[i] - below, out, count);
            return 1;
        }
    return 0;
}

/* The frames of allocation `index`'s next MDL, `count` pages, appended to pfns. */
static void vm_mdl_frames(vm *v, uint32_t index, pbc_frames *pfns, uint32_t count)
{
    const pbc_salloc *al = &v->s->allocs[index];
    uint64_t state = (uint64_t)al->seed << 32 ^ (uint64_t)index << 16 ^ v->allocs[index].mdls++;
    switch (al->phys) {
    case PBC_PHYS_RUNS:
        for (uint32_t i = 0; i < count;) {
            uint64_t most = vm_phys_rand(&state) % 4 ? VM_RUN_SHORT : VM_RUN_LONG;
            uint64_t len = 1 + vm_phys_rand(&state) % most;
            len = len < count - i ? len : count - i;
            vm_take_run(v, vm_phys_somewhere(v, &state), pfns, len);
            i += (uint32_t)len;
        }
        break;
    case PBC_PHYS_STRADDLE_4G:
        if (vm_take_straddle(v, al, &state, pfns, count))
            break;
        /* both lines taken (by earlier MDLs) or no room: contiguous elsewhere */
        /* fall through */
    case PBC_PHYS_CONTIGUOUS:
        vm_take_run(v, vm_phys_somewhere(v, &state), pfns, count);
        break;
    default:
        if (pbc_gpu_alloc_system_pages(v->gpu, count, pfns) < count)
            pbc_harness_bug("the system page pool is exhausted");
        break;
    }
}

static pbc_frames *vm_frames_new(const vm *v)
{
    pbc_frames *f = pbc_xmalloc(sizeof(*f));
    pbc_frames_init(f, &v->gpu->mem.pool);
    return f;
}

void pbc_vidmm_mdl_create(vm *v, uint32_t index, vm_mdl *out)
{
    const pbc_salloc *al = &v->s->allocs[index];
    out->count = al->mdl_offset + pbc_alloc_pages(al);
    out->frames = vm_frames_new(v);
    vm_mdl_frames(v, index, out->frames, out->count);
    v->gpu->cur.writer = PBC_WRITER_INIT;
    pbc_record_owner_add(v->res, out->frames, index, al->mdl_offset);
    pbc_desc foreign = {PBC_PAGE_CONTENT, ~al->seed, 0}; /* someone else's data: must survive untouched */
    pbc_gpu_lay_frame_list(v->gpu, out->frames, 0, al->mdl_offset, &foreign);
    v->gpu->cur.writer = PBC_WRITER_NONE;
    vm_mdl_build(out, vm_mdl_va(index, 0), MDL_PAGES_LOCKED | MDL_SOURCE_IS_NONPAGED_POOL);
}

void pbc_vidmm_mdl_partial(uint32_t index, const vm_mdl *full, uint32_t first, uint32_t n, vm_mdl *out)
{
    out->count = n;
    out->frames = pbc_xmalloc(sizeof(*out->frames));
    pbc_frames_init(out->frames, &full->frames->pool);
    pbc_frames_sub(full->frames, first, n, out->frames);
    vm_mdl_build(out, vm_mdl_va(index, first), MDL_PAGES_LOCKED | MDL_SOURCE_IS_NONPAGED_POOL | MDL_PARTIAL);
}

void pbc_vidmm_mdl_free(vm_mdl *m)
{
    if (m->mapped) {
        pbc_shim_unguard((uint8_t *)m->mdl + PBC_PAGE_SIZE);
        munmap(m->mdl, m->mapped);
    } else {
        free(m->mdl);
    }
    if (m->frames) {
        pbc_frames_fini(m->frames);
        free(m->frames);
    }
    memset(m, 0, sizeof(*m));
}

void pbc_vidmm_mdl_retire(vm *v, vm_mdl *m)
{
    if (m->mdl)
        PBC_PUSH(v->retired, v->retired_count, v->retired_cap, *m);
    memset(m, 0, sizeof(*m));
}

int pbc_vidmm_mdl_intact(const vm_mdl *m)
{
    return !m->mdl || (vm_mdl_hash(m->mdl, m->count) == m->hash &&
                       !(m->mapped && pbc_shim_guard_written((uint8_t *)m->mdl + PBC_PAGE_SIZE)));
}

/* Calls fn for each physically contiguous piece of allocation bytes
 * [offset, offset+len) where the allocation now lives. */
void pbc_vidmm_alloc_pieces(vm *v, uint32_t index, uint64_t offset, uint64_t len,
                            void (*fn)(vm *, uint64_t addr, uint64_t n, uint64_t at, void *),
                            void *ctx)
{
    pbc_vidmm_alloc_pieces_at(v, index, &v->rs.a[index], offset, len, fn, ctx);
}

void pbc_vidmm_alloc_pieces_at(vm *v, uint32_t index, const pbc_res_alloc *ra, uint64_t offset, uint64_t len,
                               void (*fn)(vm *, uint64_t addr, uint64_t n, uint64_t at, void *), void *ctx)
{
    if (ra->where == PBC_WHERE_SEGMENT) {
        fn(v, pbc_vidmm_segment_base(v, ra->at.segment) + ra->at.offset + offset, len, offset, ctx);
        return;
    }
    const pbc_frames *frames = v->allocs[index].mdl.frames;
    uint32_t lead = v->s->allocs[index].mdl_offset;
    for (uint64_t at = offset; at < offset + len;) {
        uint64_t n = PBC_PAGE_SIZE - at % PBC_PAGE_SIZE;
        if (n > offset + len - at)
            n = offset + len - at;
        fn(v, (pbc_frames_pfn(frames, lead + at / PBC_PAGE_SIZE) << PBC_PAGE_SHIFT) + at % PBC_PAGE_SIZE, n, at, ctx);
        at += n;
    }
}

void pbc_vidmm_lay_content(vm *v, uint32_t index, const pbc_res_alloc *ra, uint32_t seed)
{
    const pbc_salloc *al = &v->s->allocs[index];
    pbc_desc d = {PBC_PAGE_CONTENT, seed, 0};
    if (ra->where == PBC_WHERE_SEGMENT) {
        pbc_gpu_lay(v->gpu, pbc_vidmm_segment_base(v, ra->at.segment) + ra->at.offset, al->size, &d);
        return;
    }
    /* Whole pages as extents of the memory's base; a last page the
     * allocation ends inside is written as far as it goes, as any write. */
    const pbc_frames *frames = v->allocs[index].mdl.frames;
    uint64_t whole = al->size / PBC_PAGE_SIZE;
    pbc_gpu_lay_frame_list(v->gpu, frames, al->mdl_offset, whole, &d);
    if (al->size % PBC_PAGE_SIZE)
        pbc_vidmm_write_content(v, pbc_frames_pfn(frames, al->mdl_offset + whole) << PBC_PAGE_SHIFT,
                                al->size % PBC_PAGE_SIZE, seed, whole * PBC_PAGE_SIZE / 4);
}
