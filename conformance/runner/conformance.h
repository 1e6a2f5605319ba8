/*
 * The conformance runner: cases (conformance/cases/<group>/{y,n,i}_*), the
 * implementations that are run over them, and the results. See
 * docs/conformance.md for the case layout, the expectation schema and the
 * adapter contract.
 *
 * Data flows one way: cases are loaded and filtered, each selected case is run
 * in a child process (proc.h) by an implementation, the child's outcome is
 * judged against the case's expectation (judge.c), and the list of results
 * goes to the report writers (reports/conformance_report.h).
 */
#ifndef TC_CONFORMANCE_H
#define TC_CONFORMANCE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "../../parsers/common/error.h"
#include "tracecheck/tracecheck.h"

/* Bumped when the layout of the JSON report changes. */
/* 2: results out-of-scope and not-installed (once both "skip"); the
 * implementation's version and whether it is installed.
 * 3: the result broken, and the implementation's "broken" reason. */
#define TC_CONF_REPORT_VERSION 3
/* Bumped when the expectation schema (*.expect.json) changes. */
#define TC_CONF_EXPECT_VERSION 1

typedef enum tc_conf_class { TC_CONF_Y, TC_CONF_N, TC_CONF_I } tc_conf_class;

typedef enum tc_conf_verdict {
    TC_VERDICT_NONE = 0, /* no verdict: crashed, timed out, not run */
    TC_VERDICT_ACCEPT,
    TC_VERDICT_REJECT
} tc_conf_verdict;

typedef enum tc_conf_result_kind {
    TC_CONF_PASS,
    TC_CONF_FAIL,
    TC_CONF_CRASH,
    TC_CONF_TIMEOUT,
    TC_CONF_SKIP,          /* not run: deselected (--skip) */
    TC_CONF_OUT_OF_SCOPE,  /* not run: a case the implementation does not read (another
                            * format, a text container for a Nexus reader, ...) */
    TC_CONF_NOT_INSTALLED, /* not run: the tool was not found (on PATH, --tool-path or
                            * --impl NAME=PROGRAM) */
    TC_CONF_BROKEN,        /* not run: the tool could not run its preflight case (a
                            * broken installation); the reason says what it printed */
    TC_CONF_XFAIL, /* failed, and listed in the expected-failure list */
    TC_CONF_XPASS, /* passed, but listed in the expected-failure list */
    TC_CONF__RESULTS
} tc_conf_result_kind;

/* A set of rule ids: sorted by id, no repeats. */
typedef struct tc_conf_rules {
    const tc_rule_info **r;
    size_t n;
} tc_conf_rules;

typedef struct tc_conf_case {
    char *id;          /* "xray/n_xray_v5_extents_past_eof": group/name */
    char *name;        /* "n_xray_v5_extents_past_eof" */
    char *group;       /* the directory under cases/: "xray", "common" */
    char *input;       /* path of the input: a file, or a directory (a trace, a pair) */
    int input_is_dir;  /* the input is a directory: cases/<group>/<name>/ */
    char *expect_path; /* path of NAME.expect.json */
    char *dump_path;   /* path of NAME.dump.jsonl; NULL when the case has none */
    tc_conf_class cls;
    tc_format format;  /* TC_FORMAT_AUTO: detection is part of the case */
    tc_conf_verdict verdict;
    char *ruling;      /* where the verdict comes from (required for i_) */
    tc_conf_rules errors, warnings, notes;
    int pedantic;
    int has_first_error;
    const tc_rule_info *first_error_rule;
    uint64_t first_error_offset;
    char *first_error_file; /* directory cases: the file, relative to the case's directory */
    /* A pair case (a directory of a format that takes a companion, such as
     * cases/dcfg-pair/<name>/ of format dcfg-trace): the directory's
     * companion and input, validated together (pair.h). */
    char *pair_companion, *pair_input;
    /* "dump": false: the case has no dump by design (a chunk of 1.6e19
     * edges); tracecheck validates it without writing one. */
    int no_dump;
    char *description;
    char *source;      /* "generated: tracecheck gen ...", "hand-made: ...", "clang: ..." */
} tc_conf_case;

typedef struct tc_conf_suite {
    char *dir;      /* the cases directory */
    char *version;  /* of the suite: cases/VERSION */
    tc_conf_case *cases;
    size_t count;
} tc_conf_suite;

