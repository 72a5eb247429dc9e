/*
 * The certification suite. Cases are written as scenario text (so every
 * reproducer is exactly what ran) and must parse: the residency tracker has
 * the last word on what a real VidMm could issue, so a combination that is
 * not legal is simply not generated.
 */
#include "certify/certify.h"

#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "base/util.h"

void pbc_case_list_fini(pbc_case_list *l)
{
    for (uint32_t i = 0; i < l->count; i++)
        free(l->items[i].text);
    free(l->items);
    memset(l, 0, sizeof(*l));
}

void pbc_case_list_truncate(pbc_case_list *l, uint32_t n)
{
    for (uint32_t i = n; i < l->count; i++)
        free(l->items[i].text);
    if (n < l->count)
        l->count = n;
}

/* The globs of a --cases list, in order; -1 when one is empty or too long
 * (copied into bad). */
static int case_globs(const char *patterns, char (*globs)[PBC_CASE_GLOB_MAX + 1], uint32_t max, uint32_t *count,
                      char *bad, size_t bad_size)
{
    *count = 0;
    for (const char *p = patterns;;) {
        size_t n = strcspn(p, ",");
        if (n == 0 || n > PBC_CASE_GLOB_MAX || *count == max) {
            snprintf(bad, bad_size, "%.*s", (int)(n > 64 ? 64 : n), p);
            return -1;
        }
        memcpy(globs[*count], p, n);
        globs[(*count)++][n] = 0;
        if (!p[n])
            return 0;
        p += n + 1;
    }
}

int pbc_case_list_select(pbc_case_list *l, const char *patterns, char *bad, size_t bad_size)
{
    char(*globs)[PBC_CASE_GLOB_MAX + 1] = pbc_xcalloc(PBC_CASE_GLOBS_MAX, sizeof(*globs));
    uint32_t count, hits[PBC_CASE_GLOBS_MAX] = {0};
    if (case_globs(patterns, globs, PBC_CASE_GLOBS_MAX, &count, bad, bad_size)) {
        free(globs);
        return -1;
    }
    uint8_t *keep = pbc_xcalloc(l->count ? l->count : 1, 1);
    for (uint32_t i = 0; i < l->count; i++)
        for (uint32_t g = 0; g < count; g++)
            if (fnmatch(globs[g], l->items[i].name, 0) == 0) {
                keep[i] = 1;
                hits[g]++;
            }
    for (uint32_t g = 0; g < count; g++)
        if (!hits[g]) {
            snprintf(bad, bad_size, "%s", globs[g]);
            free(keep);
            free(globs);
            return -2;
        }
    uint32_t kept = 0;
    for (uint32_t i = 0; i < l->count; i++) {
        if (keep[i])
            l->items[kept++] = l->items[i];
        else
            free(l->items[i].text);
    }
    l->count = kept;
    free(keep);
    free(globs);
    return (int)kept;
}

typedef struct gen_dims {
    const char *dma_name;
    uint32_t dma;  /* 0 = min */
    uint32_t split;
    int busy;
    int addr;      /* 0 low, 1 high (above 4 GiB), 2 segment end */
    uint32_t mdl_offset;
    int odd;       /* 0: page multiple; 1: odd size; 2: big and odd */
    uint32_t in_segment; /* paging buffers in this memory segment (S40); 0: system memory */
    uint64_t size; /* the allocation's size; 0: by `odd` */
    uint32_t phys; /* the allocation's pbc_phys_layout */
} gen_dims;

typedef struct gen_buf {
    char text[4096];
    size_t len;
    const struct gen_layout *layout; /* the segments cases are written for */
    uint32_t paging;                 /* stories and the 2.x matrix: paging buffers in this memory
                                        segment (S40); 0: system memory */
    const char *paging_name;         /* and the word their names start with */
} gen_buf;

