/* Running the DCFG and DCFG-trace parsers in a harness: see dcfg_run.h. */
#define _GNU_SOURCE /* open_memstream */
#include <inttypes.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>

#include "../parsers/common/check.h"
#include "../parsers/common/formats.h"
#include "../parsers/common/input.h"
#include "../parsers/common/json.h"
#include "../parsers/common/parse.h"
#include "../parsers/dcfg/dtrc.h"
#include "dcfg_run.h"
#include "fuzz_helpers.h"

int dfz_get_plain(dfz_plain *pl, const uint8_t *data, size_t size)
{
    memset(pl, 0, sizeof *pl);
    if (tc_detect_compression(data, size) == TC_COMP_NONE) {
        pl->p = data;
        pl->n = size;
        return 1;
    }
    pl->compressed = 1;
    tc_input *in = tc_input_open_memory(data, size, NULL);
    FUZZ_CHECK_ALLOC(in);
    tc_reader *r = tc_input_reader(in);
    size_t cap = 4096;
    pl->owned = malloc(cap);
    FUZZ_CHECK_ALLOC(pl->owned);
    int ok = 1;
    for (;;) {
        const uint8_t *b = tc_need(r, 1);
        if (!b)
            break;
        size_t a = tc_avail(r);
        if (pl->n + a > DFZ_DECOMPRESSED_LIMIT) {
            ok = 0;
            break;
        }
        while (pl->n + a > cap)
            cap *= 2;
        pl->owned = realloc(pl->owned, cap);
        FUZZ_CHECK_ALLOC(pl->owned);
        memcpy(pl->owned + pl->n, b, a);
        pl->n += a;
        tc_advance(r, a);
    }
    if (r->failed != TC_READ_OK)
        ok = 0;
    tc_input_close(in);
    pl->p = pl->owned;
    if (!ok)
        dfz_plain_free(pl);
    return ok;
}

void dfz_plain_free(dfz_plain *pl)
{
    free(pl->owned);
    memset(pl, 0, sizeof *pl);
}


void dfz_validate(dfz_run *run, const uint8_t *data, size_t size, tc_format format, int dump)
{
    memset(run, 0, sizeof *run);
    tc_options opt = TC_OPTIONS_INIT;
    opt.format = format;
    opt.pedantic = 1;
    /* "No cap" is a cap no input of a fuzzer's size can reach. */
    opt.max_repeats = UINT32_MAX;
    opt.on_diag = ofz_collect;
    opt.user = &run->d;
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
        tc_error err = TC_ERROR_INIT;
        run->status = tc_check_input(in, "fuzz", &c, &sum, &err);
        tc_error_free(&err);
        tc_input_close(in);
        FUZZ_ASSERT_MSG(fclose(f) == 0, "writing the dump to memory failed");
    }
    FUZZ_ASSERT_MSG(run->status == 0 || run->status == 1,
                    "status %d on an input in memory", run->status);
    FUZZ_ASSERT_MSG(sum.format == format, "format %d, forced %d", (int)sum.format, (int)format);
    FUZZ_ASSERT_MSG(run->status == (sum.errors > 0), "status %d with %" PRIu64 " errors",
                    run->status, sum.errors);
    run->d.errors = sum.errors;
    run->d.warnings = sum.warnings;
    run->d.notes = sum.notes;
}

void dfz_parse_reader(dfz_run *run, tc_reader *r, tc_format format)
{
    memset(run, 0, sizeof *run);
    run->status = -1;
    const tc_format_ops *ops = tc_format_ops_for(format);
    FUZZ_ASSERT_MSG(ops != NULL, "format %d is not in the registry", (int)format);
    tc_diag_sink sink;
    ofz_sink_init(&sink, &run->d, 0);
    tc_parse_ctx ctx = {.diags = &sink};
    ops->parse(r, &ctx);
    ofz_sink_finish(&sink, &run->d);
}

void dfz_parse_paired(dfz_run *run, tc_reader *r, const tc_dcfg_model *m)
{
    memset(run, 0, sizeof *run);
    run->status = -1;
    tc_diag_sink sink;
    ofz_sink_init(&sink, &run->d, 0);
    tc_parse_ctx ctx = {.diags = &sink};
    tc_dtrc_parse_paired(r, &ctx, m);
    ofz_sink_finish(&sink, &run->d);
}

