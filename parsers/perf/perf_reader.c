/*
 * SiFive perf data: the container chosen by option or file name, its
 * messages fed to the perf state machine (spec/perf/perf.md).
 */
#include <stdlib.h>
#include <string.h>

#include "../common/fields.h"
#include "../common/input.h"
#include "perf.h"
#include "perf_binary.h"
#include "perf_msg.h"
#include "perf_sm.h"

static int ends_with(const char *s, size_t len, const char *suffix)
{
    size_t k = strlen(suffix);
    return len >= k && memcmp(s + len - k, suffix, k) == 0;
}

tc_perf_container tc_perf_container_of_name(const char *name)
{
    if (!name)
        return TC_PERF_CONTAINER_BY_NAME;
    /* The name is judged without its compression suffix. */
    size_t len = tc_strip_compression_suffix(name, strlen(name));
    if (ends_with(name, len, ".rtd"))
        return TC_PERF_CONTAINER_RTD;
    if (ends_with(name, len, ".itc"))
        return TC_PERF_CONTAINER_TEXT;
    return TC_PERF_CONTAINER_BY_NAME;
}

typedef struct perf_run {
    tc_perf_sm sm;
    const tc_parse_ctx *ctx;
    tc_perf_bins *bins; /* --binary: the programs' function symbols; NULL: none given */
    tc_perf_event named; /* a record with its names (bins) */
} perf_run;

static void on_msg(void *user, const tc_perf_msg *m)
{
    perf_run *p = user;
    if (TC_FIELDS_WANT(p->ctx->diags)) {
        char due[200];
        tc_perf_sm_due(&p->sm, m, due, sizeof due);
        tc_fields_field(p->ctx->diags, m->offset, m->length, 0, 0, "read as", "%s", due);
    }
    tc_perf_sm_feed(&p->sm, m);
}

/* Without a view, messages go straight to the state machine: one at a
 * time from the text list, a batch at a time from Nexus. */
static void on_msg_plain(void *user, const tc_perf_msg *m)
{
    tc_perf_sm_feed(&((perf_run *)user)->sm, m);
}

static void on_batch(void *user, const tc_perf_msg *m, size_t n)
{
    tc_perf_sm_feed_many(&((perf_run *)user)->sm, m, n);
}

static void on_event(void *user, const tc_perf_event *ev)
{
    perf_run *p = user;
    if (p->bins && ev->kind == TC_PERF_EV_RECORD) {
        p->named = *ev;
        tc_perf_bins_record(p->bins, p->ctx->diags, &p->named);
        ev = &p->named;
    }
    if (p->ctx->on_event)
        p->ctx->on_event(p->ctx->user, ev);
}

void tc_perf_parse(tc_reader *r, const tc_parse_ctx *ctx)
{
    static const tc_options defaults = TC_OPTIONS_INIT;
    const tc_options *o = ctx->options ? ctx->options : &defaults;
    /* The options are checked by the command line; through the library an
     * out-of-range value means nothing can be checked. */
    if (o->perf_srcbits > TC_NEXUS_MAX_SRCBITS || o->perf_channel > TC_PERF_MAX_CHANNEL) {
        tc_diag_fail(ctx->diags,
                     "perf options out of range: SRC bits %u (0 to %u), channel %u "
                     "(0 to %u)",
                     o->perf_srcbits, TC_NEXUS_MAX_SRCBITS, o->perf_channel, TC_PERF_MAX_CHANNEL);
        return;
    }
    tc_perf_container container = o->perf_container;
    if (container == TC_PERF_CONTAINER_BY_NAME)
        container = tc_perf_container_of_name(ctx->diags->input);
    perf_run *p = malloc(sizeof *p);
    if (!p) {
        tc_diag_fail(ctx->diags, "out of memory");
        return;
    }
    p->ctx = ctx;
    int failed;
    p->bins = tc_perf_bins_open(ctx, &failed);
    if (failed) {
        free(p);
        return;
    }
    tc_perf_sm_init(&p->sm, ctx->diags, o->perf_channel, o->perf_marker,
                    ctx->on_event || p->bins ? on_event : NULL, p);
    int view = TC_FIELDS_ON(ctx->diags);
    if (container == TC_PERF_CONTAINER_TEXT)
        tc_itc_text_read(r, ctx->diags, view ? on_msg : on_msg_plain, p);
    else if (view)
        tc_nexus_read(r, ctx->diags, o->perf_srcbits, on_msg, p, &p->sm.wrapped);
    else
        tc_nexus_read_batch(r, ctx->diags, o->perf_srcbits, on_batch, p, &p->sm.wrapped);
    tc_perf_sm_finish(&p->sm);
    tc_perf_bins_close(p->bins);
    free(p);
}

