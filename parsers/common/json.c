#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "json_simd.h"

enum state {
    /* top level */
    TOP_VALUE,
    TOP_DONE,
    /* in an object */
    OBJ_KEY_OR_END, /* after { */
    OBJ_KEY,        /* after , */
    OBJ_COLON,      /* after a key */
    OBJ_VALUE,      /* after : */
    OBJ_NEXT,       /* after a value: , or } */
    /* in an array */
    ARR_VALUE_OR_END, /* after [ */
    ARR_VALUE,        /* after , */
    ARR_NEXT,         /* after a value: , or ] */
};

/* One key of an object, for duplicate detection. */
typedef struct key_entry {
    uint64_t hash;
    size_t off, len; /* in the key arena */
    uint32_t line, column;
    uint64_t offset; /* of the key: a repeat names it */
    size_t slot;     /* its place in the table, to clear it cheaply */
} key_entry;

#define PATH_KEY_MAX 64

typedef struct level {
    char type; /* '{' or '[' */
    uint64_t index;                /* array: the element being read */
    char key[PATH_KEY_MAX + 1];    /* object: the member being read (cut for the path) */
    size_t key_len;                /* bytes in key (a key may hold NULs) */
    int key_cut;
    int key_brackets;              /* the whole key needs ["..."] in a path */
    key_entry *keys;               /* object: its keys so far */
    uint32_t *table;               /* open addressing over keys: index + 1, 0 = empty */
    size_t nkeys, keys_cap, table_cap;
    size_t arena_mark;             /* key arena length when the object began */
} level;

struct tc_json {
    tc_reader *r;
    tc_diag_sink *d;
    int state;
    int finished; /* 1 done, -1 error */
    unsigned depth;
    level *levels;       /* levels[1..depth], grown as documents nest: most */
    unsigned levels_cap; /* are shallow, and a document is often small */
    unsigned path_depth; /* levels in the path of the token just returned */
    uint32_t line;
    uint64_t line_start; /* offset of the current line's first byte */
    char *buf;           /* the current string or number */
    size_t len, cap;
    char *arena;         /* keys of the open objects */
    size_t arena_len, arena_cap;
    char *path;
    size_t path_cap;
    tc_json_token last;
    const tc_json_kernels *k; /* the first stage's, of the level in force */
};

static int grow(char **p, size_t *cap, size_t need);

/* Levels allocated at first (the document and 15 nested values), then
 * doubled up to TC_JSON_MAX_DEPTH + 1. */
#define LEVELS_START 16u

tc_json *tc_json_new(tc_reader *r, tc_diag_sink *d)
{
    tc_json *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->r = r;
    j->d = d;
    j->state = TOP_VALUE;
    j->line = 1;
    j->line_start = tc_pos(r);
    j->k = tc_json_kernels_for(tc_simd_level_get());
    /* The buffer exists from the start, with room for any integer the fast
     * path copies (at most 20 bytes and a NUL): neither needs a check. */
    if (grow(&j->buf, &j->cap, 256) || !(j->levels = calloc(LEVELS_START, sizeof *j->levels))) {
        free(j->buf);
        free(j);
        return NULL;
    }
    j->levels_cap = LEVELS_START;
    j->buf[0] = '\0';
    return j;
}

void tc_json_free(tc_json *j)
{
    if (!j)
        return;
    for (unsigned i = 0; i < j->levels_cap; i++) {
        free(j->levels[i].keys);
        free(j->levels[i].table);
    }
    free(j->levels);
    free(j->buf);
    free(j->arena);
    free(j->path);
    free(j);
}

unsigned tc_json_depth(const tc_json *j) { return j->depth; }

/* ---- growing buffers (bounded by TC_JSON_MAX_STRING) ---- */

static int grow(char **p, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 256;
    while (c < need)
        c *= 2;
    char *n = realloc(*p, c);
    if (!n)
        return -1;
    *p = n;
    *cap = c;
    return 0;
}

/* ---- locations and reporting ---- */

