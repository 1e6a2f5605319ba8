/* tracecheck's JSON tokenizer against cJSON: see json_cjson_oracle.h. */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_cjson_allowlist.h"
#include "json_oracle.h"
#include "json_cjson_oracle.h"

/* A token's JSON path for a message (tokens of later rounds keep none). */
#define PATH(t) ((t)->path ? (t)->path : "(a token)")

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
static int g_stats = -1, g_verbose, g_rounds;
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
                        "%s: tracecheck reads %s, cJSON type %d", PATH(t),
                        object ? "an object" : "an array", c->type);
        const cJSON *kid = c->child;
        size_t k = i + 1, members = 0;
        while (k < run->n && run->t[k].kind != (object ? TC_JSON_OBJECT_END : TC_JSON_ARRAY_END)) {
            FUZZ_ASSERT_MSG(kid, "%s: cJSON has %zu members, tracecheck more", PATH(t), members);
            if (object) {
                const jtok *key = &run->t[k];
                FUZZ_ASSERT(key->kind == TC_JSON_KEY);
                size_t z = strnlen(key->text, key->len); /* CJSON_NUL_ENDS_STRINGS */
                if (z < key->len)
                    count(CJSON_NUL_ENDS_STRINGS);
                FUZZ_ASSERT_MSG(kid->string && strlen(kid->string) == z &&
                                    memcmp(kid->string, key->text, z) == 0,
                                "%s: member %zu is \"%.*s\" to tracecheck, \"%s\" to cJSON",
                                PATH(t), members, (int)(z > 60 ? 60 : z), key->text,
                                kid->string ? kid->string : "(none)");
                k++;
            }
            k = compare_value(run, k, kid);
            kid = kid->next;
            members++;
        }
        FUZZ_ASSERT_MSG(k < run->n, "%s: tracecheck's tokens end inside it", PATH(t));
        FUZZ_ASSERT_MSG(!kid, "%s: cJSON has more than tracecheck's %zu members", PATH(t),
                        members);
        return k + 1;
    }
    case TC_JSON_STRING: {
        FUZZ_ASSERT_MSG(cJSON_IsString(c) && c->valuestring, "%s: a string to tracecheck, cJSON "
                        "type %d", PATH(t), c->type);
        size_t z = strnlen(t->text, t->len);
        if (z < t->len)
            count(CJSON_NUL_ENDS_STRINGS);
        FUZZ_ASSERT_MSG(strlen(c->valuestring) == z && memcmp(c->valuestring, t->text, z) == 0,
                        "%s: the string is \"%.*s\" to tracecheck, \"%.60s\" to cJSON", PATH(t),
                        (int)(z > 60 ? 60 : z), t->text, c->valuestring);
        return i + 1;
    }
    case TC_JSON_NUMBER: {
        FUZZ_ASSERT_MSG(cJSON_IsNumber(c), "%s: a number to tracecheck, cJSON type %d", PATH(t),
                        c->type);
        double d = c->valuedouble, v;
        count(CJSON_NUMBERS_AS_DOUBLES);
        size_t used = strtod_at((const uint8_t *)t->text, t->len, &v);
        FUZZ_ASSERT_MSG(used == t->len && same_double(v, d),
                        "%s: the number %s is %.17g to cJSON", PATH(t), t->text, d);
        if (t->integer && t->fits) {
            double x = t->negative ? (double)t->i64 : (double)t->u64;
            FUZZ_ASSERT_MSG(x == d, "%s: the integer %s converts to %.17g, cJSON has %.17g",
                            PATH(t), t->text, x, d);
            int small = t->negative ? t->i64 >= -(INT64_C(1) << 53)
                                    : t->u64 <= (UINT64_C(1) << 53);
            if (small)
                FUZZ_ASSERT_MSG(t->negative ? (int64_t)d == t->i64 : (uint64_t)d == t->u64,
                                "%s: the integer %s is not exactly cJSON's %.17g", PATH(t),
                                t->text, d);
        } else if (t->integer) {
            FUZZ_ASSERT_MSG(t->negative ? d <= -0x1p63 : d >= 0x1p64,
                            "%s: %s does not fit in 64 bits, but cJSON has %.17g", PATH(t),
                            t->text, d);
        }
        return i + 1;
    }
    case TC_JSON_TRUE: FUZZ_ASSERT_MSG(cJSON_IsTrue(c), "%s: true", PATH(t)); return i + 1;
    case TC_JSON_FALSE: FUZZ_ASSERT_MSG(cJSON_IsFalse(c), "%s: false", PATH(t)); return i + 1;
    case TC_JSON_NULL: FUZZ_ASSERT_MSG(cJSON_IsNull(c), "%s: null", PATH(t)); return i + 1;
    default: FUZZ_FAIL("%s: token kind %d where a value begins", PATH(t), t->kind);
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


