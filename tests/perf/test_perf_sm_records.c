/*
 * The perf layer of SiFive perf data (parsers/perf/perf_sm.c), fed ITC
 * messages directly (perf_tb.h): the rules of records (PERF-RECORD-START to
 * PERF-CALL-STACK), each with its location and values (spec/perf/perf.md);
 * locations in text input; the dump line by line; random messages. Valid
 * sequences and headers are in test_perf_sm.c.
 */
#include <string.h>

#include "perf_tb.h"
#include "../suites.h"
#include "../tu.h"

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
    TB_EXPECT_IDS(&r, "PERF-RECORD-START");
    TB_EXPECT_AT(&r, "PERF-RECORD-START", at, "0x0000abcd");
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
    TB_EXPECT_IDS(&r, "PERF-RECORD-TYPE");
    TB_EXPECT_AT(&r, "PERF-RECORD-TYPE", at, "is 4");
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
    TB_EXPECT_IDS(&r, "PERF-WIDTH-16 PERF-WIDTH-16");
    TB_EXPECT_AT(&r, "PERF-WIDTH-16", at, "0x55");
    char want[64];
    snprintf(want, sizeof want, "record starting at offset %llu", (unsigned long long)rec);
    TB_EXPECT_AT(&r, "PERF-WIDTH-16", at, want);
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
    TB_EXPECT_IDS(&r, "PERF-RECORD-CUT");
    TB_EXPECT_AT(&r, "PERF-RECORD-CUT", rec, "counter 2 of 2 (mask bit 2)");
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
    TB_EXPECT_IDS(&r, "PERF-RECORD-CUT");
    char want[64];
    snprintf(want, sizeof want, "cut by a header at offset %llu", (unsigned long long)hdr);
    TB_EXPECT_AT(&r, "PERF-RECORD-CUT", rec, want);
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
    TB_EXPECT_IDS(&r, "PERF-ADDRESS-WIDTH");
    TB_EXPECT_AT(&r, "PERF-ADDRESS-WIDTH", at, "low word 0x00001001");
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
    TB_EXPECT_IDS(&r, "PERF-ADDRESS-HIGH-ZERO");
    TB_EXPECT_AT(&r, "PERF-ADDRESS-HIGH-ZERO", at, "address 2 of the function entry record");
    TB_EXPECT_AT(&r, "PERF-ADDRESS-HIGH-ZERO", at, "0x00002000");
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
    TB_EXPECT_IDS(&r, "PERF-COUNTER-WIDTH");
    TB_EXPECT_AT(&r, "PERF-COUNTER-WIDTH", at, "counter 1 of 1 (mask bit 5)");
    TB_EXPECT_AT(&r, "PERF-COUNTER-WIDTH", at, "is 0x100000000");
    TB_EXPECT_AT(&r, "PERF-COUNTER-WIDTH", at, "width of 32 bits");
    char want[64];
    snprintf(want, sizeof want, "record starting at offset %llu", (unsigned long long)rec);
    TB_EXPECT_AT(&r, "PERF-COUNTER-WIDTH", at, want);
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
    TB_EXPECT_IDS(&r, "PERF-COUNTER-HIGH-ZERO");
    char want[64];
    snprintf(want, sizeof want, "high part of 0 at offset %llu", (unsigned long long)hi);
    TB_EXPECT_AT(&r, "PERF-COUNTER-HIGH-ZERO", at, want);
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
    TB_EXPECT_IDS(&r, "PERF-RECORD-TRUNCATED");
    TB_EXPECT_AT(&r, "PERF-RECORD-TRUNCATED", rec, "counter 2 of 3 (mask bit 1)");
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
    TB_EXPECT_IDS(&r, "PERF-MIXED-RECORDS");
    char want[64];
    snprintf(want, sizeof want, "the first at offset %llu", (unsigned long long)first);
    TB_EXPECT_AT(&r, "PERF-MIXED-RECORDS", at, want);
    TB_EXPECT_AT(&r, "PERF-MIXED-RECORDS", at, "timer ISR record");
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
    TB_EXPECT_IDS(&r, "PERF-RAW-BACKWARDS");
    TB_EXPECT_AT(&r, "PERF-RAW-BACKWARDS", at, "counter 2 of 2 (mask bit 1)");
    TB_EXPECT_AT(&r, "PERF-RAW-BACKWARDS", at, "is 0x190, lower than its previous value 0x1f4");
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
    TB_EXPECT_IDS(&r, "PERF-CALL-STACK");
    TB_EXPECT_AT(&r, "PERF-CALL-STACK", at,
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
    TB_EXPECT_IDS(&r, "PERF-CALL-STACK");
    TB_EXPECT_AT(&r, "PERF-CALL-STACK", at,
                 "leaves 0x300 for call site 0x21e, but the call it closes (depth 2) was entered "
                 "from call site 0x21a");
    tb_run_free(&r);

    tb_free(&b); /* the Doc's reading (current function, then callee) is not the writers' */
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0, 64);
    tb_record(&b, TC_PERF_FUNC_ENTRY, 0x100, 0x200, NULL, 0);
    at = tb_record(&b, TC_PERF_FUNC_EXIT, 0x200, 0x100, NULL, 0);
    tb_run_msgs(&b, NULL, &r);
    TB_EXPECT_IDS(&r, "PERF-CALL-STACK");
    TB_EXPECT_AT(&r, "PERF-CALL-STACK", at,
                 "leaves 0x200 (call site 0x100), but the innermost open "
                 "call is of 0x100, entered from call site 0x200");
    tb_run_free(&r);

    tb_free(&b); /* a new header forgets the open calls */
    tb_init(&b, 0);
    tb_header_w(&b, TC_PERF_RAW, 0, 64);
    tb_record(&b, TC_PERF_FUNC_ENTRY, 0x200, 0x110, NULL, 0);
    tb_header_w(&b, TC_PERF_RAW, 0, 64);
    tb_record(&b, TC_PERF_FUNC_EXIT, 0x300, 0x21a, NULL, 0);
    tb_run_msgs(&b, NULL, &r);
    TB_EXPECT_IDS(&r, "");
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
    TB_EXPECT_IDS(&r, "PERF-RECORD-TYPE");
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
    TB_EXPECT_IDS(&r, "");
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

void register_perf_sm_records_suite(void)
{
    tu_add_suite("perf_sm_records", tests);
}
