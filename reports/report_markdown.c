/*
 * Markdown (GitHub Flavored Markdown) for CI job summaries and merge
 * request comments: a headline with the totals, the per-rule table (rule
 * linked to its documentation, inputs, findings, first locations), and the
 * inputs that are not valid or have findings. A summary is read by people
 * and GitHub caps one at 1 MiB, so the input table stops at
 * MD_INPUT_ROWS rows and counts the rest; the other reports list them all.
 * Nothing here depends on the time or on -j, like every report but text.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_writers.h"

#define MD_INPUT_ROWS 100

typedef struct md_writer {
    tc_report_writer base;
    FILE *rows; /* the input table's rows so far */
    char *rows_buf;
    size_t rows_len;
    uint64_t listed, unlisted;
    char first_rule[96]; /* the current input's first finding */
    char first_loc[4200];
    tc_severity first_severity;
    int has_first;
    int oom;
} md_writer;

/* Text in a table cell, on one line, bytes that are not UTF-8 as U+FFFD.
 * As prose (as_code 0): the characters GFM or HTML would read as markup
 * escaped. As a code span (paths, locations), where nothing is markup but
 * the backtick that would end it (written as ') and, in a table, the pipe. */
static void md_text(FILE *f, const char *s, int as_code)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t n = strlen((const char *)p);
    if (as_code)
        putc('`', f);
    for (size_t i = 0; i < n;) {
        unsigned char c = p[i];
        if (c >= 0x80) {
            i += tc_report_utf8_char(f, p + i, n - i);
            continue;
        }
        i++;
        if (c < 0x20 || c == 0x7f)
            putc(' ', f);
        else if (as_code)
            fprintf(f, "%s%c", c == '|' ? "\\" : "", c == '`' ? '\'' : c);
        else if (c == '<' || c == '>' || c == '&')
            fputs(c == '<' ? "&lt;" : c == '>' ? "&gt;" : "&amp;", f);
        else
            fprintf(f, "%s%c", strchr("\\`*_[]|#!~", c) ? "\\" : "", c);
    }
    if (as_code)
        putc('`', f);
}

static void cell(FILE *f, const char *s) { md_text(f, s, 0); }
static void code(FILE *f, const char *s) { md_text(f, s, 1); }

static void input_begin(tc_report_writer *base, const char *path)
{
    md_writer *w = (md_writer *)base;
    (void)path;
    w->has_first = 0;
    if (!w->rows && !w->oom && !(w->rows = open_memstream(&w->rows_buf, &w->rows_len)))
        w->oom = 1;
}

static void diag(tc_report_writer *base, const tc_diag *d)
{
    md_writer *w = (md_writer *)base;
    if (w->has_first)
        return;
    tc_report_location(d, w->first_loc, sizeof w->first_loc);
    snprintf(w->first_rule, sizeof w->first_rule, "%s", d->rule->id);
    w->first_severity = d->severity;
    w->has_first = 1;
}

static void input_end(tc_report_writer *base, const char *path, int status, const tc_summary *s,
                      const char *error)
{
    md_writer *w = (md_writer *)base;
    if (status == TC_INPUT_VALID && !w->has_first)
        return;
    if (w->listed == MD_INPUT_ROWS || !w->rows) {
        w->unlisted++;
        return;
    }
    FILE *f = w->rows;
    w->listed++;
    fputs("| ", f);
    code(f, path);
    fprintf(f, status == TC_INPUT_VALID ? " | %s | " : " | **%s** | ", tc_report_status_name(status));
    if (status == TC_INPUT_UNREADABLE) {
        fputs("| | | | ", f);
        cell(f, error);
    } else {
        fprintf(f, "%s | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " | ",
                s->format == TC_FORMAT_AUTO ? "unknown" : tc_format_name(s->format), s->errors,
                s->warnings, s->notes);
        if (w->has_first) {
            /* Rule ids are [A-Z0-9-]: no escaping. */
            fprintf(f, "%s %s at ", tc_severity_name(w->first_severity), w->first_rule);
            code(f, w->first_loc);
        }
    }
    fputs(" |\n", f);
}

static void rule_table(FILE *f, const tc_report_writer *base, const tc_rule_tally *tally)
{
    size_t n = 0;
    const tc_rule_stat **v = tally ? tc_rule_tally_sorted(tally, &n) : NULL;
    if (!n) {
        free(v);
        return;
    }
    fputs("\n| severity | rule | inputs | findings | first at |\n"
          "|---|---|---:|---:|---|\n", f);
    for (size_t i = 0; i < n; i++) {
        const tc_rule_stat *s = v[i];
        char uri[TC_REPORT_URI_MAX];
        tc_report_rule_uri(&base->opts, s->rule, uri, sizeof uri);
        /* Rule ids are [A-Z0-9-]: no escaping. */
        fprintf(f, "| %s | [%s](%s) | %" PRIu64 " | %" PRIu64 " | ",
                tc_severity_name(s->rule->severity), s->rule->id, uri, s->files, s->findings);
        for (size_t j = 0; j < s->nloc; j++) {
            fputs(j ? ", " : "", f);
            code(f, s->loc[j]);
        }
        if (s->findings > s->nloc)
            fputs(", ...", f);
        fputs(" |\n", f);
    }
    free(v);
}

static void close_writer(tc_report_writer *base, const tc_report_totals *t)
{
    md_writer *w = (md_writer *)base;
    FILE *f = base->out;
    if (w->rows)
        fclose(w->rows);
    fprintf(f, "## tracecheck: %s\n\n", t->exit_status == 0 ? "passed" : "failed");
    tc_report_count(f, t->inputs, "input");
    fprintf(f, ": %" PRIu64 " valid, %" PRIu64 " invalid, %" PRIu64 " unreadable; ", t->valid,
            t->invalid, t->unreadable);
    tc_report_findings(f, t->errors, t->warnings, t->notes);
    fprintf(f, " in %.1f MB. Exit status %d.\n", (double)t->bytes / 1e6, t->exit_status);
    rule_table(f, base, t->rules);
    if (w->listed) {
        fputs("\n### Inputs with findings\n\n"
              "| input | status | format | errors | warnings | notes | first finding |\n"
              "|---|---|---|---:|---:|---:|---|\n", f);
        fwrite(w->rows_buf, 1, w->rows_len, f);
    }
    if (w->unlisted)
        fprintf(f, "\n... and %" PRIu64 " more input%s with findings (the other reports list "
                   "them all).\n", w->unlisted, w->unlisted == 1 ? "" : "s");
    if (w->oom)
        fputs("\n(out of memory: the input table was left out)\n", f);
    free(w->rows_buf);
    free(w);
}

tc_report_writer *tc_report_markdown_new(void)
{
    return tc_report_writer_new(sizeof(md_writer), input_begin, diag, input_end, close_writer);
}
