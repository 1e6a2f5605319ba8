/*
 * The perf containers (parsers/perf/nexus.c, itc_text.c) on raw bytes.
 *
 * Nexus: the first byte picks --srcbits (0..8); the rest is the .rtd file.
 * The harness checks tc_nexus_read against a reading written here from
 * spec/perf.md "Nexus" the slow, obvious way (slice the file into messages
 * first, then each Data Acquisition message into a bit array and its field
 * boundaries): the same messages (offset, length, SRC, IDTAG, DQDATA,
 * TIMESTAMP), the same findings (rule and offset, in order, and the
 * count per rule) and the same answer to "is it a wrapped buffer" (given
 * before the first message). Then the same bytes are read a few bytes per window,
 * which must change nothing.
 *
 * Text message list: the same bytes read as one; no crash, and each
 * message delivered lies inside the input, on a line after the one before.
 */
#include <inttypes.h>
#include <string.h>

#include "../parsers/perf/perf_msg.h"
#include "fuzz_helpers.h"

#define MAX_KEPT 4096

typedef struct finding {
    int rule;
    uint64_t offset;
} finding;

typedef struct seen {
    tc_perf_msg m[MAX_KEPT];
    size_t nm;
    finding f[MAX_KEPT];
    size_t nf;
    int wrapped;       /* the file starts mid-message */
    int wrapped_first; /* as it stood when the first message came */
} seen;

static void on_msg(void *user, const tc_perf_msg *m)
{
    seen *s = user;
    if (s->nm == 0)
        s->wrapped_first = s->wrapped;
    if (s->nm < MAX_KEPT)
        s->m[s->nm] = *m;
    s->nm++;
}

static void on_diag(void *user, const tc_diag *d)
{
    seen *s = user;
    if (s->nf < MAX_KEPT)
        s->f[s->nf] = (finding){(int)(d->rule - tc_rules), d->offset};
    s->nf++;
}

/* ---- the obvious reading ---- */

static void ref_report(seen *s, int rule, uint64_t off)
{
    if (s->nf < MAX_KEPT)
        s->f[s->nf] = (finding){rule, off};
    s->nf++;
}

static void ref_da(seen *s, const uint8_t *b, size_t len, uint64_t start, unsigned srcbits)
{
    uint8_t bit[64 * 6];
    size_t nbits = 0;
    size_t bound[64];
    size_t nb = 0;
    if ((b[0] & 3) != 0)
        bound[nb++] = 0;
    for (size_t k = 1; k < len; k++) {
        for (int i = 0; i < 6; i++)
            bit[nbits++] = (uint8_t)((b[k] >> (2 + i)) & 1);
        if ((b[k] & 3) != 0)
            bound[nb++] = nbits;
    }
    for (size_t i = 0; i < nb; i++)
        if (bound[i] <= srcbits) {
            ref_report(s, TC_RULE_PERF_NEXUS_DA_FIELDS, start);
            return;
        }
    if (nb < 2 || nb > 3) {
        ref_report(s, TC_RULE_PERF_NEXUS_DA_FIELDS, start);
        return;
    }
    uint64_t v[3] = {0, 0, 0};
    size_t from = srcbits;
    for (size_t k = 0; k < nb; k++) {
        for (size_t i = from; i < bound[k]; i++)
            if (bit[i]) {
                if (i - from >= 64) {
                    ref_report(s, TC_RULE_PERF_NEXUS_FIELD_WIDTH, start);
                    return;
                }
                v[k] |= 1ull << (i - from);
            }
        from = bound[k];
    }
    uint32_t src = 0;
    for (unsigned i = 0; i < srcbits; i++)
        src |= (uint32_t)bit[i] << i;
    tc_perf_msg m = {.offset = start, .length = (uint32_t)len, .src = src, .idtag = v[0],
                     .value = v[1], .timestamp = nb == 3 ? v[2] : 0, .has_timestamp = nb == 3};
    on_msg(s, &m);
}

static void ref_nexus(seen *s, const uint8_t *b, size_t n, unsigned srcbits)
{
    size_t pos = 0, skipped = 0;
    while (pos < n && (b[pos] == 0 || (b[pos] & 3) != 0)) {
        skipped += b[pos] != 0xff;
        pos++;
    }
    if (skipped) {
        ref_report(s, TC_RULE_PERF_NEXUS_MID_START, 0);
        s->wrapped = 1;
    }
    for (;;) {
        while (pos < n && b[pos] == 0xff)
            pos++;
        if (pos >= n)
            return;
        size_t j = pos;
        while (j < n && j - pos < 64 && (b[j] & 3) != 3)
            j++;
        if (j - pos == 64) {
            ref_report(s, TC_RULE_PERF_NEXUS_MESSAGE_LONG, pos);
            while (j < n && (b[j] & 3) != 3)
                j++;
            pos = j + 1;
            continue;
        }
        if (j >= n) {
            ref_report(s, TC_RULE_PERF_NEXUS_TRUNCATED, pos);
            return;
        }
        if ((b[pos] >> 2) == 7)
            ref_da(s, b + pos, j + 1 - pos, pos, srcbits);
        pos = j + 1;
    }
}

/* ---- comparing ---- */

