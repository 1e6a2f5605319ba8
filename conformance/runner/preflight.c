/*
 * Preflight: before a known tool is put through the suite, one run shows
 * whether it can read a trace at all. A tool whose installation is broken
 * (ovniemu without its data files refuses every trace with "cfg_generate:
 * cannot copy config files") would otherwise show as hundreds of failures and
 * stale expected failures, as if the suite were wrong; one line that says why
 * it cannot run, and its cases reported as not run, says what is wrong.
 */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen_answer.h"
#include "impl.h"

static off_t tree_bytes;

static int add_size(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)path;
    (void)ftw;
    if (flag == FTW_F)
        tree_bytes += st->st_size;
    return 0;
}

/* The input's size: a file's, or a directory's files added up. */
static off_t input_size(const tc_conf_case *c)
{
    struct stat st;
    if (stat(c->input, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode))
        return st.st_size;
    /* nftw has no user argument: the sum goes through a file-scope variable,
     * set and read here only (the runner is single-threaded). */
    tree_bytes = 0;
    if (nftw(c->input, add_size, 16, FTW_PHYS) != 0)
        return -1;
    return tree_bytes;
}

/* The case every version of the tool accepts: a plain valid trace, the
 * kind every reader of the format must read, not a corner of the format
 * (the smallest hand-made cases are such corners: a header alone, a stream
 * at the trace's root). So: a y_ case it reads that expects no warning or
 * note, made by tracecheck's generator when there is one (an ordinary
 * trace), the smallest of those (the fewest features a version might
 * lack), and that its expected-failure list does not name (the list is
 * measured on that version: a listed y_ case is one it refuses). Ties go
 * to the first by id, so a run always picks the same one. */
const tc_conf_case *tc_conf_preflight_case(const tc_conf_suite *s, const tc_conf_impl *impl,
                                           const tc_conf_xfail *xfail)
{
    const tc_conf_case *best = NULL;
    off_t best_size = 0;
    int best_generated = 0;
    for (size_t i = 0; i < s->count; i++) {
        const tc_conf_case *c = &s->cases[i];
        if (c->cls != TC_CONF_Y || c->warnings.n || c->notes.n || c->pair_companion ||
            tc_conf_xfail_find(xfail, c->name))
            continue;
        char *why = tc_conf_scope_reason(impl, c);
        free(why);
        if (why)
            continue;
        off_t size = input_size(c);
        int generated = c->source && !strncmp(c->source, "generated", 9);
        if (size >= 0 && (!best || generated > best_generated ||
                          (generated == best_generated && size < best_size))) {
            best = c;
            best_size = size;
            best_generated = generated;
        }
    }
    return best;
}

/* How the run ended, in the words of a shell: "exit 1", "SIGSEGV", ... */
static char *how_it_ended(const tc_conf_outcome *o)
{
    if (o->timed_out)
        return tc_conf_printf("no answer after %.1f s", o->seconds);
    if (o->signal)
        return tc_conf_printf("killed by signal %d (%s)", o->signal, strsignal(o->signal));
    if (o->spawn_failed)
        return tc_conf_strdup("could not be started");
    if (o->no_verdict)
        return tc_conf_printf("exit %d, %s", o->exit_status, o->no_verdict);
    return tc_conf_printf("exit %d", o->exit_status);
}

char *tc_conf_preflight(const tc_conf_suite *s, const tc_conf_impl *impl,
                        const tc_conf_xfail *xfail, double timeout)
{
    const tc_conf_case *c = tc_conf_preflight_case(s, impl, xfail);
    if (!c)
        return NULL; /* nothing to try it on (a suite of another format): no judgement */
    tc_impl_job job;
    tc_error err = TC_ERROR_INIT;
    if (tc_impl_start(&job, impl, c, timeout, &err) != 0) {
        char why[300];
        tc_error_format(&err, why, sizeof why);
        tc_error_free(&err);
        return tc_conf_printf("%s (on %s)", why, c->input);
    }
    /* The command as the tool got it (its scratch copy's path), without the
     * "exec " that only keeps a shell out of the way. */
    char *cmd = job.cmdline ? tc_conf_strdup(job.cmdline + (strncmp(job.cmdline, "exec ", 5) ? 0 : 5))
                            : tc_conf_printf("%s %s", impl->program ? impl->program : impl->name,
                                             c->input);
    tc_proc *live[1] = {&job.proc};
    while (!tc_proc_done(&job.proc))
        tc_proc_poll(live, 1, 0.5);
    tc_conf_outcome o;
    tc_impl_finish(&job, impl, &o);
    /* Before judging, which takes the output's buffers. */
    size_t len;
    const char *line = gx_telling_line(&o, &len);
    char *told = len ? tc_conf_printf("\"%.*s\" ", (int)(len > 200 ? 200 : len), line)
                     : tc_conf_strdup("");
    tc_conf_result r = {.c = c};
    tc_conf_judge(c, impl, &o, &r);
    char *ended = how_it_ended(&o);
    tc_conf_outcome_free(&o);
    /* An accepted case is a tool that runs, even when its output differs
     * (a dump, an adapter's comparison): that is a failure of the case. */
    char *broken = r.verdict == TC_VERDICT_ACCEPT
                       ? NULL
                       : tc_conf_printf("%s(%s; %s)", told, cmd, ended);
    free(ended);
    free(told);
    free(cmd);
    free(r.reason);
    free(r.stderr_tail);
    tc_conf_rules_free(&r.errors);
    tc_conf_rules_free(&r.warnings);
    tc_conf_rules_free(&r.notes);
    return broken;
}
