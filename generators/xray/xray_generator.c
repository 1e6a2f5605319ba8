/* The XRay generators as `tracecheck gen xray` and `gen xray-basic` drive
 * them (generator.h): FDR traces (xray_gen.h) and basic-mode logs
 * (xray_basic_gen.h), which share their options; --mode basic turns the
 * first into the second. */
#include <stdio.h>
#include <string.h>

#include "../../parsers/common/options.h"
#include "../common/generator.h"
#include "xray_basic_gen.h"
#include "xray_basic_mutate.h"
#include "xray_gen.h"
#include "xray_mutate.h"

typedef struct xray_opts {
    unsigned version, threads; /* 0: the default */
    uint64_t buffer_size;
    int big_endian, noisy_padding;
    int basic; /* a basic-mode log */
} xray_opts;

static int set_mode(void *params, const char *v, tc_error *err)
{
    xray_opts *o = params;
    if (!strcmp(v, "basic"))
        o->basic = 1;
    else if (strcmp(v, "fdr") != 0)
        return tc_error_set(err, "gen", "--mode takes fdr or basic"), TC_GEN_USAGE;
    return TC_GEN_OK;
}

static int set_version(void *params, const char *v, tc_error *err)
{
    unsigned long long n;
    if (tc_parse_size(v, &n) != 0 || n < 1 || n > 5)
        return tc_error_set(err, "gen", "--version takes 1 to 5"), TC_GEN_USAGE;
    ((xray_opts *)params)->version = (unsigned)n;
    return TC_GEN_OK;
}

static int set_threads(void *params, const char *v, tc_error *err)
{
    return tc_gen_count("threads", v, &((xray_opts *)params)->threads, err);
}

static int set_buffer_size(void *params, const char *v, tc_error *err)
{
    unsigned long long n;
    if (tc_parse_size(v, &n) != 0)
        return tc_error_set(err, "gen", "--buffer-size needs a number of bytes"), TC_GEN_USAGE;
    ((xray_opts *)params)->buffer_size = n;
    return TC_GEN_OK;
}

static int set_big_endian(void *params, const char *v, tc_error *err)
{
    (void)v, (void)err;
    ((xray_opts *)params)->big_endian = 1;
    return TC_GEN_OK;
}

static int set_noisy_padding(void *params, const char *v, tc_error *err)
{
    (void)v, (void)err;
    ((xray_opts *)params)->noisy_padding = 1;
    return TC_GEN_OK;
}

static const tc_gen_option options[] = {
    {"mode", "M", set_mode},
    {"version", "V", set_version},
    {"threads", "T", set_threads},
    {"buffer-size", "B", set_buffer_size},
    {"big-endian", NULL, set_big_endian},
    {"noisy-padding", NULL, set_noisy_padding},
    {NULL, NULL, NULL},
};

static void init_fdr(void *params) { memset(params, 0, sizeof(xray_opts)); }

static void init_basic(void *params)
{
    init_fdr(params);
    ((xray_opts *)params)->basic = 1;
}

static size_t mutator_count(const void *params)
{
    return ((const xray_opts *)params)->basic ? xray_basic_mutator_count() : xray_mutator_count();
}

/* "v1,2,3": the versions a mutator applies to. */
static void versions(char *where, size_t size, unsigned bits, unsigned last)
{
    size_t n = 0;
    where[0] = '\0';
    for (unsigned v = 1; v <= last; v++)
        if (bits & (1u << v))
            n += (size_t)snprintf(where + n, size - n, "%s%u", n ? "," : "v", v);
}

static void mutator_at(const void *params, size_t i, tc_gen_mutator *out)
{
    if (((const xray_opts *)params)->basic) {
        const xray_basic_mutator *m = xray_basic_mutator_at(i);
        out->rule = m->rule;
        out->how = m->how;
        versions(out->where, sizeof out->where, m->versions, 3);
    } else {
        const xray_mutator *m = xray_mutator_at(i);
        out->rule = m->rule;
        out->how = m->how;
        versions(out->where, sizeof out->where, m->versions, 5);
    }
}

