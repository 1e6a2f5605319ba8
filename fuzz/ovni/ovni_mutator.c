/*
 * The ovni stream mutator (see ovni_mutator.h). It depends on nothing but
 * libc, so that the same file builds into the harness and into the shared
 * object afl-fuzz loads. Layout facts are spec/ovni/ovni.md's: an 8-byte header
 * ("ovni", u32 version 1 in the writer's byte order), then events of a
 * 12-byte header (byte 0 = flags << 4 | size code, then model, category,
 * value, u64 clock) and a payload of 0 or code + 1 bytes; jumbo events
 * (flag 0x10) carry a u32 size and that many bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "ovni_mutator.h"
#include "ovni_spec_table.h"

#define HEADER 8
#define EVENT_HEADER 12
#define JUMBO 0x10u
#define MAX_EVENTS 4096

/* ---- choices ---- */

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t next(rng *r)
{
    /* xorshift64*: enough for mutation choices, and the same on every build */
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545f4914f6cdd1dull;
}

static size_t below(rng *r, size_t n) { return n ? (size_t)(next(r) % n) : 0; }
static int one_in(rng *r, unsigned n) { return below(r, n) == 0; }

/* ---- the stream as events ---- */

typedef struct mev {
    uint8_t b0;
    uint8_t mcv[3];
    uint64_t clock;
    uint32_t jsize;    /* jumbo: the declared size (data may be shorter at the end) */
    uint8_t *data;     /* payload, or jumbo data */
    size_t len;
} mev;

typedef struct mstream {
    uint8_t header[HEADER];
    size_t header_len;
    int be;
    mev *ev;
    size_t n, cap;
    uint8_t *tail; /* bytes after the last whole event */
    size_t tail_len;
} mstream;

static uint64_t rd(const uint8_t *p, int n, int be)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (uint64_t)p[be ? n - 1 - i : i] << (8 * i);
    return v;
}

static void wr(uint8_t *p, uint64_t v, int n, int be)
{
    for (int i = 0; i < n; i++)
        p[be ? n - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

static int is_jumbo(const mev *e) { return (e->b0 & JUMBO) != 0; }

static uint8_t *copy_bytes(const uint8_t *p, size_t n)
{
    uint8_t *d = malloc(n ? n : 1);
    if (d && n)
        memcpy(d, p, n);
    return d;
}

static void ms_free(mstream *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->ev[i].data);
    free(s->ev);
    free(s->tail);
    memset(s, 0, sizeof *s);
}

/* Inserts e (taking its data) at index i; 0 when full or out of memory. */
static int ms_insert(mstream *s, size_t i, mev e)
{
    if (s->n >= MAX_EVENTS) {
        free(e.data);
        return 0;
    }
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 32;
        mev *v = realloc(s->ev, cap * sizeof *v);
        if (!v) {
            free(e.data);
            return 0;
        }
        s->ev = v;
        s->cap = cap;
    }
    memmove(&s->ev[i + 1], &s->ev[i], (s->n - i) * sizeof *s->ev);
    s->ev[i] = e;
    s->n++;
    return 1;
}

static void ms_delete(mstream *s, size_t i)
{
    free(s->ev[i].data);
    memmove(&s->ev[i], &s->ev[i + 1], (s->n - i - 1) * sizeof *s->ev);
    s->n--;
}

