/*
 * target.h — finding a target by name (built in) or path (a shared
 * library exporting pbc_target_get) and checking its table before the
 * harness calls it (the ABI handshake).
 */
#ifndef PBCHECK_EXEC_TARGET_H
#define PBCHECK_EXEC_TARGET_H

#include <stddef.h>

#include <pbcheck/target.h>

#include "gpu/gpu.h"

/* NULL when the table is usable, else why not (ABI version, size, hooks,
 * sizes out of range). */
const char *pbc_exec_target_check(const pbc_target *t);

/* Whether `name` names a shared library (a path) rather than a built-in. */
int pbc_exec_target_is_path(const char *name);

/* The target named `name` (built in) or at path `name` (a shared library
 * exporting pbc_target_get), checked; NULL with a one-line reason in why
 * when there is none or it is unusable. */
const pbc_target *pbc_exec_target_open(const char *name, char *why, size_t why_size);

/* The segments the target declares (its pbc_adapter_decl), as a layout;
 * returns how many, 0 when it declares none (any layout will do). Every
 * scenario a generator or decoder makes for the target is made within it. */
uint32_t pbc_exec_target_layout(const pbc_target *t, pbc_segment_info out[PBC_MAX_SEGMENTS]);

#endif
