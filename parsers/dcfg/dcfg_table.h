/*
 * The table convention of the format (Doc §1.2.2, rulings 3 and 6): an
 * array whose first element is the header (column names) and whose other
 * elements are rows. Columns are found by name; unknown ones are skipped
 * (a pedantic note); a row may be shorter than its header but not longer,
 * and the required columns must be in the header and in every row.
 */
#ifndef TC_DCFG_TABLE_H
#define TC_DCFG_TABLE_H

#include "dcfg_doc.h"

typedef struct tc_dcfg_rd {
    tc_json *j;
    tc_dcfg_doc *doc;
    int failed; /* the tokenizer stopped */
} tc_dcfg_rd;

typedef struct tc_dcfg_col {
    const char *name;
    int required;
} tc_dcfg_col;

typedef struct tc_dcfg_table {
    const char *name;    /* for messages: "EDGES" */
    const tc_dcfg_col *cols;
    unsigned ncols;      /* at most 16 */
    /* Row callbacks; `u` is the caller's. cell() must read the whole value
     * that starts with t (tc_dcfg_skip() what it does not use); it returns 0
     * when the tokenizer stopped. */
    void (*row_begin)(tc_dcfg_rd *rd, void *u, const tc_dcfg_loc *at);
    int (*cell)(tc_dcfg_rd *rd, void *u, unsigned col, const tc_json_token *t);
    /* seen: bit c set when column c had a value in the row; complete: every
     * required column had one. */
    void (*row_end)(tc_dcfg_rd *rd, void *u, unsigned seen, int complete);
} tc_dcfg_table;

int tc_dcfg_next(tc_dcfg_rd *rd, tc_json_token *t);
int tc_dcfg_skip(tc_dcfg_rd *rd, const tc_json_token *t);
/* A new table path ("$.PROCESSES[1][1].EDGES") in doc->paths: its index. */
uint32_t tc_dcfg_add_path(tc_dcfg_rd *rd);
void tc_dcfg_here(tc_dcfg_rd *rd, const tc_json_token *t, uint32_t table, uint32_t row, tc_dcfg_loc *at);
/* Reports DCFG-TYPE unless t is of kind k; returns whether it is. */
int tc_dcfg_expect(tc_dcfg_rd *rd, const tc_json_token *t, tc_json_kind k, const char *what);

/* Reads the table whose first token is t. Returns 0 when the tokenizer
 * stopped. *table_index receives the table's path index (may be NULL). */
int tc_dcfg_read_table(tc_dcfg_rd *rd, const tc_json_token *t, const tc_dcfg_table *tb, void *u,
                    uint32_t *table_index);

/* An array of ids (EXIT_NODE_IDS, LOOP_NODE_IDS...) appended to p->ids. */
int tc_dcfg_read_ids(tc_dcfg_rd *rd, const tc_json_token *t, const char *what, tc_dcfg_u32vec *ids,
                  uint32_t *count);

#endif
