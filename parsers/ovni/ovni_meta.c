/*
 * stream.json: read through the strict tokenizer (syntax errors are the
 * TC-JSON rules), walked key by key, checked per ruling 6, summarised in a
 * tc_ovni_meta for the model layer and the checks of the whole trace.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/fields.h"
#include "../common/json.h"
#include "ovni_meta.h"
#include "ovni_meta_walk.h"
#include "ovni_models.h"

char tc_ovni_model_letter(const char *name)
{
    tc_ovni_model_id m = tc_ovni_model_of_name(name);
    return m == TC_OVNI_M_NONE ? 0 : tc_ovni_model_table[m].letter;
}

uint64_t tc_ovni_text_hash(const char *p, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
    return h;
}

int tc_ovni_model_allowed(const tc_ovni_models *models, char m)
{
    if (m == 'O')
        return 1; /* ovni's own model is always enabled */
    if (!models->known)
        return -1;
    if (tc_ovni_model_of_letter((unsigned char)m) != TC_OVNI_M_NONE)
        return models->letters[(unsigned char)m & 0x7f] != 0;
    /* A letter of no model tracecheck knows: it may be a required unknown one. */
    return models->unknown_required ? -1 : 0;
}

void tc_ovni_meta_free(tc_ovni_meta *m)
{
    free(m->cpus);
    m->cpus = NULL;
    m->ncpus = 0;
    for (size_t i = 0; i < m->nmarks; i++)
        free(m->marks[i].labels);
    free(m->marks);
    m->marks = NULL;
    m->nmarks = 0;
    free(m->hwc);
    m->hwc = NULL;
    m->hwc_counters = 0;
}

