/* The JSON tokenizer is streaming: the same document read through windows
 * of 1 to 64 bytes (the stream path of tc_input over a file), through mmap
 * windows, and decompressed from gzip, bzip2 and zstd, gives exactly the
 * tokens and findings it gives from memory. Every token, string, escape,
 * UTF-8 sequence, number and BOM then straddles a window boundary somewhere. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parsers/common/input.h"
#include "ot.h"
#include "suites.h"

static int same_tokens(const jt_run *a, const jt_run *b, char *why, size_t size)
{
    if (a->end != b->end) {
        snprintf(why, size, "ends with %d, reference %d", b->end, a->end);
        return 0;
    }
    if (a->n != b->n) {
        snprintf(why, size, "%zu tokens, reference %zu", b->n, a->n);
        return 0;
    }
    for (size_t i = 0; i < a->n; i++) {
        const jt_tok *x = &a->t[i], *y = &b->t[i];
        int same = x->kind == y->kind && x->offset == y->offset && x->line == y->line &&
                   x->column == y->column && x->len == y->len &&
                   (!x->text || !memcmp(x->text, y->text, x->len)) && x->integer == y->integer &&
                   x->negative == y->negative && x->fits == y->fits && x->i64 == y->i64 &&
                   x->u64 == y->u64 && !strcmp(x->path, y->path) && x->depth == y->depth;
        if (!same) {
            snprintf(why, size, "token %zu differs (offset %llu vs %llu, path %s vs %s)", i,
                     (unsigned long long)y->offset, (unsigned long long)x->offset, y->path,
                     x->path);
            return 0;
        }
    }
    const ot_result *p = &a->diags, *q = &b->diags;
    if (p->n != q->n) {
        snprintf(why, size, "findings [%s], reference %zu", ot_describe(q), p->n);
        return 0;
    }
    for (size_t i = 0; i < p->n; i++) {
        const ot_diag *x = &p->d[i], *y = &q->d[i];
        if (x->rule != y->rule || x->offset != y->offset || x->length != y->length ||
            x->line != y->line || x->column != y->column || strcmp(x->path, y->path) ||
            strcmp(x->message, y->message)) {
            snprintf(why, size, "finding %zu is %s@%llu %u:%u %s \"%s\", reference %s@%llu %u:%u %s \"%s\"",
                     i, y->rule->id, (unsigned long long)y->offset, y->line, y->column, y->path,
                     y->message, x->rule->id, (unsigned long long)x->offset, x->line, x->column,
                     x->path, x->message);
            return 0;
        }
    }
    return 1;
}

static void run_input(tc_input *in, jt_run *out) { jt_run_reader(tc_input_reader(in), out); }

/* One document every way; returns the number of ways that differed. */
static int all_ways(const char *name, const void *doc, size_t len, int compressed)
{
    jt_run ref = {0}, r = {0};
    char why[1024];
    int bad = 0;
    jt_run_mem(doc, len, &ref);
    char *path = tu_write_file("stream.json", doc, len);
    for (size_t w = 1; w <= 64; w++) {
        for (int no_mmap = 1; no_mmap >= 0; no_mmap--) {
            if (!no_mmap && w % 8 != 1)
                continue; /* mmap windows: a few sizes suffice */
            tc_input_opts o = {.window = w, .no_mmap = no_mmap};
            char err[256];
            tc_input *in = tu_input_open(path, &o, err, sizeof err);
            if (!in) {
                CHECK(0, "%s: %s", name, err);
                continue;
            }
            run_input(in, &r);
            tc_input_close(in);
            if (!same_tokens(&ref, &r, why, sizeof why)) {
                CHECK(0, "%s, %s window %zu: %s", name, no_mmap ? "stream" : "mmap", w, why);
                bad++;
            }
        }
    }
    free(path);
    if (compressed && len > 0) {
        static void (*const fns[])(tu_bytes *, const void *, size_t) = {
            tu_gzip_member, tu_bzip2_stream, tu_zstd_frame};
        static const char *const names[] = {"gzip", "bzip2", "zstd"};
        for (int c = 0; c < 3; c++) {
            tu_bytes z = {0};
            fns[c](&z, doc, len);
            char *zpath = tu_write_file("stream.json.z", z.p, z.len);
            static const size_t windows[] = {1, 2, 3, 5, 8, 13, 64};
            for (size_t k = 0; k < sizeof windows / sizeof windows[0]; k++) {
                tc_input_opts o = {.window = windows[k]};
                char err[256];
                tc_input *in = tu_input_open(zpath, &o, err, sizeof err);
                if (!in) {
                    CHECK(0, "%s %s: %s", name, names[c], err);
                    continue;
                }
                CU_ASSERT_NOT_EQUAL(tc_input_compression(in), TC_COMP_NONE);
                run_input(in, &r);
                tc_input_close(in);
                if (!same_tokens(&ref, &r, why, sizeof why)) {
                    CHECK(0, "%s, %s window %zu: %s", name, names[c], windows[k], why);
                    bad++;
                }
            }
            free(zpath);
            tu_bytes_free(&z);
        }
    }
    jt_free(&ref);
    jt_free(&r);
    return bad;
}

