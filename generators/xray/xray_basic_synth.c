#include <stdlib.h>
#include <string.h>

#include "xray_basic_synth.h"
#include "xray_synth.h"

#define MAX_DEPTH 24
#define FUNCTIONS 200

typedef struct bthread {
    uint32_t tid, pid;
    uint8_t cpu;
    uint64_t tsc;
    unsigned depth;
    int32_t stack[MAX_DEPTH];
} bthread;

struct xray_basic_synth {
    tc_rng *rng;
    xray_basic_params p;
    xray_basic_header bh;
    unsigned ncpus;
    bthread *threads;
    uint64_t produced; /* bytes of the log so far */
};

xray_basic_synth *xray_basic_synth_new(const xray_basic_params *p, tc_rng *choices)
{
    xray_basic_synth *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->rng = choices;
    s->p = *p;
    if (s->p.threads == 0)
        s->p.threads = 1;
    if (s->p.buffer_size == 0)
        s->p.buffer_size = XRAY_BASIC_DEFAULT_BUFFER_SIZE;
    s->threads = calloc(s->p.threads, sizeof *s->threads);
    if (!s->threads) {
        free(s);
        return NULL;
    }
    xray_synth_fill_header(&s->bh.h, p->version, 0, p->big_endian, choices);
    /* The union after the frequency: a timespec (seconds, nanoseconds) in
     * the log's byte order, as the runtime leaves it. */
    uint64_t sec = tc_rng_range(choices, 1500000000u, 1900000000u);
    uint64_t nsec = tc_rng_below(choices, 1000000000u);
    for (int i = 0; i < 8; i++) {
        s->bh.extra[p->big_endian ? 7 - i : i] = (uint8_t)(sec >> (8 * i));
        s->bh.extra[8 + (p->big_endian ? 7 - i : i)] = (uint8_t)(nsec >> (8 * i));
    }

    uint32_t pid = (uint32_t)tc_rng_range(choices, 100, 4000000);
    s->ncpus = (unsigned)tc_rng_range(choices, 1, 64);
    uint64_t tsc = tc_rng_range(choices, 1u << 20, 1ull << 61);
    for (unsigned i = 0; i < s->p.threads; i++) {
        bthread *t = &s->threads[i];
        t->tid = pid + i;
        t->pid = p->version >= 3 ? pid : 0;
        t->cpu = (uint8_t)tc_rng_below(choices, s->ncpus);
        t->tsc = tsc + tc_rng_below(choices, 1u << 20);
    }
    s->produced = TC_XRAY_HEADER_SIZE;
    return s;
}

void xray_basic_synth_free(xray_basic_synth *s)
{
    if (!s)
        return;
    free(s->threads);
    free(s);
}

const xray_basic_header *xray_basic_synth_header(const xray_basic_synth *s) { return &s->bh; }

/* ---- records ---- */

static void function(xray_basic_synth *s, bthread *t, xray_basic_block *b, unsigned type,
                     int32_t func)
{
    t->tsc += tc_rng_chance(s->rng, 1, 32) ? tc_rng_range(s->rng, 1000, 1u << 24)
                                           : tc_rng_range(s->rng, 1, 400);
    if (s->ncpus > 1 && tc_rng_chance(s->rng, 1, 64)) /* a migration; the TSC goes on */
        t->cpu = (uint8_t)((t->cpu + 1 + tc_rng_below(s->rng, s->ncpus - 1)) % s->ncpus);
    xray_basic_rec *r = xray_basic_insert(b, b->n);
    r->rtype = TC_XRAY_BASIC_FUNCTION;
    r->cpu = t->cpu;
    r->type = (uint8_t)type;
    r->func = func;
    r->tsc = t->tsc;
    r->tid = t->tid;
    r->pid = t->pid;
}

static void enter(xray_basic_synth *s, bthread *t, xray_basic_block *b, int with_arg)
{
    int32_t func = (int32_t)tc_rng_range(s->rng, 1, FUNCTIONS);
    function(s, t, b, with_arg ? 3 : 0, func);
    if (with_arg) {
        xray_basic_rec *r = xray_basic_insert(b, b->n);
        r->rtype = TC_XRAY_BASIC_ARG_PAYLOAD;
        r->func = func;
        r->tid = t->tid;
        r->pid = t->pid;
        r->arg = tc_rng_chance(s->rng, 1, 2) ? tc_rng_below(s->rng, 5000)
                                             : tc_rng_u64(s->rng); /* pointers and counts */
    }
    if (t->depth < MAX_DEPTH)
        t->stack[t->depth] = func;
    t->depth++;
}

static void leave(xray_basic_synth *s, bthread *t, xray_basic_block *b, unsigned type)
{
    int32_t func = t->depth <= MAX_DEPTH ? t->stack[t->depth - 1]
                                         : (int32_t)tc_rng_range(s->rng, 1, FUNCTIONS);
    t->depth--;
    function(s, t, b, type, func);
}

/* One step of the thread's run, in at most `room` records; 0 when none fits. */
static int step(xray_basic_synth *s, bthread *t, xray_basic_block *b, uint64_t room)
{
    unsigned roll = (unsigned)tc_rng_below(s->rng, 1000);
    if (t->depth == 0)
        roll = 0;
    else if (t->depth >= MAX_DEPTH && roll < 500)
        roll += 500;
    if (roll < 480) { /* a call, with its argument logged one time in five */
        int with_arg = room >= 2 && tc_rng_chance(s->rng, 1, 5);
        enter(s, t, b, with_arg);
    } else if (roll < 940 || s->p.version < 2 || room < 2) {
        leave(s, t, b, 1);
    } else { /* a tail call: the callee takes the caller's place */
        leave(s, t, b, 2);
        enter(s, t, b, 0);
    }
    return 1;
}

int xray_basic_synth_next(xray_basic_synth *s, xray_basic_block *b, int *last)
{
    if (s->produced >= s->p.size)
        return 0;
    xray_basic_block_clear(b);
    uint64_t cap = s->p.buffer_size / TC_XRAY_BASIC_RECORD_SIZE;
    if (cap < 2)
        cap = 2;
    /* Most blocks are a full buffer; some are flushed early, as when a
     * thread exits or logging is finalised. */
    uint64_t want = tc_rng_chance(s->rng, 1, 8) ? tc_rng_range(s->rng, 1, cap) : cap;
    uint64_t left = (s->p.size - s->produced + TC_XRAY_BASIC_RECORD_SIZE - 1) /
                    TC_XRAY_BASIC_RECORD_SIZE;
    if (want >= left) {
        want = left;
        *last = 1;
    } else {
        *last = 0;
    }
    bthread *t = &s->threads[tc_rng_below(s->rng, s->p.threads)];
    while (b->n < want)
        step(s, t, b, want - b->n);
    s->produced += b->n * TC_XRAY_BASIC_RECORD_SIZE;
    if (*last)
        s->p.size = s->produced; /* whole records: it may go a few bytes over */
    return 1;
}
