/*
 * The perf containers (parsers/perf/nexus.c, itc_text.c) on raw bytes.
 *
 * Nexus: the first byte picks --srcbits (0..8); the rest is the .rtd file.
 * tc_nexus_read must read it as perf_nexus_oracle.h's obvious reading does:
 * the same messages (offset, length, SRC, IDTAG, DQDATA, TIMESTAMP), the
 * same findings (rule and offset, in order, and the count per rule) and
 * the same answer to "is it a wrapped buffer", given before the first
 * message. Then the same bytes are read a few bytes per window, which must
 * change nothing.
 *
 * Text message list: the same bytes read as one; no crash, only
 * PERF-TEXT-SYNTAX findings, and each message delivered lies inside the
 * input, on a later line than the one before.
 *
 * perf_lean checks the whole perf check (container and state machine) on
 * one parse; its mutator mutates Nexus messages.
 */
#include <inttypes.h>

#include "../common/harness.h"
#include "perf_nexus_oracle.h"
#include "perf_events.h"
#include "perf_mutator.h"

static pf_container got, ref, again;

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    if (size == 0)
        return 0;
    unsigned srcbits = data[0] % (TC_NEXUS_MAX_SRCBITS + 1);
    const uint8_t *p = data + 1;
    size_t n = size - 1;

    pf_read_nexus(&got, p, n, srcbits, 0);
    pno_read(&ref, p, n, srcbits);
    pno_compare(&got, &ref, "tc_nexus_read and the obvious reading");
    /* The perf layer learns of the wrap before the first message. */
    FUZZ_ASSERT_MSG(got.nm == 0 || got.wrapped_first == got.wrapped,
                    "wrapped set after the first message");
    for (size_t k = 0; k < got.nm && k < PF_MAX_KEPT; k++) {
        FUZZ_ASSERT(got.m[k].length >= 1 && got.m[k].length <= TC_NEXUS_MAX_MESSAGE);
        FUZZ_ASSERT(got.m[k].offset + got.m[k].length <= n);
    }
    pf_read_nexus(&again, p, n, srcbits, 1 + data[0] % 7);
    pno_compare(&got, &again, "the whole input and small windows");

    /* The text message list on the same bytes. */
    pf_read_text(&got, p, n);
    for (size_t k = 0; k < got.nm && k < PF_MAX_KEPT; k++) {
        FUZZ_ASSERT(got.m[k].offset + got.m[k].length <= n);
        FUZZ_ASSERT(got.m[k].line >= 1);
        if (k)
            FUZZ_ASSERT_MSG(got.m[k].line > got.m[k - 1].line &&
                                got.m[k].offset > got.m[k - 1].offset,
                            "message %zu on line %u after line %u", k, got.m[k].line,
                            got.m[k - 1].line);
    }
    for (size_t k = 0; k < got.nf && k < PF_MAX_KEPT; k++)
        FUZZ_ASSERT(got.f[k].rule == TC_RULE_PERF_TEXT_SYNTAX && got.f[k].offset <= n);
    return 0;
}

HX_CUSTOM_MUTATOR(perf_mutate, perf_cross_over)
