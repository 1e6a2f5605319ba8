/*
 * DCFG generator round trip: the fuzzer's bytes steer the generator's
 * in-memory synthesiser (dcfg_roundtrip_synth, generators/dcfg/
 * dcfg_roundtrip.h: every choice, from the shape and size to the program
 * model, the runs, the encoding of sequences and the DCFG's presentation),
 * and tracecheck reads the pair back. Checked:
 *
 *  - generation succeeds (every stream of choices makes a valid pair);
 *  - the DCFG validates through the public entry with no finding of any
 *    severity (--pedantic included), and its canonical dump is well formed;
 *  - the DCFG-trace validates alone with no finding, and paired with the
 *    DCFG (ruling 13: processes, threads, edges, joins, instruction counts)
 *    with no finding either;
 *  - the trace's dump has the generator's number of chunks and edges, and
 *    each edge of each thread is taken exactly as often as the DCFG's
 *    COUNT_PER_THREAD says (dcfg_counts_oracle.h).
 */
#include <inttypes.h>

#include "dcfg_runs.h"
#include "../common/harness.h"
#include "../../generators/common/rng.h"
#include "../../generators/dcfg/dcfg_gen.h"
#include "../../generators/dcfg/dcfg_roundtrip.h"
#include "../../parsers/dcfg/dcfg_model.h"
#include "dcfg_counts_oracle.h"
#include "../common/dump_oracle.h"

static void check_clean(const dc_run *run, const char *what, const dcfg_gen_params *p)
{
    if (run->f.n == 0 && run->f.errors + run->f.warnings + run->f.notes == 0)
        return;
    for (size_t i = 0; i < run->f.n && i < 5; i++)
        hx_print_finding(stderr, what, &run->f.v[i]);
    FUZZ_FAIL("the generated %s (%u processes of %u threads, size %" PRIu64 "): %zu findings",
              what, p->procs, p->threads, p->size, run->f.n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tc_rng choices;
    tc_rng_from_bytes(&choices, data, size);
    dcfg_mem m = {0};
    dcfg_gen_params used;
    dcfg_gen_stats st;
    FUZZ_ASSERT_MSG(dcfg_roundtrip_synth(&choices, &used, &m, &st) == 0,
                    "the generator failed on these choices");

    dc_run dcfg, alone, paired, load;
    dc_validate(&dcfg, m.dcfg.p, m.dcfg.len, TC_FORMAT_DCFG, 1);
    check_clean(&dcfg, "DCFG", &used);
    od_check_dump(dcfg.dump, dcfg.dump_len, "dcfg", 0);

    dc_validate(&alone, m.trace.p, m.trace.len, TC_FORMAT_DCFG_TRACE, 1);
    check_clean(&alone, "DCFG-trace", &used);
    od_check_dump(alone.dump, alone.dump_len, "dcfg-trace", 0);

    tc_dcfg_model *model = dc_load_model(&load, m.dcfg.p, m.dcfg.len);
    FUZZ_ASSERT_MSG(model && load.f.n == 0, "the generated DCFG does not load for pairing");
    hx_source s;
    hx_open(&s, HX_RAW, m.trace.p, m.trace.len, 0);
    dc_parse_paired(&paired, hx_reader(&s), model);
    hx_close(&s);
    check_clean(&paired, "pair", &used);
    tc_dcfg_model_free(model);

    /* The edges taken, against the generator's counts and the DCFG's. */
    dco_check_counts(dcfg.dump, dcfg.dump_len, alone.dump, alone.dump_len, &st);
    dc_run_free(&dcfg);
    dc_run_free(&alone);
    dc_run_free(&paired);
    dc_run_free(&load);
    dcfg_mem_free(&m);
    return 0;
}
