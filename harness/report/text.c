/*
 * Text that leaves pbcheck for another program: a report parser (jansson
 * refuses invalid UTF-8, an XML parser refuses control characters) or a
 * shell (a replay command must name the same file when pasted, whatever
 * bytes its path holds). Paths come from the user and may hold anything.
 */
#include "report/text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* Length of the valid UTF-8 sequence at s (1 to 4) and its code point,
 * or 0 when s does not start one. */
static size_t utf8_decode(const unsigned char *s, uint32_t *cp)
{
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    }
    size_t len;
    uint32_t min;
    if ((s[0] & 0xE0) == 0xC0) {
        len = 2, min = 0x80, *cp = s[0] & 0x1F;
    } else if ((s[0] & 0xF0) == 0xE0) {
        len = 3, min = 0x800, *cp = s[0] & 0x0F;
    } else if ((s[0] & 0xF8) == 0xF0) {
        len = 4, min = 0x10000, *cp = s[0] & 0x07;
    } else {
        return 0;
    }
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) /* also stops at the terminating NUL */
            return 0;
        *cp = *cp << 6 | (s[i] & 0x3F);
    }
    if (*cp < min || *cp > 0x10FFFF || (*cp >= 0xD800 && *cp <= 0xDFFF))
        return 0;
    return len;
}

static int xml_allowed(uint32_t cp)
{
    if (cp < 0x20)
        return cp == '\t' || cp == '\n' || cp == '\r';
    return cp != 0xFFFE && cp != 0xFFFF;
}

/* The character reference for a character that means markup in HTML,
 * else NULL. The quotes too, so text is safe inside either kind of
 * quoted attribute value. */
static const char *html_reference(uint32_t cp)
{
    switch (cp) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '"': return "&quot;";
    case '\'': return "&#39;";
    default: return NULL;
    }
}

char *pbc_report_text(const char *s, pbc_report_text_mode mode)
{
    static const char replacement[] = "\xEF\xBF\xBD"; /* U+FFFD */
    size_t in_len = strlen(s);
    /* Each input byte becomes at most the three bytes of U+FFFD, or the
     * six of "&quot;". */
    char *out = pbc_xmalloc(in_len * (mode == PBC_REPORT_TEXT_HTML ? 6 : 3) + 1);
    size_t o = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        uint32_t cp;
        size_t len = utf8_decode(p, &cp);
        const char *ref = mode == PBC_REPORT_TEXT_HTML && len ? html_reference(cp) : NULL;
        if (ref) {
            memcpy(out + o, ref, strlen(ref));
            o += strlen(ref);
            p += len;
        } else if (len && (mode == PBC_REPORT_TEXT_UTF8 || xml_allowed(cp))) {
            memcpy(out + o, p, len);
            o += len;
            p += len;
        } else {
            memcpy(out + o, replacement, 3);
            o += 3;
            p += len ? len : 1;
        }
    }
    out[o] = 0;
    return out;
}

/* Characters that mean nothing to a shell, in any position: a string of
 * only these needs no quotes (and stays greppable in logs and tests). */
static int shell_plain(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           strchr("@%+=:,./_-", c) != NULL;
}

typedef struct quote_buf {
    char *s;
    size_t len, cap;
    int state; /* 0 outside quotes, 1 inside '...', 2 inside $'...' */
} quote_buf;

static void qb_put(quote_buf *b, const char *text, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->s = pbc_xrealloc(b->s, b->cap);
    }
    memcpy(b->s + b->len, text, n);
    b->len += n;
    b->s[b->len] = 0;
}

static void qb_state(quote_buf *b, int state)
{
    if (b->state == state)
        return;
    if (b->state)
        qb_put(b, "'", 1);
    if (state)
        qb_put(b, state == 1 ? "'" : "$'", state == 1 ? 1 : 2);
    b->state = state;
}

char *pbc_report_shell_quote(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (p[i] && shell_plain(p[i]))
        i++;
    if (i > 0 && !p[i])
        return pbc_xstrdup(s);
    quote_buf b = {0};
    qb_put(&b, "", 0);
    if (!*p)
        qb_put(&b, "''", 2);
    while (*p) {
        uint32_t cp;
        size_t len = utf8_decode(p, &cp);
        if (*p == '\'') {
            /* A quote cannot appear inside '...': close, escape, reopen. */
            qb_state(&b, 0);
            qb_put(&b, "\\'", 2);
            p++;
        } else if (len && cp >= 0x20 && cp != 0x7F) {
            qb_state(&b, 1);
            qb_put(&b, (const char *)p, len);
            p += len;
        } else {
            /* A control character or a byte that is not UTF-8: spelled in
             * octal so the command stays on one line and valid text. */
            char oct[5] = {'\\', (char)('0' + (*p >> 6)), (char)('0' + ((*p >> 3) & 7)),
                           (char)('0' + (*p & 7)), 0};
            qb_state(&b, 2);
            qb_put(&b, oct, 4);
            p++;
        }
    }
    qb_state(&b, 0);
    return b.s;
}

char *pbc_report_url_path(const char *s)
{
    static const char hexdigits[] = "0123456789ABCDEF";
    char *out = pbc_xmalloc(strlen(s) * 3 + 1);
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("-._~/", *p)) {
            out[o++] = (char)*p;
        } else {
            out[o++] = '%';
            out[o++] = hexdigits[*p >> 4];
            out[o++] = hexdigits[*p & 15];
        }
    }
    out[o] = 0;
    return out;
}

char *pbc_report_shell_command(const char *const *argv)
{
    char *cmd = pbc_xstrdup("");
    for (size_t i = 0; argv[i]; i++) {
        char *q = pbc_report_shell_quote(argv[i]);
        char *next = pbc_xprintf("%s%s%s", cmd, i ? " " : "", q);
        free(q);
        free(cmd);
        cmd = next;
    }
    return cmd;
}
