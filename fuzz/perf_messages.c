/*
 * The perf state machine (parsers/perf/perf_sm.c) on raw ITC message
 * sequences, checked against a reading of spec/perf.md ("ITC writes",
 * "Perf data", rulings 2-11 and 14) written here.
 *
 * Input layout. Byte 0 sets the run:
 *   bits 0-1  the perf channel: 6, 6, 0 or 31
 *   bit 2     the marker: 0x70657266, or 2 (a marker that small values hit)
 *   bit 3     locations as the text list gives them (line numbers) or as
 *             Nexus does (offsets only)
 *   bit 4     the container read a wrapped buffer (PERF-NEXUS-MID-START)
 * Then messages, each a class byte C and the bytes its kind reads (missing
 * bytes read as 0). K = C & 7, T = C & 8 (a timestamp byte follows the
 * value), P = C >> 4:
 *   K 0  32-bit write, value: 4 bytes, little-endian
 *   K 1  32-bit write of the marker
 *   K 2  8-bit write of P (count types 0-2, record types 0-3, bad ones)
 *   K 3  16-bit write of P, or of the next 2 bytes when P is 15
 *   K 4  32-bit write of a likely value, by P, from one byte B:
 *        0-3 P; 4 1 << (B & 31); 5 B (a mask of low bits); 6 B << 24;
 *        7 counter_info ((B & 63) << 12 | CSR); 8 counter_info with a width
 *        from {1, 8, 16, 31, 32, 33, 40, 47, 48, 49, 56, 63, 64, 2, 3, 4};
 *        9 an odd address (a high word follows); 10 an even address;
 *        11 one of 8 function addresses (so calls and returns match);
 *        12 0; 13 0xffffffff; 14 2^(B & 31); 15 2^(B & 31) - 1
 *   K 5  a write with width code 1 on the perf channel, value P
 *   K 6  IDTAG B (another channel, or no stimulus register), value P
 *   K 7  a value too wide for its write: width code {0, 2, 3, 0}[P & 3],
 *        value (B + 1) << width
 * A message's offset is the offset of its class byte, its length the bytes
 * it read; its line is its number when bit 3 of byte 0 is set.
 *
 * The harness's reading is a second state machine written from the spec
 * and the rule catalogue (spec/rules/perf.def says how each error
 * recovers). Where neither says, it takes the reading that reports one
 * defect once: a message that cannot be read (PERF-ITC-*) drops the header
 * or record it falls in (a record with all its words stands: only its last
 * counter's optional high part could follow) and reading resumes at the
 * next 8-bit write or marker; a counter value is judged once it is known to be complete (the
 * next word came, or the record ended); findings are located at the start
 * of what they judge (a record's type message, a header's marker, a
 * counter's or address's low word). Messages before the first header are
 * judged when it comes, each rule once at its first message, in the order
 * of those messages (unreadable ones by their PERF-ITC-* rule, the others
 * by PERF-BEFORE-HEADER or, wrapped, PERF-BEFORE-HEADER-WRAPPED); without
 * any header they give PERF-NO-HEADER alone, at the first of them.
 *
 * Both must give the same events (headers field by field; records: type,
 * addresses, values as written, decoded values, offset, timestamp) and the
 * same findings (rule, offset and line, in order, warnings and notes
 * included). Checked on the state machine alone: START comes first and
 * once, no record before a header, decoded values follow the count type,
 * every finding is located at a perf-channel message of the input (only
 * PERF-NO-DATA is unlocated) and has the catalogue's severity.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../parsers/perf/perf_sm.h"
#include "fuzz_helpers.h"

#define MAX_MSGS 8192
#define MAX_KEPT 4096
#define MAX_STACK 8192

typedef struct finding {
    int rule;
    uint64_t offset;
    uint32_t line;
    int unlocated;
} finding;

/* An event, flattened so that both readings can be compared field by field. */
typedef struct event {
    int kind;
    uint64_t offset, timestamp;
    int has_timestamp;
    /* HEADER, and the header in force of a RECORD */
    uint32_t count_type, mask;
    unsigned n;
    /* HEADER */
    uint32_t sbi[32], code[32], info[32];
    uint64_t evdata[32];
    unsigned width[32], csr[32], index[32];
    /* RECORD */
    unsigned type, naddr;
    uint64_t addr[2], value[32], decoded[32];
} event;

typedef struct seen {
    event e[MAX_KEPT];
    size_t ne;
    finding f[MAX_KEPT];
    size_t nf;
} seen;

static void keep_finding(seen *s, int rule, uint64_t off, uint32_t line, int unlocated)
{
    if (s->nf < MAX_KEPT)
        s->f[s->nf] = (finding){rule, off, line, unlocated};
    s->nf++;
}

