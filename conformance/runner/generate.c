/*
 * The parent of `conformance --generate` (generate.h): starts the workers
 * (gen_worker.h), reads what they find, draws the progress line, stops
 * them at --seconds or a signal, and at the end keeps per class the case of
 * the lowest iteration, named and moved into OUT/cases/<format>/, with what
 * the implementation printed in OUT/output/.
 */
#define _GNU_SOURCE /* strsignal, pipe2 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../parsers/common/mkdirs.h"
#include "gen_internal.h"
#include "gen_worker.h"
#include "proc.h"
#include "scratch.h"

#define MAX_WORKERS 64

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

typedef struct found {
    tc_gen_class cl;
    char *dir; /* the kept case's directory in the work area */
} found;

typedef struct parent {
    tc_gen_conf_run *run;
    const tc_gen_conf_options *opt;
    found *f;
    size_t n;
    double start, last_draw;
    int line_shown;
} parent;

/* The class of the protocol's fields FORMAT VERDICT RULES ANSWER (a new
 * one the first time). */
static found *find(parent *p, char *const *f)
{
    char *key = tc_conf_printf("%s|%s|%s|%s", f[0], f[1], f[2], f[3]);
    for (size_t i = 0; i < p->n; i++)
        if (!strcmp(p->f[i].cl.key, key)) {
            free(key);
            return &p->f[i];
        }
    p->f = realloc(p->f, (p->n + 1) * sizeof *p->f);
    if (!p->f)
        abort();
    found *x = &p->f[p->n++];
    memset(x, 0, sizeof *x);
    x->cl.key = key;
    x->cl.format = tc_conf_strdup(f[0]);
    x->cl.verdict = !strcmp(f[1], "accept")   ? TC_VERDICT_ACCEPT
                    : !strcmp(f[1], "reject") ? TC_VERDICT_REJECT
                                              : TC_VERDICT_NONE;
    x->cl.rules = tc_conf_strdup(f[2]);
    x->cl.answer = tc_conf_strdup(f[3]);
    x->cl.iteration = UINT64_MAX;
    return x;
}

/* Keeps example e of class c when it is new and among the smallest
 * TC_GEN_EXAMPLES (in byte order: the same set whatever the workers'
 * order). */
static void add_example(tc_gen_class *c, const char *e)
{
    size_t at = 0;
    while (at < c->nexamples && strcmp(c->examples[at], e) < 0)
        at++;
    if (at < c->nexamples && !strcmp(c->examples[at], e))
        return;
    c->nexamples_seen++;
    if (at == TC_GEN_EXAMPLES)
        return;
    if (!c->examples && !(c->examples = calloc(TC_GEN_EXAMPLES, sizeof *c->examples)))
        abort();
    if (c->nexamples == TC_GEN_EXAMPLES)
        free(c->examples[--c->nexamples]);
    memmove(c->examples + at + 1, c->examples + at, (c->nexamples - at) * sizeof *c->examples);
    c->examples[at] = tc_conf_strdup(e);
    c->nexamples++;
}

static void clear_line(parent *p)
{
    if (p->line_shown) {
        fputs("\r\033[K", stderr);
        p->line_shown = 0;
    }
}

static void progress(parent *p, int force)
{
    double now = tc_proc_now();
    if (!p->opt->progress || (!force && now - p->last_draw < 0.25))
        return;
    p->last_draw = now;
    const tc_gen_conf_run *r = p->run;
    fprintf(stderr, "\r\033[K%6.1f s  %llu trace%s (%llu valid, %llu one-defect)  %llu "
                    "divergence%s in %zu class%s",
            now - p->start, (unsigned long long)r->traces, r->traces == 1 ? "" : "s",
            (unsigned long long)r->valid, (unsigned long long)r->invalid,
            (unsigned long long)r->divergences, r->divergences == 1 ? "" : "s", p->n,
            p->n == 1 ? "" : "es");
    fflush(stderr);
    p->line_shown = 1;
}

/* Splits a protocol line at tabs (in place); returns the field count. */
static size_t fields(char *line, char **f, size_t max)
{
    size_t n = 0;
    for (char *s = line; n < max;) {
        f[n++] = s;
        char *t = strchr(s, '\t');
        if (!t)
            break;
        *t = '\0';
        s = t + 1;
    }
    return n;
}

