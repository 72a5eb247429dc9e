/*
 * mutants.h — planted-bug builders: each is the reference with one
 * realistic bug, and names the rule the harness must report for it.
 */
#ifndef PBCHECK_MUTANTS_H
#define PBCHECK_MUTANTS_H

#include <pbcheck/target.h>

/* PBC_MUTANT(symbol, expected rule id) */
#define PBC_MUTANT_LIST

#endif
