/* The JSON tokenizer's block classes: see json_simd.h. */
#include <string.h>

#include "json_simd.h"

#if TC_SIMD_X86
#include <immintrin.h>
#endif

/* ---- scalar: the reference ---- */

/* Eight bytes at a time in a word: in a little-endian word the lowest
 * flagged byte of (w - ONES * c) & ~w & HIGHS is exact (a borrow only runs
 * upwards from a byte that matched), so counting trailing zeros finds the
 * first. */
#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

static size_t plain_bytes(const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (i < n && p[i] >= 0x20 && p[i] < 0x80 && p[i] != '"' && p[i] != '\\')
        i++;
    return i;
}

static size_t plain_scalar(const uint8_t *p, size_t n)
{
    size_t i = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (; n - i >= 8; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        uint64_t q = w ^ (ONES * '"'), b = w ^ (ONES * '\\');
        uint64_t m = ((w - ONES * 0x20) | (q - ONES) | (b - ONES)) & ~w & HIGHS;
        m |= w & HIGHS;
        if (m)
            return i + (size_t)(__builtin_ctzll(m) >> 3);
    }
#endif
    return i + plain_bytes(p + i, n - i);
}

static size_t space_scalar(const uint8_t *p, size_t n, uint64_t *newlines, size_t *last_nl)
{
    size_t i = 0;
    uint64_t nl = 0;
    for (; i < n; i++) {
        uint8_t c = p[i];
        if (c == '\n') {
            nl++;
            *last_nl = i;
        } else if (c != ' ' && c != '\t' && c != '\r') {
            break;
        }
    }
    *newlines = nl;
    return i;
}

static const tc_json_kernels scalar_kernels = {plain_scalar, space_scalar};

#if TC_SIMD_X86

/* A 64-byte block's masks, whatever the level: plain-run enders (in a
 * string), not-white-space and newline (between tokens). */

/* What is left of a block after its masks: the space kernel's bookkeeping,
 * shared by every level. Returns 1 when the block has a byte that is not
 * white space (*i is then its index). */
static inline int space_block(uint64_t notws, uint64_t nl, size_t base, size_t *i,
                              uint64_t *count, size_t *last_nl)
{
    if (notws) {
        unsigned stop = (unsigned)__builtin_ctzll(notws);
        uint64_t before = nl & ((UINT64_C(1) << stop) - 1);
        if (before) {
            *count += (uint64_t)__builtin_popcountll(before);
            *last_nl = base + 63 - (size_t)__builtin_clzll(before);
        }
        *i = base + stop;
        return 1;
    }
    if (nl) {
        *count += (uint64_t)__builtin_popcountll(nl);
        *last_nl = base + 63 - (size_t)__builtin_clzll(nl);
    }
    return 0;
}

/* The scalar tail of a vector kernel (fewer than a block left). */
static size_t space_tail(const uint8_t *p, size_t i, size_t n, uint64_t *count, size_t *last_nl)
{
    uint64_t more = 0;
    size_t last = 0;
    size_t k = space_scalar(p + i, n - i, &more, &last);
    if (more) {
        *count += more;
        *last_nl = i + last;
    }
    return i + k;
}

/* ---- SSE2 (four 16-byte vectors per block) ---- */

__attribute__((target("sse2"))) static inline uint64_t sse2_plain_mask(const uint8_t *p)
{
    const __m128i q = _mm_set1_epi8('"'), b = _mm_set1_epi8('\\'), lo = _mm_set1_epi8(0x20);
    uint64_t m = 0;
    for (int k = 0; k < 4; k++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(p + 16 * k));
        /* Signed: below 0x20 and 0x80 and above (negative) alike. */
        __m128i x = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, q), _mm_cmpeq_epi8(v, b)),
                                 _mm_cmplt_epi8(v, lo));
        m |= (uint64_t)(uint16_t)_mm_movemask_epi8(x) << (16 * k);
    }
    return m;
}

__attribute__((target("sse2"))) static size_t plain_sse2(const uint8_t *p, size_t n)
{
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        uint64_t m = sse2_plain_mask(p + i);
        if (m)
            return i + (size_t)__builtin_ctzll(m);
    }
    return i + plain_bytes(p + i, n - i);
}

__attribute__((target("sse2"))) static size_t space_sse2(const uint8_t *p, size_t n,
                                                         uint64_t *newlines, size_t *last_nl)
{
    const __m128i sp = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t'), cr = _mm_set1_epi8('\r'),
                  lf = _mm_set1_epi8('\n');
    size_t i = 0;
    uint64_t count = 0;
    for (; i + 64 <= n; i += 64) {
        uint64_t ws = 0, nl = 0;
        for (int k = 0; k < 4; k++) {
            __m128i v = _mm_loadu_si128((const __m128i *)(p + i + 16 * k));
            __m128i l = _mm_cmpeq_epi8(v, lf);
            __m128i w = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, sp), _mm_cmpeq_epi8(v, tab)),
                                     _mm_or_si128(_mm_cmpeq_epi8(v, cr), l));
            ws |= (uint64_t)(uint16_t)_mm_movemask_epi8(w) << (16 * k);
            nl |= (uint64_t)(uint16_t)_mm_movemask_epi8(l) << (16 * k);
        }
        size_t at;
        if (space_block(~ws, nl, i, &at, &count, last_nl)) {
            *newlines = count;
            return at;
        }
    }
    i = space_tail(p, i, n, &count, last_nl);
    *newlines = count;
    return i;
}

static const tc_json_kernels sse2_kernels = {plain_sse2, space_sse2};

/* ---- AVX2 (two 32-byte vectors per block) ---- */

