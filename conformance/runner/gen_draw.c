/*
 * Drawing a trace for `conformance --generate`: the format, each option of
 * its generator's range (tc_generator.axes), a size, and valid or one
 * mutator's rule, all from the run's seed and the iteration's number.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"

/* splitmix64: one well-mixed word per call; seeded by (seed, iteration). */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint64_t below(uint64_t *s, uint64_t n) { return n ? next(s) % n : 0; }

static size_t axis_count(const tc_generator *g)
{
    size_t n = 0;
    while (g->axes && g->axes[n].option && n < GX_MAX_AXES)
        n++;
    return n;
}

static size_t value_count(const tc_gen_axis *a)
{
    size_t n = 0;
    while (a->values[n])
        n++;
    return n;
}

/* Sizes from a few records to MiBs, most of them small: a small trace
 * runs fast and shrinks fast, and most divergences show in one. Seven in
 * ten between 64 B and 16 KiB, a quarter up to 512 KiB, the rest to 4 MiB. */
static uint64_t draw_size(uint64_t *s)
{
    uint64_t k = below(s, 20), lo, hi;
    if (k < 14)
        lo = 6, hi = 14;
    else if (k < 19)
        lo = 14, hi = 19;
    else
        lo = 19, hi = 22;
    uint64_t e = lo + below(s, hi - lo);
    return (UINT64_C(1) << e) + below(s, UINT64_C(1) << e);
}

/* The generator's params with the draw's options set (NULL when one is
 * refused: reason in err). */
static void *params_of(const gx_draw *d, tc_error *err)
{
    const tc_generator *g = tc_generator_of(d->f->format);
    void *params = calloc(1, g->params_size ? g->params_size : 1);
    if (!params)
        abort();
    g->init(params);
    for (size_t i = 0; i < d->naxes; i++) {
        if (!strcmp(d->value[i], "-"))
            continue;
        for (const tc_gen_option *o = g->options; o->name; o++)
            if (!strcmp(o->name, g->axes[i].option) &&
                o->set(params, d->value[i], err) != TC_GEN_OK) {
                free(params);
                return NULL;
            }
    }
    return params;
}

/* The rules the format's mutators can break with these options. */
static size_t rules_of(const gx_draw *d, const void *params, int *rules, size_t cap)
{
    const tc_generator *g = tc_generator_of(d->f->format);
    size_t n = 0, m = g->mutator_count(params);
    for (size_t i = 0; i < m && n < cap; i++) {
        tc_gen_mutator mu = {0};
        g->mutator_at(params, i, &mu);
        if (!strcmp(tc_rules[mu.rule].family, d->f->rule_family))
            rules[n++] = (int)mu.rule;
    }
    return n;
}

/* How many of each round of iterations go to format f: as many as it has
 * mutators (1 at least), so that every mutator of every format has its
 * turn as often as any other. Worked out once per format. */
static uint64_t weight(tc_format f)
{
    static uint64_t known[TC_FORMAT__COUNT];
    if (known[f])
        return known[f];
    gx_draw d = {.f = tc_format_ops_for(f)};
    const tc_generator *g = tc_generator_of(d.f->format);
    void *params = calloc(1, g->params_size ? g->params_size : 1);
    if (!params)
        abort();
    g->init(params);
    int rules[512];
    size_t n = rules_of(&d, params, rules, sizeof rules / sizeof *rules);
    free(params);
    return known[f] = n ? n : 1;
}

/* Flags ({"-", "1"}) are set in one trace of four: the default layout is
 * what most producers write. Other options take each value alike. */
static const char *draw_value(uint64_t *s, const tc_gen_axis *a)
{
    size_t n = value_count(a);
    if (n == 2 && !strcmp(a->values[0], "-") && !strcmp(a->values[1], "1"))
        return a->values[below(s, 4) == 0];
    return a->values[below(s, n)];
}