void tc_ovni_report_at(tc_diag_sink *d, const tc_ovni_loc *at, tc_rule_id rule, const char *fmt,
                       ...)
{
    char message[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    if (at && at->set)
        tc_report_text(d, rule, at->offset, 1, at->line, at->column, at->path, "%s", message);
    else
        tc_report(d, rule, 0, 0, "%s", message);
}

/* ---- the view of `tracecheck show` (fields.h) ----
 *
 * Each top-level member of the document is a record, from its key to the
 * end of its value; its value is a field named by its key, or, for the
 * ovni object, each member of it a field ("ovni.part"). A value is drawn
 * once read, from its first byte to where the tokenizer stopped. */

static void show_flush(walker *w)
{
    if (!w->shown.on)
        return;
    w->shown.on = 0;
    uint64_t end = tc_pos(w->r);
    tc_fields_field(w->d, w->shown.at, end > w->shown.at ? end - w->shown.at : 0, 0, 0,
                    w->shown.name, "%s", w->shown.value);
}

static void show_value(walker *w, const tc_json_token *v, const char *prefix, const char *key)
{
    if (!TC_FIELDS_WANT(w->d))
        return;
    show_flush(w);
    tc_ovni_shown *x = &w->shown;
    x->on = 1;
    x->at = v->offset;
    snprintf(x->name, sizeof x->name, "%s%s", prefix, key);
    switch (v->kind) {
    case TC_JSON_STRING: {
        size_t h = 0;
        x->value[h++] = '"';
        for (size_t i = 0; i < v->len && h + 8 < sizeof x->value; i++) {
            unsigned char c = (unsigned char)v->text[i];
            if (c >= 0x20 && c != 0x7f && c != '"' && c != '\\')
                x->value[h++] = (char)c;
            else
                h += (size_t)snprintf(x->value + h, sizeof x->value - h, "\\u%04x", c);
        }
        snprintf(x->value + h, sizeof x->value - h, "%s\"", h + 8 >= sizeof x->value ? "..." : "");
        break;
    }
    case TC_JSON_NUMBER:
        snprintf(x->value, sizeof x->value, "%.*s", (int)(v->len < 100 ? v->len : 100), v->text);
        break;
    case TC_JSON_TRUE: snprintf(x->value, sizeof x->value, "true"); break;
    case TC_JSON_FALSE: snprintf(x->value, sizeof x->value, "false"); break;
    case TC_JSON_NULL: snprintf(x->value, sizeof x->value, "null"); break;
    default: snprintf(x->value, sizeof x->value, "%s", tc_ovni_mw_what(v)); break;
    }
}

/* The top-level member being read ends: its value and its record. */
static void show_member_end(walker *w)
{
    if (!TC_FIELDS_ON(w->d))
        return;
    show_flush(w);
    if (w->member)
        tc_fields_record_end(w->d, tc_pos(w->r));
    w->member = 0;
}

static void show_member(walker *w, const tc_json_token *k)
{
    if (!TC_FIELDS_ON(w->d))
        return;
    w->member = 1;
    snprintf(w->shown.key, sizeof w->shown.key, "%.*s", (int)(k->len < 40 ? k->len : 40), k->text);
    tc_fields_record(w->d, k->offset, 0, TC_LOOK_TEXT, "metadata member \"%.*s\"",
                     (int)(k->len < 60 ? k->len : 60), k->text);
}

/* ---- tokens ---- */

void tc_ovni_mw_remember(walker *w, const tc_json_token *t, tc_ovni_loc *at)
{
    at->set = 1;
    at->offset = t->offset;
    at->line = t->line;
    at->column = t->column;
    snprintf(at->path, sizeof at->path, "%s", tc_json_path(w->j));
}

int tc_ovni_mw_next(walker *w, tc_json_token *t)
{
    if (w->failed)
        return 0;
    int rc = tc_json_next(w->j, t);
    if (rc <= 0)
        w->failed = 1;
    return rc > 0;
}

int tc_ovni_mw_skip(walker *w, const tc_json_token *t)
{
    if (tc_json_skip(w->j, t) < 0)
        w->failed = 1;
    return !w->failed;
}

const char *tc_ovni_mw_what(const tc_json_token *t)
{
    switch (t->kind) {
    case TC_JSON_OBJECT_BEGIN: return "an object";
    case TC_JSON_ARRAY_BEGIN: return "an array";
    case TC_JSON_STRING: return "a string";
    case TC_JSON_NUMBER: return t->integer ? "an integer" : "a number with a fraction or exponent";
    case TC_JSON_TRUE:
    case TC_JSON_FALSE: return "a boolean";
    case TC_JSON_NULL: return "null";
    default: return "something else";
    }
}

/* An integer within int64. */
int tc_ovni_mw_integer(const tc_json_token *t, int64_t *v)
{
    if (t->kind != TC_JSON_NUMBER || !t->integer)
        return 0;
    if (!t->fits || (!t->negative && t->u64 > INT64_MAX)) {
        *v = t->negative ? INT64_MIN : INT64_MAX;
        return 2; /* an integer, out of range */
    }
    *v = t->negative ? t->i64 : (int64_t)t->u64;
    return 1;
}

void tc_ovni_mw_wrong_type(walker *w, const tc_json_token *t, const char *key, const char *want)
{
    tc_json_report(w->j, t, TC_RULE_OVNI_META_TYPE, "%s is %s; %s is required", key, tc_ovni_mw_what(t), want);
    tc_ovni_mw_skip(w, t);
}

/* ---- ovni.* values ---- */

static void read_id(walker *w, const tc_json_token *t, const char *key, int64_t *out, int *has,
                    tc_ovni_loc *at)
{
    int64_t v;
    int kind = tc_ovni_mw_integer(t, &v);
    tc_ovni_mw_remember(w, t, at); /* present, even when wrong: not also "missing" */
    if (!kind) {
        tc_ovni_mw_wrong_type(w, t, key, "an integer");
        return;
    }
    if (kind == 2 || v <= 0 || v > INT32_MAX) {
        tc_json_report(w->j, t, TC_RULE_OVNI_META_ID, "%s is %.*s; it must be from 1 to %d", key,
                       (int)t->len, t->text, INT32_MAX);
        return;
    }
    *out = v;
    *has = 1;
}

static void read_string(walker *w, const tc_json_token *t, const char *key, char *out,
                        size_t size, int *has, tc_ovni_loc *at)
{
    tc_ovni_mw_remember(w, t, at);
    if (t->kind != TC_JSON_STRING) {
        tc_ovni_mw_wrong_type(w, t, key, "a string");
        return;
    }
    snprintf(out, size, "%.*s", (int)t->len, t->text);
    *has = 1;
}

/* libovni's version_parse (src/include/version.h) refuses a version of 64
 * characters or more, and reads each number with strtol into an int. It
 * also takes what the specification's form is not (white space or a sign
 * before a number, dots repeated or leading, anything after the patch
 * number past a '.' or '-'): refused here. */
#define VERSION_MAX_LEN 63

const char *tc_ovni_version_parse(const char *s, size_t n, int64_t v[3])
{
    if (n > VERSION_MAX_LEN)
        return "it is longer than the 63 characters libovni reads";
    size_t i = 0;
    for (int part = 0; part < 3; part++) {
        if (part > 0 && (i == n || s[i++] != '.'))
            return "it is not three numbers separated by dots";
        size_t start = i;
        int64_t value = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            value = value * 10 + (s[i] - '0');
            if (value > INT32_MAX) /* libovni's int; leading zeros do not count */
                return "a number is above 2147483647";
            i++;
        }
        if (i == start)
            return "it is not three numbers separated by dots";
        v[part] = value;
    }
    return i == n ? NULL : "it is not three numbers separated by dots";
}

