/*
 * Vector kernels of the XRay readers (parsers/common/simd.h): each has a
 * scalar version, the reference, and SSE2, AVX2 and AVX-512 versions that
 * give the same answer. They are static inline, so that a reader's loop
 * compiled for a level (a target attribute) takes them in without a call;
 * the reader picks its loop once per parse.
 */
#ifndef TC_XRAY_SIMD_H
#define TC_XRAY_SIMD_H

#include <stdint.h>
#include <string.h>

#include "../common/simd.h"

#if TC_SIMD_X86
#include <immintrin.h>
#endif

/* FDR: the bits of a function record, read as a little-endian 64-bit word,
 * that keep it off the fast path: the tag bit (a metadata record), the top
 * bit of the action (actions above 3) and the top bit of the TSC delta
 * (above INT32_MAX). Little-endian files: byte 0 bits 0 and 3, byte 7 bit
 * 7; big-endian: byte 0 bits 7 and 6, byte 4 bit 7. */
static inline uint64_t tc_xray_dirty_mask(int big_endian)
{
    return big_endian ? UINT64_C(0x00000080000000c0) : UINT64_C(0x8000000000000009);
}

/* Of the eight 8-byte lanes at b (64 bytes readable), those with a bit of
 * mask set: bit i for lane i. */
typedef unsigned (*tc_xray_dirty8_fn)(const uint8_t *b, uint64_t mask);

static inline __attribute__((always_inline)) unsigned tc_xray_dirty8_scalar(const uint8_t *b,
                                                                            uint64_t mask)
{
    unsigned dirty = 0;
    for (unsigned i = 0; i < 8; i++) {
        uint64_t q;
        memcpy(&q, b + 8 * i, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        q = __builtin_bswap64(q);
#endif
        dirty |= (unsigned)((q & mask) != 0) << i;
    }
    return dirty;
}

#if TC_SIMD_X86
static inline __attribute__((always_inline, target("sse2"))) unsigned
tc_xray_dirty8_sse2(const uint8_t *b, uint64_t mask)
{
    const __m128i m = _mm_set1_epi64x((long long)mask), zero = _mm_setzero_si128();
    unsigned clean = 0; /* a bit a dword whose bits of the mask are zero */
    for (int k = 0; k < 4; k++)
        clean |= (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(
                     _mm_and_si128(_mm_loadu_si128((const __m128i *)(b + 16 * k)), m), zero)))
                 << (4 * k);
    unsigned dirty_dwords = ~clean & 0xffffu, dirty = 0;
    /* two dwords a lane: a lane is dirty when either is */
    dirty_dwords = (dirty_dwords | dirty_dwords >> 1) & 0x5555u;
    for (unsigned i = 0; i < 8; i++)
        dirty |= (dirty_dwords >> (2 * i) & 1u) << i;
    return dirty;
}

static inline __attribute__((always_inline, target("avx2"))) unsigned
tc_xray_dirty8_avx2(const uint8_t *b, uint64_t mask)
{
    const __m256i m = _mm256_set1_epi64x((long long)mask), zero = _mm256_setzero_si256();
    unsigned c0 = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(
        _mm256_and_si256(_mm256_loadu_si256((const __m256i *)b), m), zero)));
    unsigned c1 = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(
        _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(b + 32)), m), zero)));
    return ~(c0 | c1 << 4) & 0xffu;
}

static inline __attribute__((always_inline, target("avx512f,avx512bw"))) unsigned
tc_xray_dirty8_avx512(const uint8_t *b, uint64_t mask)
{
    return _mm512_test_epi64_mask(_mm512_loadu_si512(b), _mm512_set1_epi64((long long)mask));
}
#endif

#endif
