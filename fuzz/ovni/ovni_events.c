/* Running the ovni parsers in a harness: see ovni_events.h. */
#define _GNU_SOURCE /* open_memstream */
#include <inttypes.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/ovni/ovni.h"
#include "../../parsers/ovni/ovni_dump.h"
#include "../../parsers/ovni/ovni_meta.h"
#include "../../parsers/ovni/ovni_model.h"
#include "ovni_events.h"

/* ---- binary streams ---- */

/* FNV-1a, 64 bits: cheap, and any difference changes it in practice. */
static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

#define HASH_FIELD(h, f) ((h) = hash_bytes((h), &(f), sizeof(f)))

typedef struct collector {
    ov_run *run;
    int keep, hash;
    tc_jsonl jl;
} collector;

/* Every field of the event, payload included, into the running hash. */
static uint64_t hash_event(uint64_t h, const tc_ovni_event *e)
{
    HASH_FIELD(h, e->offset);
    HASH_FIELD(h, e->flags);
    HASH_FIELD(h, e->size_code);
    h = hash_bytes(h, e->mcv, 4);
    HASH_FIELD(h, e->clock);
    HASH_FIELD(h, e->jumbo);
    HASH_FIELD(h, e->payload_len);
    int held = e->payload != NULL;
    HASH_FIELD(h, held);
    return e->payload ? hash_bytes(h, e->payload, e->payload_len) : h;
}

static void add_event(collector *c, const tc_ovni_event *e)
{
    ov_run *run = c->run;
    run->nevents++;
    if (c->hash)
        run->event_hash = hash_event(run->event_hash, e);
    if (!c->keep)
        return;
    if (run->nevents > run->cap) {
        run->cap = run->cap ? 2 * run->cap : 64;
        run->ev = realloc(run->ev, run->cap * sizeof *run->ev);
        FUZZ_CHECK_ALLOC(run->ev);
    }
    ov_event *x = &run->ev[run->nevents - 1];
    x->offset = e->offset;
    x->flags = e->flags;
    x->size_code = e->size_code;
    memcpy(x->mcv, e->mcv, 4);
    x->clock = e->clock;
    x->jumbo = e->jumbo;
    x->payload_len = e->payload_len;
    x->payload = NULL;
    if (e->payload) {
        x->payload = malloc(e->payload_len ? e->payload_len : 1);
        FUZZ_CHECK_ALLOC(x->payload);
        memcpy(x->payload, e->payload, e->payload_len);
    }
}

static void on_record(void *user, const void *event)
{
    collector *c = user;
    const tc_ovni_dump_record *rec = event;
    if (c->jl.f)
        tc_ovni_dump(&c->jl, rec);
    switch (rec->kind) {
    case TC_OVNI_REC_HEADER:
        FUZZ_ASSERT_MSG(c->run->records == 0 && c->run->nevents == 0,
                        "a header record after %d records", c->run->records);
        c->run->records++;
        break;
    case TC_OVNI_REC_STREAM:
        FUZZ_ASSERT_MSG(c->run->records == 1 && c->run->nevents == 0,
                        "a stream record after %d records and %zu events", c->run->records,
                        c->run->nevents);
        FUZZ_ASSERT(rec->stream && strcmp(rec->stream, ".") == 0 && rec->meta == NULL);
        c->run->records++;
        c->run->big_endian = rec->big_endian;
        break;
    case TC_OVNI_REC_EVENT:
        FUZZ_ASSERT_MSG(c->run->records == 2, "an event before the stream record");
        FUZZ_ASSERT(rec->ev && rec->stream && strcmp(rec->stream, ".") == 0);
        add_event(c, rec->ev);
        break;
    default:
        FUZZ_FAIL("record kind %d", rec->kind);
    }
}

void ov_parse_stream(ov_run *run, tc_reader *r, const ov_opts *o)
{
    memset(run, 0, sizeof *run);
    run->event_hash = 0xcbf29ce484222325ull;
    collector c = {.run = run, .keep = o->keep, .hash = o->hash};
    tc_diag_sink sink;
    hx_sink_init(&sink, &run->f, 1, o->max_repeats);
    if (o->library) {
        if (o->dump) {
            c.jl.f = open_memstream(&run->dump, &run->dump_len);
            FUZZ_CHECK_ALLOC(c.jl.f);
            /* Only this thread writes it: per-character locking is pure cost. */
            __fsetlocking(c.jl.f, FSETLOCKING_BYCALLER);
        }
        tc_parse_ctx ctx = {.diags = &sink, .on_event = on_record, .user = &c,
                            .no_models = !o->models};
        tc_ovni_parse(r, &ctx);
        run->header_ok = run->records == 2;
        if (c.jl.f)
            fclose(c.jl.f);
    } else {
        /* As a whole trace's check reads a stream.obs (ovni_trace.c). */
        tc_ovni_stream *s = tc_ovni_stream_new(r, &sink, o->payloads);
        FUZZ_CHECK_ALLOC(s);
        tc_ovni_model model;
        tc_ovni_model_init(&model, &sink, o->meta);
        if (tc_ovni_stream_header(s)) {
            run->header_ok = 1;
            tc_ovni_event ev;
            while (tc_ovni_stream_next(s, &ev)) {
                if (o->models)
                    tc_ovni_model_event(&model, &ev);
                add_event(&c, &ev);
            }
            if (o->models)
                tc_ovni_model_finish(&model);
        }
        tc_ovni_model_free(&model);
        FUZZ_ASSERT_MSG(tc_ovni_stream_count(s) == run->nevents,
                        "the stream counts %" PRIu64 " events, %zu were delivered",
                        tc_ovni_stream_count(s), run->nevents);
        run->big_endian = tc_ovni_stream_big_endian(s);
        tc_ovni_stream_free(s);
    }
    hx_sink_finish(&sink, &run->f);
    run->end_pos = tc_pos(r);
    run->read_failed = r->failed;
}

