#include "rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void tc_rng_seed(tc_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
    r->bytes = NULL;
    r->len = r->pos = 0;
}

void tc_rng_from_bytes(tc_rng *r, const uint8_t *bytes, size_t len)
{
    tc_rng_seed(r, 0);
    r->bytes = bytes;
    r->len = len;
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t tc_rng_u64(tc_rng *r)
{
    if (r->bytes) {
        uint64_t v = 0;
        for (int i = 0; i < 8 && r->pos < r->len; i++)
            v |= (uint64_t)r->bytes[r->pos++] << (8 * i);
        return v;
    }
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t tc_rng_below(tc_rng *r, uint64_t n)
{
    if (n == 0)
        return 0;
    if (r->bytes) {
        /* Read only as many bytes as n needs, so short inputs go further. */
        uint64_t v = 0;
        for (uint64_t m = n - 1; m && r->pos < r->len; m >>= 8)
            v = v << 8 | r->bytes[r->pos++];
        return v % n;
    }
    /* Lemire's multiply-shift with rejection: unbiased. */
    unsigned __int128 m = (unsigned __int128)tc_rng_u64(r) * n;
    uint64_t low = (uint64_t)m;
    if (low < n) {
        uint64_t threshold = -n % n;
        while (low < threshold) {
            m = (unsigned __int128)tc_rng_u64(r) * n;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

uint64_t tc_rng_range(tc_rng *r, uint64_t lo, uint64_t hi)
{
    if (hi <= lo)
        return lo;
    if (hi - lo == UINT64_MAX)
        return tc_rng_u64(r);
    return lo + tc_rng_below(r, hi - lo + 1);
}

int tc_rng_chance(tc_rng *r, unsigned num, unsigned den)
{
    return tc_rng_below(r, den) < num;
}

void tc_rng_fill(tc_rng *r, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i += 8) {
        uint64_t v = tc_rng_u64(r);
        for (size_t j = 0; j < 8 && i + j < n; j++)
            out[i + j] = (uint8_t)(v >> (8 * j));
    }
}
