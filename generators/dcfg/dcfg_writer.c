#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg_mutate.h"
#include "../common/xalloc.h"
#include "dcfg_writer.h"

static void shuffle(uint32_t *a, uint32_t n, tc_rng *r)
{
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = (uint32_t)tc_rng_below(r, i), t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

static uint32_t *identity(uint32_t n)
{
    uint32_t *a = tc_gen_xcalloc(n, sizeof *a);
    for (uint32_t i = 0; i < n; i++)
        a[i] = i;
    return a;
}

/* A file's name: the source files first, then each process's images. */
static void file_name(const dg_program *pg, uint32_t f, char *out, size_t n)
{
    static const char *const src[] = {"main.c", "util.c", "io.c", "compute.c", "list.h",
                                      "hash table.c"};
    if (f <= pg->nsrc && f <= 6)
        snprintf(out, n, "/home/user/src/prog/%s", src[f - 1]);
    else if (f == pg->nsrc + 1)
        snprintf(out, n, "/home/user/bin/prog");
    else
        snprintf(out, n, "/usr/lib/x86_64-linux-gnu/lib%u.so.%u", f, f % 3);
}

/* A JSON string, escaping the solidus now and then as real writers do. */
static void put_string(dg_out *o, const char *s, tc_rng *r)
{
    int esc = tc_rng_chance(r, 1, 3);
    dg_putc(o, '"');
    for (; *s; s++) {
        if (*s == '/' && esc)
            dg_putc(o, '\\');
        dg_putc(o, *s);
    }
    dg_putc(o, '"');
}

/* ---- tables of one process ---- */

typedef struct wctx {
    const dg_program *pg;
    const dg_proc *p;
    dg_out *o;
    tc_rng *r;
    uint64_t *block_count;
    const dg_mutation *mu; /* for this process, else NULL */
} wctx;

/* Whether the mutation names this index in a field (DG_NONE: none). */
#define MU(w, field, i) ((w)->mu && (w)->mu->field == (i))

static void put_id(wctx *w, uint32_t v) { dg_int_r(w->o, v, w->r, 0); }
static void put_node(wctx *w, uint32_t node) { put_id(w, dg_node_id(w->pg, w->p, node)); }

static void write_symbols(wctx *w, uint32_t img)
{
    const dg_proc *p = w->p;
    dg_puts(w->o, "[[\"NAME\",\"ADDR_OFFSET\",\"SIZE\"]");
    for (uint32_t i = 0; i < p->nroutines; i++) {
        const dg_routine *rt = &p->routines[i];
        if (rt->image != img)
            continue;
        const dg_block *a = &p->blocks[rt->first], *z = &p->blocks[rt->first + rt->nblocks - 1];
        char name[48];
        if (i == 0)
            snprintf(name, sizeof name, "main");
        else if (rt->root)
            snprintf(name, sizeof name, "worker_%u", i);
        else
            snprintf(name, sizeof name, "%s%u", i % 3 ? "f" : "_Z4calci_", i);
        dg_puts(w->o, ",\n       [");
        put_string(w->o, name, w->r);
        dg_putc(w->o, ',');
        dg_int_r(w->o, a->addr, w->r, 1);
        dg_putc(w->o, ',');
        dg_int_r(w->o, z->addr + z->size - a->addr, w->r, 0);
        dg_putc(w->o, ']');
    }
    dg_putc(w->o, ']');
}

static void write_source(wctx *w, uint32_t img)
{
    const dg_proc *p = w->p;
    dg_puts(w->o, "[[\"FILE_NAME_ID\",\"LINE_NUM\",\"ADDR_OFFSET\",\"SIZE\",\"NUM_INSTRS\"]");
    for (uint32_t i = 0; i < p->nblocks; i++) {
        const dg_block *k = &p->blocks[i];
        if (!k->src_file || p->routines[k->routine].image != img)
            continue;
        dg_puts(w->o, ",\n       [");
        put_id(w, w->pg->file_id[k->src_file]);
        dg_putc(w->o, ',');
        dg_int_r(w->o, k->line, w->r, 0);
        dg_putc(w->o, ',');
        dg_int_r(w->o, k->addr, w->r, 1);
        dg_putc(w->o, ',');
        dg_int_r(w->o, k->size, w->r, 0);
        dg_putc(w->o, ',');
        dg_int_r(w->o, k->ninstr, w->r, 0);
        dg_putc(w->o, ']');
    }
    dg_putc(w->o, ']');
}

/* Columns in an order of the process's choosing (doc §1.2.2: readers find
 * them by header); each cell is written by its column number. */
static void write_block_cell(wctx *w, const dg_block *k, uint32_t i, unsigned col)
{
    switch (col) {
    case 0: put_id(w, k->id); break;
    case 1: dg_int_r(w->o, k->addr, w->r, 1); break;
    case 2: dg_int_r(w->o, k->size, w->r, 0); break;
    case 3: dg_int_r(w->o, k->ninstr, w->r, 0); break;
    case 4: dg_int_r(w->o, MU(w, last_off_block, i) ? k->size : k->last_off, w->r, 0); break;
    default: dg_int_r(w->o, w->block_count[i] + MU(w, count_block, i), w->r, 0); break;
    }
}

static void write_blocks(wctx *w, uint32_t img, const uint32_t *cols)
{
    static const char *const names[] = {"NODE_ID", "ADDR_OFFSET", "SIZE", "NUM_INSTRS",
                                        "LAST_INSTR_OFFSET", "COUNT"};
    const dg_proc *p = w->p;
    dg_putc(w->o, '[');
    dg_putc(w->o, '[');
    for (unsigned c = 0; c < 6; c++) {
        if (c)
            dg_putc(w->o, ',');
        dg_putc(w->o, '"');
        dg_puts(w->o, names[cols[c]]);
        dg_putc(w->o, '"');
    }
    dg_putc(w->o, ']');
    /* COUNT is optional: left out of a row now and then when it is the last
     * column (a row may be shorter than its header). */
    int last_count = cols[5] == 5;
    for (uint32_t i = 0; i < p->nblocks; i++) {
        const dg_block *k = &p->blocks[i];
        if (p->routines[k->routine].image != img)
            continue;
        dg_puts(w->o, ",\n       [");
        unsigned n = last_count && tc_rng_chance(w->r, 1, 10) && !MU(w, count_block, i) ? 5 : 6;
        if (MU(w, omit_count_block, i))
            n = 5;
        for (unsigned c = 0; c < n; c++) {
            if (c)
                dg_putc(w->o, ',');
            write_block_cell(w, k, i, cols[c]);
        }
        dg_putc(w->o, ']');
    }
    if (MU(w, add_block_image, img)) {
        /* A one-instruction block at offset 0, below the first routine
         * (each starts at least 16 bytes in), never entered. */
        const uint64_t v[6] = {w->mu->add_block_id, 0, 1, 1, 0, 0};
        dg_puts(w->o, ",\n       [");
        for (unsigned c = 0; c < 6; c++) {
            if (c)
                dg_putc(w->o, ',');
            dg_int_r(w->o, v[cols[c]], w->r, cols[c] == 1);
        }
        dg_putc(w->o, ']');
    }
    dg_putc(w->o, ']');
}

static void write_loops(wctx *w, const dg_routine *rt)
{
    const dg_proc *p = w->p;
    dg_puts(w->o, ",\n        [[\"LOOP_HEAD_NODE_ID\",\"LOOP_BACK_EDGE_SOURCE_NODE_IDS\","
                  "\"LOOP_NODE_IDS\",\"PARENT_LOOP_HEAD_NODE_ID\"]");
    for (uint32_t l = rt->loops_at; l < rt->loops_at + rt->nloops; l++) {
        const dg_loop *lp = &p->loops[l];
        const dg_mutation *mu = MU(w, loop, l) ? w->mu : NULL;
        dg_puts(w->o, ",\n         [");
        put_node(w, lp->head);
        dg_puts(w->o, ",[");
        if (mu && mu->loop_back_id != DG_NONE)
            put_id(w, mu->loop_back_id);
        else
            put_node(w, lp->back_src);
        dg_puts(w->o, "],[");
        int first = 1;
        /* Early returns inside the body cannot reach the back edge: not
         * part of the loop. */
        for (uint32_t i = lp->first; i <= lp->last; i++) {
            if (p->blocks[i].term == DG_T_RET || (mu && mu->loop_drop == i))
                continue;
            if (!first)
                dg_putc(w->o, ',');
            first = 0;
            put_node(w, i);
        }
        if (mu && mu->loop_add_id != DG_NONE) {
            if (!first)
                dg_putc(w->o, ',');
            put_id(w, mu->loop_add_id);
        }
        dg_putc(w->o, ']');
        if (mu && mu->loop_parent_id != DG_NONE) {
            dg_putc(w->o, ',');
            put_id(w, mu->loop_parent_id);
        } else if (lp->parent != DG_NONE) {
            dg_putc(w->o, ',');
            put_node(w, lp->parent);
        } else if (tc_rng_chance(w->r, 1, 2)) {
            dg_puts(w->o, ",0"); /* 0: no parent (doc §2.15) */
        }
        dg_putc(w->o, ']');
    }
    dg_putc(w->o, ']');
}

static void write_routine(wctx *w, uint32_t ri)
{
    const dg_proc *p = w->p;
    const dg_routine *rt = &p->routines[ri];
    dg_puts(w->o, ",\n       [");
    put_node(w, rt->first);
    dg_puts(w->o, ",[");
    for (uint32_t x = 0; x < rt->nexits; x++) {
        if (x)
            dg_putc(w->o, ',');
        put_node(w, p->exits[rt->exits_at + x]);
    }
    if (MU(w, exit_routine, ri)) {
        if (rt->nexits)
            dg_putc(w->o, ',');
        put_id(w, w->mu->exit_id);
    }
    dg_puts(w->o, "],\n        [[\"NODE_ID\",\"IDOM_NODE_ID\"]");
    for (uint32_t i = rt->first; i < rt->first + rt->nblocks; i++) {
        dg_puts(w->o, ",[");
        put_node(w, i);
        dg_putc(w->o, ',');
        if (MU(w, idom_block, i))
            put_id(w, w->mu->idom_id);
        else
            put_node(w, p->blocks[i].idom);
        dg_putc(w->o, ']');
    }
    if (MU(w, node_routine, ri)) {
        dg_puts(w->o, ",[");
        put_id(w, w->mu->node_id);
        dg_putc(w->o, ',');
        put_id(w, w->mu->node_idom);
        dg_putc(w->o, ']');
    }
    dg_putc(w->o, ']');
    if (rt->nloops)
        write_loops(w, rt);
    dg_putc(w->o, ']');
}

/* The routines of image img (index nimages: the image a mutation adds). */
static void write_routines(wctx *w, uint32_t img)
{
    const dg_proc *p = w->p;
    dg_puts(w->o, "[[\"ENTRY_NODE_ID\",\"EXIT_NODE_IDS\",\"NODES\",\"LOOPS\"]");
    for (uint32_t ri = 0; ri < p->nroutines; ri++)
        if (p->routines[ri].image == img && !MU(w, move_routine, ri))
            write_routine(w, ri);
    if (MU(w, move_to, img))
        write_routine(w, w->mu->move_routine);
    dg_putc(w->o, ']');
}

static void write_image(wctx *w, uint32_t img, const uint32_t *block_cols)
{
    const dg_image *im = &w->p->images[img];
    dg_out *o = w->o;
    dg_puts(o, ",\n    [");
    dg_int_r(o, im->id, w->r, 0);
    dg_putc(o, ',');
    dg_int(o, im->load, tc_rng_chance(w->r, 7, 8) ? DG_INT_HEX : DG_INT_NUMBER);
    dg_putc(o, ',');
    dg_int_r(o, im->size, w->r, 0);
    /* IMAGE_DATA: every key optional, in any order. */
    uint32_t *keys = identity(5);
    shuffle(keys, 5, w->r);
    dg_puts(o, ",\n     {");
    for (unsigned i = 0; i < 5; i++) {
        dg_puts(o, i ? ",\n      " : "\n      ");
        switch (keys[i]) {
        case 0:
            dg_puts(o, "\"FILE_NAME_ID\":");
            put_id(w, w->pg->file_id[im->file]);
            break;
        case 1: dg_puts(o, "\"SYMBOLS\":"); write_symbols(w, img); break;
        case 2: dg_puts(o, "\"SOURCE_DATA\":"); write_source(w, img); break;
        case 3: dg_puts(o, "\"BASIC_BLOCKS\":"); write_blocks(w, img, block_cols); break;
        default: dg_puts(o, "\"ROUTINES\":"); write_routines(w, img); break;
        }
    }
    dg_puts(o, "}]");
    free(keys);
}

/* An image that a mutation adds to hold one routine of another image: an
 * id above the others, mapped below the executable, nothing but ROUTINES. */
static void write_added_image(wctx *w)
{
    const dg_proc *p = w->p;
    uint32_t id = 0;
    for (uint32_t i = 0; i < p->nimages; i++)
        id = p->images[i].id > id ? p->images[i].id : id;
    dg_puts(w->o, ",\n    [");
    dg_int_r(w->o, id + 1, w->r, 0);
    dg_puts(w->o, ",\"0x200000\",4096,\n     {\"ROUTINES\":");
    write_routines(w, p->nimages);
    dg_puts(w->o, "}]");
}

static void write_edges(wctx *w)
{
    static const char *const names[] = {"EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID",
                                        "EDGE_TYPE_ID", "COUNT_PER_THREAD"};
    const dg_proc *p = w->p;
    dg_out *o = w->o;
    uint32_t *cols = identity(5);
    if (tc_rng_chance(w->r, 1, 3))
        shuffle(cols, 5, w->r);
    dg_puts(o, "[[");
    for (unsigned c = 0; c < 5; c++) {
        if (c)
            dg_putc(o, ',');
        dg_putc(o, '"');
        dg_puts(o, names[cols[c]]);
        dg_putc(o, '"');
    }
    dg_putc(o, ']');
    uint32_t *order = identity(p->nedges);
    shuffle(order, p->nedges, w->r);
    for (uint32_t i = 0; i < p->nedges; i++) {
        const dg_edge *e = &p->edges[order[i]];
        dg_puts(o, ",\n    [");
        for (unsigned c = 0; c < 5; c++) {
            if (c)
                dg_putc(o, ',');
            switch (cols[c]) {
            case 0: put_id(w, e->id); break;
            case 1: put_node(w, e->src); break;
            case 2: put_node(w, e->dst); break;
            case 3: put_id(w, w->pg->type_id[e->type]); break;
            default:
                dg_putc(o, '[');
                for (uint32_t t = 0; t < p->nthreads; t++) {
                    if (t)
                        dg_putc(o, ',');
                    dg_int_r(o, p->counts[(size_t)order[i] * p->nthreads + t], w->r, 0);
                }
                if (MU(w, long_counts, order[i]))
                    dg_puts(o, ",0"); /* a thread the process does not have */
                dg_putc(o, ']');
                break;
            }
        }
        dg_putc(o, ']');
    }
    if (w->mu && w->mu->add_edge) {
        /* Taken by no thread: the counts and the trace stay right. */
        uint32_t id = 0;
        for (uint32_t e = 0; e < p->nedges; e++)
            id = p->edges[e].id > id ? p->edges[e].id : id;
        const uint32_t v[4] = {id + 1, w->mu->add_src, w->mu->add_dst,
                               w->pg->type_id[w->mu->add_type]};
        dg_puts(o, ",\n    [");
        for (unsigned c = 0; c < 5; c++) {
            if (c)
                dg_putc(o, ',');
            if (cols[c] < 4) {
                put_id(w, v[cols[c]]);
                continue;
            }
            dg_putc(o, '[');
            for (uint32_t t = 0; t < p->nthreads; t++)
                dg_puts(o, t ? ",0" : "0");
            dg_putc(o, ']');
        }
        dg_putc(o, ']');
    }
    dg_putc(o, ']');
    free(order);
    free(cols);
}

static void write_process(const dg_program *pg, const dg_proc *p, dg_out *o, tc_rng *r,
                          const dg_mutation *mu)
{
    wctx w = {pg, p, o, r, tc_gen_xcalloc(p->nblocks, sizeof(uint64_t)), mu};
    uint64_t *per_thread = tc_gen_xcalloc(p->nthreads, sizeof *per_thread), total = 0;
    for (uint32_t e = 0; e < p->nedges; e++) {
        const dg_edge *ed = &p->edges[e];
        for (uint32_t t = 0; t < p->nthreads; t++) {
            uint64_t n = p->counts[(size_t)e * p->nthreads + t];
            per_thread[t] += n * dg_instrs(p, ed->src);
            if (ed->dst < p->nblocks)
                w.block_count[ed->dst] += n;
        }
    }
    for (uint32_t t = 0; t < p->nthreads; t++)
        total += per_thread[t];
    uint32_t *block_cols = identity(6);
    if (tc_rng_chance(r, 1, 3) && !(mu && mu->omit_count_block != DG_NONE))
        shuffle(block_cols, 6, r); /* (a COUNT to leave out must be last) */
    dg_puts(o, ",\n [");
    dg_int_r(o, p->pid, r, 0);
    dg_puts(o, ",\n  {");
    uint32_t *keys = identity(4);
    shuffle(keys, 4, r);
    for (unsigned i = 0; i < 4; i++) {
        dg_puts(o, i ? ",\n   " : "\n   ");
        switch (keys[i]) {
        case 0:
            dg_puts(o, "\"INSTR_COUNT_PER_THREAD\":[");
            for (uint32_t t = 0; t < p->nthreads; t++) {
                if (t)
                    dg_putc(o, ',');
                dg_int_r(o, per_thread[t], r, 0);
            }
            dg_putc(o, ']');
            break;
        case 1:
            dg_puts(o, "\"INSTR_COUNT\":");
            dg_int_r(o, total, r, 0);
            break;
        case 2:
            dg_puts(o, "\"IMAGES\":[[\"IMAGE_ID\",\"LOAD_ADDR\",\"SIZE\",\"IMAGE_DATA\"]");
            for (uint32_t img = 0; img < p->nimages; img++)
                write_image(&w, img, block_cols);
            if (MU(&w, move_to, p->nimages))
                write_added_image(&w);
            dg_putc(o, ']');
            break;
        default:
            dg_puts(o, "\"EDGES\":");
            write_edges(&w);
            break;
        }
    }
    dg_puts(o, "}]");
    free(keys);
    free(block_cols);
    free(per_thread);
    free(w.block_count);
}

void dg_write_dcfg(const dg_program *pg, tc_rng *r, dg_out *o, const dg_mutation *mu)
{
    dg_puts(o, "{\"MAJOR_VERSION\":1,\n \"MINOR_VERSION\":0");
    uint32_t *keys = identity(4);
    shuffle(keys, 4, r);
    char name[128];
    for (unsigned i = 0; i < 4; i++) {
        dg_puts(o, ",\n ");
        switch (keys[i]) {
        case 0:
            dg_puts(o, "\"FILE_NAMES\":[[\"FILE_NAME_ID\",\"FILE_NAME\"]");
            for (uint32_t f = 1; f <= pg->nfiles; f++) {
                file_name(pg, f, name, sizeof name);
                dg_puts(o, ",\n  [");
                dg_int_r(o, pg->file_id[f], r, 0);
                dg_putc(o, ',');
                put_string(o, name, r);
                dg_putc(o, ']');
            }
            dg_putc(o, ']');
            break;
        case 1: {
            dg_puts(o, "\"EDGE_TYPES\":[[\"EDGE_TYPE_ID\",\"EDGE_TYPE\"]");
            uint32_t *order = identity(DG_NTYPES);
            shuffle(order, DG_NTYPES, r);
            for (uint32_t t = 0; t < DG_NTYPES; t++) {
                dg_puts(o, ",\n  [");
                dg_int_r(o, pg->type_id[order[t]], r, 0);
                dg_puts(o, ",\"");
                dg_puts(o, dg_type_names[order[t]]);
                dg_puts(o, "\"]");
            }
            dg_putc(o, ']');
            free(order);
            break;
        }
        case 2:
            dg_puts(o, "\"SPECIAL_NODES\":[[\"NODE_ID\",\"NODE_NAME\"],[");
            dg_int_r(o, pg->start_id, r, 0);
            dg_puts(o, ",\"START\"],[");
            dg_int_r(o, pg->end_id, r, 0);
            dg_puts(o, ",\"END\"]]");
            break;
        default:
            dg_puts(o, "\"PROCESSES\":[[\"PROCESS_ID\",\"PROCESS_DATA\"]");
            for (uint32_t pi = 0; pi < pg->nprocs; pi++)
                write_process(pg, &pg->procs[pi], o, r, mu && mu->dproc == pi ? mu : NULL);
            dg_puts(o, "\n ]");
            break;
        }
    }
    dg_puts(o, "\n}\n");
    free(keys);
}
