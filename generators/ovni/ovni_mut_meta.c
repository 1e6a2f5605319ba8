/*
 * Mutators of metadata (stream.json): the OVNI-META rules and the TC-JSON
 * syntax rules, on the victim's metadata document or its text.
 *
 * What keeps each change alone:
 *  - a stream whose metadata no longer says it is a thread of a loom and
 *    process drops out of the checks across streams; it is picked among the
 *    streams that can (ovni_plan_excludable), so its loom keeps its CPUs;
 *  - a CPU list that is broken counts for nothing; it is picked where the
 *    loom's CPUs are given whole elsewhere (ovni_plan_cpus_losable);
 *  - a JSON error ends the reading of the document, so it is placed after
 *    the "ovni" object, in a section of another model, once every ovni key
 *    has been read;
 *  - rank and nranks are made wrong only where no other thread of the
 *    process gives them (they would disagree: OVNI-TRACE-PROCESS).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovni_mutate.h"

#define R(name) TC_RULE_##name
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define PICK(mu, a) ((a)[tc_rng_below((mu)->rng, COUNT(a))])

static ovni_json *ovni_of(ovni_json *root) { return ovni_json_get(root, "ovni"); }

static const ovni_stream_plan *victim(const ovni_mutation *mu, const ovni_plan *pl)
{
    return &pl->streams[mu->victim];
}

/* Replaces the value of obj.key, or adds it (before "finished" in the ovni
 * object, where libovni's keys are). */
static void set(ovni_json *obj, const char *key, ovni_json *value)
{
    long i = ovni_json_find(obj, key);
    if (i >= 0) {
        ovni_json_replace(obj, (size_t)i, value);
        return;
    }
    long at = ovni_json_find(obj, "finished");
    ovni_json_insert(obj, at >= 0 ? (size_t)at : obj->n, key, value);
}

static void drop(ovni_json *obj, const char *key)
{
    long i = ovni_json_find(obj, key);
    if (i >= 0)
        ovni_json_remove(obj, (size_t)i);
}

/* ---- the document ---- */

static ovni_json *not_object(ovni_mutation *mu, const ovni_plan *pl, ovni_json *root)
{
    (void)pl;
    mu->applied = 1;
    if (tc_rng_chance(mu->rng, 1, 2)) { /* the object inside an array */
        ovni_json *a = ovni_json_array();
        ovni_json_add(a, NULL, root);
        return a;
    }
    static const char *const others[] = {"\"ovni\"", "3", "null", "true", "[]",
                                         "\"{\\\"version\\\": 3}\""};
    ovni_json_free(root);
    return ovni_json_text("%s", PICK(mu, others));
}

static ovni_json *bad_version(ovni_mutation *mu, const ovni_plan *pl, ovni_json *root)
{
    (void)pl;
    static const char *const values[] = {"3.0", "\"3\"", "2", "4", "30", "-3", "3e0", "0.3e1",
                                         "null", "true", "[3]", "{\"major\": 3}", "1",
                                         "300000000000000000000"};
    if (tc_rng_chance(mu->rng, 1, 4))
        drop(root, "version");
    else
        set(root, "version", ovni_json_text("%s", PICK(mu, values)));
    mu->applied = 1;
    return root;
}

/* ---- missing keys and wrong types ---- */

enum { K_PART, K_FINISHED, K_REQUIRE, K_TID, K_PID, K_LOOM, K_OVNI, K_APP_ID, K_RANK,
       K_NRANKS, K_CPUS };
static const char *const key_names[] = {"part", "finished", "require", "tid", "pid", "loom",
                                        "ovni", "app_id", "rank", "nranks", "loom_cpus"};

/* Keys whose loss takes the stream out of the checks across streams. */
static int excluding(unsigned key)
{
    return key == K_PART || key == K_PID || key == K_LOOM || key == K_OVNI;
}

static int not_primary(const ovni_plan *pl, size_t i) { return !pl->streams[i].primary; }

static int plan_missing(ovni_mutation *mu, ovni_plan *pl)
{
    mu->variant = (unsigned)tc_rng_below(mu->rng, K_OVNI + 1);
    return ovni_victim_where(mu, pl, excluding(mu->variant) ? ovni_plan_excludable : NULL);
}

