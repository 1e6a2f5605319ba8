/* Report writers (reports/): the JSON report parses back with cJSON and has
 * the documented fields; the text report's lines read
 * `path:offset: severity: RULE-ID: message`. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../reports/report.h"
#include "suites.h"
#include "tu.h"
#include "xray/xb.h"

/* A small invalid trace: a bad microseconds value (an error, with context)
 * and a large delta (a warning). */
static void invalid_trace(xb *x)
{
    xb_init(x, 5, 0);
    xb_header(x, 4096);
    xb_begin(x);
    xb_new_buffer(x, 77);
    xb_wall(x, 1, 1000000);
    xb_pid(x, 88);
    xb_new_cpu(x, 0, 1);
    xb_fn(x, XB_ENTER, 1, 0x90000000u);
    xb_end(x, 0);
}

typedef struct report_out {
    char *text;
    size_t len;
    FILE *f;
} report_out;

/* Runs the inputs through a writer the way `tracecheck validate` does. */
static void run_report(tc_report_kind kind, const tc_report_opts *ropts, report_out *out,
                       const xb *trace)
{
    out->f = open_memstream(&out->text, &out->len);
    tc_report_writer *w = tc_report_open(kind, out->f, ropts);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    tc_report_totals totals = {0};

    /* 1: the invalid trace, from memory, named like a file. */
    tc_options opt = TC_OPTIONS_INIT;
    opt.on_diag = tc_report_on_diag;
    opt.user = w;
    tc_summary sum;
    w->input_begin(w, "dir/bad.xray");
    int rc = tc_validate_buffer(xb_data(trace), xb_len(trace), "dir/bad.xray", &opt, &sum);
    w->input_end(w, "dir/bad.xray", rc, &sum, "");
    totals.inputs++;
    totals.invalid++;
    totals.errors += sum.errors;
    totals.warnings += sum.warnings;
    totals.bytes += sum.bytes;

    /* 2: unreadable. */
    char err[300] = "";
    char missing[600];
    snprintf(missing, sizeof missing, "%s/missing \"quoted\".xray", tu_tmpdir());
    w->input_begin(w, missing);
    rc = tc_validate_file(missing, &opt, &sum, err, sizeof err);
    CU_ASSERT_EQUAL(rc, 2);
    w->input_end(w, missing, rc, &sum, err);
    totals.inputs++;
    totals.unreadable++;
    totals.seconds = 0.25;
    w->close(w, &totals);
    fclose(out->f);
}

static void test_json_report(void)
{
    xb x;
    invalid_trace(&x);
    report_out out;
    tc_report_opts ro = {.color = 1, .command = "tracecheck validate --report json dir"};
    run_report(TC_REPORT_JSON, &ro, &out, &x);
    cJSON *doc = cJSON_Parse(out.text);
    CHECK(doc != NULL, "the JSON report does not parse:\n%s", out.text);
    if (!doc) {
        free(out.text);
        xb_free(&x);
        return;
    }
    /* No colour codes in JSON, whatever the option. */
    CU_ASSERT_PTR_NULL(strchr(out.text, '\033'));
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItem(doc, "tool")), "tracecheck");
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItem(doc, "tool_version")),
                           TC_VERSION_STRING);
    CU_ASSERT(cJSON_IsNumber(cJSON_GetObjectItem(doc, "report_version")));
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItem(doc, "command")),
                           "tracecheck validate --report json dir");
    cJSON *inputs = cJSON_GetObjectItem(doc, "inputs");
    CU_ASSERT_FATAL(cJSON_IsArray(inputs) && cJSON_GetArraySize(inputs) == 2);

    cJSON *a = cJSON_GetArrayItem(inputs, 0);
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItem(a, "path")), "dir/bad.xray");
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItem(a, "status")), "invalid");
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItem(a, "format")), "xray");
    CU_ASSERT_EQUAL(cJSON_GetNumberValue(cJSON_GetObjectItem(a, "bytes")), (double)xb_len(&x));
    CU_ASSERT_EQUAL(cJSON_GetNumberValue(cJSON_GetObjectItem(a, "errors")), 1);
    CU_ASSERT_EQUAL(cJSON_GetNumberValue(cJSON_GetObjectItem(a, "warnings")), 1);
    CU_ASSERT_EQUAL(cJSON_GetNumberValue(cJSON_GetObjectItem(a, "notes")), 0);
    cJSON *diags = cJSON_GetObjectItem(a, "diagnostics");
    CU_ASSERT_FATAL(cJSON_IsArray(diags) && cJSON_GetArraySize(diags) == 2);
    cJSON *d = cJSON_GetArrayItem(diags, 0);
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItem(d, "rule")), "XRAY-WALLTIME-USEC");
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItem(d, "severity")), "error");
    CU_ASSERT_EQUAL(cJSON_GetNumberValue(cJSON_GetObjectItem(d, "offset")), 32 + 16 + 16 + 9);
    CU_ASSERT_EQUAL(cJSON_GetNumberValue(cJSON_GetObjectItem(d, "length")), 4);
    const char *msg = cJSON_GetStringValue(cJSON_GetObjectItem(d, "message"));
    CHECK(msg && strstr(msg, "1000000"), "message: %s", msg ? msg : "(none)");
    const char *ctx = cJSON_GetStringValue(cJSON_GetObjectItem(d, "context"));
    CHECK(ctx && strstr(ctx, "thread 77"), "context: %s", ctx ? ctx : "(none)");
    /* Binary formats have no line, column or JSON path. */
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItem(d, "line"));
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItem(d, "json_path"));
    d = cJSON_GetArrayItem(diags, 1);
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItem(d, "rule")), "XRAY-TSC-DELTA-LARGE");
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItem(d, "severity")), "warning");

    cJSON *b = cJSON_GetArrayItem(inputs, 1);
    const char *path = cJSON_GetStringValue(cJSON_GetObjectItem(b, "path"));
    CHECK(path && strstr(path, "missing \"quoted\".xray"), "path: %s", path ? path : "(none)");
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItem(b, "status")), "unreadable");
    const char *err = cJSON_GetStringValue(cJSON_GetObjectItem(b, "error"));
    CHECK(err && strstr(err, "No such file"), "error: %s", err ? err : "(none)");
    CU_ASSERT(cJSON_IsArray(cJSON_GetObjectItem(b, "diagnostics")) &&
              cJSON_GetArraySize(cJSON_GetObjectItem(b, "diagnostics")) == 0);

    cJSON *s = cJSON_GetObjectItem(doc, "summary");
    CU_ASSERT_FATAL(cJSON_IsObject(s));
    static const struct { const char *key; double v; } totals[] = {
        {"inputs", 2}, {"valid", 0}, {"invalid", 1}, {"unreadable", 1},
        {"errors", 1}, {"warnings", 1}, {"notes", 0},
    };
    for (size_t i = 0; i < sizeof totals / sizeof totals[0]; i++)
        CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(s, totals[i].key)) == totals[i].v,
              "summary.%s", totals[i].key);
    CU_ASSERT(cJSON_IsNumber(cJSON_GetObjectItem(s, "bytes")));
    cJSON_Delete(doc);
    free(out.text);
    xb_free(&x);
}

