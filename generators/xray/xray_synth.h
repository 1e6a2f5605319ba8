/*
 * Synthesis of valid XRay FDR traces from a seed: threads running a random
 * call tree (entries, exits, tail calls, logged arguments), custom and typed
 * events, CPU migrations and TSC wraps, cut into per-thread buffers the way
 * compiler-rt's FDR runtime does. Deterministic: the same parameters and
 * choices give the same bytes. Memory does not grow with the size asked for.
 */
#ifndef TC_XRAY_SYNTH_H
#define TC_XRAY_SYNTH_H

#include "xray_model.h"

#define XRAY_DEFAULT_BUFFER_SIZE 16384u

typedef struct xray_gen_params {
    uint64_t seed;
    uint64_t size;        /* bytes wanted; the trace stops at the first buffer that reaches it */
    unsigned version;     /* 1..5 */
    unsigned threads;     /* >= 1 */
    uint64_t buffer_size; /* 0: XRAY_DEFAULT_BUFFER_SIZE */
    int big_endian;
    int noisy_padding;    /* version 1: random bytes after EndOfBuffer instead of zeros */
} xray_gen_params;

typedef struct xray_synth xray_synth;

/* choices: the source of every decision (seeded, or a fuzzer's bytes). */
xray_synth *xray_synth_new(const xray_gen_params *p, tc_rng *choices);

/* The header fields an FDR trace and a basic-mode log share: version, type,
 * the constant and non-stop TSC bits, a cycle frequency drawn from choices
 * (one draw), the byte order. */
void xray_synth_fill_header(tc_xray_header *h, unsigned version, uint16_t type, int big_endian,
                            tc_rng *choices);
void xray_synth_free(xray_synth *s);

const xray_file_header *xray_synth_header(const xray_synth *s);

/* Fills b with the next buffer. Returns 0 when the trace is complete; *last
 * tells whether this buffer is the final one. */
int xray_synth_next(xray_synth *s, xray_buffer *b, int *last);

#endif
