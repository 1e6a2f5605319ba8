#include <stdlib.h>
#include <string.h>

#include "../common/bytes.h"
#include "ovni_dump.h"
#include "ovni_merge.h"
#include "ovni_models.h"

/* The payload by field name (spec/ovni/models.def), when it matches its
 * event's layout: "fields":{"taskid":5,"typeid":2}. 64-bit fields are
 * decimal strings, as everywhere in the dump; a string field is the text
 * before its NUL; an array field an array of decimal strings. */
static void fields(tc_jsonl *w, const tc_ovni_event *ev, const tc_ovni_event_info *e)
{
    char why[8];
    if ((e->flags & TC_OVNI_EVF_OLD) || (!ev->payload && ev->payload_len) ||
        tc_ovni_payload_mismatch(e, ev->jumbo, ev->payload, ev->payload_len, why, sizeof why))
        return;
    tc_ovni_field f[TC_OVNI_MAX_FIELDS];
    unsigned n = tc_ovni_event_fields(e, f);
    if (!n)
        return;
    tc_jl_object_begin(w, "fields");
    const uint8_t *p = ev->payload, *end = ev->payload + ev->payload_len;
    int be = ev->big_endian;
    for (unsigned i = 0; i < n; i++) {
        unsigned size = tc_ovni_type_size(f[i].type);
        if (f[i].type == TC_OVNI_T_str) {
            const uint8_t *nul = memchr(p, 0, (size_t)(end - p));
            size_t len = nul ? (size_t)(nul - p) : (size_t)(end - p);
            tc_jl_latin1(w, f[i].name, p, len);
            p = end;
            continue;
        }
        if (f[i].array) {
            tc_jl_array_begin(w, f[i].name);
            for (; p + size <= end; p += size)
                tc_jl_array_i64s(w, (int64_t)tc_rd64(p, be));
            tc_jl_array_end(w);
            continue;
        }
        switch (f[i].type) {
        case TC_OVNI_T_u8: tc_jl_uint(w, f[i].name, p[0]); break;
        case TC_OVNI_T_i8: tc_jl_int(w, f[i].name, (int8_t)p[0]); break;
        case TC_OVNI_T_u16: tc_jl_uint(w, f[i].name, tc_rd16(p, be)); break;
        case TC_OVNI_T_i16: tc_jl_int(w, f[i].name, (int16_t)tc_rd16(p, be)); break;
        case TC_OVNI_T_u32: tc_jl_uint(w, f[i].name, tc_rd32(p, be)); break;
        case TC_OVNI_T_i32: tc_jl_int(w, f[i].name, (int32_t)tc_rd32(p, be)); break;
        case TC_OVNI_T_u64: tc_jl_u64s(w, f[i].name, tc_rd64(p, be)); break;
        default: tc_jl_i64s(w, f[i].name, (int64_t)tc_rd64(p, be)); break;
        }
        p += size;
    }
    tc_jl_object_end(w);
}

void tc_ovni_dump(tc_jsonl *w, const void *record)
{
    const tc_ovni_dump_record *rec = record;
    const tc_ovni_event *ev = rec->ev;
    switch (rec->kind) {
    case TC_OVNI_REC_HEADER:
        tc_jl_begin(w, "header");
        tc_jl_str(w, "format", "ovni");
        tc_jl_int(w, "dump_version", TC_DUMP_VERSION);
        break;
    case TC_OVNI_REC_STREAM:
        tc_jl_begin(w, "stream");
        tc_jl_str(w, "path", rec->stream);
        tc_jl_str(w, "byte_order", rec->big_endian ? "big" : "little");
        if (rec->meta && rec->meta->readable && rec->meta->thread) {
            if (rec->meta->has_loom)
                tc_jl_str(w, "loom", rec->meta->loom);
            if (rec->meta->has_pid)
                tc_jl_int(w, "pid", rec->meta->pid);
            if (rec->meta->has_tid)
                tc_jl_int(w, "tid", rec->meta->tid);
        }
        break;
    case TC_OVNI_REC_EVENT:
        tc_jl_begin(w, "event");
        tc_jl_str(w, "stream", rec->stream);
        tc_jl_u64s(w, "clock", ev->clock);
        /* Byte by byte: a corrupt event's MCV (a NUL, bytes above 0x7F)
         * stays three characters and valid JSON. */
        tc_jl_latin1(w, "mcv", (const uint8_t *)ev->mcv, 3);
        tc_jl_uint(w, "flags", ev->flags);
        tc_jl_uint(w, "size_code", ev->size_code);
        if (ev->jumbo)
            tc_jl_uint(w, "jumbo_size", ev->payload_len);
        if (ev->payload || ev->payload_len == 0)
            tc_jl_hex(w, "payload", ev->payload ? ev->payload : (const uint8_t *)"", ev->payload_len);
        else
            tc_jl_null(w, "payload");
        {
            tc_ovni_model_id id = tc_ovni_model_of_letter((unsigned char)ev->mcv[0]);
            const tc_ovni_event_info *e = tc_ovni_event_lookup(
                (unsigned char)ev->mcv[0], (unsigned char)ev->mcv[1], (unsigned char)ev->mcv[2]);
            if (id != TC_OVNI_M_NONE)
                tc_jl_str(w, "model", tc_ovni_model_table[id].name);
            if (e)
                fields(w, ev, e);
        }
        break;
    default:
        return;
    }
    tc_jl_end(w);
}