static uint32_t column_at(const tc_json *j, uint64_t offset)
{
    uint64_t c = offset - j->line_start + 1;
    return c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

static int needs_brackets(const char *k, size_t n)
{
    if (!n || (*k >= '0' && *k <= '9'))
        return 1;
    for (size_t i = 0; i < n; i++)
        if (!((k[i] >= 'a' && k[i] <= 'z') || (k[i] >= 'A' && k[i] <= 'Z') ||
              (k[i] >= '0' && k[i] <= '9') || k[i] == '_'))
            return 1;
    return 0;
}

/* One step of a path: [index], .key or ["key"] with the key escaped as in a
 * JSON string (so that a quote or backslash in it cannot end it early, and
 * no control character reaches a report raw). Returns its length. */
static size_t path_piece(const level *l, char *piece, size_t size)
{
    if (l->type == '[')
        return (size_t)snprintf(piece, size, "[%" PRIu64 "]", l->index);
    int brackets = l->key_brackets;
    size_t n = 0;
    if (brackets) {
        piece[n++] = '[';
        piece[n++] = '"';
    } else {
        piece[n++] = '.';
    }
    for (size_t i = 0; i < l->key_len; i++) {
        unsigned char c = (unsigned char)l->key[i];
        if (c == '"' || c == '\\') {
            piece[n++] = '\\';
            piece[n++] = (char)c;
        } else if (c < 0x20) {
            n += (size_t)snprintf(piece + n, size - n, "\\u%04x", c);
        } else {
            piece[n++] = (char)c;
        }
    }
    if (l->key_cut) {
        memcpy(piece + n, "...", 3);
        n += 3;
    }
    if (brackets) {
        piece[n++] = '"';
        piece[n++] = ']';
    }
    return n;
}

static const char *path_of(tc_json *j, unsigned depth)
{
    size_t n = 0;
    if (grow(&j->path, &j->path_cap, 2))
        return "$";
    j->path[n++] = '$';
    for (unsigned i = 1; i <= depth; i++) {
        char piece[PATH_KEY_MAX * 6 + 16]; /* six bytes per key byte at worst */
        size_t pl = path_piece(&j->levels[i], piece, sizeof piece);
        if (grow(&j->path, &j->path_cap, n + pl + 1))
            break;
        memcpy(j->path + n, piece, pl);
        n += pl;
    }
    j->path[n] = '\0';
    return j->path;
}

const char *tc_json_path(tc_json *j) { return path_of(j, j->path_depth); }

static void vreport(tc_json *j, tc_rule_id rule, uint64_t offset, uint32_t line, uint32_t column,
                    unsigned depth, const tc_diag_extra *x, const char *fmt, va_list ap)
{
    char message[400];
    vsnprintf(message, sizeof message, fmt, ap);
    tc_report_text_ex(j->d, rule, offset, 1, line, column, path_of(j, depth), x, "%s", message);
}

void tc_json_report(tc_json *j, const tc_json_token *t, tc_rule_id rule, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(j, rule, t->offset, t->line, t->column, j->path_depth, NULL, fmt, ap);
    va_end(ap);
}

void tc_json_report_ex(tc_json *j, const tc_json_token *t, tc_rule_id rule, const tc_diag_extra *x,
                       const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(j, rule, t->offset, t->line, t->column, j->path_depth, x, fmt, ap);
    va_end(ap);
}

/* An error at the read position: reported, and the document ends. */
static int fail(tc_json *j, tc_rule_id rule, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(tc_json *j, tc_rule_id rule, const char *fmt, ...)
{
    uint64_t at = tc_pos(j->r);
    va_list ap;
    va_start(ap, fmt);
    vreport(j, rule, at, j->line, column_at(j, at), j->depth, NULL, fmt, ap);
    va_end(ap);
    j->finished = -1;
    return -1;
}

/* What is at the read position, for messages. */
static const char *found(tc_json *j, char *buf, size_t size)
{
    const uint8_t *p = tc_need(j->r, 1);
    if (!p)
        return "the end of the input";
    if (*p >= 0x21 && *p <= 0x7e)
        snprintf(buf, size, "'%c'", *p);
    else
        snprintf(buf, size, "byte 0x%02x", *p);
    return buf;
}

static int unexpected(tc_json *j, const char *expected)
{
    char b[32];
    const uint8_t *p = tc_need(j->r, 2);
    if (p && p[0] == '/' && (p[1] == '/' || p[1] == '*'))
        return fail(j, TC_RULE_JSON_COMMENT, "a %s comment; JSON has none (expected %s)",
                    p[1] == '/' ? "//" : "/* */", expected);
    return fail(j, TC_RULE_JSON_SYNTAX, "expected %s, found %s", expected, found(j, b, sizeof b));
}

/* ---- white space ---- */

/* White space, a block at a time (json_simd.h): every newline counts, so
 * that line:column stay exact. */
static void skip_space(tc_json *j)
{
    tc_reader *r = j->r;
    /* Most calls find a token right away (between "[1,2]"'s tokens). */
    if (r->cur < r->end && *r->cur > ' ')
        return;
    for (;;) {
        if (r->cur == r->end && !tc_need(r, 1))
            return;
        const uint8_t *p = r->cur;
        size_t n = (size_t)(r->end - p), last = 0;
        uint64_t nl = 0;
        size_t k = j->k->space(p, n, &nl, &last);
        if (nl) {
            j->line += (uint32_t)nl;
            j->line_start = r->base_off + (uint64_t)(p - r->base) + last + 1;
        }
        r->cur = p + k;
        if (k < n)
            return;
    }
}

/* ---- strings ---- */

static int put(tc_json *j, const void *s, size_t n)
{
    if (j->len + n + 1 > TC_JSON_MAX_STRING + 1)
        return fail(j, TC_RULE_JSON_SYNTAX, "a string longer than %u bytes", TC_JSON_MAX_STRING);
    if (grow(&j->buf, &j->cap, j->len + n + 1))
        return fail(j, TC_RULE_JSON_SYNTAX, "out of memory for a %zu-byte string", j->len + n);
    memcpy(j->buf + j->len, s, n);
    j->len += n;
    j->buf[j->len] = '\0';
    return 0;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static long hex4(const uint8_t *p)
{
    long v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hexval(p[i]);
        if (h < 0)
            return -1;
        v = v << 4 | h;
    }
    return v;
}

static int put_utf8(tc_json *j, unsigned long cp)
{
    uint8_t b[4];
    size_t n;
    if (cp < 0x80) {
        b[0] = (uint8_t)cp;
        n = 1;
    } else if (cp < 0x800) {
        b[0] = (uint8_t)(0xc0 | cp >> 6);
        b[1] = (uint8_t)(0x80 | (cp & 0x3f));
        n = 2;
    } else if (cp < 0x10000) {
        b[0] = (uint8_t)(0xe0 | cp >> 12);
        b[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
        b[2] = (uint8_t)(0x80 | (cp & 0x3f));
        n = 3;
    } else {
        b[0] = (uint8_t)(0xf0 | cp >> 18);
        b[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3f));
        b[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
        b[3] = (uint8_t)(0x80 | (cp & 0x3f));
        n = 4;
    }
    return put(j, b, n);
}

/* A backslash escape at the read position. */
static int escape(tc_json *j)
{
    tc_reader *r = j->r;
    const uint8_t *p = tc_need(r, 2);
    if (!p)
        return fail(j, TC_RULE_JSON_SYNTAX, "the input ends inside a string");
    static const char simple_in[] = "\"\\/bfnrt", simple_out[] = "\"\\/\b\f\n\r\t";
    const char *s = p[1] ? strchr(simple_in, p[1]) : NULL;
    if (s) {
        tc_advance(r, 2);
        return put(j, &simple_out[s - simple_in], 1);
    }
    if (p[1] != 'u') {
        char b[32];
        tc_advance(r, 1);
        return fail(j, TC_RULE_JSON_SYNTAX, "unknown escape \\%s in a string",
                    found(j, b, sizeof b));
    }
    if (!(p = tc_need(r, 6)) || hex4(p + 2) < 0)
        return fail(j, TC_RULE_JSON_SYNTAX, "\\u must be followed by 4 hexadecimal digits");
    unsigned long cp = (unsigned long)hex4(p + 2);
    if (cp >= 0xdc00 && cp <= 0xdfff)
        return fail(j, TC_RULE_JSON_ENCODING, "\\u%04lx is a low surrogate without a high one", cp);
    if (cp >= 0xd800 && cp <= 0xdbff) {
        p = tc_need(r, 12);
        long lo = p && p[6] == '\\' && p[7] == 'u' ? hex4(p + 8) : -1;
        if (lo < 0xdc00 || lo > 0xdfff)
            return fail(j, TC_RULE_JSON_ENCODING,
                        "\\u%04lx is a high surrogate not followed by a low one", cp);
        cp = 0x10000 + ((cp - 0xd800) << 10) + ((unsigned long)lo - 0xdc00);
        tc_advance(r, 12);
    } else {
        tc_advance(r, 6);
    }
    return put_utf8(j, cp);
}

/* The length of the valid UTF-8 sequence at p (*p >= 0x80) when it lies
 * whole before e, else 0: utf8() then reports it or reads across the
 * window's end. The same checks as utf8(). */
static size_t utf8_valid(const uint8_t *p, const uint8_t *e)
{
    uint8_t b0 = p[0];
    if (b0 < 0xc2 || b0 > 0xf4)
        return 0;
    size_t n = b0 >= 0xf0 ? 4 : b0 >= 0xe0 ? 3 : 2;
    if ((size_t)(e - p) < n)
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if ((b0 == 0xe0 && p[1] < 0xa0) || (b0 == 0xf0 && p[1] < 0x90) ||
        (b0 == 0xed && p[1] >= 0xa0) || (b0 == 0xf4 && p[1] >= 0x90))
        return 0;
    return n;
}

/* A UTF-8 sequence starting with byte b0 (>= 0x80) at the read position. */
static int utf8(tc_json *j, uint8_t b0)
{
    size_t n = b0 >= 0xf0 ? 4 : b0 >= 0xe0 ? 3 : 2;
    if (b0 < 0xc2 || b0 > 0xf4)
        return fail(j, TC_RULE_JSON_ENCODING, "byte 0x%02x cannot start a UTF-8 sequence", b0);
    const uint8_t *p = tc_need(j->r, n);
    if (!p)
        return fail(j, TC_RULE_JSON_ENCODING, "the input ends inside a UTF-8 sequence");
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return fail(j, TC_RULE_JSON_ENCODING,
                        "byte 0x%02x is not a continuation of the UTF-8 sequence 0x%02x", p[i],
                        b0);
    /* Overlong forms, surrogates and code points above U+10FFFF. */
    if ((b0 == 0xe0 && p[1] < 0xa0) || (b0 == 0xf0 && p[1] < 0x90))
        return fail(j, TC_RULE_JSON_ENCODING, "an overlong UTF-8 sequence");
    if (b0 == 0xed && p[1] >= 0xa0)
        return fail(j, TC_RULE_JSON_ENCODING, "a surrogate encoded in UTF-8");
    if (b0 == 0xf4 && p[1] >= 0x90)
        return fail(j, TC_RULE_JSON_ENCODING, "a code point above U+10FFFF");
    if (put(j, p, n))
        return -1;
    tc_advance(j->r, n);
    return 0;
}

/* The string at the read position (its opening quote), into buf. */
static int string(tc_json *j)
{
    tc_reader *r = j->r;
    j->len = 0;
    j->buf[0] = '\0'; /* buf exists from tc_json_new on */
    tc_advance(r, 1);
    for (;;) {
        if (r->cur == r->end && !tc_need(r, 1))
            return fail(j, TC_RULE_JSON_SYNTAX, "the input ends inside a string");
        const uint8_t *start = r->cur, *p = start, *e = r->end;
        /* Plain bytes and complete, valid UTF-8 sequences in the window
         * join one run, copied at once; anything else (an escape, the end,
         * an error, a sequence cut by the window's end) goes below. */
        for (;;) {
            p += j->k->plain(p, (size_t)(e - p));
            size_t n = p < e && *p >= 0x80 ? utf8_valid(p, e) : 0;
            if (!n)
                break;
            p += n;
        }
        if (p > start && put(j, start, (size_t)(p - start)))
            return -1;
        r->cur = p;
        if (p == e)
            continue;
        uint8_t c = *p;
        if (c == '"') {
            tc_advance(r, 1);
            return 0;
        }
        if (c == '\\') {
            if (escape(j))
                return -1;
        } else if (c < 0x20) {
            return fail(j, TC_RULE_JSON_SYNTAX,
                        "control character 0x%02x inside a string (escape it)", c);
        } else if (utf8(j, c)) {
            return -1;
        }
    }
}

/* ---- numbers ---- */

/* A plain integer (optional '-', 1 to 19 digits, no leading zero, no
 * fraction or exponent) that ends inside the window: its digits are read in
 * place and its value accumulated as they go; 19 digits cannot overflow 64
 * bits (10^19 - 1 < 2^64). Returns 1 with the token filled and the number
 * consumed, or 0 with nothing consumed: number() then reads it (and reports
 * what is wrong), as it would have anyway. The text is still copied (at
 * most 20 bytes): the token's text is NUL-terminated, which the window's
 * bytes are not. */
static int number_fast(tc_json *j, tc_json_token *t)
{
    tc_reader *r = j->r;
    const uint8_t *s = r->cur, *p = s, *e = r->end;
    int negative = p < e && *p == '-';
    p += negative;
    const uint8_t *digits = p;
    const uint8_t *limit = e - p > 19 ? p + 19 : e;
    uint64_t v = 0;
    while (p < limit && (unsigned)(*p - '0') < 10)
        v = v * 10 + (unsigned)(*p++ - '0');
    /* p == e: the number may go on past the window (or this is the end). */
    if (p == digits || p == e || (unsigned)(*p - '0') < 10 || *p == '.' || (*p | 0x20) == 'e' ||
        (*digits == '0' && p - digits > 1))
        return 0;
    size_t len = (size_t)(p - s);
    memcpy(j->buf, s, len);
    j->buf[len] = '\0';
    j->len = len;
    t->integer = 1;
    t->negative = negative;
    t->fits = 1;
    if (!negative)
        t->u64 = v;
    else if (v > (uint64_t)INT64_MAX + 1)
        t->fits = 0;
    else
        t->i64 = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
    r->cur = p;
    return 1;
}

static int number(tc_json *j, tc_json_token *t)
{
    tc_reader *r = j->r;
    j->len = 0;
    t->integer = 1;
    t->negative = 0;
    t->fits = 1;
    uint64_t v = 0;
    enum { SIGN, INT_FIRST, INT, FRAC_FIRST, FRAC, EXP_SIGN, EXP_FIRST, EXP } st = SIGN;
    for (;;) {
        const uint8_t *p = tc_need(r, 1);
        int c = p ? *p : -1;
        int digit = c >= '0' && c <= '9';
        switch (st) {
        case SIGN:
            if (c == '-') {
                t->negative = 1;
                st = INT_FIRST;
                break;
            }
            /* fall through */
        case INT_FIRST:
            if (!digit)
                return unexpected(j, "a digit");
            if (c == '0') { /* a leading 0 stands alone */
                if (put(j, p, 1))
                    return -1;
                tc_advance(r, 1);
                const uint8_t *q = tc_need(r, 1);
                if (q && *q >= '0' && *q <= '9')
                    return fail(j, TC_RULE_JSON_SYNTAX, "a number with a leading zero");
                st = INT; /* what follows is not a digit */
                continue;
            }
            st = INT;
            /* fall through */
        case INT:
            if (digit) {
                unsigned d = (unsigned)(c - '0');
                if (v > (UINT64_MAX - d) / 10)
                    t->fits = 0;
                else
                    v = v * 10 + d;
                break;
            }
            if (c == '.') {
                t->integer = 0;
                st = FRAC_FIRST;
                break;
            }
            if (c == 'e' || c == 'E') {
                t->integer = 0;
                st = EXP_SIGN;
                break;
            }
            goto done;
        case FRAC_FIRST:
            if (!digit)
                return unexpected(j, "a digit after the decimal point");
            st = FRAC;
            break;
        case FRAC:
            if (digit)
                break;
            if (c == 'e' || c == 'E') {
                st = EXP_SIGN;
                break;
            }
            goto done;
        case EXP_SIGN:
            if (c == '+' || c == '-') {
                st = EXP_FIRST;
                break;
            }
            /* fall through */
        case EXP_FIRST:
            if (!digit)
                return unexpected(j, "a digit in the exponent");
            st = EXP;
            break;
        case EXP:
            if (digit)
                break;
            goto done;
        }
        if (put(j, p, 1))
            return -1;
        tc_advance(r, 1);
    }
done:
    if (t->integer && t->fits) {
        if (t->negative) {
            if (v > (uint64_t)INT64_MAX + 1)
                t->fits = 0;
            else
                t->i64 = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
        } else {
            t->u64 = v;
        }
    }
    return 0;
}

/* ---- containers ---- */

static uint64_t hash_key(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 0x100000001b3ull;
    return h;
}

/* Remembers the key just read in the current object; reports a repeat.
 * Returns -1 when out of memory (reported). */
static int note_key(tc_json *j, const tc_json_token *t)
{
    level *l = &j->levels[j->depth];
    /* The key as the path shows it: cut when long, but never inside a UTF-8
     * sequence (the key is valid UTF-8, so is its start). */
    size_t n = t->len;
    if (n > PATH_KEY_MAX) {
        n = PATH_KEY_MAX;
        while (n > 0 && ((uint8_t)t->text[n] & 0xc0) == 0x80)
            n--;
    }
    memcpy(l->key, t->text, n);
    l->key[n] = '\0';
    l->key_len = n;
    l->key_cut = t->len > PATH_KEY_MAX;
    l->key_brackets = needs_brackets(t->text, t->len);
    uint64_t h = hash_key(t->text, t->len);
    if (l->table_cap) {
        for (size_t i = h & (l->table_cap - 1);; i = (i + 1) & (l->table_cap - 1)) {
            uint32_t slot = l->table[i];
            if (!slot)
                break;
            key_entry *k = &l->keys[slot - 1];
            if (k->hash == h && k->len == t->len && !memcmp(j->arena + k->off, t->text, t->len)) {
                tc_json_report_ex(j, t, TC_RULE_JSON_DUPLICATE_KEY, TC_EXTRA(TC_RELATED(k->offset)),
                                  "key \"%.*s\" appears twice in this object (first at %" PRIu32
                                  ":%" PRIu32 ")",
                                  (int)(t->len > 80 ? 80 : t->len), t->text, k->line, k->column);
                return 0;
            }
        }
    }
    if (l->nkeys == l->keys_cap) {
        size_t cap = l->keys_cap ? l->keys_cap * 2 : 16;
        key_entry *k = realloc(l->keys, cap * sizeof *k);
        if (!k)
            return fail(j, TC_RULE_JSON_SYNTAX, "out of memory for the keys of an object");
        l->keys = k;
        l->keys_cap = cap;
    }
    if (2 * (l->nkeys + 1) > l->table_cap) {
        size_t cap = l->table_cap ? l->table_cap * 2 : 32;
        uint32_t *tab = calloc(cap, sizeof *tab);
        if (!tab)
            return fail(j, TC_RULE_JSON_SYNTAX, "out of memory for the keys of an object");
        for (size_t k = 0; k < l->nkeys; k++) {
            size_t i = l->keys[k].hash & (cap - 1);
            while (tab[i])
                i = (i + 1) & (cap - 1);
            tab[i] = (uint32_t)(k + 1);
            l->keys[k].slot = i;
        }
        free(l->table);
        l->table = tab;
        l->table_cap = cap;
    }
    /* + 1: the arena exists even when every key so far was "" (no pointer
     * arithmetic on NULL). */
    if (grow(&j->arena, &j->arena_cap, j->arena_len + t->len + 1))
        return fail(j, TC_RULE_JSON_SYNTAX, "out of memory for the keys of an object");
    memcpy(j->arena + j->arena_len, t->text, t->len);
    size_t i = h & (l->table_cap - 1);
    while (l->table[i])
        i = (i + 1) & (l->table_cap - 1);
    l->keys[l->nkeys] = (key_entry){h, j->arena_len, t->len, t->line, t->column, t->offset, i};
    j->arena_len += t->len;
    l->table[i] = (uint32_t)(++l->nkeys);
    return 0;
}

static int push(tc_json *j, char type)
{
    if (j->depth == TC_JSON_MAX_DEPTH)
        return fail(j, TC_RULE_JSON_DEPTH, "arrays and objects nested more than %d deep",
                    TC_JSON_MAX_DEPTH);
    if (j->depth + 1 == j->levels_cap) {
        unsigned cap = j->levels_cap * 2 > TC_JSON_MAX_DEPTH + 1 ? TC_JSON_MAX_DEPTH + 1
                                                                 : j->levels_cap * 2;
        level *v = realloc(j->levels, cap * sizeof *v);
        if (!v)
            return fail(j, TC_RULE_JSON_SYNTAX, "out of memory for %u nested values", cap);
        memset(v + j->levels_cap, 0, (cap - j->levels_cap) * sizeof *v);
        j->levels = v;
        j->levels_cap = cap;
    }
    level *l = &j->levels[++j->depth];
    l->type = type;
    l->index = 0;
    l->key[0] = '\0';
    l->key_len = 0;
    l->key_cut = 0;
    l->key_brackets = 1; /* no key yet: shown as [""] */
    for (size_t k = 0; k < l->nkeys; k++) /* clear what the last object here used */
        l->table[l->keys[k].slot] = 0;
    l->nkeys = 0;
    l->arena_mark = j->arena_len;
    j->state = type == '{' ? OBJ_KEY_OR_END : ARR_VALUE_OR_END;
    return 0;
}

/* A value is complete: the container around it (or the document) moves on. */
static void value_done(tc_json *j)
{
    if (j->depth == 0)
        j->state = TOP_DONE;
    else
        j->state = j->levels[j->depth].type == '{' ? OBJ_NEXT : ARR_NEXT;
}

static void pop(tc_json *j)
{
    j->arena_len = j->levels[j->depth].arena_mark;
    j->depth--;
    value_done(j);
}

/* ---- tokens ---- */

static void locate(tc_json *j, tc_json_token *t)
{
    t->offset = tc_pos(j->r);
    t->line = j->line;
    t->column = column_at(j, t->offset);
}

static int literal(tc_json *j, tc_json_token *t, const char *word, tc_json_kind kind)
{
    size_t n = strlen(word);
    const uint8_t *p = tc_need(j->r, n);
    if (!p || memcmp(p, word, n) != 0)
        return unexpected(j, "a value");
    tc_advance(j->r, n);
    t->kind = kind;
    return 1;
}

/* A value starting at the read position. */
static int value(tc_json *j, tc_json_token *t)
{
    const uint8_t *p = tc_need(j->r, 1);
    int c = p ? *p : -1;
    j->path_depth = j->depth;
    switch (c) {
    case '{':
    case '[':
        /* Pushed first: a nesting too deep is reported at its bracket. */
        if (push(j, (char)c))
            return -1;
        tc_advance(j->r, 1);
        t->kind = c == '{' ? TC_JSON_OBJECT_BEGIN : TC_JSON_ARRAY_BEGIN;
        return 1;
    case '"':
        if (string(j))
            return -1;
        t->kind = TC_JSON_STRING;
        t->text = j->buf;
        t->len = j->len;
        value_done(j);
        return 1;
    case 't': value_done(j); return literal(j, t, "true", TC_JSON_TRUE);
    case 'f': value_done(j); return literal(j, t, "false", TC_JSON_FALSE);
    case 'n': value_done(j); return literal(j, t, "null", TC_JSON_NULL);
    default:
        if (c == '-' || (c >= '0' && c <= '9')) {
            if (!number_fast(j, t) && number(j, t))
                return -1;
            t->kind = TC_JSON_NUMBER;
            t->text = j->buf;
            t->len = j->len;
            value_done(j);
            return 1;
        }
        return unexpected(j, "a value");
    }
}

static int close_container(tc_json *j, tc_json_token *t, tc_json_kind kind)
{
    tc_advance(j->r, 1);
    t->kind = kind;
    pop(j);
    j->path_depth = j->depth;
    return 1;
}

int tc_json_next(tc_json *j, tc_json_token *t)
{
    if (j->finished)
        return j->finished > 0 ? 0 : -1;
    memset(t, 0, sizeof *t);
    if (j->state == TOP_VALUE && tc_pos(j->r) == 0) {
        const uint8_t *p = tc_need(j->r, 3);
        if (p && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf) {
            tc_report_text(j->d, TC_RULE_JSON_BOM, 0, 3, 1, 1, "$",
                           "a UTF-8 byte order mark before the JSON text (ignored)");
            tc_advance(j->r, 3);
            j->line_start = 3;
        }
    }
    for (;;) {
        skip_space(j);
        const uint8_t *p = tc_need(j->r, 1);
        int c = p ? *p : -1;
        locate(j, t);
        switch (j->state) {
        case TOP_VALUE:
            return value(j, t);
        case TOP_DONE:
            if (c < 0) {
                j->finished = 1;
                return 0;
            }
            if (c == '/') { /* a comment gets its own rule; a lone '/' is data */
                const uint8_t *q = tc_need(j->r, 2);
                if (q && (q[1] == '/' || q[1] == '*'))
                    return unexpected(j, "the end of the input");
            }
            return fail(j, TC_RULE_JSON_TRAILING, "data after the JSON value: %s",
                        found(j, (char[32]){0}, 32));
        case OBJ_KEY_OR_END:
        case OBJ_KEY:
            if (c == '}' && j->state == OBJ_KEY_OR_END)
                return close_container(j, t, TC_JSON_OBJECT_END);
            if (c != '"')
                return unexpected(j, j->state == OBJ_KEY_OR_END ? "a key or '}'"
                                                                 : "a key after ','");
            if (string(j))
                return -1;
            t->kind = TC_JSON_KEY;
            t->text = j->buf;
            t->len = j->len;
            j->state = OBJ_COLON;
            if (note_key(j, t))
                return -1;
            j->path_depth = j->depth;
            return 1;
        case OBJ_COLON:
            if (c != ':')
                return unexpected(j, "':' after the key");
            tc_advance(j->r, 1);
            j->state = OBJ_VALUE;
            continue;
        case OBJ_VALUE:
        case ARR_VALUE:
        case ARR_VALUE_OR_END:
            if (c == ']' && j->state == ARR_VALUE_OR_END)
                return close_container(j, t, TC_JSON_ARRAY_END);
            if (c == ']' || c == '}')
                return unexpected(j, "a value (no trailing comma)");
            return value(j, t);
        case OBJ_NEXT:
            if (c == '}')
                return close_container(j, t, TC_JSON_OBJECT_END);
            if (c != ',')
                return unexpected(j, "',' or '}'");
            tc_advance(j->r, 1);
            j->state = OBJ_KEY;
            continue;
        case ARR_NEXT:
            if (c == ']')
                return close_container(j, t, TC_JSON_ARRAY_END);
            if (c != ',')
                return unexpected(j, "',' or ']'");
            tc_advance(j->r, 1);
            j->levels[j->depth].index++;
            j->state = ARR_VALUE;
            continue;
        }
    }
}

int tc_json_skip(tc_json *j, const tc_json_token *first)
{
    if (first->kind != TC_JSON_OBJECT_BEGIN && first->kind != TC_JSON_ARRAY_BEGIN)
        return 1;
    unsigned depth = j->depth;
    tc_json_token t;
    for (;;) {
        int rc = tc_json_next(j, &t);
        if (rc <= 0)
            return rc < 0 ? -1 : 1;
        if ((t.kind == TC_JSON_OBJECT_END || t.kind == TC_JSON_ARRAY_END) && j->depth < depth)
            return 1;
    }
}

const char *tc_json_kind_name(tc_json_kind k)
{
    switch (k) {
    case TC_JSON_OBJECT_BEGIN: return "an object";
    case TC_JSON_ARRAY_BEGIN: return "an array";
    case TC_JSON_STRING: return "a string";
    case TC_JSON_NUMBER: return "a number";
    case TC_JSON_TRUE:
    case TC_JSON_FALSE: return "a boolean";
    case TC_JSON_NULL: return "null";
    default: return "something else";
    }
}
