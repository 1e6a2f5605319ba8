#include <string.h>

#include "perf_mutate.h"

/* ---- helpers ---- */

/* An even address in the program, as a stray word would hold. */
static uint64_t some_address(perf_mutation *mu)
{
    return 0x80000000u + 2 * tc_rng_below(mu->rng, 1u << 20);
}

/* The index of the last 32-bit write of a unit, or -1. */
static int last_w32(const perf_unit *u)
{
    for (int i = (int)u->n - 1; i >= 0; i--)
        if (u->w[i].code == PERF_W32)
            return i;
    return -1;
}

/* ---- the plan ---- */

static void plan_narrow(perf_gen_plan *p)
{
    p->model.need_narrow = 1;
}
static void plan_second(perf_gen_plan *p)
{
    p->second_header = 1;
}
static void plan_mixed(perf_gen_plan *p)
{
    p->mixed = 1;
}
static void plan_no_data(perf_gen_plan *p)
{
    p->no_data = 1;
}
static void plan_no_header(perf_gen_plan *p)
{
    p->no_header = 1;
}
static void plan_raw(perf_gen_plan *p)
{
    p->model.count_type = PERF_COUNT_RAW;
    p->model.need_counter = 1;
}
static void plan_calls(perf_gen_plan *p)
{
    p->model.method = PERF_METHOD_CALLS;
}
/* Changes that lose a record or garble an address: not in an entry/exit
 * trace, where the call stack would be off as well. (An unreadable
 * perf-channel message loses the record before it when that record could
 * still take a counter's 16-bit high part.) */
static void plan_manual(perf_gen_plan *p)
{
    p->model.method = PERF_METHOD_MANUAL;
}
static void plan_isr_rv64(perf_gen_plan *p)
{
    p->model.method = PERF_METHOD_ISR;
    p->model.need_rv64 = 1;
}

/* ---- the Nexus container ---- */

static int mid_start(perf_mutation *mu, perf_out *o, int where)
{
    if (where != PERF_AT_START)
        return 0;
    /* The tail of a message cut by the buffer's wrap: the byte that ends
     * an IDTAG, a zero DQDATA byte, the byte that ends the message. None
     * can start a message, so all three are skipped. */
    uint8_t tail[3] = {(uint8_t)(tc_rng_below(mu->rng, 64) << 2 | 1), 0x00,
                       (uint8_t)(tc_rng_below(mu->rng, 63) << 2 | 3)};
    perf_out_raw(o, tail, sizeof tail);
    return 1;
}

static int message_long(perf_mutation *mu, perf_out *o, int where)
{
    if (where != PERF_AT_MIDDLE)
        return 0;
    /* 64 bytes of a message (an instruction-trace TCODE) none of which ends
     * it, then a byte that ends it: read either as dropped at 64 bytes and
     * the end byte skipped, or as one 65-byte message, reading resumes at
     * the next message. */
    uint8_t b[NX_MAX_MESSAGE + 1];
    b[0] = NX_TCODE_DIRECT_BRANCH << 2;
    for (unsigned i = 1; i < NX_MAX_MESSAGE; i++)
        b[i] = (uint8_t)(tc_rng_below(mu->rng, 64) << 2);
    b[NX_MAX_MESSAGE] = 1 << 2 | 3;
    perf_out_raw(o, b, sizeof b);
    return 1;
}

static int nexus_truncated(perf_mutation *mu, perf_out *o, int where)
{
    if (where != PERF_AT_END)
        return 0;
    /* The start of another channel's Data Acquisition message: TCODE,
     * IDTAG, part of DQDATA. */
    nx_msg m;
    nx_begin(&m, NX_TCODE_DATA_ACQ);
    if (o->srcbits)
        nx_fixed(&m, 0, o->srcbits);
    nx_var(&m, 0x10);
    nx_fixed(&m, tc_rng_u64(mu->rng), 12);
    perf_out_raw(o, m.b, (m.bits + 5) / 6);
    return 1;
}

static int da_fields(perf_mutation *mu, perf_out *o, int where)
{
    if (where != PERF_AT_MIDDLE)
        return 0;
    /* Another channel's Data Acquisition message that ends with its IDTAG:
     * no DQDATA. */
    nx_msg m;
    nx_begin(&m, NX_TCODE_DATA_ACQ);
    if (o->srcbits)
        nx_fixed(&m, 0, o->srcbits);
    nx_var(&m, 4 * tc_rng_below(mu->rng, 6));
    unsigned len = nx_end(&m);
    perf_out_raw(o, m.b, len);
    return 1;
}

