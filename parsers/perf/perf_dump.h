/* The canonical dump of SiFive perf data (spec/canonical-dump.md, "SiFive perf"). */
#ifndef TC_PERF_DUMP_H
#define TC_PERF_DUMP_H

#include "../common/dump.h"
#include "perf_sm.h"

/* The line(s) of one event of the perf state machine: the file's header
 * line, a header's line and one line per counter, or a record's line. */
void tc_perf_dump(tc_jsonl *w, const void *event); /* a tc_perf_event */

#endif
