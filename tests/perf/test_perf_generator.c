/* The SiFive perf generator (generators/perf), checked by its own small
 * readers written from spec/perf/perf.md rather than by the library's parser:
 * a Nexus decoder (framing, field values, fewest bytes per field), a text
 * message list reader, and a reading of the perf data grammar that notes
 * which rules a trace breaks. Valid traces break none (a second header
 * aside, which is valid); every mutator breaks exactly its rule; output is
 * deterministic and about --size bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../generators/perf/perf_gen.h"
#include "../../generators/perf/perf_mutate.h"
#include "../../generators/perf/perf_writer.h"
#include "../suites.h"
#include "../tu.h"

/* ---- what the readers note ---- */

enum {
    F_MID_START,
    F_MESSAGE_LONG,
    F_NEXUS_TRUNCATED,
    F_DA_FIELDS,
    F_FIELD_WIDTH,
    F_TEXT_SYNTAX,
    F_ITC_WIDTH_CODE,
    F_ITC_VALUE_WIDTH,
    F_NO_DATA,
    F_NO_HEADER,
    F_BEFORE_HEADER,
    F_BEFORE_HEADER_WRAPPED,
    F_HEADER_WIDTH,
    F_COUNT_TYPE,
    F_OPENSBI_TYPE,
    F_HEADER_TRUNCATED,
    F_SECOND_HEADER,
    F_RECORD_START,
    F_RECORD_TYPE,
    F_WIDTH_16,
    F_RECORD_CUT,
    F_ADDRESS_WIDTH,
    F_ADDRESS_HIGH_ZERO,
    F_COUNTER_WIDTH,
    F_COUNTER_HIGH_ZERO,
    F_RECORD_TRUNCATED,
    F_MIXED_RECORDS,
    F_RAW_BACKWARDS,
    F_CALL_STACK,
    F_HEADER_INTERLEAVED,
    F__COUNT
};

static const char *const finding_rule[F__COUNT] = {
    "PERF-NEXUS-MID-START", "PERF-NEXUS-MESSAGE-LONG", "PERF-NEXUS-TRUNCATED",
    "PERF-NEXUS-DA-FIELDS", "PERF-NEXUS-FIELD-WIDTH",  "PERF-TEXT-SYNTAX",
    "PERF-ITC-WIDTH-CODE",  "PERF-ITC-VALUE-WIDTH",    "PERF-NO-DATA",
    "PERF-NO-HEADER",       "PERF-BEFORE-HEADER",      "PERF-BEFORE-HEADER-WRAPPED",
    "PERF-HEADER-WIDTH",    "PERF-COUNT-TYPE",
    "PERF-OPENSBI-TYPE",    "PERF-HEADER-TRUNCATED",   "PERF-SECOND-HEADER",
    "PERF-RECORD-START",    "PERF-RECORD-TYPE",        "PERF-WIDTH-16",
    "PERF-RECORD-CUT",      "PERF-ADDRESS-WIDTH",      "PERF-ADDRESS-HIGH-ZERO",
    "PERF-COUNTER-WIDTH",   "PERF-COUNTER-HIGH-ZERO",  "PERF-RECORD-TRUNCATED",
    "PERF-MIXED-RECORDS",   "PERF-RAW-BACKWARDS",      "PERF-CALL-STACK", "PERF-HEADER-INTERLEAVED",
};

/* The perf data as read: findings and what was seen. */
typedef struct rd {
    uint64_t found; /* bit F_* */
    int mid_start;  /* a wrapped buffer */
    /* Before the first header (ruling 14): what its messages break, noted
     * only when a header comes. */
    uint64_t pre, pre_found;
    int nonminimal; /* a Nexus field longer than it needs */
    uint64_t messages, perf_messages, other_messages, idle, timestamps;
    /* perf data */
    int have_header, skipping;
    int in_header;
    unsigned hstep, hbit, hsub;
    uint32_t mask;
    unsigned ct, width[32], sbi[32];
    int in_record;
    unsigned rtype, naddr, na, cbit;
    int want_hi, lo_pending;
    uint64_t addr[2], lo, cur_lo, last[32];
    unsigned kinds;
    uint64_t stack[64][2];
    unsigned depth;
    /* seen */
    uint64_t headers, records, w16, addr64, masks_zero, wide_values, narrow_counters;
    unsigned count_types;
} rd;

