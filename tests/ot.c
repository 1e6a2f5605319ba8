#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../parsers/common/bytes.h"
#include "ot.h"
#include "tu.h"

/* ---- findings ---- */

static char *dup_or_null(const char *s)
{
    if (!s)
        return NULL;
    char *p = strdup(s);
    if (!p)
        abort();
    return p;
}

void ot_collect(void *user, const tc_diag *d)
{
    ot_result *r = user;
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 16;
        r->d = realloc(r->d, r->cap * sizeof *r->d);
        if (!r->d)
            abort();
    }
    ot_diag *t = &r->d[r->n++];
    t->rule = d->rule;
    t->severity = d->severity;
    t->input = dup_or_null(d->input);
    t->offset = d->offset;
    t->length = d->length;
    t->line = d->line;
    t->column = d->column;
    t->path = dup_or_null(d->json_path);
    t->message = dup_or_null(d->message);
    t->unlocated = d->unlocated;
}

void ot_free(ot_result *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->d[i].input);
        free(r->d[i].path);
        free(r->d[i].message);
    }
    free(r->d);
    free(r->dump);
    memset(r, 0, sizeof *r);
}

void ot_sink(tc_diag_sink *s, const char *input, ot_result *r)
{
    tc_diag_init(s, input, 1000, 0, ot_collect, r);
}

static void print_result(const ot_result *r)
{
    if (!getenv("TU_DUMP"))
        return;
    for (size_t i = 0; r->dump && i < ot_dump_lines(r); i++)
        fprintf(stderr, "  %2zu %s\n", i, ot_dump_line(r, i));
    for (size_t i = 0; i < r->n; i++)
        fprintf(stderr, "  %s @%llu %u:%u %s %s: %s\n", r->d[i].input ? r->d[i].input : "-",
                (unsigned long long)r->d[i].offset, r->d[i].line, r->d[i].column,
                r->d[i].path ? r->d[i].path : "-", r->d[i].rule->id, r->d[i].message);
}

static void setup(const ot_opts *o, ot_result *r, tc_options *opt, tc_check_opts *c, FILE **dump)
{
    ot_free(r);
    *opt = (tc_options)TC_OPTIONS_INIT;
    opt->format = o->format;
    opt->no_models = o->no_models;
    opt->max_repeats = o->max_repeats ? o->max_repeats : 1000;
    opt->on_diag = ot_collect;
    opt->user = r;
    *dump = NULL;
    if (o->dump && !(*dump = open_memstream(&r->dump, &r->dump_len)))
        abort();
    *c = (tc_check_opts){.options = opt, .input = o->input, .dump = *dump};
}

int ot_check_path(const char *path, const ot_opts *o, ot_result *r)
{
    static const ot_opts none;
    tc_options opt;
    tc_check_opts c;
    FILE *dump;
    setup(o ? o : &none, r, &opt, &c, &dump);
    r->status = tu_check_path_text(path, &c, &r->sum, r->err, sizeof r->err);
    if (dump)
        fclose(dump);
    print_result(r);
    return r->status;
}

int ot_check_memory(const void *p, size_t n, const ot_opts *o, ot_result *r)
{
    static const ot_opts none;
    if (!o)
        o = &none;
    tc_options opt;
    tc_check_opts c;
    FILE *dump;
    setup(o, r, &opt, &c, &dump);
    tc_input *in = tc_input_open_memory(p, n, &o->input);
    if (!in)
        abort();
    r->status = tu_check_input_text(in, "mem", &c, &r->sum, r->err, sizeof r->err);
    tc_input_close(in);
    if (dump)
        fclose(dump);
    print_result(r);
    return r->status;
}

size_t ot_count(const ot_result *r, const char *rule)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n; i++)
        n += strcmp(r->d[i].rule->id, rule) == 0;
    return n;
}

const ot_diag *ot_find(const ot_result *r, const char *rule, const char *needle)
{
    for (size_t i = 0; i < r->n; i++)
        if (!strcmp(r->d[i].rule->id, rule) && (!needle || strstr(r->d[i].message, needle)))
            return &r->d[i];
    return NULL;
}

const char *ot_describe(const ot_result *r)
{
    static char buf[8192];
    size_t h = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < r->n && h < sizeof buf - 1; i++) {
        int k = snprintf(buf + h, sizeof buf - h, "\n      %s@%llu %s%s%s: %s", r->d[i].rule->id,
                         (unsigned long long)r->d[i].offset, r->d[i].input ? r->d[i].input : "",
                         r->d[i].path ? " " : "", r->d[i].path ? r->d[i].path : "",
                         r->d[i].message);
        if (k < 0)
            break;
        h += (size_t)k;
    }
    if (r->n == 0)
        snprintf(buf, sizeof buf, "(none)");
    return buf;
}

size_t ot_dump_lines(const ot_result *r) { return tu_text_lines(r->dump, r->dump_len); }

const char *ot_dump_line(const ot_result *r, size_t n)
{
    static char buf[16384];
    return tu_text_line(r->dump, r->dump_len, n, buf, sizeof buf);
}

static void rule_list(const ot_result *r, int sorted, char *out, size_t size)
{
    const char **ids = malloc((r->n ? r->n : 1) * sizeof *ids);
    if (!ids)
        abort();
    for (size_t i = 0; i < r->n; i++)
        ids[i] = r->d[i].rule->id;
    if (sorted) /* insertion sort: few findings */
        for (size_t i = 1; i < r->n; i++)
            for (size_t k = i; k > 0 && strcmp(ids[k - 1], ids[k]) > 0; k--) {
                const char *t = ids[k];
                ids[k] = ids[k - 1];
                ids[k - 1] = t;
            }
    size_t h = 0;
    out[0] = '\0';
    for (size_t i = 0; i < r->n && h < size; i++)
        h += (size_t)snprintf(out + h, size - h, "%s%s", i ? " " : "", ids[i]);
    free(ids);
}

static void sort_words(const char *in, char *out, size_t size)
{
    char copy[4096];
    const char *w[256];
    size_t n = 0;
    snprintf(copy, sizeof copy, "%s", in);
    for (char *s = strtok(copy, " "); s && n < 256; s = strtok(NULL, " "))
        w[n++] = s;
    for (size_t i = 1; i < n; i++)
        for (size_t k = i; k > 0 && strcmp(w[k - 1], w[k]) > 0; k--) {
            const char *t = w[k];
            w[k] = w[k - 1];
            w[k - 1] = t;
        }
    size_t h = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && h < size; i++)
        h += (size_t)snprintf(out + h, size - h, "%s%s", i ? " " : "", w[i]);
}

void ot_assert_rules(const ot_result *r, const char *expected, const char *file, unsigned line)
{
    char got[4096];
    rule_list(r, 0, got, sizeof got);
    tu_assert(strcmp(got, expected) == 0, file, line, "rules: expected [%s], got [%s]%s",
              expected, got, strcmp(got, expected) ? ot_describe(r) : "");
}

void ot_assert_ruleset(const ot_result *r, const char *expected, const char *file, unsigned line)
{
    char got[4096], want[4096];
    rule_list(r, 1, got, sizeof got);
    sort_words(expected, want, sizeof want);
    tu_assert(strcmp(got, want) == 0, file, line, "rules (any order): expected [%s], got [%s]%s",
              want, got, strcmp(got, want) ? ot_describe(r) : "");
}

const ot_diag *ot_assert_msg(const ot_result *r, const char *rule, const char *needle,
                             const char *file, unsigned line)
{
    const ot_diag *d = ot_find(r, rule, needle);
    tu_assert(d != NULL, file, line, "no %s finding whose message contains \"%s\"; findings:%s",
              rule, needle ? needle : "", ot_describe(r));
    return d;
}

void ot_assert_at(const ot_result *r, const char *rule, uint64_t offset, const char *file,
                  unsigned line)
{
    for (size_t i = 0; i < r->n; i++)
        if (!strcmp(r->d[i].rule->id, rule) && r->d[i].offset == offset) {
            tu_assert(1, file, line, "offset");
            return;
        }
    tu_assert(0, file, line, "no %s finding at offset %llu; findings:%s", rule,
              (unsigned long long)offset, ot_describe(r));
}

void ot_assert_dump_line(const ot_result *r, size_t n, const char *text, const char *file,
                         unsigned line)
{
    const char *got = ot_dump_line(r, n);
    tu_assert(strcmp(got, text) == 0, file, line,
              "dump line %zu:\n      expected %s\n      got      %s", n, text, got);
}

static int same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

void ot_assert_same(const ot_result *ref, const ot_result *r, int dumps, const char *what)
{
    CHECK(r->status == ref->status, "%s: status %d, reference %d", what, r->status, ref->status);
    CHECK(r->sum.errors == ref->sum.errors && r->sum.warnings == ref->sum.warnings &&
              r->sum.bytes == ref->sum.bytes,
          "%s: summary %llu errors %llu warnings %llu bytes, reference %llu %llu %llu", what,
          (unsigned long long)r->sum.errors, (unsigned long long)r->sum.warnings,
          (unsigned long long)r->sum.bytes, (unsigned long long)ref->sum.errors,
          (unsigned long long)ref->sum.warnings, (unsigned long long)ref->sum.bytes);
    CHECK(r->n == ref->n, "%s: %zu findings, reference %zu:%s", what, r->n, ref->n,
          ot_describe(r));
    for (size_t i = 0; i < r->n && i < ref->n; i++) {
        const ot_diag *a = &ref->d[i], *b = &r->d[i];
        int same = a->rule == b->rule && a->offset == b->offset && a->length == b->length &&
                   a->line == b->line && a->column == b->column && same_str(a->path, b->path) &&
                   same_str(a->message, b->message) && same_str(a->input, b->input) &&
                   a->unlocated == b->unlocated;
        CHECK(same, "%s: finding %zu is %s@%llu %u:%u %s \"%s\", reference %s@%llu %u:%u %s \"%s\"",
              what, i, b->rule->id, (unsigned long long)b->offset, b->line, b->column,
              b->path ? b->path : "-", b->message, a->rule->id, (unsigned long long)a->offset,
              a->line, a->column, a->path ? a->path : "-", a->message);
        if (!same)
            break;
    }
    if (dumps)
        CHECK(r->dump_len == ref->dump_len &&
                  (!r->dump_len || !memcmp(r->dump, ref->dump, r->dump_len)),
              "%s: dumps differ (%zu and %zu bytes)", what, r->dump_len, ref->dump_len);
}

/* ---- the JSON tokenizer ---- */

void jt_free(jt_run *j)
{
    for (size_t i = 0; i < j->n; i++) {
        free(j->t[i].text);
        free(j->t[i].path);
    }
    free(j->t);
    ot_free(&j->diags);
    memset(j, 0, sizeof *j);
}

void jt_run_reader(tc_reader *r, jt_run *out)
{
    jt_free(out);
    tc_diag_sink sink;
    ot_sink(&sink, "json", &out->diags);
    tc_json *j = tc_json_new(r, &sink);
    if (!j)
        abort();
    tc_json_token t;
    int rc;
    /* A bound, so that a tokenizer that loops fails the test instead. */
    while ((rc = tc_json_next(j, &t)) > 0 && out->n < 4000000) {
        if (out->n == out->cap) {
            out->cap = out->cap ? out->cap * 2 : 64;
            out->t = realloc(out->t, out->cap * sizeof *out->t);
            if (!out->t)
                abort();
        }
        jt_tok *k = &out->t[out->n++];
        memset(k, 0, sizeof *k);
        k->kind = t.kind;
        k->offset = t.offset;
        k->line = t.line;
        k->column = t.column;
        if (t.kind == TC_JSON_KEY || t.kind == TC_JSON_STRING || t.kind == TC_JSON_NUMBER) {
            k->text = malloc(t.len + 1);
            if (!k->text)
                abort();
            memcpy(k->text, t.text, t.len);
            k->text[t.len] = '\0';
            k->len = t.len;
            /* The token's own text is NUL-terminated too. */
            CHECK(t.text[t.len] == '\0', "token text at %llu is not NUL-terminated",
                  (unsigned long long)t.offset);
        }
        k->integer = t.integer;
        k->negative = t.negative;
        k->fits = t.fits;
        k->i64 = t.i64;
        k->u64 = t.u64;
        k->path = dup_or_null(tc_json_path(j));
        k->depth = tc_json_depth(j);
    }
    out->end = rc;
    /* After the end, every call says the same. */
    CHECK(tc_json_next(j, &t) == rc && tc_json_next(j, &t) == rc, "tc_json_next changed its mind");
    tc_json_free(j);
}

void jt_run_mem(const void *p, size_t n, jt_run *out)
{
    tc_reader r;
    tc_reader_init_memory(&r, p, n);
    jt_run_reader(&r, out);
}

void jt_run_str(const char *s, jt_run *out) { jt_run_mem(s, strlen(s), out); }

static const char *kind_name(tc_json_kind k)
{
    switch (k) {
    case TC_JSON_OBJECT_BEGIN: return "{";
    case TC_JSON_OBJECT_END: return "}";
    case TC_JSON_ARRAY_BEGIN: return "[";
    case TC_JSON_ARRAY_END: return "]";
    case TC_JSON_KEY: return "K:";
    case TC_JSON_STRING: return "S:";
    case TC_JSON_NUMBER: return "N:";
    case TC_JSON_TRUE: return "true";
    case TC_JSON_FALSE: return "false";
    case TC_JSON_NULL: return "null";
    }
    return "?";
}

const char *jt_describe(const jt_run *j)
{
    static char buf[4096];
    size_t h = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < j->n && h < sizeof buf - 1; i++) {
        int k = snprintf(buf + h, sizeof buf - h, "%s%s%.*s", i ? " " : "",
                         kind_name(j->t[i].kind), j->t[i].text ? 20 : 0,
                         j->t[i].text ? j->t[i].text : "");
        if (k < 0)
            break;
        h += (size_t)k;
    }
    return buf;
}

const char *jt_rules(const jt_run *j)
{
    static char buf[1024];
    rule_list(&j->diags, 0, buf, sizeof buf);
    return buf;
}

/* ---- ovni binary streams ---- */

void ob_init_raw(ob *o, int be)
{
    memset(o, 0, sizeof *o);
    o->be = be;
}

void ob_init(ob *o, int be)
{
    ob_init_raw(o, be);
    ob_raw(o, "ovni", 4);
    ob_u32(o, 1);
}

void ob_free(ob *o) { tu_bytes_free(&o->b); }

void ob_raw(ob *o, const void *p, size_t n) { tu_bytes_append(&o->b, p, n); }

void ob_put32(const ob *o, uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[o->be ? 3 - i : i] = (uint8_t)(v >> (8 * i));
}

void ob_put64(const ob *o, uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[o->be ? 7 - i : i] = (uint8_t)(v >> (8 * i));
}

void ob_u32(ob *o, uint32_t v)
{
    uint8_t b[4];
    ob_put32(o, b, v);
    ob_raw(o, b, 4);
}

void ob_u64(ob *o, uint64_t v)
{
    uint8_t b[8];
    ob_put64(o, b, v);
    ob_raw(o, b, 8);
}

void ob_event_raw(ob *o, uint8_t byte0, const char *mcv, uint64_t clock, const void *payload,
                  size_t n)
{
    ob_raw(o, &byte0, 1);
    ob_raw(o, mcv, 3);
    ob_u64(o, clock);
    if (n)
        ob_raw(o, payload, n);
}

void ob_event(ob *o, const char *mcv, uint64_t clock, const void *payload, size_t n)
{
    if (n == 1 || n > 16)
        abort(); /* a test's mistake: no size code says so */
    static const uint8_t zeros[16];
    ob_event_raw(o, (uint8_t)(n ? n - 1 : 0), mcv, clock, payload ? payload : zeros, n);
}

void ob_jumbo_raw(ob *o, uint8_t byte0, const char *mcv, uint64_t clock, uint32_t declared,
                  const void *data, size_t n)
{
    uint8_t size[4];
    ob_put32(o, size, declared);
    ob_event_raw(o, byte0, mcv, clock, size, 4);
    if (n)
        ob_raw(o, data, n);
}

void ob_jumbo(ob *o, const char *mcv, uint64_t clock, const void *data, uint32_t n)
{
    ob_jumbo_raw(o, 0x13, mcv, clock, n, data, n);
}

/* ---- metadata and trace directories ---- */

char *om_thread(int64_t tid, int64_t pid, const char *loom, const char *extra, const char *top)
{
    char *s = NULL;
    if (asprintf(&s,
                 "{\"version\": 3, \"ovni\": {\"part\": \"thread\", \"tid\": %lld, \"pid\": %lld, "
                 "\"loom\": \"%s\", \"require\": {\"ovni\": \"1.0.0\"}, \"finished\": 1%s%s}%s%s}\n",
                 (long long)tid, (long long)pid, loom, extra && *extra ? ", " : "",
                 extra ? extra : "", top && *top ? ", " : "", top ? top : "") < 0)
        abort();
    return s;
}

char *td_path(const char *root, const char *rel)
{
    char *p = NULL;
    if (asprintf(&p, "%s/%s", root, rel) < 0)
        abort();
    return p;
}

char *td_new(const char *tag)
{
    static unsigned serial;
    char *p = NULL;
    if (asprintf(&p, "%s/%s-%u", tu_tmpdir(), tag, ++serial) < 0)
        abort();
    if (mkdir(p, 0777) != 0) {
        perror(p);
        abort();
    }
    return p;
}

void td_mkdir(const char *root, const char *rel)
{
    char *p = td_path(root, rel);
    for (char *s = p + strlen(root) + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(p, 0777) != 0 && errno != EEXIST) {
                perror(p);
                abort();
            }
            *s = '/';
        }
    if (mkdir(p, 0777) != 0 && errno != EEXIST) {
        perror(p);
        abort();
    }
    free(p);
}

void td_write(const char *root, const char *rel, const void *p, size_t n)
{
    const char *slash = strrchr(rel, '/');
    if (slash) {
        char *dir = strndup(rel, (size_t)(slash - rel));
        if (!dir)
            abort();
        td_mkdir(root, dir);
        free(dir);
    }
    char *path = td_path(root, rel);
    FILE *f = fopen(path, "wb");
    if (!f || (n && fwrite(p, 1, n, f) != n) || fclose(f) != 0) {
        perror(path);
        abort();
    }
    free(path);
}

void td_stream(const char *root, const char *dir, const char *json, const ob *obs)
{
    char rel[1024];
    const char *sep = dir && *dir && strcmp(dir, ".") ? "/" : "";
    const char *d = dir && strcmp(dir, ".") ? dir : "";
    if (json) {
        snprintf(rel, sizeof rel, "%s%sstream.json", d, sep);
        td_write(root, rel, json, strlen(json));
    }
    if (obs) {
        snprintf(rel, sizeof rel, "%s%sstream.obs", d, sep);
        td_write(root, rel, obs->b.p, obs->b.len);
    }
}
