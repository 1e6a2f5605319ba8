/*
 * Running tracecheck's ovni stream parser and metadata reader in a harness
 * and keeping what they delivered: the findings (the kit's capture), the
 * events of a stream (payloads copied, since the parser's pointers die with
 * the reader) or their hash, the canonical dump, the metadata's summary,
 * and where the reader stopped. The ovni harnesses compare runs over input
 * paths and options, and the oracles judge one run.
 */
#ifndef TC_FUZZ_OVNI_EVENTS_H
#define TC_FUZZ_OVNI_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "../../parsers/ovni/ovni.h"
#include "../../parsers/ovni/ovni_meta.h"
#include "../common/harness.h"

/* ---- binary streams ---- */

typedef struct ov_event {
    uint64_t offset;
    uint8_t flags, size_code;
    char mcv[4];
    uint64_t clock;
    int jumbo;
    uint32_t payload_len;
    uint8_t *payload; /* a copy, or NULL when the parser held none */
} ov_event;

typedef struct ov_opts {
    int library;          /* through tc_ovni_parse (events and dump records), else the
                             stream and model calls as a whole trace's check makes them */
    int payloads;         /* (not library) ask the stream parser for payloads */
    int models;           /* run the model layer */
    const tc_ovni_meta *meta; /* (not library) the metadata the model layer sees, or NULL */
    int keep;             /* keep the events (run->ev) */
    int hash;             /* hash them (event_hash), to compare runs */
    int dump;             /* (library) write the canonical dump */
    unsigned max_repeats; /* 0: no cap */
} ov_opts;

typedef struct ov_run {
    hx_findings f;
    size_t nevents;      /* events delivered */
    uint64_t event_hash; /* of every field of every event, payloads included */
    ov_event *ev;        /* when kept */
    size_t cap;
    int header_ok;       /* the header was accepted */
    int big_endian;
    int records;         /* (library) header and stream records delivered */
    char *dump;
    size_t dump_len;
    uint64_t end_pos;    /* the reader's position at the end */
    int read_failed;
} ov_run;

void ov_parse_stream(ov_run *run, tc_reader *r, const ov_opts *o);
/* The same over an input path of the kit; 0 when the path is not here. */
int ov_parse_stream_path(ov_run *run, hx_path path, const uint8_t *data, size_t size,
                         size_t window, const ov_opts *o);
void ov_run_free(ov_run *run);
int ov_events_equal(const ov_event *a, const ov_event *b);
/* Aborts unless a and b delivered the same findings, header and events
 * (payloads compared where both held them, or always when same_payloads). */
void ov_assert_same_runs(const ov_run *a, const char *la, const ov_run *b, const char *lb,
                         int same_payloads);

/* ---- metadata ---- */

typedef struct ov_meta_run {
    hx_findings f;
    tc_ovni_meta meta;  /* cpus owned */
    uint64_t end_pos;
    int read_failed;
} ov_meta_run;

void ov_parse_meta(ov_meta_run *run, tc_reader *r, unsigned max_repeats);
void ov_meta_run_free(ov_meta_run *run);
/* NULL when the two summaries are the same, else the field that differs. */
const char *ov_meta_difference(const tc_ovni_meta *a, const tc_ovni_meta *b);

#endif
