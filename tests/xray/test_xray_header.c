/* XRay file header (FDR doc §Header Section, rulings 1, 2, 3, 9, 12) and the
 * big-endian bit layout of records (ruling 2, FDR doc §Function Records). */
#include <stdio.h>
#include <string.h>

#include "../suites.h"
#include "../tu.h"
#include "xb.h"

static void test_header_only_valid(void)
{
    for (unsigned v = 1; v <= 5; v++)
        for (int be = 0; be <= 1; be++) {
            xb x;
            xb_init(&x, v, be);
            xb_header(&x, 16384);
            tu_result r = {0};
            xb_check(&x, 1, &r);
            CHECK(r.status == 0 && r.n == 0, "v%u %s header-only: status %d, findings %s", v,
                  be ? "big" : "little", r.status, tu_describe(&r));
            CU_ASSERT_EQUAL(r.sum.format, TC_FORMAT_XRAY);
            CU_ASSERT_EQUAL(r.sum.bytes, 32);
            char line[400];
            snprintf(line, sizeof line,
                     "{\"t\":\"header\",\"format\":\"xray\",\"dump_version\":2,\"version\":%u,"
                     "\"type\":1,\"byte_order\":\"%s\",\"constant_tsc\":true,\"nonstop_tsc\":true,"
                     "\"cycle_frequency\":\"2400000000\",\"buffer_size\":\"16384\"}",
                     v, be ? "big" : "little");
            EXPECT_DUMP_LINE(&r, 0, line);
            CU_ASSERT_EQUAL(tu_dump_lines(&r), 1);
            tu_result_free(&r);
            xb_free(&x);
        }
}

static void test_truncated_header(void)
{
    xb x;
    xb_init(&x, 5, 0);
    xb_header(&x, 16384);
    tu_result r = {0};
    /* 20 bytes: LLVM 14 accepts some such files; the header has 32. */
    static const size_t lens[] = {4, 8, 20, 31};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        tu_check_memory(xb_data(&x), lens[i], NULL, &r);
        CHECK(r.status == 1, "%zu bytes: status %d", lens[i], r.status);
        EXPECT_RULES(&r, "XRAY-HEADER-TRUNCATED");
        char needle[64];
        snprintf(needle, sizeof needle, "has %zu bytes", lens[i]);
        EXPECT_MESSAGE(&r, "XRAY-HEADER-TRUNCATED", needle);
        CU_ASSERT_EQUAL(r.sum.format, TC_FORMAT_XRAY);
    }
    /* Too short to be recognised: unknown, unless the format is named. */
    tu_check_memory(xb_data(&x), 3, NULL, &r);
    EXPECT_RULES(&r, "TC-FORMAT-UNKNOWN");
    tu_opts o = {.format = TC_FORMAT_XRAY};
    tu_check_memory(xb_data(&x), 3, &o, &r);
    EXPECT_RULES(&r, "XRAY-HEADER-TRUNCATED");
    tu_check_memory(xb_data(&x), 0, &o, &r);
    EXPECT_RULES(&r, "XRAY-HEADER-TRUNCATED");
    tu_result_free(&r);
    xb_free(&x);
}

static void header_with(xb *x, int be, uint16_t version, uint16_t type, uint32_t bits,
                        uint64_t freq, const uint8_t reserved[8])
{
    xb_init(x, version, be);
    xb_header_full(x, version, type, bits, freq, 16384, reserved);
}

static void test_version(void)
{
    static const uint16_t bad[] = {0, 6, 7, 255, 0x0600, 0xFFFF};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        xb x;
        header_with(&x, 0, bad[i], 1, 3, 1000, NULL);
        tu_result r = {0};
        xb_check(&x, 0, &r);
        CHECK(r.status == 1, "version %u: status %d", bad[i], r.status);
        EXPECT_RULES(&r, "XRAY-HEADER-VERSION");
        EXPECT_OFFSET(&r, "XRAY-HEADER-VERSION", 0);
        CU_ASSERT_EQUAL(tu_dump_lines(&r), 0); /* no header is decoded */
        tu_result_free(&r);
        xb_free(&x);
    }
    /* A version that is 1..5 only byte-swapped selects big-endian: 00 05 01 00
     * reads as version 5 big-endian, whose type (01 00) is then 256. */
    xb x;
    header_with(&x, 0, 0x0500, 1, 3, 1000, NULL);
    tu_result r = {0};
    xb_check(&x, 0, &r);
    EXPECT_RULES(&r, "XRAY-HEADER-TYPE");
    EXPECT_MESSAGE(&r, "XRAY-HEADER-TYPE", "256");
    tu_result_free(&r);
    xb_free(&x);
}

