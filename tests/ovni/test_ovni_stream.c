/* ovni binary streams (stream.obs) read on their own: the header (ruling 1),
 * normal and jumbo events (Spec §Normal events, §Jumbo events; ruling 3),
 * MCV bytes (ruling 4), clocks (ruling 2) and in unsorted regions (ruling
 * 11), truncation anywhere, the
 * no-events warning (ruling 5), payload pointers and the canonical dump of a
 * lone stream. Streams are built by hand (tests/ot.c), and the examples of
 * ovni's trace specification are used byte for byte. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/ovni/ovni.h"
#include "../ot.h"
#include "../suites.h"

static const ot_opts OVNI = {.format = TC_FORMAT_OVNI, .dump = 1};

static int check(const ob *o, ot_result *r) { return ot_check_memory(o->b.p, o->b.len, &OVNI, r); }

/* An event line; tail is what dump version 2 adds for the events of a
 * known model (",\"model\":...,\"fields\":{...}"), "" for other letters. */
static void expect_event_line(const ot_result *r, size_t line, uint64_t clock, const char *mcv,
                              unsigned flags, unsigned size_code, long jumbo_size, const char *hex,
                              const char *tail, const char *file, unsigned at)
{
    size_t size = strlen(hex) + strlen(tail) + 512;
    char *want = malloc(size);
    if (!want)
        abort();
    if (jumbo_size >= 0)
        snprintf(want, size,
                 "{\"t\":\"event\",\"stream\":\".\",\"clock\":\"%" PRIu64 "\",\"mcv\":\"%s\","
                 "\"flags\":%u,\"size_code\":%u,\"jumbo_size\":%ld,\"payload\":\"%s\"%s}",
                 clock, mcv, flags, size_code, jumbo_size, hex, tail);
    else
        snprintf(want, size,
                 "{\"t\":\"event\",\"stream\":\".\",\"clock\":\"%" PRIu64 "\",\"mcv\":\"%s\","
                 "\"flags\":%u,\"size_code\":%u,\"payload\":\"%s\"%s}",
                 clock, mcv, flags, size_code, hex, tail);
    ot_assert_dump_line(r, line, want, file, at);
    free(want);
}
#define EVENT_LINE(r, line, clock, mcv, flags, code, jsize, hex) \
    expect_event_line((r), (line), (clock), (mcv), (flags), (code), (jsize), (hex), "", __FILE__, __LINE__)
#define MODEL_LINE(r, line, clock, mcv, flags, code, jsize, hex, tail) \
    expect_event_line((r), (line), (clock), (mcv), (flags), (code), (jsize), (hex), (tail), __FILE__, \
                      __LINE__)

static const char HEADER_LINE[] = "{\"t\":\"header\",\"format\":\"ovni\",\"dump_version\":2}";
static const char STREAM_LE[] = "{\"t\":\"stream\",\"path\":\".\",\"byte_order\":\"little\"}";
static const char STREAM_BE[] = "{\"t\":\"stream\",\"path\":\".\",\"byte_order\":\"big\"}";

static void hex_of(const uint8_t *p, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", p[i]);
    out[2 * n] = '\0';
}

/* ---- header ---- */

static void test_header(void)
{
    ot_result r = {0};
    static const uint8_t le[8] = {'o', 'v', 'n', 'i', 1, 0, 0, 0};
    static const uint8_t be[8] = {'o', 'v', 'n', 'i', 0, 0, 0, 1};
    /* Shorter than 8 bytes, empty included. */
    for (size_t n = 0; n < 8; n++) {
        ot_check_memory(le, n, &OVNI, &r);
        OT_RULES(&r, "OVNI-STREAM-HEADER-TRUNCATED");
        char needle[64];
        snprintf(needle, sizeof needle, "has %zu bytes; its header has 8", n);
        OT_MSG(&r, "OVNI-STREAM-HEADER-TRUNCATED", needle);
        CHECK(r.status == 1 && r.n == 1 && r.d[0].offset == 0 && r.d[0].length == n,
              "%zu bytes: status %d", n, r.status);
        CHECK(r.dump_len == 0, "%zu bytes: a dump of %zu bytes", n, r.dump_len);
    }
    /* Header only, either order: valid, with the no-events warning. */
    for (int b = 0; b <= 1; b++) {
        ot_check_memory(b ? be : le, 8, &OVNI, &r);
        OT_RULES(&r, "OVNI-STREAM-NO-EVENTS");
        CHECK(r.status == 0 && r.d[0].severity == TC_WARNING && r.d[0].offset == 0 &&
                  r.d[0].length == 8 && r.sum.bytes == 8,
              "%s header only: status %d", b ? "big" : "little", r.status);
        OT_DUMP(&r, 0, HEADER_LINE);
        OT_DUMP(&r, 1, b ? STREAM_BE : STREAM_LE);
        CU_ASSERT_EQUAL(ot_dump_lines(&r), 2);
        /* Detected by content. */
        ot_check_memory(b ? be : le, 8, NULL, &r);
        CHECK(r.sum.format == TC_FORMAT_OVNI && r.status == 0, "detected as %d", r.sum.format);
    }
    /* Wrong magic: nothing after it is read. */
    static const char *const magics[] = {"OVNI", "ovnj", "\0vni", "xray", "\x01\x00\x00\x00"};
    static const char *const shown[] = {"4f 56 4e 49", "6f 76 6e 6a", "00 76 6e 69",
                                        "78 72 61 79", "01 00 00 00"};
    for (size_t i = 0; i < 5; i++) {
        ob o;
        ob_init_raw(&o, 0);
        ob_raw(&o, magics[i], 4);
        ob_u32(&o, 1);
        ob_event(&o, "XAa", 5, NULL, 0);
        ob_raw(&o, "\xff\xff\xff", 3); /* garbage that would be an error if read */
        check(&o, &r);
        OT_RULES(&r, "OVNI-STREAM-MAGIC");
        OT_MSG(&r, "OVNI-STREAM-MAGIC", shown[i]);
        OT_AT(&r, "OVNI-STREAM-MAGIC", 0);
        CU_ASSERT_EQUAL(r.status, 1);
        ob_free(&o);
    }
    /* Versions other than 1, in either order; a value that is 1 in neither. */
    static const struct {
        uint8_t v[4];
        const char *needle;
    } versions[] = {
        {{0, 0, 0, 0}, "version is 0 (0 big-endian)"},
        {{2, 0, 0, 0}, "version is 2 (33554432 big-endian)"},
        {{0, 0, 0, 2}, "version is 33554432 (2 big-endian)"},
        {{1, 0, 0, 1}, "version is 16777217 (16777217 big-endian)"},
        {{3, 0, 0, 0}, "version is 3"},
        {{0xff, 0xff, 0xff, 0xff}, "version is 4294967295"},
    };
    for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
        ob o;
        ob_init_raw(&o, 0);
        ob_raw(&o, "ovni", 4);
        ob_raw(&o, versions[i].v, 4);
        ob_event(&o, "XAa", 5, NULL, 0);
        check(&o, &r);
        OT_RULES(&r, "OVNI-STREAM-VERSION");
        OT_MSG(&r, "OVNI-STREAM-VERSION", versions[i].needle);
        OT_AT(&r, "OVNI-STREAM-VERSION", 4);
        ot_check_memory(o.b.p, o.b.len, NULL, &r); /* the magic is enough to detect it */
        CHECK(r.sum.format == TC_FORMAT_OVNI, "version case %zu detected as %d", i, r.sum.format);
        ob_free(&o);
    }
    ot_free(&r);
}

