/*
 * The DCFG reader: tc_dcfg_parse reads the document, cross-checks it and
 * dumps it. The walk (Doc §2): the top-level object, the three id tables,
 * the processes with their images and edges. Values are checked as they are
 * read (rulings 3-6); what the cross-checks need is kept in the tc_dcfg_doc.
 * Keys may come in any order (Doc §1.2.4), so nothing here depends on it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg.h"
#include "dcfg_common.h"
#include "dcfg_dump.h"
#include "dcfg_table.h"

#define KEY(t, s) ((t)->len == sizeof(s) - 1 && !memcmp((t)->text, s, sizeof(s) - 1))

static void unknown_key(tc_dcfg_rd *rd, const tc_json_token *k, const char *where)
{
    if (tc_rule_enabled(rd->doc->d, TC_RULE_DCFG_UNKNOWN_KEY))
        tc_json_report(rd->j, k, TC_RULE_DCFG_UNKNOWN_KEY,
                       "%s has a key \"%s\" tracecheck does not know; its value is not checked",
                       where, k->text);
}

static int oom(tc_dcfg_rd *rd, const tc_json_token *t)
{
    (void)t;
    tc_diag_fail(rd->doc->d, "out of memory holding the graph");
    rd->failed = 1;
    rd->doc->broken = 1;
    return 0;
}

static char *dup_text(const tc_json_token *t)
{
    char *s = malloc(t->len + 1);
    if (s) {
        memcpy(s, t->text, t->len);
        s[t->len] = 0;
    }
    return s;
}

/* ---- FILE_NAMES, EDGE_TYPES, SPECIAL_NODES ---- */

typedef struct named_ctx {
    const char *id_col, *name_col;
    tc_dcfg_named row;
    int ok;
    int which; /* 0 files, 1 edge types, 2 special nodes */
} named_ctx;

static const char *const edge_types_other[] = {
    "BRANCH", "CONDITIONAL_BRANCH", "UNCONDITIONAL_BRANCH", "DIRECT_BRANCH", "INDIRECT_BRANCH",
    "DIRECT_CONDITIONAL_BRANCH", "INDIRECT_CONDITIONAL_BRANCH", "DIRECT_UNCONDITIONAL_BRANCH",
    "INDIRECT_UNCONDITIONAL_BRANCH", "REP", "FALL_THROUGH", "CALL_BYPASS", "SYSTEM_CALL_BYPASS",
    "CONTEXT_CHANGE_BYPASS", "EXCLUDED_CODE_BYPASS", "INTERRUPT_BYPASS", "UNKNOWN_IMAGE_BYPASS",
    "UNKNOWN",
};
/* Ruling 12: the edges a routine's reachability does not follow. */
static const char *const edge_types_inter[] = {
    "CALL", "DIRECT_CALL", "INDIRECT_CALL", "RETURN", "SYSTEM_CALL", "SYSTEM_RETURN",
    "CONTEXT_CHANGE", "CONTEXT_CHANGE_RETURN", "INTERRUPT", "INTERRUPT_RETURN",
};

static int edge_kind(const char *s)
{
    if (!strcmp(s, "ENTRY"))
        return TC_DCFG_ET_ENTRY;
    if (!strcmp(s, "EXIT"))
        return TC_DCFG_ET_EXIT;
    for (size_t i = 0; i < sizeof edge_types_inter / sizeof *edge_types_inter; i++)
        if (!strcmp(s, edge_types_inter[i]))
            return TC_DCFG_ET_INTER;
    for (size_t i = 0; i < sizeof edge_types_other / sizeof *edge_types_other; i++)
        if (!strcmp(s, edge_types_other[i]))
            return TC_DCFG_ET_OTHER;
    return TC_DCFG_ET_UNKNOWN_NAME;
}

static void named_begin(tc_dcfg_rd *rd, void *u, const tc_dcfg_loc *at)
{
    (void)rd;
    named_ctx *c = u;
    free(c->row.name);
    memset(&c->row, 0, sizeof c->row);
    c->row.at = *at;
    c->ok = 1;
}

