/* DCFG rules one by one (spec/dcfg/rules.def): for each rule a document
 * that breaks it alone (the example of spec/dcfg/dcfg.md changed by a few text
 * replacements, or a whole document), the finding's rule id, byte offset,
 * line:column, JSON path and the concrete values of its message. A rule of
 * the catalogue without a case here fails the coverage test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ot.h"
#include "../suites.h"

/* The document's example (Doc §2, made whole: spec/dcfg/dcfg.md), shared with
 * test_dcfg_model.c. */
const char dcfg_example[] =
    "{ \"MAJOR_VERSION\" : 1,\n"
    "  \"MINOR_VERSION\" : 0,\n"
    "  \"FILE_NAMES\" : [\n"
    "    [ \"FILE_NAME_ID\", \"FILE_NAME\" ],\n"
    "    [ 1, \"hello-world\" ],\n"
    "    [ 8, \"hello-world.c\" ] ],\n"
    "  \"EDGE_TYPES\" : [\n"
    "    [ \"EDGE_TYPE_ID\", \"EDGE_TYPE\" ],\n"
    "    [ 1, \"ENTRY\" ], [ 2, \"EXIT\" ], [ 3, \"CALL\" ], [ 6, \"RETURN\" ],\n"
    "    [ 13, \"DIRECT_CONDITIONAL_BRANCH\" ], [ 18, \"FALL_THROUGH\" ] ],\n"
    "  \"SPECIAL_NODES\" : [\n"
    "    [ \"NODE_ID\", \"NODE_NAME\" ],\n"
    "    [ 1, \"START\" ], [ 2, \"END\" ] ],\n"
    "  \"PROCESSES\" : [\n"
    "    [ \"PROCESS_ID\", \"PROCESS_DATA\" ],\n"
    "    [ 13723,\n"
    "      { \"INSTR_COUNT_PER_THREAD\" : [ 12 ],\n"
    "        \"INSTR_COUNT\" : 12,\n"
    "        \"IMAGES\" : [\n"
    "          [ \"IMAGE_ID\", \"LOAD_ADDR\", \"SIZE\", \"IMAGE_DATA\" ],\n"
    "          [ 1, \"0x400000\", 2112944,\n"
    "            { \"FILE_NAME_ID\" : 1,\n"
    "              \"SYMBOLS\" : [\n"
    "                [ \"NAME\", \"ADDR_OFFSET\", \"SIZE\" ],\n"
    "                [ \"main\", \"0xb28\", 128 ] ],\n"
    "              \"SOURCE_DATA\" : [\n"
    "                [ \"FILE_NAME_ID\", \"LINE_NUM\", \"ADDR_OFFSET\", \"SIZE\", \"NUM_INSTRS\" ],\n"
    "                [ 8, 25, \"0xb28\", 4, 1 ],\n"
    "                [ 8, 26, \"0xb2c\", 5, 1 ] ],\n"
    "              \"BASIC_BLOCKS\" : [\n"
    "                [ \"NODE_ID\", \"ADDR_OFFSET\", \"SIZE\", \"NUM_INSTRS\", \"LAST_INSTR_OFFSET\", \"COUNT\" ],\n"
    "                [ 4, \"0xb28\", 9, 2, 4, 1 ],\n"
    "                [ 5, \"0xb31\", 5, 2, 4, 2 ],\n"
    "                [ 6, \"0xb40\", 12, 2, 6, 2 ] ],\n"
    "              \"ROUTINES\" : [\n"
    "                [ \"ENTRY_NODE_ID\", \"EXIT_NODE_IDS\", \"NODES\", \"LOOPS\" ],\n"
    "                [ 4, [ 6 ],\n"
    "                  [ [ \"NODE_ID\", \"IDOM_NODE_ID\" ], [ 4, 4 ], [ 5, 4 ], [ 6, 5 ] ],\n"
    "                  [ [ \"LOOP_HEAD_NODE_ID\", \"LOOP_BACK_EDGE_SOURCE_NODE_IDS\", \"LOOP_NODE_IDS\",\n"
    "                      \"PARENT_LOOP_HEAD_NODE_ID\" ],\n"
    "                    [ 5, [ 6 ], [ 5, 6 ] ] ] ] ] } ] ],\n"
    "        \"EDGES\" : [\n"
    "          [ \"EDGE_ID\", \"SOURCE_NODE_ID\", \"TARGET_NODE_ID\", \"EDGE_TYPE_ID\", \"COUNT_PER_THREAD\" ],\n"
    "          [ 10, 1, 4, 1, [ 1 ] ],\n"
    "          [ 11, 4, 5, 18, [ 1 ] ],\n"
    "          [ 12, 5, 6, 18, [ 2 ] ],\n"
    "          [ 13, 6, 5, 13, [ 1 ] ],\n"
    "          [ 14, 6, 2, 2, [ 1 ] ] ] } ] ] }\n";

