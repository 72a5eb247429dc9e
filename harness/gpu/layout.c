/*
 * The GPU physical address map a segment layout must fit: segments are
 * numbered 1..n in order, page aligned, and overlap neither each other nor
 * the window the model keeps for system pages and paging buffers. Kept
 * apart from the GPU model so that scenario decoders (and the AFL++
 * mutator, which links no model) can check layouts.
 */
#include "gpu/gpu.h"

static int ranges_overlap(uint64_t a, uint64_t an, uint64_t b, uint64_t bn)
{
    return a < b + bn && b < a + an;
}

const char *pbc_gpu_layout_check(const pbc_segment_info *s, uint32_t n)
{
    if (n == 0 || n > PBC_MAX_SEGMENTS)
        return "between 1 and 8 segments are needed";
    for (uint32_t i = 0; i < n; i++) {
        if (s[i].SegmentId != i + 1)
            return "segment ids must be 1, 2, 3... in order";
        if (s[i].kind != PBC_SEGMENT_MEMORY && s[i].kind != PBC_SEGMENT_APERTURE)
            return "unknown segment kind";
        if (s[i].size == 0 || (s[i].size | s[i].base) % PBC_PAGE_SIZE)
            return "segment base and size must be non-zero multiples of 4 KiB";
        if (s[i].base + s[i].size < s[i].base)
            return "segment wraps around the address space";
        if (s[i].kind == PBC_SEGMENT_APERTURE && s[i].size > PBC_MAX_APERTURE_SIZE)
            return "aperture segments are limited to 4 GiB";
        if (ranges_overlap(s[i].base, s[i].size, PBC_SYS_WINDOW_BASE,
                           PBC_RESERVED_END - PBC_SYS_WINDOW_BASE))
            return "segment overlaps the system-memory window [2 GiB, 16 GiB)";
        for (uint32_t j = 0; j < i; j++)
            if (ranges_overlap(s[i].base, s[i].size, s[j].base, s[j].size))
                return "segments overlap";
    }
    return NULL;
}

