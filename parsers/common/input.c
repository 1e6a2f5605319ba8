#define _GNU_SOURCE /* F_SETPIPE_SZ */
#include <bzlib.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "input.h"
#include "input_pipe.h"

#define DEFAULT_MAP_WINDOW (256u << 10)
#define FILE_PAGE 4096u
#define DEFAULT_STREAM_BUFFER (1u << 20)
#define RAW_BUFFER (256u << 10)

static const uint8_t empty_window[1];

struct tc_input {
    tc_reader r;
    tc_compression comp;
    int fd;
    int own_fd;
    /* regular file, read in windows (map_fill) */
    uint64_t file_size;
    int mapped; /* a regular uncompressed file, read through map_fill */
    /* uncompressed bytes in memory, for tc_input_reopen */
    const uint8_t *plain;
    size_t plain_size;
    size_t window;
    uint8_t *map; /* the window's buffer, map_len bytes */
    size_t map_len;
    /* stream output buffer (plain fd or decompressed) */
    uint8_t *buf;
    size_t cap;
    /* compressed bytes: from memory or read from fd into raw */
    const uint8_t *mem;
    size_t mem_size, mem_pos;
    uint8_t *raw;
    size_t raw_pos, raw_len;
    int raw_eof;
    uint64_t raw_consumed; /* compressed bytes consumed, for messages */
    /* decompressors */
    z_stream z;
    int z_live;
    bz_stream bz;
    int bz_live;
    ZSTD_DStream *zs;
    int member_done;  /* the current member (gzip member, bzip2 stream, zstd frame) ended */
    /* Compressed files: decompressed on a thread of their own (input_pipe.h).
     * What fails there is kept in src until the reader reaches it. */
    tc_pipe *pipe;
    int pipelined;
    struct {
        int kind;
        char error[256];
    } src;
};

tc_compression tc_detect_compression(const unsigned char *p, size_t n)
{
    if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
        return TC_COMP_GZIP;
    if (n >= 4 && p[0] == 'B' && p[1] == 'Z' && p[2] == 'h' && p[3] >= '1' && p[3] <= '9')
        return TC_COMP_BZIP2;
    if (n >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd)
        return TC_COMP_ZSTD;
    return TC_COMP_NONE;
}

const char *tc_compression_name(tc_compression c)
{
    switch (c) {
    case TC_COMP_GZIP: return "gzip";
    case TC_COMP_BZIP2: return "bzip2";
    case TC_COMP_ZSTD: return "zstd";
    default: return "none";
    }
}

const char *const tc_compression_suffixes[] = {".bz2", ".gz", ".zst", NULL};

size_t tc_strip_compression_suffix(const char *name, size_t len)
{
    for (const char *const *s = tc_compression_suffixes; *s; s++) {
        size_t k = strlen(*s);
        if (len >= k && memcmp(name + len - k, *s, k) == 0)
            return len - k;
    }
    return len;
}

