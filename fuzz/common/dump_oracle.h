/*
 * The canonical dump's form (spec/canonical-dump.md), whatever the format:
 * one strict JSON object per line (read by the library's RFC 8259
 * tokenizer), each starting with its "t" member, the header first.
 */
#ifndef TC_FUZZ_DUMP_ORACLE_H
#define TC_FUZZ_DUMP_ORACLE_H

#include <stddef.h>

/* Aborts unless the len bytes at line are one strict JSON value. */
void od_check_json_line(const char *line, size_t len, size_t lineno);

/* Every line is one strict JSON object ending in LF whose first member is
 * "t"; the first is the header naming format, and only the first. A dump
 * may be empty only when may_be_empty (an input with an error may leave
 * nothing readable). */
void od_check_dump(const char *dump, size_t len, const char *format, int may_be_empty);

#endif
