/*
 * The DCFG-trace reader: one pass over the strict tokenizer, in the order
 * the document fixes (ruling 9), holding one process's dictionary and
 * transition table at a time. Each chunk's sequence is compiled and decoded
 * as soon as its string is read, while the string token is still the
 * current one, so findings about it carry its location and JSON path.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg_common.h"
#include "dtrc.h"
#include "dtrc_decode.h"

typedef struct loc {
    uint64_t offset;
    uint32_t line, column;
} loc;

typedef struct rd {
    tc_json *j;
    tc_reader *reader; /* the tokenizer's: its position ends the token just read */
    tc_diag_sink *d;
    const tc_parse_ctx *ctx;
    const tc_dcfg_model *m;
    char dcfg[200]; /* "the DCFG" and its name, for pairing messages */
    int failed;
    /* the process being read */
    tc_dtrc_table table;
    tc_dtrc_dict dict;
    tc_dtrc_prog prog;
    int dict_done, table_done;
    loc *rowloc;  /* per transition row, by its index in the table */
    size_t caprowloc;
    loc *dictloc; /* per dictionary entry */
    size_t capdictloc;
    uint32_t *next;
    size_t capnext;
    char *key;
    size_t capkey;
    size_t pindex; /* row of PROCESSES, for paths */
    uint64_t pid;
    int pid_ok, pair_on;
    uint64_t threads;
    uint64_t *pids, *tids;
    size_t npids, cappids, ntids, captids;
    /* the thread being read */
    size_t tindex;
    uint64_t tid;
    int tid_ok;
    int have_prev;
    uint64_t prev_pic, prev_ic;
    /* the chunk being decoded */
    const tc_json_token *seq;
    uint64_t eindex, prev_target;
    int have_edge, dumping;
    tc_dtrc_rowinfo *rowinfo; /* pairing per code of the table, when pairing */
    size_t caprowinfo;
    int rowinfo_ok;
    tc_dtrc_fast fast; /* character tables of the table, when not dumping */
    uint64_t dump_cap; /* edges of a chunk printed at most */
    uint32_t piece[TC_DTRC_DUMP_PIECE];
    size_t npiece;
    uint64_t piece_index;
    /* header */
    int header_done, has_major, has_minor, readable;
    uint64_t major, minor;
    /* The view of `tracecheck show`: how the last chunk's sequence went
     * (0 not compiled, 1 refers to an entry with an error, 2 decoded: its
     * code and edges). */
    int decoded;
    int decode_code;
    uint64_t decode_edges;
} rd;

/* The view of `tracecheck show` (fields.h; spec/dcfg/dcfg.md): table headers and
 * rows, dictionary entries and top-level members are records; each value
 * read is a field named as the dump names it. */
#define WANT(r) TC_FIELDS_WANT((r)->d)
#define VIEW(r) TC_FIELDS_ON((r)->d)
#define END(r) tc_pos((r)->reader)

/* A row (or a header) starts: a record. */
static void row_record(rd *r, const tc_json_token *t, const char *table, unsigned row)
{
    if (row)
        tc_fields_record(r->d, t->offset, 0, TC_LOOK_TEXT, "%s row %u%s (%s)", table, row,
                         t->kind == TC_JSON_ARRAY_BEGIN ? "" : " (not an array)",
                         tc_json_path(r->j));
    else
        tc_fields_record(r->d, t->offset, 0, TC_LOOK_TEXT, "%s header (%s)", table,
                         tc_json_path(r->j));
}

/* A value of a row that holds records of its own (a table, the
 * dictionary): the row's record ends at its bracket. */
static void nested_field(rd *r, const tc_json_token *c, const char *name)
{
    if (WANT(r))
        tc_fields_field(r->d, c->offset, 1, 0, 0, name, "%s",
                        c->kind == TC_JSON_OBJECT_BEGIN ? "an object: its members follow"
                                                        : "a table: its header and rows follow");
    tc_fields_record_end(r->d, c->offset + 1);
}

/* ---- tokens and reports ---- */

static int next(rd *r, tc_json_token *t)
{
    if (r->failed)
        return 0;
    int rc = tc_json_next(r->j, t);
    if (rc <= 0)
        r->failed = 1;
    return rc > 0;
}

static int skip(rd *r, const tc_json_token *t)
{
    if (!r->failed && tc_json_skip(r->j, t) < 0)
        r->failed = 1;
    return !r->failed;
}

/* A value past the end of its header: the first is reported (DTRC-ROW-LONG),
 * each is skipped. Returns 1 when c was such a value. */
static int past_row_end(rd *r, const tc_json_token *c, unsigned ci, unsigned hcols)
{
    if (ci < hcols)
        return 0;
    if (ci == hcols)
        tc_json_report(r->j, c, TC_RULE_DTRC_ROW_LONG,
                       "the row has more values than the %u columns of its header", hcols);
    skip(r, c);
    return 1;
}

/* The rest of the array being read, up to its end. */
static void skip_rest(rd *r)
{
    tc_json_token t;
    while (next(r, &t) && t.kind != TC_JSON_ARRAY_END)
        if (!skip(r, &t))
            return;
}

static loc here(const tc_json_token *t) { return (loc){t->offset, t->line, t->column}; }

static void report_at(rd *r, const loc *at, const char *path, tc_rule_id rule, const char *fmt,
                      ...) __attribute__((format(printf, 5, 6)));
static void report_at(rd *r, const loc *at, const char *path, tc_rule_id rule, const char *fmt,
                      ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    tc_report_text(r->d, rule, at->offset, 1, at->line, at->column, path, "%s", msg);
}

static void wrong_type(rd *r, const tc_json_token *t, const char *name, const char *want)
{
    tc_json_report(r->j, t, TC_RULE_DTRC_TYPE, "%s is %s; %s is required", name,
                   tc_json_kind_name(t->kind), want);
    skip(r, t);
}

static void emit(rd *r, const tc_dtrc_event *ev)
{
    if (r->ctx->on_event)
        r->ctx->on_event(r->ctx->user, ev);
}

static void header_line(rd *r)
{
    if (r->header_done)
        return;
    r->header_done = 1;
    tc_dtrc_event ev = {.kind = TC_DTRC_EV_HEADER, .has_version = r->has_major,
                        .major = r->major, .minor = r->has_minor ? r->minor : 0};
    emit(r, &ev);
}

