#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/ovni/ovni_meta.h"
#include "ovni_plan.h"
#include "../common/xalloc.h"

static const char *const host_names[] = {"mio", "node", "cn", "s02r1b", "gpu", "login", "amd",
                                         "knl"};
static const char *const loom_suffixes[] = {"", ".nosv-u1000", ".bsc.es", "-ib0", "_a"};
/* A version of model m that its emulator accepts: its own, or now and then
 * a lower minor or patch (ovni.require asks for at least that much). */
static void model_version(tc_ovni_model_id m, unsigned pick, char *buf, size_t size)
{
    int64_t v[3];
    const char *have = tc_ovni_model_table[m].version;
    tc_ovni_version_parse(have, strlen(have), v);
    if (pick == 1 && v[2] > 0)
        v[2]--;
    else if (pick == 2 && v[1] > 0)
        v[1]--;
    snprintf(buf, size, "%lld.%lld.%lld", (long long)v[0], (long long)v[1], (long long)v[2]);
}

/* The loom's CPUs: phyids as an operating system numbers them (from 0, with
 * an offset and stride, or scattered), indexes 0..N-1 in phyid order or
 * shuffled. */
static void make_cpus(ovni_loom *l, tc_rng *r)
{
    size_t n = tc_rng_chance(r, 1, 8) ? (size_t)tc_rng_range(r, 17, 128)
                                      : (size_t)tc_rng_range(r, 1, 16);
    l->cpus = tc_gen_xcalloc(n, sizeof *l->cpus);
    l->ncpus = n;
    unsigned how = (unsigned)tc_rng_below(r, 4);
    int64_t offset = (int64_t)tc_rng_below(r, 2 * n), stride = (int64_t)tc_rng_range(r, 1, 2);
    int64_t phyid = how == 3 ? (int64_t)tc_rng_below(r, 4) : 0;
    for (size_t i = 0; i < n; i++) {
        if (how <= 1)
            l->cpus[i].phyid = (int64_t)i; /* the usual: 0..N-1 */
        else if (how == 2)
            l->cpus[i].phyid = offset + stride * (int64_t)i;
        else
            l->cpus[i].phyid = (phyid += (int64_t)tc_rng_range(r, 1, 5));
    }
    for (size_t i = 0; i < n; i++)
        l->cpus[i].index = (int64_t)i;
    if (tc_rng_chance(r, 1, 4)) /* indexes not in phyid order: swap phyids around */
        for (size_t i = n; i > 1; i--) {
            size_t j = (size_t)tc_rng_below(r, i);
            int64_t t = l->cpus[i - 1].phyid;
            l->cpus[i - 1].phyid = l->cpus[j].phyid;
            l->cpus[j].phyid = t;
        }
}

/* A list of the loom's CPUs: all of them (in index order or shuffled) or a
 * non-empty subset (arrays of a loom are merged). */
static void give_cpus(ovni_stream_plan *s, const ovni_loom *l, int all, tc_rng *r)
{
    s->has_cpus = 1;
    s->cpus = tc_gen_xcalloc(l->ncpus, sizeof *s->cpus);
    s->ncpus = 0;
    for (size_t i = 0; i < l->ncpus; i++)
        if (all || tc_rng_chance(r, 1, 2))
            s->cpus[s->ncpus++] = l->cpus[i];
    if (s->ncpus == 0)
        s->cpus[s->ncpus++] = l->cpus[tc_rng_below(r, l->ncpus)];
    if (tc_rng_chance(r, 1, 4))
        for (size_t i = s->ncpus; i > 1; i--) {
            size_t j = (size_t)tc_rng_below(r, i);
            ovni_cpu t = s->cpus[i - 1];
            s->cpus[i - 1] = s->cpus[j];
            s->cpus[j] = t;
        }
}

static ovni_stream_plan *push_stream(ovni_plan *pl)
{
    if (pl->n == pl->cap) {
        pl->cap = pl->cap ? pl->cap * 2 : 16;
        ovni_stream_plan *s = realloc(pl->streams, pl->cap * sizeof *s);
        if (!s) {
            fputs("tracecheck: out of memory\n", stderr);
            abort();
        }
        pl->streams = s;
    }
    ovni_stream_plan *s = &pl->streams[pl->n++];
    memset(s, 0, sizeof *s);
    return s;
}

