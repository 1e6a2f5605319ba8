/*
 * One self-contained HTML page of a validation, to keep as a CI artifact and
 * open from disk (GitLab's artifact browser, a downloaded zip): the totals,
 * the per-rule table with each rule's summary and a link to its
 * documentation, then every input that is not valid or has findings, with
 * its findings in the order they were made. Inline CSS, no script, nothing
 * fetched. Every path and message is untrusted and escaped. The page is
 * also well-formed XML, which is how make check reads it back (xmllint).
 * The summary comes first, so the inputs' sections are kept until the end.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance_report.h"
#include "report_writers.h"

typedef struct html_writer {
    tc_report_writer base;
    FILE *body; /* the inputs' sections so far */
    char *body_buf;
    size_t body_len;
    FILE *cur; /* the current input's findings */
    char *cur_buf;
    size_t cur_len;
    uint64_t findings; /* of the current input */
    uint64_t shown;    /* inputs with a section */
    int oom;
} html_writer;

static const char style[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}"
    "table{border-collapse:collapse;margin:.5em 0 1.5em}"
    "th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}"
    "td.n{text-align:right}code{font-size:13px}td a code{white-space:nowrap}"
    ".error{color:#b00020;font-weight:600}.warning{color:#8a5a00;font-weight:600}"
    ".note{color:#0b5394}.ctx{color:#555;margin-left:2em}"
    "section{border-top:1px solid #ddd;margin-top:1em}h2{font-size:1.2em}"
    "h3{font-size:1em;font-family:monospace;word-break:break-all}"
    "ol{padding-left:2em}li{margin:.3em 0}";

static void input_begin(tc_report_writer *base, const char *path)
{
    html_writer *w = (html_writer *)base;
    (void)path;
    w->findings = 0;
    if (!w->body && !w->oom && !(w->body = open_memstream(&w->body_buf, &w->body_len)))
        w->oom = 1;
    if (!w->oom && !(w->cur = open_memstream(&w->cur_buf, &w->cur_len)))
        w->oom = 1;
}

static void diag(tc_report_writer *base, const tc_diag *d)
{
    html_writer *w = (html_writer *)base;
    FILE *f = w->cur;
    if (!f)
        return;
    if (!w->findings++)
        fputs("<ol>\n", f);
    char loc[4200];
    tc_report_location(d, loc, sizeof loc);
    fputs("<li><code>", f);
    tc_conf_html_text(f, loc);
    fprintf(f, "</code> <span class=\"%s\">%s</span> <a href=\"#%s\"><code>%s</code></a>: ",
            tc_severity_name(d->severity), tc_severity_name(d->severity), d->rule->id,
            d->rule->id);
    tc_conf_html_text(f, d->message);
    if (d->json_path) {
        fputs(" (at <code>", f);
        tc_conf_html_text(f, d->json_path);
        fputs("</code>)", f);
    }
    if (d->context) {
        fputs("<div class=\"ctx\">", f);
        tc_conf_html_text(f, d->context);
        fputs("</div>", f);
    }
    if (d->view) {
        fputs("<details><summary>bytes</summary><pre class=\"view\">", f);
        tc_conf_html_text(f, d->view);
        fputs("</pre></details>", f);
    }
    fputs("</li>\n", f);
}

static void input_end(tc_report_writer *base, const char *path, int status, const tc_summary *s,
                      const char *error)
{
    html_writer *w = (html_writer *)base;
    if (w->cur)
        fclose(w->cur);
    w->cur = NULL;
    FILE *f = w->body;
    if (f && (status != TC_INPUT_VALID || w->findings)) {
        w->shown++;
        fputs("<section>\n<h3>", f);
        tc_conf_html_text(f, path);
        fprintf(f, "</h3>\n<p><span class=\"%s\">%s</span>", status == TC_INPUT_VALID ? "note"
                                                                                       : "error",
                tc_report_status_name(status));
        if (status == TC_INPUT_UNREADABLE) {
            fputs(": ", f);
            tc_conf_html_text(f, error);
        } else {
            fprintf(f, ", %s: ",
                    s->format == TC_FORMAT_AUTO ? "unknown format" : tc_format_name(s->format));
            tc_report_findings(f, s->errors, s->warnings, s->notes);
        }
        fputs("</p>\n", f);
        if (w->cur_buf)
            fwrite(w->cur_buf, 1, w->cur_len, f);
        if (w->findings)
            fputs("</ol>\n", f);
        fputs("</section>\n", f);
    }
    free(w->cur_buf);
    w->cur_buf = NULL;
}

