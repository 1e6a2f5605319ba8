/*
 * Routines and loops (Doc §2.14, §2.15; ruling 12): membership in the
 * image, one routine per block, exits among the nodes, reachability from
 * the entry over intra-routine edges, immediate dominators recomputed and
 * compared, and the loop constraints. Every lookup is a binary search or
 * an array index, so the work is n log n in the routines' sizes, their
 * loops and their edges whatever their shape (one routine of a million
 * loops, a block with a million edges, a million routines).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg_doc.h"
#include "dcfg_dom.h"

#define NONE UINT32_MAX
/* &vec.v[i] without arithmetic on a NULL vector (nothing was stored). */
#define AT(vec, i) ((vec).v ? (vec).v + (i) : NULL)

typedef struct rstate {
    tc_dcfg_doc *doc;
    tc_dcfg_proc *p;
    uint32_t *owner;  /* by block: routine index + 1, 0 none */
    uint32_t *local;  /* by block: index in the current routine, NONE */
    uint32_t *mark;   /* by block: stamp of the loop being checked */
    uint32_t stamp;
    /* Edges by source block (CSR over edge indices), each block's sorted
     * by target id so that "has b an edge to h" is a binary search: a
     * block with a million edges named as the back-edge source of a
     * million loops stays n log n. */
    uint32_t *out_off, *out_edge;
    const int *intra; /* by edge index */
    /* Scratch reused from routine to routine (grown as needed). */
    TC_DCFG_VEC(long) blk;       /* by local node: block index */
    tc_dcfg_u32vec stated;       /* by local node: its IDOM_NODE_ID */
    tc_dcfg_u32vec row;          /* by local node: its NODES row (index in locs) */
    TC_DCFG_VEC(uint64_t) keys;  /* loops: (head, index) and (parent, child) */
} rstate;

static long block_of(rstate *s, uint32_t id) { return tc_dcfg_find_block(s->p, id); }

static int has_edge(rstate *s, long from, uint32_t to_id)
{
    uint32_t lo = s->out_off[from], hi = s->out_off[from + 1];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->p->edges.v[s->out_edge[mid]].target < to_id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->out_off[from + 1] && s->p->edges.v[s->out_edge[lo]].target == to_id;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The loop of routine r (an index among its loops) headed by `head`,
 * other than loop `self`, found in keys (head << 32 | index, sorted). */
static uint32_t loop_headed_by(const uint64_t *keys, uint32_t n, uint32_t head, uint32_t self)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (keys[mid] >> 32 < head)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < n && keys[lo] >> 32 == head; lo++)
        if ((uint32_t)keys[lo] != self)
            return (uint32_t)keys[lo];
    return NONE;
}

static void nomem(rstate *s, const tc_dcfg_routine *r)
{
    tc_diag_fail(s->doc->d, "out of memory checking routine %" PRIu32 " of process %" PRIu64, r->entry,
                s->p->pid);
}