static ovni_json *missing(ovni_mutation *mu, const ovni_plan *pl, ovni_json *root)
{
    (void)pl;
    if (mu->variant == K_OVNI)
        drop(root, "ovni");
    else
        drop(ovni_of(root), key_names[mu->variant]);
    mu->applied = 1;
    return root;
}

static int plan_type(ovni_mutation *mu, ovni_plan *pl)
{
    for (;;) {
        mu->variant = (unsigned)tc_rng_below(mu->rng, K_CPUS + 1);
        if (mu->variant == K_FINISHED)
            continue; /* a wrong finished is OVNI-META-FINISHED */
        if (mu->variant == K_CPUS && ovni_pick(mu, pl, not_primary) == SIZE_MAX)
            continue; /* one stream: its list must stay */
        break;
    }
    if (mu->variant == K_CPUS)
        return ovni_victim_where(mu, pl, not_primary);
    return ovni_victim_where(mu, pl, excluding(mu->variant) ? ovni_plan_excludable : NULL);
}

static ovni_json *wrong_type(ovni_mutation *mu, const ovni_plan *pl, ovni_json *root)
{
    const ovni_stream_plan *s = victim(mu, pl);
    ovni_json *o = ovni_of(root);
    static const char *const for_string[] = {"5", "true", "null", "[\"thread\"]", "{\"name\": 1}"};
    static const char *const for_object[] = {"[\"ovni\"]", "\"ovni 1.1.0\"", "1", "null"};
    static const char *const for_array[] = {"{\"index\": 0, \"phyid\": 0}", "\"0-3\"", "4", "null"};
    const char *key = key_names[mu->variant];
    ovni_json *v;
    switch (mu->variant) {
    case K_PART:
    case K_LOOM: v = ovni_json_text("%s", PICK(mu, for_string)); break;
    case K_REQUIRE: v = ovni_json_text("%s", PICK(mu, for_object)); break;
    case K_CPUS: v = ovni_json_text("%s", PICK(mu, for_array)); break;
    case K_OVNI: {
        static const char *const not_object[] = {"[]", "\"thread\"", "1", "null",
                                                 "[{\"part\": \"thread\"}]"};
        set(root, "ovni", ovni_json_text("%s", PICK(mu, not_object)));
        mu->applied = 1;
        return root;
    }
    default: {
        /* An integer written as something else. */
        int64_t n = mu->variant == K_TID ? s->tid : mu->variant == K_PID ? s->pid
                  : mu->variant == K_APP_ID ? s->app_id : mu->variant == K_RANK ? s->rank
                                                                                : s->nranks;
        switch (tc_rng_below(mu->rng, 6)) {
        case 0: v = ovni_json_text("\"%lld\"", (long long)n); break;
        case 1: v = ovni_json_text("%lld.0", (long long)n); break;
        case 2: v = ovni_json_text("%lld.5", (long long)n); break;
        case 3: v = ovni_json_text("true"); break;
        case 4: v = ovni_json_text("null"); break;
        default: v = ovni_json_text("[%lld]", (long long)n); break;
        }
        /* rank and nranks go together (OVNI-META-RANK otherwise): add the
         * other one, right, when the stream had neither. */
        if ((mu->variant == K_RANK || mu->variant == K_NRANKS) && !s->has_rank)
            set(o, mu->variant == K_RANK ? "nranks" : "rank",
                ovni_json_text("%lld", (long long)(mu->variant == K_RANK ? s->nranks : s->rank)));
    }
    }
    set(o, key, v);
    mu->applied = 1;
    return root;
}

static ovni_json *bad_finished(ovni_mutation *mu, const ovni_plan *pl, ovni_json *root)
{
    (void)pl;
    static const char *const values[] = {"0", "2", "-1", "\"1\"", "1.0", "true", "null", "[1]",
                                         "10"};
    set(ovni_of(root), "finished", ovni_json_text("%s", PICK(mu, values)));
    mu->applied = 1;
    return root;
}

static int plan_id(ovni_mutation *mu, ovni_plan *pl)
{
    static const unsigned keys[] = {K_TID, K_PID, K_APP_ID};
    mu->variant = PICK(mu, keys);
    return ovni_victim_where(mu, pl, mu->variant == K_PID ? ovni_plan_excludable : NULL);
}

