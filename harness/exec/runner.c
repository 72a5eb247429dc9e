/*
 * The runner: one scenario through the target, the reference and the spec
 * model, then the verdict. A divergence report names the first differing
 * byte, where it lives (segment or system page, and which allocation), the
 * expected and actual bytes, and for each side the packet that last wrote
 * them: buffer, offset, scenario operation, sub-transfer and pass.
 */
#include "exec/runner.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "ref_builder.h"
#include "base/util.h"

void pbc_runner_init(pbc_runner *r) { memset(r, 0, sizeof(*r)); }

static void world_fini(pbc_world *w)
{
    pbc_gpu_destroy(w->gpu);
    pbc_run_result_fini(&w->res);
    memset(w, 0, sizeof(*w));
}

void pbc_runner_fini(pbc_runner *r)
{
    world_fini(&r->target);
    world_fini(&r->reference);
    world_fini(&r->spec);
}

const char *pbc_verdict_name(uint32_t v)
{
    static const char *const names[] = {"pass", "FAIL", "skip", "HARNESS BUG"};
    return v < PBC_ARRAY_LEN(names) ? names[v] : "?";
}

static const char *world_prepare(pbc_world *w, const pbc_scenario *s, const pbc_isa *isa,
                                 int layout_changed)
{
    const char *why = NULL;
    if (w->gpu && (layout_changed || w->gpu->isa != isa)) {
        pbc_gpu_destroy(w->gpu);
        w->gpu = NULL;
    }
    if (!w->gpu)
        w->gpu = pbc_gpu_create(s->segments, s->segment_count, isa, &why);
    else
        pbc_gpu_reset(w->gpu);
    pbc_run_result_clear(&w->res);
    return w->gpu ? NULL : why;
}

static int world_run(pbc_world *w, const pbc_scenario *s, const pbc_target *t, uint32_t mode,
                     const pbc_run_options *o, FILE *trace)
{
    pbc_vidmm_options vo = {mode, o->dma_override, o->call_budget, trace};
    return pbc_vidmm_run(w->gpu, s, t, &vo, &w->res);
}

static void out_append(pbc_outcome *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out_append(pbc_outcome *out, const char *fmt, ...)
{
    size_t len = strlen(out->message);
    if (len + 1 >= sizeof(out->message))
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->message + len, sizeof(out->message) - len, fmt, ap);
    va_end(ap);
}

/* "segment 2 +0x3000 (allocation A +0x1000)" or "system page 0x1234000 (...)". */
static void describe_addr(const pbc_scenario *s, const pbc_run_result *res, uint64_t addr,
                          char *buf, size_t n)
{
    for (uint32_t i = 0; i < s->segment_count; i++) {
        const pbc_segment_info *g = &s->segments[i];
        if (addr < g->base || addr - g->base >= g->size)
            continue;
        uint64_t off = addr - g->base;
        pbc_residency r;
        pbc_residency_init(&r, s);
        for (uint32_t k = 0; k < s->op_count; k++)
            pbc_residency_apply(&r, &s->ops[k]);
        int owner = -1;
        for (uint32_t a = 0; a < s->alloc_count; a++)
            if (r.a[a].where == PBC_WHERE_SEGMENT && r.a[a].at.segment == g->SegmentId &&
                off >= r.a[a].at.offset && off - r.a[a].at.offset < s->allocs[a].size)
                owner = (int)a;
        if (owner >= 0)
            snprintf(buf, n, "segment %u +0x%" PRIx64 " (allocation %s +0x%" PRIx64 ")", g->SegmentId, off,
                     s->allocs[owner].name, off - r.a[owner].at.offset);
        else
            snprintf(buf, n, "segment %u +0x%" PRIx64 " (outside allocations)", g->SegmentId, off);
        pbc_residency_fini(&r);
        return;
    }
    for (uint32_t i = 0; i < res->owner_count; i++) {
        const pbc_page_owner *o = &res->owners[i];
        if (o->ppn != addr >> PBC_PAGE_SHIFT)
            continue;
        if (o->page >= 0)
            snprintf(buf, n, "system page 0x%" PRIx64 " (allocation %s +0x%" PRIx64 ")", o->ppn << PBC_PAGE_SHIFT,
                     s->allocs[o->alloc].name, (uint64_t)o->page * PBC_PAGE_SIZE + (addr & (PBC_PAGE_SIZE - 1)));
        else
            snprintf(buf, n, "system page 0x%" PRIx64 " (a foreign page before allocation %s in its MDL)",
                     o->ppn << PBC_PAGE_SHIFT, s->allocs[o->alloc].name);
        return;
    }
    snprintf(buf, n, "physical 0x%" PRIx64, addr);
}

