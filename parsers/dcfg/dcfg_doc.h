/*
 * A DCFG as the checker holds it (spec/dcfg.md): only what cross-checks,
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

typedef struct dcfg_loc {
    uint64_t offset;
    uint32_t line, column;
    uint32_t table; /* index into dcfg_doc.paths: the table's JSON path */
    uint32_t row;   /* row index in that table (1 = first data row) */
} dcfg_loc;

/* Edge-type classes (ruling 2 and ruling 12's list of inter-routine edges). */
enum { DCFG_ET_OTHER = 0, DCFG_ET_ENTRY, DCFG_ET_EXIT, DCFG_ET_INTER, DCFG_ET_UNKNOWN_NAME };

typedef struct dcfg_named { /* FILE_NAMES, EDGE_TYPES, SPECIAL_NODES rows */
    uint32_t id;
    int kind;     /* EDGE_TYPES: DCFG_ET_*; SPECIAL_NODES: 1 START, 2 END, 0 other */
    char *name;   /* NULL when absent (or, for FILE_NAMES, when not dumping) */
    dcfg_loc at;
} dcfg_named;

typedef struct dcfg_image {
    uint32_t id;
    int has_size, has_load, has_file;
    uint64_t load, size;
    uint32_t file;
    int has_routines;
    int bad; /* its IMAGE_ID was unreadable: no checks refer to it */
    dcfg_loc at;
} dcfg_image;

typedef struct dcfg_block {
    uint32_t id, image; /* image: index into dcfg_proc.images */
    uint64_t addr, size, ninstrs, last, count;
    unsigned has; /* DCFG_B_* */
    dcfg_loc at;
} dcfg_block;
enum { DCFG_B_NINSTRS = 1, DCFG_B_LAST = 2, DCFG_B_COUNT = 4 };

typedef struct dcfg_edge {
    uint32_t id, source, target, type;
    uint64_t count;  /* sum of COUNT_PER_THREAD (saturating) */
    uint32_t counts, ncounts; /* dump: COUNT_PER_THREAD in dcfg_proc.u64s */
    int has_counts;
    dcfg_loc at;
} dcfg_edge;

typedef struct dcfg_loop {
    uint32_t head, parent;
    int has_parent;
    unsigned has; /* DCFG_L_*: which id arrays the row had */
    uint32_t back, nback, nodes, nnodes; /* in dcfg_proc.ids */
    dcfg_loc at;
} dcfg_loop;
enum { DCFG_L_BACK = 1, DCFG_L_NODES = 2 };

typedef struct dcfg_routine {
    uint32_t image, entry;
    int has_exits, has_nodes;
    uint32_t exits, nexits; /* in dcfg_proc.ids */
    uint32_t nodes, nnodes; /* pairs NODE_ID, IDOM_NODE_ID in dcfg_proc.ids */
    uint32_t node_at;       /* the NODES rows' locations: nnodes in dcfg_proc.locs */
    uint32_t nodes_table;   /* dcfg_doc.paths index of its NODES table */
    uint32_t loops, nloops; /* in dcfg_proc.loops */
    dcfg_loc at;
} dcfg_routine;

typedef struct dcfg_symbol { /* SYMBOLS and SOURCE_DATA rows, kept for the dump */
    uint32_t image;
    int source;
    char *name;   /* SYMBOLS */
    uint32_t file;
    uint64_t line, addr, size, ninstrs;
    unsigned has; /* 1 line, 2 ninstrs, 4 file */
} dcfg_symbol;

/* A FILE_NAME_ID reference or an address range of an image (symbols and
 * source data), checked once the whole document is read. */
typedef struct dcfg_ref {
    uint32_t image; /* index into dcfg_proc.images */
    uint32_t file;  /* 0: none */
    int range;      /* end is set */
    const char *what;
    uint64_t addr, end;
    int end_over;   /* ADDR_OFFSET + SIZE overflows */
    dcfg_loc at;
} dcfg_ref;

#define DCFG_VEC(T) struct { T *v; size_t n, cap; }
typedef DCFG_VEC(uint32_t) dcfg_u32vec;

typedef struct dcfg_proc {
    uint64_t pid;
    int has_pid;
    int has_count;
    uint64_t instr_count;
    int has_threads;
    uint64_t nthreads, thread_sum; /* thread_sum saturates */
    int thread_sum_over;
    uint32_t threads_at; /* dump: INSTR_COUNT_PER_THREAD in u64s */
    dcfg_loc at, count_at;
    DCFG_VEC(dcfg_image) images;
    DCFG_VEC(dcfg_block) blocks;
    DCFG_VEC(dcfg_edge) edges;
    DCFG_VEC(dcfg_routine) routines;
    DCFG_VEC(dcfg_loop) loops;
    DCFG_VEC(dcfg_symbol) symbols;
    DCFG_VEC(dcfg_ref) refs;
    dcfg_u32vec ids;
    DCFG_VEC(dcfg_loc) locs; /* NODES rows, so findings about a node point there */
    DCFG_VEC(uint64_t) u64s;
    /* After dcfg_check: id -> index + 1 (0: none) of blocks and edges, when
     * the ids are dense enough for an array (producers number them from 1
     * up); NULL otherwise, and lookups are binary searches. */
    uint32_t *block_at, *edge_at;
    uint32_t block_at_n, edge_at_n;
} dcfg_proc;

typedef struct dcfg_doc {
    tc_diag_sink *d;
    int dump;         /* keep what the dump needs */
    int broken;       /* reading stopped early (syntax error, version) */
    int has_major, has_minor;
    uint64_t major, minor;
    DCFG_VEC(dcfg_named) files;
    DCFG_VEC(dcfg_named) edge_types;
    DCFG_VEC(dcfg_named) specials;
    DCFG_VEC(dcfg_proc) procs;
    DCFG_VEC(char *) paths; /* table paths, for dcfg_loc.table */
} dcfg_doc;

#define DCFG_PUSH(vec, out)                                                                   \
    (((vec).n < (vec).cap || dcfg_grow((void **)&(vec).v, &(vec).cap, (vec).n + 1,            \
                                       sizeof *(vec).v))                                     \
         ? ((out) = &(vec).v[(vec).n++], 1)                                                   \
         : 0)

/* Reads a whole DCFG from r into doc, reporting every local finding. */
void dcfg_read(tc_reader *r, dcfg_doc *doc);
/* The cross-checks of ruling 12 over what was read (sorts the id tables). */
void dcfg_check(dcfg_doc *doc);
void dcfg_check_routines(dcfg_doc *doc, dcfg_proc *p);
void dcfg_doc_free(dcfg_doc *doc);

/* A finding at a stored location. */
void dcfg_report(dcfg_doc *doc, const dcfg_loc *at, tc_rule_id rule, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Lookups in tables sorted by id (after dcfg_check sorted them): index or -1. */
long dcfg_find_named(const dcfg_named *v, size_t n, uint32_t id);
long dcfg_find_block(const dcfg_proc *p, uint32_t id);
long dcfg_find_edge(const dcfg_proc *p, uint32_t id);

#endif
