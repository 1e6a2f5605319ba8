/*
 * JUnit XML for CI test views (GitLab, Jenkins): one <testcase> per input,
 * classname the input's format ("tracecheck.validate" when it has none)
 * and name its path, unique per report. An input with errors has a
 * <failure> listing every error with its rule id and location; warnings
 * and notes go to <system-out>; an input that could not be read is an
 * <error>. The suite's counts come before its test cases, so these are
 * kept until the end; the per-rule summary is in the suite's properties.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_writers.h"

typedef struct junit_writer {
    tc_report_writer base;
    FILE *cases; /* the <testcase> elements so far */
    char *cases_buf;
    size_t cases_len;
    FILE *errs, *outs; /* the current input's errors and other findings */
    char *errs_buf, *outs_buf;
    size_t errs_len, outs_len;
    FILE *summary; /* the current input's error list for the message attribute */
    char *summary_buf;
    size_t summary_len;
    uint64_t nerrors;
    uint64_t tests, failures, errors;
    tc_report_names names; /* classname + name pairs given so far */
    int oom;
} junit_writer;

static void close_stream(FILE **f)
{
    if (*f)
        fclose(*f);
    *f = NULL;
}

static void input_begin(tc_report_writer *base, const char *path)
{
    junit_writer *w = (junit_writer *)base;
    (void)path;
    w->errs = open_memstream(&w->errs_buf, &w->errs_len);
    w->outs = open_memstream(&w->outs_buf, &w->outs_len);
    w->summary = open_memstream(&w->summary_buf, &w->summary_len);
    w->nerrors = 0;
    if (!w->errs || !w->outs || !w->summary)
        w->oom = 1;
}

static void diag(tc_report_writer *base, const tc_diag *d)
{
    junit_writer *w = (junit_writer *)base;
    FILE *f = d->severity == TC_ERROR ? w->errs : w->outs;
    if (!f)
        return;
    char loc[4200];
    tc_report_location(d, loc, sizeof loc);
    if (d->severity == TC_ERROR && w->summary) {
        fputs(w->nerrors++ ? "; " : "", w->summary);
        tc_report_xml_text(w->summary, d->rule->id);
        fputs(" at ", w->summary);
        tc_report_xml_text(w->summary, loc);
    }
    tc_report_xml_text(f, loc);
    fprintf(f, ": %s: ", tc_severity_name(d->severity));
    tc_report_xml_text(f, d->rule->id);
    fputs(": ", f);
    tc_report_xml_text(f, d->message);
    if (d->context) {
        fputs(" (", f);
        tc_report_xml_text(f, d->context);
        fputc(')', f);
    }
    fputc('\n', f);
}

/* The test name: the path, or "path (2)" and so on when the same input was
 * given twice, so that classname + name stays unique. */
static void test_name(junit_writer *w, const char *classname, const char *path, char *name,
                      size_t size)
{
    int added = 0;
    for (unsigned k = 1; !added; k++) {
        if (k == 1)
            snprintf(name, size, "%s", path);
        else
            snprintf(name, size, "%s (%u)", path, k);
        size_t n = strlen(classname) + strlen(name) + 2;
        char *key = malloc(n);
        if (!key)
            return;
        snprintf(key, n, "%s\n%s", classname, name);
        long i = tc_report_names_add(&w->names, key, &added);
        free(key);
        if (i < 0)
            return;
    }
}