static void reader_fail(tc_input *in, int kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(tc_input *in, int kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Records the first failure; the reader then reports the end of the input. */
static void reader_vfail(tc_input *in, int kind, const char *fmt, va_list ap)
{
    tc_reader *r = &in->r;
    if (!r->failed) {
        r->failed = kind;
        /* Where the good bytes end; a decompressor may still hand over what
         * it made before failing, and stream_fill moves this past it. */
        r->fail_offset = tc_pos(r) + tc_avail(r);
        vsnprintf(r->error, sizeof r->error, fmt, ap);
    }
    r->eof = 1;
}

static void reader_fail(tc_input *in, int kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    reader_vfail(in, kind, fmt, ap);
    va_end(ap);
}

/* A failure of the source of bytes: on the decompression thread it waits
 * in src until the reader has the bytes made before it (produce). */
static void fail(tc_input *in, int kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (!in->pipelined) {
        reader_vfail(in, kind, fmt, ap);
    } else if (!in->src.kind) {
        in->src.kind = kind;
        vsnprintf(in->src.error, sizeof in->src.error, fmt, ap);
    }
    va_end(ap);
}

/* ---- windows over a regular file, read with pread() ----
 *
 * A window starts at the page boundary at or before the position and holds
 * at least the window size (or what was asked for, if more). It is a buffer
 * of its own, filled by pread(): small enough to stay in the CPU's cache
 * while it is parsed, which makes reading it several times faster than
 * reading a mapping of the page cache (docs/benchmarks.md, "Reading the
 * file"). The bytes of the window before that are still wanted are kept;
 * only the rest is read. */

static void unmap(tc_input *in)
{
    free(in->map);
    in->map = NULL;
    in->map_len = 0;
}

static void map_at(tc_input *in, uint64_t pos, size_t need)
{
    tc_reader *r = &in->r;
    uint64_t off = pos - pos % FILE_PAGE;
    uint64_t len = (pos - off) + (need > in->window ? need : in->window);
    if (len > in->file_size - off)
        len = in->file_size - off;
    size_t keep = 0; /* bytes of the window at off and after, already read */
    uint8_t *m = in->map;
    if (m && r->base == m && off >= r->base_off && off < r->base_off + (uint64_t)(r->end - r->base))
        keep = (size_t)(r->base_off + (uint64_t)(r->end - r->base) - off);
    if (keep > len)
        keep = (size_t)len;
    if (!m || in->map_len < len) {
        size_t cap = in->map_len ? in->map_len : (size_t)len;
        while (cap < len)
            cap *= 2;
        m = malloc(cap);
        if (!m) {
            unmap(in);
            r->base = r->cur = r->end = empty_window;
            r->base_off = pos;
            fail(in, TC_READ_IO_ERROR, "out of memory for a %zu-byte window", cap);
            return;
        }
        if (keep)
            memcpy(m, r->base + (off - r->base_off), keep);
        free(in->map);
        in->map = m;
        in->map_len = cap;
    } else if (keep) {
        memmove(m, r->base + (off - r->base_off), keep);
    }
    size_t have = keep;
    while (have < len) {
        ssize_t got = pread(in->fd, m + have, (size_t)len - have, (off_t)(off + have));
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            r->base = m;
            r->base_off = off;
            r->cur = m + (pos - off);
            r->end = m + (have > pos - off ? have : pos - off);
            if (got < 0)
                fail(in, TC_READ_IO_ERROR, "cannot read the file: %s", strerror(errno));
            else
                fail(in, TC_READ_IO_ERROR, "the file is shorter than its size (%" PRIu64
                     " bytes) when read", in->file_size);
            return;
        }
        have += (size_t)got;
    }
    r->base = m;
    r->base_off = off;
    r->cur = r->base + (pos - off);
    r->end = r->base + len;
    r->eof = off + len >= in->file_size;
}

static void map_fill(tc_reader *r, size_t need)
{
    tc_input *in = r->src;
    uint64_t pos = tc_pos(r);
    if (pos >= in->file_size) {
        r->eof = 1;
        return;
    }
    map_at(in, pos, need);
}

static void map_skip(tc_reader *r, uint64_t n)
{
    tc_input *in = r->src;
    uint64_t pos = tc_pos(r);
    pos = n > in->file_size - pos ? in->file_size : pos + n;
    /* What the window holds past the new position is read again, if wanted:
     * keeping it would cost a copy for every skip. */
    r->base = r->cur = r->end = empty_window;
    r->base_off = pos;
    r->eof = pos >= in->file_size;
}

/* ---- streams: a buffer filled by read() or a decompressor ---- */

/* Appends up to `room` bytes at `dst`; returns how many (0 at the end). */
static size_t produce(tc_input *in, uint8_t *dst, size_t room);

static void stream_fill(tc_reader *r, size_t need)
{
    tc_input *in = r->src;
    size_t keep = tc_avail(r);
    /* Keep the unread bytes, at the front of a buffer big enough for need. */
    if (need > in->cap) {
        size_t cap = in->cap;
        while (cap < need)
            cap *= 2;
        uint8_t *nb = malloc(cap);
        if (!nb) {
            reader_fail(in, TC_READ_IO_ERROR, "out of memory for a %zu-byte window", cap);
            return;
        }
        memcpy(nb, r->cur, keep);
        free(in->buf);
        in->buf = nb;
        in->cap = cap;
    } else if (keep) {
        memmove(in->buf, r->cur, keep);
    }
    r->base_off = tc_pos(r);
    r->base = r->cur = in->buf;
    r->end = in->buf + keep;
    while (tc_avail(r) < in->cap && !r->eof) {
        size_t got = produce(in, (uint8_t *)r->end, in->cap - tc_avail(r));
        r->end += got;
        if (r->failed)
            r->fail_offset = r->base_off + (uint64_t)(r->end - r->base);
        if (got == 0) {
            r->eof = 1;
            break;
        }
        if (tc_avail(r) >= need && in->comp == TC_COMP_NONE)
            break; /* a pipe: do not wait for more than was asked */
    }
}

static void stream_skip(tc_reader *r, uint64_t n)
{
    while (n > 0) {
        size_t a = tc_avail(r);
        if (a == 0) {
            if (r->eof)
                return;
            tc_input *in = r->src;
            stream_fill(r, in->cap < n ? in->cap : (size_t)n);
            continue;
        }
        size_t step = n < a ? (size_t)n : a;
        r->cur += step;
        n -= step;
    }
}

static size_t read_fd(tc_input *in, uint8_t *dst, size_t room)
{
    for (;;) {
        ssize_t got = read(in->fd, dst, room);
        if (got >= 0)
            return (size_t)got;
        if (errno == EINTR)
            continue;
        fail(in, TC_READ_IO_ERROR, "read failed: %s", strerror(errno));
        return 0;
    }
}

/* Compressed bytes not yet consumed; refills raw from the fd when empty. */
static int raw_ready(tc_input *in, const uint8_t **p, size_t *n)
{
    if (in->mem) {
        *p = in->mem + in->mem_pos;
        *n = in->mem_size - in->mem_pos;
        return *n > 0;
    }
    if (in->raw_pos == in->raw_len && !in->raw_eof) {
        in->raw_pos = 0;
        in->raw_len = read_fd(in, in->raw, RAW_BUFFER);
        if (in->raw_len == 0)
            in->raw_eof = 1;
    }
    *p = in->raw + in->raw_pos;
    *n = in->raw_len - in->raw_pos;
    return *n > 0;
}

static void raw_consume(tc_input *in, size_t n)
{
    if (in->mem)
        in->mem_pos += n;
    else
        in->raw_pos += n;
    in->raw_consumed += n;
}

/* One step of a codec: consume from src, write to dst. */
enum { STEP_MORE, STEP_MEMBER_END, STEP_ERROR };

typedef struct step_io {
    const uint8_t *src;
    size_t avail;
    uint8_t *dst;
    size_t room;
    size_t consumed, made;
    const char *error; /* the codec's own words, when it has any */
} step_io;

typedef struct codec {
    const char *name;
    tc_compression magic;           /* what a further member starts with */
    int (*step)(tc_input *in, step_io *io);
    int (*restart)(tc_input *in);   /* for the next member; 0 on success */
} codec;

static uInt clamp_uint(size_t n) { return n > UINT32_MAX ? UINT32_MAX : (uInt)n; }

static int gzip_step(tc_input *in, step_io *io)
{
    in->z.next_in = (Bytef *)io->src;
    in->z.avail_in = clamp_uint(io->avail);
    in->z.next_out = io->dst;
    in->z.avail_out = clamp_uint(io->room);
    uInt before_in = in->z.avail_in, before_out = in->z.avail_out;
    int rc = inflate(&in->z, Z_NO_FLUSH);
    io->consumed = before_in - in->z.avail_in;
    io->made = before_out - in->z.avail_out;
    io->error = in->z.msg;
    if (rc == Z_STREAM_END)
        return STEP_MEMBER_END;
    return rc == Z_OK || (rc == Z_BUF_ERROR && io->made > 0) ? STEP_MORE : STEP_ERROR;
}

static int gzip_restart(tc_input *in) { return inflateReset(&in->z) == Z_OK ? 0 : -1; }

static int bzip2_step(tc_input *in, step_io *io)
{
    in->bz.next_in = (char *)io->src;
    in->bz.avail_in = clamp_uint(io->avail);
    in->bz.next_out = (char *)io->dst;
    in->bz.avail_out = clamp_uint(io->room);
    unsigned before_in = in->bz.avail_in, before_out = in->bz.avail_out;
    int rc = BZ2_bzDecompress(&in->bz);
    io->consumed = before_in - in->bz.avail_in;
    io->made = before_out - in->bz.avail_out;
    if (rc == BZ_STREAM_END)
        return STEP_MEMBER_END;
    return rc == BZ_OK ? STEP_MORE : STEP_ERROR;
}

static int bzip2_restart(tc_input *in)
{
    BZ2_bzDecompressEnd(&in->bz);
    memset(&in->bz, 0, sizeof in->bz);
    in->bz_live = BZ2_bzDecompressInit(&in->bz, 0, 0) == BZ_OK;
    return in->bz_live ? 0 : -1;
}

static int zstd_step(tc_input *in, step_io *io)
{
    ZSTD_inBuffer ib = {io->src, io->avail, 0};
    ZSTD_outBuffer ob = {io->dst, io->room, 0};
    size_t rc = ZSTD_decompressStream(in->zs, &ob, &ib);
    io->consumed = ib.pos;
    io->made = ob.pos;
    if (ZSTD_isError(rc)) {
        io->error = ZSTD_getErrorName(rc);
        return STEP_ERROR;
    }
    if (ib.pos == 0 && ob.pos == 0) {
        /* It reads all it is given; no progress with input and room is corrupt. */
        io->error = "the decoder made no progress";
        return STEP_ERROR;
    }
    return rc == 0 ? STEP_MEMBER_END : STEP_MORE; /* 0: a frame is complete */
}

static int zstd_restart(tc_input *in)
{
    (void)in; /* a zstd stream starts the next frame by itself */
    return 0;
}

static const codec codecs[] = {
    [TC_COMP_GZIP] = {"gzip", TC_COMP_GZIP, gzip_step, gzip_restart},
    [TC_COMP_BZIP2] = {"bzip2", TC_COMP_BZIP2, bzip2_step, bzip2_restart},
    [TC_COMP_ZSTD] = {"zstd", TC_COMP_ZSTD, zstd_step, zstd_restart},
};

/* Decompressed bytes into dst, through concatenated members (gzip members,
 * bzip2 streams, zstd frames); 0 at the end or on failure. */
static size_t decode(tc_input *in, const codec *c, uint8_t *dst, size_t room)
{
    size_t made = 0;
    while (made == 0) {
        const uint8_t *src;
        size_t n;
        if (!raw_ready(in, &src, &n)) {
            if (!in->member_done)
                fail(in, TC_READ_DECOMPRESS_ERROR,
                     "the %s stream ends early (after %llu compressed bytes)", c->name,
                     (unsigned long long)in->raw_consumed);
            return 0;
        }
        if (in->member_done) {
            if (tc_detect_compression(src, n) != c->magic) {
                fail(in, TC_READ_DECOMPRESS_ERROR,
                     "%s: data after the end of the stream (at compressed byte %llu)", c->name,
                     (unsigned long long)in->raw_consumed);
                return 0;
            }
            if (c->restart(in) != 0) {
                fail(in, TC_READ_DECOMPRESS_ERROR, "%s: cannot restart the decoder", c->name);
                return 0;
            }
            in->member_done = 0;
        }
        step_io io = {.src = src, .avail = n, .dst = dst + made, .room = room - made};
        int rc = c->step(in, &io);
        raw_consume(in, io.consumed);
        made += io.made;
        if (rc == STEP_MEMBER_END) {
            in->member_done = 1;
        } else if (rc == STEP_ERROR) {
            fail(in, TC_READ_DECOMPRESS_ERROR, "corrupt %s data%s%s (near compressed byte %llu)",
                 c->name, io.error ? ": " : "", io.error ? io.error : "",
                 (unsigned long long)in->raw_consumed);
            return made;
        }
    }
    return made;
}

static size_t source(tc_input *in, uint8_t *dst, size_t room)
{
    if (in->comp == TC_COMP_NONE)
        return read_fd(in, dst, room);
    return decode(in, &codecs[in->comp], dst, room);
}

static size_t pipe_source(void *in, uint8_t *dst, size_t room) { return source(in, dst, room); }

static size_t produce(tc_input *in, uint8_t *dst, size_t room)
{
    if (!in->pipe)
        return source(in, dst, room);
    int last;
    size_t got = tc_pipe_read(in->pipe, dst, room, &last);
    if (last) { /* with the last bytes, the reason they are the last */
        tc_reader *r = &in->r;
        if (in->src.kind && !r->failed) {
            r->failed = in->src.kind;
            memcpy(r->error, in->src.error, sizeof r->error);
        }
        r->eof = 1;
    }
    return got;
}

/* ---- opening ---- */

static void start_map(tc_input *in)
{
    in->mapped = 1;
    in->r.fill = map_fill;
    in->r.skip = map_skip;
    in->r.eof = in->file_size == 0;
}

static tc_input *new_input(const tc_input_opts *opts)
{
    tc_input *in = calloc(1, sizeof *in);
    if (!in)
        return NULL;
    in->fd = -1;
    in->window = opts && opts->window ? opts->window : DEFAULT_MAP_WINDOW;
    in->r.src = in;
    in->r.base = in->r.cur = in->r.end = empty_window;
    return in;
}

static int start_decoder(tc_input *in)
{
    switch (in->comp) {
    case TC_COMP_GZIP:
        if (inflateInit2(&in->z, 15 + 16) != Z_OK)
            return -1;
        in->z_live = 1;
        return 0;
    case TC_COMP_BZIP2:
        if (BZ2_bzDecompressInit(&in->bz, 0, 0) != BZ_OK)
            return -1;
        in->bz_live = 1;
        return 0;
    case TC_COMP_ZSTD:
        in->zs = ZSTD_createDStream();
        if (!in->zs)
            return -1;
        ZSTD_initDStream(in->zs);
        return 0;
    default:
        return 0;
    }
}

static int start_stream(tc_input *in, const tc_input_opts *opts)
{
    in->cap = opts && opts->window ? opts->window : DEFAULT_STREAM_BUFFER;
    if (in->cap < 64)
        in->cap = 64;
    in->buf = malloc(in->cap);
    if (!in->buf)
        return -1;
    in->r.base = in->r.cur = in->r.end = in->buf;
    in->r.fill = stream_fill;
    in->r.skip = stream_skip;
    if (in->comp != TC_COMP_NONE) {
        if (!in->mem && !(in->raw = malloc(RAW_BUFFER)))
            return -1;
        if (start_decoder(in) != 0)
            return -1;
    }
    return 0;
}

tc_input *tc_input_open(const char *path, const tc_input_opts *opts, tc_error *err)
{
    tc_input *in = new_input(opts);
    if (!in) {
        tc_error_set(err, "input", "out of memory");
        return NULL;
    }
    if (strcmp(path, "-") == 0) {
        in->fd = 0;
    } else {
        in->fd = open(path, O_RDONLY | O_CLOEXEC);
        if (in->fd < 0) {
            tc_error_set(err, "input", "cannot open: %s", strerror(errno));
            free(in);
            return NULL;
        }
        in->own_fd = 1;
    }
    struct stat st;
    if (fstat(in->fd, &st) != 0) {
        tc_error_set(err, "input", "cannot stat: %s", strerror(errno));
        tc_input_close(in);
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        tc_error_set(err, "input", "is a directory");
        tc_input_close(in);
        return NULL;
    }
    unsigned char magic[4];
    size_t have = 0;
    if (S_ISREG(st.st_mode)) {
        in->file_size = (uint64_t)st.st_size;
        ssize_t got = pread(in->fd, magic, sizeof magic, 0);
        have = got > 0 ? (size_t)got : 0;
        in->comp = tc_detect_compression(magic, have);
        if (in->comp == TC_COMP_NONE && !(opts && opts->no_mmap)) {
            start_map(in);
            return in;
        }
    } else {
#ifdef F_SETPIPE_SZ
        /* Fewer switches between the writer and this reader; best effort. */
        if (S_ISFIFO(st.st_mode))
            (void)fcntl(in->fd, F_SETPIPE_SZ, 1 << 20);
#endif
        /* A pipe: the magic bytes must be read, and then kept. */
        while (have < sizeof magic) {
            ssize_t got = read(in->fd, magic + have, sizeof magic - have);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0)
                break;
            have += (size_t)got;
        }
        in->comp = tc_detect_compression(magic, have);
    }
    if (start_stream(in, opts) != 0) {
        tc_error_set(err, "input", "cannot start the %s reader", tc_compression_name(in->comp));
        tc_input_close(in);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        if (in->comp == TC_COMP_NONE) {
            memcpy(in->buf, magic, have);
            in->r.end = in->buf + have;
        } else {
            memcpy(in->raw, magic, have);
            in->raw_len = have;
        }
        if (have < sizeof magic)
            in->r.eof = in->comp == TC_COMP_NONE;
    }
    if (in->comp != TC_COMP_NONE) {
        /* From here on only the pipe's thread decompresses (none: this one). */
        in->pipelined = 1;
        in->pipe = tc_pipe_start(pipe_source, in);
        in->pipelined = in->pipe != NULL;
    }
    return in;
}

