/*
 * The text scenario format (.pbs): a line-oriented parser that reports the
 * first problem as "file:line:col: what", and a printer whose output is
 * the canonical form (parse(print(s)) == s). The grammar is specified in
 * docs/scenario-format.md.
 *
 * The parser never reads past the given length, never allocates more than
 * the scenario limits allow, and before it returns success validates
 * everything a real VidMm or the GPU model would refuse
 * (pbc_scenario_validate) and what a run would cost
 * (pbc_scenario_check_limits).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "gpu/gpu.h"
#include "base/fs.h"
#include "base/util.h"

#define PBS_MAX_LINE 1024u
#define PBS_MAX_TOKENS 16u
#define PBS_MAX_FILE (1u << 20)

typedef struct pbs_token {
    const char *text; /* NUL-terminated copy inside the line buffer */
    uint32_t col;
} pbs_token;

typedef struct pbs_parser {
    const char *name;
    uint32_t line;
    char *err;
    size_t err_size;
    pbc_scenario *s;
    int seen_header, seen_end, seen_segment;
    pbs_token tok[PBS_MAX_TOKENS];
    uint32_t ntok;
    uint32_t used; /* bitmask of consumed key tokens */
} pbs_parser;

static int pbs_fail(pbs_parser *p, uint32_t col, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    snprintf(p->err, p->err_size, "%s:%u:%u: %s", p->name, p->line, col, msg);
    return -1;
}

/* Unsigned number: decimal or 0x-hex, optional K/M/G (binary) suffix. */
static int pbs_number(const char *t, uint64_t *out)
{
    uint64_t v = 0;
    const char *c = t;
    int base = 10, digits = 0;
    if (c[0] == '0' && (c[1] == 'x' || c[1] == 'X')) {
        base = 16;
        c += 2;
    }
    for (; *c; c++, digits++) {
        int d;
        if (isdigit((unsigned char)*c))
            d = *c - '0';
        else if (base == 16 && isxdigit((unsigned char)*c))
            d = tolower((unsigned char)*c) - 'a' + 10;
        else
            break;
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            return -2;
        v = v * (uint64_t)base + (uint64_t)d;
    }
    if (!digits)
        return -1;
    unsigned shift = 0;
    if (*c == 'K')
        shift = 10;
    else if (*c == 'M')
        shift = 20;
    else if (*c == 'G')
        shift = 30;
    if (shift) {
        if (v > (UINT64_MAX >> shift))
            return -2;
        v <<= shift;
        c++;
    }
    if (*c)
        return -1;
    *out = v;
    return 0;
}

/* The value of key=VALUE among the statement's tokens, or NULL. */
static const pbs_token *pbs_key(pbs_parser *p, const char *key, const char **value)
{
    size_t n = strlen(key);
    for (uint32_t i = 1; i < p->ntok; i++) {
        const char *t = p->tok[i].text;
        if (strncmp(t, key, n) == 0 && t[n] == '=') {
            p->used |= 1u << i;
            *value = t + n + 1;
            return &p->tok[i];
        }
    }
    return NULL;
}

static int pbs_flag(pbs_parser *p, const char *word)
{
    for (uint32_t i = 1; i < p->ntok; i++)
        if (strcmp(p->tok[i].text, word) == 0) {
            p->used |= 1u << i;
            return 1;
        }
    return 0;
}

/* Reads key=NUMBER within [lo, hi]. Missing: *out = dflt, or an error if
 * the key is required. */
static int pbs_num_key(pbs_parser *p, const char *key, int required, uint64_t dflt, uint64_t lo,
                       uint64_t hi, uint64_t *out)
{
    const char *v;
    const pbs_token *t = pbs_key(p, key, &v);
    if (!t) {
        if (required)
            return pbs_fail(p, p->tok[0].col, "%s needs %s=", p->tok[0].text, key);
        *out = dflt;
        return 0;
    }
    int rc = pbs_number(v, out);
    uint32_t col = t->col + (uint32_t)strlen(key) + 1;
    if (rc == -1)
        return pbs_fail(p, col, "bad number '%s'", v);
    if (rc == -2 || *out < lo || *out > hi)
        return pbs_fail(p, col, "%s=%s is out of range [%" PRIu64 ", %" PRIu64 "]", key, v, lo, hi);
    return 0;
}