static ovni_json *bad_id(ovni_mutation *mu, const ovni_plan *pl, ovni_json *root)
{
    const ovni_stream_plan *s = victim(mu, pl);
    static const char *const values[] = {"0", "-1", "2147483648", "4294967296",
                                         "99999999999999999999", "-9223372036854775808"};
    int64_t id = mu->variant == K_TID ? s->tid : mu->variant == K_PID ? s->pid : s->app_id;
    ovni_json *v = tc_rng_chance(mu->rng, 1, 4) ? ovni_json_text("-%lld", (long long)id)
                                                : ovni_json_text("%s", PICK(mu, values));
    set(ovni_of(root), key_names[mu->variant], v);
    mu->applied = 1;
    return root;
}

static ovni_json *bad_loom(ovni_mutation *mu, const ovni_plan *pl, ovni_json *root)
{
    const char *name = pl->looms[victim(mu, pl)->loom].name;
    ovni_json *v;
    switch (tc_rng_below(mu->rng, 5)) {
    case 0: v = ovni_json_string(""); break;
    case 1: v = ovni_json_text("\"%s/%s\"", name, name); break;
    case 2: v = ovni_json_text("\"%s/\"", name); break;
    case 3: v = ovni_json_text("\"%s\\u0000x\"", name); break; /* a NUL, escaped */
    default: v = ovni_json_string("/"); break;
    }
    set(ovni_of(root), "loom", v);
    mu->applied = 1;
    return root;
}

/* ---- ranks ---- */

/* Other streams of the victim's process that give a rank. */
static size_t rank_givers(const ovni_plan *pl, size_t v)
{
    const ovni_stream_plan *s = &pl->streams[v];
    size_t n = 0;
    for (size_t i = 0; i < pl->n; i++)
        n += i != v && pl->streams[i].loom == s->loom && pl->streams[i].pid == s->pid &&
             pl->streams[i].has_rank;
    return n;
}

static int plan_rank(ovni_mutation *mu, ovni_plan *pl)
{
    ovni_victim_any(mu, pl);
    /* 0: one of the pair alone; 1: values out of range (only where no other
     * thread of the process gives them, which would disagree) */
    mu->variant = rank_givers(pl, mu->victim) == 0 && tc_rng_chance(mu->rng, 1, 2) ? 1 : 0;
    return 1;
}

static ovni_json *bad_rank(ovni_mutation *mu, const ovni_plan *pl, ovni_json *root)
{
    const ovni_stream_plan *s = victim(mu, pl);
    ovni_json *o = ovni_of(root);
    int rank = tc_rng_chance(mu->rng, 1, 2);
    if (mu->variant == 0 && s->has_rank) {
        drop(o, rank ? "nranks" : "rank");
    } else if (mu->variant == 0) {
        int64_t v = rank ? s->rank : s->nranks;
        set(o, rank ? "rank" : "nranks", ovni_json_text("%lld", (long long)v));
    } else {
        int64_t n = s->has_rank ? s->nranks : (int64_t)tc_rng_range(mu->rng, 1, 64);
        int64_t r, nr = n;
        switch (tc_rng_below(mu->rng, 4)) {
        case 0: r = n + (int64_t)tc_rng_below(mu->rng, 10); break; /* rank >= nranks */
        case 1: r = -(int64_t)tc_rng_range(mu->rng, 1, 10); break;
        case 2: r = 0; nr = -(int64_t)tc_rng_below(mu->rng, 4); break; /* nranks <= 0 */
        default: r = -1; nr = 0; break;
        }
        if (tc_rng_chance(mu->rng, 1, 6)) {
            set(o, "rank", ovni_json_text("99999999999999999999")); /* beyond 64 bits */
            set(o, "nranks", ovni_json_text("%lld", (long long)n));
        } else {
            set(o, "rank", ovni_json_text("%lld", (long long)r));
            set(o, "nranks", ovni_json_text("%lld", (long long)nr));
        }
    }
    mu->applied = 1;
    return root;
}

/* ---- ovni.require and ovni.loom_cpus ---- */

