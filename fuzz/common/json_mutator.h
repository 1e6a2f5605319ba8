/*
 * A structure-aware mutator for JSON documents (DCFG, DCFG-trace, ovni
 * metadata, any JSON), shared by the libFuzzer builds of the JSON, ovni
 * metadata and DCFG harnesses (LLVMFuzzerCustomMutator) and AFL++
 * (fuzz/afl_mutator.c).
 *
 * The input is cut into tokens as a lenient reader would (strings with their
 * escapes, numbers, literals, brackets, separators; anything else is a byte
 * of its own) and brackets are matched, so that a value is a token or a
 * bracket through its match. Mutations work on values: a number replaced by
 * one on an edge (0, -0, leading zeros, 2^31, 2^32, 2^53 + 1, 2^63, 2^64
 * and their neighbours, exponents, what RFC 8259 refuses) or by another
 * number of the document (a node id of a DCFG's edge becomes another node's:
 * graphs of any shape); a string by another string of the document, or with
 * escapes and bytes on the edges of RFC 8259 and UTF-8 (surrogate pairs,
 * lone surrogates, \u0000, control characters, overlong and surrogate
 * UTF-8); a value deleted, duplicated (a member: its key too), swapped with
 * a sibling, replaced by another value of the document, wrapped in an array
 * or object; a container's type changed; the document cut, or given a byte
 * order mark, trailing data or a trailing comma. One call in five, and
 * every input with no value, goes to byte-level mutation.
 */
#ifndef TC_FUZZ_JSON_MUTATOR_H
#define TC_FUZZ_JSON_MUTATOR_H

#include "mutator.h"

size_t json_mutate(uint8_t *data, size_t size, size_t max_size, unsigned seed,
                   mut_bytes_fn bytes);
/* a with one of its values replaced by a value of b. */
size_t json_cross_over(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, uint8_t *out,
                       size_t max_size, unsigned seed);

#endif
