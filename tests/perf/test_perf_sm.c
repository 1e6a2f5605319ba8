/*
 * The perf layer of SiFive perf data (parsers/perf/perf_sm.c), fed ITC
 * messages directly: valid sequences and their decoded values, and each
 * PERF rule of that layer with its location and values (spec/perf/perf.md).
 */
#include <string.h>

#include "perf_tb.h"
#include "../suites.h"
#include "../tu.h"

#define EXPECT_IDS(r, ids)                                                                         \
    CHECK(strcmp(tb_ids(r), (ids)) == 0, "findings: expected [%s], got [%s]%s%s", (ids),           \
          tb_ids(r), (r)->nf ? "; first: " : "", (r)->nf ? (r)->f[0].message : "")

/* The finding of rule id is at offset off and its message holds needle. */
static void expect_at(const tb_run *r, const char *id, uint64_t off, const char *needle,
                      const char *file, unsigned line)
{
    const tb_finding *f = tb_find(r, id);
    tu_assert(f != NULL, file, line, "no %s among [%s]", id, tb_ids(r));
    if (!f)
        return;
    tu_assert(f->offset == off, file, line, "%s at offset %llu, expected %llu: %s", id,
              (unsigned long long)f->offset, (unsigned long long)off, f->message);
    tu_assert(!needle || strstr(f->message, needle) != NULL, file, line,
              "%s message lacks \"%s\": %s", id, needle ? needle : "", f->message);
}
#define EXPECT_AT(r, id, off, needle) expect_at((r), (id), (off), (needle), __FILE__, __LINE__)

/* ---- valid sequences ---- */

static void test_raw_manual(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0x6, 64); /* counters 1 and 2 */
    uint64_t v1[] = {100, 5000}, v2[] = {250, 9000};
    uint64_t r1 = tb_record(&b, TC_PERF_MANUAL, 0x80001000, 0, v1, 2);
    tb_record(&b, TC_PERF_MANUAL, 0x80001010, 0, v2, 2);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "");
    CHECK(r.nhdr == 1 && r.hdr[0].n_counters == 2 && r.hdr[0].mask == 6, "one header, 2 counters");
    CHECK(r.hdr[0].counters[0].index == 1 && r.hdr[0].counters[1].index == 2, "mask bits 1, 2");
    CHECK(r.hdr[0].counters[1].csr == 0xc02 && r.hdr[0].counters[1].width == 64,
          "csr 0x%x width %u", r.hdr[0].counters[1].csr, r.hdr[0].counters[1].width);
    CHECK(r.nrec == 2, "2 records, got %zu", r.nrec);
    CHECK(r.rec[0].offset == r1 && r.rec[0].type == TC_PERF_MANUAL && r.rec[0].n_addresses == 1,
          "first record");
    CHECK(r.rec[0].address[0] == 0x80001000, "address 0x%llx",
          (unsigned long long)r.rec[0].address[0]);
    CHECK(r.rec[1].decoded[0] == 250 && r.rec[1].decoded[1] == 9000, "raw decoded = written");
    tb_run_free(&r);
    tb_free(&b);
}

static void test_delta_decoding(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_DELTA, 0x1, 8); /* one 8-bit counter */
    uint64_t a[] = {200}, c[] = {100}, d[] = {0};
    tb_record(&b, TC_PERF_ISR, 0x1000, 0, a, 1);
    tb_record(&b, TC_PERF_ISR, 0x1004, 0, c, 1);
    tb_record(&b, TC_PERF_ISR, 0x1008, 0, d, 1);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "");
    CHECK(r.nrec == 3, "3 records");
    /* running sum modulo 2^8: 200, 300 - 256 = 44, 44 */
    CHECK(r.rec[0].decoded[0] == 200 && r.rec[1].decoded[0] == 44 && r.rec[2].decoded[0] == 44,
          "decoded %llu %llu %llu", (unsigned long long)r.rec[0].decoded[0],
          (unsigned long long)r.rec[1].decoded[0], (unsigned long long)r.rec[2].decoded[0]);
    CHECK(r.rec[1].value[0] == 100, "value as written");
    tb_run_free(&r);
    tb_free(&b);
}

static void test_xor_decoding(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_DELTA_XOR, 0x3, 40);
    uint64_t a[] = {0x0f, 0x123456789aull}, c[] = {0xff, 0x1};
    tb_record(&b, TC_PERF_MANUAL, 0x2000, 0, a, 2);
    tb_record(&b, TC_PERF_MANUAL, 0x2000, 0, c, 2);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "");
    CHECK(r.nrec == 2, "2 records");
    CHECK(r.rec[1].decoded[0] == 0xf0 && r.rec[1].decoded[1] == 0x123456789bull,
          "running XOR: 0x%llx 0x%llx", (unsigned long long)r.rec[1].decoded[0],
          (unsigned long long)r.rec[1].decoded[1]);
    tb_run_free(&r);
    tb_free(&b);
}

static void test_addresses_32_and_64(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0, 64);
    tb_record(&b, TC_PERF_MANUAL, 0x3fffff00ull, 0, NULL, 0);
    tb_record(&b, TC_PERF_MANUAL, 0x7fff12345678ull, 0, NULL, 0);
    tb_record(&b, TC_PERF_MANUAL, 0xffffffff00000000ull, 0, NULL, 0);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "");
    CHECK(r.nrec == 3, "3 records");
    CHECK(r.rec[0].address[0] == 0x3fffff00ull, "32-bit address");
    CHECK(r.rec[1].address[0] == 0x7fff12345678ull, "64-bit address, bit 0 cleared: 0x%llx",
          (unsigned long long)r.rec[1].address[0]);
    CHECK(r.rec[2].address[0] == 0xffffffff00000000ull, "high address");
    tb_run_free(&r);
    tb_free(&b);
}

static void test_counter_high_parts(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0x5, 48);
    uint64_t a[] = {0x123456789abcull, 0x100000000ull},
             c[] = {0x123456789abdull, 0xffffffffffffull};
    tb_record(&b, TC_PERF_MANUAL, 0x1000, 0, a, 2);
    tb_record(&b, TC_PERF_MANUAL, 0x1000, 0, c, 2); /* the trace ends after a high part */
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "");
    CHECK(r.nrec == 2, "2 records, got %zu", r.nrec);
    CHECK(r.rec[0].value[0] == 0x123456789abcull && r.rec[0].value[1] == 0x100000000ull,
          "values over 32 bits");
    CHECK(r.rec[1].value[1] == 0xffffffffffffull, "the last counter's high part at the end");
    tb_run_free(&r);
    tb_free(&b);
}

