/*
 * Binary streams: a pull parser. One event per call; every length is checked
 * against what is left before it is used (jumbo sizes too), and state is a
 * few words, so memory does not grow with the stream.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../common/bytes.h"
#include "../common/fields.h"
#include "ovni_show.h"
#include "ovni_stream_priv.h"


tc_ovni_stream *tc_ovni_stream_new(tc_reader *r, tc_diag_sink *d, int want_payloads)
{
    tc_ovni_stream *s = calloc(1, sizeof *s);
    if (s) {
        s->r = r;
        s->d = d;
        s->want_payloads = want_payloads;
    }
    return s;
}

void tc_ovni_stream_free(tc_ovni_stream *s) { free(s); }

int tc_ovni_stream_big_endian(const tc_ovni_stream *s) { return s->be; }
uint64_t tc_ovni_stream_count(const tc_ovni_stream *s) { return s->count; }
int tc_ovni_stream_cut(const tc_ovni_stream *s) { return s->cut; }
uint32_t tc_ovni_u32(const tc_ovni_stream *s, const uint8_t *p) { return tc_rd32(p, s->be); }
uint64_t tc_ovni_u64(const tc_ovni_stream *s, const uint8_t *p) { return tc_rd64(p, s->be); }

int tc_ovni_sniff_stream(const uint8_t *p, size_t n)
{
    return n >= 4 && memcmp(p, "ovni", 4) == 0;
}

int tc_ovni_sniff_metadata(const uint8_t *p, size_t n)
{
    size_t i = 0;
    if (n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf)
        i = 3;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r'))
        i++;
    if (i >= n || p[i] != '{')
        return 0;
    /* The first key: libovni writes "version" first, and ovni metadata is
     * the only JSON tracecheck reads that starts so. */
    static const char *const keys[] = {"\"version\"", "\"ovni\""};
    for (size_t k = 0; k < 2; k++) {
        size_t len = strlen(keys[k]);
        for (size_t j = i + 1; j + len <= n && j < i + 16; j++)
            if (memcmp(p + j, keys[k], len) == 0)
                return 1;
    }
    return 0;
}

int tc_ovni_stream_header(tc_ovni_stream *s)
{
    tc_reader *r = s->r;
    const uint8_t *b = tc_need(r, TC_OVNI_HEADER_SIZE);
    if (TC_FIELDS_ON(s->d))
        tc_ovni_show_header(s->d, b ? b : r->cur, b ? TC_OVNI_HEADER_SIZE : tc_avail(r));
    if (!b) {
        if (!r->failed)
            tc_report(s->d, TC_RULE_OVNI_STREAM_HEADER_TRUNCATED, 0, tc_avail(r),
                      "the stream has %zu bytes; its header has 8", tc_avail(r));
        s->done = 1;
        return 0;
    }
    if (memcmp(b, "ovni", 4) != 0) {
        tc_report(s->d, TC_RULE_OVNI_STREAM_MAGIC, 0, 4,
                  "the stream starts with %02x %02x %02x %02x, not \"ovni\"", b[0], b[1], b[2],
                  b[3]);
        s->done = 1;
        return 0;
    }
    uint32_t le = tc_le32(b + 4), be = tc_be32(b + 4);
    if (le == 1) {
        s->be = 0;
    } else if (be == 1) {
        s->be = 1;
    } else {
        tc_report(s->d, TC_RULE_OVNI_STREAM_VERSION, 4, 4,
                  "version is %" PRIu32 " (%" PRIu32 " big-endian); version 1 is defined", le,
                  be);
        s->done = 1;
        return 0;
    }
    tc_advance(r, TC_OVNI_HEADER_SIZE);
    return 1;
}

static int printable(uint8_t c) { return c >= 0x21 && c <= 0x7e; }

/* The markers of an unsorted region, by an event header's bytes. */
static int unsorted_begin(const uint8_t *h) { return h[1] == 'O' && h[2] == 'U' && h[3] == '['; }
static int unsorted_end(const uint8_t *h) { return h[1] == 'O' && h[2] == 'U' && h[3] == ']'; }

static void end(tc_ovni_stream *s)
{
    s->done = 1;
    if (s->count == 0 && !s->r->failed)
        tc_report(s->d, TC_RULE_OVNI_STREAM_NO_EVENTS, 0, TC_OVNI_HEADER_SIZE,
                  "the stream has a header and no events");
}

static int truncated(tc_ovni_stream *s, const tc_ovni_event *ev, uint64_t pos, uint64_t want,
                     const char *what)
{
    /* The event's bytes that are there: what was consumed of it (its header,
     * when the payload is cut) and what is left. */
    uint64_t have = tc_pos(s->r) - pos + tc_avail(s->r);
    tc_skip(s->r, tc_avail(s->r));
    if (TC_FIELDS_ON(s->d)) {
        if (ev)
            tc_ovni_show_event(s->d, ev, pos + have);
        else
            tc_ovni_show_cut_header(s->d, pos, (size_t)have);
    }
    if (!s->r->failed)
        tc_report(s->d, TC_RULE_OVNI_EVENT_TRUNCATED, pos, have,
                  "the stream ends inside %s: %" PRIu64 " of its %" PRIu64 " bytes are there",
                  what, have, want);
    s->done = 1;
    s->cut = 1;
    return 0;
}

