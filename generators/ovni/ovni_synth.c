#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/common/bytes.h"
#include "ovni_synth.h"

/* Bytes kept for the end of a stream: OU], two state changes, OHe, OF[ OF]. */
#define ENDING_RESERVE 72u
/* Budget from which the end may take a detour (cool first, flush after). */
#define ROOMY_END 256u
#define QUEUE 8u
#define MAX_JUMBO 8192u

struct ovni_synth {
    tc_rng *r;
    ovni_view v;
    uint64_t budget;
    unsigned uses;
    unsigned ncpus;
    int64_t tid, pid;
    int be;
    int phase; /* 0: OHx next, 1: body, 2: the end is queued */
    char q[QUEUE][3];
    unsigned qn, qi;
    uint8_t pay[OVNI_MAX_PAYLOAD];
    uint8_t jumbo[MAX_JUMBO + 64];
    uint32_t types; /* task types registered with VYc */
};

/* nosv events, as libovni's nosv model names them; their payloads are not
 * judged, so sizes vary over 0 and 2..16. */
static const char nosv_events[32][3] = {
    "VTc", "VTx", "VTe", "VTp", "VTr", "VSr", "VSs", "VS@", "VSh", "VSf", "VS[", "VS]",
    "VU[", "VU]", "VMa", "VMA", "VMf", "VMF", "VAr", "VAR", "VAs", "VAS", "VAe", "VAE",
    "VHa", "VHA", "VHw", "VHW", "VPp", "VPs", "VPc", "VPC",
};
static const char kernel_events[2][3] = {"KCO", "KCI"};
static const char mark_events[3][3] = {"OM[", "OM]", "OM="};

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
    s->ncpus = (unsigned)pl->looms[sp->loom].ncpus;
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

/* 16 bytes of payload from one choice: cheap, and random enough for
 * payloads nobody judges. */
static void fill(ovni_synth *s)
{
    uint64_t a = tc_rng_u64(s->r), b = a * 0x9e3779b97f4a7c15ull + 1;
    memcpy(s->pay, &a, 8);
    memcpy(s->pay + 8, &b, 8);
}

static int32_t cpu(ovni_synth *s, uint64_t x) { return (int32_t)((x >> 40) % s->ncpus); }

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

/* A task type registration: u32 type id, then its label and a NUL. */
static void type_registration(ovni_synth *s, ovni_ev *ev, uint64_t clock, uint64_t x)
{
    uint32_t id = ++s->types;
    tc_put32(s->jumbo, id, s->be);
    int n;
    if (((x >> 44) & 63) == 0) { /* now and then a long one */
        size_t len = (size_t)((x >> 50) % MAX_JUMBO) + 1;
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

/* An event of a model the stream uses, or of ovni's own when it uses none. */
static void model_event(ovni_synth *s, ovni_ev *ev, uint64_t clock, uint64_t x)
{
    if (s->uses & OVNI_USES_NOSV) {
        unsigned code = (unsigned)((x >> 34) & 15); /* payload 0 or code + 1 bytes */
        fill(s);
        make(s, ev, nosv_events[(x >> 38) & 31], clock, code ? code + 1 : 0);
    } else if (s->uses & OVNI_USES_KERNEL) {
        make(s, ev, kernel_events[(x >> 38) & 1], clock, 0);
    } else if ((x >> 38) & 1) {
        make(s, ev, "OB.", clock, 0);
    } else {
        fill(s);
        make(s, ev, mark_events[(x >> 39) % 3], clock, 12);
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
        if ((s->uses & OVNI_USES_NOSV) && room > ENDING_RESERVE + 16 + MAX_JUMBO + 64)
            type_registration(s, ev, clock, x);
        else
            model_event(s, ev, clock, x);
    } else if (pick < 190) {
        if (s->uses & OVNI_USES_KERNEL)
            make(s, ev, kernel_events[(x >> 38) & 1], clock, 0);
        else
            model_event(s, ev, clock, x);
    } else if (pick < 200) {
        fill(s); /* i64 value, i32 type */
        i32_at(s, 8, (int64_t)((x >> 40) & 7));
        make(s, ev, mark_events[(x >> 38) % 3], clock, 12);
    } else if (pick < 206) {
        i32_at(s, 0, cpu(s, x));
        make(s, ev, "OAs", clock, 4);
    } else if (pick < 209) {
        i32_at(s, 0, cpu(s, x));
        i32_at(s, 4, s->tid + (int64_t)((x >> 36) & 15) + 1);
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
        i32_at(s, 0, cpu(s, x));
        u64_at(s, 4, tc_rng_u64(s->r));
        make(s, ev, "OHC", clock, 12);
    } else {
        i32_at(s, 0, cpu(s, x));
        make(s, ev, "OCn", clock, 4);
    }
}

/* The way out: close the unsorted region, get back to running (or end from
 * cooling), OHe, and sometimes a last flush. */
static void queue_end(ovni_synth *s)
{
    uint64_t x = tc_rng_u64(s->r);
    int roomy = s->budget >= ROOMY_END;
    if (s->v.in_unsorted)
        queue(s, "OU]");
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
    default:
        if (roomy && ((x >> 2) & 3) == 0)
            queue(s, "OHc"); /* end from cooling */
        break;
    }
    queue(s, "OHe");
    if (roomy && ((x >> 4) & 3) == 0) {
        queue(s, "OF[");
        queue(s, "OF]");
    }
}

int ovni_synth_next(ovni_synth *s, ovni_ev *ev)
{
    if (s->qi < s->qn) {
        make(s, ev, s->q[s->qi++], later(s, tc_rng_u64(s->r)), 0);
        if (s->qi == s->qn)
            s->qi = s->qn = 0;
        return 1;
    }
    if (s->phase == 0) {
        uint64_t x = tc_rng_u64(s->r);
        i32_at(s, 0, cpu(s, x));
        i32_at(s, 4, s->tid == s->pid ? -1 : s->pid); /* the creator, or none for main */
        u64_at(s, 8, x & 0xffff ? 0 : tc_rng_u64(s->r));
        make(s, ev, "OHx", s->v.clock, 16);
        s->phase = 1;
        return 1;
    }
    if (s->phase == 1) {
        uint64_t room = ENDING_RESERVE + TC_OVNI_EVENT_HEADER_SIZE + OVNI_MAX_PAYLOAD;
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
