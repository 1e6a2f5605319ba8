/*
 * The perf containers (parsers/perf/nexus.c, itc_text.c; spec/perf/perf.md
 * "Containers"): Nexus framing and Data Acquisition fields, built here by
 * an encoder of the test's own, read whole and a few bytes at a time; the
 * text message list's grammar with its line and column diagnostics.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/perf/perf_msg.h"
#include "../suites.h"
#include "../tu.h"

/* ---- reading, with every finding and message kept ---- */

typedef struct got {
    tc_perf_msg m[64];
    size_t n;
    tu_result diags;
    int wrapped;       /* set by tc_nexus_read */
    int wrapped_first; /* as it stood when the first message came */
} got;

static void on_msg(void *user, const tc_perf_msg *m)
{
    got *g = user;
    if (g->n == 0)
        g->wrapped_first = g->wrapped;
    if (g->n < 64)
        g->m[g->n] = *m;
    g->n++;
}

enum { NEXUS, TEXT };

static void read_bytes(int kind, const void *p, size_t n, unsigned srcbits, size_t step, got *g)
{
    memset(g, 0, sizeof *g);
    tc_diag_sink d;
    tc_diag_init(&d, "test", 0, 1, tu_collect, &g->diags);
    tc_reader r;
    tc_stepped_memory s;
    if (step)
        tc_reader_init_stepped(&r, &s, p, n, step);
    else
        tc_reader_init_memory(&r, p, n);
    uint64_t k = kind == NEXUS ? tc_nexus_read(&r, &d, srcbits, on_msg, g, &g->wrapped)
                               : tc_itc_text_read(&r, &d, on_msg, g);
    CU_ASSERT_EQUAL(k, g->n);
}

static void got_free(got *g) { tu_result_free(&g->diags); }

/* ---- a Nexus encoder of the test's own ---- */

typedef struct bits {
    uint8_t b[128];
    size_t n;    /* bytes finished */
    unsigned used; /* MDO bits used in b[n] */
} bits;

static void put(bits *w, uint64_t v, unsigned nbits)
{
    for (unsigned i = 0; i < nbits; i++) {
        if (w->used == 6) {
            w->n++;
            w->used = 0;
        }
        w->b[w->n] |= (uint8_t)(((v >> i) & 1) << (2 + w->used));
        w->used++;
    }
}

/* Ends the current byte with MSEO mseo (the field or message ends). */
static void end(bits *w, unsigned mseo)
{
    w->b[w->n] |= (uint8_t)mseo;
    w->n++;
    w->used = 0;
}

static unsigned width(uint64_t v)
{
    unsigned k = 1;
    while (k < 64 && (v >> k))
        k++;
    return k;
}

/* A Data Acquisition message: fields[0..nf) are IDTAG, DQDATA, TIMESTAMP
 * (each in the fewest bytes), after SRC of srcbits. Appends to out. */
static size_t da(uint8_t *out, unsigned srcbits, uint32_t src, const uint64_t *f, unsigned nf)
{
    bits w;
    memset(&w, 0, sizeof w);
    put(&w, TC_NEXUS_TCODE_DATA_ACQ, 6);
    put(&w, src, srcbits);
    for (unsigned k = 0; k < nf; k++) {
        put(&w, f[k], width(f[k]));
        /* pad the byte out, then end the field */
        end(&w, k + 1 == nf ? 3 : 1);
    }
    memcpy(out, w.b, w.n);
    return w.n;
}

static size_t da2(uint8_t *out, uint64_t idtag, uint64_t value)
{
    uint64_t f[2] = {idtag, value};
    return da(out, 0, 0, f, 2);
}

/* ---- Nexus ---- */

