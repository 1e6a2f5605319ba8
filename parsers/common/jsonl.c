#include <inttypes.h>

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

static void key(tc_jsonl *w, const char *k)
{
    if (w->fields++)
        putc(',', w->f);
    tc_json_write_string(w->f, k);
    putc(':', w->f);
}

void tc_jl_open(tc_jsonl *w)
{
    w->fields = 0;
    putc('{', w->f);
}

void tc_jl_begin(tc_jsonl *w, const char *type)
{
    tc_jl_open(w);
    tc_jl_str(w, "t", type);
}

void tc_jl_end(tc_jsonl *w) { fputs("}\n", w->f); }

void tc_jl_u64s(tc_jsonl *w, const char *k, uint64_t v)
{
    key(w, k);
    fprintf(w->f, "\"%" PRIu64 "\"", v);
}

void tc_jl_i64s(tc_jsonl *w, const char *k, int64_t v)
{
    key(w, k);
    fprintf(w->f, "\"%" PRId64 "\"", v);
}

void tc_jl_int(tc_jsonl *w, const char *k, int64_t v)
{
    key(w, k);
    fprintf(w->f, "%" PRId64, v);
}

void tc_jl_uint(tc_jsonl *w, const char *k, uint64_t v)
{
    key(w, k);
    fprintf(w->f, "%" PRIu64, v);
}

void tc_jl_bool(tc_jsonl *w, const char *k, int v)
{
    key(w, k);
    fputs(v ? "true" : "false", w->f);
}

void tc_jl_str(tc_jsonl *w, const char *k, const char *s)
{
    key(w, k);
    tc_json_write_string(w->f, s);
}

void tc_jl_null(tc_jsonl *w, const char *k)
{
    key(w, k);
    fputs("null", w->f);
}

void tc_jl_hex(tc_jsonl *w, const char *k, const uint8_t *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    key(w, k);
    putc('"', w->f);
    for (size_t i = 0; i < n; i++) {
        putc(digits[p[i] >> 4], w->f);
        putc(digits[p[i] & 15], w->f);
    }
    putc('"', w->f);
}
