#include <string.h>

#include "xray_mutate.h"

#define V(x) XRAY_VERSION_BIT(x)
#define V_ALL (V(1) | V(2) | V(3) | V(4) | V(5))
#define V_2UP (V(2) | V(3) | V(4) | V(5))

/* Function ids the synthesiser never uses, so a mutation's frames never
 * match a real one. */
static uint32_t fresh_function(xray_mutation *mu)
{
    return (uint32_t)tc_rng_range(mu->rng, 100000, 0x0fffffff);
}

/* Whether to mutate this (applicable) buffer or pass on to a later one. */
static int take(xray_mutation *mu, int last)
{
    if (last || mu->skip == 0)
        return 1;
    mu->skip--;
    return 0;
}

static int is_meta(const xray_rec *r, unsigned kind) { return r->type == XR_META && r->kind == kind; }

/* Index of the first body record: just after the preamble's NewCPUId. */
static size_t body_start(const xray_buffer *b)
{
    for (size_t i = 0; i < b->n; i++)
        if (is_meta(&b->recs[i], TC_XRAY_NEW_CPU))
            return i + 1;
    return b->n;
}

/* Room for records that keeps the buffer valid: version 1 keeps 16 bytes for
 * EndOfBuffer, later versions stay within buffer_size. */
static uint64_t room_limit(const tc_xray_header *h)
{
    return h->buffer_size > 16 ? h->buffer_size - 16 : 0;
}

/* Drops records from the end of the body until `bytes` more fit. Returns 0
 * when they cannot fit in a version 1 buffer even so (a buffer_size barely
 * above the preamble): the record would cross into the next buffer, a second
 * error. Later versions only warn about a buffer above buffer_size. */
static int make_room(const tc_xray_header *h, xray_buffer *b, uint64_t bytes)
{
    size_t keep = body_start(b);
    while (b->n > keep && xray_buffer_used(b) + bytes > room_limit(h))
        xray_remove(b, b->n - 1);
    return h->version >= 2 || xray_buffer_used(b) + bytes <= room_limit(h);
}

/* A random body position whose next record is not a CallArgument, so an
 * inserted record never separates arguments from their Entry_Args. */
static size_t safe_position(xray_mutation *mu, const xray_buffer *b)
{
    size_t start = body_start(b), safe = 0;
    for (size_t i = start; i <= b->n; i++)
        safe += i == b->n || !is_meta(&b->recs[i], TC_XRAY_CALL_ARG);
    size_t pick = (size_t)tc_rng_below(mu->rng, safe);
    for (size_t i = start; i <= b->n; i++)
        if (i == b->n || !is_meta(&b->recs[i], TC_XRAY_CALL_ARG)) {
            if (pick-- == 0)
                return i;
        }
    return b->n;
}

static xray_rec *insert_meta(xray_buffer *b, size_t at, unsigned kind)
{
    xray_rec *r = xray_insert(b, at);
    r->type = XR_META;
    r->kind = (uint8_t)kind;
    return r;
}

/* ---- header ---- */

static int truncate_header(xray_mutation *mu, tc_bytebuf *bytes)
{
    /* At least 4 bytes, so that the content still says "XRay". */
    bytes->len = (size_t)tc_rng_range(mu->rng, 4, TC_XRAY_HEADER_SIZE - 1);
    mu->stop = 1;
    return 1;
}

static int bad_version(xray_mutation *mu, xray_file_header *w)
{
    w->h.version = tc_rng_chance(mu->rng, 1, 8) ? 0 : (uint16_t)tc_rng_range(mu->rng, 6, 255);
    return 1;
}

static int basic_mode(xray_mutation *mu, xray_file_header *w)
{
    (void)mu;
    w->h.type = 0;
    return 1;
}

static int bad_type(xray_mutation *mu, xray_file_header *w)
{
    w->h.type = (uint16_t)tc_rng_range(mu->rng, 2, 0xffff);
    return 1;
}

static int zero_frequency(xray_mutation *mu, xray_file_header *w)
{
    (void)mu;
    w->h.cycle_frequency = 0;
    return 1;
}

