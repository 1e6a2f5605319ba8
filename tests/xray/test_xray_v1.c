/* Version 1 framing (ruling 4): fixed buffers of buffer_size bytes from their
 * NewBuffer, EndOfBuffer and the unread rest, buffers filled to the last
 * byte, the file size, records crossing a buffer's end. */
#include <stdio.h>
#include <string.h>

#include "../suites.h"
#include "../tu.h"
#include "xb.h"

#define BS 128

/* Three buffers: one ended by EndOfBuffer then garbage padding, one filled
 * to its last byte, one that ends right after its NewCPUId. */
static void three_buffers(xb *x, int be)
{
    xb_init(x, 1, be);
    xb_header(x, BS);
    xb_begin(x);
    xb_preamble(x, 11, 0, 1, 1000);
    xb_fn(x, XB_ENTER, 1, 10);
    xb_fn(x, XB_EXIT, 1, 5);
    xb_end(x, 0xFF); /* 0xFF...: unknown metadata kind 127 in either order if read */

    xb_begin(x);
    xb_preamble(x, 12, 0, 2, 2000);
    for (int i = 0; i < 10; i++)
        xb_fn(x, i % 2 ? XB_EXIT : XB_ENTER, 7, 1);
    CU_ASSERT_EQUAL(xb_len(x), 32 + 2 * BS); /* exactly full: no EndOfBuffer */
    x->open = 0;

    xb_begin(x);
    xb_preamble(x, 13, 0, 3, 3000);
    xb_end_of_buffer(x);
    /* Padding that would be errors if it were parsed: a BufferExtents, an
     * action-7 function record, a WallTimeMarker with bad microseconds. */
    xb_extents(x, 5);
    xb_fn(x, 7, 3, 0xFFFFFFFFu);
    xb_wall(x, 1, -1);
    xb_fill(x, 0x5A, 32 + 3 * BS - xb_len(x) - 8);
    xb_fn(x, XB_EXIT, 9, 9);
    x->open = 0;
    CU_ASSERT_EQUAL(xb_len(x), 32 + 3 * BS);
}

static void test_valid_buffers(void)
{
    for (int be = 0; be <= 1; be++) {
        xb x;
        three_buffers(&x, be);
        tu_result r = {0};
        xb_check(&x, 1, &r);
        CHECK(r.status == 0 && r.n == 0, "%s: status %d, findings %s", be ? "big" : "little",
              r.status, tu_describe(&r));
        CHECK(tu_dump_lines(&r) == 1 + 6 + 13 + 4, "%zu dump lines", tu_dump_lines(&r));
        EXPECT_DUMP_LINE(&r, 1, "{\"t\":\"new_buffer\",\"tid\":11}");
        EXPECT_DUMP_LINE(&r, 2, "{\"t\":\"wall_time\",\"sec\":\"1000\",\"usec\":5}");
        EXPECT_DUMP_LINE(&r, 3, "{\"t\":\"new_cpu\",\"cpu\":1,\"tsc\":\"1000\"}");
        EXPECT_DUMP_LINE(&r, 4, "{\"t\":\"function\",\"action\":\"enter\",\"func\":1,\"delta\":10,"
                                "\"cpu\":1,\"tsc\":\"1010\"}");
        EXPECT_DUMP_LINE(&r, 5, "{\"t\":\"function\",\"action\":\"exit\",\"func\":1,\"delta\":5,"
                                "\"cpu\":1,\"tsc\":\"1015\"}");
        EXPECT_DUMP_LINE(&r, 6, "{\"t\":\"end_of_buffer\"}");
        EXPECT_DUMP_LINE(&r, 7, "{\"t\":\"new_buffer\",\"tid\":12}");
        EXPECT_DUMP_LINE(&r, 19, "{\"t\":\"function\",\"action\":\"exit\",\"func\":7,\"delta\":1,"
                                 "\"cpu\":2,\"tsc\":\"2010\"}");
        EXPECT_DUMP_LINE(&r, 20, "{\"t\":\"new_buffer\",\"tid\":13}");
        EXPECT_DUMP_LINE(&r, 23, "{\"t\":\"end_of_buffer\"}");
        CU_ASSERT_EQUAL(r.sum.bytes, 32 + 3 * BS);
        tu_result_free(&r);
        xb_free(&x);
    }
}

