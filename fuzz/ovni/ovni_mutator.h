/*
 * A structure-aware mutator for ovni binary streams (stream.obs), shared by
 * the libFuzzer build of ovni_stream (LLVMFuzzerCustomMutator) and AFL++
 * (fuzz/afl_mutator.c, loaded with AFL_CUSTOM_MUTATOR_LIBRARY).
 *
 * The input is read the way the stream parser reads it (header, then
 * events: flags and size code, MCV, clock, payload or jumbo size and data;
 * what is left is a tail) and mutated at that level: events inserted
 * (ovni's own, with their payloads, other models', jumbo), deleted,
 * duplicated, swapped; flags, size codes, MCV letters, clocks (up, down,
 * equal, 2^63 and above), payload sizes and jumbo sizes (0x7FFFFFFF,
 * 0xFFFFFFF0, 2 MiB...) changed; the header's version and byte order
 * changed; the stream cut anywhere. Then it is written back. Byte-level
 * mutation (the engine's, through the callback) takes a share of the calls,
 * and all of those whose input is no stream at all.
 */
#ifndef TC_FUZZ_OVNI_MUTATOR_H
#define TC_FUZZ_OVNI_MUTATOR_H

#include <stddef.h>
#include <stdint.h>

/* The engine's own byte mutation: LLVMFuzzerMutate's contract (mutate
 * data[0..size) in place within max_size, return the new size). */
typedef size_t (*ovni_byte_mutator)(uint8_t *data, size_t size, size_t max_size);

/* Mutates data[0..size) in place (capacity max_size); returns the new
 * size. bytes may be NULL: a small built-in byte mutation is used. */
size_t ovni_mutate(uint8_t *data, size_t size, size_t max_size, unsigned seed,
                   ovni_byte_mutator bytes);

/* Events of a and b spliced into out (capacity max_size): a's header and
 * first events, then b's from some point on. Returns the size. */
size_t ovni_cross_over(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, uint8_t *out,
                       size_t max_size, unsigned seed);

#endif
