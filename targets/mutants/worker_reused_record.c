/*
 * mutant-worker-reused-record: ExWorker (targets/examples/example_worker)
 * built with EXWK_BUG_REUSED_RECORD, linked in so that test_mutants,
 * certify and the fuzz targets meet it as they meet every planted bug
 * (the same sources are built as libexample_worker_bug_reused_record.so).
 *
 * UpdatePageTable is recorded as it is handed, like the WDDM 1.x
 * operations, and the worker reads the entries through pPageTableEntries
 * when it runs: by then VidMm has reused that array (it is VidMm's for
 * the operation's calls only; the harness scribbles it once the operation
 * is done, harness/vidmm/call.c), so the worker writes garbage into the
 * tables. PB-PTE: UpdatePageTable writes entry i of pPageTableEntries as
 * entry StartIndex + i of the table (WDDM-FACTS, UpdatePageTable; S52,
 * S53 for what the entries hold).
 */
#define EXWK_BUG_REUSED_RECORD 1
#define EXWK_VARIANT_SYMBOL pbc_mutant_worker_reused_record
#define EXWK_REUSED_RECORD_NAME "mutant-worker-reused-record"
/* ExWorker's one external name, its own here. */
#define exwk_isa pbc_mutant_worker_reused_record_isa

#include "mutants.h"

#include "../examples/example_worker/exwk_isa.c"
#include "../examples/example_worker/exwk_ddi.c"
