/*
 * The DCFG-trace checks on raw bytes (parsers/dcfg/dtrc_*.c, spec/dcfg/dcfg.md
 * "DCFG-trace"), through the public entry (tc_validate_buffer) with the
 * format forced to dcfg-trace, and paired with a DCFG. Besides crashes,
 * leaks, undefined behaviour (the sanitizers) and hangs or memory growth
 * (libFuzzer's -timeout and -rss_limit_mb: the reader must count, never
 * expand, "(4000000000*(4000000000*A))"), it checks that:
 *
 *  - every finding is a DTRC, DCFG (the shared integer and version checks)
 *    or TC rule with the catalogue's severity, one line of UTF-8, located
 *    within the input at the line:column its offset has, with a JSON path;
 *    the counters and the status match what was delivered; no DTRC-PAIR
 *    finding without a DCFG to pair with;
 *  - writing the canonical dump changes no finding (but the values of a
 *    finding the dump's slower decoding decides from counts, see
 *    dcfg_run.c), and the dump (written for every input) is one strict JSON
 *    object per line, each starting with "t", the header first;
 *  - the input paths agree: memory, read() with windows of 1 byte to 4 KiB,
 *    sliding mmap windows (picked from a hash of the input); a compressed
 *    input gives the findings of its decompressed bytes, checked as above;
 *  - paired with a DCFG (the one `tracecheck gen dcfg --seed 1 --size 2K`
 *    writes, which the seeds' traces of that seed pair with), the reader
 *    reports what it reports alone plus DTRC-PAIR findings only, and the
 *    trace generated with that DCFG pairs with no finding at all.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg_runs.h"
#include "../common/harness.h"
#include "../common/json_mutator.h"
#include "../../generators/dcfg/dcfg_gen.h"

/* The DCFG paired with, made once. A harness is a program: globals are fine
 * here. */
static tc_dcfg_model *g_model;
static dcfg_mem g_pair;

static void setup(void)
{
    if (g_model)
        return;
    dcfg_gen_params p = {.seed = 1, .size = 2048};
    char err[256];
    tc_error e = TC_ERROR_INIT;
    int rc = dcfg_generate(&p, -1, NULL, (dcfg_sink){NULL, &g_pair}, NULL, &e);
    hx_error_text(&e, err, sizeof err);
    FUZZ_ASSERT_MSG(rc == 0, "the DCFG to pair with: %s", err);
    dc_run d;
    g_model = dc_load_model(&d, g_pair.dcfg.p, g_pair.dcfg.len);
    for (size_t i = 0; i < d.f.n && i < 5; i++)
        hx_print_finding(stderr, "generated DCFG", &d.f.v[i]);
    FUZZ_ASSERT_MSG(g_model && d.f.n == 0,
                    "the generated DCFG does not load cleanly (%zu findings)", d.f.n);
    dc_run_free(&d);
}

static int is_pair_rule(tc_rule_id r)
{
    return r == TC_RULE_DTRC_PAIR_PROCESS || r == TC_RULE_DTRC_PAIR_THREAD ||
           r == TC_RULE_DTRC_PAIR_EDGE || r == TC_RULE_DTRC_PAIR_JOIN ||
           r == TC_RULE_DTRC_PAIR_INSTR_COUNT;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > HX_DECOMPRESSED_LIMIT)
        return 0;
    setup();
    hx_plain pl;
    dc_run a, p;
    if (!dc_check_input(data, size, TC_FORMAT_DCFG_TRACE, "DTRC DCFG TC", "dcfg-trace", &pl,
                         &a))
        return 0;
    for (size_t i = 0; i < a.f.n; i++)
        FUZZ_ASSERT_MSG(!is_pair_rule(a.f.v[i].rule), "%s without a DCFG to pair with",
                        tc_rules[a.f.v[i].rule].id);

    tc_reader r;
    tc_reader_init_memory(&r, pl.p, pl.n);
    dc_parse_paired(&p, &r, g_model);
    hx_check_well_formed(&p.f, "DTRC DCFG TC");
    hx_check_text_locations(&p.f, pl.p, pl.n, 1);
    if (pl.n == g_pair.trace.len && memcmp(pl.p, g_pair.trace.p, pl.n) == 0) {
        for (size_t i = 0; i < p.f.n && i < 5; i++)
            hx_print_finding(stderr, "generated pair", &p.f.v[i]);
        FUZZ_ASSERT_MSG(p.f.n == 0, "the generated trace does not pair with its DCFG");
    }
    hx_assert_without(&p.f, &a.f, "alone (paired, DTRC-PAIR findings left out)", is_pair_rule);

    dc_run_free(&p);
    dc_run_free(&a);
    hx_plain_free(&pl);
    return 0;
}

HX_CUSTOM_MUTATOR(json_mutate, json_cross_over)
