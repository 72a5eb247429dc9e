/*
 * Initial content, MDLs and addresses: every allocation's bytes are a
 * function of its seed and offset, so every world (target, reference,
 * spec) starts from the same content; MDLs describe scattered system pages
 * with leading foreign pages that must survive untouched.
 */
#include "vidmm/vm.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- Content, MDLs and addresses ---- */

void pbc_vm_write_content(vm *v, uint64_t addr, uint64_t len, uint32_t seed, uint64_t first_word)
{
    uint8_t chunk[PBC_PAGE_SIZE];
    for (uint64_t done = 0; done < len;) {
        uint64_t n = len - done < sizeof(chunk) ? len - done : sizeof(chunk);
        for (uint64_t i = 0; i < n; i += 4) {
            uint32_t w = pbc_scenario_content_word(seed, first_word + (done + i) / 4);
            memcpy(chunk + i, &w, 4);
        }
        pbc_gpu_write(v->gpu, addr + done, chunk, n);
        done += n;
    }
}

/* An MDL for the allocation: mdl_offset foreign pages, then its own. */
MDL *pbc_vm_mdl_create(vm *v, uint32_t index)
{
    const pbc_salloc *al = &v->s->allocs[index];
    uint32_t pages = al->mdl_offset + pbc_alloc_pages(al);
    MDL *m = pbc_xcalloc(1, sizeof(MDL) + pages * sizeof(PFN_NUMBER));
    m->Size = (CSHORT)(sizeof(MDL) + pages * sizeof(PFN_NUMBER));
    m->MdlFlags = MDL_PAGES_LOCKED | MDL_SOURCE_IS_NONPAGED_POOL;
    m->StartVa = (PVOID)(uintptr_t)(0x100000000ull * (index + 1));
    m->ByteCount = pages * PBC_PAGE_SIZE;
    PFN_NUMBER *pfn = MmGetMdlPfnArray(m);
    v->gpu->cur.writer = PBC_WRITER_INIT;
    for (uint32_t i = 0; i < pages; i++) {
        pfn[i] = pbc_gpu_alloc_system_page(v->gpu) >> PBC_PAGE_SHIFT;
        pbc_page_owner own = {pfn[i], index, (int32_t)i - (int32_t)al->mdl_offset};
        PBC_PUSH(v->res->owners, v->res->owner_count, v->res->owner_cap, own);
        if (i < al->mdl_offset) /* someone else's data: must survive untouched */
            pbc_vm_write_content(v, (uint64_t)pfn[i] << PBC_PAGE_SHIFT, PBC_PAGE_SIZE, ~al->seed, i * 1024);
    }
    v->gpu->cur.writer = PBC_WRITER_NONE;
    return m;
}

/* A partial MDL (as IoBuildPartialMdl makes) over pages [first, first+n). */
MDL *pbc_vm_mdl_partial(const MDL *full, uint32_t first, uint32_t n)
{
    MDL *m = pbc_xcalloc(1, sizeof(MDL) + n * sizeof(PFN_NUMBER));
    *m = *full;
    m->MdlFlags |= MDL_PARTIAL;
    m->StartVa = (PUCHAR)full->StartVa + (size_t)first * PBC_PAGE_SIZE;
    m->ByteCount = n * PBC_PAGE_SIZE;
    memcpy(MmGetMdlPfnArray(m), MmGetMdlPfnArray(full) + first, n * sizeof(PFN_NUMBER));
    return m;
}

/* Calls fn for each physically contiguous piece of allocation bytes
 * [offset, offset+len) where the allocation now lives. */
void pbc_vm_alloc_pieces(vm *v, uint32_t index, uint64_t offset, uint64_t len,
                            void (*fn)(vm *, uint64_t addr, uint64_t n, uint64_t at, void *),
                            void *ctx)
{
    const pbc_res_alloc *ra = &v->rs.a[index];
    if (ra->where == PBC_WHERE_SEGMENT) {
        fn(v, pbc_vm_segment_base(v, ra->at.segment) + ra->at.offset + offset, len, offset, ctx);
        return;
    }
    const PFN_NUMBER *pfn = MmGetMdlPfnArray(v->allocs[index].mdl);
    uint32_t lead = v->s->allocs[index].mdl_offset;
    for (uint64_t at = offset; at < offset + len;) {
        uint64_t n = PBC_PAGE_SIZE - at % PBC_PAGE_SIZE;
        if (n > offset + len - at)
            n = offset + len - at;
        fn(v, ((uint64_t)pfn[lead + at / PBC_PAGE_SIZE] << PBC_PAGE_SHIFT) + at % PBC_PAGE_SIZE, n, at, ctx);
        at += n;
    }
}

void pbc_vm_init_piece(vm *v, uint64_t addr, uint64_t n, uint64_t at, void *ctx)
{
    pbc_vm_write_content(v, addr, n, *(const uint32_t *)ctx, at / 4);
}
