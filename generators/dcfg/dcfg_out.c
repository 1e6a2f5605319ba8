#include <string.h>

#include "dcfg_out.h"

void dg_out_flush(dg_out *o)
{
    if (!o->len)
        return;
    if (o->f) {
        if (!o->failed && fwrite(o->buf, 1, o->len, o->f) != o->len)
            o->failed = 1;
    } else if (o->mem) {
        tc_bb_append(o->mem, o->buf, o->len);
    }
    o->len = 0;
}

void dg_put(dg_out *o, const void *p, size_t n)
{
    o->total += n;
    if (n > sizeof o->buf - o->len) {
        dg_out_flush(o);
        if (n >= sizeof o->buf) {
            if (o->f) {
                if (!o->failed && fwrite(p, 1, n, o->f) != n)
                    o->failed = 1;
            } else if (o->mem) {
                tc_bb_append(o->mem, p, n);
            }
            return;
        }
    }
    memcpy(o->buf + o->len, p, n);
    o->len += n;
}

void dg_puts(dg_out *o, const char *s) { dg_put(o, s, strlen(s)); }

void dg_int(dg_out *o, uint64_t v, int form)
{
    char tmp[24], out[32];
    size_t n = 0, k = 0;
    if (form == DG_INT_HEX) {
        static const char hex[] = "0123456789abcdef";
        do
            tmp[n++] = hex[v & 15];
        while (v >>= 4);
        out[k++] = '"';
        out[k++] = '0';
        out[k++] = 'x';
    } else {
        do
            tmp[n++] = (char)('0' + v % 10);
        while (v /= 10);
        if (form == DG_INT_DEC_STRING)
            out[k++] = '"';
    }
    while (n)
        out[k++] = tmp[--n];
    if (form != DG_INT_NUMBER)
        out[k++] = '"';
    dg_put(o, out, k);
}

void dg_int_r(dg_out *o, uint64_t v, tc_rng *r, int hexish)
{
    unsigned roll = (unsigned)tc_rng_below(r, 16);
    int form = hexish ? (roll < 13 ? DG_INT_HEX : roll < 15 ? DG_INT_NUMBER : DG_INT_DEC_STRING)
                      : (roll < 13 ? DG_INT_NUMBER : roll < 15 ? DG_INT_HEX : DG_INT_DEC_STRING);
    dg_int(o, v, form);
}