static event *new_event(seen *s)
{
    event *e = s->ne < MAX_KEPT ? &s->e[s->ne] : NULL;
    s->ne++;
    if (e)
        memset(e, 0, sizeof *e);
    return e;
}

/* ---- the input as messages ---- */

static tc_perf_msg msgs[MAX_MSGS];
static size_t nmsgs;

static const uint8_t *in_p;
static size_t in_n, in_pos;

static unsigned next_byte(void) { return in_pos < in_n ? in_p[in_pos++] : 0; }

static uint32_t likely32(unsigned p)
{
    static const unsigned widths[16] = {1, 8, 16, 31, 32, 33, 40, 47, 48, 49, 56, 63, 64, 2, 3, 4};
    static const uint16_t csrs[4] = {0, 0xc00, 0xc02, 0xb03};
    if (p < 4)
        return p;
    unsigned b = next_byte();
    switch (p) {
    case 4: return UINT32_C(1) << (b & 31);
    case 5: return b;
    case 6: return (uint32_t)b << 24;
    case 7: return (uint32_t)(b & 63) << 12 | csrs[b >> 6];
    case 8: return (uint32_t)(widths[b & 15] - 1) << 12 | csrs[b >> 6];
    case 9: return UINT32_C(0x80000000) | (uint32_t)b << 12 | 1;
    case 10: return UINT32_C(0x80000000) | (uint32_t)b << 4;
    case 11: return UINT32_C(0x80001000) + (b & 7) * 0x100;
    case 12: return 0;
    case 13: return UINT32_MAX;
    case 14: return UINT32_C(1) << (b & 31);
    default: return (UINT32_C(1) << (b & 31)) - 1;
    }
}

static void decode_input(const uint8_t *data, size_t size, unsigned channel, int text)
{
    in_p = data;
    in_n = size;
    in_pos = 1;
    nmsgs = 0;
    while (in_pos < in_n && nmsgs < MAX_MSGS) {
        size_t start = in_pos;
        unsigned c = next_byte();
        unsigned k = c & 7, p = c >> 4;
        uint64_t base = (uint64_t)channel * 4;
        tc_perf_msg m = {.offset = start};
        switch (k) {
        case 0: {
            uint32_t v = 0;
            for (int i = 0; i < 4; i++)
                v |= (uint32_t)next_byte() << (8 * i);
            m.idtag = base;
            m.value = v;
            break;
        }
        case 1: m.idtag = base; m.value = 0; break; /* the marker: filled in below */
        case 2: m.idtag = base + 3; m.value = p; break;
        case 3:
            m.idtag = base + 2;
            m.value = p == 15 ? next_byte() | (uint64_t)next_byte() << 8 : p;
            break;
        case 4: m.idtag = base; m.value = likely32(p); break;
        case 5: m.idtag = base + 1; m.value = p; break;
        case 6: m.idtag = next_byte(); m.value = p; break;
        default: {
            static const unsigned codes[4] = {0, 2, 3, 0};
            unsigned code = codes[p & 3];
            unsigned bits = code == 0 ? 32 : code == 2 ? 16 : 8;
            m.idtag = base + code;
            m.value = (uint64_t)(next_byte() + 1) << bits;
            break;
        }
        }
        if (k == 1)
            m.value = UINT64_MAX; /* marks "the marker": set by the caller */
        if (c & 8) {
            m.has_timestamp = 1;
            m.timestamp = next_byte();
        }
        m.length = (uint32_t)(in_pos - start);
        m.line = text ? (uint32_t)nmsgs + 1 : 0;
        msgs[nmsgs++] = m;
    }
}

/* ---- the state machine under test ---- */

static seen got, ref_seen;
static int got_have_header;
static uint64_t got_prev_decoded[32];
static int got_prev_valid;

static void on_diag(void *user, const tc_diag *d)
{
    seen *s = user;
    int rule = (int)tc_rule_index(d->rule);
    FUZZ_ASSERT_MSG(d->severity == d->rule->severity, "%s", d->rule->id);
    FUZZ_ASSERT_MSG(strcmp(d->rule->family, "PERF") == 0, "%s", d->rule->id);
    keep_finding(s, rule, d->offset, d->line, d->unlocated);
}

static void copy_header(event *e, const tc_perf_header *h)
{
    e->count_type = h->count_type;
    e->mask = h->mask;
    e->n = h->n_counters;
    for (unsigned i = 0; i < h->n_counters && i < 32; i++) {
        e->sbi[i] = h->counters[i].opensbi_type;
        e->code[i] = h->counters[i].opensbi_type == 2 ? 0 : h->counters[i].code;
        e->evdata[i] = h->counters[i].opensbi_type == 2 ? h->counters[i].event_data : 0;
        e->info[i] = h->counters[i].counter_info;
        e->width[i] = h->counters[i].width;
        e->csr[i] = h->counters[i].csr;
        e->index[i] = h->counters[i].index;
    }
}