/* key=system | key=SEG:OFFSET (or key=none when allow_none). */
static int pbs_place_key(pbs_parser *p, const char *key, int allow_system, int allow_none,
                         uint32_t *where, pbc_place *at)
{
    const char *v;
    const pbs_token *t = pbs_key(p, key, &v);
    if (!t)
        return pbs_fail(p, p->tok[0].col, "%s needs %s=", p->tok[0].text, key);
    uint32_t col = t->col + (uint32_t)strlen(key) + 1;
    memset(at, 0, sizeof(*at));
    if (allow_system && strcmp(v, "system") == 0) {
        *where = PBC_WHERE_SYSTEM;
        return 0;
    }
    if (allow_none && strcmp(v, "none") == 0) {
        *where = PBC_WHERE_NONE;
        return 0;
    }
    const char *colon = strchr(v, ':');
    char seg[24];
    uint64_t sid, off;
    if (!colon || (size_t)(colon - v) >= sizeof(seg))
        return pbs_fail(p, col, "expected SEGMENT:OFFSET%s, got '%s'", allow_system ? " or system" : "", v);
    memcpy(seg, v, (size_t)(colon - v));
    seg[colon - v] = 0;
    if (pbs_number(seg, &sid) || pbs_number(colon + 1, &off))
        return pbs_fail(p, col, "bad number in '%s'", v);
    if (sid < 1 || sid > p->s->segment_count)
        return pbs_fail(p, col, "segment %" PRIu64 " is not defined", sid);
    *where = PBC_WHERE_SEGMENT;
    at->segment = (uint32_t)sid;
    at->offset = off;
    return 0;
}

static int pbs_alloc_ref(pbs_parser *p, uint32_t *out)
{
    if (p->ntok < 2 || strchr(p->tok[1].text, '='))
        return pbs_fail(p, p->tok[0].col, "%s needs an allocation name", p->tok[0].text);
    p->used |= 1u << 1;
    int i = pbc_scenario_find_alloc(p->s, p->tok[1].text);
    if (i < 0)
        return pbs_fail(p, p->tok[1].col, "allocation '%s' is not defined", p->tok[1].text);
    *out = (uint32_t)i;
    return 0;
}

static int pbs_valid_name(const char *n)
{
    if (!isalpha((unsigned char)n[0]) && n[0] != '_')
        return 0;
    size_t len = strlen(n);
    if (len >= PBC_NAME_MAX)
        return 0;
    for (size_t i = 1; i < len; i++)
        if (!isalnum((unsigned char)n[i]) && n[i] != '_' && n[i] != '-' && n[i] != '.')
            return 0;
    return 1;
}

static int pbs_segment(pbs_parser *p)
{
    pbc_scenario *s = p->s;
    if (s->alloc_count || s->op_count)
        return pbs_fail(p, p->tok[0].col, "segments must be declared before allocations and operations");
    if (s->segment_count >= PBC_ARRAY_LEN(s->segments))
        return pbs_fail(p, p->tok[0].col, "too many segments (limit 8)");
    uint64_t id;
    if (p->ntok < 3)
        return pbs_fail(p, p->tok[0].col, "expected: segment ID memory|aperture base=N size=N");
    p->used |= 3u << 1;
    if (pbs_number(p->tok[1].text, &id) || id != s->segment_count + 1)
        return pbs_fail(p, p->tok[1].col, "segment ids must be 1, 2, 3... in order");
    pbc_segment_info *g = &s->segments[s->segment_count];
    if (strcmp(p->tok[2].text, "memory") == 0)
        g->kind = PBC_SEGMENT_MEMORY;
    else if (strcmp(p->tok[2].text, "aperture") == 0)
        g->kind = PBC_SEGMENT_APERTURE;
    else
        return pbs_fail(p, p->tok[2].col, "segment kind must be memory or aperture");
    g->SegmentId = (UINT)id;
    if (pbs_num_key(p, "base", 1, 0, 0, (1ull << 48) - 1, &g->base) ||
        pbs_num_key(p, "size", 1, 0, 4096, 64ull << 30, &g->size))
        return -1;
    if ((g->base | g->size) % 4096)
        return pbs_fail(p, p->tok[0].col, "segment base and size must be multiples of 4 KiB");
    if (g->kind == PBC_SEGMENT_APERTURE && g->size > PBC_MAX_APERTURE_SIZE)
        return pbs_fail(p, p->tok[0].col, "aperture segments are limited to 4 GiB");
    s->segment_count++;
    /* The layout so far must be one the GPU model can build: found here,
     * at its line, rather than when a run cannot start. */
    const char *why = pbc_gpu_layout_check(s->segments, s->segment_count);
    if (why)
        return pbs_fail(p, p->tok[0].col, "%s", why);
    p->seen_segment = 1;
    return 0;
}

/* paging-buffers segment=K: VidMm places paging buffers in memory
 * segment K (S40), in the top PBC_PAGING_WINDOW bytes. */