static void test_event_data_and_mask0(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_counter defs[] = {{2, 0x1122334455667788ull, TB_INFO(64, 0xc03)},
                         {1, 0x10019, TB_INFO(40, 0xc1f)}};
    tb_header(&b, TC_PERF_RAW, 0x80000008u, defs);
    uint64_t v[] = {1, 2};
    tb_record(&b, TC_PERF_ISR, 0x1000, 0, v, 2);
    tb_header_w(&b, TC_PERF_RAW, 0, 64); /* mask 0: records of addresses only */
    tb_record(&b, TC_PERF_ISR, 0x2000, 0, NULL, 0);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "");
    CHECK(r.nhdr == 2, "2 headers");
    CHECK(r.hdr[0].counters[0].opensbi_type == 2 &&
              r.hdr[0].counters[0].event_data == 0x1122334455667788ull,
          "event_data");
    CHECK(r.hdr[0].counters[1].index == 31 && r.hdr[0].counters[1].code == 0x10019 &&
              r.hdr[0].counters[1].width == 40 && r.hdr[0].counters[1].csr == 0xc1f,
          "second counter");
    CHECK(r.nrec == 2 && r.hdr[1].n_counters == 0 && r.rec[1].address[0] == 0x2000,
          "mask 0 record");
    tb_run_free(&r);
    tb_free(&b);
}

static void test_two_headers_restart(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_DELTA, 0x2, 32);
    uint64_t a[] = {10};
    tb_record(&b, TC_PERF_MANUAL, 0x1000, 0, a, 1);
    uint64_t second = tb_header_w(&b, TC_PERF_DELTA, 0x2, 32);
    uint64_t c[] = {3};
    tb_record(&b, TC_PERF_MANUAL, 0x1000, 0, c, 1);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, ""); /* the note is pedantic */
    CHECK(r.nrec == 2 && r.rec[1].decoded[0] == 3, "running values restart: %llu",
          (unsigned long long)r.rec[1].decoded[0]);
    tb_run_free(&r);
    tb_opts o = {.pedantic = 1};
    tb_run_msgs(&b, &o, &r);
    EXPECT_IDS(&r, "PERF-SECOND-HEADER");
    EXPECT_AT(&r, "PERF-SECOND-HEADER", second, "header 2");
    CHECK(r.notes == 1 && r.errors == 0, "a note");
    tb_run_free(&r);
    tb_free(&b);
}

static void test_entry_exit_calls(void)
{
    /* As the writers record them: the function entered or left, then the
     * call site in its caller; an exit repeats its entry's addresses. */
    tb_msgs b;
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0x1, 64);
    uint64_t v[] = {1};
    tb_record(&b, TC_PERF_FUNC_EXIT, 0x500, 0x52, v, 1);   /* the trace began inside 0x500 */
    tb_record(&b, TC_PERF_FUNC_ENTRY, 0x200, 0x110, v, 1); /* main calls f at 0x10c */
    tb_record(&b, TC_PERF_FUNC_ENTRY, 0x300, 0x21a, v, 1); /* f calls g */
    tb_record(&b, TC_PERF_FUNC_EXIT, 0x300, 0x21a, v, 1);  /* g returns into f */
    tb_record(&b, TC_PERF_FUNC_ENTRY, 0x300, 0x240, v, 1); /* f calls g again, elsewhere */
    tb_record(&b, TC_PERF_FUNC_ENTRY, 0x300, 0x304, v, 1); /* g calls itself */
    tb_record(&b, TC_PERF_FUNC_EXIT, 0x300, 0x304, v, 1);
    tb_record(&b, TC_PERF_FUNC_EXIT, 0x300, 0x240, v, 1);
    tb_record(&b, TC_PERF_FUNC_EXIT, 0x200, 0x110, v, 1);  /* f returns into main */
    tb_record(&b, TC_PERF_FUNC_EXIT, 0x100, 0x50, v, 1);   /* main returns: never entered */
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "");
    CHECK(r.nrec == 10 && r.rec[1].n_addresses == 2 && r.rec[1].address[1] == 0x110,
          "entry records carry two addresses");
    tb_run_free(&r);
    tb_free(&b);
}

static void test_deep_call_stack_bounded(void)
{
    /* 5000 nested calls and their returns: deeper than the frames held,
     * yet no warning and no memory beyond the machine's own. */
    enum { DEPTH = 5000 };
    tb_msgs b;
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0, 64);
    for (uint64_t i = 0; i < DEPTH; i++)
        tb_record(&b, TC_PERF_FUNC_ENTRY, 0x100000 + 0x100 * i, 0x100000 + 0x100 * i - 0xf0, NULL,
                  0);
    for (uint64_t i = DEPTH; i > 0; i--)
        tb_record(&b, TC_PERF_FUNC_EXIT, 0x100000 + 0x100 * (i - 1),
                  0x100000 + 0x100 * (i - 1) - 0xf0, NULL, 0);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "");
    tb_run_free(&r);
    tb_free(&b);
    /* The frames held are still checked: a wrong call site near the top. */
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0, 64);
    tb_record(&b, TC_PERF_FUNC_ENTRY, 0x100, 0x80, NULL, 0);
    for (uint64_t i = 0; i < DEPTH; i++)
        tb_record(&b, TC_PERF_FUNC_ENTRY, 0x100000 + 0x100 * i, 0x100000 + 0x100 * i - 0xf0, NULL,
                  0);
    uint64_t at = tb_record(&b, TC_PERF_FUNC_EXIT, 0x100000 + 0x100 * (DEPTH - 1), 0x42, NULL, 0);
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-CALL-STACK");
    EXPECT_AT(&r, "PERF-CALL-STACK", at, "depth 5001");
    tb_run_free(&r);
    tb_free(&b);
}

static void test_other_channels_skipped(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_msg(&b, 5 * 4, 0xdeadbeef); /* channel 5 */
    tb_msg(&b, 0x80, 0x1);         /* no stimulus register */
    tb_msg(&b, 0x1d, 0x12345);     /* channel 7, width code 1: not judged */
    tb_header_w(&b, TC_PERF_RAW, 0x1, 64);
    tb_msg(&b, 0x1b + 0x100, 0xff); /* beyond 127 */
    uint64_t v[] = {1};
    tb_record(&b, TC_PERF_MANUAL, 0x1000, 0, v, 1);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "");
    CHECK(r.nrec == 1, "the record is read");
    tb_run_free(&r);
    tb_free(&b);
}