static void test_nexus_fields(void)
{
    uint8_t buf[256];
    size_t n = 0;
    n += da2(buf + n, 0x18, 0x70657266);
    uint64_t f3[3] = {0x1b, 2, 0x123456789ull};
    size_t at2 = n;
    n += da(buf + n, 0, 0, f3, 3);
    size_t at3 = n;
    n += da2(buf + n, 0x1a, 0xffff);
    for (size_t step = 0; step <= 5; step += 1) {
        got g;
        read_bytes(NEXUS, buf, n, 0, step, &g);
        EXPECT_RULES(&g.diags, "");
        CHECK(g.n == 3, "step %zu: %zu messages", step, g.n);
        CU_ASSERT_EQUAL(g.m[0].idtag, 0x18);
        CU_ASSERT_EQUAL(g.m[0].value, 0x70657266);
        CU_ASSERT_EQUAL(g.m[0].offset, 0);
        CU_ASSERT_EQUAL(g.m[0].length, at2);
        CU_ASSERT(!g.m[0].has_timestamp);
        CU_ASSERT_EQUAL(g.m[1].idtag, 0x1b);
        CU_ASSERT_EQUAL(g.m[1].value, 2);
        CU_ASSERT(g.m[1].has_timestamp);
        CU_ASSERT_EQUAL(g.m[1].timestamp, 0x123456789ull);
        CU_ASSERT_EQUAL(g.m[1].offset, at2);
        CU_ASSERT_EQUAL(g.m[2].offset, at3);
        CU_ASSERT_EQUAL(g.m[2].value, 0xffff);
        CU_ASSERT_EQUAL(g.m[2].line, 0);
        got_free(&g);
    }
}

/* SRC of 2 and of 8 bits: bit-packed after the TCODE. */
static void test_nexus_src(void)
{
    for (unsigned sb = 1; sb <= 8; sb++) {
        uint8_t buf[64];
        uint64_t f[2] = {0x18, 0xdeadbeef};
        uint32_t src = (1u << sb) - 1 - (sb > 1);
        size_t n = da(buf, sb, src, f, 2);
        got g;
        read_bytes(NEXUS, buf, n, sb, 0, &g);
        EXPECT_RULES(&g.diags, "");
        CHECK(g.n == 1 && g.m[0].src == src && g.m[0].idtag == 0x18 &&
                  g.m[0].value == 0xdeadbeef,
              "srcbits %u: %zu messages, src %u idtag 0x%llx value 0x%llx", sb, g.n,
              g.m[0].src, (unsigned long long)g.m[0].idtag, (unsigned long long)g.m[0].value);
        got_free(&g);
        /* Read with the wrong SRC width the fields shift: never a crash. */
        read_bytes(NEXUS, buf, n, sb - 1, 0, &g);
        got_free(&g);
    }
}

/* Other TCODEs are skipped by their framing, idle bytes between messages. */
static void test_nexus_skip(void)
{
    uint8_t buf[256];
    size_t n = 0;
    /* TCODE 9 (a sync), three bytes: fields then the end */
    buf[n++] = (uint8_t)(9 << 2);
    buf[n++] = (uint8_t)(5 << 2 | 1);
    buf[n++] = (uint8_t)(7 << 2 | 3);
    buf[n++] = 0xff;
    buf[n++] = 0xff;
    size_t at = n;
    n += da2(buf + n, 0x18, 7);
    /* TCODE 35, an ICT message, whose field bits look like a TCODE 7 */
    buf[n++] = (uint8_t)(35 << 2);
    buf[n++] = (uint8_t)(7 << 2);
    buf[n++] = (uint8_t)(7 << 2 | 3);
    /* a one-byte message (TCODE 0 with MSEO 3) */
    buf[n++] = 0x03;
    got g;
    read_bytes(NEXUS, buf, n, 0, 3, &g);
    EXPECT_RULES(&g.diags, "");
    CHECK(g.n == 1 && g.m[0].offset == at && g.m[0].value == 7, "%zu messages", g.n);
    got_free(&g);
}

static void test_nexus_mid_start(void)
{
    uint8_t buf[64];
    size_t n = 0;
    /* the tail of a message: a field end, data, the message end */
    buf[n++] = 0x00;
    buf[n++] = (uint8_t)(33 << 2 | 1);
    buf[n++] = 0xff; /* idle: not counted */
    buf[n++] = (uint8_t)(4 << 2 | 3);
    size_t at = n;
    n += da2(buf + n, 0x18, 1);
    got g;
    read_bytes(NEXUS, buf, n, 0, 0, &g);
    EXPECT_RULES(&g.diags, "PERF-NEXUS-MID-START");
    EXPECT_MESSAGE(&g.diags, "PERF-NEXUS-MID-START", "starts at offset 4: the 3 bytes");
    CU_ASSERT_EQUAL(g.diags.d[0].length, at);
    CU_ASSERT_EQUAL(g.n, 1);
    CHECK(g.wrapped && g.wrapped_first, "the reader says the buffer wrapped, before the first "
          "message (%d, %d)", g.wrapped, g.wrapped_first);
    got_free(&g);
    /* Idle bytes alone at the start are no finding. */
    uint8_t idle[16] = {0xff, 0xff};
    size_t k = 2 + da2(idle + 2, 0x18, 1);
    read_bytes(NEXUS, idle, k, 0, 0, &g);
    EXPECT_RULES(&g.diags, "");
    CU_ASSERT_EQUAL(g.n, 1);
    CHECK(!g.wrapped, "idle bytes are no wrap");
    got_free(&g);
    /* Nothing but message ends: reported once, no message. */
    uint8_t tail[5] = {0x01, 0x07, 0x0b, 0x00, 0xff};
    read_bytes(NEXUS, tail, 5, 0, 2, &g);
    EXPECT_RULES(&g.diags, "PERF-NEXUS-MID-START");
    EXPECT_MESSAGE(&g.diags, "PERF-NEXUS-MID-START", "no message starts in the file: its 4 bytes");
    CU_ASSERT_EQUAL(g.n, 0);
    got_free(&g);
}

