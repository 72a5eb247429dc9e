/*
 * The WDK shim. A CPU mapping of modeled memory is a bounce buffer: it is
 * filled from modeled memory when mapped and written back, page by page
 * and only where bytes changed, when unmapped or when the DDI call that
 * made it returns. Register pointers into the mapped MMIO range reach the
 * model's register file. Anything the shim cannot serve returns NULL, as
 * the kernel does when a mapping fails.
 */
#include "kernel/shim.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "kernel/services.h"

#define SHIM_MAX_MAPPINGS 64u

typedef struct shim_mapping {
    uint8_t *host;
    uint64_t *pages; /* physical page addresses, one per 4 KiB of host */
    uint32_t count;
    PMDL mdl;        /* MmGetSystemAddressForMdlSafe: the MDL to put back */
    PVOID saved_va;
    CSHORT saved_flags;
} shim_mapping;

typedef struct shim_state {
    pbc_gpu *gpu;
    shim_mapping map[SHIM_MAX_MAPPINGS];
    uint32_t map_count;
    uint32_t asserts;
    char assert_msg[256];
    pbc_shim_view views[PBC_SHIM_VIEWS_KEPT]; /* views made since the last take */
    uint32_t view_count;
} shim_state;

static _Thread_local shim_state shim;

void pbc_shim_bind(pbc_gpu *gpu)
{
    pbc_shim_unbind();
    shim.gpu = gpu;
}

static void shim_write_back(shim_mapping *m)
{
    uint8_t cur[PBC_PAGE_SIZE];
    pbc_prov saved = shim.gpu->cur;
    shim.gpu->cur = shim.gpu->cpu;
    shim.gpu->cur.writer = PBC_WRITER_CPU;
    for (uint32_t i = 0; i < m->count; i++) {
        const uint8_t *mine = m->host + (size_t)i * PBC_PAGE_SIZE;
        if (pbc_gpu_read(shim.gpu, m->pages[i], cur, PBC_PAGE_SIZE) == 0 &&
            memcmp(cur, mine, PBC_PAGE_SIZE) != 0)
            pbc_gpu_write(shim.gpu, m->pages[i], mine, PBC_PAGE_SIZE);
    }
    shim.gpu->cur = saved;
}

static void shim_release(uint32_t i)
{
    shim_write_back(&shim.map[i]);
    if (shim.map[i].mdl) {
        shim.map[i].mdl->MappedSystemVa = shim.map[i].saved_va;
        shim.map[i].mdl->MdlFlags = shim.map[i].saved_flags;
    }
    free(shim.map[i].host);
    free(shim.map[i].pages);
    shim.map[i] = shim.map[--shim.map_count];
}

static void shim_flush_all(void)
{
    while (shim.map_count)
        shim_release(shim.map_count - 1);
}

/* Views persist, as Windows' do, until unmapped (or the run ends); the
 * model's memory and the views meet whenever the builder's code starts or
 * stops running: views are refreshed from modeled memory (the GPU may have
 * written it) on the way in, and what the CPU changed is written back, with
 * its provenance, on the way out. */
static void shim_refresh_all(void)
{
    for (uint32_t k = 0; k < shim.map_count; k++) {
        shim_mapping *m = &shim.map[k];
        for (uint32_t i = 0; i < m->count; i++)
            pbc_gpu_read(shim.gpu, m->pages[i], m->host + (size_t)i * PBC_PAGE_SIZE, PBC_PAGE_SIZE);
    }
}

static void shim_write_back_all(void)
{
    for (uint32_t k = 0; k < shim.map_count; k++)
        shim_write_back(&shim.map[k]);
}

void pbc_shim_enter(void)
{
    if (shim.gpu)
        shim_refresh_all();
}

void pbc_shim_leave(void)
{
    if (shim.gpu)
        shim_write_back_all();
}

void pbc_shim_unbind(void)
{
    if (shim.gpu)
        shim_flush_all();
    memset(&shim, 0, sizeof(shim));
}

static void shim_note_view(const MDL *mdl, uint64_t start, uint64_t end)
{
    if (shim.view_count < PBC_SHIM_VIEWS_KEPT)
        shim.views[shim.view_count] = (pbc_shim_view){mdl, start, end};
    shim.view_count++;
}

