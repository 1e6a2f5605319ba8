/*
 * The conformance runner's pair cases (conformance/runner/pair.h): which
 * file names make a pair (the formats' names, as detection judges them),
 * the loader's checks of a pair directory and of "dump": false, and a pair
 * validated together (tc_check_pair: the trace's process must be in the
 * DCFG, so a finding shows that the DCFG was read first).
 */
#include <stdlib.h>
#include <string.h>

#include "../../conformance/runner/conformance.h"
#include "../../conformance/runner/pair.h"
#include "../../parsers/common/check.h"
#include "../ot.h"
#include "../suites.h"

/* A DCFG of one process (pid 7, one thread): START -> block 10 -> END. */
static const char DCFG[] =
    "{\"MAJOR_VERSION\": 1, \"MINOR_VERSION\": 0,\n"
    " \"EDGE_TYPES\": [[\"EDGE_TYPE_ID\", \"EDGE_TYPE\"], [1, \"ENTRY\"], [2, \"EXIT\"]],\n"
    " \"SPECIAL_NODES\": [[\"NODE_ID\", \"NODE_NAME\"], [1, \"START\"], [2, \"END\"]],\n"
    " \"PROCESSES\": [[\"PROCESS_ID\", \"PROCESS_DATA\"], [7, {\n"
    "   \"INSTR_COUNT\": 3, \"INSTR_COUNT_PER_THREAD\": [3],\n"
    "   \"IMAGES\": [[\"IMAGE_ID\", \"LOAD_ADDR\", \"SIZE\", \"IMAGE_DATA\"], [1, \"0x1000\", 64,\n"
    "     {\"BASIC_BLOCKS\": [[\"NODE_ID\", \"ADDR_OFFSET\", \"SIZE\", \"NUM_INSTRS\",\n"
    "       \"LAST_INSTR_OFFSET\", \"COUNT\"], [10, 0, 8, 3, 5, 1]]}]],\n"
    "   \"EDGES\": [[\"EDGE_ID\", \"SOURCE_NODE_ID\", \"TARGET_NODE_ID\", \"EDGE_TYPE_ID\",\n"
    "     \"COUNT_PER_THREAD\"], [1, 1, 10, 1, [1]], [2, 10, 2, 2, [1]]]}]]}\n";

/* Its trace: edges 1 then 2 (3 instructions, those of block 10), for the
 * process PID. */
static char *trace_text(int pid)
{
    return tc_conf_printf(
        "{\"MAJOR_VERSION\": 1, \"MINOR_VERSION\": 0, \"PROCESSES\": [\n"
        " [\"PROCESS_ID\", \"STRING_DICTIONARY\", \"TRANSITION_TABLE\", \"THREAD_DATA\"],\n"
        " [%d, {},\n"
        "  [[\"CURRENT_EDGE_ID\", \"TRANSITION_CODE\", \"NEXT_EDGE_IDS\"], [1, \"\", [2]]],\n"
        "  [[\"THREAD_ID\", \"TRACE_DATA\"], [0, [[\"PRECEDING_INSTR_COUNT\", \"INSTR_COUNT\",\n"
        "   \"EDGE_COUNT\", \"FIRST_EDGE_ID\", \"EDGE_ID_SEQUENCE\"], [0, 3, 2, 1, \"\"]]]]]]}\n",
        pid);
}

static int dcfg_name(const char *name) { return tc_format_ops_for(TC_FORMAT_DCFG)->by_name(name); }

static int trace_name(const char *name)
{
    return tc_format_ops_for(TC_FORMAT_DCFG_TRACE)->by_name(name);
}

static void test_names(void)
{
    CU_ASSERT(dcfg_name("prog.dcfg.json"));
    CU_ASSERT(dcfg_name("prog.dcfg.json.bz2"));
    CU_ASSERT(trace_name("a.trace.json.zst"));
    CU_ASSERT(trace_name("a.trace.json.gz"));
    CU_ASSERT(!dcfg_name("prog.trace.json"));
    CU_ASSERT(!trace_name("prog.dcfg.json"));
    CU_ASSERT(!dcfg_name("prog.dcfg.jsonx"));
    CU_ASSERT(!dcfg_name("prog.dcfg.json.xz"));
    CU_ASSERT(!dcfg_name("prog.dcfg.json.gz.bz2")); /* one compression suffix */
    CU_ASSERT(tc_format_ops_for(TC_FORMAT_DCFG_TRACE)->companion->format == TC_FORMAT_DCFG);
}

static void test_find(void)
{
    const tc_format_ops *f = tc_format_ops_for(TC_FORMAT_DCFG_TRACE);
    char *dir = td_new("pair"), *d, *t, err[300];
    td_write(dir, "p.dcfg.json", DCFG, strlen(DCFG));
    tc_error e = TC_ERROR_INIT;
    CU_ASSERT_EQUAL(tc_conf_pair_find(dir, f, &d, &t, &e), -1); /* no trace */
    CU_ASSERT_PTR_NULL(d);
    tc_error_format(&e, err, sizeof err);
    tc_error_free(&e);
    CU_ASSERT(strstr(err, "no DCFG-trace") != NULL);
    td_write(dir, "p.trace.json.bz2", "x", 1);
    CU_ASSERT_EQUAL(tc_conf_pair_find(dir, f, &d, &t, &e), 0);
    CU_ASSERT(d && strstr(d, "/p.dcfg.json"));
    CU_ASSERT(t && strstr(t, "/p.trace.json.bz2"));
    free(d);
    free(t);
    td_write(dir, "q.dcfg.json", DCFG, strlen(DCFG)); /* a second DCFG */
    CU_ASSERT_EQUAL(tc_conf_pair_find(dir, f, &d, &t, &e), -1);
    CU_ASSERT(d == NULL && t == NULL);
    tc_error_free(&e);
    free(dir);
}

