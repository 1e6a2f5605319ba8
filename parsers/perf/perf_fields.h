/*
 * What `tracecheck show` says of SiFive perf data (../common/fields.h): a
 * record is one message of the container (a Nexus message, a line of a
 * text list); its fields are the container's (TCODE, SRC, IDTAG, DQDATA,
 * TIMESTAMP), the ITC write they make (channel and width), and what the
 * perf state machine reads the write as (spec/perf/perf.md, "The view of
 * tracecheck show").
 */
#ifndef TC_PERF_FIELDS_H
#define TC_PERF_FIELDS_H

#include <stdint.h>

#include "../common/diag.h"
#include "../common/fields.h"
#include "perf_msg.h"

/* Where a message's fields are: bytes [pos, pos + len) each, len 0 when
 * absent (SRC without --srcbits, TIMESTAMP when not written). */
typedef struct tc_perf_spans {
    uint64_t pos[4], len[4]; /* SRC, IDTAG, DQDATA (VALUE), TIMESTAMP */
} tc_perf_spans;

/* The fields of message m, read from the spans; text: a line of a text
 * list (the names are then IDTAG, VALUE and TIMESTAMP). */
void tc_perf_fields_message(tc_diag_sink *d, const tc_perf_msg *m, const tc_perf_spans *s,
                            int text);

#endif
