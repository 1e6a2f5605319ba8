/*
 * conformance --generate's classes of a tool's message
 * (conformance/runner/gen_answer.h): one message with other values is one
 * class, and the example keeps what the tool said. The messages are those
 * ovniemu 1.14.0, llvm-xray 14 and dqr printed in --generate runs.
 */
#include <stdlib.h>
#include <string.h>

#include "../conformance/runner/gen_answer.h"
#include "../conformance/runner/generate.h"
#include "ot.h"
#include "suites.h"

static void expect_class(const char *line, const char *want)
{
    char *c = gx_answer_class(line, strlen(line));
    CU_ASSERT_STRING_EQUAL(c, want);
    if (strcmp(c, want))
        fprintf(stderr, "\n  class of \"%s\"\n  is   \"%s\"\n  want \"%s\"\n", line, c, want);
    free(c);
}

/* Every line of lines[] is one class. */
static void expect_one_class(const char *const *lines)
{
    char *first = gx_answer_class(lines[0], strlen(lines[0]));
    for (size_t i = 1; lines[i]; i++) {
        char *c = gx_answer_class(lines[i], strlen(lines[i]));
        CU_ASSERT_STRING_EQUAL(c, first);
        free(c);
    }
    free(first);
}

static void test_values(void)
{
    expect_class("ovniemu: ERROR: pre_flush: unexpected value 't' (expecting '[' or ']')",
                 "ovniemu: ERROR: pre_flush: unexpected value 'V' (expecting 'V' or 'V')");
    expect_class("ovniemu: ERROR: pre_cpu: unknown cpu event value x",
                 "ovniemu: ERROR: pre_cpu: unknown cpu event value C");
    expect_class("ovniemu: ERROR: model_event: model not registered for event XJc",
                 "ovniemu: ERROR: model_event: model not registered for event ID");
    expect_class("ovniemu: ERROR: model_ovni_finish: thread 847764 is not dead (thread.847764)",
                 "ovniemu: ERROR: model_ovni_finish: thread N is not dead (thread.N)");
    expect_class("ovniemu: ERROR: check_clock_gate: stream loom.a/proc.1/thread.1 has starting "
                 "clock too far: delta=20.37 h",
                 "ovniemu: ERROR: check_clock_gate: stream PATH has starting clock too far: "
                 "delta=N h");
    expect_class("ERROR: mark_event: unexpected payload size 3",
                 "ERROR: mark_event: unexpected payload size N");
    expect_class("ovniemu: ERROR: check_stream_header: stream 'loom.a/proc.1/thread.1': stream "
                 "version mismatch 16777216 (expected 1)",
                 "ovniemu: ERROR: check_stream_header: stream 'PATH': stream version mismatch N "
                 "(expected N)");
    expect_class("llvm-xray: Invalid metadata record type: 7 at offset 0x3c.",
                 "llvm-xray: Invalid metadata record type: N at offset N.");
    expect_class("clock goes backwards 784953439906154 -> -4867054708653955334",
                 "clock goes backwards N -> N");
}

static void test_one_class(void)
{
    static const char *const flush[] = {
        "ERROR: pre_flush: unexpected value 't' (expecting '[' or ']')",
        "ERROR: pre_flush: unexpected value 'e' (expecting '[' or ']')",
        "ERROR: pre_flush: unexpected value 'G' (expecting '[' or ']')",
        "ERROR: pre_flush: unexpected value '@' (expecting '[' or ']')", NULL};
    static const char *const thread[] = {"ERROR: pre_thread: unknown thread event value =",
                                         "ERROR: pre_thread: unknown thread event value o",
                                         "ERROR: pre_thread: unknown thread event value ~",
                                         "ERROR: pre_thread: unknown thread event value g", NULL};
    static const char *const category[] = {"ERROR: model_ovni_event: unknown ovni event category Z",
                                           "ERROR: model_ovni_event: unknown ovni event category X",
                                           NULL};
    static const char *const affinity[] = {"ERROR: pre_affinity: unknown affinity event value M",
                                           "ERROR: pre_affinity: unknown affinity event value {",
                                           "ERROR: pre_affinity: unknown affinity event value 7",
                                           NULL};
    expect_one_class(flush);
    expect_one_class(thread);
    expect_one_class(category);
    expect_one_class(affinity);
}