/* ---- normal events ---- */

static void test_every_size_code(void)
{
    ot_result r = {0};
    for (int b = 0; b <= 1; b++) {
        ob o;
        ob_init(&o, b);
        uint8_t pl[16];
        for (int i = 0; i < 16; i++)
            pl[i] = (uint8_t)(0xa0 + i);
        /* Size code 0: no payload; code v: v + 1 bytes (2 to 16). */
        for (unsigned code = 0; code < 16; code++) {
            char mcv[4] = {'X', 'a', (char)('A' + code), 0};
            ob_event_raw(&o, (uint8_t)code, mcv, 1000 + code, pl, code ? code + 1 : 0);
        }
        check(&o, &r);
        CHECK(r.status == 0 && r.n == 0, "%s: %s", b ? "big" : "little", ot_describe(&r));
        CU_ASSERT_EQUAL(r.sum.bytes, o.b.len);
        CU_ASSERT_EQUAL(ot_dump_lines(&r), 18);
        for (unsigned code = 0; code < 16; code++) {
            char mcv[4] = {'X', 'a', (char)('A' + code), 0}, hex[40];
            hex_of(pl, code ? code + 1 : 0, hex);
            EVENT_LINE(&r, 2 + code, 1000 + code, mcv, 0, code, -1, hex);
        }
        ob_free(&o);
    }
    ot_free(&r);
}

