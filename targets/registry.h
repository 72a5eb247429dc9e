/*
 * registry.h — the builders compiled into pbcheck: the reference, the
 * planted-bug builders that prove the harness finds what it claims to,
 * and the legal variants that prove it does not fail correct builders.
 */
#ifndef PBCHECK_REGISTRY_H
#define PBCHECK_REGISTRY_H

#include <pbcheck/target.h>

typedef enum pbc_target_kind {
    PBC_TARGET_KIND_REFERENCE = 0,
    PBC_TARGET_KIND_PLANTED_BUG = 1, /* must be caught by expected_rule */
    PBC_TARGET_KIND_VARIANT = 2,     /* a legal choice: must pass with no finding */
    PBC_TARGET_KIND_COUNT
} pbc_target_kind;

typedef struct pbc_target_entry {
    const pbc_target *target;
    /* Planted-bug builders: the rule certify must report; NULL otherwise. */
    const char *expected_rule;
    uint32_t kind; /* pbc_target_kind */
} pbc_target_entry;

const pbc_target_entry *pbc_target_list(uint32_t *count);
const pbc_target *pbc_target_find(const char *name);
/* "reference", "planted bug", "variant". */
const char *pbc_target_kind_name(uint32_t kind);

#endif
