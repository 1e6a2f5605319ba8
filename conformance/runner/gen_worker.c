/*
 * A worker process of `conformance --generate`: iterations w, w + n, w + 2n
 * and so on, each a drawn trace run through tracecheck and the
 * implementation. A divergence of a class the worker has not seen is
 * shrunk and written as a case into the work directory; the parent hears
 * of everything through a pipe, one line per event (gen_worker.h's
 * protocol), and keeps per class the case of the lowest iteration.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen_internal.h"
#include "gen_worker.h"
#include "proc.h"
#include "scratch.h"

static void on_signal(int sig)
{
    (void)sig;
    gx_stop = 1;
}

/* One line to the parent; fields have no tab or newline (replaced). */
static void say(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(int fd, const char *fmt, ...)
{
    char line[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n > sizeof line - 2)
        n = (int)sizeof line - 2;
    for (int i = 0; i < n; i++)
        if (line[i] == '\n' || line[i] == '\r')
            line[i] = ' ';
    line[n++] = '\n';
    for (int off = 0; off < n;) {
        ssize_t k = write(fd, line + off, (size_t)(n - off));
        if (k <= 0)
            return;
        off += (int)k;
    }
}

static char *clean(const char *s)
{
    char *t = tc_conf_strdup(s ? s : "");
    for (char *p = t; *p; p++)
        if (*p == '\t' || *p == '\n' || *p == '\r')
            *p = ' ';
    return t;
}

typedef struct seen {
    char **key;
    size_t n;
} seen;

static int seen_add(seen *s, const char *key)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->key[i], key))
            return 0;
    s->key = realloc(s->key, (s->n + 1) * sizeof *s->key);
    if (!s->key)
        abort();
    s->key[s->n++] = tc_conf_strdup(key);
    return 1;
}

/* Whether this worker shrinks a class it has just met at iteration i: the
 * workers share claims in the work directory (a file per class holding the
 * lowest iteration that claimed it), so that a class is shrunk once, by
 * the lowest iteration, unless two workers meet it at once (then the
 * parent keeps the lower one's case). */
static int claim(const char *work, const char *key, uint64_t i)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (const char *p = key; *p; p++)
        h = (h ^ (unsigned char)*p) * UINT64_C(1099511628211);
    char *path = tc_conf_printf("%s/claim.%016llx", work, (unsigned long long)h);
    size_t n;
    char *old = tc_conf_read_file(path, &n);
    int mine = !old || strtoull(old, NULL, 10) > i;
    free(old);
    if (mine) {
        FILE *f = fopen(path, "w");
        if (f) {
            fprintf(f, "%llu\n", (unsigned long long)i);
            fclose(f);
        }
    }
    free(path);
    return mine;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

/* One iteration; 0 to go on, 1 when stopped. */
static int iteration(const tc_gen_conf_options *opt, uint64_t i, int fd, const char *work,
                     seen *classes)
{
    gx_draw d;
    gx_draw_pick(&d, opt, i);
    char *root = gx_mkdtemp(work), *input = NULL;
    if (!root) {
        say(fd, "T\t%llu\tunusable", (unsigned long long)i);
        return 0;
    }
    char *tdir = tc_conf_printf("%s/t", root);
    tc_error err = TC_ERROR_INIT;
    int ok = mkdir(tdir, 0777) == 0 && gx_draw_write(&d, tdir, &input, &err) == 0;
    tc_error_free(&err);
    free(tdir);
    /* A tool that reads only some names (dqr: .rtd) is not given others. */
    if (ok && opt->impl->only_suffix && !ends_with(input, opt->impl->only_suffix))
        ok = 0;
    if (!ok) {
        say(fd, "T\t%llu\tunusable", (unsigned long long)i);
        tc_scratch_remove(root);
        free(root);
        free(input);
        return 0;
    }
    gx_probe p;
    gx_probe_run(&p, opt, d.f, input, root, d.violate);
    int stopped = p.stopped;
    if (!stopped) {
        say(fd, "T\t%llu\t%s", (unsigned long long)i, d.violate >= 0 ? "invalid" : "valid");
        if (p.diverges) {
            /* The class's fields, as the parent keys it. */
            char *rules = clean(p.rules), *answer = clean(p.answer);
            char *cls = tc_conf_printf("%s\t%s\t%s\t%s", d.f->name,
                                       tc_conf_verdict_name(p.c.verdict), rules, answer);
            free(rules);
            free(answer);
            char *example = clean(p.example ? p.example : "");
            say(fd, "D\t%llu\t%s\t%s", (unsigned long long)i, cls, example);
            free(example);
            if (seen_add(classes, cls) && claim(work, cls, i)) {
                char *generated = gx_draw_command(&d);
                gx_case_source src = {.drawn = generated, .bytes_drawn = gx_bytes(input)};
                src.bytes_shrunk = gx_shrink(&d, &root, &input, &p, opt, work);
                char *shrunk = gx_draw_command(&d);
                src.shrunk = shrunk;
                src.bytes_cut = gx_bytes(input);
                char *dir = tc_conf_printf("%s/case.%llu", work, (unsigned long long)i);
                if (mkdir(dir, 0777) == 0 && gx_case_write(dir, &p, input, &src, opt) == 0) {
                    char *reason = clean(p.r.reason ? p.r.reason : p.answer);
                    char *cmd = clean(generated);
                    say(fd, "C\t%llu\t%s\t%s\t%llu\t%llu\t%s\t%s", (unsigned long long)i, cls,
                        dir, (unsigned long long)src.bytes_drawn,
                        (unsigned long long)src.bytes_cut, cmd, reason);
                    free(reason);
                    free(cmd);
                }
                free(dir);
                free(shrunk);
                free(generated);
            }
            free(cls);
        }
    }
    gx_probe_free(&p);
    tc_scratch_remove(root);
    free(root);
    free(input);
    return stopped;
}

void gx_worker(const tc_gen_conf_options *opt, unsigned w, unsigned n, int fd, const char *work)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    seen classes = {0};
    for (uint64_t i = w; !gx_stop; i += n) {
        if (opt->count && i >= opt->count)
            break;
        if (gx_deadline > 0 && tc_proc_now() >= gx_deadline)
            break;
        if (iteration(opt, i, fd, work, &classes))
            break;
    }
    for (size_t i = 0; i < classes.n; i++)
        free(classes.key[i]);
    free(classes.key);
    say(fd, "E");
}
