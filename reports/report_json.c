/* The JSON report (docs/reports.md): one document, inputs in order, each with
 * its findings, then the totals and the per-rule summary. Written as it
 * goes. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report_writers.h"

/* 2: the per-rule summary ("rules") and summary.exit_status.
 * 3: what `tracecheck report merge` needs to write every report again: a
 * finding's "file", "unlocated", "summarises" and "suppressed"; a shard's
 * "shard" and its inputs' "ordinal". */
#define TC_JSON_REPORT_VERSION 3

typedef struct json_writer {
    tc_report_writer base;
    int started;
    int inputs;
    int diags;
    char *path; /* the current input's, which its findings' files are told from */
} json_writer;

static void str(FILE *f, const char *key, const char *value)
{
    fprintf(f, "\"%s\":", key);
    tc_report_json_string(f, value);
}

static void start(json_writer *w)
{
    FILE *f = w->base.out;
    fprintf(f, "{\"tool\":\"tracecheck\",\"tool_version\":\"%s\",\"report_version\":%d,",
            TC_VERSION_STRING, TC_JSON_REPORT_VERSION);
    if (w->base.opts.command) {
        str(f, "command", w->base.opts.command);
        fputc(',', f);
    }
    const tc_report_shard *sh = w->base.opts.shard;
    if (sh)
        fprintf(f, "\"shard\":{\"index\":%u,\"count\":%u,\"inputs\":%" PRIu64
                   ",\"options\":\"%016" PRIx64 "\",\"paths\":\"%016" PRIx64 "\"},",
                sh->index, sh->count, sh->inputs, sh->options, sh->paths);
    fputs("\"inputs\":[", f);
}

/* The preamble needs the options, set after construction: written lazily. */
static void ensure_started(json_writer *w)
{
    if (!w->started) {
        w->started = 1;
        start(w);
    }
}

static void input_begin(tc_report_writer *base, const char *path)
{
    json_writer *w = (json_writer *)base;
    FILE *f = base->out;
    ensure_started(w);
    fputs(w->inputs++ ? ",\n{" : "\n{", f);
    str(f, "path", path);
    if (base->opts.shard)
        fprintf(f, ",\"ordinal\":%" PRIu64, base->ordinal);
    fputs(",\"diagnostics\":[", f);
    w->diags = 0;
    free(w->path);
    w->path = strdup(path);
}

static void diag(tc_report_writer *base, const tc_diag *d)
{
    json_writer *w = (json_writer *)base;
    FILE *f = base->out;
    fputs(w->diags++ ? ",\n {" : "\n {", f);
    str(f, "rule", d->rule->id);
    fputc(',', f);
    str(f, "severity", tc_severity_name(d->severity));
    /* The file it is in, when not the input itself (a stream of an ovni
     * trace directory). */
    if (d->input && (!w->path || strcmp(d->input, w->path))) {
        fputc(',', f);
        str(f, "file", d->input);
    }
    if (d->unlocated)
        fputs(",\"unlocated\":true", f);
    fprintf(f, ",\"offset\":%" PRIu64 ",\"length\":%" PRIu64, d->offset, d->length);
    if (d->line)
        fprintf(f, ",\"line\":%" PRIu32 ",\"column\":%" PRIu32, d->line, d->column);
    if (d->json_path) {
        fputc(',', f);
        str(f, "json_path", d->json_path);
    }
    fputc(',', f);
    str(f, "message", d->message);
    if (d->context) {
        fputc(',', f);
        str(f, "context", d->context);
    }
    if (d->summarises) {
        fputc(',', f);
        str(f, "summarises", d->summarises->id);
        fprintf(f, ",\"suppressed\":%" PRIu64, d->suppressed);
    }
    fputc('}', f);
}

static void input_end(tc_report_writer *base, const char *path, int status, const tc_summary *s,
                      const char *error)
{
    (void)path;
    FILE *f = base->out;
    fputs("],", f);
    str(f, "status", tc_report_status_name(status));
    if (status == TC_INPUT_UNREADABLE) {
        fputc(',', f);
        str(f, "error", error);
    } else {
        fputc(',', f);
        str(f, "format", tc_format_name(s->format));
        fprintf(f, ",\"bytes\":%" PRIu64 ",\"errors\":%" PRIu64 ",\"warnings\":%" PRIu64
                   ",\"notes\":%" PRIu64,
                s->bytes, s->errors, s->warnings, s->notes);
    }
    fputc('}', f);
}

static void rules(FILE *f, const tc_rule_tally *tally)
{
    size_t n = 0;
    const tc_rule_stat **v = tc_rule_tally_sorted(tally, &n);
    fputs(",\"rules\":[", f);
    for (size_t i = 0; i < n; i++) {
        const tc_rule_stat *s = v[i];
        fputs(i ? ",\n{" : "\n{", f);
        str(f, "rule", s->rule->id);
        fputc(',', f);
        str(f, "severity", tc_severity_name(s->rule->severity));
        fprintf(f, ",\"files\":%" PRIu64 ",\"findings\":%" PRIu64 ",\"locations\":[", s->files,
                s->findings);
        for (size_t j = 0; j < s->nloc; j++) {
            if (j)
                fputc(',', f);
            tc_report_json_string(f, s->loc[j]);
        }
        fputs("]}", f);
    }
    fputs(n ? "\n]" : "]", f);
    free(v);
}

static void close_writer(tc_report_writer *base, const tc_report_totals *t)
{
    FILE *f = base->out;
    ensure_started((json_writer *)base);
    fprintf(f, "\n],\"summary\":{\"inputs\":%" PRIu64 ",\"valid\":%" PRIu64 ",\"invalid\":%" PRIu64
               ",\"unreadable\":%" PRIu64 ",\"errors\":%" PRIu64 ",\"warnings\":%" PRIu64
               ",\"notes\":%" PRIu64 ",\"bytes\":%" PRIu64 ",\"exit_status\":%d}",
            t->inputs, t->valid, t->invalid, t->unreadable, t->errors, t->warnings, t->notes,
            t->bytes, t->exit_status);
    rules(f, t->rules);
    fputs("}\n", f);
    free(((json_writer *)base)->path);
    free(base);
}

tc_report_writer *tc_report_json_new(void)
{
    return tc_report_writer_new(sizeof(json_writer), input_begin, diag, input_end, close_writer);
}