static ovni_json *bad_require(ovni_mutation *mu, const ovni_plan *pl, ovni_json *root)
{
    (void)pl;
    static const char *const values[] = {"\"1.0\"", "\"1\"", "\"1.2.3.4\"", "\"v1.0.0\"", "\"\"",
                                         "\"1..0\"", "\"1.0.x\"", "\" 1.0.0\"", "\"1.0.0-rc1\"",
                                         "1", "null", "true", "{\"major\": 1}", "[1, 0, 0]"};
    ovni_json *req = ovni_json_get(ovni_of(root), "require");
    size_t i = (size_t)tc_rng_below(mu->rng, req->n);
    ovni_json_replace(req, i, ovni_json_text("%s", PICK(mu, values)));
    mu->applied = 1;
    return root;
}

/* Ruling 9: ovni's model at a version not compatible with 1.1.0 (another
 * major, or a higher minor). Its events are then not judged, so nothing
 * else can be reported. */
static ovni_json *incompatible_require(ovni_mutation *mu, const ovni_plan *pl, ovni_json *root)
{
    (void)pl;
    static const char *const fixed[] = {"2.0.0", "0.1.0", "1.2.0", "1.99.3", "0.0.1", "10.1.0",
                                        "01.02.0", "2147483647.0.0"};
    char version[40];
    if (tc_rng_chance(mu->rng, 1, 2)) {
        snprintf(version, sizeof version, "%s", PICK(mu, fixed));
    } else {
        unsigned major = (unsigned)tc_rng_below(mu->rng, 100);
        unsigned minor = (unsigned)tc_rng_below(mu->rng, 100);
        if (major == 1 && minor <= 1)
            minor += 2;
        snprintf(version, sizeof version, "%u.%u.%u", major, minor,
                 (unsigned)tc_rng_below(mu->rng, 100));
    }
    ovni_json *req = ovni_json_get(ovni_of(root), "require");
    set(req, "ovni", ovni_json_string(version));
    mu->applied = 1;
    return root;
}

static int plan_cpus(ovni_mutation *mu, ovni_plan *pl)
{
    mu->variant = (unsigned)tc_rng_below(mu->rng, 4);
    return ovni_victim_where(mu, pl, ovni_plan_cpus_losable);
}

static ovni_json *loom_cpus_list(const ovni_plan *pl, const ovni_stream_plan *s)
{
    const ovni_loom *l = &pl->looms[s->loom];
    ovni_json *a = ovni_json_array();
    for (size_t c = 0; c < l->ncpus; c++) {
        ovni_json *e = ovni_json_add(a, NULL, ovni_json_object());
        ovni_json_add(e, "index", ovni_json_text("%lld", (long long)l->cpus[c].index));
        ovni_json_add(e, "phyid", ovni_json_text("%lld", (long long)l->cpus[c].phyid));
    }
    return a;
}

static ovni_json *bad_cpus(ovni_mutation *mu, const ovni_plan *pl, ovni_json *root)
{
    const ovni_stream_plan *s = victim(mu, pl);
    ovni_json *o = ovni_of(root);
    if (mu->variant == 0) {
        set(o, "loom_cpus", ovni_json_array()); /* [] */
        mu->applied = 1;
        return root;
    }
    ovni_json *a = ovni_json_get(o, "loom_cpus");
    if (!a || !s->has_cpus) {
        set(o, "loom_cpus", loom_cpus_list(pl, s));
        a = ovni_json_get(o, "loom_cpus");
    }
    size_t k = (size_t)tc_rng_below(mu->rng, a->n);
    static const char *const not_objects[] = {"3", "\"cpu0\"", "[0, 0]", "null", "true"};
    static const char *const bad_numbers[] = {"-1", "1.5", "\"2\"", "true", "null",
                                              "99999999999999999999", "-9223372036854775808"};
    if (mu->variant == 1) {
        ovni_json_replace(a, k, ovni_json_text("%s", PICK(mu, not_objects)));
    } else if (mu->variant == 2) {
        ovni_json_remove(a->kids[k], (size_t)tc_rng_below(mu->rng, 2)); /* index or phyid */
    } else {
        ovni_json_replace(a->kids[k], (size_t)tc_rng_below(mu->rng, 2),
                          ovni_json_text("%s", PICK(mu, bad_numbers)));
    }
    mu->applied = 1;
    return root;
}

/* ---- JSON syntax, after the ovni object ---- */

/* The section after "ovni" that a JSON error goes in, made when there is
 * none: nothing tracecheck reads comes after it. */
