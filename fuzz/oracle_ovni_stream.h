/*
 * A reading of ovni streams written from spec/ovni.md alone, independently
 * of parsers/ovni/: the header, the events (flags and size code, MCV,
 * clock, payload, or jumbo size and data), the checks of rulings 1 to 5, a
 * decrease inside an unsorted region told from one outside (ruling 11), and
 * the model layer of ruling 8 (payload sizes of ovni's own events, models a
 * stream may use, libovni's thread states, flush and unsorted regions),
 * with metadata or without. From the bytes it works out the events and the
 * findings (rule, offset, length, in the parser's order) a stream deserves.
 */
#ifndef TC_FUZZ_ORACLE_OVNI_STREAM_H
#define TC_FUZZ_ORACLE_OVNI_STREAM_H

#include "harness.h"
#include "ovni_events.h"

/* What the model layer is told about the stream (a tc_ovni_meta's part). */
typedef struct ovo_view {
    int thread;
    int known;            /* ovni.require was read */
    const uint8_t *letters;
    int unknown_required;
    int ovni_unjudged;    /* ovni's model required at a version not known (ruling 9) */
} ovo_view;

/* Aborts unless run (the stream calls, findings uncapped) delivered the
 * events (field by field, payloads when held) and findings that the n
 * bytes at p deserve, the model layer's included when models. */
void ovo_check_stream(const ov_run *run, const uint8_t *p, size_t n, const ovo_view *v,
                      int models, const char *what);

/* Every event (kept, payloads held), written back from its fields in the
 * stream's byte order, is the input's bytes at its offset, and the events
 * follow each other from the header on. */
void ovo_check_reencode(const ov_run *run, const uint8_t *p, size_t n);

/* The model layer's rules (those --no-models drops). */
int ovo_model_rule(tc_rule_id r);

/* Metadata for the model layer, from the seeded source: a thread stream or
 * not, which models it requires (ovni.require read or not), and now and
 * then ovni's own at a version not compatible with 1.1.0 (ruling 9); v is
 * what the reading is told. */
void ovo_pick_meta(tc_ovni_meta *m, ovo_view *v, hx_rng *r);

#endif
