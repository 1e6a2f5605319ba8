/* The tracecheck program: one function per command. */
#ifndef TC_CLI_H
#define TC_CLI_H

#include <stddef.h>

#include "tracecheck/tracecheck.h"

int cmd_validate(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_conformance(int argc, char **argv);

/* Exit statuses (design: 0 valid, 1 findings, 2 usage or I/O error). */
enum { EXIT_VALID = 0, EXIT_INVALID = 1, EXIT_TROUBLE = 2 };

/* Parses a --format value; prints an error and returns TC_FORMAT__COUNT if bad. */
tc_format cli_parse_format(const char *value, int allow_auto);

/* Prints "tracecheck CMD: message" to stderr and returns EXIT_TROUBLE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parses an unsigned decimal with an optional K/M/G/T suffix (powers of 1024). */
int cli_parse_size(const char *s, unsigned long long *out);

/* The inputs named on the command line: files as given, "-" for standard
 * input, directories searched recursively (sorted, hidden entries skipped).
 * A named directory with a stream.json below it is one ovni trace, and so is
 * a directory met in the search that is named "ovni" or holds loom.* ones. */
typedef struct cli_paths {
    char **items;
    size_t count, cap;
} cli_paths;

/* Expands directories into inputs (docs/design.md, "Inputs"); with
 * dirs_are_traces (--format ovni) a named directory is one trace. */
int cli_expand_paths(cli_paths *out, char **args, int nargs, int dirs_are_traces);
void cli_paths_free(cli_paths *p);

#endif
