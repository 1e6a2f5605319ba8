#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/parse.h"
#include "../common/diag_order.h"
#include "../common/parallel.h"
#include "ovni.h"
#include "ovni_dump.h"
#include "ovni_meta.h"
#include "ovni_model.h"
#include "ovni_replay.h"
#include "ovni_trace.h"

#define MAX_DEPTH 16

/* ---- finding streams ---- */

typedef struct stream_list {
    tc_ovni_stream_file *items;
    size_t n, cap;
} stream_list;

static char *join(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    char *s = malloc(la + lb + 2);
    if (s) {
        memcpy(s, a, la);
        size_t at = la;
        if (la && a[la - 1] != '/')
            s[at++] = '/';
        memcpy(s + at, b, lb + 1);
    }
    return s;
}

static int is_file(const char *dir, const char *name)
{
    char *p = join(dir, name);
    struct stat st;
    int yes = p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
    free(p);
    return yes;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Subdirectory names of dir, sorted; hidden ones and symbolic links left out
 * (a link could make the walk loop). */
static char **subdirs(const char *dir, size_t *count)
{
    DIR *d = opendir(dir);
    char **names = NULL;
    size_t n = 0, cap = 0;
    *count = 0;
    if (!d)
        return NULL;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char *p = join(dir, e->d_name);
        struct stat st;
        int ok = p && lstat(p, &st) == 0 && S_ISDIR(st.st_mode);
        free(p);
        if (!ok)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            char **m = realloc(names, cap * sizeof *m);
            if (!m)
                break;
            names = m;
        }
        if (!(names[n] = strdup(e->d_name)))
            break;
        n++;
    }
    closedir(d);
    if (n > 1) /* names is NULL when there are none: no qsort(NULL, 0) */
        qsort(names, n, sizeof *names, by_name);
    *count = n;
    return names;
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

static void add_stream(stream_list *l, const char *dir, const char *rel)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        tc_ovni_stream_file *m = realloc(l->items, cap * sizeof *m);
        if (!m)
            return;
        l->items = m;
        l->cap = cap;
    }
    tc_ovni_stream_file *s = &l->items[l->n++];
    memset(s, 0, sizeof *s);
    s->rel = strdup(rel[0] ? rel : ".");
    s->json = join(dir, "stream.json");
    s->obs = join(dir, "stream.obs");
    s->has_json = is_file(dir, "stream.json");
    s->has_obs = is_file(dir, "stream.obs");
}

static void walk(stream_list *l, const char *dir, const char *rel, int depth)
{
    if (is_file(dir, "stream.json") || is_file(dir, "stream.obs"))
        add_stream(l, dir, rel);
    if (depth >= MAX_DEPTH)
        return;
    size_t n;
    char **names = subdirs(dir, &n);
    for (size_t i = 0; i < n; i++) {
        char *sub = join(dir, names[i]);
        char *subrel = rel[0] ? join(rel, names[i]) : strdup(names[i]);
        if (sub && subrel)
            walk(l, sub, subrel, depth + 1);
        free(sub);
        free(subrel);
    }
    free_names(names, n);
}

static int has_json_below(const char *dir, int depth)
{
    if (is_file(dir, "stream.json"))
        return 1;
    if (depth >= MAX_DEPTH)
        return 0;
    size_t n;
    char **names = subdirs(dir, &n);
    int found = 0;
    for (size_t i = 0; i < n && !found; i++) {
        char *sub = join(dir, names[i]);
        found = sub && has_json_below(sub, depth + 1);
        free(sub);
    }
    free_names(names, n);
    return found;
}

int tc_ovni_is_trace_dir(const char *dir) { return has_json_below(dir, 0); }

int tc_ovni_has_layout(const char *dir)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    if (n >= 4 && !strncmp(dir + n - 4, "ovni", 4) && (n == 4 || dir[n - 5] == '/'))
        return 1;
    DIR *d = opendir(dir);
    int yes = 0;
    struct dirent *e;
    while (d && !yes && (e = readdir(d)) != NULL)
        yes = !strncmp(e->d_name, "loom.", 5);
    if (d)
        closedir(d);
    return yes;
}

