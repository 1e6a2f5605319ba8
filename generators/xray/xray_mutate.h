/*
 * One-violation mutators, keyed by rule id: each turns a valid trace into one
 * on which the parser reports that rule and no other of error severity.
 * They hook into generation at the level where the change is simplest (the
 * header model, a buffer's records, the bytes of a buffer, or what follows
 * the last buffer), so a violating trace can be as large as a valid one.
 */
#ifndef TC_XRAY_MUTATE_H
#define TC_XRAY_MUTATE_H

#include "../../parsers/common/rules.h"
#include "xray_model.h"

typedef struct xray_mutation {
    const struct xray_mutator *m;
    tc_rng *rng;
    unsigned skip;   /* applicable buffers to pass over before mutating one */
    int applied;
    int pending;     /* a buffer hook prepared what the bytes hook finishes */
    int stop;        /* write nothing after the header */
} xray_mutation;

typedef struct xray_mutator {
    tc_rule_id rule;
    unsigned versions; /* bit v set: applies to version v */
    const char *how;   /* what it changes, for the documentation */
    /* Hooks return 1 once the mutation is applied. h is the header the
     * records are encoded with; the written header may differ. */
    int (*header)(xray_mutation *mu, xray_file_header *written);
    int (*header_bytes)(xray_mutation *mu, tc_bytebuf *bytes);
    int (*buffer)(xray_mutation *mu, const tc_xray_header *h, xray_buffer *b, int last);
    int (*buffer_bytes)(xray_mutation *mu, const tc_xray_header *h, tc_bytebuf *bytes, int last);
} xray_mutator;

#define XRAY_VERSION_BIT(v) (1u << (v))

/* NULL when the rule has no mutator. */
const xray_mutator *xray_mutator_for(tc_rule_id rule);
size_t xray_mutator_count(void);
const xray_mutator *xray_mutator_at(size_t i);

#endif