/* Reads p as the stream parser does; 0 when out of memory. */
static int ms_parse(mstream *s, const uint8_t *p, size_t n)
{
    memset(s, 0, sizeof *s);
    s->header_len = n < HEADER ? n : HEADER;
    memcpy(s->header, p, s->header_len);
    s->be = n >= HEADER && rd(p + 4, 4, 0) != 1 && rd(p + 4, 4, 1) == 1;
    size_t pos = s->header_len;
    while (n - pos >= EVENT_HEADER) {
        mev e = {.b0 = p[pos], .clock = rd(p + pos + 4, 8, s->be)};
        memcpy(e.mcv, p + pos + 1, 3);
        size_t start, len;
        if (is_jumbo(&e)) {
            if (n - pos < EVENT_HEADER + 4)
                break;
            e.jsize = (uint32_t)rd(p + pos + EVENT_HEADER, 4, s->be);
            start = pos + EVENT_HEADER + 4;
            len = n - start < e.jsize ? n - start : e.jsize;
        } else {
            unsigned code = e.b0 & 0x0fu;
            len = code ? code + 1u : 0u;
            start = pos + EVENT_HEADER;
            if (n - start < len)
                break;
        }
        if (!(e.data = copy_bytes(p + start, len)))
            return 0;
        e.len = len;
        if (!ms_insert(s, s->n, e))
            break; /* the rest stays a tail */
        pos = start + len;
    }
    s->tail_len = n - pos;
    s->tail = copy_bytes(p + pos, s->tail_len);
    return s->tail != NULL;
}

/* Writes s into out (capacity max); returns the size, cut at max. */
static size_t ms_write(const mstream *s, uint8_t *out, size_t max)
{
    size_t n = 0;
#define PUT(src, len)                                                                        \
    do {                                                                                     \
        size_t l_ = (len);                                                                   \
        if (l_ > max - n)                                                                    \
            l_ = max - n;                                                                    \
        if (l_)                                                                              \
            memcpy(out + n, (src), l_);                                                      \
        n += l_;                                                                             \
        if (n == max)                                                                        \
            return n;                                                                        \
    } while (0)
    if (max == 0)
        return 0;
    PUT(s->header, s->header_len);
    for (size_t i = 0; i < s->n; i++) {
        const mev *e = &s->ev[i];
        uint8_t h[EVENT_HEADER + 4];
        h[0] = e->b0;
        memcpy(h + 1, e->mcv, 3);
        wr(h + 4, e->clock, 8, s->be);
        size_t hl = EVENT_HEADER;
        if (is_jumbo(e)) {
            wr(h + EVENT_HEADER, e->jsize, 4, s->be);
            hl += 4;
        }
        PUT(h, hl);
        PUT(e->data, e->len);
    }
    PUT(s->tail, s->tail_len);
#undef PUT
    return n;
}

/* ---- what events look like ---- */

/* Every model's events and their payload layouts, from
 * spec/ovni/models.def (a table of macros, no code): the fixed fields'
 * bytes, and for jumbo events what follows them (0 nothing, 1 a string,
 * else an array of values of that size). */
