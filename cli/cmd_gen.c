/* tracecheck gen: synthesise a trace, valid or breaking exactly one rule.
 * Each format's generator declares its options and its mutators
 * (generators/common/generator.h); this command knows none of them. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../generators/common/generator.h"
#include "../parsers/common/formats.h"
#include "cli.h"

/* A generator's options at most, all formats together. */
#define MAX_GEN_OPTIONS 64
#define GEN_OPTION 0x400

/* The generator of the i-th format when no earlier format has it (DCFG and
 * DCFG-trace share one, listed once), else NULL. */
static const tc_generator *generator_first_at(size_t i)
{
    const tc_generator *g = tc_generator_of(tc_format_at(i)->format);
    for (size_t j = 0; g && j < i; j++)
        if (tc_generator_of(tc_format_at(j)->format) == g)
            return NULL;
    return g;
}

static void help(void)
{
    puts("usage: tracecheck gen FORMAT [OPTIONS] -o OUTPUT\n"
         "\n"
         "Synthesises a trace deterministically from a seed (same options, same bytes).\n"
         "With --violate RULE the trace breaks exactly that rule: tracecheck reports it\n"
         "and no other rule of error severity.\n"
         "\n"
         "  -o, --output OUTPUT    where to write: a file (- for standard output), or what\n"
         "                         the format's generator writes (below)\n"
         "      --seed N           the seed (default 1)\n"
         "      --size BYTES       about how large (default 64K; K, M, G suffixes)\n"
         "      --violate RULE     break this rule (see --list-mutators)\n"
         "      --list-mutators    the rules --violate can break, and how (for FORMAT when\n"
         "                         one is named)\n"
         "  -h, --help             this help");
    for (size_t i = 0; tc_format_at(i); i++) {
        const tc_generator *g = generator_first_at(i);
        if (g && g->help)
            printf("\n%s", g->help);
    }
    putchar('\n');
    cli_help_formats("", "FORMAT: one of ", ".");
}

/* The options of every generator, each name once, as getopt_long takes
 * them; names[k] is option GEN_OPTION + k. */
static size_t gen_longopts(struct option *longopts, size_t n, size_t cap, const char **names)
{
    size_t k = 0;
    for (size_t i = 0; tc_format_at(i); i++) {
        const tc_generator *g = tc_generator_of(tc_format_at(i)->format);
        for (const tc_gen_option *o = g ? g->options : NULL; o && o->name; o++) {
            size_t j = 0;
            while (j < k && strcmp(names[j], o->name) != 0)
                j++;
            if (j < k || n + 1 >= cap || k >= MAX_GEN_OPTIONS)
                continue;
            names[k] = o->name;
            longopts[n++] = (struct option){o->name, o->arg ? required_argument : no_argument,
                                            NULL, GEN_OPTION + (int)k};
            k++;
        }
    }
    longopts[n] = (struct option){NULL, 0, NULL, 0};
    return n;
}

/* One line of --list-mutators; with prefix, the where column says which
 * format it is of. */
static void list(const tc_generator *g, const void *params, const char *prefix)
{
    for (size_t i = 0; i < g->mutator_count(params); i++) {
        tc_gen_mutator m = {0};
        g->mutator_at(params, i, &m);
        char where[64];
        snprintf(where, sizeof where, "%s%s%s", prefix ? prefix : "", prefix ? ":" : "", m.where);
        printf("%-34s %-12s %s\n", tc_rules[m.rule].id, where, m.how);
    }
}

/* Every format's mutators; a format whose rule family an earlier one has
 * says its name in the where column. */
static int list_all(void)
{
    for (size_t i = 0; tc_format_at(i); i++) {
        const tc_format_ops *f = tc_format_at(i);
        const tc_generator *g = generator_first_at(i);
        if (!g)
            continue;
        int shared = 0;
        for (size_t j = 0; j < i; j++)
            shared |= !strcmp(tc_format_at(j)->rule_family, f->rule_family);
        void *params = calloc(1, g->params_size ? g->params_size : 1);
        if (!params)
            return EXIT_TROUBLE;
        g->init(params);
        list(g, params, shared ? f->name : NULL);
        free(params);
    }
    return 0;
}

typedef struct setting {
    const char *name, *value;
} setting;