static void rule_table(FILE *f, const tc_report_writer *base, const tc_rule_tally *tally)
{
    size_t n = 0;
    const tc_rule_stat **v = tally ? tc_rule_tally_sorted(tally, &n) : NULL;
    if (!n) {
        free(v);
        return;
    }
    fputs("<h2>Rules with findings</h2>\n<table>\n<tr><th>severity</th><th>rule</th>"
          "<th>what it says</th><th>inputs</th><th>findings</th><th>first at</th></tr>\n", f);
    for (size_t i = 0; i < n; i++) {
        const tc_rule_stat *s = v[i];
        const char *sev = tc_severity_name(s->rule->severity);
        char uri[TC_REPORT_URI_MAX];
        tc_report_rule_uri(&base->opts, s->rule, uri, sizeof uri);
        fprintf(f, "<tr id=\"%s\"><td class=\"%s\">%s</td><td><a href=\"", s->rule->id, sev, sev);
        tc_conf_html_text(f, uri);
        fprintf(f, "\"><code>%s</code></a></td><td>", s->rule->id);
        tc_conf_html_text(f, s->rule->summary);
        fprintf(f, "</td><td class=\"n\">%" PRIu64 "</td><td class=\"n\">%" PRIu64 "</td><td>",
                s->files, s->findings);
        for (size_t j = 0; j < s->nloc; j++) {
            fputs(j ? ", <code>" : "<code>", f);
            tc_conf_html_text(f, s->loc[j]);
            fputs("</code>", f);
        }
        fputs(s->findings > s->nloc ? ", ...</td></tr>\n" : "</td></tr>\n", f);
    }
    fputs("</table>\n", f);
    free(v);
}

static void close_writer(tc_report_writer *base, const tc_report_totals *t)
{
    html_writer *w = (html_writer *)base;
    FILE *f = base->out;
    if (w->cur)
        fclose(w->cur);
    if (w->body)
        fclose(w->body);
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>"
               "<title>tracecheck validate: %s</title>\n<style>%s</style></head><body>\n"
               "<h1>tracecheck validate: %s</h1>\n<p>",
            t->exit_status == 0 ? "passed" : "failed", style,
            t->exit_status == 0 ? "passed" : "failed");
    tc_report_count(f, t->inputs, "input");
    fprintf(f, ": %" PRIu64 " valid, %" PRIu64 " invalid, %" PRIu64 " unreadable; ", t->valid,
            t->invalid, t->unreadable);
    tc_report_findings(f, t->errors, t->warnings, t->notes);
    fprintf(f, " in %.1f MB. Exit status %d. tracecheck %s.</p>\n", (double)t->bytes / 1e6,
            t->exit_status, TC_VERSION_STRING);
    rule_table(f, base, t->rules);
    if (w->shown) {
        fprintf(f, "<h2>Inputs with findings (%" PRIu64 ")</h2>\n", w->shown);
        fwrite(w->body_buf, 1, w->body_len, f);
    }
    if (w->oom)
        fputs("<p class=\"error\">Out of memory: inputs were left out of this page.</p>\n", f);
    fputs("</body></html>\n", f);
    free(w->cur_buf);
    free(w->body_buf);
    free(w);
}

tc_report_writer *tc_report_html_new(void)
{
    return tc_report_writer_new(sizeof(html_writer), input_begin, diag, input_end, close_writer);
}
