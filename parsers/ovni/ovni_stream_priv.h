/* A stream's state, for the one reader that runs through common events
 * without a call per event (ovni_replay.c's fused loop); everything else
 * uses the functions of ovni.h. */
#ifndef TC_OVNI_STREAM_PRIV_H
#define TC_OVNI_STREAM_PRIV_H

#include "ovni.h"
#include "ovni_scan.h"

/* Events the model's fast loop decodes ahead, at most, at a time. */
#define TC_OVNI_RUN_BATCH 64u

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
    /* The fast loop's run of decoded events (ovni_run.c): those from
     * pre_i to pre_n are still to take, at pre_b in the reader's window
     * (pre_base, pre_base_off) as it was when they were decoded. */
    const uint8_t *pre_b, *pre_base;
    uint64_t pre_base_off;
    uint32_t pre_i, pre_n;
    tc_ovni_scanned pre[TC_OVNI_RUN_BATCH + 1];
};

#endif
