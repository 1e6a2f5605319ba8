/* DCFG-trace sequence kernels: see dtrc_simd.h. */
#include <string.h>

#include "dtrc_simd.h"

#if TC_SIMD_X86
#include <immintrin.h>
#endif

#define X TC_DTRC_B64_NONE
const uint8_t tc_dtrc_b64_tab[256] = {
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X, X, X, X, 62, X, 63, TC_DTRC_B64_DOT, X,
    52, 53, 54, 55, 56, 57, 58, 59, 60, 61, X, X, X, X, X, X,
    X, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
    15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, X, X, X, X, X,
    X, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40,
    41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, X, X, X, X, X,
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
};
#undef X

/* ---- scalar: the reference ---- */

static size_t b64_bytes(const uint8_t *s, size_t n, uint8_t *out)
{
    size_t i = 0;
    uint8_t v;
    while (i < n && (v = tc_dtrc_b64_tab[s[i]]) < 64)
        out[i++] = v;
    return i;
}

/* Sequences are mostly long runs of one character (a loop's code
 * repeated): eight equal bytes go at once. */
static size_t b64_scalar(const uint8_t *s, size_t n, uint8_t *out)
{
    size_t i = 0;
    while (i < n) {
        uint8_t v = tc_dtrc_b64_tab[s[i]];
        if (v >= 64)
            break;
        if (n - i >= 8) {
            uint64_t w, same = 0x0101010101010101u * s[i];
            memcpy(&w, s + i, 8);
            if (w == same) {
                memset(out + i, v, 8);
                i += 8;
                continue;
            }
        }
        /* Not eight alike: up to eight one at a time. */
        size_t stop = n - i > 8 ? i + 8 : n;
        size_t k = i + b64_bytes(s + i, stop - i, out + i);
        if (k < stop)
            return k;
        i = k;
    }
    return i;
}

static size_t same_bytes(const uint8_t *p, size_t n, uint8_t v)
{
    size_t i = 0;
    while (i < n && p[i] == v)
        i++;
    return i;
}

static size_t same_scalar(const uint8_t *p, size_t n, uint8_t v)
{
    size_t i = 0;
    uint64_t same = 0x0101010101010101u * v;
    for (; n - i >= 8; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        if (w != same)
            break;
    }
    return i + same_bytes(p + i, n - i, v);
}

static const tc_dtrc_kernels scalar_kernels = {b64_scalar, same_scalar};

#if TC_SIMD_X86

/* The classes of a Base64 character and the offset from it to its value:
 * A-Z -65, a-z -71, 0-9 +4, '+' +19, '-' +18. */

/* ---- SSE2 (four 16-byte vectors per block) ---- */

/* c in [lo, lo + span], unsigned. */
__attribute__((target("sse2"))) static inline __m128i sse2_in(__m128i v, char lo, char span)
{
    __m128i t = _mm_sub_epi8(v, _mm_set1_epi8(lo));
    return _mm_cmpeq_epi8(_mm_min_epu8(t, _mm_set1_epi8(span)), t);
}

/* Converts 16 characters to out; returns the mask of those that are Base64. */
__attribute__((target("sse2"))) static inline unsigned sse2_b64(const uint8_t *s, uint8_t *out)
{
    __m128i v = _mm_loadu_si128((const __m128i *)s);
    __m128i up = sse2_in(v, 'A', 25), lo = sse2_in(v, 'a', 25), dg = sse2_in(v, '0', 9);
    __m128i pl = _mm_cmpeq_epi8(v, _mm_set1_epi8('+')), mi = _mm_cmpeq_epi8(v, _mm_set1_epi8('-'));
    __m128i off = _mm_or_si128(
        _mm_or_si128(_mm_and_si128(up, _mm_set1_epi8(-65)), _mm_and_si128(lo, _mm_set1_epi8(-71))),
        _mm_or_si128(_mm_and_si128(dg, _mm_set1_epi8(4)),
                     _mm_or_si128(_mm_and_si128(pl, _mm_set1_epi8(19)),
                                  _mm_and_si128(mi, _mm_set1_epi8(18)))));
    _mm_storeu_si128((__m128i *)out, _mm_add_epi8(v, off));
    __m128i ok = _mm_or_si128(_mm_or_si128(up, lo), _mm_or_si128(dg, _mm_or_si128(pl, mi)));
    return (unsigned)_mm_movemask_epi8(ok);
}

