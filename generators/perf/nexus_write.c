#include <errno.h>
#include <string.h>

#include "nexus_write.h"

#define FLUSH_AT (1u << 20)

/* ---- one Nexus message ---- */

void nx_begin(nx_msg *m, unsigned tcode)
{
    m->bits = 0;
    nx_fixed(m, tcode, 6);
}

void nx_fixed(nx_msg *m, uint64_t v, unsigned n)
{
    while (n) {
        unsigned i = m->bits / 6, off = m->bits % 6;
        if (off == 0)
            m->b[i] = 0; /* bytes are cleared as they are reached */
        unsigned k = 6 - off < n ? 6 - off : n;
        m->b[i] |= (uint8_t)((v & ((1u << k) - 1)) << (2 + off));
        v >>= k;
        n -= k;
        m->bits += k;
    }
}

static unsigned bitlen(uint64_t v)
{
    return v ? 64 - (unsigned)__builtin_clzll(v) : 0;
}

void nx_var_wide(nx_msg *m, uint64_t lo, uint64_t hi)
{
    if (!hi && m->bits % 6 == 0) {
        /* The common case, a field that starts a byte: 6 bits a byte until
         * the value is used up, at least one byte. */
        unsigned i = m->bits / 6;
        do {
            m->b[i++] = (uint8_t)((lo & 63) << 2);
            lo >>= 6;
        } while (lo);
        m->b[i - 1] |= 1;
        m->bits = i * 6;
        return;
    }
    /* The field's value bits, at least one; then the rest of the byte they
     * end in, which the field's end (MSEO 1) closes. */
    unsigned n = hi ? 64 + bitlen(hi) : bitlen(lo);
    if (n == 0)
        n = 1;
    nx_fixed(m, lo, n < 64 ? n : 64);
    if (n > 64)
        nx_fixed(m, hi, n - 64);
    if (m->bits % 6)
        m->bits += 6 - m->bits % 6;
    m->b[m->bits / 6 - 1] |= 1;
}

unsigned nx_end(nx_msg *m)
{
    unsigned len = m->bits / 6;
    m->b[len - 1] |= 3;
    return len;
}

/* ---- the output ---- */

void perf_out_init(perf_out *o, int container, unsigned srcbits, uint64_t seed, FILE *file,
                   tc_bytebuf *mem)
{
    memset(o, 0, sizeof *o);
    o->container = container;
    o->srcbits = srcbits;
    o->file = file;
    o->mem = mem;
    tc_rng_seed(&o->rng, seed ^ 0x6e65787573747266ull);
    /* Encoders timestamp every message, some of them, or none. */
    static const unsigned every[] = {0, 1, 2, 4, 8, 16};
    o->ts_every = every[tc_rng_below(&o->rng, 6)];
    o->crlf = tc_rng_chance(&o->rng, 1, 8);
}

int perf_out_flush(perf_out *o)
{
    if (o->buf.len == 0)
        return o->failed ? -1 : 0;
    if (o->mem)
        tc_bb_append(o->mem, o->buf.p, o->buf.len);
    else if (o->file && !o->failed && fwrite(o->buf.p, 1, o->buf.len, o->file) != o->buf.len)
        o->failed = errno ? errno : EIO;
    o->buf.len = 0;
    return o->failed ? -1 : 0;
}

void perf_out_free(perf_out *o)
{
    tc_bb_free(&o->buf);
}

void perf_out_raw(perf_out *o, const void *p, size_t n)
{
    tc_bb_append(&o->buf, p, n);
    o->total += n;
    if (o->buf.len >= FLUSH_AT)
        perf_out_flush(o);
}

static void put_msg(perf_out *o, nx_msg *m)
{
    unsigned len = nx_end(m);
    perf_out_raw(o, m->b, len);
}

/* ---- text lines ---- */

static char *put_hex(char *s, uint64_t v, int upper)
{
    static const char lo[] = "0123456789abcdef", up[] = "0123456789ABCDEF";
    const char *digits = upper ? up : lo;
    char tmp[16];
    int n = 0;
    do {
        tmp[n++] = digits[v & 15];
        v >>= 4;
    } while (v);
    *s++ = '0';
    *s++ = 'x';
    while (n)
        *s++ = tmp[--n];
    return s;
}

