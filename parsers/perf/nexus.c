/*
 * The Nexus container (spec/perf/perf.md, "Nexus"): framing by the MSEO bits of
 * each byte, the Data Acquisition message's fields, everything else skipped
 * by its framing. Bytes are taken a window at a time and a message is
 * gathered into a 64-byte buffer, so memory is constant and no byte is
 * looked at twice on the common path.
 */
#include <string.h>

#include "nexus_simd.h"
#include "perf_fields.h"
#include "perf_msg.h"

enum { MSEO_NORMAL = 0, MSEO_FIELD_END = 1, MSEO_MSG_END = 3 };

enum {
    SEARCH,  /* at the file start: no message start seen yet */
    BETWEEN, /* after a message: idle bytes, then the next message */
    IN_MSG,  /* gathering a message */
    DROP,    /* after an over-long message: up to and including its end */
};

/* Messages handed to a batch function at once. */
#define BATCH 128

typedef struct nexus {
    tc_diag_sink *d;
    unsigned srcbits;
    tc_perf_msg_fn fn;        /* one message at a time, or */
    tc_perf_batch_fn batch;   /* a batch at a time */
    void *user;
    uint64_t delivered;
    uint8_t buf[TC_NEXUS_MAX_MESSAGE];
    unsigned len;
    uint64_t start; /* offset of buf[0] */
    tc_nexus_ends_fn ends; /* the message-end kernel of the level in force */
    /* The batch: messages not yet handed over. Every finding of this layer
     * hands them over first, so that findings keep their order. Without a
     * batch function, q[0] holds the message being delivered. */
    unsigned nq;
    tc_perf_msg q[BATCH];
} nexus;

static void flush(nexus *n)
{
    if (n->nq) {
        n->batch(n->user, n->q, n->nq);
        n->nq = 0;
    }
}

/* Message m, just written at q[nq], goes on. */
static inline void pass_on(nexus *n, tc_perf_msg *m)
{
    n->delivered++;
    if (!n->batch)
        n->fn(n->user, m);
    else if (++n->nq == BATCH)
        flush(n);
}

/* Bits of a variable field: the value, and whether a set bit fell beyond
 * bit 63. */
typedef struct field {
    uint64_t value;
    unsigned nbits;
    int over;
} field;

static void field_add(field *f, uint64_t bits, unsigned n)
{
    if (n == 0)
        return;
    if (f->nbits < 64) {
        f->value |= bits << f->nbits;
        if (f->nbits + n > 64 && (bits >> (64 - f->nbits)) != 0)
            f->over = 1;
    } else if (bits) {
        f->over = 1;
    }
    f->nbits += n;
}

static const char *const field_names[3] = {"IDTAG", "DQDATA", "TIMESTAMP"};

