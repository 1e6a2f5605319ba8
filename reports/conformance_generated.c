/*
 * Reports of `conformance --generate` (generate.h): the summary by class as
 * text, the same as JSON, and the section of the HTML matrix.
 */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../conformance/runner/generate.h"
#include "conformance_report.h"

/* Bumped when the JSON layout changes. */
#define TC_GEN_REPORT_VERSION 1

static const char *how_it_ended(const tc_gen_conf_run *run)
{
    if (run->interrupted)
        return "interrupted";
    if (run->opt->count && run->traces + run->unusable >= run->opt->count)
        return "--count reached";
    return run->opt->seconds > 0 ? "--seconds reached" : "stopped";
}

void tc_gen_conf_report_text(FILE *f, const tc_gen_conf_run *run)
{
    const tc_gen_conf_options *o = run->opt;
    fprintf(f, "conformance --generate: %s against tracecheck, seed %llu, %.1f s (%s)\n",
            o->impl_name, (unsigned long long)o->seed, run->seconds, how_it_ended(run));
    fprintf(f, "traces: %llu (%llu valid, %llu breaking one rule); %llu draw%s the generator "
               "refused\n",
            (unsigned long long)run->traces, (unsigned long long)run->valid,
            (unsigned long long)run->invalid, (unsigned long long)run->unusable,
            run->unusable == 1 ? "" : "s");
    fprintf(f, "divergences: %llu traces in %zu class%s, %zu NEW%s%s%s\n",
            (unsigned long long)run->divergences, run->nclasses, run->nclasses == 1 ? "" : "es",
            run->nnew, run->nclasses ? "; cases in " : "", run->nclasses ? o->out : "",
            run->nclasses ? "/cases, what the implementation printed in output/" : "");
    fprintf(f, "marked against: %s\n",
            run->xfail_path ? run->xfail_path : "no expected-failure list (every class is NEW)");
    for (size_t i = 0; i < run->nclasses; i++) {
        const tc_gen_class *c = &run->classes[i];
        fprintf(f, "\n%zu. %s%s%s %s: tracecheck %ss (%s); %s answers %s\n", i + 1,
                c->known ? "known: [" : "NEW", c->known ? c->known : "", c->known ? "]" : "",
                c->format, tc_conf_verdict_name(c->verdict), c->rules, o->impl_name, c->answer);
        fprintf(f, "   %llu trace%s, the first at iteration %llu\n",
                (unsigned long long)c->hits, c->hits == 1 ? "" : "s",
                (unsigned long long)c->iteration);
        if (c->nexamples_seen > 1 || (c->nexamples && strcmp(c->examples[0], c->answer + 8))) {
            fprintf(f, "   %zu message%s as printed", c->nexamples_seen,
                    c->nexamples_seen == 1 ? "" : "s");
            if (c->nexamples_seen > c->nexamples)
                fprintf(f, " (the first %zu)", c->nexamples);
            fputs(":\n", f);
            for (size_t k = 0; k < c->nexamples; k++)
                fprintf(f, "     %s\n", c->examples[k]);
        }
        if (!c->name) {
            fprintf(f, "   no case: the run stopped before it was written\n");
            continue;
        }
        fprintf(f, "   case %s: %llu bytes, shrunk from %llu\n", c->input,
                (unsigned long long)c->bytes_shrunk, (unsigned long long)c->bytes_generated);
        fprintf(f, "   judged: %s\n", c->reason ? c->reason : c->answer);
        fprintf(f, "   output: %s\n", c->output ? c->output : "");
        fprintf(f, "   drawn as: %s\n", c->generated ? c->generated : "");
    }
}

static void add_string(cJSON *o, const char *k, const char *v)
{
    if (v)
        cJSON_AddStringToObject(o, k, v);
    else
        cJSON_AddNullToObject(o, k);
}

