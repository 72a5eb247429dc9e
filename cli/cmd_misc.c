/*
 * pbcheck list: targets, operations and rules, without running anything,
 * so scripts and CI can enumerate what to test; and the conditions a
 * builder could branch on, with how many cases of certify's suite reach
 * each (that one runs the suite on the reference to count them).
 */
#include <stdio.h>
#include <string.h>

#include "certify/conditions.h"
#include "cli.h"
#include "registry.h"
#include "rules/rules.h"
#include "scenario/scenario.h"
#include "base/util.h"
#include "vidmm/vidmm.h"

/* One group per kind: the reference, the planted bugs (with the rule that
 * must catch each), the legal variants (which must pass). Groups are
 * separated by a blank line, never by a header, so that the first column
 * of every non-empty line is a target name (scripts read it). */
static void list_targets(void)
{
    static const uint32_t order[] = {PBC_TARGET_KIND_REFERENCE, PBC_TARGET_KIND_PLANTED_BUG,
                                     PBC_TARGET_KIND_VARIANT};
    uint32_t n;
    const pbc_target_entry *e = pbc_target_list(&n);
    for (size_t g = 0; g < sizeof(order) / sizeof(order[0]); g++) {
        if (g > 0)
            putchar('\n');
        for (uint32_t i = 0; i < n; i++) {
            if (e[i].kind != order[g])
                continue;
            printf("%-28s %s%s%s%s%s\n", e[i].target->name, e[i].target->summary,
                   e[i].expected_rule ? " [expects " : "", e[i].expected_rule ? e[i].expected_rule : "",
                   e[i].expected_rule ? "]" : "",
                   e[i].kind == PBC_TARGET_KIND_VARIANT ? " [legal variant]" : "");
        }
    }
}

/* What else an operation issues, with the words that choose it. */
static const char *list_also(uint32_t kind)
{
    switch (kind) {
    case PBC_SOP_TRANSFER:
        return "; TransferVirtual with 'virtual'";
    case PBC_SOP_FILL:
        return "; FillVirtual with 'virtual'";
    case PBC_SOP_MAP:
        return "; MapApertureSegment2 with 'adl'";
    case PBC_SOP_VA_MAP:
        return ", for a D3DDDI_MAPGPUVIRTUALADDRESS request (and FlushTlb when it maps over reserved zero pages)";
    case PBC_SOP_VA_ZERO:
        return ", for a D3DDDI_MAPGPUVIRTUALADDRESS request with no allocation";
    case PBC_SOP_VA_UNMAP:
        return " and FlushTlb, releasing the range";
    default:
        return "";
    }
}

static void list_operations(void)
{
    const pbc_target *ref = pbc_target_find("reference");
    for (uint32_t k = 0; k < PBC_SOP_COUNT; k++) {
        int ddi = pbc_sop_ddi_operation(k);
        char what[160];
        if (k == PBC_SOP_NOTIFY)
            snprintf(what, sizeof(what),
                     "DDI operations: NotifyFenceResidency, MapMmu, UnmapMmu, NotifyResidency2, NotifyAllocation");
        else if (ddi >= 0 && pbc_ddi_operation_name((uint32_t)ddi))
            snprintf(what, sizeof(what), "DDI operation: %s%s%s", pbc_ddi_operation_name((uint32_t)ddi), list_also(k),
                     pbc_sop_supported(ref, k) ? "" : " (unsupported)");
        else
            snprintf(what, sizeof(what), "VidMm/GPU action");
        printf("%-24s %s\n", pbc_sop_name(k), what);
    }
}

/* The rule table of rules/rules.h: id, SPEC-TRACE ids, statement. */
static void list_rules(void)
{
    for (uint32_t i = 0; i < PBC_RULE_COUNT; i++) {
        const pbc_rule *r = pbc_rule_get((pbc_rule_id)i);
        printf("%-18s %-34s %s\n", r->id, r->sids, r->statement);
    }
}

/* Each condition (certify/conditions.c) with the number of cases of the
 * deterministic suite, as certify builds it for the reference with
 * --large (sizes at and beyond 4 GiB are its cases), in which some call
 * met it: counted by running them, here. */
static int list_conditions(void)
{
    const pbc_target *ref = pbc_target_find("reference");
    pbc_case_list cases;
    pbc_certify_cases(ref, PBC_CERTIFY_LARGE, &cases);
    pbc_condition_tally t;
    pbc_condition_tally_init(&t, ref);
    uint32_t bad = pbc_condition_tally_cases(&t, &cases, ref), zero = 0;
    printf("%-28s %-24s %6s  %s\n", "operation", "condition", "cases", "what");
    for (uint32_t i = 0; i < pbc_condition_count(); i++) {
        const pbc_condition *c = pbc_condition_get(i);
        printf("%-28s %-24s %6u  %s\n", pbc_ddi_operation_name(c->operation), c->name, t.runs[i], c->what);
        zero += t.runs[i] == 0;
    }
    printf("%u conditions over %u cases of the suite (with --large); %u reached by none\n", pbc_condition_count(),
           cases.count, zero);
    pbc_condition_tally_fini(&t);
    pbc_case_list_fini(&cases);
    if (bad)
        fprintf(stderr, "pbcheck list: %u suite cases did not pass on the reference (a harness bug)\n", bad);
    return bad ? PBC_EXIT_FAIL : PBC_EXIT_PASS;
}

static const pbc_verb_spec list_spec = {
    .name = "list",
    .synopsis = "[targets|operations|rules|conditions]",
    .about = "Prints what pbcheck knows: the builders ('targets', with the rule each\n"
             "planted-bug builder must trip), the scenario operations, or the rules (id,\n"
             "SPEC-TRACE ids, statement), running nothing. With no argument (the\n"
             "default) it prints these three, each under a heading.\n"
             "'conditions' lists what a builder could branch on, per DDI operation (sizes\n"
             "not page multiples, ranges across 2 MiB leaf and 1 GiB directory lines,\n"
             "64 KiB pages, resumed calls, the smallest buffer, pages above 4 GiB,\n"
             "coherency, each flag), with how many cases of certify's deterministic suite\n"
             "reach each: it runs the suite on the reference, in this process, to count\n"
             "them (a few seconds). docs/certify-conditions.md.",
    .example = "pbcheck list rules",
};

int pbc_cmd_list(int argc, char **argv)
{
    pbc_cli_args args;
    int rc = pbc_cli_parse(&list_spec, argc, argv, &args);
    if (rc != PBC_CLI_GO)
        return rc;
    const char *what = args.count ? args.pos[0] : "all";
    int count = args.count;
    pbc_cli_args_fini(&args);
    if (count > 1)
        return pbc_usage_error("list: takes at most one argument (targets, operations, rules or conditions)");
    static const struct {
        const char *name, *heading;
        void (*print)(void);
    } lists[] = {
        {"targets", "targets:", list_targets},
        {"operations", "operations:", list_operations},
        {"rules", "rules:", list_rules},
    };
    if (!strcmp(what, "conditions"))
        return list_conditions();
    int all = !strcmp(what, "all"), shown = 0;
    for (size_t i = 0; i < PBC_ARRAY_LEN(lists); i++) {
        if (!all && strcmp(what, lists[i].name))
            continue;
        if (all)
            printf("%s%s\n", shown ? "\n" : "", lists[i].heading);
        lists[i].print();
        shown++;
    }
    if (!shown)
        return pbc_usage_error("list: unknown list '%s' (targets, operations, rules, conditions)", what);
    return PBC_EXIT_PASS;
}
