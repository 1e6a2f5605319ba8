/* One input on several threads: see split.h. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "diag_copy.h"
#include "split.h"

/* The findings one segment keeps, in the order it made them. */
typedef struct kept {
    tc_diag *v;
    void **blocks;
    size_t n, cap;
    int oom;
} kept;

typedef struct split_run split_run;

typedef struct part {
    split_run *run;
    tc_input *in; /* its own reader over the input */
    tc_diag_sink d;
    tc_parse_ctx ctx;
    tc_split_seg seg;
    kept k;
    uint64_t done; /* bytes read, for the progress line */
    pthread_t thread;
    int started;
} part;

struct split_run {
    const tc_format_split *s;
    pthread_mutex_t lock;
    part *parts;
    size_t n;
    void (*progress)(void *user, uint64_t bytes);
    void *progress_user;
};

static void keep(void *user, const tc_diag *d)
{
    kept *k = user;
    if (k->oom)
        return;
    if (k->n == k->cap) {
        size_t cap = k->cap ? 2 * k->cap : 16;
        tc_diag *v = realloc(k->v, cap * sizeof *v);
        if (v)
            k->v = v;
        void **b = v ? realloc(k->blocks, cap * sizeof *b) : NULL;
        if (!b) {
            k->oom = 1;
            return;
        }
        k->blocks = b;
        k->cap = cap;
    }
    if (tc_diag_copy(&k->v[k->n], d, &k->blocks[k->n]) != 0) {
        k->oom = 1;
        return;
    }
    k->n++;
}

static void kept_free(kept *k)
{
    for (size_t i = 0; i < k->n; i++)
        free(k->blocks[i]);
    free(k->v);
    free(k->blocks);
    memset(k, 0, sizeof *k);
}

/* The progress of the whole input: what every segment has read. */
static void part_progress(void *user, uint64_t pos)
{
    part *p = user;
    split_run *u = p->run;
    pthread_mutex_lock(&u->lock);
    p->done = pos > p->seg.start ? pos - p->seg.start : 0;
    uint64_t sum = 0;
    for (size_t i = 0; i < u->n; i++)
        sum += u->parts[i].done;
    u->progress(u->progress_user, sum);
    pthread_mutex_unlock(&u->lock);
}

/* A segment's reader and sink, with the settings of the input's sink. */
static int part_open(split_run *u, part *p, tc_input *in, const tc_parse_ctx *ctx)
{
    p->run = u;
    p->in = tc_input_reopen(in);
    if (!p->in)
        return -1;
    const tc_diag_sink *d = ctx->diags;
    tc_diag_init(&p->d, d->input, d->max_repeats, d->pedantic, keep, &p->k);
    p->ctx = (tc_parse_ctx){.diags = &p->d, .no_models = ctx->no_models,
                            .options = ctx->options};
    if (u->progress) {
        tc_reader *r = tc_input_reader(p->in);
        r->progress = part_progress;
        r->progress_user = p;
    }
    return 0;
}

static void part_close(part *p)
{
    if (p->seg.carry && p->run->s->free_carry)
        p->run->s->free_carry(p->seg.carry);
    p->seg.carry = NULL;
    kept_free(&p->k);
    tc_input_close(p->in);
    p->in = NULL;
}

static void *part_run(void *arg)
{
    part *p = arg;
    p->run->s->parse(tc_input_reader(p->in), &p->ctx, &p->seg);
    return NULL;
}

/* Whether a segment's parse was cut short by the machine rather than the
 * input: its findings cannot stand for the file's then. */
static int part_failed(part *p)
{
    return p->k.oom || tc_input_reader(p->in)->failed;
}

/* What a sink kept and counted into the input's sink; the numbers in the
 * contexts from base (rebase: NULL when they have none). */
static void replay_sink(const kept *k, const tc_diag_sink *from, tc_diag_sink *to,
                        void (*rebase)(char *, size_t, uint64_t), uint64_t base)
{
    uint64_t replayed[TC_RULE__COUNT] = {0};
    for (size_t i = 0; i < k->n; i++) {
        tc_diag d = k->v[i];
        char context[256];
        if (d.context && rebase && base) {
            strncpy(context, d.context, sizeof context - 1);
            context[sizeof context - 1] = '\0';
            rebase(context, sizeof context, base);
            d.context = context;
        }
        replayed[d.rule - tc_rules]++;
        tc_diag_replay(to, &d);
    }
    tc_diag_absorb(to, from, replayed);
}

static void replay(split_run *u, part *p, tc_diag_sink *to, uint64_t base)
{
    replay_sink(&p->k, &p->d, to, u->s->rebase, base);
}

