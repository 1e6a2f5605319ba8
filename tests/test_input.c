/* The input layer (parsers/common/input.c, reader.c): memory, mmap windows,
 * the read() stream path, pipes and standard input, with the reader's
 * need/advance/skip contract checked byte for byte against the source. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "suites.h"
#include "tu.h"

/* Deterministic content in which every offset is distinguishable. */
static uint8_t *pattern_bytes(size_t n, uint32_t seed)
{
    uint8_t *p = malloc(n ? n : 1);
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        p[i] = (uint8_t)(x ^ (i >> 8));
    }
    return p;
}

/* Reads the whole input through the reader with a cycle of request sizes;
 * a negative size is a skip of that many bytes. Every byte handed out is
 * compared with ref. Returns 1 when the reader agreed with ref throughout. */
static int walk(tc_reader *r, const uint8_t *ref, size_t size, const long *steps, size_t nsteps,
                const char *what)
{
    uint64_t pos = 0;
    for (size_t i = 0;; i++) {
        long step = steps[i % nsteps];
        if (tc_pos(r) != pos) {
            CHECK(0, "%s: position %llu, expected %llu", what, (unsigned long long)tc_pos(r),
                  (unsigned long long)pos);
            return 0;
        }
        if (step < 0) {
            uint64_t want = (uint64_t)-step;
            uint64_t got = tc_skip(r, want);
            uint64_t expect = want < size - pos ? want : size - pos;
            if (got != expect) {
                CHECK(0, "%s: tc_skip(%llu) at %llu skipped %llu, expected %llu", what,
                      (unsigned long long)want, (unsigned long long)pos,
                      (unsigned long long)got, (unsigned long long)expect);
                return 0;
            }
            pos += got;
            if (pos == size)
                break;
            continue;
        }
        size_t n = (size_t)step;
        const uint8_t *p = tc_need(r, n);
        if (!p) {
            /* Only at the end, with the rest available. */
            size_t rest = (size_t)(size - pos);
            if (rest >= n || tc_avail(r) != rest || memcmp(r->cur, ref + pos, rest) != 0) {
                CHECK(0, "%s: tc_need(%zu) at %llu failed with %zu of %zu bytes left (avail %zu)",
                      what, n, (unsigned long long)pos, rest, size, tc_avail(r));
                return 0;
            }
            tc_advance(r, rest);
            pos += rest;
            break;
        }
        if (pos + n > size || memcmp(p, ref + pos, n) != 0) {
            CHECK(0, "%s: bytes at %llu (%zu) differ from the source", what,
                  (unsigned long long)pos, n);
            return 0;
        }
        tc_advance(r, n);
        pos += n;
    }
    CHECK(pos == size && tc_at_end(r) && tc_pos(r) == size, "%s: ended at %llu of %zu", what,
          (unsigned long long)tc_pos(r), size);
    CU_ASSERT_EQUAL(r->failed, TC_READ_OK);
    return 1;
}

static const long mixed[] = {16, 8, 8, 3, 16, 4096, 1, -10, 16, 5000, -4000, 8, 77, 16, -1, 200};
static const long records[] = {16, 8, 8, 16, 8}; /* the sizes of XRay records */
static const long skips[] = {1, -4095, 16, -8192, 3, -100000, 16};

