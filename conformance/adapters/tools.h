/*
 * The third-party tools the runner knows by name (`tracecheck conformance
 * --impl NAME`): how each is run and judged, which format it reads, where to
 * get it and how it tells its version. Their order is the HTML matrix's
 * default columns after tracecheck.
 */
#ifndef TC_CONF_TOOLS_H
#define TC_CONF_TOOLS_H

#include <stddef.h>

#include "../runner/conformance.h"

typedef struct tc_known_tool {
    const char *name;
    const char *program;
    const char *args;        /* after the program; {file} is the case */
    tc_format format;        /* the one format it reads */
    const char *only_reason;
    int copy_input;
    const char *install;     /* said when it is not found */
    /* How it tells its version ({program}: its path, {dir}: its directory);
     * the reports name the version that was run. */
    const char *version_cmd;
    /* A second format it reads with other arguments (NULL: none). */
    tc_format second_format;
    const char *second_args;
    /* NULL: the command line runs it; else the adapter that runs it (args
     * is then only what the reports show), with the file name suffix of the
     * cases it reads (NULL: any) and why the others are out of its scope. */
    const tc_conf_adapter *adapter;
    const char *only_suffix, *only_suffix_reason;
    /* conformance --help: how it is run, after "NAME: " (one paragraph). */
    const char *help;
} tc_known_tool;

/* The known tool called name, or NULL. *suffix: "" for the tool itself,
 * "-N" for its version N (installed side by side as PROGRAM-N). */
const tc_known_tool *tc_known_tool_find(const char *name, const char **suffix);

/* Where the tool is to be had (malloc'd): the known tool's words, or for
 * version N the package of that version. */
char *tc_known_tool_install(const tc_known_tool *tool, const char *suffix);

/* conformance --help, for --impl NAME: the i-th paragraph (a known tool,
 * or the versions of one installed side by side), or NULL past the last. */
char *tc_known_tool_help(size_t i);

/* The known tools' names, each followed by its versions: the matrix's
 * default columns after tracecheck. Returns how many were put in names. */
size_t tc_known_tool_names(const char **names, size_t max);

#endif