static int pbs_paging(pbs_parser *p)
{
    pbc_scenario *s = p->s;
    if (s->alloc_count || s->op_count)
        return pbs_fail(p, p->tok[0].col, "paging-buffers must come before allocations and operations");
    uint64_t id;
    if (pbs_num_key(p, "segment", 1, 0, 1, s->segment_count, &id))
        return -1;
    const pbc_segment_info *g = &s->segments[id - 1];
    if (g->kind != PBC_SEGMENT_MEMORY || g->size <= PBC_PAGING_WINDOW)
        return pbs_fail(p, p->tok[0].col, "paging buffers need a memory segment larger than 8 MiB");
    s->paging_segment = (uint32_t)id;
    return 0;
}

static int pbs_alloc(pbs_parser *p)
{
    pbc_scenario *s = p->s;
    if (p->ntok < 2 || !pbs_valid_name(p->tok[1].text))
        return pbs_fail(p, p->ntok < 2 ? p->tok[0].col : p->tok[1].col,
                        "alloc needs a name: a letter, then letters, digits, _ - . (max 31)");
    p->used |= 1u << 1;
    if (pbc_scenario_find_alloc(s, p->tok[1].text) >= 0)
        return pbs_fail(p, p->tok[1].col, "allocation '%s' is already defined", p->tok[1].text);
    if (s->alloc_count >= PBC_MAX_ALLOCS)
        return pbs_fail(p, p->tok[0].col, "too many allocations (limit %u)", PBC_MAX_ALLOCS);
    pbc_salloc a = {0};
    snprintf(a.name, sizeof(a.name), "%s", p->tok[1].text);
    uint64_t v;
    if (pbs_num_key(p, "size", 1, 0, 4, PBC_MAX_ALLOC_SIZE, &a.size))
        return -1;
    if (a.size % 4)
        return pbs_fail(p, p->tok[0].col, "allocation sizes are multiples of 4 bytes");
    const char *at_value;
    if (pbs_key(p, "at", &at_value)) {
        if (pbs_place_key(p, "at", 1, 1, &a.where, &a.at))
            return -1;
    } else {
        a.where = PBC_WHERE_SYSTEM;
    }
    if (pbs_num_key(p, "mdl-offset", 0, 0, 0, PBC_MAX_MDL_OFFSET, &v))
        return -1;
    a.mdl_offset = (uint32_t)v;
    if (pbs_num_key(p, "seed", 0, s->alloc_count + 1, 0, UINT32_MAX, &v))
        return -1;
    a.seed = (uint32_t)v;
    const char *phys;
    const pbs_token *t = pbs_key(p, "phys", &phys);
    while (t && a.phys < PBC_PHYS_COUNT && strcmp(phys, pbc_phys_name(a.phys)) != 0)
        a.phys++;
    if (t && a.phys == PBC_PHYS_COUNT)
        return pbs_fail(p, t->col + 5, "phys must be scattered, runs, contiguous or straddle-4g");
    if (pbs_flag(p, "needs-idle"))
        a.flags |= PBC_ALLOC_NEEDS_IDLE;
    if (pbs_flag(p, "primary"))
        a.flags |= PBC_ALLOC_PRIMARY;
    if (pbs_flag(p, "cpu-visible"))
        a.flags |= PBC_ALLOC_CPU_VISIBLE;
    a.line = p->line;
    *pbc_scenario_add_alloc(s) = a;
    return 0;
}

