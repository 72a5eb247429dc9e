/*
 * Target lookup and the ABI handshake: a table is called only after its
 * version, size, hooks and declared sizes have been checked, so a bad
 * table is one clear message, never a crash inside the harness.
 */
#include "exec/target.h"

#include <stdio.h>

#include "registry.h"

const char *pbc_exec_target_check(const pbc_target *t)
{
    if (t->abi_version != PBC_TARGET_ABI_VERSION)
        return "unknown target ABI version";
    if (t->struct_size < sizeof(pbc_target))
        return "target table is smaller than ABI version 1 requires";
    if (!t->name || !t->isa || !t->create_adapter || !t->destroy_adapter || !t->create_allocation ||
        !t->destroy_allocation || !t->build_paging_buffer || !t->patch || !t->submit_command)
        return "target table is missing a hook";
    if (t->isa->abi_version != PBC_ISA_ABI_VERSION || t->isa->struct_size < sizeof(pbc_isa) ||
        !t->isa->decode || !t->isa->disasm)
        return "target's ISA decoder table is unusable";
    if (t->min_dma_size < 4 || t->min_dma_size > (1u << 20))
        return "min_dma_size must be between 4 bytes and 1 MiB";
    if (t->private_data_size > (1u << 20))
        return "private_data_size is limited to 1 MiB";
    return NULL;
}

const pbc_target *pbc_exec_target_open(const char *name, char *why, size_t why_size)
{
    const pbc_target *t = pbc_target_find(name);
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
