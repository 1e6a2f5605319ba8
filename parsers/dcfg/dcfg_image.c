/*
 * IMAGE_DATA (Doc §2.10): FILE_NAME_ID, SYMBOLS (§2.11), SOURCE_DATA
 * (§2.12), BASIC_BLOCKS (§2.13) and ROUTINES (§2.14) with their NODES and
 * LOOPS (§2.15) tables.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg_common.h"
#include "dcfg_table.h"

#define KEY(t, s) ((t)->len == sizeof(s) - 1 && !memcmp((t)->text, s, sizeof(s) - 1))

int tc_dcfg_read_image_data(tc_dcfg_rd *rd, const tc_json_token *t, tc_dcfg_proc *p, uint32_t image);

static int stop(tc_dcfg_rd *rd)
{
    rd->failed = rd->doc->broken = 1;
    return 0;
}

/* ---- SYMBOLS and SOURCE_DATA ---- */

typedef struct sym_ctx {
    tc_dcfg_proc *p;
    uint32_t image;
    int source;
    tc_dcfg_symbol s;
    tc_dcfg_loc at;
    int ok;
} sym_ctx;

static void sym_begin(tc_dcfg_rd *rd, void *u, const tc_dcfg_loc *at)
{
    (void)rd;
    sym_ctx *c = u;
    free(c->s.name);
    memset(&c->s, 0, sizeof c->s);
    c->s.image = c->image;
    c->s.source = c->source;
    c->at = *at;
    c->ok = 1;
}

/* Columns: symbols NAME, ADDR_OFFSET, SIZE; source FILE_NAME_ID, LINE_NUM,
 * ADDR_OFFSET, SIZE, NUM_INSTRS (numbered 0..4 with NAME as 5). */
static int sym_cell(tc_dcfg_rd *rd, void *u, unsigned col, const tc_json_token *t)
{
    sym_ctx *c = u;
    uint64_t v = 0;
    int ok = 0;
    if (!c->source)
        col = col == 0 ? 5 : col + 1; /* NAME, ADDR_OFFSET (2), SIZE (3) */
    switch (col) {
    case 5:
        if (tc_dcfg_expect(rd, t, TC_JSON_STRING, "NAME") && rd->doc->dump) {
            c->s.name = malloc(t->len + 1);
            if (!c->s.name)
                return stop(rd);
            memcpy(c->s.name, t->text, t->len + 1);
        }
        if (TC_DCFG_WANT(rd))
            tc_dcfg_field_str(rd->doc->d, t, t->kind == TC_JSON_STRING ? tc_dcfg_end(rd)
                                                                       : t->offset + 1,
                              rd->col_key);
        break;
    case 0:
        if ((ok = tc_dcfg_id(rd->j, t, "FILE_NAME_ID", 0, &v)) != 0) {
            c->s.file = (uint32_t)v;
            c->s.has |= 4;
        } else {
            c->ok = 0;
        }
        break;
    case 1:
        if ((ok = tc_dcfg_int(rd->j, t, "LINE_NUM", &c->s.line)) != 0)
            c->s.has |= 1;
        v = c->s.line;
        break;
    case 2:
        if (!(ok = tc_dcfg_int(rd->j, t, "ADDR_OFFSET", &c->s.addr)))
            c->ok = 0;
        v = c->s.addr;
        break;
    case 3:
        if (!(ok = tc_dcfg_int(rd->j, t, "SIZE", &c->s.size)))
            c->ok = 0;
        v = c->s.size;
        break;
    default:
        if ((ok = tc_dcfg_int(rd->j, t, "NUM_INSTRS", &c->s.ninstrs)) != 0)
            c->s.has |= 2;
        v = c->s.ninstrs;
    }
    int rc = tc_dcfg_skip(rd, t);
    if (col == 0)
        TC_DCFG_ID_FIELD(rd, t, ok, v);
    else if (col != 5)
        TC_DCFG_INT_FIELD(rd, t, ok, v);
    return rc;
}

