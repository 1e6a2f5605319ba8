/*
 * Differential conformance on generated traces (`tracecheck conformance
 * --generate`): traces drawn from the generators' whole range, valid and
 * breaking one rule of every mutator, each run by an implementation and by
 * tracecheck; where they diverge, the trace is shrunk (the generator's
 * parameters, then its bytes) and written out as a ready case, one per
 * class of divergence. docs/conformance.md tells how to read the results.
 *
 * The run is deterministic per seed: iteration i's trace depends on the
 * seed and i alone, shrinking depends on the trace alone, and a class keeps
 * the case of the lowest iteration that found it. With --count, two runs
 * of one seed write the same cases whatever -j; with --seconds, the
 * iterations done depend on the machine.
 */
#ifndef TC_CONF_GENERATE_H
#define TC_CONF_GENERATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "conformance.h"

typedef struct tc_gen_conf_options {
    const tc_conf_impl *impl;
    const char *impl_name;
    /* The formats drawn from (each with a generator), in registry order. */
    tc_format formats[TC_FORMAT__COUNT];
    size_t nformats;
    double seconds;   /* the run stops then (0: no limit) */
    uint64_t count;   /* ... or after this many traces (0: no limit) */
    uint64_t seed;
    unsigned jobs;    /* worker processes */
    double timeout;   /* seconds per run of the implementation */
    const char *out;  /* cases/, output/ and the reports go here */
    int progress;     /* a status line on stderr, redrawn (a terminal) */
    FILE *log;        /* classes as they are found; NULL: nowhere */
} tc_gen_conf_options;

/* One class of divergence: the rules tracecheck reported and what the
 * implementation answered. */
typedef struct tc_gen_class {
    char *key;          /* "FORMAT|tracecheck verdict|error rules|answer" */
    char *format;       /* "xray" */
    tc_conf_verdict verdict; /* tracecheck's */
    char *rules;        /* tracecheck's error rules, "A, B", or "none" */
    char *answer;       /* the implementation's: "accept", "reject: MESSAGE",
                         * "crash: SIGSEGV", "timeout", "dump", "tracecheck: ..." */
    uint64_t iteration; /* the lowest that found it */
    uint64_t hits;      /* iterations that diverged so */
    char *name;         /* of the case written: "n_gen_xray_header_truncated_accepted" */
    char *input;        /* its input, under out/cases/ */
    char *output;       /* what the implementation printed: out/output/NAME.txt */
    uint64_t bytes_generated, bytes_shrunk; /* the input's size, before and after */
    char *generated;    /* the gen command line that made the trace before shrinking */
    char *reason;       /* the judge's words */
    /* The tool's lines as printed, one of each value the class merged
     * (its answer with the values taken out): the smallest
     * TC_GEN_EXAMPLES in byte order, so that a run's are the same at every
     * -j; nexamples_seen counts them all. */
    char **examples;
    size_t nexamples, nexamples_seen;
    /* Whether the expected-failure list knows it (gen_known.c): the
     * [topic]s of the entries that match, "clock-gate, thread-end"; NULL:
     * NEW, a departure the list does not record. */
    char *known;
} tc_gen_class;

#define TC_GEN_EXAMPLES 8

typedef struct tc_gen_conf_run {
    const tc_gen_conf_options *opt;
    tc_gen_class *classes; /* sorted by key */
    size_t nclasses;
    uint64_t traces, valid, invalid, unusable; /* unusable: the generator refused the draw */
    uint64_t divergences;  /* traces on which the two disagreed */
    size_t nnew;           /* classes the expected-failure list does not know */
    const char *xfail_path; /* the list they were marked against; NULL: none */
    double seconds;
    int interrupted;       /* stopped by a signal before its limit */
    time_t started;
} tc_gen_conf_run;

/* Runs until --seconds, --count or a signal (SIGINT, SIGTERM), writing a
 * case per class under opt->out/cases/<format>/ and the implementation's
 * output under opt->out/output/. Returns 0, or -1 when the run could not
 * be carried out (said on stderr). */
int tc_gen_conf_run_all(tc_gen_conf_run *run, const tc_gen_conf_options *opt);
void tc_gen_conf_run_free(tc_gen_conf_run *run);

/* Marks each class against the implementation's expected-failure list
 * (gen_known.c): a class where tracecheck accepts and the tool rejects is
 * known when an entry's quoted message, its values taken out
 * (gx_answer_class), is the tool's answer; one where tracecheck rejects and
 * the tool accepts, when an entry's case (in suite; NULL: none) expects the
 * class's error rules. Sorts NEW classes first (then by key) and counts
 * them. x NULL: every class is NEW. */
void tc_gen_conf_mark_known(tc_gen_conf_run *run, const tc_conf_xfail *x,
                            const tc_conf_suite *suite);

/* ---- reports (conformance_generated.c) ---- */

/* The summary by class, as text. */
void tc_gen_conf_report_text(FILE *f, const tc_gen_conf_run *run);
/* The same as JSON (schema: docs/conformance.md). */
void tc_gen_conf_report_json(FILE *f, const tc_gen_conf_run *run);
/* The section of the HTML matrix: a table of the classes. */
void tc_gen_conf_report_html(FILE *f, const tc_gen_conf_run *run);

#endif
