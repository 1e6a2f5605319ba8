/*
 * Shrinking a divergence while its class stays the same (gen_probe.c):
 *
 * 1. through the generator: the size to 0 (the generator's smallest
 *    trace); each option to each of its simpler values (tc_generator.axes
 *    lists them first): one thread, one loom, small buffers; then the size
 *    cut to 1/64, 1/16, 1/4 or 1/2 while the class stays;
 * 2. through the bytes, file by file (the largest first): chunks of half
 *    the file removed, then of a quarter, down to single bytes (delta
 *    debugging's complement steps), keeping each removal after which both
 *    tracecheck and the implementation still answer as before.
 *
 * Each step is one run of both; the steps stop at the run's deadline or a
 * stop, and at GX_SHRINK_RUNS runs or GX_SHRINK_SECONDS per divergence,
 * leaving the smallest trace found so far.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen_internal.h"
#include "proc.h"
#include "scratch.h"

/* Runs of both per divergence: a run of a tool such as llvm-xray takes
 * some 20 ms, so a class costs a few seconds at most, and the trace the
 * generator's smallest parameters give is most often small already. */
#define GX_SHRINK_RUNS 60
/* A timeout costs the whole --timeout per run: a hang is shrunk by a few
 * runs only (dqr's error loops take 10 s each). */
#define GX_SHRINK_RUNS_TIMEOUT 4
/* And at most this long per class, whatever the runs take. */
#define GX_SHRINK_SECONDS 30.0
/* A file this small is left as it is: a header and a record or two. */
#define GX_SMALL_FILE 64

typedef struct shrinker {
    const tc_gen_conf_options *opt;
    const char *work; /* where candidates' directories go */
    gx_draw *d;
    char **dir, **input;
    gx_probe *probe;
    unsigned runs;
    double until; /* GX_SHRINK_SECONDS after it started */
} shrinker;

static int over(const shrinker *s)
{
    unsigned most = strstr(s->probe->answer, "timeout") ? GX_SHRINK_RUNS_TIMEOUT : GX_SHRINK_RUNS;
    double now = tc_proc_now();
    return gx_stop || (gx_deadline > 0 && now >= gx_deadline) || now >= s->until ||
           s->runs >= most;
}

/* Whether a fresh probe is the same divergence as the one kept. */
static int same(const shrinker *s, const gx_probe *p)
{
    return !p->stopped && p->diverges && !strcmp(p->key, s->probe->key);
}

/* Generates the draw c afresh; keeps it when the class stays. */
static int try_draw(shrinker *s, gx_draw *c)
{
    char *root = gx_mkdtemp(s->work), *input = NULL;
    if (!root)
        return 0;
    char *tdir = tc_conf_printf("%s/t", root);
    tc_error err = TC_ERROR_INIT;
    int kept = 0;
    if (mkdir(tdir, 0777) == 0 && gx_draw_write(c, tdir, &input, &err) == 0) {
        gx_probe p;
        s->runs++;
        gx_probe_run(&p, s->opt, c->f, input, root, c->violate);
        if (same(s, &p) && gx_bytes(input) < gx_bytes(*s->input)) {
            gx_probe_free(s->probe);
            *s->probe = p;
            tc_scratch_remove(*s->dir);
            free(*s->dir);
            free(*s->input);
            *s->dir = root;
            *s->input = input;
            *s->d = *c;
            kept = 1;
        } else {
            gx_probe_free(&p);
        }
    }
    tc_error_free(&err);
    free(tdir);
    if (!kept) {
        tc_scratch_remove(root);
        free(root);
        free(input);
    }
    return kept;
}

