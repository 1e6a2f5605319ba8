/* The canonical dump of ovni traces (spec/canonical-dump.md, spec/ovni/ovni.md). */
#ifndef TC_OVNI_DUMP_H
#define TC_OVNI_DUMP_H

#include <stdio.h>

#include "../common/input.h"
#include "../common/dump.h"
#include "ovni.h"
#include "ovni_meta.h"

/* A stream of a trace: its two files and what its metadata said. */
typedef struct tc_ovni_stream_file {
    char *rel;  /* its directory, relative to the trace ("." for the trace itself) */
    char *json, *obs;
    int has_json, has_obs;
    int big_endian;
    tc_ovni_meta meta;
    int has_first_clock;   /* its first event was read, with a clock below 2^63 */
    uint64_t first_clock;  /* that event's clock and offset (ruling 10) */
    uint64_t first_offset;
    uint64_t bytes;      /* read of its files */
    tc_error err;        /* why one of its files could not be read */
} tc_ovni_stream_file;

enum { TC_OVNI_REC_HEADER, TC_OVNI_REC_STREAM, TC_OVNI_REC_EVENT };

/* What a dump line is made of (also the event type of the ovni parser). */
typedef struct tc_ovni_dump_record {
    int kind;
    const char *stream;         /* STREAM and EVENT */
    const tc_ovni_event *ev;    /* EVENT */
    int big_endian;             /* STREAM */
    const tc_ovni_meta *meta;   /* STREAM; NULL when there was none */
} tc_ovni_dump_record;

void tc_ovni_dump(tc_jsonl *w, const void *record); /* a tc_ovni_dump_record */

/* The dump of a whole trace: header, streams, then every event merged by
 * clock (ties by stream path, then position). Reads the streams again,
 * all open at once. Returns 0, or -1 with the reason in err. */
int tc_ovni_dump_trace(FILE *out, tc_ovni_stream_file *streams, size_t n, const tc_input_opts *io,
                       tc_error *err);

#endif
