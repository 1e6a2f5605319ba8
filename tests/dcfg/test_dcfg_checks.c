/* DCFG (spec/dcfg/dcfg.md): the document's example made whole is valid; each
 * rule broken alone by one text replacement is reported with its values;
 * integers exact to 64 bits; dominators on irreducible and unreachable
 * graphs; hostile ids and counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/dcfg/dcfg.h"
#include "../../parsers/dcfg/dcfg_dom.h"
#include "../ot.h"
#include "../suites.h"

extern const char dcfg_example[]; /* test_dcfg_rules.c */

/* The example with the first occurrence of from replaced by to. */
static char *with(const char *from, const char *to)
{
    const char *at = strstr(dcfg_example, from);
    CHECK(at != NULL, "no \"%s\" in the example", from);
    if (!at)
        return strdup(dcfg_example);
    size_t a = (size_t)(at - dcfg_example), fl = strlen(from), tl = strlen(to);
    char *s = malloc(strlen(dcfg_example) + 1 + tl);
    memcpy(s, dcfg_example, a);
    memcpy(s + a, to, tl);
    strcpy(s + a + tl, at + fl);
    return s;
}

static void run(const char *doc, ot_result *r)
{
    ot_opts o = {.format = TC_FORMAT_DCFG};
    ot_free(r);
    ot_check_memory(doc, strlen(doc), &o, r);
}

static void test_example(void)
{
    ot_result r = {0};
    run(dcfg_example, &r);
    OT_RULES(&r, "");
    CHECK(r.status == 0, "status %d", r.status);
    ot_opts o = {.format = TC_FORMAT_DCFG, .dump = 1};
    ot_free(&r);
    ot_check_memory(dcfg_example, strlen(dcfg_example), &o, &r);
    OT_DUMP(&r, 0, "{\"t\":\"header\",\"format\":\"dcfg\",\"dump_version\":2,\"major_version\":\"1\",\"minor_version\":\"0\"}");
    OT_DUMP(&r, 25, "{\"t\":\"edge\",\"pid\":\"13723\",\"id\":10,\"source\":1,\"target\":4,\"type\":1,\"count_per_thread\":[\"1\"]}");
    ot_free(&r);
}

/* One replacement, one finding of rule whose message has needle. */
static void one(const char *from, const char *to, const char *rule, const char *needle)
{
    ot_result r = {0};
    char *doc = with(from, to);
    run(doc, &r);
    OT_RULES(&r, rule);
    OT_MSG(&r, rule, needle);
    ot_free(&r);
    free(doc);
}

/* The same where the broken row is dropped and what refers to it is
 * reported too (the consequences are listed in spec/dcfg/dcfg.md, ruling 17). */
static void has(const char *from, const char *to, const char *rule, const char *needle)
{
    ot_result r = {0};
    char *doc = with(from, to);
    run(doc, &r);
    CHECK(r.n >= 1 && !strcmp(r.d[0].rule->id, rule), "first finding not %s:%s", rule,
          ot_describe(&r));
    OT_MSG(&r, rule, needle);
    ot_free(&r);
    free(doc);
}

