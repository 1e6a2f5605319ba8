/*
 * tracecheck's strict JSON tokenizer (parsers/common/json.c) on raw bytes,
 * and a differential against cJSON (Debian's libcjson). Besides crashes,
 * leaks and undefined behaviour (the sanitizers), it checks that:
 *
 *  - every input path gives the same tokens and findings: memory, read()
 *    with tiny windows, sliding mmap windows; and skipping containers with
 *    tc_json_skip (as the ovni metadata reader does) changes nothing but
 *    which tokens are returned;
 *  - tokens are well formed: in order, not overlapping, inside the input,
 *    at the byte their kind starts with, properly nested, at the depth the
 *    tokenizer says, with line:column computed from the bytes; numbers are
 *    the input's text, follow RFC 8259's number grammar (checked here
 *    again: cJSON accepts leading zeros, so the differential alone would
 *    not notice), with the integer value, sign and 64-bit fit computed
 *    again here; a complete document leaves only white space;
 *  - findings are well formed: TC rules with the catalogue's severity, one
 *    line of UTF-8, line:column matching the offset, a JSON path; one error
 *    ends the document (repeated keys excepted), and it is the last finding;
 *    TC-JSON-DUPLICATE-KEY exactly at each repeated key (found here by
 *    sorting each object's keys), TC-JSON-BOM exactly for a leading BOM;
 *  - tracecheck and cJSON agree: on a document both accept, value by value
 *    (kinds, member names and order, counts with repeated names, strings
 *    byte for byte, numbers through strtod and exactly as integers); where
 *    one accepts and the other does not, the difference is a class of
 *    json_cjson_allowlist.h whose condition holds on the input, or the
 *    harness aborts. Some classes let the comparison go on: on the bytes
 *    cJSON read, or on the input rewritten the way cJSON read it.
 *
 * Environment: JSON_DIFFERENTIAL_STATS=1 prints at exit how many inputs
 * agreed and how many fell in each class; JSON_DIFFERENTIAL_VERBOSE=1 one
 * line per input; JSON_DIFFERENTIAL_TRAP=CLASS aborts on inputs of that
 * class (with libFuzzer's -minimize_crash=1: a small example of it).
 */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parsers/common/input.h"
#include "../parsers/common/json.h"
#include "fuzz_helpers.h"
#include "json_cjson_allowlist.h"
#include "ovni_run.h"

/* ---- the allow-list ---- */

enum {
#define JSON_CJSON_DIVERGENCE(name, kind, explains, then, reason) name,
#include "json_cjson_allowlist.h"
#undef JSON_CJSON_DIVERGENCE
    JDIV_COUNT
};

static const struct {
    const char *name;
    unsigned kind;
    const char *explains;
} divs[JDIV_COUNT] = {
#define JSON_CJSON_DIVERGENCE(name, kind, explains, then, reason) {#name, kind, explains},
#include "json_cjson_allowlist.h"
#undef JSON_CJSON_DIVERGENCE
};

/* Counts for JSON_DIFFERENTIAL_STATS. A harness is a program: globals are
 * fine here. */
static unsigned long g_count[JDIV_COUNT], g_agree_accept, g_agree_reject, g_runs;
static int g_stats = -1, g_verbose;
static const char *g_trap;

static void print_stats(void)
{
    fprintf(stderr, "json_tokens: %lu inputs: %lu both accept, %lu both reject\n", g_runs,
            g_agree_accept, g_agree_reject);
    for (int i = 0; i < JDIV_COUNT; i++)
        fprintf(stderr, "  %-28s %lu\n", divs[i].name, g_count[i]);
}

static void setup(void)
{
    if (g_stats >= 0)
        return;
    const char *s = getenv("JSON_DIFFERENTIAL_STATS");
    g_stats = s && *s && strcmp(s, "0") != 0;
    s = getenv("JSON_DIFFERENTIAL_VERBOSE");
    g_verbose = s && *s && strcmp(s, "0") != 0;
    g_trap = getenv("JSON_DIFFERENTIAL_TRAP");
    if (g_stats)
        atexit(print_stats);
}

static void count(int d)
{
    g_count[d]++;
    if (g_verbose)
        fprintf(stderr, "json_tokens: class %s\n", divs[d].name);
    if (g_trap && strcmp(g_trap, divs[d].name) == 0)
        FUZZ_FAIL("JSON_DIFFERENTIAL_TRAP: an input of class %s", divs[d].name);
}

