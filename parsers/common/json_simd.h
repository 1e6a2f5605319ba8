/*
 * The JSON tokenizer's first stage (json.c): byte classes found 64 bytes at
 * a time, as bitmasks, in the manner of simdjson's structural index
 * (Langdale and Lemire, "Parsing gigabytes of JSON per second"). A block of
 * 64 input bytes becomes a 64-bit mask per class (bit i for byte i); the
 * tokenizer walks these masks instead of testing bytes one by one:
 *
 * - in a string, the bytes that end a plain run: a quote, a backslash, a
 *   control character (below 0x20, an error) or a byte of 0x80 and above
 *   (UTF-8, validated on its own). A string of plain text is crossed a
 *   block at a time, and copied out at once;
 * - between tokens, the bytes that are not white space and the newlines
 *   among those that are, so that line:column are counted with a popcount
 *   per block, never per byte.
 *
 * Each kernel has a scalar version, the reference, and SSE2, AVX2 and
 * AVX-512 versions (parsers/common/simd.h); tc_json_kernels() picks the set
 * of the level in force, once per tokenizer. Every version returns the same
 * value on the same bytes.
 */
#ifndef TC_JSON_SIMD_H
#define TC_JSON_SIMD_H

#include <stddef.h>
#include <stdint.h>

#include "simd.h"

typedef struct tc_json_kernels {
    /* The index of the first byte of p[0..n) that ends a plain string run
     * ('"', '\\', below 0x20, 0x80 and above), or n. */
    size_t (*plain)(const uint8_t *p, size_t n);
    /* The index of the first byte of p[0..n) that is not white space
     * (' ', '\t', '\r', '\n'), or n; *newlines gets the newlines before it
     * and *last_nl the index of the last of them (untouched when none). */
    size_t (*space)(const uint8_t *p, size_t n, uint64_t *newlines, size_t *last_nl);
} tc_json_kernels;

/* The kernels of a level (lowered to what the CPU and the build can run). */
const tc_json_kernels *tc_json_kernels_for(tc_simd_level level);

#endif
