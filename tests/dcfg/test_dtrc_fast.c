/*
 * The decoder's fast paths (dtrc_decode.h, dtrc_fast.h): pairing checked
 * once per transition-table row, and character-at-a-time tables. Each must
 * give what the plain decoder gives (tc_dtrc_decode: every code matched
 * one at a time, every edge weighed by itself): the same result, edges,
 * current edge, bits used and left over, weight sum, and pairing findings
 * at the same edge positions. Random tables and sequences from a fixed
 * seed, then the edge cases one by one: the memory bounds of the tables,
 * EDGE_COUNT inside a character, empty codes, a row failing pairing in the
 * middle of a chunk, weights with and without pairing, the work budget.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/dcfg/dtrc_decode.h"
#include "../suites.h"
#include "../tu.h"

/* ---- a DCFG stand-in: which edges pair, and their weights ---- */

/* Edge bad_edge is not in the DCFG (a finding, weight 0); bad_next after
 * bad_prev does not join (a finding). Findings are kept with the number
 * of edges handed on before them, as the reader's messages give them. */
typedef struct pairing {
    uint32_t bad_edge, bad_prev, bad_next;
    uint32_t prev;  /* the per-edge path's edge before */
    uint64_t index; /* the per-edge path's edges handed on */
    uint64_t at[16];
    uint32_t edge_found[16];
    size_t nfound, total;
    uint64_t row_checks;
    uint64_t sum;   /* weights recomputed from the edges seen */
} pairing;

static uint64_t weight_of(uint32_t edge) { return (uint64_t)edge * 7 + 1; }

static uint64_t judge(pairing *p, int have_prev, uint32_t prev, uint32_t edge, uint64_t index)
{
    int bad = edge == p->bad_edge || (have_prev && prev == p->bad_prev && edge == p->bad_next);
    if (bad) {
        if (p->nfound < 16) {
            p->at[p->nfound] = index;
            p->edge_found[p->nfound++] = edge;
        }
        p->total++;
    }
    uint64_t w = edge == p->bad_edge ? 0 : weight_of(edge);
    p->sum += w;
    return w;
}

/* The plain path: every edge in order. */
static uint64_t on_edge(void *user, uint32_t edge)
{
    pairing *p = user;
    uint64_t w = judge(p, p->index > 0 && p->prev != p->bad_edge, p->prev, edge, p->index);
    p->prev = edge;
    p->index++;
    return w;
}

/* row_check's view of the table (the reader keeps it in its own state). */
static const tc_dtrc_table *cur_table;

/* The per-row path: a row is fine when its edges pair, its CURRENT_EDGE_ID
 * included; the edges of other rows come one by one to edge_at. */
static void row_check(void *user, uint32_t current, const tc_dtrc_code *c, tc_dtrc_rowinfo *out)
{
    pairing *p = user;
    p->row_checks++;
    out->state = TC_DTRC_ROW_EDGEWISE;
    out->weight = 0;
    const uint32_t *ids = cur_table->ids + c->next;
    uint32_t prev = current;
    uint64_t sum = 0;
    if (current == p->bad_edge)
        return;
    for (uint32_t k = 0; k < c->nnext; k++) {
        if (ids[k] == p->bad_edge || (prev == p->bad_prev && ids[k] == p->bad_next))
            return;
        sum += weight_of(ids[k]);
        prev = ids[k];
    }
    out->state = TC_DTRC_ROW_FINE;
    out->weight = sum;
}

static uint64_t edge_at(void *user, uint32_t prev, uint32_t edge, uint64_t index)
{
    pairing *p = user;
    return judge(p, index > 0 && prev != p->bad_edge, prev, edge, index);
}

/* ---- building tables, dictionaries and sequences ---- */

