/*
 * The DCFG-trace reader (parsers/dcfg/dtrc_reader.c) end to end on small
 * documents: one rule broken at a time, with its location and values, and
 * the canonical dump of the decoded edges.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/common/input.h"
#include "../../parsers/dcfg/dtrc.h"
#include "../ot.h"
#include "../suites.h"

#define TABLE                                                                                    \
    "[[\"CURRENT_EDGE_ID\",\"TRANSITION_CODE\",\"NEXT_EDGE_IDS\"],"                              \
    "[123,\"0\",[124]],[123,\"1\",[125]],[124,\"\",[456]],"                                      \
    "[125,\"0\",[543]],[125,\"10\",[542,549]],[125,\"11\",[540,541]]]"
#define CHUNKS_HEAD                                                                              \
    "[\"PRECEDING_INSTR_COUNT\",\"INSTR_COUNT\",\"EDGE_COUNT\",\"FIRST_EDGE_ID\","               \
    "\"EDGE_ID_SEQUENCE\"]"
/* The same with a sixth column, which ruling 18 forbids. */
#define CHUNKS_HEAD_X                                                                            \
    "[\"PRECEDING_INSTR_COUNT\",\"INSTR_COUNT\",\"EDGE_COUNT\",\"FIRST_EDGE_ID\","               \
    "\"EDGE_ID_SEQUENCE\",\"TIME\"]"

/* A document with one process 7 and one thread 0; dict, table and chunks
 * replace the defaults when given. */
static char *doc(const char *dict, const char *table, const char *chunks)
{
    char *s = malloc(8192);
    snprintf(s, 8192,
             "{\"MAJOR_VERSION\":1,\"MINOR_VERSION\":0,\"PROCESSES\":["
             "[\"PROCESS_ID\",\"STRING_DICTIONARY\",\"TRANSITION_TABLE\",\"THREAD_DATA\"],"
             "[7,%s,%s,[[\"THREAD_ID\",\"TRACE_DATA\"],[0,[" CHUNKS_HEAD "%s]]]]]}",
             dict ? dict : "{\"a\":\"w\"}", table ? table : TABLE,
             chunks ? chunks : ",[0,10,4,123,\"w\"],[10,5,3,123,\"A\"]");
    return s;
}

static int dumping = 1;

static void check(const char *text, const char *rules, ot_result *r)
{
    /* Validation alone skips periodic repeats; the dump walks every edge. */
    ot_opts o = {.format = TC_FORMAT_DCFG_TRACE, .dump = dumping};
    memset(r, 0, sizeof *r);
    ot_check_memory(text, strlen(text), &o, r);
    OT_RULES(r, rules);
}

static void run(const char *dict, const char *table, const char *chunks, const char *rules,
                const char *needle)
{
    char *s = doc(dict, table, chunks);
    ot_result r;
    check(s, rules, &r);
    if (needle && *rules)
        OT_MSG(&r, rules, needle);
    ot_free(&r);
    free(s);
}

static void test_valid_and_dump(void)
{
    char *s = doc(NULL, NULL, ",[0,10,4,123,\"w\"],[10,5,3,123,\"<a>\"],[15,0,0,0,\"\"]");
    ot_result r;
    check(s, "", &r);
    CU_ASSERT_EQUAL(r.status, 0);
    OT_DUMP(&r, 0, "{\"t\":\"header\",\"format\":\"dcfg-trace\",\"dump_version\":2,"
                   "\"major\":\"1\",\"minor\":\"0\"}");
    OT_DUMP(&r, 1, "{\"t\":\"process\",\"pid\":\"7\"}");
    OT_DUMP(&r, 2, "{\"t\":\"chunk\",\"pid\":\"7\",\"thread\":\"0\",\"preceding_instr_count\":"
                   "\"0\",\"instr_count\":\"10\",\"edge_count\":\"4\"}");
    OT_DUMP(&r, 3, "{\"t\":\"edges\",\"index\":\"0\",\"ids\":[123,125,542,549]}");
    OT_DUMP(&r, 5, "{\"t\":\"edges\",\"index\":\"0\",\"ids\":[123,125,542]}");
    CU_ASSERT_EQUAL(ot_dump_lines(&r), 7);
    ot_free(&r);
    free(s);
}

