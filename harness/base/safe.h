/*
 * safe.h — strings that came from a builder (its names, messages, output,
 * paths it printed), made safe before they reach a terminal, a file name
 * or a report: nothing a builder says can move the cursor, hide a line,
 * forge one of pbcheck's own lines or name a folder outside the one it is
 * meant for.
 */
#ifndef PBCHECK_SAFE_H
#define PBCHECK_SAFE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Keep newlines (multi-line messages, logs); otherwise one line. */
#define PBC_SAFE_LINES 1u

/* s with every byte that is not printable ASCII (and not a newline under
 * PBC_SAFE_LINES) written visibly as \xHH, and a backslash as \\ (so an
 * escape in s cannot pass for one of ours). Owned; NULL for NULL. */
char *pbc_safe_text(const char *s, unsigned flags);

/* pbc_safe_text of s (one line) usable as one path component: '/' and
 * '\' become '_', no ".." remains, and "", "." become "_". Owned. */
char *pbc_safe_component(const char *s);

/* Whether s is already what pbc_safe_text(s, flags) would make it. */
int pbc_safe_is_text(const char *s, unsigned flags);

#ifdef __cplusplus
}
#endif

#endif
