/*
 * The cross-checks of ruling 12 that need the whole document: id tables
 * sorted (duplicates found on the way), references resolved, edge ends and
 * kinds, counts, ranges. Routines and loops are dcfg_routine.c's.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg_doc.h"

void tc_dcfg_proc_free(tc_dcfg_proc *p);

static void vreport(tc_dcfg_doc *doc, const tc_dcfg_loc *at, tc_rule_id rule,
                    const tc_diag_extra *x, const char *fmt, va_list ap)
{
    char message[512], path[1024];
    vsnprintf(message, sizeof message, fmt, ap);
    const char *base = at->table < doc->paths.n ? doc->paths.v[at->table] : "$";
    if (at->row)
        snprintf(path, sizeof path, "%s[%" PRIu32 "]", base, at->row);
    else
        snprintf(path, sizeof path, "%s", base);
    tc_report_text_ex(doc->d, rule, at->offset, 1, at->line, at->column, path, x, "%s", message);
}

void tc_dcfg_report(tc_dcfg_doc *doc, const tc_dcfg_loc *at, tc_rule_id rule, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(doc, at, rule, NULL, fmt, ap);
    va_end(ap);
}

void tc_dcfg_report_ex(tc_dcfg_doc *doc, const tc_dcfg_loc *at, tc_rule_id rule,
                       const tc_diag_extra *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(doc, at, rule, x, fmt, ap);
    va_end(ap);
}

void tc_dcfg_doc_free(tc_dcfg_doc *doc)
{
    tc_dcfg_named *tabs[] = {doc->files.v, doc->edge_types.v, doc->specials.v};
    size_t ns[] = {doc->files.n, doc->edge_types.n, doc->specials.n};
    for (int t = 0; t < 3; t++) {
        for (size_t i = 0; i < ns[t]; i++)
            free(tabs[t][i].name);
        free(tabs[t]);
    }
    for (size_t i = 0; i < doc->procs.n; i++)
        tc_dcfg_proc_free(&doc->procs.v[i]);
    free(doc->procs.v);
    for (size_t i = 0; i < doc->paths.n; i++)
        free(doc->paths.v[i]);
    free(doc->paths.v);
    memset(doc, 0, sizeof *doc);
}

/* ---- sorting by id, stable (file order among equals), so that the
 * first row of a repeated id is the one kept and the later ones are
 * reported ---- */

#define BY_ID(T, field)                                                                       \
    static int cmp_##T(const void *a, const void *b)                                         \
    {                                                                                         \
        const T *x = a, *y = b;                                                               \
        if (x->field != y->field)                                                             \
            return x->field < y->field ? -1 : 1;                                              \
        return x->at.offset < y->at.offset ? -1 : x->at.offset > y->at.offset;                \
    }
BY_ID(tc_dcfg_named, id)
BY_ID(tc_dcfg_block, id)
BY_ID(tc_dcfg_edge, id)
BY_ID(tc_dcfg_image, id)

static int cmp_proc(const void *a, const void *b)
{
    const tc_dcfg_proc *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return x->at.offset < y->at.offset ? -1 : x->at.offset > y->at.offset;
}

/* Sorts v and removes later duplicates, reporting each. Returns the new n. */
#define DEDUP(doc, T, v, n, what, fmt_id)                                                          \
    do {                                                                                           \
        size_t s_ = 1; /* producers write ids in order: then no sort */                            \
        while (s_ < (n) && (v)[s_ - 1].fmt_id < (v)[s_].fmt_id)                                    \
            s_++;                                                                                  \
        if (s_ < (n))                                                                              \
            qsort((v), (n), sizeof *(v), cmp_##T);                                                 \
        size_t k_ = 0;                                                                             \
        for (size_t i_ = 0; i_ < (n); i_++) {                                                      \
            if (k_ && (v)[k_ - 1].fmt_id == (v)[i_].fmt_id) {                                      \
                tc_dcfg_report_ex(                                                                 \
                    (doc), &(v)[i_].at, TC_RULE_DCFG_ID_DUPLICATE,                                 \
                    TC_EXTRA(TC_RELATED((v)[k_ - 1].at.offset),                                    \
                             TC_VALUES(TC_UINT("id", (v)[i_].fmt_id))),                            \
                    "%s %" PRIu64 " is already defined at line %" PRIu32 ":%" PRIu32, (what),      \
                    (uint64_t)(v)[i_].fmt_id, (v)[k_ - 1].at.line, (v)[k_ - 1].at.column);         \
                continue;                                                                          \
            }                                                                                      \
            (v)[k_++] = (v)[i_];                                                                   \
        }                                                                                          \
        (n) = k_;                                                                                  \
    } while (0)

/* Duplicated rows own strings: they are freed before DEDUP drops them. */
static void dedup_named(tc_dcfg_doc *doc, tc_dcfg_named *v, size_t *n, const char *what)
{
    if (*n > 1)
        qsort(v, *n, sizeof *v, cmp_tc_dcfg_named);
    size_t k = 0;
    for (size_t i = 0; i < *n; i++) {
        if (k && v[k - 1].id == v[i].id) {
            tc_dcfg_report_ex(
                doc, &v[i].at, TC_RULE_DCFG_ID_DUPLICATE,
                TC_EXTRA(TC_RELATED(v[k - 1].at.offset), TC_VALUES(TC_UINT("id", v[i].id))),
                "%s %" PRIu32 " is already defined at line %" PRIu32 ":%" PRIu32, what, v[i].id,
                v[k - 1].at.line, v[k - 1].at.column);
            free(v[i].name);
            continue;
        }
        v[k++] = v[i];
    }
    *n = k;
}

long tc_dcfg_find_named(const tc_dcfg_named *v, size_t n, uint32_t id)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && v[lo].id == id ? (long)lo : -1;
}

