/*
 * tracecheck's JSON tokenizer against cJSON (Debian's libcjson, in the same
 * process): on a document both read whole, value by value (kinds, member
 * names in order, repeated ones included, strings byte for byte, numbers
 * through strtod and exactly as integers); where one accepts and the other
 * does not, the difference must belong to a class of
 * json_cjson_allowlist.h whose condition holds on the input, or the oracle
 * aborts. Some classes let the comparison go on, on the bytes cJSON read or
 * on the input rewritten as cJSON read it, for up to rounds rounds (each a
 * new tokenization, checked by json_oracle.h).
 *
 * Environment: JSON_DIFFERENTIAL_STATS=1 prints at exit how many inputs
 * agreed and how many fell in each class; JSON_DIFFERENTIAL_VERBOSE=1 one
 * line per round; JSON_DIFFERENTIAL_TRAP=CLASS aborts on inputs of that
 * class (with libFuzzer's -minimize_crash=1: a small example of it).
 */
#ifndef TC_FUZZ_JSON_CJSON_ORACLE_H
#define TC_FUZZ_JSON_CJSON_ORACLE_H

#include "json_events.h"

/* run: the tokenizer's run on the size bytes at p (round 0). */
void jc_differential(const jrun *run, const uint8_t *p, size_t size, int rounds);

#endif
