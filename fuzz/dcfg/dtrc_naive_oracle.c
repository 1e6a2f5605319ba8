/* The sequence decoder against a naive reading: see dtrc_naive_oracle.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/harness.h"
#include "../../parsers/dcfg/dtrc_decode.h"
#include "../../parsers/dcfg/dtrc_fast.h"
#include "../../parsers/dcfg/dtrc_seq.h"
#include "../../parsers/dcfg/dtrc_table.h"
#include "dtrc_naive_oracle.h"

typedef unsigned __int128 u128;
static const u128 SAT = ((u128)1) << 100;

static u128 sat_add(u128 a, u128 b)
{
    u128 s = a + b;
    return s >= SAT ? SAT : s;
}

static u128 sat_mul(u128 a, u128 b)
{
    if (a == 0 || b == 0)
        return 0;
    if (a >= SAT || b >= SAT)
        return SAT;
    /* Both below 2^100: the product fits in 128 bits only when one is small. */
    if (a > SAT / b)
        return SAT;
    u128 p = a * b;
    return p >= SAT ? SAT : p;
}

static void u128_str(u128 v, char *buf)
{
    char tmp[48];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    for (int i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    buf[n] = '\0';
}

/* ---- the table, judged here ---- */

/* Whether code a is a prefix of code b (equal included). */
static int prefix_of(uint32_t apad, unsigned alen, uint32_t bpad, unsigned blen)
{
    if (alen > blen)
        return 0;
    uint32_t mask = alen == 0 ? 0 : alen == 32 ? UINT32_MAX : ~(UINT32_MAX >> alen);
    return (apad & mask) == (bpad & mask);
}

/* Doc §3.5: each (CURRENT_EDGE_ID, code padded to 32 bits) is unique; ruling
 * 10: no code is a prefix of another of its edge, an empty code is alone. Two
 * codes equal once padded are a prefix of one another, so one test covers
 * all three. */
static int conflict(uint32_t ea, uint32_t apad, unsigned alen, uint32_t eb, uint32_t bpad,
                    unsigned blen)
{
    return ea == eb && (prefix_of(apad, alen, bpad, blen) || prefix_of(bpad, blen, apad, alen));
}

typedef struct problems {
    size_t n;
    int seen[MAX_ROWS];
} problems;

static void on_problem(void *user, int kind, const tc_dtrc_row *r, const tc_dtrc_row *other)
{
    problems *p = user;
    FUZZ_ASSERT_MSG(kind == TC_DTRC_T_DUPLICATE || kind == TC_DTRC_T_PREFIX ||
                        kind == TC_DTRC_T_EMPTY,
                    "problem kind %d", kind);
    FUZZ_ASSERT_MSG(r->row < MAX_ROWS && other->row < MAX_ROWS && r->row != other->row,
                    "problem between rows %" PRIu32 " and %" PRIu32, r->row, other->row);
    FUZZ_ASSERT_MSG(conflict(r->edge, r->pad, r->len, other->edge, other->pad, other->len),
                    "rows %" PRIu32 " and %" PRIu32 " reported (kind %d) but do not conflict",
                    r->row, other->row, kind);
    FUZZ_ASSERT_MSG(!p->seen[r->row], "row %" PRIu32 " reported twice", r->row);
    p->seen[r->row] = 1;
    p->n++;
}

/* Builds the table and checks ruling 10; kept[r] says whether row r is used
 * for decoding. */
static void build_table(tc_dtrc_table *t, const dtrc_naive_oracle_input *in, int kept[MAX_ROWS])
{
    tc_dtrc_table_init(t);
    for (size_t r = 0; r < in->nrows; r++) {
        const dtrc_naive_oracle_row *w = &in->rows[r];
        char text[33];
        tc_dtrc_code_str(w->pad, w->len, text);
        uint32_t pad = 0xdeadbeef;
        uint8_t len = 99;
        FUZZ_ASSERT_MSG(tc_dtrc_parse_code(text, strlen(text), &pad, &len) && pad == w->pad &&
                            len == w->len,
                        "code \"%s\" read as %08" PRIx32 "/%u, made as %08" PRIx32 "/%u", text,
                        pad, len, w->pad, w->len);
        FUZZ_CHECK_ALLOC(tc_dtrc_table_add(t, w->edge, w->pad, w->len, w->next, w->nnext,
                                           (uint32_t)r));
    }
    problems pr = {0};
    FUZZ_CHECK_ALLOC(tc_dtrc_table_finish(t, on_problem, &pr));
    int any = 0;
    for (size_t a = 0; a < in->nrows; a++)
        for (size_t b = a + 1; b < in->nrows; b++)
            if (conflict(in->rows[a].edge, in->rows[a].pad, in->rows[a].len, in->rows[b].edge,
                         in->rows[b].pad, in->rows[b].len))
                any = 1;
    FUZZ_ASSERT_MSG(any == (pr.n > 0), "%s conflict among the codes, %zu problems reported",
                    any ? "a" : "no", pr.n);
    for (size_t r = 0; r < MAX_ROWS; r++)
        kept[r] = 0;
    size_t dropped = 0;
    for (size_t k = 0; k < t->nrows; k++) {
        const tc_dtrc_row *x = &t->rows[k];
        FUZZ_ASSERT(x->row < in->nrows);
        if (x->dropped) {
            dropped++;
            FUZZ_ASSERT_MSG(pr.seen[x->row], "row %" PRIu32 " dropped unreported", x->row);
        } else {
            FUZZ_ASSERT_MSG(!pr.seen[x->row], "row %" PRIu32 " reported but kept", x->row);
            kept[x->row] = 1;
        }
    }
    FUZZ_ASSERT_MSG(dropped == pr.n && t->nrows == in->nrows, "%zu rows dropped, %zu reported",
                    dropped, pr.n);
    for (size_t a = 0; a < in->nrows; a++)
        for (size_t b = a + 1; b < in->nrows; b++)
            FUZZ_ASSERT_MSG(!(kept[a] && kept[b] &&
                              conflict(in->rows[a].edge, in->rows[a].pad, in->rows[a].len,
                                       in->rows[b].edge, in->rows[b].pad, in->rows[b].len)),
                            "rows %zu and %zu are both kept and conflict", a, b);
    for (uint32_t e = 0; e < NEDGES; e++) {
        int has = 0;
        for (size_t r = 0; r < in->nrows; r++)
            has |= kept[r] && in->rows[r].edge == e;
        FUZZ_ASSERT_MSG((tc_dtrc_table_find(t, e) != NULL) == has,
                        "edge %" PRIu32 ": entry %s, kept rows %s", e,
                        tc_dtrc_table_find(t, e) ? "found" : "not found", has ? "yes" : "no");
    }
}

/* ---- sequences, read naively (Doc §3.7.1) ---- */

enum { N_CHAR, N_REPEAT, N_REF };

typedef struct node {
    int kind;
    uint8_t val;  /* N_CHAR */
    uint64_t count; /* N_REPEAT */
    size_t entry; /* N_REF */
    size_t first, n; /* N_REPEAT: its body, nodes first .. first + n - 1 of body[] */
    u128 len;     /* characters it expands to (eval_list) */
} node;

/* A parsed string: items at the top, and repeat bodies as index lists. */
typedef struct tree {
    node *v;
    size_t nv, cap;
    size_t *top, ntop, captop;
    size_t *body, nbody, capbody;
    int ok, code;
    size_t pos;
} tree;

typedef struct naive {
    const dtrc_naive_oracle_input *in;
    tree t[MAX_DICT];
    int state[MAX_DICT]; /* 0 unknown, 1 visiting, 2 good, 3 bad */
    unsigned depth[MAX_DICT];
    u128 len[MAX_DICT];
} naive;

static int b64_value(unsigned char c)
{
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-";
    if (c == '.')
        return 63; /* ruling 1: accepted, with a warning */
    const char *p = c ? strchr(alphabet, c) : NULL;
    return p ? (int)(p - alphabet) : -1;
}

static long find_key(const dtrc_naive_oracle_input *in, const char *k, size_t n)
{
    for (size_t e = 0; e < in->ndict; e++)
        if (in->dict[e].klen == n && memcmp(in->dict[e].key, k, n) == 0)
            return (long)e;
    return -1;
}

static size_t add_node(tree *t, node x)
{
    if (t->nv == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 32;
        t->v = realloc(t->v, t->cap * sizeof *t->v);
        FUZZ_CHECK_ALLOC(t->v);
    }
    t->v[t->nv] = x;
    return t->nv++;
}

static void push_index(size_t **v, size_t *n, size_t *cap, size_t x)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 32;
        *v = realloc(*v, *cap * sizeof **v);
        FUZZ_CHECK_ALLOC(*v);
    }
    (*v)[(*n)++] = x;
}