/* Loads every case under dir (sorted by id). Problems with the suite (a bad
 * expectation, a case without input) are printed to stderr as
 * "path: message"; returns the number of problems, 0 on success. */
int tc_conf_suite_load(tc_conf_suite *s, const char *dir);
void tc_conf_suite_free(tc_conf_suite *s);
const tc_conf_case *tc_conf_suite_find(const tc_conf_suite *s, const char *name);

const char *tc_conf_class_name(tc_conf_class c);       /* "y", "n", "i" */
const char *tc_conf_verdict_name(tc_conf_verdict v);   /* "accept", "reject", "none" */
const char *tc_conf_result_name(tc_conf_result_kind k); /* "pass", ..., "xpass" */
/* Skip, out of scope, not installed or broken: a case that was not run, which takes
 * no part in comparisons between implementations. */
int tc_conf_result_not_run(tc_conf_result_kind k);

/* Rule sets. */
int tc_conf_rules_add(tc_conf_rules *s, const tc_rule_info *r);
int tc_conf_rules_equal(const tc_conf_rules *a, const tc_conf_rules *b);
int tc_conf_rules_has(const tc_conf_rules *s, const tc_rule_info *r);
/* "A, B" into buf ("none" when empty). */
void tc_conf_rules_format(const tc_conf_rules *s, char *buf, size_t size);
void tc_conf_rules_free(tc_conf_rules *s);
/* Hands a set over: *to takes it, *from is left empty (an outcome's sets
 * go to a result, or to a case's expectation). */
void tc_conf_rules_move(tc_conf_rules *to, tc_conf_rules *from);

/* ---- expected-failure lists (conformance/xfail/<impl>.txt) ---- */

/* What a listed case is expected to do instead of passing. */
typedef enum tc_conf_xfail_kind {
    TC_XFAIL_FAIL,    /* a wrong verdict or output */
    TC_XFAIL_CRASH,   /* "@crash": no verdict, a signal or a stray exit status */
    TC_XFAIL_TIMEOUT, /* "@timeout": no verdict within the timeout */
    /* "@crash-or-pass": a crash, or a pass when the tool's stray read happens
     * to land in mapped memory (it depends on the address-space layout):
     * the crash is an expected failure, the pass stays a pass. */
    TC_XFAIL_CRASH_OR_PASS,
} tc_conf_xfail_kind;

typedef struct tc_conf_xfail_entry {
    char *name;
    char *reason;
    tc_conf_xfail_kind kind;
    unsigned line;
    int used; /* matched a case of the suite */
    /* Parsed from the reason at load time, for --generate's marks
     * (gen_known.c): the "[topic]" it starts with and the first
     * double-quoted text (the tool's message as it printed it); NULL when
     * the reason has none. */
    char *topic;
    char *message;
} tc_conf_xfail_entry;

/* "@drawn [topic] OPTION...": a departure that a kind of trace shows
 * whatever the tool then prints (a reader that reads every file in one byte
 * order fails a big-endian trace in many ways): a --generate class whose
 * trace was drawn with every one of these generator options is known under
 * the topic. */
typedef struct tc_conf_xfail_drawn {
    char *topic;
    char *options; /* "--big-endian !--mode", as the gen command line spells them
                    * (!OPTION: drawn without it) */
    unsigned line;
} tc_conf_xfail_drawn;

typedef struct tc_conf_xfail {
    char *path;
    char *version; /* "@version X": the tool's version the list was measured on */
    tc_conf_xfail_entry *e;
    size_t n;
    tc_conf_xfail_drawn *drawn;
    size_t ndrawn;
} tc_conf_xfail;

/* Reads "NAME [@crash|@timeout|@crash-or-pass] REASON..." lines ('#' starts a
 * comment line), one optional "@version VERSION" line and "@drawn [TOPIC]
 * OPTION..." lines. Returns 0, or -1
 * with the reason (path:line: message) in err. */
int tc_conf_xfail_load(tc_conf_xfail *x, const char *path, tc_error *err);
tc_conf_xfail_entry *tc_conf_xfail_find(const tc_conf_xfail *x, const char *name);
void tc_conf_xfail_free(tc_conf_xfail *x);

/* ---- implementations ---- */

typedef enum tc_conf_impl_kind {
    TC_IMPL_TRACECHECK, /* this project's parser, in a forked child */
    TC_IMPL_COMMAND,    /* a command line with {file} (toml-test contract) */
    TC_IMPL_ADAPTER,    /* a tool run by an adapter of its own (conformance/adapters/) */
} tc_conf_impl_kind;

