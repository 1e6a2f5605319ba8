/*
 * The view of `tracecheck show` for DCFG and DCFG-trace (spec/dcfg/dcfg.md,
 * "The view of `tracecheck show`"): records are table headers and rows,
 * dictionary entries and members without rows, drawn by the readers of
 * parsers/dcfg; their fields are named as the canonical dump names them,
 * each with its line:column in the text and its decoded value. The views
 * are checked line by line, and a parse with fields asked for must find
 * what one without finds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/common/fields.h"
#include "../../parsers/common/show.h"
#include "../suites.h"
#include "../tu.h"

/* One line per top-level member, so that lines and columns differ. */
static const char DCFG[] =
    "{\"MAJOR_VERSION\":1,\"MINOR_VERSION\":0,\n"
    "\"EDGE_TYPES\":[[\"EDGE_TYPE_ID\",\"EDGE_TYPE\"],[1,\"ENTRY\"],[2,\"FALL_THROUGH\"],"
    "[3,\"EXIT\"]],\n"
    "\"SPECIAL_NODES\":[[\"NODE_ID\",\"NODE_NAME\"],[1,\"START\"],[2,\"END\"]],\n"
    "\"PROCESSES\":[[\"PROCESS_ID\",\"PROCESS_DATA\"],[42,{\"INSTR_COUNT\":5,"
    "\"INSTR_COUNT_PER_THREAD\":[5],\n"
    "\"IMAGES\":[[\"IMAGE_ID\",\"LOAD_ADDR\",\"SIZE\",\"IMAGE_DATA\"],"
    "[1,\"0x400000\",4096,{\"BASIC_BLOCKS\":[[\"NODE_ID\",\"ADDR_OFFSET\",\"SIZE\","
    "\"NUM_INSTRS\",\"LAST_INSTR_OFFSET\",\"COUNT\"],\n"
    "[10,\"0x10\",8,2,4,1],[11,\"0x18\",12,3,8,1]]}]],\n"
    "\"EDGES\":[[\"EDGE_ID\",\"SOURCE_NODE_ID\",\"TARGET_NODE_ID\",\"EDGE_TYPE_ID\","
    "\"COUNT_PER_THREAD\"],[100,1,10,1,[1]],[101,10,11,2,[1]],[102,11,2,3,[1]]]}]]}\n";

static const char DTRC[] =
    "{\"MAJOR_VERSION\":1,\"MINOR_VERSION\":0,\"PROCESSES\":[\n"
    "[\"PROCESS_ID\",\"STRING_DICTIONARY\",\"TRANSITION_TABLE\",\"THREAD_DATA\"],\n"
    "[7,{\"a\":\"w\"},[[\"CURRENT_EDGE_ID\",\"TRANSITION_CODE\",\"NEXT_EDGE_IDS\"],\n"
    "[123,\"0\",[124]],[123,\"1\",[125]],[124,\"\",[456]],[125,\"0\",[543]],\n"
    "[125,\"10\",[542,549]],[125,\"11\",[540,541]]],\n"
    "[[\"THREAD_ID\",\"TRACE_DATA\"],[0,[[\"PRECEDING_INSTR_COUNT\",\"INSTR_COUNT\","
    "\"EDGE_COUNT\",\"FIRST_EDGE_ID\",\"EDGE_ID_SEQUENCE\"],\n"
    "[0,10,4,123,\"w\"],[10,5,3,123,\"<a>\"]]]]]]}\n";

static char *write_doc(const char *name, const char *text)
{
    return tu_write_file(name, text, strlen(text));
}

/* The offset of the n-th (from 0) occurrence of needle in text. */
static uint64_t at(const char *text, const char *needle, int n)
{
    const char *p = text;
    for (;;) {
        p = strstr(p, needle);
        if (!p)
            abort();
        if (n-- == 0)
            return (uint64_t)(p - text);
        p++;
    }
}

