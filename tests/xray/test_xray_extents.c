/* Version 2+ framing (ruling 5): BufferExtents(n) then exactly n bytes;
 * garbage between and after buffers and the resynchronisation message;
 * extents past the end of the file, beyond 2^32, too small (the buffer cut
 * short, or records going on past its end), the typed-event hint, and
 * buffers larger than buffer_size. */
#include <stdio.h>
#include <string.h>

#include "../suites.h"
#include "../tu.h"
#include "xb.h"

static void test_valid_buffers(void)
{
    for (unsigned v = 2; v <= 5; v++)
        for (int be = 0; be <= 1; be++) {
            xb x;
            xb_init(&x, v, be);
            xb_header(&x, 4096);
            for (int i = 0; i < 3; i++)
                xb_simple_buffer(&x, i + 1, (uint16_t)i, 1000u * (unsigned)(i + 1));
            tu_result r = {0};
            xb_check(&x, 1, &r);
            CHECK(r.status == 0 && r.n == 0, "v%u %s: %s", v, be ? "big" : "little",
                  tu_describe(&r));
            size_t per = 1 + (v >= 3 ? 4 : 3) + 5; /* extents, preamble, body */
            CU_ASSERT_EQUAL(tu_dump_lines(&r), 1 + 3 * per);
            char line[80];
            snprintf(line, sizeof line, "{\"t\":\"buffer_extents\",\"size\":\"%d\"}",
                     (v >= 3 ? 64 : 48) + 4 * 8 + 16);
            EXPECT_DUMP_LINE(&r, 1, line);
            tu_result_free(&r);
            xb_free(&x);
        }
}

static void test_garbage_between_buffers(void)
{
    for (int be = 0; be <= 1; be++) {
        xb x;
        xb_init(&x, 5, be);
        xb_header(&x, 4096);
        xb_simple_buffer(&x, 1, 0, 100);
        size_t garbage_at = xb_len(&x);
        xb_raw(&x, "GARBAGE!", 8);
        /* A decoy: the BufferExtents tag, but no NewBuffer 16 bytes on. */
        uint8_t tag = xb_tag(&x, XB_BUFFER_EXTENTS);
        xb_raw(&x, &tag, 1);
        xb_fill(&x, 0, 20);
        size_t second = xb_len(&x);
        xb_simple_buffer(&x, 2, 0, 200);
        tu_result r = {0};
        xb_check(&x, 0, &r);
        EXPECT_RULES(&r, "XRAY-EXTENTS-EXPECTED");
        EXPECT_OFFSET(&r, "XRAY-EXTENTS-EXPECTED", garbage_at);
        char needle[160];
        snprintf(needle, sizeof needle, "found first byte 0x47; 29 bytes skipped to the next "
                 "buffer at offset %zu", second);
        EXPECT_MESSAGE(&r, "XRAY-EXTENTS-EXPECTED", needle);
        /* The finding is between buffers: no buffer context. */
        const tu_diag *d = tu_find(&r, "XRAY-EXTENTS-EXPECTED");
        CHECK(d && !d->context, "context: %s", d && d->context ? d->context : "(none)");
        /* The second buffer is decoded in full. */
        EXPECT_DUMP_LINE(&r, 11, "{\"t\":\"buffer_extents\",\"size\":\"112\"}");
        EXPECT_DUMP_LINE(&r, 12, "{\"t\":\"new_buffer\",\"tid\":2}");
        CU_ASSERT_EQUAL(tu_dump_lines(&r), 21);
        tu_result_free(&r);
        xb_free(&x);
    }
}