static void on_event(void *user, const tc_perf_event *ev)
{
    seen *s = user;
    if (ev->kind == TC_PERF_EV_START) {
        FUZZ_ASSERT_MSG(s->ne == 0, "START after %zu events", s->ne);
        event *e = new_event(s);
        if (e)
            e->kind = ev->kind;
        return;
    }
    FUZZ_ASSERT_MSG(s->ne > 0, "event %d before START", (int)ev->kind);
    FUZZ_ASSERT(ev->header != NULL);
    const tc_perf_header *h = ev->header;
    FUZZ_ASSERT_MSG(h->count_type <= TC_PERF_DELTA_XOR, "count type %" PRIu32, h->count_type);
    FUZZ_ASSERT(h->n_counters == (unsigned)__builtin_popcount(h->mask));
    event *e = new_event(s);
    if (ev->kind == TC_PERF_EV_HEADER) {
        got_have_header = 1;
        got_prev_valid = 0;
        if (e) {
            e->kind = ev->kind;
            e->offset = ev->offset;
            e->timestamp = ev->timestamp;
            e->has_timestamp = ev->has_timestamp;
            copy_header(e, h);
        }
        return;
    }
    FUZZ_ASSERT_MSG(ev->kind == TC_PERF_EV_RECORD, "event kind %d", (int)ev->kind);
    FUZZ_ASSERT_MSG(got_have_header, "a record at offset %" PRIu64 " before any header",
                    ev->offset);
    FUZZ_ASSERT_MSG(ev->type <= TC_PERF_ISR, "record type %u", ev->type);
    FUZZ_ASSERT(ev->n_addresses == (ev->type <= TC_PERF_FUNC_EXIT ? 2u : 1u));
    for (unsigned a = 0; a < ev->n_addresses; a++)
        FUZZ_ASSERT_MSG(!(ev->address[a] & 1), "address 0x%" PRIx64, ev->address[a]);
    /* Decoded values follow the count type from the record before (ruling 7). */
    for (unsigned i = 0; i < h->n_counters; i++) {
        unsigned w = h->counters[i].width;
        uint64_t mask = w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
        uint64_t prev = got_prev_valid ? got_prev_decoded[i] : 0;
        uint64_t want = h->count_type == TC_PERF_RAW ? ev->value[i]
                        : h->count_type == TC_PERF_DELTA ? (prev + ev->value[i]) & mask
                                                         : (prev ^ ev->value[i]) & mask;
        FUZZ_ASSERT_MSG(ev->decoded[i] == want,
                        "record at offset %" PRIu64 ", counter %u (%s, width %u): value 0x%" PRIx64
                        " after 0x%" PRIx64 " decodes to 0x%" PRIx64 ", not 0x%" PRIx64,
                        ev->offset, i, tc_perf_count_type_name(h->count_type), w, ev->value[i],
                        prev, ev->decoded[i], want);
        got_prev_decoded[i] = ev->decoded[i];
    }
    got_prev_valid = 1;
    if (e) {
        e->kind = ev->kind;
        e->offset = ev->offset;
        e->timestamp = ev->timestamp;
        e->has_timestamp = ev->has_timestamp;
        e->count_type = h->count_type;
        e->mask = h->mask;
        e->n = h->n_counters;
        e->type = ev->type;
        e->naddr = ev->n_addresses;
        memcpy(e->addr, ev->address, sizeof e->addr);
        for (unsigned i = 0; i < h->n_counters && i < 32; i++) {
            e->value[i] = ev->value[i];
            e->decoded[i] = ev->decoded[i];
        }
    }
}

/* ---- the reading written from the spec ---- */

enum { R_BEFORE, R_WAIT, R_HEADER, R_START, R_RECORD, R_TAIL, R_SKIP };
/* Header fields in order; the counter fields repeat per mask bit. */
enum { F_COUNT, F_MASK, F_SBI, F_CODE, F_EVLO, F_EVHI, F_INFO };

typedef struct reading {
    seen *out;
    unsigned channel;
    uint32_t marker;
    int state;
    int wrapped;
    uint64_t perf_msgs, headers;
    /* before the first header: all, readable, unreadable by kind */
    uint64_t pre_n, before_n, bad_n[2];
    const tc_perf_msg *pre_first, *before_first, *bad_first[2];

    event h;                 /* the header being read */
    int field;
    unsigned hc;             /* its counter being defined */
    const tc_perf_msg *h_marker;
    event cfg;               /* the header in force */

    uint64_t run[32];
    int run_fits[32];

    event r;                 /* the record being read */
    const tc_perf_msg *r_first;
    unsigned na, nc;
    int hi_due;
    const tc_perf_msg *addr_lo;
    int cpend;
    const tc_perf_msg *ctr_lo;
    int fits[32];
    const tc_perf_msg *prev_marker; /* the record's last message was a 32-bit marker value */

    int first_kind, mixed;
    uint64_t stack[MAX_STACK][2]; /* open calls: function, call site */
    size_t depth;
    int deep; /* the stack outgrew the state machine's: call-stack findings are not compared */
} reading;

