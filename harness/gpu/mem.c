/*
 * Sparse modeled memory: an index from physical page number to a dense
 * array of touched pages. The dense array doubles as the dirty
 * set, so resetting between fuzz iterations clears only what was touched.
 * Pages stay described until someone writes part of one (mem.h).
 */
#include "gpu/mem.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* The index: leaves of 4,096 entries (1 + the page's slot in `pages`, 0
 * for never written) cover 16 MiB of neighbouring pages each, so walking
 * an allocation stays in one leaf; a small open-addressing directory finds
 * the leaf of a page number. Reset gives the leaves in use back to a free
 * list, zeroing only the entries that were set: a run in steady state
 * allocates nothing, however its addresses move from run to run. */
#define MEM_LEAF_BITS 12u
#define MEM_LEAF (1u << MEM_LEAF_BITS)
/* The most entries of the page list kept from run to run (5 MiB). */
#define MEM_PAGES_KEEP 65536u

static uint32_t mem_dir_slot(uint64_t key, uint32_t cap)
{
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 40) & (cap - 1);
}

void pbc_mem_init(pbc_mem *m)
{
    memset(m, 0, sizeof(*m));
    m->dir_cap = 64;
    m->dir_keys = pbc_xcalloc(m->dir_cap, sizeof(*m->dir_keys));
    m->dir_leaves = pbc_xcalloc(m->dir_cap, sizeof(*m->dir_leaves));
    m->epoch = 1;
    m->ext_sorted = m->pool_sorted = 1;
}

void pbc_mem_fini(pbc_mem *m)
{
    for (uint32_t i = 0; i < m->pages_cap; i++)
        free(m->pages[i].data);
    free(m->pages);
    for (uint32_t i = 0; i < m->spare_count; i++)
        free(m->spare[i]);
    free(m->spare);
    for (uint32_t i = 0; i < m->dir_cap; i++)
        free(m->dir_leaves[i]);
    for (uint32_t i = 0; i < m->free_count; i++)
        free(m->free_leaves[i]);
    free(m->dir_keys);
    free(m->dir_leaves);
    free(m->free_leaves);
    free(m->changed);
    free(m->ext);
    free(m->pool_ext);
    free(m->pool_written);
    memset(m, 0, sizeof(*m));
}

/* The directory slot of leaf `key` (page number >> MEM_LEAF_BITS, + 1), or
 * the empty slot where it would go. */
static uint32_t mem_dir_find(const pbc_mem *m, uint64_t key)
{
    uint32_t h = mem_dir_slot(key, m->dir_cap);
    while (m->dir_keys[h] && m->dir_keys[h] != key)
        h = (h + 1) & (m->dir_cap - 1);
    return h;
}

static void mem_dir_grow(pbc_mem *m)
{
    uint64_t *keys = m->dir_keys;
    uint32_t **leaves = m->dir_leaves, cap = m->dir_cap;
    m->dir_cap *= 2;
    m->dir_keys = pbc_xcalloc(m->dir_cap, sizeof(*m->dir_keys));
    m->dir_leaves = pbc_xcalloc(m->dir_cap, sizeof(*m->dir_leaves));
    for (uint32_t i = 0; i < cap; i++) {
        if (!keys[i])
            continue;
        uint32_t h = mem_dir_find(m, keys[i]);
        m->dir_keys[h] = keys[i];
        m->dir_leaves[h] = leaves[i];
    }
    free(keys);
    free(leaves);
}

/* The index entry of ppn; NULL when its leaf does not exist and `make` is
 * 0. The last leaf found is remembered: most lookups are its neighbours. */
static uint32_t *mem_entry(pbc_mem *m, uint64_t ppn, int make)
{
    uint64_t key = (ppn >> MEM_LEAF_BITS) + 1;
    if (key == m->last_key)
        return m->last_leaf + (ppn & (MEM_LEAF - 1));
    uint32_t h = mem_dir_find(m, key);
    if (!m->dir_keys[h]) {
        if (!make)
            return NULL;
        if ((m->dir_count + 1) * 2 > m->dir_cap) {
            mem_dir_grow(m);
            h = mem_dir_find(m, key);
        }
        m->dir_keys[h] = key;
        m->dir_leaves[h] = m->free_count ? m->free_leaves[--m->free_count]
                                         : pbc_xcalloc(MEM_LEAF, sizeof(uint32_t));
        m->dir_count++;
    }
    m->last_key = key;
    m->last_leaf = m->dir_leaves[h];
    return m->last_leaf + (ppn & (MEM_LEAF - 1));
}

