/*
 * The perf layer of SiFive perf data (parsers/perf/perf_sm.c), fed ITC
 * messages directly (perf_tb.h): valid sequences and their decoded values,
 * the ITC writes and the trace as a whole (PERF-NO-DATA, PERF-ITC-*), and
 * headers (PERF-BEFORE-HEADER to PERF-HEADER-TRUNCATED), each rule with its
 * location and values (spec/perf/perf.md). Records, text locations, the
 * dump and random messages are in test_perf_sm_records.c.
 */
#include <string.h>

#include "perf_tb.h"
#include "../suites.h"
#include "../tu.h"

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
    TB_EXPECT_IDS(&r, "");
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
    TB_EXPECT_IDS(&r, "");
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
    TB_EXPECT_IDS(&r, "");
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
    TB_EXPECT_IDS(&r, "");
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
    TB_EXPECT_IDS(&r, "");
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
    TB_EXPECT_IDS(&r, "");
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
    TB_EXPECT_IDS(&r, ""); /* the note is pedantic */
    CHECK(r.nrec == 2 && r.rec[1].decoded[0] == 3, "running values restart: %llu",
          (unsigned long long)r.rec[1].decoded[0]);
    tb_run_free(&r);
    tb_opts o = {.pedantic = 1};
    tb_run_msgs(&b, &o, &r);
    TB_EXPECT_IDS(&r, "PERF-SECOND-HEADER");
    TB_EXPECT_AT(&r, "PERF-SECOND-HEADER", second, "header 2");
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
    TB_EXPECT_IDS(&r, "");
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
    TB_EXPECT_IDS(&r, "");
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
    TB_EXPECT_IDS(&r, "PERF-CALL-STACK");
    TB_EXPECT_AT(&r, "PERF-CALL-STACK", at, "depth 5001");
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
    TB_EXPECT_IDS(&r, "");
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
    TB_EXPECT_IDS(&r, "");
    CHECK(r.nrec == 1 && r.nhdr == 1, "header and record on channel 3");
    tb_run_free(&r);
    tb_run_msgs(&b, NULL, &r); /* channel 6: nothing */
    TB_EXPECT_IDS(&r, "PERF-NO-DATA");
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
    TB_EXPECT_IDS(&r, "");
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
    TB_EXPECT_IDS(&r, "PERF-NO-DATA");
    const tb_finding *f = tb_find(&r, "PERF-NO-DATA");
    CHECK(f && f->severity == TC_WARNING && f->unlocated, "an unlocated warning");
    CHECK(f && strstr(f->message, "channel 6 (IDTAG 0x18, 0x1a or 0x1b)"), "message: %s",
          f ? f->message : "");
    tb_run_free(&r);
    tb_free(&b);
    tb_init(&b, 0); /* empty */
    tb_run_msgs(&b, NULL, &r);
    TB_EXPECT_IDS(&r, "PERF-NO-DATA");
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
    TB_EXPECT_IDS(&r, "PERF-ITC-WIDTH-CODE");
    TB_EXPECT_AT(&r, "PERF-ITC-WIDTH-CODE", at, "IDTAG 0x19");
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
    TB_EXPECT_IDS(&r, "PERF-ITC-VALUE-WIDTH");
    TB_EXPECT_AT(&r, "PERF-ITC-VALUE-WIDTH", at, "0x1ff");
    TB_EXPECT_AT(&r, "PERF-ITC-VALUE-WIDTH", at, "8-bit write");
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
    TB_EXPECT_IDS(&r, "PERF-ITC-VALUE-WIDTH");
    TB_EXPECT_AT(&r, "PERF-ITC-VALUE-WIDTH", at, "bit 15");
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
    TB_EXPECT_IDS(&r, "PERF-BEFORE-HEADER");
    TB_EXPECT_AT(&r, "PERF-BEFORE-HEADER", first, "3 perf-channel messages from offset 0 to");
    char want[80];
    snprintf(want, sizeof want, "(the 32-bit marker 0x70657266 at offset %llu)",
             (unsigned long long)hdr);
    TB_EXPECT_AT(&r, "PERF-BEFORE-HEADER", first, want);
    CHECK(r.f[0].length == 2 + 2 + 8 + 8 && r.f[0].severity == TC_ERROR,
          "an error covering the 3 messages: %llu", (unsigned long long)r.f[0].length);
    CHECK(r.nrec == 1, "the record after the header is read");
    tb_run_free(&r);

    /* A wrapped buffer (ruling 14): the header that configured them was
     * overwritten, a warning. */
    tb_opts o = {.wrapped = 1};
    tb_run_msgs(&b, &o, &r);
    TB_EXPECT_IDS(&r, "PERF-BEFORE-HEADER-WRAPPED");
    TB_EXPECT_AT(&r, "PERF-BEFORE-HEADER-WRAPPED", first, "3 perf-channel messages from offset 0");
    TB_EXPECT_AT(&r, "PERF-BEFORE-HEADER-WRAPPED", first, "in a wrapped buffer");
    CHECK(r.f[0].severity == TC_WARNING && r.errors == 0 && r.nrec == 1, "a warning");
    tb_run_free(&r);
    tb_free(&b);

    /* A header abandoned at once still says the channel holds perf data. */
    tb_init(&b, 0);
    first = tb_w8(&b, TC_PERF_MANUAL);
    tb_w32(&b, TC_PERF_DEFAULT_MARKER);
    tb_w8(&b, 7);
    tb_run_msgs(&b, NULL, &r);
    TB_EXPECT_IDS(&r, "PERF-BEFORE-HEADER PERF-COUNT-TYPE");
    TB_EXPECT_AT(&r, "PERF-BEFORE-HEADER", first, "1 perf-channel message at offset 0 before");
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
    TB_EXPECT_IDS(&r, "PERF-NO-HEADER");
    char want[120];
    snprintf(want, sizeof want, "5 perf-channel messages from offset %llu to offset %llu and no "
             "header (the 32-bit marker 0x70657266) anywhere",
             (unsigned long long)first, (unsigned long long)last);
    TB_EXPECT_AT(&r, "PERF-NO-HEADER", first, want);
    TB_EXPECT_AT(&r, "PERF-NO-HEADER", first, "channel 6");
    TB_EXPECT_AT(&r, "PERF-NO-HEADER", first, "the messages are not judged");
    CHECK(r.f[0].severity == TC_WARNING && r.errors == 0 && !r.f[0].unlocated,
          "a located warning");
    CHECK(r.f[0].length == last + 4 - first, "spans the messages: %llu",
          (unsigned long long)r.f[0].length);
    tb_run_free(&r);
    tb_opts o = {.wrapped = 1};
    tb_run_msgs(&b, &o, &r);
    TB_EXPECT_IDS(&r, "PERF-NO-HEADER");
    TB_EXPECT_AT(&r, "PERF-NO-HEADER", first, "lost to the wrap of this buffer");
    tb_run_free(&r);
    tb_free(&b);

    /* One message on the text list's lines. */
    tb_init(&b, 1);
    tb_w8(&b, 0x21);
    tb_run_msgs(&b, NULL, &r);
    TB_EXPECT_IDS(&r, "PERF-NO-HEADER");
    TB_EXPECT_AT(&r, "PERF-NO-HEADER", 0, "1 perf-channel message at line 1 and no header");
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
    TB_EXPECT_IDS(&r, "PERF-ITC-VALUE-WIDTH PERF-ITC-WIDTH-CODE PERF-BEFORE-HEADER");
    char want[100];
    snprintf(want, sizeof want, "(the first of 2 such messages before the first header, at "
             "offset %llu)", (unsigned long long)hdr);
    TB_EXPECT_AT(&r, "PERF-ITC-VALUE-WIDTH", wide, want);
    TB_EXPECT_AT(&r, "PERF-ITC-VALUE-WIDTH", wide, "the value 0x10000");
    TB_EXPECT_AT(&r, "PERF-ITC-WIDTH-CODE", code1, want);
    TB_EXPECT_AT(&r, "PERF-BEFORE-HEADER", rec, "1 perf-channel message at");
    CHECK(r.nrec == 1, "the record after the header is read");
    tb_run_free(&r);
    tb_free(&b);

    /* Only unreadable messages before it: their ITC findings alone. */
    tb_init(&b, 0);
    code1 = tb_msg(&b, 0x19, 1);
    hdr = tb_header_w(&b, TC_PERF_RAW, 0, 64);
    tb_run_msgs(&b, NULL, &r);
    TB_EXPECT_IDS(&r, "PERF-ITC-WIDTH-CODE");
    snprintf(want, sizeof want, "(it comes before the first header, at offset %llu)",
             (unsigned long long)hdr);
    TB_EXPECT_AT(&r, "PERF-ITC-WIDTH-CODE", code1, want);
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
    TB_EXPECT_IDS(&r, "PERF-HEADER-WIDTH");
    TB_EXPECT_AT(&r, "PERF-HEADER-WIDTH", at, "the count type");
    TB_EXPECT_AT(&r, "PERF-HEADER-WIDTH", at, "a 32-bit write");
    char want[64];
    snprintf(want, sizeof want, "header starting at offset %llu", (unsigned long long)hdr);
    TB_EXPECT_AT(&r, "PERF-HEADER-WIDTH", at, want);
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
    TB_EXPECT_IDS(&r, "PERF-HEADER-WIDTH");
    TB_EXPECT_AT(&r, "PERF-HEADER-WIDTH", at, "counter_info of counter 1 of 1 (mask bit 5)");
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
    TB_EXPECT_IDS(&r, "PERF-HEADER-WIDTH"); /* not PERF-ITC-VALUE-WIDTH, not PERF-NO-HEADER */
    TB_EXPECT_AT(&r, "PERF-HEADER-WIDTH", at, "the marker 0x70657266");
    TB_EXPECT_AT(&r, "PERF-HEADER-WIDTH", at, "a 16-bit write");
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
    TB_EXPECT_IDS(&r, "PERF-HEADER-WIDTH");
    TB_EXPECT_AT(&r, "PERF-HEADER-WIDTH", at, "an 8-bit write");
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
    TB_EXPECT_IDS(&r, "PERF-HEADER-INTERLEAVED");
    TB_EXPECT_AT(&r, "PERF-HEADER-INTERLEAVED", at, "a timer ISR record starts");
    TB_EXPECT_AT(&r, "PERF-HEADER-INTERLEAVED", at, "the OpenSBI type of counter 1 of 1");
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
    TB_EXPECT_IDS(&r, "PERF-COUNT-TYPE");
    TB_EXPECT_AT(&r, "PERF-COUNT-TYPE", at, "is 3; it must be 0 (raw), 1 (delta) or 2 (delta XOR)");
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
    TB_EXPECT_IDS(&r, "PERF-OPENSBI-TYPE");
    TB_EXPECT_AT(&r, "PERF-OPENSBI-TYPE", at, "counter 2 of 2 (mask bit 1)");
    TB_EXPECT_AT(&r, "PERF-OPENSBI-TYPE", at, "is 7");
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
    TB_EXPECT_IDS(&r, "PERF-HEADER-TRUNCATED");
    TB_EXPECT_AT(&r, "PERF-HEADER-TRUNCATED", at, "the event_data low word of counter 2 of 2");
    CHECK(r.f[0].severity == TC_ERROR && r.f[0].length == b.off - at, "error over the header");
    tb_run_free(&r);
    tb_free(&b);
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
    {NULL, NULL},
};

void register_perf_sm_suite(void)
{
    tu_add_suite("perf_sm", tests);
}
