/* Nexus message ends, a 64-byte block at a time: see nexus_simd.h. */
#include <string.h>

#include "nexus_simd.h"

#if TC_SIMD_X86
#include <immintrin.h>
#endif

void tc_nexus_ends_scalar(const uint8_t *p, size_t blocks, uint64_t *out)
{
    for (size_t k = 0; k < blocks; k++, p += TC_NEXUS_BLOCK) {
        uint64_t m = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        for (unsigned j = 0; j < TC_NEXUS_BLOCK; j += 8) {
            uint64_t w;
            memcpy(&w, p + j, 8);
            /* Bit 0 of byte i: both MSEO bits set; the multiply gathers
             * bit 0 of each byte into the top byte, byte i to bit 56 + i. */
            uint64_t e = w & (w >> 1) & 0x0101010101010101u;
            m |= ((e * 0x0102040810204080u) >> 56) << j;
        }
#else
        for (unsigned j = 0; j < TC_NEXUS_BLOCK; j++)
            m |= (uint64_t)((p[j] & 3) == 3) << j;
#endif
        out[k] = m;
    }
}

#if TC_SIMD_X86
/* SSE2 is part of x86-64: no target attribute. */
static void ends_sse2(const uint8_t *p, size_t blocks, uint64_t *out)
{
    const __m128i three = _mm_set1_epi8(3);
    for (size_t k = 0; k < blocks; k++, p += TC_NEXUS_BLOCK) {
        uint64_t m = 0;
        for (unsigned j = 0; j < TC_NEXUS_BLOCK; j += 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + j));
            __m128i e = _mm_cmpeq_epi8(_mm_and_si128(x, three), three);
            m |= (uint64_t)(uint16_t)_mm_movemask_epi8(e) << j;
        }
        out[k] = m;
    }
}

__attribute__((target("avx2"))) static void ends_avx2(const uint8_t *p, size_t blocks,
                                                      uint64_t *out)
{
    const __m256i three = _mm256_set1_epi8(3);
    for (size_t k = 0; k < blocks; k++, p += TC_NEXUS_BLOCK) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)p);
        __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
        uint32_t ma = (uint32_t)_mm256_movemask_epi8(
            _mm256_cmpeq_epi8(_mm256_and_si256(a, three), three));
        uint32_t mb = (uint32_t)_mm256_movemask_epi8(
            _mm256_cmpeq_epi8(_mm256_and_si256(b, three), three));
        out[k] = (uint64_t)mb << 32 | ma;
    }
}

__attribute__((target("avx512bw,avx512f"))) static void ends_avx512(const uint8_t *p,
                                                                    size_t blocks,
                                                                    uint64_t *out)
{
    const __m512i three = _mm512_set1_epi8(3);
    for (size_t k = 0; k < blocks; k++, p += TC_NEXUS_BLOCK) {
        __m512i x = _mm512_loadu_si512((const void *)p);
        out[k] = _mm512_cmpeq_epi8_mask(_mm512_and_si512(x, three), three);
    }
}
#endif

tc_nexus_ends_fn tc_nexus_ends_kernel(tc_simd_level level)
{
#if TC_SIMD_X86
    switch (level) {
    case TC_SIMD_AVX512: return ends_avx512;
    case TC_SIMD_AVX2: return ends_avx2;
    case TC_SIMD_SSE2: return ends_sse2;
    default: break;
    }
#else
    (void)level;
#endif
    return tc_nexus_ends_scalar;
}