static int pbs_op(pbs_parser *p, uint32_t kind)
{
    pbc_scenario *s = p->s;
    if (s->op_count >= PBC_MAX_OPS)
        return pbs_fail(p, p->tok[0].col, "too many operations (limit %u)", PBC_MAX_OPS);
    pbc_sop o = {.kind = kind, .split = 1, .line = p->line};
    uint64_t v;
    uint32_t where;
    const pbc_salloc *al = NULL;
    switch (kind) {
    case PBC_SOP_TRANSFER:
    case PBC_SOP_SPECIAL_LOCK:
    case PBC_SOP_FILL:
    case PBC_SOP_DISCARD:
    case PBC_SOP_MAP:
    case PBC_SOP_UNMAP:
    case PBC_SOP_RENDER_WRITE:
    case PBC_SOP_RENDER_READ:
    case PBC_SOP_DESTROY:
    case PBC_SOP_CREATE:
    case PBC_SOP_VA_MAP:
    case PBC_SOP_VA_UNMAP:
    case PBC_SOP_VA_MOVE_TABLES:
    case PBC_SOP_INIT_CONTEXT:
    case PBC_SOP_UPDATE_CONTEXT:
    case PBC_SOP_NOTIFY_RESIDENCY:
        if (pbs_alloc_ref(p, &o.alloc))
            return -1;
        al = &s->allocs[o.alloc];
        break;
    default:
        break;
    }
    switch (kind) {
    case PBC_SOP_TRANSFER:
        if (pbs_num_key(p, "split", 0, 1, 1, PBC_MAX_SPLIT, &v))
            return -1;
        o.split = (uint32_t)v;
        /* fall through */
    case PBC_SOP_SPECIAL_LOCK:
        if (pbs_place_key(p, "to", 1, 0, &where, &o.at))
            return -1;
        if (kind == PBC_SOP_TRANSFER && pbs_flag(p, "virtual"))
            o.flags |= PBC_SOP_VIRTUAL;
        break;
    case PBC_SOP_FILL:
        if (pbs_place_key(p, "to", 0, 0, &where, &o.at) ||
            pbs_num_key(p, "pattern", 1, 0, 0, UINT32_MAX, &v))
            return -1;
        o.pattern = (uint32_t)v;
        if (pbs_flag(p, "virtual"))
            o.flags |= PBC_SOP_VIRTUAL;
        break;
    case PBC_SOP_READ_PHYSICAL:
    case PBC_SOP_WRITE_PHYSICAL:
        if (pbs_place_key(p, "at", 0, 0, &where, &o.at))
            return -1;
        break;
    case PBC_SOP_MAP:
        if (pbs_place_key(p, "aperture", 0, 0, &where, &o.at) ||
            pbs_num_key(p, "first", 0, 0, 0, pbc_alloc_pages(al) - 1, &v))
            return -1;
        o.first = (uint32_t)v;
        if (pbs_num_key(p, "count", 0, pbc_alloc_pages(al) - o.first, 1,
                        pbc_alloc_pages(al) - o.first, &v))
            return -1;
        o.count = (uint32_t)v;
        if (pbs_flag(p, "coherent"))
            o.flags |= PBC_SOP_COHERENT;
        if (pbs_flag(p, "adl"))
            o.flags |= PBC_SOP_ADL;
        break;
    case PBC_SOP_RENDER_WRITE:
    case PBC_SOP_RENDER_READ:
        if (pbs_num_key(p, "offset", 0, 0, 0, al->size - 1, &o.offset) ||
            pbs_num_key(p, "size", 0, al->size - o.offset, 1, al->size - o.offset, &o.size))
            return -1;
        if (kind == PBC_SOP_RENDER_WRITE) {
            if (pbs_num_key(p, "pattern", 1, 0, 0, UINT32_MAX, &v))
                return -1;
            o.pattern = (uint32_t)v;
        }
        {
            const char *via;
            const pbs_token *t = pbs_key(p, "via", &via);
            if (t && strcmp(via, "aperture") != 0 && strcmp(via, "va") != 0)
                return pbs_fail(p, t->col + 4, "via must be 'aperture' or 'va'");
            if (t)
                o.flags |= strcmp(via, "va") == 0 ? PBC_SOP_VIA_VA : PBC_SOP_VIA_APERTURE;
        }
        break;
    case PBC_SOP_GPU_READ:
    case PBC_SOP_GPU_WRITE:
        if (pbs_place_key(p, "at", 0, 0, &where, &o.at) ||
            pbs_num_key(p, "size", 1, 0, 1, 1u << 20, &o.size))
            return -1;
        if (kind == PBC_SOP_GPU_WRITE) {
            if (pbs_num_key(p, "pattern", 1, 0, 0, UINT32_MAX, &v))
                return -1;
            o.pattern = (uint32_t)v;
        }
        break;
    case PBC_SOP_CREATE: {
        const char *at_value;
        where = PBC_WHERE_SYSTEM;
        if (pbs_key(p, "at", &at_value) && pbs_place_key(p, "at", 1, 1, &where, &o.at))
            return -1;
        if (where == PBC_WHERE_NONE)
            o.flags |= PBC_SOP_NO_CONTENT;
        if (pbs_num_key(p, "seed", 0, al->seed, 0, UINT32_MAX, &v))
            return -1;
        o.pattern = (uint32_t)v;
        break;
    }
    case PBC_SOP_VA_MAP:
    case PBC_SOP_VA_ZERO:
        if (pbs_num_key(p, "va", 0, 0, 0, UINT64_MAX, &o.va) || pbs_num_key(p, "min", 0, 0, 0, UINT64_MAX, &o.va_min) ||
            pbs_num_key(p, "max", 0, 0, 0, UINT64_MAX, &o.va_max) ||
            pbs_num_key(p, "driver-protection", 0, 0, 0, UINT64_MAX, &o.driver_protection))
            return -1;
        if (pbs_num_key(p, "space", 0, 0, 0, PBC_MAX_SPACES - 1, &v))
            return -1;
        o.space = (uint32_t)v;
        if (kind == PBC_SOP_VA_MAP) {
            if (pbs_num_key(p, "first", 0, 0, 0, pbc_alloc_pages(al) - 1, &v))
                return -1;
            o.first = (uint32_t)v;
            if (pbs_num_key(p, "count", 0, pbc_alloc_pages(al) - o.first, 0, UINT32_MAX, &v))
                return -1;
            o.count = (uint32_t)v;
            if (pbs_flag(p, "read-only"))
                o.flags |= PBC_SOP_VA_READ_ONLY;
        } else {
            if (pbs_num_key(p, "count", 1, 0, 0, UINT32_MAX, &v))
                return -1;
            o.count = (uint32_t)v;
        }
        if (pbs_flag(p, "no-access")) /* an allocation's range with it is refused (S51) */
            o.flags |= PBC_SOP_VA_NO_ACCESS;
        if (pbs_flag(p, "64k"))
            o.flags |= PBC_SOP_VA_64K;
        if (pbs_flag(p, "reserved"))
            o.flags |= PBC_SOP_VA_RESERVED;
        break;
    case PBC_SOP_VA_MOVE_TABLES: {
        /* Without `used`, the whole-leaf copy va-move-tables always was. */
        const char *unused;
        int used = pbs_flag(p, "used");
        const pbs_token *pieces = pbs_key(p, "pieces", &unused), *stage = pbs_key(p, "stage", &unused);
        if (!used && (pieces || stage))
            return pbs_fail(p, (pieces ? pieces : stage)->col, "pieces= and stage= need 'used'");
        if (!used)
            break;
        o.flags |= PBC_SOP_COPY_USED;
        if (pbs_num_key(p, "pieces", 0, 1, 1, PBC_MAX_COPY_PIECES, &v))
            return -1;
        o.count = (uint32_t)v;
        if (stage) {
            if (pbs_num_key(p, "stage", 0, 0, 0, PBC_PT_ENTRIES - 1, &v))
                return -1;
            o.flags |= PBC_SOP_COPY_STAGED;
            o.first = (uint32_t)v;
        }
        break;
    }
    case PBC_SOP_NOTIFY: {
        if (p->ntok < 2)
            return pbs_fail(p, p->tok[0].col, "notify needs what: fence-residency, map-mmu, unmap-mmu, residency2 or alloc");
        uint32_t k = 0;
        while (k < PBC_NOTIFY_COUNT && strcmp(p->tok[1].text, pbc_notify_name(k)) != 0)
            k++;
        if (k == PBC_NOTIFY_COUNT)
            return pbs_fail(p, p->tok[1].col, "notify needs what: fence-residency, map-mmu, unmap-mmu, residency2 or alloc");
        p->used |= 1u << 1;
        o.pattern = k;
        break;
    }
    case PBC_SOP_DMA:
        if (pbs_flag(p, "size=min")) {
            o.dma_size = 0;
        } else {
            if (pbs_num_key(p, "size", 1, 0, 4, PBC_MAX_DMA_SIZE, &v))
                return -1;
            o.dma_size = (uint32_t)v;
        }
        break;
    default:
        break;
    }
    *pbc_scenario_add_op(s) = o;
    return 0;
}


