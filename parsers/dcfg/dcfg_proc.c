/*
 * PROCESS_DATA (Doc §2.8), its IMAGES (§2.9) and EDGES (§2.16) tables. The
 * image data is read by dcfg_image.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg_common.h"
#include "dcfg_table.h"

#define KEY(t, s) ((t)->len == sizeof(s) - 1 && !memcmp((t)->text, s, sizeof(s) - 1))

int tc_dcfg_read_image_data(tc_dcfg_rd *rd, const tc_json_token *t, tc_dcfg_proc *p, uint32_t image);
int tc_dcfg_read_process_data(tc_dcfg_rd *rd, const tc_json_token *t, tc_dcfg_proc *p);
void tc_dcfg_proc_free(tc_dcfg_proc *p);

void tc_dcfg_proc_free(tc_dcfg_proc *p)
{
    for (size_t i = 0; i < p->symbols.n; i++)
        free(p->symbols.v[i].name);
    free(p->images.v);
    free(p->blocks.v);
    free(p->edges.v);
    free(p->routines.v);
    free(p->loops.v);
    free(p->symbols.v);
    free(p->ids.v);
    free(p->locs.v);
    free(p->refs.v);
    free(p->u64s.v);
    free(p->block_at);
    free(p->edge_at);
    memset(p, 0, sizeof *p);
}

static int nomem(tc_dcfg_rd *rd, const tc_json_token *t)
{
    (void)t;
    tc_diag_fail(rd->doc->d, "out of memory holding the graph");
    rd->failed = 1;
    rd->doc->broken = 1;
    return 0;
}

/* ---- IMAGES ---- */

typedef struct image_ctx {
    tc_dcfg_proc *p;
    uint32_t index;
} image_ctx;

static void image_begin(tc_dcfg_rd *rd, void *u, const tc_dcfg_loc *at)
{
    image_ctx *c = u;
    tc_dcfg_image *im;
    if (!TC_DCFG_PUSH(c->p->images, im)) {
        rd->failed = rd->doc->broken = 1;
        c->index = UINT32_MAX;
        return;
    }
    memset(im, 0, sizeof *im);
    im->at = *at;
    im->bad = 1; /* until its IMAGE_ID is read */
    c->index = (uint32_t)(c->p->images.n - 1);
}

static int image_cell(tc_dcfg_rd *rd, void *u, unsigned col, const tc_json_token *t)
{
    image_ctx *c = u;
    if (c->index == UINT32_MAX)
        return tc_dcfg_skip(rd, t);
    tc_dcfg_image *im = &c->p->images.v[c->index];
    uint64_t v;
    switch (col) {
    case 0:
        if (tc_dcfg_id(rd->j, t, "IMAGE_ID", 1, &v)) {
            im->id = (uint32_t)v;
            im->bad = 0;
        }
        break;
    case 1:
        if (tc_dcfg_int(rd->j, t, "LOAD_ADDR", &v)) {
            im->load = v;
            im->has_load = 1;
        }
        break;
    case 2:
        if (tc_dcfg_int(rd->j, t, "SIZE", &v)) {
            im->size = v;
            im->has_size = 1;
        }
        break;
    default:
        if (!tc_dcfg_expect(rd, t, TC_JSON_OBJECT_BEGIN, "IMAGE_DATA"))
            break;
        return tc_dcfg_read_image_data(rd, t, c->p, c->index);
    }
    return tc_dcfg_skip(rd, t);
}

static void image_end(tc_dcfg_rd *rd, void *u, unsigned seen, int complete)
{
    (void)rd;
    (void)seen;
    image_ctx *c = u;
    if (c->index != UINT32_MAX && !complete)
        c->p->images.v[c->index].bad = 1;
}

static int read_images(tc_dcfg_rd *rd, const tc_json_token *t, tc_dcfg_proc *p)
{
    static const tc_dcfg_col cols[] = {
        {"IMAGE_ID", 1}, {"LOAD_ADDR", 1}, {"SIZE", 1}, {"IMAGE_DATA", 0}};
    image_ctx c = {p, 0};
    tc_dcfg_table tb = {"IMAGES", cols, 4, image_begin, image_cell, image_end};
    return tc_dcfg_read_table(rd, t, &tb, &c, NULL);
}

/* ---- EDGES ---- */

typedef struct edge_ctx {
    tc_dcfg_proc *p;
    tc_dcfg_edge e;
    int ok;
} edge_ctx;

static void edge_begin(tc_dcfg_rd *rd, void *u, const tc_dcfg_loc *at)
{
    (void)rd;
    edge_ctx *c = u;
    memset(&c->e, 0, sizeof c->e);
    c->e.at = *at;
    c->ok = 1;
}

static int edge_counts(tc_dcfg_rd *rd, edge_ctx *c, const tc_json_token *t)
{
    tc_json_token v;
    int dump = rd->doc->dump;
    c->e.has_counts = 1;
    c->e.counts = (uint32_t)c->p->u64s.n;
    while (tc_dcfg_next(rd, &v) && v.kind != TC_JSON_ARRAY_END) {
        uint64_t n;
        if (!tc_dcfg_int(rd->j, &v, "COUNT_PER_THREAD value", &n)) {
            if (!tc_dcfg_skip(rd, &v))
                return 0;
            n = 0;
        }
        c->e.ncounts++;
        c->e.count = c->e.count + n < c->e.count ? UINT64_MAX : c->e.count + n;
        uint64_t *slot;
        if (dump && !TC_DCFG_PUSH(c->p->u64s, slot))
            return nomem(rd, t);
        if (dump)
            *slot = n;
    }
    return !rd->failed;
}

