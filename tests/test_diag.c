/* The diagnostic sink (parsers/common/diag.c): repeat caps and the
 * suppression note, pedantic filtering, counters, first error offset and the
 * parser's context text. */
#include <stdio.h>
#include <string.h>

#include "../parsers/common/diag.h"
#include "suites.h"
#include "tu.h"
#include "xray/xb.h"

static void test_cap_and_suppressed_note(void)
{
    tu_result r = {0};
    tc_diag_sink s;
    tc_diag_init(&s, "in.bin", 3, 0, tu_collect, &r);
    for (int i = 0; i < 10; i++)
        tc_report(&s, TC_RULE_XRAY_FUNCTION_ACTION, (uint64_t)(100 + i), 4, "finding %d", i);
    CHECK(r.n == 3, "%zu findings delivered before finish, cap 3", r.n);
    tc_diag_finish(&s);
    EXPECT_RULES(&r, "XRAY-FUNCTION-ACTION XRAY-FUNCTION-ACTION XRAY-FUNCTION-ACTION "
                     "TC-DIAG-SUPPRESSED");
    /* Every finding is counted, shown or not: the exit status reflects all. */
    CU_ASSERT_EQUAL(s.errors, 10);
    CU_ASSERT_EQUAL(s.count[TC_RULE_XRAY_FUNCTION_ACTION], 10);
    if (r.n == 4) {
        CU_ASSERT_STRING_EQUAL(r.d[0].message, "finding 0");
        CU_ASSERT_STRING_EQUAL(r.d[2].message, "finding 2");
        CU_ASSERT_EQUAL(r.d[2].offset, 102);
        const tu_diag *n = &r.d[3];
        CU_ASSERT_EQUAL(n->severity, TC_NOTE);
        CU_ASSERT(n->unlocated);
        CHECK(strstr(n->message, "7 further") && strstr(n->message, "XRAY-FUNCTION-ACTION") &&
                  strstr(n->message, "10 in all"),
              "suppression message: %s", n->message);
    }
    /* The note is about the report, not the input: not counted as a note. */
    CU_ASSERT_EQUAL(s.notes, 0);
    tu_result_free(&r);
}

static void test_cap_per_rule(void)
{
    tu_result r = {0};
    tc_diag_sink s;
    tc_diag_init(&s, "x", 2, 0, tu_collect, &r);
    for (int i = 0; i < 2; i++) /* exactly at the cap: nothing suppressed */
        tc_report(&s, TC_RULE_XRAY_WALLTIME_USEC, 1, 1, "w");
    for (int i = 0; i < 5; i++)
        tc_report(&s, TC_RULE_XRAY_TSC_DELTA_LARGE, 2, 1, "d");
    for (int i = 0; i < 3; i++)
        tc_report(&s, TC_RULE_XRAY_CALLSTACK_MISMATCH, 3, 1, "m");
    tc_diag_finish(&s);
    EXPECT_RULES(&r, "XRAY-WALLTIME-USEC XRAY-WALLTIME-USEC XRAY-TSC-DELTA-LARGE "
                     "XRAY-TSC-DELTA-LARGE XRAY-CALLSTACK-MISMATCH XRAY-CALLSTACK-MISMATCH "
                     "TC-DIAG-SUPPRESSED TC-DIAG-SUPPRESSED");
    EXPECT_MESSAGE(&r, "TC-DIAG-SUPPRESSED", "3 further XRAY-TSC-DELTA-LARGE findings not shown (5 in all)");
    EXPECT_MESSAGE(&r, "TC-DIAG-SUPPRESSED", "1 further XRAY-CALLSTACK-MISMATCH findings not shown (3 in all)");
    CU_ASSERT_EQUAL(s.errors, 2);
    CU_ASSERT_EQUAL(s.warnings, 8);
    tu_result_free(&r);
}

static void test_default_cap(void)
{
    tu_result r = {0};
    tc_diag_sink s;
    tc_diag_init(&s, "x", 0, 0, tu_collect, &r);
    CU_ASSERT_EQUAL(s.max_repeats, TC_DEFAULT_MAX_REPEATS);
    CU_ASSERT_EQUAL(TC_DEFAULT_MAX_REPEATS, 20);
    for (int i = 0; i < 25; i++)
        tc_report(&s, TC_RULE_XRAY_META_KIND_UNKNOWN, (uint64_t)i, 1, "k");
    tc_diag_finish(&s);
    CU_ASSERT_EQUAL(tu_count(&r, "XRAY-META-KIND-UNKNOWN"), 20);
    CU_ASSERT_EQUAL(tu_count(&r, "TC-DIAG-SUPPRESSED"), 1);
    EXPECT_MESSAGE(&r, "TC-DIAG-SUPPRESSED", "5 further XRAY-META-KIND-UNKNOWN findings not shown (25 in all)");
    tu_result_free(&r);
}