/* The examples of the trace specification, byte for byte. */
static void test_spec_examples(void)
{
    static const uint8_t stream[] = {
        0x6f, 0x76, 0x6e, 0x69, 0x01, 0x00, 0x00, 0x00, 0x0f, 0x4f, 0x48, 0x78, 0x08, 0xba, 0x2e, 0x5c,
        0xb5, 0xb0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x13, 0x56, 0x59, 0x63, 0x3c, 0xc2, 0x2e, 0x5c, 0xb5, 0xb0, 0x00, 0x00,
        0x0e, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x74, 0x65, 0x73, 0x74, 0x74, 0x79, 0x70, 0x65,
        0x31, 0x00, 0x07, 0x56, 0x54, 0x63, 0x43, 0xcc, 0x2e, 0x5c, 0xb5, 0xb0, 0x00, 0x00, 0x01, 0x00,
        0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x03, 0x56, 0x54, 0x78, 0x03, 0xcd, 0x2e, 0x5c, 0xb5, 0xb0,
        0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x03, 0x56, 0x54, 0x70, 0x2b, 0x7d, 0x37, 0x5c, 0xb5, 0xb0,
        0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x03, 0x56, 0x54, 0x72, 0xc3, 0x4d, 0x40, 0x5c, 0xb5, 0xb0,
        0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x03, 0x56, 0x54, 0x65, 0x03, 0x36, 0x49, 0x5c, 0xb5, 0xb0,
        0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x4f, 0x48, 0x65, 0xf5, 0x36, 0x49, 0x5c, 0xb5, 0xb0,
        0x00, 0x00,
    };
    ot_result r = {0};
    ot_check_memory(stream, sizeof stream, &OVNI, &r);
    /* Valid: OHx starts the thread, OHe ends it, the V events are not judged
     * without metadata. */
    CHECK(r.status == 0 && r.n == 0, "spec stream: %s", ot_describe(&r));
    CU_ASSERT_EQUAL(r.sum.bytes, 0xa2);
    CU_ASSERT_EQUAL(ot_dump_lines(&r), 10);
    OT_DUMP(&r, 0, HEADER_LINE);
    OT_DUMP(&r, 1, STREAM_LE);
    MODEL_LINE(&r, 2, 0xb0b55c2eba08ull, "OHx", 0, 15, -1, "00000000ffffffff0000000000000000",
               ",\"model\":\"ovni\",\"fields\":{\"cpu\":0,\"tid\":-1,\"tag\":\"0\"}");
    MODEL_LINE(&r, 3, 0xb0b55c2ec23cull, "VYc", 16, 3, 14, "0100000074657374747970653100",
               ",\"model\":\"nosv\",\"fields\":{\"typeid\":1,\"label\":\"testtype1\"}");
    MODEL_LINE(&r, 4, 0xb0b55c2ecc43ull, "VTc", 0, 7, -1, "0100000001000000",
               ",\"model\":\"nosv\",\"fields\":{\"taskid\":1,\"typeid\":1}");
    /* The specification's VTx...VTe carry a task id alone (4 bytes); nosv
     * 2.7.0 lays them out as u32 taskid, u32 bodyid: a model, no fields. */
    MODEL_LINE(&r, 5, 0xb0b55c2ecd03ull, "VTx", 0, 3, -1, "01000000", ",\"model\":\"nosv\"");
    MODEL_LINE(&r, 6, 0xb0b55c377d2bull, "VTp", 0, 3, -1, "01000000", ",\"model\":\"nosv\"");
    MODEL_LINE(&r, 7, 0xb0b55c404dc3ull, "VTr", 0, 3, -1, "01000000", ",\"model\":\"nosv\"");
    MODEL_LINE(&r, 8, 0xb0b55c493603ull, "VTe", 0, 3, -1, "01000000", ",\"model\":\"nosv\"");
    MODEL_LINE(&r, 9, 0xb0b55c4936f5ull, "OHe", 0, 0, -1, "", ",\"model\":\"ovni\"");
    /* Without the dump, the same verdict (payloads are then not held). */
    ot_opts plain = {.format = TC_FORMAT_OVNI};
    ot_check_memory(stream, sizeof stream, &plain, &r);
    CHECK(r.status == 0 && r.n == 0, "spec stream without dump: %s", ot_describe(&r));

    /* The three single events of §Normal events and §Jumbo events. */
    static const uint8_t ohx[] = {0x0f, 0x4f, 0x48, 0x78, 0x58, 0xc1, 0xb0, 0xb5, 0x95, 0x43,
                                  0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
                                  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
    static const uint8_t vyc[] = {0x13, 0x56, 0x59, 0x63, 0xeb, 0xc1, 0x4b, 0x1a, 0x96, 0xd0,
                                  0x12, 0x00, 0x0e, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
                                  0x74, 0x65, 0x73, 0x74, 0x74, 0x79, 0x70, 0x65, 0x31, 0x00};
    static const uint8_t ohe[] = {0x00, 0x4f, 0x48, 0x65, 0x01, 0xc5, 0xcf, 0x1d, 0x96, 0xd0, 0x12, 0x00};
    ob o;
    ob_init(&o, 0);
    ob_raw(&o, ohx, sizeof ohx);
    ob_raw(&o, vyc, sizeof vyc);
    ob_raw(&o, ohe, sizeof ohe);
    check(&o, &r);
    CHECK(r.status == 0 && r.n == 0, "spec events: %s", ot_describe(&r));
    MODEL_LINE(&r, 2, 0x114395b5b0c158ull, "OHx", 0, 15, -1, "00000000ffffffff0000000000000000",
               ",\"model\":\"ovni\",\"fields\":{\"cpu\":0,\"tid\":-1,\"tag\":\"0\"}");
    MODEL_LINE(&r, 3, 0x12d0961a4bc1ebull, "VYc", 16, 3, 14, "0100000074657374747970653100",
               ",\"model\":\"nosv\",\"fields\":{\"typeid\":1,\"label\":\"testtype1\"}");
    MODEL_LINE(&r, 4, 0x12d0961dcfc501ull, "OHe", 0, 0, -1, "", ",\"model\":\"ovni\"");
    ob_free(&o);
    ot_free(&r);
}

/* The same events written big-endian: clocks, jumbo sizes and the header's
 * version in the writer's byte order. */
static void test_big_endian(void)
{
    ot_result r = {0};
    ob o;
    ob_init(&o, 1);
    CU_ASSERT(!memcmp(o.b.p, "ovni\0\0\0\1", 8));
    uint8_t pl[4] = {1, 2, 3, 4};
    ob_event(&o, "XAa", 1, pl, 4);
    ob_event(&o, "XAb", 256, NULL, 0); /* as little-endian, 256 would read below 1 */
    ob_jumbo(&o, "XJj", 0x0102030405060708ull, "hello", 5);
    ob_event(&o, "XAc", 0x0102030405060708ull, NULL, 0);
    check(&o, &r);
    CHECK(r.status == 0 && r.n == 0, "big-endian: %s", ot_describe(&r));
    OT_DUMP(&r, 1, STREAM_BE);
    EVENT_LINE(&r, 2, 1, "XAa", 0, 3, -1, "01020304");
    EVENT_LINE(&r, 3, 256, "XAb", 0, 0, -1, "");
    EVENT_LINE(&r, 4, 0x0102030405060708ull, "XJj", 16, 3, 5, "68656c6c6f");
    CU_ASSERT_EQUAL(ot_dump_lines(&r), 6);
    /* The same bytes with a little-endian header: clocks decrease, and the
     * jumbo size is read as 0x05000000. */
    o.b.p[4] = 1;
    o.b.p[7] = 0;
    check(&o, &r);
    CU_ASSERT(ot_count(&r, "OVNI-CLOCK-DECREASE") >= 1);
    OT_MSG(&r, "OVNI-JUMBO-PAST-EOF", "announces 83886080 bytes");
    ob_free(&o);
    ot_free(&r);
}

/* Ruling 11: a decrease inside an unsorted region, as ovnisort draws it
 * (after an OU[, up to the next OU]), is OVNI-CLOCK-UNSORTED; anywhere else
 * OVNI-CLOCK-DECREASE. Events: U = OU[, u = OU], j = OUj, F = OU[ with flag
 * 0x20, x = another event; the model layer is off (its regions are
 * OVNI-UNSORTED-BALANCE's). */
static void test_unsorted_clocks(void)
{
    static const struct {
        const char *events;
        uint64_t clocks[8];
        const char *rules;
        int at;             /* the event of the last finding */
        const char *needle; /* in the last finding's message */
    } cases[] = {
        {"Uxxu", {10, 5, 6, 20}, "OVNI-CLOCK-UNSORTED", 1,
         "event XAb has clock 5, below the 10 of the event at offset 8, inside the region begun "
         "by the OU[ at offset 8: the region is unsorted, as libovni writes it, and ovnisort "
         "sorts it"},
        {"Uxxu", {10, 15, 12, 20}, "OVNI-CLOCK-UNSORTED", 2, "clock 12, below the 15"},
        {"xUxu", {10, 5, 11, 20}, "OVNI-CLOCK-DECREASE", 1, "event OU[ has clock 5"},
        {"Uxu", {10, 12, 11}, "OVNI-CLOCK-DECREASE", 2, "event OU] has clock 11"},
        {"Uxux", {10, 12, 13, 11}, "OVNI-CLOCK-DECREASE", 3, "clock 11, below the 13"},
        {"UUxu", {10, 5, 6, 20}, "OVNI-CLOCK-UNSORTED", 1, "event OU[ has clock 5"},
        {"ux", {10, 5}, "OVNI-CLOCK-DECREASE", 1, NULL},
        {"UxuUxu", {10, 5, 20, 30, 25, 40}, "OVNI-CLOCK-UNSORTED OVNI-CLOCK-UNSORTED", 4,
         "by the OU[ at offset 44"},
        {"Uju", {10, 5, 20}, "OVNI-CLOCK-UNSORTED", 1, "event OUj has clock 5"},
        {"Fxu", {10, 5, 20}, "OVNI-EVENT-FLAGS OVNI-CLOCK-UNSORTED", 1, NULL},
        {"Ux", {10, 5}, "OVNI-CLOCK-UNSORTED", 1, NULL}, /* a region left open */
        {"Uxxu", {10, 1ull << 63, 5, 20}, "OVNI-CLOCK-RANGE OVNI-CLOCK-UNSORTED", 2, NULL},
        {"Uxxuxx", {10, 10, 11, 12, 12, 13}, "", 0, NULL},
    };
    ot_opts no_models = {.format = TC_FORMAT_OVNI, .no_models = 1};
    ot_result r = {0};
    for (int be = 0; be <= 1; be++)
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            ob o;
            ob_init(&o, be);
            for (size_t k = 0; cases[i].events[k]; k++) {
                char c = cases[i].events[k];
                char mcv[4] = {'X', 'A', (char)('a' + k), 0};
                if (c != 'x')
                    snprintf(mcv, sizeof mcv, "OU%c", c == 'u' ? ']' : c == 'j' ? 'j' : '[');
                ob_event_raw(&o, c == 'F' ? 0x20 : 0, mcv, cases[i].clocks[k], NULL, 0);
            }
            ot_check_memory(o.b.p, o.b.len, &no_models, &r);
            OT_RULES(&r, cases[i].rules);
            if (r.n && cases[i].rules[0]) {
                const ot_diag *last = &r.d[r.n - 1];
                CHECK(last->offset == 8 + 12 * (uint64_t)cases[i].at + 4 && last->length == 8,
                      "%s: %s at %llu", cases[i].events, last->rule->id,
                      (unsigned long long)last->offset);
                if (cases[i].needle)
                    OT_MSG(&r, last->rule->id, cases[i].needle);
            }
            ob_free(&o);
        }
    ot_free(&r);
}