static void describe_writer(pbc_outcome *out, const char *side, const pbc_scenario *s,
                            const pbc_world *w, pbc_prov p)
{
    static const char *const writers[] = {"nobody (initial zero)", "the scenario's initial content",
                                          "a paging-buffer packet", "render work", "the spec model",
                                          "the builder's CPU access"};
    const char *who = p.writer < PBC_ARRAY_LEN(writers) ? writers[p.writer] : "?";
    out_append(out, "\n  %s last write: %s", side, who);
    if (p.writer != PBC_WRITER_PAGING)
        return;
    const pbc_write_rec *wr = pbc_run_find_write(&w->res, w->gpu, p.submission, p.packet_offset);
    out_append(out, " (%s micro-op, packet #%u at +0x%x", pbc_uop_kind_name(p.uop), p.packet_index,
               p.packet_offset);
    if (wr) {
        const pbc_sop *op = &s->ops[wr->op];
        char line[32] = ""; /* binary scenarios have no source lines */
        if (op->line)
            snprintf(line, sizeof(line), " (line %u)", op->line);
        out_append(out, " of paging buffer %u; operation %u '%s%s%s'%s, sub-transfer %u, "
                   "pass %u, call %u)", wr->buffer, wr->op + 1, pbc_sop_name(op->kind),
                   pbc_sop_has_alloc(op->kind) ? " " : "",
                   pbc_sop_has_alloc(op->kind) ? s->allocs[op->alloc].name : "", line, wr->sub + 1,
                   wr->pass + 1, wr->call);
        if (out->op == UINT32_MAX)
            out->op = wr->op;
    } else {
        out_append(out, ")");
    }
}

static void hex(pbc_outcome *out, const uint8_t *b)
{
    for (uint32_t i = 0; i < PBC_DIFF_WINDOW; i++)
        out_append(out, "%s%02x", i ? " " : "", b[i]);
}

static void describe_diff(pbc_outcome *out, const pbc_scenario *s, const pbc_diff *d,
                          const char *expected_name, const pbc_world *expected, const char *actual_name,
                          const pbc_world *actual)
{
    char where[200];
    switch (d->kind) {
    case PBC_DIFF_MEMORY:
        describe_addr(s, &expected->res, d->addr, where, sizeof(where));
        out_append(out, "memory differs at 0x%" PRIx64 ", %s; %u page(s) differ\n  %-9s @0x%" PRIx64 ": ",
                   d->addr, where, d->differing_pages, expected_name, d->window_start);
        hex(out, d->a);
        out_append(out, "\n  %-9s @0x%" PRIx64 ": ", actual_name, d->window_start);
        hex(out, d->b);
        describe_writer(out, expected_name, s, expected, d->prov_a);
        describe_writer(out, actual_name, s, actual, d->prov_b);
        break;
    case PBC_DIFF_GART:
        out_append(out, "GART entry %" PRIu64 " of aperture segment %u differs: %s has %s0x%" PRIx64
                   " flags 0x%x, %s has 0x%" PRIx64 " flags 0x%x", d->index, d->segment, expected_name,
                   "", d->gart_a.addr, d->gart_a.flags, actual_name, d->gart_b.addr, d->gart_b.flags);
        break;
    default:
        out_append(out, "GPU fault counts differ (%s: %u, %s: %u)", expected_name,
                   expected->gpu->fault_count, actual_name, actual->gpu->fault_count);
        break;
    }
}

static int outcome(pbc_outcome *out, uint32_t verdict, const char *rule)
{
    out->verdict = verdict;
    snprintf(out->rule, sizeof(out->rule), "%s", rule);
    return (int)verdict;
}

static int report_findings(pbc_outcome *out, const pbc_run_result *res, const char *who, uint32_t verdict)
{
    const pbc_finding *f = &res->findings[0];
    out_append(out, "%s%s: %s", verdict == PBC_VERDICT_HARNESS_BUG ? "harness bug: " : "", f->rule, f->detail);
    if (f->op != UINT32_MAX)
        out->op = f->op;
    (void)who;
    return outcome(out, verdict, f->rule);
}