static ovni_json *tail(ovni_json *root)
{
    long ovni = ovni_json_find(root, "ovni");
    if (root->n && (long)root->n - 1 > ovni && root->kids[root->n - 1]->kind == OJ_OBJECT)
        return root->kids[root->n - 1];
    ovni_json *t = ovni_json_add(root, "x_tracer", ovni_json_object());
    ovni_json_add(t, "name", ovni_json_string("tracecheck"));
    return t;
}

static void put_member(ovni_mutation *mu, ovni_json *obj, const char *text)
{
    ovni_json_add_member_text(obj, (size_t)tc_rng_below(mu->rng, obj->n + 1), text);
}

static void put_value(ovni_mutation *mu, ovni_json *obj, const char *key, const char *text)
{
    ovni_json_insert(obj, (size_t)tc_rng_below(mu->rng, obj->n + 1), key,
                     ovni_json_text("%s", text));
}

static int plan_syntax(ovni_mutation *mu, ovni_plan *pl)
{
    mu->variant = (unsigned)tc_rng_below(mu->rng, 3);
    return ovni_victim_any(mu, pl);
}

static ovni_json *syntax_meta(ovni_mutation *mu, const ovni_plan *pl, ovni_json *root)
{
    (void)pl;
    static const char *const values[] = {
        "[1, 2,]", "{\"a\": 1,}", "tru", "nul", "'single'", "01", "+1", ".5", "1.", "-", "0x10",
        "NaN", "Infinity", "\"a\tb\"", "\"\\x\"", "\"\\u12G4\"", "[1 2]", "{\"a\" 1}", "{1: 2}",
        "\"unterminated", "1e", "--1", "[", "{"};
    static const char *const members[] = {"\"a\": 1 \"b\": 2", "\"a\" 1", "a: 1", "'a': 1",
                                          "\"a\":", ",", "\"a\": 1,"};
    ovni_json *t = tail(root);
    if (mu->variant == 1)
        put_value(mu, t, "x_value", PICK(mu, values));
    else if (mu->variant == 2)
        put_member(mu, t, PICK(mu, members));
    if (mu->variant != 0)
        mu->applied = 1;
    return root;
}

static void syntax_cut(ovni_mutation *mu, const ovni_json *root, tc_bytebuf *text)
{
    if (mu->variant != 0 || root->kind != OJ_OBJECT)
        return;
    const ovni_json *o = ovni_json_get(root, "ovni");
    uint64_t from = o->end, to = root->end - 1; /* to: the last '}' */
    uint64_t p = tc_rng_range(mu->rng, from, to);
    while (p > from && (text->p[p] & 0xc0) == 0x80)
        p--; /* not inside a UTF-8 sequence (that is TC-JSON-ENCODING) */
    text->len = (size_t)p;
    mu->applied = 1;
}

static int plan_comment(ovni_mutation *mu, ovni_plan *pl)
{
    mu->variant = (unsigned)tc_rng_below(mu->rng, 4);
    /* Variant 2 stops the reading inside the ovni object, which then does
     * not say the stream is a thread's. */
    return mu->variant == 2 ? ovni_victim_excludable(mu, pl) : ovni_victim_any(mu, pl);
}

static ovni_json *comment_meta(ovni_mutation *mu, const ovni_plan *pl, ovni_json *root)
{
    (void)pl;
    switch (mu->variant) {
    case 0: put_member(mu, tail(root), "/* written by tracecheck */ \"x_note\": 1"); break;
    case 1: put_value(mu, tail(root), "x_count", "1 // the count"); break;
    case 2: /* at the end of the ovni object, once its keys are read */
        ovni_json_add_member_text(ovni_of(root), ovni_of(root)->n, "// end of the ovni keys\n");
        break;
    default: return root; /* after the document: comment_text */
    }
    mu->applied = 1;
    return root;
}

static void comment_text(ovni_mutation *mu, const ovni_json *root, tc_bytebuf *text)
{
    (void)root;
    if (mu->variant != 3)
        return;
    const char *c = tc_rng_chance(mu->rng, 1, 2) ? "// end of metadata\n" : "/* end */\n";
    tc_bb_append(text, c, strlen(c));
    mu->applied = 1;
}

