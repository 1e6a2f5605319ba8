/*
 * A DCFG as the checker holds it (spec/dcfg/dcfg.md): only what cross-checks,
 * the model and the dump need. Every stored row keeps where it was read
 * (offset, line:column, and its table's path plus its row index), so a
 * finding made after the whole document was read still points at it.
 * Strings (file names, symbol names) are kept only for the dump.
 */
#ifndef TC_DCFG_DOC_H
#define TC_DCFG_DOC_H

#include <stddef.h>
#include <stdint.h>

#include "../common/diag.h"
#include "../common/json.h"
#include "dcfg_common.h"

typedef struct tc_dcfg_loc {
    uint64_t offset;
    uint32_t line, column;
    uint32_t table; /* index into tc_dcfg_doc.paths: the table's JSON path */
    uint32_t row;   /* row index in that table (1 = first data row) */
} tc_dcfg_loc;

/* Edge-type classes (ruling 2 and ruling 12's list of inter-routine edges). */
enum { TC_DCFG_ET_OTHER = 0, TC_DCFG_ET_ENTRY, TC_DCFG_ET_EXIT, TC_DCFG_ET_INTER, TC_DCFG_ET_UNKNOWN_NAME };

typedef struct tc_dcfg_named { /* FILE_NAMES, EDGE_TYPES, SPECIAL_NODES rows */
    uint32_t id;
    int kind;     /* EDGE_TYPES: TC_DCFG_ET_*; SPECIAL_NODES: 1 START, 2 END, 0 other */
    char *name;   /* NULL when absent (or, for FILE_NAMES, when not dumping) */
    tc_dcfg_loc at;
} tc_dcfg_named;

typedef struct tc_dcfg_image {
    uint32_t id;
    int has_size, has_load, has_file;
    uint64_t load, size;
    uint32_t file;
    int has_routines;
    int bad; /* its IMAGE_ID was unreadable: no checks refer to it */
    tc_dcfg_loc at;
} tc_dcfg_image;

typedef struct tc_dcfg_block {
    uint32_t id, image; /* image: index into dcfg_proc.images */
    uint64_t addr, size, ninstrs, last, count;
    unsigned has; /* TC_DCFG_B_* */
    tc_dcfg_loc at;
} tc_dcfg_block;
enum { TC_DCFG_B_NINSTRS = 1, TC_DCFG_B_LAST = 2, TC_DCFG_B_COUNT = 4 };

typedef struct tc_dcfg_edge {
    uint32_t id, source, target, type;
    uint64_t count;  /* sum of COUNT_PER_THREAD (saturating) */
    uint32_t counts, ncounts; /* dump: COUNT_PER_THREAD in dcfg_proc.u64s */
    int has_counts;
    tc_dcfg_loc at;
} tc_dcfg_edge;

typedef struct tc_dcfg_loop {
    uint32_t head, parent;
    int has_parent;
    unsigned has; /* TC_DCFG_L_*: which id arrays the row had */
    uint32_t back, nback, nodes, nnodes; /* in dcfg_proc.ids */
    tc_dcfg_loc at;
} tc_dcfg_loop;
enum { TC_DCFG_L_BACK = 1, TC_DCFG_L_NODES = 2 };

typedef struct tc_dcfg_routine {
    uint32_t image, entry;
    int has_exits, has_nodes;
    uint32_t exits, nexits; /* in dcfg_proc.ids */
    uint32_t nodes, nnodes; /* pairs NODE_ID, IDOM_NODE_ID in dcfg_proc.ids */
    uint32_t node_at;       /* the NODES rows' locations: nnodes in dcfg_proc.locs */
    uint32_t nodes_table;   /* tc_dcfg_doc.paths index of its NODES table */
    uint32_t loops, nloops; /* in dcfg_proc.loops */
    tc_dcfg_loc at;
} tc_dcfg_routine;

typedef struct tc_dcfg_symbol { /* SYMBOLS and SOURCE_DATA rows, kept for the dump */
    uint32_t image;
    int source;
    char *name;   /* SYMBOLS */
    uint32_t file;
    uint64_t line, addr, size, ninstrs;
    unsigned has; /* 1 line, 2 ninstrs, 4 file */
} tc_dcfg_symbol;

