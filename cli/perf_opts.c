/* The SiFive perf options of validate and dump. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "perf_opts.h"

/* A decimal or 0x-hexadecimal number up to max. */
static int number(const char *s, unsigned long long max, unsigned long long *out)
{
    if (!s[0] || s[0] == '-' || s[0] == '+' || s[0] == ' ')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10);
    if (errno || *end || v > max)
        return -1;
    *out = v;
    return 0;
}

int cli_perf_option(const char *cmd, int c, const char *arg, tc_options *opt)
{
    unsigned long long v;
    switch (c) {
    case CLI_OPT_SRCBITS:
        if (number(arg, 8, &v))
            return cli_usage_error(cmd, "--srcbits needs a number from 0 to 8, not '%s'", arg);
        opt->perf_srcbits = (unsigned)v;
        return 0;
    case CLI_OPT_PERF_CHANNEL:
        if (number(arg, 31, &v))
            return cli_usage_error(cmd, "--perf-channel needs a number from 0 to 31, not '%s'",
                                   arg);
        opt->perf_channel = (unsigned)v;
        return 0;
    case CLI_OPT_PERF_MARKER:
        if (number(arg, 0xffffffffull, &v))
            return cli_usage_error(cmd, "--perf-marker needs a 32-bit number, not '%s'", arg);
        opt->perf_marker = (uint32_t)v;
        return 0;
    case CLI_OPT_CONTAINER:
        if (!strcmp(arg, "rtd"))
            opt->perf_container = TC_PERF_CONTAINER_RTD;
        else if (!strcmp(arg, "text"))
            opt->perf_container = TC_PERF_CONTAINER_TEXT;
        else
            return cli_usage_error(cmd, "--container takes rtd or text, not '%s'", arg);
        return 0;
    default:
        return cli_usage_error(cmd, "bad option");
    }
}