static void sym_end(tc_dcfg_rd *rd, void *u, unsigned seen, int complete)
{
    (void)seen;
    sym_ctx *c = u;
    if (!complete || !c->ok)
        return;
    tc_dcfg_ref *r;
    if (!TC_DCFG_PUSH(c->p->refs, r)) {
        stop(rd);
        return;
    }
    memset(r, 0, sizeof *r);
    r->image = c->image;
    r->file = c->source ? c->s.file : 0;
    r->range = 1;
    r->what = c->source ? "source range" : "symbol";
    r->addr = c->s.addr;
    r->end = c->s.addr + c->s.size;
    r->end_over = r->end < c->s.addr;
    r->at = c->at;
    if (rd->doc->dump) {
        tc_dcfg_symbol *s;
        if (!TC_DCFG_PUSH(c->p->symbols, s)) {
            stop(rd);
            return;
        }
        *s = c->s;
        c->s.name = NULL;
    }
}

static int read_symbols(tc_dcfg_rd *rd, const tc_json_token *t, tc_dcfg_proc *p, uint32_t image,
                        int source)
{
    static const tc_dcfg_col sym_cols[] = {
        {"NAME", 1, "name", 0}, {"ADDR_OFFSET", 1, "addr_offset", 0}, {"SIZE", 1, "size", 0}};
    static const tc_dcfg_col src_cols[] = {{"FILE_NAME_ID", 1, "file_name_id", 0},
                                           {"LINE_NUM", 0, "line_num", 0},
                                           {"ADDR_OFFSET", 1, "addr_offset", 0},
                                           {"SIZE", 1, "size", 0},
                                           {"NUM_INSTRS", 0, "num_instrs", 0}};
    sym_ctx c;
    memset(&c, 0, sizeof c);
    c.p = p;
    c.image = image;
    c.source = source;
    tc_dcfg_table tb = {source ? "SOURCE_DATA" : "SYMBOLS", source ? src_cols : sym_cols,
                     source ? 5u : 3u, sym_begin, sym_cell, sym_end};
    int rc = tc_dcfg_read_table(rd, t, &tb, &c, NULL);
    free(c.s.name);
    return rc;
}

/* ---- BASIC_BLOCKS ---- */

typedef struct block_ctx {
    tc_dcfg_proc *p;
    tc_dcfg_block b;
    int ok;
} block_ctx;

static void block_begin(tc_dcfg_rd *rd, void *u, const tc_dcfg_loc *at)
{
    (void)rd;
    block_ctx *c = u;
    uint32_t image = c->b.image;
    memset(&c->b, 0, sizeof c->b);
    c->b.image = image;
    c->b.at = *at;
    c->ok = 1;
}

static int block_cell(tc_dcfg_rd *rd, void *u, unsigned col, const tc_json_token *t)
{
    static const char *const names[] = {"NODE_ID",    "ADDR_OFFSET",       "SIZE",
                                        "NUM_INSTRS", "LAST_INSTR_OFFSET", "COUNT"};
    block_ctx *c = u;
    uint64_t v = 0;
    int ok = col == 0 ? tc_dcfg_id(rd->j, t, names[col], 0, &v)
                      : tc_dcfg_int(rd->j, t, names[col], &v);
    if (col == 0)
        TC_DCFG_ID_FIELD(rd, t, ok, v);
    else
        TC_DCFG_INT_FIELD(rd, t, ok, v);
    if (!ok) {
        if (col < 3)
            c->ok = 0;
        return tc_dcfg_skip(rd, t);
    }
    switch (col) {
    case 0: c->b.id = (uint32_t)v; break;
    case 1: c->b.addr = v; break;
    case 2: c->b.size = v; break;
    case 3: c->b.ninstrs = v; c->b.has |= TC_DCFG_B_NINSTRS; break;
    case 4: c->b.last = v; c->b.has |= TC_DCFG_B_LAST; break;
    default: c->b.count = v; c->b.has |= TC_DCFG_B_COUNT;
    }
    return tc_dcfg_skip(rd, t);
}

static void block_end(tc_dcfg_rd *rd, void *u, unsigned seen, int complete)
{
    (void)seen;
    block_ctx *c = u;
    tc_dcfg_block *slot;
    if (!complete || !c->ok)
        return;
    if (!TC_DCFG_PUSH(c->p->blocks, slot)) {
        stop(rd);
        return;
    }
    *slot = c->b;
}