static void test_big_chunk_dump_pieces(void)
{
    /* 3000 edges of 1 bit: three lines of ids. */
    char *s = doc("{}", "[[\"CURRENT_EDGE_ID\",\"TRANSITION_CODE\",\"NEXT_EDGE_IDS\"],"
                        "[1,\"0\",[1]],[1,\"1\",[1]]]",
                  ",[0,1,3001,1,\"(500*A)\"]");
    ot_result r;
    check(s, "", &r);
    CU_ASSERT_EQUAL(ot_dump_lines(&r), 3 + 3);
    CU_ASSERT(strstr(ot_dump_line(&r, 5), "\"index\":\"2048\"") != NULL);
    ot_free(&r);
    free(s);
}

static void test_huge_sequence(void)
{
    /* 9.6e19 bits counted, not walked (validation: no dump). */
    dumping = 0;
    run("{}", "[[\"CURRENT_EDGE_ID\",\"TRANSITION_CODE\",\"NEXT_EDGE_IDS\"],[1,\"000000\",[1]]]",
        ",[0,1,\"16000000000000000001\",1,\"(4000000000*(4000000000*A))\"]", "", NULL);
    run("{}", "[[\"CURRENT_EDGE_ID\",\"TRANSITION_CODE\",\"NEXT_EDGE_IDS\"],[1,\"000000\",[1]]]",
        ",[0,1,5,1,\"(4000000000*(4000000000*A))\"]", "DTRC-SEQ-LEFTOVER",
        "leaving 95999999999999999976");
    dumping = 1;
}

static void test_structure_rules(void)
{
    ot_result r;
    check("[]", "DTRC-TOP-OBJECT", &r);
    ot_free(&r);
    check("{\"MINOR_VERSION\":0,\"MAJOR_VERSION\":1,\"PROCESSES\":[[\"PROCESS_ID\","
          "\"STRING_DICTIONARY\",\"TRANSITION_TABLE\",\"THREAD_DATA\"]]}",
          "DTRC-TOP-ORDER", &r);
    OT_MSG(&r, "DTRC-TOP-ORDER", "MAJOR_VERSION comes after MINOR_VERSION");
    OT_AT(&r, "DTRC-TOP-ORDER", 19);
    ot_free(&r);
    check("{\"MAJOR_VERSION\":1,\"MINOR_VERSION\":0}", "DTRC-TOP-MISSING", &r);
    OT_MSG(&r, "DTRC-TOP-MISSING", "PROCESSES");
    ot_free(&r);
    check("{\"MAJOR_VERSION\":1,\"MINOR_VERSION\":0,\"PROCESSES\":[[\"PROCESS_ID\","
          "\"TRANSITION_TABLE\",\"STRING_DICTIONARY\",\"THREAD_DATA\"]]}",
          "DTRC-COLUMNS", &r);
    ot_free(&r);
    check("{\"MAJOR_VERSION\":2,\"MINOR_VERSION\":0,\"PROCESSES\":[]}", "DCFG-VERSION-MAJOR", &r);
    ot_free(&r);
    run("[]", NULL, NULL, "DTRC-TYPE", "STRING_DICTIONARY is an array");
    run(NULL, NULL, ",[0,10,4,123,\"w\",1]", "DTRC-ROW-LONG", NULL);
    run(NULL, NULL, ",[0,10,4,123]", "DTRC-ROW-SHORT", "4 values");
    run(NULL, NULL, ",[0,10,4,123,\"w\"],[9,5,3,123,\"A\"]", "DTRC-CHUNK-ORDER",
        "PRECEDING_INSTR_COUNT 9 is before the end");
    run(NULL, NULL, ",[0,10,4,\"x\",\"w\"]", "DCFG-INTEGER", NULL);
    /* EDGE_COUNT 0: FIRST_EDGE_ID is ignored whatever it holds. */
    run(NULL, NULL, ",[0,0,0,\"whatever\",\"\"]", "", NULL);
}

