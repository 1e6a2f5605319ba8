#include <stdlib.h>
#include <string.h>

#include "xray_synth.h"

#define MAX_DEPTH 24
#define FUNCTIONS 200
#define MAX_PAYLOAD 96

typedef struct xthread {
    int32_t tid;
    uint16_t cpu;
    uint64_t tsc;
    unsigned depth;
    uint32_t stack[MAX_DEPTH];
} xthread;

struct xray_synth {
    tc_rng *rng;
    xray_gen_params p;
    xray_file_header fh;
    int32_t pid;
    int64_t epoch;
    unsigned ncpus;
    xthread *threads;
    uint64_t produced; /* bytes of the file so far */
    uint64_t buffers;
    int showcase_done;
    uint8_t payload[MAX_PAYLOAD];
};

void xray_synth_fill_header(tc_xray_header *h, unsigned version, uint16_t type, int big_endian,
                            tc_rng *choices)
{
    static const uint64_t freqs[] = {1000000000ull, 2400000000ull, 2899999000ull, 3600000000ull};
    h->version = (uint16_t)version;
    h->type = type;
    h->bitfield = big_endian ? 3u << 30 : 3u; /* constant and non-stop TSC */
    h->cycle_frequency = freqs[tc_rng_below(choices, 4)];
    h->big_endian = big_endian;
}

xray_synth *xray_synth_new(const xray_gen_params *p, tc_rng *choices)
{
    xray_synth *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->rng = choices;
    s->p = *p;
    if (s->p.threads == 0)
        s->p.threads = 1;
    if (s->p.buffer_size == 0)
        s->p.buffer_size = XRAY_DEFAULT_BUFFER_SIZE;
    s->threads = calloc(s->p.threads, sizeof *s->threads);
    if (!s->threads) {
        free(s);
        return NULL;
    }
    tc_xray_header *h = &s->fh.h;
    xray_synth_fill_header(h, p->version, 1, p->big_endian, choices);
    h->buffer_size = s->p.buffer_size;

    s->pid = (int32_t)tc_rng_range(choices, 100, 4000000);
    s->epoch = (int64_t)tc_rng_range(choices, 1, 1u << 30);
    s->ncpus = (unsigned)tc_rng_range(choices, 1, 64);
    uint64_t tsc = tc_rng_range(choices, 1u << 20, 1ull << 61);
    for (unsigned i = 0; i < s->p.threads; i++) {
        xthread *t = &s->threads[i];
        t->tid = s->pid + (int32_t)i;
        t->cpu = (uint16_t)tc_rng_below(choices, s->ncpus);
        t->tsc = tsc + tc_rng_below(choices, 1u << 20);
    }
    s->produced = TC_XRAY_HEADER_SIZE;
    return s;
}

void xray_synth_free(xray_synth *s)
{
    if (!s)
        return;
    free(s->threads);
    free(s);
}

const xray_file_header *xray_synth_header(const xray_synth *s) { return &s->fh; }

/* ---- record helpers ---- */

static uint32_t small_delta(xray_synth *s)
{
    if (tc_rng_chance(s->rng, 1, 32))
        return (uint32_t)tc_rng_range(s->rng, 1000, 1u << 24);
    return (uint32_t)tc_rng_range(s->rng, 1, 400);
}

static void function(xray_synth *s, xthread *t, xray_buffer *b, unsigned action, uint32_t fid)
{
    uint32_t d = small_delta(s);
    t->tsc += d;
    xray_add_function(b, action, fid, d);
}

static uint32_t pick_function(xray_synth *s) { return (uint32_t)tc_rng_range(s->rng, 1, FUNCTIONS); }

static void enter(xray_synth *s, xthread *t, xray_buffer *b, unsigned nargs)
{
    uint32_t fid = pick_function(s);
    function(s, t, b, nargs ? TC_XRAY_ENTER_ARGS : TC_XRAY_ENTER, fid);
    for (unsigned i = 0; i < nargs; i++) {
        xray_rec *r = xray_add_meta(b, TC_XRAY_CALL_ARG);
        r->u64 = tc_rng_chance(s->rng, 1, 2) ? tc_rng_below(s->rng, 5000)
                                             : tc_rng_u64(s->rng); /* pointers and counts */
    }
    if (t->depth < MAX_DEPTH)
        t->stack[t->depth] = fid;
    t->depth++;
}

