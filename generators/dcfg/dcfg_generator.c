/* The DCFG generator as `tracecheck gen dcfg` (and `gen dcfg-trace`)
 * drives it (generator.h): a DCFG and its DCFG-trace (dcfg_gen.h). */
#include <stdio.h>
#include <string.h>

#include "../../parsers/common/options.h"
#include "../common/generator.h"
#include "dcfg_gen.h"
#include "dcfg_mutate.h"

typedef struct dcfg_opts {
    unsigned procs, threads; /* 0: drawn */
    uint64_t dcfg_size;
} dcfg_opts;

static int set_procs(void *params, const char *v, tc_error *err)
{
    return tc_gen_count("procs", v, &((dcfg_opts *)params)->procs, err);
}

static int set_threads(void *params, const char *v, tc_error *err)
{
    return tc_gen_count("threads", v, &((dcfg_opts *)params)->threads, err);
}

static int set_dcfg_size(void *params, const char *v, tc_error *err)
{
    unsigned long long n;
    if (tc_parse_size(v, &n) != 0)
        return tc_error_set(err, "gen", "--dcfg-size needs a number of bytes (K, M, G suffixes)"),
               TC_GEN_USAGE;
    ((dcfg_opts *)params)->dcfg_size = n;
    return TC_GEN_OK;
}

static const tc_gen_option options[] = {
    {"procs", "P", set_procs},
    {"threads", "T", set_threads},
    {"dcfg-size", "BYTES", set_dcfg_size},
    {NULL, NULL, NULL},
};

static void init(void *params) { memset(params, 0, sizeof(dcfg_opts)); }

static size_t mutator_count(const void *params)
{
    (void)params;
    return dcfg_mutator_count();
}

static void mutator_at(const void *params, size_t i, tc_gen_mutator *out)
{
    (void)params;
    const dcfg_mutator *m = dcfg_mutator_at(i);
    out->rule = m->rule;
    out->how = m->how;
    snprintf(out->where, sizeof out->where, "%s", m->doc);
}

static int run(void *params, const tc_gen_common *c, tc_error *err)
{
    const dcfg_opts *o = params;
    if (c->violate >= 0 && !dcfg_mutator_for((tc_rule_id)c->violate))
        return tc_error_set(err, "gen",
                            "%s is not a rule a DCFG or DCFG-trace can break (see "
                            "'tracecheck gen dcfg --list-mutators')",
                            tc_rules[c->violate].id),
               TC_GEN_USAGE;
    if (!strcmp(c->output, "-"))
        return tc_error_set(err, "gen", "dcfg writes two files: name their prefix with -o OUT"),
               TC_GEN_USAGE;
    if (o->procs > DCFG_GEN_MAX_PROCS || o->threads > DCFG_GEN_MAX_THREADS)
        return tc_error_set(err, "gen", "dcfg takes at most %u processes of %u threads",
                            DCFG_GEN_MAX_PROCS, DCFG_GEN_MAX_THREADS),
               TC_GEN_USAGE;
    dcfg_gen_params p = {.seed = c->seed, .size = c->size, .procs = o->procs,
                         .threads = o->threads, .dcfg_size = o->dcfg_size};
    dcfg_sink sink = {c->output, NULL};
    if (dcfg_generate(&p, c->violate, NULL, sink, NULL, err) != 0)
        return TC_GEN_FAILED;
    return TC_GEN_OK;
}

/* conformance --generate: one process and thread up to several, DCFGs that
 * grow with the trace or have a size of their own. */
static const char *const counts[] = {"1", "2", "4", NULL};
static const char *const dcfg_sizes[] = {"0", "16K", "-", "256K", NULL};
static const tc_gen_axis axes[] = {
    {"procs", counts}, {"threads", counts}, {"dcfg-size", dcfg_sizes}, {NULL, NULL}};

/* A DCFG case is the DCFG alone; a DCFG-trace case is the pair's directory
 * (its DCFG is its companion, found by name). */
static void case_paths(const void *params, int format, const char *dir, char **output,
                       char **input)
{
    (void)params;
    *output = tc_gen_path(dir, "prog");
    *input = tc_gen_path(dir, format == TC_FORMAT_DCFG ? "prog.dcfg.json" : NULL);
}

const tc_generator dcfg_generator = {
    .options = options,
    .params_size = sizeof(dcfg_opts),
    .init = init,
    .mutator_count = mutator_count,
    .mutator_at = mutator_at,
    .output = "OUT (OUT.dcfg.json and OUT.trace.json)",
    .run = run,
    .axes = axes,
    .case_paths = case_paths,
    .help = "dcfg and dcfg-trace (a DCFG and its DCFG-trace: -o OUT writes OUT.dcfg.json and\n"
            "      OUT.trace.json, whose ids, counts and instruction counts agree):\n"
            "      --procs P          processes, 1 to 64 (default: 1 to 3, drawn)\n"
            "      --threads T        threads per process, 1 to 256 (default: 1 to 4, drawn)\n"
            "      --dcfg-size BYTES  about how large the DCFG (K, M, G suffixes): more\n"
            "                         images, routines, blocks, symbols and source lines,\n"
            "                         most never called (count 0); the trace stays --size\n"
            "                         --size is the bytes of the DCFG-trace; without\n"
            "                         --dcfg-size the DCFG grows slowly with it (0 gives a\n"
            "                         few routines and edges)\n",
};
