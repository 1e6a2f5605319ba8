#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg_prog.h"
#include "../common/xalloc.h"

const char *const dg_type_names[DG_NTYPES] = {
    "ENTRY", "EXIT", "BRANCH", "CONDITIONAL_BRANCH", "UNCONDITIONAL_BRANCH", "DIRECT_BRANCH",
    "INDIRECT_BRANCH", "DIRECT_CONDITIONAL_BRANCH", "INDIRECT_CONDITIONAL_BRANCH",
    "DIRECT_UNCONDITIONAL_BRANCH", "INDIRECT_UNCONDITIONAL_BRANCH", "REP", "FALL_THROUGH",
    "CALL", "DIRECT_CALL", "INDIRECT_CALL", "RETURN", "CALL_BYPASS", "SYSTEM_CALL",
    "SYSTEM_RETURN", "SYSTEM_CALL_BYPASS", "CONTEXT_CHANGE", "CONTEXT_CHANGE_RETURN",
    "CONTEXT_CHANGE_BYPASS", "EXCLUDED_CODE_BYPASS", "INTERRUPT", "INTERRUPT_RETURN",
    "INTERRUPT_BYPASS", "UNKNOWN_IMAGE_BYPASS", "UNKNOWN",
};

static void *grow(void *p, uint32_t *cap, uint32_t need, size_t size)
{
    if (need <= *cap)
        return p;
    uint32_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    void *q = realloc(p, (size_t)c * size);
    if (!q) {
        fputs("tracecheck: out of memory\n", stderr);
        abort();
    }
    *cap = c;
    return q;
}
#define PUSH(arr, n, cap, v)                                                   \
    do {                                                                       \
        (arr) = grow((arr), &(cap), (n) + 1, sizeof *(arr));                   \
        (arr)[(n)++] = (v);                                                    \
    } while (0)

/* ---- building one process ---- */

typedef struct bld {
    dg_proc *p;
    tc_rng *r;
    uint32_t routine;
    uint32_t loop_head; /* innermost loop being built, or DG_NONE */
    double mult;        /* expected executions of the current spot per call */
    double cost, cap;   /* expected edges so far, and the most allowed */
    uint32_t next_node, next_edge;
    uint64_t addr;       /* next free offset in the current image */
    uint32_t nsrc;       /* source files of the program */
    uint32_t src_first;  /* index of the first source file */
    uint32_t line;
    uint8_t *called;     /* per routine: some call site reaches it */
    uint32_t nblocks_max;
    int big; /* larger routines for larger traces */
    /* Callees looked at before drawing one (0: all). With a model of
     * millions of routines a full scan per call would be quadratic. */
    uint32_t scan;
    /* 0, or how many routines the trace's paths may take: the ones a model
     * of the trace's size has. The rest (a DCFG made large) call only one
     * another, so no thread enters them and the run stays the trace's. */
    uint32_t active;
} bld;

static uint32_t new_block(bld *b, uint32_t idom)
{
    dg_proc *p = b->p;
    dg_block k = {0};
    b->next_node += 1 + (tc_rng_chance(b->r, 1, 6) ? (uint32_t)tc_rng_below(b->r, 4) : 0);
    k.id = b->next_node;
    k.routine = b->routine;
    k.idom = idom == DG_NONE ? p->nblocks : idom;
    k.exit_ord = k.callsite = DG_NONE;
    k.ninstr = 1 + (uint32_t)tc_rng_below(b->r, tc_rng_chance(b->r, 1, 4) ? 24 : 8);
    uint32_t size = 0, last = 1;
    for (uint32_t i = 0; i < k.ninstr; i++) {
        last = 1 + (uint32_t)tc_rng_below(b->r, i & 1 ? 7 : 4);
        size += last;
    }
    k.size = size;
    k.last_off = size - last;
    k.addr = b->addr;
    b->addr += size + (tc_rng_chance(b->r, 1, 8) ? tc_rng_below(b->r, 16) : 0);
    if (b->nsrc && !tc_rng_chance(b->r, 1, 4)) {
        k.src_file = b->src_first + (uint32_t)tc_rng_below(b->r, b->nsrc) + 1;
        b->line += 1 + (uint32_t)tc_rng_below(b->r, 5);
        k.line = b->line;
    }
    k.term = DG_T_JUMP;
    PUSH(p->blocks, p->nblocks, p->cap_blocks, k);
    return p->nblocks - 1;
}

