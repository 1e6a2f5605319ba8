/* Views of the bytes behind a finding: see show.h. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "input.h"
#include "show.h"

/* Bytes of a record kept to draw it; a longer record shows its start. */
#define RECORD_BYTES 4096
/* Bytes shown in a hex field's column, and characters of a text field. */
#define HEX_SHOWN 8
#define TEXT_SHOWN 32 /* the column's width: longer text ends in "..." */

/* A growing string. */
typedef struct text {
    char *s;
    size_t n, cap;
    int oom;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = t->oom ? 0 : vsnprintf(t->s ? t->s + t->n : NULL, t->s ? t->cap - t->n : 0, fmt, ap);
        va_end(ap);
        if (t->oom || k < 0)
            return;
        if (t->s && t->n + (size_t)k < t->cap) {
            t->n += (size_t)k;
            return;
        }
        size_t cap = (t->cap ? 2 * t->cap : 1024) + (size_t)k;
        char *grown = realloc(t->s, cap);
        if (!grown) {
            t->oom = 1;
            return;
        }
        t->s = grown;
        t->cap = cap;
    }
}

/* ---- the records' bytes, read again from the input ---- */

typedef struct record_bytes {
    uint8_t *p;      /* RECORD_BYTES at most */
    size_t n;
    uint64_t line;   /* of the record's first byte, from 1 */
    uint64_t column; /* of it, from 1 */
} record_bytes;

/* Newlines in p[0..n), and where the last one is (n when none). */
static uint64_t newlines(const uint8_t *p, size_t n, size_t *last)
{
    uint64_t count = 0;
    *last = n;
    for (const uint8_t *q = p; (q = memchr(q, '\n', (size_t)(p + n - q))) != NULL; q++) {
        count++;
        *last = (size_t)(q - p);
    }
    return count;
}

/* Reads each kept record's bytes (RECORD_BYTES at most) and, for text,
 * the line and column it starts at, in one pass over the input to the
 * last record's end. 0, or -1 when the input cannot be read again. */
static int read_bytes(const char *file, const tc_check_opts *c, const tc_fields *f,
                      record_bytes *out, tc_error *err)
{
    tc_input *in = tc_input_open(file, c ? &c->input : NULL, err);
    if (!in)
        return -1;
    tc_reader *r = tc_input_reader(in);
    uint64_t end = 0;
    int lines = 0;
    for (size_t j = 0; j < f->nrecords; j++) {
        const tc_field_record *rec = &f->records[j];
        uint64_t e = rec->pos + (rec->len < RECORD_BYTES ? rec->len : RECORD_BYTES);
        end = e > end ? e : end;
        lines |= rec->look == TC_LOOK_TEXT;
    }
    uint64_t line = 1, line_start = 0, counted = 0; /* newlines counted before counted */
    const uint8_t *p;
    while (tc_pos(r) < end && (p = tc_need(r, 1)) != NULL) {
        size_t avail = tc_avail(r);
        uint64_t at = tc_pos(r), stop = at + avail;
        for (size_t j = 0; j < f->nrecords; j++) {
            const tc_field_record *rec = &f->records[j];
            record_bytes *b = &out[j];
            uint64_t lo = rec->pos, hi = rec->pos + (rec->len < RECORD_BYTES ? rec->len : RECORD_BYTES);
            if (lines && lo >= at && lo >= counted && lo < stop && !b->line) {
                size_t last;
                uint64_t k = newlines(p + (counted - at), (size_t)(lo - counted), &last);
                if (k) {
                    line += k;
                    line_start = counted + last + 1;
                }
                counted = lo;
                b->line = line;
                b->column = lo - line_start + 1;
            }
            if (b->p && hi > at && lo < stop && lo + b->n < hi && lo + b->n >= at) {
                uint64_t from = lo + b->n, to = hi < stop ? hi : stop;
                memcpy(b->p + b->n, p + (from - at), (size_t)(to - from));
                b->n += (size_t)(to - from);
            }
        }
        if (lines) {
            size_t last;
            uint64_t k = newlines(p + (counted - at), (size_t)(stop - counted), &last);
            if (k) {
                line += k;
                line_start = counted + last + 1;
            }
            counted = stop;
        }
        tc_advance(r, avail);
    }
    tc_input_close(in);
    return 0;
}

/* ---- drawing ---- */

