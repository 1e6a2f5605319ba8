#include <string.h>

#include "jsonl.h"

void tc_json_write_string(FILE *f, const char *s)
{
    putc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20)
                fprintf(f, "\\u%04x", *p);
            else
                putc(*p, f);
        }
    }
    putc('"', f);
}

static void flush(tc_jsonl *w)
{
    if (w->len)
        fwrite(w->buf, 1, w->len, w->f);
    w->len = 0;
}

/* Room for n more bytes (n well below the buffer's size). */
static char *room(tc_jsonl *w, size_t n)
{
    if (sizeof w->buf - w->len < n)
        flush(w);
    return w->buf + w->len;
}

static void put(tc_jsonl *w, const char *s, size_t n)
{
    memcpy(room(w, n), s, n);
    w->len += n;
}

static void put_u64(tc_jsonl *w, uint64_t v)
{
    static const char pairs[201] = "00010203040506070809101112131415161718192021222324"
                                   "25262728293031323334353637383940414243444546474849"
                                   "50515253545556575859606162636465666768697071727374"
                                   "75767778798081828384858687888990919293949596979899";
    char digits[20];
    size_t i = sizeof digits;
    while (v >= 100) { /* two digits per division */
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        digits[--i] = pairs[2 * r + 1];
        digits[--i] = pairs[2 * r];
    }
    if (v >= 10) {
        digits[--i] = pairs[2 * v + 1];
        digits[--i] = pairs[2 * v];
    } else {
        digits[--i] = (char)('0' + v);
    }
    put(w, digits + i, sizeof digits - i);
}

static void put_i64(tc_jsonl *w, int64_t v)
{
    if (v < 0) {
        put(w, "-", 1);
        put_u64(w, (uint64_t)0 - (uint64_t)v);
    } else {
        put_u64(w, (uint64_t)v);
    }
}

static void put_string(tc_jsonl *w, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    /* Keys and most values need no escaping: copy them whole. */
    size_t n = 0;
    while (s[n] && (unsigned char)s[n] >= 0x20 && s[n] != '"' && s[n] != '\\')
        n++;
    if (!s[n] && n + 2 <= sizeof w->buf) {
        char *d = room(w, n + 2);
        d[0] = '"';
        memcpy(d + 1, s, n);
        d[n + 1] = '"';
        w->len += n + 2;
        return;
    }
    put(w, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char *d = room(w, 6);
        if (*p >= 0x20 && *p != '"' && *p != '\\') {
            d[0] = (char)*p;
            w->len += 1;
        } else if (*p == '"' || *p == '\\') {
            d[0] = '\\';
            d[1] = (char)*p;
            w->len += 2;
        } else {
            memcpy(d, "\\u00", 4);
            d[4] = hex[*p >> 4];
            d[5] = hex[*p & 15];
            w->len += 6;
        }
    }
    put(w, "\"", 1);
}

static void key(tc_jsonl *w, const char *k)
{
    if (w->fields++)
        put(w, ",", 1);
    put_string(w, k);
    put(w, ":", 1);
}

void tc_jl_open(tc_jsonl *w)
{
    w->fields = 0;
    put(w, "{", 1);
}

void tc_jl_begin(tc_jsonl *w, const char *type)
{
    tc_jl_open(w);
    tc_jl_str(w, "t", type);
}

void tc_jl_end(tc_jsonl *w)
{
    put(w, "}\n", 2);
    flush(w);
}

void tc_jl_u64s(tc_jsonl *w, const char *k, uint64_t v)
{
    key(w, k);
    put(w, "\"", 1);
    put_u64(w, v);
    put(w, "\"", 1);
}

void tc_jl_i64s(tc_jsonl *w, const char *k, int64_t v)
{
    key(w, k);
    put(w, "\"", 1);
    put_i64(w, v);
    put(w, "\"", 1);
}

void tc_jl_int(tc_jsonl *w, const char *k, int64_t v)
{
    key(w, k);
    put_i64(w, v);
}

void tc_jl_uint(tc_jsonl *w, const char *k, uint64_t v)
{
    key(w, k);
    put_u64(w, v);
}

void tc_jl_bool(tc_jsonl *w, const char *k, int v)
{
    key(w, k);
    if (v)
        put(w, "true", 4);
    else
        put(w, "false", 5);
}

void tc_jl_str(tc_jsonl *w, const char *k, const char *s)
{
    key(w, k);
    put_string(w, s);
}

void tc_jl_null(tc_jsonl *w, const char *k)
{
    key(w, k);
    put(w, "null", 4);
}

void tc_jl_latin1(tc_jsonl *w, const char *k, const uint8_t *p, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    key(w, k);
    put(w, "\"", 1);
    for (size_t i = 0; i < n; i++) {
        char *d = room(w, 6);
        if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '"' && p[i] != '\\') {
            d[0] = (char)p[i];
            w->len += 1;
        } else if (p[i] == '"' || p[i] == '\\') {
            d[0] = '\\';
            d[1] = (char)p[i];
            w->len += 2;
        } else {
            memcpy(d, "\\u00", 4);
            d[4] = hex[p[i] >> 4];
            d[5] = hex[p[i] & 15];
            w->len += 6;
        }
    }
    put(w, "\"", 1);
}

void tc_jl_hex(tc_jsonl *w, const char *k, const uint8_t *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    key(w, k);
    put(w, "\"", 1);
    for (size_t i = 0; i < n; i++) {
        char *d = room(w, 2);
        d[0] = digits[p[i] >> 4];
        d[1] = digits[p[i] & 15];
        w->len += 2;
    }
    put(w, "\"", 1);
}

void tc_jl_object_begin(tc_jsonl *w, const char *k)
{
    key(w, k);
    put(w, "{", 1);
    w->outer = w->fields;
    w->fields = 0;
}

void tc_jl_object_end(tc_jsonl *w)
{
    put(w, "}", 1);
    w->fields = w->outer;
}

void tc_jl_array_i64s(tc_jsonl *w, int64_t v)
{
    if (w->items++)
        put(w, ",", 1);
    put(w, "\"", 1);
    put_i64(w, v);
    put(w, "\"", 1);
}

void tc_jl_array_begin(tc_jsonl *w, const char *k)
{
    key(w, k);
    put(w, "[", 1);
    w->items = 0;
}

void tc_jl_array_uint(tc_jsonl *w, uint64_t v)
{
    if (w->items++)
        put(w, ",", 1);
    put_u64(w, v);
}

void tc_jl_array_str(tc_jsonl *w, const char *s)
{
    if (w->items++)
        put(w, ",", 1);
    if (s)
        put_string(w, s);
    else
        put(w, "null", 4);
}

void tc_jl_array_u64s(tc_jsonl *w, uint64_t v)
{
    if (w->items++)
        put(w, ",\"", 2);
    else
        put(w, "\"", 1);
    put_u64(w, v);
    put(w, "\"", 1);
}

void tc_jl_array_end(tc_jsonl *w) { put(w, "]", 1); }

void tc_jl_u32_array(tc_jsonl *w, const char *k, const uint32_t *v, size_t n)
{
    tc_jl_array_begin(w, k);
    for (size_t i = 0; i < n; i++)
        tc_jl_array_uint(w, v[i]);
    tc_jl_array_end(w);
}

void tc_jl_u64s_array(tc_jsonl *w, const char *k, const uint64_t *v, size_t n)
{
    tc_jl_array_begin(w, k);
    for (size_t i = 0; i < n; i++)
        tc_jl_array_u64s(w, v[i]);
    tc_jl_array_end(w);
}
