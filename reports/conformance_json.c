/*
 * The JSON report of a conformance run (docs/conformance.md, "Reports"): one
 * document with the suite version, the implementation, the totals and one
 * object per case with the expected and observed verdicts. report_version is
 * bumped when the layout changes.
 */
#include "conformance_report.h"
#include "report_writers.h"

static void key_str(FILE *f, const char *key, const char *value)
{
    fprintf(f, "\"%s\":", key);
    if (value)
        tc_report_json_string(f, value);
    else
        fputs("null", f);
}

static void key_rules(FILE *f, const char *key, const tc_conf_rules *s)
{
    fprintf(f, "\"%s\":[", key);
    for (size_t i = 0; i < s->n; i++) {
        if (i)
            fputc(',', f);
        tc_report_json_string(f, s->r[i]->id);
    }
    fputc(']', f);
}

static void result(FILE *f, const tc_conf_run *run, const tc_conf_result *r)
{
    const tc_conf_case *c = r->c;
    int ours = run->opt->impl->kind == TC_IMPL_TRACECHECK;
    fputc('{', f);
    key_str(f, "id", c->id);
    fputc(',', f);
    key_str(f, "name", c->name);
    fputc(',', f);
    key_str(f, "group", c->group);
    fputc(',', f);
    key_str(f, "class", tc_conf_class_name(c->cls));
    fputc(',', f);
    key_str(f, "input", c->input);
    fputc(',', f);
    key_str(f, "description", c->description);
    fputc(',', f);
    key_str(f, "result", tc_conf_result_name(r->kind));
    fputc(',', f);
    key_str(f, "expected_verdict", tc_conf_verdict_name(c->verdict));
    fputc(',', f);
    key_str(f, "verdict", r->verdict ? tc_conf_verdict_name(r->verdict) : NULL);
    fputc(',', f);
    key_rules(f, "expected_errors", &c->errors);
    fputc(',', f);
    key_rules(f, "expected_warnings", &c->warnings);
    fputc(',', f);
    key_rules(f, "expected_notes", &c->notes);
    if (ours && r->verdict) {
        fputc(',', f);
        key_rules(f, "errors", &r->errors);
        fputc(',', f);
        key_rules(f, "warnings", &r->warnings);
        fputc(',', f);
        key_rules(f, "notes", &r->notes);
    }
    fputc(',', f);
    key_str(f, "ruling", c->ruling);
    fputc(',', f);
    key_str(f, "reason", r->reason);
    fputc(',', f);
    key_str(f, "xfail_reason", r->xfail_reason);
    fprintf(f, ",\"exit_status\":%d,\"signal\":%d,\"seconds\":%.4f", r->exit_status, r->signal,
            r->seconds);
    if (r->kind == TC_CONF_CRASH || r->kind == TC_CONF_TIMEOUT || r->kind == TC_CONF_FAIL) {
        fputc(',', f);
        key_str(f, "stderr", r->stderr_tail);
    }
    fputc('}', f);
}

void tc_conf_report_json(FILE *f, const tc_conf_run *run)
{
    const tc_conf_impl *impl = run->opt->impl;
    const tc_conf_totals *t = &run->totals;
    fprintf(f, "{\"report\":\"tracecheck-conformance\",\"report_version\":%d,",
            TC_CONF_REPORT_VERSION);
    key_str(f, "suite_version", run->suite->version);
    fputc(',', f);
    key_str(f, "tool_version", TC_VERSION_STRING);
    fputs(",\"implementation\":{", f);
    key_str(f, "name", impl->name);
    fputc(',', f);
    key_str(f, "kind", impl->kind == TC_IMPL_TRACECHECK ? "tracecheck" : "command");
    fputc(',', f);
    key_str(f, "command", impl->kind == TC_IMPL_COMMAND ? impl->command : NULL);
    fputc(',', f);
    key_str(f, "version", impl->kind == TC_IMPL_TRACECHECK ? TC_VERSION_STRING : impl->version);
    fprintf(f, ",\"installed\":%s,", impl->unavailable ? "false" : "true");
    key_str(f, "broken", run->broken);
    fprintf(f, ",\"dump\":%s},", impl->kind == TC_IMPL_TRACECHECK || impl->dump ? "true" : "false");
    key_str(f, "xfail_list", run->opt->xfail ? run->opt->xfail->path : NULL);
    fputc(',', f);
    key_str(f, "xfail_measured_on", run->opt->xfail ? run->opt->xfail->version : NULL);
    fprintf(f, ",\"timeout\":%.1f,\"summary\":{\"cases\":%zu", run->opt->timeout, t->cases);
    for (int k = 0; k < TC_CONF__RESULTS; k++)
        fprintf(f, ",\"%s\":%zu", tc_conf_result_name((tc_conf_result_kind)k), t->count[k]);
    fprintf(f, ",\"stale_xfail\":%zu,\"seconds\":%.3f,\"ok\":%s},\"cases\":[", t->stale_xfail,
            t->seconds, tc_conf_run_failed(run) ? "false" : "true");
    for (size_t i = 0; i < run->count; i++) {
        fputs(i ? ",\n" : "\n", f);
        result(f, run, &run->results[i]);
    }
    fputs("\n]}\n", f);
}