/* Ruling 18: the columns of every DCFG-trace table are exact, no further
 * column (a DCFG's tables may have unknown ones). */
static void test_exact_columns(void)
{
    static const char *const procs[] = {
        "[\"PROCESS_ID\",\"STRING_DICTIONARY\",\"TRANSITION_TABLE\",\"THREAD_DATA\",\"X\"]",
        "[\"PROCESS_ID\",\"STRING_DICTIONARY\",\"TRANSITION_TABLE\",\"THREAD_DATA\"]"};
    ot_result r;
    char text[1024];
    snprintf(text, sizeof text, "{\"MAJOR_VERSION\":1,\"MINOR_VERSION\":0,\"PROCESSES\":[%s]}",
             procs[0]);
    check(text, "DTRC-COLUMNS", &r);
    OT_MSG(&r, "DTRC-COLUMNS", "PROCESSES columns are [PROCESS_ID, STRING_DICTIONARY, "
                               "TRANSITION_TABLE, THREAD_DATA, X]; they must be exactly");
    OT_AT(&r, "DTRC-COLUMNS", 50);
    ot_free(&r);
    snprintf(text, sizeof text, "{\"MAJOR_VERSION\":1,\"MINOR_VERSION\":0,\"PROCESSES\":[%s]}",
             procs[1]);
    check(text, "", &r);
    ot_free(&r);
    run(NULL, "[[\"CURRENT_EDGE_ID\",\"TRANSITION_CODE\",\"NEXT_EDGE_IDS\",\"WEIGHT\"]]",
        ",[0,0,0,0,\"\"]", "DTRC-COLUMNS", "TRANSITION_TABLE columns");
    /* The thread and trace-data tables. */
    snprintf(text, sizeof text,
             "{\"MAJOR_VERSION\":1,\"MINOR_VERSION\":0,\"PROCESSES\":[%s,[7,{},"
             "[[\"CURRENT_EDGE_ID\",\"TRANSITION_CODE\",\"NEXT_EDGE_IDS\"]],"
             "[[\"THREAD_ID\",\"TRACE_DATA\",\"NAME\"],[0,[],\"main\"]]]]}", procs[1]);
    check(text, "DTRC-COLUMNS", &r);
    OT_MSG(&r, "DTRC-COLUMNS", "THREAD_DATA columns are [THREAD_ID, TRACE_DATA, NAME]");
    ot_free(&r);
    snprintf(text, sizeof text,
             "{\"MAJOR_VERSION\":1,\"MINOR_VERSION\":0,\"PROCESSES\":[%s,[7,{},"
             "[[\"CURRENT_EDGE_ID\",\"TRANSITION_CODE\",\"NEXT_EDGE_IDS\"]],"
             "[[\"THREAD_ID\",\"TRACE_DATA\"],[0,[" CHUNKS_HEAD_X ",[0,0,0,0,\"\",1]]]]]]}",
             procs[1]);
    check(text, "DTRC-COLUMNS", &r);
    OT_MSG(&r, "DTRC-COLUMNS", "EDGE_ID_SEQUENCE, TIME]");
    ot_free(&r);
}

/* Ruling 19: unknown top-level keys are allowed anywhere, named by a
 * pedantic note. */
