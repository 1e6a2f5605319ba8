/*
 * The run: select cases with --run/--skip, start up to `jobs` children at a
 * time, judge each as it finishes, apply the expected-failure list, and keep
 * the results in case order for the reports.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"
#include "impl.h"

#define MAX_JOBS 32

int tc_conf_case_matches(const tc_conf_case *c, const char *const *globs, size_t n,
                         const char **which)
{
    for (size_t i = 0; i < n; i++)
        if (fnmatch(globs[i], c->id, 0) == 0 || fnmatch(globs[i], c->name, 0) == 0) {
            if (which)
                *which = globs[i];
            return 1;
        }
    return 0;
}

static void log_result(const tc_conf_options *opt, const tc_conf_result *r)
{
    if (!opt->log)
        return;
    int loud = r->kind == TC_CONF_FAIL || r->kind == TC_CONF_CRASH ||
               r->kind == TC_CONF_TIMEOUT || r->kind == TC_CONF_XPASS;
    if (!loud && !opt->verbose)
        return;
    char tag[16];
    size_t i = 0;
    for (const char *p = tc_conf_result_name(r->kind); *p && i < sizeof tag - 1; p++)
        tag[i++] = (char)(*p - ('a' - 'A'));
    tag[i] = '\0';
    if (opt->log_name)
        fprintf(opt->log, "%s: ", opt->impl->name);
    fprintf(opt->log, "%-7s %s", tag, r->c->id);
    if (r->reason)
        fprintf(opt->log, ": %s", r->reason);
    else if (r->kind == TC_CONF_PASS && r->c->cls == TC_CONF_I)
        fprintf(opt->log, " (%s)", tc_conf_verdict_name(r->verdict));
    fputc('\n', opt->log);
    if ((r->kind == TC_CONF_CRASH || r->kind == TC_CONF_TIMEOUT) && r->stderr_tail &&
        *r->stderr_tail)
        fprintf(opt->log, "        stderr: %.600s\n", r->stderr_tail);
}

/* --write-dumps: what tracecheck printed becomes the expected dump (to be
 * reviewed before it is committed). A case in the expected-failure list keeps
 * its dump: that one says what the parser should print and does not yet. */
static void write_dump(const tc_conf_options *opt, const tc_conf_case *c,
                       const tc_conf_outcome *o)
{
    if (!o->exited || o->exit_status > 1 || !o->have_protocol)
        return; /* no verdict: nothing worth keeping */
    if (tc_conf_xfail_find(opt->xfail, c->name)) {
        if (opt->log)
            fprintf(opt->log, "kept    %s: listed in %s, so its expected dump is not "
                              "tracecheck's output\n", c->id, opt->xfail->path);
        return;
    }
    int reject = o->exit_status == 1;
    size_t len = o->out_len;
    if (reject && o->prefix_len >= 0 && (size_t)o->prefix_len <= len)
        len = (size_t)o->prefix_len;
    size_t base = strlen(c->expect_path) - strlen(".expect.json");
    char *path = c->dump_path ? tc_conf_strdup(c->dump_path)
                              : tc_conf_printf("%.*s.dump.jsonl", (int)base, c->expect_path);
    size_t old_len;
    char *old = tc_conf_read_file(path, &old_len);
    if (!old || old_len != len || memcmp(old, o->out, len) != 0) {
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(o->out, 1, len, f) != len || fclose(f) != 0)
            fprintf(stderr, "tracecheck conformance: %s: %s\n", path, strerror(errno));
        else if (opt->log)
            fprintf(opt->log, "wrote   %s (%s dump, %zu bytes)\n", path,
                    reject ? "prefix" : "full", len);
    }
    free(old);
    free(path);
}