/* One stream being merged: its reader and its next event. */
typedef struct source {
    tc_ovni_head head;  /* first: its next event and place, in the merge */
    tc_input *in;
    tc_ovni_stream *s;
    tc_diag_sink quiet; /* findings were reported by the validation pass */
    const char *rel;
} source;

int tc_ovni_dump_trace(FILE *out, tc_ovni_stream_file *streams, size_t n, const tc_input_opts *io,
                       tc_error *err)
{
    tc_jsonl w = {.f = out};
    tc_ovni_dump_record rec = {TC_OVNI_REC_HEADER, NULL, NULL, 0, NULL};
    tc_ovni_dump(&w, &rec);
    source *src = calloc(n ? n : 1, sizeof *src);
    tc_ovni_head **heap = calloc(n ? n : 1, sizeof *heap);
    int rc = 0;
    if (!src || !heap) {
        free(src);
        free(heap);
        tc_error_set(err, "ovni", "out of memory for the merged dump of %zu streams", n);
        return -1;
    }
    /* Many streams are open at once: small windows keep memory modest. */
    tc_input_opts small = io ? *io : (tc_input_opts){0};
    if (!small.window || small.window > (1u << 20))
        small.window = 1u << 20;
    size_t live = 0;
    for (size_t i = 0; i < n; i++) {
        tc_ovni_stream_file *f = &streams[i];
        rec = (tc_ovni_dump_record){TC_OVNI_REC_STREAM, f->rel, NULL, f->big_endian,
                                    f->has_json ? &f->meta : NULL};
        if (f->has_obs)
            tc_ovni_dump(&w, &rec);
        source *s = &src[i];
        s->head.index = i;
        s->rel = f->rel;
        if (!f->has_obs)
            continue;
        /* Every stream is open at once: a stream left out would make a
         * silently wrong dump, so failing to open one fails the dump. */
        if (!(s->in = tc_input_open(f->obs, &small, err))) {
            tc_error_add(err, "ovni", "%s", f->obs);
            tc_error_note(err, "ovni",
                          "the merged dump holds all %zu streams open; raise the limit with "
                          "ulimit -n",
                          n);
            rc = -1;
            break;
        }
        tc_diag_init(&s->quiet, f->obs, 1, 0, NULL, NULL);
        s->s = tc_ovni_stream_new(tc_input_reader(s->in), &s->quiet, 1);
        if (s->s && tc_ovni_stream_header(s->s) && tc_ovni_stream_next(s->s, &s->head.ev))
            heap[live++] = &s->head;
    }
    if (rc != 0)
        live = 0;
    tc_ovni_heapify(heap, live);
    while (live) {
        source *s = (source *)heap[0];
        rec = (tc_ovni_dump_record){TC_OVNI_REC_EVENT, s->rel, &s->head.ev, 0, NULL};
        tc_ovni_dump(&w, &rec);
        if (!tc_ovni_stream_next(s->s, &s->head.ev))
            heap[0] = heap[--live];
        tc_ovni_sift_down(heap, live, 0);
    }
    for (size_t i = 0; i < n; i++) {
        tc_ovni_stream_free(src[i].s);
        tc_input_close(src[i].in);
    }
    free(src);
    free(heap);
    return rc;
}