/* Pieces the cases add to the example. */
#define IMAGES_END "} ] ],"
#define IMAGE_2                                                                               \
    "} ], [ 2, \"0x500000\", 4096, { \"BASIC_BLOCKS\" : [ [ \"NODE_ID\", \"ADDR_OFFSET\", "  \
    "\"SIZE\" ], [ 7, \"0x10\", 4 ] ] } ] ],"
#define LAST_BLOCK "[ 6, \"0xb40\", 12, 2, 6, 2 ]"
#define BLOCK_7 LAST_BLOCK ", [ 7, \"0xb50\", 4, 1, 0 ]"
#define LAST_EDGE "[ 14, 6, 2, 2, [ 1 ] ]"
#define LOOP "[ 5, [ 6 ], [ 5, 6 ] ]"
#define SYMBOLS_HEADER "[ \"NAME\", \"ADDR_OFFSET\", \"SIZE\" ]"
#define SYMBOLS_TABLE "[\n                " SYMBOLS_HEADER ",\n                [ \"main\", \"0xb28\", 128 ] ]"

#define P1 "$.PROCESSES[1][1]"
#define IM1 P1 ".IMAGES[1][3]"
#define R1 IM1 ".ROUTINES[1]"

typedef struct rule_case {
    const char *rule;
    /* Up to three replacements of the first occurrence of from[i] by to[i];
     * from[0] NULL: to[0] is the whole document. */
    const char *from[3], *to[3];
    const char *at;     /* the finding's offset is where this first occurs */
    const char *path;   /* its JSON path */
    const char *needle; /* in its message */
    /* When set, the message also gives "line L:C" of this text's first
     * occurrence (where a repeated id or column was first given). */
    const char *first;
    int pedantic;
} rule_case;

