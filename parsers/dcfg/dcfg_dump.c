/*
 * The canonical dump of a DCFG: the tables normalised (ids as numbers,
 * 64-bit values as decimal strings), id tables in id order, one line per
 * row. Rows without ids (symbols, source data) keep their file order
 * within their image; routines keep theirs within their image. Ordering
 * is by sorting and counting, never by repeated scans, so a document of a
 * million images dumps in n log n.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg.h"
#include "dcfg_dump.h"
#include "../common/dump.h"

static void emit(void (*on_line)(void *, const void *), void *user, tc_dcfg_dump_rec *r, int kind,
                 size_t i, size_t k)
{
    r->kind = kind;
    r->i = i;
    r->k = k;
    on_line(user, r);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Items (symbols, blocks, routines: n records of `size` bytes whose image
 * index is the uint32_t at `at`) grouped by the group of their image, in
 * their own order within a group: a counting sort, linear whatever the
 * number of images. idx[start[g]..start[g + 1]) are group g's items. */
static int group_items(const void *items, size_t n, size_t size, size_t at,
                       const uint32_t *group, size_t ngroups, uint32_t **idx, uint32_t **start)
{
    *idx = malloc((n + 1) * sizeof **idx);
    *start = calloc(ngroups + 2, sizeof **start);
    if (!*idx || !*start)
        return 0;
    const unsigned char *base = items;
    for (size_t i = 0; i < n; i++) {
        uint32_t image;
        memcpy(&image, base + i * size + at, sizeof image);
        if (group[image] != UINT32_MAX)
            (*start)[group[image] + 2]++;
    }
    for (size_t g = 0; g < ngroups; g++)
        (*start)[g + 2] += (*start)[g + 1];
    for (size_t i = 0; i < n; i++) {
        uint32_t image;
        memcpy(&image, base + i * size + at, sizeof image);
        if (group[image] != UINT32_MAX)
            (*idx)[(*start)[group[image] + 1]++] = (uint32_t)i;
    }
    return 1;
}

/* A routine's NODES rows in NODE_ID order (file order among equal ids,
 * whose later rows have no line). */
static void routine_nodes(const tc_dcfg_proc *p, const tc_dcfg_routine *rt, size_t ri,
                          uint64_t **scratch, size_t *cap, void (*on_line)(void *, const void *),
                          void *user, tc_dcfg_dump_rec *r)
{
    if (!rt->nnodes)
        return;
    if (!tc_dcfg_grow((void **)scratch, cap, rt->nnodes, sizeof **scratch)) {
        tc_diag_fail(r->doc->d, "out of memory ordering the %" PRIu32 " nodes of routine %" PRIu32
                  " for the dump",
                  rt->nnodes, rt->entry);
        return;
    }
    for (uint32_t k = 0; k < rt->nnodes; k++)
        (*scratch)[k] = (uint64_t)p->ids.v[rt->nodes + 2 * k] << 32 | k;
    qsort(*scratch, rt->nnodes, sizeof **scratch, cmp_u64);
    for (uint32_t k = 0; k < rt->nnodes; k++)
        if (!k || (*scratch)[k] >> 32 != (*scratch)[k - 1] >> 32)
            emit(on_line, user, r, TC_DCFG_D_ROUTINE_NODE, ri, (uint32_t)(*scratch)[k]);
}

/* A process's images in IMAGE_ID order, each followed by what it holds.
 * Images that repeat an id form one group under the first one's line. */
static void dump_images(const tc_dcfg_proc *p, void (*on_line)(void *, const void *), void *user,
                        tc_dcfg_dump_rec *r)
{
    size_t ni = p->images.n, ng = 0;
    uint64_t *order = malloc((ni + 1) * sizeof *order), *scratch = NULL;
    uint32_t *group = malloc((ni + 1) * sizeof *group), *first = malloc((ni + 1) * sizeof *first);
    uint32_t *sym = NULL, *sym_at = NULL, *blk = NULL, *blk_at = NULL, *rtn = NULL,
             *rtn_at = NULL;
    size_t cap = 0, n = 0;
    if (!order || !group || !first)
        goto oom;
    for (size_t i = 0; i < ni; i++) {
        group[i] = UINT32_MAX;
        if (!p->images.v[i].bad)
            order[n++] = (uint64_t)p->images.v[i].id << 32 | i;
    }
    qsort(order, n, sizeof *order, cmp_u64);
    for (size_t k = 0; k < n; k++) {
        if (!k || order[k] >> 32 != order[k - 1] >> 32)
            first[ng++] = (uint32_t)order[k];
        group[(uint32_t)order[k]] = (uint32_t)(ng - 1);
    }
    if (!group_items(p->symbols.v, p->symbols.n, sizeof *p->symbols.v,
                     offsetof(tc_dcfg_symbol, image), group, ng, &sym, &sym_at) ||
        !group_items(p->blocks.v, p->blocks.n, sizeof *p->blocks.v, offsetof(tc_dcfg_block, image),
                     group, ng, &blk, &blk_at) ||
        !group_items(p->routines.v, p->routines.n, sizeof *p->routines.v,
                     offsetof(tc_dcfg_routine, image), group, ng, &rtn, &rtn_at))
        goto oom;
    for (size_t g = 0; g < ng; g++) {
        emit(on_line, user, r, TC_DCFG_D_IMAGE, first[g], 0);
        for (uint32_t k = sym_at[g]; k < sym_at[g + 1]; k++)
            emit(on_line, user, r, TC_DCFG_D_SYMBOL, sym[k], 0);
        for (uint32_t k = blk_at[g]; k < blk_at[g + 1]; k++)
            emit(on_line, user, r, TC_DCFG_D_BLOCK, blk[k], 0);
        for (uint32_t k = rtn_at[g]; k < rtn_at[g + 1]; k++) {
            const tc_dcfg_routine *rt = &p->routines.v[rtn[k]];
            emit(on_line, user, r, TC_DCFG_D_ROUTINE, rtn[k], 0);
            routine_nodes(p, rt, rtn[k], &scratch, &cap, on_line, user, r);
            for (size_t l = 0; l < rt->nloops; l++)
                emit(on_line, user, r, TC_DCFG_D_LOOP, rtn[k], l);
        }
    }
    goto out;
oom:
    tc_diag_fail(r->doc->d, "out of memory ordering the %zu images of process %" PRIu64 " for the dump", ni,
              p->pid);
out:
    free(order);
    free(group);
    free(first);
    free(sym);
    free(sym_at);
    free(blk);
    free(blk_at);
    free(rtn);
    free(rtn_at);
    free(scratch);
}

