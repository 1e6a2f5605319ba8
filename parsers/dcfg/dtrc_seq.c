/*
 * Compiling edge-id sequence strings (Doc §3.7.1) and the dictionary they
 * refer to (Doc §3.4). Nothing is expanded: each repeat and reference keeps
 * the number of bits it stands for, so that the decoder can count, skip and
 * stop without materialising a single copy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg_common.h"
#include "dtrc_seq.h"
#include "dtrc_simd.h"

/* Ruling 1: the listed set A-Z a-z 0-9 + - in that order; '.' is also 63
 * (the document's prose), reported as a warning by the caller. */
int tc_dtrc_b64(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '-' || c == '.')
        return 63;
    return -1;
}

int tc_dtrc_key_ok(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '.' || tc_dtrc_b64(c) < 0)
            return 0;
    }
    return 1;
}

void tc_dtrc_prog_free(tc_dtrc_prog *p)
{
    free(p->ops);
    free(p->vals);
    memset(p, 0, sizeof *p);
}

static tc_dtrc_op *new_op(tc_dtrc_prog *p, int kind, unsigned nest)
{
    if (!tc_dcfg_grow((void **)&p->ops, &p->capops, p->nops + 1, sizeof *p->ops))
        return NULL;
    tc_dtrc_op *op = &p->ops[p->nops++];
    memset(op, 0, sizeof *op);
    op->kind = (uint8_t)kind;
    op->nest = (uint16_t)nest;
    return op;
}

/* A short, printable rendering of s[0..n) for messages. */
static void show(char *out, size_t size, const char *s, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < n && o + 8 < size; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
            out[o++] = (char)c;
        else
            o += (size_t)snprintf(out + o, size - o, "\\x%02x", c);
    }
    if (n && o + 8 >= size)
        o += (size_t)snprintf(out + o, size - o, "...");
    out[o] = '\0';
}

static int fail(tc_dtrc_err *err, int code, size_t pos, const char *fmt, const char *arg)
{
    err->code = code;
    err->pos = pos;
    snprintf(err->detail, sizeof err->detail, fmt, arg);
    return 0;
}

void tc_dtrc_prog_sum(tc_dtrc_prog *p, const tc_dtrc_bits *entry_bits,
                      const unsigned *entry_depth)
{
    /* One forward pass with a stack of the open repeats: a repeat's bits
     * are known when the op after its body is reached. */
    struct open {
        size_t op, end;
        tc_dtrc_bits acc;
        unsigned depth;
    } st[TC_DTRC_MAX_NEST + 2];
    size_t sp = 0;
    tc_dtrc_bits total = 0;
    unsigned depth = 0;
    for (size_t i = 0; i <= p->nops; i++) {
        while (sp && i >= st[sp - 1].end) {
            struct open *o = &st[--sp];
            tc_dtrc_op *r = &p->ops[o->op];
            r->bits = tc_dtrc_bits_mul(r->count, o->acc);
            unsigned d = 1 + o->depth;
            tc_dtrc_bits *acc = sp ? &st[sp - 1].acc : &total;
            unsigned *dp = sp ? &st[sp - 1].depth : &depth;
            *acc = tc_dtrc_bits_add(*acc, r->bits);
            if (d > *dp)
                *dp = d;
        }
        if (i == p->nops)
            break;
        tc_dtrc_op *op = &p->ops[i];
        tc_dtrc_bits *acc = sp ? &st[sp - 1].acc : &total;
        unsigned *dp = sp ? &st[sp - 1].depth : &depth;
        if (op->kind == TC_DTRC_OP_CHARS) {
            op->bits = (tc_dtrc_bits)op->n * 6;
            *acc = tc_dtrc_bits_add(*acc, op->bits);
        } else if (op->kind == TC_DTRC_OP_REF) {
            op->bits = entry_bits ? entry_bits[op->a] : 0;
            *acc = tc_dtrc_bits_add(*acc, op->bits);
            unsigned d = 1 + (entry_depth ? entry_depth[op->a] : 0);
            if (d > *dp)
                *dp = d;
        } else if (sp < sizeof st / sizeof st[0]) {
            st[sp++] = (struct open){i, i + 1 + op->n, 0, 0};
        }
    }
    p->bits = total;
    p->depth = 1 + depth;
}

