/* validate --shard K/N: which shard an input belongs to, and the
 * fingerprints that let `tracecheck report merge` tell that shards belong to
 * one run (docs/reports.md, "Shards and merging"). An input's shard follows
 * from its path alone, so it is the same on every machine, for any -j, and
 * whatever the other inputs are. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

uint64_t cli_fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3u;
    }
    return h;
}

uint64_t cli_fnv1a_str(uint64_t h, const char *s)
{
    /* The NUL too: "ab","c" and "a","bc" hash apart. */
    return cli_fnv1a(h, s, strlen(s) + 1);
}

unsigned cli_shard_of(const char *path, unsigned count)
{
    return (unsigned)(cli_fnv1a_str(CLI_FNV1A_BASIS, path) % count) + 1;
}

int cli_parse_shard(const char *cmd, const char *arg, unsigned *index, unsigned *count)
{
    char *end;
    errno = 0;
    unsigned long k = strtoul(arg, &end, 10);
    if (end == arg || *end != '/' || arg[0] == '-' || errno)
        return cli_usage_error(cmd, "--shard takes K/N (shard K of N, 1 <= K <= N), not '%s'",
                               arg);
    const char *n_text = end + 1;
    unsigned long n = strtoul(n_text, &end, 10);
    if (end == n_text || *end || n_text[0] == '-' || errno)
        return cli_usage_error(cmd, "--shard takes K/N (shard K of N, 1 <= K <= N), not '%s'",
                               arg);
    if (n < 1 || n > CLI_SHARDS_MAX)
        return cli_usage_error(cmd, "--shard %s: N must be from 1 to %u", arg, CLI_SHARDS_MAX);
    if (k < 1 || k > n)
        return cli_usage_error(cmd, "--shard %s: K must be from 1 to N (%lu); shards count from 1",
                               arg, n);
    *index = (unsigned)k;
    *count = (unsigned)n;
    return 0;
}
