/* Encoding of ovni events: the inverse of parsers/ovni/ovni_stream.c. */
#include <string.h>

#include "../../parsers/common/bytes.h"
#include "ovni_events.h"

void ovni_ev_jumbo(ovni_ev *ev, const char *mcv, uint64_t clock, const uint8_t *data, uint32_t len)
{
    ev->flags = TC_OVNI_FLAG_JUMBO;
    ev->size_code = TC_OVNI_JUMBO_SIZE_CODE;
    memcpy(ev->mcv, mcv, 3);
    ev->clock = clock;
    ev->len = len;
    ev->jumbo_size = len;
    ev->payload = data;
}

int ovni_ev_is(const ovni_ev *ev, const char *mcv) { return memcmp(ev->mcv, mcv, 3) == 0; }

/* Copies a payload: small ones (every normal event) with fixed-size moves,
 * two that overlap, rather than a call to memcpy for a few bytes. */
static inline void copy(uint8_t *dst, const uint8_t *src, uint32_t n)
{
    if (n >= 8 && n <= 16) {
        memcpy(dst, src, 8);
        memcpy(dst + n - 8, src + n - 8, 8);
    } else if (n >= 4 && n < 8) {
        memcpy(dst, src, 4);
        memcpy(dst + n - 4, src + n - 4, 4);
    } else if (n >= 2 && n < 4) {
        memcpy(dst, src, 2);
        memcpy(dst + n - 2, src + n - 2, 2);
    } else if (n) {
        memcpy(dst, src, n);
    }
}

void ovni_write_header(tc_bytebuf *out, int big_endian)
{
    tc_bb_append(out, "ovni", 4);
    tc_put32(tc_bb_append(out, NULL, 4), 1, big_endian);
}

void ovni_write_event(tc_bytebuf *out, const ovni_ev *ev, int big_endian)
{
    int jumbo = (ev->flags & TC_OVNI_FLAG_JUMBO) != 0;
    size_t n = TC_OVNI_EVENT_HEADER_SIZE + (jumbo ? 4u : 0u) + ev->len;
    uint8_t *p = tc_bb_reserve(out, n);
    p[0] = (uint8_t)((ev->flags & 0xf0u) | (ev->size_code & 0x0fu));
    p[1] = (uint8_t)ev->mcv[0];
    p[2] = (uint8_t)ev->mcv[1];
    p[3] = (uint8_t)ev->mcv[2];
    tc_put64(p + 4, ev->clock, big_endian);
    size_t at = TC_OVNI_EVENT_HEADER_SIZE;
    if (jumbo) {
        tc_put32(p + at, ev->jumbo_size, big_endian);
        at += 4;
    }
    copy(p + at, ev->payload, ev->len);
    out->len += n;
}
