/*
 * The perf mutator (see perf_mutator.h). Layout facts are spec/perf/perf.md's:
 * a Nexus byte is MDO (6 bits, byte >> 2) and MSEO (byte & 3: 1 ends a
 * variable field, 3 the message); a message's MDO bits run least
 * significant first; its first 6 bits are the TCODE (7: Data Acquisition),
 * then SRC (srcbits), IDTAG, DQDATA and an optional TIMESTAMP. IDTAG is
 * channel * 4 + the write's width code (0: 32 bits, 2: 16, 3: 8; 1 is no
 * width). The perf grammar: a header is the marker, an 8-bit count type, a
 * 32-bit mask, per set bit an OpenSBI type, a code (or two event words),
 * counter_info; a record an 8-bit type, its addresses (a low word with bit
 * 0 set is followed by a high word) and its counter values (a low word, and
 * maybe a 16-bit high part).
 */
#include <stdlib.h>
#include <string.h>

#include "perf_mutator.h"

#define MAX_MSGS 2048
#define MARKER 0x70657266u
#define CHANNEL 6u

typedef struct msg {
    uint8_t *p;
    size_t n;
} msg;

typedef struct nfile {
    uint8_t first; /* the byte choosing --srcbits */
    unsigned srcbits;
    msg m[MAX_MSGS];
    size_t n;
} nfile;

static void file_free(nfile *f)
{
    for (size_t i = 0; i < f->n; i++)
        free(f->m[i].p);
}

static int add(nfile *f, size_t at, const uint8_t *p, size_t n)
{
    if (f->n >= MAX_MSGS)
        return 0;
    uint8_t *c = malloc(n ? n : 1);
    if (!c)
        return 0;
    memcpy(c, p, n);
    memmove(f->m + at + 1, f->m + at, (f->n - at) * sizeof *f->m);
    f->m[at] = (msg){c, n};
    f->n++;
    return 1;
}

static void remove_at(nfile *f, size_t at)
{
    free(f->m[at].p);
    memmove(f->m + at, f->m + at + 1, (f->n - at - 1) * sizeof *f->m);
    f->n--;
}

/* Messages (and runs of idle bytes, kept as messages of their own, and a
 * last message cut by the end). Returns 0 for a text list or no input. */
static int file_read(nfile *f, const uint8_t *data, size_t size)
{
    memset(f, 0, sizeof *f);
    if (size == 0 || data[0] >= 0xf0)
        return 0;
    f->first = data[0];
    f->srcbits = data[0] % 9;
    size_t pos = 1;
    while (pos < size && f->n < MAX_MSGS) {
        size_t j = pos;
        if (data[pos] == 0xff) {
            while (j < size && data[j] == 0xff)
                j++;
        } else {
            while (j < size && (data[j] & 3) != 3)
                j++;
            if (j < size)
                j++;
        }
        if (!add(f, f->n, data + pos, j - pos)) {
            file_free(f);
            return 0;
        }
        pos = j;
    }
    if (pos < size && !add(f, f->n, data + pos, size - pos)) { /* beyond MAX_MSGS: one tail */
        file_free(f);
        return 0;
    }
    return 1;
}

static size_t file_write(const nfile *f, uint8_t *out, size_t max)
{
    size_t at = mut_put(out, 0, max, &f->first, 1);
    for (size_t i = 0; i < f->n; i++)
        at = mut_put(out, at, max, f->m[i].p, f->m[i].n);
    return at;
}

/* ---- Data Acquisition messages ---- */

typedef struct bits {
    uint8_t b[80];
    size_t n; /* bytes */
    unsigned used; /* MDO bits used in the last byte (6: full) */
} bits;

/* Appends the low w bits of v, then ends the field (mseo 1 or 3) on the
 * byte holding its last bit. */
