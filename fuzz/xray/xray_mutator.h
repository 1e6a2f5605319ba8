/*
 * A structure-aware mutator for XRay files, FDR traces and basic-mode logs
 * alike (the header's type decides), shared by the libFuzzer builds of
 * xray_lean and xray_basic_lean (LLVMFuzzerCustomMutator) and AFL++
 * (fuzz/afl_mutator.c).
 *
 * The input is read as the format lays it out (spec/xray/xray.md: the 32-byte
 * header; FDR: 8-byte function records and 16-byte metadata records, a
 * custom or typed event's payload after its record; basic mode: 32-byte
 * records) and mutated at that level: records deleted, duplicated, moved,
 * inserted (every metadata kind with plausible fields, function entries and
 * the exits that match them or not, argument payloads after their record or
 * elsewhere); fields set to the values the rules turn on (actions, kinds,
 * event sizes against the buffer's room, BufferExtents sizes against the
 * buffer and buffer_size, TSCs going back, microseconds at 10^6, process ids
 * before version 3, padding); the header's version and buffer_size changed;
 * the file cut anywhere. After a structural change the BufferExtents of
 * version 2+ are usually recomputed so that the framing holds and the
 * mutation reaches the records. One call in five, and every input that is
 * not an XRay file, goes to byte-level mutation.
 */
#ifndef TC_FUZZ_XRAY_MUTATOR_H
#define TC_FUZZ_XRAY_MUTATOR_H

#include "../common/mutator.h"

size_t xray_mutate(uint8_t *data, size_t size, size_t max_size, unsigned seed,
                   mut_bytes_fn bytes);
/* a's header and first records, then b's records from some point on. */
size_t xray_cross_over(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, uint8_t *out,
                       size_t max_size, unsigned seed);

#endif