static int pbs_statement(pbs_parser *p)
{
    const char *kw = p->tok[0].text;
    if (p->seen_end)
        return pbs_fail(p, p->tok[0].col, "text after 'end'");
    if (!p->seen_header) {
        if (strcmp(kw, "pbs") != 0)
            return pbs_fail(p, p->tok[0].col, "a scenario starts with 'pbs 1'");
        uint64_t v;
        if (p->ntok != 2 || pbs_number(p->tok[1].text, &v) || v != PBC_SCENARIO_VERSION)
            return pbs_fail(p, p->ntok > 1 ? p->tok[1].col : p->tok[0].col,
                            "unsupported format version (this pbcheck reads 'pbs 1')");
        p->seen_header = 1;
        return 0;
    }
    p->used = 1;
    int rc;
    if (strcmp(kw, "end") == 0) {
        p->seen_end = 1;
        rc = 0;
    } else if (strcmp(kw, "segment") == 0) {
        rc = pbs_segment(p);
    } else {
        if (!p->seen_segment && p->s->segment_count == 0)
            pbc_scenario_default_layout(p->s);
        if (strcmp(kw, "alloc") == 0) {
            rc = pbs_alloc(p);
        } else if (strcmp(kw, "paging-buffers") == 0) {
            rc = pbs_paging(p);
        } else {
            uint32_t k = 0;
            while (k < PBC_SOP_COUNT && strcmp(kw, pbc_sop_name(k)) != 0)
                k++;
            if (k == PBC_SOP_COUNT)
                return pbs_fail(p, p->tok[0].col, "unknown keyword '%s'", kw);
            rc = pbs_op(p, k);
        }
    }
    if (rc)
        return rc;
    for (uint32_t i = 1; i < p->ntok; i++)
        if (!(p->used & (1u << i)))
            return pbs_fail(p, p->tok[i].col, "unexpected '%s' for %s", p->tok[i].text, kw);
    return 0;
}

