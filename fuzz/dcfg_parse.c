/*
 * The DCFG checks on raw bytes (parsers/dcfg/, spec/dcfg.md), through the
 * public entry (tc_validate_buffer) with the format forced to dcfg, as
 * `tracecheck validate --format dcfg` runs them. Besides crashes, leaks and
 * undefined behaviour (the sanitizers), it checks that:
 *
 *  - every finding is a DCFG or TC rule with the catalogue's severity, one
 *    line of UTF-8, and located: its offset lies within the input (a point
 *    at the very end may cover the missing byte), its line:column is the
 *    one the offset has (counted here from the bytes), it has a JSON path;
 *    the counters and the status match what was delivered;
 *  - writing the canonical dump changes no finding, and the dump (written
 *    for every input, valid or not, as `tracecheck dump` does) is one
 *    strict JSON object per line, each starting with "t", the header first;
 *  - the input paths agree: memory, read() with windows of 1 byte to 4 KiB,
 *    sliding mmap windows (picked from a hash of the input); a compressed
 *    input (.json.bz2, as Intel's tools write) gives the findings of its
 *    decompressed bytes, which are then checked as above;
 *  - loading the DCFG for pairing (tc_dcfg_model_load) reports exactly what
 *    validation reports, and gives a model unless there is an error.
 *
 * Inputs over 1 MiB, or decompressing to more, are skipped.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parsers/common/reader.h"
#include "../parsers/dcfg/dcfg_model.h"
#include "dcfg_run.h"
#include "fuzz_helpers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > DFZ_DECOMPRESSED_LIMIT)
        return 0;
    dfz_plain pl;
    dfz_run a, m;
    if (!dfz_check_input(data, size, TC_FORMAT_DCFG, "DCFG TC", "dcfg", &pl, &a))
        return 0;

    /* Pairing loads the DCFG with the same checks. */
    tc_reader r;
    tc_reader_init_memory(&r, pl.p, pl.n);
    tc_diag_sink sink;
    ofz_sink_init(&sink, &m.d, 0);
    tc_dcfg_model *model = tc_dcfg_model_load(&r, &sink);
    ofz_sink_finish(&sink, &m.d);
    dfz_assert_same(&a, "validate", &m, "tc_dcfg_model_load");
    FUZZ_ASSERT_MSG(model || a.d.errors, "no model of a DCFG without error");
    if (model) {
        /* What pairing asks of it must not fail on whatever was read. */
        uint32_t h = ofz_hash(pl.p, pl.n);
        uint64_t threads = 0, src = 0, dst = 0;
        (void)tc_dcfg_model_process(model, h, &threads);
        (void)tc_dcfg_model_edge(model, h, h >> 3, &src, &dst);
        (void)tc_dcfg_model_node_instrs(model, h, h >> 5);
        tc_dcfg_model_free(model);
    }
    ofz_diags_free(&m.d);
    dfz_run_free(&a);
    dfz_plain_free(&pl);
    return 0;
}
