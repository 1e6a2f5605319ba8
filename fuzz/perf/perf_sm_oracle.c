/* The perf layer read from the spec: see perf_sm_oracle.h. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "perf_sm_oracle.h"

#define MAX_STACK 8192

/* ---- the reading written from the spec ---- */

enum { R_BEFORE, R_WAIT, R_HEADER, R_START, R_RECORD, R_TAIL, R_SKIP };
/* Header fields in order; the counter fields repeat per mask bit. */
enum { F_COUNT, F_MASK, F_SBI, F_CODE, F_EVLO, F_EVHI, F_INFO };

typedef struct reading {
    pf_layer *out;
    unsigned channel;
    uint32_t marker;
    int state;
    int wrapped;
    uint64_t perf_msgs, headers;
    /* before the first header: all, readable, unreadable by kind */
    uint64_t pre_n, before_n, bad_n[2];
    const tc_perf_msg *pre_first, *before_first, *bad_first[2];

    pf_event h;                 /* the header being read */
    int field;
    unsigned hc;             /* its counter being defined */
    const tc_perf_msg *h_marker;
    pf_event cfg;               /* the header in force */

    uint64_t run[32];
    int run_fits[32];

    pf_event r;                 /* the record being read */
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



static void rfind(reading *R, tc_rule_id rule, const tc_perf_msg *at)
{
    pf_keep_finding(R->out, (int)rule, at->offset, at->line, 0);
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

/* PERF-CALL-STACK (ruling 6, spec/perf/perf.md "Function entry and exit
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
    pf_event *e = pf_new_event(R->out);
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
    pf_event *e = pf_new_event(R->out);
    if (e)
        *e = R->h;
    R->state = R_START;
}

static void header_word(reading *R, const tc_perf_msg *m, unsigned w)
{
    unsigned want = R->field == F_COUNT ? TC_PERF_W8 : TC_PERF_W32;
    if (w == TC_PERF_W8 && want == TC_PERF_W32 && m->value <= 3) {
        rfind(R, TC_RULE_PERF_HEADER_INTERLEAVED, m); /* a record's type: ruling 18 */
        R->state = R_WAIT;
        return;
    }
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
    if (w != TC_PERF_W32 && m->value == R->marker && R->state != R_HEADER &&
        R->state != R_RECORD) {
        /* Ruling 16: the marker in another width is a header appearing,
         * abandoned for its marker's width. */
        if (R->state == R_BEFORE)
            before_judged(R);
        if (R->state == R_TAIL) {
            counter_done(R, NULL);
            record_complete(R);
        }
        header_begin(R, m);
        rfind(R, TC_RULE_PERF_HEADER_WIDTH, m);
        R->state = R_WAIT;
        return;
    }
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
        pf_keep_finding(R->out, TC_RULE_PERF_NO_DATA, 0, 0, 1);
}

/* ---- the reading of a sequence of messages ---- */

int perf_sm_oracle_read(pf_layer *ref, const tc_perf_msg *m, size_t n, unsigned channel, uint32_t marker,
             int wrapped)
{
    static reading rd; /* large: not on the stack */
    ref->ne = ref->nf = 0;
    memset(&rd, 0, sizeof rd);
    rd.out = ref;
    rd.channel = channel;
    rd.marker = marker;
    rd.wrapped = wrapped;
    rd.first_kind = -1;
    pf_event *start = pf_new_event(ref);
    start->kind = TC_PERF_EV_START;
    for (size_t k = 0; k < n; k++)
        ref_feed(&rd, &m[k]);
    ref_finish(&rd);
    return rd.deep;
}

/* ---- comparing ---- */

static void describe(char *buf, size_t size, const pf_layer *s, size_t i)
{
    if (i >= s->nf || i >= PF_MAX_KEPT)
        snprintf(buf, size, "(none)");
    else
        snprintf(buf, size, "%s at %" PRIu64 " line %" PRIu32, tc_rules[s->f[i].rule].id,
                 s->f[i].offset, s->f[i].line);
}

