#define _GNU_SOURCE /* open_memstream */
#include <inttypes.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>

#include "../parsers/common/diag.h"
#include "../parsers/xray/xray_dump.h"
#include "fuzz_helpers.h"
#include "fuzz_xray.h"

typedef struct collector {
    fx_run *run;
    int keep;
    tc_jsonl jl;
} collector;

static char *dup_or_null(const char *s)
{
    if (!s)
        return NULL;
    char *d = strdup(s);
    FUZZ_CHECK_ALLOC(d);
    return d;
}

static void on_diag(void *user, const tc_diag *d)
{
    fx_run *run = ((collector *)user)->run;
    if (run->ndiags == run->dcap) {
        run->dcap = run->dcap ? 2 * run->dcap : 16;
        run->diags = realloc(run->diags, run->dcap * sizeof *run->diags);
        FUZZ_CHECK_ALLOC(run->diags);
    }
    fx_diag *x = &run->diags[run->ndiags++];
    x->rule = tc_rule_index(d->rule);
    x->severity = d->severity;
    x->offset = d->offset;
    x->length = d->length;
    x->unlocated = d->unlocated;
    x->message = dup_or_null(d->message);
    x->context = dup_or_null(d->context);
}

/* FNV-1a, 64 bits: cheap, and any difference changes it in practice. */
static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

#define HASH_FIELD(h, f) ((h) = hash_bytes((h), &(f), sizeof(f)))

static uint64_t hash_event(uint64_t h, const tc_xray_event *e)
{
    HASH_FIELD(h, e->kind);
    HASH_FIELD(h, e->offset);
    HASH_FIELD(h, e->cpu);
    HASH_FIELD(h, e->tsc);
    HASH_FIELD(h, e->tid);
    HASH_FIELD(h, e->pid);
    HASH_FIELD(h, e->action);
    HASH_FIELD(h, e->func_id);
    HASH_FIELD(h, e->delta);
    HASH_FIELD(h, e->value);
    HASH_FIELD(h, e->id);
    HASH_FIELD(h, e->wall_sec);
    HASH_FIELD(h, e->wall_usec);
    HASH_FIELD(h, e->size);
    HASH_FIELD(h, e->event_type);
    HASH_FIELD(h, e->event_cpu);
    int held = e->data != NULL;
    HASH_FIELD(h, held);
    HASH_FIELD(h, e->data_len);
    return e->data ? hash_bytes(h, e->data, e->data_len) : h;
}

static void on_event(void *user, const void *event)
{
    collector *c = user;
    fx_run *run = c->run;
    const tc_xray_event *e = event;
    if (e->kind == TC_XRAY_EV_HEADER) {
        run->header = *e->header;
        run->have_header = 1;
    }
    if (c->jl.f)
        tc_xray_dump(&c->jl, e);
    run->nevents++;
    run->event_hash = hash_event(run->event_hash, e);
    if (!c->keep)
        return;
    size_t n = run->nevents - 1;
    if (n == run->ecap) {
        run->ecap = run->ecap ? 2 * run->ecap : 64;
        run->events = realloc(run->events, run->ecap * sizeof *run->events);
        FUZZ_CHECK_ALLOC(run->events);
    }
    tc_xray_event *x = &run->events[n];
    *x = *e;
    x->header = NULL; /* points into the parser, which is gone after the parse */
    if (e->data) {
        uint8_t *copy = malloc(e->data_len ? e->data_len : 1);
        FUZZ_CHECK_ALLOC(copy);
        memcpy(copy, e->data, e->data_len);
        x->data = copy;
    }
}

void fx_parse(fx_run *run, tc_reader *r, const fx_opts *o)
{
    memset(run, 0, sizeof *run);
    run->event_hash = 0xcbf29ce484222325ull;
    collector c = {.run = run, .keep = o->keep};
    if (o->events && o->dump) {
        c.jl.f = open_memstream(&run->dump, &run->dump_len);
        FUZZ_CHECK_ALLOC(c.jl.f);
        /* Only this thread writes it: per-character locking is pure cost. */
        __fsetlocking(c.jl.f, FSETLOCKING_BYCALLER);
    }
    tc_diag_sink sink;
    /* "No cap" is a cap no input of a fuzzer's size can reach. */
    tc_diag_init(&sink, "fuzz", o->max_repeats ? o->max_repeats : UINT32_MAX, o->pedantic,
                 on_diag, &c);
    tc_parse_ctx ctx = {.diags = &sink, .on_event = o->events ? on_event : NULL, .user = &c};
    tc_xray_parse_any(r, &ctx);
    /* What tc_check_input adds after any parser. */
    if (r->failed == TC_READ_DECOMPRESS_ERROR)
        tc_report(&sink, TC_RULE_INPUT_DECOMPRESS, r->fail_offset, 0, "%s", r->error);
    tc_diag_finish(&sink);
    if (c.jl.f)
        fclose(c.jl.f);
    run->errors = sink.errors;
    run->warnings = sink.warnings;
    run->notes = sink.notes;
    memcpy(run->rule_count, sink.count, sizeof run->rule_count);
    run->end_pos = tc_pos(r);
    run->read_failed = r->failed;
}