static char *line_end(perf_out *o, char *s)
{
    if (o->crlf)
        *s++ = '\r';
    *s++ = '\n';
    o->lines++;
    return s;
}

static void text_line(perf_out *o, uint64_t idtag, uint64_t value, int with_ts)
{
    char line[96], *s = line;
    /* Mostly one space and lower-case digits, as a hand or a script writes
     * them; now and then a tab, capitals or a trailing comment. */
    int upper = tc_rng_chance(&o->rng, 1, 16);
    char sep = tc_rng_chance(&o->rng, 1, 16) ? '\t' : ' ';
    s = put_hex(s, idtag, upper);
    *s++ = sep;
    s = put_hex(s, value, upper);
    if (with_ts) {
        *s++ = sep;
        s = put_hex(s, o->now, upper);
    }
    if (tc_rng_chance(&o->rng, 1, 64)) {
        memcpy(s, "  # note", 8);
        s += 8;
    }
    s = line_end(o, s);
    perf_out_raw(o, line, (size_t)(s - line));
}

void perf_out_comment(perf_out *o, const char *text)
{
    char line[160], *s = line;
    size_t n = strlen(text);
    if (n > 150)
        n = 150;
    *s++ = '#';
    *s++ = ' ';
    memcpy(s, text, n);
    s = line_end(o, s + n);
    perf_out_raw(o, line, (size_t)(s - line));
}

/* ---- Nexus messages ---- */

static int want_timestamp(perf_out *o)
{
    return o->ts_every && tc_rng_below(&o->rng, o->ts_every) == 0;
}

/* SRC on a multi-core system: which hart sent the message. */
static void put_src(perf_out *o, nx_msg *m, int random_src)
{
    if (o->srcbits)
        nx_fixed(m, random_src ? tc_rng_below(&o->rng, 1u << o->srcbits) : 0, o->srcbits);
}

/* A timestamp relative to the last full one, as SiFive's encoder writes
 * it (its decoder XORs it onto the full one). */
static void put_rel_timestamp(perf_out *o, nx_msg *m)
{
    nx_var(m, o->now ^ o->last_full);
}

void perf_out_da(perf_out *o, uint64_t idtag, uint64_t value, int with_timestamp)
{
    if (o->container == PERF_TEXT) {
        text_line(o, idtag, value, with_timestamp);
        return;
    }
    nx_msg m;
    nx_begin(&m, NX_TCODE_DATA_ACQ);
    put_src(o, &m, 0);
    nx_var(&m, idtag);
    nx_var(&m, value);
    if (with_timestamp)
        put_rel_timestamp(o, &m);
    put_msg(o, &m);
}

static void other_channel_da(perf_out *o)
{
    unsigned ch = (unsigned)tc_rng_below(&o->rng, 31);
    if (ch >= PERF_CHANNEL)
        ch++; /* any channel but the perf one */
    static const unsigned codes[] = {0, 2, 3};
    static const unsigned bits[] = {32, 16, 8};
    unsigned c = (unsigned)tc_rng_below(&o->rng, 3);
    uint64_t v = tc_rng_u64(&o->rng) & ((1ull << bits[c]) - 1);
    if (tc_rng_chance(&o->rng, 1, 2))
        v &= 0x7f; /* ITC print channels carry characters */
    perf_out_da(o, ch * 4 + codes[c], v, want_timestamp(o));
}

void perf_out_sync(perf_out *o)
{
    if (o->container == PERF_TEXT) {
        perf_out_comment(o, "SiFive perf data on ITC channel 6: IDTAG 0x18 (32-bit), 0x1a "
                            "(16-bit), 0x1b (8-bit)");
        return;
    }
    /* Sync: SYNC reason, I-CNT, F-ADDR, full TIMESTAMP. */
    nx_msg m;
    nx_begin(&m, NX_TCODE_SYNC);
    put_src(o, &m, 1);
    nx_fixed(&m, 1 + tc_rng_below(&o->rng, 15), 4);
    nx_var(&m, tc_rng_below(&o->rng, 300));
    nx_var(&m, (0x80000000u + tc_rng_below(&o->rng, 1u << 20)) >> 1);
    nx_var(&m, o->now);
    o->last_full = o->now;
    put_msg(o, &m);
}

