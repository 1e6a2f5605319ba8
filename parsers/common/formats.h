/* The registry of formats: how each is detected, parsed and dumped. */
#ifndef TC_FORMATS_H
#define TC_FORMATS_H

#include <stddef.h>
#include <stdint.h>

#include "jsonl.h"
#include "parse.h"
#include "tracecheck/tracecheck.h"

/* Bytes looked at to detect a format. */
#define TC_SNIFF_BYTES 64

typedef struct tc_format_ops {
    tc_format format;
    const char *name;
    const char *rule_family;  /* rule id prefix: "XRAY" */
    const char *description;
    int (*sniff)(const uint8_t *p, size_t n);
    void (*parse)(tc_reader *r, const tc_parse_ctx *ctx);
    void (*dump)(tc_jsonl *w, const void *event); /* canonical dump of one event */
} tc_format_ops;

/* NULL for formats not built in. */
const tc_format_ops *tc_format_ops_for(tc_format f);

/* TC_FORMAT_AUTO when nothing matches. */
tc_format tc_format_detect(const uint8_t *p, size_t n);
/* The same, with the input's name (NULL when none) for formats the first
 * bytes cannot tell apart (DCFG and DCFG-trace, spec/dcfg.md) or that have
 * no magic number at all (SiFive perf: .rtd and .itc, spec/perf.md). */
tc_format tc_format_detect_named(const uint8_t *p, size_t n, const char *name);

#endif
