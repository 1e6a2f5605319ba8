/* Values (rulings 3, 9, 10, 11): wall-time microseconds, the call-stack
 * discipline, large TSC deltas, the TSC going backwards, the reconstructed
 * TSC in the dump, reserved bytes of records. */
#include <stdio.h>
#include <string.h>

#include "../suites.h"
#include "../tu.h"
#include "xb.h"

static void begin_buffer(xb *x, unsigned v, int be)
{
    xb_init(x, v, be);
    xb_header(x, 1 << 16);
    xb_begin(x);
    xb_preamble(x, 1, 2, 3, 1000);
}

static void test_wall_time_usec(void)
{
    static const struct { int32_t usec; int ok; } cases[] = {
        {0, 1}, {999999, 1}, {1000000, 0}, {-1, 0}, {INT32_MAX, 0}, {INT32_MIN, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (unsigned v = 1; v <= 5; v += 2) {
            xb x;
            xb_init(&x, v, (int)i & 1);
            xb_header(&x, 4096);
            xb_begin(&x);
            xb_new_buffer(&x, 1);
            size_t at = xb_len(&x);
            xb_wall(&x, -5, cases[i].usec);
            if (v >= 3)
                xb_pid(&x, 2);
            xb_new_cpu(&x, 0, 1);
            xb_end(&x, 0);
            tu_result r = {0};
            xb_check(&x, 0, &r);
            char line[100];
            snprintf(line, sizeof line, "{\"t\":\"wall_time\",\"sec\":\"-5\",\"usec\":%d}",
                     (int)cases[i].usec);
            EXPECT_DUMP_LINE(&r, v == 1 ? 2 : 3, line);
            if (cases[i].ok) {
                EXPECT_RULES(&r, "");
            } else {
                EXPECT_RULES(&r, "XRAY-WALLTIME-USEC");
                EXPECT_OFFSET(&r, "XRAY-WALLTIME-USEC", at + 9);
                char needle[100];
                snprintf(needle, sizeof needle, "microseconds are %d; 0 to 999999 are valid "
                         "(seconds -5)", (int)cases[i].usec);
                EXPECT_MESSAGE(&r, "XRAY-WALLTIME-USEC", needle);
            }
            tu_result_free(&r);
            xb_free(&x);
        }
}

static void test_callstack(void)
{
    for (int be = 0; be <= 1; be++) {
        xb x;
        begin_buffer(&x, 5, be);
        /* The buffer starts mid-stack: exits with nothing open are fine. */
        xb_fn(&x, XB_EXIT, 50, 1);
        xb_fn(&x, XB_TAIL_EXIT, 51, 1);
        /* Matched, with arguments and a tail call. */
        xb_fn(&x, XB_ENTER, 1, 1);
        xb_fn(&x, XB_ENTER_ARGS, 2, 1);
        xb_arg(&x, 9);
        xb_fn(&x, XB_TAIL_EXIT, 2, 1);
        xb_fn(&x, XB_EXIT, 1, 1);
        /* Exit(2) while 1 is innermost. */
        xb_fn(&x, XB_ENTER, 1, 1);
        size_t first = xb_len(&x);
        xb_fn(&x, XB_EXIT, 2, 1);
        xb_fn(&x, XB_EXIT, 1, 1);
        /* Exit(1) under Entry(2): it closes both (unwinds), so the Exit(7)
         * after finds nothing open. */
        xb_fn(&x, XB_ENTER, 1, 1);
        xb_fn(&x, XB_ENTER, 2, 1);
        size_t second = xb_len(&x);
        xb_fn(&x, XB_TAIL_EXIT, 1, 1);
        xb_fn(&x, XB_EXIT, 7, 1);
        xb_end(&x, 0);
        /* Buffers start afresh: an Exit of what buffer 1 left open is not
         * checked against it. */
        xb_begin(&x);
        xb_preamble(&x, 1, 2, 3, 5000);
        xb_fn(&x, XB_ENTER, 8, 1);
        xb_end(&x, 0);
        xb_begin(&x);
        xb_preamble(&x, 1, 2, 3, 6000);
        xb_fn(&x, XB_EXIT, 9, 1);
        xb_end(&x, 0);
        tu_result r = {0};
        xb_check(&x, 0, &r);
        EXPECT_RULES(&r, "XRAY-CALLSTACK-MISMATCH XRAY-CALLSTACK-MISMATCH");
        CU_ASSERT_EQUAL(r.status, 0); /* warnings */
        if (r.n == 2) {
            CU_ASSERT_EQUAL(r.d[0].offset, first);
            CU_ASSERT_EQUAL(r.d[1].offset, second);
            char needle[120];
            snprintf(needle, sizeof needle, "Exit of function 2, but the innermost open Entry "
                     "is of function 1 (at offset %zu)", first - 8);
            EXPECT_MESSAGE(&r, "XRAY-CALLSTACK-MISMATCH", needle);
            EXPECT_MESSAGE(&r, "XRAY-CALLSTACK-MISMATCH", "Tail_Exit of function 1, but the innermost open Entry is of function 2");
        }
        tu_result_free(&r);
        xb_free(&x);
    }
}

/* Stacks deeper than the 1024 frames tracked: no crash, no false report. */
static void test_deep_stack(void)
{
    xb x;
    begin_buffer(&x, 5, 0);
    for (uint32_t f = 1; f <= 3000; f++)
        xb_fn(&x, XB_ENTER, f, 1);
    for (uint32_t f = 3000; f >= 1; f--)
        xb_fn(&x, XB_EXIT, f, 1);
    xb_end(&x, 0);
    tu_result r = {0};
    xb_check(&x, 0, &r);
    EXPECT_RULES(&r, "");
    CU_ASSERT_EQUAL(tu_dump_lines(&r), 6 + 6000);
    xb_free(&x);

    /* Deep and wrong: findings, capped, and still no crash. */
    begin_buffer(&x, 5, 1);
    for (uint32_t f = 1; f <= 2000; f++)
        xb_fn(&x, XB_ENTER, f, 1);
    for (uint32_t f = 1; f <= 2100; f++)
        xb_fn(&x, XB_EXIT, f, 1); /* the wrong order */
    for (uint32_t f = 1; f <= 1500; f++)
        xb_fn(&x, XB_ENTER_ARGS, f, 1);
    xb_end(&x, 0);
    xb_check(&x, 0, &r);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT(tu_count(&r, "XRAY-CALLSTACK-MISMATCH") >= 1);
    CU_ASSERT(tu_count(&r, "XRAY-CALLSTACK-MISMATCH") <= 20);
    CU_ASSERT_EQUAL(r.sum.errors, 0);
    tu_result_free(&r);
    xb_free(&x);
}

static void test_tsc_delta_large(void)
{
    static const struct { uint32_t delta; int warn; } cases[] = {
        {INT32_MAX, 0}, {0x80000000u, 1}, {UINT32_MAX, 1}, {0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        xb x;
        begin_buffer(&x, 1 + (unsigned)i, (int)i & 1);
        size_t at = xb_len(&x);
        xb_fn(&x, XB_ENTER, 1, cases[i].delta);
        xb_end(&x, 0);
        tu_result r = {0};
        xb_check(&x, 0, &r);
        CU_ASSERT_EQUAL(r.status, 0);
        if (cases[i].warn) {
            EXPECT_RULES(&r, "XRAY-TSC-DELTA-LARGE");
            EXPECT_OFFSET(&r, "XRAY-TSC-DELTA-LARGE", at + 4);
            char needle[80];
            snprintf(needle, sizeof needle, "TSC delta %u (0x%08x) is above INT32_MAX",
                     cases[i].delta, cases[i].delta);
            EXPECT_MESSAGE(&r, "XRAY-TSC-DELTA-LARGE", needle);
        } else {
            EXPECT_RULES(&r, "");
        }
        tu_result_free(&r);
        xb_free(&x);
    }
}

static void test_tsc_backwards(void)
{
    xb x;
    begin_buffer(&x, 4, 0);            /* CPU 3 at 1000 */
    xb_fn(&x, XB_ENTER, 1, 500);       /* 1500 */
    size_t wrap = xb_len(&x);
    xb_tsc_wrap(&x, 1400);             /* below 1500 */
    xb_new_cpu(&x, 4, 10);             /* another CPU, lower: fine */
    xb_fn(&x, XB_EXIT, 1, 5);          /* CPU 4 at 15 */
    xb_new_cpu(&x, 3, 1450);           /* CPU 3 back, above 1400: fine */
    xb_new_cpu(&x, 4, 20);             /* CPU 4 back, above 15: fine */
    size_t cpu = xb_len(&x);
    xb_new_cpu(&x, 3, 1200);           /* CPU 3 again, below 1450 */
    xb_tsc_wrap(&x, 1200);             /* equal: fine */
    xb_end(&x, 0);
    /* Each buffer starts afresh. */
    xb_begin(&x);
    xb_preamble(&x, 1, 2, 3, 5);
    xb_end(&x, 0);
    tu_result r = {0};
    xb_check(&x, 0, &r);
    EXPECT_RULES(&r, "XRAY-TSC-BACKWARDS XRAY-TSC-BACKWARDS");
    CU_ASSERT_EQUAL(r.status, 0);
    EXPECT_OFFSET(&r, "XRAY-TSC-BACKWARDS", wrap + 1);
    EXPECT_OFFSET(&r, "XRAY-TSC-BACKWARDS", cpu + 3);
    EXPECT_MESSAGE(&r, "XRAY-TSC-BACKWARDS", "TSCWrap sets the TSC to 1400, below the 1500 reached on CPU 3");
    EXPECT_MESSAGE(&r, "XRAY-TSC-BACKWARDS", "NewCPUId sets CPU 3's TSC to 1200, below the 1450 it reached earlier");
    tu_result_free(&r);
    xb_free(&x);
}

/* The canonical dump's reconstructed TSC: the last NewCPUId or TSCWrap value
 * plus the deltas since, modulo 2^64, per buffer. */
static void test_reconstructed_tsc(void)
{
    for (int be = 0; be <= 1; be++) {
        xb x;
        begin_buffer(&x, 3, be);
        xb_fn(&x, XB_ENTER, 1, 10);
        xb_fn(&x, XB_EXIT, 1, 20);
        xb_tsc_wrap(&x, 5000);
        xb_fn(&x, XB_ENTER, 2, 1);
        xb_new_cpu(&x, 4, 2000);
        xb_fn(&x, XB_EXIT, 2, 5);
        xb_new_cpu(&x, 3, 6000);
        xb_fn(&x, XB_ENTER, 3, 1);
        xb_new_cpu(&x, 5, UINT64_MAX - 5);
        xb_fn(&x, XB_EXIT, 3, 10);
        xb_end(&x, 0);
        xb_begin(&x);
        xb_preamble(&x, 9, 2, 3, 100);
        xb_fn(&x, XB_ENTER, 4, 1);
        xb_end(&x, 0);
        tu_result r = {0};
        xb_check(&x, 0, &r);
        EXPECT_RULES(&r, "");
        static const char *const lines[] = {
            "{\"t\":\"new_cpu\",\"cpu\":3,\"tsc\":\"1000\"}",
            "{\"t\":\"function\",\"action\":\"enter\",\"func\":1,\"delta\":10,\"cpu\":3,\"tsc\":\"1010\"}",
            "{\"t\":\"function\",\"action\":\"exit\",\"func\":1,\"delta\":20,\"cpu\":3,\"tsc\":\"1030\"}",
            "{\"t\":\"tsc_wrap\",\"tsc\":\"5000\"}",
            "{\"t\":\"function\",\"action\":\"enter\",\"func\":2,\"delta\":1,\"cpu\":3,\"tsc\":\"5001\"}",
            "{\"t\":\"new_cpu\",\"cpu\":4,\"tsc\":\"2000\"}",
            "{\"t\":\"function\",\"action\":\"exit\",\"func\":2,\"delta\":5,\"cpu\":4,\"tsc\":\"2005\"}",
            "{\"t\":\"new_cpu\",\"cpu\":3,\"tsc\":\"6000\"}",
            "{\"t\":\"function\",\"action\":\"enter\",\"func\":3,\"delta\":1,\"cpu\":3,\"tsc\":\"6001\"}",
            "{\"t\":\"new_cpu\",\"cpu\":5,\"tsc\":\"18446744073709551610\"}",
            "{\"t\":\"function\",\"action\":\"exit\",\"func\":3,\"delta\":10,\"cpu\":5,\"tsc\":\"4\"}",
            "{\"t\":\"buffer_extents\",\"size\":\"72\"}",
            "{\"t\":\"new_buffer\",\"tid\":9}",
            "{\"t\":\"wall_time\",\"sec\":\"1000\",\"usec\":5}",
            "{\"t\":\"pid\",\"pid\":2}",
            "{\"t\":\"new_cpu\",\"cpu\":3,\"tsc\":\"100\"}",
            "{\"t\":\"function\",\"action\":\"enter\",\"func\":4,\"delta\":1,\"cpu\":3,\"tsc\":\"101\"}",
        };
        for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
            EXPECT_DUMP_LINE(&r, 5 + i, lines[i]);
        CU_ASSERT_EQUAL(tu_dump_lines(&r), 5 + sizeof lines / sizeof lines[0]);
        tu_result_free(&r);
        xb_free(&x);
    }
}

/* Before a buffer's first NewCPUId, cpu and tsc are 0 (the preamble error
 * aside). */
static void test_tsc_before_new_cpu(void)
{
    xb x;
    xb_init(&x, 2, 0);
    xb_header(&x, 4096);
    xb_begin(&x);
    xb_new_buffer(&x, 1);
    xb_wall(&x, 1, 1);
    xb_fn(&x, XB_ENTER, 1, 7);
    xb_end(&x, 0);
    tu_result r = {0};
    xb_check(&x, 0, &r);
    EXPECT_RULES(&r, "XRAY-PREAMBLE-ORDER");
    EXPECT_DUMP_LINE(&r, 4, "{\"t\":\"function\",\"action\":\"enter\",\"func\":1,\"delta\":7,"
                            "\"cpu\":0,\"tsc\":\"7\"}");
    tu_result_free(&r);
    xb_free(&x);
}

/* Reserved bytes of each metadata record: a note with --pedantic only, at
 * the first reserved byte; used bytes are not reserved. */
static void test_reserved_bytes(void)
{
    enum { NB, WT, PID, CPU, WRAP, ARG, EXT, EOB, CUSTOM, TYPED, KINDS };
    static const char *const names[KINDS] = {"NewBuffer", "WallTimeMarker", "PIDEntry",
                                             "NewCPUId", "TSCWrap", "CallArgument",
                                             "BufferExtents", "EndOfBuffer",
                                             "CustomEventMarker", "TypedEventMarker"};
    for (unsigned v = 1; v <= 5; v++)
        for (int k = 0; k < KINDS; k++)
            for (int be = 0; be <= 1; be++) {
                if ((k == PID && v < 3) || (k == EXT && v < 2) || (k == EOB && v > 1) ||
                    (k == TYPED && v < 5))
                    continue;
                xb x;
                xb_init(&x, v, be);
                xb_header(&x, 256);
                size_t start = xb_begin(&x), at = 0;
                unsigned used = 0;
                if (k == EXT) {
                    at = start;
                    used = 8;
                }
                if (k == NB)
                    at = xb_len(&x), used = 4;
                xb_new_buffer(&x, 0x7FFFFFFF); /* every used byte non-zero */
                if (k == WT)
                    at = xb_len(&x), used = 12;
                xb_wall(&x, -1, 999999);
                if (v >= 3) {
                    if (k == PID)
                        at = xb_len(&x), used = 4;
                    xb_pid(&x, -1);
                }
                if (k == CPU)
                    at = xb_len(&x), used = 10;
                xb_new_cpu(&x, 0xFFFF, 1000);
                xb_fn(&x, XB_ENTER_ARGS, 1, 1);
                if (k == ARG)
                    at = xb_len(&x), used = 8;
                xb_arg(&x, UINT64_MAX);
                if (k == WRAP)
                    at = xb_len(&x), used = 8;
                xb_tsc_wrap(&x, 2000);
                if (k == CUSTOM) {
                    at = xb_len(&x);
                    used = v >= 5 ? 8 : v == 4 ? 14 : 12;
                    xb_custom(&x, 1, v >= 5 ? 1 : 3000, 0xFFFF, "z", 1);
                }
                if (k == TYPED) {
                    at = xb_len(&x), used = 10;
                    xb_typed(&x, 1, 1, 0xFFFF, "z", 1);
                }
                if (k == EOB) {
                    at = xb_len(&x), used = 0;
                }
                xb_end(&x, 0);
                /* Without a change: no note even with --pedantic. */
                tu_result r = {0};
                xb_check(&x, 1, &r);
                CHECK(r.n == 0, "v%u %s unchanged: %s", v, names[k], tu_describe(&r));
                /* The last data byte is reserved in every record. */
                x.b.p[at + 15] = 0xA5;
                xb_check(&x, 0, &r);
                CHECK(r.n == 0 && r.status == 0, "v%u %s without --pedantic: %s", v, names[k],
                      tu_describe(&r));
                xb_check(&x, 1, &r);
                CHECK(r.n == 1 && !strcmp(r.d[0].rule->id, "XRAY-RECORD-RESERVED-NONZERO") &&
                          r.d[0].offset == at + 1 + used && r.d[0].severity == TC_NOTE &&
                          strstr(r.d[0].message, names[k]),
                      "v%u %s %s with --pedantic: expected a note at %zu, got %s (%s)", v,
                      names[k], be ? "big" : "little", at + 1 + used, tu_describe(&r),
                      r.n ? r.d[0].message : "");
                CU_ASSERT_EQUAL(r.status, 0);
                /* The first reserved byte too. */
                x.b.p[at + 15] = 0;
                if (used < 15) {
                    x.b.p[at + 1 + used] = 1;
                    xb_check(&x, 1, &r);
                    CHECK(r.n == 1 && r.d[0].offset == at + 1 + used,
                          "v%u %s first reserved byte: %s", v, names[k], tu_describe(&r));
                }
                tu_result_free(&r);
                xb_free(&x);
            }
}

static const tu_test tests[] = {
    {"wall time microseconds", test_wall_time_usec},
    {"call-stack warnings", test_callstack},
    {"stacks deeper than 1024 frames", test_deep_stack},
    {"TSC delta above INT32_MAX", test_tsc_delta_large},
    {"TSC backwards", test_tsc_backwards},
    {"reconstructed TSC in the dump", test_reconstructed_tsc},
    {"TSC before the first NewCPUId", test_tsc_before_new_cpu},
    {"reserved bytes only with --pedantic", test_reserved_bytes},
    {NULL, NULL},
};

void register_xray_values_suite(void) { tu_add_suite("xray_values", tests); }