static int run(void *params, const tc_gen_common *c, tc_error *err)
{
    const xray_opts *o = params;
    if (c->violate >= 0 && strcmp(tc_rules[c->violate].family, "XRAY") != 0)
        return tc_error_set(err, "gen", "%s is not an XRay rule", tc_rules[c->violate].id),
               TC_GEN_USAGE;
    if (o->basic && o->noisy_padding)
        return tc_error_set(err, "gen", "--noisy-padding is an FDR version 1 option"), TC_GEN_USAGE;
    if (o->basic && o->version > 3)
        return tc_error_set(err, "gen", "basic-mode logs have versions 1 to 3"), TC_GEN_USAGE;
    xray_gen_params p = {.seed = c->seed, .size = c->size, .version = o->version,
                         .threads = o->threads ? o->threads : 4,
                         .buffer_size = o->buffer_size, .big_endian = o->big_endian,
                         .noisy_padding = o->noisy_padding};
    if (!p.version)
        p.version = o->basic ? xray_basic_default_version(c->violate)
                             : xray_default_version(c->violate);
    int status;
    FILE *out = tc_gen_open_output(c, 1, &status, err);
    if (!out)
        return status;
    xray_sink sink = {out, NULL};
    xray_basic_params bp = {.seed = p.seed, .size = p.size, .version = p.version,
                            .threads = p.threads, .buffer_size = p.buffer_size,
                            .big_endian = p.big_endian};
    int rc = o->basic ? xray_basic_generate(&bp, c->violate, NULL, sink, NULL, err)
                      : xray_generate(&p, c->violate, NULL, sink, NULL, err);
    return tc_gen_close_output(out, c, rc, err);
}

/* conformance --generate: every version, byte order and thread count, the
 * buffer sizes of LLVM's runtime and smaller, and version 1's noisy
 * padding (which other versions do not have: the option changes nothing there). */
static const char *const versions_fdr[] = {"5", "1", "2", "3", "4", NULL};
static const char *const versions_basic[] = {"3", "1", "2", NULL};
static const char *const thread_counts[] = {"1", "2", "4", "8", NULL};
static const char *const buffer_sizes_fdr[] = {"256", "1024", "4096", "-", NULL};
static const char *const buffer_sizes_basic[] = {"64", "256", "4096", "-", NULL};
static const char *const flag[] = {"-", "1", NULL};
static const tc_gen_axis axes_fdr[] = {
    {"version", versions_fdr},        {"threads", thread_counts}, {"buffer-size", buffer_sizes_fdr},
    {"big-endian", flag},             {"noisy-padding", flag},    {NULL, NULL},
};
static const tc_gen_axis axes_basic[] = {
    {"version", versions_basic}, {"threads", thread_counts}, {"buffer-size", buffer_sizes_basic},
    {"big-endian", flag},        {NULL, NULL},
};

static void case_paths(const void *params, int format, const char *dir, char **output,
                       char **input)
{
    (void)params, (void)format;
    *output = tc_gen_path(dir, "trace.xray");
    *input = tc_gen_path(dir, "trace.xray");
}

#define HELP                                                                                      \
    "xray (xray-basic: a basic-mode log, as --mode basic):\n"                                    \
    "      --mode M           fdr (Flight Data Recorder, the default) or basic (a\n"            \
    "                         basic-mode log; 'gen xray-basic' is the same)\n"                  \
    "      --version V        file version 1 to 5, basic mode 1 to 3 (default 5 and\n"         \
    "                         3, or the highest version in which the --violate rule\n"         \
    "                         can be broken)\n"                                                 \
    "      --threads T        threads whose buffers interleave (default 4)\n"                   \
    "      --buffer-size B    per-thread buffer size (default 16384): in the FDR\n"            \
    "                         header; in basic mode the bytes of records a thread\n"           \
    "                         flushes at once (a multiple of 32)\n"                             \
    "      --big-endian       the FDR document's MSB-first layout (LLVM's FDR reader\n"        \
    "                         does not read these)\n"                                           \
    "      --noisy-padding    FDR version 1: random bytes after EndOfBuffer (never\n"          \
    "                         read; LLVM's reader parses them and fails) instead of\n"         \
    "                         zeros\n"

const tc_generator xray_generator = {
    .options = options,
    .params_size = sizeof(xray_opts),
    .init = init_fdr,
    .mutator_count = mutator_count,
    .mutator_at = mutator_at,
    .output = "FILE (- for standard output)",
    .run = run,
    .help = HELP,
    .axes = axes_fdr,
    .case_paths = case_paths,
};

const tc_generator xray_basic_generator = {
    .options = options,
    .params_size = sizeof(xray_opts),
    .init = init_basic,
    .mutator_count = mutator_count,
    .mutator_at = mutator_at,
    .output = "FILE (- for standard output)",
    .run = run,
    .help = NULL, /* xray's section says it */
    .axes = axes_basic,
    .case_paths = case_paths,
};
