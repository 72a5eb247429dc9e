/*
 * The last writer of a divergence's first wrong byte (attribute.h). The
 * case runs once to find the byte (the diff's physical address in the
 * target's world) and who wrote its page last; when that was the
 * builder's CPU, it runs again with the shim's store watch on the page
 * (kernel/shim.h: every store into it faults, is single-stepped, and
 * counts when it changed the watched bytes), and the last such store is
 * named from its frames: the first that is the builder's own code, not
 * the C library's memcpy nor a sanitizer's interceptor, symbolized by
 * libdw (exec/symbolize.h) in this process. Runs are deterministic for
 * one scenario, so the second run's byte is the first's.
 */
#define _GNU_SOURCE
#include "exec/attribute.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"

/* Sees each of the target's BuildPagingBuffer calls before it runs: the
 * watch copies the call's operation and MultipassOffset into the stores
 * it makes. */
static void attr_observe(void *ctx, const DXGKARG_BUILDPAGINGBUFFER *a, const pbc_vidmm_facts *f)
{
    pbc_shim_attrib *w = ctx;
    (void)f;
    w->cur_mpo = a->MultipassOffset;
    w->cur_operation = (uint32_t)a->Operation;
}

static int has_prefix(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

/* Whether the module (a path) is a runtime the builder calls rather than
 * the builder: the C library, the loader, the unwinder, a sanitizer's. */
static int runtime_module(const char *path)
{
    static const char *const runtimes[] = {"libc.so", "libc-", "ld-linux", "libasan", "libubsan",
                                           "libclang_rt", "libgcc", "libm.so", "libpthread"};
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (size_t i = 0; i < PBC_ARRAY_LEN(runtimes); i++)
        if (has_prefix(base, runtimes[i]))
            return 1;
    return 0;
}

/* Whether symbolized code is pbcheck's own (its harness, or a sanitizer
 * runtime linked into it), not a builder's. */
static int harness_code(const pbc_sym *sym)
{
    static const char *const own[] = {"/harness/", "compiler-rt", "sanitizer_common", "/asan/", "/ubsan/"};
    static const char *const own_fn[] = {"__asan", "__interceptor", "__sanitizer", "__ubsan", "pbc_",
                                         "___interceptor", "__libc", "__memcpy", "__memmove", "__memset"};
    for (size_t i = 0; i < PBC_ARRAY_LEN(own); i++)
        if (strstr(sym->where, own[i]))
            return 1;
    for (size_t i = 0; i < PBC_ARRAY_LEN(own_fn); i++)
        if (has_prefix(sym->function, own_fn[i]))
            return 1;
    return 0;
}

/* The builder's frame of a store: the first frame in the builder's own
 * code (a library's, or a built-in target's in pbcheck), symbolized. 0
 * when one is found. */
static int builder_frame(const pbc_shim_store *st, pbc_sym *out)
{
    for (uint32_t k = 0; k < st->nframes; k++) {
        /* a return address names the call, one byte before it */
        const char *pc = (const char *)st->frames[k] - (k ? 1 : 0);
        Dl_info info;
        if (!dladdr(pc, &info) || !info.dli_fname || runtime_module(info.dli_fname))
            continue;
        pbc_sym sym;
        if (pbc_sym_address(pc, &sym) || harness_code(&sym))
            continue;
        *out = sym;
        return 0;
    }
    return -1;
}

/* "during call 4 (Transfer, MultipassOffset 169)", or the CPU work's. */
static void describe_call(const pbc_attribution *a, char *buf, size_t size)
{
    if (!a->call)
        snprintf(buf, size, "in CPU work queued at SubmitCommand");
    else if (a->operation[0])
        snprintf(buf, size, "during BuildPagingBuffer call %u (%s, MultipassOffset %u)", a->call, a->operation,
                 a->mpo);
    else
        snprintf(buf, size, "during BuildPagingBuffer call %u", a->call);
}

static void store_where(pbc_attribution *a);

static void from_store(pbc_attribution *a, const pbc_shim_store *st)
{
    store_where(a);
    a->call = st->call;
    a->op = st->op;
    a->mpo = st->mpo;
    const char *name = st->call ? pbc_ddi_operation_name(st->operation) : NULL;
    snprintf(a->operation, sizeof(a->operation), "%s", name ? name : "");
}

/* Who wrote page `addr` lies in last in the target's world. */
static pbc_prov page_prov(const pbc_gpu *gpu, uint64_t addr)
{
    pbc_prov p;
    memset(&p, 0, sizeof(p));
    const pbc_page *pg = pbc_mem_find(&gpu->mem, addr >> PBC_PAGE_SHIFT);
    if (pg)
        return pg->prov;
    pbc_desc d;
    pbc_mem_base_at(&gpu->mem, addr >> PBC_PAGE_SHIFT, &d, &p);
    return p;
}

enum { FIELD_DST, FIELD_SRC, FIELD_SIZE, FIELD_VALUE };

static uint64_t field_of(const pbc_uop *u, int field)
{
    return field == FIELD_DST ? u->dst : field == FIELD_SRC ? u->src : field == FIELD_SIZE ? u->size : u->value;
}

/* The bytes of a packet that say one field of its micro-op, found the
 * same way for any ISA: each byte inverted in turn, the packet decoded
 * again, and the bytes that change the field kept ([*from, *to)). 0
 * when some byte does. */
static int field_bytes(const pbc_isa *isa, const uint8_t *packet, uint32_t len, int field, uint32_t *from,
                       uint32_t *to)
{
    uint8_t copy[256];
    pbc_uop base, u;
    size_t n;
    const char *why;
    if (len > sizeof(copy))
        len = sizeof(copy);
    memcpy(copy, packet, len);
    if (isa->decode(copy, len, &base, &n, &why) != PBC_DECODE_OK)
        return -1;
    *from = UINT32_MAX;
    *to = 0;
    for (uint32_t k = 0; k < len; k++) {
        copy[k] ^= 0xff;
        memset(&u, 0, sizeof(u));
        if (isa->decode(copy, len, &u, &n, &why) == PBC_DECODE_OK && u.kind == base.kind &&
            field_of(&u, field) != field_of(&base, field)) {
            *from = k < *from ? k : *from;
            *to = k + 1;
        }
        copy[k] ^= 0xff;
    }
    return *from == UINT32_MAX ? -1 : 0;
}

static const char *const field_names[] = {"destination", "source", "size", "value"};

/* The replay with the watch armed; the watch's counts and stores filled. */
static void watched_run(pbc_runner *r, const pbc_scenario *s, const pbc_target *t, pbc_shim_attrib *w,
                        pbc_outcome *again)
{
    pbc_run_options o = {0};
    o.observe = attr_observe;
    o.observe_ctx = w;
    w->gpu = r->target.gpu;
    pbc_shim_attrib_arm(w);
    pbc_runner_run(r, s, t, &o, again);
    pbc_shim_attrib_arm(NULL);
}

uint32_t pbc_attribute(pbc_runner *r, const pbc_scenario *s, const pbc_target *t, pbc_attribution *out)
{
    memset(out, 0, sizeof(*out));
    pbc_outcome first;
    pbc_run_options o = {0};
    if (pbc_runner_run(r, s, t, &o, &first) != PBC_VERDICT_FAIL || !first.shape.addr_known)
        return out->kind;
    const pbc_gpu *gpu = r->target.gpu;
    uint64_t at = first.shape.addr;
    pbc_prov p = first.shape.prov;
    char chain[600] = "";
    size_t used = 0;
    pbc_shim_attrib w;
    memset(&w, 0, sizeof(w));
    char packet[200] = "";
    uint32_t packet_call = 0;
    /* A copy packet from a source that is itself wrong (it differs from
     * the reference's at the end too) did not make the byte wrong: its
     * source did, which is followed in turn (a few copies deep). A copy
     * from a source that is right copied from the wrong place. */
    for (int hop = 0; hop < 4 && p.writer == PBC_WRITER_PAGING; hop++) {
        pbc_uop u;
        uint32_t pool_at, len;
        if (pbc_record_packet(&r->target.res, gpu, p.submission, p.packet_offset, &u, &pool_at, &len))
            return out->kind;
        const pbc_write_rec *wr = pbc_record_find_write(&r->target.res, gpu, p.submission, p.packet_offset);
        snprintf(packet, sizeof(packet), "packet %u of paging buffer %u (%s at +0x%x)", p.packet_index,
                 wr ? wr->buffer : 0, pbc_gpu_uop_name(u.kind), p.packet_offset);
        packet_call = wr ? wr->call : 0;
        int physical = !(u.flags & (PBC_UOP_DST_VIRTUAL | PBC_UOP_SRC_VIRTUAL));
        int inside = at >= u.dst && at - u.dst < u.size;
        if (u.kind == PBC_UOP_COPY && physical && inside) {
            uint64_t from = u.src + (at - u.dst);
            uint8_t x, y, want;
            pbc_mem_read(&gpu->mem, at, &x, 1);
            pbc_mem_read(&gpu->mem, from, &y, 1);
            pbc_mem_read(&r->reference.gpu->mem, from, &want, 1);
            if (x == y && y != want) {
                used += (size_t)snprintf(chain + used, sizeof(chain) - used, "copied by %s from 0x%" PRIx64 ", ",
                                         packet, from);
                if (used >= sizeof(chain))
                    used = sizeof(chain) - 1;
                at = from;
                p = page_prov(gpu, from);
                packet[0] = 0;
                continue;
            }
        }
        /* The packet made the byte wrong: the field that decides it (the
         * source or the value it wrote; the size or the destination when
         * the byte lies past its end or before its start, on the page it
         * wrote) is watched in the paging buffer while the builder writes
         * it. */
        int field = !physical || !inside ? (at >= u.dst ? FIELD_SIZE : FIELD_DST)
                    : u.kind == PBC_UOP_COPY ? FIELD_SRC
                                             : FIELD_VALUE;
        uint32_t f0, f1;
        const uint8_t *bytes = gpu->dma_pool + pool_at;
        if (field_bytes(gpu->isa, bytes, len, field, &f0, &f1)) {
            f0 = 0;
            f1 = len;
        }
        uint32_t start = pool_at + f0, end = pool_at + f1;
        if ((start >> PBC_PAGE_SHIFT) != ((end - 1) >> PBC_PAGE_SHIFT))
            end = (start | (PBC_PAGE_SIZE - 1)) + 1; /* the field's bytes on its first page */
        w.host = gpu->dma_pool + (start & ~(uint32_t)(PBC_PAGE_SIZE - 1));
        w.off = start & (PBC_PAGE_SIZE - 1);
        w.len = end - start;
        w.only_call = packet_call; /* the pool is written again by later calls */
        used += (size_t)snprintf(chain + used, sizeof(chain) - used, "written by %s, whose %s ", packet,
                                 field_names[field]);
        break;
    }
    if (used >= sizeof(chain))
        used = sizeof(chain) - 1;
    if (!w.host) {
        /* The builder's CPU wrote the page last, or nothing did as far
         * as the model knows (a store of the bytes the page already held
         * leaves it as it was): its stores are watched. */
        if (p.writer != PBC_WRITER_CPU && p.writer != PBC_WRITER_NONE && p.writer != PBC_WRITER_INIT)
            return out->kind;
        w.ppn = at >> PBC_PAGE_SHIFT;
        w.off = (uint32_t)(at & (PBC_PAGE_SIZE - 1));
        w.len = 1; /* the wrong byte: a store next to it is not its writer */
    }
    pbc_outcome again;
    watched_run(r, s, t, &w, &again);
    out->stores = w.stores;
    if (!again.shape.addr_known || again.shape.addr != first.shape.addr)
        return out->kind; /* not the same failure twice: nothing to say */
    char during[160];
    if (w.changes && builder_frame(&w.last_change, &out->sym) == 0) {
        out->kind = PBC_ATTR_STORE;
        from_store(out, &w.last_change);
        describe_call(out, during, sizeof(during));
        snprintf(out->text, sizeof(out->text), "%s%s %s at %s%s %s", chain,
                 w.host ? "was stored by" : "written by", out->sym.function, out->sym.where, out->sym.inlined,
                 during);
    } else if (!w.host && w.stores && builder_frame(&w.last_store, &out->sym) == 0) {
        out->kind = PBC_ATTR_NEAREST;
        from_store(out, &w.last_store);
        describe_call(out, during, sizeof(during));
        snprintf(out->text, sizeof(out->text),
                 "%snever written by the builder; its last store into the page was %s at %s%s %s", chain,
                 out->sym.function, out->sym.where, out->sym.inlined, during);
    }
    return out->kind;
}

static int header_file(const char *where, size_t len)
{
    static const char *const ext[] = {".h:", ".hh:", ".hpp:", ".hxx:", ".inl:"};
    for (size_t i = 0; i < PBC_ARRAY_LEN(ext); i++) {
        const char *e = strstr(where, ext[i]);
        if (e && (size_t)(e - where) < len)
            return 1;
    }
    return 0;
}

const char *pbc_attribution_where(const pbc_attribution *a)
{
    return a->kind == PBC_ATTR_STORE || a->kind == PBC_ATTR_NEAREST ? a->where : "";
}

/* The store's line, or where a helper in a header that made it (a
 * write-register macro's function) was inlined: the first line of the
 * chain in a source file. */
static void store_where(pbc_attribution *a)
{
    snprintf(a->where, sizeof(a->where), "%s", a->sym.where);
    if (!header_file(a->sym.where, strlen(a->sym.where)))
        return;
    for (const char *at = strstr(a->sym.inlined, " at "); at; at = strstr(at + 4, " at ")) {
        const char *site = at + 4, *end = strstr(site, ", inlined into ");
        size_t len = end ? (size_t)(end - site) : strlen(site);
        if (!header_file(site, len)) {
            snprintf(a->where, sizeof(a->where), "%.*s", (int)len, site);
            return;
        }
    }
}
