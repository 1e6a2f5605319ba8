/*
 * The program model behind a generated DCFG: per process, images of
 * routines built from structured control flow (sequences, if/else,
 * switches, while and do-while loops, single-block spin and REP loops,
 * calls, early returns, system-call and excluded-code bypasses), their
 * basic blocks and edges. Structured flow gives each block's immediate
 * dominator and each loop's nodes by construction: a statement's entry is
 * dominated by the last block of the statement before it, every block of a
 * branch by its condition block, a join by the condition, a loop exit by
 * the block that decides it. Calls form a DAG (a routine calls only
 * routines built before it), so a thread's stack is bounded, and each
 * routine's expected length is capped when its calls are chosen, so one
 * iteration of a thread's main loop is bounded too.
 */
#ifndef TC_DCFG_PROG_H
#define TC_DCFG_PROG_H

#include <stddef.h>
#include <stdint.h>

#include "../../parsers/common/error.h"
#include "../common/rng.h"

/* The edge types the document knows (its list and its example: ruling 2). */
enum {
    DG_ENTRY, DG_EXIT, DG_BRANCH, DG_CONDITIONAL_BRANCH, DG_UNCONDITIONAL_BRANCH,
    DG_DIRECT_BRANCH, DG_INDIRECT_BRANCH, DG_DIRECT_CONDITIONAL_BRANCH,
    DG_INDIRECT_CONDITIONAL_BRANCH, DG_DIRECT_UNCONDITIONAL_BRANCH,
    DG_INDIRECT_UNCONDITIONAL_BRANCH, DG_REP, DG_FALL_THROUGH, DG_CALL, DG_DIRECT_CALL,
    DG_INDIRECT_CALL, DG_RETURN, DG_CALL_BYPASS, DG_SYSTEM_CALL, DG_SYSTEM_RETURN,
    DG_SYSTEM_CALL_BYPASS, DG_CONTEXT_CHANGE, DG_CONTEXT_CHANGE_RETURN,
    DG_CONTEXT_CHANGE_BYPASS, DG_EXCLUDED_CODE_BYPASS, DG_INTERRUPT, DG_INTERRUPT_RETURN,
    DG_INTERRUPT_BYPASS, DG_UNKNOWN_IMAGE_BYPASS, DG_UNKNOWN,
    DG_NTYPES
};
extern const char *const dg_type_names[DG_NTYPES];

/* How control leaves a block. */
enum {
    DG_T_JUMP,   /* one edge */
    DG_T_COND,   /* out 0 taken (probability prob/65536), out 1 not taken */
    DG_T_SWITCH, /* one of several edges, by weight */
    DG_T_CALL,   /* one of the callees' entries, by weight; returns to ret_site */
    DG_T_RET,    /* back to the caller (or EXIT to END from a thread's root routine) */
    DG_T_SELF,   /* out 0 to itself (N-1 times), out 1 onwards */
};

/* Which out of a COND block keeps a loop going (0: not a loop decision). */
enum { DG_LOOP_NONE, DG_LOOP_OUT0, DG_LOOP_OUT1, DG_LOOP_BUDGET };

#define DG_NONE UINT32_MAX
#define DG_START (UINT32_MAX - 1) /* special node indices in dg_edge.src/dst */
#define DG_END (UINT32_MAX - 2)

typedef struct dg_block {
    uint32_t id;
    uint32_t routine;
    uint32_t idom;     /* block index; itself for a routine's entry */
    uint32_t exit_ord; /* RET blocks: ordinal among the routine's exits */
    uint32_t callsite; /* CALL blocks */
    uint64_t addr;     /* offset in the image */
    uint32_t size, ninstr, last_off;
    uint32_t src_file, line; /* source data (file index into the name table; 0: none) */
    uint8_t term, loop;
    uint16_t prob;
    uint32_t out, nout; /* the traversable edges leaving it: outs[out .. out+nout) */
} dg_block;