static void test_unknown_keys(void)
{
    const char *text = "{\"TOOL\":\"x\",\"MAJOR_VERSION\":1,\"MINOR_VERSION\":0,\"PROCESSES\":["
                       "[\"PROCESS_ID\",\"STRING_DICTIONARY\",\"TRANSITION_TABLE\","
                       "\"THREAD_DATA\"]],"
                       "\"EXTRA\":{\"a\":[1,2]}}";
    ot_result r;
    check(text, "", &r);
    ot_free(&r);
    memset(&r, 0, sizeof r);
    tc_diag_sink s;
    tc_diag_init(&s, "mem", 1000, 1, ot_collect, &r);
    tc_input *in = tc_input_open_memory(text, strlen(text), NULL);
    CU_ASSERT_FATAL(in != NULL);
    tc_parse_ctx ctx = {.diags = &s};
    tc_dtrc_parse(tc_input_reader(in), &ctx);
    tc_diag_finish(&s);
    OT_RULES(&r, "DCFG-UNKNOWN-KEY DCFG-UNKNOWN-KEY");
    OT_MSG(&r, "DCFG-UNKNOWN-KEY", "\"TOOL\"");
    OT_AT(&r, "DCFG-UNKNOWN-KEY", 1);
    CHECK(ot_find(&r, "DCFG-UNKNOWN-KEY", "\"EXTRA\"") != NULL, "no note on EXTRA: %s",
          ot_describe(&r));
    tc_input_close(in);
    ot_free(&r);
}

/* ---- the dump's cap per chunk ---- */

static void dump_to(void *user, const void *event) { tc_dtrc_dump(user, event); }

/* The dump of text with at most cap edges per chunk, findings into r. */
static char *capped_dump(const char *text, uint64_t cap, ot_result *r)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    CU_ASSERT_FATAL(f != NULL);
    memset(r, 0, sizeof *r);
    tc_diag_sink s;
    ot_sink(&s, "mem", r);
    tc_jsonl w = {.f = f};
    tc_input *in = tc_input_open_memory(text, strlen(text), NULL);
    CU_ASSERT_FATAL(in != NULL);
    tc_parse_ctx ctx = {.diags = &s, .on_event = dump_to, .user = &w};
    tc_dtrc_opts o = {.dump_cap = cap};
    tc_dtrc_parse_opts(tc_input_reader(in), &ctx, &o);
    tc_diag_finish(&s);
    tc_input_close(in);
    fclose(f);
    return out;
}

static size_t lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static void test_dump_cap(void)
{
    ot_result r;
    char *s = doc(NULL, NULL, ",[0,10,4,123,\"w\"]");
    /* At the cap or below it: every edge, no truncated line. */
    char *d = capped_dump(s, 4, &r);
    OT_RULES(&r, "");
    CU_ASSERT_PTR_NOT_NULL(
        strstr(d, "{\"t\":\"edges\",\"index\":\"0\",\"ids\":[123,125,542,549]}\n"));
    CU_ASSERT_PTR_NULL(strstr(d, "truncated"));
    free(d);
    ot_free(&r);
    d = capped_dump(s, 3, &r);
    OT_RULES(&r, "");
    CHECK(strstr(d, "{\"t\":\"edges\",\"index\":\"0\",\"ids\":[123,125,542]}\n"
                    "{\"t\":\"truncated\",\"pid\":\"7\",\"thread\":\"0\",\"index\":\"3\","
                    "\"edge_count\":\"4\"}\n") != NULL, "dump:\n%s", d);
    free(d);
    ot_free(&r);
    free(s);

    /* Hostile chunks: 2^64 - 1 edges from an empty code with 1000 next
     * edges, and 1.6e19 characters of repeats. Printed up to the cap, the
     * rest checked with periods skipped: both end at once. */
    char table[8192] = "[[\"CURRENT_EDGE_ID\",\"TRANSITION_CODE\",\"NEXT_EDGE_IDS\"],[1,\"\",[1";
    for (int i = 1; i < 1000; i++)
        strcat(table, ",1");
    strcat(table, "]]]");
    s = doc("{}", table, ",[0,1,\"18446744073709551615\",1,\"\"],[1,0,1,1,\"\"]");
    d = capped_dump(s, 5000, &r);
    OT_RULES(&r, "");
    CHECK(strstr(d, "{\"t\":\"truncated\",\"pid\":\"7\",\"thread\":\"0\",\"index\":\"5000\","
                    "\"edge_count\":\"18446744073709551615\"}\n") != NULL, "no truncated line");
    CHECK(strstr(d, "\"index\":\"4096\",\"ids\":[1,") != NULL, "no fifth edges line");
    /* header, process, 2 chunks, 5 edges lines (4 of 1024, 904), truncated, 1 edges */
    CU_ASSERT_EQUAL(lines(d), 2 + 2 + 5 + 1 + 1);
    free(d);
    ot_free(&r);
    free(s);
    s = doc("{}", "[[\"CURRENT_EDGE_ID\",\"TRANSITION_CODE\",\"NEXT_EDGE_IDS\"],[1,\"0\",[1]],"
                  "[1,\"1\",[1]]]",
            ",[0,1,\"18446744073709551615\",1,\"(4000000000*(4000000000*A))\"]");
    d = capped_dump(s, 2048, &r);
    OT_RULES(&r, "DTRC-SEQ-LEFTOVER");
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "\"t\":\"truncated\""));
    CU_ASSERT_EQUAL(lines(d), 2 + 1 + 2 + 1);
    free(d);
    ot_free(&r);
    free(s);
}

