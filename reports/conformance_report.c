/* Dispatch of the conformance report writers, and what they share. */
#include <string.h>

#include "conformance_report.h"

static void html_one(FILE *out, const tc_conf_run *run)
{
    tc_conf_report_html(out, run, 1);
}

static const struct {
    const char *name, *ext;
    void (*write)(FILE *, const tc_conf_run *);
} kinds[TC_CONF_REPORT__COUNT] = {
    {"text", "txt", tc_conf_report_text},
    {"json", "json", tc_conf_report_json},
    {"tap", "tap", tc_conf_report_tap},
    {"junit", "xml", tc_conf_report_junit},
    {"html", "html", html_one},
    {"sarif", "sarif", tc_conf_report_sarif},
};

tc_conf_report_kind tc_conf_report_from_name(const char *name)
{
    for (int k = 0; k < TC_CONF_REPORT__COUNT; k++)
        if (!strcmp(kinds[k].name, name))
            return (tc_conf_report_kind)k;
    return TC_CONF_REPORT__COUNT;
}

const char *tc_conf_report_name(tc_conf_report_kind k)
{
    return (unsigned)k < TC_CONF_REPORT__COUNT ? kinds[k].name : "unknown";
}

const char *tc_conf_report_extension(tc_conf_report_kind k)
{
    return (unsigned)k < TC_CONF_REPORT__COUNT ? kinds[k].ext : "out";
}

int tc_conf_report_write(tc_conf_report_kind k, FILE *out, const tc_conf_run *run)
{
    if ((unsigned)k >= TC_CONF_REPORT__COUNT)
        return -1;
    kinds[k].write(out, run);
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

int tc_conf_report_write_matrix(FILE *out, const tc_conf_run *runs, size_t n)
{
    tc_conf_report_html(out, runs, n);
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

void tc_conf_report_summary_line(FILE *out, const tc_conf_run *run)
{
    const tc_conf_totals *t = &run->totals;
    fprintf(out, "%zu case%s:", t->cases, t->cases == 1 ? "" : "s");
    for (int k = 0; k < TC_CONF__RESULTS; k++)
        fprintf(out, "%s %zu %s", k ? "," : "", t->count[k], tc_conf_result_name((tc_conf_result_kind)k));
    fprintf(out, " (%.2f s)", t->seconds);
    if (t->stale_xfail)
        fprintf(out, "; %zu stale expected-failure entr%s", t->stale_xfail,
                t->stale_xfail == 1 ? "y" : "ies");
    fputc('\n', out);
}

const char *tc_conf_report_impl_how(const tc_conf_impl *impl)
{
    if (impl->kind == TC_IMPL_TRACECHECK)
        return "tracecheck's parser, in a forked process per case";
    return impl->command;
}
