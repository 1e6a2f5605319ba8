/*
 * One generated trace through tracecheck and the implementation, both at
 * once in child processes (impl.h): tracecheck's outcome becomes the case's
 * expectation (its verdict, rules, first error and dump, as a case of the
 * suite would hold them), the implementation is judged against it exactly
 * as the suite's runner judges (judge.c), and the result is classed.
 *
 * A class is the format, tracecheck's verdict and error rules (warnings
 * and notes say nothing of why a valid trace is refused), and the
 * implementation's
 * answer: accept; reject, with the line it printed that says what is
 * wrong (its values taken out, gen_answer.h, so that one message is one
 * class; the line as printed is kept as an example); crash, with
 * the signal or exit status; timeout; dump (a verdict that agrees, a dump
 * that does not); output (an adapter's own check of the output failed).
 */
#define _GNU_SOURCE /* sigabbrev_np */
#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen_answer.h"
#include "gen_internal.h"
#include "impl.h"
#include "proc.h"
#include "pair.h"

volatile sig_atomic_t gx_stop;
double gx_deadline;

static const tc_conf_impl tracecheck_impl = {.name = "tracecheck", .kind = TC_IMPL_TRACECHECK};

static int stopping(void)
{
    return gx_stop || (gx_deadline > 0 && tc_proc_now() >= gx_deadline);
}

static char *answer_of(const tc_conf_result *r, const tc_conf_case *c, const tc_conf_outcome *o)
{
    switch (r->kind) {
    case TC_CONF_TIMEOUT: return tc_conf_strdup("timeout");
    case TC_CONF_CRASH:
        if (o->signal) {
            const char *name = sigabbrev_np(o->signal);
            return tc_conf_printf("crash: SIG%s", name ? name : "?");
        }
        if (o->no_verdict)
            return tc_conf_strdup("crash: no verdict");
        return tc_conf_printf("crash: exit %d", o->exit_status);
    default: break;
    }
    if (r->verdict == TC_VERDICT_ACCEPT && c->verdict != TC_VERDICT_ACCEPT)
        return tc_conf_strdup("accept");
    if (r->verdict == TC_VERDICT_REJECT && c->verdict != TC_VERDICT_REJECT) {
        size_t n;
        const char *told = gx_telling_line(o, &n);
        char *line = gx_answer_class(told, n);
        char *a = tc_conf_printf("reject: %s", line);
        free(line);
        return a;
    }
    return tc_conf_strdup(o->mismatch ? "output" : "dump");
}

/* Starts a job; 1, or 0 with the reason said on stderr. */
static int start(tc_impl_job *job, const tc_conf_impl *impl, const tc_conf_case *c,
                 double timeout)
{
    tc_error err = TC_ERROR_INIT;
    int ok = tc_impl_start(job, impl, c, timeout, &err) == 0;
    if (!ok) {
        char why[300];
        tc_error_format(&err, why, sizeof why);
        fprintf(stderr, "tracecheck conformance: %s: %s\n", impl->name, why);
    }
    tc_error_free(&err);
    return ok;
}

/* Kills a started job whose partner could not start, and reaps it. */
static void abandon(tc_impl_job *job, const tc_conf_impl *impl, tc_conf_outcome *o)
{
    tc_proc *pp[1] = {&job->proc};
    job->proc.deadline = 0;
    while (!tc_proc_done(pp[0]))
        tc_proc_poll(pp, 1, 0.01);
    tc_impl_finish(job, impl, o);
}

/* Runs both until done, or kills them at a stop (1: stopped). */
static int wait_both(tc_impl_job *a, tc_impl_job *b)
{
    tc_proc *procs[2] = {&a->proc, &b->proc};
    for (;;) {
        int done = tc_proc_done(procs[0]) && tc_proc_done(procs[1]);
        if (done)
            return 0;
        if (stopping()) {
            procs[0]->deadline = procs[1]->deadline = 0;
            while (!(tc_proc_done(procs[0]) && tc_proc_done(procs[1])))
                tc_proc_poll(procs, 2, 0.01);
            return 1;
        }
        tc_proc_poll(procs, 2, 0.05);
    }
}

static void write_expected_dump(const char *path, const tc_conf_outcome *o, int reject)
{
    size_t len = o->out_len;
    if (reject && o->prefix_len >= 0 && (size_t)o->prefix_len <= len)
        len = (size_t)o->prefix_len;
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(o->out ? o->out : "", 1, len, f);
        fclose(f);
    }
}

static int reported(const tc_conf_case *c, const tc_rule_info *r)
{
    return tc_conf_rules_has(&c->errors, r) || tc_conf_rules_has(&c->warnings, r) ||
           tc_conf_rules_has(&c->notes, r);
}

/* Sets the case's expectation from tracecheck's outcome; 0, or -1 when
 * tracecheck itself failed (its answer in p->answer). */
