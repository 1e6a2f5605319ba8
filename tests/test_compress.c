/* Compressed inputs: gzip (one member and several), bzip2 (one stream and
 * concatenated ones), zstd (several frames), made here with the libraries'
 * own APIs and read from memory, a file and a pipe; truncated and corrupt
 * streams fail with TC_READ_DECOMPRESS_ERROR and a message. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "suites.h"
#include "tu.h"

static uint8_t *plain_bytes(size_t n)
{
    /* Compressible but not trivially: text-like runs with varying bytes. */
    uint8_t *p = malloc(n);
    uint32_t x = 12345;
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        p[i] = (uint8_t)((i % 64 < 40) ? 'a' + (i / 64) % 26 : (x >> 16));
    }
    p[0] = 0x05; /* not a magic number itself */
    return p;
}

typedef void (*compress_fn)(tu_bytes *out, const void *p, size_t n);

/* The compressed data cut into parts (members, streams, frames). */
static void make(tu_bytes *out, compress_fn fn, const uint8_t *p, size_t n, size_t parts)
{
    size_t off = 0;
    for (size_t i = 0; i < parts; i++) {
        size_t len = i + 1 == parts ? n - off : n / parts;
        fn(out, p + off, len);
        off += len;
    }
}

/* Reads everything the input yields; returns the bytes (malloc'd). */
static uint8_t *drain(tc_input *in, size_t *len, size_t step)
{
    tc_reader *r = tc_input_reader(in);
    tu_bytes got = {0};
    for (;;) {
        const uint8_t *p = tc_need(r, step);
        size_t n = p ? step : tc_avail(r);
        if (n == 0)
            break;
        tu_bytes_append(&got, r->cur, n);
        tc_advance(r, n);
        if (!p)
            break;
    }
    *len = got.len;
    if (!got.p)
        got.p = malloc(1);
    return got.p;
}

