/* The toy format's generator as `tracecheck gen toy` drives it
 * (generators/common/generator.h): steps and marks, about --size bytes, and
 * a mutator for each rule one change can break. */
#include <stdio.h>
#include <string.h>

#include "../common/generator.h"
#include "../common/rng.h"

static const struct {
    tc_rule_id rule;
    const char *how;
} mutators[] = {
    {TC_RULE_TOY_MAGIC, "the magic's last byte changed"},
    {TC_RULE_TOY_RECORD_TRUNCATED, "two bytes of a record after the last"},
    {TC_RULE_TOY_KIND_UNKNOWN, "one record of kind 3"},
    {TC_RULE_TOY_STEP_BACKWARDS, "one step below the step before it"},
};
#define NMUTATORS (sizeof mutators / sizeof mutators[0])

static const tc_gen_option options[] = {{NULL, NULL, NULL}};

static void init(void *params) { (void)params; }

static size_t mutator_count(const void *params)
{
    (void)params;
    return NMUTATORS;
}

static void mutator_at(const void *params, size_t i, tc_gen_mutator *out)
{
    (void)params;
    out->rule = mutators[i].rule;
    out->how = mutators[i].how;
    snprintf(out->where, sizeof out->where, "any");
}

static void put_record(FILE *out, unsigned kind, unsigned value)
{
    uint8_t b[4] = {(uint8_t)kind, (uint8_t)(kind >> 8), (uint8_t)value, (uint8_t)(value >> 8)};
    fwrite(b, 1, sizeof b, out);
}

static int run(void *params, const tc_gen_common *c, tc_error *err)
{
    (void)params;
    int known = c->violate < 0;
    for (size_t i = 0; i < NMUTATORS; i++)
        known |= (int)mutators[i].rule == c->violate;
    if (!known)
        return tc_error_set(err, "gen", "%s is not a rule a toy file can break",
                            tc_rules[c->violate].id),
               TC_GEN_USAGE;
    int status;
    FILE *out = tc_gen_open_output(c, 1, &status, err);
    if (!out)
        return status;
    tc_rng rng;
    tc_rng_seed(&rng, c->seed);
    fputs(c->violate == TC_RULE_TOY_MAGIC ? "TOY2" : "TOY1", out);
    /* The first record is a step, so that a step can go below it. */
    uint64_t records = c->size > 8 ? (c->size - 4) / 4 : 1, broken = records / 2;
    unsigned step = 1;
    for (uint64_t i = 0; i < records; i++) {
        if (i == broken && c->violate == TC_RULE_TOY_KIND_UNKNOWN) {
            put_record(out, 3, 0);
        } else if (i == broken && c->violate == TC_RULE_TOY_STEP_BACKWARDS) {
            put_record(out, 1, step - 1);
            step--;
        } else if (i == 0 || tc_rng_below(&rng, 2) == 0) {
            unsigned up = (unsigned)tc_rng_below(&rng, 3) + 1;
            if (step <= 0xffffu - up)
                step += up;
            put_record(out, 1, step);
        } else {
            put_record(out, 2, (unsigned)tc_rng_below(&rng, 0x10000));
        }
    }
    if (c->violate == TC_RULE_TOY_RECORD_TRUNCATED)
        fwrite("\x01\x00", 1, 2, out);
    return tc_gen_close_output(out, c, 0, err);
}

const tc_generator toy_generator = {
    .options = options,
    .params_size = 1,
    .init = init,
    .mutator_count = mutator_count,
    .mutator_at = mutator_at,
    .output = "FILE (- for standard output)",
    .run = run,
    .help = "toy (the toy format of tests/toy): steps and marks, about --size bytes\n",
};