int tc_ovni_version_compatible(const int64_t want[3], const int64_t have[3])
{
    return want[0] == have[0] && want[1] <= have[1];
}

/* Rulings 9 and 15: a model whose version tracecheck knows (every model of
 * ovniemu 1.14.0) required at a version it does not provide. */
static void check_version(walker *w, const tc_json_token *v, const char *name, char letter,
                          const int64_t want[3])
{
    tc_ovni_model_id id = tc_ovni_model_of_letter((unsigned char)letter);
    if (id == TC_OVNI_M_NONE)
        return; /* a model tracecheck does not know */
    const char *version = tc_ovni_model_table[id].version;
    int64_t have[3];
    tc_ovni_version_parse(version, strlen(version), have);
    if (tc_ovni_version_compatible(want, have))
        return;
    tc_json_report(w->j, v, TC_RULE_OVNI_REQUIRE_VERSION,
                   "ovni.require.%s is \"%.*s\", but the %s model is %s here: a compatible version "
                   "has major %" PRId64 " and minor %" PRId64 " or lower; the events of the %s model "
                   "in this stream are not judged",
                   name, (int)v->len, v->text, name, version, have[0], have[1], name);
    w->m->models.incompatible[(unsigned char)letter] = 1;
}

static void read_require(walker *w, const tc_json_token *open)
{
    tc_ovni_models *mo = &w->m->models;
    if (open->kind != TC_JSON_OBJECT_BEGIN) {
        tc_ovni_mw_wrong_type(w, open, "ovni.require", "an object of model name -> version");
        return;
    }
    mo->known = 1;
    tc_json_token k, v;
    while (tc_ovni_mw_next(w, &k) && k.kind == TC_JSON_KEY) {
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)k.len, k.text);
        /* Known models by their whole name: "nosv\u0000x" is none of them. */
        int whole = !memchr(k.text, '\0', k.len);
        if (!tc_ovni_mw_next(w, &v))
            return;
        char letter = whole ? tc_ovni_model_letter(name) : 0;
        int64_t want[3];
        const char *why = v.kind == TC_JSON_STRING ? tc_ovni_version_parse(v.text, v.len, want)
                                                   : "";
        if (why) {
            if (v.kind == TC_JSON_STRING)
                tc_json_report(w->j, &v, TC_RULE_OVNI_META_REQUIRE,
                               "ovni.require.%s is \"%.*s\"%s: %s; a version MAJOR.MINOR.PATCH "
                               "is required", name, (int)(v.len > 60 ? 60 : v.len), v.text,
                               v.len > 60 ? "..." : "", why);
            else
                tc_json_report(w->j, &v, TC_RULE_OVNI_META_REQUIRE,
                               "ovni.require.%s is %s; a version string \"MAJOR.MINOR.PATCH\" is "
                               "required", name, tc_ovni_mw_what(&v));
            if (!tc_ovni_mw_skip(w, &v))
                return;
        } else {
            check_version(w, &v, name, letter, want);
        }
        if (letter)
            mo->letters[(unsigned char)letter] = 1;
        else
            mo->unknown_required = 1;
        size_t used = strlen(mo->names);
        snprintf(mo->names + used, sizeof mo->names - used, "%s%s", used ? ", " : "", name);
    }
}