void tc_dcfg_dump_all(const tc_dcfg_doc *doc, void (*on_line)(void *, const void *), void *user)
{
    tc_dcfg_dump_rec r = {0, doc, NULL, 0, 0};
    emit(on_line, user, &r, TC_DCFG_D_HEADER, 0, 0);
    for (size_t i = 0; i < doc->files.n; i++)
        emit(on_line, user, &r, TC_DCFG_D_FILE, i, 0);
    for (size_t i = 0; i < doc->edge_types.n; i++)
        emit(on_line, user, &r, TC_DCFG_D_EDGE_TYPE, i, 0);
    for (size_t i = 0; i < doc->specials.n; i++)
        emit(on_line, user, &r, TC_DCFG_D_SPECIAL, i, 0);
    for (size_t pi = 0; pi < doc->procs.n; pi++) {
        const tc_dcfg_proc *p = &doc->procs.v[pi];
        r.p = p;
        emit(on_line, user, &r, TC_DCFG_D_PROCESS, 0, 0);
        for (size_t t = 0; t < p->nthreads && p->threads_at + t < p->u64s.n; t++)
            emit(on_line, user, &r, TC_DCFG_D_THREAD, t, 0);
        dump_images(p, on_line, user, &r);
        for (size_t e = 0; e < p->edges.n; e++)
            emit(on_line, user, &r, TC_DCFG_D_EDGE, e, 0);
    }
}

/* An array of ids in the document's order. */
static void ids(tc_jsonl *w, const char *key, const tc_dcfg_proc *p, uint32_t at, uint32_t n)
{
    int ok = p->ids.v && (size_t)at + n <= p->ids.n;
    tc_jl_u32_array(w, key, ok ? p->ids.v + at : NULL, ok ? n : 0);
}