int tc_dtrc_compile(tc_dtrc_prog *p, const char *s, size_t n, tc_dtrc_resolve_fn resolve,
                    void *user, const tc_dtrc_bits *entry_bits, const unsigned *entry_depth,
                    tc_dtrc_err *err)
{
    size_t open_op[TC_DTRC_MAX_NEST], open_at[TC_DTRC_MAX_NEST];
    unsigned nopen = 0;
    long chars = -1; /* the CHARS op being extended */
    char tmp[64];
    const tc_dtrc_kernels *K = tc_dtrc_kernels_for(tc_simd_level_get());
    const char *last_key = NULL; /* the last reference resolved, and its entry */
    size_t last_len = 0;
    long last_e = -1;
    p->nops = p->nvals = 0;
    p->dots = 0;
    p->first_dot = 0;
    p->bits = 0;
    p->depth = 1;
    err->code = TC_DTRC_OK;
    if (!tc_dcfg_grow((void **)&p->vals, &p->capvals, n, 1))
        return fail(err, TC_DTRC_E_NOMEM, 0, "%s", "out of memory");
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (tc_dtrc_b64_tab[c] != TC_DTRC_B64_NONE) {
            if (chars < 0) {
                tc_dtrc_op *op = new_op(p, TC_DTRC_OP_CHARS, nopen);
                if (!op)
                    return fail(err, TC_DTRC_E_NOMEM, i, "%s", "out of memory");
                op->a = (uint32_t)p->nvals;
                chars = (long)(p->nops - 1);
            }
            /* The whole run in one tight loop: most of a sequence is plain
             * Base64, and this is the only per-character work of compiling. */
            uint8_t *out = p->vals + p->nvals;
            size_t start = i;
            for (;;) {
                size_t k = K->b64((const uint8_t *)s + i, n - i, out);
                out += k;
                i += k;
                if (i < n && tc_dtrc_b64_tab[(unsigned char)s[i]] == TC_DTRC_B64_DOT) {
                    if (p->dots++ == 0)
                        p->first_dot = i;
                    *out++ = 63;
                    i++;
                    continue;
                }
                break;
            }
            p->nvals += i - start;
            p->ops[chars].n += (uint32_t)(i - start);
            continue;
        }
        chars = -1;
        if (c == '(') {
            size_t j = i + 1;
            uint64_t count = 0;
            int over = 0;
            while (j < n && s[j] >= '0' && s[j] <= '9') {
                unsigned d = (unsigned)(s[j] - '0');
                if (count > (UINT64_MAX - d) / 10)
                    over = 1;
                count = count * 10 + d;
                j++;
            }
            if (j == i + 1 || j >= n || s[j] != '*') {
                show(tmp, sizeof tmp, s + i, n - i < 12 ? n - i : 12);
                return fail(err, TC_DTRC_E_REPEAT, i,
                            "'(' must be followed by digits and '*'; found \"%s\"", tmp);
            }
            if (over) {
                show(tmp, sizeof tmp, s + i + 1, j - i - 1);
                return fail(err, TC_DTRC_E_COUNT, i,
                            "repeat count %s is above 18446744073709551615", tmp);
            }
            if (nopen == TC_DTRC_MAX_NEST)
                return fail(err, TC_DTRC_E_NESTING, i,
                            "repeats nest more than %s deep", "256");
            tc_dtrc_op *op = new_op(p, TC_DTRC_OP_REPEAT, nopen);
            if (!op)
                return fail(err, TC_DTRC_E_NOMEM, i, "%s", "out of memory");
            op->count = count;
            open_op[nopen] = p->nops - 1;
            open_at[nopen++] = i;
            i = j + 1;
        } else if (c == ')') {
            if (nopen == 0)
                return fail(err, TC_DTRC_E_PAREN, i, "%s", "')' closes no '('");
            size_t r = open_op[--nopen];
            p->ops[r].n = (uint32_t)(p->nops - r - 1);
            i++;
        } else if (c == '<') {
            const char *gt = memchr(s + i + 1, '>', n - i - 1);
            if (!gt) {
                show(tmp, sizeof tmp, s + i, n - i < 24 ? n - i : 24);
                return fail(err, TC_DTRC_E_REF, i, "'<' has no closing '>': \"%s\"", tmp);
            }
            size_t k = (size_t)(gt - s), klen = k - i - 1;
            /* References come in runs of the same key ("<a><a><a>"): the
             * last one's entry (its key checked) is taken again. */
            int again = last_key && klen == last_len && !memcmp(last_key, s + i + 1, klen);
            if (!again && !tc_dtrc_key_ok(s + i + 1, klen)) {
                show(tmp, sizeof tmp, s + i + 1, klen);
                return fail(err, TC_DTRC_E_REF, i,
                            "key \"%s\" is empty or has characters outside A-Z a-z 0-9 + -",
                            tmp);
            }
            long e;
            if (again) {
                e = last_e;
            } else {
                e = resolve ? resolve(user, s + i + 1, klen) : -1;
                if (e >= 0) {
                    last_key = s + i + 1;
                    last_len = klen;
                    last_e = e;
                }
            }
            if (e < 0) {
                show(tmp, sizeof tmp, s + i + 1, klen);
                return fail(err, TC_DTRC_E_MISSING, i,
                            "key \"%s\" is not in the process's STRING_DICTIONARY", tmp);
            }
            tc_dtrc_op *op = new_op(p, TC_DTRC_OP_REF, nopen);
            if (!op)
                return fail(err, TC_DTRC_E_NOMEM, i, "%s", "out of memory");
            op->a = (uint32_t)e;
            i = k + 1;
        } else {
            show(tmp, sizeof tmp, s + i, 1);
            return fail(err, TC_DTRC_E_CHAR, i,
                        "'%s' is neither a modified Base64 character nor '(', ')', '<'", tmp);
        }
    }
    if (nopen) {
        char at[32];
        snprintf(at, sizeof at, "%zu", open_at[nopen - 1]);
        return fail(err, TC_DTRC_E_PAREN, open_at[nopen - 1],
                    "the '(' at character %s is never closed", at);
    }
    tc_dtrc_prog_sum(p, entry_bits, entry_depth);
    return 1;
}

