/*
 * Events of an ovni binary stream (stream.obs) as the generators hold them,
 * and their encoding: the inverse of parsers/ovni/ovni_stream.c. Fields are
 * kept as written, so that a mutation can write what no valid stream holds
 * (flag bits, a size code that lies, a jumbo size past the end).
 */
#ifndef TC_OVNI_EVENTS_H
#define TC_OVNI_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "../../parsers/ovni/ovni.h"
#include "../common/bytebuf.h"

/* Largest normal payload: size code 15. */
#define OVNI_MAX_PAYLOAD 16u

typedef struct ovni_ev {
    uint8_t flags;       /* high nibble of byte 0: 0, or TC_OVNI_FLAG_JUMBO */
    uint8_t size_code;   /* low nibble of byte 0 */
    char mcv[3];         /* model, category, value */
    uint64_t clock;
    uint32_t len;        /* payload bytes written (normal), or jumbo data bytes written */
    uint32_t jumbo_size; /* jumbo: the u32 size written (len, unless a mutation lies) */
    const uint8_t *payload;
} ovni_ev;

/* A normal event: len is 0 or 2..16, and the size code says so. Inline:
 * it is on the path of every event. */
static inline void ovni_ev_normal(ovni_ev *ev, const char *mcv, uint64_t clock,
                                  const uint8_t *payload, uint32_t len)
{
    ev->flags = 0;
    ev->size_code = (uint8_t)(len ? len - 1 : 0);
    ev->mcv[0] = mcv[0];
    ev->mcv[1] = mcv[1];
    ev->mcv[2] = mcv[2];
    ev->clock = clock;
    ev->len = len;
    ev->jumbo_size = 0;
    ev->payload = payload;
}
/* A jumbo event of len bytes of data. */
void ovni_ev_jumbo(ovni_ev *ev, const char *mcv, uint64_t clock, const uint8_t *data, uint32_t len);
int ovni_ev_is(const ovni_ev *ev, const char *mcv);

/* Bytes the event takes in the stream. */
static inline uint64_t ovni_ev_size(const ovni_ev *ev)
{
    return TC_OVNI_EVENT_HEADER_SIZE + ((ev->flags & TC_OVNI_FLAG_JUMBO) ? 4u : 0u) + ev->len;
}

/* The 8-byte stream header: "ovni" and version 1 in the stream's byte order. */
void ovni_write_header(tc_bytebuf *out, int big_endian);
void ovni_write_event(tc_bytebuf *out, const ovni_ev *ev, int big_endian);

#endif