/* The view of one target, context records on each side (malloc'd). */
static char *view(const char *path, int by_record, uint64_t n, unsigned context)
{
    tc_check_opts c = {0};
    tc_show_target t = {.by_record = by_record, .at = by_record ? 0 : n,
                        .record = by_record ? n : 0};
    tc_error err = TC_ERROR_INIT;
    int rc = tc_show(path, NULL, &c, context, &t, 1, &err);
    CHECK(rc == 0, "tc_show returned %d", rc);
    tc_error_free(&err);
    return t.view ? t.view : calloc(1, 1);
}

/* A view is exactly want; on failure, both are printed. */
static void expect_view(const char *v, const char *want, const char *file, unsigned line)
{
    tu_assert(strcmp(v, want) == 0, file, line, "view:\n%s-- expected:\n%s", v, want);
}
#define EXPECT_VIEW(v, want) expect_view((v), (want), __FILE__, __LINE__)

/* ---- the expected views (the marked record '>' holds the target) ----
 *
 * Records of DCFG: 0 MAJOR_VERSION, 1 MINOR_VERSION, 2 EDGE_TYPES header,
 * 3-5 its rows, 6 SPECIAL_NODES header, 7-8 rows, 9 PROCESSES header, 10
 * row 1, 11 INSTR_COUNT, 12 INSTR_COUNT_PER_THREAD, 13 IMAGES header, 14
 * row 1, 15 BASIC_BLOCKS header, 16-17 rows, 18 EDGES header, 19-21 rows.
 * Of DTRC: 0-1 the versions, 2 PROCESSES header, 3 row 1, 4 the dictionary
 * entry, 5 TRANSITION_TABLE header, 6-11 rows, 12 THREAD_DATA header, 13
 * row 1, 14 TRACE_DATA header, 15-16 chunks. */

/* show_a.dcfg.json --at 461 -C 0 */
static const char V_BLOCK_SIZE[] =
    "> record 16, line 6, bytes 450-468 (0x1c2, 19 bytes): BASIC_BLOCKS row 1 ($.PROCESSES[1][1].IMAGES[1][3].BASIC_BLOCKS[1])\n"
    "  6:2-3          10                                id                         10\n"
    "  6:5-10         \"0x10\"                            addr_offset                16 (0x10)\n"
    "  6:12-12        8                                 size                       8\n"
    "  6:14-14        2                                 num_instrs                 2\n"
    "  6:16-16        4                                 last_instr_offset          4\n"
    "  6:18-18        1                                 count                      1\n";

/* show_a.dcfg.json --at 450 */
static const char V_BLOCK_FIRST[] =
    "  record 15, line 5, bytes 375-447 (0x177, 73 bytes): BASIC_BLOCKS header ($.PROCESSES[1][1].IMAGES[1][3].BASIC_BLOCKS[0])\n"
    "  5:93-101       \"NODE_ID\"                         column                     NODE_ID (field id)\n"
    "  5:103-115      \"ADDR_OFFSET\"                     column                     ADDR_OFFSET (field addr_offset)\n"
    "  5:117-122      \"SIZE\"                            column                     SIZE (field size)\n"
    "  5:124-135      \"NUM_INSTRS\"                      column                     NUM_INSTRS (field num_instrs)\n"
    "  5:137-155      \"LAST_INSTR_OFFSET\"               column                     LAST_INSTR_OFFSET (field last_instr_offset)\n"
    "  5:157-163      \"COUNT\"                           column                     COUNT (field count)\n"
    "> record 16, line 6, bytes 450-468 (0x1c2, 19 bytes): BASIC_BLOCKS row 1 ($.PROCESSES[1][1].IMAGES[1][3].BASIC_BLOCKS[1])\n"
    "  6:2-3          10                                id                         10\n"
    "  6:5-10         \"0x10\"                            addr_offset                16 (0x10)\n"
    "  6:12-12        8                                 size                       8\n"
    "  6:14-14        2                                 num_instrs                 2\n"
    "  6:16-16        4                                 last_instr_offset          4\n"
    "  6:18-18        1                                 count                      1\n"
    "  record 17, line 6, bytes 470-489 (0x1d6, 20 bytes): BASIC_BLOCKS row 2 ($.PROCESSES[1][1].IMAGES[1][3].BASIC_BLOCKS[2])\n"
    "  6:22-23        11                                id                         11\n"
    "  6:25-30        \"0x18\"                            addr_offset                24 (0x18)\n"
    "  6:32-33        12                                size                       12\n"
    "  6:35-35        3                                 num_instrs                 3\n"
    "  6:37-37        8                                 last_instr_offset          8\n"
    "  6:39-39        1                                 count                      1\n";