/* ---- tables ---- */

/* Reads the header of the table whose first token is t and checks that it
 * is exactly cols, in this order (ruling 9; no further column, unlike a
 * DCFG's tables: ruling 18). Returns 1 with the header's length when rows
 * follow; 0 when the table was unusable (reported, read to its end). */
static int table_header(rd *r, const tc_json_token *t, const char *name,
                        const char *const *cols, unsigned ncols, unsigned *hcols)
{
    if (t->kind != TC_JSON_ARRAY_BEGIN) {
        wrong_type(r, t, name, "a table (an array of arrays)");
        return 0;
    }
    tc_json_token h, c;
    if (!next(r, &h))
        return 0;
    if (h.kind == TC_JSON_ARRAY_END) {
        tc_json_report(r->j, &h, TC_RULE_DTRC_COLUMNS, "%s has no header row; it must "
                       "start with [\"%s\", ...]", name, cols[0]);
        return 0;
    }
    if (VIEW(r))
        row_record(r, &h, name, 0);
    if (h.kind != TC_JSON_ARRAY_BEGIN) {
        tc_json_report(r->j, &h, TC_RULE_DTRC_TYPE, "the header of %s is %s; an array of "
                       "column names is required", name, tc_json_kind_name(h.kind));
        if (skip(r, &h) && VIEW(r))
            tc_fields_record_end(r->d, END(r));
        if (!r->failed)
            skip_rest(r);
        return 0;
    }
    loc at = here(&h);
    char path[256], got[200] = "";
    snprintf(path, sizeof path, "%s", tc_json_path(r->j));
    unsigned i = 0;
    int ok = 1;
    size_t used = 0;
    while (next(r, &c) && c.kind != TC_JSON_ARRAY_END) {
        if (c.kind != TC_JSON_STRING) {
            tc_dcfg_tag(r->j, &c);
            ok = 0;
            if (!skip(r, &c))
                return 0;
            if (WANT(r))
                tc_dcfg_field(r->d, &c, END(r), "column", "(not a column name: %s)",
                              tc_json_kind_name(c.kind));
        } else {
            tc_dcfg_tag(r->j, &c);
            int wrong = i >= ncols || c.len != strlen(cols[i]) || memcmp(c.text, cols[i], c.len);
            if (i < ncols && wrong)
                ok = 0;
            if (WANT(r)) {
                int cut = c.len > 64;
                if (wrong)
                    tc_dcfg_field(r->d, &c, END(r), "column", "%.*s%s (expected %s)",
                                  (int)(cut ? 64 : c.len), c.text, cut ? "..." : "",
                                  i < ncols ? cols[i] : "no further column");
                else
                    tc_dcfg_field(r->d, &c, END(r), "column", "%s", cols[i]);
            }
            if (used < sizeof got)
                used += (size_t)snprintf(got + used, sizeof got - used, "%s%.*s", i ? ", " : "",
                                         (int)(c.len > 40 ? 40 : c.len), c.text);
        }
        i++;
    }
    if (r->failed)
        return 0;
    if (VIEW(r))
        tc_fields_record_end(r->d, END(r));
    if (!ok || i != ncols) {
        char want[200];
        size_t w = 0;
        for (unsigned k = 0; k < ncols && w < sizeof want; k++)
            w += (size_t)snprintf(want + w, sizeof want - w, "%s%s", k ? ", " : "", cols[k]);
        report_at(r, &at, path, TC_RULE_DTRC_COLUMNS,
                  "%s columns are [%s%s]; they must be exactly [%s] in this order", name, got,
                  used >= sizeof got ? "..." : "", want);
        skip_rest(r);
        return 0;
    }
    *hcols = i;
    return 1;
}

/* ---- dictionary ---- */

static tc_rule_id seq_rule(int code)
{
    switch (code) {
    case TC_DTRC_E_CHAR: return TC_RULE_DTRC_SEQ_CHAR;
    case TC_DTRC_E_REPEAT: return TC_RULE_DTRC_SEQ_REPEAT;
    case TC_DTRC_E_PAREN: return TC_RULE_DTRC_SEQ_PAREN;
    case TC_DTRC_E_COUNT: return TC_RULE_DTRC_SEQ_COUNT;
    case TC_DTRC_E_REF: return TC_RULE_DTRC_SEQ_KEY;
    case TC_DTRC_E_MISSING: return TC_RULE_DTRC_SEQ_MISSING;
    case TC_DTRC_E_CYCLE: return TC_RULE_DTRC_SEQ_CYCLE;
    case TC_DTRC_E_NESTING: return TC_RULE_DTRC_SEQ_NESTING;
    case TC_DTRC_E_SHORT: return TC_RULE_DTRC_SEQ_SHORT;
    case TC_DTRC_E_LEFTOVER: return TC_RULE_DTRC_SEQ_LEFTOVER;
    case TC_DTRC_E_NO_CODE: return TC_RULE_DTRC_SEQ_NO_CODE;
    case TC_DTRC_E_NO_ENTRY: return TC_RULE_DTRC_SEQ_NO_ENTRY;
    default: return TC_RULE_DTRC_SEQ_BUDGET;
    }
}

static void bad_entry(void *user, size_t e, const tc_dtrc_err *err)
{
    rd *r = user;
    if (err->code == TC_DTRC_E_NOMEM)
        return;
    char path[200];
    snprintf(path, sizeof path, "$.PROCESSES[%zu][1].%.64s", r->pindex, r->dict.keys[e]);
    if (err->code == TC_DTRC_E_CYCLE || err->code == TC_DTRC_E_NESTING)
        report_at(r, &r->dictloc[e], path, seq_rule(err->code), "STRING_DICTIONARY \"%.64s\": %s",
                  r->dict.keys[e], err->detail);
    else
        report_at(r, &r->dictloc[e], path, seq_rule(err->code),
                  "STRING_DICTIONARY \"%.64s\", character %zu: %s", r->dict.keys[e], err->pos,
                  err->detail);
}