static void check_loops(rstate *s, const tc_dcfg_routine *r)
{
    tc_dcfg_doc *doc = s->doc;
    tc_dcfg_proc *p = s->p;
    if (!r->nloops)
        return;
    const tc_dcfg_loop *loops = p->loops.v + r->loops;
    for (uint32_t li = 0; li < r->nloops; li++) {
        const tc_dcfg_loop *l = &loops[li];
        const uint32_t *back = AT(p->ids, l->back), *nodes = AT(p->ids, l->nodes);
        s->stamp++;
        for (uint32_t k = 0; k < l->nnodes; k++) {
            long b = block_of(s, nodes[k]);
            if (b < 0 || s->local[b] == NONE)
                tc_dcfg_report(doc, &l->at, TC_RULE_DCFG_LOOP_ROUTINE,
                            "loop %" PRIu32 ": LOOP_NODE_IDS has %" PRIu32
                            ", not a node of routine %" PRIu32,
                            l->head, nodes[k], r->entry);
            else
                s->mark[b] = s->stamp;
        }
        long h = block_of(s, l->head);
        if (h < 0 || s->local[h] == NONE)
            tc_dcfg_report(doc, &l->at, TC_RULE_DCFG_LOOP_ROUTINE,
                        "loop head %" PRIu32 " is not a node of routine %" PRIu32, l->head,
                        r->entry);
        else if (s->mark[h] != s->stamp)
            tc_dcfg_report(doc, &l->at, TC_RULE_DCFG_LOOP_MEMBERS,
                        "loop head %" PRIu32 " is not among its LOOP_NODE_IDS", l->head);
        for (uint32_t k = 0; k < l->nback; k++) {
            long b = block_of(s, back[k]);
            if (b < 0 || s->local[b] == NONE) {
                tc_dcfg_report(doc, &l->at, TC_RULE_DCFG_LOOP_ROUTINE,
                            "loop %" PRIu32 ": back-edge source %" PRIu32
                            " is not a node of routine %" PRIu32,
                            l->head, back[k], r->entry);
                continue;
            }
            if (s->mark[b] != s->stamp)
                tc_dcfg_report(doc, &l->at, TC_RULE_DCFG_LOOP_MEMBERS,
                            "loop %" PRIu32 ": back-edge source %" PRIu32
                            " is not among its LOOP_NODE_IDS",
                            l->head, back[k]);
            if (!has_edge(s, b, l->head))
                tc_dcfg_report(doc, &l->at, TC_RULE_DCFG_LOOP_BACK_EDGE,
                            "loop %" PRIu32 ": back-edge source %" PRIu32
                            " has no edge to the head",
                            l->head, back[k]);
        }
    }

    /* Parents: found through the loops sorted by head, then the children
     * of one parent checked together, so that the parent's nodes are
     * marked once however many children it has. */
    uint32_t n = r->nloops;
    if (!tc_dcfg_grow((void **)&s->keys.v, &s->keys.cap, 2 * (size_t)n, sizeof *s->keys.v)) {
        nomem(s, r);
        return;
    }
    uint64_t *heads = s->keys.v, *kids = s->keys.v + n;
    for (uint32_t li = 0; li < n; li++)
        heads[li] = (uint64_t)loops[li].head << 32 | li;
    qsort(heads, n, sizeof *heads, cmp_u64);
    uint32_t nk = 0;
    for (uint32_t li = 0; li < n; li++) {
        const tc_dcfg_loop *l = &loops[li];
        if (!l->has_parent)
            continue;
        uint32_t pl = loop_headed_by(heads, n, l->parent, li);
        if (pl == NONE)
            tc_dcfg_report(doc, &l->at, TC_RULE_DCFG_LOOP_PARENT,
                        "loop %" PRIu32 ": PARENT_LOOP_HEAD_NODE_ID %" PRIu32
                        " heads no other loop of routine %" PRIu32,
                        l->head, l->parent, r->entry);
        else
            kids[nk++] = (uint64_t)pl << 32 | li;
    }
    qsort(kids, nk, sizeof *kids, cmp_u64);
    for (uint32_t k = 0; k < nk; k++) {
        const tc_dcfg_loop *parent = &loops[kids[k] >> 32], *l = &loops[(uint32_t)kids[k]];
        if (!k || kids[k] >> 32 != kids[k - 1] >> 32) {
            s->stamp++;
            for (uint32_t i = 0; i < parent->nnodes; i++) {
                long b = block_of(s, p->ids.v[parent->nodes + i]);
                if (b >= 0)
                    s->mark[b] = s->stamp;
            }
        }
        const uint32_t *nodes = AT(p->ids, l->nodes);
        for (uint32_t i = 0; i < l->nnodes; i++) {
            long b = block_of(s, nodes[i]);
            if (b >= 0 && s->mark[b] != s->stamp) {
                tc_dcfg_report(doc, &l->at, TC_RULE_DCFG_LOOP_NESTING,
                            "loop %" PRIu32 ": node %" PRIu32
                            " is not a node of its parent loop %" PRIu32,
                            l->head, nodes[i], l->parent);
                break;
            }
        }
    }
}

