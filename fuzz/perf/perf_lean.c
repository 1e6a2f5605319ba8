/*
 * The lean SiFive perf harness: one parse of the raw bytes by the perf
 * check (container and state machine, as `tracecheck validate --format
 * perf` runs it). The first byte picks the container and --srcbits: below
 * 0xF0 a Nexus .rtd with SRC fields of byte % 9 bits, from 0xF0 a text
 * message list; the rest is the file. Judged by:
 *
 *  - the kit: findings are PERF rules with the catalogue's severity, one
 *    line of UTF-8;
 *  - perf_nexus_oracle.h (Nexus): the obvious reading of the file gives
 *    the container's findings (rule and offset, in order) and the messages;
 *  - perf_sm_oracle.h: the spec's reading of those messages (the text
 *    reader's, for a text list) gives the perf layer's events (headers and
 *    records field by field) and findings (rule, offset and line, in
 *    order), each located at a perf-channel message; the events pass the
 *    checks of perf_events.h.
 *
 * This is the harness for campaigns; perf_container replays each input
 * through small windows and as a text list, and perf_messages and
 * perf_roundtrip drive the perf layer and the generator directly.
 */
#include <string.h>

#include "../common/harness.h"
#include "../../parsers/common/parse.h"
#include "perf_nexus_oracle.h"
#include "perf_sm_oracle.h"
#include "perf_events.h"
#include "perf_mutator.h"

/* Large: not on the stack. A harness is a program: globals are fine. */
static pf_layer got, want;
static pf_container ref;
static int deep; /* the reading's call stack outgrew the state machine's */

static int container_rule(tc_rule_id rule)
{
    return hx_starts_with(tc_rules[rule].id, "PERF-NEXUS-") ||
           hx_starts_with(tc_rules[rule].id, "PERF-TEXT-");
}

static int layer_rule(tc_rule_id rule)
{
    return !container_rule(rule) && (!deep || rule != TC_RULE_PERF_CALL_STACK);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    int text = data[0] >= 0xf0;
    tc_options opt = TC_OPTIONS_INIT;
    opt.format = TC_FORMAT_PERF;
    opt.perf_srcbits = data[0] % (TC_NEXUS_MAX_SRCBITS + 1);
    opt.perf_container = text ? TC_PERF_CONTAINER_TEXT : TC_PERF_CONTAINER_RTD;
    const uint8_t *p = data + 1;
    size_t n = size - 1;

    /* As tracecheck validate runs it: pedantic here, with the repeat cap. */
    hx_findings f;
    tc_diag_sink sink;
    hx_sink_init(&sink, &f, 1, TC_DEFAULT_MAX_REPEATS);
    pf_layer_reset(&got);
    tc_parse_ctx ctx = {.diags = &sink, .on_event = pf_on_parse_event, .user = &got,
                        .options = &opt};
    hx_source s;
    hx_open(&s, HX_RAW, p, n, 0);
    hx_parse(TC_FORMAT_PERF, hx_reader(&s), &ctx);
    hx_close(&s);
    hx_sink_finish(&sink, &f);
    hx_check_well_formed(&f, "PERF");

    /* The messages, read independently (Nexus) or by the text reader, and
     * the container's findings. */
    if (text)
        pf_read_text(&ref, p, n);
    else
        pno_read(&ref, p, n, opt.perf_srcbits);
    hx_expect x = {0};
    for (size_t i = 0; i < ref.nf && i < PF_MAX_KEPT; i++)
        hx_expect_add(&x, (tc_rule_id)ref.f[i].rule, ref.f[i].offset, 0);
    if (ref.nf <= PF_MAX_KEPT)
        hx_assert_expected(&f, &x, container_rule, 0, "the container");
    hx_expect_free(&x);

    /* The perf layer: the spec's reading of those messages. */
    if (ref.nm <= PF_MAX_KEPT) {
        deep = perf_sm_oracle_read(&want, ref.m, ref.nm, opt.perf_channel, opt.perf_marker, ref.wrapped);
        for (size_t i = 0; i < want.nf && i < PF_MAX_KEPT; i++) {
            const pf_finding *w = &want.f[i];
            const hx_want e = {(tc_rule_id)w->rule, w->offset, 0, w->line, w->unlocated};
            hx_expect_add_at(&x, &e);
        }
        if (want.nf <= PF_MAX_KEPT)
            hx_assert_expected(&f, &x, layer_rule, HX_CMP_LINE, "the perf layer");
        hx_expect_free(&x);
        for (size_t i = 0; i < f.n; i++)
            if (f.v[i].rule != TC_RULE_DIAG_SUPPRESSED && !container_rule(f.v[i].rule))
                pf_keep_finding(&got, (int)f.v[i].rule, f.v[i].offset, f.v[i].line,
                                f.v[i].unlocated);
        perf_sm_oracle_check_locations(&got, ref.m, ref.nm, opt.perf_channel);
        perf_sm_oracle_compare_events(&got, &want);
    }
    hx_findings_free(&f);
    return 0;
}

HX_CUSTOM_MUTATOR(perf_mutate, perf_cross_over)