static void finish(tc_conf_run *run, tc_impl_job *job, tc_conf_result *r)
{
    const tc_conf_options *opt = run->opt;
    tc_conf_outcome o;
    tc_impl_finish(job, opt->impl, &o);
    /* Written first, so that the case is judged against what was written. */
    if (opt->write_dumps && opt->impl->kind == TC_IMPL_TRACECHECK && !job->c->no_dump)
        write_dump(opt, job->c, &o);
    tc_conf_judge(job->c, opt->impl, &o, r);
    tc_conf_outcome_free(&o);
    const tc_conf_xfail_entry *x = tc_conf_xfail_find(opt->xfail, r->c->name);
    /* A crash or a timeout is expected only where the entry says so. */
    tc_conf_result_kind expected = !x                           ? TC_CONF__RESULTS
                                   : x->kind == TC_XFAIL_TIMEOUT ? TC_CONF_TIMEOUT
                                   : x->kind != TC_XFAIL_FAIL    ? TC_CONF_CRASH
                                                                 : TC_CONF_FAIL;
    if (x && r->kind == expected) {
        r->kind = TC_CONF_XFAIL;
        r->xfail_reason = x->reason;
    } else if (x && x->kind == TC_XFAIL_CRASH_OR_PASS && r->kind == TC_CONF_PASS) {
        /* The run where the stray read did not fault. */
    } else if (x && x->kind != TC_XFAIL_FAIL && r->kind != TC_CONF_PASS) {
        char *why = tc_conf_printf("%s (%s:%u expects a %s)", r->reason ? r->reason : "",
                                   opt->xfail->path, x->line,
                                   x->kind == TC_XFAIL_CRASH     ? "crash"
                                   : x->kind == TC_XFAIL_TIMEOUT ? "timeout"
                                                                 : "crash or a pass");
        free(r->reason);
        r->reason = why;
    } else if (x && r->kind == TC_CONF_PASS) {
        r->kind = TC_CONF_XPASS;
        r->xfail_reason = x->reason;
        free(r->reason);
        r->reason = tc_conf_printf("passes, but %s:%u expects a failure (%s): remove the line",
                                   opt->xfail->path, x->line, x->reason);
    }
    log_result(opt, r);
}

char *tc_conf_scope_reason(const tc_conf_impl *impl, const tc_conf_case *c)
{
    if (impl->kind != TC_IMPL_TRACECHECK && c->format == TC_FORMAT_AUTO)
        return tc_conf_printf("checks tracecheck's format detection and input layer, not a "
                              "format: only for --impl tracecheck");
    if (impl->only_format != TC_FORMAT_AUTO && c->format != impl->only_format &&
        (impl->also_format == TC_FORMAT_AUTO || c->format != impl->also_format))
        return tc_conf_strdup(impl->only_reason ? impl->only_reason
                                              : "a format this implementation does not read");
    if (impl->only_suffix) {
        size_t n = strlen(c->input), k = strlen(impl->only_suffix);
        if (n < k || strcmp(c->input + n - k, impl->only_suffix) != 0)
            return tc_conf_strdup(impl->only_suffix_reason);
    }
    if (impl->kind == TC_IMPL_COMMAND && c->input_is_dir &&
        !strstr(impl->command, "{file}"))
        return tc_conf_strdup("the case is a directory (a trace), which cannot go on standard "
                              "input: give the command {file}");
    return NULL;
}

/* Why a selected case is not run, or NULL; *kind says how it is reported. A
 * case out of the implementation's scope is that whether or not the tool is
 * installed: "not installed" is only said of the cases it would have run. */
static char *skip_reason(const tc_conf_options *opt, const tc_conf_case *c,
                         tc_conf_result_kind *kind)
{
    const char *glob;
    *kind = TC_CONF_SKIP;
    if (tc_conf_case_matches(c, opt->skip, opt->nskip, &glob))
        return tc_conf_printf("skipped by --skip '%s'", glob);
    *kind = TC_CONF_OUT_OF_SCOPE;
    char *why = tc_conf_scope_reason(opt->impl, c);
    if (why)
        return why;
    *kind = TC_CONF_NOT_INSTALLED;
    return opt->impl->unavailable ? tc_conf_strdup(opt->impl->unavailable) : NULL;
}