static void input_end(tc_report_writer *base, const char *path, int status, const tc_summary *s,
                      const char *error)
{
    junit_writer *w = (junit_writer *)base;
    close_stream(&w->errs);
    close_stream(&w->outs);
    close_stream(&w->summary);
    FILE *f = w->cases;
    const char *classname = status != TC_INPUT_UNREADABLE && s->format != TC_FORMAT_AUTO
                                ? tc_format_name(s->format)
                                : "tracecheck.validate";
    char name[4300];
    test_name(w, classname, path, name, sizeof name);
    w->tests++;
    if (f) {
        fputs("    <testcase classname=\"", f);
        tc_report_xml_text(f, classname);
        fputs("\" name=\"", f);
        tc_report_xml_text(f, name);
        fputs("\">\n", f);
        if (status == TC_INPUT_UNREADABLE) {
            w->errors++;
            fputs("      <error type=\"unreadable\" message=\"", f);
            tc_report_xml_text(f, error);
            fputs("\"/>\n", f);
        } else if (status == TC_INPUT_INVALID) {
            w->failures++;
            fprintf(f, "      <failure type=\"invalid\" message=\"%" PRIu64 " error%s: ",
                    s->errors, s->errors == 1 ? "" : "s");
            if (w->summary_buf)
                fputs(w->summary_buf, f);
            fputs("\">", f);
            if (w->errs_buf)
                fputs(w->errs_buf, f);
            fputs("</failure>\n", f);
        }
        if (w->outs_buf && *w->outs_buf)
            fprintf(f, "      <system-out>%s</system-out>\n", w->outs_buf);
        fputs("    </testcase>\n", f);
    }
    free(w->errs_buf);
    free(w->outs_buf);
    free(w->summary_buf);
    w->errs_buf = w->outs_buf = w->summary_buf = NULL;
}

static void rule_properties(FILE *f, const tc_rule_tally *tally)
{
    size_t n;
    const tc_rule_stat **v = tc_rule_tally_sorted(tally, &n);
    for (size_t i = 0; i < n; i++) {
        const tc_rule_stat *s = v[i];
        fputs("      <property name=\"rule ", f);
        tc_report_xml_text(f, s->rule->id);
        fprintf(f, "\" value=\"%s: %" PRIu64 " input%s, %" PRIu64 " finding%s",
                tc_severity_name(s->rule->severity), s->files, s->files == 1 ? "" : "s",
                s->findings, s->findings == 1 ? "" : "s");
        for (size_t j = 0; j < s->nloc; j++) {
            fputs(j ? ", " : "; first at ", f);
            tc_report_xml_text(f, s->loc[j]);
        }
        fputs("\"/>\n", f);
    }
    free(v);
}

static void close_writer(tc_report_writer *base, const tc_report_totals *t)
{
    junit_writer *w = (junit_writer *)base;
    FILE *f = base->out;
    close_stream(&w->cases);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<testsuites name=\"tracecheck validate\" tests=\"%" PRIu64 "\" failures=\"%" PRIu64
               "\" errors=\"%" PRIu64 "\" skipped=\"0\">\n"
               "  <testsuite name=\"tracecheck.validate\" tests=\"%" PRIu64 "\" failures=\"%" PRIu64
               "\" errors=\"%" PRIu64 "\" skipped=\"0\">\n    <properties>\n"
               "      <property name=\"tool_version\" value=\"%s\"/>\n",
            w->tests, w->failures, w->errors, w->tests, w->failures, w->errors,
            TC_VERSION_STRING);
    if (base->opts.command) {
        fputs("      <property name=\"command\" value=\"", f);
        tc_report_xml_text(f, base->opts.command);
        fputs("\"/>\n", f);
    }
    fprintf(f, "      <property name=\"summary\" value=\"%" PRIu64 " valid, %" PRIu64
               " invalid, %" PRIu64 " unreadable; %" PRIu64 " errors, %" PRIu64 " warnings, %" PRIu64
               " notes\"/>\n",
            t->valid, t->invalid, t->unreadable, t->errors, t->warnings, t->notes);
    if (t->rules)
        rule_properties(f, t->rules);
    fputs("    </properties>\n", f);
    if (w->cases_buf)
        fputs(w->cases_buf, f);
    if (w->oom)
        fputs("    <!-- out of memory: some findings are missing -->\n", f);
    fputs("  </testsuite>\n</testsuites>\n", f);
    free(w->cases_buf);
    tc_report_names_free(&w->names);
    free(w);
}

tc_report_writer *tc_report_junit_new(void)
{
    junit_writer *w = (junit_writer *)tc_report_writer_new(sizeof(junit_writer), input_begin, diag,
                                                           input_end, close_writer);
    if (w && !(w->cases = open_memstream(&w->cases_buf, &w->cases_len))) {
        free(w);
        return NULL;
    }
    return w ? &w->base : NULL;
}
