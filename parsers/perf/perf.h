/*
 * SiFive trace performance data (spec/perf/perf.md): the format's entry points.
 * The container (Nexus .rtd or the text message list) turns the file into
 * ITC messages; the perf state machine (perf_sm.h) reads the perf channel's.
 */
#ifndef TC_PERF_H
#define TC_PERF_H

#include <stddef.h>
#include <stdint.h>

#include "../common/parse.h"

/* The container a file name says (spec/perf/perf.md, "Containers"): a name
 * ending in .rtd is Nexus, one ending in .itc the text message list, each
 * optionally followed by .gz, .bz2 or .zst. TC_PERF_CONTAINER_BY_NAME (0)
 * when the name says neither (or is NULL). */
tc_perf_container tc_perf_container_of_name(const char *name);

/* Validates the perf data read from r (the format registry's entry point):
 * picks the container (ctx->options' perf_container, else by the input's
 * name, ctx->diags->input, else Nexus), reports into ctx->diags and passes
 * each tc_perf_event to ctx->on_event. */
void tc_perf_parse(tc_reader *r, const tc_parse_ctx *ctx);

#endif
