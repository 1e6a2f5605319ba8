/* XRay basic-mode logs (spec/xray/xray.md, rulings 13 to 16): detection, the
 * record layout in both byte orders, every XRAY-BASIC-* rule with the values
 * its message carries, per-thread state across interleaved blocks, the
 * canonical dump, and bounded state for many threads and deep stacks. The
 * bytes are built here from the record table alone (not by the generator). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../suites.h"
#include "../tu.h"

enum { ENTER = 0, EXIT = 1, TAIL = 2, ENTER_ARG = 3 };

typedef struct blog {
    tu_bytes b;
    int be;
    unsigned version;
} blog;

static void put(blog *l, uint64_t v, unsigned n)
{
    uint8_t x[8];
    for (unsigned i = 0; i < n; i++)
        x[l->be ? n - 1 - i : i] = (uint8_t)(v >> (8 * i));
    tu_bytes_append(&l->b, x, n);
}

/* Header: version, type 0, bitfield (constant and non-stop TSC: bits 0-1,
 * MSB-first big-endian, plus reserved bits), 2.4 GHz, 16 bytes of `fill`. */
static void blog_init_full(blog *l, unsigned version, int be, uint32_t reserved_bits, uint8_t fill)
{
    memset(l, 0, sizeof *l);
    l->be = be;
    l->version = version;
    put(l, version, 2);
    put(l, 0, 2);
    put(l, (be ? 3u << 30 : 3u) | reserved_bits, 4);
    put(l, 2400000000u, 8);
    uint8_t f[16];
    memset(f, fill, sizeof f);
    tu_bytes_append(&l->b, f, sizeof f);
}

static void blog_init(blog *l, unsigned version, int be) { blog_init_full(l, version, be, 0, 0); }

static void fn_full(blog *l, uint16_t rtype, unsigned cpu, unsigned type, int32_t func,
                    uint64_t tsc, uint32_t tid, uint32_t pid, uint8_t pad)
{
    put(l, rtype, 2);
    uint8_t cb[2] = {(uint8_t)cpu, (uint8_t)type};
    tu_bytes_append(&l->b, cb, 2);
    put(l, (uint32_t)func, 4);
    put(l, tsc, 8);
    put(l, tid, 4);
    put(l, pid, 4);
    uint8_t p[8];
    memset(p, pad, sizeof p);
    tu_bytes_append(&l->b, p, sizeof p);
}

/* A function record of thread tid; pid 99 from version 3, 0 before. */
static void fn(blog *l, unsigned type, int32_t func, uint64_t tsc, uint32_t tid)
{
    fn_full(l, 0, 2, type, func, tsc, tid, l->version >= 3 ? 99 : 0, 0);
}

static void arg_full(blog *l, int32_t func, uint32_t tid, uint32_t pid, uint64_t value,
                     uint8_t pad)
{
    put(l, 1, 2);
    uint8_t p2[2] = {pad, pad};
    tu_bytes_append(&l->b, p2, 2);
    put(l, (uint32_t)func, 4);
    put(l, tid, 4);
    put(l, pid, 4);
    put(l, value, 8);
    uint8_t p[8];
    memset(p, pad, sizeof p);
    tu_bytes_append(&l->b, p, sizeof p);
}

static void arg(blog *l, int32_t func, uint32_t tid, uint64_t value)
{
    arg_full(l, func, tid, l->version >= 3 ? 99 : 0, value, 0);
}

static size_t here(const blog *l) { return l->b.len; }

/* Validates with and without the dump (they must agree); pedantic as given. */
static int check(const blog *l, int pedantic, tu_result *r)
{
    tu_opts o = {.pedantic = pedantic};
    tu_result plain = {0};
    tu_check_memory(l->b.p, l->b.len, &o, &plain);
    o.dump = 1;
    tu_check_memory(l->b.p, l->b.len, &o, r);
    tu_assert_same(r, &plain, 0, "validation without a dump vs with one");
    tu_result_free(&plain);
    return r->status;
}

/* ---- valid logs ---- */

