/* Unaligned loads in either byte order. */
#ifndef TC_BYTES_H
#define TC_BYTES_H

#include <stdint.h>
#include <string.h>

static inline uint16_t tc_le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint16_t tc_be16(const uint8_t *p) { return (uint16_t)(p[1] | p[0] << 8); }

static inline uint32_t tc_le32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap32(v);
#endif
    return v;
}

static inline uint32_t tc_be32(const uint8_t *p) { return __builtin_bswap32(tc_le32(p)); }

static inline uint64_t tc_le64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static inline uint64_t tc_be64(const uint8_t *p) { return __builtin_bswap64(tc_le64(p)); }

static inline uint16_t tc_rd16(const uint8_t *p, int be) { return be ? tc_be16(p) : tc_le16(p); }
static inline uint32_t tc_rd32(const uint8_t *p, int be) { return be ? tc_be32(p) : tc_le32(p); }
static inline uint64_t tc_rd64(const uint8_t *p, int be) { return be ? tc_be64(p) : tc_le64(p); }

static inline void tc_put16(uint8_t *p, uint16_t v, int be)
{
    if (be) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
    else { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
}

static inline void tc_put32(uint8_t *p, uint32_t v, int be)
{
    for (int i = 0; i < 4; i++)
        p[be ? 3 - i : i] = (uint8_t)(v >> (8 * i));
}

static inline void tc_put64(uint8_t *p, uint64_t v, int be)
{
    for (int i = 0; i < 8; i++)
        p[be ? 7 - i : i] = (uint8_t)(v >> (8 * i));
}

#endif