static void test_words_stay(void)
{
    /* The words of the message, capitals and all, and 'a'. */
    expect_class("ERROR: a thread is not running", "ERROR: a thread is not running");
    expect_class("FATAL: MPI_Init failed", "FATAL: MPI_Init failed");
    /* Long quoted text is words, not a value. */
    expect_class("error: 'this quoted sentence is far longer than a value is'",
                 "error: 'this quoted sentence is far longer than a value is'");
    /* Not printable, and '|' (the class key's separator), inside a word:
     * '?'; alone, a value like any lone character. */
    expect_class("bad x\x01y byte of|fset | here", "bad x?y byte of?fset C here");
}

static void test_example(void)
{
    char *e = gx_answer_example("  ERROR: value 't'\there", 23);
    CU_ASSERT_STRING_EQUAL(e, "ERROR: value 't'?here");
    free(e);
    char long_line[300];
    memset(long_line, 'x', sizeof long_line);
    e = gx_answer_example(long_line, sizeof long_line);
    CU_ASSERT_EQUAL(strlen(e), 100);
    free(e);
}

static void test_telling_line(void)
{
    tc_conf_outcome o = {0};
    o.err = (char *)"ovniemu: INFO: loaded 3 streams\novniemu: ERROR: pre_cpu: bad\nmore\n";
    size_t n;
    const char *l = gx_telling_line(&o, &n);
    CU_ASSERT_EQUAL(n, strlen("ovniemu: ERROR: pre_cpu: bad"));
    CU_ASSERT_NSTRING_EQUAL(l, "ovniemu: ERROR: pre_cpu: bad", n);
    o.err = (char *)"";
    o.out = (char *)"first\nsecond\n";
    l = gx_telling_line(&o, &n);
    CU_ASSERT_NSTRING_EQUAL(l, "first", n);
}

/* An entry of an expected-failure list, as xfail.c loads it. */
static tc_conf_xfail_entry entry(const char *name, const char *topic, const char *message)
{
    return (tc_conf_xfail_entry){.name = (char *)name, .reason = (char *)"",
                                 .kind = TC_XFAIL_FAIL, .topic = (char *)topic,
                                 .message = (char *)message};
}

/* The class of a line as --generate records a tool's rejection. */
static char *reject_answer(const char *line)
{
    char *c = gx_answer_class(line, strlen(line));
    char *a = malloc(strlen(c) + 9);
    strcpy(a, "reject: ");
    strcat(a, c);
    free(c);
    return a;
}

