/* Writing a whole XRay trace: synthesis, then optionally one mutation. */
#ifndef TC_XRAY_GEN_H
#define TC_XRAY_GEN_H

#include <stdio.h>

#include "../../parsers/common/error.h"
#include "../../parsers/common/rules.h"
#include "../common/generator.h"
#include "xray_synth.h"

typedef struct xray_gen_stats {
    uint64_t bytes, buffers;
} xray_gen_stats;

/* Where the bytes go: a FILE, or memory when out is NULL. */
typedef struct xray_sink {
    FILE *out;
    tc_bytebuf *mem;
} xray_sink;

/* violate: a rule to break, or -1 for a valid trace. choices: NULL to seed
 * from p->seed. Returns 0, or -1 with the reason in err. */
int xray_generate(const xray_gen_params *p, int violate, tc_rng *choices, xray_sink sink,
                  xray_gen_stats *stats, tc_error *err);

/* The version --violate picks when none is given: 5 if the rule exists in
 * version 5, else the highest version it exists in. */
unsigned xray_default_version(int violate);

/* The generator of FDR traces and basic-mode logs as `tracecheck gen` drives it (xray_generator.c). */
extern const tc_generator xray_generator, xray_basic_generator;

#endif