static int by_rel(const void *a, const void *b)
{
    return strcmp(((const tc_ovni_stream_file *)a)->rel, ((const tc_ovni_stream_file *)b)->rel);
}

/* ---- one stream ---- */

static uint64_t read_meta(tc_ovni_stream_file *s, tc_diag_sink *d, const tc_ovni_opts *o,
                          tc_error *err)
{
    tc_input *in = tc_input_open(s->json, &o->input, err);
    if (!in) {
        tc_error_add(err, "ovni", "%s", s->json);
        return 0;
    }
    tc_reader *r = tc_input_reader(in);
    d->input = s->json;
    tc_ovni_meta_read(r, d, &s->meta);
    uint64_t bytes = tc_pos(r);
    tc_input_close(in);
    return bytes;
}

/* The number in a directory name "prefix.N", or -1. */
static long long name_number(const char *name, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncmp(name, prefix, n) != 0 || !name[n])
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll(name + n, &end, 10);
    return *end || errno || v < 0 ? -1 : v;
}

/* libovni's layout, loom.LOOM/proc.PID/thread.TID, against the metadata. */
static void check_dir_names(tc_ovni_stream_file *s, tc_diag_sink *d, const char *root)
{
    const tc_ovni_meta *m = &s->meta;
    if (!m->thread || !strcmp(s->rel, "."))
        return;
    char *path = join(root, s->rel);
    char *parts[3] = {NULL, NULL, NULL}; /* thread, proc, loom directory names */
    char *copy = strdup(s->rel);
    if (!path || !copy)
        goto out;
    for (int i = 0; i < 3; i++) {
        char *slash = strrchr(copy, '/');
        parts[i] = slash ? slash + 1 : copy;
        if (!slash)
            break;
        *slash = '\0';
    }
    d->input = path;
    long long v;
    if (parts[0] && (v = name_number(parts[0], "thread.")) >= 0 && m->has_tid && v != m->tid)
        tc_report_about(d, TC_RULE_OVNI_TRACE_DIR_NAME,
                        "directory %s holds the stream of thread %" PRId64, parts[0], m->tid);
    if (parts[1] && (v = name_number(parts[1], "proc.")) >= 0 && m->has_pid && v != m->pid)
        tc_report_about(d, TC_RULE_OVNI_TRACE_DIR_NAME,
                        "directory %s holds a thread of process %" PRId64, parts[1], m->pid);
    if (parts[2] && !strncmp(parts[2], "loom.", 5) && m->has_loom && strcmp(parts[2] + 5, m->loom))
        tc_report_about(d, TC_RULE_OVNI_TRACE_DIR_NAME,
                        "directory %s holds a thread of loom \"%s\"", parts[2], m->loom);
out:
    free(copy);
    free(path);
}

/* ---- across streams ---- */

static int thread_meta(const tc_ovni_stream_file *s)
{
    return s->has_json && s->meta.thread && s->meta.has_pid && s->meta.has_loom;
}

static int by_process(const void *a, const void *b)
{
    const tc_ovni_stream_file *x = *(tc_ovni_stream_file *const *)a;
    const tc_ovni_stream_file *y = *(tc_ovni_stream_file *const *)b;
    int c = strcmp(x->meta.loom, y->meta.loom);
    if (c)
        return c;
    if (x->meta.pid != y->meta.pid)
        return x->meta.pid < y->meta.pid ? -1 : 1;
    if (x->meta.tid != y->meta.tid)
        return x->meta.tid < y->meta.tid ? -1 : 1;
    return strcmp(x->rel, y->rel);
}

/* A per-process value: the first stream that gives it sets it. */
static void agree(tc_diag_sink *d, tc_ovni_stream_file **g, size_t n, const char *what,
                  size_t has_off, size_t value_off, size_t at_off)
{
    tc_ovni_stream_file *first = NULL;
    for (size_t i = 0; i < n; i++) {
        tc_ovni_meta *m = &g[i]->meta;
        if (!*(int *)((char *)m + has_off))
            continue;
        int64_t v = *(int64_t *)((char *)m + value_off);
        if (!first) {
            first = g[i];
            continue;
        }
        int64_t w = *(int64_t *)((char *)&first->meta + value_off);
        if (v != w) {
            d->input = g[i]->json;
            tc_ovni_report_at(d, (tc_ovni_loc *)((char *)m + at_off), TC_RULE_OVNI_TRACE_PROCESS,
                              "process %" PRId64 " of loom \"%s\" has %s %" PRId64 " here but %"
                              PRId64 " in %s", m->pid, m->loom, what, v, w, first->json);
        }
    }
}

