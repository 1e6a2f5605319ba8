/*
 * One-violation mutators for basic-mode logs, keyed by rule id: each turns a
 * valid log into one on which the parser reports that rule and no other of
 * error severity. They hook into generation where the change is simplest
 * (the header model, the header's bytes, a block's records, or a block's
 * bytes), so a violating log can be as large as a valid one. The rules of
 * the header that both XRay formats share have mutators here too.
 */
#ifndef TC_XRAY_BASIC_MUTATE_H
#define TC_XRAY_BASIC_MUTATE_H

#include "../../parsers/common/rules.h"
#include "xray_basic_model.h"

typedef struct xray_basic_mutation {
    const struct xray_basic_mutator *m;
    tc_rng *rng;
    unsigned skip; /* applicable blocks to pass over before mutating one */
    int applied;
    int stop;      /* write nothing after the header */
    int first;     /* the block is the log's first */
} xray_basic_mutation;

typedef struct xray_basic_mutator {
    tc_rule_id rule;
    unsigned versions; /* bit v set: applies to version v (1 to 3) */
    const char *how;   /* what it changes, for the documentation */
    /* Hooks return 1 once the mutation is applied. */
    int (*header)(xray_basic_mutation *mu, xray_basic_header *written);
    int (*header_bytes)(xray_basic_mutation *mu, tc_bytebuf *bytes);
    int (*block)(xray_basic_mutation *mu, const tc_xray_header *h, xray_basic_block *b, int last);
    int (*block_bytes)(xray_basic_mutation *mu, const tc_xray_header *h, tc_bytebuf *bytes,
                       int last);
} xray_basic_mutator;

/* NULL when the rule has no basic-mode mutator. */
const xray_basic_mutator *xray_basic_mutator_for(tc_rule_id rule);
size_t xray_basic_mutator_count(void);
const xray_basic_mutator *xray_basic_mutator_at(size_t i);

#endif
