/* What a generated XRay trace must read back as: see xray_model_oracle.h. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../../generators/common/bytebuf.h"
#include "../../generators/xray/xray_basic_model.h"
#include "../../generators/xray/xray_model.h"
#include "../../parsers/xray/xray.h"
#include "xray_model_oracle.h"

/* ---- the model ---- */

void xray_model_oracle_keep(xray_model_oracle_model *m, const xray_buffer *b)
{
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 16;
        m->bufs = realloc(m->bufs, m->cap * sizeof *m->bufs);
        FUZZ_CHECK_ALLOC(m->bufs);
    }
    xray_model_oracle_kept *k = &m->bufs[m->n++];
    k->n = b->n;
    k->recs = malloc((b->n ? b->n : 1) * sizeof *k->recs);
    k->pool = malloc(b->pool.len ? b->pool.len : 1);
    FUZZ_CHECK_ALLOC(k->recs);
    FUZZ_CHECK_ALLOC(k->pool);
    memcpy(k->recs, b->recs, b->n * sizeof *k->recs);
    if (b->pool.len)
        memcpy(k->pool, b->pool.p, b->pool.len);
    k->used = xray_buffer_used(b);
}

void xray_model_oracle_model_free(xray_model_oracle_model *m)
{
    for (size_t i = 0; i < m->n; i++) {
        free(m->bufs[i].recs);
        free(m->bufs[i].pool);
    }
    free(m->bufs);
}


/* ---- rebuilding the model from the events ---- */

typedef struct reader_state {
    const xr_run *run;
    size_t i;
} reader_state;

static const tc_xray_event *take(reader_state *rs, const char *want)
{
    FUZZ_ASSERT_MSG(rs->i < rs->run->nevents, "the events end where %s was due", want);
    return &rs->run->events[rs->i++];
}

/* The record an event decodes, as the model holds it; payloads are appended
 * to b's pool. */
static void rebuild(xray_buffer *b, const tc_xray_event *e, unsigned version)
{
    if (e->kind == TC_XRAY_EV_FUNCTION) {
        xray_add_function(b, e->action, e->func_id, e->delta);
        return;
    }
    xray_rec *r;
    if (e->kind == TC_XRAY_CUSTOM_EVENT || e->kind == TC_XRAY_TYPED_EVENT) {
        FUZZ_ASSERT_MSG(e->data != NULL, "event at %" PRIu64 " without its payload", e->offset);
        r = xray_add_event(b, (unsigned)e->kind, e->data, (uint32_t)e->data_len);
        r->i32 = e->size;
        if (e->kind == TC_XRAY_TYPED_EVENT || version >= 5)
            r->delta = e->delta;
        else
            r->u64 = e->value;
        if (e->kind == TC_XRAY_TYPED_EVENT)
            r->u16 = e->event_type;
        else if (version == 4)
            r->u16 = e->event_cpu;
        return;
    }
    r = xray_add_meta(b, (unsigned)e->kind);
    switch (e->kind) {
    case TC_XRAY_NEW_BUFFER:
    case TC_XRAY_PID: r->i32 = e->id; break;
    case TC_XRAY_NEW_CPU:
        r->u16 = e->cpu;
        r->u64 = e->value;
        break;
    case TC_XRAY_TSC_WRAP:
    case TC_XRAY_CALL_ARG: r->u64 = e->value; break;
    case TC_XRAY_WALL_TIME:
        r->u64 = (uint64_t)e->wall_sec;
        r->i32 = e->wall_usec;
        break;
    default:
        FUZZ_FAIL("a valid trace decoded to a record of kind %d at %" PRIu64, e->kind, e->offset);
    }
}

/* The fields of a model record that the version writes (the others, such
 * as a version 1-3 custom event's CPU, do not survive encoding). */
