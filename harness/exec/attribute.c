/*
 * Who wrote a failing case's first wrong byte (attribute.h, docs/triage.md
 * "Who wrote it"). The case runs once to find the byte (the diff's
 * physical address in the target's world, or a GPU fault's packet), then
 * again with the GPU model's byte watch on it (the micro-op or CPU
 * write-back that wrote it last) and the shim's store watch on its page
 * in the CPU views (kernel/shim.h: every store into it faults and is
 * single-stepped). A copy packet that carried wrong content is followed
 * to its source; a packet that made the byte wrong has the field that
 * decides it watched in its paging buffer, in one more run, while the
 * builder writes it. The last store is named from its frames: the first
 * that is the builder's own code, not the C library's memcpy nor a
 * sanitizer's interceptor, symbolized by libdw (exec/symbolize.h) in this
 * process. With the builder in a driver process (harness/ddi/) its stores
 * are watched there, and come back as offsets in its libraries, named here
 * from the library files. Runs are deterministic for one scenario, so
 * each run's byte is the first's (checked: a run that fails otherwise ends
 * the search).
 */
#define _GNU_SOURCE
#include "exec/attribute.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "ddi/link.h"
#include "exec/target.h"

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
 * runtime linked into it: its memcpy interceptor, its internal_memmove,
 * whose names may be mangled), not a builder's. Code in pbcheck's own
 * executable without a source line is never a builder's: the built-in
 * builders are compiled with debug information, the sanitizer runtimes
 * are not. */
static int harness_code(const pbc_sym *sym, int in_pbcheck)
{
    static const char *const own[] = {"/harness/", "compiler-rt", "sanitizer_common", "/asan/", "/ubsan/"};
    static const char *const own_fn[] = {"__asan", "__interceptor", "__sanitizer", "__ubsan", "__libc",
                                         "__memcpy", "__memmove", "__memset"};
    if (in_pbcheck && !sym->where[0])
        return 1;
    for (size_t i = 0; i < PBC_ARRAY_LEN(own); i++)
        if (strstr(sym->where, own[i]))
            return 1;
    for (size_t i = 0; i < PBC_ARRAY_LEN(own_fn); i++)
        if (strstr(sym->function, own_fn[i]))
            return 1;
    return has_prefix(sym->function, "pbc_");
}

/* The builder's frame of a store: the first frame in the builder's own
 * code (a library's, or a built-in target's in pbcheck), symbolized. 0
 * when one is found. */
static int builder_frame(const pbc_shim_store *st, pbc_sym *out)
{
    /* A driver process's store: its frames in the builder's libraries,
     * named from the library files (exec/symbolize.h), never from what
     * that process says they are. */
    for (uint32_t k = 0; st->remote && k < st->nframes; k++) {
        const char *module = pbc_exec_library_path(st->lib[k]);
        pbc_sym sym;
        if (!module || pbc_sym_module(module, st->frames[k], 0, &sym) || harness_code(&sym, 0))
            continue;
        *out = sym;
        return 0;
    }
    for (uint32_t k = 0; !st->remote && k < st->nframes; k++) {
        /* a return address names the call, one byte before it */
        const char *pc = (const char *)st->frames[k] - (k ? 1 : 0);
        Dl_info info, self;
        if (!dladdr(pc, &info) || !info.dli_fname || runtime_module(info.dli_fname))
            continue;
        int in_pbcheck = dladdr((const void *)builder_frame, &self) && self.dli_fbase == info.dli_fbase;
        pbc_sym sym;
        if (pbc_sym_address(pc, &sym) || harness_code(&sym, in_pbcheck))
            continue;
        *out = sym;
        return 0;
    }
    return -1;
}

