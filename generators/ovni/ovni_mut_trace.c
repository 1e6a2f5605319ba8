/*
 * Mutators of a trace as a whole: the files of a stream, directory names,
 * and the values the checks across streams compare (per-process values,
 * thread ids, the CPU lists of a loom). They edit the plan before anything
 * is written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovni_mutate.h"

#define R(name) TC_RULE_##name
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define PICK(mu, a) ((a)[tc_rng_below((mu)->rng, COUNT(a))])

static int plan_empty(ovni_mutation *mu, ovni_plan *pl)
{
    pl->dirs_only = 1;
    mu->applied = 1;
    return 1;
}

static int plan_no_obs(ovni_mutation *mu, ovni_plan *pl)
{
    ovni_victim_any(mu, pl);
    pl->streams[mu->victim].no_obs = 1;
    mu->applied = 1;
    return 1;
}

static int plan_no_json(ovni_mutation *mu, ovni_plan *pl)
{
    if (!ovni_victim_excludable(mu, pl))
        return 0;
    if (pl->n == 1) {
        /* Another thread, with the loom's CPUs, so that a stream.json is
         * left to tell a trace (and the loom its CPUs). */
        const ovni_stream_plan *s = &pl->streams[0];
        const ovni_loom *l = &pl->looms[s->loom];
        char dir[64];
        int64_t tid = s->tid + (int64_t)tc_rng_range(mu->rng, 1, 100);
        snprintf(dir, sizeof dir, "thread.%lld", (long long)tid);
        ovni_stream_plan *t = &pl->streams[ovni_plan_add_thread(pl, 0, tid, dir)];
        t->cpus = malloc(l->ncpus * sizeof *t->cpus);
        if (!t->cpus)
            abort();
        memcpy(t->cpus, l->cpus, l->ncpus * sizeof *t->cpus);
        t->ncpus = l->ncpus;
        t->has_cpus = 1;
    }
    pl->streams[mu->victim].no_json = 1;
    mu->applied = 1;
    return 1;
}

static int same_process(const ovni_plan *pl, size_t a, size_t b)
{
    return pl->streams[a].loom == pl->streams[b].loom && pl->streams[a].pid == pl->streams[b].pid;
}

/* Another stream of stream v's process, added when it has none. */
static size_t sibling(ovni_mutation *mu, ovni_plan *pl, size_t v)
{
    size_t n = ovni_plan_process_streams(pl, v);
    if (n == 1) {
        int64_t tid = pl->streams[v].tid + (int64_t)tc_rng_range(mu->rng, 1, 100);
        char dir[64];
        snprintf(dir, sizeof dir, "thread.%lld", (long long)tid);
        return ovni_plan_add_thread(pl, v, tid, dir);
    }
    size_t k = (size_t)tc_rng_below(mu->rng, n - 1);
    for (size_t i = 0; i < pl->n; i++)
        if (i != v && same_process(pl, i, v) && k-- == 0)
            return i;
    return v;
}

static int plan_process(ovni_mutation *mu, ovni_plan *pl)
{
    ovni_victim_any(mu, pl);
    size_t v = mu->victim, o = sibling(mu, pl, v);
    ovni_stream_plan *s = &pl->streams[v], *t = &pl->streams[o];
    switch (tc_rng_below(mu->rng, 3)) {
    case 0:
        s->has_app_id = t->has_app_id = 1;
        s->app_id = t->app_id + (int64_t)tc_rng_range(mu->rng, 1, 1000);
        break;
    case 1:
        if (t->nranks < 2) { /* room for another rank: the process's threads all say so */
            int64_t nranks = (int64_t)tc_rng_range(mu->rng, 2, 64);
            for (size_t i = 0; i < pl->n; i++)
                if (same_process(pl, i, v))
                    pl->streams[i].nranks = nranks;
        }
        s->has_rank = t->has_rank = 1;
        int64_t step = (int64_t)tc_rng_range(mu->rng, 1, (uint64_t)t->nranks - 1);
        s->rank = (t->rank + step) % t->nranks;
        break;
    default:
        s->has_rank = t->has_rank = 1;
        s->nranks = t->nranks + (int64_t)tc_rng_range(mu->rng, 1, 10);
        break;
    }
    mu->applied = 1;
    return 1;
}

static int plan_tid(ovni_mutation *mu, ovni_plan *pl)
{
    static const char *const suffixes[] = {".1", "-dup", "_b", ".copy"};
    const char *suffix = PICK(mu, suffixes);
    ovni_victim_any(mu, pl);
    size_t v = mu->victim;
    char dir[64];
    /* A directory name not of libovni's form, so that it does not
     * disagree with the metadata (OVNI-TRACE-DIR-NAME). */
    if (ovni_plan_process_streams(pl, v) == 1) {
        snprintf(dir, sizeof dir, "thread.%lld%s", (long long)pl->streams[v].tid, suffix);
        ovni_plan_add_thread(pl, v, pl->streams[v].tid, dir);
    } else {
        size_t o = sibling(mu, pl, v);
        pl->streams[v].tid = pl->streams[o].tid;
        snprintf(pl->streams[v].dir[2], sizeof pl->streams[v].dir[2], "thread.%lld%s",
                 (long long)pl->streams[v].tid, suffix);
    }
    mu->applied = 1;
    return 1;
}