__attribute__((target("sse2"))) static size_t b64_sse2(const uint8_t *s, size_t n, uint8_t *out)
{
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        uint64_t ok = 0;
        for (int k = 0; k < 4; k++)
            ok |= (uint64_t)sse2_b64(s + i + 16 * k, out + i + 16 * k) << (16 * k);
        if (~ok)
            return i + (size_t)__builtin_ctzll(~ok);
    }
    return i + b64_bytes(s + i, n - i, out + i);
}

__attribute__((target("sse2"))) static size_t same_sse2(const uint8_t *p, size_t n, uint8_t v)
{
    const __m128i c = _mm_set1_epi8((char)v);
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        uint64_t eq = 0;
        for (int k = 0; k < 4; k++)
            eq |= (uint64_t)(uint16_t)_mm_movemask_epi8(
                      _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i + 16 * k)), c))
                  << (16 * k);
        if (~eq)
            return i + (size_t)__builtin_ctzll(~eq);
    }
    return i + same_bytes(p + i, n - i, v);
}

static const tc_dtrc_kernels sse2_kernels = {b64_sse2, same_sse2};

/* ---- AVX2 (two 32-byte vectors per block) ---- */

__attribute__((target("avx2"))) static inline __m256i avx2_in(__m256i v, char lo, char span)
{
    __m256i t = _mm256_sub_epi8(v, _mm256_set1_epi8(lo));
    return _mm256_cmpeq_epi8(_mm256_min_epu8(t, _mm256_set1_epi8(span)), t);
}

__attribute__((target("avx2"))) static inline uint32_t avx2_b64(const uint8_t *s, uint8_t *out)
{
    __m256i v = _mm256_loadu_si256((const __m256i *)s);
    __m256i up = avx2_in(v, 'A', 25), lo = avx2_in(v, 'a', 25), dg = avx2_in(v, '0', 9);
    __m256i pl = _mm256_cmpeq_epi8(v, _mm256_set1_epi8('+'));
    __m256i mi = _mm256_cmpeq_epi8(v, _mm256_set1_epi8('-'));
    __m256i off = _mm256_or_si256(
        _mm256_or_si256(_mm256_and_si256(up, _mm256_set1_epi8(-65)),
                        _mm256_and_si256(lo, _mm256_set1_epi8(-71))),
        _mm256_or_si256(_mm256_and_si256(dg, _mm256_set1_epi8(4)),
                        _mm256_or_si256(_mm256_and_si256(pl, _mm256_set1_epi8(19)),
                                        _mm256_and_si256(mi, _mm256_set1_epi8(18)))));
    _mm256_storeu_si256((__m256i *)out, _mm256_add_epi8(v, off));
    __m256i ok = _mm256_or_si256(_mm256_or_si256(up, lo),
                                 _mm256_or_si256(dg, _mm256_or_si256(pl, mi)));
    return (uint32_t)_mm256_movemask_epi8(ok);
}

__attribute__((target("avx2"))) static size_t b64_avx2(const uint8_t *s, size_t n, uint8_t *out)
{
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        uint64_t ok = (uint64_t)avx2_b64(s + i, out + i) |
                      (uint64_t)avx2_b64(s + i + 32, out + i + 32) << 32;
        if (~ok)
            return i + (size_t)__builtin_ctzll(~ok);
    }
    return i + b64_bytes(s + i, n - i, out + i);
}

