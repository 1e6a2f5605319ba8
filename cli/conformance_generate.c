/* tracecheck conformance --generate: which formats, the run, the reports
 * (conformance/runner/generate.h does the work). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../parsers/common/mkdirs.h"
#include "../conformance/runner/generate.h"
#include "../generators/common/generator.h"
#include "../parsers/common/formats.h"
#include "cli.h"
#include "conformance_generate.h"

static int drawable(tc_format f)
{
    const tc_generator *g = tc_generator_of(f);
    return g && g->axes && g->case_paths;
}

/* --format, else the formats the implementation reads, else all. */
static size_t formats_of(const tc_conf_impl *impl, tc_format asked, tc_format *out)
{
    size_t n = 0;
    if (asked != TC_FORMAT_AUTO) {
        if (drawable(asked))
            out[n++] = asked;
        return n;
    }
    for (size_t i = 0; tc_format_at(i); i++) {
        tc_format f = tc_format_at(i)->format;
        int reads = impl->only_format == TC_FORMAT_AUTO || f == impl->only_format ||
                    (impl->also_format != TC_FORMAT_AUTO && f == impl->also_format);
        if (reads && drawable(f))
            out[n++] = f;
    }
    return n;
}

static int write_report(const char *dir, const char *name, const char *ext,
                        void (*write)(FILE *, const tc_gen_conf_run *), const tc_gen_conf_run *run)
{
    char *path = tc_conf_printf("%s/conformance-generated-%s.%s", dir, name, ext);
    FILE *f = fopen(path, "w");
    int rc = 0;
    if (!f) {
        fprintf(stderr, "tracecheck conformance: cannot write %s\n", path);
        rc = -1;
    } else {
        write(f, run);
        if (fclose(f) != 0)
            rc = -1;
    }
    free(path);
    return rc;
}

/* --report html: the cases found, run again by tracecheck and the
 * implementation, as the matrix, with the section of the classes; a page
 * of the section alone when nothing was found. */
static int write_html(FILE *f, const tc_conf_impl *impl, const tc_gen_conf_run *gen,
                      unsigned jobs, double timeout)
{
    if (!gen->nclasses) {
        fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>"
              "tracecheck conformance --generate</title></head><body>\n", f);
        tc_gen_conf_report_html(f, gen);
        fputs("</body></html>\n", f);
        return fflush(f) == 0 && !ferror(f) ? 0 : -1;
    }
    char *dir = tc_conf_printf("%s/cases", gen->opt->out);
    tc_conf_suite suite;
    int rc = tc_conf_suite_load(&suite, dir) != 0 ? -1 : 0;
    free(dir);
    static const tc_conf_impl ours = {.name = "tracecheck", .kind = TC_IMPL_TRACECHECK};
    const tc_conf_impl *impls[2] = {&ours, impl};
    tc_conf_options opt[2];
    tc_conf_run runs[2];
    size_t n = 0;
    for (size_t i = 0; i < 2 && rc == 0; i++, n++) {
        opt[i] = (tc_conf_options){.impl = impls[i], .timeout = timeout, .jobs = jobs};
        if (tc_conf_run_suite(&runs[i], &suite, &opt[i]) != 0)
            rc = -1;
    }
    if (rc == 0)
        tc_conf_report_html_generated(f, runs, n, gen);
    for (size_t i = 0; i < n; i++)
        tc_conf_run_free(&runs[i]);
    tc_conf_suite_free(&suite);
    return rc == 0 && fflush(f) == 0 && !ferror(f) ? 0 : -1;
}

static int html_file(const cli_generate_args *a, const tc_conf_impl *impl, const char *name,
                     const tc_gen_conf_run *run)
{
    char *path = tc_conf_printf("%s/conformance-generated-%s.html", a->report_dir, name);
    FILE *f = fopen(path, "w");
    int rc = f ? write_html(f, impl, run, a->jobs, a->timeout) : -1;
    if (f && fclose(f) != 0)
        rc = -1;
    if (rc)
        fprintf(stderr, "tracecheck conformance: cannot write %s\n", path);
    free(path);
    return rc;
}