/* The parts of a file of size bytes, each with a reader of its own.
 * Returns how many could be opened. */
static size_t open_parts(split_run *u, tc_input *in, const tc_parse_ctx *ctx, uint64_t size,
                         size_t want)
{
    size_t n = 0;
    while (n < want && part_open(u, &u->parts[n], in, ctx) == 0)
        n++;
    for (size_t i = 0; i < n; i++) {
        tc_split_seg *s = &u->parts[i].seg;
        s->start = i == 0 ? 0 : (uint64_t)((unsigned __int128)size * i / n);
        s->exact = i == 0;
        s->stop = i + 1 < n ? (uint64_t)((unsigned __int128)size * (i + 1) / n) : TC_SPLIT_NONE;
        s->began = s->ended = TC_SPLIT_NONE;
    }
    return n;
}

int tc_split_check(tc_input *in, const tc_format_split *s, const tc_parse_ctx *ctx,
                   unsigned threads, uint64_t min_segment, tc_split_stats *stats)
{
    if (stats)
        memset(stats, 0, sizeof *stats);
    uint64_t size = tc_input_size(in);
    tc_reader *r = tc_input_reader(in);
    if (!min_segment)
        min_segment = TC_SPLIT_DEFAULT_MIN;
    if (size == UINT64_MAX || threads < 2 || tc_pos(r) != 0 || size / min_segment < 2)
        return -1;
    if (s->one_thread && s->one_thread(ctx->options))
        return -1;
    uint64_t want = size / min_segment < threads ? size / min_segment : threads;
    split_run u = {.s = s, .progress = r->progress, .progress_user = r->progress_user};
    /* One more part than segments: the one that resumes after a mismatch. */
    u.parts = calloc((size_t)want + 1, sizeof *u.parts);
    if (!u.parts || pthread_mutex_init(&u.lock, NULL) != 0) {
        free(u.parts);
        return -1;
    }
    u.n = open_parts(&u, in, ctx, size, (size_t)want);
    int status = -1;
    void *state = NULL; /* what the segments joined so far leave (join) */
    if (u.n < 2)
        goto out;
    tc_input_release_window(in); /* threads x window, not one more */
    for (size_t i = 1; i < u.n; i++)
        u.parts[i].started = pthread_create(&u.parts[i].thread, NULL, part_run, &u.parts[i]) == 0;
    part_run(&u.parts[0]);
    for (size_t i = 1; i < u.n; i++) {
        if (u.parts[i].started)
            pthread_join(u.parts[i].thread, NULL);
        else
            part_run(&u.parts[i]); /* no thread: in turn, still correct */
    }
    for (size_t i = 0; i < u.n; i++)
        if (part_failed(&u.parts[i]))
            goto out;
    if (stats)
        stats->segments = (unsigned)u.n;

    /* First which segments stand, in file order, before anything is
     * reported: each must start where the one before stopped (a segment
     * that found no boundary parsed nothing), and, for a format whose state
     * crosses its boundaries, be consistent with the state the ones before
     * left (join). */
    const part *last = NULL;
    size_t last_i = 0;
    int resume = 0;
    for (size_t i = 0; i < u.n; i++) {
        part *p = &u.parts[i];
        if (i > 0 && p->seg.began == TC_SPLIT_NONE)
            continue;
        if (last && last->seg.ended == TC_SPLIT_NONE)
            break; /* the parse ended before this segment */
        if (last && p->seg.began != last->seg.ended) {
            resume = 1;
            break;
        }
        int joined = s->join ? s->join(&state, &p->seg) : 1;
        /* Given up, or the first segment refused (there is no boundary
         * reached to go on from): nothing is reported yet, so one thread
         * from the start. */
        if (joined < 0 || (joined == 0 && !last))
            goto out;
        if (joined == 0) {
            resume = 1;
            break;
        }
        last = p;
        last_i = i;
    }
    if (!resume && last->seg.ended != TC_SPLIT_NONE)
        resume = 1; /* a later segment's boundary was not the next one */

    uint64_t base = 0, end = 0;
    for (size_t i = 0; i <= last_i; i++) {
        part *p = &u.parts[i];
        if (i > 0 && p->seg.began == TC_SPLIT_NONE)
            continue;
        replay(&u, p, ctx->diags, base);
        if (stats)
            stats->joined++;
        base += p->seg.units;
        end = tc_pos(tc_input_reader(p->in));
    }
    if (resume) {
        /* Where the segments part ways: on from the last boundary reached,
         * in the state the segments before left. */
        part *on = &u.parts[u.n];
        if (part_open(&u, on, in, ctx) != 0) {
            tc_diag_fail(ctx->diags, "out of memory for a second reader of the input");
        } else {
            on->seg = (tc_split_seg){.start = last->seg.ended, .exact = 1,
                                     .stop = TC_SPLIT_NONE, .state = state};
            if (stats)
                stats->resumed = 1;
            /* The progress: the segments kept, then this one. */
            pthread_mutex_lock(&u.lock);
            for (size_t i = last_i + 1; i < u.n; i++)
                u.parts[i].done = 0;
            u.n++;
            pthread_mutex_unlock(&u.lock);
            part_run(on);
            if (part_failed(on) && tc_input_reader(on->in)->failed)
                tc_diag_fail(ctx->diags, "%s", tc_input_reader(on->in)->error);
            else if (on->k.oom)
                tc_diag_fail(ctx->diags, "out of memory for the findings of the input");
            replay(&u, on, ctx->diags, base);
            end = tc_pos(tc_input_reader(on->in));
        }
    }
    tc_skip(r, end); /* where one thread's parse would have stopped reading */
    status = 0;
out:
    if (state && s->free_state)
        s->free_state(state);
    for (size_t i = 0; i < u.n; i++)
        part_close(&u.parts[i]);
    pthread_mutex_destroy(&u.lock);
    free(u.parts);
    return status;
}