static reading rd;


static void rfind(reading *R, tc_rule_id rule, const tc_perf_msg *at)
{
    keep_finding(R->out, (int)rule, at->offset, at->line, 0);
}

static uint64_t wmask(unsigned w) { return w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1; }

static void push(reading *R, uint64_t fn, uint64_t site)
{
    if (R->depth < MAX_STACK) {
        R->stack[R->depth][0] = fn;
        R->stack[R->depth][1] = site;
        R->depth++;
    }
    if (R->depth > TC_PERF_STACK)
        R->deep = 1;
}

/* PERF-CALL-STACK (ruling 6, spec/perf.md "Function entry and exit
 * records", the catalogue's explanation): entries and exits give the
 * function and the call site in its caller; an exit closes the innermost
 * open call, which must be of its function from its call site. With no
 * open call it is accepted; the right function from another site closes
 * the call; another function forgets the open calls. */
static void calls(reading *R)
{
    uint64_t fn = R->r.addr[0], site = R->r.addr[1];
    if (R->r.type == TC_PERF_FUNC_ENTRY) {
        push(R, fn, site);
        return;
    }
    if (R->depth == 0)
        return;
    const uint64_t *top = R->stack[R->depth - 1];
    if (top[0] == fn) {
        if (top[1] != site)
            rfind(R, TC_RULE_PERF_CALL_STACK, R->r_first);
        R->depth--;
        return;
    }
    rfind(R, TC_RULE_PERF_CALL_STACK, R->r_first);
    R->depth = 0;
}

static void record_complete(reading *R)
{
    for (unsigned i = 0; i < R->cfg.n; i++) {
        R->run[i] = R->r.decoded[i];
        R->run_fits[i] = R->fits[i];
    }
    if (R->r.type <= TC_PERF_FUNC_EXIT)
        calls(R);
    event *e = new_event(R->out);
    if (e)
        *e = R->r;
    R->state = R_START;
}

/* A counter's value is complete: its low word, and hi when there is one. */
static void counter_done(reading *R, const tc_perf_msg *hi)
{
    unsigned i = R->nc;
    uint64_t v = R->ctr_lo->value | (hi ? hi->value << 32 : 0);
    uint64_t mask = wmask(R->cfg.width[i]);
    if (hi && hi->value == 0)
        rfind(R, TC_RULE_PERF_COUNTER_HIGH_ZERO, R->ctr_lo);
    int fits = v <= mask;
    if (!fits)
        rfind(R, TC_RULE_PERF_COUNTER_WIDTH, R->ctr_lo);
    uint64_t d;
    if (R->cfg.count_type == TC_PERF_RAW) {
        d = v;
        if (fits && R->run_fits[i] && v < R->run[i])
            rfind(R, TC_RULE_PERF_RAW_BACKWARDS, R->ctr_lo);
    } else if (R->cfg.count_type == TC_PERF_DELTA) {
        d = (R->run[i] + v) & mask;
    } else {
        d = (R->run[i] ^ v) & mask;
    }
    R->r.value[i] = v;
    R->r.decoded[i] = d;
    R->fits[i] = fits;
    R->nc++;
    R->cpend = 0;
}

static void address_done(reading *R, uint64_t a)
{
    R->r.addr[R->na++] = a;
    R->hi_due = 0;
    if (R->na == R->r.naddr && R->cfg.n == 0)
        record_complete(R);
}

static void header_begin(reading *R, const tc_perf_msg *m)
{
    if (++R->headers > 1)
        rfind(R, TC_RULE_PERF_SECOND_HEADER, m);
    memset(&R->h, 0, sizeof R->h);
    R->h.kind = TC_PERF_EV_HEADER;
    R->h.offset = m->offset;
    R->h.timestamp = m->timestamp;
    R->h.has_timestamp = m->has_timestamp;
    R->h_marker = m;
    R->field = F_COUNT;
    R->hc = 0;
    R->state = R_HEADER;
}

static void header_complete(reading *R)
{
    R->cfg = R->h;
    memset(R->run, 0, sizeof R->run);
    memset(R->run_fits, 0, sizeof R->run_fits);
    R->depth = 0;
    event *e = new_event(R->out);
    if (e)
        *e = R->h;
    R->state = R_START;
}

