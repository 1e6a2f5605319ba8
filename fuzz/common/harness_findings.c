/* The harness kit's finding capture: a tc_diag sink that keeps a copy of
 * every finding, with the sink's counters (harness.h). */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* ---- finding capture ---- */

struct hx_text_block {
    hx_text_block *older;
    size_t used, size;
    char text[];
};

enum { TEXT_BLOCK = 16384 };

/* One text block and one findings array kept from run to run (the last
 * freed): a run of a lean harness then allocates nothing for its findings. */
static hx_text_block *spare_block;
static hx_finding *spare_v;
static size_t spare_cap;

/* A copy of s in out's text blocks (a block of its own when it is long). */
static char *dup_or_null(hx_findings *out, const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    hx_text_block *b = out->text;
    if (!b || b->size - b->used < n) {
        size_t size = n > TEXT_BLOCK ? n : TEXT_BLOCK;
        if (spare_block && spare_block->size >= size) {
            b = spare_block;
            spare_block = NULL;
            size = b->size;
        } else {
            b = malloc(sizeof *b + size);
            FUZZ_CHECK_ALLOC(b);
        }
        b->older = out->text;
        b->used = 0;
        b->size = size;
        out->text = b;
    }
    char *d = memcpy(b->text + b->used, s, n);
    b->used += n;
    return d;
}

void hx_collect(void *user, const tc_diag *d)
{
    hx_findings *out = user;
    if (out->n == out->cap && !out->v && spare_v) {
        out->v = spare_v;
        out->cap = spare_cap;
        spare_v = NULL;
    }
    if (out->n == out->cap) {
        out->cap = out->cap ? 2 * out->cap : 16;
        out->v = realloc(out->v, out->cap * sizeof *out->v);
        FUZZ_CHECK_ALLOC(out->v);
    }
    hx_finding *x = &out->v[out->n++];
    x->rule = tc_rule_index(d->rule);
    x->severity = d->severity;
    x->offset = d->offset;
    x->length = d->length;
    x->line = d->line;
    x->column = d->column;
    x->unlocated = d->unlocated;
    x->path = dup_or_null(out, d->json_path);
    x->message = dup_or_null(out, d->message);
    x->context = dup_or_null(out, d->context);
    out->count[x->rule]++;
}

void hx_sink_init(tc_diag_sink *s, hx_findings *out, int pedantic, unsigned max_repeats)
{
    memset(out, 0, sizeof *out);
    /* "No cap" is a cap no input of a fuzzer's size can reach. */
    out->max_repeats = max_repeats ? max_repeats : UINT32_MAX;
    tc_diag_init(s, "fuzz", out->max_repeats, pedantic, hx_collect, out);
}

void hx_sink_finish(tc_diag_sink *s, hx_findings *out)
{
    tc_diag_finish(s);
    out->errors = s->errors;
    out->warnings = s->warnings;
    out->notes = s->notes;
    memcpy(out->count, s->count, sizeof out->count);
}

void hx_findings_free(hx_findings *f)
{
    while (f->text) {
        hx_text_block *older = f->text->older;
        if (!spare_block && f->text->size == TEXT_BLOCK)
            spare_block = f->text;
        else
            free(f->text);
        f->text = older;
    }
    if (!spare_v) {
        spare_v = f->v;
        spare_cap = f->cap;
    } else {
        free(f->v);
    }
    memset(f, 0, sizeof *f);
}

void hx_findings_drop(hx_findings *f, size_t i)
{
    hx_finding *x = &f->v[i];
    f->count[x->rule]--;
    if (x->severity == TC_ERROR)
        f->errors--;
    else if (x->severity == TC_WARNING)
        f->warnings--;
    else
        f->notes--;
    /* Its texts stay in the blocks until the findings are freed. */
    memmove(x, x + 1, (f->n - i - 1) * sizeof *x);
    f->n--;
}