static void test_entry_matches(void)
{
    /* ovniemu 1.14.0's messages (xfail/ovniemu.txt) against what it printed
     * on generated traces: other values, its name first. */
    tc_conf_xfail_entry gate = entry("y_ovni_clock_gate", "clock-gate",
                                     "ERROR: check_clock_gate: stream loom.node00/proc.847764/"
                                     "thread.847798 has starting clock too far: delta=20.37 h");
    char *a = reject_answer("ovniemu: ERROR: check_clock_gate: stream loom.x/proc.1/thread.9 "
                            "has starting clock too far: delta=3.50 h");
    CU_ASSERT(gx_entry_matches(&gate, NULL, TC_VERDICT_ACCEPT, "none", a));
    /* ... only where tracecheck accepts, and not another message */
    CU_ASSERT(!gx_entry_matches(&gate, NULL, TC_VERDICT_REJECT, "OVNI-X", a));
    free(a);
    a = reject_answer("ovniemu: ERROR: model_ovni_finish: thread 4100 is not dead (thread.4100)");
    CU_ASSERT(!gx_entry_matches(&gate, NULL, TC_VERDICT_ACCEPT, "none", a));
    tc_conf_xfail_entry dead = entry("y_ovni_thread_no_end", "thread-end",
                                     "ERROR: model_ovni_finish: thread 847764 is not dead "
                                     "(thread.847764)");
    CU_ASSERT(gx_entry_matches(&dead, NULL, TC_VERDICT_ACCEPT, "none", a));
    /* a listed crash is not a rejection */
    dead.kind = TC_XFAIL_CRASH;
    CU_ASSERT(!gx_entry_matches(&dead, NULL, TC_VERDICT_ACCEPT, "none", a));
    free(a);
    /* "..." in the list elides the middle of the message */
    tc_conf_xfail_entry order = entry("y_ovni_big_endian", "host-order",
                                      "ERROR: check_stream_header: ... stream version mismatch "
                                      "16777216 (expected 1)");
    a = reject_answer("ovniemu: ERROR: check_stream_header: stream 'loom.a/proc.1/thread.1': "
                      "stream version mismatch 16777216 (expected 1)");
    CU_ASSERT(gx_entry_matches(&order, NULL, TC_VERDICT_ACCEPT, "none", a));
    free(a);
    a = reject_answer("ovniemu: ERROR: check_stream_header: stream 'loom.a/proc.1/thread.1': "
                      "bad magic");
    CU_ASSERT(!gx_entry_matches(&order, NULL, TC_VERDICT_ACCEPT, "none", a));
    free(a);
    /* tracecheck rejects, the tool accepts: the entry's case expects the
     * class's error rules, exactly */
    tc_conf_case c = {.name = (char *)"n_ovni_trace_empty", .verdict = TC_VERDICT_REJECT};
    tc_conf_rules_add(&c.errors, tc_rule_find("OVNI-TRACE-EMPTY"));
    tc_conf_xfail_entry empty = entry("n_ovni_trace_empty", "no-streams", NULL);
    CU_ASSERT(gx_entry_matches(&empty, &c, TC_VERDICT_REJECT, "OVNI-TRACE-EMPTY", "accept"));
    CU_ASSERT(!gx_entry_matches(&empty, &c, TC_VERDICT_REJECT, "OVNI-TRACE-JSON-MISSING",
                                "accept"));
    CU_ASSERT(!gx_entry_matches(&empty, NULL, TC_VERDICT_REJECT, "OVNI-TRACE-EMPTY", "accept"));
    CU_ASSERT(!gx_entry_matches(&empty, &c, TC_VERDICT_ACCEPT, "none", "accept"));
    tc_conf_rules_free(&c.errors);
    /* a listed hang or crash: the class hangs or crashes on the rules its
     * case breaks */
    tc_conf_case j = {.name = (char *)"n_ovni_jumbo_size_fffffff0", .verdict = TC_VERDICT_REJECT};
    tc_conf_rules_add(&j.errors, tc_rule_find("OVNI-JUMBO-PAST-EOF"));
    tc_conf_xfail_entry hang = entry("n_ovni_jumbo_size_fffffff0", "jumbo-int", NULL);
    hang.kind = TC_XFAIL_TIMEOUT;
    CU_ASSERT(gx_entry_matches(&hang, &j, TC_VERDICT_REJECT, "OVNI-JUMBO-PAST-EOF", "timeout"));
    CU_ASSERT(!gx_entry_matches(&hang, &j, TC_VERDICT_REJECT, "OVNI-JUMBO-PAST-EOF",
                                "crash: SIGSEGV"));
    CU_ASSERT(!gx_entry_matches(&hang, &j, TC_VERDICT_REJECT, "OVNI-TRACE-EMPTY", "timeout"));
    hang.kind = TC_XFAIL_CRASH;
    CU_ASSERT(gx_entry_matches(&hang, &j, TC_VERDICT_REJECT, "OVNI-JUMBO-PAST-EOF",
                               "crash: SIGSEGV"));
    tc_conf_rules_free(&j.errors);
}

/* "@drawn [topic] OPTIONS": a class whose trace was drawn with every option
 * is known under the topic, whatever the tool printed; NEW classes first. */