static void test_valid_every_version_and_order(void)
{
    for (unsigned v = 1; v <= 3; v++)
        for (int be = 0; be <= 1; be++) {
            blog l;
            blog_init(&l, v, be);
            fn(&l, ENTER, 1, 1000, 7);
            fn(&l, ENTER_ARG, 2, 1010, 7);
            arg(&l, 2, 7, 0xfffffffffffffffeull);
            arg(&l, 2, 7, 5);
            if (v >= 2)
                fn(&l, TAIL, 2, 1020, 7);
            else
                fn(&l, EXIT, 2, 1020, 7);
            fn(&l, EXIT, 1, 1030, 7);
            tu_result r = {0};
            check(&l, 1, &r);
            CHECK(r.status == 0 && r.n == 0, "v%u %s: status %d, findings %s", v,
                  be ? "big" : "little", r.status, tu_describe(&r));
            CU_ASSERT_EQUAL(r.sum.format, TC_FORMAT_XRAY_BASIC);
            char line[400];
            snprintf(line, sizeof line,
                     "{\"t\":\"header\",\"format\":\"xray-basic\",\"dump_version\":2,\"version\":%u,"
                     "\"type\":0,\"byte_order\":\"%s\",\"constant_tsc\":true,\"nonstop_tsc\":true,"
                     "\"cycle_frequency\":\"2400000000\"}", v, be ? "big" : "little");
            EXPECT_DUMP_LINE(&r, 0, line);
            const char *pid = v >= 3 ? ",\"pid\":99" : "";
            snprintf(line, sizeof line, "{\"t\":\"function\",\"action\":\"enter_args\",\"func\":2,"
                     "\"cpu\":2,\"tsc\":\"1010\",\"tid\":7%s}", pid);
            EXPECT_DUMP_LINE(&r, 2, line);
            snprintf(line, sizeof line, "{\"t\":\"call_arg\",\"func\":2,\"tid\":7%s,"
                     "\"value\":\"18446744073709551614\"}", pid);
            EXPECT_DUMP_LINE(&r, 3, line);
            snprintf(line, sizeof line, "{\"t\":\"function\",\"action\":\"%s\",\"func\":2,"
                     "\"cpu\":2,\"tsc\":\"1020\",\"tid\":7%s}", v >= 2 ? "tail_exit" : "exit", pid);
            EXPECT_DUMP_LINE(&r, 5, line);
            CU_ASSERT_EQUAL(tu_dump_lines(&r), 7);
            tu_result_free(&r);
            tu_bytes_free(&l.b);
        }
}

static void test_header_only(void)
{
    for (unsigned v = 1; v <= 3; v++)
        for (int be = 0; be <= 1; be++) {
            blog l;
            blog_init(&l, v, be);
            tu_result r = {0};
            check(&l, 1, &r);
            CHECK(r.status == 0 && r.n == 0, "v%u header-only: status %d, %s", v, r.status,
                  tu_describe(&r));
            CU_ASSERT_EQUAL(r.sum.format, TC_FORMAT_XRAY_BASIC);
            CU_ASSERT_EQUAL(tu_dump_lines(&r), 1);
            tu_result_free(&r);
            tu_bytes_free(&l.b);
        }
}

/* Threads' blocks interleave: another thread may be behind in time, and a
 * thread's state carries over to its next block. */
static void test_interleaved_blocks(void)
{
    blog l;
    blog_init(&l, 3, 0);
    fn(&l, ENTER, 1, 5000, 7);
    fn(&l, ENTER, 2, 5001, 7);
    fn(&l, ENTER, 3, 100, 8); /* thread 8 is far behind */
    fn(&l, EXIT, 3, 110, 8);
    fn(&l, EXIT, 2, 5002, 7); /* thread 7's stack carried over */
    fn(&l, EXIT, 1, 5003, 7);
    fn(&l, EXIT, 9, 120, 8);  /* an exit with nothing open: fine */
    /* Same thread id in another process: another thread (version 3). */
    fn_full(&l, 0, 1, ENTER, 4, 50, 7, 100, 0);
    tu_result r = {0};
    check(&l, 0, &r);
    EXPECT_RULES(&r, "");
    tu_result_free(&r);
    tu_bytes_free(&l.b);
}

/* ---- errors ---- */

