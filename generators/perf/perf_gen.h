/* Writing a whole SiFive perf trace (a Nexus .rtd or a text message list):
 * a simulated run, streamed in constant memory, optionally breaking one
 * rule. */
#ifndef TC_PERF_GEN_H
#define TC_PERF_GEN_H

#include <stdio.h>

#include "../../parsers/common/error.h"
#include "../../parsers/common/rules.h"
#include "../common/bytebuf.h"
#include "../common/generator.h"
#include "nexus_write.h" /* PERF_RTD, PERF_TEXT */
#include "perf_model.h"  /* PERF_COUNT_* */

typedef struct perf_gen_params {
    uint64_t seed, size; /* size: about how many bytes */
    int count_type;      /* PERF_COUNT_*, or -1: drawn from the seed */
    int container;       /* PERF_RTD or PERF_TEXT, or -1: perf_default_container() */
    unsigned srcbits;    /* Nexus SRC field width, 0 to 8 */
} perf_gen_params;

typedef struct perf_gen_stats {
    uint64_t bytes, records, headers;
    unsigned count_type, method;
    uint32_t mask;
} perf_gen_stats;

/* Where the bytes go: a FILE, or memory when out is NULL. */
typedef struct perf_sink {
    FILE *out;
    tc_bytebuf *mem;
} perf_sink;

/* violate: a rule to break, or -1 for a valid trace. Returns 0, or -1 with
 * the reason in err. */
int perf_generate(const perf_gen_params *p, int violate, perf_sink sink, perf_gen_stats *stats,
                  tc_error *err);

/* The container used when none is asked for: Nexus, unless the rule
 * exists only in the text container. */
int perf_default_container(int violate);

/* The generator of SiFive perf data as `tracecheck gen` drives it (perf_generator.c). */
extern const tc_generator perf_generator;

#endif
