/*
 * ovni runtime traces: binary streams (stream.obs), metadata (stream.json),
 * whole trace directories, and ovni's own model. The profile, event tables
 * and rulings are in spec/ovni/ovni.md; the rules are OVNI-* in spec/ovni/rules.def.
 */
#ifndef TC_OVNI_H
#define TC_OVNI_H

#include <stddef.h>
#include <stdint.h>

#include "../common/parse.h"

#define TC_OVNI_HEADER_SIZE 8
#define TC_OVNI_EVENT_HEADER_SIZE 12
#define TC_OVNI_FLAG_JUMBO 0x10u
#define TC_OVNI_JUMBO_SIZE_CODE 3u
#define TC_OVNI_JUMBO_WRITE_LIMIT (2u << 20) /* libovni writes less */
#define TC_OVNI_CLOCK_LIMIT (1ull << 63)

/* One stream file read on its own (detected by content): a binary stream
 * (with the model layer, without metadata) or metadata (ovni_reader.c). */
void tc_ovni_parse(tc_reader *r, const tc_parse_ctx *ctx);

/* ---- binary streams ---- */

typedef struct tc_ovni_event {
    uint64_t offset;        /* of the event's first byte in the stream */
    uint8_t flags;          /* high nibble of byte 0 */
    uint8_t size_code;      /* low nibble of byte 0 */
    char mcv[4];            /* model, category, value; NUL-terminated */
    uint64_t clock;
    int jumbo;
    uint32_t payload_len;   /* normal: 0 or size_code + 1; jumbo: the jumbo data's size */
    int big_endian;         /* the stream's byte order, for the payload's fields */
    const uint8_t *payload; /* the payload or jumbo data; NULL when not held (see below) */
} tc_ovni_event;

typedef struct tc_ovni_stream tc_ovni_stream;

/* A stream read from r, reporting into d. With want_payloads, events carry
 * their payload (up to TC_READER_MAX_NEED bytes; larger ones come with
 * payload NULL). Returns NULL when out of memory. */
tc_ovni_stream *tc_ovni_stream_new(tc_reader *r, tc_diag_sink *d, int want_payloads);
void tc_ovni_stream_free(tc_ovni_stream *s);

/* Reads and checks the header: 1, or 0 when the stream cannot be read on. */
int tc_ovni_stream_header(tc_ovni_stream *s);
int tc_ovni_stream_big_endian(const tc_ovni_stream *s);

/* The next event: 1, or 0 at the end of the stream (or where it cannot be
 * read on); the end reports OVNI-STREAM-NO-EVENTS when there were none. */
int tc_ovni_stream_next(tc_ovni_stream *s, tc_ovni_event *ev);
uint64_t tc_ovni_stream_count(const tc_ovni_stream *s);
/* Whether the stream ended inside an event (OVNI-EVENT-TRUNCATED,
 * OVNI-JUMBO-PAST-EOF): what came after is lost. */
int tc_ovni_stream_cut(const tc_ovni_stream *s);

/* Payload fields in the stream's byte order. */
uint32_t tc_ovni_u32(const tc_ovni_stream *s, const uint8_t *p);
uint64_t tc_ovni_u64(const tc_ovni_stream *s, const uint8_t *p);

/* Whether the first bytes are a binary stream's header (either order). */
int tc_ovni_sniff_stream(const uint8_t *p, size_t n);
/* Whether the first bytes look like ovni metadata (a JSON object naming
 * "ovni" or "version" early). */
int tc_ovni_sniff_metadata(const uint8_t *p, size_t n);

#endif
