/*
 * Strict streaming JSON (RFC 8259): a pull tokenizer over a tc_reader.
 *
 *   tc_json *j = tc_json_new(reader, diags);
 *   tc_json_token t;
 *   while (tc_json_next(j, &t) > 0) { ... t.kind ... }
 *   tc_json_free(j);
 *
 * Every token carries its byte offset and line:column; tc_json_path() gives
 * the JSON path of the value being read ("$.ovni.loom_cpus[3].phyid").
 * Numbers keep their text and, for integers, the exact 64-bit value (never
 * through a double). Duplicate keys are detected per object and reported;
 * reading goes on. Any other error is reported (TC-JSON-*) and ends the
 * document: JSON has no point to resynchronise at. Memory: the nesting stack (bounded depth), the current
 * string, and the keys of the objects being read.
 */
#ifndef TC_JSON_H
#define TC_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "reader.h"

#define TC_JSON_MAX_DEPTH 512
/* Strings longer than this are an error: no format read here has them, and
 * the tokenizer holds a string whole. */
#define TC_JSON_MAX_STRING (16u << 20)

typedef enum tc_json_kind {
    TC_JSON_OBJECT_BEGIN = 1,
    TC_JSON_OBJECT_END,
    TC_JSON_ARRAY_BEGIN,
    TC_JSON_ARRAY_END,
    TC_JSON_KEY,
    TC_JSON_STRING,
    TC_JSON_NUMBER,
    TC_JSON_TRUE,
    TC_JSON_FALSE,
    TC_JSON_NULL,
} tc_json_kind;

typedef struct tc_json_token {
    tc_json_kind kind;
    uint64_t offset;       /* of the token's first byte */
    uint32_t line, column; /* 1-based; column in bytes */
    /* KEY and STRING: the unescaped UTF-8 text (NUL-terminated; may hold
     * NULs from \u0000, so use len). NUMBER: the number as written. Valid
     * until the next call. */
    const char *text;
    size_t len;
    /* NUMBER */
    int integer;           /* no fraction and no exponent */
    int negative;
    int fits;              /* integer within int64 (negative) or uint64 (not) */
    int64_t i64;           /* when integer, fits and negative */
    uint64_t u64;          /* when integer, fits and not negative */
} tc_json_token;

typedef struct tc_json tc_json;

/* A tokenizer reporting into d. Returns NULL when out of memory. */
tc_json *tc_json_new(tc_reader *r, tc_diag_sink *d);
void tc_json_free(tc_json *j);

/* The next token: 1, or 0 at the end of a complete document, or -1 after an
 * error (already reported). After 0 or -1 every call returns the same. */
int tc_json_next(tc_json *j, tc_json_token *t);

/* Depth of the value just returned: 1 for the top-level value and the
 * tokens directly inside it... the depth of containers being read. */
unsigned tc_json_depth(const tc_json *j);

/* The JSON path of the token just returned, e.g. "$.a[2].b". */
const char *tc_json_path(tc_json *j);

/* A token's kind as the diagnostics name it: "an object", "an array", "a
 * string", "a number", "a boolean", "null". */
const char *tc_json_kind_name(tc_json_kind k);

/* Reports a finding about the token just returned (a schema check of the
 * caller), with its offset, line:column and path. */
void tc_json_report(tc_json *j, const tc_json_token *t, tc_rule_id rule, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The same with related offsets and named values (x may be NULL). */
void tc_json_report_ex(tc_json *j, const tc_json_token *t, tc_rule_id rule, const tc_diag_extra *x,
                       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Reads and checks the rest of the value whose first token was just
 * returned (nothing more for a scalar). Returns 1, or -1 after an error. */
int tc_json_skip(tc_json *j, const tc_json_token *first);

#endif
