/*
 * The ovni generator for round-trip fuzzing: a small valid trace made in
 * memory, every decision taken from a tc_rng of choices, without touching
 * the disk.
 *
 *     tc_rng choices;
 *     tc_rng_from_bytes(&choices, data, size);   // the fuzzer's input
 *     ovni_mem_trace t = {0};
 *     ovni_gen_params used;
 *     if (ovni_roundtrip_synth(&choices, &used, &t) == 0) {
 *         for (size_t i = 0; i < t.n; i++) {
 *             const ovni_mem_stream *s = &t.streams[i];
 *             // s->json: the stream.json text (s->has_json is 1);
 *             // s->obs: the stream.obs bytes (s->has_obs is 1);
 *             // s->events[0..nevents): every event written, in order: its
 *             //   offset in s->obs, flags, size code, MCV, clock, payload
 *             //   length (jumbo: data length, ev.jumbo_size as written),
 *             //   and ovni_mem_payload(s, e): a copy of the payload bytes
 *             //   the model made, to compare with what a parser reads;
 *             // s->loom, s->pid, s->tid: what the metadata says;
 *             // s->big_endian: the stream's byte order;
 *             // s->rel: the stream's directory, loom.L/proc.P/thread.T.
 *         }
 *     }
 *     ovni_mem_trace_free(&t);
 *
 * What the fuzzer's bytes decide, in order: the shape (1 to 3 looms,
 * processes per loom and threads per process), the byte order (one for the
 * trace, or one per stream), the size (0 to 16 KiB of events), then every
 * choice of the plan (names, ids, CPU lists, which threads give which
 * metadata and how it is laid out) and of each stream's events (they share
 * the one tc_rng, in stream order). Once the bytes run out every choice is
 * 0, which still makes a complete, valid trace.
 *
 * The trace is valid: tracecheck reports nothing on it, not even a
 * warning, and the canonical dump of its streams lists exactly these
 * events. Events with equal clocks keep their order within a stream.
 */
#ifndef TC_OVNI_ROUNDTRIP_H
#define TC_OVNI_ROUNDTRIP_H

#include "ovni_gen.h"

/* Largest --size the round trip asks for: many small traces per second. */
#define OVNI_ROUNDTRIP_MAX_SIZE (16u << 10)

/* Fills out (which must be zeroed, or freed and zeroed) and *used (the
 * parameters the choices picked; may be NULL). Returns 0, or -1 when out of
 * memory (out is then empty). */
int ovni_roundtrip_synth(tc_rng *choices, ovni_gen_params *used, ovni_mem_trace *out);

#endif