static int fail_at(tree *t, int code, size_t pos)
{
    t->ok = 0;
    t->code = code;
    t->pos = pos;
    return 0;
}

/* Reads items from *i until ')' (inside a repeat) or the end; the indices
 * of the items read go to out (a temporary list, copied by the caller).
 * `open` is the number of repeats around, `open_at` where the innermost
 * began. */
static int parse_items(tree *t, const dtrc_naive_oracle_input *in, const char *s, size_t n, size_t *i,
                       unsigned open, size_t open_at, size_t **out, size_t *nout, size_t *capout)
{
    while (*i < n) {
        unsigned char c = (unsigned char)s[*i];
        int v = b64_value(c);
        if (v >= 0) {
            push_index(out, nout, capout, add_node(t, (node){.kind = N_CHAR, .val = (uint8_t)v}));
            (*i)++;
        } else if (c == '(') {
            size_t at = *i, j = at + 1;
            int over = 0;
            uint64_t m = 0;
            while (j < n && s[j] >= '0' && s[j] <= '9') {
                unsigned dgt = (unsigned)(s[j] - '0');
                if (m > UINT64_MAX / 10 || m * 10 > UINT64_MAX - dgt)
                    over = 1;
                m = m * 10 + dgt;
                j++;
            }
            if (j == at + 1 || j >= n || s[j] != '*')
                return fail_at(t, TC_DTRC_E_REPEAT, at);
            if (over)
                return fail_at(t, TC_DTRC_E_COUNT, at);
            if (open == TC_DTRC_MAX_NEST)
                return fail_at(t, TC_DTRC_E_NESTING, at);
            *i = j + 1;
            size_t *items = NULL, nitems = 0, capitems = 0;
            int ok = parse_items(t, in, s, n, i, open + 1, at, &items, &nitems, &capitems);
            if (!ok) {
                free(items);
                return 0;
            }
            size_t first = t->nbody;
            for (size_t k = 0; k < nitems; k++)
                push_index(&t->body, &t->nbody, &t->capbody, items[k]);
            free(items);
            push_index(out, nout, capout,
                       add_node(t, (node){.kind = N_REPEAT, .count = m, .first = first, .n = nitems}));
        } else if (c == ')') {
            if (open == 0)
                return fail_at(t, TC_DTRC_E_PAREN, *i);
            (*i)++;
            return 1;
        } else if (c == '<') {
            size_t at = *i;
            const char *gt = memchr(s + at + 1, '>', n - at - 1);
            if (!gt)
                return fail_at(t, TC_DTRC_E_REF, at);
            size_t klen = (size_t)(gt - (s + at + 1));
            int key_ok = klen > 0;
            for (size_t k = 0; k < klen; k++)
                if (s[at + 1 + k] == '.' || b64_value((unsigned char)s[at + 1 + k]) < 0)
                    key_ok = 0;
            if (!key_ok)
                return fail_at(t, TC_DTRC_E_REF, at);
            long e = find_key(in, s + at + 1, klen);
            if (e < 0)
                return fail_at(t, TC_DTRC_E_MISSING, at);
            push_index(out, nout, capout,
                       add_node(t, (node){.kind = N_REF, .entry = (size_t)e}));
            *i = at + 2 + klen;
        } else {
            return fail_at(t, TC_DTRC_E_CHAR, *i);
        }
    }
    if (open > 0)
        return fail_at(t, TC_DTRC_E_PAREN, open_at);
    return 1;
}