static uint32_t new_edge(bld *b, uint32_t src, uint32_t dst, int type)
{
    dg_proc *p = b->p;
    dg_edge e = {0};
    b->next_edge += 1 + (tc_rng_chance(b->r, 1, 5) ? (uint32_t)tc_rng_below(b->r, 3) : 0);
    e.id = b->next_edge;
    e.src = src;
    e.dst = dst;
    e.type = (uint8_t)type;
    e.w = 1;
    PUSH(p->edges, p->nedges, p->cap_edges, e);
    return p->nedges - 1;
}

/* A jump from `from` (whose way out is still open) to `to`. */
static void link_to(bld *b, uint32_t from, uint32_t to, int type)
{
    b->p->blocks[from].term = DG_T_JUMP;
    new_edge(b, from, to, type);
    b->cost += b->mult;
}

static int pick_type(bld *b, const int *types, size_t n)
{
    return types[tc_rng_below(b->r, n)];
}

static const int fall_types[] = {DG_FALL_THROUGH, DG_FALL_THROUGH, DG_FALL_THROUGH,
                                 DG_DIRECT_UNCONDITIONAL_BRANCH};
static const int jump_types[] = {DG_DIRECT_UNCONDITIONAL_BRANCH, DG_DIRECT_UNCONDITIONAL_BRANCH,
                                 DG_UNCONDITIONAL_BRANCH, DG_DIRECT_BRANCH, DG_BRANCH};
static const int cond_types[] = {DG_DIRECT_CONDITIONAL_BRANCH, DG_DIRECT_CONDITIONAL_BRANCH,
                                 DG_CONDITIONAL_BRANCH, DG_INDIRECT_CONDITIONAL_BRANCH};
static const int switch_types[] = {DG_INDIRECT_UNCONDITIONAL_BRANCH,
                                   DG_INDIRECT_UNCONDITIONAL_BRANCH, DG_INDIRECT_BRANCH};

static void add_loop(bld *b, uint32_t head, uint32_t back_src, uint32_t first, uint32_t last,
                     uint32_t parent)
{
    dg_loop l = {head, back_src, first, last, parent};
    PUSH(b->p->loops, b->p->nloops, b->p->cap_loops, l);
}

static uint32_t seq(bld *b, uint32_t prev, int depth, int nstmts);

/* Each statement takes the block before it (its way out still open) and
 * returns its own last block, whose way out is open. */

static uint32_t st_plain(bld *b, uint32_t prev)
{
    uint32_t k = new_block(b, prev);
    link_to(b, prev, k, pick_type(b, fall_types, 4));
    return k;
}

static uint32_t st_if(bld *b, uint32_t prev, int depth, int with_else)
{
    dg_proc *p = b->p;
    uint32_t c = new_block(b, prev);
    link_to(b, prev, c, pick_type(b, fall_types, 4));
    uint16_t prob = (uint16_t)tc_rng_range(b->r, 4000, 61000);
    double pt = prob / 65536.0, m = b->mult;
    uint32_t t = new_block(b, c);
    b->mult = m * (1 - pt);
    uint32_t tlast = seq(b, t, depth + 1, 1 + (int)tc_rng_below(b->r, 2));
    uint32_t e = DG_NONE, elast = DG_NONE;
    if (with_else) {
        e = new_block(b, c);
        b->mult = m * pt;
        elast = seq(b, e, depth + 1, 1 + (int)tc_rng_below(b->r, 2));
    }
    b->mult = m;
    uint32_t j = new_block(b, c);
    /* The taken edge first: it is out 0. */
    p->blocks[c].term = DG_T_COND;
    p->blocks[c].prob = prob;
    new_edge(b, c, with_else ? e : j, pick_type(b, cond_types, 4));
    new_edge(b, c, t, DG_FALL_THROUGH);
    b->cost += m;
    link_to(b, tlast, j, pick_type(b, jump_types, 5));
    if (with_else)
        link_to(b, elast, j, DG_FALL_THROUGH);
    return j;
}

