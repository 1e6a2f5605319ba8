/* Independent checks of one tokenizer run: see json_oracle.h. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json_oracle.h"

/* Whether p[0..n) is a complete RFC 8259 number. */
int jo_rfc_number(const uint8_t *p, size_t n)
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

int jo_ws(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

int jo_is_fatal(tc_rule_id r)
{
    return r != TC_RULE_JSON_DUPLICATE_KEY && r != TC_RULE_JSON_BOM;
}


/* The number's grammar (RFC 8259 §6: no leading zeros, digits after '.'
 * and 'e'), and its integer value, sign and fit, from its text. */
static void check_number(const jtok *t, const uint8_t *p)
{
    FUZZ_ASSERT_MSG(t->end - t->offset == t->len && memcmp(p + t->offset, t->text, t->len) == 0,
                    "the number at %" PRIu64 " is not the input's text", t->offset);
    const char *s = t->text;
    FUZZ_ASSERT_MSG(jo_rfc_number((const uint8_t *)s, t->len),
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

/* Four hexadecimal digits (the tokenizer accepted them). */
static unsigned long hex4(const uint8_t *h)
{
    unsigned long v = 0;
    for (int i = 0; i < 4; i++)
        v = v << 4 | (unsigned long)(h[i] <= '9' ? h[i] - '0' : (h[i] | 0x20) - 'a' + 10);
    return v;
}

/* RFC 8259 section 7: a string's text is its bytes between the quotes with
 * the escapes decoded, a high surrogate escape and the low one after it as
 * one code point. The tokenizer delivered the token: the escapes are
 * whole, and a lone surrogate was its to reject. */
static void check_string(const jtok *t, const uint8_t *p)
{
    const uint8_t *s = p + t->offset + 1, *e = p + t->end - 1;
    size_t k = 0;
    while (s < e) {
        uint8_t out[4];
        size_t n = 1;
        if (*s != '\\') {
            out[0] = *s++;
        } else {
            static const char in[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
            const char *c = s[1] ? strchr(in, s[1]) : NULL;
            if (c) {
                out[0] = (uint8_t)to[c - in];
                s += 2;
            } else {
                FUZZ_ASSERT_MSG(s[1] == 'u', "accepted the escape \\%c at %" PRIu64, s[1],
                                (uint64_t)(s - p));
                unsigned long cp = hex4(s + 2);
                s += 6;
                if (cp >= 0xd800 && cp <= 0xdbff && e - s >= 6 && s[0] == '\\' && s[1] == 'u') {
                    unsigned long lo = hex4(s + 2);
                    if (lo >= 0xdc00 && lo <= 0xdfff) {
                        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                        s += 6;
                    }
                }
                FUZZ_ASSERT_MSG(cp < 0xd800 || cp > 0xdfff,
                                "the string at %" PRIu64 " holds the lone surrogate U+%04lX",
                                t->offset, cp);
                if (cp < 0x80) {
                    out[0] = (uint8_t)cp;
                } else if (cp < 0x800) {
                    out[0] = (uint8_t)(0xc0 | cp >> 6);
                    out[1] = (uint8_t)(0x80 | (cp & 0x3f));
                    n = 2;
                } else if (cp < 0x10000) {
                    out[0] = (uint8_t)(0xe0 | cp >> 12);
                    out[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
                    out[2] = (uint8_t)(0x80 | (cp & 0x3f));
                    n = 3;
                } else {
                    out[0] = (uint8_t)(0xf0 | cp >> 18);
                    out[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3f));
                    out[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
                    out[3] = (uint8_t)(0x80 | (cp & 0x3f));
                    n = 4;
                }
            }
        }
        FUZZ_ASSERT_MSG(k + n <= t->len && memcmp(t->text + k, out, n) == 0,
                        "the string at %" PRIu64 " decodes differently at byte %zu of its text",
                        t->offset, k);
        k += n;
    }
    FUZZ_ASSERT_MSG(k == t->len, "the string at %" PRIu64 " has %zu bytes of text, its escapes "
                    "decode to %zu", t->offset, t->len, k);
}

/* ---- tokens: order, place, kind, nesting, depth, line:column ---- */

/* What the tokens so far leave open. */
typedef struct nesting {
    char *stack; /* '{' or '[' of each open container */
    size_t top;
    int want_key, done; /* done: the top-level value is whole */
    uint64_t prev_end;  /* the end of the last token */
    char sep; /* what separates the last token from the next: ':', ',' or nothing */
} nesting;

/* Between the last token and token i, t: white space, the byte order mark
 * at the start, and exactly one ':' after a key, one ',' between members. */
static void check_between(nesting *s, const jtok *t, size_t i, const uint8_t *p)
{
    if (t->kind == TC_JSON_OBJECT_END || t->kind == TC_JSON_ARRAY_END)
        s->sep = s->sep == ':' ? ':' : 0;
    int seps = 0;
    for (uint64_t k = s->prev_end; k < t->offset; k++) {
        if (s->sep && p[k] == (uint8_t)s->sep) {
            seps++;
            continue;
        }
        FUZZ_ASSERT_MSG(jo_ws(p[k]) || (k < 3 && i == 0 && p[0] == 0xef),
                        "byte 0x%02x at %" PRIu64 " between tokens", p[k], k);
    }
    FUZZ_ASSERT_MSG(seps == (s->sep != 0), "%d '%c' before the token at %" PRIu64, seps,
                    s->sep ? s->sep : '-', t->offset);
}

/* The token's bytes: the byte its kind starts with, a string's quotes and
 * text, a number, a literal. */
static void check_token_text(const jtok *t, const uint8_t *p)
{
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
        check_string(t, p);
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
}

/* Nesting: keys exactly where an object's member begins, closing tokens
 * that close what is open, the depth the tokenizer says. */
static void check_nesting(nesting *s, const jtok *t)
{
    int in_object = s->top > 0 && s->stack[s->top - 1] == '{';
    if (t->kind == TC_JSON_OBJECT_END || t->kind == TC_JSON_ARRAY_END) {
        FUZZ_ASSERT_MSG(s->top > 0 &&
                            s->stack[s->top - 1] == (t->kind == TC_JSON_OBJECT_END ? '{' : '['),
                        "a closing token at %" PRIu64 " that closes nothing", t->offset);
        FUZZ_ASSERT_MSG(!in_object || s->want_key, "'}' at %" PRIu64 " after a key", t->offset);
        s->top--;
    } else if (t->kind == TC_JSON_KEY) {
        FUZZ_ASSERT_MSG(in_object && s->want_key, "a key at %" PRIu64 " where none belongs",
                        t->offset);
        s->want_key = 0;
        FUZZ_ASSERT(t->depth == s->top);
        return;
    } else {
        FUZZ_ASSERT_MSG(!in_object || !s->want_key, "a value at %" PRIu64 " where a key belongs",
                        t->offset);
        if ((t->kind == TC_JSON_OBJECT_BEGIN || t->kind == TC_JSON_ARRAY_BEGIN) && !t->skipped) {
            s->stack[s->top++] = t->kind == TC_JSON_OBJECT_BEGIN ? '{' : '[';
            FUZZ_ASSERT_MSG(s->top <= TC_JSON_MAX_DEPTH, "nested %zu deep", s->top);
            s->want_key = t->kind == TC_JSON_OBJECT_BEGIN;
            FUZZ_ASSERT(t->depth == s->top);
            return;
        }
    }
    FUZZ_ASSERT_MSG(t->depth == s->top, "token at %" PRIu64 ": depth %u, nesting %zu", t->offset,
                    t->depth, s->top);
    if (s->top == 0) {
        s->done = 1;
    } else {
        s->want_key = s->stack[s->top - 1] == '{';
        s->sep = ','; /* unless the container ends next */
    }
}

static void check_tokens(const jrun *run, const uint8_t *p, size_t n, nesting *s)
{
    hx_lines at = {0};
    for (size_t i = 0; i < run->n; i++) {
        const jtok *t = &run->t[i];
        FUZZ_ASSERT_MSG(!s->done, "a token at %" PRIu64 " after the top-level value", t->offset);
        FUZZ_ASSERT_MSG(t->offset >= s->prev_end && t->offset < n && t->end > t->offset &&
                            t->end <= n,
                        "token %zu at %" PRIu64 "-%" PRIu64 " (the one before ends at %" PRIu64
                        ", the input has %zu bytes)", i, t->offset, t->end, s->prev_end, n);
        check_between(s, t, i, p);
        s->prev_end = t->end;
        s->sep = t->kind == TC_JSON_KEY ? ':' : 0;
        uint32_t line, column;
        hx_line_column_next(&at, p, n, t->offset, &line, &column);
        FUZZ_ASSERT_MSG(t->line == line && t->column == column,
                        "token at %" PRIu64 " is at %" PRIu32 ":%" PRIu32 ", not %" PRIu32
                        ":%" PRIu32, t->offset, t->line, t->column, line, column);
        check_token_text(t, p);
        check_nesting(s, t);
    }
}

/* ---- findings ---- */

/* Each finding at the line:column of its offset, with a JSON path; one
 * error, the last finding, past the last token, exactly when the document
 * is not complete (done: the top-level value is whole, ending at
 * tokens_end); TC-JSON-BOM exactly for a leading BOM. */
static void check_findings(const jrun *run, const uint8_t *p, size_t n, uint64_t tokens_end,
                           int done)
{
    hx_lines at = {0};
    size_t fatal = 0;
    for (size_t i = 0; i < run->d.n; i++) {
        const hx_finding *d = &run->d.v[i];
        uint32_t line, column;
        hx_line_column_next(&at, p, n, d->offset, &line, &column);
        FUZZ_ASSERT_MSG(d->offset <= n && d->line == line && d->column == column && d->path,
                        "%s at %" PRIu64 " is at %" PRIu32 ":%" PRIu32 ", not %" PRIu32
                        ":%" PRIu32, tc_rules[d->rule].id, d->offset, d->line, d->column, line,
                        column);
        if (jo_is_fatal(d->rule)) {
            fatal++;
            FUZZ_ASSERT_MSG(i == run->d.n - 1, "%s at %" PRIu64 " is not the last finding",
                            tc_rules[d->rule].id, d->offset);
            FUZZ_ASSERT_MSG(d->offset >= tokens_end, "%s at %" PRIu64 " before the end of the "
                            "last token (%" PRIu64 ")", tc_rules[d->rule].id, d->offset,
                            tokens_end);
        }
    }
    if (run->rc == 0) {
        FUZZ_ASSERT_MSG(done && fatal == 0, "a complete document %s",
                        done ? "with an error" : "without a whole value");
        for (uint64_t k = tokens_end; k < n; k++)
            FUZZ_ASSERT_MSG(jo_ws(p[k]), "a complete document with byte 0x%02x at %" PRIu64, p[k], k);
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
}

/* TC-JSON-DUPLICATE-KEY exactly at the repeated keys. */
static void check_duplicate_keys(const jrun *run)
{
    char *dup = calloc(run->n + 1, 1);
    FUZZ_CHECK_ALLOC(dup);
    size_t ndup = find_duplicates(run, dup);
    size_t reported = 0;
    for (size_t i = 0; i < run->d.n; i++) {
        const hx_finding *d = &run->d.v[i];
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

void jo_check_run(const jrun *run, const uint8_t *p, size_t n)
{
    hx_check_well_formed(&run->d, "TC");
    nesting s = {.stack = malloc(run->n + 1)};
    FUZZ_CHECK_ALLOC(s.stack);
    check_tokens(run, p, n, &s);
    free(s.stack);
    check_findings(run, p, n, s.prev_end, s.done);
    check_duplicate_keys(run);
}
