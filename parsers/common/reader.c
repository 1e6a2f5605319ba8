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
