/*
 * SARIF 2.1.0 (OASIS, sarif-v2.1.0) of a conformance run, for code-scanning
 * views: one run for the implementation, one result per case that did not
 * pass as it should. fail, crash, timeout and xpass are errors, each with the
 * rule "conformance/<result>" and the case's input as its location; an
 * expected failure is a result too, suppressed (kind "external", the list's
 * reason as justification), so that a viewer hides it but it is not lost.
 * Passes and skips are not results.
 */
#define _DEFAULT_SOURCE
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "conformance_report.h"
#include "report_writers.h"

/* The results that are SARIF results, and what their rules say. */
static const struct {
    tc_conf_result_kind kind;
    const char *text;
} rules[] = {
    {TC_CONF_FAIL, "The implementation's verdict, rule ids or dump differ from the case's "
                   "expectation."},
    {TC_CONF_CRASH, "The implementation gave no verdict: a signal or an exit status other "
                    "than 0 (accept) and 1 (reject)."},
    {TC_CONF_TIMEOUT, "The implementation gave no verdict within the timeout."},
    {TC_CONF_XPASS, "The case passes, but the expected-failure list says it fails: remove "
                    "the line."},
    {TC_CONF_XFAIL, "The case fails as the expected-failure list says (a known departure)."},
};
#define NRULES (sizeof rules / sizeof rules[0])

static int rule_index(tc_conf_result_kind k)
{
    for (size_t i = 0; i < NRULES; i++)
        if (rules[i].kind == k)
            return (int)i;
    return -1;
}

/* A URI reference: RFC 3986 unreserved characters and '/' as they are, every
 * other byte percent-encoded. */
static void uri(FILE *f, const char *prefix, const char *path)
{
    fputc('"', f);
    fputs(prefix, f);
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("-._~/", *p))
            fputc(*p, f);
        else
            fprintf(f, "%%%02X", *p);
    }
    fputc('"', f);
}

/* The input relative to the cases directory, when it lies in it. */
static const char *relative(const tc_conf_suite *s, const char *input)
{
    size_t n = s->dir ? strlen(s->dir) : 0;
    if (n && !strncmp(input, s->dir, n) && input[n] == '/')
        return input + n + 1;
    return NULL;
}

static void result(FILE *f, const tc_conf_run *run, const tc_conf_result *r, int idx)
{
    const tc_conf_case *c = r->c;
    const char *name = tc_conf_result_name(r->kind);
    fprintf(f, "{\"ruleId\":\"conformance/%s\",\"ruleIndex\":%d,\"level\":\"%s\","
               "\"message\":{\"text\":", name, idx, r->kind == TC_CONF_XFAIL ? "note" : "error");
    char *text = tc_conf_printf("%s: %s (expected %s, got %s)", c->id,
                                r->reason ? r->reason : name, tc_conf_verdict_name(c->verdict),
                                tc_conf_verdict_name(r->verdict));
    tc_report_json_string(f, text);
    free(text);
    fputc('}', f);
    if (c->input) {
        fputs(",\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":", f);
        const char *rel = relative(run->suite, c->input);
        if (rel) {
            uri(f, "", rel);
            fputs(",\"uriBaseId\":\"CASES\"", f);
        } else {
            uri(f, c->input[0] == '/' ? "file://" : "", c->input);
        }
        fputs("}}}]", f);
    }
    if (r->kind == TC_CONF_XFAIL) {
        fputs(",\"suppressions\":[{\"kind\":\"external\",\"justification\":", f);
        tc_report_json_string(f, r->xfail_reason ? r->xfail_reason : "");
        fputs("}]", f);
    }
    fputs(",\"properties\":{\"case\":", f);
    tc_report_json_string(f, c->id);
    fprintf(f, ",\"class\":\"%s\",\"expected_verdict\":\"%s\",\"verdict\":\"%s\","
               "\"exit_status\":%d,\"signal\":%d",
            tc_conf_class_name(c->cls), tc_conf_verdict_name(c->verdict),
            tc_conf_verdict_name(r->verdict), r->exit_status, r->signal);
    if (r->stderr_tail && *r->stderr_tail && r->kind != TC_CONF_XFAIL) {
        fputs(",\"stderr\":", f);
        tc_report_json_string(f, r->stderr_tail);
    }
    fputs("}}", f);
}

void tc_conf_report_sarif(FILE *f, const tc_conf_run *run)
{
    const tc_conf_impl *impl = run->opt->impl;
    fputs("{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\","
          "\"runs\":[{\"tool\":{\"driver\":{\"name\":\"tracecheck conformance\",\"version\":",
          f);
    tc_report_json_string(f, TC_VERSION_STRING);
    fputs(",\"rules\":[", f);
    for (size_t i = 0; i < NRULES; i++) {
        fprintf(f, "%s{\"id\":\"conformance/%s\",\"shortDescription\":{\"text\":", i ? "," : "",
                tc_conf_result_name(rules[i].kind));
        tc_report_json_string(f, rules[i].text);
        fputs("}}", f);
    }
    fputs("]}},\"automationDetails\":{\"id\":", f);
    char *id = tc_conf_printf("conformance/%s/%s", impl->name, run->suite->version);
    tc_report_json_string(f, id);
    free(id);
    fputs("},\"originalUriBaseIds\":{\"CASES\":{\"uri\":", f);
    char real[PATH_MAX];
    const char *dir = realpath(run->suite->dir, real) ? real : run->suite->dir;
    char *base = tc_conf_printf("%s/", dir);
    uri(f, dir[0] == '/' ? "file://" : "", base);
    free(base);
    fprintf(f, "}},\"invocations\":[{\"executionSuccessful\":%s",
            tc_conf_run_failed(run) ? "false" : "true");
    /* A tool that cannot run has no result per case (they were not run):
     * the one reason is the invocation's. */
    if (run->broken) {
        fputs(",\"toolExecutionNotifications\":[{\"level\":\"error\",\"message\":{\"text\":", f);
        char *text = tc_conf_printf("%s cannot run: %s", impl->name, run->broken);
        tc_report_json_string(f, text);
        free(text);
        fputs("}}]", f);
    }
    fputs("}],\"properties\":{\"suite_version\":", f);
    tc_report_json_string(f, run->suite->version);
    fputs(",\"implementation\":", f);
    tc_report_json_string(f, impl->name);
    fputs(",\"command\":", f);
    tc_report_json_string(f, tc_conf_report_impl_how(impl));
    fprintf(f, ",\"stale_xfail\":%zu},\"results\":[", run->totals.stale_xfail);
    int first = 1;
    for (size_t i = 0; i < run->count; i++) {
        const tc_conf_result *r = &run->results[i];
        int idx = rule_index(r->kind);
        if (idx < 0)
            continue;
        fputs(first ? "\n" : ",\n", f);
        first = 0;
        result(f, run, r, idx);
    }
    fputs("\n]}]}\n", f);
}