/* The common event, in one pass and few branches: a normal event (no
 * flags), whole in the window, printable MCV, its clock in order and below
 * 2^63, not an unsorted region's marker. 0 when it is not one: the full
 * path below then reads it (the same event, the same results). */
static inline int next_fast(tc_ovni_stream *s, tc_ovni_event *ev)
{
    tc_reader *r = s->r;
    const uint8_t *b = r->cur;
    size_t avail = (size_t)(r->end - b);
    if (avail < TC_OVNI_EVENT_HEADER_SIZE)
        return 0;
    unsigned b0 = b[0];
    uint32_t len = b0 ? b0 + 1u : 0u;
    uint64_t clock = tc_rd64(b + 4, s->be);
    int ok = (b0 & 0xf0u) == 0 && avail >= TC_OVNI_EVENT_HEADER_SIZE + len;
    ok &= ((unsigned)b[1] - 0x21u < 94u) & ((unsigned)b[2] - 0x21u < 94u) &
          ((unsigned)b[3] - 0x21u < 94u);
    ok &= s->have_clock & (clock >= s->last_clock) & (clock < TC_OVNI_CLOCK_LIMIT);
    ok &= !(b[1] == 'O' && b[2] == 'U');
    if (!ok)
        return 0;
    uint64_t pos = tc_pos(r);
    ev->offset = pos;
    ev->flags = 0;
    ev->size_code = (uint8_t)b0;
    memcpy(ev->mcv, b + 1, 3);
    ev->mcv[3] = '\0';
    ev->clock = clock;
    ev->jumbo = 0;
    ev->big_endian = s->be;
    ev->payload_len = len;
    ev->payload = b + TC_OVNI_EVENT_HEADER_SIZE;
    s->last_clock = clock;
    s->last_clock_offset = pos;
    r->cur = b + TC_OVNI_EVENT_HEADER_SIZE + len;
    s->count++;
    return 1;
}

static int next_slow(tc_ovni_stream *s, tc_ovni_event *ev);

int tc_ovni_stream_next(tc_ovni_stream *s, tc_ovni_event *ev)
{
    if (s->done)
        return 0;
    /* While a view is drawn, every event takes the full path, which says
     * what it read (ovni_show.c). */
    return (!TC_FIELDS_ON(s->d) && next_fast(s, ev)) || next_slow(s, ev);
}

