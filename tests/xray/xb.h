/*
 * An XRay FDR byte builder for the parser tests, written from the format
 * document and the notes' record table alone (not from the generator), so
 * that the tests check the parser against the document independently.
 *
 * Little-endian: the first byte's bit 0 is the discriminant, a metadata kind
 * is byte >> 1, a function word is fid << 4 | action << 1. Big-endian (the
 * document's MSB-first layout): bit 7 is the discriminant, the metadata tag is
 * 0x80 | kind, a function word is action << 28 | fid. Multi-byte fields are in
 * the file's byte order.
 */
#ifndef TC_TESTS_XB_H
#define TC_TESTS_XB_H

#include <stddef.h>
#include <stdint.h>

#include "../tu.h"

enum {
    XB_NEW_BUFFER = 0, XB_END_OF_BUFFER = 1, XB_NEW_CPU = 2, XB_TSC_WRAP = 3, XB_WALL_TIME = 4,
    XB_CUSTOM_EVENT = 5, XB_CALL_ARG = 6, XB_BUFFER_EXTENTS = 7, XB_TYPED_EVENT = 8, XB_PID = 9,
};
enum { XB_ENTER = 0, XB_EXIT = 1, XB_TAIL_EXIT = 2, XB_ENTER_ARGS = 3 };

typedef struct xb {
    tu_bytes b;
    unsigned version;
    int be;
    uint64_t buffer_size;
    size_t start; /* offset of the open buffer's BufferExtents (v2+) or NewBuffer (v1) */
    int open;
} xb;

void xb_init(xb *x, unsigned version, int be);
void xb_free(xb *x);
const uint8_t *xb_data(const xb *x);
size_t xb_len(const xb *x);

/* Fields in the builder's byte order, appended. */
void xb_put16(xb *x, uint16_t v);
void xb_put32(xb *x, uint32_t v);
void xb_put64(xb *x, uint64_t v);
void xb_raw(xb *x, const void *p, size_t n);
void xb_fill(xb *x, uint8_t byte, size_t n);
/* Overwrites a field already written. */
void xb_set32(xb *x, size_t at, uint32_t v);
void xb_set64(xb *x, size_t at, uint64_t v);

/* The 32-byte header. xb_header: version x->version, type 1, constant and
 * non-stop TSC, 2.4 GHz, reserved bytes zero. */
void xb_header_full(xb *x, uint16_t version, uint16_t type, uint32_t bitfield, uint64_t freq,
                    uint64_t buffer_size, const uint8_t reserved[8]);
void xb_header(xb *x, uint64_t buffer_size);

uint8_t xb_tag(const xb *x, unsigned kind);
/* A metadata record: the tag then 15 data bytes (zeros when data is NULL). */
void xb_meta(xb *x, unsigned kind, const uint8_t data[15]);

void xb_new_buffer(xb *x, int32_t tid);
void xb_end_of_buffer(xb *x);
void xb_new_cpu(xb *x, uint16_t cpu, uint64_t tsc);
void xb_tsc_wrap(xb *x, uint64_t tsc);
void xb_wall(xb *x, int64_t sec, int32_t usec);
void xb_pid(xb *x, int32_t pid);
void xb_arg(xb *x, uint64_t value);
void xb_extents(xb *x, uint64_t n);
void xb_fn(xb *x, unsigned action, uint32_t fid, uint32_t delta);
/* A custom event in the builder's version's layout: v1-3 size, TSC; v4 size,
 * TSC, cpu; v5 size, delta (the low 32 bits of tsc_or_delta). Then the payload. */
void xb_custom(xb *x, int32_t size, uint64_t tsc_or_delta, uint16_t cpu, const void *payload,
               size_t len);
/* A typed event (version 5 layout): size, delta, type, then the payload. */
void xb_typed(xb *x, int32_t size, int32_t delta, uint16_t type, const void *payload, size_t len);

/* NewBuffer(tid), WallTimeMarker(1000 s, 5 us), PIDEntry(pid) from version 3,
 * NewCPUId(cpu, tsc). */
void xb_preamble(xb *x, int32_t tid, int32_t pid, uint16_t cpu, uint64_t tsc);

/* Version 2+: a BufferExtents whose size xb_end() fills in. Version 1: marks
 * the start of a buffer_size-byte buffer. Returns the buffer's offset. */
size_t xb_begin(xb *x);
/* Version 2+: sets the open buffer's extents to the bytes written since.
 * Version 1: writes EndOfBuffer (if 16 bytes are left) and pads to buffer_size
 * with pad bytes. */
void xb_end(xb *x, uint8_t pad);

/* A whole valid buffer: begin, preamble (pid 4242), Entry(1), Entry_Args(2),
 * CallArgument(77), Exit(2), Exit(1), every delta 10, end (zero padding). */
void xb_simple_buffer(xb *x, int32_t tid, uint16_t cpu, uint64_t tsc);

/* Runs the bytes through detection and the parser, with the dump, and
 * asserts that a run without the dump finds the same; pedantic as given.
 * Returns the status. */
int xb_check(const xb *x, int pedantic, tu_result *r);

#endif