static int field_width(perf_mutation *mu, perf_out *o, int where)
{
    if (where != PERF_AT_MIDDLE)
        return 0;
    /* Another channel's Data Acquisition message whose DQDATA has a bit set
     * above bit 63 (a 65- to 72-bit field). */
    nx_msg m;
    nx_begin(&m, NX_TCODE_DATA_ACQ);
    if (o->srcbits)
        nx_fixed(&m, 0, o->srcbits);
    nx_var(&m, 0x10);
    nx_var_wide(&m, tc_rng_u64(mu->rng), 1ull << tc_rng_below(mu->rng, 8));
    unsigned len = nx_end(&m);
    perf_out_raw(o, m.b, len);
    return 1;
}

/* ---- the text container ---- */

static int text_syntax(perf_mutation *mu, perf_out *o, int where)
{
    if (where != PERF_AT_MIDDLE)
        return 0;
    /* A line of another channel with one defect: a stray character, a
     * missing or extra field, or a number over 64 bits. */
    static const char *const bad[] = {
        "0x10 0x4g\n", "0x10\n", "0x10 0x5 0x7 0x9\n", "0x10 0x1ffffffffffffffff\n", "0x10 ;0x5\n",
    };
    const char *s = bad[tc_rng_below(mu->rng, sizeof bad / sizeof bad[0])];
    perf_out_raw(o, s, strlen(s));
    return 1;
}

/* ---- ITC writes ---- */

static int itc_width_code(perf_mutation *mu, perf_unit *u, int last)
{
    (void)last;
    perf_unit_insert(u, 0, PERF_W_BAD, PERF_T_EXTRA, tc_rng_below(mu->rng, 256));
    return 1;
}

static int itc_value_width(perf_mutation *mu, perf_unit *u, int last)
{
    (void)last;
    perf_unit_insert(u, 0, PERF_W8, PERF_T_EXTRA, 0x100 + tc_rng_below(mu->rng, 0xff00));
    return 1;
}

/* ---- headers ---- */

static int before_header(perf_mutation *mu, const perf_config *cfg, perf_unit *u)
{
    (void)cfg;
    perf_unit_put(u, PERF_W8, PERF_T_EXTRA, PERF_REC_MANUAL);
    perf_unit_put(u, PERF_W32, PERF_T_EXTRA, some_address(mu));
    return 1;
}

/* A header abandoned at its bad field, straight before the valid one (as
 * if perfTraceOn() were called twice), so no record waits for a header. */
static int header_width(perf_mutation *mu, const perf_config *cfg, perf_unit *u)
{
    if (tc_rng_chance(mu->rng, 1, 2)) {
        /* The marker itself in an 8- or 16-bit write: a header appearing
         * (ruling 16), abandoned at once. */
        perf_unit_put(u, tc_rng_chance(mu->rng, 1, 2) ? PERF_W16 : PERF_W8, PERF_T_EXTRA,
                      PERF_MARKER);
        return 1;
    }
    perf_unit_put(u, PERF_W32, PERF_T_MARKER, PERF_MARKER);
    perf_unit_put(u, PERF_W32, PERF_T_EXTRA, cfg->count_type);
    return 1;
}

/* A header cut after its counter mask by a record's type and first address
 * word (the timer ISR's race, ruling 18); the valid header follows. */
static int header_interleaved(perf_mutation *mu, const perf_config *cfg, perf_unit *u)
{
    perf_unit_put(u, PERF_W32, PERF_T_MARKER, PERF_MARKER);
    perf_unit_put(u, PERF_W8, PERF_T_COUNT_TYPE, cfg->count_type);
    perf_unit_put(u, PERF_W32, PERF_T_MASK, cfg->mask ? cfg->mask : 1);
    perf_unit_put(u, PERF_W8, PERF_T_EXTRA, tc_rng_below(mu->rng, 4));
    perf_unit_put(u, PERF_W32, PERF_T_EXTRA, some_address(mu));
    return 1;
}

static int count_type(perf_mutation *mu, const perf_config *cfg, perf_unit *u)
{
    (void)cfg;
    perf_unit_put(u, PERF_W32, PERF_T_MARKER, PERF_MARKER);
    perf_unit_put(u, PERF_W8, PERF_T_EXTRA, 3 + tc_rng_below(mu->rng, 253));
    return 1;
}

