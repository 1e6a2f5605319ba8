/* The same trace read every way the input layer can read it (memory, mmap
 * windows of several sizes, the stream path, a pipe, gzip, bzip2, zstd) gives
 * identical findings and an identical canonical dump, byte for byte. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../generators/xray/xray_gen.h"
#include "suites.h"
#include "tu.h"

/* A generated trace (valid, or breaking one rule), in memory. */
static tc_bytebuf generate(unsigned version, int be, uint64_t seed, uint64_t size, int violate)
{
    xray_gen_params p = {.seed = seed, .size = size, .version = version, .threads = 3,
                         .buffer_size = 4096, .big_endian = be, .noisy_padding = 1};
    tc_bytebuf out = {0};
    xray_sink sink = {NULL, &out};
    char err[256] = "";
    tc_error why = TC_ERROR_INIT;
    int rc =
        tu_error_text(xray_generate(&p, violate, NULL, sink, NULL, &why), &why, err, sizeof err);
    CHECK(rc == 0, "xray_generate v%u: %s", version, err);
    return out;
}

static pid_t feed(int fd, const uint8_t *p, size_t n)
{
    pid_t pid = fork();
    if (pid == 0) {
        size_t off = 0;
        while (off < n) {
            ssize_t w = write(fd, p + off, n - off > 5000 ? 5000 : n - off);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                _exit(1);
            off += (size_t)w;
        }
        _exit(0);
    }
    return pid;
}

static void through_pipe(const uint8_t *p, size_t n, const tu_opts *o, tu_result *r)
{
    int fds[2];
    if (pipe(fds) != 0) {
        CU_FAIL("pipe");
        return;
    }
    pid_t pid = feed(fds[1], p, n);
    close(fds[1]);
    char path[64];
    snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
    tu_check_path(path, o, r);
    close(fds[0]);
    int st;
    waitpid(pid, &st, 0);
}

static void all_ways(const uint8_t *trace, size_t n, const char *name, int expect_status)
{
    tu_opts base = {.pedantic = 1, .dump = 1};
    tu_result ref = {0}, r = {0};
    char what[160];
    tu_check_memory(trace, n, &base, &ref);
    CHECK(ref.status == expect_status, "%s: reference status %d (%s)", name, ref.status,
          tu_describe(&ref));
    CHECK(tu_dump_lines(&ref) > 50, "%s: the dump has %zu lines", name, tu_dump_lines(&ref));

    char *path = tu_write_file("equivalence.xray", trace, n);
    static const size_t windows[] = {0, 4096, 4097, 8192, 1000, 100, 1};
    /* Each way with the dump, and without it: the parser's fast path over
     * function records runs only without, and stops at every window's end. */
    for (int dump = 1; dump >= 0; dump--) {
        for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++) {
            tu_opts o = base;
            o.dump = dump;
            o.input.window = windows[w];
            tu_check_path(path, &o, &r);
            snprintf(what, sizeof what, "%s, mmap window %zu%s", name, windows[w],
                     dump ? "" : ", no dump");
            tu_assert_same(&ref, &r, dump, what);
            o.input.no_mmap = 1;
            tu_check_path(path, &o, &r);
            snprintf(what, sizeof what, "%s, stream window %zu%s", name, o.input.window,
                     dump ? "" : ", no dump");
            tu_assert_same(&ref, &r, dump, what);
        }
        tu_opts o = base;
        o.dump = dump;
        through_pipe(trace, n, &o, &r);
        snprintf(what, sizeof what, "%s, pipe%s", name, dump ? "" : ", no dump");
        tu_assert_same(&ref, &r, dump, what);
    }
    free(path);

    static void (*const fns[])(tu_bytes *, const void *, size_t) = {tu_gzip_member,
                                                                     tu_bzip2_stream,
                                                                     tu_zstd_frame};
    static const char *const names[] = {"gzip", "bzip2", "zstd"};
    for (int c = 0; c < 3; c++) {
        tu_bytes z = {0};
        /* Two members / streams / frames, split at an odd offset. */
        fns[c](&z, trace, n / 2 + 3);
        fns[c](&z, trace + n / 2 + 3, n - n / 2 - 3);
        tu_check_memory(z.p, z.len, &base, &r);
        snprintf(what, sizeof what, "%s, %s in memory", name, names[c]);
        tu_assert_same(&ref, &r, 1, what);
        char *zpath = tu_write_file("equivalence.xray.z", z.p, z.len);
        tu_opts o = base;
        o.input.window = 4096;
        tu_check_path(zpath, &o, &r);
        snprintf(what, sizeof what, "%s, %s file", name, names[c]);
        tu_assert_same(&ref, &r, 1, what);
        through_pipe(z.p, z.len, &base, &r);
        snprintf(what, sizeof what, "%s, %s pipe", name, names[c]);
        tu_assert_same(&ref, &r, 1, what);
        free(zpath);
        tu_bytes_free(&z);
    }
    tu_result_free(&r);
    tu_result_free(&ref);
}

static void test_valid_v5(void)
{
    tc_bytebuf t = generate(5, 0, 7, 200000, -1);
    all_ways(t.p, t.len, "v5 little-endian", 0);
    tc_bb_free(&t);
}