static void note(rd *r, int f)
{
    r->found |= 1ull << f;
}

/* ---- the perf data grammar (spec/perf/perf.md, "Perf data", rulings) ---- */

static void start_header(rd *r)
{
    if (r->headers++)
        note(r, F_SECOND_HEADER);
    r->in_header = 1;
    r->hstep = 0;
    r->in_record = 0;
    r->skipping = 0;
}

static void abandon_header(rd *r, int f)
{
    note(r, f);
    r->in_header = 0;
    r->have_header = 0;
}

static void header_word(rd *r, unsigned width, uint64_t v)
{
    if (r->hstep == 0) { /* the count type */
        if (width != 8)
            return abandon_header(r, F_HEADER_WIDTH);
        if (v > 2)
            return abandon_header(r, F_COUNT_TYPE);
        r->ct = (unsigned)v;
        r->hstep = 1;
        return;
    }
    if (width == 8 && v <= 3) /* a record's type inside the header (ruling 18) */
        return abandon_header(r, F_HEADER_INTERLEAVED);
    if (width != 32)
        return abandon_header(r, F_HEADER_WIDTH);
    if (r->hstep == 1) {
        r->mask = (uint32_t)v;
        r->hstep = 2;
        r->hbit = 0;
        r->hsub = 0;
    } else {
        /* definitions: type, then code or event_data lo and hi, then info */
        if (r->hsub == 0) {
            if (v > 2)
                return abandon_header(r, F_OPENSBI_TYPE);
            r->sbi[r->hbit] = (unsigned)v;
            r->hsub = 1;
        } else if (r->hsub == 1)
            r->hsub = r->sbi[r->hbit] == 2 ? 2 : 3;
        else if (r->hsub == 2)
            r->hsub = 3;
        else {
            r->width[r->hbit] = (unsigned)((v >> 12) & 63) + 1;
            if (r->width[r->hbit] < 32)
                r->narrow_counters++;
            r->hsub = 0;
            r->hbit++;
        }
    }
    while (r->hstep == 2 && r->hsub == 0 && r->hbit < 32 && !(r->mask >> r->hbit & 1))
        r->hbit++;
    if (r->hstep == 2 && r->hbit >= 32) {
        r->in_header = 0;
        r->have_header = 1;
        r->count_types |= 1u << r->ct;
        if (!r->mask)
            r->masks_zero++;
        memset(r->last, 0, sizeof r->last);
        r->depth = 0;
    }
}

static unsigned next_counter(const rd *r, unsigned from)
{
    while (from < 32 && !(r->mask >> from & 1))
        from++;
    return from;
}

static void finish_counter(rd *r, uint64_t v)
{
    unsigned b = r->cbit;
    if (v >> 32)
        r->wide_values++;
    if (r->width[b] < 64 && v >> r->width[b])
        note(r, F_COUNTER_WIDTH);
    if (r->ct == 0 && v < r->last[b])
        note(r, F_RAW_BACKWARDS);
    r->last[b] = v;
    r->lo_pending = 0;
    r->cbit = next_counter(r, b + 1);
}

static void finish_record(rd *r)
{
    r->in_record = 0;
    r->records++;
    r->kinds |= 1u << (r->rtype < 2 ? 0 : r->rtype - 1);
    if ((r->kinds & (r->kinds - 1)) != 0)
        note(r, F_MIXED_RECORDS);
    /* Calls as the writers record them: the function entered or left and
     * the call site in its caller, the same for an entry and its exit. */
    if (r->rtype == 0) {
        if (r->depth < 64) {
            r->stack[r->depth][0] = r->addr[0];
            r->stack[r->depth][1] = r->addr[1];
            r->depth++;
        }
    } else if (r->rtype == 1 && r->depth) {
        const uint64_t *top = r->stack[r->depth - 1];
        if (top[0] != r->addr[0] || top[1] != r->addr[1])
            note(r, F_CALL_STACK);
        if (top[0] == r->addr[0])
            r->depth--;
        else
            r->depth = 0;
    }
}

/* Whether the record has all its words. */
static int record_complete(const rd *r)
{
    return r->na == r->naddr && !r->want_hi && r->cbit >= 32;
}