/* A whole Data Acquisition message: b[0..len), at offset start. */
static void data_acquisition(nexus *n, const uint8_t *b, unsigned len, uint64_t start)
{
    flush(n); /* its findings and view come after the messages before */
    field f[4];
    memset(f, 0, sizeof f);
    unsigned nf = 0;
    unsigned fixed_left = n->srcbits, srcpos = 0;
    uint32_t src = 0;
    /* For a view (fields.h): the bytes of SRC and of each variable field. */
    tc_perf_spans sp = {{0}, {0}};
    unsigned from = 1;
    int cut_fixed = (b[0] & 3) != MSEO_NORMAL; /* the TCODE byte ends a field */
    for (unsigned i = 1; i < len && !cut_fixed; i++) {
        uint64_t mdo = b[i] >> 2;
        unsigned nbits = 6;
        unsigned mseo = b[i] & 3;
        if (fixed_left) {
            unsigned take = fixed_left < 6 ? fixed_left : 6;
            src |= (uint32_t)(mdo & ((1u << take) - 1)) << srcpos;
            srcpos += take;
            fixed_left -= take;
            mdo >>= take;
            nbits -= take;
            /* A field end inside SRC, or right at its end (IDTAG then has
             * no bit): the message lacks its fields. */
            if (mseo != MSEO_NORMAL && (fixed_left || nbits == 0)) {
                cut_fixed = 1;
                break;
            }
        }
        if (nf < 4)
            field_add(&f[nf], mdo, nbits);
        if (n->srcbits && srcpos == n->srcbits && !sp.len[0]) {
            sp.pos[0] = start + 1;
            sp.len[0] = i; /* the bytes that held SRC (the last may hold IDTAG bits too) */
        }
        if (mseo != MSEO_NORMAL) {
            if (nf < 3) {
                sp.pos[nf + 1] = start + from;
                sp.len[nf + 1] = i + 1 - from;
            }
            from = i + 1;
            nf++;
        }
    }
    if (cut_fixed || nf < 2 || nf > 3) {
        if (cut_fixed || nf < 2)
            tc_report(n->d, TC_RULE_PERF_NEXUS_DA_FIELDS, start, len,
                      "a %u-byte Data Acquisition message (TCODE 7) ends %s; it needs an IDTAG "
                      "and a DQDATA field",
                      len,
                      cut_fixed ? (n->srcbits ? "inside or right after its SRC field"
                                              : "right after its TCODE")
                      : nf == 0 ? "before its IDTAG field ends"
                                : "after its IDTAG field, without DQDATA");
        else
            tc_report(n->d, TC_RULE_PERF_NEXUS_DA_FIELDS, start, len,
                      "a %u-byte Data Acquisition message (TCODE 7) has %u variable fields; it "
                      "has IDTAG, DQDATA and an optional TIMESTAMP",
                      len, nf);
        return;
    }
    for (unsigned k = 0; k < nf; k++)
        if (f[k].over) {
            tc_report(n->d, TC_RULE_PERF_NEXUS_FIELD_WIDTH, start, len,
                      "the %s field of a Data Acquisition message has %u bits with a set bit "
                      "above bit 63 (low 64 bits 0x%llx)",
                      field_names[k], f[k].nbits, (unsigned long long)f[k].value);
            return;
        }
    tc_perf_msg *m = &n->q[n->nq];
    *m = (tc_perf_msg){.offset = start,
                       .length = len,
                       .src = src,
                       .idtag = f[0].value,
                       .value = f[1].value,
                       .timestamp = nf == 3 ? f[2].value : 0,
                       .has_timestamp = nf == 3};
    tc_perf_fields_message(n->d, m, &sp, 0);
    pass_on(n, m);
}

static inline void deliver(nexus *n, uint64_t start, unsigned len, const uint64_t *v, unsigned nf)
{
    tc_perf_msg *m = &n->q[n->nq];
    *m = (tc_perf_msg){.offset = start,
                       .length = len,
                       .idtag = v[0],
                       .value = v[1],
                       .timestamp = nf == 3 ? v[2] : 0,
                       .has_timestamp = nf == 3};
    pass_on(n, m);
}

/* The common Data Acquisition message (no SRC, two or three fields, at
 * most 9 bytes: every write of up to 32 bits without a timestamp) read as
 * one 64-bit word: the MDO bits packed together by shifts, the field ends
 * found from the MSEO bits. room is how many bytes may be loaded from b.
 * Returns 0 when the message is not of that shape. */
