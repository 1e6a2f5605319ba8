#define _POSIX_C_SOURCE 200809L /* mkdir, opendir */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ovni_gen.h"
#include "ovni_mutate.h"
#include "ovni_synth.h"

/* Bytes of a stream held before they are written out: memory does not grow
 * with the stream (a mutation's 2 MiB jumbo event aside). */
#define CHUNK (1u << 20)

typedef struct out {
    ovni_sink sink;
    tc_error *err; /* the first failure */
    int failed;
    ovni_gen_stats st;
    char path[4096];     /* the current stream's directory (disk) */
    FILE *f;             /* its stream.obs (disk) */
    ovni_mem_stream *ms; /* it (memory) */
    tc_bytebuf buf;      /* its bytes not written out yet */
    uint64_t flushed;    /* its bytes written out before buf */
} out;

static void fail(out *o, const char *what, const char *path)
{
    if (!o->failed)
        tc_error_set(o->err, "gen", "%s %s: %s", what, path, strerror(errno));
    o->failed = 1;
}

/* ---- memory ---- */

const uint8_t *ovni_mem_payload(const ovni_mem_stream *s, const ovni_mem_event *e)
{
    return s->pool.p ? s->pool.p + e->payload_at : NULL;
}

void ovni_mem_trace_free(ovni_mem_trace *t)
{
    for (size_t i = 0; i < t->n; i++) {
        tc_bb_free(&t->streams[i].json);
        tc_bb_free(&t->streams[i].obs);
        tc_bb_free(&t->streams[i].pool);
        free(t->streams[i].events);
    }
    free(t->streams);
    memset(t, 0, sizeof *t);
}

static void record(out *o, const ovni_ev *ev)
{
    ovni_mem_stream *s = o->ms;
    if (s->nevents == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        ovni_mem_event *e = realloc(s->events, s->cap * sizeof *e);
        if (!e) {
            fputs("tracecheck: out of memory\n", stderr);
            abort();
        }
        s->events = e;
    }
    ovni_mem_event *e = &s->events[s->nevents++];
    e->offset = o->flushed + o->buf.len;
    e->ev = *ev;
    e->ev.payload = NULL;
    e->payload_at = s->pool.len;
    tc_bb_append(&s->pool, ev->payload, ev->len);
}

/* ---- directories and files ---- */

static int make_dir(out *o, const char *path)
{
    if (mkdir(path, 0777) == 0 || errno == EEXIST)
        return 0;
    fail(o, "cannot create directory", path);
    return -1;
}

/* mkdir -p */
static int make_dirs(out *o, const char *path)
{
    char p[4096];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            if (make_dir(o, p) != 0)
                return -1;
            *s = '/';
        }
    return make_dir(o, p);
}

/* The trace's directory: created, or empty already (no mixing with an
 * earlier trace's streams). */
static int prepare_root(out *o, const char *dir, int *made)
{
    DIR *d = opendir(dir);
    if (!d) {
        if (errno != ENOENT) {
            fail(o, "cannot open", dir);
            return -1;
        }
        *made = 1;
        return make_dirs(o, dir);
    }
    struct dirent *e;
    int empty = 1;
    while (empty && (e = readdir(d)) != NULL)
        empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
    closedir(d);
    if (!empty) {
        tc_error_set(o->err, "gen", "%s is not empty: write a trace into a new directory", dir);
        o->failed = 1;
        return -1;
    }
    return 0;
}

static int write_file(out *o, const char *name, const uint8_t *p, size_t n)
{
    char path[4096 + 16];
    snprintf(path, sizeof path, "%s/%s", o->path, name);
    FILE *f = fopen(path, "wb");
    if (!f || (n && fwrite(p, 1, n, f) != n)) {
        fail(o, "cannot write", path);
        if (f)
            fclose(f);
        return -1;
    }
    if (fclose(f) != 0) {
        fail(o, "cannot write", path);
        return -1;
    }
    o->st.bytes += n;
    return 0;
}

/* ---- a stream ---- */

/* After a failure: removes what was written (the stream files, then the
 * directories, which rmdir leaves when something else is in them). */