static void shrink_draw(shrinker *s)
{
    gx_draw c = *s->d;
    c.size = 0;
    try_draw(s, &c);
    const tc_generator *g = tc_generator_of(s->d->f->format);
    for (size_t a = 0; a < s->d->naxes && !over(s); a++)
        for (size_t v = 0; g->axes[a].values[v] && !over(s); v++) {
            const char *value = g->axes[a].values[v];
            if (!strcmp(value, s->d->value[a]))
                break; /* the values before the current one are simpler */
            c = *s->d;
            c.value[a] = value;
            if (try_draw(s, &c))
                break;
        }
    /* A smaller size draws other random choices, which may not diverge
     * alike: a ladder of sizes is tried, the smallest first, again from
     * each size that kept the class. */
    for (int kept = 1; kept && s->d->size > 1 && !over(s);) {
        kept = 0;
        for (unsigned shift = 6; shift >= 1 && !kept && !over(s); shift -= shift > 2 ? 2 : 1) {
            c = *s->d;
            c.size = s->d->size >> shift;
            kept = c.size > 0 && try_draw(s, &c);
        }
    }
}

/* ---- bytes ---- */

static int write_bytes(const char *path, const unsigned char *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = fwrite(p, 1, n, f) == n;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* Reruns the kept trace (whose file path now holds a candidate); keeps the
 * probe when the class stays. */
static int try_bytes(shrinker *s)
{
    gx_probe p;
    s->runs++;
    gx_probe_run(&p, s->opt, s->d->f, *s->input, *s->dir, s->d->violate);
    if (same(s, &p)) {
        gx_probe_free(s->probe);
        *s->probe = p;
        return 1;
    }
    gx_probe_free(&p);
    return 0;
}

static void shrink_file(shrinker *s, const char *path)
{
    size_t n;
    unsigned char *buf = (unsigned char *)tc_conf_read_file(path, &n);
    if (!buf)
        return;
    unsigned char *cand = malloc(n ? n : 1);
    if (!cand)
        abort();
    for (size_t chunk = n / 2 ? n / 2 : 1; n && chunk && !over(s);) {
        int removed = 0;
        for (size_t at = 0; at < n && !over(s);) {
            size_t k = chunk < n - at ? chunk : n - at;
            memcpy(cand, buf, at);
            memcpy(cand + at, buf + at + k, n - at - k);
            if (write_bytes(path, cand, n - k) == 0 && try_bytes(s)) {
                memcpy(buf, cand, n - k);
                n -= k;
                removed = 1;
            } else {
                at += k;
            }
        }
        if (!removed)
            chunk /= 2;
    }
    write_bytes(path, buf, n); /* the smallest that kept the class */
    free(cand);
    free(buf);
}

typedef struct file_list {
    char **path;
    uint64_t *size;
    size_t n;
} file_list;

static void collect(void *user, const char *path, uint64_t size)
{
    file_list *l = user;
    l->path = realloc(l->path, (l->n + 1) * sizeof *l->path);
    l->size = realloc(l->size, (l->n + 1) * sizeof *l->size);
    if (!l->path || !l->size)
        abort();
    l->path[l->n] = tc_conf_strdup(path);
    l->size[l->n++] = size;
}

static void shrink_bytes(shrinker *s)
{
    file_list l = {0};
    gx_walk(*s->input, collect, &l);
    /* The largest first: most of what can go is there. */
    for (size_t i = 0; i < l.n; i++)
        for (size_t j = i + 1; j < l.n; j++)
            if (l.size[j] > l.size[i]) {
                char *p = l.path[i];
                uint64_t z = l.size[i];
                l.path[i] = l.path[j], l.size[i] = l.size[j];
                l.path[j] = p, l.size[j] = z;
            }
    for (size_t i = 0; i < l.n; i++) {
        if (!over(s) && l.size[i] > GX_SMALL_FILE)
            shrink_file(s, l.path[i]);
        free(l.path[i]);
    }
    free(l.path);
    free(l.size);
}

uint64_t gx_shrink(gx_draw *d, char **dir, char **input, gx_probe *probe,
                   const tc_gen_conf_options *opt, const char *work)
{
    shrinker s = {opt, work, d, dir, input, probe, 0, tc_proc_now() + GX_SHRINK_SECONDS};
    shrink_draw(&s);
    uint64_t drawn = gx_bytes(*input);
    shrink_bytes(&s);
    return drawn;
}
