/*
 * Pairing DCFG-traces with their DCFG from files (spec/dcfg/dcfg.md, rulings 13
 * and 20): the naming rule (parsers/dcfg/dtrc_pair.c), and `tracecheck
 * validate` with --pair, automatic pairing and --no-pair, run from the
 * sanitized program next to this one ($(BUILD)/san/tracecheck; check-unit
 * builds it). Also the spec links of the rule pages (`tracecheck rules
 * --markdown`).
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../parsers/dcfg/dtrc_pair.h"
#include "../suites.h"
#include "../tu.h"

/* ---- files ---- */

/* One process 7 of one thread: START(1) -> 10 -> 11 -> END(2) through
 * edges 100, 101, 102; blocks of 3 and 2 instructions. */
static const char *dcfg_text =
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

/* The same DCFG with an edge to a node that does not exist (DCFG-NODE-REF). */
static char *broken_dcfg(void)
{
    char *s = strdup(dcfg_text);
    char *at = strstr(s, "[102,11,2,3,[1]]");
    memcpy(at, "[102,11,9,3,[1]]", 16);
    return s;
}

/* A trace of process 7 whose transitions are the given rows; its one chunk
 * walks the three edges when rows is NULL (valid once paired), else the
 * rows' edges. */
static char *trace_text(const char *rows, const char *chunk)
{
    char *s = malloc(2048);
    snprintf(s, 2048,
             "{\"MAJOR_VERSION\":1,\"MINOR_VERSION\":0,\"PROCESSES\":[\n"
             "[\"PROCESS_ID\",\"STRING_DICTIONARY\",\"TRANSITION_TABLE\",\"THREAD_DATA\"],\n"
             "[7,{},[[\"CURRENT_EDGE_ID\",\"TRANSITION_CODE\",\"NEXT_EDGE_IDS\"]%s],\n"
             "[[\"THREAD_ID\",\"TRACE_DATA\"],[0,[[\"PRECEDING_INSTR_COUNT\",\"INSTR_COUNT\","
             "\"EDGE_COUNT\",\"FIRST_EDGE_ID\",\"EDGE_ID_SEQUENCE\"],\n%s]]]]]}\n",
             rows ? rows : ",[100,\"\",[101]],[101,\"\",[102]]",
             chunk ? chunk : "[0,5,3,100,\"\"]");
    return s;
}

/* Edge 100 followed by 103, which the DCFG does not have: DTRC-PAIR-EDGE
 * on line 5 once paired, nothing alone. */
static char *pair_error_trace(void) { return trace_text(",[100,\"\",[103]]", "[0,0,2,100,\"\"]"); }

static char *put(const char *dir, const char *name, const char *text)
{
    char rel[512];
    snprintf(rel, sizeof rel, "%s/%s", dir, name);
    char *p = tu_write_file(rel, text, strlen(text));
    CU_ASSERT_PTR_NOT_NULL(p);
    return p;
}

/* A fresh directory below tu_tmpdir(); its name relative to it. */
static const char *fresh_dir(void)
{
    static int n;
    static char rel[64];
    snprintf(rel, sizeof rel, "pair%d", ++n);
    char full[4096];
    snprintf(full, sizeof full, "%s/%s", tu_tmpdir(), rel);
    CU_ASSERT_EQUAL(mkdir(full, 0755), 0);
    return rel;
}

/* ---- the naming rule ---- */