static void finish_dict(rd *r)
{
    if (r->dict_done)
        return;
    r->dict_done = 1;
    tc_dtrc_dict_finish(&r->dict, bad_entry, r);
    for (size_t e = 0; e < r->dict.n; e++)
        if (r->dict.progs[e].dots && !r->dict.taint[e]) {
            char path[200];
            snprintf(path, sizeof path, "$.PROCESSES[%zu][1].%.64s", r->pindex, r->dict.keys[e]);
            report_at(r, &r->dictloc[e], path, TC_RULE_DTRC_SEQ_DOT,
                      "STRING_DICTIONARY \"%.64s\" has %zu '.' (first at character %zu), read "
                      "as 63; write '-'", r->dict.keys[e], r->dict.progs[e].dots,
                      r->dict.progs[e].first_dot);
        }
}

static void read_dict(rd *r, const tc_json_token *t)
{
    if (t->kind != TC_JSON_OBJECT_BEGIN) {
        wrong_type(r, t, "STRING_DICTIONARY", "an object of key -> sequence");
        return;
    }
    tc_json_token k, v;
    while (next(r, &k) && k.kind == TC_JSON_KEY) {
        int ok = tc_dtrc_key_ok(k.text, k.len);
        if (VIEW(r)) {
            int cut = k.len > 40;
            tc_fields_record(r->d, k.offset, 0, TC_LOOK_TEXT,
                             "STRING_DICTIONARY entry \"%.*s%s\"", (int)(cut ? 40 : k.len), k.text,
                             cut ? "..." : "");
            if (WANT(r))
                tc_dcfg_field(r->d, &k, END(r), "key", "\"%.*s%s\"%s", (int)(cut ? 40 : k.len),
                              k.text, cut ? "..." : "",
                              ok ? "" : " (not a key: not A-Z a-z 0-9 + -)");
        }
        if (!ok)
            tc_json_report(r->j, &k, TC_RULE_DTRC_DICT_KEY,
                           "key \"%.*s\" has characters outside A-Z a-z 0-9 + - (or is empty)",
                           (int)(k.len > 40 ? 40 : k.len), k.text);
        if (!tc_dcfg_grow((void **)&r->key, &r->capkey, k.len + 1, 1))
            ok = 0;
        else
            memcpy(r->key, k.text, k.len);
        size_t klen = k.len;
        if (!next(r, &v))
            return;
        if (v.kind != TC_JSON_STRING) {
            tc_json_report(r->j, &v, TC_RULE_DTRC_TYPE, "STRING_DICTIONARY \"%.*s\" is %s; an "
                           "edge-id sequence string is required", (int)(klen > 40 ? 40 : klen),
                           r->key, tc_json_kind_name(v.kind));
            if (!skip(r, &v))
                return;
            if (WANT(r))
                tc_dcfg_field(r->d, &v, END(r), "sequence", "(not read: %s, not a string)",
                              tc_json_kind_name(v.kind));
            if (VIEW(r))
                tc_fields_record_end(r->d, END(r));
            continue;
        }
        if (WANT(r))
            tc_dcfg_field(r->d, &v, END(r), "sequence", "%zu character%s", v.len,
                          v.len == 1 ? "" : "s");
        if (VIEW(r))
            tc_fields_record_end(r->d, END(r));
        if (!ok || !tc_dcfg_grow((void **)&r->dictloc, &r->capdictloc, r->dict.n + 1, sizeof(loc)))
            continue;
        r->dictloc[r->dict.n] = here(&v);
        tc_dtrc_dict_add(&r->dict, r->key, klen, v.text, v.len);
    }
}

/* ---- transition table ---- */

static void table_problem(void *user, int kind, const tc_dtrc_row *row, const tc_dtrc_row *other)
{
    rd *r = user;
    char a[40], b[40], path[120];
    tc_dtrc_code_str(row->pad, row->len, a);
    tc_dtrc_code_str(other->pad, other->len, b);
    snprintf(path, sizeof path, "$.PROCESSES[%zu][2][%" PRIu32 "]", r->pindex, row->row);
    const loc *at = &r->rowloc[row->row];
    if (kind == TC_DTRC_T_DUPLICATE)
        report_at(r, at, path, TC_RULE_DTRC_CODE_DUPLICATE,
                  "edge %" PRIu32 ": code \"%s\" equals code \"%s\" of row %" PRIu32
                  " once padded to 32 bits", row->edge, a, b, other->row);
    else if (kind == TC_DTRC_T_PREFIX)
        report_at(r, at, path, TC_RULE_DTRC_CODE_PREFIX,
                  "edge %" PRIu32 ": code \"%s\" starts with code \"%s\" of row %" PRIu32
                  ", so it can never be decoded", row->edge, a, b, other->row);
    else
        report_at(r, at, path, TC_RULE_DTRC_CODE_EMPTY,
                  "edge %" PRIu32 ": code \"%s\" next to the empty code of row %" PRIu32
                  "; an empty code must be its edge's only one", row->edge, a, other->row);
}

static void finish_table(rd *r)
{
    if (r->table_done)
        return;
    r->table_done = 1;
    r->rowinfo_ok = 0;
    r->fast.ok = 0;
    if (!tc_dtrc_table_finish(&r->table, table_problem, r))
        return;
    /* The view takes the general path: code at a time. */
    if (!r->dumping && !VIEW(r))
        tc_dtrc_fast_build(&r->fast, &r->table);
    if (!r->pair_on)
        return;
    /* Pairing is checked per row on its first use (tc_dtrc_decode_in.rows);
     * without the memory for it, per edge. */
    size_t n = r->table.nrows ? r->table.nrows : 1;
    if (!tc_dcfg_grow((void **)&r->rowinfo, &r->caprowinfo, n, sizeof *r->rowinfo))
        return;
    memset(r->rowinfo, 0, n * sizeof *r->rowinfo);
    r->rowinfo_ok = 1;
}

