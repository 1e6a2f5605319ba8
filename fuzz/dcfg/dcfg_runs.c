/* Running the DCFG and DCFG-trace parsers in a harness: see dcfg_runs.h. */
#define _GNU_SOURCE /* open_memstream */
#include <inttypes.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg_runs.h"
#include "../../parsers/common/check.h"
#include "../../parsers/dcfg/dcfg_model.h"
#include "../../parsers/dcfg/dtrc.h"
#include "../common/dump_oracle.h"

void dc_validate(dc_run *run, const uint8_t *data, size_t size, tc_format format, int dump)
{
    memset(run, 0, sizeof *run);
    tc_options opt = TC_OPTIONS_INIT;
    opt.format = format;
    opt.pedantic = 1;
    /* "No cap" is a cap no input of a fuzzer's size can reach. */
    opt.max_repeats = UINT32_MAX;
    run->f.max_repeats = opt.max_repeats;
    opt.on_diag = hx_collect;
    opt.user = &run->f;
    tc_summary sum;
    if (!dump) {
        run->status = tc_validate_buffer(data, size, "fuzz", &opt, &sum);
    } else {
        FILE *f = open_memstream(&run->dump, &run->dump_len);
        FUZZ_CHECK_ALLOC(f);
        /* Only this thread writes it: per-character locking is pure cost. */
        __fsetlocking(f, FSETLOCKING_BYCALLER);
        tc_check_opts c = {.options = &opt, .dump = f};
        tc_input *in = tc_input_open_memory(data, size, NULL);
        FUZZ_CHECK_ALLOC(in);
        tc_error e = TC_ERROR_INIT;
        run->status = tc_check_input(in, "fuzz", &c, &sum, &e);
        tc_error_free(&e);
        tc_input_close(in);
        FUZZ_ASSERT_MSG(fclose(f) == 0, "writing the dump to memory failed");
    }
    FUZZ_ASSERT_MSG(run->status == 0 || run->status == 1,
                    "status %d on an input in memory", run->status);
    FUZZ_ASSERT_MSG(sum.format == format, "format %d, forced %d", (int)sum.format, (int)format);
    FUZZ_ASSERT_MSG(run->status == (sum.errors > 0), "status %d with %" PRIu64 " errors",
                    run->status, sum.errors);
    run->f.errors = sum.errors;
    run->f.warnings = sum.warnings;
    run->f.notes = sum.notes;
}

void dc_parse_reader(dc_run *run, tc_reader *r, tc_format format, unsigned max_repeats)
{
    memset(run, 0, sizeof *run);
    run->status = -1;
    tc_diag_sink sink;
    hx_sink_init(&sink, &run->f, 1, max_repeats);
    tc_parse_ctx ctx = {.diags = &sink};
    hx_parse(format, r, &ctx);
    hx_sink_finish(&sink, &run->f);
}

void dc_parse_paired(dc_run *run, tc_reader *r, const tc_dcfg_model *m)
{
    memset(run, 0, sizeof *run);
    run->status = -1;
    tc_diag_sink sink;
    hx_sink_init(&sink, &run->f, 1, 0);
    tc_parse_ctx ctx = {.diags = &sink};
    tc_dtrc_parse_paired(r, &ctx, m);
    hx_sink_finish(&sink, &run->f);
}

tc_dcfg_model *dc_load_model(dc_run *run, const uint8_t *data, size_t size)
{
    memset(run, 0, sizeof *run);
    run->status = -1;
    tc_reader r;
    tc_reader_init_memory(&r, data, size);
    tc_diag_sink sink;
    hx_sink_init(&sink, &run->f, 1, 0);
    tc_dcfg_model *m = tc_dcfg_model_load(&r, &sink);
    hx_sink_finish(&sink, &run->f);
    return m;
}

void dc_run_free(dc_run *run)
{
    hx_findings_free(&run->f);
    free(run->dump);
    memset(run, 0, sizeof *run);
}

void dc_assert_same(const dc_run *a, const char *la, const dc_run *b, const char *lb)
{
    hx_assert_same(&a->f, la, &b->f, lb);
}

/* The dump walks a chunk's edges one by one up to its cap (2^24) where
 * validation skips periods, so on a chunk of billions of edges it may run
 * out of the decoder's work budget and decide from counts: the same finding
 * (rule, severity, location), with values that say "at least". Anything
 * else must be identical. */
static void assert_same_with_dump(const dc_run *a, const dc_run *b)
{
    int same = a->f.n == b->f.n;
    for (size_t i = 0; same && i < a->f.n; i++) {
        const hx_finding *x = &a->f.v[i], *y = &b->f.v[i];
        if (hx_finding_eq(x, y))
            continue;
        int counted = (y->rule == TC_RULE_DTRC_SEQ_LEFTOVER || y->rule == TC_RULE_DTRC_SEQ_SHORT) &&
                      y->message && strstr(y->message, "at least") != NULL;
        same = counted && x->rule == y->rule && x->offset == y->offset &&
               x->length == y->length && x->line == y->line && x->column == y->column &&
               x->path && y->path && strcmp(x->path, y->path) == 0;
    }
    if (same) {
        FUZZ_ASSERT_MSG(a->f.errors == b->f.errors && a->f.warnings == b->f.warnings &&
                            a->f.notes == b->f.notes,
                        "validate and validate with the dump count differently");
        return;
    }
    dc_assert_same(a, "validate", b, "validate with the dump");
}

int dc_check_input(const uint8_t *data, size_t size, tc_format format, const char *families,
                   const char *dump_format, hx_plain *pl, dc_run *a)
{
    /* Bytes that do not decompress, or to more than the limit, are skipped. */
    if (!hx_plain_get(pl, data, size, HX_DECOMPRESSED_LIMIT))
        return 0;
    if (pl->failed) {
        hx_plain_free(pl);
        return 0;
    }
    if (pl->compressed) {
        /* As a user hands it over: offsets are in the decompressed bytes,
         * so only the findings' form is checked here. */
        dc_run raw;
        dc_validate(&raw, data, size, format, 0);
        hx_check_well_formed(&raw.f, families);
        dc_validate(a, pl->p, pl->n, format, 0);
        dc_assert_same(&raw, "compressed", a, "decompressed");
        dc_run_free(a);
        dc_run_free(&raw);
    }
    dc_validate(a, pl->p, pl->n, format, 0);
    hx_check_well_formed(&a->f, families);
    hx_check_text_locations(&a->f, pl->p, pl->n, 1);

    dc_run b;
    dc_validate(&b, pl->p, pl->n, format, 1);
    assert_same_with_dump(a, &b);
    od_check_dump(b.dump, b.dump_len, dump_format, a->f.errors > 0);
    dc_run_free(&b);

    /* A file read through read() or mmap windows of 1 byte to 4 KiB. */
    hx_rng rng;
    hx_rng_init(&rng, pl->p, pl->n);
    size_t window = (size_t)1 << hx_rng_below(&rng, 13);
    hx_path path = hx_rng_below(&rng, 2) ? HX_READ : HX_MMAP;
    hx_source src;
    if (hx_open(&src, path, pl->p, pl->n, window)) {
        dc_run c;
        dc_parse_reader(&c, hx_reader(&src), format, 0);
        hx_close(&src);
        dc_assert_same(a, "memory", &c, hx_path_name(path));
        dc_run_free(&c);
    }
    return 1;
}