/* "during call 4 (Transfer, MultipassOffset 169)", or the CPU work's. */
static void describe_call(const pbc_attribution *a, char *buf, size_t size)
{
    if (!a->call && a->op != UINT32_MAX)
        snprintf(buf, size, "in CPU work queued at SubmitCommand (for operation %u)", a->op + 1);
    else if (!a->call)
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

/* FIELD_AUTO: packet_field decides from the byte and the packet. */
enum { FIELD_AUTO = -1, FIELD_DST, FIELD_SRC, FIELD_SIZE, FIELD_VALUE, FIELD_FLAGS };

static uint64_t field_of(const pbc_uop *u, int field)
{
    return field == FIELD_DST ? u->dst : field == FIELD_SRC ? u->src : field == FIELD_SIZE ? u->size
         : field == FIELD_FLAGS ? u->flags : u->value;
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

static const char *const field_names[] = {"destination", "source", "size", "value", "flags"};

/* The replay with the watches armed (the GPU's byte watch, the shim's
 * store watch; either may be NULL); the same failure again, or -1. */
static int watched_run(pbc_runner *r, const pbc_scenario *s, const pbc_target *t, const pbc_outcome *first,
                       pbc_gpu_byte_watch *bw, pbc_shim_attrib *w)
{
    pbc_run_options o = {0};
    pbc_shim_attrib none;
    memset(&none, 0, sizeof(none));
    o.observe = attr_observe;
    o.observe_ctx = w ? w : &none;
    pbc_gpu *gpu = r->target.gpu;
    gpu->byte_watch = bw;
    if (w) {
        w->gpu = gpu;
        pbc_shim_attrib_arm(w);
        pbc_ddi_watch(1); /* the builder's stores are a driver process's, if it has one */
    }
    pbc_outcome again;
    pbc_runner_run(r, s, t, &o, &again);
    if (w) {
        pbc_ddi_watch(0);
        pbc_shim_attrib_arm(NULL);
    }
    gpu->byte_watch = NULL;
    int same = again.verdict == PBC_VERDICT_FAIL && !strcmp(again.rule, first->rule) &&
               again.shape.addr_known == first->shape.addr_known && again.shape.addr == first->shape.addr;
    return same ? 0 : -1;
}

/* "packet 3 of paging buffer 2 (copy at +0x18)" for a packet's provenance. */
static void describe_packet(pbc_runner *r, const pbc_prov *p, char *buf, size_t size, uint32_t *call)
{
    const pbc_write_rec *wr = pbc_record_find_write(&r->target.res, r->target.gpu, p->submission, p->packet_offset);
    if (p->packet_index == UINT32_MAX) /* a fault's: its index is not known */
        snprintf(buf, size, "the packet of paging buffer %u at +0x%x (%s)", wr ? wr->buffer : 0, p->packet_offset,
                 pbc_gpu_uop_name(p->uop));
    else
        snprintf(buf, size, "packet %u of paging buffer %u (%s at +0x%x)", p->packet_index, wr ? wr->buffer : 0,
                 pbc_gpu_uop_name(p->uop), p->packet_offset);
    *call = wr ? wr->call : 0;
}

/* Names the store st (a watch's) into out; 0 when the builder made it. */
static int name_store(pbc_attribution *out, uint32_t kind, const pbc_shim_store *st, const char *chain,
                      const char *verb)
{
    char during[160];
    if (builder_frame(st, &out->sym))
        return -1;
    out->kind = kind;
    from_store(out, st);
    describe_call(out, during, sizeof(during));
    snprintf(out->text, sizeof(out->text), "%s%s %s at %s%s %s", chain, verb, out->sym.function, out->sym.where,
             out->sym.inlined, during);
    return 0;
}

/* The field of the packet p that decides the byte at `at` (the source or
 * the value it wrote; the size or the destination when the byte lies past
 * its end or before its start, or when a fill is right at its start;
 * wrote: the packet did write the byte; -1: the byte is a fault's address;
 * or `forced`, when not FIELD_AUTO: a GART entry's value or flags) is
 * watched in the paging buffer while the builder writes it, and the last
 * store into it named after chain. */
static void packet_field(pbc_runner *r, const pbc_scenario *s, const pbc_target *t, const pbc_outcome *first,
                         const pbc_prov *p, uint64_t at, int wrote, int forced, char *chain, size_t chain_size,
                         size_t used, pbc_attribution *out)
{
    pbc_uop u;
    uint32_t pool_at, len;
    const pbc_gpu *gpu = r->target.gpu;
    if (pbc_record_packet(&r->target.res, gpu, p->submission, p->packet_offset, &u, &pool_at, &len))
        return; /* the pool holds later bytes there: the packet is gone */
    pbc_prov named = *p;
    named.uop = (uint16_t)u.kind;
    char packet[200];
    uint32_t packet_call;
    describe_packet(r, &named, packet, sizeof(packet), &packet_call);
    int physical = !(u.flags & (PBC_UOP_DST_VIRTUAL | PBC_UOP_SRC_VIRTUAL));
    int field = forced;
    if (forced != FIELD_AUTO) {
        /* the caller knows which */
    } else if (wrote < 0) { /* the access that faulted: the address it came from */
        field = u.kind == PBC_UOP_COPY && at >= u.src && at - u.src < u.size ? FIELD_SRC
              : at >= u.dst && at - u.dst < u.size                             ? FIELD_DST
              : u.kind == PBC_UOP_COPY                                         ? FIELD_SRC
                                                                               : FIELD_DST;
    } else {
        int inside = wrote || (physical && at >= u.dst && at - u.dst < u.size);
        field = !inside ? (at >= u.dst ? FIELD_SIZE : FIELD_DST) : u.kind == PBC_UOP_COPY ? FIELD_SRC : FIELD_VALUE;
        if (field == FIELD_VALUE && u.kind == PBC_UOP_FILL && physical && at > u.dst) {
            /* a fill right at its start but wrong further on: its extent */
            uint8_t mine, want;
            pbc_mem_read(&gpu->mem, u.dst, &mine, 1);
            pbc_mem_read(&r->reference.gpu->mem, u.dst, &want, 1);
            if (mine == want)
                field = FIELD_SIZE;
        }
    }
    uint32_t f0, f1;
    if (field_bytes(gpu->isa, gpu->dma_pool + pool_at, len, field, &f0, &f1)) {
        f0 = 0;
        f1 = len;
    }
    uint32_t start = pool_at + f0, end = pool_at + f1;
    if ((start >> PBC_PAGE_SHIFT) != ((end - 1) >> PBC_PAGE_SHIFT))
        end = (start | (PBC_PAGE_SIZE - 1)) + 1; /* the field's bytes on its first page */
    pbc_shim_attrib w;
    memset(&w, 0, sizeof(w));
    w.host = r->target.gpu->dma_pool + (start & ~(uint32_t)(PBC_PAGE_SIZE - 1));
    w.off = start & (PBC_PAGE_SIZE - 1);
    w.len = end - start;
    w.only_call = packet_call; /* the pool is written again by later calls */
    const char *how = wrote > 0 ? "written by " : wrote == 0 ? "never written; the rest of its page by " : "";
    if (used < chain_size)
        snprintf(chain + used, chain_size - used, "%s%s, whose %s ", how, packet, field_names[field]);
    if (watched_run(r, s, t, first, NULL, &w))
        return;
    if (w.changes)
        name_store(out, PBC_ATTR_STORE, &w.last_change, chain, "was stored by");
}

/* A GART entry that is wrong (a divergence there, an unmapped page not on
 * the dummy page, or the entry a GPU access faulted through: f) is
 * blamed on the packet that set it last (before the access, for a
 * fault): its value or its flags, whichever is wrong, watched as the
 * builder stores it. 0 when the store is named; else the caller goes on
 * as without the entry (nothing of the builder's set it: the address
 * that used it is wrong, or the driver keeps its GART elsewhere). */
static int gart_entry(pbc_runner *r, const pbc_scenario *s, const pbc_target *t, const pbc_outcome *first,
                      uint32_t segment, uint64_t index, const pbc_fault *f, pbc_attribution *out)
{
    pbc_gpu_byte_watch bw;
    memset(&bw, 0, sizeof(bw));
    bw.gart_segment = segment;
    bw.gart_index = index;
    if (f) {
        bw.stop_submission = f->submission;
        bw.stop_offset = f->packet_offset;
    }
    if (watched_run(r, s, t, first, &bw, NULL) || !bw.writes || bw.prov.writer != PBC_WRITER_PAGING)
        return -1;
    /* What the entry should hold: the reference's (its unmapped pages are
     * on the dummy page); for a fault, any page the GPU may use, valid. */
    const pbc_gpu_segment *right = pbc_gpu_segment_by_id(r->reference.gpu, segment);
    int flags_wrong = !(bw.uop.flags & PBC_GART_VALID);
    if (!f && right && index < right->gart_pages)
        flags_wrong = right->gart[index].addr == bw.uop.value && right->gart[index].flags != bw.uop.flags;
    char chain[600];
    int n = f ? snprintf(chain, sizeof(chain), "the GPU faulted at 0x%" PRIx64 " through GART entry %" PRIu64
                         " of aperture %u (0x%" PRIx64 ", %s), ", f->addr, index, segment, bw.uop.value,
                         bw.uop.flags & PBC_GART_VALID ? "valid" : "invalid")
              : snprintf(chain, sizeof(chain), "GART entry %" PRIu64 " of aperture %u (0x%" PRIx64 ", %s) ", index,
                         segment, bw.uop.value, bw.uop.flags & PBC_GART_VALID ? "valid" : "invalid");
    packet_field(r, s, t, first, &bw.prov, 0, 1, flags_wrong ? FIELD_FLAGS : FIELD_VALUE, chain, sizeof(chain),
                 (size_t)n, out);
    return out->kind ? 0 : -1;
}

/* The attribution of the failure first (run once, by pbc_attribute). */
static uint32_t attribute(pbc_runner *r, const pbc_scenario *s, const pbc_target *t, const pbc_outcome *outcome,
                          pbc_attribution *out)
{
    pbc_outcome first = *outcome;
    int fault = !strcmp(first.rule, "PB-GPU-FAULT") && r->target.gpu->fault_count;
    if (fault && r->target.gpu->faults[0].gart_segment) {
        pbc_fault f = r->target.gpu->faults[0];
        if (!gart_entry(r, s, t, &first, f.gart_segment, f.gart_index, &f, out))
            return out->kind;
    } else if (!fault && first.shape.gart_segment &&
               !gart_entry(r, s, t, &first, first.shape.gart_segment, first.shape.gart_index, NULL, out)) {
        return out->kind;
    }
    if (!strcmp(first.rule, "PB-GPU-FAULT") && r->target.gpu->fault_count &&
        r->target.gpu->faults[0].submission) {
        /* The GPU faulted on a packet's address: the packet's field that
         * said it. */
        const pbc_fault *f = &r->target.gpu->faults[0];
        pbc_prov p = {.submission = f->submission, .packet_offset = f->packet_offset, .packet_index = UINT32_MAX,
                      .writer = PBC_WRITER_PAGING};
        char chain[600];
        int n = snprintf(chain, sizeof(chain), "the GPU faulted at 0x%" PRIx64 " running ", f->addr);
        packet_field(r, s, t, &first, &p, f->addr, -1, FIELD_AUTO, chain, sizeof(chain), (size_t)n, out);
        return out->kind;
    }
    if (!first.shape.addr_known)
        return out->kind;
    uint64_t addr = first.shape.addr, at = addr;
    char chain[600] = "";
    size_t used = 0;
    pbc_gpu_byte_watch bw;
    memset(&bw, 0, sizeof(bw));
    pbc_shim_attrib w;
    for (int hop = 0; hop < 4; hop++) {
        /* Who wrote the byte last (before the copy that read it, when it
         * is a copy's source), and the CPU's stores into its page. */
        uint32_t stop_sub = bw.stop_submission, stop_off = bw.stop_offset;
        memset(&bw, 0, sizeof(bw));
        bw.addr = at;
        bw.stop_submission = stop_sub;
        bw.stop_offset = stop_off;
        memset(&w, 0, sizeof(w));
        w.ppn = at >> PBC_PAGE_SHIFT;
        w.off = (uint32_t)(at & (PBC_PAGE_SIZE - 1));
        w.len = 1; /* the byte: a store next to it is not its writer */
        if (watched_run(r, s, t, &first, &bw, &w))
            return out->kind; /* not the same failure again: nothing to say */
        if (bw.writes && bw.prov.writer == PBC_WRITER_CPU) {
            if (w.changes)
                name_store(out, PBC_ATTR_STORE, &w.last_change, chain, "written by");
            return out->kind;
        }
        if (!bw.writes || bw.prov.writer != PBC_WRITER_PAGING) {
            /* Nothing of the builder's changed it; a store of the byte it
             * already held shows to the store watch alone. Else a write
             * that never happened: the nearest store into the page, if
             * the CPU's. */
            if (w.changes)
                name_store(out, PBC_ATTR_STORE, &w.last_change, chain, "written by");
            else if (w.stores)
                name_store(out, PBC_ATTR_NEAREST, &w.last_store, chain,
                           "never written by the builder; its last store into the page was");
            if (!out->kind && hop == 0 && first.shape.prov.writer == PBC_WRITER_PAGING)
                break; /* the packet that wrote the rest of the page, below */
            return out->kind;
        }
        /* A packet wrote it. A copy whose source, in the reference's
         * world, holds what the byte should hold copied from the right
         * place what was wrong there: that source is followed, up to the
         * copy. Otherwise the packet itself is wrong. */
        const pbc_uop *u = &bw.uop;
        if (u->kind == PBC_UOP_COPY && at >= u->dst && at - u->dst < u->size) {
            uint64_t from = u->src + (at - u->dst);
            uint8_t right, there;
            pbc_mem_read(&r->reference.gpu->mem, addr, &right, 1);
            pbc_mem_read(&r->reference.gpu->mem, from, &there, 1);
            if (right == there && from != at) { /* a copy onto itself copied nothing in */
                char packet[200];
                uint32_t call;
                describe_packet(r, &bw.prov, packet, sizeof(packet), &call);
                used += (size_t)snprintf(chain + used, sizeof(chain) - used, "copied by %s from 0x%" PRIx64 ", ",
                                         packet, from);
                if (used >= sizeof(chain))
                    used = sizeof(chain) - 1;
                bw.stop_submission = bw.prov.submission;
                bw.stop_offset = bw.prov.packet_offset;
                at = from;
                continue;
            }
        }
        break;
    }
    /* The packet that wrote the byte (or, when nothing did, the one that
     * wrote the rest of its page). */
    int wrote = bw.writes && bw.prov.writer == PBC_WRITER_PAGING;
    packet_field(r, s, t, &first, wrote ? &bw.prov : &first.shape.prov, at, wrote ? 1 : 0, FIELD_AUTO, chain,
                 sizeof(chain), used, out);
    return out->kind;
}

/* "seg1+0x3d000..+0x3d010 should be 4a 4a 4a 4a ..., is 4a 00 00 00 ...; ":
 * the wrong bytes from the first, in the segment's offsets (or at their
 * physical address in system memory), as the reference and the builder
 * left them, up to 8 of them and never past the page. */
static void wrong_bytes(const pbc_runner *r, uint64_t addr, char *buf, size_t size)
{
    const pbc_gpu *g = r->target.gpu;
    uint8_t want[8], got[8];
    uint64_t n = PBC_PAGE_SIZE - (addr & (PBC_PAGE_SIZE - 1));
    n = n < sizeof(want) ? n : sizeof(want);
    pbc_mem_read(&r->reference.gpu->mem, addr, want, n);
    pbc_mem_read(&g->mem, addr, got, n);
    size_t used = 0;
    for (uint32_t i = 0; i < g->segment_count && !used; i++) {
        const pbc_segment_info *seg = &g->seg[i].info;
        if (seg->kind == PBC_SEGMENT_MEMORY && addr >= seg->base && addr - seg->base < seg->size)
            used = (size_t)snprintf(buf, size, "seg%u+0x%" PRIx64 "..+0x%" PRIx64, seg->SegmentId, addr - seg->base,
                                    addr - seg->base + n);
    }
    if (!used)
        used = (size_t)snprintf(buf, size, "0x%" PRIx64 "..0x%" PRIx64, addr, addr + n);
    for (int side = 0; side < 2 && used < size; side++) {
        const uint8_t *b = side ? got : want;
        used += (size_t)snprintf(buf + used, size - used, side ? ", is" : " should be");
        for (uint64_t i = 0; i < n && used < size; i++)
            used += (size_t)snprintf(buf + used, size - used, " %02x", b[i]);
        if (used < size)
            used += (size_t)snprintf(buf + used, size - used, " ...");
    }
    if (used < size)
        snprintf(buf + used, size - used, "; ");
}

uint32_t pbc_attribute(pbc_runner *r, const pbc_scenario *s, const pbc_target *t, pbc_attribution *out)
{
    memset(out, 0, sizeof(*out));
    pbc_outcome first;
    pbc_run_options o = {0};
    if (pbc_runner_run(r, s, t, &o, &first) != PBC_VERDICT_FAIL || !r->reference.gpu)
        return out->kind;
    if (!attribute(r, s, t, &first, out) || !first.shape.addr_known || strcmp(first.rule, "PB-DIVERGE"))
        return out->kind;
    /* A divergence's finding in one line: its wrong bytes, then who wrote them. */
    char head[200], text[sizeof(out->text)];
    wrong_bytes(r, first.shape.addr, head, sizeof(head));
    snprintf(text, sizeof(text), "%s%s", head, out->text);
    memcpy(out->text, text, sizeof(text));
    return out->kind;
}

int pbc_attribution_wanted(const char *rule)
{
    return !strcmp(rule, "PB-DIVERGE") || !strcmp(rule, "PB-GPU-FAULT") || !strcmp(rule, "PB-UNMAP-DUMMY");
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