static const rule_case cases[] = {
    /* conventions */
    {"DCFG-INTEGER", {"\"INSTR_COUNT\" : 12"}, {"\"INSTR_COUNT\" : -12"}, "-12",
     P1 ".INSTR_COUNT", "INSTR_COUNT is -12: Integers are not negative", NULL, 0},
    {"DCFG-INTEGER", {"[ 3, \"CALL\" ]"}, {"[ \"0x1G\", \"CALL\" ]"}, "\"0x1G\"",
     "$.EDGE_TYPES[3][0]", "EDGE_TYPE_ID is the string \"0x1G\", neither decimal", NULL, 0},
    {"DCFG-ID-RANGE", {"[ 3, \"CALL\" ]"}, {"[ 2147483648, \"CALL\" ]"}, "2147483648",
     "$.EDGE_TYPES[3][0]", "EDGE_TYPE_ID is 2147483648, outside 1..2147483647", NULL, 0},
    /* A bad tag leaves the table's rows unread: an optional column's, so
     * that nothing else is missing. */
    {"DCFG-TABLE-TAG", {"\"LINE_NUM\""}, {"\"LINE NUM\""}, "\"LINE NUM\"",
     IM1 ".SOURCE_DATA[0][1]", "table header tag \"LINE NUM\" is not made of A-Z, 0-9 and _",
     NULL, 0},
    {"DCFG-VERSION-MAJOR", {"\"MAJOR_VERSION\" : 1"}, {"\"MAJOR_VERSION\" : 2"},
     "2,\n  \"MINOR", "$.MAJOR_VERSION", "MAJOR_VERSION is 2; tracecheck reads version 1", NULL,
     0},
    {"DCFG-VERSION-ZERO", {"\"MAJOR_VERSION\" : 1"}, {"\"MAJOR_VERSION\" : \"0\""}, "\"0\"",
     "$.MAJOR_VERSION", "MAJOR_VERSION is 0; read as version 1", NULL, 0},
    /* document and tables */
    {"DCFG-TOP-OBJECT", {NULL}, {"\n [ 1 ]"}, "[", "$", "the document is an array, not an object",
     NULL, 0},
    {"DCFG-TOP-OBJECT", {NULL}, {"7"}, "7", "$", "the document is a scalar, not an object", NULL,
     0},
    {"DCFG-VERSION-MISSING", {"\"MAJOR_VERSION\" : 1,"}, {""}, "{", "$",
     "the top-level object has no MAJOR_VERSION", NULL, 0},
    {"DCFG-TYPE", {"\"INSTR_COUNT_PER_THREAD\" : [ 12 ]"}, {"\"INSTR_COUNT_PER_THREAD\" : 12"},
     "12,\n        \"INSTR_COUNT\"", P1 ".INSTR_COUNT_PER_THREAD",
     "INSTR_COUNT_PER_THREAD is a number, expected an array", NULL, 0},
    {"DCFG-TYPE", {"[ \"main\", \"0xb28\""}, {"[ 7, \"0xb28\""}, "7, \"0xb28\"",
     IM1 ".SYMBOLS[1][0]", "NAME is a number, expected a string", NULL, 0},
    {"DCFG-TABLE-SHAPE", {"[ 6, \"RETURN\" ]"}, {"\"RETURN\""}, "\"RETURN\"", "$.EDGE_TYPES[4]",
     "row 4 of EDGE_TYPES is a string, not an array", NULL, 0},
    {"DCFG-TABLE-SHAPE", {SYMBOLS_TABLE}, {"{ }"}, "{ }", IM1 ".SYMBOLS",
     "SYMBOLS is an object, not a table", NULL, 0},
    {"DCFG-TABLE-HEADER", {SYMBOLS_TABLE}, {"[ ]"}, "[ ]", IM1 ".SYMBOLS",
     "SYMBOLS is an empty array: a table starts with its header row", NULL, 0},
    {"DCFG-TABLE-HEADER", {SYMBOLS_TABLE}, {"[ 5, [ \"main\", \"0xb28\", 128 ] ]"}, "5, [",
     IM1 ".SYMBOLS[0]", "SYMBOLS starts with a number, not a header", NULL, 0},
    {"DCFG-COLUMN-MISSING", {SYMBOLS_HEADER}, {"[ \"NAME\", \"SIZE\" ]"}, "[ \"NAME\", \"SIZE\" ]",
     IM1 ".SYMBOLS[0]", "the SYMBOLS header has no ADDR_OFFSET column", NULL, 0},
    {"DCFG-COLUMN-DUPLICATE", {SYMBOLS_HEADER}, {"[ \"NAME\", \"ADDR_OFFSET\", \"SIZE\", \"NAME\" ]"},
     "\"NAME\" ]", IM1 ".SYMBOLS[0][3]", "SYMBOLS names column NAME twice", "\"NAME\"", 0},
    /* A repeated unknown column is a repeated column too. */
    {"DCFG-COLUMN-DUPLICATE", {SYMBOLS_HEADER},
     {"[ \"NAME\", \"ADDR_OFFSET\", \"SIZE\", \"ALIAS\", \"ALIAS\" ]"}, "\"ALIAS\" ]",
     IM1 ".SYMBOLS[0][4]", "SYMBOLS names column ALIAS twice", "\"ALIAS\"", 0},
    {"DCFG-ROW-LONG", {"[ 10, 1, 4, 1, [ 1 ] ]"}, {"[ 10, 1, 4, 1, [ 1 ], 77 ]"}, "77",
     P1 ".EDGES[1][5]", "row 1 of EDGES has more values than its 5-column header", NULL, 0},
    {"DCFG-ROW-SHORT", {"[ 6, \"RETURN\" ]"}, {"[ ]"}, "[ ]", "$.EDGE_TYPES[4]",
     "row 4 of EDGE_TYPES has no EDGE_TYPE_ID value (it has 0 of 2 columns)", NULL, 0},
    {"DCFG-ID-DUPLICATE", {"[ 3, \"CALL\" ]"}, {"[ 6, \"CALL\" ]"}, "[ 6, \"RETURN\" ]",
     "$.EDGE_TYPES[4]", "EDGE_TYPE_ID 6 is already defined at", "[ 6, \"CALL\" ]", 0},
    {"DCFG-ID-DUPLICATE", {"[ 6, 5 ] ]"}, {"[ 6, 5 ], [ 5, 4 ] ]"}, "[ 5, 4 ] ]",
     R1 "[2][4]", "routine 4: NODES lists 5 twice", NULL, 0},
    {"DCFG-UNKNOWN-KEY", {"\"INSTR_COUNT\" : 12,"}, {"\"INSTR_COUNT\" : 12, \"INSTR_COUNTS\" : 1,"},
     "\"INSTR_COUNTS\"", P1 ".INSTR_COUNTS",
     "PROCESS_DATA has a key \"INSTR_COUNTS\" tracecheck does not know", NULL, 1},
    {"DCFG-UNKNOWN-COLUMN", {SYMBOLS_HEADER}, {"[ \"NAME\", \"ADDR_OFFSET\", \"SIZE\", \"ALIAS\" ]"},
     "\"ALIAS\"", IM1 ".SYMBOLS[0][3]", "SYMBOLS has a column \"ALIAS\" tracecheck does not know",
     NULL, 1},
    /* names */
    {"DCFG-EDGE-TYPE-NAME", {"\"FALL_THROUGH\""}, {"\"FALL_THRU\""}, "\"FALL_THRU\"",
     "$.EDGE_TYPES[6][1]", "edge type \"FALL_THRU\" is not a known edge type", NULL, 0},
    {"DCFG-SPECIAL-NODE-NAME", {"[ 2, \"END\" ] ]"}, {"[ 2, \"END\" ], [ 3, \"FIN\" ] ]"},
     "\"FIN\"", "$.SPECIAL_NODES[3][1]", "special node name \"FIN\" is not START, END or UNKNOWN",
     NULL, 0},
    /* cross-checks */
    {"DCFG-FILE-NAME-REF", {"\"FILE_NAME_ID\" : 1,"}, {"\"FILE_NAME_ID\" : 7,"},
     "7,\n              \"SYMBOLS\"", IM1 ".FILE_NAME_ID",
     "the image's FILE_NAME_ID 7 is not in FILE_NAMES (2 names)", NULL, 0},
    {"DCFG-FILE-NAME-REF", {"[ 8, 26,"}, {"[ 9, 26,"}, "[ 9, 26,", IM1 ".SOURCE_DATA[2]",
     "the source range's FILE_NAME_ID 9 is not in FILE_NAMES", NULL, 0},
    {"DCFG-EDGE-TYPE-REF", {"[ 10, 1, 4, 1,"}, {"[ 10, 1, 4, 99,"}, "[ 10, 1, 4, 99,",
     P1 ".EDGES[1]", "edge 10: EDGE_TYPE_ID 99 is not in EDGE_TYPES", NULL, 0},
    {"DCFG-NODE-REF", {LAST_EDGE}, {"[ 14, 6, 77, 18, [ 1 ] ]"}, "[ 14,", P1 ".EDGES[5]",
     "edge 14: TARGET_NODE_ID 77 is neither a special node nor a basic block of process 13723",
     NULL, 0},
    {"DCFG-NODE-ID-SPECIAL", {IMAGES_END, "[ 2, \"END\" ] ]"},
     {IMAGE_2, "[ 2, \"END\" ], [ 7, \"UNKNOWN\" ] ]"}, "[ 7, \"0x10\"",
     P1 ".IMAGES[2][3].BASIC_BLOCKS[1]", "basic-block NODE_ID 7 is also a special node's id",
     NULL, 0},
    {"DCFG-ENTRY-EDGE", {"[ 10, 1, 4, 1,"}, {"[ 10, 6, 4, 1,"}, "[ 10, 6", P1 ".EDGES[1]",
     "ENTRY edge 10 leaves node 6, not a START node", NULL, 0},
    {"DCFG-EXIT-EDGE", {LAST_EDGE}, {"[ 14, 6, 1, 2, [ 1 ] ]"}, "[ 14,", P1 ".EDGES[5]",
     "EXIT edge 14 enters node 1, not an END node", NULL, 0},
    {"DCFG-INSTR-COUNT-SUM", {"\"INSTR_COUNT\" : 12"}, {"\"INSTR_COUNT\" : 13"},
     "13,\n        \"IMAGES\"",
     P1 ".INSTR_COUNT", "INSTR_COUNT is 13 but INSTR_COUNT_PER_THREAD (1 threads) sums to 12",
     NULL, 0},
    {"DCFG-EDGE-THREADS", {"[ 10, 1, 4, 1, [ 1 ] ]"}, {"[ 10, 1, 4, 1, [ 1, 0 ] ]"}, "[ 10,",
     P1 ".EDGES[1]", "edge 10: COUNT_PER_THREAD has 2 values but process 13723 has 1 threads",
     NULL, 0},
    {"DCFG-LAST-INSTR-OFFSET", {"[ 4, \"0xb28\", 9,"}, {"[ 4, \"0xb28\", 4,"}, "[ 4, \"0xb28\"",
     IM1 ".BASIC_BLOCKS[1]", "block 4: LAST_INSTR_OFFSET 4 is not below SIZE 4", NULL, 0},
    {"DCFG-RANGE-IMAGE", {"\"0xb40\", 12,"}, {"\"0xb40\", 12000000,"}, "[ 6, \"0xb40\"",
     IM1 ".BASIC_BLOCKS[3]",
     "block 6 at offset 0xb40 of size 12000000 ends beyond image 1's SIZE 0x203db0", NULL, 0},
    {"DCFG-RANGE-IMAGE", {"[ \"main\", \"0xb28\", 128 ]"}, {"[ \"main\", \"0x203d00\", 256 ]"},
     "[ \"main\"", IM1 ".SYMBOLS[1]",
     "the symbol at offset 0x203d00 ends at 0x203e00, beyond image 1's SIZE 0x203db0", NULL, 0},
    {"DCFG-BLOCK-COUNT", {"[ 4, \"0xb28\", 9, 2, 4, 1 ]"}, {"[ 4, \"0xb28\", 9, 2, 4, 3 ]"},
     "[ 4, \"0xb28\"", IM1 ".BASIC_BLOCKS[1]",
     "block 4: COUNT is 3 but its incoming edges were taken 1 times", NULL, 0},
    /* routines: findings about a node point at its NODES row */
    {"DCFG-ROUTINE-IMAGE", {IMAGES_END, "[ 6, 5 ] ]", LAST_EDGE},
     {IMAGE_2, "[ 6, 5 ], [ 7, 6 ] ]", LAST_EDGE ", [ 15, 6, 7, 18, [ 0 ] ]"}, "[ 7, 6 ]",
     R1 "[2][4]", "routine 4: node 7 is a block of image 2, not of image 1", NULL, 0},
    {"DCFG-ROUTINE-COVER", {LAST_BLOCK}, {BLOCK_7}, "[ 7, \"0xb50\"", IM1 ".BASIC_BLOCKS[4]",
     "block 7 of image 1 is in none of its routines", NULL, 0},
    {"DCFG-ROUTINE-OVERLAP", {LAST_BLOCK, LOOP " ] ]"},
     {BLOCK_7, LOOP " ] ], [ 7, [ ], [ [ \"NODE_ID\", \"IDOM_NODE_ID\" ], [ 7, 7 ], [ 6, 7 ] ] ]"},
     "[ 6, 7 ]", IM1 ".ROUTINES[2][2][2]", "block 6 is in routine 4 and in routine 7", NULL, 0},
    {"DCFG-ROUTINE-ENTRY", {"[ 4, 4 ]"}, {"[ 4, 5 ]"}, "[ 4, 5 ]", R1 "[2][1]",
     "routine 4: the entry's IDOM_NODE_ID is 5, not the entry itself", NULL, 0},
    {"DCFG-ROUTINE-EXIT", {"[ 4, [ 6 ],"}, {"[ 4, [ 7 ],"}, "[ 4, [ 7 ],", R1,
     "routine 4: exit node 7 is not among its NODES", NULL, 0},
    /* Reached only through a CALL edge, which a routine's walk does not follow. */
    {"DCFG-ROUTINE-UNREACHABLE", {LAST_BLOCK, "[ 6, 5 ] ]", LAST_EDGE},
     {BLOCK_7, "[ 6, 5 ], [ 7, 4 ] ]", LAST_EDGE ", [ 15, 6, 7, 3, [ 0 ] ]"}, "[ 7, 4 ]",
     R1 "[2][4]",
     "routine 4: node 7 cannot be reached from the entry through intra-routine edges", NULL, 0},
    {"DCFG-ROUTINE-IDOM", {"[ 6, 5 ] ]"}, {"[ 6, 4 ] ]"}, "[ 6, 4 ]", R1 "[2][3]",
     "routine 4: node 6 has IDOM_NODE_ID 4 but its immediate dominator is 5", NULL, 0},
    /* loops */
    {"DCFG-LOOP-ROUTINE", {LOOP}, {"[ 5, [ 6 ], [ 5, 6, 9 ] ]"}, "[ 5, [ 6 ], [ 5, 6, 9",
     R1 "[3][1]", "loop 5: LOOP_NODE_IDS has 9, not a node of routine 4", NULL, 0},
    {"DCFG-LOOP-MEMBERS", {LOOP}, {"[ 5, [ 6 ], [ 6 ] ]"}, "[ 5, [ 6 ], [ 6 ] ]", R1 "[3][1]",
     "loop head 5 is not among its LOOP_NODE_IDS", NULL, 0},
    {"DCFG-LOOP-BACK-EDGE", {LOOP}, {"[ 5, [ 5 ], [ 5, 6 ] ]"}, "[ 5, [ 5 ]", R1 "[3][1]",
     "loop 5: back-edge source 5 has no edge to the head", NULL, 0},
    {"DCFG-LOOP-PARENT", {LOOP}, {"[ 5, [ 6 ], [ 5, 6 ], 6 ]"}, "[ 5, [ 6 ], [ 5, 6 ], 6 ]",
     R1 "[3][1]", "loop 5: PARENT_LOOP_HEAD_NODE_ID 6 heads no other loop of routine 4", NULL,
     0},
    {"DCFG-LOOP-NESTING", {LOOP}, {LOOP ", [ 6, [ ], [ 6, 4 ], 5 ]"}, "[ 6, [ ],", R1 "[3][2]",
     "loop 6: node 4 is not a node of its parent loop 5", NULL, 0},
};