static int read_blocks(tc_dcfg_rd *rd, const tc_json_token *t, tc_dcfg_proc *p, uint32_t image)
{
    static const tc_dcfg_col cols[] = {{"NODE_ID", 1, "id", 0},
                                       {"ADDR_OFFSET", 1, "addr_offset", 0},
                                       {"SIZE", 1, "size", 0},
                                       {"NUM_INSTRS", 0, "num_instrs", 0},
                                       {"LAST_INSTR_OFFSET", 0, "last_instr_offset", 0},
                                       {"COUNT", 0, "count", 0}};
    block_ctx c;
    memset(&c, 0, sizeof c);
    c.p = p;
    c.b.image = image;
    tc_dcfg_table tb = {"BASIC_BLOCKS", cols, 6, block_begin, block_cell, block_end};
    return tc_dcfg_read_table(rd, t, &tb, &c, NULL);
}

/* ---- ROUTINES, NODES, LOOPS ---- */

typedef struct pair_ctx { /* NODES: NODE_ID, IDOM_NODE_ID pairs */
    tc_dcfg_proc *p;
    uint32_t node, idom;
    int ok;
    uint32_t count;
    tc_dcfg_loc at;
} pair_ctx;

static void pair_begin(tc_dcfg_rd *rd, void *u, const tc_dcfg_loc *at)
{
    (void)rd;
    pair_ctx *c = u;
    c->ok = 1;
    c->at = *at;
}

static int pair_cell(tc_dcfg_rd *rd, void *u, unsigned col, const tc_json_token *t)
{
    pair_ctx *c = u;
    uint64_t v = 0;
    int ok = tc_dcfg_id(rd->j, t, col ? "IDOM_NODE_ID" : "NODE_ID", 0, &v);
    if (ok)
        *(col ? &c->idom : &c->node) = (uint32_t)v;
    else
        c->ok = 0;
    int rc = tc_dcfg_skip(rd, t);
    TC_DCFG_ID_FIELD(rd, t, ok, v);
    return rc;
}

static void pair_end(tc_dcfg_rd *rd, void *u, unsigned seen, int complete)
{
    (void)seen;
    pair_ctx *c = u;
    if (!complete || !c->ok)
        return;
    /* A row's place in the NODES table is kept with it: findings point there. */
    uint32_t *s;
    tc_dcfg_loc *at;
    for (int i = 0; i < 2; i++) {
        if (!TC_DCFG_PUSH(c->p->ids, s)) {
            stop(rd);
            return;
        }
        *s = i ? c->idom : c->node;
    }
    if (!TC_DCFG_PUSH(c->p->locs, at)) {
        stop(rd);
        return;
    }
    *at = c->at;
    c->count++;
}

typedef struct loop_ctx {
    tc_dcfg_proc *p;
    tc_dcfg_loop l;
    int ok;
    uint32_t count;
} loop_ctx;

static void loop_begin(tc_dcfg_rd *rd, void *u, const tc_dcfg_loc *at)
{
    (void)rd;
    loop_ctx *c = u;
    memset(&c->l, 0, sizeof c->l);
    c->l.at = *at;
    c->ok = 1;
}

static int loop_cell(tc_dcfg_rd *rd, void *u, unsigned col, const tc_json_token *t)
{
    loop_ctx *c = u;
    uint64_t v = 0;
    int ok, rc;
    switch (col) {
    case 0:
        if ((ok = tc_dcfg_id(rd->j, t, "LOOP_HEAD_NODE_ID", 0, &v)) != 0)
            c->l.head = (uint32_t)v;
        else
            c->ok = 0;
        rc = tc_dcfg_skip(rd, t);
        TC_DCFG_ID_FIELD(rd, t, ok, v);
        return rc;
    case 1:
        c->l.back = (uint32_t)c->p->ids.n;
        if (t->kind == TC_JSON_ARRAY_BEGIN)
            c->l.has |= TC_DCFG_L_BACK;
        return tc_dcfg_read_ids(rd, t, "LOOP_BACK_EDGE_SOURCE_NODE_IDS", &c->p->ids, &c->l.nback);
    case 2:
        c->l.nodes = (uint32_t)c->p->ids.n;
        if (t->kind == TC_JSON_ARRAY_BEGIN)
            c->l.has |= TC_DCFG_L_NODES;
        return tc_dcfg_read_ids(rd, t, "LOOP_NODE_IDS", &c->p->ids, &c->l.nnodes);
    default:
        if ((ok = tc_dcfg_id(rd->j, t, "PARENT_LOOP_HEAD_NODE_ID", 1, &v)) != 0) {
            c->l.parent = (uint32_t)v;
            c->l.has_parent = v != 0;
        }
        rc = tc_dcfg_skip(rd, t);
        if (TC_DCFG_WANT(rd) && ok && v == 0)
            tc_dcfg_field(rd->doc->d, t, tc_dcfg_end(rd), rd->col_key, "0 (none)");
        else
            TC_DCFG_ID_FIELD(rd, t, ok, v);
        return rc;
    }
}

