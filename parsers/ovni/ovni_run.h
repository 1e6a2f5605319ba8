/* One stream's events judged by the model layer, up to each event that also
 * acts on what threads share (ovni_run.c). */
#ifndef TC_OVNI_RUN_H
#define TC_OVNI_RUN_H

#include "ovni_model.h"

/* Reads on from s, judging each event's thread part in m, until an event
 * that also acts on what threads share: 1, with the event in ev and its
 * description in *shared (tc_ovni_model_shared must follow, in clock
 * order); 0 at the stream's end. The same findings, event by event, as
 * tc_ovni_stream_next and tc_ovni_model_local called in turn. */
int tc_ovni_run(tc_ovni_stream *s, tc_ovni_model *m, tc_ovni_event *ev,
                const tc_ovni_event_info **shared);

#endif