/* A table from "EDGE:CODE:NEXT,NEXT;..." (CODE may be empty). */
static void table(tc_dtrc_table *t, const char *spec)
{
    tc_dtrc_table_init(t);
    char *s = strdup(spec), *save = NULL;
    uint32_t row = 0;
    for (char *r = strtok_r(s, ";", &save); r; r = strtok_r(NULL, ";", &save)) {
        char *c1 = strchr(r, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        CU_ASSERT_FATAL(c1 && c2);
        uint32_t pad, next[16];
        uint8_t len;
        CU_ASSERT_FATAL(tc_dtrc_parse_code(c1 + 1, (size_t)(c2 - c1 - 1), &pad, &len));
        size_t nn = 0;
        for (char *q = c2 + 1; *q && nn < 16;) {
            next[nn++] = (uint32_t)strtoul(q, &q, 10);
            if (*q == ',')
                q++;
        }
        CU_ASSERT_FATAL(tc_dtrc_table_add(t, (uint32_t)strtoul(r, NULL, 10), pad, len, next,
                                          nn, row++));
    }
    free(s);
    CU_ASSERT_FATAL(tc_dtrc_table_finish(t, NULL, NULL));
}

/* splitmix64: the same cases on every machine. */
static uint64_t rng_state;
static uint64_t rnd64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static unsigned rnd(unsigned n) { return (unsigned)(rnd64() % n); }

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-";

/* Random prefix-free codes of edge below the prefix (pad, len): a full
 * tree of short codes, or (chain) one leaf per level down to 32 bits so
 * that codes longer than a character are common. Edges go to 1..nedges,
 * now and then to nedges + 1 (no row); now and then a prefix gets no code
 * (bits that match nothing). */
static void random_codes(tc_dtrc_table *t, uint32_t edge, uint32_t pad, unsigned len,
                         unsigned nedges, int chain, uint32_t *row)
{
    int leaf = len > 0 && (chain ? len == 32 || rnd(6) == 0 : len >= 7 || rnd(3) == 0);
    if (leaf) {
        if (rnd(8) == 0)
            return;
        uint32_t next[4];
        unsigned nn = 1 + rnd(3);
        for (unsigned k = 0; k < nn; k++)
            next[k] = 1 + rnd(nedges + (rnd(20) == 0));
        CU_ASSERT_FATAL(tc_dtrc_table_add(t, edge, pad, (uint8_t)len, next, nn, (*row)++));
        return;
    }
    uint32_t one = pad | (1u << (31 - len));
    if (chain && len > 0) {
        unsigned side = rnd(2);
        random_codes(t, edge, side ? one : pad, len + 1, nedges, 0, row);
        random_codes(t, edge, side ? pad : one, len + 1, nedges, 1, row);
        return;
    }
    random_codes(t, edge, pad, len + 1, nedges, chain, row);
    random_codes(t, edge, one, len + 1, nedges, chain, row);
}

static void random_table(tc_dtrc_table *t, unsigned nedges)
{
    tc_dtrc_table_init(t);
    uint32_t row = 0;
    for (uint32_t e = 1; e <= nedges; e++) {
        if (rnd(8) == 0) {
            uint32_t next = 1 + rnd(nedges);
            CU_ASSERT_FATAL(tc_dtrc_table_add(t, e, 0, 0, &next, 1, row++));
        } else {
            random_codes(t, e, 0, 0, nedges, rnd(4) == 0, &row);
        }
    }
    CU_ASSERT_FATAL(tc_dtrc_table_finish(t, NULL, NULL));
}

static size_t random_chars(char *s, unsigned n)
{
    for (unsigned j = 0; j < n; j++)
        s[j] = b64[rnd(64)];
    return n;
}

/* A dictionary of up to two entries, the second repeating the first. */
static void random_dict(tc_dtrc_dict *d, unsigned *nkeys)
{
    tc_dtrc_dict_init(d);
    *nkeys = rnd(3);
    char v[64];
    if (*nkeys >= 1) {
        size_t n = random_chars(v, 1 + rnd(6));
        CU_ASSERT_FATAL(tc_dtrc_dict_add(d, "d0", 2, v, n));
    }
    if (*nkeys >= 2) {
        int n = snprintf(v, sizeof v, "(%u*<d0>)", rnd(500));
        n += (int)random_chars(v + n, rnd(3));
        CU_ASSERT_FATAL(tc_dtrc_dict_add(d, "d1", 2, v, (size_t)n));
    }
    tc_dtrc_dict_finish(d, NULL, NULL);
}

/* Characters, repeats of a few characters and references. */
static size_t random_seq(char *s, unsigned nkeys)
{
    size_t n = 0;
    unsigned len = rnd(40);
    for (unsigned i = 0; i < len && n < 300; i++) {
        unsigned k = rnd(12);
        if (k < 2) {
            n += (size_t)sprintf(s + n, "(%u*", rnd(2000));
            n += random_chars(s + n, 1 + rnd(4));
            s[n++] = ')';
        } else if (k == 2 && nkeys) {
            n += (size_t)sprintf(s + n, "<d%u>", rnd(nkeys));
        } else if (k == 3) {
            /* A run of one character, often all zero or all one bits: the
             * decoder's run path. */
            unsigned r = rnd(3);
            char ch = r == 0 ? 'A' : r == 1 ? '-' : b64[rnd(64)];
            for (unsigned j = 1 + rnd(40); j > 0 && n < 340; j--)
                s[n++] = ch;
        } else {
            s[n++] = b64[rnd(64)];
        }
    }
    s[n] = 0;
    return n;
}

/* ---- comparing the paths ---- */

static int same_out(const tc_dtrc_decode_out *a, const tc_dtrc_decode_out *b)
{
    return a->code == b->code && a->edges == b->edges && a->edge == b->edge &&
           a->consumed == b->consumed && a->total == b->total && a->leftover == b->leftover &&
           strcmp(a->bits, b->bits) == 0 && a->weight == b->weight;
}

/* Findings are compared where no period was skipped: skipping may start
 * at another phase in each path, and edges of skipped periods have no
 * position. */
static int same_findings(const pairing *a, const tc_dtrc_decode_out *oa, const pairing *b,
                         const tc_dtrc_decode_out *ob)
{
    if (oa->skipped || ob->skipped)
        return (a->total == 0) == (b->total == 0);
    if (a->total != b->total || a->nfound != b->nfound)
        return 0;
    for (size_t k = 0; k < a->nfound; k++)
        if (a->at[k] != b->at[k] || a->edge_found[k] != b->edge_found[k])
            return 0;
    return 1;
}

static unsigned long long ull(tc_dtrc_bits v) { return (unsigned long long)v; }

static void describe(const char *what, const char *seq, uint64_t count,
                     const tc_dtrc_decode_out *a, const tc_dtrc_decode_out *b)
{
    fprintf(stderr,
            "%s: seq \"%s\" count %llu: code %d/%d edges %llu/%llu edge %u/%u used %llu/%llu "
            "left %llu/%llu weight %llu/%llu bits \"%s\"/\"%s\"\n",
            what, seq, (unsigned long long)count, a->code, b->code,
            (unsigned long long)a->edges, (unsigned long long)b->edges, a->edge, b->edge,
            ull(a->consumed), ull(b->consumed), ull(a->leftover), ull(b->leftover),
            ull(a->weight), ull(b->weight), a->bits, b->bits);
}

/* One chunk through every path; f and rows[] (one per code, zeroed) are
 * shared by the calls, as the reader shares them between the chunks of a
 * process. Returns the number of disagreements (described on stderr). */
typedef struct paths {
    tc_dtrc_fast *fast;       /* built for the unweighted decodings */
    tc_dtrc_fast *fast_w;     /* built for the weighted ones */
    tc_dtrc_rowinfo *rows;    /* for pairing without the fast tables */
    tc_dtrc_rowinfo *rows_w;  /* for pairing with them */
} paths;

static unsigned compare(const tc_dtrc_table *t, const tc_dtrc_dict *d, const char *seq,
                        uint32_t first, uint64_t count, uint64_t budget, const pairing *pr,
                        paths *ps, tc_dtrc_decode_out *ref_out)
{
    unsigned bad = 0;
    tc_dtrc_prog p;
    memset(&p, 0, sizeof p);
    tc_dtrc_err err;
    if (!tc_dtrc_compile_chunk(&p, d, seq, strlen(seq), &err)) {
        fprintf(stderr, "does not compile: \"%s\": %s\n", seq, err.detail);
        tc_dtrc_prog_free(&p);
        return 1;
    }
    cur_table = t;
    tc_dtrc_decode_out ref, out;
    /* Unweighted: code at a time against character at a time. */
    tc_dtrc_decode_in in = {t, d, &p, first, count, NULL, NULL, 0, budget};
    tc_dtrc_decode(&in, &ref);
    tc_dtrc_rows fast_only = {NULL, row_check, edge_at, ps->fast};
    tc_dtrc_decode_rows(&in, &fast_only, 0, &out);
    if (!same_out(&ref, &out)) {
        describe("unweighted, fast", seq, count, &ref, &out);
        bad++;
    }
    /* Weighted: per edge against per row, with and without the fast
     * tables, and with tables made for the other way of weighing (which
     * the decoder must not use). */
    pairing a = *pr, b = *pr, c = *pr, e = *pr;
    tc_dtrc_decode_in win = {t, d, &p, first, count, on_edge, &a, 0, budget};
    tc_dtrc_decode(&win, ref_out);
    struct {
        const char *what;
        pairing *pp;
        tc_dtrc_rows rows;
    } v[] = {
        {"per row", &b, {ps->rows, row_check, edge_at, NULL}},
        {"per row, fast", &c, {ps->rows_w, row_check, edge_at, ps->fast_w}},
        {"per row, unweighted tables", &e, {ps->rows, row_check, edge_at, ps->fast}},
    };
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
        win.user = v[k].pp;
        tc_dtrc_decode_rows(&win, &v[k].rows, 0, &out);
        if (!same_out(ref_out, &out) || !same_findings(&a, ref_out, v[k].pp, &out)) {
            describe(v[k].what, seq, count, ref_out, &out);
            bad++;
        }
    }
    /* The plain path's weight is what its edges weigh. */
    if (ref_out->code != TC_DTRC_E_BUDGET && !ref_out->skipped && ref_out->weight != a.sum) {
        fprintf(stderr, "weight %llu, edges weigh %llu\n", ull(ref_out->weight),
                (unsigned long long)a.sum);
        bad++;
    }
    tc_dtrc_prog_free(&p);
    return bad;
}