static void hex_column(text *t, const record_bytes *b, uint64_t rec_pos, const tc_field *x)
{
    char col[3 * HEX_SHOWN + 8] = "";
    size_t n = 0;
    uint64_t shown = x->len < HEX_SHOWN ? x->len : HEX_SHOWN;
    for (uint64_t i = 0; i < shown; i++) {
        uint64_t at = x->pos + i - rec_pos;
        if (x->pos + i < rec_pos || at >= b->n) {
            n += (size_t)snprintf(col + n, sizeof col - n, "%s..", i ? " " : "");
            continue;
        }
        n += (size_t)snprintf(col + n, sizeof col - n, "%s%02x", i ? " " : "", b->p[at]);
    }
    if (x->len > HEX_SHOWN)
        snprintf(col + n, sizeof col - n, " +%" PRIu64, x->len - HEX_SHOWN);
    put(t, "  0x%08" PRIx64 "  %-30s", x->pos, col);
}

/* Where a field is in lines and columns, counted from its record's start. */
static void line_col(const record_bytes *b, uint64_t rec_pos, uint64_t pos, uint64_t *line,
                     uint64_t *col)
{
    *line = b->line;
    *col = b->column;
    for (uint64_t i = 0; rec_pos + i < pos && i < b->n; i++) {
        if (b->p[i] == '\n') {
            ++*line;
            *col = 1;
        } else {
            ++*col;
        }
    }
}

static void text_column(text *t, const record_bytes *b, uint64_t rec_pos, const tc_field *x)
{
    uint64_t line, col, end_line, end_col;
    line_col(b, rec_pos, x->pos, &line, &col);
    line_col(b, rec_pos, x->pos + (x->len ? x->len - 1 : 0), &end_line, &end_col);
    char where[64], quoted[TEXT_SHOWN + 8];
    if (end_line == line) /* "3:5-17" */
        snprintf(where, sizeof where, "%" PRIu64 ":%" PRIu64 "-%" PRIu64, line, col, end_col);
    else /* a value over several lines: "3:5-6:2" */
        snprintf(where, sizeof where, "%" PRIu64 ":%" PRIu64 "-%" PRIu64 ":%" PRIu64, line, col,
                 end_line, end_col);
    size_t n = 0;
    uint64_t shown = x->len <= TEXT_SHOWN ? x->len : TEXT_SHOWN - 3;
    for (uint64_t i = 0; i < shown; i++) {
        uint64_t at = x->pos + i - rec_pos;
        if (x->pos + i < rec_pos || at >= b->n)
            break;
        uint8_t ch = b->p[at];
        quoted[n++] = (char)(ch >= 0x20 && ch < 0x7f ? ch : '.');
    }
    if (shown < x->len)
        n += (size_t)snprintf(quoted + n, sizeof quoted - n, "...");
    quoted[n] = '\0';
    put(t, "  %-14s %-32s", where, quoted);
}

static void draw_record(text *t, const tc_field_record *r, const record_bytes *b, int marked)
{
    put(t, "%c record %" PRIu64 ", ", marked ? '>' : ' ', r->index);
    if (r->look == TC_LOOK_TEXT && b->line)
        put(t, "line %" PRIu64 ", ", b->line);
    put(t, "bytes %" PRIu64 "-%" PRIu64 " (0x%" PRIx64 ", %" PRIu64 " byte%s): %s\n", r->pos,
        r->pos + (r->len ? r->len - 1 : 0), r->pos, r->len, r->len == 1 ? "" : "s", r->what);
    for (size_t i = 0; i < r->nfields; i++) {
        const tc_field *x = &r->fields[i];
        if (r->look == TC_LOOK_TEXT)
            text_column(t, b, r->pos, x);
        else
            hex_column(t, b, r->pos, x);
        char name[TC_FIELD_NAME_MAX + 24];
        if (x->bits == 1)
            snprintf(name, sizeof name, "%s (bit %u)", x->name, x->bit);
        else if (x->bits)
            snprintf(name, sizeof name, "%s (bits %u-%u)", x->name, x->bit,
                     x->bit + x->bits - 1);
        else
            snprintf(name, sizeof name, "%s", x->name);
        put(t, "  %-26s %s\n", name, x->value);
    }
    if (r->more)
        put(t, "    ... %zu more field%s\n", r->more, r->more == 1 ? "" : "s");
}

/* ---- the two parses ---- */

static int parse(const char *path, const tc_check_opts *c, tc_fields *f, tc_error *err)
{
    tc_options opt = c && c->options ? *c->options : (tc_options)TC_OPTIONS_INIT;
    opt.on_diag = NULL; /* the findings are not what is asked for here */
    opt.user = NULL;
    tc_check_opts quiet = c ? *c : (tc_check_opts){0};
    quiet.options = &opt;
    quiet.dump = NULL;
    quiet.progress = NULL;
    quiet.threads = 1;
    quiet.fields = f;
    tc_summary sum;
    int rc = tc_check_path(path, &quiet, &sum, err);
    return rc == 2 && !f->count ? 2 : 0;
}