void pbc_mem_reset(pbc_mem *m)
{
    for (uint32_t i = 0; i < m->count; i++) {
        *mem_entry(m, m->pages[i].ppn, 0) = 0;
        if (m->pages[i].data) {
            PBC_PUSH(m->spare, m->spare_count, m->spare_cap, m->pages[i].data);
            m->pages[i].data = NULL;
        }
    }
    for (uint32_t h = 0; h < m->dir_cap && m->dir_count; h++) {
        if (!m->dir_keys[h])
            continue;
        PBC_PUSH(m->free_leaves, m->free_count, m->free_cap, m->dir_leaves[h]);
        m->dir_keys[h] = 0;
        m->dir_leaves[h] = NULL;
        m->dir_count--;
    }
    /* A page list grown far by one run (it is zeroed as it grows, so
     * resident whole) is given back, not kept for the next. */
    if (m->pages_cap > MEM_PAGES_KEEP) {
        free(m->pages);
        m->pages = NULL;
        m->pages_cap = 0;
    }
    m->last_key = 0;
    m->count = 0;
    m->data_count = 0;
    m->over = 0;
    m->pool_written_count = m->pool_written_of = 0;
    m->ext_count = m->pool_count = 0;
    m->ext_sorted = m->pool_sorted = 1;
    pbc_mem_new_epoch(m);
}

pbc_page *pbc_mem_find(const pbc_mem *m, uint64_t ppn)
{
    const uint32_t *e = mem_entry((pbc_mem *)m, ppn, 0); /* only the last-leaf memo changes */
    return e && *e ? &m->pages[*e - 1] : NULL;
}

/* A new page at index entry e; its description is the caller's. */
static pbc_page *mem_new_page(pbc_mem *m, uint32_t *e, uint64_t ppn)
{
    if (m->count == m->pages_cap) {
        uint32_t n = m->pages_cap ? m->pages_cap * 2 : 64;
        m->pages = pbc_xrealloc(m->pages, n * sizeof(*m->pages));
        memset(m->pages + m->pages_cap, 0, (n - m->pages_cap) * sizeof(*m->pages));
        m->pages_cap = n;
    }
    pbc_page *p = &m->pages[m->count];
    p->ppn = ppn;
    p->split = 0;
    p->epoch = 0;
    *e = ++m->count;
    return p;
}

pbc_page *pbc_mem_touch(pbc_mem *m, uint64_t ppn)
{
    uint32_t *e = mem_entry(m, ppn, 1);
    if (*e)
        return &m->pages[*e - 1];
    pbc_page *p = mem_new_page(m, e, ppn);
    if (!pbc_mem_base_at(m, ppn, &p->desc, &p->prov)) {
        p->desc = (pbc_desc){PBC_PAGE_ZERO, 0, 0};
        memset(&p->prov, 0, sizeof(p->prov));
    }
    return p;
}

/* Page ppn holds d now (laid), as a written page: for the change log of
 * watched memory, which CPU views follow. */
static void mem_lay_watched(pbc_mem *m, uint64_t ppn, const pbc_desc *d, const pbc_prov *prov)
{
    uint32_t *e = mem_entry(m, ppn, 1);
    pbc_page *p = *e ? &m->pages[*e - 1] : mem_new_page(m, e, ppn);
    p->desc = *d;
    p->split = 0;
    p->prov = *prov;
    pbc_mem_log_write(m, p);
}

/* Content words, a run at a time that does not cross a 2^32-dword
 * boundary; inlined into a generic and an AVX2 copy. */
static inline __attribute__((always_inline)) void content_words(uint32_t seed, uint64_t first, uint8_t *out,
                                                                uint32_t count)
{
    while (count) {
        uint32_t key = pbc_content_key(seed, (uint32_t)(first >> 32)), low = (uint32_t)first;
        uint32_t run = (uint64_t)low + count > 0x100000000ull ? (uint32_t)(0x100000000ull - low) : count;
        for (uint32_t k = 0; k < run; k++) {
            uint32_t word = pbc_content_mix(key, low + k);
            memcpy(out + 4 * k, &word, 4);
        }
        out += 4 * run;
        first += run;
        count -= run;
    }
}