typedef struct setup {
    tc_dtrc_fast fast, fast_w;
    tc_dtrc_rowinfo *rows, *rows_w;
    paths ps;
} setup;

static void setup_init(setup *s, const tc_dtrc_table *t)
{
    tc_dtrc_fast_init(&s->fast);
    tc_dtrc_fast_init(&s->fast_w);
    tc_dtrc_fast_build(&s->fast, t);
    tc_dtrc_fast_build(&s->fast_w, t);
    s->rows = calloc(t->nrows + 1, sizeof *s->rows);
    s->rows_w = calloc(t->nrows + 1, sizeof *s->rows_w);
    CU_ASSERT_FATAL(s->rows && s->rows_w);
    s->ps = (paths){&s->fast, &s->fast_w, s->rows, s->rows_w};
}

static void setup_free(setup *s)
{
    tc_dtrc_fast_free(&s->fast);
    tc_dtrc_fast_free(&s->fast_w);
    free(s->rows);
    free(s->rows_w);
}

static const pairing no_findings = {UINT32_MAX, UINT32_MAX, UINT32_MAX, 0, 0, {0}, {0}, 0, 0, 0, 0};

/* ---- tests ---- */

/* The throwaway differential made permanent: 3000 random tables, each
 * with one chunk (and a second one sharing the row checks and tables). */