static void parse_tree(tree *t, const dtrc_naive_oracle_input *in, const char *s, size_t n)
{
    memset(t, 0, sizeof *t);
    t->ok = 1;
    size_t i = 0;
    parse_items(t, in, s, n, &i, 0, 0, &t->top, &t->ntop, &t->captop);
}

static void tree_free(tree *t)
{
    free(t->v);
    free(t->top);
    free(t->body);
}

static void entry_eval(naive *nv, size_t e);

/* Depth (repeats and references, as the decoder's stack needs them) and
 * length in characters of a list of items; *bad when a reference is to a
 * bad entry. */
static void eval_list(naive *nv, tree *t, const size_t *items, size_t n, unsigned *depth,
                      u128 *len, int *bad)
{
    unsigned d = 0;
    u128 l = 0;
    for (size_t k = 0; k < n; k++) {
        node *x = &t->v[items[k]];
        if (x->kind == N_CHAR) {
            x->len = 1;
        } else if (x->kind == N_REPEAT) {
            unsigned bd;
            u128 bl;
            /* An empty body has no list at all: "(4*)". */
            eval_list(nv, t, x->n ? t->body + x->first : NULL, x->n, &bd, &bl, bad);
            if (1 + bd > d)
                d = 1 + bd;
            x->len = sat_mul(x->count, bl);
        } else {
            entry_eval(nv, x->entry);
            if (nv->state[x->entry] != 2) {
                *bad = 1;
                x->len = 0;
                continue;
            }
            if (1 + nv->depth[x->entry] > d)
                d = 1 + nv->depth[x->entry];
            x->len = nv->len[x->entry];
        }
        l = sat_add(l, x->len);
    }
    *depth = d;
    *len = l;
}

