/*
 * Independent checks of one run of the strict JSON tokenizer, from RFC 8259
 * and the tokenizer's contract (parsers/common/json.h), on the input's
 * bytes:
 *
 *  - tokens are well formed: in order, not overlapping, inside the input,
 *    at the byte their kind starts with, with only white space and exactly
 *    the ':' and ',' the grammar puts between them, properly nested, at the
 *    depth the tokenizer says, with line:column computed from the bytes; a
 *    number is the input's text, follows RFC 8259's grammar, and has the
 *    integer value, sign and 64-bit fit computed again here; a string's
 *    text is its bytes with the escapes decoded here (surrogate pairs to one
 *    code point); a complete document leaves only white space;
 *  - findings are well formed: TC rules with the catalogue's severity, one
 *    line of UTF-8, line:column matching the offset, a JSON path; one error
 *    ends the document (repeated keys excepted) and is the last finding;
 *    TC-JSON-DUPLICATE-KEY exactly at each repeated key (found here by
 *    sorting each object's keys), TC-JSON-BOM exactly for a leading BOM.
 */
#ifndef TC_FUZZ_JSON_ORACLE_H
#define TC_FUZZ_JSON_ORACLE_H

#include "json_events.h"

void jo_check_run(const jrun *run, const uint8_t *p, size_t n);

/* Whether p[0..n) is a complete RFC 8259 number. */
int jo_rfc_number(const uint8_t *p, size_t n);
/* RFC 8259 white space. */
int jo_ws(uint8_t c);
/* Whether a finding ends the document (all but repeated keys and the BOM). */
int jo_is_fatal(tc_rule_id r);

#endif