static void test_dictionary_rules(void)
{
    run("{\"a b\":\"A\"}", NULL, NULL, "DTRC-DICT-KEY", "\"a b\"");
    run("{\"a\":\"<a>\"}", NULL, NULL, "DTRC-SEQ-CYCLE", "a -> a");
    run("{\"a\":\"<b>\",\"b\":\"<c>\",\"c\":\"<a>\"}", NULL, NULL, "DTRC-SEQ-CYCLE",
        "a -> b -> c -> a");
    run("{\"a\":\"w<zz>\"}", NULL, NULL, "DTRC-SEQ-MISSING", "\"zz\"");
    run("{\"a\":\"w.\"}", NULL, NULL, "DTRC-SEQ-DOT", "first at character 1");
    run("{\"a\":5}", NULL, NULL, "DTRC-TYPE", NULL);
}

static void test_table_rules(void)
{
    const char *h = "[[\"CURRENT_EDGE_ID\",\"TRANSITION_CODE\",\"NEXT_EDGE_IDS\"],";
    char t[512];
    snprintf(t, sizeof t, "%s[1,\"0\",[1]],[1,\"00\",[1]]]", h);
    run("{}", t, ",[0,1,1,1,\"\"]", "DTRC-CODE-DUPLICATE",
        "code \"00\" equals code \"0\" of row 1");
    snprintf(t, sizeof t, "%s[1,\"0\",[1]],[1,\"01\",[1]]]", h);
    run("{}", t, ",[0,1,1,1,\"\"]", "DTRC-CODE-PREFIX", "code \"01\" starts with code \"0\"");
    snprintf(t, sizeof t, "%s[1,\"\",[1]],[1,\"1\",[1]]]", h);
    run("{}", t, ",[0,1,1,1,\"\"]", "DTRC-CODE-EMPTY", NULL);
    snprintf(t, sizeof t, "%s[1,\"012\",[1]]]", h);
    run("{}", t, ",[0,1,1,1,\"\"]", "DTRC-CODE-SYNTAX", "\"012\"");
    snprintf(t, sizeof t, "%s[1,\"0\",[]]]", h);
    run("{}", t, ",[0,1,1,1,\"\"]", "DTRC-NEXT-EMPTY", NULL);
    snprintf(t, sizeof t, "%s[1,\"0\",[0]]]", h);
    run("{}", t, ",[0,1,1,1,\"\"]", "DCFG-ID-RANGE", NULL);
}