static void on_line(parent *p, char *line)
{
    char *f[12];
    size_t n = fields(line, f, 12);
    tc_gen_conf_run *r = p->run;
    if (!strcmp(f[0], "T") && n == 3) {
        if (!strcmp(f[2], "unusable")) {
            r->unusable++;
        } else {
            r->traces++;
            *(strcmp(f[2], "valid") ? &r->invalid : &r->valid) += 1;
        }
    } else if (!strcmp(f[0], "D") && n == 7) {
        r->divergences++;
        found *x = find(p, f + 2);
        x->cl.hits++;
        if (*f[6])
            add_example(&x->cl, f[6]);
    } else if (!strcmp(f[0], "C") && n == 11) {
        uint64_t it = strtoull(f[1], NULL, 10);
        found *x = find(p, f + 2);
        int first = !x->dir;
        if (it < x->cl.iteration) {
            if (x->dir)
                tc_scratch_remove(x->dir);
            free(x->dir);
            free(x->cl.generated);
            free(x->cl.reason);
            x->dir = tc_conf_strdup(f[6]);
            x->cl.iteration = it;
            x->cl.bytes_generated = strtoull(f[7], NULL, 10);
            x->cl.bytes_shrunk = strtoull(f[8], NULL, 10);
            x->cl.generated = tc_conf_strdup(f[9]);
            x->cl.reason = tc_conf_strdup(f[10]);
        } else {
            tc_scratch_remove(f[6]);
        }
        if (first && p->opt->log) {
            clear_line(p);
            fprintf(p->opt->log, "found   %s (iteration %s, %s bytes shrunk to %s)\n", x->cl.key,
                    f[1], f[7], f[8]);
            fflush(p->opt->log);
        }
    }
}

/* "n_gen_xray_header_truncated_accept": from the class, unique in p. */
static char *case_name(const found *x, char **taken, size_t ntaken)
{
    const tc_gen_class *c = &x->cl;
    char rule[96] = "valid";
    if (strcmp(c->rules, "none") != 0) {
        const char *id = c->rules, *dash = strchr(id, '-');
        size_t k = 0, len = strcspn(id, ",");
        for (size_t i = dash && (size_t)(dash - id) < len ? (size_t)(dash - id) + 1 : 0;
             i < len && k < sizeof rule - 1; i++)
            rule[k++] = id[i] == '-' ? '_' : (char)tolower((unsigned char)id[i]);
        rule[k] = '\0';
    }
    char answer[32];
    size_t k = 0;
    for (const char *s = c->answer; *s && *s != ':' && k < sizeof answer - 1; s++)
        answer[k++] = isalnum((unsigned char)*s) ? (char)tolower((unsigned char)*s) : '_';
    answer[k] = '\0';
    char fmt[32];
    k = 0;
    for (const char *s = c->format; *s && k < sizeof fmt - 1; s++)
        fmt[k++] = *s == '-' ? '_' : *s;
    fmt[k] = '\0';
    char cls = c->verdict == TC_VERDICT_ACCEPT ? 'y' : 'n';
    if (!strncmp(c->answer, "tracecheck:", 11))
        cls = strcmp(c->rules, "none") ? 'n' : 'y';
    char *name = tc_conf_printf("%c_gen_%s_%s_%s", cls, fmt, rule, answer);
    for (unsigned v = 2;; v++) {
        int clash = 0;
        for (size_t i = 0; i < ntaken; i++)
            clash |= taken[i] && !strcmp(taken[i], name);
        if (!clash)
            return name;
        free(name);
        name = tc_conf_printf("%c_gen_%s_%s_%s_%u", cls, fmt, rule, answer, v);
    }
}