uint32_t pbc_shim_take_views(pbc_shim_view *out)
{
    uint32_t n = shim.view_count;
    memcpy(out, shim.views, (n < PBC_SHIM_VIEWS_KEPT ? n : PBC_SHIM_VIEWS_KEPT) * sizeof(*out));
    shim.view_count = 0;
    return n;
}

uint32_t pbc_shim_take_asserts(const char **first)
{
    uint32_t n = shim.asserts;
    *first = shim.assert_msg;
    shim.asserts = 0;
    return n;
}

static void *shim_map_pages(const uint64_t *pages, uint32_t count)
{
    if (!shim.gpu || shim.map_count == SHIM_MAX_MAPPINGS || count == 0)
        return NULL;
    shim_mapping *m = &shim.map[shim.map_count];
    memset(m, 0, sizeof(*m));
    m->host = pbc_xmalloc((size_t)count * PBC_PAGE_SIZE);
    m->pages = pbc_xmalloc(count * sizeof(*m->pages));
    m->count = count;
    memcpy(m->pages, pages, count * sizeof(*pages));
    for (uint32_t i = 0; i < count; i++)
        if (pbc_gpu_read(shim.gpu, pages[i], m->host + (size_t)i * PBC_PAGE_SIZE, PBC_PAGE_SIZE)) {
            free(m->host);
            free(m->pages);
            return NULL;
        }
    shim.map_count++;
    return m->host;
}

PVOID MmGetSystemAddressForMdlSafe(PMDL Mdl, ULONG Priority)
{
    (void)Priority;
    if (!Mdl)
        return NULL;
    shim_note_view(Mdl, 0, 0);
    for (uint32_t i = 0; i < shim.map_count; i++) /* already mapped: the same view */
        if (shim.map[i].mdl == Mdl)
            return Mdl->MappedSystemVa;
    uint32_t count = ADDRESS_AND_SIZE_TO_SPAN_PAGES(MmGetMdlVirtualAddress(Mdl), Mdl->ByteCount);
    uint64_t *pages = pbc_xmalloc((count ? count : 1) * sizeof(*pages));
    for (uint32_t i = 0; i < count; i++)
        pages[i] = (uint64_t)MmGetMdlPfnArray(Mdl)[i] << PAGE_SHIFT;
    uint8_t *p = shim_map_pages(pages, count);
    free(pages);
    if (!p)
        return NULL;
    /* As Windows does: the MDL says it is mapped, and where, until the
     * view goes (MmUnmapLockedPages, or the end of the run); the harness
     * puts the MDL back as it was then. */
    shim_mapping *m = &shim.map[shim.map_count - 1];
    m->mdl = Mdl;
    m->saved_va = Mdl->MappedSystemVa;
    m->saved_flags = Mdl->MdlFlags;
    Mdl->MappedSystemVa = p + (Mdl->ByteOffset & (PAGE_SIZE - 1));
    Mdl->MdlFlags |= MDL_MAPPED_TO_SYSTEM_VA;
    return Mdl->MappedSystemVa;
}

static int shim_find(const void *base)
{
    for (uint32_t i = 0; i < shim.map_count; i++) {
        const uint8_t *h = shim.map[i].host;
        if ((const uint8_t *)base >= h && (const uint8_t *)base < h + (size_t)shim.map[i].count * PBC_PAGE_SIZE)
            return (int)i;
    }
    return -1;
}

VOID MmUnmapLockedPages(PVOID BaseAddress, PMDL Mdl)
{
    (void)Mdl;
    int i = shim_find(BaseAddress);
    if (i >= 0)
        shim_release((uint32_t)i);
}