static void header_word(reading *R, const tc_perf_msg *m, unsigned w)
{
    unsigned want = R->field == F_COUNT ? TC_PERF_W8 : TC_PERF_W32;
    if (w != want) {
        rfind(R, TC_RULE_PERF_HEADER_WIDTH, m);
        R->state = R_WAIT;
        return;
    }
    uint32_t v = (uint32_t)m->value;
    unsigned c = R->hc;
    switch (R->field) {
    case F_COUNT:
        if (v > 2) {
            rfind(R, TC_RULE_PERF_COUNT_TYPE, m);
            R->state = R_WAIT;
            return;
        }
        R->h.count_type = v;
        R->field = F_MASK;
        return;
    case F_MASK:
        R->h.mask = v;
        for (unsigned b = 0; b < 32; b++)
            if (v >> b & 1)
                R->h.index[R->h.n++] = b;
        if (R->h.n == 0)
            header_complete(R);
        else
            R->field = F_SBI;
        return;
    case F_SBI:
        if (v > 2) {
            rfind(R, TC_RULE_PERF_OPENSBI_TYPE, m);
            R->state = R_WAIT;
            return;
        }
        R->h.sbi[c] = v;
        R->field = v == 2 ? F_EVLO : F_CODE;
        return;
    case F_CODE: R->h.code[c] = v; R->field = F_INFO; return;
    case F_EVLO: R->h.evdata[c] = v; R->field = F_EVHI; return;
    case F_EVHI: R->h.evdata[c] |= (uint64_t)v << 32; R->field = F_INFO; return;
    default:
        R->h.info[c] = v;
        R->h.csr[c] = v & 0xfff;
        R->h.width[c] = (v >> 12 & 63) + 1;
        if (++R->hc == R->h.n)
            header_complete(R);
        else
            R->field = F_SBI;
        return;
    }
}

static void record_begin(reading *R, const tc_perf_msg *m)
{
    if (m->value > 3) {
        rfind(R, TC_RULE_PERF_RECORD_TYPE, m);
        R->state = R_SKIP;
        return;
    }
    unsigned type = (unsigned)m->value;
    int kind = type <= 1 ? 0 : (int)type - 1;
    if (R->first_kind < 0)
        R->first_kind = kind;
    else if (kind != R->first_kind && !R->mixed) {
        rfind(R, TC_RULE_PERF_MIXED_RECORDS, m);
        R->mixed = 1;
    }
    memset(&R->r, 0, sizeof R->r);
    R->r.kind = TC_PERF_EV_RECORD;
    R->r.offset = m->offset;
    R->r.timestamp = m->timestamp;
    R->r.has_timestamp = m->has_timestamp;
    R->r.count_type = R->cfg.count_type;
    R->r.mask = R->cfg.mask;
    R->r.n = R->cfg.n;
    R->r.type = type;
    R->r.naddr = type <= 1 ? 2 : 1;
    R->r_first = m;
    R->na = R->nc = 0;
    R->hi_due = R->cpend = 0;
    R->prev_marker = NULL;
    R->state = R_RECORD;
}

/* Where a record or a header may start (ruling 9). */
static void at_start(reading *R, const tc_perf_msg *m, unsigned w)
{
    if (w == TC_PERF_W8)
        record_begin(R, m);
    else if (w == TC_PERF_W32 && (uint32_t)m->value == R->marker)
        header_begin(R, m);
    else {
        rfind(R, w == TC_PERF_W32 ? TC_RULE_PERF_RECORD_START : TC_RULE_PERF_WIDTH_16, m);
        R->state = R_SKIP;
    }
}

static void in_record(reading *R, const tc_perf_msg *m, unsigned w)
{
    uint32_t v = (uint32_t)m->value;
    if (R->cpend) {
        if (w == TC_PERF_W16) {
            counter_done(R, m);
            R->prev_marker = NULL; /* the marker-valued word was a value */
            return;
        }
        if (w == TC_PERF_W32)
            counter_done(R, NULL);
    }
    if (w == TC_PERF_W8) {
        /* Words are still due (ruling 10). If the word before was the
         * marker, that was a header, and this its count type. */
        rfind(R, TC_RULE_PERF_RECORD_CUT, R->r_first);
        if (R->prev_marker) {
            header_begin(R, R->prev_marker);
            header_word(R, m, w);
        } else {
            record_begin(R, m);
        }
        return;
    }
    if (w == TC_PERF_W16) {
        R->prev_marker = NULL;
        if (R->hi_due) {
            rfind(R, TC_RULE_PERF_ADDRESS_WIDTH, m);
            address_done(R, m->value << 32 | (R->addr_lo->value & ~UINT64_C(1)));
        } else {
            rfind(R, TC_RULE_PERF_WIDTH_16, m);
        }
        return;
    }
    R->prev_marker = v == R->marker ? m : NULL;
    if (R->hi_due) {
        if (v == 0)
            rfind(R, TC_RULE_PERF_ADDRESS_HIGH_ZERO, R->addr_lo);
        address_done(R, (uint64_t)v << 32 | (R->addr_lo->value & ~UINT64_C(1)));
    } else if (R->na < R->r.naddr) {
        if (v & 1) {
            R->hi_due = 1;
            R->addr_lo = m;
        } else {
            address_done(R, v);
        }
    } else {
        R->cpend = 1;
        R->ctr_lo = m;
        if (R->nc + 1 == R->cfg.n)
            R->state = R_TAIL;
    }
}