typedef struct seen {
    int pair_process, errors;
    char input[512];
} seen;

static void on_diag(void *user, const tc_diag *d)
{
    seen *s = user;
    if (d->severity == TC_ERROR && !s->errors++)
        snprintf(s->input, sizeof s->input, "%s", d->input ? d->input : "");
    if (!strcmp(d->rule->id, "DTRC-PAIR-PROCESS"))
        s->pair_process++;
}

static int check(int pid, seen *s)
{
    char *dir = td_new("pairchk"), *tr = trace_text(pid);
    td_write(dir, "p.dcfg.json", DCFG, strlen(DCFG));
    td_write(dir, "p.trace.json", tr, strlen(tr));
    char *dp = td_path(dir, "p.dcfg.json"), *tp = td_path(dir, "p.trace.json");
    tc_options opt = TC_OPTIONS_INIT;
    opt.on_diag = on_diag;
    opt.user = s;
    tc_check_opts c = {.options = &opt};
    memset(s, 0, sizeof *s);
    tc_error err = TC_ERROR_INIT;
    int rc = tc_check_pair(tc_format_ops_for(TC_FORMAT_DCFG_TRACE), dp, tp, &c, &err);
    tc_error_free(&err);
    free(dp);
    free(tp);
    free(tr);
    free(dir);
    return rc;
}

static void test_check(void)
{
    seen s;
    CU_ASSERT_EQUAL(check(7, &s), 0);
    CU_ASSERT_EQUAL(s.errors, 0);
    CU_ASSERT_EQUAL(check(8, &s), 1); /* pid 8 is not in the DCFG */
    CU_ASSERT_EQUAL(s.pair_process, 1);
    CU_ASSERT(strstr(s.input, "p.trace.json") != NULL);
}

static void write_expect(const char *dir, const char *rel, const char *extra)
{
    char *e = tc_conf_printf("{\"format\": \"dcfg-trace\", \"verdict\": \"accept\", \"errors\": [],"
                             " \"warnings\": [], \"notes\": [], \"pedantic\": false,%s"
                             " \"description\": \"a pair\", \"source\": {\"kind\": "
                             "\"hand-made\", \"how\": \"a test\"}}\n", extra);
    td_write(dir, rel, e, strlen(e));
    free(e);
}

static void test_load(void)
{
    char *root = td_new("suite");
    td_write(root, "VERSION", "9.9.9\n", 6);
    td_write(root, "dcfg-pair/y_pair/p.dcfg.json", DCFG, strlen(DCFG));
    char *tr = trace_text(7);
    td_write(root, "dcfg-pair/y_pair/p.trace.json", tr, strlen(tr));
    write_expect(root, "dcfg-pair/y_pair.expect.json", "");
    tc_conf_suite s;
    CU_ASSERT_EQUAL(tc_conf_suite_load(&s, root), 0);
    CU_ASSERT_EQUAL(s.count, 1);
    if (s.count == 1) {
        CU_ASSERT(s.cases[0].input_is_dir);
        CU_ASSERT(s.cases[0].pair_companion && strstr(s.cases[0].pair_companion, "p.dcfg.json"));
        CU_ASSERT(s.cases[0].pair_input && strstr(s.cases[0].pair_input, "p.trace.json"));
        CU_ASSERT(!s.cases[0].no_dump);
    }
    tc_conf_suite_free(&s);

    /* A stray file in the pair's directory: the case does not load. */
    td_write(root, "dcfg-pair/y_pair/notes.txt", "x", 1);
    CU_ASSERT(tc_conf_suite_load(&s, root) > 0);
    CU_ASSERT_EQUAL(s.count, 0);
    tc_conf_suite_free(&s);

    /* "dump": false with a dump next to it contradicts itself. */
    char *rootb = td_new("suiteb");
    td_write(rootb, "VERSION", "9.9.9\n", 6);
    write_expect(rootb, "dcfg-trace/y_nodump.expect.json", " \"dump\": false,");
    td_write(rootb, "dcfg-trace/y_nodump.trace.json", tr, strlen(tr));
    CU_ASSERT_EQUAL(tc_conf_suite_load(&s, rootb), 0);
    CU_ASSERT(s.count == 1 && s.cases[0].no_dump);
    tc_conf_suite_free(&s);
    td_write(rootb, "dcfg-trace/y_nodump.dump.jsonl", "", 0);
    CU_ASSERT(tc_conf_suite_load(&s, rootb) > 0);
    tc_conf_suite_free(&s);
    free(tr);
    free(root);
    free(rootb);
}

static const tu_test tests[] = {
    {"pair file names", test_names},
    {"finding a pair's files", test_find},
    {"a pair validated together", test_check},
    {"loading pair cases and \"dump\": false", test_load},
    {NULL, NULL},
};

void register_conf_pair_suite(void) { tu_add_suite("conf_pair", tests); }
