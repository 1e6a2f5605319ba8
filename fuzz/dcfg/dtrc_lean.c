/*
 * The lean DCFG-trace harness: one parse of the raw bytes by the DCFG-trace
 * checks (decompressed by the input layer as `tracecheck validate --format
 * dcfg-trace` reads them; --pedantic, the repeat cap): findings are DTRC,
 * DCFG (the shared integer and version checks) or TC rules with the
 * catalogue's severity, one line of UTF-8, located within the
 * (decompressed) input at the line:column their offset has, with a JSON
 * path, and no DTRC-PAIR finding without a DCFG to pair with; the counters
 * add up. libFuzzer's -timeout and -rss_limit_mb catch a reader that
 * expands "(4000000000*(4000000000*A))". This is the harness for campaigns;
 * dtrc_parse checks the public entry, the dump, the input paths and pairing
 * on each input, and dtrc_sequence the decoder against a naive one.
 *
 * Its mutator (json_mutator.c) mutates JSON values, not bytes.
 */
#include <string.h>

#include "dcfg_runs.h"
#include "../common/harness.h"
#include "../common/json_mutator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hx_plain pl;
    if (size > HX_DECOMPRESSED_LIMIT || !hx_plain_get(&pl, data, size, HX_DECOMPRESSED_LIMIT))
        return 0;
    dc_run run;
    hx_source s;
    hx_open(&s, HX_MEMORY, data, size, 0);
    dc_parse_reader(&run, hx_reader(&s), TC_FORMAT_DCFG_TRACE, TC_DEFAULT_MAX_REPEATS);
    hx_close(&s);
    hx_check_well_formed(&run.f, "DTRC DCFG TC");
    if (!pl.failed)
        hx_check_text_locations(&run.f, pl.p, pl.n, 1);
    for (size_t i = 0; i < run.f.n; i++)
        FUZZ_ASSERT_MSG(!hx_starts_with(tc_rules[run.f.v[i].rule].id, "DTRC-PAIR-"),
                        "%s without a DCFG to pair with",
                        tc_rules[run.f.v[i].rule].id);
    dc_run_free(&run);
    hx_plain_free(&pl);
    return 0;
}

HX_CUSTOM_MUTATOR(json_mutate, json_cross_over)