/* ---- dictionary ---- */

void tc_dtrc_dict_init(tc_dtrc_dict *d) { memset(d, 0, sizeof *d); }

void tc_dtrc_dict_free(tc_dtrc_dict *d)
{
    for (size_t i = 0; i < d->n; i++) {
        free(d->keys[i]);
        free(d->texts[i]);
        tc_dtrc_prog_free(&d->progs[i]);
    }
    free(d->keys);
    free(d->keylen);
    free(d->texts);
    free(d->textlen);
    free(d->progs);
    free(d->bits);
    free(d->depth);
    free(d->order);
    free(d->taint);
    memset(d, 0, sizeof *d);
}

int tc_dtrc_dict_add(tc_dtrc_dict *d, const char *key, size_t klen, const char *val, size_t vlen)
{
    if (d->n == d->cap) {
        size_t c = d->cap ? 2 * d->cap : 8;
#define G(f) do { void *q = realloc(d->f, c * sizeof *d->f); if (!q) return 0; d->f = q; } while (0)
        G(keys); G(keylen); G(texts); G(textlen); G(progs); G(bits); G(depth); G(order); G(taint);
#undef G
        d->cap = c;
    }
    char *k = malloc(klen + 1), *v = malloc(vlen + 1);
    if (!k || !v) {
        free(k);
        free(v);
        return 0;
    }
    memcpy(k, key, klen);
    k[klen] = '\0';
    memcpy(v, val, vlen);
    v[vlen] = '\0';
    size_t i = d->n++;
    d->keys[i] = k;
    d->keylen[i] = klen;
    d->texts[i] = v;
    d->textlen[i] = vlen;
    memset(&d->progs[i], 0, sizeof d->progs[i]);
    d->bits[i] = 0;
    d->depth[i] = 1;
    d->taint[i] = 0;
    d->finished = 0;
    return 1;
}

