/*
 * The deep DCFG harness: the DCFG checks on raw bytes (parsers/dcfg/,
 * spec/dcfg/dcfg.md), through the public entry (tc_validate_buffer) with the
 * format forced to dcfg, as `tracecheck validate --format dcfg` runs them.
 * Besides crashes, leaks and undefined behaviour (the sanitizers), it checks
 * (dcfg_runs.h, dc_check_input) that:
 *
 *  - every finding is a DCFG or TC rule with the catalogue's severity, one
 *    line of UTF-8, located within the input at the line:column its offset
 *    has, with a JSON path; the counters and the status match;
 *  - writing the canonical dump changes no finding, and the dump (written
 *    for every input, valid or not) is in the canonical form;
 *  - the input paths agree: memory, read() or mmap windows of 1 byte to
 *    4 KiB; a compressed input (.json.bz2, as Intel's tools write) gives the
 *    findings of its decompressed bytes, which are then checked as above;
 *
 * and that loading the DCFG for pairing (tc_dcfg_model_load) reports
 * exactly what validation reports, and gives a model unless there is an
 * error, which answers what pairing asks of it.
 *
 * dcfg_lean checks one validation, for speed.
 */
#include "../../parsers/dcfg/dcfg_model.h"
#include "dcfg_runs.h"
#include "../common/harness.h"
#include "../common/json_mutator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > HX_DECOMPRESSED_LIMIT)
        return 0;
    hx_plain pl;
    dc_run a, m;
    if (!dc_check_input(data, size, TC_FORMAT_DCFG, "DCFG TC", "dcfg", &pl, &a))
        return 0;

    /* Pairing loads the DCFG with the same checks. */
    tc_dcfg_model *model = dc_load_model(&m, pl.p, pl.n);
    dc_assert_same(&a, "validate", &m, "tc_dcfg_model_load");
    FUZZ_ASSERT_MSG(model || a.f.errors, "no model of a DCFG without error");
    if (model) {
        /* What pairing asks of it must not fail on whatever was read. */
        uint32_t h = hx_hash32(pl.p, pl.n);
        uint64_t threads = 0, src = 0, dst = 0;
        (void)tc_dcfg_model_process(model, h, &threads);
        (void)tc_dcfg_model_edge(model, h, h >> 3, &src, &dst);
        (void)tc_dcfg_model_node_instrs(model, h, h >> 5);
        tc_dcfg_model_free(model);
    }
    dc_run_free(&m);
    dc_run_free(&a);
    hx_plain_free(&pl);
    return 0;
}

HX_CUSTOM_MUTATOR(json_mutate, json_cross_over)