/* An early return: a condition whose taken edge goes to a returning block. */
static uint32_t st_early_return(bld *b, uint32_t prev)
{
    dg_proc *p = b->p;
    uint32_t c = new_block(b, prev);
    link_to(b, prev, c, pick_type(b, fall_types, 4));
    uint32_t ret = new_block(b, c);
    p->blocks[ret].term = DG_T_RET;
    uint32_t x = new_block(b, c);
    p->blocks[c].term = DG_T_COND;
    p->blocks[c].prob = (uint16_t)tc_rng_range(b->r, 1000, 12000);
    new_edge(b, c, ret, pick_type(b, cond_types, 4));
    new_edge(b, c, x, DG_FALL_THROUGH);
    b->cost += b->mult;
    b->mult *= 1 - p->blocks[c].prob / 65536.0;
    return x;
}

static uint32_t st_switch(bld *b, uint32_t prev, int depth)
{
    dg_proc *p = b->p;
    uint32_t c = new_block(b, prev);
    link_to(b, prev, c, pick_type(b, fall_types, 4));
    uint32_t n = 2 + (uint32_t)tc_rng_below(b->r, tc_rng_chance(b->r, 1, 4) ? 30 : 5);
    uint32_t heads[32], lasts[32], w[32], total = 0;
    for (uint32_t i = 0; i < n; i++)
        total += w[i] = 1 + (uint32_t)tc_rng_below(b->r, tc_rng_chance(b->r, 1, 3) ? 100 : 8);
    double m = b->mult;
    for (uint32_t i = 0; i < n; i++) {
        heads[i] = new_block(b, c);
        b->mult = m * w[i] / total;
        lasts[i] = depth < 2 && tc_rng_chance(b->r, 1, 3) ? seq(b, heads[i], depth + 1, 1)
                                                          : heads[i];
    }
    b->mult = m;
    uint32_t j = new_block(b, c);
    p->blocks[c].term = DG_T_SWITCH;
    int type = pick_type(b, switch_types, 3);
    for (uint32_t i = 0; i < n; i++)
        {
        uint32_t e = new_edge(b, c, heads[i], type);
        p->edges[e].w = w[i];
    }
    b->cost += m;
    for (uint32_t i = 0; i < n; i++)
        link_to(b, lasts[i], j, i + 1 == n ? DG_FALL_THROUGH : pick_type(b, jump_types, 5));
    return j;
}

/* while (cond) body: the head decides, the body jumps back to it. */
static uint32_t st_while(bld *b, uint32_t prev, int depth, int budget)
{
    dg_proc *p = b->p;
    uint32_t h = new_block(b, prev);
    link_to(b, prev, h, pick_type(b, fall_types, 4));
    uint32_t outer = b->loop_head;
    double m = b->mult, q = budget ? 0 : tc_rng_range(b->r, 30, 90) / 100.0;
    b->loop_head = h;
    if (!budget)
        b->mult = m * q / (1 - q);
    uint32_t body = new_block(b, h);
    uint32_t blast = seq(b, body, depth + 1, budget ? 3 + (int)tc_rng_below(b->r, 6)
                                                    : 1 + (int)tc_rng_below(b->r, 3));
    link_to(b, blast, h, pick_type(b, jump_types, 5));
    b->loop_head = outer;
    add_loop(b, h, blast, h, blast, outer);
    b->mult = m;
    uint32_t x = new_block(b, h);
    p->blocks[h].term = DG_T_COND;
    p->blocks[h].loop = budget ? DG_LOOP_BUDGET : DG_LOOP_OUT1;
    p->blocks[h].prob = (uint16_t)((1 - q) * 65535);
    new_edge(b, h, x, pick_type(b, cond_types, 4));
    new_edge(b, h, body, DG_FALL_THROUGH);
    b->cost += m / (1 - q);
    return x;
}