/* ---- jumbo events ---- */

static void test_jumbo(void)
{
    ot_result r = {0};
    ob o;
    /* Sizes 0, 1 and more; the event after each is read where it should be. */
    static const uint32_t sizes[] = {0, 1, 2, 14, 100, 4096};
    uint8_t data[4096];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 7);
    for (int b = 0; b <= 1; b++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            ob_init(&o, b);
            ob_jumbo(&o, "XJj", 10, data, sizes[i]);
            ob_event(&o, "XZz", 11, "\x01\x02", 2);
            check(&o, &r);
            CHECK(r.status == 0 && r.n == 0, "jumbo of %u: %s", sizes[i], ot_describe(&r));
            char *hex = malloc(2 * sizes[i] + 1);
            hex_of(data, sizes[i], hex);
            EVENT_LINE(&r, 2, 10, "XJj", 16, 3, (long)sizes[i], hex);
            EVENT_LINE(&r, 3, 11, "XZz", 0, 1, -1, "0102");
            free(hex);
            ob_free(&o);
        }

    /* Size codes other than 3: an error, and still read as jumbo (a u32
     * size after the clock), as libovni reads it. */
    static const uint8_t byte0[] = {0x10, 0x11, 0x12, 0x14, 0x1f};
    for (size_t i = 0; i < sizeof byte0; i++) {
        ob_init(&o, 0);
        ob_jumbo_raw(&o, byte0[i], "XJj", 10, 3, "abc", 3);
        ob_event(&o, "XZz", 11, NULL, 0);
        check(&o, &r);
        OT_RULES(&r, "OVNI-JUMBO-SIZE-CODE");
        OT_AT(&r, "OVNI-JUMBO-SIZE-CODE", 8);
        char needle[64];
        snprintf(needle, sizeof needle, "has size code %u", byte0[i] & 15u);
        OT_MSG(&r, "OVNI-JUMBO-SIZE-CODE", needle);
        EVENT_LINE(&r, 2, 10, "XJj", 16, byte0[i] & 15u, 3, "616263");
        EVENT_LINE(&r, 3, 11, "XZz", 0, 0, -1, "");
        ob_free(&o);
    }

    /* Data past the end: by one byte, and by the sizes that crash or hang
     * libovni's readers (reported, not followed). */
    static const uint32_t past[] = {10, 0x7fffffffu, 0x7ffffff0u, 0xfffffff0u, 0xffffffffu};
    for (size_t i = 0; i < sizeof past / sizeof past[0]; i++) {
        ob_init(&o, i % 2);
        ob_event(&o, "XAa", 1, NULL, 0);
        ob_jumbo_raw(&o, 0x13, "XJj", 2, past[i], "123456789", 9);
        check(&o, &r);
        if (past[i] >= TC_OVNI_JUMBO_WRITE_LIMIT)
            OT_RULES(&r, "OVNI-JUMBO-LARGE OVNI-JUMBO-PAST-EOF");
        else
            OT_RULES(&r, "OVNI-JUMBO-PAST-EOF");
        char needle[96];
        snprintf(needle, sizeof needle, "announces %" PRIu32 " bytes, but the stream ends 9 bytes",
                 past[i]);
        OT_MSG(&r, "OVNI-JUMBO-PAST-EOF", needle);
        OT_AT(&r, "OVNI-JUMBO-PAST-EOF", 20 + 12);
        CU_ASSERT_EQUAL(r.status, 1);
        CU_ASSERT_EQUAL(ot_dump_lines(&r), 3); /* the cut jumbo event has no line */
        /* From a file through small windows too: no hang, same findings. */
        ot_result f = {0}, m = {0};
        char *path = tu_write_file("jumbo.obs", o.b.p, o.b.len);
        ot_opts fo = OVNI;
        ot_check_path(path, &fo, &m);
        fo.input.window = 16;
        fo.input.no_mmap = 1;
        ot_check_path(path, &fo, &f);
        ot_assert_same(&m, &f, 1, "jumbo past the end, 16-byte window");
        free(path);
        ot_free(&f);
        ot_free(&m);
        ob_free(&o);
    }

    /* 2 MiB: libovni writes less (a warning); one byte less is fine. */
    static const uint32_t big[] = {(2u << 20) - 1, 2u << 20, (2u << 20) + 1};
    uint8_t *blob = calloc(1, (2u << 20) + 1);
    for (size_t i = 0; blob && i < 3; i++) {
        ob_init(&o, 0);
        ob_jumbo(&o, "XJj", 5, blob, big[i]);
        ob_event(&o, "XAa", 6, NULL, 0);
        ot_opts plain = {.format = TC_FORMAT_OVNI};
        ot_check_memory(o.b.p, o.b.len, &plain, &r);
        if (i == 0) {
            CHECK(r.status == 0 && r.n == 0, "jumbo of 2 MiB - 1: %s", ot_describe(&r));
        } else {
            OT_RULES(&r, "OVNI-JUMBO-LARGE");
            CHECK(r.status == 0 && r.d[0].severity == TC_WARNING && r.d[0].offset == 8 + 12,
                  "jumbo of %u: status %d", big[i], r.status);
            char needle[64];
            snprintf(needle, sizeof needle, "holds %u bytes", big[i]);
            OT_MSG(&r, "OVNI-JUMBO-LARGE", needle);
        }
        ob_free(&o);
    }
    free(blob);
    ot_free(&r);
}