struct tc_conf_impl;
struct tc_conf_case;
struct tc_conf_outcome;
struct tc_impl_job;

/* A tool that a command line cannot run as it is: the adapter prepares the
 * tool's inputs, starts it, and turns what it did into the runner's terms. */
typedef struct tc_conf_adapter {
    /* Starts the tool (impl->program) on the case; 0, or -1 with the reason
     * in err. A scratch directory it makes is job->scratch, removed by
     * tc_impl_finish. */
    int (*start)(struct tc_impl_job *job, const struct tc_conf_impl *impl,
                 const struct tc_conf_case *c, double timeout, tc_error *err);
    /* Once the tool has exited, before the scratch directory goes: the
     * verdict (o->exit_status 0 or 1, or o->no_verdict) and o->mismatch. */
    void (*outcome)(const struct tc_impl_job *job, struct tc_conf_outcome *o);
} tc_conf_adapter;

typedef struct tc_conf_impl {
    const char *name;        /* "tracecheck", "llvm-xray", or --name */
    tc_conf_impl_kind kind;
    const char *command;     /* TC_IMPL_COMMAND: "CMD {file}"; without {file}, stdin */
    int dump;                /* the command prints a canonical dump on stdout */
    const char *unavailable; /* set: the tool was not found; its cases are not run */
    const char *version;     /* the tool's version as it reports it; NULL: unknown */
    /* The one format the implementation reads (cases of others are skipped
     * with only_reason); TC_FORMAT_AUTO: any. */
    tc_format only_format;
    const char *only_reason;
    /* A second format it reads, with its own command line (llvm-xray: fdr-dump
     * for FDR traces, convert for basic-mode logs); TC_FORMAT_AUTO: none. */
    tc_format also_format;
    const char *also_command;
    /* Run on a scratch copy of the case, removed afterwards: for tools that
     * write into their input (ovniemu writes its outputs into the trace,
     * ovnisort sorts its streams in place). */
    int copy_input;
    /* TC_IMPL_ADAPTER: the adapter, and the path of the program. */
    const tc_conf_adapter *adapter;
    const char *program;
    /* A known tool: before its cases, one run of the case every version of
     * it accepts shows whether it can run at all (preflight.c). */
    int preflight;
    /* Set: only inputs whose name ends so are run; others are skipped with
     * only_suffix_reason (dqr reads Nexus .rtd files, not text lists). */
    const char *only_suffix;
    const char *only_suffix_reason;
} tc_conf_impl;

/* ---- one case's outcome and result ---- */

/* What running a case produced, before judging. */
typedef struct tc_conf_outcome {
    int exited;         /* exited normally, with exit_status */
    int exit_status;
    int signal;         /* killed by this signal (not by the timeout) */
    int timed_out;
    int spawn_failed;   /* the child could not be started (reason in out_err) */
    double seconds;
    char *out;          /* standard output (the dump); NUL-terminated */
    size_t out_len;
    int out_truncated;  /* more output than the runner keeps */
    char *err;          /* standard error, protocol lines removed; NUL-terminated */
    size_t err_len;
    /* TC_IMPL_TRACECHECK only: the findings the child reported. */
    int have_protocol;  /* the child got to its final status line */
    tc_conf_rules errors, warnings, notes;
    int has_first_error;
    const tc_rule_info *first_error_rule;
    uint64_t first_error_offset;
    char *first_error_file; /* directory cases: relative to the case's directory */
    long long prefix_len; /* bytes of dump before the first error; -1: no error */
    /* Set by an adapter that checks the output itself (dqr: its counter
     * values against the expected dump): why an accepted case still fails. */
    char *mismatch;
    /* Set by an adapter: the tool ran but said nothing about the input (it
     * refused its own setup): why. A crash for the judge, never a verdict. */
    char *no_verdict;
} tc_conf_outcome;

void tc_conf_outcome_free(tc_conf_outcome *o);

typedef struct tc_conf_result {
    const tc_conf_case *c;
    tc_conf_result_kind kind;
    tc_conf_verdict verdict; /* what the implementation said */
    char *reason;            /* why it failed, crashed or was skipped; NULL on a pass */
    const char *xfail_reason;
    double seconds;
    int exit_status;         /* -1 when it did not exit normally */
    int signal;
    char *stderr_tail;       /* the end of its standard error, for crashes and failures */
    tc_conf_rules errors, warnings, notes; /* reported (tracecheck only) */
} tc_conf_result;