static void trailing(ovni_mutation *mu, const ovni_json *root, tc_bytebuf *text)
{
    (void)root;
    static const char *const after[] = {"{\"version\": 3}\n", "}\n", ",\n", "x", "3\n", "]\n",
                                        "\"\"\n", "garbage\n", "\n\n{}\n", "\t\"ovni\": {}\n"};
    if (tc_rng_chance(mu->rng, 1, 6)) {
        tc_bb_append(text, NULL, (size_t)tc_rng_range(mu->rng, 1, 8)); /* NUL bytes */
    } else {
        const char *s = PICK(mu, after);
        tc_bb_append(text, s, strlen(s));
    }
    mu->applied = 1;
}

static int plan_variant6(ovni_mutation *mu, ovni_plan *pl)
{
    mu->variant = (unsigned)tc_rng_below(mu->rng, 6);
    return ovni_victim_any(mu, pl);
}

static ovni_json *duplicate_key(ovni_mutation *mu, const ovni_plan *pl, ovni_json *root)
{
    const ovni_stream_plan *s = victim(mu, pl);
    ovni_json *o = ovni_of(root);
    unsigned v = mu->variant;
    if (v == 4 && !s->has_lib)
        v = 1;
    if (v == 5 && !s->has_cpus)
        v = 2;
    switch (v) {
    case 0: ovni_json_add(root, "version", ovni_json_text("3")); break;
    case 1: /* the same key, escaped: keys compare after unescaping */
        ovni_json_insert(o, (size_t)ovni_json_find(o, "finished") + 1,
                         tc_rng_chance(mu->rng, 1, 2) ? "finished" : "fin\\u0069shed",
                         ovni_json_text("1"));
        break;
    case 2:
        ovni_json_insert(o, (size_t)ovni_json_find(o, "tid"), "part", ovni_json_string("thread"));
        break;
    case 3: {
        ovni_json *t = tail(root);
        ovni_json_add(t, t->kids[0]->key, ovni_json_copy(t->kids[0]));
        break;
    }
    case 4: {
        ovni_json *lib = ovni_json_get(o, "lib");
        ovni_json_add(lib, "commit", ovni_json_string(pl->lib_commit));
        break;
    }
    default: {
        ovni_json *a = ovni_json_get(o, "loom_cpus");
        ovni_json *e = a->kids[tc_rng_below(mu->rng, a->n)];
        ovni_json_add(e, "index", ovni_json_copy(e->kids[0]));
        break;
    }
    }
    mu->applied = 1;
    return root;
}

static ovni_json *bad_encoding(ovni_mutation *mu, const ovni_plan *pl, ovni_json *root)
{
    (void)pl;
    static const char *const strings[] = {
        "\"\xc0\xaf\"", "\"a\xe0\x80\xafz\"", "\"\xed\xa0\x80\"", "\"\xf4\x90\x80\x80\"",
        "\"\x80\"", "\"x\xff\"", "\"\xe2\x82\"", "\"\\ud800\"", "\"\\udc00x\"",
        "\"\\ud800\\u0041\"",
        "\"\xf8\x88\x80\x80\x80\"", "\"caf\xe9\""};
    if (tc_rng_chance(mu->rng, 1, 5))
        put_member(mu, tail(root), "\"k\xc3\x28\": 1"); /* in a key */
    else
        put_value(mu, tail(root), "x_label", PICK(mu, strings));
    mu->applied = 1;
    return root;
}

static ovni_json *too_deep(ovni_mutation *mu, const ovni_plan *pl, ovni_json *root)
{
    (void)pl;
    /* The document is depth 1, the section 2: 511 more reach the limit. */
    size_t n = (size_t)tc_rng_range(mu->rng, 511, 1000);
    int objects = tc_rng_chance(mu->rng, 1, 3);
    tc_bytebuf b = {0};
    for (size_t i = 0; i < n; i++)
        tc_bb_append(&b, objects ? "{\"a\":" : "[", objects ? 5 : 1);
    tc_bb_append(&b, "0", 1);
    for (size_t i = 0; i < n; i++)
        tc_bb_append(&b, objects ? "}" : "]", 1);
    tc_bb_append(&b, "", 1);
    put_value(mu, tail(root), "nested", (const char *)b.p);
    tc_bb_free(&b);
    mu->applied = 1;
    return root;
}