static void read_transitions(rd *r, const tc_json_token *t)
{
    static const char *const cols[] = {"CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"};
    unsigned hcols;
    if (!table_header(r, t, "TRANSITION_TABLE", cols, 3, &hcols))
        return;
    tc_json_token row, c;
    uint32_t ri = 0;
    while (next(r, &row) && row.kind != TC_JSON_ARRAY_END) {
        ri++;
        if (VIEW(r))
            row_record(r, &row, "TRANSITION_TABLE", ri);
        if (row.kind != TC_JSON_ARRAY_BEGIN) {
            wrong_type(r, &row, "a TRANSITION_TABLE row", "an array");
            if (VIEW(r))
                tc_fields_record_end(r->d, END(r));
            continue;
        }
        loc at = here(&row);
        unsigned ci = 0;
        int ok = 1;
        uint64_t edge = 0;
        uint32_t pad = 0;
        uint8_t len = 0;
        size_t nn = 0;
        while (next(r, &c) && c.kind != TC_JSON_ARRAY_END) {
            if (past_row_end(r, &c, ci, hcols)) {
                /* reported once, skipped */
            } else if (ci == 0) {
                int read = tc_dcfg_id(r->j, &c, "CURRENT_EDGE_ID", 0, &edge);
                ok &= read;
                if (WANT(r))
                    tc_dcfg_field_id(r->d, &c, END(r), "current_edge_id", read, edge);
            } else if (ci == 1) {
                if (c.kind != TC_JSON_STRING) {
                    wrong_type(r, &c, "TRANSITION_CODE", "a string of '0' and '1'");
                    ok = 0;
                    if (WANT(r))
                        tc_dcfg_field(r->d, &c, END(r), "transition_code",
                                      "(not read: %s, not a string)", tc_json_kind_name(c.kind));
                } else if (!tc_dtrc_parse_code(c.text, c.len, &pad, &len)) {
                    if (WANT(r))
                        tc_dcfg_field(r->d, &c, END(r), "transition_code",
                                      "(not read: not at most 32 '0' and '1')");
                    tc_json_report(r->j, &c, TC_RULE_DTRC_CODE_SYNTAX,
                                   "TRANSITION_CODE \"%.*s%s\" (%zu characters) is not at most "
                                   "32 characters '0' and '1'",
                                   (int)(c.len > 40 ? 40 : c.len), c.text,
                                   c.len > 40 ? "..." : "", c.len);
                    ok = 0;
                } else if (WANT(r)) {
                    tc_dcfg_field(r->d, &c, END(r), "transition_code", "\"%.*s\" (%u bit%s)",
                                  (int)len, c.text, (unsigned)len, len == 1 ? "" : "s");
                }
            } else if (ci == 2) {
                if (c.kind != TC_JSON_ARRAY_BEGIN) {
                    wrong_type(r, &c, "NEXT_EDGE_IDS", "an array of edge ids");
                    ok = 0;
                    if (WANT(r))
                        tc_dcfg_field(r->d, &c, END(r), "next_edge_ids",
                                      "(not read: %s, not an array)", tc_json_kind_name(c.kind));
                } else {
                    tc_json_token v;
                    size_t given = 0;
                    while (next(r, &v) && v.kind != TC_JSON_ARRAY_END) {
                        uint64_t id;
                        given++;
                        if (!tc_dcfg_id(r->j, &v, "an id of NEXT_EDGE_IDS", 0, &id)) {
                            ok = 0;
                            if (!skip(r, &v))
                                return;
                            continue;
                        }
                        if (!tc_dcfg_grow((void **)&r->next, &r->capnext, nn + 1, sizeof *r->next))
                            return;
                        r->next[nn++] = (uint32_t)id;
                    }
                    if (!r->failed && given == 0) {
                        tc_json_report(r->j, &v, TC_RULE_DTRC_NEXT_EMPTY,
                                       "NEXT_EDGE_IDS is empty; at least one edge id is needed");
                        ok = 0;
                    }
                    if (WANT(r) && !r->failed) {
                        char list[TC_FIELD_VALUE_MAX];
                        size_t n = 0;
                        for (size_t i = 0; i < nn && n < sizeof list - 24; i++)
                            n += (size_t)snprintf(list + n, sizeof list - n, "%s%" PRIu32,
                                                  i ? ", " : "", r->next[i]);
                        list[n] = 0;
                        tc_dcfg_field(r->d, &c, END(r), "next_edge_ids", "[%s%s]%s", list,
                                      n >= sizeof list - 24 ? ", ..." : "",
                                      given > nn ? " (values not ids left out)" : "");
                    }
                }
            } else {
                skip(r, &c);
            }
            ci++;
        }
        if (r->failed)
            return;
        if (VIEW(r))
            tc_fields_record_end(r->d, END(r));
        if (ci < 3) {
            tc_json_report(r->j, &c, TC_RULE_DTRC_ROW_SHORT,
                           "the row has %u values; CURRENT_EDGE_ID, TRANSITION_CODE and "
                           "NEXT_EDGE_IDS are all required", ci);
            ok = 0;
        }
        if (!ok)
            continue;
        if (!tc_dcfg_grow((void **)&r->rowloc, &r->caprowloc, (size_t)ri + 1, sizeof(loc)))
            return;
        r->rowloc[ri] = at;
        tc_dtrc_table_add(&r->table, (uint32_t)edge, pad, len, r->next, nn, ri);
    }
}

/* ---- chunks ---- */

static void flush_piece(rd *r)
{
    if (!r->npiece)
        return;
    tc_dtrc_event ev = {.kind = TC_DTRC_EV_EDGES, .pid = r->pid, .thread = r->tid,
                        .index = r->piece_index, .ids = r->piece, .nids = r->npiece};
    emit(r, &ev);
    r->piece_index += r->npiece;
    r->npiece = 0;
}

static uint64_t on_edge(void *user, uint32_t edge)
{
    rd *r = user;
    uint64_t w = 0;
    if (r->dumping && r->eindex < r->dump_cap) {
        r->piece[r->npiece++] = edge;
        if (r->npiece == TC_DTRC_DUMP_PIECE)
            flush_piece(r);
    }
    if (r->pair_on) {
        uint64_t s, t;
        if (!tc_dcfg_model_edge(r->m, r->pid, edge, &s, &t)) {
            tc_json_report(r->j, r->seq, TC_RULE_DTRC_PAIR_EDGE,
                           "edge %" PRIu32 " (edge %" PRIu64 " of the chunk) is not in the "
                           "EDGES of process %" PRIu64 " in %s", edge, r->eindex,
                           r->pid, r->dcfg);
            r->have_edge = 0;
        } else {
            if (r->have_edge && r->prev_target != s)
                tc_json_report(r->j, r->seq, TC_RULE_DTRC_PAIR_JOIN,
                               "edge %" PRIu32 " (edge %" PRIu64 " of the chunk) leaves node "
                               "%" PRIu64 ", but the edge before it enters node %" PRIu64,
                               edge, r->eindex, s, r->prev_target);
            r->prev_target = t;
            r->have_edge = 1;
            w = tc_dcfg_model_node_instrs(r->m, r->pid, s);
        }
    }
    r->eindex++;
    return w;
}

