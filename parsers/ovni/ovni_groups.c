/*
 * A trace's streams grouped by loom, and each group's world: the loom's
 * CPUs (its threads' ovni.loom_cpus merged), its processes and threads,
 * and the marks and hardware counters the trace declares.
 */
#include <stdlib.h>
#include <string.h>

#include "ovni_model_priv.h"
#include "ovni_replay.h"

static int thread_meta(const tc_ovni_stream_file *s)
{
    return s->has_json && s->meta.readable && s->meta.thread && s->meta.has_pid &&
           s->meta.has_loom;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The loom's CPUs by index, when its lists merge into indexes 0..N-1 with
 * one phyid each (OVNI-TRACE-CPU-* report the rest). */
static void loom_cpus(tc_ovni_group *g, tc_ovni_stream_file *all, size_t nall, const char *loom)
{
    size_t total = 0;
    for (size_t i = 0; i < nall; i++)
        if (thread_meta(&all[i]) && !strcmp(all[i].meta.loom, loom) && all[i].meta.has_cpus)
            total += all[i].meta.ncpus;
    if (!total)
        return;
    int64_t *phy = malloc(total * sizeof *phy);
    int64_t *seen = malloc(total * sizeof *seen); /* index by phyid, first found */
    if (!phy || !seen) {
        free(phy);
        free(seen);
        return;
    }
    for (size_t k = 0; k < total; k++)
        phy[k] = -1;
    int ok = 1;
    size_t max = 0;
    for (size_t i = 0; i < nall && ok; i++) {
        const tc_ovni_meta *m = &all[i].meta;
        if (!thread_meta(&all[i]) || strcmp(m->loom, loom) || !m->has_cpus)
            continue;
        for (size_t c = 0; c < m->ncpus && ok; c++) {
            int64_t index = m->cpus[c].index, phyid = m->cpus[c].phyid;
            if (index < 0 || (uint64_t)index >= total) {
                ok = 0;
                break;
            }
            if (phy[index] != -1 && phy[index] != phyid)
                ok = 0;
            phy[index] = phyid;
            if ((size_t)index + 1 > max)
                max = (size_t)index + 1;
        }
    }
    /* Every index below max given, and no phyid at two indexes. */
    for (size_t k = 0; ok && k < max; k++) {
        if (phy[k] == -1)
            ok = 0;
        seen[k] = phy[k];
    }
    if (ok && max > 1) {
        qsort(seen, max, sizeof *seen, cmp_i64);
        for (size_t k = 1; k < max; k++)
            if (seen[k] == seen[k - 1])
                ok = 0;
    }
    free(seen);
    tc_ovni_cpu_use *use = ok ? calloc(max, sizeof *use) : NULL;
    if (!use) {
        free(phy);
        return;
    }
    g->phyids = phy;
    g->world.phyids = phy;
    g->world.use = use;
    g->world.ncpus = max;
    g->world.cpus_known = 1;
}

static int add_index(tc_ovni_group *g, size_t i)
{
    size_t *v = realloc(g->streams, (g->n + 1) * sizeof *v);
    if (!v)
        return -1;
    g->streams = v;
    g->streams[g->n++] = i;
    return 0;
}

/* The group's processes, threads and models. */
static int build_world(tc_ovni_group *g, tc_ovni_stream_file *all, int declared,
                       const tc_ovni_meta *decl)
{
    tc_ovni_world *w = &g->world;
    g->models = calloc(g->n ? g->n : 1, sizeof *g->models);
    w->procs = calloc(g->n ? g->n : 1, sizeof *w->procs);
    w->threads = calloc(g->n ? g->n : 1, sizeof *w->threads);
    if (!g->models || !w->procs || !w->threads)
        return -1;
    for (size_t k = 0; k < g->n; k++) {
        const tc_ovni_stream_file *s = &all[g->streams[k]];
        int64_t pid = s->has_json && s->meta.has_pid ? s->meta.pid : 0;
        size_t p = 0;
        while (p < w->nprocs && w->procs[p].pid != pid)
            p++;
        if (p == w->nprocs)
            w->procs[w->nprocs++].pid = pid;
        w->threads[w->nthreads++] = &g->models[k];
    }
    /* Tids: all known, and a tid given twice in a process taken by its
     * first stream alone. */
    w->tids_known = 1;
    for (size_t k = 0; k < g->n; k++) {
        const tc_ovni_stream_file *s = &all[g->streams[k]];
        if (!s->has_json || !s->meta.readable || (s->meta.thread && !s->meta.has_tid))
            w->tids_known = 0;
        for (size_t j = 0; j < k && s->has_json && s->meta.has_tid; j++) {
            const tc_ovni_stream_file *o = &all[g->streams[j]];
            if (o->has_json && o->meta.has_tid && o->meta.tid == s->meta.tid &&
                o->meta.has_pid && s->meta.has_pid && o->meta.pid == s->meta.pid)
                g->models[k].twin = 1;
        }
    }
    w->marks_known = declared;
    w->hwc_known = declared;
    if (declared) {
        memcpy(w->mark_kind, decl->mark_kind, sizeof w->mark_kind);
        w->hwc_counters = decl->hwc_counters;
    }
    return 0;
}

int tc_ovni_groups(tc_ovni_stream_file *streams, size_t n, tc_ovni_group **groups, size_t *count)
{
    *groups = NULL;
    *count = 0;
    /* The trace's declarations, merged as the emulator merges them: known
     * when every stream's metadata was read. */
    tc_ovni_meta decl;
    memset(&decl, 0, sizeof decl);
    int declared = 1;
    for (size_t i = 0; i < n; i++) {
        if (!streams[i].has_obs)
            continue;
        if (!streams[i].has_json || !streams[i].meta.readable) {
            declared = 0;
            continue;
        }
        for (int t = 0; t < TC_OVNI_META_MARK_TYPES; t++)
            if (!decl.mark_kind[t])
                decl.mark_kind[t] = streams[i].meta.mark_kind[t];
        if (!decl.hwc_counters)
            decl.hwc_counters = streams[i].meta.hwc_counters;
    }
    tc_ovni_group *g = calloc(n ? n : 1, sizeof *g);
    if (!g)
        return -1;
    size_t ng = 0;
    int failed = 0;
    for (size_t i = 0; i < n && !failed; i++) {
        tc_ovni_stream_file *s = &streams[i];
        if (!s->has_obs)
            continue;
        size_t k = ng;
        if (thread_meta(s))
            for (k = 0; k < ng; k++)
                if (g[k].world.loom && !strcmp(g[k].world.loom, s->meta.loom))
                    break;
        if (k == ng) {
            ng++;
            if (thread_meta(s)) {
                g[k].world.loom = s->meta.loom;
                /* A stream whose metadata was not read may hold part of the
                 * loom's CPU list: then the CPUs are not known. */
                if (declared)
                    loom_cpus(&g[k], streams, n, s->meta.loom);
            }
        }
        failed = add_index(&g[k], i) != 0;
    }
    for (size_t k = 0; k < ng && !failed; k++)
        failed = build_world(&g[k], streams, declared, &decl) != 0;
    if (failed) {
        tc_ovni_groups_free(g, ng);
        return -1;
    }
    *groups = g;
    *count = ng;
    return 0;
}

void tc_ovni_groups_free(tc_ovni_group *groups, size_t n)
{
    for (size_t k = 0; groups && k < n; k++) {
        tc_ovni_group *g = &groups[k];
        tc_ovni_world_free_books(&g->world);
        free(g->world.procs);
        free(g->world.threads);
        free(g->world.use);
        free(g->phyids);
        free(g->models);
        free(g->streams);
    }
    free(groups);
}