static void read_nexus(const uint8_t *p, size_t n, unsigned srcbits, size_t step, seen *s,
                       tc_diag_sink *d)
{
    memset(s, 0, sizeof *s);
    tc_diag_init(d, "fuzz", UINT32_MAX, 1, on_diag, s);
    tc_reader r;
    tc_stepped_memory sm;
    if (step)
        tc_reader_init_stepped(&r, &sm, p, n, step);
    else
        tc_reader_init_memory(&r, p, n);
    uint64_t k = tc_nexus_read(&r, d, srcbits, on_msg, s, &s->wrapped);
    FUZZ_ASSERT_MSG(k == s->nm, "%" PRIu64 " delivered, %zu seen", k, s->nm);
}

static int same_msg(const tc_perf_msg *a, const tc_perf_msg *b)
{
    return a->offset == b->offset && a->length == b->length && a->src == b->src &&
           a->idtag == b->idtag && a->value == b->value && a->has_timestamp == b->has_timestamp &&
           a->timestamp == b->timestamp && a->line == b->line;
}

static void compare(const seen *a, const seen *b, const char *what)
{
    FUZZ_ASSERT_MSG(a->nm == b->nm, "%s: %zu and %zu messages", what, a->nm, b->nm);
    for (size_t i = 0; i < a->nm && i < MAX_KEPT; i++)
        if (!same_msg(&a->m[i], &b->m[i]))
            FUZZ_FAIL("%s: message %zu differs: offset %" PRIu64 "/%" PRIu64 " length %u/%u src "
                      "%u/%u idtag 0x%" PRIx64 "/0x%" PRIx64 " value 0x%" PRIx64 "/0x%" PRIx64
                      " timestamp %d:0x%" PRIx64 "/%d:0x%" PRIx64,
                      what, i, a->m[i].offset, b->m[i].offset, a->m[i].length, b->m[i].length,
                      a->m[i].src, b->m[i].src, a->m[i].idtag, b->m[i].idtag, a->m[i].value,
                      b->m[i].value, a->m[i].has_timestamp, a->m[i].timestamp,
                      b->m[i].has_timestamp, b->m[i].timestamp);
    FUZZ_ASSERT_MSG(a->wrapped == b->wrapped, "%s: wrapped %d and %d", what, a->wrapped,
                    b->wrapped);
    FUZZ_ASSERT_MSG(a->nf == b->nf, "%s: %zu and %zu findings", what, a->nf, b->nf);
    for (size_t i = 0; i < a->nf && i < MAX_KEPT; i++)
        FUZZ_ASSERT_MSG(a->f[i].rule == b->f[i].rule && a->f[i].offset == b->f[i].offset,
                        "%s: finding %zu: %s at %" PRIu64 " and %s at %" PRIu64, what, i,
                        tc_rules[a->f[i].rule].id, a->f[i].offset, tc_rules[b->f[i].rule].id,
                        b->f[i].offset);
}

static seen got, ref, again;

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    if (size == 0)
        return 0;
    unsigned srcbits = data[0] % (TC_NEXUS_MAX_SRCBITS + 1);
    const uint8_t *p = data + 1;
    size_t n = size - 1;

    tc_diag_sink d;
    read_nexus(p, n, srcbits, 0, &got, &d);
    memset(&ref, 0, sizeof ref);
    ref_nexus(&ref, p, n, srcbits);
    compare(&got, &ref, "tc_nexus_read and the obvious reading");
    /* The perf layer learns of the wrap before the first message. */
    FUZZ_ASSERT_MSG(got.nm == 0 || got.wrapped_first == got.wrapped,
                    "wrapped set after the first message");
    for (size_t k = 0; k < got.nm && k < MAX_KEPT; k++) {
        FUZZ_ASSERT(got.m[k].length >= 1 && got.m[k].length <= TC_NEXUS_MAX_MESSAGE);
        FUZZ_ASSERT(got.m[k].offset + got.m[k].length <= n);
    }
    read_nexus(p, n, srcbits, 1 + data[0] % 7, &again, &d);
    compare(&got, &again, "the whole input and small windows");

    /* The text message list on the same bytes. */
    memset(&got, 0, sizeof got);
    tc_diag_init(&d, "fuzz", UINT32_MAX, 1, on_diag, &got);
    tc_reader r;
    tc_reader_init_memory(&r, p, n);
    tc_itc_text_read(&r, &d, on_msg, &got);
    for (size_t k = 0; k < got.nm && k < MAX_KEPT; k++) {
        FUZZ_ASSERT(got.m[k].offset + got.m[k].length <= n);
        FUZZ_ASSERT(got.m[k].line >= 1);
        if (k)
            FUZZ_ASSERT_MSG(got.m[k].line > got.m[k - 1].line && got.m[k].offset > got.m[k - 1].offset,
                            "message %zu on line %u after line %u", k, got.m[k].line,
                            got.m[k - 1].line);
    }
    for (size_t k = 0; k < got.nf && k < MAX_KEPT; k++)
        FUZZ_ASSERT(got.f[k].rule == TC_RULE_PERF_TEXT_SYNTAX && got.f[k].offset <= n);
    return 0;
}