/* Whether a row's edges pair without a finding: the row's CURRENT_EDGE_ID
 * and its NEXT_EDGE_IDS are edges of the DCFG and each enters the node the
 * next one leaves; then its weight is the sum of their source nodes'
 * instructions. Otherwise its edges go through on_edge, which reports. */
static void row_check(void *user, uint32_t current, const tc_dtrc_code *c, tc_dtrc_rowinfo *out)
{
    rd *r = user;
    out->state = TC_DTRC_ROW_EDGEWISE;
    out->weight = 0;
    uint64_t s, t, prev;
    if (!tc_dcfg_model_edge(r->m, r->pid, current, &s, &prev))
        return;
    const uint32_t *ids = r->table.ids + c->next;
    uint64_t sum = 0;
    for (uint32_t k = 0; k < c->nnext; k++) {
        if (!tc_dcfg_model_edge(r->m, r->pid, ids[k], &s, &t) || s != prev)
            return;
        uint64_t w = tc_dcfg_model_node_instrs(r->m, r->pid, s);
        if (w > UINT64_MAX - sum)
            return; /* summed per edge, without overflow */
        sum += w;
        prev = t;
    }
    out->weight = sum;
    out->state = TC_DTRC_ROW_FINE;
}

/* An edge paired on its own: the state on_edge keeps (the edge before it)
 * set from prev, which the rows paired whole did not update. */
static uint64_t edge_at(void *user, uint32_t prev, uint32_t edge, uint64_t index)
{
    rd *r = user;
    r->eindex = index;
    if (index == 0) {
        r->have_edge = 0;
    } else {
        uint64_t s, t;
        r->have_edge = tc_dcfg_model_edge(r->m, r->pid, prev, &s, &t);
        if (r->have_edge)
            r->prev_target = t;
    }
    return on_edge(user, edge);
}

static void decode_chunk(rd *r, const tc_json_token *seq, uint64_t ic, int ic_ok, uint64_t ec,
                         uint64_t first)
{
    tc_dtrc_err err;
    r->decoded = 0;
    if (!tc_dtrc_compile_chunk(&r->prog, &r->dict, seq->text, seq->len, &err)) {
        if (err.code != TC_DTRC_E_NOMEM)
            tc_json_report(r->j, seq, seq_rule(err.code), "EDGE_ID_SEQUENCE, character %zu: %s",
                           err.pos, err.detail);
        return;
    }
    if (r->prog.dots)
        tc_json_report(r->j, seq, TC_RULE_DTRC_SEQ_DOT,
                       "EDGE_ID_SEQUENCE has %zu '.' (first at character %zu), read as 63; "
                       "write '-'", r->prog.dots, r->prog.first_dot);
    r->decoded = 1;
    if (tc_dtrc_prog_tainted(&r->prog, &r->dict))
        return; /* refers to a dictionary entry already reported */
    r->seq = seq;
    r->eindex = 0;
    r->have_edge = 0;
    r->npiece = 0;
    r->piece_index = 0;
    /* The dump walks every edge up to its cap; past it, periods are skipped
     * again, so that the rest of the chunk is checked as validate does. */
    tc_dtrc_decode_in in = {&r->table, &r->dict, &r->prog, (uint32_t)first, ec,
                            (r->dumping || r->pair_on) ? on_edge : NULL, r, r->dumping, 0};
    tc_dtrc_rows rows = {r->pair_on && r->rowinfo_ok ? r->rowinfo : NULL, row_check, edge_at,
                         r->fast.ok ? &r->fast : NULL};
    tc_dtrc_decode_out out;
    int code = tc_dtrc_decode_rows(&in, r->dumping ? NULL : &rows, r->dump_cap, &out);
    r->decoded = 2;
    r->decode_code = code;
    r->decode_edges = out.edges;
    flush_piece(r);
    if (r->dumping && out.edges > r->dump_cap) {
        tc_dtrc_event ev = {.kind = TC_DTRC_EV_TRUNCATED, .pid = r->pid, .thread = r->tid,
                            .index = r->dump_cap, .edge_count = ec};
        emit(r, &ev);
    }
    char used[64], total[64], left[64];
    tc_dtrc_bits_str(out.consumed, used, sizeof used);
    tc_dtrc_bits_str(out.total, total, sizeof total);
    switch (code) {
    case TC_DTRC_OK: break;
    case TC_DTRC_E_SHORT:
        tc_json_report(r->j, seq, TC_RULE_DTRC_SEQ_SHORT,
                       "EDGE_COUNT is %" PRIu64 " but the bits ran out after %" PRIu64
                       " edges (%s of %s bits used%s%s%s)", ec, out.edges, used, total,
                       out.bits[0] ? "; the last bits \"" : "", out.bits,
                       out.bits[0] ? "\" only begin a code" : "");
        break;
    case TC_DTRC_E_LEFTOVER:
        tc_dtrc_bits_str(out.leftover, left, sizeof left);
        tc_json_report(r->j, seq, TC_RULE_DTRC_SEQ_LEFTOVER,
                       "EDGE_COUNT %" PRIu64 " edges use %s of the %s bits, leaving %s%s; at "
                       "most 5 may be left", ec, used, total, out.total >= TC_DTRC_BITS_SAT ||
                       out.edges < ec ? "at least " : "", left);
        break;
    case TC_DTRC_E_NO_CODE:
        tc_json_report(r->j, seq, TC_RULE_DTRC_SEQ_NO_CODE,
                       "after %" PRIu64 " edges, at bit %s, the bits \"%s\" match no "
                       "TRANSITION_CODE of edge %" PRIu32, out.edges, used, out.bits, out.edge);
        break;
    case TC_DTRC_E_NO_ENTRY:
        tc_json_report(r->j, seq, TC_RULE_DTRC_SEQ_NO_ENTRY,
                       "after %" PRIu64 " of %" PRIu64 " edges, edge %" PRIu32 " has no row in "
                       "the TRANSITION_TABLE of process %" PRIu64, out.edges, ec, out.edge,
                       r->pid);
        break;
    default:
        tc_json_report(r->j, seq, TC_RULE_DTRC_SEQ_BUDGET,
                       "decoding stopped after %" PRIu64 " of %" PRIu64 " edges (%s of %s bits "
                       "used): the rest of the chunk was not checked", out.edges, ec, used,
                       total);
        break;
    }
    if (r->pair_on && ic_ok && (code == TC_DTRC_OK || code == TC_DTRC_E_LEFTOVER) &&
        out.weight != ic) {
        char sum[64];
        tc_dtrc_bits_str(out.weight, sum, sizeof sum);
        tc_json_report(r->j, seq, TC_RULE_DTRC_PAIR_INSTR_COUNT,
                       "the chunk's INSTR_COUNT is %" PRIu64 " but the source nodes of its %"
                       PRIu64 " edges hold %s instructions in %s", ic, ec, sum, r->dcfg);
    }
}

