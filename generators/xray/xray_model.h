/*
 * In-memory model of an XRay FDR trace for the generators: a header and
 * buffers of records, one buffer at a time (so traces of any size stream
 * out). Records hold the values as written; the writer encodes them for the
 * header's version and byte order, and computes BufferExtents.
 */
#ifndef TC_XRAY_MODEL_H
#define TC_XRAY_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "../../parsers/xray/xray.h"
#include "../common/bytebuf.h"
#include "../common/rng.h"

typedef enum xray_rec_type {
    XR_FUNCTION, /* 8 bytes */
    XR_META,     /* 16 bytes, plus the payload of event markers */
    XR_RAW,      /* bytes from the pool, written as they are (mutations) */
} xray_rec_type;

typedef struct xray_rec {
    uint8_t type;        /* xray_rec_type */
    uint8_t kind;        /* metadata kind, 0..127 */
    uint8_t action;      /* function action, 0..7 */
    uint8_t garbage;     /* fill reserved bytes with non-zero values */
    uint32_t func_id;    /* 28 bits */
    uint32_t delta;      /* function delta; version 5 event delta (i32 bits) */
    int32_t i32;         /* NewBuffer tid, PIDEntry pid, wall usec, event size as written */
    uint16_t u16;        /* NewCPUId cpu, typed event type, version 4 event cpu */
    uint64_t u64;        /* NewCPUId/TSCWrap/v1-4 event TSC, call argument, wall seconds */
    uint32_t payload;    /* offset of payload (events) or raw bytes in the pool */
    uint32_t payload_len;
} xray_rec;

typedef struct xray_buffer {
    xray_rec *recs;
    size_t n, cap;
    tc_bytebuf pool;
    int extents_set;          /* write extents instead of the computed size */
    uint64_t extents;
} xray_buffer;

typedef struct xray_file_header {
    tc_xray_header h;         /* version, type, bitfield, cycle_frequency, buffer_size, big_endian */
    uint8_t reserved[8];
} xray_file_header;

/* ---- building buffers ---- */

void xray_buffer_clear(xray_buffer *b);
void xray_buffer_free(xray_buffer *b);
xray_rec *xray_push(xray_buffer *b);                 /* a zeroed record at the end */
xray_rec *xray_insert(xray_buffer *b, size_t index); /* a zeroed record before index */
void xray_remove(xray_buffer *b, size_t index);

xray_rec *xray_add_function(xray_buffer *b, unsigned action, uint32_t func, uint32_t delta);
xray_rec *xray_add_meta(xray_buffer *b, unsigned kind);
/* An event marker (custom or typed) with its payload. */
xray_rec *xray_add_event(xray_buffer *b, unsigned kind, const uint8_t *payload, uint32_t len);

/* ---- sizes ---- */

/* Bytes the record takes in the file. */
uint64_t xray_rec_size(const xray_rec *r);
/* Bytes of all records (without the BufferExtents record). */
uint64_t xray_buffer_used(const xray_buffer *b);
/* Room for records in one buffer: buffer_size, less 16 for BufferExtents from version 2. */
uint64_t xray_buffer_capacity(const tc_xray_header *h);

/* ---- encoding ---- */

void xray_write_header(tc_bytebuf *out, const xray_file_header *fh);
/* Appends the buffer: BufferExtents and records (version 2+), or records,
 * EndOfBuffer and garbage padding to buffer_size (version 1). */
void xray_write_buffer(tc_bytebuf *out, const tc_xray_header *h, const xray_buffer *b,
                       tc_rng *padding);
uint8_t xray_meta_tag(const tc_xray_header *h, unsigned kind);

#endif