/* do body while (cond): a tail block decides, its taken edge goes back. */
static uint32_t st_do_while(bld *b, uint32_t prev, int depth)
{
    dg_proc *p = b->p;
    uint32_t h = new_block(b, prev);
    link_to(b, prev, h, pick_type(b, fall_types, 4));
    uint32_t outer = b->loop_head;
    double m = b->mult, q = tc_rng_range(b->r, 30, 90) / 100.0;
    b->loop_head = h;
    b->mult = m / (1 - q);
    uint32_t blast = seq(b, h, depth + 1, (int)tc_rng_below(b->r, 3));
    uint32_t t = new_block(b, blast);
    link_to(b, blast, t, DG_FALL_THROUGH);
    b->loop_head = outer;
    add_loop(b, h, t, h, t, outer);
    uint32_t x = new_block(b, t);
    p->blocks[t].term = DG_T_COND;
    p->blocks[t].loop = DG_LOOP_OUT0;
    p->blocks[t].prob = (uint16_t)(q * 65535);
    new_edge(b, t, h, pick_type(b, cond_types, 4));
    new_edge(b, t, x, DG_FALL_THROUGH);
    b->cost += b->mult;
    b->mult = m;
    return x;
}

/* A single block that repeats itself (a spin loop, or a REP instruction):
 * how many times is drawn at run time, up to 2^prob. */
static uint32_t st_self(bld *b, uint32_t prev)
{
    dg_proc *p = b->p;
    uint32_t h = new_block(b, prev);
    link_to(b, prev, h, pick_type(b, fall_types, 4));
    add_loop(b, h, h, h, h, b->loop_head);
    uint32_t x = new_block(b, h);
    int rep = tc_rng_chance(b->r, 1, 2);
    p->blocks[h].term = DG_T_SELF;
    p->blocks[h].prob = (uint16_t)(1 + tc_rng_below(b->r, 12));
    new_edge(b, h, h, rep ? DG_REP : pick_type(b, cond_types, 4));
    new_edge(b, h, x, DG_FALL_THROUGH);
    b->cost += b->mult * (2 + (double)(1u << p->blocks[h].prob) / (2 * p->blocks[h].prob));
    return x;
}

/* A system call or excluded code whose callee is not in the graph. */
static uint32_t st_bypass(bld *b, uint32_t prev)
{
    uint32_t s = new_block(b, prev);
    link_to(b, prev, s, pick_type(b, fall_types, 4));
    uint32_t n = new_block(b, s);
    link_to(b, s, n, tc_rng_chance(b->r, 2, 3) ? DG_SYSTEM_CALL_BYPASS : DG_EXCLUDED_CODE_BYPASS);
    return n;
}

/* A callee for a call from the current routine: one built before it (a
 * higher index), preferably not yet called, whose expected length still
 * fits the cap. DG_NONE when none fits. */
static uint32_t pick_callee(bld *b, double *cost)
{
    dg_proc *p = b->p;
    /* Never a root: a thread's stack starts empty there. */
    uint32_t lo = b->routine + 1 > p->nroots ? b->routine + 1 : p->nroots, n = p->nroutines;
    if (b->active && b->routine < b->active)
        n = b->active;
    if (lo >= n)
        return DG_NONE;
    double room = b->cap - b->cost;
    uint32_t end = b->scan && n - lo > b->scan ? lo + b->scan : n;
    for (uint32_t j = lo; j < end; j++)
        if (!b->called[j] && b->mult * (p->routines[j].cost + 2) <= room) {
            *cost = p->routines[j].cost;
            return j;
        }
    for (int tries = 0; tries < 4; tries++) {
        uint32_t j = lo + (uint32_t)tc_rng_below(b->r, n - lo);
        if (b->mult * (p->routines[j].cost + 2) <= room) {
            *cost = p->routines[j].cost;
            return j;
        }
    }
    return DG_NONE;
}

