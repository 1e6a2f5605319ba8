/*
 * The DCFG-trace sequence decoder on its own (parsers/dcfg/dtrc_seq.h,
 * dtrc_table.h, dtrc_decode.h): the fuzzer's bytes give a small transition
 * table, a STRING_DICTIONARY and an edge-id sequence string, and the
 * harness checks the decoder against a naive reading of Doc §3.5 and §3.7
 * written here from the document and rulings 1, 10 and 11:
 *
 *  - the table: a conflict among an edge's codes (one is a prefix of, or
 *    equal once padded to, another) is reported exactly when there is one;
 *    the rows kept are conflict-free, each row dropped was reported and is
 *    in conflict with another; tc_dtrc_parse_code reads the code's text;
 *  - the dictionary: an entry is tainted exactly when it does not parse,
 *    refers to a missing key, reaches a circular reference, nests too deep
 *    or refers to such an entry; each entry that does not parse is
 *    reported;
 *  - the sequence: it compiles exactly when the naive parser reads it,
 *    failing with the same error at the same character, and stands for
 *    6 bits per character of its expansion (counted, saturated as the
 *    decoder saturates);
 *  - decoding, when the expansion is at most 64 KiB: the same verdict, the
 *    same number of edges, the same current edge and bits consumed as a
 *    decoder that materialises the expansion and reads it bit by bit, and
 *    the same sum of per-edge weights (the weights of edges the decoder
 *    adds arithmetically included). Cycles of empty codes, which need no
 *    bit, are counted arithmetically here too, so that EDGE_COUNT may be
 *    2^64 - 1;
 *  - the decoder's fast paths (per-row weights, a character at a step, runs
 *    of one character at once), weighted and unweighted: the plain
 *    decoder's result;
 *  - always: never more edges than EDGE_COUNT, exactly EDGE_COUNT on
 *    success; the same input decoded twice gives the same result; decoding
 *    with skipping (periods added arithmetically), without it, or without
 *    it for the first edges only (tc_dtrc_decode_capped, as the dump
 *    decodes) give the same result when none ran out of budget; a verdict
 *    reached from counts when the budget ran out is never "valid" where
 *    the naive decoder finds an error.
 *
 * Time and memory are bounded by the decoder's work budget (set here from
 * the input: small budgets exercise the over-budget verdicts) and by the
 * 64 KiB expansion limit of the naive decoder; libFuzzer's -timeout and
 * -rss_limit_mb catch the rest.
 *
 * Input layout:
 *   byte 0   rows of the table (low 4 bits), dictionary entries (high 4)
 *   byte 1   FIRST_EDGE_ID (low 4 bits); bit 4: no skipping; bit 5: a small
 *            budget, bits 6-7 its scale (without bit 5 and with bit 4: the
 *            cap of tc_dtrc_decode_capped, none, 1, 7 or 1024 edges)
 *   byte 2   EDGE_COUNT: below 0xF0 the value; else the next (b & 7) + 1
 *            bytes, little-endian
 *   rows     edge (low 4 bits); code length (bit 7 set: 0..32, else 0..4);
 *            the code's bits, 8 a byte, most significant first; NEXT_EDGE_IDS
 *            count (1..3); the ids (low 4 bits each)
 *   text     the dictionary, one "key=value" line each, then the sequence
 *            (the rest, newlines included)
 */
#include <string.h>

#include "../common/harness.h"
#include "dtrc_naive_oracle.h"

typedef struct cursor {
    const uint8_t *p;
    size_t n, i;
} cursor;

static unsigned byte(cursor *c) { return c->i < c->n ? c->p[c->i++] : 0; }

static void read_input(dtrc_naive_oracle_input *in, const uint8_t *data, size_t size)
{
    memset(in, 0, sizeof *in);
    cursor c = {data, size, 0};
    unsigned b0 = byte(&c), b1 = byte(&c), b2 = byte(&c);
    in->nrows = b0 & 15;
    in->ndict = b0 >> 4;
    in->first = b1 & 15;
    in->no_skip = (b1 >> 4) & 1;
    /* With no skipping and a large budget, bits 6-7 pick the dump's cap. */
    static const uint64_t caps[4] = {0, 1, 7, 1024};
    in->skip_after = in->no_skip && !(b1 & 0x20) ? caps[b1 >> 6] : 0;
    in->budget = (b1 & 0x20) ? 16 + ((uint64_t)1 << (4 + 3 * (b1 >> 6))) : BIG_BUDGET;
    if (b2 < 0xF0) {
        in->count = b2;
    } else {
        unsigned nb = (b2 & 7) + 1;
        for (unsigned k = 0; k < nb; k++)
            in->count |= (uint64_t)byte(&c) << (8 * k);
    }
    for (size_t r = 0; r < in->nrows; r++) {
        dtrc_naive_oracle_row *w = &in->rows[r];
        w->edge = byte(&c) & 15;
        unsigned lb = byte(&c);
        w->len = (uint8_t)((lb & 0x80) ? (lb & 0x7f) % 33 : lb % 5);
        for (unsigned k = 0; k < (w->len + 7u) / 8; k++)
            w->pad |= (uint32_t)byte(&c) << (24 - 8 * k);
        if (w->len < 32)
            w->pad &= w->len ? ~(UINT32_MAX >> w->len) : 0;
        w->nnext = 1 + byte(&c) % 3;
        for (size_t k = 0; k < w->nnext; k++)
            w->next[k] = byte(&c) & 15;
    }
    const char *t = (const char *)data + c.i;
    size_t tn = c.i < size ? size - c.i : 0;
    size_t at = 0;
    for (size_t e = 0; e < in->ndict; e++) {
        const char *nl = memchr(t + at, '\n', tn - at);
        size_t end = nl ? (size_t)(nl - t) : tn;
        const char *eq = memchr(t + at, '=', end - at);
        dtrc_naive_oracle_entry *d = &in->dict[e];
        d->key = t + at;
        d->klen = eq ? (size_t)(eq - (t + at)) : end - at;
        d->val = eq ? eq + 1 : t + end;
        d->vlen = eq ? end - (size_t)(eq + 1 - t) : 0;
        at = nl ? end + 1 : end;
    }
    in->seq = t + at;
    in->seqlen = tn - at;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    dtrc_naive_oracle_input in;
    read_input(&in, data, size);
    dtrc_naive_oracle_check(&in);
    return 0;
}
