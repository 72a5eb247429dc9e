/*
 * variant-drain-worker: ExWorker (targets/examples/example_worker), whose
 * worker, once SubmitCommand wakes it, runs every record handed over so
 * far rather than one submission's: a later submission's records may run
 * at an earlier wake-up, before that submission's own turn in the GPU
 * queue. Its one choice beside ExWorker, which stays as the one-at-a-time
 * template.
 *
 * Legal: the GPU scheduler calls SubmitCommand for a paging buffer only
 * once the work it depends on is done (docs/rules.md, "When
 * SubmitCommand comes"), so whatever a worker has been handed may run.
 * The harness must not hand a paging buffer over before the render work
 * it waits for has run (the eight false PB-DIVERGE of issue 26). Like
 * ExWorker it does its work with the CPU, so it declares the WDDM 1.x
 * operations only: a CPU worker cannot flush the GPU's TLB.
 */
#define EXWK_DRAIN 1
#define EXWK_VARIANT_SYMBOL pbc_variant_drain_worker
/* ExWorker's one external name, its own here: a binary may link ExWorker
 * itself beside the built-in variants (the ClusterFuzzLite build does). */
#define exwk_isa pbc_variant_drain_worker_isa

#include "variants.h"

#include "../examples/example_worker/exwk_isa.c"
#include "../examples/example_worker/exwk_ddi.c"
