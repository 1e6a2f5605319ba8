/*
 * What DCFG and DCFG-trace share (spec/dcfg/dcfg.md): the integer forms of
 * ruling 4, the id range of ruling 5, table header tags (ruling 3) and the
 * version rule (ruling 8). Each check reports through the tokenizer, so a
 * finding carries the byte offset, line:column and JSON path of the value.
 */
#ifndef TC_DCFG_COMMON_H
#define TC_DCFG_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "../common/fields.h"
#include "../common/json.h"

/* An "Integer" of the format: a JSON integer literal (no fraction, no
 * exponent, not negative) or a string of decimal digits or 0x/0X + hex
 * digits, exact to 64 bits. `what` names the field in the message
 * ("EDGE_ID"). Returns 1 and sets *out, or reports DCFG-INTEGER and returns
 * 0. */
int tc_dcfg_int(tc_json *j, const tc_json_token *t, const char *what, uint64_t *out);

/* An id (ruling 5): an integer in 1..0x7FFFFFFF, or 0 as well when
 * zero_ok (IMAGE_ID, PARENT_LOOP_HEAD_NODE_ID). Reports DCFG-INTEGER or
 * DCFG-ID-RANGE and returns 0 when it is not one. */
int tc_dcfg_id(tc_json *j, const tc_json_token *t, const char *what, int zero_ok, uint64_t *out);

/* A table header tag (ruling 3): a string matching [A-Z0-9_]+. Reports
 * DCFG-TABLE-TAG and returns 0 when it is not. */
int tc_dcfg_tag(tc_json *j, const tc_json_token *t);

/* MAJOR_VERSION (ruling 8): 1 is read, 0 is a warning, more is an error
 * (DCFG-VERSION-MAJOR / DCFG-VERSION-ZERO). Returns 0 when the rest of the
 * document cannot be read under this version. */
int tc_dcfg_major_version(tc_json *j, const tc_json_token *t, uint64_t major);

/* Grows a vector of elem-byte items to hold need of them, doubling (from 16);
 * 0 when out of memory or when the size would overflow. Shared by the DCFG
 * and DCFG-trace readers. */
int tc_dcfg_grow(void **v, size_t *cap, size_t need, size_t elem);

/* ---- the view of `tracecheck show` (fields.h; spec/dcfg/dcfg.md, "The view of
 * `tracecheck show`") ----
 *
 * Records are a table's header and rows, and the members of an object that
 * has no rows (MAJOR_VERSION, INSTR_COUNT...), all text. A field is one
 * value's token, [t->offset, end) with end the reader's position once the
 * value is read, named as the canonical dump names it. Callers test
 * TC_FIELDS_WANT(d) first, so that a parse without a view pays one test. */

/* A field with its decoded value. */
void tc_dcfg_field(tc_diag_sink *d, const tc_json_token *t, uint64_t end, const char *name,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* An Integer field (tc_dcfg_int) or an id (tc_dcfg_id): its value, and the
 * hex the document wrote when a string wrote it so; ok 0: what it is not. */
void tc_dcfg_field_int(tc_diag_sink *d, const tc_json_token *t, uint64_t end, const char *name,
                       int ok, uint64_t v);
void tc_dcfg_field_id(tc_diag_sink *d, const tc_json_token *t, uint64_t end, const char *name,
                      int ok, uint64_t v);
/* A string field: its text, quoted and cut to what a value holds. */
void tc_dcfg_field_str(tc_diag_sink *d, const tc_json_token *t, uint64_t end, const char *name);
/* A member of an object that is a record of its own: from its key k. The
 * record ends with tc_fields_record_end once its value is read. */
void tc_dcfg_member(tc_diag_sink *d, const tc_json_token *k, const char *object, int known);

#endif
