/*
 * Target lookup and the ABI handshake: a table is called only after its
 * version, size, hooks and declared sizes have been checked, so a bad
 * table is one clear message, never a crash inside the harness. Targets
 * are built in (by name) or shared libraries (by path) exporting
 * pbc_target_get; a library's table from an older minor version is copied
 * into a full-size table with defaults for the members it lacks. Libraries
 * stay loaded for the life of the process.
 */
#include "exec/target.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "gpu/gpu.h"
#include "registry.h"

uint32_t pbc_host_abi_version(void) { return PBC_TARGET_ABI_VERSION << 16 | PBC_TARGET_ABI_MINOR; }

typedef struct loaded_target {
    char *path;
    pbc_target table; /* full size: what the library gave, defaults after */
} loaded_target;

static loaded_target **loaded; /* each on its own: tables handed out never move */
static uint32_t loaded_count, loaded_cap;

const char *pbc_exec_target_check(const pbc_target *t)
{
    if (t->abi_version != PBC_TARGET_ABI_VERSION)
        return "target ABI major version differs from this pbcheck's (rebuild it against these headers)";
    if (t->struct_size < PBC_TARGET_SIZE_1_0)
        return "target table is smaller than ABI version 1.0 requires";
    if (!t->name || !t->isa || !t->create_adapter || !t->destroy_adapter || !t->create_allocation ||
        !t->destroy_allocation || !t->build_paging_buffer || !t->patch || !t->submit_command)
        return "target table is missing a hook";
    if (t->isa->abi_version != PBC_ISA_ABI_VERSION || t->isa->struct_size < PBC_ISA_SIZE_BASE ||
        !t->isa->decode || !t->isa->disasm)
        return "target's ISA decoder table is unusable";
    if (pbc_isa_pte_size(t->isa) != 8 && pbc_isa_pte_size(t->isa) != 16)
        return "the ISA's page-table entries must be 8 or 16 bytes";
    if (pbc_isa_pte_size(t->isa) != 16 && !pbc_isa_pte_decode(t->isa))
        return "an ISA with entries that are not DXGK_PTE must decode them (pte_decode)";
    if (pbc_isa_pt_levels(t->isa) != 3 && pbc_isa_pt_levels(t->isa) != 4)
        return "the ISA's page tables must have 3 or 4 levels";
    if (t->min_dma_size < 4 || t->min_dma_size > (1u << 20))
        return "min_dma_size must be between 4 bytes and 1 MiB";
    if (t->private_data_size > (1u << 20))
        return "private_data_size is limited to 1 MiB";
    const pbc_adapter_decl *d = t->adapter;
    if (d && d->struct_size < PBC_ADAPTER_DECL_SIZE_1_1)
        return "the adapter declaration is smaller than its ABI requires";
    if (d && PBC_ADAPTER_DECL_HAS(d->struct_size, page_table_update) && d->page_table_update > PBC_PT_UPDATE_GPU_VIRTUAL)
        return "the adapter declares a page-table update mode this pbcheck does not know";
    if (d && PBC_ADAPTER_DECL_HAS(d->struct_size, gpummu_lacks) && (d->gpummu_lacks & ~PBC_GPUMMU_KNOWN))
        return "the adapter declares MMU limits (gpummu_lacks) this pbcheck does not know";
    if (d && d->paging_buffer_size && (d->paging_buffer_size < t->min_dma_size || d->paging_buffer_size > (1u << 20)))
        return "the declared paging-buffer size must be between min_dma_size and 1 MiB";
    if (d && d->segment_count && (!d->segments || d->segment_count > 8))
        return "the adapter declares between 1 and 8 segments";
    if (d && d->segment_count) {
        pbc_segment_info seg[8];
        for (uint32_t i = 0; i < d->segment_count; i++)
            seg[i] = (pbc_segment_info){d->segments[i].SegmentId, d->segments[i].kind, d->segments[i].base,
                                        d->segments[i].size};
        const char *why = pbc_gpu_layout_check(seg, d->segment_count);
        if (why)
            return why; /* static text: a declared layout the model cannot build */
    }
    return NULL;
}

int pbc_exec_target_is_path(const char *name) { return strchr(name, '/') || strstr(name, ".so"); }

/* Loads (once) the library at path; NULL with why on failure. */
static const pbc_target *target_load(const char *path, char *why, size_t why_size)
{
    for (uint32_t i = 0; i < loaded_count; i++)
        if (!strcmp(loaded[i]->path, path))
            return &loaded[i]->table;
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(why, why_size, "cannot load target '%s': %s", path, dlerror());
        return NULL;
    }
    pbc_target_get_fn get = (pbc_target_get_fn)(uintptr_t)dlsym(lib, "pbc_target_get");
    const pbc_target *t = get ? get() : NULL;
    if (!t) {
        snprintf(why, why_size, "target '%s' exports no pbc_target_get (or it returned NULL)", path);
        dlclose(lib);
        return NULL;
    }
    if (t->abi_version != PBC_TARGET_ABI_VERSION || t->struct_size < PBC_TARGET_SIZE_1_0) {
        snprintf(why, why_size, "target '%s' has ABI %u (table of %u bytes); this pbcheck speaks ABI %u.%u "
                 "(at least %zu bytes)", path, t->abi_version, t->struct_size, PBC_TARGET_ABI_VERSION,
                 PBC_TARGET_ABI_MINOR, (size_t)PBC_TARGET_SIZE_1_0);
        dlclose(lib);
        return NULL;
    }
    loaded_target *l = pbc_xcalloc(1, sizeof(*l)); /* zero: the defaults of members an older table lacks */
    l->path = pbc_xstrdup(path);
    memcpy(&l->table, t, t->struct_size < sizeof(l->table) ? t->struct_size : sizeof(l->table));
    l->table.struct_size = sizeof(l->table);
    PBC_PUSH(loaded, loaded_count, loaded_cap, l);
    return &l->table;
}

const pbc_target *pbc_exec_target_open(const char *name, char *why, size_t why_size)
{
    const pbc_target *t;
    if (pbc_exec_target_is_path(name)) {
        if (!(t = target_load(name, why, why_size)))
            return NULL;
    } else {
        t = pbc_target_find(name);
    }
    if (!t) {
        snprintf(why, why_size, "unknown target '%s' (see 'pbcheck list targets')", name);
        return NULL;
    }
    const char *bad = pbc_exec_target_check(t);
    if (bad) {
        snprintf(why, why_size, "target '%s' is unusable: %s", name, bad);
        return NULL;
    }
    return t;
}

uint32_t pbc_exec_target_layout(const pbc_target *t, pbc_segment_info out[PBC_MAX_SEGMENTS])
{
    const pbc_adapter_decl *d = t->adapter;
    if (!d || !d->segment_count || d->segment_count > PBC_MAX_SEGMENTS)
        return 0;
    for (uint32_t i = 0; i < d->segment_count; i++)
        out[i] = (pbc_segment_info){d->segments[i].SegmentId, d->segments[i].kind, d->segments[i].base,
                                    d->segments[i].size};
    return d->segment_count;
}
