/*
 * The ovni reader: one stream file read on its own, a binary stream
 * (stream.obs, with the model layer) or metadata (stream.json), told apart by
 * content. Whole trace directories are ovni_trace.c's.
 */
#include "../common/parse.h"
#include "ovni.h"
#include "ovni_dump.h"
#include "ovni_meta.h"
#include "ovni_model.h"
#include "ovni_run.h"

/* Whether the bytes start a JSON object (after a BOM and white space): with
 * the format named, any such file is metadata, whatever key comes first. */
static int json_object_start(const uint8_t *p, size_t n)
{
    size_t i = n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf ? 3 : 0;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r'))
        i++;
    return i < n && p[i] == '{';
}

void tc_ovni_parse(tc_reader *r, const tc_parse_ctx *ctx)
{
    const uint8_t *p = tc_need(r, 4);
    if (!p || !tc_ovni_sniff_stream(p, 4)) {
        const uint8_t *q = tc_need(r, 64);
        size_t n = q ? 64 : tc_avail(r);
        if (tc_ovni_sniff_metadata(r->cur, n) || json_object_start(r->cur, n)) {
            tc_ovni_meta m;
            tc_ovni_meta_read(r, ctx->diags, &m);
            tc_ovni_meta_free(&m);
            return;
        }
    }
    /* A binary stream (or what claims to be one: the header checks say). */
    tc_ovni_stream *s = tc_ovni_stream_new(r, ctx->diags, 1);
    if (!s)
        return;
    tc_ovni_model model;
    tc_ovni_model_init(&model, ctx->diags, NULL);
    if (tc_ovni_stream_header(s)) {
        tc_ovni_dump_record rec = {TC_OVNI_REC_HEADER, ".", NULL, 0, NULL};
        if (ctx->on_event) {
            ctx->on_event(ctx->user, &rec);
            rec = (tc_ovni_dump_record){TC_OVNI_REC_STREAM, ".", NULL,
                                        tc_ovni_stream_big_endian(s), NULL};
            ctx->on_event(ctx->user, &rec);
        }
        tc_ovni_event ev;
        const tc_ovni_event_info *shared;
        if (!ctx->no_models && !ctx->on_event) /* validation alone: the model's fast loop */
            while (tc_ovni_run(s, &model, &ev, &shared))
                tc_ovni_model_shared(&model, &ev, shared);
        while (tc_ovni_stream_next(s, &ev)) {
            if (!ctx->no_models)
                tc_ovni_model_event(&model, &ev);
            if (ctx->on_event) {
                rec = (tc_ovni_dump_record){TC_OVNI_REC_EVENT, ".", &ev, 0, NULL};
                ctx->on_event(ctx->user, &rec);
            }
        }
        if (!ctx->no_models) {
            model.cut = tc_ovni_stream_cut(s);
            tc_ovni_model_finish(&model);
        }
    }
    tc_ovni_model_free(&model);
    tc_ovni_stream_free(s);
}
