/* The conformance reports of a run built in memory: the HTML matrix escapes
 * what cases, commands and children say (a case name with <script> stays
 * text), groups its rows, and every report kind (text, JSON, TAP, JUnit, HTML,
 * SARIF) names the suite version and shows an unexpected pass as one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../reports/conformance_report.h"
#include "suites.h"
#include "tu.h"

#define HOSTILE_NAME "n_<script>alert(1)</script>"
#define HOSTILE_REASON "</div><img src=x onerror=alert(2)> & \"quoted\" 'single'"

typedef struct fixture {
    tc_conf_case cases[3];
    tc_conf_suite suite;
    tc_conf_impl impl[2];
    tc_conf_options opt[2];
    tc_conf_result res[2][3];
    tc_conf_run run[2];
} fixture;

/* Three cases (a valid one, a hostile one, an n_ case with a rule) run by
 * tracecheck and by a command with a hostile name. */
static void fixture_init(fixture *fx, tc_conf_result_kind tracecheck_valid)
{
    memset(fx, 0, sizeof *fx);
    static const char *const names[3] = {"y_xray_v5_le", HOSTILE_NAME, "n_xray_extents"};
    const tc_rule_info *rule = tc_rule_at(0);
    for (int i = 0; i < 3; i++) {
        tc_conf_case *c = &fx->cases[i];
        c->name = (char *)names[i];
        c->group = "xray";
        c->id = tc_conf_printf("xray/%s", names[i]);
        c->input = tc_conf_printf("cases/xray/%s.xray", names[i]);
        c->description = "a description with <i>markup</i> & \"quotes\"";
        c->cls = i == 0 ? TC_CONF_Y : TC_CONF_N;
        c->verdict = i == 0 ? TC_VERDICT_ACCEPT : TC_VERDICT_REJECT;
        if (i)
            tc_conf_rules_add(&c->errors, rule);
    }
    fx->suite = (tc_conf_suite){.dir = "cases", .version = "9.8.7-test", .cases = fx->cases,
                                .count = 3};
    fx->impl[0] = (tc_conf_impl){.name = "tracecheck", .kind = TC_IMPL_TRACECHECK};
    fx->impl[1] = (tc_conf_impl){.name = "a\"b<c>", .kind = TC_IMPL_COMMAND,
                                 .command = "reader --x='<y>' {file}"};
    for (int j = 0; j < 2; j++) {
        fx->opt[j] = (tc_conf_options){.impl = &fx->impl[j], .timeout = 10};
        for (int i = 0; i < 3; i++) {
            tc_conf_result *r = &fx->res[j][i];
            r->c = &fx->cases[i];
            r->exit_status = -1;
            r->kind = TC_CONF_PASS;
            r->verdict = fx->cases[i].verdict;
        }
        fx->run[j] = (tc_conf_run){.suite = &fx->suite, .opt = &fx->opt[j],
                                   .results = fx->res[j], .count = 3};
    }
    fx->res[0][0].kind = tracecheck_valid;
    if (tracecheck_valid == TC_CONF_XPASS) {
        fx->res[0][0].reason = tc_conf_strdup("passes, but xfail.txt:1 expects a failure");
        fx->res[0][0].xfail_reason = "listed";
    }
    /* The command crashes on the hostile case, saying hostile things. */
    tc_conf_result *crash = &fx->res[1][1];
    crash->kind = TC_CONF_CRASH;
    crash->verdict = TC_VERDICT_NONE;
    crash->signal = 11;
    crash->reason = tc_conf_strdup(HOSTILE_REASON);
    crash->stderr_tail = tc_conf_strdup("stderr <b>bold</b>\x01 end");
    for (int j = 0; j < 2; j++) {
        tc_conf_totals *t = &fx->run[j].totals;
        t->cases = 3;
        for (int i = 0; i < 3; i++)
            t->count[fx->res[j][i].kind]++;
    }
}

static void fixture_free(fixture *fx)
{
    for (int i = 0; i < 3; i++) {
        free(fx->cases[i].id);
        free(fx->cases[i].input);
        tc_conf_rules_free(&fx->cases[i].errors);
    }
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 3; i++) {
            free(fx->res[j][i].reason);
            free(fx->res[j][i].stderr_tail);
        }
}

static char *matrix(const fixture *fx)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CU_ASSERT_EQUAL(tc_conf_report_write_matrix(f, fx->run, 2), 0);
    fclose(f);
    return text;
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

static void test_html_text(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    tc_conf_html_text(f, "<a href=\"x\">'&'</a>\x02\n");
    fclose(f);
    CU_ASSERT_STRING_EQUAL(text, "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;?\n");
    free(text);
}

