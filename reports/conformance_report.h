/*
 * Report writers of `tracecheck conformance` (one file each): a text summary,
 * JSON (versioned), TAP 14, JUnit XML, SARIF 2.1.0, and an HTML matrix that compares
 * several implementations. Each takes the finished run (the matrix: the runs,
 * one per implementation); every report names the suite version, since
 * results are only comparable at one.
 */
#ifndef TC_CONFORMANCE_REPORT_H
#define TC_CONFORMANCE_REPORT_H

#include <stdio.h>

#include "../conformance/runner/conformance.h"

typedef enum tc_conf_report_kind {
    TC_CONF_REPORT_TEXT,
    TC_CONF_REPORT_JSON,
    TC_CONF_REPORT_TAP,
    TC_CONF_REPORT_JUNIT,
    TC_CONF_REPORT_HTML,
    TC_CONF_REPORT_SARIF,
    TC_CONF_REPORT__COUNT
} tc_conf_report_kind;

/* "text", "json", "tap", "junit", "html", "sarif"; TC_CONF_REPORT__COUNT if
 * unknown. */
tc_conf_report_kind tc_conf_report_from_name(const char *name);
const char *tc_conf_report_name(tc_conf_report_kind k);
/* File name extension in --report-dir: "txt", "json", "tap", "xml", "html",
 * "sarif". */
const char *tc_conf_report_extension(tc_conf_report_kind k);

/* Writes one report. Returns 0, or -1 when writing failed. */
int tc_conf_report_write(tc_conf_report_kind k, FILE *out, const tc_conf_run *run);
/* The HTML matrix of n runs (one per implementation, over the same cases) in
 * column order. Returns 0, or -1 when writing failed. */
int tc_conf_report_write_matrix(FILE *out, const tc_conf_run *runs, size_t n);

void tc_conf_report_text(FILE *out, const tc_conf_run *run);
void tc_conf_report_json(FILE *out, const tc_conf_run *run);
void tc_conf_report_tap(FILE *out, const tc_conf_run *run);
void tc_conf_report_junit(FILE *out, const tc_conf_run *run);
void tc_conf_report_html(FILE *out, const tc_conf_run *runs, size_t n);
struct tc_gen_conf_run;
/* The matrix of the cases `conformance --generate` wrote, run again, with
 * the section of the generated run's classes (generate.h) above it. */
void tc_conf_report_html_generated(FILE *out, const tc_conf_run *runs, size_t n,
                                   const struct tc_gen_conf_run *gen);
void tc_conf_report_sarif(FILE *out, const tc_conf_run *run);

/* HTML text or attribute value, escaped (conformance_html.c). */
void tc_conf_html_text(FILE *out, const char *s);

/* The one-line summary ("98 cases: 96 pass, 0 fail, ...") the CLI prints. */
void tc_conf_report_summary_line(FILE *out, const tc_conf_run *run);

/* How the implementation is run, for the reports' headers. */
const char *tc_conf_report_impl_how(const tc_conf_impl *impl);

#endif