PVOID MmMapIoSpace(PHYSICAL_ADDRESS PhysicalAddress, SIZE_T NumberOfBytes, MEMORY_CACHING_TYPE CacheType)
{
    (void)CacheType;
    uint64_t pa = (uint64_t)PhysicalAddress.QuadPart;
    if (!shim.gpu || NumberOfBytes == 0)
        return NULL;
    shim_note_view(NULL, pa, pa + NumberOfBytes);
    if (pa >= PBC_MMIO_PHYSICAL && pa + NumberOfBytes <= PBC_MMIO_PHYSICAL + sizeof(shim.gpu->mmio))
        return (uint8_t *)shim.gpu->mmio + (pa - PBC_MMIO_PHYSICAL);
    if (NumberOfBytes > (64u << 20))
        return NULL;
    uint64_t first = pa & ~(uint64_t)(PAGE_SIZE - 1);
    uint32_t count = (uint32_t)((pa + NumberOfBytes - first + PAGE_SIZE - 1) / PAGE_SIZE);
    uint64_t *pages = pbc_xmalloc(count * sizeof(*pages));
    for (uint32_t i = 0; i < count; i++)
        pages[i] = first + (uint64_t)i * PAGE_SIZE;
    uint8_t *p = shim_map_pages(pages, count);
    free(pages);
    return p ? p + (pa - first) : NULL;
}

VOID MmUnmapIoSpace(PVOID BaseAddress, SIZE_T NumberOfBytes)
{
    (void)NumberOfBytes;
    int i = shim_find(BaseAddress);
    if (i >= 0)
        shim_release((uint32_t)i);
}

static int shim_is_register(volatile ULONG *r)
{
    return shim.gpu && (const volatile uint8_t *)r >= (const uint8_t *)shim.gpu->mmio &&
           (const volatile uint8_t *)r < (const uint8_t *)(shim.gpu->mmio + PBC_MMIO_REGS);
}

ULONG READ_REGISTER_ULONG(volatile ULONG *Register) { return *Register; }
UCHAR READ_REGISTER_UCHAR(volatile UCHAR *Register) { return *Register; }
USHORT READ_REGISTER_USHORT(volatile USHORT *Register) { return *Register; }
ULONG64 READ_REGISTER_ULONG64(volatile ULONG64 *Register) { return *Register; }

/* A store of any width into the register file counts as a register write. */
static void shim_count_register(volatile void *r)
{
    if (shim_is_register((volatile ULONG *)r))
        shim.gpu->mmio_writes++;
}

VOID WRITE_REGISTER_UCHAR(volatile UCHAR *Register, UCHAR Value)
{
    shim_count_register(Register);
    *Register = Value;
}

VOID WRITE_REGISTER_USHORT(volatile USHORT *Register, USHORT Value)
{
    shim_count_register(Register);
    *Register = Value;
}

VOID WRITE_REGISTER_ULONG64(volatile ULONG64 *Register, ULONG64 Value)
{
    shim_count_register(Register);
    *Register = Value;
}

VOID WRITE_REGISTER_ULONG(volatile ULONG *Register, ULONG Value)
{
    if (shim_is_register(Register))
        shim.gpu->mmio_writes++;
    *Register = Value;
}

VOID KeAcquireSpinLock(PKSPIN_LOCK SpinLock, PKIRQL OldIrql)
{
    pbc_kernel_acquire_spin_lock((uint64_t *)SpinLock, (uint8_t *)OldIrql);
}

VOID KeReleaseSpinLock(PKSPIN_LOCK SpinLock, KIRQL NewIrql)
{
    pbc_kernel_release_spin_lock((uint64_t *)SpinLock, (uint8_t)NewIrql);
}

VOID pbc_wdk_assert_failed(const char *expr, const char *file, int line)
{
    if (shim.asserts++ == 0)
        snprintf(shim.assert_msg, sizeof(shim.assert_msg), "NT_ASSERT(%s) failed at %s:%d", expr, file, line);
}

NTSTATUS pbc_shim_call_build(const pbc_target *t, HANDLE adapter, DXGKARG_BUILDPAGINGBUFFER *a)
{
    pbc_shim_enter();
    NTSTATUS st = t->build_paging_buffer(adapter, a);
    pbc_shim_leave();
    return st;
}

NTSTATUS pbc_shim_call_patch(const pbc_target *t, HANDLE adapter, DXGKARG_PATCH *a)
{
    pbc_shim_enter();
    NTSTATUS st = t->patch(adapter, a);
    pbc_shim_leave();
    return st;
}

NTSTATUS pbc_shim_call_submit(const pbc_target *t, HANDLE adapter, DXGKARG_SUBMITCOMMAND *a)
{
    pbc_shim_enter();
    NTSTATUS st = t->submit_command(adapter, a);
    pbc_shim_leave();
    return st;
}
