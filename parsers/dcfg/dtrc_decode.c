/* The chunk decoder: see dtrc_decode.h for the approach. */
#include <string.h>

#include "dtrc_decode.h"
#include "dtrc_simd.h"

typedef struct snap {
    uint32_t edge;
    unsigned nacc;
    uint64_t acc;
    uint64_t edges;
    tc_dtrc_bits pulled, weight;
} snap;

typedef struct frame {
    const tc_dtrc_prog *p;
    uint32_t i, begin, end;
    uint64_t left; /* iterations not finished, the current one included */
    int repeat;
    /* Brent's cycle detection over the states at iteration starts. */
    int cp_valid;
    uint64_t power, lam;
    snap cp;
} frame;

typedef struct dec {
    const tc_dtrc_decode_in *in;
    const tc_dtrc_rows *rp; /* NULL: weights per edge */
    tc_dtrc_fast *fast;     /* NULL: code at a time */
    const tc_dtrc_kernels *k; /* of the level in force */
    frame st[TC_DTRC_MAX_NEST + 2];
    unsigned sp;
    const uint8_t *run;
    size_t runlen;
    uint64_t acc; /* the low nacc bits are pulled and not consumed yet */
    unsigned nacc;
    tc_dtrc_bits pulled, weight;
    uint32_t edge;
    uint64_t edges, need, work, budget, skipped;
    uint64_t walked; /* edges handed on to the weights, skipped ones not */
    uint64_t skip_after; /* with no_skip: skipping allowed after this many edges (0: never) */
    int over; /* the budget ran out */
} dec;

static snap take(const dec *d)
{
    return (snap){d->edge, d->nacc, d->acc, d->edges, d->pulled, d->weight};
}

/* Whether periods may be added arithmetically at this point. */
static int may_skip(const dec *d)
{
    return !d->in->no_skip || (d->skip_after && d->edges >= d->skip_after);
}

/* At the start of an iteration of repeat frame f. */
static void iteration_start(dec *d, frame *f)
{
    if (!may_skip(d))
        return;
    snap cur = take(d);
    if (!f->cp_valid) {
        f->cp = cur;
        f->cp_valid = 1;
        f->power = 1;
        f->lam = 0;
        return;
    }
    f->lam++;
    if (cur.edge == f->cp.edge && cur.nacc == f->cp.nacc && cur.acc == f->cp.acc) {
        /* Every f->lam iterations bring the decoder back to this state, so
         * they repeat exactly: add whole periods while more than one edge is
         * still needed after them (the last edge may fall mid-period). A
         * period that emits no edge consumes no bit (each match emits one),
         * so its body is empty and was never entered. */
        uint64_t de = cur.edges - f->cp.edges;
        uint64_t k = f->left / f->lam;
        if (de > 0) {
            uint64_t kmax = (d->need - d->edges - 1) / de;
            if (k > kmax)
                k = kmax;
            if (k > 0) {
                f->left -= k * f->lam;
                d->edges += k * de;
                d->skipped += k * de;
                d->pulled = tc_dtrc_bits_add(d->pulled,
                                             tc_dtrc_bits_mul(k, cur.pulled - f->cp.pulled));
                d->weight = tc_dtrc_bits_add(d->weight,
                                             tc_dtrc_bits_mul(k, cur.weight - f->cp.weight));
            }
        }
        f->cp = take(d);
        f->lam = 0;
        f->power = 1;
        return;
    }
    if (f->lam == f->power) {
        f->cp = cur;
        f->power *= 2;
        f->lam = 0;
    }
}

/* Moves to the next non-empty run of characters. Returns 0 at the end of
 * the sequence or when the budget ran out. */
static int advance(dec *d)
{
    for (;;) {
        if (d->sp == 0)
            return 0;
        if (++d->work > d->budget) {
            d->over = 1;
            return 0;
        }
        frame *f = &d->st[d->sp - 1];
        if (f->i < f->end) {
            uint32_t idx = f->i;
            const tc_dtrc_op *op = &f->p->ops[idx];
            if (op->kind == TC_DTRC_OP_CHARS) {
                f->i++;
                if (op->n) {
                    d->run = f->p->vals + op->a;
                    d->runlen = op->n;
                    return 1;
                }
            } else if (op->kind == TC_DTRC_OP_REPEAT) {
                f->i += 1 + op->n;
                /* Nothing to pull from an empty body, however many times. */
                if (op->count == 0 || op->bits == 0)
                    continue;
                frame *g = &d->st[d->sp++];
                *g = (frame){f->p, idx + 1, idx + 1, idx + 1 + op->n, op->count, 1, 0, 0, 0, {0}};
                iteration_start(d, g);
                if (g->left == 0)
                    d->sp--;
            } else {
                f->i++;
                const tc_dtrc_prog *q = &d->in->dict->progs[op->a];
                if (q->bits == 0)
                    continue;
                d->st[d->sp++] = (frame){q, 0, 0, (uint32_t)q->nops, 1, 0, 0, 0, 0, {0}};
            }
        } else if (f->repeat && --f->left > 0) {
            f->i = f->begin;
            iteration_start(d, f);
            if (f->left == 0)
                d->sp--;
        } else {
            d->sp--;
        }
    }
}

