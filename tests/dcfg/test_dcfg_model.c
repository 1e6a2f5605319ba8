/* DCFG: the model kept for pairing (dcfg_model.h), the canonical dump
 * (spec/canonical-dump.md, "DCFG") of the document's example line by line
 * and its ordering rules, and shapes that a quadratic check would never
 * finish (a routine of 200,000 loops, 50,000 images dumped). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/common/reader.h"
#include "../../parsers/dcfg/dcfg_model.h"
#include "../ot.h"
#include "../suites.h"

extern const char dcfg_example[]; /* test_dcfg_rules.c */

static tc_dcfg_model *load(const char *doc, ot_result *r)
{
    tc_reader rd;
    tc_diag_sink sink;
    ot_free(r);
    tc_reader_init_memory(&rd, doc, strlen(doc));
    tc_diag_init(&sink, "mem", 1000, 0, ot_collect, r);
    return tc_dcfg_model_load(&rd, &sink);
}

/* The example with the first occurrence of from replaced by to. */
static char *with(const char *from, const char *to)
{
    const char *at = strstr(dcfg_example, from);
    CHECK(at != NULL, "no \"%s\" in the example", from);
    if (!at)
        return strdup(dcfg_example);
    size_t a = (size_t)(at - dcfg_example), fl = strlen(from), tl = strlen(to);
    char *s = malloc(strlen(dcfg_example) - fl + tl + 1);
    memcpy(s, dcfg_example, a);
    memcpy(s + a, to, tl);
    strcpy(s + a + tl, dcfg_example + a + fl);
    return s;
}