/* One {index, phyid} of ovni.loom_cpus; 0 when it is malformed (reported). */
static int read_cpu(walker *w, const tc_json_token *open, tc_ovni_cpu *cpu)
{
    if (open->kind != TC_JSON_OBJECT_BEGIN) {
        tc_json_report(w->j, open, TC_RULE_OVNI_META_LOOM_CPUS,
                       "a CPU of ovni.loom_cpus is %s; {\"index\": I, \"phyid\": P} is required",
                       tc_ovni_mw_what(open));
        tc_ovni_mw_skip(w, open);
        return 0;
    }
    int has_index = 0, has_phyid = 0, ok = 1;
    tc_json_token k, v;
    while (tc_ovni_mw_next(w, &k) && k.kind == TC_JSON_KEY) {
        int is_index = k.len == 5 && !memcmp(k.text, "index", 5);
        int is_phyid = k.len == 5 && !memcmp(k.text, "phyid", 5);
        if (!tc_ovni_mw_next(w, &v))
            return 0;
        if (!is_index && !is_phyid) {
            if (!tc_ovni_mw_skip(w, &v))
                return 0;
            continue;
        }
        int64_t n;
        if (tc_ovni_mw_integer(&v, &n) != 1 || n < 0) {
            if (v.kind == TC_JSON_NUMBER)
                tc_json_report(w->j, &v, TC_RULE_OVNI_META_LOOM_CPUS,
                               "a CPU's %s is %.*s; an integer >= 0 is required",
                               is_index ? "index" : "phyid", (int)v.len, v.text);
            else
                tc_json_report(w->j, &v, TC_RULE_OVNI_META_LOOM_CPUS,
                               "a CPU's %s is %s; an integer >= 0 is required",
                               is_index ? "index" : "phyid", tc_ovni_mw_what(&v));
            ok = 0;
            if (!tc_ovni_mw_skip(w, &v))
                return 0;
            continue;
        }
        if (is_index) {
            cpu->index = n;
            has_index = 1;
        } else {
            cpu->phyid = n;
            has_phyid = 1;
        }
    }
    if (ok && !w->failed && (!has_index || !has_phyid)) { /* not when an error cut it short */
        tc_json_report(w->j, open, TC_RULE_OVNI_META_LOOM_CPUS, "a CPU of ovni.loom_cpus lacks %s",
                       !has_index ? "its index" : "its phyid");
        ok = 0;
    }
    return ok && !w->failed;
}

static void read_cpus(walker *w, const tc_json_token *open)
{
    tc_ovni_meta *m = w->m;
    /* Given, even when of the wrong type: the loom is not also said to have
     * no CPU list (see check_loom). */
    tc_ovni_mw_remember(w, open, &m->cpus_at);
    if (open->kind != TC_JSON_ARRAY_BEGIN) {
        tc_ovni_mw_wrong_type(w, open, "ovni.loom_cpus", "an array of {index, phyid}");
        return;
    }
    /* A second loom_cpus (a duplicate key, reported as such) replaces the
     * first: the list below starts empty, with its own capacity. */
    free(m->cpus);
    m->cpus = NULL;
    m->ncpus = 0;
    size_t cap = 0, seen = 0;
    int ok = 1;
    tc_json_token t;
    while (tc_ovni_mw_next(w, &t) && t.kind != TC_JSON_ARRAY_END) {
        seen++;
        tc_ovni_cpu cpu;
        if (!read_cpu(w, &t, &cpu)) {
            ok = 0;
            continue;
        }
        if (m->ncpus == cap) {
            cap = cap ? cap * 2 : 16;
            tc_ovni_cpu *c = realloc(m->cpus, cap * sizeof *c);
            if (!c) {
                ok = 0;
                break;
            }
            m->cpus = c;
        }
        m->cpus[m->ncpus++] = cpu;
    }
    if (!w->failed && seen == 0)
        tc_json_report(w->j, open, TC_RULE_OVNI_META_LOOM_CPUS,
                       "ovni.loom_cpus is empty; a loom has at least one CPU");
    m->has_cpus = ok && seen > 0;
}