#define F(t, n) +OVS_SIZE_##t
#define S(n) +0
#define A(t, n) +0
#define NOFIELDS
#undef JUMBO /* the flag byte's value, again below */
#define JUMBO 1
#define OLD 2
static const struct {
    char mcv[3];
    uint8_t jumbo;
    uint8_t fixed;
} known_events[] = {
#define TC_OVNI_EVENT(MODEL, C, V, FLAGS, FIELDS, ACTION, CHAN, STATE, MEANING)                    \
    {{OVS_LETTER_##MODEL, C, V}, ((FLAGS) & JUMBO) != 0, 0 FIELDS},
#include "../../spec/ovni/models.def"
};
#undef F
#undef S
#undef A
#define F(t, n)
#define S(n) 1 +
#define A(t, n) OVS_SIZE_##t +
static const uint8_t known_tails[] = {
#define TC_OVNI_EVENT(MODEL, C, V, FLAGS, FIELDS, ACTION, CHAN, STATE, MEANING) FIELDS 0,
#include "../../spec/ovni/models.def"
};
#undef F
#undef S
#undef A
#undef NOFIELDS
#undef JUMBO
#undef OLD
#define JUMBO 0x10u
#define N_KNOWN_EVENTS (sizeof known_events / sizeof known_events[0])

/* Letters of the models ovni knows, and a few it does not. */
static const char models[] = "O6VKPTMDOOOXZ";

static uint8_t printable(rng *r) { return (uint8_t)(0x21 + below(r, 0x7e - 0x21 + 1)); }

static uint8_t code_for(size_t len) { return len ? (uint8_t)(len - 1) : 0; }

static uint64_t clock_near(rng *r, const mstream *s, size_t i)
{
    uint64_t prev = i > 0 ? s->ev[i - 1].clock : 0;
    uint64_t next_clock = i < s->n ? s->ev[i].clock : prev + 1000;
    if (next_clock > prev && one_in(r, 2))
        return prev + below(r, (size_t)(next_clock - prev) + 1);
    return prev + below(r, 3);
}

static mev new_event(rng *r, const mstream *s, size_t at)
{
    mev e = {.clock = clock_near(r, s, at)};
    size_t len;
    switch (below(r, 4)) {
    case 0:
    case 1: { /* an event of one of the models, laid out as its model says */
        size_t k = below(r, N_KNOWN_EVENTS);
        memcpy(e.mcv, known_events[k].mcv, 3);
        len = known_events[k].fixed;
        if (!known_events[k].jumbo) {
            e.b0 = code_for(len);
            break;
        }
        e.b0 = JUMBO | 3u;
        uint8_t tail = known_tails[k];
        len += tail == 1 ? 1 + below(r, 12) : tail * (1 + below(r, 4));
        e.jsize = (uint32_t)len;
        e.data = malloc(len ? len : 1);
        if (e.data) {
            /* Small ids (tasks, types, bodies, CPUs, marks: 0 to 3) meet
             * each other; a string of letters ends with its NUL. */
            memset(e.data, 0, len);
            for (size_t f = 0; f < known_events[k].fixed; f += 4)
                e.data[f] = (uint8_t)below(r, 4);
            for (size_t t = known_events[k].fixed; tail == 1 && t + 1 < len; t++)
                e.data[t] = (uint8_t)('a' + below(r, 26));
            e.len = len;
        }
        return e;
    }
    case 2: /* another model's, or an unknown one */
        e.mcv[0] = (uint8_t)models[below(r, sizeof models - 1)];
        e.mcv[1] = printable(r);
        e.mcv[2] = printable(r);
        e.b0 = (uint8_t)below(r, 16);
        len = e.b0 ? e.b0 + 1u : 0u;
        break;
    default: /* jumbo */
        e.mcv[0] = (uint8_t)models[below(r, sizeof models - 1)];
        e.mcv[1] = printable(r);
        e.mcv[2] = printable(r);
        e.b0 = JUMBO | 3u;
        len = below(r, 4) ? below(r, 40) : below(r, 600);
        e.jsize = (uint32_t)len;
        break;
    }
    e.data = malloc(len ? len : 1);
    if (e.data) {
        /* Fields of small values now and then, so that ids meet. */
        int small = one_in(r, 2);
        for (size_t i = 0; i < len; i++)
            e.data[i] = small ? (uint8_t)(i % 4 == 0 ? below(r, 4) : 0)
                              : (uint8_t)(one_in(r, 2) ? 0 : next(r));
        e.len = len;
    }
    return e;
}

/* Resizes an event's data to len (new bytes random); 0 on failure. */
static int resize(rng *r, mev *e, size_t len)
{
    uint8_t *d = realloc(e->data, len ? len : 1);
    if (!d)
        return 0;
    for (size_t i = e->len; i < len; i++)
        d[i] = (uint8_t)next(r);
    e->data = d;
    e->len = len;
    return 1;
}

static const uint32_t jumbo_sizes[] = {0,          1,          16,         0x1fffff,   0x200000,
                                       0x7ffffff0, 0x7fffffff, 0x80000000, 0xfffffff0, 0xffffffff};

/* ---- mutations ---- */

/* Each mutation of one part of the stream; 0 when it did not apply. */

static int duplicate_event(mstream *s, size_t i)
{
    mev d = s->ev[i];
    if (!(d.data = copy_bytes(s->ev[i].data, s->ev[i].len)))
        return 0;
    return ms_insert(s, i + 1, d);
}

/* Swaps event i with another, mostly a neighbour. */
static int swap_events(rng *r, mstream *s, size_t i)
{
    if (s->n < 2)
        return 0;
    size_t j = one_in(r, 2) ? (i + 1 < s->n ? i + 1 : i - 1) : below(r, s->n);
    mev t = s->ev[i];
    s->ev[i] = s->ev[j];
    s->ev[j] = t;
    return 1;
}

static int mutate_flags(rng *r, mev *e)
{
    switch (below(r, 3)) {
    case 0: /* a flag other than jumbo */
        e->b0 = (uint8_t)((e->b0 & 0x1fu) | (uint8_t)(0x20u << below(r, 3)));
        return 1;
    case 1: /* jumbo on: a consistent jumbo event */
        if (is_jumbo(e))
            return 0;
        e->b0 = (uint8_t)(JUMBO | 3u | (e->b0 & 0xe0u));
        e->jsize = (uint32_t)e->len;
        return 1;
    default: /* jumbo off: a normal event with the data that fits */
        if (!is_jumbo(e))
            return 0;
        e->b0 = 0;
        if (e->len > 16 && !resize(r, e, 2 + below(r, 15)))
            return 0;
        if (e->len == 1 && !resize(r, e, 2))
            return 0;
        e->b0 = code_for(e->len);
        return 1;
    }
}

/* The size code: with the payload resized, or not (the stream goes out of
 * step). */
static int mutate_size_code(rng *r, mev *e)
{
    e->b0 = (uint8_t)((e->b0 & 0xf0u) | below(r, 16));
    if (!is_jumbo(e) && one_in(r, 2)) {
        unsigned code = e->b0 & 0x0fu;
        return resize(r, e, code ? code + 1u : 0u);
    }
    return 1;
}

/* The MCV: a model letter, a printable byte, or not printable. */
static int mutate_mcv(rng *r, mev *e)
{
    switch (below(r, 3)) {
    case 0: e->mcv[0] = (uint8_t)models[below(r, sizeof models - 1)]; break;
    case 1: e->mcv[below(r, 3)] = printable(r); break;
    default:
        e->mcv[below(r, 3)] =
            one_in(r, 2) ? (uint8_t)below(r, 0x21) : (uint8_t)(0x7f + below(r, 0x81));
        break;
    }
    return 1;
}

/* Event i's clock, against the one before it. */
static int mutate_clock(rng *r, mstream *s, size_t i)
{
    mev *e = &s->ev[i];
    uint64_t prev = i > 0 ? s->ev[i - 1].clock : 0;
    switch (below(r, 7)) {
    case 0: e->clock = prev; break;                        /* equal */
    case 1: e->clock = prev - 1 - below(r, 1000); break;   /* down (wraps from 0) */
    case 2: e->clock = prev + 1 + below(r, 1000); break;   /* up */
    case 3: e->clock = 1ull << 63; break;                  /* the first negative one */
    case 4: e->clock = (1ull << 63) + next(r) % (1ull << 63); break;
    case 5: e->clock = (1ull << 63) - 1 - below(r, 2); break; /* the last valid ones */
    default: e->clock = UINT64_MAX - below(r, 2); break;
    }
    return 1;
}

/* A normal event's payload size, kept consistent with the size code. */
static int mutate_payload_size(rng *r, mev *e)
{
    if (is_jumbo(e))
        return 0;
    size_t len = one_in(r, 4) ? 0 : 2 + below(r, 15);
    if (!resize(r, e, len))
        return 0;
    e->b0 = (uint8_t)((e->b0 & 0xf0u) | code_for(len));
    return 1;
}

static int mutate_jumbo_size(rng *r, mev *e)
{
    if (!is_jumbo(e))
        return 0;
    if (one_in(r, 2)) {
        e->jsize = jumbo_sizes[below(r, sizeof jumbo_sizes / sizeof jumbo_sizes[0])];
    } else {
        long d = (long)below(r, 9) - 4;
        e->jsize = (uint32_t)((long)e->len + d);
    }
    if (e->jsize < e->len)
        e->len = e->jsize; /* the data shrinks with it; more stays a past-EOF case */
    return 1;
}

/* The stream's header: version, byte order, magic. */
static int mutate_header(rng *r, mstream *s)
{
    switch (below(r, 4)) {
    case 0: { /* the other byte order, every field rewritten */
        if (s->header_len < HEADER)
            return 0;
        s->be = !s->be;
        wr(s->header + 4, 1, 4, s->be);
        return 1;
    }
    case 1:
        if (s->header_len < HEADER)
            return 0;
        wr(s->header + 4, one_in(r, 2) ? below(r, 4) : next(r), 4, s->be);
        return 1;
    case 2:
        if (s->header_len == 0)
            return 0;
        s->header[below(r, s->header_len < 4 ? s->header_len : 4)] = (uint8_t)next(r);
        return 1;
    default: /* a whole header where there was less */
        memcpy(s->header, "ovni", 4);
        wr(s->header + 4, 1, 4, s->be);
        s->header_len = HEADER;
        return 1;
    }
}

/* A thread's life around the events: OHx first, or OHe last. */
static int add_thread_bound(rng *r, mstream *s)
{
    mev x = {.b0 = 15, .mcv = {'O', 'H', 'x'}, .clock = s->n ? s->ev[0].clock : 0};
    mev end = {.b0 = 0, .mcv = {'O', 'H', 'e'}, .clock = s->n ? s->ev[s->n - 1].clock : 0};
    if (one_in(r, 2)) {
        if (!(x.data = calloc(16, 1)))
            return 0;
        x.len = 16;
        return ms_insert(s, 0, x);
    }
    return ms_insert(s, s->n, end);
}

/* The events after event i and the tail go; the stream may end inside the
 * last event kept. */
static int cut_after(rng *r, mstream *s, size_t i)
{
    while (s->n > i + 1)
        ms_delete(s, s->n - 1);
    free(s->tail);
    s->tail = NULL;
    s->tail_len = 0;
    mev *e = &s->ev[s->n - 1];
    if (one_in(r, 2)) {
        /* Keep a prefix of the last event as the tail. */
        uint8_t buf[EVENT_HEADER + 4 + 64];
        mstream one = {.be = s->be, .ev = e, .n = 1};
        size_t len = ms_write(&one, buf, sizeof buf);
        size_t keep = below(r, len);
        if (!(s->tail = copy_bytes(buf, keep)))
            return 0;
        s->tail_len = keep;
        ms_delete(s, s->n - 1);
    }
    return 1;
}

/* One mutation of the stream, of an event i drawn first; 0 when it did not
 * apply. */
static int mutate_once(rng *r, mstream *s)
{
    size_t i = below(r, s->n);
    mev *e = s->n ? &s->ev[i] : NULL;
    switch (below(r, 16)) {
    case 0: /* insert */
    case 1: {
        size_t at = below(r, s->n + 1);
        return ms_insert(s, at, new_event(r, s, at));
    }
    case 2: /* delete */
        if (!e)
            return 0;
        ms_delete(s, i);
        return 1;
    case 3: return e && duplicate_event(s, i);
    case 4: return swap_events(r, s, i);
    case 5: return e && mutate_flags(r, e);
    case 6: return e && mutate_size_code(r, e);
    case 7: /* MCV: an event of one of the models */
        if (!e)
            return 0;
        memcpy(e->mcv, known_events[below(r, N_KNOWN_EVENTS)].mcv, 3);
        return 1;
    case 8: return e && mutate_mcv(r, e);
    case 9: return e && mutate_clock(r, s, i);
    case 10: return e && mutate_payload_size(r, e);
    case 11: return e && mutate_jumbo_size(r, e);
    case 12: return mutate_header(r, s);
    case 13: return add_thread_bound(r, s);
    case 14: /* payload bytes */
        if (!e || e->len == 0)
            return 0;
        e->data[below(r, e->len)] = (uint8_t)next(r);
        return 1;
    default: return e && cut_after(r, s, i);
    }
}

/* ---- byte-level fallback without an engine ---- */

static size_t byte_mutate(rng *r, uint8_t *data, size_t size, size_t max_size)
{
    switch (below(r, 4)) {
    case 0:
        if (size)
            data[below(r, size)] ^= (uint8_t)(1u << below(r, 8));
        return size;
    case 1:
        if (size)
            data[below(r, size)] = (uint8_t)next(r);
        return size;
    case 2:
        return size ? below(r, size) : 0; /* cut */
    default:
        if (size < max_size) { /* insert a byte */
            size_t at = below(r, size + 1);
            memmove(data + at + 1, data + at, size - at);
            data[at] = (uint8_t)next(r);
            return size + 1;
        }
        return size;
    }
}

static size_t fallback(rng *r, uint8_t *data, size_t size, size_t max_size,
                       ovni_byte_mutator bytes)
{
    return bytes ? bytes(data, size, max_size) : byte_mutate(r, data, size, max_size);
}

size_t ovni_mutate(uint8_t *data, size_t size, size_t max_size, unsigned seed,
                   ovni_byte_mutator bytes)
{
    rng r = {0x9e3779b97f4a7c15ull ^ seed};
    next(&r);
    /* A share of byte-level mutation keeps the fuzzer finding what no
     * event-level change makes; an input that is no stream gets only that. */
    int stream = size >= 4 && memcmp(data, "ovni", 4) == 0;
    if (!stream ? !one_in(&r, 4) : one_in(&r, 5))
        return fallback(&r, data, size, max_size, bytes);
    mstream s;
    if (!ms_parse(&s, data, size)) {
        ms_free(&s);
        return fallback(&r, data, size, max_size, bytes);
    }
    int done = 0;
    for (size_t k = 1 + below(&r, 3), tries = 0; k > 0 && tries < 16; tries++)
        if (mutate_once(&r, &s)) {
            done = 1;
            k--;
        }
    size_t n = done ? ms_write(&s, data, max_size) : 0;
    ms_free(&s);
    return done ? n : fallback(&r, data, size, max_size, bytes);
}

size_t ovni_cross_over(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, uint8_t *out,
                       size_t max_size, unsigned seed)
{
    rng r = {0x51afd7ed558ccd1dull ^ seed};
    next(&r);
    mstream x, y;
    int ok = ms_parse(&x, a, na);
    ok = ms_parse(&y, b, nb) && ok;
    size_t n = 0;
    if (ok) {
        /* x keeps its header and first events, then y's from some index on,
         * with their clocks moved to follow x's (mostly). */
        size_t keep = below(&r, x.n + 1), from = below(&r, y.n + 1);
        while (x.n > keep)
            ms_delete(&x, x.n - 1);
        uint64_t base = x.n ? x.ev[x.n - 1].clock : 0;
        uint64_t shift = from < y.n && y.ev[from].clock < base && !one_in(&r, 4)
                             ? base - y.ev[from].clock
                             : 0;
        for (size_t i = from; i < y.n; i++) {
            mev e = y.ev[i];
            e.clock += shift;
            if (!(e.data = copy_bytes(y.ev[i].data, y.ev[i].len)) || !ms_insert(&x, x.n, e))
                break;
        }
        free(x.tail);
        x.tail = y.tail;
        x.tail_len = y.tail_len;
        y.tail = NULL;
        y.tail_len = 0;
        n = ms_write(&x, out, max_size);
    } else {
        n = na < max_size ? na : max_size;
        memcpy(out, a, n);
    }
    ms_free(&x);
    ms_free(&y);
    return n;
}