static uint32_t st_call(bld *b, uint32_t prev)
{
    dg_proc *p = b->p;
    double c0;
    uint32_t callee[3], w[3], n = 0;
    callee[0] = pick_callee(b, &c0);
    if (callee[0] == DG_NONE)
        return st_plain(b, prev);
    n = 1;
    if (tc_rng_chance(b->r, 1, 4))
        for (int i = 0; i < 2; i++) {
            double c;
            uint32_t j = pick_callee(b, &c);
            int dup = 0;
            for (uint32_t k = 0; k < n; k++)
                dup |= callee[k] == j;
            if (j != DG_NONE && !dup)
                callee[n++] = j;
        }
    uint32_t k = new_block(b, prev);
    link_to(b, prev, k, pick_type(b, fall_types, 4));
    uint32_t r = new_block(b, k);
    dg_callsite cs = {k, r, p->ncs_ret_at};
    p->blocks[k].term = DG_T_CALL;
    p->blocks[k].callsite = p->ncallsites;
    PUSH(p->callsites, p->ncallsites, p->cap_callsites, cs);
    int type = n > 1 ? DG_INDIRECT_CALL
               : tc_rng_chance(b->r, 1, 6) ? (tc_rng_chance(b->r, 1, 2) ? DG_CALL : DG_INDIRECT_CALL)
                                           : DG_DIRECT_CALL;
    uint32_t total = 0;
    for (uint32_t i = 0; i < n; i++)
        total += w[i] = 1 + (uint32_t)tc_rng_below(b->r, 9);
    double expect = 0;
    for (uint32_t i = 0; i < n; i++) {
        const dg_routine *rt = &p->routines[callee[i]];
        uint32_t ce = new_edge(b, k, rt->first, type);
        p->edges[ce].w = w[i];
        b->called[callee[i]] = 1;
        expect += rt->cost * w[i] / total;
        PUSH(p->cs_ret_at, p->ncs_ret_at, p->cap_cs_ret_at, p->ncs_ret);
        for (uint32_t x = 0; x < rt->nexits; x++) {
            uint32_t e = new_edge(b, p->exits[rt->exits_at + x], r, DG_RETURN);
            PUSH(p->cs_ret, p->ncs_ret, p->cap_cs_ret, e);
        }
    }
    /* Both the call and the return are in the graph: the bypass is there for
     * the routine's own flow and counts 0 (doc §2.16). */
    uint32_t by = new_edge(b, k, r, DG_CALL_BYPASS);
    p->edges[by].bypass = 1;
    b->cost += b->mult * (2 + expect);
    return r;
}

static uint32_t statement(bld *b, uint32_t prev, int depth)
{
    unsigned roll = (unsigned)tc_rng_below(b->r, 100);
    if (depth >= 3 || b->p->nblocks >= b->nblocks_max)
        roll = roll < 50 ? 0 : roll < 80 ? 60 : 90; /* flat statements only */
    if (roll < 18)
        return st_plain(b, prev);
    if (roll < 30)
        return st_if(b, prev, depth, 1);
    if (roll < 40)
        return st_if(b, prev, depth, 0);
    if (roll < 46)
        return st_switch(b, prev, depth);
    if (roll < 54)
        return b->mult < 50 ? st_while(b, prev, depth, 0) : st_plain(b, prev);
    if (roll < 60)
        return b->mult < 50 ? st_do_while(b, prev, depth) : st_plain(b, prev);
    if (roll < 70)
        return b->mult < 20 ? st_self(b, prev) : st_plain(b, prev);
    if (roll < 75)
        return st_bypass(b, prev);
    if (roll < 79 && !b->p->routines[b->routine].root && depth > 0)
        return st_early_return(b, prev);
    return st_call(b, prev);
}

static uint32_t seq(bld *b, uint32_t prev, int depth, int nstmts)
{
    for (int i = 0; i < nstmts; i++)
        prev = statement(b, prev, depth);
    return prev;
}