static void record_word(rd *r, unsigned width, uint64_t v)
{
    if (width == 16) {
        if (r->want_hi) {
            note(r, F_ADDRESS_WIDTH);
            r->want_hi = 0;
            r->addr[r->na++] = r->lo;
        } else
            note(r, F_WIDTH_16);
        return;
    }
    /* 32-bit */
    if (r->want_hi) {
        if (v == 0)
            note(r, F_ADDRESS_HIGH_ZERO);
        else
            r->addr64++;
        r->addr[r->na++] = v << 32 | r->lo;
        r->want_hi = 0;
    } else if (r->na < r->naddr) {
        if (v & 1) {
            r->lo = v & ~1ull;
            r->want_hi = 1;
        } else
            r->addr[r->na++] = v;
    } else {
        r->cur_lo = v;
        r->lo_pending = 1;
    }
}

static void perf_msg(rd *r, unsigned code, uint64_t v)
{
    r->perf_messages++;
    unsigned width = code == 0 ? 32 : code == 2 ? 16 : 8;
    int bad = code == 1 ? F_ITC_WIDTH_CODE : v >> width ? F_ITC_VALUE_WIDTH : -1;
    if (code != 0 && v == PERF_MARKER && !r->in_header) {
        /* The marker in another width: a header appears where one may
         * start, abandoned for its marker's width (ruling 16). */
        if (r->lo_pending && r->cbit < 32 && next_counter(r, r->cbit + 1) >= 32) {
            finish_counter(r, r->cur_lo);
            finish_record(r);
        }
        if (!r->in_record) {
            if (!r->headers)
                r->found |= r->pre_found;
            start_header(r);
            return abandon_header(r, F_HEADER_WIDTH);
        }
    }
    if (!r->headers) {
        /* Before the first header: judged if one comes (ruling 14). */
        if (bad < 0 && width == 32 && v == PERF_MARKER) {
            r->found |= r->pre_found;
            return start_header(r);
        }
        r->pre++;
        r->pre_found |= 1ull << (bad >= 0        ? bad
                                 : r->mid_start ? F_BEFORE_HEADER_WRAPPED
                                                : F_BEFORE_HEADER);
        return;
    }
    if (bad >= 0)
        return note(r, bad);
    if (width == 16)
        r->w16++;
    if (r->lo_pending) {
        if (width == 16) {
            if (v == 0)
                note(r, F_COUNTER_HIGH_ZERO);
            finish_counter(r, v << 32 | r->cur_lo);
            if (record_complete(r))
                finish_record(r);
            return;
        }
        finish_counter(r, r->cur_lo);
        if (record_complete(r))
            finish_record(r);
    }
    if (r->in_header)
        return header_word(r, width, v);
    if (r->in_record) {
        if (width == 8) {
            note(r, F_RECORD_CUT);
            r->in_record = 0;
        } else {
            record_word(r, width, v);
            if (record_complete(r) && !r->lo_pending)
                finish_record(r);
            return;
        }
    }
    /* where a record or header starts */
    if (width == 32 && v == PERF_MARKER)
        return start_header(r);
    if (!r->have_header)
        return; /* after an abandoned header: records wait for the next */
    if (r->skipping && width != 8)
        return;
    r->skipping = 0;
    if (width == 32)
        return note(r, F_RECORD_START);
    if (width == 16)
        return note(r, F_WIDTH_16);
    if (v > 3) {
        note(r, F_RECORD_TYPE);
        r->skipping = 1;
        return;
    }
    r->in_record = 1;
    r->rtype = (unsigned)v;
    r->naddr = v < 2 ? 2 : 1;
    r->na = 0;
    r->want_hi = 0;
    r->cbit = next_counter(r, 0);
    if (record_complete(r)) /* never: a record has an address */
        finish_record(r);
}

static void perf_end(rd *r)
{
    if (r->lo_pending) {
        finish_counter(r, r->cur_lo);
        if (record_complete(r))
            finish_record(r);
    }
    if (r->in_header)
        note(r, F_HEADER_TRUNCATED);
    if (r->in_record)
        note(r, F_RECORD_TRUNCATED);
    if (!r->perf_messages)
        note(r, F_NO_DATA);
    else if (!r->headers)
        note(r, F_NO_HEADER);
}

static void itc_msg(rd *r, uint64_t idtag, uint64_t value)
{
    if (idtag / 4 == PERF_CHANNEL)
        perf_msg(r, (unsigned)(idtag & 3), value);
}

/* ---- a Nexus decoder (spec/perf/perf.md, "Nexus") ---- */

typedef struct field {
    uint64_t lo, hi;
    unsigned bytes;
} field;