static void read_chunk(rd *r, const tc_json_token *row, unsigned hcols)
{
    (void)row;
    tc_json_token c;
    unsigned ci = 0;
    uint64_t pic = 0, ic = 0, ec = 0, first = 0;
    int pic_ok = 0, ic_ok = 0, ec_ok = 0, first_ok = 0;
    while (next(r, &c) && c.kind != TC_JSON_ARRAY_END) {
        if (past_row_end(r, &c, ci, hcols)) {
            /* reported once, skipped */
        } else if (ci == 0) {
            pic_ok = tc_dcfg_int(r->j, &c, "PRECEDING_INSTR_COUNT", &pic);
            if (WANT(r))
                tc_dcfg_field_int(r->d, &c, END(r), "preceding_instr_count", pic_ok, pic);
            if (pic_ok && r->have_prev &&
                (r->prev_ic > UINT64_MAX - r->prev_pic || pic < r->prev_pic + r->prev_ic))
                tc_json_report(r->j, &c, TC_RULE_DTRC_CHUNK_ORDER,
                               "PRECEDING_INSTR_COUNT %" PRIu64 " is before the end of the "
                               "previous chunk (PRECEDING_INSTR_COUNT %" PRIu64
                               " + INSTR_COUNT %" PRIu64 ")", pic, r->prev_pic, r->prev_ic);
        } else if (ci == 1) {
            ic_ok = tc_dcfg_int(r->j, &c, "INSTR_COUNT", &ic);
            if (WANT(r))
                tc_dcfg_field_int(r->d, &c, END(r), "instr_count", ic_ok, ic);
            if (pic_ok && ic_ok) {
                r->have_prev = 1;
                r->prev_pic = pic;
                r->prev_ic = ic;
            }
        } else if (ci == 2) {
            ec_ok = tc_dcfg_int(r->j, &c, "EDGE_COUNT", &ec);
            if (WANT(r))
                tc_dcfg_field_int(r->d, &c, END(r), "edge_count", ec_ok, ec);
        } else if (ci == 3) {
            /* Ignored when EDGE_COUNT is 0 (Doc §3.7). */
            if (ec_ok && ec == 0) {
                first_ok = skip(r, &c);
                if (WANT(r) && first_ok)
                    tc_dcfg_field(r->d, &c, END(r), "first_edge_id",
                                  "(not looked at: EDGE_COUNT is 0)");
            } else {
                first_ok = tc_dcfg_id(r->j, &c, "FIRST_EDGE_ID", 0, &first);
                if (WANT(r))
                    tc_dcfg_field_id(r->d, &c, END(r), "first_edge_id", first_ok, first);
            }
        } else if (ci == 4) {
            if (c.kind != TC_JSON_STRING) {
                wrong_type(r, &c, "EDGE_ID_SEQUENCE", "a string");
                if (WANT(r))
                    tc_dcfg_field(r->d, &c, END(r), "edge_id_sequence",
                                  "(not read: %s, not a string)", tc_json_kind_name(c.kind));
            } else {
                if (r->dumping && pic_ok && ic_ok && ec_ok) {
                    tc_dtrc_event ev = {.kind = TC_DTRC_EV_CHUNK, .pid = r->pid,
                                        .thread = r->tid, .preceding = pic, .instrs = ic,
                                        .edge_count = ec};
                    emit(r, &ev);
                }
                r->decoded = -1;
                if (ec_ok && first_ok)
                    decode_chunk(r, &c, ic, ic_ok, ec, first);
                if (WANT(r)) {
                    const char *how = r->decoded < 0    ? ": not decoded (EDGE_COUNT or FIRST_EDGE_ID unread)"
                                      : r->decoded == 0 ? ": does not compile"
                                      : r->decoded == 1 ? ": refers to an entry with an error"
                                      : r->decode_code == TC_DTRC_OK || r->decode_code == TC_DTRC_E_LEFTOVER
                                          ? ", decoded"
                                          : ", decoding stopped after";
                    if (r->decoded == 2)
                        tc_dcfg_field(r->d, &c, END(r), "edge_id_sequence",
                                      "%zu character%s%s %" PRIu64 " edge%s", c.len,
                                      c.len == 1 ? "" : "s", how,
                                      r->decode_edges, r->decode_edges == 1 ? "" : "s");
                    else
                        tc_dcfg_field(r->d, &c, END(r), "edge_id_sequence", "%zu character%s%s",
                                      c.len, c.len == 1 ? "" : "s", how);
                }
            }
        } else {
            skip(r, &c);
        }
        ci++;
    }
    if (VIEW(r) && !r->failed)
        tc_fields_record_end(r->d, END(r));
    if (!r->failed && ci < 5)
        tc_json_report(r->j, &c, TC_RULE_DTRC_ROW_SHORT,
                       "the chunk has %u values; PRECEDING_INSTR_COUNT, INSTR_COUNT, "
                       "EDGE_COUNT, FIRST_EDGE_ID and EDGE_ID_SEQUENCE are all required", ci);
}