#define FIELD(name) offsetof(tc_ovni_meta, has_##name), offsetof(tc_ovni_meta, name), \
                    offsetof(tc_ovni_meta, name##_at)

static void check_processes(tc_diag_sink *d, tc_ovni_stream_file **t, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && !strcmp(t[j]->meta.loom, t[i]->meta.loom) && t[j]->meta.pid == t[i]->meta.pid)
            j++;
        for (size_t k = i + 1; k < j; k++)
            if (t[k]->meta.has_tid && t[k - 1]->meta.has_tid && t[k]->meta.tid == t[k - 1]->meta.tid) {
                d->input = t[k]->json;
                tc_ovni_report_at(d, &t[k]->meta.tid_at, TC_RULE_OVNI_TRACE_TID_DUPLICATE,
                                  "thread %" PRId64 " of process %" PRId64 " also has the stream "
                                  "%s", t[k]->meta.tid, t[k]->meta.pid, t[k - 1]->json);
            }
        agree(d, t + i, j - i, "app_id", FIELD(app_id));
        agree(d, t + i, j - i, "rank", FIELD(rank));
        agree(d, t + i, j - i, "nranks", FIELD(nranks));
        i = j;
    }
}

typedef struct cpu_entry {
    int64_t phyid, index;
    tc_ovni_stream_file *from;
} cpu_entry;

static int by_phyid(const void *a, const void *b)
{
    const cpu_entry *x = a, *y = b;
    if (x->phyid != y->phyid)
        return x->phyid < y->phyid ? -1 : 1;
    if (x->index != y->index)
        return x->index < y->index ? -1 : 1;
    /* Full order (qsort is not stable): the file a message names is the
     * same on every C library. */
    return strcmp(x->from->rel, y->from->rel);
}

static int by_index(const void *a, const void *b)
{
    const cpu_entry *x = a, *y = b;
    if (x->index != y->index)
        return x->index < y->index ? -1 : 1;
    return x->phyid < y->phyid ? -1 : x->phyid > y->phyid; /* unique after merging */
}

/* The CPU lists of one loom's threads t[0..n), merged by phyid. */
static void check_loom(tc_diag_sink *d, tc_ovni_stream_file **t, size_t n)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += t[i]->meta.has_cpus ? t[i]->meta.ncpus : 0;
    if (total == 0) {
        int malformed = 0; /* a list was given but was wrong: reported already */
        for (size_t i = 0; i < n; i++)
            malformed |= t[i]->meta.cpus_at.set;
        if (!malformed) {
            d->input = t[0]->json;
            tc_report_about(d, TC_RULE_OVNI_TRACE_LOOM_NO_CPUS,
                            "no thread of loom \"%s\" gives ovni.loom_cpus (%zu thread%s)",
                            t[0]->meta.loom, n, n == 1 ? "" : "s");
        }
        return;
    }
    cpu_entry *e = malloc(total * sizeof *e);
    if (!e)
        return;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t c = 0; t[i]->meta.has_cpus && c < t[i]->meta.ncpus; c++)
            e[k++] = (cpu_entry){t[i]->meta.cpus[c].phyid, t[i]->meta.cpus[c].index, t[i]};
    qsort(e, k, sizeof *e, by_phyid);
    size_t u = 0; /* unique phyids, compacted */
    for (size_t i = 0; i < k; i++) {
        if (u && e[u - 1].phyid == e[i].phyid) {
            if (e[u - 1].index != e[i].index) {
                d->input = e[i].from->json;
                tc_ovni_report_at(d, &e[i].from->meta.cpus_at, TC_RULE_OVNI_TRACE_CPU_PHYID,
                                  "loom \"%s\": CPU phyid %" PRId64 " has index %" PRId64
                                  " here and %" PRId64 " in %s", t[0]->meta.loom, e[i].phyid,
                                  e[i].index, e[u - 1].index, e[u - 1].from->json);
            }
            continue;
        }
        e[u++] = e[i];
    }
    qsort(e, u, sizeof *e, by_index);
    for (size_t i = 0; i < u; i++) {
        if (e[i].index == (int64_t)i)
            continue;
        d->input = e[i].from->json;
        if (i > 0 && e[i].index == e[i - 1].index)
            tc_ovni_report_at(d, &e[i].from->meta.cpus_at, TC_RULE_OVNI_TRACE_CPU_INDEX,
                              "loom \"%s\": index %" PRId64 " is given to CPU phyids %" PRId64
                              " and %" PRId64, t[0]->meta.loom, e[i].index, e[i - 1].phyid,
                              e[i].phyid);
        else
            tc_ovni_report_at(d, &e[i].from->meta.cpus_at, TC_RULE_OVNI_TRACE_CPU_INDEX,
                              "loom \"%s\" has %zu CPU%s, so indexes 0 to %zu, but index %zu is "
                              "missing (the next is %" PRId64 ")", t[0]->meta.loom, u,
                              u == 1 ? "" : "s", u - 1, i, e[i].index);
        break; /* one report per loom: the rest follows from it */
    }
    free(e);
}

