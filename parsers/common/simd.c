/* The vector level in force: see simd.h. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "simd.h"

static const char *const names[TC_SIMD__COUNT] = {"scalar", "sse2", "avx2", "avx512"};

const char *tc_simd_level_name(tc_simd_level level)
{
    return level < TC_SIMD__COUNT ? names[level] : "unknown";
}

tc_simd_level tc_simd_level_max(void)
{
#if TC_SIMD_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512f"))
        return TC_SIMD_AVX512;
    if (__builtin_cpu_supports("avx2"))
        return TC_SIMD_AVX2;
    return TC_SIMD_SSE2;
#else
    return TC_SIMD_SCALAR;
#endif
}

/* -1: not decided yet. */
static _Atomic int level = -1;

static tc_simd_level from_environment(tc_simd_level max)
{
    const char *want = getenv("TRACECHECK_SIMD");
    if (!want || !*want)
        return max;
    for (int i = 0; i < TC_SIMD__COUNT; i++)
        if (!strcmp(want, names[i]))
            return (tc_simd_level)i < max ? (tc_simd_level)i : max;
    return max; /* an unknown name changes nothing */
}

tc_simd_level tc_simd_level_get(void)
{
    int l = atomic_load_explicit(&level, memory_order_relaxed);
    if (l >= 0)
        return (tc_simd_level)l;
    tc_simd_level chosen = from_environment(tc_simd_level_max());
    atomic_store(&level, (int)chosen);
    return chosen;
}

tc_simd_level tc_simd_level_set(tc_simd_level want)
{
    tc_simd_level max = tc_simd_level_max();
    tc_simd_level l = want < max ? want : max;
    atomic_store(&level, (int)l);
    return l;
}