/* A FILE_NAME_ID reference or an address range of an image (symbols and
 * source data), checked once the whole document is read. */
typedef struct tc_dcfg_ref {
    uint32_t image; /* index into dcfg_proc.images */
    uint32_t file;  /* 0: none */
    int range;      /* end is set */
    const char *what;
    uint64_t addr, end;
    int end_over;   /* ADDR_OFFSET + SIZE overflows */
    tc_dcfg_loc at;
} tc_dcfg_ref;

#define TC_DCFG_VEC(T) struct { T *v; size_t n, cap; }
typedef TC_DCFG_VEC(uint32_t) tc_dcfg_u32vec;

typedef struct tc_dcfg_proc {
    uint64_t pid;
    int has_pid;
    int has_count;
    uint64_t instr_count;
    int has_threads;
    uint64_t nthreads, thread_sum; /* thread_sum saturates */
    int thread_sum_over;
    uint32_t threads_at; /* dump: INSTR_COUNT_PER_THREAD in u64s */
    tc_dcfg_loc at, count_at;
    TC_DCFG_VEC(tc_dcfg_image) images;
    TC_DCFG_VEC(tc_dcfg_block) blocks;
    TC_DCFG_VEC(tc_dcfg_edge) edges;
    TC_DCFG_VEC(tc_dcfg_routine) routines;
    TC_DCFG_VEC(tc_dcfg_loop) loops;
    TC_DCFG_VEC(tc_dcfg_symbol) symbols;
    TC_DCFG_VEC(tc_dcfg_ref) refs;
    tc_dcfg_u32vec ids;
    TC_DCFG_VEC(tc_dcfg_loc) locs; /* NODES rows, so findings about a node point there */
    TC_DCFG_VEC(uint64_t) u64s;
    /* After tc_dcfg_check: id -> index + 1 (0: none) of blocks and edges, when
     * the ids are dense enough for an array (producers number them from 1
     * up); NULL otherwise, and lookups are binary searches. */
    uint32_t *block_at, *edge_at;
    uint32_t block_at_n, edge_at_n;
} tc_dcfg_proc;

typedef struct tc_dcfg_doc {
    tc_diag_sink *d;
    int dump;         /* keep what the dump needs */
    int broken;       /* reading stopped early (syntax error, version) */
    int has_major, has_minor;
    uint64_t major, minor;
    TC_DCFG_VEC(tc_dcfg_named) files;
    TC_DCFG_VEC(tc_dcfg_named) edge_types;
    TC_DCFG_VEC(tc_dcfg_named) specials;
    TC_DCFG_VEC(tc_dcfg_proc) procs;
    TC_DCFG_VEC(char *) paths; /* table paths, for dcfg_loc.table */
} tc_dcfg_doc;

#define TC_DCFG_PUSH(vec, out)                                                                   \
    (((vec).n < (vec).cap || tc_dcfg_grow((void **)&(vec).v, &(vec).cap, (vec).n + 1,            \
                                       sizeof *(vec).v))                                     \
         ? ((out) = &(vec).v[(vec).n++], 1)                                                   \
         : 0)

/* Reads a whole DCFG from r into doc, reporting every local finding. */
void tc_dcfg_read(tc_reader *r, tc_dcfg_doc *doc);
/* The cross-checks of ruling 12 over what was read (sorts the id tables). */
void tc_dcfg_check(tc_dcfg_doc *doc);
void tc_dcfg_check_routines(tc_dcfg_doc *doc, tc_dcfg_proc *p);
void tc_dcfg_doc_free(tc_dcfg_doc *doc);

/* A finding at a stored location. */
void tc_dcfg_report(tc_dcfg_doc *doc, const tc_dcfg_loc *at, tc_rule_id rule, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The same with related offsets and named values (x may be NULL). */
void tc_dcfg_report_ex(tc_dcfg_doc *doc, const tc_dcfg_loc *at, tc_rule_id rule,
                       const tc_diag_extra *x, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Lookups in tables sorted by id (after tc_dcfg_check sorted them): index or -1. */
long tc_dcfg_find_named(const tc_dcfg_named *v, size_t n, uint32_t id);
long tc_dcfg_find_block(const tc_dcfg_proc *p, uint32_t id);
long tc_dcfg_find_edge(const tc_dcfg_proc *p, uint32_t id);

#endif