static void content_words_generic(uint32_t seed, uint64_t first, uint8_t *out, uint32_t count)
{
    content_words(seed, first, out, count);
}

/* With AVX2 the 32-bit multiplies are eight at a time instead of emulated:
 * 5x faster. Chosen at run time by hand, not with target_clones: AFL++'s
 * instrumentation pass cannot take an ifunc. */
__attribute__((target("avx2"))) static void content_words_avx2(uint32_t seed, uint64_t first, uint8_t *out,
                                                               uint32_t count)
{
    content_words(seed, first, out, count);
}

void pbc_content_words(uint32_t seed, uint64_t first, uint8_t *out, uint32_t count)
{
    static int avx2 = -1; /* the same answer from any thread */
    if (avx2 < 0)
        avx2 = __builtin_cpu_supports("avx2") != 0;
    (avx2 ? content_words_avx2 : content_words_generic)(seed, first, out, count);
}

void pbc_desc_read(const pbc_desc *d, uint32_t off, uint8_t *out, uint32_t n)
{
    if (d->kind == PBC_PAGE_ZERO) {
        memset(out, 0, n);
        return;
    }
    uint64_t b = d->pos + off;
    uint32_t i = 0;
    if (d->kind == PBC_PAGE_PATTERN) {
        uint8_t four[4];
        for (uint32_t j = 0; j < 4; j++)
            four[j] = (uint8_t)(d->value >> (8 * ((b + j) & 3)));
        for (; i + 4 <= n; i += 4)
            memcpy(out + i, four, 4);
        for (uint32_t j = 0; i < n; i++, j++)
            out[i] = four[j];
        return;
    }
    /* Content: a partial first dword, whole dwords straight into place
     * (the loop that vectorizes), a partial last one. */
    for (; i < n && (b + i) % 4; i++)
        out[i] = (uint8_t)(pbc_content_word(d->value, (b + i) / 4) >> (8 * ((b + i) % 4)));
    uint64_t w = (b + i) / 4;
    pbc_content_words(d->value, w, out + i, (n - i) / 4);
    w += (n - i) / 4;
    i += (n - i) / 4 * 4;
    for (uint32_t j = 0; i < n; i++, j++)
        out[i] = (uint8_t)(pbc_content_word(d->value, w) >> (8 * j));
}

/* Reads page bytes [off, off+n) of a described (not BYTES) page. */
static void mem_desc_page_read(const pbc_page *pg, uint32_t off, uint8_t *out, uint32_t n)
{
    uint32_t head = n; /* bytes from the first stream */
    if (pg->split)
        head = off >= pg->split ? 0 : off + n <= pg->split ? n : pg->split - off;
    if (head)
        pbc_desc_read(&pg->desc, off, out, head);
    if (head < n) {
        uint32_t at = off + head; /* >= split */
        pbc_desc_read(&pg->tail, at - pg->split, out + head, n - head);
    }
}

uint8_t *pbc_mem_data(pbc_mem *m, pbc_page *pg)
{
    if (!pg->data) {
        pg->data = m->spare_count ? m->spare[--m->spare_count] : pbc_xmalloc(PBC_PAGE_SIZE);
        m->data_count++;
    }
    return pg->data;
}

uint8_t *pbc_mem_bytes(pbc_mem *m, pbc_page *pg)
{
    if (pg->desc.kind == PBC_PAGE_BYTES)
        return pg->data;
    mem_desc_page_read(pg, 0, pbc_mem_data(m, pg), PBC_PAGE_SIZE);
    pg->desc = (pbc_desc){PBC_PAGE_BYTES, 0, 0};
    pg->split = 0;
    return pg->data;
}

const uint8_t *pbc_mem_view(const pbc_page *pg, uint8_t scratch[PBC_PAGE_SIZE])
{
    if (pg->desc.kind == PBC_PAGE_BYTES)
        return pg->data;
    mem_desc_page_read(pg, 0, scratch, PBC_PAGE_SIZE);
    return scratch;
}


int pbc_mem_desc_at(const pbc_page *pg, uint32_t off, uint32_t n, pbc_desc *d)
{
    if (pg->desc.kind == PBC_PAGE_BYTES)
        return 0;
    if (!pg->split || off + n <= pg->split) {
        *d = pbc_desc_shift(&pg->desc, off);
        return 1;
    }
    if (off >= pg->split) {
        *d = pbc_desc_shift(&pg->tail, off - pg->split);
        return 1;
    }
    return 0;
}

