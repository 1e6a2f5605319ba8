/* The model layer of one stream: ovni's own events (payload sizes, thread
 * life, flush and unsorted regions) and which models a stream may use. */
#ifndef TC_OVNI_MODEL_H
#define TC_OVNI_MODEL_H

#include "ovni.h"
#include "ovni_meta.h"

typedef struct tc_ovni_model {
    tc_diag_sink *d;
    const tc_ovni_models *models; /* NULL: the metadata could not say */
    int thread;                   /* a thread stream: thread life is checked */
    int judge_ovni;               /* ovni's own events are judged (ruling 9: not when the
                                     stream requires a version of ovni's model not known) */
    int state;
    uint64_t started_at;          /* offset of the first OHx */
    int in_flush, in_unsorted;
    uint64_t flush_at, unsorted_at;
    uint64_t end_offset;          /* of the last event */
    int8_t allowed[128];          /* per model letter: 1 yes, 0 no, -1 cannot tell */
} tc_ovni_model;

void tc_ovni_model_init(tc_ovni_model *m, tc_diag_sink *d, const tc_ovni_meta *meta);
/* The state of a thread stream after its OHe. */
#define TC_OVNI_THREAD_ENDED 5

void tc_ovni_model_event_any(tc_ovni_model *m, const tc_ovni_event *ev);

/* One event. Most are of a model the stream requires, in a thread still
 * running: nothing to judge, and no call for it (half the events of a
 * trace; the rest go to tc_ovni_model_event_any). */
static inline void tc_ovni_model_event(tc_ovni_model *m, const tc_ovni_event *ev)
{
    unsigned char model = (unsigned char)ev->mcv[0];
    if (model != 'O' && model < 0x80 && m->allowed[model] != 0 &&
        !(m->thread && m->state == TC_OVNI_THREAD_ENDED)) {
        m->end_offset = ev->offset;
        return;
    }
    tc_ovni_model_event_any(m, ev);
}
/* The stream is over: regions left open, a thread that never ended. */
void tc_ovni_model_finish(tc_ovni_model *m);

#endif