static void test_cases_every_window(void)
{
    int bad = 0;
    for (size_t i = 0; i < jt_ncases && bad < 10; i++)
        bad += all_ways(jt_cases[i].name, jt_cases[i].doc, jt_cases[i].len, i % 4 == 0);
}

/* Larger documents: every token kind at every alignment. */
static void test_documents_every_window(void)
{
    static const char meta[] =
        "\xef\xbb\xbf{\r\n    \"version\": 3,\r\n    \"ovni\": {\r\n"
        "        \"lib\": {\"version\": \"1.10.0\", \"commit\": \"dirty\"},\r\n"
        "        \"part\": \"thread\", \"tid\": 89719, \"pid\": 89719,\r\n"
        "        \"loom\": \"mio.nosv-u1000\", \"app_id\": 1,\r\n"
        "        \"require\": {\"ovni\": \"1.1.0\", \"nosv\": \"2.3.0\"},\r\n"
        "        \"loom_cpus\": [{ \"index\": 0, \"phyid\": 0 }, { \"index\": 1, \"phyid\": 1 }],\r\n"
        "        \"finished\": 1\r\n    },\r\n"
        "    \"nosv\": {\"can_breakdown\": false, \"lib_version\": \"2.3.1\"}\r\n}\r\n";
    all_ways("ovni metadata (BOM, CRLF)", meta, sizeof meta - 1, 1);

    static const char strings[] =
        "[\"\\u0041\\u00e9\\u20ac\\ud83d\\ude00\\n\\t\\\"\\\\\\/\","
        "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\","
        "\"a\\u0000b\", \"\", \"\\uDBFF\\uDFFF\", -0.5e+10, 18446744073709551615,"
        " -9223372036854775808, 18446744073709551616, true, false, null, {\"\": {\"a b\": [[]]}},"
        " {\"k\": 1, \"\\u006b\": 2}]";
    all_ways("strings, numbers, duplicate", strings, sizeof strings - 1, 1);

    /* Errors found deep into a document, after the windows slid. */
    static const char late[] = "{\"a\": [1, 2, 3, {\"b\": \"x\xe2\x82\xac\"}, \"\\uDE00\"]}";
    all_ways("late encoding error", late, sizeof late - 1, 1);
    static const char late2[] = "{\"a\": [1, 2, 3, {\"b\": \"x\"}], \"c\": tru}";
    all_ways("late literal error", late2, sizeof late2 - 1, 1);
    static const char late3[] = "{\"a\": [1, 2, 3]}\n  \n /* trailing comment */";
    all_ways("trailing comment", late3, sizeof late3 - 1, 1);

    tu_bytes b = {0};
    for (int i = 0; i < 300; i++)
        tu_bytes_append(&b, "{\"k\":[", 6);
    tu_bytes_append(&b, "\"deep\"", 6);
    for (int i = 0; i < 300; i++)
        tu_bytes_append(&b, "]}", 2);
    all_ways("600 levels", b.p, b.len, 0);
    tu_bytes_free(&b);
}

static const tu_test tests[] = {
    {"y/n documents through windows of 1..64 bytes", test_cases_every_window},
    {"larger documents through every window", test_documents_every_window},
    {NULL, NULL},
};

void register_json_stream_suite(void) { tu_add_suite("json_stream", tests); }
