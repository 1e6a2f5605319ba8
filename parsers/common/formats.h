/*
 * Formats are plug-ins. Everything particular to a format hangs off one
 * descriptor, tc_format_ops, and the registry (formats.c) lists every
 * descriptor on one line: detection by content and by name, the format's
 * options, how its inputs group (a file, a directory that is one trace, an
 * input checked against a companion input of another format), parsing, the
 * canonical dump, and the rules and pages that are the format's. The
 * program, the conformance runner and the report writers reach a format's
 * reading only through here; its generator is the generator layer's
 * (generators/common/generators.c), its harnesses the fuzz layer's
 * (docs/adding-a-format.md).
 */
#ifndef TC_FORMATS_H
#define TC_FORMATS_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "diag.h"
#include "error.h"
#include "jsonl.h"
#include "parse.h"
#include "tracecheck/tracecheck.h"

/* Bytes looked at to detect a format. */
#define TC_SNIFF_BYTES 64

struct tc_check_opts;

/* How sure a format's detection is. Detection asks the surest first, then
 * the formats of one strength in registry order: a name that decides alone
 * (SiFive perf data has no magic number), a magic number or signature
 * (ovni), the keys of a JSON document with the name to decide between
 * look-alikes (DCFG and DCFG-trace), exact header fields (XRay basic mode),
 * and plausible header fields (XRay FDR, which then reports what is wrong
 * with them). */
typedef enum tc_detect_strength {
    TC_DETECT_NAME,
    TC_DETECT_MAGIC,
    TC_DETECT_KEYS,
    TC_DETECT_FIELDS,
    TC_DETECT_PLAUSIBLE,
} tc_detect_strength;

/* An option of a format, as the program spells it (--NAME) and as
 * tc_options_set takes it (NAME). */
typedef struct tc_format_option {
    const char *name; /* "srcbits" */
    const char *arg;  /* its argument in --help ("N"); NULL: a flag, set with "1" */
    /* --help: what follows the option's column, each line ending in "\n"
     * (further lines indented to the column, 23 spaces). */
    const char *help;
    /* The program's usage error is "--NAME EXPECTS, not 'VALUE'". */
    const char *expects;
    /* Sets the option from value: 0, or -1 when the value is bad (opt is
     * then unchanged). Formats keep their options in tc_options. */
    int (*set)(tc_options *opt, const char *value);
    /* For a value that names something to read (--binary: a program):
     * whether what it names can be used, checked once when the option is
     * given, so that a file that cannot be read is a usage error of the
     * program rather than a finding in every input. 0, or -1 with the
     * reason in why ("no xray_instr_map section"). NULL: nothing to read. */
    int (*check)(const char *value, char *why, size_t size);
} tc_format_option;

/* A directory that is one trace of the format (ovni). */
typedef struct tc_format_dir {
    /* Named on the command line (or given to the library): one trace. */
    int (*named)(const char *dir);
    /* Met while searching a directory: one trace, not searched further. */
    int (*found)(const char *dir);
    /* Checks the trace: findings into d, whose input the check sets to the
     * file each one is about; its canonical dump to c->dump. Returns the
     * bytes read, or UINT64_MAX with the reason in err. */
    uint64_t (*check)(const char *dir, tc_diag_sink *d, const tc_options *opt,
                      const struct tc_check_opts *c, tc_error *err);
    /* Said of a directory that is none: "is a directory with ABSENT (name
     * its files, or use --format NAME)". */
    const char *absent;
    /* What a search may find: "no input found (no file, and no WHAT)". */
    const char *what;
    /* validate --help: when a directory is one ("an ovni trace when ..."). */
    const char *help;
} tc_format_dir;

/* What a format keeps of an input for the inputs checked against it as
 * their companion (a DCFG's model for its DCFG-traces). */
typedef struct tc_format_model {
    /* Checks the input from r as parse does, reporting into d, and returns
     * its model (NULL when out of memory or too broken to check against). */
    void *(*load)(tc_reader *r, tc_diag_sink *d);
    void (*free)(void *model);
} tc_format_model;

/* An input checked against a companion input of another format (a
 * DCFG-trace against its DCFG: spec/dcfg/dcfg.md, rulings 13 and 20). */