static size_t without_calls(const pf_layer *s, pf_finding *out)
{
    size_t n = 0;
    for (size_t i = 0; i < s->nf && i < PF_MAX_KEPT; i++)
        if (s->f[i].rule != TC_RULE_PERF_CALL_STACK)
            out[n++] = s->f[i];
    return n;
}

static pf_finding fa[PF_MAX_KEPT], fb[PF_MAX_KEPT];

static void compare_findings(const pf_layer *got, const pf_layer *ref, int deep)
{
    if (deep) {
        size_t na = without_calls(got, fa), nb = without_calls(ref, fb);
        FUZZ_ASSERT_MSG(na == nb, "%zu and %zu findings (call-stack findings left out)", na, nb);
        for (size_t i = 0; i < na; i++)
            FUZZ_ASSERT_MSG(fa[i].rule == fb[i].rule && fa[i].offset == fb[i].offset,
                            "finding %zu: %s at %" PRIu64 " and %s at %" PRIu64, i,
                            tc_rules[fa[i].rule].id, fa[i].offset, tc_rules[fb[i].rule].id,
                            fb[i].offset);
        return;
    }
    size_t n = got->nf > ref->nf ? got->nf : ref->nf;
    for (size_t i = 0; i < n && i < PF_MAX_KEPT; i++) {
        const pf_finding *a = i < got->nf ? &got->f[i] : NULL, *b = i < ref->nf ? &ref->f[i] : NULL;
        if (a && b && a->rule == b->rule && a->offset == b->offset && a->line == b->line &&
            a->unlocated == b->unlocated)
            continue;
        char x[128], y[128];
        describe(x, sizeof x, got, i);
        describe(y, sizeof y, ref, i);
        FUZZ_FAIL("finding %zu: the state machine says %s, the spec's reading %s (%zu and %zu "
                  "findings)",
                  i, x, y, got->nf, ref->nf);
    }
    FUZZ_ASSERT_MSG(got->nf == ref->nf, "%zu and %zu findings", got->nf, ref->nf);
}

void perf_sm_oracle_compare_events(const pf_layer *got, const pf_layer *ref)
{
    FUZZ_ASSERT_MSG(got->ne == ref->ne, "%zu events from the state machine, %zu from the "
                    "spec's reading", got->ne, ref->ne);
    for (size_t i = 0; i < got->ne && i < PF_MAX_KEPT; i++) {
        const pf_event *a = &got->e[i], *b = &ref->e[i];
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
void perf_sm_oracle_check_locations(const pf_layer *got, const tc_perf_msg *msgs, size_t nmsgs,
                         unsigned channel)
{
    for (size_t i = 0; i < got->nf && i < PF_MAX_KEPT; i++) {
        const pf_finding *f = &got->f[i];
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
void perf_sm_oracle_print(const pf_layer *got, const pf_layer *ref, const tc_perf_msg *msgs, size_t nmsgs)
{
    for (size_t k = 0; k < nmsgs; k++)
        fprintf(stderr, "message %zu at %" PRIu64 ": idtag 0x%" PRIx64 " value 0x%" PRIx64 "\n", k,
                msgs[k].offset, msgs[k].idtag, msgs[k].value);
    char x[128];
    for (size_t i = 0; i < got->nf; i++) {
        describe(x, sizeof x, got, i);
        fprintf(stderr, "state machine: %s\n", x);
    }
    for (size_t i = 0; i < ref->nf; i++) {
        describe(x, sizeof x, ref, i);
        fprintf(stderr, "spec's reading: %s\n", x);
    }
    for (int k = 0; k < 2; k++) {
        const pf_layer *s = k ? ref : got;
        for (size_t i = 0; i < s->ne && i < PF_MAX_KEPT; i++)
            fprintf(stderr, "%s: event %d at %" PRIu64 " (type %u)\n",
                    k ? "spec's reading" : "state machine", s->e[i].kind, s->e[i].offset,
                    s->e[i].type);
    }
}


void perf_sm_oracle_compare(const pf_layer *got, const pf_layer *ref, int deep)
{
    compare_findings(got, ref, deep);
    perf_sm_oracle_compare_events(got, ref);
}