static void build_routine(bld *b, uint32_t ri, int root)
{
    dg_proc *p = b->p;
    dg_routine *rt = &p->routines[ri];
    b->routine = ri;
    rt->root = root;
    rt->first = p->nblocks;
    rt->loops_at = p->nloops;
    b->loop_head = DG_NONE;
    b->mult = 1;
    b->cost = 0;
    b->cap = root ? 4000 + (double)tc_rng_below(b->r, 20000) : 100 + (double)tc_rng_below(b->r, 1500);
    b->addr += 16 + tc_rng_below(b->r, 48);
    uint32_t entry = new_block(b, DG_NONE);
    uint32_t last = entry;
    if (root) {
        /* A thread's root: a prologue, the main loop (it runs while the
         * thread's budget lasts), an epilogue. */
        last = seq(b, last, 1, (int)tc_rng_below(b->r, 2));
        last = st_while(b, last, 0, 1);
        last = seq(b, last, 1, (int)tc_rng_below(b->r, 2));
    } else {
        last = seq(b, last, 0, 1 + (int)tc_rng_below(b->r, b->big ? 5 : 3));
    }
    p->blocks[last].term = DG_T_RET;
    rt->nblocks = p->nblocks - rt->first;
    rt->nloops = p->nloops - rt->loops_at;
    rt->exits_at = p->nexits;
    for (uint32_t i = rt->first; i < p->nblocks; i++)
        if (p->blocks[i].term == DG_T_RET) {
            p->blocks[i].exit_ord = p->nexits - rt->exits_at;
            PUSH(p->exits, p->nexits, p->cap_exits, i);
        }
    rt->nexits = p->nexits - rt->exits_at;
    rt->cost = b->cost < 1 ? 1 : b->cost;
    if (root)
        for (uint32_t x = 0; x < rt->nexits; x++)
            new_edge(b, p->exits[rt->exits_at + x], DG_END, DG_EXIT);
}

/* The traversable edges of each block, grouped (outs, wt), and each edge's
 * index among them. */
static void index_outs(dg_proc *p)
{
    uint32_t *n = tc_gen_xcalloc(p->nblocks + 1, sizeof *n);
    for (uint32_t e = 0; e < p->nedges; e++)
        if (p->edges[e].src < p->nblocks && !p->edges[e].bypass)
            n[p->edges[e].src]++;
    uint32_t at = 0;
    for (uint32_t i = 0; i < p->nblocks; i++) {
        p->blocks[i].out = at;
        p->blocks[i].nout = 0;
        at += n[i];
    }
    p->nouts = at;
    p->outs = tc_gen_xcalloc(at, sizeof *p->outs);
    p->wt = tc_gen_xcalloc(at, sizeof *p->wt);
    for (uint32_t e = 0; e < p->nedges; e++) {
        dg_edge *ed = &p->edges[e];
        if (ed->src >= p->nblocks || ed->bypass)
            continue;
        dg_block *k = &p->blocks[ed->src];
        ed->k = k->nout;
        uint32_t o = k->out + k->nout++;
        p->outs[o] = e;
        p->wt[o] = ed->w + (ed->k ? p->wt[o - 1] : 0);
    }
    free(n);
}

/* Which routines a thread can enter. Callees have higher indices than
 * their callers, so one pass in index order sees every caller first. */
static void mark_reached(dg_proc *p)
{
    p->reached = tc_gen_xcalloc(p->nroutines, 1);
    for (uint32_t k = 0; k < p->nroots; k++)
        p->reached[k] = 1;
    for (uint32_t k = 0; k < p->nroutines; k++) {
        const dg_routine *rt = &p->routines[k];
        if (!p->reached[k])
            continue;
        for (uint32_t i = rt->first; i < rt->first + rt->nblocks; i++) {
            const dg_block *bk = &p->blocks[i];
            if (bk->term != DG_T_CALL)
                continue;
            for (uint32_t o = bk->out; o < bk->out + bk->nout; o++)
                p->reached[p->blocks[p->edges[p->outs[o]].dst].routine] = 1;
        }
    }
}