int pbc_mem_desc_in(const pbc_mem *m, uint64_t ppn, uint32_t off, uint32_t n, pbc_desc *d)
{
    pbc_page tmp;
    const pbc_page *pg = pbc_mem_get(m, ppn, &tmp);
    if (pg)
        return pbc_mem_desc_at(pg, off, n, d);
    *d = (pbc_desc){PBC_PAGE_ZERO, 0, 0};
    return 1;
}

int pbc_mem_desc_goes_on(const pbc_mem *m, uint64_t ppn, uint32_t n, const pbc_desc *d, uint32_t by)
{
    pbc_desc next, want = pbc_desc_shift(d, by);
    return pbc_mem_desc_in(m, ppn, 0, n, &next) && pbc_desc_same(&want, &next);
}

int pbc_mem_desc_range(const pbc_mem *m, uint64_t addr, uint32_t n, pbc_desc *d)
{
    uint32_t off = (uint32_t)(addr & (PBC_PAGE_SIZE - 1));
    uint32_t first = n < PBC_PAGE_SIZE - off ? n : PBC_PAGE_SIZE - off;
    uint64_t ppn = addr >> PBC_PAGE_SHIFT;
    return pbc_mem_desc_in(m, ppn, off, first, d) &&
           (first == n || pbc_mem_desc_goes_on(m, ppn + 1, n - first, d, first));
}

/* A run of page bytes from `start` on, described by d (d.pos: byte start). */
typedef struct mem_run {
    uint32_t start;
    pbc_desc d;
} mem_run;

void pbc_mem_write_desc(pbc_mem *m, pbc_page *pg, uint32_t off, uint32_t n, const pbc_desc *d)
{
    if (pg->desc.kind != PBC_PAGE_BYTES) {
        /* The page as runs, the write laid over them, runs that continue
         * one stream merged: two runs or fewer stay described. */
        mem_run old[2] = {{0, pg->desc}, {pg->split, pg->tail}}, run[4];
        uint32_t nold = pg->split ? 2 : 1, count = 0;
        for (uint32_t k = 0; k < nold; k++) { /* what lies before the write */
            if (old[k].start >= off)
                break;
            run[count++] = old[k];
        }
        run[count++] = (mem_run){off, *d};
        for (uint32_t k = nold; off + n < PBC_PAGE_SIZE && k-- > 0;) { /* the run the write ends in */
            if (old[k].start <= off + n) {
                run[count++] = (mem_run){off + n, pbc_desc_shift(&old[k].d, off + n - old[k].start)};
                for (uint32_t j = k + 1; j < nold; j++)
                    run[count++] = old[j];
                break;
            }
        }
        uint32_t merged = 0;
        for (uint32_t k = 0; k < count; k++) {
            if (merged) {
                pbc_desc go_on = pbc_desc_shift(&run[merged - 1].d, run[k].start - run[merged - 1].start);
                if (pbc_desc_same(&go_on, &run[k].d))
                    continue;
            }
            run[merged++] = run[k];
        }
        if (merged <= 2) {
            pg->desc = run[0].d;
            pg->split = merged == 2 ? run[1].start : 0;
            if (merged == 2)
                pg->tail = run[1].d;
            return;
        }
    }
    if (pbc_mem_may_hold_bytes(m, pg))
        pbc_desc_read(d, 0, pbc_mem_bytes(m, pg) + off, n);
}

int pbc_desc_same(const pbc_desc *a, const pbc_desc *b)
{
    if (pbc_desc_is_zero(a) || pbc_desc_is_zero(b))
        return pbc_desc_is_zero(a) && pbc_desc_is_zero(b);
    if (a->kind != b->kind || a->value != b->value)
        return 0;
    return a->kind == PBC_PAGE_PATTERN ? (a->pos & 3) == (b->pos & 3) : a->pos == b->pos;
}

