/* Report kinds by name, writer construction, and the report set that feeds
 * several writers and the per-rule summary from one stream of findings. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parsers/common/formats.h"
#include "report.h"
#include "report_writers.h"

static const char *const kind_names[TC_REPORT__COUNT] = {"text", "json",     "junit", "sarif",
                                                          "tap",  "markdown", "html"};
static const char *const kind_exts[TC_REPORT__COUNT] = {"txt", "json", "xml", "sarif",
                                                         "tap", "md",   "html"};

/* Where the documentation is: the source tree by default (set by
 * reports/reports.mk), a published copy with --docs-uri. */
#ifndef TC_DOCS_URI
#define TC_DOCS_URI "file:///usr/local/share/doc/tracecheck/"
#endif

const char *tc_report_docs_base(const tc_report_opts *opts)
{
    return opts && opts->docs_uri ? opts->docs_uri : TC_DOCS_URI;
}

void tc_report_rule_uri(const tc_report_opts *opts, const tc_rule_info *r, char *buf,
                        size_t size)
{
    const char *base = tc_report_docs_base(opts);
    size_t n = strlen(base);
    snprintf(buf, size, "%s%sdocs/rules/%s.md#%s", base, n && base[n - 1] != '/' ? "/" : "",
             tc_rule_page(r), r->id);
}

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

const char *tc_report_kind_extension(tc_report_kind k)
{
    return (unsigned)k < TC_REPORT__COUNT ? kind_exts[k] : "out";
}

const char *tc_severity_name(tc_severity s)
{
    switch (s) {
    case TC_ERROR: return "error";
    case TC_WARNING: return "warning";
    default: return "note";
    }
}

void tc_report_count(FILE *f, uint64_t n, const char *noun)
{
    fprintf(f, "%" PRIu64 " %s%s", n, noun, n == 1 ? "" : "s");
}

void tc_report_findings(FILE *f, uint64_t errors, uint64_t warnings, uint64_t notes)
{
    tc_report_count(f, errors, "error");
    fputs(", ", f);
    tc_report_count(f, warnings, "warning");
    fputs(", ", f);
    tc_report_count(f, notes, "note");
}

const char *tc_report_status_name(int status)
{
    switch (status) {
    case TC_INPUT_VALID: return "valid";
    case TC_INPUT_INVALID: return "invalid";
    default: return "unreadable";
    }
}

tc_report_writer *tc_report_writer_new(
    size_t size, void (*input_begin)(tc_report_writer *, const char *),
    void (*diag)(tc_report_writer *, const tc_diag *),
    void (*input_end)(tc_report_writer *, const char *, int, const tc_summary *, const char *),
    void (*close)(tc_report_writer *, const tc_report_totals *))
{
    tc_report_writer *w = calloc(1, size);
    if (w) {
        w->input_begin = input_begin;
        w->diag = diag;
        w->input_end = input_end;
        w->close = close;
    }
    return w;
}

tc_report_writer *tc_report_open(tc_report_kind kind, FILE *out, const tc_report_opts *opts)
{
    tc_report_writer *w = NULL;
    switch (kind) {
    case TC_REPORT_TEXT: w = tc_report_text_new(); break;
    case TC_REPORT_JSON: w = tc_report_json_new(); break;
    case TC_REPORT_JUNIT: w = tc_report_junit_new(); break;
    case TC_REPORT_SARIF: w = tc_report_sarif_new(); break;
    case TC_REPORT_TAP: w = tc_report_tap_new(); break;
    case TC_REPORT_MARKDOWN: w = tc_report_markdown_new(); break;
    case TC_REPORT_HTML: w = tc_report_html_new(); break;
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

/* ---- the set ---- */

int tc_report_set_init(tc_report_set *s)
{
    memset(s, 0, sizeof *s);
    return tc_rule_tally_init(&s->tally);
}

int tc_report_set_add(tc_report_set *s, tc_report_kind kind, FILE *out,
                      const tc_report_opts *opts)
{
    if (s->n == sizeof s->w / sizeof s->w[0])
        return -1;
    tc_report_writer *w = tc_report_open(kind, out, opts);
    if (!w)
        return -1;
    s->w[s->n++] = w;
    return 0;
}

void tc_report_set_begin(tc_report_set *s, const char *path)
{
    tc_rule_tally_next_input(&s->tally);
    uint64_t ordinal = s->ordinal ? s->ordinal : s->tally.input;
    s->ordinal = 0;
    for (size_t i = 0; i < s->n; i++) {
        s->w[i]->ordinal = ordinal;
        s->w[i]->input_begin(s->w[i], path);
    }
}

void tc_report_set_diag(void *set, const tc_diag *d)
{
    tc_report_set *s = set;
    tc_rule_tally_diag(&s->tally, d);
    for (size_t i = 0; i < s->n; i++)
        s->w[i]->diag(s->w[i], d);
}

void tc_report_set_end(tc_report_set *s, const char *path, int status, const tc_summary *sum,
                       const char *error)
{
    for (size_t i = 0; i < s->n; i++)
        s->w[i]->input_end(s->w[i], path, status, sum, error);
}

void tc_report_set_replay(tc_report_set *s, const char *path, const tc_report_input *r,
                          int status, const tc_summary *sum, const char *error)
{
    tc_report_set_begin(s, path);
    for (size_t i = 0; i < r->count; i++)
        tc_report_set_diag(s, &r->diags[i]);
    tc_report_set_end(s, path, status, sum, error);
}

void tc_report_set_close(tc_report_set *s, tc_report_totals *t)
{
    t->rules = s->tally.stats ? &s->tally : NULL;
    for (size_t i = 0; i < s->n; i++)
        s->w[i]->close(s->w[i], t);
    s->n = 0;
    t->rules = NULL;
    tc_rule_tally_free(&s->tally);
}
