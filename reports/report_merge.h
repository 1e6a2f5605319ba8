/*
 * Joining the JSON reports of the shards of one `tracecheck validate` run
 * (validate --shard K/N) into the reports that one run over every input
 * would have written (docs/reports.md, "Shards and merging"): the shards are
 * checked to belong together, then every input is replayed, in the order of
 * the whole run, through a report set.
 */
#ifndef TC_REPORT_MERGE_H
#define TC_REPORT_MERGE_H

#include <stddef.h>

#include "report.h"

typedef struct tc_merge {
    size_t nshards;
    struct cJSON **docs;          /* one per shard, by shard index - 1 */
    const struct cJSON **inputs;  /* every input of the run, by ordinal - 1 */
    uint64_t ninputs;
    tc_report_totals totals;      /* the shards' summaries added up */
} tc_merge;

/* Reads the n JSON reports at files and checks that they are the shards
 * 1..N of one run: the same tracecheck, report_version 3, the same options
 * and inputs, every shard once and every input in exactly one. Returns 0, or
 * -1 with why (naming the files and values) in err. */
int tc_merge_load(tc_merge *m, const char *const *files, size_t n, char *err, size_t errlen);

/* Every input, in the whole run's order, with its findings, through set. */
void tc_merge_replay(const tc_merge *m, tc_report_set *set);

void tc_merge_free(tc_merge *m);

#endif