static void test_memory(void)
{
    size_t n = 20000;
    uint8_t *src = pattern_bytes(n, 1);
    src[0] = 0x05; /* not a compression magic */
    tc_input *in = tc_input_open_memory(src, n, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    CU_ASSERT_EQUAL(tc_input_compression(in), TC_COMP_NONE);
    tc_reader *r = tc_input_reader(in);
    /* Memory is read in place, not copied. */
    CU_ASSERT_PTR_EQUAL(tc_need(r, 16), src);
    walk(r, src, n, mixed, sizeof mixed / sizeof mixed[0], "memory");
    tc_input_close(in);

    in = tc_input_open_memory(src, n, NULL);
    walk(tc_input_reader(in), src, n, skips, sizeof skips / sizeof skips[0], "memory skips");
    tc_input_close(in);

    /* An empty memory input. */
    in = tc_input_open_memory(src, 0, NULL);
    r = tc_input_reader(in);
    CU_ASSERT(tc_at_end(r));
    CU_ASSERT_PTR_NULL(tc_need(r, 1));
    CU_ASSERT_EQUAL(tc_skip(r, 10), 0);
    CU_ASSERT_EQUAL(tc_pos(r), 0);
    tc_input_close(in);
    free(src);
}

static void test_reader_limits(void)
{
    uint8_t src[64] = {0x05};
    tc_reader r;
    tc_reader_init_memory(&r, src, sizeof src);
    CU_ASSERT_PTR_NULL(tc_need(&r, TC_READER_MAX_NEED + 1));
    CU_ASSERT_PTR_NULL(tc_need(&r, 65));
    CU_ASSERT_EQUAL(tc_avail(&r), 64);
    CU_ASSERT_PTR_EQUAL(tc_need(&r, 64), src);
    CU_ASSERT_EQUAL(tc_skip(&r, 60), 60);
    CU_ASSERT_EQUAL(tc_skip(&r, UINT64_MAX), 4); /* past the end: what was left */
    CU_ASSERT_EQUAL(tc_pos(&r), 64);
    CU_ASSERT(tc_at_end(&r));
    CU_ASSERT_EQUAL(tc_skip(&r, 1), 0);
}

/* A regular file read through mmap windows of the given size, or the stream
 * path. */
static void file_walks(const char *path, const uint8_t *src, size_t n, size_t window, int no_mmap)
{
    char what[128], err[256] = "";
    const long *cycles[] = {mixed, records, skips};
    const size_t lens[] = {sizeof mixed / sizeof mixed[0], sizeof records / sizeof records[0],
                           sizeof skips / sizeof skips[0]};
    for (int c = 0; c < 3; c++) {
        tc_input_opts o = {.window = window, .no_mmap = no_mmap};
        tc_input *in = tu_input_open(path, &o, err, sizeof err);
        CHECK(in != NULL, "open %s: %s", path, err);
        if (!in)
            return;
        snprintf(what, sizeof what, "%s window %zu cycle %d", no_mmap ? "stream" : "mmap", window, c);
        walk(tc_input_reader(in), src, n, cycles[c], lens[c], what);
        tc_input_close(in);
    }
}

static void test_mmap_windows(void)
{
    /* Not a multiple of any window or of 8, so records straddle boundaries. */
    size_t n = 3 * 4096 + 1234;
    uint8_t *src = pattern_bytes(n, 2);
    src[0] = 0x01;
    char *path = tu_write_file("mmap.bin", src, n);
    static const size_t windows[] = {4096, 4097, 4000, 1000, 100, 17, 1, 0};
    for (size_t i = 0; i < sizeof windows / sizeof windows[0]; i++)
        file_walks(path, src, n, windows[i], 0);
    free(path);
    free(src);
}

static void test_stream_path(void)
{
    size_t n = 70000;
    uint8_t *src = pattern_bytes(n, 3);
    src[0] = 0x01;
    char *path = tu_write_file("stream.bin", src, n);
    /* Windows below 64 are raised to 64; 4096 plus odd sizes. */
    static const size_t windows[] = {64, 100, 4096, 4099, 1, 0};
    for (size_t i = 0; i < sizeof windows / sizeof windows[0]; i++)
        file_walks(path, src, n, windows[i], 1);
    free(path);
    free(src);
}

/* Writes n bytes into fd in chunks of chunk bytes from a child process. */
static pid_t writer(int fd, const uint8_t *p, size_t n, size_t chunk)
{
    pid_t pid = fork();
    if (pid == 0) {
        for (size_t off = 0; off < n;) {
            size_t step = n - off < chunk ? n - off : chunk;
            ssize_t w = write(fd, p + off, step);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                _exit(1);
            off += (size_t)w;
        }
        close(fd);
        _exit(0);
    }
    return pid;
}

static void reap(pid_t pid)
{
    int st = 0;
    CU_ASSERT_EQUAL(waitpid(pid, &st, 0), pid);
    CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

static void test_pipe_dev_fd(void)
{
    size_t n = 300000; /* more than a pipe holds: the writer blocks on the reader */
    uint8_t *src = pattern_bytes(n, 4);
    src[0] = 0x01;
    static const size_t chunks[] = {1, 7, 4096, 65536};
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
        int fds[2];
        CU_ASSERT_FATAL(pipe(fds) == 0);
        /* Byte-at-a-time writes are slow: a shorter input for them. */
        size_t len = chunks[c] == 1 ? 5000 : n;
        pid_t pid = writer(fds[1], src, len, chunks[c]);
        close(fds[1]);
        char path[64], err[256] = "", what[64];
        snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
        tc_input_opts o = {.window = 4096};
        tc_input *in = tu_input_open(path, &o, err, sizeof err);
        CHECK(in != NULL, "open %s: %s", path, err);
        if (in) {
            snprintf(what, sizeof what, "pipe, writes of %zu", chunks[c]);
            walk(tc_input_reader(in), src, len, mixed, sizeof mixed / sizeof mixed[0], what);
            tc_input_close(in);
        }
        close(fds[0]);
        reap(pid);
    }
    free(src);
}

static void test_stdin(void)
{
    size_t n = 100000;
    uint8_t *src = pattern_bytes(n, 5);
    src[0] = 0x01;
    int fds[2];
    CU_ASSERT_FATAL(pipe(fds) == 0);
    pid_t pid = writer(fds[1], src, n, 1000);
    close(fds[1]);
    int saved = dup(0);
    CU_ASSERT_FATAL(saved >= 0);
    dup2(fds[0], 0);
    close(fds[0]);
    char err[256] = "";
    tc_input *in = tu_input_open("-", NULL, err, sizeof err);
    CHECK(in != NULL, "open -: %s", err);
    if (in) {
        walk(tc_input_reader(in), src, n, skips, sizeof skips / sizeof skips[0], "stdin");
        tc_input_close(in);
    }
    /* Closing the input leaves standard input open (it was not ours). */
    CU_ASSERT(fcntl(0, F_GETFD) != -1);
    dup2(saved, 0);
    close(saved);
    reap(pid);

    /* A pipe shorter than a compression magic number. */
    CU_ASSERT_FATAL(pipe(fds) == 0);
    pid = writer(fds[1], (const uint8_t *)"\x01\x02", 2, 1);
    close(fds[1]);
    char path[64];
    snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
    in = tu_input_open(path, NULL, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL(in);
    if (in) {
        tc_reader *r = tc_input_reader(in);
        const uint8_t *p = tc_need(r, 2);
        CU_ASSERT(p && p[0] == 1 && p[1] == 2);
        CU_ASSERT_PTR_NULL(tc_need(r, 3));
        tc_input_close(in);
    }
    close(fds[0]);
    reap(pid);
    free(src);
}

static void test_skip_across_windows(void)
{
    size_t n = 10 * 4096 + 5;
    uint8_t *src = pattern_bytes(n, 6);
    src[0] = 0x01;
    char *path = tu_write_file("skip.bin", src, n);
    for (int no_mmap = 0; no_mmap <= 1; no_mmap++) {
        tc_input_opts o = {.window = 4096, .no_mmap = no_mmap};
        char err[256];
        tc_input *in = tu_input_open(path, &o, err, sizeof err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(in);
        tc_reader *r = tc_input_reader(in);
        CU_ASSERT_PTR_NOT_NULL(tc_need(r, 10));
        CU_ASSERT_EQUAL(tc_skip(r, 3 * 4096 + 7), 3 * 4096 + 7); /* beyond the window */
        CU_ASSERT_EQUAL(tc_pos(r), 3 * 4096 + 7);
        const uint8_t *p = tc_need(r, 16);
        CU_ASSERT(p && memcmp(p, src + 3 * 4096 + 7, 16) == 0);
        CU_ASSERT_EQUAL(tc_skip(r, 4096 - 7 - 8), 4096 - 7 - 8); /* to 8 before a boundary */
        p = tc_need(r, 16); /* straddles it */
        CU_ASSERT(p && memcmp(p, src + 4 * 4096 - 8, 16) == 0);
        uint64_t left = n - tc_pos(r);
        CU_ASSERT_EQUAL(tc_skip(r, left + 1000), left); /* past the end: what was left */
        CU_ASSERT_EQUAL(tc_pos(r), n);
        CU_ASSERT(tc_at_end(r));
        CU_ASSERT_EQUAL(tc_skip(r, 5), 0);
        CU_ASSERT_EQUAL(r->failed, TC_READ_OK);
        tc_input_close(in);
    }
    free(path);
    free(src);
}

static void test_empty_file(void)
{
    char *path = tu_write_file("empty.bin", NULL, 0);
    for (int no_mmap = 0; no_mmap <= 1; no_mmap++) {
        tc_input_opts o = {.no_mmap = no_mmap};
        char err[256];
        tc_input *in = tu_input_open(path, &o, err, sizeof err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(in);
        tc_reader *r = tc_input_reader(in);
        CU_ASSERT(tc_at_end(r));
        CU_ASSERT_PTR_NULL(tc_need(r, 1));
        CU_ASSERT_EQUAL(tc_skip(r, 1), 0);
        CU_ASSERT_EQUAL(r->failed, TC_READ_OK);
        tc_input_close(in);
        /* Through the checker: not a format, and said so. */
        tu_result res = {0};
        tu_opts to = {.input = o};
        CU_ASSERT_EQUAL(tu_check_path(path, &to, &res), 1);
        EXPECT_RULES(&res, "TC-FORMAT-UNKNOWN");
        EXPECT_MESSAGE(&res, "TC-FORMAT-UNKNOWN", "empty");
        CU_ASSERT_EQUAL(res.sum.bytes, 0);
        tu_result_free(&res);
    }
    free(path);
}

static void test_errors_opening(void)
{
    /* A directory of its own: the scratch directory holds what other
     * suites wrote (an ovni trace directory is an input of its own). */
    char dir[600];
    snprintf(dir, sizeof dir, "%s/a-plain-directory", tu_tmpdir());
    CU_ASSERT(mkdir(dir, 0700) == 0 || errno == EEXIST);
    char err[256] = "";
    tc_input *in = tu_input_open(dir, NULL, err, sizeof err);
    CU_ASSERT_PTR_NULL(in);
    CHECK(strstr(err, "directory") != NULL, "directory: \"%s\"", err);
    tc_input_close(in);

    char missing[600];
    snprintf(missing, sizeof missing, "%s/no-such-file", tu_tmpdir());
    err[0] = '\0';
    in = tu_input_open(missing, NULL, err, sizeof err);
    CU_ASSERT_PTR_NULL(in);
    CHECK(strstr(err, "No such file") != NULL, "missing file: \"%s\"", err);

    /* tc_validate_file reports both as I/O errors (status 2) with the reason. */
    tc_summary s;
    err[0] = '\0';
    CU_ASSERT_EQUAL(tc_validate_file(dir, NULL, &s, err, sizeof err), 2);
    CHECK(strstr(err, "directory") != NULL, "validate directory: \"%s\"", err);
    CU_ASSERT_EQUAL(tc_validate_file(missing, NULL, &s, NULL, 0), 2);
}

static void test_input_not_modified(void)
{
    /* A valid little trace and an invalid one, both by hand. */
    uint8_t trace[32 + 64] = {5, 0, 1, 0, 3, 0, 0, 0};
    trace[16] = 0x00; /* buffer_size 16384 */
    trace[17] = 0x40;
    trace[32] = 0x0F; /* BufferExtents(48) */
    trace[33] = 48;
    trace[48] = 0x01; /* NewBuffer */
    trace[64] = 0x09; /* WallTimeMarker */
    trace[80] = 0x13; /* PIDEntry: 16 bytes short of NewCPUId: invalid */
    char *path = tu_write_file("keep.xray", trace, sizeof trace);
    chmod(path, 0444); /* read-only: opening for writing would fail */
    struct stat before, after;
    CU_ASSERT_FATAL(stat(path, &before) == 0);
    for (int no_mmap = 0; no_mmap <= 1; no_mmap++) {
        tu_result r = {0};
        tu_opts o = {.input = {.window = 16, .no_mmap = no_mmap}, .dump = 1, .pedantic = 1};
        CU_ASSERT_EQUAL(tu_check_path(path, &o, &r), 1);
        tu_result_free(&r);
    }
    CU_ASSERT_FATAL(stat(path, &after) == 0);
    CU_ASSERT_EQUAL(before.st_size, after.st_size);
    CU_ASSERT_EQUAL(before.st_mode, after.st_mode);
    CU_ASSERT(before.st_mtim.tv_sec == after.st_mtim.tv_sec &&
              before.st_mtim.tv_nsec == after.st_mtim.tv_nsec);
    CU_ASSERT(before.st_ctim.tv_sec == after.st_ctim.tv_sec &&
              before.st_ctim.tv_nsec == after.st_ctim.tv_nsec);
    size_t n = 0;
    uint8_t *now = tu_read_file(path, &n);
    CU_ASSERT(now && n == sizeof trace && memcmp(now, trace, n) == 0);
    free(now);
    chmod(path, 0644);
    free(path);
}

static void test_detect_compression(void)
{
    static const uint8_t gz[] = {0x1f, 0x8b, 8, 0}, bz[] = {'B', 'Z', 'h', '9'},
                         bz0[] = {'B', 'Z', 'h', '0'}, zs[] = {0x28, 0xb5, 0x2f, 0xfd},
                         xr[] = {5, 0, 1, 0};
    CU_ASSERT_EQUAL(tc_detect_compression(gz, 4), TC_COMP_GZIP);
    CU_ASSERT_EQUAL(tc_detect_compression(gz, 2), TC_COMP_GZIP);
    CU_ASSERT_EQUAL(tc_detect_compression(gz, 1), TC_COMP_NONE);
    CU_ASSERT_EQUAL(tc_detect_compression(bz, 4), TC_COMP_BZIP2);
    CU_ASSERT_EQUAL(tc_detect_compression(bz, 3), TC_COMP_NONE);
    CU_ASSERT_EQUAL(tc_detect_compression(bz0, 4), TC_COMP_NONE);
    CU_ASSERT_EQUAL(tc_detect_compression(zs, 4), TC_COMP_ZSTD);
    CU_ASSERT_EQUAL(tc_detect_compression(zs, 3), TC_COMP_NONE);
    CU_ASSERT_EQUAL(tc_detect_compression(xr, 4), TC_COMP_NONE);
    CU_ASSERT_STRING_EQUAL(tc_compression_name(TC_COMP_GZIP), "gzip");
    CU_ASSERT_STRING_EQUAL(tc_compression_name(TC_COMP_BZIP2), "bzip2");
    CU_ASSERT_STRING_EQUAL(tc_compression_name(TC_COMP_ZSTD), "zstd");
    CU_ASSERT_STRING_EQUAL(tc_compression_name(TC_COMP_NONE), "none");
}

static const tu_test tests[] = {
    {"memory", test_memory},
    {"reader limits", test_reader_limits},
    {"mmap windows", test_mmap_windows},
    {"stream path", test_stream_path},
    {"pipe via /dev/fd", test_pipe_dev_fd},
    {"standard input", test_stdin},
    {"skip across windows and past the end", test_skip_across_windows},
    {"0-byte file", test_empty_file},
    {"directory and missing file", test_errors_opening},
    {"input never modified", test_input_not_modified},
    {"compression magic numbers", test_detect_compression},
    {NULL, NULL},
};

void register_input_suite(void) { tu_add_suite("input", tests); }