/* Messages, contexts and paths with every character JSON must escape. */
static void test_json_escaping(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    tc_report_writer *w = tc_report_open(TC_REPORT_JSON, f, NULL);
    const char *nasty = "quote \" backslash \\ newline \n tab \t cr \r bell \x07 end";
    w->input_begin(w, nasty);
    tc_diag d = {.rule = tc_rule_find("XRAY-WALLTIME-USEC"), .severity = TC_ERROR,
                 .input = nasty, .offset = 1ull << 40, .length = 3, .line = 4, .column = 9,
                 .json_path = "$.a[\"b\"]", .message = nasty, .context = nasty};
    w->diag(w, &d);
    tc_summary sum = {.format = TC_FORMAT_XRAY, .bytes = 10, .errors = 1};
    w->input_end(w, nasty, 1, &sum, "");
    tc_report_totals t = {.inputs = 1, .invalid = 1, .errors = 1};
    w->close(w, &t);
    fclose(f);
    cJSON *doc = cJSON_Parse(text);
    CHECK(doc != NULL, "does not parse:\n%s", text);
    if (doc) {
        cJSON *in = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "inputs"), 0);
        CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItem(in, "path")), nasty);
        cJSON *dj = cJSON_GetArrayItem(cJSON_GetObjectItem(in, "diagnostics"), 0);
        CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItem(dj, "message")), nasty);
        CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItem(dj, "context")), nasty);
        CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItem(dj, "json_path")), "$.a[\"b\"]");
        CU_ASSERT_EQUAL(cJSON_GetNumberValue(cJSON_GetObjectItem(dj, "offset")), (double)(1ull << 40));
        CU_ASSERT_EQUAL(cJSON_GetNumberValue(cJSON_GetObjectItem(dj, "line")), 4);
        CU_ASSERT_EQUAL(cJSON_GetNumberValue(cJSON_GetObjectItem(dj, "column")), 9);
        cJSON_Delete(doc);
    }
    free(text);

    /* No inputs at all: still a document. */
    text = NULL;
    f = open_memstream(&text, &len);
    w = tc_report_open(TC_REPORT_JSON, f, NULL);
    tc_report_totals none = {0};
    w->close(w, &none);
    fclose(f);
    doc = cJSON_Parse(text);
    CHECK(doc && cJSON_GetArraySize(cJSON_GetObjectItem(doc, "inputs")) == 0, "empty report:\n%s",
          text);
    cJSON_Delete(doc);
    free(text);
}

