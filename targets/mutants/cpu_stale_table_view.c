/*
 * mutant-cpu-stale-table-view: ExCpu (targets/examples/example_cpu) built
 * with EXCPU_BUG_STALE_TABLE_VIEW, linked in so that test_mutants, certify
 * and the fuzz targets meet it as they meet every planted bug (the same
 * sources are built as libexample_cpu_bug_stale_table_view.so).
 *
 * When VidMm moves a page table (CopyPageTableEntries into a new table,
 * then the directory entry pointed at it: va-move-tables, and a leaf
 * replaced by one of the other page size), the driver's record of the
 * table takes the new address but keeps its CPU view of the old copy.
 * Later updates of the table land in the old copy, which no directory
 * points at any more: the tables the GPU walks do not map what VidMm
 * mapped. PB-PTE: UpdatePageTable writes entry StartIndex + i of the
 * table at PageTableAddress (WDDM-FACTS, UpdatePageTable; S52, S53 for
 * what the entries hold).
 */
#define EXCPU_BUG_STALE_TABLE_VIEW 1
#define EXCPU_TARGET_SYMBOL pbc_mutant_cpu_stale_table_view
#define EXCPU_STALE_VIEW_NAME "mutant-cpu-stale-table-view"
/* ExCpu's one external name, its own here. */
#define excpu_isa pbc_mutant_cpu_stale_table_view_isa

#include "mutants.h"

#include "../examples/example_cpu/excpu_isa.c"
#include "../examples/example_cpu/excpu_ddi.c"