int cmd_gen(int argc, char **argv)
{
    static const struct option options[] = {
        {"output", required_argument, NULL, 'o'},
        {"seed", required_argument, NULL, 's'},
        {"size", required_argument, NULL, 'z'},
        {"violate", required_argument, NULL, 'v'},
        {"list-mutators", no_argument, NULL, 'l'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct option longopts[sizeof options / sizeof options[0] + MAX_GEN_OPTIONS];
    const char *names[MAX_GEN_OPTIONS];
    memcpy(longopts, options, sizeof options);
    gen_longopts(longopts, sizeof options / sizeof options[0] - 1,
                 sizeof longopts / sizeof longopts[0], names);
    tc_gen_common common = {.violate = -1, .seed = 1, .size = 64 << 10};
    tc_error err = TC_ERROR_INIT; /* an option's or the run's reason */
    /* The format's own options, in order, applied once the format is known. */
    setting *settings = calloc((size_t)argc + 1, sizeof *settings);
    size_t nsettings = 0;
    int listing = 0, c, status = EXIT_TROUBLE;
    unsigned long long n;
    void *params = NULL;
    if (!settings)
        return EXIT_TROUBLE;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': common.output = optarg; break;
        case 's':
            if (tc_parse_size(optarg, &n) != 0) {
                status = cli_usage_error("gen", "--seed needs a number");
                goto done;
            }
            common.seed = n;
            break;
        case 'z':
            if (tc_parse_size(optarg, &n) != 0) {
                status = cli_usage_error("gen", "--size needs a number of bytes (K, M, G "
                                                "suffixes)");
                goto done;
            }
            common.size = n;
            break;
        case 'v': {
            const tc_rule_info *r = tc_rule_find(optarg);
            if (!r) {
                status = cli_usage_error("gen", "no rule '%s' ('tracecheck rules' lists them)",
                                         optarg);
                goto done;
            }
            common.violate = (int)tc_rule_index(r);
            break;
        }
        case 'l': listing = 1; break;
        case 'h':
            help();
            status = 0;
            goto done;
        default:
            if (c < GEN_OPTION) {
                status = cli_usage_error("gen", "bad option");
                goto done;
            }
            settings[nsettings++] = (setting){names[c - GEN_OPTION], optarg ? optarg : "1"};
            break;
        }
    }
    tc_format format = TC_FORMAT__COUNT;
    if (optind == argc - 1 && (format = cli_parse_format(argv[optind], 0)) == TC_FORMAT__COUNT)
        goto done;
    if (optind != argc - 1 && !(listing && optind == argc)) {
        status = cli_usage_error("gen", "name one format");
        goto done;
    }
    if (format == TC_FORMAT__COUNT) { /* --list-mutators alone: every format's */
        status = list_all();
        goto done;
    }
    const tc_format_ops *f = tc_format_ops_for(format);
    const tc_generator *g = tc_generator_of(f->format);
    if (!g) {
        status = cli_usage_error("gen", "no generator for %s yet", f->name);
        goto done;
    }
    if (!(params = calloc(1, g->params_size ? g->params_size : 1)))
        goto done;
    g->init(params);
    char why[400];
    for (size_t i = 0; i < nsettings; i++) {
        const tc_gen_option *o = g->options;
        while (o && o->name && strcmp(o->name, settings[i].name) != 0)
            o++;
        if (!o || !o->name) {
            status = cli_usage_error("gen", "%s takes no --%s (see 'tracecheck gen --help')",
                                     f->name, settings[i].name);
            goto done;
        }
        if (o->set(params, settings[i].value, &err) != TC_GEN_OK) {
            tc_error_format(&err, why, sizeof why);
            status = cli_usage_error("gen", "%s", why);
            goto done;
        }
    }
    if (listing) {
        list(g, params, NULL);
        status = 0;
        goto done;
    }
    if (!common.output) {
        status = cli_usage_error("gen", "name the output with -o %s", g->output);
        goto done;
    }
    int rc = g->run(params, &common, &err);
    tc_error_format(&err, why, sizeof why);
    if (rc == TC_GEN_USAGE)
        status = cli_usage_error("gen", "%s", why);
    else if (rc != TC_GEN_OK)
        fprintf(stderr, "tracecheck gen: %s\n", why);
    else
        status = 0;
done:
    tc_error_free(&err);
    free(params);
    free(settings);
    return status;
}