static void test_channel_and_marker_options(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    b.channel = 3;
    tb_w32(&b, 0x12345678); /* the marker chosen below */
    tb_w8(&b, TC_PERF_RAW);
    tb_w32(&b, 0);
    tb_record(&b, TC_PERF_MANUAL, 0x1000, 0, NULL, 0);
    tb_run r;
    tb_opts o = {.channel = 3, .marker = 0x12345678};
    tb_run_msgs(&b, &o, &r);
    EXPECT_IDS(&r, "");
    CHECK(r.nrec == 1 && r.nhdr == 1, "header and record on channel 3");
    tb_run_free(&r);
    tb_run_msgs(&b, NULL, &r); /* channel 6: nothing */
    EXPECT_IDS(&r, "PERF-NO-DATA");
    tb_run_free(&r);
    tb_free(&b);
}

static void test_marker_value_inside_record(void)
{
    /* Ruling 9: the marker where a counter value is due is that value. */
    tb_msgs b;
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0x3, 64);
    uint64_t v[] = {TC_PERF_DEFAULT_MARKER, TC_PERF_DEFAULT_MARKER};
    tb_record(&b, TC_PERF_MANUAL, 0x1000, 0, v, 2);
    tb_record(&b, TC_PERF_MANUAL, 0x1000, 0, v, 2);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "");
    CHECK(r.nrec == 2 && r.nhdr == 1 && r.rec[1].value[1] == TC_PERF_DEFAULT_MARKER,
          "values equal to the marker");
    tb_run_free(&r);
    tb_free(&b);
}

/* ---- ITC writes and the trace as a whole ---- */

static void test_no_data(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_msg(&b, 0x10, 1);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-NO-DATA");
    const tb_finding *f = tb_find(&r, "PERF-NO-DATA");
    CHECK(f && f->severity == TC_WARNING && f->unlocated, "an unlocated warning");
    CHECK(f && strstr(f->message, "channel 6 (IDTAG 0x18, 0x1a or 0x1b)"), "message: %s",
          f ? f->message : "");
    tb_run_free(&r);
    tb_free(&b);
    tb_init(&b, 0); /* empty */
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-NO-DATA");
    tb_run_free(&r);
}

static void test_width_code_1(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0x1, 64);
    uint64_t v[] = {7};
    tb_w8(&b, TC_PERF_MANUAL);
    uint64_t at = tb_msg(&b, 0x19, 0x1000); /* the address, width code 1 */
    tb_w32(&b, 7);
    uint64_t next = tb_record(&b, TC_PERF_MANUAL, 0x1004, 0, v, 1);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-ITC-WIDTH-CODE");
    EXPECT_AT(&r, "PERF-ITC-WIDTH-CODE", at, "IDTAG 0x19");
    CHECK(r.nrec == 1 && r.rec[0].offset == next, "the record is dropped, the next is read");
    tb_run_free(&r);
    tb_free(&b);
}

static void test_value_width(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0x1, 64);
    uint64_t v[] = {7};
    uint64_t at = tb_w8(&b, 0x1ff); /* a record type of 9 bits */
    tb_addr(&b, 0x1000);
    tb_value(&b, 7);
    tb_record(&b, TC_PERF_MANUAL, 0x1004, 0, v, 1);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-ITC-VALUE-WIDTH");
    EXPECT_AT(&r, "PERF-ITC-VALUE-WIDTH", at, "0x1ff");
    EXPECT_AT(&r, "PERF-ITC-VALUE-WIDTH", at, "8-bit write");
    CHECK(r.nrec == 1, "the next record is read");
    tb_run_free(&r);

    /* A 16-bit write with 17 bits, as a counter's high part: skipped; the
     * record before has all its words and stands with its low word. */
    tb_free(&b);
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0x1, 64);
    tb_w8(&b, TC_PERF_MANUAL);
    tb_addr(&b, 0x1000);
    tb_w32(&b, 1);
    at = tb_w16(&b, 0x10000);
    tb_record(&b, TC_PERF_MANUAL, 0x1004, 0, v, 1);
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-ITC-VALUE-WIDTH");
    EXPECT_AT(&r, "PERF-ITC-VALUE-WIDTH", at, "bit 15");
    CHECK(r.nrec == 2 && r.rec[0].address[0] == 0x1000 && r.rec[0].value[0] == 1 &&
              r.rec[1].address[0] == 0x1004,
          "the record before (its counter 1) and the next one: %zu records", r.nrec);
    tb_run_free(&r);
    tb_free(&b);
}

/* ---- headers ---- */

static void test_before_header(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    uint64_t first = tb_w8(&b, TC_PERF_MANUAL);
    tb_w32(&b, 0x1000);
    tb_w32(&b, 5);
    uint64_t hdr = tb_header_w(&b, TC_PERF_RAW, 0x1, 64);
    uint64_t v[] = {1};
    tb_record(&b, TC_PERF_MANUAL, 0x1000, 0, v, 1);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-BEFORE-HEADER");
    EXPECT_AT(&r, "PERF-BEFORE-HEADER", first, "3 perf-channel messages from offset 0 to");
    char want[80];
    snprintf(want, sizeof want, "(the 32-bit marker 0x70657266 at offset %llu)",
             (unsigned long long)hdr);
    EXPECT_AT(&r, "PERF-BEFORE-HEADER", first, want);
    CHECK(r.f[0].length == 2 + 2 + 8 + 8 && r.f[0].severity == TC_ERROR,
          "an error covering the 3 messages: %llu", (unsigned long long)r.f[0].length);
    CHECK(r.nrec == 1, "the record after the header is read");
    tb_run_free(&r);

    /* A wrapped buffer (ruling 14): the header that configured them was
     * overwritten, a warning. */
    tb_opts o = {.wrapped = 1};
    tb_run_msgs(&b, &o, &r);
    EXPECT_IDS(&r, "PERF-BEFORE-HEADER-WRAPPED");
    EXPECT_AT(&r, "PERF-BEFORE-HEADER-WRAPPED", first, "3 perf-channel messages from offset 0");
    EXPECT_AT(&r, "PERF-BEFORE-HEADER-WRAPPED", first, "in a wrapped buffer");
    CHECK(r.f[0].severity == TC_WARNING && r.errors == 0 && r.nrec == 1, "a warning");
    tb_run_free(&r);
    tb_free(&b);

    /* A header abandoned at once still says the channel holds perf data. */
    tb_init(&b, 0);
    first = tb_w8(&b, TC_PERF_MANUAL);
    tb_w32(&b, TC_PERF_DEFAULT_MARKER);
    tb_w8(&b, 7);
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-BEFORE-HEADER PERF-COUNT-TYPE");
    EXPECT_AT(&r, "PERF-BEFORE-HEADER", first, "1 perf-channel message at offset 0 before");
    tb_run_free(&r);
    tb_free(&b);
}

