/*
 * The table of built-in targets, and the ABI handshake every target table
 * must pass before the harness calls it.
 */
#include "registry.h"

#include <string.h>

#include "mutants/mutants.h"
#include "ref_builder.h"

static const pbc_target_entry entries[] = {
    {&pbc_target_reference, NULL},
#define PBC_MUTANT(sym, rule) {&sym, rule},
    PBC_MUTANT_LIST
#undef PBC_MUTANT
};

const pbc_target_entry *pbc_target_list(uint32_t *count)
{
    *count = sizeof(entries) / sizeof(entries[0]);
    return entries;
}

const pbc_target *pbc_target_find(const char *name)
{
    for (size_t i = 0; i < sizeof(entries) / sizeof(entries[0]); i++)
        if (strcmp(entries[i].target->name, name) == 0)
            return entries[i].target;
    return NULL;
}

const char *pbc_target_check(const pbc_target *t)
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