static int build_proc(dg_program *pg, dg_proc *p, tc_rng *r, uint64_t size, unsigned threads,
                      uint32_t routines, uint32_t nsrc, uint32_t src_first,
                      uint32_t *next_file)
{
    p->nthreads = threads;
    /* The model grows slowly with the trace: a few routines for a tiny
     * trace, some hundreds for gigabytes. */
    uint32_t scale = 0;
    for (uint64_t s = size >> 14; s; s >>= 1)
        scale++;
    uint32_t nr = 2 + (uint32_t)tc_rng_below(r, 2) + scale * (1 + (uint32_t)tc_rng_below(r, 4));
    if (nr > 400)
        nr = 400;
    uint32_t active = 0;
    if (routines > nr) {
        active = nr;
        nr = routines;
    }
    uint32_t nroots = 1 + (threads > 1 ? (uint32_t)tc_rng_below(r, threads < 3 ? threads : 3) : 0);
    if (nroots >= nr)
        nr = nroots + 1;
    p->nroutines = nr;
    p->nroots = nroots;
    p->routines = tc_gen_xcalloc(nr, sizeof *p->routines);
    p->nimages = 1 + (uint32_t)tc_rng_below(r, nr / 6 + 1 < 5 ? nr / 6 + 1 : 5);
    /* A large model spreads over more libraries, as large programs do (each
     * image's tables are written by a pass over the process's blocks:
     * kept to some dozens). */
    if (routines)
        p->nimages += nr / 20000 < 60 ? nr / 20000 : 60;
    p->images = tc_gen_xcalloc(p->nimages, sizeof *p->images);
    p->entry_edge = tc_gen_xcalloc(nr, sizeof *p->entry_edge);
    bld b = {.p = p, .r = r, .nsrc = nsrc, .src_first = src_first};
    b.called = tc_gen_xcalloc(nr, 1);
    b.big = scale > 2;
    b.nblocks_max = 60 * nr + 200;
    b.scan = routines ? 64 : 0;
    b.active = active;
    b.next_node = pg->end_id > pg->start_id ? pg->end_id : pg->start_id;
    b.next_node += (uint32_t)tc_rng_below(r, 1000);
    b.next_edge = (uint32_t)tc_rng_below(r, tc_rng_chance(r, 1, 2) ? 5 : 100000);
    uint32_t first_image_id = tc_rng_chance(r, 1, 3) ? 0 : 1;
    for (uint32_t i = 0; i < p->nimages; i++) {
        dg_image *im = &p->images[i];
        im->id = first_image_id + i;
        im->file = (*next_file)++;
        im->load = i == 0 ? 0x400000 : 0x7f0000000000ull + (uint64_t)i * 0x1000000 +
                                          (tc_rng_below(r, 256) << 12);
    }
    /* Routine ri lives in image ri * nimages / nr; the roots are in the
     * first (the executable). Built from the last, so that callees exist. */
    uint32_t img = DG_NONE;
    for (uint32_t k = nr; k-- > 0;) {
        uint32_t want = (uint32_t)((uint64_t)k * p->nimages / nr);
        if (want != img) {
            if (img != DG_NONE)
                p->images[img].size = b.addr + tc_rng_below(r, 4096);
            img = want;
            b.addr = tc_rng_below(r, 0x1000);
        }
        p->routines[k].image = img;
        p->routines[k].name = k;
        build_routine(&b, k, k < nroots);
    }
    p->images[img].size = b.addr + tc_rng_below(r, 4096);
    for (uint32_t k = 0; k < nroots; k++)
        p->entry_edge[k] = new_edge(&b, DG_START, p->routines[k].first, DG_ENTRY);
    for (uint32_t k = nroots; k < nr; k++)
        p->entry_edge[k] = DG_NONE;
    p->root_of_thread = tc_gen_xcalloc(threads, sizeof *p->root_of_thread);
    for (uint32_t t = 0; t < threads; t++)
        p->root_of_thread[t] = t == 0 || nroots == 1 ? 0 : 1 + (t - 1) % (nroots - 1);
    index_outs(p);
    if (routines)
        mark_reached(p);
    p->counts = tc_gen_xcalloc((size_t)p->nedges * threads, sizeof *p->counts);
    free(b.called);
    return 0;
}