static int named_cell(tc_dcfg_rd *rd, void *u, unsigned col, const tc_json_token *t)
{
    named_ctx *c = u;
    if (col == 0) {
        uint64_t id = 0;
        int ok = tc_dcfg_id(rd->j, t, c->id_col, 0, &id);
        if (ok)
            c->row.id = (uint32_t)id;
        else
            c->ok = 0;
        int rc = tc_dcfg_skip(rd, t);
        TC_DCFG_ID_FIELD(rd, t, ok, id);
        return rc;
    }
    if (!tc_dcfg_expect(rd, t, TC_JSON_STRING, c->name_col)) {
        int rc = tc_dcfg_skip(rd, t);
        if (TC_DCFG_WANT(rd))
            tc_dcfg_field_str(rd->doc->d, t, tc_dcfg_end(rd), rd->col_key);
        return rc;
    }
    if (TC_DCFG_WANT(rd))
        tc_dcfg_field_str(rd->doc->d, t, tc_dcfg_end(rd), rd->col_key);
    if (c->which == 1) {
        c->row.kind = edge_kind(t->text);
        if (c->row.kind == TC_DCFG_ET_UNKNOWN_NAME) {
            tc_json_report(rd->j, t, TC_RULE_DCFG_EDGE_TYPE_NAME,
                           "edge type \"%s\" is not a known edge type; read as intra-routine",
                           t->text);
            c->row.kind = TC_DCFG_ET_OTHER;
        }
    } else if (c->which == 2) {
        c->row.kind = !strcmp(t->text, "START") ? 1 : !strcmp(t->text, "END") ? 2 : 0;
        if (!c->row.kind && strcmp(t->text, "UNKNOWN"))
            tc_json_report(rd->j, t, TC_RULE_DCFG_SPECIAL_NODE_NAME,
                           "special node name \"%s\" is not START, END or UNKNOWN", t->text);
    }
    if (c->which != 0 || rd->doc->dump) {
        c->row.name = dup_text(t);
        if (!c->row.name)
            return oom(rd, t);
    }
    return 1;
}

static void named_end(tc_dcfg_rd *rd, void *u, unsigned seen, int complete)
{
    (void)seen;
    named_ctx *c = u;
    tc_dcfg_doc *doc = rd->doc;
    if (!complete || !c->ok)
        return;
    tc_dcfg_named *slot;
    int pushed = c->which == 0   ? TC_DCFG_PUSH(doc->files, slot)
                 : c->which == 1 ? TC_DCFG_PUSH(doc->edge_types, slot)
                                 : TC_DCFG_PUSH(doc->specials, slot);
    if (!pushed) {
        rd->failed = doc->broken = 1;
        return;
    }
    *slot = c->row;
    c->row.name = NULL;
}

static int read_named(tc_dcfg_rd *rd, const tc_json_token *t, int which)
{
    static const tc_dcfg_col cols[3][2] = {
        {{"FILE_NAME_ID", 1, "id", 0}, {"FILE_NAME", 0, "name", 0}},
        {{"EDGE_TYPE_ID", 1, "id", 0}, {"EDGE_TYPE", 0, "name", 0}},
        {{"NODE_ID", 1, "id", 0}, {"NODE_NAME", 0, "name", 0}},
    };
    static const char *const names[3] = {"FILE_NAMES", "EDGE_TYPES", "SPECIAL_NODES"};
    named_ctx c = {cols[which][0].name, cols[which][1].name, {0}, 0, which};
    tc_dcfg_table tb = {names[which], cols[which], 2, named_begin, named_cell, named_end};
    int rc = tc_dcfg_read_table(rd, t, &tb, &c, NULL);
    free(c.row.name);
    return rc;
}

/* ---- processes ---- */

int tc_dcfg_read_process_data(tc_dcfg_rd *rd, const tc_json_token *t, tc_dcfg_proc *p);

typedef struct proc_ctx {
    tc_dcfg_proc p;
    int ok;
} proc_ctx;

static void proc_begin(tc_dcfg_rd *rd, void *u, const tc_dcfg_loc *at)
{
    (void)rd;
    proc_ctx *c = u;
    memset(&c->p, 0, sizeof c->p);
    c->p.at = *at;
    c->ok = 1;
}

static int proc_cell(tc_dcfg_rd *rd, void *u, unsigned col, const tc_json_token *t)
{
    proc_ctx *c = u;
    if (col == 0) {
        if (tc_dcfg_int(rd->j, t, "PROCESS_ID", &c->p.pid))
            c->p.has_pid = 1;
        else
            c->ok = 0;
        int rc = tc_dcfg_skip(rd, t);
        TC_DCFG_INT_FIELD(rd, t, c->p.has_pid, c->p.pid);
        return rc;
    }
    if (!tc_dcfg_expect(rd, t, TC_JSON_OBJECT_BEGIN, "PROCESS_DATA"))
        return tc_dcfg_skip(rd, t);
    return tc_dcfg_read_process_data(rd, t, &c->p);
}

void tc_dcfg_proc_free(tc_dcfg_proc *p);

static void proc_end(tc_dcfg_rd *rd, void *u, unsigned seen, int complete)
{
    (void)seen;
    proc_ctx *c = u;
    tc_dcfg_proc *slot;
    if (!complete || !c->ok || !TC_DCFG_PUSH(rd->doc->procs, slot)) {
        tc_dcfg_proc_free(&c->p);
        return;
    }
    *slot = c->p;
    memset(&c->p, 0, sizeof c->p);
}

static int read_processes(tc_dcfg_rd *rd, const tc_json_token *t)
{
    static const tc_dcfg_col cols[] = {{"PROCESS_ID", 1, "pid", 0},
                                          {"PROCESS_DATA", 0, "process_data", 1}};
    proc_ctx c;
    memset(&c, 0, sizeof c);
    tc_dcfg_table tb = {"PROCESSES", cols, 2, proc_begin, proc_cell, proc_end};
    int rc = tc_dcfg_read_table(rd, t, &tb, &c, NULL);
    if (rd->failed)
        tc_dcfg_proc_free(&c.p); /* a row cut off by an error */
    return rc;
}