static void test_garbage_after_last_buffer(void)
{
    xb x;
    xb_init(&x, 4, 0);
    xb_header(&x, 4096);
    xb_simple_buffer(&x, 1, 0, 100);
    size_t at = xb_len(&x);
    static const uint8_t tail[5] = {0xAB, 0x0F, 0x01, 0x0F, 0x0F};
    xb_raw(&x, tail, sizeof tail);
    tu_result r = {0};
    xb_check(&x, 0, &r);
    EXPECT_RULES(&r, "XRAY-EXTENTS-EXPECTED");
    EXPECT_OFFSET(&r, "XRAY-EXTENTS-EXPECTED", at);
    EXPECT_MESSAGE(&r, "XRAY-EXTENTS-EXPECTED", "5 bytes after the last buffer (first byte 0xab)");
    CU_ASSERT_EQUAL(r.sum.bytes, xb_len(&x));
    xb_free(&x);
    /* Right after the header. */
    xb_init(&x, 3, 1);
    xb_header(&x, 4096);
    xb_raw(&x, "\x01\x02\x03", 3);
    xb_check(&x, 0, &r);
    EXPECT_RULES(&r, "XRAY-EXTENTS-EXPECTED");
    EXPECT_OFFSET(&r, "XRAY-EXTENTS-EXPECTED", 32);
    EXPECT_MESSAGE(&r, "XRAY-EXTENTS-EXPECTED", "3 bytes after the last buffer");
    tu_result_free(&r);
    xb_free(&x);
}

static void test_extents_past_eof(void)
{
    xb x;
    xb_init(&x, 5, 0);
    xb_header(&x, 16384);
    xb_simple_buffer(&x, 1, 0, 100);
    size_t at = xb_begin(&x);
    xb_preamble(&x, 2, 3, 0, 100);
    xb_fn(&x, XB_ENTER, 1, 1);
    xb_set64(&x, at + 1, 1000);
    x.open = 0;
    tu_result r = {0};
    xb_check(&x, 0, &r);
    EXPECT_RULES(&r, "XRAY-EXTENTS-PAST-EOF");
    EXPECT_OFFSET(&r, "XRAY-EXTENTS-PAST-EOF", at + 1);
    EXPECT_MESSAGE(&r, "XRAY-EXTENTS-PAST-EOF", "announces 1000 bytes, but the file ends 72 bytes after the record");
    /* What is there is decoded. */
    EXPECT_DUMP_LINE(&r, 16, "{\"t\":\"function\",\"action\":\"enter\",\"func\":1,\"delta\":1,"
                             "\"cpu\":0,\"tsc\":\"101\"}");
    /* Cut inside a record or inside the preamble: the same single finding. */
    static const size_t cuts[] = {5, 20, 70};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        tu_check_memory(xb_data(&x), at + 16 + cuts[i], NULL, &r);
        EXPECT_RULES(&r, "XRAY-EXTENTS-PAST-EOF");
    }
    /* The BufferExtents record itself cut short. */
    tu_check_memory(xb_data(&x), at + 10, NULL, &r);
    CHECK(r.status == 1 && r.n == 1, "extents record cut: %s", tu_describe(&r));
    tu_result_free(&r);
    xb_free(&x);
}

/* All 64 bits of the size count: LLVM 14 truncates them to 32. */
static void test_extents_over_32_bits(void)
{
    static const uint64_t sizes[] = {(1ull << 32) + 48, UINT64_MAX, UINT64_MAX - 15, 1ull << 63};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        xb x;
        xb_init(&x, 3, 0);
        xb_header(&x, 16384);
        size_t at = xb_begin(&x);
        xb_new_buffer(&x, 1);
        xb_wall(&x, 1, 1);
        xb_pid(&x, 1);
        /* 48 bytes follow: exactly the low 32 bits of the first size. */
        xb_set64(&x, at + 1, sizes[i]);
        x.open = 0;
        tu_result r = {0};
        xb_check(&x, 0, &r);
        EXPECT_RULES(&r, "XRAY-EXTENTS-OVER-BUFFER-SIZE XRAY-EXTENTS-PAST-EOF");
        char needle[80];
        snprintf(needle, sizeof needle, "announces %llu bytes", (unsigned long long)sizes[i]);
        EXPECT_MESSAGE(&r, "XRAY-EXTENTS-PAST-EOF", needle);
        CU_ASSERT_EQUAL(r.status, 1);
        tu_result_free(&r);
        xb_free(&x);
    }
}

/* Extents 4 bytes short, and the next buffer starts at that short end: the
 * buffer's last record was cut. */