static void loop_end(tc_dcfg_rd *rd, void *u, unsigned seen, int complete)
{
    (void)seen;
    loop_ctx *c = u;
    tc_dcfg_loop *slot;
    if (!complete || !c->ok)
        return;
    if (!TC_DCFG_PUSH(c->p->loops, slot)) {
        stop(rd);
        return;
    }
    *slot = c->l;
    c->count++;
}

typedef struct routine_ctx {
    tc_dcfg_proc *p;
    tc_dcfg_routine r;
    int ok;
} routine_ctx;

static void routine_begin(tc_dcfg_rd *rd, void *u, const tc_dcfg_loc *at)
{
    (void)rd;
    routine_ctx *c = u;
    uint32_t image = c->r.image;
    memset(&c->r, 0, sizeof c->r);
    c->r.image = image;
    c->r.at = *at;
    c->r.loops = (uint32_t)c->p->loops.n;
    c->r.nodes_table = UINT32_MAX;
    c->ok = 1;
}

static int routine_cell(tc_dcfg_rd *rd, void *u, unsigned col, const tc_json_token *t)
{
    routine_ctx *c = u;
    uint64_t v = 0;
    switch (col) {
    case 0: {
        int ok = tc_dcfg_id(rd->j, t, "ENTRY_NODE_ID", 0, &v);
        if (ok)
            c->r.entry = (uint32_t)v;
        else
            c->ok = 0;
        int rc = tc_dcfg_skip(rd, t);
        TC_DCFG_ID_FIELD(rd, t, ok, v);
        return rc;
    }
    case 1:
        c->r.has_exits = t->kind == TC_JSON_ARRAY_BEGIN;
        c->r.exits = (uint32_t)c->p->ids.n;
        return tc_dcfg_read_ids(rd, t, "EXIT_NODE_IDS", &c->p->ids, &c->r.nexits);
    case 2: {
        static const tc_dcfg_col cols[] = {{"NODE_ID", 1, "node", 0}, {"IDOM_NODE_ID", 1, "idom", 0}};
        pair_ctx pc;
        memset(&pc, 0, sizeof pc);
        pc.p = c->p;
        tc_dcfg_table tb = {"NODES", cols, 2, pair_begin, pair_cell, pair_end};
        c->r.nodes = (uint32_t)c->p->ids.n;
        c->r.node_at = (uint32_t)c->p->locs.n;
        int rc = tc_dcfg_read_table(rd, t, &tb, &pc, &c->r.nodes_table);
        c->r.has_nodes = t->kind == TC_JSON_ARRAY_BEGIN;
        c->r.nnodes = pc.count;
        return rc;
    }
    default: {
        static const tc_dcfg_col cols[] = {{"LOOP_HEAD_NODE_ID", 1, "head", 0},
                                           {"LOOP_BACK_EDGE_SOURCE_NODE_IDS", 0,
                                            "back_edge_sources", 0},
                                           {"LOOP_NODE_IDS", 0, "nodes", 0},
                                           {"PARENT_LOOP_HEAD_NODE_ID", 0, "parent", 0}};
        loop_ctx lc;
        memset(&lc, 0, sizeof lc);
        lc.p = c->p;
        tc_dcfg_table tb = {"LOOPS", cols, 4, loop_begin, loop_cell, loop_end};
        c->r.loops = (uint32_t)c->p->loops.n;
        int rc = tc_dcfg_read_table(rd, t, &tb, &lc, NULL);
        c->r.nloops = lc.count;
        return rc;
    }
    }
}

