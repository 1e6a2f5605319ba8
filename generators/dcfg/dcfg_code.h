/*
 * The transition table of a process (DCFG-trace doc §3.5): for each edge
 * that can be current (every edge a thread can traverse that does not end
 * at END), one row per edge that can follow it. A row's NEXT_EDGE_IDS is
 * that edge and then, up to a length the process chooses, the edges that
 * must follow (a block with one way out), so a row often names several
 * edges. Its TRANSITION_CODE is a canonical Huffman code over the
 * followers of the current edge, built from how often each follower came
 * after it in a sample run: prefix-free, at most 32 bits, and empty when
 * the edge has one follower.
 */
#ifndef TC_DCFG_CODE_H
#define TC_DCFG_CODE_H

#include "dcfg_prog.h"

typedef struct dg_row {
    uint32_t code;  /* right-aligned bits */
    uint8_t len;    /* 0..32 */
    uint32_t at, n; /* its edges: dg_codes.row_edges[at .. at+n) */
    uint64_t instrs; /* NUM_INSTRS of the sources of its edges, summed */
} dg_row;

typedef struct dg_codes {
    uint32_t *pair_base; /* per edge: its first pair (rows of it as current), or DG_NONE */
    uint64_t *freq;      /* per pair: how often, in the sample */
    dg_row *rows;        /* per pair */
    uint32_t npairs;
    uint32_t *row_edges;
    uint32_t nrow_edges;
    uint32_t max_chain;
} dg_codes;

/* Pairs for every edge that can be current; frequencies zero. */
void dg_codes_init(dg_codes *c, const dg_proc *p, uint32_t max_chain);
/* Codes and rows from the frequencies. */
void dg_codes_build(dg_codes *c, const dg_proc *p);
void dg_codes_free(dg_codes *c);

/* NUM_INSTRS of a node (0 for START and END). */
static inline uint32_t dg_instrs(const dg_proc *p, uint32_t node)
{
    return node < p->nblocks ? p->blocks[node].ninstr : 0;
}

#endif