/* show_a.dcfg.json --at 344 -C 0 */
static const char V_LOAD_ADDR[] =
    "> record 14, line 5, bytes 339-358 (0x153, 20 bytes): IMAGES row 1 ($.PROCESSES[1][1].IMAGES[1])\n"
    "  5:57-57        1                                 id                         1\n"
    "  5:59-68        \"0x400000\"                        load_addr                  4194304 (0x400000)\n"
    "  5:70-73        4096                              size                       4096\n"
    "  5:75-75        {                                 image_data                 an object: its members follow\n";

/* show_a.dcfg.json --record 19 -C 0 */
static const char V_EDGE_1[] =
    "> record 19, line 7, bytes 585-600 (0x249, 16 bytes): EDGES row 1 ($.PROCESSES[1][1].EDGES[1])\n"
    "  7:91-93        100                               id                         100\n"
    "  7:95-95        1                                 source                     1 (START)\n"
    "  7:97-98        10                                target                     10\n"
    "  7:100-100      1                                 type                       1 (ENTRY)\n"
    "  7:102-104      [1]                               count_per_thread           [1] (sum 1)\n";

/* show_a.dcfg.json --record 11 */
static const char V_INSTR_COUNT[] =
    "  record 10, line 4, bytes 233-237 (0xe9, 5 bytes): PROCESSES row 1 ($.PROCESSES[1])\n"
    "  4:45-46        42                                pid                        42\n"
    "  4:48-48        {                                 process_data               an object: its members follow\n"
    "> record 11, line 4, bytes 238-252 (0xee, 15 bytes): INSTR_COUNT of PROCESS_DATA\n"
    "  4:63-63        5                                 instr_count                5\n"
    "  record 12, line 4, bytes 254-281 (0xfe, 28 bytes): INSTR_COUNT_PER_THREAD of PROCESS_DATA\n"
    "  4:91-91        5                                 instr_count                5 (thread 0)\n";

/* show_a.dcfg.json --at 1000 */
static const char V_PAST_END[] =
    "  (no record holds byte 1000; record 21 is the last that starts before it)\n"
    "  record 20, line 7, bytes 602-618 (0x25a, 17 bytes): EDGES row 2 ($.PROCESSES[1][1].EDGES[2])\n"
    "  7:108-110      101                               id                         101\n"
    "  7:112-113      10                                source                     10\n"
    "  7:115-116      11                                target                     11\n"
    "  7:118-118      2                                 type                       2 (FALL_THROUGH)\n"
    "  7:120-122      [1]                               count_per_thread           [1] (sum 1)\n"
    "> record 21, line 7, bytes 620-635 (0x26c, 16 bytes): EDGES row 3 ($.PROCESSES[1][1].EDGES[3])\n"
    "  7:126-128      102                               id                         102\n"
    "  7:130-131      11                                source                     11\n"
    "  7:133-133      2                                 target                     2 (END)\n"
    "  7:135-135      3                                 type                       3 (EXIT)\n"
    "  7:137-139      [1]                               count_per_thread           [1] (sum 1)\n";

/* show_a.dcfg.json --record 22 -C 0 */
static const char V_NO_RECORD[] =
    "  (the input has 22 records: no record 22)\n";