static pid_t feed(int fd, const uint8_t *p, size_t n)
{
    pid_t pid = fork();
    if (pid == 0) {
        size_t off = 0;
        while (off < n) {
            ssize_t w = write(fd, p + off, n - off > 3000 ? 3000 : n - off);
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

enum { FROM_MEMORY, FROM_FILE, FROM_PIPE };
static const char *const from_names[] = {"memory", "file", "pipe"};

/* Opens the compressed bytes from one of the three sources. */
static tc_input *open_from(int from, const tu_bytes *c, size_t window, pid_t *child, int *pipe_fd)
{
    tc_input_opts o = {.window = window};
    char err[256] = "";
    *child = -1;
    *pipe_fd = -1;
    if (from == FROM_MEMORY)
        return tc_input_open_memory(c->p, c->len, &o);
    if (from == FROM_FILE) {
        char *path = tu_write_file("compressed.bin", c->p, c->len);
        tc_input *in = tu_input_open(path, &o, err, sizeof err);
        CHECK(in != NULL, "open %s: %s", path, err);
        free(path);
        return in;
    }
    int fds[2];
    if (pipe(fds) != 0)
        return NULL;
    *child = feed(fds[1], c->p, c->len);
    close(fds[1]);
    char path[64];
    snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
    *pipe_fd = fds[0];
    tc_input *in = tu_input_open(path, &o, err, sizeof err);
    CHECK(in != NULL, "open %s: %s", path, err);
    return in;
}

static void close_from(tc_input *in, pid_t child, int pipe_fd)
{
    tc_input_close(in);
    if (pipe_fd >= 0)
        close(pipe_fd);
    if (child > 0) {
        int st;
        waitpid(child, &st, 0);
    }
}

/* Every source and a few windows yield exactly the plain bytes. */
static void round_trip(compress_fn fn, tc_compression comp, size_t n, size_t parts)
{
    uint8_t *plain = plain_bytes(n);
    tu_bytes c = {0};
    make(&c, fn, plain, n, parts);
    static const size_t windows[] = {0, 64, 4096, 100000};
    static const size_t steps[] = {16, 1, 8, 5000};
    for (int from = FROM_MEMORY; from <= FROM_PIPE; from++)
        for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++) {
            pid_t child;
            int fd;
            tc_input *in = open_from(from, &c, windows[w], &child, &fd);
            if (!in)
                continue;
            CHECK(tc_input_compression(in) == comp, "%s: compression %s", from_names[from],
                  tc_compression_name(tc_input_compression(in)));
            size_t len;
            uint8_t *got = drain(in, &len, steps[w]);
            tc_reader *r = tc_input_reader(in);
            CHECK(len == n && memcmp(got, plain, n) == 0,
                  "%s %s, %zu parts, window %zu: %zu bytes out, %zu in (%s)", from_names[from],
                  tc_compression_name(comp), parts, windows[w], len, n, r->error);
            CHECK(r->failed == TC_READ_OK, "%s: failed %d: %s", from_names[from], r->failed,
                  r->error);
            CU_ASSERT_EQUAL(tc_pos(r), n);
            free(got);
            close_from(in, child, fd);
        }
    tu_bytes_free(&c);
    free(plain);
}

static void test_gzip(void)
{
    round_trip(tu_gzip_member, TC_COMP_GZIP, 200000, 1);
    round_trip(tu_gzip_member, TC_COMP_GZIP, 200000, 3); /* concatenated members */
    round_trip(tu_gzip_member, TC_COMP_GZIP, 1000, 7);
}

static void test_bzip2(void)
{
    round_trip(tu_bzip2_stream, TC_COMP_BZIP2, 200000, 1);
    round_trip(tu_bzip2_stream, TC_COMP_BZIP2, 200000, 3); /* concatenated streams */
}

static void test_zstd(void)
{
    round_trip(tu_zstd_frame, TC_COMP_ZSTD, 200000, 1);
    round_trip(tu_zstd_frame, TC_COMP_ZSTD, 200000, 4); /* several frames */
    round_trip(tu_zstd_frame, TC_COMP_ZSTD, 3000, 9);
}

/* The input fails with a decompression error and a message; what it yielded
 * before is a prefix of the plain bytes. */
static void expect_failure(const tu_bytes *c, const uint8_t *plain, size_t n, const char *what,
                           const char *name, int prefix)
{
    for (int from = FROM_MEMORY; from <= FROM_PIPE; from++) {
        pid_t child;
        int fd;
        tc_input *in = open_from(from, c, 4096, &child, &fd);
        if (!in)
            continue;
        size_t len;
        uint8_t *got = drain(in, &len, 16);
        tc_reader *r = tc_input_reader(in);
        CHECK(r->failed == TC_READ_DECOMPRESS_ERROR, "%s from %s: failed %d after %zu bytes",
              what, from_names[from], r->failed, len);
        CHECK(r->error[0] && strstr(r->error, name), "%s from %s: message \"%s\"", what,
              from_names[from], r->error);
        /* A truncated stream yields correct bytes up to the cut; a corrupt one
         * may yield wrong bytes before its checksum is found wrong. */
        if (prefix)
            CHECK(len <= n && memcmp(got, plain, len) == 0, "%s from %s: %zu bytes not a prefix",
                  what, from_names[from], len);
        free(got);
        close_from(in, child, fd);
    }
}

static void damaged(compress_fn fn, const char *name)
{
    size_t n = 100000;
    uint8_t *plain = plain_bytes(n);
    tu_bytes c = {0};
    make(&c, fn, plain, n, 1);
    char what[64];
    /* Cut at several points: inside the header, the middle, before the end. */
    size_t cuts[] = {5, 11, c.len / 3, c.len / 2, c.len - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        tu_bytes t = {0};
        tu_bytes_append(&t, c.p, cuts[i]);
        snprintf(what, sizeof what, "%s cut at %zu of %zu", name, cuts[i], c.len);
        expect_failure(&t, plain, n, what, name, 1);
        tu_bytes_free(&t);
    }
    /* Corrupt: a run of bytes in the middle overwritten. */
    tu_bytes t = {0};
    tu_bytes_append(&t, c.p, c.len);
    for (size_t i = t.len / 2; i < t.len / 2 + 64; i++)
        t.p[i] ^= 0x5a;
    snprintf(what, sizeof what, "%s corrupt", name);
    expect_failure(&t, plain, n, what, name, 0);
    tu_bytes_free(&t);
    tu_bytes_free(&c);
    free(plain);
}

static void test_truncated_and_corrupt(void)
{
    damaged(tu_gzip_member, "gzip");
    damaged(tu_bzip2_stream, "bzip2");
    damaged(tu_zstd_frame, "zstd");
}

static void test_trailing_garbage(void)
{
    size_t n = 5000;
    uint8_t *plain = plain_bytes(n);
    tu_bytes c = {0};
    tu_gzip_member(&c, plain, n);
    tu_bytes_append(&c, "garbage!", 8);
    expect_failure(&c, plain, n, "gzip with trailing garbage", "gzip", 1);
    tu_bytes_free(&c);
    tu_bzip2_stream(&c, plain, n);
    tu_bytes_append(&c, "garbage!", 8);
    expect_failure(&c, plain, n, "bzip2 with trailing garbage", "bzip2", 1);
    tu_bytes_free(&c);
    tu_zstd_frame(&c, plain, n);
    tu_bytes_append(&c, "garbage!", 8);
    expect_failure(&c, plain, n, "zstd with trailing garbage", "zstd", 1);
    tu_bytes_free(&c);
    free(plain);
}

/* Through the checker, a decompression failure is TC-INPUT-DECOMPRESS with
 * the reader's message, and the input is invalid (status 1, not an I/O
 * error). */
static void test_checker_reports(void)
{
    static const compress_fn fns[] = {tu_gzip_member, tu_bzip2_stream, tu_zstd_frame};
    static const char *const names[] = {"gzip", "bzip2", "zstd"};
    uint8_t trace[32 + 16 * 5] = {5, 0, 1, 0, 3, 0, 0, 0, 0, 0x5e, 0xd0, 0xb2};
    trace[17] = 0x40;
    for (int i = 0; i < 3; i++) {
        tu_bytes c = {0};
        fns[i](&c, trace, sizeof trace);
        tu_result r = {0};
        tu_check_memory(c.p, c.len - 4, NULL, &r);
        CHECK(r.status == 1, "%s: status %d", names[i], r.status);
        CHECK(tu_count(&r, "TC-INPUT-DECOMPRESS") == 1, "%s: findings %s", names[i],
              tu_describe(&r));
        EXPECT_MESSAGE(&r, "TC-INPUT-DECOMPRESS", names[i]);
        tu_result_free(&r);
        /* An empty member: the decompressed input is empty. */
        tu_bytes e = {0};
        fns[i](&e, "", 0);
        tu_check_memory(e.p, e.len, NULL, &r);
        EXPECT_RULES(&r, "TC-FORMAT-UNKNOWN");
        EXPECT_MESSAGE(&r, "TC-FORMAT-UNKNOWN", "empty");
        tu_result_free(&r);
        tu_bytes_free(&e);
        tu_bytes_free(&c);
    }
}

static const tu_test tests[] = {
    {"gzip single and multi-member", test_gzip},
    {"bzip2 single and concatenated", test_bzip2},
    {"zstd multiple frames", test_zstd},
    {"truncated and corrupt streams", test_truncated_and_corrupt},
    {"trailing garbage", test_trailing_garbage},
    {"decompression errors through the checker", test_checker_reports},
    {NULL, NULL},
};

void register_compress_suite(void) { tu_add_suite("compress", tests); }
