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
#include "ovni_stream_priv.h"

/* The longest normal event: a header and 16 bytes of payload. */
#define FAST_SPAN (TC_OVNI_EVENT_HEADER_SIZE + 16u)

/* The stream's common events taken whole, in one loop without a call per
 * event: the checks of tc_ovni_stream_next's and tc_ovni_model_local's
 * fast paths at once (a normal event with its model's fixed size, a
 * printable code of a model the thread may use now, its clock in order and
 * below 2^63). Stops at the first event that is not one (0; the full path
 * reads it) or at a shared one (1, in ev and *shared_info). The same results as
 * the full path, event by event: it only skips work. */
static int run_fast(tc_ovni_stream *s, tc_ovni_model *m, tc_ovni_event *ev,
                    const tc_ovni_event_info **shared_info)
{
    tc_reader *r = s->r;
    /* While a view is drawn, every event goes through tc_ovni_stream_next,
     * which says what it read. */
    if (s->done || !s->have_clock || TC_FIELDS_ON(s->d))
        return 0;
    const uint8_t *b = r->cur, *end = r->end, *last_at = NULL;
    uint64_t last = s->last_clock, count = 0;
    int be = s->be, shared = 0;
    while ((size_t)(end - b) >= FAST_SPAN) {
        unsigned g = m->gate[b[1]];
        unsigned cc = (unsigned)b[2] - TC_OVNI_MCV_BASE, vv = (unsigned)b[3] - TC_OVNI_MCV_BASE;
        if (!g || !((m->fast_models >> (g - 1)) & 1) || cc >= TC_OVNI_MCV_SPAN ||
            vv >= TC_OVNI_MCV_SPAN)
            break;
        unsigned index = tc_ovni_event_index[g - 1][cc][vv];
        if (!index || b[0] != tc_ovni_events_hot[index - 1].code)
            break;
        uint64_t clock = tc_rd64(b + 4, be);
        if (clock < last || clock >= TC_OVNI_CLOCK_LIMIT)
            break;
        const tc_ovni_event_hot *e = &tc_ovni_events_hot[index - 1];
        uint32_t len = b[0] ? b[0] + 1u : 0u;
        last = clock;
        last_at = b;
        count++;
        const uint8_t *next = b + TC_OVNI_EVENT_HEADER_SIZE + len;
        uint64_t pos = r->base_off + (uint64_t)(b - r->base);
        if (tc_ovni_model_step(m, e, pos, b + TC_OVNI_EVENT_HEADER_SIZE, be)) {
            b = next;
            continue;
        }
        /* The model needs the whole event: the stream's state first, as
         * the full path would leave it. */
        ev->offset = pos;
        ev->flags = 0;
        ev->size_code = b[0];
        memcpy(ev->mcv, b + 1, 3);
        ev->mcv[3] = '\0';
        ev->clock = clock;
        ev->jumbo = 0;
        ev->big_endian = be;
        ev->payload_len = len;
        ev->payload = b + TC_OVNI_EVENT_HEADER_SIZE;
        r->cur = next;
        s->last_clock = last;
        s->last_clock_offset = pos;
        s->count += count;
        count = 0;
        m->end_offset = pos;
        b = next;
        const tc_ovni_event_info *info = tc_ovni_model_act(m, ev, index - 1);
        if (info) {
            *shared_info = info;
            shared = 1;
            break;
        }
    }
    r->cur = b;
    if (count) {
        uint64_t pos = r->base_off + (uint64_t)(last_at - r->base);
        s->last_clock = last;
        s->last_clock_offset = pos;
        s->count += count;
        m->end_offset = pos;
    }
    return shared;
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
