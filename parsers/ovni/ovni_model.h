/*
 * The model layer: every event of every model ovniemu knows
 * (spec/ovni/models.def), judged as rulings 8 and 13-17 say. A thread's own
 * books (its life, the states of its channels, its marks, its stack of task
 * bodies) are here, one tc_ovni_model per stream; what threads share (the
 * CPUs of a loom, the tasks and task types of a process, who is running
 * where) is a tc_ovni_world, judged in clock order across the streams of a
 * loom (ovni_replay.c).
 *
 * An event is given to tc_ovni_model_local. It judges what only its own
 * thread decides and says whether the event also acts on what threads
 * share; if so, tc_ovni_model_shared is called for it once every event of
 * the loom with an earlier clock has been (ovni_replay.c; at once for a
 * stream read alone).
 */
#ifndef TC_OVNI_MODEL_H
#define TC_OVNI_MODEL_H

#include "../common/bytes.h"
#include "ovni.h"
#include "ovni_meta.h"
#include "ovni_models.h"
#include "ovni_tasks.h"

typedef struct tc_ovni_world tc_ovni_world;

/* The thread states of libovni (ovni's thread events move between them). */
enum {
    TC_OVNI_TH_NEW,
    TC_OVNI_TH_RUNNING,
    TC_OVNI_TH_PAUSED,
    TC_OVNI_TH_COOLING,
    TC_OVNI_TH_WARMING,
    TC_OVNI_TH_ENDED
};
/* The state of a thread stream after its OHe. */
#define TC_OVNI_THREAD_ENDED TC_OVNI_TH_ENDED

/* A thread's CPU: an index of its loom, the virtual CPU, or none. */
#define TC_OVNI_CPU_VIRTUAL (-1)
#define TC_OVNI_CPU_NONE (-2)

/* The deepest a channel or mark stack goes (ovniemu's MAX_CHAN_STACK). */
#define TC_OVNI_MAX_STACK 512u

/* A level of a stack, or the value of a single channel, and the offset of
 * the event that entered or set it. */
typedef struct tc_ovni_level {
    int64_t value;
    uint64_t at;
} tc_ovni_level;

typedef struct tc_ovni_chan_state {
    tc_ovni_level *v;   /* a stack's levels, innermost last */
    uint32_t n, cap;
    int has_value;      /* a single channel: set */
    tc_ovni_level value;
} tc_ovni_chan_state;

/* The models with tasks, and the slot of each in a thread's body stacks. */
enum { TC_OVNI_TASKS_NOSV, TC_OVNI_TASKS_NANOS6, TC_OVNI_TASKS_OPENMP, TC_OVNI_TASKS__COUNT };

typedef struct tc_ovni_body_stack {
    tc_ovni_body **v;  /* innermost last */
    uint32_t n, cap;
} tc_ovni_body_stack;

typedef struct tc_ovni_model {
    tc_diag_sink *d;
    const char *stream;           /* the stream's name in messages (its stream.obs) */
    const tc_ovni_models *models; /* NULL: the metadata could not say */
    int thread;                   /* a thread stream: thread life is checked */
    int judge_ovni;               /* ovni's own events are judged (ruling 9) */
    uint8_t judged[TC_OVNI_M__COUNT]; /* per model: its events are judged */
    int state;
    uint64_t started_at;          /* offset of the first OHx */
    int in_flush, in_unsorted;
    uint64_t flush_at, unsorted_at;
    uint64_t end_offset;          /* of the last event */
    int8_t allowed[128];          /* per model letter: 1 yes, 0 no, -1 cannot tell */
    uint8_t gate[256];            /* per byte value (letters only): its model + 1 when the stream may use it and
                                     it is judged, else 0 (the slow path says why) */
    unsigned fast_models;         /* bit per model: the thread is as its events need it now
                                     (tc_ovni_model_refresh), so they take the fast path */
    unsigned fast_on, fast_off;   /* fast_models on its CPU and off it (between KCO and KCI) */
    unsigned needs_mask[4];       /* judged models by what they need (tc_ovni_needs) */

    /* Who the thread is, and where (the world's books). */
    tc_ovni_world *world;
    int own_world;                /* made for a stream read alone */
    size_t proc;                  /* its process in the world */
    int64_t tid, pid;
    int has_tid;
    int32_t cpu;                  /* TC_OVNI_CPU_*, or an index of the loom */
    int out_of_cpu;               /* between the kernel's KCO and KCI */
    int twin;                     /* another stream of its process has its tid (reported by
                                     OVNI-TRACE-TID-DUPLICATE): it takes no CPU, OAr finds
                                     the first */
    uint64_t out_at;

    tc_ovni_chan_state chans[TC_OVNI_CH__COUNT];
    tc_ovni_chan_state *marks;    /* 100 mark types, made at the first mark */
    tc_ovni_body_stack bodies[TC_OVNI_TASKS__COUNT];
    tc_ovni_chan_state omp_labels; /* openmp: the types of the tasks and worksharings begun */
    int failed;                   /* out of memory: judged no further */
    int cut;                      /* the stream ended inside an event: states left entered
                                     at its end are not judged (its tail is lost) */
} tc_ovni_model;