static void test_model(void)
{
    ot_result r = {0};
    tc_dcfg_model *m = load(dcfg_example, &r);
    CHECK(m != NULL && r.n == 0, "example:%s", ot_describe(&r));
    if (m) {
        uint64_t threads = 99, src = 0, dst = 0;
        CHECK(tc_dcfg_model_process(m, 13723, &threads) && threads == 1, "process 13723: %llu",
              (unsigned long long)threads);
        CHECK(!tc_dcfg_model_process(m, 13724, &threads) && threads == 0, "no process 13724");
        CHECK(tc_dcfg_model_process(m, 13723, NULL), "threads may be NULL");
        CHECK(tc_dcfg_model_edge(m, 13723, 12, &src, &dst) && src == 5 && dst == 6,
              "edge 12: %llu -> %llu", (unsigned long long)src, (unsigned long long)dst);
        CHECK(tc_dcfg_model_edge(m, 13723, 10, &src, &dst) && src == 1 && dst == 4,
              "edge 10 (from START): %llu -> %llu", (unsigned long long)src,
              (unsigned long long)dst);
        CHECK(tc_dcfg_model_edge(m, 13723, 14, NULL, NULL), "edge 14 without outputs");
        CHECK(!tc_dcfg_model_edge(m, 13723, 15, &src, &dst), "no edge 15");
        CHECK(!tc_dcfg_model_edge(m, 13723, 9, &src, &dst), "no edge 9");
        CHECK(!tc_dcfg_model_edge(m, 13723, (1ull << 32) + 12, &src, &dst),
              "edge ids do not wrap at 32 bits");
        CHECK(!tc_dcfg_model_edge(m, 1, 12, &src, &dst), "edge 12 of another process");
        CHECK(tc_dcfg_model_node_instrs(m, 13723, 4) == 2, "block 4: 2 instructions");
        CHECK(tc_dcfg_model_node_instrs(m, 13723, 6) == 2, "block 6: 2 instructions");
        CHECK(tc_dcfg_model_node_instrs(m, 13723, 1) == 0, "START: 0");
        CHECK(tc_dcfg_model_node_instrs(m, 13723, 2) == 0, "END: 0");
        CHECK(tc_dcfg_model_node_instrs(m, 13723, 77) == 0, "unknown node: 0");
        CHECK(tc_dcfg_model_node_instrs(m, 13723, (1ull << 32) + 4) == 0, "no wrap");
        CHECK(tc_dcfg_model_node_instrs(m, 1, 4) == 0, "another process");
    }
    tc_dcfg_model_free(m);

    /* Two processes (in reverse pid order, with their own edges and
     * blocks), a block without NUM_INSTRS, no INSTR_COUNT_PER_THREAD; in
     * process 900 ids too sparse for the id-indexed arrays, so lookups are
     * binary searches there. */
    const char *two =
        "{\"MAJOR_VERSION\":1,\"SPECIAL_NODES\":[[\"NODE_ID\",\"NODE_NAME\"],[1,\"START\"]],"
        "\"EDGE_TYPES\":[[\"EDGE_TYPE_ID\",\"EDGE_TYPE\"],[1,\"ENTRY\"],[2,\"FALL_THROUGH\"]],"
        "\"PROCESSES\":[[\"PROCESS_ID\",\"PROCESS_DATA\"],"
        "[900,{\"INSTR_COUNT_PER_THREAD\":[1,2,3],\"IMAGES\":[[\"IMAGE_ID\",\"LOAD_ADDR\",\"SIZE\","
        "\"IMAGE_DATA\"],[1,0,100,{\"BASIC_BLOCKS\":[[\"NODE_ID\",\"ADDR_OFFSET\",\"SIZE\","
        "\"NUM_INSTRS\"],[7,0,4,3],[2000000008,4,4]]}]],"
        "\"EDGES\":[[\"EDGE_ID\",\"SOURCE_NODE_ID\",\"TARGET_NODE_ID\",\"EDGE_TYPE_ID\"],"
        "[5,1,7,1],[2000000006,7,2000000008,2]]}],"
        "[\"0x10\",{\"IMAGES\":[[\"IMAGE_ID\",\"LOAD_ADDR\",\"SIZE\",\"IMAGE_DATA\"],"
        "[1,0,100,{\"BASIC_BLOCKS\":[[\"NODE_ID\",\"ADDR_OFFSET\",\"SIZE\",\"NUM_INSTRS\"],"
        "[7,0,4,9]]}]],\"EDGES\":[[\"EDGE_ID\",\"SOURCE_NODE_ID\",\"TARGET_NODE_ID\","
        "\"EDGE_TYPE_ID\"],[5,1,7,1]]}]]}";
    m = load(two, &r);
    CHECK(m != NULL && r.n == 0, "two processes:%s", ot_describe(&r));
    if (m) {
        uint64_t threads = 99, src = 0, dst = 0;
        CHECK(tc_dcfg_model_process(m, 900, &threads) && threads == 3, "900: %llu threads",
              (unsigned long long)threads);
        CHECK(tc_dcfg_model_process(m, 16, &threads) && threads == 0, "16 (\"0x10\"): %llu",
              (unsigned long long)threads);
        CHECK(tc_dcfg_model_edge(m, 900, 2000000006, &src, &dst) && src == 7 &&
                  dst == 2000000008,
              "900: edge 2000000006");
        CHECK(tc_dcfg_model_edge(m, 900, 5, &src, &dst) && src == 1 && dst == 7, "900: edge 5");
        CHECK(!tc_dcfg_model_edge(m, 900, 6, &src, &dst), "900 has no edge 6");
        CHECK(!tc_dcfg_model_edge(m, 16, 2000000006, &src, &dst), "16 has no edge 2000000006");
        CHECK(tc_dcfg_model_edge(m, 16, 5, &src, &dst) && src == 1 && dst == 7, "16: edge 5");
        CHECK(!tc_dcfg_model_edge(m, 16, 4, &src, &dst), "16 has no edge 4");
        CHECK(tc_dcfg_model_node_instrs(m, 900, 7) == 3, "900: block 7");
        CHECK(tc_dcfg_model_node_instrs(m, 16, 7) == 9, "16: block 7");
        CHECK(tc_dcfg_model_node_instrs(m, 16, 8) == 0, "16: no block 8");
        CHECK(tc_dcfg_model_node_instrs(m, 900, 2000000008) == 0, "no NUM_INSTRS: 0");
        CHECK(tc_dcfg_model_node_instrs(m, 900, 8) == 0, "900: no block 8");
    }
    tc_dcfg_model_free(m);

    /* Findings are reported as `validate` reports them; the model is kept. */
    char *doc = with("\"INSTR_COUNT\" : 12", "\"INSTR_COUNT\" : 13");
    m = load(doc, &r);
    OT_RULES(&r, "DCFG-INSTR-COUNT-SUM");
    CHECK(m != NULL, "a model despite a cross-check error");
    tc_dcfg_model_free(m);
    free(doc);
    /* A syntax error or an unreadable version: no model, and the reason. */
    doc = with("} ] ] }", "} ] ]");
    m = load(doc, &r);
    CHECK(m == NULL && r.n >= 1 && !strncmp(r.d[0].rule->id, "TC-JSON-", 8), "cut off:%s",
          ot_describe(&r));
    tc_dcfg_model_free(m);
    free(doc);
    doc = with("\"MAJOR_VERSION\" : 1", "\"MAJOR_VERSION\" : 2");
    m = load(doc, &r);
    CHECK(m == NULL, "version 2 gives no model");
    OT_RULES(&r, "DCFG-VERSION-MAJOR");
    tc_dcfg_model_free(m);
    free(doc);
    tc_dcfg_model_free(NULL);
    ot_free(&r);
}