/* The first header came: the messages before it are judged, each rule
 * once at its first message, in the order of those messages. */
static void before_judged(reading *R)
{
    const tc_perf_msg *at[3] = {R->bad_first[0], R->bad_first[1], R->before_first};
    const tc_rule_id rule[3] = {TC_RULE_PERF_ITC_WIDTH_CODE, TC_RULE_PERF_ITC_VALUE_WIDTH,
                                R->wrapped ? TC_RULE_PERF_BEFORE_HEADER_WRAPPED
                                           : TC_RULE_PERF_BEFORE_HEADER};
    const uint64_t n[3] = {R->bad_n[0], R->bad_n[1], R->before_n};
    int done[3] = {n[0] == 0, n[1] == 0, n[2] == 0};
    for (;;) {
        int k = -1;
        for (int i = 0; i < 3; i++)
            if (!done[i] && (k < 0 || at[i]->offset < at[k]->offset))
                k = i;
        if (k < 0)
            return;
        done[k] = 1;
        rfind(R, rule[k], at[k]);
    }
}

static void ref_feed(reading *R, const tc_perf_msg *m)
{
    if (m->idtag >= 128 || m->idtag / 4 != R->channel)
        return;
    R->perf_msgs++;
    unsigned w = (unsigned)(m->idtag & 3);
    unsigned bits = w == TC_PERF_W32 ? 32 : w == TC_PERF_W16 ? 16 : 8;
    int bad = w == TC_PERF_W_BAD ? 0 : m->value >> bits ? 1 : -1;
    if (R->state == R_BEFORE) {
        if (bad < 0 && w == TC_PERF_W32 && (uint32_t)m->value == R->marker) {
            before_judged(R);
            header_begin(R, m);
            return;
        }
        if (R->pre_n++ == 0)
            R->pre_first = m;
        if (bad >= 0) {
            if (R->bad_n[bad]++ == 0)
                R->bad_first[bad] = m;
        } else if (R->before_n++ == 0) {
            R->before_first = m;
        }
        return;
    }
    if (bad >= 0) {
        /* Unreadable: what it falls in is lost; a record that has all its
         * words stands (its last counter's high part is optional). */
        if (R->state == R_TAIL) {
            counter_done(R, NULL);
            record_complete(R);
        }
        if (R->state == R_HEADER)
            R->state = R_WAIT;
        else if (R->state == R_START || R->state == R_RECORD)
            R->state = R_SKIP;
        rfind(R, w == TC_PERF_W_BAD ? TC_RULE_PERF_ITC_WIDTH_CODE : TC_RULE_PERF_ITC_VALUE_WIDTH,
              m);
        return;
    }
    int marker = w == TC_PERF_W32 && (uint32_t)m->value == R->marker;
    switch (R->state) {
    case R_WAIT:
        if (marker)
            header_begin(R, m);
        return;
    case R_SKIP:
        if (marker)
            header_begin(R, m);
        else if (w == TC_PERF_W8)
            record_begin(R, m);
        return;
    case R_HEADER: header_word(R, m, w); return;
    case R_START: at_start(R, m, w); return;
    case R_TAIL:
        if (w == TC_PERF_W16) {
            counter_done(R, m);
            record_complete(R);
            return;
        }
        counter_done(R, NULL);
        record_complete(R);
        at_start(R, m, w);
        return;
    default: in_record(R, m, w); return;
    }
}

static void ref_finish(reading *R)
{
    switch (R->state) {
    case R_BEFORE:
        if (R->pre_n) /* no header anywhere: nothing else is judged (ruling 14) */
            rfind(R, TC_RULE_PERF_NO_HEADER, R->pre_first);
        break;
    case R_HEADER: rfind(R, TC_RULE_PERF_HEADER_TRUNCATED, R->h_marker); break;
    case R_RECORD: rfind(R, TC_RULE_PERF_RECORD_TRUNCATED, R->r_first); break;
    case R_TAIL:
        counter_done(R, NULL);
        record_complete(R);
        break;
    default: break;
    }
    if (R->perf_msgs == 0)
        keep_finding(R->out, TC_RULE_PERF_NO_DATA, 0, 0, 1);
}

/* ---- comparing ---- */

static void describe(char *buf, size_t size, const seen *s, size_t i)
{
    if (i >= s->nf || i >= MAX_KEPT)
        snprintf(buf, size, "(none)");
    else
        snprintf(buf, size, "%s at %" PRIu64 " line %" PRIu32, tc_rules[s->f[i].rule].id,
                 s->f[i].offset, s->f[i].line);
}