static void field(bits *o, uint64_t v, unsigned w, unsigned mseo)
{
    for (unsigned i = 0; i < w; i++) {
        if (o->used == 6) {
            o->b[o->n++] = 0;
            o->used = 0;
        }
        if (i < 64 && (v >> i & 1))
            o->b[o->n - 1] |= (uint8_t)(1u << (2 + o->used));
        o->used++;
    }
    if (mseo) {
        o->b[o->n - 1] = (uint8_t)((o->b[o->n - 1] & 0xfc) | mseo);
        o->used = 6; /* a variable field ends its byte */
    }
}

static unsigned width_of(uint64_t v)
{
    unsigned w = 0;
    while (w < 64 && (v >> w))
        w++;
    return w ? w : 1;
}

/* A Data Acquisition message: TCODE 7, SRC, IDTAG, DQDATA, [TIMESTAMP]. */
static size_t encode(uint8_t *out, unsigned srcbits, unsigned src, uint64_t idtag, uint64_t value,
                     int has_ts, uint64_t ts)
{
    bits o = {{0}, 1, 6};
    o.b[0] = 7 << 2;
    o.used = 6;
    /* SRC and IDTAG share the first variable field: its bits fill whole
     * bytes, IDTAG getting what SRC leaves. */
    field(&o, src, srcbits, 0);
    unsigned w = width_of(idtag);
    field(&o, idtag, w, 1);
    field(&o, value, width_of(value), has_ts ? 1 : 3);
    if (has_ts)
        field(&o, ts, width_of(ts), 3);
    memcpy(out, o.b, o.n);
    return o.n;
}

/* The message's fields when it is a well-formed Data Acquisition message. */
static int decode(const uint8_t *p, size_t n, unsigned srcbits, unsigned *src, uint64_t *idtag,
                  uint64_t *value, int *has_ts, uint64_t *ts)
{
    if (n < 3 || (p[0] >> 2) != 7 || (p[0] & 3) || (p[n - 1] & 3) != 3 || n > 64)
        return 0;
    uint64_t f[3] = {0, 0, 0};
    unsigned nf = 0, bit = 0;
    *src = 0;
    for (size_t k = 1; k < n && nf < 3; k++) {
        for (unsigned i = 0; i < 6; i++, bit++) {
            unsigned v = p[k] >> (2 + i) & 1;
            if (bit < srcbits)
                *src |= v << bit;
            else if (v && nf < 3)
                f[nf] |= (uint64_t)1 << ((bit - srcbits) % 64); /* approximate: wide fields wrap */
        }
        if (p[k] & 3) {
            nf++;
            srcbits = bit; /* the next field starts here */
        }
    }
    if (nf < 2)
        return 0;
    *idtag = f[0];
    *value = f[1];
    *has_ts = nf == 3;
    *ts = f[2];
    return 1;
}

/* A value of the perf grammar, or another on an edge. */
static uint64_t perf_value(mut_rng *g)
{
    static const unsigned widths[] = {1, 8, 16, 31, 32, 33, 47, 48, 49, 63, 64};
    switch (mut_below(g, 10)) {
    case 0: return MARKER;
    case 1: return mut_below(g, 5); /* count and record types */
    case 2: return mut_below(g, 2) ? 1u << mut_below(g, 32) : mut_below(g, 16); /* masks */
    case 3: /* counter_info: a CSR and a width */
        return (uint64_t)(widths[mut_below(g, 11)] - 1) << 12 | (mut_below(g, 2) ? 0xc00 : 0);
    case 4: return 0x80001000u + 0x100u * mut_below(g, 8); /* functions */
    case 5: return 0x80001000u + 0x100u * mut_below(g, 8) + 1; /* odd: a high word follows */
    case 6: return mut_below(g, 0x10000); /* a 16-bit high part */
    case 7: return 0;
    case 8: return 0xffffffffu;
    default: return mut_edge_value(g, 0) & 0xffffffffu;
    }
}

/* An IDTAG: mostly the perf channel's 32-bit writes, then its 16- and 8-bit
 * ones, width code 1, other channels, no stimulus register. */
