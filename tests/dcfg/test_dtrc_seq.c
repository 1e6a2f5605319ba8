/*
 * DCFG-trace sequences without JSON: compiling edge-id sequence strings,
 * the dictionary, the transition table and the decoder (dtrc_seq.h,
 * dtrc_table.h, dtrc_decode.h), on the document's examples (§3.5, §3.7.1)
 * and on hostile strings whose expansion no machine could hold.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/dcfg/dtrc_decode.h"
#include "../suites.h"
#include "../tu.h"

/* ---- helpers ---- */

/* A table from "EDGE:CODE:NEXT,NEXT;..." (CODE may be empty). Problems are
 * counted by kind. */
typedef struct probs {
    int n[4];
    uint32_t row, other;
} probs;

static void on_problem(void *user, int kind, const tc_dtrc_row *row, const tc_dtrc_row *other)
{
    probs *p = user;
    p->n[kind]++;
    p->row = row->row;
    p->other = other->row;
}

static void table(tc_dtrc_table *t, const char *spec, probs *pr)
{
    tc_dtrc_table_init(t);
    char *s = strdup(spec), *save = NULL;
    uint32_t row = 0;
    for (char *r = strtok_r(s, ";", &save); r; r = strtok_r(NULL, ";", &save)) {
        char *c1 = strchr(r, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        CU_ASSERT_FATAL(c1 && c2);
        uint32_t edge = (uint32_t)strtoul(r, NULL, 10), pad, next[16];
        uint8_t len;
        CU_ASSERT_FATAL(tc_dtrc_parse_code(c1 + 1, (size_t)(c2 - c1 - 1), &pad, &len));
        size_t nn = 0;
        for (char *q = c2 + 1; *q && nn < 16;) {
            next[nn++] = (uint32_t)strtoul(q, &q, 10);
            if (*q == ',')
                q++;
        }
        CU_ASSERT_FATAL(tc_dtrc_table_add(t, edge, pad, len, next, nn, row++));
    }
    free(s);
    probs dummy;
    memset(&dummy, 0, sizeof dummy);
    CU_ASSERT_FATAL(tc_dtrc_table_finish(t, on_problem, pr ? pr : &dummy));
}

typedef struct edges {
    uint32_t id[4096];
    size_t n;
} edges;

static uint64_t collect(void *user, uint32_t edge)
{
    edges *e = user;
    if (e->n < 4096)
        e->id[e->n++] = edge;
    return edge; /* a weight that shows the sum is taken */
}

static void on_bad(void *user, size_t entry, const tc_dtrc_err *err)
{
    tc_dtrc_err *last = user;
    *last = *err;
    last->pos = entry;
}

/* A dictionary from "key=value" pairs separated by spaces; the last bad
 * entry's error lands in *bad. */
static void dict(tc_dtrc_dict *d, const char *spec, tc_dtrc_err *bad)
{
    tc_dtrc_dict_init(d);
    memset(bad, 0, sizeof *bad);
    char *s = strdup(spec), *save = NULL;
    for (char *kv = strtok_r(s, " ", &save); kv; kv = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(kv, '=');
        CU_ASSERT_FATAL(eq != NULL);
        CU_ASSERT_FATAL(tc_dtrc_dict_add(d, kv, (size_t)(eq - kv), eq + 1, strlen(eq + 1)));
    }
    free(s);
    tc_dtrc_dict_finish(d, on_bad, bad);
}

typedef struct run {
    tc_dtrc_decode_out out;
    edges e;
    tc_dtrc_err err;
    int compiled;
} run;

/* Compiles seq against d and decodes count edges from first. */
static int decode(const tc_dtrc_table *t, const tc_dtrc_dict *d, const char *seq, uint32_t first,
                  uint64_t count, int no_skip, uint64_t budget, run *r)
{
    memset(r, 0, sizeof *r);
    tc_dtrc_prog p;
    memset(&p, 0, sizeof p);
    r->compiled = tc_dtrc_compile_chunk(&p, d, seq, strlen(seq), &r->err);
    if (!r->compiled) {
        tc_dtrc_prog_free(&p);
        return -1;
    }
    tc_dtrc_decode_in in = {t, d, &p, first, count, collect, &r->e, no_skip, budget};
    tc_dtrc_decode(&in, &r->out);
    tc_dtrc_prog_free(&p);
    return r->out.code;
}

static const char *bits(tc_dtrc_bits v)
{
    static char buf[64];
    tc_dtrc_bits_str(v, buf, sizeof buf);
    return buf;
}

/* The document's table of §3.5. */
static const char *doc_table = "123:0:124;123:1:125;124::456;125:0:543;125:10:542,549;"
                               "125:11:540,541";
/* One bit per edge: a 0 goes to edge 1, a 1 to edge 2, from either. */
static const char *bit_table = "1:0:1;1:1:2;2:0:1;2:1:2";

/* ---- the document's examples ---- */

static void test_doc_example_1(void)
{
    tc_dtrc_table t;
    tc_dtrc_dict d;
    tc_dtrc_err bad;
    run r;
    table(&t, doc_table, NULL);
    dict(&d, "", &bad);
    /* "110" then padding: 110000 is 'w' (48). */
    CU_ASSERT_EQUAL(decode(&t, &d, "w", 123, 4, 1, 0, &r), TC_DTRC_OK);
    CU_ASSERT_EQUAL(r.e.n, 4);
    uint32_t want[] = {123, 125, 542, 549};
    CU_ASSERT(r.e.n == 4 && memcmp(r.e.id, want, sizeof want) == 0);
    CU_ASSERT(r.out.consumed == 3);
    CU_ASSERT(r.out.weight == 123 + 125 + 542 + 549);
    tc_dtrc_dict_free(&d);
    tc_dtrc_table_free(&t);
}

static void test_doc_example_2(void)
{
    tc_dtrc_table t;
    tc_dtrc_dict d;
    tc_dtrc_err bad;
    run r;
    table(&t, doc_table, NULL);
    dict(&d, "", &bad);
    /* "0": 124 needs no bit, so 456 follows for free. */
    CU_ASSERT_EQUAL(decode(&t, &d, "A", 123, 3, 1, 0, &r), TC_DTRC_OK);
    uint32_t want[] = {123, 124, 456};
    CU_ASSERT(r.e.n == 3 && memcmp(r.e.id, want, sizeof want) == 0);
    CU_ASSERT(r.out.consumed == 1 && r.out.total == 6);
    tc_dtrc_dict_free(&d);
    tc_dtrc_table_free(&t);
}

/* "C+" is 000010 111110 (§3.7.1.1); eleven bits are fine too. */
static void test_c_plus(void)
{
    tc_dtrc_table t;
    tc_dtrc_dict d;
    tc_dtrc_err bad;
    run r;
    table(&t, bit_table, NULL);
    dict(&d, "", &bad);
    CU_ASSERT_EQUAL(decode(&t, &d, "C+", 1, 13, 1, 0, &r), TC_DTRC_OK);
    const char *expect = "000010111110";
    CU_ASSERT_EQUAL_FATAL(r.e.n, 13);
    for (size_t i = 0; i < 12; i++)
        CHECK(r.e.id[i + 1] == (uint32_t)(expect[i] - '0' + 1), "bit %zu: edge %u", i,
              r.e.id[i + 1]);
    CU_ASSERT_EQUAL(decode(&t, &d, "C+", 1, 12, 1, 0, &r), TC_DTRC_OK);
    /* '-' is 63 (ruling 1), and so is '.', which the compiler counts. */
    CU_ASSERT_EQUAL(decode(&t, &d, "-", 1, 7, 1, 0, &r), TC_DTRC_OK);
    CU_ASSERT(r.e.id[6] == 2);
    tc_dtrc_prog p;
    memset(&p, 0, sizeof p);
    tc_dtrc_err err;
    CU_ASSERT(tc_dtrc_compile_chunk(&p, &d, "AB.C", 4, &err));
    CU_ASSERT(p.dots == 1 && p.first_dot == 2 && p.vals[2] == 63);
    tc_dtrc_prog_free(&p);
    tc_dtrc_dict_free(&d);
    tc_dtrc_table_free(&t);
}

/* Two strings give the same bits: the same edges through bit_table. */
static void same_bits(const tc_dtrc_dict *d, const char *a, const char *b)
{
    tc_dtrc_table t;
    table(&t, bit_table, NULL);
    run *ra = malloc(sizeof *ra), *rb = malloc(sizeof *rb);
    tc_dtrc_prog p;
    memset(&p, 0, sizeof p);
    tc_dtrc_err err;
    CU_ASSERT_FATAL(tc_dtrc_compile_chunk(&p, d, b, strlen(b), &err));
    uint64_t n = (uint64_t)p.bits + 1;
    tc_dtrc_prog_free(&p);
    CHECK(decode(&t, d, a, 1, n, 1, 0, ra) == TC_DTRC_OK, "%s: %d", a, ra->out.code);
    CHECK(decode(&t, d, b, 1, n, 1, 0, rb) == TC_DTRC_OK, "%s: %d", b, rb->out.code);
    CHECK(ra->e.n == rb->e.n && memcmp(ra->e.id, rb->e.id, ra->e.n * sizeof ra->e.id[0]) == 0,
          "%s and %s decode differently", a, b);
    free(ra);
    free(rb);
    tc_dtrc_table_free(&t);
}

static void test_repeat_examples(void)
{
    tc_dtrc_dict d;
    tc_dtrc_err bad;
    dict(&d, "", &bad);
    same_bits(&d, "A(4*BC)D", "ABCBCBCBCD");
    /* The document prints five a's per group; (6*a) is six. */
    same_bits(&d, "123(2*(6*a)b)456", "123aaaaaabaaaaaab456");
    same_bits(&d, "(1*(1*(1*x)))(0*zz)", "x");
    tc_dtrc_dict_free(&d);
}

static void test_dictionary_examples(void)
{
    tc_dtrc_dict d;
    tc_dtrc_err bad;
    dict(&d, "a=bks2hD7kB+KDk87(6*AB)Aw3ABD9 b=KkDk123(42*(25*a))45690D<a>7Fjdkpm", &bad);
    CU_ASSERT_EQUAL(bad.code, TC_DTRC_OK);
    same_bits(&d, "A<a>B", "Abks2hD7kB+KDk87(6*AB)Aw3ABD9B");
    same_bits(&d, "(2*A<a>B)", "A<a>BA<a>B");
    same_bits(&d, "(2*A<a>B)",
              "Abks2hD7kB+KDk87(6*AB)Aw3ABD9BAbks2hD7kB+KDk87(6*AB)Aw3ABD9B");
    same_bits(&d, "A<b>B", "AKkDk123(42*(25*a))45690Dbks2hD7kB+KDk87(6*AB)Aw3ABD97FjdkpmB");
    tc_dtrc_prog p;
    memset(&p, 0, sizeof p);
    tc_dtrc_err err;
    CU_ASSERT(tc_dtrc_compile_chunk(&p, &d, "<b>", 3, &err));
    /* 7 + 42*25 + 8 + 28 ... counted, not expanded: 1050 a's in b. */
    CU_ASSERT(p.bits == (tc_dtrc_bits)(7 + 42 * 25 + 6 + (15 + 12 + 7) + 7) * 6);
    tc_dtrc_prog_free(&p);
    tc_dtrc_dict_free(&d);
}

/* ---- compile errors, each alone ---- */

static void expect_compile(const char *seq, int code, size_t pos, const char *needle)
{
    tc_dtrc_dict d;
    tc_dtrc_err bad, err;
    dict(&d, "k=A", &bad);
    tc_dtrc_prog p;
    memset(&p, 0, sizeof p);
    int ok = tc_dtrc_compile_chunk(&p, &d, seq, strlen(seq), &err);
    CHECK(!ok && err.code == code && err.pos == pos, "%s: ok %d code %d pos %zu (%s)", seq, ok,
          err.code, err.pos, err.detail);
    if (!ok && needle)
        CHECK(strstr(err.detail, needle) != NULL, "%s: '%s' not in '%s'", seq, needle,
              err.detail);
    tc_dtrc_prog_free(&p);
    tc_dtrc_dict_free(&d);
}

static void test_compile_errors(void)
{
    expect_compile("A B", TC_DTRC_E_CHAR, 1, "' '");
    expect_compile("AB/", TC_DTRC_E_CHAR, 2, "'/'");
    expect_compile("A=", TC_DTRC_E_CHAR, 1, "'='");
    expect_compile("(*A)", TC_DTRC_E_REPEAT, 0, "(*A)");
    expect_compile("B(3A)", TC_DTRC_E_REPEAT, 1, "(3A)");
    expect_compile("(3", TC_DTRC_E_REPEAT, 0, NULL);
    expect_compile("(3*A", TC_DTRC_E_PAREN, 0, "never closed");
    expect_compile("A)", TC_DTRC_E_PAREN, 1, "closes no");
    expect_compile("(18446744073709551616*A)", TC_DTRC_E_COUNT, 0, "18446744073709551616");
    expect_compile("(123456789012345678901234567890*A)", TC_DTRC_E_COUNT, 0, NULL);
    expect_compile("A<k", TC_DTRC_E_REF, 1, "no closing");
    expect_compile("<a/b>", TC_DTRC_E_REF, 0, "a/b");
    expect_compile("<>", TC_DTRC_E_REF, 0, "empty");
    expect_compile("<k.>", TC_DTRC_E_REF, 0, "k.");
    expect_compile("AA<zz>", TC_DTRC_E_MISSING, 2, "\"zz\"");
    /* The largest count is fine. */
    tc_dtrc_dict d;
    tc_dtrc_err bad, err;
    dict(&d, "", &bad);
    tc_dtrc_prog p;
    memset(&p, 0, sizeof p);
    CU_ASSERT(tc_dtrc_compile_chunk(&p, &d, "(18446744073709551615*A)", 24, &err));
    CU_ASSERT(p.bits == (tc_dtrc_bits)UINT64_MAX * 6);
    CU_ASSERT(tc_dtrc_key_ok("aZ09+-", 6) && !tc_dtrc_key_ok("a b", 3) && !tc_dtrc_key_ok("", 0));
    tc_dtrc_prog_free(&p);
    tc_dtrc_dict_free(&d);
}

static void test_nesting(void)
{
    /* 300 nested repeats: beyond the decoder's stack of 256. */
    char s[2000];
    size_t n = 0;
    for (int i = 0; i < 300; i++)
        n += (size_t)sprintf(s + n, "(1*");
    s[n++] = 'A';
    for (int i = 0; i < 300; i++)
        s[n++] = ')';
    s[n] = '\0';
    expect_compile(s, TC_DTRC_E_NESTING, 256 * 3, "256");
    /* 200 deep is fine and decodes. */
    tc_dtrc_dict d;
    tc_dtrc_err bad;
    dict(&d, "", &bad);
    n = 0;
    for (int i = 0; i < 200; i++)
        n += (size_t)sprintf(s + n, "(2*");
    s[n++] = 'A';
    for (int i = 0; i < 200; i++)
        s[n++] = ')';
    s[n] = '\0';
    tc_dtrc_table t;
    table(&t, "1:000000:1", NULL);
    run r;
    /* 2^200 characters: only the first three edges are wanted. */
    CU_ASSERT_EQUAL(decode(&t, &d, s, 1, 3, 0, 0, &r), TC_DTRC_E_LEFTOVER);
    CU_ASSERT(r.out.leftover == TC_DTRC_BITS_SAT - 12);
    CHECK(strstr(bits(r.out.total), "or more") != NULL, "%s", bits(r.out.total));
    tc_dtrc_table_free(&t);
    tc_dtrc_dict_free(&d);
    /* A chain of 300 references is as deep. */
    char *spec = malloc(300 * 16);
    n = 0;
    for (int i = 0; i < 299; i++)
        n += (size_t)sprintf(spec + n, "k%d=<k%d> ", i, i + 1);
    sprintf(spec + n, "k299=A");
    dict(&d, spec, &bad);
    CU_ASSERT_EQUAL(bad.code, TC_DTRC_E_NESTING);
    free(spec);
    tc_dtrc_dict_free(&d);
}

static void test_dictionary_errors(void)
{
    tc_dtrc_dict d;
    tc_dtrc_err bad, err;
    tc_dtrc_prog p;
    memset(&p, 0, sizeof p);
    /* A cycle of length 1. */
    dict(&d, "a=A<a>", &bad);
    CU_ASSERT_EQUAL(bad.code, TC_DTRC_E_CYCLE);
    CHECK(strstr(bad.detail, "a -> a") != NULL, "%s", bad.detail);
    CU_ASSERT(tc_dtrc_compile_chunk(&p, &d, "<a>", 3, &err));
    CU_ASSERT(tc_dtrc_prog_tainted(&p, &d));
    tc_dtrc_dict_free(&d);
    /* A cycle of length 3, reported once, on the entry that closes it. */
    dict(&d, "a=<b> b=B<c> c=(2*<a>) e=E", &bad);
    CU_ASSERT_EQUAL(bad.code, TC_DTRC_E_CYCLE);
    CHECK(strstr(bad.detail, "a -> b -> c -> a") != NULL, "%s", bad.detail);
    CU_ASSERT_EQUAL(bad.pos, 2); /* entry c */
    CU_ASSERT(tc_dtrc_compile_chunk(&p, &d, "<e>", 3, &err));
    CU_ASSERT(!tc_dtrc_prog_tainted(&p, &d));
    CU_ASSERT(tc_dtrc_compile_chunk(&p, &d, "<b>", 3, &err));
    CU_ASSERT(tc_dtrc_prog_tainted(&p, &d));
    tc_dtrc_dict_free(&d);
    /* A missing key inside a value; a bad character. */
    dict(&d, "a=<nope>", &bad);
    CU_ASSERT_EQUAL(bad.code, TC_DTRC_E_MISSING);
    tc_dtrc_dict_free(&d);
    dict(&d, "a=A*", &bad);
    CU_ASSERT_EQUAL(bad.code, TC_DTRC_E_CHAR);
    tc_dtrc_dict_free(&d);
    tc_dtrc_prog_free(&p);
}

/* ---- transition tables (ruling 10) ---- */

static void test_table_checks(void)
{
    uint32_t pad;
    uint8_t len;
    CU_ASSERT(tc_dtrc_parse_code("", 0, &pad, &len) && len == 0);
    CU_ASSERT(tc_dtrc_parse_code("10", 2, &pad, &len) && pad == 0x80000000u && len == 2);
    CU_ASSERT(!tc_dtrc_parse_code("012", 3, &pad, &len));
    CU_ASSERT(tc_dtrc_parse_code("11111111111111111111111111111111", 32, &pad, &len) &&
              pad == UINT32_MAX);
    CU_ASSERT(!tc_dtrc_parse_code("111111111111111111111111111111111", 33, &pad, &len));

    tc_dtrc_table t;
    probs pr;
    memset(&pr, 0, sizeof pr);
    table(&t, doc_table, &pr);
    CU_ASSERT(pr.n[1] + pr.n[2] + pr.n[3] == 0);
    CU_ASSERT(t.maxlen == 2 && t.maxnext == 2 && t.has_empty);
    tc_dtrc_table_free(&t);

    memset(&pr, 0, sizeof pr);
    table(&t, "5:0:1;5:00:2", &pr); /* equal once padded */
    CU_ASSERT(pr.n[TC_DTRC_T_DUPLICATE] == 1 && pr.row == 1 && pr.other == 0);
    tc_dtrc_table_free(&t);
    memset(&pr, 0, sizeof pr);
    table(&t, "5:1:1;6:1:1;5:1:2", &pr);
    CU_ASSERT(pr.n[TC_DTRC_T_DUPLICATE] == 1 && pr.row == 2);
    tc_dtrc_table_free(&t);

    memset(&pr, 0, sizeof pr);
    table(&t, "5:01:1;5:0:2;5:1:3", &pr); /* "0" is a prefix of "01" */
    CU_ASSERT(pr.n[TC_DTRC_T_PREFIX] == 1 && pr.row == 0 && pr.other == 1);
    CU_ASSERT(pr.n[TC_DTRC_T_DUPLICATE] == 0);
    tc_dtrc_table_free(&t);

    memset(&pr, 0, sizeof pr);
    table(&t, "5:1:1;5::2", &pr); /* the empty code is not alone */
    CU_ASSERT(pr.n[TC_DTRC_T_EMPTY] == 1 && pr.row == 0 && pr.other == 1);
    CU_ASSERT(pr.n[TC_DTRC_T_DUPLICATE] + pr.n[TC_DTRC_T_PREFIX] == 0);
    tc_dtrc_table_free(&t);

    /* Lookups: present, absent; codes matched with the fewest bits. */
    table(&t, doc_table, NULL);
    const tc_dtrc_entry *e = tc_dtrc_table_find(&t, 125);
    CU_ASSERT_FATAL(e != NULL);
    CU_ASSERT(tc_dtrc_table_find(&t, 999) == NULL);
    const tc_dtrc_code *c = tc_dtrc_table_match(&t, e, 0xC0000000u, 32);
    CU_ASSERT(c && c->len == 2 && t.ids[c->next] == 540);
    c = tc_dtrc_table_match(&t, e, 0x40000000u, 32);
    CU_ASSERT(c && c->len == 1 && t.ids[c->next] == 543);
    CU_ASSERT(tc_dtrc_table_match(&t, e, 0x80000000u, 1) == NULL);
    CU_ASSERT(tc_dtrc_table_prefix(&t, e, 0x80000000u, 1));
    tc_dtrc_table_free(&t);
}

/* ---- decoding errors, each alone ---- */

static void test_decode_errors(void)
{
    tc_dtrc_table t;
    tc_dtrc_dict d;
    tc_dtrc_err bad;
    run r;
    dict(&d, "", &bad);
    table(&t, doc_table, NULL);
    /* Ran out: 'w' is 110000; after 542 549 the current edge 549 has no
     * entry... so ask from 125 where 0 0 0 0 leads to 543, which has none. */
    CU_ASSERT_EQUAL(decode(&t, &d, "w", 123, 5, 1, 0, &r), TC_DTRC_E_NO_ENTRY);
    CU_ASSERT(r.out.edge == 549 && r.out.edges == 4 && r.out.consumed == 3);
    tc_dtrc_table_free(&t);

    table(&t, "1:00:1;1:01:2;2:0:1;2:1:2", NULL);
    /* 'g' = 100000: "10" matches no code of edge 1. */
    CU_ASSERT_EQUAL(decode(&t, &d, "g", 1, 2, 1, 0, &r), TC_DTRC_E_NO_CODE);
    CU_ASSERT_STRING_EQUAL(r.out.bits, "10");
    CU_ASSERT(r.out.edges == 1 && r.out.consumed == 0);
    /* 'A' = 000000 is three edges; a fourth runs out with no bit left. */
    CU_ASSERT_EQUAL(decode(&t, &d, "A", 1, 4, 1, 0, &r), TC_DTRC_OK);
    CU_ASSERT_EQUAL(decode(&t, &d, "A", 1, 5, 1, 0, &r), TC_DTRC_E_SHORT);
    CU_ASSERT(r.out.edges == 4 && r.out.consumed == 6);
    /* 'B' = 000001: the last bit "1" is only the start of a code. */
    tc_dtrc_table_free(&t);
    table(&t, "1:0:1;1:11:1", NULL);
    CU_ASSERT_EQUAL(decode(&t, &d, "B", 1, 6, 1, 0, &r), TC_DTRC_OK);
    CU_ASSERT_EQUAL(decode(&t, &d, "B", 1, 7, 1, 0, &r), TC_DTRC_E_SHORT);
    CU_ASSERT_STRING_EQUAL(r.out.bits, "1");
    tc_dtrc_table_free(&t);

    /* Leftover: six unused bits or more. */
    table(&t, bit_table, NULL);
    CU_ASSERT_EQUAL(decode(&t, &d, "AA", 1, 7, 1, 0, &r), TC_DTRC_E_LEFTOVER);
    CU_ASSERT(r.out.leftover == 6);
    CU_ASSERT_EQUAL(decode(&t, &d, "AA", 1, 8, 1, 0, &r), TC_DTRC_OK);
    /* EDGE_COUNT 0 and 1 want no bit at all. */
    CU_ASSERT_EQUAL(decode(&t, &d, "", 1, 0, 1, 0, &r), TC_DTRC_OK);
    CU_ASSERT(r.e.n == 0);
    CU_ASSERT_EQUAL(decode(&t, &d, "A", 1, 1, 1, 0, &r), TC_DTRC_E_LEFTOVER);
    CU_ASSERT_EQUAL(decode(&t, &d, "A", 7, 0, 1, 0, &r), TC_DTRC_E_LEFTOVER);
    /* A first edge with no entry only matters when a second is wanted. */
    CU_ASSERT_EQUAL(decode(&t, &d, "", 99, 1, 1, 0, &r), TC_DTRC_OK);
    CU_ASSERT_EQUAL(decode(&t, &d, "A", 99, 2, 1, 0, &r), TC_DTRC_E_NO_ENTRY);
    CU_ASSERT(r.out.edge == 99 && r.out.edges == 1);
    tc_dtrc_table_free(&t);
    tc_dtrc_dict_free(&d);
}

/* ---- hostile sizes: counted, never walked ---- */

static void test_huge_repeats(void)
{
    tc_dtrc_table t;
    tc_dtrc_dict d;
    tc_dtrc_err bad;
    run r;
    const char *huge = "(4000000000*(4000000000*A))"; /* 9.6e19 bits */
    dict(&d, "", &bad);
    /* One 6-bit code: 1.6e19 edges exactly, valid. */
    table(&t, "1:000000:1", NULL);
    CU_ASSERT_EQUAL(decode(&t, &d, huge, 1, 16000000000000000001ull, 0, 0, &r), TC_DTRC_OK);
    CU_ASSERT(r.out.edges == 16000000000000000001ull);
    CU_ASSERT(r.out.consumed == (tc_dtrc_bits)16000000000000000000ull * 6);
    CU_ASSERT(r.out.skipped > 15000000000000000000ull);
    CU_ASSERT(r.out.weight == (tc_dtrc_bits)16000000000000000001ull); /* weight 1 each */
    /* A few edges: stop early, count the rest as left over. */
    CU_ASSERT_EQUAL(decode(&t, &d, huge, 1, 10, 0, 0, &r), TC_DTRC_E_LEFTOVER);
    CU_ASSERT(r.out.leftover == (tc_dtrc_bits)16000000000000000000ull * 6 - 54);
    CHECK(!strcmp(bits(r.out.leftover), "95999999999999999946"), "%s", bits(r.out.leftover));
    /* More edges than the bits hold. */
    CU_ASSERT_EQUAL(decode(&t, &d, huge, 1, UINT64_MAX, 0, 0, &r), TC_DTRC_E_SHORT);
    CU_ASSERT(r.out.edges == 16000000000000000001ull);
    tc_dtrc_table_free(&t);

    /* One bit per edge: all 2^64-1 edges use 1.8e19 of the 9.6e19 bits. */
    table(&t, bit_table, NULL);
    CU_ASSERT_EQUAL(decode(&t, &d, huge, 1, UINT64_MAX, 0, 0, &r), TC_DTRC_E_LEFTOVER);
    CU_ASSERT(r.out.edges == UINT64_MAX);
    CU_ASSERT(r.out.consumed == (tc_dtrc_bits)UINT64_MAX - 1);
    tc_dtrc_table_free(&t);

    /* Four bits per edge: the state comes back every second 'A'. */
    char spec[2000];
    size_t n = 0;
    for (int i = 0; i < 16; i++) {
        char code[5];
        for (int b = 0; b < 4; b++)
            code[b] = (char)('0' + ((i >> (3 - b)) & 1));
        code[4] = '\0';
        n += (size_t)sprintf(spec + n, "%s1:%s:1", i ? ";" : "", code);
    }
    table(&t, spec, NULL);
    CU_ASSERT_EQUAL(decode(&t, &d, "(1000000000000*A)", 1, 1500000000001ull, 0, 0, &r),
                    TC_DTRC_OK);
    CU_ASSERT(r.out.consumed == 6000000000000ull);
    tc_dtrc_table_free(&t);

    /* The empty code: edges without bits, a cycle of two edges. */
    table(&t, "1::2;2::1", NULL);
    CU_ASSERT_EQUAL(decode(&t, &d, "", 1, UINT64_MAX, 0, 0, &r), TC_DTRC_OK);
    CU_ASSERT(r.out.edges == UINT64_MAX && r.out.consumed == 0);
    CU_ASSERT(r.out.weight == (tc_dtrc_bits)(UINT64_MAX / 2) * 2 + (UINT64_MAX / 2 + 1));
    CU_ASSERT_EQUAL(decode(&t, &d, huge, 1, UINT64_MAX, 0, 0, &r), TC_DTRC_E_LEFTOVER);
    tc_dtrc_table_free(&t);
    tc_dtrc_dict_free(&d);
}

static void test_budget(void)
{
    /* Entries that double each other: 2^60 characters, no repeat to skip. */
    char spec[4000];
    size_t n = (size_t)sprintf(spec, "a0=A");
    for (int i = 1; i <= 60; i++)
        n += (size_t)sprintf(spec + n, " a%d=<a%d><a%d>", i, i - 1, i - 1);
    tc_dtrc_dict d;
    tc_dtrc_err bad;
    dict(&d, spec, &bad);
    CU_ASSERT_EQUAL(bad.code, TC_DTRC_OK);
    tc_dtrc_table t;
    table(&t, bit_table, NULL);
    run r;
    uint64_t all = (6ull << 60) + 1;
    /* Valid as far as counts tell, but not walked: a warning. */
    CU_ASSERT_EQUAL(decode(&t, &d, "<a60>", 1, all, 0, 1000000, &r), TC_DTRC_E_BUDGET);
    /* More edges than 2^60 characters can hold: decided from counts. */
    CU_ASSERT_EQUAL(decode(&t, &d, "<a60>", 1, UINT64_MAX, 0, 1000000, &r), TC_DTRC_E_SHORT);
    /* Few edges: stops early whatever the budget. */
    CU_ASSERT_EQUAL(decode(&t, &d, "<a60>", 1, 100, 0, 1000000, &r), TC_DTRC_E_LEFTOVER);
    tc_dtrc_table_free(&t);
    /* Eight bits per edge at most: 2^60*6 bits cannot all be used by 1000
     * edges, decided when the budget runs out. */
    table(&t, "1:00000000:1;1:1:1", NULL);
    CU_ASSERT_EQUAL(decode(&t, &d, "<a60>", 1, 1000000, 0, 1000, &r), TC_DTRC_E_LEFTOVER);
    tc_dtrc_table_free(&t);
    tc_dtrc_dict_free(&d);
}

/* Skipping and walking agree on everything but the edges passed on. */
static void test_skip_agrees(void)
{
    tc_dtrc_table t;
    tc_dtrc_dict d;
    tc_dtrc_err bad;
    run a, b;
    dict(&d, "x=g(3*B)", &bad);
    table(&t, doc_table, NULL);
    const char *seqs[] = {"(300*w)", "(7*(5*gA)<x>)A", "(1000*A)"};
    for (size_t i = 0; i < 3; i++)
        for (uint64_t count = 2; count < 400; count += 37) {
            int ca = decode(&t, &d, seqs[i], 123, count, 0, 0, &a);
            int cb = decode(&t, &d, seqs[i], 123, count, 1, 0, &b);
            CHECK(ca == cb && a.out.edges == b.out.edges && a.out.consumed == b.out.consumed &&
                      a.out.weight == b.out.weight && a.out.leftover == b.out.leftover,
                  "%s count %llu: %d/%d edges %llu/%llu", seqs[i], (unsigned long long)count,
                  ca, cb, (unsigned long long)a.out.edges, (unsigned long long)b.out.edges);
        }
    tc_dtrc_table_free(&t);
    tc_dtrc_dict_free(&d);
}

static const tu_test tests[] = {
    {"document example 1 (3.5)", test_doc_example_1},
    {"document example 2 (3.5)", test_doc_example_2},
    {"C+ and the Base64 alphabet (3.7.1.1)", test_c_plus},
    {"repeat examples (3.7.1.2)", test_repeat_examples},
    {"dictionary examples (3.7.1.3)", test_dictionary_examples},
    {"compile errors", test_compile_errors},
    {"nesting limit", test_nesting},
    {"dictionary errors and cycles", test_dictionary_errors},
    {"transition table checks", test_table_checks},
    {"decoding errors", test_decode_errors},
    {"1e19-bit repeats and empty-code cycles", test_huge_repeats},
    {"work budget", test_budget},
    {"skipping agrees with walking", test_skip_agrees},
    {NULL, NULL},
};

void register_dtrc_seq_suite(void) { tu_add_suite("dtrc_seq", tests); }