/* Reads the variable field starting at bit *bit of msg[0..len): to the end
 * of the first byte at or after its first bit with MSEO != 0. */
static int read_var(const uint8_t *msg, unsigned len, unsigned *bit, field *f, int *nonminimal)
{
    unsigned i = *bit / 6, skip = *bit % 6, shift = 0, first = i;
    memset(f, 0, sizeof *f);
    if (i >= len)
        return 0;
    int top_nonzero = 0;
    for (; i < len; i++) {
        uint64_t chunk = (uint64_t)(msg[i] >> 2) >> skip;
        unsigned n = 6 - skip;
        if (shift < 64) {
            f->lo |= chunk << shift;
            if (shift + n > 64)
                f->hi |= chunk >> (64 - shift);
        } else if (shift - 64 < 64)
            f->hi |= chunk << (shift - 64);
        top_nonzero = chunk != 0;
        shift += n;
        skip = 0;
        if (msg[i] & 3)
            break;
    }
    if (i >= len)
        return 0;
    /* Fewest bytes: a field of more than one byte needs its last one. */
    if (i > first && !top_nonzero)
        *nonminimal = 1;
    f->bytes = i - first + 1;
    *bit = (i + 1) * 6;
    return 1;
}

static void nexus_message(rd *r, const uint8_t *msg, unsigned len, unsigned srcbits)
{
    r->messages++;
    unsigned tcode = msg[0] >> 2;
    if (tcode != NX_TCODE_DATA_ACQ) {
        r->other_messages++;
        return;
    }
    unsigned bit = 6 + srcbits;
    field idtag, dq, ts;
    /* a fixed part that ends on a byte with MSEO != 0 leaves no IDTAG */
    for (unsigned i = 0; i < (bit - 1) / 6 && i < len; i++)
        if (msg[i] & 3)
            return note(r, F_DA_FIELDS);
    if (!read_var(msg, len, &bit, &idtag, &r->nonminimal) || bit / 6 >= len)
        return note(r, F_DA_FIELDS);
    if (!read_var(msg, len, &bit, &dq, &r->nonminimal))
        return note(r, F_DA_FIELDS);
    int has_ts = bit / 6 < len;
    if (has_ts && read_var(msg, len, &bit, &ts, &r->nonminimal))
        r->timestamps++;
    if (idtag.hi || dq.hi || (has_ts && ts.hi))
        return note(r, F_FIELD_WIDTH);
    itc_msg(r, idtag.lo, dq.lo);
}

static void read_nexus(rd *r, const uint8_t *p, size_t n, unsigned srcbits)
{
    size_t pos = 0, skipped = 0;
    while (pos < n && (p[pos] == 0 || (p[pos] & 3)))
        pos++, skipped++;
    if (skipped) {
        note(r, F_MID_START);
        r->mid_start = 1;
    }
    while (pos < n) {
        if (p[pos] == 0xff) {
            pos++;
            r->idle++;
            continue;
        }
        size_t end = pos;
        while (end < n && end - pos < NX_MAX_MESSAGE && (p[end] & 3) != 3)
            end++;
        if (end >= n) {
            note(r, F_NEXUS_TRUNCATED);
            break;
        }
        if (end - pos >= NX_MAX_MESSAGE) {
            note(r, F_MESSAGE_LONG);
            pos += NX_MAX_MESSAGE;
            while (pos < n && (p[pos] == 0 || (p[pos] & 3)))
                pos++;
            continue;
        }
        nexus_message(r, p + pos, (unsigned)(end - pos + 1), srcbits);
        pos = end + 1;
    }
    perf_end(r);
}

/* ---- a text message list reader (spec/perf/perf.md, "Text message list") ---- */

static int read_number(const char *s, size_t n, uint64_t *v)
{
    uint64_t x = 0;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        if (n - 2 > 16)
            return 0;
        for (size_t i = 2; i < n; i++) {
            int d = s[i] >= '0' && s[i] <= '9'   ? s[i] - '0'
                    : s[i] >= 'a' && s[i] <= 'f' ? s[i] - 'a' + 10
                    : s[i] >= 'A' && s[i] <= 'F' ? s[i] - 'A' + 10
                                                 : -1;
            if (d < 0)
                return 0;
            x = x << 4 | (unsigned)d;
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            if (s[i] < '0' || s[i] > '9' || x > (UINT64_MAX - 9) / 10)
                return 0;
            x = x * 10 + (unsigned)(s[i] - '0');
        }
    }
    *v = x;
    return 1;
}