static void test_random(void)
{
    rng_state = 20240611;
    unsigned bad = 0, used_fast = 0, fine_rows = 0;
    for (unsigned it = 0; it < 3000; it++) {
        tc_dtrc_table t;
        unsigned nedges = 1 + rnd(5);
        random_table(&t, nedges);
        tc_dtrc_dict d;
        unsigned nkeys;
        random_dict(&d, &nkeys);
        setup s;
        setup_init(&s, &t);
        pairing pr = no_findings;
        if (rnd(2)) {
            pr.bad_edge = rnd(3) == 0 ? 1 + rnd(nedges) : UINT32_MAX;
            pr.bad_prev = 1 + rnd(nedges);
            pr.bad_next = 1 + rnd(nedges);
        }
        for (int chunk = 0; chunk < 2; chunk++) {
            char seq[400];
            random_seq(seq, nkeys);
            uint32_t first = 1 + rnd(nedges + (rnd(30) == 0));
            uint64_t count = rnd(4) == 0 ? rnd(50) : rnd(3000000);
            if (rnd(2)) {
                /* Near what the bits hold: the end of the chunk and the
                 * last edge inside a character. */
                tc_dtrc_decode_out probe;
                bad += compare(&t, &d, seq, first, UINT64_MAX, 0, &pr, &s.ps, &probe);
                if (probe.code == TC_DTRC_E_SHORT) {
                    uint64_t back = rnd(probe.edges < 20 ? (unsigned)probe.edges + 1 : 20);
                    count = probe.edges - back + rnd(3);
                }
            }
            tc_dtrc_decode_out ref;
            unsigned b = compare(&t, &d, seq, first, count, 0, &pr, &s.ps, &ref);
            if (b && bad < 10)
                fprintf(stderr, "  (case %u chunk %d, %u edges in the table)\n", it, chunk,
                        nedges);
            bad += b;
        }
        used_fast += s.fast_w.nblocks > 0;
        for (size_t k = 0; k < t.nrows; k++)
            fine_rows += s.rows_w[k].state == TC_DTRC_ROW_FINE;
        setup_free(&s);
        tc_dtrc_dict_free(&d);
        tc_dtrc_table_free(&t);
    }
    CHECK(bad == 0, "%u disagreements between the paths (first ones above)", bad);
    /* The cases do reach the fast paths. */
    CHECK(used_fast > 1000, "the character tables were used in %u cases", used_fast);
    CHECK(fine_rows > 1000, "%u rows paired whole", fine_rows);
}

/* 1-bit codes: up to twelve edges per character, so EDGE_COUNT falls
 * inside a character for most counts, and NEXT_EDGE_IDS lists get cut. */
static void test_count_inside_char(void)
{
    tc_dtrc_table t;
    table(&t, "1:0:1;1:1:2,1;2:0:1,2,1;2:1:2");
    tc_dtrc_dict d;
    tc_dtrc_dict_init(&d);
    tc_dtrc_dict_finish(&d, NULL, NULL);
    setup s;
    setup_init(&s, &t);
    const char *seq = "gAz-9QkLmw0+aZ";
    unsigned bad = 0;
    tc_dtrc_decode_out ref;
    for (uint64_t count = 0; count < 200; count++)
        bad += compare(&t, &d, seq, 1, count, 0, &no_findings, &s.ps, &ref);
    CHECK(bad == 0, "%u disagreements", bad);
    CHECK(s.fast.nblocks > 0 && s.fast_w.nblocks > 0, "the character tables were not used");
    /* The last count the bits hold exactly, and one more. */
    compare(&t, &d, seq, 1, 1000, 0, &no_findings, &s.ps, &ref);
    CU_ASSERT_EQUAL(ref.code, TC_DTRC_E_SHORT);
    setup_free(&s);
    tc_dtrc_table_free(&t);
}

/* Edges whose only code is empty, reached from inside a character, in a
 * chain and in a cycle of their own. */
