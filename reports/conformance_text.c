/* The text summary of a conformance run: what did not pass, then the counts. */
#include <string.h>

#include "conformance_report.h"

static void section(FILE *out, const tc_conf_run *run, tc_conf_result_kind kind, const char *title)
{
    if (!run->totals.count[kind])
        return;
    fprintf(out, "\n%s (%zu):\n", title, run->totals.count[kind]);
    for (size_t i = 0; i < run->count; i++) {
        const tc_conf_result *r = &run->results[i];
        if (r->kind != kind)
            continue;
        fprintf(out, "  %s", r->c->id);
        if (kind == TC_CONF_XFAIL)
            fprintf(out, "\n      expected: %s\n      observed: %s", r->xfail_reason, r->reason);
        else if (r->reason)
            fprintf(out, "\n      %s", r->reason);
        fputc('\n', out);
    }
}

/* Cases not run for a reason that many share (out of scope, not installed):
 * each reason once, with its count, rather than hundreds of lines. */
static void grouped(FILE *out, const tc_conf_run *run, tc_conf_result_kind kind,
                    const char *title)
{
    if (!run->totals.count[kind])
        return;
    fprintf(out, "\n%s (%zu):\n", title, run->totals.count[kind]);
    for (size_t i = 0; i < run->count; i++) {
        const tc_conf_result *r = &run->results[i];
        if (r->kind != kind || !r->reason)
            continue;
        size_t seen = 0, n = 0;
        for (size_t j = 0; j < run->count && !seen; j++)
            seen = j < i && run->results[j].kind == kind && run->results[j].reason &&
                   !strcmp(run->results[j].reason, r->reason);
        if (seen)
            continue;
        for (size_t j = i; j < run->count; j++)
            n += run->results[j].kind == kind && run->results[j].reason &&
                 !strcmp(run->results[j].reason, r->reason);
        fprintf(out, "  %zu case%s: %s\n", n, n == 1 ? "" : "s", r->reason);
    }
}

void tc_conf_report_text(FILE *out, const tc_conf_run *run)
{
    const tc_conf_impl *impl = run->opt->impl;
    fprintf(out, "tracecheck conformance suite %s, tracecheck %s\n", run->suite->version,
            TC_VERSION_STRING);
    fprintf(out, "implementation: %s (%s)%s\n", impl->name, tc_conf_report_impl_how(impl),
            impl->kind == TC_IMPL_COMMAND && impl->dump ? ", canonical dump compared" : "");
    if (impl->unavailable)
        fprintf(out, "not installed: %s\n", impl->unavailable);
    else if (impl->version)
        fprintf(out, "version: %s\n", impl->version);
    if (run->broken)
        fprintf(out, "cannot run: %s\n", run->broken);
    if (run->opt->xfail)
        fprintf(out, "expected failures: %s (%zu entries)\n", run->opt->xfail->path,
                run->opt->xfail->n);
    section(out, run, TC_CONF_CRASH, "crash");
    section(out, run, TC_CONF_TIMEOUT, "timeout");
    section(out, run, TC_CONF_FAIL, "fail");
    section(out, run, TC_CONF_XPASS, "unexpected pass (listed as an expected failure)");
    section(out, run, TC_CONF_XFAIL, "expected failure");
    section(out, run, TC_CONF_SKIP, "skip");
    grouped(out, run, TC_CONF_BROKEN, "broken (the tool cannot run: not run)");
    grouped(out, run, TC_CONF_NOT_INSTALLED, "not installed");
    grouped(out, run, TC_CONF_OUT_OF_SCOPE, "out of scope");
    if (impl->kind != TC_IMPL_TRACECHECK) {
        int any = 0;
        for (size_t i = 0; i < run->count; i++) {
            const tc_conf_result *r = &run->results[i];
            if (r->c->cls != TC_CONF_I || r->verdict == TC_VERDICT_NONE)
                continue;
            if (!any++)
                fputs("\nimplementation-defined (i_) verdicts:\n", out);
            fprintf(out, "  %-48s %s (tracecheck: %s, %s)\n", r->c->id,
                    tc_conf_verdict_name(r->verdict), tc_conf_verdict_name(r->c->verdict),
                    r->c->ruling);
        }
    }
    fputc('\n', out);
    tc_conf_report_summary_line(out, run);
}
