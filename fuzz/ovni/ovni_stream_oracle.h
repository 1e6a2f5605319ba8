/*
 * A reading of ovni streams written from spec/ovni/ovni.md alone, independently
 * of parsers/ovni/: the header, the events (flags and size code, MCV,
 * clock, payload, or jumbo size and data), the checks of rulings 1 to 5, a
 * decrease inside an unsorted region told from one outside (ruling 11), and
 * what the model layer says of each event on its own (rulings 8, 9, 15 and
 * 17: the models a stream may use and judges, every model's events and
 * payload layouts as spec/ovni/models.def declares them, old events,
 * libovni's thread states, flush and unsorted regions), with metadata or
 * without. From the bytes it works out the events and the findings (rule,
 * offset, length, in the parser's order) a stream deserves.
 *
 * The states the models keep across events (rulings 13 and 15: subsystems,
 * tasks and bodies, marks, CPUs; ovni_oracle_state_rule) are not re-derived here:
 * their findings are left out of the comparison, and judged instead by the
 * unit tests, the conformance cases and `conformance --generate` against
 * ovniemu (docs/fuzzing.md).
 */
#ifndef TC_FUZZ_OVNI_STREAM_ORACLE_H
#define TC_FUZZ_OVNI_STREAM_ORACLE_H

#include "../common/harness.h"
#include "ovni_events.h"

/* What the model layer is told about the stream (a tc_ovni_meta's part). */
typedef struct ovni_oracle_view {
    int thread;
    int known;            /* ovni.require was read */
    const uint8_t *letters;
    int unknown_required;
    int ovni_unjudged;    /* ovni's model required at a version not known (ruling 9) */
    const uint8_t *incompatible; /* [letter]: required at a version not known (ruling 15) */
} ovni_oracle_view;

/* Aborts unless run (the stream calls, findings uncapped) delivered the
 * events (field by field, payloads when held) and findings that the n
 * bytes at p deserve, the model layer's included when models. */
void ovni_oracle_check_stream(const ov_run *run, const uint8_t *p, size_t n, const ovni_oracle_view *v,
                      int models, const char *what);

/* Every event (kept, payloads held), written back from its fields in the
 * stream's byte order, is the input's bytes at its offset, and the events
 * follow each other from the header on. */
void ovni_oracle_check_reencode(const ov_run *run, const uint8_t *p, size_t n);

/* The model layer's rules (those --no-models drops). */
int ovni_oracle_model_rule(tc_rule_id r);
/* Those of the model layer's states across events (rulings 13 and 15),
 * which this reading does not follow. */
int ovni_oracle_state_rule(tc_rule_id r);

/* Metadata for the model layer, from the seeded source: a thread stream or
 * not, which models it requires (ovni.require read or not), and now and
 * then one of them, ovni's own included, at a version not compatible with
 * the one tracecheck knows (rulings 9 and 15); v is what the reading is
 * told. */
void ovni_oracle_pick_meta(tc_ovni_meta *m, ovni_oracle_view *v, hx_rng *r);

#endif
