/*
 * Report writers for `tracecheck validate`: findings stream in as they are
 * made, input by input, and the writer turns them into one report format
 * (docs/reports.md). A report set sends the same stream to several writers
 * and keeps the per-rule summary that every report ends with; an input's
 * findings can also be buffered and replayed later, which is how
 * `validate -j N` keeps its reports in input order.
 */
#ifndef TC_REPORT_H
#define TC_REPORT_H

#include <stdio.h>

#include "tracecheck/tracecheck.h"

typedef enum tc_report_kind {
    TC_REPORT_TEXT,
    TC_REPORT_JSON,
    TC_REPORT_JUNIT,
    TC_REPORT_SARIF,
    TC_REPORT_TAP,
    TC_REPORT_MARKDOWN,
    TC_REPORT_HTML,
    TC_REPORT__COUNT
} tc_report_kind;

/* "text", "json", "junit", "sarif", "tap", "markdown", "html";
 * TC_REPORT__COUNT if unknown. */
tc_report_kind tc_report_kind_from_name(const char *name);
const char *tc_report_kind_name(tc_report_kind k);
/* File name extension in --report-dir: "txt", "json", "xml", "sarif", "tap",
 * "md", "html". */
const char *tc_report_kind_extension(tc_report_kind k);

/* Status of one input: what tc_validate_file returned. */
enum { TC_INPUT_VALID = 0, TC_INPUT_INVALID = 1, TC_INPUT_UNREADABLE = 2 };

/* ---- the per-rule summary ---- */

/* Locations kept per rule: enough to find the first few instances. */
#define TC_TALLY_LOCATIONS 3

typedef struct tc_rule_stat {
    const tc_rule_info *rule;
    uint64_t files;    /* inputs with at least one finding of the rule */
    uint64_t findings; /* findings, those held back by --max-repeats included */
    size_t nloc;
    char *loc[TC_TALLY_LOCATIONS]; /* "path:offset", "path:line:column" or "path" */
    uint64_t last_input;           /* ordinal of the last input counted in files */
} tc_rule_stat;

typedef struct tc_rule_tally {
    tc_rule_stat *stats; /* one per rule of the catalogue, in its order */
    uint64_t input;      /* ordinal of the current input, from 1 */
} tc_rule_tally;

int tc_rule_tally_init(tc_rule_tally *t); /* 0, or -1 when out of memory */
void tc_rule_tally_next_input(tc_rule_tally *t);
void tc_rule_tally_diag(tc_rule_tally *t, const tc_diag *d);
/* The rules with findings, most severe first, then by findings (most
 * first), then by id: a malloc'd array of *n pointers (NULL when none). */
const tc_rule_stat **tc_rule_tally_sorted(const tc_rule_tally *t, size_t *n);
void tc_rule_tally_free(tc_rule_tally *t);

/* Where a finding is, as the text report writes it: "path:offset",
 * "path:line:column" for text formats, "path" for one about the whole input. */
void tc_report_location(const tc_diag *d, char *buf, size_t size);

/* ---- writers ---- */

typedef struct tc_report_totals {
    uint64_t inputs, valid, invalid, unreadable;
    uint64_t errors, warnings, notes, bytes;
    double seconds;
    int exit_status;              /* what the program exits with (SARIF records it) */
    const tc_rule_tally *rules;   /* the per-rule summary, or NULL for none */
} tc_report_totals;

/* Findings above which the text report adds the per-rule summary by itself:
 * about a screenful, past which the finding lines scroll out of sight. */
#define TC_TEXT_SUMMARY_AUTO 20

/* A shard of a run (validate --shard K/N, docs/reports.md "Shards and
 * merging"): what the JSON report records so that `tracecheck report merge`
 * can join the shards into the reports of one run. */
typedef struct tc_report_shard {
    unsigned index, count;  /* K and N: 1 <= K <= N */
    uint64_t inputs;        /* inputs of the whole run, every shard's */
    uint64_t options;       /* FNV-1a 64 of the options that change findings */
    uint64_t paths;         /* FNV-1a 64 of the whole run's inputs, in order */
} tc_report_shard;