static void test_empty_codes(void)
{
    tc_dtrc_table t;
    table(&t, "1:0:2;1:1:1;2::3;3:00:1;3:01:4;3:1:2;4::5;5::4,4");
    tc_dtrc_dict d;
    tc_dtrc_dict_init(&d);
    tc_dtrc_dict_finish(&d, NULL, NULL);
    setup s;
    setup_init(&s, &t);
    const char *seqs[] = {"gAz-9QkLmw0+aZ", "(1000*Q)w", "AAAA", "----", "(77*Hg)k"};
    unsigned bad = 0;
    tc_dtrc_decode_out ref;
    for (size_t i = 0; i < sizeof seqs / sizeof seqs[0]; i++)
        for (uint64_t count = 0; count < 120; count++) {
            bad += compare(&t, &d, seqs[i], 1, count, 0, &no_findings, &s.ps, &ref);
            bad += compare(&t, &d, seqs[i], 1, count * 1000003, 0, &no_findings, &s.ps, &ref);
        }
    CHECK(bad == 0, "%u disagreements", bad);
    CHECK(s.fast.nblocks > 0, "the character tables were not used");
    /* Into the cycle of empty codes: any number of edges from no bits. */
    compare(&t, &d, "", 4, UINT64_MAX, 0, &no_findings, &s.ps, &ref);
    CU_ASSERT_EQUAL(ref.code, TC_DTRC_OK);
    CU_ASSERT_EQUAL(ref.edges, UINT64_MAX);
    setup_free(&s);
    tc_dtrc_table_free(&t);
}

/* A table of nedges edges, each with one 32-bit code to the next edge:
 * 32 nodes each (the root and 31 inner nodes; the leaf is the code). */
static void long_code_table(tc_dtrc_table *t, uint32_t nedges)
{
    tc_dtrc_table_init(t);
    for (uint32_t e = 1; e <= nedges; e++) {
        uint32_t next = e % nedges + 1;
        CU_ASSERT_FATAL(tc_dtrc_table_add(t, e, 1, 32, &next, 1, e - 1));
    }
    CU_ASSERT_FATAL(tc_dtrc_table_finish(t, NULL, NULL));
}

/* At the node bound the tables are not made and decoding goes code at a
 * time, with the same results. */
static void test_node_cap(void)
{
    tc_dtrc_dict d;
    tc_dtrc_dict_init(&d);
    tc_dtrc_dict_finish(&d, NULL, NULL);
    /* The codes are "0...01": the bits 0^31 1 0^31 1 ... as characters. */
    char seq[200];
    size_t n = 0;
    for (unsigned bit = 0, v = 0; bit < 6 * 160; bit++) {
        v = (v << 1) | (bit % 32 == 31);
        if (bit % 6 == 5) {
            seq[n++] = b64[v];
            v = 0;
        }
    }
    seq[n] = 0; /* 960 bits: 30 edges after the first */
    tc_dtrc_table t;
    long_code_table(&t, 40);
    tc_dtrc_fast f;
    for (size_t cap = 1278; cap <= 1282; cap++) {
        tc_dtrc_fast_init(&f);
        f.max_nodes = cap;
        tc_dtrc_fast_build(&f, &t);
        CHECK(f.ok == (cap >= 1280), "cap %zu: ok %d with %zu nodes", cap, f.ok, f.nnodes);
        tc_dtrc_fast_free(&f);
    }
    /* Decoding with tables cut short by the bound and with whole ones. */
    unsigned bad = 0;
    for (size_t cap = 1279; cap <= 1280; cap++) {
        setup s;
        tc_dtrc_fast_init(&s.fast);
        tc_dtrc_fast_init(&s.fast_w);
        s.fast.max_nodes = s.fast_w.max_nodes = cap;
        tc_dtrc_fast_build(&s.fast, &t);
        tc_dtrc_fast_build(&s.fast_w, &t);
        CU_ASSERT_EQUAL(s.fast.ok, cap == 1280);
        s.rows = calloc(t.nrows + 1, sizeof *s.rows);
        s.rows_w = calloc(t.nrows + 1, sizeof *s.rows_w);
        CU_ASSERT_FATAL(s.rows && s.rows_w);
        s.ps = (paths){&s.fast, &s.fast_w, s.rows, s.rows_w};
        tc_dtrc_decode_out ref;
        for (uint64_t count = 0; count < 40; count++)
            bad += compare(&t, &d, seq, 1, count, 0, &no_findings, &s.ps, &ref);
        CU_ASSERT_EQUAL(ref.code, TC_DTRC_E_SHORT);
        CU_ASSERT_EQUAL(ref.edges, 31);
        CHECK((s.fast.nblocks > 0) == (cap == 1280), "cap %zu: %zu blocks", cap,
              s.fast.nblocks);
        setup_free(&s);
    }
    CHECK(bad == 0, "%u disagreements", bad);
    tc_dtrc_table_free(&t);
    /* The production bound, 2^21 nodes: 65536 such edges fit exactly, one
     * more does not. */
    for (uint32_t nedges = 65536; nedges <= 65537; nedges++) {
        long_code_table(&t, nedges);
        tc_dtrc_fast_init(&f);
        tc_dtrc_fast_build(&f, &t);
        CHECK(f.ok == (nedges == 65536), "%u edges: ok %d with %zu nodes", nedges, f.ok,
              f.nnodes);
        if (f.ok)
            CU_ASSERT_EQUAL(f.nnodes, TC_DTRC_FAST_MAX_NODES);
        tc_dtrc_prog p;
        memset(&p, 0, sizeof p);
        tc_dtrc_err err;
        CU_ASSERT_FATAL(tc_dtrc_compile_chunk(&p, &d, seq, n, &err));
        tc_dtrc_decode_in in = {&t, &d, &p, 1, 31, NULL, NULL, 0, 0};
        tc_dtrc_rows rows = {NULL, row_check, edge_at, &f};
        tc_dtrc_decode_out a, b;
        tc_dtrc_decode(&in, &a);
        tc_dtrc_decode_rows(&in, &rows, 0, &b);
        CU_ASSERT_EQUAL(a.code, TC_DTRC_OK);
        CU_ASSERT(same_out(&a, &b));
        CU_ASSERT_EQUAL(b.edge, 31);
        tc_dtrc_prog_free(&p);
        tc_dtrc_fast_free(&f);
        tc_dtrc_table_free(&t);
    }
    tc_dtrc_dict_free(&d);
}