/* Whether rule id `id` is listed in class d's EXPLAINS. */
static int explains(int d, tc_rule_id rule)
{
    const char *id = tc_rules[rule].id, *s = divs[d].explains;
    size_t n = strlen(id);
    for (const char *p = s; (p = strstr(p, id)) != NULL; p += n)
        if ((p == s || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

/* ---- tokens ---- */

typedef struct jtok {
    tc_json_kind kind;
    uint64_t offset, end; /* end: the reader's position after the token */
    uint32_t line, column;
    unsigned depth;
    char *text; /* KEY, STRING, NUMBER */
    size_t len;
    int integer, negative, fits;
    int64_t i64;
    uint64_t u64;
    char *path;
    int skipped; /* (skip runs) the container's contents were skipped */
} jtok;

typedef struct jrun {
    jtok *t;
    size_t n, cap;
    ofz_diags d;
    int rc; /* 0: a complete document; -1: an error ended it */
    uint64_t end_pos;
} jrun;

static char *dup_bytes(const char *p, size_t n)
{
    char *d = malloc(n + 1);
    FUZZ_CHECK_ALLOC(d);
    if (n)
        memcpy(d, p, n);
    d[n] = '\0';
    return d;
}

/* Tokenizes what r holds. With skip != 0, containers picked by skip are
 * passed over with tc_json_skip. */
static void tokenize(jrun *run, tc_reader *r, uint32_t skip)
{
    memset(run, 0, sizeof *run);
    tc_diag_sink sink;
    ofz_sink_init(&sink, &run->d, 0);
    tc_json *j = tc_json_new(r, &sink);
    FUZZ_CHECK_ALLOC(j);
    for (size_t i = 0;; i++) {
        tc_json_token t;
        int rc = tc_json_next(j, &t);
        FUZZ_ASSERT_MSG(rc >= -1 && rc <= 1, "tc_json_next returned %d", rc);
        if (rc <= 0) {
            run->rc = rc;
            break;
        }
        if (run->n == run->cap) {
            run->cap = run->cap ? 2 * run->cap : 64;
            run->t = realloc(run->t, run->cap * sizeof *run->t);
            FUZZ_CHECK_ALLOC(run->t);
        }
        jtok *x = &run->t[run->n++];
        memset(x, 0, sizeof *x);
        x->kind = t.kind;
        x->offset = t.offset;
        x->line = t.line;
        x->column = t.column;
        x->depth = tc_json_depth(j);
        x->end = tc_pos(r);
        if (t.kind == TC_JSON_KEY || t.kind == TC_JSON_STRING || t.kind == TC_JSON_NUMBER) {
            FUZZ_ASSERT(t.text != NULL && t.text[t.len] == '\0');
            x->text = dup_bytes(t.text, t.len);
            x->len = t.len;
        }
        if (t.kind == TC_JSON_NUMBER) {
            x->integer = t.integer;
            x->negative = t.negative;
            x->fits = t.fits;
            x->i64 = t.integer && t.fits && t.negative ? t.i64 : 0;
            x->u64 = t.integer && t.fits && !t.negative ? t.u64 : 0;
        }
        const char *path = tc_json_path(j);
        FUZZ_ASSERT(path != NULL);
        x->path = dup_bytes(path, strlen(path));
        if (skip && (t.kind == TC_JSON_OBJECT_BEGIN || t.kind == TC_JSON_ARRAY_BEGIN) &&
            ((uint32_t)(i * 2654435761u) ^ skip) % 3 == 0) {
            x->skipped = 1;
            int rc2 = tc_json_skip(j, &t);
            FUZZ_ASSERT_MSG(rc2 == 1 || rc2 == -1, "tc_json_skip returned %d", rc2);
            x->end = tc_pos(r);
            x->depth = tc_json_depth(j);
        }
    }
    /* The end is sticky: every later call says the same. */
    tc_json_token t;
    FUZZ_ASSERT_MSG(tc_json_next(j, &t) == run->rc && tc_json_next(j, &t) == run->rc,
                    "tc_json_next changed its answer after the end");
    tc_json_free(j);
    ofz_sink_finish(&sink, &run->d);
    run->end_pos = tc_pos(r);
}

static void jrun_free(jrun *run)
{
    for (size_t i = 0; i < run->n; i++) {
        free(run->t[i].text);
        free(run->t[i].path);
    }
    free(run->t);
    ofz_diags_free(&run->d);
    memset(run, 0, sizeof *run);
}

static int tok_eq(const jtok *a, const jtok *b)
{
    return a->kind == b->kind && a->offset == b->offset && a->line == b->line &&
           a->column == b->column && a->depth == b->depth && a->len == b->len &&
           (a->text == NULL) == (b->text == NULL) &&
           (!a->text || memcmp(a->text, b->text, a->len) == 0) && a->integer == b->integer &&
           a->negative == b->negative && a->fits == b->fits && a->i64 == b->i64 &&
           a->u64 == b->u64 && strcmp(a->path, b->path) == 0;
}

static void compare_runs(const jrun *a, const char *la, const jrun *b, const char *lb)
{
    ofz_assert_same_diags(&a->d, la, &b->d, lb);
    FUZZ_ASSERT_MSG(a->rc == b->rc, "%s ends with %d, %s with %d", la, a->rc, lb, b->rc);
    size_t n = a->n < b->n ? a->n : b->n;
    for (size_t i = 0; i < n; i++)
        FUZZ_ASSERT_MSG(tok_eq(&a->t[i], &b->t[i]),
                        "%s and %s: token %zu differs (kind %d at %" PRIu64 " %s, kind %d at %"
                        PRIu64 " %s)", la, lb, i, a->t[i].kind, a->t[i].offset, a->t[i].path,
                        b->t[i].kind, b->t[i].offset, b->t[i].path);
    FUZZ_ASSERT_MSG(a->n == b->n, "%s: %zu tokens, %s: %zu", la, a->n, lb, b->n);
    FUZZ_ASSERT_MSG(a->end_pos == b->end_pos, "%s stops at %" PRIu64 ", %s at %" PRIu64, la,
                    a->end_pos, lb, b->end_pos);
}

/* The skip run returned a subsequence of the full run's tokens, the same
 * findings, and the same end. */
static void compare_skip(const jrun *full, const jrun *skip)
{
    ofz_assert_same_diags(&full->d, "every token", &skip->d, "tc_json_skip");
    FUZZ_ASSERT_MSG(full->rc == skip->rc, "tc_json_skip changes the end: %d vs %d", full->rc,
                    skip->rc);
    size_t k = 0;
    for (size_t i = 0; i < skip->n; i++) {
        const jtok *s = &skip->t[i];
        while (k < full->n && full->t[k].offset < s->offset)
            k++;
        FUZZ_ASSERT_MSG(k < full->n, "after tc_json_skip, a token at %" PRIu64 " that the full "
                        "run does not have", s->offset);
        jtok f = full->t[k];
        if (s->skipped) { /* the container's end, as the full run met it */
            f.end = s->end;
            f.depth = s->depth;
            f.skipped = 1;
        }
        FUZZ_ASSERT_MSG(tok_eq(&f, s), "after tc_json_skip, token at %" PRIu64 " (%s) differs",
                        s->offset, s->path);
    }
}

/* ---- invariants of one run ---- */

static int ws(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static int is_fatal(tc_rule_id r)
{
    return r != TC_RULE_JSON_DUPLICATE_KEY && r != TC_RULE_JSON_BOM;
}

static int rfc_number(const uint8_t *p, size_t n);

/* The number's grammar (RFC 8259 §6: no leading zeros, digits after '.'
 * and 'e'), and its integer value, sign and fit, from its text. */
static void check_number(const jtok *t, const uint8_t *p)
{
    FUZZ_ASSERT_MSG(t->end - t->offset == t->len && memcmp(p + t->offset, t->text, t->len) == 0,
                    "the number at %" PRIu64 " is not the input's text", t->offset);
    const char *s = t->text;
    FUZZ_ASSERT_MSG(rfc_number((const uint8_t *)s, t->len),
                    "the number %s at %" PRIu64 " was accepted but is not an RFC 8259 number", s,
                    t->offset);
    int neg = s[0] == '-';
    int integer = !strpbrk(s, ".eE");
    FUZZ_ASSERT_MSG(t->negative == neg && t->integer == integer,
                    "number %s: negative %d integer %d", s, t->negative, t->integer);
    if (!integer)
        return;
    unsigned __int128 v = 0;
    int big = 0;
    for (const char *d = s + neg; *d; d++) {
        FUZZ_ASSERT(*d >= '0' && *d <= '9');
        if (v > ((unsigned __int128)1 << 64))
            big = 1;
        else
            v = v * 10 + (unsigned)(*d - '0');
    }
    int fits = !big && (neg ? v <= (unsigned __int128)1 << 63 : v <= UINT64_MAX);
    FUZZ_ASSERT_MSG(t->fits == fits, "number %s: fits %d", s, t->fits);
    if (fits && neg)
        FUZZ_ASSERT_MSG((unsigned __int128)(-(__int128)t->i64) == v, "number %s: i64 %" PRId64, s,
                        t->i64);
    if (fits && !neg)
        FUZZ_ASSERT_MSG(t->u64 == (uint64_t)v, "number %s: u64 %" PRIu64, s, t->u64);
}

typedef struct keyref {
    const char *text;
    size_t len, index;
} keyref;

static int by_key(const void *a, const void *b)
{
    const keyref *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->text, y->text, n);
    if (c)
        return c;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Marks in dup[] every key token that repeats an earlier key of its
 * object; returns how many. */
static size_t find_duplicates(const jrun *run, char *dup)
{
    size_t found = 0;
    size_t *stack = malloc((run->n + 1) * sizeof *stack); /* index of each open object */
    keyref *keys = malloc((run->n + 1) * sizeof *keys);
    FUZZ_CHECK_ALLOC(stack);
    FUZZ_CHECK_ALLOC(keys);
    size_t top = 0;
    for (size_t i = 0; i < run->n; i++) {
        const jtok *t = &run->t[i];
        if (t->kind == TC_JSON_OBJECT_BEGIN || t->kind == TC_JSON_ARRAY_BEGIN) {
            stack[top++] = i;
            if (!t->skipped)
                continue;
            top--;
        }
        int closes = t->kind == TC_JSON_OBJECT_END || t->kind == TC_JSON_ARRAY_END;
        if (!closes)
            continue;
        size_t open = stack[--top];
        if (t->kind != TC_JSON_OBJECT_END)
            continue;
        /* This object's own keys: depth one more than the object's parent. */
        size_t nk = 0;
        unsigned depth = run->t[open].depth;
        for (size_t k = open + 1; k < i; k++)
            if (run->t[k].kind == TC_JSON_KEY && run->t[k].depth == depth)
                keys[nk++] = (keyref){run->t[k].text, run->t[k].len, k};
        if (nk)
            qsort(keys, nk, sizeof *keys, by_key);
        for (size_t k = 1; k < nk; k++)
            if (keys[k].len == keys[k - 1].len &&
                memcmp(keys[k].text, keys[k - 1].text, keys[k].len) == 0) {
                dup[keys[k].index] = 1;
                found++;
            }
    }
    /* Objects left open by an error: their keys so far. */
    while (top > 0) {
        size_t open = stack[--top];
        if (run->t[open].kind != TC_JSON_OBJECT_BEGIN)
            continue;
        size_t nk = 0;
        unsigned depth = run->t[open].depth;
        for (size_t k = open + 1; k < run->n; k++) {
            if (run->t[k].depth < depth)
                break;
            if (run->t[k].kind == TC_JSON_KEY && run->t[k].depth == depth)
                keys[nk++] = (keyref){run->t[k].text, run->t[k].len, k};
        }
        if (nk)
            qsort(keys, nk, sizeof *keys, by_key);
        for (size_t k = 1; k < nk; k++)
            if (keys[k].len == keys[k - 1].len &&
                memcmp(keys[k].text, keys[k - 1].text, keys[k].len) == 0 && !dup[keys[k].index]) {
                dup[keys[k].index] = 1;
                found++;
            }
    }
    free(stack);
    free(keys);
    return found;
}

static void check_run(const jrun *run, const uint8_t *p, size_t n)
{
    ofz_check_diags_well_formed(&run->d, "TC");
    /* Tokens: order, place, kind, nesting, depth, line:column. */
    char *stack = malloc(run->n + 1); /* '{' or '[' of each open container */
    FUZZ_CHECK_ALLOC(stack);
    size_t top = 0;
    int want_key = 0, done = 0;
    uint64_t prev_end = 0;
    char sep = 0; /* what separates the last token from the next: ':', ',' or nothing */
    for (size_t i = 0; i < run->n; i++) {
        const jtok *t = &run->t[i];
        FUZZ_ASSERT_MSG(!done, "a token at %" PRIu64 " after the top-level value", t->offset);
        FUZZ_ASSERT_MSG(t->offset >= prev_end && t->offset < n && t->end > t->offset &&
                            t->end <= n,
                        "token %zu at %" PRIu64 "-%" PRIu64 " (the one before ends at %" PRIu64
                        ", the input has %zu bytes)", i, t->offset, t->end, prev_end, n);
        /* Between tokens: white space, the byte order mark at the start, and
         * exactly one ':' after a key, one ',' between members. */
        if (t->kind == TC_JSON_OBJECT_END || t->kind == TC_JSON_ARRAY_END)
            sep = sep == ':' ? ':' : 0;
        int seps = 0;
        for (uint64_t k = prev_end; k < t->offset; k++) {
            if (sep && p[k] == (uint8_t)sep) {
                seps++;
                continue;
            }
            FUZZ_ASSERT_MSG(ws(p[k]) || (k < 3 && i == 0 && p[0] == 0xef),
                            "byte 0x%02x at %" PRIu64 " between tokens", p[k], k);
        }
        FUZZ_ASSERT_MSG(seps == (sep != 0), "%d '%c' before the token at %" PRIu64, seps,
                        sep ? sep : '-', t->offset);
        prev_end = t->end;
        sep = t->kind == TC_JSON_KEY ? ':' : 0;
        uint32_t line, column;
        ofz_line_column(p, n, t->offset, &line, &column);
        FUZZ_ASSERT_MSG(t->line == line && t->column == column,
                        "token at %" PRIu64 " is at %" PRIu32 ":%" PRIu32 ", not %" PRIu32
                        ":%" PRIu32, t->offset, t->line, t->column, line, column);
        uint8_t c = p[t->offset];
        static const char *const literal[] = {[TC_JSON_TRUE] = "true", [TC_JSON_FALSE] = "false",
                                              [TC_JSON_NULL] = "null"};
        switch (t->kind) {
        case TC_JSON_OBJECT_BEGIN: FUZZ_ASSERT(c == '{'); break;
        case TC_JSON_ARRAY_BEGIN: FUZZ_ASSERT(c == '['); break;
        case TC_JSON_OBJECT_END: FUZZ_ASSERT(c == '}'); break;
        case TC_JSON_ARRAY_END: FUZZ_ASSERT(c == ']'); break;
        case TC_JSON_KEY:
        case TC_JSON_STRING:
            FUZZ_ASSERT_MSG(c == '"' && p[t->end - 1] == '"' && t->end - t->offset >= 2,
                            "a string token at %" PRIu64 "-%" PRIu64 " is not in quotes",
                            t->offset, t->end);
            break;
        case TC_JSON_NUMBER: check_number(t, p); break;
        case TC_JSON_TRUE:
        case TC_JSON_FALSE:
        case TC_JSON_NULL: {
            const char *w = literal[t->kind];
            FUZZ_ASSERT(t->end - t->offset == strlen(w) && memcmp(p + t->offset, w, strlen(w)) == 0);
            break;
        }
        default: FUZZ_FAIL("token kind %d", t->kind);
        }
        /* Nesting: keys exactly where an object's member begins. */
        int in_object = top > 0 && stack[top - 1] == '{';
        if (t->kind == TC_JSON_OBJECT_END || t->kind == TC_JSON_ARRAY_END) {
            FUZZ_ASSERT_MSG(top > 0 && stack[top - 1] == (t->kind == TC_JSON_OBJECT_END ? '{' : '['),
                            "a closing token at %" PRIu64 " that closes nothing", t->offset);
            FUZZ_ASSERT_MSG(!in_object || want_key, "'}' at %" PRIu64 " after a key", t->offset);
            top--;
        } else if (t->kind == TC_JSON_KEY) {
            FUZZ_ASSERT_MSG(in_object && want_key, "a key at %" PRIu64 " where none belongs",
                            t->offset);
            want_key = 0;
            FUZZ_ASSERT(t->depth == top);
            continue;
        } else {
            FUZZ_ASSERT_MSG(!in_object || !want_key, "a value at %" PRIu64 " where a key belongs",
                            t->offset);
            if ((t->kind == TC_JSON_OBJECT_BEGIN || t->kind == TC_JSON_ARRAY_BEGIN) && !t->skipped) {
                stack[top++] = t->kind == TC_JSON_OBJECT_BEGIN ? '{' : '[';
                FUZZ_ASSERT_MSG(top <= TC_JSON_MAX_DEPTH, "nested %zu deep", top);
                want_key = t->kind == TC_JSON_OBJECT_BEGIN;
                FUZZ_ASSERT(t->depth == top);
                continue;
            }
        }
        FUZZ_ASSERT_MSG(t->depth == top, "token at %" PRIu64 ": depth %u, nesting %zu", t->offset,
                        t->depth, top);
        if (top == 0) {
            done = 1;
        } else {
            want_key = stack[top - 1] == '{';
            sep = ','; /* unless the container ends next */
        }
    }
    free(stack);

    /* Findings. */
    size_t fatal = 0;
    for (size_t i = 0; i < run->d.n; i++) {
        const ofz_diag *d = &run->d.v[i];
        uint32_t line, column;
        ofz_line_column(p, n, d->offset, &line, &column);
        FUZZ_ASSERT_MSG(d->offset <= n && d->line == line && d->column == column && d->path,
                        "%s at %" PRIu64 " is at %" PRIu32 ":%" PRIu32 ", not %" PRIu32
                        ":%" PRIu32, tc_rules[d->rule].id, d->offset, d->line, d->column, line,
                        column);
        if (is_fatal(d->rule)) {
            fatal++;
            FUZZ_ASSERT_MSG(i == run->d.n - 1, "%s at %" PRIu64 " is not the last finding",
                            tc_rules[d->rule].id, d->offset);
            FUZZ_ASSERT_MSG(d->offset >= prev_end, "%s at %" PRIu64 " before the end of the "
                            "last token (%" PRIu64 ")", tc_rules[d->rule].id, d->offset, prev_end);
        }
    }
    if (run->rc == 0) {
        FUZZ_ASSERT_MSG(done && fatal == 0, "a complete document %s",
                        done ? "with an error" : "without a whole value");
        for (uint64_t k = prev_end; k < n; k++)
            FUZZ_ASSERT_MSG(ws(p[k]), "a complete document with byte 0x%02x at %" PRIu64, p[k], k);
    } else {
        FUZZ_ASSERT_MSG(fatal == 1, "a document ended by %zu errors", fatal);
    }
    int bom = n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf;
    size_t boms = 0;
    for (size_t i = 0; i < run->d.n; i++)
        if (run->d.v[i].rule == TC_RULE_JSON_BOM) {
            boms++;
            FUZZ_ASSERT(run->d.v[i].offset == 0 && run->d.v[i].length == 3);
        }
    FUZZ_ASSERT_MSG(boms == (size_t)bom, "%zu TC-JSON-BOM for %s", boms, bom ? "a BOM" : "none");

    /* TC-JSON-DUPLICATE-KEY exactly at the repeated keys. */
    char *dup = calloc(run->n + 1, 1);
    FUZZ_CHECK_ALLOC(dup);
    size_t ndup = find_duplicates(run, dup);
    size_t reported = 0;
    for (size_t i = 0; i < run->d.n; i++) {
        const ofz_diag *d = &run->d.v[i];
        if (d->rule != TC_RULE_JSON_DUPLICATE_KEY)
            continue;
        reported++;
        size_t k = 0;
        while (k < run->n && run->t[k].offset != d->offset)
            k++;
        FUZZ_ASSERT_MSG(k < run->n && run->t[k].kind == TC_JSON_KEY && dup[k],
                        "TC-JSON-DUPLICATE-KEY at %" PRIu64 ", where no key repeats", d->offset);
    }
    FUZZ_ASSERT_MSG(reported == ndup, "%zu repeated keys, %zu TC-JSON-DUPLICATE-KEY", ndup,
                    reported);
    free(dup);
}

/* ---- cJSON ---- */

/* Whether offset x of p lies inside a string, by a reading of the bytes
 * before it (which tracecheck accepted up to its error). */
static int in_string_at(const uint8_t *p, size_t x)
{
    int in = 0;
    for (size_t i = 0; i < x; i++) {
        if (!in) {
            in = p[i] == '"';
        } else if (p[i] == '\\') {
            i++;
        } else if (p[i] == '"') {
            in = 0;
        }
    }
    return in;
}

static int hexdigit(uint8_t c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int number_char(uint8_t c)
{
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

/* Whether p[0..n) is a complete RFC 8259 number. */
static int rfc_number(const uint8_t *p, size_t n)
{
    size_t i = 0;
    if (i < n && p[i] == '-')
        i++;
    if (i < n && p[i] == '0') {
        i++;
    } else if (i < n && p[i] >= '1' && p[i] <= '9') {
        while (i < n && p[i] >= '0' && p[i] <= '9')
            i++;
    } else {
        return 0;
    }
    if (i < n && p[i] == '.') {
        size_t d = ++i;
        while (i < n && p[i] >= '0' && p[i] <= '9')
            i++;
        if (i == d)
            return 0;
    }
    if (i < n && (p[i] == 'e' || p[i] == 'E')) {
        i++;
        if (i < n && (p[i] == '+' || p[i] == '-'))
            i++;
        size_t d = i;
        while (i < n && p[i] >= '0' && p[i] <= '9')
            i++;
        if (i == d)
            return 0;
    }
    return i == n;
}

/* strtod on the number characters at p, as cJSON's parse_number hands them
 * over: how many bytes it reads, and the value. */
static size_t strtod_at(const uint8_t *p, size_t n, double *v)
{
    size_t k = 0;
    while (k < n && number_char(p[k]))
        k++;
    char *buf = malloc(k + 1), *end;
    FUZZ_CHECK_ALLOC(buf);
    memcpy(buf, p, k);
    buf[k] = '\0';
    *v = strtod(buf, &end);
    size_t used = (size_t)(end - buf);
    free(buf);
    return used;
}

static int same_double(double a, double b)
{
    return a == b && signbit(a) == signbit(b);
}

/* Compares the value starting at token i with cJSON's c; returns the index
 * of the token after it. */
static size_t compare_value(const jrun *run, size_t i, const cJSON *c)
{
    FUZZ_ASSERT_MSG(i < run->n, "cJSON has a value where tracecheck's tokens end");
    const jtok *t = &run->t[i];
    switch (t->kind) {
    case TC_JSON_OBJECT_BEGIN:
    case TC_JSON_ARRAY_BEGIN: {
        int object = t->kind == TC_JSON_OBJECT_BEGIN;
        FUZZ_ASSERT_MSG(object ? cJSON_IsObject(c) : cJSON_IsArray(c),
                        "%s: tracecheck reads %s, cJSON type %d", t->path,
                        object ? "an object" : "an array", c->type);
        const cJSON *kid = c->child;
        size_t k = i + 1, members = 0;
        while (k < run->n && run->t[k].kind != (object ? TC_JSON_OBJECT_END : TC_JSON_ARRAY_END)) {
            FUZZ_ASSERT_MSG(kid, "%s: cJSON has %zu members, tracecheck more", t->path, members);
            if (object) {
                const jtok *key = &run->t[k];
                FUZZ_ASSERT(key->kind == TC_JSON_KEY);
                size_t z = strnlen(key->text, key->len); /* CJSON_NUL_ENDS_STRINGS */
                if (z < key->len)
                    count(CJSON_NUL_ENDS_STRINGS);
                FUZZ_ASSERT_MSG(kid->string && strlen(kid->string) == z &&
                                    memcmp(kid->string, key->text, z) == 0,
                                "%s: member %zu is \"%.*s\" to tracecheck, \"%s\" to cJSON",
                                t->path, members, (int)(z > 60 ? 60 : z), key->text,
                                kid->string ? kid->string : "(none)");
                k++;
            }
            k = compare_value(run, k, kid);
            kid = kid->next;
            members++;
        }
        FUZZ_ASSERT_MSG(k < run->n, "%s: tracecheck's tokens end inside it", t->path);
        FUZZ_ASSERT_MSG(!kid, "%s: cJSON has more than tracecheck's %zu members", t->path,
                        members);
        return k + 1;
    }
    case TC_JSON_STRING: {
        FUZZ_ASSERT_MSG(cJSON_IsString(c) && c->valuestring, "%s: a string to tracecheck, cJSON "
                        "type %d", t->path, c->type);
        size_t z = strnlen(t->text, t->len);
        if (z < t->len)
            count(CJSON_NUL_ENDS_STRINGS);
        FUZZ_ASSERT_MSG(strlen(c->valuestring) == z && memcmp(c->valuestring, t->text, z) == 0,
                        "%s: the string is \"%.*s\" to tracecheck, \"%.60s\" to cJSON", t->path,
                        (int)(z > 60 ? 60 : z), t->text, c->valuestring);
        return i + 1;
    }
    case TC_JSON_NUMBER: {
        FUZZ_ASSERT_MSG(cJSON_IsNumber(c), "%s: a number to tracecheck, cJSON type %d", t->path,
                        c->type);
        double d = c->valuedouble, v;
        count(CJSON_NUMBERS_AS_DOUBLES);
        size_t used = strtod_at((const uint8_t *)t->text, t->len, &v);
        FUZZ_ASSERT_MSG(used == t->len && same_double(v, d),
                        "%s: the number %s is %.17g to cJSON", t->path, t->text, d);
        if (t->integer && t->fits) {
            double x = t->negative ? (double)t->i64 : (double)t->u64;
            FUZZ_ASSERT_MSG(x == d, "%s: the integer %s converts to %.17g, cJSON has %.17g",
                            t->path, t->text, x, d);
            int small = t->negative ? t->i64 >= -(INT64_C(1) << 53)
                                    : t->u64 <= (UINT64_C(1) << 53);
            if (small)
                FUZZ_ASSERT_MSG(t->negative ? (int64_t)d == t->i64 : (uint64_t)d == t->u64,
                                "%s: the integer %s is not exactly cJSON's %.17g", t->path,
                                t->text, d);
        } else if (t->integer) {
            FUZZ_ASSERT_MSG(t->negative ? d <= -0x1p63 : d >= 0x1p64,
                            "%s: %s does not fit in 64 bits, but cJSON has %.17g", t->path,
                            t->text, d);
        }
        return i + 1;
    }
    case TC_JSON_TRUE: FUZZ_ASSERT_MSG(cJSON_IsTrue(c), "%s: true", t->path); return i + 1;
    case TC_JSON_FALSE: FUZZ_ASSERT_MSG(cJSON_IsFalse(c), "%s: false", t->path); return i + 1;
    case TC_JSON_NULL: FUZZ_ASSERT_MSG(cJSON_IsNull(c), "%s: null", t->path); return i + 1;
    default: FUZZ_FAIL("%s: token kind %d where a value begins", t->path, t->kind);
    }
}

/* A copy of p with [a, b) replaced by the n bytes of r. */
static uint8_t *splice(const uint8_t *p, size_t size, size_t a, size_t b, const char *r, size_t n,
                       size_t *out)
{
    uint8_t *q = malloc(size - (b - a) + n + 1);
    FUZZ_CHECK_ALLOC(q);
    memcpy(q, p, a);
    memcpy(q + a, r, n);
    memcpy(q + a + n, p + b, size - b);
    *out = size - (b - a) + n;
    return q;
}

#define MAX_ROUNDS 8

static void differential(const uint8_t *p, size_t size, int round);

/* What goes on after a class applied: another round on other bytes. */
static void again(uint8_t *q, size_t n, int round)
{
    /* An exact-size copy, so that ASan sees a read past its end. */
    uint8_t *exact = malloc(n ? n : 1);
    FUZZ_CHECK_ALLOC(exact);
    memcpy(exact, q, n);
    free(q);
    differential(exact, n, round + 1);
    free(exact);
}

static void differential(const uint8_t *p, size_t size, int round)
{
    if (round >= MAX_ROUNDS)
        return;
    jrun run;
    tc_reader r;
    tc_reader_init_memory(&r, p, size);
    tokenize(&run, &r, 0);
    if (round > 0)
        check_run(&run, p, size);

    const char *end = NULL;
    cJSON *c = size ? cJSON_ParseWithLengthOpts((const char *)p, size, &end, 0) : NULL;
    size_t e = c ? (size_t)(end - (const char *)p) : 0;
    FUZZ_ASSERT_MSG(!c || e <= size, "cJSON's parse end %zu is past the input's %zu bytes", e,
                    size);
    int cj_all = 0; /* cJSON read the whole input: only white space after its value */
    if (c) {
        cj_all = 1;
        for (size_t k = e; k < size; k++)
            cj_all &= ws(p[k]);
    }
    const ofz_diag *fatal = NULL;
    size_t dups = 0;
    for (size_t i = 0; i < run.d.n; i++) {
        if (is_fatal(run.d.v[i].rule))
            fatal = &run.d.v[i];
        dups += run.d.v[i].rule == TC_RULE_JSON_DUPLICATE_KEY;
    }
    int tc_ok = run.rc == 0 && run.d.errors == 0;
    if (run.d.warnings && run.rc == 0)
        count(CJSON_BOM_IGNORED);
    if (g_verbose)
        fprintf(stderr, "json_tokens: round %d: tracecheck %s%s, cJSON %s (end %zu of %zu)\n",
                round, tc_ok ? "accepts" : "rejects",
                fatal ? tc_rules[fatal->rule].id : "", c ? (cj_all ? "accepts" : "reads a prefix")
                                                         : "rejects", e, size);

    if (run.rc == 0 && c && cj_all) {
        /* Both read the whole document: the same values. */
        if (dups) {
            count(CJSON_DUPLICATE_KEYS);
        } else {
            g_agree_accept += round == 0;
        }
        size_t next = compare_value(&run, 0, c);
        FUZZ_ASSERT_MSG(next == run.n, "tracecheck has %zu tokens after cJSON's value", run.n - next);
    } else if (run.rc == 0) {
        /* tracecheck read a whole document (repeated keys aside), cJSON
         * failed or stopped early. */
        int bom_short = size < 5 && size >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf;
        if (bom_short)
            count(CJSON_BOM_SHORT_INPUT);
        else
            FUZZ_FAIL("unlisted divergence from cJSON: tracecheck reads a whole document, cJSON "
                      "%s (see fuzz/json_cjson_allowlist.h)",
                      c ? "stops early" : "rejects it");
    } else if (!c) {
        g_agree_reject += round == 0; /* both reject */
    } else {
        /* tracecheck's error, cJSON's value. */
        FUZZ_ASSERT(fatal != NULL);
        size_t x = (size_t)fatal->offset;
        tc_rule_id rule = fatal->rule;
        int in_string = x < size && in_string_at(p, x);
        uint8_t at = x < size ? p[x] : 0;
        size_t n2;
        if (!cj_all && x >= e && explains(CJSON_TRAILING_DATA, rule)) {
            count(CJSON_TRAILING_DATA);
            again(splice(p, size, e, size, "", 0, &n2), n2, round);
        } else if (rule == TC_RULE_JSON_SYNTAX && x < size && !in_string && at < 0x20) {
            count(CJSON_CONTROL_AS_WHITESPACE);
            again(splice(p, size, x, x + 1, " ", 1, &n2), n2, round);
        } else if (rule == TC_RULE_JSON_SYNTAX && x < size && in_string && at < 0x20) {
            char esc[8];
            snprintf(esc, sizeof esc, "\\u%04x", at);
            count(CJSON_RAW_CONTROL_IN_STRING);
            again(splice(p, size, x, x + 1, esc, 6, &n2), n2, round);
        } else if (rule == TC_RULE_JSON_SYNTAX && in_string && at == '\\' && x + 6 <= size &&
                   p[x + 1] == 'u' &&
                   !(hexdigit(p[x + 2]) && hexdigit(p[x + 3]) && hexdigit(p[x + 4]) &&
                     hexdigit(p[x + 5]))) {
            count(CJSON_BAD_HEX_ESCAPE);
            again(splice(p, size, x, x + 6, "\\u0000", 6, &n2), n2, round);
        } else if (rule == TC_RULE_JSON_ENCODING && in_string && x < size && at >= 0x80) {
            count(CJSON_UNCHECKED_UTF8);
        } else if (rule == TC_RULE_JSON_DEPTH && run.n > 0 &&
                   run.t[run.n - 1].depth == TC_JSON_MAX_DEPTH && x > 0 &&
                   (p[x - 1] == '[' || p[x - 1] == '{')) {
            count(CJSON_DEPTH_LIMIT);
        } else {
            /* A number strtod reads further than RFC 8259 allows. */
            size_t s = x;
            while (s > 0 && number_char(p[s - 1]))
                s--;
            double v = 0;
            size_t used = s < x ? strtod_at(p + s, size - s, &v) : 0;
            int lax = rule == TC_RULE_JSON_SYNTAX && !in_string && s < x &&
                      (p[s] == '-' || (p[s] >= '0' && p[s] <= '9')) && s + used >= x &&
                      (!rfc_number(p + s, x - s) || (x < size && p[x] >= '0' && p[x] <= '9'));
            if (!lax)
                FUZZ_FAIL("unlisted divergence from cJSON: tracecheck reports %s at %zu (byte "
                          "0x%02x, %s a string), cJSON reads a value of %zu bytes (see "
                          "fuzz/json_cjson_allowlist.h)", tc_rules[rule].id, x, at,
                          in_string ? "inside" : "outside", e);
            count(CJSON_LAX_NUMBERS);
            char num[40];
            int len = isfinite(v) ? snprintf(num, sizeof num, "%.17g", v)
                                  : snprintf(num, sizeof num, "%s1e999", v < 0 ? "-" : "");
            again(splice(p, size, s, s + used, num, (size_t)len, &n2), n2, round);
        }
    }
    cJSON_Delete(c);
    jrun_free(&run);
}

/* ---- the harness ---- */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup();
    g_runs++;
    uint32_t h = ofz_hash(data, size);

    jrun base, other;
    tc_reader r;
    tc_reader_init_memory(&r, data, size);
    tokenize(&base, &r, 0);
    check_run(&base, data, size);

    tc_reader_init_memory(&r, data, size);
    tokenize(&other, &r, h | 1);
    compare_skip(&base, &other);
    jrun_free(&other);

    /* Through files, as inputs are read: read() with tiny windows, and
     * sliding mmap windows (every other input). A compressed input would be
     * decompressed on that path only. */
    if (tc_detect_compression(data, size) == TC_COMP_NONE) {
        static const size_t windows[] = {1, 2, 3, 5, 8, 13, 16, 17, 31, 64, 65, 100, 127, 128,
                                         129, 255, 4096};
        static const size_t map_windows[] = {100, 1000, 4095, 4096, 4097, 12288};
        for (int mmap = 0; mmap < 2; mmap++) {
            if (mmap && (h & 2))
                continue;
            size_t w = mmap ? map_windows[(h >> 8) % 6]
                            : windows[(h >> 4) % (sizeof windows / sizeof windows[0])];
            ofz_file *f = ofz_file_open(data, size, w, !mmap);
            if (!f)
                break;
            tokenize(&other, ofz_file_reader(f), 0);
            char what[64];
            snprintf(what, sizeof what, "%s (window %zu)", mmap ? "mmap" : "read()", w);
            compare_runs(&base, "memory", &other, what);
            jrun_free(&other);
            ofz_file_close(f);
        }
    }
    jrun_free(&base);

    differential(data, size, 0);
    return 0;
}