/* An entry is good when it parses, all it refers to is good, no circular
 * reference is reachable, and its depth is within the decoder's limit. */
static void entry_eval(naive *nv, size_t e)
{
    if (nv->state[e] == 1) {
        nv->state[e] = 3; /* a cycle through e */
        return;
    }
    if (nv->state[e] >= 2)
        return;
    tree *t = &nv->t[e];
    if (!t->ok) {
        nv->state[e] = 3;
        return;
    }
    nv->state[e] = 1;
    unsigned d;
    u128 l;
    int bad = 0;
    eval_list(nv, t, t->top, t->ntop, &d, &l, &bad);
    /* A cycle found below marks e bad (state 3) while it is still visited. */
    if (nv->state[e] == 3)
        bad = 1;
    nv->depth[e] = 1 + d;
    nv->len[e] = l;
    nv->state[e] = bad || 1 + d > TC_DTRC_MAX_NEST ? 3 : 2;
}

static void expand_list(const naive *nv, const tree *t, const size_t *items, size_t n,
                        uint8_t *out, size_t *o)
{
    for (size_t k = 0; k < n; k++) {
        const node *x = &t->v[items[k]];
        /* Nothing to write, however many times: "(4000000000*(0*A))". */
        if (x->len == 0)
            continue;
        if (x->kind == N_CHAR) {
            out[(*o)++] = x->val;
        } else if (x->kind == N_REPEAT) {
            for (uint64_t r = 0; r < x->count; r++)
                expand_list(nv, t, x->n ? t->body + x->first : NULL, x->n, out, o);
        } else {
            const tree *u = &nv->t[x->entry];
            expand_list(nv, u, u->top, u->ntop, out, o);
        }
    }
}

/* ---- decoding, naively (Doc §3.5, §3.7.2, ruling 11) ---- */

static uint64_t weight_of(uint32_t edge) { return (uint64_t)edge * 977u + 13u; }

typedef struct result {
    int code;
    uint64_t edges;
    uint32_t edge;
    u128 consumed, weight;
} result;