/* show_b.trace.json --at 448 -C 0 */
static const char V_CHUNK_2[] =
    "> record 16, line 7, bytes 435-452 (0x1b3, 18 bytes): TRACE_DATA row 2 ($.PROCESSES[1][3][1][1][2])\n"
    "  7:19-20        10                                preceding_instr_count      10\n"
    "  7:22-22        5                                 instr_count                5\n"
    "  7:24-24        3                                 edge_count                 3\n"
    "  7:26-28        123                               first_edge_id              123\n"
    "  7:30-34        \"<a>\"                             edge_id_sequence           3 characters, decoded 3 edges\n";

/* show_b.trace.json --record 10 */
static const char V_TRANSITION_5[] =
    "  record 9, line 4, bytes 236-250 (0xec, 15 bytes): TRANSITION_TABLE row 4 ($.PROCESSES[1][2][4])\n"
    "  4:49-51        125                               current_edge_id            125\n"
    "  4:53-55        \"0\"                               transition_code            \"0\" (1 bit)\n"
    "  4:57-61        [543]                             next_edge_ids              [543]\n"
    "> record 10, line 5, bytes 253-272 (0xfd, 20 bytes): TRANSITION_TABLE row 5 ($.PROCESSES[1][2][5])\n"
    "  5:2-4          125                               current_edge_id            125\n"
    "  5:6-9          \"10\"                              transition_code            \"10\" (2 bits)\n"
    "  5:11-19        [542,549]                         next_edge_ids              [542, 549]\n"
    "  record 11, line 5, bytes 274-293 (0x112, 20 bytes): TRANSITION_TABLE row 6 ($.PROCESSES[1][2][6])\n"
    "  5:23-25        125                               current_edge_id            125\n"
    "  5:27-30        \"11\"                              transition_code            \"11\" (2 bits)\n"
    "  5:32-40        [540,541]                         next_edge_ids              [540, 541]\n";

/* show_b.trace.json --at 120 */
static const char V_PROCESS[] =
    "  record 2, line 2, bytes 51-117 (0x33, 67 bytes): PROCESSES header ($.PROCESSES[0])\n"
    "  2:2-13         \"PROCESS_ID\"                      column                     PROCESS_ID\n"
    "  2:15-33        \"STRING_DICTIONARY\"               column                     STRING_DICTIONARY\n"
    "  2:35-52        \"TRANSITION_TABLE\"                column                     TRANSITION_TABLE\n"
    "  2:54-66        \"THREAD_DATA\"                     column                     THREAD_DATA\n"
    "> record 3, line 3, bytes 120-123 (0x78, 4 bytes): PROCESSES row 1 ($.PROCESSES[1])\n"
    "  3:2-2          7                                 pid                        7\n"
    "  3:4-4          {                                 string_dictionary          an object: its members follow\n"
    "  record 4, line 3, bytes 124-130 (0x7c, 7 bytes): STRING_DICTIONARY entry \"a\"\n"
    "  3:5-7          \"a\"                               key                        \"a\"\n"
    "  3:9-11         \"w\"                               sequence                   1 character\n";

/* show_c.dcfg.json --at 471 -C 0 */
static const char V_BAD_BLOCK[] =
    "> record 17, line 6, bytes 470-489 (0x1d6, 20 bytes): BASIC_BLOCKS row 2 ($.PROCESSES[1][1].IMAGES[1][3].BASIC_BLOCKS[2])\n"
    "  6:22-22        0                                 id                         (not read: not an id of 1..0x7FFFFFFF)\n"
    "  6:25-30        \"0x18\"                            addr_offset                24 (0x18)\n"
    "  6:32-33        12                                size                       12\n"
    "  6:35-35        3                                 num_instrs                 3\n"
    "  6:37-37        8                                 last_instr_offset          8\n"
    "  6:39-39        1                                 value                      (an unknown column: not read)\n";

