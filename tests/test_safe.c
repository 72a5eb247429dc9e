/* Builder strings made safe (base/safe.h): nothing unprintable passes,
 * nothing passes for one of pbcheck's own escapes, and a name used as a
 * folder is one folder under its parent. */
#include <stdlib.h>
#include <string.h>

#include "base/safe.h"
#include "t.h"

static int same(char *got, const char *want)
{
    int ok = got && !strcmp(got, want);
    if (!ok)
        fprintf(stderr, "  got '%s', want '%s'\n", got ? got : "(null)", want);
    free(got);
    return ok;
}

T_TEST(text_escapes_what_a_terminal_would_act_on)
{
    T_CHECK(same(pbc_safe_text("plain name 1.0", 0), "plain name 1.0"));
    T_CHECK(same(pbc_safe_text("a\n\x1b[8mverdict: CONFORMANT", 0), "a\\x0a\\x1b[8mverdict: CONFORMANT"));
    T_CHECK(same(pbc_safe_text("line\nnext\r", PBC_SAFE_LINES), "line\nnext\\x0d"));
    T_CHECK(same(pbc_safe_text("\\x41 \xc3\xa9\t", 0), "\\\\x41 \\xc3\\xa9\\x09"));
    T_CHECK(pbc_safe_text(NULL, 0) == NULL);
    T_CHECK(pbc_safe_is_text("ok line", 0) && !pbc_safe_is_text("two\nlines", 0) &&
            pbc_safe_is_text("two\nlines", PBC_SAFE_LINES) && !pbc_safe_is_text("\\", 0));
}

T_TEST(a_component_is_one_folder_below)
{
    T_CHECK(same(pbc_safe_component("../../x"), ".__.__x"));
    T_CHECK(same(pbc_safe_component(".."), "._"));
    T_CHECK(same(pbc_safe_component("."), "_"));
    T_CHECK(same(pbc_safe_component(""), "_"));
    T_CHECK(same(pbc_safe_component("a/b\\c"), "a_b__c")); /* "\\" escaped first: "\\\\" */
    T_CHECK(same(pbc_safe_component("x\n"), "x_x0a"));
    T_CHECK(same(pbc_safe_component("v1.2...3"), "v1.2._.3"));
}

T_MAIN()
