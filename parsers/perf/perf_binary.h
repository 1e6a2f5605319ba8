/*
 * Perf data judged against the program it was recorded from (--binary,
 * tc_options.binaries): a function entry or exit record's this_fn must be
 * where one of the program's functions starts, and its call_site inside
 * one (spec/perf/perf.md, "The program's binary"; rules PERF-BINARY-*). Every
 * record's addresses are named after the functions that hold them.
 */
#ifndef TC_PERF_BINARY_H
#define TC_PERF_BINARY_H

#include "../common/diag.h"
#include "../common/parse.h"
#include "perf_sm.h"

typedef struct tc_perf_bins tc_perf_bins;

/* The function symbols of ctx's binaries, read for one parse. NULL when no
 * binary was given, and when one cannot be used (no function symbols, out
 * of memory): the check is then failed (status 2) with the reason, and
 * *failed set. */
tc_perf_bins *tc_perf_bins_open(const tc_parse_ctx *ctx, int *failed);
void tc_perf_bins_close(tc_perf_bins *b);

/* Checks the addresses of a record (PERF-BINARY-* into d) and names them:
 * ev->names point into b, valid until the next call. */
void tc_perf_bins_record(tc_perf_bins *b, tc_diag_sink *d, tc_perf_event *ev);

#endif
