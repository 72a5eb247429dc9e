/*
 * The runner: one scenario through the target, the reference and the spec
 * model on model GPUs it keeps between runs (so fuzz loops only pay for
 * resets), then the oracle's verdict, then the determinism re-run.
 */
#include "exec/runner.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "ref_builder.h"
#include "base/util.h"
#include "ddi/link.h"
#include "exec/target.h"

void pbc_runner_init(pbc_runner *r) { memset(r, 0, sizeof(*r)); }

static void world_fini(pbc_world *w)
{
    pbc_shim_watch_fini(&w->pool);
    pbc_gpu_destroy(w->gpu);
    pbc_record_fini(&w->res);
    memset(w, 0, sizeof(*w));
}

void pbc_runner_fini(pbc_runner *r)
{
    world_fini(&r->target);
    world_fini(&r->reference);
    world_fini(&r->spec);
    world_fini(&r->again);
    pbc_scenario_fini(&r->fitted);
}

pbc_run_options pbc_run_options_fuzz(const uint8_t *data, size_t size)
{
    return (pbc_run_options){.check_determinism = pbc_scenario_fuzz_rerun(data, size),
                             .byte_page_budget = PBC_FUZZ_MAX_BYTE_PAGES};
}

/* A world ready to run s: its GPU kept from the last run (reset, or laid
 * out anew when the layout changed), or made. */
static const char *world_prepare(pbc_world *w, const pbc_scenario *s, const pbc_isa *isa, uint32_t budget)
{
    const char *why = NULL;
    pbc_record_clear(&w->res);
    if (!w->gpu) {
        w->gpu = pbc_gpu_create(s->segments, s->segment_count, isa, &why);
    } else {
        w->gpu->isa = isa;
        if (pbc_gpu_same_layout(w->gpu, s->segments, s->segment_count))
            pbc_gpu_reset(w->gpu);
        else
            why = pbc_gpu_relayout(w->gpu, s->segments, s->segment_count);
    }
    if (w->gpu)
        w->gpu->mem.data_budget = budget;
    return why;
}

/* A world of a builder that runs in the driver process pages its buffers
 * in the arena, where that process sees them at the same address. */
static const char *world_share(pbc_world *w, const pbc_target *t, const char *why)
{
    if (why || !w->gpu || !pbc_ddi_is_proxy(t) || w->gpu->pool_lent)
        return why;
    uint8_t *pool = pbc_ddi_pool();
    if (!pool)
        return "no paging-buffer pool left in the arena shared with the driver process";
    pbc_gpu_use_pool(w->gpu, pool);
    return NULL;
}

/* The run crossed its budget of pages written as bytes in world w: it is
 * stopped there and nothing of it is judged. */
static int over_budget(pbc_runner *r, const pbc_world *w, const pbc_run_options *o, pbc_outcome *out)
{
    if (!w->gpu->mem.over)
        return 0;
    r->over_budget = 1;
    pbc_verdict_skip(out, "over the budget of %u pages written as bytes in one world (the fuzz targets' "
                          "PBC_FUZZ_MAX_BYTE_PAGES, docs/fuzzing.md): stopped, not judged",
                     o->byte_page_budget);
    return 1;
}

/* `watched`: the target's first run, the one the trace and the observer
 * see. */
static int world_run(pbc_world *w, const pbc_scenario *s, const pbc_target *t, uint32_t mode,
                     const pbc_run_options *o, int watched)
{
    pbc_vidmm_options vo = {mode, o->dma_override, o->call_budget, watched ? o->trace : NULL, o->experiment,
                            &w->pool, watched ? o->observe : NULL, o->observe_ctx};
    return pbc_vidmm_run(w->gpu, s, t, &vo, &w->res);
}

/* A target that declares its segments gets them, whatever the scenario
 * says: a real VidMm issues only what fits the adapter the driver
 * reported, so the scenario is laid onto them (scenario/fit.c). Returns
 * the scenario to run, or NULL with why not. */
static const pbc_scenario *fit_adapter(pbc_runner *r, const pbc_scenario *s, const pbc_target *t, char *why,
                                       size_t n)
{
    int fit = pbc_scenario_fit(s, t->adapter, &r->fitted, why, n);
    return fit < 0 ? NULL : fit ? s : &r->fitted;
}

int pbc_runner_run(pbc_runner *r, const pbc_scenario *given, const pbc_target *t,
                   const pbc_run_options *o, pbc_outcome *out)
{
    pbc_verdict_begin(out);
    r->over_budget = 0;
    char unfit[256];
    const pbc_scenario *s = fit_adapter(r, given, t, unfit, sizeof(unfit));
    if (!s)
        return pbc_verdict_skip(out, "the scenario does not fit the adapter target '%s' declares: %s", t->name,
                                unfit);
    const pbc_target *ref = &pbc_target_reference;
    int differential = t != ref;
    uint32_t budget = o->byte_page_budget;
    const char *why = world_share(&r->target, t, world_prepare(&r->target, s, t->isa, budget));
    if (!why)
        why = world_prepare(&r->spec, s, ref->isa, budget);
    if (!why && differential)
        why = world_prepare(&r->reference, s, ref->isa, budget);
    if (why)
        return pbc_verdict_skip(out, "the GPU model cannot build this layout: %s", why);

    pbc_verdict_worlds w = {s, &r->target, differential ? &r->reference : NULL, &r->spec, 0, 0, 0};
    w.target_rc = world_run(&r->target, s, t, PBC_MODE_TARGET, o, 1);
    if (over_budget(r, &r->target, o, out))
        return (int)out->verdict;
    if (w.target_rc == 2) {
        if (r->target.res.unsupported_op) {
            char need[160];
            const pbc_sop *op = &s->ops[r->target.res.unsupported_op - 1];
            return pbc_verdict_skip(out, "target '%s' does not support line %u: %s", t->name, op->line,
                                    pbc_sop_unsupported_why(t, op, need, sizeof(need)));
        }
        return pbc_verdict_skip(out, "target '%s' refused to create its adapter or an allocation", t->name);
    }
    if (o->digest)
        pbc_state_digest(r->target.gpu, r->target.res.masks, r->target.res.mask_count, &out->digest);
    w.spec_rc = world_run(&r->spec, s, ref, PBC_MODE_SPEC, o, 0);
    if (over_budget(r, &r->spec, o, out))
        return (int)out->verdict;
    if (w.spec_rc == 0 && differential) {
        w.reference_rc = world_run(&r->reference, s, ref, PBC_MODE_TARGET, o, 0);
        if (over_budget(r, &r->reference, o, out))
            return (int)out->verdict;
    }
    if (pbc_verdict_judge(&w, out) != PBC_VERDICT_PASS || !o->check_determinism)
        return (int)out->verdict;
    why = world_share(&r->again, t, world_prepare(&r->again, s, t->isa, budget));
    if (why)
        return pbc_verdict_skip(out, "the GPU model cannot build this layout: %s", why);
    world_run(&r->again, s, t, PBC_MODE_TARGET, o, 0);
    if (over_budget(r, &r->again, o, out))
        return (int)out->verdict;
    return pbc_verdict_determinism(&r->target, &r->again, out);
}
