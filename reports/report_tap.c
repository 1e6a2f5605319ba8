/*
 * TAP 14 (testanything.org/tap-version-14-specification): one test point
 * per input, "ok N - path" when it is valid and "not ok N - path" when it
 * has errors or cannot be read, with a YAML diagnostic block listing its
 * findings (every string a JSON string, which YAML 1.2 reads as is). The
 * plan comes last, since the inputs are counted as they come; the per-rule
 * summary and the totals are comments before it.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "report_writers.h"

typedef struct tap_writer {
    tc_report_writer base;
    uint64_t points;
    FILE *yaml; /* the current input's findings */
    char *yaml_buf;
    size_t yaml_len;
    uint64_t findings;
} tap_writer;

/* Text on a test line or comment: one line, '#' and '\' escaped (TAP 14,
 * "Escaping"). */
static void line_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '#' || *s == '\\')
            fputc('\\', f);
        fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
    }
}

static void input_begin(tc_report_writer *base, const char *path)
{
    tap_writer *w = (tap_writer *)base;
    (void)path;
    w->findings = 0;
    w->yaml = open_memstream(&w->yaml_buf, &w->yaml_len);
}

static void diag(tc_report_writer *base, const tc_diag *d)
{
    tap_writer *w = (tap_writer *)base;
    FILE *f = w->yaml;
    if (!f)
        return;
    if (!w->findings++)
        fputs("  findings:\n", f);
    char loc[4200];
    tc_report_location(d, loc, sizeof loc);
    fputs("    - rule: ", f);
    tc_report_json_string(f, d->rule->id);
    fprintf(f, "\n      severity: %s\n      location: ", tc_severity_name(d->severity));
    tc_report_json_string(f, loc);
    fputs("\n      message: ", f);
    tc_report_json_string(f, d->message);
    if (d->context) {
        fputs("\n      context: ", f);
        tc_report_json_string(f, d->context);
    }
    fputc('\n', f);
}

static void input_end(tc_report_writer *base, const char *path, int status, const tc_summary *s,
                      const char *error)
{
    tap_writer *w = (tap_writer *)base;
    FILE *f = base->out;
    if (w->yaml)
        fclose(w->yaml);
    w->yaml = NULL;
    if (!w->points++)
        fputs("TAP version 14\n", f);
    fprintf(f, "%s %" PRIu64 " - ", status == TC_INPUT_VALID ? "ok" : "not ok", w->points);
    line_text(f, path);
    fputc('\n', f);
    if (status == TC_INPUT_VALID && !w->findings) {
        free(w->yaml_buf);
        w->yaml_buf = NULL;
        return;
    }
    fprintf(f, "  ---\n  status: %s\n", tc_report_status_name(status));
    if (status == TC_INPUT_UNREADABLE) {
        fputs("  error: ", f);
        tc_report_json_string(f, error);
        fputc('\n', f);
    } else {
        fprintf(f, "  format: %s\n  errors: %" PRIu64 "\n  warnings: %" PRIu64
                   "\n  notes: %" PRIu64 "\n",
                s->format == TC_FORMAT_AUTO ? "unknown" : tc_format_name(s->format), s->errors,
                s->warnings, s->notes);
    }
    if (w->yaml_buf)
        fputs(w->yaml_buf, f);
    fputs("  ...\n", f);
    free(w->yaml_buf);
    w->yaml_buf = NULL;
}

static void close_writer(tc_report_writer *base, const tc_report_totals *t)
{
    tap_writer *w = (tap_writer *)base;
    FILE *f = base->out;
    if (!w->points)
        fputs("TAP version 14\n", f);
    size_t n = 0;
    const tc_rule_stat **v = t->rules ? tc_rule_tally_sorted(t->rules, &n) : NULL;
    if (n)
        fputs("# rules with findings (most severe, then most frequent first):\n", f);
    for (size_t i = 0; i < n; i++) {
        const tc_rule_stat *s = v[i];
        fprintf(f, "# %s %s: %" PRIu64 " input%s, %" PRIu64 " finding%s",
                tc_severity_name(s->rule->severity), s->rule->id, s->files,
                s->files == 1 ? "" : "s", s->findings, s->findings == 1 ? "" : "s");
        for (size_t j = 0; j < s->nloc; j++) {
            fputs(j ? ", " : "; first at ", f);
            line_text(f, s->loc[j]);
        }
        fputc('\n', f);
    }
    free(v);
    fprintf(f, "# tracecheck: %" PRIu64 " inputs, %" PRIu64 " valid, %" PRIu64 " invalid, %" PRIu64
               " unreadable; %" PRIu64 " errors, %" PRIu64 " warnings, %" PRIu64 " notes\n",
            t->inputs, t->valid, t->invalid, t->unreadable, t->errors, t->warnings, t->notes);
    fprintf(f, "1..%" PRIu64 "\n", w->points);
    free(w);
}

tc_report_writer *tc_report_tap_new(void)
{
    return tc_report_writer_new(sizeof(tap_writer), input_begin, diag, input_end, close_writer);
}
