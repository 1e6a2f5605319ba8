/*
 * Report writers of `tracecheck conformance` (one file each): a text summary,
 * JSON (versioned), TAP 14 and JUnit XML. Each takes the finished run; every
 * report names the suite version, since results are only comparable at one.
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
    TC_CONF_REPORT__COUNT
} tc_conf_report_kind;

/* "text", "json", "tap", "junit"; TC_CONF_REPORT__COUNT if unknown. */
tc_conf_report_kind tc_conf_report_from_name(const char *name);
const char *tc_conf_report_name(tc_conf_report_kind k);
/* File name extension in --report-dir: "txt", "json", "tap", "xml". */
const char *tc_conf_report_extension(tc_conf_report_kind k);

/* Writes one report. Returns 0, or -1 when writing failed. */
int tc_conf_report_write(tc_conf_report_kind k, FILE *out, const tc_conf_run *run);

void tc_conf_report_text(FILE *out, const tc_conf_run *run);
void tc_conf_report_json(FILE *out, const tc_conf_run *run);
void tc_conf_report_tap(FILE *out, const tc_conf_run *run);
void tc_conf_report_junit(FILE *out, const tc_conf_run *run);

/* The one-line summary ("98 cases: 96 pass, 0 fail, ...") the CLI prints. */
void tc_conf_report_summary_line(FILE *out, const tc_conf_run *run);

/* How the implementation is run, for the reports' headers. */
const char *tc_conf_report_impl_how(const tc_conf_impl *impl);

#endif
