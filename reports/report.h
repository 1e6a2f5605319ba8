/*
 * Report writers for `tracecheck validate`: findings stream in as they are
 * made, input by input, and the writer turns them into one report format.
 */
#ifndef TC_REPORT_H
#define TC_REPORT_H

#include <stdio.h>

#include "tracecheck/tracecheck.h"

typedef enum tc_report_kind {
    TC_REPORT_TEXT,
    TC_REPORT_JSON,
    TC_REPORT__COUNT
} tc_report_kind;

/* "text", "json", ...; TC_REPORT__COUNT if unknown. */
tc_report_kind tc_report_kind_from_name(const char *name);
const char *tc_report_kind_name(tc_report_kind k);

/* Status of one input: what tc_validate_file returned. */
enum { TC_INPUT_VALID = 0, TC_INPUT_INVALID = 1, TC_INPUT_UNREADABLE = 2 };

typedef struct tc_report_totals {
    uint64_t inputs, valid, invalid, unreadable;
    uint64_t errors, warnings, notes, bytes;
    double seconds;
} tc_report_totals;

typedef struct tc_report_opts {
    int color;             /* text: ANSI colours */
    const char *command;   /* the command line, for reports that record it */
} tc_report_opts;

typedef struct tc_report_writer tc_report_writer;
struct tc_report_writer {
    void (*input_begin)(tc_report_writer *w, const char *path);
    void (*diag)(tc_report_writer *w, const tc_diag *d);
    void (*input_end)(tc_report_writer *w, const char *path, int status, const tc_summary *s,
                      const char *error);
    void (*close)(tc_report_writer *w, const tc_report_totals *t);
    FILE *out;
    tc_report_opts opts;
};

tc_report_writer *tc_report_open(tc_report_kind kind, FILE *out, const tc_report_opts *opts);

/* The findings callback for tc_options.on_diag: user is the writer. */
void tc_report_on_diag(void *writer, const tc_diag *d);

const char *tc_severity_name(tc_severity s);

#endif
