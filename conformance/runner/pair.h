/*
 * Pair cases (cases/<group>/<name>/ of a format that takes a companion,
 * such as cases/dcfg-pair/ for DCFG-traces): a directory holding one input
 * of the case's format and its companion, each known by its name (either
 * possibly compressed), validated together as `tracecheck validate --pair`
 * does (parsers/common/check.h, tc_check_pair).
 */
#ifndef TC_CONF_PAIR_H
#define TC_CONF_PAIR_H

#include "../../parsers/common/error.h"
#include <stddef.h>

#include "../../parsers/common/formats.h"

/* Finds the two files of a pair directory of format f: on success 0 with
 * *companion and *input set (malloc'd paths); -1 with the reason in err
 * when the directory does not hold exactly one of each and nothing else. */
int tc_conf_pair_find(const char *dir, const tc_format_ops *f, char **companion, char **input,
                      tc_error *err);

#endif