static void test_extents_too_small_cut(void)
{
    for (int be = 0; be <= 1; be++) {
        xb x;
        xb_init(&x, 5, be);
        xb_header(&x, 4096);
        size_t at = xb_begin(&x);
        xb_preamble(&x, 1, 2, 0, 100);
        xb_fn(&x, XB_ENTER, 1, 1);
        size_t cut_at = xb_len(&x);
        xb_fn(&x, XB_EXIT, 1, 1);
        x.b.len -= 4; /* the Exit loses its delta */
        xb_end(&x, 0);
        xb_simple_buffer(&x, 2, 0, 500);
        tu_result r = {0};
        xb_check(&x, 0, &r);
        EXPECT_RULES(&r, "XRAY-RECORD-PAST-EXTENTS");
        EXPECT_OFFSET(&r, "XRAY-RECORD-PAST-EXTENTS", cut_at);
        char needle[200];
        snprintf(needle, sizeof needle, "runs past the buffer's end at %zu (BufferExtents at "
                 "%zu), where the next buffer starts: the buffer lacks at least 4 bytes",
                 cut_at + 4, at);
        EXPECT_MESSAGE(&r, "XRAY-RECORD-PAST-EXTENTS", needle);
        /* The next buffer is read as usual. */
        EXPECT_DUMP_LINE(&r, 7, "{\"t\":\"buffer_extents\",\"size\":\"112\"}");
        CU_ASSERT_EQUAL(tu_dump_lines(&r), 7 + 10);
        tu_result_free(&r);
        xb_free(&x);
    }
}

/* The last buffer cut short: the file ends where the extents say, inside a
 * record. */
static void test_extents_too_small_cut_at_eof(void)
{
    xb x;
    xb_init(&x, 3, 1);
    xb_header(&x, 4096);
    xb_begin(&x);
    xb_preamble(&x, 1, 2, 0, 100);
    size_t at = xb_len(&x);
    xb_tsc_wrap(&x, 500);
    x.b.len -= 10; /* 6 bytes of the TSCWrap are there */
    xb_end(&x, 0);
    tu_result r = {0};
    xb_check(&x, 0, &r);
    EXPECT_RULES(&r, "XRAY-RECORD-PAST-EXTENTS");
    EXPECT_OFFSET(&r, "XRAY-RECORD-PAST-EXTENTS", at);
    EXPECT_MESSAGE(&r, "XRAY-RECORD-PAST-EXTENTS", "the buffer lacks at least 10 bytes");
    CU_ASSERT_EQUAL(r.sum.bytes, xb_len(&x));
    tu_result_free(&r);
    xb_free(&x);
}

/* Extents too small and the records go on: the parser follows them to the
 * next BufferExtents and reports once. */
static void test_extents_too_small_following(void)
{
    static const unsigned short_by[] = {4, 12, 20, 1};
    for (size_t i = 0; i < sizeof short_by / sizeof short_by[0]; i++) {
        xb x;
        xb_init(&x, 4, 0);
        xb_header(&x, 4096);
        size_t at = xb_begin(&x);
        xb_preamble(&x, 1, 2, 0, 100);
        for (int k = 0; k < 4; k++)
            xb_fn(&x, XB_ENTER, (uint32_t)k + 1, 1);
        xb_end(&x, 0);
        size_t real = xb_len(&x) - at - 16;
        xb_set64(&x, at + 1, real - short_by[i]);
        xb_simple_buffer(&x, 2, 0, 500);
        tu_result r = {0};
        xb_check(&x, 0, &r);
        EXPECT_RULES(&r, "XRAY-RECORD-PAST-EXTENTS");
        EXPECT_MESSAGE(&r, "XRAY-RECORD-PAST-EXTENTS", "records go on after it: BufferExtents is too small");
        if (i == 0)
            EXPECT_MESSAGE(&r, "XRAY-RECORD-PAST-EXTENTS", "function record (8 bytes) at offset");
        /* All four functions decoded, then the next buffer. */
        EXPECT_DUMP_LINE(&r, 9, "{\"t\":\"function\",\"action\":\"enter\",\"func\":4,\"delta\":1,"
                                "\"cpu\":0,\"tsc\":\"104\"}");
        EXPECT_DUMP_LINE(&r, 11, "{\"t\":\"new_buffer\",\"tid\":2}");
        tu_result_free(&r);
        xb_free(&x);
    }
    /* The last buffer: its records go on to the end of the file. */
    xb x;
    xb_init(&x, 5, 1);
    xb_header(&x, 4096);
    size_t at = xb_begin(&x);
    xb_preamble(&x, 1, 2, 0, 100);
    xb_fn(&x, XB_ENTER, 1, 1);
    xb_fn(&x, XB_EXIT, 1, 1);
    xb_fn(&x, XB_ENTER, 2, 1);
    xb_end(&x, 0);
    xb_set64(&x, at + 1, xb_len(&x) - at - 16 - 12);
    tu_result r = {0};
    xb_check(&x, 0, &r);
    EXPECT_RULES(&r, "XRAY-RECORD-PAST-EXTENTS");
    CU_ASSERT_EQUAL(tu_dump_lines(&r), 9);
    tu_result_free(&r);
    xb_free(&x);
}

