/* Encoding of the basic-mode model: the inverse of parsers/xray/xray_basic_reader.c. */
#include <stdlib.h>
#include <string.h>

#include "../../parsers/common/bytes.h"
#include "xray_basic_model.h"

void xray_basic_block_clear(xray_basic_block *b) { b->n = 0; }

void xray_basic_block_free(xray_basic_block *b)
{
    free(b->recs);
    memset(b, 0, sizeof *b);
}

xray_basic_rec *xray_basic_insert(xray_basic_block *b, size_t index)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        xray_basic_rec *r = realloc(b->recs, cap * sizeof *r);
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

void xray_basic_remove(xray_basic_block *b, size_t index)
{
    if (index >= b->n)
        return;
    memmove(b->recs + index, b->recs + index + 1, (b->n - index - 1) * sizeof *b->recs);
    b->n--;
}

void xray_basic_write_header(tc_bytebuf *out, const xray_basic_header *bh)
{
    const tc_xray_header *h = &bh->h;
    int be = h->big_endian;
    uint8_t *p = tc_bb_append(out, NULL, TC_XRAY_HEADER_SIZE);
    tc_put16(p, h->version, be);
    tc_put16(p + 2, h->type, be);
    tc_put32(p + 4, h->bitfield, be);
    tc_put64(p + 8, h->cycle_frequency, be);
    memcpy(p + 16, bh->extra, 16);
}

void xray_basic_write_block(tc_bytebuf *out, const tc_xray_header *h, const xray_basic_block *b)
{
    int be = h->big_endian;
    uint8_t *p = tc_bb_append(out, NULL, b->n * TC_XRAY_BASIC_RECORD_SIZE);
    for (size_t i = 0; i < b->n; i++, p += TC_XRAY_BASIC_RECORD_SIZE) {
        const xray_basic_rec *r = &b->recs[i];
        memset(p, r->pad, TC_XRAY_BASIC_RECORD_SIZE);
        tc_put16(p, r->rtype, be);
        if (r->rtype == TC_XRAY_BASIC_ARG_PAYLOAD) {
            tc_put32(p + 4, (uint32_t)r->func, be);
            tc_put32(p + 8, r->tid, be);
            tc_put32(p + 12, r->pid, be);
            tc_put64(p + 16, r->arg, be);
        } else {
            p[2] = r->cpu;
            p[3] = r->type;
            tc_put32(p + 4, (uint32_t)r->func, be);
            tc_put64(p + 8, r->tsc, be);
            tc_put32(p + 16, r->tid, be);
            tc_put32(p + 20, r->pid, be);
        }
    }
}
