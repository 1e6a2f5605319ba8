/* Compiler-style text: `path:offset: error: RULE-ID: message`, the context on
 * an indented line below, a summary line at the end. */
#include <inttypes.h>
#include <stdlib.h>

#include "report_writers.h"

typedef struct text_writer {
    tc_report_writer base;
} text_writer;

static const char *colour(const tc_report_writer *w, tc_severity s)
{
    if (!w->opts.color)
        return "";
    switch (s) {
    case TC_ERROR: return "\033[1;31m";
    case TC_WARNING: return "\033[1;35m";
    default: return "\033[1;36m";
    }
}

static const char *reset(const tc_report_writer *w) { return w->opts.color ? "\033[0m" : ""; }

static void input_begin(tc_report_writer *w, const char *path)
{
    (void)w;
    (void)path;
}

static void diag(tc_report_writer *w, const tc_diag *d)
{
    FILE *f = w->out;
    if (d->unlocated)
        fprintf(f, "%s: ", d->input);
    else if (d->line)
        fprintf(f, "%s:%" PRIu32 ":%" PRIu32 ": ", d->input, d->line, d->column);
    else
        fprintf(f, "%s:%" PRIu64 ": ", d->input, d->offset);
    fprintf(f, "%s%s:%s %s: %s", colour(w, d->severity), tc_severity_name(d->severity), reset(w),
            d->rule->id, d->message);
    if (d->line)
        fprintf(f, " (offset %" PRIu64 "%s%s)", d->offset, d->json_path ? ", at " : "",
                d->json_path ? d->json_path : "");
    fputc('\n', f);
    if (d->context)
        fprintf(f, "    %s\n", d->context);
}

static void input_end(tc_report_writer *w, const char *path, int status, const tc_summary *s,
                      const char *error)
{
    (void)s;
    if (status == TC_INPUT_UNREADABLE)
        fprintf(w->out, "%s: %serror:%s %s\n", path, colour(w, TC_ERROR), reset(w), error);
}

static void plural(FILE *f, uint64_t n, const char *one, const char *many)
{
    fprintf(f, "%" PRIu64 " %s", n, n == 1 ? one : many);
}

static void close_writer(tc_report_writer *w, const tc_report_totals *t)
{
    FILE *f = w->out;
    fputs("tracecheck: ", f);
    plural(f, t->inputs, "input", "inputs");
    fprintf(f, ", %" PRIu64 " valid, %" PRIu64 " invalid", t->valid, t->invalid);
    if (t->unreadable)
        fprintf(f, ", %" PRIu64 " unreadable", t->unreadable);
    fputs("; ", f);
    plural(f, t->errors, "error", "errors");
    fputs(", ", f);
    plural(f, t->warnings, "warning", "warnings");
    fputs(", ", f);
    plural(f, t->notes, "note", "notes");
    fprintf(f, " (%.1f MB in %.2f s)\n", (double)t->bytes / 1e6, t->seconds);
    free(w);
}

tc_report_writer *tc_report_text_new(void)
{
    text_writer *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->base.input_begin = input_begin;
    w->base.diag = diag;
    w->base.input_end = input_end;
    w->base.close = close_writer;
    return &w->base;
}