int cli_conformance_generate(const tc_conf_impl *impl, const char *name,
                             const cli_generate_args *a)
{
    if (impl->unavailable) {
        fprintf(stderr, "tracecheck conformance: %s: %s\n", name, impl->unavailable);
        return EXIT_TROUBLE;
    }
    /* The suite: the case the tool must accept (preflight), and the cases
     * the expected-failure list names (their rules mark the classes). */
    tc_conf_suite suite = {0};
    int have_suite = a->cases && tc_conf_suite_load(&suite, a->cases) == 0;
    if (a->cases && !have_suite)
        fprintf(stderr, "tracecheck conformance: note: the suite in %s has problems (above): "
                        "no preflight, and classes are matched to the list by message only\n",
                a->cases);
    /* A tool that cannot read the case it must accept would make every
     * generated trace a divergence of one cause: said once, nothing run. */
    char *broken = have_suite && impl->preflight && !a->no_preflight
                       ? tc_conf_preflight(&suite, impl,
                                           a->preflight_xfail ? a->preflight_xfail : a->xfail,
                                           a->timeout)
                       : NULL;
    if (broken) {
        fprintf(stderr, "conformance: %s cannot run: %s; no generated trace is run\n", name,
                broken);
        free(broken);
        tc_conf_suite_free(&suite);
        return EXIT_TROUBLE;
    }
    tc_gen_conf_options opt = {
        .impl = impl, .impl_name = name, .seconds = a->seconds, .count = a->count,
        .seed = a->seed, .jobs = a->jobs, .timeout = a->timeout, .out = a->out,
        .progress = !a->quiet && isatty(2), .log = a->quiet ? NULL : stderr,
    };
    opt.nformats = formats_of(impl, a->format, opt.formats);
    if (!opt.nformats) {
        tc_conf_suite_free(&suite);
        char names[256];
        tc_format_names(names, sizeof names, ", ");
        return cli_usage_error("conformance", "--generate: no format to draw for %s (--format "
                                              "with a generator: %s)", name, names);
    }
    if (!a->seconds && !a->count && !a->quiet)
        fputs("tracecheck conformance: --seconds 0 and no --count: running until "
              "interrupted (Ctrl-C keeps what was found)\n", stderr);
    tc_gen_conf_run run;
    if (tc_gen_conf_run_all(&run, &opt) != 0) {
        tc_gen_conf_run_free(&run);
        tc_conf_suite_free(&suite);
        return EXIT_TROUBLE;
    }
    /* Known departures found again are marked so; a NEW one comes first. */
    tc_gen_conf_mark_known(&run, a->xfail, have_suite ? &suite : NULL);
    int status = (a->fail_on_new ? run.nnew : run.nclasses) ? EXIT_INVALID : EXIT_VALID;
    if (a->report_dir) {
        int none = 1;
        for (int k = 0; k < TC_CONF_REPORT__COUNT; k++)
            none &= !a->want[k];
        tc_mkdirs(a->report_dir); /* a failure shows as the report's */
        if (((none || a->want[TC_CONF_REPORT_TEXT]) &&
             write_report(a->report_dir, name, "txt", tc_gen_conf_report_text, &run) != 0) ||
            ((none || a->want[TC_CONF_REPORT_JSON]) &&
             write_report(a->report_dir, name, "json", tc_gen_conf_report_json, &run) != 0) ||
            (a->want[TC_CONF_REPORT_HTML] && html_file(a, impl, name, &run) != 0))
            status = EXIT_TROUBLE;
        tc_gen_conf_report_text(stdout, &run);
    } else if (a->want[TC_CONF_REPORT_JSON]) {
        tc_gen_conf_report_json(stdout, &run);
    } else if (a->want[TC_CONF_REPORT_HTML]) {
        if (write_html(stdout, impl, &run, a->jobs, a->timeout) != 0)
            status = EXIT_TROUBLE;
    } else {
        tc_gen_conf_report_text(stdout, &run);
    }
    tc_gen_conf_run_free(&run);
    tc_conf_suite_free(&suite);
    return status;
}