/* compiler-rt counts a typed event's payload but not its 16-byte marker in
 * the extents: the message says so. */
static void test_typed_event_hint(void)
{
    xb x;
    xb_init(&x, 5, 0);
    xb_header(&x, 4096);
    size_t at = xb_begin(&x);
    xb_preamble(&x, 1, 2, 0, 100);
    xb_typed(&x, 5, 1, 7, "hello", 5);
    xb_new_cpu(&x, 1, 200);
    xb_fn(&x, XB_ENTER, 1, 1);
    xb_end(&x, 0);
    xb_set64(&x, at + 1, xb_len(&x) - at - 16 - 16); /* the runtime's count */
    xb_simple_buffer(&x, 2, 0, 500);
    tu_result r = {0};
    xb_check(&x, 0, &r);
    EXPECT_RULES(&r, "XRAY-RECORD-PAST-EXTENTS");
    EXPECT_MESSAGE(&r, "XRAY-RECORD-PAST-EXTENTS", "holds 1 typed event");
    EXPECT_MESSAGE(&r, "XRAY-RECORD-PAST-EXTENTS", "16-byte marker");
    tu_result_free(&r);
    xb_free(&x);
    /* Without typed events, no such hint. */
    xb_init(&x, 5, 0);
    xb_header(&x, 4096);
    at = xb_begin(&x);
    xb_preamble(&x, 1, 2, 0, 100);
    xb_custom(&x, 5, 1, 0, "hello", 5);
    xb_new_cpu(&x, 1, 200);
    xb_fn(&x, XB_ENTER, 1, 1);
    xb_end(&x, 0);
    xb_set64(&x, at + 1, xb_len(&x) - at - 16 - 16);
    xb_simple_buffer(&x, 2, 0, 500);
    xb_check(&x, 0, &r);
    EXPECT_RULES(&r, "XRAY-RECORD-PAST-EXTENTS");
    const tu_diag *d = tu_find(&r, "XRAY-RECORD-PAST-EXTENTS");
    CHECK(d && !strstr(d->message, "typed"), "message: %s", d ? d->message : "");
    tu_result_free(&r);
    xb_free(&x);
}

