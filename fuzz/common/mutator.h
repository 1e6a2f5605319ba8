/*
 * What the structure-aware mutators share: the engine's byte mutation as a
 * callback, a random source seeded by the engine, byte-order helpers, and a
 * small byte mutation of their own for hosts with no engine (the regression
 * driver, AFL++'s custom mutator libraries). libc only: the mutators build
 * into the harnesses and into the shared objects afl-fuzz loads.
 *
 * Every mutator has the same two entry points, which HX_CUSTOM_MUTATOR
 * (harness.h) and fuzz/afl_mutator.c wire to the engines:
 *
 *   size_t X_mutate(uint8_t *data, size_t size, size_t max_size, unsigned seed,
 *                   mut_bytes_fn bytes);
 *   size_t X_cross_over(const uint8_t *a, size_t na, const uint8_t *b, size_t nb,
 *                       uint8_t *out, size_t max_size, unsigned seed);
 */
#ifndef TC_FUZZ_MUTATOR_H
#define TC_FUZZ_MUTATOR_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The engine's own byte mutation: LLVMFuzzerMutate's contract (mutate
 * data[0..size) in place within max_size, return the new size). */
typedef size_t (*mut_bytes_fn)(uint8_t *data, size_t size, size_t max_size);

typedef struct mut_rng {
    uint64_t s;
} mut_rng;

/* Appends p[0..n) to out at offset at, as much as fits in max bytes: a
 * mutator writing its model back stops at the engine's size limit. Returns
 * the new offset. */
static inline size_t mut_put(uint8_t *out, size_t at, size_t max, const uint8_t *p, size_t n)
{
    if (at >= max)
        return at;
    size_t k = n < max - at ? n : max - at;
    memcpy(out + at, p, k);
    return at + k;
}

static inline void mut_seed(mut_rng *r, unsigned seed)
{
    r->s = 0x9e3779b97f4a7c15ull ^ ((uint64_t)seed << 1 | 1);
}

static inline uint64_t mut_next(mut_rng *r)
{
    /* xorshift64*: enough for mutation choices, and the same on every build */
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545f4914f6cdd1dull;
}

static inline size_t mut_below(mut_rng *r, size_t n) { return n ? (size_t)(mut_next(r) % n) : 0; }
static inline int mut_one_in(mut_rng *r, unsigned n) { return mut_below(r, n) == 0; }

static inline uint64_t mut_rd(const uint8_t *p, int n, int be)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (uint64_t)p[be ? n - 1 - i : i] << (8 * i);
    return v;
}

static inline void mut_wr(uint8_t *p, uint64_t v, int n, int be)
{
    for (int i = 0; i < n; i++)
        p[be ? n - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

/* A value that sits on an edge: 0, 1, powers of two and their neighbours,
 * the ends of signed and unsigned ranges, or v nudged by a little. */
static inline uint64_t mut_edge_value(mut_rng *r, uint64_t v)
{
    switch (mut_below(r, 8)) {
    case 0: return 0;
    case 1: return 1;
    case 2: return (uint64_t)1 << mut_below(r, 64);
    case 3: return ((uint64_t)1 << mut_below(r, 64)) - 1;
    case 4: return (uint64_t)1 << (8 * (1 + mut_below(r, 7))); /* past a byte boundary */
    case 5: return v + 1 + mut_below(r, 16);
    case 6: return v - 1 - mut_below(r, 16);
    default: return ~(uint64_t)0 >> mut_below(r, 64);
    }
}

/* Byte changes when the engine offers none: flip, set, insert, erase. */
static inline size_t mut_fallback_bytes(uint8_t *data, size_t size, size_t max_size, mut_rng *r)
{
    switch (mut_below(r, 4)) {
    case 0:
        if (size)
            data[mut_below(r, size)] ^= (uint8_t)(1u << mut_below(r, 8));
        return size;
    case 1:
        if (size)
            data[mut_below(r, size)] = (uint8_t)mut_next(r);
        return size;
    case 2:
        if (size < max_size) {
            size_t at = mut_below(r, size + 1);
            memmove(data + at + 1, data + at, size - at);
            data[at] = (uint8_t)mut_next(r);
            return size + 1;
        }
        return size;
    default:
        if (size) {
            size_t at = mut_below(r, size);
            memmove(data + at, data + at + 1, size - at - 1);
            return size - 1;
        }
        return size;
    }
}

/* The engine's byte mutation, or the fallback. */
static inline size_t mut_bytes(uint8_t *data, size_t size, size_t max_size, mut_rng *r,
                               mut_bytes_fn bytes)
{
    if (bytes)
        return bytes(data, size, max_size);
    return mut_fallback_bytes(data, size, max_size, r);
}

#endif