static void test_pedantic_filter(void)
{
    for (int pedantic = 0; pedantic <= 1; pedantic++) {
        tu_result r = {0};
        tc_diag_sink s;
        tc_diag_init(&s, "x", 0, pedantic, tu_collect, &r);
        CU_ASSERT_EQUAL(tc_rule_enabled(&s, TC_RULE_XRAY_RECORD_RESERVED_NONZERO), pedantic);
        CU_ASSERT_EQUAL(tc_rule_enabled(&s, TC_RULE_XRAY_HEADER_RESERVED_NONZERO), pedantic);
        CU_ASSERT(tc_rule_enabled(&s, TC_RULE_XRAY_WALLTIME_USEC));
        tc_report(&s, TC_RULE_XRAY_RECORD_RESERVED_NONZERO, 5, 1, "reserved");
        tc_report(&s, TC_RULE_XRAY_HEADER_RESERVED_NONZERO, 4, 1, "reserved");
        tc_report(&s, TC_RULE_XRAY_TSC_BACKWARDS, 6, 1, "not pedantic");
        tc_diag_finish(&s);
        if (pedantic) {
            EXPECT_RULES(&r, "XRAY-RECORD-RESERVED-NONZERO XRAY-HEADER-RESERVED-NONZERO "
                             "XRAY-TSC-BACKWARDS");
            CU_ASSERT_EQUAL(s.notes, 2);
        } else {
            /* Dropped entirely: neither delivered nor counted. */
            EXPECT_RULES(&r, "XRAY-TSC-BACKWARDS");
            CU_ASSERT_EQUAL(s.notes, 0);
            CU_ASSERT_EQUAL(s.count[TC_RULE_XRAY_RECORD_RESERVED_NONZERO], 0);
        }
        CU_ASSERT_EQUAL(s.warnings, 1);
        tu_result_free(&r);
    }
}

static void test_counters_and_first_error(void)
{
    tu_result r = {0};
    tc_diag_sink s;
    tc_diag_init(&s, "x", 0, 1, tu_collect, &r);
    CU_ASSERT_EQUAL(s.first_error_offset, UINT64_MAX);
    tc_report(&s, TC_RULE_XRAY_TSC_DELTA_LARGE, 5, 4, "warning before any error");
    CU_ASSERT_EQUAL(s.first_error_offset, UINT64_MAX);
    tc_report(&s, TC_RULE_XRAY_WALLTIME_USEC, 400, 4, "e1");
    CU_ASSERT_EQUAL(s.first_error_offset, 400);
    tc_report(&s, TC_RULE_XRAY_FUNCTION_ACTION, 96, 4, "e2 earlier in the file");
    tc_report(&s, TC_RULE_XRAY_FUNCTION_ACTION, 900, 4, "e3");
    tc_report(&s, TC_RULE_XRAY_RECORD_RESERVED_NONZERO, 2, 4, "note");
    tc_report(&s, TC_RULE_XRAY_CALLSTACK_MISMATCH, 1, 4, "warning");
    CU_ASSERT_EQUAL(s.first_error_offset, 96);
    CU_ASSERT_EQUAL(s.errors, 3);
    CU_ASSERT_EQUAL(s.warnings, 2);
    CU_ASSERT_EQUAL(s.notes, 1);
    CU_ASSERT_EQUAL(tu_count_severity(&r, TC_ERROR), 3);
    CU_ASSERT_EQUAL(tu_count_severity(&r, TC_WARNING), 2);
    CU_ASSERT_EQUAL(tu_count_severity(&r, TC_NOTE), 1);
    tc_diag_finish(&s);
    tu_result_free(&r);
}

static void test_no_callback(void)
{
    /* Validation without a callback still counts, and finish is harmless. */
    tc_diag_sink s;
    tc_diag_init(&s, "x", 1, 0, NULL, NULL);
    for (int i = 0; i < 5; i++)
        tc_report(&s, TC_RULE_XRAY_FUNCTION_ACTION, 7, 1, "%d", i);
    tc_diag_finish(&s);
    CU_ASSERT_EQUAL(s.errors, 5);
    CU_ASSERT_EQUAL(s.first_error_offset, 7);
}

typedef struct ctx_state {
    int calls;
    const char *text;
} ctx_state;

static void context_fn(void *parser, char *buf, size_t size)
{
    ctx_state *c = parser;
    c->calls++;
    snprintf(buf, size, "%s", c->text);
}