void dfz_run_free(dfz_run *run)
{
    ofz_diags_free(&run->d);
    free(run->dump);
    memset(run, 0, sizeof *run);
}

void dfz_assert_same(const dfz_run *a, const char *la, const dfz_run *b, const char *lb)
{
    ofz_assert_same_diags(&a->d, la, &b->d, lb);
}

void dfz_check_findings(const ofz_diags *d, const uint8_t *data, size_t size,
                        const char *families)
{
    ofz_check_diags_well_formed(d, families);
    for (size_t i = 0; i < d->n; i++) {
        const ofz_diag *x = &d->v[i];
        const char *id = tc_rules[x->rule].id;
        if (x->unlocated)
            continue;
        /* A point at the very end (a document cut short) may cover the byte
         * that is missing. */
        FUZZ_ASSERT_MSG(x->offset <= size && (x->offset + x->length <= size ||
                                              (x->offset == size && x->length <= 1)),
                        "%s at %" PRIu64 "+%" PRIu64 " in an input of %zu bytes", id, x->offset,
                        x->length, size);
        FUZZ_ASSERT_MSG(x->path != NULL, "%s at %" PRIu64 " has no JSON path", id, x->offset);
        uint32_t line, column;
        ofz_line_column(data, size, x->offset, &line, &column);
        FUZZ_ASSERT_MSG(x->line == line && x->column == column,
                        "%s at %" PRIu64 " says %" PRIu32 ":%" PRIu32 ", the bytes say %" PRIu32
                        ":%" PRIu32,
                        id, x->offset, x->line, x->column, line, column);
    }
}

/* One dump line: a complete strict JSON object whose first member is "t";
 * *t gets that member's value (malloc'd), and *format the "format" member's
 * when there is one. */
static void check_line(const char *p, size_t n, size_t lineno, char **t, char **format)
{
    tc_reader r;
    tc_reader_init_memory(&r, p, n);
    ofz_diags d;
    tc_diag_sink sink;
    ofz_sink_init(&sink, &d, 0);
    tc_json *j = tc_json_new(&r, &sink);
    FUZZ_CHECK_ALLOC(j);
    tc_json_token tok;
    int rc, k = 0, next_format = 0, depth = 0;
    *t = *format = NULL;
    while ((rc = tc_json_next(j, &tok)) > 0) {
        if (k == 0)
            FUZZ_ASSERT_MSG(tok.kind == TC_JSON_OBJECT_BEGIN, "dump line %zu is no object: %.*s",
                            lineno, (int)(n < 200 ? n : 200), p);
        if (k == 1)
            FUZZ_ASSERT_MSG(tok.kind == TC_JSON_KEY && tok.len == 1 && tok.text[0] == 't',
                            "dump line %zu does not start with \"t\": %.*s", lineno,
                            (int)(n < 200 ? n : 200), p);
        if (k == 2) {
            FUZZ_ASSERT_MSG(tok.kind == TC_JSON_STRING && tok.len > 0,
                            "dump line %zu: \"t\" is no name: %.*s", lineno,
                            (int)(n < 200 ? n : 200), p);
            *t = strndup(tok.text, tok.len);
            FUZZ_CHECK_ALLOC(*t);
        }
        if (next_format && tok.kind == TC_JSON_STRING && !*format) {
            *format = strndup(tok.text, tok.len);
            FUZZ_CHECK_ALLOC(*format);
        }
        next_format = tok.kind == TC_JSON_KEY && depth == 1 && tok.len == 6 &&
                      memcmp(tok.text, "format", 6) == 0;
        if (tok.kind == TC_JSON_OBJECT_BEGIN || tok.kind == TC_JSON_ARRAY_BEGIN)
            depth++;
        else if (tok.kind == TC_JSON_OBJECT_END || tok.kind == TC_JSON_ARRAY_END)
            depth--;
        k++;
    }
    tc_json_free(j);
    ofz_sink_finish(&sink, &d);
    if (rc != 0 || d.n) {
        for (size_t i = 0; i < d.n && i < 3; i++)
            ofz_print_diag(stderr, "dump line", &d.v[i]);
        FUZZ_FAIL("dump line %zu is not one strict JSON value: %.*s", lineno,
                  (int)(n < 200 ? n : 200), p);
    }
    ofz_diags_free(&d);
}