static int plan_no_cpus(ovni_mutation *mu, ovni_plan *pl)
{
    unsigned l = (unsigned)tc_rng_below(mu->rng, pl->nlooms);
    for (size_t i = 0; i < pl->n; i++)
        if (pl->streams[i].loom == l)
            pl->streams[i].has_cpus = 0;
    mu->victim = 0;
    mu->applied = 1;
    return 1;
}

/* Appends a CPU to stream i's list (which it then has), at a random place. */
static void add_cpu(ovni_mutation *mu, ovni_stream_plan *s, ovni_cpu cpu)
{
    if (!s->has_cpus)
        s->ncpus = 0;
    ovni_cpu *c = realloc(s->cpus, (s->ncpus + 1) * sizeof *c);
    if (!c)
        abort();
    size_t at = (size_t)tc_rng_below(mu->rng, s->ncpus + 1);
    memmove(c + at + 1, c + at, (s->ncpus - at) * sizeof *c);
    c[at] = cpu;
    s->cpus = c;
    s->ncpus++;
    s->has_cpus = 1;
}

static int in_loom(const ovni_plan *pl, size_t i, unsigned l) { return pl->streams[i].loom == l; }

static size_t stream_of_loom(ovni_mutation *mu, const ovni_plan *pl, unsigned l)
{
    size_t k = (size_t)tc_rng_below(mu->rng, ovni_plan_loom_streams(pl, l));
    for (size_t i = 0; i < pl->n; i++)
        if (in_loom(pl, i, l) && k-- == 0)
            return i;
    return 0;
}

static int plan_phyid(ovni_mutation *mu, ovni_plan *pl)
{
    unsigned l = (unsigned)tc_rng_below(mu->rng, pl->nlooms);
    const ovni_loom *lo = &pl->looms[l];
    ovni_cpu c = lo->cpus[tc_rng_below(mu->rng, lo->ncpus)];
    /* A higher index: the merge keeps the lower, right one, so the indexes
     * stay 0..N-1 (OVNI-TRACE-CPU-INDEX otherwise). */
    c.index += (int64_t)tc_rng_range(mu->rng, 1, lo->ncpus + 3);
    mu->victim = stream_of_loom(mu, pl, l);
    add_cpu(mu, &pl->streams[mu->victim], c);
    mu->applied = 1;
    return 1;
}

static int plan_index(ovni_mutation *mu, ovni_plan *pl)
{
    unsigned l = (unsigned)tc_rng_below(mu->rng, pl->nlooms);
    const ovni_loom *lo = &pl->looms[l];
    int64_t n = (int64_t)lo->ncpus;
    size_t carriers = 0, primary = 0;
    for (size_t i = 0; i < pl->n; i++)
        if (in_loom(pl, i, l) && pl->streams[i].has_cpus) {
            carriers++;
            if (pl->streams[i].primary)
                primary = i;
        }
    int64_t index = tc_rng_chance(mu->rng, 1, 2) ? (int64_t)tc_rng_below(mu->rng, (uint64_t)n)
                                                 : n + (int64_t)tc_rng_range(mu->rng, 1, 10);
    if (carriers == 1 && tc_rng_chance(mu->rng, 1, 2)) {
        /* Renumber a CPU of the loom's only list: a repeated index, or one
         * past the end (a gap). */
        ovni_stream_plan *s = &pl->streams[primary];
        size_t k = (size_t)tc_rng_below(mu->rng, s->ncpus);
        if (index < n && index == s->cpus[k].index)
            index = n + (int64_t)tc_rng_below(mu->rng, 10);
        s->cpus[k].index = index;
        mu->victim = primary;
    } else {
        /* A new CPU (a phyid no list has) with a repeated index or a gap. */
        int64_t top = 0;
        for (size_t c = 0; c < lo->ncpus; c++)
            if (lo->cpus[c].phyid > top)
                top = lo->cpus[c].phyid;
        ovni_cpu c = {index, top + (int64_t)tc_rng_range(mu->rng, 1, 100)};
        mu->victim = stream_of_loom(mu, pl, l);
        add_cpu(mu, &pl->streams[mu->victim], c);
    }
    mu->applied = 1;
    return 1;
}