void pbc_mem_read(const pbc_mem *m, uint64_t addr, void *out, uint64_t n)
{
    uint8_t *to = out;
    while (n) {
        uint64_t off = addr & (PBC_PAGE_SIZE - 1), k = PBC_PAGE_SIZE - off < n ? PBC_PAGE_SIZE - off : n;
        pbc_page tmp;
        const pbc_page *pg = pbc_mem_get(m, addr >> PBC_PAGE_SHIFT, &tmp);
        if (!pg)
            memset(to, 0, k);
        else if (pg->desc.kind == PBC_PAGE_BYTES)
            memcpy(to, pg->data + off, k);
        else
            mem_desc_page_read(pg, (uint32_t)off, to, (uint32_t)k);
        to += k;
        addr += k;
        n -= k;
    }
}

void pbc_mem_log_changed(pbc_mem *m, pbc_page *pg)
{
    pg->epoch = m->epoch;
    PBC_PUSH(m->changed, m->changed_count, m->changed_cap, (uint32_t)(pg - m->pages));
}

void pbc_mem_watch(pbc_mem *m, int on)
{
    m->watched = on;
    pbc_mem_new_epoch(m);
}

void pbc_mem_new_epoch(pbc_mem *m)
{
    m->changed_count = 0;
    if (++m->epoch == 0) { /* wrapped: no page may look already logged */
        for (uint32_t i = 0; i < m->count; i++)
            m->pages[i].epoch = 0;
        m->epoch = 1;
    }
}

/* ---- The base ---- */