static void test_trace_base(void)
{
    static const struct {
        const char *path;
        size_t base;
    } cases[] = {
        {"log_0.trace.json", 5},        {"log_0.trace.json.bz2", 5},
        {"d/log_0.trace.json.gz", 7},   {"a.b.trace.json.zst", 3},
        {"log_0.trace.json.xz", 0},     {"log_0.dcfg.json", 0},
        {".trace.json", 0},             {"dir/.trace.json.bz2", 0},
        {"trace.json", 0},              {"-", 0},
        {"x.trace.json.bz2.gz", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK(tc_dtrc_trace_base(cases[i].path) == cases[i].base, "%s: base %zu, expected %zu",
              cases[i].path, tc_dtrc_trace_base(cases[i].path), cases[i].base);
}

static void expect_partner(const char *dir, const char *trace, const char *want)
{
    char path[4096], got[4096], full[4096];
    snprintf(path, sizeof path, "%s/%s/%s", tu_tmpdir(), dir, trace);
    int found = tc_dtrc_find_dcfg(path, got, sizeof got);
    if (!want) {
        CHECK(!found, "%s: paired with %s, expected none", trace, got);
        return;
    }
    snprintf(full, sizeof full, "%s/%s/%s", tu_tmpdir(), dir, want);
    CHECK(found && !strcmp(got, full), "%s: paired with %s, expected %s", trace,
          found ? got : "nothing", want);
}

static void test_find_dcfg(void)
{
    const char *d = fresh_dir();
    free(put(d, "log_0.dcfg.json.bz2", "x"));
    free(put(d, "log_0.trace.json.bz2", "x"));
    free(put(d, "log_0.T1.trace.json.bz2", "x"));
    free(put(d, "log_0.1234.5.trace.json", "x"));
    /* The longest name wins; then the suffixes in their order. */
    free(put(d, "a.dcfg.json", "x"));
    free(put(d, "a.1.dcfg.json.zst", "x"));
    free(put(d, "a.1.dcfg.json.gz", "x"));
    free(put(d, "other.trace.json", "x"));
    expect_partner(d, "log_0.trace.json.bz2", "log_0.dcfg.json.bz2");
    expect_partner(d, "log_0.T1.trace.json.bz2", "log_0.dcfg.json.bz2");
    expect_partner(d, "log_0.1234.5.trace.json", "log_0.dcfg.json.bz2");
    expect_partner(d, "a.1.trace.json", "a.1.dcfg.json.gz");
    expect_partner(d, "a.2.trace.json.gz", "a.dcfg.json");
    expect_partner(d, "other.trace.json", NULL);
    expect_partner(d, "log_0.dcfg.json.bz2", NULL);

    /* Parts are dropped from the file's name, never from its directory; a
     * directory is no DCFG. */
    const char *e = fresh_dir();
    char sub[128], name[128];
    snprintf(sub, sizeof sub, "%s/run.x", e);
    char full[4096];
    snprintf(full, sizeof full, "%s/%s", tu_tmpdir(), sub);
    CU_ASSERT_EQUAL(mkdir(full, 0755), 0);
    free(put(e, "run.dcfg.json", "x"));
    free(put(sub, "t.trace.json", "x"));
    snprintf(name, sizeof name, "run.x/t.trace.json");
    expect_partner(e, name, NULL);
    snprintf(full, sizeof full, "%s/%s/b.dcfg.json", tu_tmpdir(), e);
    CU_ASSERT_EQUAL(mkdir(full, 0755), 0);
    free(put(e, "b.trace.json", "x"));
    expect_partner(e, "b.trace.json", NULL);
}

/* ---- the program ---- */

typedef struct outcome {
    int status; /* exit status, or -1 */
    char *text; /* standard output and error */
} outcome;

/* Runs `tracecheck ARGS` in the directory dir (below tu_tmpdir()). */
static outcome run_in(const char *dir, const char *args)
{
    outcome o = {-1, NULL};
    char prog[4096], cmd[8192];
    if (!tu_program(prog, sizeof prog)) {
        CHECK(0, "no %s: build it (make check-unit does)", prog);
        o.text = strdup("");
        return o;
    }
    snprintf(cmd, sizeof cmd, "cd '%s/%s' && '%s' %s 2>&1", tu_tmpdir(), dir, prog, args);
    FILE *p = popen(cmd, "r");
    tu_bytes b = {0};
    if (p) {
        char chunk[4096];
        size_t got;
        while ((got = fread(chunk, 1, sizeof chunk, p)) > 0)
            tu_bytes_append(&b, chunk, got);
        int st = pclose(p);
        o.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    }
    tu_bytes_append(&b, "", 1);
    o.text = (char *)b.p;
    return o;
}

static size_t occurrences(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

#define EXPECT_RUN(o, st, needle)                                                                \
    CHECK((o).status == (st) && strstr((o).text, (needle)), "exit %d (expected %d), no \"%s\" " \
          "in:\n%s", (o).status, (st), (needle), (o).text)

/* The finding of a paired trace: its own path, line:column, offset and JSON
 * path, the DCFG named. */
static const char *pair_finding =
    "t.trace.json:5:12: error: DTRC-PAIR-EDGE: edge 103 (edge 1 of the chunk) is not in the "
    "EDGES of process 7 in the DCFG ";

static void test_pair_option(void)
{
    const char *d = fresh_dir();
    free(put(d, "p.dcfg.json", dcfg_text));
    char *bad = pair_error_trace(), *good = trace_text(NULL, NULL);
    free(put(d, "t.trace.json", bad));
    free(put(d, "u.trace.json", good));
    /* Alone, the trace is valid: the edge is only wrong against the DCFG. */
    outcome o = run_in(d, "validate --color never --no-pair t.trace.json");
    EXPECT_RUN(o, 0, "1 input, 1 valid");
    free(o.text);

    o = run_in(d, "validate --color never --pair p.dcfg.json t.trace.json");
    EXPECT_RUN(o, 1, pair_finding);
    CHECK(strstr(o.text, "in the DCFG p.dcfg.json (offset ") &&
              strstr(o.text, ", at $.PROCESSES[1][3][1][1][1][4])"),
          "no DCFG name, offset or JSON path in:\n%s", o.text);
    CHECK(strstr(o.text, "2 inputs, 1 valid, 1 invalid; 1 error"), "%s", o.text);
    free(o.text);

    /* Several traces after one --pair, and a second --pair group. */
    const char *e = fresh_dir();
    free(put(e, "q.dcfg.json", dcfg_text));
    char *broken = broken_dcfg();
    free(put(e, "r.dcfg.json", broken));
    free(put(e, "t.trace.json", bad));
    free(put(e, "u.trace.json", good));
    free(put(e, "v.trace.json", bad));
    o = run_in(e, "validate --color never --pair q.dcfg.json t.trace.json u.trace.json "
                  "--pair r.dcfg.json v.trace.json");
    EXPECT_RUN(o, 1, "5 inputs, 2 valid, 3 invalid; 3 errors");
    CHECK(occurrences(o.text, "DTRC-PAIR-EDGE") == 2 &&
              strstr(o.text, "v.trace.json:5:12: error: DTRC-PAIR-EDGE") &&
              strstr(o.text, "in the DCFG r.dcfg.json") &&
              occurrences(o.text, "r.dcfg.json:1:") == 1 && strstr(o.text, "DCFG-NODE-REF"),
          "%s", o.text);
    /* The DCFG's findings come before its traces'. */
    CHECK(strstr(o.text, "DCFG-NODE-REF") < strstr(o.text, "v.trace.json:"), "%s", o.text);
    free(o.text);

    /* The DCFG named as an input too is validated once, where it stands. */
    o = run_in(e, "validate --color never r.dcfg.json --pair r.dcfg.json u.trace.json");
    EXPECT_RUN(o, 1, "2 inputs, 1 valid, 1 invalid; 1 error");
    CHECK(occurrences(o.text, "DCFG-NODE-REF") == 1, "%s", o.text);
    free(o.text);
    o = run_in(e, "validate --color never --pair r.dcfg.json u.trace.json r.dcfg.json");
    EXPECT_RUN(o, 1, "2 inputs, 1 valid, 1 invalid; 1 error");
    free(o.text);

    /* --pair with nothing after it, or another --format: usage errors. */
    o = run_in(e, "validate --pair q.dcfg.json");
    EXPECT_RUN(o, 2, "--pair q.dcfg.json is followed by no input");
    free(o.text);
    o = run_in(e, "validate --format dcfg --pair q.dcfg.json t.trace.json");
    EXPECT_RUN(o, 2, "--pair pairs DCFG-traces");
    free(o.text);
    /* A trace given as the DCFG is refused by its content. */
    o = run_in(e, "validate --color never --pair u.trace.json t.trace.json");
    EXPECT_RUN(o, 2, "u.trace.json: error: is a dcfg-trace (by its content or name), not a DCFG");
    free(o.text);
    free(broken);
    free(bad);
    free(good);
}

static void test_missing_dcfg(void)
{
    const char *d = fresh_dir();
    char *bad = pair_error_trace();
    free(put(d, "t.trace.json", bad));
    outcome o = run_in(d, "validate --color never --pair gone/x.dcfg.json t.trace.json");
    EXPECT_RUN(o, 2, "gone/x.dcfg.json: error: cannot open: No such file or directory (the "
                     "DCFG given with --pair)");
    /* The trace is still checked, alone. */
    CHECK(strstr(o.text, "2 inputs, 1 valid, 0 invalid, 1 unreadable"), "%s", o.text);
    free(o.text);
    o = run_in(d, "validate --report json --pair gone/x.dcfg.json t.trace.json");
    CHECK(o.status == 2 && strstr(o.text, "gone/x.dcfg.json"), "%s", o.text);
    free(o.text);
    free(bad);
}

static void test_automatic_pairing(void)
{
    const char *d = fresh_dir();
    char *bad = pair_error_trace();
    tu_bytes z = {0};
    tu_bzip2_stream(&z, dcfg_text, strlen(dcfg_text));
    char rel[128];
    snprintf(rel, sizeof rel, "%s/log_0.dcfg.json.bz2", d);
    free(tu_write_file(rel, z.p, z.len));
    tu_bytes_free(&z);
    free(put(d, "log_0.T0.trace.json", bad));
    /* Side by side, without --pair: paired by name (ruling 20). */
    outcome o = run_in(d, "validate --color never log_0.T0.trace.json");
    EXPECT_RUN(o, 1, "log_0.T0.trace.json:5:12: error: DTRC-PAIR-EDGE: edge 103");
    CHECK(strstr(o.text, "in the DCFG log_0.dcfg.json.bz2") &&
              strstr(o.text, "2 inputs, 1 valid, 1 invalid"), "%s", o.text);
    free(o.text);
    /* A directory: its DCFG validated once although it is also an input. */
    o = run_in(d, "validate --color never .");
    EXPECT_RUN(o, 1, "2 inputs, 1 valid, 1 invalid; 1 error");
    CHECK(occurrences(o.text, "DTRC-PAIR-EDGE") == 1, "%s", o.text);
    free(o.text);
    /* --no-pair: each file alone. */
    o = run_in(d, "validate --color never --no-pair .");
    EXPECT_RUN(o, 0, "2 inputs, 2 valid, 0 invalid; 0 errors");
    free(o.text);
    o = run_in(d, "validate --color never --no-pair log_0.T0.trace.json");
    EXPECT_RUN(o, 0, "1 input, 1 valid");
    free(o.text);
    /* A DCFG named *.trace.json is not a DCFG-trace: not paired. */
    const char *e = fresh_dir();
    free(put(e, "x.dcfg.json", dcfg_text));
    free(put(e, "x.y.trace.json", dcfg_text));
    o = run_in(e, "validate --color never x.y.trace.json");
    EXPECT_RUN(o, 0, "1 input, 1 valid");
    free(o.text);
    free(bad);
}

/* Every rule page links to a spec page that exists (dcfg-trace shares
 * spec/dcfg/dcfg.md). */
static void test_rule_page_links(void)
{
    static const char *const formats[] = {"xray", "ovni", "dcfg", "dcfg-trace"};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        char args[128];
        snprintf(args, sizeof args, "rules --markdown --format %s", formats[i]);
        outcome o = run_in(".", args);
        const char *at = strstr(o.text, "](../../spec/");
        char spec[128] = "";
        if (at)
            sscanf(at + strlen("](../../"), "%127[^)]", spec);
        CHECK(o.status == 0 && spec[0] && access(spec, R_OK) == 0,
              "%s: the page links to '%s', which is not a file of the tree", formats[i], spec);
        if (!strcmp(formats[i], "dcfg-trace"))
            CHECK(!strcmp(spec, "spec/dcfg/dcfg.md"), "dcfg-trace links to %s", spec);
        free(o.text);
    }
}

static const tu_test tests[] = {
    {"trace file names", test_trace_base},
    {"the DCFG of a trace by name (ruling 20)", test_find_dcfg},
    {"validate --pair", test_pair_option},
    {"validate --pair with a missing DCFG", test_missing_dcfg},
    {"automatic pairing and --no-pair", test_automatic_pairing},
    {"rule pages link to their spec", test_rule_page_links},
    {NULL, NULL},
};

void register_dtrc_pairing_suite(void) { tu_add_suite("dtrc_pairing", tests); }
