#include <string.h>

#include "report.h"
#include "report_writers.h"

static const char *const kind_names[TC_REPORT__COUNT] = {"text", "json"};

tc_report_kind tc_report_kind_from_name(const char *name)
{
    for (int k = 0; k < TC_REPORT__COUNT; k++)
        if (strcmp(kind_names[k], name) == 0)
            return (tc_report_kind)k;
    return TC_REPORT__COUNT;
}

const char *tc_report_kind_name(tc_report_kind k)
{
    return (unsigned)k < TC_REPORT__COUNT ? kind_names[k] : "unknown";
}

const char *tc_severity_name(tc_severity s)
{
    switch (s) {
    case TC_ERROR: return "error";
    case TC_WARNING: return "warning";
    default: return "note";
    }
}

tc_report_writer *tc_report_open(tc_report_kind kind, FILE *out, const tc_report_opts *opts)
{
    tc_report_writer *w = NULL;
    switch (kind) {
    case TC_REPORT_TEXT: w = tc_report_text_new(); break;
    case TC_REPORT_JSON: w = tc_report_json_new(); break;
    default: return NULL;
    }
    if (w) {
        w->out = out;
        if (opts)
            w->opts = *opts;
    }
    return w;
}

void tc_report_on_diag(void *writer, const tc_diag *d)
{
    tc_report_writer *w = writer;
    w->diag(w, d);
}
