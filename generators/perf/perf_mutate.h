/*
 * One-violation mutators for SiFive perf data, keyed by rule id: each turns
 * a valid trace into one on which the parser reports that rule and no
 * other of error severity (for a warning: no error at all). They hook in
 * where the change is simplest: the plan of the run, the writes before the
 * first header or after the last record, a record before or after the
 * library turns it into writes, or the container's bytes.
 */
#ifndef TC_PERF_MUTATE_H
#define TC_PERF_MUTATE_H

#include "../../parsers/common/rules.h"
#include "nexus_write.h"
#include "perf_writer.h"

/* What a mutator needs of the whole trace. */
typedef struct perf_gen_plan {
    perf_plan model;
    int second_header; /* 1: write a second header (the generator applies it) */
    int mixed;         /* 1: one record of another kind (the generator applies it) */
    int no_data;       /* 1: no perf-channel message at all */
    int no_header;     /* 1: no header: the records alone */
} perf_gen_plan;

typedef struct perf_mutation {
    const struct perf_mutator *m;
    tc_rng *rng;
    perf_model *model;
    uint64_t at; /* the first record a record or unit hook may change */
    int applied;
    int stop; /* no perf write after this one */
} perf_mutation;

enum { PERF_AT_START, PERF_AT_MIDDLE, PERF_AT_END };

#define PERF_IN_RTD  (1u << PERF_RTD)
#define PERF_IN_TEXT (1u << PERF_TEXT)

typedef struct perf_mutator {
    tc_rule_id rule;
    unsigned containers; /* PERF_IN_* where the rule exists */
    int where;           /* PERF_AT_*: before the records, among them, or at the end
                          * (after the last record, or the last record itself) */
    const char *how;     /* what it changes, for --list-mutators */
    void (*plan)(perf_gen_plan *p);
    /* Hooks return 1 once the mutation is applied. */
    int (*before)(perf_mutation *mu, const perf_config *cfg,
                  perf_unit *u); /* before the first header */
    int (*record)(perf_mutation *mu, const perf_writer *w, perf_record *r, int last);
    int (*unit)(perf_mutation *mu, perf_unit *u, int last); /* a record's writes */
    int (*after)(perf_mutation *mu, const perf_config *cfg,
                 perf_unit *u); /* after the last record */
    int (*bytes)(perf_mutation *mu, perf_out *o, int where);
} perf_mutator;

/* NULL when the rule has no mutator. */
const perf_mutator *perf_mutator_for(tc_rule_id rule);
size_t perf_mutator_count(void);
const perf_mutator *perf_mutator_at(size_t i);

#endif
