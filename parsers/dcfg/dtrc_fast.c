/* Character-at-a-time decoding tables: see dtrc_fast.h. */
#include <stdlib.h>
#include <string.h>

#include "dtrc_fast.h"

void tc_dtrc_fast_init(tc_dtrc_fast *f) { memset(f, 0, sizeof *f); }

void tc_dtrc_fast_free(tc_dtrc_fast *f)
{
    size_t mn = f->max_nodes, mb = f->max_blocks;
    free(f->nodes);
    free(f->root);
    free(f->tr);
    memset(f, 0, sizeof *f);
    f->max_nodes = mn;
    f->max_blocks = mb;
}

static uint32_t new_node(tc_dtrc_fast *f, uint32_t entry, uint32_t bits, uint8_t depth)
{
    if (f->nnodes >= (f->max_nodes ? f->max_nodes : TC_DTRC_FAST_MAX_NODES))
        return TC_DTRC_FAST_NONE;
    if (f->nnodes == f->capnodes) {
        size_t n = f->capnodes ? 2 * f->capnodes : 256;
        void *q = realloc(f->nodes, n * sizeof *f->nodes);
        if (!q)
            return TC_DTRC_FAST_NONE;
        f->nodes = q;
        f->capnodes = n;
    }
    f->nodes[f->nnodes] = (tc_dtrc_fast_node){{0, 0}, entry, bits, 0, depth};
    return (uint32_t)f->nnodes++;
}

void tc_dtrc_fast_build(tc_dtrc_fast *f, const tc_dtrc_table *t)
{
    f->t = t;
    f->ok = 0;
    f->nnodes = 0;
    f->nblocks = 0;
    if (t->nrows >= TC_DTRC_FAST_LEAF)
        return; /* code indexes must fit beside the leaf flag */
    free(f->root);
    f->root = malloc((t->nentries ? t->nentries : 1) * sizeof *f->root);
    if (!f->root)
        return;
    for (size_t k = 0; k < t->nentries; k++) {
        const tc_dtrc_entry *e = &t->entries[k];
        f->root[k] = TC_DTRC_FAST_NONE;
        if (e->maxlen == 0)
            continue;
        uint32_t root = new_node(f, (uint32_t)k, 0, 0);
        if (root == TC_DTRC_FAST_NONE)
            return;
        f->root[k] = root;
        for (uint32_t i = 0; i < e->ncodes; i++) {
            uint32_t ci = e->first + i;
            const tc_dtrc_code *c = &t->codes[ci];
            uint32_t n = root;
            for (unsigned b = 0; b < c->len; b++) {
                unsigned bit = (c->pad >> (31 - b)) & 1;
                uint32_t ch = f->nodes[n].child[bit];
                if (b + 1 == c->len) {
                    if (ch)
                        return; /* not prefix-free: cannot be after the table's checks */
                    f->nodes[n].child[bit] = TC_DTRC_FAST_LEAF | ci;
                } else if (ch & TC_DTRC_FAST_LEAF) {
                    return;
                } else if (ch) {
                    n = ch - 1;
                } else {
                    uint32_t m = new_node(f, (uint32_t)k, (f->nodes[n].bits << 1) | bit,
                                          (uint8_t)(b + 1));
                    if (m == TC_DTRC_FAST_NONE)
                        return;
                    f->nodes[n].child[bit] = m + 1;
                    n = m;
                }
            }
        }
    }
    f->ok = 1;
}

uint32_t tc_dtrc_fast_walk(const tc_dtrc_fast *f, uint32_t e, uint64_t acc, unsigned nacc)
{
    uint32_t n = f->root[e];
    if (n == TC_DTRC_FAST_NONE)
        return n;
    for (unsigned i = nacc; i > 0; i--) {
        uint32_t ch = f->nodes[n].child[(acc >> (i - 1)) & 1];
        if (!ch || (ch & TC_DTRC_FAST_LEAF))
            return TC_DTRC_FAST_NONE;
        n = ch - 1;
    }
    return n;
}

/* One transition: the 6 bits of ch from node n. */
static tc_dtrc_fast_tr transition(const tc_dtrc_fast *f, uint32_t n, unsigned ch,
                                  tc_dtrc_fast_weight weight, void *user)
{
    tc_dtrc_fast_tr r = {0, 0, TC_DTRC_FAST_NONE, 0, 0};
    const tc_dtrc_table *t = f->t;
    for (int b = 5; b >= 0; b--) {
        uint32_t c = f->nodes[n].child[(ch >> b) & 1];
        if (!c)
            return r; /* no code: the slow path reports */
        if (!(c & TC_DTRC_FAST_LEAF)) {
            n = c - 1;
            continue;
        }
        const tc_dtrc_code *code = &t->codes[c & ~TC_DTRC_FAST_LEAF];
        uint32_t from = t->entries[f->nodes[n].entry].edge;
        /* The code, then the empty codes it leads onto, if any (a few at
         * most; a longer chain or a cycle of them is the slow path's). */
        for (unsigned hop = 0;; hop++) {
            uint64_t w;
            if (hop > TC_DTRC_FAST_MAX_EMPTY || !code->to || !weight(user, from, code, &w) ||
                code->nnext > UINT64_MAX - r.edges || w > UINT64_MAX - r.weight)
                return r;
            r.edges += code->nnext;
            r.weight += w;
            r.codes++;
            const tc_dtrc_entry *to = &t->entries[code->to - 1];
            n = f->root[code->to - 1];
            if (n != TC_DTRC_FAST_NONE)
                break;
            if (to->maxlen != 0 || to->ncodes != 1)
                return r; /* not an empty code after all: cannot happen */
            from = to->edge;
            code = &t->codes[to->first];
        }
    }
    r.node = n;
    return r;
}

const tc_dtrc_fast_tr *tc_dtrc_fast_make(tc_dtrc_fast *f, uint32_t n, unsigned ch,
                                         tc_dtrc_fast_weight weight, void *user)
{
    if (f->nblocks >= (f->max_blocks ? f->max_blocks : TC_DTRC_FAST_MAX_BLOCKS))
        return NULL;
    if (f->nblocks == f->capblocks) {
        size_t m = f->capblocks ? 2 * f->capblocks : 16;
        void *q = realloc(f->tr, m * 64 * sizeof *f->tr);
        if (!q)
            return NULL;
        f->tr = q;
        f->capblocks = m;
    }
    tc_dtrc_fast_tr *blk = &f->tr[f->nblocks * 64];
    for (unsigned v = 0; v < 64; v++)
        blk[v] = transition(f, n, v, weight, user);
    f->nodes[n].block = (uint32_t)++f->nblocks;
    return &blk[ch];
}