int pbc_runner_run(pbc_runner *r, const pbc_scenario *s, const pbc_target *t,
                   const pbc_run_options *o, pbc_outcome *out)
{
    memset(out, 0, sizeof(*out));
    out->op = UINT32_MAX;
    int changed = r->layout_count != s->segment_count ||
                  memcmp(r->layout, s->segments, s->segment_count * sizeof(s->segments[0])) != 0;
    memcpy(r->layout, s->segments, s->segment_count * sizeof(s->segments[0]));
    r->layout_count = s->segment_count;
    const pbc_target *ref = &pbc_target_reference;
    int differential = t != ref;
    const char *why = world_prepare(&r->target, s, t->isa, changed);
    if (!why)
        why = world_prepare(&r->spec, s, ref->isa, changed);
    if (!why && differential)
        why = world_prepare(&r->reference, s, ref->isa, changed);
    if (why) {
        out_append(out, "the GPU model cannot build this layout: %s", why);
        return outcome(out, PBC_VERDICT_SKIP, "");
    }

    int rc = world_run(&r->target, s, t, PBC_MODE_TARGET, o, o->trace);
    if (rc == 2) {
        if (r->target.res.unsupported_op)
            out_append(out, "target '%s' does not support %s", t->name,
                       pbc_sop_name(r->target.res.unsupported_op - 1));
        else
            out_append(out, "target '%s' refused to create its adapter or an allocation", t->name);
        return outcome(out, PBC_VERDICT_SKIP, "");
    }
    pbc_state_digest(r->target.gpu, r->target.res.masks, r->target.res.mask_count, &out->digest);
    if (world_run(&r->spec, s, ref, PBC_MODE_SPEC, o, NULL) != 0)
        return report_findings(out, &r->spec.res, "spec", PBC_VERDICT_HARNESS_BUG);
    pbc_world *oracle = &r->spec;
    if (differential) {
        if (world_run(&r->reference, s, ref, PBC_MODE_TARGET, o, NULL) != 0)
            return report_findings(out, &r->reference.res, "reference", PBC_VERDICT_HARNESS_BUG);
        pbc_diff d;
        if (pbc_state_diff(r->spec.gpu, r->reference.gpu, r->spec.res.masks, r->spec.res.mask_count, 0, &d)) {
            out_append(out, "harness bug: the reference disagrees with the spec model: ");
            describe_diff(out, s, &d, "spec", &r->spec, "reference", &r->reference);
            return outcome(out, PBC_VERDICT_HARNESS_BUG, "");
        }
        oracle = &r->reference;
    }
    if (rc == 1)
        return report_findings(out, &r->target.res, "target",
                               differential ? PBC_VERDICT_FAIL : PBC_VERDICT_HARNESS_BUG);
    pbc_diff d;
    if (pbc_state_diff(oracle->gpu, r->target.gpu, oracle->res.masks, oracle->res.mask_count, differential, &d)) {
        if (!differential) {
            out_append(out, "harness bug: the reference disagrees with the spec model: ");
            describe_diff(out, s, &d, "spec", oracle, "reference", &r->target);
            return outcome(out, PBC_VERDICT_HARNESS_BUG, "");
        }
        out_append(out, "PB-DIVERGE: ");
        describe_diff(out, s, &d, "reference", oracle, "target", &r->target);
        return outcome(out, PBC_VERDICT_FAIL, "PB-DIVERGE");
    }
    if (o->check_determinism) {
        uint64_t first_dma = r->target.res.dma_hash;
        pbc_digest first = out->digest;
        world_prepare(&r->target, s, t->isa, 0);
        world_run(&r->target, s, t, PBC_MODE_TARGET, o, NULL);
        pbc_state_digest(r->target.gpu, r->target.res.masks, r->target.res.mask_count, &out->digest);
        if (first_dma != r->target.res.dma_hash || first.total != out->digest.total) {
            out_append(out, "PB-NONDET: the same scenario run twice gave different %s",
                       first_dma != r->target.res.dma_hash ? "paging-buffer bytes" : "final state");
            return outcome(out, PBC_VERDICT_FAIL, "PB-NONDET");
        }
    }
    return outcome(out, PBC_VERDICT_PASS, "");
}
