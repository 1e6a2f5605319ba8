/* Immediate dominators the obvious way: see dcfg_dominators_oracle.h. */
#include <string.h>

#include "dcfg_dominators_oracle.h"

#define WORDS (DOM_MAX_NODES / 64)

typedef struct set {
    uint64_t w[WORDS];
} set;

static int has(const set *s, uint32_t v) { return s->w[v / 64] >> (v % 64) & 1; }
static void add(set *s, uint32_t v) { s->w[v / 64] |= (uint64_t)1 << (v % 64); }

static int count(const set *s)
{
    int c = 0;
    for (int i = 0; i < WORDS; i++)
        c += __builtin_popcountll(s->w[i]);
    return c;
}

void dom_naive(uint32_t n, const uint32_t *off, const uint32_t *succ, uint32_t root,
               uint32_t *idom)
{
    static set dom[DOM_MAX_NODES];
    static set reach;
    static uint32_t stack[DOM_MAX_NODES];
    for (uint32_t v = 0; v < n; v++)
        idom[v] = UINT32_MAX;
    if (root >= n)
        return;
    /* What root reaches. */
    memset(&reach, 0, sizeof reach);
    uint32_t sp = 0;
    add(&reach, root);
    stack[sp++] = root;
    while (sp) {
        uint32_t v = stack[--sp];
        for (uint32_t e = off[v]; e < off[v + 1]; e++)
            if (succ[e] < n && !has(&reach, succ[e])) {
                add(&reach, succ[e]);
                stack[sp++] = succ[e];
            }
    }
    /* The fixed point, from "every node" down. */
    for (uint32_t v = 0; v < n; v++) {
        memset(&dom[v], 0, sizeof dom[v]);
        if (v == root)
            add(&dom[v], v);
        else
            for (uint32_t u = 0; u < n; u++)
                add(&dom[v], u);
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t v = 0; v < n; v++) {
            if (v == root || !has(&reach, v))
                continue;
            set x;
            for (int i = 0; i < WORDS; i++)
                x.w[i] = ~(uint64_t)0;
            for (uint32_t u = 0; u < n; u++) /* v's reachable predecessors */
                if (has(&reach, u))
                    for (uint32_t e = off[u]; e < off[u + 1]; e++)
                        if (succ[e] == v)
                            for (int i = 0; i < WORDS; i++)
                                x.w[i] &= dom[u].w[i];
            add(&x, v);
            if (memcmp(&x, &dom[v], sizeof x) != 0) {
                dom[v] = x;
                changed = 1;
            }
        }
    }
    /* The immediate dominator: the strict dominator with the most
     * dominators of its own (they form a chain). */
    for (uint32_t v = 0; v < n; v++) {
        if (!has(&reach, v))
            continue;
        if (v == root) {
            idom[v] = root;
            continue;
        }
        int best = -1;
        for (uint32_t d = 0; d < n; d++)
            if (d != v && has(&dom[v], d) && count(&dom[d]) > best) {
                best = count(&dom[d]);
                idom[v] = d;
            }
    }
}