static void text_line(rd *r, const char *s, size_t n)
{
    if (n && s[n - 1] == '\r')
        n--;
    const char *hash = memchr(s, '#', n);
    if (hash)
        n = (size_t)(hash - s);
    uint64_t v[4];
    unsigned k = 0;
    size_t i = 0;
    while (i < n) {
        if (s[i] == ' ' || s[i] == '\t') {
            i++;
            continue;
        }
        size_t j = i;
        while (j < n && s[j] != ' ' && s[j] != '\t')
            j++;
        if (k == 4 || !read_number(s + i, j - i, &v[k]))
            return note(r, F_TEXT_SYNTAX);
        k++;
        i = j;
    }
    if (k == 0)
        return;
    if (k < 2 || k > 3)
        return note(r, F_TEXT_SYNTAX);
    r->messages++;
    if (k == 3)
        r->timestamps++;
    itc_msg(r, v[0], v[1]);
}

static void read_text(rd *r, const uint8_t *p, size_t n)
{
    size_t pos = 0;
    while (pos < n) {
        const uint8_t *nl = memchr(p + pos, '\n', n - pos);
        size_t end = nl ? (size_t)(nl - p) : n;
        text_line(r, (const char *)p + pos, end - pos);
        pos = end + 1;
    }
    perf_end(r);
}

/* ---- helpers ---- */

static int gen(uint64_t seed, uint64_t size, int count_type, int container, unsigned srcbits,
               int violate, tc_bytebuf *out, perf_gen_stats *st, char *err, size_t errlen)
{
    perf_gen_params p = {.seed = seed,
                         .size = size,
                         .count_type = count_type,
                         .container = container,
                         .srcbits = srcbits};
    out->len = 0;
    perf_sink sink = {NULL, out};
    tc_error why = TC_ERROR_INIT;
    return tu_error_text(perf_generate(&p, violate, sink, st, &why), &why, err, errlen);
}

static void read_any(rd *r, const tc_bytebuf *b, int container, unsigned srcbits)
{
    memset(r, 0, sizeof *r);
    if (container == PERF_TEXT)
        read_text(r, b->p, b->len);
    else
        read_nexus(r, b->p, b->len, srcbits);
}

static const char *describe(uint64_t found)
{
    static char buf[600];
    size_t n = 0;
    buf[0] = '\0';
    for (int f = 0; f < F__COUNT; f++)
        if (found >> f & 1)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s ", finding_rule[f]);
    return n ? buf : "nothing";
}

static int finding_of(const char *rule)
{
    for (int f = 0; f < F__COUNT; f++)
        if (!strcmp(finding_rule[f], rule))
            return f;
    return -1;
}

/* ---- tests ---- */

static void test_deterministic(void)
{
    tc_bytebuf a = {0}, b = {0};
    char err[300];
    for (int container = 0; container < 2; container++) {
        CHECK(gen(7, 50000, -1, container, 0, -1, &a, NULL, err, sizeof err) == 0, "%s", err);
        CHECK(gen(7, 50000, -1, container, 0, -1, &b, NULL, err, sizeof err) == 0, "%s", err);
        CHECK(a.len == b.len && !memcmp(a.p, b.p, a.len), "seed 7 gives the same bytes twice");
        CHECK(gen(8, 50000, -1, container, 0, -1, &b, NULL, err, sizeof err) == 0, "%s", err);
        CHECK(a.len != b.len || memcmp(a.p, b.p, a.len), "seeds 7 and 8 differ");
    }
    tc_bb_free(&a);
    tc_bb_free(&b);
}

/* Valid traces of many seeds, both containers, every count type, several
 * sizes and SRC widths: nothing noted but a second header, fields in the
 * fewest bytes, and over all of them every feature the model promises. */
