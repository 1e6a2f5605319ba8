/*
 * In-memory model of an XRay basic-mode log for the generators: the header
 * and one block at a time (a thread's buffer as the runtime flushes it), so
 * that logs of any size stream out. Records hold the values as written; the
 * writer encodes them in the header's byte order (spec/xray/xray.md, "Basic mode").
 */
#ifndef TC_XRAY_BASIC_MODEL_H
#define TC_XRAY_BASIC_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "../../parsers/xray/xray.h"
#include "../common/bytebuf.h"
#include "../common/rng.h"

typedef struct xray_basic_rec {
    uint16_t rtype;  /* 0 function record, 1 argument payload, others (mutations) */
    uint8_t cpu;     /* function record */
    uint8_t type;    /* function record: 0 Enter, 1 Exit, 2 TailExit, 3 EnterArg */
    int32_t func;
    uint64_t tsc;    /* function record */
    uint32_t tid, pid;
    uint64_t arg;    /* argument payload */
    uint8_t pad;     /* the padding bytes' value (0 as the runtime writes them) */
} xray_basic_rec;

typedef struct xray_basic_block {
    xray_basic_rec *recs;
    size_t n, cap;
} xray_basic_block;

typedef struct xray_basic_header {
    tc_xray_header h;  /* version 1-3, type 0, bitfield, cycle_frequency, big_endian */
    uint8_t extra[16]; /* the union after the cycle frequency (a timespec) */
} xray_basic_header;

void xray_basic_block_clear(xray_basic_block *b);
void xray_basic_block_free(xray_basic_block *b);
/* A zeroed record inserted before index (at the end when index >= n). */
xray_basic_rec *xray_basic_insert(xray_basic_block *b, size_t index);
void xray_basic_remove(xray_basic_block *b, size_t index);

void xray_basic_write_header(tc_bytebuf *out, const xray_basic_header *bh);
void xray_basic_write_block(tc_bytebuf *out, const tc_xray_header *h, const xray_basic_block *b);

#endif