/* A stream read alone (or a test): its own world of one thread. meta may
 * be NULL. */
void tc_ovni_model_init(tc_ovni_model *m, tc_diag_sink *d, const tc_ovni_meta *meta);
/* A stream of a trace, in world w, process proc. */
void tc_ovni_model_init_in(tc_ovni_model *m, tc_diag_sink *d, const tc_ovni_meta *meta,
                           tc_ovni_world *w, size_t proc, const char *stream);

/* The thread's own part. When the event also acts on what threads share,
 * returns its model's description of it, and tc_ovni_model_shared must
 * follow with it, in clock order; NULL otherwise. */
const tc_ovni_event_info *tc_ovni_model_local(tc_ovni_model *m, const tc_ovni_event *ev);
void tc_ovni_model_shared(tc_ovni_model *m, const tc_ovni_event *ev,
                          const tc_ovni_event_info *e);

/* The fast path of tc_ovni_model_local for an event whose header a reader
 * has already checked against tc_ovni_events_hot[index] (its code: no
 * flags, its fixed size) while the thread is as its model needs it
 * (m->gate and m->fast_models): its model + 1 in gate. Returns the shared
 * part's description as tc_ovni_model_local does. ev is read only for the
 * events that do more than enter or leave a state. */
const tc_ovni_event_info *tc_ovni_model_act(tc_ovni_model *m, const tc_ovni_event *ev,
                                            unsigned index);

/* Both, for a stream read alone. */
static inline void tc_ovni_model_event(tc_ovni_model *m, const tc_ovni_event *ev)
{
    const tc_ovni_event_info *e = tc_ovni_model_local(m, ev);
    if (e)
        tc_ovni_model_shared(m, ev, e);
}

/* The stream is over: regions and states left open, a thread that never
 * ended. Frees what the model holds (a model read alone: its world too). */
void tc_ovni_model_finish(tc_ovni_model *m);
/* Frees what the model holds without judging the end (idempotent). */
void tc_ovni_model_free(tc_ovni_model *m);

/* ---- the world: what the threads of a loom share ---- */

typedef struct tc_ovni_cpu_use {
    uint32_t running;            /* threads running there now */
    const tc_ovni_model *last;   /* the last to start running there, for messages */
    uint64_t last_at;
} tc_ovni_cpu_use;

typedef struct tc_ovni_proc {
    int64_t pid;
    tc_ovni_books books[TC_OVNI_TASKS__COUNT];
} tc_ovni_proc;

#define TC_OVNI_MARK_TYPES 100