static void test_no_header(void)
{
    /* Ruling 14: messages, no header anywhere: one warning, nothing judged
     * (a width code 1, a value too wide, a 16-bit write out of place). */
    tb_msgs b;
    tb_init(&b, 0);
    tb_msg(&b, 5 * 4, 0x41); /* channel 5: not counted */
    uint64_t first = tb_w8(&b, 0x48);
    tb_msg(&b, 0x19, 0x69);
    tb_w16(&b, 0x1ffff);
    tb_w32(&b, 0xdeadbeef);
    uint64_t last = tb_w8(&b, 0x0a);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-NO-HEADER");
    char want[120];
    snprintf(want, sizeof want, "5 perf-channel messages from offset %llu to offset %llu and no "
             "header (the 32-bit marker 0x70657266) anywhere",
             (unsigned long long)first, (unsigned long long)last);
    EXPECT_AT(&r, "PERF-NO-HEADER", first, want);
    EXPECT_AT(&r, "PERF-NO-HEADER", first, "channel 6");
    EXPECT_AT(&r, "PERF-NO-HEADER", first, "the messages are not judged");
    CHECK(r.f[0].severity == TC_WARNING && r.errors == 0 && !r.f[0].unlocated,
          "a located warning");
    CHECK(r.f[0].length == last + 4 - first, "spans the messages: %llu",
          (unsigned long long)r.f[0].length);
    tb_run_free(&r);
    tb_opts o = {.wrapped = 1};
    tb_run_msgs(&b, &o, &r);
    EXPECT_IDS(&r, "PERF-NO-HEADER");
    EXPECT_AT(&r, "PERF-NO-HEADER", first, "lost to the wrap of this buffer");
    tb_run_free(&r);
    tb_free(&b);

    /* One message on the text list's lines. */
    tb_init(&b, 1);
    tb_w8(&b, 0x21);
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-NO-HEADER");
    EXPECT_AT(&r, "PERF-NO-HEADER", 0, "1 perf-channel message at line 1 and no header");
    CHECK(r.f[0].line == 1, "line %u", r.f[0].line);
    tb_run_free(&r);
    tb_free(&b);
}

static void test_unreadable_before_header(void)
{
    /* Messages that cannot be read before the first header are judged
     * when the header comes, in the order of their first message, each
     * rule once, with the count. */
    tb_msgs b;
    tb_init(&b, 0);
    uint64_t wide = tb_w16(&b, 0x10000);
    uint64_t code1 = tb_msg(&b, 0x19, 1);
    tb_msg(&b, 0x19, 2);
    uint64_t rec = tb_w8(&b, TC_PERF_MANUAL);
    tb_msg(&b, 0x1b, 0x100);
    uint64_t hdr = tb_header_w(&b, TC_PERF_RAW, 0, 64);
    tb_record(&b, TC_PERF_MANUAL, 0x1000, 0, NULL, 0);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-ITC-VALUE-WIDTH PERF-ITC-WIDTH-CODE PERF-BEFORE-HEADER");
    char want[100];
    snprintf(want, sizeof want, "(the first of 2 such messages before the first header, at "
             "offset %llu)", (unsigned long long)hdr);
    EXPECT_AT(&r, "PERF-ITC-VALUE-WIDTH", wide, want);
    EXPECT_AT(&r, "PERF-ITC-VALUE-WIDTH", wide, "the value 0x10000");
    EXPECT_AT(&r, "PERF-ITC-WIDTH-CODE", code1, want);
    EXPECT_AT(&r, "PERF-BEFORE-HEADER", rec, "1 perf-channel message at");
    CHECK(r.nrec == 1, "the record after the header is read");
    tb_run_free(&r);
    tb_free(&b);

    /* Only unreadable messages before it: their ITC findings alone. */
    tb_init(&b, 0);
    code1 = tb_msg(&b, 0x19, 1);
    hdr = tb_header_w(&b, TC_PERF_RAW, 0, 64);
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-ITC-WIDTH-CODE");
    snprintf(want, sizeof want, "(it comes before the first header, at offset %llu)",
             (unsigned long long)hdr);
    EXPECT_AT(&r, "PERF-ITC-WIDTH-CODE", code1, want);
    tb_run_free(&r);
    tb_free(&b);
}

static void test_header_width(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    uint64_t hdr = tb_w32(&b, TC_PERF_DEFAULT_MARKER);
    uint64_t at = tb_w32(&b, TC_PERF_RAW); /* the count type as a 32-bit write */
    tb_w32(&b, 0x1);
    tb_record(&b, TC_PERF_MANUAL, 0x1000, 0, NULL, 0);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-HEADER-WIDTH");
    EXPECT_AT(&r, "PERF-HEADER-WIDTH", at, "the count type");
    EXPECT_AT(&r, "PERF-HEADER-WIDTH", at, "a 32-bit write");
    char want[64];
    snprintf(want, sizeof want, "header starting at offset %llu", (unsigned long long)hdr);
    EXPECT_AT(&r, "PERF-HEADER-WIDTH", at, want);
    CHECK(r.nrec == 0 && r.nhdr == 0, "records wait for the next header");
    tb_run_free(&r);
    tb_free(&b);

    tb_init(&b, 0); /* a counter_info as a 16-bit write */
    tb_w32(&b, TC_PERF_DEFAULT_MARKER);
    tb_w8(&b, 0);
    tb_w32(&b, 0x20);
    tb_w32(&b, 0);
    tb_w32(&b, 0x10);
    at = tb_w16(&b, 0x3f);
    tb_header_w(&b, TC_PERF_RAW, 0, 64);
    tb_record(&b, TC_PERF_MANUAL, 0x1000, 0, NULL, 0);
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-HEADER-WIDTH");
    EXPECT_AT(&r, "PERF-HEADER-WIDTH", at, "counter_info of counter 1 of 1 (mask bit 5)");
    CHECK(r.nrec == 1 && r.nhdr == 1, "the next header is read");
    tb_run_free(&r);
    tb_free(&b);
}