void fx_run_free(fx_run *run)
{
    for (size_t i = 0; i < run->ndiags; i++) {
        free(run->diags[i].message);
        free(run->diags[i].context);
    }
    free(run->diags);
    for (size_t i = 0; run->events && i < run->nevents; i++)
        free((void *)run->events[i].data);
    free(run->events);
    free(run->dump);
    memset(run, 0, sizeof *run);
}

static int str_eq(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static int diag_eq(const fx_diag *a, const fx_diag *b)
{
    return a->rule == b->rule && a->severity == b->severity && a->offset == b->offset &&
           a->length == b->length && a->unlocated == b->unlocated &&
           str_eq(a->message, b->message) && str_eq(a->context, b->context);
}

long fx_first_diag_difference(const fx_run *a, const fx_run *b)
{
    size_t n = a->ndiags < b->ndiags ? a->ndiags : b->ndiags;
    for (size_t i = 0; i < n; i++)
        if (!diag_eq(&a->diags[i], &b->diags[i]))
            return (long)i;
    return a->ndiags == b->ndiags ? -1 : (long)n;
}

void fx_print_diag(FILE *f, const char *label, const fx_diag *d)
{
    fprintf(f, "  %s: %s at %" PRIu64 "+%" PRIu64 "%s: %s%s%s\n", label, tc_rules[d->rule].id,
            d->offset, d->length, d->unlocated ? " (unlocated)" : "",
            d->message ? d->message : "(no message)", d->context ? " -- " : "",
            d->context ? d->context : "");
}

void fx_print_diag_difference(FILE *f, const fx_run *a, const char *la, const fx_run *b,
                              const char *lb, long from)
{
    fprintf(f, "diagnostics differ from #%ld (%s has %zu, %s has %zu):\n", from, la, a->ndiags,
            lb, b->ndiags);
    for (size_t i = (size_t)from; i < (size_t)from + 3; i++) {
        if (i < a->ndiags)
            fx_print_diag(f, la, &a->diags[i]);
        if (i < b->ndiags)
            fx_print_diag(f, lb, &b->diags[i]);
    }
}

int fx_events_equal(const tc_xray_event *a, const tc_xray_event *b)
{
    if (a->data_len != b->data_len || (a->data == NULL) != (b->data == NULL))
        return 0;
    if (a->data && memcmp(a->data, b->data, a->data_len) != 0)
        return 0;
    return a->kind == b->kind && a->offset == b->offset && a->cpu == b->cpu &&
           a->tsc == b->tsc && a->tid == b->tid && a->pid == b->pid && a->action == b->action &&
           a->func_id == b->func_id && a->delta == b->delta && a->value == b->value &&
           a->id == b->id && a->wall_sec == b->wall_sec && a->wall_usec == b->wall_usec &&
           a->size == b->size && a->event_type == b->event_type && a->event_cpu == b->event_cpu;
}

uint64_t fx_event_size(const tc_xray_event *e)
{
    switch (e->kind) {
    case TC_XRAY_EV_HEADER: return TC_XRAY_HEADER_SIZE;
    case TC_XRAY_EV_FUNCTION: return TC_XRAY_FUNCTION_SIZE;
    case TC_XRAY_EV_BASIC_FUNCTION:
    case TC_XRAY_EV_BASIC_ARG: return TC_XRAY_BASIC_RECORD_SIZE;
    case TC_XRAY_CUSTOM_EVENT:
    case TC_XRAY_TYPED_EVENT: return TC_XRAY_METADATA_SIZE + (uint64_t)(uint32_t)e->size;
    default: return TC_XRAY_METADATA_SIZE;
    }
}