static int plan_dir_name(ovni_mutation *mu, ovni_plan *pl)
{
    ovni_victim_any(mu, pl);
    ovni_stream_plan *s = &pl->streams[mu->victim];
    unsigned how = (unsigned)tc_rng_below(mu->rng, 3);
    if (how == 0) {
        int64_t other;
        int taken;
        do { /* a number no thread of the process has */
            other = s->tid + (int64_t)tc_rng_range(mu->rng, 1, 10000);
            taken = 0;
            for (size_t i = 0; i < pl->n; i++)
                taken |= same_process(pl, i, mu->victim) && pl->streams[i].tid == other;
        } while (taken);
        snprintf(s->dir[2], sizeof s->dir[2], "thread.%lld", (long long)other);
    } else if (how == 1) {
        int64_t other;
        int taken;
        do { /* a number no process of the loom has */
            other = s->pid + (int64_t)tc_rng_range(mu->rng, 1, 10000);
            taken = 0;
            for (size_t i = 0; i < pl->n; i++)
                taken |= pl->streams[i].loom == s->loom && pl->streams[i].pid == other;
        } while (taken);
        int64_t pid = s->pid;
        unsigned loom = s->loom;
        for (size_t i = 0; i < pl->n; i++)
            if (pl->streams[i].loom == loom && pl->streams[i].pid == pid)
                snprintf(pl->streams[i].dir[1], sizeof pl->streams[i].dir[1], "proc.%lld",
                         (long long)other);
    } else {
        static const char *const suffixes[] = {"-old", "x", ".local", "_2"};
        char name[64];
        snprintf(name, sizeof name, "loom.%s%s", pl->looms[s->loom].name, PICK(mu, suffixes));
        unsigned loom = s->loom;
        for (size_t i = 0; i < pl->n; i++)
            if (pl->streams[i].loom == loom)
                snprintf(pl->streams[i].dir[0], sizeof pl->streams[i].dir[0], "%s", name);
    }
    mu->applied = 1;
    return 1;
}

/* Ruling 10: a stream whose first clock is more than an hour from that of
 * the first stream in path order (the one ovniemu compares the others
 * with); the streams of a plan start within a millisecond of each other. A
 * trace of one stream gets another thread. */
static int plan_clock_gate(ovni_mutation *mu, ovni_plan *pl)
{
    if (pl->n == 1) {
        int64_t tid = pl->streams[0].tid + (int64_t)tc_rng_range(mu->rng, 1, 100);
        char dir[64];
        snprintf(dir, sizeof dir, "thread.%lld", (long long)tid);
        ovni_plan_add_thread(pl, 0, tid, dir);
    }
    size_t first = 0;
    char a[200], b[200];
    ovni_plan_rel(pl, 0, a, sizeof a);
    for (size_t i = 1; i < pl->n; i++) {
        ovni_plan_rel(pl, i, b, sizeof b);
        if (strcmp(b, a) < 0) {
            first = i;
            memcpy(a, b, sizeof a);
        }
    }
    size_t k = (size_t)tc_rng_below(mu->rng, pl->n - 1);
    mu->victim = k < first ? k : k + 1;
    const uint64_t hour = 3600ull * 1000000000ull;
    uint64_t gap = hour + 2000000 + tc_rng_below(mu->rng, 24 * hour); /* past the ms of jitter */
    uint64_t c = pl->streams[first].clock0;
    pl->streams[mu->victim].clock0 = c > gap && tc_rng_chance(mu->rng, 1, 2) ? c - gap : c + gap;
    mu->applied = 1;
    return 1;
}

const ovni_mutator ovni_trace_mutators[] = {
    {R(OVNI_TRACE_EMPTY), "writes the directories of a trace and no stream file", plan_empty,
     NULL, NULL, NULL, NULL, NULL},
    {R(OVNI_TRACE_OBS_MISSING), "leaves out a stream's stream.obs", plan_no_obs, NULL, NULL,
     NULL, NULL, NULL},
    {R(OVNI_TRACE_JSON_MISSING), "leaves out a stream's stream.json", plan_no_json, NULL, NULL,
     NULL, NULL, NULL},
    {R(OVNI_TRACE_PROCESS),
     "gives two threads of a process different app_id, rank or nranks (adds a thread when "
     "the process has one)",
     plan_process, NULL, NULL, NULL, NULL, NULL},
    {R(OVNI_TRACE_TID_DUPLICATE),
     "gives a thread the tid of another thread of its process (in a directory thread.TID.1)",
     plan_tid, NULL, NULL, NULL, NULL, NULL},
    {R(OVNI_TRACE_LOOM_NO_CPUS), "leaves ovni.loom_cpus out of every thread of a loom",
     plan_no_cpus, NULL, NULL, NULL, NULL, NULL},
    {R(OVNI_TRACE_CPU_PHYID), "lists a loom's CPU again with a higher index", plan_phyid, NULL,
     NULL, NULL, NULL, NULL},
    {R(OVNI_TRACE_CPU_INDEX),
     "gives a loom a CPU whose index repeats another's or leaves a gap", plan_index, NULL, NULL,
     NULL, NULL, NULL},
    {R(OVNI_TRACE_DIR_NAME),
     "renames a thread.TID, proc.PID or loom.NAME directory away from the metadata",
     plan_dir_name, NULL, NULL, NULL, NULL, NULL},
    {R(OVNI_CLOCK_GATE),
     "starts a stream more than an hour before or after the first stream in path order (adds a "
     "thread when the trace has one)",
     plan_clock_gate, NULL, NULL, NULL, NULL, NULL},
};

const size_t ovni_trace_mutator_count = COUNT(ovni_trace_mutators);
