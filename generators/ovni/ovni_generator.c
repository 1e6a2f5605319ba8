/* The ovni generator as `tracecheck gen ovni` drives it (generator.h): a
 * trace directory in libovni's layout (ovni_gen.h). */
#include <stdio.h>
#include <string.h>

#include "../common/generator.h"
#include "ovni_gen.h"
#include "ovni_mutate.h"

typedef struct ovni_opts {
    unsigned looms, procs, threads; /* 0: the default, 2 */
    int big_endian;
    unsigned models; /* OVNI_USES_* (0: every model) */
    int no_models;   /* --models none */
} ovni_opts;

static int set_looms(void *params, const char *v, tc_error *err)
{
    return tc_gen_count("looms", v, &((ovni_opts *)params)->looms, err);
}

static int set_procs(void *params, const char *v, tc_error *err)
{
    return tc_gen_count("procs", v, &((ovni_opts *)params)->procs, err);
}

static int set_threads(void *params, const char *v, tc_error *err)
{
    return tc_gen_count("threads", v, &((ovni_opts *)params)->threads, err);
}

/* --models nosv,nanos6,... | all | none: the models whose events every
 * process writes besides ovni's own (without it, each process takes some). */
static int set_models(void *params, const char *v, tc_error *err)
{
    ovni_opts *o = params;
    o->models = 0;
    o->no_models = 0;
    if (!strcmp(v, "all")) {
        o->models = OVNI_USES_ALL;
        return TC_GEN_OK;
    }
    if (!strcmp(v, "none")) {
        o->no_models = 1;
        return TC_GEN_OK;
    }
    char name[32];
    for (const char *p = v; *p;) {
        size_t n = strcspn(p, ",");
        snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), p);
        tc_ovni_model_id m = tc_ovni_model_of_name(name);
        if (m == TC_OVNI_M_NONE || m == TC_OVNI_M_OVNI) {
            tc_error_set(err, "gen",
                         "--models: '%s' is not a model (nosv, nanos6, nodes, tampi, mpi, openmp, "
                         "kernel; or all, none)", name);
            return TC_GEN_USAGE;
        }
        o->models |= OVNI_USES(m);
        p += n;
        if (*p == ',')
            p++;
    }
    if (!o->models) {
        tc_error_set(err, "gen", "--models: name at least one model, or all, or none");
        return TC_GEN_USAGE;
    }
    return TC_GEN_OK;
}

static int set_big_endian(void *params, const char *v, tc_error *err)
{
    (void)v, (void)err;
    ((ovni_opts *)params)->big_endian = 1;
    return TC_GEN_OK;
}

static const tc_gen_option options[] = {
    {"looms", "L", set_looms},
    {"procs", "P", set_procs},
    {"threads", "T", set_threads},
    {"big-endian", NULL, set_big_endian},
    {"models", "LIST", set_models},
    {NULL, NULL, NULL},
};

static void init(void *params) { memset(params, 0, sizeof(ovni_opts)); }

static size_t mutator_count(const void *params)
{
    (void)params;
    return ovni_mutator_count();
}

static void mutator_at(const void *params, size_t i, tc_gen_mutator *out)
{
    (void)params;
    const ovni_mutator *m = ovni_mutator_at(i);
    /* What it changes: a stream's events, its metadata, or the trace. */
    const char *what = m->header || m->event || m->end ? "stream.obs"
                       : m->meta || m->json           ? "stream.json"
                                                      : "trace";
    out->rule = m->rule;
    out->how = m->how;
    snprintf(out->where, sizeof out->where, "%s", what);
}

static int run(void *params, const tc_gen_common *c, tc_error *err)
{
    const ovni_opts *o = params;
    if (c->violate >= 0 && !ovni_mutator_for((tc_rule_id)c->violate))
        return tc_error_set(err, "gen",
                            "%s is not a rule an ovni trace can break (see "
                            "'tracecheck gen ovni --list-mutators')",
                            tc_rules[c->violate].id),
               TC_GEN_USAGE;
    if (!strcmp(c->output, "-"))
        return tc_error_set(err, "gen", "an ovni trace is a directory: name it with -o DIR"),
               TC_GEN_USAGE;
    ovni_gen_params p = {.seed = c->seed, .size = c->size, .looms = o->looms ? o->looms : 2,
                         .procs = o->procs ? o->procs : 2, .threads = o->threads ? o->threads : 2,
                         .big_endian = o->big_endian,
                         .models = o->no_models ? OVNI_USES_NONE : o->models};
    ovni_sink sink = {c->output, NULL};
    if (ovni_generate(&p, c->violate, NULL, sink, NULL, err) != 0)
        return TC_GEN_FAILED;
    return TC_GEN_OK;
}

/* conformance --generate: one thread to a few looms, both byte orders. */
static const char *const counts[] = {"1", "2", "3", NULL};
static const char *const flag[] = {"-", "1", NULL};
static const tc_gen_axis axes[] = {
    {"looms", counts}, {"procs", counts}, {"threads", counts}, {"big-endian", flag}, {NULL, NULL}};

static void case_paths(const void *params, int format, const char *dir, char **output,
                       char **input)
{
    (void)params, (void)format;
    *output = tc_gen_path(dir, "trace");
    *input = tc_gen_path(dir, "trace");
}

const tc_generator ovni_generator = {
    .options = options,
    .params_size = sizeof(ovni_opts),
    .init = init,
    .mutator_count = mutator_count,
    .mutator_at = mutator_at,
    .output = "DIR",
    .run = run,
    .axes = axes,
    .case_paths = case_paths,
    .help = "ovni (-o names a trace directory, created if need be and empty, in libovni's\n"
            "      layout loom.L/proc.P/thread.T/):\n"
            "      --looms L          looms (machines), 1 to 64 (default 2)\n"
            "      --procs P          processes per loom, 1 to 256 (default 2)\n"
            "      --threads T        threads per process, 1 to 1024 (default 2)\n"
            "      --big-endian       big-endian streams\n"
            "      --models LIST      the models whose events every process writes besides\n"
            "                         ovni's own: nosv,nanos6,nodes,tampi,mpi,openmp,kernel,\n"
            "                         all, or none (the default: each process takes some)\n"
            "                         --size is the bytes of all stream.obs files together\n",
};