static void test_end_of_buffer_exactly_at_end(void)
{
    xb x;
    xb_init(&x, 1, 0);
    xb_header(&x, 48 + 8 + 16);
    xb_begin(&x);
    xb_preamble(&x, 1, 0, 0, 5);
    xb_fn(&x, XB_ENTER, 1, 1);
    xb_end(&x, 0xEE); /* EndOfBuffer fills the last 16 bytes: no padding */
    CU_ASSERT_EQUAL(xb_len(&x), 32 + 72);
    /* buffer_size 48: buffers of the preamble alone. */
    tu_result r = {0};
    xb_check(&x, 1, &r);
    EXPECT_RULES(&r, "");
    xb_free(&x);
    xb_init(&x, 1, 1);
    xb_header(&x, 48);
    for (int i = 0; i < 3; i++) {
        xb_begin(&x);
        xb_preamble(&x, i, 0, 0, 5);
    }
    xb_check(&x, 1, &r);
    EXPECT_RULES(&r, "");
    CU_ASSERT_EQUAL(tu_dump_lines(&r), 10);
    tu_result_free(&r);
    xb_free(&x);
}

static void test_file_size(void)
{
    xb x;
    three_buffers(&x, 0);
    tu_result r = {0};
    /* The third buffer cut: after 40 bytes (inside NewCPUId), after 48 (a
     * record boundary), inside the EndOfBuffer padding. */
    static const size_t keep[] = {40, 48, 70, 127, 1};
    for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++) {
        size_t len = 32 + 2 * BS + keep[i];
        tu_check_memory(xb_data(&x), len, NULL, &r);
        CHECK(r.status == 1, "cut to %zu: status %d", len, r.status);
        EXPECT_RULES(&r, "XRAY-V1-FILE-SIZE");
        EXPECT_OFFSET(&r, "XRAY-V1-FILE-SIZE", 32 + 2 * BS);
        char needle[160];
        snprintf(needle, sizeof needle, "the data section is %zu bytes, not a multiple of "
                 "buffer_size %d: the last buffer has %zu of its bytes", 2 * BS + keep[i], BS,
                 keep[i]);
        EXPECT_MESSAGE(&r, "XRAY-V1-FILE-SIZE", needle);
    }
    /* buffer_size far above the file, up to the largest. */
    static const uint64_t huge[] = {1ull << 40, UINT64_MAX - 31, UINT64_MAX};
    for (size_t i = 0; i < sizeof huge / sizeof huge[0]; i++) {
        xb_free(&x);
        xb_init(&x, 1, (int)i & 1);
        xb_header(&x, huge[i]);
        xb_preamble(&x, 1, 0, 0, 1);
        xb_end_of_buffer(&x);
        xb_fill(&x, 0xFF, 40);
        xb_check(&x, 0, &r);
        EXPECT_RULES(&r, "XRAY-V1-FILE-SIZE");
    }
    tu_result_free(&r);
    xb_free(&x);
}

static void test_buffer_size_too_small(void)
{
    static const uint64_t sizes[] = {0, 1, 16, 47};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        xb x;
        xb_init(&x, 1, 0);
        xb_header(&x, sizes[i]);
        tu_result r = {0};
        xb_check(&x, 0, &r); /* header-only: buffer_size is still wrong */
        EXPECT_RULES(&r, "XRAY-V1-BUFFER-SIZE");
        EXPECT_OFFSET(&r, "XRAY-V1-BUFFER-SIZE", 16);
        /* With data: the data is not read, so nothing else is reported. */
        xb_preamble(&x, 1, 0, 0, 1);
        xb_fn(&x, 6, 1, 1);
        xb_check(&x, 0, &r);
        EXPECT_RULES(&r, "XRAY-V1-BUFFER-SIZE");
        char needle[40];
        snprintf(needle, sizeof needle, "buffer_size is %llu", (unsigned long long)sizes[i]);
        EXPECT_MESSAGE(&r, "XRAY-V1-BUFFER-SIZE", needle);
        tu_result_free(&r);
        xb_free(&x);
    }
}