static char *apply(const rule_case *c)
{
    if (!c->from[0])
        return strdup(c->to[0]);
    char *doc = strdup(dcfg_example);
    for (int i = 0; i < 3 && c->from[i]; i++) {
        const char *at = strstr(doc, c->from[i]);
        CHECK(at != NULL, "%s: no \"%s\" in the document", c->rule, c->from[i]);
        if (!at)
            break;
        size_t a = (size_t)(at - doc), fl = strlen(c->from[i]), tl = strlen(c->to[i]);
        char *s = malloc(strlen(doc) - fl + tl + 1);
        memcpy(s, doc, a);
        memcpy(s + a, c->to[i], tl);
        strcpy(s + a + tl, doc + a + fl);
        free(doc);
        doc = s;
    }
    return doc;
}

/* 1-based line and column (in bytes) of offset in doc. */
static void line_col(const char *doc, size_t offset, unsigned *line, unsigned *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < offset; i++) {
        if (doc[i] == '\n') {
            ++*line;
            *col = 1;
        } else {
            ++*col;
        }
    }
}

static void run(const char *doc, int pedantic, ot_result *r)
{
    ot_free(r);
    tc_options opt = TC_OPTIONS_INIT;
    opt.format = TC_FORMAT_DCFG;
    opt.pedantic = pedantic;
    opt.max_repeats = 1000;
    opt.on_diag = ot_collect;
    opt.user = r;
    tc_check_opts c = {.options = &opt};
    tc_input *in = tc_input_open_memory(doc, strlen(doc), &c.input);
    if (!in)
        abort();
    r->status = tu_check_input_text(in, "mem", &c, &r->sum, r->err, sizeof r->err);
    tc_input_close(in);
}

