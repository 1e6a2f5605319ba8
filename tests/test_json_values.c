/* What the JSON tokenizer hands its callers: exact 64-bit integers, string
 * contents after unescaping, token offsets and line:column (LF, CRLF, after a
 * BOM), JSON paths, duplicate keys, the depth limit, tc_json_skip. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ot.h"
#include "suites.h"

static const char *kind_of(tc_json_kind k)
{
    static const char *const names[] = {"?",   "{",   "}",      "[",     "]",
                                        "key", "str", "number", "true", "false", "null"};
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

/* ---- numbers ---- */

static void test_integers(void)
{
    static const struct {
        const char *text;
        int integer, negative, fits;
        int64_t i64;
        uint64_t u64;
    } cases[] = {
        {"0", 1, 0, 1, 0, 0},
        {"-0", 1, 1, 1, 0, 0},
        {"7", 1, 0, 1, 0, 7},
        {"-7", 1, 1, 1, -7, 0},
        {"9223372036854775807", 1, 0, 1, 0, INT64_MAX},
        {"9223372036854775808", 1, 0, 1, 0, (uint64_t)INT64_MAX + 1},
        {"-9223372036854775807", 1, 1, 1, -INT64_MAX, 0},
        {"-9223372036854775808", 1, 1, 1, INT64_MIN, 0},
        {"-9223372036854775809", 1, 1, 0, 0, 0},
        {"-18446744073709551615", 1, 1, 0, 0, 0},
        {"18446744073709551615", 1, 0, 1, 0, UINT64_MAX},
        {"18446744073709551614", 1, 0, 1, 0, UINT64_MAX - 1},
        {"18446744073709551616", 1, 0, 0, 0, 0},
        /* Above UINT64_MAX with a smaller last digit: the overflow is seen
         * before the multiplication, not after it wrapped. */
        {"18446744073709551620", 1, 0, 0, 0, 0},
        {"18446744073709551700", 1, 0, 0, 0, 0},
        {"99999999999999999999", 1, 0, 0, 0, 0},
        {"184467440737095516150", 1, 0, 0, 0, 0},
        {"123456789012345678901234567890123456789", 1, 0, 0, 0, 0},
        {"-123456789012345678901234567890123456789", 1, 1, 0, 0, 0},
        {"1.0", 0, 0, 1, 0, 0},
        {"-1.5", 0, 1, 1, 0, 0},
        {"1e2", 0, 0, 1, 0, 0},
        {"1E+2", 0, 0, 1, 0, 0},
        {"-0.0e-0", 0, 1, 1, 0, 0},
        {"3.0", 0, 0, 1, 0, 0},
    };
    jt_run j = {0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char doc[128];
        /* In an array after another number too: state is per token. */
        snprintf(doc, sizeof doc, "[5,%s]", cases[i].text);
        jt_run_str(doc, &j);
        if (!(j.end == 0 && j.n == 4 && j.diags.n == 0)) {
            CHECK(0, "%s: %s, findings %s", doc, jt_describe(&j), jt_rules(&j));
            continue;
        }
        const jt_tok *t = &j.t[2];
        CHECK(t->kind == TC_JSON_NUMBER && !strcmp(t->text, cases[i].text) &&
                  t->len == strlen(cases[i].text),
              "%s: text \"%s\"", cases[i].text, t->text);
        CHECK(t->integer == cases[i].integer && t->negative == cases[i].negative,
              "%s: integer %d negative %d", cases[i].text, t->integer, t->negative);
        if (cases[i].integer) {
            CHECK(t->fits == cases[i].fits, "%s: fits %d", cases[i].text, t->fits);
            if (cases[i].fits && cases[i].negative)
                CHECK(t->i64 == cases[i].i64, "%s: i64 %lld", cases[i].text, (long long)t->i64);
            if (cases[i].fits && !cases[i].negative)
                CHECK(t->u64 == cases[i].u64, "%s: u64 %llu", cases[i].text,
                      (unsigned long long)t->u64);
        }
        CHECK(j.t[1].u64 == 5 && j.t[1].integer && j.t[1].fits, "the 5 before %s", cases[i].text);
    }
    jt_free(&j);
}

/* ---- strings ---- */

