#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/common/bytes.h"
#include "ovni_synth.h"

/* Bytes kept for the end of a stream: OU], two state changes, OHe, OF[ OF],
 * and the partner queued after the last body event (OF] or KCI). */
#define ENDING_RESERVE 84u
/* Budget from which the end may take a detour (cool first, flush after). */
#define ROOMY_END 256u
#define QUEUE 8u
/* A task type's label: libovni's emulator refuses labels of 512 bytes or
 * more (MAX_PCF_LABEL, src/emu/pv/pcf.h). */
#define MAX_LABEL 480u
/* Regions open at once (nosv subsystems, task bodies, paused tasks, stacked
 * marks), and the largest event that closes one (OM] with its 12 bytes). */
#define MAX_OPEN 6u
#define MAX_CLOSE 24u
/* Ids a thread gives its task types and tasks: (its index in the process
 * + 1) shifted above a counter, so that the threads of a process, which
 * share the ids, never give the same one twice. */
#define TYPE_SHIFT 16
/* Task types a thread registers per model: a program has a few. */
#define MAX_TYPES 48u
#define TASK_SHIFT 20
/* A queue entry that stands for "close every open region". */
static const char CLOSE_ALL[3] = {0, 'C', 'A'};

enum { IT_STATE, IT_TASK, IT_PAUSE, IT_MARK, IT_WS };

/* A region the stream has opened and must close, in reverse order: the
 * event that closes it, with its payload. */
typedef struct open_item {
    unsigned kind;
    char close[3];
    uint8_t pay[12];
    uint8_t len;
    int model;       /* IT_STATE, IT_TASK, IT_PAUSE, IT_WS */
    int chan, state; /* IT_STATE */
} open_item;

/* The models with tasks, by tc_ovni_model_id, and what their events carry. */
typedef struct tasks {
    uint32_t types, made, ran; /* task types and tasks made; tasks run */
} tasks;

/* The events of a model the generator picks from: states entered (PUSH),
 * values set (SET) and events that change nothing (NONE), by index of
 * tc_ovni_events; found in the table once per stream. */
#define MAX_PICKS 64
typedef struct picks {
    uint16_t push[MAX_PICKS], set[8], none[16];
    unsigned npush, nset, nnone;
} picks;

struct ovni_synth {
    tc_rng *r;
    ovni_view v;
    uint64_t budget;
    unsigned uses;
    int models[TC_OVNI_M__COUNT]; /* the models it uses, ovni's own left out */
    unsigned nmodels;
    int marks; /* the stream declares ovni's two mark types (ovni_plan_metadata) */
    int64_t tid, pid;
    int be;
    int phase; /* 0: OHx next, 1: body, 2: the end is queued */
    char q[QUEUE][3];
    unsigned qn, qi;
    uint8_t pay[OVNI_MAX_PAYLOAD];
    uint8_t jumbo[MAX_LABEL + 8];
    /* CPUs: the loom's CPUs whose index is slot modulo slots are this
     * thread's alone (so no two threads of a loom ever run on one CPU at
     * once, which libovni's emulator refuses); -1, the loom's virtual CPU,
     * takes any number of threads. */
    int32_t cpu;     /* the CPU it runs on */
    uint32_t slot, slots, ncpus;
    int cpu_mode;    /* OVNI_CPU_* */
    uint64_t clock0; /* the clock of the stream's first event */
    uint32_t ids;    /* (index in the process + 1): the ids it gives out are its own */
    tasks t[TC_OVNI_M__COUNT];
    int set_value[TC_OVNI_CH__COUNT]; /* the last state set on a SINGLE channel, or -1 */
    picks pk[TC_OVNI_M__COUNT];
    open_item open[MAX_OPEN];
    unsigned nopen;
    uint64_t open_bytes;          /* of the events that close them */
};

static int has_tasks(int m)
{
    return m == TC_OVNI_M_NOSV || m == TC_OVNI_M_NANOS6 || m == TC_OVNI_M_OPENMP;
}