/* Where a NODES row was read (the routine's row when unknown). */
static const tc_dcfg_loc *node_loc(const tc_dcfg_proc *p, const tc_dcfg_routine *r, uint32_t k)
{
    size_t i = (size_t)r->node_at + k;
    return i < p->locs.n ? &p->locs.v[i] : &r->at;
}

/* Reachability and immediate dominators of the routine's n nodes over
 * its intra-routine edges. */
static void check_graph(rstate *s, const tc_dcfg_routine *r, uint32_t n, long eb)
{
    tc_dcfg_doc *doc = s->doc;
    tc_dcfg_proc *p = s->p;
    const long *blk = s->blk.v;
    size_t m = 0;
    for (uint32_t v = 0; v < n; v++)
        m += s->out_off[blk[v] + 1] - s->out_off[blk[v]];
    uint32_t *off = malloc(((size_t)n + 1) * sizeof *off);
    uint32_t *succ = malloc((m + 1) * sizeof *succ);
    uint32_t *idom = malloc(((size_t)n + 1) * sizeof *idom);
    if (!off || !succ || !idom) {
        nomem(s, r);
        goto out;
    }
    size_t k = 0;
    for (uint32_t v = 0; v < n; v++) {
        off[v] = (uint32_t)k;
        for (uint32_t e = s->out_off[blk[v]]; e < s->out_off[blk[v] + 1]; e++) {
            uint32_t ei = s->out_edge[e];
            if (!s->intra[ei])
                continue;
            long t = block_of(s, p->edges.v[ei].target);
            if (t >= 0 && s->local[t] != NONE)
                succ[k++] = s->local[t];
        }
    }
    off[n] = (uint32_t)k;
    uint32_t root = s->local[eb];
    if (!tc_dcfg_dominators(n, off, succ, root, idom)) {
        nomem(s, r);
        goto out;
    }
    for (uint32_t v = 0; v < n; v++) {
        uint32_t id = p->blocks.v[blk[v]].id, stated = s->stated.v[v];
        const tc_dcfg_loc *at = node_loc(p, r, s->row.v[v]);
        if (idom[v] == TC_DCFG_DOM_NONE) {
            tc_dcfg_report(doc, at, TC_RULE_DCFG_ROUTINE_UNREACHABLE,
                        "routine %" PRIu32 ": node %" PRIu32
                        " cannot be reached from the entry through intra-routine edges",
                        r->entry, id);
            continue;
        }
        uint32_t want = p->blocks.v[blk[idom[v]]].id;
        if (stated == want)
            continue;
        if (v == root)
            tc_dcfg_report(doc, at, TC_RULE_DCFG_ROUTINE_ENTRY,
                        "routine %" PRIu32 ": the entry's IDOM_NODE_ID is %" PRIu32
                        ", not the entry itself",
                        r->entry, stated);
        else
            tc_dcfg_report(doc, at, TC_RULE_DCFG_ROUTINE_IDOM,
                        "routine %" PRIu32 ": node %" PRIu32 " has IDOM_NODE_ID %" PRIu32
                        " but its immediate dominator is %" PRIu32,
                        r->entry, id, stated, want);
    }
out:
    free(off);
    free(succ);
    free(idom);
}