static void test_string_contents(void)
{
    static const struct {
        const char *doc;
        const char *bytes;
        size_t len;
    } cases[] = {
        {"\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\/\b\f\n\r\t", 8},
        {"\"\\u0041\\u00e9\\u20AC\"", "A\xc3\xa9\xe2\x82\xac", 6},
        {"\"\\uD83D\\uDE00\"", "\xf0\x9f\x98\x80", 4},
        {"\"\\udbff\\udfff\"", "\xf4\x8f\xbf\xbf", 4},
        {"\"\\uD800\\uDC00\"", "\xf0\x90\x80\x80", 4},
        {"\"a\\u0000b\"", "a\0b", 3},
        {"\"\\u007f\\u0080\\u07ff\\u0800\\uffff\"", "\x7f\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf", 11},
        {"\"\xc3\xa9\xf0\x9f\x98\x80\"", "\xc3\xa9\xf0\x9f\x98\x80", 6},
        {"\"\"", "", 0},
    };
    jt_run j = {0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        jt_run_str(cases[i].doc, &j);
        CHECK(j.end == 0 && j.n == 1 && j.t[0].kind == TC_JSON_STRING &&
                  j.t[0].len == cases[i].len && !memcmp(j.t[0].text, cases[i].bytes, cases[i].len),
              "%s: %s (len %zu)", cases[i].doc, jt_describe(&j), j.n ? j.t[0].len : 0);
    }
    /* A key is unescaped like a string. */
    jt_run_str("{\"\\u0061\\n\":1}", &j);
    CHECK(j.n == 4 && j.t[1].kind == TC_JSON_KEY && j.t[1].len == 2 && !memcmp(j.t[1].text, "a\n", 2),
          "key: %s", jt_describe(&j));
    jt_free(&j);
}

/* Strings are held whole, up to TC_JSON_MAX_STRING bytes. */
static void test_long_strings(void)
{
    size_t n = TC_JSON_MAX_STRING;
    char *doc = malloc(n + 3);
    if (!doc)
        return;
    doc[0] = '"';
    memset(doc + 1, 'x', n);
    doc[n + 1] = '"';
    jt_run j = {0};
    jt_run_mem(doc, n + 2, &j);
    CHECK(j.end == 0 && j.n == 1 && j.t[0].len == n, "a string of %zu bytes: %s", n, jt_rules(&j));
    /* One byte more: an error, not an allocation without end. */
    char *big = realloc(doc, n + 4);
    if (!big) {
        free(doc);
        return;
    }
    doc = big;
    doc[n + 1] = 'x';
    doc[n + 2] = '"';
    jt_run_mem(doc, n + 3, &j);
    CHECK(j.end == -1 && !strcmp(jt_rules(&j), "TC-JSON-SYNTAX") && ot_find(&j.diags, "TC-JSON-SYNTAX", "longer than"),
          "a string of %zu bytes: %s", n + 1, ot_describe(&j.diags));
    free(doc);
    jt_free(&j);
}

/* ---- locations ---- */

typedef struct want_tok {
    tc_json_kind kind;
    const char *text;
    uint64_t offset;
    uint32_t line, column;
    const char *path;
} want_tok;

static void expect_tokens(const char *what, const jt_run *j, const want_tok *w, size_t n)
{
    CHECK(j->n == n, "%s: %zu tokens, expected %zu: %s", what, j->n, n, jt_describe(j));
    for (size_t i = 0; i < n && i < j->n; i++) {
        const jt_tok *t = &j->t[i];
        CHECK(t->kind == w[i].kind && (!w[i].text || (t->text && !strcmp(t->text, w[i].text))),
              "%s: token %zu is %s %s, expected %s %s", what, i, kind_of(t->kind),
              t->text ? t->text : "", kind_of(w[i].kind), w[i].text ? w[i].text : "");
        CHECK(t->offset == w[i].offset && t->line == w[i].line && t->column == w[i].column,
              "%s: token %zu (%s) at %llu %u:%u, expected %llu %u:%u", what, i, kind_of(t->kind),
              (unsigned long long)t->offset, t->line, t->column,
              (unsigned long long)w[i].offset, w[i].line, w[i].column);
        if (w[i].path)
            CHECK(t->path && !strcmp(t->path, w[i].path), "%s: token %zu (%s %s) path %s, expected %s",
                  what, i, kind_of(t->kind), t->text ? t->text : "", t->path, w[i].path);
    }
}

