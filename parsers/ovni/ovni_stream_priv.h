/* A stream's state, for the one reader that runs through common events
 * without a call per event (ovni_replay.c's fused loop); everything else
 * uses the functions of ovni.h. */
#ifndef TC_OVNI_STREAM_PRIV_H
#define TC_OVNI_STREAM_PRIV_H

#include "ovni.h"

struct tc_ovni_stream {
    tc_reader *r;
    tc_diag_sink *d;
    int want_payloads;
    int be;
    int done;
    uint64_t count;
    int have_clock;
    uint64_t last_clock;
    uint64_t last_clock_offset;
    /* ovnisort's unsorted region (ruling 11): after an OU[, up to the next
     * OU]; an OU[ inside one is one of its events, an OU] outside none. */
    int unsorted;
    uint64_t unsorted_at; /* offset of the OU[ that began it */
    int cut;              /* it ends inside an event */
};

#endif