/* Ruling 16: the marker's value in another width is a header appearing. */
static void test_marker_other_width(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    uint64_t at = tb_w16(&b, TC_PERF_DEFAULT_MARKER);
    tb_record(&b, TC_PERF_MANUAL, 0x1000, 0, NULL, 0);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-HEADER-WIDTH"); /* not PERF-ITC-VALUE-WIDTH, not PERF-NO-HEADER */
    EXPECT_AT(&r, "PERF-HEADER-WIDTH", at, "the marker 0x70657266");
    EXPECT_AT(&r, "PERF-HEADER-WIDTH", at, "a 16-bit write");
    CHECK(r.nrec == 0 && r.nhdr == 0, "records wait for the next header");
    tb_run_free(&r);
    tb_free(&b);

    tb_init(&b, 0); /* an 8-bit marker between records, then a valid header */
    tb_header_w(&b, TC_PERF_RAW, 0, 64);
    tb_record(&b, TC_PERF_MANUAL, 0x1000, 0, NULL, 0);
    at = tb_w8(&b, TC_PERF_DEFAULT_MARKER);
    tb_record(&b, TC_PERF_MANUAL, 0x1004, 0, NULL, 0);
    tb_header_w(&b, TC_PERF_RAW, 0, 64);
    tb_record(&b, TC_PERF_MANUAL, 0x1008, 0, NULL, 0);
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-HEADER-WIDTH");
    EXPECT_AT(&r, "PERF-HEADER-WIDTH", at, "an 8-bit write");
    CHECK(r.nrec == 2 && r.nhdr == 2, "the record after it waits; the next header is read");
    tb_run_free(&r);
    tb_free(&b);
}

/* Ruling 18: a record's type where a header word is due. */
static void test_header_interleaved(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_w32(&b, TC_PERF_DEFAULT_MARKER);
    tb_w8(&b, TC_PERF_RAW);
    tb_w32(&b, 0x20);
    uint64_t at = tb_w8(&b, TC_PERF_ISR);
    tb_w32(&b, 0x80001000);
    tb_w32(&b, 0);
    tb_w32(&b, 0x10);
    tb_w32(&b, 0x3f << 12);
    tb_header_w(&b, TC_PERF_RAW, 0, 64);
    tb_record(&b, TC_PERF_MANUAL, 0x1000, 0, NULL, 0);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-HEADER-INTERLEAVED");
    EXPECT_AT(&r, "PERF-HEADER-INTERLEAVED", at, "a timer ISR record starts");
    EXPECT_AT(&r, "PERF-HEADER-INTERLEAVED", at, "the OpenSBI type of counter 1 of 1");
    CHECK(r.nrec == 1 && r.nhdr == 1, "the next header is read");
    tb_run_free(&r);
    tb_free(&b);
}

static void test_count_type(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_w32(&b, TC_PERF_DEFAULT_MARKER);
    uint64_t at = tb_w8(&b, 3);
    tb_w32(&b, 0);
    tb_record(&b, TC_PERF_MANUAL, 0x1000, 0, NULL, 0);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-COUNT-TYPE");
    EXPECT_AT(&r, "PERF-COUNT-TYPE", at, "is 3; it must be 0 (raw), 1 (delta) or 2 (delta XOR)");
    CHECK(r.nhdr == 0 && r.nrec == 0, "no configuration, records wait");
    tb_run_free(&r);
    tb_free(&b);
}

static void test_opensbi_type(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_w32(&b, TC_PERF_DEFAULT_MARKER);
    tb_w8(&b, 0);
    tb_w32(&b, 0x3);
    tb_w32(&b, 0);
    tb_w32(&b, 0x10);
    tb_w32(&b, TB_INFO(64, 0xc00));
    uint64_t at = tb_w32(&b, 7);
    tb_w32(&b, 0x10);
    tb_w32(&b, TB_INFO(64, 0xc01));
    tb_record(&b, TC_PERF_MANUAL, 0x1000, 0, NULL, 0);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-OPENSBI-TYPE");
    EXPECT_AT(&r, "PERF-OPENSBI-TYPE", at, "counter 2 of 2 (mask bit 1)");
    EXPECT_AT(&r, "PERF-OPENSBI-TYPE", at, "is 7");
    tb_run_free(&r);
    tb_free(&b);
}

static void test_header_truncated(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    uint64_t at = tb_w32(&b, TC_PERF_DEFAULT_MARKER);
    tb_w8(&b, 1);
    tb_w32(&b, 0x3);
    tb_w32(&b, 0);
    tb_w32(&b, 0x10);
    tb_w32(&b, TB_INFO(64, 0xc00));
    tb_w32(&b, 2);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-HEADER-TRUNCATED");
    EXPECT_AT(&r, "PERF-HEADER-TRUNCATED", at, "the event_data low word of counter 2 of 2");
    CHECK(r.f[0].severity == TC_ERROR && r.f[0].length == b.off - at, "error over the header");
    tb_run_free(&r);
    tb_free(&b);
}

/* ---- records ---- */

static void test_record_start(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0x1, 64);
    uint64_t v[] = {1};
    tb_record(&b, TC_PERF_MANUAL, 0x1000, 0, v, 1);
    uint64_t at = tb_w32(&b, 0xabcd);
    tb_w32(&b, 0xabce);
    tb_record(&b, TC_PERF_MANUAL, 0x1000, 0, v, 1);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-RECORD-START");
    EXPECT_AT(&r, "PERF-RECORD-START", at, "0x0000abcd");
    CHECK(r.nrec == 2, "both records read");
    tb_run_free(&r);
    tb_free(&b);
}

static void test_record_type(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0x3, 64);
    uint64_t v[] = {1, 0x100000002ull};
    uint64_t at = tb_record(&b, 4, 0x1000, 0, v, 2);
    tb_record(&b, TC_PERF_MANUAL, 0x1000, 0, v, 2);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-RECORD-TYPE");
    EXPECT_AT(&r, "PERF-RECORD-TYPE", at, "is 4");
    CHECK(r.nrec == 1 && r.rec[0].type == TC_PERF_MANUAL, "the next record is read");
    tb_run_free(&r);
    tb_free(&b);
}