/* ovni.mark and nosv.hwc, merged over the streams as ovniemu merges them
 * (mark.c's parse_mark and add_label, nosv/hwc.c's scan_thread): the first
 * stream in path order that declares a thing sets it. */
static void check_declarations(tc_diag_sink *d, stream_list *l)
{
    const tc_ovni_stream_file *first_mark[TC_OVNI_META_MARK_TYPES] = {0};
    const tc_ovni_mark_decl *first_decl[TC_OVNI_META_MARK_TYPES] = {0};
    const tc_ovni_stream_file *first_hwc = NULL;
    for (size_t i = 0; i < l->n; i++) {
        tc_ovni_stream_file *s = &l->items[i];
        if (!s->has_json || !s->meta.readable)
            continue;
        for (size_t k = 0; k < s->meta.nmarks; k++) {
            const tc_ovni_mark_decl *m = &s->meta.marks[k];
            const tc_ovni_mark_decl *f = first_decl[m->type];
            if (!f) {
                first_decl[m->type] = m;
                first_mark[m->type] = s;
                continue;
            }
            d->input = s->json;
            if (f->title_hash != m->title_hash || f->stack != m->stack)
                tc_ovni_report_at(d, &s->meta.marks_at, TC_RULE_OVNI_TRACE_MARK_CONFLICT,
                                  "mark type %d is \"%s\" (%s) here but \"%s\" (%s) in %s",
                                  (int)m->type, m->title, m->stack ? "stack" : "single",
                                  f->title, f->stack ? "stack" : "single",
                                  first_mark[m->type]->json);
            for (size_t a = 0; a < m->nlabels; a++)
                for (size_t b = 0; b < f->nlabels; b++)
                    if (m->labels[a].value == f->labels[b].value &&
                        m->labels[a].hash != f->labels[b].hash)
                        tc_ovni_report_at(d, &s->meta.marks_at, TC_RULE_OVNI_TRACE_MARK_CONFLICT,
                                          "value %" PRId64 " of mark type %d is labelled \"%s\" "
                                          "here but \"%s\" in %s", m->labels[a].value,
                                          (int)m->type, m->labels[a].label, f->labels[b].label,
                                          first_mark[m->type]->json);
        }
        if (!s->meta.hwc_counters)
            continue;
        if (!first_hwc) {
            first_hwc = s;
            continue;
        }
        d->input = s->json;
        const tc_ovni_meta *f = &first_hwc->meta;
        if (f->hwc_counters != s->meta.hwc_counters) {
            tc_ovni_report_at(d, &s->meta.hwc_at, TC_RULE_OVNI_TRACE_HWC_CONFLICT,
                              "nosv.hwc declares %zu hardware counter%s here but %zu in %s",
                              s->meta.hwc_counters, s->meta.hwc_counters == 1 ? "" : "s",
                              f->hwc_counters, first_hwc->json);
            continue;
        }
        for (size_t c = 0; c < f->hwc_counters; c++)
            if (f->hwc[c].hash != s->meta.hwc[c].hash) {
                tc_ovni_report_at(d, &s->meta.hwc_at, TC_RULE_OVNI_TRACE_HWC_CONFLICT,
                                  "counter %zu of nosv.hwc is \"%s\" here but \"%s\" in %s", c,
                                  s->meta.hwc[c].name, f->hwc[c].name, first_hwc->json);
                break;
            }
    }
}