void tc_dcfg_dump(tc_jsonl *w, const void *rec)
{
    const tc_dcfg_dump_rec *r = rec;
    const tc_dcfg_doc *doc = r->doc;
    const tc_dcfg_proc *p = r->p;
    switch (r->kind) {
    case TC_DCFG_D_HEADER:
        tc_jl_begin(w, "header");
        tc_jl_str(w, "format", "dcfg");
        tc_jl_int(w, "dump_version", TC_DUMP_VERSION);
        if (doc->has_major)
            tc_jl_u64s(w, "major_version", doc->major);
        if (doc->has_minor)
            tc_jl_u64s(w, "minor_version", doc->minor);
        break;
    case TC_DCFG_D_FILE:
    case TC_DCFG_D_EDGE_TYPE:
    case TC_DCFG_D_SPECIAL: {
        const tc_dcfg_named *v = r->kind == TC_DCFG_D_FILE        ? doc->files.v
                              : r->kind == TC_DCFG_D_EDGE_TYPE ? doc->edge_types.v
                                                            : doc->specials.v;
        tc_jl_begin(w, r->kind == TC_DCFG_D_FILE        ? "file_name"
                       : r->kind == TC_DCFG_D_EDGE_TYPE ? "edge_type"
                                                     : "special_node");
        tc_jl_uint(w, "id", v[r->i].id);
        if (v[r->i].name)
            tc_jl_str(w, "name", v[r->i].name);
        break;
    }
    case TC_DCFG_D_PROCESS:
        tc_jl_begin(w, "process");
        tc_jl_u64s(w, "pid", p->pid);
        if (p->has_count)
            tc_jl_u64s(w, "instr_count", p->instr_count);
        if (p->has_threads)
            tc_jl_u64s(w, "threads", p->nthreads);
        break;
    case TC_DCFG_D_THREAD:
        tc_jl_begin(w, "thread");
        tc_jl_u64s(w, "pid", p->pid);
        tc_jl_uint(w, "thread", r->i);
        tc_jl_u64s(w, "instr_count", p->u64s.v[p->threads_at + r->i]);
        break;
    case TC_DCFG_D_IMAGE: {
        const tc_dcfg_image *im = &p->images.v[r->i];
        tc_jl_begin(w, "image");
        tc_jl_u64s(w, "pid", p->pid);
        tc_jl_uint(w, "id", im->id);
        tc_jl_u64s(w, "load_addr", im->load);
        tc_jl_u64s(w, "size", im->size);
        if (im->has_file)
            tc_jl_uint(w, "file_name_id", im->file);
        break;
    }
    case TC_DCFG_D_SYMBOL: {
        const tc_dcfg_symbol *s = &p->symbols.v[r->i];
        tc_jl_begin(w, s->source ? "source" : "symbol");
        tc_jl_u64s(w, "pid", p->pid);
        tc_jl_uint(w, "image", p->images.v[s->image].id);
        if (s->source) {
            tc_jl_uint(w, "file_name_id", s->file);
            if (s->has & 1)
                tc_jl_u64s(w, "line_num", s->line);
        } else {
            tc_jl_str(w, "name", s->name ? s->name : "");
        }
        tc_jl_u64s(w, "addr_offset", s->addr);
        tc_jl_u64s(w, "size", s->size);
        if (s->has & 2)
            tc_jl_u64s(w, "num_instrs", s->ninstrs);
        break;
    }
    case TC_DCFG_D_BLOCK: {
        const tc_dcfg_block *b = &p->blocks.v[r->i];
        tc_jl_begin(w, "block");
        tc_jl_u64s(w, "pid", p->pid);
        tc_jl_uint(w, "id", b->id);
        tc_jl_uint(w, "image", p->images.v[b->image].id);
        tc_jl_u64s(w, "addr_offset", b->addr);
        tc_jl_u64s(w, "size", b->size);
        if (b->has & TC_DCFG_B_NINSTRS)
            tc_jl_u64s(w, "num_instrs", b->ninstrs);
        if (b->has & TC_DCFG_B_LAST)
            tc_jl_u64s(w, "last_instr_offset", b->last);
        if (b->has & TC_DCFG_B_COUNT)
            tc_jl_u64s(w, "count", b->count);
        break;
    }
    case TC_DCFG_D_ROUTINE: {
        const tc_dcfg_routine *rt = &p->routines.v[r->i];
        tc_jl_begin(w, "routine");
        tc_jl_u64s(w, "pid", p->pid);
        tc_jl_uint(w, "entry", rt->entry);
        if (rt->has_exits)
            ids(w, "exits", p, rt->exits, rt->nexits);
        break;
    }
    case TC_DCFG_D_ROUTINE_NODE: {
        const tc_dcfg_routine *rt = &p->routines.v[r->i];
        tc_jl_begin(w, "routine_node");
        tc_jl_u64s(w, "pid", p->pid);
        tc_jl_uint(w, "entry", rt->entry);
        tc_jl_uint(w, "node", p->ids.v[rt->nodes + 2 * r->k]);
        tc_jl_uint(w, "idom", p->ids.v[rt->nodes + 2 * r->k + 1]);
        break;
    }
    case TC_DCFG_D_LOOP: {
        const tc_dcfg_routine *rt = &p->routines.v[r->i];
        const tc_dcfg_loop *l = &p->loops.v[rt->loops + r->k];
        tc_jl_begin(w, "loop");
        tc_jl_u64s(w, "pid", p->pid);
        tc_jl_uint(w, "entry", rt->entry);
        tc_jl_uint(w, "head", l->head);
        if (l->has & TC_DCFG_L_BACK)
            ids(w, "back_edge_sources", p, l->back, l->nback);
        if (l->has & TC_DCFG_L_NODES)
            ids(w, "nodes", p, l->nodes, l->nnodes);
        tc_jl_uint(w, "parent", l->has_parent ? l->parent : 0);
        break;
    }
    case TC_DCFG_D_EDGE: {
        const tc_dcfg_edge *e = &p->edges.v[r->i];
        tc_jl_begin(w, "edge");
        tc_jl_u64s(w, "pid", p->pid);
        tc_jl_uint(w, "id", e->id);
        tc_jl_uint(w, "source", e->source);
        tc_jl_uint(w, "target", e->target);
        tc_jl_uint(w, "type", e->type);
        if (e->has_counts) /* 64-bit values: decimal strings */
            tc_jl_u64s_array(w, "count_per_thread", p->u64s.v ? p->u64s.v + e->counts : NULL,
                             p->u64s.v && (size_t)e->counts + e->ncounts <= p->u64s.n
                                 ? e->ncounts
                                 : 0);
        break;
    }
    default:
        return;
    }
    tc_jl_end(w);
}
