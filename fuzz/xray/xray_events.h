/*
 * Running the XRay parser in a harness and keeping what it delivered: the
 * findings (the kit's capture), the events (payloads copied, since the
 * parser's pointers die with it) or their hash, the header, the canonical
 * dump, and where the reader stopped. The XRay harnesses compare runs over
 * input paths and options, and the oracles judge one run's events.
 */
#ifndef TC_FUZZ_XRAY_EVENTS_H
#define TC_FUZZ_XRAY_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "../common/harness.h"

#ifdef __cplusplus
extern "C" {
#endif

#include "../../parsers/xray/xray.h"

typedef struct xr_opts {
    tc_format mode;       /* TC_FORMAT_XRAY (FDR), TC_FORMAT_XRAY_BASIC, or TC_FORMAT_AUTO
                             (either, as the header says) */
    int pedantic;
    unsigned max_repeats; /* 0: no cap */
    int events;           /* give the parser an event callback (events counted) */
    int hash;             /* and hashed (event_hash), to compare runs */
    int keep;             /* and keep them (run->events), for checks beyond equality */
    int dump;             /* and write the canonical dump */
} xr_opts;

typedef struct xr_run {
    hx_findings f;
    size_t nevents;          /* events delivered */
    uint64_t event_hash;     /* of every field of every event, payloads included (hash) */
    tc_xray_event *events;   /* when kept: .header is NULL, .data points to a copy */
    size_t ecap;
    tc_xray_header header;   /* from the header event */
    int have_header;
    char *dump;              /* NUL-terminated canonical dump, or NULL */
    size_t dump_len;
    uint64_t end_pos;        /* the reader's position when the parser returned */
    int read_failed;         /* TC_READ_* of the reader */
} xr_run;

/* Parses everything r holds into run (zeroed first), then reports a failed
 * decompression as tc_check_input does, and finishes the sink. */
void xr_parse(xr_run *run, tc_reader *r, const xr_opts *o);
/* The same over an input path of the kit. Returns 0 when the path is not
 * available here. */
int xr_parse_path(xr_run *run, hx_path path, const uint8_t *data, size_t size, size_t window,
                  const xr_opts *o);
void xr_run_free(xr_run *run);

/* Whether two events are the same, field by field and payload. */
int xr_events_equal(const tc_xray_event *a, const tc_xray_event *b);

/* NULL when two runs delivered the same findings, counters, events and
 * header (and so the same canonical dump, which is written from the events
 * and the header alone) and stopped at the same place; else what differs. */
const char *xr_difference(const xr_run *a, const xr_run *b);
/* Aborts naming the first difference between two runs that kept their
 * events. */
void xr_report_difference(const xr_run *a, const char *la, const xr_run *b, const char *lb);

/* Bytes an event's record takes in the file: 8, 16, 16 + payload, or 32
 * for the header and basic-mode records. */
uint64_t xr_event_size(const tc_xray_event *e);

#ifdef __cplusplus
}
#endif
#endif