static void test_type(void)
{
    for (int be = 0; be <= 1; be++) {
        xb x;
        tu_result r = {0};
        header_with(&x, be, 5, 0, 0, 1000, NULL);
        xb_check(&x, 0, &r);
        EXPECT_RULES(&r, "XRAY-HEADER-BASIC-MODE");
        EXPECT_MESSAGE(&r, "XRAY-HEADER-BASIC-MODE", "basic");
        EXPECT_OFFSET(&r, "XRAY-HEADER-BASIC-MODE", 2);
        CU_ASSERT_EQUAL(r.status, 1);
        xb_free(&x);
        static const uint16_t types[] = {2, 3, 0x100, 0xFFFF};
        for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
            header_with(&x, be, 3, types[i], 0, 1000, NULL);
            xb_check(&x, 0, &r);
            /* Named as an XRay header error, not an unknown format: the
             * version says XRay. */
            char needle[32];
            snprintf(needle, sizeof needle, "type is %u", types[i]);
            CHECK(r.n == 1 && !strcmp(r.d[0].rule->id, "XRAY-HEADER-TYPE") &&
                      strstr(r.d[0].message, needle),
                  "%s version 3 type %u: expected XRAY-HEADER-TYPE (\"%s\"), got %s \"%s\"",
                  be ? "big" : "little", types[i], needle, tu_describe(&r),
                  r.n ? r.d[0].message : "");
            xb_free(&x);
        }
        tu_result_free(&r);
    }
}

static void test_cycle_frequency_zero(void)
{
    for (int be = 0; be <= 1; be++) {
        xb x;
        header_with(&x, be, 5, 1, 0, 0, NULL);
        xb_simple_buffer(&x, 1, 0, 100);
        tu_result r = {0};
        xb_check(&x, 0, &r);
        /* A warning: valid. */
        CU_ASSERT_EQUAL(r.status, 0);
        EXPECT_RULES(&r, "XRAY-HEADER-CYCLE-FREQUENCY-ZERO");
        EXPECT_OFFSET(&r, "XRAY-HEADER-CYCLE-FREQUENCY-ZERO", 8);
        CU_ASSERT_EQUAL(r.sum.warnings, 1);
        tu_result_free(&r);
        xb_free(&x);
    }
}

/* Reserved bits and bytes: never an error; a note with --pedantic only. The
 * reserved bits are 2..31 little-endian and 29..0 (after the two MSBs)
 * big-endian. */