static void dump(const char *doc, ot_result *r)
{
    ot_opts o = {.format = TC_FORMAT_DCFG, .dump = 1};
    ot_check_memory(doc, strlen(doc), &o, r);
}

/* The dump is exactly these lines. */
static void same_dump(const ot_result *r, const char *const *want, size_t n, const char *what)
{
    size_t got = ot_dump_lines(r);
    CHECK(got == n, "%s: %zu lines, expected %zu", what, got, n);
    for (size_t i = 0; i < n && i < got; i++) {
        const char *line = ot_dump_line(r, i);
        CHECK(!strcmp(line, want[i]), "%s, line %zu:\n      got      %s\n      expected %s", what,
              i, line, want[i]);
    }
}

static void test_dump_example(void)
{
    static const char *const want[] = {
        "{\"t\":\"header\",\"format\":\"dcfg\",\"dump_version\":2,\"major_version\":\"1\",\"minor_version\":\"0\"}",
        "{\"t\":\"file_name\",\"id\":1,\"name\":\"hello-world\"}",
        "{\"t\":\"file_name\",\"id\":8,\"name\":\"hello-world.c\"}",
        "{\"t\":\"edge_type\",\"id\":1,\"name\":\"ENTRY\"}",
        "{\"t\":\"edge_type\",\"id\":2,\"name\":\"EXIT\"}",
        "{\"t\":\"edge_type\",\"id\":3,\"name\":\"CALL\"}",
        "{\"t\":\"edge_type\",\"id\":6,\"name\":\"RETURN\"}",
        "{\"t\":\"edge_type\",\"id\":13,\"name\":\"DIRECT_CONDITIONAL_BRANCH\"}",
        "{\"t\":\"edge_type\",\"id\":18,\"name\":\"FALL_THROUGH\"}",
        "{\"t\":\"special_node\",\"id\":1,\"name\":\"START\"}",
        "{\"t\":\"special_node\",\"id\":2,\"name\":\"END\"}",
        "{\"t\":\"process\",\"pid\":\"13723\",\"instr_count\":\"12\",\"threads\":\"1\"}",
        "{\"t\":\"thread\",\"pid\":\"13723\",\"thread\":0,\"instr_count\":\"12\"}",
        "{\"t\":\"image\",\"pid\":\"13723\",\"id\":1,\"load_addr\":\"4194304\",\"size\":\"2112944\",\"file_name_id\":1}",
        "{\"t\":\"symbol\",\"pid\":\"13723\",\"image\":1,\"name\":\"main\",\"addr_offset\":\"2856\",\"size\":\"128\"}",
        "{\"t\":\"source\",\"pid\":\"13723\",\"image\":1,\"file_name_id\":8,\"line_num\":\"25\",\"addr_offset\":\"2856\",\"size\":\"4\",\"num_instrs\":\"1\"}",
        "{\"t\":\"source\",\"pid\":\"13723\",\"image\":1,\"file_name_id\":8,\"line_num\":\"26\",\"addr_offset\":\"2860\",\"size\":\"5\",\"num_instrs\":\"1\"}",
        "{\"t\":\"block\",\"pid\":\"13723\",\"id\":4,\"image\":1,\"addr_offset\":\"2856\",\"size\":\"9\",\"num_instrs\":\"2\",\"last_instr_offset\":\"4\",\"count\":\"1\"}",
        "{\"t\":\"block\",\"pid\":\"13723\",\"id\":5,\"image\":1,\"addr_offset\":\"2865\",\"size\":\"5\",\"num_instrs\":\"2\",\"last_instr_offset\":\"4\",\"count\":\"2\"}",
        "{\"t\":\"block\",\"pid\":\"13723\",\"id\":6,\"image\":1,\"addr_offset\":\"2880\",\"size\":\"12\",\"num_instrs\":\"2\",\"last_instr_offset\":\"6\",\"count\":\"2\"}",
        "{\"t\":\"routine\",\"pid\":\"13723\",\"entry\":4,\"exits\":[6]}",
        "{\"t\":\"routine_node\",\"pid\":\"13723\",\"entry\":4,\"node\":4,\"idom\":4}",
        "{\"t\":\"routine_node\",\"pid\":\"13723\",\"entry\":4,\"node\":5,\"idom\":4}",
        "{\"t\":\"routine_node\",\"pid\":\"13723\",\"entry\":4,\"node\":6,\"idom\":5}",
        "{\"t\":\"loop\",\"pid\":\"13723\",\"entry\":4,\"head\":5,\"back_edge_sources\":[6],\"nodes\":[5,6],\"parent\":0}",
        "{\"t\":\"edge\",\"pid\":\"13723\",\"id\":10,\"source\":1,\"target\":4,\"type\":1,\"count_per_thread\":[\"1\"]}",
        "{\"t\":\"edge\",\"pid\":\"13723\",\"id\":11,\"source\":4,\"target\":5,\"type\":18,\"count_per_thread\":[\"1\"]}",
        "{\"t\":\"edge\",\"pid\":\"13723\",\"id\":12,\"source\":5,\"target\":6,\"type\":18,\"count_per_thread\":[\"2\"]}",
        "{\"t\":\"edge\",\"pid\":\"13723\",\"id\":13,\"source\":6,\"target\":5,\"type\":13,\"count_per_thread\":[\"1\"]}",
        "{\"t\":\"edge\",\"pid\":\"13723\",\"id\":14,\"source\":6,\"target\":2,\"type\":2,\"count_per_thread\":[\"1\"]}",
    };
    ot_result r = {0};
    dump(dcfg_example, &r);
    CHECK(r.status == 0 && r.n == 0, "example:%s", ot_describe(&r));
    same_dump(&r, want, sizeof want / sizeof *want, "the example");
    ot_free(&r);
}

