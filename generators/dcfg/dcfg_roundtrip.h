/*
 * The DCFG generator for round-trip fuzzing: a small valid DCFG and its
 * DCFG-trace made in memory, every decision taken from a tc_rng of
 * choices, without touching the disk.
 *
 *     tc_rng choices;
 *     tc_rng_from_bytes(&choices, data, size);   // the fuzzer's input
 *     dcfg_mem m = {0};
 *     dcfg_gen_params used;
 *     dcfg_gen_stats st;
 *     if (dcfg_roundtrip_synth(&choices, &used, &m, &st) == 0) {
 *         // m.dcfg: the DCFG text; m.trace: the DCFG-trace text.
 *         // st.traversed: the edges the trace's threads take in all;
 *         // st.chunks: its TRACE_DATA rows.
 *     }
 *     dcfg_mem_free(&m);
 *
 * What the fuzzer's bytes decide, in order: the shape (1 or 2 processes,
 * 1 to 3 threads each), the size (0 to 8 KiB of trace), then every choice
 * of the program model (routines, statements, probabilities, ids), of the
 * runs (branches taken, loop trips, chunk ends, how runs are compressed)
 * and of the DCFG's presentation (key and column orders, integer forms):
 * they share the one tc_rng, in that order. Once the bytes run out every
 * choice is 0, which still makes a complete, valid pair.
 *
 * The pair is valid: tracecheck reports nothing on it, and the trace,
 * decoded with its transition table and dictionary, takes exactly the
 * edges the DCFG counts, in chunks whose instruction counts add up.
 */
#ifndef TC_DCFG_ROUNDTRIP_H
#define TC_DCFG_ROUNDTRIP_H

#include "dcfg_gen.h"

/* Largest --size the round trip asks for: many small pairs per second. */
#define DCFG_ROUNDTRIP_MAX_SIZE (8u << 10)

/* Fills out (which must be zeroed, or freed and zeroed), *used (the
 * parameters the choices picked) and *stats (either may be NULL). Returns
 * 0, or -1 when generation failed (out is then empty). */
int dcfg_roundtrip_synth(tc_rng *choices, dcfg_gen_params *used, dcfg_mem *out,
                         dcfg_gen_stats *stats);

#endif