void tc_gen_conf_report_json(FILE *f, const tc_gen_conf_run *run)
{
    const tc_gen_conf_options *o = run->opt;
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "report_version", TC_GEN_REPORT_VERSION);
    cJSON_AddStringToObject(j, "implementation", o->impl_name);
    add_string(j, "version", o->impl->version);
    cJSON_AddNumberToObject(j, "seed", (double)o->seed);
    cJSON_AddNumberToObject(j, "seconds", run->seconds);
    cJSON_AddStringToObject(j, "ended", how_it_ended(run));
    cJSON *fm = cJSON_AddArrayToObject(j, "formats");
    for (size_t i = 0; i < o->nformats; i++)
        cJSON_AddItemToArray(fm, cJSON_CreateString(tc_format_name(o->formats[i])));
    cJSON_AddNumberToObject(j, "traces", (double)run->traces);
    cJSON_AddNumberToObject(j, "valid", (double)run->valid);
    cJSON_AddNumberToObject(j, "invalid", (double)run->invalid);
    cJSON_AddNumberToObject(j, "refused", (double)run->unusable);
    cJSON_AddNumberToObject(j, "divergences", (double)run->divergences);
    cJSON_AddNumberToObject(j, "new_classes", (double)run->nnew);
    add_string(j, "xfail_list", run->xfail_path);
    cJSON_AddStringToObject(j, "out", o->out);
    cJSON *cl = cJSON_AddArrayToObject(j, "classes");
    for (size_t i = 0; i < run->nclasses; i++) {
        const tc_gen_class *c = &run->classes[i];
        cJSON *x = cJSON_CreateObject();
        /* NEW first: "new": true; a known class names the list's topics. */
        cJSON_AddBoolToObject(x, "new", !c->known);
        add_string(x, "known", c->known);
        cJSON_AddStringToObject(x, "format", c->format);
        cJSON_AddStringToObject(x, "tracecheck", tc_conf_verdict_name(c->verdict));
        cJSON *rules = cJSON_AddArrayToObject(x, "rules");
        if (strcmp(c->rules, "none") != 0) {
            char *copy = tc_conf_strdup(c->rules), *save = NULL;
            for (char *r = copy ? strtok_r(copy, ", ", &save) : NULL; r;
                 r = strtok_r(NULL, ", ", &save))
                cJSON_AddItemToArray(rules, cJSON_CreateString(r));
            free(copy);
        }
        cJSON_AddStringToObject(x, "answer", c->answer);
        cJSON *ex = cJSON_AddArrayToObject(x, "examples");
        for (size_t k = 0; k < c->nexamples; k++)
            cJSON_AddItemToArray(ex, cJSON_CreateString(c->examples[k]));
        cJSON_AddNumberToObject(x, "examples_seen", (double)c->nexamples_seen);
        cJSON_AddNumberToObject(x, "traces", (double)c->hits);
        cJSON_AddNumberToObject(x, "first_iteration", (double)c->iteration);
        add_string(x, "case", c->name);
        add_string(x, "input", c->input);
        add_string(x, "output", c->output);
        cJSON_AddNumberToObject(x, "bytes_generated", (double)c->bytes_generated);
        cJSON_AddNumberToObject(x, "bytes_shrunk", (double)c->bytes_shrunk);
        add_string(x, "generated", c->generated);
        add_string(x, "judged", c->reason);
        cJSON_AddItemToArray(cl, x);
    }
    char *text = cJSON_Print(j);
    if (text)
        fprintf(f, "%s\n", text);
    cJSON_free(text);
    cJSON_Delete(j);
}

void tc_gen_conf_report_html(FILE *f, const tc_gen_conf_run *run)
{
    const tc_gen_conf_options *o = run->opt;
    fputs("<section id=\"generated\"><h2>Generated divergences: ", f);
    tc_conf_html_text(f, o->impl_name);
    fprintf(f, "</h2>\n<p>conformance --generate, seed %llu, %.1f s (%s): %llu traces "
               "(%llu valid, %llu breaking one rule), %llu diverging in %zu classes, "
               "<span id=\"new-classes\">%zu</span> NEW.</p>\n",
            (unsigned long long)o->seed, run->seconds, how_it_ended(run),
            (unsigned long long)run->traces, (unsigned long long)run->valid,
            (unsigned long long)run->invalid, (unsigned long long)run->divergences,
            run->nclasses, run->nnew);
    if (!run->nclasses) {
        fputs("</section>\n", f);
        return;
    }
    fputs("<table class=\"generated\"><tr><th>mark</th><th>format</th><th>tracecheck</th><th>rules</th>"
          "<th>answer</th><th>traces</th><th>case</th><th>bytes</th><th>judged</th></tr>\n",
          f);
    for (size_t i = 0; i < run->nclasses; i++) {
        const tc_gen_class *c = &run->classes[i];
        const char *cells[] = {c->format, tc_conf_verdict_name(c->verdict), c->rules, c->answer};
        fputs(c->known ? "<tr class=\"known\"><td>known: [" : "<tr class=\"new\"><td><b>NEW</b>", f);
        if (c->known) {
            tc_conf_html_text(f, c->known);
            fputs("]", f);
        }
        fputs("</td>", f);
        for (size_t k = 0; k < 4; k++) {
            fputs("<td>", f);
            tc_conf_html_text(f, cells[k]);
            /* The answer's messages as printed, under it. */
            for (size_t e = 0; k == 3 && e < c->nexamples; e++) {
                fputs("<br><small>", f);
                tc_conf_html_text(f, c->examples[e]);
                fputs("</small>", f);
            }
            fputs("</td>", f);
        }
        fprintf(f, "<td>%llu</td><td>", (unsigned long long)c->hits);
        tc_conf_html_text(f, c->name ? c->name : "(not written)");
        fprintf(f, "</td><td>%llu (from %llu)</td><td>", (unsigned long long)c->bytes_shrunk,
                (unsigned long long)c->bytes_generated);
        tc_conf_html_text(f, c->reason ? c->reason : "");
        fputs("</td></tr>\n", f);
    }
    fputs("</table></section>\n", f);
}
