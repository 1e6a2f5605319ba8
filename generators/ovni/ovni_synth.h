/*
 * The events of one thread stream, made one at a time (so a stream of any
 * size streams out): OHx with its 16-byte payload first; then, while the
 * thread runs, events of the models it requires, each with the payload
 * libovni's model gives it and in an order that model accepts (nosv 'V':
 * task types registered with VYc, tasks made, executed, paused, resumed and
 * ended with VT* and their ids, subsystems entered and left in nested
 * order, idle states; kernel 'K': out of the CPU and straight back), ovni's
 * own marks of the types the metadata declares, affinity changes to CPUs
 * no other thread of the loom runs on, thread creations and bursts, flushes
 * (OF[ OF]), unsorted regions (OU[ ... OU]), pauses and resumes, cooling
 * and warming, following libovni's thread states (spec/ovni/ovni.md); clocks
 * strictly increasing, equal now and then; then every open region closed,
 * OHe, sometimes followed by a last flush. The stream stops near its budget
 * of bytes. libovni's emulator (`ovniemu -l`) accepts such a trace as a
 * whole (its big-endian streams aside: it reads one byte order).
 */
#ifndef TC_OVNI_SYNTH_H
#define TC_OVNI_SYNTH_H

#include "ovni_events.h"
#include "ovni_plan.h"

/* libovni's thread states. */
enum { OVNI_ST_NEW, OVNI_ST_RUNNING, OVNI_ST_PAUSED, OVNI_ST_COOLING, OVNI_ST_WARMING,
       OVNI_ST_DEAD };

/* Where a stream is: what mutators look at to place an event safely. */
typedef struct ovni_view {
    int state;          /* OVNI_ST_* */
    int in_flush;       /* between OF[ and OF] */
    int in_unsorted;    /* between OU[ and OU] */
    int out_of_cpu;     /* between KCO and KCI: no other event belongs there */
    unsigned open;      /* model regions open (states entered, task bodies, marks pushed) */
    uint64_t clock;     /* of the last event (the first event's clock before it) */
    uint64_t events;    /* made so far */
    uint64_t bytes;     /* of the stream so far, its header included */
} ovni_view;

typedef struct ovni_synth ovni_synth;

/* The synthesiser of stream i of the plan, every decision from choices. */
ovni_synth *ovni_synth_new(const ovni_plan *pl, size_t i, tc_rng *choices);
void ovni_synth_free(ovni_synth *s);

/* The next event: 1, or 0 when the stream is complete. The event's payload
 * stays valid until the next call. */
int ovni_synth_next(ovni_synth *s, ovni_ev *ev);

/* The stream after the last event made. */
const ovni_view *ovni_synth_view(const ovni_synth *s);

#endif