static inline __attribute__((always_inline)) int
data_acquisition_word(nexus *n, const uint8_t *b, unsigned len, size_t room, uint64_t start)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    unsigned nb = len - 1; /* bytes after the TCODE's */
    if (nb > 8 || room < 9)
        return 0;
    uint64_t w;
    memcpy(&w, b + 1, 8);
    uint64_t ends = w & 0x0303030303030303u;
    /* nb is 1 to 8: the TCODE byte does not end the message. */
    ends = (ends | (ends >> 1)) & 0x0101010101010101u & (UINT64_MAX >> (64 - 8 * nb));
    /* Two or three field ends (without a popcount instruction, which the
     * x86-64 baseline lacks). */
    uint64_t after1 = ends & (ends - 1), after2 = after1 & (after1 - 1);
    if (!after1 || (after2 & (after2 - 1)))
        return 0;
    unsigned nf = 2 + (after2 != 0);
    uint64_t x = (w >> 2) & 0x3F3F3F3F3F3F3F3Fu;
    x = (x & 0x003F003F003F003Fu) | ((x & 0x3F003F003F003F00u) >> 2);
    x = (x & 0x00000FFF00000FFFu) | ((x & 0x0FFF00000FFF0000u) >> 4);
    x = (x & 0x0000000000FFFFFFu) | ((x & 0x00FFFFFF00000000u) >> 8);
    /* Field k runs to the end of byte e[k]: bit 6 * (e[k] + 1). */
    unsigned e1 = (unsigned)__builtin_ctzll(ends) / 8 + 1;
    ends &= ends - 1;
    unsigned e2 = (unsigned)__builtin_ctzll(ends) / 8 + 1;
    /* Every field has at most 48 bits: the masks need no shift by 64. */
    uint64_t v[3];
    v[0] = x & ((1ull << (6 * e1)) - 1);
    v[1] = (x >> (6 * e1)) & ((1ull << (6 * (e2 - e1))) - 1);
    v[2] = nf == 3 ? (x >> (6 * e2)) & ((1ull << (6 * (nb - e2))) - 1) : 0;
    deliver(n, start, len, v, nf);
    return 1;
#else
    (void)n, (void)b, (void)len, (void)room, (void)start;
    return 0;
#endif
}

/* The same shape with longer fields (up to 60 bits each) in a byte loop. */
static int data_acquisition_fast(nexus *n, const uint8_t *b, unsigned len, uint64_t start)
{
    uint64_t v[3], acc = 0;
    unsigned nf = 0, sh = 0;
    for (unsigned i = 1; i < len; i++) {
        uint8_t c = b[i];
        if (sh >= 60)
            return 0;
        acc |= (uint64_t)(c >> 2) << sh;
        sh += 6;
        if (c & 3) {
            if (nf == 3)
                return 0;
            v[nf++] = acc;
            acc = 0;
            sh = 0;
        }
    }
    if (nf < 2)
        return 0;
    deliver(n, start, len, v, nf);
    return 1;
}

/* A whole message b[0..len) at offset start; room: bytes readable from b. */
static void message(nexus *n, const uint8_t *b, unsigned len, size_t room, uint64_t start)
{
    if (TC_FIELDS_ON(n->d)) {
        /* A view: every message is a record, and the general decoder says
         * where its fields are. */
        flush(n);
        unsigned tcode = b[0] >> 2;
        tc_fields_record(n->d, start, len, TC_LOOK_HEX, "Nexus message (TCODE %u%s)", tcode,
                         tcode == TC_NEXUS_TCODE_DATA_ACQ ? ", Data Acquisition"
                                                          : ": skipped by its framing");
        if (TC_FIELDS_WANT(n->d))
            tc_fields_field(n->d, start, 1, 2, 6, "TCODE", "%u", tcode);
        if (tcode == TC_NEXUS_TCODE_DATA_ACQ)
            data_acquisition(n, b, len, start);
        return;
    }
    if ((b[0] >> 2) != TC_NEXUS_TCODE_DATA_ACQ)
        return;
    if (n->srcbits == 0 && (b[0] & 3) == MSEO_NORMAL &&
        (data_acquisition_word(n, b, len, room, start) ||
         data_acquisition_fast(n, b, len, start)))
        return;
    data_acquisition(n, b, len, start);
}

/* The index of the first byte of s[0..lim) whose MSEO is 3 (a message
 * end), or lim: eight bytes at a time where the byte order allows. */
static size_t find_end(const uint8_t *s, size_t lim)
{
    size_t k = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (; k + 8 <= lim; k += 8) {
        uint64_t w;
        memcpy(&w, s + k, 8);
        uint64_t ends = w & (w >> 1) & 0x0101010101010101u;
        if (ends)
            return k + (size_t)__builtin_ctzll(ends) / 8;
    }
#endif
    while (k < lim && (s[k] & 3) != MSEO_MSG_END)
        k++;
    return k;
}