static int opensbi_type(perf_mutation *mu, const perf_config *cfg, perf_unit *u)
{
    perf_unit_put(u, PERF_W32, PERF_T_MARKER, PERF_MARKER);
    perf_unit_put(u, PERF_W8, PERF_T_COUNT_TYPE, cfg->count_type);
    perf_unit_put(u, PERF_W32, PERF_T_MASK, cfg->mask ? cfg->mask : 1);
    perf_unit_put(u, PERF_W32, PERF_T_EXTRA, 3 + tc_rng_below(mu->rng, 61));
    return 1;
}

static int header_truncated(perf_mutation *mu, const perf_config *cfg, perf_unit *u)
{
    (void)mu;
    perf_unit_put(u, PERF_W32, PERF_T_MARKER, PERF_MARKER);
    perf_unit_put(u, PERF_W8, PERF_T_COUNT_TYPE, cfg->count_type);
    return 1;
}

/* ---- records ---- */

static int record_start(perf_mutation *mu, perf_unit *u, int last)
{
    (void)last;
    perf_unit_insert(u, 0, PERF_W32, PERF_T_EXTRA, some_address(mu));
    return 1;
}

static int record_type(perf_mutation *mu, perf_unit *u, int last)
{
    (void)last;
    perf_unit_insert(u, 0, PERF_W8, PERF_T_EXTRA, 4 + tc_rng_below(mu->rng, 252));
    perf_unit_insert(u, 1, PERF_W32, PERF_T_EXTRA, some_address(mu));
    return 1;
}

static int width_16(perf_mutation *mu, perf_unit *u, int last)
{
    (void)last;
    for (int i = (int)u->n - 1; i >= 0; i--)
        if (u->w[i].tag == PERF_T_ADDR_LO || u->w[i].tag == PERF_T_ADDR_HI) {
            perf_unit_insert(u, (unsigned)i + 1, PERF_W16, PERF_T_EXTRA,
                             tc_rng_below(mu->rng, 0x10000));
            return 1;
        }
    return 0;
}

static int record_cut(perf_mutation *mu, perf_unit *u, int last)
{
    (void)mu;
    int i = last_w32(u);
    if (last || i < 0)
        return 0;
    perf_unit_remove(u, (unsigned)i, u->n);
    return 1;
}

static int address_width(perf_mutation *mu, perf_unit *u, int last)
{
    (void)mu;
    (void)last;
    for (unsigned i = 0; i < u->n; i++)
        if (u->w[i].tag == PERF_T_ADDR_HI && u->w[i].value <= 0xffff) {
            u->w[i].code = PERF_W16;
            return 1;
        }
    return 0;
}

static int address_high_zero(perf_mutation *mu, perf_unit *u, int last)
{
    (void)mu;
    (void)last;
    for (unsigned i = 0; i < u->n; i++)
        if (u->w[i].tag == PERF_T_ADDR_LO && !(u->w[i].value & 1)) {
            u->w[i].value |= 1;
            perf_unit_insert(u, i + 1, PERF_W32, PERF_T_ADDR_HI, 0);
            return 1;
        }
    return 0;
}

static int counter_width(perf_mutation *mu, perf_unit *u, int last)
{
    if (!last)
        return 0;
    for (unsigned i = 0; i < u->n; i++) {
        const perf_counter *c = &mu->model->cfg.ctr[u->w[i].ctr];
        if (u->w[i].tag == PERF_T_CNT_LO && c->width < 32) {
            u->w[i].value = 1ull << c->width;
            return 1;
        }
    }
    return 0;
}

static int counter_high_zero(perf_mutation *mu, perf_unit *u, int last)
{
    (void)mu;
    (void)last;
    for (unsigned i = 0; i < u->n; i++)
        if (u->w[i].tag == PERF_T_CNT_LO && (i + 1 == u->n || u->w[i + 1].tag != PERF_T_CNT_HI)) {
            perf_unit_insert(u, i + 1, PERF_W16, PERF_T_CNT_HI, 0);
            return 1;
        }
    return 0;
}

static int record_truncated(perf_mutation *mu, perf_unit *u, int last)
{
    int i = last_w32(u);
    if (!last || i < 0)
        return 0;
    perf_unit_remove(u, (unsigned)i, u->n);
    mu->stop = 1;
    return 1;
}

static int raw_backwards(perf_mutation *mu, const perf_writer *w, perf_record *r, int last)
{
    (void)mu;
    (void)last;
    for (unsigned b = 0; b < PERF_MAX_COUNTERS; b++)
        if (w->cfg->mask >> b & 1 && w->last[b] > 0) {
            r->value[b] = w->last[b] - 1;
            return 1;
        }
    return 0;
}