static void gb(gen_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void gb(gen_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->text + b->len, sizeof(b->text) - b->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        b->len += (size_t)n;
}

static const char *const addr_names[] = {"low", "high", "end", "across-4g"};
static const char *const op_names[] = {
    "transfer-mdl-to-seg", "transfer-seg-to-mdl", "transfer-seg-to-seg", "transfer-within-seg",
    "special-lock-to-seg", "special-lock-to-mdl", "fill", "discard", "read-physical",
    "write-physical", "map-access-unmap", "map-stays",
};
enum { G_MDL_TO_SEG, G_SEG_TO_MDL, G_SEG_TO_SEG, G_WITHIN, G_SL_TO_SEG, G_SL_TO_MDL, G_FILL,
       G_DISCARD, G_READ_PHYS, G_WRITE_PHYS, G_MAP_UNMAP, G_MAP_STAYS, G_COUNT };

/* The segments cases use: the default layout, or the one the target
 * declares (then written into every case, so reproducers stand alone). */
typedef struct gen_layout {
    pbc_segment_info seg[8];
    uint32_t count;
    int declared;
    uint32_t low, high, aperture; /* segment ids; 0 = none such */
    /* Apertures by coherence: a declared cache-coherent one and one that
     * is not (both the one aperture of an undeclared layout). `aperture`
     * is the second when there is one. */
    uint32_t coherent_ap, plain_ap;
} gen_layout;

static void layout_init(const pbc_target *t, gen_layout *out)
{
    gen_layout layout;
    memset(&layout, 0, sizeof(layout));
    const pbc_adapter_decl *d = t->adapter;
    if (d && d->segment_count) {
        layout.declared = 1;
        layout.count = d->segment_count;
        for (uint32_t i = 0; i < d->segment_count; i++)
            layout.seg[i] = (pbc_segment_info){d->segments[i].SegmentId, d->segments[i].kind, d->segments[i].base,
                                               d->segments[i].size};
    } else {
        pbc_scenario s;
        pbc_scenario_init(&s);
        pbc_scenario_default_layout(&s);
        layout.count = s.segment_count;
        memcpy(layout.seg, s.segments, sizeof(layout.seg));
    }
    /* low: the first memory segment; high: a memory segment above 4 GiB
     * (else the largest other one); the first aperture. */
    for (uint32_t i = 0; i < layout.count; i++) {
        const pbc_segment_info *g = &layout.seg[i];
        if (g->kind == PBC_SEGMENT_MEMORY && !layout.low)
            layout.low = g->SegmentId;
        else if (g->kind == PBC_SEGMENT_MEMORY && (!layout.high || g->base >= (1ull << 32)))
            layout.high = g->SegmentId;
        if (g->kind == PBC_SEGMENT_APERTURE && !layout.aperture)
            layout.aperture = g->SegmentId;
    }
    if (!layout.high)
        layout.high = layout.low;
    layout.coherent_ap = layout.plain_ap = layout.aperture;
    if (layout.declared) {
        layout.coherent_ap = layout.plain_ap = 0;
        for (uint32_t i = 0; i < d->segment_count; i++) {
            const pbc_segment_decl *g = &d->segments[i];
            if (g->kind != PBC_SEGMENT_APERTURE)
                continue;
            if (g->cache_coherent && !layout.coherent_ap)
                layout.coherent_ap = g->SegmentId;
            if (!g->cache_coherent && !layout.plain_ap)
                layout.plain_ap = g->SegmentId;
        }
        layout.aperture = layout.plain_ap ? layout.plain_ap : layout.coherent_ap;
    }
    *out = layout;
}

/* The aperture a map goes to: one that asks for CacheCoherent goes to a
 * cache-coherent aperture, any other to one that is not, where the adapter
 * declares both (so both kinds are covered). An adapter that declares no
 * cache-coherent aperture is never asked for coherence (VidMm sets the
 * flag only for such a segment): map_coherent says whether to ask. */
static uint32_t map_aperture(const gen_layout *l, int coherent)
{
    return coherent && l->coherent_ap ? l->coherent_ap : l->aperture;
}

static const char *map_coherent(const gen_layout *l, int coherent)
{
    return coherent && l->coherent_ap ? " coherent" : "";
}

static uint64_t seg_size(const gen_layout *l, uint32_t id) { return id ? l->seg[id - 1].size : 0; }

/* A place for `size` bytes in the address class: low offsets of the low
 * segment, inside the high one (above 4 GiB in the default layout), flush
 * with a 4 GiB boundary (or the end) of the high one, or across a 4 GiB
 * line of the address space inside it (the first and the fourth line
 * above its base). Offsets that do not fit a declared segment shrink; a
 * case that still does not fit is dropped when it is validated. */
static void place(gen_buf *b, int addr, uint64_t size, int second)
{
    uint64_t sz = (size + 3) & ~3ull, off;
    uint32_t id = addr == 0 ? b->layout->low : b->layout->high;
    uint64_t room = seg_size(b->layout, id);
    if (addr == 0)
        off = second ? 0x200000ull : 0x10000ull;
    else if (addr == 1)
        off = second ? 0x10200000ull : 0x100000ull;
    else if (addr == 2)
        off = (second ? 0x100000000ull : 0xF0000000ull) - sz;
    else {
        uint64_t base = id ? b->layout->seg[id - 1].base : 0;
        uint64_t line = ((base >> 32) + (second ? 4 : 1)) << 32;
        off = (line - base - sz / 2) & ~3ull;
    }
    if (off + sz > room) /* a smaller declared segment */
        off = addr == 2 ? (second ? room - sz : room / 2 - sz) : (second ? room / 2 : room / 8) & ~3ull;
    gb(b, "%u:0x%llx", id, (unsigned long long)off);
}

static int gen_text(int op, const gen_dims *d, gen_buf *b)
{
    /* page-size, odd-size, and big enough (97 pages) that one submission
     * carries kilobytes of packets in the larger paging buffers. */
    uint64_t size = d->size ? d->size : d->odd == 2 ? 96 * 4096 + 1236 : d->odd ? 5 * 4096 + 1236 : 6 * 4096;
    b->len = 0;
    gb(b, "pbs 1\n");
    for (uint32_t i = 0; b->layout->declared && i < b->layout->count; i++)
        gb(b, "segment %u %s base=0x%llx size=0x%llx\n", b->layout->seg[i].SegmentId,
           b->layout->seg[i].kind == PBC_SEGMENT_APERTURE ? "aperture" : "memory",
           (unsigned long long)b->layout->seg[i].base, (unsigned long long)b->layout->seg[i].size);
    if (d->in_segment)
        gb(b, "paging-buffers segment=%u\n", d->in_segment);
    int needs_mdl = op == G_MDL_TO_SEG || op == G_SEG_TO_MDL || op == G_SL_TO_SEG || op == G_SL_TO_MDL ||
                    op == G_MAP_UNMAP || op == G_MAP_STAYS;
    int starts_in_system = op == G_MDL_TO_SEG || op == G_SL_TO_SEG || op == G_MAP_UNMAP || op == G_MAP_STAYS;
    gb(b, "alloc A size=%llu", (unsigned long long)size);
    if (op == G_FILL)
        gb(b, " at=none");
    else if (!starts_in_system) {
        gb(b, " at=");
        place(b, d->addr, size, 0);
    }
    if (needs_mdl)
        gb(b, " mdl-offset=%u", d->mdl_offset);
    if (d->phys != PBC_PHYS_SCATTERED)
        gb(b, " phys=%s", pbc_phys_name(d->phys));
    if (d->busy)
        gb(b, " needs-idle");
    gb(b, "\n");
    if (d->dma)
        gb(b, "dma size=%u\n", d->dma);
    else
        gb(b, "dma size=min\n");
    if (d->busy && op != G_FILL)
        gb(b, "render-write A offset=0 size=4K pattern=0x5EED5EED\n");
    switch (op) {
    case G_MDL_TO_SEG:
    case G_SEG_TO_SEG:
    case G_WITHIN:
        gb(b, "transfer A to=");
        place(b, op == G_SEG_TO_SEG ? (d->addr == 0 ? 1 : 0) : d->addr, size, 1);
        gb(b, " split=%u\n", d->split);
        break;
    case G_SEG_TO_MDL:
        gb(b, "transfer A to=system split=%u\n", d->split);
        break;
    case G_SL_TO_SEG:
        gb(b, "special-lock-transfer A to=");
        place(b, d->addr, size, 1);
        gb(b, "\n");
        break;
    case G_SL_TO_MDL:
        gb(b, "special-lock-transfer A to=system\n");
        break;
    case G_FILL:
        gb(b, "fill A to=");
        place(b, d->addr, size, 0);
        gb(b, " pattern=0xA1B2C3D4\n");
        break;
    case G_DISCARD:
        gb(b, "discard A\n");
        break;
    case G_READ_PHYS:
    case G_WRITE_PHYS:
        gb(b, "%s at=", op == G_READ_PHYS ? "read-physical" : "write-physical");
        place(b, d->addr, 8, 1);
        gb(b, "\n");
        break;
    case G_MAP_UNMAP:
    case G_MAP_STAYS:
    {
        uint32_t ap = map_aperture(b->layout, d->busy);
        if (!ap)
            return -1;
        uint64_t pages = seg_size(b->layout, ap) / 4096;
        if (pages < 4)
            return -1;
        uint64_t at = d->addr >= 2 ? pages - 4 : (uint64_t)d->addr * 1000 + 3;
        if (at + 4 > pages)
            at = (pages - 4) / 2;
        gb(b, "map A aperture=%u:%llu first=1 count=4%s\n", ap, (unsigned long long)at,
           map_coherent(b->layout, d->busy));
        gb(b, "gpu-read at=%u:0x%llx size=16K\n", ap, (unsigned long long)at * 4096);
        if (op == G_MAP_UNMAP) {
            gb(b, "unmap A\n");
            gb(b, "gpu-read at=%u:0x%llx size=16K\n", ap, (unsigned long long)at * 4096);
        }
    }
        break;
    default:
        return -1;
    }
    /* Follow-up: move it once more so resumed work is read back. */
    if (op <= G_WITHIN && op != G_SEG_TO_MDL)
        gb(b, "transfer A to=system split=%u\n", d->split);
    gb(b, "end\n");
    return 0;
}

/* Adds the case if it is a scenario a real VidMm could issue on the
 * layout (a declared layout may be too small for some places). */
static void add_case(pbc_case_list *l, const char *name, const char *text)
{
    pbc_scenario s;
    char err[256];
    if (pbc_scenario_parse(text, strlen(text), name, &s, err, sizeof(err)))
        return;
    pbc_scenario_fini(&s);
    pbc_case c;
    snprintf(c.name, sizeof(c.name), "%s", name);
    c.text = pbc_xstrdup(text);
    PBC_PUSH(l->items, l->count, l->cap, c);
}

static int op_uses_split(int op) { return op <= G_WITHIN; }
/* ReadPhysical and WritePhysical: their address class is all they have,
 * so --quick keeps the one below 4 GiB too. */
static int op_is_physical(int op) { return op == G_READ_PHYS || op == G_WRITE_PHYS; }
static int op_uses_mdl(int op)
{
    return op == G_MDL_TO_SEG || op == G_SEG_TO_MDL || op == G_SL_TO_SEG || op == G_SL_TO_MDL ||
           op == G_MAP_UNMAP || op == G_MAP_STAYS;
}

/* ---- Stories: operations chained on the same allocations ----
 *
 * The cases above check each operation on a fresh allocation; a builder
 * that keeps state about an allocation (keyed on hAllocation, on a range,
 * on an MDL) goes wrong only when operations follow one another. Each
 * story chains operations a real VidMm issues one after another on the
 * same allocations, at two paging-buffer sizes, with the allocations
 * needing idle or not. */

typedef struct story_dims {
    const char *dma_name;
    uint32_t dma; /* 0 = min */
    int busy;     /* allocations need idle, so render work between operations makes them busy */
} story_dims;

typedef struct story {
    const char *name;
    const char *const *variants;   /* NULL: one, unnamed */
    uint32_t variant_count;
    int busy_only;                 /* about busy allocations: with needs-idle only */
    /* Writes the case (without its end); -1 when the layout cannot take it. */
    int (*write)(gen_buf *b, const story_dims *d, uint32_t variant);
} story;

static const char *story_idle(const story_dims *d) { return d->busy ? " needs-idle" : ""; }

/* "SEG:OFF" */
static void story_at(gen_buf *b, uint32_t segment, uint64_t offset)
{
    gb(b, "%u:0x%llx", segment, (unsigned long long)offset);
}

/* "alloc WHAT at=SEG:OFF" and the story's idle flag, on a line of its own. */
static void story_alloc(gen_buf *b, const story_dims *d, const char *what, uint32_t segment, uint64_t offset)
{
    gb(b, "alloc %s at=", what);
    story_at(b, segment, offset);
    gb(b, "%s\n", story_idle(d));
}

/* "WHAT to=SEG:OFF REST" on a line of its own. */
static void story_to(gen_buf *b, const char *what, uint32_t segment, uint64_t offset, const char *rest)
{
    gb(b, "%s to=", what);
    story_at(b, segment, offset);
    gb(b, "%s\n", rest);
}

/* The case's first lines: the declared layout, or for `extra` the default
 * one with a third memory segment as segment 4 (a case that declares no
 * segment gets the default layout). */
static void story_header(gen_buf *b, int extra)
{
    b->len = 0;
    gb(b, "pbs 1\n");
    const gen_layout *l = b->layout;
    if (l->declared || extra)
        for (uint32_t i = 0; i < l->count; i++)
            gb(b, "segment %u %s base=0x%llx size=0x%llx\n", l->seg[i].SegmentId,
               l->seg[i].kind == PBC_SEGMENT_APERTURE ? "aperture" : "memory", (unsigned long long)l->seg[i].base,
               (unsigned long long)l->seg[i].size);
    if (extra && !l->declared)
        gb(b, "segment %u memory base=0x2000000000 size=64M\n", l->count + 1);
    if (b->paging)
        gb(b, "paging-buffers segment=%u\n", b->paging);
}

static void story_dma(gen_buf *b, const story_dims *d)
{
    if (d->dma)
        gb(b, "dma size=%u\n", d->dma);
    else
        gb(b, "dma size=min\n");
}

/* fill -> render -> discard -> fill the same range (the same pattern, or
 * another) -> move: the second fill is needed as much as the first, and
 * the move carries what it laid. */
static int story_fill_refill(gen_buf *b, const story_dims *d, uint32_t variant)
{
    uint32_t low = b->layout->low;
    story_header(b, 0);
    gb(b, "alloc A size=24K at=none%s\n", story_idle(d));
    story_dma(b, d);
    story_to(b, "fill A", low, 0x10000, " pattern=0xA1B2C3D4");
    gb(b, "render-write A offset=0x1000 size=8K pattern=0x5EED5EED\n");
    gb(b, "discard A\n");
    gb(b, "fill A to=");
    story_at(b, low, 0x10000);
    gb(b, " pattern=0x%08X\n", variant == 0 ? 0xA1B2C3D4u : 0x0F1E2D3Cu);
    gb(b, "render-read A offset=0 size=24K\n");
    gb(b, "transfer A to=system split=2\n");
    story_to(b, "transfer A", low, 0x10000, " split=3");
    return 0;
}

/* evict -> restore to a range overlapping the old one -> evict -> another
 * allocation takes part of the first range -> restore overlapping the
 * second one. */
static int story_evict_restore(gen_buf *b, const story_dims *d, uint32_t variant)
{
    uint32_t low = b->layout->low;
    (void)variant;
    story_header(b, 0);
    gb(b, "alloc A size=%u at=", 5 * 4096 + 1236);
    story_at(b, low, 0x10000);
    gb(b, " mdl-offset=1%s\n", story_idle(d));
    gb(b, "alloc B size=8K at=none\n");
    story_dma(b, d);
    gb(b, "render-write A offset=0 size=4K pattern=0x11111111\n");
    gb(b, "transfer A to=system split=3\n");
    story_to(b, "transfer A", low, 0x13000, " split=2");
    gb(b, "render-write A offset=0x2000 size=8K pattern=0x22222222\n");
    gb(b, "transfer A to=system split=3\n");
    story_to(b, "fill B", low, 0x10000, " pattern=0x33333333");
    story_to(b, "transfer A", low, 0x12000, " split=5");
    gb(b, "transfer A to=system\n");
    gb(b, "transfer B to=system\n");
    return 0;
}

/* system -> three memory segments -> back through them -> system. */
static int story_three_segments(gen_buf *b, const story_dims *d, uint32_t variant)
{
    uint32_t mem[3], n = 0;
    (void)variant;
    for (uint32_t i = 0; i < b->layout->count && n < 3; i++)
        if (b->layout->seg[i].kind == PBC_SEGMENT_MEMORY)
            mem[n++] = b->layout->seg[i].SegmentId;
    if (!b->layout->declared)
        mem[n++] = b->layout->count + 1; /* the extra segment story_header adds */
    if (n == 0)
        return -1;
    story_header(b, 1);
    gb(b, "alloc A size=%u mdl-offset=2%s\n", 5 * 4096 + 1236, story_idle(d));
    story_dma(b, d);
    static const uint64_t offsets[] = {0x10000, 0x100000, 0x20000, 0x200000, 0x30000};
    static const uint32_t chain[] = {0, 1, 2, 1, 0}, splits[] = {3, 2, 5, 1, 2};
    for (uint32_t k = 0; k < 5; k++) {
        gb(b, "transfer A to=");
        story_at(b, mem[chain[k] % n], offsets[k]);
        gb(b, " split=%u\n", splits[k]);
        if (k == 1)
            gb(b, "render-write A offset=0x1000 size=4K pattern=0x44444444\n");
    }
    gb(b, "transfer A to=system split=3\n");
    return 0;
}

/* map -> GPU access -> unmap -> the same aperture pages mapped onto other
 * pages of the allocation, then onto its new pages after a move, then onto
 * another allocation's pages -> access each time. */
static int story_remap(gen_buf *b, const story_dims *d, uint32_t variant)
{
    uint32_t ap = map_aperture(b->layout, d->busy), low = b->layout->low;
    (void)variant;
    if (!ap || seg_size(b->layout, ap) < 8 * 4096)
        return -1;
    uint64_t at = 3 * 4096ull;
    const char *coherent = map_coherent(b->layout, d->busy);
    story_header(b, 0);
    gb(b, "alloc A size=24K mdl-offset=1%s\n", story_idle(d));
    gb(b, "alloc B size=16K\n");
    story_dma(b, d);
    gb(b, "map A aperture=%u:3 first=0 count=4%s\n", ap, coherent);
    gb(b, "render-write A offset=0 size=16K pattern=0x55555555 via=aperture\n");
    gb(b, "gpu-read at=%u:0x%llx size=16K\n", ap, (unsigned long long)at);
    gb(b, "unmap A\n");
    gb(b, "gpu-read at=%u:0x%llx size=16K\n", ap, (unsigned long long)at);
    gb(b, "map A aperture=%u:3 first=2 count=4%s\n", ap, coherent);
    gb(b, "render-write A offset=0x2000 size=16K pattern=0x66666666 via=aperture\n");
    gb(b, "gpu-read at=%u:0x%llx size=16K\n", ap, (unsigned long long)at);
    gb(b, "unmap A\n");
    story_to(b, "transfer A", low, 0x10000, " split=2");
    gb(b, "transfer A to=system\n");
    gb(b, "map A aperture=%u:3 first=0 count=4%s\n", ap, coherent);
    gb(b, "gpu-write at=%u:0x%llx size=8K pattern=0x77777777\n", ap, (unsigned long long)at);
    gb(b, "render-read A offset=0 size=16K via=aperture\n");
    gb(b, "unmap A\n");
    gb(b, "map B aperture=%u:3 first=0 count=4\n", ap);
    gb(b, "gpu-read at=%u:0x%llx size=16K\n", ap, (unsigned long long)at);
    gb(b, "unmap B\n");
    return 0;
}

/* A special-lock transfer after a transfer of the same allocation: its
 * MDL is the one VidMm hands it now, on other pages than the transfer's
 * (to-system), or the same pages (from-system, after the transfer that
 * brought it there). */
static int story_special_lock(gen_buf *b, const story_dims *d, uint32_t variant)
{
    uint32_t low = b->layout->low, high = b->layout->high;
    story_header(b, 0);
    if (variant == 0) {
        gb(b, "alloc A size=24K mdl-offset=2%s\n", story_idle(d));
        story_dma(b, d);
        story_to(b, "transfer A", low, 0x10000, " split=2");
        gb(b, "render-write A offset=0 size=8K pattern=0x88888888\n");
        gb(b, "special-lock-transfer A to=system\n");
        story_to(b, "transfer A", high, 0x100000, " split=1");
        gb(b, "special-lock-transfer A to=system\n");
        return 0;
    }
    gb(b, "alloc A size=24K at=");
    story_at(b, low, 0x10000);
    gb(b, " mdl-offset=2%s\n", story_idle(d));
    story_dma(b, d);
    gb(b, "transfer A to=system split=2\n");
    gb(b, "render-write A offset=0x1000 size=4K pattern=0x99999999\n");
    story_to(b, "special-lock-transfer A", high, 0x100000, "");
    gb(b, "transfer A to=system\n");
    story_to(b, "transfer A", low, 0x20000, " split=1");
    gb(b, "special-lock-transfer A to=system\n");
    story_to(b, "special-lock-transfer A", high, 0x200000, "");
    return 0;
}

/* An allocation that needs idle, idle for its first operations and busy
 * (render work queued on it) for later ones: ALLOCATION_BUSY comes late
 * in the story, after calls that had AllocationIsIdle set. */
static int story_busy_later(gen_buf *b, const story_dims *d, uint32_t variant)
{
    uint32_t low = b->layout->low, high = b->layout->high;
    (void)variant;
    story_header(b, 0);
    gb(b, "alloc A size=24K at=");
    story_at(b, low, 0x10000);
    gb(b, " needs-idle\n");
    gb(b, "alloc B size=8K at=");
    story_at(b, high, 0x100000);
    gb(b, "\n");
    story_dma(b, d);
    gb(b, "transfer A to=system\n");
    gb(b, "render-read B offset=0 size=8K\n");
    story_to(b, "transfer A", low, 0x20000, " split=2");
    gb(b, "render-write A offset=0 size=8K pattern=0xAAAAAAAA\n");
    gb(b, "transfer A to=system split=3\n");
    story_to(b, "transfer A", low, 0x10000, " split=1");
    gb(b, "render-write A offset=0x1000 size=4K pattern=0xBBBBBBBB\n");
    gb(b, "discard A\n");
    story_to(b, "fill A", low, 0x10000, " pattern=0xCCCCCCCC");
    gb(b, "render-read A offset=0 size=24K\n");
    story_to(b, "transfer A", high, 0x200000, " split=2");
    return 0;
}

/* destroy -> create under the same name: a builder that recycles its
 * allocation records gives the new allocation the old hAllocation, which
 * must not bring what it knew of the old one (its discard, its pages, its
 * fill, its mapping). */
static int story_handle_reuse(gen_buf *b, const story_dims *d, uint32_t variant)
{
    uint32_t low = b->layout->low, ap = b->layout->aperture;
    story_header(b, 0);
    switch (variant) {
    case 0: /* discard */
        gb(b, "alloc A size=24K at=");
        story_at(b, low, 0x10000);
        gb(b, " mdl-offset=1%s\n", story_idle(d));
        story_dma(b, d);
        gb(b, "render-write A offset=0 size=4K pattern=0x12121212\n");
        gb(b, "discard A\n");
        gb(b, "destroy A\n");
        gb(b, "create A at=system seed=1001\n");
        story_to(b, "transfer A", low, 0x10000, " split=2");
        gb(b, "render-read A offset=0 size=24K\n");
        gb(b, "transfer A to=system\n");
        return 0;
    case 1: /* special-lock */
        gb(b, "alloc A size=24K mdl-offset=1%s\n", story_idle(d));
        story_dma(b, d);
        story_to(b, "transfer A", low, 0x10000, " split=2");
        gb(b, "render-write A offset=0 size=8K pattern=0x34343434\n");
        gb(b, "transfer A to=system\n");
        gb(b, "destroy A\n");
        gb(b, "create A at=system seed=1002\n");
        story_to(b, "special-lock-transfer A", low, 0x20000, "");
        gb(b, "transfer A to=system split=2\n");
        return 0;
    case 2: /* fill */
        gb(b, "alloc A size=24K at=none%s\n", story_idle(d));
        gb(b, "alloc B size=24K at=none\n");
        story_dma(b, d);
        story_to(b, "fill A", low, 0x10000, " pattern=0x0BADF00D");
        gb(b, "destroy A\n");
        story_to(b, "fill B", low, 0x10000, " pattern=0x600DF00D");
        gb(b, "transfer B to=system\n");
        gb(b, "create A at=none seed=1003\n");
        story_to(b, "fill A", low, 0x10000, " pattern=0x0BADF00D");
        gb(b, "transfer A to=system split=2\n");
        return 0;
    default: /* map */
        if (!ap || seg_size(b->layout, ap) < 8 * 4096)
            return -1;
        gb(b, "alloc A size=24K mdl-offset=1%s\n", story_idle(d));
        story_dma(b, d);
        gb(b, "map A aperture=%u:3 first=0 count=4\n", ap);
        gb(b, "gpu-read at=%u:0x3000 size=16K\n", ap);
        gb(b, "unmap A\n");
        gb(b, "destroy A\n");
        gb(b, "create A at=system seed=1004\n");
        gb(b, "map A aperture=%u:3 first=1 count=4\n", ap);
        gb(b, "render-write A offset=0x1000 size=16K pattern=0x56565656 via=aperture\n");
        gb(b, "gpu-read at=%u:0x3000 size=16K\n", ap);
        gb(b, "unmap A\n");
        gb(b, "destroy A\n");
        gb(b, "create A at=");
        story_at(b, low, 0x10000);
        gb(b, " seed=1005\n");
        gb(b, "transfer A to=system\n");
        return 0;
    }
}

/* Render and paging work on separate engines (gpu.h), ordered only by
 * VidMm's waits.
 * paging-pending: B's transfer into a segment is submitted (render work
 * on A makes VidMm flush it) but waits on the paging engine; VidMm's wait
 * for A's render work leaves it queued, so B is still busy when its own
 * eviction follows: a builder that took "A is idle" for "the GPU is idle"
 * copies B before it has arrived.
 * render-woken: render work waits for the fence of a transfer that spans
 * several paging buffers, and runs the moment that fence completes;
 * render work on another allocation stays queued while paging work goes
 * on. */
static int story_engines(gen_buf *b, const story_dims *d, uint32_t variant)
{
    uint32_t low = b->layout->low, high = b->layout->high;
    story_header(b, 0);
    story_alloc(b, d, "A size=24K", low, 0x10000);
    gb(b, "alloc B size=24K mdl-offset=1%s\n", story_idle(d));
    story_dma(b, d);
    if (variant == 0) {
        story_to(b, "transfer B", high, 0x100000, " split=2");
        gb(b, "render-write A offset=0 size=8K pattern=0x5A5A5A5A\n");
        gb(b, "transfer A to=system\n");
        gb(b, "transfer B to=system\n");
        story_to(b, "transfer B", low, 0x40000, "");
        gb(b, "render-read B offset=0 size=24K\n");
        return 0;
    }
    gb(b, "render-write A offset=0x2000 size=8K pattern=0x6B6B6B6B\n");
    story_to(b, "transfer B", high, 0x100000, " split=3");
    gb(b, "render-write B offset=0x1000 size=16K pattern=0x7C7C7C7C\n");
    gb(b, "transfer A to=system split=2\n");
    gb(b, "render-read B offset=0 size=24K\n");
    gb(b, "transfer B to=system\n");
    story_to(b, "transfer A", high, 0x200000, "");
    gb(b, "render-read A offset=0 size=24K\n");
    return 0;
}

/* GPU virtual ranges (WDDM 2.x), for targets that declare UpdatePageTable
 * and FlushTlb.
 * follows: ranges follow their allocation between segments and to system
 * memory, with render work through them before and after each move (a
 * missing flush sends it to the old pages); a read-only range, a zero
 * range and a no-access range stay to the end.
 * 64k-pages: a range of 64 KiB pages (Use64KBPages) moves between
 * segments.
 * unmap-reuse: a range is released and its addresses map another
 * allocation, read-only.
 * virtual-transfers: TransferVirtual in its three directions, split, and
 * FillVirtual, through VidMm's paging windows.
 * paging-fence: SignalMonitoredFence after transfers and a range's
 * mapping (whose entries nothing after the signal writes again), and
 * another range mapped right after it, in the same paging buffer.
 * notify-*: each notification that must do no harm, between transfers.
 * aperture-adl: MapApertureSegment2 with a page-array ADL and a
 * contiguous one, AdlOffset past foreign pages.
 * move-tables: CopyPageTableEntries moves the leaves of a range over two
 * regions and of a range of 64 KiB pages.
 * move-tables-partial, move-tables-staged: only the entries in use, of
 * two ranges sharing a leaf, in pieces; staged through a scratch table,
 * so that each range starts at another index in the source than in the
 * destination, lower and higher.
 * init-context: InitContextResource of a context allocation in a segment,
 * with another allocation in the page after it, and of one in system
 * memory; both then move.
 * update-context: UpdateContextAllocation of a context in a segment and
 * of one in system memory, before and after each moves, render work
 * through a range of one between.
 * notify-residency: NotifyResidency after each move, resident and
 * evicted.
 * aperture-cpu-visible: MapApertureSegment2 of a CPU-visible allocation
 * (CpuVisibleAddress until the unmap) and of one that is not.
 * address-spaces: ranges of several address spaces at the same addresses,
 * each filling the TLB under its root, then moved (FlushTlb of each
 * space's root), a further space's leaves copied, one range released. */
static int story_gpummu(gen_buf *b, const story_dims *d, uint32_t variant)
{
    uint32_t low = b->layout->low, high = b->layout->high;
    story_header(b, 0);
    if (variant == 0) {
        story_alloc(b, d, "A size=64K", low, 0x100000);
        gb(b, "alloc B size=16K at=system%s\n", story_idle(d));
        story_dma(b, d);
        gb(b, "va-map A\nva-map B read-only driver-protection=0x5\n");
        gb(b, "render-write A offset=0x1000 size=8K pattern=0x11111111 via=va\n");
        gb(b, "render-read B offset=0 size=4K via=va\n");
        story_to(b, "transfer A", high, 0x200000, " split=2");
        gb(b, "render-write A offset=0x2000 size=8K pattern=0x22222222 via=va\n");
        gb(b, "transfer A to=system split=3\n");
        gb(b, "render-write A offset=0 size=4K pattern=0x33333333 via=va\n");
        gb(b, "va-zero count=4 min=0x40000000\nva-zero count=16 no-access 64k\n");
        return 0;
    }
    if (variant == 1) {
        story_alloc(b, d, "C size=256K", low, 0x400000);
        gb(b, "alloc D size=8K at=system%s\n", story_idle(d));
        story_dma(b, d);
        gb(b, "va-map C 64k\nva-map D\n");
        gb(b, "render-write C offset=0x10000 size=64K pattern=0x64646464 via=va\n");
        story_to(b, "transfer C", high, 0x1000000, "");
        gb(b, "render-write C offset=0x30000 size=4K pattern=0x46464646 via=va\n");
        gb(b, "render-write D offset=0 size=8K pattern=0x0D0D0D0D via=va\n");
        return 0;
    }
    if (variant == 4) { /* the paging fence */
        gb(b, "alloc A size=20K mdl-offset=1%s\n", story_idle(d));
        story_alloc(b, d, "B size=8K", low, 0x100000);
        story_alloc(b, d, "C size=8K", low, 0x300000);
        story_alloc(b, d, "D size=8K", low, 0x380000);
        story_dma(b, d);
        story_to(b, "transfer A", low, 0x200000, " split=2");
        gb(b, "va-map C\nsignal-fence\nva-map D\n");
        gb(b, "transfer B to=system\nsignal-fence\nflush\n");
        story_to(b, "transfer B", high, 0x100000, "");
        gb(b, "signal-fence\n");
        return 0;
    }
    if (variant == 7 + PBC_NOTIFY_COUNT) { /* InitContextResource in a segment and in system memory */
        gb(b, "alloc C size=12K at=");
        story_at(b, low, 0x100000);
        gb(b, "%s\nalloc B size=8K at=", story_idle(d));
        story_at(b, low, 0x103000);
        gb(b, "%s\nalloc S size=20K mdl-offset=1%s\n", story_idle(d), story_idle(d));
        story_dma(b, d);
        gb(b, "render-write C offset=0 size=12K pattern=0xC0C0C0C0\ninit-context C\ninit-context S\n");
        story_to(b, "transfer C", high, 0x200000, " split=2");
        story_to(b, "transfer S", low, 0x300000, "");
        gb(b, "render-write B offset=0 size=8K pattern=0xB0B0B0B0\ntransfer S to=system\n");
        return 0;
    }
    if (variant == 8 + PBC_NOTIFY_COUNT) { /* UpdateContextAllocation through the context's range */
        gb(b, "alloc C size=16K at=");
        story_at(b, low, 0x100000);
        gb(b, "%s\nalloc D size=8K at=system%s\n", story_idle(d), story_idle(d));
        story_dma(b, d);
        gb(b, "init-context C\nva-map C\nva-map D first=1\nupdate-context C\nupdate-context D\n");
        gb(b, "render-write C offset=0x2000 size=4K pattern=0xCCCCCCCC via=va\n");
        story_to(b, "transfer C", high, 0x400000, "");
        gb(b, "update-context C\n");
        story_to(b, "transfer D", low, 0x300000, "");
        gb(b, "update-context D\ntransfer D to=system\n");
        return 0;
    }
    if (variant == 9 + PBC_NOTIFY_COUNT) { /* NotifyResidency, resident and evicted */
        gb(b, "alloc A size=20K mdl-offset=1%s\n", story_idle(d));
        story_dma(b, d);
        gb(b, "notify-residency A\n");
        story_to(b, "transfer A", low, 0x200000, " split=2");
        gb(b, "notify-residency A\n");
        story_to(b, "transfer A", high, 0x100000, "");
        gb(b, "notify-residency A\ntransfer A to=system\nnotify-residency A\n");
        return 0;
    }
    if (variant == 10 + PBC_NOTIFY_COUNT) { /* CpuVisibleAddress for a CPU-visible allocation, NULL otherwise */
        uint32_t ap = b->layout->aperture;
        if (!ap || seg_size(b->layout, ap) < 256 * 4096)
            return -1;
        gb(b, "alloc V size=24K mdl-offset=2 cpu-visible%s\n", story_idle(d));
        gb(b, "alloc N size=16K mdl-offset=1%s\n", story_idle(d));
        story_dma(b, d);
        gb(b, "map V aperture=%u:100 first=1 count=4 adl\nmap N aperture=%u:200 count=4 adl\n", ap, ap);
        gb(b, "render-write V offset=0x1000 size=8K pattern=0x5A5A5A5A via=aperture\nunmap V\n");
        uint32_t cap = map_aperture(b->layout, 1);
        if (seg_size(b->layout, cap) < 256 * 4096)
            return -1;
        gb(b, "map V aperture=%u:150%s adl\nrender-read N offset=0 size=16K via=aperture\n", cap,
           map_coherent(b->layout, 1));
        gb(b, "unmap N\nunmap V\n");
        return 0;
    }
    if (variant == 11 + PBC_NOTIFY_COUNT || variant == 12 + PBC_NOTIFY_COUNT) {
        /* CopyPageTableEntries of the entries in use only: two ranges
         * sharing a leaf, each run in pieces; staged, through a scratch
         * table packed at its start (source index above the destination's)
         * and at its end (below), 64 KiB entries too. */
        int staged = variant == 12 + PBC_NOTIFY_COUNT;
        gb(b, "alloc A size=40K at=");
        story_at(b, low, 0x200000);
        gb(b, "%s\nalloc B size=24K at=", story_idle(d));
        story_at(b, low, 0x400000);
        gb(b, "%s\nalloc C size=256K at=", story_idle(d));
        story_at(b, low, 0x800000);
        gb(b, "%s\n", story_idle(d));
        story_dma(b, d);
        gb(b, "va-map A va=0x10c000\nva-map B va=0x120000 read-only\nva-map C va=0x1030000 64k\n");
        gb(b, "render-write A offset=0x1000 size=8K pattern=0x7A7A7A7A via=va\n");
        gb(b, "va-move-tables A used pieces=3%s\n", staged ? " stage=0" : "");
        gb(b, "render-write A offset=0 size=40K pattern=0x7B7B7B7B via=va\nrender-read B offset=0 size=24K via=va\n");
        gb(b, "va-move-tables B used%s\n", staged ? " pieces=2 stage=511" : "");
        gb(b, "render-write A offset=0x9000 size=4K pattern=0x7C7C7C7C via=va\n");
        gb(b, "va-move-tables C used pieces=2%s\n", staged ? " stage=31" : "");
        gb(b, "render-write C offset=0x30000 size=64K pattern=0x7D7D7D7D via=va\n");
        story_to(b, "transfer C", high, 0x100000, "");
        gb(b, "render-read C offset=0 size=256K via=va\n");
        return 0;
    }
    if (variant == 13 + PBC_NOTIFY_COUNT) {
        /* Four address spaces, ranges of three at the same addresses: work
         * through each fills the TLB under its own root; each range then
         * moves (a flush of its space's root), one's leaves are copied, one
         * is released, and a zero range sits in the fourth. */
        gb(b, "alloc A size=64K at=");
        story_at(b, low, 0x100000);
        gb(b, "%s\nalloc B size=64K at=", story_idle(d));
        story_at(b, low, 0x200000);
        gb(b, "%s\nalloc C size=32K at=system%s\n", story_idle(d), story_idle(d));
        story_dma(b, d);
        gb(b, "va-map A\nva-map B space=1\nva-map C space=2 read-only\nva-zero count=4 space=3 min=0x40000000\n");
        gb(b, "render-write A offset=0 size=8K pattern=0x41414141 via=va\n");
        gb(b, "render-write B offset=0 size=8K pattern=0x42424242 via=va\n");
        gb(b, "render-read C offset=0 size=8K via=va\n");
        story_to(b, "transfer A", high, 0x100000, "");
        story_to(b, "transfer B", high, 0x200000, " split=2");
        story_to(b, "transfer C", low, 0x300000, "");
        gb(b, "render-read A offset=0 size=4K via=va\nva-move-tables B used pieces=2\nva-unmap C\n");
        return 0;
    }
    if (variant >= 7) { /* each notification alone, between transfers: a target may declare some only */
        gb(b, "alloc A size=20K mdl-offset=1%s\n", story_idle(d));
        story_dma(b, d);
        story_to(b, "transfer A", low, 0x200000, " split=2");
        gb(b, "notify %s\n", pbc_notify_name(variant - 7));
        gb(b, "transfer A to=system\n");
        return 0;
    }
    if (variant == 5) { /* MapApertureSegment2: a page-array ADL and a contiguous one */
        uint32_t ap = b->layout->aperture;
        if (!ap || seg_size(b->layout, ap) < 256 * 4096)
            return -1;
        gb(b, "alloc A size=24K mdl-offset=2%s\n", story_idle(d));
        gb(b, "alloc C size=32K mdl-offset=1 phys=contiguous%s\n", story_idle(d));
        story_dma(b, d);
        gb(b, "map A aperture=%u:100 first=1 count=4 adl\n", ap);
        gb(b, "render-write A offset=0x1000 size=8K pattern=0xADADADAD via=aperture\n");
        uint32_t cap = map_aperture(b->layout, 1);
        if (seg_size(b->layout, cap) < 256 * 4096)
            return -1;
        gb(b, "map C aperture=%u:200 first=2 count=5%s adl\n", cap, map_coherent(b->layout, 1));
        gb(b, "render-read C offset=0x2000 size=12K via=aperture\nunmap A\n");
        gb(b, "gpu-write at=%u:0x64000 size=4K pattern=0xD0D0D0D0\n", ap);
        return 0;
    }
    if (variant == 6) { /* CopyPageTableEntries: the leaves of two ranges move */
        story_alloc(b, d, "A size=2M", low, 0x200000);
        story_alloc(b, d, "C size=128K", low, 0x800000);
        story_dma(b, d);
        gb(b, "va-map A min=0x1f0000\nva-map C 64k\n");
        gb(b, "render-write A offset=0x1fe000 size=8K pattern=0x7A7A7A7A via=va\nva-move-tables A\n");
        gb(b, "render-write A offset=0 size=4K pattern=0x7B7B7B7B via=va\nva-move-tables C\n");
        gb(b, "render-write C offset=0x10000 size=4K pattern=0x7C7C7C7C via=va\n");
        story_to(b, "transfer C", high, 0x100000, "");
        return 0;
    }
    if (variant == 3) {
        gb(b, "alloc A size=40K mdl-offset=1%s\n", story_idle(d));
        gb(b, "alloc B size=12K at=none%s\n", story_idle(d));
        story_dma(b, d);
        story_to(b, "transfer A", low, 0x100000, " split=3 virtual");
        gb(b, "va-map A\nrender-write A offset=0x1000 size=8K pattern=0x5A5A5A5A via=va\n");
        story_to(b, "transfer A", high, 0x300000, " split=2 virtual");
        story_to(b, "fill B", low, 0x200000, " pattern=0xF111F111 virtual");
        gb(b, "render-write A offset=0x4000 size=4K pattern=0x6B6B6B6B via=va\n");
        gb(b, "transfer A to=system split=2 virtual\ntransfer B to=system virtual\n");
        story_to(b, "transfer B", high, 0x400000, " virtual");
        return 0;
    }
    story_alloc(b, d, "A size=16K", low, 0x100000);
    story_alloc(b, d, "B size=16K", low, 0x200000);
    story_dma(b, d);
    gb(b, "va-map A va=0x800000\n");
    gb(b, "render-write A offset=0 size=16K pattern=0xAAAAAAAA via=va\n");
    gb(b, "va-unmap A\nva-map B va=0x800000 read-only\n");
    gb(b, "render-read B offset=0 size=16K via=va\n");
    gb(b, "va-map A va=0x1000000\n");
    gb(b, "render-write A offset=0x2000 size=4K pattern=0xA5A5A5A5 via=va\n");
    return 0;
}

static const char *const refill_variants[] = {"same-pattern", "new-pattern"};
static const char *const gpummu_variants[] = {"follows", "64k-pages", "unmap-reuse", "virtual-transfers",
                                              "paging-fence", "aperture-adl", "move-tables",
                                              "notify-fence-residency", "notify-map-mmu", "notify-unmap-mmu",
                                              "notify-residency2", "notify-alloc", "init-context", "update-context",
                                              "notify-residency", "aperture-cpu-visible", "move-tables-partial",
                                              "move-tables-staged", "address-spaces"};
static const char *const special_lock_variants[] = {"to-system", "from-system"};
static const char *const reuse_variants[] = {"discard", "special-lock", "fill", "map"};
static const char *const engine_variants[] = {"paging-pending", "render-woken"};

static const story stories[] = {
    {"fill-render-discard-refill", refill_variants, 2, 0, story_fill_refill},
    {"evict-restore-evict-overlap", NULL, 1, 0, story_evict_restore},
    {"transfer-three-segments-and-back", NULL, 1, 0, story_three_segments},
    {"map-unmap-remap-other-pages", NULL, 1, 0, story_remap},
    {"special-lock-after-transfer", special_lock_variants, 2, 0, story_special_lock},
    {"busy-later-op", NULL, 1, 1, story_busy_later},
    {"handle-reuse-after-destroy", reuse_variants, 4, 0, story_handle_reuse},
    {"engines", engine_variants, 2, 0, story_engines},
    {"gpummu", gpummu_variants, 14 + PBC_NOTIFY_COUNT, 0, story_gpummu},
};

/* Adds the story when the target supports every operation it issues
 * (add_case checks that the layout takes it). */
static void add_story(pbc_case_list *l, const pbc_target *t, const char *name, const char *text)
{
    pbc_scenario s;
    char err[256];
    if (pbc_scenario_parse(text, strlen(text), name, &s, err, sizeof(err)))
        return;
    int supported = 1;
    for (uint32_t i = 0; i < s.op_count && supported; i++)
        supported = pbc_sop_op_supported(t, &s.ops[i]);
    pbc_scenario_fini(&s);
    if (supported)
        add_case(l, name, text);
}

/* Every story, variant, paging-buffer size (the target's minimum, so the
 * story resumes in many buffers, and 4 KiB) and idle class, in the quick
 * suite too: they are few. A variant is left out when it issues an
 * operation the target does not support, or the layout cannot take it. */
static void story_cases(const pbc_target *t, const gen_layout *layout, pbc_case_list *out)
{
    static const story_dims dims[] = {{"dma-min", 0, 0}, {"dma-4k", 4096, 0}, {"dma-min", 0, 1}, {"dma-4k", 4096, 1}};
    gen_buf b = {.layout = layout};
    for (size_t k = 0; k < PBC_ARRAY_LEN(stories); k++) {
        const story *st = &stories[k];
        for (uint32_t v = 0; v < st->variant_count; v++) {
            for (size_t di = 0; di < PBC_ARRAY_LEN(dims); di++) {
                if (st->busy_only && !dims[di].busy)
                    continue;
                if (st->write(&b, &dims[di], v))
                    continue;
                gb(&b, "end\n");
                char name[128];
                snprintf(name, sizeof(name), "story/%s%s%s/%s/%s", st->name, st->variants ? "/" : "",
                         st->variants ? st->variants[v] : "", dims[di].dma_name, dims[di].busy ? "busy" : "idle");
                add_story(out, t, name, b.text);
            }
        }
    }
}

/* ---- The WDDM 2.x operations' class matrix ----
 *
 * What the grid above is for the 1.x operations, for the GPU virtual
 * ones: every paging-buffer size class (down to the minimum, where every
 * packet is a resume point), busy and idle (render work queued on the
 * allocation before and between), the allocation's place (a segment
 * below 4 GiB, one above, system pages), its size (pages, an odd size,
 * beyond 2 MiB so that its range crosses a leaf table, 64 KiB pages),
 * where its range lies (VidMm's choice, across a 2 MiB leaf line, across
 * a 1 GiB directory line) and each operation's own choices, each case
 * named by them like the 1.x cases:
 *   va-map/dma-min/busy/high/odd-size/va-across-2m
 *   transfer-virtual/split3/dma-4k/idle/system/big-size
 *   move-tables/staged-start/dma-min/idle/low/64k-pages/va-across-1g
 * A busy va-map or move-tables case maps its range in a second address
 * space, over a range of the first at the same addresses that work went
 * through (".../two-spaces").
 * A case runs where the target supports every operation it issues. */

enum { V_MAP, V_ZERO, V_TRANSFER, V_FILL, V_MOVE_TABLES, V_FENCE, V_APERTURE, V_CONTEXT, V_COUNT };
static const char *const v_names[] = {"va-map",        "va-zero-then-map", "transfer-virtual", "fill-virtual",
                                      "move-tables",   "signal-fence",     "map-aperture",     "context"};
static const char *const v_addr_names[] = {"low", "high", "system"};
enum { VS_PAGE, VS_ODD, VS_BIG, VS_64K, VS_COUNT };
static const char *const v_size_names[] = {"page-size", "odd-size", "big-size", "64k-pages"};
static const char *const v_va_names[] = {"va-any", "va-across-2m", "va-across-1g"};

typedef struct v_dims {
    const char *dma_name;
    uint32_t dma; /* 0 = min */
    uint32_t split;
    int busy, addr, size, va;
    uint32_t variant; /* the operation's own choice */
} v_dims;

/* Each operation's own choices. */
static const char *const v_move_modes[] = {"whole", "used", "pieces", "staged-start", "staged-end"};
static const char *const v_move_words[] = {"", " used", " used pieces=3", " used pieces=2 stage=0", " used stage=511"};
static const char *const v_aperture_variants[] = {"one-page",     "one-page-adl",         "several-adl",
                                                  "several-adl-contiguous", "several-adl-cpu-visible"};
static const char *const v_context_variants[] = {"init", "update", "residency"};
static const char *const v_zero_variants[] = {"zero", "no-access"};

static uint32_t v_variant_count(int op)
{
    switch (op) {
    case V_MOVE_TABLES:
        return PBC_ARRAY_LEN(v_move_modes);
    case V_APERTURE:
        return PBC_ARRAY_LEN(v_aperture_variants);
    case V_CONTEXT:
        return PBC_ARRAY_LEN(v_context_variants);
    case V_ZERO:
        return PBC_ARRAY_LEN(v_zero_variants);
    default:
        return 1;
    }
}

static const char *v_variant_name(int op, uint32_t v)
{
    switch (op) {
    case V_MOVE_TABLES:
        return v_move_modes[v];
    case V_APERTURE:
        return v_aperture_variants[v];
    case V_CONTEXT:
        return v_context_variants[v];
    case V_ZERO:
        return v_zero_variants[v];
    default:
        return NULL;
    }
}

/* Which dimensions an operation has. */
static int v_uses_size(int op) { return op != V_ZERO && op != V_CONTEXT && op != V_FENCE; }
static int v_uses_va(int op) { return op == V_MAP || op == V_ZERO || op == V_MOVE_TABLES; }
static int v_uses_addr(int op) { return op != V_ZERO && op != V_APERTURE; }

static uint64_t v_size(int size)
{
    static const uint64_t sizes[] = {24 * 1024, 5 * 4096 + 1236, (2u << 20) + 12 * 1024 + 1236, 256 * 1024};
    return sizes[size];
}

/* The allocation's place: "at=..." with its MDL offset for system pages;
 * `second`: where it moves to. */
static void v_place(gen_buf *b, int addr, int second)
{
    uint32_t low = b->layout->low, high = b->layout->high;
    if (second)
        addr = addr == 0 ? 1 : 0;
    if (addr == 2) {
        gb(b, "system");
        return;
    }
    story_at(b, addr == 0 ? low : high, second ? 0x1000000ull : 0x400000ull);
}

/* Where a range of `step`-byte pages starts in its VA class: nothing
 * (VidMm's choice), or two pages before a 2 MiB or a 1 GiB line. */
static void v_va(gen_buf *b, int va, uint64_t step)
{
    if (va == 1)
        gb(b, " va=0x%llx", (unsigned long long)((2ull << 20) - 2 * step));
    else if (va == 2)
        gb(b, " va=0x%llx", (unsigned long long)((1ull << 30) - 2 * step));
}

/* "alloc NAME size=SIZE at=PLACE" with its MDL offset in system memory and
 * needs-idle when busy. */
static void v_alloc(gen_buf *b, const v_dims *d, const char *name, uint64_t size)
{
    gb(b, "alloc %s size=%llu at=", name, (unsigned long long)size);
    v_place(b, d->addr, 0);
    gb(b, "%s%s\n", d->addr == 2 ? " mdl-offset=1" : "", d->busy ? " needs-idle" : "");
}

/* The buffer size, and for a busy case render work queued on NAME. */
static void v_start(gen_buf *b, const v_dims *d, const char *name)
{
    story_dma(b, &(story_dims){d->dma_name, d->dma, d->busy});
    if (d->busy)
        gb(b, "render-write %s offset=0 size=4K pattern=0x5EED5EED\n", name);
}

/* A busy va-map or move-tables case puts its range in a second address
 * space, over a range of the first at the same addresses. */
static int v_two_spaces(int op, const v_dims *d) { return (op == V_MAP || op == V_MOVE_TABLES) && d->busy; }

static int v_text(int op, const v_dims *d, gen_buf *b)
{
    uint64_t size = v_size(d->size);
    int page64 = d->size == VS_64K;
    const char *idle = d->busy ? " needs-idle" : "";
    story_header(b, 0);
    switch (op) {
    case V_MAP:
    case V_MOVE_TABLES:
        if (page64 && d->addr == 2)
            return -1; /* 64 KiB pages only in a segment */
        v_alloc(b, d, "A", size);
        if (op == V_MOVE_TABLES) {
            gb(b, "alloc B size=4K at=");
            story_at(b, b->layout->low, 0x2000000);
            gb(b, "\n");
        }
        if (v_two_spaces(op, d)) {
            gb(b, "alloc Z size=8K at=");
            story_at(b, b->layout->low, 0x2800000);
            gb(b, "\n");
        }
        v_start(b, d, "A");
        if (v_two_spaces(op, d)) { /* the first space's range at the same addresses, in its TLB */
            gb(b, "va-map Z");
            v_va(b, d->va, page64 ? 0x10000 : 4096);
            gb(b, "\nrender-write Z offset=0 size=8K pattern=0x2A2A2A2A via=va\n");
        }
        const char *space = v_two_spaces(op, d) ? " space=1" : "";
        gb(b, "va-map A");
        v_va(b, d->va, page64 ? 0x10000 : 4096);
        gb(b, "%s driver-protection=0x3%s\n", page64 ? " 64k" : "", space);
        if (op == V_MOVE_TABLES)
            gb(b, "va-map B count=1%s\n", space);
        gb(b, "render-write A offset=0x1000 size=8K pattern=0x11223344 via=va\n");
        if (op == V_MOVE_TABLES) {
            gb(b, "va-move-tables A%s\n", v_move_words[d->variant]);
            gb(b, "render-read A offset=0 size=%llu via=va\n", (unsigned long long)size);
            gb(b, "va-move-tables B%s\nrender-read B offset=0 size=4K via=va\n", v_move_words[d->variant]);
        }
        if (v_two_spaces(op, d)) { /* a flush of the first space's root, then of the second's */
            gb(b, "transfer Z to=");
            story_at(b, b->layout->high, 0x2800000);
            gb(b, "\n");
        }
        gb(b, "transfer A to=");
        v_place(b, d->addr, 1);
        gb(b, " split=2\n");
        gb(b, "render-write A offset=0 size=%llu pattern=0x55667788 via=va\n", (unsigned long long)(size & ~3ull));
        if (!page64)
            gb(b, "transfer A to=system\nrender-read A offset=0x2000 size=4K via=va\n");
        gb(b, "va-unmap A\n");
        return 0;
    case V_ZERO: {
        uint64_t step = page64 ? 0x10000 : 4096;
        uint64_t at = d->va == 0 ? 0x10000000ull : d->va == 1 ? (2ull << 20) - 2 * step : (1ull << 30) - 2 * step;
        gb(b, "alloc B size=%s at=", page64 ? "64K" : "8K");
        story_at(b, b->layout->low, 0x400000);
        gb(b, "%s\n", idle);
        story_dma(b, &(story_dims){d->dma_name, d->dma, d->busy});
        gb(b, "va-zero count=%u va=0x%llx%s%s\n", page64 ? 64u : 8u, (unsigned long long)at,
           d->variant ? " no-access" : "", page64 ? " 64k" : "");
        if (d->busy)
            gb(b, "render-write B offset=0 size=4K pattern=0x5EED5EED\n");
        gb(b, "va-map B va=0x%llx%s\n", (unsigned long long)(at + step), page64 ? " 64k" : "");
        gb(b, "render-write B offset=0 size=4K pattern=0x0B0B0B0B via=va\nva-unmap B\n");
        return 0;
    }
    case V_TRANSFER:
        if (page64)
            return -1;
        v_alloc(b, d, "A", size);
        v_start(b, d, "A");
        gb(b, "transfer A to=");
        v_place(b, d->addr, 1);
        gb(b, " split=%u virtual\n", d->split);
        if (d->busy)
            gb(b, "render-write A offset=0x1000 size=4K pattern=0x6B6B6B6B\n");
        gb(b, "transfer A to=system split=%u virtual\n", d->split);
        return 0;
    case V_FILL:
        if (page64 || d->addr == 2)
            return -1;
        gb(b, "alloc A size=%llu at=none%s\n", (unsigned long long)size, idle);
        story_dma(b, &(story_dims){d->dma_name, d->dma, d->busy});
        gb(b, "fill A to=");
        v_place(b, d->addr, 0);
        gb(b, " pattern=0xF111F111 virtual\n");
        if (d->busy)
            gb(b, "render-write A offset=0 size=4K pattern=0x5EED5EED\n");
        gb(b, "transfer A to=system\n");
        return 0;
    case V_FENCE:
        v_alloc(b, d, "A", 24 * 1024);
        v_start(b, d, "A");
        gb(b, "transfer A to=");
        v_place(b, d->addr, 1);
        gb(b, " split=2\nsignal-fence\nflush\nsignal-fence\ntransfer A to=system\nsignal-fence\n");
        return 0;
    case V_APERTURE: {
        /* 1.x's MapApertureSegment of one page too: the grid maps four. */
        uint32_t ap = map_aperture(b->layout, d->busy);
        int adl = d->variant > 0, one = d->variant <= 1;
        if (page64 || !ap || seg_size(b->layout, ap) < 256 * 4096)
            return -1;
        uint32_t count = one ? 1 : 4;
        gb(b, "alloc A size=%llu mdl-offset=2%s%s%s\n", (unsigned long long)size,
           d->variant == 3 ? " phys=contiguous" : "", d->variant == 4 ? " cpu-visible" : "", idle);
        v_start(b, d, "A");
        gb(b, "map A aperture=%u:100 first=1 count=%u%s%s\n", ap, count, map_coherent(b->layout, d->busy),
           adl ? " adl" : "");
        gb(b, "render-write A offset=0x1000 size=%u pattern=0xADADADAD via=aperture\n", count * 4096);
        gb(b, "unmap A\ngpu-read at=%u:0x64000 size=%u\n", ap, count * 4096);
        return 0;
    }
    case V_CONTEXT:
        if (d->addr == 2 && d->variant == 0)
            return -1; /* an init-context in system memory: the stories' */
        v_alloc(b, d, "C", 16 * 1024);
        v_start(b, d, "C");
        if (d->variant == 1)
            gb(b, "va-map C\n");
        static const char *const words[] = {"init-context C\n", "update-context C\n", "notify-residency C\n"};
        gb(b, "%s", words[d->variant]);
        gb(b, "transfer C to=");
        v_place(b, d->addr, 1);
        gb(b, "\n%s", words[d->variant]);
        if (d->variant == 2)
            gb(b, "transfer C to=system\n%s", words[d->variant]);
        return 0;
    default:
        return -1;
    }
}

static void v_add(pbc_case_list *out, const pbc_target *t, int op, const v_dims *d, gen_buf *b)
{
    if (v_text(op, d, b))
        return;
    gb(b, "end\n");
    char name[128];
    int n = snprintf(name, sizeof(name), "%s%s%s", b->paging ? b->paging_name : "", b->paging ? "/" : "", v_names[op]);
    const char *variant = v_variant_name(op, d->variant);
    if (variant)
        n += snprintf(name + n, sizeof(name) - (size_t)n, "/%s", variant);
    if (op == V_TRANSFER)
        n += snprintf(name + n, sizeof(name) - (size_t)n, "/split%u", d->split);
    n += snprintf(name + n, sizeof(name) - (size_t)n, "/%s/%s", d->dma_name, d->busy ? "busy" : "idle");
    if (v_uses_addr(op))
        n += snprintf(name + n, sizeof(name) - (size_t)n, "/%s", v_addr_names[d->addr]);
    if (v_uses_size(op) || op == V_ZERO)
        n += snprintf(name + n, sizeof(name) - (size_t)n, "/%s", v_size_names[d->size]);
    if (v_uses_va(op))
        n += snprintf(name + n, sizeof(name) - (size_t)n, "/%s", v_va_names[d->va]);
    if (v_two_spaces(op, d))
        snprintf(name + n, sizeof(name) - (size_t)n, "/two-spaces");
    add_story(out, t, name, b->text);
}

/* --quick: above 4 GiB (and system pages), odd and big sizes, ranges
 * across a leaf or a directory line, as the 1.x grid's quick part, in
 * the smallest, an odd and 4 KiB buffers. */
static void gpummu_cases(const pbc_target *t, int quick, const gen_layout *layout, const gen_dims *dmas,
                         size_t ndmas, pbc_case_list *out)
{
    static const uint32_t splits[] = {1, 3, 5};
    gen_buf b = {.layout = layout};
    for (int op = 0; op < V_COUNT; op++)
        for (size_t di = 0; di < ndmas; di++) {
            if (quick && dmas[di].dma != 0 && dmas[di].dma != 4096 && strcmp(dmas[di].dma_name, "dma-odd"))
                continue;
            for (uint32_t v = 0; v < v_variant_count(op); v++)
                for (size_t si = 0; si < (op == V_TRANSFER ? PBC_ARRAY_LEN(splits) : 1u); si++)
                    for (int busy = 0; busy < 2; busy++)
                        for (int addr = quick; addr < (v_uses_addr(op) ? 3 : quick + 1); addr++)
                            for (int size = 0; size < (v_uses_size(op) || op == V_ZERO ? VS_COUNT : 1); size++)
                                for (int va = quick; va < (v_uses_va(op) ? 3 : quick + 1); va++) {
                                    v_dims d = {dmas[di].dma_name, dmas[di].dma, splits[si], busy, addr, size, va,
                                                v};
                                    if (op == V_ZERO && (size == VS_ODD || size == VS_BIG))
                                        continue; /* its sizes: pages of 4 KiB or of 64 KiB */
                                    if (quick && size == VS_PAGE && v_uses_size(op))
                                        continue;
                                    /* Big allocations in buffers that hold
                                     * their submissions, as in the 1.x grid. */
                                    if (size == VS_BIG && d.dma < 4096)
                                        continue;
                                    v_add(out, t, op, &d, &b);
                                }
        }
}

/* One case of the grid, named by its dimensions. */
static void add_grid_case(pbc_case_list *out, int op, const gen_dims *d, gen_buf *b)
{
    static const char *const size_names[] = {"page-size", "odd-size", "big-size"};
    if (gen_text(op, d, b))
        return;
    char name[128];
    int n = snprintf(name, sizeof(name), "%s", op_names[op]);
    if (op_uses_split(op))
        n += snprintf(name + n, sizeof(name) - (size_t)n, "/split%u", d->split);
    n += snprintf(name + n, sizeof(name) - (size_t)n, "/%s/%s/%s", d->dma_name, d->busy ? "busy" : "idle",
                  addr_names[d->addr]);
    if (op_uses_mdl(op))
        n += snprintf(name + n, sizeof(name) - (size_t)n, "/mdloff%u", d->mdl_offset);
    n += snprintf(name + n, sizeof(name) - (size_t)n, "/%s", size_names[d->odd]);
    if (d->phys != PBC_PHYS_SCATTERED) /* scattered cases keep the names they had */
        snprintf(name + n, sizeof(name) - (size_t)n, "/phys-%s", pbc_phys_name(d->phys));
    add_case(out, name, b->text);
}

/* A scenario's text without its "dma" lines, hashed: what it does on an
 * adapter whose declared paging-buffer size replaces every DMA size. */
static uint64_t hash_but_dma(const char *text)
{
    XXH3_state_t *st = XXH3_createState();
    XXH3_64bits_reset(st);
    for (const char *line = text; *line;) {
        size_t len = strcspn(line, "\n");
        if (strncmp(line, "dma ", 4))
            XXH3_64bits_update(st, line, len + (line[len] == '\n'));
        line += len + (line[len] == '\n');
    }
    uint64_t h = XXH3_64bits_digest(st);
    XXH3_freeState(st);
    return h;
}

typedef struct case_key {
    uint64_t hash;
    uint32_t index;
} case_key;

static int by_hash_then_index(const void *a, const void *b)
{
    const case_key *x = a, *y = b;
    if (x->hash != y->hash)
        return x->hash < y->hash ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* With a declared paging-buffer size every DMA-size class of a case is
 * the same scenario: keep the first (in suite order), so one failure is
 * counted once, not once per class. Cases are told apart by XXH3-64 of
 * their text: a few thousand of them make a collision no worry. */
static void drop_same_but_dma(pbc_case_list *l)
{
    if (l->count < 2)
        return;
    case_key *keys = pbc_xcalloc(l->count, sizeof(*keys));
    uint8_t *drop = pbc_xcalloc(l->count, 1);
    for (uint32_t i = 0; i < l->count; i++)
        keys[i] = (case_key){hash_but_dma(l->items[i].text), i};
    qsort(keys, l->count, sizeof(*keys), by_hash_then_index);
    for (uint32_t i = 1, first = 0; i < l->count; i++) {
        if (keys[i].hash != keys[first].hash) {
            first = i;
            continue;
        }
        drop[keys[i].index] = 1;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < l->count; i++) {
        if (drop[i]) {
            free(l->items[i].text);
            continue;
        }
        l->items[n++] = l->items[i];
    }
    l->count = n;
    free(drop);
    free(keys);
}

static void layout_cases(const pbc_target *t, int quick, pbc_case_list *out);
static void size_cases(const pbc_target *t, unsigned flags, const struct gen_layout *layout, pbc_case_list *out);
static void placement_cases(const pbc_target *t, const gen_layout *layout, pbc_case_list *out);
static void queued_cases(const pbc_target *t, const gen_layout *layout, pbc_case_list *out);
static void volume_cases(const pbc_target *t, const gen_layout *layout, pbc_case_list *out);

void pbc_certify_cases(const pbc_target *t, unsigned flags, pbc_case_list *out)
{
    int quick = (flags & PBC_CERTIFY_QUICK) != 0;
    memset(out, 0, sizeof(*out));
    gen_layout layout;
    layout_init(t, &layout);
    char min1[32], odd2[32];
    snprintf(min1, sizeof(min1), "dma-min+1");
    snprintf(odd2, sizeof(odd2), "dma-odd");
    gen_dims dmas[] = {
        {"dma-min", 0, 0, 0, 0, 0, 0},
        {min1, t->min_dma_size + 24, 0, 0, 0, 0, 0},
        {odd2, t->min_dma_size * 3 + 7, 0, 0, 0, 0, 0},
        {"dma-100", 100, 0, 0, 0, 0, 0},
        {"dma-4k", 4096, 0, 0, 0, 0, 0},
        {"dma-12k", 12288, 0, 0, 0, 0, 0},
        {"dma-64k", 65536, 0, 0, 0, 0, 0},
    };
    static const uint32_t splits[] = {1, 3, 5};
    static const uint32_t mdl_offsets[] = {0, 2};
    gen_buf b = {.layout = &layout};
    for (int op = 0; op < G_COUNT; op++) {
        uint64_t needs = op == G_SL_TO_SEG || op == G_SL_TO_MDL ? PBC_OP_BIT(DXGK_OPERATION_SPECIAL_LOCK_TRANSFER) : 0;
        if (needs && !(t->supported_operations & needs))
            continue;
        for (size_t di = 0; di < sizeof(dmas) / sizeof(dmas[0]); di++)
            for (size_t si = 0; si < (op_uses_split(op) ? 3u : 1u); si++)
                for (int busy = 0; busy < 2; busy++)
                    for (int addr = quick && !op_is_physical(op); addr < (quick ? 2 : 3); addr++)
                        for (size_t mi = 0; mi < (op_uses_mdl(op) ? 2u : 1u); mi++)
                            for (int odd = quick; odd < 3; odd++)
                                for (uint32_t phys = 0; phys < (op_uses_mdl(op) ? PBC_PHYS_COUNT : 1u); phys++) {
                                    gen_dims d = dmas[di];
                                    d.split = splits[si];
                                    d.busy = busy;
                                    d.addr = addr;
                                    d.mdl_offset = mdl_offsets[mi];
                                    d.odd = odd;
                                    d.phys = phys;
                                    /* Big allocations are there for big submissions:
                                     * only in buffers that can hold them. Pages in a
                                     * row meet every split, buffer, offset and size,
                                     * but BUSY retries are the scattered cases' job. */
                                    if ((odd == 2 && d.dma < 4096) || (phys && busy))
                                        continue;
                                    add_grid_case(out, op, &d, &b);
                                }
    }
    /* Paging buffers in a memory segment (S40), below 4 GiB and above it:
     * every operation once, with several submissions per buffer and split
     * work (below 4 GiB, the names they always had). */
    for (int high = 0; high < 2; high++) {
        uint32_t seg = high ? layout.high : layout.low;
        if ((high && seg == layout.low) || seg_size(&layout, seg) <= PBC_PAGING_WINDOW)
            continue;
        for (int op = 0; op < G_COUNT; op++) {
            uint64_t needs =
                op == G_SL_TO_SEG || op == G_SL_TO_MDL ? PBC_OP_BIT(DXGK_OPERATION_SPECIAL_LOCK_TRANSFER) : 0;
            if (needs && !(t->supported_operations & needs))
                continue;
            for (int busy = 0; busy < 2; busy++) {
                gen_dims d = {"dma-100", 100, 3, busy, 1, 2, 1, seg};
                if (gen_text(op, &d, &b))
                    continue;
                char name[128];
                snprintf(name, sizeof(name), "%s/buffers-in-%ssegment/%s", op_names[op], high ? "high-" : "",
                         busy ? "busy" : "idle");
                add_case(out, name, b.text);
            }
        }
    }
    story_cases(t, &layout, out);
    gpummu_cases(t, quick, &layout, dmas, PBC_ARRAY_LEN(dmas), out);
    placement_cases(t, &layout, out);
    queued_cases(t, &layout, out);
    volume_cases(t, &layout, out);
    layout_cases(t, quick, out);
    size_cases(t, flags, &layout, out);
    if (t->adapter && t->adapter->paging_buffer_size)
        drop_same_but_dma(out);
}

/* ---- A wider world: layouts and sizes ---- */

/* Layouts Windows accepts from a driver, beyond the default one: a 4 GiB
 * aperture with a 64 GiB segment whose addresses cross 4 GiB lines; and
 * five segments with two apertures (one of exactly four pages, one of a
 * single page) between a small segment low in memory and one that ends on
 * a 4 GiB line. Cases there run only for targets that declare no layout:
 * a declared layout is the only one such a target ever sees. */
static const struct {
    const char *name;
    pbc_segment_info seg[5];
    uint32_t count;
} wide_layouts[] = {
    {"layout-wide",
     {{1, PBC_SEGMENT_MEMORY, 0x0, 1ull << 20},
      {2, PBC_SEGMENT_MEMORY, 0x1000000000ull, 64ull << 30},
      {3, PBC_SEGMENT_APERTURE, 0x800000000ull, 4ull << 30}},
     3},
    {"layout-many",
     {{1, PBC_SEGMENT_APERTURE, 0x400000000ull, 4 * 4096},
      {2, PBC_SEGMENT_MEMORY, 0x10000000ull, 16ull << 20},
      {3, PBC_SEGMENT_APERTURE, 0x400100000ull, 4096},
      {4, PBC_SEGMENT_MEMORY, 0x2000000000ull - (4ull << 30) - (64ull << 10), (4ull << 30) + (64ull << 10)},
      {5, PBC_SEGMENT_MEMORY, 0x500000000ull, 64ull << 20}},
     5},
};

static void wide_layout(int i, gen_layout *out)
{
    pbc_target none = {.adapter = NULL};
    pbc_adapter_decl decl = {.struct_size = sizeof(decl)};
    pbc_segment_decl segs[5];
    memset(segs, 0, sizeof(segs));
    for (uint32_t k = 0; k < wide_layouts[i].count; k++) {
        const pbc_segment_info *g = &wide_layouts[i].seg[k];
        segs[k].SegmentId = g->SegmentId;
        segs[k].kind = g->kind;
        segs[k].base = g->base;
        segs[k].size = g->size;
    }
    decl.segment_count = wide_layouts[i].count;
    decl.segments = segs;
    none.adapter = &decl;
    layout_init(&none, out); /* written into every case, as a declared one is */
}

static void case_name(char *name, size_t n, const char *group, int op, const gen_dims *d, const char *what)
{
    int k = snprintf(name, n, "%s/%s", group, op_names[op]);
    if (op_uses_split(op))
        k += snprintf(name + k, n - (size_t)k, "/split%u", d->split);
    snprintf(name + k, n - (size_t)k, "/%s/%s/%s", d->dma_name, d->busy ? "busy" : "idle", what);
}

/* Every operation on each wide layout, at each address class (across a
 * 4 GiB line included), in the smallest and in 4 KiB buffers (--quick:
 * 4 KiB buffers, above 4 GiB and beyond). */
static void layout_cases(const pbc_target *t, int quick, pbc_case_list *out)
{
    if (t->adapter && t->adapter->segment_count)
        return;
    gen_dims dmas[] = {{"dma-min", 0, 0, 0, 0, 0, 0, 0, 0}, {"dma-4k", 4096, 0, 0, 0, 0, 0, 0, 0}};
    for (int li = 0; li < (int)PBC_ARRAY_LEN(wide_layouts); li++) {
        gen_layout layout;
        wide_layout(li, &layout);
        gen_buf b = {.layout = &layout};
        for (int op = 0; op < G_COUNT; op++) {
            if ((op == G_SL_TO_SEG || op == G_SL_TO_MDL) &&
                !(t->supported_operations & PBC_OP_BIT(DXGK_OPERATION_SPECIAL_LOCK_TRANSFER)))
                continue;
            for (size_t di = quick ? 1 : 0; di < PBC_ARRAY_LEN(dmas); di++)
                for (int busy = 0; busy < 2; busy++)
                    for (int addr = quick; addr < 4; addr++) {
                        gen_dims d = dmas[di];
                        d.split = 3;
                        d.busy = busy;
                        d.addr = addr;
                        d.odd = 1;
                        if (gen_text(op, &d, &b))
                            continue;
                        char name[128];
                        case_name(name, sizeof(name), wide_layouts[li].name, op, &d, addr_names[addr]);
                        add_case(out, name, b.text);
                    }
        }
    }
}

/* Transfers from one page to beyond 256 MiB, split and resumed in the
 * smallest buffers (a call per page, so every point is a resume point)
 * and in 64 KiB ones; fills at and beyond 4 GiB, and transfers of what
 * they filled; and, on the wide layout and with --large, transfers of
 * initial content of 4 GiB and of one whose TransferSize is beyond 4 GiB
 * (a SIZE_T) resumed beyond 4 GiB: a builder that copies initial content
 * with the CPU needs more than the default 10 GiB memory limit, as the
 * model keeps what it copied as bytes. --quick stops at
 * 16 MiB, in 64 KiB buffers: a builder that copies with the CPU holds
 * every byte it moves. */
/* A fresh scenario in w on the wide layout: its header and segments, the
 * aperture cut to aperture_max bytes. */
static void wide_header(gen_buf *w, const gen_layout *wide, uint64_t aperture_max)
{
    w->len = 0;
    gb(w, "pbs 1\n");
    for (uint32_t k = 0; k < wide->count; k++) {
        int aperture = wide->seg[k].kind == PBC_SEGMENT_APERTURE;
        uint64_t size = aperture && wide->seg[k].size > aperture_max ? aperture_max : wide->seg[k].size;
        gb(w, "segment %u %s base=0x%llx size=0x%llx\n", wide->seg[k].SegmentId, aperture ? "aperture" : "memory",
           (unsigned long long)wide->seg[k].base, (unsigned long long)size);
    }
}

static void size_cases(const pbc_target *t, unsigned flags, const gen_layout *layout, pbc_case_list *out)
{
    int quick = (flags & PBC_CERTIFY_QUICK) != 0;
    static const struct {
        const char *name;
        uint64_t size;
    } sizes[] = {{"1-page", 4096},
                 {"beyond-1m", (1ull << 20) + 12 * 1024 + 4},
                 {"beyond-16m", (16ull << 20) + 8 * 1024 + 4},
                 {"beyond-256m", (256ull << 20) + 4 * 1024 + 4}};
    static const int ops[] = {G_MDL_TO_SEG, G_SEG_TO_MDL, G_WITHIN};
    gen_dims dmas[] = {{"dma-min", 0, 0, 0, 0, 0, 0, 0, 0}, {"dma-64k", 65536, 0, 0, 0, 0, 0, 0, 0}};
    static const uint32_t splits[] = {1, 3};
    gen_buf b = {.layout = layout};
    for (size_t oi = 0; oi < PBC_ARRAY_LEN(ops); oi++)
        for (size_t zi = 0; zi < PBC_ARRAY_LEN(sizes) - (quick ? 1 : 0); zi++)
            for (size_t si = 0; si < PBC_ARRAY_LEN(splits); si++)
                for (size_t di = quick ? 1 : 0; di < PBC_ARRAY_LEN(dmas); di++) {
                    gen_dims d = dmas[di];
                    d.split = splits[si];
                    d.addr = 1;
                    d.size = sizes[zi].size;
                    if (gen_text(ops[oi], &d, &b))
                        continue;
                    char name[128];
                    case_name(name, sizeof(name), "size", ops[oi], &d, sizes[zi].name);
                    add_case(out, name, b.text);
                }
    if (t->adapter && t->adapter->segment_count)
        return;
    gen_layout wide;
    wide_layout(0, &wide);
    gen_buf w = {.layout = &wide};
    /* FillSize at 4 GiB (0 in 32 bits) and beyond it (a remainder), in
     * every suite (--quick: beyond it only, unless --large asks for
     * sizes at 4 GiB and more): a fill is an extent of the
     * memory model, as cheap as a small one unless the builder touches
     * every page, and one that fills with the CPU keeps no more than a
     * few hundred MiB resident (the shim gives back view pages the model
     * describes, kernel/shim.c). The aperture is 256 MiB, a GART table
     * the examples take, so that they fill it too. */
    static const struct {
        const char *name;
        uint64_t size;
    } fills[] = {{"size/fill/at-4g/dma-64k", 4ull << 30}, {"size/fill/beyond-4g/dma-64k", (4ull << 30) + 8 * 1024 + 4}};
    int quick_only = (flags & PBC_CERTIFY_QUICK) && !(flags & PBC_CERTIFY_LARGE);
    for (size_t i = quick_only ? 1 : 0; i < PBC_ARRAY_LEN(fills); i++) {
        wide_header(&w, &wide, 256ull << 20);
        gb(&w, "alloc A size=%llu at=none\ndma size=65536\n", (unsigned long long)fills[i].size);
        gb(&w, "fill A to=%u:0x200001000 pattern=0xA1B2C3D4\nend\n", wide.high);
        add_case(out, fills[i].name, w.text);
    }
    /* TransferSize at 4 GiB and beyond it, in the default suite: what is
     * copied was filled first, so it is a pattern, an extent of the
     * memory model, and a builder that copies with the CPU writes pages
     * the shim gives back as the pattern (a copy of initial content is 4
     * GiB of bytes the model keeps: --large's cases, below). The fill and
     * the copy cost the reference about 1.5 s of CPU a case, so --quick
     * takes none (--large's, when asked). */
    static const struct {
        const char *name;
        uint64_t size;
    } copies[] = {{"size/transfer-filled/at-4g/dma-64k", 4ull << 30},
                  {"size/transfer-filled/beyond-4g/dma-64k", (4ull << 30) + 8 * 1024 + 4}};
    for (size_t i = 0; !(flags & PBC_CERTIFY_QUICK) && i < PBC_ARRAY_LEN(copies); i++) {
        wide_header(&w, &wide, 256ull << 20);
        gb(&w, "alloc A size=%llu at=none\ndma size=65536\n", (unsigned long long)copies[i].size);
        gb(&w, "fill A to=%u:0x200001000 pattern=0x5EEDF00D\n", wide.high);
        gb(&w, "transfer A to=%u:0x400002000\nend\n", wide.high);
        add_case(out, copies[i].name, w.text);
    }
    /* --large adds these to either suite (--quick too): it was asked for. */
    if (!(flags & PBC_CERTIFY_LARGE))
        return;
    wide_header(&w, &wide, UINT64_MAX);
    gb(&w, "alloc A size=%llu at=%u:0x100000\n", (unsigned long long)((4ull << 30) + 8 * 1024 + 4), wide.high);
    gb(&w, "dma size=65536\n");
    gb(&w, "transfer A to=%u:0x200000000 split=1\n", wide.high);
    gb(&w, "transfer A to=%u:0x400001000 split=3\n", wide.high);
    gb(&w, "end\n");
    add_case(out, "size/transfer-within-seg/over-4g/dma-64k", w.text);
    /* TransferSize at 4 GiB: a builder that copies initial content with
     * the CPU holds every byte it copies (the model keeps it as bytes). */
    wide_header(&w, &wide, UINT64_MAX);
    gb(&w, "alloc A size=%llu at=2:0x100000\ndma size=65536\n", (unsigned long long)(4ull << 30));
    gb(&w, "transfer A to=%u:0x400001000\nend\n", wide.high);
    add_case(out, "size/transfer-within-seg/at-4g/dma-64k", w.text);
}

/* ---- Paging buffers anywhere, work behind queued moves, volume ---- */

/* The 2.x matrix's operations, each variant once (4 KiB buffers, split
 * work, the allocation above 4 GiB at an odd size), with the paging
 * buffers in a memory segment below 4 GiB and in one above it (S40): a
 * driver that mishandles Patch or the buffer's address for such buffers
 * meets every operation class there. (The 1.x operations have theirs in
 * the grid: .../buffers-in-segment, .../buffers-in-high-segment.) */
static void placement_cases(const pbc_target *t, const gen_layout *layout, pbc_case_list *out)
{
    for (int high = 0; high < 2; high++) {
        uint32_t seg = high ? layout->high : layout->low;
        if ((high && seg == layout->low) || seg_size(layout, seg) <= PBC_PAGING_WINDOW)
            continue;
        gen_buf b = {.layout = layout, .paging = seg,
                     .paging_name = high ? "buffers-in-high-segment" : "buffers-in-low-segment"};
        for (int op = 0; op < V_COUNT; op++)
            for (uint32_t v = 0; v < v_variant_count(op); v++) {
                v_dims d = {"dma-4k", 4096, 3, 0, 1, op == V_ZERO ? VS_PAGE : VS_ODD, 1, v};
                v_add(out, t, op, &d, &b);
            }
    }
}

/* Work aimed at what a queued move left: A leaves its range (a move to
 * system memory, a discard) and, before the GPU has run that, VidMm
 * writes the range for B (a transfer, a special-lock transfer, a fill,
 * their virtual forms, WritePhysical), or works on A again (a transfer
 * back, a fill after the discard), in the smallest and 4 KiB buffers,
 * B needing idle or not. Packets run in order; a driver doing
 * the second with the CPU at build time lands it before the first
 * (corpus/seeds/write-physical-after-eviction.pbs is one such shape). */
static const char *const queued_names[] = {"transfer",        "special-lock-transfer", "fill",
                                           "write-physical",  "transfer-virtual",      "fill-virtual",
                                           "same-transfer",   "same-transfer-virtual", "same-fill-virtual",
                                           "fill-page"};

/* Render work on A first, so that A's move is not idle (a builder that
 * copies idle moves with the CPU makes this one packets, queued); B needs
 * idle or not (with it, a builder may take AllocationIsIdle for leave to
 * use the CPU). */
static int queued_text(gen_buf *b, int kind, int needs_idle, uint32_t dma)
{
    uint32_t low = b->layout->low;
    story_header(b, 0);
    gb(b, "alloc A size=%u at=", 5 * 4096 + 1236);
    if (kind == 8)
        gb(b, "none");
    else
        story_at(b, low, 0x10000);
    gb(b, "\n");
    /* fill-page: a fill of one page, which a builder may find small enough
     * to do with the CPU at build time, ahead of the queued move */
    gb(b, "alloc B size=%u%s%s\n", kind == 9 ? 4096 : 5 * 4096 + 1236,
       kind == 2 || kind == 5 || kind == 9 ? " at=none" : " mdl-offset=1", needs_idle ? " needs-idle" : "");
    if (dma)
        gb(b, "dma size=%u\n", dma);
    else
        gb(b, "dma size=min\n");
    if (kind != 8)
        gb(b, "render-write A offset=0 size=8K pattern=0x5EED5EED\n");
    if (kind == 8) /* its fill is queued when it is discarded and filled again */
        story_to(b, "fill A", low, 0x10000, " pattern=0x11111111\ndiscard A");
    else
        gb(b, "transfer A to=system split=2\n");
    switch (kind) {
    case 0:
    case 4:
        story_to(b, "transfer B", low, 0x10000, kind == 4 ? " virtual" : " split=3");
        break;
    case 1:
        story_to(b, "special-lock-transfer B", low, 0x10000, "");
        break;
    case 2:
    case 5:
    case 9:
        story_to(b, "fill B", low, 0x10000, kind == 5 ? " pattern=0x0BADCAFE virtual" : " pattern=0x0BADCAFE");
        break;
    case 3:
        gb(b, "write-physical at=");
        story_at(b, low, 0x10000 + 5 * 4096);
        gb(b, "\n");
        break;
    case 6:
    case 7:
        story_to(b, "transfer A", low, 0x20000, kind == 7 ? " virtual" : " split=2");
        break;
    default:
        story_to(b, "fill A", low, 0x10000, " pattern=0x0BADCAFE virtual");
        break;
    }
    if (kind == 9)
        gb(b, "render-read B offset=0 size=4K\ntransfer B to=system\n");
    else if (kind < 6 && kind != 3)
        gb(b, "render-read B offset=0 size=8K\ntransfer B to=system\n");
    else if (kind >= 6) /* A is back in a segment: read back */
        gb(b, "transfer A to=system\n");
    gb(b, "end\n");
    return 0;
}

static void queued_cases(const pbc_target *t, const gen_layout *layout, pbc_case_list *out)
{
    static const story_dims dims[] = {{"dma-min", 0, 0}, {"dma-4k", 4096, 0}, {"dma-min", 0, 1}, {"dma-4k", 4096, 1}};
    gen_buf b = {.layout = layout};
    for (int kind = 0; kind < (int)PBC_ARRAY_LEN(queued_names); kind++)
        for (size_t di = 0; di < PBC_ARRAY_LEN(dims); di++) {
            if (queued_text(&b, kind, dims[di].busy, dims[di].dma))
                continue;
            char name[128];
            snprintf(name, sizeof(name), "queued/%s/%s/%s", queued_names[kind], dims[di].dma_name,
                     dims[di].busy ? "b-needs-idle" : "plain");
            add_story(out, t, name, b.text);
        }
}

/* Text of any length, for the volume cases. */
typedef struct long_text {
    char *p;
    uint32_t n, cap;
} long_text;

static void lt(long_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void lt(long_text *t, const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    if (n <= 0)
        return;
    pbc_grow((void **)&t->p, &t->cap, t->n + (uint32_t)n + 1, 1);
    memcpy(t->p + t->n, line, (size_t)n + 1);
    t->n += (uint32_t)n;
}

/* Volume in one run, in the smallest buffers: 520 maps and unmaps of one
 * page, each its own paging buffer, over aperture pages in turn (1,000
 * maps and paging buffers and more); and 260 GPU virtual ranges, each in
 * a 2 MiB region of its own (a leaf table each: 256 and more), mapped and
 * released one after another. Drivers keep small caches (GART windows,
 * mapped MDLs, views of page tables) that wrap only after hundreds of
 * uses. */
#define VOLUME_STEPS 520u
static void volume_cases(const pbc_target *t, const gen_layout *layout, pbc_case_list *out)
{
    gen_buf b = {.layout = layout};
    story_header(&b, 0); /* the declared layout, if any */
    uint32_t ap = layout->aperture;
    uint64_t ap_pages = seg_size(layout, ap) / PBC_PAGE_SIZE;
    if (ap && ap_pages) {
        long_text m = {0};
        lt(&m, "%salloc A size=4K mdl-offset=1\ndma size=min\n", b.text);
        for (uint32_t k = 0; k < VOLUME_STEPS; k++)
            lt(&m, "map A aperture=%u:%llu\nunmap A\n", ap, (unsigned long long)((k * 7ull) % ap_pages));
        lt(&m, "end\n");
        add_story(out, t, "volume/maps/dma-min", m.p);
        free(m.p);
    }
    long_text v = {0};
    lt(&v, "%salloc A size=4K at=%u:0x10000\ndma size=min\n", b.text, layout->low);
    for (uint32_t k = 0; k < VOLUME_STEPS / 2; k++)
        lt(&v, "va-map A va=0x%llx\nva-unmap A\n", (unsigned long long)(k + 1) << 21);
    lt(&v, "end\n");
    add_story(out, t, "volume/tables/dma-min", v.p);
    free(v.p);
}

/* ---- Minimization ---- */

static int still_fails(pbc_runner *r, const pbc_scenario *s, const pbc_target *t, const char *rule)
{
    char why[200];
    if (pbc_scenario_validate(s, why, sizeof(why)))
        return 0;
    pbc_run_options o = {0};
    pbc_outcome out;
    pbc_runner_run(r, s, t, &o, &out);
    return out.verdict == PBC_VERDICT_FAIL && !strcmp(out.rule, rule);
}

char *pbc_certify_minimize(pbc_runner *r, const pbc_scenario *s, const pbc_target *t, const char *rule)
{
    pbc_scenario m = *s;
    m.ops = pbc_xmalloc((s->op_count ? s->op_count : 1) * sizeof(*m.ops));
    memcpy(m.ops, s->ops, s->op_count * sizeof(*m.ops));
    m.op_cap = s->op_count;
    for (uint32_t i = m.op_count; i-- > 0;) {
        pbc_sop removed = m.ops[i];
        memmove(&m.ops[i], &m.ops[i + 1], (m.op_count - i - 1) * sizeof(*m.ops));
        m.op_count--;
        if (still_fails(r, &m, t, rule))
            continue;
        memmove(&m.ops[i + 1], &m.ops[i], (m.op_count - i) * sizeof(*m.ops));
        m.ops[i] = removed;
        m.op_count++;
    }
    char *text = pbc_scenario_print(&m);
    free(m.ops);
    return text;
}
