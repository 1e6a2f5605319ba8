/* Which DCFG a DCFG-trace file belongs to by its name: see dtrc_pair.h. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/input.h"
#include "dtrc_pair.h"

static size_t ends_with(const char *s, size_t n, const char *tail)
{
    size_t t = strlen(tail);
    return n >= t && memcmp(s + n - t, tail, t) == 0 ? t : 0;
}

static size_t name_start(const char *path, size_t n)
{
    size_t i = n;
    while (i > 0 && path[i - 1] != '/')
        i--;
    return i;
}

size_t tc_dtrc_trace_base(const char *path)
{
    size_t n = tc_strip_compression_suffix(path, strlen(path));
    size_t t = ends_with(path, n, ".trace.json");
    if (!t || n - t <= name_start(path, n - t))
        return 0;
    return n - t;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

int tc_dtrc_find_dcfg(const char *path, char *out, size_t outlen)
{
    size_t base = tc_dtrc_trace_base(path);
    if (!base)
        return 0;
    size_t start = name_start(path, base);
    for (;;) {
        /* Uncompressed first, then each compression suffix (Doc: none;
         * SDE writes .bz2). */
        for (size_t k = 0;; k++) {
            const char *suffix = k ? tc_compression_suffixes[k - 1] : "";
            if (!suffix)
                break;
            int n = snprintf(out, outlen, "%.*s.dcfg.json%s", (int)base, path, suffix);
            if (n > 0 && (size_t)n < outlen && exists(out))
                return 1;
        }
        /* Per-process or per-thread traces carry more parts than their DCFG
         * (ruling 20): drop the last one, while one is left. */
        size_t dot = base;
        while (dot > start && path[dot - 1] != '.')
            dot--;
        if (dot <= start + 1)
            break;
        base = dot - 1;
    }
    if (outlen)
        out[0] = '\0';
    return 0;
}
