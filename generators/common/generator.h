/*
 * A format's generator as `tracecheck gen` drives it without knowing the
 * format (registered by format in generators.def: tc_generator_of): the options
 * it takes, its table of mutators, and a run that writes a trace where -o
 * says. Each generator keeps its parameters in a block of params_size
 * bytes of its own layout.
 */
#ifndef TC_GENERATOR_H
#define TC_GENERATOR_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "../../parsers/common/error.h"
#include "../../parsers/common/rules.h"

/* What every generator takes. */
typedef struct tc_gen_common {
    const char *output; /* -o: a file ("-": standard output), a prefix or a directory */
    uint64_t seed, size;
    int violate; /* a tc_rule_id to break, or -1 */
} tc_gen_common;

/* How a run or an option ended. */
enum {
    TC_GEN_OK = 0,
    TC_GEN_USAGE, /* a usage error: the program adds how to get help */
    TC_GEN_FAILED /* the trace could not be written */
};

typedef struct tc_gen_option {
    const char *name; /* "threads" (--threads) */
    const char *arg;  /* its argument in --help ("T"); NULL: a flag, set with "1" */
    /* Sets the option: TC_GEN_OK, or TC_GEN_USAGE with the reason in err. */
    int (*set)(void *params, const char *value, tc_error *err);
} tc_gen_option;

/* One line of --list-mutators: the rule, where the mutator applies
 * (versions, containers, a document) and what it changes. */
typedef struct tc_gen_mutator {
    tc_rule_id rule;
    char where[32];
    const char *how;
} tc_gen_mutator;

/* What `conformance --generate` draws a trace's options from: an option of
 * the generator with its values, the simplest first (shrinking tries the
 * earlier values of each). "-" leaves the option unset (its default); a
 * flag is set by "1". */
typedef struct tc_gen_axis {
    const char *option;
    const char *const *values; /* ended by NULL */
} tc_gen_axis;

/* The path given to -o for a trace of format f written into dir, and the
 * input a case of it names (a file or a directory), each malloc'd. */
typedef void (*tc_gen_case_paths)(const void *params, int format, const char *dir, char **output,
                                  char **input);

typedef struct tc_generator {
    const tc_gen_option *options; /* ended by a NULL name */
    size_t params_size;
    void (*init)(void *params); /* the defaults */
    size_t (*mutator_count)(const void *params);
    void (*mutator_at)(const void *params, size_t i, tc_gen_mutator *out);
    /* "name the output with -o OUTPUT" */
    const char *output;
    /* Writes the trace: TC_GEN_OK, or TC_GEN_USAGE / TC_GEN_FAILED with the
     * reason in err. */
    int (*run)(void *params, const tc_gen_common *c, tc_error *err);
    /* gen --help: the format's section (its options), or NULL. */
    const char *help;
    /* conformance --generate: the options' range (ended by a NULL option)
     * and where a case's trace goes. */
    const tc_gen_axis *axes;
    tc_gen_case_paths case_paths;
} tc_generator;

/* The generator of a format (generators.def, the registry), or NULL: the
 * format has none. */
const tc_generator *tc_generator_of(tc_format format);

/* "dir/name" (malloc'd), or dir itself when name is NULL: for case_paths. */
char *tc_gen_path(const char *dir, const char *name);

/* A count option (--threads, --procs, --looms): 1 to 65536 (a format's
 * generator may allow fewer), K and M suffixes as --size. TC_GEN_OK, or
 * TC_GEN_USAGE with the reason in err. */
int tc_gen_count(const char *option, const char *value, unsigned *out, tc_error *err);

/* The file a single-file generator writes: c->output opened for writing, or
 * standard output for "-", which a binary trace (binary nonzero) refuses
 * when it is a terminal. NULL with *status TC_GEN_FAILED or TC_GEN_USAGE
 * and the reason in err. */
FILE *tc_gen_open_output(const tc_gen_common *c, int binary, int *status, tc_error *err);

/* Closes what tc_gen_open_output opened, given the generator's result rc
 * (0: written); a file that was not written whole is removed, so that no
 * half trace is left under the name asked for. TC_GEN_OK or TC_GEN_FAILED
 * (the reason in err when the close itself failed). */
int tc_gen_close_output(FILE *out, const tc_gen_common *c, int rc, tc_error *err);

#endif