static void test_offsets_lines_columns(void)
{
    /* LF and CRLF line ends (CRLF counts once), tabs count one byte. */
    const char *doc = "{\n  \"a\": [1,\r\n   2],\r\n\t\"b\": true\n}";
    static const want_tok w[] = {
        {TC_JSON_OBJECT_BEGIN, NULL, 0, 1, 1, "$"},
        {TC_JSON_KEY, "a", 4, 2, 3, "$.a"},
        {TC_JSON_ARRAY_BEGIN, NULL, 9, 2, 8, "$.a"},
        {TC_JSON_NUMBER, "1", 10, 2, 9, "$.a[0]"},
        {TC_JSON_NUMBER, "2", 17, 3, 4, "$.a[1]"},
        {TC_JSON_ARRAY_END, NULL, 18, 3, 5, "$.a"},
        {TC_JSON_KEY, "b", 23, 4, 2, "$.b"},
        {TC_JSON_TRUE, NULL, 28, 4, 7, "$.b"},
        {TC_JSON_OBJECT_END, NULL, 33, 5, 1, "$"},
    };
    jt_run j = {0};
    jt_run_str(doc, &j);
    CU_ASSERT_EQUAL(j.end, 0);
    expect_tokens("LF/CRLF", &j, w, sizeof w / sizeof w[0]);

    /* Lines end at LF: a lone CR is white space within the line. */
    jt_run_str("[\r1,\r\r2]", &j);
    static const want_tok cr[] = {
        {TC_JSON_ARRAY_BEGIN, NULL, 0, 1, 1, "$"},
        {TC_JSON_NUMBER, "1", 2, 1, 3, "$[0]"},
        {TC_JSON_NUMBER, "2", 6, 1, 7, "$[1]"},
        {TC_JSON_ARRAY_END, NULL, 7, 1, 8, "$"},
    };
    expect_tokens("lone CR", &j, cr, sizeof cr / sizeof cr[0]);

    /* After a BOM: offsets count its 3 bytes, columns do not (an editor
     * shows no character for it), and the next line is unaffected. */
    jt_run_str("\xef\xbb\xbf{\"a\":\n [1]}", &j);
    static const want_tok bom[] = {
        {TC_JSON_OBJECT_BEGIN, NULL, 3, 1, 1, "$"},
        {TC_JSON_KEY, "a", 4, 1, 2, "$.a"},
        {TC_JSON_ARRAY_BEGIN, NULL, 10, 2, 2, "$.a"},
        {TC_JSON_NUMBER, "1", 11, 2, 3, "$.a[0]"},
        {TC_JSON_ARRAY_END, NULL, 12, 2, 4, "$.a"},
        {TC_JSON_OBJECT_END, NULL, 13, 2, 5, "$"},
    };
    expect_tokens("BOM", &j, bom, sizeof bom / sizeof bom[0]);
    OT_RULES(&j.diags, "TC-JSON-BOM");
    if (j.diags.n == 1) {
        const ot_diag *d = &j.diags.d[0];
        CHECK(d->offset == 0 && d->length == 3 && d->line == 1 && d->column == 1 &&
                  !strcmp(d->path, "$") && d->severity == TC_WARNING,
              "BOM finding at %llu+%llu %u:%u %s", (unsigned long long)d->offset,
              (unsigned long long)d->length, d->line, d->column, d->path);
    }
    jt_run_str("\xef\xbb\xbf\r\n  7", &j);
    CHECK(j.n == 1 && j.t[0].offset == 7 && j.t[0].line == 2 && j.t[0].column == 3,
          "BOM CRLF: %s at %llu %u:%u", jt_describe(&j), j.n ? (unsigned long long)j.t[0].offset : 0ull,
          j.n ? j.t[0].line : 0, j.n ? j.t[0].column : 0);

    /* Errors are located the same way, with the path of where they are. */
    jt_run_str("{\n  \"a\": [1,\r\n   2,]\n}", &j);
    OT_RULES(&j.diags, "TC-JSON-SYNTAX");
    if (j.diags.n == 1) {
        const ot_diag *d = &j.diags.d[0];
        CHECK(d->offset == 19 && d->line == 3 && d->column == 6 && !strcmp(d->path, "$.a[2]"),
              "error at %llu %u:%u %s", (unsigned long long)d->offset, d->line, d->column, d->path);
    }
    jt_run_str("\xef\xbb\xbf{\"a\" 1}", &j);
    const ot_diag *d = ot_find(&j.diags, "TC-JSON-SYNTAX", NULL);
    CHECK(d && d->offset == 8 && d->line == 1 && d->column == 6, "error after a BOM at %llu %u:%u",
          d ? (unsigned long long)d->offset : 0ull, d ? d->line : 0, d ? d->column : 0);
    /* A long line: the column is the byte count from the line's start. */
    char longdoc[5000];
    memset(longdoc, ' ', sizeof longdoc);
    memcpy(longdoc, "\n", 1);
    memcpy(longdoc + 4990, "[1,x]", 5);
    jt_run_mem(longdoc, 4995, &j);
    d = ot_find(&j.diags, "TC-JSON-SYNTAX", NULL);
    CHECK(d && d->offset == 4993 && d->line == 2 && d->column == 4993, "long line: %llu %u:%u",
          d ? (unsigned long long)d->offset : 0ull, d ? d->line : 0, d ? d->column : 0);
    jt_free(&j);
}

