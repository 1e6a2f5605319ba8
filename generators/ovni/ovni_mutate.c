/* The ovni mutator tables (ovni_mut_stream.c, ovni_mut_meta.c) behind one
 * lookup, and what their hooks share. */
#include <stdint.h>
#include <stdio.h>

#include "ovni_mutate.h"

const ovni_mutator *ovni_mutator_for(tc_rule_id rule)
{
    for (size_t i = 0; i < ovni_mutator_count(); i++)
        if (ovni_mutator_at(i)->rule == rule)
            return ovni_mutator_at(i);
    return NULL;
}

size_t ovni_mutator_count(void)
{
    return ovni_stream_mutator_count + ovni_meta_mutator_count + ovni_trace_mutator_count +
           ovni_model_mutator_count;
}

const ovni_mutator *ovni_mutator_at(size_t i)
{
    if (i < ovni_stream_mutator_count)
        return &ovni_stream_mutators[i];
    i -= ovni_stream_mutator_count;
    if (i < ovni_meta_mutator_count)
        return &ovni_meta_mutators[i];
    i -= ovni_meta_mutator_count;
    if (i < ovni_trace_mutator_count)
        return &ovni_trace_mutators[i];
    i -= ovni_trace_mutator_count;
    return i < ovni_model_mutator_count ? &ovni_model_mutators[i] : NULL;
}

size_t ovni_pick(ovni_mutation *mu, const ovni_plan *pl, int (*ok)(const ovni_plan *pl, size_t i))
{
    /* A few random draws first: ok may itself look at every stream, and
     * most streams pass, so a trace of many streams need not be scanned
     * (uniform over the streams that pass, all the same). */
    for (int tries = 0; ok && pl->n > 64 && tries < 64; tries++) {
        size_t i = (size_t)tc_rng_below(mu->rng, pl->n);
        if (ok(pl, i))
            return i;
    }
    size_t count = 0;
    for (size_t i = 0; i < pl->n; i++)
        count += !ok || ok(pl, i);
    if (count == 0)
        return SIZE_MAX;
    size_t k = (size_t)tc_rng_below(mu->rng, count);
    for (size_t i = 0; i < pl->n; i++)
        if ((!ok || ok(pl, i)) && k-- == 0)
            return i;
    return SIZE_MAX;
}

int ovni_take(ovni_mutation *mu, int force)
{
    if (mu->applied)
        return 0;
    if (force || mu->skip == 0)
        return 1;
    mu->skip--;
    return 0;
}

void ovni_spread(ovni_mutation *mu, const ovni_plan *pl)
{
    /* About one place in four is applicable; keep the change within the
     * first part of the stream so that it happens before the end. */
    uint64_t events = pl->streams[mu->victim].budget / 24;
    uint64_t span = events / 8;
    if (span > 256)
        span = 256;
    mu->skip = tc_rng_below(mu->rng, span + 1);
}

int ovni_victim_where(ovni_mutation *mu, ovni_plan *pl, int (*ok)(const ovni_plan *pl, size_t i))
{
    mu->victim = ovni_pick(mu, pl, ok);
    if (mu->victim == SIZE_MAX) {
        snprintf(mu->why, sizeof mu->why, "no stream can take the change alone");
        return 0;
    }
    ovni_spread(mu, pl);
    return 1;
}

int ovni_victim_any(ovni_mutation *mu, ovni_plan *pl) { return ovni_victim_where(mu, pl, NULL); }

int ovni_victim_excludable(ovni_mutation *mu, ovni_plan *pl)
{
    return ovni_victim_where(mu, pl, ovni_plan_excludable);
}

static int uses_nosv(const ovni_plan *pl, size_t i)
{
    return (pl->streams[i].uses & OVNI_USES_NOSV) != 0;
}

int ovni_victim_nosv(ovni_mutation *mu, ovni_plan *pl)
{
    mu->victim = ovni_pick(mu, pl, uses_nosv);
    if (mu->victim == SIZE_MAX) {
        mu->victim = ovni_pick(mu, pl, NULL);
        pl->streams[mu->victim].uses |= OVNI_USES_NOSV;
    }
    ovni_spread(mu, pl);
    return 1;
}