static void read_trace_data(rd *r, const tc_json_token *t)
{
    static const char *const cols[] = {"PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT",
                                       "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"};
    unsigned hcols;
    r->have_prev = 0;
    if (!table_header(r, t, "TRACE_DATA", cols, 5, &hcols))
        return;
    tc_json_token row;
    unsigned ri = 0;
    while (next(r, &row) && row.kind != TC_JSON_ARRAY_END) {
        if (VIEW(r))
            row_record(r, &row, "TRACE_DATA", ++ri);
        if (row.kind != TC_JSON_ARRAY_BEGIN) {
            wrong_type(r, &row, "a TRACE_DATA row", "an array");
            if (VIEW(r))
                tc_fields_record_end(r->d, END(r));
        } else {
            read_chunk(r, &row, hcols);
        }
    }
}

/* ---- threads and processes ---- */

static int seen(uint64_t **set, size_t *n, size_t *cap, uint64_t v)
{
    for (size_t i = 0; i < *n; i++)
        if ((*set)[i] == v)
            return 1;
    if (tc_dcfg_grow((void **)set, cap, *n + 1, sizeof **set))
        (*set)[(*n)++] = v;
    return 0;
}

static void read_threads(rd *r, const tc_json_token *t)
{
    static const char *const cols[] = {"THREAD_ID", "TRACE_DATA"};
    unsigned hcols;
    if (!table_header(r, t, "THREAD_DATA", cols, 2, &hcols))
        return;
    tc_json_token row, c;
    unsigned ri = 0;
    while (next(r, &row) && row.kind != TC_JSON_ARRAY_END) {
        if (VIEW(r))
            row_record(r, &row, "THREAD_DATA", ++ri);
        if (row.kind != TC_JSON_ARRAY_BEGIN) {
            wrong_type(r, &row, "a THREAD_DATA row", "an array");
            if (VIEW(r))
                tc_fields_record_end(r->d, END(r));
            continue;
        }
        unsigned ci = 0;
        int own = 1; /* the view: the row's record is the current one */
        r->tid_ok = 0;
        r->tid = 0;
        while (next(r, &c) && c.kind != TC_JSON_ARRAY_END) {
            if (past_row_end(r, &c, ci, hcols)) {
                /* reported once, skipped */
            } else if (ci == 0) {
                r->tid_ok = tc_dcfg_int(r->j, &c, "THREAD_ID", &r->tid);
                if (WANT(r))
                    tc_dcfg_field_int(r->d, &c, END(r), "thread", r->tid_ok, r->tid);
                if (r->tid_ok && seen(&r->tids, &r->ntids, &r->captids, r->tid))
                    tc_json_report(r->j, &c, TC_RULE_DTRC_THREAD_DUPLICATE,
                                   "THREAD_ID %" PRIu64 " has a row already in process %" PRIu64,
                                   r->tid, r->pid);
                if (r->tid_ok && r->pair_on && r->tid >= r->threads)
                    tc_json_report(r->j, &c, TC_RULE_DTRC_PAIR_THREAD,
                                   "THREAD_ID %" PRIu64 " but process %" PRIu64 " has %" PRIu64
                                   " threads in %s (INSTR_COUNT_PER_THREAD)", r->tid,
                                   r->pid, r->threads, r->dcfg);
            } else if (ci == 1) {
                if (VIEW(r) && c.kind == TC_JSON_ARRAY_BEGIN) {
                    nested_field(r, &c, "trace_data");
                    own = 0;
                }
                read_trace_data(r, &c);
            } else {
                skip(r, &c);
            }
            ci++;
        }
        if (VIEW(r) && own && !r->failed)
            tc_fields_record_end(r->d, END(r));
        if (!r->failed && ci < 1)
            tc_json_report(r->j, &c, TC_RULE_DTRC_ROW_SHORT,
                           "the thread row is empty; THREAD_ID is required");
    }
}

static void process_begin(rd *r)
{
    tc_dtrc_table_reset(&r->table);
    tc_dtrc_dict_free(&r->dict);
    tc_dtrc_dict_init(&r->dict);
    r->dict_done = r->table_done = 0;
    r->ntids = 0;
    r->pid_ok = r->pair_on = 0;
    r->fast.ok = 0; /* its table is gone */
    r->pid = 0;
    r->threads = 0;
}

static void read_process(rd *r, unsigned hcols)
{
    tc_json_token c;
    unsigned ci = 0;
    int own = 1; /* the view: the row's record is the current one */
    static const char *const nested[] = {"string_dictionary", "transition_table", "thread_data"};
    process_begin(r);
    while (next(r, &c) && c.kind != TC_JSON_ARRAY_END) {
        if (VIEW(r) && own && ci >= 1 && ci <= 3 && ci < hcols &&
            (c.kind == TC_JSON_ARRAY_BEGIN || c.kind == TC_JSON_OBJECT_BEGIN)) {
            nested_field(r, &c, nested[ci - 1]);
            own = 0;
        }
        if (ci >= 2)
            finish_dict(r);
        if (ci >= 3)
            finish_table(r);
        if (past_row_end(r, &c, ci, hcols)) {
            /* reported once, skipped */
        } else if (ci == 0) {
            r->pid_ok = tc_dcfg_int(r->j, &c, "PROCESS_ID", &r->pid);
            if (WANT(r))
                tc_dcfg_field_int(r->d, &c, END(r), "pid", r->pid_ok, r->pid);
            if (r->pid_ok) {
                if (seen(&r->pids, &r->npids, &r->cappids, r->pid))
                    tc_json_report(r->j, &c, TC_RULE_DTRC_PROCESS_DUPLICATE,
                                   "PROCESS_ID %" PRIu64 " has a row already", r->pid);
                tc_dtrc_event ev = {.kind = TC_DTRC_EV_PROCESS, .pid = r->pid};
                if (r->dumping)
                    emit(r, &ev);
                if (r->m) {
                    r->pair_on = tc_dcfg_model_process(r->m, r->pid, &r->threads);
                    if (!r->pair_on)
                        tc_json_report(r->j, &c, TC_RULE_DTRC_PAIR_PROCESS,
                                       "PROCESS_ID %" PRIu64 " is not a process of %s",
                                       r->pid, r->dcfg);
                }
            }
        } else if (ci == 1) {
            read_dict(r, &c);
        } else if (ci == 2) {
            read_transitions(r, &c);
        } else if (ci == 3) {
            read_threads(r, &c);
        } else {
            skip(r, &c);
        }
        ci++;
    }
    if (r->failed)
        return;
    if (VIEW(r) && own)
        tc_fields_record_end(r->d, END(r));
    finish_dict(r);
    finish_table(r);
    if (ci < 1)
        tc_json_report(r->j, &c, TC_RULE_DTRC_ROW_SHORT,
                       "the process row is empty; PROCESS_ID is required");
}