/* ---- running ---- */

typedef struct tc_conf_options {
    const tc_conf_impl *impl;
    const char *const *run;  /* globs: only cases whose id or name matches one */
    size_t nrun;
    const char *const *skip; /* globs: cases reported as skipped */
    size_t nskip;
    double timeout;          /* seconds per case */
    unsigned jobs;           /* cases run at once */
    const tc_conf_xfail *xfail; /* NULL: none */
    int write_dumps;         /* tracecheck: write each case's observed dump as its expected one */
    int verbose;             /* log every result, not only the failures */
    FILE *log;               /* where results are logged as they come; NULL: nowhere */
    /* Several implementations are run one after the other (--impl repeated):
     * each logged line starts with "NAME: " so that it says whose it is. */
    int log_name;
    int no_preflight;        /* --no-preflight: run every case, whatever the tool's state */
    /* The tool's own list, for the preflight's choice of the case it must
     * accept, even when the run is judged without one (--no-xfail): the
     * cases it lists are ones it refuses. NULL: xfail. */
    const tc_conf_xfail *preflight_xfail;
} tc_conf_options;

typedef struct tc_conf_totals {
    size_t count[TC_CONF__RESULTS];
    size_t cases;
    size_t stale_xfail; /* expected-failure entries that name no case */
    double seconds;
} tc_conf_totals;

typedef struct tc_conf_run {
    const tc_conf_suite *suite;
    const tc_conf_options *opt;
    tc_conf_result *results; /* in case order */
    size_t count;
    tc_conf_totals totals;
    time_t started;          /* wall clock at the start, for the reports' dates */
    /* Set: the tool could not run its preflight case, and why (what it
     * printed, the command, how it ended); its cases are TC_CONF_BROKEN. */
    char *broken;
} tc_conf_run;

/* Whether the case's id (group/name) or name matches one of the globs
 * (fnmatch); *which, when given, is set to the glob that matched. */
int tc_conf_case_matches(const tc_conf_case *c, const char *const *globs, size_t n,
                         const char **which);

/* Why the case is not one the implementation reads (another format, the
 * input layer's cases for a third-party tool, ...), or NULL. */
char *tc_conf_scope_reason(const tc_conf_impl *impl, const tc_conf_case *c);

/* Preflight (preflight.c): the case a known tool must accept whatever its
 * version (NULL: the suite has none it reads), and one run of it. Returns
 * NULL when the tool accepted it, else why it cannot run (malloc'd):
 * "\"its telling line\" (the command; exit 1)". */
const tc_conf_case *tc_conf_preflight_case(const tc_conf_suite *s, const tc_conf_impl *impl,
                                           const tc_conf_xfail *xfail);
char *tc_conf_preflight(const tc_conf_suite *s, const tc_conf_impl *impl,
                        const tc_conf_xfail *xfail, double timeout);

/* Runs the selected cases, logging failures (every result when verbose).
 * Returns 0, or -1 when the run could not be carried out (message printed). */
int tc_conf_run_suite(tc_conf_run *run, const tc_conf_suite *s, const tc_conf_options *opt);
void tc_conf_run_free(tc_conf_run *run);
/* Non-zero when anything failed, crashed, timed out or passed unexpectedly,
 * an expected-failure entry names no case, or the tool could not run at all
 * (run->broken: its cases are not run, but that is no pass). */
int tc_conf_run_failed(const tc_conf_run *run);

/* Judges an outcome (judge.c). Fills kind, verdict, reason and the reported
 * rule sets of r; the expected-failure list is applied by the caller. */
void tc_conf_judge(const tc_conf_case *c, const tc_conf_impl *impl, tc_conf_outcome *o,
                   tc_conf_result *r);

/* Coverage (coverage.c): every rule of a format tracecheck implements, and
 * every TC rule, has a case (an n_ case for errors, a y_ case for warnings and
 * notes). Prints each gap to stderr; returns how many there are. */
size_t tc_conf_coverage(const tc_conf_suite *s, int verbose);

/* Text helpers shared by the runner and the report writers. */
char *tc_conf_strdup(const char *s);
char *tc_conf_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Reads a whole file; NULL with errno set on failure. */
char *tc_conf_read_file(const char *path, size_t *len);

#endif