static void test_valid(void)
{
    tc_bytebuf b = {0};
    char err[300];
    rd r;
    uint64_t w16 = 0, addr64 = 0, masks_zero = 0, seconds = 0, narrow = 0, wide = 0, ts = 0,
             idle = 0, other = 0;
    unsigned types = 0, methods = 0;
    static const uint64_t sizes[] = {0, 700, 20000, 80000};
    for (uint64_t seed = 1; seed <= 16; seed++)
        for (int container = 0; container < 2; container++)
            for (int ct = 0; ct < 3; ct++) {
                uint64_t size = sizes[seed % 4];
                unsigned srcbits = container == PERF_RTD && seed % 5 == 0 ? (unsigned)seed % 9 : 0;
                perf_gen_stats st;
                /* a different run for each combination */
                uint64_t run = seed * 6 + (uint64_t)container * 3 + (uint64_t)ct;
                CHECK(gen(run, size, ct, container, srcbits, -1, &b, &st, err, sizeof err) == 0,
                      "%s", err);
                read_any(&r, &b, container, srcbits);
                CHECK((r.found & ~(1ull << F_SECOND_HEADER)) == 0,
                      "seed %llu container %d count type %d srcbits %u: %s",
                      (unsigned long long)seed, container, ct, srcbits, describe(r.found));
                CHECK(!r.nonminimal, "seed %llu: a Nexus field longer than needed",
                      (unsigned long long)seed);
                CHECK(r.records == st.records && r.headers == st.headers,
                      "seed %llu: read %llu records, %llu headers; wrote %llu, %llu",
                      (unsigned long long)seed, (unsigned long long)r.records,
                      (unsigned long long)r.headers, (unsigned long long)st.records,
                      (unsigned long long)st.headers);
                CHECK(r.records >= 4, "at least a few records (%llu)",
                      (unsigned long long)r.records);
                CHECK(r.count_types == 1u << ct, "count type %d asked, read 0x%x", ct,
                      r.count_types);
                w16 += r.w16;
                addr64 += r.addr64;
                masks_zero += r.masks_zero;
                seconds += r.headers > 1;
                narrow += r.narrow_counters;
                wide += r.wide_values;
                ts += r.timestamps;
                idle += r.idle;
                other += r.other_messages;
                types |= r.count_types;
                methods |= 1u << st.method;
            }
    CHECK(w16 && addr64 && masks_zero && seconds && narrow && wide && ts && idle && other,
          "features: 16-bit writes %llu, 64-bit addresses %llu, empty masks %llu, second "
          "headers %llu, narrow counters %llu, values over 32 bits %llu, timestamps %llu, idle "
          "bytes %llu, other messages %llu",
          (unsigned long long)w16, (unsigned long long)addr64, (unsigned long long)masks_zero,
          (unsigned long long)seconds, (unsigned long long)narrow, (unsigned long long)wide,
          (unsigned long long)ts, (unsigned long long)idle, (unsigned long long)other);
    CHECK(types == 7 && methods == 7, "count types 0x%x, methods 0x%x", types, methods);
    tc_bb_free(&b);
}

static void test_sizes(void)
{
    tc_bytebuf b = {0};
    char err[300];
    static const uint64_t sizes[] = {10000, 100000, 500000};
    for (int container = 0; container < 2; container++) {
        CHECK(gen(3, 0, -1, container, 0, -1, &b, NULL, err, sizeof err) == 0, "%s", err);
        CHECK(b.len > 0 && b.len < 8000, "size 0 gives a small trace (%zu bytes)", b.len);
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            for (uint64_t seed = 1; seed <= 3; seed++) {
                CHECK(gen(seed, sizes[i], -1, container, 0, -1, &b, NULL, err, sizeof err) == 0,
                      "%s", err);
                CHECK(b.len + sizes[i] / 20 >= sizes[i] && b.len <= sizes[i] + sizes[i] / 20 + 2000,
                      "--size %llu gave %zu bytes", (unsigned long long)sizes[i], b.len);
            }
    }
    tc_bb_free(&b);
}