static int reserved_header(xray_mutation *mu, xray_file_header *w)
{
    if (tc_rng_chance(mu->rng, 1, 2)) {
        w->reserved[tc_rng_below(mu->rng, 8)] = (uint8_t)tc_rng_range(mu->rng, 1, 255);
    } else {
        unsigned bit = (unsigned)tc_rng_below(mu->rng, 30); /* a bit of the 30 reserved ones */
        w->h.bitfield |= w->h.big_endian ? 1u << bit : 1u << (bit + 2);
    }
    return 1;
}

static int small_v1_buffer(xray_mutation *mu, xray_file_header *w)
{
    w->h.buffer_size = tc_rng_below(mu->rng, TC_XRAY_MIN_V1_BUFFER);
    return 1;
}

static int over_buffer_size(xray_mutation *mu, xray_file_header *w)
{
    /* Every buffer has at least 16 + 48 bytes. */
    w->h.buffer_size = tc_rng_below(mu->rng, 64);
    return 1;
}

/* ---- framing, on bytes ---- */

static int truncate_v1_file(xray_mutation *mu, const tc_xray_header *h, tc_bytebuf *bytes, int last)
{
    if (!last)
        return 0;
    bytes->len = (size_t)tc_rng_range(mu->rng, 1, h->buffer_size - 1);
    return 1;
}

static int garbage_between(xray_mutation *mu, const tc_xray_header *h, tc_bytebuf *bytes, int last)
{
    if (!take(mu, last))
        return 0;
    size_t n = (size_t)tc_rng_range(mu->rng, 1, 40);
    uint8_t tag = xray_meta_tag(h, TC_XRAY_BUFFER_EXTENTS);
    uint8_t *p = tc_bb_append(bytes, NULL, n);
    for (size_t i = 0; i < n; i++) {
        p[i] = (uint8_t)tc_rng_below(mu->rng, 256);
        if (p[i] == tag)
            p[i] ^= 0x40; /* never a resynchronisation point */
    }
    return 1;
}

static int truncate_last_buffer(xray_mutation *mu, const tc_xray_header *h, tc_bytebuf *bytes,
                                int last)
{
    (void)h;
    if (!last || bytes->len <= TC_XRAY_METADATA_SIZE + 1)
        return 0;
    bytes->len = (size_t)tc_rng_range(mu->rng, TC_XRAY_METADATA_SIZE, bytes->len - 1);
    return 1;
}

/* Extents a few bytes short of a final function record: the record crosses
 * the end and the records go on after it. */
static int end_with_function(xray_mutation *mu, const tc_xray_header *h, xray_buffer *b, int last)
{
    if (!take(mu, last))
        return 0;
    if (!make_room(h, b, 8))
        return 0;
    if (b->n <= body_start(b) || b->recs[b->n - 1].type != XR_FUNCTION)
        xray_add_function(b, TC_XRAY_ENTER, fresh_function(mu), 1);
    mu->pending = 1;
    return 0;
}

static int short_extents(xray_mutation *mu, const tc_xray_header *h, tc_bytebuf *bytes, int last)
{
    (void)last;
    if (!mu->pending)
        return 0;
    int be = h->big_endian;
    uint64_t n = 0;
    for (int i = 0; i < 8; i++)
        n |= (uint64_t)bytes->p[1 + (be ? 7 - i : i)] << (8 * i);
    uint8_t tag = xray_meta_tag(h, TC_XRAY_BUFFER_EXTENTS);
    unsigned d = (unsigned)tc_rng_range(mu->rng, 1, 7);
    /* The parser looks for the next buffer at the short end; make sure no
     * BufferExtents tag sits there by chance. */
    for (unsigned tries = 0; tries < 7 && bytes->p[16 + n - d] == tag; tries++)
        d = d % 7 + 1;
    n -= d;
    for (int i = 0; i < 8; i++)
        bytes->p[1 + (be ? 7 - i : i)] = (uint8_t)(n >> (8 * i));
    mu->pending = 0;
    return 1;
}

/* A 16-byte record starting 8 bytes before the end of a version 1 buffer. */
static int cross_v1_buffer(xray_mutation *mu, const tc_xray_header *h, xray_buffer *b, int last)
{
    if (!take(mu, last))
        return 0;
    size_t keep = body_start(b);
    while (b->n > keep && xray_buffer_used(b) > h->buffer_size - 8)
        xray_remove(b, b->n - 1);
    uint64_t used = xray_buffer_used(b);
    if ((h->buffer_size - 8 - used) % 8 != 0)
        return 0;
    uint32_t f = fresh_function(mu);
    for (int open = 0; used < h->buffer_size - 8; used += 8, open = !open)
        xray_add_function(b, open ? TC_XRAY_EXIT : TC_XRAY_ENTER, f, 1);
    xray_rec *r = xray_push(b);
    r->type = XR_RAW;
    r->payload = (uint32_t)b->pool.len;
    r->payload_len = 8;
    uint8_t *p = tc_bb_append(&b->pool, NULL, 8);
    p[0] = xray_meta_tag(h, TC_XRAY_TSC_WRAP);
    return 1;
}

