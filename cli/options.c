/*
 * The option toolkit every verb uses: a table of options per verb, parsed
 * with getopt_long and printed as --help from the same table, so that the
 * accepted spellings (--opt value, --opt=value, "--"), the number syntax
 * and the error wording are the same everywhere and --help cannot drift
 * from what is parsed.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "cli.h"

int pbc_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("pbcheck: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return PBC_EXIT_USAGE;
}

/* Optimal string alignment distance (a swap of two neighbours counts
 * one), over the first 63 bytes of each. */
static unsigned edit_distance(const char *a, const char *b)
{
    enum { MAX = 64 };
    size_t n = strnlen(a, MAX - 1), m = strnlen(b, MAX - 1);
    unsigned d[MAX][MAX];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = (unsigned)i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = (unsigned)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            unsigned cost = a[i - 1] != b[j - 1], best = d[i - 1][j - 1] + cost;
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

const char *pbc_cli_suggest(const char *word, const char *const *candidates, size_t count)
{
    const char *best = NULL;
    unsigned best_d = ~0u, limit = (unsigned)(strlen(word) / 3 + 1);
    for (size_t i = 0; i < count; i++) {
        unsigned d = edit_distance(word, candidates[i]);
        if (d < best_d) {
            best_d = d;
            best = candidates[i];
        }
    }
    return best_d <= limit ? best : NULL;
}

int pbc_cli_bad_value(const char *verb, const char *option, const char *needs, const char *value)
{
    if (value)
        fprintf(stderr, "pbcheck: %s: --%s needs %s, got '%s'\n", verb, option, needs, value);
    else
        fprintf(stderr, "pbcheck: %s: --%s needs %s, got nothing\n", verb, option, needs);
    return PBC_EXIT_USAGE;
}

int pbc_cli_path_fits(const char *verb, const char *option, const char *path, size_t room)
{
    size_t len = strlen(path);
    if (len + room < PATH_MAX)
        return 0;
    return pbc_usage_error("%s: --%s is %zu bytes long; paths made under it would pass the system's limit "
                           "of %d bytes: give one of at most %zu bytes",
                           verb, option, len, PATH_MAX, (size_t)PATH_MAX - room - 1);
}

int pbc_cli_number(const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
    /* By hand rather than strtoull: base 0 reads "010" as eight, and
     * strtoull accepts signs and spaces and saturates on overflow. */
    const char *p = text;
    uint64_t v = 0;
    if (*p < '0' || *p > '9')
        return -1;
    for (; *p >= '0' && *p <= '9'; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    unsigned shift = *p == 'K' ? 10 : *p == 'M' ? 20 : *p == 'G' ? 30 : 0;
    if (shift) {
        if (v > UINT64_MAX >> shift)
            return -1;
        v <<= shift;
        p++;
    }
    if (*p || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

/* Decimal seconds, "1", "2.5": no exponents, hex floats, inf or nan. */
static int parse_seconds(const char *text, uint64_t min, uint64_t max, double *out)
{
    const char *p = text;
    size_t digits = strspn(p, "0123456789");
    if (!digits || digits > 12)
        return -1;
    p += digits;
    if (*p == '.') {
        size_t frac = strspn(p + 1, "0123456789");
        if (!frac)
            return -1;
        p += 1 + frac;
    }
    if (*p)
        return -1;
    double v = strtod(text, NULL);
    if (!(v >= (double)min && v <= (double)max))
        return -1;
    *out = v;
    return 0;
}

static void format_bound(const pbc_opt *o, uint64_t v, char *out, size_t n)
{
    static const char suffix[] = "GMK";
    for (int i = 0; o->kind == PBC_OPT_SIZE && v && i < 3; i++) {
        unsigned shift = 30 - 10 * (unsigned)i;
        if (v % (1ull << shift) == 0) {
            snprintf(out, n, "%llu%c", (unsigned long long)(v >> shift), suffix[i]);
            return;
        }
    }
    snprintf(out, n, "%llu", (unsigned long long)v);
}

/* What the option needs, with its range: "a size between 1 and 1M". */
static void needs_text(const pbc_opt *o, char *out, size_t n)
{
    if (o->kind == PBC_OPT_STRING || o->kind == PBC_OPT_FLAG) {
        snprintf(out, n, "%s", o->needs);
        return;
    }
    char lo[32], hi[32];
    format_bound(o, o->min, lo, sizeof(lo));
    format_bound(o, o->max, hi, sizeof(hi));
    snprintf(out, n, "%s between %s and %s", o->needs, lo, hi);
}

static int store(const char *verb, const pbc_opt *o, const char *value)
{
    char needs[160];
    switch (o->kind) {
    case PBC_OPT_FLAG:
        *(int *)o->dest = 1;
        return 0;
    case PBC_OPT_STRING:
        *(const char **)o->dest = value;
        return 0;
    case PBC_OPT_NUMBER:
    case PBC_OPT_SIZE:
        if (pbc_cli_number(value, o->min, o->max, (uint64_t *)o->dest) == 0)
            return 0;
        break;
    case PBC_OPT_SECONDS:
        if (parse_seconds(value, o->min, o->max, (double *)o->dest) == 0)
            return 0;
        break;
    }
    needs_text(o, needs, sizeof(needs));
    return pbc_cli_bad_value(verb, o->name, needs, value);
}

void pbc_cli_args_fini(pbc_cli_args *a)
{
    free(a->pos);
    memset(a, 0, sizeof(*a));
}

/* Option ids for getopt_long, clear of every character. */
#define OPT_BASE 256

int pbc_cli_parse(const pbc_verb_spec *v, int argc, char **argv, pbc_cli_args *out)
{
    size_t n = 0;
    while (v->opts && v->opts[n].name)
        n++;
    struct option *longs = pbc_xcalloc(n + 2, sizeof(*longs));
    for (size_t i = 0; i < n; i++)
        longs[i] = (struct option){v->opts[i].name, v->opts[i].kind == PBC_OPT_FLAG ? no_argument : required_argument,
                                   NULL, OPT_BASE + (int)i};
    longs[n] = (struct option){"help", no_argument, NULL, 'h'};
    out->pos = pbc_xcalloc((size_t)argc + 1, sizeof(*out->pos));
    out->count = 0;
    /* "-": positional arguments come back in order as 1, whatever
     * POSIXLY_CORRECT says; ":": a missing value is reported as ':'. */
    const char *shorts = "-:h";
    int rc = PBC_CLI_GO;
    opterr = 0;
    optind = 0; /* glibc: start afresh, also after an earlier parse */
    for (int c; rc == PBC_CLI_GO && (c = getopt_long(argc, argv, shorts, longs, NULL)) != -1;) {
        if (c == 1) {
            out->pos[out->count++] = optarg;
        } else if (c == 'h') {
            pbc_cli_help(v, stdout);
            rc = PBC_EXIT_PASS;
        } else if (c >= OPT_BASE) {
            if (store(v->name, &v->opts[c - OPT_BASE], optarg))
                rc = PBC_EXIT_USAGE;
        } else if (c == ':' && optopt >= OPT_BASE) {
            const pbc_opt *o = &v->opts[optopt - OPT_BASE];
            char needs[160];
            needs_text(o, needs, sizeof(needs));
            rc = pbc_cli_bad_value(v->name, o->name, needs, NULL);
        } else if (optopt >= OPT_BASE) { /* "--flag=value" */
            rc = pbc_usage_error("%s: --%s takes no value, got '%s'", v->name, v->opts[optopt - OPT_BASE].name,
                                 argv[optind - 1]);
        } else {
            const char *given = optopt > 0 && optopt < OPT_BASE ? (char[]){'-', (char)optopt, 0} : argv[optind - 1];
            const char *names[64];
            size_t k = 0;
            for (size_t i = 0; i < n && k < 63; i++)
                if (!v->opts[i].hidden)
                    names[k++] = v->opts[i].name;
            names[k++] = "help";
            char word[64];
            snprintf(word, sizeof(word), "%.*s", (int)strcspn(given + strspn(given, "-"), "="),
                     given + strspn(given, "-"));
            const char *near = pbc_cli_suggest(word, names, k);
            if (near)
                rc = pbc_usage_error("%s: unknown option '%s'; did you mean '--%s'? (try 'pbcheck %s --help')",
                                     v->name, given, near, v->name);
            else
                rc = pbc_usage_error("%s: unknown option '%s' (try 'pbcheck %s --help')", v->name, given, v->name);
        }
    }
    /* After "--", everything is positional. */
    while (rc == PBC_CLI_GO && optind < argc)
        out->pos[out->count++] = argv[optind++];
    free(longs);
    if (rc != PBC_CLI_GO)
        pbc_cli_args_fini(out);
    return rc;
}

pbc_report_option *pbc_cli_option_values(const pbc_opt *opts, uint32_t *count)
{
    uint32_t n = 0;
    while (opts[n].name)
        n++;
    pbc_report_option *v = pbc_xcalloc(n ? n : 1, sizeof(*v));
    for (uint32_t i = 0; i < n; i++) {
        const pbc_opt *o = &opts[i];
        v[i].name = o->name;
        switch (o->kind) {
        case PBC_OPT_FLAG:
            v[i].kind = PBC_REPORT_OPT_FLAG;
            v[i].value = pbc_xstrdup(*(int *)o->dest ? "1" : "0");
            break;
        case PBC_OPT_STRING:
            v[i].kind = PBC_REPORT_OPT_TEXT;
            v[i].value = *(const char **)o->dest ? pbc_xstrdup(*(const char **)o->dest) : NULL;
            break;
        case PBC_OPT_NUMBER:
        case PBC_OPT_SIZE:
            v[i].kind = PBC_REPORT_OPT_NUMBER;
            v[i].value = pbc_xprintf("%llu", (unsigned long long)*(uint64_t *)o->dest);
            break;
        case PBC_OPT_SECONDS:
            v[i].kind = PBC_REPORT_OPT_NUMBER;
            v[i].value = pbc_xprintf("%g", *(double *)o->dest);
            break;
        }
    }
    *count = n;
    return v;
}

void pbc_cli_option_values_free(pbc_report_option *values, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++)
        free((char *)values[i].value);
    free(values);
}

/* Prints text, indenting every line after the first by indent columns. */
static void print_indented(FILE *f, const char *text, int indent)
{
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, "\n");
        fprintf(f, "%.*s\n", (int)len, p);
        p += len;
        if (*p == '\n' && *++p)
            fprintf(f, "%*s", indent, "");
    }
}

void pbc_cli_help(const pbc_verb_spec *v, FILE *f)
{
    enum { COL = 22 };
    fprintf(f, "usage: pbcheck %s %s\n\n", v->name, v->synopsis);
    print_indented(f, v->about, 0);
    fprintf(f, "\noptions:\n");
    for (const pbc_opt *o = v->opts; o && o->name; o++) {
        if (o->hidden)
            continue;
        char left[64];
        snprintf(left, sizeof(left), "--%s%s%s", o->name, o->value ? " " : "", o->value ? o->value : "");
        fprintf(f, "  %-*s", COL - 2, left);
        if ((int)strlen(left) > COL - 3)
            fprintf(f, "\n%*s", COL, "");
        print_indented(f, o->help, COL);
        fprintf(f, "%*s(default: %s)\n", COL, "", o->def);
    }
    fprintf(f, "  %-*s%s\n", COL - 2, "-h, --help", "print this help and exit");
    fprintf(f, "\nOptions go before or after the other arguments, as --opt VALUE or\n"
               "--opt=VALUE; '--' ends them. Numbers are decimal (010 is ten); a K, M\n"
               "or G suffix multiplies by 1024, 1024^2 or 1024^3.\n");
    fprintf(f, "\nexample:\n  %s\n", v->example);
    if (v->footer) {
        fputc('\n', f);
        print_indented(f, v->footer, 0);
    }
}

int pbc_cli_parse_options_only(const pbc_verb_spec *v, int argc, char **argv)
{
    pbc_cli_args args;
    int rc = pbc_cli_parse(v, argc, argv, &args);
    if (rc != PBC_CLI_GO)
        return rc;
    int extra = args.count;
    char first[256] = "";
    if (extra)
        snprintf(first, sizeof(first), "%s", args.pos[0]);
    pbc_cli_args_fini(&args);
    if (extra)
        return pbc_usage_error("%s: unexpected '%s' (try 'pbcheck %s --help')", v->name, first, v->name);
    return PBC_CLI_GO;
}
