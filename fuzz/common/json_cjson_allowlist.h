/*
 * Known differences between tracecheck's strict JSON tokenizer
 * (parsers/common/json.c, RFC 8259) and cJSON 1.7.15 (Debian's libcjson,
 * cJSON_ParseWithLengthOpts with its default options), for the
 * differential harness json_tokens. Every difference the harness meets must
 * belong to one of these classes, or it aborts: an unlisted difference is a
 * finding, in one reader or the other (or in this table).
 *
 *   JSON_CJSON_DIVERGENCE(NAME, KIND, EXPLAINS, THEN, REASON)
 *
 * NAME     C identifier; the harness has one condition per entry, checked on
 *          the input (see `applies` in json_tokens.c), and counts how often
 *          each applied.
 * KIND     JDIV_TC_REJECTS     tracecheck reports an error, cJSON returns a value:
 *                              cJSON does not check what the rules in EXPLAINS
 *                              check;
 *          JDIV_CJSON_REJECTS  tracecheck accepts, cJSON fails;
 *          JDIV_DERIVED        not a divergence: how cJSON's values are compared
 *                              with tracecheck's tokens.
 * EXPLAINS for JDIV_TC_REJECTS: the tracecheck rule ids of the error explained,
 *          space-separated.
 * THEN     what the harness compares after the difference: "stop" (nothing
 *          more: the readers saw different documents), "prefix" (the bytes
 *          cJSON read, compared again), "repair" (the input with the
 *          difference rewritten the way cJSON read it, compared again) or
 *          "values" (the documents, value by value).
 * REASON   why the readers differ, for docs/fuzzing.md (generated from this
 *          table by `make fuzz-docs`, checked by `make check`).
 *
 * The facts about cJSON come from its sources (cJSON.c: parse_value,
 * parse_number, parse_string, utf16_literal_to_utf8, buffer_skip_whitespace,
 * skip_utf8_bom, cJSON_ParseWithLengthOpts) and from running Debian's build,
 * whose parse_number carries the fix of CVE-2023-26819 (a number of any
 * length goes to strtod whole, not cut at 63 characters as before). Like
 * xray_llvm_allowlist.h, the table has no include guard: each user defines
 * JSON_CJSON_DIVERGENCE and includes it again (without the macro only the
 * kinds are declared).
 */
#ifndef TC_JSON_CJSON_ALLOWLIST_KINDS
#define TC_JSON_CJSON_ALLOWLIST_KINDS
enum { JDIV_TC_REJECTS = 1, JDIV_CJSON_REJECTS = 2, JDIV_DERIVED = 4 };
#endif

#ifdef JSON_CJSON_DIVERGENCE
/* ---- tracecheck rejects, cJSON accepts: checks cJSON does not make ---- */
JSON_CJSON_DIVERGENCE(CJSON_TRAILING_DATA, JDIV_TC_REJECTS,
    "TC-JSON-TRAILING TC-JSON-COMMENT TC-JSON-SYNTAX", "prefix",
    "With its default options cJSON returns the first value it can read and ignores the bytes "
    "after it: a second value, garbage, a comment, or the rest of a number it stopped short "
    "of (\"1e\" is the number 1 to it). RFC 8259 allows only white space after the value. "
    "Applies when tracecheck's error lies at or after the byte where cJSON stopped.")
JSON_CJSON_DIVERGENCE(CJSON_CONTROL_AS_WHITESPACE, JDIV_TC_REJECTS,
    "TC-JSON-SYNTAX", "repair",
    "cJSON skips every byte from 0x00 to 0x20 as white space; RFC 8259's white space is "
    "space, tab, line feed and carriage return only. Applies when the error is at such a byte "
    "outside a string; the harness makes it a space and compares again.")
JSON_CJSON_DIVERGENCE(CJSON_RAW_CONTROL_IN_STRING, JDIV_TC_REJECTS,
    "TC-JSON-SYNTAX", "repair",
    "cJSON copies a string's bytes as they are, control characters included; RFC 8259 requires "
    "U+0000 to U+001F to be escaped. Applies when the error is at such a byte inside a string; "
    "the harness escapes it (\\u00XX) and compares again.")
