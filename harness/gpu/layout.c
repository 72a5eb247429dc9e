/*
 * The GPU physical address map a segment layout must fit: segments are
 * numbered 1..n in order, page aligned, and do not overlap each other.
 * Where they lie is the driver's business: the model puts its system
 * pages and paging buffers where no segment is (pbc_gpu_layout_shift).
 * Kept apart from the GPU model so that scenario decoders (and the AFL++
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
        for (uint32_t j = 0; j < i; j++)
            if (ranges_overlap(s[i].base, s[i].size, s[j].base, s[j].size))
                return "segments overlap";
    }
    if (pbc_gpu_layout_shift(s, n) == UINT64_MAX)
        return "no room is left in the address space for system pages";
    return NULL;
}

uint64_t pbc_gpu_layout_shift(const pbc_segment_info *s, uint32_t n)
{
    const uint64_t span = PBC_RESERVED_END - PBC_SYS_WINDOW_BASE;
    uint64_t shift = 0;
    for (;;) {
        uint64_t past = 0; /* the lowest shift that clears the segments in the way */
        for (uint32_t i = 0; i < n; i++) {
            if (!ranges_overlap(s[i].base, s[i].size, PBC_SYS_WINDOW_BASE + shift, span))
                continue;
            uint64_t end = s[i].base + s[i].size - PBC_SYS_WINDOW_BASE; /* > shift: it overlaps */
            uint64_t steps = end / PBC_RESERVED_STEP + (end % PBC_RESERVED_STEP != 0);
            if (steps > (UINT64_MAX - PBC_RESERVED_END) / PBC_RESERVED_STEP)
                return UINT64_MAX;
            if (steps * PBC_RESERVED_STEP > past)
                past = steps * PBC_RESERVED_STEP;
        }
        if (!past)
            return shift;
        shift = past;
    }
}
