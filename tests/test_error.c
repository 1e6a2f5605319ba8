/* Machine errors as a chain of causes (parsers/common/error.c): the order of
 * the causes, the one line they print as, truncation, the bound on causes,
 * moving a chain, and the static out-of-memory cause. */
#include <stdio.h>
#include <string.h>

#include "../parsers/common/error.h"
#include "suites.h"
#include "tu.h"

static void test_empty(void)
{
    tc_error e = TC_ERROR_INIT;
    char buf[16] = "x";
    CU_ASSERT_FALSE(tc_error_is_set(&e));
    CU_ASSERT_EQUAL(tc_error_format(&e, buf, sizeof buf), 0);
    CU_ASSERT_STRING_EQUAL(buf, "");
    CU_ASSERT_EQUAL(tc_error_format(NULL, buf, sizeof buf), 0);
    tc_error_free(&e);
    tc_error_free(NULL);
    tc_error_set(NULL, "t", "nothing happens");
    tc_error_add(NULL, "t", "nothing happens");
}

/* The root cause first, outer causes after it; each prints the way the
 * program has always joined them. */
static void test_order_and_text(void)
{
    tc_error e = TC_ERROR_INIT;
    tc_error_set_value(&e, "input", "a.xray", "cannot open: %s", "No such file or directory");
    tc_error_add(&e, "ovni", "%s", "trace/stream.obs");
    tc_error_note(&e, "validate", "the DCFG given with --pair");
    CU_ASSERT_EQUAL_FATAL(e.n, 3);
    CU_ASSERT_STRING_EQUAL(e.cause[0]->where, "input");
    CU_ASSERT_STRING_EQUAL(e.cause[0]->message, "cannot open: No such file or directory");
    CU_ASSERT_STRING_EQUAL(e.cause[0]->value, "a.xray");
    CU_ASSERT_EQUAL(e.cause[0]->join, TC_ERROR_ROOT);
    CU_ASSERT_STRING_EQUAL(e.cause[1]->where, "ovni");
    CU_ASSERT_EQUAL(e.cause[1]->join, TC_ERROR_CONTEXT);
    CU_ASSERT_PTR_NULL(e.cause[1]->value);
    CU_ASSERT_EQUAL(e.cause[2]->join, TC_ERROR_NOTE);
    char buf[200];
    const char *want = "trace/stream.obs: cannot open: No such file or directory (the DCFG "
                       "given with --pair)";
    CU_ASSERT_EQUAL(tc_error_format(&e, buf, sizeof buf), strlen(want));
    CU_ASSERT_STRING_EQUAL(buf, want);
    /* A line of its own comes before the rest. */
    tc_error_line(&e, "conformance", "while loading the cases");
    tc_error_format(&e, buf, sizeof buf);
    CHECK(!strncmp(buf, "while loading the cases\ntrace/stream.obs: ", 42), "text: %s", buf);
    /* A new root replaces the whole chain. */
    tc_error_set(&e, "check", "is a directory");
    CU_ASSERT_EQUAL(e.n, 1);
    tc_error_format(&e, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "is a directory");
    tc_error_free(&e);
    CU_ASSERT_EQUAL(e.n, 0);
}

/* An outer cause added to an empty chain is its root. */
static void test_add_to_empty(void)
{
    tc_error e = TC_ERROR_INIT;
    tc_error_note(&e, "t", "alone");
    CU_ASSERT_EQUAL_FATAL(e.n, 1);
    CU_ASSERT_EQUAL(e.cause[0]->join, TC_ERROR_ROOT);
    char buf[32];
    tc_error_format(&e, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "alone");
    tc_error_free(&e);
}