typedef struct tc_report_opts {
    int color;             /* text: ANSI colours */
    int quiet;             /* text: no finding lines, only the summaries */
    int rule_summary;      /* text: the per-rule summary; 0 auto (with quiet, or
                              when more than TC_TEXT_SUMMARY_AUTO findings), 1
                              always, -1 never */
    const char *command;   /* the command line, for reports that record it */
    const char *docs_uri;  /* SARIF, Markdown, HTML: base URI of the documentation that
                              rule links point into (NULL: the default) */
    const tc_report_shard *shard; /* JSON: the run is this shard (NULL: a whole run) */
} tc_report_opts;

/* The base URI of the documentation: opts->docs_uri, or the source tree this
 * program was built from (TC_DOCS_URI). */
const char *tc_report_docs_base(const tc_report_opts *opts);

/* A rule's documentation: BASE/docs/rules/PAGE.md#RULE-ID, cut to size
 * (a base URI longer than TC_REPORT_URI_MAX - 100 bytes is not a use case). */
#define TC_REPORT_URI_MAX 4096
void tc_report_rule_uri(const tc_report_opts *opts, const tc_rule_info *r, char *buf,
                        size_t size);

typedef struct tc_report_writer tc_report_writer;
struct tc_report_writer {
    void (*input_begin)(tc_report_writer *w, const char *path);
    void (*diag)(tc_report_writer *w, const tc_diag *d);
    void (*input_end)(tc_report_writer *w, const char *path, int status, const tc_summary *s,
                      const char *error);
    void (*close)(tc_report_writer *w, const tc_report_totals *t);
    FILE *out;
    tc_report_opts opts;
    uint64_t ordinal; /* the current input's place in the whole run, from 1 (shards) */
};

tc_report_writer *tc_report_open(tc_report_kind kind, FILE *out, const tc_report_opts *opts);

/* The findings callback for tc_options.on_diag: user is the writer. */
void tc_report_on_diag(void *writer, const tc_diag *d);

const char *tc_severity_name(tc_severity s);
/* "valid", "invalid" or "unreadable": an input's status (TC_INPUT_*). */
const char *tc_report_status_name(int status);

/* ---- one input's findings, kept for later ---- */

typedef struct tc_report_input {
    tc_diag *diags; /* copies (tc_diag_copy) */
    void **blocks;  /* what diags[i] points to, one allocation each */
    size_t count, cap;
    int oom;        /* a finding could not be kept */
} tc_report_input;

/* The tc_options.on_diag callback that keeps findings: user is the
 * tc_report_input. Safe to use from any thread, one input per thread. */
void tc_report_input_collect(void *input, const tc_diag *d);
void tc_report_input_free(tc_report_input *r);

/* ---- a set of writers fed together ---- */

typedef struct tc_report_set {
    tc_report_writer *w[TC_REPORT__COUNT + 1]; /* a kind may come twice: console and file */
    size_t n;
    tc_rule_tally tally;
    uint64_t ordinal; /* the next input's place in the whole run, from 1; 0: the
                         next in turn (only a shard's inputs skip places) */
} tc_report_set;

int tc_report_set_init(tc_report_set *s); /* 0, or -1 when out of memory */
/* Adds a writer of kind writing to out; -1 when it cannot be made. */
int tc_report_set_add(tc_report_set *s, tc_report_kind kind, FILE *out,
                      const tc_report_opts *opts);
void tc_report_set_begin(tc_report_set *s, const char *path);
void tc_report_set_diag(void *set, const tc_diag *d); /* an on_diag callback */
void tc_report_set_end(tc_report_set *s, const char *path, int status, const tc_summary *sum,
                       const char *error);
/* begin, every kept finding of r, end: the same as if they had streamed. */
void tc_report_set_replay(tc_report_set *s, const char *path, const tc_report_input *r,
                          int status, const tc_summary *sum, const char *error);
/* Closes every writer with t and the set's per-rule summary. */
void tc_report_set_close(tc_report_set *s, tc_report_totals *t);

#endif
