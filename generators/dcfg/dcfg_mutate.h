/*
 * One-violation mutators for a DCFG and its DCFG-trace, keyed by rule id:
 * each turns a valid pair into one on which tracecheck reports that rule
 * and no other of error severity. Most edit the text of one document at a
 * spot the model makes safe (an added row whose id nothing else uses, a
 * table moved aside under an unknown key, which only a pedantic note
 * mentions); the rest steer a writer (dg_mutation), the trace writer's (a
 * row of the transition table left out, an id written differently, one
 * chunk added) or the DCFG writer's (an edge, block, routine node or loop
 * node added, left out or written with another id), where the model tells
 * which element a change breaks nothing else for.
 */
#ifndef TC_DCFG_MUTATE_H
#define TC_DCFG_MUTATE_H

#include "../../parsers/common/rules.h"
#include "../common/bytebuf.h"
#include "dcfg_prog.h"

/* What the trace writer is asked to do differently (dtrc_writer.c). Fields
 * are DG_NONE (or 0) when unused; they concern process 0. */
typedef struct dg_mutation {
    uint32_t skip_cur;    /* edge index: leave out every row of this current edge */
    int skip_coded;       /* leave out every row with a code but each edge's last */
    uint32_t rename_edge; /* edge index: written with an id the DCFG lacks */
    uint32_t new_edge_id;
    int pid_unknown;      /* PROCESS_ID written as one the DCFG lacks */
    int thread_unknown;   /* thread 0's THREAD_ID written as the thread count */
    int extra_chunk;      /* 1: a chunk of two edges that do not join; 2: a chunk of
                           * one edge whose INSTR_COUNT is one too many */
    uint32_t join_from;   /* extra chunk 1: an EXIT edge, and an edge from a block */
    uint32_t join_to;

    /* What the DCFG writer (dcfg_writer.c) is asked to do differently, in
     * process dproc. Ids are written as given; indices are the model's. */
    uint32_t dproc;
    int add_edge;             /* one more EDGES row, taken by no thread: */
    uint32_t add_src, add_dst; /* its node ids */
    uint8_t add_type;         /* its type (DG_*) */
    uint32_t long_counts;     /* edge index: COUNT_PER_THREAD gets one more 0 */
    uint32_t last_off_block;  /* block index: LAST_INSTR_OFFSET written as SIZE */
    uint32_t count_block;     /* block index: COUNT one more than its edges bring */
    uint32_t omit_count_block; /* block index: its COUNT (optional) left out */
    uint32_t add_block_image; /* image index: one more block (id add_block_id, at
                               * offset 0, where no routine is), in no routine */
    uint32_t add_block_id;
    uint32_t node_routine;    /* routine index: one more NODES row */
    uint32_t node_id, node_idom;
    uint32_t idom_block;      /* block index: IDOM_NODE_ID written as idom_id */
    uint32_t idom_id;
    uint32_t exit_routine;    /* routine index: one more EXIT_NODE_IDS id */
    uint32_t exit_id;
    uint32_t move_routine;    /* routine index: written in image move_to's ROUTINES */
    uint32_t move_to;         /* (nimages: an added image holding only that routine) */
    uint32_t loop;            /* loop index, for the four below (each DG_NONE or 0) */
    uint32_t loop_add_id;     /* one more LOOP_NODE_IDS id */
    uint32_t loop_drop;       /* block index left out of LOOP_NODE_IDS */
    uint32_t loop_back_id;    /* LOOP_BACK_EDGE_SOURCE_NODE_IDS written as [this] */
    uint32_t loop_parent_id;  /* PARENT_LOOP_HEAD_NODE_ID written as this */
} dg_mutation;

void dg_mutation_init(dg_mutation *mu);

typedef struct dcfg_mctx {
    tc_bytebuf *dcfg, *trace;
    const dg_program *pg;
    char why[200]; /* when a mutator finds no way: the reason */
} dcfg_mctx;

typedef struct dcfg_mutator {
    tc_rule_id rule;
    const char *doc; /* "dcfg" or "trace": which document changes */
    const char *how; /* for --list-mutators */
    /* Before the run: steer the trace writer (may be NULL). Returns 0 when
     * the model offers no way. */
    int (*plan)(const dg_program *pg, dg_mutation *mu);
    /* After the run: edit the text (may be NULL). Returns 0 when no spot
     * was found (the reason in m->why). */
    int (*edit)(dcfg_mctx *m);
} dcfg_mutator;

const dcfg_mutator *dcfg_mutator_for(tc_rule_id rule);
size_t dcfg_mutator_count(void);
const dcfg_mutator *dcfg_mutator_at(size_t i);

#endif