/* Splits one line (already checked for bad bytes) into tokens. */
static int pbs_tokenize(pbs_parser *p, char *line)
{
    p->ntok = 0;
    char *c = line;
    for (;;) {
        while (*c == ' ' || *c == '\t' || *c == '\r')
            c++;
        if (!*c || *c == '#')
            return 0;
        if (p->ntok == PBS_MAX_TOKENS)
            return pbs_fail(p, (uint32_t)(c - line) + 1, "too many words on one line");
        p->tok[p->ntok].text = c;
        p->tok[p->ntok].col = (uint32_t)(c - line) + 1;
        p->ntok++;
        while (*c && *c != ' ' && *c != '\t' && *c != '\r' && *c != '#')
            c++;
        if (*c == '#') {
            *c = 0;
            return 0;
        }
        if (*c)
            *c++ = 0;
    }
}

int pbc_scenario_parse(const char *text, size_t len, const char *name, pbc_scenario *s,
                       char *err, size_t err_size)
{
    pbs_parser p = {.name = name, .err = err, .err_size = err_size, .s = s};
    char line[PBS_MAX_LINE + 1];
    pbc_scenario_init(s);
    size_t at = 0;
    int rc = 0;
    while (at < len && rc == 0) {
        p.line++;
        size_t n = 0;
        while (at + n < len && text[at + n] != '\n')
            n++;
        for (size_t i = 0; i < n && rc == 0; i++) {
            unsigned char c = (unsigned char)text[at + i];
            if ((c < 0x20 && c != '\t' && c != '\r') || c >= 0x7F)
                rc = pbs_fail(&p, (uint32_t)i + 1,
                              "unexpected byte 0x%02x (only printable ASCII, tab and CR are allowed)", c);
        }
        if (rc == 0 && n > PBS_MAX_LINE)
            rc = pbs_fail(&p, PBS_MAX_LINE + 1, "line longer than %u bytes", PBS_MAX_LINE);
        if (rc == 0) {
            memcpy(line, text + at, n);
            line[n] = 0;
            rc = pbs_tokenize(&p, line);
            if (rc == 0 && p.ntok)
                rc = pbs_statement(&p);
        }
        at += n + 1;
    }
    if (rc == 0 && !p.seen_header) {
        p.line = p.line ? p.line : 1;
        rc = pbs_fail(&p, 1, "empty scenario: expected 'pbs 1'");
    } else if (rc == 0 && !p.seen_end) {
        rc = pbs_fail(&p, 1, "truncated scenario: no 'end' line");
    }
    if (rc == 0 && s->segment_count == 0)
        pbc_scenario_default_layout(s);
    if (rc == 0) {
        char why[200];
        if (pbc_scenario_validate(s, why, sizeof(why))) {
            uint32_t bad = 0;
            if (sscanf(why, "operation %u", &bad) == 1 && bad >= 1 && bad <= s->op_count)
                p.line = s->ops[bad - 1].line;
            else
                p.line = s->alloc_count ? s->allocs[0].line : 1;
            rc = pbs_fail(&p, 1, "%s", why);
        }
    }
    if (rc == 0) {
        char why[300];
        uint32_t where;
        if (pbc_scenario_check_limits(s, why, sizeof(why), &where)) {
            p.line = where ? where : 1;
            rc = pbs_fail(&p, 1, "%s", why);
        }
    }
    if (rc)
        pbc_scenario_fini(s);
    return rc;
}

/* Skips white space and '#' comment lines; returns where a statement starts. */
static size_t skip_blank_and_comments(const uint8_t *d, size_t n)
{
    size_t i = 0;
    while (i < n) {
        if (d[i] == ' ' || d[i] == '\t' || d[i] == '\r' || d[i] == '\n') {
            i++;
        } else if (d[i] == '#') {
            while (i < n && d[i] != '\n')
                i++;
        } else {
            break;
        }
    }
    return i;
}

static int name_ends_with(const char *name, const char *suffix)
{
    size_t n = strlen(name), k = strlen(suffix);
    return n > k && strcmp(name + n - k, suffix) == 0;
}

int pbc_scenario_is_text(const char *name, const uint8_t *data, size_t n)
{
    if (name && name_ends_with(name, ".pbs"))
        return 1;
    if (name && name_ends_with(name, ".bin"))
        return 0;
    size_t i = skip_blank_and_comments(data, n);
    return n - i >= 4 && memcmp(data + i, "pbs", 3) == 0 &&
           (data[i + 3] == ' ' || data[i + 3] == '\t');
}

