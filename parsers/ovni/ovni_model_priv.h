/* What the two halves of the model layer (ovni_model.c, a thread's own
 * books; ovni_shared.c, what threads share) use of each other. */
#ifndef TC_OVNI_MODEL_PRIV_H
#define TC_OVNI_MODEL_PRIV_H

#include <stdarg.h>

#include "../common/bytes.h"
#include "ovni_model.h"

extern const char *const tc_ovni_thread_state_names[];

/* Works out m->fast_models again: after the thread's state, its being off
 * its CPU, or its failing changed. */
void tc_ovni_model_refresh(tc_ovni_model *m);

/* A finding about event ev of m's stream. */
void tc_ovni_say(tc_ovni_model *m, tc_rule_id rule, const tc_ovni_event *ev, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* "thread 2001", or "the thread" when the metadata gives no tid. */
const char *tc_ovni_thread_name(const tc_ovni_model *m, char *buf, size_t size);

/* How a channel and its values are named in messages: written only when
 * a finding needs them (the checks run on every event). */
typedef struct tc_ovni_namer {
    /* "the thread's nosv subsystem" */
    const char *(*channel)(const struct tc_ovni_namer *n, char *buf, size_t size);
    const char *(*name)(const struct tc_ovni_namer *n, int64_t value, char *buf, size_t size);
    int64_t arg; /* the channel, or the mark type */
} tc_ovni_namer;

void tc_ovni_chan_namer(tc_ovni_namer *n, tc_ovni_chan_id chan);
/* ovniemu's chan_push and chan_pop: 1 when done, 0 when refused (reported). */
int tc_ovni_chan_push(tc_ovni_model *m, const tc_ovni_event *ev, tc_ovni_chan_state *c, int dup,
                      int64_t value, const tc_ovni_namer *names);
int tc_ovni_chan_pop(tc_ovni_model *m, const tc_ovni_event *ev, tc_ovni_chan_state *c,
                     int64_t value, const tc_ovni_namer *names);

/* Payload fields, at a byte offset, in the stream's byte order. */
static inline uint32_t tc_ovni_event_u32(const tc_ovni_event *ev, unsigned at)
{
    return tc_rd32(ev->payload + at, ev->big_endian);
}
static inline uint64_t tc_ovni_event_u64(const tc_ovni_event *ev, unsigned at)
{
    return tc_rd64(ev->payload + at, ev->big_endian);
}

/* The marks and hardware counters a stream's metadata declares, added to
 * the world (the emulator merges every stream's). */
void tc_ovni_world_declare(tc_ovni_world *w, const tc_ovni_meta *meta);
/* nosv's VWC: one value per counter that nosv.hwc declares. */
void tc_ovni_hwc_event(tc_ovni_model *m, const tc_ovni_event *ev);

#endif