static void read_ovni(walker *w, const tc_json_token *open)
{
    tc_ovni_meta *m = w->m;
    int has_part = 0, has_finished = 0, has_require = 0;
    char part[64] = "";
    tc_ovni_loc part_at = {0};
    tc_json_token k, v;
    while ((show_flush(w), tc_ovni_mw_next(w, &k)) && k.kind == TC_JSON_KEY) {
        char key[32];
        snprintf(key, sizeof key, "%.*s", (int)(k.len < 31 ? k.len : 31), k.text);
        if (k.len > 31 || memchr(k.text, '\0', k.len))
            key[0] = '\0'; /* none of ours: "part\u0000x" is not "part" */
        if (!tc_ovni_mw_next(w, &v))
            return;
        if (TC_FIELDS_ON(w->d))
            show_value(w, &v, "ovni.", key);
        if (!strcmp(key, "part")) {
            read_string(w, &v, "ovni.part", part, sizeof part, &has_part, &part_at);
            /* Compared whole: "thread\u0000" is not "thread". */
            if (has_part && v.kind == TC_JSON_STRING && v.len != strlen(part))
                part[0] = '\x01';
        } else if (!strcmp(key, "tid")) {
            read_id(w, &v, "ovni.tid", &m->tid, &m->has_tid, &m->tid_at);
        } else if (!strcmp(key, "pid")) {
            read_id(w, &v, "ovni.pid", &m->pid, &m->has_pid, &m->pid_at);
        } else if (!strcmp(key, "app_id")) {
            read_id(w, &v, "ovni.app_id", &m->app_id, &m->has_app_id, &m->app_id_at);
        } else if (!strcmp(key, "rank") || !strcmp(key, "nranks")) {
            int rank = key[0] == 'r';
            int64_t n;
            tc_ovni_mw_remember(w, &v, rank ? &m->rank_at : &m->nranks_at);
            if (tc_ovni_mw_integer(&v, &n) != 1) {
                if (v.kind == TC_JSON_NUMBER && v.integer)
                    tc_json_report(w->j, &v, TC_RULE_OVNI_META_RANK, "ovni.%s is %.*s, out of "
                                   "range", key, (int)v.len, v.text);
                else
                    tc_ovni_mw_wrong_type(w, &v, rank ? "ovni.rank" : "ovni.nranks", "an integer");
                continue;
            }
            *(rank ? &m->rank : &m->nranks) = n;
            *(rank ? &m->has_rank : &m->has_nranks) = 1;
        } else if (!strcmp(key, "loom")) {
            read_string(w, &v, "ovni.loom", m->loom, sizeof m->loom, &m->has_loom, &m->loom_at);
            /* has_loom may be an earlier "loom"'s (a repeated key) when this one is
             * no string: only a string is looked into. */
            if (m->has_loom && v.kind == TC_JSON_STRING &&
                (!m->loom[0] || memchr(v.text, '/', v.len) || memchr(v.text, '\0', v.len))) {
                tc_json_report(w->j, &v, TC_RULE_OVNI_META_LOOM,
                               "ovni.loom is \"%s\"%s; a loom name is a directory name: not "
                               "empty, no '/' and no NUL", m->loom,
                               memchr(v.text, '\0', v.len) ? " followed by a NUL" : "");
                m->has_loom = 0;
            } else if (m->has_loom && v.len >= sizeof m->loom) {
                m->loom[sizeof m->loom - 1] = '\0'; /* kept cut: names compare by their start */
            }
        } else if (!strcmp(key, "require")) {
            has_require = 1;
            read_require(w, &v);
        } else if (!strcmp(key, "loom_cpus")) {
            read_cpus(w, &v);
        } else if (!strcmp(key, "mark")) {
            tc_ovni_meta_read_marks(w, &v);
        } else if (!strcmp(key, "finished")) {
            has_finished = 1;
            int64_t n;
            if (tc_ovni_mw_integer(&v, &n) != 1 || n != 1) {
                if (v.kind == TC_JSON_NUMBER)
                    tc_json_report(w->j, &v, TC_RULE_OVNI_META_FINISHED,
                                   "ovni.finished is %.*s; the integer 1 marks a complete stream",
                                   (int)v.len, v.text);
                else
                    tc_json_report(w->j, &v, TC_RULE_OVNI_META_FINISHED,
                                   "ovni.finished is %s; the integer 1 marks a complete stream",
                                   tc_ovni_mw_what(&v));
                tc_ovni_mw_skip(w, &v);
            }
        } else {
            tc_ovni_mw_skip(w, &v); /* ovni.lib and keys of newer libovni versions */
        }
    }
    if (w->failed)
        return;
    m->thread = has_part && !strcmp(part, "thread");
    const char *missing[8];
    int n = 0;
    if (!part_at.set) /* present with the wrong type: reported as such, not missing */
        missing[n++] = "ovni.part";
    if (!has_finished)
        missing[n++] = "ovni.finished";
    if (!has_require)
        missing[n++] = "ovni.require";
    int common = n; /* the keys of every stream; those after are a thread's */
    if (m->thread && !m->tid_at.set)
        missing[n++] = "ovni.tid";
    if (m->thread && !m->pid_at.set)
        missing[n++] = "ovni.pid";
    if (m->thread && !m->loom_at.set)
        missing[n++] = "ovni.loom";
    for (int i = 0; i < n; i++)
        tc_json_report(w->j, open, TC_RULE_OVNI_META_MISSING, "%s is missing%s", missing[i],
                       i >= common ? " (mandatory in a thread stream)" : "");
    if (m->rank_at.set != m->nranks_at.set) {
        int rank = m->rank_at.set;
        tc_ovni_report_at(w->d, rank ? &m->rank_at : &m->nranks_at, TC_RULE_OVNI_META_RANK,
                          "ovni.%s is given without ovni.%s", rank ? "rank" : "nranks",
                          rank ? "nranks" : "rank");
    } else if (m->has_rank && m->has_nranks &&
               (m->nranks <= 0 || m->rank < 0 || m->rank >= m->nranks)) {
        tc_ovni_report_at(w->d, &m->rank_at, TC_RULE_OVNI_META_RANK,
                          "ovni.rank is %" PRId64 " with ovni.nranks %" PRId64
                          "; 0 <= rank < nranks is required", m->rank, m->nranks);
    }
}

