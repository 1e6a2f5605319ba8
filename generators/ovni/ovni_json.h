/*
 * A small JSON document for writing ovni metadata (stream.json): objects
 * with their members in the order they were added, arrays, and values held
 * as the text to write. Holding text rather than typed values is what lets
 * a mutator write 3.0 where 3 was due, a key twice, a comment or bytes that
 * are not UTF-8: the writer copies a value's text verbatim.
 *
 * The writer lays the document out in one of a few styles (pretty with an
 * indent, compact, compact with spaces) and records where each node went,
 * so that byte-level mutations know where the ovni object ends.
 * Allocation failure aborts (generators only).
 */
#ifndef TC_OVNI_JSON_H
#define TC_OVNI_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "../common/bytebuf.h"

typedef enum ovni_jkind {
    OJ_OBJECT,
    OJ_ARRAY,
    OJ_TEXT,   /* a value, written as its text */
    OJ_MEMBER, /* a whole member written as its text (key included): broken syntax */
} ovni_jkind;

typedef struct ovni_json ovni_json;
struct ovni_json {
    ovni_jkind kind;
    char *key;         /* a member's name as written between its quotes; NULL otherwise */
    char *text;        /* OJ_TEXT, OJ_MEMBER */
    ovni_json **kids;  /* OJ_OBJECT, OJ_ARRAY */
    size_t n, cap;
    uint64_t begin, end; /* where the writer put it: its first byte, one past its last */
};

ovni_json *ovni_json_object(void);
ovni_json *ovni_json_array(void);
/* A value whose text is printf-formatted (a number, true, a quoted string...). */
ovni_json *ovni_json_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A string value, escaped as JSON needs. */
ovni_json *ovni_json_string(const char *s);
void ovni_json_free(ovni_json *j);

/* Adds child to an object (key: the name as written, escapes included) or
 * an array (key NULL) at index at (at >= n: at the end). Returns child. */
ovni_json *ovni_json_insert(ovni_json *parent, size_t at, const char *key, ovni_json *child);
ovni_json *ovni_json_add(ovni_json *parent, const char *key, ovni_json *child);
/* A member written verbatim: text is the whole "key": value (or anything). */
ovni_json *ovni_json_add_member_text(ovni_json *parent, size_t at, const char *text);

/* The index of the first member named key, or -1. */
long ovni_json_find(const ovni_json *obj, const char *key);
ovni_json *ovni_json_get(const ovni_json *obj, const char *key);
/* Removes (and frees) the child at index i. */
void ovni_json_remove(ovni_json *parent, size_t i);
/* Replaces the value of the child at index i, keeping its key. */
void ovni_json_replace(ovni_json *parent, size_t i, ovni_json *value);
/* A deep copy. */
ovni_json *ovni_json_copy(const ovni_json *j);

typedef struct ovni_json_style {
    const char *indent;  /* NULL: everything on one line */
    const char *newline; /* with indent: "\n" or "\r\n" */
    int spaces;          /* one line: a space after ':' and ',' */
} ovni_json_style;

/* Appends the document, then a newline; sets begin/end of every node
 * (offsets in out). */
void ovni_json_write(tc_bytebuf *out, ovni_json *root, const ovni_json_style *style);

#endif
