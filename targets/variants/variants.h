/*
 * variants.h — legal variant builders: each is a correct builder that makes
 * exactly one choice the reference does not, legal by a DDI sentence
 * (docs/variants.md). The harness must pass every one with zero findings.
 */
#ifndef PBCHECK_VARIANTS_H
#define PBCHECK_VARIANTS_H

#include <pbcheck/target.h>

/* PBC_VARIANT(symbol) */
#define PBC_VARIANT_LIST                     \
    PBC_VARIANT(pbc_variant_own_progress)        \
    PBC_VARIANT(pbc_variant_patch_fence)         \
    PBC_VARIANT(pbc_variant_coherent_always)     \
    PBC_VARIANT(pbc_variant_pointers_in_packets) \
    PBC_VARIANT(pbc_variant_big_packets)         \
    PBC_VARIANT(pbc_variant_aligned_64)          \
    PBC_VARIANT(pbc_variant_busy_unless_idle)    \
    PBC_VARIANT(pbc_variant_early_insufficient)  \
    PBC_VARIANT(pbc_variant_private_data)        \
    PBC_VARIANT(pbc_variant_private_256k)        \
    PBC_VARIANT(pbc_variant_nop_closer)          \
    PBC_VARIANT(pbc_variant_inline_data)         \
    PBC_VARIANT(pbc_variant_ring_pieces)         \
    PBC_VARIANT(pbc_variant_cpu_when_idle)       \
    PBC_VARIANT(pbc_variant_cpu_kept_view)       \
    PBC_VARIANT(pbc_variant_cpu_asks_idle)       \
    PBC_VARIANT(pbc_variant_discard_scribble)    \
    PBC_VARIANT(pbc_variant_flush_all)           \
    PBC_VARIANT(pbc_variant_pte_gpu_virtual)     \
    PBC_VARIANT(pbc_variant_mmu_tricks)          \
    PBC_VARIANT(pbc_variant_native_pte)          \
    PBC_VARIANT(pbc_variant_mmu_cpu_worker)      \
    PBC_VARIANT(pbc_variant_worker_fence_packet) \
    PBC_VARIANT(pbc_variant_drain_worker)        \
    PBC_VARIANT(pbc_variant_gpu_scratch)         \
    PBC_VARIANT(pbc_variant_nop_scratch)

#define PBC_VARIANT(sym) extern const pbc_target sym;
PBC_VARIANT_LIST
#undef PBC_VARIANT

#endif