static void test_width_16(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0x1, 64);
    uint64_t v[] = {0x7000000000ull};
    uint64_t rec = tb_w8(&b, TC_PERF_MANUAL);
    tb_w32(&b, 0x1000);
    uint64_t at = tb_w16(&b, 0x55); /* after the address */
    tb_w32(&b, 9);
    tb_w16(&b, 0x66);                /* the counter's high part */
    uint64_t at2 = tb_w16(&b, 0x77); /* a second one, where a record starts */
    tb_w32(&b, 0x1000);              /* skipped with it, unreported */
    tb_record(&b, TC_PERF_MANUAL, 0x1000, 0, v, 1);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-WIDTH-16 PERF-WIDTH-16");
    EXPECT_AT(&r, "PERF-WIDTH-16", at, "0x55");
    char want[64];
    snprintf(want, sizeof want, "record starting at offset %llu", (unsigned long long)rec);
    EXPECT_AT(&r, "PERF-WIDTH-16", at, want);
    CHECK(r.nf == 2 && r.f[1].offset == at2 && strstr(r.f[1].message, "0x77"), "the second at %llu",
          r.nf == 2 ? (unsigned long long)r.f[1].offset : 0ull);
    CHECK(r.nrec == 2 && r.rec[0].value[0] == 0x6600000009ull &&
              r.rec[1].value[0] == 0x7000000000ull,
          "records read: %zu", r.nrec);
    tb_run_free(&r);
    tb_free(&b);
}

static void test_record_cut(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0x6, 64);
    uint64_t v[] = {1, 2};
    uint64_t rec = tb_w8(&b, TC_PERF_MANUAL);
    tb_w32(&b, 0x1000);
    tb_w32(&b, 1); /* the second counter is missing */
    uint64_t next = tb_record(&b, TC_PERF_MANUAL, 0x1004, 0, v, 2);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-RECORD-CUT");
    EXPECT_AT(&r, "PERF-RECORD-CUT", rec, "counter 2 of 2 (mask bit 2)");
    CHECK(r.nrec == 1 && r.rec[0].offset == next, "the new record is read");
    tb_run_free(&r);
    tb_free(&b);
}

static void test_record_cut_by_header(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0x6, 64);
    uint64_t rec = tb_w8(&b, TC_PERF_MANUAL);
    tb_w32(&b, 0x1000);
    uint64_t hdr = tb_header_w(&b, TC_PERF_DELTA, 0x1, 32);
    uint64_t v[] = {5};
    tb_record(&b, TC_PERF_MANUAL, 0x2000, 0, v, 1);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-RECORD-CUT");
    char want[64];
    snprintf(want, sizeof want, "cut by a header at offset %llu", (unsigned long long)hdr);
    EXPECT_AT(&r, "PERF-RECORD-CUT", rec, want);
    CHECK(r.nhdr == 2 && r.hdr[1].count_type == TC_PERF_DELTA, "the header is read");
    CHECK(r.nrec == 1 && r.rec[0].address[0] == 0x2000, "and the record after it");
    tb_run_free(&r);
    tb_free(&b);
}

static void test_address_width(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0, 64);
    tb_w8(&b, TC_PERF_MANUAL);
    tb_w32(&b, 0x1001);
    uint64_t at = tb_w16(&b, 0x7f);
    tb_record(&b, TC_PERF_MANUAL, 0x2000, 0, NULL, 0);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-ADDRESS-WIDTH");
    EXPECT_AT(&r, "PERF-ADDRESS-WIDTH", at, "low word 0x00001001");
    CHECK(r.nrec == 2 && r.rec[0].address[0] == 0x7f00001000ull, "read as the high word");
    tb_run_free(&r);
    tb_free(&b);
}

static void test_address_high_zero(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0, 64);
    tb_w8(&b, TC_PERF_FUNC_ENTRY);
    tb_w32(&b, 0x1000);
    uint64_t at = tb_w32(&b, 0x2001);
    tb_w32(&b, 0);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-ADDRESS-HIGH-ZERO");
    EXPECT_AT(&r, "PERF-ADDRESS-HIGH-ZERO", at, "address 2 of the function entry record");
    EXPECT_AT(&r, "PERF-ADDRESS-HIGH-ZERO", at, "0x00002000");
    CHECK(r.f[0].severity == TC_WARNING && r.nrec == 1 && r.rec[0].address[1] == 0x2000,
          "a warning; the record is read");
    tb_run_free(&r);
    tb_free(&b);
}

static void test_counter_width(void)
{
    /* The Linux writer's 2^width for an unchanged delta counter (ruling 8). */
    tb_msgs b;
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_DELTA, 0x20, 32);
    uint64_t v1[] = {7}, v2[] = {0x100000000ull}, v3[] = {1};
    tb_record(&b, TC_PERF_MANUAL, 0x1000, 0, v1, 1);
    uint64_t rec = tb_w8(&b, TC_PERF_MANUAL);
    tb_addr(&b, 0x1000);
    uint64_t at = tb_w32(&b, 0);
    tb_w16(&b, 1);
    tb_record(&b, TC_PERF_MANUAL, 0x1000, 0, v3, 1);
    (void)v2;
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-COUNTER-WIDTH");
    EXPECT_AT(&r, "PERF-COUNTER-WIDTH", at, "counter 1 of 1 (mask bit 5)");
    EXPECT_AT(&r, "PERF-COUNTER-WIDTH", at, "is 0x100000000");
    EXPECT_AT(&r, "PERF-COUNTER-WIDTH", at, "width of 32 bits");
    char want[64];
    snprintf(want, sizeof want, "record starting at offset %llu", (unsigned long long)rec);
    EXPECT_AT(&r, "PERF-COUNTER-WIDTH", at, want);
    CHECK(r.nrec == 3 && r.rec[1].decoded[0] == 7 && r.rec[2].decoded[0] == 8,
          "decoded modulo 2^32: %llu %llu", (unsigned long long)r.rec[1].decoded[0],
          (unsigned long long)r.rec[2].decoded[0]);
    tb_run_free(&r);
    tb_free(&b);
}

static void test_counter_high_zero(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0x1, 64);
    tb_w8(&b, TC_PERF_ISR);
    tb_w32(&b, 0x1000);
    uint64_t at = tb_w32(&b, 0x42);
    uint64_t hi = tb_w16(&b, 0);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-COUNTER-HIGH-ZERO");
    char want[64];
    snprintf(want, sizeof want, "high part of 0 at offset %llu", (unsigned long long)hi);
    EXPECT_AT(&r, "PERF-COUNTER-HIGH-ZERO", at, want);
    CHECK(r.nrec == 1 && r.rec[0].value[0] == 0x42, "the record is read");
    tb_run_free(&r);
    tb_free(&b);
}