static void read_processes(rd *r, const tc_json_token *t)
{
    static const char *const cols[] = {"PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE",
                                       "THREAD_DATA"};
    unsigned hcols;
    header_line(r);
    if (!table_header(r, t, "PROCESSES", cols, 4, &hcols))
        return;
    tc_json_token row;
    while (next(r, &row) && row.kind != TC_JSON_ARRAY_END) {
        r->pindex++;
        if (VIEW(r))
            row_record(r, &row, "PROCESSES", (unsigned)r->pindex);
        if (row.kind != TC_JSON_ARRAY_BEGIN) {
            wrong_type(r, &row, "a PROCESSES row", "an array");
            if (VIEW(r))
                tc_fields_record_end(r->d, END(r));
        } else {
            read_process(r, hcols);
        }
    }
}

/* ---- the document ---- */

static void read_document(rd *r)
{
    static const char *const keys[] = {"MAJOR_VERSION", "MINOR_VERSION", "PROCESSES"};
    tc_json_token t, v;
    if (!next(r, &t))
        return;
    if (t.kind != TC_JSON_OBJECT_BEGIN) {
        tc_json_report(r->j, &t, TC_RULE_DTRC_TOP_OBJECT,
                       "the document is %s; a DCFG-trace is an object",
                       tc_json_kind_name(t.kind));
        skip(r, &t);
        return;
    }
    int have[3] = {0, 0, 0}, last = -1;
    r->readable = 1;
    while (next(r, &t) && t.kind == TC_JSON_KEY) {
        int k = -1;
        for (int i = 0; i < 3; i++)
            if (t.len == strlen(keys[i]) && !memcmp(t.text, keys[i], t.len))
                k = i;
        if (k < 0 && tc_rule_enabled(r->d, TC_RULE_DCFG_UNKNOWN_KEY))
            tc_json_report(r->j, &t, TC_RULE_DCFG_UNKNOWN_KEY,
                           "the document has a key \"%.*s%s\" tracecheck does not know; its "
                           "value is not checked (ruling 19)", (int)(t.len > 64 ? 64 : t.len),
                           t.text, t.len > 64 ? "..." : "");
        if (k >= 0) {
            if (k < last)
                tc_json_report(r->j, &t, TC_RULE_DTRC_TOP_ORDER,
                               "%s comes after %s; the order is MAJOR_VERSION, MINOR_VERSION, "
                               "PROCESSES", keys[k], keys[last]);
            else
                last = k;
            have[k] = 1;
        }
        /* The view: a member that is no table read is a record. */
        int member = VIEW(r) && (k != 2 || !r->readable);
        if (member)
            tc_dcfg_member(r->d, &t, NULL, k >= 0);
        if (!next(r, &v))
            return;
        if (k == 0) {
            if (tc_dcfg_int(r->j, &v, "MAJOR_VERSION", &r->major)) {
                r->has_major = 1;
                r->readable = tc_dcfg_major_version(r->j, &v, r->major);
            }
            if (WANT(r))
                tc_dcfg_field_int(r->d, &v, END(r), "major", r->has_major, r->major);
        } else if (k == 1) {
            r->has_minor = tc_dcfg_int(r->j, &v, "MINOR_VERSION", &r->minor);
            if (WANT(r))
                tc_dcfg_field_int(r->d, &v, END(r), "minor", r->has_minor, r->minor);
        } else if (k == 2 && r->readable) {
            read_processes(r, &v);
        } else if (!skip(r, &v)) {
            return;
        }
        if (member)
            tc_fields_record_end(r->d, END(r));
    }
    if (r->failed)
        return;
    for (int i = 0; i < 3; i++)
        if (!have[i])
            tc_json_report(r->j, &t, TC_RULE_DTRC_TOP_MISSING, "the document has no %s",
                           keys[i]);
    header_line(r);
    /* The rest: TC-JSON-TRAILING and the like. */
    next(r, &t);
}

void tc_dtrc_parse_opts(tc_reader *reader, const tc_parse_ctx *ctx, const tc_dtrc_opts *o)
{
    rd *r = calloc(1, sizeof *r);
    if (!r)
        return;
    r->j = tc_json_new(reader, ctx->diags);
    r->reader = reader;
    if (!r->j) {
        free(r);
        return;
    }
    r->d = ctx->diags;
    r->ctx = ctx;
    r->m = o->model;
    if (o->dcfg_name)
        snprintf(r->dcfg, sizeof r->dcfg, "the DCFG %.180s", o->dcfg_name);
    else
        snprintf(r->dcfg, sizeof r->dcfg, "the DCFG");
    r->dumping = ctx->on_event != NULL;
    r->dump_cap = o->dump_cap ? o->dump_cap : TC_DTRC_DUMP_MAX_EDGES;
    r->pindex = 0;
    tc_dtrc_table_init(&r->table);
    tc_dtrc_dict_init(&r->dict);
    read_document(r);
    tc_json_free(r->j);
    tc_dtrc_table_free(&r->table);
    tc_dtrc_dict_free(&r->dict);
    tc_dtrc_prog_free(&r->prog);
    free(r->rowloc);
    free(r->rowinfo);
    tc_dtrc_fast_free(&r->fast);
    free(r->dictloc);
    free(r->next);
    free(r->key);
    free(r->pids);
    free(r->tids);
    free(r);
}

void tc_dtrc_parse_paired(tc_reader *reader, const tc_parse_ctx *ctx, const tc_dcfg_model *m)
{
    tc_dtrc_opts o = {.model = m};
    tc_dtrc_parse_opts(reader, ctx, &o);
}

void tc_dtrc_parse(tc_reader *reader, const tc_parse_ctx *ctx)
{
    tc_dtrc_opts o = {0};
    tc_dtrc_parse_opts(reader, ctx, &o);
}