static void check_case(const rule_case *c)
{
    ot_result r = {0};
    char *doc = apply(c);
    run(doc, c->pedantic, &r);
    /* The rule alone, at the place given, with the values. */
    CHECK(r.n == 1 && !strcmp(r.d[0].rule->id, c->rule), "%s: findings%s", c->rule,
          ot_describe(&r));
    const char *at = strstr(doc, c->at);
    CHECK(at != NULL, "%s: no \"%s\" in the document", c->rule, c->at);
    if (r.n >= 1 && at) {
        const ot_diag *d = &r.d[0];
        size_t off = (size_t)(at - doc);
        unsigned line, col;
        line_col(doc, off, &line, &col);
        CHECK(d->offset == off, "%s: offset %llu, expected %zu", c->rule,
              (unsigned long long)d->offset, off);
        CHECK(d->line == line && d->column == col, "%s: at %u:%u, expected %u:%u", c->rule,
              d->line, d->column, line, col);
        CHECK(d->path && !strcmp(d->path, c->path), "%s: path %s, expected %s", c->rule,
              d->path ? d->path : "(none)", c->path);
        CHECK(strstr(d->message, c->needle) != NULL, "%s: message \"%s\" lacks \"%s\"", c->rule,
              d->message, c->needle);
        if (c->first) {
            char where[64];
            unsigned fl, fc;
            line_col(doc, (size_t)(strstr(doc, c->first) - doc), &fl, &fc);
            snprintf(where, sizeof where, "line %u:%u", fl, fc);
            CHECK(strstr(d->message, where) != NULL, "%s: message \"%s\" lacks \"%s\"", c->rule,
                  d->message, where);
        }
        tc_severity want = tc_rule_find(c->rule) ? tc_rule_find(c->rule)->severity : TC_ERROR;
        CHECK(r.status == (want == TC_ERROR), "%s: status %d", c->rule, r.status);
    }
    /* Pedantic notes are not reported without --pedantic. */
    if (c->pedantic) {
        run(doc, 0, &r);
        CHECK(r.n == 0 && r.status == 0, "%s without --pedantic:%s", c->rule, ot_describe(&r));
    }
    ot_free(&r);
    free(doc);
}

