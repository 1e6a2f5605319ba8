/*
 * One-violation mutators for ovni traces, keyed by rule id: each turns a
 * valid trace into one on which tracecheck reports that rule and no other
 * of error severity (for a warning rule: no error at all). A mutator picks
 * the stream it changes (the victim) from the plan, where the change cannot
 * spill over into another finding, and hooks in at the level where the
 * change is simplest: the plan (files, directories, values across streams),
 * the victim's metadata document or text, its stream header, its events as
 * they stream out, or what follows its last event.
 */
#ifndef TC_OVNI_MUTATE_H
#define TC_OVNI_MUTATE_H

#include "../../parsers/common/rules.h"
#include "ovni_events.h"
#include "ovni_json.h"
#include "ovni_plan.h"
#include "ovni_synth.h"

typedef struct ovni_mutation {
    const struct ovni_mutator *m;
    tc_rng *rng;
    size_t victim;      /* the stream it changes */
    unsigned variant;   /* which way of breaking the rule (picked by the plan hook) */
    uint64_t skip;      /* applicable places to pass over before the change */
    int applied;
    int64_t value;      /* worked out by the plan hook for a later hook */
    char why[160];      /* when a plan hook finds no way: the reason */
    uint8_t scratch[OVNI_MAX_PAYLOAD];
} ovni_mutation;

/* What an event hook sees of the victim's stream, and how it acts on it
 * (implemented by the driver, ovni_gen.c). */
typedef struct ovni_emitter {
    const ovni_plan *plan;
    size_t stream;
    const ovni_view *st; /* the stream before the current event (after the last one, at the end) */
    int first;           /* the current event is the stream's first */
    int drop;            /* set by a hook: the current event is not written */
    int stop;            /* set by a hook: nothing more is written to this stream */
    uint64_t last_clock; /* of the last event written with a clock below 2^63 (0: none) */
    tc_bytebuf *bytes;   /* the stream's bytes not written out yet: at least the last event */
    size_t last_at;      /* where the last event starts in bytes (SIZE_MAX: no event there) */
    int be;
    void *driver;
} ovni_emitter;

/* Writes an event now (before the current one). */
void ovni_emit(ovni_emitter *em, const ovni_ev *ev);

typedef struct ovni_mutator {
    tc_rule_id rule;
    const char *how; /* what it changes, for --list-mutators */
    /* Picks the victim and the variant, and may edit the plan. Returns 0
     * when the plan offers no way (the reason in mu->why). Required. */
    int (*plan)(ovni_mutation *mu, ovni_plan *pl);
    /* The victim's metadata document; returns the root to write. */
    ovni_json *(*meta)(ovni_mutation *mu, const ovni_plan *pl, ovni_json *root);
    /* The victim's metadata text (root's offsets point into it). */
    void (*json)(ovni_mutation *mu, const ovni_json *root, tc_bytebuf *text);
    /* The victim's stream header: em->bytes holds its 8 bytes. */
    void (*header)(ovni_mutation *mu, ovni_emitter *em);
    /* Each event of the victim's stream, before it is written. */
    void (*event)(ovni_mutation *mu, ovni_emitter *em, ovni_ev *ev);
    /* After the victim's last event. */
    void (*end)(ovni_mutation *mu, ovni_emitter *em);
} ovni_mutator;

/* NULL when the rule has no ovni mutator. */
const ovni_mutator *ovni_mutator_for(tc_rule_id rule);
size_t ovni_mutator_count(void);
const ovni_mutator *ovni_mutator_at(size_t i);

/* ---- shared by the mutator tables (ovni_mutate.c) ---- */

/* A random stream for which ok(pl, i) holds (ok NULL: any), or SIZE_MAX. */
size_t ovni_pick(ovni_mutation *mu, const ovni_plan *pl,
                 int (*ok)(const ovni_plan *pl, size_t i));
/* Whether to change this applicable place or pass on to a later one;
 * force: the last place there will be. */
int ovni_take(ovni_mutation *mu, int force);
/* Sets mu->skip for a change somewhere among the victim's events. */
void ovni_spread(ovni_mutation *mu, const ovni_plan *pl);
/* Plan hooks that pick the victim: a stream for which ok holds (the reason
 * in mu->why when none does); any stream; one that can drop out of the
 * checks across streams (ovni_plan_excludable); one that uses nosv (made
 * to when none does). Each also spreads the change over the events. */
int ovni_victim_where(ovni_mutation *mu, ovni_plan *pl, int (*ok)(const ovni_plan *pl, size_t i));
int ovni_victim_any(ovni_mutation *mu, ovni_plan *pl);
int ovni_victim_excludable(ovni_mutation *mu, ovni_plan *pl);
int ovni_victim_nosv(ovni_mutation *mu, ovni_plan *pl);

/* The tables: binary streams and the model (ovni_mut_stream.c), metadata
 * and JSON (ovni_mut_meta.c), the trace as a whole (ovni_mut_trace.c). */
extern const ovni_mutator ovni_stream_mutators[];
extern const size_t ovni_stream_mutator_count;
extern const ovni_mutator ovni_meta_mutators[];
extern const size_t ovni_meta_mutator_count;
extern const ovni_mutator ovni_trace_mutators[];
extern const size_t ovni_trace_mutator_count;
/* The model layer of every model (ovni_mut_models.c). */
extern const ovni_mutator ovni_model_mutators[];
extern const size_t ovni_model_mutator_count;

#endif
