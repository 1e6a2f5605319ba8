/*
 * The lean SiFive perf harness: one parse of the raw bytes by the perf
 * check (container and state machine, as `tracecheck validate --format
 * perf` runs it). The first byte picks the container and --srcbits: below
 * 0xF0 a Nexus .rtd with SRC fields of byte % 9 bits, from 0xF0 a text
 * message list; the rest is the file. Judged by:
 *
 *  - the kit: findings are PERF rules with the catalogue's severity, one
 *    line of UTF-8;
 *  - oracle_perf_nexus.h (Nexus): the obvious reading of the file gives
 *    the container's findings (rule and offset, in order) and the messages;
 *  - oracle_perf_sm.h: the spec's reading of those messages (the text
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

#include "harness.h"
#include "library.h"
#include "oracle_perf_nexus.h"
#include "oracle_perf_sm.h"
#include "perf_events.h"
#include "perf_mutator.h"

/* Large: not on the stack. A harness is a program: globals are fine. */
static pf_layer got, want;
static pf_container ref;

static int container_rule(int rule)
{
    return strncmp(tc_rules[rule].id, "PERF-NEXUS-", 11) == 0 ||
           strncmp(tc_rules[rule].id, "PERF-TEXT-", 10) == 0;
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

    hx_findings f;
    tc_diag_sink sink;
    hx_sink_init(&sink, &f, 1, 0);
    pf_layer_reset(&got);
    tc_parse_ctx ctx = {.diags = &sink, .on_event = pf_on_parse_event, .user = &got,
                        .options = &opt};
    hx_source s;
    hx_open(&s, HX_RAW, p, n, 0);
    lib_parse(TC_FORMAT_PERF, hx_reader(&s), &ctx);
    hx_close(&s);
    hx_sink_finish(&sink, &f);
    hx_check_well_formed(&f, "PERF");

    /* The messages, read independently (Nexus) or by the text reader. */
    if (text)
        pf_read_text(&ref, p, n);
    else
        pno_read(&ref, p, n, opt.perf_srcbits);
    /* The findings, split: the container's, and the perf layer's. */
    static pf_container c;
    c.nf = 0;
    for (size_t i = 0; i < f.n; i++) {
        const hx_finding *x = &f.v[i];
        if (container_rule((int)x->rule)) {
            if (c.nf < PF_MAX_KEPT)
                c.f[c.nf] = (pf_finding){(int)x->rule, x->offset, 0, 0};
            c.nf++;
        } else {
            pf_keep_finding(&got, (int)x->rule, x->offset, x->line, x->unlocated);
        }
    }
    FUZZ_ASSERT_MSG(c.nf == ref.nf, "%zu container findings, the reading has %zu", c.nf, ref.nf);
    for (size_t i = 0; i < c.nf && i < PF_MAX_KEPT; i++)
        FUZZ_ASSERT_MSG(c.f[i].rule == ref.f[i].rule && c.f[i].offset == ref.f[i].offset,
                        "container finding %zu: %s at %llu, the reading %s at %llu", i,
                        tc_rules[c.f[i].rule].id, (unsigned long long)c.f[i].offset,
                        tc_rules[ref.f[i].rule].id, (unsigned long long)ref.f[i].offset);
    if (ref.nm <= PF_MAX_KEPT) {
        int deep = pso_read(&want, ref.m, ref.nm, opt.perf_channel, opt.perf_marker, ref.wrapped);
        pso_check_locations(&got, ref.m, ref.nm, opt.perf_channel);
        pso_compare(&got, &want, deep);
    }
    hx_findings_free(&f);
    return 0;
}

HX_CUSTOM_MUTATOR(perf_mutate, perf_cross_over)
