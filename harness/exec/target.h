/*
 * target.h — finding a target by name (built in) or path (a shared
 * library exporting pbc_target_get) and checking its table before the
 * harness calls it (the ABI handshake).
 *
 * A library is a vendor's code: pbcheck's own process never loads it. It
 * is probed in a worker process (exec/isolate.h), under the verb's time
 * and memory limits, and the caller gets its description: a table whose
 * members are the library's and whose hooks trap. Workers load the
 * library as they start and see its real table at the same address.
 */
#ifndef PBCHECK_EXEC_TARGET_H
#define PBCHECK_EXEC_TARGET_H

#include <stddef.h>

#include <pbcheck/target.h>

#include "exec/isolate.h"
#include "gpu/gpu.h"

/* NULL when the table is usable, else why not (ABI version, size, hooks,
 * sizes out of range). */
const char *pbc_exec_target_check(const pbc_target *t);

/* Whether `name` names a shared library (a path) rather than a built-in. */
int pbc_exec_target_is_path(const char *name);

/* The file of library target `index` (the order the driver process
 * serves them in, harness/ddi/), as an absolute path, for naming its code
 * from its own debug information; NULL when there is no such library. */
const char *pbc_exec_library_path(uint32_t index);

/* How a library's probe went wrong when the library itself did it: it
 * crashed, exited, hung or grew too large while it was loaded (its
 * constructors, pbc_target_get). */
typedef struct pbc_exec_load {
    int failed;
    pbc_iso_class cls;
    char detail[512];
    char *output; /* what the worker printed, owned, may be NULL */
} pbc_exec_load;
void pbc_exec_load_fini(pbc_exec_load *load);

/* The target named `name` (built in) or at path `name`, checked. A
 * library is probed in a worker under `limits` (its time and memory; the
 * rest is the probe's own). NULL with a one-line reason in why when there
 * is none or it is not a usable target (a usage error), and with
 * load->failed set when the library died, exited or hung while loading
 * (the builder's failure). */
const pbc_target *pbc_exec_target_open(const char *name, const pbc_iso_limits *limits, pbc_exec_load *load,
                                       char *why, size_t why_size);

/* In this process, every library target opened so far becomes the
 * library itself, loaded here. Workers do this as they start; the caller
 * only when told to run builders in its own process (--no-fork). A
 * library that cannot be loaded again, or describes itself differently,
 * ends the process with PBC_ISO_INIT_EXIT after one line on stderr. */
void pbc_exec_targets_load_here(void);

/* From now on, workers of library targets split (docs/architecture.md,
 * "Trust boundary"): each forks a driver process that loads the
 * libraries and runs their code, and judges it across the DDI
 * (harness/ddi/). Call before the first target is opened. */
void pbc_exec_targets_split_on(void);
/* The workers started from now on split (what opening a library does
 * once pbc_exec_targets_split_on was called). */
void pbc_exec_targets_split(void);
/* Whether library workers split (PBCHECK_SPLIT, or
 * pbc_exec_targets_split_on): what provenance.isolation says of the
 * judge. */
int pbc_exec_targets_split_active(void);

/* At the end of a split run (certify, run, replay, triage): the purity
 * audit of every library's decoder process (ddi/decoder.h,
 * pbc_decoder_audit), the first impure one's finding in *out. Returns
 * out->pure; out->ran 0 when no decoder process ran. The result stays for
 * pbc_exec_decoder_last (the provenance). */
struct pbc_decoder_audit_result;
int pbc_exec_decoder_audit(struct pbc_decoder_audit_result *out);
const struct pbc_decoder_audit_result *pbc_exec_decoder_last(void);

/* Opens a target and loads a library in this process, without a probe:
 * for a process that is itself the worker (a fuzz target binary). */
const pbc_target *pbc_exec_target_open_here(const char *name, char *why, size_t why_size);

/* The segments the target declares (its pbc_adapter_decl), as a layout;
 * returns how many, 0 when it declares none (any layout will do). Every
 * scenario a generator or decoder makes for the target is made within it. */
uint32_t pbc_exec_target_layout(const pbc_target *t, pbc_segment_info out[PBC_MAX_SEGMENTS]);

#endif
