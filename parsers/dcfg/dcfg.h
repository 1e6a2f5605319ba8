/* Intel DCFG (spec/dcfg/dcfg.md): validation, detection and canonical dump. */
#ifndef TC_DCFG_H
#define TC_DCFG_H

#include <stddef.h>
#include <stdint.h>

#include "../common/jsonl.h"
#include "../common/parse.h"

/* Validates a DCFG; with ctx->on_event, hands over the dump's lines
 * (tc_dcfg_dump_rec) after the checks. */
void tc_dcfg_parse(tc_reader *r, const tc_parse_ctx *ctx);
void tc_dcfg_dump(tc_jsonl *w, const void *rec);

/* Detection (spec/dcfg/dcfg.md, "Detection"): 0 not a DCFG-family document, 1
 * a DCFG, 2 a DCFG-trace. `name` (may be NULL) decides when the first
 * bytes do not. */
int tc_dcfg_sniff_kind(const uint8_t *p, size_t n, const char *name);
/* The same as the registry asks it: a DCFG (resp. a DCFG-trace). */
int tc_dcfg_sniff(const uint8_t *p, size_t n, const char *name);
int tc_dtrc_sniff(const uint8_t *p, size_t n, const char *name);
/* By the name alone: 1 ".dcfg.json", 2 ".trace.json" (either followed by a
 * compression suffix), 0 neither (or NULL). */
int tc_dcfg_kind_of_name(const char *name);

#endif
