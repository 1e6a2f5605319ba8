/*
 * The edges of a generated DCFG pair, counted in the canonical dumps (read
 * by cJSON): the trace's dump has the generator's number of chunks and
 * edges (and its chunk lines announce them), and each edge of each thread is
 * taken exactly as often as the DCFG's COUNT_PER_THREAD says. For
 * dcfg_roundtrip.
 */
#ifndef TC_FUZZ_DCFG_COUNTS_ORACLE_H
#define TC_FUZZ_DCFG_COUNTS_ORACLE_H

#include <stddef.h>

#include "../../generators/dcfg/dcfg_gen.h"

void dco_check_counts(const char *dcfg_dump, size_t dcfg_len, const char *trace_dump,
                      size_t trace_len, const dcfg_gen_stats *st);

#endif
