/*
 * The lean DCFG harness: one parse of the raw bytes by the DCFG checks
 * (decompressed by the input layer as `tracecheck validate --format dcfg`
 * reads them; --pedantic, the repeat cap): findings are DCFG or TC rules
 * with the catalogue's severity, one line of UTF-8, located within the
 * (decompressed) input at the line:column their offset has, with a JSON
 * path; the counters add up. This is the harness for campaigns; dcfg_parse
 * checks the public entry, the dump, the input paths and pairing on each
 * input, and dcfg_dom the dominators against a naive computation.
 *
 * Its mutator (json_mutator.c) mutates JSON values: numbers of the document
 * become each other, so that edges join other nodes.
 */
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
    dc_parse_reader(&run, hx_reader(&s), TC_FORMAT_DCFG, TC_DEFAULT_MAX_REPEATS);
    hx_close(&s);
    hx_check_well_formed(&run.f, "DCFG TC");
    if (!pl.failed)
        hx_check_text_locations(&run.f, pl.p, pl.n, 1);
    dc_run_free(&run);
    hx_plain_free(&pl);
    return 0;
}

HX_CUSTOM_MUTATOR(json_mutate, json_cross_over)