long tc_dcfg_find_block(const tc_dcfg_proc *p, uint32_t id)
{
    if (p->block_at)
        return id < p->block_at_n ? (long)p->block_at[id] - 1 : -1;
    size_t lo = 0, hi = p->blocks.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->blocks.v[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->blocks.n && p->blocks.v[lo].id == id ? (long)lo : -1;
}

long tc_dcfg_find_edge(const tc_dcfg_proc *p, uint32_t id)
{
    if (p->edge_at)
        return id < p->edge_at_n ? (long)p->edge_at[id] - 1 : -1;
    size_t lo = 0, hi = p->edges.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->edges.v[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->edges.n && p->edges.v[lo].id == id ? (long)lo : -1;
}

/* An id -> index + 1 array over n rows sorted by id (the last id is the
 * largest), when it costs at most about four words per row: every block
 * and edge end is looked up several times, and a binary search over
 * millions of rows was the checks' largest cost. Hostile sparse ids
 * (2147483647) get no array. */
_Static_assert(offsetof(tc_dcfg_block, id) == 0 && offsetof(tc_dcfg_edge, id) == 0,
              "dense_index reads a row's id at its start");
static uint32_t *dense_index(const void *rows, size_t n, size_t size, uint32_t *len)
{
    *len = 0;
    if (!n || n > UINT32_MAX - 1)
        return NULL;
    uint32_t last; /* each row type starts with its uint32_t id */
    memcpy(&last, (const unsigned char *)rows + (n - 1) * size, sizeof last);
    if ((size_t)last > 4 * n + 1024)
        return NULL;
    uint32_t *at = calloc((size_t)last + 1, sizeof *at);
    if (!at)
        return NULL; /* binary searches then: slower, still right */
    for (size_t i = 0; i < n; i++) {
        uint32_t id;
        memcpy(&id, (const unsigned char *)rows + i * size, sizeof id);
        at[id] = (uint32_t)i + 1;
    }
    *len = last + 1;
    return at;
}

/* A node of the process: 1 special, 2 block, 0 none. */
static int node_kind(const tc_dcfg_doc *doc, const tc_dcfg_proc *p, uint32_t id, int *special)
{
    long s = tc_dcfg_find_named(doc->specials.v, doc->specials.n, id);
    if (s >= 0) {
        *special = doc->specials.v[s].kind;
        return 1;
    }
    *special = 0;
    return tc_dcfg_find_block(p, id) >= 0 ? 2 : 0;
}

static void check_process(tc_dcfg_doc *doc, tc_dcfg_proc *p)
{
    /* Images are found by index from blocks and refs: sort a copy of the
     * ids only to find duplicates. */
    if (p->images.n > 1) {
        tc_dcfg_image *copy = malloc(p->images.n * sizeof *copy);
        if (copy) {
            size_t n = 0;
            for (size_t i = 0; i < p->images.n; i++)
                if (!p->images.v[i].bad)
                    copy[n++] = p->images.v[i];
            qsort(copy, n, sizeof *copy, cmp_tc_dcfg_image);
            for (size_t i = 1; i < n; i++)
                if (copy[i].id == copy[i - 1].id)
                    tc_dcfg_report_ex(doc, &copy[i].at, TC_RULE_DCFG_ID_DUPLICATE,
                                      TC_EXTRA(TC_RELATED(copy[i - 1].at.offset),
                                               TC_VALUES(TC_UINT("id", copy[i].id))),
                                      "IMAGE_ID %" PRIu32 " is already defined at line %" PRIu32
                                      ":%" PRIu32,
                                      copy[i].id, copy[i - 1].at.line, copy[i - 1].at.column);
            free(copy);
        }
    }
    DEDUP(doc, tc_dcfg_block, p->blocks.v, p->blocks.n, "basic-block NODE_ID", id);
    DEDUP(doc, tc_dcfg_edge, p->edges.v, p->edges.n, "EDGE_ID", id);
    p->block_at = dense_index(p->blocks.v, p->blocks.n, sizeof *p->blocks.v, &p->block_at_n);
    p->edge_at = dense_index(p->edges.v, p->edges.n, sizeof *p->edges.v, &p->edge_at_n);

    if (p->has_count && p->has_threads &&
        (p->thread_sum_over || p->thread_sum != p->instr_count))
        tc_dcfg_report(doc, &p->count_at, TC_RULE_DCFG_INSTR_COUNT_SUM,
                    "INSTR_COUNT is %" PRIu64 " but INSTR_COUNT_PER_THREAD (%" PRIu64
                    " threads) sums to %s%" PRIu64,
                    p->instr_count, p->nthreads, p->thread_sum_over ? "more than 2^64, " : "",
                    p->thread_sum);

    /* References to file names, and ranges within the image. */
    for (size_t i = 0; i < p->refs.n; i++) {
        const tc_dcfg_ref *r = &p->refs.v[i];
        if (r->file && tc_dcfg_find_named(doc->files.v, doc->files.n, r->file) < 0)
            tc_dcfg_report(doc, &r->at, TC_RULE_DCFG_FILE_NAME_REF,
                        "the %s's FILE_NAME_ID %" PRIu32 " is not in FILE_NAMES (%zu names)",
                        r->what, r->file, doc->files.n);
        const tc_dcfg_image *im = &p->images.v[r->image];
        if (r->range && im->has_size && !im->bad && (r->end_over || r->end > im->size))
            tc_dcfg_report(doc, &r->at, TC_RULE_DCFG_RANGE_IMAGE,
                        "the %s at offset 0x%" PRIx64 " ends at 0x%" PRIx64
                        "%s, beyond image %" PRIu32 "'s SIZE 0x%" PRIx64,
                        r->what, r->addr, r->end, r->end_over ? " (past 2^64)" : "", im->id,
                        im->size);
    }

    /* Blocks: ids apart from special nodes, offsets within themselves and
     * their image. */
    for (size_t i = 0; i < p->blocks.n; i++) {
        const tc_dcfg_block *b = &p->blocks.v[i];
        if (tc_dcfg_find_named(doc->specials.v, doc->specials.n, b->id) >= 0)
            tc_dcfg_report(doc, &b->at, TC_RULE_DCFG_NODE_ID_SPECIAL,
                        "basic-block NODE_ID %" PRIu32 " is also a special node's id", b->id);
        if ((b->has & TC_DCFG_B_LAST) && b->last >= b->size)
            tc_dcfg_report(doc, &b->at, TC_RULE_DCFG_LAST_INSTR_OFFSET,
                        "block %" PRIu32 ": LAST_INSTR_OFFSET %" PRIu64 " is not below SIZE %" PRIu64,
                        b->id, b->last, b->size);
        const tc_dcfg_image *im = &p->images.v[b->image];
        uint64_t end = b->addr + b->size;
        if (im->has_size && !im->bad && (end < b->addr || end > im->size))
            tc_dcfg_report(doc, &b->at, TC_RULE_DCFG_RANGE_IMAGE,
                        "block %" PRIu32 " at offset 0x%" PRIx64 " of size %" PRIu64
                        " ends beyond image %" PRIu32 "'s SIZE 0x%" PRIx64,
                        b->id, b->addr, b->size, im->id, im->size);
    }

    /* Edges: types, ends, thread counts; incoming counts per block. */
    uint64_t *incoming = calloc(p->blocks.n ? p->blocks.n : 1, sizeof *incoming);
    for (size_t i = 0; i < p->edges.n; i++) {
        const tc_dcfg_edge *e = &p->edges.v[i];
        long t = tc_dcfg_find_named(doc->edge_types.v, doc->edge_types.n, e->type);
        int kind = t >= 0 ? doc->edge_types.v[t].kind : TC_DCFG_ET_OTHER;
        if (t < 0)
            tc_dcfg_report(doc, &e->at, TC_RULE_DCFG_EDGE_TYPE_REF,
                        "edge %" PRIu32 ": EDGE_TYPE_ID %" PRIu32 " is not in EDGE_TYPES", e->id,
                        e->type);
        int ss, ts;
        int sk = node_kind(doc, p, e->source, &ss), tk = node_kind(doc, p, e->target, &ts);
        if (!sk)
            tc_dcfg_report(doc, &e->at, TC_RULE_DCFG_NODE_REF,
                        "edge %" PRIu32 ": SOURCE_NODE_ID %" PRIu32
                        " is neither a special node nor a basic block of process %" PRIu64,
                        e->id, e->source, p->pid);
        if (!tk)
            tc_dcfg_report(doc, &e->at, TC_RULE_DCFG_NODE_REF,
                        "edge %" PRIu32 ": TARGET_NODE_ID %" PRIu32
                        " is neither a special node nor a basic block of process %" PRIu64,
                        e->id, e->target, p->pid);
        if (kind == TC_DCFG_ET_ENTRY && sk && ss != 1)
            tc_dcfg_report(doc, &e->at, TC_RULE_DCFG_ENTRY_EDGE,
                        "ENTRY edge %" PRIu32 " leaves node %" PRIu32 ", not a START node",
                        e->id, e->source);
        if (kind == TC_DCFG_ET_EXIT && tk && ts != 2)
            tc_dcfg_report(doc, &e->at, TC_RULE_DCFG_EXIT_EDGE,
                        "EXIT edge %" PRIu32 " enters node %" PRIu32 ", not an END node", e->id,
                        e->target);
        if (p->has_threads && e->ncounts > p->nthreads)
            tc_dcfg_report(doc, &e->at, TC_RULE_DCFG_EDGE_THREADS,
                        "edge %" PRIu32 ": COUNT_PER_THREAD has %" PRIu32
                        " values but process %" PRIu64 " has %" PRIu64 " threads",
                        e->id, e->ncounts, p->pid, p->nthreads);
        if (incoming && tk == 2) {
            long b = tc_dcfg_find_block(p, e->target);
            uint64_t *s = &incoming[b];
            *s = *s + e->count < *s ? UINT64_MAX : *s + e->count;
        }
    }
    if (incoming && p->edges.n) /* without edges there is nothing to compare */
        for (size_t i = 0; i < p->blocks.n; i++) {
            const tc_dcfg_block *b = &p->blocks.v[i];
            if ((b->has & TC_DCFG_B_COUNT) && b->count != incoming[i])
                tc_dcfg_report(doc, &b->at, TC_RULE_DCFG_BLOCK_COUNT,
                            "block %" PRIu32 ": COUNT is %" PRIu64
                            " but its incoming edges were taken %" PRIu64 " times",
                            b->id, b->count, incoming[i]);
        }
    free(incoming);
    tc_dcfg_check_routines(doc, p);
}

void tc_dcfg_check(tc_dcfg_doc *doc)
{
    dedup_named(doc, doc->files.v, &doc->files.n, "FILE_NAME_ID");
    dedup_named(doc, doc->edge_types.v, &doc->edge_types.n, "EDGE_TYPE_ID");
    dedup_named(doc, doc->specials.v, &doc->specials.n, "special NODE_ID");
    if (doc->procs.n > 1)
        qsort(doc->procs.v, doc->procs.n, sizeof *doc->procs.v, cmp_proc);
    size_t k = 0;
    for (size_t i = 0; i < doc->procs.n; i++) {
        tc_dcfg_proc *p = &doc->procs.v[i];
        if (k && doc->procs.v[k - 1].pid == p->pid) {
            tc_dcfg_report_ex(doc, &p->at, TC_RULE_DCFG_ID_DUPLICATE,
                              TC_EXTRA(TC_RELATED(doc->procs.v[k - 1].at.offset),
                                       TC_VALUES(TC_UINT("id", p->pid))),
                              "PROCESS_ID %" PRIu64 " is already defined at line %" PRIu32
                              ":%" PRIu32,
                              p->pid, doc->procs.v[k - 1].at.line, doc->procs.v[k - 1].at.column);
            tc_dcfg_proc_free(p);
            continue;
        }
        doc->procs.v[k++] = *p;
    }
    doc->procs.n = k;
    for (size_t i = 0; i < doc->procs.n; i++)
        check_process(doc, &doc->procs.v[i]);
}