static void test_valid_v1_big_endian(void)
{
    tc_bytebuf t = generate(1, 1, 8, 150000, -1);
    all_ways(t.p, t.len, "v1 big-endian", 0);
    tc_bb_free(&t);
}

static void test_invalid(void)
{
    /* Garbage between buffers (resynchronisation), reserved bytes (pedantic
     * notes), and a truncated last buffer. */
    tc_bytebuf t = generate(4, 0, 9, 120000, TC_RULE_XRAY_EXTENTS_EXPECTED);
    all_ways(t.p, t.len, "v4 with garbage", 1);
    tc_bb_free(&t);
    t = generate(3, 1, 10, 100000, TC_RULE_XRAY_RECORD_RESERVED_NONZERO);
    all_ways(t.p, t.len, "v3 big-endian reserved bytes", 0);
    tc_bb_free(&t);
    t = generate(5, 0, 11, 100000, TC_RULE_XRAY_EXTENTS_PAST_EOF);
    all_ways(t.p, t.len, "v5 truncated", 1);
    tc_bb_free(&t);
    t = generate(5, 0, 12, 100000, TC_RULE_XRAY_RECORD_PAST_EXTENTS);
    all_ways(t.p, t.len, "v5 short extents", 1);
    tc_bb_free(&t);
}

/* An event payload above what the reader holds at once (64 MiB) goes out
 * with "data":null, the same way on every path. */
static void test_oversized_payload(void)
{
    size_t payload = TC_READER_MAX_NEED + 1;
    tu_bytes t = {0};
    static const uint8_t header[32] = {5, 0, 1, 0, 3, 0, 0, 0, 0, 0x5e, 0xd0, 0xb2, 0, 0, 0, 0,
                                       0, 0, 0, 0x10}; /* buffer_size 256 MiB */
    tu_bytes_append(&t, header, sizeof header);
    uint8_t rec[16] = {0x0F};
    uint64_t n = 64 + 16 + payload + 8;
    for (int i = 0; i < 8; i++)
        rec[1 + i] = (uint8_t)(n >> (8 * i));
    tu_bytes_append(&t, rec, 16); /* BufferExtents */
    uint8_t nb[16] = {0x01, 1}, wt[16] = {0x09, 1}, pid[16] = {0x13, 2}, cpu[16] = {0x05, 0, 0, 0, 1}; /* CPU 0, TSC 256 */
    tu_bytes_append(&t, nb, 16);
    tu_bytes_append(&t, wt, 16);
    tu_bytes_append(&t, pid, 16);
    tu_bytes_append(&t, cpu, 16);
    uint8_t ev[16] = {0x0B};
    for (int i = 0; i < 4; i++)
        ev[1 + i] = (uint8_t)(payload >> (8 * i));
    ev[5] = 3; /* delta */
    tu_bytes_append(&t, ev, 16);
    for (size_t i = 0; i < payload; i += 65536) { /* a zero payload */
        size_t k = payload - i < 65536 ? payload - i : 65536;
        static const uint8_t zero[65536];
        tu_bytes_append(&t, zero, k);
    }
    static const uint8_t fn[8] = {0x10, 0, 0, 0, 1, 0, 0, 0}; /* Entry(1), delta 1 */
    tu_bytes_append(&t, fn, 8);

    tu_opts o = {.dump = 1};
    tu_result ref = {0}, r = {0};
    tu_check_memory(t.p, t.len, &o, &ref);
    EXPECT_RULES(&ref, "");
    CHECK(ref.dump && strstr(ref.dump, "\"size\":67108865,\"delta\":3,\"cpu\":0,\"tsc\":\"259\",\"data\":null}"),
          "dump:\n%.2000s", ref.dump ? ref.dump : "");
    CU_ASSERT(ref.dump && strstr(ref.dump, "\"tsc\":\"260\"}"));
    char *path = tu_write_file("oversized.xray", t.p, t.len);
    tu_opts mo = o;
    mo.input.window = 1 << 20;
    tu_check_path(path, &mo, &r);
    tu_assert_same(&ref, &r, 1, "oversized payload, mmap");
    mo.input.no_mmap = 1;
    tu_check_path(path, &mo, &r);
    tu_assert_same(&ref, &r, 1, "oversized payload, stream");
    tu_bytes z = {0};
    tu_gzip_member(&z, t.p, t.len);
    tu_check_memory(z.p, z.len, &o, &r);
    tu_assert_same(&ref, &r, 1, "oversized payload, gzip");
    tu_bytes_free(&z);
    free(path);
    tu_result_free(&r);
    tu_result_free(&ref);
    tu_bytes_free(&t);
}

static const tu_test tests[] = {
    {"valid v5 every way", test_valid_v5},
    {"valid v1 big-endian every way", test_valid_v1_big_endian},
    {"invalid traces every way", test_invalid},
    {"payload above 64 MiB", test_oversized_payload},
    {NULL, NULL},
};

void register_equivalence_suite(void) { tu_add_suite("equivalence", tests); }
