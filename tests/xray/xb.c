#include <string.h>

#include "xb.h"

void xb_init(xb *x, unsigned version, int be)
{
    memset(x, 0, sizeof *x);
    x->version = version;
    x->be = be;
}

void xb_free(xb *x) { tu_bytes_free(&x->b); }

const uint8_t *xb_data(const xb *x) { return x->b.p; }

size_t xb_len(const xb *x) { return x->b.len; }

static void put(xb *x, uint64_t v, unsigned bytes)
{
    uint8_t p[8];
    for (unsigned i = 0; i < bytes; i++)
        p[x->be ? bytes - 1 - i : i] = (uint8_t)(v >> (8 * i));
    tu_bytes_append(&x->b, p, bytes);
}

static void set(xb *x, size_t at, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++)
        x->b.p[at + (x->be ? bytes - 1 - i : i)] = (uint8_t)(v >> (8 * i));
}

void xb_put16(xb *x, uint16_t v) { put(x, v, 2); }
void xb_put32(xb *x, uint32_t v) { put(x, v, 4); }
void xb_put64(xb *x, uint64_t v) { put(x, v, 8); }
void xb_set32(xb *x, size_t at, uint32_t v) { set(x, at, v, 4); }
void xb_set64(xb *x, size_t at, uint64_t v) { set(x, at, v, 8); }

void xb_raw(xb *x, const void *p, size_t n) { tu_bytes_append(&x->b, p, n); }

void xb_fill(xb *x, uint8_t byte, size_t n)
{
    for (size_t i = 0; i < n; i++)
        tu_bytes_append(&x->b, &byte, 1);
}

void xb_header_full(xb *x, uint16_t version, uint16_t type, uint32_t bitfield, uint64_t freq,
                    uint64_t buffer_size, const uint8_t reserved[8])
{
    static const uint8_t zero[8];
    xb_put16(x, version);
    xb_put16(x, type);
    xb_put32(x, bitfield);
    xb_put64(x, freq);
    xb_put64(x, buffer_size);
    xb_raw(x, reserved ? reserved : zero, 8);
    x->buffer_size = buffer_size;
}

void xb_header(xb *x, uint64_t buffer_size)
{
    /* constant_tsc and nonstop_tsc: the first two bits, LSB first in a
     * little-endian file and MSB first in a big-endian one. */
    uint32_t bits = x->be ? 0xC0000000u : 0x3u;
    xb_header_full(x, (uint16_t)x->version, 1, bits, 2400000000ull, buffer_size, NULL);
}

uint8_t xb_tag(const xb *x, unsigned kind)
{
    return x->be ? (uint8_t)(0x80u | kind) : (uint8_t)(kind << 1 | 1u);
}

void xb_meta(xb *x, unsigned kind, const uint8_t data[15])
{
    static const uint8_t zero[15];
    uint8_t tag = xb_tag(x, kind);
    xb_raw(x, &tag, 1);
    xb_raw(x, data ? data : zero, 15);
}

/* A metadata record whose data starts with the fields put by the caller:
 * the tag now, the zero padding to 16 bytes by meta_end. */
static size_t meta_begin(xb *x, unsigned kind)
{
    size_t at = x->b.len;
    uint8_t tag = xb_tag(x, kind);
    xb_raw(x, &tag, 1);
    return at;
}

static void meta_end(xb *x, size_t at)
{
    size_t used = x->b.len - at;
    if (used < 16)
        xb_fill(x, 0, 16 - used);
}

void xb_new_buffer(xb *x, int32_t tid)
{
    size_t at = meta_begin(x, XB_NEW_BUFFER);
    xb_put32(x, (uint32_t)tid);
    meta_end(x, at);
}

void xb_end_of_buffer(xb *x) { xb_meta(x, XB_END_OF_BUFFER, NULL); }

void xb_new_cpu(xb *x, uint16_t cpu, uint64_t tsc)
{
    size_t at = meta_begin(x, XB_NEW_CPU);
    xb_put16(x, cpu);
    xb_put64(x, tsc);
    meta_end(x, at);
}

void xb_tsc_wrap(xb *x, uint64_t tsc)
{
    size_t at = meta_begin(x, XB_TSC_WRAP);
    xb_put64(x, tsc);
    meta_end(x, at);
}