static void report_long(nexus *n, const uint8_t *b)
{
    flush(n);
    tc_report(n->d, TC_RULE_PERF_NEXUS_MESSAGE_LONG, n->start, TC_NEXUS_MAX_MESSAGE,
              "a message (TCODE %u) has not ended after %u bytes; a message ends on a byte "
              "with MSEO 3 within 64 bytes (skipped to the next message end)",
              b[0] >> 2, TC_NEXUS_MAX_MESSAGE);
}

/* Blocks given to the kernel at once: their masks stay in the L1 cache. */
enum { CHUNK_BLOCKS = 128 };

/* From p[i], where a message or idle bytes start (state BETWEEN), every
 * message that ends in the window p[0..avail) (at offset base) is framed by
 * the set bits of the kernel's masks: each goes to message(), one longer
 * than TC_NEXUS_MAX_MESSAGE is reported and dropped up to its end, and the
 * idle byte 0xFF (an end byte itself) is passed over. Returns where the
 * bytes of a message that does not end in the window start, or avail. */
static size_t frame(nexus *n, const uint8_t *p, size_t avail, size_t i, uint64_t base)
{
    uint64_t bits[CHUNK_BLOCKS];
    size_t s = i; /* where the next message or idle byte starts */
    /* The common Data Acquisition message is read here, in one word;
     * message() reads the others, and every message of a view. */
    int view = TC_FIELDS_ON(n->d);
    int word = n->srcbits == 0 && !view;
    for (size_t at = i; at < avail;) {
        size_t left = avail - at;
        size_t nb = left / TC_NEXUS_BLOCK;
        if (nb > CHUNK_BLOCKS)
            nb = CHUNK_BLOCKS;
        if (nb) {
            n->ends(p + at, nb, bits);
        } else {
            /* The last bytes, in a block padded with 0x00 (not an end). */
            uint8_t tail[TC_NEXUS_BLOCK] = {0};
            memcpy(tail, p + at, left);
            n->ends(tail, 1, bits);
            nb = 1;
        }
        for (size_t k = 0; k < nb; k++) {
            uint64_t m = bits[k];
            size_t off = at + k * TC_NEXUS_BLOCK;
            while (m) {
                size_t e = off + (size_t)__builtin_ctzll(m);
                m &= m - 1;
                size_t len = e - s + 1;
                if (len <= 9 && p[s] == (TC_NEXUS_TCODE_DATA_ACQ << 2 | MSEO_NORMAL) && word &&
                    data_acquisition_word(n, p + s, (unsigned)len, avail - s, base + s)) {
                    /* read */
                } else if (len > TC_NEXUS_MAX_MESSAGE) {
                    n->start = base + s;
                    report_long(n, p + s);
                } else if (!view && (p[s] >> 2) != TC_NEXUS_TCODE_DATA_ACQ) {
                    /* Another TCODE (or the idle byte 0xFF): skipped by its
                     * framing, as message() would. */
                } else if (len > 1 || p[s] != 0xFF) {
                    message(n, p + s, (unsigned)len, avail - s, base + s);
                }
                s = e + 1;
            }
        }
        at += nb * TC_NEXUS_BLOCK;
    }
    return s;
}