static void test_record_truncated(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0x7, 64);
    uint64_t v[] = {1, 2, 3};
    tb_record(&b, TC_PERF_MANUAL, 0x1000, 0, v, 3);
    uint64_t rec = tb_w8(&b, TC_PERF_MANUAL);
    tb_w32(&b, 0x1000);
    tb_w32(&b, 1);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-RECORD-TRUNCATED");
    EXPECT_AT(&r, "PERF-RECORD-TRUNCATED", rec, "counter 2 of 3 (mask bit 1)");
    CHECK(r.f[0].severity == TC_WARNING && r.f[0].length == b.off - rec, "a warning over it");
    CHECK(r.nrec == 1, "the last record is dropped");
    tb_run_free(&r);
    tb_free(&b);
}

static void test_mixed_records(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0, 64);
    uint64_t first = tb_record(&b, TC_PERF_MANUAL, 0x1000, 0, NULL, 0);
    uint64_t at = tb_record(&b, TC_PERF_ISR, 0x1000, 0, NULL, 0);
    tb_record(&b, TC_PERF_FUNC_ENTRY, 0x1000, 0x2000, NULL, 0);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-MIXED-RECORDS");
    char want[64];
    snprintf(want, sizeof want, "the first at offset %llu", (unsigned long long)first);
    EXPECT_AT(&r, "PERF-MIXED-RECORDS", at, want);
    EXPECT_AT(&r, "PERF-MIXED-RECORDS", at, "timer ISR record");
    tb_run_free(&r);
    tb_free(&b);
}

static void test_raw_backwards(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0x3, 64);
    uint64_t v1[] = {10, 500}, v2[] = {20, 400};
    tb_record(&b, TC_PERF_MANUAL, 0x1000, 0, v1, 2);
    tb_w8(&b, TC_PERF_MANUAL);
    tb_w32(&b, 0x1000);
    tb_w32(&b, 20);
    uint64_t at = tb_w32(&b, 400);
    (void)v2;
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-RAW-BACKWARDS");
    EXPECT_AT(&r, "PERF-RAW-BACKWARDS", at, "counter 2 of 2 (mask bit 1)");
    EXPECT_AT(&r, "PERF-RAW-BACKWARDS", at, "is 0x190, lower than its previous value 0x1f4");
    tb_run_free(&r);
    tb_free(&b);
}

static void test_call_stack(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0, 64);
    tb_record(&b, TC_PERF_FUNC_ENTRY, 0x200, 0x110, NULL, 0);
    tb_record(&b, TC_PERF_FUNC_ENTRY, 0x300, 0x21a, NULL, 0);
    uint64_t at = tb_record(&b, TC_PERF_FUNC_EXIT, 0x400, 0x21a, NULL, 0); /* another function */
    tb_record(&b, TC_PERF_FUNC_EXIT, 0x200, 0x110, NULL, 0); /* forgotten: not checked */
    tb_record(&b, TC_PERF_FUNC_ENTRY, 0x300, 0x11c, NULL, 0);
    tb_record(&b, TC_PERF_FUNC_EXIT, 0x300, 0x11c, NULL, 0);
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-CALL-STACK");
    EXPECT_AT(&r, "PERF-CALL-STACK", at,
              "leaves 0x400 (call site 0x21a), but the innermost open call is of 0x300, entered "
              "from call site 0x21a (depth 2); the open calls are forgotten");
    const tb_finding *f = tb_find(&r, "PERF-CALL-STACK");
    CHECK(f && f->severity == TC_WARNING, "a warning");
    tb_run_free(&r);

    tb_free(&b); /* the right function for another call site: the call closes */
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0, 64);
    tb_record(&b, TC_PERF_FUNC_ENTRY, 0x200, 0x110, NULL, 0);
    tb_record(&b, TC_PERF_FUNC_ENTRY, 0x300, 0x21a, NULL, 0);
    at = tb_record(&b, TC_PERF_FUNC_EXIT, 0x300, 0x21e, NULL, 0);
    tb_record(&b, TC_PERF_FUNC_EXIT, 0x200, 0x110, NULL, 0);
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-CALL-STACK");
    EXPECT_AT(&r, "PERF-CALL-STACK", at,
              "leaves 0x300 for call site 0x21e, but the call it closes (depth 2) was entered "
              "from call site 0x21a");
    tb_run_free(&r);

    tb_free(&b); /* the Doc's reading (current function, then callee) is not the writers' */
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0, 64);
    tb_record(&b, TC_PERF_FUNC_ENTRY, 0x100, 0x200, NULL, 0);
    at = tb_record(&b, TC_PERF_FUNC_EXIT, 0x200, 0x100, NULL, 0);
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-CALL-STACK");
    EXPECT_AT(&r, "PERF-CALL-STACK", at, "leaves 0x200 (call site 0x100), but the innermost open "
              "call is of 0x100, entered from call site 0x200");
    tb_run_free(&r);

    tb_free(&b); /* a new header forgets the open calls */
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0, 64);
    tb_record(&b, TC_PERF_FUNC_ENTRY, 0x200, 0x110, NULL, 0);
    tb_header_w(&b, TC_PERF_RAW, 0, 64);
    tb_record(&b, TC_PERF_FUNC_EXIT, 0x300, 0x21a, NULL, 0);
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "");
    tb_run_free(&r);
    tb_free(&b);
}

/* ---- text locations and the dump ---- */

static void test_text_locations(void)
{
    tb_msgs b;
    tb_init(&b, 1);
    tb_header_w(&b, TC_PERF_RAW, 0x1, 64); /* lines 1-6 */
    tb_w8(&b, 9);                          /* line 7 */
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "PERF-RECORD-TYPE");
    const tb_finding *f = tb_find(&r, "PERF-RECORD-TYPE");
    CHECK(f && f->line == 7 && f->column == 1 && !f->has_path && f->offset == 6 * 17,
          "line %u column %u offset %llu", f ? f->line : 0, f ? f->column : 0,
          f ? (unsigned long long)f->offset : 0ull);
    CHECK(f && strstr(f->message, "at line 7"), "message names the line: %s", f ? f->message : "");
    tb_run_free(&r);
    tb_free(&b);
}

