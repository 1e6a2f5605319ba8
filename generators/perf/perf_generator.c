/* The SiFive perf generator as `tracecheck gen perf` drives it
 * (generator.h): ITC writes of channel 6 from a simulated run, in a Nexus
 * .rtd trace or a text message list (perf_gen.h). */
#include <stdio.h>
#include <string.h>

#include "../../parsers/common/options.h"
#include "../common/generator.h"
#include "perf_gen.h"
#include "perf_mutate.h"

typedef struct perf_opts {
    int count_type, container; /* -1: not given */
    unsigned srcbits;
} perf_opts;

static int set_count_type(void *params, const char *v, tc_error *err)
{
    perf_opts *o = params;
    if (!strcmp(v, "raw"))
        o->count_type = PERF_COUNT_RAW;
    else if (!strcmp(v, "delta"))
        o->count_type = PERF_COUNT_DELTA;
    else if (!strcmp(v, "xor"))
        o->count_type = PERF_COUNT_XOR;
    else
        return tc_error_set(err, "gen", "--count-type takes raw, delta or xor"), TC_GEN_USAGE;
    return TC_GEN_OK;
}

static int set_container(void *params, const char *v, tc_error *err)
{
    perf_opts *o = params;
    if (!strcmp(v, "rtd"))
        o->container = PERF_RTD;
    else if (!strcmp(v, "text"))
        o->container = PERF_TEXT;
    else
        return tc_error_set(err, "gen", "--container takes rtd or text"), TC_GEN_USAGE;
    return TC_GEN_OK;
}

static int set_srcbits(void *params, const char *v, tc_error *err)
{
    unsigned long long n;
    if (tc_parse_size(v, &n) != 0 || n > 8)
        return tc_error_set(err, "gen", "--srcbits takes 0 to 8"), TC_GEN_USAGE;
    ((perf_opts *)params)->srcbits = (unsigned)n;
    return TC_GEN_OK;
}

static const tc_gen_option options[] = {
    {"count-type", "T", set_count_type},
    {"container", "C", set_container},
    {"srcbits", "N", set_srcbits},
    {NULL, NULL, NULL},
};

static void init(void *params)
{
    perf_opts *o = params;
    memset(o, 0, sizeof *o);
    o->count_type = -1;
    o->container = -1;
}

static size_t mutator_count(const void *params)
{
    (void)params;
    return perf_mutator_count();
}

static void mutator_at(const void *params, size_t i, tc_gen_mutator *out)
{
    (void)params;
    const perf_mutator *m = perf_mutator_at(i);
    const char *where = m->containers == PERF_IN_RTD    ? "rtd"
                        : m->containers == PERF_IN_TEXT ? "text"
                                                        : "rtd,text";
    out->rule = m->rule;
    out->how = m->how;
    snprintf(out->where, sizeof out->where, "%s", where);
}

/* The container a file name asks for (spec/perf/perf.md: .rtd Nexus, .itc
 * text), or -1. */
static int container_of(const char *name)
{
    size_t n = strlen(name);
    if (n >= 4 && !strcmp(name + n - 4, ".itc"))
        return PERF_TEXT;
    if (n >= 4 && !strcmp(name + n - 4, ".rtd"))
        return PERF_RTD;
    return -1;
}

static int run(void *params, const tc_gen_common *c, tc_error *err)
{
    const perf_opts *o = params;
    if (c->violate >= 0 && !perf_mutator_for((tc_rule_id)c->violate))
        return tc_error_set(err, "gen",
                            "%s is not a rule perf data can break (see "
                            "'tracecheck gen perf --list-mutators')",
                            tc_rules[c->violate].id),
               TC_GEN_USAGE;
    int container = o->container;
    if (container < 0)
        container = container_of(c->output);
    if (container < 0)
        container = perf_default_container(c->violate);
    int status;
    FILE *out = tc_gen_open_output(c, container == PERF_RTD, &status, err);
    if (!out)
        return status;
    perf_gen_params p = {.seed = c->seed, .size = c->size, .count_type = o->count_type,
                         .container = container, .srcbits = o->srcbits};
    perf_sink sink = {out, NULL};
    int rc = perf_generate(&p, c->violate, sink, NULL, err);
    return tc_gen_close_output(out, c, rc, err);
}

/* conformance --generate: every count type in both containers (a text
 * container's name ends in .itc). --srcbits stays 0: a case has no place
 * for the option that validating it then needs. */
static const char *const count_types[] = {"raw", "delta", "xor", NULL};
static const char *const containers[] = {"rtd", "text", NULL};
static const tc_gen_axis axes[] = {
    {"count-type", count_types}, {"container", containers}, {NULL, NULL}};

static void case_paths(const void *params, int format, const char *dir, char **output,
                       char **input)
{
    (void)format;
    const char *name = ((const perf_opts *)params)->container == PERF_TEXT ? "trace.itc"
                                                                            : "trace.rtd";
    *output = tc_gen_path(dir, name);
    *input = tc_gen_path(dir, name);
}

const tc_generator perf_generator = {
    .options = options,
    .params_size = sizeof(perf_opts),
    .init = init,
    .mutator_count = mutator_count,
    .mutator_at = mutator_at,
    .output = "FILE (- for standard output)",
    .run = run,
    .axes = axes,
    .case_paths = case_paths,
    .help = "perf (SiFive trace performance data: ITC writes of channel 6 from a simulated\n"
            "      run; a name ending in .itc picks the text container):\n"
            "      --count-type T     raw, delta or xor (delta XOR) (default: drawn from the\n"
            "                         seed)\n"
            "      --container C      rtd (Nexus Data Acquisition messages among other\n"
            "                         traffic, the default) or text (a message list)\n"
            "      --srcbits N        Nexus SRC field of N bits, 0 to 8 (default 0; validate\n"
            "                         with the same --srcbits)\n",
};
