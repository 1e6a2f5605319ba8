/*
 * A structure-aware mutator for SiFive perf data in Nexus .rtd files, as
 * perf_lean and perf_container take them (a first byte choosing --srcbits,
 * then the file), shared by their libFuzzer builds
 * (LLVMFuzzerCustomMutator) and AFL++ (fuzz/afl_mutator.c).
 *
 * The file is cut into messages as spec/perf/perf.md "Nexus" frames them (MSEO
 * 3 ends a message, 0xFF bytes idle between messages), and each Data
 * Acquisition message (TCODE 7) is decoded into SRC, IDTAG, DQDATA and an
 * optional TIMESTAMP. Mutations work on messages: deleted, duplicated,
 * moved; encoded anew with other fields (the perf channel's IDTAGs for
 * 32-, 16- and 8-bit writes, width code 1, other channels; values the perf
 * grammar turns on: the marker, count types, masks, counter_info with
 * widths at their edges, odd and even addresses, 16-bit high parts, zero);
 * whole headers and records of the perf grammar inserted, entry records
 * with their exits matching or not; timestamps added and removed; framing
 * broken (a field end moved, one more field, a message over 64 bytes, an
 * end cut off, a start inside a message, idle bytes, other TCODEs). One call
 * in five, and every input whose first byte asks for a text message list
 * (0xF0 and above), goes to byte-level mutation.
 */
#ifndef TC_FUZZ_PERF_MUTATOR_H
#define TC_FUZZ_PERF_MUTATOR_H

#include "../common/mutator.h"

size_t perf_mutate(uint8_t *data, size_t size, size_t max_size, unsigned seed,
                   mut_bytes_fn bytes);
/* a's first byte and first messages, then b's from some point on. */
size_t perf_cross_over(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, uint8_t *out,
                       size_t max_size, unsigned seed);

#endif