static void leave(xray_synth *s, xthread *t, xray_buffer *b, unsigned action)
{
    uint32_t fid = t->depth <= MAX_DEPTH ? t->stack[t->depth - 1] : pick_function(s);
    t->depth--;
    function(s, t, b, action, fid);
}

static uint32_t payload(xray_synth *s)
{
    uint32_t len = (uint32_t)tc_rng_range(s->rng, 1, MAX_PAYLOAD);
    if (s->fh.h.version == 1)
        len = (len + 7) & ~7u; /* keeps version 1 buffers fillable to the last byte */
    for (uint32_t i = 0; i < len; i++)
        s->payload[i] = (uint8_t)tc_rng_range(s->rng, 0x20, 0x7e);
    return len;
}

static void custom_event(xray_synth *s, xthread *t, xray_buffer *b, uint32_t len)
{
    xray_rec *r = xray_add_event(b, TC_XRAY_CUSTOM_EVENT, s->payload, len);
    uint32_t d = small_delta(s);
    if (s->fh.h.version >= 5) {
        r->delta = d;
        t->tsc += d;
    } else {
        r->u64 = t->tsc + d; /* versions 1-4: an absolute TSC; the base does not move */
        r->u16 = t->cpu;
    }
}

static void typed_event(xray_synth *s, xthread *t, xray_buffer *b, uint32_t len)
{
    xray_rec *r = xray_add_event(b, TC_XRAY_TYPED_EVENT, s->payload, len);
    uint32_t d = small_delta(s);
    r->delta = d;
    r->u16 = (uint16_t)tc_rng_below(s->rng, 16);
    t->tsc += d;
}

static void migrate(xray_synth *s, xthread *t, xray_buffer *b)
{
    if (s->ncpus > 1)
        t->cpu = (uint16_t)((t->cpu + 1 + tc_rng_below(s->rng, s->ncpus - 1)) % s->ncpus);
    t->tsc += small_delta(s);
    xray_rec *r = xray_add_meta(b, TC_XRAY_NEW_CPU);
    r->u16 = t->cpu;
    r->u64 = t->tsc;
}

static void wrap(xray_synth *s, xthread *t, xray_buffer *b)
{
    /* A gap the 32-bit delta cannot hold: the runtime writes the absolute TSC. */
    t->tsc += (1ull << 32) + tc_rng_below(s->rng, 1ull << 32);
    xray_rec *r = xray_add_meta(b, TC_XRAY_TSC_WRAP);
    r->u64 = t->tsc;
}

static void preamble(xray_synth *s, xthread *t, xray_buffer *b)
{
    const tc_xray_header *h = &s->fh.h;
    xray_rec *r = xray_add_meta(b, TC_XRAY_NEW_BUFFER);
    r->i32 = t->tid;
    r = xray_add_meta(b, TC_XRAY_WALL_TIME);
    r->u64 = (uint64_t)s->epoch + t->tsc / h->cycle_frequency;
    r->i32 = (int32_t)((t->tsc % h->cycle_frequency) * 1000000u / h->cycle_frequency);
    if (h->version >= 3) {
        r = xray_add_meta(b, TC_XRAY_PID);
        r->i32 = s->pid;
    }
    t->tsc += small_delta(s);
    r = xray_add_meta(b, TC_XRAY_NEW_CPU);
    r->u16 = t->cpu;
    r->u64 = t->tsc;
}

/* One of each record kind the version has, near the start of the trace. */
static int showcase(xray_synth *s, xthread *t, xray_buffer *b, uint64_t room)
{
    unsigned v = s->fh.h.version;
    uint32_t len = payload(s);
    uint64_t need = 8 + 8 + 16 + (16 + len) + (v >= 5 ? 16 + len : 0) + 16 + 16 + 8 + 8 + 8 + 8 +
                    8 * (uint64_t)t->depth;
    if (need > room)
        return 0;
    enter(s, t, b, 0);
    enter(s, t, b, 1);
    custom_event(s, t, b, len);
    if (v >= 5)
        typed_event(s, t, b, len);
    wrap(s, t, b);
    migrate(s, t, b);
    leave(s, t, b, TC_XRAY_TAIL_EXIT); /* a tail call: the callee takes the caller's place */
    enter(s, t, b, 0);
    leave(s, t, b, TC_XRAY_EXIT);
    leave(s, t, b, TC_XRAY_EXIT);
    return 1;
}