static void test_rules(void)
{
    one("\"MAJOR_VERSION\" : 1", "\"MAJOR_VERSION\" : 2", "DCFG-VERSION-MAJOR", "is 2");
    one("\"MAJOR_VERSION\" : 1", "\"MAJOR_VERSION\" : 0", "DCFG-VERSION-ZERO", "is 0");
    one("\"MAJOR_VERSION\" : 1,", "", "DCFG-VERSION-MISSING", "no MAJOR_VERSION");
    one("\"INSTR_COUNT\" : 12", "\"INSTR_COUNT\" : 13", "DCFG-INSTR-COUNT-SUM", "13");
    one("\"INSTR_COUNT\" : 12", "\"INSTR_COUNT\" : -12", "DCFG-INTEGER", "not negative");
    one("\"INSTR_COUNT\" : 12", "\"INSTR_COUNT\" : 1.5", "DCFG-INTEGER", "fraction");
    one("\"INSTR_COUNT\" : 12", "\"INSTR_COUNT\" : \"0xg\"", "DCFG-INTEGER", "0xg");
    has("[ 1, \"hello-world\" ]", "[ 0, \"hello-world\" ]", "DCFG-ID-RANGE", "is 0");
    has("[ 1, \"hello-world\" ]", "[ 2147483648, \"hello-world\" ]", "DCFG-ID-RANGE", "2147483648");
    has("\"FILE_NAME_ID\", \"FILE_NAME\"", "\"FILE_NAME_ID\", \"FILE NAME\"", "DCFG-TABLE-TAG", "FILE NAME");
    has("[ 8, \"hello-world.c\" ]", "[ 1, \"hello-world.c\" ]", "DCFG-ID-DUPLICATE", "FILE_NAME_ID 1");
    one("\"FILE_NAME_ID\" : 1,", "\"FILE_NAME_ID\" : 7,", "DCFG-FILE-NAME-REF", "7");
    one("[ 18, \"FALL_THROUGH\" ]", "[ 18, \"FALL_THRU\" ]", "DCFG-EDGE-TYPE-NAME", "FALL_THRU");
    has("[ 2, \"END\" ]", "[ 2, \"FIN\" ]", "DCFG-SPECIAL-NODE-NAME", "FIN");
    one("[ 10, 1, 4, 1, [ 1 ] ]", "[ 10, 1, 4, 1, [ 1 ], 7 ]", "DCFG-ROW-LONG", "row 1 of EDGES");
    has("[ 10, 1, 4, 1, [ 1 ] ]", "[ 10, 1, 4 ]", "DCFG-ROW-SHORT", "EDGE_TYPE_ID");
    has("\"EDGE_TYPE_ID\", \"COUNT_PER_THREAD\"", "\"EDGE_TYPE\", \"COUNT_PER_THREAD\"",
        "DCFG-COLUMN-MISSING", "EDGE_TYPE_ID");
    one("[ 4, \"0xb28\", 9, 2, 4, 1 ]", "[ 4, \"0xb28\", 4, 2, 4, 1 ]", "DCFG-LAST-INSTR-OFFSET",
        "LAST_INSTR_OFFSET 4 is not below SIZE 4");
    one("[ 4, \"0xb28\", 9, 2, 4, 1 ]", "[ 4, \"0xb28\", 9, 2, 4, 3 ]", "DCFG-BLOCK-COUNT",
        "COUNT is 3");
    one("[ 10, 1, 4, 1, [ 1 ] ]", "[ 10, 1, 4, 1, [ 1, 0 ] ]", "DCFG-EDGE-THREADS", "2 values");
    one("[ 10, 1, 4, 1, [ 1 ] ]", "[ 10, 1, 4, 99, [ 1 ] ]", "DCFG-EDGE-TYPE-REF", "99");
    one("[ 14, 6, 2, 2, [ 1 ] ]", "[ 14, 6, 77, 18, [ 1 ] ]", "DCFG-NODE-REF", "77");
    one("[ 14, 6, 2, 2, [ 1 ] ]", "[ 14, 6, 1, 2, [ 1 ] ]", "DCFG-EXIT-EDGE", "enters node 1");
    one("[ 6, 5 ] ]", "[ 6, 4 ] ]", "DCFG-ROUTINE-IDOM", "dominator is 5");
    one("[ 4, [ 6 ],", "[ 4, [ 7 ],", "DCFG-ROUTINE-EXIT", "exit node 7");
    one("[ 5, [ 6 ], [ 5, 6 ] ]", "[ 5, [ 6 ], [ 6 ] ]", "DCFG-LOOP-MEMBERS", "head 5");
    one("[ 5, [ 6 ], [ 5, 6 ] ]", "[ 5, [ 6 ], [ 5, 6 ], 6 ]", "DCFG-LOOP-PARENT", "6");
    one("\"0xb40\", 12", "\"0xb40\", 12000000", "DCFG-RANGE-IMAGE", "block 6");
}

static void test_integers(void)
{
    one("\"INSTR_COUNT\" : 12", "\"INSTR_COUNT\" : 18446744073709551616", "DCFG-INTEGER", "64 bits");
    one("\"INSTR_COUNT\" : 12", "\"INSTR_COUNT\" : \"0x10000000000000000\"", "DCFG-INTEGER", "64 bits");
    /* The largest values are read exactly: the sum check shows them. */
    one("\"INSTR_COUNT\" : 12", "\"INSTR_COUNT\" : \"0xFFFFFFFFFFFFFFFF\"", "DCFG-INSTR-COUNT-SUM",
        "18446744073709551615");
    one("\"INSTR_COUNT\" : 12", "\"INSTR_COUNT\" : 18446744073709551615", "DCFG-INSTR-COUNT-SUM",
        "18446744073709551615");
}

