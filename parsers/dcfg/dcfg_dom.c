/* Lengauer-Tarjan dominators (see dcfg_dom.h); arrays indexed by DFS number. */
#include <stdlib.h>

#include "dcfg_dom.h"

#define NONE TC_DCFG_DOM_NONE

typedef struct lt {
    uint32_t *semi, *label, *ancestor, *parent, *vertex, *dfn, *stack, *idom;
} lt;

/* eval() of the paper, its compress() done with an explicit stack. */
static uint32_t eval(lt *s, uint32_t v)
{
    if (s->ancestor[v] == NONE)
        return v;
    uint32_t top = 0, x = v;
    while (s->ancestor[s->ancestor[x]] != NONE) {
        s->stack[top++] = x;
        x = s->ancestor[x];
    }
    while (top) {
        x = s->stack[--top];
        uint32_t a = s->ancestor[x];
        if (s->semi[s->label[a]] < s->semi[s->label[x]])
            s->label[x] = s->label[a];
        s->ancestor[x] = s->ancestor[a];
    }
    return s->label[v];
}

int tc_dcfg_dominators(uint32_t n, const uint32_t *off, const uint32_t *succ, uint32_t root,
                    uint32_t *idom)
{
    for (uint32_t v = 0; v < n; v++)
        idom[v] = NONE;
    if (root >= n)
        return 1;
    size_t m = off[n];
    uint32_t *mem = malloc(((size_t)n * 10 + m + 1) * sizeof *mem);
    if (!mem)
        return 0;
    lt s;
    s.semi = mem;
    s.label = s.semi + n;
    s.ancestor = s.label + n;
    s.parent = s.ancestor + n;
    s.vertex = s.parent + n;
    s.dfn = s.vertex + n;
    s.stack = s.dfn + n;
    s.idom = s.stack + n;
    uint32_t *poff = s.idom + n;  /* n + 1: predecessor offsets (by node) */
    uint32_t *edge_at = poff + n + 1; /* DFS: next successor to try, by node (n - 1 used) */
    uint32_t *pred = poff + 2 * n; /* m */
    (void)edge_at;
    uint32_t *next = malloc(((size_t)n + 1) * sizeof *next);
    uint32_t *bucket = malloc(((size_t)n + 1) * sizeof *bucket);
    if (!next || !bucket) {
        free(mem);
        free(next);
        free(bucket);
        return 0;
    }
    for (uint32_t v = 0; v < n; v++)
        s.dfn[v] = NONE;

    /* Depth-first numbering; next[] holds each node's next successor index. */
    uint32_t count = 0, sp = 0;
    s.dfn[root] = count;
    s.vertex[count] = root;
    s.parent[count] = NONE;
    count++;
    s.stack[sp++] = root;
    next[root] = off[root];
    while (sp) {
        uint32_t v = s.stack[sp - 1];
        if (next[v] == off[v + 1]) {
            sp--;
            continue;
        }
        uint32_t w = succ[next[v]++];
        if (w < n && s.dfn[w] == NONE) {
            s.dfn[w] = count;
            s.vertex[count] = w;
            s.parent[count] = s.dfn[v];
            count++;
            next[w] = off[w];
            s.stack[sp++] = w;
        }
    }
    /* Predecessors in DFS numbers, reachable ones only. */
    for (uint32_t i = 0; i <= count; i++)
        poff[i] = 0;
    for (uint32_t v = 0; v < n; v++)
        if (s.dfn[v] != NONE)
            for (uint32_t e = off[v]; e < off[v + 1]; e++)
                if (succ[e] < n && s.dfn[succ[e]] != NONE)
                    poff[s.dfn[succ[e]] + 1]++;
    for (uint32_t i = 0; i < count; i++)
        poff[i + 1] += poff[i];
    for (uint32_t i = 0; i < count; i++)
        next[i] = poff[i];
    for (uint32_t v = 0; v < n; v++)
        if (s.dfn[v] != NONE)
            for (uint32_t e = off[v]; e < off[v + 1]; e++)
                if (succ[e] < n && s.dfn[succ[e]] != NONE)
                    pred[next[s.dfn[succ[e]]]++] = s.dfn[v];

    for (uint32_t i = 0; i < count; i++) {
        s.semi[i] = i;
        s.label[i] = i;
        s.ancestor[i] = NONE;
        s.idom[i] = NONE;
        bucket[i] = NONE;
    }
    /* next[] is now the bucket chain. */
    for (uint32_t w = count - 1; w > 0; w--) {
        for (uint32_t e = poff[w]; e < poff[w + 1]; e++) {
            uint32_t u = eval(&s, pred[e]);
            if (s.semi[u] < s.semi[w])
                s.semi[w] = s.semi[u];
        }
        next[w] = bucket[s.semi[w]];
        bucket[s.semi[w]] = w;
        uint32_t p = s.parent[w];
        s.ancestor[w] = p;
        for (uint32_t v = bucket[p]; v != NONE; v = next[v]) {
            uint32_t u = eval(&s, v);
            s.idom[v] = s.semi[u] < s.semi[v] ? u : p;
        }
        bucket[p] = NONE;
    }
    for (uint32_t w = 1; w < count; w++)
        if (s.idom[w] != s.semi[w])
            s.idom[w] = s.idom[s.idom[w]];
    s.idom[0] = 0;
    for (uint32_t i = 0; i < count; i++)
        idom[s.vertex[i]] = s.vertex[s.idom[i]];
    free(mem);
    free(next);
    free(bucket);
    return 1;
}
