#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovni_json.h"
#include "../common/xalloc.h"

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(tc_gen_xmalloc(n), s, n);
}

static ovni_json *node(ovni_jkind kind)
{
    ovni_json *j = tc_gen_xmalloc(sizeof *j);
    memset(j, 0, sizeof *j);
    j->kind = kind;
    return j;
}

ovni_json *ovni_json_object(void) { return node(OJ_OBJECT); }
ovni_json *ovni_json_array(void) { return node(OJ_ARRAY); }

ovni_json *ovni_json_text(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    ovni_json *j = node(OJ_TEXT);
    j->text = tc_gen_xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(j->text, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return j;
}

ovni_json *ovni_json_string(const char *s)
{
    tc_bytebuf b = {0};
    tc_bb_append(&b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char esc[8];
        const char *e = NULL;
        switch (*p) {
        case '"': e = "\\\""; break;
        case '\\': e = "\\\\"; break;
        case '\n': e = "\\n"; break;
        case '\t': e = "\\t"; break;
        case '\r': e = "\\r"; break;
        default:
            if (*p < 0x20) {
                snprintf(esc, sizeof esc, "\\u%04x", *p);
                e = esc;
            }
        }
        if (e)
            tc_bb_append(&b, e, strlen(e));
        else
            tc_bb_append(&b, p, 1);
    }
    tc_bb_append(&b, "\"", 2); /* the closing quote and a NUL */
    ovni_json *j = node(OJ_TEXT);
    j->text = (char *)b.p;
    return j;
}

void ovni_json_free(ovni_json *j)
{
    if (!j)
        return;
    for (size_t i = 0; i < j->n; i++)
        ovni_json_free(j->kids[i]);
    free(j->kids);
    free(j->key);
    free(j->text);
    free(j);
}

ovni_json *ovni_json_insert(ovni_json *parent, size_t at, const char *key, ovni_json *child)
{
    if (parent->n == parent->cap) {
        parent->cap = parent->cap ? parent->cap * 2 : 8;
        ovni_json **k = realloc(parent->kids, parent->cap * sizeof *k);
        if (!k) {
            fputs("tracecheck: out of memory\n", stderr);
            abort();
        }
        parent->kids = k;
    }
    if (at > parent->n)
        at = parent->n;
    memmove(parent->kids + at + 1, parent->kids + at, (parent->n - at) * sizeof *parent->kids);
    parent->kids[at] = child;
    parent->n++;
    free(child->key);
    child->key = key ? xstrdup(key) : NULL;
    return child;
}

ovni_json *ovni_json_add(ovni_json *parent, const char *key, ovni_json *child)
{
    return ovni_json_insert(parent, parent->n, key, child);
}

ovni_json *ovni_json_add_member_text(ovni_json *parent, size_t at, const char *text)
{
    ovni_json *j = node(OJ_MEMBER);
    j->text = xstrdup(text);
    return ovni_json_insert(parent, at, NULL, j);
}

long ovni_json_find(const ovni_json *obj, const char *key)
{
    for (size_t i = 0; obj && i < obj->n; i++)
        if (obj->kids[i]->key && !strcmp(obj->kids[i]->key, key))
            return (long)i;
    return -1;
}

ovni_json *ovni_json_get(const ovni_json *obj, const char *key)
{
    long i = ovni_json_find(obj, key);
    return i < 0 ? NULL : obj->kids[i];
}

void ovni_json_remove(ovni_json *parent, size_t i)
{
    if (i >= parent->n)
        return;
    ovni_json_free(parent->kids[i]);
    memmove(parent->kids + i, parent->kids + i + 1, (parent->n - i - 1) * sizeof *parent->kids);
    parent->n--;
}

void ovni_json_replace(ovni_json *parent, size_t i, ovni_json *value)
{
    if (i >= parent->n) {
        ovni_json_free(value);
        return;
    }
    ovni_json *old = parent->kids[i];
    free(value->key);
    value->key = old->key;
    old->key = NULL;
    parent->kids[i] = value;
    ovni_json_free(old);
}

ovni_json *ovni_json_copy(const ovni_json *j)
{
    ovni_json *c = node(j->kind);
    c->key = j->key ? xstrdup(j->key) : NULL;
    c->text = j->text ? xstrdup(j->text) : NULL;
    for (size_t i = 0; i < j->n; i++)
        ovni_json_insert(c, c->n, j->kids[i]->key, ovni_json_copy(j->kids[i]));
    return c;
}

/* ---- writing ---- */

static void put(tc_bytebuf *out, const char *s) { tc_bb_append(out, s, strlen(s)); }

static void line(tc_bytebuf *out, const ovni_json_style *st, unsigned depth)
{
    put(out, st->newline ? st->newline : "\n");
    for (unsigned i = 0; i < depth; i++)
        put(out, st->indent);
}

static void write_node(tc_bytebuf *out, ovni_json *j, const ovni_json_style *st, unsigned depth)
{
    j->begin = out->len;
    if (j->kind == OJ_TEXT || j->kind == OJ_MEMBER) {
        put(out, j->text);
        j->end = out->len;
        return;
    }
    int obj = j->kind == OJ_OBJECT;
    put(out, obj ? "{" : "[");
    for (size_t i = 0; i < j->n; i++) {
        ovni_json *k = j->kids[i];
        if (i)
            put(out, st->indent || !st->spaces ? "," : ", ");
        if (st->indent)
            line(out, st, depth + 1);
        if (k->key && k->kind != OJ_MEMBER) {
            put(out, "\"");
            put(out, k->key);
            put(out, st->indent || st->spaces ? "\": " : "\":");
        }
        write_node(out, k, st, depth + 1);
    }
    if (st->indent && j->n)
        line(out, st, depth);
    put(out, obj ? "}" : "]");
    j->end = out->len;
}

void ovni_json_write(tc_bytebuf *out, ovni_json *root, const ovni_json_style *style)
{
    static const ovni_json_style compact = {NULL, NULL, 0};
    const ovni_json_style *st = style ? style : &compact;
    write_node(out, root, st, 0);
    put(out, st->indent && st->newline ? st->newline : "\n");
}