static void test_drawn(void)
{
    tc_gen_class k[4] = {
        {.key = "a", .verdict = TC_VERDICT_ACCEPT, .rules = "none",
         .answer = "reject: llvm-xray: Invalid metadata record type: N",
         .generated = "tracecheck gen xray --version 4 --big-endian --seed 9"},
        {.key = "b", .verdict = TC_VERDICT_ACCEPT, .rules = "none",
         .answer = "reject: llvm-xray: Failed reading one byte from offset N.",
         .generated = "tracecheck gen xray --big-endian-ish --seed 9"},
        {.key = "c", .verdict = TC_VERDICT_REJECT, .rules = "XRAY-X", .answer = "accept",
         .generated = "tracecheck gen xray --seed 3 --big-endian"},
        {.key = "d", .verdict = TC_VERDICT_REJECT, .rules = "XRAY-Y", .answer = "accept",
         .generated = "tracecheck gen xray --mode basic --big-endian"},
    };
    tc_conf_xfail_drawn d = {.topic = "big-endian", .options = "--big-endian !--mode",
                             .line = 1};
    tc_conf_xfail x = {.drawn = &d, .ndrawn = 1};
    tc_gen_conf_run run = {.classes = k, .nclasses = 4};
    tc_gen_conf_mark_known(&run, &x, NULL);
    CU_ASSERT_EQUAL(run.nnew, 2);
    /* NEW first: not the same option, and drawn with --mode */
    CU_ASSERT_STRING_EQUAL(run.classes[0].key, "b");
    CU_ASSERT_STRING_EQUAL(run.classes[1].key, "d");
    CU_ASSERT_PTR_NULL(run.classes[0].known);
    CU_ASSERT_PTR_NULL(run.classes[1].known);
    CU_ASSERT_STRING_EQUAL(run.classes[2].known, "big-endian");
    CU_ASSERT_STRING_EQUAL(run.classes[3].known, "big-endian");
    for (int i = 0; i < 4; i++)
        free(k[i].known);
}

/* A class where tracecheck rejects and the tool accepts is known when the
 * suite has an i_ case that tracecheck rejects for exactly its rules: the
 * readers may disagree there. An n_ case of the same rules is not enough
 * (only the tool's expected-failure list makes that known). */
static void test_implementation_defined(void)
{
    tc_gen_class k[3] = {
        {.key = "a", .verdict = TC_VERDICT_REJECT, .rules = "OVNI-META-VERSION",
         .answer = "accept"},
        {.key = "b", .verdict = TC_VERDICT_REJECT, .rules = "OVNI-META-LOOM",
         .answer = "accept"},
        {.key = "c", .verdict = TC_VERDICT_REJECT, .rules = "OVNI-META-VERSION",
         .answer = "reject: ovniemu: ERROR: something else"},
    };
    const tc_rule_info *version = tc_rule_find("OVNI-META-VERSION");
    const tc_rule_info *loom = tc_rule_find("OVNI-META-LOOM");
    CU_ASSERT_PTR_NOT_NULL_FATAL(version);
    CU_ASSERT_PTR_NOT_NULL_FATAL(loom);
    tc_conf_case cases[2] = {
        {.name = "i_ovni_meta_version_3_0", .verdict = TC_VERDICT_REJECT,
         .errors = {.r = &version, .n = 1}},
        {.name = "n_ovni_meta_loom_slash", .verdict = TC_VERDICT_REJECT,
         .errors = {.r = &loom, .n = 1}},
    };
    tc_conf_suite suite = {.cases = cases, .count = 2};
    tc_conf_xfail x = {0};
    tc_gen_conf_run run = {.classes = k, .nclasses = 3};
    tc_gen_conf_mark_known(&run, &x, &suite);
    CU_ASSERT_EQUAL(run.nnew, 2);
    CU_ASSERT_STRING_EQUAL(run.classes[0].key, "b");
    CU_ASSERT_STRING_EQUAL(run.classes[1].key, "c");
    CU_ASSERT_STRING_EQUAL(run.classes[2].key, "a");
    CU_ASSERT_STRING_EQUAL(run.classes[2].known, "i_ovni_meta_version_3_0");
    for (int i = 0; i < 3; i++)
        free(k[i].known);
}

static const tu_test tests[] = {
    {"@drawn: classes known by how their traces were drawn", test_drawn},
    {"an i_ case makes a class of its rules known", test_implementation_defined},
    {"an expected-failure entry records a class, or not", test_entry_matches},
    {"values in a message become N, C, ID, 'V' and PATH", test_values},
    {"one message with other values is one class", test_one_class},
    {"the words of a message stay", test_words_stay},
    {"the example is the line as printed", test_example},
    {"the line that tells what went wrong", test_telling_line},
    {NULL, NULL},
};

void register_gen_answer_suite(void) { tu_add_suite("gen_answer", tests); }