/* Images, blocks and NODES in id order whatever the file order; symbols,
 * routines and loops in file order within their image; arrays as JSON
 * arrays; optional values absent; a repeated image id dumped once, with
 * what both rows hold under it. */
static void test_dump_order(void)
{
    const char *doc =
        "{\"MAJOR_VERSION\":1,\"PROCESSES\":[[\"PROCESS_ID\",\"PROCESS_DATA\"],[7,{"
        "\"IMAGES\":[[\"IMAGE_ID\",\"LOAD_ADDR\",\"SIZE\",\"IMAGE_DATA\"],"
        "[9,0,100,{\"SYMBOLS\":[[\"NAME\",\"ADDR_OFFSET\",\"SIZE\"],[\"z\",8,1],[\"a\",0,1]],"
        "\"BASIC_BLOCKS\":[[\"NODE_ID\",\"ADDR_OFFSET\",\"SIZE\"],[30,8,4],[20,4,4],[10,0,4]],"
        "\"ROUTINES\":[[\"ENTRY_NODE_ID\",\"NODES\",\"LOOPS\"],"
        "[20,[[\"NODE_ID\",\"IDOM_NODE_ID\"],[30,20],[20,20]],"
        "[[\"LOOP_HEAD_NODE_ID\",\"LOOP_NODE_IDS\",\"LOOP_BACK_EDGE_SOURCE_NODE_IDS\"],"
        "[30,[30],[30]],[20,[20,30]]]],"
        "[10,[[\"NODE_ID\",\"IDOM_NODE_ID\"],[10,10]]]]}],"
        "[2,0,100,{\"BASIC_BLOCKS\":[[\"NODE_ID\",\"ADDR_OFFSET\",\"SIZE\"],[40,0,4]]}],"
        "[2,0,100,{\"BASIC_BLOCKS\":[[\"NODE_ID\",\"ADDR_OFFSET\",\"SIZE\"],[35,0,4]]}]],"
        "\"EDGES\":[[\"EDGE_ID\",\"SOURCE_NODE_ID\",\"TARGET_NODE_ID\",\"EDGE_TYPE_ID\"],"
        "[3,20,30,5],[2,30,30,5],[1,30,20,5]]}]],"
        "\"EDGE_TYPES\":[[\"EDGE_TYPE_ID\",\"EDGE_TYPE\"],[5,\"BRANCH\"]]}";
    static const char *const want[] = {
        "{\"t\":\"header\",\"format\":\"dcfg\",\"dump_version\":2,\"major_version\":\"1\"}",
        "{\"t\":\"edge_type\",\"id\":5,\"name\":\"BRANCH\"}",
        "{\"t\":\"process\",\"pid\":\"7\"}",
        "{\"t\":\"image\",\"pid\":\"7\",\"id\":2,\"load_addr\":\"0\",\"size\":\"100\"}",
        "{\"t\":\"block\",\"pid\":\"7\",\"id\":35,\"image\":2,\"addr_offset\":\"0\",\"size\":\"4\"}",
        "{\"t\":\"block\",\"pid\":\"7\",\"id\":40,\"image\":2,\"addr_offset\":\"0\",\"size\":\"4\"}",
        "{\"t\":\"image\",\"pid\":\"7\",\"id\":9,\"load_addr\":\"0\",\"size\":\"100\"}",
        "{\"t\":\"symbol\",\"pid\":\"7\",\"image\":9,\"name\":\"z\",\"addr_offset\":\"8\",\"size\":\"1\"}",
        "{\"t\":\"symbol\",\"pid\":\"7\",\"image\":9,\"name\":\"a\",\"addr_offset\":\"0\",\"size\":\"1\"}",
        "{\"t\":\"block\",\"pid\":\"7\",\"id\":10,\"image\":9,\"addr_offset\":\"0\",\"size\":\"4\"}",
        "{\"t\":\"block\",\"pid\":\"7\",\"id\":20,\"image\":9,\"addr_offset\":\"4\",\"size\":\"4\"}",
        "{\"t\":\"block\",\"pid\":\"7\",\"id\":30,\"image\":9,\"addr_offset\":\"8\",\"size\":\"4\"}",
        "{\"t\":\"routine\",\"pid\":\"7\",\"entry\":20}",
        "{\"t\":\"routine_node\",\"pid\":\"7\",\"entry\":20,\"node\":20,\"idom\":20}",
        "{\"t\":\"routine_node\",\"pid\":\"7\",\"entry\":20,\"node\":30,\"idom\":20}",
        "{\"t\":\"loop\",\"pid\":\"7\",\"entry\":20,\"head\":30,\"back_edge_sources\":[30],\"nodes\":[30],\"parent\":0}",
        "{\"t\":\"loop\",\"pid\":\"7\",\"entry\":20,\"head\":20,\"nodes\":[20,30],\"parent\":0}",
        "{\"t\":\"routine\",\"pid\":\"7\",\"entry\":10}",
        "{\"t\":\"routine_node\",\"pid\":\"7\",\"entry\":10,\"node\":10,\"idom\":10}",
        "{\"t\":\"edge\",\"pid\":\"7\",\"id\":1,\"source\":30,\"target\":20,\"type\":5}",
        "{\"t\":\"edge\",\"pid\":\"7\",\"id\":2,\"source\":30,\"target\":30,\"type\":5}",
        "{\"t\":\"edge\",\"pid\":\"7\",\"id\":3,\"source\":20,\"target\":30,\"type\":5}",
    };
    ot_result r = {0};
    dump(doc, &r);
    OT_RULES(&r, "DCFG-ID-DUPLICATE");
    OT_MSG(&r, "DCFG-ID-DUPLICATE", "IMAGE_ID 2 is already defined");
    same_dump(&r, want, sizeof want / sizeof *want, "ordering");
    ot_free(&r);
}

