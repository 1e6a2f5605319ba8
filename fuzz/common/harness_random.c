/* The harness kit's seeded random source and hashes (harness.h). */
#include "harness.h"

/* ---- the seeded random source ---- */

uint32_t hx_hash32(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

void hx_rng_init(hx_rng *r, const uint8_t *data, size_t size)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 0x100000001b3ull;
    r->s = h ? h : 1;
}

uint64_t hx_rng_next(hx_rng *r)
{
    /* xorshift64*: the same sequence on every build */
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545f4914f6cdd1dull;
}

size_t hx_rng_below(hx_rng *r, size_t n) { return n ? (size_t)(hx_rng_next(r) % n) : 0; }

size_t hx_pick_window(hx_rng *r, hx_path path)
{
    static const size_t windows[] = {1, 2, 3, 5, 8, 12, 13, 16, 17, 31, 32, 33, 48, 63, 64, 65,
                                     100, 127, 128, 129, 255, 4096};
    static const size_t map_windows[] = {100, 1000, 4095, 4096, 4097, 12288};
    if (path == HX_MMAP)
        return HX_PICK(r, map_windows);
    if (path == HX_STEPPED)
        return 1 + hx_rng_below(r, 7);
    return HX_PICK(r, windows);
}
