/*
 * The verdict of one run. A divergence report names the first differing
 * byte, where it lives (segment or system page, and which allocation), the
 * expected and actual bytes, and for each side the packet that last wrote
 * them: buffer, offset, scenario operation, sub-transfer and pass.
 */
#include "oracle/verdict.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "oracle/content.h"

const char *pbc_verdict_name(uint32_t v)
{
    static const char *const names[] = {"pass", "FAIL", "skip", "HARNESS BUG"};
    return v < PBC_ARRAY_LEN(names) ? names[v] : "?";
}

void pbc_verdict_begin(pbc_outcome *out)
{
    memset(out, 0, sizeof(*out));
    out->op = UINT32_MAX;
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
static void describe_addr(const pbc_scenario *s, const pbc_record *res, uint64_t addr,
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
    uint32_t alloc;
    int64_t page;
    if (pbc_record_owner_of(res, addr >> PBC_PAGE_SHIFT, &alloc, &page)) {
        uint64_t ppn = addr >> PBC_PAGE_SHIFT;
        if (page >= 0)
            snprintf(buf, n, "system page 0x%" PRIx64 " (allocation %s +0x%" PRIx64 ")", ppn << PBC_PAGE_SHIFT,
                     s->allocs[alloc].name, (uint64_t)page * PBC_PAGE_SIZE + (addr & (PBC_PAGE_SIZE - 1)));
        else
            snprintf(buf, n, "system page 0x%" PRIx64 " (a foreign page before allocation %s in its MDL)",
                     ppn << PBC_PAGE_SHIFT, s->allocs[alloc].name);
        return;
    }
    snprintf(buf, n, "physical 0x%" PRIx64, addr);
}

static void describe_writer(pbc_outcome *out, const char *side, const pbc_scenario *s,
                            const pbc_world *w, pbc_prov p, int target_side)
{
    static const char *const writers[] = {"nobody (initial zero)", "the scenario's initial content",
                                          "a paging-buffer packet", "render work", "the spec model",
                                          "the builder's CPU access"};
    static const char *const shapes[] = {"none", "init", "packet", "render", "spec", "cpu"};
    const char *who = p.writer < PBC_ARRAY_LEN(writers) ? writers[p.writer] : "?";
    out_append(out, "\n  %s last write: %s", side, who);
    if (target_side) {
        out->shape.prov = p;
        snprintf(out->shape.writer, sizeof(out->shape.writer), "%s",
                 p.writer < PBC_ARRAY_LEN(shapes) ? shapes[p.writer] : "?");
    }
    if (p.writer == PBC_WRITER_CPU) {
        if (p.call)
            out_append(out, " (BuildPagingBuffer call %u", p.call);
        else
            out_append(out, " (CPU work queued by SubmitCommand, GPU queue entry %u", p.submission);
        if (p.op < s->op_count)
            out_append(out, ", operation %u '%s')", p.op + 1, pbc_sop_name(s->ops[p.op].kind));
        else
            out_append(out, ")");
        return;
    }
    if (p.writer != PBC_WRITER_PAGING)
        return;
    const pbc_write_rec *wr = pbc_record_find_write(&w->res, w->gpu, p.submission, p.packet_offset);
    out_append(out, " (%s micro-op, packet #%u at +0x%x", pbc_gpu_uop_name(p.uop), p.packet_index,
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
    char packet[200];
    if (pbc_record_disasm(&w->res, w->gpu, p.submission, p.packet_offset, packet, sizeof(packet)) == 0)
        out_append(out, "\n    packet: %s", packet);
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
        snprintf(out->shape.region, sizeof(out->shape.region), "%s",
                 !strncmp(where, "segment", 7) ? "segment" : !strncmp(where, "system", 6) ? "system" : "physical");
        out->shape.addr = d->addr;
        out->shape.addr_known = 1;
        out_append(out, "memory differs at 0x%" PRIx64 ", %s; %u page(s) differ\n  %-9s @0x%" PRIx64 ": ",
                   d->addr, where, d->differing_pages, expected_name, d->window_start);
        hex(out, d->a);
        out_append(out, "\n  %-9s @0x%" PRIx64 ": ", actual_name, d->window_start);
        hex(out, d->b);
        describe_writer(out, expected_name, s, expected, d->prov_a, 0);
        describe_writer(out, actual_name, s, actual, d->prov_b, 1);
        break;
    case PBC_DIFF_GART:
        snprintf(out->shape.region, sizeof(out->shape.region), "gart");
        out->shape.gart_segment = d->segment;
        out->shape.gart_index = d->index;
        out_append(out, "GART entry %" PRIu64 " of aperture segment %u differs: %s has %s0x%" PRIx64
                   " flags 0x%x, %s has 0x%" PRIx64 " flags 0x%x", d->index, d->segment, expected_name,
                   "", d->gart_a.addr, d->gart_a.flags, actual_name, d->gart_b.addr, d->gart_b.flags);
        break;
    default:
        snprintf(out->shape.region, sizeof(out->shape.region), "faults");
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

static int report_findings(pbc_outcome *out, const pbc_record *res, uint32_t verdict)
{
    const pbc_finding *f = &res->findings.items[0];
    const char *rule = pbc_rule_get(f->rule)->id;
    out_append(out, "%s%s: %s", verdict == PBC_VERDICT_HARNESS_BUG ? "harness bug: " : "", rule, f->detail);
    if (f->op != UINT32_MAX)
        out->op = f->op;
    out->shape.gart_segment = f->gart_segment;
    out->shape.gart_index = f->gart_index;
    return outcome(out, verdict, rule);
}

int pbc_verdict_skip(pbc_outcome *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->message, sizeof(out->message), fmt, ap);
    va_end(ap);
    return outcome(out, PBC_VERDICT_SKIP, "");
}

/* The end of the builder's DbgPrint output, after a failure it may explain. */
static void append_log(pbc_outcome *out, const pbc_record *res)
{
    if (!res->log_len)
        return;
    const char *from = res->log + res->log_len;
    for (int lines = 0; from > res->log && lines < 6 && (size_t)(res->log + res->log_len - from) < sizeof(out->log) - 1;)
        if (*--from == '\n' && from + 1 < res->log + res->log_len)
            lines++;
    if (*from == '\n')
        from++;
    out->log_truncated = from > res->log;
    snprintf(out->log, sizeof(out->log), "%s", from);
}

int pbc_verdict_judge(const pbc_verdict_worlds *w, pbc_outcome *out)
{
    const pbc_scenario *s = w->s;
    if (w->spec_rc != 0)
        return report_findings(out, &w->spec->res, PBC_VERDICT_HARNESS_BUG);
    const pbc_world *oracle = w->spec;
    int differential = w->reference != NULL;
    if (differential) {
        if (w->reference_rc != 0)
            return report_findings(out, &w->reference->res, PBC_VERDICT_HARNESS_BUG);
        pbc_diff d;
        if (pbc_state_diff(w->spec->gpu, w->reference->gpu, w->spec->res.masks, w->spec->res.mask_count, 0, &d)) {
            out_append(out, "harness bug: the reference disagrees with the spec model: ");
            describe_diff(out, s, &d, "spec", w->spec, "reference", w->reference);
            return outcome(out, PBC_VERDICT_HARNESS_BUG, "");
        }
        oracle = w->reference;
    }
    /* The oracle's own world against the content oracle, which knows only
     * the scenario's history: VidMm, reference and spec model are checked
     * by something none of them wrote. */
    char why[600];
    const pbc_world *judged = differential ? w->reference : w->target;
    int judged_rc = differential ? w->reference_rc : w->target_rc;
    if (judged_rc == 0 && pbc_content_check(s, judged->res.ops_done, judged->gpu, &judged->res, why, sizeof(why))) {
        out_append(out, "harness bug: the %s's memory contradicts the content oracle: %s",
                   differential ? "reference" : "reference (as target)", why);
        return outcome(out, PBC_VERDICT_HARNESS_BUG, "");
    }
    if (w->target_rc == 1) {
        report_findings(out, &w->target->res, differential ? PBC_VERDICT_FAIL : PBC_VERDICT_HARNESS_BUG);
        append_log(out, &w->target->res);
        return (int)out->verdict;
    }
    pbc_diff d;
    if (pbc_state_diff(oracle->gpu, w->target->gpu, oracle->res.masks, oracle->res.mask_count, differential, &d)) {
        if (!differential) {
            out_append(out, "harness bug: the reference disagrees with the spec model: ");
            describe_diff(out, s, &d, "spec", oracle, "reference", w->target);
            return outcome(out, PBC_VERDICT_HARNESS_BUG, "");
        }
        out_append(out, "%s: ", pbc_rule_get(PBC_RULE_DIVERGE)->id);
        describe_diff(out, s, &d, "reference", oracle, "target", w->target);
        if (out->op < s->op_count) { /* the failing operation's shape, in the target's run */
            out->shape.subs = s->ops[out->op].split ? s->ops[out->op].split : 1;
            const pbc_record *res = &w->target->res;
            for (uint32_t i = 0; i < res->write_count; i++)
                if (res->writes[i].op == out->op && res->writes[i].pass + 1 > out->shape.passes)
                    out->shape.passes = res->writes[i].pass + 1;
        }
        append_log(out, &w->target->res);
        return outcome(out, PBC_VERDICT_FAIL, pbc_rule_get(PBC_RULE_DIVERGE)->id);
    }
    /* A context allocation's content is the driver's, so the comparison
     * masks it; what the target made of it must still follow it through
     * every later move: its own image, carried unchanged (docs/rules.md,
     * "Masks"). */
    if (differential && pbc_content_check_images(s, w->target->res.ops_done, w->target->gpu, &w->target->res, why,
                                                 sizeof(why))) {
        out_append(out, "%s: a context allocation did not keep its content through a move: %s",
                   pbc_rule_get(PBC_RULE_DIVERGE)->id, why);
        snprintf(out->shape.region, sizeof(out->shape.region), "context");
        snprintf(out->shape.writer, sizeof(out->shape.writer), "move");
        append_log(out, &w->target->res);
        return outcome(out, PBC_VERDICT_FAIL, pbc_rule_get(PBC_RULE_DIVERGE)->id);
    }
    return outcome(out, PBC_VERDICT_PASS, "");
}

int pbc_verdict_determinism(const pbc_world *first, const pbc_world *again, pbc_outcome *out)
{
    int same_work = first->res.exec_hash == again->res.exec_hash;
    pbc_diff d;
    if (same_work && !pbc_state_diff(first->gpu, again->gpu, first->res.masks, first->res.mask_count, 1, &d))
        return (int)out->verdict;
    out_append(out, "%s: the same scenario run twice gave different %s", pbc_rule_get(PBC_RULE_NONDET)->id,
               same_work ? "final state" : "work (decoded micro-ops)");
    return outcome(out, PBC_VERDICT_FAIL, pbc_rule_get(PBC_RULE_NONDET)->id);
}