static void check_routine(rstate *s, uint32_t ri)
{
    tc_dcfg_doc *doc = s->doc;
    tc_dcfg_proc *p = s->p;
    const tc_dcfg_routine *r = &p->routines.v[ri];
    const tc_dcfg_image *im = &p->images.v[r->image];
    const uint32_t *pairs = AT(p->ids, r->nodes);
    uint32_t n = 0;
    int overlap = 0;
    size_t need = (size_t)r->nnodes + 1;
    if (!tc_dcfg_grow((void **)&s->blk.v, &s->blk.cap, need, sizeof *s->blk.v) ||
        !tc_dcfg_grow((void **)&s->stated.v, &s->stated.cap, need, sizeof *s->stated.v) ||
        !tc_dcfg_grow((void **)&s->row.v, &s->row.cap, need, sizeof *s->row.v)) {
        nomem(s, r);
        return;
    }
    /* The routine's nodes, numbered in NODES order. */
    for (uint32_t k = 0; k < r->nnodes; k++) {
        uint32_t id = pairs[2 * k];
        const tc_dcfg_loc *at = node_loc(p, r, k);
        long b = block_of(s, id);
        if (b < 0) {
            tc_dcfg_report(doc, at, TC_RULE_DCFG_NODE_REF,
                        "routine %" PRIu32 ": NODES has %" PRIu32 ", not a basic block of "
                        "process %" PRIu64,
                        r->entry, id, p->pid);
            continue;
        }
        if (p->blocks.v[b].image != r->image)
            tc_dcfg_report(doc, at, TC_RULE_DCFG_ROUTINE_IMAGE,
                        "routine %" PRIu32 ": node %" PRIu32 " is a block of image %" PRIu32
                        ", not of image %" PRIu32,
                        r->entry, id, p->images.v[p->blocks.v[b].image].id, im->id);
        if (s->local[b] != NONE) {
            tc_dcfg_report(doc, at, TC_RULE_DCFG_ID_DUPLICATE,
                        "routine %" PRIu32 ": NODES lists %" PRIu32 " twice", r->entry, id);
            continue;
        }
        if (s->owner[b] && s->owner[b] != ri + 1) {
            tc_dcfg_report(doc, at, TC_RULE_DCFG_ROUTINE_OVERLAP,
                        "block %" PRIu32 " is in routine %" PRIu32 " and in routine %" PRIu32,
                        id, p->routines.v[s->owner[b] - 1].entry, r->entry);
            overlap = 1;
        } else {
            s->owner[b] = ri + 1;
        }
        s->local[b] = n;
        s->blk.v[n] = b;
        s->stated.v[n] = pairs[2 * k + 1];
        s->row.v[n] = k;
        n++;
    }
    long eb = block_of(s, r->entry);
    if (eb < 0)
        tc_dcfg_report(doc, &r->at, TC_RULE_DCFG_NODE_REF,
                    "ENTRY_NODE_ID %" PRIu32 " is not a basic block of process %" PRIu64,
                    r->entry, p->pid);
    else if (p->blocks.v[eb].image != r->image)
        tc_dcfg_report(doc, &r->at, TC_RULE_DCFG_ROUTINE_IMAGE,
                    "ENTRY_NODE_ID %" PRIu32 " is a block of image %" PRIu32
                    ", not of image %" PRIu32,
                    r->entry, p->images.v[p->blocks.v[eb].image].id, im->id);
    if (eb >= 0 && s->local[eb] == NONE && r->has_nodes)
        tc_dcfg_report(doc, &r->at, TC_RULE_DCFG_ROUTINE_ENTRY,
                    "ENTRY_NODE_ID %" PRIu32 " is not among the routine's NODES", r->entry);
    for (uint32_t k = 0; k < r->nexits; k++) {
        uint32_t id = p->ids.v[r->exits + k];
        long b = block_of(s, id);
        if (b < 0 || s->local[b] == NONE)
            tc_dcfg_report(doc, &r->at, TC_RULE_DCFG_ROUTINE_EXIT,
                        "routine %" PRIu32 ": exit node %" PRIu32 " is not among its NODES",
                        r->entry, id);
    }
    /* A routine that shares blocks with an earlier one is not walked: its
     * overlap is the finding, and walking shared blocks again would make
     * the work grow with (routines x shared edges) on a hostile input. */
    if (eb >= 0 && s->local[eb] != NONE && !overlap)
        check_graph(s, r, n, eb);
    check_loops(s, r);
    for (uint32_t v = 0; v < n; v++)
        s->local[s->blk.v[v]] = NONE;
}