static void test_nexus_long(void)
{
    uint8_t buf[256];
    size_t n = 0;
    n += da2(buf + n, 0x18, 1);
    size_t at = n;
    buf[n++] = (uint8_t)(7 << 2);
    for (int i = 0; i < 69; i++)
        buf[n++] = (uint8_t)((i & 63) << 2 | (i % 5 == 4)); /* field ends, no message end */
    buf[n++] = 0x07; /* the message end, skipped with it */
    size_t after = n;
    n += da2(buf + n, 0x18, 2);
    got g;
    read_bytes(NEXUS, buf, n, 0, 7, &g);
    EXPECT_RULES(&g.diags, "PERF-NEXUS-MESSAGE-LONG");
    EXPECT_OFFSET(&g.diags, "PERF-NEXUS-MESSAGE-LONG", at);
    EXPECT_MESSAGE(&g.diags, "PERF-NEXUS-MESSAGE-LONG", "TCODE 7) has not ended after 64 bytes");
    CHECK(g.n == 2 && g.m[1].offset == after && g.m[1].value == 2, "%zu messages", g.n);
    got_free(&g);
    /* 64 bytes with the end on the last one is fine (not Data Acquisition). */
    uint8_t ok[64];
    ok[0] = 9 << 2;
    for (int i = 1; i < 63; i++)
        ok[i] = 1 << 2;
    ok[63] = 3;
    read_bytes(NEXUS, ok, 64, 0, 0, &g);
    EXPECT_RULES(&g.diags, "");
    got_free(&g);
}

static void test_nexus_truncated(void)
{
    uint8_t buf[64];
    size_t n = da2(buf, 0x18, 0x12345678);
    size_t full = n;
    n += da2(buf + n, 0x18, 0x12345678);
    got g;
    read_bytes(NEXUS, buf, n - 1, 0, 0, &g);
    EXPECT_RULES(&g.diags, "PERF-NEXUS-TRUNCATED");
    EXPECT_OFFSET(&g.diags, "PERF-NEXUS-TRUNCATED", full);
    CU_ASSERT_EQUAL(g.diags.d[0].length, n - 1 - full);
    CU_ASSERT_EQUAL(g.diags.d[0].severity, TC_WARNING);
    char want[160];
    snprintf(want, sizeof want, "the capture stops inside a message: the file ends %zu bytes "
             "into the message (TCODE 7, Data Acquisition) that starts at offset %zu",
             n - 1 - full, full);
    EXPECT_MESSAGE(&g.diags, "PERF-NEXUS-TRUNCATED", want);
    EXPECT_MESSAGE(&g.diags, "PERF-NEXUS-TRUNCATED", "the incomplete message is not decoded");
    CU_ASSERT_EQUAL(g.n, 1);
    got_free(&g);
    /* One byte of another TCODE: its TCODE is still given. */
    buf[full] = 9 << 2;
    read_bytes(NEXUS, buf, full + 1, 0, 0, &g);
    EXPECT_MESSAGE(&g.diags, "PERF-NEXUS-TRUNCATED", "ends 1 byte into the message (TCODE 9) "
                   "that starts at offset");
    got_free(&g);
}