int tc_conf_run_suite(tc_conf_run *run, const tc_conf_suite *s, const tc_conf_options *opt)
{
    memset(run, 0, sizeof *run);
    run->suite = s;
    run->opt = opt;
    double start = tc_proc_now();
    run->started = time(NULL);
    run->results = calloc(s->count ? s->count : 1, sizeof *run->results);
    if (!run->results)
        abort();
    /* The cases to run, in order; the rest are skipped or not selected. */
    size_t *todo = calloc(s->count ? s->count : 1, sizeof *todo), ntodo = 0;
    if (!todo)
        abort();
    for (size_t i = 0; i < s->count; i++) {
        const tc_conf_case *c = &s->cases[i];
        if (opt->nrun && !tc_conf_case_matches(c, opt->run, opt->nrun, NULL))
            continue;
        tc_conf_result *r = &run->results[run->count];
        r->c = c;
        r->exit_status = -1;
        tc_conf_result_kind not_run;
        char *why = skip_reason(opt, c, &not_run);
        if (why) {
            r->kind = not_run;
            r->reason = why;
            log_result(opt, r);
        } else {
            todo[ntodo++] = run->count;
        }
        run->count++;
    }

    /* A known tool that cannot run the case every version of it accepts
     * would fail every case for one reason: its cases are not run, and that
     * reason is said once. */
    size_t nbroken = 0;
    if (ntodo && opt->impl->preflight && !opt->no_preflight &&
        (run->broken = tc_conf_preflight(s, opt->impl,
                                          opt->preflight_xfail ? opt->preflight_xfail : opt->xfail,
                                          opt->timeout)) != NULL) {
        for (size_t i = 0; i < ntodo; i++) {
            tc_conf_result *r = &run->results[todo[i]];
            r->kind = TC_CONF_BROKEN;
            r->reason = tc_conf_printf("%s cannot run: %s", opt->impl->name, run->broken);
            log_result(opt, r);
        }
        nbroken = ntodo;
        ntodo = 0;
    }

    unsigned jobs = opt->jobs < 1 ? 1 : opt->jobs > MAX_JOBS ? MAX_JOBS : opt->jobs;
    tc_impl_job slot[MAX_JOBS];
    size_t slot_result[MAX_JOBS];
    int busy[MAX_JOBS] = {0};
    size_t next = 0, running = 0;
    while (next < ntodo || running) {
        for (unsigned j = 0; j < jobs && next < ntodo; j++) {
            if (busy[j])
                continue;
            tc_conf_result *r = &run->results[todo[next]];
            tc_error err = TC_ERROR_INIT;
            if (tc_impl_start(&slot[j], opt->impl, r->c, opt->timeout, &err) != 0) {
                /* No verdict: counted with the crashes, so the run fails. */
                r->kind = TC_CONF_CRASH;
                tc_error_add(&err, "conformance", "could not be started");
                char why[sizeof "could not be started: " - 1 + 256];
                tc_error_format(&err, why, sizeof why);
                tc_error_free(&err);
                r->reason = tc_conf_printf("%s", why);
                log_result(opt, r);
                next++;
                continue;
            }
            slot_result[j] = todo[next++];
            busy[j] = 1;
            running++;
        }
        tc_proc *live[MAX_JOBS];
        size_t nlive = 0;
        for (unsigned j = 0; j < jobs; j++)
            if (busy[j])
                live[nlive++] = &slot[j].proc;
        tc_proc_poll(live, nlive, 0.5);
        for (unsigned j = 0; j < jobs; j++)
            if (busy[j] && tc_proc_done(&slot[j].proc)) {
                finish(run, &slot[j], &run->results[slot_result[j]]);
                busy[j] = 0;
                running--;
            }
    }
    free(todo);
    if (run->broken)
        fprintf(stderr, "conformance: %s cannot run: %s; its %zu case%s not run\n",
                opt->impl->name, run->broken, nbroken, nbroken == 1 ? " is" : "s are");

    for (size_t i = 0; opt->xfail && i < opt->xfail->n; i++)
        if (!tc_conf_suite_find(s, opt->xfail->e[i].name)) {
            run->totals.stale_xfail++;
            if (opt->log)
                fprintf(opt->log, "STALE   %s:%u: %s names no case of the suite\n",
                        opt->xfail->path, opt->xfail->e[i].line, opt->xfail->e[i].name);
        }
    run->totals.cases = run->count;
    for (size_t i = 0; i < run->count; i++)
        run->totals.count[run->results[i].kind]++;
    run->totals.seconds = tc_proc_now() - start;
    return 0;
}

int tc_conf_run_failed(const tc_conf_run *run)
{
    const size_t *n = run->totals.count;
    return n[TC_CONF_FAIL] || n[TC_CONF_CRASH] || n[TC_CONF_TIMEOUT] || n[TC_CONF_XPASS] ||
           run->totals.stale_xfail || run->broken;
}

void tc_conf_run_free(tc_conf_run *run)
{
    for (size_t i = 0; i < run->count; i++) {
        tc_conf_result *r = &run->results[i];
        free(r->reason);
        free(r->stderr_tail);
        tc_conf_rules_free(&r->errors);
        tc_conf_rules_free(&r->warnings);
        tc_conf_rules_free(&r->notes);
    }
    free(run->results);
    free(run->broken);
    memset(run, 0, sizeof *run);
}
