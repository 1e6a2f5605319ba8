/* `tracecheck validate` and `dump` of a DCFG: read, cross-check, dump. */
#include "dcfg.h"
#include "dcfg_doc.h"
#include "dcfg_dump.h"

void tc_dcfg_parse(tc_reader *r, const tc_parse_ctx *ctx)
{
    dcfg_doc doc = {0};
    doc.d = ctx->diags;
    doc.dump = ctx->on_event != NULL;
    dcfg_read(r, &doc);
    if (!doc.broken)
        dcfg_check(&doc);
    if (ctx->on_event)
        dcfg_dump_all(&doc, ctx->on_event, ctx->user);
    dcfg_doc_free(&doc);
}