static void test_nexus_da_fields(void)
{
    struct {
        uint8_t b[8];
        size_t n;
        unsigned srcbits;
        const char *needle;
    } cases[] = {
        {{7 << 2 | 3}, 1, 0, "right after its TCODE"},
        {{7 << 2 | 1, 0x18 << 2 | 3}, 2, 0, "right after its TCODE"},
        {{7 << 2, 0x18 << 2 | 3}, 2, 0, "after its IDTAG field, without DQDATA"},
        /* srcbits 6: SRC fills byte 1, which ends a field: IDTAG has no bit */
        {{7 << 2, 1 << 2 | 1, 0x18 << 2, 1 << 2 | 3}, 4, 6, "inside or right after its SRC"},
        /* srcbits 8: SRC runs into byte 2, but byte 1 ends the message */
        {{7 << 2, 1 << 2 | 3}, 2, 8, "inside or right after its SRC"},
        /* four variable fields */
        {{7 << 2, 0x18 << 2 | 1, 1 << 2 | 1, 2 << 2 | 1, 3 << 2 | 3}, 5, 0, "has 4 variable fields"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        /* After a good message: at the file start, a byte with MSEO != 0
         * is not a message start. */
        uint64_t f[2] = {0x18, 9};
        uint8_t buf[64];
        size_t n = da(buf, cases[i].srcbits, 1, f, 2);
        memcpy(buf + n, cases[i].b, cases[i].n);
        got g;
        read_bytes(NEXUS, buf, n + cases[i].n, cases[i].srcbits, 0, &g);
        EXPECT_RULES(&g.diags, "PERF-NEXUS-DA-FIELDS");
        EXPECT_MESSAGE(&g.diags, "PERF-NEXUS-DA-FIELDS", cases[i].needle);
        EXPECT_OFFSET(&g.diags, "PERF-NEXUS-DA-FIELDS", n);
        CHECK(g.n == 1, "case %zu: %zu messages", i, g.n);
        got_free(&g);
    }
}

static void test_nexus_field_width(void)
{
    /* DQDATA of 12 bytes (72 bits): a set bit at 70 is too wide; zero
     * padding above bit 63 is read. */
    for (int high = 0; high <= 1; high++) {
        uint8_t b[16];
        size_t n = 0;
        b[n++] = 7 << 2;
        b[n++] = 0x18 << 2 | 1;
        for (int i = 0; i < 11; i++)
            b[n++] = (uint8_t)((i == 0 ? 5 : 0) << 2);
        b[n++] = (uint8_t)((high ? 1 << 4 : 0) << 2 | 3); /* bits 66..71: bit 70 */
        got g;
        read_bytes(NEXUS, b, n, 0, 0, &g);
        if (high) {
            EXPECT_RULES(&g.diags, "PERF-NEXUS-FIELD-WIDTH");
            EXPECT_MESSAGE(&g.diags, "PERF-NEXUS-FIELD-WIDTH", "DQDATA field");
            CU_ASSERT_EQUAL(g.n, 0);
        } else {
            EXPECT_RULES(&g.diags, "");
            CHECK(g.n == 1 && g.m[0].value == 5, "%zu messages", g.n);
        }
        got_free(&g);
    }
}

/* Hostile bytes: any input is read without a crash, and what is delivered
 * has the fields' bounds. */
static void test_nexus_random(void)
{
    uint64_t x = 12345;
    uint8_t buf[600];
    for (int it = 0; it < 2000; it++) {
        for (size_t i = 0; i < sizeof buf; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            buf[i] = (uint8_t)(x >> 56);
            if ((x >> 20) % 3 == 0)
                buf[i] = (uint8_t)((buf[i] & ~3u) | ((x >> 30) % 7 == 0 ? 3 : 0));
        }
        got g;
        read_bytes(NEXUS, buf, (size_t)(x % sizeof buf), (unsigned)(it % 9), (size_t)(it % 4), &g);
        for (size_t k = 0; k < g.n && k < 64; k++)
            CU_ASSERT(g.m[k].length >= 2 && g.m[k].length <= TC_NEXUS_MAX_MESSAGE);
        got_free(&g);
    }
}

/* ---- text ---- */

static void test_text_valid(void)
{
    const char *t = "# perf channel 6\n"
                    "0x18 0x70657266\n"
                    "\n"
                    "  27\t0 # count type\r\n"
                    "0X18 0xFFFFFFFFffffffff 18446744073709551615\n"
                    "0x1b 0x2";
    for (size_t step = 0; step <= 3; step++) {
        got g;
        read_bytes(TEXT, t, strlen(t), 0, step, &g);
        EXPECT_RULES(&g.diags, "");
        CHECK(g.n == 4, "%zu messages", g.n);
        CU_ASSERT_EQUAL(g.m[0].line, 2);
        CU_ASSERT_EQUAL(g.m[0].offset, 17);
        CU_ASSERT_EQUAL(g.m[0].length, 15);
        CU_ASSERT_EQUAL(g.m[0].value, 0x70657266);
        CU_ASSERT_EQUAL(g.m[1].line, 4);
        CU_ASSERT_EQUAL(g.m[1].idtag, 27);
        CU_ASSERT_EQUAL(g.m[1].value, 0);
        CU_ASSERT(!g.m[1].has_timestamp);
        CU_ASSERT_EQUAL(g.m[2].value, UINT64_MAX);
        CU_ASSERT(g.m[2].has_timestamp);
        CU_ASSERT_EQUAL(g.m[2].timestamp, UINT64_MAX);
        CU_ASSERT_EQUAL(g.m[3].line, 6);
        CU_ASSERT_EQUAL(g.m[3].value, 2);
        got_free(&g);
    }
}

static void test_text_syntax(void)
{
    struct {
        const char *line;
        unsigned column;
        const char *needle;
    } cases[] = {
        {"0x18", 1, "only one number"},
        {"1 2 3 4", 7, "a fourth number"},
        {"0x 5", 1, "\"0x\" without hex digits"},
        {"0x1g 5", 4, "'g' inside a number"},
        {"12a 5", 3, "'a' inside a number"},
        {"-1 5", 1, "'-' where a number starts"},
        {"1 18446744073709551616", 3, "above 18446744073709551615"},
        {"1 0x10000000000000000", 3, "above 18446744073709551615"},
        {"1 2\r3", 4, "carriage return not followed"},
        {"1 \xc3\xa9", 3, "byte 0xc3 where a number starts"},
        {"1 0b1", 4, "'b' inside a number"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[128];
        int n = snprintf(buf, sizeof buf, "0x18 1\n%s\n0x18 2\n", cases[i].line);
        got g;
        read_bytes(TEXT, buf, (size_t)n, 0, 0, &g);
        EXPECT_RULES(&g.diags, "PERF-TEXT-SYNTAX");
        EXPECT_MESSAGE(&g.diags, "PERF-TEXT-SYNTAX", cases[i].needle);
        if (g.diags.n == 1)
            CHECK(g.diags.d[0].offset == 7 + cases[i].column - 1,
                  "\"%s\": offset %llu, column %u expected", cases[i].line,
                  (unsigned long long)g.diags.d[0].offset, cases[i].column);
        CHECK(g.n == 2 && g.m[1].value == 2, "\"%s\": %zu messages", cases[i].line, g.n);
        got_free(&g);
    }
    /* A NUL byte */
    const char nul[] = "0x18 1\n0x18\0 2\n";
    got g;
    read_bytes(TEXT, nul, sizeof nul - 1, 0, 0, &g);
    EXPECT_RULES(&g.diags, "PERF-TEXT-SYNTAX");
    EXPECT_MESSAGE(&g.diags, "PERF-TEXT-SYNTAX", "byte 0x00 inside a number");
    CU_ASSERT_EQUAL(g.n, 1);
    got_free(&g);
    /* A lone CR at the very end */
    read_bytes(TEXT, "1 2\r", 4, 0, 0, &g);
    EXPECT_RULES(&g.diags, "PERF-TEXT-SYNTAX");
    got_free(&g);
}

static const tu_test tests[] = {
    {"Nexus: Data Acquisition fields, across windows", test_nexus_fields},
    {"Nexus: SRC of 1 to 8 bits", test_nexus_src},
    {"Nexus: other TCODEs and idle bytes skipped", test_nexus_skip},
    {"Nexus: a file starting mid-message", test_nexus_mid_start},
    {"Nexus: a message over 64 bytes", test_nexus_long},
    {"Nexus: a truncated last message", test_nexus_truncated},
    {"Nexus: Data Acquisition without its fields", test_nexus_da_fields},
    {"Nexus: a field over 64 bits", test_nexus_field_width},
    {"Nexus: random bytes", test_nexus_random},
    {"text: valid lines", test_text_valid},
    {"text: syntax errors with their columns", test_text_syntax},
    {NULL, NULL},
};

void register_perf_container_suite(void) { tu_add_suite("perf_container", tests); }
