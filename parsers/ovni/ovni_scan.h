/*
 * A run of a stream's common events decoded ahead of the model layer
 * (ovni_run.c): each event's place, model and event index, found from its
 * header alone, so that the walk from event to event never waits on what
 * the model does with them. One scalar version, picked through a pointer
 * so that a vector one could take its place: an event's start is known only
 * once the event before it is read (its size code), so vector compares
 * would repeat the chain's work (docs/benchmarks.md, ovni).
 */
#ifndef TC_OVNI_SCAN_H
#define TC_OVNI_SCAN_H

#include <stddef.h>
#include <stdint.h>

/* The longest normal event: a header and 16 bytes of payload. The scan
 * takes an event only when at least this much is left from its start. */
#define TC_OVNI_SCAN_SPAN (12u + 16u)

typedef struct tc_ovni_scanned {
    uint32_t at;    /* its first byte, from the start of the run */
    uint16_t index; /* tc_ovni_events_hot's */
    uint8_t model;  /* tc_ovni_model_id */
    uint8_t pad;
} tc_ovni_scanned;

/* Decodes at most max events from b (not starting one less than
 * TC_OVNI_SCAN_SPAN bytes before end) while each is one the fast path takes:
 * its code gate[letter] - 1 a model (gate: ovni_model.h), with an event of
 * that category and value whose code (tc_ovni_event_hot) is the event's
 * first byte, its clock (byte order be) at least the one before it (last
 * for the first) and below 2^63. Returns how many (n); out[0..n-1] are
 * those events and out[n].at is where the run ends. out has max + 1
 * entries. */
typedef size_t (*tc_ovni_scan_fn)(const uint8_t *b, const uint8_t *end, const uint8_t *gate,
                                  int be, uint64_t last, tc_ovni_scanned *out, size_t max);

/* The reference, byte by byte. */
size_t tc_ovni_scan_scalar(const uint8_t *b, const uint8_t *end, const uint8_t *gate, int be,
                           uint64_t last, tc_ovni_scanned *out, size_t max);

/* The version for the vector level in force (tc_simd_level_get). */
tc_ovni_scan_fn tc_ovni_scan_pick(void);

#endif