__attribute__((target("avx2"))) static size_t same_avx2(const uint8_t *p, size_t n, uint8_t v)
{
    const __m256i c = _mm256_set1_epi8((char)v);
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        uint64_t eq = (uint64_t)(uint32_t)_mm256_movemask_epi8(
                          _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(p + i)), c)) |
                      (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
                          _mm256_loadu_si256((const __m256i *)(p + i + 32)), c))
                          << 32;
        if (~eq)
            return i + (size_t)__builtin_ctzll(~eq);
    }
    return i + same_bytes(p + i, n - i, v);
}

static const tc_dtrc_kernels avx2_kernels = {b64_avx2, same_avx2};

/* ---- AVX-512 (one 64-byte vector per block; the tail by masked loads
 * and stores, which touch no byte outside their mask) ---- */

__attribute__((target("avx512bw,avx512f"))) static inline uint64_t
avx512_b64(__m512i v, __m512i *value)
{
    __mmask64 up = _mm512_cmple_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8('A')),
                                          _mm512_set1_epi8(25));
    __mmask64 lo = _mm512_cmple_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8('a')),
                                          _mm512_set1_epi8(25));
    __mmask64 dg = _mm512_cmple_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8('0')),
                                          _mm512_set1_epi8(9));
    __mmask64 pl = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('+'));
    __mmask64 mi = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('-'));
    __m512i off = _mm512_maskz_mov_epi8(up, _mm512_set1_epi8(-65));
    off = _mm512_mask_mov_epi8(off, lo, _mm512_set1_epi8(-71));
    off = _mm512_mask_mov_epi8(off, dg, _mm512_set1_epi8(4));
    off = _mm512_mask_mov_epi8(off, pl, _mm512_set1_epi8(19));
    off = _mm512_mask_mov_epi8(off, mi, _mm512_set1_epi8(18));
    *value = _mm512_add_epi8(v, off);
    return up | lo | dg | pl | mi;
}

__attribute__((target("avx512bw,avx512f"))) static size_t b64_avx512(const uint8_t *s, size_t n,
                                                                     uint8_t *out)
{
    size_t i = 0;
    __m512i val;
    for (; i + 64 <= n; i += 64) {
        uint64_t ok = avx512_b64(_mm512_loadu_si512((const void *)(s + i)), &val);
        _mm512_storeu_si512((void *)(out + i), val);
        if (~ok)
            return i + (size_t)__builtin_ctzll(~ok);
    }
    if (i < n) {
        __mmask64 valid = (UINT64_C(1) << (n - i)) - 1; /* n - i < 64 */
        uint64_t ok = avx512_b64(_mm512_maskz_loadu_epi8(valid, s + i), &val);
        _mm512_mask_storeu_epi8(out + i, valid, val);
        uint64_t stop = ~ok & valid;
        return stop ? i + (size_t)__builtin_ctzll(stop) : n;
    }
    return i;
}

__attribute__((target("avx512bw,avx512f"))) static size_t same_avx512(const uint8_t *p, size_t n,
                                                                      uint8_t v)
{
    const __m512i c = _mm512_set1_epi8((char)v);
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        uint64_t ne = _mm512_cmpneq_epi8_mask(_mm512_loadu_si512((const void *)(p + i)), c);
        if (ne)
            return i + (size_t)__builtin_ctzll(ne);
    }
    if (i < n) {
        __mmask64 valid = (UINT64_C(1) << (n - i)) - 1; /* n - i < 64 */
        uint64_t ne = _mm512_mask_cmpneq_epi8_mask(valid, _mm512_maskz_loadu_epi8(valid, p + i), c);
        return ne ? i + (size_t)__builtin_ctzll(ne) : n;
    }
    return i;
}

static const tc_dtrc_kernels avx512_kernels = {b64_avx512, same_avx512};

#endif

const tc_dtrc_kernels *tc_dtrc_kernels_for(tc_simd_level level)
{
    if (level > tc_simd_level_max())
        level = tc_simd_level_max();
    switch (level) {
#if TC_SIMD_X86
    case TC_SIMD_AVX512: return &avx512_kernels;
    case TC_SIMD_AVX2: return &avx2_kernels;
    case TC_SIMD_SSE2: return &sse2_kernels;
#endif
    default: return &scalar_kernels;
    }
}
