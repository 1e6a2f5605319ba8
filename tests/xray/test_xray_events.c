/* Custom events in their three layouts (v1-3, v4, v5), typed events (v5),
 * sizes 0, negative and too large, payloads larger than the input window. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../suites.h"
#include "../tu.h"
#include "xb.h"

/* One buffer: CPU 7 at TSC 1000, an Entry (+10), the event, an Exit (+1). */
static void event_trace(xb *x, unsigned v, int be, int typed)
{
    xb_init(x, v, be);
    xb_header(x, 4096);
    xb_begin(x);
    xb_preamble(x, 1, 2, 7, 1000);
    xb_fn(x, XB_ENTER, 3, 10);
    if (typed)
        xb_typed(x, 2, 5, 4, "\x00\xff", 2);
    else
        xb_custom(x, 3, v >= 5 ? 25 : 5000, 9, "abc", 3);
    xb_fn(x, XB_EXIT, 3, 1);
    xb_end(x, 0);
}

static void test_custom_layouts(void)
{
    for (unsigned v = 1; v <= 5; v++)
        for (int be = 0; be <= 1; be++) {
            xb x;
            event_trace(&x, v, be, 0);
            tu_result r = {0};
            xb_check(&x, 1, &r);
            CHECK(r.status == 0 && r.n == 0, "v%u %s: %s", v, be ? "big" : "little",
                  tu_describe(&r));
            size_t line = v >= 3 ? 7 : 6;
            if (v == 1)
                line--; /* no BufferExtents */
            const char *expect =
                v >= 5 ? "{\"t\":\"custom_event\",\"size\":3,\"delta\":25,\"cpu\":7,\"tsc\":\"1035\",\"data\":\"616263\"}"
                : v == 4 ? "{\"t\":\"custom_event\",\"size\":3,\"cpu\":9,\"tsc\":\"5000\",\"data\":\"616263\"}"
                         : "{\"t\":\"custom_event\",\"size\":3,\"cpu\":7,\"tsc\":\"5000\",\"data\":\"616263\"}";
            EXPECT_DUMP_LINE(&r, line, expect);
            /* Version 5 deltas move the TSC; the absolute TSC of older
             * versions does not. */
            const char *exit_line =
                v >= 5 ? "{\"t\":\"function\",\"action\":\"exit\",\"func\":3,\"delta\":1,\"cpu\":7,\"tsc\":\"1036\"}"
                       : "{\"t\":\"function\",\"action\":\"exit\",\"func\":3,\"delta\":1,\"cpu\":7,\"tsc\":\"1011\"}";
            EXPECT_DUMP_LINE(&r, line + 1, exit_line);
            tu_result_free(&r);
            xb_free(&x);
        }
}

static void test_typed_events(void)
{
    for (int be = 0; be <= 1; be++) {
        xb x;
        event_trace(&x, 5, be, 1);
        tu_result r = {0};
        xb_check(&x, 1, &r);
        EXPECT_RULES(&r, "");
        EXPECT_DUMP_LINE(&r, 7, "{\"t\":\"typed_event\",\"type\":4,\"size\":2,\"delta\":5,\"cpu\":7,"
                                "\"tsc\":\"1015\",\"data\":\"00ff\"}");
        EXPECT_DUMP_LINE(&r, 8, "{\"t\":\"function\",\"action\":\"exit\",\"func\":3,\"delta\":1,"
                                "\"cpu\":7,\"tsc\":\"1016\"}");
        tu_result_free(&r);
        xb_free(&x);
    }
}

static void test_size_zero(void)
{
    for (unsigned v = 1; v <= 5; v++) {
        xb x;
        xb_init(&x, v, 0);
        xb_header(&x, 4096);
        xb_begin(&x);
        xb_preamble(&x, 1, 2, 0, 10);
        xb_custom(&x, 0, 1, 0, NULL, 0);
        if (v == 5)
            xb_typed(&x, 0, 1, 2, NULL, 0);
        xb_fn(&x, XB_ENTER, 1, 1);
        xb_end(&x, 0);
        tu_result r = {0};
        xb_check(&x, 1, &r);
        /* 0 is allowed (LLVM rejects it). */
        CHECK(r.status == 0 && r.n == 0, "v%u: %s", v, tu_describe(&r));
        CHECK(r.dump && strstr(r.dump, "\"size\":0,") && strstr(r.dump, "\"data\":\"\"}"),
              "v%u dump:\n%s", v, r.dump);
        tu_result_free(&r);
        xb_free(&x);
    }
}