/* Moves the kept case's files to their places, named name. */
static int place(const found *x, const char *name, const tc_gen_conf_options *opt, char **input,
                 char **output)
{
    char *group = tc_conf_printf("%s/cases/%s", opt->out, x->cl.format);
    char *outdir = tc_conf_printf("%s/output", opt->out);
    int rc = tc_mkdirs(group) | tc_mkdirs(outdir);
    const char *parts[] = {"case.expect.json", "case.dump.jsonl", "case.output.txt"};
    const char *ends[] = {".expect.json", ".dump.jsonl", NULL};
    for (size_t i = 0; i < 3 && !rc; i++) {
        char *from = tc_conf_printf("%s/%s", x->dir, parts[i]);
        char *to = ends[i] ? tc_conf_printf("%s/%s%s", group, name, ends[i])
                           : tc_conf_printf("%s/%s.txt", outdir, name);
        if (access(from, F_OK) == 0 && rename(from, to) != 0)
            rc = -1;
        if (!ends[i])
            *output = tc_conf_strdup(to);
        free(from);
        free(to);
    }
    /* The input: what is left, "case" or "case.SUFFIX" (gx_case_write). */
    char *from = NULL, *to = NULL;
    DIR *d = rc ? NULL : opendir(x->dir);
    struct dirent *e;
    while (d && !from && (e = readdir(d)) != NULL)
        if (!strncmp(e->d_name, "case", 4) && (!e->d_name[4] || e->d_name[4] == '.')) {
            from = tc_conf_printf("%s/%s", x->dir, e->d_name);
            to = tc_conf_printf("%s/%s%s", group, name, e->d_name + 4);
        }
    if (d)
        closedir(d);
    if (!from || rename(from, to) != 0)
        rc = -1;
    *input = to ? to : tc_conf_strdup("");
    free(from);
    free(group);
    free(outdir);
    return rc;
}

static int by_key(const void *a, const void *b)
{
    return strcmp(((const found *)a)->cl.key, ((const found *)b)->cl.key);
}

static int finish(parent *p)
{
    tc_gen_conf_run *r = p->run;
    if (p->n) /* qsort takes no NULL array, even of nothing */
        qsort(p->f, p->n, sizeof *p->f, by_key);
    r->classes = calloc(p->n ? p->n : 1, sizeof *r->classes);
    char **taken = calloc(p->n ? p->n : 1, sizeof *taken);
    if (!r->classes || !taken)
        abort();
    int rc = 0;
    for (size_t i = 0; i < p->n; i++) {
        found *x = &p->f[i];
        if (x->dir) {
            x->cl.name = case_name(x, taken, i);
            taken[i] = x->cl.name;
            if (place(x, x->cl.name, p->opt, &x->cl.input, &x->cl.output) != 0) {
                fprintf(stderr, "tracecheck conformance: cannot move the case of %s out of %s\n",
                        x->cl.key, x->dir);
                rc = -1;
            }
        }
        /* Without a directory: found, but the run stopped before its case
         * was written (the report says so). */
        free(x->dir);
        r->classes[r->nclasses++] = x->cl;
    }
    free(taken);
    /* OUT/cases is a suite of its own: `conformance --cases OUT/cases` runs it. */
    if (p->n) {
        char *path = tc_conf_printf("%s/cases/VERSION", p->opt->out);
        FILE *v = fopen(path, "w");
        if (!v || fprintf(v, "generated-seed-%llu\n", (unsigned long long)p->opt->seed) < 0)
            rc = -1;
        if (v && fclose(v) != 0)
            rc = -1;
        free(path);
    }
    free(p->f);
    return rc;
}

static void stop_workers(const pid_t *pid, unsigned n)
{
    for (unsigned w = 0; w < n; w++)
        if (pid[w] > 0)
            kill(pid[w], SIGTERM);
}