static void budgets(ovni_plan *pl, tc_rng *r)
{
    uint64_t *w = tc_gen_xcalloc(pl->n, sizeof *w), total = 0;
    for (size_t i = 0; i < pl->n; i++)
        total += w[i] = tc_rng_range(r, 1, 8);
    for (size_t i = 0; i < pl->n; i++) {
        /* size * w / total without overflow for sizes up to 2^64 / 8 */
        uint64_t b = pl->p.size / total * w[i] + pl->p.size % total * w[i] / total;
        pl->streams[i].budget = b > OVNI_MIN_STREAM ? b : OVNI_MIN_STREAM;
    }
    free(w);
}

ovni_plan *ovni_plan_new(const ovni_gen_params *p, tc_rng *r)
{
    if (p->looms < 1 || p->procs < 1 || p->threads < 1 || p->looms > OVNI_MAX_LOOMS ||
        p->procs > OVNI_MAX_PROCS || p->threads > OVNI_MAX_THREADS ||
        (uint64_t)p->looms * p->procs * p->threads > OVNI_MAX_STREAMS)
        return NULL;
    ovni_plan *pl = tc_gen_xcalloc(1, sizeof *pl);
    pl->p = *p;
    pl->nlooms = p->looms;
    pl->looms = tc_gen_xcalloc(p->looms, sizeof *pl->looms);
    snprintf(pl->lib_version, sizeof pl->lib_version, "1.%u.%u", (unsigned)tc_rng_range(r, 10, 14),
             (unsigned)tc_rng_below(r, 3));
    snprintf(pl->lib_commit, sizeof pl->lib_commit, "%07llx",
             (unsigned long long)tc_rng_below(r, 1ull << 28));
    /* Ranks: always when a loom has several processes, for most runs of
     * several looms, now and then for one process (a run of one rank). */
    uint64_t nprocs = (uint64_t)p->looms * p->procs;
    int mpi = p->procs > 1 || tc_rng_chance(r, nprocs > 1 ? 3 : 1, 4);
    uint64_t clock = tc_rng_range(r, 1ull << 30, 1ull << 50);
    const char *host = host_names[tc_rng_below(r, sizeof host_names / sizeof host_names[0])];
    const char *suffix =
        loom_suffixes[tc_rng_below(r, sizeof loom_suffixes / sizeof loom_suffixes[0])];
    int64_t pid_base = (int64_t)tc_rng_range(r, 2, 4000000);

    for (unsigned l = 0; l < p->looms; l++) {
        ovni_loom *lo = &pl->looms[l];
        snprintf(lo->name, sizeof lo->name, "%s%02u%s", host, l, suffix);
        make_cpus(lo, r);
        size_t first = pl->n;
        /* Processes of different looms may share pids (other machines). */
        int64_t pid = tc_rng_chance(r, 1, 4) ? pid_base : (int64_t)tc_rng_range(r, 2, 4000000);
        for (unsigned pr = 0; pr < p->procs; pr++) {
            uint64_t global = (uint64_t)l * p->procs + pr;
            /* By default some models: nOS-V in most processes, each other
             * one in half of them; ovni's own alone now and then. */
            unsigned allowed = (p->models ? p->models : OVNI_USES_ALL) & OVNI_USES_ALL, uses = 0;
            for (int m = 0; m < TC_OVNI_M__COUNT; m++)
                if ((allowed & OVNI_USES(m)) &&
                    tc_rng_chance(r, m == TC_OVNI_M_NOSV && global == 0 ? 4 : 2, 4))
                    uses |= OVNI_USES(m);
            if (global > 0 && tc_rng_chance(r, 1, 6))
                uses = 0;
            /* Asked for by name (--models): every process writes each. */
            if (p->models)
                uses = allowed;
            /* Now and then a model required without events. */
            const char *also = NULL;
            if (tc_rng_chance(r, 1, 8)) {
                int m = 1 + (int)tc_rng_below(r, TC_OVNI_M__COUNT - 1);
                if (!(uses & OVNI_USES(m)) && (allowed & OVNI_USES(m)))
                    also = tc_ovni_model_table[m].name;
            }
            int unknown = tc_rng_chance(r, 1, 10);
            int64_t app_id = tc_rng_chance(r, 3, 4) ? (int64_t)global + 1
                                                     : (int64_t)tc_rng_range(r, 1, 1000);
            unsigned rank_mode = (unsigned)tc_rng_below(r, 3); /* all, all, first only */
            int64_t tid = pid;
            for (unsigned t = 0; t < p->threads; t++) {
                ovni_stream_plan *s = push_stream(pl);
                s->loom = l;
                s->proc = pr;
                s->thread = t;
                s->pid = pid;
                s->tid = tid;
                tid += (int64_t)tc_rng_range(r, 1, 40);
                /* libovni writes app_id and lib into every thread's
                 * metadata (src/rt/ovni.c, thread_metadata_populate), and
                 * its emulator refuses a process without app_id and a
                 * thread without lib: the cases that leave them out, which
                 * the rulings allow, are made by hand. */
                s->has_app_id = 1;
                s->app_id = app_id;
                s->has_rank = mpi && (rank_mode < 2 || t == 0);
                s->rank = (int64_t)global;
                s->nranks = (int64_t)nprocs;
                s->uses = uses;
                if (also)
                    snprintf(s->also_requires, sizeof s->also_requires, "%s", also);
                s->unknown_model = unknown;
                s->has_lib = 1;
                s->has_marks = tc_rng_chance(r, 1, 2);
                s->section = (uses & OVNI_USES_NOSV) && tc_rng_chance(r, 3, 4);
                s->unicode = tc_rng_chance(r, 1, 8);
                s->section |= s->unicode;
                s->style = (unsigned)tc_rng_below(r, 16);
                s->big_endian = p->mixed_byte_order ? tc_rng_chance(r, 1, 2) : p->big_endian;
                snprintf(s->dir[0], sizeof s->dir[0], "loom.%s", lo->name);
                snprintf(s->dir[1], sizeof s->dir[1], "proc.%lld", (long long)pid);
                snprintf(s->dir[2], sizeof s->dir[2], "thread.%lld", (long long)s->tid);
                s->clock0 = clock + tc_rng_below(r, 1000000);
                if (p->start_spread) /* no draw otherwise: the same plans as before */
                    s->clock0 += tc_rng_below(r, p->start_spread < OVNI_MAX_START_SPREAD
                                                     ? p->start_spread
                                                     : OVNI_MAX_START_SPREAD);
            }
            pid += (int64_t)tc_rng_range(r, 1, 5000);
        }
        /* The CPU list: one primary carrier with all of it, and now and then
         * other threads with all or part of it. */
        size_t count = pl->n - first;
        size_t primary = first + (size_t)tc_rng_below(r, count);
        for (size_t i = first; i < pl->n; i++) {
            ovni_stream_plan *s = &pl->streams[i];
            if (i == primary) {
                s->primary = 1;
                give_cpus(s, lo, 1, r);
                if (!tc_rng_chance(r, 1, 4)) /* libovni writes them in index order */
                    memcpy(s->cpus, lo->cpus, lo->ncpus * sizeof *s->cpus);
            } else if (tc_rng_chance(r, 1, 5)) {
                give_cpus(s, lo, tc_rng_chance(r, 1, 2), r);
            }
        }
    }
    budgets(pl, r);
    return pl;
}