void perf_out_traffic(perf_out *o)
{
    if (o->container == PERF_TEXT) {
        if (tc_rng_chance(&o->rng, 2, 3))
            other_channel_da(o);
        else if (tc_rng_chance(&o->rng, 1, 4))
            perf_out_raw(o, o->crlf ? "\r\n" : "\n", o->crlf ? 2 : 1);
        else
            perf_out_comment(o, "another channel's traffic may be interleaved");
        return;
    }
    unsigned k = (unsigned)tc_rng_below(&o->rng, 20);
    nx_msg m;
    if (k < 6) {
        other_channel_da(o);
        return;
    }
    if (k < 9) {
        perf_out_sync(o);
        return;
    }
    if (k < 11) {
        /* In-Circuit Trace, control source 0, CKDF 0: one CKDATA word and
         * a full TIMESTAMP. */
        nx_begin(&m, NX_TCODE_ICT);
        put_src(o, &m, 1);
        nx_fixed(&m, 0, 4);
        nx_fixed(&m, 0, 2);
        nx_var(&m, tc_rng_below(&o->rng, 4));
        nx_var(&m, o->now);
        o->last_full = o->now;
    } else if (k < 13) {
        nx_begin(&m, NX_TCODE_OWNERSHIP);
        put_src(o, &m, 1);
        nx_var(&m, tc_rng_below(&o->rng, 1u << 16));
        put_rel_timestamp(o, &m);
    } else if (k < 14) {
        nx_begin(&m, NX_TCODE_ERROR);
        put_src(o, &m, 1);
        nx_fixed(&m, tc_rng_below(&o->rng, 16), 4);
        nx_var(&m, tc_rng_below(&o->rng, 256));
        put_rel_timestamp(o, &m);
    } else if (k < 17) {
        nx_begin(&m, NX_TCODE_DIRECT_BRANCH);
        put_src(o, &m, 1);
        nx_var(&m, 1 + tc_rng_below(&o->rng, 200));
        put_rel_timestamp(o, &m);
    } else if (k < 19) {
        nx_begin(&m, NX_TCODE_INDIRECT_BRANCH);
        put_src(o, &m, 1);
        nx_fixed(&m, tc_rng_below(&o->rng, 4), 2);
        nx_var(&m, 1 + tc_rng_below(&o->rng, 200));
        nx_var(&m, tc_rng_below(&o->rng, 1u << 24));
        put_rel_timestamp(o, &m);
    } else {
        nx_begin(&m, NX_TCODE_RESOURCE_FULL);
        put_src(o, &m, 1);
        nx_fixed(&m, tc_rng_below(&o->rng, 3), 4);
        nx_var(&m, tc_rng_below(&o->rng, 1u << 10));
    }
    put_msg(o, &m);
}

void perf_out_write(perf_out *o, unsigned code, uint64_t value)
{
    /* One draw decides the traffic before the store, idle bytes and the
     * timestamp (the hot path of a gigabyte trace). */
    uint64_t r = tc_rng_u64(&o->rng);
    if (!o->quiet && o->total) {
        if ((r & 0xff) < 21) /* about 1 store in 12 */
            perf_out_traffic(o);
        /* Idle bytes come between messages only: at the very start they
         * would read as a wrapped buffer's tail. */
        if (o->container == PERF_RTD && (r >> 8 & 0xff) < 5) { /* about 1 in 50 */
            static const uint8_t idle[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
            perf_out_raw(o, idle, 1 + (r >> 16 & 7));
        }
    }
    int ts = o->ts_every && (r >> 24) % o->ts_every == 0;
    perf_out_da(o, PERF_CHANNEL * 4 + code, value, ts);
}