static void check_across(tc_diag_sink *d, stream_list *l)
{
    check_declarations(d, l);
    tc_ovni_stream_file **t = malloc((l->n ? l->n : 1) * sizeof *t);
    if (!t)
        return;
    size_t n = 0;
    for (size_t i = 0; i < l->n; i++)
        if (thread_meta(&l->items[i]))
            t[n++] = &l->items[i];
    qsort(t, n, sizeof *t, by_process);
    check_processes(d, t, n);
    /* Sorted by loom first: a loom's threads are a run. */
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && !strcmp(t[j]->meta.loom, t[i]->meta.loom))
            j++;
        check_loom(d, t + i, j - i);
        i = j;
    }
    free(t);
}

/* Ruling 10, as ovniemu's check_clock_gate (src/emu/player.c) compares: the
 * clock of the first event of each stream that has events against that of
 * the first such stream in path order (ovniemu's relative path of a stream
 * in the trace directory itself is "", which comes first); a difference of
 * more than one hour is reported. Only streams with a stream.json count:
 * ovniemu finds streams by it. A first clock of 2^63 or more
 * (OVNI-CLOCK-RANGE) leaves its stream out. */
#define CLOCK_GATE_NS (3600ull * 1000000000ull)

static void check_clock_gate(tc_diag_sink *d, const stream_list *l)
{
    const tc_ovni_stream_file *ref = NULL;
    for (size_t i = 0; i < l->n; i++) {
        const tc_ovni_stream_file *s = &l->items[i];
        if (s->has_json && s->has_first_clock && (!ref || !strcmp(s->rel, ".")))
            ref = s;
    }
    for (size_t i = 0; ref && i < l->n; i++) {
        const tc_ovni_stream_file *s = &l->items[i];
        if (s == ref || !s->has_json || !s->has_first_clock)
            continue;
        int later = s->first_clock > ref->first_clock;
        uint64_t gap = later ? s->first_clock - ref->first_clock : ref->first_clock - s->first_clock;
        if (gap <= CLOCK_GATE_NS)
            continue;
        d->input = s->obs;
        tc_report_ex(d, TC_RULE_OVNI_CLOCK_GATE, s->first_offset + 4, 8,
                     TC_EXTRA(TC_VALUES(TC_UINT("first_clock", s->first_clock),
                                        TC_UINT("reference_clock", ref->first_clock),
                                        TC_UINT("gap_ns", gap))),
                     "stream %s starts at clock %" PRIu64 ", %" PRIu64 " ns (%.2f h) %s stream %s, "
                     "which starts at %" PRIu64 ": more than one hour apart, so the nodes' clock "
                     "offsets were not applied (run ovnisync to set them)",
                     s->rel, s->first_clock, gap, (double)gap / 3.6e12, later ? "after" : "before",
                     ref->rel, ref->first_clock);
    }
}

/* ---- the trace ---- */

typedef struct replay_job {
    tc_ovni_stream_file *streams;
    tc_ovni_group *groups;
    tc_diag_order **orders; /* one per worker */
    const tc_ovni_opts *o;
} replay_job;

static void replay_one(void *user, size_t i, unsigned worker)
{
    replay_job *job = user;
    tc_ovni_replay(job->streams, &job->groups[i], job->orders[worker], job->o);
}

/* Every stream's own findings, in path order whatever the order they were
 * made in: its metadata, its events (judged loom by loom, the looms on
 * o->threads threads), its directory names. */
