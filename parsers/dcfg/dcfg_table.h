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
    tc_reader *r; /* the tokenizer's: its position ends the token just read */
    /* The view of `tracecheck show`: the key of the column whose cell is
     * being read (tc_dcfg_col.key). */
    const char *col_key;
} tc_dcfg_rd;

typedef struct tc_dcfg_col {
    const char *name;
    int required;
    /* The view of `tracecheck show` (spec/dcfg/dcfg.md): the field's name, the
     * canonical dump's key where the dump has the value. */
    const char *key;
    /* Its value is an object or a table whose members or rows are records
     * of their own: the row's record ends at its bracket. */
    int nested;
} tc_dcfg_col;

/* Whether the view wants the current record's fields, and where the value
 * just read ends (fields.h). */
#define TC_DCFG_WANT(rd) TC_FIELDS_WANT((rd)->doc->d)
static inline uint64_t tc_dcfg_end(const tc_dcfg_rd *rd) { return tc_pos(rd->r); }
/* Fields of the column being read (rd->col_key), as tc_dcfg_field_*. */
#define TC_DCFG_INT_FIELD(rd, t, ok, v)                                                          \
    do {                                                                                         \
        if (TC_DCFG_WANT(rd))                                                                    \
            tc_dcfg_field_int((rd)->doc->d, (t), tc_dcfg_end(rd), (rd)->col_key, (ok), (v));     \
    } while (0)
#define TC_DCFG_ID_FIELD(rd, t, ok, v)                                                           \
    do {                                                                                         \
        if (TC_DCFG_WANT(rd))                                                                    \
            tc_dcfg_field_id((rd)->doc->d, (t), tc_dcfg_end(rd), (rd)->col_key, (ok), (v));      \
    } while (0)

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