int pbc_scenario_load(const char *path, pbc_scenario *s, char *err, size_t err_size)
{
    const char *why;
    FILE *f = pbc_fs_open_file(path, &why);
    if (!f) {
        snprintf(err, err_size, "%s: cannot open: %s", path, why);
        return -1;
    }
    char *buf = pbc_xmalloc(PBS_MAX_FILE + 1);
    size_t n = fread(buf, 1, PBS_MAX_FILE + 1, f);
    int bad_read = ferror(f);
    fclose(f);
    int rc;
    if (bad_read) {
        snprintf(err, err_size, "%s: read error", path);
        rc = -1;
    } else if (n > PBS_MAX_FILE) {
        snprintf(err, err_size, "%s:1:1: file larger than %u bytes", path, PBS_MAX_FILE);
        rc = -1;
    } else {
        rc = pbc_scenario_parse(buf, n, path, s, err, err_size);
    }
    free(buf);
    return rc;
}

/* ---- Printer ---- */

typedef struct pbs_out {
    char *buf;
    size_t len, cap;
} pbs_out;

static void out_printf(pbs_out *o, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
        va_end(ap);
        if ((size_t)n < o->cap - o->len) {
            o->len += (size_t)n;
            return;
        }
        o->cap = o->cap * 2 + (size_t)n + 64;
        o->buf = pbc_xrealloc(o->buf, o->cap);
    }
}

static const char *fmt_size(char *b, size_t n, uint64_t v)
{
    if (v && v % (1ull << 30) == 0)
        snprintf(b, n, "%" PRIu64 "G", v >> 30);
    else if (v && v % (1ull << 20) == 0)
        snprintf(b, n, "%" PRIu64 "M", v >> 20);
    else if (v && v % 1024 == 0)
        snprintf(b, n, "%" PRIu64 "K", v >> 10);
    else
        snprintf(b, n, "%" PRIu64, v);
    return b;
}

static void out_place(pbs_out *o, const char *key, pbc_place at)
{
    if (at.segment == 0)
        out_printf(o, " %s=system", key);
    else
        out_printf(o, " %s=%u:0x%" PRIx64, key, at.segment, at.offset);
}