int ov_parse_stream_path(ov_run *run, hx_path path, const uint8_t *data, size_t size,
                         size_t window, const ov_opts *o)
{
    hx_source s;
    if (!hx_open(&s, path, data, size, window))
        return 0;
    ov_parse_stream(run, hx_reader(&s), o);
    hx_close(&s);
    return 1;
}

void ov_run_free(ov_run *run)
{
    hx_findings_free(&run->f);
    for (size_t i = 0; run->ev && i < run->nevents; i++)
        free(run->ev[i].payload);
    free(run->ev);
    free(run->dump);
    memset(run, 0, sizeof *run);
}

int ov_events_equal(const ov_event *a, const ov_event *b)
{
    if ((a->payload == NULL) != (b->payload == NULL))
        return 0;
    if (a->payload && memcmp(a->payload, b->payload, a->payload_len) != 0)
        return 0;
    return a->offset == b->offset && a->flags == b->flags && a->size_code == b->size_code &&
           memcmp(a->mcv, b->mcv, 4) == 0 && a->clock == b->clock && a->jumbo == b->jumbo &&
           a->payload_len == b->payload_len;
}

void ov_assert_same_runs(const ov_run *a, const char *la, const ov_run *b, const char *lb,
                         int same_payloads)
{
    hx_assert_same(&a->f, la, &b->f, lb);
    FUZZ_ASSERT_MSG(a->nevents == b->nevents, "%s: %zu events, %s: %zu", la, a->nevents, lb,
                    b->nevents);
    FUZZ_ASSERT_MSG(a->header_ok == b->header_ok && a->big_endian == b->big_endian,
                    "%s and %s read the header differently", la, lb);
    if (same_payloads)
        FUZZ_ASSERT_MSG(a->event_hash == b->event_hash, "%s and %s: the events differ", la, lb);
    for (size_t i = 0; a->ev && b->ev && i < a->nevents; i++) {
        ov_event x = a->ev[i], y = b->ev[i];
        if (!same_payloads && (!x.payload || !y.payload))
            x.payload = y.payload = NULL; /* one of them did not ask for it */
        FUZZ_ASSERT_MSG(ov_events_equal(&x, &y), "%s and %s: event %zu at %" PRIu64 " differs",
                        la, lb, i, x.offset);
    }
}


/* ---- metadata ---- */

void ov_parse_meta(ov_meta_run *run, tc_reader *r, unsigned max_repeats)
{
    memset(run, 0, sizeof *run);
    tc_diag_sink sink;
    hx_sink_init(&sink, &run->f, 1, max_repeats);
    tc_ovni_meta_read(r, &sink, &run->meta);
    hx_sink_finish(&sink, &run->f);
    run->end_pos = tc_pos(r);
    run->read_failed = r->failed;
}

void ov_meta_run_free(ov_meta_run *run)
{
    hx_findings_free(&run->f);
    tc_ovni_meta_free(&run->meta);
    memset(run, 0, sizeof *run);
}

static int loc_eq(const tc_ovni_loc *a, const tc_ovni_loc *b)
{
    if (a->set != b->set)
        return 0;
    return !a->set || (a->offset == b->offset && a->line == b->line && a->column == b->column &&
                       strcmp(a->path, b->path) == 0);
}

const char *ov_meta_difference(const tc_ovni_meta *a, const tc_ovni_meta *b)
{
#define SAME(f) if (a->f != b->f) return #f
    SAME(readable);
    SAME(thread);
    SAME(has_tid);
    SAME(has_pid);
    SAME(has_app_id);
    SAME(has_rank);
    SAME(has_nranks);
    SAME(has_loom);
    SAME(has_cpus);
    SAME(ncpus);
    SAME(models.known);
    SAME(models.unknown_required);
#undef SAME
#define SAME_IF(has, f) if (a->has && a->f != b->f) return #f
    SAME_IF(has_tid, tid);
    SAME_IF(has_pid, pid);
    SAME_IF(has_app_id, app_id);
    SAME_IF(has_rank, rank);
    SAME_IF(has_nranks, nranks);
#undef SAME_IF
    if (a->has_loom && strcmp(a->loom, b->loom) != 0)
        return "loom";
    if (!loc_eq(&a->tid_at, &b->tid_at) || !loc_eq(&a->pid_at, &b->pid_at) ||
        !loc_eq(&a->loom_at, &b->loom_at) || !loc_eq(&a->app_id_at, &b->app_id_at) ||
        !loc_eq(&a->rank_at, &b->rank_at) || !loc_eq(&a->nranks_at, &b->nranks_at) ||
        !loc_eq(&a->cpus_at, &b->cpus_at))
        return "a location";
    for (size_t i = 0; i < a->ncpus; i++)
        if (a->cpus[i].index != b->cpus[i].index || a->cpus[i].phyid != b->cpus[i].phyid)
            return "cpus";
    if (memcmp(a->models.letters, b->models.letters, sizeof a->models.letters) != 0)
        return "models.letters";
    if (memcmp(a->models.incompatible, b->models.incompatible, sizeof a->models.incompatible) != 0)
        return "models.incompatible";
    if (strcmp(a->models.names, b->models.names) != 0)
        return "models.names";
    return NULL;
}