static void expect_same_rec(const xray_rec *want, const uint8_t *want_pool, const xray_rec *got,
                            const uint8_t *got_pool, unsigned version, uint64_t offset)
{
    FUZZ_ASSERT_MSG(want->type == got->type, "record at %" PRIu64 ": type %u, decoded %u", offset,
                    want->type, got->type);
    if (want->type == XR_FUNCTION) {
        FUZZ_ASSERT_MSG(want->action == got->action && want->func_id == got->func_id &&
                            want->delta == got->delta,
                        "function record at %" PRIu64 ": action %u id %" PRIu32 " delta %" PRIu32
                        ", decoded action %u id %" PRIu32 " delta %" PRIu32, offset, want->action,
                        want->func_id, want->delta, got->action, got->func_id, got->delta);
        return;
    }
    FUZZ_ASSERT_MSG(want->kind == got->kind, "record at %" PRIu64 ": kind %u, decoded %u", offset,
                    want->kind, got->kind);
    int u16 = 0, u64 = 0, i32 = 0, delta = 0;
    switch (want->kind) {
    case TC_XRAY_NEW_BUFFER:
    case TC_XRAY_PID: i32 = 1; break;
    case TC_XRAY_NEW_CPU: u16 = u64 = 1; break;
    case TC_XRAY_TSC_WRAP:
    case TC_XRAY_CALL_ARG: u64 = 1; break;
    case TC_XRAY_WALL_TIME: u64 = i32 = 1; break;
    case TC_XRAY_CUSTOM_EVENT:
        i32 = 1;
        delta = version >= 5;
        u64 = version < 5;
        u16 = version == 4;
        break;
    case TC_XRAY_TYPED_EVENT: i32 = delta = u16 = 1; break;
    default: break;
    }
    FUZZ_ASSERT_MSG(!i32 || want->i32 == got->i32, "%s at %" PRIu64 ": i32 %" PRId32 ", decoded %"
                    PRId32, tc_xray_kind_name(want->kind), offset, want->i32, got->i32);
    FUZZ_ASSERT_MSG(!u16 || want->u16 == got->u16, "%s at %" PRIu64 ": u16 %u, decoded %u",
                    tc_xray_kind_name(want->kind), offset, want->u16, got->u16);
    FUZZ_ASSERT_MSG(!u64 || want->u64 == got->u64, "%s at %" PRIu64 ": u64 %" PRIu64 ", decoded %"
                    PRIu64, tc_xray_kind_name(want->kind), offset, want->u64, got->u64);
    FUZZ_ASSERT_MSG(!delta || want->delta == got->delta, "%s at %" PRIu64 ": delta %" PRIu32
                    ", decoded %" PRIu32, tc_xray_kind_name(want->kind), offset, want->delta,
                    got->delta);
    FUZZ_ASSERT_MSG(want->payload_len == got->payload_len &&
                        (want->payload_len == 0 ||
                         memcmp(want_pool + want->payload, got_pool + got->payload,
                                want->payload_len) == 0),
                    "%s at %" PRIu64 ": the payload (%" PRIu32 " bytes) differs",
                    tc_xray_kind_name(want->kind), offset, want->payload_len);
}

/* What the parser must say about the state after a record of the model:
 * the buffer's thread and process, the CPU and TSC a reader reconstructs. */
typedef struct state {
    int32_t tid, pid;
    uint16_t cpu;
    uint64_t tsc;
} state;

static void advance_state(state *s, const xray_rec *r, unsigned version)
{
    if (r->type == XR_FUNCTION) {
        s->tsc += r->delta;
        return;
    }
    switch (r->kind) {
    case TC_XRAY_NEW_BUFFER: s->tid = r->i32; break;
    case TC_XRAY_PID: s->pid = r->i32; break;
    case TC_XRAY_NEW_CPU:
        s->cpu = r->u16;
        s->tsc = r->u64;
        break;
    case TC_XRAY_TSC_WRAP: s->tsc = r->u64; break;
    case TC_XRAY_CUSTOM_EVENT:
        if (version >= 5)
            s->tsc += (uint64_t)(int64_t)(int32_t)r->delta;
        break;
    case TC_XRAY_TYPED_EVENT: s->tsc += (uint64_t)(int64_t)(int32_t)r->delta; break;
    default: break;
    }
}

/* Walks the events against the model, rebuilding each buffer into `again`
 * and writing it to `out` for the byte comparison. */
void xray_model_oracle_compare_fdr(const xray_model_oracle_model *m, const xr_run *run, tc_bytebuf *out, tc_rng *padding)
{
    const tc_xray_header *h = &m->fh.h;
    reader_state rs = {run, 0};
    const tc_xray_event *e = take(&rs, "the header");
    FUZZ_ASSERT(e->kind == TC_XRAY_EV_HEADER && run->have_header);
    const tc_xray_header *g = &run->header;
    FUZZ_ASSERT_MSG(g->version == h->version && g->type == h->type && g->bitfield == h->bitfield &&
                        g->cycle_frequency == h->cycle_frequency &&
                        g->buffer_size == h->buffer_size && g->big_endian == h->big_endian,
                    "the header decodes to version %u type %u bits 0x%" PRIx32 " freq %" PRIu64
                    " size %" PRIu64 " be %d", g->version, g->type, g->bitfield,
                    g->cycle_frequency, g->buffer_size, g->big_endian);
    xray_file_header fh = m->fh;
    fh.h = *g;
    xray_write_header(out, &fh);

    xray_buffer again = {0};
    for (size_t bi = 0; bi < m->n; bi++) {
        const xray_model_oracle_kept *k = &m->bufs[bi];
        xray_buffer_clear(&again);
        if (h->version >= 2) {
            e = take(&rs, "BufferExtents");
            FUZZ_ASSERT_MSG(e->kind == TC_XRAY_BUFFER_EXTENTS && e->value == k->used,
                            "buffer %zu: kind %d value %" PRIu64 " where BufferExtents(%" PRIu64
                            ") belongs", bi, e->kind, e->value, k->used);
        }
        state s = {0};
        for (size_t ri = 0; ri < k->n; ri++) {
            e = take(&rs, "a record");
            rebuild(&again, e, h->version);
            expect_same_rec(&k->recs[ri], k->pool, &again.recs[again.n - 1], again.pool.p,
                            h->version, e->offset);
            advance_state(&s, &k->recs[ri], h->version);
            FUZZ_ASSERT_MSG(e->tid == s.tid && e->pid == s.pid && e->cpu == s.cpu &&
                                e->tsc == s.tsc,
                            "after the record at %" PRIu64 " the parser has tid %" PRId32
                            " pid %" PRId32 " cpu %u tsc %" PRIu64 "; the model %" PRId32
                            " %" PRId32 " %u %" PRIu64, e->offset, e->tid, e->pid, e->cpu,
                            e->tsc, s.tid, s.pid, s.cpu, s.tsc);
        }
        if (h->version == 1 && k->used + TC_XRAY_METADATA_SIZE <= h->buffer_size) {
            e = take(&rs, "EndOfBuffer");
            FUZZ_ASSERT_MSG(e->kind == TC_XRAY_END_OF_BUFFER, "kind %d at %" PRIu64
                            " where EndOfBuffer belongs", e->kind, e->offset);
        }
        xray_write_buffer(out, g, &again, padding);
    }
    xray_buffer_free(&again);
    FUZZ_ASSERT_MSG(rs.i == run->nevents, "%zu events after the last buffer",
                    run->nevents - rs.i);
}