static void test_hostile(void)
{
    ot_result r = {0};
    char *deep = malloc(200001);
    memset(deep, '[', 100000);
    memset(deep + 100000, ']', 100000);
    deep[200000] = 0;
    run(deep, &r);
    CHECK(r.status == 1 && r.n >= 1, "deep nesting:%s", ot_describe(&r));
    free(deep);
    /* The maximum id and a huge count read without allocation by value. */
    char *doc = with("[ 14, 6, 2, 2, [ 1 ] ]", "[ 2147483647, 6, 2, 2, [ 1 ] ]");
    run(doc, &r);
    OT_RULES(&r, "");
    free(doc);
    ot_free(&r);
}

/* Dominators: n nodes, edges as pairs. */
static void dom(uint32_t n, const uint32_t *pairs, size_t m, uint32_t root, const uint32_t *want)
{
    uint32_t off[16] = {0}, succ[32], idom[16];
    for (size_t i = 0; i < m; i++)
        off[pairs[2 * i] + 1]++;
    for (uint32_t v = 0; v < n; v++)
        off[v + 1] += off[v];
    uint32_t fill[16];
    memcpy(fill, off, sizeof fill);
    for (size_t i = 0; i < m; i++)
        succ[fill[pairs[2 * i]]++] = pairs[2 * i + 1];
    CHECK(tc_dcfg_dominators(n, off, succ, root, idom), "out of memory");
    for (uint32_t v = 0; v < n; v++)
        CHECK(idom[v] == want[v], "node %u: idom %u, expected %u", v, idom[v], want[v]);
}

static void test_dominators(void)
{
    const uint32_t X = TC_DCFG_DOM_NONE;
    /* Irreducible: 0->1, 0->2, 1->2, 2->1, 1->3, 2->3; 4 unreachable. */
    const uint32_t g1[] = {0, 1, 0, 2, 1, 2, 2, 1, 1, 3, 2, 3, 4, 3};
    const uint32_t w1[] = {0, 0, 0, 0, X};
    dom(5, g1, 7, 0, w1);
    /* Diamond with a loop back to the top. */
    const uint32_t g2[] = {0, 1, 1, 2, 1, 3, 2, 4, 3, 4, 4, 1, 4, 5};
    const uint32_t w2[] = {0, 0, 1, 1, 1, 4};
    dom(6, g2, 7, 0, w2);
    /* A long chain: no recursion depth issue. */
    enum { N = 200000 };
    uint32_t *off = malloc((N + 1) * sizeof *off), *succ = malloc(N * sizeof *succ),
             *idom = malloc(N * sizeof *idom);
    for (uint32_t v = 0; v <= N; v++)
        off[v] = v < N ? v : N - 1;
    for (uint32_t v = 0; v + 1 < N; v++)
        succ[v] = v + 1;
    off[N] = N - 1;
    CHECK(tc_dcfg_dominators(N, off, succ, 0, idom), "chain");
    CHECK(idom[N - 1] == N - 2, "chain end: %u", idom[N - 1]);
    free(off);
    free(succ);
    free(idom);
}

static void test_detect(void)
{
    const char *d = "{ \"MAJOR_VERSION\" : 1, \"MINOR_VERSION\" : 0, \"FILE_NAMES\" : []}";
    const char *t = "{\"MAJOR_VERSION\":1,\"MINOR_VERSION\":0,\"PROCESSES\":[[\"PROCESS_ID\",";
    CHECK(tc_dcfg_sniff_kind((const uint8_t *)d, strlen(d), "x.trace.json") == 1, "DCFG by keys");
    CHECK(tc_dcfg_sniff_kind((const uint8_t *)t, strlen(t), "a.trace.json.bz2") == 2, "trace by name");
    CHECK(tc_dcfg_sniff_kind((const uint8_t *)t, strlen(t), "a.dcfg.json.gz") == 1, "DCFG by name");
    CHECK(tc_dcfg_sniff_kind((const uint8_t *)"{\"version\":3}", 13, NULL) == 0, "ovni");
}

static const tu_test tests[] = {
    {"the document's example made whole", test_example},
    {"each rule broken alone", test_rules},
    {"integers exact to 64 bits", test_integers},
    {"hostile inputs", test_hostile},
    {"dominators", test_dominators},
    {"detection", test_detect},
    {NULL, NULL},
};

void register_dcfg_checks_suite(void) { tu_add_suite("dcfg_checks", tests); }