static void test_over_buffer_size(void)
{
    for (int be = 0; be <= 1; be++) {
        xb x;
        xb_init(&x, 2, be);
        xb_header(&x, 100);
        xb_begin(&x);
        xb_preamble(&x, 1, 0, 0, 1);
        for (int i = 0; i < 4; i++)
            xb_fn(&x, XB_ENTER, 1, 1); /* 48 + 32 = 80: 96 with the extents */
        xb_end(&x, 0);
        xb_begin(&x);
        xb_preamble(&x, 1, 0, 0, 1);
        for (int i = 0; i < 6; i++)
            xb_fn(&x, XB_ENTER, 1, 1); /* 48 + 48 = 96: 112 with the extents */
        xb_end(&x, 0);
        xb_begin(&x);
        xb_preamble(&x, 1, 0, 0, 1);
        for (int i = 0; i < 3; i++)
            xb_fn(&x, XB_ENTER, 1, 1);
        xb_fn(&x, XB_ENTER_ARGS, 1, 1);
        xb_arg(&x, 1); /* 48 + 32 + 16 = 96: 112 with the extents */
        xb_end(&x, 0);
        tu_result r = {0};
        xb_check(&x, 0, &r);
        /* A warning per buffer over the size; the input stays valid. */
        CU_ASSERT_EQUAL(r.status, 0);
        EXPECT_RULES(&r, "XRAY-EXTENTS-OVER-BUFFER-SIZE XRAY-EXTENTS-OVER-BUFFER-SIZE");
        EXPECT_OFFSET(&r, "XRAY-EXTENTS-OVER-BUFFER-SIZE", 32 + 96 + 1);
        EXPECT_MESSAGE(&r, "XRAY-EXTENTS-OVER-BUFFER-SIZE", "the buffer takes 112 bytes (16 + 96), more than the header's buffer_size 100");
        tu_result_free(&r);
        xb_free(&x);
    }
    /* Exactly buffer_size: fine. */
    xb x;
    xb_init(&x, 5, 0);
    xb_header(&x, 16 + 64 + 16);
    xb_begin(&x);
    xb_preamble(&x, 1, 1, 0, 1);
    xb_fn(&x, XB_ENTER, 1, 1);
    xb_fn(&x, XB_EXIT, 1, 1);
    xb_end(&x, 0);
    tu_result r = {0};
    xb_check(&x, 0, &r);
    EXPECT_RULES(&r, "");
    tu_result_free(&r);
    xb_free(&x);
}

static void test_empty_extents(void)
{
    xb x;
    xb_init(&x, 5, 0);
    xb_header(&x, 4096);
    xb_simple_buffer(&x, 1, 0, 1);
    size_t at = xb_begin(&x); /* BufferExtents(0) */
    xb_end(&x, 0);
    xb_simple_buffer(&x, 2, 0, 1);
    tu_result r = {0};
    xb_check(&x, 0, &r);
    /* A buffer with no NewBuffer, WallTimeMarker, PIDEntry or NewCPUId. */
    EXPECT_RULES(&r, "XRAY-PREAMBLE-INCOMPLETE");
    EXPECT_OFFSET(&r, "XRAY-PREAMBLE-INCOMPLETE", at);
    tu_result_free(&r);
    xb_free(&x);
}

static void test_end_of_buffer_in_v2(void)
{
    for (unsigned v = 2; v <= 5; v++) {
        xb x;
        xb_init(&x, v, 0);
        xb_header(&x, 4096);
        xb_begin(&x);
        xb_preamble(&x, 1, 1, 0, 1);
        xb_fn(&x, XB_ENTER, 1, 1);
        size_t eob = xb_len(&x);
        xb_end_of_buffer(&x);
        xb_fn(&x, XB_EXIT, 1, 1);
        xb_end(&x, 0);
        tu_result r = {0};
        xb_check(&x, 0, &r);
        EXPECT_RULES(&r, "XRAY-META-KIND-VERSION");
        EXPECT_OFFSET(&r, "XRAY-META-KIND-VERSION", eob);
        /* It ends nothing: the Exit after it is read. */
        CHECK(strstr(tu_dump_line(&r, tu_dump_lines(&r) - 1), "\"exit\"") != NULL,
              "last dump line: %s", tu_dump_line(&r, tu_dump_lines(&r) - 1));
        tu_result_free(&r);
        xb_free(&x);
    }
}

static const tu_test tests[] = {
    {"valid buffers v2..v5", test_valid_buffers},
    {"garbage between buffers and resynchronisation", test_garbage_between_buffers},
    {"bytes after the last buffer", test_garbage_after_last_buffer},
    {"extents past EOF", test_extents_past_eof},
    {"extents above 2^32", test_extents_over_32_bits},
    {"extents too small: buffer cut", test_extents_too_small_cut},
    {"extents too small: buffer cut at the end of the file", test_extents_too_small_cut_at_eof},
    {"extents too small: records follow", test_extents_too_small_following},
    {"typed-event hint", test_typed_event_hint},
    {"buffer larger than buffer_size", test_over_buffer_size},
    {"BufferExtents(0)", test_empty_extents},
    {"EndOfBuffer in v2+", test_end_of_buffer_in_v2},
    {NULL, NULL},
};

void register_xray_extents_suite(void) { tu_add_suite("xray_extents", tests); }