/* ---- basic mode ---- */

void xray_model_oracle_compare_basic(const xray_basic_header *bh, const xray_basic_block *all,
                       const xr_run *run, const tc_bytebuf *bytes)
{
    /* The header, then one event per record with the record's fields. */
    const tc_xray_header *g = &run->header;
    FUZZ_ASSERT_MSG(run->have_header && g->version == bh->h.version && g->type == 0 &&
                        g->bitfield == bh->h.bitfield &&
                        g->cycle_frequency == bh->h.cycle_frequency &&
                        g->big_endian == bh->h.big_endian,
                    "the basic-mode header decodes to version %u type %u bits 0x%" PRIx32
                    " freq %" PRIu64 " be %d", g->version, g->type, g->bitfield,
                    g->cycle_frequency, g->big_endian);
    FUZZ_ASSERT_MSG(run->nevents == 1 + all->n, "%zu events for %zu records", run->nevents, all->n);
    xray_basic_block again = {0};
    for (size_t i = 0; i < all->n; i++) {
        const xray_basic_rec *w = &all->recs[i];
        const tc_xray_event *e = &run->events[1 + i];
        xray_basic_rec *x = xray_basic_insert(&again, again.n);
        x->func = (int32_t)e->func_id;
        x->tid = (uint32_t)e->tid;
        x->pid = (uint32_t)e->pid;
        if (e->kind == TC_XRAY_EV_BASIC_ARG) {
            x->rtype = TC_XRAY_BASIC_ARG_PAYLOAD;
            x->arg = e->value;
        } else {
            FUZZ_ASSERT_MSG(e->kind == TC_XRAY_EV_BASIC_FUNCTION, "record %zu decodes to kind %d",
                            i, e->kind);
            x->rtype = TC_XRAY_BASIC_FUNCTION;
            x->cpu = (uint8_t)e->cpu;
            x->type = (uint8_t)e->action;
            x->tsc = e->tsc;
        }
        FUZZ_ASSERT_MSG(x->rtype == w->rtype && x->func == w->func && x->tid == w->tid &&
                            x->pid == w->pid && x->cpu == w->cpu && x->type == w->type &&
                            x->tsc == w->tsc && x->arg == w->arg,
                        "record %zu at %" PRIu64 ": written type %u/%u func %" PRId32
                        " tid %" PRIu32 " tsc %" PRIu64 ", decoded %u/%u %" PRId32 " %" PRIu32
                        " %" PRIu64, i, e->offset, w->rtype, w->type, w->func, w->tid, w->tsc,
                        x->rtype, x->type, x->func, x->tid, x->tsc);
    }
    tc_bytebuf out = {0};
    xray_basic_header bh2 = *bh;
    bh2.h = *g;
    xray_basic_write_header(&out, &bh2);
    xray_basic_write_block(&out, g, &again);
    FUZZ_ASSERT_MSG(out.len == bytes->len && memcmp(out.p, bytes->p, out.len) == 0,
                    "the decoded basic-mode log writes other bytes (%zu, not %zu)", out.len,
                    bytes->len);
    tc_bb_free(&out);
    xray_basic_block_free(&again);
}

void xray_model_oracle_expect_no_findings(const xr_run *run, const char *how)
{
    if (run->f.n == 0 && run->f.errors + run->f.warnings + run->f.notes == 0)
        return;
    for (size_t i = 0; i < run->f.n && i < 5; i++)
        hx_print_finding(stderr, how, &run->f.v[i]);
    FUZZ_FAIL("a generated trace has %" PRIu64 " errors, %" PRIu64 " warnings, %" PRIu64
              " notes (%s)", run->f.errors, run->f.warnings, run->f.notes, how);
}
