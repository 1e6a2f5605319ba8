/*
 * Telling a DCFG from a DCFG-trace (spec/dcfg/dcfg.md, "Detection"). Both are
 * objects that usually start with MAJOR_VERSION; the keys that follow
 * decide when they fit in the bytes looked at, the file name otherwise.
 */
#include <string.h>

#include "../common/input.h"
#include "dcfg.h"

static const char *find(const uint8_t *p, size_t n, const char *s)
{
    size_t k = strlen(s);
    for (size_t i = 0; i + k <= n; i++)
        if (p[i] == (uint8_t)s[0] && !memcmp(p + i, s, k))
            return (const char *)p + i;
    return NULL;
}

static int ends_with(const char *s, size_t len, const char *suffix)
{
    size_t b = strlen(suffix);
    return len >= b && !memcmp(s + len - b, suffix, b);
}

int tc_dcfg_kind_of_name(const char *name)
{
    if (!name)
        return 0;
    size_t len = tc_strip_compression_suffix(name, strlen(name));
    return ends_with(name, len, ".dcfg.json") ? 1 : ends_with(name, len, ".trace.json") ? 2 : 0;
}

int tc_dcfg_sniff_kind(const uint8_t *p, size_t n, const char *name)
{
    /* A file named as a DCFG or DCFG-trace is read as one whatever it holds,
     * so a broken one gets that format's findings (DCFG-TOP-OBJECT, a JSON
     * syntax error) rather than "unknown format". */
    int named = tc_dcfg_kind_of_name(name);
    size_t i = 0;
    if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF)
        i = 3;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r'))
        i++;
    if (i >= n || p[i] != '{')
        return named;
    i++;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r'))
        i++;
    static const char *const first[] = {"\"MAJOR_VERSION\"", "\"MINOR_VERSION\"",
                                        "\"FILE_NAMES\"",    "\"EDGE_TYPES\"",
                                        "\"SPECIAL_NODES\"", "\"PROCESSES\""};
    int ok = 0;
    for (size_t k = 0; k < sizeof first / sizeof *first && !ok; k++) {
        size_t len = strlen(first[k]);
        /* A key cut off by the end of the bytes looked at counts too. */
        size_t have = n - i < len ? n - i : len;
        ok = have >= 4 && !memcmp(p + i, first[k], have);
    }
    if (!ok)
        return named;
    if (find(p, n, "\"FILE_NAMES\"") || find(p, n, "\"EDGE_TYPES\"") ||
        find(p, n, "\"SPECIAL_NODES\"") || find(p, n, "\"PROCESS_DATA\""))
        return 1;
    if (find(p, n, "\"STRING_DICTIONARY\"") || find(p, n, "\"TRANSITION_TABLE\"") ||
        find(p, n, "\"THREAD_DATA\""))
        return 2;
    return named ? named : 1;
}

int tc_dcfg_sniff(const uint8_t *p, size_t n, const char *name)
{
    return tc_dcfg_sniff_kind(p, n, name) == 1;
}

int tc_dtrc_sniff(const uint8_t *p, size_t n, const char *name)
{
    return tc_dcfg_sniff_kind(p, n, name) == 2;
}
