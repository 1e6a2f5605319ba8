/*
 * Buffered text output of the DCFG generator, to a file or to memory, and
 * the "Integer" forms of the format (doc §1.2.1, ruling 4): a JSON number,
 * a "0x..." string or a string of decimal digits, as real files mix them.
 */
#ifndef TC_DCFG_OUT_H
#define TC_DCFG_OUT_H

#include <stdint.h>
#include <stdio.h>

#include "../common/bytebuf.h"
#include "../common/rng.h"

typedef struct dg_out {
    FILE *f;          /* or NULL: into mem */
    tc_bytebuf *mem;
    char buf[1 << 16];
    size_t len;
    uint64_t total;   /* bytes written so far, buffered ones included */
    int failed;       /* a write failed (errno kept) */
} dg_out;

void dg_out_flush(dg_out *o);
void dg_put(dg_out *o, const void *p, size_t n);
void dg_puts(dg_out *o, const char *s);

static inline void dg_putc(dg_out *o, char c)
{
    if (o->len == sizeof o->buf)
        dg_out_flush(o);
    o->buf[o->len++] = c;
    o->total++;
}

enum { DG_INT_NUMBER, DG_INT_HEX, DG_INT_DEC_STRING };
/* v in one of the forms. */
void dg_int(dg_out *o, uint64_t v, int form);
/* v in a form drawn from r: mostly the usual one for the kind of value
 * (hex for addresses and offsets, numbers for the rest), sometimes another. */
void dg_int_r(dg_out *o, uint64_t v, tc_rng *r, int hexish);

#endif