void ovni_plan_free(ovni_plan *pl)
{
    if (!pl)
        return;
    for (size_t i = 0; i < pl->nlooms; i++)
        free(pl->looms[i].cpus);
    for (size_t i = 0; i < pl->n; i++)
        free(pl->streams[i].cpus);
    free(pl->looms);
    free(pl->streams);
    free(pl);
}

size_t ovni_plan_add_thread(ovni_plan *pl, size_t like, int64_t tid, const char *thread_dir)
{
    ovni_stream_plan copy = pl->streams[like];
    ovni_stream_plan *s = push_stream(pl);
    *s = copy;
    s->tid = tid;
    s->thread = 0;
    s->has_cpus = 0;
    s->cpus = NULL;
    s->ncpus = 0;
    s->primary = 0;
    s->no_json = s->no_obs = 0;
    s->budget = OVNI_MIN_STREAM;
    /* Not on the CPUs of the stream it copies: two threads on one CPU at
     * once are an error of their own (OVNI-CPU-SHARED). */
    s->cpu_mode = OVNI_CPU_VIRTUAL;
    s->mark_style = s->hwc_style = 0;
    snprintf(s->dir[2], sizeof s->dir[2], "%s", thread_dir);
    return pl->n - 1;
}

void ovni_plan_rel(const ovni_plan *pl, size_t i, char *buf, size_t size)
{
    const ovni_stream_plan *s = &pl->streams[i];
    snprintf(buf, size, "%s/%s/%s", s->dir[0], s->dir[1], s->dir[2]);
}