void tc_dcfg_check_routines(tc_dcfg_doc *doc, tc_dcfg_proc *p)
{
    size_t nb = p->blocks.n, ne = p->edges.n;
    int any = 0;
    for (size_t i = 0; i < p->images.n; i++)
        any |= p->images.v[i].has_routines;
    if (!any && !p->routines.n)
        return;
    rstate s;
    memset(&s, 0, sizeof s);
    s.doc = doc;
    s.p = p;
    s.owner = calloc(nb + 1, sizeof *s.owner);
    s.local = malloc((nb + 1) * sizeof *s.local);
    s.mark = calloc(nb + 1, sizeof *s.mark);
    s.out_off = calloc(nb + 2, sizeof *s.out_off);
    s.out_edge = malloc((ne + 1) * sizeof *s.out_edge);
    int *intra = malloc((ne + 1) * sizeof *intra);
    uint64_t *by_target = malloc((ne + 1) * sizeof *by_target);
    if (!s.owner || !s.local || !s.mark || !s.out_off || !s.out_edge || !intra || !by_target) {
        tc_diag_fail(doc->d, "out of memory checking the routines of process %" PRIu64, p->pid);
        goto out;
    }
    s.intra = intra;
    for (size_t i = 0; i < nb; i++)
        s.local[i] = NONE;
    /* Edges by source block (a counting sort), then each block's by target
     * id; which of them a routine's traversal follows. */
    for (size_t i = 0; i < ne; i++) {
        long t = tc_dcfg_find_named(doc->edge_types.v, doc->edge_types.n, p->edges.v[i].type);
        int kind = t >= 0 ? doc->edge_types.v[t].kind : TC_DCFG_ET_OTHER;
        intra[i] = kind == TC_DCFG_ET_OTHER;
        long b = tc_dcfg_find_block(p, p->edges.v[i].source);
        if (b >= 0)
            s.out_off[b + 2]++;
    }
    for (size_t i = 0; i < nb; i++)
        s.out_off[i + 2] += s.out_off[i + 1];
    for (size_t i = 0; i < ne; i++) {
        long b = tc_dcfg_find_block(p, p->edges.v[i].source);
        if (b >= 0)
            by_target[s.out_off[b + 1]++] = (uint64_t)p->edges.v[i].target << 32 | i;
    }
    for (size_t i = 0; i < nb; i++) {
        uint32_t lo = s.out_off[i], hi = s.out_off[i + 1];
        if (hi - lo > 1)
            qsort(by_target + lo, hi - lo, sizeof *by_target, cmp_u64);
        for (uint32_t e = lo; e < hi; e++)
            s.out_edge[e] = (uint32_t)by_target[e];
    }
    for (uint32_t ri = 0; ri < p->routines.n; ri++)
        if (!p->images.v[p->routines.v[ri].image].bad)
            check_routine(&s, ri);
    for (size_t i = 0; i < nb; i++) {
        const tc_dcfg_block *b = &p->blocks.v[i];
        const tc_dcfg_image *im = &p->images.v[b->image];
        if (im->has_routines && !im->bad && !s.owner[i])
            tc_dcfg_report(doc, &b->at, TC_RULE_DCFG_ROUTINE_COVER,
                        "block %" PRIu32 " of image %" PRIu32 " is in none of its routines",
                        b->id, im->id);
    }
out:
    free(s.owner);
    free(s.local);
    free(s.mark);
    free(s.out_off);
    free(s.out_edge);
    free(intra);
    free(by_target);
    free(s.blk.v);
    free(s.stated.v);
    free(s.row.v);
    free(s.keys.v);
}