int tc_gen_conf_run_all(tc_gen_conf_run *run, const tc_gen_conf_options *opt)
{
    memset(run, 0, sizeof *run);
    run->opt = opt;
    run->started = time(NULL);
    if (tc_mkdirs(opt->out) != 0) {
        fprintf(stderr, "tracecheck conformance: cannot make %s: %s\n", opt->out, strerror(errno));
        return -1;
    }
    char *cases = tc_conf_printf("%s/cases", opt->out);
    struct stat st;
    int exists = stat(cases, &st) == 0;
    free(cases);
    if (exists) {
        fprintf(stderr, "tracecheck conformance: %s/cases exists: --generate writes its cases "
                        "into a fresh directory (remove it, or name another with --out)\n",
                opt->out);
        return -1;
    }
    char *work = tc_conf_printf("%s/.work.XXXXXX", opt->out);
    if (!mkdtemp(work)) {
        fprintf(stderr, "tracecheck conformance: cannot make a directory in %s: %s\n", opt->out,
                strerror(errno));
        free(work);
        return -1;
    }
    parent p = {.run = run, .opt = opt, .start = tc_proc_now()};
    gx_deadline = opt->seconds > 0 ? p.start + opt->seconds : 0;
    gx_stop = 0;
    interrupted = 0;
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);

    unsigned n = opt->jobs ? opt->jobs : 1;
    if (n > MAX_WORKERS)
        n = MAX_WORKERS;
    pid_t pid[MAX_WORKERS];
    int fd[MAX_WORKERS];
    char *buf[MAX_WORKERS];
    size_t len[MAX_WORKERS];
    unsigned started = 0;
    fflush(NULL);
    for (unsigned w = 0; w < n; w++) {
        int pp[2];
        if (pipe2(pp, O_CLOEXEC) != 0)
            break;
        pid[w] = fork();
        if (pid[w] == 0) {
            close(pp[0]);
            for (unsigned k = 0; k < w; k++)
                close(fd[k]);
            gx_worker(opt, w, n, pp[1], work);
            close(pp[1]);
            fflush(NULL);
            _exit(0);
        }
        close(pp[1]);
        if (pid[w] < 0) {
            close(pp[0]);
            break;
        }
        fd[w] = pp[0];
        buf[w] = NULL;
        len[w] = 0;
        started++;
    }
    if (!started) {
        fprintf(stderr, "tracecheck conformance: cannot start a worker: %s\n", strerror(errno));
        tc_scratch_remove(work);
        free(work);
        return -1;
    }
    unsigned open_fds = started, signalled = 0;
    while (open_fds) {
        if (!signalled && (interrupted || (gx_deadline > 0 && tc_proc_now() >= gx_deadline))) {
            /* The workers see the deadline themselves; a signal is passed
             * on in case it came to this process alone. */
            if (interrupted)
                stop_workers(pid, started);
            signalled = 1;
        }
        struct pollfd pfd[MAX_WORKERS];
        for (unsigned w = 0; w < started; w++)
            pfd[w] = (struct pollfd){.fd = fd[w], .events = fd[w] >= 0 ? POLLIN : 0};
        int k = poll(pfd, started, 100);
        for (unsigned w = 0; k > 0 && w < started; w++) {
            if (fd[w] < 0 || !(pfd[w].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            char chunk[4096];
            ssize_t got = read(fd[w], chunk, sizeof chunk);
            if (got <= 0) {
                if (got < 0 && errno == EINTR)
                    continue;
                close(fd[w]);
                fd[w] = -1;
                open_fds--;
                continue;
            }
            buf[w] = realloc(buf[w], len[w] + (size_t)got + 1);
            if (!buf[w])
                abort();
            memcpy(buf[w] + len[w], chunk, (size_t)got);
            len[w] += (size_t)got;
            buf[w][len[w]] = '\0';
            char *s = buf[w], *nl;
            while ((nl = strchr(s, '\n')) != NULL) {
                *nl = '\0';
                on_line(&p, s);
                s = nl + 1;
            }
            len[w] -= (size_t)(s - buf[w]);
            memmove(buf[w], s, len[w] + 1);
        }
        progress(&p, 0);
    }
    for (unsigned w = 0; w < started; w++) {
        int status;
        while (waitpid(pid[w], &status, 0) < 0 && errno == EINTR)
            ;
        free(buf[w]);
    }
    progress(&p, 1);
    clear_line(&p);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    run->seconds = tc_proc_now() - p.start;
    run->interrupted = interrupted;
    int rc = finish(&p);
    tc_scratch_remove(work);
    free(work);
    return rc;
}

void tc_gen_conf_run_free(tc_gen_conf_run *run)
{
    for (size_t i = 0; i < run->nclasses; i++) {
        tc_gen_class *c = &run->classes[i];
        free(c->key);
        free(c->format);
        free(c->rules);
        free(c->answer);
        free(c->name);
        free(c->input);
        free(c->output);
        free(c->generated);
        free(c->reason);
        for (size_t k = 0; k < c->nexamples; k++)
            free(c->examples[k]);
        free(c->examples);
        free(c->known);
    }
    free(run->classes);
    memset(run, 0, sizeof *run);
}