/* ---- flags ---- */

static void test_flags(void)
{
    ot_result r = {0};
    static const uint8_t flags[] = {0x20, 0x40, 0x80, 0xe0};
    for (size_t i = 0; i < sizeof flags; i++) {
        /* A normal event with an unknown flag: reported, then read by its
         * size code as usual. */
        ob o;
        ob_init(&o, 0);
        ob_event_raw(&o, (uint8_t)(flags[i] | 1), "XFf", 7, "\xaa\xbb", 2);
        ob_event(&o, "XAa", 8, NULL, 0);
        check(&o, &r);
        OT_RULES(&r, "OVNI-EVENT-FLAGS");
        OT_AT(&r, "OVNI-EVENT-FLAGS", 8);
        char needle[64];
        snprintf(needle, sizeof needle, "has flags 0x%02x", flags[i]);
        OT_MSG(&r, "OVNI-EVENT-FLAGS", needle);
        EVENT_LINE(&r, 2, 7, "XFf", flags[i], 1, -1, "aabb");
        EVENT_LINE(&r, 3, 8, "XAa", 0, 0, -1, "");
        ob_free(&o);
        /* With jumbo as well: both, and still read as jumbo. */
        ob_init(&o, 0);
        ob_jumbo_raw(&o, (uint8_t)(flags[i] | 0x13), "XJj", 7, 2, "hi", 2);
        ob_event(&o, "XAa", 8, NULL, 0);
        check(&o, &r);
        OT_RULES(&r, "OVNI-EVENT-FLAGS");
        snprintf(needle, sizeof needle, "has flags 0x%02x", flags[i] | 0x10);
        OT_MSG(&r, "OVNI-EVENT-FLAGS", needle);
        EVENT_LINE(&r, 2, 7, "XJj", flags[i] | 0x10u, 3, 2, "6869");
        ob_free(&o);
    }
    /* High nibble 0xf0 with size code 0: unknown flags, jumbo, wrong code. */
    ob o;
    ob_init(&o, 0);
    ob_jumbo_raw(&o, 0xf0, "XJj", 7, 1, "!", 1);
    check(&o, &r);
    OT_RULES(&r, "OVNI-EVENT-FLAGS OVNI-JUMBO-SIZE-CODE");
    ob_free(&o);
    ot_free(&r);
}

