#include <string.h>

#include "reader.h"

const uint8_t *tc_reader_need_slow(tc_reader *r, size_t n)
{
    if (n > TC_READER_MAX_NEED || r->eof)
        return NULL;
    if (r->progress)
        r->progress(r->progress_user, tc_pos(r));
    r->fill(r, n);
    return tc_avail(r) >= n ? r->cur : NULL;
}

uint64_t tc_skip(tc_reader *r, uint64_t n)
{
    size_t avail = tc_avail(r);
    if (n <= avail) {
        r->cur += n;
        return n;
    }
    if (r->eof) {
        r->cur = r->end;
        return avail;
    }
    uint64_t before = tc_pos(r);
    if (r->progress)
        r->progress(r->progress_user, before);
    r->skip(r, n);
    return tc_pos(r) - before;
}

static void memory_fill(tc_reader *r, size_t need)
{
    (void)need;
    r->eof = 1;
}

static void memory_skip(tc_reader *r, uint64_t n)
{
    (void)n;
    r->cur = r->end;
}

void tc_reader_init_memory(tc_reader *r, const void *data, size_t size)
{
    static const uint8_t nothing[1];
    memset(r, 0, sizeof *r);
    r->base = r->cur = data ? data : nothing;
    r->end = r->base + size;
    r->eof = 1;
    r->fill = memory_fill;
    r->skip = memory_skip;
}

/* ---- memory, a few bytes per window ---- */

static void stepped_window(tc_reader *r, size_t pos, size_t len)
{
    tc_stepped_memory *s = r->src;
    if (len > s->n - pos)
        len = s->n - pos;
    r->base = r->cur = s->p + pos;
    r->end = r->base + len;
    r->base_off = pos;
    r->eof = pos + len == s->n;
}

static void stepped_fill(tc_reader *r, size_t need)
{
    tc_stepped_memory *s = r->src;
    stepped_window(r, (size_t)tc_pos(r), need > s->step ? need : s->step);
}

static void stepped_skip(tc_reader *r, uint64_t n)
{
    tc_stepped_memory *s = r->src;
    uint64_t pos = tc_pos(r);
    pos = n > s->n - pos ? s->n : pos + n;
    stepped_window(r, (size_t)pos, s->step);
}

void tc_reader_init_stepped(tc_reader *r, tc_stepped_memory *s, const void *data, size_t size,
                            size_t step)
{
    static const uint8_t nothing[1];
    memset(r, 0, sizeof *r);
    s->p = data ? data : nothing;
    s->n = size;
    s->step = step ? step : 1;
    r->src = s;
    r->fill = stepped_fill;
    r->skip = stepped_skip;
    stepped_window(r, 0, s->step);
}
