/*
 * variant-private-data: declares PRIV_SIZE bytes of private data per
 * paging buffer and, for every call that writes work, appends a record of
 * the DMA bytes it wrote, advancing pDmaBufferPrivateData. Patch and
 * SubmitCommand check that the records in their private-data range cover
 * exactly their submission. S04: DmaBufferPrivateDataSize is the private
 * data left; S43: for paging the builder says through
 * pDmaBufferPrivateData, as BuildPagingBuffer left it, how submissions
 * share the private data; S44: with no private data, no validation. When
 * no record fits, the call answers INSUFFICIENT before writing (S07). The
 * harness must hand private-data ranges that match the submissions.
 */
#include <string.h>

#include "var_common.h"

#define PRIV_SIZE 128u
#define PRIV_MAGIC 0x56524250u /* "PBRV" */

typedef struct priv_record {
    uint32_t magic;
    uint32_t operation;
    uint32_t start, end; /* DMA bytes written, offsets from the buffer's start */
} priv_record;

static NTSTATUS APIENTRY priv_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    uint8_t *start = a->pDmaBuffer;
    int room = a->DmaBufferPrivateDataSize >= sizeof(priv_record);
    NTSTATUS st = var_ref_window(adapter, a, start, room ? a->DmaSize : 0);
    uint8_t *cur = a->pDmaBuffer;
    if (cur == start)
        return st;
    priv_record r = {PRIV_MAGIC, a->Operation, a->DmaBufferWriteOffset,
                     a->DmaBufferWriteOffset + (uint32_t)(cur - start)};
    memcpy(a->pDmaBufferPrivateData, &r, sizeof(r));
    a->pDmaBufferPrivateData = (uint8_t *)a->pDmaBufferPrivateData + sizeof(r);
    return st;
}

/* The records of [pstart, pend) tile [start, end) in order. */
static int priv_covers(const uint8_t *priv, UINT psize, UINT pstart, UINT pend, UINT start, UINT end)
{
    if (psize == 0)
        return 1; /* S44 */
    if (pend > psize || pstart > pend || (pend - pstart) % sizeof(priv_record))
        return 0;
    UINT at = start;
    for (UINT off = pstart; off < pend; off += sizeof(priv_record)) {
        priv_record r;
        memcpy(&r, priv + off, sizeof(r));
        if (r.magic != PRIV_MAGIC || r.start != at || r.end <= r.start)
            return 0;
        at = r.end;
    }
    return at == end;
}

static NTSTATUS APIENTRY priv_patch(IN_CONST_HANDLE adapter, const DXGKARG_PATCH *p)
{
    (void)adapter;
    return priv_covers(p->pDmaBufferPrivateData, p->DmaBufferPrivateDataSize,
                       p->DmaBufferPrivateDataSubmissionStartOffset,
                       p->DmaBufferPrivateDataSubmissionEndOffset, p->DmaBufferSubmissionStartOffset,
                       p->DmaBufferSubmissionEndOffset)
               ? STATUS_SUCCESS
               : STATUS_INVALID_PARAMETER;
}

static NTSTATUS APIENTRY priv_submit(IN_CONST_HANDLE adapter, const DXGKARG_SUBMITCOMMAND *c)
{
    if (!priv_covers(c->pDmaBufferPrivateData, c->DmaBufferPrivateDataSize,
                     c->DmaBufferPrivateDataSubmissionStartOffset,
                     c->DmaBufferPrivateDataSubmissionEndOffset, c->DmaBufferSubmissionStartOffset,
                     c->DmaBufferSubmissionEndOffset))
        return STATUS_INVALID_PARAMETER;
    return var_submit(adapter, c);
}

VAR_TARGET(pbc_variant_private_data, "variant-private-data",
           "one private-data record per call, checked by Patch and Submit (S04, S43, S44)",
           REF_MAX_PACKET_BYTES, PRIV_SIZE, var_create_adapter, priv_build, priv_patch, priv_submit);

/* variant-private-256k: the same records in 256 KiB of private data per
 * buffer, as a driver declares that keeps a shadow of each buffer there:
 * DmaBufferPrivateDataSize is the driver's own choice (S04). VidMm keeps
 * a buffer's private data until the buffer retires, not to the end of the
 * run: 65,536 buffers of a 256 MiB transfer in the smallest buffers would
 * hold 16 GiB. */
VAR_TARGET(pbc_variant_private_256k, "variant-private-256k",
           "256 KiB of private data per buffer, records checked by Patch and Submit (S04, S43)",
           REF_MAX_PACKET_BYTES, 256u * 1024, var_create_adapter, priv_build, priv_patch, priv_submit);
