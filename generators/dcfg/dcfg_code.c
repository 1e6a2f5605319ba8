#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg_code.h"
#include "../common/xalloc.h"

/* How many edges can follow edge e: the ways out of its target. */
static uint32_t followers(const dg_proc *p, uint32_t e)
{
    const dg_edge *ed = &p->edges[e];
    if (ed->bypass || ed->dst >= p->nblocks)
        return 0;
    /* An edge into or out of a routine no thread enters is never current. */
    if (p->reached && (!p->reached[p->blocks[ed->dst].routine] ||
                       (ed->src < p->nblocks && !p->reached[p->blocks[ed->src].routine])))
        return 0;
    return p->blocks[ed->dst].nout;
}

void dg_codes_init(dg_codes *c, const dg_proc *p, uint32_t max_chain)
{
    memset(c, 0, sizeof *c);
    c->max_chain = max_chain ? max_chain : 1;
    c->pair_base = tc_gen_xmalloc((size_t)p->nedges * sizeof *c->pair_base);
    uint32_t n = 0;
    for (uint32_t e = 0; e < p->nedges; e++) {
        uint32_t f = followers(p, e);
        c->pair_base[e] = f ? n : DG_NONE;
        n += f;
    }
    c->npairs = n;
    c->freq = calloc(n ? n : 1, sizeof *c->freq);
    c->rows = calloc(n ? n : 1, sizeof *c->rows);
    if (!c->freq || !c->rows) {
        fputs("tracecheck: out of memory\n", stderr);
        abort();
    }
}

/* Huffman code lengths of n weights (n >= 2), by repeatedly merging the
 * two lightest trees; each symbol's length is the depth of its leaf. */
static void huffman_lengths(const uint64_t *w, uint32_t n, uint8_t *len)
{
    uint64_t *tw = tc_gen_xmalloc(2 * (size_t)n * sizeof *tw);
    uint32_t *parent = tc_gen_xmalloc(2 * (size_t)n * sizeof *parent);
    uint8_t *alive = tc_gen_xmalloc(2 * (size_t)n);
    for (uint32_t i = 0; i < n; i++) {
        tw[i] = w[i];
        alive[i] = 1;
    }
    uint32_t m = n;
    for (uint32_t step = 0; step + 1 < n; step++) {
        uint32_t a = DG_NONE, b = DG_NONE;
        for (uint32_t i = 0; i < m; i++) {
            if (!alive[i])
                continue;
            if (a == DG_NONE || tw[i] < tw[a]) {
                b = a;
                a = i;
            } else if (b == DG_NONE || tw[i] < tw[b]) {
                b = i;
            }
        }
        tw[m] = tw[a] + tw[b];
        alive[m] = 1;
        alive[a] = alive[b] = 0;
        parent[a] = parent[b] = m;
        m++;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t d = 0;
        for (uint32_t k = i; k != m - 1; k = parent[k])
            d++;
        len[i] = (uint8_t)(d > 255 ? 255 : d);
    }
    free(tw);
    free(parent);
    free(alive);
}

/* Canonical codes for the followers of one edge: shorter codes first, and
 * within a length in follower order. Lengths are kept to 32 bits by
 * flattening the weights until they fit. */
static void assign_codes(dg_row *rows, const uint64_t *freq, uint32_t n)
{
    if (n == 1) {
        rows[0].code = 0;
        rows[0].len = 0;
        return;
    }
    uint64_t *w = tc_gen_xmalloc((size_t)n * sizeof *w);
    uint8_t *len = tc_gen_xmalloc(n);
    for (uint32_t i = 0; i < n; i++)
        w[i] = freq[i] + 1;
    for (;;) {
        huffman_lengths(w, n, len);
        uint8_t max = 0;
        for (uint32_t i = 0; i < n; i++)
            max = len[i] > max ? len[i] : max;
        if (max <= 32)
            break;
        for (uint32_t i = 0; i < n; i++)
            w[i] = w[i] / 2 + 1;
    }
    uint64_t code = 0;
    uint8_t cur = 0;
    int first = 1;
    for (uint8_t l = 1; l <= 32; l++)
        for (uint32_t i = 0; i < n; i++) {
            if (len[i] != l)
                continue;
            if (!first)
                code = (code + 1) << (l - cur);
            else
                code <<= l;
            first = 0;
            cur = l;
            rows[i].code = (uint32_t)code;
            rows[i].len = l;
        }
    free(w);
    free(len);
}

void dg_codes_build(dg_codes *c, const dg_proc *p)
{
    free(c->row_edges);
    uint32_t cap = c->npairs * (c->max_chain < 4 ? c->max_chain : 4) + 16, n = 0;
    c->row_edges = tc_gen_xmalloc((size_t)cap * sizeof *c->row_edges);
    for (uint32_t e = 0; e < p->nedges; e++) {
        uint32_t base = c->pair_base[e];
        if (base == DG_NONE)
            continue;
        const dg_block *k = &p->blocks[p->edges[e].dst];
        assign_codes(&c->rows[base], &c->freq[base], k->nout);
        for (uint32_t i = 0; i < k->nout; i++) {
            dg_row *row = &c->rows[base + i];
            row->at = n;
            row->n = 0;
            row->instrs = 0;
            uint32_t s = p->outs[k->out + i];
            for (;;) {
                if (n == cap) {
                    cap *= 2;
                    uint32_t *q = realloc(c->row_edges, (size_t)cap * sizeof *q);
                    if (!q) {
                        fputs("tracecheck: out of memory\n", stderr);
                        abort();
                    }
                    c->row_edges = q;
                }
                c->row_edges[n++] = s;
                row->n++;
                row->instrs += dg_instrs(p, p->edges[s].src);
                uint32_t d = p->edges[s].dst;
                if (row->n >= c->max_chain || d >= p->nblocks || p->blocks[d].nout != 1)
                    break;
                s = p->outs[p->blocks[d].out];
            }
        }
    }
    c->nrow_edges = n;
}

void dg_codes_free(dg_codes *c)
{
    free(c->pair_base);
    free(c->freq);
    free(c->rows);
    free(c->row_edges);
    memset(c, 0, sizeof *c);
}
