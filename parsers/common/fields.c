/* Records and fields reported by a parser for a view: see fields.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "fields.h"

/* Whether the record of index is in a range to keep. */
static int kept(const tc_fields *f, uint64_t index)
{
    for (size_t i = 0; i < f->nranges; i++)
        if (index >= f->ranges[i].first && index <= f->ranges[i].last)
            return 1;
    return 0;
}

/* First parse: whether record [pos, pos + len) of index holds a target's
 * offset. */
static void look_for_targets(tc_fields *f, uint64_t index, uint64_t pos, uint64_t len)
{
    for (size_t i = 0; i < f->ntargets; i++) {
        tc_field_target *t = &f->targets[i];
        uint64_t end = t->at + (t->len ? t->len : 1);
        if (pos <= t->at)
            t->before = index;
        if (pos < end && (pos + (len ? len : 1) > t->at)) {
            if (t->hit_first == UINT64_MAX)
                t->hit_first = index;
            t->hit_last = index;
        }
    }
}

static void vformat(char *buf, size_t size, const char *fmt, va_list ap)
{
    vsnprintf(buf, size, fmt, ap);
}

void tc_fields_record(tc_diag_sink *d, uint64_t pos, uint64_t len, tc_field_look look,
                      const char *fmt, ...)
{
    tc_fields *f = d->fields;
    if (!f)
        return;
    f->keeping = 0;
    if (f->input && (!d->input || strcmp(f->input, d->input) != 0))
        return;
    uint64_t index = f->count++;
    f->current_pos = pos;
    f->current_open = len == 0;
    if (f->ntargets)
        look_for_targets(f, index, pos, len);
    if (!kept(f, index))
        return;
    if (f->nrecords == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 16;
        tc_field_record *grown = realloc(f->records, cap * sizeof *grown);
        if (!grown) {
            f->oom = 1;
            return;
        }
        f->records = grown;
        f->cap = cap;
    }
    tc_field_record *r = &f->records[f->nrecords];
    memset(r, 0, sizeof *r);
    r->fields = malloc(TC_FIELDS_PER_RECORD * sizeof *r->fields);
    if (!r->fields) {
        f->oom = 1;
        return;
    }
    f->nrecords++;
    r->index = index;
    r->pos = pos;
    r->len = len;
    r->look = look;
    va_list ap;
    va_start(ap, fmt);
    vformat(r->what, sizeof r->what, fmt, ap);
    va_end(ap);
    f->keeping = 1;
}

void tc_fields_record_end(tc_diag_sink *d, uint64_t end)
{
    tc_fields *f = d->fields;
    if (!f || !f->count || !f->current_open)
        return;
    f->current_open = 0;
    /* The record's length was not known when it started: look again. */
    if (f->ntargets && end > f->current_pos)
        look_for_targets(f, f->count - 1, f->current_pos, end - f->current_pos);
    if (f->keeping && f->nrecords) {
        tc_field_record *r = &f->records[f->nrecords - 1];
        if (end > r->pos)
            r->len = end - r->pos;
    }
}

void tc_fields_field(tc_diag_sink *d, uint64_t pos, uint64_t len, unsigned bit, unsigned bits,
                     const char *name, const char *fmt, ...)
{
    tc_fields *f = d->fields;
    if (!f || !f->keeping || !f->nrecords)
        return;
    tc_field_record *r = &f->records[f->nrecords - 1];
    if (r->nfields == TC_FIELDS_PER_RECORD) {
        r->more++;
        return;
    }
    tc_field *x = &r->fields[r->nfields++];
    x->pos = pos;
    x->len = len;
    x->bit = (uint8_t)(bits ? bit : 0);
    x->bits = (uint8_t)(bits > 64 ? 64 : bits);
    snprintf(x->name, sizeof x->name, "%s", name);
    va_list ap;
    va_start(ap, fmt);
    vformat(x->value, sizeof x->value, fmt, ap);
    va_end(ap);
}

void tc_fields_free(tc_fields *f)
{
    for (size_t i = 0; i < f->nrecords; i++)
        free(f->records[i].fields);
    free(f->records);
    f->records = NULL;
    f->nrecords = f->cap = 0;
}