/* The Nexus encoding of known writes, byte for byte. */
static void test_nexus_bytes(void)
{
    tc_bytebuf mem = {0};
    perf_out o;
    perf_out_init(&o, PERF_RTD, 0, 1, NULL, &mem);
    o.quiet = 1;
    o.ts_every = 0;
    /* IDTAG 0x1b (5 bits: one byte, MSEO 1), DQDATA 2 (one byte, MSEO 3) */
    perf_out_write(&o, 3, 2);
    perf_out_flush(&o);
    static const uint8_t want8[] = {7 << 2, 0x1b << 2 | 1, 2 << 2 | 3};
    CHECK(mem.len == 3 && !memcmp(mem.p, want8, 3), "8-bit write of 2: %zu bytes", mem.len);
    /* DQDATA 0x70657266: 31 bits, six bytes of 6 bits */
    mem.len = 0;
    perf_out_write(&o, 0, PERF_MARKER);
    perf_out_flush(&o);
    CHECK(mem.len == 8, "the marker takes 8 bytes, not %zu", mem.len);
    uint64_t v = 0;
    for (unsigned i = 0; i < 6; i++)
        v |= (uint64_t)(mem.p[2 + i] >> 2) << (6 * i);
    CHECK(v == PERF_MARKER && (mem.p[7] & 3) == 3 && (mem.p[1] & 3) == 1,
          "marker decoded as 0x%llx", (unsigned long long)v);
    /* a zero value still takes one byte */
    mem.len = 0;
    perf_out_write(&o, 0, 0);
    perf_out_flush(&o);
    CHECK(mem.len == 3 && mem.p[2] == 3, "32-bit write of 0: %zu bytes", mem.len);
    perf_out_free(&o);
    /* SRC of 2 bits: IDTAG starts at bit 8, the third bit of byte 1 */
    mem.len = 0;
    perf_out_init(&o, PERF_RTD, 2, 1, NULL, &mem);
    o.quiet = 1;
    o.ts_every = 0;
    perf_out_write(&o, 3, 1);
    perf_out_flush(&o);
    /* 0x1b = 11011b: 4 bits in byte 1 (1011b << 2), 1 bit in byte 2 */
    static const uint8_t want_src[] = {7 << 2, (0xb << 2) << 2 | 0, 1 << 2 | 1, 1 << 2 | 3};
    CHECK(mem.len == 4 && !memcmp(mem.p, want_src, 4), "SRC 2 bits: %zu bytes %02x %02x %02x",
          mem.len, mem.p[1], mem.p[2], mem.len > 3 ? mem.p[3] : 0);
    perf_out_free(&o);
    tc_bb_free(&mem);
}

/* The library's write sequence for a known configuration. */
static void test_write_sequence(void)
{
    perf_config cfg = {0};
    cfg.count_type = PERF_COUNT_DELTA;
    cfg.mask = 0x5; /* cycle and instret */
    cfg.ctr[0] = (perf_counter){.opensbi_type = 0, .code = 1, .csr = 0xc00, .width = 64};
    cfg.ctr[2] =
        (perf_counter){.opensbi_type = 2, .event_data = 0x100000201ull, .csr = 0xc02, .width = 40};
    perf_writer w;
    perf_writer_init(&w, &cfg);
    perf_unit u = {0};
    perf_write_header(&w, &u);
    static const uint64_t want[] = {PERF_MARKER,      1, 5,     0, 1,
                                    0xc00 | 63 << 12, 2, 0x201, 1, 0xc02 | 39 << 12};
    CHECK(u.n == 10, "header of two counters: %u writes", u.n);
    for (unsigned i = 0; i < u.n && i < 10; i++)
        CHECK(u.w[i].value == want[i] && u.w[i].code == (i == 1 ? PERF_W8 : PERF_W32),
              "header write %u: 0x%llx", i, (unsigned long long)u.w[i].value);
    perf_record rec = {.type = PERF_REC_EXIT, .naddr = 2, .addr = {0x3fa0001234ull, 0x10000}};
    rec.value[0] = 0x123456789ull;
    rec.value[2] = 5;
    u.n = 0;
    perf_write_record(&w, &rec, &u);
    /* type, address lo|1, hi, address, cycle lo, hi (delta from 0), instret lo */
    static const uint64_t want_rec[] = {1, 0xa0001235, 0x3f, 0x10000, 0x23456789, 1, 5};
    CHECK(u.n == 7, "record: %u writes", u.n);
    for (unsigned i = 0; i < u.n && i < 7; i++)
        CHECK(u.w[i].value == want_rec[i], "record write %u: 0x%llx", i,
              (unsigned long long)u.w[i].value);
    CHECK(u.w[5].code == PERF_W16, "the cycle value's high part is a 16-bit write");
    rec.value[0] += 10;
    rec.value[2] = 3; /* deltas are taken modulo 2^width */
    u.n = 0;
    perf_write_record(&w, &rec, &u);
    CHECK(u.n == 7 && u.w[4].value == 10, "second delta of cycle: 0x%llx",
          (unsigned long long)u.w[4].value);
    CHECK(u.w[5].value == 0xfffffffe && u.w[6].value == 0xff && u.w[6].code == PERF_W16,
          "delta 3 - 5 in 40 bits: 0x%llx 0x%llx", (unsigned long long)u.w[5].value,
          (unsigned long long)u.w[6].value);
}