static uint64_t perf_idtag(mut_rng *g)
{
    switch (mut_below(g, 10)) {
    case 0: return CHANNEL * 4 + 2;
    case 1: return CHANNEL * 4 + 3;
    case 2: return CHANNEL * 4 + 1;
    case 3: return 4 * mut_below(g, 32) + mut_below(g, 4);
    case 4: return 128 + mut_below(g, 128);
    default: return CHANNEL * 4;
    }
}

static void insert_da(nfile *f, mut_rng *g, size_t at, uint64_t idtag, uint64_t value)
{
    uint8_t b[80];
    int ts = mut_one_in(g, 4);
    size_t n = encode(b, f->srcbits, (unsigned)mut_below(g, 1u << f->srcbits), idtag, value, ts,
                      mut_below(g, 1000));
    add(f, at, b, n);
}

/* A header (marker, count type, mask, counters) or a record (type,
 * addresses, counter values) of the perf grammar, as 32-, 8- and 16-bit
 * writes on the perf channel. */
static void insert_unit(nfile *f, mut_rng *g, size_t at)
{
    const uint64_t w32 = CHANNEL * 4, w16 = CHANNEL * 4 + 2, w8 = CHANNEL * 4 + 3;
    if (mut_below(g, 3) == 0) {
        unsigned mask = mut_below(g, 2) ? 1u << mut_below(g, 4) : (unsigned)mut_below(g, 8);
        insert_da(f, g, at++, w32, MARKER);
        insert_da(f, g, at++, w8, mut_below(g, 4));
        insert_da(f, g, at++, w32, mask);
        for (unsigned c = 0; c < 32; c++) {
            if (!(mask >> c & 1))
                continue;
            unsigned sbi = (unsigned)mut_below(g, 3);
            insert_da(f, g, at++, w32, sbi);
            insert_da(f, g, at++, w32, mut_below(g, 64));
            if (sbi == 2)
                insert_da(f, g, at++, w32, mut_below(g, 4));
            insert_da(f, g, at++, w32, perf_value(g) & 0x3ffff);
        }
        return;
    }
    unsigned type = (unsigned)mut_below(g, 4);
    uint64_t fn = 0x80001000u + 0x100u * mut_below(g, 8), site = fn + 0x40;
    insert_da(f, g, at++, w8, type);
    insert_da(f, g, at++, w32, fn);
    if (type <= 1)
        insert_da(f, g, at++, w32, site);
    for (unsigned c = mut_below(g, 3); c > 0; c--) {
        insert_da(f, g, at++, w32, perf_value(g));
        if (mut_one_in(g, 3))
            insert_da(f, g, at++, w16, mut_below(g, 0x10000));
    }
}

static void mutate_msg(nfile *f, mut_rng *g, msg *m)
{
    unsigned src;
    uint64_t idtag, value, ts;
    int has_ts;
    if (m->n == 0)
        return;
    if (decode(m->p, m->n, f->srcbits, &src, &idtag, &value, &has_ts, &ts) && mut_below(g, 3)) {
        switch (mut_below(g, 4)) {
        case 0: idtag = perf_idtag(g); break;
        case 1: value = perf_value(g); break;
        case 2: has_ts = !has_ts; ts = mut_below(g, 1000); break;
        default: value = mut_edge_value(g, value); break; /* past 32 bits, past 64 */
        }
        uint8_t b[80];
        size_t n = encode(b, f->srcbits, src, idtag, value, has_ts, ts);
        uint8_t *c = malloc(n);
        if (!c)
            return;
        memcpy(c, b, n);
        free(m->p);
        m->p = c;
        m->n = n;
        return;
    }
    /* The framing: a field end moved or added, the end taken away, a byte. */
    size_t k = mut_below(g, m->n);
    switch (mut_below(g, 4)) {
    case 0: m->p[k] = (uint8_t)((m->p[k] & 0xfc) | 1); break;
    case 1: m->p[k] &= 0xfc; break;
    case 2: m->p[k] = (uint8_t)((m->p[k] & 0xfc) | (unsigned)mut_below(g, 4)); break;
    default: m->p[k] = (uint8_t)(m->p[k] ^ (4u << mut_below(g, 6))); break;
    }
}

