/*
 * A machine error (a file that cannot be opened, a tool that cannot be
 * started, an option out of range) as a chain of causes, in the manner of
 * babeltrace2's error causes: the function that meets the failure sets the
 * root cause; each caller that knows more (which input, which case, which
 * companion) adds a cause of its own instead of appending to a string. The
 * chain prints as the one line the program has always printed.
 *
 *   tc_error e = TC_ERROR_INIT;
 *   if (!tc_input_open(path, NULL, &e)) {          // root: "cannot open: No such file..."
 *       tc_error_note(&e, "validate", "the DCFG given with --pair");
 *       char text[400];
 *       tc_error_format(&e, text, sizeof text);   // "cannot open: ... (the DCFG given with
 * --pair)"
 *   }
 *   tc_error_free(&e);
 *
 * Memory is bounded (TC_ERROR_MAX_CAUSES causes of at most
 * TC_ERROR_MESSAGE_MAX bytes each); when a cause cannot be allocated, a
 * static "out of memory" cause stands in for it, so that an error is never
 * lost for want of memory. docs/design.md, "Machine errors".
 */
#ifndef TC_ERROR_H
#define TC_ERROR_H

#include <stddef.h>

#define TC_ERROR_MAX_CAUSES  8
#define TC_ERROR_MESSAGE_MAX 1024 /* bytes of a cause's message, its '\0' included */

/* How a cause joins the text of the causes before it (inner ones). */
typedef enum tc_error_join {
    TC_ERROR_ROOT,    /* the first cause: its message alone */
    TC_ERROR_CONTEXT, /* "MESSAGE: inner" (where it happened, what was being done) */
    TC_ERROR_NOTE,    /* "inner (MESSAGE)" (which of several it was) */
    TC_ERROR_LINE,    /* "MESSAGE\ninner": a cause on a line of its own, before */
} tc_error_join;

typedef struct tc_error_cause {
    const char *where;   /* the module that added it ("input", "conformance"): static text */
    const char *message; /* what it says */
    const char *value;   /* the offending value (a path, an option's value), or NULL */
    tc_error_join join;
} tc_error_cause;

typedef struct tc_error {
    const tc_error_cause *cause[TC_ERROR_MAX_CAUSES]; /* [0]: the root cause */
    unsigned n;                                       /* causes held */
    unsigned dropped;                                 /* causes added beyond TC_ERROR_MAX_CAUSES */
} tc_error;

#define TC_ERROR_INIT                                                                              \
    {                                                                                              \
        {0}, 0, 0                                                                                  \
    }

/* The root cause: any chain held is freed first. */
void tc_error_set(tc_error *e, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A root cause with the offending value (kept, not printed). */
void tc_error_set_value(tc_error *e, const char *where, const char *value, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* An outer cause: "MESSAGE: inner". With no cause yet, it is the root. */
void tc_error_add(tc_error *e, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* An outer cause printed after the inner ones: "inner (MESSAGE)". */
void tc_error_note(tc_error *e, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* An outer cause printed on the line before the inner ones. */
void tc_error_line(tc_error *e, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Moves the causes of from onto e (e's first, then from's, as outer
 * causes of e's) and leaves from empty. */
void tc_error_move(tc_error *e, tc_error *from);

static inline int tc_error_is_set(const tc_error *e)
{
    return e && e->n > 0;
}

/* The chain as one text, as the program prints it: like snprintf, writes at
 * most size bytes (the last a '\0') and returns the length of the whole
 * text. "" when no cause is set. */
size_t tc_error_format(const tc_error *e, char *buf, size_t size);

/* Frees every cause; e is then empty (TC_ERROR_INIT). */
void tc_error_free(tc_error *e);

/* The cause that stands in for one that could not be allocated. */
extern const tc_error_cause tc_error_out_of_memory;

#endif