/* ---- metadata ---- */

static ovni_json *add_int(ovni_json *o, const char *key, int64_t v)
{
    return ovni_json_add(o, key, ovni_json_text("%lld", (long long)v));
}

ovni_json *ovni_plan_metadata(const ovni_plan *pl, size_t i)
{
    const ovni_stream_plan *s = &pl->streams[i];
    ovni_json *root = ovni_json_object();
    add_int(root, "version", 3);
    ovni_json *o = ovni_json_add(root, "ovni", ovni_json_object());
    if (s->has_lib) {
        ovni_json *lib = ovni_json_add(o, "lib", ovni_json_object());
        ovni_json_add(lib, "version", ovni_json_string(pl->lib_version));
        ovni_json_add(lib, "commit", ovni_json_string(pl->lib_commit));
    }
    ovni_json_add(o, "part", ovni_json_string("thread"));
    add_int(o, "tid", s->tid);
    add_int(o, "pid", s->pid);
    ovni_json_add(o, "loom", ovni_json_string(pl->looms[s->loom].name));
    if (s->has_app_id)
        add_int(o, "app_id", s->app_id);
    if (s->has_rank) {
        add_int(o, "rank", s->rank);
        add_int(o, "nranks", s->nranks);
    }
    ovni_json *req = ovni_json_add(o, "require", ovni_json_object());
    ovni_json_add(req, "ovni", ovni_json_string("1.1.0"));
    unsigned required = s->uses & ~s->unrequired;
    for (int m = 1; m < TC_OVNI_M__COUNT; m++) {
        const char *name = tc_ovni_model_table[m].name;
        if (!(required & OVNI_USES(m)) && strcmp(s->also_requires, name) != 0)
            continue;
        char version[32];
        model_version((tc_ovni_model_id)m, (unsigned)((s->tid + m) % 4), version, sizeof version);
        ovni_json_add(req, name, ovni_json_string(version));
    }
    if (s->unknown_model)
        ovni_json_add(req, "x_counters", ovni_json_string("0.3.12"));
    if (s->has_marks) {
        char single_key[8], stack_key[8];
        snprintf(single_key, sizeof single_key, "%d", OVNI_MARK_SINGLE);
        snprintf(stack_key, sizeof stack_key, "%d", OVNI_MARK_STACK);
        ovni_json *mark = ovni_json_add(o, "mark", ovni_json_object());
        ovni_json *single = ovni_json_add(mark, single_key, ovni_json_object());
        ovni_json_add(single, "title", ovni_json_string("Iteration"));
        ovni_json_add(single, "chan_type", ovni_json_string("single"));
        ovni_json *labels = ovni_json_add(single, "labels", ovni_json_object());
        ovni_json_add(labels, "1", ovni_json_string("warm-up"));
        ovni_json_add(labels, "2", ovni_json_string("steady"));
        ovni_json *stack = ovni_json_add(mark, stack_key, ovni_json_object());
        ovni_json_add(stack, "title", ovni_json_string(s->mark_style == 2 ? "Phase B" : "Phase"));
        ovni_json_add(stack, "chan_type", ovni_json_string("stack"));
        if (s->mark_style == 1) {
            ovni_json *broken = ovni_json_add(mark, "3", ovni_json_object());
            ovni_json_add(broken, "title", ovni_json_string("Queue depth"));
            ovni_json_add(broken, "chan_type", ovni_json_string("queue"));
        }
    }
    if (s->has_cpus) {
        ovni_json *cpus = ovni_json_add(o, "loom_cpus", ovni_json_array());
        for (size_t c = 0; c < s->ncpus; c++) {
            ovni_json *e = ovni_json_add(cpus, NULL, ovni_json_object());
            add_int(e, "index", s->cpus[c].index);
            add_int(e, "phyid", s->cpus[c].phyid);
        }
    }
    add_int(o, "finished", 1);
    ovni_json *nosv = NULL;
    if (s->section) {
        ovni_json *sec = ovni_json_add(root, (s->uses & OVNI_USES_NOSV) ? "nosv" : "x_tracer",
                                       ovni_json_object());
        if (s->uses & OVNI_USES_NOSV)
            nosv = sec;
        ovni_json_add(sec, "can_breakdown", ovni_json_text(s->tid & 1 ? "true" : "false"));
        ovni_json_add(sec, "lib_version", ovni_json_string("2.6.1"));
        if (s->unicode) /* valid UTF-8 and escapes: a strict reader must take them */
            ovni_json_add(sec, "label", ovni_json_text("\"caf\xc3\xa9 \xe2\x9c\x93 \\u00e9\\n\\\" "
                                                       "\xf0\x9f\x9a\x80\""));
        ovni_json_add(sec, "queues", ovni_json_text("[1, 2.5, -3e2, null]"));
    }
    if (s->hwc_style) {
        if (!nosv)
            nosv = ovni_json_add(root, "nosv", ovni_json_object());
        ovni_json *hwc = ovni_json_add(nosv, "hwc", ovni_json_object());
        static const char *const names[] = {"PAPI_TOT_INS", "PAPI_TOT_CYC"};
        int counters = s->hwc_style == 3 ? 2 : 1;
        for (int c = 0; c < counters; c++) {
            char key[4];
            snprintf(key, sizeof key, "%d", c);
            ovni_json *counter = ovni_json_add(hwc, key, ovni_json_object());
            ovni_json_add(counter, s->hwc_style == 1 ? "label" : "name",
                          ovni_json_string(names[c]));
        }
    }
    return root;
}

