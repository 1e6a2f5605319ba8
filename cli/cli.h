/* The tracecheck program: one function per command. */
#ifndef TC_CLI_H
#define TC_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "../parsers/common/options.h"
#include "../reports/report.h"
#include "tracecheck/tracecheck.h"

int cmd_validate(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_conformance(int argc, char **argv);

/* Exit statuses (design: 0 valid, 1 findings, 2 usage or I/O error). */
enum { EXIT_VALID = 0, EXIT_INVALID = 1, EXIT_TROUBLE = 2 };

/* ---- the formats (formats.c) ---- */

/* Parses a --format value; prints an error and returns TC_FORMAT__COUNT if bad. */
tc_format cli_parse_format(const char *value, int allow_auto);

/* getopt_long values of the formats' options, clear of every other option. */
#define CLI_FORMAT_OPTION 0x400

/* Appends the options the formats declare (parsers/common/formats.h) to
 * longopts, which holds n entries and has room for cap, and ends it with
 * the zero entry; returns the new count. */
struct option;
size_t cli_format_longopts(struct option *longopts, size_t n, size_t cap);

/* Applies a format's option (a getopt_long value from CLI_FORMAT_OPTION)
 * with its argument to opt. Returns 0, or EXIT_TROUBLE after a usage
 * message naming cmd. */
int cli_format_option(const char *cmd, int c, const char *arg, tc_options *opt);

/* --help: the formats' options, one entry each. */
void cli_format_options_help(void);

/* --help: COLUMN then BEFORE, every format's name and AFTER, wrapped with
 * the following lines indented to the column. */
void cli_help_formats(const char *column, const char *before, const char *after);
void cli_help_wrapped(const char *column, const char *text);

/* Prints "tracecheck CMD: message" to stderr and returns EXIT_TROUBLE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));


/* The inputs named on the command line: files as given, "-" for standard
 * input, directories searched recursively (sorted, hidden entries skipped).
 * A directory that a format takes as one trace (an ovni trace: a named
 * directory with a stream.json below it; one met in the search that also
 * is named "ovni" or holds loom.* ones) is one input. */
typedef struct cli_paths {
    char **items;
    size_t count, cap;
} cli_paths;

/* Expands directories into inputs (docs/design.md, "Inputs"); with format
 * (--format) one whose traces are directories, a named directory is one. */
int cli_expand_paths(cli_paths *out, char **args, int nargs, tc_format format);
void cli_paths_free(cli_paths *p);

/* validate --show: the views of the first max located findings of kept
 * (their view fields), and freeing them once reported. */
#define CLI_SHOW_PER_INPUT 3
struct tc_report_input;
void cli_show_findings(struct tc_report_input *kept, const tc_options *opt, unsigned max);
void cli_show_findings_free(struct tc_report_input *kept);

/* ---- validate --shard K/N (shard.c) ---- */

#define CLI_FNV1A_BASIS 0xcbf29ce484222325u
#define CLI_SHARDS_MAX 1000000u

/* FNV-1a 64 of n bytes, continuing h (CLI_FNV1A_BASIS to start). */
uint64_t cli_fnv1a(uint64_t h, const void *data, size_t n);
/* Of the string and its terminating NUL. */
uint64_t cli_fnv1a_str(uint64_t h, const char *s);
/* The shard (1 to count) of an input: FNV-1a 64 of its path, its NUL
 * included, modulo count, plus 1. */
unsigned cli_shard_of(const char *path, unsigned count);
/* Parses --shard K/N; 0, or EXIT_TROUBLE after a usage message naming cmd. */
int cli_parse_shard(const char *cmd, const char *arg, unsigned *index, unsigned *count);

/* ---- where reports go (report_dest.c): validate and report merge ---- */

typedef struct cli_report_dest {
    const char *output;     /* -o FILE: the one report there */
    const char *report_dir; /* --report-dir DIR: DIR/validate.EXT, text on stdout */
    const char *color;      /* --color: auto (NULL), always, never */
    const char *docs_uri;   /* --docs-uri */
    int want[TC_REPORT__COUNT], nwant; /* --report kinds */
    int quiet, rule_summary;           /* -q, --rule-summary (1, 0 auto, -1) */
    const tc_report_shard *shard;      /* the JSON report's shard, or NULL */
    FILE *files[TC_REPORT__COUNT + 1]; /* opened, to close */
    char *paths[TC_REPORT__COUNT + 1];
    size_t nfiles;
} cli_report_dest;

/* --report LIST (comma-separated kinds) into d; 0, or EXIT_TROUBLE after a
 * usage message naming cmd. */
int cli_report_kinds(const char *cmd, const char *list, cli_report_dest *d);
/* -o and --report-dir together, or several kinds without --report-dir:
 * EXIT_TROUBLE after a usage message; else 0. */
int cli_report_dest_check(const char *cmd, const cli_report_dest *d);
/* Adds d's writers to set; -1 after a message when a file cannot be made. */
int cli_reports_open(tc_report_set *set, cli_report_dest *d);
/* Closes d's files and flushes standard output; -1 after a message when
 * one could not be written. */
int cli_reports_close(cli_report_dest *d);

/* tracecheck report merge (cmd_report.c). */
int cmd_report(int argc, char **argv);

/* The CPUs the process may run on (1 to 256): the default of -j. */
unsigned cli_cpus(void);

#endif