char *pbc_scenario_print(const pbc_scenario *s)
{
    pbs_out o = {pbc_xmalloc(256), 0, 256};
    char a[32], b[32];
    out_printf(&o, "pbs %u\n", PBC_SCENARIO_VERSION);
    for (uint32_t i = 0; i < s->segment_count; i++) {
        const pbc_segment_info *g = &s->segments[i];
        out_printf(&o, "segment %u %s base=0x%" PRIx64 " size=%s\n", g->SegmentId,
                   g->kind == PBC_SEGMENT_APERTURE ? "aperture" : "memory", g->base,
                   fmt_size(a, sizeof(a), g->size));
    }
    if (s->paging_segment)
        out_printf(&o, "paging-buffers segment=%u\n", s->paging_segment);
    for (uint32_t i = 0; i < s->alloc_count; i++) {
        const pbc_salloc *al = &s->allocs[i];
        out_printf(&o, "alloc %s size=%s", al->name, fmt_size(a, sizeof(a), al->size));
        if (al->where == PBC_WHERE_NONE)
            out_printf(&o, " at=none");
        else
            out_place(&o, "at", al->where == PBC_WHERE_SYSTEM ? (pbc_place){0, 0} : al->at);
        out_printf(&o, " mdl-offset=%u seed=%u", al->mdl_offset, al->seed);
        if (al->phys != PBC_PHYS_SCATTERED) /* the default: scenarios from before it print as they did */
            out_printf(&o, " phys=%s", pbc_phys_name(al->phys));
        out_printf(&o, "%s%s%s\n", (al->flags & PBC_ALLOC_NEEDS_IDLE) ? " needs-idle" : "",
                   (al->flags & PBC_ALLOC_PRIMARY) ? " primary" : "",
                   (al->flags & PBC_ALLOC_CPU_VISIBLE) ? " cpu-visible" : "");
    }
    for (uint32_t i = 0; i < s->op_count; i++) {
        const pbc_sop *op = &s->ops[i];
        const char *name = op->alloc < s->alloc_count ? s->allocs[op->alloc].name : "?";
        out_printf(&o, "%s", pbc_sop_name(op->kind));
        switch (op->kind) {
        case PBC_SOP_TRANSFER:
            out_printf(&o, " %s", name);
            out_place(&o, "to", op->at);
            out_printf(&o, " split=%u%s", op->split, (op->flags & PBC_SOP_VIRTUAL) ? " virtual" : "");
            break;
        case PBC_SOP_SPECIAL_LOCK:
            out_printf(&o, " %s", name);
            out_place(&o, "to", op->at);
            break;
        case PBC_SOP_FILL:
            out_printf(&o, " %s", name);
            out_place(&o, "to", op->at);
            out_printf(&o, " pattern=0x%08x%s", op->pattern, (op->flags & PBC_SOP_VIRTUAL) ? " virtual" : "");
            break;
        case PBC_SOP_DISCARD:
        case PBC_SOP_UNMAP:
        case PBC_SOP_DESTROY:
        case PBC_SOP_VA_UNMAP:
        case PBC_SOP_INIT_CONTEXT:
        case PBC_SOP_UPDATE_CONTEXT:
        case PBC_SOP_NOTIFY_RESIDENCY:
            out_printf(&o, " %s", name);
            break;
        case PBC_SOP_VA_MOVE_TABLES:
            out_printf(&o, " %s", name);
            if (op->flags & PBC_SOP_COPY_USED)
                out_printf(&o, " used pieces=%u", op->count);
            if (op->flags & PBC_SOP_COPY_STAGED)
                out_printf(&o, " stage=%u", op->first);
            break;
        case PBC_SOP_VA_MAP:
        case PBC_SOP_VA_ZERO:
            if (op->kind == PBC_SOP_VA_MAP)
                out_printf(&o, " %s first=%u", name, op->first);
            out_printf(&o, " count=%u", op->count);
            if (op->va)
                out_printf(&o, " va=0x%" PRIx64, op->va);
            if (op->va_min)
                out_printf(&o, " min=0x%" PRIx64, op->va_min);
            if (op->va_max)
                out_printf(&o, " max=0x%" PRIx64, op->va_max);
            if (op->driver_protection)
                out_printf(&o, " driver-protection=0x%" PRIx64, op->driver_protection);
            if (op->space)
                out_printf(&o, " space=%u", op->space);
            out_printf(&o, "%s%s%s%s", (op->flags & PBC_SOP_VA_READ_ONLY) ? " read-only" : "",
                       (op->flags & PBC_SOP_VA_NO_ACCESS) ? " no-access" : "",
                       (op->flags & PBC_SOP_VA_64K) ? " 64k" : "", (op->flags & PBC_SOP_VA_RESERVED) ? " reserved" : "");
            break;
        case PBC_SOP_CREATE:
            out_printf(&o, " %s", name);
            if (op->flags & PBC_SOP_NO_CONTENT)
                out_printf(&o, " at=none");
            else
                out_place(&o, "at", op->at);
            out_printf(&o, " seed=%u", op->pattern);
            break;
        case PBC_SOP_READ_PHYSICAL:
        case PBC_SOP_WRITE_PHYSICAL:
            out_place(&o, "at", op->at);
            break;
        case PBC_SOP_MAP:
            out_printf(&o, " %s aperture=%u:%" PRIu64 " first=%u count=%u%s%s", name, op->at.segment,
                       op->at.offset, op->first, op->count,
                       (op->flags & PBC_SOP_COHERENT) ? " coherent" : "", (op->flags & PBC_SOP_ADL) ? " adl" : "");
            break;
        case PBC_SOP_RENDER_WRITE:
        case PBC_SOP_RENDER_READ:
            out_printf(&o, " %s offset=0x%" PRIx64 " size=%s", name, op->offset,
                       fmt_size(b, sizeof(b), op->size));
            if (op->kind == PBC_SOP_RENDER_WRITE)
                out_printf(&o, " pattern=0x%08x", op->pattern);
            if (op->flags & PBC_SOP_VIA_APERTURE)
                out_printf(&o, " via=aperture");
            if (op->flags & PBC_SOP_VIA_VA)
                out_printf(&o, " via=va");
            break;
        case PBC_SOP_GPU_READ:
        case PBC_SOP_GPU_WRITE:
            out_place(&o, "at", op->at);
            out_printf(&o, " size=%s", fmt_size(b, sizeof(b), op->size));
            if (op->kind == PBC_SOP_GPU_WRITE)
                out_printf(&o, " pattern=0x%08x", op->pattern);
            break;
        case PBC_SOP_NOTIFY:
            out_printf(&o, " %s", pbc_notify_name(op->pattern));
            break;
        case PBC_SOP_DMA:
            if (op->dma_size)
                out_printf(&o, " size=%s", fmt_size(b, sizeof(b), op->dma_size));
            else
                out_printf(&o, " size=min");
            break;
        default:
            break;
        }
        out_printf(&o, "\n");
    }
    out_printf(&o, "end\n");
    return o.buf;
}
