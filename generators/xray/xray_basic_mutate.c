#include <string.h>

#include "xray_basic_mutate.h"

#define V(x) (1u << (x))
#define V_ALL (V(1) | V(2) | V(3))

/* Function ids the synthesiser never uses (it draws 1 to 200), so a
 * mutation's frames never match a real one. */
static int32_t fresh_function(xray_basic_mutation *mu)
{
    return (int32_t)tc_rng_range(mu->rng, 100000, 0x7fffffff);
}

/* Whether to mutate this (applicable) block or pass on to a later one. */
static int take(xray_basic_mutation *mu, int last)
{
    if (last || mu->skip == 0)
        return 1;
    mu->skip--;
    return 0;
}

static int is_payload(const xray_basic_rec *r) { return r->rtype == TC_XRAY_BASIC_ARG_PAYLOAD; }

/* A random position whose record is not an argument payload, so that what is
 * inserted there never separates a payload from its function record. */
static size_t safe_position(xray_basic_mutation *mu, const xray_basic_block *b)
{
    size_t safe = 0;
    for (size_t i = 0; i <= b->n; i++)
        safe += i == b->n || !is_payload(&b->recs[i]);
    size_t pick = (size_t)tc_rng_below(mu->rng, safe);
    for (size_t i = 0; i <= b->n; i++)
        if ((i == b->n || !is_payload(&b->recs[i])) && pick-- == 0)
            return i;
    return b->n;
}

/* The thread's TSC at a position of its block: that of the last function
 * record before it, or of the block's first when there is none. */
static uint64_t tsc_at(const xray_basic_block *b, size_t at)
{
    for (size_t i = at; i-- > 0;)
        if (!is_payload(&b->recs[i]))
            return b->recs[i].tsc;
    return b->n ? b->recs[0].tsc : 0;
}

/* A function record of the block's thread (its first record's). */
static xray_basic_rec *insert_function(xray_basic_block *b, size_t at, unsigned type,
                                       int32_t func, uint64_t tsc)
{
    const xray_basic_rec first = b->recs[0];
    xray_basic_rec *r = xray_basic_insert(b, at);
    r->rtype = TC_XRAY_BASIC_FUNCTION;
    r->cpu = first.cpu;
    r->type = (uint8_t)type;
    r->func = func;
    r->tsc = tsc;
    r->tid = first.tid;
    r->pid = first.pid;
    return r;
}

/* ---- header ---- */

static int truncate_header(xray_basic_mutation *mu, tc_bytebuf *bytes)
{
    /* At least 4 bytes, so that the content still says "basic mode". */
    bytes->len = (size_t)tc_rng_range(mu->rng, 4, TC_XRAY_HEADER_SIZE - 1);
    mu->stop = 1;
    return 1;
}

static int version_4_or_5(xray_basic_mutation *mu, xray_basic_header *w)
{
    w->h.version = (uint16_t)tc_rng_range(mu->rng, 4, 5);
    return 1;
}

static int bad_type(xray_basic_mutation *mu, xray_basic_header *w)
{
    w->h.type = (uint16_t)tc_rng_range(mu->rng, 2, 0xffff);
    return 1;
}

static int zero_frequency(xray_basic_mutation *mu, xray_basic_header *w)
{
    (void)mu;
    w->h.cycle_frequency = 0;
    return 1;
}

static int reserved_bit(xray_basic_mutation *mu, xray_basic_header *w)
{
    unsigned bit = (unsigned)tc_rng_below(mu->rng, 30); /* a bit of the 30 reserved ones */
    w->h.bitfield |= w->h.big_endian ? 1u << bit : 1u << (bit + 2);
    return 1;
}

/* ---- framing ---- */

static int partial_record(xray_basic_mutation *mu, const tc_xray_header *h, tc_bytebuf *bytes,
                          int last)
{
    (void)h;
    if (!last)
        return 0;
    size_t cut = (size_t)tc_rng_range(mu->rng, 1, TC_XRAY_BASIC_RECORD_SIZE - 1);
    if (bytes->len >= TC_XRAY_BASIC_RECORD_SIZE && tc_rng_chance(mu->rng, 1, 2)) {
        bytes->len -= cut; /* the log was cut inside its last record */
    } else {
        uint8_t *p = tc_bb_append(bytes, NULL, cut); /* or has bytes after it */
        tc_rng_fill(mu->rng, p, cut);
    }
    return 1;
}

/* ---- records ---- */