void dfz_check_dump(const char *dump, size_t len, const char *format, int may_be_empty)
{
    FUZZ_ASSERT_MSG(len > 0 || may_be_empty, "no dump, not even a header, of a valid input");
    FUZZ_ASSERT_MSG(len == 0 || dump[len - 1] == '\n', "the dump (%zu bytes) does not end a line",
                    len);
    size_t lineno = 0;
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(dump + at, '\n', len - at);
        size_t n = (size_t)(nl - (dump + at));
        lineno++;
        FUZZ_ASSERT_MSG(n > 0, "dump line %zu is empty", lineno);
        FUZZ_ASSERT_MSG(memchr(dump + at, '\0', n) == NULL, "dump line %zu holds a NUL", lineno);
        char *t, *f;
        check_line(dump + at, n, lineno, &t, &f);
        if (lineno == 1)
            FUZZ_ASSERT_MSG(strcmp(t, "header") == 0 && f && strcmp(f, format) == 0,
                            "the first dump line is %s of format %s, not the %s header", t,
                            f ? f : "(none)", format);
        else
            FUZZ_ASSERT_MSG(strcmp(t, "header") != 0, "dump line %zu is a second header",
                            lineno);
        free(t);
        free(f);
        at += n + 1;
    }
}

/* The dump walks a chunk's edges one by one up to its cap (2^24) where
 * validation skips periods, so on a chunk of billions of edges it may run
 * out of the decoder's work budget and decide from counts: the same finding
 * (rule, severity, location), with values that say "at least". Anything
 * else must be identical. */
static void assert_same_with_dump(const dfz_run *a, const dfz_run *b)
{
    int same = a->d.n == b->d.n;
    for (size_t i = 0; same && i < a->d.n; i++) {
        const ofz_diag *x = &a->d.v[i], *y = &b->d.v[i];
        if (ofz_diag_eq(x, y))
            continue;
        int counted = (y->rule == TC_RULE_DTRC_SEQ_LEFTOVER || y->rule == TC_RULE_DTRC_SEQ_SHORT) &&
                      y->message && strstr(y->message, "at least") != NULL;
        same = counted && x->rule == y->rule && x->offset == y->offset &&
               x->length == y->length && x->line == y->line && x->column == y->column &&
               x->path && y->path && strcmp(x->path, y->path) == 0;
    }
    if (same) {
        FUZZ_ASSERT_MSG(a->d.errors == b->d.errors && a->d.warnings == b->d.warnings &&
                            a->d.notes == b->d.notes,
                        "validate and validate with the dump count differently");
        return;
    }
    dfz_assert_same(a, "validate", b, "validate with the dump");
}

int dfz_check_input(const uint8_t *data, size_t size, tc_format format, const char *families,
                    const char *dump_format, dfz_plain *pl, dfz_run *a)
{
    if (tc_detect_compression(data, size) != TC_COMP_NONE) {
        /* As a user hands it over: offsets are in the decompressed bytes,
         * so only the findings' form is checked here. */
        dfz_run raw;
        dfz_validate(&raw, data, size, format, 0);
        ofz_check_diags_well_formed(&raw.d, families);
        int ok = dfz_get_plain(pl, data, size);
        if (ok) {
            dfz_validate(a, pl->p, pl->n, format, 0);
            dfz_assert_same(&raw, "compressed", a, "decompressed");
            dfz_run_free(a);
        }
        dfz_run_free(&raw);
        if (!ok)
            return 0;
    } else {
        dfz_get_plain(pl, data, size);
    }
    dfz_validate(a, pl->p, pl->n, format, 0);
    dfz_check_findings(&a->d, pl->p, pl->n, families);

    dfz_run b;
    dfz_validate(&b, pl->p, pl->n, format, 1);
    assert_same_with_dump(a, &b);
    dfz_check_dump(b.dump, b.dump_len, dump_format, a->d.errors > 0);
    dfz_run_free(&b);

    uint32_t h = ofz_hash(pl->p, pl->n);
    size_t window = (size_t)1 << (h % 13);
    int no_mmap = (h >> 8) & 1;
    ofz_file *f = ofz_file_open(pl->p, pl->n, window, no_mmap);
    if (f) {
        dfz_run c;
        dfz_parse_reader(&c, ofz_file_reader(f), format);
        ofz_file_close(f);
        dfz_assert_same(a, "memory", &c, no_mmap ? "read() windows" : "mmap windows");
        dfz_run_free(&c);
    }
    return 1;
}