/* At the transition-block bound, characters from nodes without a block
 * go code at a time; the blocks made keep being used. */
static void test_block_cap(void)
{
    rng_state = 77;
    tc_dtrc_table t;
    /* 4-bit codes: after each character the decoder is at the root or at
     * one of the 4 nodes of depth 2 of one of four edges: 20 nodes. */
    char spec[2048];
    size_t n = 0;
    for (unsigned e = 1; e <= 4; e++)
        for (unsigned code = 0; code < 16; code++)
            n += (size_t)snprintf(spec + n, sizeof spec - n, "%u:%u%u%u%u:%u%s", e,
                                  code >> 3 & 1, code >> 2 & 1, code >> 1 & 1, code & 1,
                                  1 + (e + code) % 4, e == 4 && code == 15 ? "" : ";");
    table(&t, spec);
    tc_dtrc_dict d;
    tc_dtrc_dict_init(&d);
    tc_dtrc_dict_finish(&d, NULL, NULL);
    char seq[301];
    seq[random_chars(seq, 300)] = 0;
    unsigned bad = 0;
    for (size_t cap = 1; cap <= 30; cap += 4) {
        setup s;
        tc_dtrc_fast_init(&s.fast);
        tc_dtrc_fast_init(&s.fast_w);
        s.fast.max_blocks = s.fast_w.max_blocks = cap;
        tc_dtrc_fast_build(&s.fast, &t);
        tc_dtrc_fast_build(&s.fast_w, &t);
        s.rows = calloc(t.nrows + 1, sizeof *s.rows);
        s.rows_w = calloc(t.nrows + 1, sizeof *s.rows_w);
        CU_ASSERT_FATAL(s.rows && s.rows_w);
        s.ps = (paths){&s.fast, &s.fast_w, s.rows, s.rows_w};
        tc_dtrc_decode_out ref;
        for (uint64_t count = 1; count < 500; count += 7)
            bad += compare(&t, &d, seq, 1, count, 0, &no_findings, &s.ps, &ref);
        /* 1800 bits, 450 codes. */
        bad += compare(&t, &d, seq, 1, 451, 0, &no_findings, &s.ps, &ref);
        CU_ASSERT_EQUAL(ref.code, TC_DTRC_OK);
        CHECK(cap < 20 ? s.fast.nblocks == cap : s.fast.nblocks <= 20, "cap %zu: %zu blocks",
              cap, s.fast.nblocks);
        setup_free(&s);
    }
    CHECK(bad == 0, "%u disagreements", bad);
    tc_dtrc_dict_free(&d);
    tc_dtrc_table_free(&t);
}

/* One row fails pairing: its finding comes at the edge position the
 * per-edge path gives, whichever path decodes the character it is in. */
