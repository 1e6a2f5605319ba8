/*
 * Running the threads of a program model and writing the DCFG-trace (doc
 * §3) as they run, in one pass with bounded memory: a chunk's sequence is
 * held until the chunk ends (its counts come first in its row), and chunks
 * end at a size drawn per chunk, at most 1 MiB.
 *
 * Per process: a short sample run of every thread counts which edge follows
 * which, the transition codes are built from those counts (dcfg_code.h),
 * the string dictionary from the codes of the spin loops, and then each
 * thread runs until its share of the size is written, counting every edge
 * it takes into the model (the DCFG's counts come from there).
 *
 * Encoding: the bits of each row's code, six to a character of the
 * modified Base64 alphabet (A-Z a-z 0-9 + -; '-' is 63, ruling 1). The
 * runs of a spin loop, whose bits repeat with a period of a few characters
 * once they reach a character boundary, are written out, as "(M*chars)",
 * or through dictionary entries ("<key>", whose values nest a repeat of
 * another key).
 */
#ifndef TC_DCFG_TRACE_H
#define TC_DCFG_TRACE_H

#include "dcfg_code.h"
#include "dcfg_out.h"

struct dg_mutation;

typedef struct dg_trace_stats {
    uint64_t edges, chunks, repeats, dict_refs, multi_rows;
} dg_trace_stats;

/* Writes the trace of every process of pg to o, counting edges into the
 * model. rng: every choice of the run (the thread runs draw from it in
 * order). mu: a mutation to apply, or NULL. */
void dg_write_trace(dg_program *pg, uint64_t size, tc_rng *rng, dg_out *o, dg_trace_stats *st,
                    struct dg_mutation *mu);

/* The modified Base64 character of a 6-bit value. */
extern const char dg_b64[64];

#endif
