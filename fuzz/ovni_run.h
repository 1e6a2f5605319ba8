/*
 * Running tracecheck's ovni stream parser, metadata reader and JSON
 * tokenizer inside a harness and keeping everything they said: every
 * diagnostic (with its line, column and JSON path), the events of a stream
 * (payloads copied, since the parser's pointers die with the reader), the
 * canonical dump and the sink's counters. The ovni and JSON harnesses
 * compare runs over different input paths and check invariants on one run.
 */
#ifndef TC_FUZZ_OVNI_RUN_H
#define TC_FUZZ_OVNI_RUN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../parsers/common/diag.h"
#include "../parsers/common/reader.h"
#include "../parsers/common/rules.h"
#include "../parsers/ovni/ovni.h"
#include "../parsers/ovni/ovni_meta.h"

/* ---- diagnostics ---- */

typedef struct ofz_diag {
    tc_rule_id rule;
    tc_severity severity;
    uint64_t offset, length;
    uint32_t line, column;
    int unlocated;
    char *path;    /* JSON path, or NULL */
    char *message;
    char *context; /* NULL when the parser gave none */
} ofz_diag;

typedef struct ofz_diags {
    ofz_diag *v;
    size_t n, cap;
    uint64_t errors, warnings, notes;    /* the sink's counters */
    uint64_t count[TC_RULE__COUNT];      /* the sink's per-rule counts */
} ofz_diags;

/* A tc_diag callback (user: an ofz_diags) that keeps a copy of every finding
 * and counts it per rule. Shared by the ovni and DCFG harnesses. */
void ofz_collect(void *user, const tc_diag *d);

/* A sink (--pedantic; max_repeats 0 = no cap) that collects into out. */
void ofz_sink_init(tc_diag_sink *s, ofz_diags *out, unsigned max_repeats);
/* Finishes the sink (suppression notes) and copies its counters. */
void ofz_sink_finish(tc_diag_sink *s, ofz_diags *out);
void ofz_diags_free(ofz_diags *d);

int ofz_diag_eq(const ofz_diag *a, const ofz_diag *b);
/* Index of the first diagnostic that differs, or -1 when all are equal. */
long ofz_first_diag_difference(const ofz_diags *a, const ofz_diags *b);
void ofz_print_diag(FILE *f, const char *label, const ofz_diag *d);
void ofz_print_diag_difference(FILE *f, const ofz_diags *a, const char *la, const ofz_diags *b,
                               const char *lb, long from);
/* Aborts unless a and b hold the same diagnostics and counters. */
void ofz_assert_same_diags(const ofz_diags *a, const char *la, const ofz_diags *b,
                           const char *lb);

/* Counters match what was delivered; each rule has the catalogue's
 * severity and one of the families given (space-separated, e.g. "OVNI TC");
 * messages are one non-empty line. */
void ofz_check_diags_well_formed(const ofz_diags *d, const char *families);

/* ---- binary streams ---- */

typedef struct ofz_event {
    uint64_t offset;
    uint8_t flags, size_code;
    char mcv[4];
    uint64_t clock;
    int jumbo;
    uint32_t payload_len;
    uint8_t *payload; /* a copy, or NULL when the parser held none */
} ofz_event;

typedef struct ofz_stream_opts {
    int library;          /* through tc_ovni_parse (events and dump records), else the
                             stream and model calls as a whole trace's check makes them */
    int payloads;         /* (not library) ask the stream parser for payloads */
    int models;           /* run the model layer */
    const tc_ovni_meta *meta; /* (not library) the metadata the model layer sees, or NULL */
    int keep;             /* keep the events (run->ev) */
    int dump;             /* (library) write the canonical dump */
    unsigned max_repeats; /* 0: no cap */
} ofz_stream_opts;

typedef struct ofz_stream_run {
    ofz_diags d;
    size_t nevents;      /* events delivered */
    uint64_t event_hash; /* of every field of every event, payloads included */
    ofz_event *ev;       /* when kept */
    size_t cap;
    int header_ok;       /* the header was accepted */
    int big_endian;
    int records;         /* (library) header and stream records delivered */
    char *dump;
    size_t dump_len;
    uint64_t end_pos;    /* the reader's position at the end */
    int read_failed;
} ofz_stream_run;

void ofz_parse_stream(ofz_stream_run *run, tc_reader *r, const ofz_stream_opts *o);
void ofz_stream_run_free(ofz_stream_run *run);
int ofz_events_equal(const ofz_event *a, const ofz_event *b);

/* ---- metadata ---- */

typedef struct ofz_meta_run {
    ofz_diags d;
    tc_ovni_meta meta;  /* cpus owned */
    uint64_t end_pos;
    int read_failed;
} ofz_meta_run;

void ofz_parse_meta(ofz_meta_run *run, tc_reader *r, unsigned max_repeats);
void ofz_meta_run_free(ofz_meta_run *run);
/* NULL when the two summaries are the same, else the field that differs. */
const char *ofz_meta_difference(const tc_ovni_meta *a, const tc_ovni_meta *b);

/* ---- input paths ---- */

/* A reader over a file holding data: an in-memory file (memfd) opened by
 * path as `tracecheck validate` opens one, through read() (no_mmap) or
 * sliding mmap windows of the given size. NULL when this system has no
 * memfd. Close with ofz_file_close. */
typedef struct ofz_file ofz_file;
ofz_file *ofz_file_open(const uint8_t *data, size_t size, size_t window, int no_mmap);
tc_reader *ofz_file_reader(ofz_file *f);
void ofz_file_close(ofz_file *f);

/* FNV-1a over the input: picks window sizes and options, so that every
 * combination gets its turn and a failure replays the same way. */
uint32_t ofz_hash(const uint8_t *p, size_t n);

/* Line and column (1-based, column in bytes) of offset in a JSON text, as
 * RFC 8259 text is read: lines end at LF; a UTF-8 byte order mark at the
 * start is not part of line 1's columns. Computed from the bytes alone. */
void ofz_line_column(const uint8_t *p, size_t n, uint64_t offset, uint32_t *line,
                     uint32_t *column);

#endif
