/*
 * Decoding a character (6 bits) per step instead of a code per step: per
 * process, the codes of each edge as a binary tree, and per node of it and
 * character the codes the character completes, the edges and weight they
 * add and the node reached. Nodes are made once per table, transitions on
 * a node's first use, both within a memory bound past which decoding goes
 * code at a time (tc_dtrc_fast_step returns NULL). A code that leads onto
 * an edge with the empty code takes that code along (and the empty codes
 * after it, up to TC_DTRC_FAST_MAX_EMPTY); longer chains and cycles of
 * empty codes are the slow path's cycle detection's job.
 */
#ifndef TC_DTRC_FAST_H
#define TC_DTRC_FAST_H

#include <stddef.h>
#include <stdint.h>

#include "dtrc_table.h"

/* Bounds on what the tables may take: nodes (about 24 bytes each) and
 * transition blocks (64 x 32 bytes each), 48 MiB and 128 MiB. */
#define TC_DTRC_FAST_MAX_NODES (1u << 21)
#define TC_DTRC_FAST_MAX_BLOCKS (1u << 16)

/* Empty codes a transition follows after a code before it leaves them to
 * the slow path. */
#define TC_DTRC_FAST_MAX_EMPTY 16

#define TC_DTRC_FAST_NONE UINT32_MAX
#define TC_DTRC_FAST_LEAF 0x80000000u

typedef struct tc_dtrc_fast_tr {
    uint64_t edges;  /* edges the completed codes add */
    uint64_t weight; /* and their weight */
    uint32_t node;   /* reached; TC_DTRC_FAST_NONE: go code at a time */
    uint32_t codes;  /* codes completed */
    /* node's transitions (its tc_dtrc_fast_node.block), filled in by the
     * decoder on first use so that a step is one dependent load, not two;
     * 0 not known yet. */
    uint32_t next_block;
} tc_dtrc_fast_tr;

typedef struct tc_dtrc_fast_node {
    /* Per bit: 0 nothing (no code begins so), TC_DTRC_FAST_LEAF | k the
     * code k of the table, else a node's index + 1. */
    uint32_t child[2];
    uint32_t entry; /* of the table */
    uint32_t bits;  /* the depth bits read from the entry's root, low-aligned */
    uint32_t block; /* transitions: tr + (block - 1) * 64; 0 not made yet */
    uint8_t depth;
} tc_dtrc_fast_node;

typedef struct tc_dtrc_fast {
    const tc_dtrc_table *t;
    int ok; /* built; else decoding goes code at a time */
    tc_dtrc_fast_node *nodes;
    size_t nnodes, capnodes;
    uint32_t *root; /* per entry: its root node, TC_DTRC_FAST_NONE for the empty code */
    tc_dtrc_fast_tr *tr;
    size_t nblocks, capblocks;
    /* Whether the transitions made hold weights of rows: they are made for
     * one way of weighing, the first decoding's. */
    int weighted;
    /* Lower bounds than TC_DTRC_FAST_MAX_NODES and _BLOCKS when not 0 (set
     * after tc_dtrc_fast_init, kept by tc_dtrc_fast_free), so that tests
     * reach them with small tables; 0 in production. */
    size_t max_nodes, max_blocks;
} tc_dtrc_fast;

void tc_dtrc_fast_init(tc_dtrc_fast *f);
void tc_dtrc_fast_free(tc_dtrc_fast *f);
/* Builds the code trees of a finished table (dropping what was there);
 * f->ok says whether it could. */
void tc_dtrc_fast_build(tc_dtrc_fast *f, const tc_dtrc_table *t);

/* The node of entry e after the unconsumed bits (acc's low nacc bits), or
 * TC_DTRC_FAST_NONE when they complete a code or lead nowhere. */
uint32_t tc_dtrc_fast_walk(const tc_dtrc_fast *f, uint32_t e, uint64_t acc, unsigned nacc);

/* The weight of a code's edges (current: its row's CURRENT_EDGE_ID):
 * returns 0 when they must go one by one. */
typedef int (*tc_dtrc_fast_weight)(void *user, uint32_t current, const tc_dtrc_code *c,
                                   uint64_t *weight);

/* The transition from node n on character ch (0..63), made on first use
 * with weight(); NULL when it cannot be made (memory bound). */
const tc_dtrc_fast_tr *tc_dtrc_fast_make(tc_dtrc_fast *f, uint32_t n, unsigned ch,
                                         tc_dtrc_fast_weight weight, void *user);

static inline const tc_dtrc_fast_tr *tc_dtrc_fast_step(tc_dtrc_fast *f, uint32_t n, unsigned ch,
                                                       tc_dtrc_fast_weight weight, void *user)
{
    uint32_t b = f->nodes[n].block;
    return b ? &f->tr[(size_t)(b - 1) * 64 + ch] : tc_dtrc_fast_make(f, n, ch, weight, user);
}

#endif