static void test_record_crosses_buffer(void)
{
    for (int be = 0; be <= 1; be++) {
        xb x;
        xb_init(&x, 1, be);
        xb_header(&x, BS);
        xb_begin(&x);
        xb_preamble(&x, 1, 0, 0, 100);
        for (int i = 0; i < 9; i++)
            xb_fn(&x, XB_ENTER, 1, 1);
        /* 8 bytes left: a 16-byte TSCWrap starts here and would end 8 bytes
         * into the next buffer. */
        xb_tsc_wrap(&x, 5000);
        xb_free(&x);
        /* The same, with the next buffer where it belongs. */
        xb_init(&x, 1, be);
        xb_header(&x, BS);
        xb_begin(&x);
        xb_preamble(&x, 1, 0, 0, 100);
        for (int i = 0; i < 9; i++)
            xb_fn(&x, XB_ENTER, 1, 1);
        uint8_t tag = xb_tag(&x, XB_TSC_WRAP);
        xb_raw(&x, &tag, 1);
        xb_fill(&x, 0, 7);
        x.open = 0;
        xb_begin(&x);
        xb_preamble(&x, 2, 0, 0, 200);
        xb_fn(&x, XB_ENTER, 2, 1);
        xb_end(&x, 0);
        tu_result r = {0};
        xb_check(&x, 0, &r);
        EXPECT_RULES(&r, "XRAY-V1-RECORD-CROSSES-BUFFER");
        EXPECT_OFFSET(&r, "XRAY-V1-RECORD-CROSSES-BUFFER", 32 + 120);
        EXPECT_MESSAGE(&r, "XRAY-V1-RECORD-CROSSES-BUFFER", "starts 8 bytes before the end");
        /* Reading resumed at the next buffer. */
        CU_ASSERT_EQUAL(tu_count(&r, "XRAY-PREAMBLE-ORDER"), 0);
        EXPECT_DUMP_LINE(&r, 13, "{\"t\":\"new_buffer\",\"tid\":2}");
        EXPECT_DUMP_LINE(&r, 16, "{\"t\":\"function\",\"action\":\"enter\",\"func\":2,\"delta\":1,"
                                 "\"cpu\":0,\"tsc\":\"201\"}");
        tu_result_free(&r);
        xb_free(&x);
    }
}

/* A function record with 4 bytes left in its buffer. */
static void test_function_crosses_buffer(void)
{
    xb x;
    xb_init(&x, 1, 0);
    xb_header(&x, 124);
    xb_begin(&x);
    xb_preamble(&x, 1, 0, 0, 100);
    for (int i = 0; i < 9; i++)
        xb_fn(&x, XB_ENTER, 1, 1);
    xb_fn(&x, XB_EXIT, 1, 1);
    x.b.len -= 4;
    x.open = 0;
    xb_begin(&x);
    xb_preamble(&x, 2, 0, 0, 200);
    xb_end(&x, 0);
    tu_result r = {0};
    xb_check(&x, 0, &r);
    EXPECT_RULES(&r, "XRAY-V1-RECORD-CROSSES-BUFFER");
    EXPECT_OFFSET(&r, "XRAY-V1-RECORD-CROSSES-BUFFER", 32 + 120);
    EXPECT_MESSAGE(&r, "XRAY-V1-RECORD-CROSSES-BUFFER",
                   "function record (8 bytes) starts 4 bytes before the end of its 124-byte buffer");
    tu_result_free(&r);
    xb_free(&x);
}

/* A custom event whose payload would run into the next buffer. */
static void test_payload_crosses_buffer(void)
{
    xb x;
    xb_init(&x, 1, 0);
    xb_header(&x, BS);
    xb_begin(&x);
    xb_preamble(&x, 1, 0, 0, 100);
    xb_custom(&x, 80, 150, 0, NULL, 0); /* 48 + 16 + 80 > 128 */
    xb_fill(&x, 0x41, 64);
    x.open = 0;
    xb_simple_buffer(&x, 2, 0, 300);
    tu_result r = {0};
    xb_check(&x, 0, &r);
    EXPECT_RULES(&r, "XRAY-EVENT-PAYLOAD-OVERFLOW");
    EXPECT_MESSAGE(&r, "XRAY-EVENT-PAYLOAD-OVERFLOW", "announces 80 payload bytes, but the buffer has 64 left");
    /* The event is not decoded; the second buffer is read from its start. */
    EXPECT_DUMP_LINE(&r, 4, "{\"t\":\"new_buffer\",\"tid\":2}");
    tu_result_free(&r);
    xb_free(&x);
}

static const tu_test tests[] = {
    {"EndOfBuffer, full buffer, padding unread", test_valid_buffers},
    {"EndOfBuffer at the very end; 48-byte buffers", test_end_of_buffer_exactly_at_end},
    {"file size not a multiple", test_file_size},
    {"buffer_size below 48", test_buffer_size_too_small},
    {"record crossing a buffer", test_record_crosses_buffer},
    {"function record crossing a buffer", test_function_crosses_buffer},
    {"event payload crossing a buffer", test_payload_crosses_buffer},
    {NULL, NULL},
};

void register_xray_v1_suite(void) { tu_add_suite("xray_v1", tests); }