void ovni_plan_style(const ovni_plan *pl, size_t i, ovni_json_style *st)
{
    unsigned s = pl->streams[i].style;
    memset(st, 0, sizeof *st);
    if (s < 8) {
        st->indent = "    "; /* as libovni's JSON library lays it out */
        st->newline = "\n";
    } else if (s < 10) {
        st->indent = "  ";
        st->newline = "\n";
    } else if (s == 10) {
        st->indent = "\t";
        st->newline = "\r\n";
    } else {
        st->spaces = s < 13;
    }
}

/* ---- questions ---- */

size_t ovni_plan_loom_streams(const ovni_plan *pl, unsigned loom)
{
    size_t n = 0;
    for (size_t i = 0; i < pl->n; i++)
        n += pl->streams[i].loom == loom;
    return n;
}

size_t ovni_plan_process_streams(const ovni_plan *pl, size_t i)
{
    size_t n = 0;
    const ovni_stream_plan *s = &pl->streams[i];
    for (size_t k = 0; k < pl->n; k++)
        n += pl->streams[k].loom == s->loom && pl->streams[k].pid == s->pid;
    return n;
}

int ovni_plan_excludable(const ovni_plan *pl, size_t i)
{
    const ovni_stream_plan *s = &pl->streams[i];
    return !s->primary || ovni_plan_loom_streams(pl, s->loom) == 1;
}

int ovni_plan_cpus_losable(const ovni_plan *pl, size_t i)
{
    const ovni_stream_plan *s = &pl->streams[i];
    if (!s->primary)
        return 1;
    size_t carriers = 0;
    for (size_t k = 0; k < pl->n; k++)
        carriers += pl->streams[k].loom == s->loom && pl->streams[k].has_cpus;
    return carriers == 1;
}