static void differential(const uint8_t *p, size_t size, int round, const jrun *given);

/* What goes on after a class applied: another round on other bytes. */
static void again(uint8_t *q, size_t n, int round)
{
    /* An exact-size copy, so that ASan sees a read past its end. */
    uint8_t *exact = malloc(n ? n : 1);
    FUZZ_CHECK_ALLOC(exact);
    memcpy(exact, q, n);
    free(q);
    differential(exact, n, round + 1, NULL);
    free(exact);
}

static void differential(const uint8_t *p, size_t size, int round, const jrun *given)
{
    if (round >= g_rounds)
        return;
    jrun own;
    const jrun *run = given;
    if (!run) {
        tc_reader r;
        tc_reader_init_memory(&r, p, size);
        js_tokenize(&own, &r, 0, 0);
        jo_check_run(&own, p, size);
        run = &own;
    }

    const char *end = NULL;
    cJSON *c = size ? cJSON_ParseWithLengthOpts((const char *)p, size, &end, 0) : NULL;
    size_t e = c ? (size_t)(end - (const char *)p) : 0;
    FUZZ_ASSERT_MSG(!c || e <= size, "cJSON's parse end %zu is past the input's %zu bytes", e,
                    size);
    int cj_all = 0; /* cJSON read the whole input: only white space after its value */
    if (c) {
        cj_all = 1;
        for (size_t k = e; k < size; k++)
            cj_all &= jo_ws(p[k]);
    }
    const hx_finding *fatal = NULL;
    size_t dups = 0;
    for (size_t i = 0; i < run->d.n; i++) {
        if (jo_is_fatal(run->d.v[i].rule))
            fatal = &run->d.v[i];
        dups += run->d.v[i].rule == TC_RULE_JSON_DUPLICATE_KEY;
    }
    int tc_ok = run->rc == 0 && run->d.errors == 0;
    if (run->d.warnings && run->rc == 0)
        count(CJSON_BOM_IGNORED);
    if (g_verbose)
        fprintf(stderr, "json_tokens: round %d: tracecheck %s%s, cJSON %s (end %zu of %zu)\n",
                round, tc_ok ? "accepts" : "rejects",
                fatal ? tc_rules[fatal->rule].id : "", c ? (cj_all ? "accepts" : "reads a prefix")
                                                         : "rejects", e, size);

    if (run->rc == 0 && c && cj_all) {
        /* Both read the whole document: the same values. */
        if (dups) {
            count(CJSON_DUPLICATE_KEYS);
        } else {
            g_agree_accept += round == 0;
        }
        size_t next = compare_value(run, 0, c);
        FUZZ_ASSERT_MSG(next == run->n, "tracecheck has %zu tokens after cJSON's value", run->n - next);
    } else if (run->rc == 0) {
        /* tracecheck read a whole document (repeated keys aside), cJSON
         * failed or stopped early. */
        int bom_short = size < 5 && size >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf;
        if (bom_short)
            count(CJSON_BOM_SHORT_INPUT);
        else
            FUZZ_FAIL("unlisted divergence from cJSON: tracecheck reads a whole document, cJSON "
                      "%s (see fuzz/common/json_cjson_allowlist.h)",
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
        } else if (rule == TC_RULE_JSON_DEPTH && run->n > 0 &&
                   run->t[run->n - 1].depth == TC_JSON_MAX_DEPTH && x > 0 &&
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
                      (!jo_rfc_number(p + s, x - s) || (x < size && p[x] >= '0' && p[x] <= '9'));
            if (!lax)
                FUZZ_FAIL("unlisted divergence from cJSON: tracecheck reports %s at %zu (byte "
                          "0x%02x, %s a string), cJSON reads a value of %zu bytes (see "
                          "fuzz/common/json_cjson_allowlist.h)", tc_rules[rule].id, x, at,
                          in_string ? "inside" : "outside", e);
            count(CJSON_LAX_NUMBERS);
            char num[40];
            int len = isfinite(v) ? snprintf(num, sizeof num, "%.17g", v)
                                  : snprintf(num, sizeof num, "%s1e999", v < 0 ? "-" : "");
            again(splice(p, size, s, s + used, num, (size_t)len, &n2), n2, round);
        }
    }
    cJSON_Delete(c);
    if (run == &own)
        jrun_free(&own);
}

void jc_differential(const jrun *run, const uint8_t *p, size_t size, int rounds)
{
    setup();
    g_runs++;
    g_rounds = rounds;
    differential(p, size, 0, run);
}
