/* Encoding of the model: the inverse of parsers/xray/xray_reader.c. */
#include <stdlib.h>
#include <string.h>

#include "../../parsers/common/bytes.h"
#include "xray_model.h"

void xray_buffer_clear(xray_buffer *b)
{
    b->n = 0;
    b->pool.len = 0;
    b->extents_set = 0;
    b->extents = 0;
}

void xray_buffer_free(xray_buffer *b)
{
    free(b->recs);
    tc_bb_free(&b->pool);
    memset(b, 0, sizeof *b);
}

xray_rec *xray_insert(xray_buffer *b, size_t index)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        xray_rec *r = realloc(b->recs, cap * sizeof *r);
        if (!r)
            abort();
        b->recs = r;
        b->cap = cap;
    }
    if (index > b->n)
        index = b->n;
    memmove(b->recs + index + 1, b->recs + index, (b->n - index) * sizeof *b->recs);
    b->n++;
    memset(&b->recs[index], 0, sizeof b->recs[index]);
    return &b->recs[index];
}

xray_rec *xray_push(xray_buffer *b) { return xray_insert(b, b->n); }

void xray_remove(xray_buffer *b, size_t index)
{
    if (index >= b->n)
        return;
    memmove(b->recs + index, b->recs + index + 1, (b->n - index - 1) * sizeof *b->recs);
    b->n--;
}

xray_rec *xray_add_function(xray_buffer *b, unsigned action, uint32_t func, uint32_t delta)
{
    xray_rec *r = xray_push(b);
    r->type = XR_FUNCTION;
    r->action = (uint8_t)action;
    r->func_id = func & 0x0fffffffu;
    r->delta = delta;
    return r;
}

xray_rec *xray_add_meta(xray_buffer *b, unsigned kind)
{
    xray_rec *r = xray_push(b);
    r->type = XR_META;
    r->kind = (uint8_t)kind;
    return r;
}

xray_rec *xray_add_event(xray_buffer *b, unsigned kind, const uint8_t *payload, uint32_t len)
{
    uint32_t off = (uint32_t)b->pool.len;
    tc_bb_append(&b->pool, payload, len);
    xray_rec *r = xray_add_meta(b, kind);
    r->i32 = (int32_t)len;
    r->payload = off;
    r->payload_len = len;
    return r;
}

uint64_t xray_rec_size(const xray_rec *r)
{
    switch (r->type) {
    case XR_FUNCTION: return TC_XRAY_FUNCTION_SIZE;
    case XR_RAW: return r->payload_len;
    default: return TC_XRAY_METADATA_SIZE + r->payload_len;
    }
}

uint64_t xray_buffer_used(const xray_buffer *b)
{
    uint64_t used = 0;
    for (size_t i = 0; i < b->n; i++)
        used += xray_rec_size(&b->recs[i]);
    return used;
}

uint64_t xray_buffer_capacity(const tc_xray_header *h)
{
    if (h->version == 1)
        return h->buffer_size;
    return h->buffer_size > 16 ? h->buffer_size - 16 : 0;
}

uint8_t xray_meta_tag(const tc_xray_header *h, unsigned kind)
{
    return h->big_endian ? (uint8_t)(0x80u | kind) : (uint8_t)(kind << 1 | 1u);
}

void xray_write_header(tc_bytebuf *out, const xray_file_header *fh)
{
    const tc_xray_header *h = &fh->h;
    int be = h->big_endian;
    uint8_t *p = tc_bb_append(out, NULL, TC_XRAY_HEADER_SIZE);
    tc_put16(p, h->version, be);
    tc_put16(p + 2, h->type, be);
    tc_put32(p + 4, h->bitfield, be);
    tc_put64(p + 8, h->cycle_frequency, be);
    tc_put64(p + 16, h->buffer_size, be);
    memcpy(p + 24, fh->reserved, 8);
}

/* Number of data bytes (after the first byte) a metadata record uses; the
 * rest are reserved. */
static unsigned used_bytes(const tc_xray_header *h, unsigned kind)
{
    switch (kind) {
    case TC_XRAY_NEW_BUFFER: return 4;
    case TC_XRAY_NEW_CPU: return 10;
    case TC_XRAY_TSC_WRAP: return 8;
    case TC_XRAY_WALL_TIME: return 12;
    case TC_XRAY_CUSTOM_EVENT: return h->version >= 5 ? 8 : h->version == 4 ? 14 : 12;
    case TC_XRAY_CALL_ARG: return 8;
    case TC_XRAY_BUFFER_EXTENTS: return 8;
    case TC_XRAY_TYPED_EVENT: return 10;
    case TC_XRAY_PID: return 4;
    default: return 0;
    }
}

