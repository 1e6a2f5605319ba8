/*
 * The deep XRay harness: the parser on raw bytes, FDR traces and basic-mode
 * logs alike (the header decides), many times over. Besides crashes, leaks
 * and undefined behaviour (the sanitizers), it checks that:
 *
 *  - every input path gives the same result: the memory reader, the
 *    streaming reader with tiny windows (read() of a file, and gzip
 *    decompression), and sliding mmap windows all yield identical findings
 *    (rule, severity, offset, length, message, context), counters, events
 *    and header (hence canonical dump); corrupt compressed inputs are run on
 *    every path but not compared (what a decompressor delivers before its
 *    error depends on its buffer);
 *  - options change only what they should: without an event callback (the
 *    parser's fast path) the findings are the same; without --pedantic only
 *    pedantic findings go; with the default repeat cap each rule is cut at
 *    the cap and a TC-DIAG-SUPPRESSED note tells the rest, while the
 *    counters still count all;
 *  - the oracles of xray_oracle.h and xray_basic_oracle.h hold on the
 *    pedantic run with events and dump: findings well formed and located,
 *    events well formed and inside their buffers, the rules they judge
 *    reported exactly where they apply, accepted means valid.
 *
 * xray_lean and xray_basic_lean run the oracles on one parse, for speed.
 */
#include <stdio.h>

#include "../common/harness.h"
#include "xray_oracle.h"
#include "xray_basic_oracle.h"
#include "xray_events.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hx_plain pl;
    if (!hx_plain_get(&pl, data, size, HX_DECOMPRESSED_LIMIT))
        return 0;

    /* Reference runs in memory, one per combination of --pedantic and
     * events. Without events the parser takes its fast path over function
     * records, so comparing the two is a differential test of that path. */
    static const xr_opts opts[4] = {
        {.pedantic = 1, .events = 1, .hash = 1, .keep = 1, .dump = 1}, /* base: judged */
        {.pedantic = 1},
        {.events = 1, .hash = 1},
        {0},
    };
    static const char *const opt_names[4] = {"pedantic, events", "pedantic", "events", "plain"};
    xr_run ref[4];
    for (int k = 0; k < 4; k++)
        xr_parse_path(&ref[k], HX_MEMORY, data, size, 0, &opts[k]);
    const xr_run *base = &ref[0];
    xray_oracle_check_findings(base, &pl);
    xray_oracle_check_events(base, &pl);
    if (!pl.failed) {
        xray_oracle_check_buffers(base);
        xbo_check(base, pl.p, pl.n, 1);
        if (base->f.errors == 0)
            xray_oracle_check_accepted(base, &pl);
    }
    hx_assert_same(&base->f, "with events", &ref[1].f, "without events");
    FUZZ_ASSERT(ref[1].nevents == 0);
    hx_assert_without(&base->f, &ref[2].f, "without --pedantic", hx_pedantic_rule);
    FUZZ_ASSERT_MSG(ref[2].nevents == base->nevents && ref[2].event_hash == base->event_hash,
                    "--pedantic changes the events");
    hx_assert_same(&ref[2].f, "with events", &ref[3].f, "without events (not pedantic)");

    xr_run other;
    const xr_opts capped = {.pedantic = 1, .max_repeats = TC_DEFAULT_MAX_REPEATS};
    xr_parse_path(&other, HX_MEMORY, data, size, 0, &capped);
    hx_assert_capped(&base->f, &other.f, TC_DEFAULT_MAX_REPEATS);
    xr_run_free(&other);

    /* The other input paths, with windows and options from the seeded
     * source. gzip around a compressed input would hide its compression;
     * mmap on every other input (a window costs two system calls). */
    hx_rng rng;
    hx_rng_init(&rng, data, size);
    static const hx_path paths[] = {HX_READ, HX_MMAP, HX_GZIP};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        hx_path path = paths[i];
        size_t w = hx_pick_window(&rng, path);
        int k = (int)hx_rng_below(&rng, 4);
        if ((path == HX_MMAP && hx_rng_below(&rng, 2)) || (path == HX_GZIP && pl.compressed))
            continue;
        xr_opts o = opts[k];
        o.keep = o.dump = 0;
        if (!xr_parse_path(&other, path, data, size, w, &o))
            continue;
        /* A corrupt compressed input is run on every path, not compared. */
        int comparable = !pl.failed && !ref[k].read_failed && !other.read_failed;
        const char *diff = comparable ? xr_difference(&ref[k], &other) : NULL;
        xr_run_free(&other);
        if (!diff)
            continue;
        /* Again, keeping everything, to say what differs. */
        char what[96];
        snprintf(what, sizeof what, "%s (window %zu, %s)", hx_path_name(path), w, opt_names[k]);
        xr_run a, b;
        o.keep = 1;
        xr_parse_path(&a, HX_MEMORY, data, size, 0, &o);
        xr_parse_path(&b, path, data, size, w, &o);
        xr_report_difference(&a, "memory", &b, what);
    }

    for (int k = 0; k < 4; k++)
        xr_run_free(&ref[k]);
    hx_plain_free(&pl);
    return 0;
}
