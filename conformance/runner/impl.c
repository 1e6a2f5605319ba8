/*
 * Running one case with one implementation, in a child process (proc.h):
 *
 * - tracecheck: the child runs this project's parser on the input, writes the
 *   canonical dump on stdout and its findings as "@tc" protocol lines on
 *   stderr, and exits with the validation status. The parent reads the
 *   findings back; anything else on stderr (a sanitizer report) is kept.
 * - a command: the child execs /bin/sh -c with {file} replaced by the input's
 *   path (shell-quoted), or with the input on stdin when there is no {file}.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../parsers/common/check.h"
#include "impl.h"

#define PROTO "@tc "

typedef struct inproc {
    const tc_conf_case *c;
    FILE *mem;
    char *buf;
    size_t size;
    long long prefix; /* dump bytes before the first error; -1 until one */
} inproc;

static void on_diag(void *user, const tc_diag *d)
{
    inproc *s = user;
    if (d->severity == TC_ERROR && s->prefix < 0) {
        /* The parser emits a record's event after checking it, so what is in
         * the dump now is what was decoded before this error. */
        fflush(s->mem);
        s->prefix = (long long)s->size;
    }
    fprintf(stderr, PROTO "diag %s %s %" PRIu64 "\n",
            d->severity == TC_ERROR ? "error" : d->severity == TC_WARNING ? "warning" : "note",
            d->rule->id, d->offset);
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
    tc_check_opts copts = {.options = &opt, .dump = s.mem};
    char err[300] = "";
    tc_summary sum;
    int rc = tc_check_path(s.c->input, &copts, &sum, err, sizeof err);
    fclose(s.mem);
    fwrite(s.buf, 1, s.size, stdout);
    free(s.buf);
    if (rc == 2)
        fprintf(stderr, "tracecheck: %s: %s\n", s.c->input, err);
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

int tc_impl_start(tc_impl_job *job, const tc_conf_impl *impl, const tc_conf_case *c,
                  double timeout, char *err, size_t errlen)
{
    memset(job, 0, sizeof *job);
    job->c = c;
    if (impl->kind == TC_IMPL_TRACECHECK)
        return tc_proc_start(&job->proc, tracecheck_body, (void *)c, NULL, timeout, err, errlen);
    int uses_file;
    job->cmdline = tc_impl_command_line(impl->command, c->input, &uses_file);
    if (tc_proc_start(&job->proc, command_body, job->cmdline, uses_file ? NULL : c->input,
                      timeout, err, errlen) != 0) {
        free(job->cmdline);
        job->cmdline = NULL;
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
        char sev[16], id[128];
        unsigned long long off;
        long long prefix;
        int status;
        const char *body = line + strlen(PROTO);
        if (sscanf(body, "diag %15s %127s %llu", sev, id, &off) == 3) {
            const tc_rule_info *r = tc_rule_find(id);
            if (!r)
                continue;
            if (!strcmp(sev, "error")) {
                if (!o->has_first_error) {
                    o->has_first_error = 1;
                    o->first_error_rule = r;
                    o->first_error_offset = off;
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
    free(job->cmdline);
    job->cmdline = NULL;
}