static void write_meta(uint8_t *p, const tc_xray_header *h, const xray_rec *r)
{
    int be = h->big_endian;
    memset(p, 0, TC_XRAY_METADATA_SIZE);
    p[0] = xray_meta_tag(h, r->kind & 0x7fu);
    uint8_t *d = p + 1;
    switch (r->kind) {
    case TC_XRAY_NEW_BUFFER:
    case TC_XRAY_PID:
        tc_put32(d, (uint32_t)r->i32, be);
        break;
    case TC_XRAY_NEW_CPU:
        tc_put16(d, r->u16, be);
        tc_put64(d + 2, r->u64, be);
        break;
    case TC_XRAY_TSC_WRAP:
    case TC_XRAY_CALL_ARG:
    case TC_XRAY_BUFFER_EXTENTS:
        tc_put64(d, r->u64, be);
        break;
    case TC_XRAY_WALL_TIME:
        tc_put64(d, r->u64, be);
        tc_put32(d + 8, (uint32_t)r->i32, be);
        break;
    case TC_XRAY_CUSTOM_EVENT:
        tc_put32(d, (uint32_t)r->i32, be);
        if (h->version >= 5) {
            tc_put32(d + 4, r->delta, be);
        } else {
            tc_put64(d + 4, r->u64, be);
            if (h->version == 4)
                tc_put16(d + 12, r->u16, be);
        }
        break;
    case TC_XRAY_TYPED_EVENT:
        tc_put32(d, (uint32_t)r->i32, be);
        tc_put32(d + 4, r->delta, be);
        tc_put16(d + 8, r->u16, be);
        break;
    default:
        break;
    }
    if (r->garbage)
        for (unsigned i = used_bytes(h, r->kind); i < TC_XRAY_METADATA_SIZE - 1; i++)
            d[i] = (uint8_t)(0xa5u ^ i);
}

static void write_record(tc_bytebuf *out, const tc_xray_header *h, const xray_buffer *b,
                         const xray_rec *r)
{
    int be = h->big_endian;
    if (r->type == XR_FUNCTION) {
        uint8_t *p = tc_bb_append(out, NULL, TC_XRAY_FUNCTION_SIZE);
        uint32_t w = be ? (uint32_t)(r->action & 7u) << 28 | (r->func_id & 0x0fffffffu)
                        : (r->func_id & 0x0fffffffu) << 4 | (uint32_t)(r->action & 7u) << 1;
        tc_put32(p, w, be);
        tc_put32(p + 4, r->delta, be);
        return;
    }
    if (r->type == XR_META)
        write_meta(tc_bb_append(out, NULL, TC_XRAY_METADATA_SIZE), h, r);
    if (r->payload_len)
        tc_bb_append(out, b->pool.p + r->payload, r->payload_len);
}

void xray_write_buffer(tc_bytebuf *out, const tc_xray_header *h, const xray_buffer *b,
                       tc_rng *padding)
{
    uint64_t used = xray_buffer_used(b);
    if (h->version >= 2) {
        xray_rec extents = {.type = XR_META, .kind = TC_XRAY_BUFFER_EXTENTS,
                            .u64 = b->extents_set ? b->extents : used};
        write_meta(tc_bb_append(out, NULL, TC_XRAY_METADATA_SIZE), h, &extents);
    }
    for (size_t i = 0; i < b->n; i++)
        write_record(out, h, b, &b->recs[i]);
    if (h->version == 1 && used < h->buffer_size) {
        uint64_t rest = h->buffer_size - used;
        if (rest >= TC_XRAY_METADATA_SIZE) {
            xray_rec eob = {.type = XR_META, .kind = TC_XRAY_END_OF_BUFFER};
            write_meta(tc_bb_append(out, NULL, TC_XRAY_METADATA_SIZE), h, &eob);
            rest -= TC_XRAY_METADATA_SIZE;
        }
        /* What follows EndOfBuffer is never read. Zeros by default (LLVM's
         * reader parses the padding, and accepts zeros); noise when asked,
         * as a runtime that leaves stale memory there would write. */
        uint8_t *p = tc_bb_append(out, NULL, (size_t)rest);
        if (padding)
            tc_rng_fill(padding, p, (size_t)rest);
    }
}
