/*
 * variant-pte-gpu-virtual: an adapter that takes page-table updates by
 * GPU virtual address (DXGK_VIRTUALADDRESSCAPS::PageTableUpdateMode
 * GPU_VIRTUAL): VidMm hands each table at its address in the paging
 * process's space, and the builder writes the entries there, through the
 * GPU's own translation. Its work is the reference's; the harness must
 * give such an adapter addresses that the GPU can reach, and judge the
 * tables the same way.
 */
#include "var_common.h"

const pbc_target pbc_variant_pte_gpu_virtual = {
    REF_TARGET_FIELDS_OPS(REF_OPERATIONS_GPUMMU, "variant-pte-gpu-virtual",
                          "takes page-table updates by GPU virtual address (GPU_VIRTUAL)", REF_MAX_PACKET_BYTES, 0,
                          var_create_adapter, var_adapter_destroy, ref_create_allocation, ref_destroy_allocation,
                          var_build, var_patch, var_submit),
    .adapter = &ref_decl_gpu_virtual,
};