void gx_draw_pick(gx_draw *d, const tc_gen_conf_options *opt, uint64_t i)
{
    uint64_t s = opt->seed * UINT64_C(0x2545f4914f6cdd1d) ^ (i + 1) * UINT64_C(0x9e3779b97f4a7c15);
    memset(d, 0, sizeof *d);
    /* Iteration i is the j-th of its format. */
    uint64_t w[TC_FORMAT__COUNT], total = 0;
    for (size_t k = 0; k < opt->nformats; k++)
        total += w[k] = weight(opt->formats[k]);
    uint64_t at = i % total, j = i / total, k = 0;
    while (at >= w[k])
        at -= w[k++];
    j = j * w[k] + at;
    d->f = tc_format_ops_for(opt->formats[k]);
    const tc_generator *g = tc_generator_of(d->f->format);
    d->naxes = axis_count(g);
    for (size_t a = 0; a < d->naxes; a++)
        d->value[a] = draw_value(&s, &g->axes[a]);
    d->seed = next(&s) % 1000000000u + 1;
    d->size = draw_size(&s);
    d->violate = -1;
    /* One trace in four of the format is valid; the others take its
     * mutators in turn, from a place drawn from the seed, so that every
     * mutator has had its turn early in a run. */
    uint64_t round = j;
    if (round % 4 == 0)
        return;
    tc_error err = TC_ERROR_INIT;
    void *params = params_of(d, &err);
    tc_error_free(&err);
    int rules[512];
    size_t n = params ? rules_of(d, params, rules, sizeof rules / sizeof *rules) : 0;
    free(params);
    if (n) {
        uint64_t t = opt->seed;
        d->violate = rules[(round - round / 4 - 1 + below(&t, n)) % n];
    }
}

static int write_with(const gx_draw *d, const char *dir, char **input, tc_error *err)
{
    const tc_generator *g = tc_generator_of(d->f->format);
    void *params = params_of(d, err);
    if (!params)
        return TC_GEN_USAGE;
    char *output = NULL;
    g->case_paths(params, (int)d->f->format, dir, &output, input);
    tc_gen_common c = {.output = output, .seed = d->seed, .size = d->size,
                       .violate = d->violate};
    int rc = g->run(params, &c, err);
    free(output);
    free(params);
    if (rc != TC_GEN_OK) {
        free(*input);
        *input = NULL;
    }
    return rc;
}

int gx_draw_write(gx_draw *d, const char *dir, char **input, tc_error *err)
{
    if (write_with(d, dir, input, err) == TC_GEN_OK)
        return 0;
    /* Options the rule cannot be broken with (XRAY-EXTENTS-EXPECTED in
     * version 1, a Nexus rule in the text container): the generator's
     * defaults then, which are where it can. */
    int any = 0;
    for (size_t i = 0; i < d->naxes; i++) {
        any |= strcmp(d->value[i], "-") != 0;
        d->value[i] = "-";
    }
    if (!any)
        return -1;
    tc_error_free(err);
    /* A partial output of the first try goes with the directory. */
    return write_with(d, dir, input, err) == TC_GEN_OK ? 0 : -1;
}

char *gx_draw_command(const gx_draw *d)
{
    const tc_generator *g = tc_generator_of(d->f->format);
    char *s = tc_conf_printf("tracecheck gen %s", d->f->name), *t;
    for (size_t i = 0; i < d->naxes; i++) {
        if (!strcmp(d->value[i], "-"))
            continue;
        int flag = 0;
        for (const tc_gen_option *o = g->options; o->name; o++)
            if (!strcmp(o->name, g->axes[i].option))
                flag = o->arg == NULL;
        t = flag ? tc_conf_printf("%s --%s", s, g->axes[i].option)
                 : tc_conf_printf("%s --%s %s", s, g->axes[i].option, d->value[i]);
        free(s);
        s = t;
    }
    t = tc_conf_printf("%s --seed %llu --size %llu%s%s", s, (unsigned long long)d->seed,
                       (unsigned long long)d->size, d->violate >= 0 ? " --violate " : "",
                       d->violate >= 0 ? tc_rules[d->violate].id : "");
    free(s);
    return t;
}
