/*
 * Tables (Doc §1.2.2, rulings 3 and 6), read value by value: a row's cells
 * go straight to the caller, which keeps what it needs, so nothing of a
 * table is held here but its header's column map.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg_common.h"
#include "dcfg_table.h"

int tc_dcfg_next(tc_dcfg_rd *rd, tc_json_token *t)
{
    if (rd->failed)
        return 0;
    if (tc_json_next(rd->j, t) <= 0) {
        rd->failed = 1;
        return 0;
    }
    return 1;
}

int tc_dcfg_skip(tc_dcfg_rd *rd, const tc_json_token *t)
{
    if (rd->failed)
        return 0;
    if (tc_json_skip(rd->j, t) < 0)
        rd->failed = 1;
    return !rd->failed;
}

uint32_t tc_dcfg_add_path(tc_dcfg_rd *rd)
{
    tc_dcfg_doc *doc = rd->doc;
    char **slot;
    const char *path = tc_json_path(rd->j);
    size_t n = strlen(path);
    char *s = malloc(n + 1);
    if (s)
        memcpy(s, path, n + 1);
    if (!s || !TC_DCFG_PUSH(doc->paths, slot)) {
        free(s);
        return UINT32_MAX;
    }
    *slot = s;
    return (uint32_t)(doc->paths.n - 1);
}

void tc_dcfg_here(tc_dcfg_rd *rd, const tc_json_token *t, uint32_t table, uint32_t row, tc_dcfg_loc *at)
{
    (void)rd;
    at->offset = t->offset;
    at->line = t->line;
    at->column = t->column;
    at->table = table;
    at->row = row;
}

int tc_dcfg_expect(tc_dcfg_rd *rd, const tc_json_token *t, tc_json_kind k, const char *what)
{
    if (t->kind == k)
        return 1;
    tc_json_report(rd->j, t, TC_RULE_DCFG_TYPE, "%s is %s, expected %s", what,
                   tc_json_kind_name(t->kind), tc_json_kind_name(k));
    return 0;
}

/* An unknown column of a header, kept until the header ends to find
 * repeats among the unknown names (a repeated column is a repeated column
 * whether tracecheck knows it or not: DCFG-COLUMN-DUPLICATE). */
typedef struct unknown_col {
    char *name; /* [A-Z0-9_]+, checked by tc_dcfg_tag */
    size_t len;
    long pos;
    uint64_t offset;
    uint32_t line, column;
    int repeat;
    uint32_t first_line, first_column;
    uint64_t first_offset;
} unknown_col;