/* Every event the fast path leaves: the header checked field by field. */
static __attribute__((noinline)) int next_slow(tc_ovni_stream *s, tc_ovni_event *ev)
{
    tc_reader *r = s->r;
    uint64_t pos = tc_pos(r);
    const uint8_t *b = tc_need(r, TC_OVNI_EVENT_HEADER_SIZE);
    if (!b) {
        if (tc_avail(r) == 0) {
            end(s);
            return 0;
        }
        return truncated(s, NULL, pos, TC_OVNI_EVENT_HEADER_SIZE, "an event's 12-byte header");
    }
    ev->offset = pos;
    ev->flags = b[0] & 0xf0u;
    ev->size_code = b[0] & 0x0fu;
    memcpy(ev->mcv, b + 1, 3);
    ev->mcv[3] = '\0';
    ev->clock = tc_rd64(b + 4, s->be);
    ev->jumbo = (ev->flags & TC_OVNI_FLAG_JUMBO) != 0;
    ev->payload = NULL;
    ev->big_endian = s->be;

    if (ev->flags & ~TC_OVNI_FLAG_JUMBO)
        tc_report(s->d, TC_RULE_OVNI_EVENT_FLAGS, pos, 1,
                  "event %s has flags 0x%02x; only jumbo (0x10) is defined", ev->mcv, ev->flags);
    if (!printable(b[1]) || !printable(b[2]) || !printable(b[3]))
        tc_report(s->d, TC_RULE_OVNI_MCV_PRINTABLE, pos + 1, 3,
                  "model, category and value bytes are %02x %02x %02x; printable ASCII "
                  "(0x21-0x7e) is required", b[1], b[2], b[3]);
    if (ev->clock >= TC_OVNI_CLOCK_LIMIT) {
        tc_report_ex(s->d, TC_RULE_OVNI_CLOCK_RANGE, pos + 4, 8,
                     TC_EXTRA(TC_VALUES(TC_UINT("clock", ev->clock))),
                     "event %s has clock %" PRIu64 ", 2^63 or more (negative as libovni reads it)",
                     ev->mcv, ev->clock);
    } else {
        int inside = s->unsorted && !unsorted_end(b);
        if (s->have_clock && ev->clock < s->last_clock && inside)
            tc_report_ex(s->d, TC_RULE_OVNI_CLOCK_UNSORTED, pos + 4, 8,
                         TC_EXTRA(TC_RELATED(s->last_clock_offset, s->unsorted_at),
                                  TC_VALUES(TC_UINT("clock", ev->clock),
                                            TC_UINT("previous_clock", s->last_clock))),
                         "event %s has clock %" PRIu64 ", below the %" PRIu64
                         " of the event at offset %" PRIu64 ", inside the region begun by the OU[ "
                         "at offset %" PRIu64 ": the region is unsorted, as libovni writes it, and "
                         "ovnisort sorts it",
                         ev->mcv, ev->clock, s->last_clock, s->last_clock_offset, s->unsorted_at);
        else if (s->have_clock && ev->clock < s->last_clock)
            tc_report_ex(s->d, TC_RULE_OVNI_CLOCK_DECREASE, pos + 4, 8,
                         TC_EXTRA(TC_RELATED(s->last_clock_offset),
                                  TC_VALUES(TC_UINT("clock", ev->clock),
                                            TC_UINT("previous_clock", s->last_clock))),
                         "event %s has clock %" PRIu64 ", below the %" PRIu64
                         " of the event at offset %" PRIu64,
                         ev->mcv, ev->clock, s->last_clock, s->last_clock_offset);
        s->have_clock = 1;
        s->last_clock = ev->clock;
        s->last_clock_offset = pos;
    }
    /* ovnisort goes by the codes alone, whatever the event's clock or flags. */
    if (!s->unsorted && unsorted_begin(b)) {
        s->unsorted = 1;
        s->unsorted_at = pos;
    } else if (s->unsorted && unsorted_end(b)) {
        s->unsorted = 0;
    }
    tc_advance(r, TC_OVNI_EVENT_HEADER_SIZE);

    if (!ev->jumbo) {
        ev->payload_len = ev->size_code ? ev->size_code + 1u : 0u;
        const uint8_t *p = tc_need(r, ev->payload_len);
        if (!p)
            return truncated(s, ev, pos, TC_OVNI_EVENT_HEADER_SIZE + ev->payload_len, "an event");
        ev->payload = p;
        tc_advance(r, ev->payload_len);
        s->count++;
        if (TC_FIELDS_ON(s->d))
            tc_ovni_show_event(s->d, ev, tc_pos(r));
        return 1;
    }

    /* Jumbo: libovni reads a u32 size whatever the size code says. */
    if (ev->size_code != TC_OVNI_JUMBO_SIZE_CODE)
        tc_report(s->d, TC_RULE_OVNI_JUMBO_SIZE_CODE, pos, 1,
                  "jumbo event %s has size code %u; jumbo events have 3 (a 4-byte size)",
                  ev->mcv, ev->size_code);
    ev->payload_len = 0; /* not known before its size is read */
    const uint8_t *p = tc_need(r, 4);
    if (!p)
        return truncated(s, ev, pos, TC_OVNI_EVENT_HEADER_SIZE + 4, "a jumbo event's size");
    uint32_t size = tc_rd32(p, s->be);
    ev->payload_len = size;
    tc_advance(r, 4);
    if (size >= TC_OVNI_JUMBO_WRITE_LIMIT)
        tc_report_ex(s->d, TC_RULE_OVNI_JUMBO_LARGE, pos + 12, 4,
                     TC_EXTRA(TC_VALUES(TC_UINT("size", size))),
                     "jumbo event %s holds %" PRIu32 " bytes; libovni writes less than 2 MiB",
                     ev->mcv, size);
    if (s->want_payloads && size <= TC_READER_MAX_NEED) {
        p = tc_need(r, size);
        if (p) {
            ev->payload = p;
            tc_advance(r, size);
            s->count++;
            if (TC_FIELDS_ON(s->d))
                tc_ovni_show_event(s->d, ev, tc_pos(r));
            return 1;
        }
    }
    uint64_t got = tc_skip(r, size);
    if (got < size) {
        if (!r->failed)
            tc_report_ex(s->d, TC_RULE_OVNI_JUMBO_PAST_EOF, pos + 12, 4,
                         TC_EXTRA(TC_VALUES(TC_UINT("size", size), TC_UINT("remaining", got))),
                         "jumbo event %s announces %" PRIu32 " bytes, but the stream ends %" PRIu64
                         " bytes after its size",
                         ev->mcv, size, got);
        if (TC_FIELDS_ON(s->d))
            tc_ovni_show_event(s->d, ev, tc_pos(r));
        s->done = 1;
        s->cut = 1;
        return 0;
    }
    s->count++;
    if (TC_FIELDS_ON(s->d))
        tc_ovni_show_event(s->d, ev, tc_pos(r));
    return 1;
}