/* ---- records ---- */

static int unknown_kind(xray_mutation *mu, const tc_xray_header *h, xray_buffer *b, int last)
{
    if (!take(mu, last))
        return 0;
    if (!make_room(h, b, 16))
        return 0;
    insert_meta(b, safe_position(mu, b), (unsigned)tc_rng_range(mu->rng, TC_XRAY_KIND_COUNT, 127));
    return 1;
}

static int kind_of_other_version(xray_mutation *mu, const tc_xray_header *h, xray_buffer *b,
                                 int last)
{
    if (!take(mu, last))
        return 0;
    unsigned kind;
    uint32_t len = 0;
    switch (h->version) {
    case 1: kind = tc_rng_chance(mu->rng, 1, 2) ? TC_XRAY_PID : TC_XRAY_BUFFER_EXTENTS; break;
    case 2: kind = tc_rng_chance(mu->rng, 1, 2) ? TC_XRAY_PID : TC_XRAY_END_OF_BUFFER; break;
    case 3:
    case 4:
        kind = tc_rng_chance(mu->rng, 1, 2) ? TC_XRAY_TYPED_EVENT : TC_XRAY_END_OF_BUFFER;
        break;
    default: kind = TC_XRAY_END_OF_BUFFER; break;
    }
    if (kind == TC_XRAY_TYPED_EVENT)
        len = (uint32_t)tc_rng_range(mu->rng, 1, 24);
    if (!make_room(h, b, 16 + len))
        return 0;
    size_t at = safe_position(mu, b);
    xray_rec *r = insert_meta(b, at, kind);
    if (kind == TC_XRAY_TYPED_EVENT) {
        r->i32 = (int32_t)len;
        r->payload = (uint32_t)b->pool.len;
        r->payload_len = len;
        tc_bb_append(&b->pool, NULL, len);
    } else if (kind == TC_XRAY_PID) {
        r->i32 = 4242;
    }
    return 1;
}

static int bad_action(xray_mutation *mu, const tc_xray_header *h, xray_buffer *b, int last)
{
    if (!take(mu, last))
        return 0;
    if (!make_room(h, b, 8))
        return 0;
    xray_rec *r = xray_insert(b, safe_position(mu, b));
    r->type = XR_FUNCTION;
    r->action = (uint8_t)tc_rng_range(mu->rng, 4, 7);
    r->func_id = fresh_function(mu);
    r->delta = 1;
    return 1;
}

/* ---- grammar ---- */

static int drop_preamble_record(xray_mutation *mu, const tc_xray_header *h, xray_buffer *b, int last)
{
    size_t bs = body_start(b);
    /* A body record reveals a missing NewCPUId, unless it is a NewCPUId
     * itself (a migration), which would take the dropped one's place. */
    int has_body = bs < b->n && !is_meta(&b->recs[bs], TC_XRAY_NEW_CPU);
    if (!take(mu, last))
        return 0;
    /* NewBuffer, WallTimeMarker, PIDEntry (v3+), or NewCPUId when a body
     * record follows to reveal the gap. */
    size_t choices = bs - (has_body ? 0 : 1);
    if (choices == 0)
        return 0;
    (void)h;
    xray_remove(b, (size_t)tc_rng_below(mu->rng, choices));
    return 1;
}

static int cut_preamble(xray_mutation *mu, const tc_xray_header *h, xray_buffer *b, int last)
{
    (void)h;
    if (!take(mu, last))
        return 0;
    size_t bs = body_start(b); /* 3 or 4 records */
    b->n = (size_t)tc_rng_range(mu->rng, 1, bs - 1);
    return 1;
}