/* show_d.trace.json --at 448 -C 0 */
static const char V_BAD_CHUNK[] =
    "> record 16, line 7, bytes 435-452 (0x1b3, 18 bytes): TRACE_DATA row 2 ($.PROCESSES[1][3][1][1][2])\n"
    "  7:19-20        10                                preceding_instr_count      10\n"
    "  7:22-22        5                                 instr_count                5\n"
    "  7:24-24        9                                 edge_count                 9\n"
    "  7:26-28        123                               first_edge_id              123\n"
    "  7:30-34        \"<a>\"                             edge_id_sequence           3 characters, decoding stopped after 4 edges\n";

/* ---- DCFG ---- */

static void test_dcfg_inside_record(void)
{
    char *path = write_doc("show_a.dcfg.json", DCFG);
    /* The 8 of SIZE, inside block 10's row: the row alone with -C 0. */
    uint64_t off = at(DCFG, ",8,2,4,1]", 0) + 1;
    CHECK(off == 461, "offset %llu", (unsigned long long)off);
    char *v = view(path, 0, off, 0);
    EXPECT_VIEW(v, V_BLOCK_SIZE);
    free(v);
    /* The row's first byte, with a record on each side. */
    off = at(DCFG, "[10,\"0x10\"", 0);
    CHECK(off == 450, "offset %llu", (unsigned long long)off);
    v = view(path, 0, off, 1);
    EXPECT_VIEW(v, V_BLOCK_FIRST);
    free(v);
    free(path);
}

static void test_dcfg_multibyte_field(void)
{
    char *path = write_doc("show_a.dcfg.json", DCFG);
    /* The x of "0x400000" (LOAD_ADDR), a field of ten bytes. */
    uint64_t off = at(DCFG, "0x400000", 0) + 1;
    CHECK(off == 344, "offset %llu", (unsigned long long)off);
    char *v = view(path, 0, off, 0);
    EXPECT_VIEW(v, V_LOAD_ADDR);
    free(v);
    free(path);
}

static void test_dcfg_by_record(void)
{
    char *path = write_doc("show_a.dcfg.json", DCFG);
    /* An EDGES row: the edge type and the special node by name. */
    char *v = view(path, 1, 19, 0);
    EXPECT_VIEW(v, V_EDGE_1);
    free(v);
    /* Members without rows, after the process row that holds them. */
    v = view(path, 1, 11, 1);
    EXPECT_VIEW(v, V_INSTR_COUNT);
    free(v);
    free(path);
}

static void test_dcfg_past_end(void)
{
    char *path = write_doc("show_a.dcfg.json", DCFG);
    /* Past the last byte: the last record, marked, and the one before. */
    char *v = view(path, 0, 1000, 1);
    EXPECT_VIEW(v, V_PAST_END);
    free(v);
    /* A record number past the last. */
    v = view(path, 1, 22, 0);
    EXPECT_VIEW(v, V_NO_RECORD);
    free(v);
    free(path);
}

/* ---- DCFG-trace ---- */

static void test_dtrc_views(void)
{
    char *path = write_doc("show_b.trace.json", DTRC);
    /* Inside the second chunk's sequence "<a>", then past the end: the
     * same chunk, the last record. */
    uint64_t off = at(DTRC, "<a>", 0);
    CHECK(off == 448, "offset %llu", (unsigned long long)off);
    char *v = view(path, 0, off, 0);
    EXPECT_VIEW(v, V_CHUNK_2);
    free(v);
    v = view(path, 0, 100000, 0);
    CHECK(strncmp(v, "  (no record holds byte 100000; record 16 is the last that starts before "
                     "it)\n", 75) == 0 && strcmp(strchr(v, '\n') + 1, V_CHUNK_2) == 0,
          "view:\n%s", v);
    free(v);
    /* A transition row by number, between its neighbours. */
    v = view(path, 1, 10, 1);
    EXPECT_VIEW(v, V_TRANSITION_5);
    free(v);
    /* The process row on its first byte: the dictionary entry follows. */
    off = at(DTRC, "[7,", 0);
    CHECK(off == 120, "offset %llu", (unsigned long long)off);
    v = view(path, 0, off, 1);
    EXPECT_VIEW(v, V_PROCESS);
    free(v);
    free(path);
}