static int call_stack(perf_mutation *mu, const perf_writer *w, perf_record *r, int last)
{
    (void)w;
    (void)last;
    if (r->type != PERF_REC_EXIT)
        return 0;
    /* The right function, left for a call site its entry did not come
     * from: the call still closes, so the records after it match. */
    r->addr[1] = perf_model_other_site(mu->model, r->addr[1]);
    return 1;
}

/* ---- the table ---- */

#define RTD  PERF_IN_RTD
#define TEXT PERF_IN_TEXT
#define BOTH (PERF_IN_RTD | PERF_IN_TEXT)

static const perf_mutator mutators[] = {
    {TC_RULE_PERF_NEXUS_MID_START, RTD, PERF_AT_START,
     "the file starts with a message's last 3 bytes (IDTAG end, a zero byte, message end), as "
     "a wrapped buffer does",
     NULL, NULL, NULL, NULL, NULL, mid_start},
    {TC_RULE_PERF_NEXUS_MESSAGE_LONG, RTD, PERF_AT_MIDDLE,
     "inserts a 65-byte message between two messages: 64 bytes with MSEO 0, then its end", NULL,
     NULL, NULL, NULL, NULL, message_long},
    {TC_RULE_PERF_NEXUS_TRUNCATED, RTD, PERF_AT_END,
     "the file ends with the first bytes of another channel's Data Acquisition message (no "
     "byte with MSEO 3)",
     NULL, NULL, NULL, NULL, NULL, nexus_truncated},
    {TC_RULE_PERF_NEXUS_DA_FIELDS, RTD, PERF_AT_MIDDLE,
     "inserts another channel's Data Acquisition message that ends after its IDTAG", NULL, NULL,
     NULL, NULL, NULL, da_fields},
    {TC_RULE_PERF_NEXUS_FIELD_WIDTH, RTD, PERF_AT_MIDDLE,
     "inserts another channel's Data Acquisition message whose DQDATA has a bit above bit 63 "
     "set",
     NULL, NULL, NULL, NULL, NULL, field_width},
    {TC_RULE_PERF_TEXT_SYNTAX, TEXT, PERF_AT_MIDDLE,
     "inserts a line of another channel with a stray character, a missing or extra field, "
     "or a number over 64 bits",
     NULL, NULL, NULL, NULL, NULL, text_syntax},
    {TC_RULE_PERF_ITC_WIDTH_CODE, BOTH, PERF_AT_MIDDLE,
     "manual records: inserts a perf-channel message with IDTAG 0x19 (width code 1) before a "
     "record",
     plan_manual, NULL, NULL, itc_width_code, NULL, NULL},
    {TC_RULE_PERF_ITC_VALUE_WIDTH, BOTH, PERF_AT_MIDDLE,
     "manual records: inserts an 8-bit perf-channel write of a value over 0xff before a "
     "record",
     plan_manual, NULL, NULL, itc_value_width, NULL, NULL},
    {TC_RULE_PERF_NO_DATA, BOTH, PERF_AT_START,
     "writes only other traffic (other TCODEs and ITC channels; comments in a text list)",
     plan_no_data, NULL, NULL, NULL, NULL, NULL},
    {TC_RULE_PERF_NO_HEADER, BOTH, PERF_AT_START,
     "leaves the header out: the records alone, as when the channel carries something else",
     plan_no_header, NULL, NULL, NULL, NULL, NULL},
    {TC_RULE_PERF_BEFORE_HEADER, BOTH, PERF_AT_START,
     "a manual record (type and one address) before the first header", NULL, before_header, NULL,
     NULL, NULL, NULL},
    {TC_RULE_PERF_BEFORE_HEADER_WRAPPED, RTD, PERF_AT_START,
     "a wrapped buffer: the file starts with a message's last 3 bytes, then a manual record "
     "before the first header",
     NULL, before_header, NULL, NULL, NULL, mid_start},
    {TC_RULE_PERF_HEADER_WIDTH, BOTH, PERF_AT_START,
     "before the first header, a header abandoned at its count type, written as a 32-bit "
     "write, or a marker written as an 8- or 16-bit write (ruling 16)",
     NULL, header_width, NULL, NULL, NULL, NULL},
    {TC_RULE_PERF_HEADER_INTERLEAVED, BOTH, PERF_AT_START,
     "before the first header, a header cut after its counter mask by a record's type and "
     "address word (ruling 18)",
     NULL, header_interleaved, NULL, NULL, NULL, NULL},
    {TC_RULE_PERF_COUNT_TYPE, BOTH, PERF_AT_START,
     "before the first header, a header abandoned at its count type of 3 to 255", NULL, count_type,
     NULL, NULL, NULL, NULL},
    {TC_RULE_PERF_OPENSBI_TYPE, BOTH, PERF_AT_START,
     "before the first header, a header abandoned at its first counter's OpenSBI type of 3 "
     "to 63",
     NULL, opensbi_type, NULL, NULL, NULL, NULL},
    {TC_RULE_PERF_HEADER_TRUNCATED, BOTH, PERF_AT_END,
     "after the last record, a header's marker and count type, then the end", NULL, NULL, NULL,
     NULL, header_truncated, NULL},
    {TC_RULE_PERF_SECOND_HEADER, BOTH, PERF_AT_MIDDLE,
     "the header again in the middle of the trace, as a second perfTraceOn() writes it",
     plan_second, NULL, NULL, NULL, NULL, NULL},
    {TC_RULE_PERF_RECORD_START, BOTH, PERF_AT_MIDDLE,
     "inserts a 32-bit write of an address before a record", NULL, NULL, NULL, record_start, NULL,
     NULL},
    {TC_RULE_PERF_RECORD_TYPE, BOTH, PERF_AT_MIDDLE,
     "inserts a record of type 4 to 255 with one address word before a record", NULL, NULL, NULL,
     record_type, NULL, NULL},
    {TC_RULE_PERF_WIDTH_16, BOTH, PERF_AT_MIDDLE,
     "inserts a 16-bit write after a record's last address word", NULL, NULL, NULL, width_16, NULL,
     NULL},
    {TC_RULE_PERF_RECORD_CUT, BOTH, PERF_AT_MIDDLE,
     "manual records: drops the last 32-bit word (and its 16-bit high part) of a record in "
     "the middle of the trace",
     plan_manual, NULL, NULL, record_cut, NULL, NULL},
    {TC_RULE_PERF_ADDRESS_WIDTH, BOTH, PERF_AT_MIDDLE,
     "timer ISR records: writes a 64-bit address's high word (at most 0xffff) as a 16-bit "
     "write",
     plan_isr_rv64, NULL, NULL, address_width, NULL, NULL},
    {TC_RULE_PERF_ADDRESS_HIGH_ZERO, BOTH, PERF_AT_MIDDLE,
     "writes a 32-bit address as a low word with bit 0 set and a high word of 0", NULL, NULL, NULL,
     address_high_zero, NULL, NULL},
    {TC_RULE_PERF_COUNTER_WIDTH, BOTH, PERF_AT_END,
     "in the last record, a counter narrower than 32 bits holds 2^width, one above its "
     "maximum",
     plan_narrow, NULL, NULL, counter_width, NULL, NULL},
    {TC_RULE_PERF_COUNTER_HIGH_ZERO, BOTH, PERF_AT_MIDDLE,
     "a counter value under 2^32 followed by a 16-bit high part of 0", plan_narrow, NULL, NULL,
     counter_high_zero, NULL, NULL},
    {TC_RULE_PERF_RECORD_TRUNCATED, BOTH, PERF_AT_END,
     "the trace ends without the last record's last 32-bit word (and its high part)", NULL, NULL,
     NULL, record_truncated, NULL, NULL},
    {TC_RULE_PERF_MIXED_RECORDS, BOTH, PERF_AT_MIDDLE,
     "one record of another kind: a manual record in an entry/exit or ISR trace, an ISR "
     "record in a manual one",
     plan_mixed, NULL, NULL, NULL, NULL, NULL},
    {TC_RULE_PERF_RAW_BACKWARDS, BOTH, PERF_AT_MIDDLE,
     "raw count type: a counter value one below the record before's", plan_raw, NULL, raw_backwards,
     NULL, NULL, NULL},
    {TC_RULE_PERF_CALL_STACK, BOTH, PERF_AT_MIDDLE,
     "entry/exit records: a function exit names a call site other than its entry's", plan_calls,
     NULL, call_stack, NULL, NULL, NULL},
};

const perf_mutator *perf_mutator_for(tc_rule_id rule)
{
    for (size_t i = 0; i < sizeof mutators / sizeof mutators[0]; i++)
        if (mutators[i].rule == rule)
            return &mutators[i];
    return NULL;
}

size_t perf_mutator_count(void)
{
    return sizeof mutators / sizeof mutators[0];
}

const perf_mutator *perf_mutator_at(size_t i)
{
    return i < perf_mutator_count() ? &mutators[i] : NULL;
}
