/*
 * Pair cases (cases/dcfg-pair/<name>/): a directory holding a DCFG
 * (*.dcfg.json) and its DCFG-trace (*.trace.json), either possibly
 * compressed, validated together with the pairing checks of spec/dcfg.md
 * (ruling 13), as `tracecheck validate --pair` does.
 */
#ifndef TC_CONF_PAIR_H
#define TC_CONF_PAIR_H

#include <stddef.h>

#include "../../parsers/common/check.h"

/* Whether name is a DCFG's (which 'd') or a DCFG-trace's (which 't') file
 * name: ends in .dcfg.json or .trace.json, then optionally .gz, .bz2 or
 * .zst. */
int tc_conf_pair_name(const char *name, int which);

/* Finds the two files of a pair directory: on success 0 with *dcfg and
 * *trace set (malloc'd paths); -1 with the reason in err when the
 * directory does not hold exactly one of each and nothing else. */
int tc_conf_pair_find(const char *dir, char **dcfg, char **trace, char *err, size_t errlen);

/* Checks the DCFG, then the DCFG-trace against it (tc_dtrc_load_dcfg,
 * tc_dtrc_check_paired); findings go to c->options->on_diag (each
 * tc_diag's input is the file's path), the trace's canonical dump to
 * c->dump. The DCFG writes no dump lines, so every finding of the DCFG
 * comes before the first line. Returns 0, 1 or 2 as tc_check_path. */
int tc_conf_pair_check(const char *dcfg, const char *trace, const tc_check_opts *c, char *err,
                       size_t errlen);

#endif
