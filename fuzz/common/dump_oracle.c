/* The canonical dump's form: see dump_oracle.h. */
#define _POSIX_C_SOURCE 200809L /* strndup */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "../../parsers/common/json.h"
#include "dump_oracle.h"

/* One line: strict JSON (tracecheck's own tokenizer, RFC 8259). */
void od_check_json_line(const char *line, size_t len, size_t lineno)
{
    tc_reader r;
    tc_reader_init_memory(&r, line, len);
    hx_findings d;
    tc_diag_sink sink;
    hx_sink_init(&sink, &d, 1, 0);
    tc_json *j = tc_json_new(&r, &sink);
    FUZZ_CHECK_ALLOC(j);
    tc_json_token t;
    while (tc_json_next(j, &t) > 0)
        ;
    tc_json_free(j);
    hx_sink_finish(&sink, &d);
    if (d.n) {
        hx_print_finding(stderr, "dump", &d.v[0]);
        FUZZ_FAIL("dump line %zu is not strict JSON: %.*s", lineno, (int)(len > 200 ? 200 : len),
                  line);
    }
    hx_findings_free(&d);
}

/* One dump line: a complete strict JSON object whose first member is "t";
 * *t gets that member's value (malloc'd), and *format the "format" member's
 * when there is one. */
static void check_line(const char *p, size_t n, size_t lineno, char **t, char **format)
{
    tc_reader r;
    tc_reader_init_memory(&r, p, n);
    hx_findings d;
    tc_diag_sink sink;
    hx_sink_init(&sink, &d, 1, 0);
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
    hx_sink_finish(&sink, &d);
    if (rc != 0 || d.n) {
        for (size_t i = 0; i < d.n && i < 3; i++)
            hx_print_finding(stderr, "dump line", &d.v[i]);
        FUZZ_FAIL("dump line %zu is not one strict JSON value: %.*s", lineno,
                  (int)(n < 200 ? n : 200), p);
    }
    hx_findings_free(&d);
}

void od_check_dump(const char *dump, size_t len, const char *format, int may_be_empty)
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