static void test_pairing_mid_chunk(void)
{
    tc_dtrc_table t;
    /* Row 1:10 holds the pair 3 -> 2 that does not join. */
    table(&t, "1:0:2;1:10:3,2;1:11:1;2:0:1;2:1:3;3:0:1;3:1:2,1");
    tc_dtrc_dict d;
    tc_dtrc_dict_init(&d);
    tc_dtrc_dict_finish(&d, NULL, NULL);
    setup s;
    setup_init(&s, &t);
    pairing pr = no_findings;
    pr.bad_prev = 3;
    pr.bad_next = 2;
    /* "AAAA..." is 0 bits: 1 -> 2 -> 1 ...; "g" = 100000 brings 1:10 in. */
    const char *seq = "AAAAAAAAgAAAAAAAAAAAAAAAAgAAAAAAAAAAAAAAAAAAA";
    tc_dtrc_decode_out ref;
    unsigned bad = 0;
    for (uint64_t count = 1; count < 280; count += 3)
        bad += compare(&t, &d, seq, 1, count, 0, &pr, &s.ps, &ref);
    CHECK(bad == 0, "%u disagreements", bad);
    /* The whole chunk, with the positions spelled out: 48 edges from 48
     * zero bits (1 -> 2 -> 1 ...) lead to edge 1, then "10" gives 3, 2
     * (edges 49 and 50), the finding at 50. */
    pairing a = pr;
    tc_dtrc_prog p;
    memset(&p, 0, sizeof p);
    tc_dtrc_err err;
    CU_ASSERT_FATAL(tc_dtrc_compile_chunk(&p, &d, seq, strlen(seq), &err));
    tc_dtrc_decode_in in = {&t, &d, &p, 1, 60, on_edge, &a, 0, 0};
    tc_dtrc_decode(&in, &ref);
    CU_ASSERT_EQUAL(ref.code, TC_DTRC_E_LEFTOVER);
    CU_ASSERT_EQUAL(a.nfound, 1);
    CU_ASSERT_EQUAL(a.at[0], 50);
    CU_ASSERT_EQUAL(a.edge_found[0], 2);
    pairing b = pr;
    in.user = &b;
    memset(s.rows_w, 0, (t.nrows + 1) * sizeof *s.rows_w);
    tc_dtrc_rows rows = {s.rows_w, row_check, edge_at, &s.fast_w};
    tc_dtrc_decode_out out;
    tc_dtrc_decode_rows(&in, &rows, 0, &out);
    CU_ASSERT(same_out(&ref, &out));
    CU_ASSERT_EQUAL(b.nfound, 1);
    CU_ASSERT_EQUAL(b.at[0], 50);
    /* Rows are checked once each, not once per edge. */
    CHECK(b.row_checks <= t.nrows, "%llu row checks for %zu rows",
          (unsigned long long)b.row_checks, t.nrows);
    tc_dtrc_prog_free(&p);
    setup_free(&s);
    tc_dtrc_dict_free(&d);
    tc_dtrc_table_free(&t);
}

/* Weights (the instructions of the source nodes) summed per edge, per
 * row, per character, through skipped periods and with an edge missing
 * from the DCFG (weight 0). */
static void test_weights(void)
{
    tc_dtrc_table t;
    table(&t, "1:0:2;1:10:3,2;1:11:1;2:0:1;2:1:3;3:0:1;3:1:2,1");
    tc_dtrc_dict d;
    tc_dtrc_dict_init(&d);
    tc_dtrc_dict_finish(&d, NULL, NULL);
    setup s;
    setup_init(&s, &t);
    /* 1, then 2 1 2 1 ... from "A" (6 zero bits): weights 8 and 15. */
    tc_dtrc_decode_out ref;
    CU_ASSERT_EQUAL(compare(&t, &d, "AA", 1, 13, 0, &no_findings, &s.ps, &ref), 0);
    CU_ASSERT_EQUAL(ref.code, TC_DTRC_OK);
    CU_ASSERT(ref.weight == 7 * 8 + 6 * 15);
    /* A million periods skipped: the weight still counts them. */
    CU_ASSERT_EQUAL(compare(&t, &d, "(1000000*A)", 1, 6000001, 0, &no_findings, &s.ps, &ref),
                    0);
    CU_ASSERT_EQUAL(ref.code, TC_DTRC_OK);
    CU_ASSERT(ref.skipped > 0);
    CU_ASSERT(ref.weight == 3000001ull * 8 + 3000000ull * 15);
    /* Edge 3 missing from the DCFG: its rows go edge by edge, it weighs 0.
     * Another DCFG: row checks and tables start again, as for each
     * process in the reader (the tables hold the rows' weights). */
    pairing pr = no_findings;
    pr.bad_edge = 3;
    setup_free(&s);
    setup_init(&s, &t);
    unsigned bad = 0;
    const char *seqs[] = {"gAgA", "(500*gA)Q", "w-w-w-(9*AB)"};
    for (size_t i = 0; i < 3; i++)
        for (uint64_t count = 1; count < 3000; count += 11)
            bad += compare(&t, &d, seqs[i], 1, count, 0, &pr, &s.ps, &ref);
    CHECK(bad == 0, "%u disagreements", bad);
    setup_free(&s);
    tc_dtrc_dict_free(&d);
    tc_dtrc_table_free(&t);
}

/* Runs of one character that bring the decoder back to where it was
 * (here through empty codes, which the character tables take along): the
 * run is added at once, and stops exactly where the count, the budget or a
 * row failing pairing ask. */
