/*
 * The perf layer of SiFive perf data (spec/perf/perf.md, "ITC writes", "Perf
 * data", rulings 2-11 and 14): perf-channel messages read as headers and
 * records.
 *
 * Recovery follows one principle: one defect, one error. A message that
 * cannot be read, a bad record type or a stray word drops what it belongs
 * to and skips to the next place a record or header can start (an 8-bit
 * write or the marker); a bad header leaves no configuration, so records
 * wait, unreported, for the next header.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "perf_sm.h"

/* Header fields, in the order they are written. */
enum { H_COUNT_TYPE, H_MASK, H_DEF_TYPE, H_DEF_CODE, H_DEF_EVLO, H_DEF_EVHI, H_DEF_INFO };

const char *tc_perf_count_type_name(uint32_t t)
{
    static const char *const names[] = {"raw", "delta", "delta_xor"};
    return t < 3 ? names[t] : "unknown";
}

const char *tc_perf_record_type_name(unsigned t)
{
    static const char *const names[] = {"entry", "exit", "manual", "isr"};
    return t < 4 ? names[t] : "unknown";
}

/* The record kinds of PERF-MIXED-RECORDS: entry and exit are one method. */
static int record_kind(unsigned type)
{
    return type <= TC_PERF_FUNC_EXIT ? 0 : (int)type - 1;
}

static const char *record_desc(unsigned type)
{
    static const char *const names[] = {"function entry", "function exit", "manual", "timer ISR"};
    return type < 4 ? names[type] : "unknown";
}

static const char *kind_desc(int kind)
{
    static const char *const names[] = {"function entry/exit", "manual", "timer ISR"};
    return names[kind];
}

static const char *width_desc(unsigned code)
{
    static const char *const names[] = {"a 32-bit write", "a write of width code 1",
                                        "a 16-bit write", "an 8-bit write"};
    return names[code & 3];
}

/* "offset 123" for Nexus messages, "line 5" for the text list: how a
 * message is named in findings. */
typedef struct where_text {
    char s[40];
} where_text;

static where_text where(const tc_perf_msg *m)
{
    where_text w;
    if (m->line)
        snprintf(w.s, sizeof w.s, "line %" PRIu32, m->line);
    else
        snprintf(w.s, sizeof w.s, "offset %" PRIu64, m->offset);
    return w;
}

static uint64_t msg_end(const tc_perf_msg *m)
{
    return m->offset + m->length;
}

/* A finding located at message `at` and covering up to byte `end`; the
 * text list's findings also carry the line (column 1: the message is the
 * whole line). report_ex also carries what x holds. */
static void vreport(tc_perf_sm *s, tc_rule_id rule, const tc_perf_msg *at, uint64_t end,
                    const tc_diag_extra *x, const char *fmt, va_list ap)
{
    if (!tc_rule_enabled(s->d, rule))
        return;
    char buf[512];
    vsnprintf(buf, sizeof buf, fmt, ap);
    uint64_t len = end > at->offset ? end - at->offset : at->length;
    if (at->line)
        tc_report_text_ex(s->d, rule, at->offset, len, at->line, 1, NULL, x, "%s", buf);
    else
        tc_report_ex(s->d, rule, at->offset, len, x, "%s", buf);
}