static void naive_decode(const dtrc_naive_oracle_input *in, const int kept[MAX_ROWS], const uint8_t *vals,
                         size_t nvals, result *res)
{
    memset(res, 0, sizeof *res);
    size_t nbits = 6 * nvals, pos = 0;
    uint64_t need = in->count;
    if (need == 0)
        goto done;
    res->edges = 1;
    res->edge = in->first;
    res->weight = weight_of(in->first);
    /* Edges seen in the current chain of zero-bit steps: when one comes back,
     * the steps between repeat forever without a bit. */
    int seen[NEDGES];
    uint64_t seen_edges[NEDGES];
    u128 seen_weight[NEDGES];
    memset(seen, 0, sizeof seen);
    while (res->edges < need) {
        const dtrc_naive_oracle_row *codes[MAX_ROWS];
        size_t nc = 0;
        for (size_t r = 0; r < in->nrows; r++)
            if (kept[r] && in->rows[r].edge == res->edge)
                codes[nc++] = &in->rows[r];
        if (nc == 0) {
            res->code = TC_DTRC_E_NO_ENTRY;
            goto done;
        }
        const dtrc_naive_oracle_row *m = NULL;
        if (nc == 1 && codes[0]->len == 0) {
            uint32_t cur = res->edge;
            if (seen[cur]) {
                uint64_t de = res->edges - seen_edges[cur];
                u128 dw = res->weight - seen_weight[cur];
                uint64_t laps = (need - res->edges - 1) / de;
                res->edges += laps * de;
                res->weight += (u128)laps * dw;
                memset(seen, 0, sizeof seen);
            }
            seen[cur] = 1;
            seen_edges[cur] = res->edges;
            seen_weight[cur] = res->weight;
            m = codes[0];
        } else {
            memset(seen, 0, sizeof seen);
            /* Read bits one at a time until they are a whole code. */
            uint32_t got = 0;
            unsigned glen = 0;
            for (;;) {
                for (size_t k = 0; k < nc && !m; k++)
                    if (codes[k]->len == glen && codes[k]->pad == got)
                        m = codes[k];
                if (m)
                    break;
                int possible = 0;
                for (size_t k = 0; k < nc; k++)
                    possible |= codes[k]->len > glen && prefix_of(got, glen, codes[k]->pad,
                                                                  codes[k]->len);
                if (!possible) {
                    res->code = TC_DTRC_E_NO_CODE;
                    goto done;
                }
                if (pos == nbits) {
                    res->code = TC_DTRC_E_SHORT;
                    goto done;
                }
                unsigned bit = (vals[pos / 6] >> (5 - pos % 6)) & 1;
                pos++;
                got |= (uint32_t)bit << (31 - glen);
                glen++;
            }
            res->consumed += m->len;
        }
        for (size_t k = 0; k < m->nnext && res->edges < need; k++) {
            res->edges++;
            res->edge = m->next[k];
            res->weight += weight_of(m->next[k]);
        }
    }
done:
    if (res->code == TC_DTRC_OK && nbits - res->consumed >= 6)
        res->code = TC_DTRC_E_LEFTOVER;
}

/* ---- running the decoder ---- */

/* DTRC_SEQUENCE_VERBOSE=1: a line per input compared with the naive decoder. */
static int verbose(void)
{
    static int v = -1; /* a harness is a program: a global is fine here */
    if (v < 0) {
        const char *e = getenv("DTRC_SEQUENCE_VERBOSE");
        v = e && *e && strcmp(e, "0") != 0;
    }
    return v;
}

typedef struct calls {
    uint64_t n;
    u128 weight;
} calls;

static uint64_t on_edge(void *user, uint32_t edge)
{
    calls *c = user;
    c->n++;
    FUZZ_ASSERT_MSG(edge < NEDGES, "edge %" PRIu32 " is no edge of the table", edge);
    c->weight += weight_of(edge);
    return weight_of(edge);
}

