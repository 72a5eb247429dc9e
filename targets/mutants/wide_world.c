/*
 * Planted bugs that only a wider world shows: larger apertures, segments
 * whose addresses cross a 4 GiB line, and allocations beyond 16 MiB. In
 * the default layout (a 256 MiB aperture, segments at 0 and at 64 GiB of
 * at most 4 GiB) and at the sizes the suite used to try (up to 392 KiB),
 * each behaves exactly like the reference.
 *
 * mutant-gart-index16: keeps the GART index of MapApertureSegment and
 * UnmapApertureSegment in 16 bits (a USHORT field of its own structure).
 * An aperture of 65,536 pages or fewer hides it; in a larger one a map
 * beyond page 65,535 writes the entries of another page range (S30).
 *
 * mutant-carry32: adds the offset of each chunk to the low 32 bits of the
 * segment address and keeps the high 32 bits of the operation's start, so
 * the carry is lost where a transfer or fill crosses a 4 GiB line of the
 * address space inside a segment (S12).
 *
 * mutant-window-16m: addresses the segment side of a transfer through a
 * 24-bit offset from its start, as a copy engine with 16 MiB windows
 * would, and never moves the window: beyond 16 MiB of a transfer, chunks
 * wrap onto its first 16 MiB (S12, S13).
 *
 * The last two rewrite the addresses of the reference's packets: each is
 * the reference with exactly that arithmetic changed.
 */
#include "mutants.h"

#include <string.h>

#include "ref_builder.h"
#include "ref_isa.h"

static uint64_t rd64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static void wr64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* What a bug does to one segment-side address: `start` is where the
 * operation's segment side begins. */
typedef uint64_t (*addr_bug)(uint64_t start, uint64_t addr);

/* The segment-side starts of an operation: [0] for packet destinations,
 * [1] for copy sources; 0 where that side is an MDL (or absent). */
static void segment_starts(const DXGKARG_BUILDPAGINGBUFFER *a, uint64_t start[2])
{
    start[0] = start[1] = 0;
    switch (a->Operation) {
    case DXGK_OPERATION_TRANSFER:
        if (a->Transfer.Destination.SegmentId)
            start[0] = (uint64_t)a->Transfer.Destination.SegmentAddress.QuadPart + a->Transfer.TransferOffset;
        if (a->Transfer.Source.SegmentId)
            start[1] = (uint64_t)a->Transfer.Source.SegmentAddress.QuadPart + a->Transfer.TransferOffset;
        break;
    case DXGK_OPERATION_SPECIAL_LOCK_TRANSFER:
        if (a->SpecialLockTransfer.Destination.SegmentId)
            start[0] = (uint64_t)a->SpecialLockTransfer.Destination.SegmentAddress.QuadPart +
                       a->SpecialLockTransfer.TransferOffset;
        if (a->SpecialLockTransfer.Source.SegmentId)
            start[1] = (uint64_t)a->SpecialLockTransfer.Source.SegmentAddress.QuadPart +
                       a->SpecialLockTransfer.TransferOffset;
        break;
    case DXGK_OPERATION_FILL:
        start[0] = (uint64_t)a->Fill.Destination.SegmentAddress.QuadPart;
        break;
    default:
        break;
    }
}

/* Runs the reference, then applies `bug` to the segment-side addresses of
 * the COPY and FILL packets it wrote in this call. */
static NTSTATUS build_with_addr_bug(HANDLE adapter, DXGKARG_BUILDPAGINGBUFFER *a, addr_bug bug)
{
    uint64_t start[2];
    segment_starts(a, start);
    uint8_t *p = a->pDmaBuffer;
    NTSTATUS st = ref_build_paging_buffer(adapter, a);
    for (uint8_t *end = a->pDmaBuffer; p + 4 <= end;) {
        uint32_t header;
        memcpy(&header, p, 4);
        uint32_t opcode = header & 0xFFFF, dwords = header >> 16;
        if (dwords == 0)
            break;
        if ((opcode == REF_OP_COPY || opcode == REF_OP_FILL) && start[0])
            wr64(p + 4, bug(start[0], rd64(p + 4)));
        if (opcode == REF_OP_COPY && start[1])
            wr64(p + 12, bug(start[1], rd64(p + 12)));
        p += (size_t)dwords * 4;
    }
    return st;
}

static uint64_t carry32(uint64_t start, uint64_t addr)
{
    return (start & ~0xFFFFFFFFull) | (addr & 0xFFFFFFFFull);
}

static NTSTATUS APIENTRY carry32_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    return build_with_addr_bug(adapter, a, carry32);
}

static uint64_t window_16m(uint64_t start, uint64_t addr) { return start + ((addr - start) & 0xFFFFFFull); }

static NTSTATUS APIENTRY window_16m_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    if (a->Operation != DXGK_OPERATION_TRANSFER)
        return ref_build_paging_buffer(adapter, a);
    return build_with_addr_bug(adapter, a, window_16m);
}

static NTSTATUS APIENTRY gart_index16_build(IN_CONST_HANDLE adapter, IN_PDXGKARG_BUILDPAGINGBUFFER a)
{
    DXGKARG_BUILDPAGINGBUFFER local = *a;
    if (a->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT)
        local.MapApertureSegment.OffsetInPages = (USHORT)a->MapApertureSegment.OffsetInPages;
    if (a->Operation == DXGK_OPERATION_UNMAP_APERTURE_SEGMENT)
        local.UnmapApertureSegment.OffsetInPages = (USHORT)a->UnmapApertureSegment.OffsetInPages;
    NTSTATUS st = ref_build_paging_buffer(adapter, &local);
    a->pDmaBuffer = local.pDmaBuffer;
    a->MultipassOffset = local.MultipassOffset;
    return st;
}

#define WIDE_MUTANT(sym, nm, summary_text, build)                                                          \
    const pbc_target sym = {REF_TARGET_FIELDS(nm, summary_text, REF_MAX_PACKET_BYTES, 0, ref_create_adapter, \
                                              ref_destroy_adapter, ref_create_allocation, build, ref_patch,  \
                                              ref_submit_command)}

WIDE_MUTANT(pbc_mutant_gart_index16, "mutant-gart-index16", "keeps GART indexes in 16 bits", gart_index16_build);
WIDE_MUTANT(pbc_mutant_carry32, "mutant-carry32", "loses the carry into the high 32 bits of segment addresses",
            carry32_build);
WIDE_MUTANT(pbc_mutant_window_16m, "mutant-window-16m", "wraps transfers beyond 16 MiB onto their first 16 MiB",
            window_16m_build);