static void test_file_size(void)
{
    for (size_t extra = 1; extra < 32; extra += 7) {
        blog l;
        blog_init(&l, 3, 0);
        fn(&l, ENTER, 1, 1, 7);
        fn(&l, EXIT, 1, 2, 7);
        uint8_t junk[32] = {0};
        tu_bytes_append(&l.b, junk, extra);
        tu_result r = {0};
        check(&l, 1, &r);
        CU_ASSERT_EQUAL(r.status, 1);
        EXPECT_RULES(&r, "XRAY-BASIC-FILE-SIZE");
        EXPECT_OFFSET(&r, "XRAY-BASIC-FILE-SIZE", 96);
        char needle[96];
        snprintf(needle, sizeof needle, "ends %zu bytes into a record", extra);
        EXPECT_MESSAGE(&r, "XRAY-BASIC-FILE-SIZE", needle);
        EXPECT_MESSAGE(&r, "XRAY-BASIC-FILE-SIZE", "2 whole 32-byte records");
        CU_ASSERT_EQUAL(tu_dump_lines(&r), 3); /* the partial record has no line */
        tu_result_free(&r);
        tu_bytes_free(&l.b);
    }
}

static void test_record_type(void)
{
    blog l;
    blog_init(&l, 2, 1);
    fn(&l, ENTER, 1, 1, 7);
    size_t at = here(&l);
    fn_full(&l, 0x0102, 2, ENTER, 5, 2, 7, 0, 0);
    arg(&l, 3, 9, 4); /* after an unknown record: not judged */
    fn(&l, EXIT, 1, 3, 7);
    tu_result r = {0};
    check(&l, 0, &r);
    CU_ASSERT_EQUAL(r.status, 1);
    EXPECT_RULES(&r, "XRAY-BASIC-RECORD-TYPE");
    EXPECT_OFFSET(&r, "XRAY-BASIC-RECORD-TYPE", at);
    EXPECT_MESSAGE(&r, "XRAY-BASIC-RECORD-TYPE", "record type 258 (0x0102)");
    tu_result_free(&r);
    tu_bytes_free(&l.b);
}

static void test_function_type(void)
{
    blog l;
    blog_init(&l, 3, 0);
    fn(&l, ENTER, 1, 1, 7);
    size_t at = here(&l);
    fn(&l, 4, 21, 0, 7); /* no part in the TSC and stack checks */
    fn(&l, 255, 22, 0, 7);
    fn(&l, EXIT, 1, 3, 7);
    tu_result r = {0};
    check(&l, 0, &r);
    EXPECT_RULES(&r, "XRAY-BASIC-FUNCTION-TYPE XRAY-BASIC-FUNCTION-TYPE");
    EXPECT_OFFSET(&r, "XRAY-BASIC-FUNCTION-TYPE", at + 3);
    EXPECT_MESSAGE(&r, "XRAY-BASIC-FUNCTION-TYPE", "function 21 (thread 7) has type 4");
    EXPECT_MESSAGE(&r, "XRAY-BASIC-FUNCTION-TYPE", "has type 255");
    CU_ASSERT_EQUAL(tu_dump_lines(&r), 3);
    tu_result_free(&r);
    tu_bytes_free(&l.b);
}

static void test_tail_exit_version(void)
{
    blog l;
    blog_init(&l, 1, 0);
    fn(&l, ENTER, 6, 1, 7);
    size_t at = here(&l);
    fn(&l, TAIL, 6, 2, 7);
    fn(&l, EXIT, 6, 3, 7); /* the tail exit popped: nothing open, no warning */
    tu_result r = {0};
    check(&l, 0, &r);
    EXPECT_RULES(&r, "XRAY-BASIC-TAIL-EXIT-VERSION");
    EXPECT_OFFSET(&r, "XRAY-BASIC-TAIL-EXIT-VERSION", at + 3);
    EXPECT_MESSAGE(&r, "XRAY-BASIC-TAIL-EXIT-VERSION", "TailExit of function 6 (thread 7) in a "
                   "version 1 log");
    EXPECT_DUMP_LINE(&r, 2, "{\"t\":\"function\",\"action\":\"tail_exit\",\"func\":6,\"cpu\":2,"
                     "\"tsc\":\"2\",\"tid\":7}");
    tu_result_free(&r);
    tu_bytes_free(&l.b);
}