static void decode(const dtrc_naive_oracle_input *in, const tc_dtrc_table *t, const tc_dtrc_dict *d,
                   const tc_dtrc_prog *p, int no_skip, uint64_t skip_after, uint64_t budget,
                   tc_dtrc_decode_out *out, calls *c)
{
    memset(c, 0, sizeof *c);
    tc_dtrc_decode_in di = {.table = t, .dict = d, .prog = p, .first_edge = in->first,
                            .edge_count = in->count, .on_edge = on_edge, .user = c,
                            .no_skip = no_skip, .budget = budget};
    int rc = skip_after ? tc_dtrc_decode_capped(&di, skip_after, out) : tc_dtrc_decode(&di, out);
    FUZZ_ASSERT_MSG(rc == out->code, "returned %d, out->code %d", rc, out->code);
    FUZZ_ASSERT_MSG(out->edges <= in->count, "%" PRIu64 " edges decoded, EDGE_COUNT %" PRIu64,
                    out->edges, in->count);
    FUZZ_ASSERT_MSG(out->code != TC_DTRC_OK || out->edges == in->count,
                    "valid with %" PRIu64 " edges of %" PRIu64, out->edges, in->count);
    FUZZ_ASSERT_MSG(c->n + out->skipped == out->edges,
                    "%" PRIu64 " edges delivered and %" PRIu64 " skipped, %" PRIu64 " decoded",
                    c->n, out->skipped, out->edges);
    FUZZ_ASSERT_MSG(!no_skip || out->skipped == 0 ||
                        (skip_after && c->n >= skip_after && c->n >= out->edges - out->skipped),
                    "%" PRIu64 " edges skipped with no_skip, %" PRIu64 " delivered, skipping "
                    "allowed after %" PRIu64,
                    out->skipped, c->n, skip_after);
    FUZZ_ASSERT_MSG(out->consumed <= out->total, "more bits consumed than there are");
    FUZZ_ASSERT_MSG(out->code != TC_DTRC_E_LEFTOVER || out->leftover >= 6,
                    "LEFTOVER with fewer than 6 bits");
    FUZZ_ASSERT_MSG(out->code != TC_DTRC_OK || out->total - out->consumed < 6,
                    "valid with 6 or more bits left over");
    /* The weights of skipped edges are added arithmetically: never less than
     * what was delivered. */
    FUZZ_ASSERT(out->weight >= (c->weight >= SAT ? SAT : c->weight) || out->weight == SAT);
}

static int same_out(const tc_dtrc_decode_out *a, const tc_dtrc_decode_out *b)
{
    return a->code == b->code && a->edges == b->edges && a->edge == b->edge &&
           a->consumed == b->consumed && a->total == b->total && a->leftover == b->leftover &&
           a->weight == b->weight && strcmp(a->bits, b->bits) == 0;
}

static void print_out(const char *label, const tc_dtrc_decode_out *o)
{
    char c[48], t[48], w[48];
    u128_str(o->consumed, c);
    u128_str(o->total, t);
    u128_str(o->weight, w);
    fprintf(stderr,
            "%s: code %d, %" PRIu64 " edges (%" PRIu64 " skipped), edge %" PRIu32
            ", bits %s of %s, weight %s, bits \"%s\"\n",
            label, o->code, o->edges, o->skipped, o->edge, c, t, w, o->bits);
}

/* ---- the decoder's fast paths ---- */

/* Per-row weights: a row is fine (its weight summed once) unless its first
 * code index is a multiple of 3, so that rows taken whole and rows taken
 * edge by edge mix. */
static const tc_dtrc_table *rows_table;

static void row_check(void *user, uint32_t current, const tc_dtrc_code *c, tc_dtrc_rowinfo *out)
{
    (void)user;
    (void)current;
    const uint32_t *ids = rows_table->ids + c->next;
    out->state = TC_DTRC_ROW_EDGEWISE;
    out->weight = 0;
    if ((c - rows_table->codes) % 3 == 0)
        return;
    for (uint32_t k = 0; k < c->nnext; k++)
        out->weight += weight_of(ids[k]);
    out->state = TC_DTRC_ROW_FINE;
}

static uint64_t edge_at(void *user, uint32_t prev, uint32_t edge, uint64_t index)
{
    (void)user;
    (void)prev;
    (void)index;
    return weight_of(edge);
}

/* Decodes with the per-row weights and the character tables (weighted,
 * or unweighted when weighted is 0) and fails unless the result is the
 * plain decoder's, ref (decoded with on_edge when weighted, else without). */
static void decode_fast(const dtrc_naive_oracle_input *in, const tc_dtrc_table *t, const tc_dtrc_dict *d,
                        const tc_dtrc_prog *p, int weighted, const tc_dtrc_decode_out *ref)
{
    tc_dtrc_fast f;
    tc_dtrc_fast_init(&f);
    tc_dtrc_fast_build(&f, t);
    tc_dtrc_rowinfo *info = calloc(t->nrows + 1, sizeof *info);
    FUZZ_CHECK_ALLOC(info);
    rows_table = t;
    tc_dtrc_rows rows = {weighted ? info : NULL, row_check, edge_at, &f};
    calls c;
    memset(&c, 0, sizeof c);
    tc_dtrc_decode_in di = {.table = t, .dict = d, .prog = p, .first_edge = in->first,
                            .edge_count = in->count, .on_edge = weighted ? on_edge : NULL,
                            .user = &c, .budget = BIG_BUDGET};
    tc_dtrc_decode_out out;
    tc_dtrc_decode_rows(&di, &rows, 0, &out);
    if (!same_out(ref, &out)) {
        print_out("plain", ref);
        print_out(weighted ? "per row, character tables" : "character tables", &out);
        FUZZ_FAIL("the decoder's fast paths (%s) and the plain decoder differ",
                  weighted ? "weighted" : "unweighted");
    }
    free(info);
    tc_dtrc_fast_free(&f);
}

