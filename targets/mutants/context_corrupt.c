/*
 * mutant-context-corrupt: a driver that treats the head of a context
 * allocation (the first 256 bytes, where its contexts keep their header)
 * as something it rebuilds at the next context switch, and so leaves it
 * out when it moves a context: the first copy of a transfer of an
 * allocation it saw in InitContextResource starts 256 bytes late. Every
 * other allocation moves as the reference moves it.
 *
 * The DDI lets the driver choose a context's content (InitContextResource,
 * UpdateContextAllocation), but a transfer moves an allocation, context or
 * not, unchanged (S13, S15, S18): after the move the context must hold
 * what the driver left in it. Before pbcheck carried the target's own
 * image of a context through its moves, this passed (the context's bytes
 * were masked wherever it went).
 */
#include "mutants.h"

#include <string.h>

#include "variants/var_common.h"

#define CTX_HEAD 256u
#define CTX_KNOWN 64u

typedef struct ctx_adapter {
    var_adapter base;
    HANDLE contexts[CTX_KNOWN]; /* allocations initialized as contexts, oldest first */
    uint32_t count;
} ctx_adapter;

static NTSTATUS ctx_create_adapter(const pbc_adapter_info *info, HANDLE *adapter)
{
    return var_adapter_create(info, sizeof(ctx_adapter), adapter);
}

static int ctx_known(const ctx_adapter *ca, HANDLE h)
{
    for (uint32_t i = 0; i < ca->count; i++)
        if (ca->contexts[i] == h)
            return 1;
    return 0;
}

static uint32_t rd32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static uint64_t rd64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static void wr32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void wr64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

static NTSTATUS APIENTRY ctx_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    ctx_adapter *ca = adapter;
    if (a->Operation == DXGK_OPERATION_INIT_CONTEXT_RESOURCE && !ctx_known(ca, a->InitContextResource.hAllocation) &&
        ca->count < CTX_KNOWN)
        ca->contexts[ca->count++] = a->InitContextResource.hAllocation;
    int head = a->Operation == DXGK_OPERATION_TRANSFER && a->Transfer.TransferOffset == 0 &&
               a->MultipassOffset == 0 && ctx_known(ca, a->Transfer.hAllocation);
    uint8_t *start = a->pDmaBuffer;
    NTSTATUS st = ref_build_paging_buffer(var_ref(adapter), a);
    if (!head || (st != STATUS_SUCCESS && st != STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER))
        return st;
    /* The bug: the allocation's first copy leaves out the context's head. */
    for (uint8_t *p = start; p + 4 <= (uint8_t *)a->pDmaBuffer;) {
        uint32_t header = rd32(p), len = (header >> 16) * 4;
        if (len == 0)
            break;
        if ((header & 0xFF) == REF_OP_COPY) {
            uint32_t size = rd32(p + 20);
            if (size > CTX_HEAD) {
                wr64(p + 4, rd64(p + 4) + CTX_HEAD);
                wr64(p + 12, rd64(p + 12) + CTX_HEAD);
                wr32(p + 20, size - CTX_HEAD);
            }
            break;
        }
        p += len;
    }
    return st;
}

const pbc_target pbc_mutant_context_corrupt = {
    REF_TARGET_FIELDS_OPS(REF_OPERATIONS_GPUMMU, "mutant-context-corrupt",
                          "moves a context allocation without its first 256 bytes", REF_MAX_PACKET_BYTES, 0,
                          ctx_create_adapter, var_adapter_destroy, ref_create_allocation, ref_destroy_allocation,
                          ctx_build, var_patch, var_submit),
};