static void test_argument_placement(void)
{
    tu_result r = {0};
    /* Another function, same thread: the message names both. */
    blog l;
    blog_init(&l, 2, 0);
    fn(&l, ENTER_ARG, 20, 1, 7);
    size_t at = here(&l);
    arg(&l, 21, 7, 1);
    fn(&l, EXIT, 20, 2, 7);
    check(&l, 0, &r);
    EXPECT_RULES(&r, "XRAY-BASIC-ARG-PLACEMENT");
    EXPECT_OFFSET(&r, "XRAY-BASIC-ARG-PLACEMENT", at);
    EXPECT_MESSAGE(&r, "XRAY-BASIC-ARG-PLACEMENT", "argument payload of function 21 follows a "
                   "function record of function 20 (thread 7, at offset 32)");
    tu_bytes_free(&l.b);

    /* First record of the log. */
    blog_init(&l, 3, 1);
    arg(&l, 5, 7, 1);
    fn(&l, ENTER, 5, 1, 7);
    check(&l, 0, &r);
    EXPECT_RULES(&r, "XRAY-BASIC-ARG-PLACEMENT");
    EXPECT_OFFSET(&r, "XRAY-BASIC-ARG-PLACEMENT", 32);
    EXPECT_MESSAGE(&r, "XRAY-BASIC-ARG-PLACEMENT", "argument payload of function 5 (thread 7) is "
                   "the first record of the log");
    tu_bytes_free(&l.b);

    /* Another thread; then a second payload after the first one. */
    blog_init(&l, 3, 0);
    fn(&l, ENTER_ARG, 4, 1, 7);
    arg(&l, 4, 8, 1);
    arg(&l, 4, 8, 2); /* follows a payload of its function and thread: fine */
    check(&l, 0, &r);
    EXPECT_RULES(&r, "XRAY-BASIC-ARG-PLACEMENT");
    EXPECT_MESSAGE(&r, "XRAY-BASIC-ARG-PLACEMENT", "argument payload of thread 8 follows a "
                   "function record of thread 7 (function 4, process 99, at offset 32)");
    tu_bytes_free(&l.b);

    /* Another process: an error in version 3 only. */
    for (unsigned v = 2; v <= 3; v++) {
        blog_init(&l, v, 0);
        fn_full(&l, 0, 1, ENTER_ARG, 4, 1, 7, 0, 0);
        arg_full(&l, 4, 7, 12, 3, 0);
        check(&l, 0, &r);
        if (v == 3) {
            EXPECT_RULES(&r, "XRAY-BASIC-ARG-PLACEMENT");
            EXPECT_MESSAGE(&r, "XRAY-BASIC-ARG-PLACEMENT", "argument payload of process 12 "
                           "follows a function record of process 0 (function 4, thread 7");
        } else {
            EXPECT_RULES(&r, "");
        }
        tu_bytes_free(&l.b);
    }

    /* Across blocks the payload follows the record before it, whatever
     * thread wrote it. */
    blog_init(&l, 3, 0);
    fn(&l, ENTER_ARG, 4, 1, 7);
    arg(&l, 4, 7, 3);
    fn(&l, ENTER_ARG, 5, 1, 8);
    arg(&l, 4, 7, 3);
    check(&l, 0, &r);
    EXPECT_RULES(&r, "XRAY-BASIC-ARG-PLACEMENT");
    EXPECT_OFFSET(&r, "XRAY-BASIC-ARG-PLACEMENT", 32 + 3 * 32);
    tu_bytes_free(&l.b);
    tu_result_free(&r);

    /* Ruling 17: only after an EnterArg record (or its payloads). After an
     * Exit of its function, the type it follows is named; the payload after
     * the misplaced one is the same finding. */
    blog_init(&l, 3, 0);
    fn(&l, ENTER, 4, 1, 7);
    fn(&l, EXIT, 4, 2, 7);
    arg(&l, 4, 7, 3);
    arg(&l, 4, 7, 4);
    check(&l, 0, &r);
    EXPECT_RULES(&r, "XRAY-BASIC-ARG-PLACEMENT");
    EXPECT_OFFSET(&r, "XRAY-BASIC-ARG-PLACEMENT", 32 + 2 * 32);
    EXPECT_MESSAGE(&r, "XRAY-BASIC-ARG-PLACEMENT", "argument payload of function 4 (thread 7) "
                   "follows an Exit record (type 1) of its function at offset 64");
    tu_bytes_free(&l.b);
    tu_result_free(&r);
    for (int type = ENTER; type <= TAIL; type++) {
        blog_init(&l, 2, 1);
        fn(&l, type, 6, 1, 7);
        arg(&l, 6, 7, 3);
        check(&l, 0, &r);
        EXPECT_RULES(&r, "XRAY-BASIC-ARG-PLACEMENT");
        tu_bytes_free(&l.b);
        tu_result_free(&r);
    }
}