static int unknown_record_type(xray_basic_mutation *mu, const tc_xray_header *h,
                               xray_basic_block *b, int last)
{
    (void)h;
    if (!take(mu, last))
        return 0;
    size_t at = safe_position(mu, b);
    xray_basic_rec r = b->recs[0];
    r.rtype = (uint16_t)tc_rng_range(mu->rng, 2, 0xffff);
    r.func = fresh_function(mu);
    *xray_basic_insert(b, at) = r;
    return 1;
}

static int unknown_function_type(xray_basic_mutation *mu, const tc_xray_header *h,
                                 xray_basic_block *b, int last)
{
    (void)h;
    if (!take(mu, last))
        return 0;
    size_t at = safe_position(mu, b);
    insert_function(b, at, (unsigned)tc_rng_range(mu->rng, 4, 255), fresh_function(mu),
                    tsc_at(b, at));
    return 1;
}

static int tail_exit_in_v1(xray_basic_mutation *mu, const tc_xray_header *h,
                           xray_basic_block *b, int last)
{
    (void)h;
    if (!take(mu, last))
        return 0;
    size_t at = safe_position(mu, b);
    uint64_t tsc = tsc_at(b, at);
    int32_t f = fresh_function(mu);
    insert_function(b, at, 0, f, tsc);
    insert_function(b, at + 1, 2, f, tsc);
    return 1;
}

static int misplaced_payload(xray_basic_mutation *mu, const tc_xray_header *h,
                             xray_basic_block *b, int last)
{
    if (!take(mu, last))
        return 0;
    size_t payloads = 0;
    for (size_t i = 0; i < b->n; i++)
        payloads += is_payload(&b->recs[i]);
    if (payloads && tc_rng_chance(mu->rng, 1, 3)) {
        /* The EnterArg record before a payload becomes an Enter (ruling 17:
         * a payload follows an EnterArg record or another payload of it). */
        size_t pick = (size_t)tc_rng_below(mu->rng, payloads);
        for (size_t i = 1; i < b->n; i++)
            if (is_payload(&b->recs[i]) && pick-- == 0) {
                size_t head = i;
                while (head > 0 && is_payload(&b->recs[head - 1]))
                    head--;
                if (head == 0 || b->recs[head - 1].type != 3)
                    break; /* its record is in the block before */
                b->recs[head - 1].type = 0;
                return 1;
            }
    }
    if (payloads && tc_rng_chance(mu->rng, 1, 2)) {
        /* A payload of the block names another function, thread or process. */
        size_t pick = (size_t)tc_rng_below(mu->rng, payloads);
        for (size_t i = 0; i < b->n; i++)
            if (is_payload(&b->recs[i]) && pick-- == 0) {
                xray_basic_rec *r = &b->recs[i];
                switch (tc_rng_below(mu->rng, h->version >= 3 ? 3 : 2)) {
                case 0: r->func = fresh_function(mu); break;
                case 1: r->tid += (uint32_t)tc_rng_range(mu->rng, 1, 1000); break;
                default: r->pid += (uint32_t)tc_rng_range(mu->rng, 1, 1000); break;
                }
                return 1;
            }
    }
    /* A payload of a function no record near it has (at the start of the
     * log's first block: a payload that comes first). */
    size_t at = mu->first && tc_rng_chance(mu->rng, 1, 2) ? 0 : safe_position(mu, b);
    xray_basic_rec r = b->recs[0];
    r.rtype = TC_XRAY_BASIC_ARG_PAYLOAD;
    r.cpu = 0;
    r.type = 0;
    r.tsc = 0;
    r.func = fresh_function(mu);
    r.arg = tc_rng_u64(mu->rng);
    *xray_basic_insert(b, at) = r;
    return 1;
}

/* ---- warnings ---- */

static int tsc_backwards(xray_basic_mutation *mu, const tc_xray_header *h, xray_basic_block *b,
                         int last)
{
    (void)h;
    if (!take(mu, last))
        return 0;
    /* After a function record whose TSC leaves room below it. */
    size_t at = safe_position(mu, b);
    if (at == 0)
        at = b->n > 1 && !is_payload(&b->recs[1]) ? 1 : b->n;
    uint64_t tsc = tsc_at(b, at);
    if (tsc < 2)
        return 0;
    uint64_t back = tsc - tc_rng_range(mu->rng, 1, tsc - 1 < 1000 ? tsc - 1 : 1000);
    int32_t f = fresh_function(mu);
    insert_function(b, at, 0, f, back);
    insert_function(b, at + 1, 1, f, back);
    return 1;
}

