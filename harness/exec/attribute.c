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

static void from_store(pbc_attribution *a, const pbc_shim_store *st)
{
    a->call = st->call;
    a->op = st->op;
    a->mpo = st->mpo;
    const char *name = st->call ? pbc_ddi_operation_name(st->operation) : NULL;
    snprintf(a->operation, sizeof(a->operation), "%s", name ? name : "");
}

uint32_t pbc_attribute(pbc_runner *r, const pbc_scenario *s, const pbc_target *t, pbc_attribution *out)
{
    memset(out, 0, sizeof(*out));
    pbc_outcome first;
    pbc_run_options o = {0};
    /* The builder's CPU wrote the page last, or nothing did as far as
     * the model knows (a store of the bytes the page already held leaves
     * it as it was): its stores are watched. */
    if (pbc_runner_run(r, s, t, &o, &first) != PBC_VERDICT_FAIL || !first.shape.addr_known ||
        (strcmp(first.shape.writer, "cpu") && strcmp(first.shape.writer, "none") &&
         strcmp(first.shape.writer, "init")))
        return out->kind;
    pbc_shim_attrib w;
    memset(&w, 0, sizeof(w));
    w.gpu = r->target.gpu;
    w.ppn = first.shape.addr >> PBC_PAGE_SHIFT;
    w.off = (uint32_t)(first.shape.addr & (PBC_PAGE_SIZE - 1));
    w.len = 1; /* the first wrong byte: a store next to it is not its writer */
    o.observe = attr_observe;
    o.observe_ctx = &w;
    pbc_outcome again;
    pbc_shim_attrib_arm(&w);
    pbc_runner_run(r, s, t, &o, &again);
    pbc_shim_attrib_arm(NULL);
    out->stores = w.stores;
    if (!again.shape.addr_known || again.shape.addr != first.shape.addr)
        return out->kind; /* not the same failure twice: nothing to say */
    char during[160];
    if (w.changes && builder_frame(&w.last_change, &out->sym) == 0) {
        out->kind = PBC_ATTR_STORE;
        from_store(out, &w.last_change);
        describe_call(out, during, sizeof(during));
        snprintf(out->text, sizeof(out->text), "written by %s at %s%s %s", out->sym.function, out->sym.where,
                 out->sym.inlined, during);
    } else if (w.stores && builder_frame(&w.last_store, &out->sym) == 0) {
        out->kind = PBC_ATTR_NEAREST;
        from_store(out, &w.last_store);
        describe_call(out, during, sizeof(during));
        snprintf(out->text, sizeof(out->text),
                 "never written by the builder; its last store into the page was %s at %s%s %s",
                 out->sym.function, out->sym.where, out->sym.inlined, during);
    }
    return out->kind;
}

const char *pbc_attribution_where(const pbc_attribution *a)
{
    return a->kind == PBC_ATTR_STORE || a->kind == PBC_ATTR_NEAREST ? a->sym.where : "";
}