static int preamble_in_body(xray_mutation *mu, const tc_xray_header *h, xray_buffer *b, int last)
{
    if (!take(mu, last))
        return 0;
    if (!make_room(h, b, 16))
        return 0;
    unsigned kinds[4] = {TC_XRAY_WALL_TIME, TC_XRAY_NEW_BUFFER}, n = 2;
    if (h->version >= 3)
        kinds[n++] = TC_XRAY_PID;
    if (h->version >= 2)
        kinds[n++] = TC_XRAY_BUFFER_EXTENTS;
    unsigned kind = kinds[tc_rng_below(mu->rng, n)];
    xray_rec *r = insert_meta(b, safe_position(mu, b), kind);
    if (kind == TC_XRAY_WALL_TIME) {
        r->u64 = 1000;
        r->i32 = 5;
    } else if (kind == TC_XRAY_NEW_BUFFER || kind == TC_XRAY_PID) {
        r->i32 = 77;
    }
    return 1;
}

static int misplaced_argument(xray_mutation *mu, const tc_xray_header *h, xray_buffer *b, int last)
{
    if (!take(mu, last))
        return 0;
    if (!make_room(h, b, 16 + 8))
        return 0;
    size_t at = body_start(b); /* after the preamble's NewCPUId */
    unsigned how = (unsigned)tc_rng_below(mu->rng, h->version >= 5 ? 3 : 2);
    if (how == 1) {
        /* after an Exit or Tail_Exit, when the buffer has one */
        for (size_t i = b->n; i-- > at;)
            if (b->recs[i].type == XR_FUNCTION &&
                (b->recs[i].action == TC_XRAY_EXIT || b->recs[i].action == TC_XRAY_TAIL_EXIT)) {
                at = i + 1;
                break;
            }
    } else if (how == 2) {
        /* version 5: after a plain Entry, at the end so no Exit follows it */
        xray_add_function(b, TC_XRAY_ENTER, fresh_function(mu), 1);
        at = b->n;
    }
    insert_meta(b, at, TC_XRAY_CALL_ARG)->u64 = 7;
    return 1;
}

static int argument_after_enter(xray_mutation *mu, const tc_xray_header *h, xray_buffer *b, int last)
{
    if (!take(mu, last))
        return 0;
    if (!make_room(h, b, 16 + 8))
        return 0;
    xray_add_function(b, TC_XRAY_ENTER, fresh_function(mu), 1);
    xray_add_meta(b, TC_XRAY_CALL_ARG)->u64 = 9;
    return 1;
}

/* ---- events ---- */

static xray_rec *append_event(xray_mutation *mu, const tc_xray_header *h, xray_buffer *b,
                              uint32_t len)
{
    if (!make_room(h, b, 16 + len))
        return NULL;
    unsigned kind = h->version >= 5 && tc_rng_chance(mu->rng, 1, 2) ? TC_XRAY_TYPED_EVENT
                                                                      : TC_XRAY_CUSTOM_EVENT;
    uint8_t data[16];
    tc_rng_fill(mu->rng, data, sizeof data);
    xray_rec *r = xray_add_event(b, kind, data, len);
    r->delta = 1;
    return r;
}

static int negative_size(xray_mutation *mu, const tc_xray_header *h, xray_buffer *b, int last)
{
    if (!take(mu, last))
        return 0;
    xray_rec *r = append_event(mu, h, b, (uint32_t)tc_rng_range(mu->rng, 0, 16));
    if (!r)
        return 0;
    r->i32 = -(int32_t)tc_rng_range(mu->rng, 1, INT32_MAX);
    return 1;
}

static int oversized_payload(xray_mutation *mu, const tc_xray_header *h, xray_buffer *b, int last)
{
    if (!take(mu, last))
        return 0;
    uint32_t len = (uint32_t)tc_rng_range(mu->rng, 1, 16);
    xray_rec *r = append_event(mu, h, b, len);
    if (!r)
        return 0;
    /* Room after the marker: to the extents' end (= the payload written) in
     * version 2+, to buffer_size in version 1. */
    uint64_t room = h->version == 1 ? h->buffer_size - (xray_buffer_used(b) - len) : len;
    if (room >= INT32_MAX)
        return 0;
    r->i32 = (int32_t)tc_rng_range(mu->rng, room + 1, INT32_MAX);
    return 1;
}

/* ---- values ---- */

