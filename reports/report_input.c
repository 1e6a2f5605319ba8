/* One input's findings kept for later: `validate -j N` checks inputs in
 * worker threads and reports them in input order from the main thread, so
 * each finding is copied out of the callback (its strings live only as long
 * as the call). */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <stdlib.h>
#include <string.h>

#include "report.h"

static char *dup_or_null(const char *s, int *oom)
{
    if (!s)
        return NULL;
    char *c = strdup(s);
    if (!c)
        *oom = 1;
    return c;
}

static void free_diag(tc_diag *d)
{
    free((char *)d->input);
    free((char *)d->json_path);
    free((char *)d->message);
    free((char *)d->context);
}

void tc_report_input_collect(void *input, const tc_diag *d)
{
    tc_report_input *r = input;
    if (r->count == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 8;
        tc_diag *n = realloc(r->diags, cap * sizeof *n);
        if (!n) {
            r->oom = 1;
            return;
        }
        r->diags = n;
        r->cap = cap;
    }
    tc_diag c = *d;
    int oom = 0;
    c.input = dup_or_null(d->input, &oom);
    c.json_path = dup_or_null(d->json_path, &oom);
    c.message = dup_or_null(d->message, &oom);
    c.context = dup_or_null(d->context, &oom);
    if (oom) {
        free_diag(&c);
        r->oom = 1;
        return;
    }
    r->diags[r->count++] = c;
}

void tc_report_input_free(tc_report_input *r)
{
    for (size_t i = 0; i < r->count; i++)
        free_diag(&r->diags[i]);
    free(r->diags);
    memset(r, 0, sizeof *r);
}