/* ---- invalid documents ---- */

/* The findings of path as "RULE@offset ..." (malloc'd), with or without a
 * field sink. */
static char *findings(const char *path, int fields)
{
    tu_result r;
    memset(&r, 0, sizeof r);
    tc_options opt = TC_OPTIONS_INIT;
    opt.on_diag = tu_collect;
    opt.user = &r;
    tc_fields f = {0};
    tc_field_range all = {0, UINT64_MAX};
    f.ranges[0] = all;
    f.nranges = 1;
    tc_check_opts c = {.options = &opt, .fields = fields ? &f : NULL};
    tc_summary sum;
    tc_error err = TC_ERROR_INIT;
    int rc = tc_check_path(path, &c, &sum, &err);
    tc_error_free(&err);
    char *s = malloc(4096);
    snprintf(s, 4096, "%d %s", rc, tu_describe(&r));
    if (fields)
        CHECK(f.nrecords > 0 && !f.oom, "%zu records kept", f.nrecords);
    tc_fields_free(&f);
    tu_result_free(&r);
    return s;
}

static void test_invalid_same_findings(void)
{
    /* A DCFG: an edge type unknown, a block id out of range (so edges
     * refer to no block), an unknown column; a trace whose chunk counts more
     * edges than its sequence holds. */
    char *bad = malloc(sizeof DCFG + 64);
    strcpy(bad, DCFG);
    memcpy(strstr(bad, "[11,\"0x18\""), "[0 ", 3);
    memcpy(strstr(bad, "FALL_THROUGH"), "FALL_THROUGX", 12);
    memcpy(strstr(bad, "\"COUNT\"]"), "\"COUNX\"]", 8);
    char *path = write_doc("show_c.dcfg.json", bad);
    char *without = findings(path, 0), *with = findings(path, 1);
    CHECK(strcmp(without, with) == 0, "findings differ:\n  without [%s]\n  with    [%s]", without,
          with);
    CHECK(strstr(without, "DCFG-ID-RANGE") && strstr(without, "DCFG-EDGE-TYPE-NAME"),
          "the findings expected: %s", without);
    free(without);
    free(with);
    /* The view still draws, with the value not read. */
    char *v = view(path, 0, at(bad, "[0 ", 0) + 1, 0);
    EXPECT_VIEW(v, V_BAD_BLOCK);
    free(v);
    free(path);

    char *tbad = malloc(sizeof DTRC + 64);
    strcpy(tbad, DTRC);
    memcpy(strstr(tbad, "[10,5,3,"), "[10,5,9,", 8);
    path = write_doc("show_d.trace.json", tbad);
    without = findings(path, 0);
    with = findings(path, 1);
    CHECK(strcmp(without, with) == 0, "findings differ:\n  without [%s]\n  with    [%s]", without,
          with);
    CHECK(strstr(without, "DTRC-SEQ-NO-ENTRY") != NULL, "the findings expected: %s", without);
    free(without);
    free(with);
    v = view(path, 0, at(tbad, "<a>", 0), 0);
    EXPECT_VIEW(v, V_BAD_CHUNK);
    free(v);
    free(path);
    free(bad);
    free(tbad);
}

static const tu_test tests[] = {
    {"dcfg: --at inside a record and on its first byte", test_dcfg_inside_record},
    {"dcfg: --at in a multi-byte field", test_dcfg_multibyte_field},
    {"dcfg: --record, rows and members", test_dcfg_by_record},
    {"dcfg: past the end", test_dcfg_past_end},
    {"dcfg-trace: chunks, transition rows, dictionary", test_dtrc_views},
    {"invalid documents: same findings, the view still draws", test_invalid_same_findings},
    {NULL, NULL},
};

void register_show_dcfg_suite(void)
{
    tu_add_suite("show_dcfg", tests);
}
