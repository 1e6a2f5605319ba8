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
#define TASK_SHIFT 20
/* A queue entry that stands for "close every open region". */
static const char CLOSE_ALL[3] = {0, 'C', 'A'};

enum { IT_SUBSYSTEM, IT_TASK, IT_PAUSE, IT_MARK };

/* A region the stream has opened and must close, in reverse order. */
typedef struct open_item {
    unsigned kind;
    char close[3];   /* the event that closes it */
    uint32_t id;     /* IT_TASK, IT_PAUSE: the task */
    int64_t value;   /* IT_MARK: the value pushed */
} open_item;

struct ovni_synth {
    tc_rng *r;
    ovni_view v;
    uint64_t budget;
    unsigned uses;
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
    /* nosv's tasks and subsystems, as libovni's nosv model follows them. */
    uint32_t ids;                 /* (index in the process + 1) */
    uint32_t types, tasks, ran;   /* task types and tasks made; tasks executed */
    unsigned idle;                /* the last idle state set (VPp, VPr, VPa) */
    open_item open[MAX_OPEN];
    unsigned nopen;
    uint64_t open_bytes;          /* of the events that close them */
};

/* nosv events that stand alone: a task sent, received or self-assigned,
 * nosv_attach() entered and left (libovni's nosv model ignores them). */
static const char nosv_single[5][3] = {"VSr", "VSs", "VS@", "VHa", "VHA"};
/* nosv subsystems: the event that enters one and the event that leaves it. */
static const char nosv_pairs[][2][3] = {
    {"VS[", "VS]"}, {"VSN", "VSn"}, {"VSh", "VSf"}, {"VU[", "VU]"}, {"VMa", "VMA"},
    {"VMf", "VMF"}, {"VAr", "VAR"}, {"VAd", "VAD"}, {"VAs", "VAS"}, {"VAp", "VAP"},
    {"VAy", "VAY"}, {"VAw", "VAW"}, {"VAc", "VAC"}, {"VAa", "VAA"}, {"VAe", "VAE"},
    {"VAl", "VAL"}, {"VAt", "VAT"}, {"VAu", "VAU"}, {"VAb", "VAB"}, {"VAo", "VAO"},
    {"VAg", "VAG"}, {"VAk", "VAK"}, {"VAj", "VAJ"}, {"VAm", "VAM"}, {"VAi", "VAI"},
    {"VAn", "VAN"}, {"VHw", "VHW"}, {"VHd", "VHD"},
};
#define NOSV_PAIRS (sizeof nosv_pairs / sizeof nosv_pairs[0])
static const char nosv_idle[3][3] = {"VPp", "VPr", "VPa"};

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

ovni_synth *ovni_synth_new(const ovni_plan *pl, size_t i, tc_rng *choices)
{
    ovni_synth *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    const ovni_stream_plan *sp = &pl->streams[i];
    s->r = choices;
    s->budget = sp->budget;
    s->uses = sp->uses;
    s->marks = sp->has_marks;
    s->ncpus = (uint32_t)pl->looms[sp->loom].ncpus;
    s->slot = sp->proc * pl->p.threads + sp->thread;
    s->slots = pl->p.procs * pl->p.threads;
    s->ids = sp->thread + 1;
    s->tid = sp->tid;
    s->pid = sp->pid;
    s->be = sp->big_endian;
    s->v.state = OVNI_ST_NEW;
    s->v.clock = sp->clock0;
    s->v.bytes = TC_OVNI_HEADER_SIZE;
    return s;
}

void ovni_synth_free(ovni_synth *s) { free(s); }

const ovni_view *ovni_synth_view(const ovni_synth *s) { return &s->v; }

/* The next clock: mostly a little later, now and then the same (events in
 * one clock tick), rarely much later. */
static uint64_t later(ovni_synth *s, uint64_t x)
{
    if (((x >> 24) & 15) == 0)
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
    uint32_t own = s->ncpus > s->slot ? (s->ncpus - s->slot - 1) / s->slots + 1 : 0;
    if (own == 0 || ((x >> 40) & 7) == 0)
        return -1;
    return (int32_t)(s->slot + (uint32_t)((x >> 43) % own) * s->slots);
}

/* Any CPU of the loom (OHC and OCn name one; nobody runs on it). */
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

/* A nosv task event: u32 task id, u32 body id (0: the task is not
 * parallel). */
static void task_event(ovni_synth *s, ovni_ev *ev, const char *mcv, uint64_t clock, uint32_t id,
                       uint32_t second)
{
    tc_put32(s->pay, id, s->be);
    tc_put32(s->pay + 4, second, s->be);
    make(s, ev, mcv, clock, 8);
}

static void queue(ovni_synth *s, const char *mcv)
{
    memcpy(s->q[s->qn++], mcv, 3);
}

/* ---- regions ---- */

static unsigned close_size(const open_item *it)
{
    switch (it->kind) {
    case IT_TASK:
    case IT_PAUSE: return TC_OVNI_EVENT_HEADER_SIZE + 8;
    case IT_MARK: return TC_OVNI_EVENT_HEADER_SIZE + 12;
    default: return TC_OVNI_EVENT_HEADER_SIZE;
    }
}

static void push(ovni_synth *s, unsigned kind, const char *close, uint32_t id, int64_t value)
{
    open_item *it = &s->open[s->nopen++];
    it->kind = kind;
    memcpy(it->close, close, 3);
    it->id = id;
    it->value = value;
    s->open_bytes += close_size(it);
}

