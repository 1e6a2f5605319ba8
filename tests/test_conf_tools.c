/*
 * The conformance runner's view of third-party tools: the version a tool
 * reports (conformance/runner/tool_version.h), an expected-failure list's
 * "@version" line, and the results of cases that were not run.
 */
#include <stdlib.h>
#include <string.h>

#include "../conformance/runner/conformance.h"
#include "../conformance/runner/tool_version.h"
#include "ot.h"
#include "suites.h"

static void expect_version(const char *text, const char *want)
{
    char *v = tc_conf_version_parse(text);
    if (!want) {
        CU_ASSERT_PTR_NULL(v);
    } else {
        CU_ASSERT_PTR_NOT_NULL_FATAL(v);
        CU_ASSERT_STRING_EQUAL(v, want);
    }
    free(v);
}

static void test_parse(void)
{
    /* As the tools print it (measured: llvm-xray 14, ovniemu 1.14.0, ovniver, dqr 0.18.0). */
    expect_version("Debian LLVM version 14.0.6\n  Optimized build.\n", "14.0.6");
    expect_version("ovniemu -- version 1.14.0\n\nUsage: ovniemu", "1.14.0");
    expect_version("LD_LIBRARY_PATH not set\nlibovni: build v1.14.0 (unknown), dynamic v1.14.0",
                   "1.14.0");
    expect_version("dqr: version 0.18.0\n", "0.18.0");
    /* The first number after the word, and only the number. */
    expect_version("version: 2.7.\n", "2.7");
    expect_version("Optimized build.\nLLVM version 19.1.7", "19.1.7");
    expect_version("no number here, version unknown", NULL);
    expect_version("", NULL);
}

static void test_run(void)
{
    char *v = tc_conf_tool_version("printf 'tool -- version 3.2.1\\n' >&2; exit 3");
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_STRING_EQUAL(v, "3.2.1");
    free(v);
    CU_ASSERT_PTR_NULL(tc_conf_tool_version("exit 0"));
    /* A tool that never answers is killed; there is no version. */
    CU_ASSERT_PTR_NULL(tc_conf_tool_version("sleep 20; echo version 1.0"));
}

static void test_xfail_version(void)
{
    char *dir = td_new("xfail"), err[300];
    static const char good[] = "# measured\n@version 1.14.0\nn_a [t] a reason\n"
                               "@drawn [big-endian] --big-endian --version 1\n";
    static const char bad_drawn[] = "@drawn --big-endian\n";
    static const char twice[] = "@version 1\n@version 2\n";
    static const char empty[] = "@version\nn_a reason\n";
    td_write(dir, "good.txt", good, strlen(good));
    td_write(dir, "twice.txt", twice, strlen(twice));
    td_write(dir, "empty.txt", empty, strlen(empty));
    tc_conf_xfail x;
    char *p = tc_conf_printf("%s/good.txt", dir);
    tc_error e = TC_ERROR_INIT;
    CU_ASSERT_EQUAL_FATAL(tc_conf_xfail_load(&x, p, &e), 0);
    CU_ASSERT_FALSE(tc_error_is_set(&e));
    CU_ASSERT_STRING_EQUAL(x.version, "1.14.0");
    CU_ASSERT_EQUAL(x.n, 1);
    CU_ASSERT_PTR_NOT_NULL(tc_conf_xfail_find(&x, "n_a"));
    CU_ASSERT_EQUAL_FATAL(x.ndrawn, 1);
    CU_ASSERT_STRING_EQUAL(x.drawn[0].topic, "big-endian");
    CU_ASSERT_STRING_EQUAL(x.drawn[0].options, "--big-endian --version 1");
    tc_conf_xfail_free(&x);
    free(p);
    td_write(dir, "bad_drawn.txt", bad_drawn, strlen(bad_drawn));
    p = tc_conf_printf("%s/bad_drawn.txt", dir);
    CU_ASSERT_EQUAL(tc_conf_xfail_load(&x, p, &e), -1);
    tc_error_format(&e, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, ":1: @drawn takes [TOPIC]"));
    tc_error_free(&e);
    free(p);
    p = tc_conf_printf("%s/twice.txt", dir);
    CU_ASSERT_EQUAL(tc_conf_xfail_load(&x, p, &e), -1);
    /* The problem, then where it is: printed as "PATH:2: a second ...". */
    CU_ASSERT_EQUAL_FATAL(e.n, 2);
    CU_ASSERT_STRING_EQUAL(e.cause[0]->message, "a second @version line");
    char *where = tc_conf_printf("%s:2", p);
    CU_ASSERT_STRING_EQUAL(e.cause[1]->message, where);
    char *text = tc_conf_printf("%s:2: a second @version line", p);
    tc_error_format(&e, err, sizeof err);
    CU_ASSERT_STRING_EQUAL(err, text);
    free(where);
    free(text);
    tc_error_free(&e);
    free(p);
    p = tc_conf_printf("%s/empty.txt", dir);
    CU_ASSERT_EQUAL(tc_conf_xfail_load(&x, p, &e), -1);
    tc_error_format(&e, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, ":1: @version names no version"));
    tc_error_free(&e);
    free(p);
    free(dir);
}

static void test_not_run(void)
{
    CU_ASSERT_STRING_EQUAL(tc_conf_result_name(TC_CONF_OUT_OF_SCOPE), "out-of-scope");
    CU_ASSERT_STRING_EQUAL(tc_conf_result_name(TC_CONF_NOT_INSTALLED), "not-installed");
    CU_ASSERT(tc_conf_result_not_run(TC_CONF_SKIP));
    CU_ASSERT(tc_conf_result_not_run(TC_CONF_OUT_OF_SCOPE));
    CU_ASSERT(tc_conf_result_not_run(TC_CONF_NOT_INSTALLED));
    /* A tool that cannot run: its cases are not run, never failures. */
    CU_ASSERT_STRING_EQUAL(tc_conf_result_name(TC_CONF_BROKEN), "broken");
    CU_ASSERT(tc_conf_result_not_run(TC_CONF_BROKEN));
    CU_ASSERT(!tc_conf_result_not_run(TC_CONF_PASS));
    CU_ASSERT(!tc_conf_result_not_run(TC_CONF_XFAIL));
    CU_ASSERT(!tc_conf_result_not_run(TC_CONF_CRASH));
}

static const tu_test tests[] = {
    {"a tool's version from what it prints", test_parse},
    {"a tool's version from running it", test_run},
    {"@version in an expected-failure list", test_xfail_version},
    {"results of cases not run", test_not_run},
    {NULL, NULL},
};

void register_conf_tools_suite(void) { tu_add_suite("conf_tools", tests); }