static int ext_cmp(const void *a, const void *b)
{
    const pbc_extent *x = a, *y = b;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* A list of extents in order (they are laid in any order, apart). */
static void ext_list_sort(pbc_extent *list, uint32_t n, int *sorted)
{
    if (*sorted)
        return;
    qsort(list, n, sizeof(*list), ext_cmp);
    for (uint32_t i = 1; i < n; i++)
        if (list[i].first < list[i - 1].first + list[i - 1].count)
            pbc_harness_bug("extents of modeled memory overlap at 0x%llx", (unsigned long long)list[i].first);
    *sorted = 1;
}

static void ext_sort(pbc_mem *m)
{
    ext_list_sort(m->ext, m->ext_count, &m->ext_sorted);
    ext_list_sort(m->pool_ext, m->pool_count, &m->pool_sorted);
}

/* The frame of pool index k. */
static uint64_t pool_frame(const pbc_mem *m, uint64_t k) { return m->pool.base + ((k * m->pool.mult) & m->pool.mask); }

/* The extent of `list` (sorted, apart) holding key, or NULL. */
static const pbc_extent *ext_search(const pbc_extent *list, uint32_t n, uint64_t key)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (list[mid].first + list[mid].count <= key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && list[lo].first <= key ? &list[lo] : NULL;
}

/* Whether page ppn lies in the pool's window; its pool index then. */
static int pool_index(const pbc_mem *m, uint64_t ppn, uint64_t *index)
{
    if (!m->pool.mask || ppn < m->pool.base || ppn - m->pool.base > m->pool.mask)
        return 0;
    *index = ((ppn - m->pool.base) * m->pool.mult_inv) & m->pool.mask;
    return 1;
}

static const pbc_extent *base_extent(const pbc_mem *m, uint64_t ppn, uint64_t *key)
{
    pbc_mem *w = (pbc_mem *)m; /* sorting is not a change */
    ext_sort(w);
    const pbc_extent *e = ext_search(m->ext, m->ext_count, ppn);
    if (e) {
        *key = ppn;
        return e;
    }
    uint64_t index;
    if (m->pool_count && pool_index(m, ppn, &index) && (e = ext_search(m->pool_ext, m->pool_count, index))) {
        *key = index;
        return e;
    }
    return NULL;
}

int pbc_mem_base_at(const pbc_mem *m, uint64_t ppn, pbc_desc *d, pbc_prov *prov)
{
    uint64_t key;
    const pbc_extent *e = base_extent(m, ppn, &key);
    if (!e)
        return 0;
    *d = pbc_desc_shift(&e->d, (key - e->first) * PBC_PAGE_SIZE);
    if (prov)
        *prov = e->prov;
    return 1;
}

const pbc_page *pbc_mem_get(const pbc_mem *m, uint64_t ppn, pbc_page *tmp)
{
    const pbc_page *pg = pbc_mem_find(m, ppn);
    if (pg)
        return pg;
    memset(tmp, 0, sizeof(*tmp));
    tmp->ppn = ppn;
    return pbc_mem_base_at(m, ppn, &tmp->desc, &tmp->prov) ? tmp : NULL;
}

/* A written page the base now lays: it holds the base's description. */
static void lay_page(pbc_mem *m, pbc_page *pg, const pbc_desc *d, const pbc_prov *prov)
{
    pg->desc = *d;
    pg->split = 0;
    pg->prov = *prov;
    pbc_mem_log_write(m, pg);
}

/* Cuts [first, first+count) out of the physical extents (sorted). */
static void ext_cut(pbc_mem *m, uint64_t first, uint64_t count)
{
    uint64_t end = first + count;
    for (uint32_t i = 0; i < m->ext_count;) {
        pbc_extent *e = &m->ext[i];
        uint64_t e_end = e->first + e->count;
        if (e_end <= first || e->first >= end) {
            i++;
            continue;
        }
        if (e->first < first && e_end > end) { /* the cut is inside: two pieces */
            pbc_extent right = *e;
            right.d = pbc_desc_shift(&e->d, (end - e->first) * PBC_PAGE_SIZE);
            right.first = end;
            right.count = e_end - end;
            e->count = first - e->first;
            PBC_PUSH(m->ext, m->ext_count, m->ext_cap, right);
            m->ext_sorted = 0;
            return;
        }
        if (e->first < first) {
            e->count = first - e->first;
            i++;
        } else if (e_end > end) {
            e->d = pbc_desc_shift(&e->d, (end - e->first) * PBC_PAGE_SIZE);
            e->count = e_end - end;
            e->first = end;
            i++;
        } else {
            *e = m->ext[--m->ext_count];
            m->ext_sorted = 0;
        }
    }
}

void pbc_mem_lay(pbc_mem *m, uint64_t ppn, uint64_t count, const pbc_desc *d, const pbc_prov *prov)
{
    if (!count)
        return;
    uint64_t index;
    /* Frames of the pool's window are handed out once a run: nothing lies
     * there yet. Elsewhere (segments) older extents give way. */
    if (!pool_index(m, ppn, &index))
        ext_cut(m, ppn, count);
    pbc_extent e = {ppn, count, *d, *prov};
    const pbc_extent *last = m->ext_count ? &m->ext[m->ext_count - 1] : NULL;
    if (last && (!m->ext_sorted || last->first + last->count > ppn))
        m->ext_sorted = 0;
    PBC_PUSH(m->ext, m->ext_count, m->ext_cap, e);
    /* Written pages in the range hold it now: found leaf by leaf. */
    for (uint64_t at = ppn; at < ppn + count;) {
        uint64_t leaf_end = ((at >> MEM_LEAF_BITS) + 1) << MEM_LEAF_BITS, end = leaf_end < ppn + count ? leaf_end : ppn + count;
        uint32_t *first = mem_entry(m, at, 0);
        for (uint64_t p = at; first && p < end; p++)
            if (first[p - at]) {
                pbc_desc pd = pbc_desc_shift(d, (p - ppn) * PBC_PAGE_SIZE);
                lay_page(m, &m->pages[first[p - at] - 1], &pd, prov);
            }
        at = end;
    }
    if (m->watched) /* CPU views learn of what changed page by page */
        for (uint64_t p = ppn; p < ppn + count; p++) {
            pbc_desc pd = pbc_desc_shift(d, (p - ppn) * PBC_PAGE_SIZE);
            mem_lay_watched(m, p, &pd, prov);
        }
}

void pbc_mem_lay_pool(pbc_mem *m, uint64_t index, uint64_t count, const pbc_desc *d, const pbc_prov *prov)
{
    if (!count)
        return;
    /* Frames are laid once a run (pbc_mem_lay), mostly in pool order. */
    const pbc_extent *last = m->pool_count ? &m->pool_ext[m->pool_count - 1] : NULL;
    if (last && (!m->pool_sorted || last->first + last->count > index))
        m->pool_sorted = 0;
    pbc_extent e = {index, count, *d, *prov};
    PBC_PUSH(m->pool_ext, m->pool_count, m->pool_cap, e);
    /* Written pages there hold it now: found by frame, or among the
     * written pages when those are fewer. */
    if (count <= m->count) {
        for (uint64_t k = index; k < index + count; k++) {
            pbc_page *pg = pbc_mem_find(m, pool_frame(m, k));
            if (pg) {
                pbc_desc pd = pbc_desc_shift(d, (k - index) * PBC_PAGE_SIZE);
                lay_page(m, pg, &pd, prov);
            }
        }
    } else {
        for (uint32_t i = 0; i < m->count; i++) {
            uint64_t k;
            if (pool_index(m, m->pages[i].ppn, &k) && k >= index && k - index < count) {
                pbc_desc pd = pbc_desc_shift(d, (k - index) * PBC_PAGE_SIZE);
                lay_page(m, &m->pages[i], &pd, prov);
            }
        }
    }
    if (m->watched)
        for (uint64_t k = index; k < index + count; k++) {
            pbc_desc pd = pbc_desc_shift(d, (k - index) * PBC_PAGE_SIZE);
            mem_lay_watched(m, pool_frame(m, k), &pd, prov);
        }
}

void pbc_mem_set_pool(pbc_mem *m, const pbc_pool_order *order)
{
    m->pool = *order;
}

/* The extent of the physical (or pool) extents holding key, sorted first,
 * and how many pages of it from key on, at most max; 0 when none. */
static uint64_t ext_span(const pbc_mem *m, int pool, uint64_t key, uint64_t max, const pbc_extent **e)
{
    ext_sort((pbc_mem *)m); /* sorting is not a change */
    *e = pool ? ext_search(m->pool_ext, m->pool_count, key) : ext_search(m->ext, m->ext_count, key);
    if (!*e)
        return 0;
    uint64_t n = (*e)->first + (*e)->count - key;
    return n < max ? n : max;
}

uint64_t pbc_mem_base_run(const pbc_mem *m, uint64_t ppn, uint64_t max, pbc_desc *d)
{
    pbc_mem *w = (pbc_mem *)m; /* the last-leaf memo is not a change */
    const pbc_extent *e;
    uint64_t n = ext_span(m, 0, ppn, max, &e);
    for (uint64_t at = ppn; at < ppn + n;) {
        uint64_t leaf_end = ((at >> MEM_LEAF_BITS) + 1) << MEM_LEAF_BITS, end = leaf_end < ppn + n ? leaf_end : ppn + n;
        const uint32_t *first = mem_entry(w, at, 0);
        for (uint64_t p = at; first && p < end; p++)
            if (first[p - at]) {
                n = p - ppn;
                break;
            }
        at = end;
    }
    if (n)
        *d = pbc_desc_shift(&e->d, (ppn - e->first) * PBC_PAGE_SIZE);
    return n;
}

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

uint64_t pbc_mem_pool_run(const pbc_mem *m, uint64_t index, uint64_t max, pbc_desc *d)
{
    pbc_mem *w = (pbc_mem *)m; /* indexing is not a change */
    const pbc_extent *e;
    uint64_t n = ext_span(m, 1, index, max, &e);
    if (!n)
        return 0;
    if (m->pool_written_of != m->count) { /* pages were written since: index them again */
        w->pool_written_count = 0;
        for (uint32_t i = 0; i < m->count; i++) {
            uint64_t k;
            if (pool_index(m, m->pages[i].ppn, &k))
                PBC_PUSH(w->pool_written, w->pool_written_count, w->pool_written_cap, k);
        }
        if (w->pool_written_count > 1)
            qsort(w->pool_written, w->pool_written_count, sizeof(*w->pool_written), u64_cmp);
        w->pool_written_of = m->count;
    }
    uint32_t lo = 0, hi = m->pool_written_count; /* the first written index at or after `index` */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (m->pool_written[mid] < index)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < m->pool_written_count && m->pool_written[lo] - index < n)
        n = m->pool_written[lo] - index;
    if (n)
        *d = pbc_desc_shift(&e->d, (index - e->first) * PBC_PAGE_SIZE);
    return n;
}

static int ext_list_same(const pbc_extent *a, const pbc_extent *b, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (a[i].first != b[i].first || a[i].count != b[i].count || a[i].d.kind != b[i].d.kind ||
            a[i].d.value != b[i].d.value || a[i].d.pos != b[i].d.pos)
            return 0;
    return 1;
}

int pbc_mem_same_base(const pbc_mem *a, const pbc_mem *b)
{
    ext_sort((pbc_mem *)a);
    ext_sort((pbc_mem *)b);
    return a->ext_count == b->ext_count && a->pool_count == b->pool_count &&
           a->pool.base == b->pool.base && ext_list_same(a->ext, b->ext, a->ext_count) &&
           ext_list_same(a->pool_ext, b->pool_ext, a->pool_count);
}