static void test_sequence_rules(void)
{
    run(NULL, NULL, ",[0,10,4,123,\"w w\"]", "DTRC-SEQ-CHAR", "character 1");
    run(NULL, NULL, ",[0,10,4,123,\"(*w)\"]", "DTRC-SEQ-REPEAT", NULL);
    run(NULL, NULL, ",[0,10,4,123,\"(2*w\"]", "DTRC-SEQ-PAREN", NULL);
    run(NULL, NULL, ",[0,10,4,123,\"(99999999999999999999*w)\"]", "DTRC-SEQ-COUNT", NULL);
    run(NULL, NULL, ",[0,10,4,123,\"<a\"]", "DTRC-SEQ-KEY", NULL);
    run(NULL, NULL, ",[0,10,4,123,\"<q>\"]", "DTRC-SEQ-MISSING", "\"q\"");
    run("{}", "[[\"CURRENT_EDGE_ID\",\"TRANSITION_CODE\",\"NEXT_EDGE_IDS\"],[1,\"0\",[1]],"
        "[1,\"1\",[1]]]", ",[0,1,9,1,\"A\"]", "DTRC-SEQ-SHORT", "after 7 edges");
    run(NULL, NULL, ",[0,10,4,123,\"ww\"]", "DTRC-SEQ-LEFTOVER", "leaving 9");
    run(NULL, NULL, ",[0,10,5,123,\"w\"]", "DTRC-SEQ-NO-ENTRY", "edge 549");
    run("{}", "[[\"CURRENT_EDGE_ID\",\"TRANSITION_CODE\",\"NEXT_EDGE_IDS\"],[1,\"00\",[1]]]",
        ",[0,1,2,1,\"g\"]", "DTRC-SEQ-NO-CODE", "the bits \"10\"");
    char deep[1200] = ",[0,1,1,1,\"";
    for (int i = 0; i < 300; i++)
        strcat(deep, "(1*");
    strcat(deep, "\"]");
    run(NULL, NULL, deep, "DTRC-SEQ-NESTING", NULL);
}

static void test_duplicates(void)
{
    ot_result r;
    check("{\"MAJOR_VERSION\":1,\"MINOR_VERSION\":0,\"PROCESSES\":[[\"PROCESS_ID\","
          "\"STRING_DICTIONARY\",\"TRANSITION_TABLE\",\"THREAD_DATA\"],[5],[5]]}",
          "DTRC-PROCESS-DUPLICATE", &r);
    ot_free(&r);
    check("{\"MAJOR_VERSION\":1,\"MINOR_VERSION\":0,\"PROCESSES\":[[\"PROCESS_ID\","
          "\"STRING_DICTIONARY\",\"TRANSITION_TABLE\",\"THREAD_DATA\"],[5,{},[[\"CURRENT_EDGE_ID"
          "\",\"TRANSITION_CODE\",\"NEXT_EDGE_IDS\"]],[[\"THREAD_ID\",\"TRACE_DATA\"],[0],[0]]]]}",
          "DTRC-THREAD-DUPLICATE", &r);
    ot_free(&r);
}


/* ---- pairing with a DCFG (ruling 13) ---- */

static const char *pair_dcfg =
    "{\"MAJOR_VERSION\":1,\"MINOR_VERSION\":0,"
    "\"FILE_NAMES\":[[\"FILE_NAME_ID\",\"FILE_NAME\"],[1,\"a\"]],"
    "\"EDGE_TYPES\":[[\"EDGE_TYPE_ID\",\"EDGE_TYPE\"],[1,\"ENTRY\"],[2,\"FALL_THROUGH\"],"
    "[3,\"EXIT\"]],"
    "\"SPECIAL_NODES\":[[\"NODE_ID\",\"NODE_NAME\"],[1,\"START\"],[2,\"END\"]],"
    "\"PROCESSES\":[[\"PROCESS_ID\",\"PROCESS_DATA\"],[7,{\"INSTR_COUNT\":5,"
    "\"INSTR_COUNT_PER_THREAD\":[5],"
    "\"IMAGES\":[[\"IMAGE_ID\",\"LOAD_ADDR\",\"SIZE\",\"IMAGE_DATA\"],[1,\"0x400000\",4096,"
    "{\"FILE_NAME_ID\":1,\"BASIC_BLOCKS\":[[\"NODE_ID\",\"ADDR_OFFSET\",\"SIZE\",\"NUM_INSTRS\","
    "\"LAST_INSTR_OFFSET\",\"COUNT\"],[10,\"0x10\",8,3,4,1],[11,\"0x18\",8,2,4,1]]}]],"
    "\"EDGES\":[[\"EDGE_ID\",\"SOURCE_NODE_ID\",\"TARGET_NODE_ID\",\"EDGE_TYPE_ID\","
    "\"COUNT_PER_THREAD\"],[100,1,10,1,[1]],[101,10,11,2,[1]],[102,11,2,3,[1]]]}]]}";