tc_input *tc_input_open_memory(const void *data, size_t size, const tc_input_opts *opts)
{
    tc_input *in = new_input(opts);
    if (!in)
        return NULL;
    in->comp = tc_detect_compression(data, size);
    if (in->comp == TC_COMP_NONE) {
        tc_reader_init_memory(&in->r, data, size);
        in->plain = data;
        in->plain_size = size;
        return in;
    }
    in->mem = data;
    in->mem_size = size;
    if (start_stream(in, opts) != 0) {
        tc_input_close(in);
        return NULL;
    }
    return in;
}

tc_reader *tc_input_reader(tc_input *in) { return &in->r; }

uint64_t tc_input_size(const tc_input *in)
{
    if (in->mapped)
        return in->file_size;
    if (in->comp == TC_COMP_NONE && in->plain)
        return in->plain_size;
    return UINT64_MAX;
}

void tc_input_release_window(tc_input *in)
{
    if (in->mapped) {
        map_skip(&in->r, 0);
        unmap(in);
    }
}

tc_input *tc_input_reopen(const tc_input *in)
{
    if (in->comp != TC_COMP_NONE || (!in->mapped && !in->plain))
        return NULL;
    tc_input_opts opts = {.window = in->window};
    tc_input *again = new_input(&opts);
    if (!again)
        return NULL;
    if (in->plain) {
        tc_reader_init_memory(&again->r, in->plain, in->plain_size);
        again->plain = in->plain;
        again->plain_size = in->plain_size;
        return again;
    }
    again->fd = fcntl(in->fd, F_DUPFD_CLOEXEC, 0);
    if (again->fd < 0) {
        free(again);
        return NULL;
    }
    again->own_fd = 1;
    again->file_size = in->file_size;
    start_map(again);
    return again;
}

tc_compression tc_input_compression(const tc_input *in) { return in->comp; }

void tc_input_close(tc_input *in)
{
    if (!in)
        return;
    tc_pipe_stop(in->pipe);
    unmap(in);
    if (in->z_live)
        inflateEnd(&in->z);
    if (in->bz_live)
        BZ2_bzDecompressEnd(&in->bz);
    if (in->zs)
        ZSTD_freeDStream(in->zs);
    if (in->own_fd)
        close(in->fd);
    free(in->buf);
    free(in->raw);
    free(in);
}