/* The thread events and regions of ovni's own model. */
static void apply_ovni(ovni_view *v, const ovni_ev *ev)
{
    char c = ev->mcv[1], x = ev->mcv[2];
    if (c == 'H') {
        switch (x) {
        case 'x': v->state = OVNI_ST_RUNNING; break;
        case 'e': v->state = OVNI_ST_DEAD; break;
        case 'p': v->state = OVNI_ST_PAUSED; break;
        case 'r': v->state = OVNI_ST_RUNNING; break;
        case 'c': v->state = OVNI_ST_COOLING; break;
        case 'w': v->state = OVNI_ST_WARMING; break;
        default: break;
        }
    } else if (c == 'F') {
        v->in_flush = x == '[';
    } else if (c == 'U') {
        v->in_unsorted = x == '[';
    }
}

/* The view after an event the synthesiser made. */
static inline void apply(ovni_view *v, const ovni_ev *ev)
{
    v->clock = ev->clock;
    v->events++;
    v->bytes += ovni_ev_size(ev);
    if (ev->mcv[0] == 'O')
        apply_ovni(v, ev);
    else if (ev->mcv[0] == 'K' && ev->mcv[1] == 'C')
        v->out_of_cpu = ev->mcv[2] == 'O';
}

static void find_picks(picks *p, int model)
{
    memset(p, 0, sizeof *p);
    for (size_t i = 0; i < tc_ovni_nevents; i++) {
        const tc_ovni_event_info *e = &tc_ovni_events[i];
        if ((int)e->model != model || (e->flags & (TC_OVNI_EVF_OLD | TC_OVNI_EVF_JUMBO)))
            continue;
        if (e->action == TC_OVNI_A_PUSH && p->npush < MAX_PICKS)
            p->push[p->npush++] = (uint16_t)i;
        else if (e->action == TC_OVNI_A_SET && p->nset < 8)
            p->set[p->nset++] = (uint16_t)i;
        else if (e->action == TC_OVNI_A_NONE && p->nnone < 16)
            p->none[p->nnone++] = (uint16_t)i;
    }
}

ovni_synth *ovni_synth_new(const ovni_plan *pl, size_t i, tc_rng *choices)
{
    ovni_synth *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    const ovni_stream_plan *sp = &pl->streams[i];
    s->r = choices;
    s->budget = sp->budget;
    s->uses = sp->uses;
    for (int m = 1; m < TC_OVNI_M__COUNT; m++)
        if (s->uses & OVNI_USES(m)) {
            s->models[s->nmodels++] = m;
            find_picks(&s->pk[m], m);
        }
    for (int c = 0; c < TC_OVNI_CH__COUNT; c++)
        s->set_value[c] = tc_ovni_chans[c].init; /* what the emulator starts a thread in */
    s->marks = sp->has_marks;
    s->cpu_mode = sp->cpu_mode;
    s->ncpus = (uint32_t)pl->looms[sp->loom].ncpus;
    s->slot = sp->proc * pl->p.threads + sp->thread;
    s->slots = pl->p.procs * pl->p.threads;
    s->ids = sp->thread + 1;
    s->tid = sp->tid;
    s->pid = sp->pid;
    s->be = sp->big_endian;
    s->v.state = OVNI_ST_NEW;
    s->v.clock = sp->clock0;
    s->clock0 = sp->clock0;
    s->v.bytes = TC_OVNI_HEADER_SIZE;
    return s;
}

void ovni_synth_free(ovni_synth *s) { free(s); }

const ovni_view *ovni_synth_view(const ovni_synth *s) { return &s->v; }

/* The next clock: mostly a little later, now and then the same (events in
 * one clock tick), rarely much later. */