static void mutate(nfile *f, mut_rng *g)
{
    size_t at = mut_below(g, f->n + 1);
    msg *m = f->n ? &f->m[mut_below(g, f->n)] : NULL;
    switch (mut_below(g, 10)) {
    case 0:
    case 1:
    case 2:
        if (m)
            mutate_msg(f, g, m);
        break;
    case 3:
    case 4: insert_unit(f, g, at); break;
    case 5: insert_da(f, g, at, perf_idtag(g), perf_value(g)); break;
    case 6:
        if (m)
            remove_at(f, (size_t)(m - f->m));
        break;
    case 7:
        if (m) {
            uint8_t *c = malloc(m->n ? m->n : 1);
            if (c) {
                memcpy(c, m->p, m->n);
                add(f, at, c, m->n);
                free(c);
            }
        }
        break;
    case 8: { /* idle bytes, another TCODE, a start inside a message */
        static const uint8_t other[][4] = {{0xff, 0xff, 0xff, 0xff}, {35 << 2, 0x07, 0, 0},
                                           {0x05, 0x09, 0x0d, 0}, {1 << 2, 3, 0, 0}};
        static const size_t len[] = {4, 2, 3, 2};
        size_t k = mut_below(g, 4);
        add(f, k == 2 ? 0 : at, other[k], len[k]);
        break;
    }
    default: /* cut: the end of the file inside a message, or a long message */
        if (!m)
            break;
        if (mut_below(g, 2)) {
            size_t i = (size_t)(m - f->m);
            while (f->n > i + 1)
                remove_at(f, f->n - 1);
            m->n = mut_below(g, m->n + 1);
        } else {
            uint8_t b[72];
            memset(b, 7 << 2, sizeof b);
            b[71] = 3;
            add(f, at, b, 60 + mut_below(g, 12));
        }
        break;
    }
}

size_t perf_mutate(uint8_t *data, size_t size, size_t max_size, unsigned seed,
                   mut_bytes_fn bytes)
{
    mut_rng g;
    mut_seed(&g, seed);
    static nfile f; /* large: not on the stack (a mutator runs on one thread) */
    if (mut_one_in(&g, 5) || !file_read(&f, data, size))
        return mut_bytes(data, size, max_size, &g, bytes);
    if (mut_one_in(&g, 16))
        f.first = (uint8_t)mut_below(&g, 9); /* another --srcbits */
    for (size_t k = 1 + mut_below(&g, 3); k > 0; k--)
        mutate(&f, &g);
    size_t n = file_write(&f, data, max_size);
    file_free(&f);
    return n;
}

size_t perf_cross_over(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, uint8_t *out,
                       size_t max_size, unsigned seed)
{
    mut_rng g;
    mut_seed(&g, seed);
    static nfile x, y;
    if (!file_read(&x, a, na)) {
        size_t n = na < max_size ? na : max_size;
        memcpy(out, a, n);
        return n;
    }
    if (!file_read(&y, b, nb)) {
        size_t n = file_write(&x, out, max_size);
        file_free(&x);
        return n;
    }
    size_t keep = mut_below(&g, x.n + 1), from = mut_below(&g, y.n + 1);
    size_t at = mut_put(out, 0, max_size, &x.first, 1);
    for (size_t i = 0; i < keep; i++)
        at = mut_put(out, at, max_size, x.m[i].p, x.m[i].n);
    for (size_t i = from; i < y.n; i++)
        at = mut_put(out, at, max_size, y.m[i].p, y.m[i].n);
    file_free(&x);
    file_free(&y);
    return at;
}
