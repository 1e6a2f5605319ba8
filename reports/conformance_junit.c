/*
 * JUnit XML for GitLab and Jenkins: one <testsuite> per case group, one
 * <testcase> per case with classname "conformance.<impl>.<group>" and the case
 * name, so every classname+name pair is unique. fail and xpass are
 * <failure>s, crash and timeout <error>s, skip and xfail <skipped>. The
 * suite version is a property of each <testsuite>; a run that selected no
 * case has one empty <testsuite> ("none") so that it still names it.
 */
#include <string.h>

#include "conformance_report.h"
#include "report_writers.h"

static void testcase(FILE *f, const tc_conf_run *run, const tc_conf_result *r)
{
    fputs("    <testcase classname=\"conformance.", f);
    tc_report_xml_text(f, run->opt->impl->name);
    fputc('.', f);
    tc_report_xml_text(f, r->c->group);
    fputs("\" name=\"", f);
    tc_report_xml_text(f, r->c->name);
    fprintf(f, "\" time=\"%.4f\"", r->seconds);
    const char *element = NULL, *message = r->reason;
    switch (r->kind) {
    case TC_CONF_FAIL:
    case TC_CONF_XPASS: element = "failure"; break;
    case TC_CONF_CRASH:
    case TC_CONF_TIMEOUT: element = "error"; break;
    case TC_CONF_SKIP:
    case TC_CONF_OUT_OF_SCOPE:
    case TC_CONF_NOT_INSTALLED:
    case TC_CONF_BROKEN: element = "skipped"; break;
    case TC_CONF_XFAIL:
        element = "skipped";
        message = r->xfail_reason;
        break;
    default: break;
    }
    if (!element) {
        fputs("/>\n", f);
        return;
    }
    fprintf(f, ">\n      <%s type=\"%s\" message=\"", element, tc_conf_result_name(r->kind));
    if (r->kind == TC_CONF_XFAIL)
        fputs("expected failure: ", f);
    tc_report_xml_text(f, message);
    fputs("\"", f);
    if (tc_conf_result_not_run(r->kind) || r->kind == TC_CONF_XFAIL) {
        fputs("/>\n", f);
    } else {
        fputs(">", f);
        fputs("expected ", f);
        fputs(tc_conf_verdict_name(r->c->verdict), f);
        fputs(", got ", f);
        fputs(tc_conf_verdict_name(r->verdict), f);
        if (r->stderr_tail && *r->stderr_tail) {
            fputs("&#10;stderr:&#10;", f);
            tc_report_xml_text(f, r->stderr_tail);
        }
        fprintf(f, "</%s>\n", element);
    }
    fputs("    </testcase>\n", f);
}

static void suite_head(FILE *f, const tc_conf_run *run, const char *group, size_t tests,
                       size_t fail, size_t err, size_t skip, double secs)
{
    fputs("  <testsuite name=\"conformance.", f);
    tc_report_xml_text(f, run->opt->impl->name);
    fputc('.', f);
    tc_report_xml_text(f, group);
    fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" "
               "time=\"%.3f\">\n    <properties>\n"
               "      <property name=\"suite_version\" value=\"",
            tests, fail, err, skip, secs);
    tc_report_xml_text(f, run->suite->version);
    fprintf(f, "\"/>\n      <property name=\"tool_version\" value=\"%s\"/>\n"
               "      <property name=\"implementation\" value=\"",
            TC_VERSION_STRING);
    tc_report_xml_text(f, tc_conf_report_impl_how(run->opt->impl));
    fputs("\"/>\n    </properties>\n", f);
}

void tc_conf_report_junit(FILE *f, const tc_conf_run *run)
{
    const tc_conf_totals *t = &run->totals;
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"tracecheck conformance ",
          f);
    tc_report_xml_text(f, run->opt->impl->name);
    fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%.3f\">\n",
            t->cases, t->count[TC_CONF_FAIL] + t->count[TC_CONF_XPASS],
            t->count[TC_CONF_CRASH] + t->count[TC_CONF_TIMEOUT],
            t->count[TC_CONF_SKIP] + t->count[TC_CONF_OUT_OF_SCOPE] +
                t->count[TC_CONF_NOT_INSTALLED] + t->count[TC_CONF_XFAIL], t->seconds);
    /* Results are in case order, so each group is one run of results. */
    for (size_t i = 0; i < run->count;) {
        const char *group = run->results[i].c->group;
        size_t end = i, fail = 0, err = 0, skip = 0;
        double secs = 0;
        for (; end < run->count && !strcmp(run->results[end].c->group, group); end++) {
            tc_conf_result_kind k = run->results[end].kind;
            fail += k == TC_CONF_FAIL || k == TC_CONF_XPASS;
            err += k == TC_CONF_CRASH || k == TC_CONF_TIMEOUT;
            skip += tc_conf_result_not_run(k) || k == TC_CONF_XFAIL;
            secs += run->results[end].seconds;
        }
        suite_head(f, run, group, end - i, fail, err, skip, secs);
        for (; i < end; i++)
            testcase(f, run, &run->results[i]);
        fputs("  </testsuite>\n", f);
    }
    /* No case selected: an empty suite still says which suite version. */
    if (!run->count) {
        suite_head(f, run, "none", 0, 0, 0, 0, 0);
        fputs("  </testsuite>\n", f);
    }
    fputs("</testsuites>\n", f);
}