/* ---- warnings ---- */

static void test_tsc_backwards(void)
{
    blog l;
    blog_init(&l, 3, 0);
    fn(&l, ENTER, 1, 1000, 7);
    fn(&l, ENTER, 2, 900, 8);
    fn(&l, EXIT, 2, 950, 8);
    size_t at = here(&l);
    fn(&l, EXIT, 1, 990, 7);
    fn(&l, ENTER, 1, 990, 7); /* equal: fine; the thread goes on from 990 */
    tu_result r = {0};
    check(&l, 0, &r);
    CU_ASSERT_EQUAL(r.status, 0);
    EXPECT_RULES(&r, "XRAY-BASIC-TSC-BACKWARDS");
    EXPECT_OFFSET(&r, "XRAY-BASIC-TSC-BACKWARDS", at + 8);
    EXPECT_MESSAGE(&r, "XRAY-BASIC-TSC-BACKWARDS", "TSC 990 of thread 7, process 99 is below the "
                   "1000 of its record at offset 32 (10 ticks back)");
    tu_result_free(&r);
    tu_bytes_free(&l.b);
}

static void test_callstack_mismatch(void)
{
    blog l;
    blog_init(&l, 2, 0);
    fn(&l, ENTER, 1, 1, 7);
    fn(&l, ENTER, 2, 2, 7);
    fn(&l, ENTER, 9, 2, 8); /* another thread's block between */
    size_t at = here(&l);
    fn(&l, EXIT, 1, 3, 7); /* 2 is innermost: a warning, then 1 and 2 are unwound */
    fn(&l, EXIT, 9, 3, 8);
    fn(&l, EXIT, 3, 4, 7); /* nothing open: fine */
    tu_result r = {0};
    check(&l, 0, &r);
    CU_ASSERT_EQUAL(r.status, 0);
    EXPECT_RULES(&r, "XRAY-BASIC-CALLSTACK-MISMATCH");
    EXPECT_OFFSET(&r, "XRAY-BASIC-CALLSTACK-MISMATCH", at);
    EXPECT_MESSAGE(&r, "XRAY-BASIC-CALLSTACK-MISMATCH", "Exit of function 1, but the innermost "
                   "open Enter of thread 7 is of function 2 (at offset 64)");
    tu_result_free(&r);
    tu_bytes_free(&l.b);
}

/* ---- notes ---- */

static void test_pedantic_notes(void)
{
    /* Garbage in the header's bitfield and union (0xAA, as runtimes 19 and
     * 22 write), in padding, and a process id in version 2. */
    blog l;
    blog_init_full(&l, 2, 0, 0xaaaaaaa8u, 0xaa);
    fn_full(&l, 0, 1, ENTER_ARG, 1, 1, 7, 0, 0x5a);
    arg_full(&l, 1, 7, 4242, 9, 0);
    fn(&l, EXIT, 1, 2, 7);
    tu_result r = {0};
    check(&l, 0, &r);
    EXPECT_RULES(&r, "");
    check(&l, 1, &r);
    CU_ASSERT_EQUAL(r.status, 0);
    EXPECT_RULES(&r, "XRAY-HEADER-RESERVED-NONZERO XRAY-BASIC-PADDING-NONZERO "
                     "XRAY-BASIC-PID-BEFORE-V3");
    EXPECT_MESSAGE(&r, "XRAY-HEADER-RESERVED-NONZERO", "reserved header bits 0x2aaaaaaa");
    EXPECT_OFFSET(&r, "XRAY-BASIC-PADDING-NONZERO", 32 + 24);
    EXPECT_MESSAGE(&r, "XRAY-BASIC-PADDING-NONZERO", "function record has padding bytes 5a 5a");
    EXPECT_OFFSET(&r, "XRAY-BASIC-PID-BEFORE-V3", 64 + 12);
    EXPECT_MESSAGE(&r, "XRAY-BASIC-PID-BEFORE-V3", "argument payload has process id 4242 in a "
                   "version 2 log");
    tu_result_free(&r);
    tu_bytes_free(&l.b);
}