static uint64_t read_nexus(tc_reader *r, tc_diag_sink *d, unsigned srcbits, tc_perf_msg_fn fn,
                           tc_perf_batch_fn batch, void *user, int *wrapped)
{
    nexus n = {.d = d, .srcbits = srcbits > TC_NEXUS_MAX_SRCBITS ? TC_NEXUS_MAX_SRCBITS : srcbits,
               .fn = fn, .batch = batch, .user = user,
               .ends = tc_nexus_ends_kernel(tc_simd_level_get())};
    int state = SEARCH;
    uint64_t skipped = 0; /* at the file start, idle bytes not counted */
    for (;;) {
        const uint8_t *p = tc_need(r, 1);
        if (!p)
            break;
        size_t avail = tc_avail(r);
        uint64_t base = tc_pos(r);
        for (size_t i = 0; i < avail; i++) {
            uint8_t c = p[i];
            if (state == SEARCH) {
                if (c == 0x00 || (c & 3) != MSEO_NORMAL) {
                    if (c != 0xFF)
                        skipped++;
                    continue;
                }
                if (skipped && wrapped)
                    *wrapped = 1; /* before the first message is delivered */
                if (skipped)
                    tc_report(d, TC_RULE_PERF_NEXUS_MID_START, 0, base + i,
                              "the first message starts at offset %llu: the %llu bytes before "
                              "it (not counting 0xFF idle bytes) end a message that began "
                              "before the file (a wrapped buffer)",
                              (unsigned long long)(base + i), (unsigned long long)skipped);
                state = BETWEEN; /* c starts the first message */
            }
            if (state == BETWEEN) {
                /* Every message that ends in the window, then the start of
                 * one that does not (never 0xFF, an end byte). */
                i = frame(&n, p, avail, i, base);
                if (i == avail)
                    break;
                /* A message wholly inside the window is read in place. */
                size_t lim = avail - i < TC_NEXUS_MAX_MESSAGE ? avail - i : TC_NEXUS_MAX_MESSAGE;
                size_t k = find_end(p + i, lim);
                n.start = base + i;
                if (k < lim) {
                    message(&n, p + i, (unsigned)(k + 1), avail - i, n.start);
                    i += k;
                } else if (lim == TC_NEXUS_MAX_MESSAGE) {
                    report_long(&n, p + i);
                    state = DROP;
                    i += lim - 1;
                } else {
                    /* It runs past the window: gathered byte by byte. */
                    memcpy(n.buf, p + i, lim);
                    n.len = (unsigned)lim;
                    state = IN_MSG;
                    i += lim - 1;
                }
                continue;
            }
            switch (state) {
            case DROP:
                if ((c & 3) == MSEO_MSG_END)
                    state = BETWEEN;
                continue;
            default: /* IN_MSG */
                n.buf[n.len++] = c;
                if ((c & 3) == MSEO_MSG_END) {
                    message(&n, n.buf, n.len, sizeof n.buf, n.start);
                    state = BETWEEN;
                } else if (n.len == TC_NEXUS_MAX_MESSAGE) {
                    report_long(&n, n.buf);
                    state = DROP;
                }
                continue;
            }
        }
        tc_advance(r, avail);
    }
    flush(&n);
    if (state == IN_MSG)
        tc_report(d, TC_RULE_PERF_NEXUS_TRUNCATED, n.start, n.len,
                  "the capture stops inside a message: the file ends %u byte%s into the "
                  "message (TCODE %u%s) that starts at offset %llu, before a byte with MSEO 3; "
                  "the incomplete message is not decoded",
                  n.len, n.len == 1 ? "" : "s", n.buf[0] >> 2,
                  n.buf[0] >> 2 == TC_NEXUS_TCODE_DATA_ACQ ? ", Data Acquisition" : "",
                  (unsigned long long)n.start);
    else if (state == SEARCH && skipped) {
        if (wrapped)
            *wrapped = 1;
        tc_report(d, TC_RULE_PERF_NEXUS_MID_START, 0, tc_pos(r),
                  "no message starts in the file: its %llu bytes (not counting 0xFF idle "
                  "bytes) are 0x00 or end a field or message",
                  (unsigned long long)skipped);
    }
    return n.delivered;
}

uint64_t tc_nexus_read(tc_reader *r, tc_diag_sink *d, unsigned srcbits, tc_perf_msg_fn fn,
                       void *user, int *wrapped)
{
    return read_nexus(r, d, srcbits, fn, NULL, user, wrapped);
}

uint64_t tc_nexus_read_batch(tc_reader *r, tc_diag_sink *d, unsigned srcbits,
                             tc_perf_batch_fn fn, void *user, int *wrapped)
{
    return read_nexus(r, d, srcbits, NULL, fn, user, wrapped);
}