void xb_wall(xb *x, int64_t sec, int32_t usec)
{
    size_t at = meta_begin(x, XB_WALL_TIME);
    xb_put64(x, (uint64_t)sec);
    xb_put32(x, (uint32_t)usec);
    meta_end(x, at);
}

void xb_pid(xb *x, int32_t pid)
{
    size_t at = meta_begin(x, XB_PID);
    xb_put32(x, (uint32_t)pid);
    meta_end(x, at);
}

void xb_arg(xb *x, uint64_t value)
{
    size_t at = meta_begin(x, XB_CALL_ARG);
    xb_put64(x, value);
    meta_end(x, at);
}

void xb_extents(xb *x, uint64_t n)
{
    size_t at = meta_begin(x, XB_BUFFER_EXTENTS);
    xb_put64(x, n);
    meta_end(x, at);
}

void xb_fn(xb *x, unsigned action, uint32_t fid, uint32_t delta)
{
    uint32_t w = x->be ? (uint32_t)(action & 7u) << 28 | (fid & 0x0FFFFFFFu)
                       : (fid & 0x0FFFFFFFu) << 4 | (uint32_t)(action & 7u) << 1;
    xb_put32(x, w);
    xb_put32(x, delta);
}

void xb_custom(xb *x, int32_t size, uint64_t tsc_or_delta, uint16_t cpu, const void *payload,
               size_t len)
{
    size_t at = meta_begin(x, XB_CUSTOM_EVENT);
    xb_put32(x, (uint32_t)size);
    if (x->version >= 5) {
        xb_put32(x, (uint32_t)tsc_or_delta);
    } else {
        xb_put64(x, tsc_or_delta);
        if (x->version == 4)
            xb_put16(x, cpu);
    }
    meta_end(x, at);
    if (len)
        xb_raw(x, payload, len);
}

void xb_typed(xb *x, int32_t size, int32_t delta, uint16_t type, const void *payload, size_t len)
{
    size_t at = meta_begin(x, XB_TYPED_EVENT);
    xb_put32(x, (uint32_t)size);
    xb_put32(x, (uint32_t)delta);
    xb_put16(x, type);
    meta_end(x, at);
    if (len)
        xb_raw(x, payload, len);
}

void xb_preamble(xb *x, int32_t tid, int32_t pid, uint16_t cpu, uint64_t tsc)
{
    xb_new_buffer(x, tid);
    xb_wall(x, 1000, 5);
    if (x->version >= 3)
        xb_pid(x, pid);
    xb_new_cpu(x, cpu, tsc);
}

size_t xb_begin(xb *x)
{
    x->start = x->b.len;
    x->open = 1;
    if (x->version >= 2)
        xb_extents(x, 0);
    return x->start;
}

void xb_end(xb *x, uint8_t pad)
{
    if (!x->open)
        return;
    x->open = 0;
    if (x->version >= 2) {
        xb_set64(x, x->start + 1, (uint64_t)(x->b.len - x->start - 16));
        return;
    }
    size_t used = x->b.len - x->start;
    if (used >= x->buffer_size)
        return;
    size_t rest = (size_t)x->buffer_size - used;
    if (rest >= 16) {
        xb_end_of_buffer(x);
        rest -= 16;
    }
    xb_fill(x, pad, rest);
}

void xb_simple_buffer(xb *x, int32_t tid, uint16_t cpu, uint64_t tsc)
{
    xb_begin(x);
    xb_preamble(x, tid, 4242, cpu, tsc);
    xb_fn(x, XB_ENTER, 1, 10);
    xb_fn(x, XB_ENTER_ARGS, 2, 10);
    xb_arg(x, 77);
    xb_fn(x, XB_EXIT, 2, 10);
    xb_fn(x, XB_EXIT, 1, 10);
    xb_end(x, 0);
}

int xb_check(const xb *x, int pedantic, tu_result *r)
{
    /* The parser has a fast path over function records taken only when no
     * dump is wanted: run both ways, and they must agree. */
    tu_opts o = {.pedantic = pedantic};
    tu_result plain = {0};
    tu_check_memory(xb_data(x), xb_len(x), &o, &plain);
    o.dump = 1;
    tu_check_memory(xb_data(x), xb_len(x), &o, r);
    tu_assert_same(r, &plain, 0, "validation without a dump vs with one");
    tu_result_free(&plain);
    return r->status;
}
