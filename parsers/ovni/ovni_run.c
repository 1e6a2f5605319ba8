/*
 * A stream's events through the model layer, one thread's part at a time
 * (ovni_model.h): the common events in one loop that reads and judges them
 * without a call per event, the rest through tc_ovni_stream_next and
 * tc_ovni_model_local. Stops at each event that acts on what threads share.
 */
#include <string.h>

#include "../common/bytes.h"
#include "../common/fields.h"
#include "ovni_run.h"
#include "ovni_scan.h"
#include "ovni_stream_priv.h"

/* The stream's common events taken whole, in two passes over a run of
 * them: their headers first (tc_ovni_scan: a normal event with its model's
 * fixed size, a printable code of a model the stream may use and that is
 * judged, its clock in order and below 2^63), with no branch on an event's
 * kind, so that the walk from event to event never waits on the model;
 * then the model's steps on the decoded events, each checked against the
 * thread's state (a model it may use now) when its turn comes. A run
 * outlives a call that stops at a shared event: the next call goes on with
 * it. Stops at the first event that is not one (0; the full path reads it)
 * or at a shared one (1, in ev and *shared_info). The same results as the
 * full path, event by event: it only skips work. */
static int run_fast(tc_ovni_stream *s, tc_ovni_model *m, tc_ovni_event *ev,
                    const tc_ovni_event_info **shared_info)
{
    tc_reader *r = s->r;
    /* While a view is drawn, every event goes through tc_ovni_stream_next,
     * which says what it read. */
    if (s->done || !s->have_clock || TC_FIELDS_ON(s->d))
        return 0;
    tc_ovni_scanned *pre = s->pre;
    const uint8_t *b = s->pre_b;
    size_t i = s->pre_i, n = s->pre_n;
    /* The run decoded before goes on where the stream is, in the same
     * window (the same bytes): else a new one. */
    if (i >= n || r->cur != b + pre[i].at || r->base != s->pre_base ||
        r->base_off != s->pre_base_off)
        i = n = 0;
    int be = s->be;
    for (;;) {
        if (i == n) {
            b = r->cur;
            i = 0;
            n = tc_ovni_scan_pick()(b, r->end, m->gate, be, s->last_clock, pre,
                                    TC_OVNI_RUN_BATCH);
            if (n == 0) {
                s->pre_n = 0;
                return 0;
            }
        }
        uint64_t base = r->base_off + (uint64_t)(b - r->base);
        size_t taken = i; /* events before taken: in the stream's state */
        for (; i < n; i++) {
            const tc_ovni_scanned *q = &pre[i];
            if (!((m->fast_models >> q->model) & 1))
                break;
            const tc_ovni_event_hot *e = &tc_ovni_events_hot[q->index];
            if (tc_ovni_model_step(m, e, base + q->at, b + q->at + TC_OVNI_EVENT_HEADER_SIZE, be))
                continue;
            /* The model needs the whole event: the stream's state first, as
             * the full path would leave it. */
            const uint8_t *h = b + q->at;
            uint64_t pos = base + q->at;
            ev->offset = pos;
            ev->flags = 0;
            ev->size_code = h[0];
            memcpy(ev->mcv, h + 1, 3);
            ev->mcv[3] = '\0';
            ev->clock = tc_rd64(h + 4, be);
            ev->jumbo = 0;
            ev->big_endian = be;
            ev->payload_len = pre[i + 1].at - q->at - TC_OVNI_EVENT_HEADER_SIZE;
            ev->payload = h + TC_OVNI_EVENT_HEADER_SIZE;
            r->cur = b + pre[i + 1].at;
            s->last_clock = ev->clock;
            s->last_clock_offset = pos;
            s->count += i + 1 - taken;
            taken = i + 1;
            m->end_offset = pos;
            const tc_ovni_event_info *info = tc_ovni_model_act(m, ev, q->index);
            if (info) {
                s->pre_b = b;
                s->pre_base = r->base;
                s->pre_base_off = r->base_off;
                s->pre_i = (uint32_t)(i + 1);
                s->pre_n = (uint32_t)n;
                *shared_info = info;
                return 1;
            }
        }
        if (i > taken) {
            const uint8_t *h = b + pre[i - 1].at;
            uint64_t pos = base + pre[i - 1].at;
            r->cur = b + pre[i].at;
            s->last_clock = tc_rd64(h + 4, be);
            s->last_clock_offset = pos;
            s->count += i - taken;
            m->end_offset = pos;
        }
        if (i < n) {
            s->pre_n = 0;
            return 0; /* the thread is not as the event's model needs it */
        }
    }
}

int tc_ovni_run(tc_ovni_stream *s, tc_ovni_model *m, tc_ovni_event *ev,
                const tc_ovni_event_info **shared)
{
    for (;;) {
        if (run_fast(s, m, ev, shared))
            return 1;
        if (!tc_ovni_stream_next(s, ev))
            return 0;
        if ((*shared = tc_ovni_model_local(m, ev)) != NULL)
            return 1;
    }
}
