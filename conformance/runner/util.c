/* Small helpers of the conformance runner: names, rule sets, strings, files. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"

const char *tc_conf_class_name(tc_conf_class c)
{
    switch (c) {
    case TC_CONF_Y: return "y";
    case TC_CONF_N: return "n";
    default: return "i";
    }
}

const char *tc_conf_verdict_name(tc_conf_verdict v)
{
    switch (v) {
    case TC_VERDICT_ACCEPT: return "accept";
    case TC_VERDICT_REJECT: return "reject";
    default: return "none";
    }
}

const char *tc_conf_result_name(tc_conf_result_kind k)
{
    static const char *const names[TC_CONF__RESULTS] = {
        "pass", "fail", "crash", "timeout", "skip", "out-of-scope", "not-installed",
        "broken", "xfail", "xpass",
    };
    return (unsigned)k < TC_CONF__RESULTS ? names[k] : "unknown";
}

int tc_conf_result_not_run(tc_conf_result_kind k)
{
    return k == TC_CONF_SKIP || k == TC_CONF_OUT_OF_SCOPE || k == TC_CONF_NOT_INSTALLED ||
           k == TC_CONF_BROKEN;
}

/* Allocation failure in the runner is not recoverable in any useful way: a
 * half-judged run would be misleading. */
static void *must(void *p)
{
    if (!p) {
        fputs("tracecheck conformance: out of memory\n", stderr);
        abort();
    }
    return p;
}

char *tc_conf_strdup(const char *s) { return must(strdup(s ? s : "")); }

char *tc_conf_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = must(malloc((size_t)(n < 0 ? 0 : n) + 1));
    va_start(ap, fmt);
    vsnprintf(s, (size_t)(n < 0 ? 0 : n) + 1, fmt, ap);
    va_end(ap);
    return s;
}

char *tc_conf_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = must(malloc(cap));
    for (;;) {
        if (n + 1 >= cap)
            buf = must(realloc(buf, cap *= 2));
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    int saved = errno;
    fclose(f);
    if (bad) {
        free(buf);
        errno = saved;
        return NULL;
    }
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

/* ---- rule sets ---- */

int tc_conf_rules_add(tc_conf_rules *s, const tc_rule_info *r)
{
    size_t i = 0;
    while (i < s->n && strcmp(s->r[i]->id, r->id) < 0)
        i++;
    if (i < s->n && s->r[i] == r)
        return 0;
    s->r = must(realloc(s->r, (s->n + 1) * sizeof *s->r));
    memmove(s->r + i + 1, s->r + i, (s->n - i) * sizeof *s->r);
    s->r[i] = r;
    s->n++;
    return 1;
}

int tc_conf_rules_equal(const tc_conf_rules *a, const tc_conf_rules *b)
{
    if (a->n != b->n)
        return 0;
    for (size_t i = 0; i < a->n; i++)
        if (a->r[i] != b->r[i])
            return 0;
    return 1;
}

int tc_conf_rules_has(const tc_conf_rules *s, const tc_rule_info *r)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->r[i] == r)
            return 1;
    return 0;
}

void tc_conf_rules_format(const tc_conf_rules *s, char *buf, size_t size)
{
    size_t used = 0;
    if (size == 0)
        return;
    buf[0] = '\0';
    if (s->n == 0) {
        snprintf(buf, size, "none");
        return;
    }
    for (size_t i = 0; i < s->n && used < size; i++) {
        int k = snprintf(buf + used, size - used, "%s%s", i ? ", " : "", s->r[i]->id);
        if (k < 0)
            break;
        used += (size_t)k;
    }
}

void tc_conf_rules_free(tc_conf_rules *s)
{
    free(s->r);
    s->r = NULL;
    s->n = 0;
}

void tc_conf_outcome_free(tc_conf_outcome *o)
{
    free(o->out);
    free(o->err);
    free(o->first_error_file);
    free(o->mismatch);
    free(o->no_verdict);
    tc_conf_rules_free(&o->errors);
    tc_conf_rules_free(&o->warnings);
    tc_conf_rules_free(&o->notes);
    memset(o, 0, sizeof *o);
}

void tc_conf_rules_move(tc_conf_rules *to, tc_conf_rules *from)
{
    *to = *from;
    memset(from, 0, sizeof *from);
}