/* Pulls characters until want bits wait (or the sequence ends). */
static void refill(dec *d, unsigned want)
{
    while (d->nacc < want) {
        if (d->runlen == 0 && !advance(d))
            return;
        d->acc = (d->acc << 6) | *d->run++;
        d->runlen--;
        d->nacc += 6;
        d->pulled += 6;
    }
}

static int emit(dec *d, const tc_dtrc_code *c)
{
    const tc_dtrc_decode_in *in = d->in;
    const uint32_t *ids = in->table->ids + c->next;
    if (d->rp && d->rp->rows) {
        tc_dtrc_rowinfo *x = &d->rp->rows[c - in->table->codes];
        if (x->state == TC_DTRC_ROW_UNKNOWN)
            d->rp->row_check(in->user, d->edge, c, x);
        if (x->state == TC_DTRC_ROW_FINE && c->nnext <= d->need - d->edges) {
            d->edges += c->nnext;
            d->walked += c->nnext;
            if (c->nnext)
                d->edge = ids[c->nnext - 1];
            d->weight = tc_dtrc_bits_add(d->weight, x->weight);
            return 1;
        }
        for (uint32_t k = 0; k < c->nnext; k++) {
            if (d->edges == d->need)
                return 1;
            uint32_t prev = d->edge;
            d->edges++;
            d->edge = ids[k];
            d->weight = tc_dtrc_bits_add(d->weight,
                                         d->rp->edge_at(in->user, prev, ids[k], d->walked++));
        }
        return 1;
    }
    for (uint32_t k = 0; k < c->nnext; k++) {
        if (d->edges == d->need)
            return 1;
        d->edges++;
        d->edge = ids[k];
        if (d->in->on_edge)
            d->weight = tc_dtrc_bits_add(d->weight, d->in->on_edge(d->in->user, ids[k]));
    }
    return 1;
}

/* A code's weight for the character tables: its row's, once checked. */
static int fast_weight(void *user, uint32_t current, const tc_dtrc_code *c, uint64_t *w)
{
    dec *d = user;
    *w = 0;
    if (!d->rp->rows)
        return 1;
    tc_dtrc_rowinfo *x = &d->rp->rows[c - d->in->table->codes];
    if (x->state == TC_DTRC_ROW_UNKNOWN)
        d->rp->row_check(d->in->user, current, c, x);
    *w = x->weight;
    return x->state == TC_DTRC_ROW_FINE;
}

static uint64_t tc_min64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* Decodes whole characters from entry e's state while each one's codes
 * are known to be fine and leave more than one edge to decode, so that
 * the code-at-a-time path does the last edges, errors and empty codes
 * exactly as before. The state (current edge, unconsumed bits) is kept
 * up to date for the periods' cycle detection. Returns the entry reached,
 * or NULL when the budget ran out. */