/* The trace of process pid, thread tid, with transitions and one chunk. */
static void paired(uint64_t pid, uint64_t tid, const char *rows, const char *chunk,
                   const char *rules, const char *needle)
{
    ot_result dr, r;
    memset(&dr, 0, sizeof dr);
    memset(&r, 0, sizeof r);
    tc_diag_sink ds, ts;
    ot_sink(&ds, "dcfg", &dr);
    tc_input *din = tc_input_open_memory(pair_dcfg, strlen(pair_dcfg), NULL);
    CU_ASSERT_FATAL(din != NULL);
    tc_dcfg_model *m = tc_dcfg_model_load(tc_input_reader(din), &ds);
    CU_ASSERT_FATAL(m != NULL);
    char text[2048];
    snprintf(text, sizeof text,
             "{\"MAJOR_VERSION\":1,\"MINOR_VERSION\":0,\"PROCESSES\":["
             "[\"PROCESS_ID\",\"STRING_DICTIONARY\",\"TRANSITION_TABLE\",\"THREAD_DATA\"],"
             "[%llu,{},[[\"CURRENT_EDGE_ID\",\"TRANSITION_CODE\",\"NEXT_EDGE_IDS\"]%s],"
             "[[\"THREAD_ID\",\"TRACE_DATA\"],[%llu,[" CHUNKS_HEAD ",%s]]]]]}",
             (unsigned long long)pid, rows, (unsigned long long)tid, chunk);
    ot_sink(&ts, "trace", &r);
    tc_input *tin = tc_input_open_memory(text, strlen(text), NULL);
    tc_parse_ctx ctx = {.diags = &ts};
    tc_dtrc_parse_paired(tc_input_reader(tin), &ctx, m);
    tc_diag_finish(&ts);
    OT_RULES(&r, rules);
    if (needle && *rules)
        OT_MSG(&r, rules, needle);
    tc_input_close(tin);
    tc_input_close(din);
    tc_dcfg_model_free(m);
    ot_free(&dr);
    ot_free(&r);
}

static void test_pairing(void)
{
    const char *rows = ",[100,\"\",[101]],[101,\"\",[102]]";
    paired(7, 0, rows, "[0,5,3,100,\"\"]", "", NULL);
    paired(7, 0, rows, "[0,6,3,100,\"\"]", "DTRC-PAIR-INSTR-COUNT", "hold 5 instructions");
    paired(7, 1, rows, "[0,5,3,100,\"\"]", "DTRC-PAIR-THREAD", "has 1 threads");
    paired(8, 0, rows, "[0,5,1,100,\"\"]", "DTRC-PAIR-PROCESS", "PROCESS_ID 8");
    paired(7, 0, ",[100,\"\",[103]]", "[0,0,2,100,\"\"]", "DTRC-PAIR-EDGE", "edge 103");
    paired(7, 0, ",[100,\"\",[102]]", "[0,2,2,100,\"\"]", "DTRC-PAIR-JOIN",
           "leaves node 11, but the edge before it enters node 10");
}

static const tu_test tests[] = {
    {"valid document and dump", test_valid_and_dump},
    {"large chunk dumped in pieces", test_big_chunk_dump_pieces},
    {"1e19-bit sequence", test_huge_sequence},
    {"document shape and order", test_structure_rules},
    {"exact columns (ruling 18)", test_exact_columns},
    {"unknown top-level keys (ruling 19)", test_unknown_keys},
    {"dump capped per chunk", test_dump_cap},
    {"dictionary", test_dictionary_rules},
    {"transition table", test_table_rules},
    {"sequences", test_sequence_rules},
    {"duplicate processes and threads", test_duplicates},
    {"pairing with a DCFG", test_pairing},
    {NULL, NULL},
};

void register_dtrc_reader_suite(void) { tu_add_suite("dtrc_reader", tests); }