static void test_reserved(void)
{
    static const struct { int be; uint32_t bits; int reserved; } cases[] = {
        {0, 0x3, 0},        {0, 0x0, 0},        {0, 0x4, 1},        {0, 0x80000000u, 1},
        {1, 0xC0000000u, 0}, {1, 0x0, 0},        {1, 0x1, 1},        {1, 0x3, 1},
        {1, 0x20000000u, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int pedantic = 0; pedantic <= 1; pedantic++) {
            xb x;
            header_with(&x, cases[i].be, 5, 1, cases[i].bits, 1000, NULL);
            tu_result r = {0};
            xb_check(&x, pedantic, &r);
            CU_ASSERT_EQUAL(r.status, 0);
            const char *expect = cases[i].reserved && pedantic ? "XRAY-HEADER-RESERVED-NONZERO" : "";
            if (strcmp(expect, r.n ? r.d[0].rule->id : "") != 0 || r.n > 1)
                CHECK(0, "%s bitfield 0x%08x pedantic %d: expected [%s], got %s",
                      cases[i].be ? "big" : "little", cases[i].bits, pedantic, expect,
                      tu_describe(&r));
            tu_result_free(&r);
            xb_free(&x);
        }
    for (int byte = 0; byte < 8; byte++) {
        uint8_t reserved[8] = {0};
        reserved[byte] = 0x80;
        xb x;
        header_with(&x, byte & 1, 4, 1, byte & 1 ? 0xC0000000u : 3, 1000, reserved);
        tu_result r = {0};
        xb_check(&x, 0, &r);
        EXPECT_RULES(&r, "");
        xb_check(&x, 1, &r);
        EXPECT_RULES(&r, "XRAY-HEADER-RESERVED-NONZERO");
        EXPECT_OFFSET(&r, "XRAY-HEADER-RESERVED-NONZERO", 24);
        CU_ASSERT_EQUAL(r.status, 0);
        CU_ASSERT_EQUAL(r.sum.notes, 1);
        tu_result_free(&r);
        xb_free(&x);
    }
}

/* constant_tsc and nonstop_tsc are the first two bits: LSB first in a
 * little-endian file, MSB first in a big-endian one. */
static void test_bitfield_order(void)
{
    static const struct { int be; uint32_t bits; const char *flags; } cases[] = {
        {0, 0x1, "\"constant_tsc\":true,\"nonstop_tsc\":false"},
        {0, 0x2, "\"constant_tsc\":false,\"nonstop_tsc\":true"},
        {0, 0xC0000000u, "\"constant_tsc\":false,\"nonstop_tsc\":false"},
        {1, 0x80000000u, "\"constant_tsc\":true,\"nonstop_tsc\":false"},
        {1, 0x40000000u, "\"constant_tsc\":false,\"nonstop_tsc\":true"},
        {1, 0x3, "\"constant_tsc\":false,\"nonstop_tsc\":false"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        xb x;
        header_with(&x, cases[i].be, 2, 1, cases[i].bits, 1000, NULL);
        tu_result r = {0};
        xb_check(&x, 0, &r);
        const char *line = tu_dump_line(&r, 0);
        CHECK(strstr(line, cases[i].flags) != NULL, "bitfield 0x%08x %s: %s", cases[i].bits,
              cases[i].be ? "big" : "little", line);
        tu_result_free(&r);
        xb_free(&x);
    }
}

/* The document's byte order: a big-endian trace, read with the MSB-first
 * layout, decodes to the same records as the little-endian one. */
static void build_mixed(xb *x)
{
    xb_header(x, 4096);
    xb_begin(x);
    xb_preamble(x, 0x01020304, 0x0A0B0C0D, 0x0102, 0x0102030405060708ull);
    xb_fn(x, XB_ENTER, 0x0ABCDEF, 0x11223344);
    xb_fn(x, XB_ENTER_ARGS, 0x0FFFFFFF, 1);   /* every function id bit */
    xb_arg(x, 0xF1F2F3F4F5F6F7F8ull);
    xb_fn(x, XB_TAIL_EXIT, 0x0FFFFFFF, 2);
    xb_fn(x, XB_ENTER, 0x01000000, 3);        /* big-endian first byte 0x01 */
    xb_fn(x, XB_ENTER, 0x0F000000, 4);        /* big-endian first byte 0x0F */
    xb_fn(x, XB_EXIT, 0x0F000000, 5);
    xb_fn(x, XB_EXIT, 0x01000000, 6);
    xb_tsc_wrap(x, 0x1122334455667788ull);
    xb_fn(x, XB_EXIT, 0x0ABCDEF, 7);
    xb_custom(x, 3, 9, 0, "abc", 3);
    xb_typed(x, 2, 10, 0x0102, "xy", 2);
    xb_end(x, 0);
}

static void test_big_endian_layout(void)
{
    xb le, be;
    xb_init(&le, 5, 0);
    xb_init(&be, 5, 1);
    build_mixed(&le);
    build_mixed(&be);
    /* The builder encodes the document's layouts; spot-check them. */
    CU_ASSERT_EQUAL(xb_data(&le)[32], 0x0F);        /* BufferExtents: kind 7 << 1 | 1 */
    CU_ASSERT_EQUAL(xb_data(&be)[32], 0x87);        /* 0x80 | 7 */
    CU_ASSERT_EQUAL(xb_data(&be)[48], 0x80);        /* NewBuffer: 0x80 | 0 */
    size_t fn = 32 + 16 + 64;                       /* the first function record */
    static const uint8_t be_word[4] = {0x00, 0xAB, 0xCD, 0xEF}; /* action 0 << 28 | fid */
    static const uint8_t le_word[4] = {0xF0, 0xDE, 0xBC, 0x0A}; /* fid << 4 | 0 << 1 */
    CU_ASSERT(memcmp(xb_data(&be) + fn, be_word, 4) == 0);
    CU_ASSERT(memcmp(xb_data(&le) + fn, le_word, 4) == 0);
    CU_ASSERT_EQUAL(xb_data(&be)[fn + 8], 0x3F);    /* Entry_Args 3 << 28 | 0x0FFFFFFF */

    tu_result rl = {0}, rb = {0};
    xb_check(&le, 1, &rl);
    xb_check(&be, 1, &rb);
    EXPECT_RULES(&rl, "");
    EXPECT_RULES(&rb, "");
    CU_ASSERT_EQUAL(rb.status, 0);
    size_t n = tu_dump_lines(&rl);
    CHECK(n == 18 && tu_dump_lines(&rb) == n, "dump lines: %zu little, %zu big", n,
          tu_dump_lines(&rb));
    /* Identical apart from the header's byte order. */
    char first[1024];
    snprintf(first, sizeof first, "%s", tu_dump_line(&rl, 0));
    char *p = strstr(first, "\"little\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    memcpy(p, "\"big\"", 5);
    memmove(p + 5, p + 8, strlen(p + 8) + 1);
    EXPECT_DUMP_LINE(&rb, 0, first);
    for (size_t i = 1; i < n; i++) {
        char line[1024];
        snprintf(line, sizeof line, "%s", tu_dump_line(&rl, i));
        EXPECT_DUMP_LINE(&rb, i, line);
    }
    /* And the values are the ones written. */
    EXPECT_DUMP_LINE(&rb, 2, "{\"t\":\"new_buffer\",\"tid\":16909060}");
    EXPECT_DUMP_LINE(&rb, 4, "{\"t\":\"pid\",\"pid\":168496141}");
    EXPECT_DUMP_LINE(&rb, 5, "{\"t\":\"new_cpu\",\"cpu\":258,\"tsc\":\"72623859790382856\"}");
    EXPECT_DUMP_LINE(&rb, 6, "{\"t\":\"function\",\"action\":\"enter\",\"func\":11259375,"
                             "\"delta\":287454020,\"cpu\":258,\"tsc\":\"72623860077836876\"}");
    EXPECT_DUMP_LINE(&rb, 7, "{\"t\":\"function\",\"action\":\"enter_args\",\"func\":268435455,"
                             "\"delta\":1,\"cpu\":258,\"tsc\":\"72623860077836877\"}");
    EXPECT_DUMP_LINE(&rb, 8, "{\"t\":\"call_arg\",\"value\":\"17434265340928784376\"}");
    EXPECT_DUMP_LINE(&rb, 9, "{\"t\":\"function\",\"action\":\"tail_exit\",\"func\":268435455,"
                             "\"delta\":2,\"cpu\":258,\"tsc\":\"72623860077836879\"}");
    EXPECT_DUMP_LINE(&rb, 10, "{\"t\":\"function\",\"action\":\"enter\",\"func\":16777216,"
                              "\"delta\":3,\"cpu\":258,\"tsc\":\"72623860077836882\"}");
    EXPECT_DUMP_LINE(&rb, 11, "{\"t\":\"function\",\"action\":\"enter\",\"func\":251658240,"
                              "\"delta\":4,\"cpu\":258,\"tsc\":\"72623860077836886\"}");
    EXPECT_DUMP_LINE(&rb, 16, "{\"t\":\"custom_event\",\"size\":3,\"delta\":9,\"cpu\":258,"
                              "\"tsc\":\"1234605616436508568\",\"data\":\"616263\"}");
    EXPECT_DUMP_LINE(&rb, 17, "{\"t\":\"typed_event\",\"type\":258,\"size\":2,\"delta\":10,"
                              "\"cpu\":258,\"tsc\":\"1234605616436508578\",\"data\":\"7879\"}");
    tu_result_free(&rl);
    tu_result_free(&rb);
    xb_free(&le);
    xb_free(&be);
}

/* A big-endian file read with the little-endian layout would go wrong: the
 * little-endian tags in a big-endian file are function records there. */
static void test_big_endian_tags_differ(void)
{
    xb x;
    xb_init(&x, 2, 1);
    xb_header(&x, 4096);
    xb_begin(&x);
    xb_preamble(&x, 1, 1, 0, 100);
    /* 0x0D (a little-endian CallArgument tag) has bit 7 clear: in a
     * big-endian file it starts an 8-byte function record, action 0. */
    static const uint8_t fn_rec[8] = {0x0D, 0, 0, 5, 0, 0, 0, 1};
    xb_raw(&x, fn_rec, 8);
    xb_end(&x, 0);
    tu_result r = {0};
    xb_check(&x, 1, &r);
    EXPECT_RULES(&r, "");
    EXPECT_DUMP_LINE(&r, 5, "{\"t\":\"function\",\"action\":\"enter\",\"func\":218103813,"
                            "\"delta\":1,\"cpu\":0,\"tsc\":\"101\"}");
    tu_result_free(&r);
    xb_free(&x);
}

static const tu_test tests[] = {
    {"header-only v1..v5 both byte orders", test_header_only_valid},
    {"truncated header (20-byte file)", test_truncated_header},
    {"version", test_version},
    {"type: basic mode and unknown", test_type},
    {"cycle_frequency 0 is a warning", test_cycle_frequency_zero},
    {"reserved bits and bytes pedantic only", test_reserved},
    {"bitfield order per byte order", test_bitfield_order},
    {"big-endian bit layout", test_big_endian_layout},
    {"big-endian discriminant is the MSB", test_big_endian_tags_differ},
    {NULL, NULL},
};

void register_xray_header_suite(void) { tu_add_suite("xray_header", tests); }
