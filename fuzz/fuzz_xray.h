/*
 * Running the XRay parser (FDR traces and basic-mode logs, as the header
 * says) inside a harness and keeping everything it said:
 * the diagnostics (all of them, or capped as the CLI caps them), the events
 * (with their payloads copied, since the parser's pointers die with it), the
 * canonical dump text and the sink's counters. The harnesses compare runs
 * over different input paths, and check invariants on one run.
 */
#ifndef TC_FUZZ_XRAY_H
#define TC_FUZZ_XRAY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "../parsers/common/rules.h"
#include "../parsers/xray/xray.h"

typedef struct fx_diag {
    tc_rule_id rule;
    tc_severity severity;
    uint64_t offset, length;
    int unlocated;
    char *message;
    char *context; /* NULL when the parser gave none */
} fx_diag;

typedef struct fx_opts {
    int pedantic;
    unsigned max_repeats; /* 0: no cap (every finding is delivered) */
    int events;           /* give the parser an event callback: events are counted and hashed */
    int keep;             /* and kept (run->events), for checks beyond equality */
    int dump;             /* and written as the canonical dump */
} fx_opts;

typedef struct fx_run {
    fx_diag *diags;
    size_t ndiags, dcap;
    uint64_t errors, warnings, notes;    /* the sink's counters */
    uint64_t rule_count[TC_RULE__COUNT]; /* the sink's per-rule counts */
    size_t nevents;                      /* events delivered */
    uint64_t event_hash;                 /* of every field of every event, payloads included */
    tc_xray_event *events;               /* when kept: .header is NULL, .data points to a copy */
    size_t ecap;
    tc_xray_header header; /* from the header event */
    int have_header;
    char *dump;            /* NUL-terminated canonical dump, or NULL */
    size_t dump_len;
    uint64_t end_pos;      /* the reader's position when the parser returned */
    int read_failed;       /* TC_READ_* of the reader */
} fx_run;

/* Parses everything r holds into run (zeroed first), then reports a failed
 * decompression as tc_check_input does, and finishes the sink. */
void fx_parse(fx_run *run, tc_reader *r, const fx_opts *o);
void fx_run_free(fx_run *run);

/* Index of the first diagnostic that differs between a and b (rule,
 * severity, offset, length, message, context), or -1 when all are equal. */
long fx_first_diag_difference(const fx_run *a, const fx_run *b);

void fx_print_diag(FILE *f, const char *label, const fx_diag *d);
/* Prints both runs' diagnostics from index `from` on, for a failure report. */
void fx_print_diag_difference(FILE *f, const fx_run *a, const char *la, const fx_run *b,
                              const char *lb, long from);

/* Whether two events are the same, field by field and payload. */
int fx_events_equal(const tc_xray_event *a, const tc_xray_event *b);

/* Bytes an event's record takes in the file: 8, 16, 16 + payload, or 32
 * for the header and basic-mode records. */
uint64_t fx_event_size(const tc_xray_event *e);

#ifdef __cplusplus
}
#endif
#endif