/* ---- MCV ---- */

static void test_mcv(void)
{
    ot_result r = {0};
    static const uint8_t bad[] = {0x00, 0x01, 0x20, 0x7f, 0x80, 0xc3, 0xff};
    for (int pos = 0; pos < 3; pos++)
        for (size_t i = 0; i < sizeof bad; i++) {
            char mcv[3] = {'X', 'a', 'b'};
            mcv[pos] = (char)bad[i];
            ob o;
            ob_init(&o, 0);
            ob_event(&o, "XAa", 1, NULL, 0);
            ob_event(&o, mcv, 2, NULL, 0);
            ob_event(&o, "XAb", 3, NULL, 0);
            check(&o, &r);
            OT_RULES(&r, "OVNI-MCV-PRINTABLE");
            OT_AT(&r, "OVNI-MCV-PRINTABLE", 20 + 1);
            char needle[64];
            snprintf(needle, sizeof needle, "bytes are %02x %02x %02x",
                     (uint8_t)mcv[0], (uint8_t)mcv[1], (uint8_t)mcv[2]);
            OT_MSG(&r, "OVNI-MCV-PRINTABLE", needle);
            CU_ASSERT_EQUAL(ot_dump_lines(&r), 5);
            /* The dump stays JSON (valid UTF-8, one line per event) whatever
             * the bytes, with the event's 3 MCV characters. */
            jt_run j = {0};
            const char *line = ot_dump_line(&r, 3);
            jt_run_str(line, &j);
            int mcv_chars = -1;
            for (size_t k = 0; k + 1 < j.n; k++)
                if (j.t[k].kind == TC_JSON_KEY && !strcmp(j.t[k].text, "mcv") &&
                    j.t[k + 1].kind == TC_JSON_STRING) {
                    mcv_chars = 0;
                    for (size_t c = 0; c < j.t[k + 1].len; c++)
                        mcv_chars += ((uint8_t)j.t[k + 1].text[c] & 0xc0) != 0x80;
                }
            CHECK(j.end == 0 && j.diags.n == 0 && mcv_chars == 3,
                  "MCV byte 0x%02x at %d: dump line %s: %s, mcv of %d characters", bad[i], pos,
                  line, jt_rules(&j), mcv_chars);
            jt_free(&j);
            ob_free(&o);
        }
    /* The edges of printable ASCII are fine. */
    ob o;
    ob_init(&o, 0);
    ob_event(&o, "!!!", 1, NULL, 0);
    ob_event(&o, "~~~", 2, NULL, 0);
    ob_event(&o, "X!~", 3, NULL, 0);
    check(&o, &r);
    CHECK(r.status == 0 && r.n == 0, "printable edges: %s", ot_describe(&r));
    ob_free(&o);
    ot_free(&r);
}

/* ---- clocks ---- */

static void test_clocks(void)
{
    ot_result r = {0};
    static const struct {
        uint64_t clocks[4];
        size_t n;
        const char *rules;
        const char *needle;
    } cases[] = {
        {{5, 5, 5, 6}, 4, "", NULL},
        {{0, 0}, 2, "", NULL},
        {{10, 9}, 2, "OVNI-CLOCK-DECREASE", "event XAb has clock 9, below the 10 of the event at offset 8"},
        {{5, 4, 3}, 3, "OVNI-CLOCK-DECREASE OVNI-CLOCK-DECREASE", "clock 3, below the 4 of the event at offset 20"},
        {{10, 20, 15, 16}, 4, "OVNI-CLOCK-DECREASE", "clock 15, below the 20"},
        {{(1ull << 63) - 1, (1ull << 63) - 1}, 2, "", NULL},
        {{1ull << 63}, 1, "OVNI-CLOCK-RANGE", "clock 9223372036854775808, 2^63 or more"},
        {{UINT64_MAX}, 1, "OVNI-CLOCK-RANGE", "clock 18446744073709551615"},
        /* Out of range: left out of the order check, both ways. */
        {{10, 1ull << 63, 11}, 3, "OVNI-CLOCK-RANGE", NULL},
        {{10, UINT64_MAX, 5}, 3, "OVNI-CLOCK-RANGE OVNI-CLOCK-DECREASE", "clock 5, below the 10 of the event at offset 8"},
        {{UINT64_MAX, 0, 1}, 3, "OVNI-CLOCK-RANGE", NULL},
    };
    for (int b = 0; b <= 1; b++)
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            ob o;
            ob_init(&o, b);
            for (size_t k = 0; k < cases[i].n; k++) {
                char mcv[4] = {'X', 'A', (char)('a' + k), 0};
                ob_event(&o, mcv, cases[i].clocks[k], NULL, 0);
            }
            check(&o, &r);
            OT_RULES(&r, cases[i].rules);
            if (cases[i].needle)
                OT_MSG(&r, r.n ? r.d[r.n - 1].rule->id : "none", cases[i].needle);
            /* Located at the clock field of the event. */
            for (size_t k = 0; k < r.n; k++)
                CHECK((r.d[k].offset - 8) % 12 == 4 && r.d[k].length == 8,
                      "case %zu: %s at %llu+%llu", i, r.d[k].rule->id,
                      (unsigned long long)r.d[k].offset, (unsigned long long)r.d[k].length);
            /* Every event is dumped, in file order, with its clock. */
            CU_ASSERT_EQUAL(ot_dump_lines(&r), 2 + cases[i].n);
            ob_free(&o);
        }
    ot_free(&r);
}