static int edge_cell(tc_dcfg_rd *rd, void *u, unsigned col, const tc_json_token *t)
{
    static const char *const names[] = {"EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID",
                                        "EDGE_TYPE_ID"};
    edge_ctx *c = u;
    if (col == 4) {
        if (!tc_dcfg_expect(rd, t, TC_JSON_ARRAY_BEGIN, "COUNT_PER_THREAD"))
            return tc_dcfg_skip(rd, t);
        return edge_counts(rd, c, t);
    }
    uint64_t v;
    if (tc_dcfg_id(rd->j, t, names[col], 0, &v)) {
        uint32_t *f[] = {&c->e.id, &c->e.source, &c->e.target, &c->e.type};
        *f[col] = (uint32_t)v;
    } else {
        c->ok = 0;
    }
    return tc_dcfg_skip(rd, t);
}

static void edge_end(tc_dcfg_rd *rd, void *u, unsigned seen, int complete)
{
    (void)seen;
    edge_ctx *c = u;
    tc_dcfg_edge *slot;
    if (!complete || !c->ok)
        return;
    if (!TC_DCFG_PUSH(c->p->edges, slot)) {
        rd->failed = rd->doc->broken = 1;
        return;
    }
    *slot = c->e;
}

static int read_edges(tc_dcfg_rd *rd, const tc_json_token *t, tc_dcfg_proc *p)
{
    static const tc_dcfg_col cols[] = {{"EDGE_ID", 1},      {"SOURCE_NODE_ID", 1},
                                    {"TARGET_NODE_ID", 1}, {"EDGE_TYPE_ID", 1},
                                    {"COUNT_PER_THREAD", 0}};
    edge_ctx c = {p, {0}, 0};
    tc_dcfg_table tb = {"EDGES", cols, 5, edge_begin, edge_cell, edge_end};
    return tc_dcfg_read_table(rd, t, &tb, &c, NULL);
}

/* ---- the process object ---- */

static int read_threads(tc_dcfg_rd *rd, const tc_json_token *t, tc_dcfg_proc *p)
{
    if (!tc_dcfg_expect(rd, t, TC_JSON_ARRAY_BEGIN, "INSTR_COUNT_PER_THREAD"))
        return tc_dcfg_skip(rd, t);
    p->has_threads = 1;
    p->threads_at = (uint32_t)p->u64s.n;
    tc_json_token v;
    while (tc_dcfg_next(rd, &v) && v.kind != TC_JSON_ARRAY_END) {
        uint64_t n;
        if (!tc_dcfg_int(rd->j, &v, "INSTR_COUNT_PER_THREAD value", &n)) {
            if (!tc_dcfg_skip(rd, &v))
                return 0;
            n = 0;
        }
        p->nthreads++;
        if (p->thread_sum + n < p->thread_sum)
            p->thread_sum_over = 1;
        p->thread_sum += n;
        uint64_t *slot;
        if (rd->doc->dump && !TC_DCFG_PUSH(p->u64s, slot))
            return nomem(rd, t);
        if (rd->doc->dump)
            *slot = n;
    }
    return !rd->failed;
}

int tc_dcfg_read_process_data(tc_dcfg_rd *rd, const tc_json_token *t, tc_dcfg_proc *p)
{
    (void)t;
    tc_json_token k, v;
    while (tc_dcfg_next(rd, &k) && k.kind == TC_JSON_KEY) {
        int which = KEY(&k, "INSTR_COUNT") ? 1 : KEY(&k, "INSTR_COUNT_PER_THREAD") ? 2
                    : KEY(&k, "IMAGES") ? 3 : KEY(&k, "EDGES") ? 4 : 0;
        if (!which && tc_rule_enabled(rd->doc->d, TC_RULE_DCFG_UNKNOWN_KEY))
            tc_json_report(rd->j, &k, TC_RULE_DCFG_UNKNOWN_KEY,
                           "PROCESS_DATA has a key \"%s\" tracecheck does not know; its value "
                           "is not checked",
                           k.text);
        if (!tc_dcfg_next(rd, &v))
            return 0;
        int ok = 1;
        switch (which) {
        case 1:
            tc_dcfg_here(rd, &v, UINT32_MAX, 0, &p->count_at);
            if (tc_dcfg_int(rd->j, &v, "INSTR_COUNT", &p->instr_count)) {
                p->has_count = 1;
                p->count_at.table = tc_dcfg_add_path(rd);
            }
            ok = tc_dcfg_skip(rd, &v);
            break;
        case 2: ok = read_threads(rd, &v, p); break;
        case 3: ok = read_images(rd, &v, p); break;
        case 4: ok = read_edges(rd, &v, p); break;
        default: ok = tc_dcfg_skip(rd, &v);
        }
        if (!ok)
            return 0;
    }
    return !rd->failed;
}