static void routine_end(tc_dcfg_rd *rd, void *u, unsigned seen, int complete)
{
    (void)seen;
    routine_ctx *c = u;
    tc_dcfg_routine *slot;
    if (!complete || !c->ok)
        return;
    if (!TC_DCFG_PUSH(c->p->routines, slot)) {
        stop(rd);
        return;
    }
    *slot = c->r;
}

static int read_routines(tc_dcfg_rd *rd, const tc_json_token *t, tc_dcfg_proc *p, uint32_t image)
{
    static const tc_dcfg_col cols[] = {
        {"ENTRY_NODE_ID", 1, "entry", 0},
        {"EXIT_NODE_IDS", 0, "exits", 0},
        {"NODES", 0, "nodes", 1},
        {"LOOPS", 0, "loops", 1}};
    routine_ctx c;
    memset(&c, 0, sizeof c);
    c.p = p;
    c.r.image = image;
    tc_dcfg_table tb = {"ROUTINES", cols, 4, routine_begin, routine_cell, routine_end};
    if (t->kind == TC_JSON_ARRAY_BEGIN)
        p->images.v[image].has_routines = 1;
    return tc_dcfg_read_table(rd, t, &tb, &c, NULL);
}

/* ---- the image object ---- */

int tc_dcfg_read_image_data(tc_dcfg_rd *rd, const tc_json_token *t, tc_dcfg_proc *p, uint32_t image)
{
    (void)t;
    tc_json_token k, v;
    while (tc_dcfg_next(rd, &k) && k.kind == TC_JSON_KEY) {
        int which = KEY(&k, "FILE_NAME_ID")    ? 1
                    : KEY(&k, "SYMBOLS")       ? 2
                    : KEY(&k, "SOURCE_DATA")   ? 3
                    : KEY(&k, "BASIC_BLOCKS")  ? 4
                    : KEY(&k, "ROUTINES")      ? 5
                                               : 0;
        if (!which && tc_rule_enabled(rd->doc->d, TC_RULE_DCFG_UNKNOWN_KEY))
            tc_json_report(rd->j, &k, TC_RULE_DCFG_UNKNOWN_KEY,
                           "IMAGE_DATA has a key \"%s\" tracecheck does not know; its value is "
                           "not checked",
                           k.text);
        /* The view: a member that is no table is a record. */
        int member = which == 1 || which == 0;
        if (TC_FIELDS_ON(rd->doc->d) && member)
            tc_dcfg_member(rd->doc->d, &k, "IMAGE_DATA", which != 0);
        if (!tc_dcfg_next(rd, &v))
            return 0;
        int ok;
        switch (which) {
        case 1: {
            uint64_t id = 0;
            int read = tc_dcfg_id(rd->j, &v, "FILE_NAME_ID", 0, &id);
            if (TC_DCFG_WANT(rd))
                tc_dcfg_field_id(rd->doc->d, &v, tc_dcfg_end(rd), "file_name_id", read, id);
            if (read) {
                tc_dcfg_image *im = &p->images.v[image];
                tc_dcfg_ref *r;
                im->file = (uint32_t)id;
                im->has_file = 1;
                if (!TC_DCFG_PUSH(p->refs, r))
                    return stop(rd);
                memset(r, 0, sizeof *r);
                r->image = image;
                r->file = (uint32_t)id;
                r->what = "image";
                tc_dcfg_here(rd, &v, tc_dcfg_add_path(rd), 0, &r->at);
            }
            ok = tc_dcfg_skip(rd, &v);
            break;
        }
        case 2: ok = read_symbols(rd, &v, p, image, 0); break;
        case 3: ok = read_symbols(rd, &v, p, image, 1); break;
        case 4: ok = read_blocks(rd, &v, p, image); break;
        case 5: ok = read_routines(rd, &v, p, image); break;
        default: ok = tc_dcfg_skip(rd, &v);
        }
        if (!ok)
            return 0;
        if (TC_FIELDS_ON(rd->doc->d) && member)
            tc_fields_record_end(rd->doc->d, tc_dcfg_end(rd));
    }
    return !rd->failed;
}
