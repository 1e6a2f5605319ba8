/*
 * Vector kernels of DCFG-trace edge-id sequences (parsers/common/simd.h):
 * the compiler's Base64 runs, classified and converted 64 characters at a
 * time, and the decoder's runs of one character, measured 64 at a time.
 * Each has a scalar version, the reference, and SSE2, AVX2 and AVX-512
 * versions that return the same values and write the same bytes;
 * tc_dtrc_kernels_for() picks the set of a level, once per string.
 */
#ifndef TC_DTRC_SIMD_H
#define TC_DTRC_SIMD_H

#include <stddef.h>
#include <stdint.h>

#include "../common/simd.h"

typedef struct tc_dtrc_kernels {
    /* Converts the modified Base64 characters (A-Z a-z 0-9 + -, not '.')
     * at the start of s[0..n) into their values at out; returns how many
     * there were. out has room for n values (bytes past the count may be
     * written, with anything). */
    size_t (*b64)(const uint8_t *s, size_t n, uint8_t *out);
    /* How many bytes at the start of p[0..n) equal v. */
    size_t (*same)(const uint8_t *p, size_t n, uint8_t v);
} tc_dtrc_kernels;

const tc_dtrc_kernels *tc_dtrc_kernels_for(tc_simd_level level);

/* The value of each byte as modified Base64 (ruling 1): 0..63,
 * TC_DTRC_B64_DOT for '.' (63, counted for its warning), TC_DTRC_B64_NONE
 * for anything else. */
enum { TC_DTRC_B64_DOT = 0x80, TC_DTRC_B64_NONE = 0xff };
extern const uint8_t tc_dtrc_b64_tab[256];

#endif
