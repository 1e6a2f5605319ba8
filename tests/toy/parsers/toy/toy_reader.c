/* The toy format's reader (spec/toy/toy.md) and its dump. */
#include <string.h>

#include "../common/bytes.h"
#include "../common/dump.h"
#include "toy.h"

int tc_toy_sniff(const uint8_t *p, size_t n)
{
    return n >= 4 && memcmp(p, TC_TOY_MAGIC, 4) == 0;
}

void tc_toy_parse(tc_reader *r, const tc_parse_ctx *ctx)
{
    const uint8_t *p = tc_need(r, 4);
    if (!p || memcmp(p, TC_TOY_MAGIC, 4) != 0) {
        tc_report(ctx->diags, TC_RULE_TOY_MAGIC, 0, p ? 4 : tc_avail(r),
                  "the file starts with %zu byte(s) that are not TOY1", p ? (size_t)4 : tc_avail(r));
        return;
    }
    tc_advance(r, 4);
    if (ctx->on_event) {
        tc_toy_record header = {.header = 1};
        ctx->on_event(ctx->user, &header);
    }
    int have_step = 0;
    unsigned last_step = 0;
    uint64_t last_step_at = 0;
    while (!tc_at_end(r)) {
        uint64_t at = tc_pos(r);
        p = tc_need(r, TC_TOY_RECORD_SIZE);
        if (!p) {
            size_t left = tc_avail(r);
            tc_report(ctx->diags, TC_RULE_TOY_RECORD_TRUNCATED, at, left,
                      "the file ends %zu byte(s) into a record of 4", left);
            return;
        }
        tc_toy_record rec = {0, at, tc_rd16(p, 0), tc_rd16(p + 2, 0)};
        tc_advance(r, TC_TOY_RECORD_SIZE);
        if (rec.kind != 1 && rec.kind != 2) {
            tc_report(ctx->diags, TC_RULE_TOY_KIND_UNKNOWN, at, 2,
                      "kind %u (known: 1, a step; 2, a mark)", rec.kind);
            continue;
        }
        if (rec.kind == 1) {
            if (have_step && rec.value < last_step)
                tc_report(ctx->diags, TC_RULE_TOY_STEP_BACKWARDS, at + 2, 2,
                          "step value %u after %u (the step at offset %llu)", rec.value,
                          last_step, (unsigned long long)last_step_at);
            have_step = 1;
            last_step = rec.value;
            last_step_at = at;
        }
        if (ctx->on_event)
            ctx->on_event(ctx->user, &rec);
    }
}

void tc_toy_dump(tc_jsonl *w, const void *event)
{
    const tc_toy_record *rec = event;
    if (rec->header) {
        tc_jl_begin(w, "header");
        tc_jl_str(w, "format", "toy");
        tc_jl_int(w, "dump_version", TC_DUMP_VERSION);
        tc_jl_end(w);
        return;
    }
    tc_jl_begin(w, "record");
    tc_jl_u64s(w, "offset", rec->offset);
    tc_jl_uint(w, "kind", rec->kind);
    tc_jl_uint(w, "value", rec->value);
    tc_jl_end(w);
}