/* ---- truncation at every byte ---- */

static void test_truncation_every_byte(void)
{
    for (int b = 0; b <= 1; b++) {
        ob o;
        ob_init(&o, b);
        ob_event(&o, "XAa", 1, NULL, 0);               /* 8..20 */
        ob_event(&o, "XBb", 2, "\x01\x02\x03\x04", 4); /* 20..36 */
        ob_jumbo(&o, "XCc", 3, "jumbo", 5);            /* 36..57: size at 48, data at 52 */
        ob_event(&o, "XDd", 4, "0123456789abcdef", 16); /* 57..85 */
        CU_ASSERT_EQUAL(o.b.len, 85);
        static const size_t starts[] = {8, 20, 36, 57, 85};
        static const size_t sizes[] = {12, 16, 21, 28};
        ot_result r = {0};
        for (size_t len = 0; len <= o.b.len; len++) {
            /* Through the file path with a 7-byte window as well. */
            char *path = tu_write_file("cut.obs", o.b.p, len);
            ot_opts w = OVNI;
            w.input.window = 7;
            w.input.no_mmap = 1;
            ot_check_path(path, &w, &r);
            free(path);
            size_t ev = 0;
            while (ev < 4 && len >= starts[ev + 1])
                ev++;
            size_t done = ev; /* complete events */
            if (len < 8) {
                OT_RULES(&r, "OVNI-STREAM-HEADER-TRUNCATED");
                continue;
            }
            if (len == 8) {
                OT_RULES(&r, "OVNI-STREAM-NO-EVENTS");
                continue;
            }
            CU_ASSERT_EQUAL(ot_dump_lines(&r), 2 + done);
            if (ev == 4 || len == starts[ev]) {
                CHECK(r.n == 0 && r.status == 0, "%s, %zu bytes: %s", b ? "big" : "little", len,
                      ot_describe(&r));
                continue;
            }
            size_t start = starts[ev], have = len - start;
            if (ev == 2 && len >= 52) {
                OT_RULES(&r, "OVNI-JUMBO-PAST-EOF");
                char needle[96];
                snprintf(needle, sizeof needle, "announces 5 bytes, but the stream ends %zu bytes",
                         len - 52);
                OT_MSG(&r, "OVNI-JUMBO-PAST-EOF", needle);
                OT_AT(&r, "OVNI-JUMBO-PAST-EOF", 48);
                continue;
            }
            OT_RULES(&r, "OVNI-EVENT-TRUNCATED");
            OT_AT(&r, "OVNI-EVENT-TRUNCATED", start);
            /* The message and the finding's length count the event's bytes
             * that are there, header included. */
            size_t want = have < 12 ? 12 : ev == 2 ? 16 : sizes[ev];
            char needle[96];
            snprintf(needle, sizeof needle, "%zu of its %zu bytes are there", have, want);
            const ot_diag *d = OT_MSG(&r, "OVNI-EVENT-TRUNCATED", needle);
            if (d)
                CHECK(d->length == have, "%zu bytes: length %llu, expected %zu", len,
                      (unsigned long long)d->length, have);
            CU_ASSERT_EQUAL(r.status, 1);
        }
        ot_free(&r);
        ob_free(&o);
    }
}

/* A stream whose only event is cut: truncated, not "no events". */
static void test_no_events(void)
{
    ot_result r = {0};
    ob o;
    ob_init(&o, 0);
    ob_raw(&o, "\x00XAa", 4);
    check(&o, &r);
    OT_RULES(&r, "OVNI-EVENT-TRUNCATED");
    ob_free(&o);
    /* Events make the warning go away, whatever they are. */
    ob_init(&o, 0);
    ob_event(&o, "OB.", 1, NULL, 0);
    check(&o, &r);
    CHECK(ot_count(&r, "OVNI-STREAM-NO-EVENTS") == 0, "%s", ot_describe(&r));
    ob_free(&o);
    ot_free(&r);
}

/* ---- the pull API: payload pointers ---- */

