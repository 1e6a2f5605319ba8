/*
 * Synthesis of valid XRay basic-mode logs from a seed, the way compiler-rt's
 * basic mode writes them: threads running a random call tree (entries,
 * exits, from version 2 tail calls, an argument payload after each EnterArg
 * in the same block), each filling a thread buffer of buffer_size bytes that
 * is flushed as a block when full (sometimes earlier, as at a thread's exit),
 * the threads taking turns. Deterministic: the same parameters and choices
 * give the same bytes. Memory does not grow with the size asked for.
 */
#ifndef TC_XRAY_BASIC_SYNTH_H
#define TC_XRAY_BASIC_SYNTH_H

#include "xray_basic_model.h"

#define XRAY_BASIC_DEFAULT_BUFFER_SIZE 16384u

typedef struct xray_basic_params {
    uint64_t seed;
    uint64_t size;        /* bytes wanted: records are written until the log reaches it */
    unsigned version;     /* 1..3 */
    unsigned threads;     /* >= 1 */
    uint64_t buffer_size; /* a thread buffer's bytes (a multiple of 32, >= 64); 0: default */
    int big_endian;
} xray_basic_params;

typedef struct xray_basic_synth xray_basic_synth;

/* choices: the source of every decision (seeded, or a fuzzer's bytes). */
xray_basic_synth *xray_basic_synth_new(const xray_basic_params *p, tc_rng *choices);
void xray_basic_synth_free(xray_basic_synth *s);

const xray_basic_header *xray_basic_synth_header(const xray_basic_synth *s);

/* Fills b with the next block. Returns 0 when the log is complete; *last
 * tells whether this block is the final one. */
int xray_basic_synth_next(xray_basic_synth *s, xray_basic_block *b, int *last);

#endif