static int expect_from(gx_probe *p, const char *dir, int intent)
{
    tc_conf_outcome *o = &p->ours;
    tc_conf_case *c = &p->c;
    if (o->timed_out || o->signal || !o->exited || o->exit_status > 1 || !o->have_protocol) {
        p->answer = tc_conf_printf("tracecheck: %s",
                                   o->timed_out ? "timeout" : o->signal ? "crash" : "no verdict");
        return -1;
    }
    c->verdict = o->exit_status == 0 ? TC_VERDICT_ACCEPT : TC_VERDICT_REJECT;
    c->cls = o->exit_status == 0 ? TC_CONF_Y : TC_CONF_N;
    tc_conf_rules_move(&c->errors, &o->errors);
    tc_conf_rules_move(&c->warnings, &o->warnings);
    tc_conf_rules_move(&c->notes, &o->notes);
    c->has_first_error = o->has_first_error;
    c->first_error_rule = o->first_error_rule;
    c->first_error_offset = o->first_error_offset;
    c->first_error_file = o->first_error_file;
    o->first_error_file = NULL;
    if (o->out_truncated) {
        /* A dump larger than the runner keeps (64 MiB: a DCFG-trace of
         * MiBs expands its edges) cannot be an expectation: the case has
         * none, as a suite case with "dump": false. */
        c->no_dump = 1;
    } else {
        c->dump_path = tc_conf_printf("%s/expected.dump.jsonl", dir);
        write_expected_dump(c->dump_path, o, c->verdict == TC_VERDICT_REJECT);
    }
    /* The generator's intent: a rule it broke is reported; a valid trace
     * has no error. Anything else is tracecheck's (or the generator's)
     * divergence, whatever the implementation says. */
    if (intent >= 0 && !reported(c, &tc_rules[intent])) {
        p->answer = tc_conf_printf("tracecheck: %s not reported", tc_rules[intent].id);
        return -1;
    }
    if (intent < 0 && c->verdict == TC_VERDICT_REJECT) {
        p->answer = tc_conf_strdup("tracecheck: rejects a valid trace");
        return -1;
    }
    return 0;
}

void gx_probe_run(gx_probe *p, const tc_gen_conf_options *opt, const tc_format_ops *f,
                  const char *input, const char *dir, int intent)
{
    memset(p, 0, sizeof *p);
    p->intent = intent;
    tc_conf_case *c = &p->c;
    struct stat st;
    c->id = tc_conf_printf("%s/generated", f->name);
    c->name = tc_conf_strdup("generated");
    c->group = tc_conf_strdup(f->name);
    c->input = tc_conf_strdup(input);
    c->input_is_dir = stat(input, &st) == 0 && S_ISDIR(st.st_mode);
    c->format = f->format;
    /* A rule reported only with --pedantic is broken for a pedantic run. */
    c->pedantic = intent >= 0 && (tc_rules[intent].flags & TC_RF_PEDANTIC);
    tc_error err = TC_ERROR_INIT;
    if (c->input_is_dir && f->companion &&
        tc_conf_pair_find(input, f, &c->pair_companion, &c->pair_input, &err) != 0)
        c->pair_companion = c->pair_input = NULL;
    tc_error_free(&err);

    tc_impl_job ours, theirs;
    int started_ours = start(&ours, &tracecheck_impl, c, opt->timeout);
    int started_theirs = start(&theirs, opt->impl, c, opt->timeout);
    if (!started_ours || !started_theirs) {
        /* Out of processes or descriptors: nothing was learnt. */
        if (started_ours)
            abandon(&ours, &tracecheck_impl, &p->ours);
        if (started_theirs)
            abandon(&theirs, opt->impl, &p->theirs);
        p->stopped = 1;
        return;
    }
    p->stopped = wait_both(&ours, &theirs);
    tc_impl_finish(&ours, &tracecheck_impl, &p->ours);
    tc_impl_finish(&theirs, opt->impl, &p->theirs);
    if (p->stopped)
        return;

    if (expect_from(p, dir, intent) != 0) {
        p->diverges = p->ours_failed = 1;
    } else {
        tc_conf_judge(c, opt->impl, &p->theirs, &p->r);
        p->diverges = p->r.kind != TC_CONF_PASS;
        p->answer = p->diverges ? answer_of(&p->r, c, &p->theirs) : tc_conf_strdup("agree");
        if (p->diverges && !strncmp(p->answer, "reject: ", 8)) {
            size_t n;
            const char *told = gx_telling_line(&p->theirs, &n);
            p->example = gx_answer_example(told, n);
        }
    }
    /* When tracecheck crashed, its rules are still the outcome's. */
    char rules[512];
    tc_conf_rules_format(c->errors.n || !p->ours_failed ? &c->errors : &p->ours.errors, rules,
                         sizeof rules);
    p->rules = tc_conf_strdup(rules);
    p->key = tc_conf_printf("%s|%s|%s|%s", f->name, tc_conf_verdict_name(c->verdict), p->rules,
                            p->answer);
}

void gx_probe_free(gx_probe *p)
{
    tc_conf_case *c = &p->c;
    free(c->id);
    free(c->name);
    free(c->group);
    free(c->input);
    free(c->dump_path);
    free(c->first_error_file);
    free(c->pair_companion);
    free(c->pair_input);
    tc_conf_rules_free(&c->errors);
    tc_conf_rules_free(&c->warnings);
    tc_conf_rules_free(&c->notes);
    tc_conf_outcome_free(&p->ours);
    tc_conf_outcome_free(&p->theirs);
    free(p->r.reason);
    free(p->r.stderr_tail);
    tc_conf_rules_free(&p->r.errors);
    tc_conf_rules_free(&p->r.warnings);
    tc_conf_rules_free(&p->r.notes);
    free(p->key);
    free(p->rules);
    free(p->answer);
    free(p->example);
    memset(p, 0, sizeof *p);
}