static int keycmp(const char *a, size_t an, const char *b, size_t bn)
{
    int c = memcmp(a, b, an < bn ? an : bn);
    return c ? c : (an > bn) - (an < bn);
}

long tc_dtrc_dict_find(const tc_dtrc_dict *d, const char *key, size_t n)
{
    size_t lo = 0, hi = d->finished ? d->n : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = keycmp(d->order[mid].k, d->order[mid].n, key, n);
        if (c == 0) {
            /* The first of equal keys (a duplicate key is a JSON finding). */
            while (mid > 0 && !keycmp(d->order[mid - 1].k, d->order[mid - 1].n, key, n))
                mid--;
            return (long)d->order[mid].e;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

static int order_cmp(const void *a, const void *b)
{
    const struct tc_dtrc_key *x = a, *y = b;
    int c = keycmp(x->k, x->n, y->k, y->n);
    /* Equal keys by position, so that lookups find the first. */
    return c ? c : (x->e > y->e) - (x->e < y->e);
}

static long resolve_dict(void *user, const char *key, size_t n)
{
    return tc_dtrc_dict_find(user, key, n);
}

static void clear_entry(tc_dtrc_dict *d, size_t e)
{
    d->progs[e].nops = 0;
    d->progs[e].bits = 0;
    d->progs[e].depth = 1;
    d->bits[e] = 0;
    d->depth[e] = 1;
    d->taint[e] = 1;
}

/* "a -> b -> a" from the DFS stack, for the cycle message. */
static void cycle_path(const tc_dtrc_dict *d, const size_t *stack, size_t sp, size_t target,
                       char *out, size_t size)
{
    size_t from = 0, o = 0;
    while (from < sp && stack[from] != target)
        from++;
    out[0] = '\0';
    for (size_t k = from; k < sp && o < size; k++)
        o += (size_t)snprintf(out + o, size - o, "%.24s -> ", d->keys[stack[k]]);
    if (o < size)
        snprintf(out + o, size - o, "%.24s", d->keys[target]);
}

void tc_dtrc_dict_finish(tc_dtrc_dict *d, void (*bad)(void *user, size_t entry,
                                                      const tc_dtrc_err *err),
                         void *user)
{
    for (size_t e = 0; e < d->n; e++)
        d->order[e] = (struct tc_dtrc_key){d->keys[e], d->keylen[e], e};
    if (d->n)
        qsort(d->order, d->n, sizeof *d->order, order_cmp);
    d->finished = 1;
    tc_dtrc_err err;
    for (size_t e = 0; e < d->n; e++) {
        if (!tc_dtrc_compile(&d->progs[e], d->texts[e], d->textlen[e], resolve_dict, d, NULL,
                             NULL, &err)) {
            if (bad)
                bad(user, e, &err);
            clear_entry(d, e);
        }
        /* The text is not needed any more: the program holds it all. */
        free(d->texts[e]);
        d->texts[e] = NULL;
    }
    /* Depth-first over the references with an explicit stack: a reference
     * to an entry still on the stack is a cycle; an entry's bits are summed
     * once every entry it refers to is done. */
    unsigned char *state = calloc(d->n ? d->n : 1, 1); /* 0 new, 1 on the stack, 2 done */
    size_t *stack = malloc((d->n ? d->n : 1) * sizeof *stack);
    size_t *next = malloc((d->n ? d->n : 1) * sizeof *next);
    if (!state || !stack || !next) {
        free(state);
        free(stack);
        free(next);
        for (size_t e = 0; e < d->n; e++)
            clear_entry(d, e);
        return;
    }
    for (size_t root = 0; root < d->n; root++) {
        if (state[root])
            continue;
        size_t sp = 0;
        stack[sp] = root;
        next[sp++] = 0;
        state[root] = 1;
        while (sp) {
            size_t e = stack[sp - 1];
            tc_dtrc_prog *p = &d->progs[e];
            size_t i = next[sp - 1];
            while (i < p->nops && p->ops[i].kind != TC_DTRC_OP_REF)
                i++;
            if (i < p->nops) {
                next[sp - 1] = i + 1;
                size_t t = p->ops[i].a;
                if (state[t] == 1) {
                    err.code = TC_DTRC_E_CYCLE;
                    err.pos = 0;
                    char path[120];
                    cycle_path(d, stack, sp, t, path, sizeof path);
                    snprintf(err.detail, sizeof err.detail,
                             "circular reference %s (a key may not refer back to itself)", path);
                    if (bad)
                        bad(user, e, &err);
                    /* The reference stands for nothing from now on. */
                    p->ops[i].kind = TC_DTRC_OP_CHARS;
                    p->ops[i].a = 0;
                    p->ops[i].n = 0;
                    d->taint[e] = 1;
                } else if (state[t] == 0) {
                    state[t] = 1;
                    stack[sp] = t;
                    next[sp++] = 0;
                }
                continue;
            }
            tc_dtrc_prog_sum(p, d->bits, d->depth);
            for (size_t k = 0; k < p->nops; k++)
                if (p->ops[k].kind == TC_DTRC_OP_REF && d->taint[p->ops[k].a])
                    d->taint[e] = 1;
            if (p->depth > TC_DTRC_MAX_NEST) {
                err.code = TC_DTRC_E_NESTING;
                err.pos = 0;
                snprintf(err.detail, sizeof err.detail,
                         "repeats and references nest %u deep through this value; tracecheck "
                         "reads up to %d", p->depth, TC_DTRC_MAX_NEST);
                if (bad)
                    bad(user, e, &err);
                clear_entry(d, e);
            }
            d->bits[e] = p->bits;
            d->depth[e] = p->depth;
            state[e] = 2;
            sp--;
        }
    }
    free(state);
    free(stack);
    free(next);
}

int tc_dtrc_compile_chunk(tc_dtrc_prog *p, const tc_dtrc_dict *d, const char *s, size_t n,
                          tc_dtrc_err *err)
{
    if (!tc_dtrc_compile(p, s, n, resolve_dict, (void *)d, d->bits, d->depth, err))
        return 0;
    if (p->depth > TC_DTRC_MAX_NEST) {
        err->code = TC_DTRC_E_NESTING;
        err->pos = 0;
        snprintf(err->detail, sizeof err->detail,
                 "repeats and references nest %u deep; tracecheck reads up to %d", p->depth,
                 TC_DTRC_MAX_NEST);
        return 0;
    }
    return 1;
}

int tc_dtrc_prog_tainted(const tc_dtrc_prog *p, const tc_dtrc_dict *d)
{
    for (size_t k = 0; k < p->nops; k++)
        if (p->ops[k].kind == TC_DTRC_OP_REF && d->taint[p->ops[k].a])
            return 1;
    return 0;
}

void tc_dtrc_bits_str(tc_dtrc_bits v, char *buf, size_t size)
{
    char tmp[48];
    size_t n = 0;
    tc_dtrc_bits x = v;
    do {
        tmp[n++] = (char)('0' + (int)(x % 10));
        x /= 10;
    } while (x && n < sizeof tmp);
    size_t o = 0;
    while (n && o + 1 < size)
        buf[o++] = tmp[--n];
    buf[o] = '\0';
    if (v >= TC_DTRC_BITS_SAT && o < size)
        snprintf(buf + o, size - o, " or more");
}
