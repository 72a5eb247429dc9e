/*
 * pbcheck list: targets and operations, without running anything.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "registry.h"
#include "scenario/scenario.h"
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

static void list_operations(void)
{
    const pbc_target *ref = pbc_target_find("reference");
    for (uint32_t k = 0; k < PBC_SOP_COUNT; k++)
        printf("%-24s %s\n", pbc_sop_name(k),
               pbc_sop_ddi_operation(k) >= 0 ? (pbc_sop_supported(ref, k) ? "DDI operation" : "DDI operation (unsupported)")
                                  : "VidMm/GPU action");
}

int pbc_cmd_list(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "all";
    if (!strcmp(what, "--help") || !strcmp(what, "-h")) {
        puts("usage: pbcheck list [targets|operations]\n\nPrints what pbcheck knows; runs nothing.");
        return PBC_EXIT_PASS;
    }
    if (argc > 2)
        return pbc_usage_error("list takes at most one argument");
    int all = !strcmp(what, "all");
    if (all || !strcmp(what, "targets")) {
        if (all)
            puts("targets:");
        list_targets();
    }
    if (all || !strcmp(what, "operations")) {
        if (all)
            puts("\noperations:");
        list_operations();
    }
    if (!all && strcmp(what, "targets") && strcmp(what, "operations"))
        return pbc_usage_error("unknown list '%s' (targets, operations)", what);
    return PBC_EXIT_PASS;
}
