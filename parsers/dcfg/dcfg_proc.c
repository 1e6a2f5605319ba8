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
    uint64_t v = 0;
    int ok = 0;
    switch (col) {
    case 0:
        if ((ok = tc_dcfg_id(rd->j, t, "IMAGE_ID", 1, &v)) != 0) {
            im->id = (uint32_t)v;
            im->bad = 0;
        }
        break;
    case 1:
        if ((ok = tc_dcfg_int(rd->j, t, "LOAD_ADDR", &v)) != 0) {
            im->load = v;
            im->has_load = 1;
        }
        break;
    case 2:
        if ((ok = tc_dcfg_int(rd->j, t, "SIZE", &v)) != 0) {
            im->size = v;
            im->has_size = 1;
        }
        break;
    default:
        if (!tc_dcfg_expect(rd, t, TC_JSON_OBJECT_BEGIN, "IMAGE_DATA")) {
            int rc = tc_dcfg_skip(rd, t);
            if (TC_DCFG_WANT(rd))
                tc_dcfg_field(rd->doc->d, t, tc_dcfg_end(rd), rd->col_key,
                              "(not read: %s, not an object)", tc_json_kind_name(t->kind));
            return rc;
        }
        return tc_dcfg_read_image_data(rd, t, c->p, c->index);
    }
    int rc = tc_dcfg_skip(rd, t);
    if (col == 0)
        TC_DCFG_ID_FIELD(rd, t, ok, v);
    else
        TC_DCFG_INT_FIELD(rd, t, ok, v);
    return rc;
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
        {"IMAGE_ID", 1, "id", 0},
        {"LOAD_ADDR", 1, "load_addr", 0},
        {"SIZE", 1, "size", 0},
        {"IMAGE_DATA", 0, "image_data", 1}};
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
    char list[TC_FIELD_VALUE_MAX]; /* the view's */
    size_t shown = 0;
    int want = TC_DCFG_WANT(rd);
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
        if (want && shown < sizeof list - 40)
            shown += (size_t)snprintf(list + shown, sizeof list - shown, "%s%" PRIu64,
                                      c->e.ncounts > 1 ? ", " : "", n);
        uint64_t *slot;
        if (dump && !TC_DCFG_PUSH(c->p->u64s, slot))
            return nomem(rd, t);
        if (dump)
            *slot = n;
    }
    if (want && !rd->failed)
        tc_dcfg_field(rd->doc->d, t, tc_dcfg_end(rd), rd->col_key, "[%.*s%s] (sum %" PRIu64 ")",
                      (int)shown, list, shown >= sizeof list - 40 ? ", ..." : "", c->e.count);
    return !rd->failed;
}

/* The view: what an id names, when it is found (a linear search: only
 * for a record shown). */
static const char *name_of(const tc_dcfg_named *v, size_t n, uint32_t id)
{
    for (size_t i = 0; i < n; i++)
        if (v[i].id == id && v[i].name)
            return v[i].name;
    return NULL;
}

static int edge_cell(tc_dcfg_rd *rd, void *u, unsigned col, const tc_json_token *t)
{
    static const char *const names[] = {"EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID",
                                        "EDGE_TYPE_ID"};
    edge_ctx *c = u;
    if (col == 4) {
        if (!tc_dcfg_expect(rd, t, TC_JSON_ARRAY_BEGIN, "COUNT_PER_THREAD")) {
            int rc = tc_dcfg_skip(rd, t);
            if (TC_DCFG_WANT(rd))
                tc_dcfg_field(rd->doc->d, t, tc_dcfg_end(rd), rd->col_key,
                              "(not read: %s, not an array)", tc_json_kind_name(t->kind));
            return rc;
        }
        return edge_counts(rd, c, t);
    }
    uint64_t v = 0;
    int ok = tc_dcfg_id(rd->j, t, names[col], 0, &v);
    if (ok) {
        uint32_t *f[] = {&c->e.id, &c->e.source, &c->e.target, &c->e.type};
        *f[col] = (uint32_t)v;
    } else {
        c->ok = 0;
    }
    int rc = tc_dcfg_skip(rd, t);
    if (TC_DCFG_WANT(rd)) {
        const tc_dcfg_doc *doc = rd->doc;
        const char *name = !ok ? NULL
                           : col == 3 ? name_of(doc->edge_types.v, doc->edge_types.n, (uint32_t)v)
                           : col ? name_of(doc->specials.v, doc->specials.n, (uint32_t)v)
                                 : NULL;
        if (name)
            tc_dcfg_field(doc->d, t, tc_dcfg_end(rd), rd->col_key, "%" PRIu64 " (%.64s)", v, name);
        else
            tc_dcfg_field_id(doc->d, t, tc_dcfg_end(rd), rd->col_key, ok, v);
    }
    return rc;
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
    static const tc_dcfg_col cols[] = {{"EDGE_ID", 1, "id", 0},
                                       {"SOURCE_NODE_ID", 1, "source", 0},
                                       {"TARGET_NODE_ID", 1, "target", 0},
                                       {"EDGE_TYPE_ID", 1, "type", 0},
                                       {"COUNT_PER_THREAD", 0, "count_per_thread", 0}};
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
        uint64_t n = 0;
        int ok = tc_dcfg_int(rd->j, &v, "INSTR_COUNT_PER_THREAD value", &n);
        if (!ok) {
            if (!tc_dcfg_skip(rd, &v))
                return 0;
            n = 0;
        }
        if (TC_DCFG_WANT(rd)) {
            if (ok)
                tc_dcfg_field(rd->doc->d, &v, tc_dcfg_end(rd), "instr_count",
                              "%" PRIu64 " (thread %" PRIu64 ")", n, (uint64_t)p->nthreads);
            else
                tc_dcfg_field_int(rd->doc->d, &v, tc_dcfg_end(rd), "instr_count", 0, 0);
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
        /* The view: a member that is no table is a record. */
        int member = which == 1 || which == 2 || which == 0;
        if (TC_FIELDS_ON(rd->doc->d) && member)
            tc_dcfg_member(rd->doc->d, &k, "PROCESS_DATA", which != 0);
        if (!tc_dcfg_next(rd, &v))
            return 0;
        int ok = 1;
        switch (which) {
        case 1:
            tc_dcfg_here(rd, &v, UINT32_MAX, 0, &p->count_at);
            int read = tc_dcfg_int(rd->j, &v, "INSTR_COUNT", &p->instr_count);
            if (read) {
                p->has_count = 1;
                p->count_at.table = tc_dcfg_add_path(rd);
            }
            ok = tc_dcfg_skip(rd, &v);
            if (TC_DCFG_WANT(rd))
                tc_dcfg_field_int(rd->doc->d, &v, tc_dcfg_end(rd), "instr_count", read,
                                  p->instr_count);
            break;
        case 2: ok = read_threads(rd, &v, p); break;
        case 3: ok = read_images(rd, &v, p); break;
        case 4: ok = read_edges(rd, &v, p); break;
        default: ok = tc_dcfg_skip(rd, &v);
        }
        if (!ok)
            return 0;
        if (TC_FIELDS_ON(rd->doc->d) && member)
            tc_fields_record_end(rd->doc->d, tc_dcfg_end(rd));
    }
    return !rd->failed;
}