static int cmp_unknown(const void *a, const void *b)
{
    const unknown_col *x = a, *y = b;
    int c = memcmp(x->name, y->name, x->len < y->len ? x->len : y->len);
    if (c)
        return c;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int cmp_pos(const void *a, const void *b)
{
    const unknown_col *x = a, *y = b;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Sorting by name puts repeats side by side (n log n however many
 * columns); they are then reported in file order, each with its first. */
static void unknown_repeats(tc_dcfg_rd *rd, const tc_dcfg_table *tb, uint32_t ti, unknown_col *u,
                            size_t n)
{
    if (n < 2)
        return;
    qsort(u, n, sizeof *u, cmp_unknown);
    for (size_t i = 1, f = 0; i < n; i++) {
        if (u[i].len == u[f].len && !memcmp(u[i].name, u[f].name, u[i].len)) {
            u[i].repeat = 1;
            u[i].first_line = u[f].line;
            u[i].first_column = u[f].column;
            u[i].first_offset = u[f].offset;
        } else {
            f = i;
        }
    }
    qsort(u, n, sizeof *u, cmp_pos);
    const char *base = ti < rd->doc->paths.n ? rd->doc->paths.v[ti] : "$";
    for (size_t i = 0; i < n; i++) {
        if (!u[i].repeat)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s[0][%ld]", base, u[i].pos);
        tc_report_text_ex(rd->doc->d, TC_RULE_DCFG_COLUMN_DUPLICATE, u[i].offset, 1, u[i].line,
                          u[i].column, path, TC_EXTRA(TC_RELATED(u[i].first_offset)),
                          "%s names column %.*s%s twice (first at line %" PRIu32 ":%" PRIu32 ")",
                          tb->name, (int)(u[i].len > 64 ? 64 : u[i].len), u[i].name,
                          u[i].len > 64 ? "..." : "", u[i].first_line, u[i].first_column);
    }
}

/* The header: maps each position to a column of tb (or -1). Returns the
 * number of positions, or -1 when the table cannot be read (reported),
 * -2 when its rows cannot be checked. */
static long read_header(tc_dcfg_rd *rd, const tc_json_token *h, const tc_dcfg_table *tb, uint32_t ti,
                        int **map, unsigned *present)
{
    tc_json_token t;
    size_t n = 0, cap = 0;
    *map = NULL;
    *present = 0;
    int bad = 0;
    tc_json_token first[16];
    TC_DCFG_VEC(unknown_col) unknown = {NULL, 0, 0};
    while (tc_dcfg_next(rd, &t) && t.kind != TC_JSON_ARRAY_END) {
        if (n == cap && !tc_dcfg_grow((void **)map, &cap, n + 1, sizeof **map)) {
            rd->failed = 1;
            break;
        }
        (*map)[n] = -1;
        if (!tc_dcfg_tag(rd->j, &t)) {
            bad = 1;
            if (!tc_dcfg_skip(rd, &t))
                break;
            if (TC_DCFG_WANT(rd))
                tc_dcfg_field(rd->doc->d, &t, tc_dcfg_end(rd), "column",
                              "(not a column name: %s)", t.kind == TC_JSON_STRING
                                  ? "not [A-Z0-9_]+" : tc_json_kind_name(t.kind));
            n++;
            continue;
        }
        unsigned c;
        for (c = 0; c < tb->ncols; c++)
            if (strlen(tb->cols[c].name) == t.len && !memcmp(tb->cols[c].name, t.text, t.len))
                break;
        if (TC_DCFG_WANT(rd)) {
            int cut = t.len > 64;
            if (c == tb->ncols)
                tc_dcfg_field(rd->doc->d, &t, tc_dcfg_end(rd), "column",
                              "%.*s%s (unknown: not read)", (int)(cut ? 64 : t.len), t.text,
                              cut ? "..." : "");
            else
                tc_dcfg_field(rd->doc->d, &t, tc_dcfg_end(rd), "column", "%s (field %s)%s",
                              tb->cols[c].name, tb->cols[c].key,
                              *present & 1u << c ? " (a repeat: not read)" : "");
        }
        if (c == tb->ncols) {
            tc_json_report(rd->j, &t, TC_RULE_DCFG_UNKNOWN_COLUMN,
                           "%s has a column \"%s\" tracecheck does not know; its values are "
                           "not checked",
                           tb->name, t.text);
            unknown_col *u;
            char *name = malloc(t.len + 1);
            if (!name || !TC_DCFG_PUSH(unknown, u)) {
                free(name);
                rd->failed = 1;
                break;
            }
            memcpy(name, t.text, t.len + 1);
            *u = (unknown_col){name, t.len, (long)n, t.offset, t.line, t.column, 0, 0, 0, 0};
        } else if (*present & 1u << c) {
            tc_json_report_ex(rd->j, &t, TC_RULE_DCFG_COLUMN_DUPLICATE,
                              TC_EXTRA(TC_RELATED(first[c].offset)),
                              "%s names column %s twice (first at line %" PRIu32 ":%" PRIu32
                              "); the first is used",
                              tb->name, tb->cols[c].name, first[c].line, first[c].column);
        } else {
            *present |= 1u << c;
            first[c] = t;
            (*map)[n] = (int)c;
        }
        n++;
    }
    if (!rd->failed)
        unknown_repeats(rd, tb, ti, unknown.v, unknown.n);
    for (size_t i = 0; i < unknown.n; i++)
        free(unknown.v[i].name);
    free(unknown.v);
    if (rd->failed)
        return -1;
    for (unsigned c = 0; c < tb->ncols; c++)
        if (tb->cols[c].required && !(*present & 1u << c)) {
            tc_json_report(rd->j, h, TC_RULE_DCFG_COLUMN_MISSING,
                           "the %s header has no %s column; its rows are not checked", tb->name,
                           tb->cols[c].name);
            bad = 1;
        }
    return bad ? -2 : (long)n;
}

int tc_dcfg_read_table(tc_dcfg_rd *rd, const tc_json_token *t, const tc_dcfg_table *tb, void *u,
                    uint32_t *table_index)
{
    if (table_index)
        *table_index = UINT32_MAX;
    if (t->kind != TC_JSON_ARRAY_BEGIN) {
        tc_json_report(rd->j, t, TC_RULE_DCFG_TABLE_SHAPE,
                       "%s is %s, not a table (an array of a header and rows)", tb->name,
                       tc_json_kind_name(t->kind));
        return tc_dcfg_skip(rd, t);
    }
    uint32_t ti = tc_dcfg_add_path(rd);
    if (table_index)
        *table_index = ti;
    tc_json_token h;
    if (!tc_dcfg_next(rd, &h))
        return 0;
    if (h.kind == TC_JSON_ARRAY_END) {
        tc_json_report(rd->j, t, TC_RULE_DCFG_TABLE_HEADER,
                       "%s is an empty array: a table starts with its header row", tb->name);
        return 1;
    }
    tc_diag_sink *d = rd->doc->d;
    if (TC_FIELDS_ON(d))
        tc_fields_record(d, h.offset, 0, TC_LOOK_TEXT, "%s header (%s)", tb->name,
                         tc_json_path(rd->j));
    if (h.kind != TC_JSON_ARRAY_BEGIN) {
        tc_json_report(rd->j, &h, TC_RULE_DCFG_TABLE_HEADER,
                       "%s starts with %s, not a header (an array of column names)", tb->name,
                       tc_json_kind_name(h.kind));
        if (!tc_dcfg_skip(rd, &h))
            return 0;
        if (TC_FIELDS_ON(d))
            tc_fields_record_end(d, tc_dcfg_end(rd));
        /* The rest is read without checks: nothing can be named. */
        while (tc_dcfg_next(rd, &h) && h.kind != TC_JSON_ARRAY_END) {
            if (TC_FIELDS_ON(d))
                tc_fields_record(d, h.offset, 0, TC_LOOK_TEXT, "%s value (not read: no header)",
                                 tb->name);
            if (!tc_dcfg_skip(rd, &h))
                return 0;
            if (TC_FIELDS_ON(d))
                tc_fields_record_end(d, tc_dcfg_end(rd));
        }
        return !rd->failed;
    }
    int *map;
    unsigned present;
    long ncols = read_header(rd, &h, tb, ti, &map, &present);
    if (ncols == -1) {
        free(map);
        return 0;
    }
    if (TC_FIELDS_ON(d))
        tc_fields_record_end(d, tc_dcfg_end(rd));
    unsigned required = 0;
    for (unsigned c = 0; c < tb->ncols; c++)
        if (tb->cols[c].required)
            required |= 1u << c;
    uint32_t row = 0;
    tc_json_token r;
    while (tc_dcfg_next(rd, &r) && r.kind != TC_JSON_ARRAY_END) {
        row++;
        /* The view: the row is a record (its path says which). */
        if (TC_FIELDS_ON(d))
            tc_fields_record(d, r.offset, 0, TC_LOOK_TEXT, "%s row %" PRIu32 "%s (%s)", tb->name,
                             row, ncols < 0 ? " (not read: the header is unusable)"
                                  : r.kind != TC_JSON_ARRAY_BEGIN ? " (not an array)" : "",
                             tc_json_path(rd->j));
        if (ncols < 0) { /* unusable header: syntax only */
            if (!tc_dcfg_skip(rd, &r))
                break;
            if (TC_FIELDS_ON(d))
                tc_fields_record_end(d, tc_dcfg_end(rd));
            continue;
        }
        if (r.kind != TC_JSON_ARRAY_BEGIN) {
            tc_json_report(rd->j, &r, TC_RULE_DCFG_TABLE_SHAPE,
                           "row %" PRIu32 " of %s is %s, not an array", row, tb->name,
                           tc_json_kind_name(r.kind));
            if (!tc_dcfg_skip(rd, &r))
                break;
            if (TC_FIELDS_ON(d))
                tc_fields_record_end(d, tc_dcfg_end(rd));
            continue;
        }
        tc_dcfg_loc at;
        tc_dcfg_here(rd, &r, ti, row, &at);
        if (tb->row_begin)
            tb->row_begin(rd, u, &at);
        unsigned seen = 0;
        long pos = 0;
        tc_json_token v;
        int own = 1; /* the view: the row's record is the current one */
        while (tc_dcfg_next(rd, &v) && v.kind != TC_JSON_ARRAY_END) {
            if (pos == ncols)
                tc_json_report(rd->j, &v, TC_RULE_DCFG_ROW_LONG,
                               "row %" PRIu32 " of %s has more values than its %ld-column header",
                               row, tb->name, ncols);
            int c = pos < ncols ? map[pos] : -1;
            pos++;
            if (TC_FIELDS_ON(d) && !own) {
                /* After a nested table or object, the row's further values. */
                tc_fields_record(d, v.offset, 0, TC_LOOK_TEXT, "%s row %" PRIu32 ", continued",
                                 tb->name, row);
                own = 1;
            }
            if (c < 0) {
                if (!tc_dcfg_skip(rd, &v))
                    break;
                if (TC_DCFG_WANT(rd))
                    tc_dcfg_field(d, &v, tc_dcfg_end(rd), "value", "(%s: not read)",
                                  pos > ncols ? "past the header" : "an unknown column");
                continue;
            }
            seen |= 1u << c;
            rd->col_key = tb->cols[c].key;
            if (TC_FIELDS_ON(d) && tb->cols[c].nested &&
                (v.kind == TC_JSON_OBJECT_BEGIN || v.kind == TC_JSON_ARRAY_BEGIN)) {
                if (TC_DCFG_WANT(rd))
                    tc_fields_field(d, v.offset, 1, 0, 0, tb->cols[c].key, "%s",
                                    v.kind == TC_JSON_OBJECT_BEGIN
                                        ? "an object: its members follow"
                                        : "a table: its header and rows follow");
                tc_fields_record_end(d, v.offset + 1);
                own = 0;
            }
            if (!tb->cell(rd, u, (unsigned)c, &v))
                break;
        }
        if (rd->failed)
            break;
        if (TC_FIELDS_ON(d) && own)
            tc_fields_record_end(d, tc_dcfg_end(rd));
        unsigned missing = required & ~seen;
        for (unsigned c = 0; c < tb->ncols; c++)
            if (missing & 1u << c)
                tc_dcfg_report(rd->doc, &at, TC_RULE_DCFG_ROW_SHORT,
                            "row %" PRIu32 " of %s has no %s value (it has %ld of %ld columns)",
                            row, tb->name, tb->cols[c].name, pos, ncols);
        if (tb->row_end)
            tb->row_end(rd, u, seen, missing == 0);
    }
    free(map);
    return !rd->failed;
}

int tc_dcfg_read_ids(tc_dcfg_rd *rd, const tc_json_token *t, const char *what, tc_dcfg_u32vec *ids,
                  uint32_t *count)
{
    *count = 0;
    if (!tc_dcfg_expect(rd, t, TC_JSON_ARRAY_BEGIN, what))
        return tc_dcfg_skip(rd, t);
    tc_json_token v;
    size_t first = ids->n;
    int bad = 0;
    while (tc_dcfg_next(rd, &v) && v.kind != TC_JSON_ARRAY_END) {
        uint64_t id;
        if (!tc_dcfg_id(rd->j, &v, what, 0, &id)) {
            if (!tc_dcfg_skip(rd, &v))
                return 0;
            bad++;
            continue;
        }
        uint32_t *slot;
        if (!TC_DCFG_PUSH(*ids, slot)) {
            rd->failed = 1;
            return 0;
        }
        *slot = (uint32_t)id;
        (*count)++;
    }
    if (TC_DCFG_WANT(rd) && !rd->failed) {
        char list[TC_FIELD_VALUE_MAX];
        size_t n = 0;
        for (size_t i = first; i < ids->n && n < sizeof list - 24; i++)
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%" PRIu32, i > first ? ", " : "",
                                  ids->v[i]);
        tc_dcfg_field(rd->doc->d, t, tc_dcfg_end(rd), rd->col_key, "[%s%s]%s", list,
                      n >= sizeof list - 24 ? ", ..." : "", bad ? " (values not ids left out)" : "");
    }
    return !rd->failed;
}