typedef struct tc_format_companion {
    tc_format format; /* the companion's: it has a tc_format_model */
    /* The companion of the input at path by the naming rule: 1 with its
     * path in out, 0 when there is none (or it does not fit). */
    int (*find)(const char *path, char *out, size_t outlen);
    /* Parses r as the format does, with the checks against model, which
     * was read from the file companion (named in the messages). */
    void (*parse_with)(tc_reader *r, const tc_parse_ctx *ctx, const void *model,
                       const char *companion);
    /* validate --help: the metavariables of "--pair COMPANION INPUT...", the
     * option's lines (after its column) and the paragraph on pairing by
     * name. */
    const char *usage, *help_option, *help;
} tc_format_companion;

typedef struct tc_format_ops {
    tc_format format;
    const char *name;        /* --format, docs/rules/NAME.md: "dcfg-trace" */
    const char *title;       /* in messages: "DCFG-trace" */
    const char *description; /* "Intel DCFG-trace (format version 1)" */
    const char *rule_family; /* rule id prefix: "DTRC" */
    const char *spec;        /* spec/SPEC.md has its rulings: "dcfg" */
    /* Whether a rule of rule_family is the format's (NULL: all are; TC-*
     * rules are every format's). */
    int (*has_rule)(const tc_rule_info *r);
    tc_detect_strength strength;
    /* By content: the first bytes p[0..n) and the input's name (NULL when
     * none), which a format may use to decide what the bytes do not. */
    int (*sniff)(const uint8_t *p, size_t n, const char *name);
    /* By name alone: the name says this format (NULL: names say nothing). */
    int (*by_name)(const char *name);
    void (*parse)(tc_reader *r, const tc_parse_ctx *ctx);
    /* parse on several threads for one input (split.h); NULL: one thread. */
    const struct tc_format_split *split;
    void (*dump)(tc_jsonl *w, const void *event); /* canonical dump of one event */
    /* Options several formats take, one table they all list (--binary:
     * binary_option.h), so that the program declares each once; then the
     * format's own. Each ended by a NULL name; NULL: none. */
    const tc_format_option *shared_options;
    const tc_format_option *options;
    const tc_format_dir *dir;              /* NULL: inputs are files */
    const tc_format_companion *companion;  /* NULL: checked alone */
    const tc_format_model *model;          /* NULL: no format's companion */
    /* More documentation pages generated from the format's own tables
     * (ovni: a page per model, docs/ovni-models/NAME.md); NULL: none. */
    const struct tc_format_pages *pages;
    /* Parts of the format that each need a y_, an n_ and an i_ case (the
     * coverage check): a case is about a topic when its name holds _TOPIC_
     * (ovni: the models). NULL-terminated; NULL: none. */
    const char *const *coverage_topics;
} tc_format_ops;

/* A format's generated documentation pages: `tracecheck rules --pages`
 * lists them (PATH under docs/, one a line), `--page PATH` writes one. */
typedef struct tc_format_pages {
    size_t (*count)(void);
    const char *(*path)(size_t i); /* "ovni-models/nosv.md" */
    void (*write)(size_t i, FILE *out);
} tc_format_pages;

/* The registered formats, in registry order; NULL past the last. */
const tc_format_ops *tc_format_at(size_t i);

/* NULL for formats not built in. */
const tc_format_ops *tc_format_ops_for(tc_format f);

/* TC_FORMAT_AUTO when nothing matches. */
tc_format tc_format_detect(const uint8_t *p, size_t n);
/* The same, with the input's name (NULL when none) for formats the first
 * bytes cannot tell apart (DCFG and DCFG-trace, spec/dcfg/dcfg.md) or that have
 * no magic number at all (SiFive perf: .rtd and .itc, spec/perf/perf.md). */
tc_format tc_format_detect_named(const uint8_t *p, size_t n, const char *name);

/* The j-th option format f takes, its shared options first; NULL past the
 * last. */
const tc_format_option *tc_format_option_of(const tc_format_ops *f, size_t j);

/* The option of any format named name ("srcbits"), or NULL. */
const tc_format_option *tc_format_option_find(const char *name);

/* The page of docs/rules/ a rule is on: the first format, in tc_format
 * order, whose family it is ("TC" rules: the first format's). */
const char *tc_rule_page(const tc_rule_info *r);

/* Whether a format's listing (tracecheck rules --format) shows rule r. */
int tc_format_shows_rule(const tc_format_ops *f, const tc_rule_info *r);

/* "xray, xray-basic, ..., ovni": every format's name, in registry order,
 * joined by sep, into buf. */
void tc_format_names(char *buf, size_t size, const char *sep);

#endif
