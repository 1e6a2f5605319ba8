/*
 * Pairing DCFG-trace files with their DCFG (spec/dcfg.md, rulings 13 and
 * 20): which DCFG belongs to a trace by its name, loading a DCFG file as a
 * model (checked and reported as an input of its own), and checking a
 * trace file against it. What `tracecheck validate --pair` and its
 * automatic pairing are made of.
 */
#ifndef TC_DTRC_PAIR_H
#define TC_DTRC_PAIR_H

#include <stddef.h>

#include "../common/check.h"
#include "dcfg_model.h"

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

/* Whether the input at path is a DCFG-trace: c's --format when it names
 * one, else detection by content and name as `validate` does. */
int tc_dtrc_is_trace(const char *path, const tc_check_opts *c);

/* Checks the DCFG at path as `tracecheck validate` does (findings under
 * path, whatever c's --format says) and keeps its model in *model (NULL
 * when it could not be read, or was too broken to pair against). Returns
 * 0, 1 or 2 as tc_check_path; 2 also when path is of another format by
 * its content or name (reason in err). */
int tc_dtrc_load_dcfg(const char *path, const tc_check_opts *c, tc_dcfg_model **model,
                      tc_summary *out, char *err, size_t errlen);

/* Checks the input at path as tc_check_path does, with the pairing checks
 * against m (read from the file dcfg, named in the messages) when it is a
 * DCFG-trace and m is not NULL; *paired (may be NULL) says whether they
 * ran. */
int tc_dtrc_check_paired(const char *path, const tc_dcfg_model *m, const char *dcfg,
                         const tc_check_opts *c, tc_summary *out, int *paired, char *err,
                         size_t errlen);

#endif
