/* The harness kit's inputs: the bytes a parser sees of a compressed input,
 * and the same bytes over every input path of the library, in windows
 * (harness.h). */
#define _GNU_SOURCE /* memfd_create */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "../../parsers/common/input.h"
#include "harness.h"

/* ---- decompression ---- */

int hx_compressed(const uint8_t *data, size_t size)
{
    return tc_detect_compression(data, size) != TC_COMP_NONE;
}

int hx_plain_get(hx_plain *pl, const uint8_t *data, size_t size, size_t limit)
{
    memset(pl, 0, sizeof *pl);
    if (!hx_compressed(data, size)) {
        pl->p = data;
        pl->n = size;
        return 1;
    }
    pl->compressed = 1;
    tc_input *in = tc_input_open_memory(data, size, NULL);
    FUZZ_CHECK_ALLOC(in);
    tc_reader *r = tc_input_reader(in);
    size_t cap = 4096;
    pl->owned = malloc(cap);
    FUZZ_CHECK_ALLOC(pl->owned);
    for (;;) {
        const uint8_t *b = tc_need(r, 1);
        if (!b)
            break;
        size_t a = tc_avail(r);
        if (pl->n + a > limit) {
            tc_input_close(in);
            hx_plain_free(pl);
            return 0;
        }
        while (pl->n + a > cap)
            cap *= 2;
        pl->owned = realloc(pl->owned, cap);
        FUZZ_CHECK_ALLOC(pl->owned);
        memcpy(pl->owned + pl->n, b, a);
        pl->n += a;
        tc_advance(r, a);
    }
    pl->failed = r->failed != TC_READ_OK;
    tc_input_close(in);
    pl->p = pl->owned;
    return 1;
}

void hx_plain_free(hx_plain *pl)
{
    free(pl->owned);
    memset(pl, 0, sizeof *pl);
}

/* ---- window replays ---- */

static const char *const path_names[HX_PATH_COUNT] = {
    "memory reader", "input layer in memory", "read() stream", "mmap", "gzip stream",
    "stepped reader"};

const char *hx_path_name(hx_path path) { return path_names[path]; }

/* An in-memory file (memfd) holding the bytes; -1 when there is none. */
static int memfd_of(const uint8_t *data, size_t size)
{
    int fd = memfd_create("tracecheck-fuzz", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    for (size_t done = 0; done < size;) {
        ssize_t w = write(fd, data + done, size - done);
        FUZZ_ASSERT_MSG(w > 0, "writing the memfd failed");
        done += (size_t)w;
    }
    return fd;
}

/* The bytes gzip-compressed with stored blocks: cheap, and the streaming
 * decompressor still hands them out window by window. */
static uint8_t *gzip_of(const uint8_t *data, size_t size, size_t *out_len)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    FUZZ_ASSERT(deflateInit2(&z, Z_NO_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
                             Z_DEFAULT_STRATEGY) == Z_OK);
    uLong bound = deflateBound(&z, (uLong)size) + 64;
    uint8_t *gz = malloc(bound);
    FUZZ_CHECK_ALLOC(gz);
    z.next_in = (Bytef *)data;
    z.avail_in = (uInt)size;
    z.next_out = gz;
    z.avail_out = (uInt)bound;
    FUZZ_ASSERT(deflate(&z, Z_FINISH) == Z_STREAM_END);
    *out_len = bound - z.avail_out;
    deflateEnd(&z);
    return gz;
}

int hx_open(hx_source *s, hx_path path, const uint8_t *data, size_t size, size_t window)
{
    memset(s, 0, sizeof *s);
    s->path = path;
    s->window = window;
    s->fd = -1;
    tc_input_opts io = {.window = window, .no_mmap = path == HX_READ};
    switch (path) {
    case HX_RAW:
        tc_reader_init_memory(&s->r, data, size);
        s->reader = &s->r;
        return 1;
    case HX_STEPPED:
        tc_reader_init_stepped(&s->r, &s->sm, data, size, window ? window : 1);
        s->reader = &s->r;
        return 1;
    case HX_MEMORY:
        s->in = tc_input_open_memory(data, size, &io);
        break;
    case HX_GZIP: {
        size_t n;
        s->owned = gzip_of(data, size, &n);
        s->in = tc_input_open_memory(s->owned, n, &io);
        break;
    }
    case HX_READ:
    case HX_MMAP: {
        s->fd = memfd_of(data, size);
        if (s->fd < 0)
            return 0;
        char name[64], err[256];
        snprintf(name, sizeof name, "/proc/self/fd/%d", s->fd);
        tc_error why = TC_ERROR_INIT;
        s->in = tc_input_open(name, &io, &why);
        hx_error_text(&why, err, sizeof err);
        FUZZ_ASSERT_MSG(s->in != NULL, "cannot open %s: %s", name, err);
        break;
    }
    default: FUZZ_FAIL("input path %d", (int)path);
    }
    FUZZ_CHECK_ALLOC(s->in);
    s->reader = tc_input_reader(s->in);
    return 1;
}

tc_reader *hx_reader(hx_source *s) { return s->reader; }

void hx_close(hx_source *s)
{
    if (s->in)
        tc_input_close(s->in);
    if (s->fd >= 0)
        close(s->fd);
    free(s->owned);
    memset(s, 0, sizeof *s);
    s->fd = -1;
}
