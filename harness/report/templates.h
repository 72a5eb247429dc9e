/*
 * templates.h — the report templates under reports/ in the source tree,
 * compiled into pbcheck (cmake/embed.cmake) so an installed pbcheck writes
 * index.html and triage.html without its sources. Each is NUL-terminated
 * text.
 */
#ifndef PBCHECK_REPORT_TEMPLATES_H
#define PBCHECK_REPORT_TEMPLATES_H

extern const unsigned char pbc_report_template_html[]; /* reports/template.html */
extern const unsigned char pbc_report_template_css[]; /* reports/report.css */
extern const unsigned char pbc_report_template_triage_html[]; /* reports/triage.html */

#endif
