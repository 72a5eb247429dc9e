/*
 * The verdict of a certify run from its cases (results.h): what the
 * writers print at the top of every report, decided here once so that
 * report.json, junit.xml, summary.md, index.html and the exit code never
 * disagree.
 */
#include "certify/results.h"

#include <stdio.h>
#include <string.h>

#include "oracle/verdict.h"

pbc_report_verdict pbc_report_get_verdict(const pbc_report *r)
{
    if (r->interrupted || pbc_report_incomplete_reason(r))
        return PBC_REPORT_INCOMPLETE;
    int expired = r->waivers && r->waivers->expired;
    return r->failed == 0 && r->harness_bugs == 0 && !expired ? PBC_REPORT_CONFORMANT : PBC_REPORT_NOT_CONFORMANT;
}

const char *pbc_report_incomplete_reason(const pbc_report *r)
{
    if (r->interrupted)
        return "interrupted";
    if (r->failed || r->harness_bugs)
        return NULL; /* something was judged, and failed: NOT CONFORMANT */
    if (r->passed == 0) /* waived failures alone certify nothing */
        return "no case was judged";
    if (r->unaccounted)
        return "not every planned case has a verdict";
    if (r->narrowed && !(r->waivers && r->waivers->expired)) /* an expired waiver fails the run */
        return "--cases ran part of the suite";
    return NULL;
}

const char *pbc_report_verdict_text(pbc_report_verdict v)
{
    return v == PBC_REPORT_CONFORMANT ? "CONFORMANT" : v == PBC_REPORT_NOT_CONFORMANT ? "NOT CONFORMANT"
                                                                                     : "INCOMPLETE";
}

void pbc_report_tally(pbc_report *r, pbc_report_case *cases)
{
    r->passed = r->failed = r->skipped = r->harness_bugs = r->waived = r->isolated = 0;
    memset(r->rule_hits, 0, sizeof(r->rule_hits));
    for (uint32_t i = 0; r->waivers && i < r->waivers->count; i++)
        r->waivers->items[i].matched = 0;
    for (uint32_t i = 0; i < r->case_count; i++) {
        pbc_report_case *c = &cases[i];
        pbc_waiver *w;
        c->waiver = NULL;
        r->isolated += c->isolation != NULL;
        if (c->verdict == PBC_VERDICT_PASS) {
            r->passed++;
        } else if (c->verdict == PBC_VERDICT_SKIP) {
            r->skipped++;
        } else if (c->verdict == PBC_VERDICT_HARNESS_BUG) {
            r->harness_bugs++; /* pbcheck's own failure: never waived */
        } else if ((w = pbc_waivers_match(r->waivers, c->name, c->rule ? c->rule : ""))) {
            w->matched++;
            c->waiver = w;
            r->waived++;
        } else {
            r->failed++;
            int rule = c->rule ? pbc_rule_lookup(c->rule) : -1;
            if (rule >= 0)
                r->rule_hits[rule]++;
        }
    }
}

const char *pbc_report_decoder_line(const pbc_report_provenance *p, char *buf, size_t size)
{
    if (!p->decoder.known)
        return NULL;
    const char *where = !p->decoder.process                   ? "?"
                        : !strcmp(p->decoder.process, "own")    ? "in a decoder process of its own"
                        : !strcmp(p->decoder.process, "worker") ? "in the worker, beside the builder"
                                                                : "in pbcheck's process";
    char purity[320] = "";
    if (p->decoder.audited && p->decoder.pure)
        snprintf(purity, sizeof(purity), "; purity: %u of %u answers asked again in a fresh decoder process, the same",
                 p->decoder.asked_again, p->decoder.recorded);
    else if (p->decoder.audited)
        snprintf(purity, sizeof(purity), "; purity: NOT A PURE FUNCTION (%u answers asked again)",
                 p->decoder.asked_again);
    snprintf(buf, size, "%s: decode%s%s; %u-byte page-table entries, %u levels; %s%s", p->decoder.isa,
             p->decoder.hooks & PBC_REPORT_HOOK_DISASM ? ", disasm" : "",
             p->decoder.hooks & PBC_REPORT_HOOK_PTE_DECODE ? ", pte_decode" : "", p->decoder.pte_size,
             p->decoder.pt_levels, where, purity);
    return buf;
}