typedef struct bad_entries {
    int reported[MAX_DICT];
} bad_entries;

static void on_bad(void *user, size_t e, const tc_dtrc_err *err)
{
    bad_entries *b = user;
    FUZZ_ASSERT_MSG(e < MAX_DICT, "entry %zu", e);
    FUZZ_ASSERT_MSG(err->code != TC_DTRC_OK && err->detail[0], "entry %zu: code %d, \"%s\"", e,
                    err->code, err->detail);
    b->reported[e] = 1;
}

void dtrc_naive_oracle_check(const dtrc_naive_oracle_input *in)
{

    tc_dtrc_table t;
    int kept[MAX_ROWS];
    build_table(&t, in, kept);

    /* The dictionary, read by the library and here. */
    tc_dtrc_dict d;
    tc_dtrc_dict_init(&d);
    for (size_t e = 0; e < in->ndict; e++)
        FUZZ_CHECK_ALLOC(tc_dtrc_dict_add(&d, in->dict[e].key, in->dict[e].klen, in->dict[e].val,
                                          in->dict[e].vlen));
    bad_entries bad = {0};
    tc_dtrc_dict_finish(&d, on_bad, &bad);
    naive nv;
    memset(&nv, 0, sizeof nv);
    nv.in = in;
    for (size_t e = 0; e < in->ndict; e++)
        parse_tree(&nv.t[e], in, in->dict[e].val, in->dict[e].vlen);
    for (size_t e = 0; e < in->ndict; e++) {
        entry_eval(&nv, e);
        FUZZ_ASSERT_MSG(nv.t[e].ok || bad.reported[e],
                        "entry %zu \"%.*s\" does not parse (code %d at %zu) and was not reported",
                        e, (int)in->dict[e].klen, in->dict[e].key, nv.t[e].code, nv.t[e].pos);
        FUZZ_ASSERT_MSG(!!d.taint[e] == (nv.state[e] == 3),
                        "entry %zu \"%.*s\": tainted %d, bad here %d", e, (int)in->dict[e].klen,
                        in->dict[e].key, d.taint[e], nv.state[e] == 3);
        FUZZ_ASSERT_MSG(nv.state[e] != 2 || d.bits[e] == sat_mul(6, nv.len[e]),
                        "entry %zu: bits differ", e);
    }

    /* The sequence. */
    tree seq;
    parse_tree(&seq, in, in->seq, in->seqlen);
    tc_dtrc_prog p = {0};
    tc_dtrc_err err = {0};
    int compiled = tc_dtrc_compile_chunk(&p, &d, in->seq, in->seqlen, &err);
    unsigned depth = 0;
    u128 len = 0;
    int tainted_here = 0;
    if (seq.ok)
        eval_list(&nv, &seq, seq.top, seq.ntop, &depth, &len, &tainted_here);
    if (!seq.ok) {
        FUZZ_ASSERT_MSG(!compiled && err.code == seq.code &&
                            (seq.code == TC_DTRC_E_NESTING || err.pos == seq.pos),
                        "the sequence compiles: %d, code %d at %zu (\"%s\"); read here: code %d "
                        "at %zu",
                        compiled, err.code, err.pos, err.detail, seq.code, seq.pos);
    } else if (tainted_here) {
        /* A reference to a bad entry: reported with the entry; the chunk may
         * still be too deep, or is not decoded. */
        FUZZ_ASSERT_MSG(compiled ? tc_dtrc_prog_tainted(&p, &d) : err.code == TC_DTRC_E_NESTING,
                        "a sequence referring to a bad entry: compiled %d, code %d (\"%s\")",
                        compiled, err.code, err.detail);
    } else if (1 + depth > TC_DTRC_MAX_NEST) {
        FUZZ_ASSERT_MSG(!compiled && err.code == TC_DTRC_E_NESTING,
                        "depth %u: compiled %d, code %d", 1 + depth, compiled, err.code);
    } else {
        FUZZ_ASSERT_MSG(compiled, "the sequence does not compile: code %d at %zu (\"%s\")",
                        err.code, err.pos, err.detail);
        FUZZ_ASSERT_MSG(!tc_dtrc_prog_tainted(&p, &d), "a sequence of good entries is tainted");
        char a[48], b[48];
        u128_str(p.bits, a);
        u128_str(sat_mul(6, len), b);
        FUZZ_ASSERT_MSG(p.bits == sat_mul(6, len), "the sequence stands for %s bits, %s here", a,
                        b);

        /* As asked (skipping or not, the input's budget), twice. */
        tc_dtrc_decode_out o1, o2, big;
        calls c1, c2, cb;
        decode(in, &t, &d, &p, in->no_skip, in->skip_after, in->budget, &o1, &c1);
        decode(in, &t, &d, &p, in->no_skip, in->skip_after, in->budget, &o2, &c2);
        if (!same_out(&o1, &o2) || c1.n != c2.n) {
            print_out("first", &o1);
            print_out("second", &o2);
            FUZZ_FAIL("decoding the same input twice gave different results");
        }
        /* With skipping and a large budget: what the naive decoder must
         * find. The run as asked says the same, unless it ran out of budget
         * (a small one, or no skipping over a long cycle): it then says
         * "not checked", or an error where there is one. */
        decode(in, &t, &d, &p, 0, 0, BIG_BUDGET, &big, &cb);
        decode_fast(in, &t, &d, &p, 1, &big);
        {
            tc_dtrc_decode_in di = {.table = &t, .dict = &d, .prog = &p, .first_edge = in->first,
                                    .edge_count = in->count, .budget = BIG_BUDGET};
            tc_dtrc_decode_out plain;
            tc_dtrc_decode(&di, &plain);
            decode_fast(in, &t, &d, &p, 0, &plain);
        }
        if (!same_out(&o1, &big)) {
            int may = in->budget < BIG_BUDGET || (in->no_skip && !in->skip_after);
            if (!may || !(o1.code == TC_DTRC_E_BUDGET ||
                          (o1.code != TC_DTRC_OK && big.code != TC_DTRC_OK))) {
                print_out("as asked", &o1);
                print_out("skipping, large budget", &big);
                FUZZ_FAIL("the budget (%" PRIu64 ") or skipping (%s) changed the result",
                          in->budget, in->no_skip ? "off" : "on");
            }
        }
        if (len <= MAX_EXPAND) {
            uint8_t *vals = malloc(len ? (size_t)len : 1);
            FUZZ_CHECK_ALLOC(vals);
            size_t nvals = 0;
            expand_list(&nv, &seq, seq.top, seq.ntop, vals, &nvals);
            FUZZ_ASSERT_MSG(nvals == (size_t)len, "%zu characters expanded, %zu counted", nvals,
                            (size_t)len);
            result r;
            naive_decode(in, kept, vals, nvals, &r);
            free(vals);
            if (verbose())
                fprintf(stderr, "dtrc_sequence: code %d, %" PRIu64 " edges, %zu characters, naive "
                        "code %d, %" PRIu64 " edges\n", big.code, big.edges, nvals, r.code,
                        r.edges);
            if (big.code != r.code || big.edges != r.edges || big.edge != r.edge ||
                big.consumed != r.consumed || big.weight != r.weight) {
                char c[48], w[48];
                u128_str(r.consumed, c);
                u128_str(r.weight, w);
                print_out("decoder", &big);
                fprintf(stderr,
                        "naive: code %d, %" PRIu64 " edges, edge %" PRIu32 ", %s bits consumed, "
                        "weight %s\n",
                        r.code, r.edges, r.edge, c, w);
                FUZZ_FAIL("the decoder and the naive decoder differ (expansion of %zu "
                          "characters)", nvals);
            }
        }
    }

    tree_free(&seq);
    for (size_t e = 0; e < in->ndict; e++)
        tree_free(&nv.t[e]);
    tc_dtrc_prog_free(&p);
    tc_dtrc_dict_free(&d);
    tc_dtrc_table_free(&t);
}
