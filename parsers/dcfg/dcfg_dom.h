/*
 * Immediate dominators of a graph (Lengauer and Tarjan, "A fast algorithm
 * for finding dominators in a flowgraph", 1979: the simple version with
 * path compression, O(m log n)), iterative throughout so that a routine
 * of a million blocks in a chain needs no deep recursion.
 */
#ifndef TC_DCFG_DOM_H
#define TC_DCFG_DOM_H

#include <stdint.h>

#define TC_DCFG_DOM_NONE UINT32_MAX

/* n nodes 0..n-1; the successors of v are succ[off[v]..off[v+1]).
 * idom[v] receives v's immediate dominator, root's is root, and nodes not
 * reachable from root get TC_DCFG_DOM_NONE. Returns 0 when out of memory. */
int tc_dcfg_dominators(uint32_t n, const uint32_t *off, const uint32_t *succ, uint32_t root,
                    uint32_t *idom);

#endif