typedef struct dg_edge {
    uint32_t id;
    uint32_t src, dst; /* block indices, or DG_START / DG_END */
    uint8_t type;
    uint8_t bypass; /* a CALL_BYPASS next to its call: never traversed, count 0 */
    uint32_t k;     /* its index among its source block's outs (traversable edges) */
    uint32_t w;     /* weight (SWITCH, CALL) */
} dg_edge;

typedef struct dg_loop {
    uint32_t head, back_src;
    uint32_t first, last; /* its nodes: the blocks first..last (contiguous by construction) */
    uint32_t parent;      /* head of the enclosing loop, or DG_NONE */
} dg_loop;

typedef struct dg_callsite {
    uint32_t block, ret_site;
    uint32_t ret_at; /* callee i (the call block's out index): cs_ret_at[ret_at + i] */
} dg_callsite;

typedef struct dg_routine {
    uint32_t image;
    uint32_t first, nblocks; /* its blocks, contiguous; the entry is first */
    uint32_t exits_at, nexits;
    uint32_t loops_at, nloops;
    uint32_t name;  /* symbol name number */
    int root;       /* a thread starts here */
    double cost;    /* expected edges per call */
} dg_routine;

typedef struct dg_image {
    uint32_t id, file; /* file: index into the file-name table */
    uint64_t load, size;
} dg_image;

typedef struct dg_proc {
    uint32_t pid, nthreads;
    dg_image *images;
    uint32_t nimages;
    dg_routine *routines;
    uint32_t nroutines, nroots;
    dg_block *blocks;
    uint32_t nblocks, cap_blocks;
    dg_edge *edges;
    uint32_t nedges, cap_edges;
    uint32_t *outs; /* edge indices, grouped by block (made once the routines are built) */
    uint32_t *wt;   /* cumulative weights, parallel to outs (SWITCH, CALL) */
    uint32_t nouts;
    dg_callsite *callsites;
    uint32_t ncallsites, cap_callsites;
    /* For call site c and callee i: cs_ret_at[c.ret_at + i] = a, and
     * cs_ret[a + exit_ord] = the RETURN edge from that exit to c's return site. */
    uint32_t *cs_ret_at, ncs_ret_at, cap_cs_ret_at;
    uint32_t *cs_ret, ncs_ret, cap_cs_ret;
    uint32_t *exits, nexits, cap_exits; /* exit blocks of routines */
    dg_loop *loops;
    uint32_t nloops, cap_loops;
    uint32_t *root_of_thread; /* routine index */
    uint32_t *entry_edge;     /* per routine: its ENTRY edge (roots), else DG_NONE */
    uint64_t *counts;         /* [edge * nthreads + thread] */
    /* Per routine: a root's calls can reach it. NULL: all can (models not
     * made large on purpose), else the trace leaves the rest out of its
     * transition table, so that its size stays the run's. */
    uint8_t *reached;
} dg_proc;

typedef struct dg_program {
    uint32_t start_id, end_id;     /* special nodes */
    uint32_t type_id[DG_NTYPES];   /* 0: not in the EDGE_TYPES table */
    uint32_t nfiles;               /* file-name table: ids and names made by index */
    uint32_t nsrc;                 /* files 1..nsrc are source files, then images */
    uint32_t *file_id;
    dg_proc *procs;
    uint32_t nprocs;
} dg_program;

/* Builds the program for procs processes of up to threads threads (0: let
 * the rng choose), scaled to a trace of about size bytes. routines: 0, or
 * about how many routines in all (shared among the processes), for a DCFG
 * larger than the trace alone would make; most of them are never called.
 * Returns 0, or -1 with the reason in err. */
int dg_program_build(dg_program *pg, tc_rng *rng, uint64_t size, unsigned procs, unsigned threads,
                     uint64_t routines, tc_error *err);

/* The most routines a process may have with routines set (block and node
 * ids are 32-bit: a routine averages some tens of them). */
#define DG_MAX_ROUTINES 4000000u
void dg_program_free(dg_program *pg);

/* The node id of a block index or special index. */
uint32_t dg_node_id(const dg_program *pg, const dg_proc *p, uint32_t node);

#endif
