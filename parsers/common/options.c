/* tc_options_set: the library's options by the names the program gives
 * them, so that a caller configures a buffer's check without knowing the
 * enum values. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tracecheck/tracecheck.h"

/* A decimal or 0x-hexadecimal number from min to max; no sign, no spaces. */
static int number(const char *s, unsigned long long min, unsigned long long max,
                  unsigned long long *out)
{
    if (!s || !s[0] || s[0] == '-' || s[0] == '+' || s[0] == ' ')
        return -1;
    int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    if (hex && !s[2])
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, hex ? 16 : 10);
    if (errno || *end || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

int tc_options_set(tc_options *opt, const char *key, const char *value)
{
    unsigned long long v;
    if (!opt || !key || !value)
        return -1;
    if (!strcmp(key, "format")) {
        tc_format f = tc_format_from_name(value);
        if (f == TC_FORMAT__COUNT)
            return -1;
        opt->format = f;
    } else if (!strcmp(key, "container")) {
        if (!strcmp(value, "rtd"))
            opt->perf_container = TC_PERF_CONTAINER_RTD;
        else if (!strcmp(value, "text"))
            opt->perf_container = TC_PERF_CONTAINER_TEXT;
        else
            return -1;
    } else if (!strcmp(key, "srcbits")) {
        if (number(value, 0, 8, &v))
            return -1;
        opt->perf_srcbits = (unsigned)v;
    } else if (!strcmp(key, "perf-channel")) {
        if (number(value, 0, 31, &v))
            return -1;
        opt->perf_channel = (unsigned)v;
    } else if (!strcmp(key, "perf-marker")) {
        if (number(value, 0, 0xffffffffull, &v))
            return -1;
        opt->perf_marker = (uint32_t)v;
    } else if (!strcmp(key, "pedantic")) {
        if (number(value, 0, 1, &v))
            return -1;
        opt->pedantic = (int)v;
    } else if (!strcmp(key, "no-models")) {
        if (number(value, 0, 1, &v))
            return -1;
        opt->no_models = (int)v;
    } else if (!strcmp(key, "max-repeats")) {
        /* 0 would silently mean the default of 20: not a value to set. */
        if (number(value, 1, 0xffffffffull, &v))
            return -1;
        opt->max_repeats = (unsigned)v;
    } else {
        return -1;
    }
    return 0;
}
