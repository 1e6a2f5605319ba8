/* The SiFive perf options shared by validate and dump (spec/perf.md,
 * ruling 1): --srcbits, --perf-channel, --perf-marker, --container. */
#ifndef TC_CLI_PERF_OPTS_H
#define TC_CLI_PERF_OPTS_H

#include <getopt.h>

#include "tracecheck/tracecheck.h"

/* getopt_long values, clear of every short option. */
enum {
    CLI_OPT_SRCBITS = 0x300,
    CLI_OPT_PERF_CHANNEL,
    CLI_OPT_PERF_MARKER,
    CLI_OPT_CONTAINER,
};

#define CLI_PERF_LONGOPTS                                                                         \
    {"srcbits", required_argument, NULL, CLI_OPT_SRCBITS},                                        \
        {"perf-channel", required_argument, NULL, CLI_OPT_PERF_CHANNEL},                          \
        {"perf-marker", required_argument, NULL, CLI_OPT_PERF_MARKER},                            \
        {"container", required_argument, NULL, CLI_OPT_CONTAINER}

#define CLI_PERF_HELP                                                                             \
    "      --srcbits N      perf .rtd: bits of the Nexus SRC field, 0 to 8 (default 0,\n"         \
    "                       a single-core trace)\n"                                               \
    "      --perf-channel N perf: the ITC channel of the perf data, 0 to 31 (default 6)\n"       \
    "      --perf-marker N  perf: a header's first 32-bit word (default 0x70657266)\n"           \
    "      --container C    perf: rtd (Nexus) or text (IDTAG VALUE [TIMESTAMP] lines);\n"        \
    "                       default by the name: .itc is text, anything else Nexus.\n"           \
    "                       Perf data is read as such when named *.rtd or *.itc (also\n"        \
    "                       .gz, .bz2, .zst) or with --format perf\n"

/* Applies option c (one of CLI_OPT_*) with its argument to opt. Returns 0,
 * or EXIT_TROUBLE after a usage message naming cmd. */
int cli_perf_option(const char *cmd, int c, const char *arg, tc_options *opt);

#endif