/* Every PERF rule has a mutator or is marked as having none; each mutator
 * breaks its rule alone, in each container it exists in, under the readers
 * above. */
static void test_mutators(void)
{
    for (size_t i = 0; i < TC_RULE__COUNT; i++) {
        if (strcmp(tc_rules[i].family, "PERF") != 0)
            continue;
        CHECK(perf_mutator_for((tc_rule_id)i) || (tc_rules[i].flags & TC_RF_NO_MUTATOR),
              "%s has no mutator", tc_rules[i].id);
    }
    tc_bytebuf b = {0};
    char err[300];
    rd r;
    for (size_t k = 0; k < perf_mutator_count(); k++) {
        const perf_mutator *m = perf_mutator_at(k);
        const char *id = tc_rules[m->rule].id;
        int f = finding_of(id);
        CHECK(f >= 0, "%s: not a rule the test reader knows", id);
        if (f < 0)
            continue;
        for (int container = 0; container < 2; container++) {
            if (!(m->containers & (1u << container))) {
                CHECK(gen(1, 5000, -1, container, 0, (int)m->rule, &b, NULL, err, sizeof err) != 0,
                      "%s in container %d: refused", id, container);
                continue;
            }
            for (uint64_t seed = 1; seed <= 8; seed++) {
                uint64_t size = seed % 3 == 0 ? 0 : seed % 3 == 1 ? 6000 : 40000;
                unsigned srcbits = container == PERF_RTD && seed == 5 ? 3 : 0;
                int ct = seed % 4 == 3 ? -1 : (int)(seed % 3);
                if (m->rule == TC_RULE_PERF_RAW_BACKWARDS)
                    ct = PERF_COUNT_RAW;
                int rc = gen(seed, size, ct, container, srcbits, (int)m->rule, &b, NULL, err,
                             sizeof err);
                CHECK(rc == 0, "%s seed %llu: %s", id, (unsigned long long)seed, err);
                if (rc)
                    continue;
                CHECK(b.len <= size + size / 10 + 8000, "%s seed %llu: %zu bytes for --size %llu",
                      id, (unsigned long long)seed, b.len, (unsigned long long)size);
                read_any(&r, &b, container, srcbits);
                uint64_t others = r.found & ~(1ull << f);
                if (m->rule != TC_RULE_PERF_SECOND_HEADER)
                    others &= ~(1ull << F_SECOND_HEADER); /* pedantic, valid */
                if (m->rule == TC_RULE_PERF_BEFORE_HEADER_WRAPPED)
                    others &= ~(1ull << F_MID_START); /* what makes it wrapped: a warning */
                /* A wrong return address leaves the reader's stack off: more
                 * call-stack warnings, the same rule. */
                CHECK((r.found >> f & 1) && !others, "%s seed %llu container %d: read %s", id,
                      (unsigned long long)seed, container, describe(r.found));
            }
        }
    }
    tc_bb_free(&b);
}

static void test_refusals(void)
{
    tc_bytebuf b = {0};
    char err[300];
    CHECK(gen(1, 1000, PERF_COUNT_DELTA, PERF_RTD, 0, TC_RULE_PERF_RAW_BACKWARDS, &b, NULL, err,
              sizeof err) != 0 &&
              strstr(err, "raw"),
          "raw backwards in a delta trace is refused: %s", err);
    CHECK(gen(1, 1000, -1, PERF_RTD, 9, -1, &b, NULL, err, sizeof err) != 0,
          "--srcbits 9 is refused");
    CHECK(perf_default_container(TC_RULE_PERF_TEXT_SYNTAX) == PERF_TEXT &&
              perf_default_container(-1) == PERF_RTD,
          "default containers");
    tc_bb_free(&b);
}

void register_perf_generator_suite(void)
{
    static const tu_test tests[] = {
        {"deterministic", test_deterministic},
        {"nexus bytes", test_nexus_bytes},
        {"write sequence", test_write_sequence},
        {"valid traces", test_valid},
        {"sizes", test_sizes},
        {"mutators", test_mutators},
        {"refusals", test_refusals},
        {NULL, NULL},
    };
    tu_add_suite("perf_generator", tests);
}