static void bom(ovni_mutation *mu, const ovni_json *root, tc_bytebuf *text)
{
    (void)root;
    tc_bb_reserve(text, 3);
    memmove(text->p + 3, text->p, text->len);
    memcpy(text->p, "\xef\xbb\xbf", 3);
    text->len += 3;
    mu->applied = 1;
}

const ovni_mutator ovni_meta_mutators[] = {
    {R(OVNI_META_NOT_OBJECT), "makes a stream.json an array holding the object, or a scalar",
     ovni_victim_excludable, not_object, NULL, NULL, NULL, NULL},
    {R(OVNI_META_VERSION), "drops \"version\" or sets it to 3.0, \"3\", 2, null...",
     ovni_victim_any,
     bad_version, NULL, NULL, NULL, NULL},
    {R(OVNI_META_MISSING),
     "drops ovni.part, finished, require, tid, pid or loom, or the ovni object", plan_missing,
     missing, NULL, NULL, NULL, NULL},
    {R(OVNI_META_TYPE),
     "gives an ovni key a value of another JSON type (tid \"12\", loom 5, require [...]...)",
     plan_type, wrong_type, NULL, NULL, NULL, NULL},
    {R(OVNI_META_FINISHED), "sets ovni.finished to 0, 2, \"1\", 1.0, true...", ovni_victim_any,
     bad_finished, NULL, NULL, NULL, NULL},
    {R(OVNI_META_ID), "sets ovni.tid, pid or app_id to 0, a negative number or beyond 32 bits",
     plan_id, bad_id, NULL, NULL, NULL, NULL},
    {R(OVNI_META_LOOM), "sets ovni.loom to \"\" or a name with '/' or an escaped NUL",
     ovni_victim_excludable, bad_loom,
     NULL, NULL, NULL, NULL},
    {R(OVNI_META_RANK),
     "gives ovni.rank without ovni.nranks (or the reverse), or a rank outside 0..nranks-1",
     plan_rank, bad_rank, NULL, NULL, NULL, NULL},
    {R(OVNI_META_REQUIRE), "sets an ovni.require version to \"1.0\", \"v1.0.0\", 1...",
     ovni_victim_any,
     bad_require, NULL, NULL, NULL, NULL},
    {R(OVNI_REQUIRE_VERSION),
     "requires ovni's model at a version not compatible with 1.1.0 (2.0.0, 1.2.0, 0.1.0...)",
     ovni_victim_any, incompatible_require, NULL, NULL, NULL, NULL},
    {R(OVNI_META_LOOM_CPUS),
     "writes ovni.loom_cpus empty, or with an entry that is not an object, lacks index or "
     "phyid, or has one negative or not an integer",
     plan_cpus, bad_cpus, NULL, NULL, NULL, NULL},
    {R(JSON_SYNTAX),
     "cuts a stream.json after its ovni object, or puts a malformed value or member (trailing "
     "comma, bare word, 01, single quotes...) in a later section",
     plan_syntax, syntax_meta, syntax_cut, NULL, NULL, NULL},
    {R(JSON_COMMENT), "puts a // or /* */ comment after the ovni keys", plan_comment,
     comment_meta, comment_text, NULL, NULL, NULL},
    {R(JSON_TRAILING), "appends data after a stream.json's object", ovni_victim_any, NULL, trailing,
     NULL, NULL, NULL},
    {R(JSON_DUPLICATE_KEY),
     "repeats a key (version, ovni.finished, possibly escaped, part, lib.commit, a CPU's "
     "index, a section's key)",
     plan_variant6, duplicate_key, NULL, NULL, NULL, NULL},
    {R(JSON_ENCODING),
     "puts a string that is not UTF-8 (overlong, surrogate, beyond U+10FFFF, cut) or a lone "
     "surrogate escape in a later section",
     ovni_victim_any, bad_encoding, NULL, NULL, NULL, NULL},
    {R(JSON_DEPTH), "nests 511 to 1000 arrays or objects in a later section", ovni_victim_any,
     too_deep,
     NULL, NULL, NULL, NULL},
    {R(JSON_BOM), "starts a stream.json with a UTF-8 byte order mark", ovni_victim_any, NULL, bom,
     NULL,
     NULL, NULL},
};

const size_t ovni_meta_mutator_count = COUNT(ovni_meta_mutators);