static int bad_microseconds(xray_mutation *mu, const tc_xray_header *h, xray_buffer *b, int last)
{
    (void)h;
    for (size_t i = 0; i < b->n; i++)
        if (is_meta(&b->recs[i], TC_XRAY_WALL_TIME)) {
            if (!take(mu, last))
                return 0;
            b->recs[i].i32 = tc_rng_chance(mu->rng, 1, 4)
                                 ? -(int32_t)tc_rng_range(mu->rng, 1, 1000)
                                 : (int32_t)tc_rng_range(mu->rng, 1000000, INT32_MAX);
            return 1;
        }
    return 0;
}

static int mismatched_exit(xray_mutation *mu, const tc_xray_header *h, xray_buffer *b, int last)
{
    if (!take(mu, last))
        return 0;
    if (!make_room(h, b, 16))
        return 0;
    uint32_t f = fresh_function(mu);
    xray_add_function(b, TC_XRAY_ENTER, f, 1);
    xray_add_function(b, tc_rng_chance(mu->rng, 1, 2) ? TC_XRAY_EXIT : TC_XRAY_TAIL_EXIT,
                      f ^ 1u, 1);
    return 1;
}

static int huge_delta(xray_mutation *mu, const tc_xray_header *h, xray_buffer *b, int last)
{
    if (!take(mu, last))
        return 0;
    if (!make_room(h, b, 8))
        return 0;
    xray_add_function(b, TC_XRAY_ENTER, fresh_function(mu),
                      (uint32_t)tc_rng_range(mu->rng, 0x80000000u, 0xffffffffu));
    return 1;
}

static int tsc_backwards(xray_mutation *mu, const tc_xray_header *h, xray_buffer *b, int last)
{
    size_t bs = body_start(b);
    if (bs == 0 || bs > b->n || !take(mu, last))
        return 0;
    uint64_t start = b->recs[bs - 1].u64; /* the preamble's TSC: the thread's is above it now */
    if (!make_room(h, b, 16))
        return 0;
    xray_add_meta(b, TC_XRAY_TSC_WRAP)->u64 = start - 1 - tc_rng_below(mu->rng, start > 1000 ? 1000 : 1);
    return 1;
}

static int reserved_record(xray_mutation *mu, const tc_xray_header *h, xray_buffer *b, int last)
{
    (void)h;
    if (!take(mu, last))
        return 0;
    size_t metas = 0;
    for (size_t i = 0; i < b->n; i++)
        metas += b->recs[i].type == XR_META;
    size_t pick = (size_t)tc_rng_below(mu->rng, metas);
    for (size_t i = 0; i < b->n; i++)
        if (b->recs[i].type == XR_META && pick-- == 0) {
            b->recs[i].garbage = 1;
            return 1;
        }
    return 0;
}

#define R(name) TC_RULE_##name