struct tc_ovni_world {
    const char *loom;             /* NULL: not known */
    int cpus_known;               /* the loom's CPU list is whole: indexes 0..ncpus-1 */
    size_t ncpus;
    const int64_t *phyids;        /* by index, for messages (may be NULL) */
    tc_ovni_cpu_use *use;         /* by index */
    tc_ovni_cpu_use virtual_use;
    tc_ovni_proc *procs;
    size_t nprocs;
    tc_ovni_model **threads;      /* by (pid, tid), for OAr */
    size_t nthreads;
    int tids_known;               /* every thread stream's metadata gave its tid */
    int marks_known;              /* the metadata of every stream was read */
    uint8_t mark_kind[TC_OVNI_MARK_TYPES]; /* 0 undeclared, 1 single, 2 stack */
    int hwc_known;
    size_t hwc_counters;          /* nosv.hwc's counters (0: none declared) */
};

/* Frees what the world's processes hold (not the world's arrays, which its
 * maker owns). */
void tc_ovni_world_free_books(tc_ovni_world *w);

/* The thread of a loom with that tid: of process pid first. */
tc_ovni_model *tc_ovni_world_thread(const tc_ovni_world *w, int64_t pid, int64_t tid);

/* The commonest events judged inline, when nothing can be wrong with them:
 * a state entered or left where the channel has room, does not refuse the
 * value over itself, and has the state left on top; the kernel taking the
 * thread off its CPU and giving it back; a mark of a declared type and
 * kind, pushed with room or popped from the top; an event that does
 * nothing. 1 when done; 0 when tc_ovni_model_act must judge the event (the
 * same results either way; never done here: what threads share).
 * payload is the event's fixed-size payload in the stream's byte order. */
static inline int tc_ovni_model_step(tc_ovni_model *m, const tc_ovni_event_hot *e, uint64_t offset,
                                     const uint8_t *payload, int big_endian)
{
    /* One indirect jump on the action: with the events of several models
     * interleaved, a chain of tests mispredicts more often. */
    tc_ovni_chan_state *c;
    switch (e->action) {
    case TC_OVNI_A_NONE: return 1;
    case TC_OVNI_A_PUSH:
        c = &m->chans[e->chan];
        if (c->n < c->cap && (e->dup || !c->n || c->v[c->n - 1].value != e->state)) {
            c->v[c->n++] = (tc_ovni_level){e->state, offset};
            return 1;
        }
        return 0;
    case TC_OVNI_A_POP:
        c = &m->chans[e->chan];
        if (c->n && c->v[c->n - 1].value == e->state) {
            c->n--;
            return 1;
        }
        return 0;
    case TC_OVNI_A_CPU_OUT:
        c = &m->chans[e->chan];
        if (c->n == 0 && c->cap) {
            c->v[c->n++] = (tc_ovni_level){e->state, offset};
            m->out_at = offset;
            m->out_of_cpu = 1;
            m->fast_models = m->fast_off;
            return 1;
        }
        return 0;
    case TC_OVNI_A_CPU_IN:
        c = &m->chans[e->chan];
        if (c->n == 1 && c->v[0].value == e->state) {
            c->n = 0;
            m->out_of_cpu = 0;
            m->fast_models = m->fast_on;
            return 1;
        }
        return 0;
    case TC_OVNI_A_MARK_PUSH:
    case TC_OVNI_A_MARK_POP:
    case TC_OVNI_A_MARK_SET: {
        unsigned a = e->action;
        const tc_ovni_world *w = m->world;
        int64_t value = (int64_t)tc_rd64(payload, big_endian);
        uint32_t type = tc_rd32(payload + 8, big_endian);
        if (!w->marks_known)
            return 1; /* no metadata to say which types there are */
        if (type >= TC_OVNI_MARK_TYPES || value == 0 ||
            w->mark_kind[type] != (a == TC_OVNI_A_MARK_SET ? 1 : 2))
            return 0;
        if (a == TC_OVNI_A_MARK_SET)
            return 1;
        if (!m->marks)
            return 0;
        c = &m->marks[type];
        if (a == TC_OVNI_A_MARK_PUSH && c->n < c->cap) {
            c->v[c->n++] = (tc_ovni_level){value, offset};
            return 1;
        }
        if (a == TC_OVNI_A_MARK_POP && c->n && c->v[c->n - 1].value == value) {
            c->n--;
            return 1;
        }
        return 0;
    }
    default: return 0; /* the shared ones among them */
    }
}

#endif
