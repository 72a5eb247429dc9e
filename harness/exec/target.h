/*
 * target.h — finding a target by name and checking its table before the
 * harness calls it (the ABI handshake). Built-in targets today; shared
 * libraries come with the external-builders work.
 */
#ifndef PBCHECK_EXEC_TARGET_H
#define PBCHECK_EXEC_TARGET_H

#include <stddef.h>

#include <pbcheck/target.h>

/* NULL when the table is usable, else why not (ABI version, size, hooks,
 * sizes out of range). */
const char *pbc_exec_target_check(const pbc_target *t);

/* Whether `name` names a shared library (a path) rather than a built-in. */
int pbc_exec_target_is_path(const char *name);

/* The target named `name` (built in) or at path `name` (a shared library
 * exporting pbc_target_get), checked; NULL with a one-line reason in why
 * when there is none or it is unusable. */
const pbc_target *pbc_exec_target_open(const char *name, char *why, size_t why_size);

#endif