static void test_payload_pointers(void)
{
    for (int b = 0; b <= 1; b++)
        for (int want = 0; want <= 1; want++) {
            ob o;
            ob_init(&o, b);
            uint8_t pl[12];
            ob_put32(&o, pl, 0xdeadbeef);
            ob_put64(&o, pl + 4, 0x0102030405060708ull);
            ob_event(&o, "XAa", 1, pl, 12);
            ob_jumbo(&o, "XJj", 2, "jumbo data", 10);
            ob_event(&o, "XBb", 3, NULL, 0);
            ob_jumbo(&o, "XJk", 4, NULL, 0);
            tc_reader rd;
            tc_reader_init_memory(&rd, o.b.p, o.b.len);
            ot_result res = {0};
            tc_diag_sink sink;
            ot_sink(&sink, "pull", &res);
            tc_ovni_stream *s = tc_ovni_stream_new(&rd, &sink, want);
            CU_ASSERT_EQUAL(tc_ovni_stream_header(s), 1);
            CU_ASSERT_EQUAL(tc_ovni_stream_big_endian(s), b);
            tc_ovni_event ev;
            CU_ASSERT_EQUAL(tc_ovni_stream_next(s, &ev), 1);
            CHECK(ev.offset == 8 && ev.payload == o.b.p + 20 && ev.payload_len == 12 && !ev.jumbo &&
                      ev.size_code == 11 && ev.flags == 0 && ev.clock == 1 && !strcmp(ev.mcv, "XAa"),
                  "normal event: offset %llu payload %p", (unsigned long long)ev.offset,
                  (const void *)ev.payload);
            if (ev.payload) {
                CU_ASSERT_EQUAL(tc_ovni_u32(s, ev.payload), 0xdeadbeefu);
                CU_ASSERT_EQUAL(tc_ovni_u64(s, ev.payload + 4), 0x0102030405060708ull);
            }
            CU_ASSERT_EQUAL(tc_ovni_stream_next(s, &ev), 1);
            /* Jumbo data: held only when asked for. */
            CHECK(ev.offset == 32 && ev.jumbo && ev.payload_len == 10 && ev.flags == 0x10 &&
                      (want ? ev.payload == o.b.p + 48 : ev.payload == NULL),
                  "jumbo event (want %d): offset %llu len %u payload %p", want,
                  (unsigned long long)ev.offset, ev.payload_len, (const void *)ev.payload);
            CU_ASSERT_EQUAL(tc_ovni_stream_next(s, &ev), 1);
            CHECK(ev.offset == 58 && ev.payload_len == 0 && !strcmp(ev.mcv, "XBb"), "third at %llu",
                  (unsigned long long)ev.offset);
            CU_ASSERT_EQUAL(tc_ovni_stream_next(s, &ev), 1);
            CHECK(ev.offset == 70 && ev.jumbo && ev.payload_len == 0, "empty jumbo at %llu",
                  (unsigned long long)ev.offset);
            CU_ASSERT_EQUAL(tc_ovni_stream_count(s), 4);
            CU_ASSERT_EQUAL(tc_ovni_stream_next(s, &ev), 0);
            CU_ASSERT_EQUAL(tc_ovni_stream_next(s, &ev), 0);
            CU_ASSERT_EQUAL(tc_ovni_stream_count(s), 4);
            CU_ASSERT_EQUAL(res.n, 0);
            tc_ovni_stream_free(s);
            ot_free(&res);
            ob_free(&o);
        }
}

/* ---- every read path ---- */

static void test_windows(void)
{
    ob o;
    ob_init(&o, 0);
    uint8_t pl[16] = {0};
    ob_event(&o, "OHx", 1, pl, 16);
    for (unsigned i = 0; i < 20; i++) {
        char mcv[4] = {'X', 'a', (char)('a' + i), 0};
        ob_event(&o, mcv, 2 + i, pl, i % 17 == 1 ? 2 : i % 17);
        ob_jumbo(&o, "XJj", 2 + i, "0123456789abcdefghijklmnopqrstuvwxyz", i * 3 % 37);
    }
    ob_event_raw(&o, 0x20, "X\x01z", 1, NULL, 0); /* flags, MCV, clock: findings to compare */
    ob_event(&o, "OHe", 100, NULL, 0);
    ob_jumbo_raw(&o, 0x13, "XJj", 101, 1000, "cut", 3);
    char *path = tu_write_file("windows.obs", o.b.p, o.b.len);
    ot_result ref = {0}, r = {0};
    ot_check_path(path, &OVNI, &ref);
    OT_RULES(&ref, "OVNI-EVENT-FLAGS OVNI-MCV-PRINTABLE OVNI-CLOCK-DECREASE OVNI-JUMBO-PAST-EOF");
    char what[64];
    for (size_t w = 1; w <= 64; w++) {
        ot_opts opt = OVNI;
        opt.input.window = w;
        opt.input.no_mmap = 1;
        ot_check_path(path, &opt, &r);
        snprintf(what, sizeof what, "stream window %zu", w);
        ot_assert_same(&ref, &r, 1, what);
        opt.dump = 0; /* without the dump, payloads are not held: same findings */
        ot_check_path(path, &opt, &r);
        CHECK(r.n == ref.n && r.status == ref.status, "window %zu without dump: %s", w,
              ot_describe(&r));
    }
    tu_bytes z = {0};
    tu_zstd_frame(&z, o.b.p, o.b.len);
    char *zpath = tu_write_file("windows.obs.zst", z.p, z.len);
    for (size_t w = 1; w <= 64; w += 9) {
        ot_opts opt = OVNI;
        opt.input.window = w;
        ot_check_path(zpath, &opt, &r);
        CHECK(r.dump_len == ref.dump_len && !memcmp(r.dump, ref.dump, r.dump_len) && r.n == ref.n,
              "zstd, window %zu: %s", w, ot_describe(&r));
    }
    free(zpath);
    tu_bytes_free(&z);
    free(path);
    ot_free(&ref);
    ot_free(&r);
    ob_free(&o);
}

static const tu_test tests[] = {
    {"header: short, magic, version, byte order", test_header},
    {"normal events of every size code", test_every_size_code},
    {"the specification's examples", test_spec_examples},
    {"big-endian streams", test_big_endian},
    {"jumbo events", test_jumbo},
    {"flags", test_flags},
    {"MCV printability", test_mcv},
    {"clocks: equal, decrease, 2^63", test_clocks},
    {"clocks in unsorted regions (ruling 11)", test_unsorted_clocks},
    {"truncation at every byte", test_truncation_every_byte},
    {"no events", test_no_events},
    {"payload pointers", test_payload_pointers},
    {"windows and compression", test_windows},
    {NULL, NULL},
};

void register_ovni_stream_suite(void) { tu_add_suite("ovni_stream", tests); }