/* A growing text buffer for the large documents. */
typedef struct sb {
    char *p;
    size_t n;
    FILE *f;
} sb;

static void sb_open(sb *b) { b->f = open_memstream(&b->p, &b->n); }
static char *sb_close(sb *b)
{
    fclose(b->f);
    return b->p;
}

/* One routine: a chain of blocks 2..N+1 (entry 2), each block with a
 * self-loop, the last one branching back to the entry. Loops: the outer
 * one (head 2, every block) and one per other block (its self-loop),
 * all children of the outer loop. The old checks looked for each loop's
 * parent among all the routine's loops and marked the parent's nodes
 * once per child: 4e10 steps each for N = 200,000. */
static char *many_loops(unsigned n)
{
    sb b;
    sb_open(&b);
    fprintf(b.f, "{\"MAJOR_VERSION\":1,\"EDGE_TYPES\":[[\"EDGE_TYPE_ID\",\"EDGE_TYPE\"],"
                 "[1,\"FALL_THROUGH\"],[2,\"BRANCH\"]],\"PROCESSES\":[[\"PROCESS_ID\","
                 "\"PROCESS_DATA\"],[1,{\"IMAGES\":[[\"IMAGE_ID\",\"LOAD_ADDR\",\"SIZE\","
                 "\"IMAGE_DATA\"],[1,0,%u,{\"BASIC_BLOCKS\":[[\"NODE_ID\",\"ADDR_OFFSET\","
                 "\"SIZE\"]",
            4 * n);
    for (unsigned i = 0; i < n; i++)
        fprintf(b.f, ",[%u,%u,4]", i + 2, 4 * i);
    fprintf(b.f, "],\"ROUTINES\":[[\"ENTRY_NODE_ID\",\"NODES\",\"LOOPS\"],[2,[[\"NODE_ID\","
                 "\"IDOM_NODE_ID\"],[2,2]");
    for (unsigned i = 1; i < n; i++)
        fprintf(b.f, ",[%u,%u]", i + 2, i + 1);
    fprintf(b.f, "],[[\"LOOP_HEAD_NODE_ID\",\"LOOP_BACK_EDGE_SOURCE_NODE_IDS\",\"LOOP_NODE_IDS\","
                 "\"PARENT_LOOP_HEAD_NODE_ID\"],[2,[%u],[2",
            n + 1);
    for (unsigned i = 1; i < n; i++)
        fprintf(b.f, ",%u", i + 2);
    fprintf(b.f, "],0]");
    for (unsigned i = 1; i < n; i++)
        fprintf(b.f, ",[%u,[%u],[%u],2]", i + 2, i + 2, i + 2);
    fprintf(b.f, "]]]}]],\"EDGES\":[[\"EDGE_ID\",\"SOURCE_NODE_ID\",\"TARGET_NODE_ID\","
                 "\"EDGE_TYPE_ID\"],[1,%u,2,2]",
            n + 1);
    for (unsigned i = 1; i < n; i++)
        fprintf(b.f, ",[%u,%u,%u,1],[%u,%u,%u,2]", 2 * i, i + 1, i + 2, 2 * i + 1, i + 2, i + 2);
    fprintf(b.f, "]}]]}");
    return sb_close(&b);
}