static uint64_t sub_floor(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

int tc_show(const char *path, const char *file, const tc_check_opts *c, unsigned context,
            tc_show_target *targets, size_t n, tc_error *err)
{
    if (n > TC_FIELDS_RANGES)
        n = TC_FIELDS_RANGES;
    tc_fields f = {.input = file};
    tc_field_target *look = calloc(n ? n : 1, sizeof *look);
    if (!look) {
        tc_error_set(err, "show", "out of memory");
        return 2;
    }
    /* First parse: the records that hold the offsets. */
    size_t nlook = 0;
    for (size_t i = 0; i < n; i++)
        if (!targets[i].by_record)
            look[nlook++] = (tc_field_target){targets[i].at, targets[i].len, UINT64_MAX,
                                              UINT64_MAX, UINT64_MAX};
    if (nlook) {
        f.targets = look;
        f.ntargets = nlook;
        if (parse(path, c, &f, err) == 2) {
            free(look);
            return 2;
        }
    }
    /* Second parse: keep them and their neighbours. */
    uint64_t *first = calloc(n ? n : 1, sizeof *first), *last = calloc(n ? n : 1, sizeof *last);
    int *missed = calloc(n ? n : 1, sizeof *missed);
    if (!first || !last || !missed) {
        free(first);
        free(last);
        free(missed);
        free(look);
        tc_error_set(err, "show", "out of memory");
        return 2;
    }
    tc_fields g = {.input = file};
    for (size_t i = 0, k = 0; i < n; i++) {
        if (targets[i].by_record) {
            first[i] = last[i] = targets[i].record;
        } else {
            const tc_field_target *t = &look[k++];
            first[i] = t->hit_first != UINT64_MAX ? t->hit_first : t->before;
            last[i] = t->hit_first != UINT64_MAX ? t->hit_last : t->before;
            missed[i] = t->hit_first == UINT64_MAX;
        }
        if (first[i] != UINT64_MAX)
            g.ranges[g.nranges++] = (tc_field_range){sub_floor(first[i], context),
                                                     last[i] + context};
    }
    free(look);
    int rc = 0;
    if (g.nranges)
        rc = parse(path, c, &g, err);
    record_bytes *bytes = calloc(g.nrecords ? g.nrecords : 1, sizeof *bytes);
    int have_bytes = 0;
    if (bytes && rc == 0 && g.nrecords) {
        for (size_t i = 0; i < g.nrecords; i++)
            bytes[i].p = malloc(RECORD_BYTES);
        tc_error ignored = TC_ERROR_INIT;
        have_bytes = read_bytes(file ? file : path, c, &g, bytes, &ignored) == 0;
        tc_error_free(&ignored);
    }
    for (size_t i = 0; i < n && rc == 0; i++) {
        text t = {0};
        if (targets[i].by_record && targets[i].record >= g.count) {
            put(&t, "  (the input has %" PRIu64 " record%s: no record %" PRIu64 ")\n", g.count,
                g.count == 1 ? "" : "s", targets[i].record);
        } else if (first[i] == UINT64_MAX) {
            put(&t, "  (no record of the input is at or before byte %" PRIu64 ")\n", targets[i].at);
        } else {
            if (missed[i])
                put(&t, "  (no record holds byte %" PRIu64 "; record %" PRIu64
                        " is the last that starts before it)\n",
                    targets[i].at, first[i]);
            size_t shown = 0;
            for (size_t j = 0; j < g.nrecords; j++) {
                const tc_field_record *r = &g.records[j];
                if (r->index + context < first[i] || r->index > last[i] + context)
                    continue;
                static const record_bytes none = {0};
                draw_record(&t, r, have_bytes ? &bytes[j] : &none,
                            r->index >= first[i] && r->index <= last[i]);
                shown++;
            }
            if (!shown)
                put(&t, "  (the input has %" PRIu64 " record%s: no record %" PRIu64 ")\n",
                    g.count, g.count == 1 ? "" : "s", first[i]);
        }
        if (g.oom || t.oom) {
            free(t.s);
            t.s = NULL;
            rc = 2;
            tc_error_set(err, "show", "out of memory");
        }
        targets[i].view = t.s;
    }
    if (bytes)
        for (size_t i = 0; i < g.nrecords; i++)
            free(bytes[i].p);
    free(bytes);
    free(first);
    free(last);
    free(missed);
    tc_fields_free(&g);
    return rc;
}