/* ---- independent tasks ---- */

/* Tasks finished but not yet replayed are at most this many per thread:
 * their findings wait in memory, and a trace of many parts, each with
 * findings up to the cap, must not hold them all at once. */
#define TASKS_AHEAD 4

typedef struct task_run {
    tc_split_task task;
    void *user;
    size_t n;
    size_t next;     /* the next task to take */
    size_t replayed; /* tasks replayed into the input's sink */
    size_t ahead;    /* how far past replayed a task may be taken */
    pthread_mutex_t lock;
    pthread_cond_t changed;
    tc_diag_sink *sinks;
    kept *kept;
    char *done;
} task_run;

static void *task_worker(void *arg)
{
    task_run *t = arg;
    pthread_mutex_lock(&t->lock);
    for (;;) {
        while (t->next < t->n && t->next >= t->replayed + t->ahead)
            pthread_cond_wait(&t->changed, &t->lock);
        if (t->next == t->n)
            break;
        size_t i = t->next++;
        pthread_mutex_unlock(&t->lock);
        t->task(t->user, i, &t->sinks[i]);
        pthread_mutex_lock(&t->lock);
        t->done[i] = 1;
        pthread_cond_broadcast(&t->changed);
    }
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

int tc_split_each(tc_diag_sink *d, size_t n, unsigned threads, tc_split_task task, void *user)
{
    if (threads < 2 || n < 2)
        return -1;
    size_t nthreads = threads < n ? threads : n;
    task_run t = {.task = task, .user = user, .n = n, .ahead = TASKS_AHEAD * nthreads};
    t.sinks = calloc(n, sizeof *t.sinks);
    t.kept = calloc(n, sizeof *t.kept);
    t.done = calloc(n, 1);
    pthread_t *th = calloc(nthreads, sizeof *th);
    size_t started = 0;
    if (t.sinks && t.kept && t.done && th && pthread_mutex_init(&t.lock, NULL) == 0) {
        pthread_cond_init(&t.changed, NULL);
        for (size_t i = 0; i < n; i++)
            tc_diag_init(&t.sinks[i], d->input, d->max_repeats, d->pedantic, keep, &t.kept[i]);
        while (started < nthreads && pthread_create(&th[started], NULL, task_worker, &t) == 0)
            started++;
        if (!started) {
            pthread_cond_destroy(&t.changed);
            pthread_mutex_destroy(&t.lock);
        }
    }
    if (!started) {
        free(t.sinks);
        free(t.kept);
        free(t.done);
        free(th);
        return -1;
    }
    /* This thread replays the parts in order, each as soon as it is done. */
    for (size_t i = 0; i < n; i++) {
        pthread_mutex_lock(&t.lock);
        while (!t.done[i])
            pthread_cond_wait(&t.changed, &t.lock);
        pthread_mutex_unlock(&t.lock);
        if (t.kept[i].oom)
            tc_diag_fail(d, "out of memory for the findings of the input");
        replay_sink(&t.kept[i], &t.sinks[i], d, NULL, 0);
        kept_free(&t.kept[i]);
        pthread_mutex_lock(&t.lock);
        t.replayed = i + 1;
        pthread_cond_broadcast(&t.changed);
        pthread_mutex_unlock(&t.lock);
    }
    for (size_t i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    pthread_cond_destroy(&t.changed);
    pthread_mutex_destroy(&t.lock);
    free(t.sinks);
    free(t.kept);
    free(t.done);
    free(th);
    return 0;
}