static void test_many_loops(void)
{
    enum { N = 200000 };
    char *doc = many_loops(N);
    ot_result r = {0};
    ot_opts o = {.format = TC_FORMAT_DCFG};
    ot_check_memory(doc, strlen(doc), &o, &r);
    CHECK(r.status == 0 && r.n == 0, "%u loops:%s", N, ot_describe(&r));
    free(doc);
    /* The same shape broken once, at the far end: the last loop's parent
     * is a loop that does not hold its node, then no loop at all. */
    static const struct {
        const char *parent, *rule, *needle;
    } broken[] = {
        {",[1001,[1001],[1001],3]", "DCFG-LOOP-NESTING",
         "loop 1001: node 1001 is not a node of its parent loop 3"},
        {",[1001,[1001],[1001],1]", "DCFG-LOOP-PARENT",
         "loop 1001: PARENT_LOOP_HEAD_NODE_ID 1 heads no other loop of routine 2"},
    };
    for (size_t i = 0; i < sizeof broken / sizeof *broken; i++) {
        doc = many_loops(1000);
        char *last = strstr(doc, ",[1001,[1001],[1001],2]");
        CHECK(last != NULL, "the last loop");
        if (last)
            memcpy(last, broken[i].parent, strlen(broken[i].parent));
        ot_check_memory(doc, strlen(doc), &o, &r);
        OT_RULES(&r, broken[i].rule);
        OT_MSG(&r, broken[i].rule, broken[i].needle);
        free(doc);
    }
    /* An array longer than the line writer's buffer: the outer loop of
     * 3,000 nodes (line 6006: header, 2 edge types, process, image, 3,000
     * blocks, routine, 3,000 nodes). */
    doc = many_loops(3000);
    dump(doc, &r);
    CHECK(r.n == 0, "3000 loops:%s", ot_describe(&r));
    sb b;
    sb_open(&b);
    fprintf(b.f, "{\"t\":\"loop\",\"pid\":\"1\",\"entry\":2,\"head\":2,"
                 "\"back_edge_sources\":[3001],\"nodes\":[2");
    for (unsigned i = 3; i <= 3001; i++)
        fprintf(b.f, ",%u", i);
    fprintf(b.f, "],\"parent\":0}");
    char *want = sb_close(&b);
    CHECK(strlen(want) > 8192 && !strcmp(ot_dump_line(&r, 6006), want),
          "the outer loop's line (%zu bytes) differs", strlen(want));
    free(want);
    free(doc);
    ot_free(&r);
}

