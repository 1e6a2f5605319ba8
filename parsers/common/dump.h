/* The canonical dump (spec/canonical-dump.md): what differential runs compare. */
#ifndef TC_DUMP_H
#define TC_DUMP_H

#include "jsonl.h"

/* Bumped whenever a line of any format's dump changes. */
#define TC_DUMP_VERSION 2

#endif