static const tc_dtrc_entry *fast_run(dec *d, const tc_dtrc_entry *e)
{
    tc_dtrc_fast *f = d->fast;
    const tc_dtrc_table *t = d->in->table;
    uint32_t n = tc_dtrc_fast_walk(f, (uint32_t)(e - t->entries), d->acc, d->nacc);
    if (n == TC_DTRC_FAST_NONE)
        return e;
    for (;;) {
        if (d->runlen == 0 && !advance(d))
            return d->over ? NULL : e;
        /* The hot loop works on locals only and writes the decoder's state
         * back once per run: advance() (the periods' cycle detection) and
         * the code-at-a-time path are the only readers of that state. The
         * sums stay below what they are checked against (left, wleft). */
        const uint8_t *p = d->run, *end = p + d->runlen;
        uint64_t left = d->need - d->edges, wleft = d->budget - d->work;
        uint64_t edges = 0, codes = 0;
        tc_dtrc_bits wsum = 0;
        int stop = 0;
        /* The state is node n and its transitions' block blk (0: not made). */
        uint32_t blk = f->nodes[n].block;
        while (p < end) {
            const tc_dtrc_fast_tr *tr;
            if (blk)
                tr = &f->tr[(size_t)(blk - 1) * 64 + *p];
            else if ((tr = tc_dtrc_fast_make(f, n, *p, fast_weight, d)) != NULL)
                blk = f->nodes[n].block;
            else {
                stop = 1;
                break;
            }
            if (tr->node == TC_DTRC_FAST_NONE || tr->edges >= left - edges ||
                tr->codes > wleft - codes) {
                stop = 1;
                break;
            }
            if (tr->node == n && tr->codes && p + 1 < end && p[1] == *p) {
                /* The character leads back to this node: a run of it
                 * repeats the step exactly (a loop's code over and over),
                 * as many times as the run is long and the counts allow. */
                uint64_t steps = 1 + d->k->same(p + 1, (size_t)(end - p - 1), *p);
                uint64_t most = (wleft - codes) / tr->codes;
                if (tr->edges)
                    most = tc_min64(most, (left - edges - 1) / tr->edges);
                steps = tc_min64(steps, most);
                edges += steps * tr->edges;
                codes += steps * tr->codes;
                wsum += (tc_dtrc_bits)steps * tr->weight;
                p += steps;
                continue;
            }
            edges += tr->edges;
            codes += tr->codes;
            wsum += tr->weight;
            n = tr->node;
            uint32_t nb = tr->next_block;
            if (!nb) {
                nb = f->nodes[n].block;
                /* Not made yet: the next character makes it, after which
                 * it is remembered there. */
                if (nb)
                    f->tr[(size_t)(blk - 1) * 64 + *p].next_block = nb;
            }
            blk = nb;
            p++;
        }
        size_t used = (size_t)(p - d->run);
        if (used) {
            d->run = p;
            d->runlen -= used;
            d->pulled += (tc_dtrc_bits)used * 6;
            d->edges += edges;
            d->walked += edges;
            d->work += codes;
            d->weight = tc_dtrc_bits_add(d->weight, wsum);
            const tc_dtrc_fast_node *nd = &f->nodes[n];
            d->nacc = nd->depth;
            d->acc = nd->bits;
            e = &t->entries[nd->entry];
            d->edge = e->edge;
        }
        if (stop)
            return e;
    }
}

static uint32_t window(const dec *d)
{
    return d->nacc >= 32 ? (uint32_t)(d->acc >> (d->nacc - 32))
                         : (uint32_t)(d->acc << (32 - d->nacc));
}

static int finish(dec *d, tc_dtrc_decode_out *out, int code)
{
    out->code = code;
    out->edges = d->edges;
    out->edge = d->edge;
    out->consumed = d->pulled - d->nacc;
    out->weight = d->weight;
    out->skipped = d->skipped;
    if (code == TC_DTRC_OK && out->total - out->consumed >= 6) {
        out->code = TC_DTRC_E_LEFTOVER;
        out->leftover = out->total - out->consumed;
    }
    return out->code;
}

/* The budget ran out: decide from counts what can be decided. */
static int over_budget(dec *d, tc_dtrc_decode_out *out)
{
    const tc_dtrc_table *t = d->in->table;
    tc_dtrc_bits consumed = d->pulled - d->nacc, rest = out->total - consumed;
    uint64_t edges_left = d->need - d->edges;
    out->code = TC_DTRC_E_BUDGET;
    out->edges = d->edges;
    out->edge = d->edge;
    out->consumed = consumed;
    out->weight = d->weight;
    out->skipped = d->skipped;
    /* Each step consumes at most t->maxlen bits and yields at least one edge. */
    tc_dtrc_bits most = tc_dtrc_bits_mul(edges_left, t->maxlen);
    if (out->total < TC_DTRC_BITS_SAT && most < TC_DTRC_BITS_SAT && most + 6 <= rest) {
        out->code = TC_DTRC_E_LEFTOVER;
        out->leftover = rest - most; /* at least */
        return out->code;
    }
    /* Without empty codes each step consumes a bit and yields at most
     * t->maxnext edges. */
    if (!t->has_empty && t->maxnext > 0) {
        tc_dtrc_bits least = (edges_left + t->maxnext - 1) / t->maxnext;
        if (rest < least)
            out->code = TC_DTRC_E_SHORT;
    }
    return out->code;
}

int tc_dtrc_decode(const tc_dtrc_decode_in *in, tc_dtrc_decode_out *out)
{
    return tc_dtrc_decode_capped(in, 0, out);
}