static void undo(const ovni_sink *sink, const ovni_plan *pl, int made_root)
{
    char path[4096 + 16], rel[200];
    for (size_t i = 0; i < pl->n; i++) {
        ovni_plan_rel(pl, i, rel, sizeof rel);
        snprintf(path, sizeof path, "%s/%s/stream.json", sink->dir, rel);
        remove(path);
        snprintf(path, sizeof path, "%s/%s/stream.obs", sink->dir, rel);
        remove(path);
        for (int up = 0; up < 3; up++) { /* thread, process and loom directories */
            snprintf(path, sizeof path, "%s/%s", sink->dir, rel);
            for (int k = 0; k < up; k++)
                *strrchr(path, '/') = '\0';
            remove(path);
        }
    }
    if (made_root)
        remove(sink->dir);
}

static int begin_stream(out *o, const ovni_plan *pl, size_t i)
{
    char rel[200];
    ovni_plan_rel(pl, i, rel, sizeof rel);
    o->st.streams++;
    o->flushed = 0;
    o->buf.len = 0;
    if (o->sink.mem) {
        ovni_mem_trace *t = o->sink.mem;
        if (t->n == t->cap) {
            t->cap = t->cap ? t->cap * 2 : 16;
            ovni_mem_stream *s = realloc(t->streams, t->cap * sizeof *s);
            if (!s) {
                fputs("tracecheck: out of memory\n", stderr);
                abort();
            }
            t->streams = s;
        }
        ovni_mem_stream *s = o->ms = &t->streams[t->n++];
        memset(s, 0, sizeof *s);
        const ovni_stream_plan *sp = &pl->streams[i];
        snprintf(s->rel, sizeof s->rel, "%s", rel);
        snprintf(s->loom, sizeof s->loom, "%s", pl->looms[sp->loom].name);
        s->pid = sp->pid;
        s->tid = sp->tid;
        s->big_endian = sp->big_endian;
        return 0;
    }
    snprintf(o->path, sizeof o->path, "%s/%s", o->sink.dir, rel);
    return make_dirs(o, o->path);
}

static void put_json(out *o, const tc_bytebuf *text)
{
    if (o->ms) {
        o->ms->has_json = 1;
        tc_bb_append(&o->ms->json, text->p, text->len);
        o->st.bytes += text->len;
    } else {
        write_file(o, "stream.json", text->p, text->len);
    }
}

static int open_obs(out *o)
{
    if (o->ms) {
        o->ms->has_obs = 1;
        return 0;
    }
    char path[4096 + 16];
    snprintf(path, sizeof path, "%s/stream.obs", o->path);
    if (!(o->f = fopen(path, "wb"))) {
        fail(o, "cannot write", path);
        return -1;
    }
    return 0;
}

static void obs_failed(out *o)
{
    char path[4096 + 16];
    snprintf(path, sizeof path, "%s/stream.obs", o->path);
    fail(o, "cannot write", path);
}

static void flush_obs(out *o)
{
    if (o->buf.len == 0)
        return;
    if (o->ms)
        tc_bb_append(&o->ms->obs, o->buf.p, o->buf.len);
    else if (o->f && fwrite(o->buf.p, 1, o->buf.len, o->f) != o->buf.len)
        obs_failed(o);
    o->flushed += o->buf.len;
    o->st.bytes += o->buf.len;
    o->buf.len = 0;
}

static void close_obs(out *o)
{
    flush_obs(o);
    if (o->f && fclose(o->f) != 0)
        obs_failed(o);
    o->f = NULL;
}

void ovni_emit(ovni_emitter *em, const ovni_ev *ev)
{
    out *o = em->driver;
    if (o->buf.len >= CHUNK)
        flush_obs(o);
    em->last_at = o->buf.len;
    if (o->ms)
        record(o, ev);
    ovni_write_event(&o->buf, ev, em->be);
    if (ev->clock < TC_OVNI_CLOCK_LIMIT)
        em->last_clock = ev->clock;
    o->st.events++;
}

static void write_metadata(out *o, const ovni_plan *pl, size_t i, ovni_mutation *mu)
{
    const ovni_mutator *m = mu && mu->victim == i ? mu->m : NULL;
    ovni_json *root = ovni_plan_metadata(pl, i);
    if (m && m->meta)
        root = m->meta(mu, pl, root);
    ovni_json_style style;
    ovni_plan_style(pl, i, &style);
    tc_bytebuf text = {0};
    ovni_json_write(&text, root, &style);
    if (m && m->json)
        m->json(mu, root, &text);
    put_json(o, &text);
    tc_bb_free(&text);
    ovni_json_free(root);
}

