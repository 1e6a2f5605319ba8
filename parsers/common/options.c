/* tc_options_set: the library's options by the names the program gives
 * them, so that a caller configures a buffer's check without knowing the
 * enum values. The formats' own options are the formats' (formats.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"
#include "options.h"

int tc_parse_number(const char *s, unsigned long long min, unsigned long long max,
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

int tc_parse_size(const char *s, unsigned long long *out)
{
    char *end;
    errno = 0;
    if (!*s || *s == '-')
        return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s)
        return -1;
    unsigned shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    case 't': case 'T': shift = 40; end++; break;
    default: break;
    }
    if (*end == 'i' && shift)
        end++;
    if (*end == 'B' || *end == 'b')
        end++;
    if (*end || (shift && v > (~0ULL >> shift)))
        return -1;
    *out = v << shift;
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
    } else if (!strcmp(key, "pedantic")) {
        if (tc_parse_number(value, 0, 1, &v))
            return -1;
        opt->pedantic = (int)v;
    } else if (!strcmp(key, "max-repeats")) {
        /* 0 would silently mean the default of 20: not a value to set. */
        if (tc_parse_number(value, 1, 0xffffffffull, &v))
            return -1;
        opt->max_repeats = (unsigned)v;
    } else {
        const tc_format_option *o = tc_format_option_find(key);
        char why[256];
        if (!o || (o->check && o->check(value, why, sizeof why) != 0))
            return -1;
        return o->set(opt, value);
    }
    return 0;
}