/* ---- paths ---- */

static int valid_utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        size_t n = *p < 0x80 ? 1 : *p >= 0xf0 ? 4 : *p >= 0xe0 ? 3 : *p >= 0xc2 ? 2 : 0;
        if (!n || *p > 0xf4)
            return 0;
        for (size_t i = 1; i < n; i++)
            if ((p[i] & 0xc0) != 0x80)
                return 0;
        p += n;
    }
    return 1;
}

static void test_paths(void)
{
    const char *doc = "{\"a\":[1,{\"b c\":[true,{\"\":null}]}],\"0x\":{\"ok_1\":2},"
                      "\"q\\\"k\":3,\"\xc3\xa9\":4,\"_\":[[0,[1]]]}";
    static const struct {
        tc_json_kind kind;
        const char *path;
        unsigned depth;
    } w[] = {
        {TC_JSON_OBJECT_BEGIN, "$", 1},
        {TC_JSON_KEY, "$.a", 1},
        {TC_JSON_ARRAY_BEGIN, "$.a", 2},
        {TC_JSON_NUMBER, "$.a[0]", 2},
        {TC_JSON_OBJECT_BEGIN, "$.a[1]", 3},
        {TC_JSON_KEY, "$.a[1][\"b c\"]", 3},
        {TC_JSON_ARRAY_BEGIN, "$.a[1][\"b c\"]", 4},
        {TC_JSON_TRUE, "$.a[1][\"b c\"][0]", 4},
        {TC_JSON_OBJECT_BEGIN, "$.a[1][\"b c\"][1]", 5},
        {TC_JSON_KEY, "$.a[1][\"b c\"][1][\"\"]", 5},
        {TC_JSON_NULL, "$.a[1][\"b c\"][1][\"\"]", 5},
        {TC_JSON_OBJECT_END, "$.a[1][\"b c\"][1]", 4},
        {TC_JSON_ARRAY_END, "$.a[1][\"b c\"]", 3},
        {TC_JSON_OBJECT_END, "$.a[1]", 2},
        {TC_JSON_ARRAY_END, "$.a", 1},
        {TC_JSON_KEY, "$[\"0x\"]", 1},
        {TC_JSON_OBJECT_BEGIN, "$[\"0x\"]", 2},
        {TC_JSON_KEY, "$[\"0x\"].ok_1", 2},
        {TC_JSON_NUMBER, "$[\"0x\"].ok_1", 2},
        {TC_JSON_OBJECT_END, "$[\"0x\"]", 1},
        /* A quote in a key is escaped in the path, as in a JSON string. */
        {TC_JSON_KEY, "$[\"q\\\"k\"]", 1},
        {TC_JSON_NUMBER, "$[\"q\\\"k\"]", 1},
        {TC_JSON_KEY, "$[\"\xc3\xa9\"]", 1},
        {TC_JSON_NUMBER, "$[\"\xc3\xa9\"]", 1},
        {TC_JSON_KEY, "$._", 1},
        {TC_JSON_ARRAY_BEGIN, "$._", 2},
        {TC_JSON_ARRAY_BEGIN, "$._[0]", 3},
        {TC_JSON_NUMBER, "$._[0][0]", 3},
        {TC_JSON_ARRAY_BEGIN, "$._[0][1]", 4},
        {TC_JSON_NUMBER, "$._[0][1][0]", 4},
        {TC_JSON_ARRAY_END, "$._[0][1]", 3},
        {TC_JSON_ARRAY_END, "$._[0]", 2},
        {TC_JSON_ARRAY_END, "$._", 1},
        {TC_JSON_OBJECT_END, "$", 0},
    };
    jt_run j = {0};
    jt_run_str(doc, &j);
    CU_ASSERT_EQUAL(j.end, 0);
    CHECK(j.n == sizeof w / sizeof w[0], "%zu tokens: %s", j.n, jt_describe(&j));
    for (size_t i = 0; i < j.n && i < sizeof w / sizeof w[0]; i++)
        CHECK(j.t[i].kind == w[i].kind && !strcmp(j.t[i].path, w[i].path) && j.t[i].depth == w[i].depth,
              "token %zu (%s %s): path %s depth %u, expected %s %s depth %u", i,
              kind_of(j.t[i].kind), j.t[i].text ? j.t[i].text : "", j.t[i].path, j.t[i].depth,
              kind_of(w[i].kind), w[i].path, w[i].depth);

    /* Big indexes; a backslash in a key. */
    tu_bytes b = {0};
    tu_bytes_append(&b, "{\"k\\\\\":[", 8);
    for (int i = 0; i < 1000; i++)
        tu_bytes_append(&b, i ? ",0" : "0", i ? 2 : 1);
    tu_bytes_append(&b, "]}", 2);
    jt_run_mem(b.p, b.len, &j);
    CHECK(j.n == 1005 && !strcmp(j.t[1002].path, "$[\"k\\\\\"][999]"), "last element's path: %s",
          j.n > 1002 ? j.t[1002].path : "(none)");
    tu_bytes_free(&b);

    /* A long key is cut in the path, never inside a UTF-8 sequence, and
     * control characters never reach it raw. */
    char key[200], kdoc[300];
    memset(key, 'a', 63);
    memcpy(key + 63, "\xc3\xa9", 2);
    memset(key + 65, 'b', 40);
    key[105] = '\0';
    snprintf(kdoc, sizeof kdoc, "{\"%s\":1}", key);
    jt_run_str(kdoc, &j);
    CHECK(j.n == 4 && valid_utf8(j.t[1].path) && !strncmp(j.t[1].path, "$[\"aaaa", 7) &&
              strstr(j.t[1].path, "..."),
          "long key's path: %s", j.n > 1 ? j.t[1].path : "(none)");
    memset(key, 'a', 64);
    key[64] = 'z';
    key[65] = '\0';
    snprintf(kdoc, sizeof kdoc, "{\"%s\":1}", key);
    jt_run_str(kdoc, &j);
    CHECK(j.n == 4 && strlen(j.t[1].path) < 80 && strstr(j.t[1].path, "...") && !strchr(j.t[1].path, 'z'),
          "65-byte key's path: %s", j.n > 1 ? j.t[1].path : "(none)");
    jt_run_str("{\"a\\nb\\u0001\":1}", &j);
    int raw = 0;
    for (const char *p = j.n > 1 ? j.t[1].path : ""; *p; p++)
        raw |= (unsigned char)*p < 0x20;
    CHECK(j.n == 4 && !raw && j.t[1].path[0] == '$', "control characters in the path: %s",
          j.n > 1 ? j.t[1].path : "(none)");
    jt_free(&j);
}