static int mismatched_exit(xray_basic_mutation *mu, const tc_xray_header *h,
                           xray_basic_block *b, int last)
{
    if (!take(mu, last))
        return 0;
    size_t at = safe_position(mu, b);
    uint64_t tsc = tsc_at(b, at);
    int32_t f = fresh_function(mu);
    /* Enter(f), Exit(g), Exit(f): g matches nothing open, f is closed. */
    insert_function(b, at, 0, f, tsc);
    /* (a TailExit from version 2, which has them) */
    insert_function(b, at + 1, h->version >= 2 && tc_rng_chance(mu->rng, 1, 2) ? 2 : 1, f ^ 1, tsc);
    insert_function(b, at + 2, 1, f, tsc);
    return 1;
}

/* ---- notes ---- */

static int padding(xray_basic_mutation *mu, const tc_xray_header *h, xray_basic_block *b,
                   int last)
{
    (void)h;
    if (!take(mu, last))
        return 0;
    b->recs[tc_rng_below(mu->rng, b->n)].pad = (uint8_t)tc_rng_range(mu->rng, 1, 255);
    return 1;
}

static int pid_before_v3(xray_basic_mutation *mu, const tc_xray_header *h, xray_basic_block *b,
                         int last)
{
    (void)h;
    if (!take(mu, last))
        return 0;
    b->recs[tc_rng_below(mu->rng, b->n)].pid = (uint32_t)tc_rng_range(mu->rng, 1, 4000000);
    return 1;
}

#define R(name) TC_RULE_##name

static const xray_basic_mutator mutators[] = {
    {R(XRAY_HEADER_TRUNCATED), V_ALL, "cuts the file inside the 32-byte header (4 to 31 bytes)",
     NULL, truncate_header, NULL, NULL},
    {R(XRAY_HEADER_BASIC_MODE), V_ALL, "sets the header version to 4 or 5", version_4_or_5, NULL,
     NULL, NULL},
    {R(XRAY_HEADER_TYPE), V_ALL, "sets the header type to 2..65535", bad_type, NULL, NULL, NULL},
    {R(XRAY_HEADER_CYCLE_FREQUENCY_ZERO), V_ALL, "sets cycle_frequency to 0", zero_frequency,
     NULL, NULL, NULL},
    {R(XRAY_HEADER_RESERVED_NONZERO), V_ALL, "sets a reserved bit of the header's bitfield",
     reserved_bit, NULL, NULL, NULL},
    {R(XRAY_BASIC_FILE_SIZE), V_ALL,
     "cuts the log 1 to 31 bytes into its last record, or adds 1 to 31 bytes after it", NULL,
     NULL, NULL, partial_record},
    {R(XRAY_BASIC_RECORD_TYPE), V_ALL, "inserts a record of record type 2..65535", NULL, NULL,
     unknown_record_type, NULL},
    {R(XRAY_BASIC_FUNCTION_TYPE), V_ALL, "inserts a function record of type 4..255", NULL, NULL,
     unknown_function_type, NULL},
    {R(XRAY_BASIC_TAIL_EXIT_VERSION), V(1), "inserts Enter(f) and TailExit(f) in a block", NULL,
     NULL, tail_exit_in_v1, NULL},
    {R(XRAY_BASIC_ARG_PLACEMENT), V_ALL,
     "turns the EnterArg record before an argument payload into an Enter, changes a payload's "
     "function, thread or (version 3) process, or inserts a payload of another function (at "
     "the log's start: a payload first)", NULL, NULL,
     misplaced_payload, NULL},
    {R(XRAY_BASIC_TSC_BACKWARDS), V_ALL,
     "inserts Enter(f) and Exit(f) with a TSC below the thread's before them", NULL, NULL,
     tsc_backwards, NULL},
    {R(XRAY_BASIC_CALLSTACK_MISMATCH), V_ALL, "inserts Enter(f), Exit(g), Exit(f), g != f", NULL,
     NULL, mismatched_exit, NULL},
    {R(XRAY_BASIC_PADDING_NONZERO), V_ALL, "fills the padding of one record", NULL, NULL, padding,
     NULL},
    {R(XRAY_BASIC_PID_BEFORE_V3), V(1) | V(2), "gives one record a nonzero process id", NULL,
     NULL, pid_before_v3, NULL},
};

const xray_basic_mutator *xray_basic_mutator_for(tc_rule_id rule)
{
    for (size_t i = 0; i < sizeof mutators / sizeof mutators[0]; i++)
        if (mutators[i].rule == rule)
            return &mutators[i];
    return NULL;
}

size_t xray_basic_mutator_count(void) { return sizeof mutators / sizeof mutators[0]; }

const xray_basic_mutator *xray_basic_mutator_at(size_t i)
{
    return i < xray_basic_mutator_count() ? &mutators[i] : NULL;
}
