/*
 * text.h — making arbitrary bytes (paths the user typed, scenario names,
 * finding text) safe to put in a report or print as a command to paste.
 */
#ifndef PBCHECK_REPORT_TEXT_H
#define PBCHECK_REPORT_TEXT_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pbc_report_text_mode {
    PBC_REPORT_TEXT_UTF8, /* valid UTF-8: what jansson accepts */
    PBC_REPORT_TEXT_XML,  /* valid UTF-8 holding only XML 1.0 characters */
    PBC_REPORT_TEXT_HTML, /* XML's characters, with & < > " ' as character references:
                             safe as element content and as a quoted attribute value */
} pbc_report_text_mode;

/* An owned copy of s in which every byte that does not start a valid
 * UTF-8 sequence (bad lead byte, truncated or overlong sequence,
 * surrogate, above U+10FFFF) becomes U+FFFD. In XML mode, so do the
 * characters XML 1.0 forbids: C0 controls other than tab, newline and
 * carriage return, and U+FFFE, U+FFFF. HTML mode then escapes markup. */
char *pbc_report_text(const char *s, pbc_report_text_mode mode);

/* An owned copy of s quoted for bash (and zsh, ksh): unchanged if made
 * only of characters no shell treats specially, else in single quotes
 * with ' written '\'', and with control characters and bytes that are
 * not UTF-8 as $'\ooo' pieces, so the result is one line that names the
 * exact same bytes when pasted. */
char *pbc_report_shell_quote(const char *s);

/* An owned copy of s for a relative URL's path: bytes other than
 * letters, digits and "-._~/" percent-encoded. */
char *pbc_report_url_path(const char *s);

/* An owned command line: each argument shell-quoted, space-separated;
 * argv is NULL-terminated. */
char *pbc_report_shell_command(const char *const *argv);

#ifdef __cplusplus
}
#endif

#endif
