/* The JSON mutator (see json_mutator.h). libc only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_mutator.h"

#define MAX_TOKENS 8192

enum { T_STRING, T_NUMBER, T_LITERAL, T_OPEN, T_CLOSE, T_COLON, T_COMMA, T_OTHER };

typedef struct tok {
    int kind;
    size_t start, end; /* the token's bytes; for T_OPEN, end is past its match (the value) */
    long match;        /* T_OPEN: index of its T_CLOSE, or -1 */
    long parent;       /* index of the enclosing T_OPEN, or -1 */
} tok;

typedef struct doc {
    const uint8_t *p;
    size_t n;
    tok *t;
    size_t nt;
} doc;

/* ---- reading ---- */

static int num_char(uint8_t c)
{
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

/* Grows *v to hold need elements of size each; 0 when out of memory. */
static int reserve(void **v, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 1;
    void *q = realloc(*v, need * size);
    if (!q)
        return 0;
    *v = q;
    *cap = need;
    return 1;
}

/* Cuts p into tokens and matches brackets, into the token array of slot (0
 * or 1: a cross-over reads two documents at once). The arrays are kept
 * from call to call, as large as the largest input yet: a mutation then
 * allocates nothing (320 KiB a call otherwise, which under ASan is an mmap
 * and its page faults). Returns 0 when out of memory. */
static int lex(doc *d, const uint8_t *p, size_t n, unsigned slot)
{
    static tok *toks[2];
    static size_t tok_cap[2], stack_cap;
    static long *stack;
    memset(d, 0, sizeof *d);
    d->p = p;
    d->n = n;
    size_t most = (n < MAX_TOKENS ? n : MAX_TOKENS) + 1; /* a token has a byte at least */
    if (!reserve((void **)&toks[slot], &tok_cap[slot], most, sizeof *toks[slot]) ||
        !reserve((void **)&stack, &stack_cap, most, sizeof *stack))
        return 0;
    d->t = toks[slot];
    size_t top = 0;
    for (size_t i = 0; i < n && d->nt < MAX_TOKENS;) {
        uint8_t c = p[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            i++;
            continue;
        }
        tok x = {T_OTHER, i, i + 1, -1, top ? stack[top - 1] : -1};
        if (c == '"') {
            size_t j = i + 1;
            while (j < n && p[j] != '"')
                j += p[j] == '\\' ? 2 : 1;
            x.kind = T_STRING;
            x.end = j < n ? j + 1 : n;
        } else if (num_char(c)) {
            size_t j = i;
            while (j < n && num_char(p[j]))
                j++;
            x.kind = T_NUMBER;
            x.end = j;
        } else if (c >= 'a' && c <= 'z') {
            size_t j = i;
            while (j < n && p[j] >= 'a' && p[j] <= 'z')
                j++;
            x.kind = T_LITERAL;
            x.end = j;
        } else if (c == '{' || c == '[') {
            x.kind = T_OPEN;
        } else if (c == '}' || c == ']') {
            x.kind = T_CLOSE;
        } else if (c == ':') {
            x.kind = T_COLON;
        } else if (c == ',') {
            x.kind = T_COMMA;
        }
        if (x.kind == T_CLOSE && top) {
            long o = stack[--top];
            d->t[o].match = (long)d->nt;
            d->t[o].end = x.end;
            x.parent = top ? stack[top - 1] : -1;
        }
        d->t[d->nt] = x;
        if (x.kind == T_OPEN)
            stack[top++] = (long)d->nt;
        d->nt++;
        i = x.end;
    }
    return 1;
}

/* Whether token i begins a value (not a key: a string before a ':'). */
static int is_value(const doc *d, size_t i)
{
    const tok *t = &d->t[i];
    if (t->kind == T_STRING)
        return !(i + 1 < d->nt && d->t[i + 1].kind == T_COLON);
    return t->kind == T_NUMBER || t->kind == T_LITERAL || (t->kind == T_OPEN && t->match >= 0);
}

/* A token of the kind (-1: any value), or -1 when there is none. */
static long pick(const doc *d, mut_rng *g, int kind)
{
    if (!d->nt)
        return -1;
    size_t from = mut_below(g, d->nt);
    for (size_t k = 0; k < d->nt; k++) {
        size_t i = (from + k) % d->nt;
        if (kind < 0 ? is_value(d, i) : d->t[i].kind == kind)
            return (long)i;
    }
    return -1;
}

/* ---- writing: the document with [a, b) replaced ---- */

typedef struct out {
    uint8_t *p;
    size_t n, max;
} out;

static void put(out *o, const void *s, size_t n)
{
    size_t k = n < o->max - o->n ? n : o->max - o->n;
    memcpy(o->p + o->n, s, k);
    o->n += k;
}

/* The result of replacing [a, b) of d by r (n bytes), into a scratch buffer
 * that the caller copies back. */
static size_t replace(const doc *d, size_t a, size_t b, const void *r, size_t n, uint8_t *dst,
                      size_t max)
{
    out o = {dst, 0, max};
    put(&o, d->p, a);
    put(&o, r, n);
    put(&o, d->p + b, d->n - b);
    return o.n;
}

/* ---- what values become ---- */

static const char *const edge_numbers[] = {
    "0", "-0", "1", "-1", "01", "00", "1.0", "1e3", "1E+2", "0.5e-3", "2147483647",
    "2147483648", "-2147483649", "4294967295", "4294967296", "9007199254740993",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "-9223372036854775809", "18446744073709551615", "18446744073709551616",
    "18446744073709551619", "1e308", "1e309", "-1e-400", "-", "1.", ".5", "1e", "+1", "0x10",
    "16777216", "16777215", "65536", "1048576"};

static const char *const edge_strings[] = {
    "\\ud800\\udc00", "\\udbff\\udfff", "\\udbff\\udc00", "\\ud800", "\\udbff", "\\udc00",
    "\\udfff", "\\ud800\\u0041", "\\u0000", "\\u001f", "\\u007f", "\\u0080", "\\uffff",
    "\\\\", "\\\"", "\\/", "\\b\\f\\n\\r\\t", "\\x", "\\u12G4", "\x01", "\x1f", "\x7f",
    "\xc2\x80", "\xdf\xbf", "\xe0\xa0\x80", "\xed\x9f\xbf", "\xed\xa0\x80", "\xef\xbf\xbf",
    "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf", "\xf4\x90\x80\x80", "\xc0\x80", "\xff", "/", "",
    "thread", "1.1.0", "2.0.0", "ovni"};

/* ---- mutations ---- */

static size_t mutate_doc(const doc *d, mut_rng *g, uint8_t *dst, size_t max)
{
    char buf[128];
    long i;
    switch (mut_below(g, 12)) {
    case 0: /* a number on an edge */
    case 1:
        if ((i = pick(d, g, T_NUMBER)) < 0)
            break;
        {
            const char *s = edge_numbers[mut_below(g, sizeof edge_numbers / sizeof *edge_numbers)];
            return replace(d, d->t[i].start, d->t[i].end, s, strlen(s), dst, max);
        }
    case 2: /* a number the document has elsewhere: another node, another id */
    case 3: {
        long j;
        if ((i = pick(d, g, T_NUMBER)) < 0 || (j = pick(d, g, T_NUMBER)) < 0)
            break;
        return replace(d, d->t[i].start, d->t[i].end, d->p + d->t[j].start,
                       d->t[j].end - d->t[j].start, dst, max);
    }
    case 4: { /* a string with an edge escape or byte inside, or another string */
        long j;
        if ((i = pick(d, g, T_STRING)) < 0)
            break;
        const tok *t = &d->t[i];
        if (mut_below(g, 3) == 0 && (j = pick(d, g, T_STRING)) >= 0)
            return replace(d, t->start, t->end, d->p + d->t[j].start,
                           d->t[j].end - d->t[j].start, dst, max);
        const char *s = edge_strings[mut_below(g, sizeof edge_strings / sizeof *edge_strings)];
        size_t inner = t->end - t->start >= 2 ? t->end - t->start - 2 : 0;
        size_t at = t->start + 1 + (mut_below(g, 2) ? mut_below(g, inner + 1) : 0);
        if (mut_below(g, 2))
            return replace(d, at, at, s, strlen(s), dst, max);
        int k = snprintf(buf, sizeof buf, "\"%s\"", s);
        return replace(d, t->start, t->end, buf, (size_t)k, dst, max);
    }
    case 5: { /* a value replaced by another value of the document */
        long j;
        if ((i = pick(d, g, -1)) < 0 || (j = pick(d, g, -1)) < 0)
            break;
        return replace(d, d->t[i].start, d->t[i].end, d->p + d->t[j].start,
                       d->t[j].end - d->t[j].start, dst, max);
    }
    case 6: { /* a value deleted (a member: its key too), with a comma next to it */
        if ((i = pick(d, g, -1)) < 0)
            break;
        size_t a = d->t[i].start, b = d->t[i].end;
        if (i >= 2 && d->t[i - 1].kind == T_COLON && d->t[i - 2].kind == T_STRING)
            a = d->t[i - 2].start;
        long after = d->t[i].kind == T_OPEN ? d->t[i].match + 1 : i + 1;
        if (after < (long)d->nt && d->t[after].kind == T_COMMA)
            b = d->t[after].end;
        else if (mut_below(g, 2) && a > 0) {
            size_t k = a;
            while (k > 0 && d->p[k - 1] != ',' && (d->p[k - 1] == ' ' || d->p[k - 1] == '\n' ||
                                                  d->p[k - 1] == '\t' || d->p[k - 1] == '\r'))
                k--;
            if (k > 0 && d->p[k - 1] == ',')
                a = k - 1;
        }
        return replace(d, a, b, "", 0, dst, max);
    }
    case 7: { /* a value duplicated (a member: its key too) */
        if ((i = pick(d, g, -1)) < 0)
            break;
        size_t a = d->t[i].start, b = d->t[i].end;
        if (i >= 2 && d->t[i - 1].kind == T_COLON && d->t[i - 2].kind == T_STRING)
            a = d->t[i - 2].start;
        out o = {dst, 0, max};
        put(&o, d->p, b);
        put(&o, ",", 1);
        put(&o, d->p + a, b - a);
        put(&o, d->p + b, d->n - b);
        return o.n;
    }
    case 8: { /* two values swapped */
        long j;
        if ((i = pick(d, g, -1)) < 0 || (j = pick(d, g, -1)) < 0)
            break;
        const tok *x = &d->t[i], *y = &d->t[j];
        if (x->start > y->start) {
            const tok *z = x;
            x = y;
            y = z;
        }
        if (x->end > y->start)
            break; /* one inside the other */
        out o = {dst, 0, max};
        put(&o, d->p, x->start);
        put(&o, d->p + y->start, y->end - y->start);
        put(&o, d->p + x->end, y->start - x->end);
        put(&o, d->p + x->start, x->end - x->start);
        put(&o, d->p + y->end, d->n - y->end);
        return o.n;
    }
    case 9: { /* a value wrapped, or a container of the other type */
        if ((i = pick(d, g, -1)) < 0)
            break;
        const tok *t = &d->t[i];
        if (t->kind == T_OPEN && mut_below(g, 2)) {
            uint8_t *c = malloc(t->end - t->start);
            if (!c)
                break;
            memcpy(c, d->p + t->start, t->end - t->start);
            c[0] = c[0] == '{' ? '[' : '{';
            c[t->end - t->start - 1] = c[0] == '{' ? '}' : ']';
            size_t n = replace(d, t->start, t->end, c, t->end - t->start, dst, max);
            free(c);
            return n;
        }
        out o = {dst, 0, max};
        int obj = (int)mut_below(g, 2);
        put(&o, d->p, t->start);
        put(&o, obj ? "{\"k\":" : "[", obj ? 5 : 1);
        put(&o, d->p + t->start, t->end - t->start);
        put(&o, obj ? "}" : "]", 1);
        put(&o, d->p + t->end, d->n - t->end);
        return o.n;
    }
    case 10: { /* a literal, or a new small value */
        static const char *const lits[] = {"true", "false", "null", "{}", "[]", "\"\"", "nul",
                                           "tru", "[[[[[[[[[[1]]]]]]]]]]", "{\"a\":1,\"a\":2}"};
        if ((i = pick(d, g, -1)) < 0)
            break;
        const char *s = lits[mut_below(g, sizeof lits / sizeof *lits)];
        return replace(d, d->t[i].start, d->t[i].end, s, strlen(s), dst, max);
    }
    default: { /* the document's edges: cut, BOM, trailing data, trailing comma */
        switch (mut_below(g, 4)) {
        case 0: return replace(d, mut_below(g, d->n + 1), d->n, "", 0, dst, max);
        case 1: return replace(d, 0, 0, "\xef\xbb\xbf", 3, dst, max);
        case 2: {
            static const char *const tails[] = {" x", "1", "{}", "//c", "\x00", ","};
            const char *s = tails[mut_below(g, 6)];
            return replace(d, d->n, d->n, s, strlen(s) ? strlen(s) : 1, dst, max);
        }
        default:
            if ((i = pick(d, g, T_CLOSE)) < 0)
                break;
            return replace(d, d->t[i].start, d->t[i].start, ",", 1, dst, max);
        }
        break;
    }
    }
    return replace(d, 0, 0, "", 0, dst, max); /* nothing to do: the document as it is */
}

size_t json_mutate(uint8_t *data, size_t size, size_t max_size, unsigned seed,
                   mut_bytes_fn bytes)
{
    mut_rng g;
    mut_seed(&g, seed);
    if (mut_one_in(&g, 5) || size == 0)
        return mut_bytes(data, size, max_size, &g, bytes);
    /* Kept from call to call, as lex's arrays are: an allocation per call
     * records a stack trace under ASan. */
    static uint8_t *scratch;
    static size_t scratch_cap;
    if (!reserve((void **)&scratch, &scratch_cap, max_size ? max_size : 1, 1))
        return mut_bytes(data, size, max_size, &g, bytes);
    /* One change a call, two in one call of four: libFuzzer stacks calls
     * itself (-mutate_depth, running the input after each), and every
     * change here tokenises the whole input again. */
    size_t n = size;
    for (size_t k = mut_one_in(&g, 4) ? 2 : 1; k > 0; k--) {
        doc d;
        if (!lex(&d, data, n, 0))
            break;
        int any = pick(&d, &g, -1) >= 0;
        if (any)
            n = mutate_doc(&d, &g, scratch, max_size);
        if (!any)
            return mut_bytes(data, size, max_size, &g, bytes);
        memcpy(data, scratch, n);
    }
    return n;
}

size_t json_cross_over(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, uint8_t *out,
                       size_t max_size, unsigned seed)
{
    mut_rng g;
    mut_seed(&g, seed);
    doc x, y;
    size_t n = na < max_size ? na : max_size;
    if (!lex(&x, a, na, 0)) {
        memcpy(out, a, n);
        return n;
    }
    if (!lex(&y, b, nb, 1)) {
        memcpy(out, a, n);
        return n;
    }
    long i = pick(&x, &g, -1), j = pick(&y, &g, -1);
    if (i >= 0 && j >= 0)
        n = replace(&x, x.t[i].start, x.t[i].end, b + y.t[j].start, y.t[j].end - y.t[j].start,
                    out, max_size);
    else
        memcpy(out, a, n);
    return n;
}
