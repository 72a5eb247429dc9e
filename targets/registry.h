/*
 * registry.h — the builders compiled into pbcheck: the reference and the
 * planted-bug builders that prove the harness finds what it claims to.
 */
#ifndef PBCHECK_REGISTRY_H
#define PBCHECK_REGISTRY_H

#include <pbcheck/target.h>

typedef struct pbc_target_entry {
    const pbc_target *target;
    /* Planted-bug builders: the rule certify must report; NULL otherwise. */
    const char *expected_rule;
} pbc_target_entry;

const pbc_target_entry *pbc_target_list(uint32_t *count);
const pbc_target *pbc_target_find(const char *name);

#endif