/* The innermost task region (a task body or a paused task), or NULL. */
static const open_item *innermost_task(const ovni_synth *s)
{
    for (unsigned k = s->nopen; k-- > 0;)
        if (s->open[k].kind == IT_TASK || s->open[k].kind == IT_PAUSE)
            return &s->open[k];
    return NULL;
}

/* Closes the innermost region. */
static void pop(ovni_synth *s, ovni_ev *ev, uint64_t clock)
{
    const open_item *it = &s->open[--s->nopen];
    s->open_bytes -= close_size(it);
    switch (it->kind) {
    case IT_TASK:
    case IT_PAUSE:
        task_event(s, ev, it->close, clock, it->id, 0);
        break;
    case IT_MARK:
        tc_put64(s->pay, (uint64_t)it->value, s->be);
        i32_at(s, 8, OVNI_MARK_STACK);
        make(s, ev, it->close, clock, 12);
        break;
    default:
        make(s, ev, it->close, clock, 0);
        break;
    }
}

/* ---- nosv ---- */

/* A task type registration: u32 type id, then its label and a NUL. */
static void type_registration(ovni_synth *s, ovni_ev *ev, uint64_t clock, uint64_t x)
{
    uint32_t id = s->ids << TYPE_SHIFT | ++s->types;
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
    ovni_ev_jumbo(ev, "VYc", clock, s->jumbo, (uint32_t)(4 + n + 1));
    apply(&s->v, ev);
}

/* A nosv event that keeps the model's books: tasks are made of a type the
 * thread registered, executed once (never over a running body: only over
 * a paused one), paused and resumed while they are the innermost, and
 * ended; subsystems are entered and left in nested order; the idle state
 * changes to another value. What cannot be done here becomes a lone event. */
static void nosv_event(ovni_synth *s, ovni_ev *ev, uint64_t clock, uint64_t x)
{
    unsigned what = (unsigned)((x >> 34) & 15);
    const open_item *task = innermost_task(s);
    int room = s->nopen < MAX_OPEN;
    if (what < 4 && s->nopen) {
        pop(s, ev, clock);
    } else if (what < 8 && room) {
        const char(*p)[3] = nosv_pairs[(x >> 38) % NOSV_PAIRS];
        make(s, ev, p[0], clock, 0);
        push(s, IT_SUBSYSTEM, p[1], 0, 0);
    } else if (what == 8 && s->types && s->tasks < (1u << TASK_SHIFT) - 1) {
        uint32_t type = s->ids << TYPE_SHIFT | (uint32_t)(1 + (x >> 38) % s->types);
        task_event(s, ev, "VTc", clock, s->ids << TASK_SHIFT | ++s->tasks, type);
    } else if (what == 9 && room && s->ran < s->tasks && !(task && task->kind == IT_TASK)) {
        uint32_t id = s->ids << TASK_SHIFT | ++s->ran;
        task_event(s, ev, "VTx", clock, id, 0);
        push(s, IT_TASK, "VTe", id, 0);
    } else if (what == 10 && room && task && task->kind == IT_TASK) {
        uint32_t id = task->id;
        task_event(s, ev, "VTp", clock, id, 0);
        push(s, IT_PAUSE, "VTr", id, 0);
    } else if (what == 11) {
        s->idle = (s->idle + 1 + (unsigned)((x >> 38) & 1)) % 3;
        make(s, ev, nosv_idle[s->idle], clock, 0);
    } else {
        make(s, ev, nosv_single[(x >> 38) % 5], clock, 0);
    }
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
        push(s, IT_MARK, "OM]", 0, value);
    } else {
        tc_put64(s->pay, (uint64_t)value, s->be);
        i32_at(s, 8, OVNI_MARK_SINGLE);
        make(s, ev, "OM=", clock, 12);
    }
}

/* An event of a model the stream uses, or of ovni's own when it uses none. */
static void model_event(ovni_synth *s, ovni_ev *ev, uint64_t clock, uint64_t x)
{
    if (s->uses & OVNI_USES_NOSV) {
        nosv_event(s, ev, clock, x);
    } else if (s->uses & OVNI_USES_KERNEL) {
        make(s, ev, "KCO", clock, 0); /* out of the CPU, and straight back */
        queue(s, "KCI");
    } else if (s->marks && ((x >> 37) & 1)) {
        mark_event(s, ev, clock, x);
    } else if (s->nopen && ((x >> 38) & 1)) {
        pop(s, ev, clock);
    } else {
        make(s, ev, "OB.", clock, 0);
    }
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
        if ((s->uses & OVNI_USES_NOSV) && s->types < (1u << TYPE_SHIFT) - 1 &&
            room > ENDING_RESERVE + s->open_bytes + 16 + MAX_LABEL + 64)
            type_registration(s, ev, clock, x);
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
    } else if (pick < 242) {
        i32_at(s, 0, any_cpu(s, x));
        u64_at(s, 4, tc_rng_u64(s->r));
        make(s, ev, "OHC", clock, 12);
    } else {
        i32_at(s, 0, any_cpu(s, x));
        make(s, ev, "OCn", clock, 4);
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
        if (x & 2) {
            queue(s, "OHp");
            queue(s, "OHr");
        }
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