/* ---- the top level ---- */

void tc_dcfg_read(tc_reader *r, tc_dcfg_doc *doc)
{
    tc_json *j = tc_json_new(r, doc->d);
    if (!j) {
        tc_diag_fail(doc->d, "out of memory starting the JSON reader");
        doc->broken = 1;
        return;
    }
    tc_dcfg_rd rd = {j, doc, 0, r, NULL};
    tc_diag_sink *d = doc->d;
    tc_json_token t, k;
    if (!tc_dcfg_next(&rd, &t))
        goto out;
    if (t.kind != TC_JSON_OBJECT_BEGIN) {
        tc_json_report(j, &t, TC_RULE_DCFG_TOP_OBJECT, "the document is %s, not an object",
                       t.kind == TC_JSON_ARRAY_BEGIN ? "an array" : "a scalar");
        tc_dcfg_skip(&rd, &t);
        doc->broken = 1;
        goto out;
    }
    tc_json_token open = t;
    int stop = 0; /* a version tracecheck cannot read: syntax only */
    while (tc_dcfg_next(&rd, &k) && k.kind == TC_JSON_KEY) {
        char key[32];
        snprintf(key, sizeof key, "%.*s", (int)(k.len < 31 ? k.len : 31), k.text);
        size_t klen = k.len;
        if (!tc_dcfg_next(&rd, &t))
            break;
        tc_json_token kk = k;
        kk.text = key;
        kk.len = klen;
        /* The view: a member that is no table is a record. */
        int version = KEY(&kk, "MAJOR_VERSION") || KEY(&kk, "MINOR_VERSION");
        int member = version || !(KEY(&kk, "FILE_NAMES") || KEY(&kk, "EDGE_TYPES") ||
                                  KEY(&kk, "SPECIAL_NODES") || KEY(&kk, "PROCESSES"));
        if (TC_FIELDS_ON(d) && (member || stop))
            tc_dcfg_member(d, &kk, NULL, version || !member);
        if (stop) {
            tc_dcfg_skip(&rd, &t);
            if (TC_FIELDS_ON(d))
                tc_fields_record_end(d, tc_dcfg_end(&rd));
            continue;
        }
        if (version) {
            int major = key[1] == 'A';
            uint64_t v = 0;
            int ok = tc_dcfg_int(j, &t, key, &v);
            if (TC_FIELDS_WANT(d))
                tc_dcfg_field_int(d, &t, tc_dcfg_end(&rd),
                                  major ? "major_version" : "minor_version", ok, v);
            if (ok) {
                if (major) {
                    doc->has_major = 1;
                    doc->major = v;
                    if (!tc_dcfg_major_version(j, &t, v)) {
                        stop = 1;
                        doc->broken = 1;
                    }
                } else {
                    doc->has_minor = 1;
                    doc->minor = v;
                }
            }
            tc_dcfg_skip(&rd, &t);
            if (TC_FIELDS_ON(d))
                tc_fields_record_end(d, tc_dcfg_end(&rd));
        } else if (KEY(&kk, "FILE_NAMES")) {
            read_named(&rd, &t, 0);
        } else if (KEY(&kk, "EDGE_TYPES")) {
            read_named(&rd, &t, 1);
        } else if (KEY(&kk, "SPECIAL_NODES")) {
            read_named(&rd, &t, 2);
        } else if (KEY(&kk, "PROCESSES")) {
            read_processes(&rd, &t);
        } else {
            unknown_key(&rd, &k, "the top-level object");
            tc_dcfg_skip(&rd, &t);
            if (TC_FIELDS_ON(d))
                tc_fields_record_end(d, tc_dcfg_end(&rd));
        }
    }
    if (!rd.failed) {
        /* After the object: the tokenizer reports anything but the end. */
        int rc;
        while ((rc = tc_json_next(j, &t)) > 0)
            ;
        if (rc < 0)
            doc->broken = 1;
        else if (!doc->has_major)
            tc_report_text(doc->d, TC_RULE_DCFG_VERSION_MISSING, open.offset, 1, open.line,
                           open.column, "$", "the top-level object has no MAJOR_VERSION");
    }
out:
    if (rd.failed)
        doc->broken = 1;
    tc_json_free(j);
}

/* ---- the entry point: read, cross-check, dump ---- */

void tc_dcfg_parse(tc_reader *r, const tc_parse_ctx *ctx)
{
    tc_dcfg_doc doc = {0};
    doc.d = ctx->diags;
    doc.dump = ctx->on_event != NULL;
    tc_dcfg_read(r, &doc);
    if (!doc.broken)
        tc_dcfg_check(&doc);
    if (ctx->on_event)
        tc_dcfg_dump_all(&doc, ctx->on_event, ctx->user);
    tc_dcfg_doc_free(&doc);
}