static void check_streams(stream_list *l, const char *dir, tc_diag_sink *d, const tc_ovni_opts *o)
{
    tc_diag_order *all = tc_diag_order_new(d);
    if (!all) {
        tc_diag_fail(d, "out of memory for the findings of a trace");
        return;
    }
    tc_diag_sink *s = tc_diag_order_sink(all);
    for (size_t i = 0; i < l->n; i++) {
        tc_ovni_stream_file *f = &l->items[i];
        tc_diag_order_key(all, TC_OVNI_KEY(i, TC_OVNI_PHASE_META));
        if (f->has_json) {
            f->bytes += read_meta(f, s, o, &f->err);
        } else {
            s->input = f->obs;
            tc_report_about(s, TC_RULE_OVNI_TRACE_JSON_MISSING,
                            "no stream.json beside this stream.obs");
        }
    }
    tc_ovni_group *groups = NULL;
    size_t ng = 0;
    int ok = tc_ovni_groups(l->items, l->n, &groups, &ng) == 0;
    unsigned threads = o->threads ? o->threads : 1;
    if (threads > ng)
        threads = ng ? (unsigned)ng : 1;
    tc_diag_order **orders = calloc(threads, sizeof *orders);
    ok = ok && orders;
    for (unsigned w = 0; ok && w < threads; w++)
        ok = (orders[w] = tc_diag_order_new(d)) != NULL;
    if (ok) {
        replay_job job = {l->items, groups, orders, o};
        tc_parallel_for(ng, threads, replay_one, &job);
    } else {
        tc_diag_fail(d, "out of memory for the streams of a trace");
    }
    for (unsigned w = 0; orders && w < threads; w++)
        if (orders[w])
            tc_diag_order_merge(all, orders[w]);
    free(orders);
    tc_ovni_groups_free(groups, ng);
    for (size_t i = 0; i < l->n; i++) {
        tc_ovni_stream_file *f = &l->items[i];
        if (!f->has_obs) {
            tc_diag_order_key(all, TC_OVNI_KEY(i, TC_OVNI_PHASE_EVENTS));
            s->input = f->json;
            tc_report_about(s, TC_RULE_OVNI_TRACE_OBS_MISSING,
                            "no stream.obs beside this stream.json");
        }
        tc_diag_order_key(all, TC_OVNI_KEY(i, TC_OVNI_PHASE_DIRS));
        check_dir_names(f, s, dir);
    }
    tc_diag_order_replay(all, d);
    tc_diag_order_free(all);
}

uint64_t tc_ovni_check_trace(const char *dir, tc_diag_sink *d, const tc_ovni_opts *o, tc_error *err)
{
    stream_list l = {0};
    /* A stream that cannot be read fails the check, whatever else is
     * read: its own error is kept, not an earlier caller's. */
    tc_error mine = TC_ERROR_INIT;
    DIR *probe = opendir(dir);
    if (!probe) {
        tc_error_set_value(err, "ovni", dir, "cannot open directory: %s", strerror(errno));
        return UINT64_MAX;
    }
    closedir(probe);
    walk(&l, dir, "", 0);
    /* Path order is the byte order of whole relative paths (canonical dump:
     * stream lines, clock ties), which a walk sorted per directory is not:
     * "a.b/s" comes before "a/s". */
    if (l.n > 1)
        qsort(l.items, l.n, sizeof *l.items, by_rel);
    const char *input = d->input;
    uint64_t bytes = 0;
    if (l.n == 0)
        tc_report_about(d, TC_RULE_OVNI_TRACE_EMPTY,
                        "no stream (a directory with stream.json and stream.obs) below %s", dir);
    check_streams(&l, dir, d, o);
    for (size_t i = 0; i < l.n; i++) {
        bytes += l.items[i].bytes;
        if (tc_error_is_set(&l.items[i].err)) { /* the last one's, as in turn */
            tc_error_free(&mine);
            tc_error_move(&mine, &l.items[i].err);
        }
    }
    check_across(d, &l);
    check_clock_gate(d, &l);
    d->input = input;
    if (o->dump && !tc_error_is_set(&mine))
        tc_ovni_dump_trace(o->dump, l.items, l.n, &o->input, &mine);
    for (size_t i = 0; i < l.n; i++) {
        tc_ovni_meta_free(&l.items[i].meta);
        free(l.items[i].rel);
        free(l.items[i].json);
        free(l.items[i].obs);
    }
    free(l.items);
    if (!tc_error_is_set(&mine))
        return bytes;
    if (err) {
        tc_error_free(err);
        tc_error_move(err, &mine);
    }
    tc_error_free(&mine);
    return UINT64_MAX;
}
