/* The obvious reading of a Nexus .rtd: see perf_nexus_oracle.h. */
#include <inttypes.h>
#include <string.h>

#include "perf_nexus_oracle.h"

/* ---- the obvious reading ---- */


static void ref_da(pf_container *s, const uint8_t *b, size_t len, uint64_t start, unsigned srcbits)
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
            pf_container_finding(s, TC_RULE_PERF_NEXUS_DA_FIELDS, start);
            return;
        }
    if (nb < 2 || nb > 3) {
        pf_container_finding(s, TC_RULE_PERF_NEXUS_DA_FIELDS, start);
        return;
    }
    uint64_t v[3] = {0, 0, 0};
    size_t from = srcbits;
    for (size_t k = 0; k < nb; k++) {
        for (size_t i = from; i < bound[k]; i++)
            if (bit[i]) {
                if (i - from >= 64) {
                    pf_container_finding(s, TC_RULE_PERF_NEXUS_FIELD_WIDTH, start);
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
    pf_container_msg(s, &m);
}

void pno_read(pf_container *s, const uint8_t *b, size_t n, unsigned srcbits)
{
    pf_container_reset(s);
    size_t pos = 0, skipped = 0;
    while (pos < n && (b[pos] == 0 || (b[pos] & 3) != 0)) {
        skipped += b[pos] != 0xff;
        pos++;
    }
    if (skipped) {
        pf_container_finding(s, TC_RULE_PERF_NEXUS_MID_START, 0);
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
            pf_container_finding(s, TC_RULE_PERF_NEXUS_MESSAGE_LONG, pos);
            while (j < n && (b[j] & 3) != 3)
                j++;
            pos = j + 1;
            continue;
        }
        if (j >= n) {
            pf_container_finding(s, TC_RULE_PERF_NEXUS_TRUNCATED, pos);
            return;
        }
        if ((b[pos] >> 2) == 7)
            ref_da(s, b + pos, j + 1 - pos, pos, srcbits);
        pos = j + 1;
    }
}

/* ---- comparing ---- */

static int same_msg(const tc_perf_msg *a, const tc_perf_msg *b)
{
    return a->offset == b->offset && a->length == b->length && a->src == b->src &&
           a->idtag == b->idtag && a->value == b->value && a->has_timestamp == b->has_timestamp &&
           a->timestamp == b->timestamp && a->line == b->line;
}

void pno_compare(const pf_container *a, const pf_container *b, const char *what)
{
    FUZZ_ASSERT_MSG(a->nm == b->nm, "%s: %zu and %zu messages", what, a->nm, b->nm);
    for (size_t i = 0; i < a->nm && i < PF_MAX_KEPT; i++)
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
    for (size_t i = 0; i < a->nf && i < PF_MAX_KEPT; i++)
        FUZZ_ASSERT_MSG(a->f[i].rule == b->f[i].rule && a->f[i].offset == b->f[i].offset,
                        "%s: finding %zu: %s at %" PRIu64 " and %s at %" PRIu64, what, i,
                        tc_rules[a->f[i].rule].id, a->f[i].offset, tc_rules[b->f[i].rule].id,
                        b->f[i].offset);
}