static void test_text_report(void)
{
    xb x;
    invalid_trace(&x);
    report_out out;
    tc_report_opts ro = {0};
    run_report(TC_REPORT_TEXT, &ro, &out, &x);
    char line[200];
    snprintf(line, sizeof line, "dir/bad.xray:%d: error: XRAY-WALLTIME-USEC: ", 32 + 16 + 16 + 9);
    CHECK(strncmp(out.text, line, strlen(line)) == 0, "first line:\n%s", out.text);
    /* The context on an indented line below (the PIDEntry comes after the
     * wall time, so only the thread is known yet). */
    const char *nl = strchr(out.text, '\n');
    CHECK(nl && strncmp(nl + 1, "    in buffer 1 at offset 32 (thread 77)\n", 41) == 0,
          "context line:\n%s", out.text);
    snprintf(line, sizeof line, "\ndir/bad.xray:%d: warning: XRAY-TSC-DELTA-LARGE: TSC delta ",
             32 + 16 + 64 + 4);
    CHECK(strstr(out.text, line) != NULL, "warning line:\n%s", out.text);
    CHECK(strstr(out.text, "missing \"quoted\".xray: error: cannot open: No such file") != NULL,
          "unreadable line:\n%s", out.text);
    CHECK(strstr(out.text, "\ntracecheck: 2 inputs, 0 valid, 1 invalid, 1 unreadable; 1 error, "
                           "1 warning, 0 notes (") != NULL,
          "summary line:\n%s", out.text);
    CU_ASSERT_PTR_NULL(strchr(out.text, '\033')); /* no colour unless asked */
    CU_ASSERT(out.text[out.len - 1] == '\n');
    free(out.text);

    ro.color = 1;
    run_report(TC_REPORT_TEXT, &ro, &out, &x);
    CU_ASSERT_PTR_NOT_NULL(strstr(out.text, "\033[1;31merror:\033[0m XRAY-WALLTIME-USEC: "));
    free(out.text);
    xb_free(&x);
}

static void test_text_locations(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    tc_report_writer *w = tc_report_open(TC_REPORT_TEXT, f, NULL);
    w->input_begin(w, "a.json");
    tc_diag located = {.rule = tc_rule_find("TC-FORMAT-UNKNOWN"), .severity = TC_ERROR,
                       .input = "a.json", .offset = 12, .line = 3, .column = 7,
                       .json_path = "$.x", .message = "m1"};
    w->diag(w, &located);
    tc_diag whole = {.rule = tc_rule_find("TC-DIAG-SUPPRESSED"), .severity = TC_NOTE,
                     .input = "a.json", .offset = 99, .message = "m2", .unlocated = 1};
    w->diag(w, &whole);
    tc_report_totals t = {.inputs = 1, .valid = 1, .bytes = 2500000, .seconds = 1.5};
    w->close(w, &t);
    fclose(f);
    const char *expect = "a.json:3:7: error: TC-FORMAT-UNKNOWN: m1 (offset 12, at $.x)\n"
                         "a.json: note: TC-DIAG-SUPPRESSED: m2\n"
                         "tracecheck: 1 input, 1 valid, 0 invalid; 0 errors, 0 warnings, 0 notes "
                         "(2.5 MB in 1.50 s)\n";
    CHECK(strcmp(text, expect) == 0, "text:\n%s\nexpected:\n%s", text, expect);
    free(text);
}

static void test_names(void)
{
    CU_ASSERT_EQUAL(tc_report_kind_from_name("text"), TC_REPORT_TEXT);
    CU_ASSERT_EQUAL(tc_report_kind_from_name("json"), TC_REPORT_JSON);
    CU_ASSERT_EQUAL(tc_report_kind_from_name("JSON"), TC_REPORT__COUNT);
    CU_ASSERT_EQUAL(tc_report_kind_from_name(""), TC_REPORT__COUNT);
    CU_ASSERT_STRING_EQUAL(tc_report_kind_name(TC_REPORT_JSON), "json");
    CU_ASSERT_STRING_EQUAL(tc_severity_name(TC_ERROR), "error");
    CU_ASSERT_STRING_EQUAL(tc_severity_name(TC_WARNING), "warning");
    CU_ASSERT_STRING_EQUAL(tc_severity_name(TC_NOTE), "note");
    CU_ASSERT_PTR_NULL(tc_report_open(TC_REPORT__COUNT, stdout, NULL));
    CU_ASSERT_STRING_EQUAL(tc_format_name(TC_FORMAT_XRAY), "xray");
    CU_ASSERT_EQUAL(tc_format_from_name("xray"), TC_FORMAT_XRAY);
    CU_ASSERT_EQUAL(tc_format_from_name("auto"), TC_FORMAT_AUTO);
    CU_ASSERT_EQUAL(tc_format_from_name("nope"), TC_FORMAT__COUNT);
}

static const tu_test tests[] = {
    {"JSON report parses back", test_json_report},
    {"JSON escaping and empty report", test_json_escaping},
    {"text report lines", test_text_report},
    {"text line:column and unlocated", test_text_locations},
    {"report and format names", test_names},
    {NULL, NULL},
};

void register_report_suite(void) { tu_add_suite("report", tests); }
