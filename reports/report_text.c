/* Compiler-style text: `path:offset: error: RULE-ID: message`, the context on
 * an indented line below; at the end the per-rule summary (most severe and
 * most frequent first) and a summary line. */
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
    if (w->opts.quiet)
        return;
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
    if (d->view)
        fputs(d->view, f);
}

static void input_end(tc_report_writer *w, const char *path, int status, const tc_summary *s,
                      const char *error)
{
    (void)s;
    if (status == TC_INPUT_UNREADABLE)
        fprintf(w->out, "%s: %serror:%s %s\n", path, colour(w, TC_ERROR), reset(w), error);
}

/* One line a rule: what a tracer author reads first. Never ": error: ", so
 * that a count of finding lines stays a count of findings. */
static void rule_summary(tc_report_writer *w, const tc_rule_tally *tally)
{
    size_t n;
    const tc_rule_stat **v = tc_rule_tally_sorted(tally, &n);
    if (!v)
        return;
    FILE *f = w->out;
    fputs("rules with findings (most severe, then most frequent first):\n", f);
    for (size_t i = 0; i < n; i++) {
        const tc_rule_stat *s = v[i];
        fprintf(f, "  %s%-7s%s %-36s ", colour(w, s->rule->severity),
                tc_severity_name(s->rule->severity), reset(w), s->rule->id);
        tc_report_count(f, s->files, "input");
        fputs(", ", f);
        tc_report_count(f, s->findings, "finding");
        for (size_t j = 0; j < s->nloc; j++)
            fprintf(f, "%s%s", j ? ", " : "; first at ", s->loc[j]);
        if (s->findings > s->nloc)
            fputs(", ...", f);
        fputc('\n', f);
    }
    free(v);
}

static int wants_summary(const tc_report_writer *w, const tc_rule_tally *tally)
{
    if (w->opts.rule_summary)
        return w->opts.rule_summary > 0;
    if (w->opts.quiet)
        return 1;
    uint64_t findings = 0;
    for (size_t i = 0; i < tc_rule_count(); i++)
        findings += tally->stats[i].findings;
    return findings > TC_TEXT_SUMMARY_AUTO;
}

static void close_writer(tc_report_writer *w, const tc_report_totals *t)
{
    FILE *f = w->out;
    if (t->rules && wants_summary(w, t->rules))
        rule_summary(w, t->rules);
    fputs("tracecheck: ", f);
    tc_report_count(f, t->inputs, "input");
    fprintf(f, ", %" PRIu64 " valid, %" PRIu64 " invalid", t->valid, t->invalid);
    if (t->unreadable)
        fprintf(f, ", %" PRIu64 " unreadable", t->unreadable);
    fputs("; ", f);
    tc_report_findings(f, t->errors, t->warnings, t->notes);
    fprintf(f, " (%.1f MB in %.2f s)\n", (double)t->bytes / 1e6, t->seconds);
    free(w);
}

tc_report_writer *tc_report_text_new(void)
{
    return tc_report_writer_new(sizeof(text_writer), input_begin, diag, input_end, close_writer);
}