static void report(tc_perf_sm *s, tc_rule_id rule, const tc_perf_msg *at, uint64_t end,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void report(tc_perf_sm *s, tc_rule_id rule, const tc_perf_msg *at, uint64_t end,
                   const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(s, rule, at, end, NULL, fmt, ap);
    va_end(ap);
}

static void report_ex(tc_perf_sm *s, tc_rule_id rule, const tc_perf_msg *at, uint64_t end,
                      const tc_diag_extra *x, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static void report_ex(tc_perf_sm *s, tc_rule_id rule, const tc_perf_msg *at, uint64_t end,
                      const tc_diag_extra *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(s, rule, at, end, x, fmt, ap);
    va_end(ap);
}

static uint64_t width_mask(unsigned width)
{
    return width >= 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
}

static void emit(tc_perf_sm *s, const tc_perf_event *ev)
{
    if (s->on_event)
        s->on_event(s->user, ev);
}

void tc_perf_sm_init(tc_perf_sm *s, tc_diag_sink *d, unsigned channel, uint32_t marker,
                     tc_perf_event_fn on_event, void *user)
{
    memset(s, 0, sizeof *s);
    s->d = d;
    s->on_event = on_event;
    s->user = user;
    s->channel = channel;
    s->marker = marker;
    s->state = TC_PERF_S_BEFORE;
    s->first_kind = -1;
    tc_perf_event ev = {.kind = TC_PERF_EV_START};
    emit(s, &ev);
}

/* ---- the call stack (PERF-CALL-STACK) ---- */

static void stack_push(tc_perf_sm *s, uint64_t fn, uint64_t site)
{
    s->stack[s->depth % TC_PERF_STACK] = (tc_perf_frame){fn, site};
    s->depth++;
    if (s->known < TC_PERF_STACK)
        s->known++;
}

static void stack_pop(tc_perf_sm *s)
{
    if (s->depth)
        s->depth--;
    if (s->known)
        s->known--;
}

static const tc_perf_frame *stack_top(const tc_perf_sm *s)
{
    return &s->stack[(s->depth - 1) % TC_PERF_STACK];
}

/* The writers record what -finstrument-functions passes: the function
 * entered or left, then the call site in its caller, for an entry and its
 * exit alike (spec/perf/perf.md, "Function entry and exit records"). An entry
 * opens a call; an exit closes the innermost one, which must be of the
 * same function from the same call site. */
static void check_call_stack(tc_perf_sm *s)
{
    const tc_perf_event *r = &s->rec;
    uint64_t fn = r->address[0], site = r->address[1];
    if (r->type == TC_PERF_FUNC_ENTRY) {
        stack_push(s, fn, site);
        return;
    }
    if (!s->known) {
        /* No open call is held: the trace began inside this function, or
         * its call is deeper than the frames held. Nothing to compare. */
        stack_pop(s);
        return;
    }
    const tc_perf_frame top = *stack_top(s);
    if (top.fn == fn && top.site == site) {
        stack_pop(s);
        return;
    }
    if (top.fn == fn) {
        /* The right function from another call site: the call is closed. */
        report(s, TC_RULE_PERF_CALL_STACK, &s->rec_first, s->rec_end,
               "the function exit record starting at %s leaves 0x%" PRIx64
               " for call site 0x%" PRIx64 ", but the call it closes (depth %" PRIu64
               ") was entered from call site 0x%" PRIx64,
               where(&s->rec_first).s, fn, site, s->depth, top.site);
        stack_pop(s);
        return;
    }
    /* Another function: records were lost or the writer is not the
     * library's. The open calls are forgotten, so that one defect gives
     * one warning. */
    report(s, TC_RULE_PERF_CALL_STACK, &s->rec_first, s->rec_end,
           "the function exit record starting at %s leaves 0x%" PRIx64 " (call site 0x%" PRIx64
           "), but the innermost open call is of 0x%" PRIx64 ", entered from call site 0x%" PRIx64
           " (depth %" PRIu64 "); the open calls are forgotten",
           where(&s->rec_first).s, fn, site, top.fn, top.site, s->depth);
    s->depth = 0;
    s->known = 0;
}

/* ---- records ---- */

/* Position of counter i in messages: "counter 2 of 3 (mask bit 5)". */
typedef struct counter_text {
    char s[64];
} counter_text;

static counter_text counter_name(const tc_perf_header *h, unsigned i)
{
    counter_text t;
    snprintf(t.s, sizeof t.s, "counter %u of %u (mask bit %u)", i + 1, h->n_counters,
             h->counters[i].index);
    return t;
}

/* What the current record still expects, for PERF-RECORD-CUT and -TRUNCATED. */
static void record_due(const tc_perf_sm *s, char *buf, size_t size)
{
    const tc_perf_event *r = &s->rec;
    if (s->addr_high_due)
        snprintf(buf, size, "the high word of address %u of %u", s->addr_done + 1, r->n_addresses);
    else if (s->addr_done < r->n_addresses)
        snprintf(buf, size, "address %u of %u", s->addr_done + 1, r->n_addresses);
    else /* a pending low word is there: the next counter is missing */
        snprintf(buf, size, "the value of %s",
                 counter_name(&s->cfg, s->ctr_done + (unsigned)s->ctr_pending).s);
}

static void record_clear(tc_perf_sm *s)
{
    s->addr_done = 0;
    s->addr_high_due = 0;
    s->ctr_done = 0;
    s->ctr_pending = 0;
    s->last_word_marker = 0;
    s->pending_complete = 0;
}

/* The findings a complete counter value may have (finish_counter): out of
 * the hot path, in the order they are reported. */
static void counter_findings(tc_perf_sm *s, const tc_perf_msg *hi, uint64_t value, int fits)
    __attribute__((noinline, cold));

static void counter_findings(tc_perf_sm *s, const tc_perf_msg *hi, uint64_t value, int fits)
{
    unsigned i = s->ctr_done;
    const tc_perf_counter *c = &s->cfg.counters[i];
    uint64_t end = hi ? msg_end(hi) : msg_end(&s->ctr_msg);
    uint64_t mask = width_mask(c->width);
    if (hi && hi->value == 0)
        report_ex(s, TC_RULE_PERF_COUNTER_HIGH_ZERO, &s->ctr_msg, end,
                  TC_EXTRA(TC_RELATED(s->rec_first.offset), TC_VALUES(TC_UINT("value", value))),
                  "%s of the %s record starting at %s has a 16-bit high part of 0 at %s: the value "
                  "0x%" PRIx64 " fits in 32 bits, so the writer dropped bits above bit 47",
                  counter_name(&s->cfg, i).s, record_desc(s->rec.type), where(&s->rec_first).s,
                  where(hi).s, value);
    if (!fits)
        report_ex(
            s, TC_RULE_PERF_COUNTER_WIDTH, &s->ctr_msg, end,
            TC_EXTRA(TC_RELATED(s->rec_first.offset),
                     TC_VALUES(TC_UINT("counter", i + 1), TC_UINT("value", value),
                               TC_UINT("width", c->width), TC_UINT("counter_info", c->counter_info),
                               TC_UINT("max", mask))),
            "%s of the %s record starting at %s is 0x%" PRIx64
            ", which does not fit the counter's width of %u bit%s (counter_info 0x%" PRIx32
            ", at most 0x%" PRIx64 ")",
            counter_name(&s->cfg, i).s, record_desc(s->rec.type), where(&s->rec_first).s, value,
            c->width, c->width == 1 ? "" : "s", c->counter_info, mask);
    if (s->cfg.count_type == TC_PERF_RAW && fits && s->run_valid[i] && value < s->run[i])
        report_ex(s, TC_RULE_PERF_RAW_BACKWARDS, &s->ctr_msg, end,
                  TC_EXTRA(TC_RELATED(s->rec_first.offset),
                           TC_VALUES(TC_UINT("counter", i + 1), TC_UINT("value", value),
                                     TC_UINT("previous_value", s->run[i]))),
                  "%s of the %s record starting at %s is 0x%" PRIx64
                  ", lower than its previous value 0x%" PRIx64,
                  counter_name(&s->cfg, i).s, record_desc(s->rec.type), where(&s->rec_first).s,
                  value, s->run[i]);
}

/* A counter value is complete: its low word (s->ctr_msg) and, when hi is
 * set, its 16-bit high part. Checked here; the running values change only
 * when the whole record is complete. */
static inline void finish_counter(tc_perf_sm *s, const tc_perf_msg *hi)
{
    unsigned i = s->ctr_done;
    uint64_t value = s->ctr_msg.value | (hi ? hi->value << 32 : 0);
    uint64_t mask = width_mask(s->cfg.counters[i].width);
    int fits = value <= mask;
    s->ctr_pending = 0;
    if ((hi && hi->value == 0) || !fits ||
        (s->cfg.count_type == TC_PERF_RAW && s->run_valid[i] && value < s->run[i]))
        counter_findings(s, hi, value, fits);
    uint64_t decoded;
    switch (s->cfg.count_type) {
    case TC_PERF_RAW: decoded = value; break;
    case TC_PERF_DELTA: decoded = (s->run[i] + value) & mask; break;
    default: decoded = (s->run[i] ^ value) & mask; break;
    }
    s->rec.value[i] = value;
    s->rec.decoded[i] = decoded;
    s->rec_fits[i] = fits;
    s->ctr_done++;
}

static void complete_record(tc_perf_sm *s)
{
    for (unsigned i = 0; i < s->cfg.n_counters; i++) {
        s->run[i] = s->rec.decoded[i];
        s->run_valid[i] = s->rec_fits[i];
    }
    if (s->rec.type <= TC_PERF_FUNC_EXIT)
        check_call_stack(s);
    s->rec.end = s->rec_end;
    s->rec.line = s->rec_first.line;
    emit(s, &s->rec);
    record_clear(s);
    s->state = TC_PERF_S_RECORD_START;
}

static void begin_record(tc_perf_sm *s, const tc_perf_msg *m)
{
    if (m->value > TC_PERF_ISR) {
        report(s, TC_RULE_PERF_RECORD_TYPE, m, msg_end(m),
               "the record type at %s is %" PRIu64
               "; it must be 0 (function entry), 1 (function exit), 2 (manual) or 3 (timer "
               "ISR); the messages up to the next 8-bit write or header are skipped",
               where(m).s, m->value);
        s->state = TC_PERF_S_SKIP;
        return;
    }
    record_clear(s);
    unsigned type = (unsigned)m->value;
    /* Field by field: value[] and decoded[] (512 bytes) are written for
     * each of the header's counters as the record is read, and nobody
     * reads past those, so they are not cleared for every record. */
    tc_perf_event *r = &s->rec;
    r->kind = TC_PERF_EV_RECORD;
    r->header = &s->cfg;
    r->offset = m->offset;
    r->timestamp = m->timestamp;
    r->has_timestamp = m->has_timestamp;
    r->type = type;
    r->n_addresses = type <= TC_PERF_FUNC_EXIT ? 2 : 1;
    r->address[0] = r->address[1] = 0;
    s->rec_first = *m;
    s->rec_end = msg_end(m);
    s->state = TC_PERF_S_RECORD;
    int kind = record_kind(type);
    if (s->first_kind < 0) {
        s->first_kind = kind;
        s->first_kind_offset = m->offset;
        s->first_kind_line = m->line;
    } else if (kind != s->first_kind && !s->mixed_reported) {
        tc_perf_msg first = {.offset = s->first_kind_offset, .line = s->first_kind_line};
        report_ex(s, TC_RULE_PERF_MIXED_RECORDS, m, msg_end(m), TC_EXTRA(TC_RELATED(first.offset)),
                  "the %s record at %s follows %s records (the first at %s): the trace mixes "
                  "collection methods",
                  record_desc(type), where(m).s, kind_desc(s->first_kind), where(&first).s);
        s->mixed_reported = 1;
    }
}

/* An address is complete (low word in s->addr_msg when it had a high word). */
static void finish_address(tc_perf_sm *s, uint64_t value)
{
    s->rec.address[s->addr_done++] = value;
    s->addr_high_due = 0;
    if (s->addr_done == s->rec.n_addresses && s->cfg.n_counters == 0)
        complete_record(s);
}

/* ---- headers ---- */

static void header_start(tc_perf_sm *s, const tc_perf_msg *m)
{
    s->headers++;
    if (s->headers > 1)
        report(s, TC_RULE_PERF_SECOND_HEADER, m, msg_end(m),
               "header %" PRIu64 " at %s restarts the configuration (count type, counters, "
               "running values, call stack); SiFive's decoder stops decoding here",
               s->headers, where(m).s);
    s->have_cfg = 0;
    memset(&s->hdr, 0, sizeof s->hdr);
    s->hdr.offset = m->offset;
    s->hdr.timestamp = m->timestamp;
    s->hdr.has_timestamp = m->has_timestamp;
    s->hdr_first = *m;
    s->hdr_end = msg_end(m);
    s->hstep = H_COUNT_TYPE;
    s->hcounter = 0;
    s->state = TC_PERF_S_HEADER;
}

static void header_done(tc_perf_sm *s)
{
    s->cfg = s->hdr;
    s->have_cfg = 1;
    memset(s->run, 0, sizeof s->run);
    memset(s->run_valid, 0, sizeof s->run_valid);
    s->depth = 0;
    s->known = 0;
    record_clear(s);
    s->state = TC_PERF_S_RECORD_START;
    tc_perf_event ev = {.kind = TC_PERF_EV_HEADER,
                        .header = &s->cfg,
                        .offset = s->cfg.offset,
                        .timestamp = s->cfg.timestamp,
                        .has_timestamp = s->cfg.has_timestamp};
    emit(s, &ev);
}

/* The header field due, for messages: "the counter_info of counter 2 of 3
 * (mask bit 5)". */
static void header_due(const tc_perf_sm *s, char *buf, size_t size)
{
    counter_text c = counter_name(&s->hdr, s->hcounter);
    switch (s->hstep) {
    case H_COUNT_TYPE: snprintf(buf, size, "the count type"); break;
    case H_MASK: snprintf(buf, size, "the counter mask"); break;
    case H_DEF_TYPE: snprintf(buf, size, "the OpenSBI type of %s", c.s); break;
    case H_DEF_CODE: snprintf(buf, size, "the code of %s", c.s); break;
    case H_DEF_EVLO: snprintf(buf, size, "the event_data low word of %s", c.s); break;
    case H_DEF_EVHI: snprintf(buf, size, "the event_data high word of %s", c.s); break;
    default: snprintf(buf, size, "the counter_info of %s", c.s); break;
    }
}

static void header_abandon(tc_perf_sm *s)
{
    s->have_cfg = 0;
    s->state = TC_PERF_S_WAIT_HEADER;
}

static void header_step(tc_perf_sm *s, const tc_perf_msg *m)
{
    unsigned w = (unsigned)(m->idtag & 3);
    uint32_t v = (uint32_t)m->value;
    s->hdr_end = msg_end(m);
    unsigned want = s->hstep == H_COUNT_TYPE ? TC_PERF_W8 : TC_PERF_W32;
    if (w == TC_PERF_W8 && want == TC_PERF_W32 && m->value <= TC_PERF_ISR) {
        /* Ruling 18: a record's type where a header word is due is a record
         * written while the header was (the timer ISR's race). */
        char due[96];
        header_due(s, due, sizeof due);
        report_ex(s, TC_RULE_PERF_HEADER_INTERLEAVED, m, msg_end(m),
                  TC_EXTRA(TC_RELATED(s->hdr_first.offset),
                           TC_VALUES(TC_UINT("record_type", m->value))),
                  "a %s record starts at %s inside the header starting at %s, where a 32-bit "
                  "write is due (%s): a record was written while the header was; the header is "
                  "abandoned and records wait for the next header",
                  record_desc((unsigned)m->value), where(m).s, where(&s->hdr_first).s, due);
        header_abandon(s);
        return;
    }
    if (w != want) {
        char due[96];
        header_due(s, due, sizeof due);
        report_ex(
            s, TC_RULE_PERF_HEADER_WIDTH, m, msg_end(m),
            TC_EXTRA(TC_RELATED(s->hdr_first.offset),
                     TC_VALUES(TC_UINT("width_code", w), TC_UINT("expected_width_code", want))),
            "%s of the header starting at %s is %s at %s; it must be %s; the header is "
            "abandoned and records wait for the next header",
            due, where(&s->hdr_first).s, width_desc(w), where(m).s, width_desc(want));
        header_abandon(s);
        return;
    }
    tc_perf_header *h = &s->hdr;
    tc_perf_counter *c = &h->counters[s->hcounter];
    switch (s->hstep) {
    case H_COUNT_TYPE:
        if (v > TC_PERF_DELTA_XOR) {
            report(s, TC_RULE_PERF_COUNT_TYPE, m, msg_end(m),
                   "the count type of the header starting at %s is %" PRIu32
                   "; it must be 0 (raw), 1 (delta) or 2 (delta XOR); the header is abandoned "
                   "and records wait for the next header",
                   where(&s->hdr_first).s, v);
            header_abandon(s);
            return;
        }
        h->count_type = v;
        s->hstep = H_MASK;
        return;
    case H_MASK:
        h->mask = v;
        h->n_counters = 0;
        for (unsigned bit = 0; bit < 32; bit++)
            if (v >> bit & 1)
                h->counters[h->n_counters++].index = (uint8_t)bit;
        s->hcounter = 0;
        if (h->n_counters == 0)
            header_done(s);
        else
            s->hstep = H_DEF_TYPE;
        return;
    case H_DEF_TYPE:
        if (v > 2) {
            report(s, TC_RULE_PERF_OPENSBI_TYPE, m, msg_end(m),
                   "the OpenSBI type of %s in the header starting at %s is %" PRIu32
                   "; it must be 0, 1 or 2; the header is abandoned and records wait for the "
                   "next header",
                   counter_name(h, s->hcounter).s, where(&s->hdr_first).s, v);
            header_abandon(s);
            return;
        }
        c->opensbi_type = v;
        s->hstep = v == 2 ? H_DEF_EVLO : H_DEF_CODE;
        return;
    case H_DEF_CODE:
        c->code = v;
        s->hstep = H_DEF_INFO;
        return;
    case H_DEF_EVLO:
        c->event_data = v;
        s->hstep = H_DEF_EVHI;
        return;
    case H_DEF_EVHI:
        c->event_data |= (uint64_t)v << 32;
        s->hstep = H_DEF_INFO;
        return;
    default:
        c->counter_info = v;
        c->csr = (uint16_t)(v & 0xfff);
        c->width = (uint8_t)((v >> 12 & 0x3f) + 1);
        if (++s->hcounter == h->n_counters)
            header_done(s);
        else
            s->hstep = H_DEF_TYPE;
        return;
    }
}

/* ---- before the first header (ruling 14) ---- */

/* The ITC finding of a message that cannot be read: bad is 0 for width
 * code 1, 1 for a value wider than its write. then: what follows for the
 * structure it fell in, or, for a message before the first header
 * (reported when that header comes), where it stands. */
static void report_unreadable(tc_perf_sm *s, int bad, const tc_perf_msg *m, const char *then)
{
    unsigned w = (unsigned)(m->idtag & 3);
    if (bad == 0) {
        report_ex(s, TC_RULE_PERF_ITC_WIDTH_CODE, m, msg_end(m),
                  TC_EXTRA(TC_VALUES(TC_UINT("idtag", m->idtag), TC_UINT("channel", s->channel))),
                  "IDTAG 0x%" PRIx64 " at %s (channel %u) has width code 1, which no store "
                  "produces (0: 32-bit, 2: 16-bit, 3: 8-bit); the message is not read%s",
                  m->idtag, where(m).s, s->channel, then);
        return;
    }
    unsigned bits = w == TC_PERF_W32 ? 32 : w == TC_PERF_W16 ? 16 : 8;
    report_ex(s, TC_RULE_PERF_ITC_VALUE_WIDTH, m, msg_end(m),
              TC_EXTRA(TC_VALUES(TC_UINT("value", m->value), TC_UINT("idtag", m->idtag),
                                 TC_UINT("width_bits", bits))),
              "the value 0x%" PRIx64 " at %s has bits above bit %u but IDTAG 0x%" PRIx64
              " makes it %s; the message is not read%s",
              m->value, where(m).s, bits - 1, m->idtag, width_desc(w), then);
}

/* "3 perf-channel messages from offset 0 to offset 12" */
static void span_text(char *buf, size_t size, uint64_t count, const tc_perf_msg *first,
                      const tc_perf_msg *last)
{
    if (count == 1)
        snprintf(buf, size, "1 perf-channel message at %s", where(first).s);
    else
        snprintf(buf, size, "%" PRIu64 " perf-channel messages from %s to %s", count,
                 where(first).s, where(last).s);
}

static void report_before(tc_perf_sm *s, const tc_perf_msg *header)
{
    char span[120];
    span_text(span, sizeof span, s->before_count, &s->before_first, &s->before_last);
    const char *they = s->before_count == 1 ? "it" : "they";
    if (s->wrapped)
        report_ex(
            s, TC_RULE_PERF_BEFORE_HEADER_WRAPPED, &s->before_first, msg_end(&s->before_last),
            TC_EXTRA(TC_RELATED(header->offset), TC_VALUES(TC_UINT("messages", s->before_count))),
            "%s before the first header (at %s) in a wrapped buffer: the header that "
            "configured %s was overwritten, so %s cannot be read",
            span, where(header).s, s->before_count == 1 ? "it" : "them", they);
    else
        report_ex(
            s, TC_RULE_PERF_BEFORE_HEADER, &s->before_first, msg_end(&s->before_last),
            TC_EXTRA(TC_RELATED(header->offset),
                     TC_VALUES(TC_UINT("messages", s->before_count), TC_UINT("marker", s->marker))),
            "%s before the first header (the 32-bit marker 0x%08" PRIx32 " at %s); %s "
            "cannot be read",
            span, s->marker, where(header).s, they);
}

/* The first header has come (its marker: header): the messages before it
 * were perf data, and are judged now, in the order of their first
 * message. */
static void flush_before(tc_perf_sm *s, const tc_perf_msg *header)
{
    int done[3] = {s->pre_bad_count[0] == 0, s->pre_bad_count[1] == 0, s->before_count == 0};
    for (;;) {
        int next = -1;
        uint64_t at = 0;
        for (int k = 0; k < 3; k++) {
            uint64_t off = k < 2 ? s->pre_bad_first[k].offset : s->before_first.offset;
            if (!done[k] && (next < 0 || off < at)) {
                next = k;
                at = off;
            }
        }
        if (next < 0)
            break;
        done[next] = 1;
        if (next == 2) {
            report_before(s, header);
            continue;
        }
        char then[160];
        uint64_t n = s->pre_bad_count[next];
        if (n > 1)
            snprintf(then, sizeof then, " (the first of %" PRIu64 " such messages before the "
                     "first header, at %s)", n, where(header).s);
        else
            snprintf(then, sizeof then, " (it comes before the first header, at %s)",
                     where(header).s);
        report_unreadable(s, next, &s->pre_bad_first[next], then);
    }
}

/* Which ITC finding a perf-channel message gets: -1 none, 0 width code 1,
 * 1 a value wider than its write. */
static int unreadable_kind(const tc_perf_msg *m)
{
    unsigned w = (unsigned)(m->idtag & 3);
    if (w == TC_PERF_W_BAD)
        return 0;
    unsigned bits = w == TC_PERF_W32 ? 32 : w == TC_PERF_W16 ? 16 : 8;
    return m->value >> bits ? 1 : -1;
}

/* Ruling 16: the marker's value in a write of another width is a header
 * appearing, whose marker has the wrong width (ruling 2). */
static int odd_marker(const tc_perf_sm *s, const tc_perf_msg *m)
{
    return (m->idtag & 3) != TC_PERF_W32 && m->value == s->marker;
}

static void odd_marker_header(tc_perf_sm *s, const tc_perf_msg *m)
{
    header_start(s, m);
    report_ex(s, TC_RULE_PERF_HEADER_WIDTH, m, msg_end(m),
              TC_EXTRA(TC_VALUES(TC_UINT("width_code", m->idtag & 3),
                                 TC_UINT("expected_width_code", TC_PERF_W32))),
              "the marker 0x%08" PRIx32 " at %s is %s; a header starts here, and its marker "
              "must be a 32-bit write; the header is abandoned and records wait for the next "
              "header", s->marker, where(m).s, width_desc((unsigned)(m->idtag & 3)));
    header_abandon(s);
}

/* A perf-channel message while no header has come yet. */
static void before_step(tc_perf_sm *s, const tc_perf_msg *m)
{
    if (odd_marker(s, m)) {
        flush_before(s, m);
        odd_marker_header(s, m);
        return;
    }
    int bad = unreadable_kind(m);
    if (bad < 0 && (m->idtag & 3) == TC_PERF_W32 && (uint32_t)m->value == s->marker) {
        flush_before(s, m);
        header_start(s, m);
        return;
    }
    if (!s->pre_count++)
        s->pre_first = *m;
    s->pre_last = *m;
    if (bad >= 0) {
        if (!s->pre_bad_count[bad]++)
            s->pre_bad_first[bad] = *m;
        return;
    }
    if (!s->before_count++)
        s->before_first = *m;
    s->before_last = *m;
}

/* ---- messages ---- */

/* What a message that cannot be read does to the structure it falls in:
 * reported with the ITC finding, so that the consequence is said once. */
static void unreadable(tc_perf_sm *s, char *buf, size_t size)
{
    buf[0] = '\0';
    switch (s->state) {
    case TC_PERF_S_HEADER:
        snprintf(buf, size,
                 "; the header starting at %s is abandoned and records wait for "
                 "the next header",
                 where(&s->hdr_first).s);
        header_abandon(s);
        break;
    case TC_PERF_S_RECORD_START:
        if (s->pending_complete) {
            /* The record before has all its words: it stands as read (its
             * last counter without a high part), so that one unreadable
             * message costs no record (and no call-stack warning after). */
            finish_counter(s, NULL);
            complete_record(s);
        }
        snprintf(buf, size, "; reading resumes at the next 8-bit write or header");
        s->state = TC_PERF_S_SKIP;
        break;
    case TC_PERF_S_RECORD:
        snprintf(buf, size,
                 "; the %s record starting at %s is dropped and reading resumes "
                 "at the next 8-bit write or header",
                 record_desc(s->rec.type), where(&s->rec_first).s);
        record_clear(s);
        s->state = TC_PERF_S_SKIP;
        break;
    default: break;
    }
}

/* Inside a record: the message m of width w. */
static void record_step(tc_perf_sm *s, const tc_perf_msg *m, unsigned w)
{
    if (s->ctr_pending) {
        if (w == TC_PERF_W16) {
            s->rec_end = msg_end(m);
            /* A value equal to the marker got its high part: it was a value. */
            s->last_word_marker = 0;
            finish_counter(s, m);
            return;
        }
        if (w == TC_PERF_W32)
            finish_counter(s, NULL);
    }
    if (w == TC_PERF_W8) {
        char due[96];
        record_due(s, due, sizeof due);
        if (s->last_word_marker) {
            /* The marker was read as a record word and a count type follows:
             * a header cut the record (rulings 9 and 10). */
            report_ex(s, TC_RULE_PERF_RECORD_CUT, &s->rec_first, msg_end(&s->marker_msg),
                      TC_EXTRA(TC_RELATED(s->marker_msg.offset)),
                      "the %s record starting at %s is cut by a header at %s (its marker "
                      "0x%08" PRIx32 " was taken for a record word, then an 8-bit write came "
                      "while %s was due); the header is read",
                      record_desc(s->rec.type), where(&s->rec_first).s, where(&s->marker_msg).s,
                      s->marker, due);
            tc_perf_msg marker = s->marker_msg;
            record_clear(s);
            header_start(s, &marker);
            header_step(s, m);
            return;
        }
        report_ex(s, TC_RULE_PERF_RECORD_CUT, &s->rec_first, msg_end(m),
                  TC_EXTRA(TC_RELATED(m->offset)),
                  "the %s record starting at %s is cut by an 8-bit write of %" PRIu64
                  " at %s while %s was due; the new record is read",
                  record_desc(s->rec.type), where(&s->rec_first).s, m->value, where(m).s, due);
        record_clear(s);
        begin_record(s, m);
        return;
    }
    s->rec_end = msg_end(m);
    s->last_word_marker = 0;
    if (w == TC_PERF_W16) {
        if (s->addr_high_due) {
            report_ex(s, TC_RULE_PERF_ADDRESS_WIDTH, m, msg_end(m),
                      TC_EXTRA(TC_RELATED(s->rec_first.offset, s->addr_msg.offset),
                               TC_VALUES(TC_UINT("address", s->addr_done + 1),
                                         TC_UINT("low_word", s->addr_low))),
                      "the high word of address %u of the %s record starting at %s is a 16-bit "
                      "write at %s (the low word 0x%08" PRIx32 " at %s has bit 0 set); it must be "
                      "a 32-bit write; it is read as the high word",
                      s->addr_done + 1, record_desc(s->rec.type), where(&s->rec_first).s,
                      where(m).s, s->addr_low, where(&s->addr_msg).s);
            finish_address(s, m->value << 32 | (s->addr_low & ~UINT32_C(1)));
            return;
        }
        char due[96];
        record_due(s, due, sizeof due);
        report(s, TC_RULE_PERF_WIDTH_16, m, msg_end(m),
               "a 16-bit write of 0x%" PRIx64 " at %s in the %s record starting at %s, where "
               "%s is due (a 32-bit write), does not follow a counter's low word; it is skipped",
               m->value, where(m).s, record_desc(s->rec.type), where(&s->rec_first).s, due);
        return;
    }
    uint32_t v = (uint32_t)m->value;
    if (v == s->marker) {
        s->last_word_marker = 1;
        s->marker_msg = *m;
    }
    if (s->addr_high_due) {
        if (v == 0)
            report(s, TC_RULE_PERF_ADDRESS_HIGH_ZERO, &s->addr_msg, msg_end(m),
                   "address %u of the %s record starting at %s has a high word of 0 at %s: "
                   "0x%08" PRIx32 " fits in 32 bits and needs no high word",
                   s->addr_done + 1, record_desc(s->rec.type), where(&s->rec_first).s, where(m).s,
                   s->addr_low & ~UINT32_C(1));
        finish_address(s, (uint64_t)v << 32 | (s->addr_low & ~UINT32_C(1)));
        return;
    }
    if (s->addr_done < s->rec.n_addresses) {
        if (v & 1) {
            s->addr_high_due = 1;
            s->addr_low = v;
            s->addr_msg = *m;
            return;
        }
        finish_address(s, v);
        return;
    }
    /* A counter's low word; a 16-bit high part may follow. */
    s->ctr_pending = 1;
    s->ctr_msg = *m;
    if (s->ctr_done + 1 == s->cfg.n_counters) {
        s->pending_complete = 1;
        s->state = TC_PERF_S_RECORD_START;
    }
}

/* Where a record type or header may come. */
static void record_start_step(tc_perf_sm *s, const tc_perf_msg *m, unsigned w)
{
    if (s->pending_complete) {
        if (w == TC_PERF_W16) {
            s->rec_end = msg_end(m);
            finish_counter(s, m);
            complete_record(s);
            return;
        }
        finish_counter(s, NULL);
        complete_record(s);
    }
    if (w == TC_PERF_W8) {
        begin_record(s, m);
    } else if (w == TC_PERF_W32 && (uint32_t)m->value == s->marker) {
        header_start(s, m);
    } else if (w == TC_PERF_W32) {
        report(s, TC_RULE_PERF_RECORD_START, m, msg_end(m),
               "a 32-bit write of 0x%08" PRIx64 " at %s, where a record type (an 8-bit write) "
               "or the marker 0x%08" PRIx32 " must come; the messages up to the next 8-bit write "
               "or header are skipped",
               m->value, where(m).s, s->marker);
        s->state = TC_PERF_S_SKIP;
    } else {
        report(s, TC_RULE_PERF_WIDTH_16, m, msg_end(m),
               "a 16-bit write of 0x%" PRIx64 " at %s, where a record type (an 8-bit write) "
               "or the marker must come, does not follow a counter's low word; the messages up "
               "to the next 8-bit write or header are skipped",
               m->value, where(m).s);
        s->state = TC_PERF_S_SKIP;
    }
}

/* The hot path: what a record's words do when nothing is amiss, decided
 * by a table from the state and the message's class, so that the common
 * message costs one dispatch. Anything else (the marker's value, a message
 * that cannot be read, a header, a record cut, a word of the wrong width,
 * a high word of 0) is left to the general steps below, untouched: the
 * hot path acts only where they would do the same. */
enum {
    C_W32 = 0,  /* a readable 32-bit write, not the marker */
    C_W16 = 1,  /* a readable 16-bit write, not the marker */
    C_W8 = 2,   /* a readable 8-bit write, not the marker */
    C_OTHER = 3 /* everything else */
};
enum {
    P_GENERAL,    /* the general steps */
    P_TYPE,       /* a record type where one may come */
    P_LAST_HIGH,  /* the high part of a complete record's last counter */
    P_AFTER_LAST, /* a complete record's last counter had no high part: a type follows */
    P_WORD,       /* a record's address or counter word */
    P_HIGH,       /* a counter's high part */
};

/* The class of a message of the perf channel: the width code and whether
 * the value fits it, without a branch on either. */
static unsigned message_class(const tc_perf_sm *s, const tc_perf_msg *m)
{
    static const uint8_t cls[4] = {C_W32, C_OTHER, C_W16, C_W8};
    static const uint64_t limit[4] = {UINT64_C(1) << 32, 0, 1u << 16, 1u << 8};
    unsigned w = (unsigned)(m->idtag & 3);
    unsigned other = (m->value >= limit[w]) | (m->value == s->marker);
    return other ? C_OTHER : cls[w];
}

/* What the hot path does: [state][class], where the state is
 * TC_PERF_S_RECORD_START with (1) or without (0) a complete record waiting
 * for its last high part, or TC_PERF_S_RECORD with (1) or without (0) a
 * counter's low word pending. */
static const uint8_t hot[2][2][4] = {
    /* RECORD_START */
    {{P_GENERAL, P_GENERAL, P_TYPE, P_GENERAL},
     {P_GENERAL, P_LAST_HIGH, P_AFTER_LAST, P_GENERAL}},
    /* RECORD */
    {{P_WORD, P_GENERAL, P_GENERAL, P_GENERAL},
     {P_WORD, P_HIGH, P_GENERAL, P_GENERAL}},
};

/* Returns 0 when the general steps must read m (nothing done yet). */
static inline __attribute__((always_inline)) int feed_hot(tc_perf_sm *s, const tc_perf_msg *m)
{
    unsigned st = s->state;
    if (st != TC_PERF_S_RECORD_START && st != TC_PERF_S_RECORD)
        return 0;
    int in_record = st == TC_PERF_S_RECORD;
    int waiting = in_record ? s->ctr_pending : s->pending_complete;
    switch (hot[in_record][waiting != 0][message_class(s, m)]) {
    case P_TYPE:
        begin_record(s, m);
        return 1;
    case P_LAST_HIGH:
        s->rec_end = msg_end(m);
        finish_counter(s, m);
        complete_record(s);
        return 1;
    case P_AFTER_LAST:
        finish_counter(s, NULL);
        complete_record(s);
        begin_record(s, m);
        return 1;
    case P_HIGH:
        s->rec_end = msg_end(m);
        s->last_word_marker = 0;
        finish_counter(s, m);
        return 1;
    case P_WORD: {
        uint32_t v = (uint32_t)m->value;
        if (s->addr_high_due) {
            if (v == 0)
                return 0; /* PERF-ADDRESS-HIGH-ZERO */
            s->rec_end = msg_end(m);
            s->last_word_marker = 0;
            finish_address(s, (uint64_t)v << 32 | (s->addr_low & ~UINT32_C(1)));
            return 1;
        }
        if (s->ctr_pending)
            finish_counter(s, NULL);
        s->rec_end = msg_end(m);
        s->last_word_marker = 0;
        if (s->addr_done < s->rec.n_addresses) {
            if (v & 1) {
                s->addr_high_due = 1;
                s->addr_low = v;
                s->addr_msg = *m;
                return 1;
            }
            finish_address(s, v);
            return 1;
        }
        s->ctr_pending = 1;
        s->ctr_msg = *m;
        if (s->ctr_done + 1 == s->cfg.n_counters) {
            s->pending_complete = 1;
            s->state = TC_PERF_S_RECORD_START;
        }
        return 1;
    }
    default: return 0;
    }
}

/* A perf-channel message the hot path leaves: every step, out of line so
 * that the hot path keeps its registers. */
static void feed_general(tc_perf_sm *s, const tc_perf_msg *m) __attribute__((noinline));

static inline __attribute__((always_inline)) void feed_one(tc_perf_sm *s, const tc_perf_msg *m)
{
    /* IDTAGs of 128 and above name no stimulus register (spec/perf/perf.md, "ITC writes"). */
    if (m->idtag >= 128 || m->idtag / 4 != s->channel)
        return;
    s->perf_messages++;
    if (!feed_hot(s, m))
        feed_general(s, m);
}

void tc_perf_sm_feed(tc_perf_sm *s, const tc_perf_msg *m)
{
    feed_one(s, m);
}

void tc_perf_sm_feed_many(tc_perf_sm *s, const tc_perf_msg *m, size_t n)
{
    for (size_t i = 0; i < n; i++)
        feed_one(s, &m[i]);
}

static void feed_general(tc_perf_sm *s, const tc_perf_msg *m)
{
    if (s->state == TC_PERF_S_BEFORE) {
        before_step(s, m);
        return;
    }
    if (odd_marker(s, m) && (s->state == TC_PERF_S_WAIT_HEADER || s->state == TC_PERF_S_SKIP ||
                             s->state == TC_PERF_S_RECORD_START)) {
        /* After a counter's low word a 16-bit write is its high part, but
         * the marker does not fit 16 bits: the record before stands as read. */
        if (s->pending_complete) {
            finish_counter(s, NULL);
            complete_record(s);
        }
        odd_marker_header(s, m);
        return;
    }
    int bad = unreadable_kind(m);
    if (bad >= 0) {
        char then[200];
        unreadable(s, then, sizeof then);
        report_unreadable(s, bad, m, then);
        return;
    }
    unsigned w = (unsigned)(m->idtag & 3);
    int is_marker = w == TC_PERF_W32 && (uint32_t)m->value == s->marker;
    switch (s->state) {
    case TC_PERF_S_BEFORE: return; /* above */
    case TC_PERF_S_WAIT_HEADER:
        if (is_marker)
            header_start(s, m);
        return;
    case TC_PERF_S_SKIP:
        if (is_marker)
            header_start(s, m);
        else if (w == TC_PERF_W8)
            begin_record(s, m);
        return;
    case TC_PERF_S_HEADER: header_step(s, m); return;
    case TC_PERF_S_RECORD_START: record_start_step(s, m, w); return;
    case TC_PERF_S_RECORD: record_step(s, m, w); return;
    }
}

void tc_perf_sm_finish(tc_perf_sm *s)
{
    switch (s->state) {
    case TC_PERF_S_BEFORE:
        if (s->pre_count) {
            /* No header anywhere: not perf data as far as can be told, so
             * nothing about these messages is judged (ruling 14). */
            char span[120];
            span_text(span, sizeof span, s->pre_count, &s->pre_first, &s->pre_last);
            report(s, TC_RULE_PERF_NO_HEADER, &s->pre_first, msg_end(&s->pre_last),
                   "%s and no header (the 32-bit marker 0x%08" PRIx32 ") anywhere in the "
                   "trace: channel %u does not carry perf data as far as can be told (another "
                   "use of the ITC channel, or a header lost%s); the messages are not judged",
                   span, s->marker, s->channel,
                   s->wrapped ? " to the wrap of this buffer" : " to a wrapped buffer");
        }
        break;
    case TC_PERF_S_HEADER: {
        char due[96];
        header_due(s, due, sizeof due);
        char defs[64] = "";
        if (s->hstep != H_COUNT_TYPE && s->hstep != H_MASK)
            snprintf(defs, sizeof defs, " (%u of %u counter definitions read)", s->hcounter,
                     s->hdr.n_counters);
        report(s, TC_RULE_PERF_HEADER_TRUNCATED, &s->hdr_first, s->hdr_end,
               "the trace ends inside the header starting at %s: %s is missing%s",
               where(&s->hdr_first).s, due, defs);
        break;
    }
    case TC_PERF_S_RECORD_START:
        if (s->pending_complete) {
            finish_counter(s, NULL);
            complete_record(s);
        }
        break;
    case TC_PERF_S_RECORD: {
        char due[96];
        record_due(s, due, sizeof due);
        report(s, TC_RULE_PERF_RECORD_TRUNCATED, &s->rec_first, s->rec_end,
               "the trace ends inside the %s record starting at %s: %s is missing; the record "
               "is dropped",
               record_desc(s->rec.type), where(&s->rec_first).s, due);
        record_clear(s);
        break;
    }
    default: break;
    }
    if (!s->perf_messages)
        tc_report_about(s->d, TC_RULE_PERF_NO_DATA,
                        "no message of perf channel %u (IDTAG 0x%x, 0x%x or 0x%x) in the trace",
                        s->channel, s->channel * 4, s->channel * 4 + 2, s->channel * 4 + 3);
}

/* ---- what a message is read as (tracecheck show) ---- */

void tc_perf_sm_due(const tc_perf_sm *s, const tc_perf_msg *m, char *buf, size_t size)
{
    unsigned w = (unsigned)(m->idtag & 3);
    if ((m->idtag >> 2) != s->channel) {
        snprintf(buf, size, "a write to channel %llu: not the perf channel (%u)",
                 (unsigned long long)(m->idtag >> 2), s->channel);
        return;
    }
    int marker = w == TC_PERF_W32 && (uint32_t)m->value == s->marker;
    switch (s->state) {
    case TC_PERF_S_HEADER: {
        char due[96];
        header_due(s, due, sizeof due);
        snprintf(buf, size, "due: %s of the header at %s", due, where(&s->hdr_first).s);
        return;
    }
    case TC_PERF_S_RECORD: {
        const char *rec = record_desc(s->rec.type);
        if (s->addr_done < s->rec.n_addresses)
            snprintf(buf, size, "due: the %s word of address %u of the %s record",
                     s->addr_high_due ? "high" : "low", s->addr_done + 1, rec);
        else if (s->ctr_pending)
            snprintf(buf, size, "due: the 16-bit high part of %s, or the value of the next",
                     counter_name(&s->cfg, s->ctr_done).s);
        else
            snprintf(buf, size, "due: the value of %s of the %s record",
                     counter_name(&s->cfg, s->ctr_done).s, rec);
        return;
    }
    case TC_PERF_S_RECORD_START:
        if (marker)
            snprintf(buf, size, "the header marker 0x%08x: a header starts", s->marker);
        else if (w == TC_PERF_W8)
            snprintf(buf, size, "a record type: %llu (%s)", (unsigned long long)m->value,
                     record_desc((unsigned)m->value));
        else if (s->pending_complete && w == TC_PERF_W16)
            snprintf(buf, size, "the 16-bit high part of the last counter value");
        else
            snprintf(buf, size, "due: a record type (8-bit) or the header marker");
        return;
    case TC_PERF_S_BEFORE:
    case TC_PERF_S_WAIT_HEADER:
    case TC_PERF_S_SKIP:
    default:
        if (marker)
            snprintf(buf, size, "the header marker 0x%08x: a header starts", s->marker);
        else
            snprintf(buf, size, "%s", s->state == TC_PERF_S_BEFORE ? "before the first header"
                                      : s->state == TC_PERF_S_SKIP
                                          ? "skipped: up to the next record type or marker"
                                          : "waiting for the next header");
        return;
    }
}