int tc_dtrc_decode_capped(const tc_dtrc_decode_in *in, uint64_t skip_after,
                          tc_dtrc_decode_out *out)
{
    return tc_dtrc_decode_rows(in, NULL, skip_after, out);
}

int tc_dtrc_decode_rows(const tc_dtrc_decode_in *in, const tc_dtrc_rows *rows,
                        uint64_t skip_after, tc_dtrc_decode_out *out)
{
    dec dd;
    memset(&dd, 0, sizeof dd);
    dec *d = &dd;
    d->rp = rows;
    if (rows && rows->fast && rows->fast->ok && rows->fast->t == in->table &&
        (rows->rows || !in->on_edge)) {
        int weighted = rows->rows != NULL;
        if (rows->fast->nblocks == 0)
            rows->fast->weighted = weighted;
        if (rows->fast->weighted == weighted)
            d->fast = rows->fast;
    }
    memset(out, 0, sizeof *out);
    d->in = in;
    d->k = tc_dtrc_kernels_for(tc_simd_level_get());
    d->skip_after = skip_after;
    d->budget = in->budget ? in->budget : TC_DTRC_DEFAULT_BUDGET;
    out->total = in->prog->bits;
    if (in->edge_count == 0)
        return finish(d, out, TC_DTRC_OK);
    d->need = in->edge_count;
    d->edges = 1;
    d->edge = in->first_edge;
    if (d->rp && d->rp->rows)
        d->weight = d->rp->edge_at(in->user, 0, d->edge, d->walked++);
    else if (in->on_edge)
        d->weight = in->on_edge(in->user, d->edge);
    d->st[d->sp++] = (frame){in->prog, 0, 0, (uint32_t)in->prog->nops, 1, 0, 0, 0, 0, {0}};
    const tc_dtrc_table *t = in->table;
    /* Cycle detection over chains of zero-bit steps. */
    int zc = 0;
    uint64_t zpower = 1, zlam = 0;
    snap zcp = {0};
    /* The entry of the current edge: looked up once, then carried by each
     * code matched (tc_dtrc_code.to). */
    const tc_dtrc_entry *e = tc_dtrc_table_find(t, d->edge);
    while (d->edges < d->need) {
        if (d->fast && e && e->maxlen > 0) {
            e = fast_run(d, e);
            if (!e)
                return over_budget(d, out);
            zc = 0;
        }
        if (++d->work > d->budget)
            return over_budget(d, out);
        if (!e)
            return finish(d, out, TC_DTRC_E_NO_ENTRY);
        const tc_dtrc_code *c;
        if (e->maxlen == 0) {
            c = &t->codes[e->first];
            if (may_skip(d)) {
                snap cur = take(d);
                if (!zc) {
                    zc = 1;
                    zcp = cur;
                    zpower = 1;
                    zlam = 0;
                } else {
                    zlam++;
                    if (cur.edge == zcp.edge) {
                        /* A cycle of empty codes: every lap yields the same
                         * edges without a bit; add whole laps. */
                        uint64_t de = cur.edges - zcp.edges;
                        uint64_t k = (d->need - d->edges - 1) / de;
                        d->edges += k * de;
                        d->skipped += k * de;
                        d->weight = tc_dtrc_bits_add(
                            d->weight, tc_dtrc_bits_mul(k, cur.weight - zcp.weight));
                        zcp = take(d);
                        zpower = 1;
                        zlam = 0;
                    } else if (zlam == zpower) {
                        zcp = cur;
                        zpower *= 2;
                        zlam = 0;
                    }
                }
            }
            emit(d, c);
            e = c->to ? &t->entries[c->to - 1] : NULL;
            continue;
        }
        zc = 0;
        if (d->nacc < e->maxlen) {
            refill(d, e->maxlen);
            if (d->over)
                return over_budget(d, out);
        }
        uint32_t w = window(d);
        unsigned avail = d->nacc < 32 ? d->nacc : 32;
        c = tc_dtrc_table_match(t, e, w, avail);
        if (!c) {
            unsigned show = avail < e->maxlen ? avail : e->maxlen;
            tc_dtrc_code_str(w, show, out->bits);
            int ran_out = avail < e->maxlen && tc_dtrc_table_prefix(t, e, w, avail);
            return finish(d, out, ran_out ? TC_DTRC_E_SHORT : TC_DTRC_E_NO_CODE);
        }
        d->nacc -= c->len;
        d->acc &= d->nacc ? (UINT64_MAX >> (64 - d->nacc)) : 0;
        emit(d, c);
        e = c->to ? &t->entries[c->to - 1] : NULL;
    }
    return finish(d, out, TC_DTRC_OK);
}