static void write_events(out *o, const ovni_plan *pl, size_t i, ovni_mutation *mu, tc_rng *rng)
{
    const ovni_mutator *m = mu && mu->victim == i ? mu->m : NULL;
    const ovni_stream_plan *sp = &pl->streams[i];
    if (open_obs(o) != 0)
        return;
    ovni_emitter em = {.plan = pl, .stream = i, .bytes = &o->buf, .last_at = SIZE_MAX,
                       .be = sp->big_endian, .driver = o};
    ovni_write_header(&o->buf, sp->big_endian);
    if (m && m->header)
        m->header(mu, &em);
    ovni_synth *s = em.stop ? NULL : ovni_synth_new(pl, i, rng);
    if (!s && !em.stop && !o->failed) {
        tc_error_set(o->err, "gen", "out of memory");
        o->failed = 1;
    }
    ovni_ev ev;
    if (s && !(m && m->event)) {
        while (ovni_synth_next(s, &ev))
            ovni_emit(&em, &ev);
    } else if (s) {
        for (;;) {
            ovni_view before = *ovni_synth_view(s);
            if (!ovni_synth_next(s, &ev))
                break;
            em.st = &before;
            em.first = before.events == 0;
            em.drop = 0;
            m->event(mu, &em, &ev);
            if (em.stop)
                break;
            if (!em.drop)
                ovni_emit(&em, &ev);
        }
    }
    if (s && !em.stop && m && m->end) {
        em.st = ovni_synth_view(s);
        em.first = 0;
        m->end(mu, &em);
    }
    ovni_synth_free(s);
    close_obs(o);
}

int ovni_generate(const ovni_gen_params *p, int violate, tc_rng *choices, ovni_sink sink,
                  ovni_gen_stats *stats, tc_error *err)
{
    out o = {.sink = sink, .err = err};
    const ovni_mutator *m = NULL;
    if (violate >= 0 && !(m = ovni_mutator_for((tc_rule_id)violate))) {
        tc_error_set(err, "gen", "%s has no ovni mutator", tc_rules[violate].id);
        return -1;
    }
    if (!sink.dir && !sink.mem) {
        tc_error_set(err, "gen", "no output");
        return -1;
    }
    tc_rng seeded;
    tc_rng *plan_rng = choices;
    if (!choices) {
        tc_rng_seed(&seeded, p->seed);
        plan_rng = &seeded;
    }
    ovni_plan *pl = ovni_plan_new(p, plan_rng);
    if (!pl) {
        tc_error_set(err, "gen",
                     "shape %u looms x %u processes x %u threads: use 1 to %u looms, "
                     "%u processes, %u threads, %u streams in all",
                     p->looms, p->procs, p->threads, OVNI_MAX_LOOMS, OVNI_MAX_PROCS,
                     OVNI_MAX_THREADS, OVNI_MAX_STREAMS);
        return -1;
    }
    /* Mutations draw from their own stream, so the trace they start from is
     * the valid trace of the same seed. */
    tc_rng mrng;
    tc_rng_seed(&mrng, p->seed ^ 0x6d75746174696f6eull);
    ovni_mutation mu = {.m = m, .rng = &mrng};
    if (m && !m->plan(&mu, pl)) {
        tc_error_set(err, "gen", "could not break %s in this trace: %s", tc_rules[violate].id,
                     mu.why[0] ? mu.why : "no stream offers a place");
        ovni_plan_free(pl);
        return -1;
    }
    int made_root = 0;
    if (sink.dir && prepare_root(&o, sink.dir, &made_root) != 0) {
        ovni_plan_free(pl);
        return -1;
    }
    for (size_t i = 0; i < pl->n && !o.failed; i++) {
        const ovni_stream_plan *sp = &pl->streams[i];
        if (begin_stream(&o, pl, i) != 0)
            break;
        if (pl->dirs_only)
            continue;
        if (!sp->no_json)
            write_metadata(&o, pl, i, m ? &mu : NULL);
        if (!sp->no_obs) {
            tc_rng srng, *rng = choices;
            if (!choices) {
                tc_rng_seed(&srng, p->seed ^ ((uint64_t)(i + 1) * 0xd1b54a32d192ed03ull));
                rng = &srng;
            }
            write_events(&o, pl, i, m ? &mu : NULL, rng);
        }
    }
    if (!o.failed && m && !mu.applied) {
        tc_error_set(err, "gen",
                     "could not break %s in this trace; try a larger --size or another "
                     "--seed",
                     tc_rules[violate].id);
        o.failed = 1;
    }
    if (o.failed && sink.dir)
        undo(&sink, pl, made_root);
    if (stats)
        *stats = o.st;
    tc_bb_free(&o.buf);
    ovni_plan_free(pl);
    return o.failed ? -1 : 0;
}
