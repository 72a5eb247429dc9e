/*
 * The table of built-in targets: the reference and the planted-bug
 * builders. The harness checks each table before calling it
 * (harness/exec/target.c).
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