/* Many images in decreasing id order, each with a block and a routine:
 * the dump found each next image by a scan of all of them (2.5e9 steps
 * for 50,000), and each image's blocks and routines by scans too. */
static void test_many_images(void)
{
    enum { N = 50000 };
    sb b;
    sb_open(&b);
    fprintf(b.f, "{\"MAJOR_VERSION\":1,\"PROCESSES\":[[\"PROCESS_ID\",\"PROCESS_DATA\"],[1,{"
                 "\"IMAGES\":[[\"IMAGE_ID\",\"LOAD_ADDR\",\"SIZE\",\"IMAGE_DATA\"]");
    for (unsigned i = N; i >= 1; i--)
        fprintf(b.f, ",[%u,0,16,{\"BASIC_BLOCKS\":[[\"NODE_ID\",\"ADDR_OFFSET\",\"SIZE\"],"
                     "[%u,0,4]],\"ROUTINES\":[[\"ENTRY_NODE_ID\",\"NODES\"],[%u,[[\"NODE_ID\","
                     "\"IDOM_NODE_ID\"],[%u,%u]]]]}]",
                i, i, i, i, i);
    fprintf(b.f, "]}]]}");
    char *doc = sb_close(&b);
    ot_result r = {0};
    dump(doc, &r);
    CHECK(r.status == 0 && r.n == 0, "%u images:%s", N, ot_describe(&r));
    /* header, process, then 4 lines per image in increasing id. */
    CHECK(ot_dump_lines(&r) == 2 + 4 * (size_t)N, "%zu lines", ot_dump_lines(&r));
    CHECK(!strcmp(ot_dump_line(&r, 2),
                  "{\"t\":\"image\",\"pid\":\"1\",\"id\":1,\"load_addr\":\"0\",\"size\":\"16\"}"),
          "first image: %s", ot_dump_line(&r, 2));
    CHECK(!strcmp(ot_dump_line(&r, 2 + 4 * (size_t)(N - 1) + 3),
                  "{\"t\":\"routine_node\",\"pid\":\"1\",\"entry\":50000,\"node\":50000,\"idom\":50000}"),
          "last line: %s", ot_dump_line(&r, 2 + 4 * (size_t)(N - 1) + 3));
    free(doc);
    ot_free(&r);
}

