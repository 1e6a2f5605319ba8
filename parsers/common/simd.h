/*
 * Which vector instructions the parsers use, chosen once at run time.
 * A kernel that scans bytes (message ends, record tags, JSON structure) has
 * a scalar version, which is the reference, and versions for SSE2 (the
 * floor of x86-64), AVX2 and AVX-512 (AVX512BW), each compiled for its
 * instruction set with a target attribute, so that one program runs on
 * every x86-64 CPU and uses what the CPU has. Every level gives the same
 * findings, dumps and reports, byte for byte: tests/compat/compare-builds
 * compares a build with a forced scalar one, and the simd_paths fuzz
 * harness runs every level on the same input.
 *
 * The level is the CPU's best, lowered by the environment variable
 * TRACECHECK_SIMD (scalar, sse2, avx2, avx512: a level above the CPU's is
 * not taken) or by a build with -DTC_SIMD_FORCE_SCALAR (`make SIMD=scalar`).
 */
#ifndef TC_SIMD_H
#define TC_SIMD_H

typedef enum tc_simd_level {
    TC_SIMD_SCALAR = 0,
    TC_SIMD_SSE2 = 1,
    TC_SIMD_AVX2 = 2,
    TC_SIMD_AVX512 = 3,
    TC_SIMD__COUNT
} tc_simd_level;

/* The level in force (decided at the first call; safe from any thread). */
tc_simd_level tc_simd_level_get(void);

/* The best level this CPU and build can run. */
tc_simd_level tc_simd_level_max(void);

/* Sets the level in force (tests and the fuzz harness: each level on the
 * same input); a level above tc_simd_level_max() is lowered to it. Returns
 * the level set. Not for use while another thread parses. */
tc_simd_level tc_simd_level_set(tc_simd_level level);

/* "scalar", "sse2", "avx2", "avx512". */
const char *tc_simd_level_name(tc_simd_level level);

/* Kernels are x86-64 only; elsewhere every level is the scalar one. */
#if defined(__x86_64__) && !defined(TC_SIMD_FORCE_SCALAR)
#define TC_SIMD_X86 1
#else
#define TC_SIMD_X86 0
#endif

#endif
