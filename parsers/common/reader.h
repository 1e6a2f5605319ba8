/*
 * Byte reader: a window onto the input that parsers pull from. The fast path
 * (tc_need when the window already holds the bytes) is an inline compare, so
 * a parser can ask for every record without a function call. Windows come from
 * memory, from a sliding window read from a regular file, or from a buffer filled by
 * read() or a decompressor; parsers do not know which.
 *
 * Memory stays bounded: a window holds at most TC_READER_MAX_NEED bytes more
 * than what the parser asked for, whatever the input's length.
 */
#ifndef TC_READER_H
#define TC_READER_H

#include <stddef.h>
#include <stdint.h>

/* The largest contiguous span a parser may ask for (event payloads). */
#define TC_READER_MAX_NEED (64u << 20)

enum { TC_READ_OK = 0, TC_READ_IO_ERROR, TC_READ_DECOMPRESS_ERROR };

typedef struct tc_reader tc_reader;
struct tc_reader {
    const uint8_t *base; /* start of the window */
    const uint8_t *cur;  /* read position, base <= cur <= end */
    const uint8_t *end;  /* end of the bytes in the window */
    uint64_t base_off;   /* input offset of base[0] */
    int eof;             /* nothing lies beyond end */
    int failed;          /* TC_READ_* */
    uint64_t fail_offset;
    char error[256];
    /* Source hooks. fill: make at least `need` bytes available at cur, or
     * set eof (and maybe failed). skip: move the position forward. */
    void (*fill)(tc_reader *r, size_t need);
    void (*skip)(tc_reader *r, uint64_t n);
    void *src;
    /* Optional: told the position each time the window moves. */
    void (*progress)(void *user, uint64_t pos);
    void *progress_user;
};

static inline uint64_t tc_pos(const tc_reader *r)
{
    return r->base_off + (uint64_t)(r->cur - r->base);
}

static inline size_t tc_avail(const tc_reader *r) { return (size_t)(r->end - r->cur); }

const uint8_t *tc_reader_need_slow(tc_reader *r, size_t n);

/* n contiguous bytes at the read position, or NULL when the input ends (or
 * fails) before them; tc_avail() then tells how many there are. */
static inline const uint8_t *tc_need(tc_reader *r, size_t n)
{
    if ((size_t)(r->end - r->cur) >= n)
        return r->cur;
    return tc_reader_need_slow(r, n);
}

/* Consume n bytes that tc_need() has made available. */
static inline void tc_advance(tc_reader *r, size_t n) { r->cur += n; }

/* Skip n bytes, which may lie beyond the window. Returns how many were
 * skipped: fewer than n only at the end of the input. */
uint64_t tc_skip(tc_reader *r, uint64_t n);

/* True when the input has no byte at the read position. */
static inline int tc_at_end(tc_reader *r) { return tc_need(r, 1) == NULL; }

/* A reader over bytes in memory (no copy). */
void tc_reader_init_memory(tc_reader *r, const void *data, size_t size);

/* A reader over bytes in memory that shows at most `step` bytes per window
 * (more only when a parser needs more at once), so that tests and fuzz
 * harnesses see records cut across windows. s holds its state and must
 * outlive r. */
typedef struct tc_stepped_memory {
    const uint8_t *p;
    size_t n, step;
} tc_stepped_memory;
void tc_reader_init_stepped(tc_reader *r, tc_stepped_memory *s, const void *data, size_t size,
                            size_t step);

#endif
