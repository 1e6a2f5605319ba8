/*
 * The DCFG-trace checks on raw bytes (parsers/dcfg/dtrc_*.c, spec/dcfg.md
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

#include "../generators/dcfg/dcfg_gen.h"
#include "../parsers/common/reader.h"
#include "../parsers/dcfg/dcfg_model.h"
#include "dcfg_run.h"
#include "fuzz_helpers.h"

/* The DCFG paired with, made once. A harness is a program: globals are fine
 * here. */
static tc_dcfg_model *g_model;
static dcfg_mem g_pair;

static void setup(void)
{
    if (g_model)
        return;
    dcfg_gen_params p = {.seed = 1, .size = 2048};
    tc_error err = TC_ERROR_INIT;
    FUZZ_ASSERT_MSG(dcfg_generate(&p, -1, NULL, (dcfg_sink){NULL, &g_pair}, NULL, &err) == 0,
                    "the DCFG to pair with: %s", err.n ? err.cause[0]->message : "");
    tc_reader r;
    tc_reader_init_memory(&r, g_pair.dcfg.p, g_pair.dcfg.len);
    ofz_diags d;
    tc_diag_sink sink;
    ofz_sink_init(&sink, &d, 0);
    g_model = tc_dcfg_model_load(&r, &sink);
    ofz_sink_finish(&sink, &d);
    for (size_t i = 0; i < d.n && i < 5; i++)
        ofz_print_diag(stderr, "generated DCFG", &d.v[i]);
    FUZZ_ASSERT_MSG(g_model && d.n == 0, "the generated DCFG does not load cleanly (%zu findings)",
                    d.n);
    ofz_diags_free(&d);
}

static int is_pair_rule(tc_rule_id r)
{
    return r == TC_RULE_DTRC_PAIR_PROCESS || r == TC_RULE_DTRC_PAIR_THREAD ||
           r == TC_RULE_DTRC_PAIR_EDGE || r == TC_RULE_DTRC_PAIR_JOIN ||
           r == TC_RULE_DTRC_PAIR_INSTR_COUNT;
}

/* The findings of a paired run but those of pairing. */
static void drop_pair_findings(ofz_diags *d)
{
    size_t o = 0;
    for (size_t i = 0; i < d->n; i++) {
        ofz_diag *x = &d->v[i];
        if (is_pair_rule(x->rule)) {
            d->count[x->rule]--;
            if (x->severity == TC_ERROR)
                d->errors--;
            else if (x->severity == TC_WARNING)
                d->warnings--;
            else
                d->notes--;
            free(x->path);
            free(x->message);
            free(x->context);
            continue;
        }
        d->v[o++] = *x;
    }
    d->n = o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > DFZ_DECOMPRESSED_LIMIT)
        return 0;
    setup();
    dfz_plain pl;
    dfz_run a, p;
    if (!dfz_check_input(data, size, TC_FORMAT_DCFG_TRACE, "DTRC DCFG TC", "dcfg-trace", &pl,
                         &a))
        return 0;
    for (size_t i = 0; i < a.d.n; i++)
        FUZZ_ASSERT_MSG(!is_pair_rule(a.d.v[i].rule), "%s without a DCFG to pair with",
                        tc_rules[a.d.v[i].rule].id);

    tc_reader r;
    tc_reader_init_memory(&r, pl.p, pl.n);
    dfz_parse_paired(&p, &r, g_model);
    dfz_check_findings(&p.d, pl.p, pl.n, "DTRC DCFG TC");
    if (pl.n == g_pair.trace.len && memcmp(pl.p, g_pair.trace.p, pl.n) == 0) {
        for (size_t i = 0; i < p.d.n && i < 5; i++)
            ofz_print_diag(stderr, "generated pair", &p.d.v[i]);
        FUZZ_ASSERT_MSG(p.d.n == 0, "the generated trace does not pair with its DCFG");
    }
    drop_pair_findings(&p.d);
    dfz_assert_same(&a, "alone", &p, "paired (DTRC-PAIR findings left out)");

    dfz_run_free(&p);
    dfz_run_free(&a);
    dfz_plain_free(&pl);
    return 0;
}
