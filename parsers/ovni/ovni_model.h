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
void tc_ovni_model_event(tc_ovni_model *m, const tc_ovni_event *ev);
/* The stream is over: regions left open, a thread that never ended. */
void tc_ovni_model_finish(tc_ovni_model *m);

#endif
