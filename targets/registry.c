/*
 * The table of built-in targets: the reference, the planted-bug builders
 * and the legal variants. The harness checks each table before calling it
 * (harness/exec/target.c).
 */
#include "registry.h"

#include <string.h>

#include "mutants/mutants.h"
#include "ref_builder.h"
#include "variants/variants.h"

static const pbc_target_entry entries[] = {
    {&pbc_target_reference, NULL, PBC_TARGET_KIND_REFERENCE},
#define PBC_MUTANT(sym, rule) {&sym, rule, PBC_TARGET_KIND_PLANTED_BUG},
    PBC_MUTANT_LIST
#undef PBC_MUTANT
#define PBC_VARIANT(sym) {&sym, NULL, PBC_TARGET_KIND_VARIANT},
    PBC_VARIANT_LIST
#undef PBC_VARIANT
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

const char *pbc_target_kind_name(uint32_t kind)
{
    static const char *const names[PBC_TARGET_KIND_COUNT] = {
        [PBC_TARGET_KIND_REFERENCE] = "reference",
        [PBC_TARGET_KIND_PLANTED_BUG] = "planted bug",
        [PBC_TARGET_KIND_VARIANT] = "variant",
    };
    return kind < PBC_TARGET_KIND_COUNT ? names[kind] : "unknown";
}