/* A bad event in the first buffer, then a good buffer. */
static void bad_event(xb *x, unsigned v, int be, int typed, int32_t size, size_t *at)
{
    xb_init(x, v, be);
    xb_header(x, 256);
    xb_begin(x);
    xb_preamble(x, 1, 2, 0, 10);
    *at = xb_len(x);
    if (typed)
        xb_typed(x, size, 1, 1, NULL, 0);
    else
        xb_custom(x, size, 1, 0, NULL, 0);
    /* What follows in the buffer is skipped: an error if it were read. */
    xb_fn(x, 6, 1, 1);
    xb_wall(x, 1, 5000000);
    xb_end(x, 0);
    xb_simple_buffer(x, 2, 0, 50);
}

static void test_size_negative(void)
{
    static const int32_t sizes[] = {-1, -16, INT32_MIN};
    for (unsigned v = 1; v <= 5; v++)
        for (int typed = 0; typed <= (v == 5); typed++)
            for (size_t i = 0; i < 3; i++) {
                xb x;
                size_t at;
                bad_event(&x, v, (int)i & 1, typed, sizes[i], &at);
                tu_result r = {0};
                xb_check(&x, 0, &r);
                EXPECT_RULES(&r, "XRAY-EVENT-SIZE-NEGATIVE");
                EXPECT_OFFSET(&r, "XRAY-EVENT-SIZE-NEGATIVE", at + 1);
                char needle[80];
                snprintf(needle, sizeof needle, "size is %d; the rest of the buffer is skipped",
                         (int)sizes[i]);
                EXPECT_MESSAGE(&r, "XRAY-EVENT-SIZE-NEGATIVE", needle);
                CHECK(r.dump && strstr(r.dump, "\"tid\":2"), "v%u: the next buffer is read", v);
                tu_result_free(&r);
                xb_free(&x);
            }
}

static void test_payload_overflow(void)
{
    for (unsigned v = 1; v <= 5; v++)
        for (int typed = 0; typed <= (v == 5); typed++) {
            /* Room left after the marker: v1 to the buffer_size end, v2+ to
             * the extents' end (the bad records after it take 24 bytes). */
            uint64_t room = v == 1 ? 256 - 48 - 16 : 24;
            int32_t sizes[] = {(int32_t)room + 1, INT32_MAX};
            for (size_t i = 0; i < 2; i++) {
                xb x;
                size_t at;
                bad_event(&x, v, typed, typed, sizes[i], &at);
                tu_result r = {0};
                xb_check(&x, 0, &r);
                EXPECT_RULES(&r, "XRAY-EVENT-PAYLOAD-OVERFLOW");
                EXPECT_OFFSET(&r, "XRAY-EVENT-PAYLOAD-OVERFLOW", at + 1);
                char needle[120];
                snprintf(needle, sizeof needle, "announces %d payload bytes, but the buffer has "
                         "%llu left", (int)sizes[i], (unsigned long long)room);
                EXPECT_MESSAGE(&r, "XRAY-EVENT-PAYLOAD-OVERFLOW", needle);
                CHECK(r.dump && strstr(r.dump, "\"tid\":2"), "v%u: the next buffer is read", v);
                tu_result_free(&r);
                xb_free(&x);
            }
            /* Exactly the room: valid, the payload is the rest of the buffer. */
            xb x;
            xb_init(&x, v, 0);
            xb_header(&x, 256);
            xb_begin(&x);
            xb_preamble(&x, 1, 2, 0, 10);
            size_t fill = v == 1 ? 256 - xb_len(&x) + 32 - 16 : 40;
            uint8_t *payload = calloc(1, fill);
            memset(payload, 0xFF, fill); /* unknown kind 127 if it were read */
            if (typed)
                xb_typed(&x, (int32_t)fill, 1, 1, payload, fill);
            else
                xb_custom(&x, (int32_t)fill, 1, 0, payload, fill);
            free(payload);
            xb_end(&x, 0);
            tu_result r = {0};
            xb_check(&x, 0, &r);
            CHECK(r.status == 0 && r.n == 0, "v%u payload of %zu to the end: %s", v, fill,
                  tu_describe(&r));
            tu_result_free(&r);
            xb_free(&x);
        }
}