/* Like snprintf: the text is cut to the buffer, its whole length returned. */
static void test_truncation(void)
{
    tc_error e = TC_ERROR_INIT;
    tc_error_set(&e, "t", "inner");
    tc_error_add(&e, "t", "outer");
    char buf[8];
    CU_ASSERT_EQUAL(tc_error_format(&e, buf, sizeof buf), strlen("outer: inner"));
    CU_ASSERT_STRING_EQUAL(buf, "outer: ");
    CU_ASSERT_EQUAL(tc_error_format(&e, buf, 1), strlen("outer: inner"));
    CU_ASSERT_STRING_EQUAL(buf, "");
    CU_ASSERT_EQUAL(tc_error_format(&e, NULL, 0), strlen("outer: inner"));
    /* A message longer than TC_ERROR_MESSAGE_MAX is cut to it. */
    static char big[3 * TC_ERROR_MESSAGE_MAX];
    memset(big, 'a', sizeof big - 1);
    tc_error_set_value(&e, "t", big, "%s", big);
    CU_ASSERT_EQUAL(strlen(e.cause[0]->message), TC_ERROR_MESSAGE_MAX - 1);
    CU_ASSERT_EQUAL(strlen(e.cause[0]->value), TC_ERROR_MESSAGE_MAX - 1);
    tc_error_free(&e);
}

/* Memory is bounded: causes beyond TC_ERROR_MAX_CAUSES are counted, not kept. */
static void test_bounded(void)
{
    tc_error e = TC_ERROR_INIT;
    tc_error_set(&e, "t", "root");
    for (int i = 0; i < TC_ERROR_MAX_CAUSES + 5; i++)
        tc_error_add(&e, "t", "level %d", i);
    CU_ASSERT_EQUAL(e.n, TC_ERROR_MAX_CAUSES);
    CU_ASSERT_EQUAL(e.dropped, 6);
    char buf[256];
    tc_error_format(&e, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "level 6: level 5: level 4: level 3: level 2: level 1: level 0: "
                                "root");
    tc_error_free(&e);
}

/* A chain made by a callee moves onto the caller's as its outer causes. */
static void test_move(void)
{
    tc_error mine = TC_ERROR_INIT, theirs = TC_ERROR_INIT;
    tc_error_set(&theirs, "t", "cannot open: denied");
    tc_error_add(&theirs, "t", "s.obs");
    tc_error_move(&mine, &theirs);
    CU_ASSERT_EQUAL(theirs.n, 0);
    CU_ASSERT_EQUAL(mine.n, 2);
    char buf[64];
    tc_error_format(&mine, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "s.obs: cannot open: denied");
    tc_error_free(&mine);
    tc_error_free(&theirs);
}

/* The cause that stands in when one cannot be allocated is static: it
 * prints, and freeing the chain leaves it alone (ASan would see a free of
 * static memory). */
static void test_out_of_memory_cause(void)
{
    tc_error e = TC_ERROR_INIT;
    e.cause[e.n++] = &tc_error_out_of_memory;
    tc_error_add(&e, "t", "trace.xray");
    char buf[64];
    tc_error_format(&e, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "trace.xray: out of memory");
    tc_error_free(&e);
    CU_ASSERT_STRING_EQUAL(tc_error_out_of_memory.message, "out of memory");
}

/* Through the library: a file that cannot be opened gives its reason as
 * the root cause, and tc_validate_file's errbuf holds the chain's text. */
static void test_through_check(void)
{
    tc_error e = TC_ERROR_INIT;
    tc_summary sum;
    CU_ASSERT_EQUAL(tc_check_path("/nonexistent/trace.xray", NULL, &sum, &e), 2);
    CU_ASSERT_EQUAL_FATAL(e.n, 1);
    CU_ASSERT_STRING_EQUAL(e.cause[0]->where, "input");
    CHECK(!strncmp(e.cause[0]->message, "cannot open: ", 13), "root: %s", e.cause[0]->message);
    char text[256], errbuf[256];
    tc_error_format(&e, text, sizeof text);
    CU_ASSERT_EQUAL(tc_validate_file("/nonexistent/trace.xray", NULL, &sum, errbuf, sizeof errbuf),
                    2);
    CU_ASSERT_STRING_EQUAL(errbuf, text);
    tc_error_free(&e);
}

static const tu_test tests[] = {
    {"empty chain", test_empty},
    {"order and text of the causes", test_order_and_text},
    {"an outer cause of an empty chain", test_add_to_empty},
    {"truncation", test_truncation},
    {"bounded causes", test_bounded},
    {"moving a chain", test_move},
    {"the out-of-memory cause", test_out_of_memory_cause},
    {"through tc_check_path and tc_validate_file", test_through_check},
    {NULL, NULL},
};

void register_error_suite(void)
{
    tu_add_suite("error", tests);
}