/* One block with 100,000 edges (to as many blocks) named as the back-edge
 * source of 100,000 loops: "has it an edge to the head" was a scan of
 * its edges per loop (1e10 steps). */
static void test_wide_block(void)
{
    enum { N = 100000 };
    sb b;
    sb_open(&b);
    fprintf(b.f, "{\"MAJOR_VERSION\":1,\"EDGE_TYPES\":[[\"EDGE_TYPE_ID\",\"EDGE_TYPE\"],"
                 "[1,\"BRANCH\"]],\"PROCESSES\":[[\"PROCESS_ID\",\"PROCESS_DATA\"],[1,{"
                 "\"IMAGES\":[[\"IMAGE_ID\",\"LOAD_ADDR\",\"SIZE\",\"IMAGE_DATA\"],[1,0,%u,{"
                 "\"BASIC_BLOCKS\":[[\"NODE_ID\",\"ADDR_OFFSET\",\"SIZE\"],[1,0,4]",
            4 * (N + 1));
    for (unsigned i = 2; i <= N + 1; i++)
        fprintf(b.f, ",[%u,%u,4]", i, 4 * (i - 1));
    fprintf(b.f, "]}]],\"EDGES\":[[\"EDGE_ID\",\"SOURCE_NODE_ID\",\"TARGET_NODE_ID\","
                 "\"EDGE_TYPE_ID\"]");
    for (unsigned i = 2; i <= N + 1; i++)
        fprintf(b.f, ",[%u,1,%u,1],[%u,%u,1,1]", 2 * i, N + 3 - i, 2 * i + 1, i);
    /* One routine (entry 1) holding every block: the blocks fan out of
     * 1 and each branches back; a loop per block i with back edge 1 -> i. */
    fprintf(b.f, "]}]]}");
    char *tail = sb_close(&b);
    /* The routine goes into the image: rebuild with it spliced in. */
    sb_open(&b);
    const char *cut = strstr(tail, "]}]],\"EDGES\"");
    fwrite(tail, 1, (size_t)(cut - tail), b.f);
    fprintf(b.f, "],\"ROUTINES\":[[\"ENTRY_NODE_ID\",\"NODES\",\"LOOPS\"],[1,[[\"NODE_ID\","
                 "\"IDOM_NODE_ID\"],[1,1]");
    for (unsigned i = 2; i <= N + 1; i++)
        fprintf(b.f, ",[%u,1]", i);
    fprintf(b.f, "],[[\"LOOP_HEAD_NODE_ID\",\"LOOP_BACK_EDGE_SOURCE_NODE_IDS\","
                 "\"LOOP_NODE_IDS\"]");
    for (unsigned i = 2; i <= N + 1; i++)
        fprintf(b.f, ",[%u,[1],[%u,1]]", i, i);
    fprintf(b.f, "]]]%s", cut + 1);
    char *doc = sb_close(&b);
    free(tail);
    ot_result r = {0};
    ot_opts o = {.format = TC_FORMAT_DCFG};
    ot_check_memory(doc, strlen(doc), &o, &r);
    CHECK(r.status == 0 && r.n == 0, "wide block:%s", ot_describe(&r));
    free(doc);
    ot_free(&r);
}

static const tu_test tests[] = {
    {"the model: processes, edges, instruction counts", test_model},
    {"the example's dump, every line", test_dump_example},
    {"dump ordering and arrays", test_dump_order},
    {"200,000 loops in one routine", test_many_loops},
    {"50,000 images dumped in id order", test_many_images},
    {"a block with 100,000 edges and back edges", test_wide_block},
    {NULL, NULL},
};

void register_dcfg_model_suite(void) { tu_add_suite("dcfg_model", tests); }
