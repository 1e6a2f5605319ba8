/* Running the XRay parser in a harness: see xray_events.h. */
#define _GNU_SOURCE /* open_memstream */
#include <inttypes.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/xray/xray.h"
#include "../../parsers/xray/xray_dump.h"
#include "xray_events.h"

typedef struct collector {
    xr_run *run;
    int keep, hash;
    tc_jsonl jl;
} collector;

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

/* The events array of the last run freed, for the next run: a lean
 * harness's run then allocates no array. */
static tc_xray_event *spare_events;
static size_t spare_ecap;

static void on_event(void *user, const void *event)
{
    collector *c = user;
    xr_run *run = c->run;
    const tc_xray_event *e = event;
    if (e->kind == TC_XRAY_EV_HEADER) {
        run->header = *e->header;
        run->have_header = 1;
    }
    if (c->jl.f)
        tc_xray_dump(&c->jl, e);
    run->nevents++;
    if (c->hash)
        run->event_hash = hash_event(run->event_hash, e);
    if (!c->keep)
        return;
    size_t n = run->nevents - 1;
    if (n == run->ecap && !run->events && spare_events) {
        run->events = spare_events;
        run->ecap = spare_ecap;
        spare_events = NULL;
    }
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

void xr_parse(xr_run *run, tc_reader *r, const xr_opts *o)
{
    memset(run, 0, sizeof *run);
    run->event_hash = 0xcbf29ce484222325ull;
    collector c = {.run = run, .keep = o->keep, .hash = o->hash};
    if (o->events && o->dump) {
        c.jl.f = open_memstream(&run->dump, &run->dump_len);
        FUZZ_CHECK_ALLOC(c.jl.f);
        /* Only this thread writes it: per-character locking is pure cost. */
        __fsetlocking(c.jl.f, FSETLOCKING_BYCALLER);
    }
    tc_diag_sink sink;
    hx_sink_init(&sink, &run->f, o->pedantic, o->max_repeats);
    tc_parse_ctx ctx = {.diags = &sink, .on_event = o->events ? on_event : NULL, .user = &c};
    if (o->mode == TC_FORMAT_AUTO)
        tc_xray_parse_any(r, &ctx);
    else
        hx_parse(o->mode, r, &ctx);
    /* What tc_check_input adds after any parser. */
    if (r->failed == TC_READ_DECOMPRESS_ERROR)
        tc_report(&sink, TC_RULE_INPUT_DECOMPRESS, r->fail_offset, 0, "%s", r->error);
    hx_sink_finish(&sink, &run->f);
    if (c.jl.f)
        fclose(c.jl.f);
    run->end_pos = tc_pos(r);
    run->read_failed = r->failed;
}

int xr_parse_path(xr_run *run, hx_path path, const uint8_t *data, size_t size, size_t window,
                  const xr_opts *o)
{
    hx_source s;
    if (!hx_open(&s, path, data, size, window))
        return 0;
    xr_parse(run, hx_reader(&s), o);
    hx_close(&s);
    return 1;
}

void xr_run_free(xr_run *run)
{
    hx_findings_free(&run->f);
    for (size_t i = 0; run->events && i < run->nevents; i++)
        free((void *)run->events[i].data);
    if (!spare_events) {
        spare_events = run->events;
        spare_ecap = run->ecap;
    } else {
        free(run->events);
    }
    free(run->dump);
    memset(run, 0, sizeof *run);
}

int xr_events_equal(const tc_xray_event *a, const tc_xray_event *b)
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

const char *xr_difference(const xr_run *a, const xr_run *b)
{
    if (hx_first_difference(&a->f, &b->f) >= 0)
        return "findings";
    if (a->f.errors != b->f.errors || a->f.warnings != b->f.warnings || a->f.notes != b->f.notes)
        return "counters";
    if (a->nevents != b->nevents || a->event_hash != b->event_hash)
        return "events";
    const tc_xray_header *x = &a->header, *y = &b->header;
    if (a->have_header != b->have_header || x->version != y->version || x->type != y->type ||
        x->bitfield != y->bitfield || x->cycle_frequency != y->cycle_frequency ||
        x->buffer_size != y->buffer_size || x->big_endian != y->big_endian)
        return "headers";
    if (a->end_pos != b->end_pos)
        return "stopping positions";
    return NULL;
}

void xr_report_difference(const xr_run *a, const char *la, const xr_run *b, const char *lb)
{
    hx_assert_same(&a->f, la, &b->f, lb);
    size_t n = a->nevents < b->nevents ? a->nevents : b->nevents;
    for (size_t i = 0; a->events && b->events && i < n; i++)
        FUZZ_ASSERT_MSG(xr_events_equal(&a->events[i], &b->events[i]),
                        "%s and %s: event %zu differs: kind %d at %" PRIu64 " vs kind %d at %"
                        PRIu64, la, lb, i, a->events[i].kind, a->events[i].offset,
                        b->events[i].kind, b->events[i].offset);
    FUZZ_ASSERT_MSG(a->nevents == b->nevents, "%s: %zu events, %s: %zu", la, a->nevents, lb,
                    b->nevents);
    FUZZ_FAIL("%s and %s: the %s differ", la, lb, xr_difference(a, b));
}

uint64_t xr_event_size(const tc_xray_event *e)
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
