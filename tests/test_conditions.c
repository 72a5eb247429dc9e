/* The conditions a builder could branch on (harness/certify/conditions.c):
 * certify's deterministic suite reaches every one, for the operation it
 * is about, and so does its quick part; and every one is a condition the
 * generator (so certify's random phase and the fuzzers) produces. */
#include "certify/conditions.h"
#include "registry.h"
#include "scenario/gen.h"
#include "t.h"

/* Prints the conditions no run reached; returns how many. */
static uint32_t report_zeros(const char *what, const pbc_condition_tally *t)
{
    uint32_t zero = 0;
    for (uint32_t i = 0; i < pbc_condition_count(); i++) {
        if (t->runs[i])
            continue;
        const pbc_condition *c = pbc_condition_get(i);
        fprintf(stderr, "  %s: no run reaches %s %s (%s)\n", what, pbc_ddi_operation_name(c->operation), c->name,
                c->what);
        zero++;
    }
    return zero;
}

static void suite_reaches_all(unsigned flags, const char *what)
{
    const pbc_target *ref = pbc_target_find("reference");
    pbc_case_list cases;
    pbc_certify_cases(ref, flags, &cases);
    pbc_condition_tally t;
    pbc_condition_tally_init(&t, ref);
    uint32_t bad = pbc_condition_tally_cases(&t, &cases, ref);
    T_CHECK_MSG(bad == 0, "%s: %u cases did not pass on the reference", what, bad);
    uint32_t zero = report_zeros(what, &t);
    T_CHECK_MSG(zero == 0, "%s: %u of %u conditions reached by none of its %u cases", what, zero,
                pbc_condition_count(), cases.count);
    pbc_condition_tally_fini(&t);
    pbc_case_list_fini(&cases);
}

/* The default suite, without --large: its fills of 4 GiB and its
 * transfers of what they filled meet FillSize and TransferSize at and
 * beyond 4 GiB (docs/certify-conditions.md, "Sizes across 2^32"). */
T_TEST(suite_reaches_every_condition) { suite_reaches_all(0, "the suite"); }

/* With --large: --quick leaves out the fill and the transfers of 4 GiB
 * that --large adds back. */
T_TEST(quick_suite_reaches_every_condition)
{
    suite_reaches_all(PBC_CERTIFY_QUICK | PBC_CERTIFY_LARGE, "the quick suite");
}

/* Names are unique per operation, and every operation a condition is
 * about is one the DDI has. */
T_TEST(conditions_are_named_once)
{
    for (uint32_t i = 0; i < pbc_condition_count(); i++) {
        const pbc_condition *a = pbc_condition_get(i);
        T_CHECK_MSG(pbc_ddi_operation_name(a->operation) != NULL, "condition %s: operation %u", a->name,
                    a->operation);
        for (uint32_t k = i + 1; k < pbc_condition_count(); k++) {
            const pbc_condition *b = pbc_condition_get(k);
            T_CHECK_MSG(a->operation != b->operation || strcmp(a->name, b->name),
                        "%s %s is listed twice", pbc_ddi_operation_name(a->operation), a->name);
        }
    }
}

/* Whether every size condition at and beyond 4 GiB has a run. */
static int sizes_reached(const pbc_condition_tally *t)
{
    for (uint32_t i = 0; i < pbc_condition_count(); i++)
        if (!strncmp(pbc_condition_get(i)->name, "size-", 5) && strstr(pbc_condition_get(i)->name, "4g") &&
            !t->runs[i])
            return 0;
    return 1;
}

/* Random scenarios as certify's random phase makes them: a condition the
 * generator never produces has no place in the list. Scenarios whose
 * allocations add up to more than 64 MiB are left out, for time, but for
 * those with one of 4 GiB or more until the sizes at and beyond 4 GiB
 * have been met (each costs seconds under the sanitizers). Paging buffers in segments,
 * work behind queued moves and volume bursts are the generator's own
 * (scenario/gen.c), so reaching them here shows it makes them. */
T_TEST(generator_produces_every_condition)
{
    const pbc_target *ref = pbc_target_find("reference");
    pbc_condition_tally t;
    pbc_condition_tally_init(&t, ref);
    pbc_runner r;
    pbc_runner_init(&r);
    pbc_rng rng = {30};
    uint32_t ran = 0;
    for (int iter = 0; iter < 10000; iter++) {
        pbc_scenario s;
        pbc_scenario_init(&s);
        pbc_gen_scenario(&s, 24, pbc_rng_choose, &rng);
        uint64_t total = 0, largest = pbc_scenario_largest_alloc(&s);
        for (uint32_t i = 0; i < s.alloc_count; i++)
            total += s.allocs[i].size;
        /* And the first few with an allocation of 4 GiB or more, for the
         * sizes at and beyond 4 GiB. */
        int edge = largest >= (4ull << 30) && !sizes_reached(&t);
        char why[256];
        if ((total <= (64ull << 20) || edge) && pbc_scenario_validate(&s, why, sizeof(why)) == 0) {
            pbc_condition_tally_run(&t, &r, &s, ref);
            ran++;
        }
        pbc_scenario_fini(&s);
    }
    uint32_t zero = report_zeros("the generator", &t);
    T_CHECK_MSG(zero == 0, "%u of %u conditions in none of %u random scenarios", zero, pbc_condition_count(), ran);
    pbc_runner_fini(&r);
    pbc_condition_tally_fini(&t);
}

T_MAIN()