JSON_CJSON_DIVERGENCE(CJSON_BAD_HEX_ESCAPE, JDIV_TC_REJECTS,
    "TC-JSON-SYNTAX", "repair",
    "cJSON's parse_hex4 returns 0 for any four characters that are not all hexadecimal "
    "digits, so \\u12G4 decodes as U+0000 (which ends cJSON's string there); RFC 8259 requires "
    "four hexadecimal digits. Applies when the error is at such a \\u; the harness writes "
    "\\u0000 there and compares again.")
JSON_CJSON_DIVERGENCE(CJSON_LAX_NUMBERS, JDIV_TC_REJECTS,
    "TC-JSON-SYNTAX", "repair",
    "cJSON hands the characters of a number to strtod, which reads leading zeros (01), a point "
    "with no digit after it (1.) or before it (-.5): RFC 8259's grammar allows none of them. "
    "Applies when the error is inside a number that strtod reads past the error; the harness "
    "writes strtod's value as an RFC 8259 number there and compares again.")
JSON_CJSON_DIVERGENCE(CJSON_UNCHECKED_UTF8, JDIV_TC_REJECTS,
    "TC-JSON-ENCODING", "stop",
    "cJSON copies a string's bytes without checking that they are UTF-8; RFC 8259 section 8.1 "
    "requires UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF). Applies when "
    "the error is at a byte of 0x80 or more inside a string. (Escaped lone surrogates, which "
    "tracecheck also reports as TC-JSON-ENCODING, cJSON rejects too.)")
JSON_CJSON_DIVERGENCE(CJSON_DUPLICATE_KEYS, JDIV_TC_REJECTS,
    "TC-JSON-DUPLICATE-KEY", "values",
    "cJSON keeps every member of an object, repeated names included; tracecheck reports a "
    "repeated name as an error (RFC 8259 section 4: names SHOULD be unique, and readers "
    "differ) and reads on. Applies when the harness finds each repeated key itself; both "
    "documents are then compared member by member, duplicates included.")
JSON_CJSON_DIVERGENCE(CJSON_DEPTH_LIMIT, JDIV_TC_REJECTS,
    "TC-JSON-DEPTH", "stop",
    "cJSON nests arrays and objects up to 1000 levels (CJSON_NESTING_LIMIT), tracecheck up to "
    "512 (RFC 8259 section 9 lets a reader set its limit). Applies when tracecheck stops at "
    "its limit.")

/* ---- tracecheck accepts, cJSON rejects ---- */
JSON_CJSON_DIVERGENCE(CJSON_BOM_SHORT_INPUT, JDIV_CJSON_REJECTS,
    "", "stop",
    "cJSON skips a UTF-8 byte order mark only when at least two bytes follow it "
    "(skip_utf8_bom checks index 4), so a BOM and a one-digit number fail; tracecheck ignores "
    "the mark with a warning (TC-JSON-BOM) whatever follows. Applies to inputs of fewer than "
    "5 bytes that start with the mark.")
/* ---- how the values are compared ---- */
JSON_CJSON_DIVERGENCE(CJSON_NUL_ENDS_STRINGS, JDIV_DERIVED,
    "", "values",
    "cJSON's strings and names are C strings: \\u0000 ends them. Strings are compared up to "
    "their first U+0000, and cJSON's must end there.")
JSON_CJSON_DIVERGENCE(CJSON_NUMBERS_AS_DOUBLES, JDIV_DERIVED,
    "", "values",
    "cJSON keeps a number as the double strtod makes of it. tracecheck keeps the text and, "
    "for integers, the exact 64-bit value: the text must give cJSON's double through strtod, "
    "an integer within 64 bits must convert to the same double (exactly equal up to 2^53), and "
    "one beyond must be at least 2^64 (or at most -2^63).")
JSON_CJSON_DIVERGENCE(CJSON_BOM_IGNORED, JDIV_DERIVED,
    "", "values",
    "Both readers skip a UTF-8 byte order mark at the start; tracecheck warns (TC-JSON-BOM), "
    "which is not a rejection.")
#endif /* JSON_CJSON_DIVERGENCE */