/* One step of the thread's run; 0 when it does not fit in room. */
static int step(xray_synth *s, xthread *t, xray_buffer *b, uint64_t room)
{
    unsigned v = s->fh.h.version;
    unsigned roll = (unsigned)tc_rng_below(s->rng, 1000);
    if (t->depth == 0)
        roll = 0;
    else if (t->depth >= MAX_DEPTH && roll < 500)
        roll += 500;

    if (roll < 440) { /* call */
        unsigned nargs = tc_rng_chance(s->rng, 1, 5) ? (tc_rng_chance(s->rng, 1, 8) ? 2 : 1) : 0;
        if (8 + 16 * nargs > room)
            return 0;
        enter(s, t, b, nargs);
    } else if (roll < 900) { /* return */
        if (8 > room)
            return 0;
        leave(s, t, b, TC_XRAY_EXIT);
    } else if (roll < 930) { /* tail call */
        if (16 > room)
            return 0;
        leave(s, t, b, TC_XRAY_TAIL_EXIT);
        enter(s, t, b, 0);
    } else if (roll < 955) {
        uint32_t len = payload(s);
        if (16 + len > room)
            return 0;
        custom_event(s, t, b, len);
    } else if (roll < 975 && v >= 5) {
        uint32_t len = payload(s);
        if (16 + len > room)
            return 0;
        typed_event(s, t, b, len);
    } else if (roll < 992) {
        if (16 > room)
            return 0;
        migrate(s, t, b);
    } else {
        if (16 > room)
            return 0;
        wrap(s, t, b);
    }
    return 1;
}

int xray_synth_next(xray_synth *s, xray_buffer *b, int *last)
{
    const tc_xray_header *h = &s->fh.h;
    if (s->produced >= s->p.size)
        return 0;
    xray_buffer_clear(b);
    uint64_t cap = xray_buffer_capacity(h);
    uint64_t preamble_size = h->version >= 3 ? 64 : 48;
    if (cap < preamble_size)
        cap = preamble_size; /* tiny buffer_size: still a valid buffer, with a warning */
    uint64_t limit = cap;
    uint64_t frame = h->version == 1 ? 0 : TC_XRAY_METADATA_SIZE;
    uint64_t remaining = s->p.size - s->produced;
    *last = 0;
    if (h->version == 1) {
        *last = remaining <= h->buffer_size;
    } else if (remaining <= frame + cap) {
        *last = 1;
        limit = remaining > frame + preamble_size ? remaining - frame : preamble_size;
    }
    xthread *t = &s->threads[tc_rng_below(s->rng, s->p.threads)];
    preamble(s, t, b);
    uint64_t used = preamble_size;
    /* Version 1 keeps room for EndOfBuffer unless it fills the buffer exactly. */
    uint64_t reserve = h->version == 1 ? TC_XRAY_METADATA_SIZE : 0;
    if (!s->showcase_done && showcase(s, t, b, limit - used - reserve)) {
        s->showcase_done = 1;
        used = xray_buffer_used(b);
    }
    for (size_t seen = b->n; used + reserve < limit && step(s, t, b, limit - used - reserve);)
        for (; seen < b->n; seen++) /* only the new records: the sum is linear */
            used += xray_rec_size(&b->recs[seen]);
    if (h->version == 1 && used < h->buffer_size && (h->buffer_size - used) % 8 == 0 &&
        tc_rng_chance(s->rng, 1, 3)) {
        /* Fill to the last byte: such a buffer has no EndOfBuffer. */
        while (used < h->buffer_size) {
            /* Never deeper than MAX_DEPTH: beyond it leave() cannot name the
             * function it exits, and the exit would not match its entry. */
            if (t->depth > 0 && (tc_rng_chance(s->rng, 1, 2) || t->depth >= MAX_DEPTH))
                leave(s, t, b, TC_XRAY_EXIT);
            else
                enter(s, t, b, 0);
            used += 8;
        }
    }
    s->produced += h->version == 1 ? h->buffer_size : frame + used;
    s->buffers++;
    if (s->produced >= s->p.size)
        *last = 1;
    else if (*last)
        s->p.size = s->produced; /* it fell a little short: still the last */
    return 1;
}
