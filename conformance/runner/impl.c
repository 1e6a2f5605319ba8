/*
 * Running one case with one implementation, in a child process (proc.h):
 *
 * - tracecheck: the child runs this project's parser on the input, writes the
 *   canonical dump on stdout and its findings as "@tc" protocol lines on
 *   stderr, and exits with the validation status. The parent reads the
 *   findings back; anything else on stderr (a sanitizer report) is kept.
 *   Protocol lines: "diag SEVERITY RULE OFFSET at|about FILE" per finding
 *   (FILE relative to a directory case, "-" for a file case), "prefix BYTES"
 *   (the dump before the first error, -1 without errors), "status N".
 * - a command: the child execs /bin/sh -c with {file} replaced by the input's
 *   path (shell-quoted), or with the input on stdin when there is no {file};
 *   with impl->copy_input, the path of a scratch copy (scratch.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../parsers/common/check.h"
#include "impl.h"
#include "scratch.h"
#include "trace_prefix.h"

#define PROTO "@tc "

typedef struct inproc {
    const tc_conf_case *c;
    FILE *mem;
    char *buf;
    size_t size;
    long long prefix; /* dump bytes before the first error; -1 until one */
    tc_conf_finding *errors; /* directory cases: every error finding */
    size_t nerrors;
} inproc;

/* The file a finding is about, relative to a directory case ("." for the
 * directory itself). */
static const char *relative(const tc_conf_case *c, const char *input)
{
    size_t n = strlen(c->input);
    if (!input)
        return ".";
    if (!strncmp(input, c->input, n) && input[n] == '/')
        return input[n + 1] ? input + n + 1 : ".";
    return !strcmp(input, c->input) ? "." : input;
}

static void on_diag(void *user, const tc_diag *d)
{
    inproc *s = user;
    const char *file = s->c->input_is_dir ? relative(s->c, d->input) : "-";
    /* A pair's files are read one after the other and the dump streams as
     * a file's does; only a trace directory merges its streams. */
    if (d->severity == TC_ERROR && s->c->input_is_dir && !s->c->pair_companion) {
        /* A trace's dump is written after all its checks: its prefix is
         * worked out from the findings' places at the end (trace_prefix.h). */
        tc_conf_finding *e = realloc(s->errors, (s->nerrors + 1) * sizeof *e);
        if (!e)
            abort();
        s->errors = e;
        e[s->nerrors++] = (tc_conf_finding){tc_conf_strdup(file), d->offset, !d->unlocated};
    } else if (d->severity == TC_ERROR && s->prefix < 0) {
        /* The parser emits a record's event after checking it, so what is in
         * the dump now is what was decoded before this error. */
        fflush(s->mem);
        s->prefix = (long long)s->size;
    }
    fprintf(stderr, PROTO "diag %s %s %" PRIu64 " %s %s\n",
            d->severity == TC_ERROR ? "error" : d->severity == TC_WARNING ? "warning" : "note",
            d->rule->id, d->offset, d->unlocated ? "about" : "at", file);
}

static int tracecheck_body(void *arg)
{
    inproc s = {.c = arg, .prefix = -1};
    s.mem = open_memstream(&s.buf, &s.size);
    if (!s.mem) {
        fputs("tracecheck conformance: open_memstream failed\n", stderr);
        return 125;
    }
    tc_options opt = TC_OPTIONS_INIT;
    opt.format = s.c->format;
    opt.pedantic = s.c->pedantic;
    opt.on_diag = on_diag;
    opt.user = &s;
    tc_check_opts copts = {.options = &opt, .dump = s.c->no_dump ? NULL : s.mem};
    tc_error err = TC_ERROR_INIT;
    tc_summary sum;
    int rc = s.c->pair_companion ? tc_check_pair(tc_format_ops_for(s.c->format),
                                                 s.c->pair_companion, s.c->pair_input, &copts, &err)
                                 : tc_check_path(s.c->input, &copts, &sum, &err);
    fclose(s.mem);
    if (s.c->input_is_dir && !s.c->pair_companion)
        s.prefix = tc_conf_trace_prefix(s.buf, s.size, s.errors, s.nerrors);
    for (size_t i = 0; i < s.nerrors; i++)
        free((char *)s.errors[i].file);
    free(s.errors);
    fwrite(s.buf, 1, s.size, stdout);
    free(s.buf);
    if (rc == 2) {
        char why[300];
        tc_error_format(&err, why, sizeof why);
        fprintf(stderr, "tracecheck: %s: %s\n", s.c->input, why);
    }
    tc_error_free(&err);
    fprintf(stderr, PROTO "prefix %lld\n" PROTO "status %d\n", s.prefix, rc);
    fflush(stdout);
    fflush(stderr);
    return rc;
}

static int command_body(void *arg)
{
    execl("/bin/sh", "sh", "-c", (const char *)arg, (char *)NULL);
    perror("tracecheck conformance: /bin/sh");
    return 127;
}