/* ---- duplicate keys ---- */

static void test_duplicate_keys(void)
{
    jt_run j = {0};
    jt_run_str("{\"a\":1,\n \"b\":{\"x\":[],\n  \"x\":{}},\n \"\\u0061\":2}", &j);
    OT_RULES(&j.diags, "TC-JSON-DUPLICATE-KEY TC-JSON-DUPLICATE-KEY");
    if (j.diags.n == 2) {
        const ot_diag *d = &j.diags.d[0];
        CHECK(d->offset == 24 && d->line == 3 && d->column == 3 && !strcmp(d->path, "$.b.x") &&
                  strstr(d->message, "key \"x\"") && strstr(d->message, "first at 2:7"),
              "inner duplicate: %llu %u:%u %s %s", (unsigned long long)d->offset, d->line,
              d->column, d->path, d->message);
        d = &j.diags.d[1];
        CHECK(d->offset == 34 && d->line == 4 && d->column == 2 && !strcmp(d->path, "$.a") &&
                  strstr(d->message, "key \"a\"") && strstr(d->message, "first at 1:2"),
              "escaped duplicate: %llu %u:%u %s %s", (unsigned long long)d->offset, d->line,
              d->column, d->path, d->message);
    }
    /* The document is still read to its end: a duplicate is no syntax error,
     * and the values after it are delivered. */
    CU_ASSERT_EQUAL(j.end, 0);
    CHECK(j.n == 15 && j.t[13].kind == TC_JSON_NUMBER && j.t[13].u64 == 2, "tokens: %s",
          jt_describe(&j));

    /* Many keys (the table grows), then a repeat of one in the middle. */
    tu_bytes b = {0};
    tu_bytes_append(&b, "{", 1);
    char k[64];
    for (int i = 0; i < 300; i++) {
        int n = snprintf(k, sizeof k, "%s\"k%d\":%d", i ? "," : "", i, i);
        tu_bytes_append(&b, k, (size_t)n);
    }
    tu_bytes_append(&b, "}", 1);
    jt_run_mem(b.p, b.len, &j);
    CHECK(j.end == 0 && j.diags.n == 0, "300 distinct keys: %s", jt_rules(&j));
    b.len--;
    tu_bytes_append(&b, ",\"k150\":0}", 10);
    jt_run_mem(b.p, b.len, &j);
    OT_RULES(&j.diags, "TC-JSON-DUPLICATE-KEY");
    OT_MSG(&j.diags, "TC-JSON-DUPLICATE-KEY", "\"k150\"");

    /* Sibling objects at one depth reuse its table: the keys of the first
     * are forgotten (even after the table grew), a repeat in the second is
     * still found. */
    b.len = 0;
    tu_bytes_append(&b, "[{", 2);
    for (int i = 0; i < 100; i++) {
        int n = snprintf(k, sizeof k, "%s\"k%d\":%d", i ? "," : "", i, i);
        tu_bytes_append(&b, k, (size_t)n);
    }
    const char *tail = "},{\"k7\":1,\"k99\":2,\"k0\":3},{\"k5\":1,\"k6\":2,\"k5\":3}]";
    tu_bytes_append(&b, tail, strlen(tail));
    jt_run_mem(b.p, b.len, &j);
    OT_RULES(&j.diags, "TC-JSON-DUPLICATE-KEY");
    OT_MSG(&j.diags, "TC-JSON-DUPLICATE-KEY", "\"k5\"");
    if (j.diags.n)
        CHECK(!strcmp(j.diags.d[0].path, "$[2].k5"), "path %s", j.diags.d[0].path);
    tu_bytes_free(&b);

    /* Not duplicates: keys that differ after a NUL, or in case. */
    jt_run_str("{\"a\\u0000b\":1,\"a\\u0000c\":2,\"a\":3,\"A\":4,\"a\\u0000\":5}", &j);
    CHECK(j.diags.n == 0, "distinct keys with NULs: %s", jt_rules(&j));
    jt_free(&j);
}

