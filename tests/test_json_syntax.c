/* The strict JSON tokenizer against RFC 8259: every y_/n_ document of
 * tests/json_cases.c gets its verdict, its one rule and its offset, and the
 * messages say what was expected and what was found. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ot.h"
#include "suites.h"

static int single_line(const jt_case *c)
{
    return !memchr(c->doc, '\n', c->len) && !(c->len >= 3 && !memcmp(c->doc, "\xef\xbb\xbf", 3));
}

static void test_cases(void)
{
    jt_run j = {0};
    for (size_t i = 0; i < jt_ncases; i++) {
        const jt_case *c = &jt_cases[i];
        jt_run_mem(c->doc, c->len, &j);
        CHECK(j.end == c->end, "%s: tokenizer ended with %d, expected %d (findings: %s; tokens: %s)",
              c->name, j.end, c->end, jt_rules(&j), jt_describe(&j));
        CHECK(!strcmp(jt_rules(&j), c->rules), "%s: findings [%s], expected [%s]%s", c->name,
              jt_rules(&j), c->rules, ot_describe(&j.diags));
        if (c->at >= 0 && j.diags.n)
            CHECK(j.diags.d[0].offset == (uint64_t)c->at, "%s: first finding at %llu, expected %lld (%s)",
                  c->name, (unsigned long long)j.diags.d[0].offset, c->at, j.diags.d[0].message);
        for (size_t k = 0; k < j.diags.n; k++) {
            const ot_diag *d = &j.diags.d[k];
            /* Every JSON finding is located: line:column and a path. */
            CHECK(d->line >= 1 && d->column >= 1 && d->path && d->path[0] == '$',
                  "%s: finding %s without line:column or path", c->name, d->rule->id);
            if (single_line(c))
                CHECK(d->line == 1 && d->column == d->offset + 1,
                      "%s: %s at offset %llu is at %u:%u", c->name, d->rule->id,
                      (unsigned long long)d->offset, d->line, d->column);
            CHECK(d->message && strlen(d->message) > 10, "%s: empty message", c->name);
        }
        /* An accepted document has tokens, and the tokens balance. */
        if (c->end == 0) {
            long depth = 0;
            for (size_t k = 0; k < j.n; k++) {
                tc_json_kind kind = j.t[k].kind;
                depth += kind == TC_JSON_OBJECT_BEGIN || kind == TC_JSON_ARRAY_BEGIN;
                depth -= kind == TC_JSON_OBJECT_END || kind == TC_JSON_ARRAY_END;
            }
            CHECK(j.n > 0 && depth == 0, "%s: %zu tokens, depth %ld at the end", c->name, j.n,
                  depth);
        }
    }
    jt_free(&j);
}

/* The messages name what was expected and what was found. */
static void test_messages(void)
{
    static const struct {
        const char *doc, *rule, *needle;
    } cases[] = {
        {"[1 2]", "TC-JSON-SYNTAX", "expected ',' or ']', found '2'"},
        {"{\"a\" 1}", "TC-JSON-SYNTAX", "expected ':' after the key, found '1'"},
        {"{\"a\":1,}", "TC-JSON-SYNTAX", "found '}'"},
        {"[1,]", "TC-JSON-SYNTAX", "no trailing comma"},
        {"", "TC-JSON-SYNTAX", "the end of the input"},
        {"[\x01]", "TC-JSON-SYNTAX", "byte 0x01"},
        {"01", "TC-JSON-SYNTAX", "leading zero"},
        {"\"a\tb\"", "TC-JSON-SYNTAX", "control character 0x09"},
        {"\"\\q\"", "TC-JSON-SYNTAX", "unknown escape \\'q'"},
        {"\"\\u12\"", "TC-JSON-SYNTAX", "4 hexadecimal digits"},
        {"\"abc", "TC-JSON-SYNTAX", "ends inside a string"},
        {"\"\\uDC00\"", "TC-JSON-ENCODING", "\\udc00 is a low surrogate"},
        {"\"\\uD800x\"", "TC-JSON-ENCODING", "\\ud800 is a high surrogate"},
        {"\"\xff\"", "TC-JSON-ENCODING", "byte 0xff cannot start"},
        {"\"\xe2\x28\xa1\"", "TC-JSON-ENCODING", "byte 0x28 is not a continuation"},
        {"\"\xe0\x80\xaf\"", "TC-JSON-ENCODING", "overlong"},
        {"\"\xed\xa0\x80\"", "TC-JSON-ENCODING", "surrogate encoded in UTF-8"},
        {"\"\xf4\x90\x80\x80\"", "TC-JSON-ENCODING", "above U+10FFFF"},
        {"{}/* x */", "TC-JSON-COMMENT", "/* */ comment"},
        {"// x\n1", "TC-JSON-COMMENT", "// comment"},
        {"{} x", "TC-JSON-TRAILING", "'x'"},
        {"{}\x01", "TC-JSON-TRAILING", "byte 0x01"},
        {"{\"a\":1,\"a\":2}", "TC-JSON-DUPLICATE-KEY", "key \"a\" appears twice in this object (first at 1:2)"},
        {"\xef\xbb\xbf{}", "TC-JSON-BOM", "byte order mark"},
    };
    jt_run j = {0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        jt_run_str(cases[i].doc, &j);
        const ot_diag *d = ot_find(&j.diags, cases[i].rule, cases[i].needle);
        CHECK(d != NULL, "\"%s\": no %s finding saying \"%s\":%s", cases[i].doc, cases[i].rule,
              cases[i].needle, ot_describe(&j.diags));
    }
    jt_free(&j);
}

/* The error ends the document: nothing after it is reported, however bad. */
static void test_first_error_ends(void)
{
    jt_run j = {0};
    jt_run_str("[1,,2,\"\xff\", 01, // x\n] trailing", &j);
    OT_RULES(&j.diags, "TC-JSON-SYNTAX");
    CU_ASSERT_EQUAL(j.end, -1);
    /* The tokens before the error were delivered. */
    CHECK(j.n == 2 && j.t[0].kind == TC_JSON_ARRAY_BEGIN && j.t[1].kind == TC_JSON_NUMBER,
          "tokens: %s", jt_describe(&j));
    jt_free(&j);
}

static const tu_test tests[] = {
    {"y/n documents: verdict, rule, offset", test_cases},
    {"messages name expected and found", test_messages},
    {"the first error ends the document", test_first_error_ends},
    {NULL, NULL},
};

void register_json_syntax_suite(void) { tu_add_suite("json_syntax", tests); }