static size_t without_calls(const seen *s, finding *out)
{
    size_t n = 0;
    for (size_t i = 0; i < s->nf && i < MAX_KEPT; i++)
        if (s->f[i].rule != TC_RULE_PERF_CALL_STACK)
            out[n++] = s->f[i];
    return n;
}

static finding fa[MAX_KEPT], fb[MAX_KEPT];

static void compare_findings(int deep)
{
    if (deep) {
        size_t na = without_calls(&got, fa), nb = without_calls(&ref_seen, fb);
        FUZZ_ASSERT_MSG(na == nb, "%zu and %zu findings (call-stack findings left out)", na, nb);
        for (size_t i = 0; i < na; i++)
            FUZZ_ASSERT_MSG(fa[i].rule == fb[i].rule && fa[i].offset == fb[i].offset,
                            "finding %zu: %s at %" PRIu64 " and %s at %" PRIu64, i,
                            tc_rules[fa[i].rule].id, fa[i].offset, tc_rules[fb[i].rule].id,
                            fb[i].offset);
        return;
    }
    size_t n = got.nf > ref_seen.nf ? got.nf : ref_seen.nf;
    for (size_t i = 0; i < n && i < MAX_KEPT; i++) {
        const finding *a = i < got.nf ? &got.f[i] : NULL, *b = i < ref_seen.nf ? &ref_seen.f[i] : NULL;
        if (a && b && a->rule == b->rule && a->offset == b->offset && a->line == b->line &&
            a->unlocated == b->unlocated)
            continue;
        char x[128], y[128];
        describe(x, sizeof x, &got, i);
        describe(y, sizeof y, &ref_seen, i);
        FUZZ_FAIL("finding %zu: the state machine says %s, the spec's reading %s (%zu and %zu "
                  "findings)",
                  i, x, y, got.nf, ref_seen.nf);
    }
    FUZZ_ASSERT_MSG(got.nf == ref_seen.nf, "%zu and %zu findings", got.nf, ref_seen.nf);
}

static void compare_events(void)
{
    FUZZ_ASSERT_MSG(got.ne == ref_seen.ne, "%zu events from the state machine, %zu from the "
                    "spec's reading", got.ne, ref_seen.ne);
    for (size_t i = 0; i < got.ne && i < MAX_KEPT; i++) {
        const event *a = &got.e[i], *b = &ref_seen.e[i];
        FUZZ_ASSERT_MSG(a->kind == b->kind && a->offset == b->offset, "event %zu: kind %d at %" PRIu64
                        " and kind %d at %" PRIu64, i, a->kind, a->offset, b->kind, b->offset);
        FUZZ_ASSERT_MSG(a->has_timestamp == b->has_timestamp && a->timestamp == b->timestamp,
                        "event %zu at %" PRIu64 ": timestamps", i, a->offset);
        FUZZ_ASSERT_MSG(a->count_type == b->count_type && a->mask == b->mask && a->n == b->n,
                        "event %zu at %" PRIu64 ": count type %u/%u mask 0x%x/0x%x", i,
                        a->offset, a->count_type, b->count_type, a->mask, b->mask);
        if (a->kind == TC_PERF_EV_HEADER) {
            for (unsigned c = 0; c < a->n; c++)
                FUZZ_ASSERT_MSG(a->sbi[c] == b->sbi[c] && a->code[c] == b->code[c] &&
                                    a->evdata[c] == b->evdata[c] && a->info[c] == b->info[c] &&
                                    a->width[c] == b->width[c] && a->csr[c] == b->csr[c] &&
                                    a->index[c] == b->index[c],
                                "header at %" PRIu64 ", counter %u: type %u/%u code 0x%x/0x%x "
                                "event_data 0x%" PRIx64 "/0x%" PRIx64 " info 0x%x/0x%x width "
                                "%u/%u index %u/%u",
                                a->offset, c, a->sbi[c], b->sbi[c], a->code[c], b->code[c],
                                a->evdata[c], b->evdata[c], a->info[c], b->info[c], a->width[c],
                                b->width[c], a->index[c], b->index[c]);
        } else if (a->kind == TC_PERF_EV_RECORD) {
            FUZZ_ASSERT_MSG(a->type == b->type && a->naddr == b->naddr, "record at %" PRIu64
                            ": type %u/%u", a->offset, a->type, b->type);
            for (unsigned k = 0; k < a->naddr; k++)
                FUZZ_ASSERT_MSG(a->addr[k] == b->addr[k], "record at %" PRIu64 ": address %u "
                                "0x%" PRIx64 "/0x%" PRIx64, a->offset, k, a->addr[k], b->addr[k]);
            for (unsigned c = 0; c < a->n; c++)
                FUZZ_ASSERT_MSG(a->value[c] == b->value[c] && a->decoded[c] == b->decoded[c],
                                "record at %" PRIu64 ", counter %u: value 0x%" PRIx64 "/0x%" PRIx64
                                " decoded 0x%" PRIx64 "/0x%" PRIx64,
                                a->offset, c, a->value[c], b->value[c], a->decoded[c],
                                b->decoded[c]);
        }
    }
}