/* A payload larger than the input's window is still decoded in full. */
static void test_large_payload(void)
{
    size_t n = 100000;
    uint8_t *payload = malloc(n);
    for (size_t i = 0; i < n; i++)
        payload[i] = (uint8_t)(i * 7);
    xb x;
    xb_init(&x, 5, 0);
    xb_header(&x, 1 << 20);
    xb_begin(&x);
    xb_preamble(&x, 1, 2, 0, 10);
    xb_custom(&x, (int32_t)n, 3, 0, payload, n);
    xb_fn(&x, XB_ENTER, 1, 1);
    xb_end(&x, 0);
    char *path = tu_write_file("large-event.xray", xb_data(&x), xb_len(&x));
    for (int no_mmap = 0; no_mmap <= 1; no_mmap++) {
        tu_result r = {0};
        tu_opts o = {.dump = 1, .input = {.window = 4096, .no_mmap = no_mmap}};
        tu_check_path(path, &o, &r);
        EXPECT_RULES(&r, "");
        const char *line = tu_dump_line(&r, 6);
        /* The line is longer than tu_dump_line's buffer: look in the dump. */
        const char *ev = r.dump ? strstr(r.dump, "{\"t\":\"custom_event\"") : NULL;
        const char *data = ev ? strstr(ev, "\"data\":\"") : NULL;
        CHECK(data != NULL, "no custom_event line: %s", line);
        if (data) {
            data += 8;
            const char *end = strchr(data, '"');
            CHECK(end && (size_t)(end - data) == 2 * n, "%zu hex digits",
                  end ? (size_t)(end - data) : 0);
            int ok = 1;
            for (size_t i = 0; ok && end && i < n; i += 997) {
                char hex[3];
                snprintf(hex, sizeof hex, "%02x", payload[i]);
                ok = data[2 * i] == hex[0] && data[2 * i + 1] == hex[1];
            }
            CU_ASSERT(ok);
        }
        tu_result_free(&r);
    }
    free(path);
    free(payload);
    xb_free(&x);
}

static void test_negative_delta(void)
{
    xb x;
    xb_init(&x, 5, 1);
    xb_header(&x, 4096);
    xb_begin(&x);
    xb_preamble(&x, 1, 2, 3, 1000);
    size_t at = xb_len(&x);
    xb_custom(&x, 0, (uint32_t)-100, 0, NULL, 0);
    xb_typed(&x, 0, -1, 1, NULL, 0);
    xb_end(&x, 0);
    tu_result r = {0};
    xb_check(&x, 0, &r);
    /* A warning: the TSC goes backwards. */
    EXPECT_RULES(&r, "XRAY-TSC-BACKWARDS XRAY-TSC-BACKWARDS");
    EXPECT_OFFSET(&r, "XRAY-TSC-BACKWARDS", at + 5);
    CU_ASSERT_EQUAL(r.status, 0);
    EXPECT_DUMP_LINE(&r, 6, "{\"t\":\"custom_event\",\"size\":0,\"delta\":-100,\"cpu\":3,"
                            "\"tsc\":\"900\",\"data\":\"\"}");
    EXPECT_DUMP_LINE(&r, 7, "{\"t\":\"typed_event\",\"type\":1,\"size\":0,\"delta\":-1,\"cpu\":3,"
                            "\"tsc\":\"899\",\"data\":\"\"}");
    tu_result_free(&r);
    xb_free(&x);
}

static const tu_test tests[] = {
    {"custom event layouts v1-3, v4, v5", test_custom_layouts},
    {"typed events v5", test_typed_events},
    {"event size 0", test_size_zero},
    {"event size negative", test_size_negative},
    {"event payload overflow", test_payload_overflow},
    {"payload larger than the window", test_large_payload},
    {"negative v5 event delta", test_negative_delta},
    {NULL, NULL},
};

void register_xray_events_suite(void) { tu_add_suite("xray_events", tests); }