static const xray_mutator mutators[] = {
    {R(XRAY_HEADER_TRUNCATED), V_ALL, "cuts the file inside the 32-byte header (4 to 31 bytes)",
     NULL, truncate_header, NULL, NULL},
    {R(XRAY_HEADER_VERSION), V_ALL, "sets the header version to 0 or 6..255", bad_version, NULL,
     NULL, NULL},
    /* Versions 1-3 of type 0 are basic-mode logs (ruling 13): an FDR body
     * behind such a header would break basic mode's rules, not this one. */
    {R(XRAY_HEADER_BASIC_MODE), V(4) | V(5),
     "sets the header type to 0 (basic mode, which has no version 4 or 5)", basic_mode, NULL,
     NULL, NULL},
    {R(XRAY_HEADER_TYPE), V_ALL, "sets the header type to 2..65535", bad_type, NULL, NULL, NULL},
    {R(XRAY_HEADER_CYCLE_FREQUENCY_ZERO), V_ALL, "sets cycle_frequency to 0", zero_frequency, NULL,
     NULL, NULL},
    {R(XRAY_HEADER_RESERVED_NONZERO), V_ALL, "sets a reserved header bit or byte", reserved_header,
     NULL, NULL, NULL},
    {R(XRAY_V1_BUFFER_SIZE), V(1), "sets buffer_size below 48", small_v1_buffer, NULL, NULL, NULL},
    {R(XRAY_V1_FILE_SIZE), V(1), "cuts the last buffer short", NULL, NULL, NULL, truncate_v1_file},
    {R(XRAY_V1_RECORD_CROSSES_BUFFER), V(1),
     "fills a buffer to 8 bytes before its end and starts a 16-byte record there", NULL, NULL,
     cross_v1_buffer, NULL},
    {R(XRAY_EXTENTS_EXPECTED), V_2UP, "puts 1 to 40 garbage bytes after a buffer", NULL, NULL, NULL,
     garbage_between},
    {R(XRAY_EXTENTS_PAST_EOF), V_2UP, "cuts the file inside its last buffer", NULL, NULL, NULL,
     truncate_last_buffer},
    {R(XRAY_EXTENTS_OVER_BUFFER_SIZE), V_2UP, "sets the header's buffer_size below 64",
     over_buffer_size, NULL, NULL, NULL},
    {R(XRAY_RECORD_PAST_EXTENTS), V_2UP,
     "makes a buffer end in a function record and shortens its BufferExtents by 1 to 7 bytes",
     NULL, NULL, end_with_function, short_extents},
    {R(XRAY_META_KIND_UNKNOWN), V_ALL, "inserts a metadata record of kind 10..127", NULL, NULL,
     unknown_kind, NULL},
    {R(XRAY_META_KIND_VERSION), V_ALL,
     "inserts a record of another version's table (PIDEntry, BufferExtents, EndOfBuffer, "
     "TypedEventMarker)", NULL, NULL, kind_of_other_version, NULL},
    {R(XRAY_FUNCTION_ACTION), V_ALL, "inserts a function record with action 4..7", NULL, NULL,
     bad_action, NULL},
    {R(XRAY_PREAMBLE_ORDER), V_ALL, "removes one record of a buffer's preamble", NULL, NULL,
     drop_preamble_record, NULL},
    {R(XRAY_PREAMBLE_INCOMPLETE), V_ALL, "ends a buffer before its NewCPUId", NULL, NULL,
     cut_preamble, NULL},
    {R(XRAY_BODY_PREAMBLE_RECORD), V_ALL,
     "inserts a WallTimeMarker, NewBuffer, PIDEntry or BufferExtents in a buffer's body", NULL,
     NULL, preamble_in_body, NULL},
    {R(XRAY_CALLARG_PLACEMENT), V_ALL,
     "inserts a CallArgument after NewCPUId or an Exit (or, in version 5, a plain Entry)", NULL,
     NULL, misplaced_argument, NULL},
    {R(XRAY_CALLARG_AFTER_ENTER), V(1) | V(2) | V(3) | V(4),
     "ends a buffer with a plain Entry followed by a CallArgument", NULL, NULL,
     argument_after_enter, NULL},
    {R(XRAY_EVENT_SIZE_NEGATIVE), V_ALL, "ends a buffer with an event whose size is negative",
     NULL, NULL, negative_size, NULL},
    {R(XRAY_EVENT_PAYLOAD_OVERFLOW), V_ALL,
     "ends a buffer with an event whose size exceeds what is left of the buffer", NULL, NULL,
     oversized_payload, NULL},
    {R(XRAY_WALLTIME_USEC), V_ALL, "sets a WallTimeMarker's microseconds outside 0..999999", NULL,
     NULL, bad_microseconds, NULL},
    {R(XRAY_CALLSTACK_MISMATCH), V_ALL, "ends a buffer with Entry(f) then Exit(g), g != f", NULL,
     NULL, mismatched_exit, NULL},
    {R(XRAY_TSC_DELTA_LARGE), V_ALL, "ends a buffer with a function record whose delta is >= 2^31",
     NULL, NULL, huge_delta, NULL},
    {R(XRAY_TSC_BACKWARDS), V_ALL, "ends a buffer with a TSCWrap below the buffer's starting TSC",
     NULL, NULL, tsc_backwards, NULL},
    {R(XRAY_RECORD_RESERVED_NONZERO), V_ALL, "fills the reserved bytes of one metadata record",
     NULL, NULL, reserved_record, NULL},
};

const xray_mutator *xray_mutator_for(tc_rule_id rule)
{
    for (size_t i = 0; i < sizeof mutators / sizeof mutators[0]; i++)
        if (mutators[i].rule == rule)
            return &mutators[i];
    return NULL;
}

size_t xray_mutator_count(void) { return sizeof mutators / sizeof mutators[0]; }

const xray_mutator *xray_mutator_at(size_t i)
{
    return i < xray_mutator_count() ? &mutators[i] : NULL;
}