static void test_cycle_frequency_zero(void)
{
    blog l;
    blog_init(&l, 3, 0);
    memset(l.b.p + 8, 0, 8);
    tu_result r = {0};
    check(&l, 0, &r);
    CU_ASSERT_EQUAL(r.status, 0);
    EXPECT_RULES(&r, "XRAY-HEADER-CYCLE-FREQUENCY-ZERO");
    tu_result_free(&r);
    tu_bytes_free(&l.b);
}

/* ---- the header and the two formats ---- */

static void test_formats(void)
{
    tu_result r = {0};
    blog l;
    blog_init(&l, 3, 0);
    fn(&l, ENTER, 1, 1, 7);
    /* --format xray: FDR only. */
    tu_opts o = {.format = TC_FORMAT_XRAY};
    tu_check_memory(l.b.p, l.b.len, &o, &r);
    EXPECT_RULES(&r, "XRAY-HEADER-BASIC-MODE");
    EXPECT_MESSAGE(&r, "XRAY-HEADER-BASIC-MODE", "--format xray-basic (or auto) reads it");
    o.format = TC_FORMAT_XRAY_BASIC;
    tu_check_memory(l.b.p, l.b.len, &o, &r);
    EXPECT_RULES(&r, "");
    /* Versions 4 and 5 of type 0 do not exist. */
    for (unsigned v = 4; v <= 5; v++) {
        l.b.p[0] = (uint8_t)v;
        tu_check_memory(l.b.p, l.b.len, NULL, &r);
        EXPECT_RULES(&r, "XRAY-HEADER-BASIC-MODE");
        CU_ASSERT_EQUAL(r.sum.format, TC_FORMAT_XRAY);
        char needle[64];
        snprintf(needle, sizeof needle, "but its version is %u", v);
        EXPECT_MESSAGE(&r, "XRAY-HEADER-BASIC-MODE", needle);
    }
    /* An FDR header read as basic mode. */
    l.b.p[0] = 3;
    l.b.p[2] = 1;
    tu_check_memory(l.b.p, l.b.len, &o, &r);
    EXPECT_RULES(&r, "XRAY-HEADER-TYPE");
    EXPECT_MESSAGE(&r, "XRAY-HEADER-TYPE", "not a basic-mode log (type 0) as --format "
                   "xray-basic says");
    /* Cut inside the header: still told by its first bytes. */
    l.b.p[2] = 0;
    tu_check_memory(l.b.p, 20, NULL, &r);
    EXPECT_RULES(&r, "XRAY-HEADER-TRUNCATED");
    CU_ASSERT_EQUAL(r.sum.format, TC_FORMAT_XRAY_BASIC);
    tu_result_free(&r);
    tu_bytes_free(&l.b);
    CU_ASSERT_EQUAL(tc_format_from_name("xray-basic"), TC_FORMAT_XRAY_BASIC);
    CU_ASSERT_STRING_EQUAL(tc_format_name(TC_FORMAT_XRAY_BASIC), "xray-basic");
}

/* ---- bounded state ---- */

/* More threads than the parser keeps, each with an open call, then each
 * thread's exits and later records: forgotten threads start afresh, so no
 * finding at all, and ASan sees the memory bounded and freed. */
static void test_many_threads(void)
{
    blog l;
    blog_init(&l, 3, 0);
    const uint32_t n = 10000;
    for (uint32_t t = 0; t < n; t++)
        fn(&l, ENTER, (int32_t)(t % 50), 100 + t, 1000 + t);
    for (uint32_t t = 0; t < n; t++)
        fn(&l, EXIT, (int32_t)(t % 50), 200000 + t, 1000 + t);
    /* A thread seen again and again keeps its state through the churn. */
    fn(&l, ENTER, 7, 300000, 1);
    for (uint32_t t = 0; t < n; t++) {
        fn(&l, ENTER, 8, 300001 + 2 * t, 1);
        fn(&l, ENTER, 8, 300000 + t, 20000 + t);
        fn(&l, EXIT, 8, 300002 + 2 * t, 1);
    }
    fn(&l, EXIT, 6, 900000, 1); /* innermost is 7: a warning */
    tu_result r = {0};
    check(&l, 0, &r);
    CU_ASSERT_EQUAL(r.status, 0);
    CHECK(tu_count(&r, "XRAY-BASIC-CALLSTACK-MISMATCH") == 1 && r.n == 1, "findings %s",
          tu_describe(&r));
    tu_result_free(&r);
    tu_bytes_free(&l.b);
}

