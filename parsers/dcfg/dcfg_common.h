/*
 * What DCFG and DCFG-trace share (spec/dcfg.md): the integer forms of
 * ruling 4, the id range of ruling 5, table header tags (ruling 3) and the
 * version rule (ruling 8). Each check reports through the tokenizer, so a
 * finding carries the byte offset, line:column and JSON path of the value.
 */
#ifndef TC_DCFG_COMMON_H
#define TC_DCFG_COMMON_H

#include <stddef.h>
#include <stdint.h>

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

#endif