/* ---- depth ---- */

static void nest(tu_bytes *b, unsigned depth, int objects, const char *inner)
{
    b->len = 0;
    for (unsigned i = 0; i < depth; i++)
        tu_bytes_append(b, objects ? "{\"a\":" : "[", objects ? 5 : 1);
    tu_bytes_append(b, inner, strlen(inner));
    for (unsigned i = 0; i < depth; i++)
        tu_bytes_append(b, objects ? "}" : "]", 1);
}

static void test_depth(void)
{
    tu_bytes b = {0};
    jt_run j = {0};
    for (int objects = 0; objects <= 1; objects++) {
        const char *what = objects ? "objects" : "arrays";
        nest(&b, TC_JSON_MAX_DEPTH, objects, "1");
        jt_run_mem(b.p, b.len, &j);
        unsigned max = 0;
        for (size_t i = 0; i < j.n; i++)
            max = j.t[i].depth > max ? j.t[i].depth : max;
        CHECK(j.end == 0 && j.diags.n == 0 && max == TC_JSON_MAX_DEPTH,
              "%s nested %d deep: end %d, findings %s, depth %u", what, TC_JSON_MAX_DEPTH, j.end,
              jt_rules(&j), max);
        nest(&b, TC_JSON_MAX_DEPTH + 1, objects, "1");
        jt_run_mem(b.p, b.len, &j);
        CHECK(j.end == -1 && !strcmp(jt_rules(&j), "TC-JSON-DEPTH"), "%s nested %d deep: %s", what,
              TC_JSON_MAX_DEPTH + 1, jt_rules(&j));
        /* Located at the bracket that goes one level too deep. */
        uint64_t at = (uint64_t)TC_JSON_MAX_DEPTH * (objects ? 5 : 1);
        if (j.diags.n == 1)
            CHECK(j.diags.d[0].offset == at && j.diags.d[0].column == at + 1 &&
                      strstr(j.diags.d[0].message, "512"),
                  "%s: DEPTH at %llu (column %u), expected %llu: %s", what,
                  (unsigned long long)j.diags.d[0].offset, j.diags.d[0].column,
                  (unsigned long long)at, j.diags.d[0].message);
        /* Empty containers at the limit count too. */
        nest(&b, TC_JSON_MAX_DEPTH, objects, objects ? "{}" : "[]");
        jt_run_mem(b.p, b.len, &j);
        CHECK(!strcmp(jt_rules(&j), "TC-JSON-DEPTH"), "%s: 512 + an empty one: %s", what,
              jt_rules(&j));
    }
    /* Deep, then shallow again, many times: the depth goes back down. */
    b.len = 0;
    tu_bytes_append(&b, "[", 1);
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i < 500; i++)
            tu_bytes_append(&b, "[", 1);
        for (int i = 0; i < 500; i++)
            tu_bytes_append(&b, "]", 1);
        tu_bytes_append(&b, k < 3 ? "," : "]", 1);
    }
    jt_run_mem(b.p, b.len, &j);
    CHECK(j.end == 0 && j.diags.n == 0, "four 501-deep runs: %s", jt_rules(&j));
    tu_bytes_free(&b);
    jt_free(&j);
}

