/*
 * Deterministic choices for the generators. Two sources behind one API:
 * xoshiro256** seeded through splitmix64 (same seed, same bytes, on every
 * platform), or a fuzzer's input read as a stream of choices (zeros once it
 * runs out), so that round-trip harnesses let the fuzzer steer generation.
 */
#ifndef TC_RNG_H
#define TC_RNG_H

#include <stddef.h>
#include <stdint.h>

typedef struct tc_rng {
    uint64_t s[4];
    const uint8_t *bytes; /* choice stream, or NULL for xoshiro */
    size_t len, pos;
} tc_rng;

void tc_rng_seed(tc_rng *r, uint64_t seed);
void tc_rng_from_bytes(tc_rng *r, const uint8_t *bytes, size_t len);

uint64_t tc_rng_u64(tc_rng *r);
/* Uniform in [0, n); 0 when n is 0. */
uint64_t tc_rng_below(tc_rng *r, uint64_t n);
/* Uniform in [lo, hi]. */
uint64_t tc_rng_range(tc_rng *r, uint64_t lo, uint64_t hi);
/* True with probability num/den. */
int tc_rng_chance(tc_rng *r, unsigned num, unsigned den);
void tc_rng_fill(tc_rng *r, uint8_t *out, size_t n);

#endif
