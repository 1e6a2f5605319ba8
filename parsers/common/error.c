/* The causes of a machine error: see error.h. Each cause is one allocation
 * (the struct, then its message and value); the static out-of-memory cause
 * is never freed. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

const tc_error_cause tc_error_out_of_memory = {
    .where = "error",
    .message = "out of memory",
    .value = NULL,
    .join = TC_ERROR_ROOT,
};

static const tc_error_cause *make(const char *where, tc_error_join join, const char *value,
                                  const char *fmt, va_list ap)
{
    char message[TC_ERROR_MESSAGE_MAX];
    vsnprintf(message, sizeof message, fmt, ap);
    size_t m = strlen(message) + 1, v = value ? strlen(value) + 1 : 0;
    if (v > TC_ERROR_MESSAGE_MAX)
        v = TC_ERROR_MESSAGE_MAX;
    tc_error_cause *c = malloc(sizeof *c + m + v);
    if (!c)
        return &tc_error_out_of_memory;
    char *p = (char *)(c + 1);
    memcpy(p, message, m);
    c->message = p;
    c->value = NULL;
    if (value) {
        memcpy(p + m, value, v - 1);
        p[m + v - 1] = '\0';
        c->value = p + m;
    }
    c->where = where ? where : "";
    c->join = join;
    return c;
}

static void release(const tc_error_cause *c)
{
    if (c && c != &tc_error_out_of_memory)
        free((void *)c);
}

static void push(tc_error *e, const tc_error_cause *c)
{
    if (e->n == TC_ERROR_MAX_CAUSES) {
        release(c);
        e->dropped++;
        return;
    }
    e->cause[e->n++] = c;
}

void tc_error_free(tc_error *e)
{
    if (!e)
        return;
    for (unsigned i = 0; i < e->n; i++)
        release(e->cause[i]);
    memset(e, 0, sizeof *e);
}

void tc_error_set(tc_error *e, const char *where, const char *fmt, ...)
{
    if (!e)
        return;
    tc_error_free(e);
    va_list ap;
    va_start(ap, fmt);
    push(e, make(where, TC_ERROR_ROOT, NULL, fmt, ap));
    va_end(ap);
}

void tc_error_set_value(tc_error *e, const char *where, const char *value, const char *fmt, ...)
{
    if (!e)
        return;
    tc_error_free(e);
    va_list ap;
    va_start(ap, fmt);
    push(e, make(where, TC_ERROR_ROOT, value, fmt, ap));
    va_end(ap);
}

#define ADD(join)                                                                                  \
    do {                                                                                           \
        if (!e)                                                                                    \
            return;                                                                                \
        va_list ap;                                                                                \
        va_start(ap, fmt);                                                                         \
        push(e, make(where, e->n ? (join) : TC_ERROR_ROOT, NULL, fmt, ap));                        \
        va_end(ap);                                                                                \
    } while (0)

void tc_error_add(tc_error *e, const char *where, const char *fmt, ...)
{
    ADD(TC_ERROR_CONTEXT);
}

void tc_error_note(tc_error *e, const char *where, const char *fmt, ...)
{
    ADD(TC_ERROR_NOTE);
}

void tc_error_line(tc_error *e, const char *where, const char *fmt, ...)
{
    ADD(TC_ERROR_LINE);
}

void tc_error_move(tc_error *e, tc_error *from)
{
    if (!e || !from || e == from)
        return;
    for (unsigned i = 0; i < from->n; i++)
        push(e, from->cause[i]);
    e->dropped += from->dropped;
    memset(from, 0, sizeof *from);
}

/* Writes text at *at in buf (as much as fits), counting its whole length. */
static void emit(char *buf, size_t size, size_t *at, const char *text, size_t n)
{
    if (*at + 1 < size) {
        size_t room = size - 1 - *at;
        memcpy(buf + *at, text, n < room ? n : room);
    }
    *at += n;
}

/* The text of causes [0, k): the outer cause k-1 around the inner ones. */
static void render(const tc_error *e, unsigned k, char *buf, size_t size, size_t *at)
{
    if (k == 0)
        return;
    const tc_error_cause *c = e->cause[k - 1];
    const char *m = c->message;
    switch (k == 1 ? TC_ERROR_ROOT : c->join) {
    case TC_ERROR_ROOT: emit(buf, size, at, m, strlen(m)); break;
    case TC_ERROR_CONTEXT:
        emit(buf, size, at, m, strlen(m));
        emit(buf, size, at, ": ", 2);
        render(e, k - 1, buf, size, at);
        break;
    case TC_ERROR_NOTE:
        render(e, k - 1, buf, size, at);
        emit(buf, size, at, " (", 2);
        emit(buf, size, at, m, strlen(m));
        emit(buf, size, at, ")", 1);
        break;
    case TC_ERROR_LINE:
        emit(buf, size, at, m, strlen(m));
        emit(buf, size, at, "\n", 1);
        render(e, k - 1, buf, size, at);
        break;
    }
}

size_t tc_error_format(const tc_error *e, char *buf, size_t size)
{
    size_t at = 0;
    if (e)
        render(e, e->n, buf, size, &at);
    if (size)
        buf[at < size ? at : size - 1] = '\0';
    return at;
}
