/*
 * The pieces of `conformance --generate` (generate.h) that a worker
 * process runs: drawing a trace (gen_draw.c), running it through the
 * implementation and tracecheck and classing the outcome (gen_probe.c),
 * shrinking a divergence (gen_shrink.c) and writing it as a case
 * (gen_case.c).
 */
#ifndef TC_CONF_GEN_INTERNAL_H
#define TC_CONF_GEN_INTERNAL_H

#include <signal.h>
#include <stdint.h>

#include "../../generators/common/generator.h"
#include "../../parsers/common/formats.h"
#include "generate.h"

#define GX_MAX_AXES 16

/* ---- a drawn trace (gen_draw.c) ---- */

typedef struct gx_draw {
    const tc_format_ops *f;
    uint64_t seed, size;
    int violate;                      /* a tc_rule_id, or -1 for a valid trace */
    const char *value[GX_MAX_AXES];   /* per axis of f's generator: "-" is unset */
    size_t naxes;
} gx_draw;

/* Iteration i of the run: the format, the options, the size, valid or one
 * mutator's rule, all from (seed, i). */
void gx_draw_pick(gx_draw *d, const tc_gen_conf_options *opt, uint64_t i);

/* Writes the trace into dir (which exists and is empty). 0 with *input
 * (malloc'd: a file or a directory under dir); -1 when the generator
 * refused the draw, with the reason in err. Options the rule cannot be
 * broken with are dropped from *d (the generator's defaults instead). */
int gx_draw_write(gx_draw *d, const char *dir, char **input, tc_error *err);

/* "tracecheck gen FORMAT --OPTION V ... --seed N --size N [--violate RULE]",
 * as a user would type it with -o added (malloc'd). */
char *gx_draw_command(const gx_draw *d);

/* ---- one trace through both (gen_probe.c) ---- */

typedef struct gx_probe {
    tc_conf_case c;         /* tracecheck's outcome as a case: the expectation */
    tc_conf_outcome ours;   /* tracecheck's run */
    tc_conf_outcome theirs; /* the implementation's */
    tc_conf_result r;       /* the implementation judged against c */
    char *key;              /* the class: "FORMAT|VERDICT|RULES|ANSWER" */
    char *rules, *answer;   /* its parts */
    char *example;          /* what the implementation said, as printed (gen_answer.h);
                             * NULL when its answer quotes no message */
    int diverges;           /* r is not a pass, or tracecheck failed itself */
    int ours_failed;        /* tracecheck failed itself: crashed, or missed the intent */
    int intent;             /* the rule the generator broke, or -1 */
    int stopped;            /* cut short by a stop: not an outcome */
} gx_probe;

/* Set by the worker's signal handler or its deadline: runs in flight are
 * killed and their outcome dropped. */
extern volatile sig_atomic_t gx_stop;
extern double gx_deadline; /* monotonic seconds (0: none) */

/* Runs the input (of format f, in directory dir: the expected dump goes
 * there) through tracecheck and the implementation at once, judges it,
 * and classes the result. intent: the rule the generator broke (-1: none),
 * which tracecheck must report; otherwise tracecheck's own divergence. */
void gx_probe_run(gx_probe *p, const tc_gen_conf_options *opt, const tc_format_ops *f,
                  const char *input, const char *dir, int intent);
void gx_probe_free(gx_probe *p);

/* ---- shrinking (gen_shrink.c) ---- */

/* Makes the divergence of *d (found in *probe, its input *input in
 * directory *dir) smaller while its class stays: the generator's parameters
 * first, then the input's bytes. On return *d, *input, *dir and *probe are
 * the smallest found (until gx_stop or the deadline). Returns the input's
 * bytes before the byte-level steps: *d still generates that trace. */
uint64_t gx_shrink(gx_draw *d, char **dir, char **input, gx_probe *probe,
                   const tc_gen_conf_options *opt, const char *work);

/* ---- writing a case (gen_case.c) ---- */

/* A fresh empty directory under parent (malloc'd path), or NULL. */
char *gx_mkdtemp(const char *parent);
/* Calls file() for path, a regular file, or for every one under it. */
void gx_walk(const char *path, void (*file)(void *user, const char *path, uint64_t size),
             void *user);
/* The size of a file, or of every file under a directory. */
uint64_t gx_bytes(const char *path);
/* Writes the class's case into dir: the input (its name kept), the
 * expectation (case.expect.json), the expected dump (case.dump.jsonl) and
 * what the implementation printed (case.output.txt). 0, or -1 (said on
 * stderr). */
typedef struct gx_case_source {
    const char *drawn;  /* the gen command line of the trace as drawn */
    const char *shrunk; /* ... and of the trace the parameters were shrunk to */
    uint64_t bytes_drawn, bytes_shrunk, bytes_cut; /* the last: to the input as written */
} gx_case_source;
int gx_case_write(const char *dir, const gx_probe *p, const char *input, const gx_case_source *src,
                  const tc_gen_conf_options *opt);

#endif