/* "CMD {file}" with every {file} replaced by the quoted path. */
char *tc_impl_command_line(const char *command, const char *path, int *uses_file)
{
    size_t cap = strlen(command) + 1, n = 0;
    const char *p;
    for (p = command; (p = strstr(p, "{file}")) != NULL; p += 6)
        cap += 4 * strlen(path) + 2;
    char *out = malloc(cap);
    if (!out)
        abort();
    *uses_file = 0;
    for (p = command; *p;) {
        if (strncmp(p, "{file}", 6) != 0) {
            out[n++] = *p++;
            continue;
        }
        *uses_file = 1;
        out[n++] = '\'';
        for (const char *q = path; *q; q++) {
            if (*q == '\'') {
                memcpy(out + n, "'\\''", 4);
                n += 4;
            } else {
                out[n++] = *q;
            }
        }
        out[n++] = '\'';
        p += 6;
    }
    out[n] = '\0';
    return out;
}

void tc_impl_job_release(tc_impl_job *job)
{
    free(job->cmdline);
    job->cmdline = NULL;
    if (job->scratch)
        tc_scratch_remove(job->scratch);
    free(job->scratch);
    job->scratch = NULL;
}

int tc_impl_start(tc_impl_job *job, const tc_conf_impl *impl, const tc_conf_case *c,
                  double timeout, tc_error *err)
{
    memset(job, 0, sizeof *job);
    job->c = c;
    if (impl->kind == TC_IMPL_TRACECHECK)
        return tc_proc_start(&job->proc, tracecheck_body, (void *)c, NULL, timeout, err);
    if (impl->kind == TC_IMPL_ADAPTER)
        return impl->adapter->start(job, impl, c, timeout, err);
    int uses_file;
    char *copy = NULL;
    if (impl->copy_input && tc_scratch_copy(c->input, &job->scratch, &copy, err) != 0)
        return -1;
    const char *input = copy ? copy : c->input;
    const char *command = impl->also_command && impl->also_format != TC_FORMAT_AUTO &&
                                  c->format == impl->also_format
                              ? impl->also_command
                              : impl->command;
    job->cmdline = tc_impl_command_line(command, input, &uses_file);
    int rc = tc_proc_start(&job->proc, command_body, job->cmdline, uses_file ? NULL : input,
                           timeout, err);
    free(copy);
    if (rc != 0) {
        tc_impl_job_release(job);
        return -1;
    }
    return 0;
}

/* Splits the child's stderr into protocol lines (findings) and the rest. */
static void read_protocol(tc_conf_outcome *o)
{
    char *rest = malloc(o->err_len + 1);
    if (!rest)
        abort();
    size_t n = 0;
    o->prefix_len = -1;
    for (char *line = o->err, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        size_t len = next ? (size_t)(next - line) + 1 : strlen(line);
        if (next)
            next++;
        if (strncmp(line, PROTO, strlen(PROTO)) != 0) {
            memcpy(rest + n, line, len);
            n += len;
            continue;
        }
        char sev[16], id[128], where[8];
        unsigned long long off;
        long long prefix;
        int status, at = 0;
        const char *body = line + strlen(PROTO);
        if (sscanf(body, "diag %15s %127s %llu %7s %n", sev, id, &off, where, &at) == 4 && at) {
            const tc_rule_info *r = tc_rule_find(id);
            if (!r)
                continue;
            if (!strcmp(sev, "error")) {
                if (!o->has_first_error) {
                    const char *file = body + at;
                    size_t flen = strcspn(file, "\n");
                    o->has_first_error = 1;
                    o->first_error_rule = r;
                    o->first_error_offset = off;
                    if (flen != 1 || file[0] != '-')
                        o->first_error_file = tc_conf_printf("%.*s", (int)flen, file);
                }
                tc_conf_rules_add(&o->errors, r);
            } else if (!strcmp(sev, "warning")) {
                tc_conf_rules_add(&o->warnings, r);
            } else {
                tc_conf_rules_add(&o->notes, r);
            }
        } else if (sscanf(body, "prefix %lld", &prefix) == 1) {
            o->prefix_len = prefix;
        } else if (sscanf(body, "status %d", &status) == 1) {
            o->have_protocol = 1;
        }
    }
    rest[n] = '\0';
    free(o->err);
    o->err = rest;
    o->err_len = n;
}

void tc_impl_finish(tc_impl_job *job, const tc_conf_impl *impl, tc_conf_outcome *o)
{
    memset(o, 0, sizeof *o);
    tc_proc_outcome(&job->proc, o);
    o->prefix_len = -1;
    if (impl->kind == TC_IMPL_TRACECHECK)
        read_protocol(o);
    if (impl->kind == TC_IMPL_ADAPTER)
        impl->adapter->outcome(job, o); /* reads the scratch directory, removed below */
    tc_impl_job_release(job);
}