int dg_program_build(dg_program *pg, tc_rng *r, uint64_t size, unsigned procs, unsigned threads,
                     uint64_t routines, tc_error *err)
{
    memset(pg, 0, sizeof *pg);
    if (procs > 64 || threads > 256) {
        tc_error_set(err, "gen", "at most 64 processes of 256 threads (asked %u and %u)", procs,
                     threads);
        return -1;
    }
    if (!procs)
        procs = size < 8192 ? 1 : 1 + (unsigned)tc_rng_below(r, 3);
    /* Special nodes first: block ids of every process are above them. */
    pg->start_id = 1 + (uint32_t)tc_rng_below(r, 3);
    pg->end_id = pg->start_id + 1 + (uint32_t)tc_rng_below(r, 2);
    if (tc_rng_chance(r, 1, 3)) {
        uint32_t t = pg->start_id;
        pg->start_id = pg->end_id;
        pg->end_id = t;
    }
    /* Edge types: every type the model uses, some others, ids shuffled. */
    uint32_t perm[DG_NTYPES];
    for (uint32_t i = 0; i < DG_NTYPES; i++)
        perm[i] = i;
    for (uint32_t i = DG_NTYPES - 1; i > 0; i--) {
        uint32_t j = (uint32_t)tc_rng_below(r, i + 1), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    uint32_t id = (uint32_t)tc_rng_below(r, 3);
    for (uint32_t i = 0; i < DG_NTYPES; i++)
        pg->type_id[perm[i]] = id += 1 + (tc_rng_chance(r, 1, 6) ? (uint32_t)tc_rng_below(r, 5) : 0);
    pg->nprocs = procs;
    pg->procs = tc_gen_xcalloc(procs, sizeof *pg->procs);
    uint32_t nsrc = pg->nsrc = 1 + (uint32_t)tc_rng_below(r, 6);
    uint32_t next_file = nsrc + 1; /* 1..nsrc: source files; then images */
    uint32_t pid = 1000 + (uint32_t)tc_rng_below(r, 30000);
    for (uint32_t i = 0; i < procs; i++) {
        dg_proc *p = &pg->procs[i];
        p->pid = pid += 1 + (uint32_t)tc_rng_below(r, 500);
        unsigned t = threads ? threads : size == 0 ? 1 : 1 + (unsigned)tc_rng_below(r, 4);
        uint64_t nr = routines / procs + (i < routines % procs);
        build_proc(pg, p, r, size / procs, t, nr > DG_MAX_ROUTINES ? DG_MAX_ROUTINES : (uint32_t)nr,
                   nsrc, 0, &next_file);
    }
    pg->nfiles = next_file - 1;
    pg->file_id = tc_gen_xcalloc(pg->nfiles + 1, sizeof *pg->file_id);
    uint32_t fid = (uint32_t)tc_rng_below(r, 4);
    for (uint32_t f = 1; f <= pg->nfiles; f++)
        pg->file_id[f] = fid += 1 + (uint32_t)tc_rng_below(r, 3);
    return 0;
}

void dg_program_free(dg_program *pg)
{
    for (uint32_t i = 0; i < pg->nprocs; i++) {
        dg_proc *p = &pg->procs[i];
        free(p->images);
        free(p->routines);
        free(p->blocks);
        free(p->edges);
        free(p->outs);
        free(p->wt);
        free(p->callsites);
        free(p->cs_ret_at);
        free(p->cs_ret);
        free(p->exits);
        free(p->loops);
        free(p->root_of_thread);
        free(p->entry_edge);
        free(p->counts);
        free(p->reached);
    }
    free(pg->procs);
    free(pg->file_id);
    memset(pg, 0, sizeof *pg);
}

uint32_t dg_node_id(const dg_program *pg, const dg_proc *p, uint32_t node)
{
    if (node == DG_START)
        return pg->start_id;
    if (node == DG_END)
        return pg->end_id;
    return p->blocks[node].id;
}