/* ---- tc_json_skip ---- */

static void test_skip(void)
{
    const char *doc = "{\"a\":{\"b\":[1,2,{\"c\":3}]},\"d\":4,\"e\":[],\"f\":{\"g\":[{}]}}";
    tc_reader r;
    tc_reader_init_memory(&r, doc, strlen(doc));
    ot_result res = {0};
    tc_diag_sink s;
    ot_sink(&s, "skip", &res);
    tc_json *j = tc_json_new(&r, &s);
    tc_json_token t;
    CU_ASSERT(tc_json_next(j, &t) == 1 && t.kind == TC_JSON_OBJECT_BEGIN);
    CU_ASSERT(tc_json_next(j, &t) == 1 && t.kind == TC_JSON_KEY);
    CU_ASSERT(tc_json_next(j, &t) == 1 && t.kind == TC_JSON_OBJECT_BEGIN);
    CU_ASSERT_EQUAL(tc_json_skip(j, &t), 1);
    /* The next token is the sibling after the skipped value. */
    CHECK(tc_json_next(j, &t) == 1 && t.kind == TC_JSON_KEY && t.len == 1 && t.text[0] == 'd' &&
              t.offset == 25,
          "after skipping $.a: kind %d at %llu", t.kind, (unsigned long long)t.offset);
    CU_ASSERT(tc_json_next(j, &t) == 1 && t.kind == TC_JSON_NUMBER);
    /* A scalar: nothing more to read. */
    CU_ASSERT_EQUAL(tc_json_skip(j, &t), 1);
    CU_ASSERT(tc_json_next(j, &t) == 1 && t.kind == TC_JSON_KEY && t.text[0] == 'e');
    CU_ASSERT(tc_json_next(j, &t) == 1 && t.kind == TC_JSON_ARRAY_BEGIN);
    CU_ASSERT_EQUAL(tc_json_skip(j, &t), 1); /* an empty array */
    CU_ASSERT(tc_json_next(j, &t) == 1 && t.kind == TC_JSON_KEY && t.text[0] == 'f');
    CU_ASSERT_STRING_EQUAL(tc_json_path(j), "$.f");
    CU_ASSERT(tc_json_next(j, &t) == 1 && t.kind == TC_JSON_OBJECT_BEGIN);
    CU_ASSERT_EQUAL(tc_json_skip(j, &t), 1);
    CU_ASSERT(tc_json_next(j, &t) == 1 && t.kind == TC_JSON_OBJECT_END);
    CU_ASSERT_EQUAL(tc_json_depth(j), 0);
    CU_ASSERT_EQUAL(tc_json_next(j, &t), 0);
    CU_ASSERT_EQUAL(res.n, 0);
    tc_json_free(j);

    /* The whole document, from its first token. */
    const char *doc2 = "[[1],{\"x\":[2]}] ";
    tc_reader_init_memory(&r, doc2, strlen(doc2));
    j = tc_json_new(&r, &s);
    CU_ASSERT(tc_json_next(j, &t) == 1 && t.kind == TC_JSON_ARRAY_BEGIN);
    CU_ASSERT_EQUAL(tc_json_skip(j, &t), 1);
    CU_ASSERT_EQUAL(tc_json_next(j, &t), 0);
    tc_json_free(j);

    /* A skipped value is still checked: errors and duplicates inside it are
     * reported, and an error ends the document. */
    const char *doc3 = "{\"a\":{\"k\":1,\"k\":2,\"l\":[1,2,}}";
    tc_reader_init_memory(&r, doc3, strlen(doc3));
    j = tc_json_new(&r, &s);
    CU_ASSERT(tc_json_next(j, &t) == 1 && t.kind == TC_JSON_OBJECT_BEGIN);
    CU_ASSERT(tc_json_next(j, &t) == 1 && t.kind == TC_JSON_KEY);
    CU_ASSERT(tc_json_next(j, &t) == 1 && t.kind == TC_JSON_OBJECT_BEGIN);
    CU_ASSERT_EQUAL(tc_json_skip(j, &t), -1);
    CU_ASSERT_EQUAL(tc_json_next(j, &t), -1);
    OT_RULES(&res, "TC-JSON-DUPLICATE-KEY TC-JSON-SYNTAX");
    OT_AT(&res, "TC-JSON-SYNTAX", 27);
    tc_json_free(j);

    /* Trailing data after a skipped top-level value. */
    ot_free(&res);
    ot_sink(&s, "skip", &res);
    const char *doc4 = "{\"a\":[]} []";
    tc_reader_init_memory(&r, doc4, strlen(doc4));
    j = tc_json_new(&r, &s);
    CU_ASSERT(tc_json_next(j, &t) == 1);
    CU_ASSERT_EQUAL(tc_json_skip(j, &t), 1);
    CU_ASSERT_EQUAL(tc_json_next(j, &t), -1);
    OT_RULES(&res, "TC-JSON-TRAILING");
    tc_json_free(j);
    ot_free(&res);
}