/* Every located finding is at a perf-channel message of the input. */
static void check_locations(unsigned channel)
{
    for (size_t i = 0; i < got.nf && i < MAX_KEPT; i++) {
        const finding *f = &got.f[i];
        if (f->unlocated) {
            FUZZ_ASSERT_MSG(f->rule == TC_RULE_PERF_NO_DATA, "%s is unlocated",
                            tc_rules[f->rule].id);
            continue;
        }
        /* Messages are in offset order: a binary search. */
        size_t lo = 0, hi = nmsgs;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (msgs[mid].offset < f->offset)
                lo = mid + 1;
            else
                hi = mid;
        }
        int found = lo < nmsgs && msgs[lo].offset == f->offset && msgs[lo].line == f->line &&
                    msgs[lo].idtag / 4 == channel && msgs[lo].idtag < 128;
        FUZZ_ASSERT_MSG(found, "%s at %" PRIu64 " line %" PRIu32
                        " is not at a perf-channel message", tc_rules[f->rule].id, f->offset,
                        f->line);
    }
}

/* PERF_MESSAGES_VERBOSE=1: the messages and both readings' findings. */
static void print_run(void)
{
    for (size_t k = 0; k < nmsgs; k++)
        fprintf(stderr, "message %zu at %" PRIu64 ": idtag 0x%" PRIx64 " value 0x%" PRIx64 "\n", k,
                msgs[k].offset, msgs[k].idtag, msgs[k].value);
    char x[128];
    for (size_t i = 0; i < got.nf; i++) {
        describe(x, sizeof x, &got, i);
        fprintf(stderr, "state machine: %s\n", x);
    }
    for (size_t i = 0; i < ref_seen.nf; i++) {
        describe(x, sizeof x, &ref_seen, i);
        fprintf(stderr, "spec's reading: %s\n", x);
    }
    for (int k = 0; k < 2; k++) {
        const seen *s = k ? &ref_seen : &got;
        for (size_t i = 0; i < s->ne && i < MAX_KEPT; i++)
            fprintf(stderr, "%s: event %d at %" PRIu64 " (type %u)\n",
                    k ? "spec's reading" : "state machine", s->e[i].kind, s->e[i].offset,
                    s->e[i].type);
    }
}

static tc_perf_sm sm;

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    static int verbose = -1;
    if (verbose < 0) {
        verbose = getenv("PERF_MESSAGES_VERBOSE") != NULL;
    }
    if (size == 0)
        return 0;
    static const unsigned channels[4] = {TC_PERF_DEFAULT_CHANNEL, TC_PERF_DEFAULT_CHANNEL, 0,
                                         TC_PERF_MAX_CHANNEL};
    unsigned channel = channels[data[0] & 3];
    uint32_t marker = data[0] & 4 ? 2 : TC_PERF_DEFAULT_MARKER;
    decode_input(data, size, channel, (data[0] & 8) != 0);
    for (size_t k = 0; k < nmsgs; k++)
        if (msgs[k].value == UINT64_MAX)
            msgs[k].value = marker;

    got.ne = got.nf = 0; /* new_event clears what it hands out */
    got_have_header = 0;
    got_prev_valid = 0;
    tc_diag_sink d;
    tc_diag_init(&d, "fuzz", UINT32_MAX, 1, on_diag, &got);
    int wrapped = (data[0] & 16) != 0;
    tc_perf_sm_init(&sm, &d, channel, marker, on_event, &got);
    sm.wrapped = wrapped;
    for (size_t k = 0; k < nmsgs; k++)
        tc_perf_sm_feed(&sm, &msgs[k]);
    tc_perf_sm_finish(&sm);

    ref_seen.ne = ref_seen.nf = 0;
    memset(&rd, 0, sizeof rd);
    rd.out = &ref_seen;
    rd.channel = channel;
    rd.marker = marker;
    rd.wrapped = wrapped;
    rd.first_kind = -1;
    event *start = new_event(&ref_seen);
    start->kind = TC_PERF_EV_START;
    for (size_t k = 0; k < nmsgs; k++)
        ref_feed(&rd, &msgs[k]);
    ref_finish(&rd);

    if (verbose)
        print_run();
    check_locations(channel);
    compare_findings(rd.deep);
    compare_events();
    /* The sink counted what it delivered. */
    FUZZ_ASSERT(d.errors + d.warnings + d.notes == got.nf);
    return 0;
}