static uint64_t later(ovni_synth *s, uint64_t x)
{
    /* Threads that share CPU 0 from one clock still run there together
     * after their first events, whatever order a reader takes them in. */
    int hold = s->cpu_mode == OVNI_CPU_ZERO && s->v.clock == s->clock0;
    if (((x >> 24) & 15) == 0 && !hold)
        return s->v.clock;
    uint64_t d = (x >> 8) & 0xffff;
    if (((x >> 28) & 63) == 0)
        return s->v.clock + d * 64 + 1;
    return s->v.clock + (d & 1023) + 1;
}

/* A CPU this thread may run on: one of its own, now and then (and always
 * when the loom has fewer CPUs than threads) the virtual CPU. */
static int32_t pick_cpu(ovni_synth *s, uint64_t x)
{
    if (s->cpu_mode != OVNI_CPU_OWN)
        return s->cpu_mode == OVNI_CPU_ZERO ? 0 : -1;
    uint32_t own = s->ncpus > s->slot ? (s->ncpus - s->slot - 1) / s->slots + 1 : 0;
    if (own == 0 || ((x >> 40) & 7) == 0)
        return -1;
    return (int32_t)(s->slot + (uint32_t)((x >> 43) % own) * s->slots);
}

/* Any CPU of the loom (OHC names one; nobody runs on it). */
static int32_t any_cpu(ovni_synth *s, uint64_t x) { return (int32_t)((x >> 40) % s->ncpus); }

static void i32_at(ovni_synth *s, unsigned at, int64_t v)
{
    tc_put32(s->pay + at, (uint32_t)v, s->be);
}
static void u64_at(ovni_synth *s, unsigned at, uint64_t v) { tc_put64(s->pay + at, v, s->be); }

static void make(ovni_synth *s, ovni_ev *ev, const char *mcv, uint64_t clock, unsigned len)
{
    ovni_ev_normal(ev, mcv, clock, s->pay, len);
    apply(&s->v, ev);
}

static void queue(ovni_synth *s, const char *mcv)
{
    memcpy(s->q[s->qn++], mcv, 3);
}

/* ---- regions ---- */

static unsigned close_size(const open_item *it) { return TC_OVNI_EVENT_HEADER_SIZE + it->len; }