/* tc_json_report: a caller's finding carries the token's location. */
static void test_report(void)
{
    const char *doc = "{\n \"a\": [10, 20]}";
    tc_reader r;
    tc_reader_init_memory(&r, doc, strlen(doc));
    ot_result res = {0};
    tc_diag_sink s;
    ot_sink(&s, "report", &res);
    tc_json *j = tc_json_new(&r, &s);
    tc_json_token t;
    while (tc_json_next(j, &t) > 0)
        if (t.kind == TC_JSON_NUMBER && t.u64 == 20)
            tc_json_report(j, &t, TC_RULE_OVNI_META_TYPE, "twenty");
    tc_json_free(j);
    OT_RULES(&res, "OVNI-META-TYPE");
    if (res.n == 1)
        CHECK(res.d[0].offset == 13 && res.d[0].line == 2 && res.d[0].column == 12 &&
                  !strcmp(res.d[0].path, "$.a[1]") && !strcmp(res.d[0].message, "twenty"),
              "report at %llu %u:%u %s", (unsigned long long)res.d[0].offset, res.d[0].line,
              res.d[0].column, res.d[0].path);
    ot_free(&res);
}

static const tu_test tests[] = {
    {"exact 64-bit integers", test_integers},
    {"string contents after unescaping", test_string_contents},
    {"long strings", test_long_strings},
    {"offsets, lines, columns (LF, CRLF, BOM)", test_offsets_lines_columns},
    {"JSON paths", test_paths},
    {"duplicate keys", test_duplicate_keys},
    {"depth 512 vs 513", test_depth},
    {"tc_json_skip", test_skip},
    {"tc_json_report", test_report},
    {NULL, NULL},
};

void register_json_values_suite(void) { tu_add_suite("json_values", tests); }