static void test_runs(void)
{
    tc_dtrc_table t;
    /* "0" from 1 leads to 2, whose empty code leads back to 1: each zero
     * bit gives 2 edges; "1" from 1 gives 3 then 1. */
    table(&t, "1:0:2;1:1:3,1;2::1;3:0:1");
    tc_dtrc_dict d;
    tc_dtrc_dict_init(&d);
    tc_dtrc_dict_finish(&d, NULL, NULL);
    /* Row states are kept between chunks: one set per way of pairing. */
    setup s, sb;
    setup_init(&s, &t);
    setup_init(&sb, &t);
    char seqs[4][200];
    memset(seqs[0], 'A', 150);
    seqs[0][150] = 0;
    snprintf(seqs[1], sizeof seqs[1], "%.*sg%.*s-%.*s", 17, seqs[0], 9, seqs[0], 70, seqs[0]);
    memset(seqs[2], '-', 99); /* one bits: 1 -> 3, 1 -> ... */
    seqs[2][99] = 0;
    snprintf(seqs[3], sizeof seqs[3], "(3*%.*s)Q%.*s", 23, seqs[0], 8, seqs[0]);
    pairing pr = no_findings;
    pr.bad_prev = 2; /* 2 -> 1 does not join */
    pr.bad_next = 1;
    unsigned bad = 0;
    tc_dtrc_decode_out ref;
    for (size_t i = 0; i < 4; i++)
        for (uint64_t count = 1; count < 2000; count += 1 + count / 64) {
            bad += compare(&t, &d, seqs[i], 1, count, 0, &no_findings, &s.ps, &ref);
            bad += compare(&t, &d, seqs[i], 1, count, 0, &pr, &sb.ps, &ref);
            bad += compare(&t, &d, seqs[i], 1, count, 1 + count / 3, &no_findings, &s.ps,
                           &ref);
        }
    CHECK(bad == 0, "%u disagreements", bad);
    /* The whole first run: 150 characters, 900 zero bits, 1801 edges. */
    compare(&t, &d, seqs[0], 1, 1801, 0, &no_findings, &s.ps, &ref);
    CU_ASSERT_EQUAL(ref.code, TC_DTRC_OK);
    compare(&t, &d, seqs[0], 1, 1802, 0, &no_findings, &s.ps, &ref);
    CU_ASSERT_EQUAL(ref.code, TC_DTRC_E_SHORT);
    CU_ASSERT(s.fast.nblocks > 0 && s.fast_w.nblocks > 0);
    setup_free(&s);
    setup_free(&sb);
    tc_dtrc_table_free(&t);
}

/* The budget holds with the fast paths: a doubling dictionary gives up in
 * every path, or is decided from counts in every path. */
static void test_budget(void)
{
    tc_dtrc_table t;
    table(&t, "1:000000:1;1:1:1");
    tc_dtrc_dict d;
    tc_dtrc_dict_init(&d);
    char key[8], val[32];
    CU_ASSERT_FATAL(tc_dtrc_dict_add(&d, "k0", 2, "A", 1));
    for (int i = 1; i <= 40; i++) {
        int kn = snprintf(key, sizeof key, "k%d", i);
        int vn = snprintf(val, sizeof val, "<k%d><k%d>", i - 1, i - 1);
        CU_ASSERT_FATAL(tc_dtrc_dict_add(&d, key, (size_t)kn, val, (size_t)vn));
    }
    tc_dtrc_dict_finish(&d, NULL, NULL);
    setup s;
    setup_init(&s, &t);
    tc_dtrc_prog p;
    memset(&p, 0, sizeof p);
    tc_dtrc_err err;
    CU_ASSERT_FATAL(tc_dtrc_compile_chunk(&p, &d, "<k40>", 5, &err));
    struct {
        uint64_t count;
        int code;
    } cases[] = {
        {(1ull << 40) + 1, TC_DTRC_E_BUDGET}, /* as many edges as characters */
        {UINT64_MAX, TC_DTRC_E_SHORT},        /* more than the bits can hold */
        {1000000, TC_DTRC_E_LEFTOVER},        /* far fewer */
    };
    for (size_t k = 0; k < 3; k++) {
        tc_dtrc_decode_in in = {&t, &d, &p, 1, cases[k].count, NULL, NULL, 0, 10000};
        tc_dtrc_rows rows = {NULL, row_check, edge_at, &s.fast};
        tc_dtrc_decode_out a, b;
        tc_dtrc_decode(&in, &a);
        tc_dtrc_decode_rows(&in, &rows, 0, &b);
        CHECK(a.code == cases[k].code && b.code == cases[k].code, "count %llu: %d and %d",
              (unsigned long long)cases[k].count, a.code, b.code);
        /* Each character costs at least a unit either way. */
        CHECK(a.edges <= 10000 && b.edges <= 10000, "%llu and %llu edges in 10000 units",
              (unsigned long long)a.edges, (unsigned long long)b.edges);
    }
    CU_ASSERT(s.fast.nblocks > 0);
    tc_dtrc_prog_free(&p);
    setup_free(&s);
    tc_dtrc_dict_free(&d);
    tc_dtrc_table_free(&t);
}

static const tu_test tests[] = {
    {"random tables and sequences: every path agrees", test_random},
    {"EDGE_COUNT inside a character", test_count_inside_char},
    {"empty codes", test_empty_codes},
    {"node bound of the character tables", test_node_cap},
    {"transition-block bound", test_block_cap},
    {"a row failing pairing mid-chunk", test_pairing_mid_chunk},
    {"weights per edge, per row, per character", test_weights},
    {"work budget with the fast paths", test_budget},
    {"runs of one character", test_runs},
    {NULL, NULL},
};

void register_dtrc_fast_suite(void) { tu_add_suite("dtrc_fast", tests); }
