/*
 * Immediate dominators computed the slow, obvious way, independently of
 * parsers/dcfg/dcfg_dom.c (Lengauer-Tarjan): each node's dominator set as
 * the fixed point of dom(root) = {root}, dom(v) = {v} and the intersection
 * of its reachable predecessors' sets; the immediate dominator of v is the
 * dominator of v (other than v) that all its other dominators dominate.
 * For dcfg_dom.
 */
#ifndef TC_FUZZ_DCFG_DOMINATORS_ORACLE_H
#define TC_FUZZ_DCFG_DOMINATORS_ORACLE_H

#include <stdint.h>

#define DOM_MAX_NODES 256

/* n nodes (at most DOM_MAX_NODES); the successors of v are
 * succ[off[v]..off[v+1]). idom[v]: v's immediate dominator, root's root,
 * UINT32_MAX for nodes root does not reach. */
void dom_naive(uint32_t n, const uint32_t *off, const uint32_t *succ, uint32_t root,
               uint32_t *idom);

#endif
