/*
 * Which DCFG a DCFG-trace file belongs to by its name (spec/dcfg/dcfg.md,
 * ruling 20): the DCFG-trace's companion as `tracecheck validate` finds it
 * without --pair (tc_format_companion.find). Loading the DCFG and checking
 * the trace against it is every companion's (parsers/common/check.h).
 */
#ifndef TC_DTRC_PAIR_H
#define TC_DTRC_PAIR_H

#include <stddef.h>

/* The length of path without its DCFG-trace suffix (".trace.json", then
 * optionally ".bz2", ".gz" or ".zst"); 0 when it has none or when nothing
 * would be left of the file's name. */
size_t tc_dtrc_trace_base(const char *path);

/* The DCFG of the DCFG-trace at path by the naming rule (ruling 20): with
 * BASE the path without its trace suffix, the first existing file of
 * BASE.dcfg.json, .dcfg.json.bz2, .dcfg.json.gz, .dcfg.json.zst; if none,
 * the same with the last dot-separated part of BASE's file name dropped,
 * and so on while a part is left. Returns 1 with the path in out, 0 when
 * there is none (or it does not fit in outlen). */
int tc_dtrc_find_dcfg(const char *path, char *out, size_t outlen);

#endif