static void test_cases(void)
{
    ot_result r = {0};
    run(dcfg_example, 1, &r);
    CHECK(r.n == 0 && r.status == 0, "the example:%s", ot_describe(&r));
    ot_free(&r);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        check_case(&cases[i]);
}

/* Every DCFG-* rule of the catalogue has a case, or a reason why no
 * document can trigger it. */
static void test_coverage(void)
{
    static const char *const ids[] = {
#define TC_RULE(name, id, fam, sev, flags, ref, sum, doc) id,
#include "../../spec/dcfg/rules.def"
#undef TC_RULE
    };
    size_t n = sizeof ids / sizeof *ids, dcfg = 0;
    for (size_t i = 0; i < n; i++) {
        if (strncmp(ids[i], "DCFG-", 5))
            continue;
        dcfg++;
        int found = 0;
        for (size_t k = 0; k < sizeof cases / sizeof *cases && !found; k++)
            found = !strcmp(cases[k].rule, ids[i]);
        CHECK(found, "rule %s has no case in tests/dcfg/test_dcfg_rules.c", ids[i]);
        CHECK(tc_rule_find(ids[i]) != NULL, "rule %s is not in the runtime catalogue", ids[i]);
    }
    /* `grep -c TC_RULE spec/dcfg/rules.def` when run from the source tree. */
    FILE *f = fopen("spec/dcfg/rules.def", "r");
    if (f) {
        char line[4096];
        size_t count = 0;
        while (fgets(line, sizeof line, f))
            count += strstr(line, "TC_RULE") != NULL;
        fclose(f);
        CHECK(count == dcfg, "spec/dcfg/rules.def has %zu TC_RULE lines, the table %zu", count,
              dcfg);
    }
    CHECK(dcfg >= 42, "only %zu DCFG rules", dcfg);
    /* And the other way: no case names a rule that does not exist. */
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
        CHECK(tc_rule_find(cases[k].rule) != NULL, "case of unknown rule %s", cases[k].rule);
}

static const tu_test tests[] = {
    {"each rule alone, located, with its values", test_cases},
    {"every DCFG rule has a case", test_coverage},
    {NULL, NULL},
};

void register_dcfg_rules_suite(void) { tu_add_suite("dcfg_rules", tests); }