static void test_dump_lines(void)
{
    tb_msgs b;
    tb_init(&b, 0);
    tb_counter defs[] = {{0, 0x2, TB_INFO(64, 0xc00)}, {2, 0x100000001ull, TB_INFO(48, 0xc03)}};
    tb_header(&b, TC_PERF_DELTA, 0x9, defs);
    tb_timestamp(&b, 7); /* on the header's last message: not the header's */
    uint64_t v[] = {0x100000005ull, 3};
    tb_record(&b, TC_PERF_FUNC_ENTRY, 0x80001000ull, 0x123400002000ull, v, 2);
    tb_timestamp(&b, 99); /* on the record's last message: not the record's */
    size_t first = b.n;
    tb_record(&b, TC_PERF_FUNC_ENTRY, 0x123400002000ull, 0x3000, v, 2);
    b.m[first].timestamp = 1234; /* the record type's message */
    b.m[first].has_timestamp = 1;
    tb_run r;
    tb_run_msgs(&b, NULL, &r);
    EXPECT_IDS(&r, "");
    static const char *const want[] = {
        "{\"t\":\"header\",\"format\":\"perf\",\"dump_version\":2}",
        "{\"t\":\"perf_header\",\"offset\":\"0\",\"count_type\":1,\"count_type_name\":"
        "\"delta\",\"mask\":9,\"counters\":2}",
        "{\"t\":\"counter\",\"index\":0,\"opensbi_type\":0,\"code\":2,\"counter_info\":261120,"
        "\"csr\":3072,\"width\":64}",
        "{\"t\":\"counter\",\"index\":3,\"opensbi_type\":2,\"event_data\":\"4294967297\","
        "\"counter_info\":195587,\"csr\":3075,\"width\":48}",
        "{\"t\":\"record\",\"offset\":\"76\",\"type\":0,\"type_name\":\"entry\",\"addresses\":"
        "[\"2147487744\",\"20014547607552\"],\"values\":[\"4294967301\",\"3\"],\"decoded\":"
        "[\"4294967301\",\"3\"]}",
        "{\"t\":\"record\",\"offset\":\"125\",\"type\":0,\"type_name\":\"entry\",\"addresses\":"
        "[\"20014547607552\",\"12288\"],\"values\":[\"4294967301\",\"3\"],\"decoded\":"
        "[\"8589934602\",\"6\"],\"timestamp\":\"1234\"}",
        "",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        CHECK(strcmp(tb_dump_line(&r, i), want[i]) == 0, "dump line %zu:\n  got  %s\n  want %s", i,
              tb_dump_line(&r, i), want[i]);
    tb_run_free(&r);
    tb_free(&b);
}

/* ---- robustness ---- */

static void test_random_messages(void)
{
    /* Random perf-channel writes, biased towards the marker and small
     * values so that headers and records do start: no crash, no finding
     * without a location, every record consistent with its header. */
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (int round = 0; round < 300; round++) {
        tb_msgs b;
        tb_init(&b, round & 1);
        for (int i = 0; i < 400; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            unsigned code = (unsigned)(x & 3);
            uint64_t v;
            switch (x >> 2 & 7) {
            case 0:
                v = TC_PERF_DEFAULT_MARKER;
                code = 0;
                break;
            case 1: v = x >> 20 & 3; break;
            case 2: v = x >> 40; break;
            default: v = x >> 32 & 0xff; break;
            }
            tb_msg(&b, (x >> 60 == 0 ? 5 : 6) * 4 + code, v);
        }
        tb_run r;
        tb_run_msgs(&b, NULL, &r);
        for (size_t i = 0; i < r.nf; i++)
            CHECK(r.f[i].unlocated || r.f[i].length > 0, "round %d: %s without a span", round,
                  r.f[i].id);
        for (size_t i = 0; i < r.nrec; i++)
            CHECK(r.rec[i].type <= 3 && r.rec[i].n_addresses == (r.rec[i].type <= 1 ? 2u : 1u),
                  "round %d: record %zu", round, i);
        tb_run_free(&r);
        tb_free(&b);
    }
}

static const tu_test tests[] = {
    {"raw manual records", test_raw_manual},
    {"delta decoding", test_delta_decoding},
    {"delta XOR decoding", test_xor_decoding},
    {"32- and 64-bit addresses", test_addresses_32_and_64},
    {"counters over 32 bits", test_counter_high_parts},
    {"event_data and mask 0", test_event_data_and_mask0},
    {"two headers restart", test_two_headers_restart},
    {"entry/exit calls", test_entry_exit_calls},
    {"deep call stack bounded", test_deep_call_stack_bounded},
    {"other channels skipped", test_other_channels_skipped},
    {"channel and marker options", test_channel_and_marker_options},
    {"marker value inside a record", test_marker_value_inside_record},
    {"PERF-NO-DATA", test_no_data},
    {"PERF-ITC-WIDTH-CODE", test_width_code_1},
    {"PERF-ITC-VALUE-WIDTH", test_value_width},
    {"PERF-BEFORE-HEADER and -WRAPPED", test_before_header},
    {"PERF-NO-HEADER", test_no_header},
    {"unreadable messages before the first header", test_unreadable_before_header},
    {"PERF-HEADER-WIDTH", test_header_width},
    {"PERF-HEADER-WIDTH: the marker in another width", test_marker_other_width},
    {"PERF-HEADER-INTERLEAVED", test_header_interleaved},
    {"PERF-COUNT-TYPE", test_count_type},
    {"PERF-OPENSBI-TYPE", test_opensbi_type},
    {"PERF-HEADER-TRUNCATED", test_header_truncated},
    {"PERF-RECORD-START", test_record_start},
    {"PERF-RECORD-TYPE", test_record_type},
    {"PERF-WIDTH-16", test_width_16},
    {"PERF-RECORD-CUT", test_record_cut},
    {"PERF-RECORD-CUT by a header", test_record_cut_by_header},
    {"PERF-ADDRESS-WIDTH", test_address_width},
    {"PERF-ADDRESS-HIGH-ZERO", test_address_high_zero},
    {"PERF-COUNTER-WIDTH", test_counter_width},
    {"PERF-COUNTER-HIGH-ZERO", test_counter_high_zero},
    {"PERF-RECORD-TRUNCATED", test_record_truncated},
    {"PERF-MIXED-RECORDS", test_mixed_records},
    {"PERF-RAW-BACKWARDS", test_raw_backwards},
    {"PERF-CALL-STACK", test_call_stack},
    {"text locations", test_text_locations},
    {"dump lines", test_dump_lines},
    {"random messages", test_random_messages},
    {NULL, NULL},
};

void register_perf_sm_suite(void)
{
    tu_add_suite("perf_sm", tests);
}
