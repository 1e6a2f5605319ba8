/*
 * An independent checker of a DCFG and its DCFG-trace as the DCFG generator
 * (generators/dcfg) writes them, written from the format document, not from
 * the parsers: cJSON reads the JSON, every sequence of the trace is
 * expanded and decoded edge by edge. It checks ids and references, counts,
 * block and instruction counts, chunks, joins between consecutive edges,
 * prefix-free codes, and every IDOM_NODE_ID against dominators computed by
 * the plain iterative set algorithm; and counts what it checked.
 */
#ifndef TC_TESTS_DCFG_PAIR_CHECKER_H
#define TC_TESTS_DCFG_PAIR_CHECKER_H

#include <stddef.h>
#include <stdint.h>

#include "../../generators/dcfg/dcfg_gen.h"

typedef struct pc_checker {
    char why[600]; /* the first problem */
    int bad;       /* problems found */
    uint64_t start, end;
    struct pc_proc *p;
    size_t np;
    uint64_t decoded; /* edges decoded from the trace */
    unsigned long long idoms, loops, rows, multi, codes_long;
} pc_checker;

/* Checks a pair in memory; returns 1 when consistent (c->why otherwise). */
int pc_check_pair(const dcfg_mem *m, pc_checker *c);

#endif
