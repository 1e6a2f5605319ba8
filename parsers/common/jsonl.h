/*
 * Writer of one-line JSON objects (the canonical dump and JSON reports).
 * 64-bit quantities go out as decimal strings (tc_jl_u64s) so that readers
 * that parse numbers as doubles lose nothing.
 */
#ifndef TC_JSONL_H
#define TC_JSONL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A line is built in buf and written with one fwrite at its end (or when
 * buf fills, for long payloads): per-character stdio calls made dumps slow. */
typedef struct tc_jsonl {
    FILE *f;
    int fields; /* fields written in the current object */
    int items;  /* items written in the current array */
    int outer;  /* fields of the enclosing object, while in a nested one */
    size_t len;
    char buf[8192];
} tc_jsonl;

void tc_jl_begin(tc_jsonl *w, const char *type); /* {"t":"type" */
void tc_jl_open(tc_jsonl *w);                     /* { */
void tc_jl_end(tc_jsonl *w);                      /* }\n */
void tc_jl_u64s(tc_jsonl *w, const char *key, uint64_t v);
void tc_jl_i64s(tc_jsonl *w, const char *key, int64_t v);
void tc_jl_int(tc_jsonl *w, const char *key, int64_t v);
void tc_jl_uint(tc_jsonl *w, const char *key, uint64_t v);
void tc_jl_bool(tc_jsonl *w, const char *key, int v);
void tc_jl_str(tc_jsonl *w, const char *key, const char *s);
void tc_jl_null(tc_jsonl *w, const char *key);
void tc_jl_hex(tc_jsonl *w, const char *key, const uint8_t *p, size_t n);
/* n bytes as a string of n characters, each byte the code point of the same
 * value (U+0000 to U+00FF, escaped as \u00XX outside printable ASCII): any
 * bytes, a NUL or a byte above 0x7F included, give valid JSON. */
/* Arrays: "key":[1,2,3] of JSON numbers (ids), or "key":["1","2"] of
 * decimal strings (64-bit values, as tc_jl_u64s). Any length: the line is
 * flushed as the buffer fills. */
void tc_jl_u32_array(tc_jsonl *w, const char *key, const uint32_t *v, size_t n);
void tc_jl_u64s_array(tc_jsonl *w, const char *key, const uint64_t *v, size_t n);
/* The same one item at a time, for values that are not contiguous:
 * begin, any number of items of either kind, end. */
void tc_jl_array_begin(tc_jsonl *w, const char *key);
void tc_jl_array_uint(tc_jsonl *w, uint64_t v);
void tc_jl_array_u64s(tc_jsonl *w, uint64_t v);
void tc_jl_array_i64s(tc_jsonl *w, int64_t v);
/* A string item, or null when s is NULL (a name that is not known). */
void tc_jl_array_str(tc_jsonl *w, const char *s);
void tc_jl_array_end(tc_jsonl *w);
/* A nested object, "key":{...}: begin, its fields, end (one level). */
void tc_jl_object_begin(tc_jsonl *w, const char *key);
void tc_jl_object_end(tc_jsonl *w);
void tc_jl_latin1(tc_jsonl *w, const char *key, const uint8_t *p, size_t n);

/* A JSON string literal, quotes included, escaped per RFC 8259. */
void tc_json_write_string(FILE *f, const char *s);

#endif