/* Opens a region closed by `close` with the payload now in s->pay (len bytes). */
static open_item *push(ovni_synth *s, unsigned kind, const char *close, unsigned len)
{
    open_item *it = &s->open[s->nopen++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    memcpy(it->close, close, 3);
    memcpy(it->pay, s->pay, len);
    it->len = (uint8_t)len;
    it->model = TC_OVNI_M_OVNI;
    s->open_bytes += close_size(it);
    s->v.open = s->nopen;
    return it;
}

/* Closes the innermost region. */
static void pop(ovni_synth *s, ovni_ev *ev, uint64_t clock)
{
    const open_item *it = &s->open[--s->nopen];
    s->open_bytes -= close_size(it);
    s->v.open = s->nopen;
    memcpy(s->pay, it->pay, it->len);
    make(s, ev, it->close, clock, it->len);
}

/* The innermost task region of model m (a body running or paused), or NULL. */
static const open_item *innermost_task(const ovni_synth *s, int m)
{
    for (unsigned k = s->nopen; k-- > 0;)
        if ((s->open[k].kind == IT_TASK || s->open[k].kind == IT_PAUSE) && s->open[k].model == m)
            return &s->open[k];
    return NULL;
}

/* The innermost state entered on channel c, or -1. A nOS-V or Nanos6 task
 * body enters its model's 'running a task body' subsystem until it ends. */
static int chan_top(const ovni_synth *s, int c)
{
    for (unsigned k = s->nopen; k-- > 0;) {
        const open_item *it = &s->open[k];
        if (it->kind == IT_STATE && it->chan == c)
            return it->state;
        if (it->kind == IT_TASK && it->model == TC_OVNI_M_NANOS6 &&
            c == TC_OVNI_CH_NANOS6_SUBSYSTEM)
            return TC_OVNI_ST_NANOS6_TASK_BODY;
        if (it->kind == IT_TASK && it->model == TC_OVNI_M_NOSV && c == TC_OVNI_CH_NOSV_SUBSYSTEM)
            return TC_OVNI_ST_NOSV_TASK_BODY;
    }
    return -1;
}

/* The event that leaves state st of channel c. */
static const tc_ovni_event_info *pop_event(int c, int st)
{
    for (size_t i = 0; i < tc_ovni_nevents; i++)
        if (tc_ovni_events[i].action == TC_OVNI_A_POP && tc_ovni_events[i].chan == c &&
            tc_ovni_events[i].state == st)
            return &tc_ovni_events[i];
    return NULL;
}

/* ---- models: states, tasks ---- */

/* A task type registration: u32 type id, then its label and a NUL. */
static void type_registration(ovni_synth *s, ovni_ev *ev, uint64_t clock, uint64_t x, int m)
{
    uint32_t id = s->ids << TYPE_SHIFT | ++s->t[m].types;
    tc_put32(s->jumbo, id, s->be);
    int n;
    if (((x >> 44) & 63) == 0) { /* now and then a long one */
        size_t len = (size_t)((x >> 50) % MAX_LABEL) + 1;
        for (size_t k = 0; k < len; k++)
            s->jumbo[4 + k] = (uint8_t)('a' + (k * 7 + id) % 26);
        n = (int)len;
    } else if ((x >> 44) & 1) {
        n = snprintf((char *)s->jumbo + 4, 60, "task_type_%u", (unsigned)id);
    } else {
        n = snprintf((char *)s->jumbo + 4, 60, "solver::kernel<double, %u>", (unsigned)id);
    }
    s->jumbo[4 + n] = 0;
    char mcv[3] = {tc_ovni_model_table[m].letter, m == TC_OVNI_M_OPENMP ? 'O' : 'Y', 'c'};
    ovni_ev_jumbo(ev, mcv, clock, s->jumbo, (uint32_t)(4 + n + 1));
    apply(&s->v, ev);
}

/* A task event of model m: u32 task id, and for nOS-V a u32 body id (0:
 * the task is not parallel). */
static unsigned task_payload(ovni_synth *s, int m, uint32_t id)
{
    tc_put32(s->pay, id, s->be);
    if (m != TC_OVNI_M_NOSV)
        return 4;
    tc_put32(s->pay + 4, 0, s->be);
    return 8;
}

static void mcv_of(int m, char c, char v, char out[3])
{
    out[0] = tc_ovni_model_table[m].letter;
    out[1] = c;
    out[2] = v;
}

/* A task step of model m, kept as its model's books want it: tasks made of
 * a type the thread registered, run once, paused and resumed (nOS-V and
 * Nanos6) while they are the innermost, and ended; never a nOS-V body over
 * a running one, never a Nanos6 body straight over a task body. 0 when none
 * could be made here. */
static int task_step(ovni_synth *s, ovni_ev *ev, uint64_t clock, uint64_t x, int m,
                     unsigned what)
{
    tasks *t = &s->t[m];
    const open_item *task = innermost_task(s, m);
    int room = s->nopen < MAX_OPEN;
    char mcv[3], close[3];
    char tc = m == TC_OVNI_M_OPENMP ? 'P' : 'T';
    /* A few tasks wait to run at a time (a runtime's queue, not the whole
     * program's): what tracecheck keeps of them stays small. */
    if (what == 0 && t->types && t->made < (1u << TASK_SHIFT) - 1 && t->made - t->ran < 16) {
        uint32_t type = s->ids << TYPE_SHIFT | (uint32_t)(1 + (x >> 38) % t->types);
        tc_put32(s->pay, s->ids << TASK_SHIFT | ++t->made, s->be);
        tc_put32(s->pay + 4, type, s->be);
        mcv_of(m, tc, 'c', mcv);
        make(s, ev, mcv, clock, 8);
        return 1;
    }
    if (what == 1 && room && t->ran < t->made) {
        if (m == TC_OVNI_M_NOSV && task && task->kind == IT_TASK)
            return 0; /* nOS-V runs a body over a paused one only */
        if (m == TC_OVNI_M_NANOS6 &&
            chan_top(s, TC_OVNI_CH_NANOS6_SUBSYSTEM) == TC_OVNI_ST_NANOS6_TASK_BODY)
            return 0; /* its subsystems do not repeat */
        uint32_t id = s->ids << TASK_SHIFT | ++t->ran;
        unsigned len = task_payload(s, m, id);
        mcv_of(m, tc, 'x', mcv);
        make(s, ev, mcv, clock, len);
        mcv_of(m, tc, 'e', close);
        open_item *it = push(s, IT_TASK, close, len);
        it->model = m;
        return 1;
    }
    if (what == 2 && room && m != TC_OVNI_M_OPENMP && task && task->kind == IT_TASK &&
        task == &s->open[s->nopen - 1]) {
        unsigned len = task_payload(s, m, tc_rd32(task->pay, s->be));
        mcv_of(m, tc, 'p', mcv);
        make(s, ev, mcv, clock, len);
        mcv_of(m, tc, 'r', close);
        open_item *it = push(s, IT_PAUSE, close, len);
        it->model = m;
        return 1;
    }
    if (what == 3 && room && m == TC_OVNI_M_OPENMP && t->types) {
        /* A worksharing of one of its types: PQx, closed by PQe. */
        uint32_t type = s->ids << TYPE_SHIFT | (uint32_t)(1 + (x >> 38) % t->types);
        tc_put32(s->pay, type, s->be);
        make(s, ev, "PQx", clock, 4);
        open_item *it = push(s, IT_WS, "PQe", 4);
        it->model = m;
        return 1;
    }
    return 0;
}

/* Enters a state of model m (not over itself where its channel refuses
 * that), sets a value other than the one set, or an event that changes
 * nothing. */
static int state_step(ovni_synth *s, ovni_ev *ev, uint64_t clock, uint64_t x, int m,
                      unsigned what)
{
    const picks *p = &s->pk[m];
    if (what == 0 && p->npush && s->nopen < MAX_OPEN) {
        const tc_ovni_event_info *e = &tc_ovni_events[p->push[(x >> 38) % p->npush]];
        const tc_ovni_event_info *leave = pop_event(e->chan, e->state);
        if (!leave || (!tc_ovni_chans[e->chan].dup && chan_top(s, e->chan) == e->state))
            return 0;
        make(s, ev, e->mcv, clock, 0);
        open_item *it = push(s, IT_STATE, leave->mcv, 0);
        it->model = m;
        it->chan = e->chan;
        it->state = e->state;
        return 1;
    }
    if (what == 1 && p->nset) {
        const tc_ovni_event_info *e = &tc_ovni_events[p->set[(x >> 38) % p->nset]];
        if (s->set_value[e->chan] == e->state)
            e = &tc_ovni_events[p->set[((x >> 38) + 1) % p->nset]];
        if (s->set_value[e->chan] == e->state)
            return 0;
        s->set_value[e->chan] = e->state;
        make(s, ev, e->mcv, clock, 0);
        return 1;
    }
    if (what == 2 && p->nnone) {
        make(s, ev, tc_ovni_events[p->none[(x >> 38) % p->nnone]].mcv, clock, 0);
        return 1;
    }
    return 0;
}

/* An event of model m that keeps its books; 0 when none could be made. */
static int model_step(ovni_synth *s, ovni_ev *ev, uint64_t clock, uint64_t x, int m)
{
    if (m == TC_OVNI_M_KERNEL) {
        make(s, ev, "KCO", clock, 0); /* out of the CPU, and straight back */
        queue(s, "KCI");
        return 1;
    }
    unsigned what = (unsigned)((x >> 34) & 15);
    if (what < 4 && s->nopen) {
        pop(s, ev, clock);
        return 1;
    }
    if (what < 8)
        return state_step(s, ev, clock, x, m, 0);
    if (has_tasks(m) && what < 12)
        return task_step(s, ev, clock, x, m, what - 8);
    return state_step(s, ev, clock, x, m, what & 1 ? 1 : 2);
}

/* ---- ovni's marks ---- */

/* A mark of the stream's declared types: a value set (OVNI_MARK_SINGLE) or
 * pushed (OVNI_MARK_STACK, popped later by OM]); never 0, which the
 * emulator refuses. */
static void mark_event(ovni_synth *s, ovni_ev *ev, uint64_t clock, uint64_t x)
{
    int64_t value = (int64_t)((x >> 40) & 0xff) + 1;
    if (((x >> 38) & 1) && s->nopen < MAX_OPEN) {
        tc_put64(s->pay, (uint64_t)value, s->be);
        i32_at(s, 8, OVNI_MARK_STACK);
        make(s, ev, "OM[", clock, 12);
        push(s, IT_MARK, "OM]", 12);
    } else {
        tc_put64(s->pay, (uint64_t)value, s->be);
        i32_at(s, 8, OVNI_MARK_SINGLE);
        make(s, ev, "OM=", clock, 12);
    }
}

/* An event of a model the stream uses, or of ovni's own when it uses none. */
static void model_event(ovni_synth *s, ovni_ev *ev, uint64_t clock, uint64_t x)
{
    if (s->nmodels && model_step(s, ev, clock, x, s->models[(x >> 48) % s->nmodels]))
        return;
    if (s->marks && ((x >> 37) & 1))
        mark_event(s, ev, clock, x);
    else if (s->nopen && ((x >> 38) & 1))
        pop(s, ev, clock);
    else
        make(s, ev, "OB.", clock, 0);
}

static void body(ovni_synth *s, ovni_ev *ev)
{
    uint64_t x = tc_rng_u64(s->r);
    uint64_t clock = later(s, x);
    unsigned pick = (unsigned)(x & 0xff);
    switch (s->v.state) {
    case OVNI_ST_PAUSED:
        make(s, ev, pick < 170 ? "OHr" : "OHw", clock, 0);
        return;
    case OVNI_ST_WARMING:
        make(s, ev, "OHr", clock, 0);
        return;
    case OVNI_ST_COOLING:
        make(s, ev, "OHp", clock, 0);
        return;
    default: break;
    }
    if (pick < 170 || pick >= 243) {
        model_event(s, ev, clock, x);
    } else if (pick < 178) {
        uint64_t room = s->budget - s->v.bytes;
        int m = s->nmodels ? s->models[(x >> 48) % s->nmodels] : TC_OVNI_M_OVNI;
        if (has_tasks(m) && s->t[m].types < MAX_TYPES &&
            room > ENDING_RESERVE + s->open_bytes + 16 + MAX_LABEL + 64)
            type_registration(s, ev, clock, x, m);
        else
            model_event(s, ev, clock, x);
    } else if (pick < 190) {
        if (s->uses & OVNI_USES_KERNEL) {
            make(s, ev, "KCO", clock, 0);
            queue(s, "KCI");
        } else {
            model_event(s, ev, clock, x);
        }
    } else if (pick < 200) {
        if (s->marks)
            mark_event(s, ev, clock, x);
        else
            model_event(s, ev, clock, x);
    } else if (pick < 206) {
        /* The emulator moves the thread to that CPU (the same one: nothing). */
        s->cpu = pick_cpu(s, x);
        i32_at(s, 0, s->cpu);
        make(s, ev, "OAs", clock, 4);
    } else if (pick < 209) {
        /* A move of the thread itself, the one thread whose CPU is known
         * here; to another CPU, as the emulator's thread CPU channel
         * refuses to be set to the value it has. */
        int32_t to = pick_cpu(s, x);
        if (to == s->cpu)
            to = s->cpu == -1 ? pick_cpu(s, x | 7ull << 40) : -1;
        if (to == s->cpu) {
            make(s, ev, "OB.", clock, 0);
            return;
        }
        s->cpu = to;
        i32_at(s, 0, to);
        i32_at(s, 4, s->tid);
        make(s, ev, "OAr", clock, 8);
    } else if (pick < 215) {
        make(s, ev, "OF[", clock, 0);
        queue(s, "OF]");
    } else if (pick < 223) {
        make(s, ev, s->v.in_unsorted ? "OU]" : "OU[", clock, 0);
    } else if (pick < 231) {
        make(s, ev, "OHp", clock, 0);
    } else if (pick < 237) {
        make(s, ev, "OHc", clock, 0);
    } else if (pick < 240) {
        make(s, ev, "OB.", clock, 0);
    } else {
        i32_at(s, 0, any_cpu(s, x));
        u64_at(s, 4, tc_rng_u64(s->r));
        make(s, ev, "OHC", clock, 12);
    }
}

/* The way out: back to running (or end from cooling), close every open
 * region while the thread can still emit its models' events, close the
 * unsorted region, OHe, and sometimes a last flush. */
static void queue_end(ovni_synth *s)
{
    uint64_t x = tc_rng_u64(s->r);
    int roomy = s->budget >= ROOMY_END;
    switch (s->v.state) {
    case OVNI_ST_PAUSED:
        if (roomy && (x & 1))
            queue(s, "OHw");
        queue(s, "OHr");
        break;
    case OVNI_ST_WARMING: queue(s, "OHr"); break;
    case OVNI_ST_COOLING:
        /* Back to running: NODES', TAMPI's, MPI's and OpenMP's events,
         * which close the regions, need a running thread. */
        queue(s, "OHp");
        queue(s, "OHr");
        break;
    default: break;
    }
    queue(s, CLOSE_ALL);
    if (s->v.in_unsorted)
        queue(s, "OU]");
    if (s->v.state == OVNI_ST_RUNNING && roomy && ((x >> 2) & 3) == 0)
        queue(s, "OHc"); /* end from cooling */
    queue(s, "OHe");
    if (roomy && ((x >> 4) & 3) == 0) {
        queue(s, "OF[");
        queue(s, "OF]");
    }
}

/* The next queued event: 1, or 0 when the queue is empty. */
static int next_queued(ovni_synth *s, ovni_ev *ev)
{
    while (s->qi < s->qn) {
        uint64_t clock = later(s, tc_rng_u64(s->r));
        if (!memcmp(s->q[s->qi], CLOSE_ALL, 3)) {
            if (s->nopen) {
                pop(s, ev, clock);
                return 1;
            }
            s->qi++;
            continue;
        }
        make(s, ev, s->q[s->qi++], clock, 0);
        if (s->qi == s->qn)
            s->qi = s->qn = 0;
        return 1;
    }
    s->qi = s->qn = 0;
    return 0;
}

int ovni_synth_next(ovni_synth *s, ovni_ev *ev)
{
    if (next_queued(s, ev))
        return 1;
    if (s->phase == 0) {
        uint64_t x = tc_rng_u64(s->r);
        s->cpu = pick_cpu(s, x);
        i32_at(s, 0, s->cpu);
        i32_at(s, 4, s->tid == s->pid ? -1 : s->pid); /* the creator, or none for main */
        u64_at(s, 8, x & 0xffff ? 0 : tc_rng_u64(s->r));
        make(s, ev, "OHx", s->v.clock, 16);
        s->phase = 1;
        return 1;
    }
    if (s->phase == 1) {
        uint64_t room = ENDING_RESERVE + s->open_bytes + MAX_CLOSE + TC_OVNI_EVENT_HEADER_SIZE +
                        OVNI_MAX_PAYLOAD;
        if (s->v.bytes + room <= s->budget) {
            body(s, ev);
            return 1;
        }
        s->phase = 2;
        queue_end(s);
        return ovni_synth_next(s, ev);
    }
    return 0;
}