static void test_matrix_escapes(void)
{
    fixture fx;
    fixture_init(&fx, TC_CONF_PASS);
    char *page = matrix(&fx);
    /* The page's own script is the only one; the case's stays text. */
    CU_ASSERT_EQUAL(count(page, "<script"), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(page, "n_&lt;script&gt;alert(1)&lt;/script&gt;"));
    CU_ASSERT_PTR_NULL(strstr(page, "<img"));
    CU_ASSERT_PTR_NOT_NULL(strstr(page, "&lt;/div&gt;&lt;img src=x onerror=alert(2)&gt; &amp; "
                                        "&quot;quoted&quot; &#39;single&#39;"));
    CU_ASSERT_PTR_NULL(strstr(page, "<b>bold"));
    CU_ASSERT_PTR_NOT_NULL(strstr(page, "stderr &lt;b&gt;bold&lt;/b&gt;? end"));
    CU_ASSERT_PTR_NULL(strchr(page, '\x01'));
    CU_ASSERT_PTR_NULL(strstr(page, "a\"b<c>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(page, "data-impl=\"a&quot;b&lt;c&gt;\""));
    CU_ASSERT_PTR_NULL(strstr(page, "<i>markup"));
    /* One row per case; the crash shows its signal. */
    CU_ASSERT_EQUAL(count(page, "<tr class=\"case\""), 3);
    CU_ASSERT_PTR_NOT_NULL(strstr(page, "signal 11"));
    CU_ASSERT_PTR_NOT_NULL(strstr(page, "<td class=\"r crash\""));
    free(page);
    fixture_free(&fx);
}

static void test_matrix_rows(void)
{
    fixture fx;
    fixture_init(&fx, TC_CONF_FAIL);
    char *page = matrix(&fx);
    /* One group heading; "valid" first, then the rule the n_ cases expect. */
    CU_ASSERT_EQUAL(count(page, "<tr class=\"grp\""), 1);
    char *valid = strstr(page, "<tr class=\"rule\" data-group=\"xray\" data-rule=\"valid\"");
    char *rule = tc_conf_printf("<tr class=\"rule\" data-group=\"xray\" data-rule=\"%s\"",
                                tc_rule_at(0)->id);
    char *ruled = strstr(page, rule);
    CU_ASSERT(valid && ruled && valid < ruled);
    CU_ASSERT(ruled && strstr(ruled, "id=\"case-xray/n_xray_extents\""));
    /* tracecheck fails the y_ case the command passes: they disagree on it
     * and on the crash, agree on the third. */
    CU_ASSERT_EQUAL(count(page, "data-agree=\"0\""), 2);
    CU_ASSERT_EQUAL(count(page, "data-agree=\"1\""), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(page, "<td data-result=\"fail\">1</td>"));
    free(rule);
    free(page);
    fixture_free(&fx);
}

/* Every kind names the suite version and reports the listed pass as xpass. */
static void test_every_kind(void)
{
    static const char *const xpass_sign[TC_CONF_REPORT__COUNT] = {
        "unexpected pass (listed as an expected failure) (1):\n  xray/y_xray_v5_le",
        "\"id\":\"xray/y_xray_v5_le\"", "not ok 1 - xray/y_xray_v5_le\n",
        "<failure type=\"xpass\"", "<td class=\"r xpass\" data-impl=\"tracecheck\"",
        "\"ruleId\":\"conformance/xpass\"",
    };
    fixture fx;
    fixture_init(&fx, TC_CONF_XPASS);
    for (int k = 0; k < TC_CONF_REPORT__COUNT; k++) {
        char *text = NULL;
        size_t len = 0;
        CU_ASSERT_PTR_NOT_NULL_FATAL(xpass_sign[k]); /* a new kind needs its line */
        FILE *f = open_memstream(&text, &len);
        CU_ASSERT_EQUAL(tc_conf_report_write((tc_conf_report_kind)k, f, &fx.run[0]), 0);
        fclose(f);
        if (!strstr(text, "9.8.7-test"))
            CU_FAIL("a report does not name the suite version");
        if (!strstr(text, xpass_sign[k]))
            CU_FAIL("a report does not show the unexpected pass");
        if (k == TC_CONF_REPORT_JSON)
            CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"result\":\"xpass\""));
        free(text);
    }
    /* The xpass alone fails the run (exit status 1). */
    CU_ASSERT_EQUAL(fx.run[0].totals.count[TC_CONF_XPASS], 1);
    CU_ASSERT_EQUAL(fx.run[0].totals.count[TC_CONF_FAIL] + fx.run[0].totals.count[TC_CONF_CRASH], 0);
    CU_ASSERT(tc_conf_run_failed(&fx.run[0]) != 0);
    fixture_free(&fx);
}

void register_conformance_html_suite(void)
{
    static const tu_test tests[] = {
        {"html_text", test_html_text},
        {"matrix_escapes", test_matrix_escapes},
        {"matrix_rows", test_matrix_rows},
        {"every_kind", test_every_kind},
        {NULL, NULL},
    };
    tu_add_suite("conformance_html", tests);
}
