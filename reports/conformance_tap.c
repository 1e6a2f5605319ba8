/*
 * TAP 14 (testanything.org/tap-version-14-specification): one test point per
 * case. Cases not run (skipped, out of scope, tool not installed or broken) are
 * "ok ... # SKIP", expected failures "not ok ... # TODO" (so a
 * harness does not count them), and an unexpected pass is a plain "not ok":
 * a listed failure that now passes must be noticed. Details go in a YAML block.
 */
#include "conformance_report.h"
#include "report_writers.h"

/* Text after "#" in a test line: '#' and '\' escaped, kept on one line. */
static void directive_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '#' || *s == '\\')
            fputc('\\', f);
        fputc(*s == '\n' ? ' ' : *s, f);
    }
}

static void yaml(FILE *f, const tc_conf_result *r)
{
    fputs("  ---\n  result: ", f);
    fputs(tc_conf_result_name(r->kind), f);
    fputs("\n  message: ", f);
    tc_report_json_string(f, r->reason ? r->reason : "");
    fprintf(f, "\n  expected: %s\n  verdict: %s\n", tc_conf_verdict_name(r->c->verdict),
            tc_conf_verdict_name(r->verdict));
    if (r->exit_status >= 0)
        fprintf(f, "  exit_status: %d\n", r->exit_status);
    if (r->signal)
        fprintf(f, "  signal: %d\n", r->signal);
    if ((r->kind == TC_CONF_CRASH || r->kind == TC_CONF_TIMEOUT) && r->stderr_tail &&
        *r->stderr_tail) {
        fputs("  stderr: ", f);
        tc_report_json_string(f, r->stderr_tail);
        fputc('\n', f);
    }
    fputs("  ...\n", f);
}

void tc_conf_report_tap(FILE *f, const tc_conf_run *run)
{
    fprintf(f, "TAP version 14\n# tracecheck conformance suite %s, implementation %s\n1..%zu\n",
            run->suite->version, run->opt->impl->name, run->count);
    for (size_t i = 0; i < run->count; i++) {
        const tc_conf_result *r = &run->results[i];
        int ok = r->kind == TC_CONF_PASS || tc_conf_result_not_run(r->kind);
        fprintf(f, "%s %zu - %s", ok ? "ok" : "not ok", i + 1, r->c->id);
        if (tc_conf_result_not_run(r->kind)) {
            fputs(" # SKIP ", f);
            if (r->kind != TC_CONF_SKIP)
                fprintf(f, "%s: ", tc_conf_result_name(r->kind));
            directive_text(f, r->reason);
        } else if (r->kind == TC_CONF_XFAIL) {
            fputs(" # TODO expected failure: ", f);
            directive_text(f, r->xfail_reason);
        }
        fputc('\n', f);
        if (!ok && r->kind != TC_CONF_XFAIL)
            yaml(f, r);
    }
    /* A tool that cannot run: its cases are skipped, and the run is not a
     * pass either; a harness takes "Bail out!" as the run's failure. */
    if (run->broken) {
        fprintf(f, "Bail out! %s cannot run: ", run->opt->impl->name);
        directive_text(f, run->broken);
        fputc('\n', f);
    }
    fputs("# ", f);
    tc_conf_report_summary_line(f, run);
}
