/*
 * mutants.h — planted-bug builders: each is the reference with one
 * realistic bug, and names the rule the harness must report for it.
 */
#ifndef PBCHECK_MUTANTS_H
#define PBCHECK_MUTANTS_H

#include <pbcheck/target.h>

/* PBC_MUTANT(symbol, expected rule id) */
#define PBC_MUTANT_LIST                                       \
    PBC_MUTANT(pbc_mutant_resume_skip, "PB-DIVERGE")          \
    PBC_MUTANT(pbc_mutant_restart, "PB-LIVELOCK")             \
    PBC_MUTANT(pbc_mutant_overrun, "PB-DMA-OVERRUN")          \
    PBC_MUTANT(pbc_mutant_torn_packet, "PB-GPU-FAULT")        \
    PBC_MUTANT(pbc_mutant_unmap_zero, "PB-UNMAP-DUMMY")       \
    PBC_MUTANT(pbc_mutant_busy_always, "PB-BUSY-IDLE")        \
    PBC_MUTANT(pbc_mutant_busy_after_write, "PB-BUSY-CONSUMED") \
    PBC_MUTANT(pbc_mutant_offset_on_mdl, "PB-DIVERGE")        \
    PBC_MUTANT(pbc_mutant_mdl_offset_ignored, "PB-DIVERGE")   \
    PBC_MUTANT(pbc_mutant_trunc32, "PB-DIVERGE")              \
    PBC_MUTANT(pbc_mutant_fill_tail, "PB-DIVERGE")            \
    PBC_MUTANT(pbc_mutant_coherent, "PB-DIVERGE")             \
    PBC_MUTANT(pbc_mutant_bad_status, "PB-STATUS")            \
    PBC_MUTANT(pbc_mutant_no_progress, "PB-NO-PROGRESS")      \
    PBC_MUTANT(pbc_mutant_no_fence, "PB-FENCE")               \
    PBC_MUTANT(pbc_mutant_early_fence, "PB-FENCE")            \
    PBC_MUTANT(pbc_mutant_exec_from_start, "PB-EXEC-RANGE")   \
    PBC_MUTANT(pbc_mutant_patch_grows, "PB-PATCH")            \
    PBC_MUTANT(pbc_mutant_no_advance, "PB-DMA-ADVANCE")       \
    PBC_MUTANT(pbc_mutant_stale_state, "PB-NONDET")         \
    PBC_MUTANT(pbc_mutant_busy_fill, "PB-STATUS")             \
    PBC_MUTANT(pbc_mutant_busy_clears_idle, "PB-BUSY-IDLE")   \
    PBC_MUTANT(pbc_mutant_write_behind, "PB-DMA-OVERRUN")     \
    PBC_MUTANT(pbc_mutant_rewrite_submitted, "PB-DMA-SUBMITTED") \
    PBC_MUTANT(pbc_mutant_ring_gap, "PB-EXEC-RANGE")          \
    PBC_MUTANT(pbc_mutant_read_physical_skip, "PB-PHYSICAL")  \
    PBC_MUTANT(pbc_mutant_write_physical_off, "PB-PHYSICAL")  \
    PBC_MUTANT(pbc_mutant_fence_first, "PB-FENCE")           \
    PBC_MUTANT(pbc_mutant_ring_system, "PB-EXEC-RANGE")      \
    PBC_MUTANT(pbc_mutant_mdl_scribble, "PB-DMA-OVERRUN")   \
    PBC_MUTANT(pbc_mutant_cpu_ignores_idle, "PB-IDLE-HAZARD") \
    PBC_MUTANT(pbc_mutant_kept_view_ignores_idle, "PB-IDLE-HAZARD") \
    PBC_MUTANT(pbc_mutant_pool_leak, "PB-KERNEL")             \
    PBC_MUTANT(pbc_mutant_gart_index16, "PB-GPU-FAULT")      \
    PBC_MUTANT(pbc_mutant_carry32, "PB-DIVERGE")             \
    PBC_MUTANT(pbc_mutant_window_16m, "PB-DIVERGE") \
    PBC_MUTANT(pbc_mutant_merge_runs, "PB-DIVERGE") \
    PBC_MUTANT(pbc_mutant_discard_mark, "PB-DIVERGE")          \
    PBC_MUTANT(pbc_mutant_same_fill, "PB-DIVERGE")             \
    PBC_MUTANT(pbc_mutant_special_lock_mdl, "PB-DIVERGE")     \
    PBC_MUTANT(pbc_mutant_idle_sticks, "PB-IDLE-HAZARD")        \
    PBC_MUTANT(pbc_mutant_tlb_no_flush, "PB-TLB")              \
    PBC_MUTANT(pbc_mutant_pte_drops_ro, "PB-PTE")              \
    PBC_MUTANT(pbc_mutant_repeat_ignored, "PB-PTE")            \
    PBC_MUTANT(pbc_mutant_64k_as_4k, "PB-PTE")           \
    PBC_MUTANT(pbc_mutant_va_offset_added, "PB-GPU-FAULT")      \
    PBC_MUTANT(pbc_mutant_fence_low32, "PB-PAGING-FENCE")       \
    PBC_MUTANT(pbc_mutant_fence_physical, "PB-GPU-FAULT")       \
    PBC_MUTANT(pbc_mutant_adl_contiguous, "PB-GPU-FAULT")      \
    PBC_MUTANT(pbc_mutant_pte_virtual_as_physical, "PB-GPU-FAULT") \
    PBC_MUTANT(pbc_mutant_copy_pte_half, "PB-PTE")       \
    PBC_MUTANT(pbc_mutant_pte_page_off, "PB-PTE")             \
    PBC_MUTANT(pbc_mutant_fence_at_build, "PB-PAGING-FENCE")  \
    PBC_MUTANT(pbc_mutant_late_cpu_work, "PB-PAGING-FENCE")   \
    PBC_MUTANT(pbc_mutant_copy_wrong_start, "PB-PTE")          \
    PBC_MUTANT(pbc_mutant_copy_one_short, "PB-PTE")           \
    PBC_MUTANT(pbc_mutant_context_corrupt, "PB-DIVERGE")        \
    PBC_MUTANT(pbc_mutant_scratch_unfetched, "PB-GPU-FAULT")    \
    PBC_MUTANT(pbc_mutant_cpu_stale_table_view, "PB-PTE")     \
    PBC_MUTANT(pbc_mutant_worker_reused_record, "PB-PTE")     \
    PBC_MUTANT(pbc_mutant_flush_first_root, "PB-TLB")        \
    PBC_MUTANT(pbc_mutant_cached_root, "PB-TLB")              \
    PBC_MUTANT(pbc_mutant_cpu_restore, "PB-DIVERGE")         \
    PBC_MUTANT(pbc_mutant_map_records, "PB-UNMAP-DUMMY")       \
    PBC_MUTANT(pbc_mutant_fill_size32, "PB-DIVERGE")           \
    PBC_MUTANT(pbc_mutant_ring_base_twice, "PB-EXEC-RANGE")    \
    PBC_MUTANT(pbc_mutant_cpu_page_fill, "PB-DIVERGE")

#define PBC_MUTANT(sym, rule) extern const pbc_target sym;
PBC_MUTANT_LIST
#undef PBC_MUTANT

#endif