void tc_ovni_meta_read(tc_reader *r, tc_diag_sink *d, tc_ovni_meta *m)
{
    memset(m, 0, sizeof *m);
    walker w = {tc_json_new(r, d), d, m, 0, r, 0, {0}};
    if (!w.j)
        return;
    tc_json_token t, k, v;
    if (tc_ovni_mw_next(&w, &t)) {
        if (t.kind != TC_JSON_OBJECT_BEGIN) {
            tc_json_report(w.j, &t, TC_RULE_OVNI_META_NOT_OBJECT,
                           "stream.json holds %s; the metadata is an object", tc_ovni_mw_what(&t));
            tc_ovni_mw_skip(&w, &t);
        } else {
            int has_version = 0, has_ovni = 0;
            while ((show_member_end(&w), tc_ovni_mw_next(&w, &k)) && k.kind == TC_JSON_KEY) {
                show_member(&w, &k);
                int is_version = k.len == 7 && !memcmp(k.text, "version", 7);
                int is_ovni = k.len == 4 && !memcmp(k.text, "ovni", 4);
                int is_nosv = k.len == 4 && !memcmp(k.text, "nosv", 4);
                if (!tc_ovni_mw_next(&w, &v))
                    break;
                if (TC_FIELDS_ON(d) && !(is_ovni && v.kind == TC_JSON_OBJECT_BEGIN))
                    show_value(&w, &v, "", w.shown.key);
                if (is_version) {
                    int64_t n;
                    has_version = 1;
                    if (tc_ovni_mw_integer(&v, &n) != 1 || n != 3) {
                        if (v.kind == TC_JSON_NUMBER)
                            tc_json_report(w.j, &v, TC_RULE_OVNI_META_VERSION,
                                           "version is %.*s; the integer 3 is required",
                                           (int)v.len, v.text);
                        else
                            tc_json_report(w.j, &v, TC_RULE_OVNI_META_VERSION,
                                           "version is %s; the integer 3 is required", tc_ovni_mw_what(&v));
                    }
                    tc_ovni_mw_skip(&w, &v);
                } else if (is_ovni && v.kind == TC_JSON_OBJECT_BEGIN) {
                    has_ovni = 1;
                    read_ovni(&w, &v);
                } else if (is_ovni) {
                    has_ovni = 1;
                    tc_ovni_mw_wrong_type(&w, &v, "ovni", "an object");
                } else if (is_nosv) {
                    tc_ovni_meta_read_nosv(&w, &v);
                } else {
                    tc_ovni_mw_skip(&w, &v);
                }
            }
            show_member_end(&w);
            if (!w.failed && !has_version)
                tc_json_report(w.j, &t, TC_RULE_OVNI_META_VERSION, "version is missing");
            if (!w.failed && !has_ovni)
                tc_json_report(w.j, &t, TC_RULE_OVNI_META_MISSING,
                               "the ovni object (part, finished, require...) is missing");
        }
    }
    /* The end of the document: trailing data is reported here. */
    while (!w.failed && tc_ovni_mw_next(&w, &t))
        ;
    m->readable = tc_json_next(w.j, &t) == 0;
    tc_json_free(w.j);
}
