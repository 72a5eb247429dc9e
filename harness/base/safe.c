/*
 * Builder strings made safe (safe.h). One place decides what a builder
 * may print, so that stdout, file names and every report escape alike:
 * a builder's name with ESC[8m and a newline in it shows as "\x1b[8m\x0a"
 * wherever it appears, and "../../x" names the folder ".__.__x", never
 * a parent.
 */
#include "base/safe.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static int keeps(unsigned char c, unsigned flags)
{
    return (c >= 0x20 && c < 0x7f && c != '\\') || (c == '\n' && (flags & PBC_SAFE_LINES));
}

char *pbc_safe_text(const char *s, unsigned flags)
{
    if (!s)
        return NULL;
    size_t n = 0;
    for (const unsigned char *c = (const unsigned char *)s; *c; c++)
        n += keeps(*c, flags) ? 1 : *c == '\\' ? 2 : 4;
    char *out = pbc_xmalloc(n + 1), *o = out;
    static const char hex[] = "0123456789abcdef";
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (keeps(*c, flags)) {
            *o++ = (char)*c;
        } else if (*c == '\\') {
            *o++ = '\\';
            *o++ = '\\';
        } else {
            *o++ = '\\';
            *o++ = 'x';
            *o++ = hex[*c >> 4];
            *o++ = hex[*c & 15];
        }
    }
    *o = 0;
    return out;
}

int pbc_safe_is_text(const char *s, unsigned flags)
{
    for (const unsigned char *c = (const unsigned char *)s; c && *c; c++)
        if (!keeps(*c, flags))
            return 0;
    return 1;
}

char *pbc_safe_component(const char *s)
{
    char *out = pbc_safe_text(s ? s : "", 0);
    /* The escapes' own backslashes go too: a name is never two components
     * on any system. */
    for (char *c = out; *c; c++) {
        if (*c == '/' || *c == '\\')
            *c = '_';
        else if (*c == '.' && c > out && c[-1] == '.')
            *c = '_'; /* ".." becomes "._" wherever it is */
    }
    if (!out[0] || !strcmp(out, ".")) {
        free(out);
        out = pbc_xstrdup("_");
    }
    return out;
}
