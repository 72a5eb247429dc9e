/*
 * triage_html.h — triage.html, the page for people beside a finished
 * triage's triage.json (docs/report-format.md), made from that JSON alone.
 */
#ifndef PBCHECK_TRIAGE_HTML_H
#define PBCHECK_TRIAGE_HTML_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Writes DIR/triage.html (atomically) from triage_json_text, the text of
 * the triage.json in dir, embedding each bucket's DIR/buckets/ID/repro.pbs
 * when it exists. Returns 0, or -1 with one line in err: JSON that is not
 * a pbcheck triage.json (version 1), or a page that cannot be written. */
int pbc_triage_write_html(const char *dir, const char *triage_json_text, char *err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif
