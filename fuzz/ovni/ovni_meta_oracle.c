/* Ruling 6 judged again: see ovni_meta_oracle.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/common/json.h"
#include "ovni_meta_oracle.h"

/* ---- the document as a tree of tokens ---- */

typedef struct node {
    tc_json_kind kind;
    uint64_t offset;
    char *text; /* strings and numbers; keys of members in key */
    size_t len;
    char *key;
    size_t key_len;
    int integer, negative, fits;
    int64_t i64;
    uint64_t u64;
    long first, next; /* children of containers; -1 = none */
    char *path;       /* tc_json_path() after the token: the value's path */
} node;

typedef struct tree {
    node *v;
    size_t n, cap;
    hx_findings d;
    int rc;
} tree;

static char *dup_bytes(const char *p, size_t n)
{
    char *d = malloc(n + 1);
    FUZZ_CHECK_ALLOC(d);
    if (n)
        memcpy(d, p, n);
    d[n] = '\0';
    return d;
}

static long add_node(tree *t)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        t->v = realloc(t->v, t->cap * sizeof *t->v);
        FUZZ_CHECK_ALLOC(t->v);
    }
    memset(&t->v[t->n], 0, sizeof t->v[t->n]);
    t->v[t->n].first = t->v[t->n].next = -1;
    return (long)t->n++;
}

/* Every token of the document, as a tree (node 0 the top-level value). */
static void build(tree *t, const uint8_t *data, size_t size)
{
    memset(t, 0, sizeof *t);
    tc_reader r;
    tc_reader_init_memory(&r, data, size);
    tc_diag_sink sink;
    hx_sink_init(&sink, &t->d, 1, 0);
    tc_json *j = tc_json_new(&r, &sink);
    FUZZ_CHECK_ALLOC(j);
    long stack[TC_JSON_MAX_DEPTH + 2], last[TC_JSON_MAX_DEPTH + 2];
    size_t top = 0;
    char *key = NULL;
    size_t key_len = 0;
    tc_json_token tok;
    int rc;
    while ((rc = tc_json_next(j, &tok)) > 0) {
        if (tok.kind == TC_JSON_KEY) {
            free(key);
            key = dup_bytes(tok.text, tok.len);
            key_len = tok.len;
            continue;
        }
        if (tok.kind == TC_JSON_OBJECT_END || tok.kind == TC_JSON_ARRAY_END) {
            top--;
            continue;
        }
        long i = add_node(t);
        node *x = &t->v[i];
        x->kind = tok.kind;
        x->offset = tok.offset;
        x->key = key;
        x->key_len = key_len;
        key = NULL;
        const char *path = tc_json_path(j);
        x->path = dup_bytes(path, strlen(path));
        if (tok.kind == TC_JSON_STRING || tok.kind == TC_JSON_NUMBER) {
            x->text = dup_bytes(tok.text, tok.len);
            x->len = tok.len;
        }
        if (tok.kind == TC_JSON_NUMBER) {
            x->integer = tok.integer;
            x->negative = tok.negative;
            x->fits = tok.fits;
            x->i64 = tok.integer && tok.fits && tok.negative ? tok.i64 : 0;
            x->u64 = tok.integer && tok.fits && !tok.negative ? tok.u64 : 0;
        }
        if (top > 0) {
            long parent = stack[top - 1];
            if (last[top - 1] < 0)
                t->v[parent].first = i;
            else
                t->v[last[top - 1]].next = i;
            last[top - 1] = i;
        }
        if (tok.kind == TC_JSON_OBJECT_BEGIN || tok.kind == TC_JSON_ARRAY_BEGIN) {
            stack[top] = i;
            last[top] = -1;
            top++;
        }
    }
    free(key);
    t->rc = rc;
    tc_json_free(j);
    hx_sink_finish(&sink, &t->d);
}

static void tree_free(tree *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->v[i].text);
        free(t->v[i].key);
        free(t->v[i].path);
    }
    free(t->v);
    hx_findings_free(&t->d);
}

/* ---- ruling 6, judged again ---- */

typedef struct finding {
    tc_rule_id rule;
    uint64_t offset;
} finding;

typedef struct judge {
    const tree *t;
    finding *f;
    size_t nf, cap;
    tc_ovni_meta m; /* what the summary must say (locations: set and offset only) */
} judge;

static void expect(judge *g, tc_rule_id rule, uint64_t offset)
{
    if (g->nf == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 16;
        g->f = realloc(g->f, g->cap * sizeof *g->f);
        FUZZ_CHECK_ALLOC(g->f);
    }
    g->f[g->nf++] = (finding){rule, offset};
}

static int key_is(const node *x, const char *k)
{
    return x->key_len == strlen(k) && memcmp(x->key, k, x->key_len) == 0;
}

/* A JSON integer literal within int64: 1; an integer beyond: 2; else 0. */
static int int_value(const node *x, int64_t *v)
{
    if (x->kind != TC_JSON_NUMBER || !x->integer)
        return 0;
    if (!x->fits || (!x->negative && x->u64 > INT64_MAX))
        return 2;
    *v = x->negative ? x->i64 : (int64_t)x->u64;
    return 1;
}

static void at(tc_ovni_loc *loc, const node *x)
{
    loc->set = 1;
    loc->offset = x->offset;
}

/* "MAJOR.MINOR.PATCH" (rulings 6 and 9): three runs of decimal digits
 * separated by dots, each worth at most 2147483647 (libovni's int), in
 * fewer than 64 characters (libovni's buffer). The numbers go to v. */
static int semver(const node *x, unsigned long long v[3])
{
    if (x->kind != TC_JSON_STRING || x->len >= 64)
        return 0;
    int parts = 0;
    size_t i = 0, n = x->len;
    const char *s = x->text;
    for (;;) {
        size_t d = i;
        unsigned long long value = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            value = value * 10 + (unsigned)(s[i] - '0'); /* 63 digits: it can wrap */
            if (value > 2147483647ull)
                return 0;
            i++;
        }
        if (i == d || parts == 3)
            return 0;
        v[parts++] = value;
        if (i == n)
            return parts == 3;
        if (s[i] != '.')
            return 0;
        i++;
    }
}

/* The models and their versions: spec/ovni/models.def, read by this
 * file's own expansion. */
static const struct {
    const char *name;
    char letter;
    const char *version;
} models[] = {
#define TC_OVNI_MODEL(ID, LETTER, NAME, VERSION, NEEDS, WHO) {NAME, LETTER, VERSION},
#include "../../spec/ovni/models.def"
};

/* Rulings 9 and 15: compatible is the same major and a minor no higher. */
static int compatible(const char *have, const unsigned long long want[3])
{
    unsigned long long major = strtoull(have, NULL, 10);
    unsigned long long minor = strtoull(strchr(have, '.') + 1, NULL, 10);
    return want[0] == major && want[1] <= minor;
}

static void judge_cpus(judge *g, const node *arr)
{
    const tree *t = g->t;
    size_t seen = 0;
    int ok = 1;
    /* A second ovni.loom_cpus (a repeated key) replaces the first. */
    free(g->m.cpus);
    g->m.cpus = NULL;
    g->m.ncpus = 0;
    size_t cap = 0;
    for (long c = arr->first; c >= 0; c = t->v[c].next) {
        const node *cpu = &t->v[c];
        seen++;
        if (cpu->kind != TC_JSON_OBJECT_BEGIN) {
            expect(g, TC_RULE_OVNI_META_LOOM_CPUS, cpu->offset);
            ok = 0;
            continue;
        }
        int has_index = 0, has_phyid = 0, good = 1;
        int64_t index = 0, phyid = 0;
        for (long k = cpu->first; k >= 0; k = t->v[k].next) {
            const node *v = &t->v[k];
            int is_index = key_is(v, "index"), is_phyid = key_is(v, "phyid");
            if (!is_index && !is_phyid)
                continue;
            int64_t n;
            if (int_value(v, &n) != 1 || n < 0) {
                expect(g, TC_RULE_OVNI_META_LOOM_CPUS, v->offset);
                good = 0;
                continue;
            }
            if (is_index) {
                index = n;
                has_index = 1;
            } else {
                phyid = n;
                has_phyid = 1;
            }
        }
        if (good && (!has_index || !has_phyid)) {
            expect(g, TC_RULE_OVNI_META_LOOM_CPUS, cpu->offset);
            good = 0;
        }
        if (!good) {
            ok = 0;
            continue;
        }
        if (g->m.ncpus == cap) {
            cap = cap ? 2 * cap : 16;
            g->m.cpus = realloc(g->m.cpus, cap * sizeof *g->m.cpus);
            FUZZ_CHECK_ALLOC(g->m.cpus);
        }
        g->m.cpus[g->m.ncpus++] = (tc_ovni_cpu){index, phyid};
    }
    if (seen == 0)
        expect(g, TC_RULE_OVNI_META_LOOM_CPUS, arr->offset);
    g->m.has_cpus = ok && seen > 0;
}

static void judge_ovni(judge *g, const node *obj)
{
    const tree *t = g->t;
    tc_ovni_meta *m = &g->m;
    int has_part = 0, has_finished = 0, has_require = 0, thread = 0;
    for (long c = obj->first; c >= 0; c = t->v[c].next) {
        const node *v = &t->v[c];
        int64_t n;
        if (key_is(v, "part")) {
            has_part = 1; /* present, even when of the wrong type */
            if (v->kind != TC_JSON_STRING)
                expect(g, TC_RULE_OVNI_META_TYPE, v->offset);
            /* Compared whole: "thread\u0000x" is not "thread". A repeated
             * part of another type leaves the one before, as a value of the
             * wrong type does for every key (no ruling says otherwise). */
            if (v->kind == TC_JSON_STRING)
                thread = v->len == 6 && !memcmp(v->text, "thread", 6);
        } else if (key_is(v, "tid") || key_is(v, "pid") || key_is(v, "app_id")) {
            int tid = key_is(v, "tid"), pid = key_is(v, "pid");
            int *has = tid ? &m->has_tid : pid ? &m->has_pid : &m->has_app_id;
            int64_t *out = tid ? &m->tid : pid ? &m->pid : &m->app_id;
            at(tid ? &m->tid_at : pid ? &m->pid_at : &m->app_id_at, v);
            int kind = int_value(v, &n);
            if (!kind)
                expect(g, TC_RULE_OVNI_META_TYPE, v->offset);
            else if (kind == 2 || n <= 0 || n > INT32_MAX)
                expect(g, TC_RULE_OVNI_META_ID, v->offset);
            else {
                *out = n;
                *has = 1;
            }
        } else if (key_is(v, "rank") || key_is(v, "nranks")) {
            int rank = key_is(v, "rank");
            at(rank ? &m->rank_at : &m->nranks_at, v);
            int kind = int_value(v, &n);
            if (kind == 2)
                expect(g, TC_RULE_OVNI_META_RANK, v->offset);
            else if (!kind)
                expect(g, TC_RULE_OVNI_META_TYPE, v->offset);
            else {
                *(rank ? &m->rank : &m->nranks) = n;
                *(rank ? &m->has_rank : &m->has_nranks) = 1;
            }
        } else if (key_is(v, "loom")) {
            at(&m->loom_at, v);
            if (v->kind != TC_JSON_STRING) {
                expect(g, TC_RULE_OVNI_META_TYPE, v->offset);
            } else if (v->len == 0 || memchr(v->text, '/', v->len) ||
                       memchr(v->text, '\0', v->len)) {
                /* A directory name: not empty, no '/', no NUL. */
                expect(g, TC_RULE_OVNI_META_LOOM, v->offset);
                m->has_loom = 0;
            } else {
                m->has_loom = 1;
                snprintf(m->loom, sizeof m->loom, "%.*s", (int)v->len, v->text);
            }
        } else if (key_is(v, "require")) {
            has_require = 1;
            if (v->kind != TC_JSON_OBJECT_BEGIN) {
                expect(g, TC_RULE_OVNI_META_TYPE, v->offset);
                continue;
            }
            m->models.known = 1;
            for (long k = v->first; k >= 0; k = t->v[k].next) {
                const node *r = &t->v[k];
                unsigned long long want[3];
                int version = semver(r, want);
                if (!version)
                    expect(g, TC_RULE_OVNI_META_REQUIRE, r->offset);
                char letter = 0;
                const char *have = NULL;
                for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
                    if (key_is(r, models[i].name)) {
                        letter = models[i].letter;
                        have = models[i].version;
                    }
                if (version && letter && !compatible(have, want)) {
                    expect(g, TC_RULE_OVNI_REQUIRE_VERSION, r->offset);
                    m->models.incompatible[(unsigned char)letter] = 1;
                }
                if (letter)
                    m->models.letters[(unsigned char)letter] = 1;
                else
                    m->models.unknown_required = 1;
            }
        } else if (key_is(v, "loom_cpus")) {
            at(&m->cpus_at, v); /* given, even when of the wrong type */
            if (v->kind != TC_JSON_ARRAY_BEGIN)
                expect(g, TC_RULE_OVNI_META_TYPE, v->offset);
            else
                judge_cpus(g, v);
        } else if (key_is(v, "finished")) {
            has_finished = 1;
            if (int_value(v, &n) != 1 || n != 1)
                expect(g, TC_RULE_OVNI_META_FINISHED, v->offset);
        }
    }
    m->thread = thread;
    if (!has_part)
        expect(g, TC_RULE_OVNI_META_MISSING, obj->offset);
    if (!has_finished)
        expect(g, TC_RULE_OVNI_META_MISSING, obj->offset);
    if (!has_require)
        expect(g, TC_RULE_OVNI_META_MISSING, obj->offset);
    if (thread && !m->tid_at.set)
        expect(g, TC_RULE_OVNI_META_MISSING, obj->offset);
    if (thread && !m->pid_at.set)
        expect(g, TC_RULE_OVNI_META_MISSING, obj->offset);
    if (thread && !m->loom_at.set)
        expect(g, TC_RULE_OVNI_META_MISSING, obj->offset);
    if (m->rank_at.set != m->nranks_at.set)
        expect(g, TC_RULE_OVNI_META_RANK, (m->rank_at.set ? m->rank_at : m->nranks_at).offset);
    else if (m->has_rank && m->has_nranks &&
             (m->nranks <= 0 || m->rank < 0 || m->rank >= m->nranks))
        expect(g, TC_RULE_OVNI_META_RANK, m->rank_at.offset);
}

static void judge_document(judge *g, const tree *t)
{
    memset(g, 0, sizeof *g);
    g->t = t;
    g->m.readable = 1;
    const node *root = &t->v[0];
    if (root->kind != TC_JSON_OBJECT_BEGIN) {
        expect(g, TC_RULE_OVNI_META_NOT_OBJECT, root->offset);
        return;
    }
    int has_version = 0, has_ovni = 0;
    for (long c = root->first; c >= 0; c = t->v[c].next) {
        const node *v = &t->v[c];
        int64_t n;
        if (key_is(v, "version")) {
            has_version = 1;
            if (int_value(v, &n) != 1 || n != 3)
                expect(g, TC_RULE_OVNI_META_VERSION, v->offset);
        } else if (key_is(v, "ovni")) {
            has_ovni = 1;
            if (v->kind == TC_JSON_OBJECT_BEGIN)
                judge_ovni(g, v);
            else
                expect(g, TC_RULE_OVNI_META_TYPE, v->offset);
        }
    }
    if (!has_version)
        expect(g, TC_RULE_OVNI_META_VERSION, root->offset);
    if (!has_ovni)
        expect(g, TC_RULE_OVNI_META_MISSING, root->offset);
}

static int by_finding(const void *a, const void *b)
{
    const finding *x = a, *y = b;
    if (x->offset != y->offset)
        return x->offset < y->offset ? -1 : 1;
    return (int)x->rule - (int)y->rule;
}

/* An OVNI finding's JSON path is the path of the value at its offset. */
static void check_paths(const ov_meta_run *run, const tree *t)
{
    for (size_t i = 0; i < run->f.n; i++) {
        const hx_finding *d = &run->f.v[i];
        if (strcmp(tc_rules[d->rule].family, "OVNI") != 0)
            continue;
        size_t lo = 0, hi = t->n;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (t->v[mid].offset < d->offset)
                lo = mid + 1;
            else
                hi = mid;
        }
        FUZZ_ASSERT_MSG(lo < t->n && t->v[lo].offset == d->offset,
                        "%s at %" PRIu64 " is not at a value", tc_rules[d->rule].id, d->offset);
        FUZZ_ASSERT_MSG(strcmp(d->path, t->v[lo].path) == 0,
                        "%s at %" PRIu64 " names %s, the value there is %s", tc_rules[d->rule].id,
                        d->offset, d->path, t->v[lo].path);
    }
}

/* The run's OVNI findings are the judge's, as multisets of (rule, offset). */
static void compare_judged(const ov_meta_run *run, judge *g)
{
    finding *got = malloc((run->f.n + 1) * sizeof *got);
    FUZZ_CHECK_ALLOC(got);
    size_t n = 0;
    for (size_t i = 0; i < run->f.n; i++)
        if (strcmp(tc_rules[run->f.v[i].rule].family, "OVNI") == 0)
            got[n++] = (finding){run->f.v[i].rule, run->f.v[i].offset};
    if (n)
        qsort(got, n, sizeof *got, by_finding);
    if (g->nf)
        qsort(g->f, g->nf, sizeof *g->f, by_finding);
    size_t k = n < g->nf ? n : g->nf;
    for (size_t i = 0; i <= k; i++) {
        if (i < k && got[i].rule == g->f[i].rule && got[i].offset == g->f[i].offset)
            continue;
        if (i == k && n == g->nf)
            break;
        for (size_t d = 0; d < run->f.n; d++)
            hx_print_finding(stderr, "reader", &run->f.v[d]);
        for (size_t e = 0; e < g->nf; e++)
            fprintf(stderr, "  ruling 6: %s at %" PRIu64 "\n", tc_rules[g->f[e].rule].id,
                    g->f[e].offset);
        FUZZ_FAIL("the metadata reader's findings are not ruling 6's (first difference: %s at %"
                  PRIu64 ")", i < n ? tc_rules[got[i].rule].id : "none",
                  i < n ? got[i].offset : 0);
    }
    free(got);
    const tc_ovni_meta *a = &run->meta, *b = &g->m;
#define SAME(f) FUZZ_ASSERT_MSG(a->f == b->f, "the summary's " #f " is not ruling 6's")
    SAME(readable);
    SAME(thread);
    SAME(has_tid);
    SAME(has_pid);
    SAME(has_app_id);
    SAME(has_rank);
    SAME(has_nranks);
    SAME(has_loom);
    SAME(has_cpus);
    SAME(models.known);
    SAME(models.unknown_required);
    SAME(tid_at.set);
    SAME(pid_at.set);
    SAME(loom_at.set);
    SAME(app_id_at.set);
    SAME(rank_at.set);
    SAME(nranks_at.set);
    SAME(cpus_at.set);
#undef SAME
    FUZZ_ASSERT_MSG(!a->has_tid || a->tid == b->tid, "tid %" PRId64 " vs %" PRId64, a->tid, b->tid);
    FUZZ_ASSERT_MSG(!a->has_pid || a->pid == b->pid, "pid %" PRId64 " vs %" PRId64, a->pid, b->pid);
    FUZZ_ASSERT(!a->has_app_id || a->app_id == b->app_id);
    FUZZ_ASSERT(!a->has_rank || a->rank == b->rank);
    FUZZ_ASSERT(!a->has_nranks || a->nranks == b->nranks);
    FUZZ_ASSERT_MSG(!a->has_loom || strcmp(a->loom, b->loom) == 0, "loom \"%s\" vs \"%s\"",
                    a->loom, b->loom);
    FUZZ_ASSERT(!a->tid_at.set || a->tid_at.offset == b->tid_at.offset);
    FUZZ_ASSERT(!a->pid_at.set || a->pid_at.offset == b->pid_at.offset);
    FUZZ_ASSERT(!a->loom_at.set || a->loom_at.offset == b->loom_at.offset);
    FUZZ_ASSERT(!a->cpus_at.set || a->cpus_at.offset == b->cpus_at.offset);
    FUZZ_ASSERT_MSG(!a->has_cpus || a->ncpus == b->ncpus, "%zu CPUs vs %zu", a->ncpus, b->ncpus);
    for (size_t i = 0; a->has_cpus && i < a->ncpus; i++)
        FUZZ_ASSERT(a->cpus[i].index == b->cpus[i].index && a->cpus[i].phyid == b->cpus[i].phyid);
    FUZZ_ASSERT_MSG(memcmp(a->models.letters, b->models.letters, sizeof a->models.letters) == 0,
                    "the required models' letters differ (%s)", a->models.names);
    FUZZ_ASSERT_MSG(memcmp(a->models.incompatible, b->models.incompatible,
                           sizeof a->models.incompatible) == 0,
                    "the models required at an unknown version differ (%s)", a->models.names);
}

/* ---- invariants of one run ---- */

static void check_run(const ov_meta_run *run, const uint8_t *p, size_t n)
{
    hx_lines findings_at = {0};
    hx_check_well_formed(&run->f, "OVNI TC");
    size_t json_errors = 0;
    for (size_t i = 0; i < run->f.n; i++) {
        const hx_finding *d = &run->f.v[i];
        uint32_t line, column;
        hx_line_column_next(&findings_at, p, n, d->offset, &line, &column);
        FUZZ_ASSERT_MSG(!d->unlocated && d->path && d->offset <= n && d->line == line &&
                            d->column == column,
                        "%s at %" PRIu64 " is at %" PRIu32 ":%" PRIu32 " (%s), not %" PRIu32
                        ":%" PRIu32, tc_rules[d->rule].id, d->offset, d->line, d->column,
                        d->path ? d->path : "no path", line, column);
        FUZZ_ASSERT_MSG(d->offset < n || (d->offset == n && strcmp(tc_rules[d->rule].family,
                                                                   "TC") == 0),
                        "%s at the end of the input", tc_rules[d->rule].id);
        if (d->rule != TC_RULE_JSON_DUPLICATE_KEY && d->rule != TC_RULE_JSON_BOM &&
            strcmp(tc_rules[d->rule].family, "TC") == 0) {
            json_errors++;
            FUZZ_ASSERT_MSG(i == run->f.n - 1, "%s at %" PRIu64 " is not the last finding",
                            tc_rules[d->rule].id, d->offset);
        }
    }
    FUZZ_ASSERT_MSG(json_errors <= 1, "%zu JSON errors", json_errors);
    FUZZ_ASSERT_MSG(run->meta.readable == (json_errors == 0),
                    "readable is %d with %zu JSON errors", run->meta.readable, json_errors);
}

/* The reader's TC findings are the tokenizer's. */
static void compare_json(const ov_meta_run *run, const tree *t)
{
    size_t j = 0;
    for (size_t i = 0; i < run->f.n; i++) {
        const hx_finding *d = &run->f.v[i];
        if (strcmp(tc_rules[d->rule].family, "TC") != 0)
            continue;
        FUZZ_ASSERT_MSG(j < t->d.n && hx_finding_eq(d, &t->d.v[j]),
                        "the reader's JSON finding %s at %" PRIu64 " is not the tokenizer's",
                        tc_rules[d->rule].id, d->offset);
        j++;
    }
    FUZZ_ASSERT_MSG(j == t->d.n, "the tokenizer has %zu JSON findings, the reader %zu", t->d.n, j);
}

void omo_check(const ov_meta_run *run, const uint8_t *p, size_t n)
{
    check_run(run, p, n);
    tree t;
    build(&t, p, n);
    compare_json(run, &t);
    if (t.rc == 0) {
        judge g;
        judge_document(&g, &t);
        compare_judged(run, &g);
        check_paths(run, &t);
        free(g.f);
        free(g.m.cpus);
    }
    tree_free(&t);
}
