/*
 * The waivers file. One waiver a line, four fields separated by blanks:
 * a glob over case names, a rule id or '*', the last day it applies and a
 * reason (the rest of the line). A file that is wrong in any way stops
 * certify before the suite runs, with the line and column: a waiver that
 * silently covers nothing would hide what it was written for.
 */
#include "certify/waivers.h"

#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fs.h"
#include "base/util.h"
#include "rules/rules.h"

#define WAIVERS_MAX_BYTES (1u << 20)

static int parse_error(char *err, size_t err_size, const char *name, uint32_t line, size_t col,
                       const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static int parse_error(char *err, size_t err_size, const char *name, uint32_t line, size_t col,
                       const char *fmt, ...)
{
    if (err && err_size) {
        char what[320];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof(what), fmt, ap);
        va_end(ap);
        snprintf(err, err_size, "%s:%u:%zu: %s", name, line, col, what);
    }
    return -1;
}

static int is_blank(char c) { return c == ' ' || c == '\t'; }

/* The field starting at *p (blanks before it skipped); its length, 0 at
 * the end of the line. */
static size_t field(const char **p, const char *end)
{
    while (*p < end && is_blank(**p))
        (*p)++;
    size_t n = 0;
    while (*p + n < end && !is_blank((*p)[n]))
        n++;
    return n;
}

static int leap(unsigned y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

/* Whether s (n bytes) is a real date written YYYY-MM-DD. */
static int valid_date(const char *s, size_t n)
{
    if (n != 10 || s[4] != '-' || s[7] != '-')
        return 0;
    for (size_t i = 0; i < 10; i++)
        if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
            return 0;
    unsigned y = (unsigned)atoi(s), m = (unsigned)atoi(s + 5), d = (unsigned)atoi(s + 8);
    static const unsigned days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m < 1 || m > 12 || d < 1)
        return 0;
    return d <= days[m - 1] + (m == 2 && leap(y));
}

static char *dup_n(const char *s, size_t n)
{
    char *d = pbc_xmalloc(n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

int pbc_waivers_parse(const char *text, size_t len, const char *name, time_t now, pbc_waivers *out,
                      char *err, size_t err_size)
{
    memset(out, 0, sizeof(*out));
    out->path = pbc_xstrdup(name);
    char today[16];
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(today, sizeof(today), "%Y-%m-%d", &tm);
    const char *end_all = text + len;
    uint32_t line = 0;
    for (const char *p = text; p < end_all;) {
        line++;
        const char *start = p;
        const char *end = memchr(p, '\n', (size_t)(end_all - p));
        if (!end)
            end = end_all;
        p = end < end_all ? end + 1 : end;
        if (end > start && end[-1] == '\r')
            end--;
        const char *nul = memchr(start, 0, (size_t)(end - start));
        if (nul) {
            pbc_waivers_fini(out);
            return parse_error(err, err_size, name, line, (size_t)(nul - start) + 1, "a NUL byte");
        }
        const char *q = start;
        size_t n = field(&q, end);
        if (n == 0 || q[0] == '#')
            continue;
        pbc_waiver w = {0};
        const char *pattern = q;
        size_t pattern_len = n;
        q += n;
        n = field(&q, end);
        const char *rule = q;
        int bad = 0;
        if (n == 0) {
            bad = parse_error(err, err_size, name, line, (size_t)(q - start) + 1,
                              "expected a rule id or '*' after the case pattern");
        } else {
            char *id = dup_n(rule, n);
            if (strcmp(id, "*") && pbc_rule_lookup(id) < 0)
                bad = parse_error(err, err_size, name, line, (size_t)(rule - start) + 1,
                                  "unknown rule '%.200s' (see 'pbcheck list rules')", id);
            free(id);
        }
        size_t rule_len = n;
        q += n;
        n = bad ? 0 : field(&q, end);
        const char *date = q;
        if (!bad && n == 0)
            bad = parse_error(err, err_size, name, line, (size_t)(q - start) + 1,
                              "expected the expiry date (YYYY-MM-DD) after the rule");
        else if (!bad && !valid_date(date, n)) {
            char *d = dup_n(date, n);
            bad = parse_error(err, err_size, name, line, (size_t)(date - start) + 1,
                              "'%.200s' is not an expiry date: write YYYY-MM-DD", d);
            free(d);
        }
        q += n;
        while (!bad && q < end && is_blank(*q))
            q++;
        if (!bad && q == end)
            bad = parse_error(err, err_size, name, line, (size_t)(q - start) + 1,
                              "expected the reason after the expiry date");
        if (bad) {
            pbc_waivers_fini(out);
            return -1;
        }
        size_t reason_len = (size_t)(end - q);
        while (reason_len && is_blank(q[reason_len - 1]))
            reason_len--;
        w.pattern = dup_n(pattern, pattern_len);
        w.rule = dup_n(rule, rule_len);
        memcpy(w.expires, date, 10);
        w.expires[10] = 0;
        w.reason = dup_n(q, reason_len);
        w.where = pbc_xprintf("%s:%u", name, line);
        w.expired = strcmp(w.expires, today) < 0;
        out->expired += (uint32_t)w.expired;
        PBC_PUSH(out->items, out->count, out->cap, w);
    }
    return 0;
}

int pbc_waivers_load(const char *path, time_t now, pbc_waivers *out, char *err, size_t err_size)
{
    char *text;
    size_t len;
    memset(out, 0, sizeof(*out));
    if (pbc_fs_read(path, WAIVERS_MAX_BYTES, &text, &len, err, err_size))
        return -2;
    int rc = pbc_waivers_parse(text, len, path, now, out, err, err_size);
    free(text);
    return rc;
}

void pbc_waivers_fini(pbc_waivers *w)
{
    for (uint32_t i = 0; i < w->count; i++) {
        free(w->items[i].pattern);
        free(w->items[i].rule);
        free(w->items[i].reason);
        free(w->items[i].where);
    }
    free(w->items);
    free(w->path);
    memset(w, 0, sizeof(*w));
}

pbc_waiver *pbc_waivers_match(const pbc_waivers *w, const char *case_name, const char *rule)
{
    for (uint32_t i = 0; w && i < w->count; i++) {
        pbc_waiver *v = &w->items[i];
        if (v->expired || (strcmp(v->rule, "*") && strcmp(v->rule, rule)))
            continue;
        if (fnmatch(v->pattern, case_name, 0) == 0)
            return v;
    }
    return NULL;
}