/* Deeper than the frames kept: the ones beyond are counted, and the exits
 * that close them are not judged. */
static void test_deep_stack(void)
{
    blog l;
    blog_init(&l, 2, 1);
    const int32_t depth = 3000;
    for (int32_t i = 0; i < depth; i++)
        fn(&l, ENTER, i, (uint64_t)i, 5);
    for (int32_t i = depth; i-- > 0;)
        fn(&l, EXIT, i, (uint64_t)(2 * depth - i), 5);
    fn(&l, ENTER, 1, 10000, 5);
    fn(&l, EXIT, 2, 10001, 5);
    tu_result r = {0};
    check(&l, 0, &r);
    EXPECT_RULES(&r, "XRAY-BASIC-CALLSTACK-MISMATCH");
    tu_result_free(&r);
    tu_bytes_free(&l.b);
}

/* Records cut across every window size: the same findings and dump. */
static void test_windows(void)
{
    blog l;
    blog_init(&l, 3, 1);
    for (int i = 0; i < 40; i++) {
        fn(&l, ENTER_ARG, i, 10u * (uint64_t)i, 7u + (uint32_t)(i % 3));
        arg(&l, i, 7u + (uint32_t)(i % 3), (uint64_t)i);
        fn(&l, i % 7 ? EXIT : 9, i, 10u * (uint64_t)i + 5, 7u + (uint32_t)(i % 3));
    }
    arg(&l, 99, 1, 1);
    uint8_t tail[13] = {1};
    tu_bytes_append(&l.b, tail, sizeof tail);
    tu_opts o = {.pedantic = 1, .dump = 1};
    tu_result ref = {0}, r = {0};
    tu_check_memory(l.b.p, l.b.len, &o, &ref);
    CU_ASSERT(tu_count(&ref, "XRAY-BASIC-FILE-SIZE") == 1);
    CU_ASSERT(tu_count(&ref, "XRAY-BASIC-FUNCTION-TYPE") >= 5);
    static const size_t windows[] = {1, 7, 31, 32, 33, 64, 100, 4096};
    for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++) {
        char *path = tu_write_file("basic.xray", l.b.p, l.b.len);
        o.input.window = windows[w];
        o.input.no_mmap = w & 1;
        tu_check_path(path, &o, &r);
        char what[64];
        snprintf(what, sizeof what, "window %zu", windows[w]);
        tu_assert_same(&ref, &r, 1, what);
        free(path);
    }
    tu_result_free(&r);
    tu_result_free(&ref);
    tu_bytes_free(&l.b);
}

static const tu_test tests[] = {
    {"valid logs: versions 1-3, both byte orders, dump", test_valid_every_version_and_order},
    {"header-only logs are valid", test_header_only},
    {"threads' blocks interleave", test_interleaved_blocks},
    {"XRAY-BASIC-FILE-SIZE", test_file_size},
    {"XRAY-BASIC-RECORD-TYPE", test_record_type},
    {"XRAY-BASIC-FUNCTION-TYPE", test_function_type},
    {"XRAY-BASIC-TAIL-EXIT-VERSION", test_tail_exit_version},
    {"XRAY-BASIC-ARG-PLACEMENT", test_argument_placement},
    {"XRAY-BASIC-TSC-BACKWARDS", test_tsc_backwards},
    {"XRAY-BASIC-CALLSTACK-MISMATCH", test_callstack_mismatch},
    {"pedantic notes", test_pedantic_notes},
    {"cycle frequency 0", test_cycle_frequency_zero},
    {"xray and xray-basic formats", test_formats},
    {"many threads: bounded state", test_many_threads},
    {"deep stacks: bounded state", test_deep_stack},
    {"every window size", test_windows},
    {NULL, NULL},
};

void register_xray_basic_suite(void) { tu_add_suite("xray_basic", tests); }
