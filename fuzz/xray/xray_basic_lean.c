/*
 * The lean XRay basic-mode harness: one parse of the raw bytes
 * (decompressed as `tracecheck validate --format xray-basic` does),
 * pedantic, with the repeat cap, with events, judged by xray_basic_oracle.h's reading
 * of the log from the spec (every XRAY-BASIC finding, exactly) and by
 * xray_oracle.h's checks of findings, events and accepted logs; then one
 * parse without either, the reader's fast path, judged by the same reading. This is the
 * harness for campaigns; xray_parse replays each input over every input
 * path and option.
 *
 * Its mutator (xray_mutator.c) mutates 32-byte records, not bytes.
 */
#include "../common/harness.h"
#include "xray_oracle.h"
#include "xray_basic_oracle.h"
#include "xray_events.h"
#include "xray_mutator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hx_plain pl;
    if (!hx_plain_get(&pl, data, size, HX_DECOMPRESSED_LIMIT))
        return 0;
    static const xr_opts o = {.mode = TC_FORMAT_XRAY_BASIC, .pedantic = 1, .events = 1,
                              .keep = 1, .max_repeats = TC_DEFAULT_MAX_REPEATS};
    xr_run run;
    xr_parse_path(&run, HX_MEMORY, data, size, 0, &o);
    xray_oracle_check_findings(&run, &pl);
    xray_oracle_check_events(&run, &pl);
    if (!pl.failed) {
        xbo_check(&run, pl.p, pl.n, 1);
        if (run.f.errors == 0)
            xray_oracle_check_accepted(&run, &pl);
    }
    /* Without --pedantic and events the reader takes its fast path (runs of
     * common records in a loop of their own): the same oracle judges it.
     * Without events the run sees no header event: it is the first run's. */
    tc_xray_header header = run.header;
    int have_header = run.have_header;
    xr_run_free(&run);
    static const xr_opts lean = {.mode = TC_FORMAT_XRAY_BASIC};
    xr_parse_path(&run, HX_MEMORY, data, size, 0, &lean);
    run.header = header;
    run.have_header = have_header;
    if (!pl.failed)
        xbo_check(&run, pl.p, pl.n, 0);
    xr_run_free(&run);
    hx_plain_free(&pl);
    return 0;
}

HX_CUSTOM_MUTATOR(xray_mutate, xray_cross_over)