static void test_context_callback(void)
{
    tu_result r = {0};
    ctx_state c = {0, "in buffer 3 of thread 2017"};
    tc_diag_sink s;
    tc_diag_init(&s, "trace.xray", 2, 0, tu_collect, &r);
    s.context_fn = context_fn;
    s.context_parser = &c;
    tc_report(&s, TC_RULE_XRAY_WALLTIME_USEC, 10, 4, "usec %d", 1234567);
    c.text = ""; /* nothing to say: no context at all */
    tc_report(&s, TC_RULE_XRAY_WALLTIME_USEC, 20, 4, "usec %d", -1);
    int before = c.calls;
    c.text = "never shown";
    tc_report(&s, TC_RULE_XRAY_WALLTIME_USEC, 30, 4, "suppressed");
    /* Context costs nothing for findings nobody sees. */
    CU_ASSERT_EQUAL(c.calls, before);
    tc_diag_finish(&s);
    CU_ASSERT_EQUAL_FATAL(r.n, 3);
    CU_ASSERT_STRING_EQUAL(r.d[0].context, "in buffer 3 of thread 2017");
    CU_ASSERT_STRING_EQUAL(r.d[0].message, "usec 1234567");
    CU_ASSERT_PTR_NULL(r.d[1].context);
    CU_ASSERT_PTR_NULL(r.d[2].context); /* the suppression note */
    tu_result_free(&r);
}

static const char *seen_input;
static uint32_t seen_line, seen_col;
static char seen_path[64];

static void capture(void *user, const tc_diag *d)
{
    (void)user;
    seen_input = d->input;
    seen_line = d->line;
    seen_col = d->column;
    snprintf(seen_path, sizeof seen_path, "%s", d->json_path ? d->json_path : "(null)");
}

static void test_text_locations(void)
{
    tc_diag_sink s;
    tc_diag_init(&s, "doc.json", 0, 0, capture, NULL);
    tc_report_text(&s, TC_RULE_FORMAT_UNKNOWN, 12, 1, 3, 7, "$.a[2]", "x");
    CU_ASSERT_STRING_EQUAL(seen_input, "doc.json");
    CU_ASSERT_EQUAL(seen_line, 3);
    CU_ASSERT_EQUAL(seen_col, 7);
    CU_ASSERT_STRING_EQUAL(seen_path, "$.a[2]");
    tc_report(&s, TC_RULE_FORMAT_UNKNOWN, 12, 1, "y");
    CU_ASSERT_EQUAL(seen_line, 0);
    CU_ASSERT_STRING_EQUAL(seen_path, "(null)");
}

/* The cap applies through the whole pipeline, and the summary still counts
 * every finding. */
static void test_cap_through_parser(void)
{
    xb x;
    xb_init(&x, 5, 0);
    xb_header(&x, 16384);
    xb_begin(&x);
    xb_preamble(&x, 1, 2, 0, 1000);
    for (int i = 0; i < 30; i++)
        xb_fn(&x, 5, (uint32_t)(i + 1), 1); /* action 5: undefined */
    xb_end(&x, 0);
    tu_result r = {0};
    tu_check_memory(xb_data(&x), xb_len(&x), NULL, &r);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_EQUAL(tu_count(&r, "XRAY-FUNCTION-ACTION"), 20);
    CU_ASSERT_EQUAL(tu_count(&r, "TC-DIAG-SUPPRESSED"), 1);
    EXPECT_MESSAGE(&r, "TC-DIAG-SUPPRESSED", "10 further XRAY-FUNCTION-ACTION findings not shown (30 in all)");
    CU_ASSERT_EQUAL(r.sum.errors, 30);
    tu_opts o = {.max_repeats = 1};
    tu_check_memory(xb_data(&x), xb_len(&x), &o, &r);
    CU_ASSERT_EQUAL(tu_count(&r, "XRAY-FUNCTION-ACTION"), 1);
    EXPECT_MESSAGE(&r, "TC-DIAG-SUPPRESSED", "29 further XRAY-FUNCTION-ACTION findings not shown (30 in all)");
    /* The parser's context reaches the finding. */
    const tu_diag *d = tu_find(&r, "XRAY-FUNCTION-ACTION");
    CHECK(d && d->context && strstr(d->context, "buffer 1") && strstr(d->context, "thread 1"),
          "context: %s", d && d->context ? d->context : "(none)");
    tu_result_free(&r);
    xb_free(&x);
}

static const tu_test tests[] = {
    {"cap and suppressed note", test_cap_and_suppressed_note},
    {"cap per rule", test_cap_per_rule},
    {"default cap 20", test_default_cap},
    {"pedantic rules filtered", test_pedantic_filter},
    {"counters and first error offset", test_counters_and_first_error},
    {"no callback", test_no_callback},
    {"context callback", test_context_callback},
    {"text locations", test_text_locations},
    {"cap through the parser", test_cap_through_parser},
    {NULL, NULL},
};

void register_diag_suite(void) { tu_add_suite("diag", tests); }