__attribute__((target("avx2"))) static size_t plain_avx2(const uint8_t *p, size_t n)
{
    const __m256i q = _mm256_set1_epi8('"'), b = _mm256_set1_epi8('\\'),
                  lo = _mm256_set1_epi8(0x20);
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        __m256i v0 = _mm256_loadu_si256((const __m256i *)(p + i));
        __m256i v1 = _mm256_loadu_si256((const __m256i *)(p + i + 32));
        __m256i x0 = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v0, q),
                                                     _mm256_cmpeq_epi8(v0, b)),
                                     _mm256_cmpgt_epi8(lo, v0));
        __m256i x1 = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v1, q),
                                                     _mm256_cmpeq_epi8(v1, b)),
                                     _mm256_cmpgt_epi8(lo, v1));
        uint64_t m = (uint64_t)(uint32_t)_mm256_movemask_epi8(x0) |
                     (uint64_t)(uint32_t)_mm256_movemask_epi8(x1) << 32;
        if (m)
            return i + (size_t)__builtin_ctzll(m);
    }
    return i + plain_bytes(p + i, n - i);
}

__attribute__((target("avx2"))) static size_t space_avx2(const uint8_t *p, size_t n,
                                                         uint64_t *newlines, size_t *last_nl)
{
    const __m256i sp = _mm256_set1_epi8(' '), tab = _mm256_set1_epi8('\t'),
                  cr = _mm256_set1_epi8('\r'), lf = _mm256_set1_epi8('\n');
    size_t i = 0;
    uint64_t count = 0;
    for (; i + 64 <= n; i += 64) {
        uint64_t ws = 0, nl = 0;
        for (int k = 0; k < 2; k++) {
            __m256i v = _mm256_loadu_si256((const __m256i *)(p + i + 32 * k));
            __m256i l = _mm256_cmpeq_epi8(v, lf);
            __m256i w = _mm256_or_si256(
                _mm256_or_si256(_mm256_cmpeq_epi8(v, sp), _mm256_cmpeq_epi8(v, tab)),
                _mm256_or_si256(_mm256_cmpeq_epi8(v, cr), l));
            ws |= (uint64_t)(uint32_t)_mm256_movemask_epi8(w) << (32 * k);
            nl |= (uint64_t)(uint32_t)_mm256_movemask_epi8(l) << (32 * k);
        }
        size_t at;
        if (space_block(~ws, nl, i, &at, &count, last_nl)) {
            *newlines = count;
            return at;
        }
    }
    i = space_tail(p, i, n, &count, last_nl);
    *newlines = count;
    return i;
}

static const tc_json_kernels avx2_kernels = {plain_avx2, space_avx2};

/* ---- AVX-512 (one 64-byte vector per block; the tail by a masked load,
 * which touches no byte outside its mask) ---- */

__attribute__((target("avx512bw,avx512f"))) static inline uint64_t
avx512_plain_mask(__m512i v)
{
    const __m512i q = _mm512_set1_epi8('"'), b = _mm512_set1_epi8('\\'),
                  lo = _mm512_set1_epi8(0x20), span = _mm512_set1_epi8(0x60);
    /* Below 0x20 or 0x80 and above: c - 0x20 is 0x60 or more, unsigned. */
    return _mm512_cmpeq_epi8_mask(v, q) | _mm512_cmpeq_epi8_mask(v, b) |
           _mm512_cmpge_epu8_mask(_mm512_sub_epi8(v, lo), span);
}

__attribute__((target("avx512bw,avx512f"))) static size_t plain_avx512(const uint8_t *p,
                                                                       size_t n)
{
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        uint64_t m = avx512_plain_mask(_mm512_loadu_si512((const void *)(p + i)));
        if (m)
            return i + (size_t)__builtin_ctzll(m);
    }
    if (i < n) {
        __mmask64 valid = (UINT64_C(1) << (n - i)) - 1; /* n - i < 64 */
        uint64_t m = avx512_plain_mask(_mm512_maskz_loadu_epi8(valid, p + i)) & valid;
        return m ? i + (size_t)__builtin_ctzll(m) : n;
    }
    return i;
}

__attribute__((target("avx512bw,avx512f"))) static inline void
avx512_space_masks(__m512i v, uint64_t *ws, uint64_t *nl)
{
    *nl = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\n'));
    *ws = *nl | _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(' ')) |
          _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\t')) |
          _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\r'));
}

__attribute__((target("avx512bw,avx512f"))) static size_t
space_avx512(const uint8_t *p, size_t n, uint64_t *newlines, size_t *last_nl)
{
    size_t i = 0, at;
    uint64_t count = 0, ws, nl;
    for (; i + 64 <= n; i += 64) {
        avx512_space_masks(_mm512_loadu_si512((const void *)(p + i)), &ws, &nl);
        if (space_block(~ws, nl, i, &at, &count, last_nl)) {
            *newlines = count;
            return at;
        }
    }
    if (i < n) {
        __mmask64 valid = (UINT64_C(1) << (n - i)) - 1; /* n - i < 64 */
        avx512_space_masks(_mm512_maskz_loadu_epi8(valid, p + i), &ws, &nl);
        /* A masked-off byte reads as 0, not white space: it stops the scan
         * at n, as the end of the bytes does. */
        if (space_block(~ws, nl & valid, i, &at, &count, last_nl)) {
            *newlines = count;
            return at < n ? at : n;
        }
    }
    *newlines = count;
    return n;
}

static const tc_json_kernels avx512_kernels = {plain_avx512, space_avx512};

#endif

const tc_json_kernels *tc_json_kernels_for(tc_simd_level level)
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
